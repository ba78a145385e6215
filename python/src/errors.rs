//! Errors cross into Python as the exception a Python user expects, with the CLI's one line.

use pyo3::PyErr;
use pyo3::exceptions::{
    PyFileExistsError, PyFileNotFoundError, PyIsADirectoryError, PyOSError, PyPermissionError,
    PyValueError,
};
use std::io::ErrorKind;

/// The exception for `e`: the OS error's class when a file could not be read or written
/// (FileNotFoundError, PermissionError, ...), ValueError for every other bad input. The message
/// is the line `stacktune` prints after `error:`.
pub fn to_py(e: anyhow::Error) -> PyErr {
    let message = format!("{e:#}");
    let io = e.chain().find_map(|c| c.downcast_ref::<std::io::Error>());
    match io.map(std::io::Error::kind) {
        Some(ErrorKind::NotFound) => PyFileNotFoundError::new_err(message),
        Some(ErrorKind::PermissionDenied) => PyPermissionError::new_err(message),
        Some(ErrorKind::AlreadyExists) => PyFileExistsError::new_err(message),
        Some(ErrorKind::IsADirectory) => PyIsADirectoryError::new_err(message),
        Some(_) => PyOSError::new_err(message),
        None => PyValueError::new_err(message),
    }
}
