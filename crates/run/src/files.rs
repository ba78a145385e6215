//! Where a run reads the weights files its config names (`init`, `baseline`, Connect-N
//! opponents): the disk, or texts a host hands in under the paths the config gives them (a
//! browser has no files). Either way a file gets the same checks and the same errors.

use super::config::BUILTIN_BASELINE;
use crate::backend::GameData;
use anyhow::{Context, Result};
use stacktune_games::settings::GameSpec;
use stacktune_players::weights::WeightFile;
use std::collections::BTreeMap;
use std::path::Path;

/// The files a run's config names.
#[derive(Clone, Copy, Debug)]
pub(super) enum Files<'a> {
    /// Read from the disk when the run needs them.
    Disk,
    /// Texts held in memory, by the path the config names each file with.
    Given(&'a BTreeMap<String, String>),
}

impl Files<'_> {
    /// The weights file at `path`, every error naming it.
    pub(super) fn weights(&self, path: &Path) -> Result<WeightFile> {
        match self {
            Files::Disk => WeightFile::load(path),
            Files::Given(_) => WeightFile::parse(&self.text(path)?)
                .with_context(|| format!("weights file {}", path.display())),
        }
    }

    /// A run's baseline weights: the file, or the built-in copy when a path ending in the
    /// built-in baseline's is not there (a run.toml names it relative to its own folder).
    pub(super) fn baseline(&self, path: &Path) -> Result<WeightFile> {
        if path.ends_with(BUILTIN_BASELINE.0) && !self.exists(path) {
            return WeightFile::parse(BUILTIN_BASELINE.1);
        }
        self.weights(path)
    }

    /// The game `spec` describes, with the weights files it names.
    pub(super) fn game_data(&self, spec: &GameSpec) -> Result<GameData> {
        match self {
            Files::Disk => GameData::new(spec),
            Files::Given(_) => GameData::read_with(spec, &|path| self.text(Path::new(path))),
        }
    }

    fn exists(&self, path: &Path) -> bool {
        match self {
            Files::Disk => path.exists(),
            Files::Given(texts) => texts.contains_key(&*path.to_string_lossy()),
        }
    }

    /// A given file's text.
    fn text(&self, path: &Path) -> Result<String> {
        match self {
            Files::Disk => stacktune_base::fsutil::read_text(path)
                .with_context(|| format!("cannot read weights file {}", path.display())),
            Files::Given(texts) => texts
                .get(&*path.to_string_lossy())
                .cloned()
                .with_context(|| format!("weights file {} is not given", path.display())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn given_files_are_checked_as_files_on_disk_are() {
        let mut texts = BTreeMap::new();
        texts.insert(
            "w.toml".to_string(),
            "game = \"puyo\"\n[weights]\ncrowding = nan\n".to_string(),
        );
        let files = Files::Given(&texts);
        assert_eq!(
            format!("{:#}", files.weights(Path::new("w.toml")).unwrap_err()),
            "weights file w.toml: weight `crowding` is NaN: weights must be finite numbers"
        );
        assert_eq!(
            files.weights(Path::new("x.toml")).unwrap_err().to_string(),
            "weights file x.toml is not given"
        );
        // The built-in run's baseline needs no file.
        let builtin = files.baseline(Path::new(BUILTIN_BASELINE.0)).unwrap();
        assert_eq!(builtin, WeightFile::parse(BUILTIN_BASELINE.1).unwrap());
    }
}
