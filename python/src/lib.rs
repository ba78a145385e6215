//! `stacktune` for Python: the engines, features and tuned players of the Rust library, with
//! the CLI's `play` and `evolve` (see docs/python.md). A thin layer over the library's public
//! API: what a game does, its features and its players are the library's, bit for bit.

mod board_features;
#[cfg(feature = "cli")]
mod cli;
mod commands;
mod engine;
mod errors;
mod flags;
mod games;
mod hosted;
mod interrupt;
mod moves;
mod pickle;
mod player;
mod state;
mod tune;
mod vector;
mod weights;

use pyo3::prelude::*;

#[pymodule]
fn _stacktune(m: &Bound<'_, PyModule>) -> PyResult<()> {
    // Runs in this process are stopped through Python (KeyboardInterrupt), never by a Ctrl-C
    // handler of their own, which would take SIGINT from the interpreter for good.
    stacktune_base::stop::host_stop_flag();
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_class::<games::PyTetris>()?;
    m.add_class::<games::PyContest>()?;
    m.add_class::<games::PyPuyo>()?;
    m.add_class::<games::PyConnect>()?;
    m.add_class::<moves::Move>()?;
    m.add_class::<moves::Outcome>()?;
    m.add_class::<player::PyPlayer>()?;
    m.add_class::<commands::Run>()?;
    m.add_class::<tune::DrivenRun>()?;
    m.add_class::<vector::ConnectOpponent>()?;
    m.add_function(wrap_pyfunction!(commands::play_json, m)?)?;
    m.add_function(wrap_pyfunction!(board_features::define_board_feature, m)?)?;
    m.add_function(wrap_pyfunction!(board_features::undefine_board_feature, m)?)?;
    m.add_function(wrap_pyfunction!(weights::evaluate_json, m)?)?;
    #[cfg(feature = "cli")]
    m.add_function(wrap_pyfunction!(cli::cli, m)?)?;
    m.add_function(wrap_pyfunction!(commands::keywords, m)?)?;
    m.add_function(wrap_pyfunction!(commands::start_evolve, m)?)?;
    m.add_function(wrap_pyfunction!(hosted::evolve_hosted, m)?)?;
    vector::register(m)?;
    Ok(())
}
