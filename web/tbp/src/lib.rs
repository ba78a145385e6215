//! `stacktune tbp` in the browser: the Tetris Bot Protocol bot as a WebAssembly module, which
//! web/page/tbp-worker.js makes a Web Worker bot (TBP's browser form: the same messages as
//! objects through `postMessage`). A module of its own, apart from the playground's, which
//! carries no guideline Tetris. The conversation is the library's own [`Bot`] over
//! [`PlayerBrain`], `stacktune tbp`'s, fed one message at a time (docs/web.md).

use serde_json::json;
use stacktune_games::tetris::guideline::tbp::brain::PlayerBrain;
use stacktune_players::registry::{shipped_tbp_brain, tbp_brain};
use stacktune_players::search::Player;
use stacktune_players::weights::WeightFile;
use stacktune_tbp::bot::{Bot, Reply};
use wasm_bindgen::prelude::*;

/// A TBP bot: a guideline weights file under its search.
#[wasm_bindgen]
pub struct TbpBot {
    bot: Bot<PlayerBrain<Player>>,
}

#[wasm_bindgen]
impl TbpBot {
    /// The bot of a weights file's text read from `source` (a URL), or of the shipped versus
    /// player without one, as `stacktune tbp` without `--weights`; a file that is not a
    /// guideline weights file is a one-line error.
    #[wasm_bindgen(constructor)]
    pub fn new(weights: Option<String>, source: Option<String>) -> Result<TbpBot, JsError> {
        let brain = match weights {
            Some(text) => {
                let source = source.unwrap_or_else(|| "a weights file".to_string());
                WeightFile::parse(&text)
                    .and_then(|file| tbp_brain(&file, source.clone()))
                    .map_err(|e| JsError::new(&format!("weights file {source}: {e:#}")))?
            }
            None => shipped_tbp_brain(),
        };
        Ok(TbpBot {
            bot: Bot::new(brain),
        })
    }

    /// The `info` message, as JSON: the bot sends it first.
    pub fn info(&self) -> String {
        serde_json::to_string(&self.bot.info()).expect("messages serialise")
    }

    /// Acts on one message from the front end, as JSON: `{"send": the message to send back
    /// or null, "notes": why it was ignored (or ""), "quit": whether it was `quit`}`.
    pub fn receive(&mut self, message: &str) -> String {
        let mut notes = Vec::new();
        let reply = self.bot.receive(message, &mut notes);
        let send = match &reply {
            Reply::Send(message) => Some(message),
            Reply::Nothing | Reply::Quit => None,
        };
        if reply == Reply::Quit {
            self.bot.end();
        }
        let notes = String::from_utf8_lossy(&notes);
        json!({"send": send, "notes": notes.trim_end(), "quit": reply == Reply::Quit}).to_string()
    }
}
