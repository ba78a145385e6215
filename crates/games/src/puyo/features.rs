//! The Puyo features: what a linear player can weigh about a placement.
//!
//! None depends on which colour is which: swapping two colours everywhere leaves every value
//! unchanged, so weights learnt on one colour draw apply to any other. Heights count Tsu's hidden
//! 13th row; groups only count the 12 visible rows, where puyos pop.
//!
//! | name | definition |
//! | --- | --- |
//! | `move_chain` | chain length the move fired (0 when nothing popped); for a player that looks ahead (2-ply, beams) the longest chain any placement of its line fires |
//! | `move_score` | points the move scored under the ruleset (Tsu: an owed all-clear bonus included); for a player that looks ahead the points of every placement of its line |
//! | `move_chain_squared` | `move_chain`²: with a negative `move_chain` weight a convex value of the chain fired, so the player holds short chains, worth less than the potential they destroy, and fires long ones |
//! | `connected_2` | groups of exactly 2 orthogonally connected same-colour puyos |
//! | `connected_3` | groups of exactly 3 orthogonally connected same-colour puyos |
//! | `potential_chain` | longest chain fired by dropping 1 to 3 puyos of one colour into one column (the fewest that fire), simulated over every column and colour; 0 when no such trigger fires |
//! | `potential_score` | score of that chain (between equally long chains, the higher score is the best trigger) |
//! | `trigger_puyos` | puyos the best trigger needs, 1 to 3 (fewer wins a tie; 0 when none fires) |
//! | `trigger_height` | row (1 = bottom) where the best trigger's lowest puyo lands (lower wins a tie; 0 when none fires) |
//! | `potential_leftover` | puyos left on the field after the best trigger's chain has fired (all puyos when no trigger fires): the puyos the chain does not use |
//! | `crowding` | (puyos on the field)² / 72, 72 on a full visible field: a convex cost of filling up, so keeping a chain instead of firing it gets dearer the fuller the field is |
//! | `max_height` | height of the tallest column |
//! | `bumpiness` | sum of the height differences of neighbouring columns |
//! | `u_deviation` | Σₓ \|dₓ − mean(d)\| with dₓ = hₓ − Uₓ and U = (2, 1, 0, 0, 1, 2): how far the surface is from a U, whatever its level |
//! | `death_column_height` | height of column x = 2, whose 12th row ends the game |
//! | `overfill` | (puyos on the field − 64)², 0 up to 64: the visible field's last eight cells priced steeply, where `crowding`'s gentle curve lets a player keep a chain until the trigger is buried and the field fills |
//! | `form` | puyos of the keyed groups of the best chain form (GTR, SGTR, Fron; [`super::forms`]) the field keeps; 0 when it breaks all three |
//! | `form_broken` | 1 when the field breaks all three forms, else 0: the price of giving up the base |

use super::field::{
    Field, Links, MAX_COLOURS, VISIBLE, VISIBLE_ROWS, WIDTH, column_run, neighbours,
};
use super::forms::best_form;
use super::rules::{Chain, Rules, SPAWN_COLUMN};
use stacktune_game::{FeatureMask, FeatureValues};
use std::cmp::Reverse;

/// Feature names in their internal order.
pub const FEATURE_NAMES: [&str; 18] = [
    "move_chain",
    "move_score",
    "move_chain_squared",
    "connected_2",
    "connected_3",
    "potential_chain",
    "potential_score",
    "trigger_puyos",
    "trigger_height",
    "potential_leftover",
    "crowding",
    "max_height",
    "bumpiness",
    "u_deviation",
    "death_column_height",
    "overfill",
    "form",
    "form_broken",
];

const MOVE_CHAIN: usize = 0;
const MOVE_SCORE: usize = 1;
const MOVE_CHAIN_SQUARED: usize = 2;
const CONNECTED_2: usize = 3;
const CONNECTED_3: usize = 4;
const POTENTIAL_CHAIN: usize = 5;
const POTENTIAL_SCORE: usize = 6;
const TRIGGER_PUYOS: usize = 7;
const TRIGGER_HEIGHT: usize = 8;
const POTENTIAL_LEFTOVER: usize = 9;
const CROWDING: usize = 10;
const MAX_HEIGHT: usize = 11;
const BUMPINESS: usize = 12;
const U_DEVIATION: usize = 13;
const DEATH_COLUMN_HEIGHT: usize = 14;
const OVERFILL: usize = 15;
const FORM: usize = 16;
const FORM_BROKEN: usize = 17;

/// Every feature.
pub const ALL_FEATURES: FeatureMask = (1 << FEATURE_NAMES.len()) - 1;

const fn bits(features: &[usize]) -> FeatureMask {
    let mut m = 0;
    let mut i = 0;
    while i < features.len() {
        m |= 1 << features[i];
        i += 1;
    }
    m
}

/// What a line fired and scored ([`stacktune_game::Game::fired_features`]).
pub const FIRED_FEATURES: FeatureMask = bits(&[MOVE_CHAIN, MOVE_SCORE, MOVE_CHAIN_SQUARED]);

const CONNECTIVITY: FeatureMask = bits(&[CONNECTED_2, CONNECTED_3]);
const FORMS: FeatureMask = bits(&[FORM, FORM_BROKEN]);
const POTENTIAL: FeatureMask = bits(&[
    POTENTIAL_CHAIN,
    POTENTIAL_SCORE,
    TRIGGER_PUYOS,
    TRIGGER_HEIGHT,
    POTENTIAL_LEFTOVER,
]);

/// The surface shape `u_deviation` measures against: edges high, middle low, the usual shape
/// for building chains.
const U_SHAPE: [f64; WIDTH] = [2.0, 1.0, 0.0, 0.0, 1.0, 2.0];

/// Cells of the visible field: `crowding` is 72 when they are all filled.
const VISIBLE_CELLS: f64 = (WIDTH as u32 * VISIBLE_ROWS) as f64;

/// Puyos past which `overfill` counts: all but the visible field's last eight cells (four
/// pairs).
const OVERFILL_FROM: f64 = VISIBLE_CELLS - 8.0;

/// Writes the features in `mask` for a move that fired `chain` and left `field`.
#[inline]
pub fn compute(
    field: &Field,
    chain: &Chain,
    rules: Rules,
    mask: FeatureMask,
    out: &mut FeatureValues,
) {
    let v = &mut out.0;
    v[MOVE_CHAIN] = chain.chains as f64;
    v[MOVE_SCORE] = chain.score as f64;
    v[MOVE_CHAIN_SQUARED] = (chain.chains * chain.chains) as f64;
    if mask & CONNECTIVITY != 0 {
        let (twos, threes) = connectivity(field);
        v[CONNECTED_2] = twos as f64;
        v[CONNECTED_3] = threes as f64;
    }
    if mask & POTENTIAL != 0 {
        let p = remembered_potential(field, rules);
        v[POTENTIAL_CHAIN] = p.chain as f64;
        v[POTENTIAL_SCORE] = p.score as f64;
        v[TRIGGER_PUYOS] = p.puyos as f64;
        v[TRIGGER_HEIGHT] = p.height as f64;
        v[POTENTIAL_LEFTOVER] = p.leftover.unwrap_or_else(|| field.count()) as f64;
    }
    if mask & FORMS != 0 {
        let form = best_form(field);
        v[FORM] = form.unwrap_or(0) as f64;
        v[FORM_BROKEN] = form.is_none() as u8 as f64;
    }
    let puyos = field.count() as f64;
    v[CROWDING] = puyos * puyos / VISIBLE_CELLS;
    let over = (puyos - OVERFILL_FROM).max(0.0);
    v[OVERFILL] = over * over;
    let h = field.heights();
    v[MAX_HEIGHT] = h.iter().copied().max().unwrap_or(0) as f64;
    v[BUMPINESS] = h.windows(2).map(|w| w[0].abs_diff(w[1])).sum::<u32>() as f64;
    v[DEATH_COLUMN_HEIGHT] = h[SPAWN_COLUMN] as f64;
    if mask & (1 << U_DEVIATION) != 0 {
        let d: [f64; WIDTH] = std::array::from_fn(|x| h[x] as f64 - U_SHAPE[x]);
        let mean = d.iter().sum::<f64>() / WIDTH as f64;
        v[U_DEVIATION] = d.iter().map(|dx| (dx - mean).abs()).sum();
    }
}

/// Groups of exactly 2 and of exactly 3 visible puyos.
fn connectivity(field: &Field) -> (u32, u32) {
    field
        .planes()
        .iter()
        .fold((0, 0), |(twos, threes), &plane| {
            let links = Links::of(plane & VISIBLE);
            (twos + links.pairs(), threes + links.triples())
        })
}

/// The best trigger of a field: the chain it fires, what it needs and where.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Potential {
    pub chain: u32,
    pub score: u32,
    pub puyos: u32,
    pub height: u32,
    /// Puyos on the field once the chain has fired; `None` when no trigger fires.
    pub leftover: Option<u32>,
}

impl Potential {
    /// Longer chains win, then higher scores, then fewer puyos, then lower triggers, then
    /// fewer puyos left: every tie left has equal values, so the colour order of the search
    /// never shows.
    fn key(&self) -> (u32, u32, Reverse<u32>, Reverse<u32>, Reverse<Option<u32>>) {
        (
            self.chain,
            self.score,
            Reverse(self.puyos),
            Reverse(self.height),
            Reverse(self.leftover),
        )
    }
}

/// Slots of each thread's table of potentials already found, a power of two.
const REMEMBERED: usize = 1 << 16;

/// One slot: a field's colour planes, the rules its chain was resolved under, and its
/// potential. Only fields without nuisance are kept (every solo field), so a slot holds the
/// colour planes alone and the table stays as small as before nuisance had a plane.
type Remembered = ([u128; MAX_COLOURS], Rules, Potential);

thread_local! {
    /// Potentials this thread found, by field. A search meets the same field many times (the
    /// futures of a sampled beam draw the same pairs, and the next move searches again what
    /// this one searched), and the potential is over half of a node's cost, so each thread
    /// keeps the last field of each slot. Every slot starts as the empty field, whose
    /// potential is none under any rules; a field is compared whole, so a slot never answers
    /// for another field and the features never depend on what was searched before.
    static POTENTIALS: std::cell::RefCell<Vec<Remembered>> = std::cell::RefCell::new(
        vec![(*Field::EMPTY.planes(), Rules::Tsu, Potential::default()); REMEMBERED]
    );
}

/// [`potential`], from this thread's table when the field was met before.
#[inline]
fn remembered_potential(field: &Field, rules: Rules) -> Potential {
    if field.nuisance() != 0 {
        return potential(field, rules);
    }
    let planes = field.planes();
    let hash = planes.iter().fold(rules as u64, |h, &p| {
        (h ^ p as u64 ^ (p >> 64) as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)
    });
    let slot = (hash >> (64 - REMEMBERED.trailing_zeros())) as usize;
    POTENTIALS.with(|table| {
        let mut table = table.borrow_mut();
        let (f, r, p) = &mut table[slot];
        if f != planes || *r != rules {
            *p = potential(field, rules);
            (*f, *r) = (*planes, rules);
        }
        *p
    })
}

/// The best chain a field can fire by dropping 1 to 3 puyos of one colour into one column,
/// found by simulating every column and every colour that touches the drop.
pub fn potential(field: &Field, rules: Rules) -> Potential {
    let heights = field.heights();
    let mut best = Potential::default();
    for (x, &h) in heights.iter().enumerate() {
        if h >= VISIBLE_ROWS {
            continue;
        }
        // Trigger puyos must pop, so they stay in the visible rows.
        let room = (VISIBLE_ROWS - h).min(3);
        let touching = neighbours(column_run(x, h, room)) & VISIBLE;
        for (i, &plane) in field.planes().iter().enumerate() {
            let within = plane & VISIBLE;
            if within & touching == 0 {
                continue;
            }
            for n in 1..=room {
                let trigger = column_run(x, h, n);
                let with_trigger = within | trigger;
                if Links::of(with_trigger).in_groups_of_four(with_trigger) & trigger == 0 {
                    continue;
                }
                let mut after = *field;
                after.put(trigger, i as u8 + 1);
                let chain = rules.resolve(&mut after, trigger, &mut |_| {});
                let found = Potential {
                    chain: chain.chains,
                    score: chain.score,
                    puyos: n,
                    height: h + 1,
                    leftover: Some(after.count()),
                };
                if found.key() > best.key() {
                    best = found;
                }
                break;
            }
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all(f: &Field, rules: Rules) -> FeatureValues {
        let mut out = FeatureValues::default();
        compute(f, &Chain::default(), rules, ALL_FEATURES, &mut out);
        out
    }

    fn value(values: &FeatureValues, name: &str) -> f64 {
        values.0[FEATURE_NAMES.iter().position(|n| *n == name).unwrap()]
    }

    #[test]
    fn connectivity_counts_groups_of_two_and_three() {
        // Colour 1: a pair in column 0 and a lone puyo at (3, 1); colour 2: a group of five,
        // which is neither; colour 3: three in an L; colour 4: a pair in column 5.
        let f = Field::from_text(&[
            "1.....", //
            "1.22..", //
            "3.21.4", //
            "3322.4",
        ]);
        let v = all(&f, Rules::Programming);
        assert_eq!(value(&v, "connected_2"), 2.0);
        assert_eq!(value(&v, "connected_3"), 1.0);
    }

    #[test]
    fn heights_bumpiness_u_shape_and_death_column() {
        let f = Field::from_text(&[
            "2.....", //
            "1....2", //
            "23.1.2", //
            "134142",
        ]);
        // Heights 4, 2, 1, 2, 1, 3.
        let v = all(&f, Rules::Programming);
        assert_eq!(value(&v, "max_height"), 4.0);
        assert_eq!(value(&v, "bumpiness"), (2 + 1 + 1 + 1 + 2) as f64);
        assert_eq!(value(&v, "death_column_height"), 1.0);
        // 13 puyos.
        assert_eq!(value(&v, "crowding"), 169.0 / 72.0);
        assert_eq!(value(&v, "overfill"), 0.0);
        // Two colours in one keyed group of each form: 2 and 1 at rows 1 and 2 of column 0 in
        // the GTR's a, 3 and 4 at (1, 0) and (2, 0) in the SGTR's c, 1 and 3 at (0, 0) and
        // (1, 0) in Fron's c.
        assert_eq!(value(&v, "form"), 0.0);
        assert_eq!(value(&v, "form_broken"), 1.0);
        // d = h − U = (2, 1, 1, 2, 0, 1), mean 7/6:
        // 5/6 + 1/6 + 1/6 + 5/6 + 7/6 + 1/6 = 20/6.
        assert!((value(&v, "u_deviation") - 20.0 / 6.0).abs() < 1e-12);
    }

    #[test]
    fn u_shaped_surface_has_no_deviation() {
        let f = Field::from_text(&[
            "1....1", //
            "12..21", //
            "123321",
        ]);
        // Heights 3, 2, 1, 1, 2, 3 = U + 1.
        assert_eq!(value(&all(&f, Rules::Programming), "u_deviation"), 0.0);
    }

    #[test]
    fn potential_finds_the_two_chain_and_its_trigger() {
        // Column 0 holds three 2s under three 1s; a 1 sits at (1, 0). One 2 dropped into
        // column 1 lands at row 2 beside the 2s: four 2s pop, the 1s fall next to the 1 at
        // (1, 0), four 1s pop. Every other trigger fires one chain.
        let f = Field::from_text(&[
            "1.....", //
            "1.....", //
            "1.....", //
            "2.....", //
            "2.....", //
            "21....",
        ]);
        let p = potential(&f, Rules::Tsu);
        // Tsu: 10 × 4 × 1 for the first step (power 0), 10 × 4 × 8 for the second.
        let two_chain = Potential {
            chain: 2,
            score: 40 + 320,
            puyos: 1,
            height: 2,
            leftover: Some(0),
        };
        assert_eq!(p, two_chain);
        let v = all(&f, Rules::Programming);
        assert_eq!(value(&v, "potential_chain"), 2.0);
        // Programming: 10 × 4 × (8 + 2) + 10 × 4 × (16 + 2).
        assert_eq!(value(&v, "potential_score"), 400.0 + 720.0);
        assert_eq!(value(&v, "trigger_puyos"), 1.0);
        assert_eq!(value(&v, "trigger_height"), 2.0);
        assert_eq!(value(&v, "potential_leftover"), 0.0);
    }

    #[test]
    fn potential_prefers_fewer_puyos_then_lower_triggers() {
        // Every trigger fires one chain of four. The two 4s at x = 0 need two more: on top of
        // them (row 3) or beside them in column 1 (row 1); the 3 at (5, 1) needs three.
        let f = Field::from_text(&["4....3", "4....1"]);
        let p = potential(&f, Rules::Programming);
        let expected = Potential {
            chain: 1,
            score: 400,
            puyos: 2,
            height: 1,
            leftover: Some(2),
        };
        assert_eq!(p, expected);
    }

    #[test]
    fn no_room_or_no_puyo_means_no_trigger() {
        // Twelve full rows where no two neighbours share a colour.
        let rows: Vec<String> = (0..12)
            .map(|y| {
                (0..6)
                    .map(|x| char::from(b'1' + ((x + y) % 3) as u8))
                    .collect()
            })
            .collect();
        let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
        let full = Field::from_text(&rows);
        assert_eq!(potential(&full, Rules::Programming), Potential::default());
        assert_eq!(potential(&Field::EMPTY, Rules::Tsu), Potential::default());
        let v = all(&full, Rules::Programming);
        assert_eq!(value(&v, "connected_2"), 0.0);
        assert_eq!(value(&v, "max_height"), 12.0);
        assert_eq!(value(&v, "potential_leftover"), 72.0);
        assert_eq!(value(&v, "crowding"), 72.0);
        // 72 puyos, 8 past the 64 it starts from.
        assert_eq!(value(&v, "overfill"), 64.0);
        // Its bottom row puts two colours in a keyed group of each form.
        assert_eq!(value(&v, "form"), 0.0);
        assert_eq!(value(&v, "form_broken"), 1.0);
    }

    #[test]
    fn remembered_potentials_answer_for_their_own_field_and_rules() {
        // The two rules score the same 2-chain differently, so a slot that answered for the
        // other rules or another field would show here.
        let chain = Field::from_text(&["1.....", "1.....", "1.....", "2.....", "2.....", "21...."]);
        let single = Field::from_text(&["4....3", "4....1"]);
        for _ in 0..2 {
            for f in [chain, single, Field::EMPTY] {
                for rules in [Rules::Tsu, Rules::Programming] {
                    let v = all(&f, rules);
                    let p = potential(&f, rules);
                    assert_eq!(value(&v, "potential_chain"), p.chain as f64);
                    assert_eq!(value(&v, "potential_score"), p.score as f64);
                    assert_eq!(value(&v, "trigger_height"), p.height as f64);
                }
            }
        }
        assert_ne!(
            potential(&chain, Rules::Tsu).score,
            potential(&chain, Rules::Programming).score
        );
    }

    #[test]
    fn features_ignore_which_colour_is_which() {
        let a = Field::from_text(&["1.....", "1.....", "1.....", "2.....", "2.....", "21...."]);
        let b = Field::from_text(&["3.....", "3.....", "3.....", "5.....", "5.....", "53...."]);
        assert_eq!(all(&a, Rules::Tsu), all(&b, Rules::Tsu));
    }
}
