//! The ceiling of a `play` series: what the perfect player (the solver choosing the columns)
//! scores in the very games a weights file is measured on — the same openings and colours,
//! the same opponent drawing its tie-breaks from the same streams.
//!
//! ```sh
//! cargo run --release --example connect_ceiling -- 2000 1000001 random,tutorial,negamax4 negamax4
//! ```
//!
//! Arguments: GAMES SEED POOL MEASURED. POOL is the `--opponent` list of the `play` command
//! being matched, in its order (`play --games GAMES --seed SEED --opponent A --opponent B ...`
//! plays game i against opponent i mod n, round i / n, drawing from the stream (SEED, i)); the
//! perfect player plays the games of the opponents in MEASURED (comma-separated), the others
//! are skipped. Each game stops when the perfect player is to move in a won position, which it
//! wins whatever the opponent does (see `perfect_play_out`). One thread: every game uses one
//! solver and what it learnt, since the series meets the same openings again and again.

use stacktune_base::rng::{Purpose, stream};
use stacktune_base::stats::Summary;
use stacktune_games::connect::Connect;
use stacktune_games::connect::agents::{Agent, Opponent};
use stacktune_games::connect::matches::MatchResult;
use stacktune_games::connect::perfect::{Perfect, perfect_round};
use std::time::Instant;

fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [games, seed, pool, measured] = args.as_slice() else {
        anyhow::bail!("usage: connect_ceiling GAMES SEED POOL MEASURED");
    };
    let (games, seed): (u64, u64) = (games.parse()?, seed.parse()?);
    let game = Connect::standard();
    let pool: Vec<Opponent> = pool
        .split(',')
        .map(|name| stacktune_players::registry::connect_opponent(&game, name))
        .collect::<anyhow::Result<_>>()?;
    let n = pool.len() as u64;
    let mut perfect = Perfect::new();
    let start = Instant::now();
    println!(
        "perfect player, {games} games against each opponent (seed {seed}), colours alternated"
    );
    println!("opponent    games     wins    draws   losses  score (95 % interval)");
    for name in measured.split(',') {
        let Some(o) = pool.iter().position(|p| p.name() == name) else {
            anyhow::bail!("`{name}` is not in the pool");
        };
        let mut total = MatchResult::default();
        let mut scores = Vec::with_capacity(games as usize);
        for round in 0..games {
            let index = round * n + o as u64;
            let mut rng = stream(seed, Purpose::Games, 0, index);
            let mut agent = pool[o].agent(&game);
            let result = perfect_round(
                &game,
                &mut perfect,
                &mut agent as &mut dyn Agent,
                round,
                &mut rng,
            );
            scores.push(result.score());
            total = total + result;
            if (round + 1) % 100 == 0 {
                eprintln!(
                    "{name}: {} games, {} wins {} draws {} losses, {:.0} s",
                    round + 1,
                    total.wins,
                    total.draws,
                    total.losses,
                    start.elapsed().as_secs_f64()
                );
            }
        }
        let s = Summary::of(&scores);
        let percent = |k: u64| 100.0 * k as f64 / games as f64;
        println!(
            "{name:<10}  {games:>5}  {:>6.1}%  {:>6.1}%  {:>6.1}%  {:.1} % ± {:.1}",
            percent(total.wins),
            percent(total.draws),
            percent(total.losses),
            100.0 * s.mean,
            100.0 * s.ci95
        );
    }
    Ok(())
}
