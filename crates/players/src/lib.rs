//! Players and how far they look: the linear evaluator `w · φ` ([`eval`]) and its named
//! weights files ([`weights`]), the searches ([`search`]), the registry that builds a game of
//! any kind from its settings with its opponents as players ([`registry`]), matches between
//! two versus players, weights files or bots ([`versus`]), and the Puyo player that reads the
//! match ([`puyo_match`]).

pub mod eval;
pub mod puyo_match;
pub mod registry;
pub mod search;
pub mod versus;
pub mod weights;
