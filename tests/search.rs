//! The search layer through the real binary: `--beam-width` and `--depth` reach the player,
//! results do not depend on the thread count, and bad search settings get one clear line.

mod common;
use common::*;

fn play_el_tetris(extra: &[&str]) -> serde_json::Value {
    let mut args = vec![
        "play",
        "--weights",
        "weights/tetris/el-tetris.toml",
        "--width",
        "6",
        "--height",
        "8",
        "--games",
        "40",
        "--seed",
        "2",
        "--json",
    ];
    args.extend_from_slice(extra);
    json(&run(&args))
}

#[test]
fn a_beam_over_the_preview_is_its_own_player_and_reproducible() {
    let lookahead = play_el_tetris(&["--preview"]);
    let beam = play_el_tetris(&["--preview", "--beam-width", "20", "--threads", "1"]);
    let beam_2 = play_el_tetris(&["--preview", "--beam-width", "20", "--threads", "2"]);
    assert_eq!(beam["mean"], beam_2["mean"]);
    assert_eq!(beam["total_pieces"], beam_2["total_pieces"]);
    // Counting lines on the way makes other choices than the plain two-ply lookahead.
    assert_ne!(beam["total_pieces"], lookahead["total_pieces"]);
    // Without a preview there is nothing to search past the current piece, and points gained
    // on the way are the lines the move clears: a width changes nothing.
    assert_eq!(
        play_el_tetris(&["--beam-width", "1"])["total_pieces"],
        play_el_tetris(&["--beam-width", "50"])["total_pieces"]
    );
}

#[test]
fn bad_search_settings_get_one_clear_line() {
    for (extra, needle) in [
        (
            &["--depth", "3"][..],
            "--depth sets the beam's depth for tetris; give --beam-width too",
        ),
        (
            &["--beam-width", "0"][..],
            "--beam-width 0 is out of range 1..=100000",
        ),
        (
            &["--beam-width", "4", "--depth", "17"][..],
            "--depth 17 is out of range 1..=16",
        ),
    ] {
        let mut args = vec!["play", "--weights", "weights/tetris/el-tetris.toml"];
        args.extend_from_slice(extra);
        assert_one_line_error(&run(&args), needle);
    }
    assert_one_line_error(
        &run(&[
            "play",
            "--weights",
            "weights/connect/evolved.toml",
            "--beam-width",
            "4",
        ]),
        "--beam-width is a tetris or puyo setting; connect does not use it",
    );
}
