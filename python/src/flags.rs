//! Keyword arguments as the CLI's flags: `max_pieces=500` is `--max-pieces=500`, `bag7=True`
//! is `--bag7`, a list repeats a flag that may repeat (`opponent=["random", "negamax4"]`).
//! The flags' own definitions (clap's) say which keywords exist and what type each takes, so
//! that a Python caller hears of its keywords in Python's words: an unknown keyword or a value
//! of the wrong type is a TypeError naming the keyword as written, a bad value a ValueError.

use clap::{Arg, ArgAction, Command};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyFloat, PyInt, PyList, PyTuple};
use std::any::TypeId;

/// What a flag's value is, in Python's types.
#[derive(Clone, Copy, PartialEq)]
enum Kind {
    /// A switch: True gives the flag, False leaves it out.
    Switch,
    Int,
    /// A number, int or float.
    Float,
    /// Text or a path (or a number for a parser of its own, such as seconds).
    Text,
}

impl Kind {
    fn of(arg: &Arg) -> Kind {
        if matches!(arg.get_action(), ArgAction::SetTrue | ArgAction::SetFalse) {
            return Kind::Switch;
        }
        let id = arg.get_value_parser().type_id();
        let ints = [
            TypeId::of::<u8>(),
            TypeId::of::<u16>(),
            TypeId::of::<u32>(),
            TypeId::of::<u64>(),
            TypeId::of::<usize>(),
            TypeId::of::<i8>(),
            TypeId::of::<i16>(),
            TypeId::of::<i32>(),
            TypeId::of::<i64>(),
        ];
        if ints.iter().any(|t| id == *t) {
            Kind::Int
        } else if id == TypeId::of::<f64>() || id == TypeId::of::<f32>() {
            Kind::Float
        } else {
            Kind::Text
        }
    }

    fn name(self) -> &'static str {
        match self {
            Kind::Switch => "True or False",
            Kind::Int => "an int",
            Kind::Float => "a number",
            Kind::Text => "a str or a path",
        }
    }

    fn accepts(self, value: &Bound<'_, PyAny>) -> bool {
        let number = value.is_instance_of::<PyInt>() || value.is_instance_of::<PyFloat>();
        match self {
            _ if value.is_none() || value.is_instance_of::<PyList>() => false,
            Kind::Switch => value.is_instance_of::<PyBool>(),
            _ if value.is_instance_of::<PyBool>() => false,
            Kind::Int => value.is_instance_of::<PyInt>(),
            Kind::Float => number,
            Kind::Text => {
                number
                    || value.is_instance_of::<pyo3::types::PyString>()
                    || value.hasattr("__fspath__").unwrap_or(false)
            }
        }
    }
}

/// The keyword of a flag: `--max-pieces` is `max_pieces`.
fn keyword(arg: &Arg) -> Option<String> {
    arg.get_long().map(|l| l.replace('-', "_"))
}

/// The command line `command` is given for `kwargs` (the program's name first), or the
/// TypeError the Python `function` taking these keywords raises.
pub fn argv(
    function: &str,
    command: &Command,
    kwargs: Option<&Bound<'_, PyDict>>,
) -> PyResult<Vec<String>> {
    let mut argv = vec![command.get_name().to_string()];
    let Some(kwargs) = kwargs else {
        return Ok(argv);
    };
    for (key, value) in kwargs.iter() {
        let key: String = key.extract()?;
        let wanted = if key == "opponents" { "opponent" } else { &key };
        let arg = command
            .get_arguments()
            .filter(|a| !matches!(a.get_action(), ArgAction::Help | ArgAction::Version))
            .find(|a| keyword(a).as_deref() == Some(wanted));
        let Some(arg) = arg else {
            let hint = if key == "help" {
                format!(
                    " (help(stacktune.{}) lists every keyword)",
                    function.trim_end_matches("()")
                )
            } else {
                String::new()
            };
            return Err(PyTypeError::new_err(format!(
                "{function} got an unexpected keyword argument '{key}'{hint}"
            )));
        };
        let flag = format!("--{}", arg.get_long().expect("found by its long name"));
        let kind = Kind::of(arg);
        let repeats = matches!(arg.get_action(), ArgAction::Append);
        let wrong = |what: &Bound<'_, PyAny>| -> PyResult<PyErr> {
            let many = if repeats { " (or a list of them)" } else { "" };
            Ok(PyTypeError::new_err(format!(
                "{function} keyword '{key}' takes {}{many}, not {}",
                kind.name(),
                what.get_type().name()?
            )))
        };
        let value = integer(&value)?;
        if repeats && (value.is_instance_of::<PyList>() || value.is_instance_of::<PyTuple>()) {
            for item in value.try_iter()? {
                let item = integer(&item?)?;
                if !kind.accepts(&item) {
                    return Err(wrong(&item)?);
                }
                argv.push(format!("{flag}={}", text(&item)?));
            }
            continue;
        }
        if !kind.accepts(&value) {
            return Err(wrong(&value)?);
        }
        match kind {
            Kind::Switch if value.is_truthy()? => argv.push(flag),
            Kind::Switch => {}
            _ => argv.push(format!("{flag}={}", text(&value)?)),
        }
    }
    Ok(argv)
}

/// Clap's error for a command line [`argv`] made, in the keywords' words: `'--max-pieces <N>'`
/// reads `max_pieces=`. A missing keyword is a TypeError, as a missing argument is in Python;
/// anything else a ValueError.
pub fn bad_keywords(e: &clap::Error, command: &Command) -> PyErr {
    let mut message = stacktune_run::flags::bad_arguments(e);
    message = message
        .strip_prefix("error: ")
        .unwrap_or(&message)
        .to_string();
    // The longest names first, so that `--max` never eats the start of `--max-pieces`.
    let mut args: Vec<&Arg> = command.get_arguments().collect();
    args.sort_by_key(|a| std::cmp::Reverse(a.get_long().map_or(0, str::len)));
    for arg in args {
        let (Some(long), Some(key)) = (arg.get_long(), keyword(arg)) else {
            continue;
        };
        let values: Vec<String> = value_names(arg).iter().map(|v| format!(" <{v}>")).collect();
        let values = values.concat();
        message = message
            .replace(&format!("'--{long}{values}'"), &format!("{key}="))
            .replace(&format!("--{long}{values}"), &format!("{key}="))
            .replace(&format!("--{long}"), &format!("{key}="));
    }
    match e.kind() {
        clap::error::ErrorKind::MissingRequiredArgument => PyTypeError::new_err(message),
        _ => PyValueError::new_err(message),
    }
}

/// Every keyword of `command` with what it takes and its help line, for the docstring of the
/// Python function that runs it.
pub fn keywords(command: &Command) -> String {
    let mut lines = Vec::new();
    for arg in command.get_arguments() {
        let Some(key) = keyword(arg) else { continue };
        if matches!(arg.get_action(), ArgAction::Help | ArgAction::Version) {
            continue;
        }
        let what = match Kind::of(arg) {
            Kind::Switch => format!("{key}=True"),
            _ => format!("{key}={}", value_names(arg).join(" ")),
        };
        let help = arg.get_help().map(|h| h.to_string()).unwrap_or_default();
        lines.push(format!("{what}\n    {help}"));
    }
    lines.join("\n")
}

/// The names clap shows a flag's values by: the ones it was given, else its id in capitals.
fn value_names(arg: &Arg) -> Vec<String> {
    match (Kind::of(arg), arg.get_value_names()) {
        (Kind::Switch, _) => Vec::new(),
        (_, Some(names)) => names.iter().map(|n| n.to_string()).collect(),
        (_, None) => vec![arg.get_id().as_str().to_uppercase()],
    }
}

/// `value` as a Python int when it is an integer of another type (numpy's `int64`, anything
/// with `__index__` but a bool), so that a count from numpy is taken as the int it is.
fn integer<'py>(value: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
    let kind = value.get_type().name()?.to_string();
    if value.is_instance_of::<PyInt>()
        || kind == "bool"
        || kind == "bool_"
        || !value.hasattr("__index__")?
    {
        return Ok(value.clone());
    }
    let index = value
        .py()
        .import("operator")?
        .call_method1("index", (value,));
    Ok(index.unwrap_or_else(|_| value.clone()))
}

/// A value as a flag's text: a path by `os.fspath`, anything else by `str`.
fn text(value: &Bound<'_, PyAny>) -> PyResult<String> {
    let os = value.py().import("os")?;
    match os.call_method1("fspath", (value,)) {
        Ok(path) => path.extract(),
        Err(_) => Ok(value.str()?.to_string()),
    }
}
