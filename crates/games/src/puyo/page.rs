//! Puyo on the report page: a move is the pair's column and rotation; the page lands both
//! puyos and fires the chain itself (groups of four or more in the visible rows pop, the rest
//! falls, again until nothing pops), so it can show each step of a chain as it fires.

use super::field::{VISIBLE_ROWS, WIDTH};
use super::{Pair, Placement, Position, Puyo};
use serde_json::{Value, json};
use stacktune_game::replay::Replayable;

/// A pair as its two colour digits, axis first.
fn digits(pair: Option<Pair>) -> String {
    pair.map_or(String::new(), |p| format!("{}{}", p.axis, p.child))
}

impl Replayable for Puyo {
    fn replay_setup(&self) -> Value {
        json!({
            "kind": "puyo",
            "rules": stacktune_game::Game::rules(self),
            "width": WIDTH,
            "height": self.rules.rows(),
            // Only these rows connect and pop; a puyo placed above the column's room vanishes.
            "visible": VISIBLE_ROWS,
            "colours": self.colours,
        })
    }

    fn board_rows(&self, position: &Position) -> Vec<String> {
        position.field.to_rows(self.rules.rows())
    }

    /// The pair to place, then the ones after it that are shown.
    fn shown_pieces(&self, position: &Position) -> Value {
        json!(
            [
                digits(position.pair),
                digits(position.next),
                digits(position.after_next)
            ]
            .iter()
            .filter(|p| !p.is_empty())
            .collect::<Vec<_>>()
        )
    }

    /// `[column, rotation (child 0 right, 1 above, 2 left, 3 below), pair drawn]`.
    fn replay_step(
        &self,
        _before: &Position,
        chosen: Option<Placement>,
        after: &Position,
    ) -> Option<Vec<Value>> {
        let mv = chosen?;
        let drawn = match self.shown {
            1 => after.pair,
            2 => after.next,
            _ => after.after_next,
        };
        Some(vec![
            mv.column.into(),
            mv.rotation.into(),
            digits(drawn).into(),
        ])
    }
}
