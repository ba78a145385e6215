//! `Player`: a weights file with its search, asked for its move as `stacktune play` would.

use crate::engine::Engine;
use crate::errors::{bad_arguments, to_py};
use crate::flags::argv;
use crate::games::{PyConnect, PyContest, PyPuyo, PyTetris};
use crate::moves::Move;
use crate::state::State;
use clap::Parser;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use stacktune::commands::play::PlayArgs;
use stacktune::game::{Game, Policy};
use stacktune::games::AnyGame;
use stacktune::search::Player;
use std::path::PathBuf;
use std::sync::Arc;

/// `stacktune play`'s flags, parsed as the CLI parses them.
#[derive(Parser)]
#[command(name = "stacktune play", no_binary_name = true)]
pub struct PlayCli {
    #[command(flatten)]
    pub args: PlayArgs,
}

/// Parses keyword arguments as `stacktune play`'s flags.
pub fn play_args(kwargs: Option<&Bound<'_, PyDict>>) -> PyResult<PlayArgs> {
    let argv = argv("play", kwargs)?;
    PlayCli::try_parse_from(&argv[1..])
        .map(|c| c.args)
        .map_err(|e| bad_arguments(&e))
}

/// A tuned player: a weights file under the search its `[search]` table (or the flags) give,
/// on the game the file names. `choose(game)` is the move `stacktune play` makes there.
#[pyclass(module = "stacktune", name = "Player", frozen)]
pub struct PyPlayer {
    game: AnyGame,
    player: Player,
    path: PathBuf,
}

#[pymethods]
impl PyPlayer {
    /// Loads `weights` (a TOML weights file); keyword arguments are `stacktune play`'s game
    /// and search flags (`beam_width=`, `depth=`, `level=`, ...), the file filling in the rest.
    #[new]
    #[pyo3(signature = (weights, **flags))]
    fn new(
        py: Python<'_>,
        weights: PathBuf,
        flags: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<PyPlayer> {
        let kwargs = PyDict::new(py);
        if let Some(f) = flags {
            kwargs.update(f.as_mapping())?;
        }
        kwargs.set_item("weights", weights.clone())?;
        let mut args = play_args(Some(&kwargs))?;
        let (game, file) =
            stacktune::embed::game_and_weights(&args.weights, &mut args.game).map_err(to_py)?;
        let player = stacktune::with_game!(&game, g => {
            stacktune::embed::player_for(g, &args.game, &file, &args.weights)
        })
        .map_err(to_py)?;
        Ok(PyPlayer {
            game,
            player,
            path: weights,
        })
    }

    /// The move this player makes in `game`'s position (None when it has none).
    fn choose(&self, py: Python<'_>, game: &Bound<'_, PyAny>) -> PyResult<Option<Move>> {
        if let Ok(g) = game.cast::<PyTetris>() {
            return self.choose_in(py, &g.borrow().state);
        }
        if let Ok(g) = game.cast::<PyContest>() {
            return self.choose_in(py, &g.borrow().state);
        }
        if let Ok(g) = game.cast::<PyPuyo>() {
            return self.choose_in(py, &g.borrow().state);
        }
        if let Ok(g) = game.cast::<PyConnect>() {
            return self.choose_in(py, &g.borrow().state);
        }
        Err(PyTypeError::new_err(format!(
            "choose takes a Tetris, ContestTetris, Puyo or ConnectN game, not {}",
            game.get_type().name()?
        )))
    }

    /// A new game of the kind and rules this player plays, game 0 of `stacktune play --seed
    /// seed` with this weights file.
    #[pyo3(signature = (seed=0))]
    fn new_game(&self, py: Python<'_>, seed: u64) -> PyResult<Py<PyAny>> {
        Ok(match &self.game {
            AnyGame::Tetris(g) => Py::new(
                py,
                PyTetris {
                    state: State::new(Arc::new(g.clone()), seed),
                },
            )?
            .into_any(),
            AnyGame::Contest(g) => Py::new(
                py,
                PyContest {
                    state: State::new(Arc::new(g.clone()), seed),
                },
            )?
            .into_any(),
            AnyGame::Puyo(g) => Py::new(
                py,
                PyPuyo {
                    state: State::new(Arc::new(g.clone()), seed),
                },
            )?
            .into_any(),
            AnyGame::Connect(g) => Py::new(
                py,
                PyConnect {
                    state: State::new(Arc::new(g.clone()), seed),
                },
            )?
            .into_any(),
        })
    }

    /// The weights by feature name.
    #[getter]
    fn weights(&self) -> Vec<(&'static str, f64)> {
        let names = stacktune::with_game!(&self.game, g => g.feature_names());
        names
            .iter()
            .enumerate()
            .map(|(i, &n)| (n, self.player.eval.weight(i)))
            .collect()
    }

    /// The search the player plays under.
    #[getter]
    fn search(&self) -> String {
        format!("{:?}", self.player.search)
    }

    fn __repr__(&self) -> String {
        let (name, rules) = stacktune::with_game!(&self.game, g => (g.name(), g.rules()));
        format!(
            "Player({}: {name}, {rules}, search {:?})",
            self.path.display(),
            self.player.search
        )
    }
}

impl PyPlayer {
    fn choose_in<G: Engine>(&self, py: Python<'_>, state: &State<G>) -> PyResult<Option<Move>> {
        let mine = stacktune::with_game!(&self.game, g => (g.name(), g.feature_names()));
        if mine != (state.game.name(), state.game.feature_names()) {
            return Err(PyValueError::new_err(format!(
                "weights file {} plays {} ({}), not this {} game ({})",
                self.path.display(),
                mine.0,
                stacktune::with_game!(&self.game, g => g.rules()),
                state.game.name(),
                state.game.rules()
            )));
        }
        if state.over {
            return Ok(None);
        }
        let (game, position, player) = (state.game.clone(), state.position.clone(), &self.player);
        let mv = py.detach(|| player.choose(&*game, &position));
        Ok(mv.map(|m| state.game.describe(&state.position, m)))
    }
}
