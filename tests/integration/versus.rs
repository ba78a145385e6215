//! `versus` and `tbp`: matches between two guideline players, the Tetris Bot Protocol both
//! ways, and what a match reports.

use crate::common::{self, assert_each_refused, json, root, run, stdout};
use serde_json::json;

const HAND: &str = "weights/versus/hand.toml";

fn versus(extra: &[&str]) -> serde_json::Value {
    let mut args = vec!["versus", HAND, HAND, "--json", "--quiet"];
    args.extend_from_slice(extra);
    json(&run(&args))
}

#[test]
fn a_player_against_itself_splits_every_pair() {
    // The same player on both sides of a pair on one seed plays the same game twice with the
    // sides swapped: one win and one loss.
    let report = versus(&["--games", "16", "--seed", "3"]);
    assert_eq!(report["pairs"], json!([0, 0, 8, 0, 0]));
    assert_eq!(
        (report["wins"].as_u64(), report["losses"].as_u64()),
        (Some(8), Some(8))
    );
    assert_eq!(report["score"], json!(0.5));
    assert_eq!(report["elo"], json!(0.0));
}

#[test]
fn the_table_reads_as_words() {
    // One pair: "1 pair"; an even match's Elo "+0.0" (its sign was "-0.0" when a rounding
    // landed below zero); a sprint's rates to two decimals, not every digit of a float.
    let table = stdout(&run(&[
        "versus",
        HAND,
        HAND,
        "--games",
        "2",
        "--quiet",
        "--max-pieces",
        "30",
    ]));
    assert!(table.contains("games     2 (1 pair, seed 0)"), "{table}");
    assert!(
        table.contains("elo       +0.0 [+0.0, +0.0] (logistic"),
        "{table}"
    );
    let sprint = stdout(&run(&[
        "play",
        "--weights",
        HAND,
        "--mode",
        "sprint",
        "--games",
        "3",
        "--seed",
        "1",
        "--quiet",
    ]));
    assert!(sprint.contains("\n0        37.38       107"), "{sprint}");
    assert!(sprint.contains("min / max     37.04 / 38.46\n"), "{sprint}");
}

#[test]
fn a_margin_grows_attacks_and_ends_matches_sooner() {
    let pieces = |extra: &[&str]| {
        let mut args = vec!["--games", "16", "--seed", "3"];
        args.extend_from_slice(extra);
        let report = versus(&args);
        // Still the same player on both sides: each pair split.
        assert_eq!(report["pairs"], json!([0, 0, 8, 0, 0]), "{extra:?}");
        report["pieces"].as_f64().unwrap()
    };
    assert_eq!(pieces(&[]), 108.625);
    // From piece 20 attacks grow 1 % a piece, then 50 %: at 50 % a tetris sends 6 rows at
    // piece 21 and a double 2 from piece 22.
    assert_eq!(pieces(&["--margin", "20"]), 89.75);
    assert_eq!(
        pieces(&["--margin", "20", "--margin-increase", "50"]),
        35.25
    );
}

#[test]
fn a_match_is_the_same_at_any_thread_count() {
    let one = versus(&[
        "--games",
        "12",
        "--seed",
        "5",
        "--threads",
        "1",
        "--max-pieces",
        "150",
    ]);
    let two = versus(&[
        "--games",
        "12",
        "--seed",
        "5",
        "--threads",
        "2",
        "--max-pieces",
        "150",
    ]);
    assert_eq!(one, two);
    assert_eq!(one["games"], json!(12));
}

#[test]
fn a_weights_file_behind_tbp_plays_as_the_file_itself() {
    // stacktune's own bot, started as a TBP bot by stacktune's front end: the same games,
    // move for move, as the weights file playing in process (hand.toml weighs nothing the
    // protocol does not carry), so both ends and the conversions agree.
    let bot = format!(
        "tbp:{} tbp --weights {HAND}",
        env!("CARGO_BIN_EXE_stacktune")
    );
    let flags = [
        "--games",
        "4",
        "--seed",
        "11",
        "--threads",
        "1",
        "--think-ms",
        "0",
        "--json",
        "--quiet",
    ];
    let direct = json(&run(&[&["versus", HAND, HAND], &flags[..]].concat()));
    let behind = json(&run(&[&["versus", HAND, bot.as_str()], &flags[..]].concat()));
    for field in ["wins", "draws", "losses", "pairs", "pieces", "endings"] {
        assert_eq!(direct[field], behind[field], "{field}");
    }
}

#[test]
fn hand_names_the_compiled_in_hand_set_weights() {
    // `hand`, as a run names its opponent, is the shipped file itself: the same games.
    let flags = ["--games", "6", "--seed", "12", "--json", "--quiet"];
    let file = json(&run(&[&["versus", HAND, HAND], &flags[..]].concat()));
    let named = json(&run(&[&["versus", "hand", HAND], &flags[..]].concat()));
    assert_eq!(named["first"], "hand");
    for field in ["wins", "draws", "losses", "pairs", "pieces", "endings"] {
        assert_eq!(file[field], named[field], "{field}");
    }
}

#[test]
fn sprt_rejects_a_player_that_is_not_better() {
    let report = versus(&[
        "--sprt",
        "--elo0",
        "0",
        "--elo1",
        "10",
        "--games",
        "1000",
        "--threads",
        "2",
    ]);
    let sprt = &report["sprt"];
    assert_eq!(sprt["verdict"], "H0");
    assert!(sprt["llr"].as_f64().unwrap() <= sprt["bounds"][0].as_f64().unwrap());
    // The verdict falls at a look, every 8 pairs: well before the 1,000 games.
    let games = report["games"].as_u64().unwrap();
    assert!(games.is_multiple_of(16) && games < 1000, "{games}");
}

#[test]
fn the_replay_page_holds_both_boards_and_is_never_overwritten() {
    let dir = tempfile::tempdir().unwrap();
    let page = dir.path().join("match.html");
    let page_arg = page.to_str().unwrap();
    let args = [
        "versus",
        HAND,
        HAND,
        "--games",
        "2",
        "--quiet",
        "--replay-html",
        page_arg,
    ];
    assert!(run(&args).status.success());
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(html.contains(r#""kind":"match""#));
    assert!(html.contains(
        "stacktune versus weights/versus/hand.toml weights/versus/hand.toml --seed 0 --games 1"
    ));
    common::assert_one_line_error(&run(&args), "already exists");
    assert_eq!(std::fs::read_to_string(&page).unwrap(), html);
}

#[test]
fn bad_players_and_settings_are_one_line() {
    let base = ["versus", HAND];
    assert_each_refused(
        &root(),
        &base,
        &[
            (
                &["weights/nothing.toml"],
                "cannot read weights file weights/nothing.toml",
            ),
            (
                &["weights/tetris/dellacherie.toml"],
                "weights file weights/tetris/dellacherie.toml: it holds tetris weights, not guideline tetris weights",
            ),
            (&["tbp:"], "player `tbp:`: the bot command is empty"),
            (
                &[HAND, "--sprt", "--elo0", "5", "--elo1", "5"],
                "--sprt: SPRT needs finite elo0 < elo1",
            ),
            (
                &[HAND, "--mode", "sprint"],
                "--mode and --opponent choose play's episodes",
            ),
            (&[HAND, "--width", "8"], "--width is a"),
            (
                &[HAND, "--margin-increase", "2"],
                "--margin-increase needs --margin, the piece attacks start growing at",
            ),
            (
                &[HAND, "--margin", "10", "--margin-increase", "0"],
                "--margin-increase 0 is out of range 1..=1000 (per cent a piece)",
            ),
        ],
    );
}

#[test]
fn the_tbp_bot_answers_a_front_end() {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let mut bot = Command::new(env!("CARGO_BIN_EXE_stacktune"))
        .args(["tbp", "--weights", HAND])
        .current_dir(root())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let board = vec![vec![serde_json::Value::Null; 10]; 40];
    let messages = [
        json!({"type": "rules", "randomizer": "seven_bag"}),
        json!({"type": "start", "hold": null, "queue": ["T", "I", "O", "L", "J", "S"], "combo": 0,
               "back_to_back": false, "board": board}),
        json!({"type": "suggest"}),
        json!({"type": "quit"}),
    ];
    let mut input = bot.stdin.take().unwrap();
    for m in &messages {
        writeln!(input, "{m}").unwrap();
    }
    drop(input);
    let out = bot.wait_with_output().unwrap();
    let lines: Vec<serde_json::Value> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines[0]["type"], "info");
    assert_eq!(lines[0]["name"], "stacktune");
    assert_eq!(lines[1], json!({"type": "ready"}));
    assert_eq!(lines[2]["type"], "suggestion");
    // The hand-set weights (Cold Clear's) keep the T for a T-spin: they hold it and lay the I
    // flat at the left wall.
    assert_eq!(
        lines[2]["moves"],
        json!([{"location": {"type": "I", "orientation": "north", "x": 1, "y": 0}, "spin": "none"}])
    );
    assert_eq!(lines.len(), 3);
}

/// The messages of one conversation with `stacktune tbp --weights weights/versus/hand.toml`,
/// its output as JSON values, its notes and its exit status.
fn converse_with_the_bot(messages: &[serde_json::Value]) -> (Vec<serde_json::Value>, String, i32) {
    converse_with(&["--weights", HAND], &root(), messages)
}

/// The same with `stacktune tbp ARGS`, run in `dir`.
fn converse_with(
    args: &[&str],
    dir: &std::path::Path,
    messages: &[serde_json::Value],
) -> (Vec<serde_json::Value>, String, i32) {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let mut bot = Command::new(env!("CARGO_BIN_EXE_stacktune"))
        .arg("tbp")
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut input = bot.stdin.take().unwrap();
    for m in messages {
        writeln!(input, "{m}").unwrap();
    }
    drop(input);
    let out = bot.wait_with_output().unwrap();
    let lines = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let notes = String::from_utf8(out.stderr).unwrap();
    (lines, notes, out.status.code().unwrap_or(-1))
}

#[test]
fn the_tbp_bot_without_weights_is_the_shipped_tuned_player() {
    // Run away from the checkout: the shipped player is compiled in, not read from weights/.
    let elsewhere = tempfile::tempdir().unwrap();
    // A row of garbage with its hole at x = 6.
    let mut board = vec![vec![serde_json::Value::Null; 10]; 40];
    board[0] = (0..10)
        .map(|x| json!(if x == 6 { None } else { Some("G") }))
        .collect();
    let messages = [
        json!({"type": "rules", "randomizer": "seven_bag"}),
        json!({"type": "start", "hold": null, "queue": ["L", "Z", "J", "S", "O", "T"], "combo": 0,
               "back_to_back": false, "board": board}),
        json!({"type": "suggest"}),
        play("L", "north", 8, 1),
        json!({"type": "new_piece", "piece": "I"}),
        json!({"type": "suggest"}),
        json!({"type": "quit"}),
    ];
    let (shipped, notes, code) = converse_with(&[], elsewhere.path(), &messages);
    assert_eq!((notes.as_str(), code), ("", 0));
    assert_eq!(shipped[0]["version"], "0.1.0 (weights/versus/tuned.toml)");
    assert_eq!(shipped.len(), 4);
    let file = "weights/versus/tuned.toml";
    let (named, _, _) = converse_with(&["--weights", file], &root(), &messages);
    assert_eq!(named[0]["version"], format!("0.1.0 ({file})"));
    assert_eq!(shipped[1..], named[1..]);
    // The tuned player lays the L flat on the right; the hand-set one holds it and plays the Z
    // there.
    let first = |lines: &[serde_json::Value]| lines[2]["moves"][0]["location"].clone();
    let at = |piece, x| json!({"type": piece, "orientation": "north", "x": x, "y": 1});
    assert_eq!(first(&shipped), at("L", 8));
    let (hand, _, _) = converse_with_the_bot(&messages);
    assert_eq!(first(&hand), at("Z", 8));
}

fn play(piece: &str, orientation: &str, x: i64, y: i64) -> serde_json::Value {
    json!({"type": "play", "move": {"location": {"type": piece, "orientation": orientation,
        "x": x, "y": y}, "spin": "none"}})
}

#[test]
fn the_tbp_bot_ignores_a_play_it_cannot_take_and_plays_on() {
    let board = vec![vec![serde_json::Value::Null; 10]; 40];
    let start = |queue: &[&str]| {
        json!({"type": "start", "hold": null, "queue": queue, "combo": 0,
               "back_to_back": false, "board": board})
    };
    let mut messages = vec![
        json!({"type": "rules", "randomizer": "seven_bag"}),
        start(&["T", "I", "O", "L", "J", "S"]),
    ];
    let off = [
        (50, 5),
        (-3, 5),
        (i32::MAX as i64, 5),
        (i32::MIN as i64, 5),
        (4, -5),
        (4, 45),
        (4, i32::MAX as i64),
        // 260 as an 8-bit number would be 4: never cut down to a board's numbers.
        (260, 1),
    ];
    for (x, y) in off {
        messages.push(play("T", "north", x, y));
    }
    // The O is neither the current piece nor the one a hold gives (the I).
    messages.push(play("O", "north", 4, 0));
    messages.push(json!({"type": "suggest"}));
    // Nothing left to play once a `start` gives an empty queue.
    messages.push(start(&[]));
    messages.push(play("T", "north", 4, 0));
    messages.push(json!({"type": "suggest"}));
    let (lines, notes, code) = converse_with_the_bot(&messages);
    assert_eq!(code, 0, "{notes}");
    let expected = [
        "tbp: ignored `play`: the T at x 50, y 5 (north) has a cell off the 10 × 40 board (x 49, y 5)",
        "tbp: ignored `play`: the T at x -3, y 5 (north) has a cell off the 10 × 40 board (x -4, y 5)",
        "tbp: ignored `play`: the T at x 2147483647, y 5 (north) has a cell off the 10 × 40 board (x 2147483646, y 5)",
        "tbp: ignored `play`: the T at x -2147483648, y 5 (north) has a cell off the 10 × 40 board (x -2147483648, y 5)",
        "tbp: ignored `play`: the T at x 4, y -5 (north) has a cell off the 10 × 40 board (x 3, y -5)",
        "tbp: ignored `play`: the T at x 4, y 45 (north) has a cell off the 10 × 40 board (x 3, y 45)",
        "tbp: ignored `play`: the T at x 4, y 2147483647 (north) has a cell off the 10 × 40 board (x 3, y 2147483647)",
        "tbp: ignored `play`: the T at x 260, y 1 (north) has a cell off the 10 × 40 board (x 259, y 1)",
        "tbp: ignored `play`: the O is neither the current piece (T) nor the one a hold gives (I)",
        "tbp: ignored `play`: there is no piece to play: the queue is empty",
    ];
    assert_eq!(notes.lines().collect::<Vec<_>>(), expected);
    // The position is the start's, untouched: the same move as on the empty board, then none.
    assert_eq!(lines[1], json!({"type": "ready"}));
    assert_eq!(
        lines[2]["moves"],
        json!([{"location": {"type": "I", "orientation": "north", "x": 1, "y": 0}, "spin": "none"}])
    );
    assert_eq!(lines[3]["moves"], json!([]));
    assert_eq!(lines.len(), 4);
}

/// A bot started by `versus` dies with it, however it ends: here by SIGKILL, which leaves no
/// code of stacktune's to run (the kernel ends the bot: PR_SET_PDEATHSIG).
#[cfg(target_os = "linux")]
#[test]
fn a_bot_does_not_outlive_a_killed_versus() {
    use std::process::{Command, Stdio};
    let dir = tempfile::tempdir().unwrap();
    let pid_file = dir.path().join("bot.pid");
    // A bot that says where it is, then never answers: versus waits for its `info`.
    let bot = format!(
        "tbp:sh -c 'echo $$ > {0}.part && mv {0}.part {0} && exec sleep 1000'",
        pid_file.display()
    );
    let mut versus = Command::new(env!("CARGO_BIN_EXE_stacktune"))
        .args(["versus", HAND, &bot, "--games", "2", "--quiet"])
        .current_dir(root())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    common::wait_while_running(&mut versus, "the bot started", || pid_file.exists());
    let pid: u32 = std::fs::read_to_string(&pid_file)
        .unwrap()
        .trim()
        .parse()
        .unwrap();
    versus.kill().unwrap();
    versus.wait().unwrap();
    // Gone, or a zombie waiting for init: either way no longer running. A bounded wait for
    // the kernel's signal, never a timed assertion on how soon.
    let running = || {
        std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|stat| {
            !stat
                .rsplit(')')
                .next()
                .unwrap()
                .trim_start()
                .starts_with('Z')
        })
    };
    let mut waited = 0;
    while running() && waited < 60_000 {
        std::thread::sleep(std::time::Duration::from_millis(5));
        waited += 5;
    }
    assert!(!running(), "the bot (pid {pid}) outlived the killed versus");
}

/// The flags of the recorded matches below: short games, one thread, so that pairs end in
/// order.
const RECORDED: [&str; 9] = [
    "--seed",
    "5",
    "--max-pieces",
    "150",
    "--threads",
    "1",
    "--json",
    "--quiet",
    "--record",
];

fn recorded(games: &str, record: &std::path::Path) -> std::process::Output {
    let args = [&["versus", HAND, HAND, "--games", games], &RECORDED[..]].concat();
    run(&[&args[..], &[record.to_str().unwrap()]].concat())
}

/// The pairs a record holds, in the order written.
fn pairs_in(record: &std::path::Path) -> Vec<u64> {
    let text = std::fs::read_to_string(record).unwrap();
    let mut lines = text.lines();
    let header: serde_json::Value = serde_json::from_str(lines.next().unwrap()).unwrap();
    assert_eq!(header["versus"]["seed"], json!(5));
    lines
        .map(|line| {
            serde_json::from_str::<serde_json::Value>(line).unwrap()[0]["pair"]
                .as_u64()
                .unwrap()
        })
        .collect()
}

#[test]
fn a_recorded_match_resumes_to_the_report_of_one_sitting() {
    let dir = tempfile::tempdir().unwrap();
    let record = dir.path().join("match.jsonl");
    let whole = versus(&["--games", "12", "--seed", "5", "--max-pieces", "150"]);
    let first = json(&recorded("6", &record));
    assert_eq!(first["games"], json!(6));
    assert_eq!(pairs_in(&record), [0, 1, 2]);
    // More games on the same record: only pairs 3 to 5 are played, and the report is the
    // twelve games' of one sitting, game by game.
    let resumed = json(&recorded("12", &record));
    assert_eq!(pairs_in(&record), [0, 1, 2, 3, 4, 5]);
    assert_eq!(resumed, whole);
    // A finished match read again plays nothing and writes nothing.
    let text = std::fs::read_to_string(&record).unwrap();
    assert_eq!(json(&recorded("12", &record)), whole);
    assert_eq!(std::fs::read_to_string(&record).unwrap(), text);
    // What it reports of a pair is the record's, not a game played again: a held pair's
    // result changed by hand shows.
    let edited = text.replacen(r#""result":"win""#, r#""result":"draw""#, 1);
    std::fs::write(&record, &edited).unwrap();
    let report = json(&recorded("12", &record));
    assert_eq!(
        report["draws"].as_u64(),
        Some(whole["draws"].as_u64().unwrap() + 1)
    );
}

#[test]
fn a_killed_match_resumes_from_its_record() {
    use std::process::{Command, Stdio};
    let dir = tempfile::tempdir().unwrap();
    let record = dir.path().join("match.jsonl");
    let args = [&["versus", HAND, HAND, "--games", "400"], &RECORDED[..]].concat();
    let mut killed = Command::new(env!("CARGO_BIN_EXE_stacktune"))
        .args(&args)
        .arg(&record)
        .current_dir(root())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // Each pair is in the file as it ends, long before the match does.
    common::wait_while_running(&mut killed, "two pairs were recorded", || {
        std::fs::read_to_string(&record).is_ok_and(|text| text.lines().count() >= 3)
    });
    killed.kill().unwrap();
    killed.wait().unwrap();
    let held = pairs_in(&record);
    assert!(held.len() >= 2 && held.len() < 200, "{held:?}");
    assert_eq!(held, (0..held.len() as u64).collect::<Vec<_>>());
    let resumed = json(&recorded("12", &record));
    let whole = versus(&["--games", "12", "--seed", "5", "--max-pieces", "150"]);
    assert_eq!(resumed, whole);
}

#[test]
fn a_record_of_another_match_or_none_is_refused_and_left_alone() {
    let dir = tempfile::tempdir().unwrap();
    let record = dir.path().join("match.jsonl");
    assert!(recorded("2", &record).status.success());
    let text = std::fs::read_to_string(&record).unwrap();
    let path = record.to_str().unwrap();
    let another = [
        "versus",
        HAND,
        HAND,
        "--games",
        "2",
        "--seed",
        "6",
        "--max-pieces",
        "150",
        "--quiet",
        "--record",
        path,
    ];
    common::assert_one_line_error(&run(&another), "records another match");
    let page = dir.path().join("replay.html");
    let replay = [
        &["versus", HAND, HAND, "--games", "2"],
        &RECORDED[..],
        &[path, "--replay-html", page.to_str().unwrap()],
    ]
    .concat();
    common::assert_one_line_error(&run(&replay), "holds without its moves");
    assert!(!page.exists());
    assert_eq!(std::fs::read_to_string(&record).unwrap(), text);
    for (bad, needle) in [
        ("# notes\n".to_string(), "not a versus record"),
        (String::new(), "not a versus record"),
        (text.trim_end().to_string(), "line 2 is cut short"),
        (text.clone() + "[1, 2]\n", "line 3: not a pair of games"),
        (
            text.clone() + text.lines().nth(1).unwrap() + "\n",
            "line 3: pair 0 again",
        ),
    ] {
        std::fs::write(&record, &bad).unwrap();
        common::assert_one_line_error(&recorded("2", &record), needle);
        assert_eq!(std::fs::read_to_string(&record).unwrap(), bad);
    }
}
