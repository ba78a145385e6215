//! One ply, or two when the game shows the next piece.

use crate::eval::LinearPlayer;
use stacktune_game::SearchHooks;

/// The best move, the first in enumeration order winning ties; `None` when the game offers no
/// move. When the position after a move knows its next piece (a game played with a preview),
/// that piece is placed too and the better second board scores the move, so a preview alone
/// makes a 2-ply player; the move's own features ([`SearchHooks::first_move_features`]) are
/// added to that score.
pub fn lookahead<G: SearchHooks>(
    eval: &LinearPlayer,
    game: &G,
    position: &G::Position,
) -> Option<G::Move> {
    if !game.shows_next(position) {
        return one_ply(eval, game, position);
    }
    // The first moves' own features, which the positions after them do not carry.
    let first = game.first_move_features(position);
    let mut best: Option<(G::Move, f64)> = None;
    game.for_each_move(
        position,
        eval.mask(),
        &mut |mv, after, outcome, features| {
            let value = match outcome.terminal_value {
                Some(_) => eval.score(outcome, features),
                None if first == 0 => best_value(eval, game, after),
                None => best_value(eval, game, after) + eval.score_within(first, features),
            };
            if best.is_none_or(|(_, b)| value > b) {
                best = Some((mv, value));
            }
        },
    );
    best.map(|(mv, _)| mv)
}

/// The move whose own outcome scores best, the first in enumeration order winning ties,
/// whatever the game shows ahead: the cheap player to tune with.
pub fn one_ply<G: SearchHooks>(
    eval: &LinearPlayer,
    game: &G,
    position: &G::Position,
) -> Option<G::Move> {
    let mut best: Option<(G::Move, f64)> = None;
    game.for_each_outcome(position, eval.mask(), &mut |mv, outcome, features| {
        let value = eval.score(outcome, features);
        if best.is_none_or(|(_, b)| value > b) {
            best = Some((mv, value));
        }
    });
    best.map(|(mv, _)| mv)
}

/// The best score over the moves of `position`, −∞ when it has none.
pub(super) fn best_value<G: SearchHooks>(
    eval: &LinearPlayer,
    game: &G,
    position: &G::Position,
) -> f64 {
    let mut best = f64::NEG_INFINITY;
    game.for_each_outcome(position, eval.mask(), &mut |_, outcome, features| {
        best = best.max(eval.score(outcome, features));
    });
    best
}
