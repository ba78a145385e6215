//! `solve-connect`: the exact score of a 7 × 6 Connect Four position, and of each of its moves.

use super::search_flags::SearchFlags;
use crate::episode::with_threads;
use crate::games::connect::Connect;
use crate::games::connect::agents::Opponent;
use crate::games::connect::solver::{
    ACCURACY_GAMES, ACCURACY_SEED, Solver, accuracy_set, move_accuracy,
};
use crate::rng::game_stream;
use crate::search::Search;
use anyhow::{Context, Result};
use std::fmt::Write;

#[derive(clap::Args, Debug)]
pub struct SolveConnectArgs {
    /// Columns played so far, 1 to 7 from the left, first player first (Pascal Pons'
    /// notation, e.g. 4453). Prints the position and its score for the side to move: 22 minus
    /// its discs when it wins, 0 for a draw, negative when it loses. Early positions take long.
    #[arg(required_unless_present = "accuracy")]
    pub position: Option<String>,
    /// Also print the score each column leaves for the side to move (`full` when it cannot be
    /// played); the best columns are those equal to the position's score.
    #[arg(long, conflicts_with = "accuracy")]
    pub analyse: bool,
    /// Instead of solving a position, print how often an agent (random, tutorial, negamax4 or
    /// a connect weights file) picks a value-preserving column on the fixed accuracy set;
    /// repeat to compare agents.
    #[arg(long, value_name = "NAME|FILE", conflicts_with_all = ["position", "time_limit"])]
    pub accuracy: Vec<String>,
    /// Plies a weights file given to --accuracy searches (default 1).
    #[arg(long, default_value_t = 1, requires = "accuracy")]
    pub depth: u32,
    /// Worker threads solving the accuracy set (0 = one per core); results do not depend on it.
    #[arg(long, default_value_t = 0)]
    pub threads: usize,
    #[command(flatten)]
    pub search: SearchFlags,
}

pub fn run(args: SolveConnectArgs) -> Result<()> {
    let Some(moves) = &args.position else {
        return accuracy(&args);
    };
    let position = Connect::standard()
        .parse_moves(moves)
        .with_context(|| format!("position `{moves}`"))?;
    let label = if moves.is_empty() { "(empty)" } else { moves };
    let mut solver = Solver::metered(args.search.meter(label));
    // The columns' scores give the position's score as their best, and solving them alone
    // costs fewer nodes than solving the position first.
    let columns = if args.analyse {
        Some(solver.analyse(&position)?)
    } else {
        None
    };
    let score = match columns {
        Some(scores) => scores
            .into_iter()
            .flatten()
            .max()
            .expect("a position in play has a move"),
        None => solver.solve(&position)?,
    };
    // The spinner goes with the solver, before the result is printed.
    drop(solver);
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

/// The move-accuracy table of `--accuracy`: agents are checked before the set is solved, so a
/// bad name fails at once.
fn accuracy(args: &SolveConnectArgs) -> Result<()> {
    let game = Connect::standard();
    let agents = args
        .accuracy
        .iter()
        .map(|spec| {
            let mut opponent = Opponent::parse(&game, spec)?;
            if let Opponent::Linear { player, .. } = &mut opponent {
                player.search = Search::AlphaBeta { depth: args.depth };
            }
            Ok(opponent)
        })
        .collect::<Result<Vec<_>>>()?;
    if !(1..=crate::games::connect::MAX_DEPTH).contains(&args.depth) {
        anyhow::bail!(
            "--depth {} is out of range 1..={}",
            args.depth,
            crate::games::connect::MAX_DEPTH
        );
    }
    let set = with_threads(args.threads, accuracy_set)?;
    let mut out = format!(
        "move accuracy on {} decisive positions of {ACCURACY_GAMES} random games (seed {ACCURACY_SEED})\n",
        set.len()
    );
    let width = agents.iter().map(|a| a.name().len()).max().unwrap_or(0);
    for agent in &agents {
        let accuracy = move_accuracy(&mut agent.agent(&game), &set, &mut game_stream(0, 0));
        let depth = match agent {
            Opponent::Linear { .. } => format!(" (depth {})", args.depth),
            _ => String::new(),
        };
        writeln!(
            out,
            "{:<width$}  {:5.1} %{depth}",
            agent.name(),
            100.0 * accuracy
        )?;
    }
    print!("{out}");
    Ok(())
}
