//! Prints the games set of `solve-connect --accuracy` (tests/data/connect/accuracy-games.txt):
//! positions that a player met in real games, with the score of every column, as Pons'
//! `c4solver -a` prints them (so his binary can check them line for line).
//!
//! ```sh
//! cargo run --release --example connect_accuracy_games -- reports/connect-depth4/best.toml 2,4,6 196 1000001 12 \
//!     > tests/data/connect/accuracy-games.txt
//! ```
//!
//! Arguments: WEIGHTS DEPTHS GAMES SEED MIN_DISCS. The weights, searched at each of DEPTHS
//! (comma-separated plies) in turn, play GAMES
//! games against each of `random`, `tutorial` and `negamax4` over the opening suite (each
//! two-move opening with both colours, as `play` schedules them; game i draws from the stream
//! of `play --seed SEED`). Every position of those games with at least MIN_DISCS discs, either
//! side to move, is solved; the ones where some column changes the result are printed once
//! each, in the order the games met them.

use rayon::prelude::*;
use stacktune_base::rng::{Purpose, stream};
use stacktune_games::connect::accuracy::Solved;
use stacktune_games::connect::accuracy::analysis_line;
use stacktune_games::connect::agents::Opponent;
use stacktune_games::connect::matches::{play_round, schedule};
use stacktune_games::connect::solver::Solver;
use stacktune_games::connect::{Connect, Position};
use stacktune_players::search::{Player, Search};
use stacktune_players::weights::WeightFile;
use std::collections::HashSet;
use std::sync::Arc;

fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [weights, depth, games, seed, min_discs] = args.as_slice() else {
        anyhow::bail!("usage: connect_accuracy_games WEIGHTS DEPTHS GAMES SEED MIN_DISCS");
    };
    let (games, seed, min_discs): (u64, u64, usize) =
        (games.parse()?, seed.parse()?, min_discs.parse()?);
    let depths: Vec<u32> = depth.split(',').map(str::parse).collect::<Result<_, _>>()?;
    let game = Connect::standard();
    let mut played = played_positions(&game, weights, &depths, games, seed, min_discs)?;
    let mut seen = HashSet::new();
    for positions in &mut played {
        positions.retain(|m| seen.insert(m.clone()));
    }
    eprintln!("{} positions to solve", seen.len());
    for (moves, solved) in solve_all(&game, &played).iter().flatten() {
        if solved.is_decisive() {
            println!("{}", analysis_line(moves, &solved.columns));
        }
    }
    Ok(())
}

/// The positions of every game the weights play at each of `depths` against each opponent:
/// one list of move strings a game (those with at least `min_discs` discs), in the order the
/// game met them.
fn played_positions(
    game: &Connect,
    weights: &str,
    depths: &[u32],
    games: u64,
    seed: u64,
    min_discs: usize,
) -> anyhow::Result<Vec<Vec<String>>> {
    let opponents = ["random", "tutorial", "negamax4"]
        .map(|name| stacktune_players::registry::connect_opponent(game, name));
    let mut played: Vec<Vec<String>> = Vec::new();
    let fixtures = depths
        .iter()
        .flat_map(|&d| opponents.iter().map(move |o| (d, o)));
    for (depth, opponent) in fixtures {
        let eval = stacktune_players::registry::connect_weights(game, weights, &WeightFile::load)?;
        let player = Opponent::Policy {
            name: weights.to_string(),
            policy: Arc::new(Player::new(eval, Search::AlphaBeta { depth, endgame: 0 })),
        };
        let opponent = opponent.as_ref().map_err(|e| anyhow::anyhow!("{e:#}"))?;
        for round in 0..games {
            played.push(round_positions(
                game, &player, opponent, seed, round, min_discs,
            ));
        }
    }
    Ok(played)
}

/// The positions of round `round` (game `round` of `play --seed seed`) of `player` against
/// `opponent`, as move strings, those with at least `min_discs` discs.
fn round_positions(
    game: &Connect,
    player: &Opponent,
    opponent: &Opponent,
    seed: u64,
    round: u64,
    min_discs: usize,
) -> Vec<String> {
    let openings = game.two_ply_openings();
    let mut rng = stream(seed, Purpose::Games, 0, round);
    let ([a, b], _) = schedule(openings, round);
    let mut moves = format!("{}{}", a + 1, b + 1);
    let mut previous: Option<Position> = None;
    let mut positions = Vec::new();
    play_round(
        game,
        openings,
        round,
        &mut player.agent(game),
        &mut opponent.agent(game),
        &mut rng,
        &mut |p| {
            if let Some(before) = previous {
                let column = (0..7).find(|&c| p.height(c) != before.height(c));
                moves.push(char::from(b'1' + column.expect("one disc was played")));
            }
            previous = Some(*p);
            if moves.len() >= min_discs {
                positions.push(moves.clone());
            }
        },
    );
    positions
}

/// Every game's positions solved, each game's last first on one table: the later ones fill it
/// with what the earlier ones need.
fn solve_all(game: &Connect, played: &[Vec<String>]) -> Vec<Vec<(String, Solved)>> {
    played
        .par_iter()
        .map_init(Solver::new, |solver, positions| {
            let mut out: Vec<(String, Solved)> = positions
                .iter()
                .rev()
                .map(|moves| {
                    let position = game.parse_moves(moves).expect("a position of a game");
                    let columns = solver.analyse(&position).expect("no time limit");
                    (moves.clone(), Solved { position, columns })
                })
                .collect();
            out.reverse();
            out
        })
        .collect()
}
