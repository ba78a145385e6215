//! Weight files: a game name, feature weights by name, and free-form provenance.
//!
//! Weights are keyed by feature name so that a file stays valid whatever order a game keeps its
//! features in, and so that a person can read and edit it.

use anyhow::{Context, Result, bail};
use serde::{Deserialize, Serialize};
use stacktune_base::fsutil::write_atomic;
use stacktune_base::limits::{MAX_BEAM_DEPTH, check_beam, check_sampled};
use stacktune_base::toml_error::toml_error;
use std::collections::BTreeMap;
use std::path::Path;

/// A weight set as stored in a TOML file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WeightFile {
    /// The game the weights play (`tetris`, `puyo`, ...).
    pub game: String,
    /// The ruleset the weights were tuned for (tetris `contest`, puyo `tsu`, ...), used when
    /// the user names none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rules: Option<String>,
    /// The board the weights were tuned on, used when the user names none: weights tuned on
    /// 10 × 10 play 10 × 10 unless told otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub width: Option<usize>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub height: Option<usize>,
    /// Puyo: the pairs the player saw when it was tuned and measured (`--pairs-shown`), used
    /// when the user names none: a beam tuned on three pairs is a weaker player on one, so the
    /// file alone must reproduce its figure.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pairs_shown: Option<u8>,
    /// The search the weights play under when the user names none: weights tuned for a beam
    /// are a different player at one ply, so the file says which player its figures are for.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub search: Option<SearchSettings>,
    /// Feature name → weight. Features not named are not computed.
    pub weights: BTreeMap<String, f64>,
    /// Where the weights come from: source, rules, fitness, seed, ...
    #[serde(default, skip_serializing_if = "toml::Table::is_empty")]
    pub meta: toml::Table,
}

/// A weight file's `[search]` table: the beam of `--beam-width` and `--depth`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SearchSettings {
    /// Positions kept at each ply (`--beam-width`).
    pub beam_width: usize,
    /// Plies (`--depth`); without it, every piece the game shows.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub depth: Option<u32>,
    /// Sampled futures past the pieces shown (`--samples`): the beam becomes a sampled beam.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub samples: Option<u32>,
    /// Pieces each sampled future draws (`--unseen`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unseen: Option<u32>,
    /// The sampled beam values moves by what their lines fire, a line ending at a move that
    /// scores these points (`--fired`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fired: Option<u32>,
    /// An anytime beam: it widens (1, 2, 4, ... up to `beam_width`) while its searches stay
    /// within this many expansions a move (`--nodes`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nodes: Option<u64>,
}

impl WeightFile {
    /// Reads and checks a weight file; every error names the file.
    pub fn load(path: &Path) -> Result<WeightFile> {
        Ok(Self::load_with_text(path)?.0)
    }

    /// The file at `path` parsed, and its text: an export that embeds the file whole embeds
    /// exactly the text that was checked, read once.
    pub fn load_with_text(path: &Path) -> Result<(WeightFile, String)> {
        let text = stacktune_base::fsutil::read_text(path)
            .with_context(|| format!("cannot read weights file {}", path.display()))?;
        let file =
            Self::parse(&text).with_context(|| format!("weights file {}", path.display()))?;
        Ok((file, text))
    }

    /// Parses weight-file text and rejects non-finite weights and empty weight tables.
    pub fn parse(text: &str) -> Result<WeightFile> {
        // Text that is not TOML is malformed; TOML that is not a weights file says what it
        // lacks or has too many of, and where.
        if let Err(e) = text.parse::<toml::Table>() {
            if stacktune_games::connect::book::Book::parse(text).is_ok() {
                bail!(
                    "an opening book (connect-book), not weights: a connect player reads it with --book FILE"
                );
            }
            bail!("malformed TOML: {}", toml_error(text, &e));
        }
        let file: WeightFile =
            toml::from_str(text).map_err(|e| anyhow::anyhow!("{}", toml_error(text, &e)))?;
        if let Some(search) = file.search {
            check_beam(
                search.depth.unwrap_or(MAX_BEAM_DEPTH),
                search.beam_width,
                ("[search] depth", "[search] beam_width"),
            )?;
            if search.fired.is_some() && search.samples.is_none() {
                bail!("[search] fired values a sampled beam's moves; give samples too");
            }
            match search.nodes {
                Some(0) => {
                    bail!("[search] nodes 0 leaves the search nothing to spend; give 1 or more")
                }
                Some(_) if search.samples.is_some() => {
                    bail!(
                        "[search] nodes makes the beam an anytime search; it is not for a sampled beam (samples)"
                    )
                }
                _ => {}
            }
            if search.samples.is_some() || search.unseen.is_some() {
                if search.depth.is_some() {
                    bail!(
                        "[search] depth is not for a sampled beam (samples, unseen), which searches every piece shown"
                    );
                }
                check_sampled(
                    search.beam_width,
                    search.samples.unwrap_or(1),
                    search.unseen.unwrap_or(4),
                    search.fired,
                    [
                        "[search] beam_width",
                        "[search] samples",
                        "[search] unseen",
                        "[search] fired",
                    ],
                )?;
            }
        }
        file.check_weights()?;
        Ok(file)
    }

    /// Weights held in memory (a Python dict) as the file they would be: for `game`, with no
    /// board, rules or search of their own, and the checks a file's weights get, so that
    /// weights from memory and from a file are one player.
    pub fn in_memory(game: &str, weights: BTreeMap<String, f64>) -> Result<WeightFile> {
        let file = WeightFile {
            game: game.to_string(),
            rules: None,
            width: None,
            height: None,
            pairs_shown: None,
            search: None,
            weights,
            meta: toml::Table::new(),
        };
        file.check_weights()?;
        Ok(file)
    }

    /// Refuses an empty weights table and weights that [`check_weight`] refuses.
    fn check_weights(&self) -> Result<()> {
        if self.weights.is_empty() {
            bail!("the [weights] table names no feature");
        }
        for (name, &value) in &self.weights {
            check_weight(name, value)?;
        }
        Ok(())
    }

    /// Refuses weights that are all 0 in a file about to be played: such a player scores every
    /// move alike, and plays whichever its game lists first. Not part of
    /// [`check_against`](WeightFile::check_against): a run's `init` file is an optimiser's
    /// starting point, and a start of all zeros is a fair one (CMA-ES and CE sample around
    /// it, the GA mutates it).
    pub fn check_has_preference(&self) -> Result<()> {
        if self.weights.values().all(|&w| w == 0.0) {
            bail!("every weight is 0: the player has no preference");
        }
        Ok(())
    }

    /// Checks the names against a game's features. An unknown name is an error that lists the
    /// valid names, so a typo never silently drops a feature.
    pub fn check_against(&self, game: &str, features: &[&str]) -> Result<()> {
        if self.game != game {
            bail!("the weights are for game `{}`, not `{game}`", self.game);
        }
        for name in self.weights.keys() {
            if !features.contains(&name.as_str()) {
                bail!(
                    "unknown feature `{name}` for game {game}; valid names: {}",
                    features.join(", ")
                );
            }
        }
        Ok(())
    }

    /// Refuses the weights for `rules` when they were tuned under other rules: the ones the
    /// file names, or `unnamed` for a file that names none (see
    /// [`unnamed_rules`](crate::registry::unnamed_rules); `None`: such a file fits any rules).
    /// The one check that `play`, `watch`, `moves` and `export contest` make. Guideline and
    /// tetrio weights read the same features, so each plays under the other's rules.
    pub fn check_rules(&self, rules: &str, unnamed: Option<&str>) -> Result<()> {
        let versus = ["guideline", "tetrio"];
        match self.rules.as_deref().or(unnamed) {
            Some(tuned)
                if tuned != rules && !(versus.contains(&tuned) && versus.contains(&rules)) =>
            {
                bail!(
                    "the weights are for {} rules `{tuned}`, not `{rules}`",
                    self.game
                )
            }
            _ => Ok(()),
        }
    }

    /// TOML text with weights in the game's feature order (names the game does not list are
    /// left out), then the meta table.
    pub fn to_toml(&self, feature_order: &[&str]) -> String {
        let weights = feature_order
            .iter()
            .filter_map(|&name| self.weights.get(name).map(|&w| (name, w)))
            .collect();
        toml::to_string(&InOrder {
            game: &self.game,
            rules: self.rules.as_deref(),
            width: self.width,
            height: self.height,
            pairs_shown: self.pairs_shown,
            search: self.search.as_ref(),
            weights: Ordered(weights),
            meta: &self.meta,
        })
        .expect("a weights file serialises")
    }

    /// Writes the file atomically: a reader never sees half a weight file.
    pub fn save(&self, path: &Path, feature_order: &[&str]) -> Result<()> {
        write_atomic(path, self.to_toml(feature_order).as_bytes())
    }
}

/// A [`WeightFile`] as written: the same fields, the weights in a given order.
#[derive(Serialize)]
struct InOrder<'a> {
    game: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    rules: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    width: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    height: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pairs_shown: Option<u8>,
    #[serde(skip_serializing_if = "Option::is_none")]
    search: Option<&'a SearchSettings>,
    weights: Ordered<'a>,
    #[serde(skip_serializing_if = "toml::Table::is_empty")]
    meta: &'a toml::Table,
}

/// Name → weight pairs that serialise as a map in their own order: a `BTreeMap` would sort
/// them, and a reader compares a file with the game's feature list in that list's order.
struct Ordered<'a>(Vec<(&'a str, f64)>);

impl Serialize for Ordered<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_map(self.0.iter().map(|(name, w)| (name, w)))
    }
}

/// The largest weight, in size, that a player takes. Only the weights' ratios choose moves,
/// so no player needs more, and w · φ over every feature a game computes (at most 32, each far
/// below 1e100) stays finite: a weight near f64's limit (1e307) would overflow the sum to
/// infinity and tie every move. Weights are refused rather than scaled, so that the weights a
/// player shows are the ones it was given.
pub const MAX_WEIGHT: f64 = 1e100;

/// The one check every weight passes, from a file, from memory or from an optimiser: a finite
/// number of at most [`MAX_WEIGHT`] in size; the error names the weight.
pub fn check_weight(name: &str, value: f64) -> Result<()> {
    if !value.is_finite() {
        bail!("weight `{name}` is {value}: weights must be finite numbers");
    }
    if value.abs() > MAX_WEIGHT {
        bail!(
            "weight `{name}` is {value:e}: weights must be at most 1e100 in size (only their ratios choose moves: divide them all by one number)"
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_keeps_every_bit() {
        let mut weights = BTreeMap::new();
        weights.insert("holes".to_string(), -7.899265427351652);
        weights.insert("landing_height".to_string(), -4.0);
        let mut meta = toml::Table::new();
        meta.insert("source".into(), toml::Value::String("test".into()));
        let file = WeightFile {
            game: "tetris".into(),
            rules: Some("contest".into()),
            width: Some(10),
            height: None,
            pairs_shown: Some(3),
            search: Some(SearchSettings {
                beam_width: 100,
                depth: Some(3),
                samples: None,
                unseen: None,
                fired: None,
                nodes: None,
            }),
            weights,
            meta,
        };
        let text = file.to_toml(&["landing_height", "holes"]);
        assert!(text.find("landing_height").unwrap() < text.find("holes").unwrap());
        assert_eq!(WeightFile::parse(&text).unwrap(), file);
    }

    #[test]
    fn refuses_huge_weights_as_it_refuses_infinite_ones() {
        let text = "game = \"tetris\"\n[weights]\nholes = 1e307\n";
        assert_eq!(
            WeightFile::parse(text).unwrap_err().to_string(),
            "weight `holes` is 1e307: weights must be at most 1e100 in size (only their ratios choose moves: divide them all by one number)"
        );
        assert!(check_weight("holes", -1e100).is_ok());
        assert!(check_weight("holes", -1.5e100).is_err());
    }

    #[test]
    fn rejects_nan_and_unknown_names() {
        let err = WeightFile::parse("game = \"tetris\"\n[weights]\nholes = nan\n").unwrap_err();
        assert_eq!(
            err.to_string(),
            "weight `holes` is NaN: weights must be finite numbers"
        );
        let file = WeightFile::parse("game = \"tetris\"\n[weights]\nhole = 1.0\n").unwrap();
        let err = file
            .check_against("tetris", &["holes", "bumpiness"])
            .unwrap_err();
        assert_eq!(
            err.to_string(),
            "unknown feature `hole` for game tetris; valid names: holes, bumpiness"
        );
    }

    #[test]
    fn a_search_table_is_checked_with_one_line_errors() {
        let with = |search: &str| {
            WeightFile::parse(&format!(
                "game = \"tetris\"\n[search]\n{search}\n[weights]\nholes = 1.0\n"
            ))
        };
        let file = with("beam_width = 100").unwrap();
        let search = SearchSettings {
            beam_width: 100,
            depth: None,
            samples: None,
            unseen: None,
            fired: None,
            nodes: None,
        };
        assert_eq!(file.search, Some(search));
        let anytime = with("beam_width = 64\nnodes = 400")
            .unwrap()
            .search
            .unwrap();
        assert_eq!((anytime.beam_width, anytime.nodes), (64, Some(400)));
        let errors = [
            (
                "beam_width = 0",
                "[search] beam_width 0 is out of range 1..=100000",
            ),
            (
                "beam_width = 8\ndepth = 17",
                "[search] depth 17 is out of range 1..=16",
            ),
            ("depth = 3", "line 2, column 1: missing field `beam_width`"),
            (
                "beam_width = 8\nwidth = 3",
                "line 4, column 1: unknown field `width`, expected one of `beam_width`, `depth`, `samples`, `unseen`, `fired`, `nodes`",
            ),
            (
                "beam_width = 8\nnodes = 0",
                "[search] nodes 0 leaves the search nothing to spend; give 1 or more",
            ),
            (
                "beam_width = 8\nsamples = 2\nnodes = 9",
                "[search] nodes makes the beam an anytime search; it is not for a sampled beam (samples)",
            ),
            (
                "beam_width = -1",
                "line 3, column 14: invalid value: integer `-1`, expected usize",
            ),
        ];
        for (text, expected) in errors {
            assert_eq!(with(text).unwrap_err().to_string(), expected);
        }
    }

    #[test]
    fn rejects_empty_weights_and_unknown_keys() {
        assert!(WeightFile::parse("game = \"tetris\"\n[weights]\n").is_err());
        let err = WeightFile::parse("game = \"tetris\"\nweight = 1\n[weights]\nholes = 1.0\n")
            .unwrap_err();
        assert_eq!(
            err.to_string(),
            "line 2, column 1: unknown field `weight`, expected one of `game`, `rules`, `width`, `height`, `pairs_shown`, `search`, `weights`, `meta`"
        );
        let err = WeightFile::parse("").unwrap_err();
        assert_eq!(err.to_string(), "line 1, column 1: missing field `game`");
        let err = WeightFile::parse("game = \"tetris\"\n[weights\n").unwrap_err();
        assert_eq!(
            err.to_string(),
            "malformed TOML: line 2, column 9: unclosed table, expected `]`"
        );
    }
}
