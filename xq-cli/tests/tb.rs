//! `xq tb`: generating, verifying and probing tables from the command line.

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
    // Again: the tables are kept.
    let again = stdout(&xq(&["tb", "gen", "KRKA", "-o", d]));
    assert!(again.contains("KRKA: already in"), "{again}");

    let verify = xq(&["tb", "verify", d]);
    assert!(verify.status.success());
    assert_eq!(
        stdout(&verify),
        "KNK: ok, 4806 positions\nKRK: ok, 4401 positions\nKRKA: ok, 20685 positions\n"
    );

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
