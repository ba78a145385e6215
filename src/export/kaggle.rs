//! A Kaggle ConnectX agent: a Python file (standard library only) that plays connect weights
//! with the search of `src/search/alpha_beta.rs` over the features of `src/games/connect`.
//!
//! The Python is a template (`kaggle_agent.py`, beside this file, readable and lintable as
//! Python); exporting fills in its generated block: the feature names, from the game's own
//! list, the weights, written so that Python reads back every bit, and the empty cells from
//! which the endgame stage restricts the search to the columns that keep the position's value.

use super::Provenance;
use anyhow::Result;
use stacktune_games::connect::FEATURE_NAMES;
use stacktune_games::connect::book::Book;
use stacktune_players::weights::WeightFile;
use std::fmt::Write;

/// The agent's source before export.
const TEMPLATE: &str = include_str!("kaggle_agent.py");

/// The agent's Python source for connect weights `file`; `source` (the weights file's name
/// and hash) is recorded in it, and `endgame` is the empty cells from which it plays the endgame stage
/// (0: never), and `book` the opening book it keeps to in the positions it holds. Weights of
/// another game are refused; the feature names were checked
/// against the longest line the game supports, so a file that loads here loads in stacktune
/// for every line length its features fit.
pub fn agent_source(
    file: &WeightFile,
    source: &Provenance,
    endgame: u32,
    book: Option<&Book>,
) -> Result<String> {
    file.check_against("connect", &FEATURE_NAMES)?;
    file.check_has_preference()?;
    let mut block = String::new();
    let comment = " Written by `stacktune export kaggle`; export again rather than edit.";
    writeln!(block, "{comment}")?;
    block.push_str(&source.python_lines());
    block.push_str("FEATURE_NAMES = (\n");
    for name in FEATURE_NAMES {
        writeln!(block, "    \"{name}\",")?;
    }
    block.push_str(")\nWEIGHTS = {\n");
    for name in FEATURE_NAMES {
        if let Some(w) = file.weights.get(name) {
            // WeightFile::parse let only finite weights through. Debug prints the shortest text that reads back as the same f64, in a form
            // Python's float literals accept (0.1, 1e-7, -2.5).
            writeln!(block, "    \"{name}\": {w:?},")?;
        }
    }
    block.push_str("}\n");
    writeln!(block, "ENDGAME = {endgame}")?;
    write_book(&mut block, book)?;
    Ok(super::fill(TEMPLATE, &block))
}

/// `BOOK_PLIES` and `BOOK`, the opening book as the agent looks it up: a position's key (the
/// solver's: the mover's discs plus all discs, in the agent's bit layout, which is
/// stacktune's) to the columns that keep its value as bits (bit c: column c; 0: lost).
fn write_book(block: &mut String, book: Option<&Book>) -> Result<()> {
    let Some(book) = book else {
        block.push_str("BOOK_PLIES = 0\nBOOK = {}\n");
        return Ok(());
    };
    writeln!(block, "BOOK_PLIES = {}", book.plies())?;
    block.push_str("BOOK = {");
    for (i, entry) in book.entries().iter().enumerate() {
        let position = &entry.position;
        let key = position.discs(position.to_move()) + position.occupied();
        let gap = if i % 8 == 0 { "\n    " } else { " " };
        write!(block, "{gap}{key}: {},", entry.kept)?;
    }
    block.push_str("\n}\n");
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::export::{BEGIN, END};
    use std::path::Path;

    fn provenance(name: &str) -> Provenance {
        Provenance::of(Path::new(name), b"")
    }

    #[test]
    fn the_weights_are_written_to_the_last_bit_in_feature_order() {
        let text = "game = \"connect\"\n[weights]\nopp_windows_3 = -0.6241361156749834\n\
                    own_centre = 1e-7\nown_threats_now = 3.0\n";
        let file = WeightFile::parse(text).unwrap();
        let source = agent_source(&file, &provenance("w.toml"), 20, None).unwrap();
        // `sha256sum` of an empty file.
        assert!(source.contains(
            "rather than edit.\nSOURCE = \"w.toml\"\nSOURCE_SHA256 = \"e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855\"\n"
        ));
        assert!(
            source
                .contains("}\nENDGAME = 20\nBOOK_PLIES = 0\nBOOK = {}\n# </stacktune:generated>\n")
        );
        let weights = source.split("WEIGHTS = {\n").nth(1).unwrap();
        let weights = weights.split("}\n").next().unwrap();
        assert_eq!(
            weights,
            "    \"own_centre\": 1e-7,\n    \"own_threats_now\": 3.0,\n    \
             \"opp_windows_3\": -0.6241361156749834,\n"
        );
        assert_eq!(source.matches(BEGIN).count(), 1);
        assert!(source.ends_with(TEMPLATE.split_once(END).unwrap().1));
    }

    #[test]
    fn weights_of_another_game_are_refused() {
        let file = WeightFile::parse("game = \"tetris\"\n[weights]\nholes = -1.0\n").unwrap();
        let err = agent_source(&file, &provenance("t.toml"), 0, None).unwrap_err();
        assert_eq!(
            err.to_string(),
            "the weights are for game `tetris`, not `connect`"
        );
    }
}
