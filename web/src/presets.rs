//! The page's presets: run configs in web/presets/ that the command line runs as they are
//! (`stacktune evolve --config web/presets/ID.toml`), with the texts of the weights files they
//! name, under the paths they name them with.

use serde::Serialize;
use stacktune_run::RunConfig;
use std::collections::{BTreeMap, BTreeSet};

/// A preset as the page receives it.
#[derive(Serialize)]
pub struct Preset {
    id: &'static str,
    config: &'static str,
    files: BTreeMap<&'static str, &'static str>,
}

/// The presets in the order the page offers them.
const PRESETS: [(&str, &str); 5] = [
    ("puyo-tsu", include_str!("../presets/puyo-tsu.toml")),
    (
        "puyo-programming",
        include_str!("../presets/puyo-programming.toml"),
    ),
    ("tetris-10x10", include_str!("../presets/tetris-10x10.toml")),
    ("tetris-10x20", include_str!("../presets/tetris-10x20.toml")),
    ("connect-four", include_str!("../presets/connect-four.toml")),
];

/// Every weights file a preset names, by the path the presets name it with (relative to
/// web/presets/).
const FILES: [(&str, &str); 3] = [
    (
        "../../weights/puyo/hand.toml",
        include_str!("../../weights/puyo/hand.toml"),
    ),
    (
        "../../weights/tetris/dellacherie.toml",
        include_str!("../../weights/tetris/dellacherie.toml"),
    ),
    (
        "connect-hand.toml",
        include_str!("../presets/connect-hand.toml"),
    ),
];

pub fn all() -> Vec<Preset> {
    PRESETS
        .iter()
        .map(|&(id, config)| Preset {
            id,
            config,
            files: FILES
                .iter()
                .filter(|(path, _)| named(config).contains(*path))
                .copied()
                .collect(),
        })
        .collect()
}

/// The weights files a config names.
fn named(config: &str) -> BTreeSet<String> {
    let config = RunConfig::from_text(config).expect("a preset parses");
    let paths = [&config.init, &config.baseline];
    paths
        .into_iter()
        .flatten()
        .map(|p| p.to_string_lossy().into_owned())
        .chain(config.game.opponents.iter().cloned())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Page, on_page};
    use stacktune_run::SteppedRun;

    /// Every preset starts as a run with the files it is given: each one it names is there.
    #[test]
    fn every_preset_starts_with_the_files_it_names() {
        for preset in all() {
            assert_eq!(
                named(preset.config).len(),
                preset.files.len(),
                "{}",
                preset.id
            );
            let files = preset
                .files
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect();
            let (config, game) = crate::game_of(preset.config, &files)
                .unwrap_or_else(|_| panic!("{} does not build", preset.id));
            on_page!(game, g => SteppedRun::start(g, config, files).map(|_| ()))
                .unwrap_or_else(|e| panic!("{}: {e:#}", preset.id));
        }
    }
}
