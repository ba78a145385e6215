//! The messages of the Tetris Bot Protocol as Rust types, one serde type per message.
//!
//! The types follow the spec's text (tetris-bot-protocol/tbp-spec: `0000-mvp.md`, with the
//! `randomizer` of `0001-randomizer.md` and the `move_info` of `0003-move_info.md`) rather than
//! any one bot, so that both sides of stacktune read what every conforming program writes.
//! Nothing here denies unknown fields: the spec asks both sides to ignore attributes they do not
//! know, and a message whose `type` is unknown parses as `Unknown`, which the drivers skip.

use serde::{Deserialize, Deserializer, Serialize};
use std::collections::BTreeMap;

/// A tetromino, spelled as TBP spells it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Piece {
    I,
    O,
    T,
    L,
    J,
    S,
    Z,
}

impl Piece {
    /// The minos of the piece in its north orientation, relative to its TBP centre: the centre
    /// of SRS true rotation for J, L, S, T and Z; the bottom-left mino of the O; the middle-left
    /// mino of the I (spec, "piece location"). Up is +y.
    const fn north_cells(self) -> [(i32, i32); 4] {
        match self {
            Piece::I => [(-1, 0), (0, 0), (1, 0), (2, 0)],
            Piece::O => [(0, 0), (1, 0), (0, 1), (1, 1)],
            Piece::T => [(-1, 0), (0, 0), (1, 0), (0, 1)],
            Piece::L => [(-1, 0), (0, 0), (1, 0), (1, 1)],
            Piece::J => [(-1, 1), (-1, 0), (0, 0), (1, 0)],
            Piece::S => [(-1, 0), (0, 0), (0, 1), (1, 1)],
            Piece::Z => [(-1, 1), (0, 1), (0, 0), (1, 0)],
        }
    }
}

/// What fills a board cell: the piece that was placed there, or garbage (`"G"`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Cell {
    I,
    O,
    T,
    L,
    J,
    S,
    Z,
    G,
}

impl From<Piece> for Cell {
    fn from(piece: Piece) -> Cell {
        match piece {
            Piece::I => Cell::I,
            Piece::O => Cell::O,
            Piece::T => Cell::T,
            Piece::L => Cell::L,
            Piece::J => Cell::J,
            Piece::S => Cell::S,
            Piece::Z => Cell::Z,
        }
    }
}

/// The rotation state of a piece: spawn is north, one clockwise turn east.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Orientation {
    North,
    East,
    South,
    West,
}

impl Orientation {
    /// `(x, y)` turned about the origin as this orientation turns a north piece (clockwise for
    /// east, y up).
    const fn turn(self, (x, y): (i32, i32)) -> (i32, i32) {
        match self {
            Orientation::North => (x, y),
            Orientation::East => (y, -x),
            Orientation::South => (-x, -y),
            Orientation::West => (-y, x),
        }
    }
}

/// Whether a placement is a spin, as TBP names the kinds: it decides the attack, so a bot says
/// it and the front end checks it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Spin {
    None,
    Mini,
    Full,
}

/// Where a piece comes to rest: `x` and `y` are the piece's TBP centre, x = 0 the leftmost
/// column and y = 0 the bottom row.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Location {
    #[serde(rename = "type")]
    pub piece: Piece,
    pub orientation: Orientation,
    pub x: i32,
    pub y: i32,
}

impl Location {
    /// The four cells `(x, y)` the piece fills, so that an engine with its own origin can
    /// translate a location by comparing cells rather than by a table of offsets per piece. A
    /// centre at the edge of `i32` saturates there (a peer's number, far off any board either
    /// way).
    pub fn cells(&self) -> [(i32, i32); 4] {
        self.piece.north_cells().map(|c| {
            let (dx, dy) = self.orientation.turn(c);
            (self.x.saturating_add(dx), self.y.saturating_add(dy))
        })
    }
}

/// A move: where the piece lands and the spin the bot claims for it. Whether the move holds is
/// not said; it follows from the piece (spec, `play`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Move {
    pub location: Location,
    pub spin: Spin,
}

/// The number of rows a TBP board has (20 visible and 20 above).
pub const BOARD_ROWS: usize = 40;
/// The number of columns.
pub const BOARD_COLUMNS: usize = 10;

/// A board of 40 rows of 10 cells, row 0 the bottom one (`y = 0`, as Cold Clear 2 reads it);
/// exactly 40 rows of exactly 10 are accepted, so an engine can index it without checks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "Vec<[Option<Cell>; BOARD_COLUMNS]>")]
#[serde(into = "Vec<[Option<Cell>; BOARD_COLUMNS]>")]
pub struct Board {
    pub rows: [[Option<Cell>; BOARD_COLUMNS]; BOARD_ROWS],
}

impl Board {
    /// The empty board.
    pub const EMPTY: Board = Board {
        rows: [[None; BOARD_COLUMNS]; BOARD_ROWS],
    };
}

impl TryFrom<Vec<[Option<Cell>; BOARD_COLUMNS]>> for Board {
    type Error = String;
    fn try_from(rows: Vec<[Option<Cell>; BOARD_COLUMNS]>) -> Result<Board, String> {
        let n = rows.len();
        rows.try_into()
            .map(|rows| Board { rows })
            .map_err(|_| format!("a board has {BOARD_ROWS} rows, not {n}"))
    }
}

impl From<Board> for Vec<[Option<Cell>; BOARD_COLUMNS]> {
    fn from(board: Board) -> Self {
        board.rows.to_vec()
    }
}

/// The randomizer a game uses (`rules.randomizer`); an absent or unknown name reads as
/// `Unknown`, as the spec asks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Randomizer {
    Uniform,
    SevenBag,
    GeneralBag,
    #[default]
    #[serde(other)]
    Unknown,
}

/// The state of the randomizer at the end of the queue (`start.randomizer`), which lets a bot
/// know which pieces the bag can still give.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum RandomizerState {
    Uniform,
    SevenBag {
        bag_state: Vec<Piece>,
    },
    GeneralBag {
        current_bag: BTreeMap<Piece, u32>,
        filled_bag: BTreeMap<Piece, u32>,
    },
    #[serde(other)]
    Unknown,
}

/// The rules a front end plays by (`rules`): the spec's defaults are guideline rules on a
/// 10 × 40 board; only the randomizer is said.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Rules {
    #[serde(default)]
    pub randomizer: Randomizer,
}

/// The position a bot starts calculating from (`start`), sent at a game's start and again
/// whenever the front end changes the board behind the bot's back (garbage: TBP has no message
/// for it).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Start {
    pub hold: Option<Piece>,
    pub queue: Vec<Piece>,
    pub combo: u32,
    pub back_to_back: bool,
    pub board: Board,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub randomizer: Option<RandomizerState>,
}

/// What a bot says of itself first (`info`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Info {
    pub name: String,
    pub version: String,
    pub author: String,
    #[serde(default)]
    pub features: Vec<String>,
}

/// How hard a bot thought (`move_info`, all optional); shown, never trusted for anything.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct MoveInfo {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nodes: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nps: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub depth: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub extra: Option<String>,
}

/// A bot's answer to `suggest`: moves best first; the front end plays the first valid one and
/// the bot forfeits when none is.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Suggestion {
    pub moves: Vec<Move>,
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "informational"
    )]
    pub move_info: Option<MoveInfo>,
}

/// Reads `move_info` leniently: it only informs, so one a bot shapes its own way is dropped
/// rather than costing the bot its move.
fn informational<'de, D: Deserializer<'de>>(de: D) -> Result<Option<MoveInfo>, D::Error> {
    let value = serde_json::Value::deserialize(de)?;
    Ok(serde_json::from_value(value).ok())
}

/// A message from the front end to a bot.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum FrontendMessage {
    Rules(Rules),
    Start(Box<Start>),
    Stop,
    Suggest,
    Play {
        #[serde(rename = "move")]
        mv: Move,
    },
    NewPiece {
        piece: Piece,
    },
    Quit,
    /// A type this side does not know: ignored (spec).
    #[serde(other)]
    Unknown,
}

/// A message from a bot to the front end.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum BotMessage {
    Info(Info),
    Ready,
    Error {
        reason: String,
    },
    Suggestion(Suggestion),
    /// A type this side does not know: ignored (spec).
    #[serde(other)]
    Unknown,
}

/// The `error` reason the spec defines for rules a bot cannot play.
pub const UNSUPPORTED_RULES: &str = "unsupported_rules";
