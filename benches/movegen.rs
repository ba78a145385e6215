//! Guideline move generation alone, per piece, on Cold Clear 2's own bench boards (its
//! `benches/movegen.rs`: the empty board and its T-spin board), so that the two can be timed
//! side by side in one run: every placement reachable from spawn with its spin, collected into
//! a list as Cold Clear 2's `find_moves` returns one. And placements with every feature per
//! second on boards from versus games (`guideline_features`), the figure a player's speed
//! rests on.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use stacktune_game::{FeatureValues, Game};
use stacktune_games::tetris::board::Board;
use stacktune_games::tetris::guideline::movegen::{Movement, Placement, placements};
use stacktune_games::tetris::guideline::piece::LETTERS;
use stacktune_games::tetris::guideline::rules::{Rules, Side};
use stacktune_games::tetris::guideline::{Guideline, Mode, matches};
use std::hint::black_box;

/// Cold Clear 2's T-spin bench board, column by column (bit r = row r from the bottom).
const TSPIN: [u64; 10] = [
    0b00111111, 0b00111111, 0b00011111, 0b00000111, 0b00000001, 0b00000000, 0b00001101, 0b00011111,
    0b00111111, 0b11111111,
];

fn board_of(columns: &[u64; 10]) -> Board {
    let mut board = Board::empty(10, 40);
    for (x, &c) in columns.iter().enumerate() {
        board.fill(x, c);
    }
    board
}

fn movegen(c: &mut Criterion) {
    for (name, board) in [("empty", Board::empty(10, 40)), ("tspin", board_of(&TSPIN))] {
        let mut group = c.benchmark_group(format!("movegen_{name}"));
        let mut out: Vec<Placement> = Vec::with_capacity(128);
        let movement = Movement::default();
        for (piece, letter) in LETTERS.iter().enumerate() {
            group.bench_function(letter.to_string(), |b| {
                b.iter(|| {
                    out.clear();
                    placements(black_box(&board), piece as u8, &movement, |p| out.push(p));
                    out.len()
                })
            });
        }
        group.finish();
    }
}

/// Positions of both sides every fifth piece of six matches between the hand-set weights.
fn versus_positions(game: &Guideline) -> Vec<Side> {
    let hand =
        stacktune_players::registry::hand_player(game, stacktune_players::search::Search::OnePly);
    let mut sides = Vec::new();
    for seed in 0..6u64 {
        let seeds = matches::Seeds {
            queue: seed,
            sides: [seed + 100, seed + 200],
        };
        let (mut a, mut b) = (
            matches::PolicySide::new(&hand),
            matches::PolicySide::new(&hand),
        );
        matches::play(game, [&mut a, &mut b], seeds, 300, &mut |s, tick| {
            if tick % 5 == 0 {
                sides.extend_from_slice(s);
            }
        });
    }
    sides
}

fn features(c: &mut Criterion) {
    let game = Guideline::new(Rules::default(), Mode::Versus);
    let positions = versus_positions(&game);
    let all = (1u64 << game.feature_names().len()) - 1;
    let mut count = 0u64;
    for p in &positions {
        game.for_each_move(p, all, &mut |_, _, _, _| count += 1);
    }
    let mut group = c.benchmark_group("guideline_features");
    group.throughput(Throughput::Elements(count));
    group.sample_size(10);
    group.bench_function("all_features", |b| {
        b.iter(|| {
            let mut sum = 0.0;
            for p in &positions {
                game.for_each_move(black_box(p), all, &mut |_, _, _, f: &FeatureValues| {
                    sum += f.0[0]
                });
            }
            sum
        })
    });
    // Without the T-slot features, which run the move generator once for every placement.
    let no_tslots = all & !(0b111 << 24);
    group.bench_function("without_tslots", |b| {
        b.iter(|| {
            let mut sum = 0.0;
            for p in &positions {
                game.for_each_move(
                    black_box(p),
                    no_tslots,
                    &mut |_, _, _, f: &FeatureValues| sum += f.0[0],
                );
            }
            sum
        })
    });
    group.finish();
}

criterion_group!(benches, movegen, features);
criterion_main!(benches);
