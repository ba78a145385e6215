//! `play --pieces`: one Tetris game on a given piece sequence, with an optional move trace, so
//! a game recorded elsewhere (MdpTetris's, say) can be replayed and compared move by move.

use anyhow::{Context, Result};
use stacktune_base::stats::Summary;
use stacktune_games::tetris::Tetris;
use stacktune_games::tetris::sequence::parse_pieces;
use stacktune_players::search::Player;
use stacktune_run::play::{Capped, PlayReport};
use std::fmt::Write;
use std::path::Path;
use std::time::Instant;

/// Plays `player` on the pieces of the file `pieces`, stopping after `max_pieces` (0 or `None`:
/// never), and writes every move to the new file `trace` if given. Returns the report and how
/// the report's table names the game.
pub(super) fn run(
    game: &Tetris,
    player: &Player,
    pieces: &Path,
    max_pieces: Option<u64>,
    trace_file: Option<&Path>,
) -> Result<(PlayReport, String)> {
    let text = stacktune_base::fsutil::read_text(pieces)
        .with_context(|| format!("cannot read piece file {}", pieces.display()))?;
    let sequence = parse_pieces(&text, &pieces.display().to_string())?;
    if let Some(out) = trace_file {
        // Checked before playing too, so a long game is not played for nothing.
        stacktune_base::fsutil::refuse_existing(out)?;
    }
    let mut trace = String::new();
    let start = Instant::now();
    let result = game.play_sequence(player, &sequence, max_pieces.filter(|&m| m > 0), |mv| {
        if trace_file.is_some() {
            let line = serde_json::to_string(&mv).expect("a move serialises");
            writeln!(trace, "{line}").expect("writing to a String");
        }
    });
    let seconds = start.elapsed().as_secs_f64();
    if let Some(out) = trace_file {
        stacktune_base::fsutil::write_new(out, trace.as_bytes())?;
    }
    let report = PlayReport {
        summary: Summary::of(&[result.score]),
        total_pieces: result.moves,
        pieces_per_second: result.moves as f64 / seconds.max(1e-9),
        opponents: Vec::new(),
        per_game: Vec::new(),
        capped: Capped::count(std::iter::once(result.moves), max_pieces.unwrap_or(0)),
    };
    let games = format!(
        "1 (pieces from {}, {} of {} placed)",
        pieces.display(),
        result.moves,
        sequence.len()
    );
    Ok((report, games))
}
