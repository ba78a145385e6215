//! Puyo's battle as a game of runs: each episode a match of the tuned weights against one of
//! the game's opponents (weights files, then the rivals a run adds: its hall of fame and
//! peers), so that `evolve` rates Puyo versus players by their matches as it does guideline
//! Tetris and Connect-N ([`Episodes`](stacktune_game::Episodes)).
//!
//! Every side reads the match through its position ([`Reader`], as `versus` plays a match
//! player): the game's moves from the position it is asked about carry the match features
//! after the solo ones
//! ([`PLAYER_FEATURE_NAMES`](super::match_features::PLAYER_FEATURE_NAMES)), so a weights
//! file's match weights are ordinary weights of the run, tuned with the rest.

use super::Puyo;
use super::contestant::{Contestant, Reader};
use super::versus::{Battle, MatchRecord, Seeds, Side};
use crate::settings::GameSpec;
use crate::versus::MatchEnd;
use anyhow::{Result, bail};
use rand_chacha::ChaCha8Rng;
use stacktune_game::replay::Replay;
use stacktune_game::{EpisodeLimits, EpisodeResult, Policy, SharedPolicy};
use std::sync::Arc;

/// Pairs a side places before a run's match is a draw, when the run sets no `max_pieces`.
pub const MATCH_PAIRS: u32 = 1_000;

/// What an episode of a Puyo versus run reports per game.
pub const DETAILS: [&str; 6] = ["wins", "draws", "losses", "pairs", "sent", "received"];

/// One opponent of a run's matches: its name, its player and the pairs it is shown.
#[derive(Clone)]
pub struct Opponent {
    pub name: String,
    pub policy: SharedPolicy<Puyo>,
    pub shown: u8,
}

/// A Puyo game's battle and opponents, when it is played as matches.
#[derive(Clone)]
pub struct Matches {
    battle: Battle,
    opponents: Vec<Opponent>,
}

impl std::fmt::Debug for Matches {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let names: Vec<&str> = self.opponents.iter().map(|o| o.name.as_str()).collect();
        write!(f, "Matches({:?}, against {names:?})", self.battle.rules)
    }
}

impl Puyo {
    /// The Puyo game of a run under the battle rules `spec` names (`mode = "versus"`): its
    /// episodes are matches against `opponents`, each built by `opponent` from its name. A run
    /// without opponents, or one whose search would not weigh the match at its first move (a
    /// beam over the pairs shown, the anytime beam), is refused in one line.
    pub fn versus_from_spec(
        spec: &GameSpec,
        opponent: &dyn Fn(&Puyo, &str) -> Result<Opponent>,
    ) -> Result<Puyo> {
        if spec.opponents.is_empty() {
            bail!(
                "puyo versus runs play matches: name their opponents (`opponents = [\"weights/puyo/hand.toml\"]`, --opponent FILE)"
            );
        }
        // A beam over the pairs shown values a first move by the positions further on, which
        // carry no match.
        let beam = spec.beam_width.is_some() && spec.samples.is_none() && spec.unseen.is_none();
        if let Some(flag) = [
            ("--depth", spec.depth.is_some()),
            ("--nodes", spec.nodes.is_some()),
            ("--beam-width without --samples", beam),
        ]
        .into_iter()
        .find_map(|(flag, given)| given.then_some(flag))
        {
            bail!(
                "puyo versus runs play one ply, the lookahead or the sampled beam, which weigh the match at their first move: drop {flag}"
            );
        }
        if !spec.board_features.is_empty() {
            bail!(
                "puyo versus runs take no board features: the match features follow the built-in ones"
            );
        }
        let (battle, shown) = Battle::from_spec(spec)?;
        // The game as its opponents are read: its features those of a match player.
        let mut game = Puyo {
            shown,
            matches: Some(Arc::new(Matches {
                battle: battle.clone(),
                opponents: Vec::new(),
            })),
            ..battle.game.clone()
        };
        let opponents = spec
            .opponents
            .iter()
            .map(|name| opponent(&game, name))
            .collect::<Result<Vec<_>>>()?;
        game.matches = Some(Arc::new(Matches { battle, opponents }));
        Ok(game)
    }
}

impl Matches {
    /// The names of the opponents, in the order episodes meet them.
    pub(super) fn names(&self) -> Vec<String> {
        self.opponents.iter().map(|o| o.name.clone()).collect()
    }

    /// The opponent episode `index` meets.
    pub(super) fn opponent(&self, index: u64) -> &Opponent {
        &self.opponents[(index % self.opponents.len() as u64) as usize]
    }

    /// The same matches with `rivals` after the opponents, each shown what the tuned side is.
    pub(super) fn with_rivals(&self, rivals: &[SharedPolicy<Puyo>], shown: u8) -> Matches {
        let mut matches = self.clone();
        for (i, policy) in rivals.iter().enumerate() {
            matches.opponents.push(Opponent {
                name: format!("rival {}", i + 1),
                policy: policy.clone(),
                shown,
            });
        }
        matches
    }

    /// Episode `index`: `player`, shown `shown` pairs, on the left against its opponent on
    /// the seeds drawn from `rng`, scoring 1 for a win, ½ for a draw and 0 for a loss.
    pub(super) fn episode(
        &self,
        player: &impl Policy<Puyo>,
        shown: u8,
        index: u64,
        rng: ChaCha8Rng,
        limits: EpisodeLimits,
    ) -> EpisodeResult {
        let (_, record, _) = self.play(player, shown, (index, rng), limits, &mut |_, _| {});
        let mut result = EpisodeResult {
            score: record.end.score_of(0),
            moves: u64::from(record.pairs[0]),
            ..EpisodeResult::default()
        };
        result.details[..DETAILS.len()].copy_from_slice(&[
            u64::from(record.end == MatchEnd::Won(0)),
            u64::from(record.end == MatchEnd::Draw),
            u64::from(record.end == MatchEnd::Won(1)),
            u64::from(record.pairs[0]),
            u64::from(record.sent[0]),
            u64::from(record.sent[1]),
        ]);
        result
    }

    /// Episode `index` as a replay of both fields (who plays whom: `versus`), the match
    /// [`Matches::episode`] plays.
    pub(super) fn replay(
        &self,
        player: &impl Policy<Puyo>,
        shown: u8,
        (index, rng): (u64, ChaCha8Rng),
        limits: EpisodeLimits,
        versus: String,
    ) -> Replay {
        let (seeds, record, cap) = self.play(player, shown, (index, rng), limits, &mut |_, _| {});
        self.battle.match_replay(seeds, &record, cap, versus)
    }

    /// Episode `index` drawn in text for `watch`, a frame each time the match changes
    /// ([`Battle::play_observed`]); its last line.
    pub(super) fn watch(
        &self,
        game: &Puyo,
        player: &impl Policy<Puyo>,
        episode: (u64, ChaCha8Rng),
        limits: EpisodeLimits,
        frame: &mut dyn FnMut(&str),
    ) -> String {
        let mut last = None;
        let (_, record, _) = self.play(player, game.shown, episode, limits, &mut |now, sides| {
            let drawn = game.draw_match(now, sides);
            if last.as_ref() != Some(&drawn) {
                frame(&drawn);
                last = Some(drawn);
            }
        });
        let [left, right] = record.pairs;
        let ending = super::page::ending(&record);
        format!(
            "{ending} Pairs placed: {left} left, {right} right, at frame {}.",
            record.frames
        )
    }

    /// Episode `index`'s match, shown to `observe` as it is played: its seeds, its record and
    /// the pairs a side it was capped at.
    fn play(
        &self,
        player: &impl Policy<Puyo>,
        shown: u8,
        (index, mut rng): (u64, ChaCha8Rng),
        limits: EpisodeLimits,
        observe: &mut impl FnMut(u64, &[Side; 2]),
    ) -> (Seeds, MatchRecord, u32) {
        let opponent = self.opponent(index);
        let seeds = Seeds::draw(&mut rng);
        let cap = limits
            .max_moves
            .map_or(MATCH_PAIRS, |m| u32::try_from(m).unwrap_or(u32::MAX));
        let mut tuned = Reader {
            policy: player,
            shown,
        };
        let mut other = Reader {
            policy: &*opponent.policy,
            shown: opponent.shown,
        };
        let players = [&mut tuned as &mut dyn Contestant, &mut other];
        let record = self.battle.play_observed(players, seeds, cap, observe);
        (seeds, record, cap)
    }
}
