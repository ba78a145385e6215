//! A run held in memory and driven step by step by a host that plays its batches itself and
//! answers later (a browser, whose Web Workers answer with messages): [`SteppedRun`] runs as
//! far as the batches played so far take it, then asks for the next one.
//!
//! It is `evolve`'s run without a folder: the same setup, generations, validation, final
//! held-out games and best weights, so its history.csv and best.toml are the bytes `evolve`
//! writes for the same config. A batch not played yet stops the run as Ctrl-C would, and the
//! run goes on from its checkpoint once the batch is played, its optimiser asked again for
//! the same candidates: a generation changes the checkpoint only once all its games are
//! played, which is what makes a resumed run the uninterrupted one.

use super::evaluation::GameEvaluation;
use super::executor::Executor;
use super::score_final;
use super::{
    Files, RunConfig, Setup, best_file, forbidden_change, open_checkpoint, refuse_undriven_external,
};
use crate::backend::{Backend, Batch};
use crate::checkpoint::Checkpoint;
use crate::report::{HistoryRow, history_csv};
use anyhow::{Result, bail};
use stacktune_base::progress::{Mode, Progress};
use stacktune_base::stats::Summary;
use stacktune_game::EpisodeResult;
use stacktune_game::Playable;
use std::cell::RefCell;
use std::collections::BTreeMap;
use std::path::Path;
use std::sync::atomic::AtomicBool;

/// The end of a run: its best weights on the final held-out games, the baseline's on the
/// same games, and best.toml as `evolve` writes it.
#[derive(Clone, Debug)]
pub struct Finish {
    pub best: Summary,
    pub baseline: Option<Summary>,
    pub best_toml: String,
}

/// An evolution run of the game `G` in memory, driven by [`SteppedRun::step`] and
/// [`SteppedRun::played`].
pub struct SteppedRun<G> {
    /// The game the config describes (built from its settings, or a game of your own).
    game: G,
    config: RunConfig,
    /// The weights files the config names, by the paths it names them with.
    files: BTreeMap<String, String>,
    /// The tuned features, in the order of the history's weights.
    features: Vec<String>,
    checkpoint: Checkpoint,
    /// The batches played since the last generation ended, with their results.
    played: Vec<(Batch, Vec<EpisodeResult>)>,
    /// The batch asked for and not played yet.
    asked: Option<Batch>,
    finish: Option<Finish>,
}

impl<G: Playable> SteppedRun<G> {
    /// Starts the run `config` describes on `game` (the game its settings build, or a game of
    /// your own, as [`evolve`](super::evolve) takes them), its weights files (`init`,
    /// `baseline`, Connect-N opponents) given as `files` by the paths the config names them
    /// with. Everything is checked as `evolve` checks it, with the same errors.
    pub fn start(game: G, config: RunConfig, files: BTreeMap<String, String>) -> Result<Self> {
        Self::open(game, config, files, None)
    }

    /// Resumes a run of `config` from its sealed checkpoint (`checkpoint`, as
    /// [`SteppedRun::checkpoint`] gave it) and its history.csv, both checked against the
    /// config as `evolve --resume` checks a folder's.
    pub fn resume(
        game: G,
        config: RunConfig,
        files: BTreeMap<String, String>,
        checkpoint: &str,
        history_csv: Option<&[u8]>,
    ) -> Result<Self> {
        Self::open(game, config, files, Some((checkpoint, history_csv)))
    }

    /// The run of `config`, from its start or from a sealed checkpoint and its history.csv.
    fn open(
        game: G,
        config: RunConfig,
        files: BTreeMap<String, String>,
        resumed: Option<(&str, Option<&[u8]>)>,
    ) -> Result<Self> {
        refuse_undriven_external(&config, false)?;
        if config.hosted.is_some() {
            bail!("a hosted game's run is played by its host (stacktune.custom.evolve)");
        }
        let given = Files::Given(&files);
        let (features, checkpoint) = first_checkpoint(&game, &config, given, resumed)?;
        Ok(SteppedRun {
            game,
            config,
            files,
            features,
            checkpoint,
            played: Vec::new(),
            asked: None,
            finish: None,
        })
    }

    /// Runs as far as the batches played so far take the run: the next batch to play (its
    /// results go to [`SteppedRun::played`]), or `None` once the run is over and its best
    /// weights scored ([`SteppedRun::finish`]). Asked again before that batch is played, it
    /// asks for the same batch.
    pub fn step(&mut self) -> Result<Option<Batch>> {
        if self.finish.is_some() {
            return Ok(None);
        }
        if let Some(batch) = &self.asked {
            return Ok(Some(batch.clone()));
        }
        let done = self.checkpoint.next_generation;
        let SteppedRun {
            config,
            files,
            game,
            checkpoint,
            played,
            ..
        } = self;
        let reached = advance(game, config, Files::Given(files), checkpoint, played);
        if self.checkpoint.next_generation > done {
            // What finished generations played is never asked for again.
            self.played.clear();
        }
        match reached? {
            Reached::Wanted(batch) => {
                self.asked = Some(*batch.clone());
                Ok(Some(*batch))
            }
            Reached::End(finish) => {
                self.finish = Some(finish);
                self.played.clear();
                Ok(None)
            }
        }
    }

    /// The results of the batch [`SteppedRun::step`] asked for, in its pairs' order.
    pub fn played(&mut self, results: Vec<EpisodeResult>) -> Result<()> {
        let Some(batch) = self.asked.take() else {
            bail!("no batch was asked for");
        };
        if results.len() as u64 != batch.pairs() {
            let pairs = batch.pairs();
            self.asked = Some(batch);
            bail!("{} results for a batch of {pairs} games", results.len());
        }
        self.played.push((batch, results));
        Ok(())
    }

    pub fn config(&self) -> &RunConfig {
        &self.config
    }

    /// The tuned features, in the order of the history's weights.
    pub fn features(&self) -> &[String] {
        &self.features
    }

    /// The generations done, in order.
    pub fn history(&self) -> &[HistoryRow] {
        &self.checkpoint.history
    }

    /// history.csv's bytes, as `evolve` writes them.
    pub fn history_csv(&self) -> Result<Vec<u8>> {
        history_csv(&self.features, &self.checkpoint.history)
    }

    /// The sealed checkpoint after the last generation done, for [`SteppedRun::resume`].
    pub fn checkpoint(&self) -> Result<String> {
        self.checkpoint.seal()
    }

    /// The run's end, once [`SteppedRun::step`] says it is finished.
    pub fn finish(&self) -> Option<&Finish> {
        self.finish.as_ref()
    }
}

/// The tuned features of a run of `config` and the checkpoint it goes on from: the first, or
/// the sealed checkpoint `resumed` gives, checked against the config and the history.
fn first_checkpoint<G: Playable>(
    game: &G,
    config: &RunConfig,
    files: Files,
    resumed: Option<(&str, Option<&[u8]>)>,
) -> Result<(Vec<String>, Checkpoint)> {
    let nobody = Relay::new(&[]);
    let setup = Setup::new(game, config, resumed.is_some(), &nobody, files)?;
    let Some((text, history_csv)) = resumed else {
        let checkpoint = setup.fresh_checkpoint(None)?;
        return Ok((setup.names, checkpoint));
    };
    let (mut checkpoint, started) =
        open_checkpoint(text, history_csv, config, &setup.names, Path::new(""))
            .map_err(|e| anyhow::anyhow!("cannot resume from the checkpoint: {e:#}"))?;
    if let Some((how, field, now, then)) = started.and_then(|s| forbidden_change(config, &s)) {
        bail!(
            "cannot resume from the checkpoint: the config {how} `{field}` ({now}, the run started with {then}); a resume may only raise `generations`"
        );
    }
    // As a resumed folder's checkpoint does, it keeps the settings it goes on with.
    checkpoint.settings = Some(config.settings_in(None)?);
    Ok((setup.names, checkpoint))
}

/// Where a step of the run got to.
enum Reached {
    /// A batch that is not played yet.
    Wanted(Box<Batch>),
    End(Finish),
}

/// Runs the generations from `checkpoint` (which it advances) and then the final held-out
/// games, as far as the batches `played` take them.
fn advance<G: Playable>(
    game: &G,
    config: &RunConfig,
    files: Files,
    checkpoint: &mut Checkpoint,
    played: &[(Batch, Vec<EpisodeResult>)],
) -> Result<Reached> {
    let relay = Relay::new(played);
    let setup = Setup::new(game, config, true, &relay, files)?;
    // Nothing raises it: the host stops a run by not stepping it.
    let stop = AtomicBool::new(false);
    let resume_hint = "step the run again";
    let mut evaluation = GameEvaluation {
        game,
        data: &setup.data,
        config,
        indices: &setup.indices,
        stop: &stop,
        backend: &relay,
        resume_hint,
    };
    let mut executor = Executor {
        checkpoint: checkpoint.clone(),
        checkpoint_path: None,
        generations: config.generations,
        seed: config.seed,
        validate_every: config.validate_every,
        stop: &stop,
        resume_hint: resume_hint.into(),
        driver: None,
    };
    let ran = executor.run(&mut evaluation, &mut [], |_, _| Progress::hidden());
    *checkpoint = executor.checkpoint;
    if let Some(batch) = relay.wanted.take() {
        return Ok(Reached::Wanted(Box::new(batch)));
    }
    ran?;
    let last = config
        .keep
        .row(&checkpoint.history)
        .expect("at least one generation ran");
    let scored = score_final(&setup, last, Mode::Quiet);
    if let Some(batch) = relay.wanted.take() {
        return Ok(Reached::Wanted(Box::new(batch)));
    }
    let Some((best, baseline)) = scored? else {
        bail!("the final held-out games were stopped");
    };
    let baseline = baseline.map(|(_, b)| b);
    let best_toml = best_file(&setup, last, &best, baseline.as_ref()).to_toml(game.feature_names());
    Ok(Reached::End(Finish {
        best,
        baseline,
        best_toml,
    }))
}

/// The backend of a stepped run: a batch the host played is answered with its results; any
/// other is kept as the one wanted and answered as stopped, which stops the run there.
struct Relay<'a> {
    played: &'a [(Batch, Vec<EpisodeResult>)],
    wanted: RefCell<Option<Batch>>,
}

impl<'a> Relay<'a> {
    fn new(played: &'a [(Batch, Vec<EpisodeResult>)]) -> Relay<'a> {
        Relay {
            played,
            wanted: RefCell::new(None),
        }
    }
}

impl Backend for Relay<'_> {
    fn play(
        &self,
        batch: &Batch,
        _stop: &AtomicBool,
        _progress: &Progress,
    ) -> Result<Option<Vec<EpisodeResult>>> {
        match self.played.iter().find(|(b, _)| b == batch) {
            Some((_, results)) => Ok(Some(results.clone())),
            None => {
                *self.wanted.borrow_mut() = Some(batch.clone());
                Ok(None)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backend::Table;
    use crate::evolution::{EvolveArgs, execute};
    use stacktune_players::registry::{AnyGame, Build};

    /// Plays every batch the run asks for as a pool of `workers` would, in consecutive
    /// chunks each built from the batch alone, until the run ends; stops early (for a resume)
    /// once `generations` are done.
    fn drive<G: Playable>(run: &mut SteppedRun<G>, workers: u64, generations: Option<u64>) {
        while generations.is_none_or(|g| (run.history().len() as u64) < g) {
            let Some(batch) = run.step().unwrap() else {
                return;
            };
            let (pairs, mut results) = (batch.pairs(), Vec::new());
            for w in 0..workers {
                // Built from the batch alone, as a worker builds it.
                let table = Table::new(&batch).unwrap();
                let range = pairs * w / workers..pairs * (w + 1) / workers;
                let stop = AtomicBool::new(false);
                results.extend(table.play_any(range, &stop, &Progress::hidden()).unwrap());
            }
            run.played(results).unwrap();
        }
    }

    #[test]
    fn a_stepped_run_writes_evolves_bytes_and_resumes_to_them() {
        let dir = tempfile::tempdir().unwrap();
        let hand =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../weights/puyo/hand.toml");
        let hand = hand.to_string_lossy().into_owned();
        let text = format!(
            "name = \"steps\"\nseed = 7\ngenerations = 3\ngames = 3\nmax_pieces = 20\n\
             validation_games = 3\nvalidate_every = 2\nfinal_games = 5\nvalidation_max_pieces = 20\n\
             init = {hand:?}\nbaseline = {hand:?}\n\
             [game]\ngame = \"puyo\"\nrules = \"tsu\"\nfitness = \"max_chain\"\n\
             [optimizer]\nkind = \"cmaes\"\n[cmaes]\npopulation = 4\n"
        );
        let path = dir.path().join("run.toml");
        std::fs::write(&path, &text).unwrap();
        let out = dir.path().join("out");
        let args = EvolveArgs {
            config: Some(path),
            out: Some(out.clone()),
            quiet: true,
            ..EvolveArgs::default()
        };
        execute(args, &crate::backend::Local).unwrap();
        let native = |name: &str| std::fs::read(out.join(name)).unwrap();

        let config = RunConfig::from_text(&text).unwrap();
        let files = BTreeMap::from([(hand.clone(), std::fs::read_to_string(&hand).unwrap())]);
        let Ok(AnyGame::Puyo(game)) = config.game.build() else {
            panic!("a puyo game");
        };
        let mut run = SteppedRun::start(game.clone(), config.clone(), files.clone()).unwrap();
        drive(&mut run, 3, None);
        assert_eq!(run.history_csv().unwrap(), native("history.csv"));
        assert_eq!(
            run.finish().unwrap().best_toml.as_bytes(),
            native("best.toml")
        );

        // Stopped after a generation and resumed from its checkpoint: the same bytes.
        let mut first = SteppedRun::start(game.clone(), config.clone(), files.clone()).unwrap();
        drive(&mut first, 2, Some(1));
        let (checkpoint, history) = (first.checkpoint().unwrap(), first.history_csv().unwrap());
        // The checkpoint keeps the run's settings: another seed is another run.
        let reseeded = RunConfig {
            seed: 8,
            ..config.clone()
        };
        let refused = SteppedRun::resume(
            game.clone(),
            reseeded,
            files.clone(),
            &checkpoint,
            Some(&history),
        );
        assert_eq!(
            format!("{:#}", refused.err().unwrap()),
            "cannot resume from the checkpoint: the config changes `seed` (8, the run started with 7); a resume may only raise `generations`"
        );
        let mut resumed =
            SteppedRun::resume(game, config, files, &checkpoint, Some(&history)).unwrap();
        drive(&mut resumed, 1, None);
        assert_eq!(resumed.history_csv().unwrap(), native("history.csv"));
        assert_eq!(
            resumed.finish().unwrap().best_toml.as_bytes(),
            native("best.toml")
        );
    }
}
