//! `evolve`: the product's main job. With no arguments it runs the built-in default run.

use anyhow::Result;
use stacktune_run::backend::Backend;
use stacktune_run::evolution::{EvolveArgs, execute};

/// Runs (or resumes) the evolution and prints where its report and best weights are, and the
/// command that reproduces its held-out figure.
pub fn run(args: EvolveArgs, backend: &dyn Backend) -> Result<()> {
    let (config, result, opponents) = execute(args, backend)?;
    let b = &result.best;
    println!("report: {}", result.dir.display());
    // Game scores of two-player games lie in [0, 1]: one decimal would hide every difference.
    let p = if opponents > 0 { 3 } else { 1 };
    println!(
        "best weights: {}/best.toml, {:.p$} ± {:.p$} mean per game on {} held-out games",
        result.dir.display(),
        b.mean,
        b.ci95,
        b.games
    );
    if let Some((path, s)) = &result.baseline {
        println!(
            "baseline {}: {:.p$} ± {:.p$} on the same games",
            path.display(),
            s.mean,
            s.ci95
        );
    }
    println!(
        "reproduce the held-out figure: {}",
        // `play` plays --games against each opponent, taking them in turn as the run does.
        config.play_command(
            &result.dir.join("best.toml"),
            config.final_games / opponents.max(1)
        )
    );
    Ok(())
}
