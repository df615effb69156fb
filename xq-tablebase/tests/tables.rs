//! Generating, verifying, writing and probing small tables.

mod common;

use std::path::{Path, PathBuf};
use xq_core::{PieceKind, Position, Square};
use xq_tablebase::log::Record;
use xq_tablebase::{
    generate, read_table, rewrite_table, verify, write_table, Ending, Rule, Table, TableResult,
    TableValue, TablebaseError, Tablebases,
};

/// Generates `names` in order (each after the tables its captures need), with `threads`.
fn tables(names: &[&str], threads: usize) -> Vec<Table> {
    let mut done: Vec<Table> = Vec::new();
    for name in names {
        let e: Ending = name.parse().unwrap();
        let subs: Vec<&Table> = done.iter().collect();
        let t = generate(&e, &subs, threads, &|_| {}).unwrap();
        done.push(t);
    }
    done
}

fn temp_dir(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("xq-tb-test-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

const SMALL: [&str; 5] = ["KRK", "KCK", "KPK", "KNK", "KRKA"];

#[test]
fn small_endings_verify_and_match_theory() {
    let all = tables(&SMALL, 2);
    for (i, t) in all.iter().enumerate() {
        let subs: Vec<&Table> = all[..i].iter().collect();
        let checked = verify(t, &subs, 2, &|_| {}).unwrap();
        assert_eq!(checked, t.stats().positions(), "{}", t.ending());
    }
    // (losses, draws, wins) with the attacking side to move, then the defending side;
    // the longest mate. Every legal position is counted once (mirror images folded):
    // KRK's 1917 with Red to move are also counted by brute force in the index's tests.
    let expect: [([[u64; 3]; 2], u16); 5] = [
        // A chariot mates a bare general from everywhere, within 4 plies; the general to
        // move draws only by taking the chariot.
        ([[0, 0, 1917], [2430, 54, 0]], 4),
        // A cannon alone never mates a bare general.
        ([[0, 2484, 0], [0, 2484, 0]], 0),
        // A soldier wins unless it has reached the last rank (or is taken).
        ([[0, 216, 1215], [1257, 273, 0]], 20),
        // A horse alone beats a bare general, from every position with it to move.
        ([[0, 0, 2322], [2430, 54, 0]], 14),
        // A chariot beats a general with one advisor.
        ([[0, 0, 9264], [11055, 366, 0]], 10),
    ];
    for (t, (counts, longest)) in all.iter().zip(expect) {
        let s = t.stats();
        assert_eq!((s.counts, s.longest), (counts, longest), "{}", t.ending());
    }
    // The same tables with one thread.
    for (a, b) in all.iter().zip(tables(&SMALL, 1)) {
        assert_eq!(a.stats(), b.stats());
    }
}

#[test]
fn a_missing_subtable_is_an_error() {
    let krka: Ending = "KRKA".parse().unwrap();
    assert_eq!(
        generate(&krka, &[], 1, &|_| {}).unwrap_err(),
        TablebaseError::MissingTable("KRK".parse().unwrap())
    );
}

fn write_all(all: &[Table], dir: &Path) {
    for t in all {
        write_table(t, &dir.join(t.ending().file_name()), 2).unwrap();
    }
}

#[test]
fn files_probe_as_the_tables_in_memory() {
    let all = tables(&["KRK", "KRKA", "KNK"], 2);
    let dir = temp_dir("probe");
    write_all(&all, &dir);
    let tb = Tablebases::open(&dir).unwrap();
    assert_eq!(tb.max_pieces(), 4);
    assert_eq!(
        tb.endings()
            .iter()
            .map(|e| e.to_string())
            .collect::<Vec<_>>(),
        ["KNK", "KRK", "KRKA"]
    );
    // Every table reads back as written.
    for t in &all {
        let back = read_table(&dir.join(t.ending().file_name())).unwrap();
        assert_eq!(back.stats(), t.stats());
    }
    let mut seen = [0usize; 3];
    for name in ["KRKA", "KNK"] {
        for pos in xq_testkit::random_positions(name, 300, 7) {
            let v = tb.probe_dtm(&pos).unwrap().expect("in the set");
            seen[v.result() as usize] += 1;
            assert_eq!(tb.probe_wdl(&pos).unwrap(), Some(v.result()));
            // The colour-flipped position has the same value.
            assert_eq!(tb.probe_dtm(&pos.color_flipped()).unwrap(), Some(v));
            // The best move's value is the position's.
            let moves = tb.root_moves(&pos).unwrap().expect("every move in the set");
            match moves.first() {
                Some((_, best)) => assert_eq!(*best, v, "{pos}"),
                None => assert_eq!(v, TableValue::Loss { plies: 0 }),
            }
        }
    }
    assert!(seen.iter().all(|&n| n > 10), "{seen:?}");
    // Outside the set.
    assert_eq!(tb.probe_wdl(&Position::startpos()).unwrap(), None);
    let kcka = Position::from_fen("3k5/4a4/9/9/9/9/9/9/4C4/4K4 w").unwrap();
    assert_eq!(tb.probe_wdl(&kcka).unwrap(), None);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn known_positions() {
    let all = tables(&["KPK", "KRK", "KRKA"], 1);
    let dir = temp_dir("known");
    write_all(&all, &dir);
    let tb = Tablebases::open(&dir).unwrap();
    let probe = |fen: &str| tb.probe_dtm(&Position::from_fen(fen).unwrap()).unwrap();
    // A soldier that has crossed the river beats a bare general...
    assert_eq!(
        probe("4k4/9/9/9/4P4/9/9/9/9/3K5 w").map(|v| v.result()),
        Some(TableResult::Win)
    );
    // ...but not once it has reached the last rank.
    assert_eq!(probe("P3k4/9/9/9/9/9/9/9/9/3K5 w"), Some(TableValue::Draw));
    // Stalemate loses: the black general on d9 has no move once the chariot takes e8.
    let moves = tb
        .root_moves(&Position::from_fen("3k5/4a4/9/9/9/9/9/9/4R4/4K4 w").unwrap())
        .unwrap()
        .unwrap();
    assert_eq!(moves[0].0.to_string(), "e1e8");
    assert_eq!(moves[0].1, TableValue::Win { plies: 1 });
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bad_files_are_errors() {
    let all = tables(&["KRK", "KNK"], 1);
    let dir = temp_dir("bad");
    write_all(&all, &dir);
    let path = dir.join("KNK.xqtb");
    let good = std::fs::read(&path).unwrap();
    let pos = Position::from_fen("3k5/9/9/9/9/9/9/9/4N4/4K4 w").unwrap();
    let probe = |bytes: &[u8]| {
        std::fs::write(&path, bytes).unwrap();
        // A fresh open: files are opened on first use.
        Tablebases::open(&dir).unwrap().probe_wdl(&pos)
    };
    assert_eq!(probe(&good), Ok(Some(TableResult::Win)));
    // Cut short.
    let err = probe(&good[..good.len() - 10]).unwrap_err();
    assert_eq!(
        err,
        TablebaseError::Truncated {
            path: path.clone(),
            expected: good.len() as u64,
            found: good.len() as u64 - 10
        }
    );
    assert!(probe(&good[..50])
        .unwrap_err()
        .to_string()
        .contains("truncated"));
    // Not a table at all.
    assert_eq!(
        probe(&[b'x'; 200]).unwrap_err(),
        TablebaseError::NotATable(path.clone())
    );
    // A damaged header, version, block table, block.
    let damaged = |at: usize| {
        let mut b = good.clone();
        b[at] ^= 0x40;
        probe(&b).unwrap_err()
    };
    let corrupt = |what| TablebaseError::Corrupt {
        path: path.clone(),
        what,
    };
    assert_eq!(damaged(20), corrupt("header checksum"));
    assert_eq!(
        damaged(8),
        TablebaseError::UnsupportedVersion {
            path: path.clone(),
            version: 0x45
        }
    );
    assert_eq!(damaged(130), corrupt("block table checksum"));
    // A byte of the first block, which holds the position probed.
    let blocks = u32::from_le_bytes(good[40..44].try_into().unwrap()) as usize;
    assert_eq!(damaged(128 + 12 * blocks + 5), corrupt("block data"));
    // A table that still opens answers for the other file.
    let tb = Tablebases::open(&dir).unwrap();
    let krk = Position::from_fen("3k5/9/9/9/9/9/9/9/4R4/4K4 w").unwrap();
    assert_eq!(tb.probe_wdl(&krk), Ok(Some(TableResult::Win)));
    assert!(tb.probe_wdl(&pos).is_err());
    // No directory.
    assert!(matches!(
        Tablebases::open(dir.join("none")),
        Err(TablebaseError::Io { .. })
    ));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Share of wins with the attacking side to move.
fn won_share(t: &Table) -> f64 {
    let s = t.stats();
    s.counts[0][2] as f64 / s.counts[0].iter().sum::<u64>() as f64
}

#[test]
fn a_chariot_beats_two_advisors_but_not_the_full_defence() {
    let names = [
        "KRK", "KRKA", "KRKB", "KRKAA", "KRKAB", "KRKBB", "KRKAAB", "KRKABB", "KRKAABB",
    ];
    let all = tables(&names, 2);
    let by = |n: &str| all.iter().find(|t| t.ending().to_string() == n).unwrap();
    // With anything less than the full defence, every position with the chariot to
    // move is won.
    for t in &all[..all.len() - 1] {
        assert_eq!(won_share(t), 1.0, "{}", t.ending());
    }
    let krkaa = by("KRKAA").stats();
    assert_eq!(
        (krkaa.counts, krkaa.longest),
        ([[0, 0, 17583], [20235, 654, 0]], 20)
    );
    // Against both advisors and both elephants 18% of the positions with the chariot
    // to move are draws, among them the defence at home.
    let full = by("KRKAABB");
    let s = full.stats();
    assert_eq!(
        (s.counts, s.longest),
        ([[0, 64719, 295047], [216351, 204192, 0]], 64)
    );
    let home = Position::from_fen("2bakab2/9/9/9/9/9/9/9/9/R2K5 w").unwrap();
    assert_eq!(full.probe(&home), Some(TableValue::Draw));
    assert_eq!(full.probe(&home.color_flipped()), Some(TableValue::Draw));
    let subs: Vec<&Table> = all[..all.len() - 1].iter().collect();
    verify(full, &subs, 2, &|_| {}).unwrap();
}

/// The small tables kept in the repository (read by the Python tests too) are what this
/// version generates, byte for byte: the format and the index have not moved.
#[test]
fn the_kept_tables_are_current() {
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data");
    let all = tables(&["KRK", "KRKA", "KNK", "KPK", "KCK", "KRKN"], 2);
    let dir = temp_dir("kept");
    write_all(&all, &dir);
    for t in &all {
        let name = t.ending().file_name();
        let kept = std::fs::read(data.join(&name)).unwrap();
        assert_eq!(kept, std::fs::read(dir.join(&name)).unwrap(), "{name}");
    }
    let tb = Tablebases::open(&data).unwrap();
    tb.check_headers().unwrap();
    assert_eq!(tb.endings().len(), 6);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Files of versions 1 and 2 (DEFLATE, 4,096 values a block, 0 at broken numbers, as
/// builds before version 3 wrote them) read as the same tables as the files of version 3
/// kept beside them: every code, the broken numbers' zeros included.
#[test]
fn files_of_versions_1_and_2_still_read() {
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data");
    let old = data.join("format-1-2");
    let mut versions = Vec::new();
    for name in ["KCK", "KNK", "KPK", "KRK", "KRKA", "KRKN"] {
        let file = format!("{name}.xqtb");
        let bytes = std::fs::read(old.join(&file)).unwrap();
        versions.push(u16::from_le_bytes([bytes[8], bytes[9]]));
        let before = read_table(&old.join(&file)).unwrap();
        let v3 = read_table(&data.join("format-3").join(&file)).unwrap();
        assert!(before == v3, "{name}");
        assert!(before.stats().broken > 0, "{name}");
    }
    assert_eq!(versions, [1, 1, 1, 1, 1, 2]);
    let tb = Tablebases::open(&old).unwrap();
    tb.check_headers().unwrap();
    let krkn = Position::from_fen("3k5/9/9/9/9/9/9/4n4/4R4/4K4 w").unwrap();
    assert_eq!(
        tb.probe_dtm(&krkn).unwrap(),
        Tablebases::open(&data).unwrap().probe_dtm(&krkn).unwrap()
    );
}

/// Files of version 3 read as the tables of version 4, except that a rule result does
/// not say which rule decides it (`rule: None`); the others, where no rule decides
/// anything, are the same tables code for code.
#[test]
fn files_of_version_3_read_without_the_rule() {
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data");
    for name in ["KCK", "KNK", "KPK", "KRK", "KRKA", "KRKN"] {
        let file = format!("{name}.xqtb");
        let bytes = std::fs::read(data.join("format-3").join(&file)).unwrap();
        assert_eq!(u16::from_le_bytes([bytes[8], bytes[9]]), 3, "{name}");
        let v3 = read_table(&data.join("format-3").join(&file)).unwrap();
        let v4 = read_table(&data.join(&file)).unwrap();
        // KRKN's rule results do not say which rule; the others have none to say.
        assert_eq!(v3.chase_decided(), None, "{name}");
        assert_eq!(v3.rule_decided(), v4.rule_decided(), "{name}");
        if name != "KRKN" {
            assert!(v3 == v4, "{name}");
        }
    }
    let old = Tablebases::open(data.join("format-3")).unwrap();
    let new = Tablebases::open(&data).unwrap();
    let ending: Ending = "KRKN".parse().unwrap();
    // The row of a kept file counts its rule results, read a block at a time, with or
    // without their rule: 1,597 numbers, 312 of them rule wins (docs/data/tablebases.csv);
    // which rule, a file of version 3 does not say.
    for (tables, dir, chase) in [
        (&old, data.join("format-3"), None),
        (&new, data.clone(), Some(0)),
    ] {
        let (stats, bytes) = tables.stats(&ending).unwrap().unwrap();
        let row = Record::kept_in(&dir, &stats, bytes).unwrap();
        assert_eq!(
            (row.rule_decided, row.rule_wins, row.chase_decided),
            (Some(1597), Some(312), chase)
        );
    }
    assert_eq!(old.says_the_rule(&ending), Ok(Some(false)));
    assert_eq!(new.says_the_rule(&ending), Ok(Some(true)));
    // A table where one side alone attacks has no rule result to say anything of.
    assert_eq!(old.says_the_rule(&"KRKA".parse().unwrap()), Ok(Some(true)));
    // The chariot wins by the rule against the horse's checks (see tests/rule.rs).
    let pos = Position::from_fen("9/9/4k4/9/9/9/9/9/1n7/R2K5 w").unwrap();
    let (was, is) = (old.probe_dtm(&pos).unwrap(), new.probe_dtm(&pos).unwrap());
    assert_eq!(was, Some(TableValue::RuleWin { rule: None }));
    assert_eq!(
        is,
        Some(TableValue::RuleWin {
            rule: Some(Rule::PerpetualCheck)
        })
    );
    assert_eq!(
        was.unwrap().to_string(),
        "win by the perpetual check or chase rule"
    );
    assert_eq!(is.unwrap().to_string(), "win by the perpetual-check rule");
    // Every value of the two files agrees but for the rule.
    let strip = |v: TableValue| match v {
        TableValue::RuleWin { .. } => TableValue::RuleWin { rule: None },
        TableValue::RuleLoss { .. } => TableValue::RuleLoss { rule: None },
        v => v,
    };
    let (a, b) = (
        read_table(&data.join("format-3/KRKN.xqtb")).unwrap(),
        read_table(&data.join("KRKN.xqtb")).unwrap(),
    );
    let mut rule = 0;
    for pos in krkn_positions() {
        let (x, y) = (a.probe(&pos), b.probe(&pos));
        assert_eq!(x, y.map(strip), "{pos}");
        rule += usize::from(y.is_some_and(|v| v.rule() == Some(Rule::PerpetualCheck)));
    }
    assert!(rule > 0);
}

/// The legal positions of KRKN (both sides to move) with the generals on three squares
/// each: enough to meet many rule results, few enough for a debug build.
fn krkn_positions() -> Vec<Position> {
    let squares = |names: [&str; 3]| names.map(|n| n.parse::<Square>().unwrap());
    let (red, black) = (squares(["d0", "e0", "e1"]), squares(["d9", "e9", "e8"]));
    common::positions(&red, &black, PieceKind::Chariot, PieceKind::Horse)
}

/// `rewrite_table` turns each file of versions 1 to 3 into a file of version 5: of an
/// ending where no rule decides anything, the very file that the kept set holds (version
/// 1 and 2 files shrink); KRKN's file of version 2 and of version 3 into the same file,
/// whose rule results still do not say which rule. A second rewrite leaves it alone, as
/// it leaves a file of version 4 (the same distance file but for the number).
#[test]
fn old_files_are_rewritten_as_new_ones() {
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data");
    let dir = temp_dir("rewrite");
    for name in ["KCK", "KNK", "KPK", "KRK", "KRKA", "KRKN"] {
        let file = format!("{name}.xqtb");
        let mut rewritten = Vec::new();
        for old in ["format-1-2", "format-3"] {
            std::fs::copy(data.join(old).join(&file), dir.join(&file)).unwrap();
            let (before, after) = rewrite_table(&dir.join(&file), 2).unwrap().unwrap();
            let bytes = std::fs::read(dir.join(&file)).unwrap();
            assert_eq!(u16::from_le_bytes([bytes[8], bytes[9]]), 5, "{name}");
            assert_eq!(after, bytes.len() as u64);
            if old == "format-1-2" {
                assert!(after < before, "{name}: {before} -> {after}");
            }
            assert_eq!(rewrite_table(&dir.join(&file), 2).unwrap(), None);
            rewritten.push(bytes);
        }
        assert_eq!(rewritten[0], rewritten[1], "{name}");
        let kept = std::fs::read(data.join(&file)).unwrap();
        assert_eq!(rewritten[0] == kept, name != "KRKN", "{name}");
    }
    let tb = Tablebases::open(&dir).unwrap();
    let pos = Position::from_fen("9/9/4k4/9/9/9/9/9/1n7/R2K5 w").unwrap();
    assert_eq!(
        tb.probe_dtm(&pos).unwrap(),
        Some(TableValue::RuleWin { rule: None })
    );
    let krkn: Ending = "KRKN".parse().unwrap();
    assert_eq!(tb.says_the_rule(&krkn), Ok(Some(false)));
    // Only the tables are left: no temporary file.
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 6);
    // A distance file of version 4 is left as it is.
    let v4 = common::with_version(&std::fs::read(data.join("KRK.xqtb")).unwrap(), 4);
    std::fs::write(dir.join("KRK.xqtb"), &v4).unwrap();
    assert_eq!(rewrite_table(&dir.join("KRK.xqtb"), 2), Ok(None));
    assert!(
        read_table(&dir.join("KRK.xqtb")).unwrap() == read_table(&data.join("KRK.xqtb")).unwrap()
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The start positions of the tables-on-against-off matches (tools/tb-starts.txt and
/// tools/tb-starts-long.txt, made by `examples/starts.rs`): each a quiet position of a
/// phase-1 ending with Red attacking, Red to move in the wins and Black in the draws, five
/// of each an ending, but no draws in the two endings without quiet ones.
#[test]
fn the_match_starts_are_quiet_positions_of_the_set() {
    for (file, endings) in [
        (include_str!("../../tools/tb-starts.txt"), 12),
        (include_str!("../../tools/tb-starts-long.txt"), 13),
        (include_str!("../../tools/tb-starts-both.txt"), 10),
    ] {
        let mut per_ending = std::collections::BTreeMap::<String, (usize, usize)>::new();
        for line in file.lines() {
            if line.starts_with('#') {
                continue;
            }
            let fen = line.strip_prefix("fen ").expect("a `fen` line");
            let pos = Position::from_fen(fen).unwrap();
            let (ending, strong) = Ending::of_position(&pos).expect("an ending of the set");
            assert!(ending.is_phase1() || ending.both_attack(), "{fen}");
            assert_eq!(strong, xq_core::Color::Red, "{fen}");
            assert!(!pos.is_check(), "{fen}");
            let moves = xq_movegen::legal_moves(&pos);
            assert!(
                moves.iter().all(|m| pos.piece_on(m.to()).is_none()),
                "{fen}"
            );
            let count = per_ending.entry(ending.to_string()).or_default();
            match pos.side_to_move() {
                xq_core::Color::Red => count.0 += 1,
                xq_core::Color::Black => count.1 += 1,
            }
        }
        assert_eq!(per_ending.len(), endings);
        for (name, count) in &per_ending {
            let expected = if name == "KRAKABB" || name == "KRKABB" {
                (5, 0)
            } else {
                (5, 5)
            };
            assert_eq!(*count, expected, "{name}");
        }
    }
}

/// Composed positions (`Ignore::PLAYABLE`) can have a piece on a square no game brings
/// it to: the index has no number for them, so they are not in the tables, and no probe
/// panics on them.
#[test]
fn positions_no_game_reaches_are_not_in_the_tables() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data");
    let tb = Tablebases::open(&dir).unwrap();
    let composed = |fen: &str| Position::from_fen_with(fen, xq_core::Ignore::PLAYABLE).unwrap();
    for fen in [
        // A soldier on its own back rank (KPK).
        "3k5/9/9/9/9/9/9/9/9/4KP3 w",
        "3k5/9/9/9/9/9/9/9/9/4KP3 b",
        // A soldier beside its starting points, on its own side of the river.
        "3k5/9/9/9/9/9/1P7/9/9/4K4 w",
        // An advisor off its five points (KRKA).
        "a2k5/9/9/9/9/9/9/9/4R4/4K4 w",
        // An elephant off its seven points, the attacking side Black (KNK has none:
        // not covered at all).
        "4k4/9/9/9/4n4/9/9/9/9/3K1B3 w",
    ] {
        let pos = composed(fen);
        assert!(!pos.irregularities().is_empty(), "{fen}");
        assert_eq!(tb.probe_wdl(&pos), Ok(None), "{fen}");
        assert_eq!(tb.probe_dtm(&pos), Ok(None), "{fen}");
        assert_eq!(tb.probe_dtm(&pos.color_flipped()), Ok(None), "{fen}");
        assert_eq!(tb.root_moves(&pos), Ok(None), "{fen}");
    }
    // The same soldier one step on, over the river, is in KPK's table.
    let over = composed("3k5/9/9/9/5P3/9/9/9/9/4K4 w");
    assert!(over.irregularities().is_empty());
    assert!(tb.probe_dtm(&over).unwrap().is_some());
}
