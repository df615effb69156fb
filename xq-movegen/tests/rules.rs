//! The rules of movement, proved against `data/perft.epd` and hand-built positions:
//! make/unmake, `is_legal` for every (from, to) pair, an independent slow generator,
//! the split generators, check and game-end detection, and replayed lines.

use std::collections::BTreeSet;
use xq_core::{Color, Move, Piece, PieceKind, Position, Square};
use xq_movegen::{
    gives_check, is_legal, is_pseudo_legal, legal, legal_into, legal_moves, outcome, pseudo_legal,
    try_play, CheckTest, Gen, IllegalMoveError, MoveList, Outcome, Termination,
};

use xq_testkit::SUITE;

/// `(line, FEN, D1 count)` for every suite position.
fn suite() -> Vec<(usize, Position, u64)> {
    let out: Vec<(usize, Position, u64)> = SUITE
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty() && !l.trim().starts_with('#'))
        .map(|(i, l)| {
            let mut fields = l.split(';');
            let fen = fields.next().unwrap().trim();
            let pos = Position::from_fen(fen).unwrap_or_else(|e| panic!("line {}: {e}", i + 1));
            let d1 = fields
                .next()
                .and_then(|f| f.trim().strip_prefix("D1 "))
                .and_then(|n| n.trim().parse().ok())
                .unwrap_or_else(|| panic!("line {}: no D1 count", i + 1));
            (i + 1, pos, d1)
        })
        .collect();
    assert_eq!(out.len(), 50);
    out
}

/// How many children of each suite position the per-position tests visit.
const ALL_CHILDREN: usize = usize::MAX;

/// Every suite position plus, for each, the positions after up to `per` of its legal
/// moves (spread over the move list).
fn suite_and_children(per: usize) -> Vec<(String, Position)> {
    let mut out = Vec::new();
    for (line, pos, _) in suite() {
        let moves = legal_moves(&pos);
        let step = (moves.len() / per.max(1)).max(1);
        out.push((format!("line {line}"), pos.clone()));
        for m in moves.iter().step_by(step).take(per) {
            let mut child = pos.clone();
            child.make_move(*m);
            out.push((format!("line {line} after {m}"), child));
        }
    }
    out
}

fn sorted(moves: &[Move]) -> Vec<String> {
    let mut v: Vec<String> = moves.iter().map(|m| m.to_string()).collect();
    v.sort();
    v
}

fn set(moves: &[Move]) -> BTreeSet<Move> {
    moves.iter().copied().collect()
}

fn mv(text: &str) -> Move {
    text.parse().unwrap()
}

// ---------------------------------------------------------------------- an independent generator

/// A deliberately naive generator working on (file, rank) coordinates and `piece_on`
/// only, written from the rules and sharing no code with `xq_movegen`: the moves `color`'s
/// pieces could make by the rules of movement, ignoring their own general's safety. A
/// capture of the enemy general is included (it is how attacks are found).
fn reference_pseudo(pos: &Position, color: Color) -> Vec<Move> {
    let at = |f: i32, r: i32| -> Option<Square> {
        let file = xq_core::File::from_index(usize::try_from(f).ok()?)?;
        let rank = xq_core::Rank::from_index(usize::try_from(r).ok()?)?;
        Some(Square::new(file, rank))
    };
    let own_side = |r: i32| match color {
        Color::Red => r <= 4,
        Color::Black => r >= 5,
    };
    let in_own_palace = |f: i32, r: i32| {
        (3..=5).contains(&f)
            && match color {
                Color::Red => (0..=2).contains(&r),
                Color::Black => (7..=9).contains(&r),
            }
    };
    let mut out = Vec::new();
    for from in Square::ALL {
        let Some(p) = pos.piece_on(from) else {
            continue;
        };
        if p.color != color {
            continue;
        }
        let (f, r) = (from.file().index() as i32, from.rank().index() as i32);
        // May the piece land on (tf, tr)? Returns the square if it is on the board and
        // holds no piece of its own side.
        let target = |tf: i32, tr: i32| -> Option<Square> {
            let to = at(tf, tr)?;
            match pos.piece_on(to) {
                Some(q) if q.color == color => None,
                _ => Some(to),
            }
        };
        let mut add = |to: Option<Square>| {
            if let Some(to) = to {
                out.push(Move::new(from, to));
            }
        };
        let empty = |tf: i32, tr: i32| at(tf, tr).is_some_and(|s| pos.piece_on(s).is_none());
        match p.kind {
            PieceKind::General => {
                for (df, dr) in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
                    if in_own_palace(f + df, r + dr) {
                        add(target(f + df, r + dr));
                    }
                }
            }
            PieceKind::Advisor => {
                for (df, dr) in [(1, 1), (1, -1), (-1, 1), (-1, -1)] {
                    if in_own_palace(f + df, r + dr) {
                        add(target(f + df, r + dr));
                    }
                }
            }
            PieceKind::Elephant => {
                for (df, dr) in [(1, 1), (1, -1), (-1, 1), (-1, -1)] {
                    if own_side(r + 2 * dr) && empty(f + df, r + dr) {
                        add(target(f + 2 * df, r + 2 * dr));
                    }
                }
            }
            PieceKind::Horse => {
                for (df, dr) in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
                    if !empty(f + df, r + dr) {
                        continue;
                    }
                    // Two squares in the leg's direction, one to either side.
                    let (sf, sr) = (dr, df);
                    add(target(f + 2 * df + sf, r + 2 * dr + sr));
                    add(target(f + 2 * df - sf, r + 2 * dr - sr));
                }
            }
            PieceKind::Chariot | PieceKind::Cannon => {
                for (df, dr) in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
                    let mut screens = 0;
                    let (mut tf, mut tr) = (f + df, r + dr);
                    while let Some(to) = at(tf, tr) {
                        match pos.piece_on(to) {
                            None => {
                                if screens == 0 {
                                    add(Some(to));
                                }
                            }
                            Some(q) => {
                                let capturing_screens =
                                    if p.kind == PieceKind::Chariot { 0 } else { 1 };
                                if screens == capturing_screens && q.color != color {
                                    add(Some(to));
                                }
                                screens += 1;
                                if screens > capturing_screens {
                                    break;
                                }
                            }
                        }
                        tf += df;
                        tr += dr;
                    }
                }
            }
            PieceKind::Soldier => {
                let forward = if color == Color::Red { 1 } else { -1 };
                add(target(f, r + forward));
                if !own_side(r) {
                    add(target(f - 1, r));
                    add(target(f + 1, r));
                }
            }
        }
    }
    out
}

/// Is `color`'s general attacked: can an enemy piece capture it, or does it face the
/// enemy general on an open file? Slow and independent of `xq_core`'s attack code.
fn reference_attacked(pos: &Position, color: Color) -> bool {
    let general = Square::ALL
        .into_iter()
        .find(|&s| pos.piece_on(s) == Some(Piece::new(color, PieceKind::General)))
        .expect("a general");
    let enemy = Square::ALL
        .into_iter()
        .find(|&s| pos.piece_on(s) == Some(Piece::new(!color, PieceKind::General)))
        .expect("an enemy general");
    if general.file() == enemy.file() {
        let (lo, hi) = (
            general.rank().index().min(enemy.rank().index()),
            general.rank().index().max(enemy.rank().index()),
        );
        let open = (lo + 1..hi).all(|r| {
            pos.piece_on(Square::new(
                general.file(),
                xq_core::Rank::from_index(r).unwrap(),
            ))
            .is_none()
        });
        if open {
            return true;
        }
    }
    reference_pseudo(pos, !color)
        .iter()
        .any(|m| m.to() == general)
}

/// The legal moves by the slow route: reference pseudo-legal moves, played, keeping those
/// that leave the mover's general safe.
fn reference_legal(pos: &Position) -> BTreeSet<Move> {
    let us = pos.side_to_move();
    reference_pseudo(pos, us)
        .into_iter()
        .filter(|&m| {
            let mut p = pos.clone();
            p.make_move(m);
            !reference_attacked(&p, us)
        })
        .collect()
}

// ---------------------------------------------------------------------- make / unmake

/// Makes and unmakes every legal move at every node of a walk `depth` plies deep,
/// descending into at most `fanout` children per node below the root.
fn walk(pos: &mut Position, depth: u32, fanout: usize, ply: u32, nodes: &mut u64, ctx: &str) {
    if depth == 0 {
        return;
    }
    let (before, key, fen) = (pos.clone(), pos.key(), pos.to_fen());
    let moves = legal_moves(pos);
    // Below the root, descend into every `step`-th child: at most `fanout` of them,
    // spread over the move list.
    let step = if ply == 0 {
        1
    } else {
        moves.len().div_ceil(fanout).max(1)
    };
    for (i, &m) in moves.iter().enumerate() {
        let key_after = pos.key_after(m);
        let undo = pos.make_move(m);
        *nodes += 1;
        if let Err(e) = pos.check_invariants() {
            panic!("{ctx} {m}: {e} in {pos:?}");
        }
        assert_eq!(pos.key(), pos.compute_key(), "{ctx} {m}");
        assert_eq!(pos.key(), key_after, "{ctx} {m}");
        assert_eq!(pos.side_to_move(), !before.side_to_move());
        assert_eq!(pos.piece_on(m.to()), before.piece_on(m.from()), "{ctx} {m}");
        assert_eq!(pos.piece_on(m.from()), None, "{ctx} {m}");
        assert_eq!(undo.captured(), before.piece_on(m.to()), "{ctx} {m}");
        // A legal move never leaves the mover's general attacked.
        assert!(!pos.is_general_attacked(before.side_to_move()), "{ctx} {m}");
        if i % step == 0 {
            walk(
                pos,
                depth - 1,
                fanout,
                ply + 1,
                nodes,
                &format!("{ctx} {m}"),
            );
        }
        pos.unmake_move(m, undo);
        assert_eq!(
            *pos, before,
            "{ctx} {m}: unmake did not restore the position"
        );
        assert_eq!(pos.key(), key, "{ctx} {m}: unmake did not restore the key");
        assert_eq!(pos.to_fen(), fen, "{ctx} {m}");
    }
    assert_eq!(pos.check_invariants(), Ok(()));
}

#[test]
fn make_unmake_restores_everything() {
    let mut nodes = 0;
    for (line, mut pos, _) in suite() {
        walk(&mut pos, 3, 12, 0, &mut nodes, &format!("line {line}:"));
    }
    // The walk really visited nodes below the root of every position.
    assert!(nodes > 50_000, "only {nodes} moves made");
}

#[test]
fn null_move_restores_everything() {
    for (line, mut pos, _) in suite() {
        if pos.is_check() {
            continue;
        }
        let before = pos.clone();
        let undo = pos.make_null();
        assert_eq!(pos.check_invariants(), Ok(()), "line {line}");
        assert_ne!(pos.key(), before.key());
        pos.unmake_null(undo);
        assert_eq!(pos, before, "line {line}");
        assert_eq!(pos.key(), before.key(), "line {line}");
    }
}

// ---------------------------------------------------------------------- legality

#[test]
fn is_legal_agrees_with_legal_moves_for_every_pair() {
    let mut legal_seen = 0;
    for (ctx, pos) in suite_and_children(ALL_CHILDREN) {
        let mut table = [[false; 90]; 90];
        for m in legal_moves(&pos) {
            let cell = &mut table[m.from().index()][m.to().index()];
            assert!(!*cell, "{ctx}: {m} generated twice");
            *cell = true;
        }
        let pseudo = set(&pseudo_legal(&pos, Gen::All));
        for from in Square::ALL {
            for to in Square::ALL {
                if from == to {
                    continue;
                }
                let m = Move::new(from, to);
                let generated = table[from.index()][to.index()];
                assert_eq!(is_legal(&pos, m), generated, "{ctx}: is_legal({m})");
                assert_eq!(
                    is_pseudo_legal(&pos, m),
                    pseudo.contains(&m),
                    "{ctx}: is_pseudo_legal({m})"
                );
                legal_seen += generated as usize;
            }
        }
    }
    eprintln!("{legal_seen} legal moves");
    assert!(legal_seen > 10_000);
}

#[test]
fn legal_is_pseudo_legal_and_general_safe() {
    for (ctx, pos) in suite_and_children(ALL_CHILDREN) {
        let us = pos.side_to_move();
        let legal = set(&legal_moves(&pos));
        let pseudo = pseudo_legal(&pos, Gen::All);
        assert_eq!(
            pseudo.len(),
            set(&pseudo).len(),
            "{ctx}: duplicate pseudo-legal move"
        );
        let mut filtered = BTreeSet::new();
        for &m in &pseudo {
            let mut p = pos.clone();
            p.make_move(m);
            if !p.is_general_attacked(us) {
                filtered.insert(m);
            }
        }
        assert_eq!(legal, filtered, "{ctx}");
    }
}

#[test]
fn generator_agrees_with_independent_reference() {
    for (ctx, pos) in suite_and_children(ALL_CHILDREN) {
        let us = pos.side_to_move();
        // The reference never generates a general capture for the side to move: the
        // position is valid, so the enemy general is not attacked.
        let reference_pseudo = set(&reference_pseudo(&pos, us));
        assert_eq!(
            set(&pseudo_legal(&pos, Gen::All)),
            reference_pseudo,
            "{ctx}: pseudo-legal moves"
        );
        assert_eq!(
            set(&legal_moves(&pos)),
            reference_legal(&pos),
            "{ctx}: legal moves"
        );
        assert_eq!(
            pos.is_check(),
            reference_attacked(&pos, us),
            "{ctx}: is_check"
        );
        assert!(
            !reference_attacked(&pos, !us),
            "{ctx}: the side not to move is in check"
        );
    }
}

#[test]
fn try_play_reports_why() {
    let mut pos = Position::startpos();
    let start = pos.clone();
    for (text, want) in [
        ("e5e4", IllegalMoveError::NoPieceToMove(mv("e5e4"))),
        ("e9e8", IllegalMoveError::NoPieceToMove(mv("e9e8"))),
        ("b0d1", IllegalMoveError::BadMovement(mv("b0d1"))),
        ("h2h8", IllegalMoveError::BadMovement(mv("h2h8"))),
        ("a0a3", IllegalMoveError::BadMovement(mv("a0a3"))),
        ("e0e2", IllegalMoveError::BadMovement(mv("e0e2"))),
    ] {
        assert_eq!(try_play(&mut pos, mv(text)), Err(want));
        assert_eq!(pos, start, "a refused move changed the position");
    }
    // The cannon between the generals may not leave the file.
    let mut pos = Position::from_fen("4k4/9/9/9/9/4C4/9/9/9/4K4 w").unwrap();
    let before = pos.clone();
    assert_eq!(
        try_play(&mut pos, mv("e4d4")),
        Err(IllegalMoveError::LeavesGeneralAttacked(mv("e4d4")))
    );
    assert_eq!(pos, before);
    let undo = try_play(&mut pos, mv("e4e8")).expect("legal");
    assert_eq!(pos.piece_on(Square::E8), before.piece_on(Square::E4));
    pos.unmake_move(mv("e4e8"), undo);
    assert_eq!(pos, before);
}

// ---------------------------------------------------------------------- generator split

#[test]
fn captures_and_quiets_partition_legal_moves() {
    for (ctx, pos) in suite_and_children(ALL_CHILDREN) {
        let all = set(&legal_moves(&pos));
        let caps = legal(&pos, Gen::Captures);
        let quiets = legal(&pos, Gen::Quiets);
        assert_eq!(caps.len(), set(&caps).len(), "{ctx}");
        assert_eq!(quiets.len(), set(&quiets).len(), "{ctx}");
        assert!(set(&caps).is_disjoint(&set(&quiets)), "{ctx}");
        let union: BTreeSet<Move> = caps.iter().chain(&quiets).copied().collect();
        assert_eq!(union, all, "{ctx}");
        let them = !pos.side_to_move();
        for m in &caps {
            assert_eq!(
                pos.piece_on(m.to()).map(|p| p.color),
                Some(them),
                "{ctx}: {m} captures nothing"
            );
        }
        for m in &quiets {
            assert_eq!(pos.piece_on(m.to()), None, "{ctx}: {m} is a capture");
        }
    }
}

#[test]
fn evasions_and_check() {
    let mut checks = 0;
    for (ctx, pos) in suite_and_children(ALL_CHILDREN) {
        let ev = legal(&pos, Gen::Evasions);
        if pos.is_check() {
            checks += 1;
            assert_eq!(set(&ev), set(&legal_moves(&pos)), "{ctx}");
            // The evasion generator makes only the moves that may answer the check, in
            // the order of the full generator (a search's move order depends on it).
            let mut list = MoveList::new();
            legal_into(&pos, Gen::Evasions, &mut list);
            let filtered: Vec<Move> = pseudo_legal(&pos, Gen::All)
                .into_iter()
                .filter(|&m| is_legal(&pos, m))
                .collect();
            assert_eq!(list.to_vec(), filtered, "{ctx}: evasions");
        } else {
            assert!(ev.is_empty(), "{ctx}");
        }
        let test = CheckTest::new(&pos);
        for m in legal_moves(&pos) {
            let mut p = pos.clone();
            p.make_move(m);
            assert_eq!(
                gives_check(&pos, m),
                p.is_check(),
                "{ctx}: gives_check({m})"
            );
            assert_eq!(
                test.gives_check(&pos, m),
                p.is_check(),
                "{ctx}: CheckTest::gives_check({m})"
            );
        }
    }
    assert!(checks >= 5, "only {checks} positions in check");
}

#[test]
fn outcome_matches_suite() {
    let (mut mates, mut stalemates) = (0, 0);
    for (line, pos, d1) in suite() {
        let got = outcome(&pos);
        if d1 == 0 {
            let want = if pos.is_check() {
                mates += 1;
                Outcome::loss(pos.side_to_move(), Termination::Checkmate)
            } else {
                stalemates += 1;
                Outcome::loss(pos.side_to_move(), Termination::Stalemate)
            };
            assert_eq!(got, Some(want), "line {line}");
            assert!(legal_moves(&pos).is_empty());
            assert!(reference_legal(&pos).is_empty(), "line {line}");
        } else {
            // A position with moves is at most drawn (insufficient material, the clock).
            let drawn = xq_movegen::rules::insufficient_material(&pos)
                .then_some(Outcome::draw(Termination::InsufficientMaterial));
            assert_eq!(got, drawn, "line {line}");
            assert_eq!(legal_moves(&pos).len() as u64, d1, "line {line}");
        }
    }
    assert_eq!(mates + stalemates, 4);
    assert!(
        mates > 0 && stalemates > 0,
        "{mates} mates, {stalemates} stalemates"
    );
}

#[test]
fn mates_in_one_end_the_game() {
    let text = include_str!("../../data/mates.epd");
    let mut n = 0;
    for (i, line) in text.lines().enumerate() {
        if !line.contains(";mate 1") {
            continue;
        }
        let mut fields = line.split(';');
        let pos = Position::from_fen(fields.next().unwrap().trim()).unwrap();
        let bm = fields
            .find_map(|f| f.trim().strip_prefix("bm "))
            .unwrap_or_else(|| panic!("mates.epd line {}: no bm", i + 1));
        for text in bm.split_whitespace() {
            let m = mv(text);
            assert!(
                is_legal(&pos, m),
                "mates.epd line {}: {m} is not legal",
                i + 1
            );
            let mut p = pos.clone();
            p.make_move(m);
            // Stalemate loses too, so a "mate" may leave the loser in check or not.
            let want = if gives_check(&pos, m) {
                Outcome::loss(p.side_to_move(), Termination::Checkmate)
            } else {
                Outcome::loss(p.side_to_move(), Termination::Stalemate)
            };
            assert_eq!(outcome(&p), Some(want), "mates.epd line {}: {m}", i + 1);
            assert!(legal_moves(&p).is_empty());
            assert!(reference_legal(&p).is_empty());
        }
        n += 1;
    }
    assert_eq!(n, 10);
}

// ---------------------------------------------------------------------- hand-built rules

/// Asserts the exact sorted legal move list of `fen`, and the same list seen from the
/// other side in the colour-flipped position.
fn assert_moves(fen: &str, expected: &[&str]) {
    let pos = Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
    let got = sorted(&legal_moves(&pos));
    assert_eq!(got, expected, "{fen}");
    assert_eq!(set(&legal_moves(&pos)), reference_legal(&pos), "{fen}");
    for &m in &legal_moves(&pos) {
        assert!(is_legal(&pos, m));
    }

    let flipped = pos.color_flipped();
    let flip = |m: &str| {
        let m = mv(m);
        Move::new(m.from().flip_vertical(), m.to().flip_vertical()).to_string()
    };
    let mut want: Vec<String> = expected.iter().map(|m| flip(m)).collect();
    want.sort();
    assert_eq!(sorted(&legal_moves(&flipped)), want, "{fen} colour-flipped");
}

#[test]
fn horse_leg_blocked() {
    // Black soldiers on e5 and d4 block the legs towards d6/f6 and c5/c3.
    assert_moves(
        "5k3/9/9/9/4p4/3pN4/9/9/9/3K5 w",
        &["d0d1", "d0e0", "e4d2", "e4f2", "e4g3", "e4g5"],
    );
    // In the start position the horse on b0 has its legs a0 and c0 blocked (chariot,
    // elephant): only a2 and c2, over the free leg b1, remain; d1 is not reachable.
    let start = Position::startpos();
    let horse: Vec<String> = sorted(
        &legal_moves(&start)
            .into_iter()
            .filter(|m| m.from() == Square::B0)
            .collect::<Vec<_>>(),
    );
    assert_eq!(horse, ["b0a2", "b0c2"]);
}

#[test]
fn horse_leg_pin() {
    // The chariot on d1 blocks the leg of Black's horse on c1, which would otherwise
    // attack the general on e0: its only legal move is to capture the horse. (The
    // chariot is on neither the general's file nor its rank.) f0 faces Black's general.
    assert_moves("9/5k3/9/9/9/9/9/9/2nR5/4K4 w", &["d1c1", "e0d0", "e0e1"]);
}

#[test]
fn elephant_eye_and_river() {
    // c4 may not cross to a6/e6, and its eye d3 is blocked; g0's eye h1 is blocked.
    assert_moves(
        "5k3/9/9/9/9/2B6/3p5/9/7p1/3K2B2 w",
        &["c4a2", "d0d1", "d0e0", "g0e2"],
    );
}

#[test]
fn advisor_and_general_stay_in_the_palace() {
    assert_moves(
        "5k3/9/9/9/9/9/9/5A3/3K5/3A5 w",
        &["d0e1", "d1d2", "d1e1", "f2e1"],
    );
    assert_moves(
        "3k5/9/9/9/9/9/9/5K3/4A4/9 w",
        &["e1d0", "e1d2", "e1f0", "f2e2", "f2f1"],
    );
}

#[test]
fn cannon_needs_exactly_one_screen() {
    // Up the b-file: quiet to b3, capture b6 over b4, not b9 over two screens.
    // Along rank 0: c0 quiet, g0 captured over Red's own general; the horse on a0, next
    // to the cannon, cannot be captured with no screen.
    assert_moves(
        "1r3k3/9/9/1n7/9/1p7/9/9/9/nC1K2c2 w",
        &[
            "b0b1", "b0b2", "b0b3", "b0b6", "b0c0", "b0g0", "d0d1", "d0e0",
        ],
    );
}

#[test]
fn soldier_before_and_after_the_river() {
    // a3 and c4 only advance; e5 and i6 also step sideways; a9 on the last rank can only
    // step sideways.
    assert_moves(
        "P8/5k3/9/8P/4P4/2P6/P8/9/9/3K5 w",
        &[
            "a3a4", "a9b9", "c4c5", "d0d1", "d0e0", "e5d5", "e5e6", "e5f5", "i6h6", "i6i7",
        ],
    );
}

#[test]
fn flying_general() {
    // The cannon is the only piece between the generals: it may move along the file but
    // not leave it, and it cannot capture the general with no screen.
    assert_moves(
        "4k4/9/9/9/9/4C4/9/9/9/4K4 w",
        &[
            "e0d0", "e0e1", "e0f0", "e4e1", "e4e2", "e4e3", "e4e5", "e4e6", "e4e7", "e4e8",
        ],
    );
    // A general may not step onto an open file facing the other one.
    assert_moves("4k4/9/9/9/9/9/9/9/9/3K5 w", &["d0d1"]);
}

#[test]
fn moving_onto_a_cannon_line_creates_a_screen() {
    // Black's cannon on e5 faces Red's general with nothing between: no check. The horse
    // may not land on e1 or e3, which would make it the screen.
    assert_moves(
        "4k4/9/9/9/4c4/9/9/2N6/9/4K4 w",
        &[
            "c2a1", "c2a3", "c2b0", "c2b4", "c2d0", "c2d4", "e0d0", "e0e1", "e0f0",
        ],
    );
}

#[test]
fn two_screens_pin_both() {
    // The advisor and the horse are two screens between Black's cannon and Red's
    // general: either leaving would leave exactly one, so neither may move.
    assert_moves("4k4/9/9/4c4/9/9/4N4/9/4A4/4K4 w", &["e0d0", "e0f0"]);
}

#[test]
fn cannon_check_evasions() {
    // Black's cannon checks over the horse on e2. Every horse move removes the screen;
    // the general may go to f0 but not d0 (facing the general on d9) or e1 (still
    // checked over the horse).
    let fen = "3k5/9/4c4/9/9/9/9/4N4/9/4K4 w";
    let expected = [
        "e0f0", "e2c1", "e2c3", "e2d0", "e2d4", "e2f0", "e2f4", "e2g1", "e2g3",
    ];
    assert_moves(fen, &expected);
    let pos = Position::from_fen(fen).unwrap();
    assert!(pos.is_check());
    assert_eq!(sorted(&legal(&pos, Gen::Evasions)), expected);
    assert_eq!(outcome(&pos), None);
}

// ---------------------------------------------------------------------- replayed lines

#[test]
fn replayed_lines_round_trip() {
    let mut plies = 0;
    for seed in 1..=8u64 {
        let mut rng = xq_core::SplitMix64::new(seed);
        let mut pos = Position::startpos();
        let mut history = vec![(pos.clone(), pos.key())];
        let mut played = Vec::new();
        for _ in 0..60 {
            let moves = legal_moves(&pos);
            if moves.is_empty() {
                assert!(outcome(&pos).is_some());
                break;
            }
            let m = moves[rng.below(moves.len() as u64) as usize];
            assert!(
                try_play(&mut pos, m).is_ok(),
                "seed {seed}: {}",
                played.join(" ")
            );
            played.push(m.to_string());
            plies += 1;

            let fen = pos.to_fen();
            let reparsed = Position::from_fen(&fen)
                .unwrap_or_else(|e| panic!("seed {seed} {}: {fen}: {e}", played.join(" ")));
            assert_eq!(
                reparsed.key(),
                pos.key(),
                "seed {seed}: {}",
                played.join(" ")
            );
            assert_eq!(reparsed, pos);
            assert_eq!(reparsed.to_fen(), fen);
            assert_eq!(pos.check_invariants(), Ok(()));
            assert_eq!(set(&legal_moves(&reparsed)), set(&legal_moves(&pos)));
            history.push((pos.clone(), pos.key()));
        }
        assert!(played.len() >= 30 || outcome(&pos).is_some(), "seed {seed}");
        // Taking the whole line back with the undo records restores every position.
        let mut pos = Position::startpos();
        let mut undos = Vec::new();
        for m in &played {
            undos.push((mv(m), pos.make_move(mv(m))));
        }
        for (i, (m, undo)) in undos.into_iter().enumerate().rev() {
            assert_eq!(pos.key(), history[i + 1].1);
            pos.unmake_move(m, undo);
            assert_eq!(pos, history[i].0, "seed {seed}: unmaking {m}");
        }
        assert_eq!(pos, Position::startpos());
    }
    assert!(plies >= 240);
}

// ---------------------------------------------------------------------- composed positions

/// Positions no game reaches but that can be played (`Ignore::PLAYABLE`), as mate
/// problems place them: soldiers behind their start, elephants and advisors off their
/// points (on their own side of the river).
const COMPOSED: [&str; 5] = [
    // Black's soldier on its own back rank f9; Red's elephants across the river on c5 and
    // g5; Red's soldier on h1, behind its start.
    "3k1p3/4a4/3a5/9/2B3B2/9/P3P3P/9/4A2P1/3AK4 b",
    // Black's elephants on c6 and g6 (off their points, on their side); Red's advisor on
    // a4, outside the palace on its own side.
    "4k4/9/4P4/2e3e2/9/A8/9/9/9/4K4 w",
    // Red's soldiers beside their general on its own back rank.
    "3k5/9/9/9/9/9/9/9/9/3PKP3 w",
    // Black's soldiers on its palace rank and beside it, with most of its army.
    "rnbakab1r/ppp1p4/9/9/9/9/9/9/4A4/4K4 b",
    // Red's advisor on a palace edge point (d1), an elephant on f1, a soldier on b2,
    // against chariot and cannon.
    "3k5/9/9/2r6/9/9/9/1P4c2/3A1B3/5K3 w",
];

fn composed(fen: &str) -> Position {
    Position::from_fen_with(fen, xq_core::Ignore::PLAYABLE).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

/// Legal moves by the rules' generator, `is_legal` for every pair and the independent
/// reference agree in composed positions and a walk three plies deep from them;
/// make/unmake keeps every invariant; the irregular pieces move by the rules (a soldier
/// behind its start only forward, an elephant never across the river).
#[test]
fn composed_positions_play_by_the_rules() {
    for fen in COMPOSED {
        let mut pos = composed(fen);
        assert!(
            Position::from_fen(fen).is_err(),
            "{fen} is a game's position"
        );
        assert!(!pos.irregularities().is_empty(), "{fen}");
        let mut nodes = 0;
        walk(&mut pos, 3, 8, 0, &mut nodes, fen);
        assert!(nodes > 10, "{fen}: only {nodes} moves made");
        // Perft 2 by the generator and by the reference.
        let reference_perft2: usize = reference_legal(&pos)
            .into_iter()
            .map(|m| {
                let mut child = pos.clone();
                child.make_move(m);
                reference_legal(&child).len()
            })
            .sum();
        let perft2: usize = legal_moves(&pos)
            .into_iter()
            .map(|m| {
                let mut child = pos.clone();
                child.make_move(m);
                legal_moves(&child).len()
            })
            .sum();
        assert_eq!(perft2, reference_perft2, "{fen}");
        let mut positions = vec![pos.clone()];
        for m in legal_moves(&pos) {
            let mut child = pos.clone();
            child.make_move(m);
            positions.push(child);
        }
        for p in &positions {
            let ctx = format!("{fen} -> {}", p.to_fen());
            let us = p.side_to_move();
            assert_eq!(
                set(&pseudo_legal(p, Gen::All)),
                set(&reference_pseudo(p, us)),
                "{ctx}"
            );
            assert_eq!(set(&legal_moves(p)), reference_legal(p), "{ctx}");
            assert_eq!(p.is_check(), reference_attacked(p, us), "{ctx}");
            assert!(!reference_attacked(p, !us), "{ctx}");
            let legal = set(&legal_moves(p));
            for from in Square::ALL {
                for to in Square::ALL {
                    if from != to {
                        let m = Move::new(from, to);
                        assert_eq!(is_legal(p, m), legal.contains(&m), "{ctx}: {m}");
                    }
                }
            }
        }
    }
    // The irregular pieces' own moves, exactly.
    let moves_from = |fen: &str, sq: Square| {
        let pos = composed(fen);
        sorted(
            &legal_moves(&pos)
                .into_iter()
                .filter(|m| m.from() == sq)
                .collect::<Vec<_>>(),
        )
    };
    // A soldier behind its start steps forward only, even beside its general.
    assert_eq!(moves_from(COMPOSED[0], Square::F9), ["f9f8"]);
    assert_eq!(moves_from(COMPOSED[2], Square::D0), ["d0d1"]);
    assert_eq!(moves_from(COMPOSED[2], Square::F0), ["f0f1"]);
    // An elephant across the river can only step back to its own side.
    assert_eq!(
        moves_from("3k5/9/9/9/2B6/9/9/9/9/4K4 w", Square::C5),
        ["c5a3", "c5e3"]
    );
    // Off its points on its own side: its diagonals, none across the river.
    assert_eq!(
        moves_from(&COMPOSED[1].replace(" w", " b"), Square::C6),
        ["c6a8", "c6e8"]
    );
    // An advisor outside the palace steps only onto palace points: none from a4.
    assert_eq!(moves_from(COMPOSED[1], Square::A4), Vec::<String>::new());
    // An advisor on d1 steps to e0 and e2 (c0 and c2 are outside the palace).
    assert_eq!(moves_from(COMPOSED[4], Square::D1), ["d1e0", "d1e2"]);
}
