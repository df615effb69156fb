//! `xq tb`: generating, verifying and probing tables from the command line.

use std::collections::HashMap;
use std::process::{Command, Output};

fn xq(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_xq"))
        .args(args)
        .output()
        .expect("xq runs")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// The rows of a generation log (`endings.csv`), each a map from column to field (no
/// field of these logs is quoted).
fn log_rows(dir: &std::path::Path) -> Vec<HashMap<String, String>> {
    let text = std::fs::read_to_string(dir.join("endings.csv")).unwrap();
    let mut lines = text.lines();
    assert_eq!(lines.next(), Some("# xq tablebase log, format 2"));
    let columns: Vec<&str> = lines.next().unwrap().split(',').collect();
    assert_eq!(columns.len(), 25);
    lines
        .map(|l| {
            let fields: Vec<&str> = l.split(',').collect();
            assert_eq!(fields.len(), columns.len(), "{l}");
            let row = columns.iter().zip(fields);
            row.map(|(c, f)| (c.to_string(), f.to_string())).collect()
        })
        .collect()
}

#[test]
fn gen_verify_probe() {
    let dir = std::env::temp_dir().join(format!("xq-cli-tb-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let d = dir.to_str().unwrap();
    let out = xq(&["tb", "gen", "KRKA", "KHK", "-o", d, "--threads", "2"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines[0].starts_with("3 endings, 49140 positions"), "{text}");
    assert!(
        lines.iter().any(|l| l.starts_with(
            "KRKA: 20685 positions, 9264 wins 366 draws 11055 losses, longest mate 10 plies"
        )),
        "{text}"
    );
    assert!(lines
        .last()
        .unwrap()
        .starts_with("3 tables generated, 3 in"));
    // The log: a row for each table made, in order, with the table's counts and the
    // times.
    let rows = log_rows(&dir);
    let names: Vec<&str> = rows.iter().map(|r| r["ending"].as_str()).collect();
    assert_eq!(names, ["KNK", "KRK", "KRKA"]);
    let krka = &rows[2];
    let size = std::fs::metadata(dir.join("KRKA.xqtb")).unwrap().len();
    for (column, value) in [
        ("status", "generated"),
        ("positions", "20685"),
        ("wins", "9264"),
        ("draws", "366"),
        ("losses", "11055"),
        ("attacker_wins", "9264"),
        ("attacker_draws", "0"),
        ("attacker_losses", "0"),
        ("defender_wins", "0"),
        ("defender_draws", "366"),
        ("defender_losses", "11055"),
        ("rule_decided", "0"),
        ("longest_mate", "10"),
        ("threads", "2"),
        ("bytes", &size.to_string()),
        ("note", ""),
    ] {
        assert_eq!(krka[column], value, "{column}");
    }
    for column in ["gen_seconds", "verify_seconds", "write_seconds"] {
        let secs: f64 = krka[column].parse().unwrap();
        assert!((0.0..60.0).contains(&secs), "{column}: {secs}");
    }
    assert!(krka["finished"].ends_with('Z'), "{}", krka["finished"]);
    assert_eq!(krka["version"], env!("CARGO_PKG_VERSION"));
    // Again: the tables are kept, and the log says so.
    let again = stdout(&xq(&["tb", "gen", "KRKA", "-o", d, "--note", "again"]));
    assert!(again.contains("KRKA: already in"), "{again}");
    let rows = log_rows(&dir);
    assert_eq!(rows.len(), 5);
    let kept = &rows[4];
    assert_eq!(
        [&kept["ending"], &kept["status"], &kept["note"]],
        ["KRKA", "kept", "again"]
    );
    assert_eq!(
        [&kept["positions"], &kept["wins"], &kept["longest_mate"]],
        ["20685", "9264", "10"]
    );
    assert_eq!([&kept["gen_seconds"], &kept["threads"]], ["", ""]);
    // The summary counts each ending once, by the row that made it.
    let summary = stdout(&xq(&["tb", "stats", "--summary", d]));
    assert!(
        summary
            .contains("\n| **phase 1** | 3 | 29,892 | 13,503 | 474 | 15,915 | 14 (KNK) | KRKA (20,685) | 3,831 |"),
        "{summary}"
    );
    assert!(
        summary.contains("\n| phase 1 | – | 3 | 2 | 29,892 |"),
        "{summary}"
    );

    let verify = xq(&["tb", "verify", d]);
    assert!(verify.status.success());
    // Each table's WDL file was written beside it, and is checked against it.
    assert_eq!(
        stdout(&verify),
        "KNK: ok, 4806 positions, WDL file agrees\nKRK: ok, 4401 positions, WDL file agrees\nKRKA: ok, 20685 positions, WDL file agrees\n"
    );
    // A missing WDL file is written by --wdl; a damaged one fails.
    let knk_wdl = std::fs::read(dir.join("KNK.xqwdl")).unwrap();
    std::fs::remove_file(dir.join("KNK.xqwdl")).unwrap();
    std::fs::write(dir.join("KRK.xqwdl"), &knk_wdl).unwrap();
    let verify = xq(&["tb", "verify", d, "--wdl"]);
    assert_eq!(verify.status.code(), Some(1));
    let out = stdout(&verify);
    assert!(
        out.starts_with(&format!(
            "KNK: ok, 4806 positions, WDL file written ({} bytes), WDL file agrees\nKRK: FAILED: ",
            knk_wdl.len()
        )),
        "{out}"
    );
    assert!(
        out.contains("KRK.xqwdl: corrupt (ending name is wrong)"),
        "{out}"
    );
    assert_eq!(std::fs::read(dir.join("KNK.xqwdl")).unwrap(), knk_wdl);
    std::fs::remove_file(dir.join("KRK.xqwdl")).unwrap();

    let fen = "3k5/4a4/9/9/9/9/9/9/4R4/4K4 w";
    let probe = stdout(&xq(&["tb", "probe", d, "--fen", fen]));
    let lines: Vec<&str> = probe.lines().collect();
    assert_eq!(lines[0], "KRKA, red to move: win, mate in 1 ply");
    assert_eq!(lines[1], "  e1e8  win, mate in 1 ply");
    assert_eq!(lines.len(), 17);
    let json: serde_json::Value =
        serde_json::from_str(&stdout(&xq(&["tb", "probe", d, "--fen", fen, "--json"]))).unwrap();
    assert_eq!(json["ending"], "KRKA");
    assert_eq!(json["result"], "win");
    assert_eq!(json["dtm"], 1);
    assert_eq!(json["moves"][0]["move"], "e1e8");
    assert_eq!(json["moves"].as_array().unwrap().len(), 16);

    // Errors: a bad name, a position without a table, a damaged file.
    let bad_log = dir.join("bad-log");
    std::fs::create_dir_all(&bad_log).unwrap();
    std::fs::write(bad_log.join("endings.csv"), "ending,status\n").unwrap();
    let bad = xq(&["tb", "gen", "KRK", "-o", bad_log.to_str().unwrap()]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("not a tablebase log"));
    assert!(!bad_log.join("KRK.xqtb").exists());
    let bad = xq(&["tb", "gen", "KRKX", "-o", d]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("`X` at 3 is not a piece letter"));
    let none = xq(&["tb", "probe", d, "--fen", "3k5/4a4/9/9/9/9/9/9/4C4/4K4 w"]);
    assert!(String::from_utf8_lossy(&none.stderr).contains("KCKA is not in"));
    let path = dir.join("KRKA.xqtb");
    let bytes = std::fs::read(&path).unwrap();
    std::fs::write(&path, &bytes[..bytes.len() - 1]).unwrap();
    let verify = xq(&["tb", "verify", d]);
    assert_eq!(verify.status.code(), Some(1));
    assert!(
        stdout(&verify).contains("KRKA: FAILED"),
        "{}",
        stdout(&verify)
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The summary of the log in the repository (the phase-1 set and 167 endings where both
/// sides attack): its totals, and that docs/tablebases.md shows it as it is.
#[test]
fn summary_of_the_log_in_the_repository() {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/..");
    let out = xq(&[
        "tb",
        "stats",
        "--summary",
        &format!("{root}/docs/data/tablebases.csv"),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = stdout(&out);
    let row = |start: &str| -> Vec<String> {
        let line = text.lines().find(|l| l.starts_with(start)).expect(start);
        line.split(" | ").map(str::to_owned).collect()
    };
    let phase1 = row("| **phase 1** |");
    assert_eq!(
        [&phase1[1], &phase1[2], &phase1[8]],
        ["414", "3,604,050,141", "544,035,569"]
    );
    assert_eq!(
        [&phase1[6], &phase1[7]],
        ["133 (KCPKAAB)", "KCAABBKAABB (132,833,898)"]
    );
    let both = row("| both sides attack | 167 |");
    assert_eq!([&both[2], &both[6]], ["1,669,814,162", "154 (KNPKN)"]);
    let idle = row("| phase 1 | idle |");
    assert_eq!(
        [&idle[2], &idle[4], &idle[5]],
        ["282", "3,569,121,477", "2,629.2"]
    );
    let beyond: Vec<&str> = text
        .split("| mates beyond 120 plies |")
        .nth(1)
        .unwrap()
        .lines()
        .skip(2)
        .take_while(|l| !l.is_empty())
        .map(|l| l.split(" | ").next().unwrap())
        .collect();
    assert_eq!(
        beyond,
        [
            "| KNPKN",
            "| KCPKAAB",
            "| KCPKAABB",
            "| KRKNABB",
            "| KNPKAABB",
            "| KNPKAAB"
        ]
    );
    // The endings where the rules decide positions, with each rule's share where the log
    // says it: KRKN's 1,597, all by perpetual check.
    let krkn = row("| KRKN | 380,325 |");
    assert_eq!(&krkn[2..], ["1,597", "1,597", "0", "312 |"]);
    // The first ending the perpetual-chase rule decides.
    let chase = row("| KRAAKC | 3,185,629 |");
    assert_eq!(&chase[2..], ["180", "0", "180", "18 |"]);
    // Two attackers against a chariot: KRPKR, nearly all by perpetual check.
    let krpkr = row("| KRPKR | 18,443,469 |");
    assert_eq!(
        &krpkr[2..],
        ["7,207,320", "7,205,591", "1,729", "3,864,710 |"]
    );
    // Two cannons against a horse, which could hold only by checking forever.
    let kcckn = row("| KCCKN | 18,638,820 |");
    assert_eq!(&kcckn[2..], ["542,213", "542,213", "0", "308,467 |"]);
    // Horse and soldier against a horse: the chase rule too, and a mate of 154 plies.
    let knpkn = row("| KNPKN | 21,682,338 |");
    assert_eq!(&knpkn[2..], ["588,848", "555,189", "33,659", "140,415 |"]);
    let unknown = row("| KRKNABB | 35,195,142 |");
    assert_eq!(&unknown[2..], ["6,785,923", "?", "?", "? |"]);
    // docs/tablebases.md holds this summary between its markers.
    let docs = std::fs::read_to_string(format!("{root}/docs/tablebases.md")).unwrap();
    let begin = "<!-- made by tools/tb-summary.sh from docs/data/tablebases.csv -->";
    let block = docs.split(begin).nth(1).expect("the start marker");
    let block = block.split("<!-- end of the summary -->").next().unwrap();
    assert_eq!(
        block.trim(),
        text.trim(),
        "docs/tablebases.md has another summary: run tools/tb-summary.sh"
    );
}

/// A table where both sides attack: `xq tb probe` says which results the rules of
/// perpetual check and chase decide (the kept KRKN table).
#[test]
fn probe_reports_wins_by_the_perpetual_check_rule() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../xq-tablebase/tests/data");
    // Black's horse must check with every move, or be mated.
    let fen = "9/9/4k4/9/9/9/9/3n5/9/R2K5 b";
    let probe = stdout(&xq(&["tb", "probe", dir, "--fen", fen]));
    let lines: Vec<&str> = probe.lines().collect();
    assert_eq!(
        lines[0],
        "KRKN, black to move: loss by the perpetual-check rule"
    );
    assert_eq!(lines[1], "  d2b1  loss by the perpetual-check rule");
    assert_eq!(lines[2], "  d2f3  loss, mated in 14 plies");
    assert_eq!(lines.len(), 12);
    let json: serde_json::Value =
        serde_json::from_str(&stdout(&xq(&["tb", "probe", dir, "--fen", fen, "--json"]))).unwrap();
    assert_eq!(json["result"], "loss");
    assert_eq!(json["by_rule"], true);
    assert_eq!(json["rule"], "perpetual-check");
    assert_eq!(json["dtm"], serde_json::Value::Null);
    assert_eq!(json["moves"][0]["by_rule"], true);
    assert_eq!(json["moves"][0]["rule"], "perpetual-check");
    assert_eq!(json["moves"][1]["by_rule"], false);
    assert_eq!(json["moves"][1]["rule"], serde_json::Value::Null);
    assert_eq!(json["moves"][1]["dtm"], 14);
}

/// The kept test tables' directory, and a fresh temporary directory (named by `name`)
/// holding KRK, KNK and KRKN's distance files from its subdirectory `from` ("" for the
/// kept ones).
fn krkn_dir(name: &str, from: &str) -> (std::path::PathBuf, std::path::PathBuf) {
    let data = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../xq-tablebase/tests/data");
    let dir = std::env::temp_dir().join(format!("xq-cli-tb-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    for table in ["KRK", "KNK", "KRKN"] {
        let file = format!("{table}.xqtb");
        std::fs::copy(data.join(from).join(&file), dir.join(&file)).unwrap();
    }
    (data, dir)
}

/// With only an ending's WDL file in the directory, `xq tb probe` says the position's
/// result and its rule (from format version 5), without distance or moves.
#[test]
fn probe_from_the_wdl_file_alone() {
    let (data, dir) = krkn_dir("wdl-probe", "");
    let d = dir.to_str().unwrap();
    assert!(xq(&["tb", "verify", d, "--wdl"]).status.success());
    std::fs::remove_file(dir.join("KRKN.xqtb")).unwrap();
    let fen = "9/9/4k4/9/9/9/9/3n5/9/R2K5 b";
    assert_eq!(
        stdout(&xq(&["tb", "probe", d, "--fen", fen])),
        "KRKN, black to move: loss by the perpetual-check rule \
         (WDL file only: the distance file gives distances and moves)\n"
    );
    let json: serde_json::Value =
        serde_json::from_str(&stdout(&xq(&["tb", "probe", d, "--fen", fen, "--json"]))).unwrap();
    assert_eq!(json["ending"], "KRKN");
    assert_eq!(json["result"], "loss");
    assert_eq!(json["by_rule"], true);
    assert_eq!(json["rule"], "perpetual-check");
    assert_eq!(json["dtm"], serde_json::Value::Null);
    assert_eq!(json["moves"], serde_json::Value::Null);
    // A WDL file of format version 4 does not say which rule.
    let old = data.join("format-4/KRKN.xqwdl");
    std::fs::copy(old, dir.join("KRKN.xqwdl")).unwrap();
    let probe = stdout(&xq(&["tb", "probe", d, "--fen", fen]));
    assert!(
        probe.starts_with("KRKN, black to move: loss by the perpetual check or chase rule (WDL"),
        "{probe}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `xq analyze --tablebases`: the tables' verdict comes first, in text and in JSON, and the
/// search plays a fastest mate.
#[test]
fn analyze_reports_the_tables() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../xq-tablebase/tests/data");
    let fen = "5k3/9/3a5/9/9/9/9/9/9/R2K5 w";
    let args = ["analyze", "--fen", fen, "--tablebases", dir, "--depth", "6"];
    let out = xq(&args);
    assert!(out.status.success());
    let text = stdout(&out);
    assert!(
        text.lines()
            .any(|l| l == "tablebase win, mate in 4 (7 plies)"),
        "{text}"
    );
    let json = stdout(&xq(&[&args[..], &["--json"]].concat()));
    let lines: Vec<serde_json::Value> = json
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines[0]["type"], "tablebase");
    assert_eq!(lines[0]["wdl"], "win");
    assert_eq!(lines[0]["mate"], 4);
    assert_eq!(lines[0]["plies"], 7);
    let last = lines.last().unwrap();
    assert_eq!(last["tablebase"]["mate"], 4);
    // The root keeps only the moves that mate in 4 (the tables say which).
    let probe: serde_json::Value =
        serde_json::from_str(&stdout(&xq(&["tb", "probe", dir, "--fen", fen, "--json"]))).unwrap();
    let best = last["bestmove"].as_str().unwrap();
    let entry = probe["moves"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["move"] == best)
        .unwrap();
    assert_eq!(entry["dtm"], 7, "{best}: {entry}");

    // Without a table for the position (KCKA), no verdict; a missing directory is an error.
    let text = stdout(&xq(&[
        "analyze",
        "--fen",
        "3k5/4a4/9/9/9/9/9/9/4C4/4K4 w",
        "--tablebases",
        dir,
        "--depth",
        "2",
    ]));
    assert!(!text.contains("tablebase"), "{text}");
    let missing = xq(&[
        "analyze",
        "--tablebases",
        "/nonexistent/xq-tb",
        "--depth",
        "1",
    ]);
    assert_eq!(missing.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&missing.stderr).contains("tablebases /nonexistent/xq-tb"));
}

/// `xq annotate --tablebases`: positions in the tables are valued exactly, so a soldier
/// that steps onto the last rank (where it can no longer mate) throws the win away.
#[test]
fn annotate_values_endings_by_the_tables() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../xq-tablebase/tests/data");
    let header = "[FEN \"5k3/3P5/9/9/9/9/9/9/9/4K4 w - - 0 1\"]\n[SetUp \"1\"]\n\n";
    let pgn = format!("{header}1. d8d9 f9f8 *\n\n{header}1. e0e1 f9f8 *\n");
    let path = std::env::temp_dir().join(format!("xq-cli-tb-annotate-{}.pgn", std::process::id()));
    std::fs::write(&path, pgn).unwrap();
    let p = path.to_str().unwrap();
    let out = xq(&["annotate", p, "--json", "--depth", "1", "--tablebases", dir]);
    std::fs::remove_file(&path).unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let lines: Vec<serde_json::Value> = stdout(&out)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let moves: Vec<&serde_json::Value> = lines.iter().filter(|l| l["type"] == "move").collect();
    // d8d9: the tables' draw after a mate in 1 was there (the search at depth 1 alone
    // sees a soldier up either way).
    assert_eq!(moves[0]["move"], "d8d9");
    assert_eq!(moves[0]["best_score"], "#1");
    assert_eq!(moves[0]["score"], "0.00");
    assert_eq!(moves[0]["class"], "blunder");
    // e0e1: a slower mate (in 3 instead of 1) loses nothing; the mate's length is the
    // tables' (two more moves), beyond the search's depth.
    assert_eq!(moves[2]["move"], "e0e1");
    assert_eq!(moves[2]["score"], "#2");
    assert_eq!(moves[2]["loss"], 0);
}

/// `xq tb verify --rewrite` turns a directory of old files (format versions 1 and 2) into
/// files of the newest version (the kept files, where no rule decides anything), saying
/// each table's sizes; a second run leaves
/// them as they are (KNK and KRK hold 4,806 and 4,401 positions: with KRKA, the 29,892
/// of `gen_verify_probe`).
#[test]
fn verify_rewrites_old_files() {
    let (data, dir) = krkn_dir("rewrite", "format-1-2");
    let d = dir.to_str().unwrap();
    let out = xq(&["tb", "verify", d, "--rewrite", "--threads", "2"]);
    assert!(out.status.success());
    let kept = |name: &str| std::fs::read(data.join(format!("{name}.xqtb"))).unwrap();
    assert_eq!(
        stdout(&out),
        format!(
            "KNK: ok, 4806 positions, rewritten: 1075 -> {} bytes\n\
             KRK: ok, 4401 positions, rewritten: 634 -> {} bytes\n\
             KRKN: ok, 380325 positions, rewritten: 163105 -> {} bytes\n",
            kept("KNK").len(),
            kept("KRK").len(),
            kept("KRKN").len()
        )
    );
    for name in ["KRK", "KNK"] {
        assert!(std::fs::read(dir.join(format!("{name}.xqtb"))).unwrap() == kept(name));
    }
    // KRKN's rule results do not say which rule (version 2 did not record it), where the
    // kept file, generated, says perpetual check.
    let fen = "9/9/4k4/9/9/9/9/3n5/9/R2K5 b";
    let probe = stdout(&xq(&["tb", "probe", d, "--fen", fen]));
    assert!(
        probe.starts_with("KRKN, black to move: loss by the perpetual check or chase rule\n"),
        "{probe}"
    );
    // `xq tb gen` keeps the tables of one attacker and makes KRKN again, in version 5.
    let gen = stdout(&xq(&["tb", "gen", "KRKN", "-o", d, "--threads", "2"]));
    let lines: Vec<&str> = gen.lines().collect();
    assert!(lines[1].starts_with("KNK: already in"), "{gen}");
    assert_eq!(
        lines[3],
        "KRKN: the file there (of format version 3) does not say which rule decides its rule results, generating it again"
    );
    assert!(std::fs::read(dir.join("KRKN.xqtb")).unwrap() == kept("KRKN"));
    // Kept by the next run, its log row has the rule's counts, read from the file (KRKN's
    // row in docs/data/tablebases.csv).
    assert!(xq(&["tb", "gen", "KRKN", "-o", d]).status.success());
    let log = std::fs::read_to_string(dir.join("endings.csv")).unwrap();
    let row = log.lines().last().unwrap();
    assert!(
        row.starts_with(
            "KRKN,kept,380325,192333,609,187383,173562,39,504,18771,570,186879,1597,312,0,26,"
        ),
        "{row}"
    );
    let again = stdout(&xq(&["tb", "verify", d, "--rewrite"]));
    assert!(
        again.starts_with("KNK: ok, 4806 positions, of format version 4 or newer already\n"),
        "{again}"
    );
    // A WDL file of format version 4, which does not say which rule, is written again:
    // by `xq tb gen`, which keeps the table, and by `xq tb verify --rewrite`.
    let wdl = dir.join("KRKN.xqwdl");
    let fresh = std::fs::read(&wdl).unwrap();
    let old = data.join("format-4/KRKN.xqwdl");
    std::fs::copy(&old, &wdl).unwrap();
    let gen = stdout(&xq(&["tb", "gen", "KRKN", "-o", d]));
    let written = format!(
        "KRKN: WDL file written again to say which rule decides its rule results ({} bytes)\n",
        fresh.len()
    );
    assert!(gen.contains(&written), "{gen}");
    assert!(std::fs::read(&wdl).unwrap() == fresh);
    std::fs::copy(&old, &wdl).unwrap();
    let again = stdout(&xq(&["tb", "verify", d, "--rewrite"]));
    let line = format!(
        "KRKN: ok, 380325 positions, of format version 4 or newer already, WDL file rewritten to say the rule ({} bytes), WDL file agrees\n",
        fresh.len()
    );
    assert!(again.ends_with(&line), "{again}");
    assert!(std::fs::read(&wdl).unwrap() == fresh);
    std::fs::remove_dir_all(&dir).unwrap();
}
