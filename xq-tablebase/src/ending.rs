//! Endings: the material of a table, named by FEN letters (`KRKAABB`).

use std::fmt;
use std::str::FromStr;
use xq_core::{Color, Piece, PieceKind, Position};

/// The pieces that can give mate: chariot, horse, cannon, soldier, in the order of names.
pub(crate) const ATTACKERS: [PieceKind; 4] = [
    PieceKind::Chariot,
    PieceKind::Horse,
    PieceKind::Cannon,
    PieceKind::Soldier,
];

/// The order of letters after the general in a canonical name: attackers, then
/// advisors and elephants.
const NAME_ORDER: [PieceKind; 6] = [
    PieceKind::Chariot,
    PieceKind::Horse,
    PieceKind::Cannon,
    PieceKind::Soldier,
    PieceKind::Advisor,
    PieceKind::Elephant,
];

/// The most attacking pieces an ending may have: the index of four or more grows past
/// what one machine can generate.
pub const MAX_ATTACKERS: usize = 3;

/// How many pieces of each kind one side has besides its general.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) struct Army([u8; 7]);

impl Army {
    pub(crate) fn count(self, kind: PieceKind) -> usize {
        self.0[kind.index()] as usize
    }

    fn attackers(self) -> usize {
        ATTACKERS.iter().map(|&k| self.count(k)).sum()
    }

    /// The order that decides which army is the *attacking* side of an ending: more
    /// attackers first, then more chariots, horses, cannons, soldiers, advisors,
    /// elephants, in that order.
    fn strength(self) -> (usize, [u8; 6]) {
        (self.attackers(), NAME_ORDER.map(|k| self.count(k) as u8))
    }

    fn pieces(self) -> usize {
        self.0.iter().map(|&n| n as usize).sum()
    }

    fn without(self, kind: PieceKind) -> Army {
        let mut a = self;
        a.0[kind.index()] -= 1;
        a
    }

    fn write(self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("K")?;
        for kind in NAME_ORDER {
            for _ in 0..self.count(kind) {
                write!(f, "{}", kind.to_char().to_ascii_uppercase())?;
            }
        }
        Ok(())
    }
}

/// The material of a table: an *attacking* side with at least one chariot, horse, cannon or
/// soldier, and a *defending* side with its general, advisors and elephants and possibly
/// attacking pieces of its own (then the stronger army attacks: more attackers, then
/// chariots before horses, cannons and soldiers; at most [`MAX_ATTACKERS`] in all).
///
/// Named by FEN letters, the attacking side first and each side's general first:
/// `KRKAABB` is a chariot against a general with two advisors and two elephants, `KNPKAA`
/// a horse and a soldier against a general with two advisors. Parsing accepts `H` for `N`
/// and `E` for `B`, lower case, any order of the pieces and the defending side first; the
/// [`Display`](fmt::Display) form is canonical: attackers in the order `R N C P`, then
/// `A`, then `B`.
///
/// ```
/// use xq_tablebase::{Ending, ParseEndingError};
/// let e: Ending = "kaakhp".parse().unwrap();
/// assert_eq!(e.to_string(), "KNPKAA");
/// assert_eq!("KAABBKR".parse::<Ending>().unwrap().to_string(), "KRKAABB");
/// assert_eq!("KRKX".parse::<Ending>(), Err(ParseEndingError::UnknownLetter { letter: 'X', index: 3 }));
/// assert_eq!("KAKB".parse::<Ending>(), Err(ParseEndingError::NoAttacker));
/// assert_eq!("KNAKR".parse::<Ending>().unwrap().to_string(), "KRKNA");
/// ```
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Ending {
    pub(crate) strong: Army,
    pub(crate) weak: Army,
}

/// Why an ending's name was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseEndingError {
    /// The name is empty.
    Empty,
    /// A side has no general: the name must be `K...K...`.
    MissingGeneral,
    /// More than two `K`s.
    TooManyGenerals,
    /// A character that is not a piece letter.
    UnknownLetter {
        /// The character.
        letter: char,
        /// Its position in the name (from 0).
        index: usize,
    },
    /// More pieces of one kind than a side has in a game.
    TooManyPieces {
        /// The kind.
        kind: PieceKind,
        /// How many the name gives.
        count: usize,
    },
    /// Neither side has a chariot, horse, cannon or soldier: a draw, no table needed.
    NoAttacker,
    /// More attacking pieces than [`MAX_ATTACKERS`].
    TooManyAttackers(usize),
}

impl fmt::Display for ParseEndingError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseEndingError::Empty => f.write_str("empty ending name"),
            ParseEndingError::MissingGeneral => {
                f.write_str("an ending name has a K for each side, as in KRKAABB")
            }
            ParseEndingError::TooManyGenerals => f.write_str("more than two K in an ending name"),
            ParseEndingError::UnknownLetter { letter, index } => write!(
                f,
                "`{letter}` at {index} is not a piece letter (K A B/E N/H R C P)"
            ),
            ParseEndingError::TooManyPieces { kind, count } => write!(
                f,
                "{count} of {kind} on one side, at most {} allowed",
                kind.max_count()
            ),
            ParseEndingError::NoAttacker => {
                f.write_str("neither side has a chariot, horse, cannon or soldier")
            }
            ParseEndingError::TooManyAttackers(n) => {
                write!(f, "{n} attacking pieces, at most {MAX_ATTACKERS} supported")
            }
        }
    }
}

impl std::error::Error for ParseEndingError {}

impl FromStr for Ending {
    type Err = ParseEndingError;

    fn from_str(s: &str) -> Result<Ending, ParseEndingError> {
        if s.is_empty() {
            return Err(ParseEndingError::Empty);
        }
        let mut sides = [Army::default(); 2];
        let mut generals = 0;
        for (index, letter) in s.chars().enumerate() {
            let kind = PieceKind::from_char(letter)
                .ok_or(ParseEndingError::UnknownLetter { letter, index })?;
            if kind == PieceKind::General {
                generals += 1;
                if generals > 2 {
                    return Err(ParseEndingError::TooManyGenerals);
                }
                continue;
            }
            if generals == 0 {
                return Err(ParseEndingError::MissingGeneral);
            }
            let side = &mut sides[generals - 1];
            side.0[kind.index()] += 1;
            let count = side.count(kind);
            if count > kind.max_count() {
                return Err(ParseEndingError::TooManyPieces { kind, count });
            }
        }
        if generals < 2 {
            return Err(ParseEndingError::MissingGeneral);
        }
        Ending::from_armies(sides[0], sides[1])
    }
}

impl Ending {
    fn from_armies(a: Army, b: Army) -> Result<Ending, ParseEndingError> {
        let total = a.attackers() + b.attackers();
        if total == 0 {
            return Err(ParseEndingError::NoAttacker);
        }
        if total > MAX_ATTACKERS {
            return Err(ParseEndingError::TooManyAttackers(total));
        }
        let (strong, weak) = if a.strength() >= b.strength() {
            (a, b)
        } else {
            (b, a)
        };
        Ok(Ending { strong, weak })
    }

    /// Do both sides have attacking pieces (a chariot against a horse, ...)? Such tables
    /// apply the rules of perpetual check and chase
    /// ([`TableValue::RuleWin`](crate::TableValue)).
    ///
    /// ```
    /// use xq_tablebase::Ending;
    /// assert!("KRKNA".parse::<Ending>().unwrap().both_attack());
    /// assert!(!"KRKAA".parse::<Ending>().unwrap().both_attack());
    /// ```
    pub fn both_attack(&self) -> bool {
        self.weak.attackers() > 0
    }

    /// The ending of a position's material, with the colour of its attacking side, or
    /// `None` when the material is not of this shape (no attacker, too many attackers).
    ///
    /// ```
    /// use xq_core::{Color, Position};
    /// use xq_tablebase::Ending;
    /// let pos = Position::from_fen("3k5/4a4/9/9/9/9/9/9/4r4/4K4 w").unwrap();
    /// let (ending, strong) = Ending::of_position(&pos).unwrap();
    /// assert_eq!((ending.to_string().as_str(), strong), ("KRAK", Color::Black));
    /// ```
    pub fn of_position(pos: &Position) -> Option<(Ending, Color)> {
        let mut armies = [Army::default(); 2];
        for color in Color::ALL {
            for (piece, _) in pos.pieces(color) {
                if piece.kind != PieceKind::General {
                    armies[color.index()].0[piece.kind.index()] += 1;
                }
            }
        }
        let ending = Ending::from_armies(armies[0], armies[1]).ok()?;
        let strong = if ending.strong == armies[0] && armies[0].attackers() > 0 {
            Color::Red
        } else {
            Color::Black
        };
        Some((ending, strong))
    }

    /// How many pieces of `kind` the attacking side has (its general not counted).
    ///
    /// ```
    /// use xq_core::PieceKind;
    /// use xq_tablebase::Ending;
    /// let e: Ending = "KRRKA".parse().unwrap();
    /// assert_eq!(e.attacking(PieceKind::Chariot), 2);
    /// assert_eq!(e.defending(PieceKind::Advisor), 1);
    /// ```
    pub fn attacking(&self, kind: PieceKind) -> usize {
        self.strong.count(kind)
    }

    /// How many pieces of `kind` the defending side has.
    pub fn defending(&self, kind: PieceKind) -> usize {
        self.weak.count(kind)
    }

    /// The pieces of both sides, generals included.
    pub fn piece_count(&self) -> usize {
        2 + self.strong.pieces() + self.weak.pieces()
    }

    /// Is this ending in the phase-1 set: one attacker with any advisors and elephants on
    /// both sides, or two attackers without advisors or elephants against any?
    ///
    /// ```
    /// use xq_tablebase::Ending;
    /// assert!("KRAKBB".parse::<Ending>().unwrap().is_phase1());
    /// assert!("KNPKAA".parse::<Ending>().unwrap().is_phase1());
    /// assert!(!"KNPAKAA".parse::<Ending>().unwrap().is_phase1());
    /// ```
    pub fn is_phase1(&self) -> bool {
        if self.both_attack() {
            return false;
        }
        match self.strong.attackers() {
            1 => true,
            2 => {
                self.strong.count(PieceKind::Advisor) + self.strong.count(PieceKind::Elephant) == 0
            }
            _ => false,
        }
    }

    /// Every ending of the phase-1 set, smallest first: the 324 with one attacker and
    /// the 90 with two (4 kinds of attacker, each side 0-2 advisors and 0-2 elephants;
    /// the 10 pairs of attackers against the 9 defences).
    ///
    /// ```
    /// use xq_tablebase::Ending;
    /// let all = Ending::phase1();
    /// assert_eq!(all.len(), 414);
    /// assert!(all.iter().all(|e| e.is_phase1()));
    /// ```
    pub fn phase1() -> Vec<Ending> {
        let mut out = Vec::new();
        let defences = || (0..3u8).flat_map(|a| (0..3u8).map(move |b| (a, b)));
        for att in ATTACKERS {
            for (sa, sb) in defences() {
                for (wa, wb) in defences() {
                    let mut strong = Army::default();
                    strong.0[att.index()] = 1;
                    strong.0[PieceKind::Advisor.index()] = sa;
                    strong.0[PieceKind::Elephant.index()] = sb;
                    let mut weak = Army::default();
                    weak.0[PieceKind::Advisor.index()] = wa;
                    weak.0[PieceKind::Elephant.index()] = wb;
                    out.push(Ending { strong, weak });
                }
            }
        }
        for (i, &a) in ATTACKERS.iter().enumerate() {
            for &b in &ATTACKERS[i..] {
                for (wa, wb) in defences() {
                    let mut strong = Army::default();
                    strong.0[a.index()] += 1;
                    strong.0[b.index()] += 1;
                    let mut weak = Army::default();
                    weak.0[PieceKind::Advisor.index()] = wa;
                    weak.0[PieceKind::Elephant.index()] = wb;
                    out.push(Ending { strong, weak });
                }
            }
        }
        sort_for_generation(&mut out);
        out
    }

    /// The 27 endings of a lone chariot against a horse, a cannon or a soldier with 0–2
    /// advisors and 0–2 elephants (`KRKN` ... `KRKPAABB`), smallest first: the set where
    /// the weaker side may check, built with the rules of perpetual check and chase.
    ///
    /// ```
    /// use xq_tablebase::Ending;
    /// let all = Ending::chariot_against_one();
    /// assert_eq!(all.len(), 27);
    /// assert!(all.iter().all(|e| e.both_attack()));
    /// ```
    pub fn chariot_against_one() -> Vec<Ending> {
        let mut out = Vec::new();
        let mut strong = Army::default();
        strong.0[PieceKind::Chariot.index()] = 1;
        for kind in [PieceKind::Horse, PieceKind::Cannon, PieceKind::Soldier] {
            for a in 0..3u8 {
                for b in 0..3u8 {
                    let mut weak = Army::default();
                    weak.0[kind.index()] = 1;
                    weak.0[PieceKind::Advisor.index()] = a;
                    weak.0[PieceKind::Elephant.index()] = b;
                    out.push(Ending { strong, weak });
                }
            }
        }
        sort_for_generation(&mut out);
        out
    }

    /// The 126 endings with one attacker a side (a chariot, horse, cannon or soldier
    /// each) and at most two advisors or elephants in all, on either side (`KRKR` ...
    /// `KPBKPB`), smallest first: the first set where both sides can check and chase,
    /// built with the rules of perpetual check and chase.
    ///
    /// ```
    /// use xq_tablebase::Ending;
    /// let all = Ending::one_attacker_each();
    /// assert_eq!(all.len(), 126);
    /// assert!(all.iter().all(|e| e.both_attack() && e.piece_count() <= 6));
    /// assert_eq!(all[0].to_string(), "KCKC");
    /// ```
    pub fn one_attacker_each() -> Vec<Ending> {
        use PieceKind::{Advisor, Elephant};
        // The defences of both sides together: (advisors, elephants) of each.
        let mut defences = Vec::new();
        for red in [(0, 0), (1, 0), (0, 1), (2, 0), (1, 1), (0, 2)] {
            for black in [(0, 0), (1, 0), (0, 1), (2, 0), (1, 1), (0, 2)] {
                if red.0 + red.1 + black.0 + black.1 <= 2 {
                    defences.push((red, black));
                }
            }
        }
        let mut out = Vec::new();
        for (i, &a) in ATTACKERS.iter().enumerate() {
            for &b in &ATTACKERS[i..] {
                for &((ra, rb), (ba, bb)) in &defences {
                    let mut red = Army::default();
                    red.0[a.index()] = 1;
                    red.0[Advisor.index()] = ra;
                    red.0[Elephant.index()] = rb;
                    let mut black = Army::default();
                    black.0[b.index()] = 1;
                    black.0[Advisor.index()] = ba;
                    black.0[Elephant.index()] = bb;
                    let e = Ending::from_armies(red, black).expect("two attackers");
                    if !out.contains(&e) {
                        out.push(e);
                    }
                }
            }
        }
        sort_for_generation(&mut out);
        out
    }

    /// The endings one capture away that still have an attacker (a capture of the last
    /// attacker leaves a draw by insufficient material, which needs no table).
    ///
    /// ```
    /// use xq_tablebase::Ending;
    /// let e: Ending = "KRAKB".parse().unwrap();
    /// let subs: Vec<String> = e.captures().iter().map(|e| e.to_string()).collect();
    /// assert_eq!(subs, ["KRKB", "KRAK"]);
    /// ```
    pub fn captures(&self) -> Vec<Ending> {
        let mut out = Vec::new();
        for kind in NAME_ORDER {
            if self.strong.count(kind) > 0 {
                if let Ok(e) = Ending::from_armies(self.strong.without(kind), self.weak) {
                    if !out.contains(&e) {
                        out.push(e);
                    }
                }
            }
        }
        for kind in NAME_ORDER {
            if self.weak.count(kind) > 0 {
                if let Ok(e) = Ending::from_armies(self.strong, self.weak.without(kind)) {
                    if !out.contains(&e) {
                        out.push(e);
                    }
                }
            }
        }
        out
    }

    /// This ending and every ending reachable from it by captures, smallest first: the
    /// order in which they must be generated.
    ///
    /// ```
    /// use xq_tablebase::Ending;
    /// let e: Ending = "KRKAB".parse().unwrap();
    /// let all: Vec<String> = e.with_captures().iter().map(|e| e.to_string()).collect();
    /// assert_eq!(all, ["KRK", "KRKA", "KRKB", "KRKAB"]);
    /// ```
    pub fn with_captures(&self) -> Vec<Ending> {
        let mut all = vec![*self];
        let mut i = 0;
        while i < all.len() {
            for sub in all[i].captures() {
                if !all.contains(&sub) {
                    all.push(sub);
                }
            }
            i += 1;
        }
        sort_for_generation(&mut all);
        all
    }

    /// How many attacking pieces (chariots, horses, cannons, soldiers) the attacking side
    /// has.
    ///
    /// ```
    /// use xq_tablebase::Ending;
    /// assert_eq!("KNPKAA".parse::<Ending>().unwrap().attackers(), 2);
    /// ```
    pub fn attackers(&self) -> usize {
        self.strong.attackers()
    }

    /// The endings a list of names and groups stands for, in the order given: an ending's
    /// name (`KRKAABB`), or a group: `@one` (one attacker with any advisors and elephants
    /// on both sides, 324 endings), `@two` (two attackers against any defence, 90),
    /// `@phase1` (both), `@rook-vs-one` (a chariot against a horse, cannon or soldier
    /// with any advisors and elephants, 27: [`Ending::chariot_against_one`]), `@one-each`
    /// (one attacker a side and at most two advisors or elephants in all, 126:
    /// [`Ending::one_attacker_each`]). An empty list is `@phase1`.
    ///
    /// # Errors
    /// The first name that is neither a group nor an ending, with why.
    ///
    /// ```
    /// use xq_tablebase::Ending;
    /// assert_eq!(Ending::parse_list(&["@two"]).unwrap().len(), 90);
    /// assert_eq!(Ending::parse_list(&[]).unwrap().len(), 414);
    /// assert!(Ending::parse_list(&["KRKX"]).is_err());
    /// ```
    pub fn parse_list(names: &[&str]) -> Result<Vec<Ending>, ParseEndingError> {
        if names.is_empty() {
            return Ok(Ending::phase1());
        }
        let mut out = Vec::new();
        for &name in names {
            if name == "@rook-vs-one" {
                out.extend(Ending::chariot_against_one());
                continue;
            }
            if name == "@one-each" {
                out.extend(Ending::one_attacker_each());
                continue;
            }
            let attackers = match name {
                "@phase1" => 0,
                "@one" => 1,
                "@two" => 2,
                _ => {
                    out.push(name.parse()?);
                    continue;
                }
            };
            out.extend(
                Ending::phase1()
                    .into_iter()
                    .filter(|e| attackers == 0 || e.attackers() == attackers),
            );
        }
        Ok(out)
    }

    /// What generating `endings` takes: each with every table it needs, once, in the
    /// order to generate them (smaller first), those of more than `max_numbers` numbers
    /// (both sides to move) left out.
    ///
    /// ```
    /// use xq_tablebase::Ending;
    /// let plan = Ending::plan(&["KRKA".parse().unwrap()], None);
    /// let names: Vec<String> = plan.iter().map(|e| e.to_string()).collect();
    /// assert_eq!(names, ["KRK", "KRKA"]);
    /// ```
    pub fn plan(endings: &[Ending], max_numbers: Option<u64>) -> Vec<Ending> {
        let mut wanted: Vec<Ending> = Vec::new();
        for e in endings {
            for sub in e.with_captures() {
                if !wanted.contains(&sub) {
                    wanted.push(sub);
                }
            }
        }
        wanted.sort_by_key(|e| (e.piece_count(), e.to_string()));
        if let Some(max) = max_numbers {
            wanted.retain(|e| crate::table_size(e) <= max);
        }
        wanted
    }

    /// The name of the file that holds this ending's table: `KRKAABB.xqtb`.
    pub fn file_name(&self) -> String {
        format!("{self}.xqtb")
    }

    /// The name of the file that holds this ending's WDL table
    /// ([`write_wdl`](crate::write_wdl)): `KRKAABB.xqwdl`.
    pub fn wdl_file_name(&self) -> String {
        format!("{self}.xqwdl")
    }

    /// The pieces of each side, generals first, as `(piece, count)` with the attacking side
    /// as Red: the order the index places them in.
    pub(crate) fn army(&self, color: Color) -> Army {
        match color {
            Color::Red => self.strong,
            Color::Black => self.weak,
        }
    }

    /// The ending after `piece` (with the attacking side as Red) is captured, `None` when
    /// no attacker is left. The ending's attacking side may be either colour.
    pub(crate) fn after_capture(&self, piece: Piece) -> Option<Ending> {
        let (mut strong, mut weak) = (self.strong, self.weak);
        match piece.color {
            Color::Red => strong = strong.without(piece.kind),
            Color::Black => weak = weak.without(piece.kind),
        }
        Ending::from_armies(strong, weak).ok()
    }
}

/// Sorts endings so that every ending comes after those its captures lead to.
fn sort_for_generation(endings: &mut [Ending]) {
    endings.sort_by_key(|e| (e.piece_count(), e.to_string()));
}

impl fmt::Display for Ending {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.strong.write(f)?;
        self.weak.write(f)
    }
}

impl fmt::Debug for Ending {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Ending({self})")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names() {
        let e = |s: &str| s.parse::<Ending>();
        assert_eq!(e("KRKAABB").unwrap().to_string(), "KRKAABB");
        assert_eq!(e("KEAKHC").unwrap().to_string(), "KNCKAB");
        assert_eq!(e(""), Err(ParseEndingError::Empty));
        assert_eq!(e("RK"), Err(ParseEndingError::MissingGeneral));
        assert_eq!(e("KR"), Err(ParseEndingError::MissingGeneral));
        assert_eq!(e("KRKK"), Err(ParseEndingError::TooManyGenerals));
        assert_eq!(
            e("KAAAKR"),
            Err(ParseEndingError::TooManyPieces {
                kind: PieceKind::Advisor,
                count: 3
            })
        );
        assert_eq!(e("KNKR").unwrap().to_string(), "KRKN");
        assert_eq!(e("KPPKC").unwrap().to_string(), "KPPKC");
        assert_eq!(e("KCKPP").unwrap().to_string(), "KPPKC");
        assert_eq!(e("KRRNNK"), Err(ParseEndingError::TooManyAttackers(4)));
        assert_eq!(e("KCKRN").unwrap().to_string(), "KRNKC");
        assert_eq!(e("KRNKCP"), Err(ParseEndingError::TooManyAttackers(4)));
        // A capture may turn the tables: the horse's side attacks after the chariot
        // falls.
        let subs: Vec<String> = e("KRKNA")
            .unwrap()
            .captures()
            .iter()
            .map(|x| x.to_string())
            .collect();
        assert_eq!(subs, ["KNAK", "KRKA", "KRKN"]);
        assert_eq!(e("KK"), Err(ParseEndingError::NoAttacker));
        assert_eq!(
            e("KR-K"),
            Err(ParseEndingError::UnknownLetter {
                letter: '-',
                index: 2
            })
        );
    }

    #[test]
    fn the_phase1_set() {
        let all = Ending::phase1();
        assert_eq!(
            all.iter().filter(|e| e.strong.attackers() == 1).count(),
            324
        );
        assert_eq!(all.iter().filter(|e| e.strong.attackers() == 2).count(), 90);
        // Closed under captures, and in generation order.
        for (i, e) in all.iter().enumerate() {
            for sub in e.captures() {
                let j = all.iter().position(|x| *x == sub).unwrap();
                assert!(j < i, "{sub} after {e}");
            }
        }
    }
}
