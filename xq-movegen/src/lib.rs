#![doc = include_str!("../README.md")]
#![deny(missing_docs)]
#![forbid(unsafe_code)]

pub mod notation;
pub mod pgn;
pub mod record;
pub mod xqf;

use arrayvec::ArrayVec;
use std::fmt;
use xq_core::ids::{self, side_tag};
use xq_core::square::{in_board, in_palace};
use xq_core::{Color, Move, PieceKind, Position, Undo};

/// More than the most moves any Xiangqi position has (the known maximum is well under 128).
pub const MAX_MOVES: usize = 128;

/// A list of moves on the stack.
pub type MoveList = ArrayVec<Move, MAX_MOVES>;

/// Generator selectors: all moves, captures only, quiets only.
const ALL: u8 = 0;
const CAPTURES: u8 = 1;
const QUIETS: u8 = 2;

const ORTHO: [usize; 4] = [16, 1, 0usize.wrapping_sub(1), 0usize.wrapping_sub(16)];
const DIAG: [usize; 4] = [17, 15, 0usize.wrapping_sub(15), 0usize.wrapping_sub(17)];

#[inline(always)]
fn add(sq: usize, d: usize) -> usize {
    sq.wrapping_add(d) & 255
}

/// Pushes the pseudo-legal moves of the side to move selected by `KIND`.
#[inline(always)]
fn generate_pseudo<const KIND: u8>(pos: &Position, list: &mut MoveList) {
    let us = pos.side_to_move();
    let own = side_tag(us);
    let them = side_tag(!us);
    // May the generator land on `to`? Own pieces never; then by kind.
    let ok = |to: usize| -> bool {
        let id = pos.id_at(to);
        match KIND {
            ALL => id & own == 0,
            CAPTURES => id & them != 0,
            _ => id == 0,
        }
    };
    // A position has fewer pseudo-legal moves than MAX_MOVES, so `push` never overflows.
    let mut push = |from: usize, to: usize| list.push(Move::from_mailbox(from, to));

    // General.
    let k = pos.square_of_id(own);
    for d in ORTHO {
        let to = add(k, d);
        if in_palace(to) && ok(to) {
            push(k, to);
        }
    }
    // Advisors.
    for id in own + ids::ADVISORS.start..own + ids::ADVISORS.end {
        let from = pos.square_of_id(id);
        if from == 0 {
            continue;
        }
        for d in DIAG {
            let to = add(from, d);
            if in_palace(to) && ok(to) {
                push(from, to);
            }
        }
    }
    // Elephants: two diagonal steps, the eye empty, never across the river.
    for id in own + ids::ELEPHANTS.start..own + ids::ELEPHANTS.end {
        let from = pos.square_of_id(id);
        if from == 0 {
            continue;
        }
        for d in DIAG {
            let eye = add(from, d);
            let to = add(eye, d);
            let home = if us == Color::Red {
                to < 0x80
            } else {
                to >= 0x80
            };
            if in_board(to) && home && pos.id_at(eye) == 0 && ok(to) {
                push(from, to);
            }
        }
    }
    // Horses: one orthogonal step (the leg must be empty), then one diagonal outward.
    for id in own + ids::HORSES.start..own + ids::HORSES.end {
        let from = pos.square_of_id(id);
        if from == 0 {
            continue;
        }
        for (leg_d, a, b) in HORSE_STEPS {
            let leg = add(from, leg_d);
            if pos.id_at(leg) != 0 {
                continue;
            }
            for to in [add(from, a), add(from, b)] {
                if in_board(to) && ok(to) {
                    push(from, to);
                }
            }
        }
    }
    // Chariots.
    for id in own + ids::CHARIOTS.start..own + ids::CHARIOTS.end {
        let from = pos.square_of_id(id);
        if from == 0 {
            continue;
        }
        for d in ORTHO {
            let mut to = add(from, d);
            while in_board(to) {
                let target = pos.id_at(to);
                if target == 0 {
                    if KIND != CAPTURES {
                        push(from, to);
                    }
                } else {
                    if KIND != QUIETS && target & them != 0 {
                        push(from, to);
                    }
                    break;
                }
                to = add(to, d);
            }
        }
    }
    // Cannons: slide to move, jump exactly one screen to capture.
    for id in own + ids::CANNONS.start..own + ids::CANNONS.end {
        let from = pos.square_of_id(id);
        if from == 0 {
            continue;
        }
        for d in ORTHO {
            let mut to = add(from, d);
            while in_board(to) && pos.id_at(to) == 0 {
                if KIND != CAPTURES {
                    push(from, to);
                }
                to = add(to, d);
            }
            if KIND == QUIETS || !in_board(to) {
                continue;
            }
            to = add(to, d);
            while in_board(to) {
                let target = pos.id_at(to);
                if target != 0 {
                    if target & them != 0 {
                        push(from, to);
                    }
                    break;
                }
                to = add(to, d);
            }
        }
    }
    // Soldiers: forward, and sideways once across the river.
    let (forward, crossed_from) = if us == Color::Red {
        (16usize, 0x80usize)
    } else {
        (0usize.wrapping_sub(16), 0)
    };
    for id in own + ids::SOLDIERS.start..own + ids::SOLDIERS.end {
        let from = pos.square_of_id(id);
        if from == 0 {
            continue;
        }
        let to = add(from, forward);
        if in_board(to) && ok(to) {
            push(from, to);
        }
        let crossed = if us == Color::Red {
            from >= crossed_from
        } else {
            from < 0x80
        };
        if crossed {
            for to in [from - 1, from + 1] {
                if in_board(to) && ok(to) {
                    push(from, to);
                }
            }
        }
    }
}

/// (leg offset, destination a, destination b) for the horse's four legs.
const HORSE_STEPS: [(usize, usize, usize); 4] = [
    (16, 33, 31),
    (1, 18, 0usize.wrapping_sub(14)),
    (0usize.wrapping_sub(1), 14, 0usize.wrapping_sub(18)),
    (
        0usize.wrapping_sub(16),
        0usize.wrapping_sub(31),
        0usize.wrapping_sub(33),
    ),
];

// ---------------------------------------------------------------------- legality

/// What a move must do to answer a single check: land on one of `targets` (capture the
/// checker, block its line or its horse leg, add a second screen in front of a cannon)
/// or move the cannon's screen away.
#[derive(Copy, Clone, Debug, Default)]
struct Evasion {
    targets: [u64; 4],
    screen: usize,
    double: bool,
}

impl Evasion {
    fn add(&mut self, sq: usize) {
        self.targets[sq >> 6] |= 1 << (sq & 63);
    }

    #[inline(always)]
    fn may_resolve(&self, from: usize, to: usize) -> bool {
        self.double || from == self.screen || self.targets[to >> 6] & (1 << (to & 63)) != 0
    }

    /// The checks on the side to move's general on `k`.
    fn new(pos: &Position, k: usize) -> Evasion {
        let us = pos.side_to_move();
        let them = side_tag(!us);
        let is = |sq: usize, off: std::ops::Range<usize>| {
            let id = pos.id_at(sq);
            id >= them + off.start && id < them + off.end
        };
        let mut e = Evasion::default();
        let mut checkers = 0;
        let front = if us == Color::Red { k + 16 } else { k - 16 };
        for sq in [front, k - 1, k + 1] {
            if is(sq, ids::SOLDIERS) {
                checkers += 1;
                e.add(sq);
            }
        }
        for (leg, a, b) in [
            (k - 17, k - 33, k - 18),
            (k - 15, k - 31, k - 14),
            (k + 15, k + 31, k + 14),
            (k + 17, k + 33, k + 18),
        ] {
            if pos.id_at(leg) == 0 {
                for sq in [a, b] {
                    if is(sq, ids::HORSES) {
                        checkers += 1;
                        e.add(sq);
                        e.add(leg);
                    }
                }
            }
        }
        for (dir, [first, second]) in ORTHO.iter().zip(ray_blockers(pos, k)) {
            let (first, second) = (first as usize, second as usize);
            if first == 0 {
                continue;
            }
            let line_to = |e: &mut Evasion, end: usize| {
                let mut sq = add(k, *dir);
                while sq != end {
                    e.add(sq);
                    sq = add(sq, *dir);
                }
                e.add(end);
            };
            if is(first, ids::CHARIOTS) || is(first, 0..1) {
                checkers += 1;
                line_to(&mut e, first);
            } else if second != 0 && is(second, ids::CANNONS) {
                checkers += 1;
                line_to(&mut e, second);
                e.screen = first;
            }
        }
        e.double = checkers > 1;
        e
    }
}

/// The first and second pieces (mailbox indices, 0 for none) on the rays from `sq`, in
/// the order of [`ORTHO`]: up, right, left, down.
#[inline]
fn ray_blockers(pos: &Position, sq: usize) -> [[u8; 2]; 4] {
    let mut out = [[0u8; 2]; 4];
    for (i, d) in ORTHO.iter().enumerate() {
        let mut to = add(sq, *d);
        let mut n = 0;
        while in_board(to) && n < 2 {
            if pos.id_at(to) != 0 {
                out[i][n] = to as u8;
                n += 1;
            }
            to = add(to, *d);
        }
    }
    out
}

/// [`NEAR_GENERAL`] of `sq` seen from the general on `k` (0 for far squares).
#[inline(always)]
fn near_general(sq: usize, k: usize) -> u8 {
    let d = sq.wrapping_sub(k).wrapping_add(34);
    if d < 128 {
        NEAR_GENERAL[d]
    } else {
        0
    }
}

/// Indexed by `sq - general + 34`: 1 for the four squares diagonally next to the general
/// (horse legs), 2 for the eight squares a horse attacks it from.
const NEAR_GENERAL: [u8; 128] = {
    let mut t = [0u8; 128];
    let legs = [-17i32, -15, 15, 17];
    let mut i = 0;
    while i < 4 {
        t[(legs[i] + 34) as usize] = 1;
        i += 1;
    }
    let horses = [-33i32, -31, -18, -14, 14, 18, 31, 33];
    let mut i = 0;
    while i < 8 {
        t[(horses[i] + 34) as usize] = 2;
        i += 1;
    }
    t
};

#[inline(always)]
fn generate_legal_kind<const KIND: u8>(pos: &Position, list: &mut MoveList) {
    generate_pseudo::<KIND>(pos, list);
    let filter = LegalityFilter::new(pos);
    list.retain(|m| filter.is_legal(pos, *m));
}

/// All legal moves of the side to move.
///
/// ```
/// use xq_core::Position;
/// let pos = Position::startpos();
/// let moves = xq_movegen::legal_moves(&pos);
/// assert_eq!(moves.len(), 44);
/// assert!(moves.contains(&"h2e2".parse().unwrap()));
/// ```
pub fn legal_moves(pos: &Position) -> MoveList {
    let mut list = MoveList::new();
    generate_legal_kind::<ALL>(pos, &mut list);
    list
}

/// Legal captures only.
///
/// ```
/// use xq_core::Position;
/// let pos = Position::startpos();
/// let caps: Vec<String> = xq_movegen::legal_captures(&pos).iter().map(|m| m.to_string()).collect();
/// assert_eq!(caps, ["b2b9", "h2h9"]);
/// ```
pub fn legal_captures(pos: &Position) -> MoveList {
    let mut list = MoveList::new();
    generate_legal_kind::<CAPTURES>(pos, &mut list);
    list
}

/// Legal non-captures only.
///
/// ```
/// use xq_core::Position;
/// assert_eq!(xq_movegen::legal_quiets(&Position::startpos()).len(), 42);
/// ```
pub fn legal_quiets(pos: &Position) -> MoveList {
    let mut list = MoveList::new();
    generate_legal_kind::<QUIETS>(pos, &mut list);
    list
}

/// The moves that get the side to move out of check: all its legal moves when it is in
/// check, none otherwise.
///
/// ```
/// use xq_core::Position;
/// // Black's general on e9 is checked by the chariot on e1; it can step aside.
/// let pos = Position::from_fen("4k4/9/9/9/9/9/9/9/4R4/3K5 b").unwrap();
/// let mut ev: Vec<String> = xq_movegen::evasions(&pos).iter().map(|m| m.to_string()).collect();
/// ev.sort();
/// assert_eq!(ev, ["e9f9"]); // e9d9 would face Red's general on d0
/// assert!(xq_movegen::evasions(&Position::startpos()).is_empty());
/// ```
pub fn evasions(pos: &Position) -> MoveList {
    if pos.is_check() {
        legal_moves(pos)
    } else {
        MoveList::new()
    }
}

/// Pseudo-legal moves (the rules of movement, ignoring whether the general is left
/// attacked). Mostly useful for testing; engines want [`legal_moves`].
pub fn pseudo_legal_moves(pos: &Position) -> MoveList {
    let mut list = MoveList::new();
    generate_pseudo::<ALL>(pos, &mut list);
    list
}

/// Appends the pseudo-legal moves to `list` (the allocation-free, copy-free form of
/// [`pseudo_legal_moves`] for searches that reuse one list per ply).
///
/// # Panics
/// If `list` has fewer than about 120 free slots (a position never has more).
#[inline]
pub fn pseudo_legal_moves_into(pos: &Position, list: &mut MoveList) {
    generate_pseudo::<ALL>(pos, list);
}

/// Appends the pseudo-legal captures to `list` (see [`pseudo_legal_moves_into`]).
///
/// # Panics
/// As [`pseudo_legal_moves_into`].
#[inline]
pub fn pseudo_legal_captures_into(pos: &Position, list: &mut MoveList) {
    generate_pseudo::<CAPTURES>(pos, list);
}

/// Pseudo-legal captures only (see [`pseudo_legal_moves`]).
pub fn pseudo_legal_captures(pos: &Position) -> MoveList {
    let mut list = MoveList::new();
    generate_pseudo::<CAPTURES>(pos, &mut list);
    list
}

/// A cheap legality test for pseudo-legal moves of one position, for searches that
/// generate pseudo-legal moves and test each only when it is about to be tried (most
/// nodes are cut off after a move or two).
///
/// ```
/// use xq_core::Position;
/// use xq_movegen::{pseudo_legal_moves, legal_moves, LegalityFilter};
/// // Red's cannon on e2 is pinned against its general by Black's chariot on e9... no,
/// // by the generals: moving it off the file would let the generals face each other.
/// let pos = Position::from_fen("4k4/9/9/9/9/9/9/9/4C4/4K4 w").unwrap();
/// let filter = LegalityFilter::new(&pos);
/// let legal: Vec<_> = pseudo_legal_moves(&pos).into_iter().filter(|&m| filter.is_legal(&pos, m)).collect();
/// assert_eq!(legal.len(), legal_moves(&pos).len());
/// ```
#[derive(Copy, Clone, Debug)]
pub struct LegalityFilter {
    general: usize,
    in_check: bool,
    evasion: Evasion,
    pins: Option<Pins>,
}

/// Out of check: the own pieces whose leaving their square may expose the general
/// (pinned against a chariot or the enemy general, one of two screens in front of a
/// cannon, the leg of a horse aimed at the general), and the empty squares where a piece
/// would become the screen of a cannon aimed at the general. Every other move by a
/// piece other than the general is legal.
#[derive(Copy, Clone, Debug, Default)]
struct Pins {
    from: [u64; 4],
    to: [u64; 4],
}

#[inline(always)]
fn mask_set(mask: &mut [u64; 4], sq: usize) {
    mask[sq >> 6] |= 1 << (sq & 63);
}

#[inline(always)]
fn mask_has(mask: &[u64; 4], sq: usize) -> bool {
    mask[sq >> 6] & (1 << (sq & 63)) != 0
}

impl Pins {
    fn new(pos: &Position, k: usize) -> Pins {
        let us = pos.side_to_move();
        let own = side_tag(us);
        let them = side_tag(!us);
        let enemy = |sq: usize, off: std::ops::Range<usize>| {
            let id = pos.id_at(sq);
            id >= them + off.start && id < them + off.end
        };
        let mine = |sq: usize| pos.id_at(sq) & own != 0;
        let mut p = Pins::default();
        for (i, &d) in ORTHO.iter().enumerate() {
            // The first three pieces on the ray.
            let mut b = [0usize; 3];
            let mut n = 0;
            let mut sq = add(k, d);
            while in_board(sq) && n < 3 {
                if pos.id_at(sq) != 0 {
                    b[n] = sq;
                    n += 1;
                }
                sq = add(sq, d);
            }
            let on_file = i == 0 || i == 3;
            if n >= 2
                && mine(b[0])
                && (enemy(b[1], ids::CHARIOTS) || (on_file && enemy(b[1], 0..1)))
            {
                mask_set(&mut p.from, b[0]);
            }
            if n >= 3 && enemy(b[2], ids::CANNONS) {
                for &screen in &b[..2] {
                    if mine(screen) {
                        mask_set(&mut p.from, screen);
                    }
                }
            }
            if n >= 1 && enemy(b[0], ids::CANNONS) {
                let mut sq = add(k, d);
                while sq != b[0] {
                    mask_set(&mut p.to, sq);
                    sq = add(sq, d);
                }
            }
        }
        for (leg, a, c) in [
            (k - 17, k - 33, k - 18),
            (k - 15, k - 31, k - 14),
            (k + 15, k + 31, k + 14),
            (k + 17, k + 33, k + 18),
        ] {
            if mine(leg) && (enemy(a, ids::HORSES) || enemy(c, ids::HORSES)) {
                mask_set(&mut p.from, leg);
            }
        }
        p
    }
}

impl LegalityFilter {
    /// The filter for the side to move in `pos`.
    #[inline]
    pub fn new(pos: &Position) -> LegalityFilter {
        LegalityFilter::with_check(pos, pos.is_check())
    }

    /// The filter when the caller already knows whether the side to move is in check
    /// (saves an attack test). `in_check` must be right, or legal moves may be refused
    /// and illegal ones accepted.
    ///
    /// # Panics
    /// In debug builds, if `in_check` is wrong.
    #[inline]
    pub fn with_check(pos: &Position, in_check: bool) -> LegalityFilter {
        debug_assert_eq!(in_check, pos.is_check());
        let general = pos.square_of_id(side_tag(pos.side_to_move()));
        let (evasion, pins) = if in_check {
            (Evasion::new(pos, general), None)
        } else {
            (Evasion::default(), Some(Pins::new(pos, general)))
        };
        LegalityFilter {
            general,
            in_check,
            evasion,
            pins,
        }
    }

    /// A filter that skips the per-position pin analysis: cheaper to build, slower per
    /// move. The better choice when only a few moves will be tested (captures in a
    /// quiescence search). Out of check only.
    ///
    /// # Panics
    /// In debug builds, if the side to move is in check.
    #[inline]
    pub fn without_pins(pos: &Position) -> LegalityFilter {
        debug_assert!(!pos.is_check());
        LegalityFilter {
            general: pos.square_of_id(side_tag(pos.side_to_move())),
            in_check: false,
            evasion: Evasion::default(),
            pins: None,
        }
    }

    /// Is the pseudo-legal move `m` legal? (For any other move use [`is_legal`].)
    #[inline]
    pub fn is_legal(&self, pos: &Position, m: Move) -> bool {
        let (from, to) = (m.from_mailbox_index(), m.to_mailbox_index());
        let k = self.general;
        if from != k {
            if self.in_check {
                if !self.evasion.may_resolve(from, to) {
                    return false;
                }
            } else if let Some(pins) = &self.pins {
                if !mask_has(&pins.from, from) && !mask_has(&pins.to, to) {
                    return true;
                }
            } else {
                // Only a move touching the general's lines or leaving a horse leg next to
                // it can expose it.
                let (kr, kc) = (k >> 4, k & 15);
                let leg = near_general(from, k) == 1;
                if from >> 4 != kr && from & 15 != kc && to >> 4 != kr && to & 15 != kc && !leg {
                    return true;
                }
            }
        }
        !pos.general_attacked_after(pos.side_to_move(), from, to)
    }
}

/// The number of legal moves (what perft counts at its last ply).
#[inline]
pub fn count_legal(pos: &Position) -> usize {
    let mut list = MoveList::new();
    generate_pseudo::<ALL>(pos, &mut list);
    let filter = LegalityFilter::new(pos);
    list.iter().filter(|m| filter.is_legal(pos, **m)).count()
}

/// Is the side to move in check?
#[inline]
pub fn in_check(pos: &Position) -> bool {
    pos.is_check()
}

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
    let (from, to) = (m.from_mailbox_index(), m.to_mailbox_index());
    let k = pos.square_of_id(side_tag(pos.side_to_move()));
    let attacker = !pos.side_to_move();
    let them = side_tag(attacker);
    let is = |sq: usize, off: std::ops::Range<usize>| {
        let id = pos.id_at(sq);
        id >= them + off.start && id < them + off.end
    };
    // Chariot, general or cannon along the ray from the general through `sq`.
    let ray_through = |sq: usize| -> bool {
        let dir = if sq >> 4 == k >> 4 {
            if sq > k {
                1
            } else {
                0usize.wrapping_sub(1)
            }
        } else if sq & 15 == k & 15 {
            if sq > k {
                16
            } else {
                0usize.wrapping_sub(16)
            }
        } else {
            return false;
        };
        let on_file = dir == 16 || dir == 0usize.wrapping_sub(16);
        let mut s = add(k, dir);
        let mut screens = 0;
        while in_board(s) {
            if pos.id_at(s) != 0 {
                if screens == 0 {
                    if is(s, ids::CHARIOTS) || (on_file && is(s, 0..1)) {
                        return true;
                    }
                    screens = 1;
                } else {
                    return is(s, ids::CANNONS);
                }
            }
            s = add(s, dir);
        }
        false
    };
    // Lines: the moved piece attacking along one, becoming a cannon's screen, or
    // uncovering one.
    if ray_through(to) || ray_through(from) {
        return true;
    }
    // A horse on `to` attacking the general.
    let near = |sq: usize| near_general(sq, k);
    let d = (to as isize - k as isize + 34) as usize;
    if near(to) == 2 && is(to, ids::HORSES) {
        let leg = k.wrapping_add(HORSE_LEG[d] as usize).wrapping_sub(34);
        if pos.id_at(leg) == 0 {
            return true;
        }
    }
    // A soldier on `to` beside or in front of the general (both on its lines, so only
    // the soldier itself is left to check).
    if is(to, ids::SOLDIERS) {
        let forward = if attacker == Color::Red {
            16
        } else {
            0usize.wrapping_sub(16)
        };
        if k == add(to, forward) || k == to + 1 || k == to - 1 {
            return true;
        }
    }
    // A horse's leg next to the general vacated.
    if near(from) == 1 {
        let (a, b) = match from.wrapping_sub(k) as isize {
            -17 => (k - 33, k - 18),
            -15 => (k - 31, k - 14),
            15 => (k + 31, k + 14),
            _ => (k + 33, k + 18),
        };
        if is(a, ids::HORSES) || is(b, ids::HORSES) {
            return true;
        }
    }
    false
}

/// Indexed like [`NEAR_GENERAL`] by `horse square - general + 34`: the leg's offset from
/// the general, plus 34.
const HORSE_LEG: [u8; 128] = {
    let mut t = [0u8; 128];
    let pairs: [(i32, i32); 8] = [
        (-33, -17),
        (-18, -17),
        (-31, -15),
        (-14, -15),
        (31, 15),
        (14, 15),
        (33, 17),
        (18, 17),
    ];
    let mut i = 0;
    while i < 8 {
        t[(pairs[i].0 + 34) as usize] = (pairs[i].1 + 34) as u8;
        i += 1;
    }
    t
};

/// Does the legal move `m` put the opponent in check?
///
/// # Panics
/// In debug builds, if `m` is not pseudo-legal (see [`Position::make_move`]); test
/// moves of unknown origin with [`is_legal`] first.
///
/// ```
/// use xq_core::Position;
/// let pos = Position::startpos();
/// assert!(xq_movegen::gives_check(&pos, "h2h9".parse().unwrap()) == false);
/// let pos = Position::from_fen("3k5/9/9/9/9/9/9/9/9/4K3R w").unwrap();
/// assert!(xq_movegen::gives_check(&pos, "i0i9".parse().unwrap()));
/// assert!(xq_movegen::gives_check(&pos, "e0e1".parse().unwrap()) == false);
/// ```
pub fn gives_check(pos: &Position, m: Move) -> bool {
    let mut p = pos.clone();
    p.make_move(m);
    p.is_check()
}

/// Is `m` a legal move in `pos`? Works for any move at all (a move from a hash table or
/// a killer slot, or typed by a user), checking every rule.
///
/// ```
/// use xq_core::Position;
/// let pos = Position::startpos();
/// assert!(xq_movegen::is_legal(&pos, "h2e2".parse().unwrap()));
/// assert!(xq_movegen::is_legal(&pos, "b0c2".parse().unwrap()));
/// assert!(!xq_movegen::is_legal(&pos, "b0d1".parse().unwrap())); // the horse's leg c0 is blocked
/// assert!(!xq_movegen::is_legal(&pos, "e3e5".parse().unwrap()));
/// ```
pub fn is_legal(pos: &Position, m: Move) -> bool {
    is_pseudo_legal(pos, m)
        && !pos.general_attacked_after(
            pos.side_to_move(),
            m.from_mailbox_index(),
            m.to_mailbox_index(),
        )
}

/// Does `m` follow the rules of movement for the piece on its origin square (ignoring
/// whether the mover's general is left attacked)?
pub fn is_pseudo_legal(pos: &Position, m: Move) -> bool {
    let us = pos.side_to_move();
    let (from, to) = (m.from_mailbox_index(), m.to_mailbox_index());
    let id = pos.id_at(from);
    if id & side_tag(us) == 0 || pos.id_at(to) & side_tag(us) != 0 {
        return false;
    }
    let (dr, df) = (
        (to >> 4) as isize - (from >> 4) as isize,
        (to & 15) as isize - (from & 15) as isize,
    );
    match ids::kind(id) {
        PieceKind::General => in_palace(to) && dr.abs() + df.abs() == 1,
        PieceKind::Advisor => in_palace(to) && dr.abs() == 1 && df.abs() == 1,
        PieceKind::Elephant => {
            let home = if us == Color::Red {
                to < 0x80
            } else {
                to >= 0x80
            };
            home && dr.abs() == 2 && df.abs() == 2 && pos.id_at((from + to) / 2) == 0
        }
        PieceKind::Horse => {
            let leg = match (dr.abs(), df.abs()) {
                (2, 1) => from as isize + dr / 2 * 16,
                (1, 2) => from as isize + df / 2,
                _ => return false,
            };
            pos.id_at(leg as usize) == 0
        }
        PieceKind::Chariot | PieceKind::Cannon => {
            if dr != 0 && df != 0 {
                return false;
            }
            let step = if dr != 0 {
                16 * dr.signum()
            } else {
                df.signum()
            };
            let mut between = 0;
            let mut sq = from as isize + step;
            while sq != to as isize {
                between += (pos.id_at(sq as usize) != 0) as u32;
                sq += step;
            }
            // A chariot never jumps; a cannon jumps exactly one screen, and only to capture.
            if ids::kind(id) == PieceKind::Chariot || pos.id_at(to) == 0 {
                between == 0
            } else {
                between == 1
            }
        }
        PieceKind::Soldier => {
            let forward = if us == Color::Red { 1 } else { -1 };
            let crossed = if us == Color::Red {
                from >= 0x80
            } else {
                from < 0x80
            };
            (dr == forward && df == 0) || (crossed && dr == 0 && df.abs() == 1)
        }
    }
}

/// How a game ends when the side to move has no legal move. In Xiangqi both are losses
/// for the side to move.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// No legal move and in check: the side to move is mated.
    Checkmate,
    /// No legal move and not in check: the side to move has lost too (unlike chess).
    Stalemate,
}

/// `Some(outcome)` when the side to move has no legal move, `None` otherwise.
///
/// ```
/// use xq_core::Position;
/// use xq_movegen::{outcome, Outcome};
/// let mate = Position::from_fen("R3k4/1R7/9/9/9/9/9/9/9/3K5 b").unwrap();
/// assert_eq!(outcome(&mate), Some(Outcome::Checkmate));
/// assert_eq!(outcome(&Position::startpos()), None);
/// ```
pub fn outcome(pos: &Position) -> Option<Outcome> {
    if count_legal(pos) > 0 {
        None
    } else if pos.is_check() {
        Some(Outcome::Checkmate)
    } else {
        Some(Outcome::Stalemate)
    }
}

/// Why a move could not be played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum IllegalMoveError {
    /// There is no piece of the side to move on the origin square.
    NoPieceToMove(Move),
    /// The piece cannot move that way.
    BadMovement(Move),
    /// The move would leave the mover's general attacked (or facing the other general).
    LeavesGeneralAttacked(Move),
}

impl fmt::Display for IllegalMoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            IllegalMoveError::NoPieceToMove(m) => {
                write!(
                    f,
                    "illegal move {m}: no piece of the side to move on {}",
                    m.from()
                )
            }
            IllegalMoveError::BadMovement(m) => {
                write!(
                    f,
                    "illegal move {m}: the piece on {} cannot move there",
                    m.from()
                )
            }
            IllegalMoveError::LeavesGeneralAttacked(m) => {
                write!(f, "illegal move {m}: it leaves the general in check")
            }
        }
    }
}

impl std::error::Error for IllegalMoveError {}

/// Plays `m` if it is legal.
///
/// # Errors
/// An [`IllegalMoveError`] saying why the move is not legal; the position is unchanged.
///
/// ```
/// use xq_core::Position;
/// use xq_movegen::{try_play, IllegalMoveError};
/// let mut pos = Position::startpos();
/// assert!(try_play(&mut pos, "h2e2".parse().unwrap()).is_ok());
/// let m = "e2e9".parse().unwrap();
/// assert_eq!(try_play(&mut pos, m), Err(IllegalMoveError::NoPieceToMove(m)));
/// ```
pub fn try_play(pos: &mut Position, m: Move) -> Result<Undo, IllegalMoveError> {
    let us = pos.side_to_move();
    if pos.id_at(m.from_mailbox_index()) & side_tag(us) == 0 {
        return Err(IllegalMoveError::NoPieceToMove(m));
    }
    if !is_pseudo_legal(pos, m) {
        return Err(IllegalMoveError::BadMovement(m));
    }
    if pos.general_attacked_after(us, m.from_mailbox_index(), m.to_mailbox_index()) {
        return Err(IllegalMoveError::LeavesGeneralAttacked(m));
    }
    Ok(pos.make_move(m))
}
