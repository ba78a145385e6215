//! `connect-book`: writes the opening book of [`crate::games::connect::book`], every position
//! up to some discs solved by stacktune's own solver.

use crate::fsutil::{refuse_existing, write_new};
use crate::games::connect::book::Book;
use crate::progress::{Mode, Progress};
use anyhow::Result;
use std::path::PathBuf;
use std::sync::OnceLock;
use std::time::Instant;

/// Deepest book the command builds: the solver's time grows about fourfold a disc.
const MOST_PLIES: u32 = 12;

#[derive(clap::Args, Debug)]
pub struct ConnectBookArgs {
    /// Solve every 7 × 6 position with at most this many discs (one of each mirror pair).
    #[arg(long, value_parser = clap::value_parser!(u32).range(0..=MOST_PLIES as i64))]
    pub plies: u32,
    /// The book file to write (the shipped one is weights/connect/book.txt); an existing file
    /// is never overwritten.
    #[arg(long)]
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
    let progress = OnceLock::new();
    let book = Book::build("", args.plies, args.threads, &|count, of| {
        let bar = progress.get_or_init(|| {
            let label = format!("solving the positions with {} discs", args.plies + 1);
            Progress::new(Mode::detect(args.quiet), of as u64, &label)
        });
        bar.inc();
        if count == of {
            bar.finish();
        }
    })?;
    let header = [
        "The opening book of stacktune's connect player: for every 7 x 6 position with at most"
            .to_string(),
        format!(
            "{} discs (one of each mirror pair), the columns that keep its value under perfect play",
            args.plies
        ),
        "(`-`: lost, every column keeps it). Written by `stacktune connect-book --plies N`."
            .to_string(),
    ];
    write_new(&args.out, book.to_text(&header).as_bytes())?;
    println!(
        "connect book: {} positions up to {} discs in {:.1} s: {}",
        book.entries().len(),
        book.plies(),
        start.elapsed().as_secs_f64(),
        args.out.display()
    );
    Ok(())
}
