//! A match's record on disk (`versus --record FILE`): the match it is of, then one line for each
//! pair of games as the pair ends, so that a match stopped at any point (Ctrl-C, a session's
//! end, a crash) resumes where it stood by playing only the pairs the file lacks. A match
//! against a bot at 100 ms a piece takes hours; its pairs are independent draws on their own
//! seeds, so a pair played today counts the same as one played yesterday.
//!
//! The file is JSON lines: first `{"versus": {...}}`, the match (the two players, seed, piece
//! cap, game settings, and the CRC-32 of each player that is a file, so that a weights file
//! edited between sessions is refused rather than mixed in), then each pair as the array of
//! its two [`GameLine`]s, first player on the left, then on the right. A line is written whole
//! with one `write` on a file opened to append, so that a stop loses at most the pairs in play.

use crate::versus::{GameLine, Players};
use anyhow::{Context, Result, bail};
use serde::Serialize;
use stacktune_games::settings::GameSpec;
use std::collections::BTreeMap;
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// What a record is of: a record resumes only the very same match.
#[derive(Serialize)]
struct Identity<'a> {
    first: &'a str,
    second: &'a str,
    /// The CRC-32 of each player's file, for a player that names one.
    first_crc32: Option<String>,
    second_crc32: Option<String>,
    seed: u64,
    max_pieces: u64,
    game: &'a GameSpec,
}

#[derive(Serialize)]
struct Header<'a> {
    versus: Identity<'a>,
}

/// An open record: the pairs it held when opened, and the file new pairs are appended to.
pub struct VersusRecord {
    path: PathBuf,
    held: BTreeMap<u64, [GameLine; 2]>,
    file: Mutex<File>,
    /// The first pair that could not be written, reported after the batch that played it.
    failed: Mutex<Option<String>>,
}

impl VersusRecord {
    /// Opens the record of the match between `players` (games at most `max_pieces` a side) at
    /// `path`: a new file begun with the match's line, or the file an earlier run of this same
    /// match left, with the pairs it holds; a file of another match, or one that is not a
    /// record, is refused with the line that says why.
    pub fn open(path: &Path, players: &Players, max_pieces: u64) -> Result<VersusRecord> {
        let crc = |name: &str| {
            let file = Path::new(name);
            file.is_file()
                .then(|| std::fs::read(file).map(|b| format!("{:08x}", crc32fast::hash(&b))))
                .transpose()
                .with_context(|| format!("player {name}"))
        };
        let header = serde_json::to_value(Header {
            versus: Identity {
                first: players.first,
                second: players.second,
                first_crc32: crc(players.first)?,
                second_crc32: crc(players.second)?,
                seed: players.seed,
                max_pieces,
                game: players.game,
            },
        })?;
        let shown = path.display();
        let held = match std::fs::read(path) {
            Ok(bytes) => {
                let text = String::from_utf8(bytes).map_err(|_| {
                    anyhow::anyhow!("record {shown}: not a versus record (not UTF-8 text)")
                })?;
                read_pairs(&text, &header).map_err(|e| anyhow::anyhow!("record {shown}: {e}"))?
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                let mut file = OpenOptions::new()
                    .write(true)
                    .create_new(true)
                    .open(path)
                    .with_context(|| format!("record {shown}"))?;
                file.write_all(format!("{header}\n").as_bytes())
                    .with_context(|| format!("record {shown}"))?;
                BTreeMap::new()
            }
            Err(e) => return Err(e).with_context(|| format!("record {shown}")),
        };
        let file = OpenOptions::new()
            .append(true)
            .open(path)
            .with_context(|| format!("record {shown}"))?;
        Ok(VersusRecord {
            path: path.to_path_buf(),
            held,
            file: Mutex::new(file),
            failed: Mutex::new(None),
        })
    }

    /// The two games of pair `pair`, if the record held them when opened.
    pub fn held(&self, pair: u64) -> Option<&[GameLine; 2]> {
        self.held.get(&pair)
    }

    /// Appends the lines of a pair just played; a failure is kept for [`check`](Self::check),
    /// since the pair ends on a worker thread with games still in play.
    pub fn append(&self, lines: &[GameLine; 2]) {
        let line = serde_json::to_string(lines).expect("game lines serialise") + "\n";
        let written = self
            .file
            .lock()
            .expect("record lock")
            .write_all(line.as_bytes());
        if let Err(e) = written {
            let mut failed = self.failed.lock().expect("record lock");
            failed.get_or_insert_with(|| format!("record {}: {e}", self.path.display()));
        }
    }

    /// Whether every pair played so far is in the file.
    pub fn check(&self) -> Result<()> {
        match self.failed.lock().expect("record lock").take() {
            Some(failure) => bail!("{failure}"),
            None => Ok(()),
        }
    }
}

/// The pairs of a record's `text`, once its first line is `header`.
fn read_pairs(text: &str, header: &serde_json::Value) -> Result<BTreeMap<u64, [GameLine; 2]>> {
    if !text.is_empty() && !text.ends_with('\n') {
        bail!(
            "line {} is cut short (the match stopped while writing it): delete that line, and \
             the pair it held is played again",
            text.lines().count()
        );
    }
    let mut lines = text.lines();
    let first: serde_json::Value = lines
        .next()
        .and_then(|line| serde_json::from_str(line).ok())
        .filter(|value: &serde_json::Value| value.get("versus").is_some())
        .ok_or_else(|| anyhow::anyhow!("not a versus record (its first line names no match)"))?;
    if &first != header {
        let (theirs, ours) = (&first["versus"], &header["versus"]);
        let keys = ours.as_object().into_iter().flat_map(|o| o.keys());
        let differ: Vec<String> = keys
            .filter(|&key| theirs[key] != ours[key])
            .map(|key| format!("{key} {} (this match: {})", theirs[key], ours[key]))
            .collect();
        bail!(
            "it records another match, {}: give this match a new file",
            differ.join(", ")
        );
    }
    let mut pairs = BTreeMap::new();
    for (n, line) in lines.enumerate() {
        let at = n + 2;
        let games: [GameLine; 2] = serde_json::from_str(line)
            .map_err(|e| anyhow::anyhow!("line {at}: not a pair of games: {e}"))?;
        let pair = games[0].pair;
        if games[1].pair != pair || !games[0].first_left || games[1].first_left {
            bail!("line {at}: not one pair's two games, the first player on the left, then right");
        }
        if pairs.insert(pair, games).is_some() {
            bail!("line {at}: pair {pair} again");
        }
    }
    Ok(pairs)
}
