//! The opening book: for every position of the 7 × 6 board with at most `plies` discs, the
//! columns that keep its value under perfect play (those [`perfect::value_keeping`] gives),
//! proved once by the solver and shipped (`weights/connect/book.txt`). The endgame stage
//! does the same for the last cells, where the solver answers within a move; the first moves
//! are where it cannot, and where a search's depth parity decides otherwise (on the empty
//! board, the centre alone keeps the first player's win).
//!
//! The file is text: `#` comment lines, then one line a position, one of each mirror pair:
//! the moves that reach it (Pascal Pons' notation, columns 1 to 7) and the columns that keep
//! its value (1 to 7, ascending), or `-` for a lost position, which every column keeps.

use super::perfect::outcome;
use super::solver::{OPENING_SLOTS, Solver};
use super::{Column, Connect, Ending, Position};
use anyhow::{Result, anyhow, bail};
use stacktune_game::Game;
use std::collections::{HashMap, HashSet};
use std::fmt::Write;
use std::sync::atomic::{AtomicI8, AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};

/// The book shipped in the repository, compiled in so that every binary has it.
pub const SHIPPED_FILE: &str = "weights/connect/book.txt";
const SHIPPED: &str = include_str!("../../data/book.txt");

/// The columns of the standard board.
const COLUMNS: u32 = 7;

/// One position of the book.
#[derive(Clone, Debug)]
pub struct Entry {
    /// The moves that reach it, Pons' notation.
    pub moves: String,
    pub position: Position,
    /// Bit c for column c (0-based) keeping the value; 0 for a lost position.
    pub kept: u8,
}

#[derive(Debug, Default)]
pub struct Book {
    /// Deepest position held, in discs.
    plies: u32,
    entries: Vec<Entry>,
    /// Each entry's index by its position.
    index: HashMap<Position, usize>,
}

impl Book {
    /// The book compiled into this binary (`weights/connect/book.txt` when it was built).
    pub fn shipped() -> Arc<Book> {
        static BOOK: OnceLock<Arc<Book>> = OnceLock::new();
        BOOK.get_or_init(|| {
            let book = Book::parse(SHIPPED);
            Arc::new(book.unwrap_or_else(|e| panic!("{SHIPPED_FILE} is invalid: {e}")))
        })
        .clone()
    }

    /// The book `--book` names for `game`: a file, `shipped` or `none`.
    pub fn load(game: &Connect, name: &str) -> Result<Option<Arc<Book>>> {
        if name == "none" {
            return Ok(None);
        }
        if !game.is_standard() {
            bail!(
                "--book needs the 7 × 6 board, 4 in a row, that the solver solves, not {}",
                game.rules()
            );
        }
        if name == "shipped" {
            return Ok(Some(Book::shipped()));
        }
        let text = stacktune_base::fsutil::read_text(std::path::Path::new(name))
            .map_err(|e| anyhow!("cannot read book file {name}: {e}"))?;
        let book = Book::parse(&text).map_err(|e| anyhow!("book file {name}: {e}"))?;
        Ok(Some(Arc::new(book)))
    }

    fn from_entries(entries: Vec<Entry>) -> Book {
        let plies = entries.iter().map(|e| e.position.moves_played()).max();
        let index = entries
            .iter()
            .enumerate()
            .map(|(i, e)| (e.position, i))
            .collect();
        Book {
            plies: plies.unwrap_or(0),
            entries,
            index,
        }
    }

    /// The deepest position it holds, in discs.
    pub fn plies(&self) -> u32 {
        self.plies
    }

    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }

    /// The columns that keep `position`'s value, centre first: `None` when the book does not
    /// hold the position (or its mirror image), `Some(None)` when it is lost (every column
    /// keeps it), as [`value_keeping`] says it.
    pub fn kept(&self, game: &Connect, position: &Position) -> Option<Option<Vec<Column>>> {
        if position.moves_played() > self.plies || !game.is_standard() {
            return None;
        }
        let (kept, mirrored) = match self.index.get(position) {
            Some(&i) => (self.entries[i].kept, false),
            None => (
                self.entries[*self.index.get(&game.mirror(position))?].kept,
                true,
            ),
        };
        if kept == 0 {
            return Some(None);
        }
        let columns = game
            .column_order()
            .iter()
            .copied()
            .filter(|&c| {
                let bit = if mirrored { COLUMNS as u8 - 1 - c } else { c };
                kept & (1 << bit) != 0
            })
            .collect();
        Some(Some(columns))
    }

    /// The book's file: `header` (comment lines, each without its `# `), then its entries.
    pub fn to_text(&self, header: &[String]) -> String {
        let mut text = String::new();
        for line in header {
            let _ = writeln!(text, "# {line}");
        }
        for e in &self.entries {
            let moves = if e.moves.is_empty() { "." } else { &e.moves };
            let _ = write!(text, "{moves} ");
            if e.kept == 0 {
                text.push('-');
            }
            for c in 0..COLUMNS {
                if e.kept & (1 << c) != 0 {
                    let _ = write!(text, "{}", c + 1);
                }
            }
            text.push('\n');
        }
        text
    }

    /// A book file's text, checked line by line (`line N: …` saying what is wrong): positions
    /// in play on the standard board, each once with its mirror image, columns that exist and
    /// have room.
    pub fn parse(text: &str) -> Result<Book> {
        let game = Connect::standard();
        let mut entries = Vec::new();
        let mut index: HashMap<Position, usize> = HashMap::new();
        for (i, line) in text.lines().enumerate() {
            let n = i + 1;
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let mut fields = line.split_whitespace();
            let (Some(moves), Some(columns), None) = (fields.next(), fields.next(), fields.next())
            else {
                bail!("line {n}: `{line}` is not `MOVES COLUMNS`");
            };
            let moves = if moves == "." { "" } else { moves };
            let position = game
                .parse_moves(moves)
                .map_err(|e| anyhow::anyhow!("line {n}: {e}"))?;
            if index.contains_key(&position) || index.contains_key(&game.mirror(&position)) {
                bail!("line {n}: the position of `{moves}` (or its mirror image) is there already");
            }
            let mut kept = 0u8;
            if columns != "-" {
                for ch in columns.chars() {
                    let column = match ch.to_digit(10) {
                        Some(d @ 1..=7) => (d - 1) as Column,
                        _ => bail!("line {n}: `{columns}` is not columns 1 to 7 or `-`"),
                    };
                    if !game.is_legal(&position, column) {
                        bail!("line {n}: column {} is full", column + 1);
                    }
                    kept |= 1 << column;
                }
            }
            index.insert(position, entries.len());
            entries.push(Entry {
                moves: moves.to_string(),
                position,
                kept,
            });
        }
        Ok(Book::from_entries(entries))
    }
}

/// The positions a book is built from: every position reached from a root (the moves from the
/// empty board: `""` for the whole opening) with at most `plies` discs, one of each mirror
/// pair, in the order a breadth-first walk of the columns 1 to 7 meets them, layer by layer;
/// and the layer one disc deeper, whose outcomes the solver finds ([`solve_all`]). The values
/// of the book's positions follow from those by negamax, each position's value the best of
/// its columns', which costs nothing beside the deepest positions' solving (an early
/// position's own search costs minutes: its tree holds all those positions).
pub struct Plan {
    layers: Vec<Vec<(String, Position)>>,
    deepest: Vec<(String, Position)>,
}

impl Plan {
    pub fn new(root: &str, plies: u32) -> Result<Plan> {
        let game = Connect::standard();
        let start = game.parse_moves(root)?;
        if plies < start.moves_played() {
            bail!(
                "--plies {plies} is fewer discs than the {} of --from {root}",
                start.moves_played()
            );
        }
        let mut layers = vec![vec![(root.to_string(), start)]];
        let mut seen = HashSet::from([start]);
        for discs in 0..(plies - start.moves_played()) as usize + 1 {
            let mut next = Vec::new();
            for (moves, position) in &layers[discs] {
                for column in 0..COLUMNS as Column {
                    let mut after = *position;
                    if game.play(&mut after, column).is_some()
                        || seen.contains(&game.mirror(&after))
                        || !seen.insert(after)
                    {
                        continue;
                    }
                    next.push((format!("{moves}{}", column + 1), after));
                }
            }
            layers.push(next);
        }
        let deepest = layers.pop().expect("one layer beyond the book");
        Ok(Plan { layers, deepest })
    }

    /// The positions to solve, with the moves that reach them, in a fixed order.
    pub fn deepest(&self) -> &[(String, Position)] {
        &self.deepest
    }

    /// The book, from the outcomes of [`Plan::deepest`]'s positions in its order.
    pub fn book(self, outcomes: &[i8]) -> Book {
        let game = Connect::standard();
        let mut values: HashMap<Position, i8> = self
            .deepest
            .iter()
            .map(|(_, p)| *p)
            .zip(outcomes.iter().copied())
            .collect();
        let mut entries = Vec::new();
        for layer in self.layers.into_iter().rev() {
            let mut above = HashMap::new();
            for (moves, position) in layer {
                let (value, kept) = back_up(&game, &position, &values);
                above.insert(position, value);
                entries.push(Entry {
                    moves,
                    position,
                    kept,
                });
            }
            values = above;
        }
        entries.sort_by_key(|e| e.position.moves_played());
        Book::from_entries(entries)
    }
}

/// The outcome of every position, on `threads` workers (0: one per core) that each keep one
/// solver with an [`OPENING_SLOTS`] table for all the positions they take: neighbouring
/// positions share most of their trees, and a table kept from one to the next saves that work.
/// `solved(i, outcome)` hears of each as it comes, from the worker that solved it.
pub fn solve_all(
    positions: &[Position],
    threads: usize,
    solved: &(dyn Fn(usize, i8) + Sync),
) -> Vec<i8> {
    let game = Connect::standard();
    let threads = match threads {
        0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
        n => n,
    };
    let next = AtomicUsize::new(0);
    let outcomes: Vec<AtomicI8> = positions.iter().map(|_| AtomicI8::new(0)).collect();
    std::thread::scope(|scope| {
        for _ in 0..threads.min(positions.len()) {
            scope.spawn(|| {
                let mut solver = Solver::<OPENING_SLOTS>::sized();
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(position) = positions.get(i) else {
                        break;
                    };
                    let value = outcome(&mut solver, &game, position);
                    outcomes[i].store(value, Ordering::Relaxed);
                    solved(i, value);
                }
            });
        }
    });
    outcomes.into_iter().map(AtomicI8::into_inner).collect()
}

/// A position's value for its side to move and the columns that keep it (0: lost), from the
/// values of the positions its columns lead to (`values`, one of each mirror pair).
fn back_up(game: &Connect, position: &Position, values: &HashMap<Position, i8>) -> (i8, u8) {
    let mut columns = [None; COLUMNS as usize];
    for column in 0..COLUMNS as Column {
        if !game.is_legal(position, column) {
            continue;
        }
        let mut after = *position;
        columns[column as usize] = Some(match game.play(&mut after, column) {
            Some(Ending::Win) => 1,
            Some(_) => 0,
            None => -values
                .get(&after)
                .or_else(|| values.get(&game.mirror(&after)))
                .expect("the layer below holds every position a column leads to"),
        });
    }
    let best = columns
        .iter()
        .flatten()
        .copied()
        .max()
        .expect("a column has room");
    let kept = match best {
        -1 => 0,
        _ => (0..COLUMNS)
            .filter(|&c| columns[c as usize] == Some(best))
            .fold(0, |m, c| m | 1 << c),
    };
    (best, kept)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mirror_images_share_an_entry_with_their_columns_mirrored() {
        let game = Connect::standard();
        let text = "# a test\n. 4\n1 -\n12 35\n";
        let book = Book::parse(text).unwrap();
        assert_eq!(book.plies(), 2);
        assert_eq!(
            book.kept(&game, &game.parse_moves("7").unwrap()),
            Some(None)
        );
        assert_eq!(
            book.kept(&game, &game.parse_moves("12").unwrap()),
            Some(Some(vec![2, 4]))
        );
        // The mirror image of 12 is 76, and columns 3 and 5 (indices 2 and 4) are 5 and 3.
        assert_eq!(
            book.kept(&game, &game.parse_moves("76").unwrap()),
            Some(Some(vec![2, 4]))
        );
        assert_eq!(book.kept(&game, &game.parse_moves("13").unwrap()), None);
        assert_eq!(book.kept(&game, &game.parse_moves("123").unwrap()), None);
        // Another board size holds nothing of it.
        let small = Connect::new(5, 6, 4).unwrap();
        assert_eq!(book.kept(&small, &small.empty()), None);
        let header = ["a test".to_string()];
        assert_eq!(book.to_text(&header), text);
    }

    /// A book of late positions (cheap to solve), built from the outcomes one disc deeper,
    /// against [`value_keeping`] on each of its positions: the same columns.
    #[test]
    fn a_built_book_keeps_the_columns_value_keeping_keeps() {
        use crate::connect::perfect::value_keeping;
        let game = Connect::standard();
        // A games-set position with 28 discs, 14 empty cells: the book holds it and what
        // follows up to 30 discs, 1 + 7 + 49 positions at most (fewer: full columns, games
        // won, mirror images); more than 8 holds the last layer too.
        let root = "7723223332375564445442245537";
        let plan = Plan::new(root, 30).unwrap();
        let positions: Vec<Position> = plan.deepest().iter().map(|(_, p)| *p).collect();
        let book = plan.book(&solve_all(&positions, 1, &|_, _| {}));
        assert_eq!(book.plies(), 30);
        assert!(book.entries().len() > 8, "{}", book.entries().len());
        let mut solver = Solver::new();
        let mut restricted = 0;
        for entry in book.entries() {
            let kept = value_keeping(&mut solver, &game, &entry.position)
                .map_or(0, |columns| columns.iter().fold(0, |m, &c| m | 1 << c));
            assert_eq!(kept, entry.kept, "{}", entry.moves);
            let legal = (0..7)
                .filter(|&c| game.is_legal(&entry.position, c))
                .count();
            restricted += (kept != 0 && (kept.count_ones() as usize) < legal) as u32;
        }
        // Positions where the book changes what the search may choose.
        assert!(restricted > 5, "{restricted}");
        assert_eq!(
            Book::parse(&book.to_text(&[])).unwrap().entries().len(),
            book.entries().len()
        );
    }

    #[test]
    fn a_bad_line_is_refused_with_its_number() {
        for (text, error) in [
            (". 4\n4 12 3\n", "line 2: `4 12 3` is not `MOVES COLUMNS`"),
            (
                ". 4\n48 1\n",
                "line 2: move 2 plays column 8, but the columns are 1 to 7",
            ),
            (
                ". 4\n1 -\n7 -\n",
                "line 3: the position of `7` (or its mirror image) is there already",
            ),
            (". 8\n", "line 1: `8` is not columns 1 to 7 or `-`"),
            ("444444 4\n", "line 1: column 4 is full"),
        ] {
            let err = Book::parse(text).unwrap_err();
            assert_eq!(err.to_string(), error, "{text:?}");
        }
    }
}
