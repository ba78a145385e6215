//! Players of Connect-N: the tuned linear evaluator (one ply or under alpha-beta) and the
//! reference agents its win rate is measured against (`random`, `tutorial`, `negamax4`, as
//! defined in the Connect-N testdata README).
//!
//! Every agent draws its randomness from the generator it is handed, so a match is a function
//! of its seed.

use super::{Column, Connect, Position, own_windows};
use rand::RngExt;
use rand_chacha::ChaCha8Rng;
use stacktune_game::{FeatureValues, Game, Outcome, Policy, SharedPolicy};

/// Something that picks a column for the side to move.
pub trait Agent {
    /// A column (0-based) for the side to move of a position still in play; the referee
    /// counts an illegal column as a loss.
    fn choose(&mut self, position: &Position, rng: &mut ChaCha8Rng) -> Column;

    /// Whether the agent was told to stop (Ctrl-C, see [`Policy::stopped`]): the referee
    /// then ends the game where it is.
    fn stopped(&self) -> bool {
        false
    }
}

/// A player under its search (the tuned weights, or a weights file searched with alpha-beta)
/// seen as an agent of the referee. It draws nothing from the stream, so it is deterministic.
#[derive(Clone, Copy, Debug)]
pub struct PolicyAgent<'a, P> {
    game: &'a Connect,
    player: &'a P,
}

impl<'a, P: Policy<Connect>> PolicyAgent<'a, P> {
    pub fn new(game: &'a Connect, player: &'a P) -> PolicyAgent<'a, P> {
        PolicyAgent { game, player }
    }
}

impl<P: Policy<Connect>> Agent for PolicyAgent<'_, P> {
    fn choose(&mut self, position: &Position, _rng: &mut ChaCha8Rng) -> Column {
        self.player
            .choose(self.game, position)
            .expect("a position in play has a legal column")
    }

    fn stopped(&self) -> bool {
        self.player.stopped()
    }
}

/// `random`: uniform over the legal columns.
#[derive(Clone, Copy, Debug)]
pub struct RandomAgent<'a> {
    game: &'a Connect,
}

impl<'a> RandomAgent<'a> {
    pub fn new(game: &'a Connect) -> RandomAgent<'a> {
        RandomAgent { game }
    }
}

impl Agent for RandomAgent<'_> {
    fn choose(&mut self, position: &Position, rng: &mut ChaCha8Rng) -> Column {
        let columns = self.game.geometry().columns() as Column;
        let legal = (0..columns).filter(|&c| self.game.is_legal(position, c));
        let pick = rng.random_range(0..legal.clone().count());
        legal
            .clone()
            .nth(pick)
            .expect("pick < number of legal columns")
    }
}

/// `tutorial`: Kaggle's one-step lookahead. It scores 1 × (own windows of inarow − 1)
/// − 100 × (opponent's) + 10⁶ × (own complete lines), and picks uniformly among the best.
///
/// Scored over this game's own features, as a linear player with two weights would: a
/// complete line is a win, which the engine already scores above any evaluation, and every
/// winning column ends the game alike.
#[derive(Clone, Debug)]
pub struct Tutorial<'a> {
    game: &'a Connect,
    /// The own and the opponent's windows of inarow − 1 discs: the two features it weighs.
    windows: usize,
}

impl<'a> Tutorial<'a> {
    pub fn new(game: &'a Connect) -> Tutorial<'a> {
        let k = game.geometry().inarow() as usize - 1;
        Tutorial {
            game,
            windows: own_windows(k),
        }
    }

    /// 1 × own windows − 100 × the opponent's, or the move's decided value.
    fn value(&self, outcome: &Outcome, features: &FeatureValues) -> f64 {
        if let Some(v) = outcome.terminal_value {
            return v;
        }
        let mut s = 0.0;
        s += features.0[self.windows];
        s += -100.0 * features.0[self.windows + 1];
        s
    }
}

impl Agent for Tutorial<'_> {
    fn choose(&mut self, position: &Position, rng: &mut ChaCha8Rng) -> Column {
        // Reservoir sampling over the ties: the n-th equal best replaces the choice with
        // probability 1/n, which leaves each of them chosen with probability 1/(all ties).
        let mut best: Option<(Column, f64)> = None;
        let mut ties = 0u32;
        let mask = 0b11 << self.windows;
        self.game
            .for_each_move(position, mask, &mut |column, _, outcome, features| {
                let value = self.value(outcome, features);
                match best {
                    Some((_, b)) if value < b => {}
                    Some((_, b)) if value == b => {
                        ties += 1;
                        if rng.random_range(0..ties) == 0 {
                            best = Some((column, value));
                        }
                    }
                    _ => {
                        best = Some((column, value));
                        ties = 1;
                    }
                }
            });
        best.expect("a position in play has a legal column").0
    }
}

/// `negamax4`: Kaggle's built-in negamax, 4 plies without pruning, columns in index order.
///
/// Scores are kept doubled so that the README's halves stay integers.
#[derive(Clone, Copy, Debug)]
pub struct Negamax4<'a> {
    game: &'a Connect,
}

impl<'a> Negamax4<'a> {
    const DEPTH: u32 = 4;

    pub fn new(game: &'a Connect) -> Negamax4<'a> {
        Negamax4 { game }
    }

    /// Twice the value of the node for `own` (the side to move) and its best column. Only the
    /// root's column is used, so only the root breaks ties at random (`rng` is `Some` there):
    /// inner nodes return the same score whichever equal column they keep.
    fn node(
        &self,
        own: u64,
        opp: u64,
        depth: u32,
        mut rng: Option<&mut ChaCha8Rng>,
    ) -> (i32, Option<Column>) {
        let g = self.game.geometry();
        let size = (g.rows() * g.columns()) as i32;
        let occupied = own | opp;
        if occupied == g.board() {
            return (0, None);
        }
        let moves = occupied.count_ones() as i32;
        let playable = g.playable(occupied);
        let wins = g.winning_cells(own, occupied) & playable;
        let columns = 0..g.columns();
        if let Some(c) = columns.clone().find(|&c| wins & g.column_mask(c) != 0) {
            return (size + 1 - moves, Some(c as Column));
        }
        let stride = g.rows() + 1;
        let mut best = (-2 * size, None);
        for c in columns {
            let cell = playable & g.column_mask(c);
            if cell == 0 {
                continue;
            }
            let score = if depth == 0 {
                // Own discs left, right and below the landing cell; below is skipped when the
                // cell is on the second row, as Kaggle's `row < rows - 2` test does (the
                // original also looks above, where no disc can be).
                let below = if cell & (g.playable(0) << 1) != 0 {
                    0
                } else {
                    cell >> 1
                };
                let sides =
                    cell.checked_shr(stride).unwrap_or(0) | cell.checked_shl(stride).unwrap_or(0);
                let neighbours = own & (sides | below);
                size + 1 - moves + 2 * neighbours.count_ones() as i32
            } else {
                -self.node(opp, own | cell, depth - 1, None).0
            };
            let replace = score > best.0
                || score == best.0 && rng.as_deref_mut().is_some_and(|r| r.random_bool(0.5));
            if replace {
                best = (score, Some(c as Column));
            }
        }
        best
    }
}

impl Agent for Negamax4<'_> {
    fn choose(&mut self, position: &Position, rng: &mut ChaCha8Rng) -> Column {
        let own = position.discs(position.to_move());
        let opp = position.discs(position.to_move() ^ 1);
        self.node(own, opp, Self::DEPTH, Some(rng))
            .1
            .expect("a position in play has a legal column")
    }
}

/// A member of the opponent pool that evolution and `play` measure a weight set against.
#[derive(Clone)]
pub enum Opponent {
    Random,
    Tutorial,
    Negamax4,
    /// A policy the layers above hand in: a weights file under alpha-beta, an earlier
    /// champion.
    Policy {
        name: String,
        policy: SharedPolicy<Connect>,
    },
}

impl std::fmt::Debug for Opponent {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl Opponent {
    /// The reference agents' names, as `--opponent` takes them.
    pub const NAMES: [&'static str; 3] = ["random", "tutorial", "negamax4"];

    /// The reference agent `name` names, if it names one.
    pub fn agent_named(name: &str) -> Option<Opponent> {
        match name {
            "random" => Some(Opponent::Random),
            "tutorial" => Some(Opponent::Tutorial),
            "negamax4" => Some(Opponent::Negamax4),
            _ => None,
        }
    }

    pub fn name(&self) -> &str {
        match self {
            Opponent::Random => "random",
            Opponent::Tutorial => "tutorial",
            Opponent::Negamax4 => "negamax4",
            Opponent::Policy { name, .. } => name,
        }
    }

    /// A fresh agent for one game.
    pub fn agent<'a>(&'a self, game: &'a Connect) -> PoolAgent<'a> {
        match self {
            Opponent::Random => PoolAgent::Random(RandomAgent::new(game)),
            Opponent::Tutorial => PoolAgent::Tutorial(Tutorial::new(game)),
            Opponent::Negamax4 => PoolAgent::Negamax4(Negamax4::new(game)),
            Opponent::Policy { policy, .. } => PoolAgent::Policy(PolicyAgent::new(game, policy)),
        }
    }
}

/// The agent of an [`Opponent`]: an enum rather than a box, so that a game allocates nothing.
/// One lives on the stack per game, so the tutorial's inline weights cost nothing to keep.
#[allow(clippy::large_enum_variant)]
pub enum PoolAgent<'a> {
    Random(RandomAgent<'a>),
    Tutorial(Tutorial<'a>),
    Negamax4(Negamax4<'a>),
    Policy(PolicyAgent<'a, SharedPolicy<Connect>>),
}

impl Agent for PoolAgent<'_> {
    fn choose(&mut self, position: &Position, rng: &mut ChaCha8Rng) -> Column {
        match self {
            PoolAgent::Random(a) => a.choose(position, rng),
            PoolAgent::Tutorial(a) => a.choose(position, rng),
            PoolAgent::Negamax4(a) => a.choose(position, rng),
            PoolAgent::Policy(a) => a.choose(position, rng),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use stacktune_base::rng::game_stream;

    #[test]
    fn random_agent_plays_only_legal_columns() {
        let game = Connect::new(3, 4, 3).unwrap();
        let mut rng = game_stream(5, 0);
        for _ in 0..200 {
            let mut position = game.empty();
            loop {
                let column = RandomAgent::new(&game).choose(&position, &mut rng);
                assert!(game.is_legal(&position, column));
                if game.play(&mut position, column).is_some() {
                    break;
                }
            }
        }
    }

    #[test]
    fn negamax4_root_ties_are_random() {
        // On the empty board every column ties at depth 4 except by the neighbour counts; the
        // choice must vary with the stream and stay within the tied columns.
        let game = Connect::standard();
        let position = game.empty();
        let picks: std::collections::BTreeSet<Column> = (0..40)
            .map(|s| Negamax4::new(&game).choose(&position, &mut game_stream(s, 0)))
            .collect();
        assert!(picks.len() > 1, "{picks:?}");
    }
}
