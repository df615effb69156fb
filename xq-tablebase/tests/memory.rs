//! Tables given as the bytes of their files (what a web page that fetches them has):
//! probed as the same files in a directory, and bad bytes or names are errors.

use std::path::{Path, PathBuf};
use xq_core::Position;
use xq_tablebase::{read_table, write_wdl, Ending, TablebaseError, Tablebases};

/// The kept test tables (tests/data), the chariot against a horse with the rules among them.
const KEPT: [&str; 6] = ["KRK", "KCK", "KPK", "KNK", "KRKA", "KRKN"];

fn data() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data")
}

#[test]
fn tables_in_memory_probe_as_the_files_in_a_directory() {
    let dir = std::env::temp_dir().join(format!("xq-tb-memory-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let files = Tablebases::open(data()).unwrap();
    let mut memory = Tablebases::in_memory();
    assert_eq!(memory.max_pieces(), 0);
    for name in KEPT {
        let e: Ending = name.parse().unwrap();
        let distance = std::fs::read(data().join(e.file_name())).unwrap();
        assert_eq!(memory.add_file(&e.file_name(), distance), Ok(e));
        // The WDL file of the same table.
        let wdl = dir.join(e.wdl_file_name());
        write_wdl(&read_table(&data().join(e.file_name())).unwrap(), &wdl, 1).unwrap();
        let bytes = std::fs::read(&wdl).unwrap();
        assert_eq!(memory.add_file(&e.wdl_file_name(), bytes), Ok(e));
    }
    assert_eq!(memory.endings(), files.endings());
    assert_eq!(memory.wdl_endings(), files.endings());
    assert_eq!(memory.max_pieces(), 4);
    assert_eq!(memory.dir(), Path::new(""));
    let mut rule_results = 0;
    for name in KEPT {
        for pos in xq_testkit::random_positions(name, 300, 5) {
            let dtm = files.probe_dtm(&pos).unwrap();
            assert_eq!(
                memory.probe_dtm(&pos).unwrap(),
                dtm,
                "{name} {}",
                pos.to_fen()
            );
            let wdl = memory.probe_wdl_value(&pos).unwrap();
            assert_eq!(wdl, dtm.map(|v| v.wdl_value()), "{name} {}", pos.to_fen());
            rule_results += usize::from(dtm.is_some_and(|v| v.by_rule()));
            assert_eq!(memory.root_moves(&pos), files.root_moves(&pos));
        }
    }
    assert!(rule_results > 0);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bad_bytes_and_names_are_errors() {
    let mut tb = Tablebases::in_memory();
    let good = std::fs::read(data().join("KNK.xqtb")).unwrap();
    let name = |n: &str| PathBuf::from(n);
    assert_eq!(
        tb.add_file("KNK.txt", good.clone()),
        Err(TablebaseError::NotATable(name("KNK.txt")))
    );
    assert_eq!(
        tb.add_file("KNK.xqtb", good[..good.len() - 1].to_vec()),
        Err(TablebaseError::Truncated {
            path: name("KNK.xqtb"),
            expected: good.len() as u64,
            found: good.len() as u64 - 1
        })
    );
    assert_eq!(
        tb.add_file("KNK.xqtb", good[..100].to_vec()),
        Err(TablebaseError::Truncated {
            path: name("KNK.xqtb"),
            expected: 128,
            found: 100
        })
    );
    assert_eq!(
        tb.add_file(
            "KNK.xqtb",
            b"not a table file at all, though long enough".repeat(4)
        ),
        Err(TablebaseError::NotATable(name("KNK.xqtb")))
    );
    assert_eq!(
        tb.add_file("KRK.xqtb", good.clone()),
        Err(TablebaseError::Corrupt {
            path: name("KRK.xqtb"),
            what: "ending name differs from the file's name"
        })
    );
    assert_eq!(
        tb.add_file("KNK.xqwdl", good.clone()),
        Err(TablebaseError::Corrupt {
            path: name("KNK.xqwdl"),
            what: "the kind of file (a distance file where a WDL file was wanted)"
        })
    );
    // Nothing bad was kept; a damaged block is found when it is read.
    assert!(tb.endings().is_empty() && tb.wdl_endings().is_empty());
    let mut damaged = good.clone();
    let blocks = u32::from_le_bytes(good[40..44].try_into().unwrap()) as usize;
    damaged[128 + 12 * blocks + 5] ^= 0x40;
    assert_eq!(tb.add_file("KNK.xqtb", damaged), Ok("KNK".parse().unwrap()));
    // Each probe is the right answer or an error: a damaged first block is an error
    // for the positions it holds.
    let files = Tablebases::open(data()).unwrap();
    let mut errors = 0;
    for pos in xq_testkit::random_positions("KNK", 500, 9) {
        match tb.probe_dtm(&pos) {
            Ok(v) => assert_eq!(v, files.probe_dtm(&pos).unwrap()),
            Err(e) => {
                assert_eq!(
                    e,
                    TablebaseError::Corrupt {
                        path: name("KNK.xqtb"),
                        what: "block data"
                    }
                );
                errors += 1;
            }
        }
    }
    assert!(errors > 0);
}

#[test]
fn a_wdl_file_named_as_a_distance_file_is_an_error_not_an_answer() {
    // A WDL file's one-byte values read as distances would be wrong answers.
    let dir = std::env::temp_dir().join(format!("xq-tb-misnamed-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let knk = read_table(&data().join("KNK.xqtb")).unwrap();
    let path = dir.join("KNK.xqtb");
    write_wdl(&knk, &path, 1).unwrap();
    let pos = Position::from_fen("3k5/9/9/9/9/9/9/9/4N4/4K4 w").unwrap();
    assert_eq!(
        Tablebases::open(&dir).unwrap().probe_dtm(&pos),
        Err(TablebaseError::Corrupt {
            path: path.clone(),
            what: "the kind of file (a WDL file where a distance file was wanted)"
        })
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
