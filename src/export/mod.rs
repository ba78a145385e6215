//! Exports: one self-contained file that plays a weights file in another runner, generated
//! from the same weights and search, so that a test can prove it plays stacktune's moves.

pub mod contest;
pub mod kaggle;

use sha2::{Digest, Sha256};
use std::fmt::Write;
use std::path::Path;

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

/// Where an export's weights came from, said so that a submitted file names no directory of
/// the machine it was made on: the file's own name, and the SHA-256 of its bytes, which
/// `sha256sum` checks against a copy anywhere.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Provenance {
    pub name: String,
    pub sha256: String,
}

impl Provenance {
    /// The provenance of the file at `path` whose content is `bytes`.
    pub fn of(path: &Path, bytes: &[u8]) -> Provenance {
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let mut sha256 = String::with_capacity(64);
        for byte in Sha256::digest(bytes) {
            write!(sha256, "{byte:02x}").expect("writing to a String cannot fail");
        }
        Provenance { name, sha256 }
    }

    /// The generated block's lines `SOURCE = "name"` and `SOURCE_SHA256 = "…"` (a JSON
    /// string is a Python string literal too, so any name reads back as written).
    fn python_lines(&self) -> String {
        let name = serde_json::to_string(&self.name).expect("a string serialises");
        format!("SOURCE = {name}\nSOURCE_SHA256 = \"{}\"\n", self.sha256)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_provenance_is_the_file_name_and_its_sha256() {
        // `printf 'abc' | sha256sum`
        let p = Provenance::of(Path::new("/home/someone/weights/w \"1\".toml"), b"abc");
        assert_eq!(p.name, "w \"1\".toml");
        assert_eq!(
            p.python_lines(),
            "SOURCE = \"w \\\"1\\\".toml\"\nSOURCE_SHA256 = \
             \"ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad\"\n"
        );
    }
}
