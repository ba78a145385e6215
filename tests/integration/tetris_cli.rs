//! `play`, `moves` and `watch` through the real binary: results, JSON shapes, and one clear
//! line for every kind of bad input.

use crate::common::*;
use std::fs;
use std::path::Path;

#[test]
fn play_json_has_exactly_the_documented_keys() {
    let out = run(&[
        "play",
        "--weights",
        "weights/tetris/dellacherie.toml",
        "--games",
        "20",
        "--width",
        "6",
        "--height",
        "8",
        "--seed",
        "3",
        "--json",
    ]);
    let v = json(&out);
    let mut keys: Vec<&str> = v.as_object().unwrap().keys().map(|k| k.as_str()).collect();
    keys.sort();
    assert_eq!(
        keys,
        [
            "ci95",
            "games",
            "max",
            "mean",
            "median",
            "min",
            "per_game",
            "pieces_per_second",
            "std",
            "total_pieces"
        ]
    );
    assert_eq!(v["games"], 20);
    let rows = v["per_game"].as_array().unwrap();
    assert_eq!(rows.len(), 20);
    assert_eq!(rows[3].as_object().unwrap().len(), 2);
    assert_eq!(rows[3]["game"], "3");
    let total: f64 = rows.iter().map(|r| r["score"].as_f64().unwrap()).sum();
    assert_eq!(total / 20.0, v["mean"].as_f64().unwrap());
}

#[test]
fn play_does_not_depend_on_threads() {
    let args = |t: &'static str| {
        [
            "play",
            "--weights",
            "weights/tetris/el-tetris.toml",
            "--games",
            "30",
            "--width",
            "6",
            "--height",
            "10",
            "--seed",
            "11",
            "--json",
            "--threads",
            t,
        ]
    };
    let strip = |s: String| {
        let mut v: serde_json::Value = serde_json::from_str(&s).unwrap();
        v.as_object_mut().unwrap().remove("pieces_per_second");
        v
    };
    let one = strip(stdout(&run(&args("1"))));
    let two = strip(stdout(&run(&args("2"))));
    assert_eq!(one, two);
    assert!(one["total_pieces"].as_u64().unwrap() > 30);
}

#[test]
fn moves_lists_every_placement_with_features() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(
        dir.path().join("b.txt"),
        "......\n......\n......\n......\n##.###\n",
    )
    .unwrap();
    let out = run_in(
        dir.path(),
        &["moves", "--board", "b.txt", "--piece", "I", "--json"],
    );
    let v = json(&out);
    let moves = v.as_array().unwrap();
    // I on width 6: 6 vertical then 3 horizontal placements (MdpTetris's order), columns left
    // to right.
    assert_eq!(moves.len(), 9);
    let order: Vec<_> = moves
        .iter()
        .map(|m| {
            (
                m["placement"]["orientation"].clone(),
                m["placement"]["column"].clone(),
            )
        })
        .collect();
    let want: Vec<_> = [
        (0, 0),
        (0, 1),
        (0, 2),
        (0, 3),
        (0, 4),
        (0, 5),
        (1, 0),
        (1, 1),
        (1, 2),
    ]
    .iter()
    .map(|&(o, c)| (serde_json::json!(o), serde_json::json!(c)))
    .collect();
    assert_eq!(order, want);
    // The vertical I in column 2 clears the bottom row and tops out nowhere.
    let clear = &moves[2];
    assert_eq!(clear["topout"], false);
    assert_eq!(clear["lines"], 1);
    assert_eq!(clear["features"]["eroded_piece_cells"], 1.0);
    assert_eq!(clear["features"]["landing_height"], 1.5);
    assert_eq!(
        clear["after"],
        serde_json::json!(["......", "......", "..#...", "..#...", "..#..."])
    );
    assert_eq!(clear["features"].as_object().unwrap().len(), 13);
}

#[test]
fn moves_marks_topouts_with_null_board() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("b.txt"), "....\n#...\n#...\n#...\n").unwrap();
    let out = run_in(
        dir.path(),
        &["moves", "--board", "b.txt", "--piece", "I", "--json"],
    );
    let v = json(&out);
    let topouts: Vec<_> = v
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["topout"] == true)
        .collect();
    // Only the vertical I on column 0's stack of three tops out; the horizontal I lands in the
    // top row, fills it and clears it.
    assert_eq!(topouts.len(), 1);
    assert_eq!(
        topouts[0]["placement"],
        serde_json::json!({"orientation": 0, "column": 0})
    );
    assert!(topouts[0]["after"].is_null() && topouts[0]["features"].is_null());
    // After the four vertical placements, the one horizontal placement.
    let flat = &v[4];
    assert_eq!(
        flat["placement"],
        serde_json::json!({"orientation": 1, "column": 0})
    );
    assert_eq!(flat["lines"], 1);
    assert_eq!(
        flat["after"],
        serde_json::json!(["....", "#...", "#...", "#..."])
    );
}

#[test]
fn watch_plays_one_game_to_the_end() {
    let out = run(&[
        "watch",
        "--weights",
        "weights/tetris/dellacherie.toml",
        "--width",
        "6",
        "--height",
        "6",
        "--seed",
        "2",
        "--delay-ms",
        "0",
    ]);
    assert!(out.status.success());
    let text = stdout(&out);
    assert!(
        text.lines().last().unwrap().starts_with("game over after "),
        "{text}"
    );
}

#[test]
fn missing_weights_file() {
    let out = run(&["play", "--weights", "no/such.toml"]);
    assert_one_line_error(&out, "cannot read weights file no/such.toml");
}

#[test]
fn malformed_toml() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(
        dir.path().join("w.toml"),
        "game = \"tetris\"\n[weights\nholes = 1\n",
    )
    .unwrap();
    let out = run_in(dir.path(), &["play", "--weights", "w.toml"]);
    assert_error(
        &out,
        "weights file w.toml: malformed TOML: line 2, column 9: unclosed table, expected `]`",
    );
}

/// A file that is TOML but not a weights file says what it lacks, not that it is malformed.
#[test]
fn empty_weights_file_names_the_missing_game() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("w.toml"), "").unwrap();
    let out = run_in(dir.path(), &["play", "--weights", "w.toml"]);
    assert_error(
        &out,
        "weights file w.toml: line 1, column 1: missing field `game`",
    );
}

#[test]
fn unknown_feature_lists_valid_names() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(
        dir.path().join("w.toml"),
        "game = \"tetris\"\n[weights]\nholez = -1.0\n",
    )
    .unwrap();
    let out = run_in(dir.path(), &["play", "--weights", "w.toml"]);
    assert_one_line_error(
        &out,
        "unknown feature `holez` for game tetris; valid names: landing_height, eroded_piece_cells",
    );
}

#[test]
fn nan_weight() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(
        dir.path().join("w.toml"),
        "game = \"tetris\"\n[weights]\nholes = nan\n",
    )
    .unwrap();
    let out = run_in(dir.path(), &["play", "--weights", "w.toml"]);
    assert_one_line_error(&out, "weight `holes` is NaN");
}

#[test]
fn ragged_board_file() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("b.txt"), "......\n.....\n......\n......\n").unwrap();
    let out = run_in(dir.path(), &["moves", "--board", "b.txt", "--piece", "T"]);
    assert_one_line_error(
        &out,
        "board file b.txt line 2: 5 cells, but the first row has 6",
    );
}

#[test]
fn width_out_of_range() {
    let out = run(&[
        "play",
        "--weights",
        "weights/tetris/dellacherie.toml",
        "--width",
        "17",
    ]);
    assert_one_line_error(&out, "tetris board width 17 is out of range 4..=16");
}

#[test]
fn unknown_game() {
    let out = run(&[
        "play",
        "--weights",
        "weights/tetris/dellacherie.toml",
        "--game",
        "chess",
    ]);
    assert_one_line_error(&out, "unknown game `chess`");
}

/// Arguments clap refuses get one line too, with clap's exit code 2 (usage errors) and any tip
/// kept; `--help` still prints the whole help.
#[test]
fn bad_arguments_are_one_line() {
    for (args, want) in [
        (
            &["play", "--weights", "x", "--pieces", "p", "--games", "3"][..],
            "error: the argument '--pieces <FILE>' cannot be used with '--games <GAMES>' (--help lists the options)",
        ),
        (
            &["play"][..],
            "error: the following required arguments were not provided: --weights <WEIGHTS> (--help lists the options)",
        ),
        (
            &["play", "--weights", "x", "--gmes", "3"][..],
            "error: unexpected argument '--gmes' found; tip: a similar argument exists: '--games' (--help lists the options)",
        ),
        (
            &["evolve", "--optimizer", "sa"][..],
            "error: invalid value 'sa' for '--optimizer <OPTIMIZER>' [possible values: ga, cem, cmaes, spsa] (--help lists the options)",
        ),
        (
            &["play", "--weights", "x", "--games", "-5"][..],
            "error: --games -5 is out of range: it cannot be negative (--help lists the options)",
        ),
        (
            &["evolve", "--seed", "-1"][..],
            "error: --seed -1 is out of range: it cannot be negative (--help lists the options)",
        ),
        (
            &["play", "--weights", "x", "--games", "2", "-5"][..],
            "error: unexpected argument '-5' found (--help lists the options)",
        ),
    ] {
        let out = run(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert_eq!(String::from_utf8_lossy(&out.stderr), format!("{want}\n"));
        assert_eq!(stdout(&out), "");
    }
    let help = run(&["play", "--help"]);
    assert!(help.status.success());
    assert!(stdout(&help).contains("Usage: stacktune play [OPTIONS] --weights <WEIGHTS>"));
}

/// A table of games that `--max-pieces` stopped says so: its figures are of capped games.
#[test]
fn play_table_says_when_games_reached_max_pieces() {
    let table = |size: &str, extra: &[&str]| {
        let mut args = vec![
            "play",
            "--weights",
            "weights/tetris/dellacherie.toml",
            "--width",
            size,
            "--height",
            size,
            "--games",
            "4",
            "--seed",
            "0",
            "--quiet",
        ];
        args.extend_from_slice(extra);
        let out = run(&args);
        assert!(out.status.success());
        stdout(&out)
    };
    let last_line = |text: String| text.lines().last().unwrap().to_string();
    assert_eq!(
        last_line(table("10", &["--max-pieces", "100"])),
        "capped        all 4 games reached --max-pieces 100"
    );
    assert_eq!(
        last_line(table("6", &["--max-pieces", "30"])),
        "capped        3 of 4 games reached --max-pieces 30"
    );
    assert!(last_line(table("6", &[])).starts_with("pieces/s "));
}

/// Runs the binary in `dir` with standard output (`stream` 1) or standard error (2) on
/// /dev/full, where every write fails.
#[cfg(target_os = "linux")]
fn run_with_full(dir: &std::path::Path, stream: u8, args: &[&str]) -> std::process::Output {
    let full = || std::process::Stdio::from(fs::File::create("/dev/full").unwrap());
    let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_stacktune"));
    command.args(args).current_dir(dir);
    match stream {
        1 => command.stdout(full()),
        _ => command.stderr(full()),
    };
    command.output().unwrap()
}

/// A write that fails (`> /dev/full`) ends each command with one line and exit status 1: no
/// panic, no backtrace.
#[cfg(target_os = "linux")]
#[test]
fn a_full_standard_output_is_one_line() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(
        dir.path().join("tiny.toml"),
        "seed = 3\ngenerations = 1\ngames = 2\nmax_pieces = 50\nvalidation_games = 2\n\
         final_games = 2\nvalidation_max_pieces = 50\n[game]\ngame = \"tetris\"\nwidth = 6\n\
         height = 10\n[ga]\npopulation = 4\nelitism = 1\n",
    )
    .unwrap();
    let weights = root().join("weights/tetris/el-tetris.toml");
    let board = root().join("tests/data/boards/tetris.txt");
    let commands: [&[&str]; 4] = [
        &[
            "play",
            "--weights",
            weights.to_str().unwrap(),
            "--games",
            "1",
            "--max-pieces",
            "100",
            "--quiet",
        ],
        &["moves", "--board", board.to_str().unwrap(), "--piece", "T"],
        &["solve-connect", "4453444"],
        &["evolve", "--config", "tiny.toml", "--out", "r", "--quiet"],
    ];
    for args in commands {
        let out = run_with_full(dir.path(), 1, args);
        assert_error(
            &out,
            "cannot write to standard output: No space left on device (os error 28)",
        );
    }
    // With standard error full too, the error line has nowhere to go: the exit status says it.
    let out = run_with_full(dir.path(), 2, &["play", "--weights", "no/such.toml"]);
    assert_eq!((out.status.code(), out.stdout.len()), (Some(1), 0));
}

/// A file without end is read to a cap, and bytes that are not text say so: one line each.
#[cfg(unix)]
#[test]
fn inputs_are_read_to_a_cap_and_must_be_text() {
    let over = "it is over 64 MiB, more than any file of its kind holds";
    assert_error(
        &run(&["play", "--weights", "/dev/zero"]),
        &format!("cannot read weights file /dev/zero: {over}"),
    );
    assert_error(
        &run(&["evolve", "--config", "/dev/zero"]),
        &format!("cannot read config file /dev/zero: {over}"),
    );
    assert_error(
        &run(&["moves", "--board", "/dev/zero", "--piece", "T"]),
        &format!("cannot read board file /dev/zero: {over}"),
    );
    assert_error(
        &run(&["play", "--weights", "/dev/urandom"]),
        &format!("cannot read weights file /dev/urandom: {over}"),
    );
    // Every other file a command is given, through the same reader.
    let hand = "weights/tetris/dellacherie.toml";
    for (args, what) in [
        (
            vec!["play", "--weights", hand, "--pieces", "/dev/zero"],
            "piece file",
        ),
        (
            vec![
                "replay",
                "--rules",
                "contest",
                "--seed",
                "1",
                "--requests",
                "/dev/zero",
            ],
            "requests file",
        ),
        (
            vec!["solve-connect", "--positions", "/dev/zero"],
            "positions file",
        ),
        (vec!["solve", "/dev/zero"], "puzzle file"),
        (
            vec![
                "play",
                "--weights",
                "weights/connect/parity.toml",
                "--book",
                "/dev/zero",
            ],
            "book file",
        ),
    ] {
        assert_error(
            &run(&args),
            &format!("cannot read {what} /dev/zero: {over}"),
        );
    }
    // Standard input too: /dev/zero piped in reaches the cap at once.
    let piped = std::process::Command::new(env!("CARGO_BIN_EXE_stacktune"))
        .args(["solve-connect", "--positions", "-"])
        .stdin(fs::File::open("/dev/zero").unwrap())
        .output()
        .unwrap();
    assert_error(
        &piped,
        &format!("cannot read positions from standard input: {over}"),
    );
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("w.toml"), b"game = \"tetris\"\n\xff\xfe").unwrap();
    assert_error(
        &run_in(dir.path(), &["play", "--weights", "w.toml"]),
        "cannot read weights file w.toml: it is not text (byte 16 is not UTF-8): damaged, or not a file of its kind",
    );
}

/// Weights files whose every weight is 0, one a kind of player, written into `dir`.
fn write_zero_weights(dir: &Path) {
    let files = [
        (
            "zero.toml",
            "game = \"tetris\"\n[weights]\nholes = 0.0\nlanding_height = 0\n",
        ),
        (
            "guideline.toml",
            "game = \"tetris\"\nrules = \"guideline\"\n[weights]\nholes = 0.0\n",
        ),
        (
            "contest.toml",
            "game = \"tetris\"\nrules = \"contest\"\n[weights]\nholes = -0.0\n",
        ),
        (
            "connect.toml",
            "game = \"connect\"\n[weights]\nown_centre = 0\n",
        ),
    ];
    for (name, text) in files {
        fs::write(dir.join(name), text).unwrap();
    }
}

/// What a command says of the weights file `file` of zeros, read as `prefix`.
fn no_preference(prefix: &str, file: &str) -> String {
    format!("{prefix} {file}: every weight is 0: the player has no preference")
}

/// A weights file whose every weight is 0 scores every move alike: no command plays it, and
/// each says so naming the file.
#[test]
fn a_weights_file_of_zeros_is_no_player() {
    let dir = tempfile::tempdir().unwrap();
    write_zero_weights(dir.path());
    let cases: [(&[&str], String); 6] = [
        (
            &["play", "--weights", "zero.toml", "--games", "1"],
            no_preference("weights file", "zero.toml"),
        ),
        (
            &["watch", "--weights", "zero.toml"],
            no_preference("weights file", "zero.toml"),
        ),
        (
            &["versus", "guideline.toml", "hand", "--games", "2"],
            no_preference("player weights file", "guideline.toml"),
        ),
        (
            &["tbp", "--weights", "guideline.toml"],
            no_preference("weights file", "guideline.toml"),
        ),
        (
            &[
                "export",
                "kaggle",
                "--weights",
                "connect.toml",
                "--out",
                "agent.py",
            ],
            no_preference("weights file", "connect.toml"),
        ),
        (
            &[
                "export",
                "contest",
                "--weights",
                "contest.toml",
                "--out",
                "c.py",
            ],
            no_preference("weights file", "contest.toml"),
        ),
    ];
    for (args, message) in cases {
        assert_error(&run_in(dir.path(), args), &message);
    }
    assert!(!dir.path().join("agent.py").exists() && !dir.path().join("c.py").exists());
}

/// A run refuses weights of zeros as its baseline, a player it measures against; as its `init`
/// they are a fair start (CMA-ES samples around it), and the run goes on.
#[test]
fn a_run_starts_from_zeros_but_never_measures_against_them() {
    let dir = tempfile::tempdir().unwrap();
    write_zero_weights(dir.path());
    let run = |extra: &str| {
        format!(
            "name = \"z\"\ngenerations = 1\ngames = 1\nmax_pieces = 20\nvalidation_games = 1\nfinal_games = 1\nvalidation_max_pieces = 20\n{extra}\n[game]\nwidth = 6\nheight = 8\n[optimizer]\nkind = \"cmaes\"\n[cmaes]\npopulation = 4\n"
        )
    };
    fs::write(
        dir.path().join("baseline.toml"),
        run("baseline = \"zero.toml\""),
    )
    .unwrap();
    assert_error(
        &run_in(
            dir.path(),
            &[
                "evolve",
                "--config",
                "baseline.toml",
                "--out",
                "b",
                "--quiet",
            ],
        ),
        &no_preference("baseline weights", "zero.toml"),
    );
    assert!(!dir.path().join("b").exists());
    fs::write(dir.path().join("init.toml"), run("init = \"zero.toml\"")).unwrap();
    let started = run_in(
        dir.path(),
        &["evolve", "--config", "init.toml", "--out", "i", "--quiet"],
    );
    assert!(
        started.status.success(),
        "{}",
        String::from_utf8_lossy(&started.stderr)
    );
}
