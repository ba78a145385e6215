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
use stacktune_game::Policy;
use stacktune_game::SearchHooks;

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
    /// ([`Game::perfect_moves`](stacktune_game::Game::perfect_moves)).
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

impl Search {
    /// Whether this search weighs the features a game's moves carry of their own
    /// ([`SearchHooks::first_move_features`]: Puyo's match) on the scale of its values of first
    /// moves: one ply, the lookahead and the sampled beam do; a beam over the pieces shown, the
    /// anytime beam and alpha-beta value a first move by the positions further on, which do
    /// not carry them.
    pub fn weighs_first_move_features(self) -> bool {
        matches!(
            self,
            Search::OnePly | Search::Lookahead | Search::Sampled { .. }
        )
    }

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
