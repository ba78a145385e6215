//! `Player`: a weights file with its search, asked for its move as `stacktune play` would.

use crate::commands::play_args;
use crate::engine::Engine;
use crate::errors::to_py;
use crate::games::{PyConnect, PyContest, PyPuyo, PyTetris};
use crate::interrupt::abandon_on_signal;
use crate::moves::Move;
use crate::pickle::Recipe;
use crate::state::State;
use crate::weights::{Given, args_in_memory};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyMapping, PyTuple, PyType};
use stacktune_game::{Game, Policy};
use stacktune_players::registry::AnyGame;
use stacktune_players::search::{Player, Search};
use std::path::PathBuf;
use std::sync::Arc;

/// A tuned player: a weights file under the search its `[search]` table (or the flags) give,
/// on the game the file names. `choose(game)` is the move `stacktune play` makes there.
#[pyclass(module = "stacktune", name = "Player", frozen)]
pub struct PyPlayer {
    game: AnyGame,
    player: Player,
    /// What it was made from (a path, or a dict of weights): how it pickles.
    source: Py<PyAny>,
    /// The weights file's path, or None for weights held in memory: what messages name.
    path: Option<PathBuf>,
    /// The keywords it was made with: how it pickles.
    flags: Py<PyDict>,
}

#[pymethods]
impl PyPlayer {
    /// Loads `weights` (a TOML weights file, or a dict of feature name to weight held in
    /// memory, which then needs `game=`); keyword arguments are `stacktune play`'s game and
    /// search flags (`beam_width=`, `depth=`, `level=`, ...), the file filling in the rest.
    #[new]
    #[pyo3(signature = (weights, **flags))]
    fn new(
        py: Python<'_>,
        weights: &Bound<'_, PyAny>,
        flags: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<PyPlayer> {
        let given = PyDict::new(py);
        if let Some(f) = flags {
            given.update(f.as_mapping())?;
        }
        let (mut args, memory) = if weights.cast::<PyMapping>().is_ok() {
            let memory = Given::extract("Player()", weights, None)?;
            (args_in_memory(py, "Player()", Some(&given))?, Some(memory))
        } else {
            let kwargs = given.copy()?;
            kwargs.set_item("weights", weights)?;
            (play_args("Player()", Some(&kwargs))?, None)
        };
        let (game, file, path) = match memory {
            Some(memory) => {
                let file = memory.into_file(&args)?;
                let game = stacktune_run::play::game_for(&file, &args.weights, &mut args.game)
                    .map_err(to_py)?;
                (game, file, None)
            }
            None => {
                let (game, file) =
                    stacktune_run::play::game_and_weights(&args.weights, &mut args.game)
                        .map_err(to_py)?;
                (game, file, Some(args.weights.clone()))
            }
        };
        let player = stacktune_players::with_game!(&game, g => {
            stacktune_run::play::player_for(g, &args.game, &file, &args.weights)
        })
        .map_err(to_py)?;
        Ok(PyPlayer {
            game,
            player,
            source: weights.clone().unbind(),
            path,
            flags: given.unbind(),
        })
    }

    /// A player from weights held in memory: a dict of feature name to weight, or a vector
    /// with `names=` (by default the game's features in its order), on the game `game=` and
    /// the other keywords describe, as `Player(path, ...)` with a file of the same weights.
    #[classmethod]
    #[pyo3(signature = (weights, names=None, **flags))]
    fn from_weights(
        _cls: &Bound<'_, PyType>,
        py: Python<'_>,
        weights: &Bound<'_, PyAny>,
        names: Option<Bound<'_, PyAny>>,
        flags: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<PyPlayer> {
        let given = Given::extract("Player.from_weights()", weights, names.as_ref())?;
        let args = args_in_memory(py, "Player.from_weights()", flags)?;
        let named = PyDict::new(py);
        for (name, w) in given.into_file(&args)?.weights {
            named.set_item(name, w)?;
        }
        PyPlayer::new(py, named.as_any(), flags)
    }

    fn __getnewargs_ex__<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<(Bound<'py, PyTuple>, Bound<'py, PyDict>)> {
        Ok((
            (self.source.clone_ref(py),).into_pyobject(py)?,
            self.flags.bind(py).copy()?,
        ))
    }

    /// The move this player makes in `game`'s position; ValueError once the game is over (so
    /// that `game.play(player.choose(game))` types). Ctrl-C raises KeyboardInterrupt at once;
    /// the search it stopped finishes unseen.
    fn choose(&self, py: Python<'_>, game: &Bound<'_, PyAny>) -> PyResult<Move> {
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
    fn new_game(
        slf: &Bound<'_, Self>,
        #[pyo3(from_py_with = crate::state::seed)] seed: u64,
    ) -> PyResult<Py<PyAny>> {
        let py = slf.py();
        let recipe = || -> PyResult<Recipe> {
            Ok(Recipe::new(
                slf.clone().into_any(),
                Some("new_game"),
                (seed,).into_pyobject(py)?,
                PyDict::new(py),
            ))
        };
        Ok(match &slf.get().game {
            AnyGame::Tetris(g) => Py::new(
                py,
                PyTetris::made(State::new(Arc::new(g.clone()), seed), recipe()?),
            )?
            .into_any(),
            AnyGame::Contest(g) => Py::new(
                py,
                PyContest::made(State::new(Arc::new(g.clone()), seed), recipe()?),
            )?
            .into_any(),
            AnyGame::Puyo(g) => Py::new(
                py,
                PyPuyo::made(State::new(Arc::new(g.clone()), seed), recipe()?),
            )?
            .into_any(),
            AnyGame::Connect(g) => Py::new(
                py,
                PyConnect::made(State::new(Arc::new(g.clone()), seed), recipe()?),
            )?
            .into_any(),
            AnyGame::Guideline(_) => {
                return Err(PyValueError::new_err(
                    "new_game: guideline Tetris has no game object in Python; play its weights with stacktune.play, or in matches with the versus command",
                ));
            }
        })
    }

    /// The weights by feature name.
    #[getter]
    fn weights(&self) -> Vec<(&'static str, f64)> {
        let names = stacktune_players::with_game!(&self.game, g => g.feature_names());
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
        let (name, rules) = stacktune_players::with_game!(&self.game, g => (g.name(), g.rules()));
        format!(
            "Player({}: {name}, {rules}, search {:?})",
            self.path
                .as_ref()
                .map_or("weights in memory".into(), |p| p.display().to_string()),
            self.player.search
        )
    }
}

impl PyPlayer {
    fn choose_in<G: Engine>(&self, py: Python<'_>, state: &State<G>) -> PyResult<Move> {
        let mine = stacktune_players::with_game!(&self.game, g => (g.name(), g.feature_names(), g.rules()));
        if mine
            != (
                state.game.name(),
                state.game.feature_names(),
                state.game.rules(),
            )
        {
            return Err(PyValueError::new_err(format!(
                "{} plays {} ({}), not this {} game ({})",
                match &self.path {
                    Some(path) => format!("weights file {}", path.display()),
                    None => "weights in memory".to_string(),
                },
                mine.0,
                mine.2,
                state.game.name(),
                state.game.rules()
            )));
        }
        let over = || PyValueError::new_err("the game is over: there is no move to choose");
        if state.over {
            return Err(over());
        }
        // A one- or two-ply choice takes microseconds, and Ctrl-C lands right after it; a
        // deeper search may take minutes and goes to the worker, which it can be left to.
        let mv = if matches!(self.player.search, Search::OnePly | Search::Lookahead) {
            let (game, position, player) = (&state.game, &state.position, &self.player);
            py.detach(|| player.choose(&**game, position))
        } else {
            let (game, position, player) = (
                state.game.clone(),
                state.position.clone(),
                self.player.clone(),
            );
            abandon_on_signal(py, move || player.choose(&*game, &position))?
        };
        mv.map(|m| state.game.describe(&state.position, m))
            .ok_or_else(over)
    }
}
