//! The match features: what a player that reads the match weighs about a placement, beside
//! the solo features of its field ([`super::features`]).
//!
//! Each one is what the placement does in this match: a state alone (the nuisance waiting,
//! the opponent's height) is the same for every placement and could not change a choice, so
//! every feature crosses the state with the placement's own chain and field. Nuisance counts
//! in rows of six, as it falls.
//!
//! | name | definition |
//! | --- | --- |
//! | `match_incoming` | rows of nuisance waiting for the side (from the opponent's chain still running and from ended ones) that this placement's chain leaves after offsetting |
//! | `match_landing` | rows that fall when this turn ends: the fixed nuisance left after offsetting, plus the running chain's when it ends before this turn can (the placement's frames and 50 a step fired), at most the cap |
//! | `match_lethal` | 1 when that landing can fill column 3 of row 12 on the field the placement leaves (its column 3 height + ⌈landing / 6⌉ ≥ 12), else 0 |
//! | `match_sent` | rows this placement's chain sends past its own offsetting: ⌊(points + carry) / target points⌋ less what it cancels (an owed all clear is in the points, as the solo player sees it) |
//! | `match_outsent` | rows sent beyond the nuisance the opponent's best ready chain would send back: that of [`potential`] on its field at the same target |
//! | `match_sent_high` | rows sent × the opponent's tallest column / 12: nuisance is worth more on a high field |

use super::Position;
use super::contestant::MatchView;
use super::features::{FEATURE_NAMES, potential};
use super::field::{Field, VISIBLE_ROWS};
use super::rules::{Placement, Rules, SPAWN_COLUMN};
use super::versus::{BattleRules, frames, offset, placement_frames};
use stacktune_game::Outcome;

/// Match feature names in their internal order.
pub const MATCH_FEATURE_NAMES: [&str; 6] = [
    "match_incoming",
    "match_landing",
    "match_lethal",
    "match_sent",
    "match_outsent",
    "match_sent_high",
];

/// The features of a Puyo game played as matches (a versus run's): the solo ones, then the
/// match ones, each at its index here.
pub const PLAYER_FEATURE_NAMES: [&str; FEATURE_NAMES.len() + MATCH_FEATURE_NAMES.len()] = {
    let mut names = [""; FEATURE_NAMES.len() + MATCH_FEATURE_NAMES.len()];
    let mut i = 0;
    while i < names.len() {
        names[i] = match i < FEATURE_NAMES.len() {
            true => FEATURE_NAMES[i],
            false => MATCH_FEATURE_NAMES[i - FEATURE_NAMES.len()],
        };
        i += 1;
    }
    names
};

/// Values of the match features, in [`MATCH_FEATURE_NAMES`]' order.
pub type MatchValues = [f64; MATCH_FEATURE_NAMES.len()];

/// Nuisance in a row.
const ROW: f64 = super::field::WIDTH as f64;

/// What every placement of one choice shares: the view's numbers and what the opponent could
/// answer, found once per choice.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MatchState {
    now: u64,
    heights: [u32; super::field::WIDTH],
    pending: u32,
    fixed: u32,
    carry: u32,
    target: u32,
    cap: u32,
    opponent_chain_ends: Option<u64>,
    /// Nuisance the opponent's best ready chain sends.
    answer: u32,
    /// The opponent's tallest column.
    opponent_height: u32,
}

impl MatchState {
    /// The state a side choosing in `view` plays in.
    pub fn of(view: &MatchView<'_>) -> MatchState {
        let opponent: &Position = view.opponent;
        let ready = potential(&opponent.field, Rules::Tsu);
        MatchState {
            now: view.now,
            heights: view.position.field.heights(),
            pending: view.pending,
            fixed: view.fixed,
            carry: view.carry,
            target: view.target_points,
            cap: view.nuisance_cap,
            opponent_chain_ends: view.opponent_chain_ends,
            answer: ready.score / view.target_points,
            opponent_height: opponent.field.heights().into_iter().max().unwrap_or(0),
        }
    }

    /// The match features of placing at `mv`, which scored `outcome` and left `field`.
    pub fn compute(&self, mv: Placement, field: &Field, outcome: &Outcome, out: &mut MatchValues) {
        let points = outcome.points as u32;
        let sent = match points {
            0 => 0,
            _ => BattleRules::nuisance(points, self.carry, self.target).0,
        };
        let (mut pending, mut fixed) = (self.pending, self.fixed);
        let left = offset(sent, &mut pending, &mut fixed);
        let ends = self.now
            + placement_frames(&self.heights, mv)
            + u64::from(outcome.chains) * frames::VANISH;
        let running_lands = self.opponent_chain_ends.is_some_and(|at| at <= ends);
        let landing = (fixed + if running_lands { pending } else { 0 }).min(self.cap);
        let column = field.heights()[SPAWN_COLUMN];
        out[0] = f64::from(pending + fixed) / ROW;
        out[1] = f64::from(landing) / ROW;
        out[2] = f64::from(u8::from(
            landing > 0 && column + landing.div_ceil(ROW as u32) >= VISIBLE_ROWS,
        ));
        out[3] = f64::from(left) / ROW;
        out[4] = f64::from(left.saturating_sub(self.answer)) / ROW;
        out[5] = f64::from(left) / ROW * f64::from(self.opponent_height) / f64::from(VISIBLE_ROWS);
    }
}
