//! Throughput of the Tetris research engine: pieces played per second by the El-Tetris player
//! on one thread (every placement of every piece generated, scored and the best applied), and
//! the raw placement-plus-features rate.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use stacktune_base::rng::game_stream;
use stacktune_game::episode::play_episode;
use stacktune_game::{EpisodeLimits, Game};
use stacktune_games::tetris::Tetris;
use stacktune_players::eval::LinearPlayer;
use stacktune_players::search::{Player, Search, lookahead};
use stacktune_players::weights::WeightFile;
use std::hint::black_box;

const PIECES: u64 = 20_000;

fn el_tetris(game: &Tetris) -> LinearPlayer {
    let file = WeightFile::parse(include_str!("../weights/tetris/el-tetris.toml")).unwrap();
    LinearPlayer::from_file(game, &file).unwrap()
}

fn pieces_per_second(c: &mut Criterion) {
    let game = Tetris::new(10, 20).unwrap();
    let player = el_tetris(&game);
    let limits = EpisodeLimits {
        max_moves: Some(PIECES),
    };
    // El-Tetris never tops out within 20,000 pieces on 10 × 20, so every sample plays them all.
    let policy = Player::new(player, Search::Lookahead);
    let played = play_episode(&game, &policy, game_stream(1, 0), limits).moves;
    assert_eq!(played, PIECES);
    let mut group = c.benchmark_group("tetris_10x20_el_tetris");
    group.throughput(Throughput::Elements(PIECES));
    group.sample_size(20);
    group.bench_function("pieces", |b| {
        b.iter(|| play_episode(&game, &policy, game_stream(black_box(1), 0), limits))
    });
    group.finish();
}

fn placements_per_second(c: &mut Criterion) {
    let game = Tetris::new(10, 20).unwrap();
    let player = el_tetris(&game);
    // A mid-game position: the board after 200 El-Tetris pieces.
    let mut rng = game_stream(7, 0);
    let mut position = game.start(&mut rng);
    for _ in 0..200 {
        let mv = lookahead(&player, &game, &position).unwrap();
        game.apply(&mut position, mv, &mut rng);
    }
    let mut group = c.benchmark_group("tetris_10x20_placements");
    let mut count = 0u64;
    game.for_each_move(&position, player.mask(), &mut |_, _, _, _| count += 1);
    group.throughput(Throughput::Elements(count));
    group.bench_function("el_tetris_features", |b| {
        b.iter(|| {
            let mut best = f64::NEG_INFINITY;
            // What a one-ply player asks for: outcomes and features, no board after.
            game.for_each_outcome(black_box(&position), player.mask(), &mut |_, o, f| {
                best = best.max(player.score(o, f));
            });
            best
        })
    });
    group.finish();
}

criterion_group!(benches, pieces_per_second, placements_per_second);
criterion_main!(benches);
