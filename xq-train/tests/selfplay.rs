//! Self-play as a library call writes the bytes `xq datagen --format binary` writes: the
//! pinned runs of `data/datagen-s5-*.xqsp` (see data/README.md), for any thread count.

use xq_train::binary::{read, Writer};
use xq_train::selfplay::{generate, Settings};

/// `xq datagen --games 3 --nodes 300 --random-plies 6 --max-plies 60 --seed 5`, with
/// `--classical` or with round 1's network (`--eval-file xq-eval/nets/nn-a6e9bde1.nnue`).
fn settings(classical: bool) -> Settings {
    let round1: &[u8] = include_bytes!("../../xq-eval/nets/nn-a6e9bde1.nnue");
    Settings {
        nodes: 300,
        random_plies: 6,
        max_plies: 60,
        network: if classical {
            None
        } else {
            Some(std::sync::Arc::new(
                xq_eval::nnue::Network::from_bytes(round1).unwrap(),
            ))
        },
        ..Settings::default()
    }
}

fn bytes(settings: &Settings, threads: usize) -> Vec<u8> {
    let mut w = Writer::new();
    for game in generate(settings, 5, 3, threads).unwrap() {
        w.push(&game).unwrap();
    }
    w.into_bytes()
}

#[test]
fn the_library_writes_what_datagen_wrote() {
    let classical: &[u8] = include_bytes!("../../data/datagen-s5-classical.xqsp");
    let net: &[u8] = include_bytes!("../../data/datagen-s5-net.xqsp");
    assert!(bytes(&settings(true), 1) == classical);
    assert!(bytes(&settings(true), 3) == classical);
    assert!(bytes(&settings(false), 2) == net);
    // And the files read back as the games played.
    assert_eq!(
        read(net).unwrap(),
        generate(&settings(false), 5, 3, 1).unwrap()
    );
}
