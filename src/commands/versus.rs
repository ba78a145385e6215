//! `versus`: matches between two versus Tetris players, each a weights file or a TBP bot, or
//! between two Puyo players (weights files, or a weights file and a PBP bot) under Tsu's
//! battle rules.

use anyhow::{Result, bail};
use stacktune_base::progress::{Mode, Progress};
use stacktune_base::stats::matches::{Sprt, SprtState, Verdict};
use stacktune_game::replay::Replay;
use stacktune_games::puyo::pbp::front::{
    BOT_PREFIX as PUYO_BOT_PREFIX, TIMEOUT_MS as PUYO_TIMEOUT_MS,
};
use stacktune_games::puyo::versus::Battle;
use stacktune_games::settings::GameSpec;
use stacktune_games::tetris::guideline::Guideline;
use stacktune_games::tetris::guideline::MATCH_PIECES;
use stacktune_players::puyo_match::PuyoSide;
use stacktune_players::registry::AnyGame;
use stacktune_players::registry::Build;
use stacktune_players::search::Search;
use stacktune_players::versus::{
    Game, PairEnded, PuyoEntrant, entrant, pair_seeds, play_pairs, play_puyo_pairs, tally,
};
use stacktune_players::weights::WeightFile;
use stacktune_run::report_page::{ReplayPage, render_replays};
use stacktune_run::versus::{Ended, GameLine, Players, VersusReport};
use stacktune_run::versus_record::VersusRecord;
use std::collections::BTreeMap;
use std::path::Path;
use std::path::PathBuf;
use std::sync::Mutex;
use std::time::Duration;

/// Pairs played between two looks at an SPRT's verdict: a fixed number, so the verdict falls
/// at the same game whatever the thread count.
const SPRT_BATCH: u64 = 8;

#[derive(clap::Args, Debug)]
pub struct VersusArgs {
    /// The first player: a guideline weights file (under its [search]), `hand` (the
    /// compiled-in hand-set weights), or `tbp:COMMAND`, a bot speaking the Tetris Bot Protocol
    /// started with that command line; or a puyo weights file (under its [search] and pairs
    /// shown), for a match under Tsu's battle rules.
    pub first: String,
    /// The second player, likewise; of a puyo match also `pbp:COMMAND`, a bot speaking the
    /// Puyo Bot Protocol (docs/puyo-bot-protocol.md).
    pub second: String,
    /// Games, in pairs on one seed with the sides swapped (an odd number is rounded up); with
    /// --sprt the most it plays.
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    pub games: u64,
    /// Seed: pair k's pieces and garbage depend only on (seed, k).
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// A game that both sides survive this many pieces (puyo: pairs) is a draw.
    #[arg(long, default_value_t = MATCH_PIECES)]
    pub max_pieces: u64,
    /// Worker threads (0 = one per core); each game with a bot runs its own bot process.
    #[arg(long, default_value_t = 0)]
    pub threads: usize,
    /// Sequential test: stop as soon as the first player is shown at least --elo1 better
    /// (H1) or no better than --elo0 (H0) at --alpha and --beta, or at --games.
    #[arg(long)]
    pub sprt: bool,
    #[arg(
        long,
        default_value_t = 0.0,
        requires = "sprt",
        allow_negative_numbers = true
    )]
    pub elo0: f64,
    #[arg(
        long,
        default_value_t = 10.0,
        requires = "sprt",
        allow_negative_numbers = true
    )]
    pub elo1: f64,
    #[arg(long, default_value_t = 0.05, requires = "sprt")]
    pub alpha: f64,
    #[arg(long, default_value_t = 0.05, requires = "sprt")]
    pub beta: f64,
    /// Guideline rules (the same flags as play's; --mode and --opponent are play's), or puyo's
    /// battle rules (Tsu's unless --target-points and the like say otherwise).
    #[command(flatten)]
    pub game: GameSpec,
    /// Also write a web page replaying the first game (both boards) to this new file.
    #[arg(long, value_name = "FILE")]
    pub replay_html: Option<PathBuf>,
    /// Append each pair of games to FILE as it ends; run the same match again with the same
    /// FILE and it plays only the pairs FILE lacks (a long match over several sittings).
    #[arg(long, value_name = "FILE")]
    pub record: Option<PathBuf>,
    /// Print one JSON object instead of a table.
    #[arg(long)]
    pub json: bool,
    /// No progress display.
    #[arg(long)]
    pub quiet: bool,
}

pub fn run(args: VersusArgs) -> Result<()> {
    if is_puyo(&args)? {
        return run_puyo(&args);
    }
    let (game, search) = guideline(&args.game)?;
    let first = entrant(&game, &args.first, search)?;
    let second = entrant(&game, &args.second, search)?;
    let sprt = sprt_of(&args)?;
    let record = open_record(&args)?;
    let pool = stacktune_game::episode::thread_pool(args.threads)?;
    let played = play_match(
        &args,
        record.as_ref(),
        |pairs, done| {
            let games = pool.install(|| {
                play_pairs(
                    &game,
                    &first,
                    &second,
                    args.seed,
                    pairs,
                    args.max_pieces,
                    done,
                )
            });
            Ok(games)
        },
        sprt,
    )?;
    if let (Some(out), Some(first)) = (&args.replay_html, &played.first) {
        let replay = game.match_replay(
            pair_seeds(args.seed, 0),
            &first.record,
            args.max_pieces,
            sides_of(&args),
        );
        write_replay(&args, out, replay)?;
    }
    show(&args, &report_of(&args, played, sprt))
}

/// Who plays which side of the first game, the one the replay page shows.
fn sides_of(args: &VersusArgs) -> String {
    format!("left: {}, right: {}", args.first, args.second)
}

/// Writes the page replaying the match's first game, `replay`, to `out`, a new file.
fn write_replay(args: &VersusArgs, out: &Path, mut replay: Replay) -> Result<()> {
    replay.command = format!(
        "stacktune versus {} {} --seed {} --games 1",
        args.first, args.second, args.seed
    );
    let page = render_replays(&ReplayPage {
        title: format!("versus: {} against {}", args.first, args.second),
        version: env!("CARGO_PKG_VERSION"),
        replays: &[replay],
    })?;
    stacktune_base::fsutil::write_new(out, page.as_bytes())
}

/// Whether the match is of puyo: `--game puyo`, or no game given and the first player a
/// puyo weights file or either a `pbp:` bot.
fn is_puyo(args: &VersusArgs) -> Result<bool> {
    let bot = |name: &String| name.starts_with(PUYO_BOT_PREFIX);
    Ok(match args.game.game.as_deref() {
        Some(game) => game == "puyo",
        None if bot(&args.first) || bot(&args.second) => true,
        None => {
            let path = Path::new(&args.first);
            path.is_file() && stacktune_players::weights::WeightFile::load(path)?.game == "puyo"
        }
    })
}

/// A match between a puyo weights file and another one or a `pbp:` bot, under the battle
/// rules the flags and the first file give, each file under its own search and pairs shown.
fn run_puyo(args: &VersusArgs) -> Result<()> {
    if !args.game.opponents.is_empty() {
        bail!("--opponent names a run's or play's opponents; versus plays its two players");
    }
    let cap = u32::try_from(args.max_pieces)
        .map_err(|_| anyhow::anyhow!("--max-pieces {} is too many pairs", args.max_pieces))?;
    let weights = |name: &str| -> Result<_> {
        let (battle, side) = puyo_side(name, &args.game)?;
        Ok((battle, PuyoEntrant::Weights(Box::new(side))))
    };
    if args.first.starts_with(PUYO_BOT_PREFIX) {
        bail!("the first player of a puyo match is a weights file; a `pbp:` bot plays second");
    }
    let (battle, first) = weights(&args.first)?;
    let timeout = Duration::from_millis(args.game.timeout_ms.unwrap_or(PUYO_TIMEOUT_MS));
    let second = match PuyoEntrant::bot(&args.second, &battle, timeout)? {
        Some(bot) => bot,
        None => weights(&args.second)?.1,
    };
    let sprt = sprt_of(args)?;
    let record = open_record(args)?;
    let pool = stacktune_game::episode::thread_pool(args.threads)?;
    let played = play_match(
        args,
        record.as_ref(),
        |pairs, done| {
            Ok(pool
                .install(|| play_puyo_pairs(&battle, &first, &second, args.seed, pairs, cap, done)))
        },
        sprt,
    )?;
    if let (Some(out), Some(first)) = (&args.replay_html, &played.first) {
        let replay = battle.match_replay(first.seeds, &first.record, cap, sides_of(args));
        write_replay(args, out, replay)?;
    }
    show(args, &report_of(args, played, sprt))
}

/// The puyo weights file `name` as a side of a match, under its own search and pairs shown,
/// and the battle its `[game]` and the flags `spec` give.
pub fn puyo_side(name: &str, spec: &GameSpec) -> Result<(Battle, PuyoSide)> {
    let path = Path::new(name);
    stacktune_run::versus::puyo_side(&WeightFile::load(path)?, path, spec)
}

/// The SPRT the flags ask for, if any.
fn sprt_of(args: &VersusArgs) -> Result<Option<Sprt>> {
    args.sprt
        .then(|| Sprt::new(args.elo0, args.elo1, args.alpha, args.beta))
        .transpose()
        .map_err(|e| anyhow::anyhow!("--sprt: {e}"))
}

/// What a match played: each game's line in pair order, its first game whole if this run
/// played it (the replay page's), and the SPRT's last verdict.
struct Played<S, R> {
    lines: Vec<GameLine>,
    first: Option<Game<S, R>>,
    verdict: Option<SprtState>,
}

/// The `--record` file of the match `args` asks for, opened before any game, and the
/// `--replay-html` page refused as early if it exists or if the record already holds the
/// first game, whose moves it does not keep.
fn open_record(args: &VersusArgs) -> Result<Option<VersusRecord>> {
    if let Some(out) = &args.replay_html {
        stacktune_base::fsutil::refuse_existing(out)?;
    }
    let Some(path) = &args.record else {
        return Ok(None);
    };
    let players = players_of(args);
    let record = VersusRecord::open(path, &players, args.max_pieces)?;
    if args.replay_html.is_some() && record.held(0).is_some() {
        bail!(
            "--replay-html replays the match's first game, which record {} holds without its \
             moves: ask for the page when the match begins",
            path.display()
        );
    }
    Ok(Some(record))
}

/// Plays the match's pairs through `batch` (the pairs to play, and what hears of each pair as
/// it ends), all at once or, under an SPRT, a fixed number at a time until its verdict; the
/// pairs `record` holds are taken from it, not played, and those played are appended to it.
fn play_match<S, R: Ended>(
    args: &VersusArgs,
    record: Option<&VersusRecord>,
    mut batch: impl FnMut(&[u64], PairEnded<S, R>) -> Result<Vec<Game<S, R>>>,
    sprt: Option<Sprt>,
) -> Result<Played<S, R>> {
    let pairs = args.games.div_ceil(2);
    let held = |pair| record.and_then(|r| r.held(pair));
    let to_play = (0..pairs).filter(|&p| held(p).is_none()).count() as u64;
    let progress = Progress::new(Mode::detect(args.quiet), to_play * 2, "games");
    // Each pair's lines as it ends, on whichever worker ends it: what the record and the
    // report both read.
    let ended = Mutex::new(BTreeMap::new());
    let done = |games: &[Game<S, R>; 2]| {
        progress.inc();
        progress.inc();
        let lines = games.each_ref().map(GameLine::of);
        if let Some(record) = record {
            record.append(&lines);
        }
        ended
            .lock()
            .expect("ended pairs")
            .insert(games[0].pair, lines);
    };
    let mut played = Played {
        lines: Vec::new(),
        first: None,
        verdict: None,
    };
    let step = if sprt.is_some() { SPRT_BATCH } else { pairs };
    let mut next = 0;
    while next < pairs {
        let end = (next + step).min(pairs);
        let missing: Vec<u64> = (next..end).filter(|&p| held(p).is_none()).collect();
        let games = batch(&missing, &done)?;
        if let Some(record) = record {
            record.check()?;
        }
        let first = games.into_iter().find(|g| g.pair == 0 && g.first_left);
        played.first = played.first.or(first);
        let mut fresh = ended.lock().expect("ended pairs");
        for pair in next..end {
            let lines = match held(pair) {
                Some(lines) => lines.clone(),
                None => fresh.remove(&pair).expect("a played pair has ended"),
            };
            played.lines.extend(lines);
        }
        next = end;
        if let Some(test) = &sprt {
            let state = test.pentanomial(&tally(played.lines.iter().map(|g| g.result)).1);
            played.verdict = Some(state);
            if state.verdict != Verdict::Continue {
                break;
            }
        }
    }
    progress.finish();
    Ok(played)
}

fn show(args: &VersusArgs, report: &VersusReport) -> Result<()> {
    if args.json {
        println!("{}", serde_json::to_string(report)?);
    } else {
        print(report);
    }
    Ok(())
}

/// The guideline game `spec` describes for a match, and the search its players without one of
/// their own play under: `--rules guideline` is implied, and what makes an episode (a mode,
/// opponents) is `play`'s, not a match's.
fn guideline(spec: &GameSpec) -> Result<(Guideline, Search)> {
    if spec.mode.as_deref().is_some_and(|m| m != "versus") || !spec.opponents.is_empty() {
        bail!("--mode and --opponent choose play's episodes; versus plays its two players");
    }
    let mut spec = spec.clone();
    spec.game.get_or_insert_with(|| "tetris".to_string());
    spec.rules.get_or_insert_with(|| "guideline".to_string());
    if spec.game.as_deref() != Some("tetris")
        || !matches!(spec.rules.as_deref(), Some("guideline" | "tetrio"))
    {
        bail!("versus plays guideline tetris (--game tetris --rules guideline or tetrio)");
    }
    match spec.build()? {
        AnyGame::Guideline(g) => Ok((g, spec.search()?)),
        _ => unreachable!("guideline rules build a guideline game"),
    }
}

/// Who plays the match `args` asks for, and under what settings.
fn players_of(args: &VersusArgs) -> Players<'_> {
    Players {
        first: &args.first,
        second: &args.second,
        seed: args.seed,
        game: &args.game,
    }
}

/// The report of `played`, the match `args` asked for.
fn report_of<S, R: Ended>(
    args: &VersusArgs,
    played: Played<S, R>,
    sprt: Option<Sprt>,
) -> VersusReport {
    let verdict = sprt.zip(played.verdict);
    stacktune_run::versus::report_of::<R>(&players_of(args), played.lines, verdict)
}

fn print(r: &VersusReport) {
    println!("first     {}", r.first);
    println!("second    {}", r.second);
    println!(
        "games     {} ({} pair{}, seed {}): both sides on the same {}, each pair's sides swapped",
        r.games,
        r.games / 2,
        if r.games / 2 == 1 { "" } else { "s" },
        r.seed,
        r.placed
    );
    println!(
        "first     {} wins, {} draws, {} losses",
        r.wins, r.draws, r.losses
    );
    println!(
        "score     {:.3} [{:.3}, {:.3}] (95 % CI over pairs)",
        r.score, r.score_ci[0], r.score_ci[1]
    );
    println!(
        "elo       {} [{}, {}] (logistic, first against second)",
        elo_text(r.elo),
        elo_text(r.elo_ci[0]),
        elo_text(r.elo_ci[1])
    );
    println!(
        "pairs     {} (first's points in a pair: 0, ½, 1, 1½, 2)",
        r.pairs.map(|n| n.to_string()).join(" ")
    );
    match r.placed {
        "pieces" => println!("pieces    {:.1} a side, a game", r.pieces),
        placed => println!("placed    {:.1} {placed} a side, a game", r.pieces),
    }
    for (how, n) in &r.endings {
        println!("ended     {n:>5}  {how}");
    }
    if let Some(s) = &r.sprt {
        println!(
            "sprt      elo0 {} elo1 {} alpha {} beta {}: LLR {:.2} in [{:.2}, {:.2}], {}",
            s.elo0,
            s.elo1,
            s.alpha,
            s.beta,
            s.llr,
            s.bounds[0],
            s.bounds[1],
            match s.verdict {
                "H1" => "H1 accepted: the first player is better",
                "H0" => "H0 accepted: the first player is not better",
                _ => "no verdict within --games",
            }
        );
    }
}

/// An Elo difference signed, with no "-0.0" for an even match (a rounded zero has no side).
fn elo_text(elo: f64) -> String {
    let text = format!("{elo:+.1}");
    if text == "-0.0" { "+0.0".into() } else { text }
}

#[cfg(test)]
mod tests {
    #[test]
    fn an_even_match_has_no_sign() {
        assert_eq!(super::elo_text(-0.0), "+0.0");
        assert_eq!(super::elo_text(-0.04), "+0.0");
        assert_eq!(super::elo_text(-0.06), "-0.1");
        assert_eq!(super::elo_text(12.34), "+12.3");
    }
}
