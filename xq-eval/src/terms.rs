//! The per-node part of the evaluation: what depends on the whole position, not on one
//! piece and its square.
//!
//! Every term counts a feature for the side that has it (+1 for Red, -1 for Black) and
//! the weight in [`PARAMS`](crate::params::PARAMS) says what it is worth to that side, so
//! the weights of good features are positive and those of weaknesses negative. The
//! evaluation is linear in the weights; the tuner fits them all.
//!
//! # How it is computed, and what it costs
//!
//! One pass over each side's pieces (piece lists, [`Position::squares_of`]) builds a
//! small record of what the side attacks: every square attacked by its
//! soldiers, advisors, elephants, horses and general, and the *occupied* squares
//! attacked by its chariots and cannons, found with the occupancy bits
//! ([`Position::occupied_along`]: one bit scan per line, no walk along the board). That
//! is 4 line scans per chariot and cannon, 4 leg tests per horse, a few steps per soldier,
//! advisor and elephant: about 150 simple operations for a full board, and no attack map
//! of the empty squares along chariot and cannon lines. The record also keeps the squares
//! of the side's pieces (but the general), so that the threat terms scan only the enemy
//! pieces attacked. Every term below then reads these
//! sets; the palace patterns look at a handful of squares of each palace, and only the
//! rare lopsided-advisors pattern calls [`xq_movegen::attackers`] (on one square). No
//! allocation, no move generation.
//!
//! # Attack posture (ElephantEye's idea)
//!
//! A side's **attack level** (0 to 8) counts its pieces across the river, chariots and
//! horses twice, cannons and soldiers (short of the back rank) once, plus its lead in
//! major pieces (chariot 2, horse and cannon 1 each) when it has one. Defenders are worth
//! much against attackers and little without them, so:
//!
//! - `advisor_defence`, `elephant_defence`: each advisor or elephant, by the enemy's
//!   level;
//! - `general_exposed`: the general off its home square (e0, e9), by the enemy's level;
//! - `soldier_attack`: each crossed soldier, by its own side's level.
//!
//! Classic engines compute the posture once per search and bake it into the
//! piece-square tables. Here it is computed at every node, from the piece lists (a few
//! comparisons): a table fixed at the root goes stale as pieces are traded inside the
//! tree, and the same position would get different scores in different searches, which
//! would make the transposition table's stored evaluations disagree with each other.
//!
//! # Palace attack patterns
//!
//! Counted for the attacker, against the other side's palace:
//!
//! - `hollow_cannon` (空头炮): a cannon on the general's file with nothing between,
//!   while the general is on its home square and both advisors are at home (they block
//!   its way out sideways).
//! - `palace_heart_horse` (窝心马 under a central cannon): the defender's horse stands on
//!   the palace heart (e1, e8) in front of its general at home, and the attacker's
//!   cannon aims at it over one screen (the third piece up the file): the horse may not
//!   leave (the cannon would give check) and blocks its own general.
//! - `lopsided_advisors`: the general at home with one advisor on the palace heart and
//!   the other on one side at home (the other home square is its door, the only way
//!   out), and a central cannon (an attacking cannon on file e). `lopsided_door` adds for
//!   the door square attacked, `lopsided_stuck_chariot` for the defender's own chariot
//!   standing on the door square.
//! - `bottom_cannon` (沉底炮): a cannon on the defender's back rank with a clear line to
//!   its general.
//! - `missing_advisors`: each advisor the defender lacks, when the attacker has both
//!   chariots.
//!
//! # Piece activity
//!
//! - `chariot_mobility`: each chariot by the empty squares along its rank and file (0 to
//!   17, a weight each).
//! - `horse_mobility`, `trapped_horse`: each horse by its *safe* squares: a jump whose leg
//!   is empty, onto a square not held by its own side and not attacked by an enemy
//!   soldier, advisor, elephant, horse or general (1 to 8); a horse with none is trapped.
//! - `cannon_platform`: each enemy piece (not the general) a cannon attacks over its
//!   screen (炮架).
//! - `pin_general`: each enemy horse, chariot or cannon pinned against its general by a
//!   chariot (the piece stands between) or a cannon (two pieces between it and the
//!   general: either one leaving lets the cannon give check).
//! - `pin_chariot`: each enemy horse or cannon standing between a chariot or cannon and an
//!   unprotected enemy chariot behind it.
//! - `hanging`: each enemy piece (not the general) attacked and not protected, by kind.
//! - `threat_by_lower`: each enemy chariot attacked by a horse, cannon, soldier, advisor or
//!   elephant, and each enemy horse or cannon attacked by a soldier, advisor or elephant.
//!
//! "Attacked" and "protected" are the rules of movement (pseudo-legal, as
//! [`xq_movegen::attackers`] answers them; a unit test checks the two agree on every
//! occupied square of random games).
//!
//! # Soldiers
//!
//! Crossed soldiers by file and depth, soldiers at home and soldiers on the enemy's back
//! rank (底兵, nearly worthless) are piece-square weights of the incremental part
//! ([`pst`](crate::pst)); here: `soldier_connected`, each pair of crossed soldiers side by
//! side on one rank (the back rank excluded), and `soldier_attack` above.

use crate::collect::Collect;
use crate::params::{
    ADVISOR_DEFENCE, BOTTOM_CANNON, CANNON_PLATFORM, CHARIOT_MOBILITY, ELEPHANT_DEFENCE,
    GENERAL_EXPOSED, HANGING, HOLLOW_CANNON, HORSE_MOBILITY, LEVELS, LOPSIDED_ADVISORS,
    LOPSIDED_DOOR, LOPSIDED_STUCK_CHARIOT, MISSING_ADVISORS, PALACE_HEART_HORSE, PIN_CHARIOT,
    PIN_GENERAL, SOLDIER_ATTACK, SOLDIER_CONNECTED, THREAT_BY_LOWER, TRAPPED_HORSE,
};
use xq_core::attacks::{Direction, SquareSet, Step, ELEPHANT_MOVES, HORSE_MOVES};
use xq_core::{Color, File, Piece, PieceKind, Position, Square, SquareMap};

use PieceKind::{Advisor, Cannon, Chariot, Elephant, Horse, Soldier};

/// What one side attacks, as the terms need it.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Attacks {
    /// Every square a soldier, advisor or elephant of the side attacks.
    pub minor: SquareSet,
    /// Every square a horse attacks.
    pub horse: SquareSet,
    /// Every square the general attacks (its neighbours in the palace).
    pub general: SquareSet,
    /// The occupied squares a cannon attacks (over one screen).
    pub cannon: SquareSet,
    /// The occupied squares a chariot attacks.
    pub chariot: SquareSet,
    /// The union of the above: for an occupied square, "attacked by the side".
    pub all: SquareSet,
}

/// A side's [`Attacks`] and its attack posture.
#[derive(Copy, Clone, Debug, Default)]
struct Side {
    attacks: Attacks,
    /// Pieces across the river: chariots and horses twice, cannons and soldiers short of
    /// the back rank once (the level without the lead).
    across: i32,
    /// Major material: chariot 2, horse and cannon 1.
    major: i32,
    /// The attack level, 0..=8 (after both sides are known).
    level: usize,
    /// The side's pieces but its general.
    pieces: SquareSet,
}

/// The squares of `color`'s general, advisors, palace heart and the like: Red's as
/// named, Black's mirrored across the river.
#[inline(always)]
fn own(color: Color, red_sq: Square) -> Square {
    match color {
        Color::Red => red_sq,
        Color::Black => red_sq.flip_vertical(),
    }
}

/// The rank `sq` is on, counted from `color`'s back rank (0) to the enemy's (9).
#[inline(always)]
fn relative_rank(color: Color, sq: Square) -> usize {
    match color {
        Color::Red => sq.rank().index(),
        Color::Black => 9 - sq.rank().index(),
    }
}

/// Empty squares from `sq` along `dir` before `first` (the first occupied square), or to
/// the edge of the board when there is none.
#[inline(always)]
fn empties(sq: Square, dir: Direction, first: Option<Square>) -> usize {
    let (f, r) = (sq.file().index(), sq.rank().index());
    match first {
        Some(t) => f.abs_diff(t.file().index()) + r.abs_diff(t.rank().index()) - 1,
        None => match dir {
            Direction::Up => 9 - r,
            Direction::Down => r,
            Direction::Left => f,
            Direction::Right => 8 - f,
        },
    }
}

/// Do `a` and `b` share a file or a rank?
#[inline(always)]
fn aligned(a: Square, b: Square) -> bool {
    a.file() == b.file() || a.rank() == b.rank()
}

/// What a soldier of each colour attacks from each square (forward, and sideways once
/// across the river).
static SOLDIER_ATTACKS: [SquareMap<SquareSet>; 2] =
    [soldier_attacks(Color::Red), soldier_attacks(Color::Black)];

const fn soldier_attacks(color: Color) -> SquareMap<SquareSet> {
    let mut t = SquareMap::new(SquareSet::EMPTY);
    let mut i = 0;
    while i < Square::COUNT {
        let sq = Square::ALL[i];
        let mut set = SquareSet::EMPTY;
        if let Some(f) = sq.offset(Step::forward(color)) {
            set = set.with(f);
        }
        if sq.half() as u8 != color as u8 {
            if let Some(l) = sq.offset(Step::LEFT) {
                set = set.with(l);
            }
            if let Some(r) = sq.offset(Step::RIGHT) {
                set = set.with(r);
            }
        }
        t = t.with(sq, set);
        i += 1;
    }
    t
}

/// The squares inside a palace one `steps` away from each square: what an advisor
/// (diagonal steps) or the general (orthogonal steps) attacks.
const fn palace_steps(steps: [Step; 4]) -> SquareMap<SquareSet> {
    let mut t = SquareMap::new(SquareSet::EMPTY);
    let mut i = 0;
    while i < Square::COUNT {
        let sq = Square::ALL[i];
        let mut set = SquareSet::EMPTY;
        let mut j = 0;
        while j < 4 {
            if let Some(to) = sq.offset(steps[j]) {
                if to.in_palace() {
                    set = set.with(to);
                }
            }
            j += 1;
        }
        t = t.with(sq, set);
        i += 1;
    }
    t
}

static ADVISOR_ATTACKS: SquareMap<SquareSet> = palace_steps(Step::DIAGONAL);
static GENERAL_ATTACKS: SquareMap<SquareSet> = palace_steps(Step::ORTHOGONAL);

/// For each square and each of the horse's legs (in [`HORSE_MOVES`]' order), the squares
/// a horse there reaches through that leg.
static HORSE_TARGETS: SquareMap<[SquareSet; 4]> = {
    let mut t = SquareMap::new([SquareSet::EMPTY; 4]);
    let mut i = 0;
    while i < Square::COUNT {
        let sq = Square::ALL[i];
        let mut sets = [SquareSet::EMPTY; 4];
        let mut leg = 0;
        while leg < 4 {
            let mut k = 0;
            while k < 2 {
                if let Some(to) = sq.offset(HORSE_MOVES[leg].1[k]) {
                    sets[leg] = sets[leg].with(to);
                }
                k += 1;
            }
            leg += 1;
        }
        t = t.with(sq, sets);
        i += 1;
    }
    t
};

/// Builds `color`'s attack sets into `side` (as [`Side::default`] leaves it), and counts
/// the terms that need only its own pieces: chariot mobility and cannon platforms.
///
/// The record is filled where the caller keeps it: returned by value, it was copied out
/// (a `memcpy` call) twice at every evaluation.
#[inline(always)]
fn side<C: Collect>(pos: &Position, color: Color, c: &mut C, side: &mut Side) {
    let s = color.sign();
    let them = !color;
    let a = &mut side.attacks;
    let pieces = &mut side.pieces;
    let mut across = 0;
    let mut major = 0;

    let soldier_attacks = &SOLDIER_ATTACKS[color.index()];
    for sq in pos.squares_of(Piece::new(color, Soldier)) {
        pieces.insert(sq);
        a.minor |= soldier_attacks[sq];
        if sq.half() != color && relative_rank(color, sq) < 9 {
            across += 1;
        }
    }
    for sq in pos.squares_of(Piece::new(color, Advisor)) {
        pieces.insert(sq);
        a.minor |= ADVISOR_ATTACKS[sq];
    }
    for sq in pos.squares_of(Piece::new(color, Elephant)) {
        pieces.insert(sq);
        for (eye, to) in ELEPHANT_MOVES {
            if let (Some(e), Some(t)) = (sq.offset(eye), sq.offset(to)) {
                if t.half() == color && pos.is_empty(e) {
                    a.minor.insert(t);
                }
            }
        }
    }
    a.general = GENERAL_ATTACKS[pos.general(color)];
    for sq in pos.squares_of(Piece::new(color, Horse)) {
        pieces.insert(sq);
        major += 1;
        if sq.half() != color {
            across += 2;
        }
        let targets = &HORSE_TARGETS[sq];
        for (i, (leg, _)) in HORSE_MOVES.into_iter().enumerate() {
            if sq.offset(leg).is_some_and(|l| pos.is_empty(l)) {
                a.horse |= targets[i];
            }
        }
    }
    for sq in pos.squares_of(Piece::new(color, Chariot)) {
        pieces.insert(sq);
        major += 2;
        if sq.half() != color {
            across += 2;
        }
        let mut mobility = 0;
        for dir in Direction::ALL {
            let first = pos.occupied_along(sq, dir).next();
            mobility += empties(sq, dir, first);
            if let Some(t) = first {
                a.chariot.insert(t);
            }
        }
        c.add(CHARIOT_MOBILITY.start + mobility, s);
    }
    let their_general = pos.general(them);
    for sq in pos.squares_of(Piece::new(color, Cannon)) {
        pieces.insert(sq);
        major += 1;
        if sq.half() != color {
            across += 1;
        }
        for dir in Direction::ALL {
            let mut along = pos.occupied_along(sq, dir);
            if along.next().is_some() {
                if let Some(t) = along.next() {
                    a.cannon.insert(t);
                    if t != their_general && pos.is_occupied_by(t, them) {
                        c.add(CANNON_PLATFORM.start, s);
                    }
                }
            }
        }
    }
    a.all = a.minor | a.horse | a.general | a.cannon | a.chariot;
    side.across = across;
    side.major = major;
}

/// Both sides' records into `sides` (default ones), Red's first, with their attack
/// levels.
#[inline(always)]
fn sides<C: Collect>(pos: &Position, c: &mut C, sides: &mut [Side; 2]) {
    let [red, black] = sides;
    side(pos, Color::Red, c, red);
    side(pos, Color::Black, c, black);
    [red.level, black.level] = levels(red, black);
}

/// Each side's records, as the terms see them (for tests).
#[cfg(test)]
fn records(pos: &Position) -> [Side; 2] {
    let mut sink = crate::collect::Sum::default();
    let mut both = [Side::default(); 2];
    sides(pos, &mut sink, &mut both);
    both
}

/// Each side's attack sets, as the terms see them (for tests).
#[cfg(test)]
pub(crate) fn attacks(pos: &Position) -> [Attacks; 2] {
    records(pos).map(|s| s.attacks)
}

/// The index of a pinned piece's kind in [`PIN_GENERAL`] (horse, chariot, cannon).
#[inline(always)]
fn pin_index(kind: PieceKind) -> Option<usize> {
    match kind {
        Horse => Some(0),
        Chariot => Some(1),
        Cannon => Some(2),
        _ => None,
    }
}

/// Pins by `color`'s chariots and cannons.
#[inline(always)]
fn pins<C: Collect>(pos: &Position, color: Color, theirs: &Attacks, c: &mut C) {
    let s = color.sign();
    let them = !color;
    let general = pos.general(them);
    let pinned_kind = |sq: Square| -> Option<usize> {
        pos.piece_on(sq)
            .filter(|p| p.color == them)
            .and_then(|p| pin_index(p.kind))
    };
    // A horse or cannon of theirs on `sq` (in front of one of their chariots).
    let screen = |sq: Square| {
        pos.holds(sq, Piece::new(them, Horse)) || pos.holds(sq, Piece::new(them, Cannon))
    };
    let chariots = Piece::new(them, Chariot);
    for sq in pos.squares_of(Piece::new(color, Chariot)) {
        if aligned(sq, general) {
            if let Some(dir) = Direction::between(sq, general) {
                let mut along = pos.occupied_along(sq, dir);
                if let (Some(x), Some(g)) = (along.next(), along.next()) {
                    if g == general {
                        if let Some(k) = pinned_kind(x) {
                            c.add(PIN_GENERAL.start + k, s);
                        }
                    }
                }
            }
        }
        for target in pos.squares_of(chariots) {
            if aligned(sq, target) && !theirs.all.contains(target) {
                if let Some(dir) = Direction::between(sq, target) {
                    let mut along = pos.occupied_along(sq, dir);
                    if let (Some(x), Some(t)) = (along.next(), along.next()) {
                        if t == target && screen(x) {
                            c.add(PIN_CHARIOT.start, s);
                        }
                    }
                }
            }
        }
    }
    for sq in pos.squares_of(Piece::new(color, Cannon)) {
        if aligned(sq, general) {
            if let Some(dir) = Direction::between(sq, general) {
                let mut along = pos.occupied_along(sq, dir);
                if let (Some(x), Some(y), Some(g)) = (along.next(), along.next(), along.next()) {
                    if g == general {
                        for p in [x, y] {
                            if let Some(k) = pinned_kind(p) {
                                c.add(PIN_GENERAL.start + k, s);
                            }
                        }
                    }
                }
            }
        }
        for target in pos.squares_of(chariots) {
            if aligned(sq, target) && !theirs.all.contains(target) {
                if let Some(dir) = Direction::between(sq, target) {
                    let mut along = pos.occupied_along(sq, dir);
                    if let (Some(_), Some(x), Some(t)) = (along.next(), along.next(), along.next())
                    {
                        if t == target && screen(x) {
                            c.add(PIN_CHARIOT.start, s);
                        }
                    }
                }
            }
        }
    }
}

/// The index of a hanging piece's kind in [`HANGING`] (advisor, elephant, horse,
/// chariot, cannon, soldier): its kind index less one (the general is never hanging).
#[inline(always)]
fn hanging_index(kind: PieceKind) -> usize {
    kind.index() - 1
}

/// Hanging enemy pieces and enemy pieces attacked by lower-valued ones, for `color`:
/// `theirs` is the enemy's record.
#[inline(always)]
fn threats<C: Collect>(pos: &Position, color: Color, ours: &Attacks, theirs: &Side, c: &mut C) {
    let s = color.sign();
    let by_lower = ours.minor | ours.horse | ours.cannon;
    // The enemy pieces attacked: usually a few of them, found by a bit scan.
    for sq in (ours.all & theirs.pieces).iter() {
        let Some(piece) = pos.piece_on(sq) else {
            continue;
        };
        if !theirs.attacks.all.contains(sq) {
            c.add(HANGING.start + hanging_index(piece.kind), s);
        }
        let lower = match piece.kind {
            Chariot => by_lower.contains(sq).then_some(0),
            Horse => ours.minor.contains(sq).then_some(1),
            Cannon => ours.minor.contains(sq).then_some(2),
            _ => None,
        };
        if let Some(i) = lower {
            c.add(THREAT_BY_LOWER.start + i, s);
        }
    }
}

/// `color`'s attack on the other side's palace.
#[inline(always)]
fn palace<C: Collect>(pos: &Position, color: Color, c: &mut C) {
    let s = color.sign();
    let them = !color;
    let general = pos.general(them);
    let home = own(them, Square::E0);
    let heart = own(them, Square::E1);
    let (left, right) = (own(them, Square::D0), own(them, Square::F0));
    let up = match them {
        Color::Red => Direction::Up,
        Color::Black => Direction::Down,
    };
    let cannon = Piece::new(color, Cannon);
    let advisor = Piece::new(them, Advisor);

    if general == home {
        let mut file = pos.occupied_along(general, up);
        let first = file.next();
        let (at_left, at_right) = (pos.holds(left, advisor), pos.holds(right, advisor));
        if at_left && at_right && first.is_some_and(|f| pos.holds(f, cannon)) {
            c.add(HOLLOW_CANNON.start, s);
        }
        if pos.holds(heart, Piece::new(them, Horse))
            && file.nth(1).is_some_and(|f| pos.holds(f, cannon))
        {
            c.add(PALACE_HEART_HORSE.start, s);
        }
        if at_left != at_right
            && pos.holds(heart, advisor)
            && pos.squares_of(cannon).any(|sq| sq.file() == File::E)
        {
            c.add(LOPSIDED_ADVISORS.start, s);
            let door = if at_left { right } else { left };
            if !xq_movegen::attackers(pos, door, color).is_empty() {
                c.add(LOPSIDED_DOOR.start, s);
            }
            if pos.holds(door, Piece::new(them, Chariot)) {
                c.add(LOPSIDED_STUCK_CHARIOT.start, s);
            }
        }
    }
    if general.rank() == home.rank() {
        for dir in [Direction::Left, Direction::Right] {
            if pos
                .occupied_along(general, dir)
                .next()
                .is_some_and(|f| pos.holds(f, cannon))
            {
                c.add(BOTTOM_CANNON.start, s);
            }
        }
    }
    if pos.count(Piece::new(color, Chariot)) == 2 {
        let missing = 2 - pos.count(advisor) as i32;
        c.add(MISSING_ADVISORS.start, s * missing);
    }
}

/// Defenders and the general by the enemy's attack level, crossed soldiers by the own
/// level, connected soldiers.
#[inline(always)]
fn posture<C: Collect>(
    pos: &Position,
    color: Color,
    own_level: usize,
    enemy_level: usize,
    c: &mut C,
) {
    let s = color.sign();
    let advisors = pos.count(Piece::new(color, Advisor)) as i32;
    c.add(ADVISOR_DEFENCE.start + enemy_level, s * advisors);
    let elephants = pos.count(Piece::new(color, Elephant)) as i32;
    c.add(ELEPHANT_DEFENCE.start + enemy_level, s * elephants);
    if pos.general(color) != own(color, Square::E0) {
        c.add(GENERAL_EXPOSED.start + enemy_level, s);
    }
    let soldier = Piece::new(color, Soldier);
    for sq in pos.squares_of(soldier) {
        if sq.half() != color && relative_rank(color, sq) < 9 {
            c.add(SOLDIER_ATTACK.start + own_level, s);
            if sq
                .offset(Step::RIGHT)
                .is_some_and(|r| pos.holds(r, soldier))
            {
                c.add(SOLDIER_CONNECTED.start, s);
            }
        }
    }
}

/// Horse mobility: safe squares of each of `color`'s horses.
#[inline(always)]
fn horses<C: Collect>(pos: &Position, color: Color, theirs: &Attacks, c: &mut C) {
    let s = color.sign();
    let danger = theirs.minor | theirs.horse | theirs.general;
    for sq in pos.squares_of(Piece::new(color, Horse)) {
        let mut safe = 0;
        for (leg, to) in HORSE_MOVES {
            if sq.offset(leg).is_some_and(|l| pos.is_empty(l)) {
                for step in to {
                    if let Some(t) = sq.offset(step) {
                        if !pos.is_occupied_by(t, color) && !danger.contains(t) {
                            safe += 1;
                        }
                    }
                }
            }
        }
        if safe == 0 {
            c.add(TRAPPED_HORSE.start, s);
        } else {
            c.add(HORSE_MOBILITY.start + safe - 1, s);
        }
    }
}

/// Every per-node term of `pos`, passed to `c` (Red-relative counts).
///
/// ```
/// use xq_core::Position;
/// use xq_eval::collect::Features;
/// use xq_eval::params::HOLLOW_CANNON;
/// // Red's cannon on e7 faces Black's general over an empty file: a hollow cannon.
/// let pos = Position::from_fen("3akab2/9/4C4/9/9/9/9/9/9/3AKA3 w").unwrap();
/// let mut f = Features::default();
/// xq_eval::terms::evaluate_terms(&pos, &mut f);
/// assert!(f.merged().contains(&(HOLLOW_CANNON.start, 1)));
/// ```
#[inline]
pub fn evaluate_terms<C: Collect>(pos: &Position, c: &mut C) {
    let mut both = [Side::default(); 2];
    sides(pos, c, &mut both);
    let [red, black] = &both;
    for (color, us, them) in [(Color::Red, red, black), (Color::Black, black, red)] {
        posture(pos, color, us.level, them.level, c);
        palace(pos, color, c);
        horses(pos, color, &them.attacks, c);
        pins(pos, color, &them.attacks, c);
        threats(pos, color, &us.attacks, them, c);
    }
}

/// The attack level of each side (0..=8), Red's first.
///
/// ```
/// use xq_core::Position;
/// assert_eq!(xq_eval::terms::attack_levels(&Position::startpos()), [0, 0]);
/// // Red's two chariots across the river, and a chariot up: 2 + 2 + 2.
/// let pos = Position::from_fen("rnbakabn1/9/1c5c1/p1p1p1p1p/R7R/9/P1P1P1P1P/1C5C1/9/1NBAKABN1 w").unwrap();
/// assert_eq!(xq_eval::terms::attack_levels(&pos), [6, 0]);
/// ```
pub fn attack_levels(pos: &Position) -> [usize; 2] {
    let mut sink = crate::collect::Sum::default();
    let mut both = [Side::default(); 2];
    sides(pos, &mut sink, &mut both);
    both.map(|s| s.level)
}

/// The attack levels of Red and Black: pieces across the river plus the lead in major
/// material, at most 8.
#[inline(always)]
fn levels(red: &Side, black: &Side) -> [usize; 2] {
    let lead = red.major - black.major;
    let level = |across: i32, lead: i32| (across + lead.max(0)).min(LEVELS as i32 - 1) as usize;
    [level(red.across, lead), level(black.across, -lead)]
}

#[cfg(test)]
mod tests {
    use super::*;
    use xq_movegen::{attackers, legal_moves};

    /// Each side's record holds its pieces but the general (the hanging-piece and
    /// threat terms look for their targets there).
    #[test]
    fn records_hold_every_piece_but_the_general() {
        let mut checked = 0;
        for fen in xq_testkit::start_fens() {
            let mut pos = Position::from_fen(fen).unwrap();
            for ply in 0..40 {
                let sides = records(&pos);
                for color in Color::ALL {
                    let expected: Vec<Square> = Square::ALL
                        .into_iter()
                        .filter(|&sq| {
                            pos.piece_on(sq)
                                .is_some_and(|p| p.color == color && p.kind != PieceKind::General)
                        })
                        .collect();
                    let found: Vec<Square> = sides[color.index()].pieces.iter().collect();
                    assert_eq!(found, expected, "{pos} {color:?}");
                    checked += expected.len();
                }
                let moves = legal_moves(&pos);
                if moves.is_empty() {
                    break;
                }
                pos.make_move(moves[(ply * 7 + 3) % moves.len()]);
            }
        }
        assert!(checked > 1_000, "{checked}");
    }

    /// The attack sets agree with the rules crate's `attackers` on every occupied square
    /// (and, for the pieces whose sets cover every square, on the empty ones too).
    #[test]
    fn attack_sets_agree_with_the_rules() {
        let mut checked = 0;
        for (n, fen) in xq_testkit::start_fens().into_iter().enumerate() {
            let mut pos = Position::from_fen(fen).unwrap();
            let mut seed = 0x2545_f491_4f6c_dd1d_u64 ^ n as u64;
            for _ in 0..60 {
                let sets = attacks(&pos);
                for color in Color::ALL {
                    let a = &sets[color.index()];
                    for sq in Square::ALL {
                        let by = attackers(&pos, sq, color);
                        let kinds = |kinds: &[PieceKind]| {
                            by.iter()
                                .any(|s| pos.piece_on(s).is_some_and(|p| kinds.contains(&p.kind)))
                        };
                        assert_eq!(
                            a.minor.contains(sq),
                            kinds(&[Soldier, Advisor, Elephant]),
                            "{pos} {sq}"
                        );
                        assert_eq!(a.horse.contains(sq), kinds(&[Horse]), "{pos} {sq}");
                        assert_eq!(
                            a.general.contains(sq),
                            kinds(&[PieceKind::General]),
                            "{pos} {sq}"
                        );
                        if !pos.is_empty(sq) {
                            assert_eq!(a.chariot.contains(sq), kinds(&[Chariot]), "{pos} {sq}");
                            assert_eq!(a.cannon.contains(sq), kinds(&[Cannon]), "{pos} {sq}");
                            assert_eq!(a.all.contains(sq), !by.is_empty(), "{pos} {sq}");
                            checked += 1;
                        }
                    }
                }
                let moves = legal_moves(&pos);
                if moves.is_empty() {
                    break;
                }
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                pos.make_move(moves[(seed % moves.len() as u64) as usize]);
            }
        }
        assert!(checked > 10_000, "{checked}");
    }
}
