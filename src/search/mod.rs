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
pub use beam::beam;
pub use lookahead::{lookahead, one_ply};
pub use sampled_beam::sampled_beam;

use crate::eval::LinearPlayer;
use crate::game::{Game, Policy};

/// Widest beam accepted: wider beams cost time linearly and stop paying long before this.
pub const MAX_BEAM_WIDTH: usize = 100_000;
/// Deepest beam accepted: no game here shows more pieces than this ahead.
pub const MAX_BEAM_DEPTH: u32 = 16;

/// Checks a beam's depth and width against the limits above, naming each as the user gave it
/// (`names`: the flags, or a weights file's keys), so the one-line error says what to change.
pub fn check_beam(depth: u32, width: usize, names: (&str, &str)) -> anyhow::Result<()> {
    if !(1..=MAX_BEAM_DEPTH).contains(&depth) {
        anyhow::bail!("{} {depth} is out of range 1..={MAX_BEAM_DEPTH}", names.0);
    }
    if !(1..=MAX_BEAM_WIDTH).contains(&width) {
        anyhow::bail!("{} {width} is out of range 1..={MAX_BEAM_WIDTH}", names.1);
    }
    Ok(())
}

/// Most sampled futures a sampled beam draws, and most unseen pieces in each.
pub const MAX_SAMPLES: u32 = 256;
pub const MAX_UNSEEN: u32 = 32;

/// The names a sampled beam's width, samples and unseen pieces go by on the command line.
pub const SAMPLED_FLAGS: (&str, &str, &str) = ("--beam-width", "--samples", "--unseen");

/// Checks a sampled beam's settings (see [`check_beam`]; `names` as width, samples, unseen).
pub fn check_sampled(
    width: usize,
    samples: u32,
    unseen: u32,
    names: (&str, &str, &str),
) -> anyhow::Result<()> {
    check_beam(1, width, ("", names.0))?;
    if !(1..=MAX_SAMPLES).contains(&samples) {
        anyhow::bail!("{} {samples} is out of range 1..={MAX_SAMPLES}", names.1);
    }
    if !(1..=MAX_UNSEEN).contains(&unseen) {
        anyhow::bail!("{} {unseen} is out of range 1..={MAX_UNSEEN}", names.2);
    }
    Ok(())
}

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
    /// reach (see [`sampled_beam`]).
    Sampled {
        width: usize,
        samples: u32,
        unseen: u32,
    },
    /// Negamax with alpha-beta pruning over `depth` plies, for two-player games whose move
    /// values are from the mover's side.
    AlphaBeta { depth: u32 },
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

impl<G: Game> Policy<G> for Player {
    fn choose(&self, game: &G, position: &G::Position) -> Option<G::Move> {
        match self.search {
            Search::OnePly => one_ply(&self.eval, game, position),
            Search::Lookahead => lookahead(&self.eval, game, position),
            Search::Beam { depth, width } => beam(&self.eval, game, position, depth, width),
            Search::Sampled {
                width,
                samples,
                unseen,
            } => sampled_beam(&self.eval, game, position, width, samples, unseen),
            Search::AlphaBeta { depth } => alpha_beta(&self.eval, game, position, depth),
        }
    }
}
