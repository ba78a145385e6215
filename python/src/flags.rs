//! Keyword arguments as the CLI's flags: `max_pieces=500` is `--max-pieces 500`, `bag7=True`
//! is `--bag7`, a list repeats its flag (`opponent=["random", "negamax4"]`), None leaves it out.

use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyTuple};

/// The command line `command` would be given for `kwargs`.
pub fn argv(command: &str, kwargs: Option<&Bound<'_, PyDict>>) -> PyResult<Vec<String>> {
    let mut argv = vec![format!("stacktune {command}")];
    let Some(kwargs) = kwargs else {
        return Ok(argv);
    };
    for (key, value) in kwargs.iter() {
        let key: String = key.extract()?;
        let flag = format!(
            "--{}",
            match key.as_str() {
                "opponents" => "opponent".to_string(),
                k => k.replace('_', "-"),
            }
        );
        if value.is_none() {
            continue;
        }
        if let Ok(on) = value.cast::<pyo3::types::PyBool>() {
            if on.is_true() {
                argv.push(flag);
            }
            continue;
        }
        if value.cast::<PyList>().is_ok() || value.cast::<PyTuple>().is_ok() {
            for item in value.try_iter()? {
                argv.push(flag.clone());
                argv.push(text(&item?)?);
            }
            continue;
        }
        argv.push(flag);
        argv.push(text(&value)?);
    }
    Ok(argv)
}

/// A value as a flag's text: a path by `os.fspath`, anything else by `str`.
fn text(value: &Bound<'_, PyAny>) -> PyResult<String> {
    let os = value.py().import("os")?;
    match os.call_method1("fspath", (value,)) {
        Ok(path) => path.extract(),
        Err(_) => Ok(value.str()?.to_string()),
    }
}
