//! A run of a game written in Python (`stacktune.custom.evolve`): the library's run loop,
//! whose games a Python function plays (in worker processes of its own). The run is on the
//! calling thread with the GIL released; each batch of games takes the GIL to call Python.

use crate::commands::{evolve_args, summary};
use crate::errors::to_py;
use numpy::PyReadonlyArray2;
use pyo3::exceptions::PyKeyboardInterrupt;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use stacktune_base::stop::host_stop_flag;
use stacktune_run::HostedSpec;
use stacktune_run::evolution::execute_hosted;
use stacktune_run::hosted::{HostPlayer, HostScores, HostedGame};
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};

/// Plays a batch by calling `play(candidates, seeds, max_moves)`, which returns the scores
/// and the moves (candidates × seeds each). Python's error (a game breaking the protocol,
/// KeyboardInterrupt) is kept to be raised as it is, not as a run's error line.
struct PythonPlayer {
    play: Py<PyAny>,
    /// `frames(weights, seed, max_moves)`: the text frames of one game (a list of str).
    frames: Py<PyAny>,
    error: Mutex<Option<PyErr>>,
}

impl HostPlayer for PythonPlayer {
    fn play(
        &self,
        candidates: &[Vec<f64>],
        seeds: &[u64],
        max_moves: u64,
    ) -> anyhow::Result<Option<HostScores>> {
        let played = Python::attach(|py| -> PyResult<HostScores> {
            let got = self
                .play
                .call1(py, (candidates.to_vec(), seeds.to_vec(), max_moves))?;
            let (scores, moves): (PyReadonlyArray2<f64>, PyReadonlyArray2<i64>) =
                got.extract(py)?;
            let rows = |a: numpy::ndarray::ArrayView2<'_, f64>| -> Vec<Vec<f64>> {
                a.rows().into_iter().map(|r| r.to_vec()).collect()
            };
            let moves = moves
                .as_array()
                .rows()
                .into_iter()
                .map(|r| r.iter().map(|&m| m.max(0) as u64).collect())
                .collect();
            Ok(HostScores {
                scores: rows(scores.as_array()),
                moves,
            })
        });
        match played {
            Ok(played) => Ok(Some(played)),
            Err(e) => {
                let line = Python::attach(|py| e.value(py).to_string());
                if self.interrupted(e) {
                    return Ok(None);
                }
                anyhow::bail!("the Python game's play failed: {line}")
            }
        }
    }

    /// A game that fails to render leaves the page without its replay, not the run stopped:
    /// its games have already been played with these weights. Ctrl-C while it renders stops
    /// the run once this generation is checkpointed.
    fn frames(&self, weights: &[f64], seed: u64, max_moves: u64) -> Vec<String> {
        let rendered = Python::attach(|py| {
            self.frames
                .call1(py, (weights.to_vec(), seed, max_moves))
                .and_then(|f| f.extract::<Vec<String>>(py))
        });
        match rendered {
            Ok(frames) => frames,
            Err(e) => {
                // Only an interrupt is kept: a game that fails to render is not an error.
                if !self.interrupted(e) {
                    self.error.lock().unwrap().take();
                }
                Vec::new()
            }
        }
    }
}

impl PythonPlayer {
    /// Keeps `e` to be raised as it is; whether it is Ctrl-C's KeyboardInterrupt, which also
    /// raises the run's stop flag (the run stops at its last checkpoint and says how to
    /// resume).
    fn interrupted(&self, e: PyErr) -> bool {
        let interrupt = Python::attach(|py| e.is_instance_of::<PyKeyboardInterrupt>(py));
        if interrupt {
            host_stop_flag().store(true, Ordering::SeqCst);
        }
        *self.error.lock().unwrap() = Some(e);
        interrupt
    }
}

/// Runs `evolve` for the game `class` (`module:QualName`, named `name`, with `features`)
/// whose batches `host`'s first function plays and whose page replay its second renders;
/// returns what `evolve()` returns, as JSON.
#[pyfunction]
#[pyo3(signature = (config_json, name, class, features, host, **flags))]
pub fn evolve_hosted(
    py: Python<'_>,
    config_json: Option<String>,
    name: String,
    class: String,
    features: Vec<String>,
    host: (Py<PyAny>, Py<PyAny>),
    flags: Option<&Bound<'_, PyDict>>,
) -> PyResult<String> {
    let (play, frames) = host;
    let args = evolve_args("custom.evolve()", config_json, flags)?;
    let player = Arc::new(PythonPlayer {
        play,
        frames,
        error: Mutex::new(None),
    });
    let game =
        HostedGame::new(HostedSpec { name, class }, &features, player.clone()).map_err(to_py)?;
    host_stop_flag().store(false, Ordering::SeqCst);
    let done = py.detach(|| execute_hosted(args, &game));
    let kept = player.error.lock().unwrap().take();
    let interrupted = kept
        .as_ref()
        .is_some_and(|k| k.is_instance_of::<PyKeyboardInterrupt>(py));
    match (done, kept) {
        (Ok((config, result)), _) if !interrupted => Ok(summary(&config, &result, 0)),
        // Ctrl-C, with the run's own words: where it stopped and how to resume.
        (Err(e), _) if interrupted => Err(PyKeyboardInterrupt::new_err(format!("{e:#}"))),
        (Ok((_, result)), _) => Err(PyKeyboardInterrupt::new_err(format!(
            "the run finished before it could stop: {} holds its best.toml",
            result.dir.display()
        ))),
        (Err(e), kept) => Err(kept.unwrap_or_else(|| to_py(e))),
    }
}
