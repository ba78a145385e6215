//! `versus` on puyo weights files: Tsu's battle rules between two players (solo, or reading the
//! match), paired seeds, the same figures as versus Tetris
//! ([docs/puyo-versus.md](../../docs/puyo-versus.md)).

use crate::common::{assert_one_line_error, json, run, run_in};
use serde_json::json;

const HAND: &str = "weights/puyo/hand.toml";
const ONE_PLY: &str = "weights/puyo/tsu-1ply.toml";
const TWO_PLY: &str = "weights/puyo/tsu-2ply.toml";

fn versus(first: &str, second: &str, extra: &[&str]) -> serde_json::Value {
    let mut args = vec!["versus", first, second, "--json", "--quiet"];
    args.extend_from_slice(extra);
    json(&run(&args))
}

#[test]
fn a_file_against_itself_splits_every_pair() {
    let report = versus(HAND, HAND, &["--games", "20", "--seed", "3"]);
    assert_eq!(report["games"], json!(20));
    assert_eq!(report["pairs"], json!([0, 0, 10, 0, 0]));
    assert_eq!(report["score"], json!(0.5));
    assert_eq!(report["elo"], json!(0.0));
    // Twice a side lost to itself at the same frame: a draw each, still a split pair.
    assert_eq!(
        (
            report["wins"].clone(),
            report["draws"].clone(),
            report["losses"].clone()
        ),
        (json!(9), json!(2), json!(9))
    );
}

#[test]
fn the_two_ply_file_beats_the_hand_set_one_the_same_at_any_thread_count() {
    let one = versus(
        TWO_PLY,
        HAND,
        &["--games", "100", "--seed", "1", "--threads", "1"],
    );
    let two = versus(
        TWO_PLY,
        HAND,
        &["--games", "100", "--seed", "1", "--threads", "2"],
    );
    assert_eq!(one, two);
    // Observed, and sane: the file tuned with the next pair shown wins more than it loses.
    assert_eq!(
        (
            one["wins"].clone(),
            one["draws"].clone(),
            one["losses"].clone()
        ),
        (json!(57), json!(0), json!(43))
    );
    assert_eq!(one["pairs"], json!([15, 0, 13, 0, 22]));
    assert_eq!(one["pieces"], json!(40.125));
}

#[test]
fn the_battle_rules_are_the_flags() {
    // Nuisance at 1 point a puyo kills sooner than Tsu's 70.
    let tsu = versus(ONE_PLY, HAND, &["--games", "10", "--seed", "2"]);
    let cheap = versus(
        ONE_PLY,
        HAND,
        &["--games", "10", "--seed", "2", "--target-points", "1"],
    );
    assert_eq!(cheap["game"]["target_points"], json!(1));
    assert!(
        cheap["pieces"].as_f64() < tsu["pieces"].as_f64(),
        "{cheap} against {tsu}"
    );
}

#[test]
fn puyo_matches_refuse_what_they_cannot_play_with_one_line() {
    let refused = |extra: &[&str], message: &str| {
        let mut args = vec!["versus", HAND, HAND, "--quiet"];
        args.extend_from_slice(extra);
        assert_one_line_error(&run(&args), message);
    };
    refused(
        &["--rules", "programming"],
        "puyo versus is played under the tsu rules (--rules tsu)",
    );
    refused(
        &["--fire-points", "9"],
        "--fire-points is a puyo setting; puyo versus does not use it",
    );
    refused(
        &["--target-points", "0"],
        "puyo versus: --target-points, --margin-every and --nuisance-cap must be at least 1",
    );
    refused(
        &["--replay-html", "Cargo.toml"],
        "Cargo.toml already exists; it is not overwritten",
    );
    // A solo run cannot take the battle rules or play one side of a match.
    let out = run(&["play", "--weights", HAND, "--target-points", "9"]);
    assert_one_line_error(
        &out,
        "--target-points is a puyo versus setting; puyo does not use it",
    );
    let out = run(&["play", "--weights", HAND, "--mode", "versus"]);
    assert_one_line_error(
        &out,
        "puyo versus runs play matches: name their opponents (`opponents = [\"weights/puyo/hand.toml\"]`, --opponent FILE)",
    );
}

const MATCH: &str = "weights/puyo/versus-hand.toml";

#[test]
fn the_match_player_beats_its_solo_self_the_same_at_any_thread_count() {
    let run_at = |threads| {
        let extra = ["--games", "40", "--seed", "3", "--threads", threads];
        versus(MATCH, HAND, &extra)
    };
    let one = run_at("1");
    assert_eq!(one, run_at("2"));
    // Observed: hand.toml's field weights reading the match win 29 of 40.
    assert_eq!(
        (
            one["wins"].clone(),
            one["draws"].clone(),
            one["losses"].clone()
        ),
        (json!(29), json!(0), json!(11))
    );
    assert_eq!(one["pairs"], json!([5, 0, 1, 0, 14]));
    // Both sides see the match alike: the match player against itself splits every pair.
    let mirror = versus(MATCH, MATCH, &["--games", "20", "--seed", "3"]);
    assert_eq!(mirror["pairs"], json!([0, 0, 10, 0, 0]));
}

#[test]
fn match_features_are_refused_alone_and_without_a_field() {
    let out = run(&["play", "--weights", MATCH, "--games", "1"]);
    assert_one_line_error(
        &out,
        "weights file weights/puyo/versus-hand.toml: `match_incoming` is a match feature: these weights play puyo matches (`stacktune versus`), not a game alone",
    );
    let dir = tempfile::tempdir().unwrap();
    let only = dir.path().join("only.toml");
    std::fs::write(&only, "game = \"puyo\"\n[weights]\nmatch_sent = 1.0\n").unwrap();
    let out = run(&["versus", only.to_str().unwrap(), HAND, "--quiet"]);
    assert_one_line_error(
        &out,
        "only.toml: it weighs match features only: a match player also needs the solo features of its field",
    );
    let out = run(&[
        "versus",
        MATCH,
        HAND,
        "--beam-width",
        "4",
        "--depth",
        "2",
        "--quiet",
    ]);
    assert_one_line_error(
        &out,
        "match features play under one ply, the lookahead or the sampled beam (--samples), not a beam over the pairs shown (--depth)",
    );
}

/// The data a replay page embeds.
fn page_data(page: &std::path::Path) -> serde_json::Value {
    let html = std::fs::read_to_string(page).unwrap();
    let start = html.find(r#"id="data">"#).unwrap() + r#"id="data">"#.len();
    let end = start + html[start..].find("</script>").unwrap();
    serde_json::from_str(&html[start..end]).unwrap()
}

#[test]
fn the_replay_page_is_the_first_game_with_both_fields_the_same_every_time() {
    let dir = tempfile::tempdir().unwrap();
    let root = crate::common::root();
    let (match_file, hand) = (root.join(MATCH), root.join(HAND));
    let write = |name: &str| {
        let page = dir.path().join(name);
        let args = [
            "versus",
            match_file.to_str().unwrap(),
            hand.to_str().unwrap(),
            "--games",
            "2",
            "--seed",
            "1",
            "--json",
            "--quiet",
            "--replay-html",
            page.to_str().unwrap(),
        ];
        (json(&run_in(dir.path(), &args)), page)
    };
    let (report, page) = write("a.html");
    let (again, page_again) = write("b.html");
    assert_eq!(report, again);
    assert_eq!(
        std::fs::read(&page).unwrap(),
        std::fs::read(&page_again).unwrap()
    );
    // The match player won both games; the page's is the first, with its reason.
    assert_eq!(report["wins"], json!(2));
    assert_eq!(report["endings"]["second had no placement left"], json!(1));
    // Each game by itself: the pair's two games, the first player left then right.
    assert_eq!(
        report["by_game"],
        json!([
            {"pair": 0, "first_left": true, "result": "win",
             "ending": "second had no placement left", "placed": 29.0},
            {"pair": 0, "first_left": false, "result": "win",
             "ending": "second filled column 3 of row 12", "placed": 23.5},
        ])
    );
    let replay = &page_data(&page)["replays"][0];
    assert_eq!(replay["setup"]["kind"], json!("puyo-match"));
    assert_eq!(
        replay["setup"]["ending"],
        json!("The left side won: the right side had no placement left.")
    );
    assert_eq!(replay["score"], json!(1.0));
    let steps = replay["steps"].as_array().unwrap();
    assert_eq!(steps.last().unwrap()[3], json!(1.0));
    assert_eq!(replay["moves"], json!(steps.len()));
    // Both fields start empty, side by side (6 + 6 columns, 13 rows), and nuisance fell.
    assert_eq!(replay["start_board"], json!(vec![".".repeat(12); 13]));
    let drops = steps.iter().flat_map(|s| [&s[0], &s[1]]);
    assert!(drops.filter(|m| m.get("drop").is_some()).count() > 0);
    assert!(
        replay["command"]
            .as_str()
            .unwrap()
            .ends_with("--seed 1 --games 1")
    );
}

#[test]
fn watch_draws_both_fields_of_the_game_play_plays() {
    let args = [
        "--weights",
        MATCH,
        "--mode",
        "versus",
        "--opponent",
        HAND,
        "--seed",
        "3",
    ];
    let watched = crate::common::stdout(&run(&[&["watch"], &args[..]].concat()));
    let played = json(&run(
        &[&["play", "--json", "--games", "1"], &args[..]].concat()
    ));
    // play's game 0: the match player won after 15 pairs; watch ends on that game.
    let game = &played["per_game"][0];
    assert_eq!(
        (game["wins"].clone(), game["pairs"].clone()),
        (json!(1), json!(15))
    );
    assert_eq!(
        watched.lines().last().unwrap(),
        "The left side won: the right side filled column 3 of row 12. Pairs placed: 15 left, 22 right, at frame 1254."
    );
    // Every frame draws both fields side by side, each with its nuisance and points.
    let frames = watched
        .matches("left: the weights, right: weights/puyo/hand.toml\nframe ")
        .count();
    assert!(frames > 20, "{frames} frames");
    assert_eq!(watched.matches("+------+    ").count(), frames);
    assert!(watched.contains("nuisance 0 coming, 11 due"));
    assert_eq!(
        watched.lines().filter(|l| l.starts_with("points ")).count(),
        frames
    );
}

#[test]
fn a_recorded_puyo_match_resumes_to_the_report_of_one_sitting() {
    let dir = tempfile::tempdir().unwrap();
    let record = dir.path().join("match.jsonl");
    let record = record.to_str().unwrap();
    let sitting = |games: &str| {
        versus(
            TWO_PLY,
            HAND,
            &["--games", games, "--seed", "1", "--record", record],
        )
    };
    assert_eq!(sitting("4")["games"], json!(4));
    let resumed = sitting("10");
    assert_eq!(
        resumed,
        versus(TWO_PLY, HAND, &["--games", "10", "--seed", "1"])
    );
    let text = std::fs::read_to_string(record).unwrap();
    assert_eq!(text.lines().count(), 1 + 5, "{text}");
}
