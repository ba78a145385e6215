//! stacktune: tunes Dellacherie-style linear players for grid puzzle games.
//!
//! The pipeline is game rules → placements → features → `w · φ` → chosen move; an optimiser
//! evolves `w` over seeded games played in parallel. The modules below are listed by layer,
//! top down; a module imports only from its own layer or the layers under it.

// The command line: flags parsed and dispatched (`main.rs` is only the entry point), and
// what a host embedding stacktune (the Python package) needs of the commands, and the files
// `export` writes for other runners (a Kaggle agent).
pub mod cli;
pub mod commands;
pub mod embed;
pub mod export;

// A run: its config, the executor and its observers, the folder, checkpoint and pages.
pub mod checkpoint;
pub mod compare;
pub mod folder;
pub mod report;
pub mod report_page;
pub mod run;

// Versus Tetris matches: two players on the same pieces, each a weights file under its search
// or any bot behind the Tetris Bot Protocol; a tuned player as a TBP bot.
pub mod versus;

// Where games are played (threads or MPI ranks), and the optimisers, which name no game.
pub mod backend;

// The registry that builds a game of any kind from its settings, with its opponents.
pub mod registry;

// How far a player looks.
pub mod search;

// The linear player, its weights files, and whole episodes played in parallel.
pub mod eval;
pub mod weights;
