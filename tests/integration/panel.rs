//! The Panel de Pon solver against published answers and hand-made boards, and `solve` through
//! the real binary: output, JSON shape, and one clear line for every kind of bad input.

use crate::common::*;
use stacktune_base::progress::Meter;
use stacktune_games::panel::load::{self, Entry};
use stacktune_games::panel::{AllSolutions, Board, Puzzle, Swap, shortest};
use std::fs;
use std::path::Path;

const STAGE_59: &str = "tests/data/panel/stage59.toml";
const STOCK: &str = "tests/data/panel/panel-attack-stock.json";

fn entries(path: &str) -> Vec<Entry> {
    load::read(&root().join(path)).unwrap()
}

fn stage_59() -> Puzzle {
    entries(STAGE_59).remove(0).puzzle.unwrap()
}

fn swaps(list: &[(u8, u8)]) -> Vec<Swap> {
    list.iter().map(|&(x, y)| Swap { x, y }).collect()
}

/// The board after each swap in turn, with the chain count of the last one.
fn replay(board: &Board, solution: &[Swap]) -> (Board, u32) {
    solution.iter().fold((*board, 0), |(b, _), &s| {
        b.swapped(s).expect("the swap exchanges different cells")
    })
}

fn board(rows_top_first: &[[u8; 6]]) -> Board {
    Board::from_rows(rows_top_first).unwrap()
}

#[test]
fn stage_59_published_answer_is_a_solution_and_empties_the_board() {
    let p = stage_59();
    let published = swaps(&[(3, 0), (2, 3), (3, 1), (1, 3)]);
    let all = AllSolutions::default()
        .list(&p.board, p.swaps, 1000, &mut Meter::unbounded())
        .unwrap();
    assert!(all.contains(&published), "{all:?}");
    assert!(replay(&p.board, &published).0.is_empty());
    for s in &all {
        assert!(s.len() <= 4);
        assert!(replay(&p.board, s).0.is_empty(), "{s:?}");
        // Empty after the last swap and not before.
        assert!(!replay(&p.board, &s[..s.len() - 1]).0.is_empty(), "{s:?}");
    }
    assert_eq!(
        shortest(&p.board, p.swaps, &mut Meter::unbounded())
            .unwrap()
            .solution
            .map(|s| s.len()),
        Some(4)
    );
}

#[test]
fn stock_stage_59_is_the_toml_stage_up_to_colours() {
    let stock = entries(STOCK);
    let entry = load::select(&stock, "Classic set 6", 9).unwrap();
    let json = entry.puzzle.as_ref().unwrap();
    let toml = stage_59();
    let mut all = AllSolutions::default();
    assert_eq!(
        all.list(&json.board, json.swaps, 1000, &mut Meter::unbounded())
            .unwrap(),
        all.list(&toml.board, toml.swaps, 1000, &mut Meter::unbounded())
            .unwrap()
    );
}

#[test]
fn every_classic_stage_needs_exactly_its_moves() {
    let stock = entries(STOCK);
    let classic: Vec<&Entry> = stock
        .iter()
        .filter(|e| {
            e.set
                .as_deref()
                .is_some_and(|s| s.starts_with("Classic set"))
        })
        .collect();
    assert_eq!(classic.len(), 60);
    for e in classic {
        let p = e.puzzle.as_ref().unwrap();
        let solution = shortest(&p.board, p.swaps, &mut Meter::unbounded())
            .unwrap()
            .solution;
        let solution = solution.unwrap_or_else(|| panic!("{} has no solution", e.name));
        assert_eq!(solution.len() as u32, p.swaps, "{}", e.name);
        assert!(replay(&p.board, &solution).0.is_empty(), "{}", e.name);
    }
}

#[test]
fn ridiculous_mode_is_unsolvable_or_unsupported() {
    let stock = entries(STOCK);
    // Puzzle 2 uses colours only, but needs swaps made while panels fall.
    let p = load::select(&stock, "Ridiculous Mode", 2).unwrap();
    let p = p.puzzle.as_ref().unwrap();
    assert_eq!(
        shortest(&p.board, p.swaps, &mut Meter::unbounded())
            .unwrap()
            .solution,
        None
    );
    // Puzzle 1 holds colourless blocks, which the rules do not cover.
    let e = load::select(&stock, "Ridiculous Mode", 1).unwrap();
    let reason = format!("{:#}", e.puzzle.as_ref().unwrap_err());
    assert!(reason.contains("cell (2, 3) holds 9"), "{reason}");
}

#[test]
fn a_panel_swapped_into_an_empty_cell_falls() {
    let b = board(&[[0, 0, 0, 1, 2, 0], [1, 1, 0, 2, 2, 0]]);
    // (3, 1) moves into the gap at (2, 1), falls to (2, 0) and completes 1 1 1.
    let (after, chains) = b.swapped(Swap { x: 2, y: 1 }).unwrap();
    assert_eq!(chains, 1);
    assert_eq!(after, board(&[[0, 0, 0, 0, 2, 0], [0, 0, 0, 2, 2, 0]]));
    assert_eq!(
        shortest(&b, 3, &mut Meter::unbounded())
            .unwrap()
            .solution
            .map(|s| s.len()),
        Some(2)
    );
    let all = AllSolutions::default()
        .list(&b, 2, 1000, &mut Meter::unbounded())
        .unwrap();
    assert!(all.contains(&swaps(&[(2, 1), (4, 1)])), "{all:?}");
}

#[test]
fn a_horizontal_and_a_vertical_run_clear_in_one_step() {
    let b = board(&[[0, 0, 1, 2, 0, 0], [0, 0, 1, 2, 0, 0], [1, 1, 2, 1, 0, 0]]);
    // After (2, 0): row 0 is 1 1 1 2, column 2 is 1 1 1 and column 3 is 2 2 2, all at once.
    let (after, chains) = b.swapped(Swap { x: 2, y: 0 }).unwrap();
    assert!(after.is_empty());
    assert_eq!(chains, 1);
}

#[test]
fn a_two_step_chain_counts_two() {
    let b = board(&[[0, 0, 2, 0, 0, 0], [1, 1, 2, 1, 2, 0]]);
    // 1 1 1 clears, the 2 above falls between the other two 2s and clears them.
    let (after, chains) = b.swapped(Swap { x: 2, y: 0 }).unwrap();
    assert!(after.is_empty());
    assert_eq!(chains, 2);
    assert_eq!(
        shortest(&b, 1, &mut Meter::unbounded()).unwrap().solution,
        Some(swaps(&[(2, 0)]))
    );
}

// --- the binary ---

fn solve_in(dir: &Path, args: &[&str]) -> std::process::Output {
    let mut all = vec!["solve"];
    all.extend_from_slice(args);
    run_in(dir, &all)
}

fn keys(v: &serde_json::Value) -> Vec<String> {
    let mut k: Vec<String> = v.as_object().unwrap().keys().cloned().collect();
    k.sort();
    k
}

#[test]
fn solve_prints_each_swap_and_board() {
    let dir = tempfile::tempdir().unwrap();
    fs::copy(root().join(STAGE_59), dir.path().join("stage59.toml")).unwrap();
    let out = solve_in(dir.path(), &["stage59.toml"]);
    assert!(out.status.success());
    let text = stdout(&out);
    assert!(
        text.contains("shortest solution: 4 swaps: (3, 0) (2, 3) (3, 1) (1, 3)"),
        "{text}"
    );
    assert!(text.contains("swap 4: (1, 3), chain 4"), "{text}");
    assert!(text.contains("  0 | . . . . . ."), "{text}");
}

#[test]
fn solve_json_has_the_documented_keys() {
    let dir = tempfile::tempdir().unwrap();
    fs::copy(root().join(STOCK), dir.path().join("stock.json")).unwrap();
    let pick = [
        "stock.json",
        "--set",
        "Classic set 6",
        "--index",
        "9",
        "--json",
    ];
    let v = json(&solve_in(dir.path(), &pick));
    assert_eq!(keys(&v), ["nodes", "shortest", "solution", "solvable"]);
    assert_eq!(v["solvable"], true);
    assert_eq!(v["shortest"], 4);
    assert_eq!(
        v["solution"],
        serde_json::json!([[3, 0], [2, 3], [3, 1], [1, 3]])
    );
    let v = json(&solve_in(dir.path(), &[&pick[..], &["--all"]].concat()));
    assert_eq!(
        keys(&v),
        ["nodes", "shortest", "solution", "solutions", "solvable"]
    );
    let all = v["solutions"].as_array().unwrap();
    assert!(all.contains(&serde_json::json!([[3, 0], [2, 3], [3, 1], [1, 3]])));
    // Unsolvable: nulls, and an empty list of solutions.
    fs::write(
        dir.path().join("stuck.toml"),
        "swaps = 3\nrows = [[1, 1, 0, 1, 1, 0]]\n",
    )
    .unwrap();
    let v = json(&solve_in(dir.path(), &["stuck.toml", "--json", "--all"]));
    assert_eq!(v["solvable"], false);
    assert!(v["shortest"].is_null() && v["solution"].is_null());
    assert_eq!(v["solutions"], serde_json::json!([]));
}

#[test]
fn every_reports_unsupported_puzzles_and_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    let file = r#"{"Version": 2, "Puzzle Sets": [{"Set Name": "Mixed", "Puzzles": [
        {"Puzzle Type": "moves", "Moves": 1, "Stack": "110100"},
        {"Puzzle Type": "moves", "Moves": 2, "Stack": "919"},
        {"Puzzle Type": "moves", "Moves": 2, "Stack": "110110"}]}]}"#;
    fs::write(dir.path().join("mixed.json"), file).unwrap();
    let out = solve_in(dir.path(), &["mixed.json", "--every"]);
    assert!(out.status.success());
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 4, "{text}");
    assert!(lines[0].starts_with("Mixed, puzzle 1  moves 1  shortest    1  solutions      1"));
    assert!(lines[1].starts_with("Mixed, puzzle 2  unsupported: cell (3, 0) holds 9"));
    assert!(
        lines[2].contains("shortest none  solutions      0"),
        "{text}"
    );
    assert!(lines[3].starts_with("3 puzzles: 1 solved, 1 unsolvable, 1 unsupported"));
}

#[test]
fn bad_input_is_one_error_line() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    fs::copy(root().join(STOCK), d.join("stock.json")).unwrap();
    let put = |name: &str, text: &str| fs::write(d.join(name), text).unwrap();
    assert_one_line_error(&solve_in(d, &["missing.toml"]), "cannot read puzzle file");
    put("broken.toml", "swaps = \nrows = []\n");
    assert_one_line_error(&solve_in(d, &["broken.toml"]), "malformed TOML: line 1");
    put(
        "ragged.toml",
        "swaps = 1\nrows = [[0, 0, 0, 0, 0, 0], [1, 1, 0, 1, 0]]\n",
    );
    assert_one_line_error(
        &solve_in(d, &["ragged.toml"]),
        "row 2 from the top (y = 0) has 5 cells",
    );
    put("nine.toml", "swaps = 1\nrows = [[1, 1, 9, 1, 0, 0]]\n");
    assert_one_line_error(&solve_in(d, &["nine.toml"]), "cell (2, 0) holds 9");
    put(
        "floating.toml",
        "swaps = 1\nrows = [[1, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0]]\n",
    );
    assert_one_line_error(&solve_in(d, &["floating.toml"]), "cell (0, 1) floats");
    assert_one_line_error(
        &solve_in(d, &["stock.json"]),
        "holds 74 puzzles; pick one with --set NAME --index I (I counts from 1) or solve them all with --every",
    );
    assert_one_line_error(
        &solve_in(d, &["stock.json", "--set", "Go Hard", "--index", "1"]),
        "Go Hard, puzzle 1: cell (2, 1) holds 9 (a colourless block)",
    );
    assert_one_line_error(
        &solve_in(d, &["stock.json", "--set", "Classic set 6", "--index", "0"]),
        "has puzzles 1 to 10",
    );
    assert_one_line_error(
        &solve_in(d, &["stock.json", "--set", "Classic", "--index", "1"]),
        "no set named \"Classic\"",
    );
    put("bad.json", "[1, 2]");
    assert_one_line_error(
        &solve_in(d, &["bad.json"]),
        "not a Panel Attack puzzle file",
    );
}
