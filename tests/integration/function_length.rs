//! No function over 80 lines, the house's rule: a function that long does several things, and
//! its name can say only one. Every `fn` of the Rust code (the library, the binary, the Python
//! crate, tests, benches, examples) is measured from its `fn` line to its closing brace.

use std::path::{Path, PathBuf};

/// The most lines a function may take, signature and closing brace included.
const MOST_LINES: usize = 80;

/// The folders of Rust code this repository holds.
const FOLDERS: [&str; 8] = [
    "crates",
    "src",
    "tests",
    "benches",
    "examples",
    "python/src",
    "web/src",
    "web/tbp/src",
];

/// The `.rs` files below `dir`, in a fixed order.
fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut paths: Vec<PathBuf> = entries.map(|e| e.expect("a folder lists").path()).collect();
    paths.sort();
    for path in paths {
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|ext| ext == "rs") {
            out.push(path);
        }
    }
}

/// The length in bytes of the string, raw string or char literal at the start of `rest`, if
/// one starts there (`'a` of a lifetime is not a literal).
fn literal_len(rest: &[u8]) -> Option<usize> {
    let prefix = match rest {
        [b'b', b'r', ..] => 2,
        [b'r', b'"' | b'#', ..] | [b'b', b'"' | b'\'', ..] => 1,
        _ => 0,
    };
    let body = &rest[prefix..];
    if prefix > 0 && (rest[prefix - 1] == b'r') {
        let hashes = body.iter().take_while(|&&b| b == b'#').count();
        if body.get(hashes) != Some(&b'"') {
            return None;
        }
        let close: Vec<u8> = std::iter::once(b'"')
            .chain(std::iter::repeat_n(b'#', hashes))
            .collect();
        let start = prefix + hashes + 1;
        let end = rest[start..]
            .windows(close.len())
            .position(|w| w == close.as_slice())?;
        return Some(start + end + close.len());
    }
    match body.first() {
        Some(b'"') => {
            let mut i = 1;
            while body.get(i)? != &b'"' {
                i += if body[i] == b'\\' { 2 } else { 1 };
            }
            Some(prefix + i + 1)
        }
        Some(b'\'') => {
            // 'x', '\n', '\u{7f}', and not 'a (a lifetime).
            let escaped = body.get(1) == Some(&b'\\');
            let from = if escaped { 3 } else { 2 };
            let close = body.iter().skip(from).position(|&b| b == b'\'')? + from;
            let char_len = std::str::from_utf8(&body[1..close]).ok()?.chars().count();
            (escaped || char_len == 1).then_some(prefix + close + 1)
        }
        _ => None,
    }
}

/// The code with comments and literals blanked out (line breaks kept), so braces and `fn`
/// inside them are not taken for code.
fn code_only(text: &str) -> Vec<u8> {
    let bytes = text.as_bytes();
    let mut out = bytes.to_vec();
    let blank = |out: &mut Vec<u8>, from: usize, to: usize| {
        for b in &mut out[from..to] {
            if *b != b'\n' {
                *b = b' ';
            }
        }
    };
    let mut i = 0;
    while i < bytes.len() {
        let rest = &bytes[i..];
        let word_before = i > 0 && (bytes[i - 1].is_ascii_alphanumeric() || bytes[i - 1] == b'_');
        let skip = if rest.starts_with(b"//") {
            rest.iter().position(|&b| b == b'\n').unwrap_or(rest.len())
        } else if rest.starts_with(b"/*") {
            let mut depth = 0;
            let mut j = 0;
            loop {
                if rest[j..].starts_with(b"/*") {
                    depth += 1;
                    j += 2;
                } else if rest[j..].starts_with(b"*/") {
                    depth -= 1;
                    j += 2;
                    if depth == 0 {
                        break j;
                    }
                } else {
                    j += 1;
                }
            }
        } else if word_before {
            0
        } else {
            literal_len(rest).unwrap_or(0)
        };
        if skip > 0 {
            blank(&mut out, i, i + skip);
            i += skip;
        } else {
            i += 1;
        }
    }
    out
}

/// Each function with a body in `text`: its name, first line and number of lines.
fn functions(text: &str) -> Vec<(String, usize, usize)> {
    let code = code_only(text);
    let line_of = |at: usize| code[..at].iter().filter(|&&b| b == b'\n').count() + 1;
    let is_word = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    let mut found = Vec::new();
    let mut i = 0;
    while let Some(at) = code[i..]
        .windows(3)
        .position(|w| w == b"fn ")
        .map(|p| p + i)
    {
        i = at + 3;
        if at > 0 && is_word(code[at - 1]) {
            continue;
        }
        let name_len = code[i..].iter().take_while(|&&b| is_word(b)).count();
        let name = String::from_utf8_lossy(&code[i..i + name_len]).into_owned();
        // The body opens at the first `{` outside brackets; a `;` first means no body.
        let mut depth = 0i32;
        let mut open = None;
        for (j, &b) in code.iter().enumerate().skip(i) {
            match b {
                b'(' | b'[' => depth += 1,
                b')' | b']' => depth -= 1,
                b'{' if depth == 0 => {
                    open = Some(j);
                    break;
                }
                b';' if depth == 0 => break,
                _ => {}
            }
        }
        let Some(open) = open else { continue };
        let mut braces = 0;
        let close = (open..code.len())
            .find(|&j| {
                match code[j] {
                    b'{' => braces += 1,
                    b'}' => braces -= 1,
                    _ => {}
                }
                braces == 0
            })
            .expect("every body closes");
        let first = line_of(at);
        found.push((name, first, line_of(close) - first + 1));
    }
    found
}

#[test]
fn no_function_is_over_80_lines() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    for folder in FOLDERS {
        rust_files(&root.join(folder), &mut files);
    }
    let mut long = Vec::new();
    let mut counted = 0;
    for path in &files {
        let text = std::fs::read_to_string(path).expect("a source file reads");
        let file = path
            .strip_prefix(root)
            .unwrap()
            .to_string_lossy()
            .into_owned();
        for (name, line, lines) in functions(&text) {
            counted += 1;
            if lines > MOST_LINES {
                long.push(format!("{file}:{line}: fn {name} is {lines} lines"));
            }
        }
    }
    assert!(long.is_empty(), "over {MOST_LINES} lines: {long:#?}");
    assert!(counted > 1_000, "only {counted} functions found");
}

#[test]
fn functions_are_measured_from_fn_to_closing_brace() {
    let text = "/// fn in a comment { }\n\
                pub fn a<T: Into<[u8; 2]>>(x: T) -> [u8; 2] {\n    \
                    let s = \"}{ fn b() {\";\n    \
                    let c = '}';\n    \
                    let r = r#\"}\"#;\n    \
                    x.into()\n\
                }\n\
                trait T { fn declared(&self); fn given<'a>(&'a self) -> &'a str { \"{\" } }\n\
                /* fn gone() { /* nested */ } */ fn f() {}\n";
    let found = functions(text);
    assert_eq!(
        found,
        [
            ("a".to_string(), 2, 6),
            ("given".to_string(), 8, 1),
            ("f".to_string(), 9, 1)
        ]
    );
}
