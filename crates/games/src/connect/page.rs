//! Connect-N on the report page: a move is the column a disc went down, the tuned player's
//! and its opponent's alike (read off the column heights), so the page stacks the discs.

use super::{Column, Connect, Position};
use serde_json::{Value, json};
use stacktune_game::replay::Replayable;

impl Replayable for Connect {
    fn replay_setup(&self) -> Value {
        json!({
            "kind": "connect",
            "rules": stacktune_game::Game::rules(self),
            "width": self.geometry.columns(),
            "height": self.geometry.rows(),
            "inarow": self.geometry.inarow(),
            "score": "1 for a win, ½ for a draw, 0 for a loss, from the weights' side",
        })
    }

    fn board_rows(&self, position: &Position) -> Vec<String> {
        self.rows(position)
    }

    /// Who moves next: `X` (moved first) or `O`.
    fn shown_pieces(&self, position: &Position) -> Value {
        ["X", "O"][position.to_move()].into()
    }

    /// `[column from 0]`.
    fn replay_step(
        &self,
        before: &Position,
        _chosen: Option<Column>,
        after: &Position,
    ) -> Option<Vec<Value>> {
        let column = (0..self.geometry.columns() as usize)
            .find(|&c| after.heights[c] != before.heights[c])?;
        Some(vec![column.into()])
    }
}
