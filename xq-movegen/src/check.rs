//! Check detection after a move: which moves give check, cheaply.

use xq_core::attacks::{horse_leg, Direction, SquareSet, Step, HORSE_ATTACKS};
use xq_core::{Color, Move, Piece, PieceKind, Position, Square, SquareMap};

/// Is the side to move in check, given that `m` was the move just made? (The side to
/// move now was not to move before, so it was not in check then. A move that did
/// not move the mover's general, land on or leave a line or horse leg of the checked
/// general, or land on a horse's square can give no check.) Cheaper than
/// [`Position::is_check`] for most moves; always the same answer.
///
/// ```
/// use xq_core::Position;
/// let mut pos = Position::from_fen("3k5/9/9/9/9/9/9/9/9/4K3R w").unwrap();
/// let m = "i0i9".parse().unwrap();
/// pos.make_move(m);
/// assert!(xq_movegen::in_check_after(&pos, m));
/// ```
#[inline]
pub fn in_check_after(pos: &Position, m: Move) -> bool {
    let (from, to) = (m.from(), m.to());
    let k = pos.general(pos.side_to_move());
    let attacker = !pos.side_to_move();
    let is = |sq: Square, kind: PieceKind| pos.holds(sq, Piece::new(attacker, kind));
    // Lines: the moved piece attacking along one, becoming a cannon's screen, or
    // uncovering one.
    if line_attack(pos, k, to, attacker) || line_attack(pos, k, from, attacker) {
        return true;
    }
    // A horse on `to` attacking the general over an empty leg.
    if is(to, PieceKind::Horse) && horse_leg(to, k).is_some_and(|leg| pos.is_empty(leg)) {
        return true;
    }
    // A soldier on `to` in front of or beside the general (both on its lines, so only
    // the soldier itself is left to check).
    if is(to, PieceKind::Soldier)
        && [Step::forward(attacker), Step::LEFT, Step::RIGHT]
            .iter()
            .any(|&s| to.offset(s) == Some(k))
    {
        return true;
    }
    // A horse's leg next to the general vacated.
    for (leg, horses) in HORSE_ATTACKS {
        if k.offset(leg) == Some(from) {
            return horses
                .iter()
                .any(|&h| k.offset(h).is_some_and(|sq| is(sq, PieceKind::Horse)));
        }
    }
    false
}

/// Does a chariot, the general or a cannon of `attacker` attack `k` along the line from
/// `k` through `sq`? (A function, not a closure: the closure was called, not inlined.)
#[inline(always)]
fn line_attack(pos: &Position, k: Square, sq: Square, attacker: Color) -> bool {
    let Some(dir) = Direction::between(k, sq) else {
        return false;
    };
    let is = |sq: Square, kind: PieceKind| pos.holds(sq, Piece::new(attacker, kind));
    let mut along = pos.occupied_along(k, dir);
    match along.next() {
        Some(first)
            if is(first, PieceKind::Chariot)
                || (dir.is_vertical() && is(first, PieceKind::General)) =>
        {
            true
        }
        Some(_) => along.next().is_some_and(|s| is(s, PieceKind::Cannon)),
        None => false,
    }
}

/// Does the move `m` put the opponent in check? Decided without playing it: the
/// opponent was not in check before (it is not its turn), so a check after `m` comes from
/// the moved piece itself, or from a line or horse leg that `m` opens or a cannon screen
/// it adds or removes; only the lines through `m`'s squares and the legs next to the
/// general need looking at.
///
/// `m` must be pseudo-legal (a piece of the side to move on its origin; see
/// [`is_pseudo_legal`](crate::is_pseudo_legal)); for any other move the answer means
/// nothing.
///
/// ```
/// use xq_core::Position;
/// let pos = Position::startpos();
/// assert!(!xq_movegen::gives_check(&pos, "h2h9".parse().unwrap()));
/// let pos = Position::from_fen("3k5/9/9/9/9/9/9/9/9/4K3R w").unwrap();
/// assert!(xq_movegen::gives_check(&pos, "i0i9".parse().unwrap()));
/// assert!(!xq_movegen::gives_check(&pos, "e0e1".parse().unwrap()));
/// // A discovered check: the horse on e1 uncovers the chariot on e0.
/// let pos = Position::from_fen("4k4/9/9/9/9/9/9/9/4N4/3KR4 w").unwrap();
/// assert!(xq_movegen::gives_check(&pos, "e1f3".parse().unwrap()));
/// ```
#[inline]
pub fn gives_check(pos: &Position, m: Move) -> bool {
    let (from, to) = (m.from(), m.to());
    let k = pos.general(!pos.side_to_move());
    // Most moves are nowhere near the general (answered here, inline, without a call): a
    // check needs `to` or `from` on one of its lines (a soldier beside or in front of it
    // is on one too), `from` on a horse's leg next to it (diagonally adjacent), or a
    // horse landing a horse's jump away.
    let on_line = |sq: Square| sq.file() == k.file() || sq.rank() == k.rank();
    let leg_next_to_general = from.file().index().abs_diff(k.file().index()) == 1
        && from.rank().index().abs_diff(k.rank().index()) == 1;
    if !on_line(to) && !on_line(from) && !leg_next_to_general && horse_leg(to, k).is_none() {
        return false;
    }
    gives_check_near(pos, m, k)
}

/// [`gives_check`] for many moves of one position: the lines around the opponent's
/// general are read once, so that a move that cannot give check is answered with a few
/// set look-ups. Along each of the general's four lines only the squares up to the
/// second piece matter: a move that leaves and enters no such square, and no square
/// from which a horse attacks the general or through which one does, leaves the first
/// two pieces of every line as they were and opens no horse's leg. The same answer as
/// [`gives_check`] whenever the opponent is not in check already (in every position a
/// game can reach: it is not the opponent's turn).
///
/// ```
/// use xq_core::Position;
/// use xq_movegen::{gives_check, pseudo_legal, CheckTest, Gen};
/// let pos = Position::from_fen("4k4/9/9/9/9/9/9/9/4N4/3KR4 w").unwrap();
/// let test = CheckTest::new(&pos);
/// for m in pseudo_legal(&pos, Gen::All) {
///     assert_eq!(test.gives_check(&pos, m), gives_check(&pos, m));
/// }
/// // A discovered check: the horse on e1 uncovers the chariot on e0.
/// assert!(test.gives_check(&pos, "e1f3".parse().unwrap()));
/// ```
#[derive(Clone, Copy, Debug)]
pub struct CheckTest {
    general: Square,
    /// Squares along the general's lines up to and including the second piece, and the
    /// squares diagonally next to it (horse legs): a move from one may give check.
    from: SquareSet,
    /// The same line squares, and the squares a horse's jump away: a move to one may
    /// give check.
    to: SquareSet,
}

impl CheckTest {
    /// The test for the moves of the side to move in `pos`.
    pub fn new(pos: &Position) -> CheckTest {
        let k = pos.general(!pos.side_to_move());
        let mut lines = SquareSet::EMPTY;
        for dir in Direction::ALL {
            let mut along = pos.occupied_along(k, dir);
            along.next();
            insert_ray_by_table(&mut lines, k, dir, along.next());
        }
        let (legs, horses) = HORSE_NEAR[k];
        let (from, to) = (lines | legs, lines | horses);
        CheckTest {
            general: k,
            from,
            to,
        }
    }

    /// May a move from `from` to `to` give check? False when it leaves and enters no
    /// square that matters (then it never does); true leaves the question to
    /// [`gives_check`](CheckTest::gives_check).
    #[inline(always)]
    pub(crate) fn may_give_check(&self, from: Square, to: Square) -> bool {
        self.from.contains(from) || self.to.contains(to)
    }

    /// Does the pseudo-legal move `m` put the opponent in check? The position must be the
    /// one the test was made for.
    #[inline]
    pub fn gives_check(&self, pos: &Position, m: Move) -> bool {
        if !self.may_give_check(m.from(), m.to()) {
            return false;
        }
        gives_check_near(pos, m, self.general)
    }
}

/// Adds to `set` the squares from `k` (not included) along `dir` up to and including
/// `last`, or to the edge of the board when `last` is `None`.
#[inline(always)]
pub(crate) fn insert_ray(set: &mut SquareSet, k: Square, dir: Direction, last: Option<Square>) {
    let mut sq = k;
    while let Some(next) = sq.offset(dir.step()) {
        set.insert(next);
        if Some(next) == last {
            break;
        }
        sq = next;
    }
}

/// [`insert_ray`] by table look-ups (for the check test, made at many nodes; the walk
/// measured faster where a node in check marks its checker's line).
#[inline(always)]
fn insert_ray_by_table(set: &mut SquareSet, k: Square, dir: Direction, last: Option<Square>) {
    let ray = RAYS[k][dir as usize];
    *set |= match last {
        Some(last) => ray.difference(RAYS[last][dir as usize]),
        None => ray,
    };
}

/// For each square, in the order of [`Direction::ALL`] (indexed by `dir as usize`), the
/// squares from it (not included) to the edge of the board.
static RAYS: SquareMap<[SquareSet; 4]> = {
    // The index of a direction is its place in `Direction::ALL`.
    let mut d = 0;
    while d < 4 {
        assert!(Direction::ALL[d] as usize == d);
        d += 1;
    }
    let mut t = SquareMap::new([SquareSet::EMPTY; 4]);
    let mut i = 0;
    while i < Square::COUNT {
        let k = Square::ALL[i];
        let mut rays = [SquareSet::EMPTY; 4];
        let mut d = 0;
        while d < 4 {
            let mut sq = k;
            while let Some(next) = sq.offset(Direction::ALL[d].step()) {
                rays[d] = rays[d].with(next);
                sq = next;
            }
            d += 1;
        }
        t = t.with(k, rays);
        i += 1;
    }
    t
};

/// For each square `k`: the squares diagonally next to it (a horse's legs towards it),
/// and the squares a horse attacks it from.
static HORSE_NEAR: SquareMap<(SquareSet, SquareSet)> = {
    let mut t = SquareMap::new((SquareSet::EMPTY, SquareSet::EMPTY));
    let mut i = 0;
    while i < Square::COUNT {
        let k = Square::ALL[i];
        let (mut legs, mut horses) = (SquareSet::EMPTY, SquareSet::EMPTY);
        let mut j = 0;
        while j < 4 {
            let (leg, from) = HORSE_ATTACKS[j];
            if let Some(leg) = k.offset(leg) {
                legs = legs.with(leg);
            }
            let mut h = 0;
            while h < 2 {
                if let Some(sq) = k.offset(from[h]) {
                    horses = horses.with(sq);
                }
                h += 1;
            }
            j += 1;
        }
        t = t.with(k, (legs, horses));
        i += 1;
    }
    t
};

/// Does the move `m` of `moved` attack the general `k` along `dir` with a chariot, the
/// general or a cannon of the side moving? Walks out from the general over the board as it
/// will be (`m.from()` empty, `m.to()` holding the moved piece). (A function, not a
/// closure: the closure was called, not inlined.)
#[inline(always)]
fn line_check_after(pos: &Position, m: Move, moved: Piece, k: Square, dir: Direction) -> bool {
    let (from, to) = (m.from(), m.to());
    let ours = |sq: Square, kind: PieceKind| {
        if sq == to {
            moved.kind == kind
        } else {
            sq != from && pos.holds(sq, Piece::new(moved.color, kind))
        }
    };
    let mut sq = k;
    let mut first = None;
    while let Some(next) = sq.offset(dir.step()) {
        sq = next;
        if sq != to && (sq == from || pos.is_empty(sq)) {
            continue;
        }
        match first {
            None => {
                if ours(sq, PieceKind::Chariot)
                    || (dir.is_vertical() && ours(sq, PieceKind::General))
                {
                    return true;
                }
                first = Some(sq);
            }
            Some(_) => return ours(sq, PieceKind::Cannon),
        }
    }
    false
}

/// [`gives_check`] for a move that passes near the opponent's general `k`.
#[inline(never)]
fn gives_check_near(pos: &Position, m: Move, k: Square) -> bool {
    let (from, to) = (m.from(), m.to());
    let us = pos.side_to_move();
    let Some(moved) = pos.piece_on(from) else {
        return false;
    };
    let ours = |sq: Square, kind: PieceKind| {
        if sq == to {
            moved.kind == kind
        } else {
            sq != from && pos.holds(sq, Piece::new(us, kind))
        }
    };
    let line_check = |dir: Direction| line_check_after(pos, m, moved, k, dir);
    let to_dir = Direction::between(k, to);
    if to_dir.is_some_and(line_check) {
        return true;
    }
    if let Some(dir) = Direction::between(k, from).filter(|&d| Some(d) != to_dir) {
        if line_check(dir) {
            return true;
        }
    }
    // The moved horse, over an empty leg (perhaps the square it left); the moved
    // soldier, in front of the general or beside it.
    let direct = match moved.kind {
        PieceKind::Horse => horse_leg(to, k).is_some_and(|leg| leg == from || pos.is_empty(leg)),
        PieceKind::Soldier => [Step::forward(us), Step::LEFT, Step::RIGHT]
            .iter()
            .any(|&s| to.offset(s) == Some(k)),
        _ => false,
    };
    if direct {
        return true;
    }
    // A horse's leg next to the general vacated (and not filled again by `to`).
    for (leg, horses) in HORSE_ATTACKS {
        if k.offset(leg) == Some(from) {
            return horses.iter().any(|&h| {
                k.offset(h)
                    .is_some_and(|sq| sq != to && ours(sq, PieceKind::Horse))
            });
        }
    }
    false
}
