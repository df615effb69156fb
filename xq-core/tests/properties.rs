//! Property tests (proptest): what users type never makes `xq-core` panic. Arbitrary
//! text and randomly edited FENs either parse into a consistent position that round-trips
//! or give a typed error; move text likewise. Each property runs 256 cases (set
//! `PROPTEST_CASES` to run more).

use proptest::prelude::*;
use xq_core::{Fen, Move, Position};
use xq_testkit::start_fens;

/// Characters a FEN is made of, plus a few that have no business there.
const ALPHABET: &[char] = &[
    'r', 'n', 'b', 'a', 'k', 'c', 'p', 'R', 'N', 'B', 'A', 'K', 'C', 'P', 'h', 'e', 'H', 'E', '0',
    '1', '2', '3', '4', '5', '9', '/', ' ', 'w', '-', 'x', '炮', '\t',
];

/// A valid FEN with up to eight characters replaced, inserted or deleted.
fn edited_fen() -> impl Strategy<Value = String> {
    (
        prop::sample::select(start_fens()),
        prop::collection::vec(
            (
                0..3u8,
                any::<prop::sample::Index>(),
                prop::sample::select(ALPHABET),
            ),
            1..8,
        ),
    )
        .prop_map(|(fen, edits)| {
            let mut chars: Vec<char> = fen.chars().collect();
            for (kind, at, c) in edits {
                let i = at.index(chars.len() + 1);
                match kind {
                    0 if i < chars.len() => chars[i] = c,
                    1 => chars.insert(i, c),
                    _ if i < chars.len() => {
                        chars.remove(i);
                    }
                    _ => {}
                }
            }
            chars.into_iter().collect()
        })
}

/// Parses `text`; when it is a position, checks that it is consistent and round-trips.
fn check_fen(text: &str) -> Result<Option<Position>, TestCaseError> {
    let syntax = text.parse::<Fen>();
    let pos = match Position::from_fen(text) {
        Ok(pos) => pos,
        Err(e) => {
            prop_assert!(!e.to_string().is_empty());
            return Ok(None);
        }
    };
    prop_assert!(syntax.is_ok());
    prop_assert_eq!(pos.check_invariants(), Ok(()));
    prop_assert_eq!(pos.key(), pos.compute_key());
    let back = Position::from_fen(&pos.to_fen()).unwrap();
    prop_assert_eq!(&back, &pos);
    prop_assert_eq!(back.key(), pos.key());
    // A valid position stays valid with the colours swapped (this `expect`s it).
    prop_assert_eq!(pos.color_flipped().color_flipped(), pos.clone());
    Ok(Some(pos))
}

proptest! {
    #![proptest_config(xq_testkit::proptest_config(256))]

    /// Arbitrary text is a position or an error, never a panic.
    #[test]
    fn arbitrary_text_is_a_position_or_an_error(text in any::<String>()) {
        check_fen(&text)?;
    }

    /// Edited FENs (most still look like FENs) are a consistent position or an error.
    #[test]
    fn edited_fens_are_a_position_or_an_error(text in edited_fen()) {
        check_fen(&text)?;
    }

    /// Arbitrary move text is a move that round-trips or an error; so is text built
    /// from square-like pieces.
    #[test]
    fn move_text_is_a_move_or_an_error(
        text in any::<String>(),
        built in "[a-jA-J][0-9x][-]?[a-jA-J][0-9x]",
    ) {
        for t in [&text, &built] {
            if let Ok(m) = t.parse::<Move>() {
                prop_assert_eq!(m.to_string().parse::<Move>(), Ok(m));
                prop_assert_ne!(m.from(), m.to());
                prop_assert_eq!(Move::from_u16(m.to_u16()), Some(m));
            }
        }
    }
}
