//! The Puyo Bot Protocol (PBP, docs/puyo-bot-protocol.md): Tsu battles between stacktune and
//! an outside Puyo AI over JSON lines, on the Tetris Bot Protocol's pattern.
//!
//! puyoai's `duel` protocol is frame-based (a request every frame, the game simulated in real
//! time), which a turn-based engine can only be a guest in; PBP is turn-based, as stacktune's
//! match is: the front end restates the whole situation at each choice (nuisance lands where
//! the front end's draws put it, so a bot cannot follow its own field alone) and asks for one
//! placement. This module holds the messages and their coordinates; [`front`] hosts a bot as a
//! side of a match, [`brain`] serves a stacktune player as a bot.

pub mod brain;
pub mod front;

use super::contestant::MatchView;
use super::field::{MAX_ROWS, WIDTH};
use super::listing::{parse_board, parse_pair};
use super::rules::{Pair, Placement};
use super::versus::BattleRules;
use super::{Position, Puyo};
use serde::{Deserialize, Serialize};

/// The protocol's version, in `rules` and `info`.
pub const VERSION: u32 = 1;

/// The battle rules the front end plays by (`rules`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Rules {
    /// The protocol version the front end speaks.
    pub protocol: u32,
    /// Colours the pairs are dealt from (Tsu: 4).
    pub colours: u8,
    /// Rows of a field as messages carry it (13: the hidden 13th row first).
    pub rows: u32,
    pub target_points: u32,
    pub margin_pairs: u32,
    pub margin_every: u32,
    pub nuisance_cap: u32,
    pub all_clear_nuisance: u32,
}

impl Rules {
    /// The rules of `battle` played with `game`'s colours.
    pub fn of(game: &Puyo, battle: &BattleRules) -> Rules {
        Rules {
            protocol: VERSION,
            colours: game.colours(),
            rows: MAX_ROWS,
            target_points: battle.target_points,
            margin_pairs: battle.margin_pairs,
            margin_every: battle.margin_every,
            nuisance_cap: battle.nuisance_cap,
            all_clear_nuisance: battle.all_clear_nuisance,
        }
    }
}

/// One side's field and the pairs it shows.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Board {
    /// [`Rules::rows`] rows of 6 cells, top first: `.` empty, `1`..`5` colours, `o` nuisance
    /// (as board files and `moves` write them).
    pub field: Vec<String>,
    /// The pairs shown, the one to place first, each axis then child (`"13"`).
    pub queue: Vec<String>,
}

/// The situation at a choice (`start` for a game's first, `update` for every later one).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct State {
    /// The frame of the choice (60 a second).
    pub frame: u64,
    /// Pairs each side has placed: the bot's, then the opponent's.
    pub pairs: [u32; 2],
    /// Points a nuisance puyo costs the bot's chains now (margin time counted).
    pub target_points: u32,
    /// The bot's own field and pairs.
    pub own: Board,
    /// Nuisance on its way from the opponent's chain still resolving (offset first).
    pub pending: u32,
    /// Nuisance from ended chains: at most `nuisance_cap` of it falls after this turn.
    pub fixed: u32,
    /// The bot's points not yet converted to nuisance.
    pub carry: u32,
    /// An all clear's nuisance goes with the bot's next chain.
    pub all_clear: bool,
    /// Nuisance the bot's last chain sent past its offsetting.
    pub last_sent: u32,
    /// The opponent's field and pairs.
    pub opponent: Board,
    /// The frame the opponent's resolving chain ends, while one does.
    pub opponent_chain_ends: Option<u64>,
}

/// A placement in either naming: stacktune's (`column` 0..5 of the axis, `rotation` 0 child
/// right, 1 above, 2 left, 3 below) or puyoai's (`x` 1..6, `r` 0 child above, 1 right, 2
/// below, 3 left). The front end sends both; a bot may send either.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Move {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub column: Option<u8>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rotation: Option<u8>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub x: Option<u8>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub r: Option<u8>,
}

/// stacktune's rotation by puyoai's `r`: up, right, down, left.
const FROM_PUYOAI: [u8; 4] = [1, 0, 3, 2];

impl Move {
    /// `placement` in both namings.
    pub fn of(placement: Placement) -> Move {
        let r = FROM_PUYOAI.iter().position(|&x| x == placement.rotation);
        Move {
            column: Some(placement.column),
            rotation: Some(placement.rotation),
            x: Some(placement.column + 1),
            r: r.map(|r| r as u8),
        }
    }

    /// The placement the move names, stacktune's naming first; why not when it names none
    /// (a missing or out-of-range field, or two namings that disagree).
    pub fn placement(&self) -> Result<Placement, String> {
        let ours = match (self.column, self.rotation) {
            (Some(column), Some(rotation)) if column < WIDTH as u8 && rotation < 4 => {
                Some(Placement { column, rotation })
            }
            (None, None) => None,
            _ => {
                return Err(format!(
                    "column/rotation out of range or half given: {self:?}"
                ));
            }
        };
        let theirs = match (self.x, self.r) {
            (Some(x), Some(r)) if (1..=WIDTH as u8).contains(&x) && r < 4 => Some(Placement {
                column: x - 1,
                rotation: FROM_PUYOAI[r as usize],
            }),
            (None, None) => None,
            _ => return Err(format!("x/r out of range or half given: {self:?}")),
        };
        match (ours, theirs) {
            (Some(a), Some(b)) if a != b => Err(format!("the two namings disagree: {self:?}")),
            (Some(p), _) | (None, Some(p)) => Ok(p),
            (None, None) => Err("a move with neither column/rotation nor x/r".to_string()),
        }
    }
}

/// Who the bot is (`info`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Info {
    pub name: String,
    pub version: String,
    #[serde(default)]
    pub author: String,
    /// The protocol version the bot speaks.
    #[serde(default)]
    pub protocol: u32,
}

/// The bot's answer to `suggest`: placements, best first (the first the rules offer is played).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Suggestion {
    pub moves: Vec<Move>,
}

/// A message from the front end to the bot.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum FrontendMessage {
    Rules(Rules),
    Start(Box<State>),
    Update(Box<State>),
    Suggest,
    Play {
        #[serde(rename = "move")]
        mv: Move,
    },
    Stop,
    Quit,
    /// A type this side does not know: ignored.
    #[serde(other)]
    Unknown,
}

/// A message from the bot to the front end.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum BotMessage {
    Info(Info),
    Ready,
    Error {
        reason: String,
    },
    Suggestion(Suggestion),
    /// A type this side does not know: ignored.
    #[serde(other)]
    Unknown,
}

stacktune_tbp::impl_incoming!(BotMessage, "PBP");

/// A pair as `"axis child"` digits.
fn pair_text(pair: Pair) -> String {
    format!("{}{}", pair.axis, pair.child)
}

/// The board `position` shows.
pub fn board_of(position: &Position) -> Board {
    let queue = [position.pair, position.next, position.after_next];
    Board {
        field: position.field.to_rows(MAX_ROWS),
        queue: queue.into_iter().flatten().map(pair_text).collect(),
    }
}

/// What `view` shows, as `start` and `update` carry it.
pub fn state_of(view: &MatchView<'_>) -> State {
    State {
        frame: view.now,
        pairs: view.pairs,
        target_points: view.target_points,
        own: board_of(view.position),
        pending: view.pending,
        fixed: view.fixed,
        carry: view.carry,
        all_clear: view.all_clear,
        last_sent: view.last_sent,
        opponent: board_of(view.opponent),
        opponent_chain_ends: view.opponent_chain_ends,
    }
}

/// The position `board` shows in a game of `rules` (its field read as a board file is, 13 rows
/// for Tsu; its first pair to place, the next two if shown), and the all clear owed.
pub fn position_of(board: &Board, all_clear: bool) -> anyhow::Result<Position> {
    let (field, _) = parse_board(&board.field.join("\n"), "in the message")?;
    let pairs = board
        .queue
        .iter()
        .map(|p| parse_pair(p))
        .collect::<anyhow::Result<Vec<Pair>>>()?;
    let Some(&pair) = pairs.first() else {
        anyhow::bail!("a queue with no pair to place");
    };
    let mut position = Position::new(field, pair);
    position.next = pairs.get(1).copied();
    position.after_next = pairs.get(2).copied();
    position.set_all_clear(all_clear);
    Ok(position)
}
