//! The run loop's checkpoint: what it persists after every generation, sealed with a checksum,
//! and checked against the run's config and history before a resumed run trusts it.
//!
//! A resumed run replays nothing: it continues from the checkpoint alone, so a damaged or
//! edited one would silently give another result (or panic). [`Checkpoint::open`] accepts a
//! file only when its checksum matches and its contents fit the run, and says which part
//! does not otherwise.

use crate::RunConfig;
use crate::report::{HistoryRow, history_csv};
use anyhow::{Context, Result, bail};
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use stacktune_tune::{OptimizerConfig, OptimizerState};
use std::path::Path;

/// What the run loop persists after every generation.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Checkpoint {
    /// The generation to score next (0-based), which is also the generations done.
    pub next_generation: u64,
    pub optimizer: OptimizerState,
    pub history: Vec<HistoryRow>,
    /// Training games played so far, all candidates together.
    pub evaluations: u64,
    /// The run's settings (run.toml as the run wrote it, its thread count left out, its
    /// `generations` as last raised), kept here rather than in a file of their own so that a
    /// copy of the folder keeps them: a resume compares run.toml with them and refuses a change
    /// that would mix two runs in one history. Absent from checkpoints written before they
    /// were kept here (the folder's `.run.toml` may hold them then), which still read and seal
    /// to their own bytes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub settings: Option<String>,
}

/// The file: the state's exact JSON text and the CRC-32 of that text.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Sealed<'a> {
    crc32: String,
    #[serde(borrow)]
    state: &'a RawValue,
}

/// What a checkpoint must agree with: the run's config and its history file.
pub struct Expected<'a> {
    /// The optimiser run.toml asks for, with its settings.
    pub optimizer: &'a OptimizerConfig,
    /// The tuned features, in order (the history's columns).
    pub features: &'a [String],
    pub generations: u64,
    /// `history.csv` as it is on disk (absent before the first generation ends).
    pub history_csv: Option<&'a [u8]>,
}

fn crc(text: &str) -> String {
    format!("{:08x}", crc32fast::hash(text.as_bytes()))
}

impl Checkpoint {
    /// The file's text: the state and its checksum.
    pub fn seal(&self) -> Result<String> {
        let state = serde_json::to_string(self)?;
        let sealed = Sealed {
            crc32: crc(&state),
            state: &RawValue::from_string(state.clone())?,
        };
        Ok(serde_json::to_string(&sealed)?)
    }

    /// Reads a checkpoint's text and checks it against `expected`; an error says what is wrong
    /// in one line.
    pub fn open(text: &str, expected: &Expected) -> Result<Checkpoint> {
        let checkpoint = Self::unseal(text)?;
        checkpoint.check(expected)?;
        Ok(checkpoint)
    }

    /// The history a sealed checkpoint records, checksum checked, for reading a finished run
    /// (its config is not consulted: nothing is resumed from it).
    pub fn history_of(text: &str) -> Result<Vec<HistoryRow>> {
        Ok(Self::unseal(text)?.history)
    }

    /// The settings the run started with, its relative paths naming files from `base` (the
    /// run folder); `None` for a checkpoint from before checkpoints kept them.
    pub fn started(&self, base: &Path) -> Result<Option<RunConfig>> {
        self.settings
            .as_deref()
            .map(|text| RunConfig::parse_in(text, base).context("its run settings are damaged"))
            .transpose()
    }

    /// The state of a sealed checkpoint whose checksum matches.
    fn unseal(text: &str) -> Result<Checkpoint> {
        let sealed: Sealed =
            serde_json::from_str(text).context("it is damaged (not a sealed checkpoint)")?;
        if crc(sealed.state.get()) != sealed.crc32 {
            bail!("it is damaged or was edited (its checksum does not match its contents)");
        }
        serde_json::from_str(sealed.state.get()).context("it is damaged")
    }

    fn check(&self, expected: &Expected) -> Result<()> {
        let features = expected.features.len();
        let config = expected.optimizer;
        if self.optimizer.kind() != config.kind() {
            bail!(
                "it holds a {} optimizer, run.toml asks for {}",
                self.optimizer.kind().name(),
                config.kind().name()
            );
        }
        self.optimizer
            .check(config, features)
            .context("it does not match run.toml")?;
        if self.next_generation > expected.generations {
            bail!(
                "it is at generation {}, past run.toml's {} generations",
                self.next_generation,
                expected.generations
            );
        }
        if self.history.len() as u64 != self.next_generation {
            bail!(
                "it holds {} history rows for {} generations done",
                self.history.len(),
                self.next_generation
            );
        }
        let mut evaluations = 0;
        for (g, row) in self.history.iter().enumerate() {
            if row.generation != g as u64
                || row.evaluations < evaluations
                || row.best_weights.len() != features
            {
                bail!("its history row {g} does not fit the run");
            }
            evaluations = row.evaluations;
        }
        if evaluations != self.evaluations {
            bail!(
                "it counts {} games, its history {evaluations}",
                self.evaluations
            );
        }
        // history.csv is written just before the checkpoint: it holds the checkpoint's rows,
        // and at most one row more when the run stopped between the two writes.
        let rows = history_csv(expected.features, &self.history)?;
        match expected.history_csv {
            None if self.history.is_empty() => {}
            None => bail!("history.csv is missing"),
            Some(file) => {
                let ahead = file.strip_prefix(rows.as_slice());
                if ahead.is_none_or(|rest| rest.iter().filter(|&&b| b == b'\n').count() > 1) {
                    bail!("history.csv does not hold the history it records");
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use serde_json::{Value, json};
    use stacktune_tune::ga::{GaConfig, GeneticAlgorithm};

    const FEATURES: [&str; 2] = ["holes", "bumpiness"];

    fn ga() -> GaConfig {
        GaConfig {
            population: 4,
            elitism: 1,
            ..GaConfig::default()
        }
    }

    /// A checkpoint after two generations, as the run loop leaves it.
    fn two_generations() -> Checkpoint {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
        let row = |generation, evaluations| HistoryRow {
            generation,
            evaluations,
            best: 3.0,
            mean: 2.0,
            median: 2.0,
            std: 0.5,
            validation: None,
            best_weights: vec![-0.6, -0.8],
            sigma: None,
            best_ci: None,
        };
        Checkpoint {
            next_generation: 2,
            optimizer: OptimizerState::Ga(GeneticAlgorithm::new(ga(), 2, None, &mut rng)),
            history: vec![row(0, 8), row(1, 16)],
            evaluations: 16,
            settings: None,
        }
    }

    fn open(text: &str) -> Result<Checkpoint> {
        open_for(text, &OptimizerConfig::Ga(ga()))
    }

    fn open_for(text: &str, optimizer: &OptimizerConfig) -> Result<Checkpoint> {
        let features: Vec<String> = FEATURES.iter().map(|s| s.to_string()).collect();
        let cp = two_generations();
        let csv = history_csv(&features, &cp.history).unwrap();
        Checkpoint::open(
            text,
            &Expected {
                optimizer,
                features: &features,
                generations: 3,
                history_csv: Some(&csv),
            },
        )
    }

    /// The checkpoint with `edit` applied to its state, sealed again as if written so.
    fn edited(edit: impl FnOnce(&mut Value)) -> String {
        let mut state = serde_json::to_value(two_generations()).unwrap();
        edit(&mut state);
        let text = serde_json::to_string(&state).unwrap();
        format!("{{\"crc32\":\"{}\",\"state\":{text}}}", crc(&text))
    }

    fn error(text: &str) -> String {
        format!("{:#}", open(text).unwrap_err())
    }

    #[test]
    fn a_sealed_checkpoint_opens_to_the_same_state() {
        let cp = two_generations();
        let back = open(&cp.seal().unwrap()).unwrap();
        assert_eq!(back.seal().unwrap(), cp.seal().unwrap());
        assert_eq!(back.history, cp.history);
    }

    /// The states that made `evolve --resume` panic: an empty history after generations were
    /// done, and an empty population.
    #[test]
    fn states_that_panicked_are_refused() {
        assert_eq!(
            error(&edited(|s| s["history"] = json!([]))),
            "it holds 0 history rows for 2 generations done"
        );
        assert_eq!(
            error(&edited(|s| s["optimizer"]["population"] = json!([]))),
            "it does not match run.toml: its population holds 0 candidates, run.toml says 4"
        );
    }

    /// A checkpoint of one optimiser never feeds another: run.toml's kind must match.
    #[test]
    fn another_optimizers_checkpoint_is_refused() {
        let text = two_generations().seal().unwrap();
        let cem = OptimizerConfig::Cem(stacktune_tune::cem::CemConfig::default());
        assert_eq!(
            format!("{:#}", open_for(&text, &cem).unwrap_err()),
            "it holds a ga optimizer, run.toml asks for cem"
        );
    }

    #[test]
    fn contents_that_do_not_fit_the_run_are_refused() {
        for (edit, message) in [
            (
                json!({"optimizer": {"population": [[1.0], [1.0], [1.0], [1.0]]}}),
                "it does not match run.toml: a candidate has 1 weights, the run tunes 2 features",
            ),
            (
                json!({"optimizer": {"sigma": -1.0}}),
                "it does not match run.toml: its mutation sigma -1 is not a finite number ≥ 0",
            ),
            (
                json!({"optimizer": {"config": {"elitism": 2}}}),
                "it does not match run.toml: its [ga] elitism differs from run.toml's",
            ),
            (
                json!({"next_generation": 4}),
                "it is at generation 4, past run.toml's 3 generations",
            ),
            (
                json!({"evaluations": 17}),
                "it counts 17 games, its history 16",
            ),
            (
                json!({"history": {"1": {"generation": 0}}}),
                "its history row 1 does not fit the run",
            ),
            (
                json!({"history": {"0": {"best": 4.0}}}),
                "history.csv does not hold the history it records",
            ),
        ] {
            assert_eq!(error(&edited(|s| merge(s, &edit))), message, "{edit}");
        }
    }

    /// Writes `patch` into `value`; an object whose keys are numbers patches an array's items.
    fn merge(value: &mut Value, patch: &Value) {
        match patch {
            Value::Object(fields) => {
                for (key, p) in fields {
                    let slot = match key.parse::<usize>() {
                        Ok(i) => &mut value[i],
                        Err(_) => &mut value[key.as_str()],
                    };
                    merge(slot, p);
                }
            }
            p => *value = p.clone(),
        }
    }

    #[test]
    fn damage_and_edits_are_refused() {
        let text = two_generations().seal().unwrap();
        assert!(
            error(&text[..text.len() - 1])
                .starts_with("it is damaged (not a sealed checkpoint): EOF")
        );
        let edited = text.replacen("16", "17", 1);
        assert_eq!(
            error(&edited),
            "it is damaged or was edited (its checksum does not match its contents)"
        );
        // The format before checkpoints were sealed.
        let unsealed = serde_json::to_string(&two_generations()).unwrap();
        assert!(error(&unsealed).starts_with(
            "it is damaged (not a sealed checkpoint): unknown field `next_generation`"
        ));
    }
}
