//! Time a move of the contest Tetris players on one thread: one ply against the beam the shipped
//! weights name (width 32 over the six pieces shown, then one and two pieces past them), over
//! mid-game positions of level-2 games. The ratio is what the beam's strength costs; the
//! contest allows a second a move.
//!
//! Level 4 ticks every 1 ms, so its player (`weights/contest/l4.toml`, a narrow beam over the
//! pieces shown) has a millisecond a move: `contest_l4_move` times it on positions of a
//! level-4 game against one ply on the same positions, and prints the median and slowest of
//! the single moves.

use criterion::measurement::WallTime;
use criterion::{BenchmarkGroup, Criterion, Throughput, criterion_group, criterion_main};
use stacktune::eval::LinearPlayer;
use stacktune::game::Game;
use stacktune::games::contest::Contest;
use stacktune::games::contest::rules::Position;
use stacktune::games::contest::stream::ContestStream;
use stacktune::rng::game_stream;
use stacktune::search::{beam, one_ply};
use stacktune::weights::WeightFile;
use std::hint::black_box;
use std::time::{Duration, Instant};

/// Every piece a contest position shows: the current one and five previews.
const DEPTH: u32 = 6;

/// The shipped level-2 weights and the width of the beam they name (`[search] beam_width`).
fn player(game: &Contest) -> (LinearPlayer, usize) {
    let file = WeightFile::parse(include_str!("../weights/contest/beam-l2.toml")).unwrap();
    let width = file.search.expect("beam-l2.toml names its beam").beam_width;
    (LinearPlayer::from_file(game, &file).unwrap(), width)
}

/// Every tenth position from turn 20 to 160 of eight seeded level-2 games played by a narrow
/// beam: stacks of every height, with wells waiting for an I, as the player meets them.
fn mid_game_positions(game: &Contest, eval: &LinearPlayer) -> Vec<Position> {
    let mut positions = Vec::new();
    for seed in 0..8 {
        let mut rng = game_stream(seed, 0);
        let mut position = game.start(&mut rng);
        for turn in 0..160 {
            let mv = beam(eval, game, &position, DEPTH, 4).unwrap();
            game.apply(&mut position, mv, &mut rng);
            if turn >= 20 && turn % 10 == 0 {
                positions.push(position);
            }
        }
    }
    positions
}

/// One ply over `positions`: the reference the beams of the group are measured against.
fn one_ply_case(
    group: &mut BenchmarkGroup<WallTime>,
    eval: &LinearPlayer,
    game: &Contest,
    positions: &[Position],
) {
    group.bench_function("one_ply", |b| {
        b.iter(|| {
            positions
                .iter()
                .filter_map(|p| one_ply(eval, game, black_box(p)))
                .count()
        })
    });
}

fn moves_per_second(c: &mut Criterion) {
    let game = Contest::new(2, false).unwrap();
    let (eval, width) = player(&game);
    let positions = mid_game_positions(&game, &eval);
    let mut group = c.benchmark_group("contest_move");
    group.throughput(Throughput::Elements(positions.len() as u64));
    one_ply_case(&mut group, &eval, &game, &positions);
    group.sample_size(10);
    group.bench_function(format!("beam_{width}"), |b| {
        b.iter(|| {
            positions
                .iter()
                .filter_map(|p| beam(&eval, &game, black_box(p), DEPTH, width))
                .count()
        })
    });
    group.finish();
}

/// The level-4 player: the shipped weights and the beam (width, depth) their file names.
fn level_4_player(game: &Contest) -> (LinearPlayer, usize, u32) {
    let file = WeightFile::parse(include_str!("../weights/contest/l4.toml")).unwrap();
    let search = file.search.expect("l4.toml names its beam");
    let depth = search.depth.expect("l4.toml names its depth");
    let eval = LinearPlayer::from_file(game, &file).unwrap();
    (eval, search.beam_width, depth)
}

/// Every 20th position from turn 20 to 2,000 of a level-4 game (contest seed 1) played by the
/// level-4 player: what it meets over the long game, game overs and fresh obstacles included.
fn level_4_positions(
    game: &Contest,
    eval: &LinearPlayer,
    width: usize,
    depth: u32,
) -> Vec<Position> {
    let mut dealer = ContestStream::new(1);
    let mut position = game.rules_of().start(&mut dealer);
    let mut positions = Vec::new();
    for turn in 1..=2_000 {
        let mv = beam(eval, game, &position, depth, width).unwrap();
        game.rules_of().play(&mut position, mv, &mut dealer);
        if turn % 20 == 0 {
            positions.push(position);
        }
    }
    positions
}

/// The median and the slowest single move over `positions`, each the fastest of five runs (the
/// machine's noise only ever adds time).
fn single_moves(positions: &[Position], mv: impl Fn(&Position)) -> (Duration, Duration) {
    let mut times: Vec<Duration> = positions
        .iter()
        .map(|p| {
            (0..5)
                .map(|_| {
                    let start = Instant::now();
                    mv(black_box(p));
                    start.elapsed()
                })
                .min()
                .unwrap()
        })
        .collect();
    times.sort();
    (times[times.len() / 2], times[times.len() - 1])
}

fn level_4_move(c: &mut Criterion) {
    let game = Contest::new(4, false).unwrap();
    let (eval, width, depth) = level_4_player(&game);
    let positions = level_4_positions(&game, &eval, width, depth);
    let play = |p: &Position| beam(&eval, &game, p, depth, width);
    let (median, slowest) = single_moves(&positions, |p| {
        play(p);
    });
    eprintln!(
        "contest_l4_move: beam {width} x {depth} over {} positions: median move {median:?}, slowest {slowest:?}",
        positions.len()
    );
    let mut group = c.benchmark_group("contest_l4_move");
    group.throughput(Throughput::Elements(positions.len() as u64));
    one_ply_case(&mut group, &eval, &game, &positions);
    group.sample_size(20);
    group.bench_function(format!("beam_{width}x{depth}"), |b| {
        b.iter(|| positions.iter().filter_map(|p| play(black_box(p))).count())
    });
    group.finish();
}

criterion_group!(benches, moves_per_second, level_4_move);
criterion_main!(benches);
