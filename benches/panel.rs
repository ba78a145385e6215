//! Speed of the Panel de Pon solver: every solution of stage 59 (the target is well under
//! 100 ms; a published Python brute force needed a minute and a half for the first answer)
//! and the shortest solutions of all 60 classic stages together (the target is under 1 s).

use criterion::{Criterion, criterion_group, criterion_main};
use stacktune_base::progress::Meter;
use stacktune_games::panel::load::{parse_stock, parse_toml};
use stacktune_games::panel::{AllSolutions, Puzzle, shortest};
use std::hint::black_box;

fn stage_59() -> Puzzle {
    let text = include_str!("../tests/data/panel/stage59.toml");
    parse_toml(text, "stage 59").unwrap().puzzle.unwrap()
}

fn classic_stages() -> Vec<Puzzle> {
    let text = include_str!("../tests/data/panel/panel-attack-stock.json");
    let puzzles: Vec<Puzzle> = parse_stock(text)
        .unwrap()
        .into_iter()
        .filter(|e| {
            e.set
                .as_deref()
                .is_some_and(|s| s.starts_with("Classic set"))
        })
        .map(|e| e.puzzle.unwrap())
        .collect();
    assert_eq!(puzzles.len(), 60);
    puzzles
}

fn stage_59_all_solutions(c: &mut Criterion) {
    let p = stage_59();
    c.bench_function("panel_stage59_all_solutions", |b| {
        b.iter(|| {
            // A fresh memo each time: the measure is a cold solve, as `solve --all` does it.
            let mut all = AllSolutions::default();
            all.list(
                black_box(&p.board),
                p.swaps,
                u64::MAX,
                &mut Meter::unbounded(),
            )
            .unwrap()
        })
    });
    c.bench_function("panel_stage59_shortest", |b| {
        b.iter(|| shortest(black_box(&p.board), p.swaps, &mut Meter::unbounded()).unwrap())
    });
}

fn classic_shortest(c: &mut Criterion) {
    let puzzles = classic_stages();
    let mut group = c.benchmark_group("panel_classic");
    group.sample_size(20);
    group.bench_function("all_60_shortest", |b| {
        b.iter(|| {
            puzzles
                .iter()
                .map(|p| {
                    shortest(black_box(&p.board), p.swaps, &mut Meter::unbounded())
                        .unwrap()
                        .nodes
                })
                .sum::<u64>()
        })
    });
    group.finish();
}

criterion_group!(benches, stage_59_all_solutions, classic_shortest);
criterion_main!(benches);
