//! The playground's Puyo match (docs/web.md): the player on the page against another under
//! Tsu's battle rules, played by the library's own match ([`play_puyo_pairs`], what
//! `stacktune versus` plays) and reported as `versus --json` reports it, so that the page's
//! figures are the command line's to the last digit; any of its games replayed with both
//! fields, as `versus --replay-html` records one.

use crate::{Js, js, json};
use serde::Serialize;
use stacktune_base::stats::matches::Outcome;
use stacktune_games::puyo::versus::{Battle, MatchRecord, Seeds};
use stacktune_games::settings::GameSpec;
use stacktune_games::tetris::guideline::MATCH_PIECES;
use stacktune_players::versus::{Game, PuyoEntrant, play_puyo_pairs};
use stacktune_players::weights::WeightFile;
use stacktune_run::versus::{GameLine, Players, puyo_side, report_of};
use std::path::Path;
use wasm_bindgen::prelude::*;

/// The match players the repository ships (weights/puyo/), compiled in, by file name.
const SHIPPED: [(&str, &str); 3] = [
    (
        "versus-selfplay.toml",
        include_str!("../../weights/puyo/versus-selfplay.toml"),
    ),
    (
        "versus-hand.toml",
        include_str!("../../weights/puyo/versus-hand.toml"),
    ),
    ("hand.toml", include_str!("../../weights/puyo/hand.toml")),
];

/// The shipped match players, `[{name, text}]`, in the order the page offers them.
#[wasm_bindgen]
pub fn shipped_players() -> Js<String> {
    #[derive(Serialize)]
    struct Shipped {
        name: &'static str,
        text: &'static str,
    }
    json(&SHIPPED.map(|(name, text)| Shipped { name, text }))
}

/// The most games a match plays, as `versus --games` allows.
const MOST_GAMES: u64 = 1_000_000;

/// The pairs a side places before a game is a draw: `versus --max-pieces`'s default.
const CAP: u32 = MATCH_PIECES as u32;

/// A match between two Puyo weights files, played a few pairs at a time so that the page can
/// show its progress: [`PuyoMatch::play`] until it returns the whole match's games.
#[wasm_bindgen]
pub struct PuyoMatch {
    battle: Battle,
    first: PuyoEntrant,
    second: PuyoEntrant,
    names: [String; 2],
    seed: u64,
    pairs: u64,
    games: Vec<Game<Seeds, MatchRecord>>,
}

/// A weights file's text as a side, named `name` in every error and in the report.
fn side(name: &str, text: &str) -> anyhow::Result<(Battle, PuyoEntrant)> {
    let file =
        WeightFile::parse(text).map_err(|e| anyhow::anyhow!("weights file {name}: {e:#}"))?;
    let (battle, side) = puyo_side(&file, Path::new(name), &GameSpec::default())?;
    Ok((battle, PuyoEntrant::Weights(Box::new(side))))
}

/// `text` as a whole number from `low` to `high`, or one line naming `what`.
fn whole(what: &str, text: &str, low: u64, high: u64) -> Js<u64> {
    text.trim()
        .parse::<u64>()
        .ok()
        .filter(|n| (low..=high).contains(n))
        .ok_or_else(|| {
            JsError::new(&format!(
                "{what} is `{text}`, not a whole number from {low} to {high}"
            ))
        })
}

#[wasm_bindgen]
impl PuyoMatch {
    /// The match `stacktune versus FIRST SECOND --games GAMES --seed SEED` plays, between the
    /// weights files `first` and `second` (their texts, named `first_name` and `second_name`)
    /// under the battle rules the first one gives: `games` in pairs on one seed with the sides
    /// swapped (an odd number rounded up). A file that is not a Puyo player, or a count or
    /// seed that does not read, is one line saying so.
    #[wasm_bindgen(constructor)]
    pub fn new(
        first_name: &str,
        first: &str,
        second_name: &str,
        second: &str,
        games: &str,
        seed: &str,
    ) -> Js<PuyoMatch> {
        let games = whole("the number of games", games, 1, MOST_GAMES)?;
        let seed = whole("the seed", seed, 0, u64::MAX)?;
        let (battle, first) = side(first_name, first).map_err(js)?;
        let (_, second) = side(second_name, second).map_err(js)?;
        Ok(PuyoMatch {
            battle,
            first,
            second,
            names: [first_name.to_string(), second_name.to_string()],
            seed,
            pairs: games.div_ceil(2),
            games: Vec::new(),
        })
    }

    /// The games the match plays.
    pub fn total(&self) -> u32 {
        (self.pairs * 2) as u32
    }

    /// Plays the next `pairs` pairs (fewer at the end); the games played so far.
    pub fn play(&mut self, pairs: u32) -> u32 {
        let next = self.games.len() as u64 / 2;
        let end = (next + u64::from(pairs)).min(self.pairs);
        self.games.extend(play_puyo_pairs(
            &self.battle,
            &self.first,
            &self.second,
            self.seed,
            &(next..end).collect::<Vec<_>>(),
            CAP,
            &|_| {},
        ));
        self.games.len() as u32
    }

    /// What the games so far measured, as `versus --json` prints it.
    pub fn report(&self) -> Js<String> {
        let players = Players {
            first: &self.names[0],
            second: &self.names[1],
            seed: self.seed,
            game: &GameSpec::default(),
        };
        let lines = self.games.iter().map(GameLine::of).collect();
        json(&report_of::<MatchRecord>(&players, lines, None))
    }

    /// The games so far from the first player's side, `[{outcome, left, reason}]`: `win`,
    /// `draw` or `loss`, whether it played the left field, and how the game ended.
    pub fn outcomes(&self) -> Js<String> {
        #[derive(Serialize)]
        struct Played<'a> {
            outcome: &'static str,
            left: bool,
            reason: &'a str,
        }
        let played: Vec<Played> = self
            .games
            .iter()
            .map(|g| Played {
                outcome: match g.outcome {
                    Outcome::Win => "win",
                    Outcome::Draw => "draw",
                    Outcome::Loss => "loss",
                },
                left: g.first_left,
                reason: &g.record.reason,
            })
            .collect();
        json(&played)
    }

    /// Game `k` of the match as the report page replays it, both fields side by side (JSON, a
    /// list of one replay), naming the command that plays it as its game `k`.
    pub fn replay(&self, k: u32) -> Js<String> {
        let game = self.games.get(k as usize).ok_or_else(|| {
            JsError::new(&format!(
                "game {k} is not among the {} played",
                self.games.len()
            ))
        })?;
        let [first, second] = &self.names;
        let sides = match game.first_left {
            true => format!("left: {first}, right: {second}"),
            false => format!("left: {second}, right: {first}"),
        };
        let mut replay = self
            .battle
            .match_replay(game.seeds, &game.record, CAP, sides);
        replay.seed = self.seed;
        replay.game = u64::from(k);
        replay.command = format!(
            "stacktune versus {first} {second} --seed {} --games {}",
            self.seed,
            self.pairs * 2
        );
        json(&[replay])
    }
}
