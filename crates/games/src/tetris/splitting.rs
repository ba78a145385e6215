//! The mean lines of an uncapped game, estimated by multilevel splitting instead of played out.
//!
//! A strong player on 10 × 20 clears tens of millions of lines a game (about 75 M pieces, over a
//! minute of a core), and game lengths are exponential, so a mean over a few games says little
//! and tuning on whole games is out of reach. What ends a game is a rare climb of the stack
//! from where it usually stands to the top. Splitting measures that climb in steps: how often
//! the stack rises above its usual height, then, from the positions where it did, how often it
//! goes one row higher before falling back, and so on up to the top-out. The product of those
//! fractions is the chance that a climb ends the game; the mean game is the time between climbs
//! divided by that chance. Every step is a frequent event, so a few hundred thousand pieces
//! stand for a game of a hundred million.
//!
//! Fixed-effort splitting (Garvels & Kroese; L'Ecuyer, Demers & Tuffin): each level runs the
//! same number of trajectories, each started from a position drawn uniformly from those that
//! reached the level. The importance function is the stack's height; a top-out counts as
//! reaching every level above it.

use super::{Position, Tetris};
use rand::RngExt;
use rand_chacha::ChaCha8Rng;
use stacktune_game::{EpisodeResult, Game, Policy};

/// Pieces of the first stretch, the one played from the empty board, per unit of effort: enough
/// for about as many climbs above the usual height as each later level runs trajectories.
const FIRST_STRETCH_PER_EFFORT: u64 = 10;

/// How many times its effort a level may run while none of its trajectories has risen: a level
/// with no success would make the game endless.
const MAX_TRIES_PER_EFFORT: u64 = 64;

/// A position that reached a level, or `None` for one whose game ended on the way (which has
/// reached every level above).
type Entry = Option<Position>;

/// One estimate of the mean lines of a game of `game` played by `player` from the empty board,
/// with `effort` trajectories a level, drawing every piece from `rng`: an episode under
/// `--splitting`. The first stretch is played for real, a new game from the empty board after
/// each top-out; the estimate is its lines (`score`) over the top-outs expected in it (`games`):
/// its climbs times the chance that a climb ends the game. Returning the two apart lets a mean
/// over estimates be the ratio of their sums (see [`EpisodeResult::games`]), which the noise
/// of the chance does not bias the way it biases its inverse. `moves` counts every piece
/// played; `observe` sees the position after each. A player told to stop ends the estimate
/// where it is.
pub fn estimate(
    game: &Tetris,
    player: &impl Policy<Tetris>,
    effort: u32,
    rng: &mut ChaCha8Rng,
    observe: &mut impl FnMut(&Position, &EpisodeResult),
) -> EpisodeResult {
    let stretch = FIRST_STRETCH_PER_EFFORT * u64::from(effort);
    let mut result = EpisodeResult::default();
    let mut tick = |position: &Position, result: &mut EpisodeResult| {
        result.moves += 1;
        observe(position, result);
    };
    let Some((trail, lines)) = first_stretch(game, player, stretch, rng, &mut result, &mut tick)
    else {
        return result;
    };
    let (usual, entries) = climbs(&trail);
    let climbs = entries.len() as f64;
    let Some(chance) = top_out_chance(
        game,
        player,
        effort,
        usual,
        entries,
        rng,
        &mut result,
        &mut tick,
    ) else {
        return result;
    };
    result.score = lines as f64;
    result.games = climbs * chance;
    result
}

/// The first stretch, `stretch` pieces played for real, a new game from the empty board after
/// each top-out: every position kept (`None` where a game ended), and the lines cleared.
/// `None` when the player was told to stop.
fn first_stretch(
    game: &Tetris,
    player: &impl Policy<Tetris>,
    stretch: u64,
    rng: &mut ChaCha8Rng,
    result: &mut EpisodeResult,
    tick: &mut impl FnMut(&Position, &mut EpisodeResult),
) -> Option<(Vec<Entry>, u64)> {
    let mut trail: Vec<Entry> = Vec::with_capacity(stretch as usize);
    let mut position = game.start(rng);
    let mut lines = 0u64;
    while (trail.len() as u64) < stretch {
        if player.stopped() {
            return None;
        }
        let (cleared, alive) = step(game, player, &mut position, rng);
        lines += u64::from(cleared);
        tick(&position, result);
        if alive {
            trail.push(Some(position));
        } else {
            trail.push(None);
            position = game.start(rng);
        }
    }
    Some((trail, lines))
}

/// The usual height of the first stretch `trail`, and its climbs: where each started. The
/// usual height is the median over the stretch (below the highest, so that the stack rises
/// above it at least once). A climb starts when the stack rises above it after having been at
/// or below it (or a new game begun) since the last climb started.
fn climbs(trail: &[Entry]) -> (u32, Vec<Entry>) {
    let height = |entry: &Entry| entry.map_or(0, |p| p.board.stack_height());
    let mut heights: Vec<u32> = trail.iter().map(height).collect();
    heights.sort_unstable();
    let highest = heights[heights.len() - 1];
    let usual = heights[heights.len() / 2].min(highest.saturating_sub(1));
    let mut entries: Vec<Entry> = Vec::new();
    let mut armed = true;
    for entry in trail {
        let h = height(entry);
        if armed && h > usual {
            entries.push(*entry);
            armed = false;
        } else if h <= usual {
            armed = true;
        }
    }
    (usual, entries)
}

/// The chance that a climb from `entries` ends the game: level by level up to the top-out,
/// the chance to rise one row higher before falling back to the `usual` height, each level's
/// trajectories started from those that reached the level below. `None` when the player was
/// told to stop.
#[allow(clippy::too_many_arguments)]
fn top_out_chance(
    game: &Tetris,
    player: &impl Policy<Tetris>,
    effort: u32,
    usual: u32,
    mut entries: Vec<Entry>,
    rng: &mut ChaCha8Rng,
    result: &mut EpisodeResult,
    tick: &mut impl FnMut(&Position, &mut EpisodeResult),
) -> Option<f64> {
    let mut chance = 1.0;
    let mut reached = Vec::new();
    for target in usual + 2..=game.height() as u32 + 1 {
        if player.stopped() {
            return None;
        }
        reached.clear();
        let mut tries = 0u64;
        while tries < u64::from(effort)
            || (reached.is_empty() && tries < MAX_TRIES_PER_EFFORT * u64::from(effort))
        {
            tries += 1;
            let start = entries[rng.random_range(0..entries.len())];
            if let Some(entry) = rise(game, player, start, target, usual, rng, result, tick) {
                reached.push(entry);
            }
        }
        if reached.is_empty() {
            // No try reached this level: it counts as reached half a time, and the levels above
            // it as certain, rather than running on.
            chance *= 0.5 / tries as f64;
            break;
        }
        chance *= reached.len() as f64 / tries as f64;
        std::mem::swap(&mut entries, &mut reached);
    }
    Some(chance)
}

/// Plays one move of `player` at `position`: the lines it cleared and whether the game goes on
/// (it ends when there is no move, or when the next piece cannot be placed).
fn step(
    game: &Tetris,
    player: &impl Policy<Tetris>,
    position: &mut Position,
    rng: &mut ChaCha8Rng,
) -> (u32, bool) {
    match player.choose(game, position) {
        Some(mv) => {
            let outcome = game.apply(position, mv, rng);
            (outcome.cleared, !outcome.game_over)
        }
        None => (0, false),
    }
}

/// Plays from `start` until the stack reaches `target` rows (or the game ends: reached) or
/// falls to `usual` rows or fewer (not reached). A start already at the target has reached it.
#[allow(clippy::too_many_arguments)]
fn rise(
    game: &Tetris,
    player: &impl Policy<Tetris>,
    start: Entry,
    target: u32,
    usual: u32,
    rng: &mut ChaCha8Rng,
    result: &mut EpisodeResult,
    tick: &mut impl FnMut(&Position, &mut EpisodeResult),
) -> Option<Entry> {
    // A game that ended on the way has reached every level above.
    let Some(mut position) = start else {
        return Some(None);
    };
    loop {
        let h = position.board.stack_height();
        if h >= target {
            return Some(Some(position));
        }
        if h <= usual || player.stopped() {
            return None;
        }
        let (_, alive) = step(game, player, &mut position, rng);
        tick(&position, result);
        if !alive {
            return Some(None);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tetris::{Placement, board::Board};
    use stacktune_base::rng::game_stream;

    /// Never called: a game that has ended is not played on.
    struct NoPlayer;

    impl Policy<Tetris> for NoPlayer {
        fn choose(&self, _: &Tetris, _: &Position) -> Option<Placement> {
            unreachable!("a start at or past its level is not played")
        }
    }

    /// A trajectory whose game ended at an earlier level has reached every level above it, and
    /// one already at its target has reached it, without a move; one at the usual height or
    /// below has fallen back.
    #[test]
    fn starts_at_or_past_the_target_have_reached_it() {
        let game = Tetris::new(6, 10).unwrap();
        let mut rng = game_stream(1, 0);
        let mut result = EpisodeResult::default();
        let mut tick = |_: &Position, r: &mut EpisodeResult| r.moves += 1;
        let mut rise_from = |start: Entry, target| {
            rise(
                &game,
                &NoPlayer,
                start,
                target,
                2,
                &mut rng,
                &mut result,
                &mut tick,
            )
        };
        assert_eq!(rise_from(None, 11), Some(None));
        let mut board = Board::empty(6, 10);
        board.fill(0, 0b11111);
        let high = Position::new(board, 0);
        assert_eq!(rise_from(Some(high), 5), Some(Some(high)));
        let mut low = Board::empty(6, 10);
        low.fill(3, 0b11);
        assert_eq!(rise_from(Some(Position::new(low, 0)), 5), None);
        assert_eq!(result.moves, 0);
    }
}
