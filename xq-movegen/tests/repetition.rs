//! The repetition rules against `data/repetition.epd`: every case judged by Pikafish must
//! come out the same through `Game::outcome`, at its last move and not before.

use xq_core::{Color, Move, Piece, PieceKind, Position, Square};
use xq_movegen::rules::{chase_targets, chases, rule_cycle, CycleError};
use xq_movegen::{Game, GameResult, IllegalMoveError, Outcome, Termination};
use xq_testkit::{repetition_cases, RepetitionCase};

fn expected_result(case: &RepetitionCase) -> GameResult {
    match case.result.as_str() {
        "red-wins" => GameResult::RedWins,
        "black-wins" => GameResult::BlackWins,
        "draw" => GameResult::Draw,
        other => panic!("line {}: unknown result {other}", case.line),
    }
}

/// The reason each kind of case must give.
fn expected_tag(case: &RepetitionCase) -> &'static str {
    match (case.result.as_str(), case.kind.as_str()) {
        ("draw", _) => "repetition",
        (_, "perpetual-check" | "check-vs-chase") => "perpetual-check",
        _ => "perpetual-chase",
    }
}

#[test]
fn every_case_comes_out_as_pikafish_rules() {
    let cases = repetition_cases();
    assert_eq!(cases.len(), 41);
    let mut failures = Vec::new();
    for case in &cases {
        let mut game = Game::new(Position::from_fen(&case.fen).unwrap());
        // No ruling before the last move...
        for (i, m) in case.moves.iter().enumerate() {
            assert_eq!(
                game.outcome(),
                None,
                "line {} ({}): ruled after {i} moves",
                case.line,
                case.kind
            );
            game.play(m.parse().unwrap()).unwrap();
        }
        // ...and the file's ruling after it.
        let verdict = game.outcome();
        let ok = verdict.map(|o| o.result) == Some(expected_result(case))
            && verdict.map(|o| o.termination.tag()) == Some(expected_tag(case));
        if !ok {
            failures.push(format!(
                "line {} ({}): expected {} ({}), got {verdict:?}",
                case.line,
                case.kind,
                case.result,
                expected_tag(case)
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn the_chaser_and_the_chased_piece_are_named() {
    let game = |fen: &str, moves: &str| {
        let moves: Vec<&str> = moves.split_whitespace().collect();
        Game::from_fen_moves(fen, &moves).unwrap()
    };
    let piece = |c| Piece::from_char(c).unwrap();
    // A cannon, protected? No: the red chariot follows it, unprotected, g8 <-> i8.
    let g = game(
        "5k3/8c/9/9/8R/9/6C1C/9/9/4K4 b",
        "i8g8 i5g5 g8i8 g5i5 i8g8 i5g5 g8i8 g5i5",
    );
    assert_eq!(
        g.outcome().map(|o| o.termination),
        Some(Termination::PerpetualChase {
            by: Color::Red,
            piece: piece('c'),
            square: Square::I8
        })
    );
    // A horse chasing a chariot that is protected: still a chase.
    let g = game(
        "3k5/9/9/6p2/1n7/2R6/8P/9/9/2R2K3 b",
        "b5d6 c4c3 d6b5 c3c4 b5d6 c4c3 d6b5 c3c4",
    );
    assert_eq!(
        g.outcome().map(|o| o.termination),
        Some(Termination::PerpetualChase {
            by: Color::Black,
            piece: piece('R'),
            square: Square::C4
        })
    );
    assert_eq!(
        g.outcome().unwrap().to_string(),
        "1-0 perpetual chase by black of the red chariot on c4"
    );
    // Perpetual check comes before any chase.
    let g = game(
        "3k5/9/9/9/9/5p3/9/5p3/5K3/5C3 w",
        "f1e1 f2e2 e1f1 e2f2 f1e1 f2e2 e1f1 e2f2",
    );
    assert_eq!(
        g.outcome(),
        Some(Outcome {
            result: GameResult::RedWins,
            termination: Termination::PerpetualCheck { by: Color::Black }
        })
    );
    assert_eq!(
        g.outcome().unwrap().to_string(),
        "1-0 perpetual check by black"
    );
}

#[test]
fn chases_of_single_moves() {
    let pos = Position::from_fen("9/5k3/1n7/p6R1/9/9/8P/9/9/3K5 w").unwrap();
    let mv = |s: &str| -> Move { s.parse().unwrap() };
    let set = |sqs: &[Square]| sqs.iter().copied().collect();
    assert_eq!(chases(&pos, mv("h6h7")), set(&[Square::B7]));
    // Attacking the soldier on a6 is no chase: it has not crossed the river.
    assert!(chases(&pos, mv("h6h8")).is_empty());
    assert!(chases(&pos, mv("h6h5")).is_empty());
    // An illegal move chases nothing.
    assert!(chases(&pos, mv("h6g5")).is_empty());
    // Protected by the chariot on c9, the horse on c6 is no target of the cannon on c0.
    let pos = Position::from_fen("2rk5/9/9/2n6/2P6/9/3p5/9/9/2C1K4 w").unwrap();
    assert!(chase_targets(&pos, Color::Red).is_empty());
    // Without the chariot it is (over the soldier c5 as a screen).
    let pos = Position::from_fen("3k5/9/9/2n6/2P6/9/3p5/9/9/2C1K4 w").unwrap();
    assert_eq!(chase_targets(&pos, Color::Red), set(&[Square::C6]));
    // Rook against rook: a mutual attack, unless the victim cannot take back.
    let mutual = Position::from_fen("5k3/9/9/9/9/2r1R4/9/9/9/3K5 w").unwrap();
    assert!(chase_targets(&mutual, Color::Black).is_empty());
    assert!(chase_targets(&mutual, Color::Red).is_empty());
    let pinned = Position::from_fen("4ck3/9/9/9/9/2r1R4/9/9/4A4/3AK4 w").unwrap();
    assert_eq!(chase_targets(&pinned, Color::Black), set(&[Square::E4]));
    // Generals and soldiers never chase.
    let pos = Position::from_fen("4k4/9/4c4/3P5/9/9/9/9/9/5K3 w").unwrap();
    assert!(chase_targets(&pos, Color::Red).is_empty());
    assert_eq!(
        Piece::from_char('P').map(|p| p.kind),
        Some(PieceKind::Soldier)
    );
}

#[test]
fn rule_cycle_reports_illegal_moves() {
    let start = Position::from_fen("9/5k3/1n5R1/p8/9/9/8P/9/9/3K5 b").unwrap();
    let moves: Vec<Move> = ["b7c9", "h7h9", "c9c8"]
        .iter()
        .map(|m| m.parse().unwrap())
        .collect();
    let err = rule_cycle(&start, &moves).unwrap_err();
    assert_eq!(
        err,
        CycleError {
            index: 2,
            error: IllegalMoveError::BadMovement(moves[2])
        }
    );
    assert_eq!(
        err.to_string(),
        "move 3 of the cycle: illegal move c9c8: the piece on c9 cannot move there"
    );
    assert_eq!(
        rule_cycle(&start, &[]).unwrap(),
        Outcome::draw(Termination::Repetition)
    );
}
