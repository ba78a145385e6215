//! `watch`: one game drawn in the terminal, so a user can see what weights do.

use anyhow::{Result, bail};
use stacktune_base::rng::game_stream;
use stacktune_game::EpisodeLimits;
use stacktune_game::Episodes;
use stacktune_game::replay::Replayable;
use stacktune_games::settings::GameSpec;
use stacktune_players::registry::Build;
use stacktune_players::with_game;
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
    /// Stop the game after this many pieces (0 = never, as in evolve).
    #[arg(long)]
    pub max_pieces: Option<u64>,
}

pub fn run(mut args: WatchArgs) -> Result<()> {
    let file = stacktune_run::play::load_weights(&args.weights, &mut args.game)?;
    if args.game.splitting.is_some() {
        bail!(
            "watch shows a game played out; --splitting estimates games without playing them out"
        );
    }
    let any = args.game.build()?;
    with_game!(&any, g => {
        let g = &g.numbered_from(args.seed);
        watch(g, stacktune_run::play::player_for(g, &args.game, &file, &args.weights)?, &args)?
    });
    Ok(())
}

/// Draws every position of `play --seed S`'s game 0, pausing between frames on a terminal;
/// a game whose episodes are matches drawn whole, every change of both sides.
fn watch<G: Replayable>(
    game: &G,
    player: stacktune_players::search::Player,
    args: &WatchArgs,
) -> Result<()> {
    let title = game
        .describe_episode(0)
        .map(|t| t + "\n")
        .unwrap_or_default();
    let mut screen = Screen {
        out: std::io::stdout().lock(),
        terminal: std::io::stdout().is_terminal(),
        delay: Duration::from_millis(args.delay_ms),
        first: true,
        written: Ok(()),
    };
    let limits = EpisodeLimits::capped(args.max_pieces.unwrap_or(0));
    let rng = || game_stream(args.seed, 0);
    let mut draw = |frame: &str| screen.show(&format!("{title}{frame}"));
    if let Some(last) = game.watch_match(&player, 0, rng(), limits, &mut draw) {
        screen.written?;
        writeln!(screen.out, "{last}")?;
        return Ok(());
    }
    let result = game.episode(&player, 0, rng(), limits, &mut |position, so_far| {
        let frame = game.render(position);
        screen.show(&format!(
            "{title}{frame}pieces {}  {} {}\n",
            so_far.moves,
            game.score_name(),
            so_far.score
        ));
    });
    screen.written?;
    writeln!(
        screen.out,
        "{} after {} pieces: {} {}",
        ending(game, result.moves, args.max_pieces),
        result.moves,
        result.score,
        game.score_name()
    )?;
    Ok(())
}

/// Standard output as `watch` draws on it: a terminal redraws each frame in place after a
/// pause; anything else gets the frames one after another.
struct Screen<W: Write> {
    out: W,
    terminal: bool,
    delay: Duration,
    first: bool,
    /// The first failed write: drawing stops there, and the command reports it.
    written: std::io::Result<()>,
}

impl<W: Write> Screen<W> {
    fn show(&mut self, frame: &str) {
        if self.written.is_err() {
            return;
        }
        if !self.first && self.terminal && !self.delay.is_zero() {
            std::thread::sleep(self.delay);
        }
        self.first = false;
        self.written = (|| {
            if self.terminal {
                // Home the cursor and clear the screen so the board redraws in place.
                write!(self.out, "\x1b[H\x1b[2J")?;
            }
            write!(self.out, "{frame}")?;
            self.out.flush()
        })();
    }
}

/// Why the game stopped: a game cut short by `--max-pieces` or played to the rules' turn limit
/// (contest Tetris) was not lost, and the last line must not say it was.
fn ending<G: Replayable>(game: &G, moves: u64, max_pieces: Option<u64>) -> &'static str {
    if max_pieces.is_some_and(|cap| cap > 0 && moves >= cap) {
        "stopped at --max-pieces"
    } else if game.turn_limit().is_some_and(|limit| moves >= limit) {
        "reached the turn limit"
    } else {
        "game over"
    }
}
