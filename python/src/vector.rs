//! Many games stepped in one call, in parallel (the Gymnasium vector environments' engine),
//! and the Connect-N opponents of the single environment.

use crate::engine::Engine;
use crate::errors::to_py;
use crate::games::{PyConnect, PyContest, PyPuyo, PyTetris};
use crate::moves::Move;
use crate::state::State;
use numpy::ndarray::{Array1, Array2, Array3};
use numpy::{IntoPyArray, PyArray1, PyArray2, PyReadonlyArray1};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyTuple;
use rayon::prelude::*;
use stacktune::games::connect::Connect;
use stacktune::games::connect::agents::{Agent, Opponent};
use stacktune::games::contest::Contest;
use stacktune::games::puyo::Puyo;
use stacktune::games::tetris::Tetris;

/// One game of a vector: its state, the seed of its episode, and the seed step to its next.
struct Slot<G: Engine> {
    state: State<G>,
    seed: u64,
}

/// What a step or reset gives back, as plain vectors filled in parallel.
struct Frame {
    boards: Vec<u8>,
    pieces: Vec<i64>,
    masks: Vec<bool>,
    features: Vec<f32>,
    rewards: Vec<f64>,
    terminated: Vec<bool>,
    truncated: Vec<bool>,
    /// Score and moves of the episode that ended in this step (0 where none did).
    final_scores: Vec<f64>,
    final_moves: Vec<u64>,
}

/// N games of one kind; game i plays the seeds `seed + i`, `seed + i + N`, ... one episode
/// after the other (autoreset), each as `stacktune play --seed` deals it.
pub struct Vector<G: Engine> {
    slots: Vec<Slot<G>>,
    max_pieces: u64,
    features: bool,
}

impl<G: Engine> Vector<G> {
    fn new(template: &State<G>, n: usize, max_pieces: u64, features: bool) -> Vector<G> {
        let slots = (0..n)
            .map(|i| Slot {
                state: State::new(template.game.clone(), i as u64),
                seed: i as u64,
            })
            .collect();
        Vector {
            slots,
            max_pieces,
            features,
        }
    }

    fn sizes(&self) -> (usize, usize, usize, usize, usize, usize) {
        let game = &self.slots[0].state.game;
        let (rows, columns) = game.shape();
        let features = if self.features {
            game.feature_names().len()
        } else {
            0
        };
        (
            self.slots.len(),
            rows * columns,
            game.piece_names().len(),
            game.actions(),
            features,
            rows,
        )
    }

    fn frame(&self) -> Frame {
        let (n, cells, pieces, actions, features, _) = self.sizes();
        Frame {
            boards: vec![0; n * cells],
            pieces: vec![0; n * pieces],
            masks: vec![false; n * actions],
            // One unused value a game without features, so that every game has its chunk.
            features: vec![0.0; n * (actions * features).max(1)],
            rewards: vec![0.0; n],
            terminated: vec![false; n],
            truncated: vec![false; n],
            final_scores: vec![0.0; n],
            final_moves: vec![0; n],
        }
    }

    /// Restarts every game, game i on seed `seed + i`.
    fn reset(&mut self, seed: u64) -> Frame {
        self.slots.par_iter_mut().enumerate().for_each(|(i, slot)| {
            slot.seed = seed.wrapping_add(i as u64);
            slot.state.restart(slot.seed);
        });
        let mut frame = self.frame();
        self.observe(&mut frame);
        frame
    }

    /// Plays `actions[i]` in game i, restarting each game that ends on its next seed.
    fn step(&mut self, actions: &[i64]) -> Result<Frame, String> {
        let n = self.slots.len() as u64;
        let mut frame = self.frame();
        let max_pieces = self.max_pieces;
        let results: Vec<Result<(), String>> = self
            .slots
            .par_iter_mut()
            .zip(actions)
            .zip(frame.rewards.par_iter_mut())
            .zip(frame.terminated.par_iter_mut())
            .zip(frame.truncated.par_iter_mut())
            .zip(frame.final_scores.par_iter_mut())
            .zip(frame.final_moves.par_iter_mut())
            .enumerate()
            .map(
                |(i, ((((((slot, &action), reward), terminated), truncated), score), moves))| {
                    let state = &mut slot.state;
                    let mv = usize::try_from(action)
                        .ok()
                        .and_then(|a| state.by_action(a))
                        .ok_or_else(|| {
                            format!("game {i}: action {action} is not a legal move of its position")
                        })?;
                    *reward = state.play(mv).points;
                    *terminated = state.done();
                    *truncated = !*terminated && max_pieces > 0 && state.moves_played >= max_pieces;
                    if *terminated || *truncated {
                        *score = state.score;
                        *moves = state.moves_played;
                        slot.seed = slot.seed.wrapping_add(n);
                        state.restart(slot.seed);
                    }
                    Ok(())
                },
            )
            .collect();
        results.into_iter().collect::<Result<(), String>>()?;
        self.observe(&mut frame);
        Ok(frame)
    }

    /// Writes every game's board, pieces, mask and features into `frame`.
    fn observe(&mut self, frame: &mut Frame) {
        let (_, cells, pieces, actions, features, _) = self.sizes();
        let want_features = self.features;
        self.slots
            .par_iter_mut()
            .zip(frame.boards.par_chunks_mut(cells))
            .zip(frame.pieces.par_chunks_mut(pieces))
            .zip(frame.masks.par_chunks_mut(actions))
            .zip(frame.features.par_chunks_mut((actions * features).max(1)))
            .for_each(|((((slot, board), piece), mask), feature)| {
                let state = &mut slot.state;
                state.game.fill_board(&state.position, board);
                state.game.fill_pieces(&state.position, piece);
                state.mask_into(mask);
                if want_features {
                    state.features_by_action(feature);
                }
            });
    }
}

/// The frame as Python arrays: a dict of observations (board, pieces, features when asked
/// for), the masks, rewards, terminated, truncated, and the ended episodes' scores and moves.
fn frame_to_py<'py, G: Engine>(
    py: Python<'py>,
    v: &Vector<G>,
    f: Frame,
) -> PyResult<Bound<'py, PyTuple>> {
    let (n, cells, pieces, actions, features, rows) = v.sizes();
    let columns = cells / rows;
    let obs = pyo3::types::PyDict::new(py);
    obs.set_item(
        "board",
        Array3::from_shape_vec((n, rows, columns), f.boards)
            .expect("cells")
            .into_pyarray(py),
    )?;
    obs.set_item(
        "pieces",
        Array2::from_shape_vec((n, pieces), f.pieces)
            .expect("pieces")
            .into_pyarray(py),
    )?;
    if v.features {
        obs.set_item(
            "features",
            Array3::from_shape_vec((n, actions, features), f.features)
                .expect("features")
                .into_pyarray(py),
        )?;
    }
    let masks: Bound<'py, PyArray2<bool>> = Array2::from_shape_vec((n, actions), f.masks)
        .expect("masks")
        .into_pyarray(py);
    let rewards: Bound<'py, PyArray1<f64>> = Array1::from_vec(f.rewards).into_pyarray(py);
    let terminated: Bound<'py, PyArray1<bool>> = Array1::from_vec(f.terminated).into_pyarray(py);
    let truncated: Bound<'py, PyArray1<bool>> = Array1::from_vec(f.truncated).into_pyarray(py);
    let scores: Bound<'py, PyArray1<f64>> = Array1::from_vec(f.final_scores).into_pyarray(py);
    let moves: Bound<'py, PyArray1<u64>> = Array1::from_vec(f.final_moves).into_pyarray(py);
    PyTuple::new(
        py,
        [
            obs.into_any(),
            masks.into_any(),
            rewards.into_any(),
            terminated.into_any(),
            truncated.into_any(),
            scores.into_any(),
            moves.into_any(),
        ],
    )
}

macro_rules! vector_class {
    ($class:ident, $name:literal, $game:ty, $single:ty) => {
        /// N games of one kind stepped together in Rust, in parallel: the engine of the
        /// vector environment (`stacktune.envs`).
        #[pyclass(module = "stacktune", name = $name)]
        pub struct $class {
            inner: Vector<$game>,
        }

        #[pymethods]
        impl $class {
            /// `n` games with `game`'s rules; each episode stops after `max_pieces` moves (0:
            /// never); `features` adds every placement's features by action to the observation.
            #[new]
            #[pyo3(signature = (game, n, *, max_pieces=0, features=false))]
            fn new(
                game: PyRef<'_, $single>,
                n: usize,
                max_pieces: u64,
                features: bool,
            ) -> PyResult<Self> {
                if n == 0 {
                    return Err(PyValueError::new_err(
                        "a vector needs at least one game (n >= 1)",
                    ));
                }
                Ok($class {
                    inner: Vector::new(&game.state, n, max_pieces, features),
                })
            }

            /// Restarts game i on seed `seed + i`.
            fn reset<'py>(&mut self, py: Python<'py>, seed: u64) -> PyResult<Bound<'py, PyTuple>> {
                let inner = &mut self.inner;
                let frame = py.detach(|| inner.reset(seed));
                frame_to_py(py, &self.inner, frame)
            }

            /// Plays action `actions[i]` in game i; a game that ends restarts on its next seed.
            fn step<'py>(
                &mut self,
                py: Python<'py>,
                actions: PyReadonlyArray1<'py, i64>,
            ) -> PyResult<Bound<'py, PyTuple>> {
                let actions = actions.as_slice()?.to_vec();
                if actions.len() != self.inner.slots.len() {
                    return Err(PyValueError::new_err(format!(
                        "{} actions for {} games: give one action per game",
                        actions.len(),
                        self.inner.slots.len()
                    )));
                }
                let inner = &mut self.inner;
                let frame = py
                    .detach(|| inner.step(&actions))
                    .map_err(PyValueError::new_err)?;
                frame_to_py(py, &self.inner, frame)
            }

            /// The number of games.
            fn __len__(&self) -> usize {
                self.inner.slots.len()
            }
        }
    };
}

vector_class!(TetrisVector, "TetrisVector", Tetris, PyTetris);
vector_class!(ContestVector, "ContestTetrisVector", Contest, PyContest);
vector_class!(PuyoVector, "PuyoVector", Puyo, PyPuyo);
vector_class!(ConnectVector, "ConnectNVector", Connect, PyConnect);

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<TetrisVector>()?;
    m.add_class::<ContestVector>()?;
    m.add_class::<PuyoVector>()?;
    m.add_class::<ConnectVector>()?;
    Ok(())
}

/// A Connect-N opponent: `random`, `tutorial`, `negamax4` or a connect weights file (one ply),
/// as `stacktune play --opponent` takes them.
#[pyclass(module = "stacktune", frozen)]
pub struct ConnectOpponent {
    opponent: Opponent,
    game: Connect,
}

#[pymethods]
impl ConnectOpponent {
    #[new]
    fn new(name: &str, game: PyRef<'_, PyConnect>) -> PyResult<Self> {
        let rules = (*game.state.game).clone();
        let opponent = Opponent::parse(&rules, name).map_err(to_py)?;
        Ok(ConnectOpponent {
            opponent,
            game: rules,
        })
    }

    /// The opponent's column in `game`, tie-breaks drawn from the game's seeded stream.
    fn choose(&self, py: Python<'_>, game: PyRefMut<'_, PyConnect>) -> PyResult<Move> {
        let mut game = game;
        let state = &mut game.state;
        if state.done() {
            return Err(PyValueError::new_err(
                "the game is over: no move can be played",
            ));
        }
        let (opponent, rules) = (&self.opponent, &self.game);
        let position = state.position;
        let dealer = &mut state.dealer;
        let column = py.detach(|| opponent.agent(rules).choose(&position, dealer));
        Ok(state.game.describe(&state.position, column))
    }

    fn __repr__(&self) -> String {
        format!("ConnectOpponent({})", self.opponent.name())
    }
}
