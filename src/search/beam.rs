//! A beam over the pieces a game shows ahead (previews, hold).

use super::lookahead::lookahead;
use crate::eval::LinearPlayer;
use crate::game::Game;

/// One position the beam keeps: the first move that leads to it, the weighted points of the
/// moves that led to it and its value.
struct Node<G: Game> {
    first: G::Move,
    /// Where `first` stands in the game's move order: ties go to the earlier first move.
    order: u32,
    position: G::Position,
    /// The points of every move on the line so far, as the weights weigh them.
    banked: f64,
    /// The points of the moves before the last, plus the last move's evaluation.
    value: f64,
    /// The game ended here or shows nothing further: the node is carried, not expanded.
    settled: bool,
}

/// The first move of the best line found by keeping the `width` best positions at each of
/// `depth` plies; a line stops early where the game shows no further piece or the game ends.
/// A position's value is `eval`'s score of its last move plus the points of the moves before
/// it, weighted as `eval` weighs the game's points feature ([`Game::points_feature`]): the
/// points on the way count on the weights' own scale, whatever their length. A line that
/// reaches the end of a game of fixed length (an outcome that ends the game without a
/// terminal value) is worth its points alone. A line that goes past the last piece shown is
/// worth the mean of its best next move over the pieces that may come, where the game says how
/// it deals them ([`Game::for_each_unseen`]). Ties go to the
/// first move in the game's order, so the choice is deterministic. Depth 1 is the one-ply
/// player.
pub fn beam<G: Game>(
    eval: &LinearPlayer,
    game: &G,
    position: &G::Position,
    depth: u32,
    width: usize,
) -> Option<G::Move> {
    if depth == 0 || width == 0 {
        return lookahead(eval, game, position);
    }
    let mask = eval.mask();
    let points_weight = game
        .points_feature()
        .and_then(|name| game.feature_names().iter().position(|f| *f == name))
        .map_or(0.0, |i| eval.weight(i));
    let mut level: Vec<Node<G>> = Vec::with_capacity(width.min(4096));
    let mut next: Vec<Node<G>> = Vec::with_capacity(width.min(4096));
    let known = game.shows_next(position);
    game.for_each_move(position, mask, &mut |mv, after, outcome, features| {
        let root = (mv, level.len() as u32);
        level.push(child(
            eval,
            root,
            after,
            known,
            0.0,
            points_weight,
            outcome,
            features,
        ));
    });
    keep_best(&mut level, width);
    for _ in 1..depth {
        if level.iter().all(|n| n.settled) {
            break;
        }
        next.clear();
        for node in &level {
            if node.settled {
                next.push(Node {
                    position: node.position.clone(),
                    ..*node
                });
                continue;
            }
            let mut any = false;
            let known = game.shows_next(&node.position);
            game.for_each_move(&node.position, mask, &mut |_, after, outcome, features| {
                any = true;
                let (root, banked) = ((node.first, node.order), node.banked);
                let weight = points_weight;
                next.push(child(
                    eval, root, after, known, banked, weight, outcome, features,
                ));
            });
            if !any {
                // No move avoids the end: the line is lost at this ply.
                next.push(Node {
                    position: node.position.clone(),
                    value: f64::NEG_INFINITY,
                    settled: true,
                    ..*node
                });
            }
        }
        keep_best(&mut next, width);
        std::mem::swap(&mut level, &mut next);
    }
    if expect_unseen(eval, game, &mut level, points_weight) {
        keep_best(&mut level, width);
    }
    // Sorted best first, equal values by first move.
    level.first().map(|n| n.first)
}

/// Values each kept position past the last piece shown as the mean, over the pieces that may
/// come next (as the game deals them), of its best next move's value: the beam then prefers
/// the boards where the likely pieces fit, not only the board the evaluation likes best.
/// Returns whether any value changed. Games that do not say how they deal are left alone.
fn expect_unseen<G: Game>(
    eval: &LinearPlayer,
    game: &G,
    level: &mut [Node<G>],
    points_weight: f64,
) -> bool {
    let mask = eval.mask();
    let mut changed = false;
    for node in level.iter_mut().filter(|n| n.value > f64::NEG_INFINITY) {
        let (mut expected, mut any) = (0.0, false);
        game.for_each_unseen(&node.position, &mut |drawn, probability| {
            any = true;
            let mut best = f64::NEG_INFINITY;
            game.for_each_outcome(drawn, mask, &mut |_, outcome, features| {
                let value = line_value(eval, node.banked, points_weight, outcome, features);
                best = best.max(value);
            });
            expected += probability * best;
        });
        if any {
            node.value = expected;
            changed = true;
        }
    }
    changed
}

/// The node a move leads to; `known` says whether the game knows the piece placed after it,
/// so whether the node can be expanded.
#[allow(clippy::too_many_arguments)]
fn child<G: Game>(
    eval: &LinearPlayer,
    (first, order): (G::Move, u32),
    after: &G::Position,
    known: bool,
    banked: f64,
    points_weight: f64,
    outcome: &crate::game::Outcome,
    features: &crate::game::FeatureValues,
) -> Node<G> {
    let ended = outcome.game_over || outcome.terminal_value.is_some();
    Node {
        first,
        order,
        position: after.clone(),
        banked: banked + points_weight * outcome.points,
        value: line_value(eval, banked, points_weight, outcome, features),
        settled: ended || !known,
    }
}

/// The value of a line whose moves before the last banked `banked`, ending with a move of
/// `outcome` and `features`.
fn line_value(
    eval: &LinearPlayer,
    banked: f64,
    points_weight: f64,
    outcome: &crate::game::Outcome,
    features: &crate::game::FeatureValues,
) -> f64 {
    match outcome.terminal_value {
        Some(v) => v,
        // A game that ends without a decided value (contest Tetris after its last turn) is
        // worth its points and nothing more: what is left on the board no longer counts, so
        // its shape must not trade against points.
        None if outcome.game_over => banked + points_weight * outcome.points,
        None => banked + eval.score(outcome, features),
    }
}

/// Keeps the `width` best nodes, best first; equal values go by first move, so the choice
/// does not depend on the order earlier plies were kept in.
fn keep_best<G: Game>(nodes: &mut Vec<Node<G>>, width: usize) {
    nodes.sort_by(|a, b| b.value.total_cmp(&a.value).then(a.order.cmp(&b.order)));
    nodes.truncate(width);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::tetris::Tetris;
    use crate::rng::game_stream;

    fn el_tetris(game: &Tetris) -> LinearPlayer {
        let file =
            crate::weights::WeightFile::parse(include_str!("../../weights/tetris/el-tetris.toml"))
                .unwrap();
        LinearPlayer::from_file(game, &file).unwrap()
    }

    /// Positions from an El-Tetris game with a preview: boards of every shape, some of them
    /// with rows about to clear, so that points gained on the way matter.
    fn positions(game: &Tetris, eval: &LinearPlayer) -> Vec<<Tetris as Game>::Position> {
        let mut rng = game_stream(3, 0);
        let mut position = game.start(&mut rng);
        let mut seen = Vec::new();
        for _ in 0..300 {
            seen.push(position);
            let Some(mv) = lookahead(eval, game, &position) else {
                break;
            };
            game.apply(&mut position, mv, &mut rng);
        }
        seen
    }

    /// With a width that keeps everything, the beam is the exhaustive two-ply search: the
    /// first move of the best pair by the first move's lines, weighted as the weights weigh
    /// `lines_cleared`, plus the evaluation of the second.
    #[test]
    fn an_unbounded_beam_is_the_exhaustive_search() {
        let game = Tetris::new(10, 10).unwrap().with_preview(true);
        let eval = el_tetris(&game);
        let lines = game
            .feature_names()
            .iter()
            .position(|f| *f == "lines_cleared");
        let weight = eval.weight(lines.unwrap());
        assert_eq!(weight, 3.4181268101392694);
        let mut differ_from_lookahead = 0;
        for position in positions(&game, &eval) {
            let mut best: Option<(_, f64)> = None;
            game.for_each_move(&position, eval.mask(), &mut |mv, after, o1, _| {
                let mut value = f64::NEG_INFINITY;
                game.for_each_move(after, eval.mask(), &mut |_, _, o2, f2| {
                    value = value.max(weight * o1.points + eval.score(o2, f2));
                });
                if best.is_none_or(|(_, b)| value > b) {
                    best = Some((mv, value));
                }
            });
            let expected = best.map(|b| b.0);
            assert_eq!(beam(&eval, &game, &position, 2, MAX_WIDTH), expected);
            // The beam stops where the preview ends: a deeper request changes nothing.
            assert_eq!(beam(&eval, &game, &position, 5, MAX_WIDTH), expected);
            differ_from_lookahead += usize::from(lookahead(&eval, &game, &position) != expected);
        }
        // Counting the first move's lines is a different player from the two-ply lookahead,
        // which sees the second board only.
        assert!(differ_from_lookahead > 0);
    }

    /// A beam one wide commits to the first move with the best evaluation of its own.
    #[test]
    fn a_beam_one_wide_keeps_the_best_first_move() {
        let game = Tetris::new(10, 10).unwrap().with_preview(true);
        let eval = el_tetris(&game);
        for position in positions(&game, &eval) {
            let mut best: Option<(_, f64)> = None;
            game.for_each_move(&position, eval.mask(), &mut |mv, _, o, f| {
                let value = eval.score(o, f);
                if best.is_none_or(|(_, b)| value > b) {
                    best = Some((mv, value));
                }
            });
            assert_eq!(beam(&eval, &game, &position, 2, 1), best.map(|b| b.0));
        }
    }

    /// Two turns before the end of a contest game the beam sees every line to the end, and a
    /// line is worth its points alone: the first move of the line with the most points,
    /// weighted as the weights weigh `move_score`, whatever the boards they leave.
    #[test]
    fn lines_that_end_the_game_are_worth_their_points() {
        use crate::games::contest::Contest;
        let game = Contest::new(2, false).unwrap();
        let file = crate::weights::WeightFile::parse(include_str!(
            "../../weights/contest/one-ply-l2.toml"
        ))
        .unwrap();
        let eval = LinearPlayer::from_file(&game, &file).unwrap();
        let index = game.feature_names().iter().position(|f| *f == "move_score");
        let weight = eval.weight(index.unwrap());
        assert_eq!(weight, 0.005097587255867872);
        let (mut checked, mut points_decide) = (0, 0);
        for seed in 1..=6 {
            let mut rng = game_stream(seed, 0);
            let mut position = game.start(&mut rng);
            while position.turn < 178 {
                let mv = crate::search::one_ply(&eval, &game, &position).unwrap();
                game.apply(&mut position, mv, &mut rng);
            }
            for _ in 0..2 {
                let mut best: Option<(_, f64)> = None;
                game.for_each_move(&position, eval.mask(), &mut |mv, after, o1, _| {
                    let banked = weight * o1.points;
                    let mut value = banked;
                    if !o1.game_over {
                        value = f64::NEG_INFINITY;
                        game.for_each_move(after, eval.mask(), &mut |_, _, o2, _| {
                            value = value.max(banked + weight * o2.points);
                        });
                    }
                    if best.is_none_or(|(_, b)| value > b) {
                        best = Some((mv, value));
                    }
                });
                let expected = best.map(|b| b.0);
                assert_eq!(beam(&eval, &game, &position, 6, MAX_WIDTH), expected);
                checked += 1;
                let one_ply = crate::search::one_ply(&eval, &game, &position);
                points_decide += usize::from(one_ply != expected);
                game.apply(&mut position, expected.unwrap(), &mut rng);
            }
            assert_eq!(position.turn, 180);
        }
        assert_eq!(checked, 12);
        // The board's shape would have chosen otherwise in some of them.
        assert!(points_decide > 0);
    }

    /// Past the last piece shown, a line is worth the mean over the seven pieces that may come
    /// of its best next move: with only the current piece shown and a width that keeps
    /// everything, the beam is the exhaustive one-piece expectimax.
    #[test]
    fn past_the_previews_a_line_is_worth_its_expected_next_move() {
        use crate::games::contest::Contest;
        let game = Contest::new(2, false).unwrap();
        let file =
            crate::weights::WeightFile::parse(include_str!("../../weights/contest/beam-l2.toml"))
                .unwrap();
        let eval = LinearPlayer::from_file(&game, &file).unwrap();
        let index = game.feature_names().iter().position(|f| *f == "move_score");
        let weight = eval.weight(index.unwrap());
        let (mut checked, mut differ_from_one_ply) = (0, 0);
        for seed in 1..=3 {
            let mut rng = game_stream(seed, 0);
            let mut position = game.start(&mut rng);
            for turn in 0..60 {
                let mut hidden = position;
                hidden.next = [0; 5];
                let mut best: Option<(_, f64)> = None;
                game.for_each_move(&hidden, eval.mask(), &mut |mv, after, o1, _| {
                    assert_eq!(after.current, 0);
                    let mut value = 0.0;
                    for piece in 1..=7 {
                        let mut drawn = *after;
                        drawn.current = piece;
                        let mut top = f64::NEG_INFINITY;
                        game.for_each_move(&drawn, eval.mask(), &mut |_, _, o2, f2| {
                            top = top.max(weight * o1.points + eval.score(o2, f2));
                        });
                        value += top / 7.0;
                    }
                    if best.is_none_or(|(_, b)| value > b) {
                        best = Some((mv, value));
                    }
                });
                let expected = best.map(|b| b.0);
                if turn % 6 == 0 {
                    assert_eq!(beam(&eval, &game, &hidden, 1, MAX_WIDTH), expected);
                    let one_ply = crate::search::one_ply(&eval, &game, &hidden);
                    differ_from_one_ply += usize::from(one_ply != expected);
                    checked += 1;
                }
                let mv = beam(&eval, &game, &position, 6, 8).unwrap();
                game.apply(&mut position, mv, &mut rng);
            }
        }
        assert_eq!(checked, 30);
        // The expected next move is not the move's own evaluation.
        assert!(differ_from_one_ply > 0);
    }

    const MAX_WIDTH: usize = crate::search::MAX_BEAM_WIDTH;
}
