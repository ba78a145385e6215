//! The work of `versus` that a host embedding stacktune shares with the command line (the
//! playground's Puyo match, docs/web.md): a Puyo side from a weights file, read from disk or
//! held in memory, and what a match measured, so that a match played elsewhere reports the
//! command line's figures to the last digit.

use crate::play::{fill_spec, player_for};
use anyhow::Result;
use serde::{Deserialize, Serialize};
use stacktune_base::stats::matches::{
    Estimate, Outcome, Pentanomial, Sprt, SprtState, Trinomial, Verdict,
};
use stacktune_games::puyo::versus::{Battle, MatchRecord as PuyoRecord};
use stacktune_games::settings::GameSpec;
use stacktune_games::tetris::guideline::matches::MatchRecord;
use stacktune_players::puyo_match::{PuyoSide, split_match_weights};
use stacktune_players::versus::{Game, tally};
use stacktune_players::weights::WeightFile;
use std::collections::BTreeMap;
use std::path::Path;

/// The puyo weights file `file` (read from `path`, or held in memory under that name) as a
/// side of a match, under its own search and pairs shown, and the battle its `[game]` and the
/// flags `spec` give.
pub fn puyo_side(file: &WeightFile, path: &Path, spec: &GameSpec) -> Result<(Battle, PuyoSide)> {
    let mut spec = spec.clone();
    spec.game.get_or_insert_with(|| "puyo".to_string());
    fill_spec(file, path, &mut spec)?;
    let (battle, shown) = Battle::from_spec(&spec)?;
    let in_file = |e: anyhow::Error| anyhow::anyhow!("weights file {}: {e}", path.display());
    let (solo, reads) = split_match_weights(file).map_err(in_file)?;
    let player = player_for(&battle.game, &spec, &solo, path)?;
    let side = PuyoSide::new(&battle.game, player, shown, reads).map_err(in_file)?;
    Ok((battle, side))
}

/// What a match measured, as `versus --json` prints it.
#[derive(Debug, Serialize)]
pub struct VersusReport {
    pub first: String,
    pub second: String,
    pub seed: u64,
    pub games: u64,
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
    /// The first player's score and logistic Elo over game pairs, with 95 % intervals.
    pub score: f64,
    pub score_ci: [f64; 2],
    pub elo: f64,
    pub elo_ci: [f64; 2],
    /// Pairs by the first player's points in them: 0, ½, 1, 1½, 2.
    pub pairs: [u64; 5],
    /// Pieces (puyo: pairs) a side placed, a game on average.
    pub pieces: f64,
    /// What a side places: `pieces` or `pairs`.
    #[serde(skip)]
    pub placed: &'static str,
    /// How games were lost, by the loser and reason.
    pub endings: BTreeMap<String, u64>,
    /// Each game in the order played, so that a surprising ending can be found and replayed
    /// from its pair's seeds rather than reasoned back from the counts.
    pub by_game: Vec<GameLine>,
    pub sprt: Option<SprtReport>,
    /// The game settings given on the command line.
    pub game: GameSpec,
}

/// One game of a match, from the first player's view: what the report counts, and what a
/// match's record file keeps of it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameLine {
    /// The pair of games on the same seeds it belongs to (`versus --seed`'s pair numbering).
    pub pair: u64,
    /// Whether the first player played the left side (each pair plays both ways).
    pub first_left: bool,
    /// `win`, `draw` or `loss`.
    pub result: Outcome,
    /// The game's key in `endings`.
    pub ending: String,
    /// Pieces (puyo: pairs) a side placed.
    pub placed: f64,
}

#[derive(Debug, Serialize)]
pub struct SprtReport {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
    pub llr: f64,
    pub bounds: [f64; 2],
    /// `H1` (the first player is better by elo1), `H0`, or `none` (stopped at --games).
    pub verdict: &'static str,
}

/// What the report reads off a game's record, whatever the game.
pub trait Ended {
    /// Why the loser lost, or why it was a draw.
    fn reason(&self) -> &str;
    /// Pieces or pairs a side placed.
    fn placed(&self) -> f64;
    /// What a side places.
    const PLACED: &'static str;
}

impl Ended for MatchRecord {
    fn reason(&self) -> &str {
        &self.reason
    }
    fn placed(&self) -> f64 {
        f64::from(self.pieces)
    }
    const PLACED: &'static str = "pieces";
}

impl Ended for PuyoRecord {
    fn reason(&self) -> &str {
        &self.reason
    }
    fn placed(&self) -> f64 {
        f64::from(self.pairs[0] + self.pairs[1]) / 2.0
    }
    const PLACED: &'static str = "pairs";
}

/// Who played, as the report names them, and the match's settings.
pub struct Players<'a> {
    pub first: &'a str,
    pub second: &'a str,
    pub seed: u64,
    pub game: &'a GameSpec,
}

impl GameLine {
    /// The line of `game`, whatever the game.
    pub fn of<S, R: Ended>(game: &Game<S, R>) -> GameLine {
        let ending = match game.outcome {
            Outcome::Win => format!("second {}", game.record.reason()),
            Outcome::Loss => format!("first {}", game.record.reason()),
            Outcome::Draw => format!("draw: {}", game.record.reason()),
        };
        GameLine {
            pair: game.pair,
            first_left: game.first_left,
            result: game.outcome,
            ending,
            placed: game.record.placed(),
        }
    }
}

/// The report of the match between `players` whose games, in pair order, were `by_game`
/// (each a game of `R`), with the SPRT's last verdict if one was run.
pub fn report_of<R: Ended>(
    players: &Players,
    by_game: Vec<GameLine>,
    sprt: Option<(Sprt, SprtState)>,
) -> VersusReport {
    let (tri, penta): (Trinomial, Pentanomial) = tally(by_game.iter().map(|g| g.result));
    let e: Estimate = penta.estimate();
    let mut endings = BTreeMap::new();
    for line in &by_game {
        *endings.entry(line.ending.clone()).or_insert(0) += 1;
    }
    VersusReport {
        first: players.first.to_string(),
        second: players.second.to_string(),
        seed: players.seed,
        games: tri.games(),
        wins: tri.wins,
        draws: tri.draws,
        losses: tri.losses,
        score: e.score,
        score_ci: [e.score_low, e.score_high],
        elo: e.elo,
        elo_ci: [e.elo_low, e.elo_high],
        pairs: penta.pairs,
        pieces: by_game.iter().map(|g| g.placed).sum::<f64>() / by_game.len().max(1) as f64,
        placed: R::PLACED,
        endings,
        by_game,
        sprt: sprt.map(|(test, state)| SprtReport {
            elo0: test.elo0,
            elo1: test.elo1,
            alpha: test.alpha,
            beta: test.beta,
            llr: state.llr,
            bounds: [state.lower, state.upper],
            verdict: match state.verdict {
                Verdict::AcceptH1 => "H1",
                Verdict::AcceptH0 => "H0",
                Verdict::Continue => "none",
            },
        }),
        game: players.game.clone(),
    }
}
