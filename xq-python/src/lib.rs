//! The native module of the `xq-xiangqi` Python package, `xq._xq`: the rules
//! (`xq-movegen`), game files (`xq-records`), the engine (`xq-search`), self-play
//! (`xq-train`), endgame tables (`xq-tablebase`), the machine-learning helpers and the
//! reinforcement-learning environments' native part (`envs`), bound
//! with PyO3 to the public API of those crates. The
//! package `xq` (`python/xq/__init__.py`) re-exports it with the constants, the SVG
//! boards and the `Termination` enum.
//!
//! No input reaches a panic: every function that takes user input returns a Python
//! exception (`xq.XqError` and its subclasses, or `ValueError`/`IndexError` for bad
//! arguments), and PyO3 turns a panic, should one happen, into `PanicException`
//! rather than aborting the interpreter.
#![deny(missing_docs)]
#![deny(unsafe_code)]

mod analysis;
mod args;
mod board;
mod engine;
mod envs;
mod errors;
mod matches;
mod ml;
mod records;
mod selfplay;
mod tablebase;
mod tensor;
mod types;

use pyo3::prelude::*;

#[pymodule]
fn _xq(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("STARTING_FEN", xq_core::START_FEN)?;
    m.add("SQUARE_NAMES", types::square_names())?;
    m.add("N_ACTIONS", tensor::N_ACTIONS)?;
    m.add("N_PLANES", tensor::N_PLANES)?;
    errors::register(m)?;
    m.add_class::<types::Move>()?;
    m.add_class::<types::Piece>()?;
    m.add_class::<board::Board>()?;
    m.add_class::<board::Outcome>()?;
    m.add_class::<records::GameRecord>()?;
    m.add_class::<records::Node>()?;
    m.add_class::<records::PgnStream>()?;
    m.add_class::<records::PgnGame>()?;
    m.add_class::<engine::Engine>()?;
    m.add_class::<engine::Analysis>()?;
    m.add_class::<tablebase::Tablebase>()?;
    m.add_class::<matches::PyMatchConfig>()?;
    m.add_class::<matches::MatchTally>()?;
    m.add_class::<envs::VectorGames>()?;
    m.add_function(wrap_pyfunction!(types::parse_square, m)?)?;
    m.add_function(wrap_pyfunction!(types::square_name, m)?)?;
    m.add_function(wrap_pyfunction!(types::square_file, m)?)?;
    m.add_function(wrap_pyfunction!(types::square_rank, m)?)?;
    m.add_function(wrap_pyfunction!(types::square_mirror, m)?)?;
    m.add_function(wrap_pyfunction!(ml::move_to_index, m)?)?;
    m.add_function(wrap_pyfunction!(ml::index_to_move, m)?)?;
    m.add_function(wrap_pyfunction!(ml::mirror_index, m)?)?;
    m.add_function(wrap_pyfunction!(ml::action_moves, m)?)?;
    m.add_function(wrap_pyfunction!(ml::legal_masks, m)?)?;
    m.add_function(wrap_pyfunction!(ml::planes_batch, m)?)?;
    m.add_function(wrap_pyfunction!(ml::push_batch, m)?)?;
    m.add_function(wrap_pyfunction!(ml::read_datagen, m)?)?;
    m.add_function(wrap_pyfunction!(ml::_rust_batch_seconds, m)?)?;
    m.add_function(wrap_pyfunction!(envs::_observe, m)?)?;
    m.add_function(wrap_pyfunction!(envs::_play_action, m)?)?;
    m.add_function(wrap_pyfunction!(selfplay::selfplay, m)?)?;
    m.add_function(wrap_pyfunction!(tablebase::_tablebase_plan, m)?)?;
    m.add_function(wrap_pyfunction!(tablebase::_tablebase_make, m)?)?;
    m.add_function(wrap_pyfunction!(tablebase::_tablebase_kept, m)?)?;
    m.add_function(wrap_pyfunction!(tablebase::_tablebase_log, m)?)?;
    m.add_function(wrap_pyfunction!(tablebase::_tablebase_parts, m)?)?;
    m.add_function(wrap_pyfunction!(tablebase::_tablebase_assemble, m)?)?;
    m.add_class::<tablebase::_TablebasePart>()?;
    m.add_function(wrap_pyfunction!(analysis::annotate, m)?)?;
    m.add_function(wrap_pyfunction!(args::_check_int, m)?)?;
    m.add_function(wrap_pyfunction!(args::_check_seconds, m)?)?;
    m.add_function(wrap_pyfunction!(records::read_pgn, m)?)?;
    m.add_function(wrap_pyfunction!(records::read_pgn_str, m)?)?;
    m.add_function(wrap_pyfunction!(records::read_xqf, m)?)?;
    m.add_function(wrap_pyfunction!(records::write_pgn, m)?)?;
    m.add_function(wrap_pyfunction!(records::_xqf_tree, m)?)?;
    m.add_function(wrap_pyfunction!(records::_write_pgn_tree, m)?)?;
    Ok(())
}
