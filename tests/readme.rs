//! README's commands run as copied: every file a `stacktune` command in README names as input
//! ships with the repository.

use std::path::Path;

/// Flags whose value is a file or folder the command writes, not one it reads.
const OUTPUT_FLAGS: [&str; 4] = ["--out", "--trace", "--replay-html", "--resume"];

#[test]
fn every_input_file_readme_names_exists() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    let mut checked = 0;
    let mut missing = Vec::new();
    let mut in_block = false;
    for line in readme.lines() {
        if line.trim_start().starts_with("```") {
            in_block = !in_block;
            continue;
        }
        let command = line.split('#').next().unwrap_or("").trim();
        if !in_block || !command.starts_with("stacktune ") {
            continue;
        }
        let words: Vec<&str> = command.split_whitespace().collect();
        for (i, word) in words.iter().enumerate() {
            let looks_like_file = [".toml", ".txt", ".json", ".jsonl", ".csv"]
                .iter()
                .any(|ext| word.ends_with(ext));
            let written = i > 0 && OUTPUT_FLAGS.contains(&words[i - 1]);
            if !looks_like_file || written {
                continue;
            }
            checked += 1;
            if !root.join(word).exists() {
                missing.push(format!("{word} (in `{command}`)"));
            }
        }
    }
    assert!(
        missing.is_empty(),
        "README names missing files: {missing:#?}"
    );
    assert!(
        checked >= 20,
        "only {checked} file arguments found in README"
    );
}
