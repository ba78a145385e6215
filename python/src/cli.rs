//! `python -m stacktune`: the command line itself, run inside the interpreter, so that a wheel
//! install needs no separate binary. The one part of the package that uses the command-line
//! crate; every binding uses the library.

use pyo3::prelude::*;

/// Runs the command line `argv` (the program's name first) in this process, as the
/// `stacktune` binary runs it, and returns its exit code (`python -m stacktune`). As in the
/// binary, a command that reads Ctrl-C (`evolve`, `play`) installs its handler, which keeps
/// SIGINT from the interpreter for good: this is for a process that ends with the command.
#[pyfunction]
pub fn cli(py: Python<'_>, argv: Vec<String>) -> i32 {
    stacktune_base::stop::commands_take_ctrl_c();
    py.detach(|| stacktune::cli::run(argv))
}
