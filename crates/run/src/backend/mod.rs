//! Where games are played: the seam between what asks for games (a run's generations and
//! held-out games, `play`) and the processes that play them.
//!
//! What is asked for is a [`Batch`]: plain data (the game's settings, the weight vectors, the
//! streams, the number of games and their limits), never a closure, so it can cross a process
//! boundary. A [`Backend`] plays a batch's (player, game) pairs and returns their results in
//! the batch's order, whoever played them: [`Local`] on this process's threads with rayon,
//! and with the `mpi` feature the ranks of an MPI job (`mpi::launch`). Game `i` always draws
//! from `stream(seed, purpose, generation, i)`, so every backend, every rank count and every
//! thread count gives the same results, and the same bytes in every file written from them.

#[cfg(feature = "mpi")]
mod mpi;

use anyhow::{Context, Result};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};
use stacktune_base::progress::Progress;
use stacktune_base::rng::{Purpose, stream};
use stacktune_game::Playable;
use stacktune_game::episode::{play_pairs, thread_pool};
use stacktune_game::{EpisodeLimits, EpisodeResult, Episodes, Game, MAX_DETAILS};
use stacktune_games::settings::GameSpec;
use stacktune_players::eval::LinearPlayer;
use stacktune_players::registry::{AnyGame, Build, adapted};
use stacktune_players::search::Player;
use stacktune_players::weights::WeightFile;
use stacktune_players::with_game;
use std::collections::BTreeMap;
use std::ops::Range;
use std::path::Path;
use std::sync::atomic::AtomicBool;

/// The key of the streams a batch's games draw from: game `i` draws from
/// `stream(seed, purpose, generation, i)`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Streams {
    pub seed: u64,
    pub purpose: Purpose,
    pub generation: u64,
}

impl Streams {
    /// The games of `play --seed seed` and of validation.
    pub fn held_out(seed: u64) -> Streams {
        Streams {
            seed,
            purpose: Purpose::Games,
            generation: 0,
        }
    }

    /// The stream of game `index`.
    pub fn game(&self, index: u64) -> ChaCha8Rng {
        stream(self.seed, self.purpose, self.generation, index)
    }
}

/// A game as data: its settings, with the contents of the weights files they name (Connect-N
/// opponents), so that a process on another machine builds the very same game without
/// reading any file of its own.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameData {
    pub spec: GameSpec,
    /// The weights files the settings name, by the path the settings give.
    pub files: BTreeMap<String, String>,
    /// Two-player games: earlier champions' weights (aligned with the game's features) that
    /// join the opponents (a hall of fame).
    pub rivals: Vec<Vec<f64>>,
    /// Episodes numbered from this seed, as `play --seed` numbers them (contest Tetris replays
    /// contest seed `seed + i`); `None` for training games.
    pub numbered_from: Option<u64>,
}

impl GameData {
    /// The game `spec` describes, reading the weights files it names now.
    pub fn new(spec: &GameSpec) -> Result<GameData> {
        GameData::read_with(spec, &|path| {
            stacktune_base::fsutil::read_text(std::path::Path::new(path))
                .with_context(|| format!("cannot read weights file {path}"))
        })
    }

    /// The game `spec` describes, the weights files it names read by `read` (from the disk,
    /// or from texts a host holds: a browser has no files).
    pub fn read_with(spec: &GameSpec, read: &dyn Fn(&str) -> Result<String>) -> Result<GameData> {
        let files = spec
            .weight_files()
            .into_iter()
            .map(|path| Ok((path.clone(), read(&path)?)))
            .collect::<Result<_>>()?;
        Ok(GameData {
            spec: spec.clone(),
            files,
            rivals: Vec::new(),
            numbered_from: None,
        })
    }

    /// The same game numbered from `seed`.
    pub fn numbered_from(&self, seed: u64) -> GameData {
        GameData {
            numbered_from: Some(seed),
            ..self.clone()
        }
    }

    /// Builds the game from the data alone.
    pub fn build(&self) -> Result<AnyGame> {
        self.build_from_settings()?
            .adapted(self.numbered_from, &self.rivals, self.spec.search()?)
    }

    /// The game the settings and files build, not yet numbered and without rivals: for a
    /// program that takes its games out of [`AnyGame`] and adapts them itself
    /// ([`Table::of_game`]).
    pub fn build_from_settings(&self) -> Result<AnyGame> {
        let load = |path: &Path| match self.files.get(&*path.to_string_lossy()) {
            Some(text) => WeightFile::parse(text),
            None => anyhow::bail!("weights file {} is not in the batch", path.display()),
        };
        self.spec.build_with(&load)
    }
}

/// Games to play: every player plays games `0..games` (common random numbers). Pair `k` is
/// player `k / games` on game `k % games`, and results come back in pair order.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Batch {
    pub game: GameData,
    /// Weight vectors aligned with the game's features, played under the search the game's
    /// settings give.
    pub players: Vec<Vec<f64>>,
    pub games: u64,
    pub streams: Streams,
    pub limits: EpisodeLimits,
    /// Threads per process (0 = one per core); results never depend on it.
    pub threads: usize,
}

impl Batch {
    /// How many (player, game) pairs the batch holds.
    pub fn pairs(&self) -> u64 {
        self.players.len() as u64 * self.games
    }
}

/// The weight vector of `player` over a game's `features` features.
pub fn vector(player: &LinearPlayer, features: usize) -> Vec<f64> {
    (0..features).map(|i| player.weight(i)).collect()
}

/// What plays batches: [`Local`] on this machine's threads, `Cluster` over MPI's ranks, a
/// browser's Web Workers. The run never knows which; results come back in pair order, so the
/// run's bytes do not depend on it.
///
/// A backend of one's own (one that sends ranges of `0..batch.pairs()` to machines of its own,
/// say) implements `play`; this one plays as [`Local`] does and counts the games it was given:
///
/// ```
/// use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
/// use stacktune_base::progress::Progress;
/// use stacktune_game::{EpisodeResult, Game};
/// use stacktune_players::{registry::Build, with_game};
/// use stacktune_run::backend::{Backend, Batch, GameData, Local};
/// use stacktune_run::{RunConfig, held_out_batch};
///
/// struct Counting(AtomicU64);
///
/// impl Backend for Counting {
///     fn play(
///         &self,
///         batch: &Batch,
///         stop: &AtomicBool,
///         progress: &Progress,
///     ) -> anyhow::Result<Option<Vec<EpisodeResult>>> {
///         self.0.fetch_add(batch.pairs(), Ordering::Relaxed);
///         Local.play(batch, stop, progress)
///     }
/// }
///
/// // Tetris 6 wide and 10 high, every feature weighing -1, 8 held-out games of 200 pieces.
/// let config = RunConfig::from_text(
///     "seed = 1\nvalidation_max_pieces = 200\n[game]\ngame = \"tetris\"\nwidth = 6\nheight = 10\n",
/// )?;
/// let data = GameData::new(&config.game)?;
/// let features = with_game!(config.game.build()?, g => g.feature_names().len());
/// let batch = held_out_batch(&data, &vec![-1.0; features], 8, &config);
///
/// let backend = Counting(AtomicU64::new(0));
/// let results = backend.play(&batch, &AtomicBool::new(false), &Progress::hidden())?;
/// let mut results = results.expect("nothing stopped it");
/// assert_eq!((results.len(), backend.0.into_inner()), (8, 8));
/// // The same games on this machine's threads alone: the same results, in the same order.
/// let local = Local.play(&batch, &AtomicBool::new(false), &Progress::hidden())?.unwrap();
/// assert!(results.drain(..).zip(local).all(|(a, b)| a.score == b.score && a.moves == b.moves));
/// # Ok::<(), anyhow::Error>(())
/// ```
pub trait Backend {
    /// Plays every pair of `batch`, telling `progress` of moves and finished games; `None`
    /// when `stop` was raised before every game was played.
    fn play(
        &self,
        batch: &Batch,
        stop: &AtomicBool,
        progress: &Progress,
    ) -> Result<Option<Vec<EpisodeResult>>>;
}

/// Plays batches in this process, with rayon over the pairs.
pub struct Local;

impl Backend for Local {
    fn play(
        &self,
        batch: &Batch,
        stop: &AtomicBool,
        progress: &Progress,
    ) -> Result<Option<Vec<EpisodeResult>>> {
        let table = Table::new(batch)?;
        let results = table.play_any(0..batch.pairs(), stop, progress);
        table.check_board_features()?;
        Ok(results)
    }
}

/// Plays batches in this process, as [`Local`] does, on a game held as a value instead of one
/// built from the batch's settings: the backend of a game the registry does not know (a game
/// of your own, as in `examples/`). The batch's settings still give the search, and its
/// numbering and rivals are applied to the game ([`adapted`]).
pub struct LocalGame<'a, G>(pub &'a G);

impl<G: Playable + Clone> Backend for LocalGame<'_, G> {
    fn play(
        &self,
        batch: &Batch,
        stop: &AtomicBool,
        progress: &Progress,
    ) -> Result<Option<Vec<EpisodeResult>>> {
        Ok(Table::of_game(self.0, batch)?.play(0..batch.pairs(), stop, progress))
    }
}

/// A batch made ready to play: the game built, the players made and the threads started, once
/// per batch however many ranges of it a process plays (an MPI rank, a browser's Web Worker).
pub struct Table<G = AnyGame> {
    game: G,
    players: Vec<Player>,
    games: u64,
    streams: Streams,
    limits: EpisodeLimits,
    /// `None` on WebAssembly, which has no threads: rayon's global pool then plays on the
    /// calling thread.
    pool: Option<rayon::ThreadPool>,
}

impl Table {
    /// The batch's game built from its settings, made ready.
    pub fn new(batch: &Batch) -> Result<Table> {
        let game = batch.game.build()?;
        let names = with_game!(&game, g => g.feature_names());
        Table::ready(game, names, batch)
    }

    /// Plays pairs `pairs` on this process's threads, in pair order, on whichever game the
    /// batch names; `None` when `stop` was raised first.
    pub fn play_any(
        &self,
        pairs: Range<u64>,
        stop: &AtomicBool,
        progress: &Progress,
    ) -> Option<Vec<EpisodeResult>> {
        with_game!(&self.game, g => self.play_on(g, pairs, stop, progress))
    }

    /// The error a board feature met in the games played (an exception, a value that is not
    /// finite): their results are not the weights' doing, so the batch is not used.
    pub fn check_board_features(&self) -> Result<()> {
        match with_game!(&self.game, g => g.board_feature_failure()) {
            Some(failure) => anyhow::bail!(failure),
            None => Ok(()),
        }
    }
}

impl<G: Playable + Clone> Table<G> {
    /// `batch` made ready on `game`, a value the caller holds (a game of your own, or one
    /// taken out of [`AnyGame`] so that only the games a program plays are compiled into it:
    /// the browser's module): the batch's numbering and rivals applied ([`adapted`]).
    pub fn of_game(game: &G, batch: &Batch) -> Result<Table<G>> {
        let search = batch.game.spec.search()?;
        let adapted = adapted(game, batch.game.numbered_from, &batch.game.rivals, search)?;
        Table::ready(adapted, game.feature_names(), batch)
    }

    /// Plays pairs `pairs` on this process's threads, in pair order; `None` when `stop` was
    /// raised first.
    pub fn play(
        &self,
        pairs: Range<u64>,
        stop: &AtomicBool,
        progress: &Progress,
    ) -> Option<Vec<EpisodeResult>> {
        self.play_on(&self.game, pairs, stop, progress)
    }

    /// The first failure a board feature met in the games played on this table, as
    /// [`Table::check_board_features`] reads it for a game built from its settings: the
    /// caller (a browser's worker) ends the batch with it.
    pub fn board_feature_failure(&self) -> Option<String> {
        self.game.board_feature_failure()
    }
}

impl<G: Sync> Table<G> {
    /// `game` (whose features are `names`) with the batch's players, under the search its
    /// settings give, and threads.
    fn ready(game: G, names: &[&str], batch: &Batch) -> Result<Table<G>> {
        let search = batch.game.spec.search()?;
        let players = batch
            .players
            .iter()
            .map(|w| Ok(Player::new(LinearPlayer::from_vector(names, w)?, search)))
            .collect::<Result<_>>()?;
        Ok(Table {
            game,
            players,
            games: batch.games,
            streams: batch.streams,
            limits: batch.limits,
            pool: match cfg!(target_family = "wasm") {
                true => None,
                false => Some(thread_pool(batch.threads)?),
            },
        })
    }

    /// Plays pairs `pairs` of the table's game, seen as `game`, on this process's threads.
    fn play_on<H: Playable>(
        &self,
        game: &H,
        pairs: Range<u64>,
        stop: &AtomicBool,
        progress: &Progress,
    ) -> Option<Vec<EpisodeResult>> {
        let streams = self.streams;
        let play = || {
            play_pairs(
                game,
                &self.players,
                self.games,
                pairs,
                |i| streams.game(i),
                self.limits,
                stop,
                progress,
            )
        };
        match &self.pool {
            Some(pool) => pool.install(play),
            None => play(),
        }
    }
}

/// 64-bit words per game result: score (its bits), games (its bits), moves, details.
pub const RESULT_WORDS: usize = 3 + MAX_DETAILS;

/// Results as 64-bit words, to cross to another process (an MPI rank, a Web Worker) bit for
/// bit.
pub fn encode(results: &[EpisodeResult]) -> Vec<u64> {
    let mut words = Vec::with_capacity(results.len() * RESULT_WORDS);
    for r in results {
        words.extend([r.score.to_bits(), r.games.to_bits(), r.moves]);
        words.extend(r.details);
    }
    words
}

/// The results [`encode`] wrote, whole ones only.
pub fn decode(words: &[u64]) -> Vec<EpisodeResult> {
    words
        .chunks_exact(RESULT_WORDS)
        .map(|w| EpisodeResult {
            score: f64::from_bits(w[0]),
            games: f64::from_bits(w[1]),
            moves: w[2],
            details: w[3..].try_into().expect("RESULT_WORDS - 3 details"),
        })
        .collect()
}

/// Deals a batch's pairs out in chunks by guided self-scheduling: each chunk is a quarter of
/// the asking rank's share of what is left, so chunks shrink as the batch ends and no rank is
/// left with a long tail, and holds at least one game per thread of the rank.
///
/// Games differ in length by orders of magnitude (lines per Tetris game are close to
/// exponential), so one fixed slice per rank would leave most ranks waiting for the one that
/// drew the long games; ranks that ask for chunks as they finish stay busy instead.
#[derive(Clone, Debug)]
pub struct Dealer {
    next: u64,
    total: u64,
    /// Threads of all ranks together.
    threads: u64,
}

impl Dealer {
    /// A dealer of pairs `0..total` to ranks with `threads` threads in all.
    pub fn new(total: u64, threads: u64) -> Dealer {
        Dealer {
            next: 0,
            total,
            threads: threads.max(1),
        }
    }

    /// The next chunk for a rank with `threads` threads; `None` once everything is dealt.
    pub fn take(&mut self, threads: u64) -> Option<Range<u64>> {
        let left = self.total - self.next;
        if left == 0 {
            return None;
        }
        let size = (left * threads)
            .div_ceil(4 * self.threads)
            .max(threads)
            .min(left);
        let chunk = self.next..self.next + size;
        self.next = chunk.end;
        Some(chunk)
    }

    /// Whether every pair was dealt.
    pub fn is_done(&self) -> bool {
        self.next == self.total
    }
}

/// The number of processes an MPI launcher started this one among, from the variables it
/// sets: Open MPI's `mpirun` (`OMPI_COMM_WORLD_SIZE`), MPICH's and Slurm's PMI (`PMI_SIZE`),
/// or Slurm's PMIx (`PMIX_RANK`, with the step's `SLURM_STEP_NUM_TASKS`, else unknown: 1);
/// `None` when no launcher started it.
fn launcher_size() -> Option<u64> {
    let number = |name| std::env::var(name).ok()?.parse().ok();
    number("OMPI_COMM_WORLD_SIZE")
        .or_else(|| number("PMI_SIZE"))
        .or_else(|| {
            std::env::var_os("PMIX_RANK").map(|_| number("SLURM_STEP_NUM_TASKS").unwrap_or(1))
        })
}

/// Runs `command` with the backend this process was started for: [`Local`] when started
/// alone; under an MPI launcher (with the `mpi` feature) rank 0 runs it while the other ranks
/// play its batches. `name` is the command's, and `scales_out` whether it plays its games
/// through the backend: one that does not refuses to start as several processes, rather than
/// running K times over.
pub fn launch(
    name: &str,
    scales_out: bool,
    command: impl FnOnce(&dyn Backend) -> Result<()>,
) -> Result<()> {
    #[cfg(feature = "mpi")]
    if launcher_size().is_some() {
        return mpi::launch(name, scales_out, command);
    }
    #[cfg(not(feature = "mpi"))]
    let _ = (name, scales_out);
    #[cfg(not(feature = "mpi"))]
    if let Some(k) = launcher_size().filter(|&k| k > 1) {
        anyhow::bail!(
            "started as one of {k} MPI processes, but this stacktune was built without MPI; \
             build it with `cargo build --release --features mpi`, or run it without mpirun"
        );
    }
    command(&Local)
}

#[cfg(test)]
mod tests {
    use super::*;
    use stacktune_game::board_features::{Board, define, undefine};
    use std::sync::Arc;

    /// Plays 8 held-out puyo games of the config `text` with `weights` (by name, 0 elsewhere).
    fn puyo_games(text: &str, weights: &[(&str, f64)]) -> Result<Vec<EpisodeResult>> {
        let config = crate::RunConfig::from_text(text)?;
        let data = GameData::new(&config.game)?;
        let names = with_game!(config.game.build()?, g => g.feature_names());
        let vector: Vec<f64> = names
            .iter()
            .map(|n| weights.iter().find(|(w, _)| w == n).map_or(0.0, |p| p.1))
            .collect();
        let batch = crate::held_out_batch(&data, &vector, 8, &config);
        let results = Local.play(&batch, &AtomicBool::new(false), &Progress::hidden())?;
        Ok(results.unwrap())
    }

    const PUYO: &str =
        "seed = 1\nvalidation_max_pieces = 60\n[game]\ngame = \"puyo\"\nrules = \"programming\"\n";

    /// Bumpiness as a course's function of the board computes it: the heights' differences.
    fn bumpiness(board: &Board<'_>) -> std::result::Result<f64, String> {
        let filled =
            |x: usize| (0..board.rows).filter(move |y| board.cells[y * board.columns + x] != 0);
        let heights: Vec<i64> = (0..board.columns)
            .map(|x| filled(x).count() as i64)
            .collect();
        Ok(heights.windows(2).map(|w| (w[0] - w[1]).abs()).sum::<i64>() as f64)
    }

    #[test]
    fn a_board_feature_plays_the_games_of_the_built_in_feature_it_recomputes() {
        define("backend_bumpiness", Arc::new(bumpiness)).unwrap();
        // Bumpiness is weighed last in both, so w · φ adds the same terms in the same order.
        let weights = [
            ("connected_2", 1.0),
            ("connected_3", 3.0),
            ("potential_chain", 4.0),
        ];
        let builtin = puyo_games(PUYO, &[weights.as_slice(), &[("bumpiness", -1.5)]].concat());
        let own = puyo_games(
            &format!("{PUYO}board_features = [\"backend_bumpiness\"]\n"),
            &[weights.as_slice(), &[("backend_bumpiness", -1.5)]].concat(),
        );
        let without = puyo_games(PUYO, &weights).unwrap();
        undefine("backend_bumpiness");
        let (builtin, own) = (builtin.unwrap(), own.unwrap());
        let scores = |r: &[EpisodeResult]| r.iter().map(|e| (e.score, e.moves)).collect::<Vec<_>>();
        assert_eq!(scores(&builtin), scores(&own));
        // The feature changes the games: without it they are others.
        assert_ne!(scores(&builtin), scores(&without));
    }

    #[test]
    fn a_board_feature_that_fails_ends_the_batch_naming_it() {
        define(
            "backend_nan",
            Arc::new(
                |b: &Board<'_>| match b.cells.iter().filter(|&&c| c != 0).count() {
                    0..6 => Ok(1.0),
                    _ => Ok(f64::NAN),
                },
            ),
        )
        .unwrap();
        let text = format!("{PUYO}board_features = [\"backend_nan\"]\n");
        let err = puyo_games(&text, &[("backend_nan", 1.0)]).unwrap_err();
        undefine("backend_nan");
        assert_eq!(
            err.to_string(),
            "board feature `backend_nan` returned NaN: a feature's value must be a finite number"
        );
        let err = puyo_games(&text, &[("backend_nan", 1.0)]).unwrap_err();
        assert!(
            err.to_string()
                .starts_with("board feature `backend_nan` is not defined: ")
        );
    }

    #[test]
    fn the_dealer_deals_every_pair_once_in_shrinking_chunks() {
        let mut dealer = Dealer::new(1000, 4);
        let mut chunks = Vec::new();
        while let Some(chunk) = dealer.take(2) {
            chunks.push(chunk);
        }
        assert!(dealer.is_done());
        assert_eq!(chunks[0], 0..125);
        assert_eq!(chunks[1], 125..235);
        assert!(chunks.windows(2).all(|w| w[0].end == w[1].start));
        let len = |c: &Range<u64>| c.end - c.start;
        assert!(chunks.windows(2).all(|w| len(&w[0]) >= len(&w[1])));
        assert_eq!(chunks.last().unwrap().end, 1000);
        assert!(chunks.iter().all(|c| len(c) >= 2 || c.end == 1000));
    }

    #[test]
    fn results_cross_as_words_unchanged() {
        let results = vec![
            EpisodeResult {
                score: 0.1 + 0.2,
                games: 1e-7 / 3.0,
                moves: 7,
                details: [1, 2, 3, 4, 5, 6, 7, 8],
            },
            EpisodeResult {
                score: -0.0,
                games: 1.0,
                moves: u64::MAX,
                details: [0; MAX_DETAILS],
            },
        ];
        let back = decode(&encode(&results));
        assert_eq!(back, results);
        assert!(back[1].score.is_sign_negative());
    }
}
