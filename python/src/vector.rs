//! Many games stepped in one call, in parallel (the Gymnasium vector environments' engine),
//! and the Connect-N opponents of the single environment.

use crate::engine::Engine;
use crate::errors::to_py;
use crate::games::{PyConnect, PyContest, PyPuyo, PyTetris};
use crate::moves::Move;
use crate::state::State;
use numpy::{
    PyArray1, PyArray2, PyArray3, PyArrayMethods, PyReadwriteArray1, PyReadwriteArray2,
    PyReadwriteArray3,
};
use pyo3::exceptions::{PyRuntimeError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};
use rayon::iter::Either;
use rayon::prelude::*;
use stacktune_game::Outcome;
use stacktune_games::connect::Connect;
use stacktune_games::connect::agents::{Agent, Opponent};
use stacktune_games::puyo::Puyo;
use stacktune_games::tetris::Tetris;
use stacktune_games::tetris::contest::Contest;

/// The sizes of a vector's arrays, fixed by its game.
#[derive(Clone, Copy)]
struct Shape {
    games: usize,
    rows: usize,
    columns: usize,
    pieces: usize,
    actions: usize,
    /// Features a placement (0 when the observation has none).
    features: usize,
}

/// The most games a vector holds: a million Tetris games with features take some 4 GB.
const MAX_GAMES: usize = 1_000_000;

impl Shape {
    /// Refuses a vector too large to hold, before any of it is allocated: more games than
    /// [`MAX_GAMES`], or more memory than the machine has free (the games themselves, of
    /// `slot` bytes each, and their arrays, twice with `same_step`).
    fn check_size<Slot>(self, same_step: bool) -> PyResult<()> {
        let n = self.games;
        if n > MAX_GAMES {
            return Err(PyValueError::new_err(format!(
                "a vector of {n} games is more than the {MAX_GAMES} one can hold; use fewer games (n)"
            )));
        }
        let observation =
            self.rows * self.columns + self.pieces * 8 + self.actions * (1 + 4 * self.features);
        let arrays = (observation + 8) * (1 + usize::from(same_step)) + 5 * 8;
        let bytes = (arrays + std::mem::size_of::<Slot>()) as u64 * n as u64;
        stacktune_base::limits::check_memory(bytes, &format!("a vector of {n} games"))
            .map_err(to_py)
    }
}

/// What the last step did in one game: its reward, and the score and moves of the episode it
/// played (the final figures when the step ended it).
#[derive(Clone, Copy, Default)]
struct Ending {
    reward: f64,
    terminated: bool,
    truncated: bool,
    score: f64,
    moves: u64,
}

/// Plays the opponent's move in a game and says what it did.
type Reply<G> = Box<dyn Fn(&mut State<G>) -> Outcome + Send + Sync>;

/// The opponent a two-player game's vector plays against: it answers every move of the agent
/// (and opens when the agent plays second), and the reward is the agent's result, 1 for a win
/// and -1 for a loss, as `ConnectFourEnv` gives it.
pub struct Rival<G: Engine> {
    reply: Reply<G>,
    agent_first: bool,
}

/// Whether `outcome`'s move won the game.
fn won(outcome: &Outcome) -> bool {
    outcome.terminal_value == Some(f64::INFINITY)
}

/// One game of a vector.
struct Slot<G: Engine> {
    state: State<G>,
    /// The seed of the episode being played.
    seed: u64,
    /// The move this step's action names: None for an illegal action, or for a game whose
    /// episode ended in the previous step (its action is ignored).
    chosen: Option<G::Move>,
    /// The episode ended in the previous step and restarts in this one (next-step autoreset).
    ended: bool,
    last: Ending,
}

/// One game's rows of an observation's arrays.
struct Row<'a> {
    board: &'a mut [u8],
    pieces: &'a mut [i64],
    mask: &'a mut [bool],
    features: Option<&'a mut [f32]>,
}

/// An observation's arrays for every game, as the slices the parallel loop splits.
struct Obs<'a> {
    boards: &'a mut [u8],
    pieces: &'a mut [i64],
    masks: &'a mut [bool],
    features: &'a mut [f32],
}

/// Each game's [`Row`] of `obs`, in game order.
fn rows<'a>(obs: Obs<'a>, shape: Shape) -> impl IndexedParallelIterator<Item = Row<'a>> {
    let features = if shape.features > 0 {
        Either::Left(
            obs.features
                .par_chunks_mut(shape.actions * shape.features)
                .map(Some),
        )
    } else {
        Either::Right((0..shape.games).into_par_iter().map(|_| None))
    };
    obs.boards
        .par_chunks_mut(shape.rows * shape.columns)
        .zip(obs.pieces.par_chunks_mut(shape.pieces))
        .zip(obs.masks.par_chunks_mut(shape.actions))
        .zip(features)
        .map(|(((board, pieces), mask), features)| Row {
            board,
            pieces,
            mask,
            features,
        })
}

impl<G: Engine> Slot<G> {
    /// Writes the current position into `row`.
    fn observe(&mut self, row: Row<'_>) {
        let state = &mut self.state;
        state.game.fill_board(&state.position, row.board);
        state.game.fill_pieces(&state.position, row.pieces);
        state.mask_into(row.mask);
        if let Some(features) = row.features {
            state.features_by_action(features);
        }
    }

    /// Starts the episode of `seed` (the rival's opening move played, if it opens).
    fn start(&mut self, seed: u64, rival: Option<&Rival<G>>) {
        self.seed = seed;
        self.state.restart(seed);
        self.ended = false;
        if let Some(rival) = rival.filter(|r| !r.agent_first) {
            (rival.reply)(&mut self.state);
        }
    }

    /// Plays the chosen move, or starts the next episode of a game that ended in the previous
    /// step. An episode that ends here waits for the next step, unless `last` takes its last
    /// observation (same-step autoreset), when the next episode starts at once.
    fn advance(
        &mut self,
        games: u64,
        max_pieces: u64,
        rival: Option<&Rival<G>>,
        last: Option<Row<'_>>,
    ) {
        if self.ended {
            self.start(self.seed.wrapping_add(games), rival);
            self.last = Ending::default();
            return;
        }
        let Some(mv) = self.chosen.take() else {
            unreachable!("every action was checked legal before the step")
        };
        let state = &mut self.state;
        let outcome = state.play(mv);
        let reward = match rival {
            None => outcome.points,
            Some(_) if outcome.game_over => {
                if won(&outcome) {
                    1.0
                } else {
                    0.0
                }
            }
            Some(rival) => {
                if won(&(rival.reply)(state)) {
                    -1.0
                } else {
                    0.0
                }
            }
        };
        let terminated = state.done();
        let truncated = !terminated && max_pieces > 0 && state.moves_played >= max_pieces;
        self.last = Ending {
            reward,
            terminated,
            truncated,
            score: state.score,
            moves: state.moves_played,
        };
        if terminated || truncated {
            match last {
                Some(row) => {
                    self.observe(row);
                    self.start(self.seed.wrapping_add(games), rival);
                }
                None => self.ended = true,
            }
        }
    }
}

/// N games of one kind; game i plays the seeds `seed + i`, `seed + i + N`, ... one episode
/// after the other (autoreset), each as `stacktune play --seed` deals it.
pub struct Vector<G: Engine> {
    slots: Vec<Slot<G>>,
    shape: Shape,
    max_pieces: u64,
    rival: Option<Rival<G>>,
    started: bool,
}

impl<G: Engine> Vector<G> {
    fn new(
        template: &State<G>,
        games: usize,
        max_pieces: u64,
        features: bool,
        rival: Option<Rival<G>>,
        same_step: bool,
    ) -> PyResult<Vector<G>> {
        let game = &template.game;
        let (rows, columns) = game.shape();
        let shape = Shape {
            games,
            rows,
            columns,
            pieces: game.piece_names().len(),
            actions: game.actions(),
            features: if features {
                game.feature_names().len()
            } else {
                0
            },
        };
        shape.check_size::<Slot<G>>(same_step)?;
        let slots = (0..games)
            .map(|i| Slot {
                state: State::new(template.game.clone(), i as u64),
                seed: i as u64,
                chosen: None,
                ended: false,
                last: Ending::default(),
            })
            .collect();
        Ok(Vector {
            slots,
            shape,
            max_pieces,
            rival,
            started: false,
        })
    }

    /// Restarts every game, game i on seed `seed + i`, and observes them into `now`.
    fn reset(&mut self, seed: u64, now: Obs<'_>) {
        let rival = self.rival.as_ref();
        self.slots
            .par_iter_mut()
            .zip(rows(now, self.shape))
            .enumerate()
            .for_each(|(i, (slot, row))| {
                slot.start(seed.wrapping_add(i as u64), rival);
                slot.last = Ending::default();
                slot.observe(row);
            });
        self.started = true;
    }

    /// Plays `actions[i]` in game i and observes every game into `now`; `last` (same-step
    /// autoreset) takes the last observation of each episode that ends. Refuses the step,
    /// no game touched, when an action is illegal.
    fn step(&mut self, actions: &[i64], now: Obs<'_>, last: Option<Obs<'_>>) -> Result<(), String> {
        self.slots
            .par_iter_mut()
            .zip(actions)
            .for_each(|(slot, &action)| {
                slot.chosen = if slot.ended {
                    None
                } else {
                    usize::try_from(action)
                        .ok()
                        .and_then(|a| slot.state.by_action(a))
                };
            });
        let illegal = self
            .slots
            .iter()
            .zip(actions)
            .position(|(slot, _)| !slot.ended && slot.chosen.is_none());
        if let Some(i) = illegal {
            return Err(format!(
                "game {i}: action {} is not a legal move of its position",
                actions[i]
            ));
        }
        let (shape, max_pieces, rival) = (self.shape, self.max_pieces, self.rival.as_ref());
        let last = match last {
            Some(obs) => Either::Left(rows(obs, shape).map(Some)),
            None => Either::Right((0..shape.games).into_par_iter().map(|_| None)),
        };
        self.slots
            .par_iter_mut()
            .zip(rows(now, shape))
            .zip(last)
            .for_each(|((slot, row), last)| {
                slot.advance(shape.games as u64, max_pieces, rival, last);
                slot.observe(row);
            });
        Ok(())
    }
}

/// The numpy arrays of one observation of every game, made once and written by every step.
struct ObsArrays {
    boards: Py<PyArray3<u8>>,
    pieces: Py<PyArray2<i64>>,
    masks: Py<PyArray2<bool>>,
    features: Py<PyArray3<f32>>,
}

/// Write access to an [`ObsArrays`] for the length of a step.
struct ObsAccess<'py> {
    boards: PyReadwriteArray3<'py, u8>,
    pieces: PyReadwriteArray2<'py, i64>,
    masks: PyReadwriteArray2<'py, bool>,
    features: PyReadwriteArray3<'py, f32>,
}

impl ObsArrays {
    fn new(py: Python<'_>, s: Shape) -> ObsArrays {
        ObsArrays {
            boards: PyArray3::zeros(py, [s.games, s.rows, s.columns], false).unbind(),
            pieces: PyArray2::zeros(py, [s.games, s.pieces], false).unbind(),
            masks: PyArray2::zeros(py, [s.games, s.actions], false).unbind(),
            features: PyArray3::zeros(py, [s.games, s.actions, s.features], false).unbind(),
        }
    }

    fn access<'py>(&self, py: Python<'py>) -> PyResult<ObsAccess<'py>> {
        let refused = |e: numpy::BorrowError| {
            PyRuntimeError::new_err(format!("the vector's arrays cannot be written: {e}"))
        };
        Ok(ObsAccess {
            boards: self.boards.bind(py).try_readwrite().map_err(refused)?,
            pieces: self.pieces.bind(py).try_readwrite().map_err(refused)?,
            masks: self.masks.bind(py).try_readwrite().map_err(refused)?,
            features: self.features.bind(py).try_readwrite().map_err(refused)?,
        })
    }

    /// The observation as a dict (`features` only when it has them) and the masks.
    fn to_py<'py>(
        &self,
        py: Python<'py>,
        s: Shape,
    ) -> PyResult<(Bound<'py, PyDict>, Bound<'py, PyAny>)> {
        let obs = PyDict::new(py);
        obs.set_item("board", self.boards.bind(py))?;
        obs.set_item("pieces", self.pieces.bind(py))?;
        if s.features > 0 {
            obs.set_item("features", self.features.bind(py))?;
        }
        Ok((obs, self.masks.bind(py).clone().into_any()))
    }
}

impl ObsAccess<'_> {
    fn slices(&mut self) -> PyResult<Obs<'_>> {
        Ok(Obs {
            boards: self.boards.as_slice_mut()?,
            pieces: self.pieces.as_slice_mut()?,
            masks: self.masks.as_slice_mut()?,
            features: self.features.as_slice_mut()?,
        })
    }
}

/// Every array a vector gives back, made once: the observation, the step's rewards and ends,
/// each game's running score and moves, and with same-step autoreset the last observation
/// and figures of the episodes that ended.
struct Arrays {
    now: ObsArrays,
    rewards: Py<PyArray1<f64>>,
    terminated: Py<PyArray1<bool>>,
    truncated: Py<PyArray1<bool>>,
    scores: Py<PyArray1<f64>>,
    moves: Py<PyArray1<i64>>,
    last: Option<LastArrays>,
}

/// The last observation, score and moves of the episodes that ended in a step.
struct LastArrays {
    obs: ObsArrays,
    scores: Py<PyArray1<f64>>,
    moves: Py<PyArray1<i64>>,
}

impl Arrays {
    fn new(py: Python<'_>, s: Shape, same_step: bool) -> Arrays {
        let n = s.games;
        Arrays {
            now: ObsArrays::new(py, s),
            rewards: PyArray1::zeros(py, n, false).unbind(),
            terminated: PyArray1::zeros(py, n, false).unbind(),
            truncated: PyArray1::zeros(py, n, false).unbind(),
            scores: PyArray1::zeros(py, n, false).unbind(),
            moves: PyArray1::zeros(py, n, false).unbind(),
            last: same_step.then(|| LastArrays {
                obs: ObsArrays::new(py, s),
                scores: PyArray1::zeros(py, n, false).unbind(),
                moves: PyArray1::zeros(py, n, false).unbind(),
            }),
        }
    }

    /// Copies each game's step figures into the arrays (after the parallel step).
    fn record<G: Engine>(&self, py: Python<'_>, slots: &[Slot<G>]) -> PyResult<()> {
        let mut rewards: PyReadwriteArray1<f64> = self.rewards.bind(py).try_readwrite()?;
        let mut terminated: PyReadwriteArray1<bool> = self.terminated.bind(py).try_readwrite()?;
        let mut truncated: PyReadwriteArray1<bool> = self.truncated.bind(py).try_readwrite()?;
        let mut scores: PyReadwriteArray1<f64> = self.scores.bind(py).try_readwrite()?;
        let mut moves: PyReadwriteArray1<i64> = self.moves.bind(py).try_readwrite()?;
        let (rewards, terminated, truncated) = (
            rewards.as_slice_mut()?,
            terminated.as_slice_mut()?,
            truncated.as_slice_mut()?,
        );
        let (scores, moves) = (scores.as_slice_mut()?, moves.as_slice_mut()?);
        for (i, slot) in slots.iter().enumerate() {
            rewards[i] = slot.last.reward;
            terminated[i] = slot.last.terminated;
            truncated[i] = slot.last.truncated;
            scores[i] = slot.state.score;
            moves[i] = slot.state.moves_played as i64;
        }
        if let Some(last) = &self.last {
            let mut final_scores: PyReadwriteArray1<f64> = last.scores.bind(py).try_readwrite()?;
            let mut final_moves: PyReadwriteArray1<i64> = last.moves.bind(py).try_readwrite()?;
            let (final_scores, final_moves) =
                (final_scores.as_slice_mut()?, final_moves.as_slice_mut()?);
            for (i, slot) in slots.iter().enumerate() {
                final_scores[i] = slot.last.score;
                final_moves[i] = slot.last.moves as i64;
            }
        }
        Ok(())
    }

    /// (observation, masks, rewards, terminated, truncated, scores, moves, last): `last` is
    /// None, or (observation, masks, scores, moves) of the episodes that ended in the step
    /// (same-step autoreset; rows of the games that did not end are stale).
    fn to_py<'py>(&self, py: Python<'py>, s: Shape) -> PyResult<Bound<'py, PyTuple>> {
        let (obs, masks) = self.now.to_py(py, s)?;
        let last = match &self.last {
            Some(LastArrays { obs, scores, moves }) => {
                let (obs, masks) = obs.to_py(py, s)?;
                PyTuple::new(
                    py,
                    [
                        obs.into_any(),
                        masks,
                        scores.bind(py).clone().into_any(),
                        moves.bind(py).clone().into_any(),
                    ],
                )?
                .into_any()
            }
            None => py.None().into_bound(py),
        };
        PyTuple::new(
            py,
            [
                obs.into_any(),
                masks,
                self.rewards.bind(py).clone().into_any(),
                self.terminated.bind(py).clone().into_any(),
                self.truncated.bind(py).clone().into_any(),
                self.scores.bind(py).clone().into_any(),
                self.moves.bind(py).clone().into_any(),
                last,
            ],
        )
    }
}

/// No opponent: the games other than Connect-N have one player.
fn no_rival<G: Engine>(_: &G, name: &str, _: bool) -> PyResult<Rival<G>> {
    Err(PyValueError::new_err(format!(
        "opponent {name:?}: only a Connect-N vector has an opponent"
    )))
}

/// `name` (`random`, `tutorial`, `negamax4` or a connect weights file, as `ConnectOpponent`
/// takes it) against the vector's agent, its tie-breaks drawn from each game's seeded stream.
fn connect_rival(game: &Connect, name: &str, agent_first: bool) -> PyResult<Rival<Connect>> {
    let opponent = stacktune_players::registry::connect_opponent(game, name).map_err(to_py)?;
    let rules = game.clone();
    Ok(Rival {
        reply: Box::new(move |state: &mut State<Connect>| {
            let column = opponent
                .agent(&rules)
                .choose(&state.position, &mut state.dealer);
            state.play(column)
        }),
        agent_first,
    })
}

macro_rules! vector_class {
    ($class:ident, $name:literal, $game:ty, $single:ty, $rival:expr) => {
        /// N games of one kind stepped together in Rust, in parallel: the engine of the
        /// vector environment (`stacktune.envs`). Every call writes into the same arrays,
        /// made once, and returns them.
        #[pyclass(module = "stacktune", name = $name)]
        pub struct $class {
            inner: Vector<$game>,
            arrays: Arrays,
        }

        #[pymethods]
        impl $class {
            /// `n` games with `game`'s rules; each episode stops after `max_pieces` moves (0:
            /// never); `features` adds every placement's features by action to the
            /// observation; `same_step` restarts an ended game in the step that ends it
            /// (keeping its last observation apart) instead of in the next one; `opponent`
            /// (Connect-N) answers every move, opening unless `agent_first`.
            #[new]
            #[pyo3(signature = (game, n, *, max_pieces=0, features=false, same_step=false, opponent=None, agent_first=true))]
            #[allow(clippy::too_many_arguments)]
            fn new(
                py: Python<'_>,
                game: PyRef<'_, $single>,
                n: usize,
                max_pieces: u64,
                features: bool,
                same_step: bool,
                opponent: Option<&str>,
                agent_first: bool,
            ) -> PyResult<Self> {
                if n == 0 {
                    return Err(PyValueError::new_err(
                        "a vector needs at least one game (n >= 1)",
                    ));
                }
                let rival = match opponent {
                    Some(name) => Some($rival(&*game.state.game, name, agent_first)?),
                    None if !agent_first => {
                        return Err(PyValueError::new_err(
                            "agent_first=False needs an opponent to open",
                        ));
                    }
                    None => None,
                };
                let inner = Vector::new(&game.state, n, max_pieces, features, rival, same_step)?;
                let arrays = Arrays::new(py, inner.shape, same_step);
                Ok($class { inner, arrays })
            }

            /// Restarts game i on seed `seed + i`.
            fn reset<'py>(
                &mut self,
                py: Python<'py>,
                #[pyo3(from_py_with = crate::state::seed)] seed: u64,
            ) -> PyResult<Bound<'py, PyTuple>> {
                let mut now = self.arrays.now.access(py)?;
                let now_slices = now.slices()?;
                let inner = &mut self.inner;
                py.detach(|| inner.reset(seed, now_slices));
                drop(now);
                self.arrays.record(py, &self.inner.slots)?;
                self.arrays.to_py(py, self.inner.shape)
            }

            /// Plays action `actions[i]` in game i. With next-step autoreset (the default) a
            /// game whose episode ended in the previous step ignores its action and starts its
            /// next episode on seed + n.
            fn step<'py>(
                &mut self,
                py: Python<'py>,
                actions: &Bound<'py, PyAny>,
            ) -> PyResult<Bound<'py, PyTuple>> {
                if !self.inner.started {
                    return Err(PyRuntimeError::new_err(
                        "step before reset: call reset() first",
                    ));
                }
                // An int64 array is read in place; any other sequence of ints is copied.
                let (readonly, owned);
                let actions: &[i64] = match actions.cast::<PyArray1<i64>>() {
                    Ok(array) => {
                        readonly = array.try_readonly()?;
                        readonly.as_slice()?
                    }
                    Err(_) => {
                        owned = actions.extract::<Vec<i64>>().map_err(|_| {
                            let kind = match actions.getattr("dtype") {
                                Ok(dtype) => format!("an array of dtype {dtype}"),
                                Err(_) => actions
                                    .get_type()
                                    .name()
                                    .map(|n| n.to_string())
                                    .unwrap_or_default(),
                            };
                            PyTypeError::new_err(format!(
                                "actions are one int per game (a 1-D int64 array or a list of ints), not {kind}"
                            ))
                        })?;
                        &owned
                    }
                };
                if actions.len() != self.inner.slots.len() {
                    return Err(PyValueError::new_err(format!(
                        "{} actions for {} games: give one action per game",
                        actions.len(),
                        self.inner.slots.len()
                    )));
                }
                let mut now = self.arrays.now.access(py)?;
                let mut last = match &self.arrays.last {
                    Some(last) => Some(last.obs.access(py)?),
                    None => None,
                };
                let now_slices = now.slices()?;
                let last_slices = match &mut last {
                    Some(access) => Some(access.slices()?),
                    None => None,
                };
                let inner = &mut self.inner;
                py.detach(|| inner.step(actions, now_slices, last_slices))
                    .map_err(PyValueError::new_err)?;
                drop((now, last));
                self.arrays.record(py, &self.inner.slots)?;
                self.arrays.to_py(py, self.inner.shape)
            }

            /// The number of games.
            fn __len__(&self) -> usize {
                self.inner.slots.len()
            }
        }
    };
}

vector_class!(TetrisVector, "TetrisVector", Tetris, PyTetris, no_rival);
vector_class!(
    ContestVector,
    "ContestTetrisVector",
    Contest,
    PyContest,
    no_rival
);
vector_class!(PuyoVector, "PuyoVector", Puyo, PyPuyo, no_rival);
vector_class!(
    ConnectVector,
    "ConnectNVector",
    Connect,
    PyConnect,
    connect_rival
);

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
        let opponent =
            stacktune_players::registry::connect_opponent(&rules, name).map_err(to_py)?;
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
