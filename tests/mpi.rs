//! `evolve`, `compare` and `play` as MPI jobs (`cargo test --release --features mpi --test
//! mpi`, with Open MPI's `mpirun` on the path): 1, 2 and 3 ranks write the same bytes as the
//! plain run, a killed job resumes under another rank count to the same bytes, and bad setups
//! end with one clear error.

#![cfg(feature = "mpi")]

#[path = "integration/common/mod.rs"]
mod common;
use common::*;
use std::fs;
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::Duration;

/// A small Tetris run (10 × 8, capped games) with validation and final held-out games.
const TETRIS: &str = r#"
name = "small"
seed = 5
generations = 3
games = 5
max_pieces = 400
validation_games = 10
validate_every = 2
final_games = 20
validation_max_pieces = 400
validation_seed = 77

[game]
game = "tetris"
width = 10
height = 8

[ga]
population = 8
elitism = 1
"#;

/// The files that must be byte-identical between runs (timings.csv is not: it holds times).
const SAME: [&str; 5] = [
    "history.csv",
    "best.toml",
    "checkpoint.json",
    "fitness.svg",
    "weights.svg",
];

/// `mpirun -n k` of the binary with `args` in `dir`: oversubscribed (3 ranks on 2 cores),
/// unbound (a rank's threads may use every core), allowed as root (CI containers).
fn mpirun(dir: &Path, k: usize, args: &[&str]) -> Command {
    let mut command = Command::new("mpirun");
    command
        .args(["-n", &k.to_string(), "--oversubscribe", "--bind-to", "none"])
        .arg(env!("CARGO_BIN_EXE_stacktune"))
        .args(args)
        .current_dir(dir)
        .env("OMPI_ALLOW_RUN_AS_ROOT", "1")
        .env("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1")
        .stdin(Stdio::null());
    command
}

fn output(mut command: Command) -> Output {
    command.output().expect("mpirun runs (install openmpi-bin)")
}

fn success(out: Output) -> Output {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

fn assert_same_run(dir: &Path, a: &str, b: &str) {
    for name in SAME {
        assert_eq!(
            read(&dir.join(a), name),
            read(&dir.join(b), name),
            "{name} differs between {a} and {b}"
        );
    }
}

fn evolve_args(out: &str) -> Vec<&str> {
    vec![
        "evolve",
        "--config",
        "run.config.toml",
        "--quiet",
        "--out",
        out,
    ]
}

#[test]
fn one_two_and_three_ranks_write_the_plain_runs_bytes() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("run.config.toml"), TETRIS).unwrap();
    let plain = success(run_in(dir.path(), &evolve_args("plain")));
    for k in [1, 2, 3] {
        let out = format!("ranks-{k}");
        let mut args = evolve_args(&out);
        // One thread per rank, so that 3 ranks on 2 cores are really 3 players.
        args.extend(["--threads", "1"]);
        let ranked = success(output(mpirun(dir.path(), k, &args)));
        assert_same_run(dir.path(), "plain", &out);
        // Rank 0 alone prints the report.
        assert_eq!(
            stdout(&ranked).replace(&out, "plain"),
            stdout(&plain),
            "{k} ranks"
        );
    }
}

/// Two-player games cross as data too: the opponents' weights file and the hall of fame.
#[test]
fn a_connect_run_with_a_weights_file_opponent_and_a_hall_of_fame_is_the_same_on_three_ranks() {
    let dir = tempfile::tempdir().unwrap();
    let opponent = root().join("weights/connect/evolved.toml");
    let config = format!(
        "name = \"small\"\nseed = 3\ngenerations = 3\ngames = 24\nvalidation_games = 24\n\
         validate_every = 2\nfinal_games = 48\nvalidation_seed = 9\nhall_of_fame = 1\n\n\
         [game]\ngame = \"connect\"\nopponents = [\"random\", {opponent:?}]\n\n\
         [ga]\npopulation = 6\nelitism = 1\n"
    );
    fs::write(dir.path().join("run.config.toml"), config).unwrap();
    success(run_in(dir.path(), &evolve_args("plain")));
    success(output(mpirun(dir.path(), 3, &evolve_args("ranks-3"))));
    assert_same_run(dir.path(), "plain", "ranks-3");
}

/// A self-play run ([matches]): peers, hall of fame and anchor cross as rivals, the ratings
/// are fitted on rank 0 to the gathered results.
#[test]
fn a_self_play_run_is_the_same_on_two_and_three_ranks() {
    let dir = tempfile::tempdir().unwrap();
    let config = "name = \"selfplay\"\nseed = 3\ngenerations = 2\ngames = 2\nmax_pieces = 40\n\
         validation_games = 4\nvalidate_every = 2\nfinal_games = 4\nvalidation_max_pieces = 40\n\
         hall_of_fame = 1\n\n[game]\ngame = \"tetris\"\nrules = \"guideline\"\nbeam_width = 4\n\
         opponents = [\"hand\"]\n\n[matches]\npeers = 3\n\n[optimizer]\nkind = \"cmaes\"\n\n\
         [cmaes]\npopulation = 5\nsigma0 = 0.1\n";
    fs::write(dir.path().join("run.config.toml"), config).unwrap();
    success(run_in(dir.path(), &evolve_args("plain")));
    for k in [2, 3] {
        let out = format!("ranks-{k}");
        success(output(mpirun(dir.path(), k, &evolve_args(&out))));
        assert_same_run(dir.path(), "plain", &out);
    }
}

#[test]
fn play_on_three_ranks_reports_the_plain_figures() {
    let dir = tempfile::tempdir().unwrap();
    let weights = root().join("weights/tetris/dellacherie.toml");
    let args = [
        "play",
        "--weights",
        weights.to_str().unwrap(),
        "--width",
        "8",
        "--height",
        "8",
        "--games",
        "40",
        "--seed",
        "4",
        "--json",
        "--quiet",
    ];
    let figures = |out: &Output| {
        let mut v = json(out);
        // The only figure that is a time.
        v.as_object_mut().unwrap().remove("pieces_per_second");
        v
    };
    let plain = figures(&run_in(dir.path(), &args));
    let ranked = figures(&output(mpirun(dir.path(), 3, &args)));
    assert_eq!(ranked, plain);
    assert_eq!(plain["games"], 40);
}

/// The generations a run folder's checkpoint records as done (0 before it has one).
fn generations_done(run: &Path) -> u64 {
    fs::read_to_string(run.join("checkpoint.json"))
        .ok()
        .and_then(|text| serde_json::from_str::<serde_json::Value>(&text).ok())
        .and_then(|v| v["state"]["next_generation"].as_u64())
        .unwrap_or(0)
}

/// `compare` passes the backend to every run it makes: two configs, two repeats each.
#[test]
fn compare_on_two_ranks_writes_the_plain_comparisons_bytes() {
    let dir = tempfile::tempdir().unwrap();
    let base = TETRIS.replace("generations = 3\n", "");
    fs::write(dir.path().join("ga.toml"), &base).unwrap();
    let cmaes = base.replace(
        "[ga]\npopulation = 8\nelitism = 1\n",
        "[optimizer]\nkind = \"cmaes\"\n",
    );
    fs::write(dir.path().join("cmaes.toml"), cmaes).unwrap();
    let args = |out: &'static str| {
        let configs = ["--config", "ga.toml", "--config", "cmaes.toml"];
        let rest = ["--repeats", "2", "--budget", "120", "--quiet", "--out", out];
        [&["compare"][..], &configs, &rest].concat()
    };
    success(run_in(dir.path(), &args("plain")));
    success(output(mpirun(dir.path(), 2, &args("ranks-2"))));
    for name in [
        "points.csv",
        "summary.csv",
        "compare.svg",
        "ga/repeat-1/history.csv",
    ] {
        assert_eq!(
            read(&dir.path().join("plain"), name),
            read(&dir.path().join("ranks-2"), name),
            "{name} differs"
        );
    }
}

/// The pids of the processes `mpirun` (pid `job`) started: its ranks, each of which Open MPI
/// puts in a process group of its own.
fn ranks_of(job: u32) -> Vec<u32> {
    fs::read_to_string(format!("/proc/{job}/task/{job}/children"))
        .unwrap()
        .split_whitespace()
        .map(|pid| pid.parse().unwrap())
        .collect()
}

/// A job killed mid-run (one rank killed with SIGKILL; mpirun then ends the others) leaves
/// the last checkpoint, and `--resume` under another rank count ends with the bytes of the
/// uninterrupted plain run. `kill_rank_0`: kill rank 0 (the run folder's owner, whose pid the
/// folder's lock holds), else the other rank.
fn resumes_after_a_killed_rank(kill_rank_0: bool, resume_ranks: usize) {
    let dir = tempfile::tempdir().unwrap();
    // El-Tetris's weights play most games to their cap: generations last long enough for the
    // kill to land mid-run.
    let init = root().join("weights/tetris/el-tetris.toml");
    let config = TETRIS
        .replace("generations = 3", "generations = 6")
        .replace("games = 5", "games = 10")
        .replace("max_pieces = 400", "max_pieces = 20000")
        .replace("height = 8", "height = 10")
        .replace("seed = 5", &format!("seed = 5\ninit = {init:?}"));
    fs::write(dir.path().join("run.config.toml"), config).unwrap();
    success(run_in(dir.path(), &evolve_args("whole")));

    let cut = dir.path().join("cut");
    let mut args = evolve_args("cut");
    args.extend(["--threads", "1"]);
    let mut job = mpirun(dir.path(), 2, &args);
    // mpirun's report of the killed rank is expected: keep it out of the test's output.
    let mut job = job.stderr(Stdio::null()).spawn().expect("mpirun runs");
    wait_while_running(&mut job, "its first generation", || {
        generations_done(&cut) > 0
    });
    let rank_0: u32 = read(&cut, ".lock").trim().parse().unwrap();
    let ranks = ranks_of(job.id());
    assert_eq!(ranks.len(), 2, "{ranks:?}");
    assert!(ranks.contains(&rank_0), "{ranks:?} {rank_0}");
    let victim = match kill_rank_0 {
        true => rank_0,
        false => *ranks.iter().find(|&&pid| pid != rank_0).unwrap(),
    };
    let killed = Command::new("kill")
        .args(["-KILL", &victim.to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    assert!(!job.wait().unwrap().success());
    // mpirun ends the other rank; wait for rank 0 to be gone, and its lock with it (a zombie
    // has released its locks; one whose parent is gone may never be reaped in a container).
    let running = || {
        fs::read_to_string(format!("/proc/{rank_0}/stat")).is_ok_and(|stat| {
            !stat
                .rsplit_once(") ")
                .is_some_and(|(_, s)| s.starts_with('Z'))
        })
    };
    while running() {
        std::thread::sleep(Duration::from_millis(5));
    }
    let done = generations_done(&cut);
    assert!(
        (1..6).contains(&done) && !cut.join("best.toml").exists(),
        "killed after {done} generations: not mid-run"
    );
    let resume = ["evolve", "--resume", "cut", "--quiet"];
    success(output(mpirun(dir.path(), resume_ranks, &resume)));
    for name in ["history.csv", "best.toml", "checkpoint.json"] {
        assert_eq!(
            read(&dir.path().join("whole"), name),
            read(&cut, name),
            "{name} differs after the resume"
        );
    }
}

#[test]
fn a_job_whose_worker_rank_dies_resumes_on_three_ranks_to_the_same_bytes() {
    resumes_after_a_killed_rank(false, 3);
}

#[test]
fn a_job_whose_rank_0_is_killed_resumes_on_one_rank_to_the_same_bytes() {
    resumes_after_a_killed_rank(true, 1);
}

#[test]
fn ranks_started_with_other_arguments_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let mut job = mpirun(dir.path(), 1, &evolve_args("a"));
    // A second program of the job (MPMD): the same binary with another seed.
    job.args([":", "-n", "1", env!("CARGO_BIN_EXE_stacktune")])
        .args(evolve_args("a"))
        .args(["--seed", "2"]);
    let out = output(job);
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains(
            "error: rank(s) 1 were started with other arguments than rank 0 (`evolve --config"
        ),
        "{stderr}"
    );
    assert!(!stderr.contains("panicked"), "{stderr}");
    // Nothing was run.
    assert!(!dir.path().join("a").exists());
}

#[test]
fn a_command_that_does_not_scale_out_is_refused_on_several_ranks() {
    let board = root().join("tests/data/boards/tetris.txt");
    let args = ["moves", "--board", board.to_str().unwrap(), "--piece", "T"];
    let out = output(mpirun(&root(), 2, &args));
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains(
            "error: `moves` does not play its games over MPI; run it without mpirun, or with -n 1"
        ),
        "{stderr}"
    );
    assert!(stdout(&out).is_empty());
    // One rank is a plain run.
    success(output(mpirun(&root(), 1, &args)));
}
