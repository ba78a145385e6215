//! A versus match: two sides on the same pieces, in virtual time.
//!
//! Time is counted in pieces, not seconds, so that a match is a function of its seed and of
//! the players, never of the machine's load: at each tick both sides place one piece. An
//! attack sent at tick t joins the receiver's incoming garbage, due once the receiver has
//! placed `garbage_delay` more pieces; each clearing placement of the receiver cancels
//! incoming rows first (oldest first), and after a placement that clears nothing the rows due
//! rise (at most `garbage_cap` a piece). With a margin, attacks grow after so many pieces
//! ([`Margin`](super::rules::Margin)). A side loses when a piece locks out, garbage pushes
//! its stack past the top of the 40 rows, or its next piece cannot spawn; both losing at the
//! same tick, or both surviving to the piece cap, is a draw.
//!
//! A side is a [`Contestant`]: a weight set under a search ([`PolicySide`]) or anything else
//! that picks moves, such as a bot behind the Tetris Bot Protocol; the match never knows
//! which.

use super::contestant::Failed;
pub use super::contestant::{Contestant, PolicySide};
use super::rules::Side;
use super::tbp::front::BotSide;
use super::{Guideline, Move, OpponentKind};
pub use crate::versus::{MatchEnd, Seeds};

/// A match as it was played.
#[derive(Clone, Debug, PartialEq)]
pub struct MatchRecord {
    pub end: MatchEnd,
    /// Why the loser lost (`topped out`, `failed: ...`), or why it was a draw.
    pub reason: String,
    /// Ticks played: pieces each side placed.
    pub pieces: u32,
    /// Attack each side sent (after cancelling its own incoming garbage).
    pub sent: [u32; 2],
    /// Each side's moves, in order.
    pub moves: [Vec<Move>; 2],
}

/// Plays a match between `sides` on `seeds` for at most `cap` pieces each, showing `observe`
/// both sides after every tick (and at the start) with the tick number.
pub fn play(
    game: &Guideline,
    sides: [&mut dyn Contestant; 2],
    seeds: Seeds,
    cap: u64,
    observe: &mut dyn FnMut(&[Side; 2], u32),
) -> MatchRecord {
    let mut state = [0, 1].map(|s| game.side(seeds.queue, seeds.sides[s]));
    let mut record = MatchRecord {
        end: MatchEnd::Draw,
        reason: format!("both sides placed {cap} pieces"),
        pieces: 0,
        sent: [0; 2],
        moves: [Vec::new(), Vec::new()],
    };
    observe(&state, 0);
    let mut faults: [Option<String>; 2] = [None, None];
    for s in 0..2 {
        faults[s] = sides[s].sync(game, &state[s]).err();
    }
    while record.pieces < cap as u32
        && faults.iter().all(Option::is_none)
        && !sides.iter().any(|s| s.stopped())
    {
        let mut pieces: [Piece; 2] = Default::default();
        for s in 0..2 {
            pieces[s] = place_piece(game, &mut *sides[s], &mut state[s], s, &mut record);
        }
        for s in 0..2 {
            let due = state[1 - s].placed + game.rules.garbage_delay;
            state[1 - s].incoming.push(pieces[s].sent, due);
        }
        record.pieces += 1;
        observe(&state, record.pieces);
        if let Some((end, reason)) = tick_end(&pieces) {
            record.end = end;
            record.reason = reason;
            return record;
        }
    }
    // A side that failed before the first move (its sync) loses.
    match (&faults[0], &faults[1]) {
        (Some(a), Some(_)) => {
            record.end = MatchEnd::Draw;
            record.reason = format!("both sides failed: {a}");
        }
        (Some(a), None) => {
            record.end = MatchEnd::Won(1);
            record.reason = format!("failed: {a}");
        }
        (None, Some(b)) => {
            record.end = MatchEnd::Won(0);
            record.reason = format!("failed: {b}");
        }
        (None, None) => {}
    }
    record
}

/// What one side's piece of a tick did: the rows it sent, why it lost (the piece locked out
/// or topped out), and why it forfeits (its contestant failed).
#[derive(Default)]
struct Piece {
    sent: u32,
    lost: Option<String>,
    fault: Option<String>,
}

/// Side `s` (`contestant`, at `state`) places its piece of the tick after `record.pieces`,
/// which `record` keeps with the attack it sent; the contestant hears of the new position.
fn place_piece(
    game: &Guideline,
    contestant: &mut dyn Contestant,
    state: &mut Side,
    s: usize,
    record: &mut MatchRecord,
) -> Piece {
    let mv = match contestant.choose(game, state) {
        Ok(mv) => mv,
        Err(e) => {
            return Piece {
                fault: Some(e),
                ..Piece::default()
            };
        }
    };
    let rows_before = state.incoming.total();
    let played = game.play(state, mv);
    record.moves[s].push(mv);
    let sent = game.rules.rows_sent(played.locked.sent, record.pieces + 1);
    record.sent[s] += sent;
    let lost = played.lost.then(|| loss_reason(&played));
    // Garbage rose when the incoming rows went down without a cancelling clear.
    let rose = played.locked.lines == 0 && state.incoming.total() < rows_before;
    let told = if rose {
        contestant.sync(game, state)
    } else {
        contestant.played(game, mv, state)
    };
    Piece {
        sent,
        lost,
        fault: told.err(),
    }
}

/// How a tick whose pieces were `pieces` ended the match, if it did: the winner (or a draw)
/// and why.
fn tick_end(pieces: &[Piece; 2]) -> Option<(MatchEnd, String)> {
    let out = |p: &Piece| p.lost.is_some() || p.fault.is_some();
    let end = MatchEnd::of_losses([out(&pieces[0]), out(&pieces[1])])?;
    let reason = match end {
        MatchEnd::Draw => "both sides lost at the same piece".to_string(),
        MatchEnd::Won(w) => side_reason(&pieces[1 - w].lost, &pieces[1 - w].fault),
    };
    Some((end, reason))
}

fn loss_reason(played: &super::Played) -> String {
    if played.locked.locked_out {
        "locked out".to_string()
    } else {
        "topped out".to_string()
    }
}

fn side_reason(lost: &Option<String>, fault: &Option<String>) -> String {
    match (fault, lost) {
        (Some(f), _) => format!("failed: {f}"),
        (None, Some(l)) => l.clone(),
        (None, None) => String::new(),
    }
}

impl OpponentKind {
    /// This opponent's side of one game, ready to play: its policy, or its bot launched
    /// afresh (a bot that cannot start loses at its first move, with the reason).
    pub fn seat(&self) -> Box<dyn Contestant + '_> {
        match self {
            OpponentKind::Policy(policy) => Box::new(PolicySide::new(policy)),
            OpponentKind::Bot(settings) => match BotSide::launch(settings) {
                Ok(bot) => Box::new(bot),
                Err(fault) => Box::new(Failed(fault.to_string())),
            },
        }
    }
}
