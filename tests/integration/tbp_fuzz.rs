//! Fuzzing both sides of TBP with what a peer program might send: the lifecycle's lines
//! (tests/data/tbp/lifecycle.txt) under the structured mutations of `common::fuzz`. The
//! property: the bot driver answers only with well-formed messages and notes the rest, the
//! front end returns a result or a one-line fault; neither panics.
//!
//! 1,000 cases a side by default; `PROPTEST_CASES=10000` runs more.

use crate::common::fuzz::{cases, edits, mutate};
use proptest::prelude::*;
use stacktune_tbp::bot::{Brain, serve_with_notes};
use stacktune_tbp::client::Bot;
use stacktune_tbp::messages::{
    Board, Info, Move, Piece, Rules, Start, Suggestion, UNSUPPORTED_RULES,
};
use std::time::Duration;

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
