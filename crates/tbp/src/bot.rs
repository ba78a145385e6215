//! The bot side of TBP: a player behind standard input and output, for any front end.
//!
//! [`Bot`] owns the protocol (the order of messages, what is valid when, what to ignore), a
//! message at a time; [`serve`] adds its framing on a byte stream; a [`Brain`] owns the game:
//! an engine implements the trait and never sees a line of JSON. A front end is another
//! program (or, in a browser, the page of a Web Worker bot: web/tbp/), so nothing it sends may
//! end the bot: a line that is not a message, or a message the lifecycle does not allow now, is
//! ignored with a note on the notes stream (standard error), and end of input ends the bot as
//! `quit` does.

use super::lines::{Frame, excerpt, read_frame, write_message};
use super::messages::{BotMessage, FrontendMessage, Info, Move, Piece, Rules, Start, Suggestion};
use std::io::{self, BufRead, Write};

/// What an engine supplies to be a TBP bot. The driver calls these only in the lifecycle's
/// order: `rules` before any `start`; `suggest`, `play` and `new_piece` only between a `start`
/// and the `stop` that ends that game.
///
/// A brain of one's own keeps its game and answers in these terms, never in JSON; this one
/// suggests each piece upright in the middle of the floor (a real one searches the board):
///
/// ```
/// use stacktune_tbp::bot::{Brain, serve_with_notes};
/// use stacktune_tbp::messages::*;
///
/// #[derive(Default)]
/// struct Middle { queue: Vec<Piece> }
///
/// impl Brain for Middle {
///     fn info(&self) -> Info {
///         Info { name: "middle".into(), version: "1".into(), author: "me".into(), features: vec![] }
///     }
///     fn rules(&mut self, _rules: &Rules) -> Result<(), String> { Ok(()) }
///     fn start(&mut self, start: &Start) { self.queue = start.queue.clone(); }
///     fn suggest(&mut self) -> Suggestion {
///         let moves = self.queue.first().map(|&piece| Move {
///             location: Location { piece, orientation: Orientation::North, x: 4, y: 1 },
///             spin: Spin::None,
///         });
///         Suggestion { moves: moves.into_iter().collect(), move_info: None }
///     }
///     fn play(&mut self, _mv: &Move) -> Result<(), String> {
///         if self.queue.is_empty() { return Err("no piece to play".into()) }
///         self.queue.remove(0);
///         Ok(())
///     }
///     fn new_piece(&mut self, piece: Piece) { self.queue.push(piece); }
///     fn stop(&mut self) { self.queue.clear(); }
/// }
///
/// // A front end's side of a game: rules, the start (an empty board), a suggestion asked for.
/// let row = format!("[{}]", ["null"; 10].join(","));
/// let board = format!("[{}]", vec![row; 40].join(","));
/// let input = format!(
///     "{{\"type\":\"rules\"}}\n\
///      {{\"type\":\"start\",\"hold\":null,\"queue\":[\"T\",\"I\"],\"combo\":0,\"back_to_back\":false,\"board\":{board}}}\n\
///      {{\"type\":\"suggest\"}}\n{{\"type\":\"quit\"}}\n"
/// );
/// let (mut output, mut notes) = (Vec::new(), Vec::new());
/// serve_with_notes(input.as_bytes(), &mut output, &mut notes, &mut Middle::default())?;
/// let lines: Vec<&str> = std::str::from_utf8(&output).unwrap().lines().collect();
/// assert!(lines[0].starts_with(r#"{"type":"info","name":"middle""#));
/// assert_eq!(lines[1], r#"{"type":"ready"}"#);
/// assert_eq!(
///     lines[2],
///     r#"{"type":"suggestion","moves":[{"location":{"type":"T","orientation":"north","x":4,"y":1},"spin":"none"}]}"#
/// );
/// assert!(notes.is_empty());
/// # Ok::<(), std::io::Error>(())
/// ```
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
    /// Advances as if `mv` was played (a hold is implied by its piece); an `Err` says why the
    /// position cannot take it (off the board, say), and the driver ignores the `play` with
    /// that note: nothing a front end sends ends the bot.
    fn play(&mut self, mv: &Move) -> Result<(), String>;
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
    crate::client::survive_closed_pipes();
    serve_with_notes(reader, writer, &mut io::stderr(), brain)
}

/// [`serve`] with its notes on ignored input written to `notes`.
pub fn serve_with_notes(
    mut reader: impl BufRead,
    mut writer: impl Write,
    notes: &mut impl Write,
    brain: &mut impl Brain,
) -> io::Result<()> {
    let mut bot = Bot::new(brain);
    write_message(&mut writer, &bot.info())?;
    loop {
        let line = match read_frame(&mut reader)? {
            Frame::Line(line) => line,
            Frame::Invalid { reason, start } => {
                note(notes, &format!("ignored {reason}: {start}"));
                continue;
            }
            Frame::End => break,
        };
        match bot.receive(&line, notes) {
            Reply::Nothing => {}
            Reply::Send(message) => write_message(&mut writer, &message)?,
            Reply::Quit => break,
        }
    }
    bot.end();
    Ok(())
}

/// What the bot does on one message.
#[derive(Debug, PartialEq)]
pub enum Reply {
    /// Nothing to send (the message was taken in, or ignored with a note).
    Nothing,
    /// This message to send back.
    Send(BotMessage),
    /// `quit`: the conversation is over.
    Quit,
}

/// One conversation with a front end, a message at a time, for a host that has messages rather
/// than a byte stream ([`serve`] over standard input and output; a Web Worker's `onmessage`).
pub struct Bot<B: Brain> {
    brain: B,
    phase: Phase,
}

impl<B: Brain> Bot<B> {
    /// A bot that has said nothing yet: send [`Bot::info`] first.
    pub fn new(brain: B) -> Bot<B> {
        Bot {
            brain,
            phase: Phase::AwaitingRules,
        }
    }

    /// The `info` message the bot opens with.
    pub fn info(&self) -> BotMessage {
        BotMessage::Info(self.brain.info())
    }

    /// Acts on one message, a line of JSON: a line that is not a TBP message is ignored with a
    /// note on `notes`, as is a message the lifecycle does not allow now.
    pub fn receive(&mut self, line: &str, notes: &mut impl Write) -> Reply {
        if line.trim().is_empty() {
            return Reply::Nothing;
        }
        match serde_json::from_str::<FrontendMessage>(line) {
            Ok(FrontendMessage::Quit) => Reply::Quit,
            Ok(message) => {
                let (phase, reply) = step(message, self.phase, notes, &mut self.brain);
                self.phase = phase;
                reply.map_or(Reply::Nothing, Reply::Send)
            }
            Err(e) => {
                let line = excerpt(line);
                note(
                    notes,
                    &format!("ignored a line that is not a TBP message ({e}): {line}"),
                );
                Reply::Nothing
            }
        }
    }

    /// The conversation ended (`quit`, or the front end went away): a game going stops.
    pub fn end(&mut self) {
        if self.phase == Phase::Calculating {
            self.brain.stop();
            self.phase = Phase::Ready;
        }
    }
}

/// A brain borrowed for one conversation ([`serve`]'s).
impl<B: Brain> Brain for &mut B {
    fn info(&self) -> Info {
        (**self).info()
    }
    fn rules(&mut self, rules: &Rules) -> Result<(), String> {
        (**self).rules(rules)
    }
    fn start(&mut self, start: &Start) {
        (**self).start(start)
    }
    fn suggest(&mut self) -> Suggestion {
        (**self).suggest()
    }
    fn play(&mut self, mv: &Move) -> Result<(), String> {
        (**self).play(mv)
    }
    fn new_piece(&mut self, piece: Piece) {
        (**self).new_piece(piece)
    }
    fn stop(&mut self) {
        (**self).stop()
    }
}

/// Acts on one message in `phase`: the phase after it, and the message to send back if any.
fn step(
    message: FrontendMessage,
    phase: Phase,
    notes: &mut impl Write,
    brain: &mut impl Brain,
) -> (Phase, Option<BotMessage>) {
    use FrontendMessage as M;
    let calculating = phase == Phase::Calculating;
    let mut ignored = |name: &str, why: &str| {
        note(notes, &format!("ignored `{name}`: {why}"));
        (phase, None)
    };
    match message {
        M::Rules(_) if calculating => ignored("rules", "a game is going (send `stop` first)"),
        M::Rules(rules) => match brain.rules(&rules) {
            Ok(()) => (Phase::Ready, Some(BotMessage::Ready)),
            Err(reason) => (Phase::AwaitingRules, Some(BotMessage::Error { reason })),
        },
        M::Start(_) if phase == Phase::AwaitingRules => {
            ignored("start", "no rules were accepted yet")
        }
        M::Start(start) => {
            brain.start(&start);
            (Phase::Calculating, None)
        }
        M::Suggest if calculating => (phase, Some(BotMessage::Suggestion(brain.suggest()))),
        M::Play { mv } if calculating => match brain.play(&mv) {
            Ok(()) => (phase, None),
            Err(why) => ignored("play", &why),
        },
        M::NewPiece { piece } if calculating => {
            brain.new_piece(piece);
            (phase, None)
        }
        M::Suggest => ignored("suggest", "no game is going (no `start`)"),
        M::Play { .. } => ignored("play", "no game is going (no `start`)"),
        M::NewPiece { .. } => ignored("new_piece", "no game is going (no `start`)"),
        M::Stop if calculating => {
            brain.stop();
            (Phase::Ready, None)
        }
        // `stop` with no game going asks for what already holds; `quit` never gets here; an
        // unknown type is ignored without a note, as the spec says.
        M::Stop | M::Quit | M::Unknown => (phase, None),
    }
}

/// A note on the notes stream: a bot that cannot write its notes still plays.
fn note(notes: &mut impl Write, text: &str) {
    let _ = writeln!(notes, "tbp: {text}");
}
