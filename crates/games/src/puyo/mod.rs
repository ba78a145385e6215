//! Puyo Puyo on 6 × 12 with 3 to 5 colours, under the seed `programming` rules or Puyo Puyo
//! `tsu` rules (see [`rules`]).
//!
//! A move places the falling pair (axis and child) by column and rotation; at most 22
//! placements, 11 for a same-colour pair. The position carries the field, the pair to place and
//! the pairs the game shows after it (none, the next, or the next two as in Tsu), so a player
//! can look as many plies ahead as it is shown.

pub mod contestant;
pub mod features;
pub mod field;
mod forms;
pub mod listing;
pub mod match_features;
mod page;
pub mod pbp;
pub mod rules;
pub mod selfplay;
pub mod versus;

use crate::settings::GameSpec;
use anyhow::{Result, bail};
use features::FEATURE_NAMES;
use field::{Field, MAX_COLOURS, MAX_ROWS, VISIBLE_ROWS, WIDTH};
use rand::RngExt;
use rand_chacha::ChaCha8Rng;
pub use rules::{Chain, Pair, Placement, Rules};
use stacktune_game::Episodes;
use stacktune_game::Render;
use stacktune_game::SearchHooks;
use stacktune_game::board_features::{Board, BoardFeatures};
use stacktune_game::{
    EpisodeLimits, EpisodeResult, FeatureValues, Game, MAX_DETAILS, Outcome, Policy, SharedPolicy,
    play_from,
};
use std::sync::Arc;

/// Colours a game may use.
pub const COLOURS: std::ops::RangeInclusive<u8> = 3..=MAX_COLOURS as u8;

/// Most pairs a game shows: the pair to place and the two next, as Tsu does.
pub const MAX_SHOWN: u8 = 3;

/// Pairs in Tsu's dealing cycle.
const TSU_CYCLE: usize = 128;

/// What an episode's score is, so users can tune for big chains rather than raw points.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fitness {
    /// Sum of the points scored.
    Score,
    /// The largest chain fired.
    MaxChain,
    /// The largest chain fired, and nothing for a game lost before the move limit. Under
    /// `MaxChain` a game lost after its chain fired still counts that chain, so a tuning run
    /// can buy longer chains with lost games; here every lost game costs its whole chain.
    MaxChainAlive,
}

impl Fitness {
    /// Every fitness, the default first.
    const ALL: [Fitness; 3] = [Fitness::Score, Fitness::MaxChain, Fitness::MaxChainAlive];

    /// The name `--fitness` takes and reports show.
    pub fn name(self) -> &'static str {
        match self {
            Fitness::Score => "score",
            Fitness::MaxChain => "max_chain",
            Fitness::MaxChainAlive => "max_chain_alive",
        }
    }
}

/// Puyo under one ruleset, colour count and fitness.
#[derive(Clone, Debug)]
pub struct Puyo {
    rules: Rules,
    colours: u8,
    /// Pairs the player sees: the one to place and up to [`MAX_SHOWN`]` − 1` after it.
    shown: u8,
    /// Placements that end the game are offered (and end it when chosen).
    allow_topout: bool,
    fitness: Fitness,
    /// A game ends once one move scores at least these points: ama's measure of a chain
    /// builder, who builds one chain, fires it and stops.
    fire_points: Option<u32>,
    /// Features of one's own, functions of the field after a placement, after the built-in
    /// features in the game's order (`None`: the built-in features alone).
    board_features: Option<BoardFeatures>,
    /// Played as matches (a versus run): the battle and the opponents its episodes meet.
    matches: Option<Arc<selfplay::Matches>>,
}

/// Tsu's pair cycle: dealt in order and repeated, so both players of a real match (and every
/// replay) see the same pairs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Cycle {
    /// Pair `i` as `axis | child << 4`.
    pairs: [u8; TSU_CYCLE],
    /// Pairs dealt so far, modulo the cycle.
    dealt: u8,
}

/// The field, the pair to place, the next pair when it is shown, and what the rules remember.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Position {
    pub field: Field,
    /// The pair to place; `None` after the last known pair (nothing to place).
    pub pair: Option<Pair>,
    /// The next pair when the player sees it.
    pub next: Option<Pair>,
    /// The pair after the next when the player sees it (three pairs shown).
    pub after_next: Option<Pair>,
    /// An all-clear bonus is owed to the next chain (Tsu).
    all_clear: bool,
    /// Tsu's pair cycle; unused under the programming rules, which draw every pair afresh.
    cycle: Cycle,
    /// What the player's earlier look-ahead plies fired on the way to this position (nothing
    /// in a real position): a player that looks ahead scores the last board of a line, and
    /// `move_chain` and `move_score` must still count a chain an earlier placement fired.
    fired: Chain,
    /// The match a side reads, on the position of its choice only (its moves carry the match
    /// features; the positions after them do not).
    pub reading: Option<match_features::MatchState>,
}

impl Cycle {
    /// No cycle: the programming rules draw every pair from the stream.
    const UNUSED: Cycle = Cycle {
        pairs: [0; TSU_CYCLE],
        dealt: 0,
    };
}

impl Position {
    /// A position to analyse: a given field and pair, nothing known after it.
    pub fn new(field: Field, pair: Pair) -> Position {
        Position {
            field,
            pair: Some(pair),
            next: None,
            after_next: None,
            all_clear: false,
            cycle: Cycle::UNUSED,
            fired: Chain::default(),
            reading: None,
        }
    }

    /// Owes (or not) an all clear's bonus to the next chain: a position told by another
    /// program (a Puyo Bot Protocol front end) says so in a flag.
    pub fn set_all_clear(&mut self, owed: bool) {
        self.all_clear = owed;
    }
}

impl Puyo {
    /// A game with the default settings but `rules`: 4 colours, no preview, fitness score.
    pub fn new(rules: Rules) -> Puyo {
        Puyo {
            rules,
            colours: 4,
            shown: 1,
            allow_topout: false,
            fitness: Fitness::Score,
            fire_points: None,
            board_features: None,
            matches: None,
        }
    }

    /// Where the match features of a position that reads the match
    /// ([`Position::reading`]) sit among its moves' features: after the game's own, built-in
    /// and board features, as a match player's weights list them.
    pub fn match_features_at(&self) -> usize {
        self.board_features
            .as_ref()
            .map_or(FEATURE_NAMES.len(), |b| b.names().len())
    }

    /// Colours the pairs are dealt from: a bot told the rules must know them.
    pub fn colours(&self) -> u8 {
        self.colours
    }

    /// The ruleset: how many rows a field has (Tsu's hidden 13th) and how chains score.
    pub fn rules_of(&self) -> Rules {
        self.rules
    }

    /// The game a [`GameSpec`] describes; every setting outside Puyo's range is a one-line error.
    pub fn from_spec(spec: &GameSpec) -> Result<Puyo> {
        if spec.width.is_some_and(|w| w != WIDTH) || spec.height.is_some_and(|h| h != 12) {
            bail!(
                "puyo is played on 6 x 12, not {} x {}",
                spec.width.unwrap_or(WIDTH),
                spec.height.unwrap_or(12)
            );
        }
        let colours = spec.colours.unwrap_or(4);
        if !COLOURS.contains(&colours) {
            bail!(
                "puyo colours {colours} is out of range {}..={}",
                COLOURS.start(),
                COLOURS.end()
            );
        }
        let rules = match spec.rules.as_deref() {
            None => rules::ALL_RULES[0],
            Some(name) => Rules::parse(name).ok_or_else(|| {
                let valid: Vec<&str> = rules::ALL_RULES.iter().map(|r| r.name()).collect();
                anyhow::anyhow!(
                    "unknown puyo rules `{name}`; valid rules: {}",
                    valid.join(", ")
                )
            })?,
        };
        let fitness = match spec.fitness.as_deref() {
            None => Fitness::ALL[0],
            Some(name) => Fitness::ALL
                .into_iter()
                .find(|f| f.name() == name)
                .ok_or_else(|| {
                    let valid: Vec<&str> = Fitness::ALL.iter().map(|f| f.name()).collect();
                    anyhow::anyhow!(
                        "unknown puyo fitness `{name}`; valid fitness: {}",
                        valid.join(", ")
                    )
                })?,
        };
        let shown = match (spec.pairs_shown, spec.preview) {
            (None, preview) => 1 + u8::from(preview),
            (Some(_), true) => bail!("--preview shows 2 puyo pairs; give it or --pairs-shown"),
            (Some(n), false) if (1..=MAX_SHOWN).contains(&n) => n,
            (Some(n), false) => bail!("puyo pairs shown {n} is out of range 1..={MAX_SHOWN}"),
        };
        if let Some(mode) = &spec.mode {
            bail!(
                "puyo --mode {mode}: a puyo match is played by `stacktune versus`, not one side alone"
            );
        }
        if spec.fire_points == Some(0) {
            bail!("puyo fire points must be at least 1");
        }
        Ok(Puyo {
            rules,
            colours,
            shown,
            allow_topout: spec.allow_topout,
            fitness,
            fire_points: spec.fire_points,
            board_features: BoardFeatures::resolve("puyo", &FEATURE_NAMES, &spec.board_features)?,
            matches: None,
        })
    }

    /// The board's shape as the bindings and board features see it: the ruleset's rows (Tsu's
    /// hidden 13th included) × 6 columns.
    pub fn board_shape(&self) -> (usize, usize) {
        (self.rules.rows() as usize, WIDTH)
    }

    /// Writes `field` into `out` (rows × columns of [`board_shape`](Puyo::board_shape), top
    /// row first): 0 empty, colours 1..5, nuisance 6.
    pub fn fill_board(&self, field: &Field, out: &mut [u8]) {
        let (rows, width) = self.board_shape();
        for y in 0..rows {
            for x in 0..width {
                out[(rows - 1 - y) * width + x] = field.colour(x, y as u32);
            }
        }
    }

    /// The values of the board features `mask` asks for on `field`.
    #[cold]
    fn compute_board_features(
        &self,
        features: &BoardFeatures,
        field: &Field,
        mask: stacktune_game::FeatureMask,
        values: &mut FeatureValues,
    ) {
        let (rows, columns) = self.board_shape();
        let mut cells = [0u8; MAX_ROWS as usize * WIDTH];
        self.fill_board(field, &mut cells);
        let board = Board {
            rows,
            columns,
            cells: &cells[..rows * columns],
        };
        features.compute(&board, mask, values);
    }

    /// The Tsu cycle: `TSU_CYCLE` pairs holding each colour as equally often as 256 puyos allow
    /// (colour 1 first gets the remainder), shuffled with `rng`.
    fn shuffled_cycle(&self, rng: &mut ChaCha8Rng) -> Cycle {
        let mut puyos = [0u8; 2 * TSU_CYCLE];
        for (i, p) in puyos.iter_mut().enumerate() {
            *p = (i % self.colours as usize) as u8 + 1;
        }
        for i in (1..puyos.len()).rev() {
            puyos.swap(i, rng.random_range(0..=i));
        }
        Cycle {
            pairs: std::array::from_fn(|i| puyos[2 * i] | puyos[2 * i + 1] << 4),
            dealt: 0,
        }
    }

    /// The next pair: uniform colours from `rng` (programming) or the next of the cycle (Tsu).
    fn deal(&self, cycle: &mut Cycle, rng: &mut ChaCha8Rng) -> Pair {
        match self.rules {
            Rules::Tsu if *cycle != Cycle::UNUSED => {
                let p = cycle.pairs[cycle.dealt as usize];
                cycle.dealt = ((cycle.dealt as usize + 1) % TSU_CYCLE) as u8;
                Pair {
                    axis: p & 0xF,
                    child: p >> 4,
                }
            }
            // The programming rules, and a position given for analysis, which has no cycle.
            _ => Pair {
                axis: rng.random_range(1..=self.colours),
                child: rng.random_range(1..=self.colours),
            },
        }
    }

    /// Places `position`'s pair at the offered `mv` (paying the all-clear bonus when
    /// `all_clear` and a chain fires), `on_step` seeing each chain step, and deals the next
    /// pair; the caller keeps what is owed ([`Played::all_clear`](rules::Played)).
    fn place(
        &self,
        position: &mut Position,
        mv: Placement,
        all_clear: bool,
        rng: &mut ChaCha8Rng,
        on_step: &mut impl FnMut(rules::Step),
    ) -> rules::Played {
        let pair = position
            .pair
            .expect("a position from start always has a pair to place");
        let heights = position.field.heights();
        debug_assert!(self.rules.offers(&heights, mv), "{mv:?} is not offered");
        let played = self
            .rules
            .play(&position.field, &heights, pair, mv, all_clear, on_step);
        position.field = played.field;
        let dealt = self.deal(&mut position.cycle, rng);
        match self.shown {
            1 => position.pair = Some(dealt),
            2 => {
                position.pair = position.next;
                position.next = Some(dealt);
            }
            _ => {
                position.pair = position.next;
                position.next = position.after_next;
                position.after_next = Some(dealt);
            }
        }
        played
    }

    /// Whether `position`'s pair has a placement that does not end the game.
    fn has_safe_placement(&self, position: &Position) -> bool {
        let Some(pair) = position.pair else {
            return false;
        };
        let heights = position.field.heights();
        rules::placements(pair).iter().any(|&p| {
            self.rules.offers(&heights, p)
                && !self
                    .rules
                    .play(&position.field, &heights, pair, p, false, &mut |_| {})
                    .game_over
        })
    }
}

impl Game for Puyo {
    type Position = Position;

    type Move = Placement;

    fn name(&self) -> &'static str {
        "puyo"
    }

    fn rules(&self) -> String {
        format!(
            "{} 6x12, {} colours{}{}, fitness {}",
            self.rules.name(),
            self.colours,
            match self.shown {
                1 => "",
                2 => ", next pair shown",
                _ => ", two next pairs shown",
            },
            if self.allow_topout {
                ", top-outs allowed"
            } else {
                ""
            },
            self.score_name(),
        )
    }

    fn feature_names(&self) -> &'static [&'static str] {
        if self.matches.is_some() {
            return &match_features::PLAYER_FEATURE_NAMES;
        }
        self.board_features
            .as_ref()
            .map_or(&FEATURE_NAMES, BoardFeatures::names)
    }

    fn match_feature_names(&self) -> &'static [&'static str] {
        match self.matches {
            Some(_) => &[],
            None => &match_features::MATCH_FEATURE_NAMES,
        }
    }

    fn start(&self, rng: &mut ChaCha8Rng) -> Position {
        let mut cycle = match self.rules {
            Rules::Programming => Cycle::UNUSED,
            Rules::Tsu => self.shuffled_cycle(rng),
        };
        let pair = self.deal(&mut cycle, rng);
        let next = (self.shown >= 2).then(|| self.deal(&mut cycle, rng));
        let after_next = (self.shown >= 3).then(|| self.deal(&mut cycle, rng));
        Position {
            next,
            after_next,
            cycle,
            ..Position::new(Field::EMPTY, pair)
        }
    }

    #[inline]
    fn for_each_move(
        &self,
        position: &Position,
        mask: stacktune_game::FeatureMask,
        visit: &mut impl FnMut(Placement, &Position, &Outcome, &FeatureValues),
    ) {
        let Some(pair) = position.pair else {
            return;
        };
        let heights = position.field.heights();
        let mut after = *position;
        after.pair = position.next;
        after.next = position.after_next;
        after.after_next = None;
        after.reading = None;
        let reads_at = self.match_features_at();
        let mut values = FeatureValues::default();
        for &placement in rules::placements(pair) {
            if !self.rules.offers(&heights, placement) {
                continue;
            }
            let played = self.rules.play(
                &position.field,
                &heights,
                pair,
                placement,
                position.all_clear,
                &mut |_| {},
            );
            if played.game_over && !self.allow_topout {
                continue;
            }
            let fired = position.fired.then(played.chain);
            if !played.game_over {
                features::compute(&played.field, &fired, self.rules, mask, &mut values);
                if let Some(board) = self.board_features.as_ref().filter(|b| b.wanted(mask)) {
                    self.compute_board_features(board, &played.field, mask, &mut values);
                }
            }
            after.field = played.field;
            after.all_clear = played.all_clear;
            after.fired = fired;
            let outcome = outcome(&played);
            if let Some(state) = &position.reading
                && !played.game_over
            {
                let mut reads = [0.0; match_features::MATCH_FEATURE_NAMES.len()];
                state.compute(placement, &played.field, &outcome, &mut reads);
                values.0[reads_at..reads_at + reads.len()].copy_from_slice(&reads);
            }
            visit(placement, &after, &outcome, &values);
        }
    }

    fn shows_next(&self, position: &Position) -> bool {
        position.next.is_some()
    }

    fn apply(&self, position: &mut Position, mv: Placement, rng: &mut ChaCha8Rng) -> Outcome {
        let played = self.place(position, mv, position.all_clear, rng, &mut |_| {});
        position.all_clear = played.all_clear;
        let mut outcome = outcome(&played);
        if !outcome.game_over && !self.allow_topout {
            // The game also ends when every placement of the new pair would end it.
            outcome.game_over = !self.has_safe_placement(position);
        }
        outcome
    }

    fn accumulate(&self, score: f64, outcome: &Outcome) -> f64 {
        match self.fitness {
            Fitness::Score => score + outcome.points,
            Fitness::MaxChain | Fitness::MaxChainAlive => score.max(outcome.chains as f64),
        }
    }

    fn score_name(&self) -> &'static str {
        self.fitness.name()
    }
}

impl SearchHooks for Puyo {
    fn points_feature(&self) -> Option<&'static str> {
        Some("move_score")
    }

    fn fired_features(&self) -> stacktune_game::FeatureMask {
        features::FIRED_FEATURES
    }

    /// The match features, on the position a side reads the match from.
    fn first_move_features(&self, position: &Position) -> stacktune_game::FeatureMask {
        match position.reading {
            Some(_) => {
                let all = (1 << match_features::MATCH_FEATURE_NAMES.len()) - 1;
                all << self.match_features_at()
            }
            None => 0,
        }
    }

    /// Past the pairs shown, the player knows only that colours are drawn evenly (Tsu's cycle
    /// is shuffled, and its order is not the player's to see): each unordered pair of colours,
    /// a mixed one twice as likely as a same-colour one, in the first slot not shown.
    fn for_each_unseen(&self, position: &Position, visit: &mut impl FnMut(&Position, f64)) {
        let c = self.colours;
        let p_same = 1.0 / f64::from(c * c);
        let mut drawn = *position;
        for axis in 1..=c {
            for child in axis..=c {
                let pair = Some(Pair { axis, child });
                if position.pair.is_none() {
                    drawn.pair = pair;
                } else if position.next.is_none() {
                    drawn.next = pair;
                } else if position.after_next.is_none() {
                    drawn.after_next = pair;
                } else {
                    return;
                }
                let probability = if axis == child { p_same } else { 2.0 * p_same };
                visit(&drawn, probability);
            }
        }
    }
}

impl Episodes for Puyo {
    /// The default episode, counting what `play` reports per game beside the fitness: the
    /// points, the largest chain, whether the game ended before the move limit and, with fire
    /// points, the pair whose chain reached them (0 when none did), where the game stopped.
    fn episode(
        &self,
        player: &impl Policy<Self>,
        index: u64,
        mut rng: ChaCha8Rng,
        limits: EpisodeLimits,
        observe: &mut impl FnMut(&Position, &EpisodeResult),
    ) -> EpisodeResult {
        if let Some(matches) = &self.matches {
            return matches.episode(player, self.shown, index, rng, limits);
        }
        let mut details = [0u64; MAX_DETAILS];
        let mut pairs = 0;
        let start = self.start(&mut rng);
        let mut result = play_from(self, player, start, limits, observe, |position, mv| {
            let mut outcome = self.apply(position, mv, &mut rng);
            pairs += 1;
            details[0] += outcome.points as u64;
            details[1] = details[1].max(u64::from(outcome.chains));
            details[2] += u64::from(outcome.game_over);
            if self
                .fire_points
                .is_some_and(|target| outcome.points >= f64::from(target))
            {
                details[3] = pairs;
                outcome.game_over = true;
            }
            outcome
        });
        if self.fitness == Fitness::MaxChainAlive && details[2] > 0 {
            result.score = 0.0;
        }
        result.details = details;
        result
    }

    fn opponents(&self) -> Vec<String> {
        self.matches.as_ref().map_or_else(Vec::new, |m| m.names())
    }

    fn with_rivals(&self, rivals: &[SharedPolicy<Puyo>]) -> Option<Puyo> {
        let matches = self.matches.as_ref()?.with_rivals(rivals, self.shown);
        Some(Puyo {
            matches: Some(Arc::new(matches)),
            ..self.clone()
        })
    }

    fn pairing(&self) -> Option<&'static str> {
        self.matches
            .as_ref()
            .map(|_| "both sides on the same pairs")
    }

    fn describe_episode(&self, index: u64) -> Option<String> {
        let matches = self.matches.as_ref()?;
        Some(format!(
            "left: the weights, right: {}",
            matches.opponent(index).name
        ))
    }

    fn detail_names(&self) -> &'static [&'static str] {
        if self.matches.is_some() {
            return &selfplay::DETAILS;
        }
        match self.fire_points {
            None => &["points", "max_chain", "died"],
            Some(_) => &["points", "max_chain", "died", "fired_at"],
        }
    }
    fn board_feature_failure(&self) -> Option<String> {
        self.board_features
            .as_ref()
            .and_then(|b| b.failure().map(String::from))
    }
}

impl Render for Puyo {
    fn render(&self, position: &Position) -> String {
        let mut s = String::new();
        let rows = position.field.to_rows(self.rules.rows());
        for (i, row) in rows.iter().enumerate() {
            // Tsu's hidden 13th row is drawn above the walls.
            let wall = if i + (VISIBLE_ROWS as usize) < rows.len() {
                ' '
            } else {
                '|'
            };
            s.push(wall);
            s.push_str(row);
            s.push(wall);
            s.push('\n');
        }
        s.push('+');
        s.push_str(&"-".repeat(WIDTH));
        s.push_str("+\n");
        let show =
            |p: Option<Pair>| p.map_or("??".to_string(), |p| format!("{}{}", p.axis, p.child));
        s.push_str(&format!(
            "pair {}  next {}",
            show(position.pair),
            show(position.next)
        ));
        if let Some(pair) = position.after_next {
            s.push_str(&format!(" {}", show(Some(pair))));
        }
        s.push('\n');
        s
    }

    /// A match of a versus run, both fields side by side ([`Puyo::draw_match`]).
    fn watch_match(
        &self,
        player: &impl Policy<Self>,
        index: u64,
        rng: ChaCha8Rng,
        limits: EpisodeLimits,
        frame: &mut dyn FnMut(&str),
    ) -> Option<String> {
        let matches = self.matches.as_ref()?;
        Some(matches.watch(self, player, (index, rng), limits, frame))
    }
}

impl Puyo {
    /// Both sides of a match at frame `now` side by side, each field as [`Render`] draws it,
    /// then the nuisance waiting for each side, its points and the chain steps it popped.
    pub fn draw_match(&self, now: u64, sides: &[versus::Side; 2]) -> String {
        let [left, right] = sides.each_ref().map(|side| {
            let [coming, due] = side.waiting();
            let mut lines: Vec<String> = self
                .render(side.position())
                .lines()
                .map(String::from)
                .collect();
            lines.push(format!("nuisance {coming} coming, {due} due"));
            lines.push(match side.chain() {
                0 => format!("points {}", side.score()),
                chain => format!("points {}  {chain}-chain", side.score()),
            });
            lines
        });
        let width = left.iter().map(String::len).max().unwrap_or(0) + 4;
        let mut s = format!("frame {now}\n");
        for (l, r) in left.iter().zip(&right) {
            s += &format!("{l:<width$}{r}\n");
        }
        s
    }
}

/// What a played placement reports to the player: a move that ends the game is scored −∞.
fn outcome(played: &rules::Played) -> Outcome {
    Outcome {
        cleared: played.chain.erased,
        points: played.chain.score as f64,
        chains: played.chain.chains,
        game_over: played.game_over,
        terminal_value: played.game_over.then_some(f64::NEG_INFINITY),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    #[test]
    fn tsu_cycle_deals_colours_evenly_and_repeats() {
        for colours in COLOURS {
            let game = Puyo {
                colours,
                ..Puyo::new(Rules::Tsu)
            };
            let mut rng = ChaCha8Rng::seed_from_u64(colours as u64);
            let position = game.start(&mut rng);
            let mut cycle = position.cycle;
            let mut counts = [0usize; MAX_COLOURS + 1];
            let first: Vec<Pair> = (0..TSU_CYCLE)
                .map(|_| game.deal(&mut cycle, &mut rng))
                .collect();
            for p in &first {
                counts[p.axis as usize] += 1;
                counts[p.child as usize] += 1;
            }
            let used = &counts[1..=colours as usize];
            assert!(used.iter().max().unwrap() - used.iter().min().unwrap() <= 1);
            assert_eq!(used.iter().sum::<usize>(), 2 * TSU_CYCLE);
            let again: Vec<Pair> = (0..TSU_CYCLE)
                .map(|_| game.deal(&mut cycle, &mut rng))
                .collect();
            assert_eq!(first, again);
            // start dealt the cycle's first pair, so it comes back last.
            assert_eq!(position.pair, Some(first[TSU_CYCLE - 1]));
        }
    }

    #[test]
    fn a_tsu_position_given_for_analysis_plays_on_with_real_pairs() {
        let game = Puyo::new(Rules::Tsu);
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        let mut position = Position::new(Field::EMPTY, Pair { axis: 1, child: 2 });
        // Upright pairs two columns apart: no four can join, nothing pops.
        for column in [0, 2, 4] {
            let outcome = game.apply(
                &mut position,
                Placement {
                    column,
                    rotation: 1,
                },
                &mut rng,
            );
            assert!(!outcome.game_over);
            let pair = position.pair.unwrap();
            assert!(
                (1..=4).contains(&pair.axis) && (1..=4).contains(&pair.child),
                "{pair:?}"
            );
        }
        assert_eq!(position.field.count(), 6);
    }

    #[test]
    fn preview_deals_the_same_pairs() {
        let plain = Puyo::new(Rules::Programming);
        let shown = Puyo {
            shown: 2,
            ..Puyo::new(Rules::Programming)
        };
        let mut a = ChaCha8Rng::seed_from_u64(9);
        let mut b = ChaCha8Rng::seed_from_u64(9);
        let pa = plain.start(&mut a);
        let pb = shown.start(&mut b);
        assert_eq!(pa.pair, pb.pair);
        assert!(pa.next.is_none());
        let mut unused = Cycle::UNUSED;
        assert_eq!(pb.next, Some(plain.deal(&mut unused, &mut a)));
    }

    #[test]
    fn max_chain_fitness_keeps_the_largest_chain() {
        let game = Puyo {
            fitness: Fitness::MaxChain,
            ..Puyo::new(Rules::Programming)
        };
        let o = |chains| Outcome {
            chains,
            points: 1000.0,
            ..Outcome::default()
        };
        let score = [o(2), o(5), o(0)]
            .iter()
            .fold(0.0, |s, x| game.accumulate(s, x));
        assert_eq!(score, 5.0);
        assert_eq!(game.score_name(), "max_chain");
    }
}
