//! The run loop's checkpoint: what it persists after every generation, sealed with a checksum,
//! and checked against the run's config and history before a resumed run trusts it.
//!
//! A resumed run replays nothing: it continues from the checkpoint alone, so a damaged or
//! edited one would silently give another result (or panic). [`Checkpoint::open`] accepts a
//! file only when its checksum matches and its contents fit the run, and says which part
//! does not otherwise.

use crate::report::{HistoryRow, history_csv};
use crate::tune::ga::{GaConfig, GeneticAlgorithm};
use anyhow::{Context, Result, bail};
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;

/// What the run loop persists after every generation.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Checkpoint {
    /// The generation to score next (0-based), which is also the generations done.
    pub next_generation: u64,
    pub optimizer: GeneticAlgorithm,
    pub history: Vec<HistoryRow>,
    /// Training games played so far, all candidates together.
    pub evaluations: u64,
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
    pub ga: &'a GaConfig,
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
        let sealed: Sealed =
            serde_json::from_str(text).context("it is damaged (not a sealed checkpoint)")?;
        if crc(sealed.state.get()) != sealed.crc32 {
            bail!("it is damaged or was edited (its checksum does not match its contents)");
        }
        let checkpoint: Checkpoint =
            serde_json::from_str(sealed.state.get()).context("it is damaged")?;
        checkpoint.check(expected)?;
        Ok(checkpoint)
    }

    fn check(&self, expected: &Expected) -> Result<()> {
        let features = expected.features.len();
        self.optimizer
            .check(expected.ga, features)
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
