//! The bot side of the Puyo Bot Protocol: any side of a match (a stacktune player) served to
//! a PBP front end over a byte stream, as `stacktune pbp` does on standard input and output.
//!
//! The front end restates the situation at every choice, so the bot keeps only the last
//! state; a suggestion is the side's choice on the [`MatchView`] that state describes, which
//! is the view the side would get in a match of stacktune's own: the same player plays the
//! same placements on either side of the pipe. Nothing the front end sends ends the bot: a
//! line that is not a message, or one the lifecycle does not allow now, is ignored with a note
//! (`pbp: ...`) on the notes stream, and the end of input ends it as `quit` does.

use super::{
    BotMessage, FrontendMessage, Info, Move, Rules, State, Suggestion, VERSION, position_of,
};
use crate::puyo::Puyo;
use crate::puyo::contestant::{Contestant, MatchView};
use crate::puyo::field::MAX_ROWS;
use stacktune_tbp::client::survive_closed_pipes;
use stacktune_tbp::lines::{Frame, excerpt, read_frame, write_message};
use std::io::{self, BufRead, Write};

/// Serves `side`, playing `game`, as `info` names it, over `reader` and `writer` until `quit`
/// or the end of input, with notes on what it ignored written to `notes`. Only a failed read
/// or write (the front end is gone) is an error.
pub fn serve(
    mut reader: impl BufRead,
    mut writer: impl Write,
    notes: &mut impl Write,
    game: &Puyo,
    info: Info,
    side: &mut impl Contestant,
) -> io::Result<()> {
    survive_closed_pipes();
    write_message(&mut writer, &BotMessage::Info(info))?;
    let mut rules: Option<Rules> = None;
    let mut state: Option<Box<State>> = None;
    loop {
        let line = match read_frame(&mut reader)? {
            Frame::Line(line) if line.trim().is_empty() => continue,
            Frame::Line(line) => line,
            Frame::Invalid { reason, start } => {
                note(notes, &format!("ignored {reason}: {start}"));
                continue;
            }
            Frame::End => return Ok(()),
        };
        let message = match serde_json::from_str::<FrontendMessage>(&line) {
            Ok(message) => message,
            Err(e) => {
                let line = excerpt(&line);
                note(
                    notes,
                    &format!("ignored a line that is not a PBP message ({e}): {line}"),
                );
                continue;
            }
        };
        let reply = match message {
            FrontendMessage::Rules(told) => match refusal(game, &told) {
                Some(reason) => {
                    rules = None;
                    Some(BotMessage::Error { reason })
                }
                None => {
                    rules = Some(told);
                    Some(BotMessage::Ready)
                }
            },
            FrontendMessage::Start(_) | FrontendMessage::Update(_) if rules.is_none() => {
                note(notes, "ignored a state: no rules were accepted yet");
                None
            }
            FrontendMessage::Start(told) | FrontendMessage::Update(told) => {
                state = Some(told);
                None
            }
            FrontendMessage::Suggest => match (&rules, &state) {
                (Some(rules), Some(state)) => {
                    let moves = suggest(game, rules, state, side, notes);
                    Some(BotMessage::Suggestion(Suggestion { moves }))
                }
                _ => {
                    note(notes, "ignored `suggest`: no game is going (no `start`)");
                    None
                }
            },
            FrontendMessage::Stop => {
                state = None;
                None
            }
            FrontendMessage::Quit => return Ok(()),
            // The state of the next choice says what `play` did; unknown types are skipped.
            FrontendMessage::Play { .. } | FrontendMessage::Unknown => None,
        };
        if let Some(reply) = reply {
            write_message(&mut writer, &reply)?;
        }
    }
}

/// Why `game` cannot be played under `rules`, if it cannot.
fn refusal(game: &Puyo, rules: &Rules) -> Option<String> {
    if rules.protocol != VERSION {
        return Some(format!(
            "this bot speaks PBP {VERSION}, not {}",
            rules.protocol
        ));
    }
    if rules.colours != game.colours() || rules.rows != MAX_ROWS {
        return Some(format!(
            "this bot plays {} colours on {MAX_ROWS} rows, not {} on {}",
            game.colours(),
            rules.colours,
            rules.rows
        ));
    }
    None
}

/// The side's placement in `state`, in both namings; none (a forfeit) when the state does not
/// read as a position or the side has no placement, with a note saying why.
fn suggest(
    game: &Puyo,
    rules: &Rules,
    state: &State,
    side: &mut impl Contestant,
    notes: &mut impl Write,
) -> Vec<Move> {
    let positions = position_of(&state.own, state.all_clear)
        .and_then(|own| Ok((own, position_of(&state.opponent, false)?)));
    let (own, opponent) = match positions {
        Ok(positions) => positions,
        Err(e) => {
            note(
                notes,
                &format!("suggested nothing: the state's boards: {e}"),
            );
            return Vec::new();
        }
    };
    let view = MatchView {
        now: state.frame,
        position: &own,
        pending: state.pending,
        fixed: state.fixed,
        carry: state.carry,
        all_clear: state.all_clear,
        last_sent: state.last_sent,
        opponent: &opponent,
        opponent_chain_ends: state.opponent_chain_ends,
        target_points: state.target_points,
        nuisance_cap: rules.nuisance_cap,
        all_clear_nuisance: rules.all_clear_nuisance,
        pairs: state.pairs,
    };
    match side.choose(game, &view) {
        Ok(placement) => vec![Move::of(placement)],
        Err(why) => {
            note(notes, &format!("suggested nothing: the player {why}"));
            Vec::new()
        }
    }
}

/// A note on the notes stream: a bot that cannot write its notes still plays.
fn note(notes: &mut impl Write, text: &str) {
    let _ = writeln!(notes, "pbp: {text}");
}
