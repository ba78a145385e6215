//! Time a move of the contest Tetris players on one thread: one ply against the beam the shipped
//! weights name (width 32 over the six pieces shown, then one and two pieces past them), over
//! mid-game positions of level-2 games. The ratio is what the beam's strength costs; the
//! contest allows a second a move.
//!
//! Level 4 ticks every 1 ms, so its player (`weights/contest/l4.toml`, a narrow beam over the
//! pieces shown) has a millisecond a move: `contest_l4_move` times it on positions of a
//! level-4 game against one ply on the same positions in wall time, `contest_l4_cpu` the same
//! in the thread's CPU time (which a crowded machine does not inflate), and each prints the
//! median and slowest of the single moves.

use criterion::measurement::{Measurement, ValueFormatter};
use criterion::{BenchmarkGroup, Criterion, Throughput, criterion_group, criterion_main};
use stacktune_base::rng::game_stream;
use stacktune_game::Game;
use stacktune_games::tetris::contest::Contest;
use stacktune_games::tetris::contest::rules::Position;
use stacktune_games::tetris::contest::stream::ContestStream;
use stacktune_players::eval::LinearPlayer;
use stacktune_players::search::{beam, one_ply};
use stacktune_players::weights::WeightFile;
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
fn one_ply_case<M: Measurement>(
    group: &mut BenchmarkGroup<M>,
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

/// The level-4 player's move against one ply, under `c`'s measurement: wall time, and the CPU
/// time of the thread, which the other work of a shared machine does not add to.
fn level_4_cases<M: Measurement>(c: &mut Criterion<M>, name: &str) {
    let game = Contest::new(4, false).unwrap();
    let (eval, width, depth) = level_4_player(&game);
    let positions = level_4_positions(&game, &eval, width, depth);
    let play = |p: &Position| beam(&eval, &game, p, depth, width);
    let (median, slowest) = single_moves(&positions, |p| {
        play(p);
    });
    eprintln!(
        "{name}: beam {width} x {depth} over {} positions: median move {median:?}, slowest {slowest:?} (wall time, each the fastest of five)",
        positions.len()
    );
    let mut group = c.benchmark_group(name);
    group.throughput(Throughput::Elements(positions.len() as u64));
    one_ply_case(&mut group, &eval, &game, &positions);
    group.sample_size(20);
    group.bench_function(format!("beam_{width}x{depth}"), |b| {
        b.iter(|| positions.iter().filter_map(|p| play(black_box(p))).count())
    });
    group.finish();
}

fn level_4_move(c: &mut Criterion) {
    level_4_cases(c, "contest_l4_move");
}

fn level_4_cpu(c: &mut Criterion<ThreadCpu>) {
    level_4_cases(c, "contest_l4_cpu");
}

/// The CPU time the calling thread has used: a move's cost to the player, whatever else the
/// machine runs (wall time on a crowded machine counts the waits too).
struct ThreadCpu;

fn thread_cpu() -> Duration {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid timespec for the call to write.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    assert_eq!(rc, 0, "the thread's CPU clock");
    Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32)
}

impl Measurement for ThreadCpu {
    type Intermediate = Duration;
    type Value = Duration;
    fn start(&self) -> Duration {
        thread_cpu()
    }
    fn end(&self, start: Duration) -> Duration {
        thread_cpu() - start
    }
    fn add(&self, a: &Duration, b: &Duration) -> Duration {
        *a + *b
    }
    fn zero(&self) -> Duration {
        Duration::ZERO
    }
    fn to_f64(&self, value: &Duration) -> f64 {
        value.as_nanos() as f64
    }
    fn formatter(&self) -> &dyn ValueFormatter {
        &CpuFormatter
    }
}

/// CPU time in microseconds (what a move takes), throughput in elements a CPU second.
struct CpuFormatter;

impl ValueFormatter for CpuFormatter {
    fn scale_values(&self, _typical: f64, values: &mut [f64]) -> &'static str {
        values.iter_mut().for_each(|v| *v /= 1e3);
        "µs (CPU)"
    }
    fn scale_throughputs(
        &self,
        _typical: f64,
        throughput: &Throughput,
        values: &mut [f64],
    ) -> &'static str {
        let n = match throughput {
            Throughput::Elements(n) => *n as f64,
            _ => 1.0,
        };
        values.iter_mut().for_each(|v| *v = n * 1e9 / *v);
        "elem/s (CPU)"
    }
    fn scale_for_machines(&self, _values: &mut [f64]) -> &'static str {
        "ns"
    }
}

criterion_group!(benches, moves_per_second, level_4_move);
criterion_group! {
    name = cpu;
    config = Criterion::default().with_measurement(ThreadCpu);
    targets = level_4_cpu
}
criterion_main!(benches, cpu);
