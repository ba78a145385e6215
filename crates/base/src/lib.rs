//! The base every layer of stacktune stands on, naming no game and no optimiser: seeded
//! streams keyed by purpose ([`rng`]), the exact maths a run's bytes depend on on every
//! platform ([`math`]), statistics of games, matches and ratings ([`stats`]), the bounds on
//! what a user may ask for ([`limits`]), progress on a terminal ([`progress`]), the flag that
//! stops long work ([`stop`]), and files written whole or not at all ([`fsutil`],
//! [`toml_error`]).

pub mod fsutil;
pub mod limits;
pub mod math;
pub mod progress;
pub mod rng;
pub mod stats;
pub mod stop;
pub mod toml_error;
