//! The tables `play` prints of its report (stacktune-run's `PlayReport`, which `--json` prints
//! whole), apart from `play` so that every way of playing (seeded games, `--pieces`) reports
//! alike.

use stacktune_run::play::PlayReport;
use std::path::Path;

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
        let mut line = format!("{:<width$}  {:>8}", row.game, score_text(row.score));
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
    println!(
        "min / max     {} / {}",
        score_text(s.min),
        score_text(s.max)
    );
    println!("pieces        {}", report.total_pieces);
    println!("pieces/s      {:.0}", report.pieces_per_second);
    if let Some(line) = report.capped.line(s.games as u64) {
        println!("capped        {line}");
    }
}

/// A game's score as a reader takes it in: a count (lines, points) whole, a rate (sprint's
/// lines per 100 pieces) to two decimals; `--json` keeps every digit.
fn score_text(score: f64) -> String {
    if score.fract() == 0.0 {
        format!("{score:.0}")
    } else {
        format!("{score:.2}")
    }
}
