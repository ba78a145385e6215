//! Throughput of the Connect-N engine and solver: whole games of one-ply linear self-play (every
//! legal column generated, its features computed and scored, the best played), one game from
//! each two-move opening; one move of the depth-tuned weights under alpha-beta at each depth
//! they are played at, on positions of the games accuracy set; and the perfect-play solver on
//! Pons' ten published positions, each with a fresh transposition table, and on a hundred
//! positions of the middle-game test set, with a fresh table each and with one table for all
//! (what `solve-connect --positions` does), so the ratio of the two comes from one run.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use stacktune_base::rng::game_stream;
use stacktune_game::{Game, Policy};
use stacktune_games::connect::accuracy::games_set;
use stacktune_games::connect::agents::PolicyAgent;
use stacktune_games::connect::matches::play_out;
use stacktune_games::connect::solver::{Solver, published_positions};
use stacktune_games::connect::{Connect, Position};
use stacktune_players::eval::LinearPlayer;
use stacktune_players::search::{Player, Search};
use stacktune_players::weights::WeightFile;
use std::hint::black_box;

/// A plausible hand-set weight vector using every feature family, so that the bench pays for
/// centre, threat and window features alike.
fn hand_player(game: &Connect) -> LinearPlayer {
    let weights = [
        ("own_centre", 1.0),
        ("opp_centre", -1.0),
        ("own_threats_now", 20.0),
        ("own_threats_odd", 8.0),
        ("own_threats_even", 4.0),
        ("opp_threats_now", -1000.0),
        ("opp_threats_odd", -6.0),
        ("opp_threats_even", -6.0),
        ("own_threats_parity", 2.0),
        ("opp_threats_parity", -3.0),
        ("own_windows_2", 1.0),
        ("opp_windows_2", -1.0),
        ("own_windows_3", 5.0),
        ("opp_windows_3", -10.0),
    ];
    let names = game.feature_names();
    let vector: Vec<f64> = names
        .iter()
        .map(|n| {
            weights
                .iter()
                .find(|(w, _)| w == n)
                .map_or(0.0, |(_, v)| *v)
        })
        .collect();
    LinearPlayer::from_vector(names, &vector).unwrap()
}

fn self_play_games_per_second(c: &mut Criterion) {
    let game = Connect::standard();
    let player = Player::new(hand_player(&game), Search::Lookahead);
    let openings = game.two_ply_openings();
    let starts: Vec<_> = openings
        .iter()
        .map(|o| {
            let mut position = game.empty();
            for &column in o {
                game.play(&mut position, column);
            }
            position
        })
        .collect();
    let mut group = c.benchmark_group("connect_7x6_one_ply_self_play");
    group.throughput(Throughput::Elements(starts.len() as u64));
    group.bench_function("games", |b| {
        b.iter(|| {
            let mut moves = 0;
            for start in &starts {
                let mut a = PolicyAgent::new(&game, &player);
                let mut b = PolicyAgent::new(&game, &player);
                let end = play_out(
                    &game,
                    &mut black_box(*start),
                    [&mut a, &mut b],
                    &mut game_stream(0, 0),
                    &mut |_| {},
                );
                moves += end.moves;
            }
            moves
        })
    });
    group.finish();
}

fn solver_on_published_vectors(c: &mut Criterion) {
    let positions = published_positions();
    let mut group = c.benchmark_group("connect_7x6_solver");
    group.throughput(Throughput::Elements(positions.len() as u64));
    group.sample_size(20);
    group.bench_function("published_vectors", |b| {
        b.iter(|| {
            positions
                .iter()
                .map(|p| Solver::new().solve(black_box(p)).unwrap())
                .sum::<i32>()
        })
    });
    group.finish();
}

/// One move of the shipped depth-tuned player at each depth it is measured at, averaged over
/// 20 positions spread through the games accuracy set.
fn alpha_beta_move(c: &mut Criterion) {
    let set = games_set();
    let positions: Vec<_> = set
        .iter()
        .step_by(set.len() / 20)
        .map(|s| s.position)
        .collect();
    let searches = [1, 2, 4, 6, 8].map(|depth| (depth, 0));
    shipped_moves(c, "connect_7x6_alpha_beta", &positions, &searches);
}

/// A move of the shipped player with the endgame it is measured with (`--endgame 26`), over
/// every position of the games accuracy set in turn: each is met once per iteration, with the
/// solver table warm from the positions before it, as in a game; 20 positions repeated would
/// be answered from the table after the first iteration.
fn endgame_move(c: &mut Criterion) {
    let positions: Vec<_> = games_set().iter().map(|s| s.position).collect();
    shipped_moves(c, "connect_7x6_endgame", &positions, &[(4, 26), (6, 26)]);
}

/// Times `parity.toml` choosing a move in each of `positions`, one bench per (depth, endgame).
fn shipped_moves(c: &mut Criterion, group: &str, positions: &[Position], searches: &[(u32, u32)]) {
    let game = Connect::standard();
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/weights/connect/parity.toml");
    let file = WeightFile::load(std::path::Path::new(path)).unwrap();
    let eval = LinearPlayer::from_file(&game, &file).unwrap();
    let mut group = c.benchmark_group(group);
    group.throughput(Throughput::Elements(positions.len() as u64));
    group.sample_size(10);
    for &(depth, endgame) in searches {
        let player = Player::new(eval.clone(), Search::AlphaBeta { depth, endgame });
        let name = match endgame {
            0 => format!("move_depth_{depth}"),
            e => format!("move_depth_{depth}_endgame_{e}"),
        };
        group.bench_function(name, |b| {
            b.iter(|| {
                positions
                    .iter()
                    .filter_map(|p| player.choose(&game, black_box(p)))
                    .map(u32::from)
                    .sum::<u32>()
            })
        });
    }
    group.finish();
}

/// The first hundred positions of the middle-game test set (its L2_R2), solved with a fresh
/// table each, as one process per position did, and with one table for all.
fn solver_batch(c: &mut Criterion) {
    let game = Connect::standard();
    let text = include_str!("../tests/data/connect/test_l2_r2.txt");
    let positions: Vec<_> = text
        .lines()
        .take(100)
        .map(|l| game.parse_moves(l.split(' ').next().unwrap()).unwrap())
        .collect();
    let mut group = c.benchmark_group("connect_7x6_solver");
    group.throughput(Throughput::Elements(positions.len() as u64));
    group.sample_size(10);
    group.bench_function("test_l2_r2_100_fresh_tables", |b| {
        b.iter(|| {
            positions
                .iter()
                .map(|p| Solver::new().solve(black_box(p)).unwrap())
                .sum::<i32>()
        })
    });
    group.bench_function("test_l2_r2_100_one_table", |b| {
        b.iter(|| {
            let mut solver = Solver::new();
            positions
                .iter()
                .map(|p| solver.solve(black_box(p)).unwrap())
                .sum::<i32>()
        })
    });
    group.finish();
}

criterion_group!(
    benches,
    self_play_games_per_second,
    alpha_beta_move,
    endgame_move,
    solver_on_published_vectors,
    solver_batch
);
criterion_main!(benches);
