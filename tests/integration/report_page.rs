//! `report.html` in a real browser: Debian's `chromium`, headless, with virtual time, loads
//! pages that `stacktune report` and `play --replay-html` write, lets the replay run to its
//! end and dumps the DOM. The page must show the final score and move count that the `play`
//! command it names reports for the same game, and its fitness chart one point per history
//! row; it must make no network request. Screenshots are left in
//! `target/tmp/report-page/` as the run's artefacts.
//!
//! `.ci/run` installs chromium (`apt-get install chromium`). Outside CI a machine without it
//! skips the browser tests with a note; in CI (`CI=true`) a missing browser fails them.

use crate::common::{assert_one_line_error, json, root, run, run_in};
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

const CHROMIUM: &str = "/usr/bin/chromium";

/// The browser, or `None` (with a note) when it is missing outside CI.
fn chromium() -> Option<&'static str> {
    if Path::new(CHROMIUM).is_file() {
        return Some(CHROMIUM);
    }
    let ci = std::env::var("CI").is_ok_and(|v| v == "true");
    assert!(
        !ci,
        "{CHROMIUM} is missing; CI installs it (.ci/run: apt-get install chromium)"
    );
    eprintln!("note: {CHROMIUM} is missing, browser test skipped (not in CI)");
    None
}

/// Runs headless chromium on `page` (with `#speed=0`: the replay plays as fast as it can)
/// under virtual time, with `extra` flags, and returns what it printed on standard output.
/// Nothing it does can reach the network: every host name resolves to nothing.
fn browse(browser: &str, page: &Path, extra: &[&str]) -> String {
    let profile = tempfile::tempdir().unwrap();
    let url = format!("file://{}#speed=0", page.canonicalize().unwrap().display());
    let out = Command::new(browser)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--host-resolver-rules=MAP * ~NOTFOUND",
            "--virtual-time-budget=120000",
        ])
        .arg(format!("--user-data-dir={}", profile.path().display()))
        .args(extra)
        .arg(url)
        .output()
        .expect("chromium runs");
    assert!(
        out.status.success(),
        "chromium failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The attribute `name` of the element with id `id` in a dumped DOM.
fn attribute(dom: &str, id: &str, name: &str) -> String {
    let start = dom
        .find(&format!("id=\"{id}\""))
        .unwrap_or_else(|| panic!("no element #{id}"));
    let tag_start = dom[..start].rfind('<').unwrap();
    let tag = &dom[tag_start..start + dom[start..].find('>').unwrap()];
    let key = format!("{name}=\"");
    let at = tag
        .find(&key)
        .unwrap_or_else(|| panic!("#{id} has no {name}: {tag}"));
    let rest = &tag[at + key.len()..];
    rest[..rest.find('"').unwrap()].to_string()
}

/// The text of the first `<code>` inside the element with id `id`, entities decoded.
fn code_in(dom: &str, id: &str) -> String {
    let start = dom.find(&format!("id=\"{id}\"")).unwrap();
    let from = start + dom[start..].find("<code>").unwrap() + "<code>".len();
    let text = &dom[from..from + dom[from..].find("</code>").unwrap()];
    text.replace("&amp;", "&")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
}

/// A shipped run folder copied into a temporary folder (tests never write into reports/).
fn copy_of(run: &str) -> (tempfile::TempDir, PathBuf) {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join(run);
    copy_run(run, &dir);
    (tmp, dir)
}

/// Copies the shipped run `run` into `dir`, its report.html left out.
fn copy_run(run: &str, dir: &Path) {
    fs::create_dir_all(dir).unwrap();
    for entry in fs::read_dir(root().join("reports").join(run)).unwrap() {
        let entry = entry.unwrap();
        if entry.file_name() != "report.html" {
            fs::copy(entry.path(), dir.join(entry.file_name())).unwrap();
        }
    }
}

/// Copies a folder and everything under it.
fn copy_tree(from: &Path, to: &Path) {
    fs::create_dir_all(to).unwrap();
    for entry in fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_tree(&entry.path(), &target);
        } else {
            fs::copy(entry.path(), target).unwrap();
        }
    }
}

/// Where the screenshots go: the run's artefacts.
fn artefact(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("report-page");
    fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

/// Plays the page's replay to its end and checks it against the `play` command the page
/// names (run from the page's text, with `--json`): the same final score and, for a
/// one-player game, the same move count; and no mismatch with the recorded boards.
/// Returns the dumped DOM.
fn assert_replay_matches_cli(browser: &str, page: &Path, cwd: &Path) -> String {
    let dom = browse(browser, page, &["--dump-dom"]);
    assert_eq!(attribute(&dom, "replay-status", "data-done"), "true");
    assert_eq!(attribute(&dom, "replay-check", "data-mismatches"), "0");
    let command = code_in(&dom, "replay-which");
    let mut args: Vec<&str> = command.split_whitespace().collect();
    assert_eq!(args.remove(0), "stacktune", "{command}");
    args.extend(["--json", "--quiet"]);
    let cli = json(&run_in(cwd, &args));
    let moves: u64 = attribute(&dom, "replay-status", "data-moves")
        .parse()
        .unwrap();
    let score: f64 = attribute(&dom, "replay-status", "data-score")
        .parse()
        .unwrap();
    match cli["opponents"].as_array() {
        // A two-player game: `--games 1` plays one game against each opponent and reports
        // each opponent's score; the page shows game 0, against the first.
        Some(opponents) => assert_eq!(score, opponents[0]["score"].as_f64().unwrap()),
        None => {
            assert_eq!(moves, cli["total_pieces"].as_u64().unwrap(), "{command}");
            assert_eq!(score, cli["mean"].as_f64().unwrap(), "{command}");
        }
    }
    dom
}

#[test]
fn a_report_replays_the_cli_game_and_charts_every_generation() {
    let Some(browser) = chromium() else { return };
    // Research Tetris (uncapped, 5,106 moves), contest Tetris with obstacles and hold,
    // Puyo Tsu with chains and a preview, and Connect Four against its opponents.
    for (run_name, max_moves) in [
        ("tetris-default", "6000"),
        ("tetris-contest-l3", "5000"),
        ("puyo-tsu-2ply", "5000"),
        ("connect-evolved", "5000"),
    ] {
        let (tmp, dir) = copy_of(run_name);
        let out = run_in(tmp.path(), &["report", run_name, "--max-moves", max_moves]);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let page = dir.join("report.html");
        let dom = assert_replay_matches_cli(browser, &page, tmp.path());
        let rows = fs::read_to_string(dir.join("history.csv"))
            .unwrap()
            .lines()
            .count()
            - 1;
        assert_eq!(
            dom.matches("data-series=\"best\"").count(),
            rows,
            "{run_name}: one point per generation"
        );
        assert!(
            dom.contains("id=\"final-best\""),
            "{run_name}: the held-out summary"
        );
        browse(
            browser,
            &page,
            &[
                &format!(
                    "--screenshot={}",
                    artefact(&format!("{run_name}.png")).display()
                ),
                "--window-size=1280,2000",
            ],
        );
        assert!(artefact(&format!("{run_name}.png")).is_file());
    }
}

#[test]
fn a_capped_replay_says_so_and_shows_the_whole_game_s_figures() {
    let Some(browser) = chromium() else { return };
    let (tmp, dir) = copy_of("tetris-default");
    let out = run_in(
        tmp.path(),
        &["report", "tetris-default", "--max-moves", "300"],
    );
    assert!(out.status.success());
    let dom = browse(browser, &dir.join("report.html"), &["--dump-dom"]);
    assert_eq!(attribute(&dom, "replay-status", "data-moves"), "300");
    assert_eq!(attribute(&dom, "replay-check", "data-mismatches"), "0");
    // The page's note names the cap and the whole game's end, as `play` reports it.
    assert!(dom.contains("stores the first 300 moves only"), "{dom}");
    assert!(dom.contains("went on to 5,106 moves and ended with lines 2,034"));
}

#[test]
fn play_writes_a_replay_page_for_any_weights_and_seed() {
    let Some(browser) = chromium() else { return };
    let tmp = tempfile::tempdir().unwrap();
    // A path that is also markup: the page shows it as text.
    let markup = tmp.path().join("w<i>.toml");
    fs::copy(root().join("weights/tetris/dellacherie.toml"), &markup).unwrap();
    let markup = markup.to_str().unwrap().to_string();
    // Research Tetris stopped by --max-pieces, Puyo under the programming rules (1 ply, no
    // preview), contest Tetris at level 2 with the all-clear bonus, Connect Four against a
    // random opponent.
    let cases: [(&str, &[&str]); 4] = [
        (
            &markup,
            &[
                "--width",
                "8",
                "--height",
                "12",
                "--seed",
                "7",
                "--max-pieces",
                "2000",
            ],
        ),
        (
            "weights/puyo/hand.toml",
            &[
                "--rules",
                "programming",
                "--seed",
                "3",
                "--max-pieces",
                "400",
            ],
        ),
        (
            "reports/tetris-contest-l2/best.toml",
            &["--level", "2", "--all-clear", "--seed", "5"],
        ),
        (
            "weights/connect/evolved.toml",
            &["--opponent", "random", "--seed", "2"],
        ),
    ];
    for (i, (weights, flags)) in cases.into_iter().enumerate() {
        let page = tmp.path().join(format!("replay-{i}.html"));
        write_replay_page(weights, flags, &page);
        let dom = assert_replay_matches_cli(browser, &page, &root());
        if i == 0 {
            assert!(
                dom.contains("w&lt;i&gt;.toml") && !dom.contains("w<i>"),
                "the path is text"
            );
            assert!(dom.contains("stopped at its limit of 2,000 moves"));
        }
        browse(
            browser,
            &page,
            &[
                &format!(
                    "--screenshot={}",
                    artefact(&format!("play-replay-{i}.png")).display()
                ),
                "--window-size=1280,1000",
            ],
        );
    }
}

/// Writes the replay page of game 0 that `play --weights weights FLAGS --games 1` plays.
fn write_replay_page(weights: &str, flags: &[&str], page: &Path) {
    let mut args = vec!["play", "--weights", weights, "--games", "1", "--quiet"];
    args.extend(flags);
    args.extend(["--replay-html", page.to_str().unwrap()]);
    let out = run(&args);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// The events of a NetLog that are requests made by a page loaded from a file (not by the
/// browser's own services): their network isolation key is the file origin.
fn page_requests(net_log: &Path) -> Vec<String> {
    let log: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(net_log).unwrap()).unwrap();
    let start = log["constants"]["logEventTypes"]["URL_REQUEST_START_JOB"].clone();
    log["events"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["type"] == start)
        .filter(|e| {
            e["params"]["network_isolation_key"]
                .as_str()
                .is_some_and(|k| k.starts_with("file://"))
        })
        .map(|e| e["params"]["url"].as_str().unwrap_or("?").to_string())
        .collect()
}

#[test]
fn the_page_makes_no_network_request() {
    let (tmp, dir) = copy_of("tetris-contest-l3");
    let out = run_in(tmp.path(), &["report", "tetris-contest-l3"]);
    assert!(out.status.success());
    let page = dir.join("report.html");
    let html = fs::read_to_string(&page).unwrap();
    // Nothing outside the file: no scripts, styles, images or fonts from elsewhere, and no
    // script that asks for anything; the page's policy forbids requests besides.
    for needle in [
        "src=\"http",
        "src='http",
        "href=\"http",
        "href=\"//",
        "url(",
        "@import",
        "fetch(",
        "XMLHttpRequest",
        "WebSocket",
        "<link",
        "<iframe",
    ] {
        assert!(!html.contains(needle), "report.html holds `{needle}`");
    }
    assert!(html.contains("Content-Security-Policy\" content=\"default-src 'none';"));
    let Some(browser) = chromium() else { return };
    let log = tmp.path().join("net-log.json");
    browse(
        browser,
        &page,
        &[&format!("--log-net-log={}", log.display()), "--dump-dom"],
    );
    assert_eq!(page_requests(&log), Vec::<String>::new());
    // The check itself sees a page's requests: a page that asks for an image and a fetch.
    let leaky = tmp.path().join("leaky.html");
    fs::write(
        &leaky,
        "<img src=\"http://img.example.invalid/a.png\"><script>fetch('https://api.example.invalid/b').catch(() => {})</script>",
    )
    .unwrap();
    let log = tmp.path().join("net-log-leaky.json");
    browse(
        browser,
        &leaky,
        &[&format!("--log-net-log={}", log.display()), "--dump-dom"],
    );
    let mut seen = page_requests(&log);
    seen.sort();
    assert_eq!(
        seen,
        [
            "http://img.example.invalid/a.png",
            "https://api.example.invalid/b"
        ]
    );
}

#[test]
fn report_refuses_what_is_not_a_run_with_one_line() {
    let tmp = tempfile::tempdir().unwrap();
    let out = run_in(tmp.path(), &["report", "missing"]);
    assert_one_line_error(&out, "missing is not a folder");
    fs::create_dir(tmp.path().join("notes")).unwrap();
    fs::write(tmp.path().join("notes/notes.txt"), "mine").unwrap();
    let out = run_in(tmp.path(), &["report", "notes"]);
    assert_one_line_error(&out, "notes is not a run folder: it has no run.toml");
    assert_eq!(
        fs::read_dir(tmp.path().join("notes")).unwrap().count(),
        1,
        "nothing written into a folder that is not a run"
    );
}

#[test]
fn report_rewrites_the_page_of_a_copied_run_and_nothing_else() {
    let (tmp, dir) = copy_of("puyo-tsu-1ply");
    let before: Vec<_> = fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    for _ in 0..2 {
        let out = run_in(tmp.path(), &["report", "puyo-tsu-1ply"]);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let mut after: Vec<_> = fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    after.retain(|n| n != "report.html");
    assert_eq!(
        after.len(),
        before.len(),
        "only report.html is added (no lock left)"
    );
    let html = fs::read_to_string(dir.join("report.html")).unwrap();
    assert!(html.contains("stacktune play --weights puyo-tsu-1ply/best.toml"));
}

#[test]
fn play_never_overwrites_a_replay_page() {
    let tmp = tempfile::tempdir().unwrap();
    let page = tmp.path().join("mine.html");
    fs::write(&page, "mine").unwrap();
    let weights = root().join("weights/tetris/dellacherie.toml");
    let out = run(&[
        "play",
        "--weights",
        weights.to_str().unwrap(),
        "--games",
        "1",
        "--replay-html",
        page.to_str().unwrap(),
    ]);
    assert_one_line_error(&out, "mine.html already exists; it is not overwritten");
    assert_eq!(fs::read_to_string(&page).unwrap(), "mine");
}

#[test]
fn shipped_pages_are_what_report_writes_today() {
    // A page holds its script and template: a change to either must come with the shipped
    // pages rewritten (`stacktune report reports/NAME` for each).
    let tmp = tempfile::tempdir().unwrap();
    // A run.toml names weights files (init, baseline, opponents) relative to its folder, as
    // `../../weights/...`: the copies find them where the shipped runs do.
    copy_tree(&root().join("weights"), &tmp.path().join("weights"));
    let mut checked = 0;
    for entry in fs::read_dir(root().join("reports")).unwrap() {
        let shipped = entry.unwrap().path();
        if !shipped.join("run.toml").is_file() {
            continue;
        }
        let name = shipped.file_name().unwrap().to_str().unwrap().to_string();
        let relative = format!("reports/{name}");
        copy_run(&name, &tmp.path().join(&relative));
        let out = run_in(tmp.path(), &["report", &relative]);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let want = fs::read_to_string(shipped.join("report.html"))
            .unwrap_or_else(|e| panic!("{relative}/report.html: {e}"));
        let got = fs::read_to_string(tmp.path().join(&relative).join("report.html")).unwrap();
        assert!(
            got == want,
            "{relative}/report.html is stale: run stacktune report {relative}"
        );
        assert!(
            want.len() < 300_000,
            "{relative}/report.html: {} bytes",
            want.len()
        );
        // Its replay plays back to the end, matching the recorded boards.
        if let Some(browser) = chromium() {
            let dom = browse(browser, &shipped.join("report.html"), &["--dump-dom"]);
            assert_eq!(
                attribute(&dom, "replay-status", "data-done"),
                "true",
                "{relative}"
            );
            assert_eq!(
                attribute(&dom, "replay-check", "data-mismatches"),
                "0",
                "{relative}"
            );
        }
        checked += 1;
    }
    assert!(checked >= 7, "{checked} shipped runs");
}

/// A contest game ends with its last turn, not with a loss: the page says it reached the turn
/// limit (180 at level 2; a level-4 game's `--turns`), and a capped replay of a long level-4
/// game says that the game went on to that limit, with the whole game's score.
#[test]
fn a_game_that_reached_its_turn_limit_says_so() {
    let Some(browser) = chromium() else { return };
    let tmp = tempfile::tempdir().unwrap();
    let cases: [(&[&str], &str); 3] = [
        (
            &["--level", "2", "--seed", "3"],
            "Reached the turn limit after 180 moves: score 21,020.",
        ),
        (
            &["--level", "4", "--turns", "500", "--seed", "1"],
            "Reached the turn limit after 500 moves: score 44,921.",
        ),
        (
            &[
                "--level",
                "4",
                "--turns",
                "500",
                "--seed",
                "1",
                "--replay-moves",
                "200",
            ],
            "This page stores the first 200 moves only (the cap is 200); the game went on to its \
             turn limit of 500 moves and ended with score 44,921.",
        ),
    ];
    for (i, (flags, note)) in cases.into_iter().enumerate() {
        let page = tmp.path().join(format!("limit-{i}.html"));
        write_replay_page("reports/tetris-contest-l3/best.toml", flags, &page);
        let dom = browse(browser, &page, &["--dump-dom"]);
        assert_eq!(attribute(&dom, "replay-check", "data-mismatches"), "0");
        // The page's script holds the sentence with placeholders; the note, with the figures.
        assert!(dom.contains(note), "{flags:?}: {note}");
    }
}

/// `versus --replay-html` on puyo weights: the page plays both fields back, nuisance and
/// chains included, to the match's end, matching the match's fields at every check.
#[test]
fn a_puyo_match_plays_back_both_fields_to_its_end() {
    let Some(browser) = chromium() else { return };
    let tmp = tempfile::tempdir().unwrap();
    let page = tmp.path().join("match.html");
    let out = run(&[
        "versus",
        "weights/puyo/versus-hand.toml",
        "weights/puyo/hand.toml",
        "--games",
        "2",
        "--seed",
        "3",
        "--quiet",
        "--replay-html",
        page.to_str().unwrap(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let dom = browse(browser, &page, &["--dump-dom"]);
    assert_eq!(attribute(&dom, "replay-status", "data-done"), "true");
    assert_eq!(attribute(&dom, "replay-check", "data-mismatches"), "0");
    assert_eq!(attribute(&dom, "replay-status", "data-score"), "1");
    assert!(dom.contains("The left side won: the right side filled column 3 of row 12."));
}
