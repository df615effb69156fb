//! `xq datagen` and `xq tune` through the binary: reproducible data, its format, and a
//! tuning run that rewrites a copy of the parameter file.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn xq(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_xq"))
        .args(args)
        .output()
        .expect("the xq binary runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).unwrap()
}

/// A fresh directory for one test.
fn dir(test: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("xq-tuning-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// `xq datagen` with small games; the data written to `out` (or standard output).
fn datagen(seed: &str, threads: &str, out: Option<&Path>) -> (Output, String) {
    let mut args = vec![
        "datagen",
        "--games",
        "3",
        "--nodes",
        "300",
        "--random-plies",
        "6",
        "--max-plies",
        "60",
        "--seed",
        seed,
        "--threads",
        threads,
    ];
    let path;
    if let Some(p) = out {
        path = p.to_str().unwrap().to_string();
        args.extend(["-o", &path]);
    }
    let o = xq(&args);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let data = match out {
        Some(p) => std::fs::read_to_string(p).unwrap(),
        None => text(&o.stdout),
    };
    (o, data)
}

#[test]
fn datagen_is_reproducible_whatever_the_threads() {
    let d = dir("datagen");
    let (o, one) = datagen("5", "1", Some(&d.join("one.txt")));
    let (_, two) = datagen("5", "2", Some(&d.join("two.txt")));
    let (_, again) = datagen("5", "3", None);
    let (_, other) = datagen("6", "1", None);
    assert!(!one.is_empty());
    assert_eq!(one, two);
    assert_eq!(one, again);
    assert_ne!(one, other);
    // The summary goes to standard output when the data goes to a file.
    let summary = text(&o.stdout);
    let n = one.lines().count();
    assert!(
        summary.starts_with(&format!("3 games, {n} positions; Red won ")),
        "{summary}"
    );
    // Every line is a quiet position, not in check, with a score and the game's result.
    for line in one.lines() {
        let r = xq_train::text::parse_sample(line)
            .unwrap_or_else(|e| panic!("{line}: {e}"))
            .expect("no blank line");
        assert!(!r.pos.is_check(), "{line}");
        assert!([0.0, 0.5, 1.0].contains(&r.result), "{line}");
        assert!(r.score.abs() < 20_000, "{line}");
        assert_eq!(
            xq_train::text::format_sample(&r.pos, r.score, r.result),
            line
        );
    }
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn tune_fits_and_rewrites_a_parameter_file() {
    let d = dir("tune");
    let params = d.join("params.rs");
    let original = include_str!("../../xq-eval/src/params.rs");
    std::fs::write(&params, original).unwrap();
    let sample = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../xq-train/tests/data/tune-sample.txt"
    );
    let o = xq(&[
        "tune",
        sample,
        "--epochs",
        "3",
        "--batch",
        "512",
        "--lr",
        "2",
        "--freeze",
        "material",
        "--write",
        "--params",
        params.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let out = text(&o.stdout);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines[0], "3973 positions: 3576 to fit, 397 held out",
        "{out}"
    );
    assert!(lines[1].starts_with("K = "), "{out}");
    assert_eq!(
        lines[2].split_whitespace().collect::<Vec<_>>(),
        ["epoch", "train", "held-out"]
    );
    // Epochs 0 to 3, the held-out error falling.
    let held: Vec<f64> = lines[3..7]
        .iter()
        .map(|l| l.split_whitespace().nth(2).unwrap().parse().unwrap())
        .collect();
    assert!(held.windows(2).all(|w| w[1] < w[0]), "{out}");
    assert!(lines[7].starts_with("best held-out error"), "{out}");
    assert!(lines[8].starts_with("weights changed: tempo 1, "), "{out}");
    assert!(!lines[8].contains("material"), "{out}");
    assert_eq!(
        lines[9],
        format!("wrote the weights of epoch 3 to {}", params.display())
    );
    // The file keeps everything outside the generated block, material included.
    let written = std::fs::read_to_string(&params).unwrap();
    assert_ne!(written, original);
    assert_eq!(written.lines().count(), original.lines().count());
    // The material line (frozen) is the one after its comment, whatever the weights are.
    let material_line = |s: &str| {
        let lines: Vec<&str> = s.lines().collect();
        let at = lines
            .iter()
            .position(|l| l.trim_start().starts_with("// material:"))
            .expect("the generated block names the material row");
        lines[at + 1].to_string()
    };
    assert!(material_line(original).starts_with("    S(0, 0), S("));
    assert_eq!(material_line(&written), material_line(original));
    let head = |s: &str| s[..s.find("// @generated-begin").unwrap()].to_string();
    assert_eq!(head(&written), head(original));
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn tune_errors_name_the_file_and_line() {
    let d = dir("errors");
    let bad = d.join("bad.txt");
    std::fs::write(
        &bad,
        "4k4/9/9/9/9/9/9/9/4R4/3K5 b - - 0 1 | 12 | 1.0\n4k4/9/9/9/9/9/9/9/4R4/3K5 b | 12 | 2\n",
    )
    .unwrap();
    let o = xq(&["tune", bad.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        text(&o.stderr),
        format!(
            "xq: {}:2: bad result `2`: expected 1.0, 0.5 or 0.0\n",
            bad.display()
        )
    );
    let o = xq(&["tune", bad.to_str().unwrap(), "--freeze", "queen"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o.stderr).starts_with("xq: no term `queen`; the terms are tempo, material, "));
    let o = xq(&[
        "tune",
        bad.to_str().unwrap(),
        "--write",
        "--params",
        d.join("none.rs").to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o.stderr).starts_with("xq: cannot read "),
        "{}",
        text(&o.stderr)
    );
    let o = xq(&["datagen", "--games", "1", "--threads", "0"]);
    assert_eq!(o.status.code(), Some(2));
    let _ = std::fs::remove_dir_all(&d);
}
