//! The search layer through the real binary: `--beam-width` and `--depth` reach the player,
//! results do not depend on the thread count, and bad search settings get one clear line.

use crate::common::*;

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
    assert_each_refused(
        &root(),
        &["play", "--weights", "weights/tetris/el-tetris.toml"],
        &[
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
        ],
    );
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

/// A weights file's `[search]` is the search `play` uses when given no search flag, and a
/// flag replaces it; bad tables get one line naming the file.
#[test]
fn a_weights_file_names_its_search() {
    let dir = tempfile::tempdir().unwrap();
    let el_tetris = std::fs::read_to_string(root().join("weights/tetris/el-tetris.toml")).unwrap();
    let with_search = |table: &str| {
        let name = table.replace(|c: char| !c.is_ascii_alphanumeric(), "_");
        let path = dir.path().join(format!("{name}.toml"));
        let text = el_tetris.replacen("[weights]", &format!("[search]\n{table}\n\n[weights]"), 1);
        std::fs::write(&path, text).unwrap();
        path.to_string_lossy().into_owned()
    };
    let play = |weights: &str, extra: &[&str]| {
        let mut args = vec![
            "play",
            "--weights",
            weights,
            "--width",
            "6",
            "--height",
            "8",
            "--preview",
            "--games",
            "40",
            "--seed",
            "2",
            "--json",
        ];
        args.extend_from_slice(extra);
        json(&run(&args))["total_pieces"].clone()
    };
    let plain = "weights/tetris/el-tetris.toml";
    let beam = with_search("beam_width = 20");
    assert_eq!(play(&beam, &[]), play(plain, &["--beam-width", "20"]));
    assert_ne!(play(&beam, &[]), play(plain, &[]));
    // A flag replaces the whole table: one ply, as the plain file plays it with the same flags.
    let shallow = ["--beam-width", "1", "--depth", "1"];
    assert_eq!(play(&beam, &shallow), play(plain, &shallow));
    let deep = with_search("beam_width = 20\ndepth = 2");
    assert_eq!(
        play(&deep, &[]),
        play(plain, &["--beam-width", "20", "--depth", "2"])
    );
    for (table, needle) in [
        (
            "beam_width = 0",
            "[search] beam_width 0 is out of range 1..=100000",
        ),
        (
            "beam_width = 4\ndepth = 99",
            "[search] depth 99 is out of range 1..=16",
        ),
        ("depth = 3", "missing field `beam_width`"),
    ] {
        let path = with_search(table);
        assert_one_line_error(&run(&["play", "--weights", &path]), needle);
    }
    let connect = std::fs::read_to_string(root().join("weights/connect/evolved.toml")).unwrap();
    let path = dir.path().join("connect.toml");
    let text = connect.replacen("[weights]", "[search]\nbeam_width = 4\n\n[weights]", 1);
    std::fs::write(&path, text).unwrap();
    assert_one_line_error(
        &run(&["play", "--weights", path.to_str().unwrap()]),
        "a [search] beam is for games that show pieces ahead, not connect",
    );
}
