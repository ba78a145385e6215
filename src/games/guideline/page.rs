//! Guideline Tetris on the report page: a move holds or not, then locks its piece at its
//! centre in its rotation state; the page removes full rows itself. When garbage rose after
//! the move, the step carries the board it left, so the page needs no garbage rules.

use super::Guideline;
use super::Move;
use super::movegen::{HEIGHT, WIDTH};
use super::piece::{CELLS, LETTERS};
use super::rules::{Side, VISIBLE};
use crate::replay::Replayable;
use serde_json::{Value, json};

impl Replayable for Guideline {
    fn replay_setup(&self) -> Value {
        // Every piece's four states by letter, as (dx, dy) from the centre, y up.
        let shapes: serde_json::Map<String, Value> = LETTERS
            .iter()
            .zip(CELLS.iter())
            .map(|(letter, states)| (letter.to_string(), json!(states)))
            .collect();
        json!({
            "kind": "guideline",
            "rules": crate::game::Game::rules(self),
            "width": WIDTH,
            "height": HEIGHT,
            "visible": VISIBLE,
            "shapes": shapes,
        })
    }

    fn board_rows(&self, position: &Side) -> Vec<String> {
        position.board.to_rows()
    }

    /// `{current, hold, next}` as letters (`-` for none).
    fn shown_pieces(&self, position: &Side) -> Value {
        let letter = |p: Option<u8>| p.map_or('-', |p| LETTERS[p as usize]).to_string();
        json!({
            "current": letter(position.queue.current()),
            "hold": letter(position.hold),
            "next": position.queue.previews().map(|p| LETTERS[p as usize]).collect::<String>(),
        })
    }

    /// `[hold, rotation, x, y, spin, piece revealed, board after garbage rose (rows, top
    /// first) or 0]`.
    fn replay_step(&self, before: &Side, chosen: Option<Move>, after: &Side) -> Option<Vec<Value>> {
        let mv = chosen?;
        let pose = mv.placement.pose;
        let revealed = (after.queue.shown() as usize)
            .checked_sub(1)
            .and_then(|i| after.queue.preview(i))
            .map_or('-', |p| LETTERS[p as usize]);
        let rose = after.incoming.total() < before.incoming.total() && {
            let mut replayed = *before;
            replayed
                .lock(&self.rules, mv.hold, &mv.placement, true)
                .lines
                == 0
        };
        let board: Value = match rose {
            true => after.board.to_rows().into(),
            false => 0.into(),
        };
        Some(vec![
            (mv.hold as u8).into(),
            pose.rotation.into(),
            pose.x.into(),
            pose.y.into(),
            mv.placement.spin.name().into(),
            revealed.to_string().into(),
            board,
        ])
    }
}
