//! Contest Tetris on the report page: a move holds or not, then locks its piece where the
//! contest's move procedure left it (state and reference point), so the page draws hold and
//! previews and removes full rows without the move procedure. A game over (the contest plays
//! on with a fresh board) brings the fresh board, with level 3's obstacles as drawn.

use super::Contest;
use super::rules::{HEIGHT, LETTERS, Position, Request, SHAPES, WIDTH};
use serde_json::{Value, json};
use stacktune_game::replay::Replayable;

impl Replayable for Contest {
    fn replay_setup(&self) -> Value {
        // Every piece's four states by letter, as (dx, dy) from the reference point, y down.
        let shapes: serde_json::Map<String, Value> = LETTERS
            .iter()
            .zip(SHAPES.iter())
            .skip(1)
            .map(|(letter, states)| {
                let cells: Vec<Vec<(i8, i8)>> = states.iter().map(|s| s.cells.to_vec()).collect();
                (letter.to_string(), json!(cells))
            })
            .collect();
        json!({
            "kind": "contest",
            "rules": stacktune_game::Game::rules(self),
            "width": WIDTH,
            "height": HEIGHT,
            "shapes": shapes,
        })
    }

    fn board_rows(&self, position: &Position) -> Vec<String> {
        position.board.to_rows()
    }

    /// `{current, hold, next}` as letters (`-` for none).
    fn shown_pieces(&self, position: &Position) -> Value {
        let letter = |p: u8| LETTERS[p as usize].to_string();
        json!({
            "current": letter(position.current),
            "hold": letter(position.hold),
            "next": position.next.iter().map(|&p| LETTERS[p as usize]).collect::<String>(),
        })
    }

    /// `[hold, state (-1: the piece went to an empty hold), x, y, piece drawn, fresh board]`,
    /// the fresh board (rows, top first) only after a game over, else 0.
    fn replay_step(
        &self,
        before: &Position,
        chosen: Option<Request>,
        after: &Position,
    ) -> Option<Vec<Value>> {
        let request = chosen?;
        let turn = self.rules.settle(&mut before.clone(), request);
        let (state, x, y) = turn
            .landing
            .map_or((-1, 0, 0), |l| (l.state as i32, l.x, l.y));
        let fresh: Value = match turn.game_over {
            true => after.board.to_rows().into(),
            false => 0.into(),
        };
        Some(vec![
            (request.hold as u8).into(),
            state.into(),
            x.into(),
            y.into(),
            LETTERS[after.next[4] as usize].to_string().into(),
            fresh,
        ])
    }

    fn turn_limit(&self) -> Option<u64> {
        Some(self.turns().into())
    }
}
