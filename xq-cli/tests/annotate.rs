//! `xq annotate`: the PGN it writes reads back with a comment after every move, a known
//! blunder is marked, JSON lines parse, games keep their order across threads, real
//! files work, errors name the file.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use xq_records::pgn::{self, ReadOptions};
use xq_records::Record;

const GAMES: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../xq-records/tests/data/games"
);

/// Red leaves its chariot where Black's takes it (ply 1), Black takes (ply 2).
const BLUNDER: &str = r#"[Event "Blunder"]
[Red "R"]
[Black "B"]
[FEN "3k4r/9/9/9/9/9/9/9/R8/4K4 w - - 0 1"]

1. a1i1 {the chariot goes} i9i1 2. e0f0 *
"#;

/// A second, longer game: an ordinary opening.
const OPENING: &str = r#"[Event "Opening"]

1. h2e2 h9g7 2. h0g2 i9h9 3. i0h0 b9c7 *
"#;

fn xq(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_xq"))
        .args(args)
        .output()
        .expect("the xq binary runs")
}

fn scratch(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("xq-annotate-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn write(dir: &Path, name: &str, text: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path.to_str().unwrap().to_string()
}

fn stdout(o: &Output) -> String {
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8(o.stdout.clone()).unwrap()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn games(text: &str) -> Vec<Record> {
    pgn::read_str(text).unwrap()
}

#[test]
fn a_hanging_chariot_is_a_blunder() {
    let dir = scratch("blunder");
    let input = write(&dir, "blunder.pgn", BLUNDER);
    let out = stdout(&xq(&[
        "annotate",
        &input,
        "--depth",
        "6",
        "--notation",
        "iccs",
    ]));
    let g = games(&out);
    assert_eq!(g.len(), 1);
    let game = &g[0];
    assert_eq!(game.main_line().len(), 3);
    assert_eq!(
        game.tag("Annotator"),
        Some(concat!("xq ", env!("CARGO_PKG_VERSION")))
    );
    let nodes = &game.main.nodes;
    for n in nodes {
        assert!(n.comment.as_deref().is_some_and(|c| !c.is_empty()), "{n:?}");
    }
    // The chariot left en prise: `??` (NAG 4), the loss named, and a better move.
    assert_eq!(nodes[0].nags, [4]);
    let c0 = nodes[0].comment.as_deref().unwrap();
    assert!(c0.starts_with("the chariot goes\nBlunder (-"), "{c0}");
    assert!(c0.contains(". Best "), "{c0}");
    // Taking it is the engine's move: no glyph, no "Best".
    assert!(nodes[1].nags.is_empty());
    let c1 = nodes[1].comment.as_deref().unwrap();
    assert!(!c1.contains("Best"), "{c1}");
    // From Red's side, Black is winning after the capture.
    assert!(c1.starts_with('-') || c1.starts_with("#-"), "{c1}");
    let summary = game.main.comment.as_deref().unwrap();
    assert!(
        summary.starts_with("xq annotate (depth 6): Red average loss "),
        "{summary}"
    );
    assert!(
        summary.contains(
            ", 1 blunder; Black average loss 0 cp, 0 inaccuracies, 0 mistakes, 0 blunders."
        ),
        "{summary}"
    );
}

#[test]
fn json_has_one_object_per_move_and_a_summary() {
    let dir = scratch("json");
    let input = write(&dir, "two.pgn", &format!("{BLUNDER}\n{OPENING}"));
    let out = stdout(&xq(&["annotate", &input, "--nodes", "3000", "--json"]));
    let objects: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    // 3 moves and a summary, then 6 moves and a summary.
    assert_eq!(objects.len(), 3 + 1 + 6 + 1);
    let kinds: Vec<&str> = objects
        .iter()
        .map(|o| o["type"].as_str().unwrap())
        .collect();
    assert_eq!(kinds[3], "summary");
    assert_eq!(kinds[10], "summary");
    assert_eq!(kinds.iter().filter(|k| **k == "move").count(), 9);
    let first = &objects[0];
    assert_eq!(first["game"], 1);
    assert_eq!(first["ply"], 1);
    assert_eq!(first["side"], "red");
    assert_eq!(first["move"], "a1i1");
    assert_eq!(first["notation"], "车九平一");
    assert_eq!(first["class"], "blunder");
    assert!(first["loss"].as_i64().unwrap() >= 200, "{first}");
    assert_ne!(first["best"], "a1i1");
    for o in &objects[..3] {
        for key in [
            "best",
            "best_notation",
            "score",
            "cp",
            "best_score",
            "best_cp",
            "loss",
            "depth",
            "pv",
            "best_pv",
        ] {
            assert!(!o[key].is_null(), "{key} in {o}");
        }
    }
    assert_eq!(objects[3]["red"]["blunders"], 1);
    assert_eq!(objects[3]["red"]["moves"], 2);
    assert_eq!(objects[3]["black"]["moves"], 1);
    assert_eq!(objects[4]["game"], 2);
    assert_eq!(objects[4]["move"], "h2e2");
}

#[test]
fn games_keep_their_order_and_results_do_not_depend_on_threads() {
    let dir = scratch("threads");
    let text = format!("{OPENING}\n{BLUNDER}\n{OPENING}");
    let input = write(&dir, "three.pgn", &text);
    let one = stdout(&xq(&[
        "annotate",
        &input,
        "--nodes",
        "2000",
        "--threads",
        "1",
    ]));
    let three = stdout(&xq(&[
        "annotate",
        &input,
        "--nodes",
        "2000",
        "--threads",
        "3",
    ]));
    assert_eq!(one, three);
    let events: Vec<String> = games(&one)
        .iter()
        .map(|g| g.tag("Event").unwrap().to_string())
        .collect();
    assert_eq!(events, ["Opening", "Blunder", "Opening"]);
}

#[test]
fn real_files_read_back_with_their_moves() {
    let dir = scratch("real");
    for name in ["ccgc2006-01.pgn", "sample.xqf"] {
        let input = format!("{GAMES}/{name}");
        let output = dir.join(format!("{name}.annotated.pgn"));
        let svg = dir.join("svg");
        let o = xq(&[
            "annotate",
            &input,
            "--nodes",
            "1500",
            "--threads",
            "2",
            "-o",
            output.to_str().unwrap(),
            "--svg",
            svg.to_str().unwrap(),
        ]);
        assert!(o.status.success(), "{name}: {}", stderr(&o));
        assert!(o.stdout.is_empty());
        let annotated = pgn::read(&std::fs::read(&output).unwrap(), &ReadOptions::default())
            .unwrap()
            .remove(0);
        let bytes = std::fs::read(&input).unwrap();
        let original = if name.ends_with(".xqf") {
            xq_records::xqf::read(&bytes).unwrap()
        } else {
            pgn::read(&bytes, &ReadOptions::default())
                .unwrap()
                .remove(0)
        };
        assert_eq!(annotated.main_line(), original.main_line(), "{name}");
        assert_eq!(annotated.start, original.start, "{name}");
        assert!(
            annotated.main.nodes.iter().all(|n| n.comment.is_some()),
            "{name}"
        );
        let stem = name.split('.').next().unwrap();
        let graph = std::fs::read_to_string(svg.join(format!("{stem}-1.svg"))).unwrap();
        assert!(
            graph.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""),
            "{graph}"
        );
        assert!(graph.contains("<polyline"), "{graph}");
        assert!(graph.trim_end().ends_with("</svg>"));
    }
}

#[test]
fn the_graph_marks_the_blunder() {
    let dir = scratch("svg");
    let input = write(&dir, "blunder.pgn", BLUNDER);
    let svg = dir.join("graphs");
    let o = xq(&[
        "annotate",
        &input,
        "--depth",
        "6",
        "--svg",
        svg.to_str().unwrap(),
    ]);
    stdout(&o);
    let graph = std::fs::read_to_string(svg.join("blunder-1.svg")).unwrap();
    assert!(graph.contains("<title>R - B</title>"), "{graph}");
    assert_eq!(graph.matches("<circle").count(), 1, "{graph}");
    assert!(graph.contains("1 a1i1: blunder"), "{graph}");
}

#[test]
fn errors_name_the_file() {
    let dir = scratch("errors");
    let missing = dir.join("missing.pgn");
    let o = xq(&["annotate", missing.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(o.stdout.is_empty());
    assert!(
        stderr(&o).starts_with(&format!("xq: cannot read {}: ", missing.display())),
        "{}",
        stderr(&o)
    );
    let bad = write(&dir, "bad.pgn", "[Event \"x\"]\n\n1. h2e2 h2e2 *\n");
    let o = xq(&["annotate", &bad, "--depth", "1"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(o.stdout.is_empty());
    assert_eq!(
        stderr(&o),
        format!("xq: {bad}: game 1, line 3, ply 2: illegal move h2e2: no piece of the side to move on h2\n")
    );
    // One limit at a time.
    let o = xq(&["annotate", &bad, "--depth", "1", "--nodes", "5"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("cannot be used with"), "{}", stderr(&o));
}

/// The chances the model gives `side` for a score as the comments and JSON write it
/// (Red's view: `+0.35`, `-1.20`, `#3`, `#-2`; `#0` when Red has mated, `#-0` Black),
/// at `material`.
fn wdl_for(text: &str, side: &str, material: u32) -> xq_search::wdl::Wdl {
    use xq_search::wdl::Wdl;
    let red = side == "red";
    if let Some(mate) = text.strip_prefix('#') {
        let red_mates = !mate.starts_with('-');
        return if red_mates == red {
            Wdl {
                win: 1000,
                draw: 0,
                loss: 0,
            }
        } else {
            Wdl {
                win: 0,
                draw: 0,
                loss: 1000,
            }
        };
    }
    let cp = (text.parse::<f64>().unwrap() * 100.0).round() as i32;
    let cp = if red { cp } else { -cp };
    xq_search::wdl::MODEL.wdl(xq_search::Score::Cp(cp), material)
}

#[test]
fn by_wdl_the_loss_is_the_expected_result_lost() {
    let dir = scratch("wdl");
    let input = write(&dir, "two.pgn", &format!("{BLUNDER}\n{OPENING}"));
    let out = stdout(&xq(&[
        "annotate", &input, "--nodes", "3000", "--json", "--by", "wdl",
    ]));
    let objects: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(objects.len(), 3 + 1 + 6 + 1);
    let records = games(&format!("{BLUNDER}\n{OPENING}"));
    for o in &objects {
        if o["type"] == "summary" {
            assert_eq!(o["by"], "wdl");
            continue;
        }
        // The position after the move: its material prices the played score.
        let record = &records[o["game"].as_u64().unwrap() as usize - 1];
        let ply = o["ply"].as_u64().unwrap() as usize;
        let mut pos = record.start.clone();
        for m in &record.main_line()[..ply] {
            pos.make_move(*m);
        }
        let side = o["side"].as_str().unwrap();
        let w = wdl_for(
            o["score"].as_str().unwrap(),
            side,
            xq_search::wdl::material(&pos),
        );
        assert_eq!(o["wdl"], serde_json::json!([w.win, w.draw, w.loss]), "{o}");
        assert_eq!(o["expected"], w.expected(), "{o}");
        let loss = o["loss"].as_i64().unwrap();
        let lost = o["best_expected"].as_i64().unwrap() - o["expected"].as_i64().unwrap();
        if o["best"] == o["move"] {
            assert_eq!(loss, 0, "{o}");
        } else {
            assert_eq!(loss, lost.max(0), "{o}");
        }
        let class = match loss {
            l if l >= 150 => Some("blunder"),
            l if l >= 100 => Some("mistake"),
            l if l >= 50 => Some("inaccuracy"),
            _ => None,
        };
        assert_eq!(o["class"].as_str(), class, "{o}");
    }
    // Leaving the chariot to be taken loses most of the result.
    assert_eq!(objects[0]["class"], "blunder");
    assert!(
        objects[0]["loss"].as_i64().unwrap() >= 300,
        "{}",
        objects[0]
    );
    // The PGN says the loss in points of the expected result.
    let out = stdout(&xq(&[
        "annotate",
        &input,
        "--nodes",
        "3000",
        "--by",
        "wdl",
        "--notation",
        "iccs",
    ]));
    let g = games(&out);
    let c0 = g[0].main.nodes[0].comment.as_deref().unwrap();
    assert!(c0.starts_with("the chariot goes\nBlunder (-"), "{c0}");
    assert!(c0.contains("%). "), "{c0}");
    let summary = g[0].main.comment.as_deref().unwrap();
    assert!(summary.contains("‰ of the result, "), "{summary}");
    // By centipawns (the default) the summary says so.
    let out = stdout(&xq(&["annotate", &input, "--nodes", "3000", "--json"]));
    let last: serde_json::Value = serde_json::from_str(out.lines().last().unwrap()).unwrap();
    assert_eq!(last["by"], "cp");
}
