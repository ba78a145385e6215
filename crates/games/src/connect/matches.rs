//! Series of games between two agents over the two-move opening suite, seeded per game and
//! played in parallel: a win rate that depends only on the agents and the seed.

use super::agents::Agent;
use super::{Column, Connect, Ending, Position};
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;
use stacktune_base::rng::{Purpose, stream};
use std::ops::Add;

/// How one game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameEnd {
    /// The player (0 moved first) who won, `None` for a draw.
    pub winner: Option<usize>,
    /// Discs played in the game, opening included.
    pub moves: u32,
}

/// Plays `position` to the end, `agents[p]` moving for player p, showing `observe` every
/// position before its move. An illegal column loses. `position` is left at the final board.
/// An agent told to stop ends the game where it is, as a draw that nobody records.
pub fn play_out(
    game: &Connect,
    position: &mut Position,
    agents: [&mut dyn Agent; 2],
    rng: &mut ChaCha8Rng,
    observe: &mut impl FnMut(&Position),
) -> GameEnd {
    let [first, second] = agents;
    loop {
        observe(position);
        let mover = position.to_move();
        let agent: &mut dyn Agent = if mover == 0 { first } else { second };
        if agent.stopped() {
            return GameEnd {
                winner: None,
                moves: position.moves_played(),
            };
        }
        let column = agent.choose(position, rng);
        if let Some(ending) = game.play(position, column) {
            return GameEnd {
                winner: match ending {
                    Ending::Win => Some(mover),
                    Ending::Draw => None,
                    Ending::Forfeit => Some(mover ^ 1),
                },
                moves: position.moves_played(),
            };
        }
    }
}

/// Game `round` of a series between `a` and `b` (see [`schedule`]), from `a`'s side: the
/// opening is played, then the agents take over. Returns the result and the final board.
pub fn play_round(
    game: &Connect,
    openings: &[[Column; 2]],
    round: u64,
    a: &mut dyn Agent,
    b: &mut dyn Agent,
    rng: &mut ChaCha8Rng,
    observe: &mut impl FnMut(&Position),
) -> (MatchResult, Position) {
    let (mut position, a_first) = opened(game, openings, round);
    let agents: [&mut dyn Agent; 2] = if a_first { [a, b] } else { [b, a] };
    let end = play_out(game, &mut position, agents, rng, observe);
    let a_player = if a_first { 0 } else { 1 };
    let result = MatchResult {
        wins: (end.winner == Some(a_player)) as u64,
        draws: end.winner.is_none() as u64,
        losses: (end.winner == Some(a_player ^ 1)) as u64,
        moves: end.moves as u64,
    };
    (result, position)
}

/// A match from its first agent's side.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MatchResult {
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
    /// Discs played over all games, openings included.
    pub moves: u64,
}

impl MatchResult {
    pub fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }

    /// The first agent's mean game score: win 1, draw ½, loss 0.
    pub fn score(&self) -> f64 {
        (self.wins as f64 + 0.5 * self.draws as f64) / self.games() as f64
    }
}

impl Add for MatchResult {
    type Output = MatchResult;

    fn add(self, other: MatchResult) -> MatchResult {
        MatchResult {
            wins: self.wins + other.wins,
            draws: self.draws + other.draws,
            losses: self.losses + other.losses,
            moves: self.moves + other.moves,
        }
    }
}

/// The opening and colours of game `index`: openings in [`Connect::two_ply_openings`] order,
/// each played twice in a row, first with agent A moving first, then with colours swapped;
/// the suite repeats when more games are asked (random agents then meet new games).
pub fn schedule(openings: &[[Column; 2]], index: u64) -> ([Column; 2], bool) {
    let opening = openings[(index / 2 % openings.len() as u64) as usize];
    (opening, index.is_multiple_of(2))
}

/// The position game `round` starts from, its opening played, and whether the first agent of
/// the series moves first in it (see [`schedule`]).
pub fn opened(game: &Connect, openings: &[[Column; 2]], round: u64) -> (Position, bool) {
    let (opening, first) = schedule(openings, round);
    let mut position = game.empty();
    for column in opening {
        let ending = game.play(&mut position, column);
        debug_assert!(ending.is_none(), "the suite holds openings still in play");
    }
    (position, first)
}

/// Plays `games` games between `a` and `b` over the opening suite (see [`schedule`]), game i
/// with a fresh copy of each agent and the stream (`seed`, [`Purpose::Games`], 0, i), in
/// parallel on the current rayon pool. Counts are sums, so any thread count gives the same
/// result.
pub fn play_match<A, B>(game: &Connect, a: &A, b: &B, games: u64, seed: u64) -> MatchResult
where
    A: Agent + Clone + Sync,
    B: Agent + Clone + Sync,
{
    let openings = game.two_ply_openings();
    (0..games)
        .into_par_iter()
        .map(|index| {
            let mut rng = stream(seed, Purpose::Games, 0, index);
            let (mut a, mut b) = (a.clone(), b.clone());
            play_round(game, openings, index, &mut a, &mut b, &mut rng, &mut |_| {}).0
        })
        .reduce(MatchResult::default, Add::add)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn schedule_plays_each_opening_with_both_colours_then_cycles() {
        let game = Connect::standard();
        let openings = game.two_ply_openings();
        assert_eq!(openings.len(), 49);
        assert_eq!(schedule(openings, 0), ([0, 0], true));
        assert_eq!(schedule(openings, 1), ([0, 0], false));
        assert_eq!(schedule(openings, 97), ([6, 6], false));
        assert_eq!(schedule(openings, 98), ([0, 0], true));
    }

    #[test]
    fn tiny_boards_leave_out_openings_that_end_the_game() {
        // One row: a column takes one disc, so a column cannot be played twice.
        let game = Connect::new(1, 3, 2).unwrap();
        assert_eq!(game.two_ply_openings().len(), 6);
    }
}
