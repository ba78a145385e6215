//! Board files and the column listing of `moves --game connect`: how users debug weights.
//!
//! A board file has one line per row, TOP row first, every line the same length (the number of
//! columns): `.` an empty cell, `X` a disc of the first player, `O` one of the second. The
//! side to move follows from the counts (X moves first, so X has as many discs as O or one
//! more); discs rest on the bottom or on other discs; the game must still be in play.

use super::{Column, Connect, Position};
use anyhow::{Result, bail};
use serde::Serialize;
use stacktune_game::Render;
use stacktune_game::{FeatureValues, Game};
use std::collections::BTreeMap;
use std::fmt::Write;

/// Parses a board file; its size sets the rows and columns, `inarow` the line length. `source`
/// names the file in errors.
pub fn parse_board(text: &str, source: &str, inarow: usize) -> Result<(Connect, Position)> {
    let lines = board_lines(text, source)?;
    let (rows, columns) = (lines.len(), lines[0].chars().count());
    let game = Connect::new(rows, columns, inarow)
        .map_err(|e| anyhow::anyhow!("board file {source}: {e}"))?;
    let mut position = discs_of(&game, &lines);
    settle_columns(&game, &mut position, source)?;
    let (x, o) = (
        position.discs[0].count_ones(),
        position.discs[1].count_ones(),
    );
    if x != o && x != o + 1 {
        bail!(
            "board file {source}: X has {x} discs and O {o}; X moves first, so X has as many as O or one more"
        );
    }
    position.to_move = (x - o) as u8;
    for (player, name) in [(0, 'X'), (1, 'O')] {
        if game.has_line(&position, player) {
            bail!("board file {source}: {name} already has {inarow} in a row; the game is over");
        }
    }
    if position.occupied() == game.geometry().board() {
        bail!("board file {source}: the board is full; the game is over");
    }
    Ok((game, position))
}

/// The rows of a board file, top first, trailing blank lines dropped: at least one, all as
/// long as the first, and every cell `.`, `X` or `O`.
fn board_lines<'a>(text: &'a str, source: &str) -> Result<Vec<&'a str>> {
    let mut lines: Vec<&str> = text.lines().map(str::trim_end).collect();
    while lines.last().is_some_and(|l| l.is_empty()) {
        lines.pop();
    }
    let Some(first) = lines.first() else {
        bail!("board file {source}: no rows");
    };
    let columns = first.chars().count();
    for (i, line) in lines.iter().enumerate() {
        let n = line.chars().count();
        if n != columns {
            bail!(
                "board file {source}, line {}: {n} cells, but line 1 has {columns}",
                i + 1
            );
        }
        if let Some((c, ch)) = line
            .chars()
            .enumerate()
            .find(|(_, ch)| !matches!(ch, '.' | 'X' | 'O'))
        {
            bail!(
                "board file {source}, line {}, column {}: `{ch}` is not a cell (`.` empty, `X` first player, `O` second)",
                i + 1,
                c + 1
            );
        }
    }
    Ok(lines)
}

/// The position with the discs of `lines` (top row first) on `game`'s board, nothing else set.
fn discs_of(game: &Connect, lines: &[&str]) -> Position {
    let g = *game.geometry();
    let mut position = game.empty();
    for (i, line) in lines.iter().enumerate() {
        let row = (lines.len() - 1 - i) as u32;
        for (c, ch) in line.chars().enumerate() {
            let player = match ch {
                'X' => 0,
                'O' => 1,
                _ => continue,
            };
            position.discs[player] |= g.cell(c as u32, row);
        }
    }
    position
}

/// Sets the columns' heights, refusing a disc above an empty cell: each column's discs must
/// be its lowest cells.
fn settle_columns(game: &Connect, position: &mut Position, source: &str) -> Result<()> {
    let g = *game.geometry();
    let rows = g.rows() as usize;
    for c in 0..g.columns() as usize {
        let discs = position.occupied() & g.column_mask(c as u32);
        let height = discs.count_ones();
        if discs != ((1 << height) - 1) * g.cell(c as u32, 0) {
            let empty = (0..height)
                .find(|&r| discs & g.cell(c as u32, r) == 0)
                .expect("a gap below the top disc");
            bail!(
                "board file {source}, line {}: column {} is empty under a disc (discs fall to the bottom)",
                rows - empty as usize,
                c + 1
            );
        }
        position.heights[c] = height as u8;
    }
    Ok(())
}

/// One column as `moves --json` prints it.
#[derive(Debug, Serialize)]
pub struct ColumnListing {
    /// 1-based, as the board file and `solve-connect` count columns.
    pub column: u32,
    /// Whether the column has room.
    pub legal: bool,
    /// `win` or `draw` when the move ends the game, else `null`.
    pub ending: Option<&'static str>,
    /// Every feature of the board the move leaves, from the mover's view; `null` for a full
    /// column or a move that ends the game (the player scores those as ±∞ or 0).
    pub features: Option<BTreeMap<&'static str, f64>>,
}

/// Every column, left to right, with what dropping the side to move's disc there does.
pub fn list_moves(game: &Connect, position: &Position) -> Vec<ColumnListing> {
    let names = game.feature_names();
    let mut listing: Vec<ColumnListing> = (0..game.geometry().columns())
        .map(|c| ColumnListing {
            column: c + 1,
            legal: false,
            ending: None,
            features: None,
        })
        .collect();
    game.for_each_move(position, !0, &mut |column: Column, _, outcome, values| {
        let entry = &mut listing[column as usize];
        entry.legal = true;
        entry.ending = match outcome.terminal_value {
            Some(v) if v > 0.0 => Some("win"),
            Some(_) => Some("draw"),
            None => None,
        };
        entry.features = (!outcome.game_over).then(|| by_name(names, values));
    });
    listing
}

fn by_name(names: &[&'static str], values: &FeatureValues) -> BTreeMap<&'static str, f64> {
    names
        .iter()
        .enumerate()
        .map(|(i, n)| (*n, values.0[i]))
        .collect()
}

/// The listing as a table: one line per feature, one column per board column.
pub fn format_moves(game: &Connect, position: &Position, listing: &[ColumnListing]) -> String {
    let mut s = game.render(position);
    let width = game
        .feature_names()
        .iter()
        .map(|n| n.len())
        .max()
        .unwrap_or(0);
    let _ = write!(s, "{:<width$}", "column");
    for entry in listing {
        let _ = write!(s, " {:>6}", entry.column);
    }
    let _ = write!(s, "\n{:<width$}", "result");
    for entry in listing {
        let result = match (entry.legal, entry.ending) {
            (false, _) => "full",
            (true, Some(e)) => e,
            (true, None) => "-",
        };
        let _ = write!(s, " {result:>6}");
    }
    s.push('\n');
    for name in game.feature_names() {
        let _ = write!(s, "{name:<width$}");
        for entry in listing {
            match &entry.features {
                Some(f) => {
                    let _ = write!(s, " {:>6}", f[name]);
                }
                None => {
                    let _ = write!(s, " {:>6}", "");
                }
            }
        }
        s.push('\n');
    }
    s
}

/// What `moves --game connect` prints for a board file's text.
pub fn moves(text: &str, source: &str, inarow: usize, json: bool) -> Result<String> {
    let (game, position) = parse_board(text, source, inarow)?;
    let listing = list_moves(&game, &position);
    Ok(if json {
        serde_json::to_string(&listing)? + "\n"
    } else {
        format_moves(&game, &position, &listing)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn board_files_round_trip_move_strings() {
        let game = Connect::standard();
        let text = ".......\n.......\n.......\n.......\n...O...\n..OXX..\n";
        let (parsed, position) = parse_board(text, "b", 4).unwrap();
        assert_eq!(parsed.geometry(), game.geometry());
        assert_eq!(position, game.parse_moves("4453").unwrap());
    }
}
