//! A controller for the Tetris programming contest (seigot/tetris): a `block_controller.py`
//! that plays contest weights through the `stacktune` Python package, so that it makes the
//! moves `stacktune play --rules contest` makes rather than a port of the search.
//!
//! The Python is a template (`block_controller.py`, beside this file, readable and lintable as
//! Python); exporting fills in its generated block with the weights file's whole text, its
//! `[search]` table included, so the controller needs nothing beside it but the package.

use super::Provenance;
use anyhow::Result;
use stacktune_games::tetris::contest::features::FEATURE_NAMES;
use stacktune_players::registry::unnamed_rules;
use stacktune_players::weights::WeightFile;
use std::fmt::Write;

/// The controller's source before export.
const TEMPLATE: &str = include_str!("block_controller.py");

/// The controller's Python source for the weights file `text` (already parsed as `file`);
/// `source` (the file's name and hash) is recorded in it. Weights of another game or of the research
/// rules are refused: the contest's engine plays the contest's rules only.
pub fn controller_source(file: &WeightFile, text: &str, source: &Provenance) -> Result<String> {
    file.check_against("tetris", &FEATURE_NAMES)?;
    file.check_has_preference()?;
    file.check_rules("contest", unnamed_rules("tetris"))?;
    let mut block = String::new();
    let comment = " Written by `stacktune export contest`; export again rather than edit.";
    // A JSON string is a Python string literal too: every character reads back as written.
    writeln!(block, "{comment}")?;
    block.push_str(&source.python_lines());
    writeln!(block, "WEIGHTS_TOML = {}", serde_json::to_string(text)?)?;
    Ok(super::fill(TEMPLATE, &block))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::export::{BEGIN, END};

    const TEXT: &str = "game = \"tetris\"\nrules = \"contest\"\n[search]\nbeam_width = 4\n\
                        [weights]\nholes = -0.25832094649434656\n# \"quoted\" \\ é\n";

    #[test]
    fn the_weights_file_is_embedded_whole() {
        let file = WeightFile::parse(TEXT).unwrap();
        let provenance = Provenance::of(std::path::Path::new("/m/w.toml"), TEXT.as_bytes());
        let source = controller_source(&file, TEXT, &provenance).unwrap();
        let block = source
            .split(BEGIN)
            .nth(1)
            .unwrap()
            .split(END)
            .next()
            .unwrap();
        assert_eq!(
            block,
            " Written by `stacktune export contest`; export again rather than edit.\n\
             SOURCE = \"w.toml\"\n\
             SOURCE_SHA256 = \"9e425e552c16454e6ff2c36507817856ffdfddff0212bfa574ad98216aad0cc6\"\n\
             WEIGHTS_TOML = \"game = \\\"tetris\\\"\\nrules = \\\"contest\\\"\\n[search]\\n\
             beam_width = 4\\n[weights]\\nholes = -0.25832094649434656\\n\
             # \\\"quoted\\\" \\\\ é\\n\"\n"
        );
        assert!(source.starts_with(TEMPLATE.split_once(BEGIN).unwrap().0));
        assert!(source.ends_with(TEMPLATE.split_once(END).unwrap().1));
    }

    #[test]
    fn weights_of_another_game_or_ruleset_are_refused() {
        let connect = WeightFile::parse("game = \"connect\"\n[weights]\nown_centre = 1.0\n");
        let provenance = Provenance::of(std::path::Path::new("c.toml"), b"");
        let err = controller_source(&connect.unwrap(), "", &provenance).unwrap_err();
        assert_eq!(
            err.to_string(),
            "the weights are for game `connect`, not `tetris`"
        );
        let research = WeightFile::parse("game = \"tetris\"\n[weights]\nholes = -1.0\n");
        let err = controller_source(&research.unwrap(), "", &provenance).unwrap_err();
        assert_eq!(
            err.to_string(),
            "the weights are for tetris rules `research`, not `contest`"
        );
    }
}
