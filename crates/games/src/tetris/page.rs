//! Research Tetris on the report page: a move is a piece's orientation and column, with the
//! row its bottom landed on, so the page places the piece's cells and removes full rows
//! without re-deriving where it falls.

use super::pieces::{PIECE_LETTERS, SHAPES};
use super::{NO_PIECE, Placement, Position, Tetris};
use serde_json::{Value, json};
use stacktune_game::replay::Replayable;

/// The pieces a position shows: the one to place, then the next when it is shown.
fn shown(position: &Position) -> String {
    [position.piece, position.next]
        .into_iter()
        .filter(|&p| p != NO_PIECE)
        .map(Tetris::piece_letter)
        .collect()
}

impl Replayable for Tetris {
    fn replay_setup(&self) -> Value {
        let shapes: serde_json::Map<String, Value> = PIECE_LETTERS
            .iter()
            .zip(SHAPES)
            .map(|(letter, pictures)| (letter.to_string(), json!(pictures)))
            .collect();
        json!({
            "kind": "tetris",
            "rules": stacktune_game::Game::rules(self),
            "width": self.width,
            "height": self.height,
            "shapes": shapes,
        })
    }

    fn board_rows(&self, position: &Position) -> Vec<String> {
        position.board.to_rows()
    }

    fn shown_pieces(&self, position: &Position) -> Value {
        shown(position).into()
    }

    /// `[orientation, column, bottom row, pieces drawn]`.
    fn replay_step(
        &self,
        before: &Position,
        chosen: Option<Placement>,
        after: &Position,
    ) -> Option<Vec<Value>> {
        let mv = chosen?;
        let drop = self
            .table
            .find(before.piece, mv.orientation, mv.column)
            .expect("a played placement");
        let mut board = before.board;
        let landing = board.drop_piece(drop);
        let bottom = (landing.landing_height - drop.mid_row).round();
        let drawn = match self.preview {
            true => after.next,
            false => after.piece,
        };
        Some(vec![
            mv.orientation.into(),
            mv.column.into(),
            bottom.into(),
            Tetris::piece_letter(drawn).to_string().into(),
        ])
    }

    fn played_out(&self) -> Option<Tetris> {
        self.splitting
            .is_some()
            .then(|| self.clone().with_splitting(None))
    }
}
