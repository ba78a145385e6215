//! `export`: a weights file as one self-contained file for another runner.

use crate::export::{Provenance, contest, kaggle};
use anyhow::{Result, anyhow};
use stacktune_base::fsutil::{refuse_existing, write_new};
use stacktune_games::connect::Connect;
use stacktune_games::connect::book::Book;
use stacktune_players::weights::WeightFile;
use std::path::PathBuf;

#[derive(clap::Args, Debug)]
pub struct ExportArgs {
    #[command(subcommand)]
    pub target: Target,
}

#[derive(clap::Subcommand, Debug)]
pub enum Target {
    /// A Kaggle ConnectX agent: one Python file (standard library only) whose `agent`
    /// plays connect weights as stacktune does, deepening its search within Kaggle's time.
    Kaggle(KaggleArgs),
    /// A controller for the Tetris programming contest (seigot/tetris): a
    /// `block_controller.py` that plays contest weights through the `stacktune` Python
    /// package, making the moves `play --rules contest` makes.
    Contest(ContestArgs),
}

#[derive(clap::Args, Debug)]
pub struct KaggleArgs {
    /// Connect weights file (TOML) to play.
    #[arg(long)]
    pub weights: PathBuf,
    /// The Python file to write (e.g. submission.py); an existing file is never overwritten.
    #[arg(long)]
    pub out: PathBuf,
    /// From N empty cells on (0: never), the agent chooses among the columns that keep a won
    /// or drawn position's value under perfect play, as `play --endgame N` does; 7 × 6 boards
    /// with lines of four only.
    #[arg(long, value_name = "N", default_value_t = 0,
          value_parser = clap::value_parser!(u32).range(0..=42))]
    pub endgame: u32,
    /// The opening book the agent keeps to in the positions it holds, embedded: a book file
    /// (`connect-book`), `shipped` (weights/connect/book.txt, the default) or `none`.
    #[arg(long, value_name = "FILE|shipped|none", default_value = "shipped")]
    pub book: String,
}

#[derive(clap::Args, Debug)]
pub struct ContestArgs {
    /// Contest weights file (TOML, `rules = "contest"`) to play; embedded whole.
    #[arg(long)]
    pub weights: PathBuf,
    /// The Python file to write (e.g. block_controller.py); an existing file is never
    /// overwritten.
    #[arg(long)]
    pub out: PathBuf,
}

pub fn run(args: ExportArgs) -> Result<()> {
    match args.target {
        Target::Kaggle(args) => export_kaggle(&args),
        Target::Contest(args) => export_contest(&args),
    }
}

fn export_kaggle(args: &KaggleArgs) -> Result<()> {
    refuse_existing(&args.out)?;
    let (file, text) = WeightFile::load_with_text(&args.weights)?;
    let source = Provenance::of(&args.weights, text.as_bytes());
    let book = Book::load(&Connect::standard(), &args.book)?;
    let python = kaggle::agent_source(&file, &source, args.endgame, book.as_deref())
        .map_err(|e| anyhow!("weights file {}: {e}", args.weights.display()))?;
    write_new(&args.out, python.as_bytes())?;
    println!("kaggle agent: {}", args.out.display());
    Ok(())
}

fn export_contest(args: &ContestArgs) -> Result<()> {
    refuse_existing(&args.out)?;
    let (file, text) = WeightFile::load_with_text(&args.weights)?;
    let source = Provenance::of(&args.weights, text.as_bytes());
    let python = contest::controller_source(&file, &text, &source)
        .map_err(|e| anyhow!("weights file {}: {e}", args.weights.display()))?;
    write_new(&args.out, python.as_bytes())?;
    println!("contest controller: {}", args.out.display());
    Ok(())
}
