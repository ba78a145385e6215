//! Negamax with alpha-beta pruning, for two-player games.

use super::lookahead::{best_value, lookahead};
use crate::eval::LinearPlayer;
use stacktune_game::SearchHooks;

/// The first best move at `depth` plies (1: [`lookahead`] itself), among `only` when given
/// (the moves an endgame solver keeps). Move values are from the mover's side, so the
/// evaluation at the leaves is the mover's and each ply negates it; a move that decides the
/// game takes its terminal value. Ties go to the first move in the game's order, so the
/// choice is deterministic.
pub fn alpha_beta<G: SearchHooks>(
    eval: &LinearPlayer,
    game: &G,
    position: &G::Position,
    depth: u32,
    only: Option<&[G::Move]>,
) -> Option<G::Move> {
    if depth <= 1 && only.is_none() {
        return lookahead(eval, game, position);
    }
    let mask = if depth <= 1 { eval.mask() } else { 0 };
    let mut best: Option<(G::Move, f64)> = None;
    game.for_each_move(position, mask, &mut |mv, after, outcome, features| {
        let alpha = best.map_or(f64::NEG_INFINITY, |(_, b)| b);
        if alpha == f64::INFINITY || only.is_some_and(|kept| !kept.contains(&mv)) {
            return;
        }
        let value = if depth <= 1 {
            eval.score(outcome, features)
        } else {
            outcome.terminal_value.unwrap_or_else(|| {
                -negamax(eval, game, after, depth - 1, f64::NEG_INFINITY, -alpha)
            })
        };
        if best.is_none_or(|(_, b)| value > b) {
            best = Some((mv, value));
        }
    });
    best.map(|(mv, _)| mv)
}

/// The value of `position` for its side to move, searched `depth` plies within
/// (alpha, beta); fail-soft.
fn negamax<G: SearchHooks>(
    eval: &LinearPlayer,
    game: &G,
    position: &G::Position,
    depth: u32,
    mut alpha: f64,
    beta: f64,
) -> f64 {
    if depth == 1 {
        return best_value(eval, game, position);
    }
    let mut best = f64::NEG_INFINITY;
    game.for_each_move(position, 0, &mut |_, after, outcome, _| {
        if alpha >= beta {
            return;
        }
        let value = outcome
            .terminal_value
            .unwrap_or_else(|| -negamax(eval, game, after, depth - 1, -beta, -alpha));
        best = best.max(value);
        alpha = alpha.max(value);
    });
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use stacktune_base::rng::game_stream;
    use stacktune_game::Game;
    use stacktune_games::connect::Connect;
    use stacktune_games::connect::agents::{Agent, RandomAgent};

    /// Plain minimax over `depth` plies, the definition alpha-beta must agree with.
    fn minimax(
        eval: &LinearPlayer,
        game: &Connect,
        position: &<Connect as Game>::Position,
        depth: u32,
    ) -> f64 {
        let mut best = f64::NEG_INFINITY;
        game.for_each_move(position, eval.mask(), &mut |_, after, outcome, features| {
            let value = match outcome.terminal_value {
                Some(v) => v,
                None if depth == 1 => eval.score(outcome, features),
                None => -minimax(eval, game, after, depth - 1),
            };
            best = best.max(value);
        });
        best
    }

    /// Alpha-beta must pick what a plain minimax picks (first best, centre first), on
    /// positions from random Connect Four games.
    #[test]
    fn alpha_beta_matches_plain_minimax() {
        let game = Connect::standard();
        let names = game.feature_names();
        let weights: Vec<f64> = (0..names.len())
            .map(|i| ((i * 7 + 3) % 11) as f64 - 5.0)
            .collect();
        let eval = LinearPlayer::from_vector(names, &weights).unwrap();
        let mut checked = 0;
        for depth in 2..=4 {
            for seed in 0..6 {
                let mut rng = game_stream(seed, 0);
                let mut position = game.empty();
                loop {
                    let mut best: Option<(u8, f64)> = None;
                    game.for_each_move(&position, 0, &mut |c, after, o, _| {
                        let value = match o.terminal_value {
                            Some(v) => v,
                            None => -minimax(&eval, &game, after, depth - 1),
                        };
                        if best.is_none_or(|(_, b)| value > b) {
                            best = Some((c, value));
                        }
                    });
                    let chosen = alpha_beta(&eval, &game, &position, depth, None);
                    assert_eq!(chosen, best.map(|b| b.0), "depth {depth}, seed {seed}");
                    checked += 1;
                    let column = RandomAgent::new(&game).choose(&position, &mut rng);
                    if game.play(&mut position, column).is_some() {
                        break;
                    }
                }
            }
        }
        assert!(checked > 100, "{checked} positions");
    }
}
