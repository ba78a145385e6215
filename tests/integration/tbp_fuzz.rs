//! Fuzzing both sides of TBP with what a peer program might send: the lifecycle's lines
//! (tests/data/tbp/lifecycle.txt) under the structured mutations of `common::fuzz`. The
//! property: the bot driver answers only with well-formed messages and notes the rest, the
//! front end returns a result or a one-line fault; neither panics.
//!
//! 1,000 cases a side by default; `PROPTEST_CASES=10000` runs more. The real bot
//! (`stacktune tbp`'s brain, the hand-set guideline weights) also takes conversations of
//! [`MESSAGES`] messages each built from the spec's messages with any values (locations
//! anywhere in `i32`, any queue, hold and board): 1,000 conversations (20,000 messages) a CI
//! run; `PROPTEST_CASES=50000` is the long run of 1,000,000 messages.

use crate::common::fuzz::{cases, edits, mutate};
use proptest::prelude::*;
use stacktune_tbp::bot::{Brain, serve_with_notes};
use stacktune_tbp::client::Bot;
use stacktune_tbp::messages::{
    Board, Info, Move, Piece, Rules, Start, Suggestion, UNSUPPORTED_RULES,
};
use std::time::Duration;

/// Messages in one conversation with the real bot.
const MESSAGES: usize = 20;

/// A coordinate: mostly near the board, sometimes anywhere an `i32` reaches.
fn coordinate() -> impl Strategy<Value = i64> {
    prop_oneof![
        4 => -4i64..44,
        1 => any::<i32>().prop_map(i64::from),
        1 => prop::sample::select(vec![i32::MIN as i64, i32::MAX as i64, 50, -3, 45, -5, 260]),
    ]
}

fn piece_name() -> impl Strategy<Value = &'static str> {
    prop::sample::select(vec!["I", "O", "T", "L", "J", "S", "Z"])
}

/// One front end message as JSON, any of the spec's with any values.
fn message() -> impl Strategy<Value = serde_json::Value> {
    use serde_json::json;
    let orientation = prop::sample::select(vec!["north", "east", "south", "west"]);
    let spin = prop::sample::select(vec!["none", "mini", "full"]);
    let play = (piece_name(), orientation, coordinate(), coordinate(), spin).prop_map(
        |(p, o, x, y, s)| {
            json!({"type": "play", "move": {"location": {"type": p, "orientation": o, "x": x, "y": y}, "spin": s}})
        },
    );
    let row = prop::collection::vec(prop::option::of(Just("G")), 10);
    let start = (
        prop::option::of(piece_name()),
        prop::collection::vec(piece_name(), 0..20),
        any::<u32>(),
        any::<bool>(),
        prop::collection::vec(row, 40),
    )
        .prop_map(|(hold, queue, combo, b2b, board)| {
            json!({"type": "start", "hold": hold, "queue": queue, "combo": combo,
                   "back_to_back": b2b, "board": board})
        });
    prop_oneof![
        1 => Just(json!({"type": "rules", "randomizer": "seven_bag"})),
        2 => start,
        4 => Just(json!({"type": "suggest"})),
        6 => play,
        3 => piece_name().prop_map(|p| json!({"type": "new_piece", "piece": p})),
        1 => Just(json!({"type": "stop"})),
    ]
}

/// The lines one side of the lifecycle sends (`>` the front end, `<` the bot).
fn lifecycle(side: &str) -> String {
    let text = std::fs::read_to_string("tests/data/tbp/lifecycle.txt").unwrap();
    text.lines()
        .filter_map(|l| l.strip_prefix(side))
        .map(|l| format!("{l}\n"))
        .collect()
}

/// A brain that accepts rules only when they name a randomizer, and suggests its queue's
/// first piece.
#[derive(Default)]
struct Echo {
    queue: Vec<Piece>,
}

impl Brain for Echo {
    fn info(&self) -> Info {
        Info::default()
    }
    fn rules(&mut self, rules: &Rules) -> Result<(), String> {
        match rules.randomizer {
            stacktune_tbp::messages::Randomizer::Unknown => Err(UNSUPPORTED_RULES.into()),
            _ => Ok(()),
        }
    }
    fn start(&mut self, start: &Start) {
        self.queue = start.queue.clone();
    }
    fn suggest(&mut self) -> Suggestion {
        Suggestion {
            moves: vec![],
            move_info: None,
        }
    }
    fn play(&mut self, _: &Move) -> Result<(), String> {
        if !self.queue.is_empty() {
            self.queue.remove(0);
        }
        Ok(())
    }
    fn new_piece(&mut self, piece: Piece) {
        self.queue.push(piece);
    }
    fn stop(&mut self) {}
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(1_000), ..ProptestConfig::default() })]

    #[test]
    fn the_real_bot_survives_any_conversation(
        messages in prop::collection::vec(message(), MESSAGES),
    ) {
        use stacktune_tbp::bot::{Bot as Driver, Reply};
        let file = stacktune_players::weights::WeightFile::load(
            &crate::common::root().join("weights/versus/hand.toml"),
        )
        .unwrap();
        let brain = stacktune_players::registry::tbp_brain(&file, "hand".into()).unwrap();
        let mut bot = Driver::new(brain);
        let mut notes = Vec::new();
        for m in &messages {
            match bot.receive(&m.to_string(), &mut notes) {
                Reply::Send(stacktune_tbp::messages::BotMessage::Suggestion(s)) => {
                    // Every move suggested lies on the board.
                    for mv in &s.moves {
                        for (x, y) in mv.location.cells() {
                            prop_assert!((0..10).contains(&x) && (0..40).contains(&y), "{:?}", mv);
                        }
                    }
                }
                Reply::Send(_) | Reply::Nothing | Reply::Quit => {}
            }
        }
        let notes = String::from_utf8(notes).unwrap();
        prop_assert!(notes.lines().all(|l| l.starts_with("tbp: ")), "{}", notes);
    }

    #[test]
    fn the_bot_driver_survives_any_front_end(ms in edits()) {
        let input = mutate(&lifecycle("> "), &ms);
        let (mut out, mut notes) = (Vec::new(), Vec::new());
        serve_with_notes(input.as_bytes(), &mut out, &mut notes, &mut Echo::default()).unwrap();
        let out = String::from_utf8(out).unwrap();
        let kinds: Vec<String> = out
            .lines()
            .map(|l| {
                let v: serde_json::Value = serde_json::from_str(l).unwrap();
                v["type"].as_str().unwrap().to_string()
            })
            .collect();
        prop_assert_eq!(kinds.first().map(String::as_str), Some("info"));
        for kind in &kinds[1..] {
            prop_assert!(["ready", "error", "suggestion"].contains(&kind.as_str()), "{}", kind);
        }
        let notes = String::from_utf8(notes).unwrap();
        prop_assert!(notes.lines().all(|l| l.starts_with("tbp: ")), "{}", notes);
    }

    #[test]
    fn the_front_end_survives_any_bot(ms in edits()) {
        let output = mutate(&lifecycle("< "), &ms).into_bytes();
        let rules = Rules::default();
        let timeout = Duration::from_secs(20);
        let played = Bot::connect(std::io::Cursor::new(output), std::io::sink(), &rules, timeout)
            .and_then(|mut bot| {
                let start = Start {
                    hold: None,
                    queue: vec![Piece::T],
                    combo: 0,
                    back_to_back: false,
                    board: Board::EMPTY,
                    randomizer: None,
                };
                bot.start(&start)?;
                for _ in 0..3 {
                    let suggestion = bot.suggest()?;
                    if let Some(mv) = suggestion.moves.first() {
                        bot.play(mv)?;
                    }
                }
                Ok(())
            });
        if let Err(fault) = played {
            let message = fault.to_string();
            prop_assert!(!message.is_empty() && !message.contains('\n'), "{:?}", message);
        }
    }
}
