//! The contest's random stream: numpy's legacy global generator, reproduced draw for draw.
//!
//! The contest seeds `numpy.random` with a plain integer, which numpy turns into MT19937's
//! `init_genrand` (not Python's `random`, which seeds with `init_by_array`), and draws every
//! piece, obstacle cell and obstacle colour with `randint`, whose legacy form masks 32-bit
//! outputs and rejects values out of range. A contest seed given to stacktune is this seed.

use rand::RngExt;
use rand_chacha::ChaCha8Rng;

const N: usize = 624;
const M: usize = 397;

/// MT19937, 32-bit outputs.
#[derive(Clone, Debug)]
pub struct Mt19937 {
    state: [u32; N],
    index: usize,
}

impl Mt19937 {
    /// `init_genrand(seed mod (2^32 − 1))`, as the contest seeds numpy.
    pub fn new(seed: u64) -> Mt19937 {
        let mut state = [0u32; N];
        state[0] = (seed % 0xffff_ffff) as u32;
        for i in 1..N {
            let prev = state[i - 1];
            state[i] = 1_812_433_253u32
                .wrapping_mul(prev ^ (prev >> 30))
                .wrapping_add(i as u32);
        }
        Mt19937 { state, index: N }
    }

    /// The next 32-bit output.
    pub fn next_u32(&mut self) -> u32 {
        if self.index >= N {
            self.twist();
        }
        let mut y = self.state[self.index];
        self.index += 1;
        y ^= y >> 11;
        y ^= (y << 7) & 0x9d2c_5680;
        y ^= (y << 15) & 0xefc6_0000;
        y ^ (y >> 18)
    }

    fn twist(&mut self) {
        for k in 0..N {
            let y = (self.state[k] & 0x8000_0000) | (self.state[(k + 1) % N] & 0x7fff_ffff);
            let mag = if y & 1 == 1 { 0x9908_b0df } else { 0 };
            self.state[k] = self.state[(k + M) % N] ^ (y >> 1) ^ mag;
        }
        self.index = 0;
    }

    /// numpy's legacy `randint(lo, hi)`: an integer in `[lo, hi)` by masked rejection.
    pub fn randint(&mut self, lo: u32, hi: u32) -> u32 {
        let range = hi - 1 - lo;
        let mask = u32::MAX >> (range | 1).leading_zeros();
        loop {
            let v = self.next_u32() & mask;
            if v <= range {
                return lo + v;
            }
        }
    }
}

/// Where a game's pieces and obstacle cells come from. The rules draw through this, so the
/// same engine plays the contest's exact stream and the ChaCha streams of the generic
/// [`Game::apply`](stacktune_game::Game::apply).
pub trait Dealer {
    /// The next piece, 1..=7 (I, L, J, T, O, S, Z).
    fn piece(&mut self) -> u8;
    /// Whether the next obstacle cell is filled (probability 40/99).
    fn obstacle(&mut self) -> bool;
    /// Whether the pieces come in the fixed cycle I, L, J, T, O, S, Z (contest seed 0), so
    /// that every piece ahead is known, as the contest's level-1 controllers knew it.
    fn cycles(&self) -> bool {
        false
    }
}

/// A contest seed's stream: MT19937, or the fixed cycle I, L, J, T, O, S, Z of seed 0 (whose
/// obstacles still come from `init_genrand(0)`).
#[derive(Clone, Debug)]
pub struct ContestStream {
    mt: Mt19937,
    /// `Some(next index into the cycle)` for seed 0.
    cycle: Option<u8>,
}

impl ContestStream {
    pub fn new(seed: u64) -> ContestStream {
        ContestStream {
            mt: Mt19937::new(seed),
            cycle: (seed == 0).then_some(0),
        }
    }
}

impl Dealer for ContestStream {
    fn piece(&mut self) -> u8 {
        match &mut self.cycle {
            Some(i) => {
                let piece = *i + 1;
                *i = (*i + 1) % 7;
                piece
            }
            None => self.mt.randint(1, 8) as u8,
        }
    }

    fn cycles(&self) -> bool {
        self.cycle.is_some()
    }

    fn obstacle(&mut self) -> bool {
        let filled = self.mt.randint(1, 100) <= 40;
        if filled {
            // The cell's colour: drawn, so the stream stays in step, and not used.
            self.mt.randint(1, 8);
        }
        filled
    }
}

/// The contest's distribution from a ChaCha stream, for [`Game::apply`](stacktune_game::Game::apply).
impl Dealer for ChaCha8Rng {
    fn piece(&mut self) -> u8 {
        self.random_range(1..8u8)
    }

    fn obstacle(&mut self) -> bool {
        self.random_range(1..100u32) <= 40
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn init_genrand_matches_the_reference_outputs() {
        // The reference implementation's first outputs for init_genrand(5489).
        let mut mt = Mt19937::new(5489);
        let first: Vec<u32> = (0..3).map(|_| mt.next_u32()).collect();
        assert_eq!(first, [3_499_211_612, 581_869_302, 3_890_346_734]);
    }

    #[test]
    fn seed_1_deals_the_readme_pieces() {
        let mut s = ContestStream::new(1);
        let pieces: Vec<u8> = (0..20).map(|_| s.piece()).collect();
        assert_eq!(
            pieces,
            [6, 4, 5, 1, 2, 4, 6, 1, 1, 2, 5, 6, 5, 7, 2, 3, 5, 7, 6, 3]
        );
    }

    #[test]
    fn seed_0_cycles_through_the_pieces() {
        let mut s = ContestStream::new(0);
        let pieces: Vec<u8> = (0..9).map(|_| s.piece()).collect();
        assert_eq!(pieces, [1, 2, 3, 4, 5, 6, 7, 1, 2]);
    }
}
