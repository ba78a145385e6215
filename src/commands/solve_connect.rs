//! `solve-connect`: the exact score of a 7 × 6 Connect Four position, and of each of its moves.

use super::search_flags::SearchFlags;
use anyhow::{Context, Result, bail};
use rand_chacha::ChaCha8Rng;
use stacktune_base::rng::game_stream;
use stacktune_game::episode::with_threads;
use stacktune_games::connect::accuracy::{
    ACCURACY_GAMES, ACCURACY_SEED, GAMES_SET_FILE, accuracy_set, games_set, move_accuracy,
};
use stacktune_games::connect::agents::Agent;
use stacktune_games::connect::agents::Opponent;
use stacktune_games::connect::solver::Solver;
use stacktune_games::connect::{Column, Connect, Position};
use stacktune_players::registry::connect_weights;
use stacktune_players::search::{Player, Search};
use stacktune_players::weights::WeightFile;
use std::fmt::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

#[derive(clap::Args, Debug)]
pub struct SolveConnectArgs {
    /// Columns played so far, 1 to 7 from the left, first player first (Pascal Pons'
    /// notation, e.g. 4453). Prints the position and its score for the side to move: 22 minus
    /// its discs when it wins, 0 for a draw, negative when it loses. Early positions take long.
    #[arg(required_unless_present_any = ["accuracy", "positions"])]
    pub position: Option<String>,
    /// Solve every position of FILE (`-`: standard input), one a line, on one table, printing
    /// `POSITION SCORE` for each as it is solved. A line may give the expected score after
    /// the position (Pons' test sets: `POSITION SCORE`); every given score is checked, and
    /// the command fails at the end if any differs. Blank lines are skipped.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["position", "analyse", "accuracy"])]
    pub positions: Option<PathBuf>,
    /// Also print the score each column leaves for the side to move (`full` when it cannot be
    /// played); the best columns are those equal to the position's score.
    #[arg(long, conflicts_with = "accuracy")]
    pub analyse: bool,
    /// Instead of solving a position, print how often an agent (random, tutorial, negamax4 or
    /// a connect weights file) picks a value-preserving column on the fixed accuracy set;
    /// repeat to compare agents.
    #[arg(long, value_name = "NAME|FILE", conflicts_with_all = ["position", "time_limit"])]
    pub accuracy: Vec<String>,
    /// Plies a weights file given to --accuracy searches (default 1); repeat for a row per
    /// depth (`--depth 1 --depth 2 --depth 4`).
    #[arg(long, requires = "accuracy")]
    pub depth: Vec<u32>,
    /// A weights file given to --accuracy keeps, from this many empty cells on, to the columns
    /// the solver proves keep the value (as `play --endgame`), so every position with at most
    /// that many empty cells is answered right.
    #[arg(long, value_name = "EMPTY_CELLS", requires = "accuracy")]
    pub endgame: Option<u32>,
    /// Worker threads solving the accuracy set (0 = one per core); results do not depend on it.
    #[arg(long, default_value_t = 0)]
    pub threads: usize,
    #[command(flatten)]
    pub search: SearchFlags,
}

pub fn run(args: SolveConnectArgs) -> Result<()> {
    if let Some(file) = &args.positions {
        return batch(file, &args.search);
    }
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

/// A line of a positions file: the position, its moves as written, and the score the file
/// expects, if it gives one.
struct Entry {
    line: usize,
    moves: String,
    position: stacktune_games::connect::Position,
    expected: Option<i32>,
}

/// Reads and checks a whole positions file before anything is solved, so that a bad line
/// fails at once, with its line number, and no result is printed.
fn read_positions(file: &Path) -> Result<(String, Vec<Entry>)> {
    let (name, text) = if file == Path::new("-") {
        let text = stacktune_base::fsutil::read_text_from(std::io::stdin().lock())
            .context("cannot read positions from standard input")?;
        ("standard input".to_string(), text)
    } else {
        let text = stacktune_base::fsutil::read_text(file)
            .with_context(|| format!("cannot read positions file {}", file.display()))?;
        (file.display().to_string(), text)
    };
    let game = Connect::standard();
    let mut entries = Vec::new();
    for (i, text) in text.lines().enumerate() {
        let line = i + 1;
        let mut fields = text.split_whitespace();
        let Some(moves) = fields.next() else {
            continue;
        };
        let position = game
            .parse_moves(moves)
            .map_err(|e| anyhow::anyhow!("{name} line {line}: position `{moves}`: {e}"))?;
        let expected = fields
            .next()
            .map(|score| {
                score.parse::<i32>().map_err(|_| {
                    anyhow::anyhow!("{name} line {line}: score `{score}` is not a whole number")
                })
            })
            .transpose()?;
        if let Some(extra) = fields.next() {
            bail!("{name} line {line}: `{extra}` after the position and its score");
        }
        entries.push(Entry {
            line,
            moves: moves.to_string(),
            position,
            expected,
        });
    }
    Ok((name, entries))
}

/// `--positions`: every position of a file on one solver, so that the table is allocated
/// once and what it learns carries over; the given scores are checked.
fn batch(file: &Path, search: &SearchFlags) -> Result<()> {
    let (name, entries) = read_positions(file)?;
    let started = Instant::now();
    let mut solver = Solver::metered(search.meter(&name));
    let mut nodes = 0;
    let mut checked = 0;
    let mut wrong = Vec::new();
    for entry in &entries {
        solver.restart(&format!("{name} line {}", entry.line));
        let score = solver
            .solve(&entry.position)
            .map_err(|e| anyhow::anyhow!("{name} line {} (`{}`): {e}", entry.line, entry.moves))?;
        nodes += solver.nodes();
        solver.suspend(|| println!("{} {score}", entry.moves));
        if let Some(expected) = entry.expected {
            checked += 1;
            if expected != score {
                wrong.push((entry, score, expected));
            }
        }
    }
    drop(solver);
    if !search.quiet {
        eprintln!(
            "{} positions, {checked} scores checked, {} differ; {nodes} nodes in {:.2} s",
            entries.len(),
            wrong.len(),
            started.elapsed().as_secs_f64()
        );
    }
    if let Some((entry, score, expected)) = wrong.first() {
        bail!(
            "{} of {checked} given scores differ from the solver's; the first, {name} line {}: `{}` scores {score}, the file says {expected}",
            wrong.len(),
            entry.line,
            entry.moves
        );
    }
    Ok(())
}

/// An agent whose moves are timed: the mean and the longest move of the accuracy table, the
/// longest being what a per-move time limit must allow.
struct Timed<A> {
    agent: A,
    total: Duration,
    longest: Duration,
}

impl<A: Agent> Agent for Timed<A> {
    fn choose(&mut self, position: &Position, rng: &mut ChaCha8Rng) -> Column {
        let started = Instant::now();
        let column = self.agent.choose(position, rng);
        let took = started.elapsed();
        self.total += took;
        self.longest = self.longest.max(took);
        column
    }
}

/// The move-accuracy table of `--accuracy`: agents are checked before the set is solved, so a
/// bad name fails at once.
fn accuracy(args: &SolveConnectArgs) -> Result<()> {
    let game = Connect::standard();
    let agents = accuracy_agents(&game, args)?;
    let random = with_threads(args.threads, accuracy_set)?;
    let games = games_set();
    let mut out = format!(
        "move accuracy on two sets of positions where some column changes the result:\n\
         random: {} positions of {ACCURACY_GAMES} random games (seed {ACCURACY_SEED})\n\
         games:  {} positions of the shipped player's games ({GAMES_SET_FILE})\n",
        random.len(),
        games.len()
    );
    let width = agents
        .iter()
        .map(|a| a.name().len())
        .max()
        .unwrap_or(0)
        .max(5);
    writeln!(
        out,
        "{:<width$}  {:>7}  {:>7}  {:>9}  {:>8}",
        "agent", "random", "games", "ms/move", "max ms"
    )?;
    for agent in &agents {
        let on_random = move_accuracy(&mut agent.agent(&game), &random, &mut game_stream(0, 0));
        let mut timed = Timed {
            agent: agent.agent(&game),
            total: Duration::ZERO,
            longest: Duration::ZERO,
        };
        let on_games = move_accuracy(&mut timed, &games, &mut game_stream(0, 0));
        let per_move = 1e3 * timed.total.as_secs_f64() / games.len() as f64;
        let longest = 1e3 * timed.longest.as_secs_f64();
        writeln!(
            out,
            "{:<width$}  {:5.1} %  {:5.1} %  {per_move:9.3}  {longest:8.1}",
            agent.name(),
            100.0 * on_random,
            100.0 * on_games,
        )?;
    }
    print!("{out}");
    Ok(())
}

/// The agents `--accuracy` names, each checked: a reference agent, or a weights file searched
/// at each `--depth` (1 when none is given), with `--endgame` when given.
fn accuracy_agents(game: &Connect, args: &SolveConnectArgs) -> Result<Vec<Opponent>> {
    let depths = if args.depth.is_empty() {
        vec![1]
    } else {
        args.depth.clone()
    };
    if let Some(depth) = depths
        .iter()
        .find(|d| !(1..=stacktune_games::connect::MAX_DEPTH).contains(*d))
    {
        bail!(
            "--depth {depth} is out of range 1..={}",
            stacktune_games::connect::MAX_DEPTH
        );
    }
    let endgame = args.endgame.unwrap_or(0);
    if let Some(e) = args.endgame {
        stacktune_games::connect::check_endgame(game, e)?;
    }
    // A weights file gives one agent per depth; a reference agent, one.
    let mut agents = Vec::new();
    for spec in &args.accuracy {
        if let Some(agent) = Opponent::agent_named(spec) {
            agents.push(agent);
            continue;
        }
        let eval = connect_weights(game, spec, &WeightFile::load)?;
        for &depth in &depths {
            let player = Player::new(eval.clone(), Search::AlphaBeta { depth, endgame });
            let name = match args.endgame {
                Some(e) => format!("{spec} (depth {depth}, endgame {e})"),
                None => format!("{spec} (depth {depth})"),
            };
            agents.push(Opponent::Policy {
                name,
                policy: Arc::new(player),
            });
        }
    }
    Ok(agents)
}
