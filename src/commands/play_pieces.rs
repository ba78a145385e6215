//! `play --pieces`: one Tetris game on a given piece sequence, with an optional move trace, so
//! a game recorded elsewhere (MdpTetris's, say) can be replayed and compared move by move.

use super::play::{PlayArgs, PlayReport, print_report};
use crate::game::Game;
use crate::games::AnyGame;
use crate::games::tetris::sequence::parse_pieces;
use crate::stats::Summary;
use crate::weights::WeightFile;
use anyhow::{Context, Result, bail};
use std::fmt::Write;
use std::path::Path;
use std::time::Instant;

pub(super) fn run(any: &AnyGame, file: &WeightFile, pieces: &Path, args: &PlayArgs) -> Result<()> {
    let AnyGame::Tetris(game) = any else {
        bail!(
            "--pieces plays a tetris piece sequence; weights file {} is for {}",
            args.weights.display(),
            file.game
        );
    };
    let player = super::player_for(game, &args.game, file, &args.weights)?;
    let text = std::fs::read_to_string(pieces)
        .with_context(|| format!("cannot read piece file {}", pieces.display()))?;
    let sequence = parse_pieces(&text, &pieces.display().to_string())?;
    if let Some(out) = &args.trace {
        // Checked before playing too, so a long game is not played for nothing.
        crate::fsutil::refuse_existing(out)?;
    }
    let mut trace = String::new();
    let start = Instant::now();
    let result = game.play_sequence(&player, &sequence, args.max_pieces, |mv| {
        if args.trace.is_some() {
            let line = serde_json::to_string(&mv).expect("a move serialises");
            writeln!(trace, "{line}").expect("writing to a String");
        }
    });
    let seconds = start.elapsed().as_secs_f64();
    if let Some(out) = &args.trace {
        crate::fsutil::write_new(out, trace.as_bytes())?;
    }
    let report = PlayReport {
        summary: Summary::of(&[result.score]),
        total_pieces: result.moves,
        pieces_per_second: result.moves as f64 / seconds.max(1e-9),
        opponents: Vec::new(),
        per_game: Vec::new(),
    };
    if args.json {
        println!("{}", serde_json::to_string(&report)?);
    } else {
        let games = format!(
            "1 (pieces from {}, {} of {} placed)",
            pieces.display(),
            result.moves,
            sequence.len()
        );
        print_report(&report, game.score_name(), &args.weights, &games);
    }
    Ok(())
}
