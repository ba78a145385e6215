//! Throughput of the Puyo engine on one thread: placements simulated per second (drop, chain
//! resolution and scoring, no features) and boards per second for the chain-potential
//! feature, the most expensive one, over mid-game fields a chain-building player left; and the
//! time of one move of the sampled beams (the first, the chain-form step and the shipped
//! `weights/puyo/tsu-beam-fired.toml`) beside the 2-ply player's, measured in the same run so
//! the ratios hold on a busy machine.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use stacktune_base::rng::game_stream;
use stacktune_game::Game;
use stacktune_games::puyo::features::potential;
use stacktune_games::puyo::{Position, Puyo, Rules};
use stacktune_players::eval::LinearPlayer;
use stacktune_players::search::{Player, Search, lookahead};
use stacktune_players::weights::WeightFile;
use std::hint::black_box;

const WEIGHTS: &str = "game = \"puyo\"\n[weights]\nmove_score = 0.01\npotential_chain = 3.0\n\
connected_2 = 1.0\nconnected_3 = 2.0\nbumpiness = -0.5\ndeath_column_height = -2.0\n";

/// Positions after 15 to 45 moves of 16 seeded games: fields of every height and with chains
/// waiting to fire, like the ones the player scores during tuning.
fn mid_game_positions(game: &Puyo) -> Vec<Position> {
    let file = WeightFile::parse(WEIGHTS).unwrap();
    let player = LinearPlayer::from_file(game, &file).unwrap();
    let mut positions = Vec::new();
    for seed in 0..16 {
        let mut rng = game_stream(seed, 0);
        let mut position = game.start(&mut rng);
        for moves in 0..45 {
            let Some(mv) = lookahead(&player, game, &position) else {
                break;
            };
            if game.apply(&mut position, mv, &mut rng).game_over {
                break;
            }
            if moves >= 15 && moves % 3 == 0 {
                positions.push(position);
            }
        }
    }
    positions
}

fn placements_per_second(c: &mut Criterion) {
    let mut group = c.benchmark_group("puyo_placements");
    for rules in [Rules::Programming, Rules::Tsu] {
        let game = Puyo::new(rules);
        let positions = mid_game_positions(&game);
        let mut count = 0u64;
        for p in &positions {
            game.for_each_move(p, 0, &mut |_, _, _, _| count += 1);
        }
        group.throughput(Throughput::Elements(count));
        group.bench_function(rules.name(), |b| {
            b.iter(|| {
                let mut points = 0.0;
                for p in &positions {
                    game.for_each_move(black_box(p), 0, &mut |_, _, o, _| points += o.points);
                }
                points
            })
        });
    }
    group.finish();
}

fn potential_per_second(c: &mut Criterion) {
    let mut group = c.benchmark_group("puyo_chain_potential");
    for rules in [Rules::Programming, Rules::Tsu] {
        let fields: Vec<_> = mid_game_positions(&Puyo::new(rules))
            .iter()
            .map(|p| p.field)
            .collect();
        group.throughput(Throughput::Elements(fields.len() as u64));
        group.bench_function(rules.name(), |b| {
            b.iter(|| {
                fields
                    .iter()
                    .map(|f| potential(black_box(f), rules).chain)
                    .sum::<u32>()
            })
        });
    }
    group.finish();
}

/// Time of one move under Tsu rules with the current pair and two next shown: the first beam
/// player and the chain-form step (`reports/puyo-tsu-beam-steps/`) and the shipped file
/// (`tsu-beam-fired.toml`, the form weights valuing moves by what their lines fire) each under
/// the sampled beam its file names, and the 2-ply weights under the 2-ply lookahead (the
/// player the beam replaces), over the same mid-game positions.
fn move_time(c: &mut Criterion) {
    use stacktune_game::Policy;
    use stacktune_games::settings::GameSpec;
    let spec = GameSpec {
        game: Some("puyo".into()),
        rules: Some("tsu".into()),
        pairs_shown: Some(3),
        ..Default::default()
    };
    let game = Puyo::from_spec(&spec).unwrap();
    let positions = mid_game_positions(&game);
    let beam = |text: &str| {
        let file = WeightFile::parse(text).unwrap();
        let settings = file.search.unwrap();
        Player::new(
            LinearPlayer::from_file(&game, &file).unwrap(),
            Search::Sampled {
                width: settings.beam_width,
                samples: settings.samples.unwrap(),
                unseen: settings.unseen.unwrap(),
                fired: settings.fired,
            },
        )
    };
    let first = beam(include_str!("../reports/puyo-tsu-beam-steps/tsu-beam.toml"));
    let form = beam(include_str!(
        "../reports/puyo-tsu-beam-steps/tsu-beam-form.toml"
    ));
    let fired = beam(include_str!("../weights/puyo/tsu-beam-fired.toml"));
    let two_ply_file = WeightFile::parse(include_str!("../weights/puyo/tsu-2ply.toml")).unwrap();
    let two_ply = Player::new(
        LinearPlayer::from_file(&game, &two_ply_file).unwrap(),
        Search::Lookahead,
    );
    let mut group = c.benchmark_group("puyo_move");
    group.sample_size(10);
    group.throughput(Throughput::Elements(positions.len() as u64));
    let players = [
        ("tsu_beam", &first),
        ("tsu_beam_form", &form),
        ("tsu_beam_fired", &fired),
        ("two_ply", &two_ply),
    ];
    for (name, player) in players {
        group.bench_function(name, |b| {
            b.iter(|| {
                positions
                    .iter()
                    .filter_map(|p| player.choose(&game, black_box(p)))
                    .count()
            })
        });
    }
    group.finish();
}

criterion_group!(
    benches,
    placements_per_second,
    potential_per_second,
    move_time
);
criterion_main!(benches);
