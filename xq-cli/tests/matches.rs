//! `xq match` against real engines and engines made to misbehave
//! (`tests/engines/scripted.py`): the rules as the referee applies them, forfeits with
//! their reasons, the SPRT stopping, a match resumed from its PGN, UCCI and XBoard, and
//! Debian's Fairy-Stockfish when it is installed (`XQ_ENGINE_TESTS=required` makes its
//! absence a failure, as in CI).

mod common;
use common::{scratch, stdout, xq};
use std::path::{Path, PathBuf};

fn bin() -> &'static str {
    env!("CARGO_BIN_EXE_xq")
}

fn scripted() -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/engines/scripted.py")
        .to_string_lossy()
        .into_owned()
}

fn openings() -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tools/openings-wide.txt")
        .to_string_lossy()
        .into_owned()
}

/// Runs `xq match` with `args`; its output and the JSON summary.
fn run_match(dir: &Path, args: &[impl AsRef<str>]) -> (String, serde_json::Value) {
    let json = dir.join("summary.json");
    let mut all: Vec<String> = vec!["match".into()];
    all.extend(args.iter().map(|s| s.as_ref().to_string()));
    all.extend(["-json".to_string(), json.to_string_lossy().into_owned()]);
    let refs: Vec<&str> = all.iter().map(String::as_str).collect();
    let out = xq(&refs);
    let text = stdout(&out);
    assert!(
        out.status.success(),
        "{text}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let summary = serde_json::from_str(&std::fs::read_to_string(json).unwrap()).unwrap();
    (text, summary)
}

/// Two xq engines, `a` and `b`, at `nodes` nodes a move with a small hash table.
fn two_xqs(nodes: &str) -> Vec<String> {
    let cmd = format!("cmd={}", bin());
    [
        "-engine",
        &cmd,
        "name=a",
        "-engine",
        &cmd,
        "name=b",
        "-each",
        &format!("nodes={nodes}"),
        "option.Hash=4",
    ]
    .map(String::from)
    .to_vec()
}

fn games(pgn: &PathBuf) -> Vec<xq_records::Record> {
    xq_records::pgn::read(&std::fs::read(pgn).unwrap(), &Default::default()).unwrap()
}

#[test]
fn two_xq_engines_play_pairs_from_the_openings() {
    let dir = scratch("matches", "pairs");
    let pgn = dir.join("games.pgn");
    let openings = format!("file={}", openings());
    let mut args = two_xqs("1500");
    args.extend(
        [
            "-games",
            "4",
            "-concurrency",
            "2",
            "-openings",
            &openings,
            "order=sequential",
            "-pgnout",
            pgn.to_str().unwrap(),
        ]
        .map(String::from),
    );
    let (text, s) = run_match(&dir, &args);
    assert_eq!(s["games"], 4, "{s}");
    assert_eq!(s["forfeits"]["a"], 0);
    let ptnml: Vec<u64> = serde_json::from_value(s["pentanomial"].clone()).unwrap();
    assert_eq!(ptnml.iter().sum::<u64>(), 2);
    assert!(text.contains("Finished match: 4 games"), "{text}");
    let g = games(&pgn);
    assert_eq!(g.len(), 4);
    // Each opening twice, the engines swapping colours; the rounds say pair.game.
    let mut rounds: Vec<&str> = g.iter().map(|r| r.tag("Round").unwrap()).collect();
    rounds.sort();
    assert_eq!(rounds, ["1.1", "1.2", "2.1", "2.2"]);
    for r in &g {
        assert!(r.result.is_some());
        // The Result tag, as rating tools read it, says what the movetext does.
        assert_eq!(r.tag("Result"), r.result.map(|x| x.token()));
        assert!(r.tag("Termination").is_some());
        let pair: Vec<&xq_records::Record> = g
            .iter()
            .filter(|x| x.tag("Round").unwrap()[..1] == r.tag("Round").unwrap()[..1])
            .collect();
        assert_eq!(
            pair[0].main.nodes[0].mv, pair[1].main.nodes[0].mv,
            "the same opening"
        );
        assert_ne!(pair[0].tag("Red"), pair[1].tag("Red"));
        // The game is legal throughout.
        assert_eq!(r.validate(), Ok(()));
    }
}

#[test]
fn a_perpetual_chase_in_a_real_game_is_ruled_as_the_rules_say() {
    // data/repetition.epd: Red's chariot follows the unprotected black horse b7 <-> c9:
    // Red loses by perpetual chase (a referee that knows only perpetual check calls it
    // a draw).
    let dir = scratch("matches", "chase");
    let fen = "9/5k3/1n7/p6R1/9/9/8P/9/9/3K5 w - - 0 1";
    std::fs::write(dir.join("o.epd"), format!("{fen}\n")).unwrap();
    let line = "h6h7 b7c9 h7h9 c9b7 h9h7 b7c9 h7h9 c9b7 h9h7 b7c9";
    let engine = |name: &str| {
        vec![
            "-engine".to_string(),
            format!("cmd=python3 {} --line", scripted()),
            format!("arg={line}"),
            format!("name={name}"),
            "depth=1".into(),
        ]
    };
    let pgn = dir.join("g.pgn");
    let mut args = engine("red");
    args.extend(engine("black"));
    args.extend(
        [
            "-games",
            "1",
            "-norepeat",
            "-openings",
            &format!("file={}", dir.join("o.epd").display()),
            "-pgnout",
            pgn.to_str().unwrap(),
        ]
        .map(String::from),
    );
    let (text, s) = run_match(&dir, &args);
    assert!(
        text.contains("0-1 {perpetual chase by red of the black horse on b7}"),
        "{text}"
    );
    assert_eq!(
        (s["wins"].as_u64(), s["losses"].as_u64()),
        (Some(0), Some(1))
    );
    let g = &games(&pgn)[0];
    assert_eq!(g.result, Some(xq_movegen::GameResult::BlackWins));
    assert_eq!(g.main.nodes.len(), 9);
    assert_eq!(g.tag("Termination"), Some("rules infraction"));
}

#[test]
fn crashes_hangs_illegal_and_malformed_moves_forfeit_and_the_match_goes_on() {
    let dir = scratch("matches", "faults");
    for (fault, reason, tag) in [
        ("--crash", "crashed", "rules infraction"),
        ("--hang", "lost on time", "time forfeit"),
        (
            "--illegal",
            "played an illegal move: a0a9",
            "rules infraction",
        ),
        (
            "--garbage",
            "said something malformed: bestmove",
            "rules infraction",
        ),
    ] {
        let pgn = dir.join(format!("{fault}.pgn"));
        let (text, s) = run_match(
            &dir,
            &[
                "-engine",
                &format!("cmd={}", bin()),
                "name=xq",
                "tc=2+0.05",
                "option.Hash=4",
                "-engine",
                &format!("cmd=python3 {} --proxy {} {fault} 2", scripted(), bin()),
                "name=bad",
                "tc=1+0.05",
                "-games",
                "2",
                "-pgnout",
                pgn.to_str().unwrap(),
            ],
        );
        // The faulty engine loses both games (restarted for the second), and says why.
        assert_eq!(s["forfeits"]["bad"], 2, "{fault}: {text}");
        assert_eq!(s["wins"], 2, "{fault}: {text}");
        assert!(
            text.contains(&format!("bad (black) {reason}")),
            "{fault}: {text}"
        );
        for g in games(&pgn) {
            assert_eq!(g.tag("Termination"), Some(tag), "{fault}");
            // Time odds: each side's clock in its own tag, as cutechess-cli writes them.
            let (red, black) = match g.tag("Red") {
                Some("xq") => ("2+0.05", "1+0.05"),
                _ => ("1+0.05", "2+0.05"),
            };
            assert_eq!(g.tag("RedTimeControl"), Some(red), "{fault}");
            assert_eq!(g.tag("BlackTimeControl"), Some(black), "{fault}");
            assert_eq!(g.tag("TimeControl"), None, "{fault}");
            let last = g.main.nodes.last().unwrap().comment.clone().unwrap();
            assert!(last.contains(reason), "{fault}: {last}");
        }
    }
}

#[test]
fn the_sprt_stops_a_match_against_a_much_weaker_engine() {
    let dir = scratch("matches", "sprt");
    let (text, s) = run_match(
        &dir,
        &[
            "-engine",
            &format!("cmd={}", bin()),
            "name=strong",
            "nodes=2000",
            "-engine",
            &format!("cmd={}", bin()),
            "name=weak",
            "nodes=20",
            "-each",
            "option.Hash=4",
            "-games",
            "200",
            "-concurrency",
            "2",
            "-openings",
            &format!("file={}", openings()),
            "-sprt",
            "elo0=0",
            "elo1=100",
            "alpha=0.05",
            "beta=0.05",
        ],
    );
    assert_eq!(s["sprt"]["result"], "H1", "{text}");
    let games = s["games"].as_u64().unwrap();
    assert!(games < 40, "{games} games: {text}");
    assert!(text.contains("H1 was accepted"), "{text}");
}

#[test]
fn a_match_resumes_from_its_pgn() {
    let dir = scratch("matches", "resume");
    let pgn = dir.join("g.pgn");
    let args = |games: &str| -> Vec<String> {
        let mut v = two_xqs("800");
        v.extend(
            [
                "-games",
                games,
                "-openings",
                &format!("file={}", openings()),
                "-pgnout",
                pgn.to_str().unwrap(),
                "-resume",
            ]
            .map(String::from),
        );
        v
    };
    run_match(&dir, &args("4"));
    // Cut the last game off: its pair is played again.
    let text = std::fs::read_to_string(&pgn).unwrap();
    let cut = text.rfind("[Event").unwrap();
    std::fs::write(&pgn, &text[..cut]).unwrap();
    assert_eq!(games(&pgn).len(), 3);
    let (_, s) = run_match(&dir, &args("6"));
    assert_eq!(s["games"], 6, "{s}");
    let g = games(&pgn);
    assert_eq!(g.len(), 6);
    let mut rounds: Vec<&str> = g.iter().map(|r| r.tag("Round").unwrap()).collect();
    rounds.sort();
    assert_eq!(rounds, ["1.1", "1.2", "2.1", "2.2", "3.1", "3.2"]);
}

#[test]
fn ucci_and_xboard_engines_play_each_other() {
    let dir = scratch("matches", "protocols");
    let pgn = dir.join("g.pgn");
    let (text, s) = run_match(
        &dir,
        &[
            "-engine",
            &format!("cmd={}", bin()),
            "arg=ucci",
            "proto=ucci",
            "name=u",
            "depth=3",
            "-engine",
            &format!("cmd={}", bin()),
            "arg=xboard",
            "proto=xboard",
            "name=x",
            "depth=3",
            "-games",
            "2",
            "-openings",
            &format!("file={}", openings()),
            "-pgnout",
            pgn.to_str().unwrap(),
        ],
    );
    assert_eq!(s["games"], 2, "{text}");
    assert_eq!(
        (s["forfeits"]["u"].as_u64(), s["forfeits"]["x"].as_u64()),
        (Some(0), Some(0)),
        "{text}"
    );
    for g in games(&pgn) {
        assert_eq!(g.validate(), Ok(()));
        assert!(g.main.nodes.len() > 8);
    }
}

#[test]
fn fairy_stockfish_plays_xq_when_installed() {
    let fsf = ["/usr/games/fairy-stockfish", "/usr/bin/fairy-stockfish"]
        .into_iter()
        .find(|p| Path::new(p).exists());
    let Some(fsf) = fsf else {
        assert_ne!(
            std::env::var("XQ_ENGINE_TESTS").as_deref(),
            Ok("required"),
            "fairy-stockfish is required (XQ_ENGINE_TESTS=required) but not installed"
        );
        eprintln!("fairy-stockfish not installed: skipped");
        return;
    };
    let dir = scratch("matches", "fsf");
    let pgn = dir.join("g.pgn");
    let (text, s) = run_match(
        &dir,
        &[
            "-engine",
            &format!("cmd={fsf}"),
            "name=fsf",
            "ranks=1",
            "option.UCI_Variant=xiangqi",
            "-engine",
            &format!("cmd={}", bin()),
            "name=xq",
            "option.Hash=4",
            "-each",
            "nodes=3000",
            "-games",
            "2",
            "-openings",
            &format!("file={}", openings()),
            "-pgnout",
            pgn.to_str().unwrap(),
        ],
    );
    assert_eq!(s["games"], 2, "{text}");
    assert_eq!(s["forfeits"]["fsf"], 0, "{text}");
    assert_eq!(s["forfeits"]["xq"], 0, "{text}");
    for g in games(&pgn) {
        assert_eq!(g.validate(), Ok(()));
    }
}

#[test]
fn an_interrupted_match_leaves_its_summary_so_far() {
    let dir = scratch("matches", "interrupted");
    let json = dir.join("summary.json");
    let mut child = std::process::Command::new(bin())
        .arg("match")
        .args(two_xqs("1500"))
        .args([
            "-games",
            "200",
            "-openings",
            &format!("file={}", openings()),
            "-json",
            json.to_str().unwrap(),
        ])
        .stdout(std::process::Stdio::null())
        .spawn()
        .unwrap();
    // The summary is written after every game, not only at the end.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(120);
    while !json.exists() && std::time::Instant::now() < deadline {
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let s: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    let games = s["games"].as_u64().unwrap();
    assert!((1..200).contains(&games), "{s}");
    assert_eq!(
        s["wins"].as_u64().unwrap() + s["draws"].as_u64().unwrap() + s["losses"].as_u64().unwrap(),
        games
    );
}
