//! `watch`: one game drawn in the terminal, so a user can see what weights do.

use crate::game::Game;
use crate::games::GameSpec;
use crate::rng::game_stream;
use crate::with_game;
use anyhow::Result;
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::time::Duration;

#[derive(clap::Args, Debug)]
pub struct WatchArgs {
    /// Weights file (TOML) to play.
    #[arg(long)]
    pub weights: PathBuf,
    #[command(flatten)]
    pub game: GameSpec,
    /// Seed: the same game as `play --seed S`'s game 0.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Pause between pieces, in milliseconds.
    #[arg(long, default_value_t = 50)]
    pub delay_ms: u64,
    /// Stop after this many pieces.
    #[arg(long)]
    pub max_pieces: Option<u64>,
}

pub fn run(mut args: WatchArgs) -> Result<()> {
    let file = super::load_weights(&args.weights, &mut args.game)?;
    let any = args.game.build()?;
    with_game!(&any, g => watch(g, super::player_for(g, &file, &args.weights)?, &args)?);
    Ok(())
}

fn watch<G: Game>(game: &G, player: crate::eval::LinearPlayer, args: &WatchArgs) -> Result<()> {
    let mut rng = game_stream(args.seed, 0);
    let mut position = game.start(&mut rng);
    let terminal = std::io::stdout().is_terminal();
    let mut out = std::io::stdout().lock();
    let (mut moves, mut score) = (0u64, 0.0);
    let mut over = false;
    loop {
        let frame = game.render(&position);
        if terminal {
            // Home the cursor and clear the screen so the board redraws in place.
            write!(out, "\x1b[H\x1b[2J")?;
        }
        writeln!(out, "{frame}pieces {moves}  {} {score}", game.score_name())?;
        out.flush()?;
        if over || args.max_pieces.is_some_and(|m| moves >= m) {
            break;
        }
        let Some(mv) = player.choose(game, &position) else {
            break;
        };
        let outcome = game.apply(&mut position, mv, &mut rng);
        moves += 1;
        score = game.accumulate(score, &outcome);
        over = outcome.game_over;
        if terminal && args.delay_ms > 0 {
            std::thread::sleep(Duration::from_millis(args.delay_ms));
        }
    }
    writeln!(
        out,
        "game over after {moves} pieces: {score} {}",
        game.score_name()
    )?;
    Ok(())
}
