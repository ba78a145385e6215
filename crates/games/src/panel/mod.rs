//! Panel de Pon (Tetris Attack) puzzles: clear the board within a number of swaps.
//!
//! Unlike the other games this is not played by a tuned heuristic: the puzzles are small
//! enough to solve exactly, so there is no `Game` implementation, only the rules
//! ([`board`]), the puzzle files ([`load`]) and the exact search ([`solver`]).

pub mod board;
pub mod load;
pub mod solver;

pub use board::{Board, Swap};
pub use load::{Entry, Puzzle};
pub use solver::{AllSolutions, Shortest, shortest};
