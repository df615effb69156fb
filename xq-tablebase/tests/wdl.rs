//! WDL files: written from the distance tables, probed as they are, smaller, and a damaged
//! one is an error.

mod common;

use std::path::{Path, PathBuf};
use xq_core::Position;
use xq_tablebase::{
    check_wdl, read_table, rewrite_wdl, write_table, write_wdl, Ending, Rule, TableValue,
    TablebaseError, Tablebases, WdlValue,
};

/// The kept test tables (tests/data), the chariot against a horse with the rules among them.
const KEPT: [&str; 6] = ["KRK", "KCK", "KPK", "KNK", "KRKA", "KRKN"];

fn data() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data")
}

fn temp_dir(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("xq-tb-wdl-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Writes the WDL file of each kept table into `dir`; the sizes of both files.
fn write_wdl_files(dir: &Path) -> Vec<(Ending, u64, u64)> {
    KEPT.iter()
        .map(|name| {
            let e: Ending = name.parse().unwrap();
            let table = read_table(&data().join(e.file_name())).unwrap();
            let path = dir.join(e.wdl_file_name());
            let wdl = write_wdl(&table, &path, 2).unwrap();
            // Every position agrees with the table it was written from.
            assert_eq!(check_wdl(&table, &path), Ok(table.stats().positions()));
            let distance = std::fs::metadata(data().join(e.file_name())).unwrap().len();
            (e, distance, wdl)
        })
        .collect()
}

#[test]
fn wdl_files_probe_as_the_distance_files_and_are_smaller() {
    let dir = temp_dir("probe");
    let sizes = write_wdl_files(&dir);
    // Never larger (KCK, all draws, is the same size), and smaller where the distances
    // vary.
    for (e, distance, wdl) in &sizes {
        let smaller = e.to_string() != "KCK";
        assert!(
            wdl < distance || (!smaller && wdl == distance),
            "{e}: {wdl} bytes against {distance}"
        );
    }
    // Only WDL files here: the search's probe answers, the distance probe does not.
    let wdl = Tablebases::open(&dir).unwrap();
    let distance = Tablebases::open(data()).unwrap();
    assert!(wdl.endings().is_empty());
    assert_eq!(wdl.wdl_endings().len(), KEPT.len());
    let mut seen = std::collections::BTreeMap::new();
    for name in KEPT {
        for pos in xq_testkit::random_positions(name, 400, 11) {
            let v = distance.probe_dtm(&pos).unwrap().expect("in the set");
            let w = wdl.probe_wdl_value(&pos).unwrap();
            assert_eq!(w, Some(v.wdl_value()), "{pos}");
            assert_eq!(wdl.probe_wdl(&pos).unwrap(), Some(v.result()), "{pos}");
            assert_eq!(wdl.probe_dtm(&pos).unwrap(), None);
            *seen.entry(v.wdl_value()).or_insert(0) += 1;
        }
    }
    assert!(seen.len() >= 3, "{seen:?}");
    // The rules' results: the chariot wins where the horse can only check forever, and
    // the WDL file alone says so.
    let check = Some(Rule::PerpetualCheck);
    for (fen, value) in [
        (
            "9/9/4k4/9/9/9/9/9/1n7/R2K5 w",
            WdlValue::RuleWin { rule: check },
        ),
        (
            "9/9/4k4/9/9/9/9/3n5/9/R2K5 b",
            WdlValue::RuleLoss { rule: check },
        ),
    ] {
        let pos = Position::from_fen(fen).unwrap();
        assert_eq!(wdl.probe_wdl_value(&pos), Ok(Some(value)), "{fen}");
        assert_eq!(
            wdl.probe_wdl_value(&pos.color_flipped()),
            Ok(Some(value)),
            "{fen}"
        );
        assert_eq!(wdl.probe_rule(&pos), Ok(check), "{fen}");
    }
    assert_eq!(
        WdlValue::RuleWin { rule: check }.describe(),
        "tablebase win by the perpetual-check rule (no forced mate)"
    );
    // With both files, the distance probe reads the distance file.
    std::fs::copy(data().join("KRK.xqtb"), dir.join("KRK.xqtb")).unwrap();
    let both = Tablebases::open(&dir).unwrap();
    let krk = Position::from_fen("3k5/9/9/9/9/9/9/9/4R4/4K4 w").unwrap();
    assert_eq!(both.probe_dtm(&krk), Ok(Some(TableValue::Win { plies: 1 })));
    assert_eq!(both.probe_wdl_value(&krk), Ok(Some(WdlValue::Win)));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn long_mates_and_the_values_order() {
    // A mate in more than 120 plies is a long one: the 120-ply rule may come first.
    assert_eq!(TableValue::Win { plies: 119 }.wdl_value(), WdlValue::Win);
    assert_eq!(TableValue::Loss { plies: 120 }.wdl_value(), WdlValue::Loss);
    assert_eq!(
        TableValue::Win { plies: 121 }.wdl_value(),
        WdlValue::LongWin
    );
    assert_eq!(
        TableValue::Loss { plies: 122 }.wdl_value(),
        WdlValue::LongLoss
    );
    assert_eq!(TableValue::Draw.wdl_value(), WdlValue::Draw);
    let chase = Some(Rule::PerpetualChase);
    let mut all = [
        WdlValue::Win,
        WdlValue::Draw,
        WdlValue::LongLoss,
        WdlValue::RuleWin { rule: chase },
        WdlValue::Loss,
        WdlValue::LongWin,
        WdlValue::RuleLoss { rule: None },
    ];
    all.sort();
    assert_eq!(
        all,
        [
            WdlValue::Loss,
            WdlValue::RuleLoss { rule: None },
            WdlValue::LongLoss,
            WdlValue::Draw,
            WdlValue::LongWin,
            WdlValue::RuleWin { rule: chase },
            WdlValue::Win,
        ]
    );
    // Whichever the rule, a rule result ranks between a mate within the 120-ply rule and
    // a long one.
    for rule in [None, Some(Rule::PerpetualCheck), chase] {
        assert!(WdlValue::Loss < WdlValue::RuleLoss { rule });
        assert!(WdlValue::RuleLoss { rule } < WdlValue::LongLoss);
        assert!(WdlValue::LongWin < WdlValue::RuleWin { rule });
        assert!(WdlValue::RuleWin { rule } < WdlValue::Win);
        assert_eq!(WdlValue::RuleWin { rule }.rule(), rule);
        assert!(WdlValue::RuleLoss { rule }.by_rule());
    }
}

/// A WDL file of format version 4 (written before version 5, which records the rule;
/// `tests/data/format-4/KRKN.xqwdl`, the kept KRKN table's) reads with its rule results
/// not saying which rule, checks against the table as such, and `rewrite_wdl` writes it
/// again as version 5, the file `write_wdl` writes today; a file of version 5 is left.
#[test]
fn wdl_files_of_version_4_read_without_the_rule_and_are_rewritten() {
    let dir = temp_dir("v4");
    let old = data().join("format-4/KRKN.xqwdl");
    let bytes = std::fs::read(&old).unwrap();
    assert_eq!(u16::from_le_bytes([bytes[8], bytes[9]]), 4);
    let path = dir.join("KRKN.xqwdl");
    std::fs::copy(&old, &path).unwrap();
    let krkn: Ending = "KRKN".parse().unwrap();
    let table = read_table(&data().join(krkn.file_name())).unwrap();
    assert_eq!(check_wdl(&table, &path), Ok(table.stats().positions()));
    let tb = Tablebases::open(&dir).unwrap();
    assert_eq!(tb.wdl_says_the_rule(&krkn), Ok(Some(false)));
    assert_eq!(tb.wdl_says_the_rule(&"KRK".parse().unwrap()), Ok(None));
    let pos = Position::from_fen("9/9/4k4/9/9/9/9/9/1n7/R2K5 w").unwrap();
    assert_eq!(
        tb.probe_wdl_value(&pos),
        Ok(Some(WdlValue::RuleWin { rule: None }))
    );
    assert_eq!(tb.probe_rule(&pos), Ok(None));
    assert_eq!(
        WdlValue::RuleWin { rule: None }.describe(),
        "tablebase win by the perpetual check or chase rule (no forced mate)"
    );
    drop(tb);
    // Another ending's table does not overwrite the file.
    let krk = read_table(&data().join("KRK.xqtb")).unwrap();
    assert_eq!(
        rewrite_wdl(&krk, &path, 2),
        Err(TablebaseError::Corrupt {
            path: path.clone(),
            what: "ending name"
        })
    );
    assert_eq!(std::fs::read(&path).unwrap(), bytes);
    let written = rewrite_wdl(&table, &path, 2).unwrap().expect("rewritten");
    let new = std::fs::read(&path).unwrap();
    assert_eq!(written, new.len() as u64);
    assert_eq!(u16::from_le_bytes([new[8], new[9]]), 5);
    write_wdl(&table, &dir.join("fresh.xqwdl"), 2).unwrap();
    assert_eq!(new, std::fs::read(dir.join("fresh.xqwdl")).unwrap());
    assert_eq!(rewrite_wdl(&table, &path, 2), Ok(None));
    let tb = Tablebases::open(&dir).unwrap();
    assert_eq!(tb.wdl_says_the_rule(&krkn), Ok(Some(true)));
    assert_eq!(tb.probe_rule(&pos), Ok(Some(Rule::PerpetualCheck)));
    // Recording the rule costs KRKN's WDL file nothing measurable.
    assert!(
        new.len() <= bytes.len() + bytes.len() / 100,
        "{} -> {}",
        bytes.len(),
        new.len()
    );
    // A byte that says the rule is no value of a file of version 4: an error, not a guess.
    std::fs::write(&path, common::with_version(&new, 4)).unwrap();
    assert_eq!(
        Tablebases::open(&dir).unwrap().probe_wdl_value(&pos),
        Err(TablebaseError::Corrupt {
            path: path.clone(),
            what: "a WDL value"
        })
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bad_wdl_files_are_errors() {
    let dir = temp_dir("bad");
    write_wdl_files(&dir);
    let path = dir.join("KNK.xqwdl");
    let good = std::fs::read(&path).unwrap();
    let pos = Position::from_fen("3k5/9/9/9/9/9/9/9/4N4/4K4 w").unwrap();
    let probe = |bytes: &[u8]| {
        std::fs::write(&path, bytes).unwrap();
        Tablebases::open(&dir).unwrap().probe_wdl_value(&pos)
    };
    assert_eq!(probe(&good), Ok(Some(WdlValue::Win)));
    assert_eq!(
        probe(&good[..good.len() - 3]),
        Err(TablebaseError::Truncated {
            path: path.clone(),
            expected: good.len() as u64,
            found: good.len() as u64 - 3
        })
    );
    let damaged = |at: usize| {
        let mut b = good.clone();
        b[at] ^= 0x40;
        probe(&b).unwrap_err()
    };
    let corrupt = |what| TablebaseError::Corrupt {
        path: path.clone(),
        what,
    };
    assert_eq!(damaged(0), TablebaseError::NotATable(path.clone()));
    assert_eq!(damaged(20), corrupt("header checksum"));
    let blocks = u32::from_le_bytes(good[40..44].try_into().unwrap()) as usize;
    assert_eq!(damaged(128 + 12 * blocks + 5), corrupt("block data"));
    std::fs::write(&path, &good).unwrap();
    // A WDL file is no distance table, and the other way round.
    let knk = read_table(&data().join("KNK.xqtb")).unwrap();
    let renamed = dir.join("KNK.xqtb");
    std::fs::copy(&path, &renamed).unwrap();
    assert_eq!(
        read_table(&renamed).unwrap_err(),
        TablebaseError::Corrupt {
            path: renamed.clone(),
            what: "the kind of file (a WDL file where a distance file was wanted)"
        }
    );
    write_table(&knk, &renamed, 1).unwrap();
    assert_eq!(
        check_wdl(&knk, &renamed).unwrap_err(),
        TablebaseError::Corrupt {
            path: renamed.clone(),
            what: "the kind of file (a distance file where a WDL file was wanted)"
        }
    );
    // Another ending's WDL file.
    assert_eq!(
        check_wdl(&knk, &dir.join("KRK.xqwdl")).unwrap_err(),
        TablebaseError::Corrupt {
            path: dir.join("KRK.xqwdl"),
            what: "ending name"
        }
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
