//! The cost of the MPI backend's messages between two ranks: a chunk (two 64-bit words) sent,
//! its results (ten words a game) sent back, for chunks of 1 to 1,000 games, and a batch of
//! 100 candidates' weights as JSON; each the mean round trip over many rounds.
//!
//! ```sh
//! cargo build --release --features mpi --example mpi_pingpong
//! mpirun -n 2 target/release/examples/mpi_pingpong
//! ```

use mpi::traits::*;

const ROUNDS: u32 = 2_000;

fn main() {
    let universe = mpi::initialize().expect("MPI starts");
    let world = universe.world();
    assert_eq!(world.size(), 2, "run with mpirun -n 2");
    let rank = world.rank();
    let other = world.process_at_rank(1 - rank);
    // Round trips of `ask` one way and `answer` the other, in seconds.
    let round_trip = |ask: &[u8], answer: &[u8]| {
        world.barrier();
        let start = mpi::time();
        for _ in 0..ROUNDS {
            if rank == 0 {
                other.send(ask);
                other.receive_vec::<u8>();
            } else {
                other.receive_vec::<u8>();
                other.send(answer);
            }
        }
        (mpi::time() - start) / ROUNDS as f64
    };
    for games in [1usize, 10, 100, 1_000] {
        let seconds = round_trip(&[0; 16], &vec![0; games * 80]);
        if rank == 0 {
            println!(
                "chunk of {games:>5} games: {:>6} bytes back, round trip {:8.2} µs",
                games * 80,
                seconds * 1e6
            );
        }
    }
    // A batch: 100 weight vectors of 13 features as JSON numbers (about 20 bytes each).
    let batch = vec![b'1'; 100 * 13 * 20 + 200];
    let seconds = round_trip(&batch, &[0; 1]);
    if rank == 0 {
        println!(
            "batch of {:>6} bytes: round trip {:8.2} µs",
            batch.len(),
            seconds * 1e6
        );
    }
}
