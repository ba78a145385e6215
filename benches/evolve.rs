//! Throughput of one generation's evaluation (every candidate plays the generation's games),
//! with 1 and with 2 threads: the work is split over (candidate, game) pairs, so 2 threads
//! should give nearly twice the games per second. Two generations: solo Tetris games, and a
//! self-play generation of versus matches (each candidate against the hand-set anchor and
//! two of its peers under the versus run's 64-node search), whose games vary in length far
//! more.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use stacktune_base::progress::Progress;
use stacktune_base::rng::Purpose;
use stacktune_game::{EpisodeLimits, Game};
use stacktune_games::settings::GameSpec;
use stacktune_games::tetris::Tetris;
use stacktune_games::tetris::guideline::{Guideline, Mode, rules::Rules};
use stacktune_players::weights::WeightFile;
use stacktune_run::backend::{Backend, Batch, GameData, Local, Streams};
use stacktune_tune::Optimizer;
use stacktune_tune::ga::{GaConfig, GeneticAlgorithm};
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
    let batch = |threads| Batch {
        game: GameData::new(&GameSpec {
            width: Some(10),
            height: Some(10),
            ..GameSpec::default()
        })
        .unwrap(),
        players: ga.ask().to_vec(),
        games: GAMES,
        streams: Streams {
            seed: 1,
            purpose: Purpose::TrainingGames,
            generation: 0,
        },
        limits: EpisodeLimits {
            max_moves: Some(2_000),
        },
        threads,
    };
    let stop = AtomicBool::new(false);
    let mut group = c.benchmark_group("generation_tetris_10x10_20x8_games");
    group.throughput(Throughput::Elements(CANDIDATES as u64 * GAMES));
    group.sample_size(10);
    for threads in [1, 2] {
        let batch = batch(threads);
        group.bench_function(format!("{threads}_threads"), |b| {
            b.iter(|| {
                Local
                    .play(&batch, &stop, &Progress::hidden())
                    .unwrap()
                    .unwrap()
            })
        });
    }
    group.finish();
}

const PEERS: usize = 2;
const SELF_PLAY_CANDIDATES: usize = 8;

fn self_play_generation(c: &mut Criterion) {
    let game = Guideline::new(Rules::default(), Mode::Versus);
    let file = WeightFile::parse(include_str!("../weights/versus/hand.toml")).unwrap();
    let start: Vec<f64> = game
        .feature_names()
        .iter()
        .map(|n| file.weights.get(*n).copied().unwrap_or(0.0))
        .collect();
    let config = GaConfig {
        population: SELF_PLAY_CANDIDATES,
        mutation_sigma: 0.02,
        ..GaConfig::default()
    };
    let ga = GeneticAlgorithm::new(
        config,
        start.len(),
        Some(&start),
        &mut ChaCha8Rng::seed_from_u64(1),
    );
    let candidates = ga.ask().to_vec();
    let mut data = GameData::new(&GameSpec {
        game: Some("tetris".into()),
        rules: Some("guideline".into()),
        beam_width: Some(64),
        nodes: Some(64),
        opponents: vec!["hand".into()],
        ..GameSpec::default()
    })
    .unwrap();
    data.rivals = candidates[..PEERS].to_vec();
    let games = 2 * (1 + PEERS as u64);
    let batch = |threads| Batch {
        game: data.clone(),
        players: candidates.clone(),
        games,
        streams: Streams {
            seed: 1,
            purpose: Purpose::TrainingGames,
            generation: 0,
        },
        limits: EpisodeLimits {
            max_moves: Some(50),
        },
        threads,
    };
    let stop = AtomicBool::new(false);
    let mut group = c.benchmark_group("generation_versus_8x3_opponents_x2_games");
    group.throughput(Throughput::Elements(candidates.len() as u64 * games));
    group.sample_size(10);
    for threads in [1, 2] {
        let batch = batch(threads);
        group.bench_function(format!("{threads}_threads"), |b| {
            b.iter(|| {
                Local
                    .play(&batch, &stop, &Progress::hidden())
                    .unwrap()
                    .unwrap()
            })
        });
    }
    group.finish();
}

criterion_group!(benches, generation, self_play_generation);
criterion_main!(benches);
