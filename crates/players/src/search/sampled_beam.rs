//! A beam over the pieces a game shows and then over sampled futures of the pieces it has not
//! shown: the search of the strong Puyo players, who decide what to build now by what chain
//! the pairs to come would let them fire.

use crate::eval::LinearPlayer;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use stacktune_game::SearchHooks;
use stacktune_game::{FeatureMask, FeatureValues, Outcome};

/// One position the beam keeps: which first move leads to it, and its evaluation.
struct Node<G: SearchHooks> {
    /// Index of the first move in the game's move order.
    root: u32,
    position: G::Position,
    value: f64,
    /// The game ended here: the node is carried, not expanded.
    ended: bool,
    /// What the node's first move is worth if this node is the best of its lines: its value,
    /// or under `fired` the value of what its line fired.
    worth: f64,
}

/// How a sampled beam values a first move's lines.
#[derive(Clone, Copy)]
struct Valuation {
    /// `Some(points)`: by what they fire ([`sampled_beam`]), a line ending at the first move
    /// that scores `points` or more.
    fired: Option<f64>,
    /// The features that count what a line fired.
    fired_features: FeatureMask,
}

/// The first move whose lines are worth the most over `samples` sampled futures.
///
/// The beam keeps the `width` best positions at each ply over the pieces shown, then, in each
/// of `samples` futures of `unseen` pieces drawn as the game deals them
/// ([`SearchHooks::for_each_unseen`]), `width` best positions at each further ply. A node's value is
/// its own evaluation: the game's features must carry what the line did on the way (Puyo's
/// `move_chain` and `move_score` count every chain the line fired). A first move is worth, in
/// one future, the best value any of its nodes reaches at any ply, and over the futures the
/// mean of that: each node is a moment to stop and fire, so when to fire a chain is whatever
/// the weights value most along the line, now or after the pieces that would make it longer,
/// and no threshold says it. The futures are drawn from a stream seeded by the first moves'
/// values, so a position always gets the same futures. Ties go to the first move in the
/// game's order.
///
/// With `fired` (points), a first move is worth in one future the best that any of its lines
/// actually fires, as the weights value the game's [`Game::fired_features`] (for Puyo the
/// line's longest chain and its points), and a line ends at the first move that scores
/// `fired` points or more: the rule of takapt's and ama's Puyo searches. The evaluation then
/// only chooses which positions the beam keeps, and a chain is worth what firing it gives,
/// not what its potential promises; deeper futures (`unseen`) let the beam carry a build to
/// its fire. Equal worths go to the first move whose own position the weights value most.
///
/// When the game's moves from `position` carry features of their own
/// ([`SearchHooks::first_move_features`]: Puyo's match features), the first moves' nodes are
/// valued without them, and each first move's mean worth over the futures is raised by its
/// weighed values of them.
pub fn sampled_beam<G: SearchHooks>(
    eval: &LinearPlayer,
    game: &G,
    position: &G::Position,
    width: usize,
    samples: u32,
    unseen: u32,
    fired: Option<u32>,
) -> Option<G::Move> {
    let beam = Beam {
        eval,
        game,
        width,
        valuation: Valuation {
            fired: fired.map(f64::from),
            fired_features: game.fired_features(),
        },
    };
    let first = game.first_move_features(position);
    let (moves, mut level, raised) = beam.first_moves(position, first);
    if moves.len() <= 1 {
        return moves.first().copied();
    }
    let seed = level
        .iter()
        .fold(0u64, |h, n| h.rotate_left(7) ^ n.value.to_bits());
    let mut known_best: Vec<f64> = level.iter().map(|n| n.worth).collect();
    let own: Vec<f64> = level.iter().map(|n| n.value).collect();
    let mut next = Vec::with_capacity(level.capacity());
    keep_best(&mut level, width);
    beam.through_shown(&mut level, &mut next, &mut known_best);
    let mut total = vec![0.0; moves.len()];
    let mut best = known_best.clone();
    let mut future = Vec::with_capacity(level.capacity());
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    for _ in 0..samples {
        best.copy_from_slice(&known_best);
        future.clear();
        future.extend(level.iter().map(|n| Node {
            position: n.position.clone(),
            ..*n
        }));
        beam.through_unseen(&mut future, &mut next, unseen, &mut rng, &mut best);
        for (t, b) in total.iter_mut().zip(&best) {
            *t += b;
        }
    }
    if first != 0 {
        // The worth is a mean over the futures, the total its sum: the first move's own
        // features count once a future.
        for (t, r) in total.iter_mut().zip(raised) {
            *t += r * f64::from(samples.max(1));
        }
    }
    Some(moves[beam.valuation.chosen(&total, &own)])
}

/// What every step of one sampled beam search shares.
struct Beam<'a, G: SearchHooks> {
    eval: &'a LinearPlayer,
    game: &'a G,
    /// How many nodes each ply keeps.
    width: usize,
    valuation: Valuation,
}

impl<G: SearchHooks> Beam<'_, G> {
    /// The first moves in the game's order, the node each leads to (all of them: the beam's
    /// width is not applied yet), valued without the features of `first`, and each move's
    /// weighed values of those (0 for a move that decides the game).
    fn first_moves(
        &self,
        position: &G::Position,
        first: FeatureMask,
    ) -> (Vec<G::Move>, Vec<Node<G>>, Vec<f64>) {
        let mut moves = Vec::new();
        let mut level: Vec<Node<G>> = Vec::with_capacity(self.width.max(32));
        let mut raised = Vec::new();
        self.game.for_each_move(
            position,
            self.eval.mask(),
            &mut |mv, after, outcome, features| {
                let value = match first {
                    0 => self.eval.score(outcome, features),
                    _ => self.eval.score_without(first, outcome, features),
                };
                level.push(self.node(moves.len() as u32, after, outcome, features, value));
                moves.push(mv);
                if first != 0 {
                    raised.push(match outcome.terminal_value {
                        Some(_) => 0.0,
                        None => self.eval.score_within(first, features),
                    });
                }
            },
        );
        (moves, level, raised)
    }

    /// Carries `level` over the pieces the game shows, the same in every future, to the ply
    /// where the last of them is placed, raising each first move's best worth in `best`;
    /// `next` is scratch.
    fn through_shown(&self, level: &mut Vec<Node<G>>, next: &mut Vec<Node<G>>, best: &mut [f64]) {
        while level
            .iter()
            .any(|n| !n.ended && self.game.shows_next(&n.position))
        {
            next.clear();
            for n in level.iter() {
                self.expand(n, &n.position, next, best);
            }
            keep_best(next, self.width);
            std::mem::swap(level, next);
        }
    }

    /// Carries `future` over `unseen` pieces drawn from `rng`, one piece a ply for every
    /// node, raising each first move's best worth in this future in `best`; `next` is
    /// scratch.
    fn through_unseen(
        &self,
        future: &mut Vec<Node<G>>,
        next: &mut Vec<Node<G>>,
        unseen: u32,
        rng: &mut ChaCha8Rng,
        best: &mut [f64],
    ) {
        for _ in 0..unseen {
            // One piece for every node of the future: a draw, then each node's position
            // with the piece the draw falls on.
            let draw: f64 = rng.random();
            next.clear();
            for n in future.iter() {
                if n.ended {
                    continue;
                }
                if let Some(drawn) = self.drawn(&n.position, draw) {
                    self.expand(n, &drawn, next, best);
                }
            }
            if next.is_empty() {
                break;
            }
            keep_best(next, self.width);
            std::mem::swap(future, next);
        }
    }

    /// `position` with the unseen piece that `draw` (in [0, 1)) falls on, the pieces laid end
    /// to end by their probabilities; `None` when the game deals none.
    fn drawn(&self, position: &G::Position, draw: f64) -> Option<G::Position> {
        let mut left = draw;
        let mut chosen = None;
        self.game
            .for_each_unseen(position, &mut |drawn, probability| {
                if chosen.is_none() {
                    left -= probability;
                    if left < 0.0 {
                        chosen = Some(drawn.clone());
                    }
                }
            });
        // Rounding may leave the draw a hair past the last piece: take the last.
        chosen.or_else(|| {
            let mut last = None;
            self.game
                .for_each_unseen(position, &mut |drawn, _| last = Some(drawn.clone()));
            last
        })
    }

    /// Pushes the children of `from` (the position of `parent` with its piece to place) to
    /// `next`, raising each first move's best worth in `best`. A node with no move that avoids
    /// the end is lost: it pushes nothing. Under `fired`, a child that scored the points that
    /// end a line is counted and not pushed: it would only hold a place in the beam, and so is
    /// a lost one.
    fn expand(
        &self,
        parent: &Node<G>,
        from: &G::Position,
        next: &mut Vec<Node<G>>,
        best: &mut [f64],
    ) {
        if parent.ended {
            return;
        }
        self.game.for_each_move(
            from,
            self.eval.mask(),
            &mut |_, after, outcome, features| {
                let value = self.eval.score(outcome, features);
                let child = self.node(parent.root, after, outcome, features, value);
                let b = &mut best[child.root as usize];
                *b = b.max(child.worth);
                if !child.ended || self.valuation.fired.is_none() {
                    next.push(child);
                }
            },
        );
    }

    /// The node a move from first move `root` leads to, of evaluation `value`: its worth
    /// under the valuation, and whether its line ends there.
    fn node(
        &self,
        root: u32,
        after: &G::Position,
        outcome: &Outcome,
        features: &FeatureValues,
        value: f64,
    ) -> Node<G> {
        let valuation = self.valuation;
        // A decided move's value is its terminal value under either valuation.
        let worth = match valuation.fired {
            Some(_) if outcome.terminal_value.is_none() => {
                self.eval.score_within(valuation.fired_features, features)
            }
            _ => value,
        };
        Node {
            root,
            position: after.clone(),
            value,
            ended: outcome.game_over
                || outcome.terminal_value.is_some()
                || valuation.fired.is_some_and(|stop| outcome.points >= stop),
            worth,
        }
    }
}

impl Valuation {
    /// The first move with the highest `total` worth over the futures; equal totals go to
    /// the first in the game's order, or under `fired` to the one whose own position (`own`)
    /// the weights value most.
    fn chosen(&self, total: &[f64], own: &[f64]) -> usize {
        let mut chosen = 0;
        for (i, &t) in total.iter().enumerate() {
            let tied = self.fired.is_some() && t == total[chosen] && own[i] > own[chosen];
            if t > total[chosen] || tied {
                chosen = i;
            }
        }
        chosen
    }
}

/// Keeps the `width` best nodes, best first; equal values go by first move.
fn keep_best<G: SearchHooks>(nodes: &mut Vec<Node<G>>, width: usize) {
    if nodes.len() > width {
        nodes.select_nth_unstable_by(width - 1, |a, b| {
            b.value.total_cmp(&a.value).then(a.root.cmp(&b.root))
        });
        nodes.truncate(width);
    }
}
