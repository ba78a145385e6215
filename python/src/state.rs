//! A game being played, one move at a time: the generic core of every game class.

use crate::engine::Engine;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use stacktune_game::{FeatureMask, MAX_FEATURES, Outcome};
use std::sync::Arc;

/// A game, its position, where its next pieces come from, and its running score.
pub struct State<G: Engine> {
    pub game: Arc<G>,
    pub position: G::Position,
    pub dealer: G::Dealer,
    pub score: f64,
    pub moves_played: u64,
    /// A move ended the game.
    pub over: bool,
    /// The legal moves of `position`, valid while `listed`.
    legal: Vec<G::Move>,
    listed: bool,
}

impl<G: Engine> Clone for State<G> {
    fn clone(&self) -> Self {
        State {
            game: self.game.clone(),
            position: self.position.clone(),
            dealer: self.dealer.clone(),
            score: self.score,
            moves_played: self.moves_played,
            over: self.over,
            legal: self.legal.clone(),
            listed: self.listed,
        }
    }
}

/// A seed as Python gives it (`#[pyo3(from_py_with = seed)]`): an int in 0..2**64-1, numpy's
/// integers too, each refused in one line saying the range rather than an OverflowError's
/// "can't convert negative int to unsigned".
pub fn seed(value: &Bound<'_, PyAny>) -> PyResult<u64> {
    let kind = value.get_type().name()?.to_string();
    let operator = value.py().import("operator")?;
    let index = (kind != "bool" && kind != "bool_")
        .then(|| operator.call_method1("index", (value,)).ok())
        .flatten();
    let Some(index) = index else {
        return Err(PyTypeError::new_err(format!(
            "a seed is an int in 0..2**64-1, not {kind}"
        )));
    };
    index.extract().map_err(|_| {
        PyValueError::new_err(format!(
            "seed {} is out of range: seeds are 0..2**64-1",
            index.str().map(|s| s.to_string()).unwrap_or_default()
        ))
    })
}

/// Every feature of a game with `n` of them.
pub fn all_features(n: usize) -> FeatureMask {
    if n >= MAX_FEATURES { !0 } else { (1 << n) - 1 }
}

impl<G: Engine> State<G> {
    /// Game 0 of `stacktune play --seed seed`.
    pub fn new(game: Arc<G>, seed: u64) -> State<G> {
        let mut dealer = game.dealer(seed);
        let position = game.begin(&mut dealer);
        State::at(game, position, dealer)
    }

    /// A game from `position`, its later pieces drawn from `dealer`.
    pub fn at(game: Arc<G>, position: G::Position, dealer: G::Dealer) -> State<G> {
        State {
            game,
            position,
            dealer,
            score: 0.0,
            moves_played: 0,
            over: false,
            legal: Vec::new(),
            listed: false,
        }
    }

    /// Starts over with game 0 of `seed`, keeping the buffers.
    pub fn restart(&mut self, seed: u64) {
        self.dealer = self.game.dealer(seed);
        self.position = self.game.begin(&mut self.dealer);
        self.score = 0.0;
        self.moves_played = 0;
        self.over = false;
        self.listed = false;
    }

    /// The legal moves in the game's enumeration order (none once the game is over).
    pub fn legal(&mut self) -> &[G::Move] {
        if !self.listed {
            self.legal.clear();
            if !self.over {
                let legal = &mut self.legal;
                self.game
                    .for_each_outcome(&self.position, 0, &mut |mv, _, _| legal.push(mv));
            }
            self.listed = true;
        }
        &self.legal
    }

    /// Over: a move ended the game, or no placement is left.
    pub fn done(&mut self) -> bool {
        self.over || self.legal().is_empty()
    }

    /// Every feature of every legal move, one row of `feature_names` per move, appended to
    /// `out`, which then holds one row a move in [`legal`](State::legal)'s order.
    pub fn features_into(&self, out: &mut Vec<f64>) {
        if self.over {
            return;
        }
        let n = self.game.feature_names().len();
        self.game
            .for_each_outcome(&self.position, all_features(n), &mut |_, _, values| {
                out.extend_from_slice(&values.0[..n])
            });
    }

    /// The features of every legal move written at its action's row of `out` (actions ×
    /// features, zeroed first).
    pub fn features_by_action(&self, out: &mut [f32]) {
        out.fill(0.0);
        if self.over {
            return;
        }
        let game = &self.game;
        let n = game.feature_names().len();
        game.for_each_outcome(&self.position, all_features(n), &mut |mv, _, values| {
            let row = game.action(mv) * n;
            for (o, v) in out[row..row + n].iter_mut().zip(&values.0[..n]) {
                *o = *v as f32;
            }
        });
    }

    /// Sets `out[a]` for every legal move's action `a` (cleared first).
    pub fn mask_into(&mut self, out: &mut [bool]) {
        out.fill(false);
        let game = self.game.clone();
        for &mv in self.legal() {
            out[game.action(mv)] = true;
        }
    }

    /// The legal move numbered `action`, if any.
    pub fn by_action(&mut self, action: usize) -> Option<G::Move> {
        let game = self.game.clone();
        self.legal()
            .iter()
            .copied()
            .find(|&m| game.action(m) == action)
    }

    /// Plays `mv` (a legal move) for real.
    pub fn play(&mut self, mv: G::Move) -> Outcome {
        let outcome = self.game.step(&mut self.position, mv, &mut self.dealer);
        self.score = self.game.accumulate(self.score, &outcome);
        self.moves_played += 1;
        self.over |= outcome.game_over;
        self.listed = false;
        outcome
    }
}
