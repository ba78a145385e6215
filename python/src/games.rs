//! The game classes: `Tetris`, `ContestTetris`, `Puyo` and `ConnectN`, each a [`State`] of
//! its game with the same methods, and its own constructors.

use crate::engine::Engine;
use crate::errors::to_py;
use crate::moves::{Move, Outcome};
use crate::pickle::Recipe;
use crate::state::State;
use numpy::ndarray::{Array1, Array2};
use numpy::{IntoPyArray, PyArray1, PyArray2};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyInt, PyTuple};
use stacktune_game::Game;
use stacktune_game::Render;
use stacktune_games::connect::Connect;
use stacktune_games::puyo::Puyo;
use stacktune_games::settings::GameSpec;
use stacktune_games::tetris::Tetris;
use stacktune_games::tetris::contest::Contest;
use stacktune_games::tetris::contest::rules::{self as contest_rules, LETTERS};
use stacktune_games::tetris::contest::stream::Dealer;
use stacktune_games::tetris::pieces::PIECE_LETTERS;
use stacktune_players::registry::{AnyGame, Build};
use std::sync::Arc;

/// The board of `state` as a rows × columns array, top row first.
pub fn board_array<G: Engine>(state: &State<G>) -> Array2<u8> {
    let (rows, columns) = state.game.shape();
    let mut cells = vec![0u8; rows * columns];
    state.game.fill_board(&state.position, &mut cells);
    Array2::from_shape_vec((rows, columns), cells).expect("rows × columns cells")
}

/// The pieces the player sees, as [`Engine::fill_pieces`] numbers them.
pub fn pieces_array<G: Engine>(state: &State<G>) -> Array1<i64> {
    let mut pieces = vec![0i64; state.game.piece_names().len()];
    state.game.fill_pieces(&state.position, &mut pieces);
    Array1::from_vec(pieces)
}

/// The legal move that `mv` names: a [`Move`] of this position or an action number.
pub fn pick<G: Engine>(state: &mut State<G>, mv: &Bound<'_, PyAny>) -> PyResult<G::Move> {
    let actions = state.game.actions();
    let (action, given) = if let Ok(m) = mv.cast::<Move>() {
        (m.get().action, Some(m.get().clone()))
    } else if mv.is_instance_of::<PyInt>() && !mv.is_instance_of::<PyBool>() {
        let number = mv.str()?.to_string();
        match mv.extract::<usize>() {
            Ok(a) if a < actions => (a, None),
            _ => {
                return Err(PyValueError::new_err(format!(
                    "action {number} is out of range: this game's actions are 0..{actions}"
                )));
            }
        }
    } else {
        return Err(PyTypeError::new_err(format!(
            "a move is a Move from legal_moves() or an action number, not {}",
            mv.get_type().name()?
        )));
    };
    if state.done() {
        return Err(PyValueError::new_err(
            "the game is over: no move can be played (start a new game)",
        ));
    }
    let game = state.game.clone();
    let found = state.by_action(action).filter(|&m| {
        given
            .as_ref()
            .is_none_or(|g| *g == game.describe(&state.position, m))
    });
    found.ok_or_else(|| {
        let legal: Vec<String> = state
            .legal()
            .to_vec()
            .into_iter()
            .map(|m| game.action(m).to_string())
            .collect();
        let what = match given {
            Some(g) => format!("{} is not a legal move of this position", g.__repr__()),
            None => format!("action {action} is not a legal move of this position"),
        };
        PyValueError::new_err(format!("{what}; legal actions: {}", legal.join(", ")))
    })
}

/// The game `spec` builds, which must be of the kind `pick` takes out of it.
pub fn build<G>(spec: &GameSpec, pick: impl Fn(AnyGame) -> Option<G>) -> PyResult<Arc<G>> {
    let any = spec.build().map_err(to_py)?;
    Ok(Arc::new(pick(any).expect("the spec names this game")))
}

macro_rules! game_class {
    ($class:ident, $name:literal, $game:ty, $doc:literal) => {
        #[doc = $doc]
        #[pyclass(module = "stacktune", name = $name)]
        pub struct $class {
            pub state: State<$game>,
            /// The call that made the game, and the actions played since: how it pickles.
            recipe: Recipe,
            history: Vec<u16>,
        }

        impl $class {
            pub fn made(state: State<$game>, recipe: Recipe) -> Self {
                $class {
                    state,
                    recipe,
                    history: Vec::new(),
                }
            }
        }

        #[pymethods]
        impl $class {
            /// The board, rows top first (see the class doc for what a cell's number means).
            #[getter]
            fn board<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray2<u8>> {
                board_array(&self.state).into_pyarray(py)
            }

            /// The pieces the player sees, named by `piece_names` (0: none).
            #[getter]
            fn pieces<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<i64>> {
                pieces_array(&self.state).into_pyarray(py)
            }

            /// What each entry of `pieces` is.
            #[getter]
            fn piece_names(&self) -> Vec<&'static str> {
                self.state.game.piece_names().to_vec()
            }

            /// The features of a placement, in the order of `features()`'s columns.
            #[getter]
            fn feature_names(&self) -> Vec<&'static str> {
                self.state.game.feature_names().to_vec()
            }

            /// The ruleset and size, as weights files and reports name them.
            #[getter]
            fn rules(&self) -> String {
                self.state.game.rules()
            }

            /// The score so far, as `stacktune play` counts it for this game.
            #[getter]
            fn score(&self) -> f64 {
                self.state.score
            }

            /// Moves played so far.
            #[getter]
            fn moves_played(&self) -> u64 {
                self.state.moves_played
            }

            /// Whether the game is over: a move ended it, or no placement is left.
            #[getter]
            fn done(&mut self) -> bool {
                self.state.done()
            }

            /// How many action numbers there are (a Gymnasium `Discrete` space's size).
            #[getter]
            fn actions(&self) -> usize {
                self.state.game.actions()
            }

            /// Every legal placement, in the game's fixed enumeration order.
            fn legal_moves(&mut self) -> Vec<Move> {
                let game = self.state.game.clone();
                let position = self.state.position.clone();
                self.state
                    .legal()
                    .iter()
                    .map(|&m| game.describe(&position, m))
                    .collect()
            }

            /// Every feature of every legal placement: one row per `legal_moves()` entry, one
            /// column per `feature_names` entry; the values `stacktune moves --json` prints.
            fn features<'py>(&mut self, py: Python<'py>) -> Bound<'py, PyArray2<f64>> {
                let n = self.state.game.feature_names().len();
                let mut values = Vec::new();
                self.state.features_into(&mut values);
                Array2::from_shape_vec((values.len() / n, n), values)
                    .expect("a row per move")
                    .into_pyarray(py)
            }

            /// Every legal placement's features at its action number's row (actions ×
            /// features, zeros where no legal move has that number): the afterstates a
            /// heuristic or value-based agent scores.
            fn features_by_action<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray2<f32>> {
                let game = &self.state.game;
                let (actions, n) = (game.actions(), game.feature_names().len());
                let mut values = vec![0f32; actions * n];
                self.state.features_by_action(&mut values);
                Array2::from_shape_vec((actions, n), values)
                    .expect("a row per action")
                    .into_pyarray(py)
            }

            /// True at the action number of every legal placement.
            fn action_mask<'py>(&mut self, py: Python<'py>) -> Bound<'py, PyArray1<bool>> {
                let mut mask = vec![false; self.state.game.actions()];
                self.state.mask_into(&mut mask);
                Array1::from_vec(mask).into_pyarray(py)
            }

            /// Plays a move (a `Move` from `legal_moves()`, or its action number) and says
            /// what it did; the next pieces come from the game's seed, as in `stacktune play`.
            fn play(&mut self, r#move: &Bound<'_, PyAny>) -> PyResult<Outcome> {
                let mv = pick(&mut self.state, r#move)?;
                self.history.push(self.state.game.action(mv) as u16);
                Ok(Outcome::from(&self.state.play(mv)))
            }

            /// Plays a sequence of action numbers in one call (the GIL released) and returns
            /// the points they scored; stops with ValueError at the first illegal one, the
            /// moves before it played.
            fn play_all(&mut self, py: Python<'_>, actions: Vec<i64>) -> PyResult<f64> {
                let (state, history) = (&mut self.state, &mut self.history);
                py.detach(|| {
                    let mut points = 0.0;
                    for (i, &action) in actions.iter().enumerate() {
                        let mv = usize::try_from(action)
                            .ok()
                            .and_then(|a| state.by_action(a))
                            .ok_or_else(|| {
                                format!(
                                    "move {i}: action {action} is not a legal move of its position"
                                )
                            })?;
                        history.push(action as u16);
                        points += state.play(mv).points;
                    }
                    Ok::<f64, String>(points)
                })
                .map_err(PyValueError::new_err)
            }

            /// The environment's step in one call: plays `action` if it is legal and returns
            /// (outcome, observation), the observation being (board, pieces, action mask,
            /// features by action when asked for); (None, observation) when it is not legal.
            fn step_observe<'py>(
                &mut self,
                py: Python<'py>,
                action: i64,
                features: bool,
            ) -> PyResult<(Option<Outcome>, Bound<'py, PyTuple>)> {
                let mv = usize::try_from(action)
                    .ok()
                    .and_then(|a| self.state.by_action(a));
                if mv.is_some() {
                    self.history.push(action as u16);
                }
                let outcome = mv.map(|m| Outcome::from(&self.state.play(m)));
                Ok((outcome, self.observe(py, features)?))
            }

            /// (board, pieces, action mask, features by action or None): what an
            /// environment observes, in one call.
            fn observe<'py>(
                &mut self,
                py: Python<'py>,
                features: bool,
            ) -> PyResult<Bound<'py, PyTuple>> {
                let board = board_array(&self.state).into_pyarray(py).into_any();
                let pieces = pieces_array(&self.state).into_pyarray(py).into_any();
                let mask = self.action_mask(py).into_any();
                let features = if features {
                    self.features_by_action(py).into_any()
                } else {
                    py.None().into_bound(py)
                };
                PyTuple::new(py, [board, pieces, mask, features])
            }

            /// An independent copy: same position, same pieces to come.
            fn copy(&self, py: Python<'_>) -> Self {
                $class {
                    state: self.state.clone(),
                    recipe: self.recipe.clone_ref(py),
                    history: self.history.clone(),
                }
            }

            fn __copy__(&self, py: Python<'_>) -> Self {
                self.copy(py)
            }

            fn __deepcopy__(&self, py: Python<'_>, _memo: &Bound<'_, PyAny>) -> Self {
                self.copy(py)
            }

            fn __reduce__<'py>(
                &self,
                py: Python<'py>,
            ) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyTuple>)> {
                let mark = <$game as Engine>::dealer_mark(&self.state.dealer);
                self.recipe.reduce(py, &self.history, mark)
            }

            /// Unpickling: puts the dealer back where the pickled game's was.
            fn _set_dealer_mark(&mut self, mark: u128) {
                <$game as Engine>::set_dealer_mark(&mut self.state.dealer, mark);
            }

            fn __repr__(&self) -> String {
                format!(
                    "{} ({}), score {}, {} moves played\n{}",
                    $name,
                    self.state.game.rules(),
                    self.state.score,
                    self.state.moves_played,
                    self.state.game.render(&self.state.position).trim_end()
                )
            }
        }
    };
}

game_class!(
    PyTetris,
    "Tetris",
    Tetris,
    "Research Tetris (the papers' rules: drop from above, no slides). A board cell is 1 when \
     filled; pieces are numbered 1..7 for I O T S Z L J (0: none)."
);
game_class!(
    PyContest,
    "ContestTetris",
    Contest,
    "Contest Tetris (10 × 22, hold, five previews, 180 turns; seed S is contest seed S). A \
     board cell is 1 when filled; pieces are numbered 1..7 for I L J T O S Z (0: none)."
);
game_class!(
    PyPuyo,
    "Puyo",
    Puyo,
    "Puyo Puyo on 6 × 12 (13 rows under tsu). A board cell is its colour, 1..5 (0: empty); a \
     move places the pair `pieces` shows (axis, child)."
);
game_class!(
    PyConnect,
    "ConnectN",
    Connect,
    "Connect-N for two players. A board cell is 1 for the first player's disc (X), 2 for the \
     second's (O); `pieces` holds the side to move. A move's features are from the mover's side."
);

/// Board text from a list of row strings or one string of lines, as board files hold it, or
/// from a 2-D array of cell numbers as `board` gives them (a numpy array or a list of rows),
/// `cells[n]` being the character of number n.
fn board_text(board: &Bound<'_, PyAny>, cells: &[char]) -> PyResult<String> {
    if let Ok(text) = board.extract::<String>() {
        return Ok(text);
    }
    if let Ok(rows) = board.extract::<Vec<String>>() {
        return Ok(rows.join("\n"));
    }
    let numbers = match board.hasattr("tolist")? {
        true => board.call_method0("tolist")?,
        false => board.clone(),
    };
    let Ok(rows) = numbers.extract::<Vec<Vec<i64>>>() else {
        if let Ok(dtype) = board.getattr("dtype") {
            return Err(PyTypeError::new_err(format!(
                "a board array holds cell numbers: a 2-D array of an integer dtype (uint8, as `board` gives it), not {}-D of dtype {}",
                board.getattr("ndim")?,
                dtype.str()?
            )));
        }
        return Err(PyTypeError::new_err(format!(
            "a board is a list of row strings (top row first) or a 2-D array of cell numbers, not {}",
            board.get_type().name()?
        )));
    };
    let mut text = String::new();
    for (r, row) in rows.iter().enumerate() {
        for (c, &n) in row.iter().enumerate() {
            let cell = usize::try_from(n).ok().and_then(|n| cells.get(n));
            let Some(&cell) = cell else {
                return Err(PyValueError::new_err(format!(
                    "board row {r}, column {c}: cell {n} is out of range 0..{}",
                    cells.len()
                )));
            };
            text.push(cell);
        }
        text.push('\n');
    }
    Ok(text)
}

/// What a Tetris cell's number is in a board file.
const TETRIS_CELLS: [char; 2] = ['.', '#'];

#[pymethods]
impl PyTetris {
    /// Research Tetris (the papers' rules) on a `width` × `height` board, game 0 of
    /// `stacktune play --seed seed`: the flags of the CLI as keywords.
    #[new]
    #[pyo3(signature = (width=10, height=20, seed=0, *, bag7=false, preview=false, allow_topout=false))]
    fn new(
        py: Python<'_>,
        width: usize,
        height: usize,
        #[pyo3(from_py_with = crate::state::seed)] seed: u64,
        bag7: bool,
        preview: bool,
        allow_topout: bool,
    ) -> PyResult<PyTetris> {
        let game = build(
            &tetris_spec(width, height, bag7, preview, allow_topout),
            |g| match g {
                AnyGame::Tetris(t) => Some(t),
                _ => None,
            },
        )?;
        let recipe = Recipe::new(
            py.get_type::<PyTetris>().into_any(),
            None,
            (width, height, seed).into_pyobject(py)?,
            Recipe::keywords(
                py,
                &[
                    ("bag7", PyBool::new(py, bag7).to_owned().into_any()),
                    ("preview", PyBool::new(py, preview).to_owned().into_any()),
                    (
                        "allow_topout",
                        PyBool::new(py, allow_topout).to_owned().into_any(),
                    ),
                ],
            )?,
        );
        Ok(PyTetris::made(State::new(game, seed), recipe))
    }

    /// A game from a board (rows top first, `.` empty, anything else filled; its size is the
    /// game's) with `piece` (one of IOTSZLJ) to place; the pieces after it come from `seed`.
    #[staticmethod]
    #[pyo3(signature = (board, piece, seed=0, *, bag7=false, preview=false, allow_topout=false))]
    fn from_board(
        board: &Bound<'_, PyAny>,
        piece: &str,
        #[pyo3(from_py_with = crate::state::seed)] seed: u64,
        bag7: bool,
        preview: bool,
        allow_topout: bool,
    ) -> PyResult<PyTetris> {
        let py = board.py();
        let text = board_text(board, &TETRIS_CELLS)?;
        let parsed =
            stacktune_games::tetris::listing::parse_board(&text, "board").map_err(to_py)?;
        let index = piece_number(piece, &PIECE_LETTERS)?;
        let spec = tetris_spec(parsed.width(), parsed.height(), bag7, preview, allow_topout);
        let game = build(&spec, |g| match g {
            AnyGame::Tetris(t) => Some(t),
            _ => None,
        })?;
        let dealer = game.dealer(seed);
        let position = stacktune_games::tetris::Position::new(parsed, index as u8);
        let recipe = Recipe::new(
            py.get_type::<PyTetris>().into_any(),
            Some("from_board"),
            (board, piece, seed).into_pyobject(py)?,
            Recipe::keywords(
                py,
                &[
                    ("bag7", PyBool::new(py, bag7).to_owned().into_any()),
                    ("preview", PyBool::new(py, preview).to_owned().into_any()),
                    (
                        "allow_topout",
                        PyBool::new(py, allow_topout).to_owned().into_any(),
                    ),
                ],
            )?,
        );
        Ok(PyTetris::made(State::at(game, position, dealer), recipe))
    }
}

fn tetris_spec(
    width: usize,
    height: usize,
    bag7: bool,
    preview: bool,
    allow_topout: bool,
) -> GameSpec {
    GameSpec {
        game: Some("tetris".into()),
        width: Some(width),
        height: Some(height),
        bag7,
        preview,
        allow_topout,
        ..GameSpec::default()
    }
}

/// The index of a piece letter in `letters`.
fn piece_number(piece: &str, letters: &[char]) -> PyResult<usize> {
    let mut chars = piece.chars();
    match (chars.next(), chars.next()) {
        (Some(c), None) => letters.iter().position(|&l| l == c.to_ascii_uppercase()),
        _ => None,
    }
    .ok_or_else(|| {
        let valid: Vec<String> = letters
            .iter()
            .filter(|&&l| l != '-')
            .map(|l| l.to_string())
            .collect();
        PyValueError::new_err(format!(
            "unknown piece `{piece}`; valid pieces: {}",
            valid.join(", ")
        ))
    })
}

#[pymethods]
impl PyContest {
    /// Contest Tetris ("Learn Python with Tetris", 10 × 22, hold and five previews) at `level`,
    /// contest seed `seed`: game 0 of `stacktune play --rules contest --seed seed`. Level 4
    /// plays `turns` turns (default 180,000, as `--turns`).
    #[new]
    #[pyo3(signature = (level=2, seed=0, *, all_clear=false, turns=None))]
    fn new(
        py: Python<'_>,
        level: u8,
        #[pyo3(from_py_with = crate::state::seed)] seed: u64,
        all_clear: bool,
        turns: Option<u32>,
    ) -> PyResult<PyContest> {
        let game = build(&contest_spec(level, all_clear, turns), |g| match g {
            AnyGame::Contest(c) => Some(c),
            _ => None,
        })?;
        let recipe = Recipe::new(
            py.get_type::<PyContest>().into_any(),
            None,
            (level, seed).into_pyobject(py)?,
            Recipe::keywords(
                py,
                &[
                    (
                        "all_clear",
                        PyBool::new(py, all_clear).to_owned().into_any(),
                    ),
                    ("turns", turns.into_pyobject(py)?.into_any()),
                ],
            )?,
        );
        Ok(PyContest::made(State::new(game, seed), recipe))
    }

    /// A game from a 10 × 22 board (rows top first) with `current` to place, the `next` five
    /// previews, the `hold` piece (letters of IOTSZLJ; None: empty), `turn` turns played and
    /// `failures` failed spawns so far (odd: the last was a game over, so the next is an
    /// overlapping spawn); later pieces come from contest seed `seed`.
    #[staticmethod]
    #[pyo3(signature = (board, current, next, hold=None, turn=0, seed=0, *, level=2, all_clear=false, failures=0, turns=None))]
    #[allow(clippy::too_many_arguments)]
    fn from_board(
        board: &Bound<'_, PyAny>,
        current: &str,
        next: &str,
        hold: Option<&str>,
        turn: u32,
        #[pyo3(from_py_with = crate::state::seed)] seed: u64,
        level: u8,
        all_clear: bool,
        failures: u32,
        turns: Option<u32>,
    ) -> PyResult<PyContest> {
        let py = board.py();
        let text = board_text(board, &TETRIS_CELLS)?;
        let parsed =
            stacktune_games::tetris::listing::parse_board(&text, "board").map_err(to_py)?;
        if (parsed.width(), parsed.height()) != (contest_rules::WIDTH, contest_rules::HEIGHT) {
            return Err(PyValueError::new_err(format!(
                "a contest board is {} × {}, not {} × {}",
                contest_rules::WIDTH,
                contest_rules::HEIGHT,
                parsed.width(),
                parsed.height()
            )));
        }
        if next.chars().count() != 5 {
            return Err(PyValueError::new_err(format!(
                "next is the five previews, soonest first (e.g. \"IOTSZ\"), not `{next}`"
            )));
        }
        let game = build(&contest_spec(level, all_clear, turns), |g| match g {
            AnyGame::Contest(c) => Some(c),
            _ => None,
        })?;
        if turn >= game.turns() {
            return Err(PyValueError::new_err(format!(
                "turn {turn} is out of range 0..{}",
                game.turns()
            )));
        }
        let mut previews = [0u8; 5];
        for (p, c) in previews.iter_mut().zip(next.chars()) {
            *p = piece_number(&c.to_string(), &LETTERS)? as u8;
        }
        let dealer = game.dealer(seed);
        let position = contest_rules::Position {
            board: parsed,
            current: piece_number(current, &LETTERS)? as u8,
            hold: match hold {
                Some(h) => piece_number(h, &LETTERS)? as u8,
                None => 0,
            },
            next: previews,
            turn,
            failures,
            cycle: dealer.cycles(),
        };
        let recipe = Recipe::new(
            py.get_type::<PyContest>().into_any(),
            Some("from_board"),
            (board, current, next, hold, turn, seed).into_pyobject(py)?,
            Recipe::keywords(
                py,
                &[
                    ("level", level.into_pyobject(py)?.into_any()),
                    (
                        "all_clear",
                        PyBool::new(py, all_clear).to_owned().into_any(),
                    ),
                    ("failures", failures.into_pyobject(py)?.into_any()),
                    ("turns", turns.into_pyobject(py)?.into_any()),
                ],
            )?,
        );
        Ok(PyContest::made(State::at(game, position, dealer), recipe))
    }
}

fn contest_spec(level: u8, all_clear: bool, turns: Option<u32>) -> GameSpec {
    GameSpec {
        game: Some("tetris".into()),
        rules: Some("contest".into()),
        level: Some(level),
        turns,
        all_clear,
        ..GameSpec::default()
    }
}

#[pymethods]
impl PyPuyo {
    /// Puyo Puyo on 6 × 12 under `rules` (`programming` or `tsu`) with `colours` colours:
    /// game 0 of `stacktune play --game puyo --seed seed`.
    #[new]
    #[pyo3(signature = (rules="programming", colours=4, seed=0, *, preview=false, allow_topout=false, fitness=None))]
    fn new(
        py: Python<'_>,
        rules: &str,
        colours: u8,
        #[pyo3(from_py_with = crate::state::seed)] seed: u64,
        preview: bool,
        allow_topout: bool,
        fitness: Option<String>,
    ) -> PyResult<PyPuyo> {
        let recipe = Recipe::new(
            py.get_type::<PyPuyo>().into_any(),
            None,
            (rules, colours, seed).into_pyobject(py)?,
            Recipe::keywords(
                py,
                &[
                    ("preview", PyBool::new(py, preview).to_owned().into_any()),
                    (
                        "allow_topout",
                        PyBool::new(py, allow_topout).to_owned().into_any(),
                    ),
                    ("fitness", fitness.clone().into_pyobject(py)?.into_any()),
                ],
            )?,
        );
        let game = build(
            &puyo_spec(rules, colours, preview, allow_topout, fitness),
            |g| match g {
                AnyGame::Puyo(p) => Some(p),
                _ => None,
            },
        )?;
        Ok(PyPuyo::made(State::new(game, seed), recipe))
    }

    /// A game from a field (12 rows, or 13 under the tsu rules with the hidden row first; `.`
    /// empty, colour digits 1 to 5) with `pair` (two colour digits, axis first, e.g. "41") to
    /// place; later pairs come from `seed`.
    #[staticmethod]
    #[pyo3(signature = (board, pair, seed=0, *, colours=4, preview=false, allow_topout=false, fitness=None))]
    #[allow(clippy::too_many_arguments)]
    fn from_board(
        board: &Bound<'_, PyAny>,
        pair: &str,
        #[pyo3(from_py_with = crate::state::seed)] seed: u64,
        colours: u8,
        preview: bool,
        allow_topout: bool,
        fitness: Option<String>,
    ) -> PyResult<PyPuyo> {
        use stacktune_games::puyo::listing;
        let py = board.py();
        let recipe = Recipe::new(
            py.get_type::<PyPuyo>().into_any(),
            Some("from_board"),
            (board, pair, seed).into_pyobject(py)?,
            Recipe::keywords(
                py,
                &[
                    ("colours", colours.into_pyobject(py)?.into_any()),
                    ("preview", PyBool::new(py, preview).to_owned().into_any()),
                    (
                        "allow_topout",
                        PyBool::new(py, allow_topout).to_owned().into_any(),
                    ),
                    ("fitness", fitness.clone().into_pyobject(py)?.into_any()),
                ],
            )?,
        );
        let text = board_text(board, &['.', '1', '2', '3', '4', '5'])?;
        let (field, rules) = listing::parse_board(&text, "board").map_err(to_py)?;
        let pair = listing::parse_pair(pair).map_err(to_py)?;
        let spec = puyo_spec(rules.name(), colours, preview, allow_topout, fitness);
        let game = build(&spec, |g| match g {
            AnyGame::Puyo(p) => Some(p),
            _ => None,
        })?;
        let dealer = game.dealer(seed);
        let position = stacktune_games::puyo::Position::new(field, pair);
        Ok(PyPuyo::made(State::at(game, position, dealer), recipe))
    }
}

fn puyo_spec(
    rules: &str,
    colours: u8,
    preview: bool,
    allow_topout: bool,
    fitness: Option<String>,
) -> GameSpec {
    GameSpec {
        game: Some("puyo".into()),
        rules: Some(rules.into()),
        colours: Some(colours),
        preview,
        allow_topout,
        fitness,
        ..GameSpec::default()
    }
}

#[pymethods]
impl PyConnect {
    /// Connect-N on `rows` × `columns` with `inarow` in a row to win; the first player
    /// (`X`, 1 on the board) moves first. Opponents (`ConnectOpponent`) draw their
    /// tie-breaks from `seed`'s stream.
    #[new]
    #[pyo3(signature = (rows=6, columns=7, inarow=4, seed=0))]
    fn new(
        py: Python<'_>,
        rows: usize,
        columns: usize,
        inarow: usize,
        #[pyo3(from_py_with = crate::state::seed)] seed: u64,
    ) -> PyResult<PyConnect> {
        let game = Arc::new(Connect::new(rows, columns, inarow).map_err(to_py)?);
        let recipe = Recipe::new(
            py.get_type::<PyConnect>().into_any(),
            None,
            (rows, columns, inarow, seed).into_pyobject(py)?,
            PyDict::new(py),
        );
        Ok(PyConnect::made(State::new(game, seed), recipe))
    }

    /// A game from a board (rows top first: `.` empty, `X` the first player, `O` the second;
    /// the side to move follows from the counts).
    #[staticmethod]
    #[pyo3(signature = (board, inarow=4, seed=0))]
    fn from_board(
        board: &Bound<'_, PyAny>,
        inarow: usize,
        #[pyo3(from_py_with = crate::state::seed)] seed: u64,
    ) -> PyResult<PyConnect> {
        let py = board.py();
        let text = board_text(board, &['.', 'X', 'O'])?;
        let (game, position) =
            stacktune_games::connect::listing::parse_board(&text, "board", inarow)
                .map_err(to_py)?;
        let game = Arc::new(game);
        let dealer = game.dealer(seed);
        let recipe = Recipe::new(
            py.get_type::<PyConnect>().into_any(),
            Some("from_board"),
            (board, inarow, seed).into_pyobject(py)?,
            PyDict::new(py),
        );
        Ok(PyConnect::made(State::at(game, position, dealer), recipe))
    }
}
