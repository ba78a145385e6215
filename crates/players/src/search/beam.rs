//! A beam over the pieces a game shows ahead (previews, hold).

use super::lookahead::lookahead;
use crate::eval::LinearPlayer;
use stacktune_game::SearchHooks;

/// What a move adds to its line's bank: its points, weighted as the weights weigh the game's
/// points feature, and its value of the features the game banks ([`SearchHooks::banked_features`]).
struct Bank<'a> {
    eval: &'a LinearPlayer,
    points_weight: f64,
    moves: stacktune_game::FeatureMask,
}

impl Bank<'_> {
    fn of(
        &self,
        outcome: &stacktune_game::Outcome,
        features: &stacktune_game::FeatureValues,
    ) -> f64 {
        let points = self.points_weight * outcome.points;
        match self.moves {
            0 => points,
            mask => points + self.eval.score_within(mask, features),
        }
    }
}

/// One position the beam keeps: the first move that leads to it, the weighted points of the
/// moves that led to it and its value.
struct Node<G: SearchHooks> {
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
/// it, weighted as `eval` weighs the game's points feature ([`SearchHooks::points_feature`]): the
/// points on the way count on the weights' own scale, whatever their length. A line that
/// reaches the end of a game of fixed length (an outcome that ends the game without a
/// terminal value) is worth its points alone. A line that goes past the last piece shown is
/// worth the mean of its best next move over the pieces that may come, where the game says how
/// it deals them ([`SearchHooks::for_each_unseen`]), and the best of those lines look one piece
/// further (`SECOND_LOOK_LINES` of them). Ties go to the
/// first move in the game's order, so the choice is deterministic. Depth 1 is the one-ply
/// player.
pub fn beam<G: SearchHooks>(
    eval: &LinearPlayer,
    game: &G,
    position: &G::Position,
    depth: u32,
    width: usize,
) -> Option<G::Move> {
    counted_beam(eval, game, position, depth, width).0
}

/// [`beam`], and how many positions it expanded (listed the moves of): what an anytime
/// search spends.
pub fn counted_beam<G: SearchHooks>(
    eval: &LinearPlayer,
    game: &G,
    position: &G::Position,
    depth: u32,
    width: usize,
) -> (Option<G::Move>, u64) {
    if depth == 0 || width == 0 {
        return (lookahead(eval, game, position), 1);
    }
    let mut expanded = 1u64;
    let mask = eval.mask();
    let points_weight = game
        .points_feature()
        .and_then(|name| game.feature_names().iter().position(|f| *f == name))
        .map_or(0.0, |i| eval.weight(i));
    let bank = Bank {
        eval,
        points_weight,
        moves: game.banked_features() & mask,
    };
    let mut level: Vec<Node<G>> = Vec::with_capacity(width.min(4096));
    let mut next: Vec<Node<G>> = Vec::with_capacity(width.min(4096));
    let known = game.shows_next(position);
    game.for_each_move(position, mask, &mut |mv, after, outcome, features| {
        let root = (mv, level.len() as u32);
        level.push(child(&bank, root, after, known, 0.0, outcome, features));
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
            expanded += 1;
            let known = game.shows_next(&node.position);
            game.for_each_move(&node.position, mask, &mut |_, after, outcome, features| {
                any = true;
                let (root, banked) = ((node.first, node.order), node.banked);
                next.push(child(&bank, root, after, known, banked, outcome, features));
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
        let best = level.len().min(SECOND_LOOK_LINES);
        let mut scratch = Vec::with_capacity(SECOND_LOOK_MOVES + 1);
        for node in level[..best].iter_mut() {
            node.value = look_twice(&bank, game, node, &mut scratch);
        }
        keep_best(&mut level, best);
    }
    // Sorted best first, equal values by first move.
    (level.first().map(|n| n.first), expanded)
}

/// The first move of the widest [`beam`] (1, 2, 4, ... up to `max_width` positions a ply over
/// `depth` plies)
/// whose searches together stay within `nodes` expansions: an anytime search, stopped by a
/// budget of nodes rather than of time, so its moves are the same on any machine and any
/// load, and the budget is the knob a match turns. Each next beam is predicted to cost
/// twice the last.
pub fn anytime<G: SearchHooks>(
    eval: &LinearPlayer,
    game: &G,
    position: &G::Position,
    depth: u32,
    max_width: usize,
    nodes: u64,
) -> Option<G::Move> {
    let (mut best, mut spent) = counted_beam(eval, game, position, depth, 1);
    let mut last = spent;
    let mut width = 1;
    while spent + 2 * last <= nodes && width * 2 <= max_width {
        width *= 2;
        let (mv, cost) = counted_beam(eval, game, position, depth, width);
        best = mv;
        spent += cost;
        last = cost;
    }
    best
}

/// How many of the best lines past the last piece shown look two pieces further, not one: the
/// second unseen piece changes which of the close lines comes first, and for eight lines it
/// already costs more than twice the rest of the search, so only the lines that may come first
/// get it. (The best line of each of eight first moves instead, leaving out the other lines of
/// the same first move, played worse: 25,364 against 25,460 on 200 training games.)
const SECOND_LOOK_LINES: usize = 8;
/// How many of the first unseen piece's best moves a second look follows: the drawn piece's
/// other moves would rarely be chosen.
const SECOND_LOOK_MOVES: usize = 3;

/// Values each kept position past the last piece shown as the mean, over the pieces that may
/// come next (as the game deals them), of its best next move's value: the beam then prefers
/// the boards where the likely pieces fit, not only the board the evaluation likes best.
/// Returns whether any value changed. Games that do not say how they deal are left alone.
fn expect_unseen<G: SearchHooks>(
    eval: &LinearPlayer,
    game: &G,
    level: &mut [Node<G>],
    points_weight: f64,
) -> bool {
    let mut changed = false;
    for node in level.iter_mut().filter(|n| n.value > f64::NEG_INFINITY) {
        if let Some(expected) = look_once(eval, game, &node.position, node.banked, points_weight) {
            node.value = expected;
            changed = true;
        }
    }
    changed
}

/// The mean, over the pieces that may come after `position` (whose line banked `banked`), of
/// the best value of the next move with that piece; `None` where the game deals nothing
/// further (it shows everything, or the game is over).
fn look_once<G: SearchHooks>(
    eval: &LinearPlayer,
    game: &G,
    position: &G::Position,
    banked: f64,
    points_weight: f64,
) -> Option<f64> {
    let (mut expected, mut dealt) = (0.0, false);
    game.for_each_unseen(position, &mut |drawn, probability| {
        dealt = true;
        let mut best = f64::NEG_INFINITY;
        game.for_each_outcome(drawn, eval.mask(), &mut |_, outcome, features| {
            best = best.max(line_value(eval, banked, points_weight, outcome, features));
        });
        expected += probability * best;
    });
    dealt.then_some(expected)
}

/// A line past the last piece shown valued two pieces further: the mean, over the pieces that
/// may come, of the best of that piece's [`SECOND_LOOK_MOVES`] best moves, each valued by the
/// piece after it ([`look_once`]). `scratch` holds those moves (value, points banked after
/// them unless the move ended the game, position) so that no line allocates.
fn look_twice<G: SearchHooks>(
    bank: &Bank,
    game: &G,
    node: &Node<G>,
    scratch: &mut Vec<(f64, Option<f64>, G::Position)>,
) -> f64 {
    let (eval, points_weight) = (bank.eval, bank.points_weight);
    if node.value == f64::NEG_INFINITY {
        return node.value;
    }
    let (mut expected, mut dealt) = (0.0, false);
    game.for_each_unseen(&node.position, &mut |drawn, probability| {
        dealt = true;
        scratch.clear();
        game.for_each_move(drawn, eval.mask(), &mut |_, after, outcome, features| {
            let value = line_value(eval, node.banked, points_weight, outcome, features);
            if scratch.len() == SECOND_LOOK_MOVES && value <= scratch[SECOND_LOOK_MOVES - 1].0 {
                return;
            }
            // A move that ends the game is worth its own value: nothing comes after it.
            let banked = (!ends_line(outcome)).then_some(node.banked + bank.of(outcome, features));
            // Equal values keep the earlier move first, as the beam does.
            let at = scratch
                .iter()
                .position(|m| value > m.0)
                .unwrap_or(scratch.len());
            scratch.insert(at, (value, banked, after.clone()));
            scratch.truncate(SECOND_LOOK_MOVES);
        });
        let best = scratch
            .iter()
            .map(|(value, banked, after)| {
                banked
                    .and_then(|banked| look_once(eval, game, after, banked, points_weight))
                    .unwrap_or(*value)
            })
            .fold(f64::NEG_INFINITY, f64::max);
        expected += probability * best;
    });
    if dealt { expected } else { node.value }
}

/// The node a move leads to; `known` says whether the game knows the piece placed after it,
/// so whether the node can be expanded.
fn child<G: SearchHooks>(
    bank: &Bank,
    (first, order): (G::Move, u32),
    after: &G::Position,
    known: bool,
    banked: f64,
    outcome: &stacktune_game::Outcome,
    features: &stacktune_game::FeatureValues,
) -> Node<G> {
    let ended = ends_line(outcome);
    Node {
        first,
        order,
        position: after.clone(),
        banked: banked + bank.of(outcome, features),
        value: line_value(bank.eval, banked, bank.points_weight, outcome, features),
        settled: ended || !known,
    }
}

/// Whether a move ends its line: the game is over, decided or not, so nothing follows it.
fn ends_line(outcome: &stacktune_game::Outcome) -> bool {
    outcome.game_over || outcome.terminal_value.is_some()
}

/// The value of a line whose moves before the last banked `banked`, ending with a move of
/// `outcome` and `features`.
fn line_value(
    eval: &LinearPlayer,
    banked: f64,
    points_weight: f64,
    outcome: &stacktune_game::Outcome,
    features: &stacktune_game::FeatureValues,
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
fn keep_best<G: SearchHooks>(nodes: &mut Vec<Node<G>>, width: usize) {
    nodes.sort_by(|a, b| b.value.total_cmp(&a.value).then(a.order.cmp(&b.order)));
    nodes.truncate(width);
}

#[cfg(test)]
mod tests {
    use super::*;
    use stacktune_base::rng::game_stream;
    use stacktune_game::Game;
    use stacktune_games::tetris::Tetris;

    fn el_tetris(game: &Tetris) -> LinearPlayer {
        let file = crate::weights::WeightFile::parse(include_str!(
            "../../../../weights/tetris/el-tetris.toml"
        ))
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
        use stacktune_games::tetris::contest::Contest;
        let game = Contest::new(2, false).unwrap();
        let file = crate::weights::WeightFile::parse(include_str!(
            "../../../../reports/tetris-contest-l2/best.toml"
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
    /// of its best next move, and the eight best lines look one piece further: with only the
    /// current piece shown and a width that keeps everything, the beam plays the first move
    /// that this brute force over every piece and move picks.
    #[test]
    fn past_the_previews_a_line_is_worth_its_expected_next_moves() {
        use stacktune_games::tetris::contest::Contest;
        let game = Contest::new(2, false).unwrap();
        let file = crate::weights::WeightFile::parse(include_str!(
            "../../../../weights/contest/beam-l2.toml"
        ))
        .unwrap();
        let eval = LinearPlayer::from_file(&game, &file).unwrap();
        let index = game.feature_names().iter().position(|f| *f == "move_score");
        let weight = eval.weight(index.unwrap());
        // Every move of each of the seven pieces in `position`: its position, points and value
        // after a line that banked `banked`.
        let drawn_moves = |position: &<Contest as Game>::Position, banked: f64| {
            assert_eq!(position.current, 0);
            (1..=7)
                .map(|piece| {
                    let mut drawn = *position;
                    drawn.current = piece;
                    let mut moves = Vec::new();
                    game.for_each_move(&drawn, eval.mask(), &mut |_, after, o, f| {
                        moves.push((*after, o.points, banked + eval.score(o, f)));
                    });
                    moves
                })
                .collect::<Vec<_>>()
        };
        let (mut checked, mut differ_from_one_ply, mut second_look_decides) = (0, 0, 0);
        for seed in 1..=3 {
            let mut rng = game_stream(seed, 0);
            let mut position = game.start(&mut rng);
            for turn in 0..60 {
                let mut hidden = position;
                hidden.next = [0; 5];
                // (move, one piece further, two pieces further), in the game's move order.
                let mut lines = Vec::new();
                game.for_each_move(&hidden, eval.mask(), &mut |mv, after, o1, _| {
                    let banked = weight * o1.points;
                    let (mut once, mut twice) = (0.0, 0.0);
                    for mut moves in drawn_moves(after, banked) {
                        once += moves.iter().map(|m| m.2).fold(f64::NEG_INFINITY, f64::max) / 7.0;
                        // The three best moves of the drawn piece, equal values in move order.
                        moves.sort_by(|a, b| b.2.total_cmp(&a.2));
                        let further = moves[..3].iter().map(|(after2, points, _)| {
                            let banked2 = banked + weight * points;
                            drawn_moves(after2, banked2)
                                .iter()
                                .map(|m| m.iter().map(|m| m.2).fold(f64::NEG_INFINITY, f64::max))
                                .sum::<f64>()
                                / 7.0
                        });
                        twice += further.fold(f64::NEG_INFINITY, f64::max) / 7.0;
                    }
                    lines.push((mv, once, twice));
                });
                // The eight best by one piece further, then the best of those by two.
                lines.sort_by(|a, b| b.1.total_cmp(&a.1));
                lines.truncate(8);
                let once_best = lines[0].0;
                lines.sort_by(|a, b| b.2.total_cmp(&a.2));
                let expected = Some(lines[0].0);
                if turn % 6 == 0 {
                    assert_eq!(beam(&eval, &game, &hidden, 1, MAX_WIDTH), expected);
                    let one_ply = crate::search::one_ply(&eval, &game, &hidden);
                    differ_from_one_ply += usize::from(one_ply != expected);
                    second_look_decides += usize::from(Some(once_best) != expected);
                    checked += 1;
                }
                let mv = beam(&eval, &game, &position, 6, 8).unwrap();
                game.apply(&mut position, mv, &mut rng);
            }
        }
        assert_eq!(checked, 30);
        // The expected next moves are not the move's own evaluation, and the second piece
        // changes the choice of the first.
        assert!(differ_from_one_ply > 0);
        assert!(second_look_decides > 0);
    }

    const MAX_WIDTH: usize = crate::search::MAX_BEAM_WIDTH;
}
