//! Property tests (proptest) over random games from the start position and from every
//! position of `data/perft.epd`: FEN round trip, key consistency, make/unmake restores
//! everything, `is_legal` agrees with generation for generated moves and for random
//! (from, to) pairs, and `attackers` agrees with the captures the generator lists.
//!
//! A game is a start position and a list of random numbers, each choosing one legal move
//! (`choice % moves.len()`), so a failing case shrinks to a short game. Each property
//! runs 256 cases (set `PROPTEST_CASES` to run more).

use proptest::prelude::*;
use xq_core::{Color, Fen, Move, Piece, Position, Square};
use xq_movegen::notation::{read_move, write_move, Notation};
use xq_movegen::{
    attackers, count_legal, gives_check, is_legal, is_pseudo_legal, legal, legal_moves,
    pseudo_legal, pseudo_legal_into, try_play, CheckTest, Gen, LegalityFilter, MoveList,
};
use xq_testkit::game;

/// A side's pieces in list order.
type PieceList = Vec<(Piece, Square)>;

/// Everything a position shows, for exact comparison: the placement, the key, and the
/// piece lists in their order (which exposes the internal identity of each piece: a
/// take-back that swapped two horses' list slots would show here). The occupancy bits
/// are compared with the board by `check_invariants`.
fn snapshot(pos: &Position) -> (String, u64, PieceList, PieceList) {
    (
        pos.to_fen(),
        pos.key(),
        pos.pieces(Color::Red).collect(),
        pos.pieces(Color::Black).collect(),
    )
}

proptest! {
    #![proptest_config(xq_testkit::proptest_config(256))]

    /// FEN out and back in gives the same position, the same text and the same `Fen`.
    #[test]
    fn fen_round_trips(positions in game()) {
        for pos in &positions {
            let text = pos.to_fen();
            let back = Position::from_fen(&text).unwrap();
            prop_assert_eq!(&back, pos);
            prop_assert_eq!(back.to_fen(), text.clone());
            let setup: Fen = text.parse().unwrap();
            prop_assert_eq!(&setup, &xq_core::Fen::from(pos));
            prop_assert_eq!(setup.to_string(), text);
            prop_assert_eq!(Position::try_from(&setup).unwrap(), back);
        }
    }

    /// The incrementally kept key equals the key computed from scratch and the key of
    /// the re-parsed FEN; the other incremental structures agree with the board.
    #[test]
    fn keys_are_consistent(positions in game()) {
        for pos in &positions {
            prop_assert_eq!(pos.key(), pos.compute_key(), "{}", pos);
            prop_assert_eq!(pos.key(), Position::from_fen(&pos.to_fen()).unwrap().key(), "{}", pos);
            prop_assert_eq!(pos.check_invariants(), Ok(()), "{}", pos);
        }
        // Equal placements and sides give equal keys, however they were reached.
        for (a, b) in positions.iter().zip(positions.iter().skip(1)) {
            if xq_core::Fen::from(a).board_text() == xq_core::Fen::from(b).board_text() && a.side_to_move() == b.side_to_move() {
                prop_assert_eq!(a.key(), b.key());
            }
        }
    }

    /// Making and unmaking every legal move (and a null move) restores the position
    /// exactly: placement, piece ids, occupancy bits, key, side and clocks.
    #[test]
    fn make_unmake_restores_everything(positions in game()) {
        for pos in &positions {
            let before = snapshot(pos);
            let mut p = pos.clone();
            for m in legal_moves(pos) {
                let captured = p.piece_on(m.to());
                let undo = p.make_move(m);
                prop_assert_eq!(undo.captured(), captured);
                prop_assert_eq!(p.check_invariants(), Ok(()), "{} after {}", pos, m);
                prop_assert_eq!(p.side_to_move(), !pos.side_to_move());
                p.unmake_move(m, undo);
                prop_assert_eq!(&snapshot(&p), &before, "{} after {} taken back", pos, m);
                prop_assert_eq!(&p, pos);
            }
            if !pos.is_check() {
                let undo = p.make_null();
                prop_assert_eq!(p.check_invariants(), Ok(()));
                p.unmake_null(undo);
                prop_assert_eq!(&snapshot(&p), &before, "{} null move taken back", pos);
            }
        }
    }

    /// `gives_check` (decided without playing the move) agrees with playing it and
    /// asking whether the other side is in check, for every legal move; `CheckTest`
    /// agrees with `gives_check` on every pseudo-legal move.
    #[test]
    fn gives_check_agrees_with_playing_the_move(positions in game()) {
        for pos in &positions {
            for m in legal_moves(pos) {
                let mut after = pos.clone();
                after.make_move(m);
                prop_assert_eq!(gives_check(pos, m), after.is_check(), "{} in {}", m, pos);
            }
            let test = CheckTest::new(pos);
            for m in pseudo_legal(pos, Gen::All) {
                prop_assert_eq!(test.gives_check(pos, m), gives_check(pos, m), "{} in {}", m, pos);
            }
            // The quiet-check generator: the quiet moves that give check, in order.
            let mut quiets = MoveList::new();
            pseudo_legal_into(pos, Gen::Quiets, &mut quiets);
            quiets.retain(|m| gives_check(pos, *m));
            let mut checks = MoveList::new();
            pseudo_legal_into(pos, Gen::QuietChecks, &mut checks);
            prop_assert_eq!(checks, quiets, "quiet checks in {}", pos);
        }
    }

    /// Every generated move is legal by `is_legal`, by the legality filter and by
    /// `try_play`; the split generators and the counter agree with the full list.
    #[test]
    fn generated_moves_are_legal(positions in game()) {
        for pos in &positions {
            let moves = legal_moves(pos);
            prop_assert_eq!(count_legal(pos), moves.len());
            for &m in &moves {
                prop_assert!(is_legal(pos, m), "{} in {}", m, pos);
                prop_assert!(try_play(&mut pos.clone(), m).is_ok(), "{} in {}", m, pos);
            }
            let filter = LegalityFilter::new(pos);
            let filtered: Vec<Move> = pseudo_legal(pos, Gen::All)
                .into_iter()
                .filter(|&m| filter.is_legal(pos, m))
                .collect();
            prop_assert_eq!(filtered.as_slice(), moves.as_slice());
            let mut split: Vec<Move> = legal(pos, Gen::Captures).into_iter().chain(legal(pos, Gen::Quiets)).collect();
            let mut all = moves.to_vec();
            split.sort();
            all.sort();
            prop_assert_eq!(split, all);
        }
    }

    /// For random (from, to) pairs, half of them starting on a piece of the side to
    /// move: `is_legal` is true exactly for the generated moves, and `try_play` succeeds
    /// exactly then (leaving the position unchanged when it fails).
    #[test]
    fn is_legal_agrees_with_generation(
        positions in game(),
        pairs in prop::collection::vec((any::<bool>(), any::<u8>(), 0..90usize), 32..64),
    ) {
        for pos in &positions {
            let moves = legal_moves(pos);
            let own: Vec<Square> = pos.pieces(pos.side_to_move()).map(|(_, sq)| sq).collect();
            for &(from_own, a, b) in &pairs {
                let from = if from_own {
                    own[a as usize % own.len()]
                } else {
                    Square::from_index(a as usize % 90).unwrap()
                };
                let to = Square::from_index(b).unwrap();
                if from == to {
                    continue;
                }
                let m = Move::new(from, to);
                let legal = moves.contains(&m);
                prop_assert_eq!(is_legal(pos, m), legal, "{} in {}", m, pos);
                if legal {
                    prop_assert!(is_pseudo_legal(pos, m));
                }
                let mut p = pos.clone();
                prop_assert_eq!(try_play(&mut p, m).is_ok(), legal, "{} in {}", m, pos);
                if !legal {
                    prop_assert_eq!(&p, pos);
                    prop_assert_eq!(p.key(), pos.key());
                }
            }
        }
    }

    /// `attackers(pos, sq, by)` for every enemy piece's square is the set of origins of
    /// the pseudo-legal captures onto it that the generator lists when `by` is to move
    /// (with a null move when it is not: the generator only moves the side to move).
    #[test]
    fn attackers_are_the_origins_of_captures(positions in game()) {
        for pos in &positions {
            for by in Color::ALL {
                let mut p = pos.clone();
                if p.side_to_move() != by {
                    p.make_null();
                }
                let captures = pseudo_legal(&p, Gen::All);
                for (_, sq) in pos.pieces(!by) {
                    let brute: xq_core::attacks::SquareSet = captures
                        .iter()
                        .filter(|m| m.to() == sq)
                        .map(|m| m.from())
                        .collect();
                    prop_assert_eq!(attackers(pos, sq, by), brute, "{} by {} on {}", pos, by, sq);
                }
            }
        }
    }

    /// Any (from, to) pair on the positions of random games is written in every notation
    /// exactly when it is legal, and what is written reads back as the move.
    #[test]
    fn notation_writes_legal_moves_and_reads_them_back(
        positions in game(),
        pairs in prop::collection::vec((0..90usize, 0..90usize), 1..16),
    ) {
        for pos in positions.iter().step_by(7) {
            for &(a, b) in &pairs {
                let m = Move::new(Square::from_index(a).unwrap(), Square::from_index(b).unwrap());
                for notation in Notation::ALL {
                    let written = write_move(pos, m, notation);
                    prop_assert_eq!(written.is_ok(), is_legal(pos, m), "{} in {}", m, pos);
                    if let Ok(text) = written {
                        prop_assert_eq!(read_move(pos, &text), Ok(m), "{} in {}", text, pos);
                    }
                }
            }
        }
    }
}
