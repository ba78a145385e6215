//! The exact searches (`solve`, `solve-connect`) show their progress on standard error, stop
//! cleanly at `--time-limit`, and keep standard output to the result. Limits are tiny and the
//! positions hard, so the searches always run out; nothing asserts a duration.

use crate::common::*;
use std::process::Output;

const STOCK: &str = "tests/data/panel/panel-attack-stock.json";
/// A line every search batch (2^16 nodes), however fast the machine: exact counts to assert.
const EVERY_BATCH: &str = "0.000001";
const BATCH: u64 = 1 << 16;

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// The nodes of the one-line time-limit error, which must read exactly
/// `error: search stopped by --time-limit after X s and N nodes without a result`.
fn stopped_nodes(out: &Output) -> u64 {
    assert_one_line_error(out, "search stopped by --time-limit after ");
    let err = stderr(out);
    let rest = err
        .trim_end()
        .strip_prefix("error: search stopped by --time-limit after ")
        .unwrap();
    let (seconds, rest) = rest.split_once(" s and ").expect(&err);
    seconds.parse::<f64>().expect(&err);
    let nodes = rest.strip_suffix(" nodes without a result").expect(&err);
    nodes.parse().expect(&err)
}

/// The node counts of the progress lines `label: N nodes, R nodes/s (T s)`.
fn progress_nodes(err: &str, label: &str) -> Vec<u64> {
    err.lines()
        .map(|line| {
            let rest = line.strip_prefix(&format!("{label}: ")).expect(line);
            let (nodes, rest) = rest.split_once(" nodes, ").expect(line);
            assert!(
                rest.contains(" nodes/s (") && rest.ends_with(" s)"),
                "{line}"
            );
            nodes.parse().expect(line)
        })
        .collect()
}

#[test]
fn connect_time_limit_stops_with_one_line_and_no_result() {
    // The first move of the game: seconds of search, far beyond a millisecond.
    let out = run(&["solve-connect", "4", "--time-limit", "0.001"]);
    let nodes = stopped_nodes(&out);
    // Stopped at a batch boundary, counting nothing after.
    assert!(nodes >= BATCH && nodes.is_multiple_of(BATCH), "{nodes}");
    assert_eq!(stdout(&out), "");
    // The same with --analyse: the columns not yet searched add nothing.
    let out = run(&["solve-connect", "4", "--analyse", "--time-limit", "0.001"]);
    assert!(stopped_nodes(&out).is_multiple_of(BATCH));
    assert_eq!(stdout(&out), "");
}

#[test]
fn panel_time_limit_stops_with_one_line_and_no_json() {
    // Proving Ridiculous Mode puzzle 2 unsolvable takes millions of boards.
    let args = ["solve", STOCK, "--set", "Ridiculous Mode", "--index", "2"];
    let out = run(&[&args[..], &["--json", "--time-limit", "0.001"]].concat());
    let nodes = stopped_nodes(&out);
    assert!(nodes >= BATCH && nodes.is_multiple_of(BATCH), "{nodes}");
    assert_eq!(
        stdout(&out),
        "",
        "a stopped search prints no partial result"
    );
}

#[test]
fn every_reports_puzzles_over_the_limit_goes_on_and_fails_at_the_end() {
    let out = run(&["solve", STOCK, "--every", "--time-limit", "0.001"]);
    let table = stdout(&out);
    let over: Vec<&str> = table
        .lines()
        .filter(|l| l.contains("  not solved within the time limit ("))
        .collect();
    assert!(
        over.iter()
            .any(|l| l.starts_with("Ridiculous Mode, puzzle 2  moves 5  not solved")),
        "{table}"
    );
    // Puzzles searched in fewer than 2^16 boards never meet the limit, and are still solved.
    let small = table
        .lines()
        .find(|l| l.starts_with("Classic set 1, puzzle 2 "))
        .unwrap();
    assert!(
        small.contains("  moves 1  shortest    1  solutions      2  "),
        "{small}"
    );
    let total = table.lines().last().unwrap();
    let solved = 74 - 3 - over.len();
    assert!(
        total.starts_with(&format!(
            "74 puzzles: {solved} solved, 0 unsolvable, 3 unsupported, {} not solved within the time limit in ",
            over.len()
        )),
        "{total}"
    );
    assert_one_line_error(
        &out,
        &format!(
            "{} of 74 puzzles were not solved within --time-limit",
            over.len()
        ),
    );
}

#[test]
fn panel_json_stays_clean_with_progress_lines_on_standard_error() {
    let args = [
        "solve",
        STOCK,
        "--set",
        "Classic set 5",
        "--index",
        "5",
        "--json",
    ];
    let out = run(&[&args[..], &["--progress-every", EVERY_BATCH]].concat());
    let v = json(&out);
    assert_eq!(v["shortest"], 5);
    assert_eq!(v["nodes"], 198_838);
    // Not a terminal: plain lines, one per batch of the 198,838 boards.
    let err = stderr(&out);
    assert_eq!(
        progress_nodes(&err, "Classic set 5, puzzle 5"),
        [BATCH, 2 * BATCH, 3 * BATCH],
        "{err}"
    );

    let quiet = run(&[&args[..], &["--progress-every", EVERY_BATCH, "--quiet"]].concat());
    assert_eq!(json(&quiet), v);
    assert_eq!(stderr(&quiet), "");
}

#[test]
fn connect_progress_goes_to_standard_error_and_quiet_silences_it() {
    let args = ["solve-connect", "4453631", "--progress-every", EVERY_BATCH];
    let out = run(&args);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stdout(&out), "4453631 5\n");
    let err = stderr(&out);
    let lines = progress_nodes(&err, "4453631");
    let expected: Vec<u64> = (1..=lines.len() as u64).map(|i| i * BATCH).collect();
    assert!(!lines.is_empty() && lines == expected, "{err}");

    let quiet = run(&[&args[..], &["--quiet"]].concat());
    assert_eq!(stdout(&quiet), "4453631 5\n");
    assert_eq!(stderr(&quiet), "");
}

#[test]
fn time_limits_must_be_positive_seconds() {
    for (bad, why) in [
        (
            "0",
            "invalid value '0' for '--time-limit <SECONDS>': must be more than 0 seconds",
        ),
        (
            "-1",
            "--time-limit -1 is out of range: it cannot be negative",
        ),
        (
            "nan",
            "invalid value 'nan' for '--time-limit <SECONDS>': must be more than 0 seconds",
        ),
        (
            "soon",
            "invalid value 'soon' for '--time-limit <SECONDS>': `soon` is not a number",
        ),
    ] {
        let out = run(&["solve-connect", "4", &format!("--time-limit={bad}")]);
        assert_eq!(out.status.code(), Some(2), "{bad}");
        assert!(stderr(&out).contains(why), "{}", stderr(&out));
    }
    let out = run(&["solve-connect", "--accuracy", "random", "--time-limit", "5"]);
    assert!(
        stderr(&out).contains("cannot be used with"),
        "{}",
        stderr(&out)
    );
}
