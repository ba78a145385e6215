//! Board files and the placement listing of `moves --game puyo`: how users debug weights.
//!
//! A board file has 12 rows (the `programming` rules) or 13 (the `tsu` rules, the first row
//! being the hidden 13th), TOP first, six cells a row: `.` or `0` empty, `1` to `5` colours.
//! `--piece 41` is the pair with axis colour 4 and child colour 1.

use super::features::{self, ALL_FEATURES, FEATURE_NAMES};
use super::field::{Field, MAX_COLOURS, NUISANCE, VISIBLE, VISIBLE_ROWS, WIDTH};
use super::rules::{self, Pair, Rules};
use anyhow::{Result, bail};
use serde::Serialize;
use stacktune_game::FeatureValues;
use std::collections::BTreeMap;

/// Parses a board file; its row count picks the ruleset. `source` names the file in errors.
pub fn parse_board(text: &str, source: &str) -> Result<(Field, Rules)> {
    let lines: Vec<&str> = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    let rules = match lines.len() {
        12 => Rules::Programming,
        13 => Rules::Tsu,
        n => bail!(
            "board file {source}: {n} rows; a puyo board has 12 rows (programming rules) or 13 (tsu rules, hidden row first)"
        ),
    };
    let mut rows = Vec::with_capacity(lines.len());
    for (i, line) in lines.iter().enumerate() {
        let n = line.chars().count();
        if n != WIDTH {
            bail!(
                "board file {source} row {}: {n} cells, but a puyo row has {WIDTH}",
                i + 1
            );
        }
        let row = line
            .chars()
            .map(|c| match c {
                '.' | '0' => Ok(0),
                'o' => Ok(NUISANCE),
                '1'..='9' => {
                    let colour = c as u8 - b'0';
                    if colour as usize > MAX_COLOURS {
                        bail!(
                            "board file {source} row {}: colour {colour} is out of range 1..={MAX_COLOURS}",
                            i + 1
                        );
                    }
                    Ok(colour)
                }
                _ => bail!(
                    "board file {source} row {}: `{c}` is not a cell (`.` or `0` empty, 1 to {MAX_COLOURS} colours, `o` nuisance)",
                    i + 1
                ),
            })
            .collect::<Result<Vec<u8>>>()?;
        rows.push(row);
    }
    let field = Field::from_rows(&rows);
    if let Some((x, y)) = field.floating() {
        bail!(
            "board file {source}: the puyo in column {x} row {} floats over an empty cell (boards are settled)",
            lines.len() - y as usize
        );
    }
    let mut popped = field;
    if rules
        .resolve(&mut popped, field.occupied() & VISIBLE, &mut |_| {})
        .chains
        > 0
    {
        bail!(
            "board file {source}: a group of 4 or more stands on the board (it would have popped)"
        );
    }
    Ok((field, rules))
}

/// Parses `--piece`: two colour digits, axis first.
pub fn parse_pair(piece: &str) -> Result<Pair> {
    let colour = |c: char| {
        c.to_digit(10)
            .filter(|d| (1..=MAX_COLOURS as u32).contains(d))
            .map(|d| d as u8)
    };
    let mut chars = piece.chars();
    match (
        chars.next().and_then(colour),
        chars.next().and_then(colour),
        chars.next(),
    ) {
        (Some(axis), Some(child), None) => Ok(Pair { axis, child }),
        _ => bail!(
            "unknown pair `{piece}`; a pair is two colour digits 1 to {MAX_COLOURS}, axis first (e.g. 41)"
        ),
    }
}

/// One placement as `moves --json` prints it.
#[derive(Debug, Serialize)]
pub struct MoveListing {
    pub placement: PlacementJson,
    pub legal: bool,
    pub after: Option<Vec<String>>,
    pub chains: u32,
    pub score: u32,
    pub features: Option<BTreeMap<&'static str, f64>>,
}

#[derive(Debug, Serialize)]
pub struct PlacementJson {
    pub column: u8,
    pub rotation: u8,
}

/// Every placement of `pair` in the game's enumeration order, legal or not, with what it does
/// and every feature of the field it leaves.
pub fn list_moves(field: &Field, rules: Rules, pair: Pair) -> Vec<MoveListing> {
    let heights = field.heights();
    let mut values = FeatureValues::default();
    rules::placements(pair)
        .iter()
        .map(|&p| {
            let placement = PlacementJson {
                column: p.column,
                rotation: p.rotation,
            };
            if !rules.offers(&heights, p) {
                return MoveListing {
                    placement,
                    legal: false,
                    after: None,
                    chains: 0,
                    score: 0,
                    features: None,
                };
            }
            let played = rules.play(field, &heights, pair, p, false, &mut |_| {});
            features::compute(
                &played.field,
                &played.chain,
                rules,
                ALL_FEATURES,
                &mut values,
            );
            MoveListing {
                placement,
                legal: true,
                after: Some(played.field.to_rows(rules.rows())),
                chains: played.chain.chains,
                score: played.chain.score,
                features: Some(
                    FEATURE_NAMES
                        .iter()
                        .enumerate()
                        .map(|(i, &n)| (n, values.0[i]))
                        .collect(),
                ),
            }
        })
        .collect()
}

/// The listing as text: one block per placement, the field beside its features.
pub fn format_moves(listing: &[MoveListing]) -> String {
    let mut s = String::new();
    for m in listing {
        s.push_str(&format!(
            "column {} rotation {}",
            m.placement.column, m.placement.rotation
        ));
        let (Some(after), Some(features)) = (&m.after, &m.features) else {
            s.push_str(": not offered\n\n");
            continue;
        };
        s.push_str(&format!(": {} chain(s), {} points\n", m.chains, m.score));
        let lines = after.len().max(FEATURE_NAMES.len());
        for i in 0..lines {
            let row = after.get(i).map_or(" ".repeat(WIDTH + 2), |r| {
                let wall = if i + (VISIBLE_ROWS as usize) < after.len() {
                    ' '
                } else {
                    '|'
                };
                format!("{wall}{r}{wall}")
            });
            let feature = FEATURE_NAMES
                .get(i)
                .map(|n| format!("  {n:<20} {}", features[n]))
                .unwrap_or_default();
            s.push_str(&format!("  {row}{feature}\n"));
        }
        s.push('\n');
    }
    s
}

/// What `moves --game puyo` prints for a board file's `text` and `--piece`.
pub fn moves(text: &str, source: &str, piece: &str, json: bool) -> Result<String> {
    let (field, rules) = parse_board(text, source)?;
    let listing = list_moves(&field, rules, parse_pair(piece)?);
    Ok(if json {
        format!("{}\n", serde_json::to_string(&listing)?)
    } else {
        format_moves(&listing)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(rows: &[&str]) -> String {
        let mut text = "......\n".repeat(12 - rows.len());
        for r in rows {
            text.push_str(r);
            text.push('\n');
        }
        text
    }

    #[test]
    fn ragged_row_names_the_row() {
        let text = board(&["1....", "12...."]);
        let err = parse_board(&text, "b.txt").unwrap_err();
        assert_eq!(
            err.to_string(),
            "board file b.txt row 11: 5 cells, but a puyo row has 6"
        );
    }

    #[test]
    fn colour_out_of_range_is_an_error() {
        let err = parse_board(&board(&["7....."]), "b").unwrap_err();
        assert_eq!(
            err.to_string(),
            "board file b row 12: colour 7 is out of range 1..=5"
        );
    }

    #[test]
    fn zero_and_dot_are_empty() {
        let (field, rules) = parse_board(&board(&["0.0...", "1.2..."]), "b").unwrap();
        assert_eq!(rules, Rules::Programming);
        assert_eq!(field.count(), 2);
    }

    #[test]
    fn floating_puyos_and_standing_groups_are_rejected() {
        let err = parse_board(&board(&["1.....", "......"]), "b").unwrap_err();
        assert!(err.to_string().contains("floats"), "{err}");
        let err = parse_board(&board(&["11....", "11...."]), "b").unwrap_err();
        assert!(err.to_string().contains("would have popped"), "{err}");
    }

    #[test]
    fn pairs_are_two_colour_digits() {
        assert_eq!(parse_pair("41").unwrap(), Pair { axis: 4, child: 1 });
        for bad in ["4", "411", "46", "a1", "", "4 "] {
            let err = parse_pair(bad).unwrap_err();
            assert!(err.to_string().starts_with("unknown pair"), "{bad}: {err}");
        }
    }

    #[test]
    fn a_same_colour_pair_lists_eleven_placements() {
        let (field, rules) = parse_board(&board(&[]), "b").unwrap();
        let listing = list_moves(&field, rules, Pair { axis: 2, child: 2 });
        assert_eq!(listing.len(), 11);
        assert!(listing.iter().all(|m| m.legal));
    }

    #[test]
    fn thirteen_rows_mean_tsu() {
        let text = format!("......\n{}", board(&[]));
        let (_, rules) = parse_board(&text, "b").unwrap();
        assert_eq!(rules, Rules::Tsu);
    }
}
