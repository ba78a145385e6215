//! Time a move of the contest Tetris players on one thread: one ply against the beam the shipped
//! weights name (width 32 over the six pieces shown, then one and two pieces past them), over
//! mid-game positions of level-2 games. The ratio is what the beam's strength costs; the
//! contest allows a second a move.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use stacktune::eval::LinearPlayer;
use stacktune::game::Game;
use stacktune::games::contest::Contest;
use stacktune::games::contest::rules::Position;
use stacktune::rng::game_stream;
use stacktune::search::{beam, one_ply};
use stacktune::weights::WeightFile;
use std::hint::black_box;

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

fn moves_per_second(c: &mut Criterion) {
    let game = Contest::new(2, false).unwrap();
    let (eval, width) = player(&game);
    let positions = mid_game_positions(&game, &eval);
    let mut group = c.benchmark_group("contest_move");
    group.throughput(Throughput::Elements(positions.len() as u64));
    group.bench_function("one_ply", |b| {
        b.iter(|| {
            positions
                .iter()
                .filter_map(|p| one_ply(&eval, &game, black_box(p)))
                .count()
        })
    });
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

criterion_group!(benches, moves_per_second);
criterion_main!(benches);
