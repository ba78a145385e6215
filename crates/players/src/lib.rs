//! Players and how far they look: the linear evaluator `w · φ` ([`eval`]) and its named
//! weights files ([`weights`]), the searches ([`search`]), the registry that builds a game of
//! any kind from its settings with its opponents as players ([`registry`]), and matches between
//! two versus players, weights files or bots ([`versus`]).

pub mod eval;
pub mod registry;
pub mod search;
pub mod versus;
pub mod weights;
