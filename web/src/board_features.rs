//! Features of one's own on the page: a student's function of the board (Python, run by
//! Pyodide in each worker: web/page/python-feature.js) defined in this instance of the module
//! under its name, so that a Puyo run whose `[game] board_features` names it weighs and evolves
//! it as the Python package does ([`stacktune_game::board_features`]). A run without one never
//! reaches this module: its games have no board features and play as before.

use crate::{Js, js};
use stacktune_game::board_features::{self, Board};
use stacktune_run::RunConfig;
use std::cell::RefCell;
use std::collections::BTreeMap;
use std::sync::Arc;
use wasm_bindgen::prelude::*;

#[wasm_bindgen]
extern "C" {
    /// A board feature's function as the page gives it: an object whose `value(cells, rows,
    /// columns)` is the feature's value on a board, a number, or a string saying why it has
    /// none. `cells` is a view of this module's memory, valid during the call only: `rows ×
    /// columns` cell numbers, top row first (Puyo: 0 empty, colours 1..5, nuisance 6).
    pub type BoardValue;

    #[wasm_bindgen(method, structural, catch)]
    fn value(this: &BoardValue, cells: &[u8], rows: u32, columns: u32) -> Result<JsValue, JsValue>;
}

thread_local! {
    /// The page's functions by name. A JavaScript value belongs to the thread that made it (a
    /// worker has one), so the function the library holds for a name looks its own up here.
    static FUNCTIONS: RefCell<BTreeMap<String, BoardValue>> = const { RefCell::new(BTreeMap::new()) };
}

/// Defines `function` as the board feature `name` in this instance of the module, replacing an
/// earlier one of that name; a name that is not a word is one line saying so.
#[wasm_bindgen]
pub fn define_board_feature(name: &str, function: BoardValue) -> Js<()> {
    let key = name.to_string();
    board_features::define(
        name,
        Arc::new(move |board: &Board<'_>| value_of(&key, board)),
    )
    .map_err(js)?;
    FUNCTIONS.with_borrow_mut(|functions| functions.insert(name.to_string(), function));
    Ok(())
}

/// The value of the page's function `name` on `board`: the board is lent, not copied, and
/// nothing is allocated on this side unless the function fails.
fn value_of(name: &str, board: &Board<'_>) -> Result<f64, String> {
    FUNCTIONS.with_borrow(|functions| {
        let function = functions
            .get(name)
            .ok_or_else(|| "it is not defined in this worker".to_string())?;
        let (rows, columns) = (board.rows as u32, board.columns as u32);
        let answer = function
            .value(board.cells, rows, columns)
            .map_err(|thrown| format!("its function threw {}", js_string(&thrown)))?;
        answer.as_f64().ok_or_else(|| not_a_number(&answer))
    })
}

/// A function's answer that is not a number: the failure's one line, the page's own text when
/// it gives one.
fn not_a_number(answer: &JsValue) -> String {
    answer
        .as_string()
        .unwrap_or_else(|| format!("its function answered {}, not a number", js_string(answer)))
}

#[wasm_bindgen]
extern "C" {
    /// JavaScript's `String(value)`.
    #[wasm_bindgen(js_name = String)]
    fn js_string(value: &JsValue) -> String;
}

/// The config `config` with the board features `names` (a JSON list) as its only ones, each
/// tuned after the features it names when it names them (run.toml as `evolve` reads it, with
/// `--feature-file` giving the functions).
#[wasm_bindgen]
pub fn set_board_features(config: &str, names: &str) -> Js<String> {
    let mut config = RunConfig::from_text(config).map_err(js)?;
    let names: Vec<String> = serde_json::from_str(names).map_err(|e| {
        js(anyhow::anyhow!(
            "the board features are not a JSON list of names: {e}"
        ))
    })?;
    let before = std::mem::replace(&mut config.game.board_features, names.clone());
    if !config.features.is_empty() {
        config.features.retain(|f| !before.contains(f));
        config.features.extend(names);
    }
    Ok(config.to_toml())
}
