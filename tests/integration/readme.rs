//! The documentation's commands run as copied and its links lead somewhere. In README.md,
//! CONTRIBUTING.md, every page of docs/ and every note of docs/notes/: every file a
//! `stacktune` (or `cargo run --release --`) command names as input ships with the
//! repository, and every relative link points to a file that exists and, when it names an
//! anchor, to a heading of that file. Pages move and headings get renamed; a reader who
//! follows a dead link learns nothing, so the build says which link broke. And the house's
//! shape: README short and starting with the two commands, user pages short (the record goes
//! to docs/notes/), and `weights/` holding only the players README names.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

/// Flags whose value is a file or folder the command writes, not one it reads, and the shell's
/// redirection of standard output (`--json > beam.json`).
const OUTPUT_FLAGS: [&str; 6] = [
    "--out",
    "--trace",
    "--replay-html",
    "--resume",
    "--record",
    ">",
];

/// Endings of the files a command reads.
const INPUT_ENDINGS: [&str; 5] = [".toml", ".txt", ".json", ".jsonl", ".csv"];

/// One markdown file: where it is (for relative links) and what it says.
struct Document {
    path: PathBuf,
    text: String,
}

/// Most lines README.md may have: the tour and the headline table, the rest in docs/.
const README_LINES: usize = 250;

/// Most lines a user page of docs/ may have: what was tried and measured goes to docs/notes/.
const PAGE_LINES: usize = 400;

/// The markdown files of `dir`, sorted.
fn pages_in(dir: &Path) -> Vec<PathBuf> {
    let mut pages: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{} is readable: {e}", dir.display()))
        .map(|entry| entry.expect("a folder lists").path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "md"))
        .collect();
    pages.sort();
    pages
}

/// README.md, CONTRIBUTING.md, docs/*.md and docs/notes/*.md, in a fixed order.
fn documents(root: &Path) -> Vec<Document> {
    let mut paths = vec![root.join("README.md"), root.join("CONTRIBUTING.md")];
    paths.extend(pages_in(&root.join("docs")));
    paths.extend(pages_in(&root.join("docs").join("notes")));
    paths
        .into_iter()
        .map(|path| {
            let text = std::fs::read_to_string(&path)
                .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
            Document { path, text }
        })
        .collect()
}

/// The lines inside fenced code blocks, and the prose outside them (fences blanked out, so
/// line structure is kept).
fn split_fences(text: &str) -> (Vec<&str>, String) {
    let mut fenced = Vec::new();
    let mut prose = String::new();
    let mut in_block = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            in_block = !in_block;
            prose.push('\n');
            continue;
        }
        if in_block {
            fenced.push(line);
            prose.push('\n');
        } else {
            prose.push_str(line);
            prose.push('\n');
        }
    }
    (fenced, prose)
}

/// The shell commands of a fenced block: lines ending in `\` joined to the next, comments
/// dropped.
fn commands(fenced: &[&str]) -> Vec<String> {
    let mut out = Vec::new();
    let mut current = String::new();
    for line in fenced {
        let code = line.split('#').next().unwrap_or("");
        match code.trim_end().strip_suffix('\\') {
            Some(head) => {
                current.push_str(head);
                current.push(' ');
            }
            None => {
                current.push_str(code);
                out.push(std::mem::take(&mut current));
            }
        }
    }
    if !current.trim().is_empty() {
        out.push(current);
    }
    out
}

/// Where the inline code spans of a line lie (one or more backticks, closed on the same line):
/// the span with its backticks, and the number of backticks.
fn code_span_ranges(line: &str) -> Vec<(std::ops::Range<usize>, usize)> {
    let mut ranges = Vec::new();
    let mut from = 0;
    while let Some(start) = line[from..].find('`').map(|i| from + i) {
        let ticks = line[start..].chars().take_while(|&c| c == '`').count();
        let fence = &line[start..start + ticks];
        match line[start + ticks..].find(fence) {
            Some(end) => {
                let stop = start + ticks + end + ticks;
                ranges.push((start..stop, ticks));
                from = stop;
            }
            None => break,
        }
    }
    ranges
}

/// The inline code spans of the prose, without their backticks.
fn code_spans(prose: &str) -> Vec<&str> {
    prose
        .lines()
        .flat_map(|line| {
            code_span_ranges(line)
                .into_iter()
                .map(move |(range, ticks)| line[range.start + ticks..range.end - ticks].trim())
        })
        .collect()
}

/// The prose with every inline code span replaced by the word `code`, so that what looks
/// like a link inside code is not taken for one.
fn without_code(prose: &str) -> String {
    let mut out = String::new();
    for line in prose.lines() {
        let mut last = 0;
        for (range, _) in code_span_ranges(line) {
            out.push_str(&line[last..range.start]);
            out.push_str("code");
            last = range.end;
        }
        out.push_str(&line[last..]);
        out.push('\n');
    }
    out
}

/// Where the program's arguments start in a command: after `stacktune` (or `.../stacktune`),
/// or after the `--` of `cargo run ... --`.
fn program_end(words: &[&str]) -> Option<usize> {
    if let Some(i) = words
        .iter()
        .position(|w| *w == "stacktune" || w.ends_with("/stacktune"))
    {
        return Some(i);
    }
    let run = words.windows(2).position(|w| w == ["cargo", "run"])?;
    words[run..]
        .iter()
        .position(|w| *w == "--")
        .map(|i| run + i)
}

/// The files a command reads: the program's arguments that end like an input file and are
/// not the value of an output flag nor a placeholder (`<file>`, `DIR/`).
fn input_files(command: &str) -> Vec<&str> {
    let words: Vec<&str> = command.split_whitespace().collect();
    let Some(program) = program_end(&words) else {
        return Vec::new();
    };
    (program + 1..words.len())
        .filter(|&i| {
            let word = words[i];
            INPUT_ENDINGS.iter().any(|ext| word.ends_with(ext))
                && !is_placeholder(word)
                && !is_written_by_a_command(word)
                && !OUTPUT_FLAGS.contains(&words[i - 1])
        })
        .map(|i| words[i])
        .collect()
}

/// A file an earlier command of the page writes: under `runs/` (where `evolve` writes, ignored
/// by git) or `/tmp/` (the docs' `--out` folders).
fn is_written_by_a_command(word: &str) -> bool {
    word.starts_with("runs/") || word.starts_with("/tmp/")
}

/// A path a reader fills in: `weights/tetris/<file>.toml`, `DIR/best.toml`.
fn is_placeholder(word: &str) -> bool {
    word.contains('<')
        || word.split('/').any(|part| {
            part.chars().any(|c| c.is_ascii_uppercase())
                && part.chars().all(|c| c.is_ascii_uppercase() || c == '_')
        })
}

/// GitHub's anchor of a heading: lower case, every character but letters, digits, spaces,
/// `-` and `_` dropped, spaces turned into `-`.
fn anchor(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || matches!(c, ' ' | '-' | '_'))
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

/// The anchors of a document's headings; a repeated heading gets `-1`, `-2`, ... as on GitHub.
fn anchors(text: &str) -> HashSet<String> {
    let (_, prose) = split_fences(text);
    let mut found = HashSet::new();
    for line in prose.lines() {
        let hashes = line.chars().take_while(|&c| c == '#').count();
        if !(1..=6).contains(&hashes) || !line[hashes..].starts_with(' ') {
            continue;
        }
        let base = anchor(&line[hashes..]);
        let mut name = base.clone();
        let mut n = 0;
        while found.contains(&name) {
            n += 1;
            name = format!("{base}-{n}");
        }
        found.insert(name);
    }
    found
}

/// The targets of the prose's markdown links and images, `[text](target)`, code spans left
/// out; a link's text may run over a line break.
fn link_targets(prose: &str) -> Vec<String> {
    let text = without_code(prose);
    let mut targets = Vec::new();
    let mut rest = text.as_str();
    while let Some(open) = rest.find("](") {
        let after = &rest[open + 2..];
        let Some(close) = after.find(')') else { break };
        let target = &after[..close];
        if !target.contains(char::is_whitespace) {
            targets.push(target.to_string());
        }
        rest = &after[close..];
    }
    targets
}

/// What is wrong with each relative link of `doc` (files looked up from `doc`'s folder);
/// links to other sites are not followed.
fn broken_links(doc: &Document, targets: &[String]) -> Vec<String> {
    let folder = doc.path.parent().expect("a document lies in a folder");
    let mut broken = Vec::new();
    for target in targets {
        if target.contains("://") || target.starts_with("mailto:") {
            continue;
        }
        let (file, fragment) = match target.split_once('#') {
            Some((file, fragment)) => (file, Some(fragment)),
            None => (target.as_str(), None),
        };
        let path = if file.is_empty() {
            doc.path.clone()
        } else {
            folder.join(file)
        };
        if !path.exists() {
            broken.push(format!("{target}: no file {}", path.display()));
            continue;
        }
        let Some(fragment) = fragment else { continue };
        let text = std::fs::read_to_string(&path).unwrap_or_default();
        if !anchors(&text).contains(fragment) {
            broken.push(format!(
                "{target}: no heading #{fragment} in {}",
                path.display()
            ));
        }
    }
    broken
}

#[test]
fn every_input_file_the_docs_name_exists() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut missing = Vec::new();
    let mut checked = 0;
    let mut in_readme = 0;
    for doc in documents(root) {
        let (fenced, prose) = split_fences(&doc.text);
        let mut all = commands(&fenced);
        all.extend(
            code_spans(&prose)
                .into_iter()
                .filter(|span| span.starts_with("stacktune "))
                .map(str::to_string),
        );
        for command in &all {
            for file in input_files(command) {
                checked += 1;
                if doc.path.ends_with("README.md") && doc.path.parent() == Some(root) {
                    in_readme += 1;
                }
                if !root.join(file).exists() {
                    missing.push(format!(
                        "{}: {file} (in `{}`)",
                        doc.path.strip_prefix(root).unwrap().display(),
                        command.trim()
                    ));
                }
            }
        }
    }
    assert!(
        missing.is_empty(),
        "the docs name missing files: {missing:#?}"
    );
    assert!(
        checked >= 80,
        "only {checked} file arguments found in the docs"
    );
    assert!(
        in_readme >= 15,
        "only {in_readme} file arguments found in README"
    );
}

#[test]
fn every_relative_link_leads_to_a_file_and_a_heading() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut broken = Vec::new();
    let mut checked = 0;
    for doc in documents(root) {
        let (_, prose) = split_fences(&doc.text);
        let targets = link_targets(&prose);
        checked += targets.len();
        for problem in broken_links(&doc, &targets) {
            broken.push(format!(
                "{}: {problem}",
                doc.path.strip_prefix(root).unwrap().display()
            ));
        }
    }
    assert!(broken.is_empty(), "broken links: {broken:#?}");
    assert!(checked >= 70, "only {checked} links found in the docs");
}

#[test]
fn anchors_follow_githubs_rule() {
    assert_eq!(
        anchor("The beam player: `weights/contest/beam-l2.toml`, `beam-l3.toml`"),
        "the-beam-player-weightscontestbeam-l2toml-beam-l3toml"
    );
    assert_eq!(
        anchor("`--splitting EFFORT`: the mean of games too long to play"),
        "--splitting-effort-the-mean-of-games-too-long-to-play"
    );
    assert_eq!(
        anchor("Placement order and ties: MdpTetris's"),
        "placement-order-and-ties-mdptetriss"
    );
    let found = anchors("# Speed\n```\n# not a heading\n```\n## Speed\n#hashtag\n### Go_on\n");
    let expected: HashSet<String> = ["speed", "speed-1", "go_on"].map(String::from).into();
    assert_eq!(found, expected);
}

#[test]
fn a_broken_link_or_anchor_is_reported() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let doc = Document {
        path: root.join("docs").join("made-up.md"),
        text: String::new(),
    };
    let prose = "See [runs](runs.md#weight-files), [gone](nowhere.md), [the\nwrong \
                 heading](runs.md#no-such-heading), `[code](nowhere.md)` and \
                 [a site](https://example.org/x.md).";
    let targets = link_targets(prose);
    assert_eq!(
        targets,
        [
            "runs.md#weight-files",
            "nowhere.md",
            "runs.md#no-such-heading",
            "https://example.org/x.md"
        ]
    );
    let broken = broken_links(&doc, &targets);
    assert_eq!(broken.len(), 2, "{broken:#?}");
    assert!(
        broken[0].starts_with("nowhere.md: no file "),
        "{}",
        broken[0]
    );
    assert!(
        broken[1].starts_with("runs.md#no-such-heading: no heading #no-such-heading in "),
        "{}",
        broken[1]
    );
}

#[test]
fn commands_name_their_input_files() {
    let fenced = [
        "stacktune play --weights a.toml --trace out.jsonl   # writes out.jsonl",
        "stacktune compare --config b.toml \\",
        "  --config c.toml --out d.csv",
        "mpirun -n 2 target/release/stacktune evolve --config e.toml",
        "cargo run --release -- evolve --config f.toml",
        "cargo run --release --example trominoes -- play g.toml",
        "cargo build --release --features mpi",
        "stacktune play --weights runs/tetris-x/best.toml --pieces /tmp/p.txt h.txt",
    ];
    let joined = commands(&fenced);
    let files: Vec<Vec<&str>> = joined.iter().map(|command| input_files(command)).collect();
    let expected: Vec<Vec<&str>> = vec![
        vec!["a.toml"],
        vec!["b.toml", "c.toml"],
        vec!["e.toml"],
        vec!["f.toml"],
        vec!["g.toml"],
        vec![],
        vec!["h.txt"],
    ];
    assert_eq!(files, expected);
}

/// README is short, and starts with the two commands a newcomer needs: the main job and the
/// tests, as `.ci/run` runs them.
#[test]
fn readme_is_short_and_starts_with_the_two_commands() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(root.join("README.md")).unwrap();
    let lines = text.lines().count();
    assert!(lines <= README_LINES, "README.md has {lines} lines");
    let (fenced, _) = split_fences(&text);
    let first: Vec<String> = commands(&fenced)
        .into_iter()
        .take(2)
        .map(|c| c.trim().to_string())
        .collect();
    assert_eq!(
        first,
        ["cargo run --release -- evolve", "cargo test --release"]
    );
    let before_first_block = text.split("```").next().unwrap();
    assert_eq!(before_first_block.trim(), "# stacktune");
}

/// No user page of docs/ is longer than a reader reads: the record of what was tried goes to
/// docs/notes/.
#[test]
fn user_pages_are_short() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let long: Vec<String> = pages_in(&root.join("docs"))
        .into_iter()
        .map(|page| {
            let lines = std::fs::read_to_string(&page).unwrap().lines().count();
            (page, lines)
        })
        .filter(|(_, lines)| *lines > PAGE_LINES)
        .map(|(page, lines)| format!("{}: {lines} lines", page.display()))
        .collect();
    assert!(long.is_empty(), "over {PAGE_LINES} lines: {long:#?}");
}

/// The files under weights/ that git tracks (every file there, outside a git checkout).
fn shipped_weights(root: &Path) -> Vec<String> {
    let git = std::process::Command::new("git")
        .args(["ls-files", "weights/"])
        .current_dir(root)
        .output()
        .ok()
        .filter(|out| out.status.success() && !out.stdout.is_empty());
    if let Some(out) = git {
        return String::from_utf8(out.stdout)
            .unwrap()
            .lines()
            .map(str::to_string)
            .collect();
    }
    let mut files = Vec::new();
    let mut todo = vec![root.join("weights")];
    while let Some(dir) = todo.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                todo.push(path);
            } else {
                let relative = path.strip_prefix(root).unwrap();
                files.push(relative.to_string_lossy().replace('\\', "/"));
            }
        }
    }
    files.sort();
    files
}

/// weights/ holds the players a user picks, each named in README's table of shipped players
/// by its path; an experiment's files live with its run in reports/.
#[test]
fn weights_holds_only_the_players_readme_names() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    let files = shipped_weights(root);
    assert!(files.len() >= 10, "{files:?}");
    let unnamed: Vec<&String> = files
        .iter()
        .filter(|file| !readme.contains(&format!("`{file}`")))
        .collect();
    assert!(
        unnamed.is_empty(),
        "weights/ files README does not name: {unnamed:?}"
    );
    // And README names no player that is not there.
    let named: Vec<&str> = readme
        .split('`')
        .filter(|span| span.starts_with("weights/") && span.contains('.') && !span.contains(' '))
        .collect();
    let missing: Vec<&&str> = named
        .iter()
        .filter(|name| !files.iter().any(|f| f == *name))
        .collect();
    assert!(
        missing.is_empty(),
        "README names {missing:?}, not in weights/"
    );
}
