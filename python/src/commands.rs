//! `play` and `evolve` as the CLI runs them, from Python.

use crate::errors::to_py;
use crate::flags::{argv, bad_keywords};
use crate::interrupt::until_signal;
use clap::{CommandFactory, Parser};
use pyo3::exceptions::{PyKeyboardInterrupt, PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use stacktune_base::stop::host_stop_flag;
use stacktune_run::backend::Local;
use stacktune_run::evolution::{EvolveArgs, execute};
use stacktune_run::play::PlayArgs;
use stacktune_run::{RunConfig, RunResult};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;
use std::time::Duration;

/// `stacktune play`'s flags, parsed as the CLI parses them.
#[derive(Parser)]
#[command(name = "stacktune play", no_binary_name = true)]
pub struct PlayCli {
    #[command(flatten)]
    pub args: PlayArgs,
}

/// Parses the keyword arguments of the Python `function` as `stacktune play`'s flags.
pub fn play_args(function: &str, kwargs: Option<&Bound<'_, PyDict>>) -> PyResult<PlayArgs> {
    let command = PlayCli::command();
    let argv = argv(function, &command, kwargs)?;
    PlayCli::try_parse_from(&argv[1..])
        .map(|c| c.args)
        .map_err(|e| bad_keywords(&e, &command))
}

/// `stacktune play`'s report for these flags, as the JSON text `play --json` prints. Ctrl-C
/// stops it within a second, mid-game, with KeyboardInterrupt.
#[pyfunction]
#[pyo3(signature = (**flags))]
pub fn play_json(py: Python<'_>, flags: Option<&Bound<'_, PyDict>>) -> PyResult<String> {
    if flags.is_some_and(|f| f.contains("json").unwrap_or(false)) {
        return Err(PyValueError::new_err(
            "json= is the command line's: stacktune.play always returns the JSON report as a dict",
        ));
    }
    let args = play_args("play()", flags)?;
    let stop = AtomicBool::new(false);
    let report = until_signal(py, &stop, || {
        stacktune_run::play::play_report(args, &Local, &stop)
    })?
    .map_err(to_py)?;
    serde_json::to_string(&report).map_err(|e| PyRuntimeError::new_err(e.to_string()))
}

/// `stacktune evolve`'s flags, parsed as the CLI parses them.
#[derive(Parser)]
#[command(name = "stacktune evolve", no_binary_name = true)]
pub struct EvolveCli {
    #[command(flatten)]
    args: EvolveArgs,
}

type Finished = anyhow::Result<(RunConfig, RunResult, u64)>;

/// A run of `evolve` going on in a thread of its own, so that Python keeps its interpreter
/// (progress, Ctrl-C) while the run plays its games with the GIL released.
#[pyclass(module = "stacktune", name = "Evolution")]
pub struct Run {
    thread: Mutex<Option<JoinHandle<Finished>>>,
}

/// `stacktune evolve`'s arguments for these flags; `config_json`, when given, is a run
/// config's TOML as JSON (a dict), read in memory as `--config` reads a file: nothing is
/// written in the working folder (whose relative paths it names), and an error names the key.
pub fn evolve_args(
    function: &str,
    config_json: Option<String>,
    flags: Option<&Bound<'_, PyDict>>,
) -> PyResult<EvolveArgs> {
    let command = EvolveCli::command();
    let argv = argv(function, &command, flags)?;
    let mut args = EvolveCli::try_parse_from(&argv[1..])
        .map_err(|e| bad_keywords(&e, &command))?
        .args;
    if let Some(json) = config_json {
        let value: serde_json::Value =
            serde_json::from_str(&json).map_err(|e| PyValueError::new_err(e.to_string()))?;
        let table = toml::Table::try_from(value)
            .map_err(|e| PyValueError::new_err(format!("run config: {e}")))?;
        args.given = Some(Box::new(RunConfig::from_table(table).map_err(to_py)?));
    }
    Ok(args)
}

/// Starts `stacktune evolve` with these flags; `config_json` as [`evolve_args`] takes it.
#[pyfunction]
#[pyo3(signature = (config_json=None, **flags))]
pub fn start_evolve(
    config_json: Option<String>,
    flags: Option<&Bound<'_, PyDict>>,
) -> PyResult<Run> {
    let args = evolve_args("evolve()", config_json, flags)?;
    let stop = host_stop_flag();
    stop.store(false, Ordering::SeqCst);
    let thread = std::thread::spawn(move || execute(args, &Local));
    Ok(Run {
        thread: Mutex::new(Some(thread)),
    })
}

#[pymethods]
impl Run {
    /// Waits up to `seconds` (None: until the end) for the run to end; whether it has.
    #[pyo3(signature = (seconds=None))]
    fn wait(&self, py: Python<'_>, seconds: Option<f64>) -> bool {
        let finished = || {
            self.thread
                .lock()
                .unwrap()
                .as_ref()
                .is_none_or(|t| t.is_finished())
        };
        py.detach(|| {
            let step = Duration::from_millis(20);
            let mut waited = 0.0;
            while !finished() {
                if seconds.is_some_and(|s| waited >= s) {
                    return false;
                }
                std::thread::sleep(step);
                waited += step.as_secs_f64();
            }
            true
        })
    }

    /// Asks the run to stop once its generation is done and checkpointed (what Ctrl-C does).
    fn stop(&self) {
        host_stop_flag().store(true, Ordering::SeqCst);
    }

    /// The finished run's folder and held-out figures as JSON; KeyboardInterrupt when it was
    /// stopped (it resumes with `evolve(resume=folder)`), the CLI's error otherwise.
    fn result(&self, py: Python<'_>) -> PyResult<String> {
        let thread = self
            .thread
            .lock()
            .unwrap()
            .take()
            .ok_or_else(|| PyRuntimeError::new_err("the run's result was already taken"))?;
        let finished = py
            .detach(|| thread.join())
            .map_err(|_| PyRuntimeError::new_err("the run's thread panicked"))?;
        let stopped = host_stop_flag().load(Ordering::SeqCst);
        let (config, result, opponents) = finished.map_err(|e| {
            if stopped {
                PyKeyboardInterrupt::new_err(format!("{e:#}"))
            } else {
                to_py(e)
            }
        })?;
        Ok(summary(&config, &result, opponents))
    }
}

/// A finished run's folder and held-out figures as JSON, as `evolve()` returns them.
pub fn summary(config: &RunConfig, result: &RunResult, opponents: u64) -> String {
    let best = result.dir.join("best.toml");
    serde_json::json!({
        "folder": result.dir,
        "best_weights": best,
        "held_out": result.best,
        "baseline": result.baseline.as_ref().map(|(path, s)| serde_json::json!({"weights": path, "held_out": s})),
        "play_command": config.play_command(&best, config.final_games / opponents.max(1)),
    })
    .to_string()
}

/// Every keyword `command` (`play` or `evolve`) takes, with its help, for its docstring.
#[pyfunction]
pub fn keywords(command: &str) -> PyResult<String> {
    match command {
        "play" => Ok(crate::flags::keywords(&PlayCli::command())),
        "evolve" => Ok(crate::flags::keywords(&EvolveCli::command())),
        _ => Err(PyValueError::new_err(format!("no command `{command}`"))),
    }
}
