//! The referee over random games, many of them built to repeat (pieces shuffled back and
//! forth): `adjudicate` never panics, agrees with the old check-only rule whenever the
//! cycle has no chase (and always on perpetual check), judges the colour-flipped game
//! the same way, and gives each kind of ruling on a fixed set of games.

use proptest::prelude::*;
use xq_core::{Move, Piece, Position};
use xq_movegen::chase::chases;
use xq_movegen::game::{
    adjudicate, find_repetition, judge_repetition, Adjudication, Reason, Repetition,
};
use xq_movegen::{legal_moves, Game, GameResult};
use xq_testkit::start_fens;

/// Plays a game from `fen`: each step either takes back the mover's previous move by
/// playing it in reverse (when legal: the shuffles that make repetitions) or plays the
/// legal move chosen by the number. Stops at a position without a legal move.
fn shuffle_game(fen: &str, steps: &[(bool, u16)]) -> Game {
    let mut game = Game::new(Position::from_fen(fen).unwrap());
    for &(back, choice) in steps {
        let moves = legal_moves(game.position());
        if moves.is_empty() {
            break;
        }
        let played = game.moves();
        let reverse = played
            .len()
            .checked_sub(2)
            .map(|i| Move::new(played[i].to(), played[i].from()))
            .filter(|m| back && moves.contains(m));
        let m = reverse.unwrap_or(moves[choice as usize % moves.len()]);
        game.play(m).unwrap();
    }
    game
}

/// The same game with the colours swapped.
fn flipped(game: &Game) -> Game {
    let mut g = Game::new(game.start().color_flipped());
    for &m in game.moves() {
        g.play(m.flip_vertical()).unwrap();
    }
    g
}

/// The verdict on the colour-flipped game.
fn flip_verdict(v: Adjudication) -> Adjudication {
    let Adjudication::Over { result, reason } = v else {
        return v;
    };
    let result = match result {
        GameResult::RedWins => GameResult::BlackWins,
        GameResult::BlackWins => GameResult::RedWins,
        GameResult::Draw => GameResult::Draw,
    };
    let reason = match reason {
        Reason::PerpetualCheck { by } => Reason::PerpetualCheck { by: !by },
        Reason::PerpetualChase { by, piece, square } => Reason::PerpetualChase {
            by: !by,
            piece: Piece::new(!piece.color, piece.kind),
            square: square.flip_vertical(),
        },
        other => other,
    };
    Adjudication::Over { result, reason }
}

/// Checks every position of `game` (each prefix, as a server judges after every move);
/// returns the verdicts on the repetitions met.
fn check_game(game: &Game) -> Vec<Adjudication> {
    let mut prefix = Game::new(game.start().clone());
    let mut seen = Vec::new();
    for &m in game.moves() {
        prefix.play(m).unwrap();
        let v = adjudicate(&prefix);
        let pos = prefix.position();
        let n = prefix.keys().len() - 1;
        let reversible = pos.halfmove_clock() as usize;
        let Some(first) = find_repetition(prefix.keys(), reversible, n) else {
            continue;
        };
        seen.push(v);
        // The old rule: perpetual check only.
        let old = judge_repetition(prefix.keys(), prefix.checks(), reversible, n).unwrap();
        let us = pos.side_to_move();
        let no_chase = {
            let mut p = prefix.position_at(first).unwrap();
            prefix.moves()[first..].iter().all(|&m| {
                let none = chases(&p, m).is_empty();
                p.make_move(m);
                none
            })
        };
        match old {
            Repetition::SideToMoveWins => {
                assert_eq!(v.reason(), Some(Reason::PerpetualCheck { by: !us }), "{m}")
            }
            Repetition::SideToMoveLoses => {
                assert_eq!(v.reason(), Some(Reason::PerpetualCheck { by: us }), "{m}")
            }
            Repetition::Draw if no_chase => {
                assert_eq!(v.reason(), Some(Reason::RepetitionDraw), "{m}")
            }
            Repetition::Draw => assert!(matches!(
                v.reason(),
                Some(Reason::RepetitionDraw | Reason::PerpetualChase { .. })
            )),
        }
    }
    let mirror = flipped(game);
    let (a, b) = (adjudicate(game), adjudicate(&mirror));
    match (a.reason(), b.reason()) {
        // With several pieces chased throughout, each side names the first by square.
        (
            Some(Reason::PerpetualChase { by, piece, .. }),
            Some(Reason::PerpetualChase {
                by: by2, piece: p2, ..
            }),
        ) => {
            assert_eq!((by2, p2.kind), (!by, piece.kind));
            assert_eq!(b.result(), flip_verdict(a).result());
        }
        _ => assert_eq!(b, flip_verdict(a), "colour flip"),
    }
    seen
}

fn config() -> ProptestConfig {
    ProptestConfig {
        cases: 64,
        ..ProptestConfig::default()
    }
}

proptest! {
    #![proptest_config(config())]

    /// Random games, three steps in four a shuffle back: no panic, and the rulings keep
    /// their promises.
    #[test]
    fn adjudicate_keeps_its_promises(
        fen in prop::sample::select(start_fens()),
        steps in prop::collection::vec((prop::bool::weighted(0.75), any::<u16>()), 0..60),
    ) {
        check_game(&shuffle_game(fen, &steps));
    }
}

/// A fixed set of shuffling games (a fixed pseudo-random sequence) and the games of
/// `data/repetition.epd` (random shuffles hardly ever chase): every kind of repetition
/// ruling occurs, and all keep the promises above.
#[test]
fn fixed_games_meet_every_kind_of_repetition() {
    let fens = start_fens();
    let mut state = 0x2545_f491_4f6c_dd1d_u64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let mut counts = [0usize; 3];
    for g in 0..150 {
        let fen = fens[g % fens.len()];
        let steps: Vec<(bool, u16)> = (0..48)
            .map(|_| {
                let r = next();
                (r % 4 != 0, (r >> 8) as u16)
            })
            .collect();
        for v in check_game(&shuffle_game(fen, &steps)) {
            match v.reason() {
                Some(Reason::RepetitionDraw) => counts[0] += 1,
                Some(Reason::PerpetualCheck { .. }) => counts[1] += 1,
                Some(Reason::PerpetualChase { .. }) => counts[2] += 1,
                other => panic!("a repetition ruled {other:?}"),
            }
        }
    }
    for case in xq_testkit::repetition_cases() {
        let game = Game::from_fen_moves(&case.fen, &case.moves).unwrap();
        for v in check_game(&game) {
            match v.reason() {
                Some(Reason::RepetitionDraw) => counts[0] += 1,
                Some(Reason::PerpetualCheck { .. }) => counts[1] += 1,
                Some(Reason::PerpetualChase { .. }) => counts[2] += 1,
                other => panic!("a repetition ruled {other:?}"),
            }
        }
    }
    assert!(
        counts.iter().all(|&c| c > 0),
        "draws, perpetual checks, perpetual chases: {counts:?}"
    );
}

fn judge(fen: &str, moves: &str) -> Adjudication {
    let moves: Vec<&str> = moves.split_whitespace().collect();
    Game::from_fen_moves(fen, &moves).unwrap().adjudicate()
}

fn over(result: GameResult, reason: Reason) -> Adjudication {
    Adjudication::Over { result, reason }
}

#[test]
fn no_legal_move_loses() {
    assert_eq!(
        judge("9/9/3k5/9/9/3R5/P5P2/p8/9/4K1B2 b - - 10 51", ""),
        over(GameResult::RedWins, Reason::Checkmate)
    );
    assert_eq!(
        judge("6b2/9/b3k4/9/9/9/9/9/4p3r/3K5 w - - 10 47", ""),
        over(GameResult::BlackWins, Reason::Stalemate)
    );
    assert_eq!(
        judge("R3k4/1R7/9/9/9/9/9/9/9/3K5 b", "").to_string(),
        "1-0 checkmate"
    );
}

#[test]
fn insufficient_material_draws() {
    let draw = over(GameResult::Draw, Reason::InsufficientMaterial);
    assert_eq!(judge("9/5k3/9/9/9/9/9/4K4/9/9 w - - 41 61", ""), draw);
    assert_eq!(judge("9/4k4/9/9/6b2/2B6/9/9/3K5/3A5 w - - 26 40", ""), draw);
    // One soldier, even far from the palace, can still mate some day.
    assert_eq!(
        judge("9/4k4/9/9/9/9/9/9/p8/3K5 w", ""),
        Adjudication::Ongoing
    );
}

#[test]
fn the_sixty_move_rule() {
    let draw = over(GameResult::Draw, Reason::MoveRule);
    let fen = |clock: u32| format!("5k3/9/9/9/9/9/9/9/9/R2K5 w - - {clock} 80");
    assert_eq!(judge(&fen(119), "a0a1"), draw);
    assert_eq!(judge(&fen(118), "a0a1"), Adjudication::Ongoing);
    assert_eq!(judge(&fen(118), "a0a1 f9e9"), draw);
    // Taking the last legal move on the 120th ply still wins: no legal move comes first
    // (i0i8 holds rank 8 and the flying general the e-file).
    assert_eq!(
        judge("3k5/9/9/9/9/9/9/9/9/4K3R w - - 119 80", "i0i8"),
        over(GameResult::RedWins, Reason::Stalemate)
    );
    // A capture resets the count.
    assert_eq!(
        judge("5k3/9/9/9/9/9/9/9/r8/R2K5 w - - 119 80", "a0a1"),
        Adjudication::Ongoing
    );
}

/// Extends `game` by `n` pairs of a Red check and a Black reply, never bringing a
/// position about for the third time (a depth-first search over the few checks).
fn checking_line(game: &mut Game, n: usize) -> bool {
    if n == 0 {
        return true;
    }
    let fresh = |g: &Game| {
        let key = g.position().key();
        g.keys().iter().filter(|&&k| k == key).count() < 3
    };
    let pos = game.position().clone();
    for check in legal_moves(&pos) {
        if !xq_movegen::gives_check(&pos, check) {
            continue;
        }
        let mut g = game.clone();
        g.play(check).unwrap();
        if !fresh(&g) {
            continue;
        }
        for reply in legal_moves(g.position()) {
            let mut h = g.clone();
            h.play(reply).unwrap();
            if fresh(&h) && checking_line(&mut h, n - 1) {
                *game = h;
                return true;
            }
        }
    }
    false
}

#[test]
fn checks_beyond_the_tenth_do_not_count() {
    // From a clock of 98, Red checks with each of its moves and Black steps away, 11
    // times: 120 plies, but the 11th check and its reply do not count.
    let mut game = Game::new(Position::from_fen("4k4/9/9/9/9/9/9/9/9/RN1K5 w - - 98 60").unwrap());
    assert!(checking_line(&mut game, 11));
    assert_eq!(game.position().halfmove_clock(), 120);
    assert_eq!(xq_movegen::game::move_rule_plies(120, game.checks()), 118);
    assert_eq!(game.adjudicate(), Adjudication::Ongoing);
    // Two more plies without a check or a capture (nor a repetition) bring the count to
    // 120.
    let quiet = |g: &Game| -> Vec<Game> {
        let pos = g.position();
        legal_moves(pos)
            .into_iter()
            .filter(|&m| pos.is_empty(m.to()))
            .map(|m| {
                let mut g = g.clone();
                g.play(m).unwrap();
                g
            })
            .filter(|g| {
                let n = g.keys().len() - 1;
                !g.position().is_check() && find_repetition(g.keys(), 200, n).is_none()
            })
            .collect()
    };
    let after_one = quiet(&game);
    assert!(after_one
        .iter()
        .all(|g| g.adjudicate().reason() != Some(Reason::MoveRule)));
    game = after_one
        .iter()
        .filter(|g| g.adjudicate() == Adjudication::Ongoing)
        .flat_map(quiet)
        .next()
        .expect("a quiet move and a quiet reply");
    assert_eq!(game.adjudicate(), over(GameResult::Draw, Reason::MoveRule));
}
