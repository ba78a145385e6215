//! stacktune: tunes Dellacherie-style linear players for grid puzzle games.
//!
//! The pipeline is game rules → placements → features → `w · φ` → chosen move; an optimiser
//! evolves `w` over seeded games played in parallel. See DESIGN in the README for the map.

pub mod backend;
pub mod checkpoint;
pub mod commands;
pub mod compare;
pub mod episode;
pub mod eval;
pub mod export;
pub mod folder;
pub mod fsutil;
pub mod game;
pub mod games;
pub mod limits;
pub mod progress;
pub mod replay;
pub mod report;
pub mod report_page;
pub mod rng;
pub mod run;
pub mod search;
pub mod stats;
pub mod toml_error;
pub mod tune;
pub mod weights;
