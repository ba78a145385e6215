//! What every versus game's match shares, whatever its rules: its seeds, how it ends and what
//! each side scores from it.

use rand::RngExt;
use rand_chacha::ChaCha8Rng;

/// The seeds of one match: the queue both sides share (Tetris's pieces, Puyo's pair cycle),
/// and each side's own stream (where its garbage holes or nuisance columns fall).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Seeds {
    pub queue: u64,
    pub sides: [u64; 2],
}

impl Seeds {
    pub fn draw(rng: &mut ChaCha8Rng) -> Seeds {
        Seeds {
            queue: rng.random(),
            sides: [rng.random(), rng.random()],
        }
    }

    /// The same match with the sides' own streams swapped: played after the first, a pair of
    /// games on one seed that is fair to both sides.
    pub fn swapped(self) -> Seeds {
        Seeds {
            sides: [self.sides[1], self.sides[0]],
            ..self
        }
    }
}

/// How a match ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MatchEnd {
    /// Side 0 or side 1 won.
    Won(usize),
    Draw,
}

impl MatchEnd {
    /// The end when the sides `lost` (each side's flag) at the same moment, if either did:
    /// both at once is a draw.
    pub fn of_losses(lost: [bool; 2]) -> Option<MatchEnd> {
        match lost {
            [false, false] => None,
            [true, true] => Some(MatchEnd::Draw),
            [true, false] => Some(MatchEnd::Won(1)),
            [false, true] => Some(MatchEnd::Won(0)),
        }
    }

    /// Side `side`'s score: 1 for a win, ½ for a draw, 0 for a loss.
    pub fn score_of(&self, side: usize) -> f64 {
        match self {
            MatchEnd::Won(w) if *w == side => 1.0,
            MatchEnd::Won(_) => 0.0,
            MatchEnd::Draw => 0.5,
        }
    }
}
