//! Board files and the placement listing of `moves`: how users debug weights.

use super::board::{Board, FEATURE_NAMES, MAX_HEIGHT, MAX_WIDTH, MIN_HEIGHT, MIN_WIDTH};
use super::pieces::{VALID_PIECES, piece_index};
use super::{Position, Tetris};
use anyhow::{Result, bail};
use serde::Serialize;
use stacktune_game::FeatureMask;
use std::collections::BTreeMap;

/// Parses a board file: rows TOP first, `.` empty, any other non-space character filled.
/// `source` names the file in errors.
pub fn parse_board(text: &str, source: &str) -> Result<Board> {
    let lines: Vec<&str> = text
        .lines()
        .map(|l| l.trim_end_matches('\r'))
        .filter(|l| !l.trim().is_empty())
        .collect();
    let Some(first) = lines.first() else {
        bail!("board file {source}: no rows");
    };
    let width = first.trim().chars().count();
    let mut rows = Vec::with_capacity(lines.len());
    for (i, line) in lines.iter().enumerate() {
        let line = line.trim();
        if line.chars().any(char::is_whitespace) {
            bail!(
                "board file {source} line {}: a row may not contain spaces",
                i + 1
            );
        }
        let n = line.chars().count();
        if n != width {
            bail!(
                "board file {source} line {}: {n} cells, but the first row has {width} (rows must be equally wide)",
                i + 1
            );
        }
        rows.push(line.chars().map(|c| c != '.').collect::<Vec<bool>>());
    }
    if !(MIN_WIDTH..=MAX_WIDTH).contains(&width) {
        bail!("board file {source}: width {width} is out of range {MIN_WIDTH}..={MAX_WIDTH}");
    }
    if !(MIN_HEIGHT..=MAX_HEIGHT).contains(&rows.len()) {
        bail!(
            "board file {source}: height {} is out of range {MIN_HEIGHT}..={MAX_HEIGHT}",
            rows.len()
        );
    }
    if let Some(i) = rows.iter().position(|r| r.iter().all(|&c| c)) {
        bail!(
            "board file {source} line {}: a full row cannot stand on a board",
            i + 1
        );
    }
    Ok(Board::from_rows(&rows))
}

/// One placement as `moves --json` prints it.
#[derive(Debug, Serialize)]
pub struct MoveListing {
    pub placement: PlacementJson,
    pub topout: bool,
    pub after: Option<Vec<String>>,
    pub lines: u32,
    pub features: Option<BTreeMap<&'static str, f64>>,
}

#[derive(Debug, Serialize)]
pub struct PlacementJson {
    pub orientation: u8,
    pub column: u8,
}

/// Every placement of `piece` on `board` with its outcome and every feature.
pub fn list_moves(board: Board, piece: &str) -> Result<Vec<MoveListing>> {
    let mut chars = piece.chars();
    let index = match (chars.next().and_then(piece_index), chars.next()) {
        (Some(i), None) => i,
        _ => bail!("unknown piece `{piece}`; valid pieces: {VALID_PIECES}"),
    };
    let game = Tetris::new(board.width(), board.height())?;
    let all: FeatureMask = (1 << FEATURE_NAMES.len()) - 1;
    let mut out = Vec::new();
    game.all_drops(
        &Position::new(board, index),
        all,
        |placement, topout, after, outcome, features| {
            out.push(MoveListing {
                placement: PlacementJson {
                    orientation: placement.orientation,
                    column: placement.column,
                },
                topout,
                after: (!topout).then(|| after.to_rows()),
                lines: outcome.cleared,
                features: (!topout).then(|| {
                    FEATURE_NAMES
                        .iter()
                        .enumerate()
                        .map(|(i, &n)| (n, features.0[i]))
                        .collect()
                }),
            });
        },
    );
    Ok(out)
}

/// The listing as text: one block per placement.
pub fn format_moves(listing: &[MoveListing]) -> String {
    let mut s = String::new();
    for m in listing {
        s.push_str(&format!(
            "orientation {} column {}",
            m.placement.orientation, m.placement.column
        ));
        if m.topout {
            s.push_str(": tops out\n\n");
            continue;
        }
        s.push_str(&format!(": {} line(s)\n", m.lines));
        let features = m
            .features
            .as_ref()
            .expect("features of a placement that fits");
        let after = m.after.as_ref().expect("board of a placement that fits");
        for (i, row) in after.iter().enumerate() {
            let feature = FEATURE_NAMES
                .get(i)
                .map(|n| format!("  {n:<20} {}", features[n]))
                .unwrap_or_default();
            s.push_str(&format!("  |{row}|{feature}\n"));
        }
        for n in FEATURE_NAMES.iter().skip(after.len()) {
            s.push_str(&format!(
                "  {:width$}  {n:<20} {}\n",
                "",
                features[n],
                width = after[0].len()
            ));
        }
        s.push('\n');
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ragged_board_names_the_line() {
        let err = parse_board("....\n...\n....\n....\n", "b.txt").unwrap_err();
        assert_eq!(
            err.to_string(),
            "board file b.txt line 2: 3 cells, but the first row has 4 (rows must be equally wide)"
        );
    }

    #[test]
    fn any_character_but_dot_is_filled() {
        let b = parse_board("....\n....\nx...\nX#.@\n", "b").unwrap();
        assert_eq!(b.to_rows(), vec!["....", "....", "#...", "##.#"]);
    }

    #[test]
    fn unknown_piece_is_an_error() {
        let b = Board::empty(4, 4);
        let err = list_moves(b, "Q").unwrap_err();
        assert_eq!(
            err.to_string(),
            "unknown piece `Q`; valid pieces: I, O, T, S, Z, L, J"
        );
    }
}
