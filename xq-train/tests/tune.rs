//! The tuner on a small committed sample of self-play data
//! (`tests/data/tune-sample.txt`: 3973 positions of 36 games, written by
//! `xq datagen --games 36 --nodes 2000 --random-plies 8 --seed 1 --threads 2`): a short
//! run lowers the error on positions it did not fit.

use xq_eval::params::{MATERIAL, PARAMS};
use xq_train::tune::{Dataset, TuneOptions, Tuner};

const SAMPLE: &str = include_str!("data/tune-sample.txt");

#[test]
fn the_sample_reads_in_full() {
    let data = Dataset::from_bytes(SAMPLE.as_bytes()).unwrap();
    assert_eq!(data.len(), 3973);
    assert_eq!(data.len(), SAMPLE.lines().count());
    // The reader cuts the lines into the 36 games they were written from.
    let mut sizes = Vec::new();
    xq_train::data::read_bytes(SAMPLE.as_bytes(), |game| sizes.push(game.len())).unwrap();
    assert_eq!(sizes.len(), 36);
    assert_eq!(sizes.iter().sum::<usize>(), 3973);
}

#[test]
fn a_short_tuning_lowers_the_held_out_error() {
    let data = Dataset::from_bytes(SAMPLE.as_bytes()).unwrap();
    let (train, held) = data.split(0.1, 1);
    assert_eq!((train.len(), held.len()), (3576, 397));
    let options = TuneOptions {
        lr: 2.0,
        batch: 512,
        ..TuneOptions::default()
    };
    let mut tuner = Tuner::new(&train, &PARAMS, options);
    // K is of the usual order: 400 centipawns make about a 70% expectation.
    assert!((0.0005..0.01).contains(&tuner.k()), "K = {}", tuner.k());
    let (train_before, held_before) = (tuner.error(&train), tuner.error(&held));
    for _ in 0..5 {
        tuner.epoch();
    }
    let (train_after, held_after) = (tuner.error(&train), tuner.error(&held));
    assert!(
        train_after < train_before,
        "{train_after} vs {train_before}"
    );
    assert!(held_after < held_before, "{held_after} vs {held_before}");
    // Every weight may move, within reason after so few steps.
    let fitted = tuner.params();
    assert_ne!(fitted, PARAMS.to_vec());
    for (new, old) in fitted.iter().zip(PARAMS.iter()) {
        assert!((new.0 - old.0).abs() <= 2 * 5 * 8 + 1, "{new:?} vs {old:?}");
    }
    // Frozen material stays where it is.
    let mut frozen = TuneOptions {
        lr: 2.0,
        batch: 512,
        ..TuneOptions::default()
    };
    frozen.freeze("material").unwrap();
    let mut tuner = Tuner::new(&train, &PARAMS, frozen);
    tuner.epoch();
    assert_eq!(tuner.params()[MATERIAL], PARAMS[MATERIAL]);
}
