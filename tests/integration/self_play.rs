//! Self-play runs: `evolve` with a `[matches]` table rates each candidate by a Bradley–Terry
//! fit to its matches against its generation's peers, the hall of fame and the game's anchors.
//! The runs keep a stacktune run's contracts: the same bytes at any thread count and after a
//! resume, a rating column in history.csv, and one-line refusals of what cannot be rated.

use crate::common::*;
use std::path::Path;

/// A small guideline versus run: 5 candidates, 3 peers drawn each generation, the hand-set
/// weights as the anchor, a hall of fame of one, short capped games.
const GUIDELINE: &str = r#"
name = "selfplay"
seed = 3
generations = 3
games = 2
max_pieces = 40
validation_games = 4
validate_every = 2
final_games = 4
validation_max_pieces = 40
validation_seed = 11
hall_of_fame = 1

[game]
game = "tetris"
rules = "guideline"
beam_width = 4
opponents = ["hand"]

[matches]
peers = 3

[optimizer]
kind = "cmaes"

[cmaes]
population = 5
sigma0 = 0.1
"#;

/// A Connect Four round robin: every candidate meets every other, `random` is the anchor.
const CONNECT: &str = r#"
name = "selfplay"
seed = 4
generations = 3
games = 2
validation_games = 8
validate_every = 1
final_games = 8
validation_seed = 9
hall_of_fame = 1

[game]
game = "connect"
opponents = ["random"]

[matches]

[ga]
population = 6
elitism = 1
"#;

/// A Puyo versus run from the hand-set match player: 5 candidates, 3 peers, `hand.toml` (beside
/// the config) as the anchor, a hall of fame of one, matches of at most 30 pairs a side.
const PUYO: &str = r#"
name = "selfplay"
seed = 5
generations = 3
games = 2
max_pieces = 30
validation_games = 4
validate_every = 2
final_games = 4
validation_max_pieces = 30
validation_seed = 13
hall_of_fame = 1
init = "versus-hand.toml"

[game]
game = "puyo"
mode = "versus"
opponents = ["hand.toml"]

[matches]
peers = 3

[optimizer]
kind = "cmaes"

[cmaes]
population = 5
sigma0 = 0.1
"#;

fn evolve(dir: &Path, config: &str, out: &str, threads: &str) {
    let o = run_in(
        dir,
        &[
            "evolve",
            "--config",
            config,
            "--quiet",
            "--out",
            out,
            "--threads",
            threads,
        ],
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
}

fn assert_same(dir: &Path, a: &str, b: &str, what: &str) {
    for name in ["history.csv", "best.toml", "checkpoint.json"] {
        assert_eq!(
            read(&dir.join(a), name),
            read(&dir.join(b), name),
            "{what}: {name} differs"
        );
    }
}

/// Runs `config` (`dir/run.toml`) with 1 and 2 threads into `dir/whole` and `dir/two`, which
/// must hold the same bytes.
fn same_at_any_thread_count(dir: &Path, config: &str) {
    std::fs::write(dir.join("run.toml"), config).unwrap();
    evolve(dir, "run.toml", "whole", "1");
    evolve(dir, "run.toml", "two", "2");
    assert_same(dir, "whole", "two", "1 and 2 threads");
}

/// Runs `config` (of 3 generations) for 2 generations into `dir/cut`, then resumes it for the
/// third: it must end with the bytes of `dir/whole`, the same run left alone; `what` names it.
fn same_after_resume(dir: &Path, config: &str, what: &str) {
    let short = config.replace("generations = 3", "generations = 2");
    std::fs::write(dir.join("short.toml"), short).unwrap();
    evolve(dir, "short.toml", "cut", "2");
    let cut = dir.join("cut");
    let run_toml = read(&cut, "run.toml").replace("generations = 2", "generations = 3");
    std::fs::write(cut.join("run.toml"), run_toml).unwrap();
    resume_gives_whole(dir, what);
}

/// The value of `column` in each row of `history.csv`.
fn column(history: &str, column: &str) -> Vec<String> {
    let mut lines = history.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let at = header.iter().position(|&h| h == column).unwrap();
    lines
        .map(|l| l.split(',').nth(at).unwrap().to_string())
        .collect()
}

#[test]
fn a_guideline_self_play_run_is_the_same_at_any_thread_count_and_after_resume() {
    let dir = tempfile::tempdir().unwrap();
    same_at_any_thread_count(dir.path(), GUIDELINE);

    let history = read(&dir.path().join("whole"), "history.csv");
    // Games so far: 5 candidates × 2 games × (1 anchor + hall + 3 peers) a generation; the
    // hall of fame is empty in generation 0 and holds one best from then on.
    assert_eq!(column(&history, "evaluations"), ["40", "90", "140"]);
    // Each best's rating carries its interval: finite and positive.
    for ci in column(&history, "best_ci") {
        let ci: f64 = ci.parse().unwrap();
        assert!(ci.is_finite() && ci > 0.0, "{history}");
    }
    let page = read(&dir.path().join("whole"), "report.html");
    assert!(
        page.contains("in logistic Elo above `hand`"),
        "the rating chart names its anchor"
    );
    assert!(
        page.contains("right: the best before it (generation"),
        "the page replays the best against the previous best"
    );

    same_after_resume(dir.path(), GUIDELINE, "a self-play run");
}

/// A temporary folder holding the Puyo runs' weights files (`hand.toml`, `versus-hand.toml`).
fn puyo_folder() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for name in ["hand.toml", "versus-hand.toml"] {
        std::fs::copy(
            root().join("weights/puyo").join(name),
            dir.path().join(name),
        )
        .unwrap();
    }
    dir
}

#[test]
fn a_puyo_self_play_run_is_the_same_at_any_thread_count_and_after_resume() {
    let dir = puyo_folder();
    same_at_any_thread_count(dir.path(), PUYO);
    let whole = dir.path().join("whole");
    let history = read(&whole, "history.csv");
    // 5 candidates × 2 games × (1 anchor + hall + 3 peers) a generation.
    assert_eq!(column(&history, "evaluations"), ["40", "90", "140"]);
    // The candidates weigh the match features as weights of their own.
    assert!(read(&whole, "best.toml").contains("match_lethal = "));
    let page = read(&whole, "report.html");
    assert!(page.contains("in logistic Elo above `hand.toml`"));
    // The page replays its best against the anchor, then against the best before it, each
    // match with both fields, to its end: at 30 pairs a side, both draws.
    let start = page.find(r#"id="data">"#).unwrap() + r#"id="data">"#.len();
    let end = start + page[start..].find("</script>").unwrap();
    let data: serde_json::Value = serde_json::from_str(&page[start..end]).unwrap();
    let replays = data["replays"].as_array().unwrap();
    let versus: Vec<&str> = replays
        .iter()
        .map(|r| r["versus"].as_str().unwrap())
        .collect();
    assert_eq!(
        versus,
        [
            "left: the weights, right: hand.toml",
            "left: the best of generation 2, right: the best before it (generation 1)"
        ]
    );
    for r in replays {
        assert_eq!(r["setup"]["kind"], "puyo-match");
        assert_eq!(r["setup"]["ending"], "A draw: both sides placed 30 pairs.");
        assert_eq!(r["score"], 0.5);
        assert_eq!(
            r["steps"].as_array().unwrap().len() as u64,
            r["moves"].as_u64().unwrap()
        );
    }

    same_after_resume(dir.path(), PUYO, "a puyo self-play run");
}

#[test]
fn a_puyo_self_play_run_reads_the_match_under_the_sampled_beam() {
    // Shown two pairs, the candidates and their rivals search the next pair and sampled
    // futures of one more, the match's values added to each first move's.
    let sampled = PUYO.replace(
        "opponents = [\"hand.toml\"]",
        "opponents = [\"hand.toml\"]\npairs_shown = 2\nbeam_width = 2\nsamples = 1\nunseen = 1",
    );
    assert_ne!(sampled, PUYO);
    let dir = puyo_folder();
    same_at_any_thread_count(dir.path(), &sampled);
    let history = read(&dir.path().join("whole"), "history.csv");
    assert_eq!(column(&history, "evaluations"), ["40", "90", "140"]);
    // The same run at one ply rates other candidates: the search chose other moves.
    std::fs::write(dir.path().join("one-ply.toml"), PUYO).unwrap();
    evolve(dir.path(), "one-ply.toml", "one-ply", "2");
    let one_ply = read(&dir.path().join("one-ply"), "history.csv");
    assert_ne!(column(&history, "best"), column(&one_ply, "best"));
}

#[test]
fn a_connect_round_robin_is_the_same_at_any_thread_count() {
    let dir = tempfile::tempdir().unwrap();
    same_at_any_thread_count(dir.path(), CONNECT);
    let history = read(&dir.path().join("whole"), "history.csv");
    // Games so far: 6 candidates × 2 games × (1 anchor + hall + 6 peers, themselves included
    // and not counted in the ratings) a generation.
    assert_eq!(column(&history, "evaluations"), ["84", "180", "276"]);
    // Ratings against `random`: every row's best has a finite rating.
    for best in column(&history, "best") {
        assert!(best.parse::<f64>().unwrap().is_finite(), "{history}");
    }
}

#[test]
fn what_cannot_be_rated_is_refused_in_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let refused = |config: String, want: &str| {
        std::fs::write(dir.path().join("bad.toml"), config).unwrap();
        let o = run_in(
            dir.path(),
            &["evolve", "--config", "bad.toml", "--quiet", "--out", "bad"],
        );
        assert_one_line_error(&o, want);
        assert!(!dir.path().join("bad").exists(), "{want}: no run folder");
    };
    refused(
        "generations = 1\n[game]\ngame = \"tetris\"\n[matches]\n".into(),
        "[matches] needs a two-player game; tetris (research 10x20, uniform pieces) is played alone",
    );
    refused(
        "generations = 1\n[game]\ngame = \"tetris\"\nrules = \"guideline\"\nmode = \"sprint\"\n[matches]\n"
            .into(),
        "[matches] needs a two-player game; tetris (guideline",
    );
    let parity = root().join("weights/connect/parity.toml");
    refused(
        format!(
            "generations = 1\n[game]\ngame = \"tetris\"\nrules = \"guideline\"\nopponents = [{parity:?}]\n[matches]\n"
        ),
        "it holds connect weights, not guideline tetris weights",
    );
    refused(
        "generations = 1\n[game]\ngame = \"puyo\"\nmode = \"versus\"\n[matches]\n".into(),
        "puyo versus runs play matches: name their opponents (`opponents = [\"weights/puyo/hand.toml\"]`, --opponent FILE)",
    );
    let hand = root().join("weights/puyo/hand.toml");
    refused(
        format!(
            "generations = 1\n[game]\ngame = \"puyo\"\nmode = \"versus\"\nbeam_width = 4\nopponents = [{hand:?}]\n[matches]\n"
        ),
        "puyo versus runs play one ply, the lookahead or the sampled beam, which weigh the match at their first move: drop --beam-width without --samples",
    );
    refused(
        "generations = 1\n[game]\ngame = \"connect\"\n[matches]\npeers = 0\n".into(),
        "[matches] peers must be at least 1 (leave it out for a round robin)",
    );
}
