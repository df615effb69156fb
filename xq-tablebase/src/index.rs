//! The index of a table: every placement of an ending's pieces, with the attacking side
//! as Red, numbered compactly.
//!
//! A placement is numbered in mixed radix, most significant first:
//!
//! 1. the *palace pair*: Red's general with its advisors and Black's general with its
//!    advisors, each as one of the combinations with no two pieces on one point (a general
//!    on d0 and advisors on f0 and e1, ...), the pair folded left-right (of a pair and its
//!    mirror image only one is numbered);
//! 2. Red's elephants, then Black's, as a combination of their seven points;
//! 3. Red's chariots, horses, cannons, then soldiers (55 squares), each kind as a
//!    combination of its squares; then Black's, the same way (when both sides attack).
//!
//! Pieces of one kind are interchangeable, so `k` of them on `n` points take `C(n, k)`
//! numbers (the combinatorial number system). Numbers whose pieces share a square, whose
//! generals face each other or whose side not to move is in check are *broken*: the table
//! holds no value for them. A placement whose palace pair is its own mirror image is
//! numbered twice (once per orientation); the larger number is broken too, so every
//! position has exactly one number.

use crate::ending::Ending;
use xq_core::{Color, Fen, File, Piece, PieceKind, Position, Rank, Square, SquareMap};

/// The most pieces an ending has: two generals, four defenders a side, three attackers.
pub(crate) const MAX_PIECES: usize = 16;

/// Binomial coefficients `C(n, k)` for `n <= 90`, `k <= 5`.
const BINOM: [[u64; 6]; 91] = {
    let mut t = [[0u64; 6]; 91];
    let mut n = 0;
    while n <= 90 {
        t[n][0] = 1;
        let mut k = 1;
        while k <= 5 {
            t[n][k] = if n == 0 {
                0
            } else {
                t[n - 1][k - 1] + t[n - 1][k]
            };
            k += 1;
        }
        n += 1;
    }
    t
};

fn sq(file: u8, rank: u8) -> Square {
    Square::new(
        File::from_index(file as usize).expect("file"),
        Rank::from_index(rank as usize).expect("rank"),
    )
}

/// Points of one kind of piece for Red; Black's are mirrored across the river.
fn own_points(kind: PieceKind) -> Vec<Square> {
    match kind {
        PieceKind::General => (0..3).flat_map(|r| (3..6).map(move |f| sq(f, r))).collect(),
        PieceKind::Advisor => vec![sq(3, 0), sq(5, 0), sq(4, 1), sq(3, 2), sq(5, 2)],
        PieceKind::Elephant => vec![
            sq(2, 0),
            sq(6, 0),
            sq(0, 2),
            sq(4, 2),
            sq(8, 2),
            sq(2, 4),
            sq(6, 4),
        ],
        PieceKind::Soldier => Square::ALL
            .into_iter()
            .filter(|&s| Piece::new(Color::Red, PieceKind::Soldier).can_stand_on(s))
            .collect(),
        PieceKind::Horse | PieceKind::Chariot | PieceKind::Cannon => Square::ALL.to_vec(),
    }
}

/// The squares a kind of piece may stand on, numbered, with the numbering's inverse and
/// its mirror image.
#[derive(Clone, Debug)]
struct Points {
    squares: Vec<Square>,
    /// Point number of each square, 255 where the piece cannot stand.
    number: SquareMap<u8>,
    /// The point number of each point's left-right mirror image.
    mirror: Vec<u8>,
}

impl Points {
    fn new(piece: Piece) -> Points {
        let squares: Vec<Square> = own_points(piece.kind)
            .into_iter()
            .map(|s| match piece.color {
                Color::Red => s,
                Color::Black => s.flip_vertical(),
            })
            .collect();
        let mut squares = squares;
        squares.sort();
        let mut number = SquareMap::new(255u8);
        for (i, &s) in squares.iter().enumerate() {
            number[s] = i as u8;
        }
        let mirror = squares
            .iter()
            .map(|s| number[s.flip_horizontal()])
            .collect();
        Points {
            squares,
            number,
            mirror,
        }
    }
}

/// `k` interchangeable pieces on a set of points.
#[derive(Clone, Debug)]
struct Group {
    piece: Piece,
    count: usize,
    points: Points,
    size: u64,
}

impl Group {
    fn new(piece: Piece, count: usize) -> Group {
        let points = Points::new(piece);
        let size = BINOM[points.squares.len()][count];
        Group {
            piece,
            count,
            points,
            size,
        }
    }

    /// The number of the pieces on `squares`, or `None` when one is off its points or
    /// two share a square.
    fn rank(&self, squares: &[Square]) -> Option<u64> {
        let mut p = [0u8; 5];
        for (i, &s) in squares.iter().enumerate() {
            let n = self.points.number[s];
            if n == 255 {
                return None;
            }
            p[i] = n;
        }
        let p = &mut p[..squares.len()];
        p.sort_unstable();
        let mut r = 0;
        for (i, &n) in p.iter().enumerate() {
            if i > 0 && p[i - 1] == n {
                return None;
            }
            r += BINOM[n as usize][i + 1];
        }
        Some(r)
    }

    fn unrank(&self, mut r: u64, out: &mut [Square]) {
        let mut n = self.points.squares.len();
        for i in (1..=self.count).rev() {
            n -= 1;
            while BINOM[n][i] > r {
                n -= 1;
            }
            r -= BINOM[n][i];
            out[i - 1] = self.points.squares[n];
        }
    }
}

/// A general and its advisors, as the combinations with no two on one point.
#[derive(Clone, Debug)]
struct Palace {
    general: Points,
    advisor: Points,
    advisors: usize,
    /// (general point, advisor point mask) of each combination.
    combos: Vec<(u8, u8)>,
    /// Combination number of `general point * 32 + mask`, `u16::MAX` if none.
    number: Vec<u16>,
    mirror: Vec<u16>,
}

impl Palace {
    fn new(color: Color, advisors: usize) -> Palace {
        let general = Points::new(Piece::new(color, PieceKind::General));
        let advisor = Points::new(Piece::new(color, PieceKind::Advisor));
        let mut combos = Vec::new();
        let mut number = vec![u16::MAX; 9 * 32];
        for g in 0..9u8 {
            let gsq = general.squares[g as usize];
            for mask in 0..32u8 {
                if mask.count_ones() as usize != advisors {
                    continue;
                }
                let overlap = (0..5).any(|a| mask >> a & 1 == 1 && advisor.squares[a] == gsq);
                if !overlap {
                    number[g as usize * 32 + mask as usize] = combos.len() as u16;
                    combos.push((g, mask));
                }
            }
        }
        let mirror = combos
            .iter()
            .map(|&(g, mask)| {
                let mg = general.mirror[g as usize];
                let mm = (0..5)
                    .filter(|a| mask >> a & 1 == 1)
                    .fold(0u8, |m, a| m | 1 << advisor.mirror[a]);
                number[mg as usize * 32 + mm as usize]
            })
            .collect();
        Palace {
            general,
            advisor,
            advisors,
            combos,
            number,
            mirror,
        }
    }

    fn rank(&self, general: Square, advisors: &[Square]) -> Option<usize> {
        let g = self.general.number[general];
        let mut mask = 0u8;
        for &a in advisors {
            let n = self.advisor.number[a];
            if n == 255 || mask >> n & 1 == 1 {
                return None;
            }
            mask |= 1 << n;
        }
        if g == 255 {
            return None;
        }
        match self.number[g as usize * 32 + mask as usize] {
            u16::MAX => None,
            n => Some(n as usize),
        }
    }

    fn unrank(&self, n: usize, out: &mut [Square]) {
        let (g, mask) = self.combos[n];
        out[0] = self.general.squares[g as usize];
        let mut i = 1;
        for a in 0..5 {
            if mask >> a & 1 == 1 {
                out[i] = self.advisor.squares[a];
                i += 1;
            }
        }
    }
}

/// Flags of `Layout::pair_of`.
const PAIR_MIRRORED: u32 = 1 << 31;
const PAIR_SYMMETRIC: u32 = 1 << 30;
const PAIR_MASK: u32 = PAIR_SYMMETRIC - 1;

/// Where a position's number comes from.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct Canon {
    /// The number of the position (of its mirror image when that is the one numbered).
    pub index: u64,
    /// Is the position itself the numbered one (not its mirror image)?
    pub is_self: bool,
    /// Is the position its own mirror image?
    pub symmetric: bool,
}

/// The squares of an ending's pieces, in the layout's slot order.
pub(crate) type Placement = [Square; MAX_PIECES];

/// The numbering of one ending's placements.
#[derive(Clone, Debug)]
pub(crate) struct Layout {
    pub ending: Ending,
    /// The piece on each slot of a placement.
    pub slots: Vec<Piece>,
    palaces: [Palace; 2],
    /// Canonical palace pairs as (Red combination, Black combination).
    pairs: Vec<(u16, u16)>,
    /// For `red * black_count + black`: the canonical pair number with flags.
    pair_of: Vec<u32>,
    groups: Vec<Group>,
    /// Placements per side to move.
    pub size: u64,
}

impl Layout {
    /// The entry of number `index` with `side` to move (the attacking side as Red): the
    /// attacking side's numbers first, then the defending side's. [`split`](crate::gen::split)
    /// is the other way.
    pub fn entry(&self, side: Color, index: u64) -> u64 {
        side.index() as u64 * self.size + index
    }

    pub fn new(ending: Ending) -> Layout {
        let palaces = [
            Palace::new(
                Color::Red,
                ending.army(Color::Red).count(PieceKind::Advisor),
            ),
            Palace::new(
                Color::Black,
                ending.army(Color::Black).count(PieceKind::Advisor),
            ),
        ];
        let nb = palaces[1].combos.len();
        let mut pairs = Vec::new();
        let mut pair_of = vec![0u32; palaces[0].combos.len() * nb];
        for r in 0..palaces[0].combos.len() {
            for b in 0..nb {
                let id = r * nb + b;
                let mid = palaces[0].mirror[r] as usize * nb + palaces[1].mirror[b] as usize;
                if id <= mid {
                    let flag = if id == mid { PAIR_SYMMETRIC } else { 0 };
                    pair_of[id] = pairs.len() as u32 | flag;
                    pairs.push((r as u16, b as u16));
                }
            }
        }
        for id in 0..pair_of.len() {
            let (r, b) = (id / nb, id % nb);
            let mid = palaces[0].mirror[r] as usize * nb + palaces[1].mirror[b] as usize;
            if id > mid {
                pair_of[id] = pair_of[mid] | PAIR_MIRRORED;
            }
        }
        let mut slots = Vec::new();
        for color in Color::ALL {
            slots.push(Piece::new(color, PieceKind::General));
            for _ in 0..palaces[color.index()].advisors {
                slots.push(Piece::new(color, PieceKind::Advisor));
            }
        }
        let mut groups = Vec::new();
        for color in Color::ALL {
            let n = ending.army(color).count(PieceKind::Elephant);
            if n > 0 {
                groups.push(Group::new(Piece::new(color, PieceKind::Elephant), n));
            }
        }
        for color in Color::ALL {
            for kind in crate::ending::ATTACKERS {
                let n = ending.army(color).count(kind);
                if n > 0 {
                    groups.push(Group::new(Piece::new(color, kind), n));
                }
            }
        }
        for g in &groups {
            for _ in 0..g.count {
                slots.push(g.piece);
            }
        }
        let size = groups.iter().fold(pairs.len() as u64, |s, g| s * g.size);
        Layout {
            ending,
            slots,
            palaces,
            pairs,
            pair_of,
            groups,
            size,
        }
    }

    /// Slot ranges: Red's palace, Black's palace, then each group's.
    fn palace_slots(&self, color: Color) -> std::ops::Range<usize> {
        let red = 1 + self.palaces[0].advisors;
        match color {
            Color::Red => 0..red,
            Color::Black => red..red + 1 + self.palaces[1].advisors,
        }
    }

    /// The number of `p` as it stands (its palace pair must be canonical or symmetric).
    fn number(&self, p: &Placement, pair: u32) -> Option<u64> {
        let mut index = (pair & PAIR_MASK) as u64;
        let mut at = self.palace_slots(Color::Black).end;
        for g in &self.groups {
            index = index * g.size + g.rank(&p[at..at + g.count])?;
            at += g.count;
        }
        Some(index)
    }

    fn pair(&self, p: &Placement) -> Option<u32> {
        let side = |color: Color| {
            let s = self.palace_slots(color);
            self.palaces[color.index()].rank(p[s.start], &p[s.start + 1..s.end])
        };
        let (r, b) = (side(Color::Red)?, side(Color::Black)?);
        Some(self.pair_of[r * self.palaces[1].combos.len() + b])
    }

    /// The number of a placement (of its mirror image if that is the one numbered), or
    /// `None` when two pieces share a square or a piece is off its points.
    pub fn canon(&self, p: &Placement) -> Option<Canon> {
        let pair = self.pair(p)?;
        if pair & PAIR_MIRRORED != 0 {
            let m = self.flip_horizontal(p);
            return Some(Canon {
                index: self.number(&m, pair)?,
                is_self: false,
                symmetric: false,
            });
        }
        let index = self.number(p, pair)?;
        if pair & PAIR_SYMMETRIC == 0 {
            return Some(Canon {
                index,
                is_self: true,
                symmetric: false,
            });
        }
        let mirrored = self.number(&self.flip_horizontal(p), pair)?;
        Some(Canon {
            index: index.min(mirrored),
            is_self: index <= mirrored,
            symmetric: index == mirrored,
        })
    }

    fn flip_horizontal(&self, p: &Placement) -> Placement {
        let mut m = *p;
        for s in &mut m[..self.slots.len()] {
            *s = s.flip_horizontal();
        }
        m
    }

    /// The placement numbered `index` (`< size`), and whether it is the canonical number
    /// of its position (the smaller of the two numbers of a symmetric palace pair) and
    /// its pieces stand on distinct squares.
    pub fn decode(&self, mut index: u64, p: &mut Placement) -> bool {
        let mut at = self.slots.len();
        for g in self.groups.iter().rev() {
            at -= g.count;
            g.unrank(index % g.size, &mut p[at..at + g.count]);
            index /= g.size;
        }
        let (r, b) = self.pairs[index as usize];
        let rs = self.palace_slots(Color::Red);
        self.palaces[0].unrank(r as usize, &mut p[rs]);
        let bs = self.palace_slots(Color::Black);
        self.palaces[1].unrank(b as usize, &mut p[bs]);
        // Distinct squares.
        let n = self.slots.len();
        let mut seen = 0u128;
        for s in &p[..n] {
            let bit = 1u128 << s.index();
            if seen & bit != 0 {
                return false;
            }
            seen |= bit;
        }
        let pair = self.pair_of[r as usize * self.palaces[1].combos.len() + b as usize];
        if pair & PAIR_SYMMETRIC != 0 {
            let mirrored = self.number(&self.flip_horizontal(p), pair);
            let own = self.number(p, pair);
            return own <= mirrored;
        }
        true
    }

    /// The position of a placement with `side` to move, or `None` if it is illegal
    /// (generals facing, the side not to move in check).
    pub fn position(&self, p: &Placement, side: Color) -> Option<Position> {
        let mut fen = Fen::empty();
        for (i, &piece) in self.slots.iter().enumerate() {
            fen.set(p[i], Some(piece));
        }
        fen.side_to_move = side;
        Position::try_from(&fen).ok()
    }

    /// The placement of a position of this ending, seen with the attacking side (`strong`)
    /// as Red: a position whose attacking side is Black is read with the colours swapped
    /// and the board mirrored across the river.
    ///
    /// # Panics
    /// If the position's material is not the layout's ending (it may loop or index out of
    /// bounds).
    pub fn placement(&self, pos: &Position, strong: Color) -> Placement {
        let mut p = [Square::A0; MAX_PIECES];
        let mut at = 0;
        while at < self.slots.len() {
            let piece = self.slots[at];
            let actual = match strong {
                Color::Red => piece,
                Color::Black => Piece::new(!piece.color, piece.kind),
            };
            let run = self.slots[at..].iter().take_while(|&&x| x == piece).count();
            for (i, s) in pos.squares_of(actual).take(run).enumerate() {
                p[at + i] = match strong {
                    Color::Red => s,
                    Color::Black => s.flip_vertical(),
                };
            }
            at += run;
        }
        p
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check_round_trip(name: &str) -> (u64, u64) {
        let layout = Layout::new(name.parse().unwrap());
        let mut p = [Square::A0; MAX_PIECES];
        let (mut canonical, mut legal) = (0, 0);
        for i in 0..layout.size {
            if layout.decode(i, &mut p) {
                canonical += 1;
                let c = layout.canon(&p).unwrap();
                assert_eq!(c.index, i, "{name} {i}");
                assert!(c.is_self);
                // The mirror image maps to the same number.
                let m = layout.flip_horizontal(&p);
                let cm = layout.canon(&m).unwrap();
                assert_eq!(cm.index, i);
                assert_eq!(cm.is_self, c.symmetric);
                if let Some(pos) = layout.position(&p, Color::Red) {
                    legal += 1;
                    assert_eq!(
                        layout
                            .canon(&layout.placement(&pos, Color::Red))
                            .unwrap()
                            .index,
                        i
                    );
                }
            }
        }
        (canonical, legal)
    }

    #[test]
    fn numbers_round_trip() {
        // 45 general pairs (folded), the chariot on the 88 other squares, less the
        // mirror images of the 9 pairs on the e-file: 45 * 88 - 9 * 40.
        let (canonical, legal) = check_round_trip("KRK");
        assert_eq!(canonical, 3600);
        // Every legal KRK position with Red to move, counted by brute force with the
        // mirror images identified.
        let mut seen = std::collections::HashSet::new();
        let palace = |c: Color| {
            own_points(PieceKind::General)
                .into_iter()
                .map(move |s| match c {
                    Color::Red => s,
                    Color::Black => s.flip_vertical(),
                })
        };
        for rk in palace(Color::Red) {
            for bk in palace(Color::Black) {
                for r in Square::ALL {
                    if r == rk || r == bk {
                        continue;
                    }
                    let mut fen = Fen::empty();
                    fen.set(rk, Piece::from_char('K'));
                    fen.set(bk, Piece::from_char('k'));
                    fen.set(r, Piece::from_char('R'));
                    if let Ok(pos) = Position::try_from(&fen) {
                        let m = [rk, bk, r].map(|s| s.flip_horizontal());
                        seen.insert([rk, bk, r].min(m));
                        let _ = pos;
                    }
                }
            }
        }
        assert_eq!(legal, seen.len() as u64);
        assert_eq!(legal, 1917);
        for name in ["KPKA", "KNKAB", "KCAKB", "KRRK"] {
            check_round_trip(name);
        }
        // KRK: 45 general pairs less the 9 on the e-file counted once... exact counts.
        let layout = Layout::new("KRK".parse().unwrap());
        assert_eq!(layout.size, 45 * 90);
        let layout = Layout::new("KRAAKAA".parse().unwrap());
        // 70 combinations of a general and two advisors a side: 70 * 70 = 4900 pairs,
        // 6 * 6 symmetric ones, (4900 + 36) / 2 canonical.
        assert_eq!(layout.pairs.len(), 2468);
    }

    #[test]
    fn binomials() {
        assert_eq!(BINOM[90][2], 4005);
        assert_eq!(BINOM[55][2], 1485);
        assert_eq!(BINOM[7][2], 21);
        assert_eq!(BINOM[5][5], 1);
    }
}

/// Positions of one layout, one after another, built by moving pieces from the last one
/// where only a few stand elsewhere: `Position::try_from` checks the whole board and
/// was half of the generator's time.
#[derive(Debug)]
pub(crate) struct Cursor<'a> {
    layout: &'a Layout,
    pos: Option<Position>,
    at: Placement,
}

impl<'a> Cursor<'a> {
    pub fn new(layout: &'a Layout) -> Cursor<'a> {
        Cursor {
            layout,
            pos: None,
            at: [Square::A0; MAX_PIECES],
        }
    }

    /// The position of `p` (pieces on distinct squares) with `side` to move, or `None`
    /// if it is illegal (generals facing, the side not to move in check).
    pub fn position(&mut self, p: &Placement, side: Color) -> Option<&mut Position> {
        let n = self.layout.slots.len();
        if !self.relocate(p) {
            self.pos = None;
            let mut fen = Fen::empty();
            for (i, &piece) in self.layout.slots.iter().enumerate() {
                fen.set(p[i], Some(piece));
            }
            for s in [side, !side] {
                fen.side_to_move = s;
                if let Ok(pos) = Position::try_from(&fen) {
                    self.pos = Some(pos);
                    break;
                }
            }
            self.at[..n].copy_from_slice(&p[..n]);
        }
        let pos = self.pos.as_mut()?;
        if pos.side_to_move() != side {
            pos.make_null();
        }
        if pos.generals_facing() || pos.is_general_attacked(!side) {
            return None;
        }
        Some(pos)
    }

    /// Moves the pieces of the last position to `p`, if there is a last position and
    /// the pieces can be moved one at a time onto empty squares.
    fn relocate(&mut self, p: &Placement) -> bool {
        let Some(pos) = self.pos.as_mut() else {
            return false;
        };
        let n = self.layout.slots.len();
        let mut pending = (0..n).filter(|&i| self.at[i] != p[i]).count();
        if pending > 3 {
            return false;
        }
        while pending > 0 {
            let mut moved = false;
            for ((at, &to), piece) in self.at[..n].iter_mut().zip(&p[..n]).zip(&self.layout.slots) {
                if *at != to && pos.is_empty(to) {
                    if pos.side_to_move() != piece.color {
                        pos.make_null();
                    }
                    pos.make_move(xq_core::Move::new(*at, to));
                    *at = to;
                    pending -= 1;
                    moved = true;
                }
            }
            if !moved {
                return false;
            }
        }
        true
    }
}
