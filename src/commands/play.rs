//! `play`: the games a weights file plays, printed as a table or as `--json`'s object.

use super::play_report::{print_per_game, print_report, print_versus};
use anyhow::{Result, bail};
use stacktune_game::Episodes;
use stacktune_game::Game;
use stacktune_players::registry::AnyGame;
use stacktune_players::with_game;
use stacktune_run::backend::Backend;
use stacktune_run::play::{PlayArgs, play, player_for, prepare, replay_page};

pub fn run(mut args: PlayArgs, backend: &dyn Backend) -> Result<()> {
    let (any, file) = prepare(&mut args)?;
    if let Some(pieces) = &args.pieces {
        let AnyGame::Tetris(game) = &any else {
            bail!(
                "--pieces plays a tetris piece sequence; weights file {} is for {}",
                args.weights.display(),
                file.game
            );
        };
        let player = player_for(game, &args.game, &file, &args.weights)?;
        let trace = args.trace.as_deref();
        let (report, games) =
            super::play_pieces::run(game, &player, pieces, args.max_pieces, trace)?;
        if args.json {
            println!("{}", serde_json::to_string(&report)?);
        } else {
            print_report(&report, game.score_name(), &args.weights, &games);
        }
        return Ok(());
    }
    if let Some(out) = &args.replay_html {
        // Checked before playing too, so the games are not played for nothing.
        stacktune_base::fsutil::refuse_existing(out)?;
    }
    // Ctrl-C stops the games under way and the command with them.
    let stop = stacktune_base::stop::ctrl_c();
    with_game!(&any, g => {
        let player = player_for(g, &args.game, &file, &args.weights)?;
        if let Some(out) = &args.replay_html {
            stacktune_base::fsutil::write_new(out, replay_page(g, &player, &args, stop)?.as_bytes())?;
        }
        let g = &g.numbered_from(args.seed);
        let report = play(backend, g, &player, &args, stop)?;
        if args.json {
            println!("{}", serde_json::to_string(&report)?);
        } else if report.opponents.is_empty() {
            print_per_game(&report, g.detail_names());
            let games = format!("{} (seed {})", report.summary.games, args.seed);
            print_report(&report, g.score_name(), &args.weights, &games);
        } else {
            let pairing = g.pairing().unwrap_or_default();
            print_versus(&report, &args.weights, args.games, args.seed, pairing);
        }
    });
    Ok(())
}
