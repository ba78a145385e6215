//! Playing whole games with a player, one or many in parallel.

use crate::{EpisodeLimits, EpisodeResult, Episodes, Game, Policy};
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;
use stacktune_base::limits::THREADS;
use stacktune_base::progress::Progress;
use std::ops::Range;
use std::sync::atomic::{AtomicBool, Ordering};

/// Plays episode 0 from `rng` until it ends or reaches the move limit.
pub fn play_episode<G: Episodes>(
    game: &G,
    player: &impl Policy<G>,
    rng: ChaCha8Rng,
    limits: EpisodeLimits,
) -> EpisodeResult {
    game.episode(player, 0, rng, limits, &mut |_, _| {})
}

/// Plays the (player, game) pairs `pairs` of every player playing games `0..games`, game `i`
/// drawn from `streams(i)` for each of them (common random numbers): pair `k` is player
/// `k / games` on game `k % games`. Pairs are played in parallel on the current rayon pool and
/// come back in pair order whatever the thread count (all of them, `0..players × games`, are
/// player by player in game order); `progress` hears of the moves as they are played and of
/// each game as it ends. Raising `stop` ends the games under way at their next move; they are
/// dropped and the result is `None`.
#[allow(clippy::too_many_arguments)]
pub fn play_pairs<G: Episodes, P: Policy<G>>(
    game: &G,
    players: &[P],
    games: u64,
    pairs: Range<u64>,
    streams: impl Fn(u64) -> ChaCha8Rng + Sync,
    limits: EpisodeLimits,
    stop: &AtomicBool,
    progress: &Progress,
) -> Option<Vec<EpisodeResult>> {
    pairs
        .into_par_iter()
        .map(|k| {
            if stop.load(Ordering::Relaxed) {
                return None;
            }
            let (player, index) = ((k / games) as usize, k % games);
            let player = Stoppable {
                policy: &players[player],
                stop,
            };
            let r = game.episode(&player, index, streams(index), limits, &mut |_, so_far| {
                progress.playing(so_far.moves)
            });
            // A game the flag cut short is not a game played.
            if stop.load(Ordering::Relaxed) {
                return None;
            }
            progress.game_ended(r.moves);
            Some(r)
        })
        .collect()
}

/// A policy told to stop once `stop` is raised.
pub struct Stoppable<'a, P> {
    pub policy: &'a P,
    pub stop: &'a AtomicBool,
}

impl<G: Game, P: Policy<G>> Policy<G> for Stoppable<'_, P> {
    fn choose(&self, game: &G, position: &G::Position) -> Option<G::Move> {
        self.policy.choose(game, position)
    }

    fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed) || self.policy.stopped()
    }
}

/// Runs `work` on a pool of `threads` threads (0 = one per core), within [`THREADS`].
pub fn with_threads<T: Send>(threads: usize, work: impl FnOnce() -> T + Send) -> anyhow::Result<T> {
    Ok(thread_pool(threads)?.install(work))
}

/// A pool of `threads` threads (0 = one per core), within [`THREADS`].
pub fn thread_pool(threads: usize) -> anyhow::Result<rayon::ThreadPool> {
    stacktune_base::limits::check("threads", threads, &THREADS)?;
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| anyhow::anyhow!("cannot start {threads} threads: {e}"))
}
