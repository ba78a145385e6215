//! Structured mutations of valid files for the fuzz tests (`fuzz_boards`, `fuzz_parsers`).

use proptest::prelude::*;

/// Values that break parsers: empty, wrong types, non-finite, escaping paths.
const HOSTILE: [&str; 12] = [
    "",
    "\"\"",
    "nan",
    "inf",
    "-0.0",
    "\"../..\"",
    "[]",
    "{}",
    "true",
    "null",
    "[1, \"a\"]",
    "{ a = 1 }",
];

/// Characters the mutations insert: each format's own symbols, the others', and noise.
const ALPHABET: &[char] = &[
    '.', '#', 'X', 'O', '0', '1', '2', '3', '4', '5', '6', '7', '9', '-', '\n', '\r', ' ', '\t',
    '[', ']', '=', ',', '"', '{', '}', ':', 'a', 'é', '\u{0}',
];

/// One edit of a file: what to do, where (taken modulo the file's size) and with what.
#[derive(Clone, Debug)]
pub struct Edit {
    op: u8,
    at: usize,
    pick: usize,
}

pub fn edits() -> impl Strategy<Value = Vec<Edit>> {
    prop::collection::vec(
        (0u8..9, any::<usize>(), any::<usize>()).prop_map(|(op, at, pick)| Edit { op, at, pick }),
        1..6,
    )
}

/// Applies the edits: character deletions, insertions and replacements, line duplications,
/// deletions and swaps, truncation, numbers swapped for extreme ones, and the value after a
/// line's first `=` or `:` swapped for a hostile one (config, weights and JSON files).
pub fn mutate(text: &str, edits: &[Edit]) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    for e in edits {
        let n = chars.len().max(1);
        let c = ALPHABET[e.pick % ALPHABET.len()];
        match e.op {
            0 if !chars.is_empty() => {
                chars.remove(e.at % n);
            }
            1 => chars.insert(e.at % (chars.len() + 1), c),
            2 if !chars.is_empty() => chars[e.at % n] = c,
            3..=5 | 7 => {
                let text: String = chars.iter().collect();
                let mut lines: Vec<&str> = text.split('\n').collect();
                let (i, j) = (e.at % lines.len(), e.pick % lines.len());
                match e.op {
                    3 => lines.insert(i, lines[i]),
                    4 => {
                        lines.remove(i);
                    }
                    5 => lines.truncate(i),
                    _ => lines.swap(i, j),
                }
                chars = lines.join("\n").chars().collect();
            }
            6 => {
                let number = ["99999999999999999999", "-1", "1e309", "4294967296", "0"][e.pick % 5];
                if let Some(start) = (e.at % n..chars.len()).find(|&k| chars[k].is_ascii_digit()) {
                    let end = (start..chars.len())
                        .find(|&k| !chars[k].is_ascii_digit())
                        .unwrap_or(chars.len());
                    chars.splice(start..end, number.chars());
                }
            }
            8 => {
                let text: String = chars.iter().collect();
                let mut lines: Vec<String> = text.split('\n').map(str::to_string).collect();
                let i = e.at % lines.len();
                if let Some(at) = lines[i].find(['=', ':']) {
                    lines[i] = format!("{} {}", &lines[i][..=at], HOSTILE[e.pick % HOSTILE.len()]);
                }
                chars = lines.join("\n").chars().collect();
            }
            _ => {}
        }
    }
    chars.into_iter().collect()
}

/// Cases per property: `PROPTEST_CASES` when set, else `default`.
pub fn cases(default: u32) -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}
