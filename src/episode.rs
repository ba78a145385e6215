//! Playing whole games with a linear player, one or many in parallel.

use crate::eval::LinearPlayer;
use crate::game::{EpisodeLimits, EpisodeResult, Game};
use crate::limits::THREADS;
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, Ordering};

/// Plays one game alone from `rng` until it ends or reaches the move limit.
pub fn play_episode<G: Game>(
    game: &G,
    player: &LinearPlayer,
    rng: ChaCha8Rng,
    limits: EpisodeLimits,
) -> EpisodeResult {
    play_episode_observed(game, player, rng, limits, &mut |_, _| {})
}

/// [`play_episode`], showing `observe` the first position and the one after every move with
/// the result so far: the default [`Game::episode`].
pub fn play_episode_observed<G: Game>(
    game: &G,
    player: &LinearPlayer,
    mut rng: ChaCha8Rng,
    limits: EpisodeLimits,
    observe: &mut impl FnMut(&G::Position, &EpisodeResult),
) -> EpisodeResult {
    let mut position = game.start(&mut rng);
    let mut result = EpisodeResult::default();
    observe(&position, &result);
    while limits.max_moves.is_none_or(|m| result.moves < m) {
        let Some(mv) = player.choose(game, &position) else {
            break;
        };
        let outcome = game.apply(&mut position, mv, &mut rng);
        result.moves += 1;
        result.score = game.accumulate(result.score, &outcome);
        observe(&position, &result);
        if outcome.game_over {
            break;
        }
    }
    result
}

/// Plays games `0..games` with every player, game `i` drawn from `streams(i)` for each of them
/// (common random numbers), in parallel over (player, game) on the current rayon pool. Results
/// come back player by player in game order whatever the thread count; `done` is called as each
/// game ends (for progress). Returns `None` if `stop` was raised before every game was played.
pub fn play_all<G: Game>(
    game: &G,
    players: &[LinearPlayer],
    games: u64,
    streams: impl Fn(u64) -> ChaCha8Rng + Sync,
    limits: EpisodeLimits,
    stop: &AtomicBool,
    done: impl Fn() + Sync,
) -> Option<Vec<EpisodeResult>> {
    (0..players.len() as u64 * games)
        .into_par_iter()
        .map(|k| {
            if stop.load(Ordering::Relaxed) {
                return None;
            }
            let (player, index) = ((k / games) as usize, k % games);
            let r = game.episode(
                &players[player],
                index,
                streams(index),
                limits,
                &mut |_, _| {},
            );
            done();
            Some(r)
        })
        .collect()
}

/// Runs `work` on a pool of `threads` threads (0 = one per core), within [`THREADS`].
pub fn with_threads<T: Send>(threads: usize, work: impl FnOnce() -> T + Send) -> anyhow::Result<T> {
    crate::limits::check("threads", threads, &THREADS)?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| anyhow::anyhow!("cannot start {threads} threads: {e}"))?;
    Ok(pool.install(work))
}
