//! The Puyo Bot Protocol's bot side (`stacktune pbp --weights FILE`) and the two sides
//! together: a weights file behind the protocol plays exactly as it does in `versus` itself
//! ([docs/puyo-bot-protocol.md](../../docs/puyo-bot-protocol.md)).

use crate::common::{assert_one_line_error, run, stdout};
use std::io::Write;
use std::process::{Command, Stdio};

/// `versus first second` on `seed`, as its report's lines.
fn report(first: &str, second: &str, seed: &str) -> Vec<String> {
    let out = run(&[
        "versus",
        first,
        second,
        "--games",
        "10",
        "--seed",
        seed,
        "--quiet",
        "--threads",
        "2",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    stdout(&out).lines().map(String::from).collect()
}

/// A solo file and one that reads the match, served by `stacktune pbp`, give the very report
/// lines they give as files (but the line naming the second player): the state the protocol
/// carries is the whole view a side chooses from.
#[test]
fn a_weights_file_behind_the_protocol_plays_as_the_file_itself() {
    let stacktune = env!("CARGO_BIN_EXE_stacktune");
    for (first, second, seed) in [
        (
            "weights/puyo/versus-hand.toml",
            "weights/puyo/hand.toml",
            "5",
        ),
        (
            "weights/puyo/tsu-2ply.toml",
            "weights/puyo/versus-hand.toml",
            "3",
        ),
    ] {
        let direct = report(first, second, seed);
        let bot = format!("pbp:{stacktune} pbp --weights {second}");
        let served = report(first, &bot, seed);
        assert_eq!(served[1], format!("second    {bot}"));
        let without_names = |r: &[String]| [&r[..1], &r[2..]].concat();
        assert_eq!(
            without_names(&served),
            without_names(&direct),
            "{first} {second}"
        );
        // The matches are real ones: both sides win games.
        assert!(
            direct
                .iter()
                .any(|l| l.starts_with("ended") && l.contains("first filled"))
        );
        assert!(
            direct
                .iter()
                .any(|l| l.starts_with("ended") && l.contains("second "))
        );
    }
}

/// The bot answers `info`, refuses rules it cannot play with `error`, plays a placement in
/// both namings, and notes what it ignores on standard error without ending.
#[test]
fn the_bot_refuses_other_rules_and_notes_what_it_ignores() {
    let field = format!("[{}]", vec!["\"......\""; 13].join(","));
    let board = format!(r#"{{"field":{field},"queue":["11","22","33"]}}"#);
    let state = format!(
        r#"{{"type":"start","frame":0,"pairs":[0,0],"target_points":70,"own":{board},"pending":0,"fixed":0,"carry":0,"all_clear":false,"last_sent":0,"opponent":{board},"opponent_chain_ends":null}}"#
    );
    let rules = |colours: u32| {
        format!(
            r#"{{"type":"rules","protocol":1,"colours":{colours},"rows":13,"target_points":70,"margin_pairs":103,"margin_every":17,"nuisance_cap":30,"all_clear_nuisance":30}}"#
        )
    };
    let input = [
        rules(5),
        "{\"type\":\"suggest\"}".to_string(),
        "not json".to_string(),
        rules(4),
        state,
        "{\"type\":\"suggest\"}".to_string(),
        "{\"type\":\"quit\"}".to_string(),
    ]
    .join("\n");
    let mut child = Command::new(env!("CARGO_BIN_EXE_stacktune"))
        .args(["pbp", "--weights", "weights/puyo/hand.toml"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    let said: Vec<serde_json::Value> = stdout(&out)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(said.len(), 4, "{said:?}");
    assert_eq!(said[0]["type"], "info");
    assert_eq!(said[0]["protocol"], 1);
    assert_eq!(
        said[1],
        serde_json::json!({"type": "error", "reason": "this bot plays 4 colours on 13 rows, not 5 on 13"})
    );
    assert_eq!(said[2], serde_json::json!({"type": "ready"}));
    assert_eq!(said[3]["type"], "suggestion");
    let mv = &said[3]["moves"][0];
    let (column, x) = (mv["column"].as_u64().unwrap(), mv["x"].as_u64().unwrap());
    assert_eq!(x, column + 1);
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "pbp: ignored `suggest`: no game is going (no `start`)\n\
         pbp: ignored a line that is not a PBP message (expected ident at line 1 column 2): not json\n"
    );
}

/// A bot can only play second (the first player's file gives the battle), and a bot that
/// cannot start is refused before any game, each in one line.
#[test]
fn a_bot_first_or_one_that_cannot_start_is_refused_in_one_line() {
    let hand = "weights/puyo/hand.toml";
    let out = run(&["versus", "pbp:stacktune pbp --weights x.toml", hand]);
    assert_one_line_error(&out, "the first player of a puyo match is a weights file");
    let out = run(&["versus", hand, "pbp:/nonexistent/bot"]);
    assert_one_line_error(
        &out,
        "player `pbp:/nonexistent/bot`: cannot start the bot `/nonexistent/bot`",
    );
}
