//! `export kaggle`: the Python agent it writes picks the column stacktune picks at fixed depths
//! (run with the system's `python3`, or `$PYTHON`), and bad input is refused in one line
//! without touching any file.

use stacktune_base::rng::game_stream;
use stacktune_game::Policy;
use stacktune_game::Render;
use stacktune_game::SearchHooks;
use stacktune_games::connect::accuracy::games_set;
use stacktune_games::connect::agents::{Agent, PolicyAgent, RandomAgent};
use stacktune_games::connect::solver::PUBLISHED_VECTORS;
use stacktune_games::connect::{Column, Connect, Position};
use stacktune_players::eval::LinearPlayer;
use stacktune_players::search::{Player, Search};
use stacktune_players::weights::WeightFile;
use std::collections::HashSet;
use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

use crate::common::{assert_one_line_error, root, run_in, stdout};

/// The shipped weights that use every feature family, the parity features included.
const WEIGHTS: &str = "weights/connect/parity.toml";

/// Runs `export kaggle` in `dir`, with `extra` arguments.
fn export_kaggle(dir: &Path, weights: &Path, out: &str, extra: &[&str]) -> std::process::Output {
    let weights = weights.to_str().unwrap();
    let mut args = vec!["export", "kaggle", "--weights", weights, "--out", out];
    args.extend_from_slice(extra);
    run_in(dir, &args)
}

/// Exports the shipped connect weights into `dir` and returns the agent's path.
fn export(dir: &Path) -> std::path::PathBuf {
    let out = export_kaggle(dir, &root().join(WEIGHTS), "submission.py", &[]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(stdout(&out), "kaggle agent: submission.py\n");
    dir.join("submission.py")
}

/// Every position in play on the way to each published vector, the empty board included.
fn published_prefixes(game: &Connect) -> Vec<Position> {
    let mut positions = Vec::new();
    for (moves, _) in PUBLISHED_VECTORS {
        for end in 0..=moves.len() {
            positions.push(game.parse_moves(&moves[..end]).unwrap());
        }
    }
    positions
}

/// The positions of `games` played games, each before its every move: the weights at depth 2
/// against random columns, colours alternated, and two random players, seeded.
fn played_positions(game: &Connect, weights: &LinearPlayer, games: u64) -> Vec<Position> {
    let player = Player::new(
        weights.clone(),
        Search::AlphaBeta {
            depth: 2,
            endgame: 0,
        },
    );
    let mut positions = Vec::new();
    for seed in 0..games {
        let mut rng = game_stream(seed, 0);
        let mut position = game.empty();
        let tuned = if seed % 3 == 2 { None } else { Some(seed % 2) };
        loop {
            positions.push(position);
            let column = if tuned == Some(position.to_move() as u64) {
                PolicyAgent::new(game, &player).choose(&position, &mut rng)
            } else {
                RandomAgent::new(game).choose(&position, &mut rng)
            };
            if game.play(&mut position, column).is_some() {
                break;
            }
        }
    }
    positions
}

/// The board as Kaggle's observation holds it: row 0 at the top, 1 the first player.
fn kaggle_board(game: &Connect, position: &Position) -> Vec<u8> {
    game.rows(position)
        .iter()
        .flat_map(|row| {
            row.chars()
                .map(|c| match c {
                    'X' => 1,
                    'O' => 2,
                    _ => 0,
                })
                .collect::<Vec<_>>()
        })
        .collect()
}

/// A position, a search depth and an endgame (0: none): what the agent and stacktune are asked.
type Query = (Position, u32, u32);

/// The columns the exported agent picks for `queries` at the game's size, with its opening
/// book when `book`.
fn python_columns(agent: &Path, game: &Connect, queries: &[Query], book: bool) -> Vec<Column> {
    let python = std::env::var("PYTHON").unwrap_or_else(|_| "python3".into());
    let script = root().join("tests/kaggle/same_column.py");
    let mut child = Command::new(&python)
        .arg(&script)
        .arg(agent)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot run `{python}` (set PYTHON to a Python 3): {e}"));
    let g = game.geometry();
    let mut input = String::new();
    for (position, depth, endgame) in queries {
        let query = serde_json::json!({
            "board": kaggle_board(game, position),
            "mark": position.to_move() + 1,
            "rows": g.rows(),
            "columns": g.columns(),
            "inarow": g.inarow(),
            "depth": depth,
            "endgame": endgame,
            "book": book,
        });
        input.push_str(&query.to_string());
        input.push('\n');
    }
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()).unwrap());
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    assert!(out.status.success(), "{python} {} failed", script.display());
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| l.parse().unwrap())
        .collect()
}

/// The column stacktune picks for `query`.
fn stacktune_column(game: &Connect, weights: &LinearPlayer, query: &Query) -> Column {
    let (position, depth, endgame) = *query;
    let player = Player::new(weights.clone(), Search::AlphaBeta { depth, endgame });
    player.choose(game, &position).unwrap()
}

/// Asserts that the agent picks stacktune's column for every query (with its opening book
/// when `game` has one); returns the columns.
fn assert_same_columns(
    agent: &Path,
    game: &Connect,
    weights: &LinearPlayer,
    queries: &[Query],
) -> Vec<Column> {
    let booked = game.perfect_moves(&game.empty(), 0).is_some();
    let theirs = python_columns(agent, game, queries, booked);
    assert_eq!(theirs.len(), queries.len());
    for (query, column) in queries.iter().zip(&theirs) {
        let (position, depth, endgame) = query;
        assert_eq!(
            *column,
            stacktune_column(game, weights, query),
            "depth {depth}, endgame {endgame}, {} to move:\n{}",
            ["X", "O"][position.to_move()],
            game.render(position)
        );
    }
    theirs
}

/// `positions` without repeats, in their first order.
fn distinct(positions: &[Position]) -> Vec<Position> {
    let mut seen = HashSet::new();
    positions
        .iter()
        .filter(|p| seen.insert(**p))
        .copied()
        .collect()
}

/// Compares the agent with stacktune at depths 1 to 4 on `positions`; returns how many
/// positions were compared and how many changed their column between depth 1 and depth 4.
fn compare(
    agent: &Path,
    game: &Connect,
    weights: &LinearPlayer,
    positions: &[Position],
) -> (usize, usize) {
    let positions = distinct(positions);
    let queries: Vec<Query> = positions
        .iter()
        .flat_map(|p| (1..=4).map(move |depth| (*p, depth, 0)))
        .collect();
    let columns = assert_same_columns(agent, game, weights, &queries);
    let deeper_differs = columns.chunks(4).filter(|c| c[0] != c[3]).count();
    (positions.len(), deeper_differs)
}

fn weights_for(game: &Connect) -> LinearPlayer {
    let file = WeightFile::load(&root().join(WEIGHTS)).unwrap();
    LinearPlayer::from_file(game, &file).unwrap()
}

#[test]
fn the_agent_picks_stacktunes_column_at_depths_1_to_4() {
    let dir = tempfile::tempdir().unwrap();
    let agent = export(dir.path());
    let game = Connect::standard();
    let weights = weights_for(&game);
    let mut positions = published_prefixes(&game);
    positions.extend(played_positions(&game, &weights, 80));
    let (compared, deeper_differs) = compare(&agent, &game, &weights, &positions);
    assert!(compared >= 1000, "{compared} positions");
    // The depths are different players: a test that only met depth 1's choices would not
    // show the search is the same.
    assert!(deeper_differs > 100, "{deeper_differs} of {compared}");
}

/// With an endgame stage (`--endgame`), on positions of played games and of the games set
/// with up to 24 empty cells, either side of the stage's start.
#[test]
fn the_agent_picks_stacktunes_column_with_an_endgame() {
    let dir = tempfile::tempdir().unwrap();
    let weights = root().join(WEIGHTS);
    let out = export_kaggle(dir.path(), &weights, "submission.py", &["--endgame", "20"]);
    assert!(out.status.success(), "{out:?}");
    let agent = dir.path().join("submission.py");
    let python = std::fs::read_to_string(&agent).unwrap();
    assert_eq!(python.matches("\nENDGAME = 20\n").count(), 1);
    let game = Connect::standard();
    let weights = weights_for(&game);
    let late = |p: &Position| 42 - p.moves_played() <= 24;
    let mut positions: Vec<Position> = played_positions(&game, &weights, 80)
        .into_iter()
        .filter(late)
        .collect();
    // The games set: every third position, so that the test stays within seconds.
    positions.extend(
        games_set()
            .iter()
            .map(|s| s.position)
            .filter(late)
            .step_by(3),
    );
    let positions = distinct(&positions);
    let mut queries: Vec<Query> = Vec::new();
    for endgame in [16, 20] {
        for depth in [1, 2, 4] {
            queries.extend(positions.iter().map(|p| (*p, depth, endgame)));
        }
    }
    let columns = assert_same_columns(&agent, &game, &weights, &queries);
    let within: Vec<(&Query, &Column)> = queries
        .iter()
        .zip(&columns)
        .filter(|((p, _, endgame), _)| 42 - p.moves_played() <= *endgame)
        .collect();
    // The stage changed the choice of the plain search on some of them: a test where it never
    // did would not show that the agent restricts its search as stacktune does.
    let changed = within
        .iter()
        .filter(|((p, depth, _), column)| {
            stacktune_column(&game, &weights, &(*p, *depth, 0)) != **column
        })
        .count();
    assert!(
        within.len() >= 1000,
        "{} queries within the endgame",
        within.len()
    );
    assert!(
        changed >= 50,
        "the endgame changed {changed} of {} choices",
        within.len()
    );
}

/// Kaggle configures the board and the line: the agent follows any size stacktune plays.
#[test]
fn the_agent_picks_stacktunes_column_on_other_sizes() {
    let dir = tempfile::tempdir().unwrap();
    let agent = export(dir.path());
    for (rows, columns, inarow) in [(7, 8, 5), (5, 6, 4), (4, 9, 4)] {
        let game = Connect::new(rows, columns, inarow).unwrap();
        let weights = weights_for(&game);
        let positions = played_positions(&game, &weights, 12);
        let (compared, _) = compare(&agent, &game, &weights, &positions);
        assert!(compared >= 100, "{columns}x{rows}: {compared} positions");
    }
}

#[test]
fn an_existing_out_file_is_never_overwritten() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("submission.py"), "mine").unwrap();
    let out = export_kaggle(dir.path(), &root().join(WEIGHTS), "submission.py", &[]);
    assert_one_line_error(&out, "submission.py already exists; it is not overwritten");
    assert_eq!(
        std::fs::read_to_string(dir.path().join("submission.py")).unwrap(),
        "mine"
    );
}

#[test]
fn weights_of_another_game_or_no_file_are_refused_in_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let tetris = root().join("weights/contest/beam-l2.toml");
    let out = export_kaggle(dir.path(), &tetris, "a.py", &[]);
    assert_one_line_error(
        &out,
        &format!(
            "weights file {}: the weights are for game `tetris`, not `connect`",
            tetris.display()
        ),
    );
    let out = export_kaggle(dir.path(), Path::new("missing.toml"), "a.py", &[]);
    assert_one_line_error(&out, "cannot read weights file missing.toml");
    // Nothing was written, not even a temporary file.
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
}

#[test]
fn an_endgame_beyond_the_board_is_refused_in_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let weights = root().join(WEIGHTS);
    let out = export_kaggle(dir.path(), &weights, "submission.py", &["--endgame", "43"]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "error: invalid value '43' for '--endgame <N>': 43 is not in 0..=42 \
         (--help lists the options)\n"
    );
    assert_eq!(stdout(&out), "");
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
}

/// Runs `export contest` in `dir`.
fn export_contest(dir: &Path, weights: &Path, out: &str) -> std::process::Output {
    let weights = weights.to_str().unwrap();
    run_in(
        dir,
        &["export", "contest", "--weights", weights, "--out", out],
    )
}

#[test]
fn the_contest_controller_embeds_the_weights_file_whole() {
    // That the controller plays stacktune's moves is tests/contest_controller's (Python) job.
    let dir = tempfile::tempdir().unwrap();
    let weights = root().join("weights/contest/beam-l2.toml");
    let out = export_contest(dir.path(), &weights, "block_controller.py");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(stdout(&out), "contest controller: block_controller.py\n");
    let python = std::fs::read_to_string(dir.path().join("block_controller.py")).unwrap();
    let text = std::fs::read_to_string(&weights).unwrap();
    let line = format!("WEIGHTS_TOML = {}\n", serde_json::to_string(&text).unwrap());
    assert_eq!(python.matches(&line).count(), 1);
    assert!(python.contains("pip install ./python"));
    assert!(python.ends_with("BLOCK_CONTROLLER = Block_Controller()\n"));
}

#[test]
fn the_contest_export_refuses_in_one_line_and_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let connect = root().join(WEIGHTS);
    let out = export_contest(dir.path(), &connect, "a.py");
    assert_one_line_error(
        &out,
        &format!(
            "weights file {}: the weights are for game `connect`, not `tetris`",
            connect.display()
        ),
    );
    let research = root().join("weights/tetris/dellacherie.toml");
    let out = export_contest(dir.path(), &research, "a.py");
    assert_one_line_error(
        &out,
        &format!(
            "weights file {}: the weights are for tetris rules `research`, not `contest`",
            research.display()
        ),
    );
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
    std::fs::write(dir.path().join("block_controller.py"), "mine").unwrap();
    let weights = root().join("weights/contest/beam-l2.toml");
    let out = export_contest(dir.path(), &weights, "block_controller.py");
    assert_one_line_error(
        &out,
        "block_controller.py already exists; it is not overwritten",
    );
    assert_eq!(
        std::fs::read_to_string(dir.path().join("block_controller.py")).unwrap(),
        "mine"
    );
}

/// Every export kind, given its weights by an absolute path and by a relative one through
/// directories, writes the file's own name and the SHA-256 of its bytes (`sha256sum`), and
/// nothing of the directories it was found in.
#[test]
fn no_export_names_a_path_of_the_machine() {
    let kinds = [
        (
            "kaggle",
            "game = \"connect\"\n[weights]\nown_centre = 1.0\n",
            "91da37f8f7aafb170e062771115b1d6f1c7cd653be34ad2308060056c4461c23",
        ),
        (
            "contest",
            "game = \"tetris\"\nrules = \"contest\"\n[weights]\nholes = -1.0\n",
            "48fb85e23bccc262e062f39db5d154b56b0907f6c96f5069066597146870dc2f",
        ),
    ];
    for (kind, text, sha256) in kinds {
        let dir = tempfile::tempdir().unwrap();
        let private = dir.path().join("home-of-someone").join("my-runs");
        std::fs::create_dir_all(&private).unwrap();
        std::fs::write(private.join("w.toml"), text).unwrap();
        let absolute = private.join("w.toml");
        let weights = [absolute.to_str().unwrap(), "home-of-someone/my-runs/w.toml"];
        for (i, weights) in weights.into_iter().enumerate() {
            let out = format!("export{i}.py");
            let args = ["export", kind, "--weights", weights, "--out", &out];
            let run = run_in(dir.path(), &args);
            assert!(run.status.success(), "{kind}: {run:?}");
            let python = std::fs::read_to_string(dir.path().join(&out)).unwrap();
            let lines = format!("\nSOURCE = \"w.toml\"\nSOURCE_SHA256 = \"{sha256}\"\n");
            assert_eq!(python.matches(&lines).count(), 1, "{kind}: {weights}");
            for fragment in ["home-of-someone", "my-runs", dir.path().to_str().unwrap()] {
                assert!(!python.contains(fragment), "{kind} names `{fragment}`");
            }
        }
    }
}

/// `--book`: a book file is checked line by line before anything is written, and `none`
/// embeds an empty book.
#[test]
fn the_book_is_checked_or_left_out() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("bad.txt"), ". 4\n444444 4\n").unwrap();
    let weights = root().join(WEIGHTS);
    let out = export_kaggle(dir.path(), &weights, "a.py", &["--book", "bad.txt"]);
    assert_one_line_error(&out, "book file bad.txt: line 2: column 4 is full");
    assert!(!dir.path().join("a.py").exists());
    let out = export_kaggle(dir.path(), &weights, "a.py", &["--book", "none"]);
    assert!(out.status.success(), "{out:?}");
    let python = std::fs::read_to_string(dir.path().join("a.py")).unwrap();
    assert_eq!(python.matches("\nBOOK_PLIES = 0\nBOOK = {}\n").count(), 1);
}
