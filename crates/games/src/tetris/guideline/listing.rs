//! `moves --rules guideline`: every placement of a piece on a board file, with the inputs that
//! reach it, its spin, what it clears and sends, and every feature.

use super::features::FEATURE_NAMES;
use super::movegen::{self, HEIGHT, WIDTH};
use super::piece::{LETTERS, ROTATIONS, piece_index};
use super::rules::{Rules, Side, clear_name};
use crate::tetris::board::Board;
use crate::tetris::listing::parse_board;
use anyhow::{Result, bail};
use serde::Serialize;
use stacktune_game::FeatureValues;
use std::collections::BTreeMap;

/// A guideline board from a board file (rows top first, the bottom rows of the 40): 10 wide,
/// at most 40 rows; `source` names the file in errors.
pub fn parse(text: &str, source: &str) -> Result<Board> {
    let small = parse_board(text, source)?;
    if small.width() != WIDTH as usize {
        bail!(
            "board file {source}: guideline boards are {WIDTH} wide, not {}",
            small.width()
        );
    }
    if small.height() > HEIGHT as usize {
        bail!(
            "board file {source}: {} rows, more than the {HEIGHT} of a guideline board",
            small.height()
        );
    }
    let mut board = Board::empty(WIDTH as usize, HEIGHT as usize);
    for x in 0..WIDTH as usize {
        board.fill(x, small.column(x));
    }
    Ok(board)
}

/// A piece's TBP location.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Location {
    #[serde(rename = "type")]
    pub piece: String,
    pub orientation: &'static str,
    pub x: i8,
    pub y: i8,
}

/// One placement as `moves --json` prints it.
#[derive(Debug, Serialize)]
pub struct Listing {
    pub location: Location,
    pub spin: &'static str,
    /// Inputs from spawn, then a hard drop: left, right, cw, ccw, down (one row).
    pub path: Vec<&'static str>,
    pub lines: u32,
    /// The clear's name (`T-spin double`, ...), empty when nothing cleared.
    pub clear: String,
    /// Rows sent from a fresh state (no combo, no back-to-back).
    pub attack: u32,
    pub after: Vec<String>,
    pub features: BTreeMap<&'static str, f64>,
}

/// Every placement of `piece` on `board` from a fresh state under `rules`, in the move
/// generator's order.
pub fn list(board: Board, piece: &str, rules: &Rules) -> Result<Vec<Listing>> {
    let mut chars = piece.chars();
    let index = match (chars.next().and_then(piece_index), chars.next()) {
        (Some(i), None) => i,
        _ => bail!(
            "unknown piece `{piece}`; valid pieces: {}",
            LETTERS
                .iter()
                .map(char::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        ),
    };
    let rules = Rules {
        previews: 0,
        ..*rules
    };
    let side = Side::given(board, super::rules::Queue::given(&[index]), None, 0, false);
    let all = (1u64 << FEATURE_NAMES.len()) - 1;
    let mut out = Vec::new();
    movegen::placements(&board, index, &rules.movement, |placement| {
        let mut after = side;
        let locked = after.lock(&rules, false, &placement, false);
        let mut values = FeatureValues::default();
        let landing = placement
            .pose
            .cells()
            .iter()
            .map(|c| c.1)
            .min()
            .unwrap_or(0);
        super::features::write(&after, index, landing, &locked, all, &mut values);
        let path = movegen::path_to(&board, &placement, &rules.movement)
            .expect("a listed placement has a path")
            .iter()
            .map(|i| i.name())
            .collect();
        let pose = placement.pose;
        let top = (0..WIDTH as usize)
            .map(|x| 64 - after.board.column(x).leading_zeros())
            .max()
            .unwrap_or(0)
            .max(4) as usize;
        let rows = after.board.to_rows();
        out.push(Listing {
            location: Location {
                piece: LETTERS[pose.piece as usize].to_string(),
                orientation: ROTATIONS[pose.rotation as usize],
                x: pose.x,
                y: pose.y,
            },
            spin: placement.spin.name(),
            path,
            lines: locked.lines,
            clear: clear_name(&locked),
            attack: locked.attack,
            after: rows[rows.len() - top..].to_vec(),
            features: FEATURE_NAMES
                .iter()
                .enumerate()
                .map(|(i, &n)| (n, values.0[i]))
                .collect(),
        });
    });
    Ok(out)
}

/// The listing as text: one block per placement, its board beside its features.
pub fn format(listing: &[Listing]) -> String {
    let mut s = String::new();
    for m in listing {
        let l = &m.location;
        s += &format!("{} {} x={} y={}", l.piece, l.orientation, l.x, l.y);
        if m.spin != "none" {
            s += &format!(" spin {}", m.spin);
        }
        if !m.clear.is_empty() {
            s += &format!(": {}, attack {}", m.clear, m.attack);
        }
        s += &format!("\n  path: {} hard_drop\n", m.path.join(" "));
        let nonzero: Vec<String> = m
            .features
            .iter()
            .filter(|(_, v)| **v != 0.0)
            .map(|(n, v)| format!("{n} {v}"))
            .collect();
        for (i, row) in m.after.iter().enumerate() {
            s += &format!("  |{row}|  {}\n", nonzero.get(i).map_or("", String::as_str));
        }
        for n in nonzero.iter().skip(m.after.len()) {
            s += &format!("  {:12}  {n}\n", "");
        }
        s.push('\n');
    }
    s
}
