//! The Python values of a move and of what a move did.

use pyo3::prelude::*;

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

impl From<&stacktune::game::Outcome> for Outcome {
    fn from(o: &stacktune::game::Outcome) -> Outcome {
        Outcome {
            lines: o.cleared,
            points: o.points,
            chain: o.chains,
            game_over: o.game_over,
            won: o.terminal_value == Some(f64::INFINITY),
        }
    }
}
