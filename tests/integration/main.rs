//! The integration tests, one module a subject, in one test binary: each links the whole
//! workspace, so one binary links it once (`cargo test --release --test integration`; one
//! subject: `cargo test --release --test integration contest::`). Two stay binaries of their
//! own: `tests/tbp_client.rs`, which is also the fake bot its tests start (no libtest harness),
//! and `tests/mpi.rs`, which runs under `mpirun` with the `mpi` feature.

mod common;

mod compare;
mod connect;
mod connect_endgame;
mod contest;
mod contest_level4;
mod evolve;
mod example_game;
mod export;
mod function_length;
mod fuzz_boards;
mod fuzz_parsers;
mod guideline;
mod interrupt;
mod math;
mod panel;
mod progress;
mod puyo;
mod puyo_pbp;
mod puyo_versus;
mod readme;
mod replay;
mod report_page;
mod run_folder;
mod search;
mod self_play;
mod settings;
mod solve_progress;
mod tbp_bot;
mod tbp_fuzz;
mod tbp_messages;
mod tetrio;
mod tetris_cli;
mod tetris_features;
mod tetris_mdptetris;
mod tetris_published;
mod tetris_splitting;
mod versus;
