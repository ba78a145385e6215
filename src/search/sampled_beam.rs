//! A beam over the pieces a game shows and then over sampled futures of the pieces it has not
//! shown: the search of the strong Puyo players, who decide what to build now by what chain
//! the pairs to come would let them fire.

use crate::eval::LinearPlayer;
use crate::game::{FeatureMask, FeatureValues, Game, Outcome};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// One position the beam keeps: which first move leads to it, and its evaluation.
struct Node<G: Game> {
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
/// ([`Game::for_each_unseen`]), `width` best positions at each further ply. A node's value is
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
pub fn sampled_beam<G: Game>(
    eval: &LinearPlayer,
    game: &G,
    position: &G::Position,
    width: usize,
    samples: u32,
    unseen: u32,
    fired: Option<u32>,
) -> Option<G::Move> {
    let valuation = Valuation {
        fired: fired.map(f64::from),
        fired_features: game.fired_features(),
    };
    let mask = eval.mask();
    let mut moves = Vec::new();
    let mut level: Vec<Node<G>> = Vec::with_capacity(width.max(32));
    game.for_each_move(position, mask, &mut |mv, after, outcome, features| {
        level.push(node(
            eval,
            valuation,
            moves.len() as u32,
            after,
            outcome,
            features,
        ));
        moves.push(mv);
    });
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
    // The pieces shown: the same for every future.
    while level
        .iter()
        .any(|n| !n.ended && game.shows_next(&n.position))
    {
        next.clear();
        for n in &level {
            expand(
                eval,
                valuation,
                game,
                n,
                &n.position,
                &mut next,
                &mut known_best,
            );
        }
        keep_best(&mut next, width);
        std::mem::swap(&mut level, &mut next);
    }
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
        for _ in 0..unseen {
            // One piece for every node of the future: a draw, then each node's position
            // with the piece the draw falls on.
            let draw: f64 = rng.random();
            next.clear();
            for n in &future {
                if n.ended {
                    continue;
                }
                let mut left = draw;
                let mut chosen = None;
                game.for_each_unseen(&n.position, &mut |drawn, probability| {
                    if chosen.is_none() {
                        left -= probability;
                        if left < 0.0 {
                            chosen = Some(drawn.clone());
                        }
                    }
                });
                // Rounding may leave the draw a hair past the last piece: take the last.
                let drawn = match chosen {
                    Some(drawn) => drawn,
                    None => match last_unseen(game, &n.position) {
                        Some(drawn) => drawn,
                        None => continue,
                    },
                };
                expand(eval, valuation, game, n, &drawn, &mut next, &mut best);
            }
            if next.is_empty() {
                break;
            }
            keep_best(&mut next, width);
            std::mem::swap(&mut future, &mut next);
        }
        for (t, b) in total.iter_mut().zip(&best) {
            *t += b;
        }
    }
    let mut chosen = 0;
    for (i, &t) in total.iter().enumerate() {
        let tied = valuation.fired.is_some() && t == total[chosen] && own[i] > own[chosen];
        if t > total[chosen] || tied {
            chosen = i;
        }
    }
    Some(moves[chosen])
}

/// The last position the next unseen piece may make of `position`, if the game deals any.
fn last_unseen<G: Game>(game: &G, position: &G::Position) -> Option<G::Position> {
    let mut last = None;
    game.for_each_unseen(position, &mut |drawn, _| last = Some(drawn.clone()));
    last
}

/// Pushes the children of `from` (the position of `parent` with its piece to place) to
/// `next`, raising each first move's best worth in `best`. A node with no move that avoids
/// the end is lost: it pushes nothing. Under `fired`, a child that scored the points that
/// end a line is counted and not pushed: it would only hold a place in the beam, and so is a
/// lost one.
fn expand<G: Game>(
    eval: &LinearPlayer,
    valuation: Valuation,
    game: &G,
    parent: &Node<G>,
    from: &G::Position,
    next: &mut Vec<Node<G>>,
    best: &mut [f64],
) {
    if parent.ended {
        return;
    }
    game.for_each_move(from, eval.mask(), &mut |_, after, outcome, features| {
        let child = node(eval, valuation, parent.root, after, outcome, features);
        let b = &mut best[child.root as usize];
        *b = b.max(child.worth);
        if !child.ended || valuation.fired.is_none() {
            next.push(child);
        }
    });
}

fn node<G: Game>(
    eval: &LinearPlayer,
    valuation: Valuation,
    root: u32,
    after: &G::Position,
    outcome: &Outcome,
    features: &FeatureValues,
) -> Node<G> {
    // A decided move's value is its terminal value under either valuation.
    let value = eval.score(outcome, features);
    let worth = match valuation.fired {
        Some(_) if outcome.terminal_value.is_none() => {
            eval.score_within(valuation.fired_features, features)
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

/// Keeps the `width` best nodes, best first; equal values go by first move.
fn keep_best<G: Game>(nodes: &mut Vec<Node<G>>, width: usize) {
    if nodes.len() > width {
        nodes.select_nth_unstable_by(width - 1, |a, b| {
            b.value.total_cmp(&a.value).then(a.root.cmp(&b.root))
        });
        nodes.truncate(width);
    }
}
