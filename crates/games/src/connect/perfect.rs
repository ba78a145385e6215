//! The perfect player: the solver choosing the columns, and the score it reaches against an
//! opponent in a series of games — the ceiling of what any player can score in those games.
//!
//! A two-move opening can hand the player a lost position, and a strong opponent may then
//! never let it go, so even perfect play can score less than 100 % in a series; a tuned
//! player's score means most beside this one, measured on the same games.

use super::agents::Agent;
use super::board::{MAX_COLUMNS, centre_first};
use super::matches::{MatchResult, opened};
use super::solver::{COLUMNS, Solver};
use super::{Column, Connect, Ending, Position};
use rand_chacha::ChaCha8Rng;
use std::collections::HashMap;

/// The columns in the game's order, centre first: the tie rule of the alpha-beta player.
const ORDER: [Column; MAX_COLUMNS] = centre_first(COLUMNS as u32);

/// Plays by the solver on the 7 × 6 board: the fastest win from a won position, else a draw,
/// else the longest resistance (the highest score of [`Solver::analyse`]); among equal
/// columns, the first in the game's centre-first order, the tie rule of the alpha-beta
/// player. It draws nothing from the stream, so it is deterministic.
///
/// Solved positions are remembered, since a series meets the same openings again and again.
pub struct Perfect {
    solver: Solver,
    /// Whether the side to move wins.
    wins: HashMap<Position, bool>,
    analyses: HashMap<Position, [Option<i32>; COLUMNS]>,
}

impl Default for Perfect {
    fn default() -> Self {
        Perfect::new()
    }
}

impl Perfect {
    pub fn new() -> Perfect {
        Perfect {
            solver: Solver::new(),
            wins: HashMap::new(),
            analyses: HashMap::new(),
        }
    }

    /// Whether the side to move of `position` wins with perfect play.
    pub fn wins(&mut self, position: &Position) -> bool {
        if let Some(&w) = self.wins.get(position) {
            return w;
        }
        let w = self
            .solver
            .is_above(position, 0)
            .expect("a solver without a time limit runs to the end");
        self.wins.insert(*position, w);
        w
    }

    /// The score each column leaves for the side to move (`None`: full).
    fn analyse(&mut self, position: &Position) -> [Option<i32>; COLUMNS] {
        if let Some(a) = self.analyses.get(position) {
            return *a;
        }
        let a = self
            .solver
            .analyse(position)
            .expect("a solver without a time limit runs to the end");
        self.analyses.insert(*position, a);
        a
    }

    /// The column perfect play picks (see [`Perfect`]).
    pub fn column(&mut self, position: &Position) -> Column {
        let scores = self.analyse(position);
        let mut best: Option<(Column, i32)> = None;
        for &column in &ORDER[..COLUMNS] {
            if let Some(score) = scores[column as usize]
                && best.is_none_or(|(_, b)| score > b)
            {
                best = Some((column, score));
            }
        }
        best.expect("a position in play has a legal column").0
    }

    /// [`column`](Self::column) for a position the side to move does not win, found with
    /// cheaper searches: the first column, centre first, after which the opponent does not
    /// win is the first of the columns scored 0 (a drawn position); only a lost position
    /// needs every column's exact score, for the longest resistance.
    fn column_not_won(&mut self, game: &Connect, position: &Position) -> Column {
        for &column in &ORDER[..COLUMNS] {
            if !game.is_legal(position, column) {
                continue;
            }
            let mut after = *position;
            match game.play(&mut after, column) {
                None if !self.wins(&after) => return column,
                Some(Ending::Draw) => return column,
                _ => {}
            }
        }
        self.column(position)
    }
}

/// The value of a [`Connect::standard`] position in play for its side to move under perfect
/// play: 1 won, 0 drawn, −1 lost. At most two null-window searches.
pub fn outcome<const SIZE: usize>(
    solver: &mut Solver<SIZE>,
    game: &Connect,
    position: &Position,
) -> i8 {
    let solved = "a solver without a time limit runs to the end";
    if ORDER[..COLUMNS]
        .iter()
        .any(|&c| game.is_legal(position, c) && game.wins(position, c))
        || solver.is_above(position, 0).expect(solved)
    {
        1
    } else if solver.is_above(position, -1).expect(solved) {
        0
    } else {
        -1
    }
}

/// The columns that keep the value of a [`Connect::standard`] position in play under perfect
/// play, centre first: in a won position those that win at once or leave the opponent lost; in
/// a drawn one those that leave the opponent no win (the last cell included). `None` for a
/// lost position, which every column keeps. Null-window searches only: the sign of each score
/// is all this needs, far cheaper than the exact scores of [`Solver::analyse`].
pub fn value_keeping(
    solver: &mut Solver,
    game: &Connect,
    position: &Position,
) -> Option<Vec<Column>> {
    let solved = "a solver without a time limit runs to the end";
    let value = outcome(solver, game, position);
    if value < 0 {
        return None;
    }
    let won = value > 0;
    // The opponent's score after a column that keeps the value: below 0 (won), at most 0 (drawn).
    let most = if won { -1 } else { 0 };
    let kept = ORDER[..COLUMNS]
        .iter()
        .copied()
        .filter(|&column| {
            if !game.is_legal(position, column) {
                return false;
            }
            let mut after = *position;
            match game.play(&mut after, column) {
                Some(Ending::Win) => true,
                Some(Ending::Draw) => !won,
                Some(Ending::Forfeit) => false,
                None => !solver.is_above(&after, most).expect(solved),
            }
        })
        .collect();
    Some(kept)
}

/// Game `round` of a series between the perfect player and `opponent` (the opening and colours
/// of [`opened`]), from the perfect player's side; see [`perfect_play_out`].
pub fn perfect_round(
    game: &Connect,
    perfect: &mut Perfect,
    opponent: &mut dyn Agent,
    round: u64,
    rng: &mut ChaCha8Rng,
) -> MatchResult {
    let (position, perfect_first) = opened(game, game.two_ply_openings(), round);
    let side = if perfect_first { 0 } else { 1 };
    perfect_play_out(game, perfect, opponent, position, side, rng)
}

/// Plays `position` on between the perfect player (moving for `side`) and `opponent`, and
/// returns the result from the perfect player's side. Only `opponent` draws from `rng`, so
/// its moves are the ones it makes in the same game against any player of the same columns.
///
/// The game stops as soon as the perfect player is to move in a won position: from there it
/// wins whatever the opponent plays, so the result is that of the whole game, and the costly
/// solving of early won positions is saved. `moves` then counts the discs played until then.
pub fn perfect_play_out(
    game: &Connect,
    perfect: &mut Perfect,
    opponent: &mut dyn Agent,
    mut position: Position,
    side: usize,
    rng: &mut ChaCha8Rng,
) -> MatchResult {
    let result = |winner: Option<usize>, position: &Position| MatchResult {
        wins: (winner == Some(side)) as u64,
        draws: winner.is_none() as u64,
        losses: (winner == Some(side ^ 1)) as u64,
        moves: position.moves_played() as u64,
    };
    loop {
        let mover = position.to_move();
        let column = if mover == side {
            if perfect.wins(&position) {
                return result(Some(side), &position);
            }
            perfect.column_not_won(game, &position)
        } else {
            opponent.choose(&position, rng)
        };
        if let Some(ending) = game.play(&mut position, column) {
            let winner = match ending {
                Ending::Win => Some(mover),
                Ending::Draw => None,
                Ending::Forfeit => Some(mover ^ 1),
            };
            return result(winner, &position);
        }
    }
}

impl Agent for Perfect {
    fn choose(&mut self, position: &Position, _rng: &mut ChaCha8Rng) -> Column {
        self.column(position)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::connect::agents::{Negamax4, RandomAgent};
    use crate::connect::matches::play_out;
    use stacktune_base::rng::game_stream;

    #[test]
    fn takes_the_fastest_win_and_blocks_what_it_must() {
        let game = Connect::standard();
        let mut perfect = Perfect::new();
        // X has columns 1 to 3 of the bottom row: column 4 wins at once.
        let won = game.parse_moves("172737").unwrap();
        assert_eq!(perfect.column(&won), 3);
        assert!(perfect.wins(&won));
        // O to move against that threat: every column but 4 loses at once.
        // The block wins in the end (the solver scores it 1, every other column -18), so X,
        // to move after it, does not win.
        let forced = game.parse_moves("17273").unwrap();
        assert_eq!(perfect.column(&forced), 3);
        assert!(perfect.wins(&forced));
        assert!(!perfect.wins(&game.parse_moves("172734").unwrap()));
    }

    /// A game stopped at the perfect player's first won position ends as the whole game does,
    /// from positions of random games with 16 discs (cheap to solve), on either side.
    #[test]
    fn a_stopped_game_ends_as_the_whole_game_does() {
        let game = Connect::standard();
        let mut perfect = Perfect::new();
        let mut stopped_early = 0;
        for seed in 0..12 {
            let mut rng = game_stream(7, seed);
            let mut position = game.empty();
            let mut ended = false;
            for _ in 0..16 {
                let column = RandomAgent::new(&game).choose(&position, &mut rng);
                ended |= game.play(&mut position, column).is_some();
                if ended {
                    break;
                }
            }
            if ended {
                continue;
            }
            let side = (seed % 2) as usize;
            let mut nm = Negamax4::new(&game);
            let stopped = perfect_play_out(
                &game,
                &mut perfect,
                &mut nm,
                position,
                side,
                &mut game_stream(8, seed),
            );
            let (mut whole_position, mut nm) = (position, Negamax4::new(&game));
            let mut agent = Perfect::new();
            let agents: [&mut dyn Agent; 2] = if side == 0 {
                [&mut agent, &mut nm]
            } else {
                [&mut nm, &mut agent]
            };
            let end = play_out(
                &game,
                &mut whole_position,
                agents,
                &mut game_stream(8, seed),
                &mut |_| {},
            );
            let whole = (
                end.winner == Some(side),
                end.winner.is_none(),
                end.winner == Some(side ^ 1),
            );
            assert_eq!(
                (stopped.wins == 1, stopped.draws == 1, stopped.losses == 1),
                whole,
                "seed {seed}"
            );
            stopped_early += (stopped.moves < end.moves as u64) as u32;
        }
        assert!(
            stopped_early > 0,
            "no game was stopped early, so the test tests nothing"
        );
    }
}
