//! Exports: one self-contained file that plays a weights file in another runner, generated
//! from the same weights and search, so that a test can prove it plays stacktune's moves.

pub mod contest;
pub mod kaggle;

/// Where a template's generated block begins and ends: the template stays readable and
/// lintable as it is, and an export replaces what lies between the two lines.
const BEGIN: &str = "# <stacktune:generated>";
const END: &str = "# </stacktune:generated>";

/// `template` with its generated block's content (the rest of the `BEGIN` line and the lines
/// up to `END`) replaced by `block`.
fn fill(template: &str, block: &str) -> String {
    let (head, rest) = template
        .split_once(BEGIN)
        .expect("the template has a generated block");
    let (_, tail) = rest
        .split_once(END)
        .expect("the template's generated block ends");
    format!("{head}{BEGIN}{block}{END}{tail}")
}
