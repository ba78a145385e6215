//! A Kaggle ConnectX agent: a Python file (standard library only) that plays connect weights
//! with the search of `src/search/alpha_beta.rs` over the features of `src/games/connect`.
//!
//! The Python is a template (`kaggle_agent.py`, beside this file, readable and lintable as
//! Python); exporting fills in its generated block: the feature names, from the game's own
//! list, the weights, written so that Python reads back every bit, and the empty cells from
//! which the endgame stage restricts the search to the columns that keep the position's value.

use crate::games::connect::FEATURE_NAMES;
use crate::weights::WeightFile;
use anyhow::Result;
use std::fmt::Write;

/// The agent's source before export.
const TEMPLATE: &str = include_str!("kaggle_agent.py");

/// The agent's Python source for connect weights `file`; `source` (the weights file's path)
/// is recorded in it, and `endgame` is the empty cells from which it plays the endgame stage
/// (0: never). Weights of another game are refused; the feature names were checked
/// against the longest line the game supports, so a file that loads here loads in stacktune
/// for every line length its features fit.
pub fn agent_source(file: &WeightFile, source: &str, endgame: u32) -> Result<String> {
    file.check_against("connect", &FEATURE_NAMES)?;
    let mut block = String::new();
    let comment = " Written by `stacktune export kaggle`; export again rather than edit.";
    let quoted = serde_json::to_string(source)?;
    writeln!(block, "{comment}\nSOURCE = {quoted}")?;
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
    Ok(super::fill(TEMPLATE, &block))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::export::{BEGIN, END};

    #[test]
    fn the_weights_are_written_to_the_last_bit_in_feature_order() {
        let text = "game = \"connect\"\n[weights]\nopp_windows_3 = -0.6241361156749834\n\
                    own_centre = 1e-7\nown_threats_now = 3.0\n";
        let file = WeightFile::parse(text).unwrap();
        let source = agent_source(&file, "w \"1\".toml", 20).unwrap();
        assert!(source.contains("SOURCE = \"w \\\"1\\\".toml\"\n"));
        assert!(source.contains("}\nENDGAME = 20\n# </stacktune:generated>\n"));
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
        let err = agent_source(&file, "t.toml", 0).unwrap_err();
        assert_eq!(
            err.to_string(),
            "the weights are for game `tetris`, not `connect`"
        );
    }
}
