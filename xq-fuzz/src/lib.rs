//! The logic of xq's fuzz targets, as plain functions that panic on any violated
//! invariant. `fuzz/` (cargo-fuzz, libFuzzer) wraps each in a `fuzz_target!`; the
//! `replay` test runs every file of `fuzz/corpus/<target>/` and `fuzz/regressions/<target>/`
//! through them on stable Rust, so `cargo test --workspace` covers the corpus.

use std::collections::BTreeSet;
use xq_core::{Color, Fen, Ignore, Move, Piece, PieceKind, Position, Square};
use xq_eval::Eval;
use xq_movegen::Gen;
use xq_protocol::{read_line, run, Auto, Flow, Protocol, Sink};
use xq_search::engine::{Caps, Options};
use xq_search::Engine;

/// A fuzz target: panics on a violated invariant.
pub type Target = fn(&[u8]);

/// The targets, by name (the directory names under `fuzz/corpus/`).
pub const TARGETS: &[(&str, Target)] = &[
    ("fen", fen),
    ("moves", moves),
    ("protocol", protocol),
    ("legal", legal),
    ("pgn", pgn),
    ("xqf", xqf),
    ("rules", rules),
    ("composed", composed),
];

/// The perft suite's positions (seed positions for `legal`).
pub fn suite_fens() -> Vec<&'static str> {
    xq_testkit::SUITE
        .lines()
        .filter_map(|l| l.split(';').next())
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect()
}

/// FEN parsing: arbitrary text either fails with an error or gives a position that is
/// internally consistent, valid, and survives a round trip through `to_fen`.
pub fn fen(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    // The raw setup parser alone: its output must print and re-parse to itself.
    if let Ok(setup) = text.parse::<Fen>() {
        let printed = setup.to_string();
        let again: Fen = printed
            .parse()
            .unwrap_or_else(|e| panic!("{printed:?} (from {text:?}) does not re-parse: {e}"));
        assert_eq!(again, setup, "Fen round trip of {text:?}");
    }
    let Ok(pos) = Position::from_fen(&text) else {
        return;
    };
    check_position(&pos);
    let printed = pos.to_fen();
    let again = Position::from_fen(&printed)
        .unwrap_or_else(|e| panic!("{printed:?} (from {text:?}) does not re-parse: {e}"));
    assert_eq!(again, pos, "round trip of {text:?}");
    assert_eq!(again.key(), pos.key());
    assert_eq!(again.to_fen(), printed);
    // A few legal moves from it must keep everything consistent.
    check_moves(&pos);
}

/// Move parsing: arbitrary text as one move (round trip through `Display`) and as a
/// move list played from the start position (a `Game`, as `position ... moves` does).
pub fn moves(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    if let Ok(m) = text.parse::<Move>() {
        let printed = m.to_string();
        assert_eq!(printed.len(), 4, "{printed:?}");
        assert_eq!(printed.parse::<Move>(), Ok(m), "round trip of {text:?}");
        assert_eq!(Move::from_u16(m.to_u16()), Some(m));
        assert_ne!(m.from(), m.to(), "{text:?} parsed as a null move");
    }
    let words: Vec<&str> = text.split_whitespace().collect();
    let pos = Position::startpos();
    for w in &words {
        if let Ok(m) = w.parse::<Move>() {
            // Any parsed move can be asked about and written down without a panic.
            let legal = xq_movegen::is_legal(&pos, m);
            assert_eq!(legal, xq_movegen::legal_moves(&pos).contains(&m), "{m}");
            for notation in xq_movegen::notation::Notation::ALL {
                let written = xq_movegen::notation::write_move(&pos, m, notation);
                assert_eq!(written.is_ok(), legal, "{m}: {written:?}");
                if let Ok(text) = written {
                    assert_eq!(
                        xq_movegen::notation::read_move(&pos, &text),
                        Ok(m),
                        "{text}"
                    );
                }
            }
        }
    }
    match xq_movegen::Game::from_fen_moves(xq_core::START_FEN, &words) {
        Ok(game) => {
            assert_eq!(game.moves().len(), words.len());
            let mut pos = Position::startpos();
            for &m in game.moves() {
                assert!(xq_movegen::is_legal(&pos, m), "{m} in {}", pos.to_fen());
                pos.make_move(m);
            }
            assert_eq!(&pos, game.position());
            assert_eq!(pos.key(), game.position().key());
            check_position(game.position());
        }
        Err(e) => {
            // The error must name a problem (it is shown to users).
            assert!(!e.to_string().is_empty());
        }
    }
}

/// The node cap on every search the `protocol` target starts.
pub const PROTOCOL_NODES: u64 = 3000;

/// The UCI/UCCI/XBoard command handler fed arbitrary lines (split as the binary splits
/// its standard input), with a 1 MiB table, at most two threads and every search capped
/// at [`PROTOCOL_NODES`] nodes. Checks: no panic (in any thread: the harness's panic hook
/// aborts), every `isready` answered by `readyok` at once (UCI, UCCI and before a
/// protocol is chosen), `uci`/`ucci` answered by `uciok`/`ucciok`, every output line a
/// single printable line, every `bestmove` and XBoard `move` a well-formed move, never
/// more UCI/UCCI answers than searches started.
pub fn protocol(data: &[u8]) {
    let (sink, out) = Sink::buffer();
    let caps = Caps {
        max_hash_mib: 1,
        max_threads: 2,
        max_nodes: Some(PROTOCOL_NODES),
        ..Caps::default()
    };
    let mut engine = Auto::new(sink, Engine::with_caps(Options::default(), caps));
    let mut gos = 0usize;
    let mut proto: Option<&str> = None;
    let mut input = data;
    // The same loop as `protocol::run`, one line at a time, checking after each.
    let mut quit = false;
    while let Some(line) = read_line(&mut input) {
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        let cmd = line.split_whitespace().next().unwrap_or("");
        let before = out.lock().unwrap().len();
        // The first protocol command chooses, as in `Auto`: a handshake, or a UCI command
        // without one (as Stockfish takes `go` before `uci`).
        if proto.is_none() {
            proto = match cmd {
                "uci" | "position" | "go" | "setoption" | "ucinewgame" => Some("uci"),
                "ucci" => Some("ucci"),
                "xboard" => Some("xboard"),
                _ => None,
            };
        }
        let flow = engine.handle(line);
        let lines = out.lock().unwrap().clone();
        let new = &lines[before..];
        match cmd {
            "isready" if proto != Some("xboard") => assert!(
                new.iter().any(|l| l == "readyok"),
                "isready unanswered: {line:?} -> {new:?}"
            ),
            "uci" if proto == Some("uci") => {
                assert!(new.iter().any(|l| l == "uciok"), "{line:?} -> {new:?}")
            }
            "ucci" if proto == Some("ucci") => {
                assert!(new.iter().any(|l| l == "ucciok"), "{line:?} -> {new:?}")
            }
            "go" if proto.is_some() => gos += 1,
            _ => {}
        }
        if flow == Flow::Quit {
            quit = true;
            break;
        }
    }
    if !quit {
        engine.eof();
    }
    // Joins every search thread.
    drop(engine);
    let lines = out.lock().unwrap().clone();
    let mut answers = 0;
    for l in &lines {
        assert!(
            !l.chars().any(char::is_control),
            "output line with a control character: {l:?}"
        );
        let mut w = l.split(' ');
        match w.next() {
            Some("bestmove") => {
                answers += 1;
                let m = w.next().unwrap_or("");
                assert!(
                    m == "(none)" || m.parse::<Move>().is_ok(),
                    "bad best move in {l:?}"
                );
                match (w.next(), w.next(), w.next()) {
                    (None, _, _) => {}
                    (Some("ponder"), Some(p), None) => {
                        assert!(p.parse::<Move>().is_ok(), "bad ponder move in {l:?}")
                    }
                    _ => panic!("malformed {l:?}"),
                }
            }
            Some("nobestmove") => answers += 1,
            Some("move") if proto == Some("xboard") => {
                let m = w.next().unwrap_or("");
                assert!(m.parse::<Move>().is_ok(), "bad move in {l:?}");
                assert!(w.next().is_none(), "malformed {l:?}");
            }
            _ => {}
        }
    }
    assert!(answers <= gos, "{answers} answers to {gos} searches");
    // Keep `run` itself exercised too (it is what the binary uses).
    let (sink, _) = Sink::buffer();
    let mut engine = Auto::new(sink, Engine::with_caps(Options::default(), caps));
    let mut input = data;
    if data.len() < 512 {
        run(&mut engine, &mut input);
    }
}

/// "Legal moves are legal": a position chosen by the bytes (a suite position, or a board
/// built piece by piece from the bytes keeping each piece only while the FEN validates),
/// then moves chosen by the bytes; at every position every invariant of generation,
/// make/unmake, Zobrist keys and the incremental evaluation is checked.
pub fn legal(data: &[u8]) {
    let Some((&mode, rest)) = data.split_first() else {
        return;
    };
    let (mut pos, rest) = if mode & 1 == 0 {
        let fens = suite_fens();
        let fen = fens[(mode as usize >> 1) % fens.len()];
        (Position::from_fen(fen).expect("suite FENs are valid"), rest)
    } else {
        match built_position(mode, rest) {
            Some(x) => x,
            None => return,
        }
    };
    check_position(&pos);
    check_moves(&pos);
    for &b in rest.iter().take(64) {
        let list = xq_movegen::legal_moves(&pos);
        if list.is_empty() {
            break;
        }
        let m = list[b as usize % list.len()];
        let eval = Eval::new(&pos);
        let child = eval.after(&pos, m);
        pos.make_move(m);
        assert_eq!(child, Eval::new(&pos), "incremental eval after {m}");
        check_position(&pos);
        check_moves(&pos);
    }
}

/// The referee on games chosen by the bytes: a suite position (or the start), then up to
/// 96 moves, each byte either choosing a legal move or (high bit set) taking back the
/// mover's previous move by playing it in reverse, which makes repetitions. After every
/// move `Game::outcome` must not panic and must keep its promises: a decided repetition
/// is ruled as one, a perpetual check by the check-only rule (written apart, in
/// `xq-testkit`) is ruled the same, the game goes on only while there is a legal move; at
/// the end the colour-flipped game gets the mirrored result.
pub fn rules(data: &[u8]) {
    use xq_movegen::{GameResult, Termination};
    let Some((&mode, rest)) = data.split_first() else {
        return;
    };
    let fens = suite_fens();
    let fen = match mode as usize % (fens.len() + 1) {
        0 => xq_core::START_FEN,
        i => fens[i - 1],
    };
    let mut game = xq_movegen::Game::new(Position::from_fen(fen).expect("suite FENs are valid"));
    for &b in rest.iter().take(96) {
        let list = xq_movegen::legal_moves(game.position());
        if list.is_empty() {
            assert!(matches!(
                game.outcome().map(|o| o.termination),
                Some(Termination::Checkmate | Termination::Stalemate)
            ));
            break;
        }
        let played = game.moves();
        let back = played
            .len()
            .checked_sub(2)
            .map(|i| Move::new(played[i].to(), played[i].from()))
            .filter(|m| b & 0x80 != 0 && list.contains(m));
        let m = back.unwrap_or(list[b as usize % list.len()]);
        game.play(m).expect("a legal move");
        let verdict = game.outcome();
        let reason = verdict.map(|o| o.termination);
        let pos = game.position();
        let reversible = pos.halfmove_clock() as usize;
        let no_move = xq_movegen::legal_moves(pos).is_empty();
        match xq_testkit::threefold(game.keys(), reversible) {
            Some(first) if !no_move => {
                let us = pos.side_to_move();
                match xq_testkit::perpetual_checker(game.checks(), first, us) {
                    Some(by) => assert_eq!(reason, Some(Termination::PerpetualCheck { by })),
                    None => assert!(matches!(
                        reason,
                        Some(Termination::Repetition | Termination::PerpetualChase { .. })
                    )),
                }
            }
            _ if verdict.is_none() => assert!(!no_move),
            _ => {}
        }
    }
    // The same game with the colours swapped is judged the same way.
    let mut flipped = xq_movegen::Game::new(game.start().color_flipped());
    for &m in game.moves() {
        flipped
            .play(m.flip_vertical())
            .expect("the flipped move is legal");
    }
    let mirror = |r: Option<GameResult>| match r {
        Some(GameResult::RedWins) => Some(GameResult::BlackWins),
        Some(GameResult::BlackWins) => Some(GameResult::RedWins),
        other => other,
    };
    let (a, b) = (game.outcome(), flipped.outcome());
    assert_eq!(
        b.map(|o| o.result),
        mirror(a.map(|o| o.result)),
        "{a:?} / {b:?}"
    );
    assert_eq!(
        b.map(|o| o.termination.tag()),
        a.map(|o| o.termination.tag())
    );
}

/// Builds a position from bytes: two general squares, the side to move, then (piece,
/// square) pairs, each kept only if the setup still validates. Returns the rest of the
/// bytes (which choose moves).
fn built_position(mode: u8, data: &[u8]) -> Option<(Position, &[u8])> {
    built_position_with(mode, data, Ignore::NOTHING)
}

/// [`built_position`], keeping what `ignore` lets through (a piece on a square no game
/// brings it to, with [`Ignore::PLAYABLE`]).
fn built_position_with(mode: u8, data: &[u8], ignore: Ignore) -> Option<(Position, &[u8])> {
    const RED_PALACE: [&str; 9] = ["d0", "e0", "f0", "d1", "e1", "f1", "d2", "e2", "f2"];
    let (&g, data) = data.split_first()?;
    let mut setup = Fen::empty();
    let red: Square = RED_PALACE[(g % 9) as usize].parse().ok()?;
    let black = RED_PALACE[((g / 9) % 9) as usize]
        .parse::<Square>()
        .ok()?
        .flip_vertical();
    setup.set(red, Some(Piece::new(Color::Red, PieceKind::General)));
    setup.set(black, Some(Piece::new(Color::Black, PieceKind::General)));
    setup.side_to_move = if mode & 2 == 0 {
        Color::Red
    } else {
        Color::Black
    };
    setup.halfmove_clock = u32::from(mode >> 2);
    Position::from_setup(&setup, ignore).ok()?;
    let count = data.len().min(2 * 24) / 2;
    let (pieces, rest) = data.split_at(count * 2);
    for pair in pieces.chunks(2) {
        let kinds = [
            PieceKind::Advisor,
            PieceKind::Elephant,
            PieceKind::Horse,
            PieceKind::Chariot,
            PieceKind::Cannon,
            PieceKind::Soldier,
        ];
        let kind = kinds[(pair[0] % 6) as usize];
        let color = if pair[0] & 0x80 == 0 {
            Color::Red
        } else {
            Color::Black
        };
        let sq = Square::from_index(pair[1] as usize % 90)?;
        if setup.piece_on(sq).is_some() {
            continue;
        }
        setup.set(sq, Some(Piece::new(color, kind)));
        if Position::from_setup(&setup, ignore).is_err() {
            setup.set(sq, None);
        }
    }
    Position::from_setup(&setup, ignore).ok().map(|p| (p, rest))
}

/// Position-level invariants: incremental structures, validity, FEN round trip.
pub fn check_position(pos: &Position) {
    if let Err(e) = pos.check_invariants() {
        panic!("{}: {e}", pos.to_fen());
    }
    assert_eq!(pos.key(), pos.compute_key(), "{}", pos.to_fen());
    let mover = pos.side_to_move();
    assert!(
        !pos.is_general_attacked(!mover),
        "{}: the side not to move is in check",
        pos.to_fen()
    );
    let again = Position::from_fen(&pos.to_fen())
        .unwrap_or_else(|e| panic!("{} does not re-parse: {e}", pos.to_fen()));
    assert_eq!(&again, pos);
    assert_eq!(again.key(), pos.key());
}

/// Move-level invariants at one position: every generated move is legal, the generators
/// agree with each other and with a brute-force legality test over every from/to pair,
/// make/unmake restores everything, the incremental key and evaluation match the
/// recomputed ones, check detection agrees.
pub fn check_moves(pos: &Position) {
    let fen = pos.to_fen();
    let mover = pos.side_to_move();
    let legal = xq_movegen::legal_moves(pos);
    let legal_set: BTreeSet<u16> = legal.iter().map(|m| m.to_u16()).collect();
    assert_eq!(legal_set.len(), legal.len(), "{fen}: duplicate moves");
    assert_eq!(
        xq_movegen::count_legal(pos),
        legal.len(),
        "{fen}: count_legal"
    );
    let caps = xq_movegen::legal(pos, Gen::Captures);
    let quiets = xq_movegen::legal(pos, Gen::Quiets);
    let mut parts: BTreeSet<u16> = caps.iter().map(|m| m.to_u16()).collect();
    assert!(caps.iter().all(|m| pos.piece_on(m.to()).is_some()), "{fen}");
    assert!(
        quiets.iter().all(|m| pos.piece_on(m.to()).is_none()),
        "{fen}"
    );
    parts.extend(quiets.iter().map(|m| m.to_u16()));
    assert_eq!(parts, legal_set, "{fen}: captures + quiets != legal moves");
    let ev = xq_movegen::legal(pos, Gen::Evasions);
    if pos.is_check() {
        assert_eq!(ev.len(), legal.len(), "{fen}: evasions");
    } else {
        assert!(ev.is_empty(), "{fen}: evasions out of check");
    }
    let pseudo: BTreeSet<u16> = xq_movegen::pseudo_legal(pos, Gen::All)
        .iter()
        .map(|m| m.to_u16())
        .collect();
    let pseudo_caps: BTreeSet<u16> = xq_movegen::pseudo_legal(pos, Gen::Captures)
        .iter()
        .map(|m| m.to_u16())
        .collect();
    assert!(pseudo_caps.is_subset(&pseudo), "{fen}: pseudo captures");
    let filter = xq_movegen::LegalityFilter::new(pos);
    let eval = Eval::new(pos);
    let key = pos.key();
    // Every from/to pair: legality by the library against make-and-look.
    for from in Square::ALL {
        let Some(p) = pos.piece_on(from) else {
            continue;
        };
        for to in Square::ALL {
            if to == from {
                continue;
            }
            let m = Move::new(from, to);
            let is_pseudo = xq_movegen::is_pseudo_legal(pos, m);
            assert_eq!(is_pseudo, pseudo.contains(&m.to_u16()), "{fen}: pseudo {m}");
            let is_legal = xq_movegen::is_legal(pos, m);
            assert_eq!(
                is_legal,
                legal_set.contains(&m.to_u16()),
                "{fen}: is_legal({m}) disagrees with legal_moves"
            );
            if p.color != mover || !is_pseudo {
                assert!(!is_legal, "{fen}: {m} legal but not pseudo-legal");
                continue;
            }
            assert_eq!(filter.is_legal(pos, m), is_legal, "{fen}: filter {m}");
            assert_ne!(
                pos.piece_on(to).map(|q| q.kind),
                Some(PieceKind::General),
                "{fen}: pseudo-legal {m} captures a general"
            );
            let mut after = pos.clone();
            let child = eval.after(pos, m);
            let undo = after.make_move(m);
            let safe = !after.is_general_attacked(mover);
            assert_eq!(is_legal, safe, "{fen}: is_legal({m}) != make-and-look");
            if is_legal {
                if let Err(e) = after.check_invariants() {
                    panic!("{fen} after {m}: {e}");
                }
                assert_eq!(after.key(), after.compute_key(), "{fen} after {m}: key");
                assert_ne!(after.key(), key, "{fen} after {m}: key unchanged");
                assert_eq!(child, Eval::new(&after), "{fen} after {m}: eval");
                assert_eq!(
                    xq_movegen::gives_check(pos, m),
                    after.is_check(),
                    "{fen}: gives_check({m})"
                );
                assert_eq!(
                    xq_movegen::in_check_after(&after, m),
                    after.is_check(),
                    "{fen}: in_check_after({m})"
                );
                assert_eq!(after.side_to_move(), !mover);
                assert_eq!(
                    undo.captured(),
                    pos.piece_on(to),
                    "{fen}: captured piece of {m}"
                );
            }
            after.unmake_move(m, undo);
            assert_eq!(&after, pos, "{fen}: unmake {m}");
            assert_eq!(after.key(), key, "{fen}: key after unmake {m}");
            if let Err(e) = after.check_invariants() {
                panic!("{fen} after {m} and back: {e}");
            }
        }
    }
    // Colour symmetry: the flipped position has the flipped moves.
    let flipped = pos.color_flipped();
    let flipped_moves: BTreeSet<u16> = xq_movegen::legal_moves(&flipped)
        .iter()
        .map(|m| m.to_u16())
        .collect();
    let expected: BTreeSet<u16> = legal.iter().map(|m| m.flip_vertical().to_u16()).collect();
    assert_eq!(flipped_moves, expected, "{fen}: colour flip");
}

/// The PGN reader fed arbitrary bytes, decoded in every [`Encoding`](xq_records::pgn::Encoding):
/// no panic; an error has a place (a line from 1, a game unless the bytes could not be
/// decoded); every game read is legal throughout and writes, in every notation, to text
/// that reads back to the same games (a `}` in a comment is written `｝`).
pub fn pgn(data: &[u8]) {
    use xq_records::pgn::{self, Encoding, PgnErrorKind, ReadOptions};
    for encoding in [Encoding::Auto, Encoding::Utf8, Encoding::Gbk] {
        match pgn::read(data, &ReadOptions { encoding }) {
            Ok(games) => {
                for game in &games {
                    assert_eq!(game.validate(), Ok(()), "{game:?}");
                }
                round_trips(&games);
            }
            Err(e) => {
                assert!(e.line >= 1, "{e:?}");
                let decoding = matches!(e.kind, PgnErrorKind::BadEncoding { .. });
                assert_eq!(e.game.is_none(), decoding, "{e:?}");
                assert!(!e.to_string().is_empty());
            }
        }
    }
}

/// The XQF reader fed arbitrary bytes: no panic; an error points inside the file (or at
/// its end); a game read is legal throughout and round-trips through PGN.
pub fn xqf(data: &[u8]) {
    match xq_records::xqf::read(data) {
        Ok(game) => {
            assert_eq!(game.validate(), Ok(()), "{game:?}");
            round_trips(std::slice::from_ref(&game));
        }
        Err(e) => {
            assert!(e.offset <= data.len(), "{e:?} in {} bytes", data.len());
            assert!(!e.to_string().is_empty());
        }
    }
}

/// `games` written in every notation read back to themselves (comments with `}` as the
/// writer changes them).
fn round_trips(games: &[xq_records::Record]) {
    use xq_movegen::notation::Notation;
    use xq_records::pgn::{self, WriteOptions};
    use xq_records::Line;
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
    let mut expected = games.to_vec();
    for game in &mut expected {
        braces(&mut game.main);
    }
    for notation in Notation::ALL {
        let text = pgn::write_all(games, &WriteOptions { notation })
            .unwrap_or_else(|e| panic!("a game read cannot be written: {e}"));
        let again = pgn::read_str(&text).unwrap_or_else(|e| panic!("{e} in\n{text}"));
        assert_eq!(again, expected, "{notation}:\n{text}");
    }
}

/// The endgame tables of xq-tablebase's tests (KRK, KCK, KNK, KPK, KRKA, KRKN), opened
/// once.
fn test_tables() -> &'static std::sync::Arc<xq_tablebase::Tablebases> {
    static TABLES: std::sync::OnceLock<std::sync::Arc<xq_tablebase::Tablebases>> =
        std::sync::OnceLock::new();
    TABLES.get_or_init(|| {
        let dir =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../xq-tablebase/tests/data");
        std::sync::Arc::new(xq_tablebase::Tablebases::open(dir).expect("the test tables"))
    })
}

/// Composed positions (`Ignore::PLAYABLE`: soldiers behind their start, elephants and
/// advisors off their points) built from the bytes, few pieces more often than many so
/// that many fall in the endgame tables' material, fed to everything that takes a
/// position: the tables' probes, a short search with the tables set, both evaluations,
/// the opening book, notation, the referee, the move judgement and the UCI engine with
/// the tables set. No panic anywhere; a table answer agrees with its colour-flipped and
/// mirrored position, and the search plays a legal move.
pub fn composed(data: &[u8]) {
    use std::sync::atomic::AtomicBool;
    use xq_movegen::notation::{read_move, write_move, Notation};
    let Some((&mode, rest)) = data.split_first() else {
        return;
    };
    // At most 2 + 6 pieces: endings of the tables and the positions around them.
    let rest = &rest[..rest.len().min(1 + 2 * 6)];
    let Some((pos, _)) = built_position_with(mode | 1, rest, Ignore::PLAYABLE) else {
        return;
    };
    check_moves_lightly(&pos);
    let tb = test_tables();
    let value = tb.probe_dtm(&pos).expect("the test tables are good");
    assert_eq!(tb.probe_wdl(&pos), Ok(value.map(|v| v.result())));
    assert_eq!(tb.probe_dtm(&pos.color_flipped()), Ok(value), "{pos}");
    assert_eq!(tb.probe_dtm(&pos.flip_horizontal()), Ok(value), "{pos}");
    if let Some(moves) = tb.root_moves(&pos).expect("the test tables are good") {
        let legal = xq_movegen::legal_moves(&pos);
        assert_eq!(moves.len(), legal.len(), "{pos}");
        if let (Some(v), Some(&(_, best))) = (value, moves.first()) {
            assert_eq!(best, v, "{pos}: the best move's value is the position's");
        }
    }
    // Both evaluations, from scratch and along a move.
    let _ = xq_eval::evaluate(&pos);
    if let Some(net) = xq_eval::nnue::default_network() {
        let acc = xq_eval::nnue::Accumulator::new(&net, &pos);
        let _ = net.evaluate(&pos, &acc);
        for m in xq_movegen::legal_moves(&pos).into_iter().take(4) {
            let next = acc.after(&net, &pos, m);
            let mut after = pos.clone();
            after.make_move(m);
            assert_eq!(
                net.evaluate(&after, &next),
                net.evaluate(&after, &xq_eval::nnue::Accumulator::new(&net, &after)),
                "{pos} after {m}"
            );
        }
    }
    // Notation both ways.
    for m in xq_movegen::legal_moves(&pos) {
        for notation in Notation::ALL {
            let text = write_move(&pos, m, notation).expect("a legal move is written");
            assert_eq!(read_move(&pos, &text), Ok(m), "{pos}: {text}");
        }
    }
    // The opening book, built from a short game of the position and asked in it.
    let line: Vec<Move> = xq_movegen::legal_moves(&pos).into_iter().take(1).collect();
    let mut builder = xq_book::BookBuilder::new(xq_book::BuildOptions::default());
    builder.add_game(&pos, &line, None).expect("a legal line");
    let book = builder.finish();
    let _ = book.probe(&pos);
    let _ = book.probe(&pos.flip_horizontal());
    // The referee.
    let game = xq_movegen::Game::new(pos.clone());
    let _ = game.outcome();
    // A short search with the tables, and the judgement of its move.
    let mut searcher = xq_search::Searcher::new(1);
    searcher.set_tablebases(Some(tb.clone()));
    let limits = xq_search::Limits {
        nodes: Some(2_000),
        ..xq_search::Limits::depth(4)
    };
    let r = searcher.search(&game, &limits, &AtomicBool::new(false), |_| {});
    if let Some(best) = r.best_move {
        assert!(xq_movegen::is_legal(&pos, best), "{pos}: {best}");
        let judge = xq_analysis::Judge::new(xq_analysis::Measure::Wdl);
        let a = judge
            .analyse(&mut searcher, &pos, &[best], &limits, &|| {})
            .expect("a legal move is judged");
        assert_eq!(a.verdicts.len(), 1);
    } else {
        assert_eq!(xq_movegen::count_legal(&pos), 0, "{pos}: no move answered");
    }
    // The UCI engine with the tables set.
    let (sink, out) = Sink::buffer();
    let caps = Caps {
        max_hash_mib: 1,
        max_threads: 1,
        max_nodes: Some(1_000),
        ..Caps::default()
    };
    let mut engine = Auto::new(sink, Engine::with_caps(Options::default(), caps));
    let dir = tb.dir().display().to_string();
    for line in [
        "uci".to_string(),
        format!("setoption name TablebasePath value {dir}"),
        format!("position fen {}", pos.to_fen()),
        "go depth 3".to_string(),
    ] {
        engine.handle(&line);
    }
    engine.eof();
    drop(engine);
    let lines = out.lock().unwrap().clone();
    assert!(
        lines.iter().any(|l| l.starts_with("bestmove ")),
        "{pos}: {lines:?}"
    );
}

/// What `check_moves` checks that still holds where a piece stands off its points: make
/// and unmake restore the position, the key follows, check detection agrees.
fn check_moves_lightly(pos: &Position) {
    if let Err(e) = pos.check_invariants() {
        panic!("{}: {e}", pos.to_fen());
    }
    let key = pos.key();
    for m in xq_movegen::legal_moves(pos) {
        let mut after = pos.clone();
        let undo = after.make_move(m);
        assert_eq!(after.key(), after.compute_key(), "{pos} after {m}");
        assert_eq!(
            xq_movegen::gives_check(pos, m),
            after.is_check(),
            "{pos}: {m}"
        );
        after.unmake_move(m, undo);
        assert_eq!(&after, pos);
        assert_eq!(after.key(), key);
    }
}
