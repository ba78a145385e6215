//! How a command line's refusal reads: clap's error for bad arguments as one line, for the
//! command line and for the Python package's keyword arguments alike.

/// Clap's error for bad arguments in one line, as `stacktune` prints it: what is wrong, then
/// any tip, before the usage block and clap's pointer to --help, one paragraph each (a list,
/// the missing arguments, joins into its paragraph).
pub fn bad_arguments(e: &clap::Error) -> String {
    if let Some(line) = negative_count(e) {
        return line;
    }
    let text = e.render().to_string();
    let before_usage = text.split("\nUsage:").next().unwrap_or_default();
    let what: Vec<String> = before_usage
        .split("\n\n")
        .map(|p| p.split_whitespace().collect::<Vec<_>>().join(" "))
        .filter(|p| !p.is_empty() && !p.starts_with("For more information"))
        .collect();
    what.join("; ")
}

/// A negative number given to a flag that counts (`--games -5`): clap says it found no digit
/// in it, where the user needs to hear that the value is out of range.
fn negative_count(e: &clap::Error) -> Option<String> {
    use clap::error::{ContextKind, ContextValue, ErrorKind};
    if e.kind() != ErrorKind::ValueValidation {
        return None;
    }
    let (Some(ContextValue::String(arg)), Some(ContextValue::String(value))) = (
        e.get(ContextKind::InvalidArg),
        e.get(ContextKind::InvalidValue),
    ) else {
        return None;
    };
    let negative = value
        .strip_prefix('-')
        .is_some_and(|digits| digits.parse::<f64>().is_ok());
    let flag = arg.split_whitespace().next()?;
    negative.then(|| format!("error: {flag} {value} is out of range: it cannot be negative"))
}
