//! How far a player looks: the layer between a game and the linear evaluator.
//!
//! The evaluator ([`LinearPlayer`]) only scores a position; a [`Search`] decides which positions
//! to score. Keeping the two apart lets one tuned weight set play one ply while it is tuned and
//! a deep beam when it is measured, and lets every game reuse every search.

mod alpha_beta;
mod beam;
mod lookahead;
mod sampled_beam;

pub use alpha_beta::alpha_beta;
pub use beam::{anytime, beam};
pub use lookahead::{lookahead, one_ply};
pub use sampled_beam::sampled_beam;
// The beam's bounds live with the other bounds, below the weights files that check them.
pub use stacktune_base::limits::{MAX_BEAM_DEPTH, MAX_BEAM_WIDTH, check_beam};

use crate::eval::LinearPlayer;
use lookahead::best_value;
use stacktune_game::SearchHooks;
use stacktune_game::{Game, Outcome, Policy};

/// What a first move alone is worth beside a search's value of it, from the move, the position
/// it leaves and its outcome: a match's state (the nuisance coming, the opponent), which the
/// evaluation of the position does not see.
pub type RootBias<'a, G> =
    dyn FnMut(<G as Game>::Move, &<G as Game>::Position, &Outcome) -> f64 + 'a;

/// The names a sampled beam's width, samples, unseen pieces and fired points go by on the
/// command line.
pub const SAMPLED_FLAGS: [&str; 4] = ["--beam-width", "--samples", "--unseen", "--fired"];

/// A search: how the player turns position scores into a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Search {
    /// One ply, whatever the game shows: the cheap player to tune with.
    OnePly,
    /// One ply, or two when the game shows the next piece: the player the papers tune.
    Lookahead,
    /// Keeps the `width` best positions at each of `depth` plies over the known pieces; a
    /// position's value is the last move's evaluation plus the points of the moves before it,
    /// weighted as the weights weigh the game's points feature.
    Beam { depth: u32, width: usize },
    /// A beam over the pieces shown, then over `samples` sampled futures of `unseen` pieces
    /// each; a first move is worth the mean over the futures of the best value its lines
    /// reach, or with `fired` (points) of the best they fire, a line ending at a move that
    /// scores that much (see [`sampled_beam`]).
    Sampled {
        width: usize,
        samples: u32,
        unseen: u32,
        fired: Option<u32>,
    },
    /// A beam that widens (1, 2, 4, ... up to `width` positions a ply, over `depth` plies) while its
    /// searches together stay within `nodes` expansions a move: an anytime search whose
    /// budget is counted in nodes, so a move is the same on any machine (see [`anytime`]).
    Anytime {
        depth: u32,
        width: usize,
        nodes: u64,
    },
    /// Negamax with alpha-beta pruning over `depth` plies, for two-player games whose move
    /// values are from the mover's side; from `endgame` empty cells on (0: never), only over
    /// the moves the game's solver proves keep the position's value
    /// ([`Game::perfect_moves`]).
    AlphaBeta { depth: u32, endgame: u32 },
}

/// A weight set under a search: what plays the tuned side of a game.
#[derive(Clone, Debug, PartialEq)]
pub struct Player {
    pub eval: LinearPlayer,
    pub search: Search,
}

impl Player {
    pub fn new(eval: LinearPlayer, search: Search) -> Player {
        Player { eval, search }
    }
}

impl Player {
    /// Whether [`Player::choose_biased`] takes this player's search: one ply, the lookahead
    /// and the sampled beam, whose first moves' values are on the evaluation's own scale.
    pub fn takes_bias(&self) -> bool {
        matches!(
            self.search,
            Search::OnePly | Search::Lookahead | Search::Sampled { .. }
        )
    }

    /// The move whose value under the search, raised by `bias` of the move itself, is the
    /// highest; the first in the game's order wins ties. A search that does not take a bias
    /// ([`Player::takes_bias`]) chooses as it does alone.
    pub fn choose_biased<G: SearchHooks>(
        &self,
        game: &G,
        position: &G::Position,
        bias: &mut RootBias<'_, G>,
    ) -> Option<G::Move> {
        let look = match self.search {
            Search::OnePly => false,
            Search::Lookahead => game.shows_next(position),
            Search::Sampled {
                width,
                samples,
                unseen,
                fired,
            } => {
                let settings = (width, samples, unseen, fired);
                return sampled_beam::sampled_beam_biased(
                    &self.eval,
                    game,
                    position,
                    settings,
                    Some(bias),
                );
            }
            _ => return self.choose(game, position),
        };
        let mut best: Option<(G::Move, f64)> = None;
        game.for_each_move(
            position,
            self.eval.mask(),
            &mut |mv, after, outcome, features| {
                let value = match outcome.terminal_value {
                    None if look => best_value(&self.eval, game, after),
                    _ => self.eval.score(outcome, features),
                } + bias(mv, after, outcome);
                if best.is_none_or(|(_, b)| value > b) {
                    best = Some((mv, value));
                }
            },
        );
        best.map(|(mv, _)| mv)
    }
}

impl Search {
    /// The search an earlier champion plays as a rival: this one, without an endgame solver.
    pub fn for_rivals(self) -> Search {
        match self {
            Search::AlphaBeta { depth, .. } => Search::AlphaBeta { depth, endgame: 0 },
            other => other,
        }
    }
}

impl<G: SearchHooks> Policy<G> for Player {
    fn choose(&self, game: &G, position: &G::Position) -> Option<G::Move> {
        match self.search {
            Search::OnePly => one_ply(&self.eval, game, position),
            Search::Lookahead => lookahead(&self.eval, game, position),
            Search::Beam { depth, width } => beam(&self.eval, game, position, depth, width),
            Search::Anytime {
                depth,
                width,
                nodes,
            } => anytime(&self.eval, game, position, depth, width, nodes),
            Search::Sampled {
                width,
                samples,
                unseen,
                fired,
            } => sampled_beam(&self.eval, game, position, width, samples, unseen, fired),
            Search::AlphaBeta { depth, endgame } => {
                let kept = game.perfect_moves(position, endgame);
                alpha_beta(&self.eval, game, position, depth, kept.as_deref())
            }
        }
    }
}
