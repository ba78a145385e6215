//! Throughput of one generation's evaluation (every candidate plays the generation's games),
//! with 1 and with 2 threads: the work is split over (candidate, game) pairs, so 2 threads
//! should give nearly twice the games per second.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use stacktune::episode::with_threads;
use stacktune::game::{EpisodeLimits, Game};
use stacktune::games::tetris::Tetris;
use stacktune::progress::Progress;
use stacktune::rng::{Purpose, stream};
use stacktune::search::Search;
use stacktune::tune::Optimizer;
use stacktune::tune::fitness::score_candidates;
use stacktune::tune::ga::{GaConfig, GeneticAlgorithm};
use stacktune::weights::WeightFile;
use std::sync::atomic::AtomicBool;

const CANDIDATES: usize = 20;
const GAMES: u64 = 8;

fn generation(c: &mut Criterion) {
    let game = Tetris::new(10, 10).unwrap();
    // Mutants of El-Tetris: strong players, so games are long as in a late generation.
    let file = WeightFile::parse(include_str!("../weights/tetris/el-tetris.toml")).unwrap();
    let start: Vec<f64> = game
        .feature_names()
        .iter()
        .map(|n| file.weights.get(*n).copied().unwrap_or(0.0))
        .collect();
    let config = GaConfig {
        population: CANDIDATES,
        mutation_sigma: 0.05,
        ..GaConfig::default()
    };
    let ga = GeneticAlgorithm::new(
        config,
        start.len(),
        Some(&start),
        &mut ChaCha8Rng::seed_from_u64(1),
    );
    let candidates = ga.ask().to_vec();
    let limits = EpisodeLimits {
        max_moves: Some(2_000),
    };
    let stop = AtomicBool::new(false);
    let mut group = c.benchmark_group("generation_tetris_10x10_20x8_games");
    group.throughput(Throughput::Elements(CANDIDATES as u64 * GAMES));
    group.sample_size(10);
    for threads in [1, 2] {
        group.bench_function(format!("{threads}_threads"), |b| {
            b.iter(|| {
                with_threads(threads, || {
                    score_candidates(
                        &game,
                        Search::Lookahead,
                        &candidates,
                        GAMES,
                        |i| stream(1, Purpose::TrainingGames, 0, i),
                        limits,
                        &stop,
                        &Progress::hidden(),
                    )
                })
                .unwrap()
                .unwrap()
                .unwrap()
            })
        });
    }
    group.finish();
}

criterion_group!(benches, generation);
criterion_main!(benches);
