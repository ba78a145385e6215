//! Weights held in memory: a dict of feature name to weight, or a vector with the names it is
//! aligned with (`names=`, by default the game's whole feature list), for `Player.from_weights`
//! and `evaluate`. They become the weight file they would be, with a file's checks, so that
//! weights from memory and the same weights in a file are one player and play the same games.

use crate::commands::play_args;
use crate::errors::to_py;
use numpy::{IntoPyArray, PyArray1};
use pyo3::exceptions::{PyOverflowError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyComplex, PyDict, PyList, PyMapping, PyString, PyTuple};
use stacktune_game::Game;
use stacktune_players::registry::Build;
use stacktune_players::weights::WeightFile;
use stacktune_run::backend::Local;
use stacktune_run::play::PlayArgs;
use std::collections::BTreeMap;
use std::sync::atomic::AtomicBool;

/// What `args.weights` reads for weights held in memory: it only names them in messages.
pub const IN_MEMORY: &str = "(weights in memory)";

/// Weights as Python gives them: by name, or a vector whose names come later (the game's).
pub enum Given {
    Named(BTreeMap<String, f64>),
    Vector(Vec<f64>, Option<Vec<String>>),
}

impl Given {
    /// `weights` (a dict, or a vector with or without `names`), or the TypeError saying what
    /// `function` takes.
    pub fn extract(
        function: &str,
        weights: &Bound<'_, PyAny>,
        names: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Given> {
        let names = names.map(|n| feature_names(function, n)).transpose()?;
        if let Ok(map) = weights.cast::<PyMapping>() {
            if names.is_some() {
                return Err(PyTypeError::new_err(format!(
                    "{function}: names= goes with a vector of weights, not a dict (a dict names its weights)"
                )));
            }
            let mut named = BTreeMap::new();
            for item in map.items()?.iter() {
                let (key, value): (Bound<'_, PyAny>, Bound<'_, PyAny>) = item.extract()?;
                let Ok(name) = key.cast::<PyString>() else {
                    return Err(PyTypeError::new_err(format!(
                        "{function}: a weights dict maps feature names (str) to numbers, not {} keys",
                        key.get_type().name()?
                    )));
                };
                let w = weight(function, &format!("weight `{name}`"), &value)?;
                named.insert(name.to_string(), w);
            }
            return Ok(Given::Named(named));
        }
        if weights.is_instance_of::<PyString>() {
            return Err(PyTypeError::new_err(format!(
                "{function} takes weights in memory (a dict, or a vector with names=); Player(path) and play(weights=path) read a file"
            )));
        }
        if is_complex(weights)? {
            return Err(PyTypeError::new_err(format!(
                "{function}: the weights are complex numbers: weights are real numbers"
            )));
        }
        let not_a_vector = || -> PyResult<PyErr> {
            Ok(PyTypeError::new_err(format!(
                "{function} takes a dict of feature name to weight, or a 1-D vector of numbers with names=, not {}",
                weights.get_type().name()?
            )))
        };
        let Ok(items) = weights.try_iter() else {
            return Err(not_a_vector()?);
        };
        let mut vector = Vec::new();
        for (i, item) in items.enumerate() {
            let item = item?;
            if item.try_iter().is_ok() && !item.is_instance_of::<PyString>() {
                return Err(not_a_vector()?);
            }
            vector.push(weight(function, &format!("weight {i}"), &item)?);
        }
        Ok(Given::Vector(vector, names))
    }

    /// The weights by name for the game `args` describes, checked as a file's are.
    pub fn into_file(self, args: &PlayArgs) -> PyResult<WeightFile> {
        let named = match self {
            Given::Named(named) => named,
            Given::Vector(vector, names) => {
                let names = match names {
                    Some(names) => names,
                    None => {
                        let game = args.game.build().map_err(to_py)?;
                        stacktune_players::with_game!(&game, g => g.feature_names())
                            .iter()
                            .map(|n| n.to_string())
                            .collect()
                    }
                };
                if vector.len() != names.len() {
                    return Err(PyValueError::new_err(format!(
                        "the weights vector has {} values for {} feature names: {}",
                        vector.len(),
                        names.len(),
                        names.join(", ")
                    )));
                }
                let mut named = BTreeMap::new();
                for (name, w) in names.into_iter().zip(vector) {
                    if named.insert(name.clone(), w).is_some() {
                        return Err(PyValueError::new_err(format!(
                            "names= names feature `{name}` twice"
                        )));
                    }
                }
                named
            }
        };
        if !named.is_empty() && named.values().all(|&w| w == 0.0) {
            return Err(PyValueError::new_err(
                "every weight is 0: the player would have no preference among moves; give at least one weight that is not 0",
            ));
        }
        stacktune_run::play::weights_in_memory(&args.game, named).map_err(to_py)
    }
}

/// One weight (`what` names it in messages) as a float: a bool, a str, a complex number or an
/// int past a float's range is refused rather than read as 1.0, parsed or cut.
fn weight(function: &str, what: &str, value: &Bound<'_, PyAny>) -> PyResult<f64> {
    let kind = value.get_type().name()?.to_string();
    if is_complex(value)? {
        return Err(PyTypeError::new_err(format!(
            "{function}: {what} is complex ({}): weights are real numbers",
            value.str()?
        )));
    }
    if kind == "bool" || kind == "bool_" {
        return Err(PyTypeError::new_err(format!(
            "{function}: {what} is a bool ({}), not a number: give 1.0 or 0.0",
            value.str()?
        )));
    }
    if value.is_instance_of::<PyString>() || value.is_instance_of::<PyBytes>() {
        return Err(PyTypeError::new_err(format!(
            "{function}: {what} is a {kind}, not a number"
        )));
    }
    match value.extract::<f64>() {
        Ok(w) => Ok(w),
        Err(e) if e.is_instance_of::<PyOverflowError>(value.py()) => {
            Err(PyValueError::new_err(format!(
                "{function}: {what} (an int of {} digits) is too large for a float (at most about 1.8e308)",
                value.str()?.to_string().trim_start_matches('-').len()
            )))
        }
        Err(_) => Err(PyTypeError::new_err(format!(
            "{function}: {what} is a {kind}, not a number"
        ))),
    }
}

/// Whether `value` is a complex number or holds complex numbers (a numpy array of complex
/// dtype, a list with a complex in it): numbers whose conversion to float would drop their
/// imaginary part with a mere warning.
pub fn is_complex(value: &Bound<'_, PyAny>) -> PyResult<bool> {
    if value.is_instance_of::<PyComplex>() {
        return Ok(true);
    }
    if let Ok(dtype) = value.getattr("dtype") {
        return Ok(dtype.getattr("kind")?.extract::<String>()? == "c");
    }
    if value.is_instance_of::<PyList>() || value.is_instance_of::<PyTuple>() {
        for item in value.try_iter()? {
            if is_complex(&item?)? {
                return Ok(true);
            }
        }
    }
    Ok(false)
}

/// `names=`: a sequence of feature names; one str (which Python would read as its letters) is
/// refused, saying how to give one name.
fn feature_names(function: &str, names: &Bound<'_, PyAny>) -> PyResult<Vec<String>> {
    if let Ok(one) = names.cast::<PyString>() {
        return Err(PyTypeError::new_err(format!(
            "{function}: names= is a list of feature names, not one str: names=[{:?}]",
            one.to_string()
        )));
    }
    if let Ok(items) = names.try_iter() {
        for item in items {
            let item = item?;
            if !item.is_instance_of::<PyString>() {
                return Err(PyTypeError::new_err(format!(
                    "{function}: names= must be str, got {} ({})",
                    item.get_type().name()?,
                    item.repr()?
                )));
            }
        }
    }
    names.extract().map_err(|_| {
        PyTypeError::new_err(format!(
            "{function}: names= is a list of feature names (str), not {}",
            names
                .get_type()
                .name()
                .map(|n| n.to_string())
                .unwrap_or_default()
        ))
    })
}

/// `play`'s flags for weights held in memory, `weights=` being the call's first argument.
pub fn args_in_memory(
    py: Python<'_>,
    function: &str,
    flags: Option<&Bound<'_, PyDict>>,
) -> PyResult<PlayArgs> {
    let py_flags = match flags {
        Some(f) => f.copy()?,
        None => PyDict::new(py),
    };
    for taken in ["weights", "json"] {
        if py_flags.contains(taken)? {
            return Err(PyTypeError::new_err(format!(
                "{function} got an unexpected keyword argument '{taken}' (the weights are its first argument)"
            )));
        }
    }
    py_flags.set_item("weights", IN_MEMORY)?;
    play_args(function, Some(&py_flags))
}

/// `stacktune play --json`'s report for weights held in memory, as JSON text, and the games'
/// scores in order as a numpy array. The games run on every core with the GIL released; Ctrl-C
/// stops the call within a second, mid-game, with KeyboardInterrupt.
#[pyfunction]
#[pyo3(signature = (weights, names=None, **flags))]
pub fn evaluate_json<'py>(
    py: Python<'py>,
    weights: &Bound<'py, PyAny>,
    names: Option<Bound<'py, PyAny>>,
    flags: Option<&Bound<'py, PyDict>>,
) -> PyResult<(String, Bound<'py, PyArray1<f64>>)> {
    let given = Given::extract("evaluate()", weights, names.as_ref())?;
    let args = args_in_memory(py, "evaluate()", flags)?;
    let file = given.into_file(&args)?;
    let stop = AtomicBool::new(false);
    let report = crate::interrupt::until_signal(py, &stop, || {
        stacktune_run::play::play_report_of(args, &file, &Local, &stop)
    })?
    .map_err(to_py)?;
    let scores: Vec<f64> = report.per_game.iter().map(|g| g.score).collect();
    let text = serde_json::to_string(&report)
        .map_err(|e| pyo3::exceptions::PyRuntimeError::new_err(e.to_string()))?;
    Ok((text, scores.into_pyarray(py)))
}
