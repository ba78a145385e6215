//! `stacktune.Run`: a stacktune run whose generations are driven from Python (ask, then
//! evaluate), by one of the built-in optimisers or by an optimiser of the user's own
//! (`[optimizer] kind = "external"`: pycma, Optuna, Nevergrad). The run is `evolve`'s, on a
//! thread of its own: the library's run loop asks this module's driver for each generation's
//! candidates, so the folder (run.toml, history, plots, validation, checkpoint, best.toml,
//! report.html) is the one `evolve` writes.

use crate::commands::{evolve_args, summary};
use crate::errors::to_py;
use numpy::ndarray::Array2;
use numpy::{IntoPyArray, PyArray1, PyArray2};
use pyo3::exceptions::{PyKeyboardInterrupt, PyRuntimeError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use stacktune_base::stop::host_stop_flag;
use stacktune_run::backend::Local;
use stacktune_run::evolution::execute_driven;
use stacktune_run::{Driver, RunConfig, RunResult};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::Ordering;
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender, channel};
use std::thread::JoinHandle;
use std::time::Duration;

/// What the run's thread tells Python.
enum FromRun {
    Begin {
        names: Vec<String>,
        generations: u64,
        next: u64,
        dir: PathBuf,
    },
    Ask {
        generation: u64,
        asked: Vec<Vec<f64>>,
    },
    Scored(Vec<f64>),
}

/// The run loop's driver: each generation it tells Python what the optimiser asks and waits
/// for the candidates Python hands in; Python dropping its end stops the run, checkpointed.
struct ChannelDriver {
    to_python: Sender<FromRun>,
    from_python: Receiver<Vec<Vec<f64>>>,
}

impl Driver for ChannelDriver {
    fn begin(&mut self, features: &[String], generations: u64, next: u64, dir: &Path) {
        let _ = self.to_python.send(FromRun::Begin {
            names: features.to_vec(),
            generations,
            next,
            dir: dir.to_path_buf(),
        });
    }

    fn candidates(
        &mut self,
        generation: u64,
        asked: &[Vec<f64>],
    ) -> anyhow::Result<Option<Vec<Vec<f64>>>> {
        let asked = asked.to_vec();
        if self
            .to_python
            .send(FromRun::Ask { generation, asked })
            .is_err()
        {
            return Ok(None);
        }
        Ok(self.from_python.recv().ok())
    }

    fn scored(&mut self, fitness: &[f64]) {
        let _ = self.to_python.send(FromRun::Scored(fitness.to_vec()));
    }
}

/// How long a wait for the run lasts between two looks for a signal.
const SLICE: Duration = Duration::from_millis(50);

type Finished = anyhow::Result<(RunConfig, RunResult, u64)>;

struct State {
    thread: Option<JoinHandle<Finished>>,
    to_run: Option<Sender<Vec<Vec<f64>>>>,
    /// Behind a lock of its own so that it is waited on with the GIL released.
    from_run: Mutex<Receiver<FromRun>>,
    names: Vec<String>,
    generations: u64,
    next: u64,
    dir: PathBuf,
    /// The generation asked and not yet evaluated, with the optimiser's candidates.
    pending: Option<(u64, Vec<Vec<f64>>)>,
    /// `finish()` was called: the run is over for this object.
    finished: bool,
}

/// A run driven from Python, generation by generation (see the module's doc).
#[pyclass(module = "stacktune", name = "DrivenRun")]
pub struct DrivenRun {
    state: Mutex<State>,
}

impl State {
    /// The run's thread ended (its error, or a stop): its error for Python.
    fn ended(&mut self, py: Python<'_>) -> PyErr {
        self.to_run = None;
        let Some(thread) = self.thread.take() else {
            return PyRuntimeError::new_err("the run has ended");
        };
        match py.detach(|| thread.join()) {
            Ok(Err(e)) => to_py(e),
            Ok(Ok(_)) => PyRuntimeError::new_err(format!(
                "the run has played its {} generations: finish() scores its best",
                self.generations
            )),
            Err(_) => PyRuntimeError::new_err("the run's thread panicked"),
        }
    }

    /// The run's next message, `None` once its thread has ended. Waits with the GIL released,
    /// looking for a signal every slice: Ctrl-C raises the run's stop flag and lets go of
    /// the run (it stops at its last checkpoint, the games under way dropped), then raises KeyboardInterrupt
    /// once the run's thread has ended; `Run.resume(folder)` continues it.
    fn recv(&mut self, py: Python<'_>) -> PyResult<Option<FromRun>> {
        let mut signal = None;
        loop {
            let from_run = &self.from_run;
            let got = py.detach(|| from_run.lock().unwrap().recv_timeout(SLICE));
            match (got, signal.take()) {
                (Ok(message), None) => return Ok(Some(message)),
                (Err(RecvTimeoutError::Disconnected), None) => return Ok(None),
                (Err(RecvTimeoutError::Disconnected), Some(e)) => {
                    // The run's own words (where it stopped, how to resume) with the signal's
                    // exception.
                    let stopped = self.ended(py);
                    let _ = e;
                    return Err(PyKeyboardInterrupt::new_err(stopped.value(py).to_string()));
                }
                (_, Some(e)) => signal = Some(e),
                (Err(RecvTimeoutError::Timeout), None) => {
                    if let Err(e) = py.check_signals() {
                        host_stop_flag().store(true, Ordering::SeqCst);
                        self.to_run = None;
                        signal = Some(e);
                    }
                }
            }
        }
    }

    /// The generation to play next and what its optimiser asks, waiting for the run.
    fn pending(&mut self, py: Python<'_>) -> PyResult<&(u64, Vec<Vec<f64>>)> {
        if self.finished {
            return Err(PyRuntimeError::new_err(format!(
                "finish() has ended this run ({}): a new run is a new stacktune.Run, and Run.resume(folder) continues one that was stopped",
                self.dir.display()
            )));
        }
        if self.pending.is_none() {
            if self.next >= self.generations {
                return Err(PyRuntimeError::new_err(format!(
                    "the run has played its {} generations: finish() scores its best",
                    self.generations
                )));
            }
            match self.recv(py)? {
                Some(FromRun::Ask { generation, asked }) => {
                    self.pending = Some((generation, asked));
                }
                Some(_) => return Err(PyRuntimeError::new_err("the run is out of step")),
                None => return Err(self.ended(py)),
            }
        }
        Ok(self.pending.as_ref().expect("just set"))
    }
}

#[pymethods]
impl DrivenRun {
    /// Starts the run `evolve` would start for these flags (`config_json` as `evolve()` takes
    /// a dict), its candidates handed in by Python.
    #[new]
    #[pyo3(signature = (config_json=None, **flags))]
    fn new(
        py: Python<'_>,
        config_json: Option<String>,
        flags: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<DrivenRun> {
        let args = evolve_args("Run()", config_json, flags)?;
        host_stop_flag().store(false, Ordering::SeqCst);
        let (to_python, from_run) = channel();
        let (to_run, from_python) = channel();
        let thread = std::thread::spawn(move || {
            let mut driver = ChannelDriver {
                to_python,
                from_python,
            };
            execute_driven(args, &Local, Some(&mut driver))
        });
        let mut state = State {
            thread: Some(thread),
            to_run: Some(to_run),
            from_run: Mutex::new(from_run),
            names: Vec::new(),
            generations: 0,
            next: 0,
            dir: PathBuf::new(),
            pending: None,
            finished: false,
        };
        match state.recv(py)? {
            Some(FromRun::Begin {
                names,
                generations,
                next,
                dir,
            }) => {
                state.names = names;
                state.generations = generations;
                state.next = next;
                state.dir = dir;
            }
            Some(_) => return Err(PyRuntimeError::new_err("the run is out of step")),
            None => return Err(state.ended(py)),
        }
        Ok(DrivenRun {
            state: Mutex::new(state),
        })
    }

    /// The tuned features, in the order of a candidate's weights.
    #[getter]
    fn names(&self) -> Vec<String> {
        self.state.lock().unwrap().names.clone()
    }

    /// Generations the run asks for.
    #[getter]
    fn generations(&self) -> u64 {
        self.state.lock().unwrap().generations
    }

    /// The generation to play next (the run is done when it equals `generations`).
    #[getter]
    fn generation(&self) -> u64 {
        self.state.lock().unwrap().next
    }

    /// The run's folder.
    #[getter]
    fn folder(&self) -> PathBuf {
        self.state.lock().unwrap().dir.clone()
    }

    /// What the run's optimiser asks this generation, one candidate a row (none for an
    /// external optimiser, whose candidates are the user's).
    fn ask<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<f64>>> {
        let mut state = self.state.lock().unwrap();
        let dimension = state.names.len();
        let (_, asked) = state.pending(py)?;
        let flat: Vec<f64> = asked.iter().flatten().copied().collect();
        let array = Array2::from_shape_vec((asked.len(), dimension), flat)
            .map_err(|e| PyRuntimeError::new_err(e.to_string()))?;
        Ok(array.into_pyarray(py))
    }

    /// Plays `candidates` (one a row) on this generation's games, records the generation
    /// (history, validation when due, plots, checkpoint) and returns their fitness in order.
    fn evaluate<'py>(
        &self,
        py: Python<'py>,
        candidates: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyArray1<f64>>> {
        if crate::weights::is_complex(candidates)? {
            return Err(PyTypeError::new_err(
                "evaluate takes real candidates: these are complex numbers",
            ));
        }
        let rows: Vec<Vec<f64>> = candidates.extract().map_err(|_| {
            PyTypeError::new_err(
                "evaluate takes the candidates as a 2-D array (or a list of lists) of numbers, one a row",
            )
        })?;
        let mut state = self.state.lock().unwrap();
        let dimension = state.names.len();
        if let Some(row) = rows.iter().find(|r| r.len() != dimension) {
            return Err(PyValueError::new_err(format!(
                "a candidate has {} weights; the run tunes {dimension} features: {}",
                row.len(),
                state.names.join(", ")
            )));
        }
        state.pending(py)?;
        let sent = state
            .to_run
            .as_ref()
            .is_some_and(|to| to.send(rows).is_ok());
        if !sent {
            return Err(state.ended(py));
        }
        match state.recv(py)? {
            Some(FromRun::Scored(fitness)) => {
                state.pending = None;
                state.next += 1;
                Ok(fitness.into_pyarray(py))
            }
            Some(_) => Err(PyRuntimeError::new_err("the run is out of step")),
            None => Err(state.ended(py)),
        }
    }

    /// After the last generation: scores the best on the held-out games, writes best.toml
    /// and report.html, and returns what `evolve()` returns, as JSON. Before it: stops the
    /// run, checkpointed (`Run.resume(folder)` continues it), with the error saying so.
    /// Ctrl-C stops the held-out games where they are: KeyboardInterrupt says how to resume,
    /// and `Run.resume(folder)` scores them again.
    fn finish(&self, py: Python<'_>) -> PyResult<String> {
        let mut state = self.state.lock().unwrap();
        if state.finished {
            return Err(PyRuntimeError::new_err("finish() was called already"));
        }
        state.to_run = None;
        state.finished = true;
        let thread = state
            .thread
            .take()
            .ok_or_else(|| PyRuntimeError::new_err("the run has ended"))?;
        let mut signal = None;
        while !thread.is_finished() {
            py.detach(|| std::thread::sleep(SLICE));
            if signal.is_none()
                && let Err(e) = py.check_signals()
            {
                host_stop_flag().store(true, Ordering::SeqCst);
                signal = Some(e);
            }
        }
        let finished = py
            .detach(|| thread.join())
            .map_err(|_| PyRuntimeError::new_err("the run's thread panicked"))?;
        match (finished, signal) {
            (Ok((config, result, opponents)), None) => Ok(summary(&config, &result, opponents)),
            (Err(e), None) => Err(to_py(e)),
            (Err(e), Some(_)) => Err(PyKeyboardInterrupt::new_err(format!("{e:#}"))),
            (Ok((_, result, _)), Some(_)) => Err(PyKeyboardInterrupt::new_err(format!(
                "the run finished before it could stop: {} holds its best.toml",
                result.dir.display()
            ))),
        }
    }
}
