//! Prints a Connect Four test set after Pascal Pons' recipe, `POSITION SCORE` a line: positions
//! of random games, graded by the discs played (L1: at most 14, L2: 15 to 28, L3: more) and by
//! how many more a perfect game lasts (R1: fewer than 14, R2: 14 to 27, R3: 28 or more).
//!
//! Pons' own sets are not in his repository; these are the same kind, made here, with the
//! scores of our solver (cross-checked against his binary, see docs/notes/connect.md).
//!
//! ```sh
//! cargo run --release --example connect_test_sets -- L2_R2 1000 1 > tests/data/connect/test_l2_r2.txt
//! ```
//!
//! Game g of seed S is two `random` agents from the empty board drawing from stream (S, g),
//! played to its end; one of its positions with the set's number of discs is drawn from the
//! same stream; it is kept if it is not already in the set and the discs left in a perfect game
//! from it fit. The solver is asked only whether its score is one that fits, which rejects most
//! candidates with a bound instead of an exact score (the sets are the same as solving each);
//! a position that takes more than 10 s is skipped.

use stacktune_base::progress::{Meter, Mode, Stopped};
use stacktune_base::rng::game_stream;
use stacktune_games::connect::agents::{Agent, RandomAgent};
use stacktune_games::connect::solver::{Solver, remaining_moves};
use stacktune_games::connect::{Connect, Position};
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
    let mut skipped = 0;
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
        if seen.contains(moves) {
            continue;
        }
        solver.restart("");
        match score_if_it_fits(&mut solver, &game, position, &remaining) {
            Ok(Some(score)) => {
                seen.insert(moves.clone());
                println!("{moves} {score}");
            }
            Ok(None) => {}
            Err(_) => skipped += 1,
        }
    }
    // The skipped positions are the ones the set is biased against: say how many.
    eprintln!(
        "{count} positions from {game_index} games; {skipped} skipped at the 10 s time limit"
    );
}

/// The score of `position` when a perfect game from it lasts a number of discs in
/// `remaining`, `None` when it does not, an error when the time limit stopped the search. Each run
/// of scores that fit is asked for with `solve_within`: most candidates fit none, and proving
/// a bound rejects them with fewer nodes than an exact score would take.
fn score_if_it_fits(
    solver: &mut Solver,
    game: &Connect,
    position: &Position,
    remaining: &RangeInclusive<u32>,
) -> Result<Option<i32>, Stopped> {
    let played = position.moves_played();
    let empty = (game.geometry().rows() * game.geometry().columns() - played) as i32;
    let fits = |score: i32| remaining.contains(&remaining_moves(played, score));
    // From a loss to the opponent's next disc to a win with our own.
    let (mut score, last) = (-empty / 2, (empty + 1) / 2);
    while score <= last {
        if fits(score) {
            let first = score;
            while score < last && fits(score + 1) {
                score += 1;
            }
            if let Some(exact) = solver.solve_within(position, first..=score)? {
                return Ok(Some(exact));
            }
        }
        score += 1;
    }
    Ok(None)
}
