//! Guideline Tetris on the report page: a move holds or not, then locks its piece at its
//! centre in its rotation state, and the page removes full rows itself; garbage that rose
//! after the move comes as the hole column of each new row, so the page needs no garbage
//! rules. A match is both sides' boards side by side, a step a tick.

use super::matches::{self, Contestant, MatchRecord, Seeds};
use super::movegen::{HEIGHT, WIDTH};
use super::piece::{CELLS, LETTERS};
use super::rules::{Side, VISIBLE};
use super::{Guideline, Move};
use serde_json::{Value, json};
use stacktune_game::replay::{MatchTape, Replay, Replayable};

impl Guideline {
    /// The page's tables: the pieces' cells in every state, the board's size.
    fn setup(&self, kind: &str) -> Value {
        // Every piece's four states by letter, as (dx, dy) from the centre, y up.
        let shapes: serde_json::Map<String, Value> = LETTERS
            .iter()
            .zip(CELLS.iter())
            .map(|(letter, states)| (letter.to_string(), json!(states)))
            .collect();
        json!({
            "kind": kind,
            "rules": stacktune_game::Game::rules(self),
            "width": WIDTH,
            "height": HEIGHT,
            "visible": VISIBLE,
            "shapes": shapes,
        })
    }

    /// A side's move as the page plays it: `[hold, rotation, x, y, spin, pieces revealed,
    /// hole columns of the garbage rows that rose (top first) or 0]`.
    fn step_of(&self, before: &Side, mv: Move) -> Value {
        let pose = mv.placement.pose;
        // Played again alone: in a match the position seen after the tick also holds the
        // attack the other side sent meanwhile.
        let mut after = *before;
        let played = self.play(&mut after, mv);
        // A hold into an empty hold uses up two pieces, so two come into view.
        let used = 1 + (mv.hold && before.hold.is_none()) as usize;
        let shown = after.queue.shown() as usize;
        let revealed: String = (shown.saturating_sub(used)..shown)
            .filter_map(|i| after.queue.preview(i))
            .map(|p| LETTERS[p as usize])
            .collect();
        let risen = match played.locked.lines {
            0 => before.incoming.total() - after.incoming.total(),
            _ => 0,
        };
        let holes: Value = match risen {
            0 => 0.into(),
            n => (0..n as usize)
                .rev()
                .map(|y| (0..WIDTH as usize).find(|&x| !after.board.filled(x, y)))
                .collect::<Vec<_>>()
                .into(),
        };
        json!([
            mv.hold as u8,
            pose.rotation,
            pose.x,
            pose.y,
            mv.placement.spin.name(),
            revealed,
            holes
        ])
    }

    /// Match `record`, played again from `seeds` (both sides' moves as recorded), as a replay
    /// of both boards: what `versus --replay-html` shows. At most `cap` ticks are stored.
    pub fn match_replay(
        &self,
        seeds: Seeds,
        record: &MatchRecord,
        cap: u64,
        versus: String,
    ) -> Replay {
        let mut scripts = [0, 1].map(|s| Script {
            moves: &record.moves[s],
            next: 0,
        });
        let [a, b] = &mut scripts;
        let score = record.end.score_of(0);
        let mut tape = MatchTape::new(seeds.queue, versus, self.setup("match"), score, cap);
        let mut before: Option<[Side; 2]> = None;
        let mut ticks = 0u32;
        matches::play(
            self,
            [a, b],
            seeds,
            record.pieces as u64,
            &mut |sides, tick| {
                let Some(previous) = before.replace(*sides) else {
                    tape.start(
                        both_rows(sides),
                        json!({
                            "left": self.shown_pieces(&sides[0]),
                            "right": self.shown_pieces(&sides[1]),
                        }),
                    );
                    return;
                };
                ticks = tick;
                let i = tick as usize - 1;
                let steps = [0, 1].map(|s| self.step_of(&previous[s], record.moves[s][i]));
                let [left, right] = steps;
                tape.push(vec![left, right], || both_rows(sides));
            },
        );
        debug_assert_eq!(ticks, record.pieces);
        tape.finish()
    }
}

/// Both boards' rows side by side, top first.
fn both_rows(sides: &[Side; 2]) -> Vec<String> {
    let (l, r) = (sides[0].board.to_rows(), sides[1].board.to_rows());
    l.iter().zip(&r).map(|(a, b)| format!("{a}{b}")).collect()
}

/// A side that plays recorded moves again.
struct Script<'a> {
    moves: &'a [Move],
    next: usize,
}

impl Contestant for Script<'_> {
    fn sync(&mut self, _: &Guideline, _: &Side) -> Result<(), String> {
        Ok(())
    }

    fn choose(&mut self, _: &Guideline, _: &Side) -> Result<Move, String> {
        let mv = self
            .moves
            .get(self.next)
            .copied()
            .ok_or("the record ends")?;
        self.next += 1;
        Ok(mv)
    }

    fn played(&mut self, _: &Guideline, _: Move, _: &Side) -> Result<(), String> {
        Ok(())
    }
}

impl Replayable for Guideline {
    fn replay_setup(&self) -> Value {
        self.setup("guideline")
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

    fn replay_step(&self, before: &Side, chosen: Option<Move>, _: &Side) -> Option<Vec<Value>> {
        match self.step_of(before, chosen?) {
            Value::Array(step) => Some(step),
            _ => unreachable!("a step is an array"),
        }
    }
}
