//! Puzzle files: a TOML file holding one puzzle, and the Panel Attack JSON stock format
//! holding named sets of puzzles.
//!
//! A file that cannot be read or parsed is an error; a puzzle inside a good file that these
//! rules cannot play (garbage, a colour the rules lack, a board that is not settled) is kept
//! as an [`Entry`] with the reason, so `solve --every` can report it and go on.

use super::board::{Board, HEIGHT, WIDTH};
use anyhow::{Context, Result, anyhow, bail};
use serde::Deserialize;
use std::path::Path;

/// Cells of the board, the longest a Panel Attack `Stack` may be.
const CELLS: usize = WIDTH * HEIGHT;

/// A puzzle these rules can play.
#[derive(Clone, Debug)]
pub struct Puzzle {
    /// The most swaps a solution may use.
    pub swaps: u32,
    pub board: Board,
}

/// One puzzle of a file, named as `solve` reports it.
#[derive(Debug)]
pub struct Entry {
    /// `Classic set 6, puzzle 9` in a stock file; a TOML file's `name` or file stem.
    pub name: String,
    /// The Panel Attack set, absent for TOML.
    pub set: Option<String>,
    /// Position in its set, counted from 1 as the game counts stages.
    pub index: usize,
    /// The puzzle, or why these rules cannot play it.
    pub puzzle: Result<Puzzle>,
}

/// Reads a puzzle file: `.json` is a Panel Attack stock file, `.toml` a single puzzle, and any
/// other name is sniffed (JSON starts with `{`, which TOML cannot). Errors name the file.
pub fn read(path: &Path) -> Result<Vec<Entry>> {
    let text = stacktune_base::fsutil::read_text(path)
        .with_context(|| format!("cannot read puzzle file {}", path.display()))?;
    let json = match path.extension().and_then(|e| e.to_str()) {
        Some("json") => true,
        Some("toml") => false,
        _ => text.trim_start().starts_with('{'),
    };
    let entries = if json {
        parse_stock(&text)
    } else {
        let stem = path.file_stem().map(|s| s.to_string_lossy().into_owned());
        parse_toml(&text, stem.as_deref().unwrap_or("puzzle")).map(|e| vec![e])
    };
    entries.with_context(|| format!("puzzle file {}", path.display()))
}

/// The puzzle at 1-based `index` of the set named `set`; a wrong name lists the names and a
/// wrong index gives the range, since both are easy to get wrong from the command line.
pub fn select<'a>(entries: &'a [Entry], set: &str, index: usize) -> Result<&'a Entry> {
    let in_set = |e: &&Entry| e.set.as_deref() == Some(set);
    let size = entries.iter().filter(in_set).count();
    if size == 0 {
        let mut names: Vec<&str> = entries.iter().filter_map(|e| e.set.as_deref()).collect();
        names.dedup();
        if names.is_empty() {
            bail!(
                "--set and --index pick a puzzle of a Panel Attack JSON file; this file holds one puzzle"
            );
        }
        bail!("no set named \"{set}\"; sets: \"{}\"", names.join("\", \""));
    }
    entries
        .iter()
        .filter(in_set)
        .find(|e| e.index == index)
        .ok_or_else(|| {
            anyhow!(
                "set \"{set}\" has puzzles 1 to {size}; --index {index} is not one of them (it counts from 1)"
            )
        })
}

/// The TOML puzzle format of `stage59.toml`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TomlPuzzle {
    name: Option<String>,
    swaps: u32,
    /// Rows TOP first; fewer than 12 leave the top rows empty.
    rows: Vec<Vec<i64>>,
}

/// Parses a TOML puzzle; `default_name` names it when the file does not. A TOML file holds a
/// single puzzle, so a board these rules cannot play is an error here rather than an entry.
pub fn parse_toml(text: &str, default_name: &str) -> Result<Entry> {
    let file: TomlPuzzle = toml::from_str(text).map_err(|e| {
        anyhow!(
            "malformed TOML: {}",
            stacktune_base::toml_error::toml_error(text, &e)
        )
    })?;
    let name = file.name.unwrap_or_else(|| default_name.to_string());
    if file.rows.len() > HEIGHT {
        bail!("{} rows; the board has {HEIGHT}", file.rows.len());
    }
    let mut rows = [[0u8; WIDTH]; HEIGHT];
    let first = HEIGHT - file.rows.len();
    for (i, row) in file.rows.iter().enumerate() {
        let y = file.rows.len() - 1 - i;
        if row.len() != WIDTH {
            bail!(
                "row {} from the top (y = {y}) has {} cells; every row has {WIDTH}",
                i + 1,
                row.len()
            );
        }
        for (x, &v) in row.iter().enumerate() {
            rows[first + i][x] = u8::try_from(v)
                .ok()
                .filter(|&c| c <= super::board::COLOURS)
                .ok_or_else(|| unsupported_cell(x, y, &v.to_string()))?;
        }
    }
    let board = Board::from_rows(&rows)?;
    Ok(Entry {
        name,
        set: None,
        index: 1,
        puzzle: Ok(Puzzle {
            swaps: file.swaps,
            board,
        }),
    })
}

/// The Panel Attack stock file (version 2): named sets of puzzles. Fields the solver has no
/// use for (`Version`, `Do Countdown`) are ignored.
#[derive(Deserialize)]
struct StockFile {
    #[serde(rename = "Puzzle Sets")]
    sets: Vec<StockSet>,
}

#[derive(Deserialize)]
struct StockSet {
    #[serde(rename = "Set Name")]
    name: String,
    #[serde(rename = "Puzzles")]
    puzzles: Vec<StockPuzzle>,
}

#[derive(Deserialize)]
struct StockPuzzle {
    #[serde(rename = "Puzzle Type")]
    kind: String,
    #[serde(rename = "Moves")]
    moves: u32,
    #[serde(rename = "Stack")]
    stack: String,
}

/// Parses a Panel Attack stock file into its puzzles, in file order.
pub fn parse_stock(text: &str) -> Result<Vec<Entry>> {
    let file: StockFile =
        serde_json::from_str(text).map_err(|e| anyhow!("not a Panel Attack puzzle file: {e}"))?;
    let mut entries = Vec::new();
    for set in file.sets {
        for (i, p) in set.puzzles.into_iter().enumerate() {
            let name = format!("{}, puzzle {}", set.name, i + 1);
            let puzzle = if p.kind == "moves" {
                decode_stack(&p.stack).map(|board| Puzzle {
                    swaps: p.moves,
                    board,
                })
            } else {
                Err(anyhow!(
                    "puzzle type \"{}\"; only \"moves\" puzzles are supported",
                    p.kind
                ))
            };
            entries.push(Entry {
                name,
                set: Some(set.name.clone()),
                index: i + 1,
                puzzle,
            });
        }
    }
    Ok(entries)
}

/// Decodes a `Stack`: whitespace ignored, left-padded with `0` to 72 cells, 12 rows of 6 TOP
/// row first.
fn decode_stack(stack: &str) -> Result<Board> {
    let cells: Vec<char> = stack.chars().filter(|c| !c.is_whitespace()).collect();
    if cells.len() > CELLS {
        bail!(
            "the stack has {} cells; the board holds {CELLS}",
            cells.len()
        );
    }
    let mut rows = [[0u8; WIDTH]; HEIGHT];
    for (k, &ch) in (CELLS - cells.len()..).zip(&cells) {
        let (row, x) = (k / WIDTH, k % WIDTH);
        let what = match ch {
            '0'..='6' => {
                rows[row][x] = ch as u8 - b'0';
                continue;
            }
            '7' => "7 (an orange panel)".to_string(),
            '8' => "8 (a \"!\" block)".to_string(),
            '9' => "9 (a colourless block)".to_string(),
            '[' | ']' | '{' | '}' | '=' => format!("`{ch}` (garbage)"),
            other => format!("`{other}`"),
        };
        return Err(unsupported_cell(x, HEIGHT - 1 - row, &what));
    }
    Board::from_rows(&rows)
}

/// The one line for a cell the rules do not cover, in both formats' terms.
fn unsupported_cell(x: usize, y: usize, what: &str) -> anyhow::Error {
    anyhow!("cell ({x}, {y}) holds {what}; the rules cover 0 (empty) and colours 1 to 6")
}

#[cfg(test)]
mod tests {
    use super::*;

    const STAGE_59: &str = include_str!("../../../../tests/data/panel/stage59.toml");

    #[test]
    fn stage_59_reads_with_the_origin_bottom_left() {
        let e = parse_toml(STAGE_59, "x").unwrap();
        assert_eq!(e.name, "stage 59");
        let p = e.puzzle.unwrap();
        assert_eq!(p.swaps, 4);
        assert_eq!(
            (p.board.get(1, 0), p.board.get(2, 0), p.board.get(2, 8)),
            (1, 3, 5)
        );
        assert_eq!(p.board.height(), 9);
    }

    #[test]
    fn short_toml_boards_are_padded_on_top() {
        let e = parse_toml("swaps = 1\nrows = [[1, 1, 0, 1, 0, 0]]", "hand").unwrap();
        assert_eq!(e.name, "hand");
        assert_eq!(e.puzzle.unwrap().board.get(3, 0), 1);
    }

    #[test]
    fn bad_toml_cells_name_the_row_or_cell() {
        let err = |t: &str| format!("{:#}", parse_toml(t, "p").unwrap_err());
        let ragged = err("swaps = 1\nrows = [[0, 0, 0, 0, 0, 0], [1, 1, 0, 1, 0]]");
        assert!(
            ragged.contains("row 2 from the top (y = 0) has 5 cells"),
            "{ragged}"
        );
        let nine = err("swaps = 1\nrows = [[9, 1, 0, 1, 0, 0]]");
        assert!(nine.contains("cell (0, 0) holds 9"), "{nine}");
        let negative = err("swaps = 1\nrows = [[1, -1, 0, 1, 0, 0]]");
        assert!(negative.contains("cell (1, 0) holds -1"), "{negative}");
        let unknown = err("swaps = 1\nrow = []");
        assert!(unknown.starts_with("malformed TOML: line 2"), "{unknown}");
        assert!(!unknown.contains('\n'), "{unknown}");
    }

    #[test]
    fn stacks_are_left_padded_and_read_top_row_first() {
        let board = decode_stack("12 \n 34 5612").unwrap();
        assert_eq!(
            (board.get(4, 1), board.get(5, 1), board.get(3, 1)),
            (1, 2, 0)
        );
        assert_eq!(
            (board.get(0, 0), board.get(3, 0), board.get(5, 0)),
            (3, 6, 2)
        );
    }

    #[test]
    fn stock_cells_outside_the_rules_name_the_set_puzzle_and_cell() {
        let json = r#"{"Version": 2, "Puzzle Sets": [{"Set Name": "S", "Puzzles": [
            {"Puzzle Type": "moves", "Moves": 1, "Stack": "1[=]11"},
            {"Puzzle Type": "clear", "Moves": 0, "Stack": "1"},
            {"Puzzle Type": "moves", "Moves": 2, "Stack": "121"}]}]}"#;
        let entries = parse_stock(json).unwrap();
        let reason = |i: usize| format!("{:#}", entries[i].puzzle.as_ref().unwrap_err());
        assert_eq!(
            reason(0),
            "cell (1, 0) holds `[` (garbage); the rules cover 0 (empty) and colours 1 to 6"
        );
        assert!(reason(1).contains("puzzle type \"clear\""));
        assert_eq!(entries[2].puzzle.as_ref().unwrap().swaps, 2);
        assert_eq!(select(&entries, "S", 3).unwrap().name, "S, puzzle 3");
        assert!(select(&entries, "S", 0).is_err());
        assert!(select(&entries, "S", 4).is_err());
        assert!(
            select(&entries, "T", 1)
                .unwrap_err()
                .to_string()
                .contains("sets: \"S\"")
        );
    }
}
