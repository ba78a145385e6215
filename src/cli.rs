//! The command line itself: `stacktune`'s subcommands parsed and dispatched, for the binary
//! (`main.rs`) and for a host that runs the command line in its own process
//! (`python -m stacktune`), so that both are the same program.

use crate::commands::{
    compare, connect_book, evolve, export, moves, pbp, play, replay, report, solve, solve_connect,
    tbp, versus, watch,
};
use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};
use stacktune_run::backend;
use std::ffi::OsString;
use std::io::Write;

/// Tunes Dellacherie-style heuristic players for grid puzzle games.
#[derive(Parser)]
#[command(name = "stacktune", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Evolve weights with a genetic algorithm (no arguments: the built-in Tetris 10 × 10 run).
    Evolve(stacktune_run::evolution::EvolveArgs),
    /// Run configs (optimisers) side by side on equal training budgets, repeated with seeds.
    Compare(compare::CompareArgs),
    /// Play many seeded games with a weights file and summarise them.
    Play(stacktune_run::play::PlayArgs),
    /// List every placement of a piece on a board with all features.
    Moves(stacktune_games::listing::MovesArgs),
    /// Watch one game in the terminal.
    Watch(watch::WatchArgs),
    /// (Re)write a run folder's report.html: the run as one web page, with a replay.
    Report(report::ReportArgs),
    /// Replay a contest tetris game from a controller's requests, turn by turn.
    Replay(replay::ReplayArgs),
    /// Solve Panel de Pon puzzles exactly.
    Solve(solve::SolveArgs),
    /// Solve a 7 × 6 Connect Four position with perfect play.
    SolveConnect(solve_connect::SolveConnectArgs),
    /// Write the connect opening book: positions up to some discs solved exactly.
    ConnectBook(connect_book::ConnectBookArgs),
    /// Write a weights file as one self-contained file for another runner (a Kaggle agent).
    Export(export::ExportArgs),
    /// Versus Tetris matches between two players: weights files or Tetris Bot Protocol bots;
    /// Puyo matches between weights files or against a Puyo Bot Protocol bot.
    Versus(versus::VersusArgs),
    /// Be a Tetris Bot Protocol bot on standard input and output, playing a weights file.
    Tbp(tbp::TbpArgs),
    /// Be a Puyo Bot Protocol bot on standard input and output, playing a puyo weights file.
    Pbp(pbp::PbpArgs),
}

/// Runs the command line `args` (the program's name first) and returns its exit code: 0, 1 for
/// an error (printed as one line after `error:`), clap's code for bad arguments. Help and
/// version print as clap prints them.
pub fn run(args: impl IntoIterator<Item = impl Into<OsString> + Clone>) -> i32 {
    end_with_a_line_when_output_fails();
    let parsed = negative_numbers_are_values(Cli::command())
        .try_get_matches_from(args)
        .and_then(|matches| Cli::from_arg_matches(&matches));
    let cli = match parsed {
        Ok(cli) => cli,
        Err(e) => return bad_arguments(e),
    };
    let (name, scales_out) = cli.command.name();
    let result = backend::launch(name, scales_out, |backend| match cli.command {
        Command::Evolve(args) => evolve::run(args, backend),
        Command::Compare(args) => compare::run(args, backend),
        Command::Play(args) => play::run(args, backend),
        Command::Moves(args) => moves::run(args),
        Command::Watch(args) => watch::run(args),
        Command::Replay(args) => replay::run(args),
        Command::Report(args) => report::run(args),
        Command::Solve(args) => solve::run(args),
        Command::SolveConnect(args) => solve_connect::run(args),
        Command::ConnectBook(args) => connect_book::run(args),
        Command::Export(args) => export::run(args),
        Command::Versus(args) => versus::run(args),
        Command::Tbp(args) => tbp::run(args),
        Command::Pbp(args) => pbp::run(args),
    });
    // What is still buffered is written now, so that a write that fails is this command's
    // error rather than lost at exit.
    let result = result.and_then(|()| {
        std::io::stdout()
            .flush()
            .map_err(|e| anyhow::anyhow!("cannot write to standard output: {e}"))
    });
    match result {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("error: {e:#}");
            1
        }
    }
}

/// A write to standard output or error that fails (a full disk, `> /dev/full`) ends the
/// command as any other error does: one line, exit status 1, no backtrace. `println!` reports
/// such a failure by panicking with `failed printing to stdout: ...`, from wherever it prints;
/// this hook turns that one panic into the line (written if standard error still takes it)
/// and hands every other panic to the hook before it.
fn end_with_a_line_when_output_fails() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            let Some(line) = stacktune_base::fsutil::failed_output(info.payload()) else {
                return previous(info);
            };
            let _ = writeln!(std::io::stderr(), "error: {line}");
            std::process::exit(1);
        }));
    });
}

/// Every flag of `command` and its subcommands takes a negative number as its value: clap
/// would take `--games -5` for a flag `-5`, where the user gave a value out of range.
fn negative_numbers_are_values(command: clap::Command) -> clap::Command {
    command
        .mut_args(|arg| {
            let takes_values = arg.get_action().takes_values();
            arg.allow_negative_numbers(takes_values)
        })
        .mut_subcommands(negative_numbers_are_values)
}

/// Clap follows its errors with a usage block and a hint; bad arguments get one line here (what
/// and where), as every other bad input does, with clap's exit code. Help and version print as
/// clap prints them.
fn bad_arguments(e: clap::Error) -> i32 {
    use clap::error::ErrorKind;
    if matches!(
        e.kind(),
        ErrorKind::DisplayHelp
            | ErrorKind::DisplayVersion
            | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
    ) {
        // Where the help cannot be written (a closed pipe) there is nothing left to say.
        let _ = e.print();
        return e.exit_code();
    }
    eprintln!(
        "{} (--help lists the options)",
        stacktune_run::flags::bad_arguments(&e)
    );
    e.exit_code()
}

impl Command {
    /// The command's name, and whether it plays its games through a backend (so that it may
    /// run as an MPI job's ranks).
    fn name(&self) -> (&'static str, bool) {
        match self {
            Command::Evolve(_) => ("evolve", true),
            Command::Compare(_) => ("compare", true),
            Command::Play(_) => ("play", true),
            Command::Moves(_) => ("moves", false),
            Command::Watch(_) => ("watch", false),
            Command::Replay(_) => ("replay", false),
            Command::Report(_) => ("report", false),
            Command::Solve(_) => ("solve", false),
            Command::SolveConnect(_) => ("solve-connect", false),
            Command::ConnectBook(_) => ("connect-book", false),
            Command::Export(_) => ("export", false),
            Command::Versus(_) => ("versus", false),
            Command::Tbp(_) => ("tbp", false),
            Command::Pbp(_) => ("pbp", false),
        }
    }
}
