//! One side of a Puyo match as the match sees it: whatever chooses its placements, a solo
//! weight set that sees only its own field, a player that reads the match, or (later) an
//! outside AI behind a protocol, apart from the match (versus.rs) so that a side's kind and
//! the match that seats it never import each other.

use super::match_features::MatchState;
use super::rules::Placement;
use super::{Position, Puyo};
use stacktune_game::Policy;

/// What a side may know when it chooses: its own position, the nuisance on its way and when
/// it lands, its own last chain, the opponent's position and whether its chain still runs,
/// and the battle rules in force. Tsu shows all of it on screen.
#[derive(Clone, Copy, Debug)]
pub struct MatchView<'a> {
    /// The frame of the choice.
    pub now: u64,
    /// The side's field, its pair and the two next (Tsu shows three; a [`Seat`] hides what its
    /// player was not tuned to see).
    pub position: &'a Position,
    /// Nuisance from the opponent's chain still running: it offsets first, and falls only once
    /// that chain has ended (it becomes fixed at [`MatchView::opponent_chain_ends`]).
    pub pending: u32,
    /// Nuisance from chains that have ended: at most [`MatchView::nuisance_cap`] of it falls
    /// when the turn this choice starts ends (after its placement and any chain it fires).
    pub fixed: u32,
    /// Points of this side not yet converted to nuisance, below the target.
    pub carry: u32,
    /// An all clear's nuisance goes with this side's next chain.
    pub all_clear: bool,
    /// Nuisance this side's last chain sent past its own offsetting.
    pub last_sent: u32,
    /// The opponent's field, pair and two next.
    pub opponent: &'a Position,
    /// The frame the opponent's chain ends, while one is resolving (its pair has landed, or is
    /// falling, and fired): what it sends until then waits as `pending`.
    pub opponent_chain_ends: Option<u64>,
    /// Points a nuisance puyo costs in the chain this placement fires (margin time counted).
    pub target_points: u32,
    /// Most nuisance that falls in one turn.
    pub nuisance_cap: u32,
    /// Nuisance an all clear adds to the next chain.
    pub all_clear_nuisance: u32,
    /// Pairs each side has placed: this side's, then the opponent's.
    pub pairs: [u32; 2],
}

/// Whatever chooses one side's placements in a Puyo match.
pub trait Contestant {
    /// The placement for the pair `view.position` holds; an error (no placement, a crash, a
    /// placement the rules do not offer) loses the game with that reason.
    fn choose(&mut self, game: &Puyo, view: &MatchView<'_>) -> Result<Placement, String>;
}

impl<C: Contestant + ?Sized> Contestant for &mut C {
    fn choose(&mut self, game: &Puyo, view: &MatchView<'_>) -> Result<Placement, String> {
        (**self).choose(game, view)
    }
}

/// A solo player as a side: it sees its own position only, and the pairs it is shown, the one
/// to place included (1 to 3; Tsu shows 3 and the match deals them, a player tuned on fewer
/// sees the first of them).
#[derive(Clone, Copy)]
pub struct Seat<'a> {
    pub policy: &'a dyn Policy<Puyo>,
    pub shown: u8,
}

impl Seat<'_> {
    /// `position` as a player shown `shown` pairs sees it.
    pub fn hide(shown: u8, position: &Position) -> Position {
        let mut view = *position;
        if shown < 3 {
            view.after_next = None;
        }
        if shown < 2 {
            view.next = None;
        }
        view
    }
}

impl Contestant for Seat<'_> {
    fn choose(&mut self, game: &Puyo, view: &MatchView<'_>) -> Result<Placement, String> {
        self.policy
            .choose(game, &Seat::hide(self.shown, view.position))
            .ok_or_else(|| "had no placement left".to_string())
    }
}

/// A side that reads the match: its position as a [`Seat`] shows it, with the choice's
/// [`MatchState`] on it ([`Position::reading`]), so that the game's moves from it carry the
/// match features and its player's search weighs them as each first move's own
/// ([`SearchHooks::first_move_features`](stacktune_game::SearchHooks::first_move_features)):
/// the one way match features enter a choice, in `versus` and in a self-play run alike.
pub struct Reader<'a, P: ?Sized> {
    pub policy: &'a P,
    pub shown: u8,
}

impl<P: Policy<Puyo> + ?Sized> Contestant for Reader<'_, P> {
    fn choose(&mut self, game: &Puyo, view: &MatchView<'_>) -> Result<Placement, String> {
        let mut position = Seat::hide(self.shown, view.position);
        position.reading = Some(MatchState::of(view));
        self.policy
            .choose(game, &position)
            .ok_or_else(|| "had no placement left".to_string())
    }
}
