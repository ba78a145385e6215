//! What `play` reports: the summary `--json` prints, and the tables printed otherwise. Apart
//! from `play` so that every way of playing (seeded games, `--pieces`) reports alike.

use serde::Serialize;
use stacktune_base::stats::Summary;
use std::collections::BTreeMap;
use std::path::Path;

/// What `play --json` prints.
#[derive(Debug, Serialize)]
pub struct PlayReport {
    #[serde(flatten)]
    pub summary: Summary,
    pub total_pieces: u64,
    pub pieces_per_second: f64,
    /// Two-player games: the results against each opponent.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub opponents: Vec<Versus>,
    /// One row per game: its score and the counts its game reports beside it (contest Tetris);
    /// empty only for `--pieces`, which plays one sequence.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub per_game: Vec<GameRow>,
    /// The games `--max-pieces` stopped: the table says so, since its figures are then those
    /// of capped games, not of whole ones.
    #[serde(skip)]
    pub capped: Capped,
}

/// How many of the games reached `--max-pieces`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Capped {
    pub games: u64,
    /// The cap (0: none).
    pub max_pieces: u64,
}

impl Capped {
    /// The games of `moves` (each game's moves) that reached `max_pieces` (0: no cap).
    pub fn count(moves: impl Iterator<Item = u64>, max_pieces: u64) -> Capped {
        let games = if max_pieces == 0 {
            0
        } else {
            moves.filter(|&m| m >= max_pieces).count() as u64
        };
        Capped { games, max_pieces }
    }

    /// The table's line for `of` games, when any reached the cap.
    fn line(&self, of: u64) -> Option<String> {
        let Capped { games, max_pieces } = *self;
        match games {
            0 => None,
            _ if games == of => Some(format!("all {of} games reached --max-pieces {max_pieces}")),
            _ => Some(format!(
                "{games} of {of} games reached --max-pieces {max_pieces}"
            )),
        }
    }
}

/// One game's score and the counts its game reports.
#[derive(Debug, Serialize)]
pub struct GameRow {
    /// Which game: its description (contest Tetris: the contest seed), else its index.
    pub game: String,
    pub score: f64,
    #[serde(flatten)]
    pub counts: BTreeMap<&'static str, u64>,
}

/// A two-player game's results against one opponent, from the weights' side.
#[derive(Debug, Serialize)]
pub struct Versus {
    pub opponent: String,
    pub games: u64,
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
    /// Mean game score: win 1, draw ½, loss 0.
    pub score: f64,
}

impl Versus {
    /// Tallies games whose scores are 1 (win), ½ (draw) or 0 (loss).
    pub(super) fn tally(opponent: String, scores: impl Iterator<Item = f64>) -> Versus {
        let mut v = Versus {
            opponent,
            games: 0,
            wins: 0,
            draws: 0,
            losses: 0,
            score: 0.0,
        };
        for s in scores {
            v.games += 1;
            v.score += s;
            match s {
                1.0 => v.wins += 1,
                0.0 => v.losses += 1,
                _ => v.draws += 1,
            }
        }
        v.score /= v.games as f64;
        v
    }
}

/// The win/draw/loss table of a two-player game.
pub(super) fn print_versus(
    report: &PlayReport,
    weights: &Path,
    games: u64,
    seed: u64,
    pairing: &str,
) {
    println!("weights   {}", weights.display());
    println!("games     {games} against each opponent (seed {seed}), {pairing}");
    let width = report
        .opponents
        .iter()
        .map(|v| v.opponent.len())
        .max()
        .unwrap_or(0)
        .max("opponent".len());
    println!(
        "{:<width$}  {:>7}  {:>7}  {:>7}  {:>7}  {:>7}",
        "opponent", "games", "wins", "draws", "losses", "score"
    );
    let percent = |n: u64, of: u64| 100.0 * n as f64 / of as f64;
    for v in &report.opponents {
        println!(
            "{:<width$}  {:>7}  {:>6.1}%  {:>6.1}%  {:>6.1}%  {:>6.1}%",
            v.opponent,
            v.games,
            percent(v.wins, v.games),
            percent(v.draws, v.games),
            percent(v.losses, v.games),
            100.0 * v.score
        );
    }
    println!(
        "moves/s   {:.0} (all games: {} moves)",
        report.pieces_per_second, report.total_pieces
    );
}

/// One line per game with its score and counts, for a game that reports counts (the others'
/// scores are in `--json`'s rows).
pub(super) fn print_per_game(report: &PlayReport, names: &[&str]) {
    if names.is_empty() {
        return;
    }
    let width = report
        .per_game
        .iter()
        .map(|r| r.game.len())
        .max()
        .unwrap_or(0)
        .max("game".len());
    let mut header = format!("{:<width$}  {:>8}", "game", "score");
    for name in names {
        header += &format!("  {name:>8}");
    }
    println!("{header}");
    for row in &report.per_game {
        let mut line = format!("{:<width$}  {:>8}", row.game, row.score);
        for name in names {
            line += &format!("  {:>8}", row.counts[name]);
        }
        println!("{line}");
    }
    println!();
}

/// The summary table of a one-player game; `games` says how many and where they came from.
pub(super) fn print_report(report: &PlayReport, measure: &str, weights: &Path, games: &str) {
    let s = &report.summary;
    println!("weights       {}", weights.display());
    println!("games         {games}");
    println!("mean {measure:<8} {:.1} ± {:.1} (95 % CI)", s.mean, s.ci95);
    println!("median        {:.1}", s.median);
    println!("std           {:.1}", s.std);
    println!("min / max     {} / {}", s.min, s.max);
    println!("pieces        {}", report.total_pieces);
    println!("pieces/s      {:.0}", report.pieces_per_second);
    if let Some(line) = report.capped.line(s.games as u64) {
        println!("capped        {line}");
    }
}
