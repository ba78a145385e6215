//! `solve-connect`: the exact score of a 7 × 6 Connect Four position, and of each of its moves.

use crate::games::connect::Connect;
use crate::games::connect::solver::Solver;
use anyhow::{Context, Result};
use std::fmt::Write;

#[derive(clap::Args, Debug)]
pub struct SolveConnectArgs {
    /// Columns played so far, 1 to 7 from the left, first player first (Pascal Pons'
    /// notation, e.g. 4453). Prints the position and its score for the side to move: 22 minus
    /// its discs when it wins, 0 for a draw, negative when it loses. Early positions take long.
    pub position: String,
    /// Also print the score each column leaves for the side to move (`full` when it cannot be
    /// played); the best columns are those equal to the position's score.
    #[arg(long)]
    pub analyse: bool,
}

pub fn run(args: SolveConnectArgs) -> Result<()> {
    let position = Connect::standard()
        .parse_moves(&args.position)
        .with_context(|| format!("position `{}`", args.position))?;
    let mut solver = Solver::new();
    // The columns' scores give the position's score as their best, and solving them alone
    // costs fewer nodes than solving the position first.
    let columns = args.analyse.then(|| solver.analyse(&position));
    let score = match columns {
        Some(scores) => scores
            .into_iter()
            .flatten()
            .max()
            .expect("a position in play has a move"),
        None => solver.solve(&position),
    };
    let label = if args.position.is_empty() {
        "(empty)"
    } else {
        &args.position
    };
    let mut out = format!("{label} {score}\n");
    if let Some(scores) = columns {
        out.push_str("column");
        for column in 1..=scores.len() {
            write!(out, "{column:>6}")?;
        }
        out.push_str("\nscore ");
        for score in scores {
            match score {
                Some(s) => write!(out, "{s:>6}")?,
                None => write!(out, "{:>6}", "full")?,
            }
        }
        out.push('\n');
    }
    print!("{out}");
    Ok(())
}
