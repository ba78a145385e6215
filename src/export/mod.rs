//! Exports: one self-contained file that plays a weights file in another runner, generated
//! from the same weights and search, so that a test can prove it plays stacktune's moves.

pub mod contest;
pub mod kaggle;
