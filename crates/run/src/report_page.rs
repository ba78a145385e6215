//! `report.html`: a run (or one replayed game) as one web page that opens in any browser,
//! offline, and can be sent to someone else.
//!
//! One self-contained file: the template (minijinja) lays out what is plain text (config,
//! provenance, the held-out summary, timings) so it reads even without scripts; the figures
//! and the replay are drawn by the page's own script from the data embedded as JSON. Nothing
//! is fetched: the page's Content-Security-Policy forbids any request, so a mistake cannot
//! slip one in. The script, the style and the template are real files beside this one.

use crate::report::{HistoryRow, Timing};
use anyhow::{Context, Result};
use minijinja::{Environment, context};
use serde::Serialize;
use stacktune_base::fsutil::write_atomic;
use stacktune_game::replay::Replay;
use std::path::Path;

const TEMPLATE: &str = include_str!("report_page/page.html");
/// The replay's controls, which the playground's page (web/) shows too: web/build.sh puts
/// this file into it.
const REPLAY: &str = include_str!("report_page/replay.html");
const SCRIPT: &str = include_str!("report_page/page.js");
const STYLE: &str = include_str!("report_page/page.css");

/// The page's file name in a run folder.
pub const FILE_NAME: &str = "report.html";

/// A held-out figure: the mean game score over the held-out games and its 95 % interval.
#[derive(Clone, Debug, Serialize)]
pub struct HeldOut {
    pub mean: f64,
    pub ci95: f64,
    pub games: u64,
}

/// The final held-out summary: the best weights, and the baseline's on the same games when
/// the run has one and its figure is known.
#[derive(Clone, Debug, Serialize)]
pub struct Final {
    pub best: HeldOut,
    pub baseline: Option<(String, HeldOut)>,
}

/// Everything the page of a run shows.
#[derive(Debug, Serialize)]
pub struct RunPage<'a> {
    /// e.g. "tetris (research 10x10, uniform pieces), run default".
    pub title: String,
    /// `run.toml` as written.
    pub config: String,
    pub seed: u64,
    pub version: &'static str,
    /// The commands that reproduce the run and its held-out figure.
    pub evolve_command: String,
    pub play_command: String,
    /// What a game's score counts ("lines", "score").
    pub measure: &'static str,
    /// A match run's fitness is a rating read against this anchor (or, without anchors, the
    /// generation's mean), not a mean score; left out of the page's data otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rating: Option<String>,
    pub generations: u64,
    pub features: &'a [String],
    pub history: &'a [HistoryRow],
    pub timings: &'a [Timing],
    pub final_summary: Option<Final>,
    pub replays: &'a [Replay],
    /// A game the page cannot replay itself (one a host plays, a Python game) as the game
    /// renders it, one text frame a move; left out of the page's data when there are none,
    /// so the compiled games' pages are as they were.
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    pub frames: &'a [String],
}

/// A page holding replays only (`play --replay-html`).
#[derive(Debug, Serialize)]
pub struct ReplayPage<'a> {
    pub title: String,
    pub version: &'static str,
    pub replays: &'a [Replay],
}

/// The page of a run.
pub fn render_run(page: &RunPage) -> Result<String> {
    render(&page.title, "run", page)
}

/// The page of replayed games alone.
pub fn render_replays(page: &ReplayPage) -> Result<String> {
    render(&page.title, "replay", page)
}

/// Writes a run's page into its folder, atomically: a reader sees the old page or the new.
pub fn write_run(dir: &Path, page: &RunPage) -> Result<()> {
    write_atomic(&dir.join(FILE_NAME), render_run(page)?.as_bytes())
}

/// Fills the template: `data` embedded as JSON, the plain-text parts rendered from it.
fn render(title: &str, kind: &str, data: &impl Serialize) -> Result<String> {
    let mut env = Environment::new();
    env.add_template("page.html", TEMPLATE)
        .context("the report page's template")?;
    env.add_template("replay.html", REPLAY)
        .context("the report page's replay")?;
    let json = serde_json::to_string(data)?;
    let page = env
        .get_template("page.html")
        .and_then(|t| {
            t.render(context! {
                title,
                kind,
                page => data,
                data_json => minijinja::Value::from_safe_string(script_safe(&json)),
                script => minijinja::Value::from_safe_string(SCRIPT.to_string()),
                style => minijinja::Value::from_safe_string(STYLE.to_string()),
            })
        })
        .context("cannot render the report page")?;
    Ok(page)
}

/// JSON made safe inside `<script type="application/json">`: a `</script>` (or `<!--`) in a
/// string would end the element early, so every `<` is written as its JSON escape, which the
/// script's `JSON.parse` reads back unchanged.
fn script_safe(json: &str) -> String {
    json.replace('<', "\\u003c")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_cannot_end_its_script_element() {
        let safe = script_safe(r#"{"a":"</script><!--"}"#);
        assert!(!safe.contains('<'));
        let back: serde_json::Value = serde_json::from_str(&safe).unwrap();
        assert_eq!(back["a"], "</script><!--");
    }
}
