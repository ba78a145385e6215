//! The bot side of TBP: a player behind standard input and output, for any front end.
//!
//! [`serve`] owns the protocol (the order of messages, what is valid when, the framing, what
//! to ignore) and a [`Brain`] owns the game: an engine implements the trait and never sees a
//! line of JSON. A front end is another program, so nothing it sends may end the bot: a line
//! that is not a message, or a message the lifecycle does not allow now, is ignored with a
//! note on the notes stream (standard error), and end of input ends the bot as `quit` does.

use super::lines::{Frame, excerpt, read_frame, write_message};
use super::messages::{BotMessage, FrontendMessage, Info, Move, Piece, Rules, Start, Suggestion};
use std::io::{self, BufRead, Write};

/// What an engine supplies to be a TBP bot. The driver calls these only in the lifecycle's
/// order: `rules` before any `start`; `suggest`, `play` and `new_piece` only between a `start`
/// and the `stop` that ends that game.
pub trait Brain {
    /// The bot's name, version, author and features, sent first.
    fn info(&self) -> Info;
    /// Whether the bot can play `rules`; an `Err` is the reason sent in `error` (the spec
    /// defines `unsupported_rules`).
    fn rules(&mut self, rules: &Rules) -> Result<(), String>;
    /// Begins (or begins again, after garbage) calculating from this position.
    fn start(&mut self, start: &Start);
    /// The moves to play now, best first; none is a forfeit.
    fn suggest(&mut self) -> Suggestion;
    /// Advances as if `mv` was played (a hold is implied by its piece).
    fn play(&mut self, mv: &Move);
    /// A piece joined the end of the queue.
    fn new_piece(&mut self, piece: Piece);
    /// The game is over; calculation stops until the next `start`.
    fn stop(&mut self);
}

/// Where the bot is in the spec's lifecycle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    /// Before rules were accepted (at launch, or after `error`).
    AwaitingRules,
    /// Rules accepted, no game going.
    Ready,
    /// Between `start` and `stop`.
    Calculating,
}

/// Serves `brain` over `reader` and `writer` until `quit` or end of input, with notes on
/// standard error. Only a failed write (the front end is gone) or a failed read is an error.
pub fn serve(reader: impl BufRead, writer: impl Write, brain: &mut impl Brain) -> io::Result<()> {
    serve_with_notes(reader, writer, &mut io::stderr(), brain)
}

/// [`serve`] with its notes on ignored input written to `notes`.
pub fn serve_with_notes(
    mut reader: impl BufRead,
    mut writer: impl Write,
    notes: &mut impl Write,
    brain: &mut impl Brain,
) -> io::Result<()> {
    write_message(&mut writer, &BotMessage::Info(brain.info()))?;
    let mut phase = Phase::AwaitingRules;
    loop {
        let line = match read_frame(&mut reader)? {
            Frame::Line(line) => line,
            Frame::Invalid { reason, start } => {
                note(notes, &format!("ignored {reason}: {start}"));
                continue;
            }
            Frame::End => break,
        };
        if line.trim().is_empty() {
            continue;
        }
        let message = match serde_json::from_str::<FrontendMessage>(&line) {
            Ok(FrontendMessage::Quit) => break,
            Ok(message) => message,
            Err(e) => {
                let line = excerpt(&line);
                note(
                    notes,
                    &format!("ignored a line that is not a TBP message ({e}): {line}"),
                );
                continue;
            }
        };
        phase = step(message, phase, &mut writer, notes, brain)?;
    }
    if phase == Phase::Calculating {
        brain.stop();
    }
    Ok(())
}

/// Acts on one message in `phase` and says the phase after it.
fn step(
    message: FrontendMessage,
    phase: Phase,
    writer: &mut impl Write,
    notes: &mut impl Write,
    brain: &mut impl Brain,
) -> io::Result<Phase> {
    use FrontendMessage as M;
    let calculating = phase == Phase::Calculating;
    let mut ignored = |name: &str, why: &str| -> io::Result<Phase> {
        note(notes, &format!("ignored `{name}`: {why}"));
        Ok(phase)
    };
    match message {
        M::Rules(_) if calculating => ignored("rules", "a game is going (send `stop` first)"),
        M::Rules(rules) => match brain.rules(&rules) {
            Ok(()) => {
                write_message(writer, &BotMessage::Ready)?;
                Ok(Phase::Ready)
            }
            Err(reason) => {
                write_message(writer, &BotMessage::Error { reason })?;
                Ok(Phase::AwaitingRules)
            }
        },
        M::Start(_) if phase == Phase::AwaitingRules => {
            ignored("start", "no rules were accepted yet")
        }
        M::Start(start) => {
            brain.start(&start);
            Ok(Phase::Calculating)
        }
        M::Suggest if calculating => {
            write_message(writer, &BotMessage::Suggestion(brain.suggest()))?;
            Ok(phase)
        }
        M::Play { mv } if calculating => {
            brain.play(&mv);
            Ok(phase)
        }
        M::NewPiece { piece } if calculating => {
            brain.new_piece(piece);
            Ok(phase)
        }
        M::Suggest => ignored("suggest", "no game is going (no `start`)"),
        M::Play { .. } => ignored("play", "no game is going (no `start`)"),
        M::NewPiece { .. } => ignored("new_piece", "no game is going (no `start`)"),
        M::Stop if calculating => {
            brain.stop();
            Ok(Phase::Ready)
        }
        // `stop` with no game going asks for what already holds; `quit` never gets here; an
        // unknown type is ignored without a note, as the spec says.
        M::Stop | M::Quit | M::Unknown => Ok(phase),
    }
}

/// A note on the notes stream: a bot that cannot write its notes still plays.
fn note(notes: &mut impl Write, text: &str) {
    let _ = writeln!(notes, "tbp: {text}");
}
