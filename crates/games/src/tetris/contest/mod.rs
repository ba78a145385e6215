//! Tetris under the rules of the "Learn Python with Tetris" contest (v4, March 2023): a 10 × 22
//! board, hold, five previews, the contest's move procedure, score table and random stream.
//!
//! A second Tetris ruleset (`--game tetris --rules contest`); the rules, with their odd
//! corners, are in ../shared/testdata/contest/README.md and [`rules`]. Episodes play contest
//! seeds exactly: game i of `play --seed S` is contest seed S + i.

pub mod features;
mod page;
pub mod replay;
pub mod rules;
pub mod stream;

use crate::settings::GameSpec;
use crate::tetris::board::{Board, DropBase};
use crate::tetris::pieces::Drop;
use anyhow::{Result, bail};
use features::{Before, FEATURE_NAMES, Placed};
use rand::RngExt;
use rand_chacha::ChaCha8Rng;
use rules::{HEIGHT, LETTERS, LEVEL_4_TURNS, Position, Request, Rules, SHAPES, TURNS, Turn, WIDTH};
use stacktune_game::Episodes;
use stacktune_game::Render;
use stacktune_game::SearchHooks;
use stacktune_game::{
    EpisodeLimits, EpisodeResult, FeatureMask, FeatureValues, Game, Outcome, Policy, play_from,
};
use stream::ContestStream;

/// The contest's levels: 1-3 play 180 turns, level 4 (played against the wall clock) a turn
/// limit of its own.
pub const LEVELS: std::ops::RangeInclusive<u8> = 1..=4;

/// The turn limits `--turns` may set at level 4: at most one turn a 1 ms tick of its 180 s.
pub const TURN_LIMITS: std::ops::RangeInclusive<u32> = 1..=LEVEL_4_TURNS;

/// What `play` reports per game beside the score.
const DETAILS: [&str; 6] = [
    "lines",
    "singles",
    "doubles",
    "triples",
    "tetrises",
    "game_overs",
];

/// What the features read of a turn that left `after`, in a game of `turns` turns.
#[inline(always)]
fn placed<'a>(turn: &Turn, after: &Position, turns: u32) -> Placed<'a> {
    Placed {
        landing: turn
            .landing
            .map(|l| (&SHAPES[turn.piece as usize][l.state as usize], l)),
        full: turn.full,
        points: turn.points,
        game_over: turn.game_over,
        hold: after.hold,
        turns_left: turns.saturating_sub(after.turn),
    }
}

/// The contest ruleset at one level.
#[derive(Clone, Debug)]
pub struct Contest {
    rules: Rules,
    /// Each piece state's research-style drop per column, see [`rules::research_drops`].
    drops: Vec<Drop>,
    /// Game i is contest seed `first_seed + i`; without it (training games) each game draws
    /// its contest seed from the stream it is given.
    first_seed: Option<u64>,
    /// Turns a game lasts: 180 at levels 1-3; at level 4 [`LEVEL_4_TURNS`] or `--turns`.
    turns: u32,
}

impl Contest {
    /// The game at `level`, as long as the contest plays it (180 turns, or 180,000 at level 4).
    pub fn new(level: u8, all_clear_bonus: bool) -> Result<Contest> {
        if !LEVELS.contains(&level) {
            bail!(
                "--level {level} is out of range {}..={}",
                LEVELS.start(),
                LEVELS.end()
            );
        }
        Ok(Contest {
            rules: Rules {
                level,
                all_clear_bonus,
            },
            first_seed: None,
            drops: rules::research_drops(),
            turns: if level == 4 { LEVEL_4_TURNS } else { TURNS },
        })
    }

    /// The same game with `turns` turns (`--turns`): a level-4 game is as long as its
    /// controller is fast, so a slower one plays fewer of the 180,000 ticks. Levels 1-3 play
    /// exactly 180 turns and refuse it.
    pub fn with_turns(self, turns: Option<u32>) -> Result<Contest> {
        let Some(turns) = turns else {
            return Ok(self);
        };
        if self.rules.level != 4 {
            bail!(
                "--turns is for level 4; level {} plays exactly {TURNS} turns",
                self.rules.level
            );
        }
        if !TURN_LIMITS.contains(&turns) {
            bail!(
                "--turns {turns} is out of range {}..={} (level 4 is 180 s of 1 ms ticks, a turn a tick at most)",
                TURN_LIMITS.start(),
                TURN_LIMITS.end()
            );
        }
        Ok(Contest { turns, ..self })
    }

    /// The contest game `spec` describes; research-only flags are errors naming the flag.
    pub fn from_spec(spec: &GameSpec) -> Result<Contest> {
        Contest::new(spec.level.unwrap_or(2), spec.all_clear)?.with_turns(spec.turns)
    }

    /// Turns a game lasts: the game ends with this one, played and scored.
    pub fn turns(&self) -> u32 {
        self.turns
    }

    pub fn rules_of(&self) -> &Rules {
        &self.rules
    }

    /// Plays `mv` for real with the pieces (and level 3's obstacles) drawn from a contest
    /// stream, as an episode of `play` does: what a caller stepping a game turn by turn (the
    /// Python package) uses to deal contest seed S exactly, where [`Game::apply`] draws from
    /// a ChaCha stream.
    pub fn apply_dealt(
        &self,
        position: &mut Position,
        mv: Request,
        dealer: &mut ContestStream,
    ) -> Outcome {
        let turn = self.rules.play(position, mv, dealer);
        self.outcome(&turn, position)
    }

    /// The contest seed of episode `index`.
    fn seed_of(&self, index: u64, rng: &mut ChaCha8Rng) -> u64 {
        match self.first_seed {
            Some(first) => first.wrapping_add(index),
            // Seed 0 would be the fixed piece cycle: training draws random games only.
            None => rng.random_range(1..u32::MAX as u64),
        }
    }

    /// The outcome of a played or visited turn; the game ends with its last turn.
    fn outcome(&self, turn: &Turn, position: &Position) -> Outcome {
        Outcome {
            cleared: turn.lines,
            points: turn.points as f64,
            chains: 0,
            game_over: position.turn >= self.turns,
            terminal_value: None,
        }
    }

    /// Visits the distinct outcomes of `piece` played from the spawn (after the hold swap
    /// `hold` asks for): per state reached, every column the shifts reach. A piece that lies
    /// above the stack lands as the research rules' drop does, so `base` (the position's board
    /// tallied once) gives its research features incrementally; any other is locked and
    /// tallied in full.
    #[inline]
    fn each_landing(
        &self,
        position: &Position,
        hold: bool,
        piece: u8,
        before: &Before,
        base: &DropBase,
        visit: &mut impl FnMut(Request, &Position, &Outcome, &FeatureValues),
    ) {
        let mut begun = *position;
        rules::begin(&mut begun, hold);
        let board = &position.board;
        let mut seen = 0u8;
        for rotation in 0..4 {
            let state = rules::rotate(board, piece, rotation);
            let shape = &SHAPES[piece as usize][state as usize];
            if seen & 1 << shape.canonical != 0 {
                continue;
            }
            seen |= 1 << shape.canonical;
            let (left, right) = rules::reach(board, shape);
            for x in left..=right {
                // What `settle` does for this request, the rotation and shifts done once.
                let landing = rules::drop_from_spawn(board, state, shape, x);
                let mut after = begun;
                let mut values = FeatureValues::default();
                let turn = if rules::above_stack(board, shape, x) {
                    let full = rules::completed_rows(board, shape, x, landing.y);
                    let drop = &self.drops[rules::drop_index(piece, state, x)];
                    base.drop::<true>(drop, &mut after.board, &mut values);
                    let turn = self.rules.scored(&mut after, piece, landing, full);
                    let placed = placed(&turn, &after, self.turns);
                    features::extras(&after.board, &placed, before, &mut values);
                    turn
                } else {
                    let turn = self.rules.locked(&mut after, piece, landing);
                    let placed = placed(&turn, &after, self.turns);
                    features::compute(&after.board, &placed, before, &mut values);
                    turn
                };
                let request = Request {
                    hold,
                    rotation,
                    x: x as u8,
                };
                self.visit_turn(request, &mut after, &turn, &values, visit);
            }
        }
    }

    /// Visits a move whose turn left `after` (before any game-over reset), with its features.
    #[inline(always)]
    fn visit_turn(
        &self,
        request: Request,
        after: &mut Position,
        turn: &Turn,
        values: &FeatureValues,
        visit: &mut impl FnMut(Request, &Position, &Outcome, &FeatureValues),
    ) {
        if turn.game_over {
            // Level 3's obstacles are drawn only when the move is played for real.
            after.board = Board::empty(WIDTH, HEIGHT);
        }
        // Past the previews only the fixed cycle tells the next piece.
        let drawn = match after.cycle {
            true => rules::cycle_after(after.next[4]),
            false => 0,
        };
        rules::advance(after, drawn);
        visit(request, after, &self.outcome(turn, after), values);
    }

    /// Plays one episode from a contest stream, counting what `play` reports per game.
    fn play_stream(
        &self,
        player: &impl Policy<Contest>,
        dealer: &mut ContestStream,
        limits: EpisodeLimits,
        observe: &mut impl FnMut(&Position, &EpisodeResult),
    ) -> EpisodeResult {
        let start = self.rules.start(dealer);
        let mut details = [0u64; stacktune_game::MAX_DETAILS];
        let mut result = play_from(self, player, start, limits, observe, |position, mv| {
            let turn = self.rules.play(position, mv, dealer);
            details[0] += turn.lines as u64;
            if turn.lines > 0 {
                details[turn.lines as usize] += 1;
            }
            details[5] += turn.game_over as u64;
            self.outcome(&turn, position)
        });
        result.details = details;
        result
    }
}

impl Game for Contest {
    type Position = Position;

    type Move = Request;

    fn name(&self) -> &'static str {
        "tetris"
    }

    fn rules(&self) -> String {
        format!(
            "contest level {}{}",
            self.rules.level,
            if self.rules.all_clear_bonus {
                ", all-clear bonus"
            } else {
                ""
            }
        )
    }

    fn feature_names(&self) -> &'static [&'static str] {
        &FEATURE_NAMES
    }

    fn start(&self, rng: &mut ChaCha8Rng) -> Position {
        self.rules.start(rng)
    }

    fn for_each_move(
        &self,
        position: &Position,
        mask: FeatureMask,
        visit: &mut impl FnMut(Request, &Position, &Outcome, &FeatureValues),
    ) {
        if position.current == 0 || position.turn >= self.turns {
            return;
        }
        let before = Before::of(&position.board, mask);
        let mut base = DropBase::new(&position.board, features::research_mask(mask));
        let base = base.tally();
        self.each_landing(position, false, position.current, &before, base, visit);
        if position.hold == 0 {
            // The empty-hold turn: nothing placed, the next piece spawns.
            let stash = Request {
                hold: true,
                rotation: 0,
                x: rules::SPAWN_X as u8,
            };
            let mut after = *position;
            let turn = self.rules.settle(&mut after, stash);
            let mut values = FeatureValues::default();
            let placed = placed(&turn, &after, self.turns);
            features::compute(&after.board, &placed, &before, &mut values);
            self.visit_turn(stash, &mut after, &turn, &values, visit);
        } else if position.hold != position.current {
            self.each_landing(position, true, position.hold, &before, base, visit);
        }
    }

    fn shows_next(&self, position: &Position) -> bool {
        position.next[0] != 0
    }

    fn apply(&self, position: &mut Position, mv: Request, rng: &mut ChaCha8Rng) -> Outcome {
        let turn = self.rules.play(position, mv, rng);
        self.outcome(&turn, position)
    }

    fn score_name(&self) -> &'static str {
        "score"
    }
}

impl SearchHooks for Contest {
    /// While previews are known: the positions after a move know their piece, so a beam can
    /// search through the five previews (and hold).
    fn points_feature(&self) -> Option<&'static str> {
        Some("move_score")
    }

    /// Every seed but 0 draws each piece uniformly from the seven. Seed 0's fixed cycle never
    /// comes here: its positions know every piece ahead (see [`Position::cycle`]).
    fn for_each_unseen(&self, position: &Position, visit: &mut impl FnMut(&Position, f64)) {
        if position.current != 0 || position.turn >= self.turns {
            return;
        }
        for piece in 1..=7 {
            let mut drawn = *position;
            drawn.current = piece;
            visit(&drawn, 1.0 / 7.0);
        }
    }
}

impl Episodes for Contest {
    fn episode(
        &self,
        player: &impl Policy<Contest>,
        index: u64,
        mut rng: ChaCha8Rng,
        limits: EpisodeLimits,
        observe: &mut impl FnMut(&Position, &EpisodeResult),
    ) -> EpisodeResult {
        let mut dealer = ContestStream::new(self.seed_of(index, &mut rng));
        self.play_stream(player, &mut dealer, limits, observe)
    }

    fn numbered_from(&self, seed: u64) -> Contest {
        Contest {
            first_seed: Some(seed),
            ..self.clone()
        }
    }

    fn describe_episode(&self, index: u64) -> Option<String> {
        self.first_seed.map(|s| {
            format!(
                "contest seed {}, level {}",
                s.wrapping_add(index),
                self.rules.level
            )
        })
    }

    fn detail_names(&self) -> &'static [&'static str] {
        &DETAILS
    }
}

impl Render for Contest {
    fn render(&self, position: &Position) -> String {
        let letter = |p: u8| LETTERS[p as usize];
        let mut s = position.board.framed();
        let next: String = position.next.iter().map(|&p| letter(p)).collect();
        s.push_str(&format!(
            "turn {}  current {}  hold {}  next {}\n",
            position.turn,
            letter(position.current),
            letter(position.hold),
            next
        ));
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn moves(current: u8, hold: u8) -> Vec<Request> {
        let game = Contest::new(2, false).unwrap();
        let position = Position {
            board: Board::empty(WIDTH, HEIGHT),
            current,
            hold,
            next: [2; 5],
            turn: 0,
            failures: 0,
            cycle: false,
        };
        let mut out = Vec::new();
        game.for_each_move(&position, 0, &mut |mv, _, _, _| out.push(mv));
        out
    }

    /// Past the last preview each of the seven pieces comes with probability 1/7; nothing is
    /// drawn where a piece is shown or after the last turn.
    #[test]
    fn unseen_pieces_are_the_seven_equally() {
        let game = Contest::new(2, false).unwrap();
        let mut position = game.start(&mut stacktune_base::rng::game_stream(1, 0));
        let count = |position: &Position| {
            let (mut pieces, mut total) = (Vec::new(), 0.0);
            game.for_each_unseen(position, &mut |drawn, p| {
                assert_eq!(
                    (drawn.board, drawn.hold, drawn.turn),
                    (position.board, position.hold, position.turn)
                );
                pieces.push(drawn.current);
                total += p;
            });
            (pieces, (total * 1e9).round() / 1e9)
        };
        assert_eq!(count(&position), (vec![], 0.0));
        position.current = 0;
        assert_eq!(count(&position), ((1..=7).collect(), 1.0));
        position.turn = TURNS;
        assert_eq!(count(&position), (vec![], 0.0));
    }

    #[test]
    fn placements_are_the_distinct_outcomes_with_and_without_hold() {
        const T: u8 = 4;
        // T: 9 + 8 + 9 + 8 columns over its four states, plus the empty-hold turn.
        assert_eq!(moves(T, 0).len(), 35);
        assert_eq!(moves(T, 0).iter().filter(|m| m.hold).count(), 1);
        // With an I held: its vertical 10 and horizontal 7 after the swap.
        assert_eq!(moves(T, rules::I).len(), 34 + 17);
        // Holding the same piece changes nothing: no swap is offered.
        assert_eq!(moves(T, T).len(), 34);
        // O's four requested states have the same cells: one state, nine columns.
        assert_eq!(moves(5, 5).len(), 9);
    }

    #[test]
    fn the_game_ends_with_its_180th_turn() {
        let game = Contest::new(2, false).unwrap();
        let mut dealer = ContestStream::new(3);
        let mut position = game.rules.start(&mut dealer);
        let stash = Request {
            hold: true,
            rotation: 0,
            x: 5,
        };
        let mut ended = 0;
        for turn in 1..=TURNS {
            let t = game.rules.play(&mut position, stash, &mut dealer);
            if game.outcome(&t, &position).game_over {
                ended = turn;
            }
        }
        assert_eq!(ended, TURNS);
        let mut none = 0;
        game.for_each_move(&position, 0, &mut |_, _, _, _| none += 1);
        assert_eq!(none, 0);
    }

    #[test]
    fn level_4_ends_with_its_own_turn_limit() {
        let game = Contest::new(4, false).unwrap();
        assert_eq!(game.turns(), 180_000);
        let game = game.with_turns(Some(7)).unwrap();
        let mut dealer = ContestStream::new(3);
        let mut position = game.rules.start(&mut dealer);
        let mut ends = Vec::new();
        for turn in 1..=7 {
            let mut first = None;
            game.for_each_move(&position, 0, &mut |mv, _, _, _| {
                first.get_or_insert(mv);
            });
            let t = game.rules.play(&mut position, first.unwrap(), &mut dealer);
            if game.outcome(&t, &position).game_over {
                ends.push(turn);
            }
        }
        assert_eq!(ends, [7]);
        let mut none = 0;
        game.for_each_move(&position, 0, &mut |_, _, _, _| none += 1);
        assert_eq!(none, 0);
    }

    #[test]
    fn turn_limits_are_level_4_s_and_within_its_ticks() {
        let refused = |level: u8, turns: u32| {
            Contest::new(level, false)
                .and_then(|g| g.with_turns(Some(turns)))
                .unwrap_err()
                .to_string()
        };
        assert_eq!(
            refused(3, 500),
            "--turns is for level 4; level 3 plays exactly 180 turns"
        );
        assert_eq!(
            refused(4, 0),
            "--turns 0 is out of range 1..=180000 (level 4 is 180 s of 1 ms ticks, a turn a tick at most)"
        );
        assert_eq!(
            refused(4, 180_001),
            "--turns 180001 is out of range 1..=180000 (level 4 is 180 s of 1 ms ticks, a turn a tick at most)"
        );
        assert_eq!(
            Contest::new(5, false).unwrap_err().to_string(),
            "--level 5 is out of range 1..=4"
        );
        let at = |turns| {
            Contest::new(4, false)
                .unwrap()
                .with_turns(turns)
                .unwrap()
                .turns()
        };
        assert_eq!(
            (at(None), at(Some(1)), at(Some(180_000))),
            (180_000, 1, 180_000)
        );
        // Levels 1-3 keep 180 when nothing is asked.
        assert_eq!(
            Contest::new(3, false)
                .unwrap()
                .with_turns(None)
                .unwrap()
                .turns(),
            180
        );
    }

    /// A game over at level 4, as at level 3, draws a fresh set of obstacles from the game's own
    /// stream: the board after it is the board the next draws make.
    #[test]
    fn a_level_4_game_over_redraws_the_obstacles() {
        let game = Contest::new(4, false).unwrap();
        let mut dealer = ContestStream::new(11);
        let mut position = game.rules.start(&mut dealer);
        let first_board = position.board;
        // Every piece dropped at the spawn column: the stack reaches the top within turns.
        let straight = Request {
            hold: false,
            rotation: 0,
            x: rules::SPAWN_X as u8,
        };
        let mut game_overs = 0;
        for _ in 0..200 {
            let expected = game.rules.fresh_board(&mut dealer.clone());
            let t = game.rules.play(&mut position, straight, &mut dealer);
            if t.game_over {
                game_overs += 1;
                assert_eq!(position.board, expected);
                assert_ne!(position.board, first_board);
                assert!((10..=90).contains(&position.board.cell_count()));
            }
        }
        assert!(game_overs >= 3, "{game_overs}");
        assert_eq!(position.turn, 200);
    }

    #[test]
    fn incremental_features_match_the_full_tally_of_the_played_turn() {
        let game = Contest::new(3, false).unwrap();
        let all: FeatureMask = (1 << FEATURE_NAMES.len()) - 1;
        let (mut incremental, mut overlaps) = (0, 0);
        for seed in 1..=12u64 {
            let mut dealer = ContestStream::new(seed);
            let mut position = game.rules.start(&mut dealer);
            for turn in 0..TURNS as usize {
                let before = Before::of(&position.board, all);
                let mut moves = Vec::new();
                game.for_each_move(&position, all, &mut |mv, after, outcome, values| {
                    moves.push((mv, *after, *outcome, *values))
                });
                for (mv, after, outcome, values) in &moves {
                    let mut played = position;
                    let t = game.rules.settle(&mut played, *mv);
                    let mut expected = FeatureValues::default();
                    features::compute(
                        &played.board,
                        &placed(&t, &played, TURNS),
                        &before,
                        &mut expected,
                    );
                    assert_eq!(values, &expected, "seed {seed} turn {turn} {mv:?}");
                    assert_eq!(outcome.points, t.points as f64);
                    if !t.game_over {
                        assert_eq!(after.board, played.board);
                    }
                    let shape = t
                        .landing
                        .map(|l| (&SHAPES[t.piece as usize][l.state as usize], l.x));
                    match shape {
                        Some((s, x)) if rules::above_stack(&position.board, s, x) => {
                            incremental += 1
                        }
                        Some(_) => overlaps += 1,
                        None => {}
                    }
                }
                // Moves taken in a scattered order, so stacks reach the top and spawns fail.
                let pick = moves[(turn * 7 + seed as usize) % moves.len()].0;
                game.rules.play(&mut position, pick, &mut dealer);
            }
        }
        // Both paths were exercised.
        assert!(
            incremental > 10_000 && overlaps > 100,
            "{incremental} {overlaps}"
        );
    }

    #[test]
    fn apply_plays_the_same_rules_from_a_chacha_stream() {
        use rand::SeedableRng;
        let game = Contest::new(3, false).unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(9);
        let mut position = game.start(&mut rng);
        // Ten rows of obstacles, 40 % full on average.
        assert!((10..=90).contains(&position.board.cell_count()));
        let mut turns = 0;
        loop {
            let mut first = None;
            game.for_each_move(&position, 0, &mut |mv, _, _, _| {
                first.get_or_insert(mv);
            });
            turns += 1;
            if game
                .apply(&mut position, first.unwrap(), &mut rng)
                .game_over
            {
                break;
            }
        }
        assert_eq!(turns, TURNS);
    }
}
