//! `replay`: plays a controller's requests on a contest seed and prints every turn, so a
//! recorded game of the contest's engine can be checked against this one.

use anyhow::{Context, Result, bail};
use stacktune_games::settings::GameSpec;
use stacktune_games::tetris::contest::replay::{TurnRecord, parse_requests, replay};
use stacktune_games::tetris::contest::rules::LETTERS;
use stacktune_players::registry::{AnyGame, Build};
use std::io::Write;
use std::path::PathBuf;

#[derive(clap::Args, Debug)]
pub struct ReplayArgs {
    #[command(flatten)]
    pub game: GameSpec,
    /// Contest seed (0: the fixed piece cycle).
    #[arg(long)]
    pub seed: u64,
    /// Requests file: one turn a line, `hold rotation x` (e.g. `0 1 3`).
    #[arg(long)]
    pub requests: PathBuf,
    /// Print a JSON array of turns with the keys of a turn in the contest traces.
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: ReplayArgs) -> Result<()> {
    let AnyGame::Contest(game) = args.game.build()? else {
        bail!("replay plays contest tetris only: add --rules contest");
    };
    let text = stacktune_base::fsutil::read_text(&args.requests)
        .with_context(|| format!("cannot read requests file {}", args.requests.display()))?;
    let requests = parse_requests(&text, &args.requests.display().to_string(), game.turns())?;
    let turns = replay(game.rules_of(), args.seed, &requests);
    let text = if args.json {
        serde_json::to_string(&turns)? + "\n"
    } else {
        table(&turns)
    };
    let mut out = std::io::stdout().lock();
    out.write_all(text.as_bytes())
        .and_then(|()| out.flush())
        .context("cannot write to standard output")
}

/// One line a turn, then the totals.
fn table(turns: &[TurnRecord]) -> String {
    let letter = |p: u8| LETTERS[p as usize];
    let mut out =
        String::from("turn  cur hold next   request  landed(r,x,y)  lines drop   score\n");
    let (mut lines, mut game_overs) = (0, 0);
    for t in turns {
        let next: String = t.next5.iter().map(|&p| letter(p)).collect();
        let landed = t.landed.as_ref().map_or("held".to_string(), |l| {
            format!("{},{},{}", l.rotation, l.x, l.y)
        });
        let event = if t.game_over {
            "  game over"
        } else if t.overlap_spawn {
            "  overlapping spawn"
        } else {
            ""
        };
        out += &format!(
            "{:>4}  {:>3} {:>4} {} {} {} {}   {:<13} {:>5} {:>4} {:>7}{event}\n",
            t.turn,
            letter(t.current),
            letter(t.hold_before),
            next,
            t.request.hold as u8,
            t.request.rotation,
            t.request.x,
            landed,
            t.lines,
            t.drop,
            t.score
        );
        lines += t.lines;
        game_overs += t.game_over as u32;
    }
    let score = turns.last().map_or(0, |t| t.score);
    out += &format!(
        "{} turns: score {score}, lines {lines}, game overs {game_overs}\n",
        turns.len()
    );
    out
}
