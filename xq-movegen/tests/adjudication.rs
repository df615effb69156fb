//! `Game::outcome` over random games, many of them built to repeat (pieces shuffled back
//! and forth): it never panics, agrees with a check-only rule written here whenever the
//! cycle has no chase (and always on perpetual check), judges the colour-flipped game
//! the same way, and gives each kind of ruling on a fixed set of games.

use proptest::prelude::*;
use xq_core::{Move, Piece, Position};
use xq_movegen::rules::{chases, move_rule_plies};
use xq_movegen::{legal_moves, Game, GameResult, Outcome, Termination};
use xq_testkit::{perpetual_checker, start_fens, threefold};

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

/// The outcome of the colour-flipped game.
fn flip_verdict(v: Option<Outcome>) -> Option<Outcome> {
    let Outcome {
        result,
        termination,
    } = v?;
    let result = match result {
        GameResult::RedWins => GameResult::BlackWins,
        GameResult::BlackWins => GameResult::RedWins,
        GameResult::Draw => GameResult::Draw,
    };
    let termination = match termination {
        Termination::PerpetualCheck { by } => Termination::PerpetualCheck { by: !by },
        Termination::PerpetualChase { by, piece, square } => Termination::PerpetualChase {
            by: !by,
            piece: Piece::new(!piece.color, piece.kind),
            square: square.flip_vertical(),
        },
        other => other,
    };
    Some(Outcome {
        result,
        termination,
    })
}

/// Checks every position of `game` (each prefix, as a server judges after every move);
/// returns the outcomes of the repetitions met.
fn check_game(game: &Game) -> Vec<Option<Outcome>> {
    let mut prefix = Game::new(game.start().clone());
    let mut seen = Vec::new();
    for &m in game.moves() {
        prefix.play(m).unwrap();
        let v = prefix.outcome();
        let pos = prefix.position();
        let reversible = pos.halfmove_clock() as usize;
        let Some(first) = threefold(prefix.keys(), reversible) else {
            continue;
        };
        if legal_moves(pos).is_empty() {
            // No legal move comes before the repetition.
            continue;
        }
        seen.push(v);
        let reason = v.map(|o| o.termination);
        let us = pos.side_to_move();
        let no_chase = {
            let mut p = prefix.position_at(first).unwrap();
            prefix.moves()[first..].iter().all(|&m| {
                let none = chases(&p, m).is_empty();
                p.make_move(m);
                none
            })
        };
        match perpetual_checker(prefix.checks(), first, us) {
            Some(by) => assert_eq!(reason, Some(Termination::PerpetualCheck { by }), "{m}"),
            None if no_chase => assert_eq!(reason, Some(Termination::Repetition), "{m}"),
            None => assert!(matches!(
                reason,
                Some(Termination::Repetition | Termination::PerpetualChase { .. })
            )),
        }
        let loser = match reason {
            Some(Termination::PerpetualCheck { by } | Termination::PerpetualChase { by, .. }) => {
                Some(by)
            }
            _ => None,
        };
        assert_eq!(v.and_then(|o| o.result.winner()), loser.map(|c| !c));
    }
    let mirror = flipped(game);
    let (a, b) = (game.outcome(), mirror.outcome());
    match (a.map(|o| o.termination), b.map(|o| o.termination)) {
        // With several pieces chased throughout, each side names the first by square.
        (
            Some(Termination::PerpetualChase { by, piece, .. }),
            Some(Termination::PerpetualChase {
                by: by2, piece: p2, ..
            }),
        ) => {
            assert_eq!((by2, p2.kind), (!by, piece.kind));
            assert_eq!(b.map(|o| o.result), flip_verdict(a).map(|o| o.result));
        }
        _ => assert_eq!(b, flip_verdict(a), "colour flip"),
    }
    seen
}

proptest! {
    #![proptest_config(xq_testkit::proptest_config(64))]

    /// Random games, three steps in four a shuffle back: no panic, and the rulings keep
    /// their promises.
    #[test]
    fn outcome_keeps_its_promises(
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
            match v.map(|o| o.termination) {
                Some(Termination::Repetition) => counts[0] += 1,
                Some(Termination::PerpetualCheck { .. }) => counts[1] += 1,
                Some(Termination::PerpetualChase { .. }) => counts[2] += 1,
                other => panic!("a repetition ruled {other:?}"),
            }
        }
    }
    for case in xq_testkit::repetition_cases() {
        let game = Game::from_fen_moves(&case.fen, &case.moves).unwrap();
        for v in check_game(&game) {
            match v.map(|o| o.termination) {
                Some(Termination::Repetition) => counts[0] += 1,
                Some(Termination::PerpetualCheck { .. }) => counts[1] += 1,
                Some(Termination::PerpetualChase { .. }) => counts[2] += 1,
                other => panic!("a repetition ruled {other:?}"),
            }
        }
    }
    assert!(
        counts.iter().all(|&c| c > 0),
        "draws, perpetual checks, perpetual chases: {counts:?}"
    );
}

fn judge(fen: &str, moves: &str) -> Option<Outcome> {
    let moves: Vec<&str> = moves.split_whitespace().collect();
    Game::from_fen_moves(fen, &moves).unwrap().outcome()
}

fn over(result: GameResult, termination: Termination) -> Option<Outcome> {
    Some(Outcome {
        result,
        termination,
    })
}

#[test]
fn no_legal_move_loses() {
    assert_eq!(
        judge("9/9/3k5/9/9/3R5/P5P2/p8/9/4K1B2 b - - 10 51", ""),
        over(GameResult::RedWins, Termination::Checkmate)
    );
    assert_eq!(
        judge("6b2/9/b3k4/9/9/9/9/9/4p3r/3K5 w - - 10 47", ""),
        over(GameResult::BlackWins, Termination::Stalemate)
    );
    assert_eq!(
        judge("R3k4/1R7/9/9/9/9/9/9/9/3K5 b", "")
            .unwrap()
            .to_string(),
        "1-0 checkmate"
    );
}

#[test]
fn insufficient_material_draws() {
    let draw = over(GameResult::Draw, Termination::InsufficientMaterial);
    assert_eq!(judge("9/5k3/9/9/9/9/9/4K4/9/9 w - - 41 61", ""), draw);
    assert_eq!(judge("9/4k4/9/9/6b2/2B6/9/9/3K5/3A5 w - - 26 40", ""), draw);
    // One soldier, even far from the palace, can still mate some day.
    assert_eq!(judge("9/4k4/9/9/9/9/9/9/p8/3K5 w", ""), None);
}

#[test]
fn the_sixty_move_rule() {
    let draw = over(GameResult::Draw, Termination::MoveRule);
    let fen = |clock: u32| format!("5k3/9/9/9/9/9/9/9/9/R2K5 w - - {clock} 80");
    assert_eq!(judge(&fen(119), "a0a1"), draw);
    assert_eq!(judge(&fen(118), "a0a1"), None);
    assert_eq!(judge(&fen(118), "a0a1 f9e9"), draw);
    // Taking the last legal move on the 120th ply still wins: no legal move comes first
    // (i0i8 holds rank 8 and the flying general the e-file).
    assert_eq!(
        judge("3k5/9/9/9/9/9/9/9/9/4K3R w - - 119 80", "i0i8"),
        over(GameResult::RedWins, Termination::Stalemate)
    );
    // A capture resets the count.
    assert_eq!(
        judge("5k3/9/9/9/9/9/9/9/r8/R2K5 w - - 119 80", "a0a1"),
        None
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
    assert_eq!(move_rule_plies(120, game.checks()), 118);
    assert_eq!(game.outcome(), None);
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
            .filter(|g| !g.position().is_check() && threefold(g.keys(), 200).is_none())
            .collect()
    };
    let after_one = quiet(&game);
    assert!(after_one
        .iter()
        .all(|g| g.outcome().map(|o| o.termination) != Some(Termination::MoveRule)));
    game = after_one
        .iter()
        .filter(|g| g.outcome().is_none())
        .flat_map(quiet)
        .next()
        .expect("a quiet move and a quiet reply");
    assert_eq!(
        game.outcome(),
        over(GameResult::Draw, Termination::MoveRule)
    );
}
