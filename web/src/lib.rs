//! stacktune in the browser: the library compiled to WebAssembly, as the playground page calls
//! it (docs/web.md). Every function is a thin wrapper over the library's public API, so the
//! page plays the games, runs and players the command line does, bit for bit:
//!
//! - a run is [`SteppedRun`], `evolve`'s run stepped by the page: it hands out batches, which
//!   a pool of Web Workers plays, each with its own instance of this module ([`Games`]: a
//!   batch made ready, playing ranges of its pairs), and takes their results back in the
//!   batch's order, as 64-bit words ([`encode`]);
//! - a replay is the report page's ([`record_games`]), a listing `moves --json`'s, a weights
//!   file `play --weights`'s.
//!
//! Text crosses as JSON or TOML; every error is one line, as the command line prints it.

mod board_features;
mod presets;
// The Puyo match (versus.rs, web/page/versus.js).
mod versus;

use serde::Serialize;
use stacktune_base::progress::Progress;
use stacktune_base::stats::Summary;
use stacktune_game::Episodes;
use stacktune_game::Game;
use stacktune_game::Playable;
use stacktune_game::replay::{DEFAULT_MOVE_CAP, record_games};
use stacktune_games::connect::{Connect, Ending, Position};
use stacktune_games::listing::{MovesArgs, placements_listing};
use stacktune_games::puyo::Puyo;
use stacktune_games::tetris::Tetris;
use stacktune_players::eval::LinearPlayer;
use stacktune_players::registry::AnyGame;
use stacktune_players::registry::Build;
use stacktune_players::search::Player;
use stacktune_players::weights::WeightFile;
use stacktune_run::backend::{Batch, Dealer, GameData, Table, decode, encode, vector};
use stacktune_run::{RunConfig, SteppedRun, held_out_batch};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use wasm_bindgen::prelude::*;

type Js<T> = Result<T, JsError>;

/// An error as the command line prints it: one line, its causes after colons.
fn js(e: anyhow::Error) -> JsError {
    JsError::new(&format!("{e:#}"))
}

/// What the page holds of one of its games: [`Page`]`<F>` holds `F::Of<G>` for the game `G`
/// it plays — the game itself ([`TheGame`]), a run of it ([`ItsRun`]), a batch made ready on it
/// ([`ItsTable`]) — so one enum and one [`on_page!`] serve all three.
trait Holds {
    type Of<G: Playable>;
}

/// One of the page's games, or what the page holds of it: the registry's [`AnyGame`] less
/// contest and guideline Tetris, so that only these three games' code is compiled into the
/// module (contest Tetris's would add a tenth to it).
enum Page<F: Holds> {
    Tetris(F::Of<Tetris>),
    Puyo(F::Of<Puyo>),
    Connect(F::Of<Connect>),
}

struct TheGame;
impl Holds for TheGame {
    type Of<G: Playable> = G;
}

struct ItsRun;
impl Holds for ItsRun {
    type Of<G: Playable> = SteppedRun<G>;
}

struct ItsTable;
impl Holds for ItsTable {
    type Of<G: Playable> = Table<G>;
}

impl Page<TheGame> {
    fn of(game: AnyGame) -> Js<Page<TheGame>> {
        match game {
            AnyGame::Tetris(g) => Ok(Page::Tetris(g)),
            AnyGame::Puyo(g) => Ok(Page::Puyo(g)),
            AnyGame::Connect(g) => Ok(Page::Connect(g)),
            // Built only with stacktune-players' `cli-games`, which this crate leaves out: its
            // build refuses them first, naming the command that tunes them.
            AnyGame::Contest(_) | AnyGame::Guideline(_) => Err(JsError::new(
                "the page plays tetris (research rules), puyo and connect",
            )),
        }
    }
}

/// Runs `$body` with `$g` bound to what a [`Page`] holds of its game; with `into`, the value
/// held again in a [`Page`] of the same game (a run made from a game, say).
macro_rules! on_page {
    ($page:expr, $g:ident => into $body:expr) => {
        match $page {
            Page::Tetris($g) => Page::Tetris($body),
            Page::Puyo($g) => Page::Puyo($body),
            Page::Connect($g) => Page::Connect($body),
        }
    };
    ($page:expr, $g:ident => $body:expr) => {
        match $page {
            Page::Tetris($g) => $body,
            Page::Puyo($g) => $body,
            Page::Connect($g) => $body,
        }
    };
}
#[cfg(test)]
pub(crate) use on_page;

fn json(value: &impl Serialize) -> Js<String> {
    serde_json::to_string(value).map_err(|e| js(e.into()))
}

/// The weights files a config names, by the paths it names them with: a JSON object of texts.
fn files_of(files: &str) -> Js<BTreeMap<String, String>> {
    serde_json::from_str(files).map_err(|e| {
        js(anyhow::anyhow!(
            "the files are not a JSON object of texts: {e}"
        ))
    })
}

/// The config `evolve --config` runs for the text `config`, and its game built with `files`:
/// one of the page's games, so that nothing here is compiled for the others (contest and
/// guideline Tetris are refused with the command that tunes them).
fn game_of(config: &str, files: &BTreeMap<String, String>) -> Js<(RunConfig, Page<TheGame>)> {
    let config = RunConfig::from_text(config).map_err(js)?;
    let game = config
        .game
        .build_with(&|path: &Path| {
            let text = files
                .get(&*path.to_string_lossy())
                .ok_or_else(|| anyhow::anyhow!("weights file {} is not given", path.display()))?;
            WeightFile::parse(text)
                .map_err(|e| anyhow::anyhow!("weights file {}: {e:#}", path.display()))
        })
        .map_err(js)?;
    Ok((config, Page::of(game)?))
}

/// The page's presets: `[{id, config, files}]`, each config a run config the command line
/// runs as it is (`stacktune evolve --config web/presets/ID.toml`) with the texts of the
/// weights files it names.
#[wasm_bindgen]
pub fn presets() -> Js<String> {
    json(&presets::all())
}

/// What the page shows of the game a config plays: `{game, rules, score, features, tuned,
/// init, final_games, play_command}`, every feature of the game, those the run tunes, the
/// weights of its `init` file (null without one), and the run's final held-out games with
/// the command that plays them with best.toml.
#[wasm_bindgen]
pub fn describe(config: &str, files: &str) -> Js<String> {
    let files = files_of(files)?;
    let (config, game) = game_of(config, &files)?;
    let (name, rules, score, features) =
        on_page!(&game, g => (g.name(), g.rules(), g.score_name(), g.feature_names()));
    let init = match &config.init {
        Some(path) => Some(read_weights_of(&config, &game, text_of(&files, path)?).map_err(js)?),
        None => None,
    };
    let tuned: Vec<&str> = match config.features.is_empty() {
        true => features.to_vec(),
        false => config.features.iter().map(String::as_str).collect(),
    };
    let opponents = on_page!(&game, g => g.opponents().len().max(1) as u64);
    #[derive(Serialize)]
    struct Description<'a> {
        game: &'a str,
        rules: String,
        score: &'a str,
        features: &'a [&'a str],
        tuned: Vec<&'a str>,
        init: Option<BTreeMap<String, f64>>,
        /// The run's final held-out games, and the `play` command that plays them with
        /// best.toml.
        final_games: u64,
        play_command: String,
    }
    json(&Description {
        game: name,
        rules,
        score,
        features,
        tuned,
        init,
        final_games: config.final_games,
        play_command: config.play_command(Path::new("best.toml"), config.final_games / opponents),
    })
}

fn text_of<'a>(files: &'a BTreeMap<String, String>, path: &Path) -> Js<&'a str> {
    files
        .get(&*path.to_string_lossy())
        .map(String::as_str)
        .ok_or_else(|| JsError::new(&format!("weights file {} is not given", path.display())))
}

/// The weights of the weights file `text` for the game `config` plays, `{name: weight}`:
/// malformed TOML, another game's or ruleset's weights, an unknown feature or a weight that is
/// not a finite number is one line saying so.
#[wasm_bindgen]
pub fn read_weights(config: &str, text: &str) -> Js<String> {
    let (config, game) = game_of(config, &BTreeMap::new())?;
    json(&read_weights_of(&config, &game, text).map_err(js)?)
}

fn read_weights_of(
    config: &RunConfig,
    game: &Page<TheGame>,
    text: &str,
) -> anyhow::Result<BTreeMap<String, f64>> {
    let file = WeightFile::parse(text)?;
    let (name, features) = on_page!(game, g => (g.name(), g.feature_names()));
    file.check_against(name, features)?;
    if let (Some(given), Some(named)) = (&config.game.rules, &file.rules)
        && given != named
    {
        anyhow::bail!("the weights are for rules `{named}`, not `{given}`");
    }
    Ok(file.weights)
}

/// A weights file holding `weights` (`{name: weight}`) for the game `config` plays, as
/// `stacktune play --weights` reads it: the game, its rules and board, the weights in the
/// game's feature order, and `source` in its meta table.
#[wasm_bindgen]
pub fn weights_file(config: &str, weights: &str, source: &str) -> Js<String> {
    let (config, game) = game_of(config, &BTreeMap::new())?;
    let file = weights_of(&config, &game, weights)?;
    let mut file = WeightFile {
        rules: config.game.rules.clone(),
        width: config.game.width,
        height: config.game.height,
        pairs_shown: config.game.pairs_shown,
        ..file
    };
    file.meta.insert("source".into(), source.into());
    Ok(on_page!(&game, g => file.to_toml(g.feature_names())))
}

/// `weights` (`{name: weight}`) as a weights file for `game`, checked as a file's are.
fn weights_of(config: &RunConfig, game: &Page<TheGame>, weights: &str) -> Js<WeightFile> {
    let weights: BTreeMap<String, f64> = serde_json::from_str(weights).map_err(|e| {
        JsError::new(&format!(
            "the weights are not a JSON object of numbers: {e}"
        ))
    })?;
    let file = WeightFile::in_memory(config.game.name(), weights).map_err(js)?;
    let (name, features) = on_page!(game, g => (g.name(), g.feature_names()));
    file.check_against(name, features).map_err(js)?;
    Ok(file)
}

/// The held-out games the report page replays (game 0 of the run's validation seed; Connect
/// Four: one against each opponent) played by `weights` (`{name: weight}`) under the config's
/// search, recorded as the report page's replays (JSON), each naming the `play` command that
/// plays it with the weights saved as `file`.
#[wasm_bindgen]
pub fn replays(config: &str, files: &str, weights: &str, file: &str) -> Js<String> {
    let files = files_of(files)?;
    let (config, game) = game_of(config, &files)?;
    let weights = weights_of(&config, &game, weights)?;
    let search = config.game.search().map_err(js)?;
    let command = config.replay_command(Path::new(file), DEFAULT_MOVE_CAP);
    let replays = on_page!(&game, g => {
        let player = Player::new(LinearPlayer::from_file(g, &weights).map_err(js)?, search);
        let replays = record_games(
            g,
            &player,
            config.validation_seed,
            config.validation_limits(),
            DEFAULT_MOVE_CAP,
            &command,
            &Progress::hidden(),
            &AtomicBool::new(false),
        );
        if let Some(failure) = g.board_feature_failure() {
            return Err(JsError::new(&failure));
        }
        replays
    });
    json(&replays.expect("nothing stops a replay"))
}

/// The config `config` with its `init` naming `path` instead: a run from weights the page
/// holds (the editor's), run.toml as `evolve` would read it.
#[wasm_bindgen]
pub fn set_init(config: &str, path: &str) -> Js<String> {
    let mut config = RunConfig::from_text(config).map_err(js)?;
    config.init = Some(PathBuf::from(path));
    Ok(config.to_toml())
}

/// The batch (JSON, for [`Games`]) of `games` held-out games of the config's run played by
/// `weights` (`{name: weight}`): the games its final score plays, the ones
/// `stacktune play --seed <validation_seed>` plays.
#[wasm_bindgen]
pub fn held_out(config: &str, files: &str, weights: &str, games: u32) -> Js<String> {
    let files = files_of(files)?;
    let (config, game) = game_of(config, &files)?;
    let file = weights_of(&config, &game, weights)?;
    let weights = on_page!(&game, g => LinearPlayer::from_file(g, &file)
        .map(|p| vector(&p, g.feature_names().len())));
    let weights = weights.map_err(js)?;
    let data = GameData::read_with(&config.game, &|path| {
        files
            .get(path)
            .cloned()
            .ok_or_else(|| anyhow::anyhow!("weights file {path} is not given"))
    })
    .map_err(js)?;
    json(&held_out_batch(&data, &weights, games as u64, &config))
}

/// The moves (placements) results ([`Games::play`]'s words) played: what the page's speed
/// counts.
#[wasm_bindgen]
pub fn placements(words: Vec<u64>) -> f64 {
    decode(&words).iter().map(|r| r.moves as f64).sum()
}

/// What `play` reports of results ([`Games::play`]'s words): `{games, mean, median, std,
/// ci95, min, max}`.
#[wasm_bindgen]
pub fn summarize(words: Vec<u64>) -> Js<String> {
    json(&stacktune_game::EpisodeResult::summary(&decode(&words)))
}

/// `stacktune moves --json`'s listing of a board file's text: every placement of `piece` (none
/// for connect), with its features.
#[wasm_bindgen]
pub fn moves(game: &str, board: &str, piece: Option<String>, inarow: Option<u32>) -> Js<String> {
    let args = MovesArgs {
        game: game.to_string(),
        board: PathBuf::from("board"),
        piece,
        inarow: inarow.map(|n| n as usize),
        rules: None,
        json: true,
    };
    placements_listing(&args, board).map_err(js)
}

/// An evolution run, `evolve`'s for the same config, stepped by the page (see the crate's
/// doc): [`Run::step`] hands out the next batch, [`Run::played`] takes its results.
#[wasm_bindgen]
pub struct Run {
    run: Page<ItsRun>,
}

#[wasm_bindgen]
impl Run {
    /// Starts the run of `config` (run.toml's text), with `files` the texts of the weights
    /// files it names (`{path: text}`, by the paths it names them with).
    #[wasm_bindgen(constructor)]
    pub fn new(config: &str, files: &str) -> Js<Run> {
        let files = files_of(files)?;
        let (config, game) = game_of(config, &files)?;
        let run = on_page!(game, g => into
            SteppedRun::start(g, config, files).map_err(js)?
        );
        Ok(Run { run })
    }

    /// The run of `config` resumed from the checkpoint and history.csv [`Run::checkpoint`]
    /// and [`Run::history_csv`] gave.
    pub fn resume(config: &str, files: &str, checkpoint: &str, history_csv: &str) -> Js<Run> {
        let files = files_of(files)?;
        let (config, game) = game_of(config, &files)?;
        let history = (!history_csv.is_empty()).then_some(history_csv.as_bytes());
        let run = on_page!(game, g => into
            SteppedRun::resume(g, config, files, checkpoint, history).map_err(js)?
        );
        Ok(Run { run })
    }

    /// The next batch to play (JSON, for [`Games`]), or undefined once the run is over.
    pub fn step(&mut self) -> Js<Option<String>> {
        match on_page!(&mut self.run, r => r.step()).map_err(js)? {
            Some(batch) => Ok(Some(json(&batch)?)),
            None => Ok(None),
        }
    }

    /// The results of the batch [`Run::step`] gave, as [`Games::play`]'s words, in its order.
    pub fn played(&mut self, words: Vec<u64>) -> Js<()> {
        on_page!(&mut self.run, r => r.played(decode(&words))).map_err(js)
    }

    /// Where the run is, for the page: `{features, generations, history, finish}`, the
    /// history's rows as the report page reads them, and once the run is over its held-out
    /// figures and best.toml.
    pub fn state(&self) -> Js<String> {
        on_page!(&self.run, r => state_of(r))
    }

    /// history.csv as `evolve` writes it.
    pub fn history_csv(&self) -> Js<String> {
        let bytes = on_page!(&self.run, r => r.history_csv()).map_err(js)?;
        String::from_utf8(bytes).map_err(|e| js(e.into()))
    }

    /// The sealed checkpoint after the last generation done, for [`Run::resume`].
    pub fn checkpoint(&self) -> Js<String> {
        on_page!(&self.run, r => r.checkpoint()).map_err(js)
    }
}

/// [`Run::state`] of a run.
fn state_of<G: Playable>(run: &SteppedRun<G>) -> Js<String> {
    #[derive(Serialize)]
    struct HeldOut {
        mean: f64,
        ci95: f64,
        games: usize,
    }
    let held_out = |s: &Summary| HeldOut {
        mean: s.mean,
        ci95: s.ci95,
        games: s.games,
    };
    #[derive(Serialize)]
    struct Finish<'a> {
        best: HeldOut,
        baseline: Option<HeldOut>,
        best_toml: &'a str,
    }
    #[derive(Serialize)]
    struct State<'a> {
        features: &'a [String],
        generations: u64,
        history: &'a [stacktune_run::report::HistoryRow],
        finish: Option<Finish<'a>>,
    }
    let finish = run.finish().map(|f| Finish {
        best: held_out(&f.best),
        baseline: f.baseline.as_ref().map(held_out),
        best_toml: &f.best_toml,
    });
    json(&State {
        features: run.features(),
        generations: run.config().generations,
        history: run.history(),
        finish,
    })
}

/// A batch made ready to play in a worker: its game built and its players made, once,
/// however many ranges of it the worker plays.
#[wasm_bindgen]
pub struct Games {
    table: Page<ItsTable>,
    pairs: u64,
}

#[wasm_bindgen]
impl Games {
    /// The batch [`Run::step`] gave.
    #[wasm_bindgen(constructor)]
    pub fn new(batch: &str) -> Js<Games> {
        let batch: Batch =
            serde_json::from_str(batch).map_err(|e| js(anyhow::anyhow!("not a batch: {e}")))?;
        let game = Page::of(batch.game.build_from_settings().map_err(js)?)?;
        let table = on_page!(&game, g => into Table::of_game(g, &batch).map_err(js)?);
        Ok(Games {
            table,
            pairs: batch.pairs(),
        })
    }

    /// Plays pairs `start..end` of the batch, results as 64-bit words in pair order.
    pub fn play(&self, start: u32, end: u32) -> Js<Vec<u64>> {
        let (start, end) = (start as u64, end as u64);
        if start > end || end > self.pairs {
            return Err(JsError::new(&format!(
                "pairs {start}..{end} are not in a batch of {}",
                self.pairs
            )));
        }
        let stop = AtomicBool::new(false);
        let (pairs, hidden) = (start..end, Progress::hidden());
        let results = on_page!(&self.table, t => t.play(pairs, &stop, &hidden));
        // A board feature that failed (the student's Python) ends the batch with its line.
        if let Some(failure) = on_page!(&self.table, t => t.board_feature_failure()) {
            return Err(JsError::new(&failure));
        }
        Ok(encode(&results.expect("nothing stops a worker's range")))
    }
}

/// The ranges a batch of `pairs` is dealt out in to `workers` workers, each asking for the
/// next as it finishes: `[start, end, start, end, ...]`, shrinking so that no worker is left
/// with a long tail (the MPI backend's dealer).
#[wasm_bindgen]
pub fn chunks(pairs: u32, workers: u32) -> Vec<u32> {
    let mut dealer = Dealer::new(pairs as u64, workers as u64);
    let mut out = Vec::new();
    while let Some(range) = dealer.take(1) {
        out.extend([range.start as u32, range.end as u32]);
    }
    out
}

/// Connect Four against a player: the position after `moves` (1-based columns, as Pons'
/// solver writes games) and, when `weights` (`{name: weight}`) are given and the game goes
/// on, the player's reply searched `depth` plies deep: `{moves, rows, to_move, ending, reply}`.
/// A move into a full column, or after the end, is one line saying so.
#[wasm_bindgen]
pub fn connect(config: &str, moves: &str, weights: Option<String>, depth: u32) -> Js<String> {
    let (mut config, page) = game_of(config, &BTreeMap::new())?;
    let Page::Connect(game) = &page else {
        return Err(JsError::new("the config's game is not connect"));
    };
    let (mut position, mut ending) = after(game, moves)?;
    let mut moves = moves.to_string();
    let mut reply = None;
    if let (Some(weights), None) = (weights, ending) {
        config.game.depth = Some(depth);
        let file = weights_of(&config, &page, &weights)?;
        let eval = LinearPlayer::from_file(game, &file).map_err(js)?;
        let player = Player::new(eval, config.game.search().map_err(js)?);
        let column = stacktune_game::Policy::choose(&player, game, &position)
            .ok_or_else(|| JsError::new("the player has no move"))?;
        ending = game.play(&mut position, column);
        moves.push(char::from(b'1' + column));
        reply = Some(column + 1);
    }
    #[derive(Serialize)]
    struct Board {
        moves: String,
        rows: Vec<String>,
        to_move: usize,
        ending: Option<&'static str>,
        reply: Option<u8>,
    }
    json(&Board {
        rows: game.rows(&position),
        to_move: position.to_move(),
        ending: ending.map(|e| match e {
            Ending::Win => "win",
            Ending::Draw => "draw",
            Ending::Forfeit => "forfeit",
        }),
        reply,
        moves,
    })
}

/// The position after `moves` and how the last of them ended the game, if it did.
fn after(game: &Connect, moves: &str) -> Js<(Position, Option<Ending>)> {
    let Some(last) = moves.chars().last() else {
        return Ok((game.empty(), None));
    };
    let before = &moves[..moves.len() - last.len_utf8()];
    let mut position = game
        .parse_moves(before)
        .map_err(|e| JsError::new(&e.to_string()))?;
    let column = last.to_digit(10).filter(|&c| c >= 1).ok_or_else(|| {
        JsError::new(&format!(
            "move {} is `{last}`, not a column",
            moves.chars().count()
        ))
    })?;
    if !game.is_legal(&position, (column - 1) as u8) {
        return Err(JsError::new(&format!("column {column} is full")));
    }
    let ending = game.play(&mut position, (column - 1) as u8);
    Ok((position, ending))
}

#[cfg(test)]
mod tests {
    use stacktune_players::registry::Build;
    use stacktune_run::RunConfig;

    /// This crate builds stacktune-players without `cli-games`: contest and guideline Tetris
    /// are refused with the line naming the command that tunes them, before any game is made.
    #[test]
    fn contest_and_guideline_tetris_are_refused_with_the_command_that_tunes_them() {
        for (rules, named) in [
            ("contest", "contest"),
            ("guideline", "guideline"),
            ("tetrio", "guideline"),
        ] {
            let text = format!("[game]\ngame = \"tetris\"\nrules = \"{rules}\"\n");
            let config = RunConfig::from_text(&text).unwrap();
            let e = config.game.build().unwrap_err();
            assert_eq!(
                e.to_string(),
                format!(
                    "{named} Tetris is tuned on the command line, not in the browser: stacktune evolve --rules {named}"
                )
            );
        }
    }
}
