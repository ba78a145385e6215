//! Features of one's own: functions of the board after a placement, written outside the engine
//! (a Python function given to the Python package, a student's code on the browser's page),
//! named beside a game's built-in features so that a weight set weighs them and a run evolves
//! them as it does the built-in ones.
//!
//! A function is [`define`]d under its name in this process; a game whose settings name it
//! ([`BoardFeatures::resolve`]) calls it on each board it scores. Games are built from their
//! settings wherever batches are played (a thread, a Web Worker), so the name, not the
//! function, is what travels: each process defines the same function under the same name.

use crate::{FeatureMask, FeatureValues, MAX_FEATURES};
use anyhow::{Result, bail};
use std::collections::BTreeMap;
use std::fmt;
use std::sync::{Arc, Mutex, OnceLock};

/// The board a function sees: `rows × columns` cell numbers, row-major, top row first, in the
/// numbering the game's bindings use for its boards (Puyo: 0 empty, colours 1..5, nuisance 6).
#[derive(Clone, Copy, Debug)]
pub struct Board<'a> {
    pub rows: usize,
    pub columns: usize,
    pub cells: &'a [u8],
}

/// A feature's function: its value on a board, or why it has none (an exception's text).
pub type BoardFunction = dyn Fn(&Board<'_>) -> std::result::Result<f64, String> + Send + Sync;

/// The functions defined in this process, by name.
static DEFINED: Mutex<BTreeMap<String, Arc<BoardFunction>>> = Mutex::new(BTreeMap::new());

/// Feature lists made so far: a game's names are `'static`, and a process makes few lists (one
/// a set of features it runs), so each is made once and kept.
static NAME_LISTS: Mutex<Vec<&'static [&'static str]>> = Mutex::new(Vec::new());

/// Defines `function` as the board feature `name` in this process, replacing an earlier one of
/// that name. A name is a word of letters, digits and `_` not starting with a digit, as
/// feature names and Python functions are.
pub fn define(name: &str, function: Arc<BoardFunction>) -> Result<()> {
    let word = name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    if name.is_empty() || !word || name.starts_with(|c: char| c.is_ascii_digit()) {
        bail!(
            "board feature name `{name}` is not a word: letters, digits and _, not starting with a digit"
        );
    }
    lock(&DEFINED).insert(name.to_string(), function);
    Ok(())
}

/// Forgets the board feature `name` (a run that defined it is over).
pub fn undefine(name: &str) {
    lock(&DEFINED).remove(name);
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    // The maps hold no invariant a panic elsewhere could break halfway.
    mutex.lock().unwrap_or_else(|e| e.into_inner())
}

/// The board features of one game as built: their functions, after the game's own features in
/// its order, and the first failure any of them met.
#[derive(Clone)]
pub struct BoardFeatures {
    /// The game's feature names followed by the board features'.
    names: &'static [&'static str],
    /// The index of the first board feature in the game's order.
    first: usize,
    functions: Vec<Arc<BoardFunction>>,
    /// Set once, by the first call that fails; every later call is skipped. Shared by the
    /// clones a batch's threads play with, so the batch reports it ([`BoardFeatures::failure`]).
    failed: Arc<OnceLock<String>>,
}

impl fmt::Debug for BoardFeatures {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("BoardFeatures")
            .field("names", &&self.names[self.first..])
            .finish()
    }
}

impl BoardFeatures {
    /// The board features `names` after a game's `builtin` features, each defined in this
    /// process; `None` when there are none. A name that is not defined, is a built-in
    /// feature's or is given twice, or more features than a game may have, is an error naming
    /// it.
    pub fn resolve(
        game: &str,
        builtin: &'static [&'static str],
        names: &[String],
    ) -> Result<Option<BoardFeatures>> {
        if names.is_empty() {
            return Ok(None);
        }
        if builtin.len() + names.len() > MAX_FEATURES {
            bail!(
                "{} board features and {game}'s {} built-in ones are more than the {MAX_FEATURES} features a game may have",
                names.len(),
                builtin.len()
            );
        }
        let defined = lock(&DEFINED);
        let mut functions = Vec::with_capacity(names.len());
        for (i, name) in names.iter().enumerate() {
            if builtin.contains(&name.as_str()) {
                bail!(
                    "board feature `{name}` is a built-in feature of {game}: give it another name"
                );
            }
            if names[..i].contains(name) {
                bail!("board feature `{name}` is given twice");
            }
            let Some(function) = defined.get(name) else {
                bail!(
                    "board feature `{name}` is not defined: it is a function of the board given with the run (Python: stacktune.evolve(..., features={{\"{name}\": function}}) or python -m stacktune evolve --feature-file FILE.py)"
                );
            };
            functions.push(Arc::clone(function));
        }
        Ok(Some(BoardFeatures {
            names: name_list(builtin, names),
            first: builtin.len(),
            functions,
            failed: Arc::new(OnceLock::new()),
        }))
    }

    /// The game's feature names and the board features' after them.
    pub fn names(&self) -> &'static [&'static str] {
        self.names
    }

    /// Whether `mask` asks for any board feature: the one test a placement pays when a
    /// weight set does not use them.
    #[inline(always)]
    pub fn wanted(&self, mask: FeatureMask) -> bool {
        mask >> self.first != 0
    }

    /// Writes the value of each board feature `mask` asks for on `board` into `values`. A
    /// function that fails (an error, a value that is not a finite number) records the
    /// failure, which ends the batch ([`failure`](BoardFeatures::failure)); the value is then
    /// 0 and no function is called again.
    pub fn compute(&self, board: &Board<'_>, mask: FeatureMask, values: &mut FeatureValues) {
        for (i, function) in self.functions.iter().enumerate() {
            let index = self.first + i;
            if mask & (1 << index) == 0 {
                continue;
            }
            values.0[index] = 0.0;
            if self.failed.get().is_some() {
                continue;
            }
            let name = self.names[index];
            match function(board) {
                Ok(v) if v.is_finite() => values.0[index] = v,
                Ok(v) => {
                    let _ = self.failed.set(format!(
                        "board feature `{name}` returned {v}: a feature's value must be a finite number"
                    ));
                }
                Err(e) => {
                    let _ = self
                        .failed
                        .set(format!("board feature `{name}` failed: {e}"));
                }
            }
        }
    }

    /// The first failure a function met in the games played so far, if any.
    pub fn failure(&self) -> Option<&str> {
        self.failed.get().map(String::as_str)
    }
}

/// `builtin` followed by `extra`, as one list kept for the process's life (made once a list).
fn name_list(builtin: &'static [&'static str], extra: &[String]) -> &'static [&'static str] {
    let mut lists = lock(&NAME_LISTS);
    let same = |list: &&&'static [&'static str]| {
        list.len() == builtin.len() + extra.len()
            && list[..builtin.len()] == *builtin
            && list[builtin.len()..].iter().zip(extra).all(|(a, b)| a == b)
    };
    if let Some(list) = lists.iter().find(same) {
        return list;
    }
    let names: Vec<&'static str> = builtin
        .iter()
        .copied()
        .chain(
            extra
                .iter()
                .map(|n| &*Box::leak(n.clone().into_boxed_str())),
        )
        .collect();
    let list: &'static [&'static str] = Box::leak(names.into_boxed_slice());
    lists.push(list);
    list
}

#[cfg(test)]
mod tests {
    use super::*;

    const BUILTIN: &[&str] = &["height", "holes"];

    fn cells_sum(board: &Board<'_>) -> std::result::Result<f64, String> {
        Ok(board.cells.iter().map(|&c| f64::from(c)).sum())
    }

    #[test]
    fn a_defined_feature_follows_the_built_in_ones_and_is_computed_only_when_asked() {
        define("unit_sum", Arc::new(cells_sum)).unwrap();
        let features = BoardFeatures::resolve("g", BUILTIN, &["unit_sum".into()])
            .unwrap()
            .unwrap();
        assert_eq!(features.names(), ["height", "holes", "unit_sum"]);
        let board = Board {
            rows: 2,
            columns: 2,
            cells: &[0, 1, 2, 3],
        };
        let mut values = FeatureValues::default();
        assert!(!features.wanted(0b011));
        features.compute(&board, 0b011, &mut values);
        assert_eq!(values.0[2], 0.0);
        assert!(features.wanted(0b100));
        features.compute(&board, 0b100, &mut values);
        assert_eq!((values.0[2], features.failure()), (6.0, None));
        // The same list again is the same list, not a second one.
        let again = BoardFeatures::resolve("g", BUILTIN, &["unit_sum".into()])
            .unwrap()
            .unwrap();
        assert!(std::ptr::eq(features.names(), again.names()));
        undefine("unit_sum");
    }

    #[test]
    fn a_failure_is_recorded_once_naming_the_feature() {
        define("unit_nan", Arc::new(|_: &Board<'_>| Ok(f64::NAN))).unwrap();
        define(
            "unit_raises",
            Arc::new(|_: &Board<'_>| Err("ZeroDivisionError: division by zero".into())),
        )
        .unwrap();
        let board = Board {
            rows: 1,
            columns: 1,
            cells: &[0],
        };
        let mut values = FeatureValues::default();
        let nan = BoardFeatures::resolve("g", BUILTIN, &["unit_nan".into()])
            .unwrap()
            .unwrap();
        nan.compute(&board, 0b100, &mut values);
        assert_eq!(
            nan.failure(),
            Some(
                "board feature `unit_nan` returned NaN: a feature's value must be a finite number"
            )
        );
        assert_eq!(values.0[2], 0.0);
        let raises = BoardFeatures::resolve("g", BUILTIN, &["unit_raises".into()])
            .unwrap()
            .unwrap();
        raises.clone().compute(&board, 0b100, &mut values);
        assert_eq!(
            raises.failure(),
            Some("board feature `unit_raises` failed: ZeroDivisionError: division by zero")
        );
        undefine("unit_nan");
        undefine("unit_raises");
    }

    #[test]
    fn names_are_checked() {
        let err = |names: &[&str]| {
            let names: Vec<String> = names.iter().map(|n| n.to_string()).collect();
            BoardFeatures::resolve("g", BUILTIN, &names)
                .unwrap_err()
                .to_string()
        };
        assert_eq!(
            err(&["holes"]),
            "board feature `holes` is a built-in feature of g: give it another name"
        );
        assert!(
            err(&["unit_missing"]).starts_with("board feature `unit_missing` is not defined: ")
        );
        define("unit_twice", Arc::new(cells_sum)).unwrap();
        assert_eq!(
            err(&["unit_twice", "unit_twice"]),
            "board feature `unit_twice` is given twice"
        );
        undefine("unit_twice");
        assert_eq!(
            define("2nd", Arc::new(cells_sum)).unwrap_err().to_string(),
            "board feature name `2nd` is not a word: letters, digits and _, not starting with a digit"
        );
        assert!(BoardFeatures::resolve("g", BUILTIN, &[]).unwrap().is_none());
    }
}
