//! One ply, or two when the game shows the next piece.

use crate::eval::LinearPlayer;
use crate::game::Game;

/// The best move, the first in enumeration order winning ties; `None` when the game offers no
/// move. When the position after a move knows its next piece (a game played with a preview),
/// that piece is placed too and the better second board scores the move, so a preview alone
/// makes a 2-ply player.
pub fn lookahead<G: Game>(
    eval: &LinearPlayer,
    game: &G,
    position: &G::Position,
) -> Option<G::Move> {
    let mut best: Option<(G::Move, f64)> = None;
    let mut consider = |mv, value| {
        if best.is_none_or(|(_, b)| value > b) {
            best = Some((mv, value));
        }
    };
    let mask = eval.mask();
    if game.shows_next(position) {
        game.for_each_move(position, mask, &mut |mv, after, outcome, features| {
            let value = match outcome.terminal_value {
                Some(_) => eval.score(outcome, features),
                None => best_value(eval, game, after),
            };
            consider(mv, value);
        });
    } else {
        game.for_each_outcome(position, mask, &mut |mv, outcome, features| {
            consider(mv, eval.score(outcome, features))
        });
    }
    best.map(|(mv, _)| mv)
}

/// The best score over the moves of `position`, −∞ when it has none.
pub(super) fn best_value<G: Game>(eval: &LinearPlayer, game: &G, position: &G::Position) -> f64 {
    let mut best = f64::NEG_INFINITY;
    game.for_each_outcome(position, eval.mask(), &mut |_, outcome, features| {
        best = best.max(eval.score(outcome, features));
    });
    best
}
