//! Puyo on the report page: a move is the pair's column and rotation; the page lands both
//! puyos and fires the chain itself (groups of four or more in the visible rows pop, the rest
//! falls, again until nothing pops), so it can show each step of a chain as it fires. A match
//! is both fields side by side, the nuisance that fell on each given as it landed.

use super::field::{VISIBLE_ROWS, WIDTH};
use super::versus::{Battle, Contestant, MatchRecord, MatchView, Seeds, Side};
use super::{Pair, Placement, Position, Puyo};
use crate::versus::MatchEnd;
use rand_chacha::ChaCha8Rng;
use serde_json::{Value, json};
use stacktune_game::replay::{DEFAULT_MOVE_CAP, MatchTape, Replay, Replayable};
use stacktune_game::{EpisodeLimits, Policy};

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

    /// A match of a versus run, both fields side by side ([`Battle::match_replay`]).
    fn record_match(
        &self,
        player: &impl Policy<Puyo>,
        index: u64,
        rng: ChaCha8Rng,
        limits: EpisodeLimits,
    ) -> Option<Replay> {
        let matches = self.matches.as_ref()?;
        let versus = stacktune_game::Episodes::describe_episode(self, index)?;
        Some(matches.replay(player, self.shown, (index, rng), limits, versus))
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

impl Battle {
    /// Match `record`, played again from `seeds` (both sides' placements as recorded, a draw
    /// at `cap` pairs a side as the match was) through the match's own code, as a replay of
    /// both fields: what `versus --replay-html` and a match run's page show. A step is a
    /// frame at which a field or what a side shows changed: `[left, right, [frame, left's
    /// state, right's state]]`, a side's move `0`, a placement `[column, rotation, pair
    /// drawn]` (the page fires its chain) or `{"drop": nuisance a column}`, its state
    /// `[nuisance pending, nuisance fixed, points, chain steps popped]`.
    pub fn match_replay(
        &self,
        seeds: Seeds,
        record: &MatchRecord,
        cap: u32,
        versus: String,
    ) -> Replay {
        let mut setup = self.game.replay_setup();
        setup["kind"] = "puyo-match".into();
        setup["ending"] = ending(record).into();
        let score = record.end.score_of(0);
        let mut tape = MatchTape::new(seeds.queue, versus, setup, score, DEFAULT_MOVE_CAP);
        let scripts = [0, 1].map(|s| Script {
            moves: &record.moves[s],
            next: 0,
            reason: &record.reason,
        });
        let mut before: Option<[Seen; 2]> = None;
        let both_rows = |sides: &[Side; 2]| {
            let [l, r] = sides.each_ref().map(|s| self.game.board_rows(s.position()));
            l.iter().zip(&r).map(|(a, b)| format!("{a}{b}")).collect()
        };
        let replayed = self.play_observed(scripts, seeds, cap, &mut |now, sides| {
            let seen = sides.each_ref().map(Seen::of);
            let Some(previous) = before.replace(seen) else {
                let [left, right] = sides
                    .each_ref()
                    .map(|s| self.game.shown_pieces(s.position()));
                tape.start(both_rows(sides), json!({ "left": left, "right": right }));
                return;
            };
            if previous == seen {
                return;
            }
            let [left, right] = [0, 1].map(|s| self.move_of(&previous[s], &sides[s], record, s));
            let state = json!([now, seen[0].state(), seen[1].state()]);
            tape.push(vec![left, right, state], || both_rows(sides));
        });
        debug_assert_eq!(&replayed, record, "a match replays as it was played");
        tape.finish()
    }

    /// What side `s` did between `before` and `now` as the page plays it.
    fn move_of(&self, before: &Seen, now: &Side, record: &MatchRecord, s: usize) -> Value {
        if now.pairs() > before.pairs {
            let mv = record.moves[s][before.pairs as usize];
            return self
                .game
                .replay_step(&before.position, Some(mv), now.position())
                .expect("a placement is a step")
                .into();
        }
        let (was, is) = (before.position.field, now.position().field);
        if was == is {
            return 0.into();
        }
        // Nuisance only lands on top: each column's rise is what fell on it.
        let (was, is) = (was.heights(), is.heights());
        let fell: Vec<u32> = (0..WIDTH).map(|x| is[x] - was[x]).collect();
        json!({ "drop": fell })
    }
}

/// Who won and why, or why it was a draw, as the page's last note says it.
pub(super) fn ending(record: &MatchRecord) -> String {
    const SIDES: [&str; 2] = ["left", "right"];
    match record.end {
        MatchEnd::Won(w) => format!(
            "The {} side won: the {} side {}.",
            SIDES[w],
            SIDES[1 - w],
            record.reason
        ),
        MatchEnd::Draw => format!("A draw: {}.", record.reason),
    }
}

/// What the page shows of a side after a frame.
#[derive(Clone, Copy)]
struct Seen {
    position: Position,
    pairs: u32,
    waiting: [u32; 2],
    score: u64,
    chain: u32,
}

impl Seen {
    fn of(side: &Side) -> Seen {
        Seen {
            position: *side.position(),
            pairs: side.pairs(),
            waiting: side.waiting(),
            score: side.score(),
            chain: side.chain(),
        }
    }

    /// `[nuisance pending, nuisance fixed, points, chain steps popped]`.
    fn state(&self) -> Value {
        json!([self.waiting[0], self.waiting[1], self.score, self.chain])
    }
}

impl PartialEq for Seen {
    /// The same on the page: the field, the pairs placed and the state.
    fn eq(&self, other: &Seen) -> bool {
        (
            self.position.field,
            self.pairs,
            self.waiting,
            self.score,
            self.chain,
        ) == (
            other.position.field,
            other.pairs,
            other.waiting,
            other.score,
            other.chain,
        )
    }
}

/// A side that places recorded placements again, and when they run out loses as the recorded
/// side lost (a bot's fault, no placement left).
struct Script<'a> {
    moves: &'a [Placement],
    next: usize,
    reason: &'a str,
}

impl Contestant for Script<'_> {
    fn choose(&mut self, _: &Puyo, _: &MatchView<'_>) -> Result<Placement, String> {
        let mv = self.moves.get(self.next).copied();
        self.next += 1;
        mv.ok_or_else(|| self.reason.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puyo::rules::{Rules, placements};
    use crate::puyo::versus::{BattleRules, Seat};

    /// Stands each pair on the lowest column that takes it, the leftmost or the rightmost.
    struct Lowest(bool);

    impl Policy<Puyo> for Lowest {
        fn choose(&self, game: &Puyo, position: &Position) -> Option<Placement> {
            let h = position.field.heights();
            let side = |p: &Placement| if self.0 { 5 - p.column } else { p.column };
            placements(position.pair?)
                .iter()
                .copied()
                .filter(|&p| game.rules.offers(&h, p))
                .min_by_key(|p| (h[p.column as usize], p.rotation != 1, side(p)))
        }
    }

    /// Puts each colour on a column of its own where it can (colour c on column c - 1, so
    /// every fourth puyo of it pops), the rest as [`Lowest`] does.
    struct Sorter;

    impl Policy<Puyo> for Sorter {
        fn choose(&self, game: &Puyo, position: &Position) -> Option<Placement> {
            let pair = position.pair?;
            let (a, c) = (pair.axis, pair.child);
            let sorted = match c as i32 - a as i32 {
                0 => Some((a - 1, 1)),
                1 => Some((a - 1, 0)),
                -1 => Some((a - 1, 2)),
                _ => None,
            };
            let h = position.field.heights();
            sorted
                .map(|(column, rotation)| Placement { column, rotation })
                .filter(|&p| game.rules.offers(&h, p))
                .or_else(|| Lowest(true).choose(game, position))
        }
    }

    #[test]
    fn a_replay_is_the_match_played_again_step_for_step() {
        // A puyo of nuisance a point: every pop sends some.
        let rules = BattleRules {
            target_points: 1,
            ..BattleRules::TSU
        };
        let battle = Battle::new(Puyo::new(Rules::Tsu), rules).unwrap();
        let seeds = Seeds {
            queue: 5,
            sides: [6, 7],
        };
        let (a, b) = (Sorter, Lowest(false));
        let seats = [&a as &dyn Policy<Puyo>, &b].map(|policy| Seat { policy, shown: 3 });
        // The match as played, and its fields at the end.
        let mut last = Vec::new();
        let record = battle.play_observed(seats, seeds, 200, &mut |_, sides| {
            last = sides
                .each_ref()
                .map(|s| s.position().field.to_rows(13))
                .to_vec();
        });
        let replay = battle.match_replay(seeds, &record, 200, "left: a, right: b".into());
        // Its placements, in order, are the match's.
        for s in 0..2 {
            let placed: Vec<Placement> = replay
                .steps
                .iter()
                .filter_map(|step| step[s].as_array())
                .map(|mv| Placement {
                    column: mv[0].as_u64().unwrap() as u8,
                    rotation: mv[1].as_u64().unwrap() as u8,
                })
                .collect();
            assert_eq!(placed, record.moves[s], "side {s}");
        }
        // Nuisance fell, and the fields it ends on are the match's.
        let drops = replay.steps.iter().flat_map(|step| &step[..2]);
        assert!(drops.filter(|m| m.get("drop").is_some()).count() > 0);
        let (n, rows) = replay.checks.last().unwrap();
        assert_eq!(*n, replay.steps.len() as u64);
        let both: Vec<String> = (0..13)
            .map(|y| format!("{}{}", last[0][y], last[1][y]))
            .collect();
        assert_eq!(*rows, both);
        assert_eq!(replay.moves, replay.steps.len() as u64);
        // The sorter's pops bury the other side, and the last step says so.
        assert_eq!(record.end, MatchEnd::Won(0));
        assert_eq!(replay.score, 1.0);
        assert_eq!(
            replay.setup["ending"],
            "The left side won: the right side filled column 3 of row 12."
        );
        assert_eq!(replay.steps.last().unwrap()[3], json!(1.0));
    }
}
