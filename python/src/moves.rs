//! The Python values of a move and of what a move did.

use pyo3::prelude::*;
use pyo3::types::PyDict;

/// One legal placement, as a person reads it: Tetris `piece`, `rotation`, `column` (and `hold`
/// under the contest rules); Puyo `pair`, `rotation`, `column`; Connect-N `column`. `action` is
/// its number in the game's fixed action space (what the Gymnasium environments take).
#[pyclass(module = "stacktune", frozen, eq, hash, get_all)]
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    pub action: usize,
    pub piece: Option<String>,
    pub rotation: Option<u8>,
    pub column: u8,
    pub hold: Option<bool>,
    pub pair: Option<(u8, u8)>,
}

#[pymethods]
impl Move {
    /// A move as `legal_moves()` gives it (for unpickling; `play` checks it is legal).
    #[new]
    #[pyo3(signature = (action, column, *, piece=None, rotation=None, hold=None, pair=None))]
    fn new(
        action: usize,
        column: u8,
        piece: Option<String>,
        rotation: Option<u8>,
        hold: Option<bool>,
        pair: Option<(u8, u8)>,
    ) -> Move {
        Move {
            action,
            piece,
            rotation,
            column,
            hold,
            pair,
        }
    }

    fn __getnewargs_ex__(&self) -> ((usize, u8), MoveKeywords) {
        (
            (self.action, self.column),
            MoveKeywords {
                piece: self.piece.clone(),
                rotation: self.rotation,
                hold: self.hold,
                pair: self.pair,
            },
        )
    }

    pub fn __repr__(&self) -> String {
        let mut parts = Vec::new();
        if let Some(p) = &self.piece {
            parts.push(format!("piece='{p}'"));
        }
        if let Some((a, c)) = self.pair {
            parts.push(format!("pair=({a}, {c})"));
        }
        if let Some(r) = self.rotation {
            parts.push(format!("rotation={r}"));
        }
        parts.push(format!("column={}", self.column));
        if let Some(h) = self.hold {
            parts.push(format!("hold={}", if h { "True" } else { "False" }));
        }
        format!("Move({})", parts.join(", "))
    }
}

/// What one move did: `lines` (Tetris) or puyos removed, `points` it scored, the `chain` it
/// fired (Puyo), whether it ended the game, and whether it won it (Connect-N).
#[pyclass(module = "stacktune", frozen, get_all)]
#[derive(Clone, Debug)]
pub struct Outcome {
    pub lines: u32,
    pub points: f64,
    pub chain: u32,
    pub game_over: bool,
    pub won: bool,
}

#[pymethods]
impl Outcome {
    fn __repr__(&self) -> String {
        format!(
            "Outcome(lines={}, points={}, chain={}, game_over={}, won={})",
            self.lines,
            self.points,
            self.chain,
            if self.game_over { "True" } else { "False" },
            if self.won { "True" } else { "False" }
        )
    }
}

impl From<&stacktune_game::Outcome> for Outcome {
    fn from(o: &stacktune_game::Outcome) -> Outcome {
        Outcome {
            lines: o.cleared,
            points: o.points,
            chain: o.chains,
            game_over: o.game_over,
            won: o.terminal_value == Some(f64::INFINITY),
        }
    }
}

/// A move's keywords, as `Move(...)` takes them.
pub struct MoveKeywords {
    piece: Option<String>,
    rotation: Option<u8>,
    hold: Option<bool>,
    pair: Option<(u8, u8)>,
}

impl<'py> IntoPyObject<'py> for MoveKeywords {
    type Target = PyDict;
    type Output = Bound<'py, PyDict>;
    type Error = PyErr;

    fn into_pyobject(self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let kwargs = PyDict::new(py);
        kwargs.set_item("piece", self.piece)?;
        kwargs.set_item("rotation", self.rotation)?;
        kwargs.set_item("hold", self.hold)?;
        kwargs.set_item("pair", self.pair)?;
        Ok(kwargs)
    }
}
