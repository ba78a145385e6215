//! How far the MPI backend scales, by simulation: one generation of 100 candidates × 10 games
//! on 10 × 10 and on 10 × 20 Tetris, dealt to K one-core ranks as the backend deals them
//! (`backend::Dealer`, rank 0 playing too), with the game times measured here and the
//! message and bookkeeping costs measured here.
//!
//! ```sh
//! cargo run --release --example scaling_model -- [latency_us] [poll_us] [bookkeeping_ms]
//! ```
//!
//! Game times: this machine plays 300 uncapped 10 × 10 games with the shipped long run's
//! weights (`reports/tetris-long/best.toml`) on one thread; a game's time is its pieces ×
//! the measured time per piece. The 10 × 20 games cannot be played out here (7.4 M lines each
//! with these weights, docs/scale-out.md), so their lengths are the 10 × 10 lengths' measured shape (each
//! divided by their mean) scaled to 7.4 M lines × 2.5 pieces a line, at the time per piece
//! measured on capped 10 × 20 games.
//!
//! Costs, in the order of the arguments (defaults measured on this machine, docs/scale-out.md):
//! `latency_us`, a message's one-way time (`mpirun -n 2 target/release/examples/mpi_pingpong`:
//! 0.3 µs through shared memory; a cluster's network is 1–50 µs); `poll_us`, how long a message
//! waits before rank 0 looks (half the backend's longest pause between looks, 1 ms);
//! `bookkeeping_ms`, rank 0's time per generation outside the games (breeding, history, plots,
//! checkpoint: a 100-candidate 10 × 20 run whose games end at once). Sending the batch (26 KB)
//! costs rank 0 30 µs per rank (the ping-pong's batch), and taking in results and dealing the
//! next chunk 5 µs.

use rand::RngExt;
use stacktune_base::progress::Progress;
use stacktune_base::rng::{Purpose, stream};
use stacktune_game::EpisodeLimits;
use stacktune_game::Game;
use stacktune_games::settings::GameSpec;
use stacktune_games::tetris::Tetris;
use stacktune_players::eval::LinearPlayer;
use stacktune_players::weights::WeightFile;
use stacktune_run::backend::{Backend, Batch, Dealer, GameData, Local, Streams, vector};
use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// The generation modelled: candidates × games.
const CANDIDATES: u64 = 100;
const GAMES: u64 = 10;
/// Mean lines of the long run's weights on 10 × 20 (docs/tetris.md: 7.4 M over 10 games).
const LINES_10X20: f64 = 7.4e6;
/// Simulated generations averaged per figure.
const GENERATIONS: u64 = 50;

/// What the simulation charges besides the games, in seconds.
#[derive(Clone, Copy)]
struct Costs {
    /// A message's one-way time.
    latency: f64,
    /// How long a message waits before rank 0 looks.
    poll: f64,
    /// Rank 0's time per message taken in (results stored, next chunk dealt).
    message: f64,
    /// Rank 0's time per generation outside the games.
    bookkeeping: f64,
    /// Rank 0's time to send the batch to one rank.
    batch: f64,
}

/// Plays `games` games of `width` × `height` with `weights` on one thread, capped at
/// `max_pieces` (0 = none); returns each game's pieces and the seconds per piece.
fn measure(
    weights: &WeightFile,
    width: usize,
    height: usize,
    games: u64,
    max_pieces: u64,
) -> (Vec<f64>, f64) {
    let spec = GameSpec {
        width: Some(width),
        height: Some(height),
        ..GameSpec::default()
    };
    let game = Tetris::new(width, height).unwrap();
    let player = LinearPlayer::from_file(&game, weights).unwrap();
    let batch = Batch {
        game: GameData::new(&spec).unwrap(),
        players: vec![vector(&player, game.feature_names().len())],
        games,
        streams: Streams::held_out(0),
        limits: EpisodeLimits::capped(max_pieces),
        threads: 1,
    };
    let start = Instant::now();
    let results = Local
        .play(&batch, &AtomicBool::new(false), &Progress::hidden())
        .unwrap()
        .unwrap();
    let seconds = start.elapsed().as_secs_f64();
    let pieces: Vec<f64> = results.iter().map(|r| r.moves as f64).collect();
    let per_piece = seconds / pieces.iter().sum::<f64>();
    (pieces, per_piece)
}

/// One generation's wall time on `ranks` ranks: dealt dynamically (the backend's scheme) or
/// in one fixed slice per rank.
fn makespan(times: &[f64], ranks: u64, costs: &Costs, dynamic: bool) -> f64 {
    let total = times.len() as u64;
    let work = |chunk: std::ops::Range<u64>| -> f64 {
        times[chunk.start as usize..chunk.end as usize].iter().sum()
    };
    if !dynamic {
        let slice = total.div_ceil(ranks);
        return (0..ranks)
            .map(|r| {
                let start = r as f64 * (costs.batch + costs.message)
                    + if r > 0 { costs.latency } else { 0.0 };
                start
                    + work((r * slice).min(total)..((r + 1) * slice).min(total))
                    + if r > 0 { costs.latency } else { 0.0 }
            })
            .fold(0.0, f64::max)
            + costs.bookkeeping;
    }
    let mut dealer = Dealer::new(total, ranks);
    // Events: (time, rank): rank 0 when its own chunk ends, another rank when its results
    // reach rank 0. Times in nanoseconds, for the heap's ordering.
    let ns = |s: f64| (s * 1e9) as u64;
    let mut events = BinaryHeap::new();
    let mut server = 0.0f64; // when rank 0's main thread is free
    events.push(Reverse((0, 0u64)));
    for worker in 1..ranks {
        server += costs.batch;
        events.push(Reverse((ns(server), worker)));
    }
    let mut end = 0.0f64;
    while let Some(Reverse((t, rank))) = events.pop() {
        let t = t as f64 / 1e9;
        if rank == 0 {
            end = end.max(t);
            if let Some(chunk) = dealer.take(1) {
                events.push(Reverse((ns(t + work(chunk)), 0)));
            }
            continue;
        }
        let served = (t + costs.poll).max(server) + costs.message;
        server = served;
        end = end.max(served);
        if let Some(chunk) = dealer.take(1) {
            let back = served + 2.0 * costs.latency + work(chunk);
            events.push(Reverse((ns(back), rank)));
        }
    }
    end + costs.bookkeeping
}

/// Mean efficiencies over simulated generations (the games' time over ranks × wall time):
/// dealt in chunks with every cost, without message costs, without rank 0's bookkeeping, in
/// fixed slices, and the bound the longest game alone sets (nobody can finish before it).
fn efficiencies(lengths: &[f64], seconds_per_piece: f64, ranks: u64, costs: &Costs) -> [f64; 5] {
    let silent = Costs {
        latency: 0.0,
        poll: 0.0,
        message: 0.0,
        batch: 0.0,
        ..*costs
    };
    let unkept = Costs {
        bookkeeping: 0.0,
        ..*costs
    };
    let mut sums = [0.0; 5];
    for g in 0..GENERATIONS {
        let mut rng = stream(1, Purpose::TrainingGames, g, 0);
        let times: Vec<f64> = (0..CANDIDATES * GAMES)
            .map(|_| lengths[rng.random_range(0..lengths.len())] * seconds_per_piece)
            .collect();
        let work: f64 = times.iter().sum();
        let longest = times.iter().copied().fold(0.0, f64::max);
        let walls = [
            makespan(&times, ranks, costs, true),
            makespan(&times, ranks, &silent, true),
            makespan(&times, ranks, &unkept, true),
            makespan(&times, ranks, costs, false),
            longest.max(work / ranks as f64),
        ];
        for (sum, wall) in sums.iter_mut().zip(walls) {
            *sum += work / (ranks as f64 * wall);
        }
    }
    sums.map(|s| s / GENERATIONS as f64)
}

fn main() {
    let arg = |i: usize, default: f64| {
        std::env::args()
            .nth(i)
            .map_or(default, |a| a.parse().expect("a number"))
    };
    let weights = WeightFile::parse(include_str!("../reports/tetris-long/best.toml")).unwrap();
    let (small, small_piece) = measure(&weights, 10, 10, 300, 0);
    let (_, large_piece) = measure(&weights, 10, 20, 4, 100_000);
    let mean = small.iter().sum::<f64>() / small.len() as f64;
    let std = (small.iter().map(|p| (p - mean).powi(2)).sum::<f64>() / small.len() as f64).sqrt();
    let large: Vec<f64> = small.iter().map(|p| p / mean * LINES_10X20 * 2.5).collect();
    println!(
        "measured: 10 × 10 games {:.0} pieces on average (std/mean {:.2}), {:.2} µs a piece; 10 × 20 {:.2} µs a piece",
        mean,
        std / mean,
        small_piece * 1e6,
        large_piece * 1e6
    );
    let costs = Costs {
        latency: arg(1, 0.3) * 1e-6,
        poll: arg(2, 500.0) * 1e-6,
        bookkeeping: arg(3, 53.0) * 1e-3,
        message: 5e-6,
        batch: 30e-6,
    };
    println!(
        "costs: {:.1} µs a message one way, {:.0} µs before rank 0 looks, {:.0} µs at rank 0 a message, {:.0} µs a batch sent, {:.0} ms a generation's bookkeeping",
        costs.latency * 1e6,
        costs.poll * 1e6,
        costs.message * 1e6,
        costs.batch * 1e6,
        costs.bookkeeping * 1e3
    );
    for (board, lengths, per_piece) in [
        ("10 × 10", &small, small_piece),
        ("10 × 20", &large, large_piece),
    ] {
        let work = lengths.iter().sum::<f64>() / lengths.len() as f64
            * per_piece
            * (CANDIDATES * GAMES) as f64;
        println!("{board}: a generation is {work:.1} CPU-seconds of games on average");
        println!(
            "  ranks  in chunks  no message costs  no bookkeeping  fixed slices  longest game's bound"
        );
        for ranks in [2, 64, 512] {
            let e = efficiencies(lengths, per_piece, ranks, &costs).map(|e| 100.0 * e);
            println!(
                "  {ranks:>5}  {:>8.1} %  {:>15.1} %  {:>13.1} %  {:>11.1} %  {:>19.1} %",
                e[0], e[1], e[2], e[3], e[4]
            );
        }
    }
}
