//! Property tests (proptest) of the game-record readers and the PGN writer: no input
//! makes a reader panic (arbitrary bytes, and real files with random bytes changed),
//! whatever a reader accepts writes and reads back to the same game, and random game
//! trees (moves, variations, comments, glyphs, tags) round-trip through PGN in every
//! notation; the streaming reader cuts any text into games that put together give the
//! text back, whatever its buffer, and reads what the whole-text reader reads. Each
//! property runs 256 cases (set `PROPTEST_CASES` to run more).

use proptest::prelude::*;
use std::io::BufReader;
use xq_core::Position;
use xq_movegen::legal_moves;
use xq_movegen::notation::Notation;
use xq_movegen::GameResult;
use xq_records::pgn::{self, Encoding, PgnReader, ReadOptions, WriteOptions};
use xq_records::xqf;
use xq_records::{Line, Node, Record};

const SAMPLE_XQF: &[u8] = include_bytes!("data/games/sample.xqf");
const SAMPLE_PGN: &[u8] = include_bytes!("data/games/ccgc2006-01.pgn");

fn notation() -> impl Strategy<Value = Notation> {
    prop::sample::select(Notation::ALL.to_vec())
}

/// Whatever was read writes in `notation` and reads back to itself (but for a `}` in
/// a comment, which the writer turns into `｝`).
fn round_trips(games: &[Record], notation: Notation) {
    let text = pgn::write_all(games, &WriteOptions { notation }).unwrap();
    let again = pgn::read_str(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    let mut expected = games.to_vec();
    for game in &mut expected {
        braces(&mut game.main);
    }
    assert_eq!(again, expected, "{text}");
}

fn braces(line: &mut Line) {
    let fix = |c: &mut Option<String>| {
        if let Some(c) = c {
            *c = c.replace('}', "｝");
        }
    };
    fix(&mut line.comment);
    for node in &mut line.nodes {
        fix(&mut node.comment);
        node.variations.iter_mut().for_each(braces);
    }
}

/// A line of up to `len` legal moves from `pos`, chosen by `choices`, with comments,
/// glyphs and (while `depth` allows) variations.
fn line(pos: &Position, choices: &mut impl Iterator<Item = u32>, len: usize, depth: usize) -> Line {
    const COMMENTS: [&str; 6] = [
        "good",
        "炮二平五 is usual",
        "a [bracket]",
        "x (y) ; z",
        "\"q\" \\",
        "two\nlines",
    ];
    let mut pos = pos.clone();
    let mut out = Line::default();
    if choices.next().unwrap_or(0) % 5 == 0 {
        out.comment = Some(COMMENTS[choices.next().unwrap_or(0) as usize % 6].to_string());
    }
    for _ in 0..len {
        let moves = legal_moves(&pos);
        if moves.is_empty() {
            break;
        }
        let c = choices.next().unwrap_or(0);
        let mut node = Node::new(moves[c as usize % moves.len()]);
        if c % 7 == 1 {
            node.comment = Some(COMMENTS[(c / 7) as usize % 6].to_string());
        }
        if c % 11 == 2 {
            node.nags.push((c % 256) as u8);
        }
        if depth > 0 && c % 5 == 3 {
            node.variations.push(line(&pos, choices, 4, depth - 1));
            if c % 3 == 0 {
                node.variations.push(line(&pos, choices, 2, depth - 1));
            }
        }
        pos.make_move(node.mv);
        out.nodes.push(node);
    }
    out
}

fn tree() -> impl Strategy<Value = Record> {
    (
        prop::collection::vec(any::<u32>(), 0..200),
        prop::sample::select(vec![
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1",
            "3k5/9/6P2/2P3P2/2P3P2/9/9/9/9/4K4 w - - 0 1",
            "2ba1k3/9/2na5/2c6/2b6/2n6/2c6/9/9/3K5 b - - 0 1",
        ]),
        prop::collection::vec(("[A-Za-z]{1,8}", "[ -~中文]{0,12}"), 0..4),
        prop::sample::select(vec![
            Some(GameResult::RedWins),
            Some(GameResult::BlackWins),
            Some(GameResult::Draw),
            None,
        ]),
        prop::option::of("[a-z]([a-z .]{0,10}[a-z])?"),
    )
        .prop_map(|(choices, fen, tags, result, trailer)| {
            let mut game = Record::new(Position::from_fen(fen).unwrap());
            for (name, value) in tags {
                if name != "FEN" && name != "Format" {
                    game.tags.push((name, value));
                }
            }
            let mut choices = choices.into_iter();
            game.main = line(&game.start, &mut choices, 40, 3);
            game.result = result;
            game.trailer = trailer;
            game
        })
}

proptest! {
    #[test]
    fn pgn_reader_never_panics_on_bytes(data in prop::collection::vec(any::<u8>(), 0..400)) {
        for encoding in [Encoding::Auto, Encoding::Utf8, Encoding::Gbk] {
            if let Ok(games) = pgn::read(&data, &ReadOptions { encoding }) {
                round_trips(&games, Notation::Wxf);
            }
        }
    }

    #[test]
    fn pgn_reader_never_panics_on_text(text in "[ -~\n\r\t\u{3000}炮二平五马８进７前后中兵卒车{}()\\[\\];$!?.=+-]{0,200}") {
        if let Ok(games) = pgn::read_str(&text) {
            round_trips(&games, Notation::Chinese);
        }
    }

    #[test]
    fn pgn_reader_cuts_any_text_into_its_games(
        text in "[ -~\n\r\t\u{3000}炮二平五马８进７前后中兵卒车{}()\\[\\];$!?.=+-]{0,200}",
        capacity in 1usize..40,
    ) {
        let options = ReadOptions { encoding: Encoding::Utf8 };
        let source = BufReader::with_capacity(capacity, text.as_bytes());
        let mut reader = PgnReader::new(source, &options);
        let mut cut = String::new();
        let mut records = Vec::new();
        while let Some(game) = reader.read_text().unwrap() {
            prop_assert_eq!(game.game(), records.len() + 1);
            prop_assert_eq!(game.line(), cut.matches('\n').count() + 1);
            // The offset is known where a line of the source starts (not after a lone CR).
            let line_start = cut.is_empty() || cut.ends_with('\n');
            prop_assert_eq!(game.offset(), line_start.then_some(cut.len() as u64));
            cut.push_str(game.text());
            records.push(game.record());
        }
        // The games' texts are the text, but for blank space at its end...
        prop_assert!(text.starts_with(&cut), "{:?} is not the start of {:?}", cut, text);
        prop_assert!(text[cut.len()..].trim().is_empty());
        // ...and read as the whole text does, up to the first error.
        let streamed: Result<Vec<Record>, _> = records.into_iter().collect();
        prop_assert_eq!(streamed, pgn::read_str(&text));
    }

    #[test]
    fn pgn_reader_streams_written_games_in_gbk(
        games in prop::collection::vec(tree(), 1..4),
        capacity in 1usize..64,
        notation in notation(),
    ) {
        let text = pgn::write_all(&games, &WriteOptions { notation }).unwrap();
        let gbk = pgn::encode(&text, Encoding::Gbk).unwrap();
        let source = BufReader::with_capacity(capacity, &gbk[..]);
        let mut reader = PgnReader::new(source, &ReadOptions::default());
        let mut read = Vec::new();
        while let Some(game) = reader.read_text().unwrap() {
            // Each game's text is where the reader says it is in the bytes.
            let at = game.offset().unwrap() as usize;
            let bytes = pgn::encode(game.text(), Encoding::Gbk).unwrap();
            prop_assert_eq!(&gbk[at..at + bytes.len()], &bytes[..]);
            let parsed = game.parse().unwrap();
            prop_assert!(parsed.record.main.nodes.is_empty() || parsed.notation == notation);
            read.push(parsed.record);
        }
        let mut expected = games.clone();
        for game in &mut expected {
            braces(&mut game.main);
        }
        prop_assert_eq!(read, expected);
    }

    #[test]
    fn edited_real_pgn_never_panics(
        edits in prop::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 1..6),
        notation in notation(),
    ) {
        let mut data = SAMPLE_PGN.to_vec();
        for (at, byte) in edits {
            let i = at.index(data.len());
            data[i] = byte;
        }
        if let Ok(games) = pgn::read(&data, &ReadOptions::default()) {
            round_trips(&games, notation);
        }
    }

    #[test]
    fn xqf_reader_never_panics_on_bytes(data in prop::collection::vec(any::<u8>(), 0..1200)) {
        let mut with_magic = b"XQ".to_vec();
        with_magic.extend_from_slice(&data);
        for bytes in [&data[..], &with_magic[..]] {
            if let Ok(game) = xqf::read(bytes) {
                round_trips(&[game], Notation::Iccs);
            }
        }
    }

    #[test]
    fn edited_real_xqf_never_panics(
        edits in prop::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 1..6),
        cut in any::<prop::sample::Index>(),
        notation in notation(),
    ) {
        let mut data = SAMPLE_XQF.to_vec();
        for (at, byte) in edits {
            let i = at.index(data.len());
            data[i] = byte;
        }
        for bytes in [&data[..], &data[..cut.index(data.len())]] {
            if let Ok(game) = xqf::read(bytes) {
                round_trips(&[game], notation);
            }
        }
    }

    #[test]
    fn random_trees_round_trip(game in tree(), notation in notation()) {
        prop_assert_eq!(game.validate(), Ok(()));
        round_trips(&[game], notation);
    }
}
