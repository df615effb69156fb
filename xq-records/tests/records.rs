//! Game records: the PGN and XQF readers on real files and on made-up ones, the PGN
//! writer, and the exact errors (with their places) for bad input.

use xq_core::{Color, FenError, Move, Piece, PieceKind, Position, PositionError, Square};
use xq_movegen::notation::Notation;
use xq_movegen::notation::NotationError;
use xq_movegen::{GameResult, IllegalMoveError, Termination};
use xq_records::pgn::{
    self, Encoding, PgnError, PgnErrorKind, PgnReader, ReadOptions, WriteOptions,
    MAX_VARIATION_DEPTH,
};
use xq_records::xqf::{self, XqfError, XqfErrorKind};
use xq_records::{Line, Node, Record};

const DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/games");

const PGN_FILES: [&str; 10] = [
    "ccgc2006-01",
    "ccgc2006-05",
    "ccgc2006-07",
    "ccgc2006-09",
    "ccgc2006-11",
    "ccgc2006-13",
    "ccgc2006-15",
    "ccgc2006-19",
    "ccgc2006-21",
    "ccgc2006-23",
];

fn bytes(name: &str) -> Vec<u8> {
    std::fs::read(format!("{DIR}/{name}")).unwrap()
}

fn mv(s: &str) -> Move {
    s.parse().unwrap()
}

fn moves(s: &str) -> Vec<Move> {
    s.split_whitespace().map(mv).collect()
}

fn read_pgn(name: &str) -> Record {
    let mut games = pgn::read(&bytes(&format!("{name}.pgn")), &ReadOptions::default()).unwrap();
    assert_eq!(games.len(), 1, "{name}");
    games.remove(0)
}

fn read_sample() -> Record {
    xqf::read(&bytes("sample.xqf")).unwrap()
}

/// The start FEN (placement and side) and the ICCS moves of a `.moves` file.
fn expected(name: &str) -> (String, Vec<Move>) {
    let text = String::from_utf8(bytes(&format!("{name}.moves"))).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 3, "{name}.moves: comment, FEN, moves");
    assert!(lines[0].starts_with('#'));
    (lines[1].to_string(), moves(lines[2]))
}

/// The first two FEN fields (placement, side) of a position.
fn placement(pos: &Position) -> String {
    let fen = pos.to_fen();
    fen.split(' ').take(2).collect::<Vec<_>>().join(" ")
}

/// The games whose `.moves` line stops early: the independent reader stopped at an
/// advisor move written without 前/后 although two advisors of the mover share the file
/// (the xqbase convention, which `xq_movegen::notation` also follows: only one of the two
/// can go in the direction written). Name, ply of that move, the move, its text.
const STOPPED_EARLY: [(&str, usize, &str, &str); 4] = [
    ("ccgc2006-05", 55, "d2e1", "仕六退五"),
    ("ccgc2006-07", 72, "f9e8", "士６进５"),
    ("ccgc2006-13", 141, "f2e1", "仕四退五"),
    ("ccgc2006-23", 88, "f9e8", "士６进５"),
];

/// Plies of each main line, as numbered in the files, and whether the game ends in
/// mate (the others end by resignation or agreement).
const PLIES: [(&str, usize, bool); 11] = [
    ("ccgc2006-01", 26, false),
    ("ccgc2006-05", 116, true),
    ("ccgc2006-07", 105, true),
    ("ccgc2006-09", 85, true),
    ("ccgc2006-11", 89, false),
    ("ccgc2006-13", 174, true),
    ("ccgc2006-15", 61, false),
    ("ccgc2006-19", 80, true),
    ("ccgc2006-21", 108, true),
    ("ccgc2006-23", 221, false),
    ("sample", 75, false),
];

#[test]
fn every_shared_file_reads_back_to_its_moves() {
    let mut exact = 0;
    for (name, plies, mate) in PLIES {
        let game = if name == "sample" {
            read_sample()
        } else {
            read_pgn(name)
        };
        let (fen, line) = expected(name);
        assert_eq!(placement(&game.start), fen, "{name}");
        let ours = game.main_line();
        assert_eq!(ours.len(), plies, "{name}");
        match STOPPED_EARLY.iter().find(|s| s.0 == name) {
            None => {
                assert_eq!(ours, line, "{name}");
                exact += 1;
            }
            Some(&(_, ply, m, text)) => {
                // The independent line is exactly ours up to the move before `ply`.
                assert_eq!(line.len(), ply - 1, "{name}");
                assert_eq!(ours[..ply - 1], line[..], "{name}");
                assert_eq!(ours[ply - 1], mv(m), "{name}");
                // That move is written without 前/后 and two advisors share its file.
                let raw = pgn::decode(&bytes(&format!("{name}.pgn")), Encoding::Gbk)
                    .unwrap()
                    .0;
                assert!(raw.contains(text), "{name}: {text}");
                let mut pos = game.start.clone();
                for &m in &ours[..ply - 1] {
                    pos.make_move(m);
                }
                let advisor = pos.piece_on(mv(m).from()).unwrap();
                assert_eq!(advisor.kind, PieceKind::Advisor);
                let on_file = pos
                    .pieces(advisor.color)
                    .filter(|&(p, sq)| p == advisor && sq.file() == mv(m).from().file())
                    .count();
                assert_eq!(on_file, 2, "{name}");
            }
        }
        // A mate is the result the file gives.
        let played = game.game().unwrap();
        let end = played.position().clone();
        if mate {
            assert_eq!(
                played.outcome().map(|o| o.termination),
                Some(Termination::Checkmate),
                "{name}"
            );
            let winner = match end.side_to_move() {
                Color::Red => GameResult::BlackWins,
                Color::Black => GameResult::RedWins,
            };
            assert_eq!(game.result, Some(winner), "{name}");
        } else {
            assert_eq!(played.outcome(), None, "{name}");
        }
    }
    assert_eq!(exact, 7);
}

#[test]
fn pgn_tags_result_and_trailing_text() {
    let game = read_pgn("ccgc2006-13");
    let tags: Vec<(&str, &str)> = game
        .tags
        .iter()
        .map(|(n, v)| (n.as_str(), v.as_str()))
        .collect();
    assert_eq!(
        tags,
        [
            ("Game", "Chinese Chess"),
            (
                "Event",
                "1st Chinese Computer Games Championship, Beijing 2006"
            ),
            ("Round", "13"),
            ("Date", "2006.08.06"),
            ("Site", "北京中国科技馆"),
            ("RedTeam", ""),
            ("Red", "相眼竞技"),
            ("BlackTeam", ""),
            ("Black", "将神传说"),
            ("Result", "0-1"),
            ("ECCO", "C16"),
            ("Opening", "中炮巡河车对屏风马"),
            ("Variation", "红进左马"),
        ]
    );
    assert_eq!(game.result, Some(GameResult::BlackWins));
    assert_eq!(
        game.trailer.as_deref(),
        Some(
            "============================\n欢迎访问《象棋百科全书》网站\n\
             推荐用“象棋巫师”观赏棋谱\nhttps://www.xqbase.com/"
        )
    );
    assert_eq!(game.start, Position::startpos());
    assert_eq!(game.main.comment, None);
    assert!(game
        .main
        .nodes
        .iter()
        .all(|n| n.comment.is_none() && n.variations.is_empty()));

    // The result on the last move's line (game 7) is read too.
    assert_eq!(read_pgn("ccgc2006-07").result, Some(GameResult::RedWins));
    assert_eq!(read_pgn("ccgc2006-23").result, Some(GameResult::Draw));
}

#[test]
fn xqf_sample_tags_and_comments() {
    let game = read_sample();
    let tags: Vec<(&str, &str)> = game
        .tags
        .iter()
        .map(|(n, v)| (n.as_str(), v.as_str()))
        .collect();
    assert_eq!(
        tags,
        [
            ("Game", "Chinese Chess"),
            ("Event", "许银川让九子对聂棋圣"),
            ("Site", "广州"),
            ("Date", "1999.12.09"),
            ("Red", "许银川"),
            ("Black", "聂卫平"),
            ("Result", "1-0"),
        ]
    );
    assert_eq!(game.result, Some(GameResult::RedWins));
    assert_eq!(game.trailer, None);
    // A handicap: Red plays without its five soldiers, advisors and elephants.
    assert_eq!(
        game.start.to_fen(),
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/9/1C5C1/9/RN2K2NR w - - 0 1"
    );
    let comment = game.main.comment.as_deref().unwrap();
    assert!(comment.starts_with("象棋让九子原属茶余饭后的娱乐"));
    assert!(comment.ends_with("许银川让去５只兵和双士双相，执红先行。"));
    let commented: Vec<usize> = game
        .main
        .nodes
        .iter()
        .enumerate()
        .filter(|(_, n)| n.comment.is_some())
        .map(|(i, _)| i + 1)
        .collect();
    assert_eq!(commented, [2, 5, 12, 13, 14, 22, 24, 37, 57, 63, 75]);
    assert_eq!(
        game.main.nodes[1].comment.as_deref(),
        Some("红方首着架中炮必走之着，聂棋圣还架中炮拼兑子力，战术对头。")
    );
    assert_eq!(
        game.main.nodes[36].comment.as_deref(),
        Some("可直接走马四进三叫将再踩中象。")
    );
    assert!(game.main.nodes.iter().all(|n| n.variations.is_empty()));
}

/// A game with everything the tree can hold: a Black-first start, tags that need
/// escaping, comments before moves, after moves and on several lines, nested
/// variations, glyphs, a trailing text.
const RICH: &str = r#"[Game "Chinese Chess"]
[Event "A \"quoted\" event \\ with a backslash"]
[Red "红方"]
[Black "黑方"]
[Result "0-1"]
[FEN "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1"]
[Format "Chinese"]

{A comment on the game,
on two lines}
1... 马８进７ $1 {the usual reply} (1... 炮８平５ {the same-direction cannons}
 2. 马二进三 (2. 炮五进四 士４进５) 2... 马８进７) (1... 马２进３)
2. 马二进三 车９平８! 3. 车一平二 ; a rest-of-line comment
3... 炮８进４ ({before} 3... 马２进３) 4. 兵三进一 0-1
Trailing text.
"#;

fn rich() -> Record {
    let mut games = pgn::read_str(RICH).unwrap();
    assert_eq!(games.len(), 1);
    games.remove(0)
}

#[test]
fn a_rich_game_is_read_into_the_tree() {
    let game = rich();
    assert_eq!(
        game.tag("Event"),
        Some(r#"A "quoted" event \ with a backslash"#)
    );
    assert_eq!(game.tag("FEN"), None);
    assert_eq!(game.tag("Format"), None);
    assert_eq!(game.start.side_to_move(), Color::Black);
    assert_eq!(
        game.main.comment.as_deref(),
        Some("A comment on the game,\non two lines")
    );
    assert_eq!(game.main_line(), moves("h9g7 h0g2 i9h9 i0h0 h7h3 g3g4"));
    let first = &game.main.nodes[0];
    assert_eq!(first.nags, [1]);
    assert_eq!(first.comment.as_deref(), Some("the usual reply"));
    assert_eq!(first.variations.len(), 2);
    let v = &first.variations[0];
    assert_eq!(v.moves(), moves("h7e7 h0g2 h9g7"));
    assert_eq!(
        v.nodes[0].comment.as_deref(),
        Some("the same-direction cannons")
    );
    assert_eq!(
        v.nodes[1].variations,
        [Line::from_moves(moves("e2e6 d9e8"))]
    );
    assert_eq!(first.variations[1], Line::from_moves(moves("b9c7")));
    assert_eq!(game.main.nodes[2].nags, [1]);
    assert_eq!(
        game.main.nodes[3].comment.as_deref(),
        Some("a rest-of-line comment")
    );
    let alt = &game.main.nodes[4].variations[0];
    assert_eq!(alt.comment.as_deref(), Some("before"));
    assert_eq!(alt.moves(), moves("b9c7"));
    assert_eq!(game.result, Some(GameResult::BlackWins));
    assert_eq!(game.trailer.as_deref(), Some("Trailing text."));
    assert_eq!(game.validate(), Ok(()));
}

#[test]
fn pgn_round_trip_in_every_notation() {
    let mut games: Vec<(String, Record)> = PGN_FILES
        .iter()
        .map(|name| (name.to_string(), read_pgn(name)))
        .collect();
    games.push(("sample.xqf".into(), read_sample()));
    games.push(("rich".into(), rich()));
    for notation in Notation::ALL {
        let options = WriteOptions { notation };
        for (name, game) in &games {
            let text = pgn::write(game, &options).unwrap();
            assert!(
                text.contains(&format!("[Format \"{}\"]", notation.format_tag())),
                "{name}"
            );
            let again = pgn::read_str(&text).unwrap_or_else(|e| panic!("{name} {notation}: {e}"));
            assert_eq!(again.len(), 1);
            assert_eq!(&again[0], game, "{name} in {notation}");
        }
        // Several games in one text.
        let all: Vec<Record> = games.iter().map(|(_, g)| g.clone()).collect();
        let text = pgn::write_all(&all, &options).unwrap();
        assert_eq!(pgn::read_str(&text).unwrap(), all, "{notation}");
    }
}

#[test]
fn writer_layout() {
    let game = rich();
    let text = pgn::write(
        &game,
        &WriteOptions {
            notation: Notation::Wxf,
        },
    )
    .unwrap();
    assert_eq!(
        text,
        r#"[Game "Chinese Chess"]
[Event "A \"quoted\" event \\ with a backslash"]
[Red "红方"]
[Black "黑方"]
[Result "0-1"]
[FEN "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1"]
[Format "WXF"]

{A comment on the game,
on two lines} 1... H8+7 $1 {the usual reply} (1... C8=5
{the same-direction cannons} 2. H2+3 (2. C5+4 A4+5) 2... H8+7) (1... H2+3)
2. H2+3 R9=8 $1
3. R1=2 {a rest-of-line comment} 3... C8+4 ({before} 3... H2+3)
4. P3+1
0-1
Trailing text.
"#
    );
    let iccs = pgn::write(
        &game,
        &WriteOptions {
            notation: Notation::Iccs,
        },
    )
    .unwrap();
    assert!(iccs.contains("\n2. h0g2 i9h9 $1\n3. i0h0 {a rest-of-line comment} 3... h7h3"));
    let chinese = pgn::write(&game, &WriteOptions::default()).unwrap();
    assert!(chinese.contains("\n2. 马二进三 车9平8 $1\n"));
    let traditional = pgn::write(
        &game,
        &WriteOptions {
            notation: Notation::ChineseTraditional,
        },
    )
    .unwrap();
    assert!(traditional.contains("\n2. 傌二進三 車9平8 $1\n"));
}

#[test]
fn gbk_and_utf8_input() {
    for name in PGN_FILES {
        let gbk = bytes(&format!("{name}.pgn"));
        let (text, found) = pgn::decode(&gbk, Encoding::Auto).unwrap();
        assert_eq!(found, Encoding::Gbk, "{name}");
        let from_gbk = read_pgn(name);
        let forced = pgn::read(
            &gbk,
            &ReadOptions {
                encoding: Encoding::Gbk,
            },
        )
        .unwrap();
        assert_eq!(forced, std::slice::from_ref(&from_gbk));

        let utf8 = text.as_bytes();
        assert_eq!(pgn::decode(utf8, Encoding::Auto).unwrap().1, Encoding::Utf8);
        let from_utf8 = pgn::read(utf8, &ReadOptions::default()).unwrap();
        assert_eq!(from_utf8, std::slice::from_ref(&from_gbk), "{name}");
        let mut bom = b"\xEF\xBB\xBF".to_vec();
        bom.extend_from_slice(utf8);
        let with_bom = pgn::read(
            &bom,
            &ReadOptions {
                encoding: Encoding::Utf8,
            },
        )
        .unwrap();
        assert_eq!(with_bom, [from_gbk], "{name}");
    }
    // GBK read as UTF-8: the first line with Chinese text is line 5 (the Site tag).
    let gbk = bytes("ccgc2006-01.pgn");
    assert_eq!(
        pgn::read(
            &gbk,
            &ReadOptions {
                encoding: Encoding::Utf8
            }
        ),
        Err(PgnError {
            file: None,
            game: None,
            line: 5,
            ply: None,
            kind: PgnErrorKind::BadEncoding {
                encoding: Encoding::Utf8
            },
        })
    );
    // Bytes that are neither: a lone lead byte of GBK at the end of line 2.
    let bad = b"[Event \"x\"]\n[Red \"\xC5\"]\n";
    assert_eq!(
        pgn::read(bad, &ReadOptions::default()).unwrap_err(),
        PgnError {
            file: None,
            game: None,
            line: 2,
            ply: None,
            kind: PgnErrorKind::BadEncoding {
                encoding: Encoding::Gbk
            },
        }
    );
    // Every file at once, concatenated: ten games, each as read alone.
    let mut all = Vec::new();
    for name in PGN_FILES {
        all.extend(bytes(&format!("{name}.pgn")));
    }
    let games = pgn::read(&all, &ReadOptions::default()).unwrap();
    let alone: Vec<Record> = PGN_FILES.iter().map(|n| read_pgn(n)).collect();
    assert_eq!(games, alone);
}

#[test]
fn streaming_reader_on_the_shared_files() {
    // Every shared file one after the other in one GBK stream, read from a file on disk
    // one game at a time: each game where it starts, as read alone, its tags alone too.
    let mut all = Vec::new();
    let mut starts = Vec::new();
    for name in PGN_FILES {
        starts.push(all.len() as u64);
        all.extend(bytes(&format!("{name}.pgn")));
    }
    let path = std::env::temp_dir().join(format!("xq-records-stream-{}.pgn", std::process::id()));
    std::fs::write(&path, &all).unwrap();
    let file = std::io::BufReader::new(std::fs::File::open(&path).unwrap());
    let mut reader = PgnReader::new(file, &ReadOptions::default());
    let mut lines = 1;
    for (i, name) in PGN_FILES.iter().enumerate() {
        let text = reader.read_text().unwrap().unwrap();
        assert_eq!(
            (text.game(), text.line(), text.offset()),
            (i + 1, lines, Some(starts[i]))
        );
        assert_eq!(text.encoding(), Encoding::Gbk);
        lines += text.text().matches('\n').count();
        let parsed = text.parse().unwrap();
        assert_eq!(parsed.notation, Notation::Chinese, "{name}");
        assert_eq!(parsed.record, read_pgn(name), "{name}");
        let tags = text.tags().unwrap();
        assert_eq!(
            (&tags.tags, tags.result),
            (&parsed.record.tags, parsed.record.result)
        );
        assert!(tags.main.nodes.is_empty() && tags.trailer.is_none());
    }
    assert_eq!(reader.read_text().unwrap(), None);
    assert_eq!(reader.position(), Some(all.len() as u64));
    std::fs::remove_file(&path).unwrap();

    // As an iterator: the same games as read at once.
    let reader = PgnReader::new(&all[..], &ReadOptions::default());
    let games: Vec<Record> = reader.map(Result::unwrap).collect();
    assert_eq!(games, pgn::read(&all, &ReadOptions::default()).unwrap());
}

#[test]
fn streaming_reader_encoding_and_errors() {
    // The encoding is judged once, at the first line that is not ASCII: two games of
    // ASCII and then a GBK one (the second game ends where the reader sees the third's
    // first line, so the encoding is known by then).
    let gbk = pgn::encode("[Red \"许银川\"]\n1. 炮二平五 *\n", Encoding::Gbk).unwrap();
    let mut file = b"[Round \"1\"]\n1. h2e2 *\n[Round \"2\"]\n1. b2e2 *\n".to_vec();
    file.extend(&gbk);
    let mut reader = PgnReader::new(&file[..], &ReadOptions::default());
    let encodings: Vec<Encoding> = std::iter::from_fn(|| reader.read_text().unwrap())
        .map(|text| text.encoding())
        .collect();
    assert_eq!(encodings, [Encoding::Auto, Encoding::Gbk, Encoding::Gbk]);
    let games = pgn::read(&file, &ReadOptions::default()).unwrap();
    assert_eq!(games[2].tag("Red"), Some("许银川"));

    // A bad game is an error of its own, and the reading goes on.
    let text = "[Round \"1\"]\n1. h2e2 h2e2 *\n[Round \"2\"]\n1. b2e2 *\n";
    let mut reader = PgnReader::new(text.as_bytes(), &ReadOptions::default());
    let err = reader.read_text().unwrap().unwrap().record().unwrap_err();
    assert_eq!((err.game, err.line, err.ply), (Some(1), 2, Some(2)));
    let next = reader.read_text().unwrap().unwrap().record().unwrap();
    assert_eq!(next.main_line(), moves("b2e2"));

    // A bad byte ends the reading, with its line.
    let mut bad = b"[Round \"1\"]\n1. h2e2 *\n".to_vec();
    bad.extend(b"[Round \"2\"]\n1. b2e2 {\xC5} *\n");
    let options = ReadOptions {
        encoding: Encoding::Utf8,
    };
    let mut reader = PgnReader::new(&bad[..], &options);
    assert!(reader.read_text().unwrap().is_some());
    let err = reader.read_text().unwrap_err();
    assert_eq!((err.game, err.line), (None, 4));
    assert_eq!(
        err.kind,
        PgnErrorKind::BadEncoding {
            encoding: Encoding::Utf8
        }
    );
    assert_eq!(reader.read_text(), Ok(None));

    // So does an error of the source.
    struct Broken;
    impl std::io::Read for Broken {
        fn read(&mut self, _: &mut [u8]) -> std::io::Result<usize> {
            Err(std::io::Error::other("the disk is gone"))
        }
    }
    let mut reader = PgnReader::new(std::io::BufReader::new(Broken), &options);
    let err = reader.read_text().unwrap_err();
    assert_eq!(
        err.to_string(),
        "line 1: the file could not be read: the disk is gone"
    );
    assert!(matches!(
        err.kind,
        PgnErrorKind::Io {
            kind: std::io::ErrorKind::Other,
            ..
        }
    ));
    assert_eq!(reader.next(), None);
}

fn error(text: &str) -> PgnError {
    pgn::read_str(text).unwrap_err()
}

fn at(game: usize, line: usize, ply: Option<usize>, kind: PgnErrorKind) -> PgnError {
    PgnError {
        file: None,
        game: Some(game),
        line,
        ply,
        kind,
    }
}

#[test]
fn pgn_errors_say_where() {
    let gbk = bytes("ccgc2006-01.pgn");
    let text = pgn::decode(&gbk, Encoding::Gbk).unwrap().0;

    // A wrong move at ply 5 (line 16): the chariot cannot pass its own elephant.
    let bad = text.replacen("3. 车九平八", "3. 车九平七", 1);
    let err = error(&bad);
    assert_eq!(
        err,
        at(
            1,
            16,
            Some(5),
            PgnErrorKind::Move(NotationError::Illegal {
                text: "车九平七".into(),
                error: IllegalMoveError::BadMovement(mv("a0c0"))
            })
        )
    );
    assert_eq!(
        err.clone().with_file("ccgc2006-01.pgn").to_string(),
        "ccgc2006-01.pgn: game 1, line 16, ply 5: '车九平七': illegal move a0c0: \
         the piece on a0 cannot move there"
    );
    // The cause is in the message, so it is not repeated as a source.
    assert!(std::error::Error::source(&err).is_none());

    // An unknown notation at ply 2 (line 14).
    let bad = text.replacen("马２进３", "马２走３", 1);
    assert_eq!(
        error(&bad),
        at(
            1,
            14,
            Some(2),
            PgnErrorKind::Move(NotationError::Unknown {
                text: "马２走３".into()
            })
        )
    );
    // In the second game of a file.
    let two = format!("{text}\n{bad}");
    assert_eq!(
        error(&two),
        at(
            2,
            14 + text.lines().count() + 1,
            Some(2),
            PgnErrorKind::Move(NotationError::Unknown {
                text: "马２走３".into()
            })
        )
    );

    // A FEN tag that is no legal position.
    assert_eq!(
        error("[Event \"x\"]\n[FEN \"4k4/9/9/9/9/9/9/9/9/4K4 w\"]\n\n*"),
        at(
            1,
            2,
            None,
            PgnErrorKind::BadFen {
                fen: "4k4/9/9/9/9/9/9/9/9/4K4 w".into(),
                error: FenError::Position(PositionError::GeneralsFacing)
            }
        )
    );
    assert_eq!(
        error("[Event \"x]\n1. h2e2"),
        at(
            1,
            1,
            None,
            PgnErrorKind::BadTag {
                text: "[Event \"x]".into()
            }
        )
    );
    assert_eq!(
        error("[Event x]\n"),
        at(
            1,
            1,
            None,
            PgnErrorKind::BadTag {
                text: "[Event x]".into()
            }
        )
    );

    // Moves that are well formed but wrong.
    assert_eq!(
        error("1. h2e2 h9g7\n2. 车五进一"),
        at(
            1,
            2,
            Some(3),
            PgnErrorKind::Move(NotationError::NoSuchMove {
                text: "车五进一".into()
            })
        )
    );
    assert_eq!(
        error("[FEN \"5k3/9/9/9/9/1R7/9/9/1R7/3K5 w\"]\n1. 车八平五"),
        at(
            1,
            2,
            Some(1),
            PgnErrorKind::Move(NotationError::Ambiguous {
                text: "车八平五".into(),
                candidates: moves("b4e4 b1e1")
            })
        )
    );
    assert_eq!(
        error("1. h2e2 $300"),
        at(
            1,
            1,
            None,
            PgnErrorKind::BadNag {
                text: "$300".into()
            }
        )
    );

    // Structure.
    assert_eq!(
        error("1. h2e2\n{never closed\n2. h0g2"),
        at(1, 2, None, PgnErrorKind::UnterminatedComment)
    );
    assert_eq!(
        error("1. h2e2 ) h9g7"),
        at(1, 1, None, PgnErrorKind::UnmatchedParenthesis)
    );
    assert_eq!(
        error("(1. b2e2) 1. h2e2"),
        at(1, 1, None, PgnErrorKind::VariationBeforeMove)
    );
    assert_eq!(
        error("1. h2e2\n(1. b2e2 h9g7\n2. h0g2"),
        at(1, 2, None, PgnErrorKind::UnterminatedVariation)
    );
    assert_eq!(
        error("1. h2e2 (1. b2e2 1-0)"),
        at(1, 1, None, PgnErrorKind::UnterminatedVariation)
    );
    let deep = format!("1. h2e2 {}", "(1. b2e2 ".repeat(MAX_VARIATION_DEPTH + 1));
    assert_eq!(error(&deep), at(1, 1, None, PgnErrorKind::TooDeep));
    let ok = format!(
        "1. h2e2 {}{} *",
        "(1. b2e2 ".repeat(MAX_VARIATION_DEPTH),
        ")".repeat(MAX_VARIATION_DEPTH)
    );
    assert!(pgn::read_str(&ok).is_ok());

    // Errors display where they are.
    assert_eq!(
        at(1, 3, None, PgnErrorKind::TooDeep).to_string(),
        "game 1, line 3: variations nest deeper than 100 levels"
    );
}

#[test]
fn pgn_small_forms() {
    // Move numbers glued to moves, dashes in ICCS, WXF with '.', glyph suffixes, no tags,
    // no result: the result then comes from the Result tag or is unknown.
    let games = pgn::read_str("1.H2-E2 h9g7?! 2.h8+7!! c2.5 *").unwrap();
    let game = &games[0];
    assert_eq!(game.main_line(), moves("h2e2 h9g7 b0c2 b7e7"));
    assert_eq!(game.main.nodes[1].nags, [6]);
    assert_eq!(game.main.nodes[2].nags, [3]);
    assert_eq!(game.result, None);
    let games = pgn::read_str("[Result \"1-0\"]\n1. h2e2\n\n[Result \"0-1\"]\n1. b2e2").unwrap();
    assert_eq!(games.len(), 2);
    assert_eq!(games[0].result, Some(GameResult::RedWins));
    assert_eq!(games[1].result, Some(GameResult::BlackWins));
    assert_eq!(games[1].main_line(), moves("b2e2"));
    assert_eq!(pgn::read_str("").unwrap(), []);
    assert_eq!(
        pgn::read_str("  \n\u{feff}").unwrap_err().kind,
        PgnErrorKind::Move(NotationError::Unknown {
            text: "\u{feff}".into()
        })
    );
}

// ---------------------------------------------------------------------- XQF

/// An XQF record for the test writer: origin and destination (`None`: the start
/// record's dummy move), flags and comment.
struct Rec {
    from: u8,
    to: u8,
    next: bool,
    alt: bool,
    comment: &'static str,
}

fn sq(s: &str) -> u8 {
    let sq: Square = s.parse().unwrap();
    (sq.file().index() * 10 + sq.rank().index()) as u8
}

fn rec(m: &str, next: bool, alt: bool, comment: &'static str) -> Rec {
    let (from, to) = if m.is_empty() {
        (0, 0)
    } else {
        (sq(&m[..2]), sq(&m[2..]))
    };
    Rec {
        from,
        to,
        next,
        alt,
        comment,
    }
}

/// The piece table of the start position, in XQF's slot order.
fn start_table() -> [u8; 32] {
    let red = [
        "a0", "b0", "c0", "d0", "e0", "f0", "g0", "h0", "i0", "b2", "h2", "a3", "c3", "e3", "g3",
        "i3",
    ];
    let mut table = [0u8; 32];
    for (i, s) in red.iter().enumerate() {
        table[i] = sq(s);
        let black = format!("{}{}", &s[..1], 9 - s[1..].parse::<u8>().unwrap());
        table[16 + i] = sq(&black);
    }
    table
}

/// An unencrypted (version 10) XQF file.
fn xqf_v10(table: [u8; 32], black_first: bool, records: &[Rec]) -> Vec<u8> {
    let mut out = vec![0u8; 1024];
    out[..3].copy_from_slice(b"XQ\x0a");
    out[16..48].copy_from_slice(&table);
    out[50] = u8::from(black_first);
    out[51] = 2;
    let event = "测试";
    let (gbk, _, _) = encoding_rs::GBK.encode(event);
    out[0xD0] = gbk.len() as u8;
    out[0xD1..0xD1 + gbk.len()].copy_from_slice(&gbk);
    for r in records {
        let flags = (if r.next { 0xF0 } else { 0 }) | (if r.alt { 0x0F } else { 0 });
        out.extend([r.from.wrapping_add(0x18), r.to.wrapping_add(0x20), flags, 0]);
        let (text, _, _) = encoding_rs::GBK.encode(r.comment);
        out.extend((text.len() as i32).to_le_bytes());
        out.extend(text.iter());
    }
    out
}

#[test]
fn xqf_version_10_with_variations() {
    let records = [
        rec("", true, false, "game comment"),
        rec("h2e2", true, true, "central cannon"),
        rec("h9g7", true, true, ""),
        rec("h0g2", false, false, ""),
        rec("b9c7", false, true, ""),
        rec("h7e7", false, false, "two answers"),
        rec("b2e2", true, false, ""),
        rec("h9g7", false, false, ""),
    ];
    let game = xqf::read(&xqf_v10(start_table(), false, &records)).unwrap();
    let text = "{game comment} 1. h2e2 {central cannon} (1. b2e2 h9g7) 1... h9g7 (1... b9c7) \
                (1... h7e7 {two answers}) 2. h0g2 0-1";
    let from_pgn = pgn::read_str(text).unwrap().remove(0);
    assert_eq!(game.main, from_pgn.main);
    assert_eq!(game.start, Position::startpos());
    assert_eq!(game.result, Some(GameResult::BlackWins));
    assert_eq!(game.tag("Event"), Some("测试"));
    assert_eq!(game.tag("Red"), None);
    // And it writes and reads back like any game.
    let written = pgn::write(&game, &WriteOptions::default()).unwrap();
    assert_eq!(pgn::read_str(&written).unwrap(), [game]);
}

#[test]
fn xqf_side_to_move() {
    // Byte 50 says Red, but the first move is Black's: the move wins.
    let records = [rec("", true, false, ""), rec("h9g7", false, false, "")];
    let game = xqf::read(&xqf_v10(start_table(), false, &records)).unwrap();
    assert_eq!(game.start.side_to_move(), Color::Black);
    assert_eq!(game.main_line(), moves("h9g7"));
    // No move: byte 50 decides.
    let records = [rec("", false, false, "")];
    let game = xqf::read(&xqf_v10(start_table(), true, &records)).unwrap();
    assert_eq!(game.start.side_to_move(), Color::Black);
}

fn xqf_at(offset: usize, ply: Option<usize>, kind: XqfErrorKind) -> XqfError {
    XqfError {
        file: None,
        offset,
        ply,
        kind,
    }
}

#[test]
fn xqf_errors_say_where() {
    let sample = bytes("sample.xqf");
    // Cut inside the start record's comment length, and inside the record of ply 16.
    assert_eq!(
        xqf::read(&sample[..1030]),
        Err(xqf_at(
            1028,
            None,
            XqfErrorKind::Truncated {
                needed: 4,
                available: 2
            }
        ))
    );
    assert_eq!(
        xqf::read(&sample[..2000]),
        Err(xqf_at(
            1999,
            Some(16),
            XqfErrorKind::Truncated {
                needed: 4,
                available: 1
            }
        ))
    );
    // Cut inside the last comment (100 bytes at 2653).
    assert_eq!(
        xqf::read(&sample[..2700]),
        Err(xqf_at(
            2653,
            Some(75),
            XqfErrorKind::Truncated {
                needed: 100,
                available: 47
            }
        ))
    );
    // Cut inside the header.
    assert_eq!(
        xqf::read(&sample[..500]),
        Err(xqf_at(
            0,
            None,
            XqfErrorKind::Truncated {
                needed: 1024,
                available: 500
            }
        ))
    );
    assert_eq!(
        xqf::read(b"X"),
        Err(xqf_at(
            0,
            None,
            XqfErrorKind::Truncated {
                needed: 1024,
                available: 1
            }
        ))
    );
    assert_eq!(
        xqf::read(b""),
        Err(xqf_at(
            0,
            None,
            XqfErrorKind::Truncated {
                needed: 1024,
                available: 0
            }
        ))
    );
    let mut wrong = sample.clone();
    wrong[0] = b'Y';
    assert_eq!(
        xqf::read(&wrong),
        Err(xqf_at(0, None, XqfErrorKind::BadMagic))
    );
    let mut newer = sample.clone();
    newer[2] = 19;
    assert_eq!(
        xqf::read(&newer),
        Err(xqf_at(
            2,
            None,
            XqfErrorKind::UnsupportedVersion { version: 19 }
        ))
    );
    let err = xqf::read(&sample[..2000])
        .unwrap_err()
        .with_file("sample.xqf");
    assert_eq!(
        err.to_string(),
        "sample.xqf: offset 1999, ply 16: the file is cut short: 4 bytes needed, 1 left"
    );

    // Version 10 files: each record is 8 bytes (no comments here), the first at 1024.
    let line = |ms: &[&str]| {
        let mut r = vec![rec("", !ms.is_empty(), false, "")];
        for (i, m) in ms.iter().enumerate() {
            r.push(rec(m, i + 1 < ms.len(), false, ""));
        }
        r
    };
    // An illegal move at ply 3 (offset 1024 + 3 * 8).
    let file = xqf_v10(start_table(), false, &line(&["h2e2", "h9g7", "e3e5"]));
    assert_eq!(
        xqf::read(&file),
        Err(xqf_at(
            1048,
            Some(3),
            XqfErrorKind::IllegalMove {
                mv: mv("e3e5"),
                error: IllegalMoveError::BadMovement(mv("e3e5"))
            }
        ))
    );
    // A move byte that is no square, at ply 2.
    let mut records = line(&["h2e2", "h9g7"]);
    records[2].from = 95;
    assert_eq!(
        xqf::read(&xqf_v10(start_table(), false, &records)),
        Err(xqf_at(1040, Some(2), XqfErrorKind::BadSquare { value: 95 }))
    );
    // Two pieces on e0.
    let mut table = start_table();
    table[3] = sq("e0");
    assert_eq!(
        xqf::read(&xqf_v10(table, false, &line(&[]))),
        Err(xqf_at(
            16,
            None,
            XqfErrorKind::SharedSquare { square: Square::E0 }
        ))
    );
    // Only the generals, facing each other.
    let mut table = [0xFF; 32];
    table[4] = sq("e0");
    table[20] = sq("e9");
    assert_eq!(
        xqf::read(&xqf_v10(table, false, &line(&[]))),
        Err(xqf_at(
            16,
            None,
            XqfErrorKind::BadPosition {
                fen: "4k4/9/9/9/9/9/9/9/9/4K4 w".into(),
                error: FenError::Position(PositionError::GeneralsFacing)
            }
        ))
    );
    // Variations nested one level too deep: each alternative's second move has an
    // alternative of its own. The alternative at depth k is at 1040 + 16 (k - 1).
    let mut records = vec![rec("", true, false, ""), rec("h2e2", false, true, "")];
    for _ in 0..=MAX_VARIATION_DEPTH {
        records.push(rec("h2e2", true, false, ""));
        records.push(rec("h9g7", false, true, ""));
    }
    let depth = MAX_VARIATION_DEPTH + 1;
    assert_eq!(
        xqf::read(&xqf_v10(start_table(), false, &records)),
        Err(xqf_at(
            1040 + 16 * (depth - 1),
            Some(depth),
            XqfErrorKind::TooDeep
        ))
    );
}

#[test]
fn xqf_pieces_off_the_board() {
    // Red has only its general; Black has everything. 0xFF and any value from 90 on
    // mean "not on the board".
    let mut table = start_table();
    for (i, slot) in table.iter_mut().enumerate().take(16) {
        if i != 4 {
            *slot = if i % 2 == 0 { 0xFF } else { 90 + i as u8 };
        }
    }
    let game = xqf::read(&xqf_v10(table, false, &[rec("", false, false, "")])).unwrap();
    assert_eq!(
        game.start.to_fen(),
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/9/9/9/4K4 w - - 0 1"
    );
    assert_eq!(
        game.start.pieces(Color::Red).collect::<Vec<_>>(),
        [(Piece::new(Color::Red, PieceKind::General), Square::E0)]
    );
}

#[test]
fn hand_made_tree_round_trips() {
    let mut game = Record::new(Position::startpos());
    game.set_tag("Event", "Made by hand");
    game.main = Line::from_moves(moves("h2e2 h9g7 h0g2"));
    game.main.nodes[0].comment = Some("a } brace".into());
    game.main.nodes[0].variations.push(Line {
        comment: Some("instead".into()),
        nodes: vec![Node::new(mv("b0c2")).with_comment("quiet")],
    });
    game.result = Some(GameResult::Draw);
    for notation in Notation::ALL {
        let text = pgn::write(&game, &WriteOptions { notation }).unwrap();
        let again = pgn::read_str(&text).unwrap().remove(0);
        // The brace inside the comment is written full-width; all else is equal.
        assert_eq!(again.main.nodes[0].comment.as_deref(), Some("a ｝ brace"));
        let mut expected = game.clone();
        expected.main.nodes[0].comment = Some("a ｝ brace".into());
        assert_eq!(again, expected, "{notation}");
    }
}
