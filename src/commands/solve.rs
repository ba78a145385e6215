//! `solve`: Panel de Pon puzzles solved exactly, one with a walkthrough or every one of a file
//! as a table.

use super::search_flags::SearchFlags;
use anyhow::{Result, anyhow, bail};
use serde::Serialize;
use stacktune_base::progress::{Meter, Stopped};
use stacktune_games::panel::{AllSolutions, Entry, Puzzle, Swap, load, shortest};
use std::path::PathBuf;
use std::time::Instant;

/// Most solutions `--all` lists; a limit far above a puzzle's shortest solution can allow
/// millions of detours, and listing them would only flood the terminal.
const MAX_LISTED: u64 = 100_000;

#[derive(clap::Args, Debug)]
#[command(
    after_help = "Swaps are printed as (x, y), origin at the bottom-left: swap (x, y) \
exchanges cells (x, y) and (x + 1, y). A TOML puzzle has `swaps` and `rows` (top row first, \
0 = empty, colours 1 to 6) and an optional `name`. With --every, --time-limit bounds each \
puzzle: one that runs out is reported as not solved within the limit, the others are still \
solved, and the command fails at the end."
)]
pub struct SolveArgs {
    /// Puzzle file: a TOML puzzle or a Panel Attack JSON stock file.
    pub file: PathBuf,
    /// Panel Attack set to take the puzzle from, e.g. "Classic set 6".
    #[arg(long, requires = "index")]
    pub set: Option<String>,
    /// Puzzle within --set, counted from 1 as the game counts stages: "Classic set 6"
    /// --index 9 is stage 59.
    #[arg(long, requires = "set")]
    pub index: Option<usize>,
    /// Solve every puzzle of the file: one line each with its swap limit, shortest solution,
    /// number of solutions and time; puzzles these rules cannot play are reported, not fatal.
    #[arg(long, conflicts_with_all = ["set", "index", "all", "json"])]
    pub every: bool,
    /// Also list every solution: each sequence of at most the limit swaps, none exchanging two
    /// equal cells, that empties the board with its last swap.
    #[arg(long)]
    pub all: bool,
    /// Print one JSON object: solvable, shortest, solution, solutions (with --all) and nodes
    /// (boards the searches generated).
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub search: SearchFlags,
}

/// What `solve --json` prints.
#[derive(Debug, Serialize)]
pub struct SolveReport {
    pub solvable: bool,
    /// Swaps in the shortest solution, `null` when there is none.
    pub shortest: Option<usize>,
    pub solution: Option<Vec<Swap>>,
    /// Every solution, only with `--all`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub solutions: Option<Vec<Vec<Swap>>>,
    pub nodes: u64,
}

pub fn run(args: SolveArgs) -> Result<()> {
    let file = args.file.display();
    let entries = load::read(&args.file)?;
    if args.every {
        return every(&entries, &args.search);
    }
    let entry = match (&args.set, args.index, entries.as_slice()) {
        (Some(set), Some(index), _) => {
            load::select(&entries, set, index).map_err(|e| anyhow!("{file}: {e:#}"))?
        }
        (_, _, [one]) => one,
        (_, _, []) => bail!("{file} holds no puzzle"),
        (_, _, many) => bail!(
            "{file} holds {} puzzles; pick one with --set NAME --index I (I counts from 1) \
             or solve them all with --every",
            many.len()
        ),
    };
    let puzzle = entry
        .puzzle
        .as_ref()
        .map_err(|e| anyhow!("{file}: {}: {e:#}", entry.name))?;
    let mut meter = args.search.meter(&entry.name);
    let report = solve(puzzle, args.all, &mut meter)?;
    drop(meter);
    if args.json {
        println!("{}", serde_json::to_string(&report)?);
    } else {
        print_report(&entry.name, puzzle, &report);
    }
    Ok(())
}

/// The report `--json` prints. Listing every solution is a second, exhaustive search (the
/// shortest one stops at its first find), so it runs only when asked for. Both count into
/// `meter`, whose time limit bounds them together.
pub fn solve(puzzle: &Puzzle, all: bool, meter: &mut Meter) -> Result<SolveReport> {
    let found = shortest(&puzzle.board, puzzle.swaps, meter)?;
    let solutions = match (all, &found.solution) {
        (false, _) => None,
        (true, None) => Some(Vec::new()),
        (true, Some(_)) => {
            Some(AllSolutions::default().list(&puzzle.board, puzzle.swaps, MAX_LISTED, meter)?)
        }
    };
    Ok(SolveReport {
        solvable: found.solution.is_some(),
        shortest: found.solution.as_ref().map(Vec::len),
        solution: found.solution,
        solutions,
        nodes: meter.nodes(),
    })
}

/// `1 swap`, `2 swaps`.
fn counted(n: usize, noun: &str) -> String {
    format!("{n} {noun}{}", if n == 1 { "" } else { "s" })
}

fn line(swaps: &[Swap]) -> String {
    let parts: Vec<String> = swaps.iter().map(Swap::to_string).collect();
    parts.join(" ")
}

/// The puzzle, the shortest solution with the board after each swap, and the list of all
/// solutions when there is one.
fn print_report(name: &str, puzzle: &Puzzle, report: &SolveReport) {
    let rows = puzzle.board.height().max(1);
    let limit = counted(puzzle.swaps as usize, "swap");
    println!("{name}: at most {limit}");
    print!("{}", puzzle.board.draw(rows));
    let Some(solution) = &report.solution else {
        println!(
            "no solution within {limit} ({} boards searched)",
            report.nodes
        );
        return;
    };
    println!(
        "shortest solution: {}: {} ({} boards searched)",
        counted(solution.len(), "swap"),
        line(solution),
        report.nodes
    );
    let mut board = puzzle.board;
    for (i, &swap) in solution.iter().enumerate() {
        let (next, chains) = board
            .swapped(swap)
            .expect("a solution's swaps exchange different cells");
        board = next;
        println!("\nswap {}: {swap}, chain {chains}", i + 1);
        print!("{}", board.draw(rows));
    }
    if let Some(all) = &report.solutions {
        println!("\n{} within {limit}:", counted(all.len(), "solution"));
        for s in all {
            println!("  {}", line(s));
        }
    }
}

/// The shortest solution's length (`none` without one) and the number of solutions.
fn shortest_and_count(puzzle: &Puzzle, meter: &mut Meter) -> Result<(Option<usize>, u64), Stopped> {
    let found = shortest(&puzzle.board, puzzle.swaps, meter)?;
    let count = match &found.solution {
        Some(_) => AllSolutions::default().count(&puzzle.board, puzzle.swaps, meter)?,
        None => 0,
    };
    Ok((found.solution.as_ref().map(Vec::len), count))
}

/// One line per puzzle, then a total; a puzzle the rules cannot play is a line, not an abort,
/// and so is one that runs out of its own time limit, but the command then fails, as its table
/// is incomplete.
fn every(entries: &[Entry], search: &SearchFlags) -> Result<()> {
    let width = entries.iter().map(|e| e.name.len()).max().unwrap_or(0);
    let start = Instant::now();
    let (mut solved, mut unsolvable, mut unsupported, mut stopped) = (0, 0, 0, 0);
    let mut meter = search.meter("");
    for entry in entries {
        let puzzle = match &entry.puzzle {
            Ok(p) => p,
            Err(e) => {
                unsupported += 1;
                meter.suspend(|| println!("{:<width$}  unsupported: {e:#}", entry.name));
                continue;
            }
        };
        meter.restart(&entry.name);
        let t = Instant::now();
        let line = match shortest_and_count(puzzle, &mut meter) {
            Ok((length, count)) => {
                let length = match length {
                    Some(n) => {
                        solved += 1;
                        n.to_string()
                    }
                    None => {
                        unsolvable += 1;
                        "none".to_string()
                    }
                };
                format!(
                    "shortest {length:>4}  solutions {count:>6}  {:.3} s",
                    t.elapsed().as_secs_f64()
                )
            }
            Err(Stopped { seconds, nodes }) => {
                stopped += 1;
                format!("not solved within the time limit ({seconds:.1} s, {nodes} nodes)")
            }
        };
        meter.suspend(|| println!("{:<width$}  moves {}  {line}", entry.name, puzzle.swaps));
    }
    drop(meter);
    println!(
        "{} puzzles: {solved} solved, {unsolvable} unsolvable, {unsupported} unsupported{} in {:.3} s",
        entries.len(),
        if stopped > 0 {
            format!(", {stopped} not solved within the time limit")
        } else {
            String::new()
        },
        start.elapsed().as_secs_f64()
    );
    if stopped > 0 {
        bail!(
            "{stopped} of {} puzzles were not solved within --time-limit",
            entries.len()
        );
    }
    Ok(())
}
