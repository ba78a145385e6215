//! What a locked piece does under guideline rules: lines cleared, the clear's kind, combo,
//! back-to-back, perfect clears, the attack it sends, and the garbage that rises in return.
//!
//! Every rule on which the major games differ is a setting ([`Rules`]); docs/guideline.md
//! lists the defaults in one table with their sources.

use super::movegen::{HEIGHT, Movement, Placement, Spawn, Spin, SpinRule, WIDTH};
use super::piece::Kicks;
use super::piece::LETTERS;
use crate::tetris::board::Board;
use anyhow::{Result, bail};
use rand::RngExt;
use stacktune_base::rng::{Purpose, stream};

/// Rows of the visible field: a piece that locks wholly above them locks out.
pub const VISIBLE: i8 = 20;

/// Most previews a position shows.
pub const MAX_PREVIEWS: u8 = 6;

/// How much a clear sends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AttackTable {
    /// The guideline's versus table as Puyo Puyo Tetris and Tetris 99 play it (and Cold
    /// Clear's battle rules): single 0, double 1, triple 2, tetris 4; T-spin single 2,
    /// double 4, triple 6; mini single 0, mini double 1; back-to-back +1; combo
    /// 0 0 1 1 2 2 3 3 4 4 4 5 (then 5); a perfect clear sends 10 in place of the rest.
    Guideline,
    /// TETR.IO's season-1 table (its formulas as chouhy/Tetrio-Attack-Table reproduces them):
    /// the same base, back-to-back chaining ⌊1 + ln(1 + 0.8·b)⌋ (+ a third of the fraction
    /// past the first), combos multiplying by 1 + 0.25·c and at least ln(1 + 1.25·c) from
    /// the second on, rounded down; a perfect clear adds 10.
    Tetrio,
    /// TETR.IO's TETRA LEAGUE season 2 (halp1/triangle's replay-tested engine,
    /// docs/guideline.md): back-to-back a flat +1; the same combo multiplier and floor; a
    /// perfect clear adds 5 and charges back-to-back instead of breaking it; a clear that
    /// breaks a chain of B2B ×4 or more (five difficult clears) releases it as a surge of as
    /// many rows.
    TetrioSeason2,
}

impl AttackTable {
    pub const NAMES: [&'static str; 3] = ["guideline", "tetrio", "tetrio-s2"];

    pub fn parse(name: &str) -> Result<AttackTable> {
        match name {
            "guideline" => Ok(AttackTable::Guideline),
            "tetrio" => Ok(AttackTable::Tetrio),
            "tetrio-s2" => Ok(AttackTable::TetrioSeason2),
            other => bail!(
                "unknown attack table `{other}`; valid tables: {}",
                Self::NAMES.join(", ")
            ),
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            AttackTable::Guideline => "guideline",
            AttackTable::Tetrio => "tetrio",
            AttackTable::TetrioSeason2 => "tetrio-s2",
        }
    }
}

/// The guideline's combo bonus by the clears before this one in the combo (11 and on: 5).
const COMBO_BONUS: [u32; 12] = [0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 4, 5];

/// The rules on which the major games differ.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rules {
    /// Pieces shown after the current one (the guideline shows 5; 0 to [`MAX_PREVIEWS`]).
    pub previews: u8,
    /// Whether the player may hold.
    pub hold: bool,
    /// How pieces move and what counts as a spin.
    pub movement: Movement,
    pub attack: AttackTable,
    /// Pieces the receiver places after an attack is sent before it can rise (each clearing
    /// placement of the receiver in between cancels it first).
    pub garbage_delay: u32,
    /// Most garbage rows that rise after one placement; the rest waits for the next.
    pub garbage_cap: u32,
    /// The chance that a garbage row's hole moves from the row below's column, within one
    /// attack; each new attack's rows start in a new column.
    pub messiness: f64,
    /// Whether a piece that locks wholly above the visible 20 rows loses (the guideline's
    /// lock out).
    pub lock_out: bool,
    /// Attacks grow once a match has gone on this long, so that two sides that survive
    /// anything still reach a result.
    pub margin: Option<Margin>,
}

impl Rules {
    /// The names of the rulesets that start from their own defaults: `--rules guideline` and
    /// `--rules tetrio`.
    pub const NAMES: [&'static str; 2] = ["guideline", "tetrio"];

    /// TETR.IO's TETRA LEAGUE, as far as these rules go (docs/guideline.md, "TETR.IO rules"):
    /// SRS+ with half turns, all-mini+ spins, its spawn row, season 2's attack, no lock out.
    /// Garbage keeps its guideline settings, which are TETR.IO's in pieces rather than frames.
    pub fn tetrio() -> Rules {
        Rules {
            movement: Movement {
                kicks: Kicks::SrsPlus,
                half_turns: true,
                spins: SpinRule::AllMiniPlus,
                spawn: Spawn::Tetrio,
            },
            attack: AttackTable::TetrioSeason2,
            lock_out: false,
            ..Rules::default()
        }
    }

    /// The defaults of the ruleset `name` (one of [`NAMES`](Rules::NAMES)), each setting still
    /// a flag away.
    pub fn named(name: &str) -> Option<Rules> {
        match name {
            "guideline" => Some(Rules::default()),
            "tetrio" => Some(Rules::tetrio()),
            _ => None,
        }
    }

    /// The rows an attack of `rows` sends from a side's `piece`-th piece (1 its first): as
    /// the table says, or more past the margin.
    pub fn rows_sent(&self, rows: u32, piece: u32) -> u32 {
        self.margin.map_or(rows, |m| m.rows(rows, piece))
    }
}

/// TETR.IO's margin time, counted in pieces so that a match stays a function of its seed:
/// from piece `from` on, each piece a side places adds `percent` per cent to the rows every
/// attack sends, rounded down. Without it two players that only defend draw every capped
/// match, and self-play tunes a population of such players, to which a draw is as good as
/// anything it can reach.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Margin {
    pub from: u32,
    pub percent: u32,
}

impl Margin {
    /// The rows an attack of `rows` sends from a side's `piece`-th piece (1 its first).
    pub fn rows(&self, rows: u32, piece: u32) -> u32 {
        let percent = 100 + u64::from(self.percent) * u64::from(piece.saturating_sub(self.from));
        (u64::from(rows) * percent / 100).min(u64::from(u32::MAX)) as u32
    }
}

impl Default for Rules {
    fn default() -> Self {
        Rules {
            previews: 5,
            hold: true,
            movement: Movement::default(),
            attack: AttackTable::Guideline,
            garbage_delay: 1,
            garbage_cap: 8,
            messiness: 0.0,
            lock_out: true,
            margin: None,
        }
    }
}

/// What one locked piece did.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Locked {
    /// The piece that locked (what a spin is named after).
    pub piece: u8,
    /// Rows cleared.
    pub lines: u32,
    pub spin: Option<Spin>,
    pub perfect_clear: bool,
    /// A back-to-back bonus was paid.
    pub back_to_back: bool,
    /// Clears in a row before this one, when this one clears (the combo it extends).
    pub combo: Option<u32>,
    /// Rows the clear is worth, before cancelling incoming garbage.
    pub attack: u32,
    /// Of that, what the combo added.
    pub combo_attack: u32,
    /// Of that, rows that went out to the opponent (the rest cancelled incoming garbage).
    pub sent: u32,
    /// The piece locked wholly above the visible field (with `lock_out`).
    pub locked_out: bool,
}

impl Locked {
    /// A tetris or any spin that clears: what keeps back-to-back going.
    pub fn difficult(&self) -> bool {
        self.lines == 4 || (self.lines > 0 && self.spin.is_some_and(|s| s != Spin::None))
    }
}

/// Garbage on its way to a side: rows, and the piece count of the receiver at which it may
/// rise. At most [`MAX_INCOMING`] attacks wait; more merge into the last.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Incoming {
    rows: [u16; MAX_INCOMING],
    due: [u32; MAX_INCOMING],
    len: u8,
}

pub const MAX_INCOMING: usize = 8;

impl Incoming {
    /// Rows waiting in all.
    pub fn total(&self) -> u32 {
        self.rows[..self.len as usize]
            .iter()
            .map(|&r| r as u32)
            .sum()
    }

    /// The waiting attacks, oldest first: (rows, due at the receiver's piece count).
    pub fn attacks(&self) -> impl Iterator<Item = (u32, u32)> + '_ {
        (0..self.len as usize).map(|i| (self.rows[i] as u32, self.due[i] & !PARTLY_RISEN))
    }

    /// An attack of `rows` that may rise once the receiver has placed `due` pieces.
    pub fn push(&mut self, rows: u32, due: u32) {
        if rows == 0 {
            return;
        }
        if self.len as usize == MAX_INCOMING {
            let last = MAX_INCOMING - 1;
            self.rows[last] = self.rows[last].saturating_add(rows.min(u16::MAX as u32) as u16);
            return;
        }
        self.rows[self.len as usize] = rows.min(u16::MAX as u32) as u16;
        self.due[self.len as usize] = due;
        self.len += 1;
    }

    /// Cancels up to `attack` rows, oldest first; returns what is left of the attack.
    pub fn cancel(&mut self, mut attack: u32) -> u32 {
        while attack > 0 && self.len > 0 {
            let take = attack.min(self.rows[0] as u32);
            attack -= take;
            self.rows[0] -= take as u16;
            if self.rows[0] == 0 {
                self.pop_front();
            }
        }
        attack
    }

    fn pop_front(&mut self) {
        let n = self.len as usize;
        self.rows.copy_within(1..n, 0);
        self.due.copy_within(1..n, 0);
        self.len -= 1;
    }

    /// Takes up to `cap` rows of the attacks due by piece count `placed`, oldest first, as
    /// (rows, whether they start a new attack) in rising order.
    fn take_due(&mut self, placed: u32, cap: u32, mut visit: impl FnMut(u32, bool)) {
        let mut left = cap;
        while left > 0 && self.len > 0 && self.due[0] & !PARTLY_RISEN <= placed {
            let take = left.min(self.rows[0] as u32);
            // A partly risen attack keeps its column: only its first rows start a new one.
            visit(take, self.fresh(0));
            left -= take;
            self.rows[0] -= take as u16;
            if self.rows[0] == 0 {
                self.pop_front();
            } else {
                self.due[0] |= PARTLY_RISEN;
            }
        }
    }

    fn fresh(&self, i: usize) -> bool {
        self.due[i] & PARTLY_RISEN == 0
    }
}

/// Marks an attack of which some rows have risen (in its due count's top bit).
const PARTLY_RISEN: u32 = 1 << 31;

/// The pieces to come, dealt from seeded 7-bags by their number in the sequence: piece n is
/// bag n / 7's (n mod 7)-th, whichever side draws it and however often it holds, so both
/// sides of a match see the same pieces.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Queue {
    seed: u64,
    /// The current piece then the ones after it (more than are shown: the dealer's own).
    pieces: [u8; QUEUE_LEN],
    len: u8,
    /// The sequence number of the first piece not yet in `pieces`.
    next: u32,
    /// How many of the pieces after the current one the player has been shown: a search
    /// that places pieces ahead uses up what it was shown.
    shown: u8,
}

const QUEUE_LEN: usize = 16;

impl Queue {
    /// The sequence of `seed`, `previews` pieces shown after the current one.
    pub fn new(seed: u64, previews: u8) -> Queue {
        let mut queue = Queue {
            seed,
            pieces: [0; QUEUE_LEN],
            len: 0,
            next: 0,
            shown: previews,
        };
        queue.refill();
        queue
    }

    /// A queue holding exactly `pieces` (current first), all shown, and dealing nothing after
    /// them: what a TBP `start` gives a bot.
    pub fn given(pieces: &[u8]) -> Queue {
        let mut queue = Queue {
            seed: 0,
            pieces: [0; QUEUE_LEN],
            len: pieces.len().min(QUEUE_LEN) as u8,
            next: u32::MAX,
            shown: pieces.len().saturating_sub(1).min(QUEUE_LEN - 1) as u8,
        };
        queue.pieces[..queue.len as usize].copy_from_slice(&pieces[..queue.len as usize]);
        queue
    }

    fn refill(&mut self) {
        while (self.len as usize) + 7 <= QUEUE_LEN && self.next != u32::MAX {
            let mut rng = stream(self.seed, Purpose::Pieces, 0, (self.next / 7) as u64);
            // Fisher–Yates over the seven pieces.
            let mut bag = [0u8, 1, 2, 3, 4, 5, 6];
            for i in (1..7).rev() {
                bag.swap(i, rng.random_range(0..=i));
            }
            self.pieces[self.len as usize..self.len as usize + 7].copy_from_slice(&bag);
            self.len += 7;
            self.next += 7;
        }
    }

    /// The piece to place now; `None` when a given queue ran out.
    pub fn current(&self) -> Option<u8> {
        (self.len > 0).then(|| self.pieces[0])
    }

    /// The `i`-th piece after the current one, if it has been shown.
    pub fn preview(&self, i: usize) -> Option<u8> {
        (i < self.shown as usize && i + 1 < self.len as usize).then(|| self.pieces[i + 1])
    }

    /// The pieces shown after the current one.
    pub fn previews(&self) -> impl Iterator<Item = u8> + '_ {
        (0..self.shown as usize).map_while(|i| self.preview(i))
    }

    /// Pieces shown after the current one.
    pub fn shown(&self) -> u8 {
        self.shown.min(self.len.saturating_sub(1))
    }

    /// The current piece is used up: the next becomes current. `reveal` deals one more piece
    /// into view (play); without it the player has one piece less in view (a search).
    pub fn advance(&mut self, reveal: bool) {
        debug_assert!(self.len > 0);
        self.pieces.copy_within(1..self.len as usize, 0);
        self.len -= 1;
        if reveal {
            self.refill();
        } else {
            self.shown = self.shown.saturating_sub(1);
        }
    }

    /// Appends a piece a front end reveals (TBP `new_piece`).
    pub fn push(&mut self, piece: u8) {
        if (self.len as usize) < QUEUE_LEN {
            self.pieces[self.len as usize] = piece;
            self.len += 1;
            self.shown = self.len - 1;
        }
    }

    /// The pieces of the bag the last shown piece was dealt from that come after it (the
    /// whole next bag when it ends one): what TBP's `seven_bag` randomizer state reports. Empty
    /// for a queue a front end gave, whose bags are not known.
    pub fn bag_after_shown(&self) -> Vec<u8> {
        if self.next == u32::MAX {
            return Vec::new();
        }
        // Sequence numbers: the current piece is next − len, the last shown `shown` later.
        let first = self.next as usize - self.len as usize;
        let after = first + self.shown() as usize + 1;
        if after.is_multiple_of(7) {
            // The shown pieces end a bag: the next is whole.
            return (0..7).collect();
        }
        // Bags are dealt whole, so the rest of this one is in the queue.
        (after..after.next_multiple_of(7))
            .map(|n| self.pieces[n - first])
            .collect()
    }
}

/// One side's game: its board, pieces, hold, combo, back-to-back and incoming garbage.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Side {
    pub board: Board,
    pub queue: Queue,
    pub hold: Option<u8>,
    /// Consecutive clears so far (0: no combo going).
    pub combo: u32,
    /// Consecutive difficult clears so far (back-to-back is on from 1).
    pub b2b: u32,
    pub incoming: Incoming,
    /// Pieces placed.
    pub placed: u32,
    /// The seed of this side's garbage holes, and the column of the last risen row's hole.
    garbage_seed: u64,
    hole: u8,
    /// Garbage rows risen so far (the hole stream's index).
    rows_risen: u32,
}

impl Side {
    /// A new game on an empty board: pieces from `piece_seed`, garbage holes from
    /// `garbage_seed`.
    pub fn new(rules: &Rules, piece_seed: u64, garbage_seed: u64) -> Side {
        Side {
            board: Board::empty(WIDTH as usize, HEIGHT as usize),
            queue: Queue::new(piece_seed, rules.previews),
            hold: None,
            combo: 0,
            b2b: 0,
            incoming: Incoming::default(),
            placed: 0,
            garbage_seed,
            hole: 0,
            rows_risen: 0,
        }
    }

    /// A side as a front end describes it (TBP `start`): no seeds, nothing more dealt.
    pub fn given(board: Board, queue: Queue, hold: Option<u8>, combo: u32, b2b: bool) -> Side {
        Side {
            board,
            queue,
            hold,
            combo,
            b2b: b2b as u32,
            incoming: Incoming::default(),
            placed: 0,
            garbage_seed: 0,
            hole: 0,
            rows_risen: 0,
        }
    }

    /// The piece a placement with `hold` places: the held piece, or the next one when hold
    /// is empty; `None` when that piece is not known or hold is not allowed now.
    pub fn piece_for(&self, rules: &Rules, hold: bool) -> Option<u8> {
        if !hold {
            return self.queue.current();
        }
        // A hold swaps out the current piece: with none (a front end's `start` with a held
        // piece and an empty queue) there is nothing to hold.
        if !rules.hold || self.queue.current().is_none() {
            return None;
        }
        match self.hold {
            Some(h) => Some(h),
            None => self.queue.preview(0),
        }
    }

    /// Locks `placement` (of the piece [`piece_for`](Side::piece_for) gives): moves the queue
    /// and hold, clears rows, scores the clear, cancels incoming garbage with it. `reveal`
    /// deals the next piece into view (play) or not (a search).
    pub fn lock(
        &mut self,
        rules: &Rules,
        hold: bool,
        placement: &Placement,
        reveal: bool,
    ) -> Locked {
        if hold {
            let current = self.queue.current().expect("a placement has a piece");
            if self.hold.is_none() {
                self.queue.advance(reveal);
            }
            self.hold = Some(current);
        }
        self.queue.advance(reveal);
        self.placed += 1;
        let mut lowest = i8::MAX;
        for (x, y) in placement.pose.cells() {
            self.board.fill(x as usize, 1 << y);
            lowest = lowest.min(y);
        }
        let full = self.board.full_rows();
        let lines = full.count_ones();
        if lines > 0 {
            self.board.remove_rows(full);
        }
        let mut locked = Locked {
            piece: placement.pose.piece,
            lines,
            spin: Some(placement.spin),
            perfect_clear: lines > 0 && self.board.cell_count() == 0,
            locked_out: rules.lock_out && lowest >= VISIBLE,
            ..Locked::default()
        };
        self.score(rules, &mut locked);
        locked.sent = self.incoming.cancel(locked.attack);
        locked
    }

    /// Fills in the clear's attack and moves combo and back-to-back on.
    fn score(&mut self, rules: &Rules, locked: &mut Locked) {
        if locked.lines == 0 {
            self.combo = 0;
            return;
        }
        let spin = locked.spin.unwrap_or(Spin::None);
        let base = match (spin, locked.lines) {
            (Spin::Full, n) => 2 * n,
            // Only an I clears four lines, and only as a mini (TETR.IO's all-mini+): a
            // tetris's worth, as TETR.IO's client is reported to send (docs/guideline.md).
            (Spin::Mini, 4) => 4,
            (Spin::Mini, n) => n - 1,
            (Spin::None, 4) => 4,
            (Spin::None, n) => n - 1,
        };
        let combo = self.combo;
        locked.combo = Some(combo);
        let chain = self.b2b;
        // Season 2's perfect clear adds one to the chain, as a difficult clear does.
        let season2 = rules.attack == AttackTable::TetrioSeason2;
        let charges = locked.difficult() || (season2 && locked.perfect_clear);
        locked.back_to_back = charges && chain > 0;
        self.b2b = if charges { chain + 1 } else { 0 };
        self.combo += 1;
        let (attack, combo_attack) = match rules.attack {
            AttackTable::Guideline => {
                let bonus = COMBO_BONUS[(combo as usize).min(COMBO_BONUS.len() - 1)];
                let attack = base + locked.back_to_back as u32 + bonus;
                if locked.perfect_clear {
                    (10, 0)
                } else {
                    (attack, bonus)
                }
            }
            AttackTable::Tetrio => {
                let b2b = if locked.back_to_back {
                    tetrio_b2b(chain)
                } else {
                    0.0
                };
                let (a, combo_attack) = tetrio_combo(base as f64 + b2b, combo);
                let attack = a + if locked.perfect_clear { 10 } else { 0 };
                (attack, combo_attack)
            }
            AttackTable::TetrioSeason2 => {
                let b2b = if locked.back_to_back { 1.0 } else { 0.0 };
                let (a, combo_attack) = tetrio_combo(base as f64 + b2b, combo);
                // TETR.IO counts the chain from −1: B2B ×4 is five difficult clears.
                let surge = if charges || chain < 5 { 0 } else { chain - 1 };
                let attack = surge + a + if locked.perfect_clear { 5 } else { 0 };
                (attack, combo_attack)
            }
        };
        locked.attack = attack;
        locked.combo_attack = combo_attack;
    }

    /// After a placement that cleared nothing, the garbage due rises (at most the cap), each
    /// attack's rows with one hole; `true` when the stack was pushed past the top.
    pub fn rise(&mut self, rules: &Rules) -> bool {
        let mut due = [(0u32, false); MAX_INCOMING];
        let mut n = 0;
        self.incoming
            .take_due(self.placed, rules.garbage_cap, |rows, fresh| {
                due[n] = (rows, fresh);
                n += 1;
            });
        let mut topped = false;
        for &(rows, fresh) in &due[..n] {
            topped |= self.board.raise(rows);
            // Rows rise bottom last: the first row of an attack is its highest.
            for (i, row) in (0..rows).rev().enumerate() {
                // Row r of the side's garbage draws from stream r.
                let mut rng = stream(
                    self.garbage_seed,
                    Purpose::Garbage,
                    0,
                    self.rows_risen as u64,
                );
                self.rows_risen += 1;
                if fresh && i == 0 {
                    self.hole = rng.random_range(0..WIDTH as u8);
                } else if rules.messiness > 0.0 && rng.random_bool(rules.messiness) {
                    self.hole = (self.hole + rng.random_range(1..WIDTH as u8)) % WIDTH as u8;
                }
                for x in (0..WIDTH as usize).filter(|&x| x != self.hole as usize) {
                    self.board.fill(x, 1 << row);
                }
            }
        }
        topped
    }
}

/// TETR.IO's combo: `a` multiplied by 1 + 0.25·c in combo `c`, at least ln(1 + 1.25·c) from
/// the second on, rounded down; with what the combo added.
fn tetrio_combo(a: f64, combo: u32) -> (u32, u32) {
    let c = combo as f64;
    let mut combined = a * (1.0 + 0.25 * c);
    if combo > 1 {
        combined = combined.max((1.25 * c).ln_1p());
    }
    let added = (combined.floor() - a.floor()).max(0.0) as u32;
    (combined.floor() as u32, added)
}

/// TETR.IO's back-to-back bonus at chain `b` (b ≥ 1).
fn tetrio_b2b(b: u32) -> f64 {
    let l = (0.8 * b as f64).ln_1p();
    (1.0 + l).floor() + if b == 1 { 0.0 } else { (1.0 + l.fract()) / 3.0 }
}

/// The name of a clear as players say it (`T-spin double`, `tetris`, ...).
pub fn clear_name(locked: &Locked) -> String {
    let lines = ["", "single", "double", "triple", "tetris"][locked.lines.min(4) as usize];
    let piece = LETTERS[locked.piece as usize];
    let mut s = match (locked.spin.unwrap_or(Spin::None), locked.lines) {
        (Spin::None, 0) => String::new(),
        (Spin::None, _) => lines.to_string(),
        (Spin::Mini, 0) => format!("{piece}-spin mini"),
        (Spin::Mini, _) => format!("{piece}-spin mini {lines}"),
        (Spin::Full, 0) => format!("{piece}-spin"),
        (Spin::Full, 4) => format!("{piece}-spin tetris"),
        (Spin::Full, _) => format!("{piece}-spin {lines}"),
    };
    if locked.perfect_clear {
        s += ", perfect clear";
    }
    s
}

/// The piece letters of a queue, current first.
pub fn letters(pieces: impl Iterator<Item = u8>) -> String {
    pieces.map(|p| LETTERS[p as usize]).collect()
}

#[cfg(test)]
mod tests {
    use super::Margin;

    #[test]
    fn a_margin_grows_attacks_by_its_per_cent_a_piece_rounded_down() {
        let margin = Margin {
            from: 100,
            percent: 1,
        };
        // Before and at the margin's piece, attacks are as sent.
        assert_eq!(margin.rows(4, 1), 4);
        assert_eq!(margin.rows(4, 100), 4);
        // 4 rows at 150 %; 1 row stays 1 until 200 %; nothing stays nothing.
        assert_eq!(margin.rows(4, 150), 6);
        assert_eq!(margin.rows(1, 199), 1);
        assert_eq!(margin.rows(1, 200), 2);
        assert_eq!(margin.rows(0, 1_000), 0);
        let steep = Margin {
            from: 0,
            percent: 1_000,
        };
        assert_eq!(steep.rows(u32::MAX, u32::MAX), u32::MAX);
    }
}
