//! Prints a Connect Four test set after Pascal Pons' recipe, `POSITION SCORE` a line: positions
//! of random games, graded by the discs played (L1: at most 14, L2: 15 to 28, L3: more) and by
//! how many more a perfect game lasts (R1: fewer than 14, R2: 14 to 27, R3: 28 or more).
//!
//! Pons' own sets are not in his repository; these are the same kind, made here, with the
//! scores of our solver (cross-checked against his binary, see docs/connect-search.md).
//!
//! ```sh
//! cargo run --release --example connect_test_sets -- L2_R2 1000 1 > tests/data/connect/test_l2_r2.txt
//! ```
//!
//! Game g of seed S is two `random` agents from the empty board drawing from stream (S, g),
//! played to its end; one of its positions with the set's number of discs is drawn from the
//! same stream and solved (a position taking more than 10 s is skipped: none of R1 or R2 do);
//! it is kept if its remaining moves fit and it is not already in the set.

use stacktune::games::connect::Connect;
use stacktune::games::connect::agents::{Agent, RandomAgent};
use stacktune::games::connect::solver::{Solver, remaining_moves};
use stacktune::progress::{Meter, Mode};
use stacktune::rng::game_stream;
use std::collections::HashSet;
use std::ops::RangeInclusive;
use std::time::Duration;

fn range(level: &str) -> Option<RangeInclusive<u32>> {
    Some(match level {
        "L1" | "R1" => 0..=13,
        "L2" | "R2" => 14..=27,
        "L3" | "R3" => 28..=42,
        _ => return None,
    })
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let parsed = match args.as_slice() {
        [set, count, seed] => set.split_once('_').and_then(|(l, r)| {
            let played = range(l)?;
            // Pons' levels count discs played as ≤ 14, 15..=28, > 28.
            let played = played.start() + u32::from(l != "L1")..=played.end() + 1;
            Some((
                played,
                range(r)?,
                count.parse::<usize>().ok()?,
                seed.parse().ok()?,
            ))
        }),
        _ => None,
    };
    let Some((played, remaining, count, seed)) = parsed else {
        eprintln!("usage: connect_test_sets L<1-3>_R<1-3> COUNT SEED");
        std::process::exit(2);
    };
    let game = Connect::standard();
    let meter = Meter::new(Mode::Quiet, "", Some(Duration::from_secs(10)));
    let mut solver = Solver::metered(meter);
    let mut seen = HashSet::new();
    let mut game_index = 0;
    while seen.len() < count {
        let mut rng = game_stream(seed, game_index);
        game_index += 1;
        let mut position = game.empty();
        let mut moves = String::new();
        let mut candidates = Vec::new();
        loop {
            if played.contains(&position.moves_played()) {
                candidates.push((position, moves.clone()));
            }
            let column = RandomAgent::new(&game).choose(&position, &mut rng);
            if game.play(&mut position, column).is_some() {
                break;
            }
            moves.push(char::from(b'1' + column));
        }
        if candidates.is_empty() {
            continue;
        }
        let pick = rand::RngExt::random_range(&mut rng, 0..candidates.len());
        let (position, moves) = &candidates[pick];
        solver.restart("");
        let Ok(score) = solver.solve(position) else {
            continue;
        };
        if remaining.contains(&remaining_moves(position.moves_played(), score))
            && seen.insert(moves.clone())
        {
            println!("{moves} {score}");
        }
    }
}
