//! Tetris on guideline rules, the game the versus field plays (`--rules guideline`): 10 × 40
//! with 20 rows shown, 7-bag, hold, five previews, SRS with kicks, soft drop, T-spins,
//! combos, back-to-back, perfect clears, and garbage (docs/guideline.md).
//!
//! A third Tetris ruleset sharing the research rules' board (`tetris::board::Board`, one bit
//! mask a column) with its own move generator ([`movegen`]). An episode is a match against an
//! opponent ([`Mode::Versus`], see [`matches`]) or one of three solo modes.

mod contestant;
pub mod features;
pub mod listing;
pub mod matches;
pub mod movegen;
mod page;
pub mod piece;
pub mod rules;
pub mod tbp;

use crate::settings::GameSpec;
use anyhow::{Result, bail};
use features::FEATURE_NAMES;
use matches::{Contestant, MatchEnd, PolicySide};
use movegen::{Movement, Placement, Spawn, SpinRule};
use piece::Kicks;
use rand::RngExt;
use rand_chacha::ChaCha8Rng;
use rules::{AttackTable, Locked, MAX_PREVIEWS, Margin, Rules, Side, VISIBLE};
use stacktune_game::Episodes;
use stacktune_game::Render;
use stacktune_game::SearchHooks;
use stacktune_game::{
    EpisodeLimits, EpisodeResult, FeatureMask, FeatureValues, Game, Outcome, Policy, SharedPolicy,
};
use std::time::Duration;
use tbp::front::BotSettings;

/// A move: whether the piece is swapped with hold first, and where it locks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move {
    pub hold: bool,
    pub placement: Placement,
}

/// What an episode measures.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// A match against an opponent: 1 for a win, ½ for a draw, 0 for a loss.
    Versus,
    /// 40 lines as fast as the pieces allow: lines per 100 pieces until the 40th line (a
    /// perfect sprint is 40 lines in 100 pieces).
    Sprint,
    /// Attack sent per piece over the game's pieces (`--max-pieces`, default 100); a game
    /// lost early counts its missing pieces as sending nothing.
    Attack,
    /// Pieces placed before topping out while a seeded stream sends 1 to 4 rows every fourth
    /// piece (at most `--max-pieces`, default 1,000).
    Survival,
}

impl Mode {
    pub const NAMES: [&'static str; 4] = ["versus", "sprint", "attack", "survival"];

    fn parse(name: &str) -> Result<Mode> {
        Ok(match name {
            "versus" => Mode::Versus,
            "sprint" => Mode::Sprint,
            "attack" => Mode::Attack,
            "survival" => Mode::Survival,
            other => bail!(
                "unknown mode `{other}`; valid modes: {}",
                Self::NAMES.join(", ")
            ),
        })
    }

    pub fn name(self) -> &'static str {
        Self::NAMES[self as usize]
    }
}

/// Lines a sprint clears.
pub const SPRINT_LINES: u32 = 40;
/// Pieces a game lasts at most when no limit is given: an attack run's length, a survival
/// run's and a match's (a match this long is a draw).
const ATTACK_PIECES: u64 = 100;
const SURVIVAL_PIECES: u64 = 1_000;
pub const MATCH_PIECES: u64 = 1_000;
/// The survival stream: every this many pieces an attack of 1 to 4 rows.
const SURVIVAL_EVERY: u32 = 4;

/// The opponent a versus game plays when none is named: the hand-set start, Cold Clear's
/// published default weights as stacktune's features read them (weights/versus/hand.toml).
pub const HAND_WEIGHTS: &str = include_str!("../../../data/hand.toml");
pub const HAND_NAME: &str = "hand";

/// The shipped versus player, a bot's weights when it is given none: tuned by self-play from
/// the hand-set weights, which it beats (weights/versus/tuned.toml, docs/self-play.md).
pub const TUNED_WEIGHTS: &str = include_str!("../../../data/tuned.toml");
/// Where [`TUNED_WEIGHTS`] come from, as a bot's `info` names its weights.
pub const TUNED_SOURCE: &str = "weights/versus/tuned.toml";

/// The prefix that makes an opponent (or a `versus` player) a TBP bot's command line.
pub const BOT_PREFIX: &str = "tbp:";

/// A bot opponent's thinking time a piece when none is given (`--think-ms`).
pub const THINK_MS: u64 = 100;

/// How long a bot opponent may take to answer beyond its thinking time when none is given
/// (`--timeout-ms`).
pub const TIMEOUT_MS: u64 = 5_000;

/// What makes a side that is no bot into a policy: given the game, the side's role (`opponent`,
/// `player`) and its name (`hand`, a weights file), its player, or a refusal naming the role.
pub type PolicyOf<'a> = dyn Fn(&Guideline, &str, &str) -> Result<SharedPolicy<Guideline>> + 'a;

/// An opponent of the tuned side in versus episodes.
#[derive(Clone, Debug)]
pub struct Opponent {
    pub name: String,
    pub kind: OpponentKind,
}

/// What plays an opponent's side.
#[derive(Clone)]
pub enum OpponentKind {
    /// A policy the layers above hand in: a weight set under its search.
    Policy(SharedPolicy<Guideline>),
    /// A bot behind the Tetris Bot Protocol, started afresh for each game.
    Bot(BotSettings),
}

impl std::fmt::Debug for OpponentKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            OpponentKind::Policy(_) => f.write_str("Policy"),
            OpponentKind::Bot(settings) => write!(f, "Bot({settings:?})"),
        }
    }
}

/// Guideline Tetris under its rules and mode.
#[derive(Clone, Debug)]
pub struct Guideline {
    rules: Rules,
    mode: Mode,
    opponents: Vec<Opponent>,
    /// A bot opponent's thinking time a piece, and its longest answer beyond it.
    think: Duration,
    timeout: Duration,
}

impl Guideline {
    pub fn new(rules: Rules, mode: Mode) -> Guideline {
        Guideline {
            rules,
            mode,
            opponents: Vec::new(),
            think: Duration::from_millis(THINK_MS),
            timeout: Duration::from_millis(TIMEOUT_MS),
        }
    }

    pub fn rules_of(&self) -> &Rules {
        &self.rules
    }

    pub fn mode(&self) -> Mode {
        self.mode
    }

    /// The game `spec` describes; its opponents that are no bot `policy` makes into policies
    /// (`hand`, weights files: the layers above read them and give them their search).
    pub fn from_spec(spec: &GameSpec, policy: &PolicyOf<'_>) -> Result<Guideline> {
        let name = spec.rules.as_deref().unwrap_or("guideline");
        let mut rules = Rules::named(name).ok_or_else(|| {
            anyhow::anyhow!(
                "unknown rules `{name}`; guideline tetris takes {}",
                Rules::NAMES.join(", ")
            )
        })?;
        if let Some(n) = spec.previews {
            if n > MAX_PREVIEWS {
                bail!("--previews {n} is out of range 0..={MAX_PREVIEWS}");
            }
            rules.previews = n;
        }
        rules.hold = !spec.no_hold;
        rules.movement = movement(spec, rules.movement)?;
        if let Some(a) = &spec.attack {
            rules.attack = AttackTable::parse(a)?;
        }
        if let Some(d) = spec.garbage_delay {
            rules.garbage_delay = d;
        }
        if let Some(c) = spec.garbage_cap {
            if c == 0 {
                bail!("--garbage-cap 0 would never let garbage rise; give 1 or more");
            }
            rules.garbage_cap = c;
        }
        if let Some(m) = spec.messiness {
            if !(0.0..=1.0).contains(&m) {
                bail!("--messiness {m} is out of range 0..=1 (the chance a row's hole moves)");
            }
            rules.messiness = m;
        }
        rules.lock_out &= !spec.no_lock_out;
        rules.margin = margin(spec)?;
        let mode = Mode::parse(spec.mode.as_deref().unwrap_or("versus"))?;
        let mut game = Guideline::new(rules, mode);
        game.think = Duration::from_millis(spec.think_ms.unwrap_or(THINK_MS));
        game.timeout = Duration::from_millis(spec.timeout_ms.unwrap_or(TIMEOUT_MS));
        if mode != Mode::Versus && !spec.opponents.is_empty() {
            bail!(
                "--opponent is for --mode versus; {} is played alone",
                mode.name()
            );
        }
        if mode == Mode::Versus {
            let names: Vec<&str> = match spec.opponents.is_empty() {
                true => vec![HAND_NAME],
                false => spec.opponents.iter().map(String::as_str).collect(),
            };
            for name in names {
                let opponent = game.entrant("opponent", name, policy)?;
                game.opponents.push(opponent);
            }
        }
        Ok(game)
    }

    /// A TBP bot from its command line, thinking and answering within this game's times
    /// (`--think-ms`, `--timeout-ms`).
    pub fn bot(&self, command: &str) -> Result<BotSettings> {
        Ok(BotSettings {
            command: command.parse().map_err(anyhow::Error::msg)?,
            think: self.think,
            timeout: self.timeout,
        })
    }

    /// A side of a match by name: `tbp:COMMAND` (a bot's command line) or else what `policy`
    /// makes of the name (the compiled-in hand-set weights, a guideline weights file under the
    /// file's own search). `role` names the side in a refusal, there and in `policy`'s (`opponent` of a run, `player`
    /// of `versus`), so both read the same names the same way.
    pub fn entrant(&self, role: &str, name: &str, policy: &PolicyOf<'_>) -> Result<Opponent> {
        let kind = match name.strip_prefix(BOT_PREFIX) {
            Some(command) => OpponentKind::Bot(
                self.bot(command)
                    .map_err(|e| anyhow::anyhow!("{role} `{name}`: {e}"))?,
            ),
            None => OpponentKind::Policy(policy(self, role, name)?),
        };
        Ok(Opponent {
            name: name.to_string(),
            kind,
        })
    }

    /// The opponents versus episodes meet, in order.
    pub fn opponent_list(&self) -> &[Opponent] {
        &self.opponents
    }

    /// Plays `mv` on `side` for real: locks it, deals the next piece, and if it cleared
    /// nothing lets the garbage due rise. The move is lost when it locks out, the garbage
    /// pushes the stack past the top or the next piece cannot spawn.
    pub fn play(&self, side: &mut Side, mv: Move) -> Played {
        let locked = side.lock(&self.rules, mv.hold, &mv.placement, true);
        let topped = locked.lines == 0 && side.rise(&self.rules);
        let blocked = side
            .queue
            .current()
            .is_none_or(|piece| movegen::spawn(&side.board, piece, &self.rules.movement).is_none());
        Played {
            locked,
            lost: locked.locked_out || topped || blocked,
        }
    }

    /// A new side for a game dealt from `piece_seed`, its garbage holes from `garbage_seed`.
    pub fn side(&self, piece_seed: u64, garbage_seed: u64) -> Side {
        Side::new(&self.rules, piece_seed, garbage_seed)
    }

    /// Plays a solo game with `player` until it ends by the mode's rule, the cap or a loss.
    fn solo(
        &self,
        player: &impl Policy<Guideline>,
        mut rng: ChaCha8Rng,
        limits: EpisodeLimits,
        observe: &mut impl FnMut(&Side, &EpisodeResult),
    ) -> EpisodeResult {
        let mut side = self.start(&mut rng);
        let cap = limits.max_moves.unwrap_or(match self.mode {
            Mode::Attack => ATTACK_PIECES,
            Mode::Survival => SURVIVAL_PIECES,
            _ => MATCH_PIECES,
        });
        let mut result = EpisodeResult::default();
        let (mut lines, mut attack, mut lost) = (0u64, 0u64, false);
        observe(&side, &result);
        while result.moves < cap && !player.stopped() {
            if self.mode == Mode::Survival && side.placed.is_multiple_of(SURVIVAL_EVERY) {
                let rows = rng.random_range(1..=4);
                side.incoming
                    .push(rows, side.placed + self.rules.garbage_delay);
            }
            let Some(mv) = player.choose(self, &side) else {
                lost = true;
                break;
            };
            let played = self.play(&mut side, mv);
            result.moves += 1;
            lines += played.locked.lines as u64;
            attack += played.locked.attack as u64;
            result.score = self.solo_score(lines, attack, result.moves, cap);
            observe(&side, &result);
            if played.lost {
                lost = true;
                break;
            }
            if self.mode == Mode::Sprint && lines >= SPRINT_LINES as u64 {
                break;
            }
        }
        result.score = self.solo_score(lines, attack, result.moves, cap);
        result.details[..4].copy_from_slice(&[result.moves, lines, attack, lost as u64]);
        result
    }

    /// A solo game's score so far.
    fn solo_score(&self, lines: u64, attack: u64, pieces: u64, cap: u64) -> f64 {
        match self.mode {
            Mode::Sprint => 100.0 * lines.min(SPRINT_LINES as u64) as f64 / pieces.max(1) as f64,
            Mode::Attack => attack as f64 / cap as f64,
            _ => pieces as f64,
        }
    }
}

/// What playing one move did.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Played {
    pub locked: Locked,
    /// The side lost with this move.
    pub lost: bool,
}

/// What versus episodes report per game.
const VERSUS_DETAILS: [&str; 6] = ["wins", "draws", "losses", "pieces", "sent", "received"];
/// What solo episodes report per game.
const SOLO_DETAILS: [&str; 4] = ["pieces", "lines", "attack", "lost"];

impl Game for Guideline {
    type Position = Side;

    type Move = Move;

    fn name(&self) -> &'static str {
        "tetris"
    }

    fn rules(&self) -> String {
        let r = &self.rules;
        let m = &r.movement;
        // Only a movement other than the guideline's is named, so the guideline's reads as ever.
        let mut movement = String::new();
        if m.kicks != Kicks::Srs {
            movement += &format!(", {} kicks", m.kicks.name());
        }
        if m.half_turns {
            movement += ", 180 turns";
        }
        if m.spins != SpinRule::TSpins {
            movement += &format!(", {} spins", m.spins.name());
        }
        if m.spawn != Spawn::Guideline {
            movement += &format!(", {} spawn", m.spawn.name());
        }
        format!(
            "guideline {}, {} previews{}{movement}, {} attack, garbage delay {} cap {} messiness {}{}{}",
            self.mode.name(),
            r.previews,
            if r.hold { ", hold" } else { ", no hold" },
            r.attack.name(),
            r.garbage_delay,
            r.garbage_cap,
            r.messiness,
            if r.lock_out { "" } else { ", no lock out" },
            r.margin
                .map(|m| format!(", margin from piece {} +{} % a piece", m.from, m.percent))
                .unwrap_or_default()
        )
    }

    fn feature_names(&self) -> &'static [&'static str] {
        &FEATURE_NAMES
    }

    fn start(&self, rng: &mut ChaCha8Rng) -> Side {
        let (pieces, garbage) = (rng.random(), rng.random());
        self.side(pieces, garbage)
    }

    fn for_each_move(
        &self,
        position: &Side,
        mask: FeatureMask,
        visit: &mut impl FnMut(Move, &Side, &Outcome, &FeatureValues),
    ) {
        let mut values = FeatureValues::default();
        for hold in [false, true] {
            let Some(piece) = position.piece_for(&self.rules, hold) else {
                continue;
            };
            // Holding the piece that is already held changes nothing.
            if hold && position.hold.is_some() && position.hold == position.queue.current() {
                continue;
            }
            movegen::placements(&position.board, piece, &self.rules.movement, |placement| {
                let mut after = *position;
                let locked = after.lock(&self.rules, hold, &placement, false);
                let landing = placement
                    .pose
                    .cells()
                    .iter()
                    .map(|c| c.1)
                    .min()
                    .unwrap_or(0);
                features::write(&after, piece, landing, &locked, mask, &mut values);
                let outcome = Outcome {
                    cleared: locked.lines,
                    points: locked.attack as f64,
                    chains: 0,
                    game_over: locked.locked_out,
                    terminal_value: locked.locked_out.then_some(f64::NEG_INFINITY),
                };
                visit(Move { hold, placement }, &after, &outcome, &values);
            });
        }
    }

    fn shows_next(&self, position: &Side) -> bool {
        position.queue.shown() > 0
    }

    fn apply(&self, position: &mut Side, mv: Move, _rng: &mut ChaCha8Rng) -> Outcome {
        let played = self.play(position, mv);
        Outcome {
            cleared: played.locked.lines,
            points: played.locked.attack as f64,
            chains: 0,
            game_over: played.lost,
            terminal_value: None,
        }
    }

    fn score_name(&self) -> &'static str {
        match self.mode {
            Mode::Versus => "match score",
            Mode::Sprint => "lines per 100 pieces",
            Mode::Attack => "attack per piece",
            Mode::Survival => "pieces survived",
        }
    }
}

impl SearchHooks for Guideline {
    /// A line counts what each of its moves did (clears, spins, attack), as Cold Clear's
    /// search adds each placement's reward along its path.
    fn banked_features(&self) -> FeatureMask {
        features::MOVE_FEATURES
    }
}

impl Episodes for Guideline {
    fn episode(
        &self,
        player: &impl Policy<Self>,
        index: u64,
        mut rng: ChaCha8Rng,
        limits: EpisodeLimits,
        observe: &mut impl FnMut(&Side, &EpisodeResult),
    ) -> EpisodeResult {
        if self.mode != Mode::Versus {
            return self.solo(player, rng, limits, observe);
        }
        let opponent = &self.opponents[(index % self.opponents.len() as u64) as usize];
        let seeds = matches::Seeds::draw(&mut rng);
        let mut tuned = PolicySide::new(player);
        let mut other = opponent.kind.seat();
        let cap = limits.max_moves.unwrap_or(MATCH_PIECES);
        let mut result = EpisodeResult::default();
        let record = matches::play(
            self,
            [&mut tuned as &mut dyn Contestant, &mut *other],
            seeds,
            cap,
            &mut |sides: &[Side; 2], _| {
                result.moves = sides[0].placed as u64;
                observe(&sides[0], &result);
            },
        );
        let outcome = record.end.score_of(0);
        result.score = outcome;
        result.moves = record.pieces as u64;
        result.details[..6].copy_from_slice(&[
            (record.end == MatchEnd::Won(0)) as u64,
            (record.end == MatchEnd::Draw) as u64,
            (record.end == MatchEnd::Won(1)) as u64,
            record.pieces as u64,
            record.sent[0] as u64,
            record.sent[1] as u64,
        ]);
        result
    }

    fn opponents(&self) -> Vec<String> {
        match self.mode {
            Mode::Versus => self.opponents.iter().map(|o| o.name.clone()).collect(),
            _ => Vec::new(),
        }
    }

    fn with_rivals(&self, rivals: &[SharedPolicy<Guideline>]) -> Option<Guideline> {
        if self.mode != Mode::Versus {
            return None;
        }
        let mut game = self.clone();
        for (i, policy) in rivals.iter().enumerate() {
            game.opponents.push(Opponent {
                name: format!("rival {}", i + 1),
                kind: OpponentKind::Policy(policy.clone()),
            });
        }
        Some(game)
    }

    fn pairing(&self) -> Option<&'static str> {
        (self.mode == Mode::Versus).then_some("both sides on the same pieces")
    }

    fn describe_episode(&self, index: u64) -> Option<String> {
        (self.mode == Mode::Versus).then(|| {
            let o = &self.opponents[(index % self.opponents.len() as u64) as usize];
            format!("left: the weights, right: {}", o.name)
        })
    }

    fn detail_names(&self) -> &'static [&'static str] {
        match self.mode {
            Mode::Versus => &VERSUS_DETAILS,
            _ => &SOLO_DETAILS,
        }
    }
}

impl Render for Guideline {
    fn render(&self, position: &Side) -> String {
        render(position)
    }
}

/// The visible field and the two rows above it, with hold, queue and pending garbage.
pub fn render(side: &Side) -> String {
    let mut s = String::new();
    for y in (0..VISIBLE as usize + 2).rev() {
        s.push(if y >= VISIBLE as usize { ' ' } else { '|' });
        for x in 0..movegen::WIDTH as usize {
            s.push(if side.board.filled(x, y) { '#' } else { '.' });
        }
        s.push(if y >= VISIBLE as usize { ' ' } else { '|' });
        s.push('\n');
    }
    s.push('+');
    s.push_str(&"-".repeat(movegen::WIDTH as usize));
    s.push_str("+\n");
    let letter = |p: u8| piece::LETTERS[p as usize];
    s += &format!(
        "hold {}  queue {}{}  combo {}  b2b {}  incoming {}\n",
        side.hold.map_or('-', letter),
        side.queue.current().map_or('-', letter),
        side.queue.previews().map(letter).collect::<String>(),
        side.combo,
        side.b2b,
        side.incoming.total()
    );
    s
}

/// `movement` with what `--kicks`, `--turn-180`, `--spins` and `--spawn` ask for, checked.
fn movement(spec: &GameSpec, mut movement: Movement) -> Result<Movement> {
    let choice = |flag: &str, name: &str, names: &[&str]| {
        anyhow::anyhow!("unknown --{flag} `{name}`; valid: {}", names.join(", "))
    };
    if let Some(k) = &spec.kicks {
        movement.kicks = Kicks::parse(k).ok_or_else(|| choice("kicks", k, &Kicks::NAMES))?;
    }
    if let Some(h) = spec.turn_180 {
        movement.half_turns = h;
    }
    if let Some(s) = &spec.spins {
        movement.spins = SpinRule::parse(s).ok_or_else(|| choice("spins", s, &SpinRule::NAMES))?;
    }
    if let Some(s) = &spec.spawn {
        movement.spawn = Spawn::parse(s).ok_or_else(|| choice("spawn", s, &Spawn::NAMES))?;
    }
    Ok(movement)
}

/// The margin `--margin` and `--margin-increase` ask for, checked.
fn margin(spec: &GameSpec) -> Result<Option<Margin>> {
    match (spec.margin, spec.margin_increase) {
        (None, None) => Ok(None),
        (None, Some(_)) => {
            bail!("--margin-increase needs --margin, the piece attacks start growing at")
        }
        (Some(from), percent) => {
            let percent = percent.unwrap_or(1);
            if !(1..=1000).contains(&percent) {
                bail!("--margin-increase {percent} is out of range 1..=1000 (per cent a piece)");
            }
            Ok(Some(Margin { from, percent }))
        }
    }
}
