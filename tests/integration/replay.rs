//! Recorded games (stacktune-game's replay) against the games they record: a replay is the
//! game `play` plays, with its first moves stored and its boards checked.

use stacktune_base::progress::Progress;
use stacktune_base::rng::game_stream;
use stacktune_game::EpisodeLimits;
use stacktune_game::episode::play_episode;
use stacktune_game::replay::record;
use stacktune_games::tetris::Tetris;
use stacktune_players::eval::LinearPlayer;
use stacktune_players::search::{Player, Search};
use stacktune_players::weights::WeightFile;
use std::sync::atomic::AtomicBool;

fn dellacherie(game: &Tetris) -> Player {
    let file = WeightFile::parse(include_str!("../../weights/tetris/dellacherie.toml")).unwrap();
    let eval = LinearPlayer::from_file(game, &file).unwrap();
    Player::new(eval, Search::Lookahead)
}

#[test]
fn a_replay_is_the_game_play_plays_with_its_first_moves_stored() {
    let game = Tetris::new(6, 10).unwrap();
    let player = dellacherie(&game);
    let limits = EpisodeLimits::capped(1_000);
    let whole = play_episode(&game, &player, game_stream(9, 2), limits);
    let cap = 250;
    let replay = record(
        &game,
        &player,
        9,
        2,
        limits,
        cap,
        &Progress::hidden(),
        &AtomicBool::new(false),
    )
    .unwrap();
    assert_eq!((replay.moves, replay.score), (whole.moves, whole.score));
    assert!(
        whole.moves > cap,
        "a game longer than the cap: {}",
        whole.moves
    );
    assert!(replay.capped);
    assert_eq!(replay.steps.len() as u64, cap);
    // Board checks every CHECK_EVERY moves and after the last stored one.
    let at: Vec<u64> = replay.checks.iter().map(|c| c.0).collect();
    assert_eq!(at, [100, 200, 250]);
    // The points of the stored moves add up to no more than the game's score.
    let points: f64 = replay
        .steps
        .iter()
        .map(|s| s.last().unwrap().as_f64().unwrap())
        .sum();
    assert!(points <= whole.score);
}

#[test]
fn an_uncapped_replay_stores_every_move_and_scores_the_whole_game() {
    let game = Tetris::new(6, 10).unwrap();
    let player = dellacherie(&game);
    let limits = EpisodeLimits::capped(300);
    let replay = record(
        &game,
        &player,
        1,
        0,
        limits,
        5_000,
        &Progress::hidden(),
        &AtomicBool::new(false),
    )
    .unwrap();
    assert!(!replay.capped);
    assert_eq!(replay.steps.len() as u64, replay.moves);
    let points: f64 = replay
        .steps
        .iter()
        .map(|s| s.last().unwrap().as_f64().unwrap())
        .sum();
    assert_eq!(points, replay.score);
    assert_eq!(replay.limit, Some(300));
}
