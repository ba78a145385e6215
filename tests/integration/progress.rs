//! Long work shows progress on standard error, so `--json` on standard output stays clean, and
//! `--quiet` silences it.

use crate::common::*;

fn play(extra: &[&str]) -> std::process::Output {
    let mut args = vec![
        "play",
        "--weights",
        "weights/tetris/dellacherie.toml",
        "--width",
        "6",
        "--height",
        "8",
        "--games",
        "50",
        "--json",
    ];
    args.extend_from_slice(extra);
    run(&args)
}

#[test]
fn play_json_reports_progress_on_standard_error_only() {
    let out = play(&[]);
    assert_eq!(json(&out)["games"], 50);
    let stderr = String::from_utf8_lossy(&out.stderr);
    // Not a terminal: a plain line every tenth of the games.
    let lines: Vec<&str> = stderr.lines().collect();
    assert_eq!(lines.len(), 10, "{stderr}");
    assert!(lines[0].starts_with("games: 5/50 ("), "{stderr}");
    assert!(lines[9].starts_with("games: 50/50 ("), "{stderr}");
}

#[test]
fn quiet_play_prints_nothing_on_standard_error() {
    let out = play(&["--quiet"]);
    assert_eq!(json(&out)["games"], 50);
    assert_eq!(String::from_utf8_lossy(&out.stderr), "");
}
