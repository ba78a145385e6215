//! Guideline positions and moves as the Tetris Bot Protocol writes them, and back.
//!
//! A TBP location is a guideline [`Pose`] as it stands (the same piece centres, the same
//! rotation names, y up from the bottom row), so the conversion is a renaming; what needs
//! care is which of the rules' placements a bot's move means (hold is implied by the piece,
//! and S, Z and I name most placements two ways: a move is matched by the cells it fills).
//! Each side keeps the other's words: the front end echoes the bot's own move in `play` (the
//! game scoring it with the rules' spin), and the bot follows a `play` under either name with
//! the front end's spin.
//!
//! Both sides of the protocol meet guideline Tetris here: a bot behind TBP as one side of a
//! match ([`front`]), and any policy of the game as a TBP bot ([`brain`]).

pub mod brain;
pub mod front;

use super::movegen::{Placement, Spin};
use super::piece::Pose;
use super::rules::{Queue, Side};
use super::{Guideline, Move};
use crate::tetris::board::Board;
use stacktune_game::Game;
use stacktune_tbp::messages::{self, Cell, Location, Orientation, Piece, RandomizerState, Start};

const PIECES: [Piece; 7] = [
    Piece::I,
    Piece::O,
    Piece::T,
    Piece::L,
    Piece::J,
    Piece::S,
    Piece::Z,
];
const ORIENTATIONS: [Orientation; 4] = [
    Orientation::North,
    Orientation::East,
    Orientation::South,
    Orientation::West,
];

/// A guideline piece index as a TBP piece (the two list the pieces in the same order).
pub fn piece(index: u8) -> Piece {
    PIECES[index as usize]
}

/// A TBP piece's guideline index.
pub fn index(piece: Piece) -> u8 {
    PIECES
        .iter()
        .position(|&p| p == piece)
        .expect("seven pieces") as u8
}

/// What a side shows a bot at `start`: the board (every filled cell `G`: the engine keeps no
/// colours), hold, the current piece and the previews, combo, back-to-back, and the rest of
/// the 7-bag after the last piece shown.
pub fn start_of(side: &Side) -> Start {
    let mut board = messages::Board::EMPTY;
    for (y, row) in board.rows.iter_mut().enumerate() {
        for (x, cell) in row.iter_mut().enumerate() {
            if side.board.filled(x, y) {
                *cell = Some(Cell::G);
            }
        }
    }
    let bag: Vec<Piece> = side
        .queue
        .bag_after_shown()
        .into_iter()
        .map(piece)
        .collect();
    Start {
        hold: side.hold.map(piece),
        queue: side
            .queue
            .current()
            .into_iter()
            .chain(side.queue.previews())
            .map(piece)
            .collect(),
        combo: side.combo,
        back_to_back: side.b2b > 0,
        board,
        randomizer: (!bag.is_empty()).then_some(RandomizerState::SevenBag { bag_state: bag }),
    }
}

/// The side a bot's `start` describes: nothing dealt beyond the queue it was given.
pub fn side_of(start: &Start) -> Side {
    let mut board = Board::empty(10, 40);
    for (y, row) in start.board.rows.iter().enumerate() {
        for (x, cell) in row.iter().enumerate() {
            if cell.is_some() {
                board.fill(x, 1 << y);
            }
        }
    }
    let queue: Vec<u8> = start.queue.iter().map(|&p| index(p)).collect();
    Side::given(
        board,
        Queue::given(&queue),
        start.hold.map(index),
        start.combo,
        start.back_to_back,
    )
}

/// A move as TBP writes it.
pub fn tbp_move(mv: &Move) -> messages::Move {
    let pose = mv.placement.pose;
    messages::Move {
        location: Location {
            piece: piece(pose.piece),
            orientation: ORIENTATIONS[pose.rotation as usize],
            x: pose.x as i32,
            y: pose.y as i32,
        },
        spin: SPINS[mv.placement.spin as usize],
    }
}

const SPINS: [messages::Spin; 3] = [
    messages::Spin::None,
    messages::Spin::Mini,
    messages::Spin::Full,
];

/// A TBP spin as the rules name it.
fn spin_of(spin: messages::Spin) -> Spin {
    match spin {
        messages::Spin::None => Spin::None,
        messages::Spin::Mini => Spin::Mini,
        messages::Spin::Full => Spin::Full,
    }
}

/// The rules' move that a bot's `mv` means on `side`: a placement the rules offer whose cells
/// are the location's, holding when the location's piece is not the current one; of several
/// (a T place reachable with and without a spin) the one with the spin the bot names, else the
/// first listed. `None` when the rules offer no such placement (a location off the board
/// included: its cells are never cut down to a board's numbers).
pub fn legal_move(game: &Guideline, side: &Side, mv: &messages::Move) -> Option<Move> {
    let cells = sorted(on_board(&mv.location).ok()?);
    let wanted = spin_of(mv.spin);
    let mut found: Option<Move> = None;
    game.for_each_move(side, 0, &mut |m: Move, _, _, _| {
        let same = sorted(m.placement.pose.cells()) == cells
            && m.placement.pose.piece == index(mv.location.piece);
        let better = found.is_none_or(|f| f.placement.spin != wanted && m.placement.spin == wanted);
        if same && better {
            found = Some(m);
        }
    });
    found
}

/// The move a location and spin stand for when the rules offer none (a front end playing
/// other rules told the bot what was played): the piece locks there as said. An `Err` says
/// why no position follows from it: a cell off the 10 × 40 board, or a piece that is neither
/// the current one, the held one, nor the next one a hold into an empty hold brings.
pub fn as_said(side: &Side, mv: &messages::Move) -> Result<Move, String> {
    let l = mv.location;
    on_board(&l)?;
    let piece = index(l.piece);
    let Some(current) = side.queue.current() else {
        return Err("there is no piece to play: the queue is empty".to_string());
    };
    let current = Some(current);
    let held = match side.hold {
        Some(h) => Some(h),
        None => side.queue.preview(0),
    };
    if current != Some(piece) && held != Some(piece) {
        let name =
            |p: Option<u8>| p.map_or("none".to_string(), |p| format!("{:?}", PIECES[p as usize]));
        return Err(format!(
            "the {:?} is neither the current piece ({}) nor the one a hold gives ({})",
            l.piece,
            name(current),
            name(held)
        ));
    }
    Ok(Move {
        hold: current != Some(piece),
        placement: Placement {
            pose: Pose {
                piece,
                rotation: rotation(l.orientation),
                x: l.x as i8,
                y: l.y as i8,
            },
            spin: spin_of(mv.spin),
        },
    })
}

/// The guideline rotation of a TBP orientation.
fn rotation(orientation: Orientation) -> u8 {
    ORIENTATIONS
        .iter()
        .position(|&o| o == orientation)
        .unwrap_or(0) as u8
}

const ORIENTATION_NAMES: [&str; 4] = ["north", "east", "south", "west"];

/// The location's cells, each checked to lie on TBP's 10 × 40 board.
fn on_board(l: &Location) -> Result<[(i8, i8); 4], String> {
    let mut cells = [(0, 0); 4];
    for (cell, (x, y)) in cells.iter_mut().zip(l.cells()) {
        let inside = (0..messages::BOARD_COLUMNS as i32).contains(&x)
            && (0..messages::BOARD_ROWS as i32).contains(&y);
        if !inside {
            return Err(format!(
                "the {:?} at x {}, y {} ({}) has a cell off the {} × {} board (x {x}, y {y})",
                l.piece,
                l.x,
                l.y,
                ORIENTATION_NAMES[rotation(l.orientation) as usize],
                messages::BOARD_COLUMNS,
                messages::BOARD_ROWS,
            ));
        }
        *cell = (x as i8, y as i8);
    }
    Ok(cells)
}

fn sorted(mut cells: [(i8, i8); 4]) -> [(i8, i8); 4] {
    cells.sort();
    cells
}
