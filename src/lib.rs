//! stacktune's command line: each command's flags, parsed and dispatched ([`cli`]), what each
//! prints ([`commands`]), and the files `export` writes for other runners ([`export`]). The
//! work is the library's, a crate a layer (CONTRIBUTING.md has the map): stacktune-run (runs,
//! `evolve` and `play`), stacktune-players (players, searches, the registry), stacktune-games,
//! stacktune-game (the trait), stacktune-tune (optimisers), stacktune-tbp (the protocol) and
//! stacktune-base.

pub mod cli;
pub mod commands;
pub mod export;
