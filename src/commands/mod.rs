//! One module per CLI command: its flags (clap), the library call that does its work, and
//! what it prints. `main.rs` only dispatches.

pub mod compare;
pub mod connect_book;
pub mod evolve;
pub mod export;
pub mod moves;
pub mod pbp;
pub mod play;
mod play_pieces;
mod play_report;
pub mod replay;
pub mod report;
pub mod search_flags;
pub mod solve;
pub mod solve_connect;
pub mod tbp;
pub mod versus;
pub mod watch;
