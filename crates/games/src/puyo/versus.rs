//! Puyo Puyo Tsu's battle rules, and a match between two sides under them.
//!
//! Both sides play the same Tsu pair cycle on fields of their own, each in virtual time
//! counted in frames (60 a second): a placement takes the frames the pair needs to move and
//! fall, a chain step the frames its pop and its fall take, and nuisance the frames it needs to
//! land (the counts of puyoai's model of Tsu, [`frames`]). Firing now or a pair later is then a
//! real choice: the opponent's chain may have ended, or not, by the time one's own lands.
//!
//! A match is a sequence of events in time order; at one frame, both sides' chain steps are
//! taken first (each offsets its own waiting nuisance, then both send what is left), then the
//! chains that end commit what they sent, then the turns that end drop nuisance and check the
//! death cell, then the sides whose next pair is ready choose their placement, both from a
//! [`MatchView`] taken before either places, then place. So a match is a function of its seeds
//! and its players, and the sides are treated alike at every frame.
//!
//! The rules, with their sources, are in docs/puyo-versus.md: nuisance is `⌊points / target
//! points⌋` at every chain step with the remainder carried; a step's nuisance first cancels the
//! side's own waiting nuisance (from a chain still running first, then from ended ones: Tsu's
//! classic offsetting) and the rest waits for the opponent; nuisance from a chain that has
//! ended falls on the receiver after its next placement (and chain), at most
//! [`BattleRules::nuisance_cap`] a turn; emptying the field adds
//! [`BattleRules::all_clear_nuisance`] to the next chain's first step; after the margin, target
//! points fall by Tsu's schedule, counted in the converting side's pairs; a side loses when
//! column 3, row 12 is filled after its turn (or no placement is left to it), and both losing
//! at the same frame is a draw.

pub use super::contestant::{Contestant, MatchView, Reader, Seat};
use super::field::{Field, MAX_ROWS, NUISANCE, VISIBLE_ROWS, WIDTH, cell};
use super::rules::{Placement, Rules, SPAWN_COLUMN, Step};
use super::{Position, Puyo};
use crate::settings::GameSpec;
use crate::versus::MatchEnd;
pub use crate::versus::Seeds;
use anyhow::{Result, bail};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use stacktune_game::Game;

/// Frame counts of puyoai's model of arcade Tsu (`src/core/frame.h`), at 60 frames a second.
pub mod frames {
    /// The next pair moving into the field, between turns (`FRAMES_PREPARING_NEXT`).
    pub const PREPARING_NEXT: u64 = 12;
    /// Moving the pair 0 to 5 columns from its spawn column (`FRAMES_TO_MOVE_HORIZONTALLY`).
    pub const MOVE: [u64; 6] = [0, 4, 6, 8, 10, 12];
    /// A row of fall with DOWN held, and of the fall after a pop (`FRAMES_TO_DROP_FAST`).
    pub const DROP_FAST_ROW: u64 = 2;
    /// Free fall of 0 to 15 rows: a split pair's second puyo, nuisance (`FRAMES_TO_DROP`).
    pub const FREE_FALL: [u64; 16] = [
        0, 10, 16, 22, 24, 28, 32, 34, 36, 40, 42, 44, 46, 48, 50, 52,
    ];
    /// Landing (`FRAMES_GROUNDING`).
    pub const GROUNDING: u64 = 20;
    /// A chain step's pop (`FRAMES_VANISH_ANIMATION`).
    pub const VANISH: u64 = 50;

    /// Nuisance landing, by how many fell (`framesGroundingOjama`).
    pub fn nuisance_grounding(n: u32) -> u64 {
        match n {
            0 => 0,
            1..=3 => 8,
            4..=18 => 24,
            _ => 32,
        }
    }
}

/// Most steps a chain can have: 13 × 6 cells hold 19 groups of four.
const MAX_STEPS: usize = 20;

/// The cell whose filling after a turn loses: column 3, row 12.
const DEATH_CELL: u128 = cell(SPAWN_COLUMN, VISIBLE_ROWS - 1);

/// Where Tsu's battle rules and another rule set differ: each one a setting.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BattleRules {
    /// Points a nuisance puyo costs before the margin (Tsu: 70).
    pub target_points: u32,
    /// Pairs a side places before its target points first fall (Tsu's 96 s margin at 56 frames
    /// a pair: 103).
    pub margin_pairs: u32,
    /// Pairs between later falls of the target points (Tsu's 16 s: 17).
    pub margin_every: u32,
    /// Most nuisance that falls on a side in one turn (Tsu: 30, five rows).
    pub nuisance_cap: u32,
    /// Nuisance an all clear adds to the next chain (Tsu: 30).
    pub all_clear_nuisance: u32,
}

impl BattleRules {
    /// Puyo Puyo Tsu's.
    pub const TSU: BattleRules = BattleRules {
        target_points: 70,
        margin_pairs: 103,
        margin_every: 17,
        nuisance_cap: 30,
        all_clear_nuisance: 30,
    };

    /// The target points once a side has placed `pairs` pairs: from the margin on, step k
    /// (one every `margin_every` pairs, at most 13) is ⌊¾ T⌋ halved k / 2 times for even k and T
    /// halved (k + 1) / 2 times for odd k, at least 1 (Puyo Nexus, *Margin time*; puyovs
    /// `getTargetFromMargin`): 70, 52, 35, 26, 17, 13, 8, 6, 4, 3, 2, 1.
    pub fn target_points_at(&self, pairs: u32) -> u32 {
        let Some(after) = pairs.checked_sub(self.margin_pairs) else {
            return self.target_points;
        };
        let step = (after / self.margin_every).min(13);
        let points = match step % 2 {
            0 => (self.target_points * 3 / 4) >> (step / 2),
            _ => self.target_points >> step.div_ceil(2),
        };
        points.max(1)
    }

    /// Nuisance from `points` scored with `carry` left over (below the target) at `target`:
    /// the nuisance and the new carry.
    pub fn nuisance(points: u32, carry: u32, target: u32) -> (u32, u32) {
        let total = points + carry;
        (total / target, total % target)
    }
}

/// Offsets `sent` nuisance against a side's waiting nuisance: from the opponent's chain still
/// running (`pending`) first, then from chains that have ended (`fixed`). Returns what is left
/// to send.
pub fn offset(sent: u32, pending: &mut u32, fixed: &mut u32) -> u32 {
    let mut left = sent;
    for waiting in [pending, fixed] {
        let cut = left.min(*waiting);
        *waiting -= cut;
        left -= cut;
    }
    left
}

/// Frames from the pair becoming controllable to its landing (puyoai `framesToDropNext`): the
/// move sideways, the fall with DOWN held until the first puyo lands, its landing, and for a
/// pair split over columns of different heights the other puyo's free fall and landing.
/// Rotation is not counted.
pub fn placement_frames(heights: &[u32; WIDTH], placement: Placement) -> u64 {
    let x = placement.column as usize;
    let c = placement.child_column().unwrap_or(x);
    let moved = frames::MOVE[x.abs_diff(SPAWN_COLUMN)];
    let first = heights[x].max(heights[c]);
    let fall = u64::from(VISIBLE_ROWS.saturating_sub(first)) * frames::DROP_FAST_ROW;
    let split = match heights[x].abs_diff(heights[c]) {
        0 => 0,
        d => frames::FREE_FALL[(d as usize).min(15)] + frames::GROUNDING,
    };
    moved + fall + frames::GROUNDING + split
}

/// Frames a chain step takes: the pop, then the fall and landing when anything fell.
pub fn step_frames(step: &Step) -> u64 {
    match step.fallen {
        0 => frames::VANISH,
        rows => frames::VANISH + u64::from(rows) * frames::DROP_FAST_ROW + frames::GROUNDING,
    }
}

/// Drops `n` nuisance on `field`: ⌊n / 6⌋ on every column, and the n mod 6 others on distinct
/// columns drawn from `rng` (as puyoai's and puyovs' referees do; Tsu's own order is not
/// documented). A puyo with no room below row 13 is lost. Returns the frames the fall takes.
pub fn drop_nuisance(field: &mut Field, n: u32, rng: &mut ChaCha8Rng) -> u64 {
    if n == 0 {
        return 0;
    }
    let mut per = [n / WIDTH as u32; WIDTH];
    let mut columns: [usize; WIDTH] = std::array::from_fn(|x| x);
    for i in 0..(n as usize % WIDTH) {
        columns.swap(i, rng.random_range(i..WIDTH));
        per[columns[i]] += 1;
    }
    let heights = field.heights();
    let mut fall = 0;
    for x in 0..WIDTH {
        if per[x] > 0 {
            fall = fall.max(VISIBLE_ROWS.saturating_sub(heights[x]));
        }
        for y in heights[x]..(heights[x] + per[x]).min(MAX_ROWS) {
            field.put(cell(x, y), NUISANCE);
        }
    }
    frames::FREE_FALL[(fall as usize).min(15)] + frames::nuisance_grounding(n)
}

/// A match as it was played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MatchRecord {
    pub end: MatchEnd,
    /// Why the loser lost, or why it was a draw.
    pub reason: String,
    /// The frame the match ended at.
    pub frames: u64,
    /// Pairs each side placed.
    pub pairs: [u32; 2],
    /// Nuisance each side sent past its own offsetting.
    pub sent: [u32; 2],
    /// The largest chain each side fired.
    pub max_chain: [u32; 2],
    /// Each side's placements, in order.
    pub moves: [Vec<Placement>; 2],
}

/// Tsu's battle: the Puyo game both sides play (Tsu rules: the shared pair cycle) and the
/// battle rules.
#[derive(Clone, Debug)]
pub struct Battle {
    pub game: Puyo,
    pub rules: BattleRules,
}

impl Battle {
    /// A battle of `game` under `rules`; a game that is not Tsu's (each side would draw its own
    /// pairs) or rules that cannot convert points are refused.
    pub fn new(game: Puyo, rules: BattleRules) -> Result<Battle> {
        let game = Puyo {
            shown: super::MAX_SHOWN,
            ..game
        };
        if game.rules_of() != Rules::Tsu {
            bail!("puyo versus is played under the tsu rules (--rules tsu)");
        }
        if rules.target_points == 0 || rules.margin_every == 0 || rules.nuisance_cap == 0 {
            bail!(
                "puyo versus: --target-points, --margin-every and --nuisance-cap must be at least 1"
            );
        }
        Ok(Battle { game, rules })
    }

    /// The battle `spec` describes (`--mode versus` on puyo, Tsu's rules unless it says
    /// otherwise) and the pairs its player is shown (`--pairs-shown`, `--preview`; 1 by
    /// default, as in a solo game); every setting another game takes, or out of range, is a
    /// one-line error.
    pub fn from_spec(spec: &GameSpec) -> Result<(Battle, u8)> {
        let mut spec = spec.clone();
        spec.game.get_or_insert_with(|| "puyo".to_string());
        spec.mode = Some("versus".to_string());
        spec.check_settings()?;
        spec.rules
            .get_or_insert_with(|| Rules::Tsu.name().to_string());
        let tsu = BattleRules::TSU;
        let rules = BattleRules {
            target_points: spec.target_points.unwrap_or(tsu.target_points),
            margin_pairs: spec.margin_pairs.unwrap_or(tsu.margin_pairs),
            margin_every: spec.margin_every.unwrap_or(tsu.margin_every),
            nuisance_cap: spec.nuisance_cap.unwrap_or(tsu.nuisance_cap),
            all_clear_nuisance: spec.all_clear_nuisance.unwrap_or(tsu.all_clear_nuisance),
        };
        spec.mode = None;
        let game = Puyo::from_spec(&spec)?;
        let shown = game.shown;
        Ok((Battle::new(game, rules)?, shown))
    }

    /// Plays a match between `players` on `seeds`, a draw once both sides have placed `cap`
    /// pairs.
    pub fn play<C: Contestant>(&self, players: [C; 2], seeds: Seeds, cap: u32) -> MatchRecord {
        self.play_observed(players, seeds, cap, &mut |_, _| {})
    }

    /// [`Battle::play`], showing `observe` both sides at the start (frame 0, before anything
    /// happens) and after every frame at which anything happened: what draws a match (a
    /// replay, a terminal) sees the very match the figures count.
    pub fn play_observed<C: Contestant>(
        &self,
        players: [C; 2],
        seeds: Seeds,
        cap: u32,
        observe: &mut impl FnMut(u64, &[Side; 2]),
    ) -> MatchRecord {
        let start = self.game.start(&mut ChaCha8Rng::seed_from_u64(seeds.queue));
        let sides = seeds.sides.map(|seed| Side::new(start, seed));
        observe(0, &sides);
        self.run(sides, players, cap, observe)
    }

    /// Plays a match from `sides` to its end.
    fn run<C: Contestant>(
        &self,
        mut sides: [Side; 2],
        mut players: [C; 2],
        cap: u32,
        observe: &mut impl FnMut(u64, &[Side; 2]),
    ) -> MatchRecord {
        let mut record = MatchRecord {
            end: MatchEnd::Draw,
            reason: format!("both sides placed {cap} pairs"),
            frames: 0,
            pairs: [0; 2],
            sent: [0; 2],
            max_chain: [0; 2],
            moves: [Vec::new(), Vec::new()],
        };
        loop {
            let now = sides[0].at.min(sides[1].at);
            if now == u64::MAX {
                return record;
            }
            record.frames = now;
            let seated = players.each_mut();
            let ended = self.frame(&mut sides, seated, now, cap, &mut record);
            observe(now, &sides);
            if let Some((end, reason)) = ended {
                record.end = end;
                record.reason = reason;
                return record;
            }
        }
    }

    /// Every event of frame `now`, in the order of the module documentation; the end of the
    /// match when a side lost.
    fn frame<C: Contestant>(
        &self,
        sides: &mut [Side; 2],
        mut players: [C; 2],
        now: u64,
        cap: u32,
        record: &mut MatchRecord,
    ) -> Option<(MatchEnd, String)> {
        let due = |side: &Side, phase: Phase| side.at == now && side.phase == phase;
        let mut sent = [0; 2];
        for s in 0..2 {
            if due(&sides[s], Phase::Step) {
                sent[s] = sides[s].fire_step(&self.rules);
            }
        }
        for s in 0..2 {
            sides[1 - s].pending += sent[s];
            record.sent[s] += sent[s];
        }
        let ending = [0, 1].map(|s| due(&sides[s], Phase::End));
        for s in 0..2 {
            if ending[s] {
                let other = &mut sides[1 - s];
                other.fixed += std::mem::take(&mut other.pending);
            }
        }
        let mut lost = [false; 2];
        for s in 0..2 {
            if ending[s] {
                lost[s] = sides[s].end_turn(&self.rules, now);
            }
        }
        if let Some(end) = MatchEnd::of_losses(lost) {
            return Some((end, "filled column 3 of row 12".to_string()));
        }
        // Both sides choose before either places: neither sees the other's placement of this frame.
        let mut chosen = [None, None];
        for s in 0..2 {
            if !due(&sides[s], Phase::Decide) {
                continue;
            }
            if sides[s].pairs >= cap {
                sides[s].at = u64::MAX;
                continue;
            }
            chosen[s] = Some(players[s].choose(&self.game, &self.view(sides, s, now)));
        }
        let mut reason = String::new();
        for (s, choice) in chosen.into_iter().enumerate() {
            match choice {
                Some(Ok(mv)) => {
                    let chain = sides[s].place(&self.game, mv, now);
                    record.moves[s].push(mv);
                    record.pairs[s] += 1;
                    record.max_chain[s] = record.max_chain[s].max(chain);
                }
                Some(Err(why)) => {
                    if !lost[1 - s] {
                        reason = why;
                    }
                    lost[s] = true;
                }
                None => {}
            }
        }
        MatchEnd::of_losses(lost).map(|end| (end, reason))
    }

    /// What side `s` sees when it chooses at frame `now`.
    fn view<'a>(&self, sides: &'a [Side; 2], s: usize, now: u64) -> MatchView<'a> {
        let (me, them) = (&sides[s], &sides[1 - s]);
        MatchView {
            now,
            position: &me.position,
            pending: me.pending,
            fixed: me.fixed,
            carry: me.carry,
            all_clear: me.all_clear,
            last_sent: me.last_sent,
            opponent: &them.position,
            opponent_chain_ends: them.chain_ends(),
            target_points: self.rules.target_points_at(me.pairs + 1),
            nuisance_cap: self.rules.nuisance_cap,
            all_clear_nuisance: self.rules.all_clear_nuisance,
            pairs: [me.pairs, them.pairs],
        }
    }
}

/// What a side does next.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    /// Choose a placement for the pair now controllable.
    Decide,
    /// Pop the next step of its chain.
    Step,
    /// End its turn: the chain has ended (or none fired); nuisance falls.
    End,
}

/// One side of a match: its position, the nuisance waiting for it, and its timeline.
pub struct Side {
    position: Position,
    /// The nuisance columns' stream.
    rng: ChaCha8Rng,
    /// Nuisance from the opponent's chain still running.
    pending: u32,
    /// Nuisance from opponent chains that have ended: what falls after this side's turn.
    fixed: u32,
    /// Points scored and not yet converted, below the target then in force.
    carry: u32,
    /// An all clear's nuisance is owed to the next chain.
    all_clear: bool,
    /// Nuisance the last chain sent past offsetting, so far while it runs.
    last_sent: u32,
    /// The owed all-clear nuisance goes with this turn's first step.
    bonus_now: bool,
    pairs: u32,
    /// Points its chains scored so far, step by step as they pop.
    score: u64,
    /// The frame of the next event, `u64::MAX` once the side has placed its last pair.
    at: u64,
    phase: Phase,
    /// This turn's chain: points and frames of each step, the steps taken.
    points: [u32; MAX_STEPS],
    frames: [u64; MAX_STEPS],
    steps: usize,
    taken: usize,
}

impl Side {
    fn new(position: Position, seed: u64) -> Side {
        Side {
            position,
            rng: ChaCha8Rng::seed_from_u64(seed),
            pending: 0,
            fixed: 0,
            carry: 0,
            all_clear: false,
            last_sent: 0,
            bonus_now: false,
            pairs: 0,
            score: 0,
            at: 0,
            phase: Phase::Decide,
            points: [0; MAX_STEPS],
            frames: [0; MAX_STEPS],
            steps: 0,
            taken: 0,
        }
    }

    /// Places the pair at `mv` at frame `now` and schedules the chain it fires; returns the
    /// chain's length.
    fn place(&mut self, game: &Puyo, mv: Placement, now: u64) -> u32 {
        let landing = placement_frames(&self.position.field.heights(), mv);
        let (mut points, mut frames, mut steps) = ([0; MAX_STEPS], [0; MAX_STEPS], 0);
        let played = game.place(&mut self.position, mv, false, &mut self.rng, &mut |step| {
            points[steps] = step.score;
            frames[steps] = step_frames(&step);
            steps += 1;
        });
        if played.chain.chains > 0 {
            self.last_sent = 0;
            self.bonus_now = self.all_clear;
            self.all_clear = played.all_clear;
        }
        // The player sees an owed all clear as Tsu's solo bonus, the same 30 × 70 points.
        self.position.all_clear = self.all_clear;
        (self.points, self.frames, self.steps, self.taken) = (points, frames, steps, 0);
        self.pairs += 1;
        self.at = now + landing;
        self.phase = if steps > 0 { Phase::Step } else { Phase::End };
        played.chain.chains
    }

    /// Pops the next step of the chain: its points become nuisance (with the carry, and an owed
    /// all clear's on the first step), which first offsets this side's own. Returns what is
    /// left to send.
    fn fire_step(&mut self, rules: &BattleRules) -> u32 {
        let i = self.taken;
        let target = rules.target_points_at(self.pairs);
        let (mut n, carry) = BattleRules::nuisance(self.points[i], self.carry, target);
        self.carry = carry;
        self.score += u64::from(self.points[i]);
        if i == 0 && std::mem::take(&mut self.bonus_now) {
            n += rules.all_clear_nuisance;
        }
        self.taken += 1;
        self.at += self.frames[i];
        if self.taken == self.steps {
            self.phase = Phase::End;
        }
        let left = offset(n, &mut self.pending, &mut self.fixed);
        self.last_sent += left;
        left
    }

    /// The side's field, its pair and the two next.
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// Nuisance waiting for the side: from the opponent's chain still running, and from
    /// chains that have ended (what falls after its turn).
    pub fn waiting(&self) -> [u32; 2] {
        [self.pending, self.fixed]
    }

    /// Pairs the side has placed.
    pub fn pairs(&self) -> u32 {
        self.pairs
    }

    /// Points the side's chains scored so far.
    pub fn score(&self) -> u64 {
        self.score
    }

    /// Steps of this turn's chain popped so far (0 between chains).
    pub fn chain(&self) -> u32 {
        match self.phase {
            Phase::Decide => 0,
            Phase::Step | Phase::End => self.taken as u32,
        }
    }

    /// The frame this turn's chain ends, while it is resolving.
    fn chain_ends(&self) -> Option<u64> {
        match self.phase {
            Phase::Step => Some(self.at + self.frames[self.taken..self.steps].iter().sum::<u64>()),
            Phase::End if self.steps > 0 => Some(self.at),
            _ => None,
        }
    }

    /// Ends the turn at frame `now`: up to the cap of the ended chains' nuisance falls, the
    /// next pair comes in. Returns whether the death cell is filled.
    fn end_turn(&mut self, rules: &BattleRules, now: u64) -> bool {
        let n = self.fixed.min(rules.nuisance_cap);
        self.fixed -= n;
        let fall = drop_nuisance(&mut self.position.field, n, &mut self.rng);
        self.at = now + fall + frames::PREPARING_NEXT;
        self.phase = Phase::Decide;
        self.position.field.occupied() & DEATH_CELL != 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puyo::Pair;
    use stacktune_game::Policy;
    use std::sync::atomic::{AtomicUsize, Ordering};

    fn pair(axis: u8, child: u8) -> Pair {
        Pair { axis, child }
    }

    fn at(column: u8, rotation: u8) -> Placement {
        Placement { column, rotation }
    }

    /// Plays its placements in order, then the last one again.
    struct Script(Vec<Placement>, AtomicUsize);

    impl Script {
        fn new(moves: &[Placement]) -> Script {
            Script(moves.to_vec(), AtomicUsize::new(0))
        }
    }

    impl Policy<Puyo> for Script {
        fn choose(&self, _: &Puyo, _: &Position) -> Option<Placement> {
            let i = self.1.fetch_add(1, Ordering::Relaxed);
            Some(self.0[i.min(self.0.len() - 1)])
        }
    }

    /// Tsu showing three pairs, as a battle plays it.
    fn battle() -> Battle {
        Battle::new(Puyo::new(Rules::Tsu), BattleRules::TSU).unwrap()
    }

    fn seats<'a>(a: &'a dyn Policy<Puyo>, b: &'a dyn Policy<Puyo>) -> [Seat<'a>; 2] {
        [a, b].map(|policy| Seat { policy, shown: 3 })
    }

    /// A side on `field` whose pairs are `pairs` (the first to place first), then drawn.
    fn side(field: &[&str], pairs: [Pair; 3], seed: u64) -> Side {
        let position = Position {
            next: Some(pairs[1]),
            after_next: Some(pairs[2]),
            ..Position::new(Field::from_text(field), pairs[0])
        };
        Side::new(position, seed)
    }

    /// The 2-chain of the rules tests: a 2 on column 1 pops four 2s (40 points), the 1s fall
    /// three rows onto the 1 of column 1 and pop (320): 360 points, 5 nuisance and 10 carried.
    const TWO_CHAIN: [&str; 6] = ["1.....", "1.....", "1.....", "2.....", "2.....", "21...."];

    /// Runs frames until every event before `until` has happened; `None` while the match goes
    /// on.
    fn run_until(
        battle: &Battle,
        sides: &mut [Side; 2],
        players: [Seat<'_>; 2],
        until: u64,
        record: &mut MatchRecord,
    ) -> Option<(MatchEnd, String)> {
        loop {
            let now = sides[0].at.min(sides[1].at);
            if now >= until {
                return None;
            }
            if let Some(end) = battle.frame(sides, players, now, 1000, record) {
                return Some(end);
            }
        }
    }

    fn empty_record() -> MatchRecord {
        MatchRecord {
            end: MatchEnd::Draw,
            reason: String::new(),
            frames: 0,
            pairs: [0; 2],
            sent: [0; 2],
            max_chain: [0; 2],
            moves: [Vec::new(), Vec::new()],
        }
    }

    #[test]
    fn nuisance_is_points_over_70_with_the_remainder_carried() {
        // Puyo Nexus and puyoai: a 2-chain of 4 + 4 (360), a 4-chain (2,280), a 5-chain
        // (4,840) of one colour, four puyos a step.
        assert_eq!(BattleRules::nuisance(360, 0, 70), (5, 10));
        assert_eq!(BattleRules::nuisance(2280, 0, 70), (32, 40));
        assert_eq!(BattleRules::nuisance(4840, 0, 70), (69, 10));
        // Step by step with the carry, the 2-chain's 40 then 320 come to the same 5.
        assert_eq!(BattleRules::nuisance(40, 0, 70), (0, 40));
        assert_eq!(BattleRules::nuisance(320, 40, 70), (5, 10));
        // The carry of one chain counts toward the next.
        assert_eq!(BattleRules::nuisance(40, 10, 70), (0, 50));
        assert_eq!(BattleRules::nuisance(40, 50, 70), (1, 20));
    }

    #[test]
    fn target_points_fall_from_the_margin_on_by_tsus_schedule() {
        let rules = BattleRules::TSU;
        assert_eq!(rules.target_points_at(0), 70);
        assert_eq!(rules.target_points_at(102), 70);
        let steps: Vec<u32> = (0..15)
            .map(|k| rules.target_points_at(103 + 17 * k))
            .collect();
        assert_eq!(steps, [52, 35, 26, 17, 13, 8, 6, 4, 3, 2, 1, 1, 1, 1, 1]);
        // Within an interval the target holds.
        assert_eq!(rules.target_points_at(119), 52);
        assert_eq!(rules.target_points_at(120), 35);
    }

    #[test]
    fn offsetting_cancels_the_running_chains_nuisance_first() {
        let (mut pending, mut fixed) = (10, 20);
        assert_eq!(offset(15, &mut pending, &mut fixed), 0);
        assert_eq!((pending, fixed), (0, 15));
        assert_eq!(offset(40, &mut pending, &mut fixed), 25);
        assert_eq!((pending, fixed), (0, 0));
        assert_eq!(offset(7, &mut pending, &mut fixed), 7);
    }

    #[test]
    fn frames_follow_puyoais_counts() {
        let empty = [0; WIDTH];
        // Straight down column 3: 0 + 12 rows × 2 + 20; columns 1 and 6 move 6 and 8 frames.
        assert_eq!(placement_frames(&empty, at(2, 1)), 44);
        assert_eq!(placement_frames(&empty, at(0, 1)), 50);
        assert_eq!(placement_frames(&empty, at(5, 1)), 52);
        // A pair split over columns 0 and 3 high: the first lands at 3, the other falls 3 rows.
        let heights = [0, 0, 3, 0, 0, 0];
        assert_eq!(placement_frames(&heights, at(2, 0)), 18 + 20 + 22 + 20);
        let step = |fallen| Step {
            fallen,
            ..Step::default()
        };
        assert_eq!(step_frames(&step(0)), 50);
        assert_eq!(step_frames(&step(1)), 72);
        assert_eq!(step_frames(&step(3)), 76);
        // 30 nuisance on an empty field: 12 rows of free fall (46) and the landing of many (32).
        let mut field = Field::EMPTY;
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        assert_eq!(drop_nuisance(&mut field, 30, &mut rng), 78);
        assert_eq!(field.to_rows(5), ["oooooo"; 5]);
    }

    #[test]
    fn nuisance_falls_evenly_and_the_odd_ones_on_distinct_columns() {
        for n in 1..=36u32 {
            let mut field = Field::EMPTY;
            let mut rng = ChaCha8Rng::seed_from_u64(u64::from(n));
            drop_nuisance(&mut field, n, &mut rng);
            let heights = field.heights();
            assert_eq!(heights.iter().sum::<u32>(), n, "{n}");
            let extra = heights.iter().filter(|&&h| h > n / 6).count() as u32;
            assert_eq!(extra, n % 6, "{n}: {heights:?}");
            assert!(heights.iter().all(|&h| h == n / 6 || h == n / 6 + 1));
            assert_eq!(field.nuisance(), field.occupied());
        }
        // Seed 3 puts 3 nuisance on columns 1, 2 and 5 (1-based): the stream picks them.
        let mut field = Field::EMPTY;
        drop_nuisance(&mut field, 3, &mut ChaCha8Rng::seed_from_u64(3));
        assert_eq!(field.to_rows(1), ["oo..o."]);
        // A column has room up to row 13: 2 more on a 12-high column keeps 1.
        let mut field = Field::from_text(&["1"; 12]);
        drop_nuisance(&mut field, 6, &mut ChaCha8Rng::seed_from_u64(3));
        assert_eq!(field.heights(), [13, 1, 1, 1, 1, 1]);
    }

    #[test]
    fn a_chains_nuisance_waits_for_its_end_then_falls_after_the_receivers_next_turn() {
        let battle = battle();
        let mut sides = [
            side(&TWO_CHAIN, [pair(2, 3), pair(4, 4), pair(4, 4)], 1),
            side(&[], [pair(1, 2), pair(3, 4), pair(1, 2)], 2),
        ];
        let (a, b) = (
            Script::new(&[at(1, 1), at(5, 1)]),
            Script::new(&[at(5, 1), at(4, 1), at(3, 1), at(0, 1)]),
        );
        let players = seats(&a, &b);
        let mut record = empty_record();
        // Side 0 lands at 4 + 11 × 2 + 20 = 46 frames; its first step (40 points, carried)
        // takes 50 + 3 × 2 + 20 = 76, so the second pops at 122 and sends 5.
        assert_eq!(
            run_until(&battle, &mut sides, players, 123, &mut record),
            None
        );
        assert_eq!(
            (sides[1].pending, sides[1].fixed, record.sent),
            (5, 0, [5, 0])
        );
        assert_eq!(sides[0].carry, 10);
        // Side 1's third turn ends at 174, while the chain runs (it ends at 122 + 72 = 194):
        // nothing falls yet.
        assert_eq!(
            run_until(&battle, &mut sides, players, 175, &mut record),
            None
        );
        assert_eq!(sides[1].position.field.nuisance(), 0);
        assert_eq!(
            run_until(&battle, &mut sides, players, 195, &mut record),
            None
        );
        assert_eq!((sides[1].pending, sides[1].fixed), (0, 5));
        // Its fourth turn ends at 186 + 50 = 236: the 5 fall on 5 distinct columns, taking 12
        // rows of free fall (46) and the landing of 4 to 18 (24) before the next pair (12).
        assert_eq!(
            run_until(&battle, &mut sides, players, 237, &mut record),
            None
        );
        let nuisance = sides[1].position.field.nuisance();
        assert_eq!((nuisance.count_ones(), sides[1].fixed), (5, 0));
        let columns = (0..WIDTH)
            .filter(|&x| nuisance & super::super::field::column_run(x, 0, 13) != 0)
            .count();
        assert_eq!(columns, 5);
        assert_eq!(sides[1].at, 236 + 46 + 24 + 12);
    }

    /// A script that writes down what it saw at each choice: the frame, the nuisance
    /// pending and fixed, when the opponent's chain ends, the carry, its last chain's
    /// nuisance, the target and the pairs placed.
    struct Watcher<'a>(Seat<'a>, Vec<Seen>);

    /// What a [`Watcher`] writes down, in that order.
    type Seen = (u64, u32, u32, Option<u64>, u32, u32, u32, [u32; 2]);

    impl Contestant for Watcher<'_> {
        fn choose(&mut self, game: &Puyo, view: &MatchView<'_>) -> Result<Placement, String> {
            let v = view;
            let seen = (
                v.now,
                v.pending,
                v.fixed,
                v.opponent_chain_ends,
                v.carry,
                v.last_sent,
                v.target_points,
                v.pairs,
            );
            self.1.push(seen);
            self.0.choose(game, view)
        }
    }

    #[test]
    fn a_side_sees_the_nuisance_coming_and_when_the_chain_sending_it_ends() {
        let battle = battle();
        let mut sides = [
            side(&TWO_CHAIN, [pair(2, 3), pair(4, 4), pair(4, 4)], 1),
            side(&[], [pair(1, 2), pair(3, 4), pair(1, 2)], 2),
        ];
        let (first, second) = (
            Script::new(&[at(1, 1), at(5, 1)]),
            Script::new(&[at(5, 1), at(4, 1), at(3, 1), at(0, 1)]),
        );
        let [seat_a, seat_b] = seats(&first, &second);
        let mut a = Watcher(seat_a, Vec::new());
        let mut b = Watcher(seat_b, Vec::new());
        let mut record = empty_record();
        while sides[0].at.min(sides[1].at) < 320 {
            let now = sides[0].at.min(sides[1].at);
            assert_eq!(
                battle.frame(&mut sides, [&mut a, &mut b], now, 1000, &mut record),
                None
            );
        }
        // The timeline of a_chains_nuisance_waits_for_its_end_then_falls_after_the_receivers_
        // next_turn: side 0's 2-chain pops at 46 (its step then takes 76) and 122 (72), sends
        // 5 at 122 and ends at 194. Side 1 sees that end from 64 on, chooses at 126 and 186
        // with the 5 pending, and at 318, after the 5 fell at the end of its fourth turn, with
        // nothing waiting; by then side 0's two 4-4 pairs in column 6 pop (landing at 270 +
        // 48 = 318), a step of 50 frames with nothing to fall.
        assert_eq!(
            b.1,
            [
                (0, 0, 0, None, 0, 0, 70, [0, 0]),
                (64, 0, 0, Some(122 + 72), 0, 0, 70, [1, 1]),
                (126, 5, 0, Some(194), 0, 0, 70, [2, 1]),
                (186, 5, 0, Some(194), 0, 0, 70, [3, 1]),
                (318, 0, 0, Some(318 + 50), 0, 0, 70, [4, 3]),
            ]
        );
        // Side 0, choosing again at 194 + 12, carries the 10 points left over and knows it
        // sent 5; its next pair comes at 206 + 52 + 12.
        assert_eq!(
            a.1,
            [
                (0, 0, 0, None, 0, 0, 70, [0, 0]),
                (206, 0, 0, None, 10, 5, 70, [1, 4]),
                (270, 0, 0, None, 10, 5, 70, [2, 4]),
            ]
        );
    }

    #[test]
    fn a_chain_offsets_the_nuisance_of_a_chain_still_running() {
        let battle = battle();
        let mut sides = [
            side(&TWO_CHAIN, [pair(2, 3), pair(4, 4), pair(4, 4)], 1),
            side(&TWO_CHAIN, [pair(4, 4), pair(2, 3), pair(4, 4)], 2),
        ];
        let (a, b) = (
            Script::new(&[at(1, 1), at(5, 1)]),
            Script::new(&[at(5, 1), at(1, 1), at(5, 1)]),
        );
        let players = seats(&a, &b);
        let mut record = empty_record();
        // Side 1 fires a pair later (its first placement ends at 52, the next pair comes at
        // 64): its second step pops at 64 + 46 + 76 = 186, before side 0's chain ends at 194,
        // and its 5 cancel the 5 waiting: nothing is sent and nothing falls.
        assert_eq!(
            run_until(&battle, &mut sides, players, 300, &mut record),
            None
        );
        assert_eq!(record.sent, [5, 0]);
        assert_eq!(record.max_chain, [2, 2]);
        for s in &sides {
            assert_eq!((s.pending, s.fixed, s.position.field.nuisance()), (0, 0, 0));
        }
    }

    #[test]
    fn simultaneous_steps_both_send_and_both_receive() {
        let battle = battle();
        let pairs = [pair(2, 3), pair(4, 4), pair(4, 4)];
        let mut sides = [side(&TWO_CHAIN, pairs, 1), side(&TWO_CHAIN, pairs, 2)];
        let a = Script::new(&[at(1, 1), at(5, 1)]);
        let b = Script::new(&[at(1, 1), at(5, 1)]);
        let players = seats(&a, &b);
        let mut record = empty_record();
        // Both second steps pop at 122, neither offsets the other's; both chains end at 194,
        // and each side's 5 fall on the other at once.
        assert_eq!(
            run_until(&battle, &mut sides, players, 195, &mut record),
            None
        );
        assert_eq!(record.sent, [5, 5]);
        for s in &sides {
            assert_eq!(s.position.field.nuisance().count_ones(), 5);
        }
    }

    #[test]
    fn an_all_clear_adds_30_nuisance_to_the_next_chain() {
        let battle = battle();
        let mut sides = [
            side(
                &["1.....", "1.....", "1....."],
                [pair(1, 1), pair(2, 2), pair(2, 2)],
                1,
            ),
            side(&[], [pair(1, 2), pair(3, 4), pair(1, 2)], 2),
        ];
        let (a, b) = (
            Script::new(&[at(0, 1), at(0, 1), at(0, 1), at(5, 1)]),
            Script::new(&[at(5, 1), at(3, 1), at(1, 1)]),
        );
        let players = seats(&a, &b);
        let mut record = empty_record();
        // Five 1s pop and empty the field: 10 × 5 × 2 = 100 points, 1 nuisance and 30 carried.
        assert_eq!(
            run_until(&battle, &mut sides, players, 100, &mut record),
            None
        );
        assert_eq!((record.sent[0], sides[0].carry), (1, 30));
        assert!(sides[0].all_clear && sides[0].position.all_clear);
        // Two pairs of 2s later, four 2s pop (40 points): (40 + 30) / 70 = 1, and the all
        // clear's 30; the field is empty again, so another is owed. (The first turn ends at
        // 44 + 50 = 94, the second at 106 + 50 = 156, the third's step pops at 168 + 46 and
        // ends at 264; the fourth pair comes at 276.)
        assert_eq!(
            run_until(&battle, &mut sides, players, 270, &mut record),
            None
        );
        assert_eq!(record.pairs[0], 3);
        assert_eq!((record.sent[0], sides[0].carry), (1 + 31, 0));
        assert!(sides[0].all_clear);
        assert_eq!(sides[0].position.field, Field::EMPTY);
    }

    /// Column 3 eleven high, no group anywhere.
    const ELEVEN: [&str; 11] = [
        "..1...", "..2...", "..1...", "..2...", "..1...", "..2...", "..1...", "..2...", "..1...",
        "..2...", "..1...",
    ];

    fn end_of(moves: [&[Placement]; 2], fixed: [u32; 2]) -> (MatchEnd, String) {
        let battle = battle();
        let pairs = [pair(3, 4), pair(3, 4), pair(3, 4)];
        let mut sides = [side(&ELEVEN, pairs, 1), side(&ELEVEN, pairs, 2)];
        sides[0].fixed = fixed[0];
        sides[1].fixed = fixed[1];
        let (a, b) = (Script::new(moves[0]), Script::new(moves[1]));
        let mut record = empty_record();
        run_until(&battle, &mut sides, seats(&a, &b), 1000, &mut record).expect("the match ends")
    }

    #[test]
    fn filling_column_3_of_row_12_loses_and_both_at_once_draw() {
        let filled = "filled column 3 of row 12".to_string();
        let (safe, fatal) = (&[at(0, 1)][..], &[at(2, 1)][..]);
        assert_eq!(
            end_of([fatal, safe], [0, 0]),
            (MatchEnd::Won(1), filled.clone())
        );
        assert_eq!(
            end_of([safe, fatal], [0, 0]),
            (MatchEnd::Won(0), filled.clone())
        );
        assert_eq!(
            end_of([fatal, fatal], [0, 0]),
            (MatchEnd::Draw, filled.clone())
        );
        // Six nuisance put one on every column, column 3's in row 12; five need not.
        assert_eq!(
            end_of([safe, safe], [0, 6]),
            (MatchEnd::Won(0), filled.clone())
        );
        // A side the player has no placement for loses when it would place.
        struct Stuck;
        impl Policy<Puyo> for Stuck {
            fn choose(&self, _: &Puyo, _: &Position) -> Option<Placement> {
                None
            }
        }
        let battle = battle();
        let seeds = Seeds {
            queue: 1,
            sides: [2, 3],
        };
        let record = battle.play(seats(&Script::new(safe), &Stuck), seeds, 10);
        assert_eq!(record.end, MatchEnd::Won(0));
        assert_eq!(record.reason, "had no placement left");
    }

    #[test]
    fn at_most_30_nuisance_fall_a_turn() {
        let mut side = side(&[], [pair(1, 2), pair(3, 4), pair(1, 2)], 1);
        side.fixed = 40;
        assert!(!side.end_turn(&BattleRules::TSU, 100));
        assert_eq!(side.position.field.nuisance().count_ones(), 30);
        assert_eq!(side.fixed, 10);
        // 30 on an empty field take 78 frames, then 12 before the next pair.
        assert_eq!(side.at, 100 + 78 + 12);
    }

    #[test]
    fn a_match_is_a_function_of_its_seeds() {
        let battle = battle();
        let (a, b) = (
            Script::new(&[at(0, 1), at(1, 1), at(3, 0)]),
            Script::new(&[at(5, 1), at(4, 3), at(0, 0)]),
        );
        let seeds = Seeds {
            queue: 7,
            sides: [8, 9],
        };
        let first = battle.play(seats(&a, &b), seeds, 3);
        let (a, b) = (
            Script::new(&[at(0, 1), at(1, 1), at(3, 0)]),
            Script::new(&[at(5, 1), at(4, 3), at(0, 0)]),
        );
        assert_eq!(battle.play(seats(&a, &b), seeds, 3), first);
        assert_eq!(first.end, MatchEnd::Draw);
        assert_eq!(first.reason, "both sides placed 3 pairs");
        assert_eq!(first.pairs, [3, 3]);
        // Non-Tsu games and rules that cannot convert points are refused.
        let error = Battle::new(Puyo::new(Rules::Programming), BattleRules::TSU).unwrap_err();
        assert_eq!(
            error.to_string(),
            "puyo versus is played under the tsu rules (--rules tsu)"
        );
        let zero = BattleRules {
            target_points: 0,
            ..BattleRules::TSU
        };
        assert!(Battle::new(Puyo::new(Rules::Tsu), zero).is_err());
    }
}
