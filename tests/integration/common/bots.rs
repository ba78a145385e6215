//! What the test binaries that are also a scripted bot share (`tests/tbp_client.rs`,
//! `tests/pbp_client.rs`): naming themselves as a bot `versus` starts, the match's report, and
//! the small runner their `harness = false` targets need (libtest's harness prints on
//! standard output before any test runs, which would be the bot's first line).

use super::{json, run};
use serde_json::Value;

/// This test binary as its fake bot in `mode`, with `args` after the mode, behind the
/// `protocol`'s prefix (`tbp`, `pbp`): a player `versus` takes.
pub fn fake_bot_player(protocol: &str, mode: &str, args: &[&str]) -> String {
    let exe = std::env::current_exe().unwrap();
    let mut player = format!("{protocol}:{} --fake-bot {mode}", exe.display());
    for arg in args {
        player = format!("{player} {arg}");
    }
    player
}

/// `versus first second --json --quiet` with `flags` from the repository's root, which must
/// succeed: its JSON report.
pub fn versus_report(first: &str, second: &str, flags: &[&str]) -> Value {
    let mut args = vec!["versus", first, second, "--json", "--quiet"];
    args.extend_from_slice(flags);
    json(&run(&args))
}

/// A test of such a binary: its name and its function.
pub type Test = (&'static str, fn());

/// The binary's `main`: with `--fake-bot MODE ARGS...` it is the bot (`bot` of the mode and
/// the arguments); with `--list` it lists `tests`; otherwise it runs the tests whose names
/// contain one of the arguments that are not flags (all of them when there is none), as
/// libtest would, each to its end whatever the others do, and fails if any failed.
pub fn test_main(tests: &[Test], bot: impl FnOnce(&str, &[String])) {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if let [flag, mode, rest @ ..] = &args[..]
        && flag == "--fake-bot"
    {
        return bot(mode, rest);
    }
    if args.iter().any(|a| a == "--list") {
        return tests.iter().for_each(|(name, _)| println!("{name}: test"));
    }
    let filters: Vec<&String> = args.iter().filter(|a| !a.starts_with('-')).collect();
    let chosen = tests
        .iter()
        .filter(|(name, _)| filters.is_empty() || filters.iter().any(|f| name.contains(*f)));
    let (mut passed, mut failed) = (0, Vec::new());
    for (name, test) in chosen {
        println!("test {name} ...");
        match std::panic::catch_unwind(test) {
            Ok(()) => passed += 1,
            Err(_) => failed.push(*name),
        }
    }
    println!("{passed} passed, {} failed: {failed:?}", failed.len());
    if !failed.is_empty() {
        std::process::exit(101);
    }
}
