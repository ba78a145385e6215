//! A game of your own, outside the library: trominoes (falling pieces of three cells, the
//! straight `I` and the bent `V`) dropped into an 8 × 12 well, rows cleared when full. It is
//! written against stacktune's public API only, and tuned, played and plotted as a built-in
//! game is: `docs/adding-a-game.md` walks through it.
//!
//! ```sh
//! cargo run --release --example trominoes -- evolve runs/trominoes-example
//! cargo run --release --example trominoes -- resume runs/trominoes-example
//! cargo run --release --example trominoes -- play runs/trominoes-example/best.toml
//! ```

use rand::RngExt;
use rand_chacha::ChaCha8Rng;
use serde_json::{Value, json};
use stacktune_base::progress::Mode;
use stacktune_base::stats::Summary;
use stacktune_game::Episodes;
use stacktune_game::Render;
use stacktune_game::SearchHooks;
use stacktune_game::replay::Replayable;
use stacktune_game::{FeatureMask, FeatureValues, Game, Outcome};
use stacktune_games::settings::GameSpec;
use stacktune_players::weights::WeightFile;
use stacktune_run::backend::LocalGame;
use stacktune_run::folder::RunFolder;
use stacktune_run::play::PlayArgs;
use stacktune_run::play::player_for;
use stacktune_run::{RunConfig, RunResult, evolve, rerun_of_finished};
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;

/// The well's size: small, so that a tuning run takes seconds.
const WIDTH: usize = 8;
const HEIGHT: usize = 12;
const FULL: u16 = (1 << WIDTH) - 1;

/// The pieces, by letter.
const LETTERS: [char; 2] = ['I', 'V'];

/// Each piece's orientations, each as its cells (column, row) from its lowest, leftmost
/// corner: `I` lying and standing, `V` in its four turns.
const SHAPES: [&[&[(usize, usize)]]; 2] = [
    &[&[(0, 0), (1, 0), (2, 0)], &[(0, 0), (0, 1), (0, 2)]],
    &[
        &[(0, 0), (1, 0), (0, 1)],
        &[(0, 0), (1, 0), (1, 1)],
        &[(0, 0), (0, 1), (1, 1)],
        &[(1, 0), (0, 1), (1, 1)],
    ],
];

/// The game's features, in its own order (files name them, so the order never leaks).
const FEATURES: [&str; 6] = [
    "landing_height",
    "lines",
    "holes",
    "bumpiness",
    "aggregate_height",
    "max_height",
];

/// The trominoes game: its rules and features. It carries no settings; a game with settings
/// would read them from the run's `GameSpec` when it is made.
#[derive(Clone, Debug, Default)]
pub struct Trominoes;

/// The well (row 0 at the bottom, bit x for column x) and the piece to place.
#[derive(Clone, Debug, PartialEq)]
pub struct Position {
    rows: [u16; HEIGHT],
    piece: usize,
}

/// A placement: which orientation of the piece, its leftmost column.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Drop {
    orientation: usize,
    column: usize,
}

impl Position {
    fn column_height(&self, x: usize) -> usize {
        (0..HEIGHT)
            .rev()
            .find(|&y| self.rows[y] >> x & 1 == 1)
            .map_or(0, |y| y + 1)
    }

    fn heights(&self) -> [usize; WIDTH] {
        std::array::from_fn(|x| self.column_height(x))
    }
}

impl Trominoes {
    /// Drops `cells` with their left edge at `column`; the rows cleared and the row the piece
    /// landed on, or `None` when the piece does not fit in the well (it would top out).
    fn place(
        rows: &mut [u16; HEIGHT],
        heights: &[usize; WIDTH],
        cells: &[(usize, usize)],
        column: usize,
    ) -> Option<(u32, usize)> {
        // The piece rests where its lowest cell in some column meets that column's top.
        let landing = cells
            .iter()
            .map(|&(dx, dy)| heights[column + dx].saturating_sub(dy))
            .max()?;
        for &(dx, dy) in cells {
            let y = landing + dy;
            if y >= HEIGHT {
                return None;
            }
            rows[y] |= 1 << (column + dx);
        }
        let kept: Vec<u16> = rows.iter().copied().filter(|&r| r != FULL).collect();
        let cleared = (HEIGHT - kept.len()) as u32;
        *rows = [0; HEIGHT];
        rows[..kept.len()].copy_from_slice(&kept);
        Some((cleared, landing))
    }

    /// The features of the well `rows` left by a move that landed on row `landing` and
    /// cleared `lines` rows.
    fn features(rows: &[u16; HEIGHT], landing: usize, lines: u32) -> FeatureValues {
        let after = Position {
            rows: *rows,
            piece: 0,
        };
        let heights = after.heights();
        let holes: usize = (0..WIDTH)
            .map(|x| (0..heights[x]).filter(|&y| rows[y] >> x & 1 == 0).count())
            .sum();
        let bumpiness: usize = heights.windows(2).map(|w| w[0].abs_diff(w[1])).sum();
        let mut values = FeatureValues::default();
        for (i, v) in [
            landing as f64,
            lines as f64,
            holes as f64,
            bumpiness as f64,
            heights.iter().sum::<usize>() as f64,
            *heights.iter().max().expect("a well has columns") as f64,
        ]
        .into_iter()
        .enumerate()
        {
            values.0[i] = v;
        }
        values
    }
}

impl Game for Trominoes {
    type Position = Position;

    type Move = Drop;

    fn name(&self) -> &'static str {
        "trominoes"
    }

    fn rules(&self) -> String {
        format!("{WIDTH}x{HEIGHT}, pieces I and V")
    }

    fn feature_names(&self) -> &'static [&'static str] {
        &FEATURES
    }

    fn start(&self, rng: &mut ChaCha8Rng) -> Position {
        Position {
            rows: [0; HEIGHT],
            piece: rng.random_range(0..LETTERS.len()),
        }
    }

    /// Every orientation at every column where it fits; the features are cheap enough to
    /// compute all of them whatever the mask asks for.
    fn for_each_move(
        &self,
        position: &Position,
        _mask: FeatureMask,
        visit: &mut impl FnMut(Drop, &Position, &Outcome, &FeatureValues),
    ) {
        let heights = position.heights();
        for (orientation, cells) in SHAPES[position.piece].iter().enumerate() {
            let span = cells.iter().map(|&(dx, _)| dx).max().unwrap_or(0) + 1;
            for column in 0..=WIDTH - span {
                let mut rows = position.rows;
                let Some((lines, landing)) = Self::place(&mut rows, &heights, cells, column) else {
                    continue;
                };
                let outcome = Outcome {
                    cleared: lines,
                    points: lines as f64,
                    ..Outcome::default()
                };
                let after = Position {
                    rows,
                    piece: position.piece,
                };
                let features = Self::features(&rows, landing, lines);
                visit(
                    Drop {
                        orientation,
                        column,
                    },
                    &after,
                    &outcome,
                    &features,
                );
            }
        }
    }

    fn shows_next(&self, _position: &Position) -> bool {
        false
    }

    fn apply(&self, position: &mut Position, mv: Drop, rng: &mut ChaCha8Rng) -> Outcome {
        let heights = position.heights();
        let cells = SHAPES[position.piece][mv.orientation];
        let (lines, _) = Self::place(&mut position.rows, &heights, cells, mv.column)
            .expect("a move the game offered fits");
        position.piece = rng.random_range(0..LETTERS.len());
        Outcome {
            cleared: lines,
            points: lines as f64,
            ..Outcome::default()
        }
    }

    fn score_name(&self) -> &'static str {
        "lines"
    }
}

impl SearchHooks for Trominoes {
    fn points_feature(&self) -> Option<&'static str> {
        Some("lines")
    }
}

impl Episodes for Trominoes {}

impl Render for Trominoes {
    fn render(&self, position: &Position) -> String {
        let mut text = self.board_rows(position).join("\n");
        text += &format!("\nnext: {}", LETTERS[position.piece]);
        text
    }
}

/// The report page plays moves back with its own copy of a game's rules. Dropping pieces into
/// a well and clearing full rows are Tetris's rules, so the page plays this game's moves as
/// research Tetris's, with this game's pieces: `[orientation, column, bottom row, piece drawn]`.
impl Replayable for Trominoes {
    fn replay_setup(&self) -> Value {
        // Each orientation as the page draws it: its rows, top first, `#` for a cell.
        let pictures = |cells: &[(usize, usize)]| -> Vec<String> {
            let width = cells.iter().map(|&(dx, _)| dx).max().unwrap_or(0) + 1;
            let height = cells.iter().map(|&(_, dy)| dy).max().unwrap_or(0) + 1;
            (0..height)
                .rev()
                .map(|dy| {
                    (0..width)
                        .map(|dx| if cells.contains(&(dx, dy)) { '#' } else { '.' })
                        .collect()
                })
                .collect()
        };
        let shapes: serde_json::Map<String, Value> = LETTERS
            .iter()
            .zip(SHAPES)
            .map(|(letter, turns)| {
                let turns: Vec<Vec<String>> = turns.iter().map(|c| pictures(c)).collect();
                (letter.to_string(), json!(turns))
            })
            .collect();
        json!({
            "kind": "tetris",
            "rules": self.rules(),
            "width": WIDTH,
            "height": HEIGHT,
            "shapes": shapes,
        })
    }

    fn board_rows(&self, position: &Position) -> Vec<String> {
        (0..HEIGHT)
            .rev()
            .map(|y| {
                (0..WIDTH)
                    .map(|x| match position.rows[y] >> x & 1 {
                        1 => '#',
                        _ => '.',
                    })
                    .collect()
            })
            .collect()
    }

    fn shown_pieces(&self, position: &Position) -> Value {
        LETTERS[position.piece].to_string().into()
    }

    fn replay_step(
        &self,
        before: &Position,
        chosen: Option<Drop>,
        after: &Position,
    ) -> Option<Vec<Value>> {
        let mv = chosen?;
        let cells = SHAPES[before.piece][mv.orientation];
        let mut rows = before.rows;
        let (_, bottom) = Self::place(&mut rows, &before.heights(), cells, mv.column)?;
        Some(vec![
            mv.orientation.into(),
            mv.column.into(),
            bottom.into(),
            self.shown_pieces(after),
        ])
    }
}

/// The run this example tunes: the GA from naive weights (`examples/trominoes-start.toml`,
/// also the baseline), games capped at 500 pieces so a good player's games end too.
pub fn config() -> RunConfig {
    let start = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/trominoes-start.toml");
    let mut config = RunConfig {
        name: "example".into(),
        seed: 7,
        generations: 8,
        games: 8,
        max_pieces: 500,
        init: Some(start.clone()),
        baseline: Some(start),
        validation_games: 50,
        validate_every: 4,
        final_games: 200,
        validation_max_pieces: 500,
        game: GameSpec {
            game: Some("trominoes".into()),
            ..GameSpec::default()
        },
        ..RunConfig::default()
    };
    config.ga.population = 16;
    config.ga.elitism = 2;
    config
}

/// Runs `config` in the new folder `out`, or resumes the run in `out`: what
/// `stacktune evolve --out` and `stacktune evolve --resume` do for a built-in game.
pub fn tune(config: &RunConfig, out: &Path, resume: bool, mode: Mode) -> anyhow::Result<RunResult> {
    let game = Trominoes;
    let backend = LocalGame(&game);
    if resume {
        let folder = RunFolder::resume(out, rerun_of_finished)?;
        let config = RunConfig::load(&folder.path().join("run.toml"))?;
        return evolve(
            &game,
            &config,
            move || Ok(folder),
            true,
            mode,
            &backend,
            None,
        );
    }
    let open = || {
        RunFolder::claim(out, false, |run_toml: &Path| {
            RunConfig::load(run_toml).is_ok_and(|old| old.same_run(config))
        })
    };
    evolve(&game, config, open, false, mode, &backend, None)
}

/// Plays the weights file `weights` on `games` held-out games of `seed`, as `stacktune play`
/// plays a built-in game's: `play`'s own function, on this game's backend.
pub fn play(weights: &Path, games: u64, seed: u64) -> anyhow::Result<Summary> {
    let game = Trominoes;
    let args = PlayArgs {
        game: config().game,
        games,
        seed,
        max_pieces: Some(config().validation_max_pieces),
        quiet: true,
        ..PlayArgs::defaults(weights)
    };
    let player = player_for(&game, &args.game, &WeightFile::load(weights)?, weights)?;
    let stop = AtomicBool::new(false);
    let numbered = game.numbered_from(seed);
    Ok(stacktune_run::play::play(&LocalGame(&game), &numbered, &player, &args, &stop)?.summary)
}

fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = "usage: trominoes evolve OUT | resume OUT | play WEIGHTS";
    let (Some(verb), Some(path)) = (args.first(), args.get(1).map(PathBuf::from)) else {
        anyhow::bail!("{usage}");
    };
    match verb.as_str() {
        "evolve" | "resume" => {
            let result = tune(&config(), &path, verb == "resume", Mode::detect(false))?;
            println!("report: {}", result.dir.display());
            let b = &result.best;
            println!(
                "best weights: {}/best.toml, {:.1} ± {:.1} lines on {} held-out games",
                result.dir.display(),
                b.mean,
                b.ci95,
                b.games
            );
            if let Some((start, s)) = &result.baseline {
                println!(
                    "start {}: {:.1} ± {:.1} on the same games",
                    start.display(),
                    s.mean,
                    s.ci95
                );
            }
        }
        "play" => {
            let config = config();
            let s = play(&path, config.final_games, config.validation_seed)?;
            println!(
                "{}: {:.1} ± {:.1} lines (95 % CI) on {} games of seed {}",
                path.display(),
                s.mean,
                s.ci95,
                s.games,
                config.validation_seed
            );
        }
        _ => anyhow::bail!("{usage}"),
    }
    Ok(())
}
