//! Panel de Pon puzzles (in progress).
