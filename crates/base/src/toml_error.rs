//! TOML errors as one line, for every file a user writes (run configs, puzzles, weights): a
//! helper below the run loop and the games alike.

/// One line for a TOML error: where it is and what is wrong.
pub fn toml_error(text: &str, e: &toml::de::Error) -> String {
    match e.span() {
        Some(span) => {
            let line = text[..span.start].matches('\n').count() + 1;
            let column = span.start - text[..span.start].rfind('\n').map_or(0, |i| i + 1) + 1;
            format!("line {line}, column {column}: {}", e.message().trim())
        }
        None => e.message().trim().to_string(),
    }
}
