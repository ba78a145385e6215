//! The Puyo Bot Protocol's front end (`versus A.toml "pbp:COMMAND"`) against a scripted fake
//! bot: what the bot is told, and a bot that crashes, stalls, prints garbage or names a
//! placement off the field losing its games with the reason while the match goes on.
//!
//! This test binary is also the fake bot: run as `pbp_client --fake-bot MODE [LOG]` it speaks
//! PBP on its standard input and output, written line by line here rather than with the
//! library's types, so the front end is tried against an independent bot. libtest's harness
//! prints on standard output before any test runs, which would be the bot's first line; so
//! this target has `harness = false` and the small runner of `common::bots`.

#[path = "integration/common/mod.rs"]
mod common;
use common::bots::{Test, fake_bot_player, test_main, versus_report};
use serde_json::{Value, json};
use std::io::{BufRead, Write};

/// The fake bot: `info`, `ready` to any rules, and to each `suggest` by `mode`. A good answer
/// places the pair upright (child above) in column `pairs placed % 6`; with a `log`, every
/// line received is appended to it.
fn run_fake_bot(mode: &str, log: Option<&str>) {
    let mut out = std::io::stdout().lock();
    let mut say = |v: Value| {
        writeln!(out, "{v}").unwrap();
        out.flush().unwrap();
    };
    let mut log = log.map(|path| {
        std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .unwrap()
    });
    say(
        json!({"type": "info", "name": "fake", "version": "1", "author": "stacktune tests",
        "protocol": 1}),
    );
    let mut placed = 0;
    for line in std::io::stdin().lock().lines().map(Result::unwrap) {
        if let Some(log) = log.as_mut() {
            writeln!(log, "{line}").unwrap();
        }
        let message: Value = serde_json::from_str(&line).unwrap();
        match message["type"].as_str().unwrap() {
            "rules" => say(json!({"type": "ready"})),
            "start" | "update" => placed = message["pairs"][0].as_u64().unwrap(),
            "suggest" => match mode {
                "crash" => std::process::exit(3),
                "stall" => {}
                "garbage" => say(json!("I think the pair goes left")),
                "off-field" => say(json!({"type": "suggestion", "moves": [{"x": 7, "r": 0}]})),
                _ => say(json!({"type": "suggestion", "moves": [{"x": placed % 6 + 1, "r": 0}]})),
            },
            "quit" => return,
            _ => {}
        }
    }
}

/// `versus` of the hand-set match weights against the fake bot in `mode` (its log at `log`):
/// the JSON report.
fn versus_against(mode: &str, log: Option<&std::path::Path>, flags: &[&str]) -> Value {
    let log = log.map(|l| l.display().to_string());
    let bot = fake_bot_player("pbp", mode, &log.as_deref().into_iter().collect::<Vec<_>>());
    versus_report(
        "weights/puyo/versus-hand.toml",
        &bot,
        &[&["--threads", "1"], flags].concat(),
    )
}

/// The bot hears Tsu's rules, then `start` with both empty fields (13 rows, top first) and
/// the three pairs both sides share, then after each `play` (its own placement, named both
/// ways) an `update` whose field holds that pair where it was put and whose queue moved on.
fn the_bot_is_told_the_rules_and_each_turn_its_own_placement_and_pairs() {
    let dir = std::env::temp_dir().join(format!("pbp-client-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let log = dir.join("told.jsonl");
    let report = versus_against("good", Some(&log), &["--games", "2", "--max-pieces", "3"]);
    assert_eq!(report["games"], json!(2));
    let told: Vec<Value> = std::fs::read_to_string(&log)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    std::fs::remove_dir_all(&dir).unwrap();
    // The launch that checks the bot starts, then one launch a game.
    let rules = json!({"type": "rules", "protocol": 1, "colours": 4, "rows": 13,
        "target_points": 70, "margin_pairs": 103, "margin_every": 17, "nuisance_cap": 30,
        "all_clear_nuisance": 30});
    assert_eq!(told[0], rules);
    assert_eq!(told[1], rules);
    let start = &told[2];
    assert_eq!(start["type"], "start");
    let empty = json!(vec!["......"; 13]);
    assert_eq!(start["own"]["field"], empty);
    assert_eq!(start["opponent"]["field"], empty);
    assert_eq!(start["own"]["queue"], start["opponent"]["queue"]);
    assert_eq!(start["own"]["queue"].as_array().unwrap().len(), 3);
    assert_eq!(
        (&start["frame"], &start["pairs"], &start["target_points"]),
        (&json!(0), &json!([0, 0]), &json!(70))
    );
    assert_eq!(
        (&start["pending"], &start["fixed"], &start["all_clear"]),
        (&json!(0), &json!(0), &json!(false))
    );
    assert_eq!(told[3], json!({"type": "suggest"}));
    assert_eq!(
        told[4],
        json!({"type": "play", "move": {"column": 0, "rotation": 1, "x": 1, "r": 0}})
    );
    let update = &told[5];
    assert_eq!(update["type"], "update");
    assert_eq!(update["pairs"][0], json!(1));
    let pair = start["own"]["queue"][0].as_str().unwrap().as_bytes();
    let field = update["own"]["field"].as_array().unwrap();
    let cell = |row: usize| field[row].as_str().unwrap().as_bytes()[0];
    assert_eq!((cell(12), cell(11), cell(10)), (pair[0], pair[1], b'.'));
    assert_eq!(update["own"]["queue"][0], start["own"]["queue"][1]);
    assert_eq!(update["own"]["queue"][1], start["own"]["queue"][2]);
    assert_eq!(
        told[7],
        json!({"type": "play", "move": {"column": 1, "rotation": 1, "x": 2, "r": 0}})
    );
}

/// A bot that crashes, stalls, prints garbage or names a column off the field loses each game
/// with the fault as its reason, and the match goes on to its next game (each game starts
/// the bot afresh).
fn a_failing_bot_loses_each_game_with_the_reason() {
    for (mode, flags, reason) in [
        (
            "crash",
            &[][..],
            "second the bot ended (exit status: 3) while waiting for `suggestion`",
        ),
        (
            "stall",
            &["--timeout-ms", "300"][..],
            "second the bot sent no `suggestion` within 300 ms",
        ),
        (
            "garbage",
            &[][..],
            "second the bot sent a line that is not a PBP message (invalid type: string \"I think the pair goes left\", expected internally tagged enum BotMessage at line 1 column 28): \"I think the pair goes left\"",
        ),
        (
            "off-field",
            &[][..],
            "second the bot suggested no valid move (1 suggested)",
        ),
    ] {
        let report = versus_against(mode, None, &[&["--games", "4"], flags].concat());
        assert_eq!(
            (report["wins"].as_u64(), report["losses"].as_u64()),
            (Some(4), Some(0)),
            "{mode}"
        );
        assert_eq!(report["endings"], json!({ reason: 4 }), "{mode}");
    }
}

const TESTS: &[Test] = &[
    (
        "the_bot_is_told_the_rules_and_each_turn_its_own_placement_and_pairs",
        the_bot_is_told_the_rules_and_each_turn_its_own_placement_and_pairs,
    ),
    (
        "a_failing_bot_loses_each_game_with_the_reason",
        a_failing_bot_loses_each_game_with_the_reason,
    ),
];

fn main() {
    test_main(TESTS, |mode, rest| {
        run_fake_bot(mode, rest.first().map(String::as_str))
    });
}
