//! The neural evaluation from the outside: network files given to the engine (UCI,
//! UCCI, the command line), `xq train` on the committed sample, `xq datagen --format
//! binary`.

mod common;

use common::*;
use std::path::{Path, PathBuf};
use xq_core::Position;
use xq_eval::nnue::Network;
use xq_train::binary;
use xq_train::selfplay::NO_SCORE;

fn temp(test: &str) -> PathBuf {
    common::scratch("nnue", test)
}

/// A small network with seeded weights, written to `dir`.
fn seeded_net(dir: &Path) -> PathBuf {
    let path = dir.join("seeded.nnue");
    std::fs::write(&path, Network::seeded(32, 5).to_bytes()).unwrap();
    path
}

/// The score of the last `info depth` line of a search.
fn last_score(lines: &[String]) -> String {
    let line = lines
        .iter()
        .rev()
        .find(|l| l.starts_with("info depth"))
        .expect("an info line");
    let words: Vec<&str> = line.split_whitespace().collect();
    let i = words.iter().position(|w| *w == "score").unwrap();
    format!("{} {}", words[i + 1], words[i + 2])
}

const OPEN: &str = "position startpos moves h2e2 h9g7 h0g2 i9h9";

#[test]
fn uci_loads_a_network_and_switches_between_evaluations() {
    let dir = temp("uci");
    let net = seeded_net(&dir);
    let mut e = Engine::start(&["uci"]);
    e.send("uci");
    let lines = e.until("uciok", T);
    assert!(lines.contains(&"option name Use NNUE type check default true".to_string()));
    assert!(lines.contains(&"option name EvalFile type string default <built-in>".to_string()));

    e.send(OPEN);
    e.send("setoption name Use NNUE value false");
    let (_, lines) = e.go("depth 1");
    let classical = last_score(&lines);

    e.send(&format!("setoption name EvalFile value {}", net.display()));
    let lines = e.until("info string", T);
    assert_eq!(
        lines,
        [format!(
            "info string network {} loaded (32 hidden units)",
            net.display()
        )]
    );
    // Still off: the network waits for `Use NNUE`.
    let (_, lines) = e.go("depth 1");
    assert_eq!(last_score(&lines), classical);
    e.send("setoption name Use NNUE value true");
    let (best, lines) = e.go("depth 1");
    let seeded = last_score(&lines);
    assert_ne!(
        seeded, classical,
        "the seeded network scores as the classical one"
    );
    let pos =
        xq_movegen::Game::from_fen_moves(xq_core::START_FEN, &["h2e2", "h9g7", "h0g2", "i9h9"])
            .unwrap()
            .position()
            .clone();
    assert!(legal(&pos, &best));
    // The same network gives the same score again (a new game clears the table).
    e.send("ucinewgame");
    let (_, lines) = e.go("depth 1");
    assert_eq!(last_score(&lines), seeded);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn bad_network_files_are_refused_and_the_evaluation_kept() {
    let dir = temp("bad");
    let good = seeded_net(&dir);
    let bytes = std::fs::read(&good).unwrap();
    let mut damaged = bytes.clone();
    damaged[100] ^= 1;
    std::fs::write(dir.join("damaged.nnue"), &damaged).unwrap();
    std::fs::write(dir.join("short.nnue"), &bytes[..1000]).unwrap();
    std::fs::write(dir.join("text.nnue"), "not a network").unwrap();

    let mut e = Engine::uci();
    e.send(OPEN);
    e.send(&format!("setoption name EvalFile value {}", good.display()));
    e.until("info string network", T);
    let (_, lines) = e.go("depth 1");
    let seeded = last_score(&lines);
    for (file, reason) in [
        (
            "damaged.nnue",
            "network file damaged (checksum mismatch)".to_string(),
        ),
        (
            "short.nnue",
            format!(
                "network file of 1000 bytes, its header says {}",
                bytes.len()
            ),
        ),
        (
            "text.nnue",
            "not an xq network file (no XQNN magic)".to_string(),
        ),
    ] {
        let path = dir.join(file);
        e.send(&format!("setoption name EvalFile value {}", path.display()));
        let lines = e.until("info string", T);
        assert_eq!(lines.len(), 1);
        assert!(
            lines[0].contains(&format!(
                "cannot load the network {}: {reason}; the evaluation is unchanged",
                path.display()
            )),
            "{lines:?}"
        );
    }
    e.send("setoption name EvalFile value /no/such/file.nnue");
    let lines = e.until("info string", T);
    assert!(
        lines[0].contains("cannot load the network /no/such/file.nnue: "),
        "{lines:?}"
    );
    // The good network is still the evaluation.
    e.send("ucinewgame");
    let (_, lines) = e.go("depth 1");
    assert_eq!(last_score(&lines), seeded);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn ucci_has_the_same_two_options() {
    let dir = temp("ucci");
    let net = seeded_net(&dir);
    let mut e = Engine::start(&["ucci"]);
    e.send("ucci");
    let lines = e.until("ucciok", T);
    assert!(lines.contains(&"option usennue type check default true".to_string()));
    assert!(lines.contains(&"option evalfile type string default <built-in>".to_string()));
    e.send(OPEN);
    e.send("setoption usennue false");
    e.send("go depth 1");
    let classical = e.until("bestmove", T);
    e.send(&format!("setoption evalfile {}", net.display()));
    e.until("info string network", T);
    e.send("setoption usennue true");
    e.send("go depth 1");
    let seeded = e.until("bestmove", T);
    let score = |lines: &[String]| {
        lines
            .iter()
            .find(|l| l.starts_with("info depth 1 score"))
            .cloned()
            .expect("a depth 1 line")
    };
    assert_ne!(score(&classical), score(&seeded));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn the_command_line_takes_a_network_file() {
    let dir = temp("cli");
    let net = seeded_net(&dir);
    let net_arg = net.to_str().unwrap();
    let bench = |extra: &[&str]| {
        let mut args = vec!["bench", "3"];
        args.extend_from_slice(extra);
        let out = xq(&args);
        assert!(out.status.success(), "{out:?}");
        String::from_utf8(out.stdout)
            .unwrap()
            .split_whitespace()
            .next()
            .unwrap()
            .to_string()
    };
    // A different evaluation searches a different tree.
    assert_ne!(bench(&["--eval-file", net_arg]), bench(&["--classical"]));
    assert_eq!(
        bench(&["--eval-file", net_arg]),
        bench(&["--eval-file", net_arg])
    );
    let out = xq(&["analyze", "--depth", "2", "--eval-file", "/no/such.nnue"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.starts_with("xq: cannot load the network /no/such.nnue: "),
        "{err}"
    );
    let out = xq(&[
        "analyze",
        "--depth",
        "2",
        "--eval-file",
        net_arg,
        "--classical",
    ]);
    assert_eq!(out.status.code(), Some(2), "the two conflict");
    std::fs::remove_dir_all(&dir).ok();
}

/// The held-out losses `xq train` prints, epoch by epoch.
fn held_out_losses(stdout: &str) -> Vec<f64> {
    stdout
        .lines()
        .filter(|l| l.starts_with("epoch "))
        .map(|l| {
            let at = l.find("held-out loss ").expect("a held-out loss") + "held-out loss ".len();
            l[at..].split_whitespace().next().unwrap().parse().unwrap()
        })
        .collect()
}

#[test]
fn train_lowers_the_held_out_loss_and_is_reproducible() {
    let dir = temp("train");
    let data = concat!(env!("CARGO_MANIFEST_DIR"), "/../data/nnue-sample.txt");
    // Four epochs of a 16-wide network, each epoch's network kept in `ck`, with `more`.
    let train = |out: &Path, more: &[&str]| {
        let ck = dir.join("ck");
        let mut args = vec![
            "train",
            data,
            "--hidden",
            "16",
            "--epochs",
            "4",
            "--batch",
            "256",
            "--lr",
            "0.01",
            "--holdout",
            "0.2",
            "--checkpoints",
            ck.to_str().unwrap(),
            "-o",
            out.to_str().unwrap(),
        ];
        args.extend_from_slice(more);
        let o = xq(&args);
        assert!(o.status.success(), "{o:?}");
        String::from_utf8(o.stdout).unwrap()
    };
    let a = dir.join("a.nnue");
    let stdout = train(&a, &["--threads", "1"]);
    assert!(
        stdout.starts_with("3000 positions of 1305 games ("),
        "the sample's positions and games: {stdout}"
    );
    let losses = held_out_losses(&stdout);
    assert_eq!(losses.len(), 5, "epoch 0 and four epochs: {stdout}");
    assert!(
        losses[4] < losses[0] * 0.9,
        "the held-out loss falls: {losses:?}"
    );
    let net = Network::from_bytes(&std::fs::read(&a).unwrap()).unwrap();
    assert_eq!(net.hidden(), 16);
    for epoch in 1..=4 {
        assert!(dir.join(format!("ck/epoch-{epoch}.nnue")).exists());
    }
    assert_eq!(
        std::fs::read(dir.join("ck/epoch-4.nnue")).unwrap(),
        std::fs::read(&a).unwrap()
    );
    // The same network with two threads.
    let b = dir.join("b.nnue");
    train(&b, &["--threads", "2"]);
    assert_eq!(std::fs::read(&a).unwrap(), std::fs::read(&b).unwrap());
    // The weight decay is AdamW's 0.01 unless given: the same network with it named,
    // another without any.
    for (decay, same) in [("0.01", true), ("0", false)] {
        let d = dir.join(format!("decay-{decay}.nnue"));
        train(&d, &["--weight-decay", decay]);
        let equal = std::fs::read(&a).unwrap() == std::fs::read(&d).unwrap();
        assert_eq!(equal, same, "--weight-decay {decay}");
    }

    // No epoch: the start scored on the same held-out games, and written unchanged.
    let scored = dir.join("scored.nnue");
    let o = xq(&[
        "train",
        data,
        "--init",
        a.to_str().unwrap(),
        "--epochs",
        "0",
        "--holdout",
        "0.2",
        "-o",
        scored.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{o:?}");
    let stdout = String::from_utf8(o.stdout).unwrap();
    let scores = held_out_losses(&stdout);
    assert_eq!(scores.len(), 1, "the epoch-0 line only: {stdout}");
    assert!(
        (scores[0] - losses[4]).abs() < losses[4] * 0.02,
        "the trained network's loss, quantised: {scores:?} against {losses:?}"
    );
    assert_eq!(std::fs::read(&a).unwrap(), std::fs::read(&scored).unwrap());

    // With the mirrors: twice the positions of the same games, a position held out with
    // its mirror (an even count on each side).
    let o = xq(&[
        "train",
        data,
        "--mirror",
        "--hidden",
        "16",
        "--epochs",
        "1",
        "-o",
        "/dev/null",
    ]);
    assert!(o.status.success(), "{o:?}");
    let first = String::from_utf8(o.stdout).unwrap();
    let first = first.lines().next().unwrap().to_string();
    assert!(
        first.starts_with("6000 positions of 1305 games ("),
        "{first}"
    );
    let counts: Vec<usize> = first
        .split(['(', ' '])
        .filter_map(|w| w.parse().ok())
        .collect();
    assert_eq!(counts.len(), 4, "{first}");
    assert_eq!(counts[2] + counts[3], 6000, "{first}");
    assert!(
        counts[2] % 2 == 0 && counts[3] % 2 == 0 && counts[3] > 0,
        "{first}"
    );

    // Output buckets, from the one-bucket network: a version-2 file of 8 buckets,
    // which in turn starts the next run without `--buckets`.
    let c = dir.join("c.nnue");
    let o = xq(&[
        "train",
        data,
        "--init",
        a.to_str().unwrap(),
        "--buckets",
        "8",
        "--epochs",
        "1",
        "-o",
        c.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{o:?}");
    let stdout = String::from_utf8(o.stdout).unwrap();
    assert!(
        stdout.contains("width 16, 8 output buckets, K = "),
        "{stdout}"
    );
    let bytes = std::fs::read(&c).unwrap();
    assert_eq!(
        u16::from_le_bytes([bytes[4], bytes[5]]),
        2,
        "format version 2"
    );
    let net = Network::from_bytes(&bytes).unwrap();
    assert_eq!((net.hidden(), net.buckets()), (16, 8));
    let o = xq(&[
        "train",
        data,
        "--init",
        c.to_str().unwrap(),
        "--epochs",
        "1",
        "-o",
        "/dev/null",
    ]);
    assert!(o.status.success(), "{o:?}");
    assert!(String::from_utf8(o.stdout)
        .unwrap()
        .contains("width 16, 8 output buckets, K = "));

    // Six general buckets with shared rows, from the one-set network: the file has the
    // six sets (the shared rows added to each), 16 wide.
    let g = dir.join("g.nnue");
    let o = xq(&[
        "train",
        data,
        "--init",
        a.to_str().unwrap(),
        "--general-buckets",
        "6",
        "--shared-rows",
        "--epochs",
        "1",
        "-o",
        g.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{o:?}");
    let net = Network::from_bytes(&std::fs::read(&g).unwrap()).unwrap();
    assert_eq!((net.hidden(), net.general_buckets()), (16, 6));

    // Folded, from the one-set network: six equal sets, which start six buckets (the
    // file's own count) or go on folded.
    let f = dir.join("f.nnue");
    let fold = |init: &Path, more: &[&str], out: &Path| {
        let mut all = vec!["train", data, "--init", init.to_str().unwrap()];
        all.extend_from_slice(more);
        all.extend_from_slice(&["--epochs", "1", "--batch", "256", "--lr", "0.01"]);
        all.extend_from_slice(&["-o", out.to_str().unwrap()]);
        let o = xq(&all);
        assert!(o.status.success(), "{o:?}");
        Network::from_bytes(&std::fs::read(out).unwrap()).unwrap()
    };
    let net = fold(&a, &["--fold"], &f);
    assert!(net.folded() && net.general_buckets() == 6);
    assert!(fold(&f, &["--fold"], &dir.join("f2.nnue")).folded());
    let six = fold(&f, &[], &dir.join("f6.nnue"));
    assert!(six.general_buckets() == 6 && !six.folded());

    // A second layer 8 wide on the one-set network: version 4, and as wide when the
    // file starts another run.
    let l = dir.join("l.nnue");
    let o = xq(&[
        "train",
        data,
        "--init",
        a.to_str().unwrap(),
        "--second-layer",
        "8",
        "--epochs",
        "1",
        "-o",
        l.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{o:?}");
    assert!(String::from_utf8(o.stdout)
        .unwrap()
        .contains("width 16, a second layer 8 wide, K = "));
    let bytes = std::fs::read(&l).unwrap();
    assert_eq!(
        u16::from_le_bytes([bytes[4], bytes[5]]),
        4,
        "format version 4"
    );
    let net = Network::from_bytes(&bytes).unwrap();
    assert_eq!((net.hidden(), net.second_layer()), (16, 8));

    // Bad arguments are refused with the reason.
    for (args, message) in [
        (
            vec!["--hidden", "20"],
            "xq: width 20: a multiple of 16 from 16 to 512",
        ),
        (vec!["--wdl", "2"], "xq: --wdl 2 is not between 0 and 1"),
        (
            vec!["--weight-decay", "1.5"],
            "xq: --weight-decay 1.5 is not in [0, 1)",
        ),
        (
            vec!["--weight-decay=-0.01"],
            "xq: --weight-decay -0.01 is not in [0, 1)",
        ),
        (
            vec!["--weight-decay", "NaN"],
            "xq: --weight-decay NaN is not in [0, 1)",
        ),
        (
            vec!["--init", a.to_str().unwrap(), "--hidden", "32"],
            "xq: width 32, but the start network is 16 wide",
        ),
        (vec!["--buckets", "9"], "xq: 9 output buckets: from 1 to 8"),
        (
            vec!["--shared-rows"],
            "xq: shared rows need 6 general buckets",
        ),
        (vec!["--buckets", "0"], "xq: 0 output buckets: from 1 to 8"),
        (
            vec!["--second-layer", "12"],
            "xq: a second layer 12 wide: 0 or a multiple of 8 up to 32",
        ),
        (
            vec!["--init", l.to_str().unwrap(), "--second-layer", "16"],
            "xq: a second layer 16 wide, but the start network has one 8 wide",
        ),
        (
            vec!["--init", c.to_str().unwrap(), "--buckets", "4"],
            "xq: 4 output buckets, but the start network has 8",
        ),
        (
            vec!["--init", g.to_str().unwrap(), "--general-buckets", "1"],
            "xq: general buckets 1: 1 or 6, and not fewer than the start network's 6",
        ),
        (
            vec!["--init", g.to_str().unwrap(), "--fold"],
            "xq: a fold is one set of rows, from a start network of one or of 6 folded ones",
        ),
    ] {
        let mut all = vec!["train", data, "-o", "/dev/null"];
        all.extend_from_slice(&args);
        let o = xq(&all);
        assert_eq!(o.status.code(), Some(2));
        assert_eq!(String::from_utf8_lossy(&o.stderr).trim(), message);
    }
    let bad = dir.join("bad.txt");
    std::fs::write(&bad, "4k4/9/9/9/9/9/9/9/4R4/3K5 b | 12 | 1.0\nnonsense\n").unwrap();
    let o = xq(&["train", bad.to_str().unwrap(), "-o", "/dev/null"]);
    assert_eq!(
        String::from_utf8_lossy(&o.stderr).trim(),
        format!(
            "xq: {}:2: expected 3 fields `FEN | score | result`, found 1",
            bad.display()
        )
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn datagen_binary_holds_the_text_positions() {
    let dir = temp("datagen");
    let (text, bin) = (dir.join("d.txt"), dir.join("d.bin"));
    for (format, out) in [("text", &text), ("binary", &bin)] {
        let o = xq(&[
            "datagen",
            "--games",
            "3",
            "--nodes",
            "400",
            "--seed",
            "7",
            "--threads",
            "2",
            "--format",
            format,
            "-o",
            out.to_str().unwrap(),
        ]);
        assert!(o.status.success(), "{o:?}");
    }
    let games = binary::read(&std::fs::read(&bin).unwrap()).unwrap();
    assert_eq!(games.len(), 3);
    // The positions a text file keeps, taken from the binary games.
    let mut from_binary = Vec::new();
    for game in &games {
        assert_eq!(game.start, Position::startpos());
        // The random opening plies are not searched.
        assert!(game.plies[..8].iter().all(|&(_, s)| s == NO_SCORE));
        let red = match game.result {
            xq_movegen::GameResult::RedWins => 1.0,
            xq_movegen::GameResult::Draw => 0.5,
            xq_movegen::GameResult::BlackWins => 0.0,
        };
        for (pos, score) in game.quiet_positions() {
            let red_score = i32::from(score) * pos.side_to_move().sign();
            from_binary.push(xq_train::text::format_sample(&pos, red_score, red));
        }
    }
    let text_path = text;
    let text = std::fs::read_to_string(&text_path).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines.len() > 50, "{}", lines.len());
    assert_eq!(lines, from_binary);
    // Binary data is not written to a terminal, and `xq train` reads it.
    let o = xq(&[
        "train",
        bin.to_str().unwrap(),
        "--hidden",
        "16",
        "--epochs",
        "1",
        "--holdout",
        "0",
        "-o",
        dir.join("n.nnue").to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{o:?}");
    let stdout = String::from_utf8(o.stdout).unwrap();
    // Scores beyond 3000 are not trained on.
    let trained = lines
        .iter()
        .filter(|l| {
            l.split('|')
                .nth(1)
                .unwrap()
                .trim()
                .parse::<i32>()
                .unwrap()
                .abs()
                <= 3000
        })
        .count();
    assert!(
        stdout.starts_with(&format!(
            "{trained} positions of 3 games ({trained} trained, 0 held out)"
        )),
        "{stdout}"
    );
    // `xq tune-wdl` reads it too, and fits the model the text lines give (the binary
    // file knows where each game starts; the text's games are guessed from the move
    // numbers, so nothing is held out here).
    let fit = |file: &Path| {
        let o = xq(&["tune-wdl", file.to_str().unwrap(), "--holdout", "0"]);
        assert!(o.status.success(), "{o:?}");
        String::from_utf8(o.stdout).unwrap()
    };
    let (from_text, from_bin) = (fit(&text_path), fit(&bin));
    // The model's lines alone: the lines after them say how long the fit took.
    let model = |out: &str| {
        let lines: Vec<&str> = out
            .lines()
            .filter(|l| l.starts_with("a ") || l.starts_with("b "))
            .collect();
        assert_eq!(lines.len(), 2, "{out}");
        lines.join("\n")
    };
    assert_eq!(model(&from_bin), model(&from_text));
    assert!(
        from_bin.starts_with(&format!("{} positions of 3 games", lines.len())),
        "{from_bin}"
    );
    std::fs::remove_dir_all(&dir).ok();
}
