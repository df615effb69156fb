//! `xq convert`: real files in, PGN out in each notation and encoding; errors name the
//! file and the place.

use std::path::PathBuf;
use std::process::{Command, Output};
use xq_records::pgn::{self, Encoding, ReadOptions};
use xq_records::Record;

const GAMES: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../xq-records/tests/data/games"
);

fn xq(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_xq"))
        .args(args)
        .output()
        .expect("the xq binary runs")
}

fn data(name: &str) -> String {
    format!("{GAMES}/{name}")
}

/// A fresh scratch directory for one test.
fn scratch(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("xq-convert-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// The games of PGN output.
fn games(bytes: &[u8]) -> Vec<Record> {
    pgn::read(bytes, &ReadOptions::default()).unwrap()
}

fn original(name: &str) -> Record {
    let bytes = std::fs::read(data(name)).unwrap();
    if name.ends_with(".xqf") {
        xq_records::xqf::read(&bytes).unwrap()
    } else {
        games(&bytes).remove(0)
    }
}

#[test]
fn gbk_pgn_to_each_notation() {
    let name = "ccgc2006-01.pgn";
    for (notation, format, first) in [
        ("chinese", "Chinese", "1. 炮八平五 马2进3"),
        ("chinese-traditional", "Chinese", "1. 炮八平五 馬2進3"),
        ("wxf", "WXF", "1. C8=5 H2+3"),
        ("iccs", "ICCS", "1. b2e2 b9c7"),
    ] {
        let o = xq(&["convert", &data(name), "--notation", notation]);
        assert!(o.status.success(), "{}", stderr(&o));
        let text = String::from_utf8(o.stdout.clone()).expect("UTF-8 output");
        assert!(text.contains(&format!("[Format \"{format}\"]\n")), "{text}");
        assert!(text.contains(&format!("\n{first}\n")), "{notation}: {text}");
        assert!(text.contains("[Red \"宝岛一号\"]\n"));
        assert!(text.ends_with("\nhttps://www.xqbase.com/\n"), "{text}");
        assert_eq!(games(&o.stdout), [original(name)], "{notation}");
    }
}

#[test]
fn xqf_to_a_file_and_gbk_output() {
    let dir = scratch("xqf");
    let out = dir.join("sample.pgn");
    let out_name = out.to_str().unwrap();
    let o = xq(&["convert", &data("sample.xqf"), "-o", out_name]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(o.stdout.is_empty());
    let written = std::fs::read(&out).unwrap();
    let game = games(&written).remove(0);
    assert_eq!(game, original("sample.xqf"));
    assert!(game.main.nodes[1].comment.is_some());

    let gbk = dir.join("sample-gbk.pgn");
    let o = xq(&[
        "convert",
        &data("sample.xqf"),
        "--encoding",
        "gbk",
        "--output",
        gbk.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let bytes = std::fs::read(&gbk).unwrap();
    assert!(
        std::str::from_utf8(&bytes).is_err(),
        "GBK output is not UTF-8"
    );
    let (text, found) = pgn::decode(&bytes, Encoding::Auto).unwrap();
    assert_eq!(found, Encoding::Gbk);
    assert_eq!(text.as_bytes(), &written[..]);

    // GBK read back as such, and forced.
    let o = xq(&[
        "convert",
        gbk.to_str().unwrap(),
        "--input-encoding",
        "gbk",
        "--notation",
        "iccs",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(games(&o.stdout), [original("sample.xqf")]);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn errors_name_the_file_and_the_place() {
    let dir = scratch("errors");
    // An illegal move at ply 5, line 16.
    let text = pgn::decode(
        &std::fs::read(data("ccgc2006-01.pgn")).unwrap(),
        Encoding::Gbk,
    )
    .unwrap()
    .0
    .replacen("3. 车九平八", "3. 车九平七", 1);
    let bad = dir.join("bad.pgn");
    std::fs::write(&bad, text).unwrap();
    let o = xq(&["convert", bad.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(o.stdout.is_empty());
    assert_eq!(
        stderr(&o),
        format!(
            "xq: {}: game 1, line 16, ply 5: '车九平七': illegal move a0c0: the piece on a0 \
             cannot move there\n",
            bad.display()
        )
    );

    // A truncated XQF.
    let sample = std::fs::read(data("sample.xqf")).unwrap();
    let cut = dir.join("cut.xqf");
    std::fs::write(&cut, &sample[..2000]).unwrap();
    let o = xq(&["convert", cut.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        stderr(&o),
        format!(
            "xq: {}: offset 1999, ply 16: the file is cut short: 4 bytes needed, 1 left\n",
            cut.display()
        )
    );

    // Forced UTF-8 on a GBK file.
    let o = xq(&[
        "convert",
        &data("ccgc2006-01.pgn"),
        "--input-encoding",
        "utf-8",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).ends_with("ccgc2006-01.pgn: line 5: the bytes are not valid utf-8\n"),
        "{}",
        stderr(&o)
    );

    // No game, no file, an unknown notation name.
    let empty = dir.join("empty.pgn");
    std::fs::write(&empty, "\n").unwrap();
    let o = xq(&["convert", empty.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        stderr(&o),
        format!("xq: {}: no game in the file\n", empty.display())
    );
    let missing = dir.join("missing.pgn");
    let o = xq(&["convert", missing.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).starts_with(&format!("xq: cannot read {}: ", missing.display())),
        "{}",
        stderr(&o)
    );
    let o = xq(&["convert", &data("ccgc2006-01.pgn"), "--notation", "klingon"]);
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains("invalid value 'klingon'"),
        "{}",
        stderr(&o)
    );
    let _ = std::fs::remove_dir_all(&dir);
}
