//! Seeded random streams.
//!
//! Every random draw of a run comes from a ChaCha stream keyed by (seed, purpose, generation)
//! and numbered by an index, so what game `i` of generation `g` sees never depends on which
//! thread plays it or on what else was drawn before.

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// What a stream is used for; part of its key, so streams of different purposes never overlap.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[repr(u64)]
pub enum Purpose {
    /// Games of `play` and of validation: seed `S`, game `i`.
    Games = 0,
    /// The training games of one generation.
    TrainingGames = 1,
    /// The initial population.
    Population = 2,
    /// Selection, crossover and mutation of one generation.
    Breeding = 3,
    /// Guideline Tetris: the bag of a piece sequence (seeded per game, numbered by bag), so
    /// both sides of a match see the same pieces however each uses hold.
    Pieces = 4,
    /// Guideline Tetris: the hole columns of one side's garbage rows.
    Garbage = 5,
    /// Match fitness: which peers of its generation the candidates meet.
    Schedule = 6,
}

/// The stream for (seed, purpose, generation), index `index`.
pub fn stream(seed: u64, purpose: Purpose, generation: u64, index: u64) -> ChaCha8Rng {
    let mut key = [0u8; 32];
    key[..8].copy_from_slice(&seed.to_le_bytes());
    key[8..16].copy_from_slice(&(purpose as u64).to_le_bytes());
    key[16..24].copy_from_slice(&generation.to_le_bytes());
    let mut rng = ChaCha8Rng::from_seed(key);
    rng.set_stream(index);
    rng
}

/// The piece stream of game `index` under seed `seed`: what `play --seed` uses.
pub fn game_stream(seed: u64, index: u64) -> ChaCha8Rng {
    stream(seed, Purpose::Games, 0, index)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::RngExt;

    #[test]
    fn streams_differ_by_every_part_of_the_key() {
        let draw = |mut r: ChaCha8Rng| r.random::<u64>();
        let base = draw(stream(1, Purpose::Games, 0, 0));
        assert_eq!(base, draw(stream(1, Purpose::Games, 0, 0)));
        assert_ne!(base, draw(stream(2, Purpose::Games, 0, 0)));
        assert_ne!(base, draw(stream(1, Purpose::TrainingGames, 0, 0)));
        assert_ne!(base, draw(stream(1, Purpose::Games, 1, 0)));
        assert_ne!(base, draw(stream(1, Purpose::Games, 0, 1)));
    }
}
