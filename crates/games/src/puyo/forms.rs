//! Chain forms: the left-side bases human players build long chains on (GTR, its Sub-Marine
//! variant SGTR, and Fron), as colour relations a field keeps or breaks.
//!
//! A beam that scores its leaves by the chain a trigger fires sees a base only once it fires;
//! until then a form says which puyos belong together and which must stay apart, so the player
//! can lay a base whose later links fold onto it. A form names groups of cells in the bottom
//! five rows of columns 0–3. A *keyed* group's puyos must all share one colour; two groups
//! listed *apart* must share none. The form is broken when a placed puyo violates either rule;
//! empty cells never do, so a field keeps every form until it breaks one.

use super::field::{Field, WIDTH, cell};

/// Most groups a form names.
const GROUPS: usize = 8;
/// Most pairs of groups a form keeps apart.
const APART: usize = 8;

/// One form, as cell masks: its keyed groups, and the pairs of groups kept apart. Unused
/// entries are empty masks, which no field breaks.
pub struct Form {
    keyed: [u128; GROUPS],
    apart: [(u128, u128); APART],
}

/// Index of a group letter `a`..`h`.
const fn group_index(letter: u8) -> usize {
    (letter - b'a') as usize
}

impl Form {
    /// A form from its rows, top row first, with `.` for cells it leaves free and letters `a`..
    /// for groups; `keyed` and `apart` name groups by letter. Evaluated at compile time, so a
    /// malformed form does not build.
    const fn new(rows: [&str; 5], keyed: &[u8], apart: &[[u8; 2]]) -> Form {
        let mut groups = [0u128; GROUPS];
        let mut r = 0;
        while r < rows.len() {
            let row = rows[r].as_bytes();
            assert!(row.len() == WIDTH);
            let y = (rows.len() - 1 - r) as u32;
            let mut x = 0;
            while x < WIDTH {
                if row[x] != b'.' {
                    groups[group_index(row[x])] |= cell(x, y);
                }
                x += 1;
            }
            r += 1;
        }
        let mut keyed_groups = [0u128; GROUPS];
        let mut k = 0;
        while k < keyed.len() {
            keyed_groups[k] = groups[group_index(keyed[k])];
            k += 1;
        }
        assert!(apart.len() <= APART);
        let mut pairs = [(0, 0); APART];
        let mut p = 0;
        while p < apart.len() {
            pairs[p] = (
                groups[group_index(apart[p][0])],
                groups[group_index(apart[p][1])],
            );
            p += 1;
        }
        Form {
            keyed: keyed_groups,
            apart: pairs,
        }
    }

    /// Puyos of the keyed groups on `field`, or `None` when the field breaks the form.
    pub fn matched(&self, field: &Field) -> Option<u32> {
        let planes = field.planes();
        let occupied = field.occupied();
        let mut matched = 0;
        for group in self.keyed {
            if planes.iter().filter(|&&p| p & group != 0).count() > 1 {
                return None;
            }
            matched += (occupied & group).count_ones();
        }
        for (a, b) in self.apart {
            if planes.iter().any(|&p| p & a != 0 && p & b != 0) {
                return None;
            }
        }
        Some(matched)
    }
}

/// The forms a field is measured against.
pub const FORMS: [Form; 3] = [
    // GTR: the L of `a` fires first, folding `b` over the turn onto column 2, then `c` and
    // `d` stack the chain upward.
    Form::new(
        ["ddd...", "cccd..", "abe...", "aabe..", "bbe..."],
        b"abc",
        &[*b"ab", *b"ac", *b"bc", *b"be", *b"cd", *b"ce"],
    ),
    // SGTR: the GTR with its turn one puyo further right.
    Form::new(
        ["eee...", "ddde..", "aacf..", "abbcf.", "bccf.."],
        b"abcd",
        &[*b"ab", *b"ac", *b"ad", *b"bc", *b"cd", *b"cf", *b"de"],
    ),
    // Fron: the turn's foot split between columns 0–1 and 3.
    Form::new(
        ["eee...", "ddde..", "aacf..", "abbg..", "ccbcf."],
        b"abcd",
        &[
            *b"ab", *b"ac", *b"ad", *b"bc", *b"bg", *b"cd", *b"cf", *b"de",
        ],
    ),
];

/// Puyos of the keyed groups in the best form `field` keeps, or `None` when it breaks all.
pub fn best_form(field: &Field) -> Option<u32> {
    FORMS.iter().filter_map(|f| f.matched(field)).max()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_built_gtr_keeps_the_gtr_and_counts_its_keyed_puyos() {
        // The GTR base: a = 1, b = 2, c = 3; e = 4 stays apart from 2 and 3.
        let f = Field::from_text(&[
            "333...", //
            "124...", //
            "1124..", //
            "2241..",
        ]);
        // Keyed: three 1s, four 2s, three 3s.
        assert_eq!(FORMS[0].matched(&f), Some(10));
        assert_eq!(best_form(&f), Some(10));
    }

    #[test]
    fn a_keyed_group_of_two_colours_breaks_the_form() {
        // Column 0's bottom puyo is group b in the GTR, beside a 3 in group b too.
        let f = Field::from_text(&["23...."]);
        assert_eq!(FORMS[0].matched(&f), None);
    }

    #[test]
    fn groups_kept_apart_must_not_share_a_colour() {
        // GTR: (0, 1) is a, (0, 0) is b: one colour in both breaks it.
        let f = Field::from_text(&["1.....", "1....."]);
        assert_eq!(FORMS[0].matched(&f), None);
        // Two colours: a = 1 and b = 2, three keyed puyos matched.
        let f = Field::from_text(&["1.....", "22...."]);
        assert_eq!(FORMS[0].matched(&f), Some(3));
    }

    #[test]
    fn the_empty_field_keeps_every_form_and_a_field_can_break_all() {
        assert_eq!(best_form(&Field::EMPTY), Some(0));
        // (0, 0) and (0, 1): b and a in the GTR and the SGTR, c and a in Fron; all are apart.
        let f = Field::from_text(&["1.....", "1....."]);
        assert_eq!(best_form(&f), None);
    }

    #[test]
    fn cells_outside_every_form_never_break_one() {
        let f = Field::from_text(&[".....1", ".....1", ".....1", ".....2"]);
        assert_eq!(best_form(&f), Some(0));
    }
}
