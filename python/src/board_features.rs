//! Features of one's own in Python: a function of the board defined under its name, so that
//! a run whose game names it (`[game] board_features`) weighs and evolves it beside the
//! built-in features ([`stacktune_game::board_features`]).

use crate::errors::to_py;
use numpy::IntoPyArray;
use numpy::ndarray::Array2;
use pyo3::prelude::*;
use stacktune_game::board_features::{self, Board};
use std::sync::Arc;

/// Defines `function` as the board feature `name` in this process: called with the board after
/// each placement a player weighs, a numpy array of int64 (rows × columns, top row first, the
/// game's cell numbers), it returns the feature's value, a finite number.
#[pyfunction]
pub fn define_board_feature(name: &str, function: Bound<'_, PyAny>) -> PyResult<()> {
    if !function.is_callable() {
        return Err(pyo3::exceptions::PyTypeError::new_err(format!(
            "board feature `{name}` is {}, not a function of the board",
            function.get_type().name()?
        )));
    }
    let function = function.unbind();
    let value = move |board: &Board<'_>| {
        Python::attach(|py| {
            let cells = board.cells.iter().map(|&c| i64::from(c)).collect();
            let array = Array2::from_shape_vec((board.rows, board.columns), cells)
                .expect("a board's cells fill its rows and columns")
                .into_pyarray(py);
            let returned = function.call1(py, (array,)).map_err(|e| e.to_string())?;
            let returned = returned.bind(py);
            returned.extract::<f64>().map_err(|_| {
                let kind = returned
                    .get_type()
                    .name()
                    .map_or("?".into(), |n| n.to_string());
                format!("it returned {kind}, not a number")
            })
        })
    };
    board_features::define(name, Arc::new(value)).map_err(to_py)
}

/// Forgets the board feature `name` (the run that used it is over).
#[pyfunction]
pub fn undefine_board_feature(name: &str) {
    board_features::undefine(name);
}
