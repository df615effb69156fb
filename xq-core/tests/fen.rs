//! FEN parsing and printing, position validation and Zobrist keys, checked against
//! every position of `data/perft.epd` and a list of malformed and impossible FENs.

use xq_core::{
    zobrist, Color, Fen, FenError, Ignore, Move, ParseFenError, Piece, PieceKind, Position,
    PositionError, Square, START_FEN,
};

use xq_testkit::SUITE;

/// The FEN of each suite line (the text before the first `;`).
fn suite_fens() -> Vec<&'static str> {
    let fens: Vec<&str> = SUITE
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| l.split(';').next().unwrap().trim())
        .collect();
    assert_eq!(fens.len(), 50);
    fens
}

/// A FEN with its fields separated by single spaces: what `to_fen` writes for the
/// suite's six-field FENs.
fn normalized(fen: &str) -> String {
    fen.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn parse(fen: &str) -> Position {
    Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn piece(c: char) -> Piece {
    Piece::from_char(c).unwrap()
}

// ---------------------------------------------------------------------- round trips

#[test]
fn suite_fens_round_trip() {
    for fen in suite_fens() {
        let pos = parse(fen);
        assert_eq!(pos.to_fen(), normalized(fen));
        assert_eq!(pos.to_string(), normalized(fen));
        assert_eq!(pos.check_invariants(), Ok(()), "{fen}");
        assert_eq!(pos.key(), pos.compute_key(), "{fen}");

        // The syntax stage alone round-trips too, and agrees with the position.
        let setup: Fen = fen.parse().unwrap();
        assert_eq!(setup.to_string(), normalized(fen));
        assert_eq!(setup.to_string().parse::<Fen>(), Ok(setup.clone()));
        assert_eq!(Fen::from(&pos), setup);
        assert_eq!(Position::try_from(&setup), Ok(pos.clone()));
        for sq in Square::ALL {
            assert_eq!(pos.piece_on(sq), setup.piece_on(sq), "{fen} {sq}");
        }
        assert_eq!(pos.side_to_move(), setup.side_to_move);
        assert_eq!(pos.halfmove_clock(), setup.halfmove_clock);
        assert_eq!(pos.fullmove_number(), setup.fullmove_number);

        // Reparsing what was printed gives the same position and key.
        let again = parse(&pos.to_fen());
        assert_eq!(again, pos);
        assert_eq!(again.key(), pos.key());
        assert_eq!(fen.parse::<Position>(), Ok(pos));
    }
}

#[test]
fn start_position() {
    let pos = Position::startpos();
    assert_eq!(pos.to_fen(), START_FEN);
    assert_eq!(pos, parse(START_FEN));
    assert_eq!(pos, Position::default());
    assert_eq!(pos.side_to_move(), Color::Red);
    assert_eq!(pos.general(Color::Red), Square::E0);
    assert_eq!(pos.general(Color::Black), Square::E9);
    assert_eq!(pos.pieces(Color::Red).count(), 16);
    assert_eq!(pos.pieces(Color::Black).count(), 16);
    assert_eq!(pos.count(piece('P')), 5);
    assert_eq!(pos.count(piece('c')), 2);
    assert_eq!(pos.piece_on(Square::H2), Some(piece('C')));
    assert_eq!(pos.piece_on(Square::B9), Some(piece('n')));
    assert_eq!(pos.piece_on(Square::E4), None);
    assert!(!pos.is_check());
}

#[test]
fn red_may_be_written_r() {
    let w = parse("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1");
    let r = parse("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR r - - 0 1");
    assert_eq!(r, w);
    assert_eq!(r.key(), w.key());
    assert_eq!(r.side_to_move(), Color::Red);
    // Always written back as `w`.
    assert_eq!(r.to_fen(), START_FEN);
}

#[test]
fn horse_and_elephant_aliases() {
    let aliased = parse("rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR w - - 0 1");
    assert_eq!(aliased, Position::startpos());
    assert_eq!(aliased.key(), Position::startpos().key());
    assert_eq!(
        aliased.piece_on(Square::B0),
        Some(Piece::new(Color::Red, PieceKind::Horse))
    );
    assert_eq!(
        aliased.piece_on(Square::C9),
        Some(Piece::new(Color::Black, PieceKind::Elephant))
    );
    // Printed with the canonical letters.
    assert_eq!(aliased.to_fen(), START_FEN);
    // Both spellings may be mixed.
    let mixed = parse("rnea1aehr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHBAKABNR b - - 0 1");
    assert_eq!(
        mixed.to_fen(),
        "rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 0 1"
    );
}

#[test]
fn short_forms() {
    // Board and side only: the counters default to 0 and 1.
    let short = parse("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w");
    assert_eq!(short, Position::startpos());
    assert_eq!(short.to_fen(), START_FEN);
    let black = parse("4k4/9/9/9/9/9/9/9/9/3K5 b");
    assert_eq!(black.side_to_move(), Color::Black);
    assert_eq!(black.to_fen(), "4k4/9/9/9/9/9/9/9/9/3K5 b - - 0 1");
    // Counters without the two placeholders, and surrounding white space.
    let counters = parse("  4k4/9/9/9/9/9/9/9/9/3K5   b 7 31 ");
    assert_eq!(
        (counters.halfmove_clock(), counters.fullmove_number()),
        (7, 31)
    );
    assert_eq!(counters.to_fen(), "4k4/9/9/9/9/9/9/9/9/3K5 b - - 7 31");
    // The side changes the key, the clocks do not.
    assert_ne!(black.key(), parse("4k4/9/9/9/9/9/9/9/9/3K5 w").key());
    assert_eq!(black.key(), counters.key());
    assert_eq!(
        black.key() ^ zobrist::side_to_move(),
        parse("4k4/9/9/9/9/9/9/9/9/3K5 w").key()
    );
}

// ---------------------------------------------------------------------- errors

fn parse_err(fen: &str) -> ParseFenError {
    match Position::from_fen(fen) {
        Err(FenError::Parse(e)) => {
            assert_eq!(fen.parse::<Fen>(), Err(e.clone()));
            assert!(!e.to_string().is_empty());
            e
        }
        other => panic!("{fen}: expected a parse error, got {other:?}"),
    }
}

fn position_err(fen: &str) -> PositionError {
    // Well formed: the syntax stage accepts it.
    let setup: Fen = fen
        .parse()
        .unwrap_or_else(|e| panic!("{fen} should be well formed: {e}"));
    match Position::from_fen(fen) {
        Err(FenError::Position(e)) => {
            assert_eq!(Position::try_from(&setup), Err(e.clone()));
            assert!(!e.to_string().is_empty());
            // The wrapper's text holds the cause once, and no source repeats it.
            let wrapped = FenError::Position(e.clone());
            assert_eq!(wrapped.to_string(), format!("illegal position: {e}"));
            assert!(std::error::Error::source(&wrapped).is_none());
            e
        }
        other => panic!("{fen}: expected a position error, got {other:?}"),
    }
}

#[test]
fn malformed_fens() {
    assert_eq!(parse_err(""), ParseFenError::Empty);
    assert_eq!(parse_err(" \t "), ParseFenError::Empty);
    assert_eq!(
        parse_err("4k4/9/9/9/9/9/9/9/3K5 w"),
        ParseFenError::WrongRankCount(9)
    );
    assert_eq!(
        parse_err("4k4/9/9/9/9/9/9/9/9/3K5/9 w"),
        ParseFenError::WrongRankCount(11)
    );
    // Rank 1 (the ninth written) describes eight files.
    assert_eq!(
        parse_err("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/8/RNBAKABNR w"),
        ParseFenError::WrongRankWidth { rank: 1, width: 8 }
    );
    // Rank 7 describes ten.
    assert_eq!(
        parse_err("rnbakabnr/9/1c5c2/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w"),
        ParseFenError::WrongRankWidth { rank: 7, width: 10 }
    );
    // An overflowing rank reports its whole width.
    assert_eq!(
        parse_err("rnbakabnrr9/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w"),
        ParseFenError::WrongRankWidth { rank: 9, width: 19 }
    );
    assert_eq!(
        parse_err("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1X1P1P/1C5C1/9/RNBAKABNR w"),
        ParseFenError::UnexpectedChar { ch: 'X', index: 36 }
    );
    // Zero is not a run length.
    assert_eq!(
        parse_err("4k4/9/9/9/9/0/9/9/9/3K5 w"),
        ParseFenError::UnexpectedChar { ch: '0', index: 12 }
    );
    // A bad character beats the rank count it causes.
    assert_eq!(
        parse_err("4k4/9/9/9/9/9/9/9/9-3K5 w"),
        ParseFenError::UnexpectedChar { ch: '-', index: 19 }
    );
    assert_eq!(
        parse_err("4k4/9/9/9/9/9/9/9/9/3K5"),
        ParseFenError::MissingSide
    );
    assert_eq!(
        parse_err("4k4/9/9/9/9/9/9/9/9/3K5 x"),
        ParseFenError::BadSide("x".into())
    );
    assert_eq!(
        parse_err("4k4/9/9/9/9/9/9/9/9/3K5 red"),
        ParseFenError::BadSide("red".into())
    );
    assert_eq!(
        parse_err("4k4/9/9/9/9/9/9/9/9/3K5 w - - -1 1"),
        ParseFenError::BadHalfmoveClock("-1".into())
    );
    assert_eq!(
        parse_err("4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 0"),
        ParseFenError::BadFullmoveNumber("0".into())
    );
    assert_eq!(
        parse_err("4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1 w"),
        ParseFenError::TrailingText("w".into())
    );
}

#[test]
fn impossible_positions() {
    use PositionError::*;
    assert_eq!(
        position_err("4k4/9/9/9/9/9/9/9/9/9 w"),
        MissingGeneral(Color::Red)
    );
    assert_eq!(
        position_err("9/9/9/9/9/9/9/9/9/4K4 b"),
        MissingGeneral(Color::Black)
    );
    assert_eq!(
        position_err("3kk4/9/9/9/9/9/9/9/9/4K4 w"),
        TooManyGenerals(Color::Black)
    );
    assert_eq!(
        position_err("4k4/9/9/9/9/9/9/9/4K4/3K5 w"),
        TooManyGenerals(Color::Red)
    );
    assert_eq!(
        position_err("4k4/9/9/9/9/9/9/9/9/2K6 w"),
        GeneralOutsidePalace {
            color: Color::Red,
            square: Square::C0
        }
    );
    // Black's palace is not Red's.
    assert_eq!(
        position_err("5k3/9/3K5/9/9/9/9/9/9/9 w"),
        GeneralOutsidePalace {
            color: Color::Red,
            square: Square::D7
        }
    );
    assert_eq!(
        position_err("9/9/9/4k4/9/9/9/9/9/3K5 w"),
        GeneralOutsidePalace {
            color: Color::Black,
            square: Square::E6
        }
    );
    // An advisor on the palace's middle of an edge.
    assert_eq!(
        position_err("4k4/9/9/9/9/9/9/9/9/3KA4 w"),
        UnreachableSquare {
            piece: piece('A'),
            square: Square::E0
        }
    );
    assert_eq!(
        position_err("4k4/3a5/9/9/9/9/9/9/9/3K5 w"),
        UnreachableSquare {
            piece: piece('a'),
            square: Square::D8
        }
    );
    // An elephant across the river, and one on its own side but off its points.
    assert_eq!(
        position_err("4k4/9/9/9/2B6/9/9/9/9/3K5 w"),
        UnreachableSquare {
            piece: piece('B'),
            square: Square::C5
        }
    );
    assert_eq!(
        position_err("4k4/9/9/9/9/2e6/9/9/9/3K5 w"),
        UnreachableSquare {
            piece: piece('b'),
            square: Square::C4
        }
    );
    assert_eq!(
        position_err("4k4/9/9/9/9/9/9/9/4B4/3K5 w"),
        UnreachableSquare {
            piece: piece('B'),
            square: Square::E1
        }
    );
    // Soldiers behind their start: Red on rank 2, Red on an odd file of rank 3, Black on
    // rank 7 and on an odd file of rank 5.
    assert_eq!(
        position_err("4k4/9/9/9/9/9/9/P8/9/3K5 w"),
        UnreachableSquare {
            piece: piece('P'),
            square: Square::A2
        }
    );
    assert_eq!(
        position_err("4k4/9/9/9/9/9/1P7/9/9/3K5 w"),
        UnreachableSquare {
            piece: piece('P'),
            square: Square::B3
        }
    );
    assert_eq!(
        position_err("4k4/9/p8/9/9/9/9/9/9/3K5 w"),
        UnreachableSquare {
            piece: piece('p'),
            square: Square::A7
        }
    );
    assert_eq!(
        position_err("4k4/9/9/9/7p1/9/9/9/9/3K5 w"),
        UnreachableSquare {
            piece: piece('p'),
            square: Square::H5
        }
    );
    assert_eq!(
        position_err("4k4/9/9/9/9/P1P1P1P1P/P8/9/9/3K5 w"),
        TooManyPieces {
            piece: piece('P'),
            count: 6
        }
    );
    assert_eq!(
        position_err("rrr1k4/9/9/9/9/9/9/9/9/3K5 w"),
        TooManyPieces {
            piece: piece('r'),
            count: 3
        }
    );
    assert_eq!(position_err("4k4/9/9/9/9/9/9/9/9/4K4 w"), GeneralsFacing);
    assert_eq!(position_err("3k5/9/9/9/9/9/9/9/9/3K5 b"), GeneralsFacing);
    // Black is in check by the chariot with Red to move.
    assert_eq!(position_err("4k4/9/9/9/9/9/9/9/4R4/3K5 w"), OpponentInCheck);
    // Red is in check by a cannon over a screen with Black to move.
    assert_eq!(
        position_err("4k4/9/9/9/4c4/9/9/9/4A4/4K4 b"),
        OpponentInCheck
    );
    // ... by a horse whose leg is free, and not when the leg is blocked.
    assert_eq!(position_err("3k5/9/9/9/9/9/9/3n5/9/4K4 b"), OpponentInCheck);
    assert!(Position::from_fen("3k5/9/9/9/9/9/9/3n5/3N5/4K4 b").is_ok());
    // ... by a soldier beside the general.
    assert_eq!(position_err("3k5/9/9/9/9/9/9/9/9/3pK4 b"), OpponentInCheck);
}

/// Positions no game reaches but that can be played: refused by default, accepted when
/// the caller ignores unreachable squares, with the same error as a warning; what would
/// make them unplayable is refused whatever the caller ignores.
#[test]
fn unreachable_squares_are_ignored_when_asked() {
    use PositionError::*;
    let playable = |fen: &str| {
        Position::from_fen_with(fen, Ignore::PLAYABLE).unwrap_or_else(|e| panic!("{fen}: {e}"))
    };
    // Every unreachable placement of `impossible_positions`, and a few more.
    let cases = [
        ("4k4/9/9/9/9/9/9/9/9/3KA4 w", 'A', Square::E0),
        ("4k4/3a5/9/9/9/9/9/9/9/3K5 w", 'a', Square::D8),
        ("4k4/9/9/9/2B6/9/9/9/9/3K5 w", 'B', Square::C5),
        ("4k4/9/9/9/9/2e6/9/9/9/3K5 w", 'b', Square::C4),
        ("4k4/9/9/9/9/9/9/9/4B4/3K5 w", 'B', Square::E1),
        ("4k4/9/9/9/9/9/9/P8/9/3K5 w", 'P', Square::A2),
        ("4k4/9/9/9/9/9/1P7/9/9/3K5 w", 'P', Square::B3),
        ("4k4/9/p8/9/9/9/9/9/9/3K5 w", 'p', Square::A7),
        ("4k4/9/9/9/7p1/9/9/9/9/3K5 w", 'p', Square::H5),
        // The issue's example: a Black soldier on its own back rank.
        ("3k1p3/9/9/9/9/9/9/9/9/4K4 w", 'p', Square::F9),
        // Red's advisor off its points but on its own side, outside the palace.
        ("4k4/9/9/9/9/9/9/9/A8/3K5 b", 'A', Square::A1),
    ];
    for (fen, c, square) in cases {
        let error = UnreachableSquare {
            piece: piece(c),
            square,
        };
        assert_eq!(position_err(fen), error, "{fen}");
        assert_eq!(
            Position::from_fen_with(fen, Ignore::NOTHING),
            Err(FenError::Position(error.clone())),
            "{fen}"
        );
        let pos = playable(fen);
        assert_eq!(pos.irregularities(), [error], "{fen}");
        assert_eq!(pos.check_invariants(), Ok(()), "{fen}");
        // It prints and reads back (leniently), and mirrors to a position as playable.
        assert_eq!(playable(&pos.to_fen()), pos, "{fen}");
        let flipped = pos.color_flipped();
        assert_eq!(flipped.irregularities().len(), 1, "{fen}");
        assert_eq!(flipped.color_flipped(), pos, "{fen}");
        // Left to right too: the piece stays as irregular, and nothing panics.
        let mirrored = pos.flip_horizontal();
        assert_eq!(mirrored.irregularities().len(), 1, "{fen}");
        assert_eq!(mirrored.flip_horizontal(), pos, "{fen}");
        let setup: Fen = fen.parse().unwrap();
        assert_eq!(
            Position::from_setup(&setup, Ignore::UNREACHABLE_SQUARES),
            Ok(pos)
        );
    }
    // Several at once, reported in square order.
    let pos = playable("3k1p3/9/9/9/2B6/9/9/9/9/4KP3 w");
    let found: Vec<(Piece, Square)> = pos
        .irregularities()
        .into_iter()
        .map(|e| match e {
            UnreachableSquare { piece, square } => (piece, square),
            other => panic!("{other}"),
        })
        .collect();
    assert_eq!(
        found,
        [
            (piece('P'), Square::F0),
            (piece('B'), Square::C5),
            (piece('p'), Square::F9)
        ]
    );
    // An advisor across the river could step into the other palace, where the rules of
    // check never look for one: refused even when unreachable squares are ignored.
    for (fen, c, square) in [
        ("3k5/9/9/3A5/9/9/9/9/9/4K4 w", 'A', Square::D6),
        ("3k5/9/9/9/9/9/9/9/4a4/4K4 w", 'a', Square::E1),
    ] {
        let error = UnreachableSquare {
            piece: piece(c),
            square,
        };
        assert!(!Ignore::PLAYABLE.ignores(&error));
        assert_eq!(
            Position::from_fen_with(fen, Ignore::PLAYABLE),
            Err(FenError::Position(error)),
            "{fen}"
        );
    }
    // What would make a position unplayable is never ignored.
    for (fen, error) in [
        ("4k4/9/9/9/9/9/9/9/9/9 w", MissingGeneral(Color::Red)),
        ("3kk4/9/9/9/9/9/9/9/9/4K4 w", TooManyGenerals(Color::Black)),
        (
            "4k4/9/9/9/9/9/9/9/9/2K6 w",
            GeneralOutsidePalace {
                color: Color::Red,
                square: Square::C0,
            },
        ),
        (
            "rrr1k4/9/9/9/9/9/9/9/9/3K5 w",
            TooManyPieces {
                piece: piece('r'),
                count: 3,
            },
        ),
        ("4k4/9/9/9/9/9/9/9/9/4K4 w", GeneralsFacing),
        ("4k4/9/9/9/9/9/9/9/4R4/3K5 w", OpponentInCheck),
        // The unreachable soldier on f9 is let through; the chariot's check is not.
        ("3k1p3/9/9/9/9/9/9/9/3R5/4K4 w", OpponentInCheck),
    ] {
        assert!(!Ignore::PLAYABLE.ignores(&error), "{fen}");
        assert_eq!(
            Position::from_fen_with(fen, Ignore::PLAYABLE),
            Err(FenError::Position(error)),
            "{fen}"
        );
    }
    // Malformed text is malformed, whatever is ignored.
    assert_eq!(
        Position::from_fen_with("4k4/9/9 w", Ignore::PLAYABLE),
        Err(FenError::Parse(ParseFenError::WrongRankCount(3)))
    );
    // Every position of a game has no irregularity.
    for fen in suite_fens() {
        assert_eq!(parse(fen).irregularities(), [], "{fen}");
        assert_eq!(
            Position::from_fen_with(fen, Ignore::PLAYABLE),
            Ok(parse(fen))
        );
    }
    assert_eq!(Ignore::default(), Ignore::NOTHING);
}

// ---------------------------------------------------------------------- robustness

/// Characters a mutation may insert: everything a FEN uses, a few it must refuse, and
/// some outside ASCII.
const ALPHABET: &[char] = &[
    'r', 'n', 'b', 'a', 'k', 'c', 'p', 'h', 'e', 'R', 'N', 'B', 'A', 'K', 'C', 'P', 'H', 'E', '0',
    '1', '2', '3', '4', '5', '6', '7', '8', '9', '/', ' ', '-', 'w', 'x', '\t', '\n', 'é', '帥',
    '\u{0}', '+',
];

/// Parses `text` and, when it is accepted, checks what was built.
fn parse_checked(text: &str) {
    if let Ok(pos) = Position::from_fen(text) {
        assert_eq!(pos.check_invariants(), Ok(()), "{text:?}");
        let again = Position::from_fen(&pos.to_fen()).expect("a printed FEN reparses");
        assert_eq!(again, pos, "{text:?}");
        assert_eq!(again.key(), pos.key(), "{text:?}");
        assert!(!pos.generals_facing(), "{text:?}");
        assert!(!pos.is_general_attacked(!pos.side_to_move()), "{text:?}");
    }
    // Leniently: whatever is accepted is playable and reads back the same way.
    if let Ok(pos) = Position::from_fen_with(text, Ignore::PLAYABLE) {
        assert_eq!(pos.check_invariants(), Ok(()), "{text:?}");
        let again = Position::from_fen_with(&pos.to_fen(), Ignore::PLAYABLE)
            .expect("a printed FEN reparses");
        assert_eq!(again, pos, "{text:?}");
        assert!(!pos.generals_facing(), "{text:?}");
        assert!(!pos.is_general_attacked(!pos.side_to_move()), "{text:?}");
        assert_eq!(
            Position::from_fen(text).is_ok(),
            pos.irregularities().is_empty(),
            "{text:?}"
        );
    }
    if let Ok(fen) = text.parse::<Fen>() {
        assert_eq!(fen.to_string().parse::<Fen>(), Ok(fen.clone()), "{text:?}");
    }
}

#[test]
fn garbage_never_panics() {
    let mut rng = xq_core::SplitMix64::new(0x9e37_79b9_7f4a_7c15);
    let mut below = |n: usize| rng.below(n as u64) as usize;
    let fens = suite_fens();
    let mut accepted = 0;
    for fen in &fens {
        let chars: Vec<char> = fen.chars().collect();
        // Every truncation.
        for n in 0..=chars.len() {
            parse_checked(&chars[..n].iter().collect::<String>());
        }
        // Random mutations: replace, insert, delete or swap a few characters.
        for _ in 0..300 {
            let mut c = chars.clone();
            for _ in 0..1 + below(3) {
                let i = below(c.len() + 1);
                let ch = ALPHABET[below(ALPHABET.len())];
                match below(4) {
                    0 if i < c.len() => c[i] = ch,
                    1 => c.insert(i, ch),
                    2 if i < c.len() => {
                        c.remove(i);
                    }
                    _ if i + 1 < c.len() => c.swap(i, i + 1),
                    _ => c.push(ch),
                }
            }
            let text: String = c.iter().collect();
            parse_checked(&text);
            accepted += Position::from_fen(&text).is_ok() as usize;
        }
        // Raw byte flips, read back as (lossy) UTF-8.
        for _ in 0..100 {
            let mut bytes = fen.as_bytes().to_vec();
            let i = below(bytes.len());
            bytes[i] ^= 1 << below(8);
            parse_checked(&String::from_utf8_lossy(&bytes));
        }
    }
    // Pure garbage.
    for _ in 0..2000 {
        let len = below(120);
        let text: String = (0..len).map(|_| ALPHABET[below(ALPHABET.len())]).collect();
        parse_checked(&text);
    }
    // Some mutations are harmless (a swapped pair of equal digits, a changed clock), so a
    // parser that refused everything would be caught here.
    assert!(accepted > 100, "only {accepted} mutated FENs were accepted");
}

// ---------------------------------------------------------------------- Zobrist keys

/// `Position::startpos().key()`. Keys are documented as stable (they may be stored in an
/// opening book): if this changes, it changed on purpose and every stored key is void.
const START_KEY: u64 = 0xa771_1237_1260_9305;
/// The key after `h2e2` from the start.
const H2E2_KEY: u64 = 0xe415_bd18_d841_3e8e;

#[test]
fn zobrist_keys_are_pinned() {
    let mut pos = Position::startpos();
    assert_eq!(pos.key(), START_KEY, "start key {:#018x}", pos.key());
    pos.make_move("h2e2".parse().unwrap());
    assert_eq!(pos.key(), H2E2_KEY, "h2e2 key {:#018x}", pos.key());
    // The documented composition: piece-square keys XORed, plus the side key for Black.
    let cannon = piece('C');
    assert_eq!(
        H2E2_KEY,
        START_KEY
            ^ zobrist::piece_square(cannon, Square::H2)
            ^ zobrist::piece_square(cannon, Square::E2)
            ^ zobrist::side_to_move()
    );
    let from_pieces = Square::ALL
        .iter()
        .filter_map(|&sq| {
            Position::startpos()
                .piece_on(sq)
                .map(|p| zobrist::piece_square(p, sq))
        })
        .fold(0, |a, b| a ^ b);
    assert_eq!(from_pieces, START_KEY);
}

#[test]
fn zobrist_keys_are_distinct() {
    let mut keys: Vec<u64> = Vec::new();
    for i in 0..Piece::COUNT {
        let p = Piece::from_index(i).unwrap();
        for sq in Square::ALL {
            keys.push(zobrist::piece_square(p, sq));
        }
    }
    keys.push(zobrist::side_to_move());
    let n = keys.len();
    assert_eq!(n, 14 * 90 + 1);
    keys.sort_unstable();
    keys.dedup();
    assert_eq!(keys.len(), n, "two Zobrist keys are equal");
    assert!(!keys.contains(&0));
}

#[test]
fn key_after_moves_equals_key_of_fen() {
    // An opening with six captures, played with make_move, against the FEN of the
    // position it reaches written out by hand.
    let line = [
        "h2h9", "i9h9", "b2b9", "a9b9", "h0g2", "c6c5", "i0h0", "h7e7", "h0h9", "e7e3",
    ];
    let mut pos = Position::startpos();
    let mut captured = Vec::new();
    for (i, text) in line.iter().enumerate() {
        let m: Move = text.parse().unwrap();
        let undo = pos.make_move(m);
        captured.extend(undo.captured());
        assert_eq!(
            pos.key(),
            pos.compute_key(),
            "after {}",
            line[..=i].join(" ")
        );
        assert_eq!(pos.check_invariants(), Ok(()));
    }
    assert_eq!(
        captured,
        ["n", "C", "n", "C", "r", "P"].map(|c| piece(c.chars().next().unwrap()))
    );
    let expected = "1rbakabR1/9/1c7/p3p1p1p/2p6/9/P1P1c1P1P/6N2/9/RNBAKAB2 w - - 0 6";
    assert_eq!(pos.to_fen(), expected);
    let parsed = parse(expected);
    assert_eq!(pos, parsed);
    assert_eq!(pos.key(), parsed.key());
    // The clocks are not part of the key.
    let short = parse("1rbakabR1/9/1c7/p3p1p1p/2p6/9/P1P1c1P1P/6N2/9/RNBAKAB2 w");
    assert_eq!(short.key(), pos.key());

    // The same position reached by another move order has the same key.
    let mut other = Position::startpos();
    for text in [
        "b2b9", "a9b9", "h2h9", "i9h9", "h0g2", "h7e7", "i0h0", "c6c5", "h0h9", "e7e3",
    ] {
        other.make_move(text.parse().unwrap());
    }
    assert_eq!(other, pos);
    assert_eq!(other.key(), pos.key());
}

#[test]
fn null_move_toggles_only_the_side() {
    let mut pos = parse(suite_fens()[4]);
    let before = pos.clone();
    let undo = pos.make_null();
    assert_eq!(pos.key(), before.key() ^ zobrist::side_to_move());
    assert_eq!(pos.key(), pos.compute_key());
    assert_eq!(pos.side_to_move(), !before.side_to_move());
    pos.unmake_null(undo);
    assert_eq!(pos, before);
    assert_eq!(pos.key(), before.key());
}
