//! The bot side of TBP (`tbp::bot::serve`) in conversations: JSON text in, JSON text out,
//! compared as parsed values, and what the engine behind it was told, call by call.

use serde_json::{Value, json};
use stacktune_tbp::bot::{Brain, serve_with_notes};
use stacktune_tbp::messages::{
    Cell, Info, Move, MoveInfo, Orientation, Piece, RandomizerState, Rules, Spin, Start, Suggestion,
};

/// A brain that writes down every call and always suggests the same two moves.
#[derive(Default)]
struct Recorder {
    calls: Vec<String>,
    refuse: bool,
}

fn fixed_move(piece: Piece, orientation: Orientation, x: i32, y: i32) -> Move {
    Move {
        location: stacktune_tbp::messages::Location {
            piece,
            orientation,
            x,
            y,
        },
        spin: Spin::None,
    }
}

impl Brain for Recorder {
    fn info(&self) -> Info {
        Info {
            name: "recorder".into(),
            version: "1".into(),
            author: "stacktune tests".into(),
            features: vec![],
        }
    }
    fn rules(&mut self, rules: &Rules) -> Result<(), String> {
        self.calls.push(format!("rules {:?}", rules.randomizer));
        match self.refuse {
            true => Err("unsupported_rules".into()),
            false => Ok(()),
        }
    }
    fn start(&mut self, start: &Start) {
        let filled: Vec<String> = (0..40)
            .flat_map(|y| (0..10).map(move |x| (x, y)))
            .filter_map(|(x, y)| start.board.rows[y][x].map(|c| format!("{c:?}@{x},{y}")))
            .collect();
        self.calls.push(format!(
            "start hold {:?} queue {:?} combo {} b2b {} cells [{}] randomizer {:?}",
            start.hold,
            start.queue,
            start.combo,
            start.back_to_back,
            filled.join(" "),
            start.randomizer
        ));
    }
    fn suggest(&mut self) -> Suggestion {
        self.calls.push("suggest".into());
        Suggestion {
            moves: vec![
                fixed_move(Piece::T, Orientation::North, 4, 0),
                fixed_move(Piece::I, Orientation::East, 0, 2),
            ],
            move_info: Some(MoveInfo {
                nodes: Some(12),
                depth: Some(1),
                extra: Some("fixed".into()),
                ..MoveInfo::default()
            }),
        }
    }
    fn play(&mut self, mv: &Move) -> Result<(), String> {
        let l = mv.location;
        self.calls.push(format!(
            "play {:?} {:?} {},{} {:?}",
            l.piece, l.orientation, l.x, l.y, mv.spin
        ));
        Ok(())
    }
    fn new_piece(&mut self, piece: Piece) {
        self.calls.push(format!("new_piece {piece:?}"));
    }
    fn stop(&mut self) {
        self.calls.push("stop".into());
    }
}

/// What the bot wrote, as values; what its brain was told; its notes.
struct Transcript {
    out: Vec<Value>,
    calls: Vec<String>,
    notes: String,
}

fn converse_with(brain: &mut Recorder, input: &str) -> Transcript {
    let mut out = Vec::new();
    let mut notes = Vec::new();
    serve_with_notes(input.as_bytes(), &mut out, &mut notes, brain).unwrap();
    let out = String::from_utf8(out).unwrap();
    assert!(out.ends_with('\n'), "every message ends its line: {out:?}");
    Transcript {
        out: out
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect(),
        calls: std::mem::take(&mut brain.calls),
        notes: String::from_utf8(notes).unwrap(),
    }
}

fn converse(input: &str) -> Transcript {
    converse_with(&mut Recorder::default(), input)
}

/// The `info` every conversation opens with.
fn info() -> Value {
    json!({"type": "info", "name": "recorder", "version": "1", "author": "stacktune tests", "features": []})
}

fn suggestion() -> Value {
    json!({"type": "suggestion", "moves": [
        {"location": {"type": "T", "orientation": "north", "x": 4, "y": 0}, "spin": "none"},
        {"location": {"type": "I", "orientation": "east", "x": 0, "y": 2}, "spin": "none"}],
        "move_info": {"nodes": 12, "depth": 1, "extra": "fixed"}})
}

fn empty_board() -> Value {
    json!(vec![vec![Value::Null; 10]; 40])
}

/// `start` on an empty board with `queue`, and whatever else `extra` adds.
fn start(queue: &[&str], extra: Value) -> String {
    let mut start = json!({"type": "start", "hold": null, "queue": queue, "combo": 0,
        "back_to_back": false, "board": empty_board()});
    for (k, v) in extra.as_object().unwrap() {
        start[k] = v.clone();
    }
    start.to_string()
}

/// Lines joined as a front end sends them.
fn script(lines: &[&str]) -> String {
    lines.iter().map(|l| format!("{l}\n")).collect()
}

const RULES: &str = r#"{"type":"rules"}"#;

/// The whole lifecycle of the spec (tests/data/tbp/lifecycle.txt): two games, the second from a
/// board with garbage, hold and combo, ended by `quit` (what follows it is not read).
#[test]
fn a_whole_session_follows_the_specs_lifecycle() {
    let text = std::fs::read_to_string("tests/data/tbp/lifecycle.txt").unwrap();
    let input: String = text
        .lines()
        .filter_map(|l| l.strip_prefix("> "))
        .map(|l| format!("{l}\n"))
        .collect();
    let expected: Vec<Value> = text
        .lines()
        .filter_map(|l| l.strip_prefix("< "))
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let t = converse(&input);
    assert_eq!(t.out, expected);
    assert_eq!(
        t.calls,
        [
            "rules SevenBag",
            "start hold None queue [T, I, O, L, J, S] combo 0 b2b false cells [] randomizer \
             Some(SevenBag { bag_state: [Z] })",
            "suggest",
            "play T North 4,0 None",
            "new_piece Z",
            "suggest",
            "play I East 0,2 None",
            "new_piece T",
            "stop",
            "start hold Some(S) queue [Z, T] combo 3 b2b true cells [G@0,0 G@1,0 T@9,1 I@4,39] \
             randomizer None",
            "suggest",
            "play S West 1,2 Mini",
            "stop",
        ]
    );
    assert_eq!(t.notes, "");
}

#[test]
fn info_comes_first_even_with_no_input() {
    let t = converse("");
    assert_eq!(t.out, [info()]);
    assert!(t.calls.is_empty());
}

#[test]
fn rules_are_answered_with_ready() {
    let t = converse(&script(&[RULES]));
    assert_eq!(t.out, [info(), json!({"type": "ready"})]);
    // No `randomizer`: unknown, as the spec says; an unknown name likewise.
    assert_eq!(t.calls, ["rules Unknown"]);
    let t = converse(&script(&[r#"{"type":"rules","randomizer":"tgm_history"}"#]));
    assert_eq!(t.calls, ["rules Unknown"]);
    let t = converse(&script(&[r#"{"type":"rules","randomizer":"uniform"}"#]));
    assert_eq!(t.calls, ["rules Uniform"]);
}

/// A brain that cannot play the rules sends `error`; the bot then waits for other rules.
#[test]
fn rules_a_brain_refuses_are_answered_with_error() {
    let mut brain = Recorder {
        refuse: true,
        ..Recorder::default()
    };
    let input = script(&[RULES, &start(&["T"], json!({})), r#"{"type":"suggest"}"#]);
    let t = converse_with(&mut brain, &input);
    assert_eq!(
        t.out,
        [
            info(),
            json!({"type": "error", "reason": "unsupported_rules"})
        ]
    );
    assert_eq!(t.calls, ["rules Unknown"]);
    assert_eq!(
        t.notes,
        "tbp: ignored `start`: no rules were accepted yet\n\
         tbp: ignored `suggest`: no game is going (no `start`)\n"
    );
}

/// `start` reaches the brain with its board read row 0 at the bottom, and every randomizer
/// state of spec 0001.
#[test]
fn start_passes_the_position_and_the_randomizer_state() {
    let mut board = vec![vec![Value::Null; 10]; 40];
    board[0][9] = json!("G");
    board[2][3] = json!("L");
    let general = json!({"type": "general_bag",
        "current_bag": {"I": 2, "O": 1, "L": 0, "J": 0, "S": 0, "Z": 0, "T": 0},
        "filled_bag": {"I": 2, "O": 1, "L": 1, "J": 3, "S": 0, "Z": 0, "T": 1}});
    let input = script(&[
        RULES,
        &start(
            &["O", "J"],
            json!({"hold": "I", "combo": 2, "back_to_back": true, "board": board, "randomizer": general}),
        ),
        &start(&["S"], json!({"randomizer": {"type": "uniform"}})),
        &start(&["S"], json!({"randomizer": {"type": "pity_bag", "n": 3}})),
    ]);
    let t = converse(&input);
    assert_eq!(t.out, [info(), json!({"type": "ready"})]);
    let bags = "current_bag: {I: 2, O: 1, T: 0, L: 0, J: 0, S: 0, Z: 0}, \
                filled_bag: {I: 2, O: 1, T: 1, L: 1, J: 3, S: 0, Z: 0}";
    assert_eq!(
        t.calls[1..],
        [
            format!(
                "start hold Some(I) queue [O, J] combo 2 b2b true cells [G@9,0 L@3,2] \
                 randomizer Some(GeneralBag {{ {bags} }})"
            ),
            "start hold None queue [S] combo 0 b2b false cells [] randomizer Some(Uniform)".into(),
            "start hold None queue [S] combo 0 b2b false cells [] randomizer Some(Unknown)".into(),
            "stop".into(),
        ]
    );
}

#[test]
fn suggest_is_answered_with_the_brains_moves_in_order() {
    let input = script(&[RULES, &start(&["T"], json!({})), r#"{"type":"suggest"}"#]);
    let t = converse(&input);
    assert_eq!(t.out, [info(), json!({"type": "ready"}), suggestion()]);
    assert_eq!(t.calls[2], "suggest");
}

#[test]
fn play_and_new_piece_reach_the_brain_without_an_answer() {
    let input = script(&[
        RULES,
        &start(&["T", "O"], json!({})),
        r#"{"type":"play","move":{"location":{"type":"O","orientation":"south","x":5,"y":1},"spin":"none"}}"#,
        r#"{"type":"play","move":{"location":{"type":"T","orientation":"south","x":1,"y":1},"spin":"full"}}"#,
        r#"{"type":"new_piece","piece":"J"}"#,
    ]);
    let t = converse(&input);
    assert_eq!(t.out, [info(), json!({"type": "ready"})]);
    assert_eq!(
        t.calls[2..],
        [
            "play O South 5,1 None",
            "play T South 1,1 Full",
            "new_piece J",
            // End of input ends the game the bot was calculating.
            "stop"
        ]
    );
}

/// After `stop`, `suggest`, `play` and `new_piece` are out of place until the next `start`.
#[test]
fn stop_ends_the_game_until_the_next_start() {
    let input = script(&[
        RULES,
        &start(&["T"], json!({})),
        r#"{"type":"stop"}"#,
        r#"{"type":"suggest"}"#,
        r#"{"type":"new_piece","piece":"J"}"#,
        r#"{"type":"stop"}"#,
        &start(&["Z"], json!({})),
        r#"{"type":"suggest"}"#,
    ]);
    let t = converse(&input);
    assert_eq!(t.out, [info(), json!({"type": "ready"}), suggestion()]);
    assert_eq!(t.calls[2], "stop");
    assert!(t.calls[3].starts_with("start hold None queue [Z]"));
    assert_eq!(t.calls[4..], ["suggest", "stop"]);
    assert_eq!(
        t.notes,
        "tbp: ignored `suggest`: no game is going (no `start`)\n\
         tbp: ignored `new_piece`: no game is going (no `start`)\n"
    );
}

/// `quit` ends the bot at once; nothing after it is read.
#[test]
fn quit_ends_the_conversation() {
    let input = script(&[RULES, r#"{"type":"quit"}"#, RULES]);
    let t = converse(&input);
    assert_eq!(t.out, [info(), json!({"type": "ready"})]);
    assert_eq!(t.calls, ["rules Unknown"]);
}

/// Spec: "Messages with an unrecognized type should be ignored" — without a note.
#[test]
fn unknown_message_types_are_ignored() {
    let input = script(&[
        r#"{"type":"hello","version":2}"#,
        RULES,
        r#"{"type":"garbage","lines":3}"#,
        &start(&["T"], json!({})),
        r#"{"type":"think_harder"}"#,
        r#"{"type":"suggest"}"#,
    ]);
    let t = converse(&input);
    assert_eq!(t.out, [info(), json!({"type": "ready"}), suggestion()]);
    assert_eq!(t.calls.len(), 4);
    assert_eq!(t.notes, "");
}

/// Spec: "Unrecognized attributes should also be ignored": every message with attributes of
/// a later extension plays as it plays without them.
#[test]
fn unknown_attributes_are_ignored() {
    let plain = script(&[
        RULES,
        &start(&["T", "O"], json!({})),
        r#"{"type":"suggest"}"#,
        r#"{"type":"play","move":{"location":{"type":"T","orientation":"west","x":1,"y":1},"spin":"none"}}"#,
        r#"{"type":"new_piece","piece":"L"}"#,
        r#"{"type":"stop"}"#,
        r#"{"type":"quit"}"#,
    ]);
    let extended = script(&[
        r#"{"type":"rules","randomizer":"unknown","garbage_multiplier":1.5}"#,
        &start(
            &["T", "O"],
            json!({"pending_garbage": [3, 1], "board_width": 10}),
        ),
        r#"{"type":"suggest","deadline_ms":100}"#,
        r#"{"type":"play","move":{"location":{"type":"T","orientation":"west","x":1,"y":1,"path":["left"]},"spin":"none","soft_drop":true}}"#,
        r#"{"type":"new_piece","piece":"L","index":7}"#,
        r#"{"type":"stop","reason":"lost"}"#,
        r#"{"type":"quit","now":true}"#,
    ]);
    let (a, b) = (converse(&plain), converse(&extended));
    assert_eq!(a.out, b.out);
    assert_eq!(a.calls, b.calls);
    assert_eq!(a.calls.len(), 6);
    assert_eq!(b.notes, "");
}

/// A line that is not a message is ignored with a note naming it, and the session goes on.
#[test]
fn malformed_lines_are_noted_and_skipped() {
    let mut long = "x".repeat(1 << 20);
    long.push_str("tail");
    let input = [
        "not json at all\n",
        "\n",
        "[1, 2, 3]\n",
        "{\"type\": 7}\n",
        "{\"type\":\"play\"}\n",
        "{\"type\":\"new_piece\",\"piece\":\"X\"}\n",
        &(long + "\n"),
        "{\"type\":\"rules\"",
        "}\n",
    ]
    .concat();
    let mut input = input.into_bytes();
    input.extend_from_slice(b"\xff\n");
    input.extend_from_slice(start(&["T"], json!({"board": [vec![Value::Null; 10]]})).as_bytes());
    input.extend_from_slice(b"\n{\"type\":\"suggest\"}\n");
    let mut brain = Recorder::default();
    let mut out = Vec::new();
    let mut notes = Vec::new();
    serve_with_notes(&input[..], &mut out, &mut notes, &mut brain).unwrap();
    let out: Vec<Value> = String::from_utf8(out)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(out, [info(), json!({"type": "ready"})]);
    assert_eq!(brain.calls, ["rules Unknown"]);
    let notes = String::from_utf8(notes).unwrap();
    let notes: Vec<&str> = notes.lines().collect();
    assert_eq!(notes.len(), 9, "{notes:#?}");
    assert_eq!(
        notes[0],
        "tbp: ignored a line that is not a TBP message (expected ident at line 1 column 2): \
         not json at all"
    );
    assert!(notes[1].ends_with(": [1, 2, 3]"), "{}", notes[1]);
    assert!(notes[2].contains(r#"{"type": 7}"#), "{}", notes[2]);
    assert!(notes[3].contains("missing field `move`"), "{}", notes[3]);
    assert!(notes[4].contains("unknown variant `X`"), "{}", notes[4]);
    assert!(
        notes[5].starts_with("tbp: ignored a line longer than a megabyte: xxx"),
        "{}",
        notes[5]
    );
    assert_eq!(notes[6], "tbp: ignored a line that is not UTF-8: \u{fffd}");
    assert!(
        notes[7].contains("a board has 40 rows, not 1"),
        "{}",
        notes[7]
    );
    // With the start ignored, no game is going.
    assert_eq!(
        notes[8],
        "tbp: ignored `suggest`: no game is going (no `start`)"
    );
}

/// A front end that goes away mid-game ends the bot as `quit` would, after the brain's `stop`.
#[test]
fn end_of_input_mid_game_stops_the_brain() {
    let input = script(&[RULES, &start(&["T"], json!({})), r#"{"type":"suggest"}"#]);
    // The last line has no line break: it still counts.
    let t = converse(input.trim_end());
    assert_eq!(t.out.len(), 3);
    assert_eq!(t.calls[2..], ["suggest", "stop"]);
}

/// Cells read back at the coordinates they were written to.
#[test]
fn board_rows_count_from_the_bottom() {
    let mut board = vec![vec![Value::Null; 10]; 40];
    board[39][0] = json!("Z");
    let start: Start = serde_json::from_value(json!({"hold": null, "queue": [], "combo": 0,
        "back_to_back": false, "board": board}))
    .unwrap();
    assert_eq!(start.board.rows[39][0], Some(Cell::Z));
    assert_eq!(
        start.board.rows.iter().flatten().flatten().count(),
        1,
        "one cell filled"
    );
    assert_eq!(start.randomizer, None::<RandomizerState>);
}
