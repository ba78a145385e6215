//! `connect-book`: writes the opening book of [`stacktune_games::connect::book`], every position
//! up to some discs solved by stacktune's own solver. The work takes minutes a position, so
//! each outcome is kept as it comes in a file beside the book, and the same command run again
//! after an interruption goes on from there.

use anyhow::{Context, Result, bail};
use stacktune_base::fsutil::{refuse_existing, write_new};
use stacktune_base::progress::{Mode, Progress};
use stacktune_games::connect::Position;
use stacktune_games::connect::book::{Plan, solve_all};
use std::collections::HashMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::Instant;

/// Most discs a book goes past its root: each disc multiplies its positions by up to seven.
const MOST_PLIES: u32 = 12;

#[derive(clap::Args, Debug)]
pub struct ConnectBookArgs {
    /// Solve every 7 × 6 position with at most this many discs (one of each mirror pair), at
    /// most 12 past those of --from.
    #[arg(long, value_parser = clap::value_parser!(u32).range(0..=42))]
    pub plies: u32,
    /// Only the positions that follow these moves (Pons' notation, e.g. 4444): a part of the
    /// book, solved in seconds when the moves are many.
    #[arg(long, default_value = "")]
    pub from: String,
    /// The book file to write (the shipped one is weights/connect/book.txt); an existing file
    /// is never overwritten. Outcomes solved so far are kept in FILE.partial until it is.
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
    /// Worker threads, one solver (512 MB) each (0 = one per core); the book does not depend
    /// on it.
    #[arg(long, default_value_t = 0)]
    pub threads: usize,
    /// Show no progress on standard error.
    #[arg(long)]
    pub quiet: bool,
}

pub fn run(args: ConnectBookArgs) -> Result<()> {
    refuse_existing(&args.out)?;
    let start = Instant::now();
    // One move a character: a bad move is refused by the plan, naming it.
    let from_discs = args.from.chars().count() as u32;
    if args.plies > from_discs + MOST_PLIES {
        bail!(
            "--plies {} is more than {MOST_PLIES} discs past the {from_discs} of --from: a book grows up to sevenfold a disc",
            args.plies
        );
    }
    let plan = Plan::new(&args.from, args.plies)?;
    let partial = Partial::open(&args.out, &args.from, args.plies, plan.deepest())?;
    let todo: Vec<usize> = (0..plan.deepest().len())
        .filter(|i| !partial.known.contains_key(i))
        .collect();
    let discs = args.plies + 1;
    if !partial.known.is_empty() && !args.quiet {
        eprintln!(
            "{}: {} of the {} positions with {discs} discs solved before; solving the rest",
            partial.path.display(),
            partial.known.len(),
            plan.deepest().len()
        );
    }
    let progress = Progress::new(
        Mode::detect(args.quiet),
        todo.len() as u64,
        &format!("solving the positions with {discs} discs"),
    );
    progress.show_start();
    let positions: Vec<Position> = todo.iter().map(|&i| plan.deepest()[i].1).collect();
    let failed = Mutex::new(None);
    let solved = solve_all(&positions, args.threads, &|k, outcome| {
        if let Err(e) = partial.keep(&plan.deepest()[todo[k]].0, outcome) {
            failed.lock().expect("one error kept").get_or_insert(e);
        }
        progress.inc();
    });
    progress.finish();
    if let Some(e) = failed.into_inner().expect("one error kept") {
        return Err(e);
    }
    let mut outcomes: Vec<i8> = (0..plan.deepest().len())
        .map(|i| partial.known.get(&i).copied().unwrap_or(0))
        .collect();
    for (k, &i) in todo.iter().enumerate() {
        outcomes[i] = solved[k];
    }
    let book = plan.book(&outcomes);
    let (after, from) = match args.from.as_str() {
        "" => (String::new(), String::new()),
        moves => (format!(" after {moves}"), format!(" --from {moves}")),
    };
    let header = [
        "The opening book of stacktune's connect player: for every 7 x 6 position with at most"
            .to_string(),
        format!(
            "{} discs{after} (one of each mirror pair), the columns that keep its value under perfect",
            args.plies
        ),
        format!(
            "play (`-`: lost, every column keeps it). Written by `stacktune connect-book --plies {}{from}`.",
            args.plies
        ),
    ];
    write_new(&args.out, book.to_text(&header).as_bytes())?;
    partial.remove()?;
    println!(
        "connect book: {} positions up to {} discs in {:.1} s: {}",
        book.entries().len(),
        book.plies(),
        start.elapsed().as_secs_f64(),
        args.out.display()
    );
    Ok(())
}

/// The outcomes solved so far, in `FILE.partial` beside the book: a first line that names the
/// work (`--from` and `--plies`), then `MOVES OUTCOME` (1, 0 or -1 for the side to move) a
/// position, appended as each is solved. A run stopped by Ctrl-C or kill -9 leaves it; the
/// same command reads it back and solves only the rest.
struct Partial {
    path: PathBuf,
    /// Outcome by index into the plan's deepest positions.
    known: HashMap<usize, i8>,
    file: Mutex<std::fs::File>,
}

impl Partial {
    /// The partial file of the book `out`, read back if it is there, created otherwise.
    fn open(out: &Path, from: &str, plies: u32, deepest: &[(String, Position)]) -> Result<Partial> {
        let mut name = out.as_os_str().to_owned();
        name.push(".partial");
        let path = PathBuf::from(name);
        let first = format!(
            "# stacktune connect-book --from \"{from}\" --plies {plies}: the outcomes solved so far"
        );
        let known = match stacktune_base::fsutil::read_text(&path) {
            Ok(text) => Self::read(&path, &text, &first, deepest)?,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                stacktune_base::fsutil::write_new(&path, format!("{first}\n").as_bytes())?;
                HashMap::new()
            }
            Err(e) => bail!("cannot read {}: {e}", path.display()),
        };
        let file = std::fs::OpenOptions::new()
            .append(true)
            .open(&path)
            .with_context(|| format!("cannot write {}", path.display()))?;
        Ok(Partial {
            path,
            known,
            file: Mutex::new(file),
        })
    }

    /// The outcomes a partial file holds, checked against the work it must be of; a last line
    /// cut short (a kill -9 mid-write) is left out, and solved again.
    fn read(
        path: &Path,
        text: &str,
        first: &str,
        deepest: &[(String, Position)],
    ) -> Result<HashMap<usize, i8>> {
        let index: HashMap<&str, usize> = deepest
            .iter()
            .enumerate()
            .map(|(i, (moves, _))| (moves.as_str(), i))
            .collect();
        let mut lines = text.split_inclusive('\n').filter(|l| l.ends_with('\n'));
        let head = lines.next().unwrap_or_default().trim_end();
        if head.is_empty() {
            bail!(
                "{} is cut short: its first line, which names the book's work, is missing or incomplete; remove it to start over",
                path.display()
            );
        }
        if head != first {
            bail!(
                "{} holds the unfinished work of another book (`{head}`): give another --out, or remove it to start over",
                path.display()
            );
        }
        let mut known = HashMap::new();
        for (n, line) in lines.enumerate() {
            let parsed = line.split_once(' ').and_then(|(moves, outcome)| {
                let outcome = outcome.trim_end().parse::<i8>().ok()?;
                let i = *index.get(moves)?;
                (-1..=1).contains(&outcome).then_some((i, outcome))
            });
            let Some((i, outcome)) = parsed else {
                bail!(
                    "{}: line {}: `{}` is not a position of this book and its outcome (1, 0 or -1): remove the file to start over",
                    path.display(),
                    n + 2,
                    line.trim_end()
                );
            };
            known.insert(i, outcome);
        }
        Ok(known)
    }

    /// Appends one solved position, written at once: a run killed after it keeps it.
    fn keep(&self, moves: &str, outcome: i8) -> Result<()> {
        let mut file = self.file.lock().expect("one writer at a time");
        file.write_all(format!("{moves} {outcome}\n").as_bytes())
            .with_context(|| format!("cannot write {}", self.path.display()))
    }

    /// The book is written: the partial file has served.
    fn remove(self) -> Result<()> {
        std::fs::remove_file(&self.path)
            .with_context(|| format!("cannot remove {}", self.path.display()))
    }
}
