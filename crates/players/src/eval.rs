//! The linear evaluator `w · φ` and the move choice built on it, for any game.

use crate::weights::{WeightFile, check_weight};
use anyhow::Result;
use stacktune_game::Playable;
use stacktune_game::{FeatureMask, FeatureValues, MAX_FEATURES, Outcome};

/// A linear player: weights resolved to the game's feature indices.
///
/// Only the features with a weight are requested from the game, so a six-feature weight set
/// never pays for the other seven. How far the player looks is not its business but the
/// search's (`crate::search`).
#[derive(Clone, Debug, PartialEq)]
pub struct LinearPlayer {
    terms: [(u8, f64); MAX_FEATURES],
    len: usize,
    mask: FeatureMask,
}

impl LinearPlayer {
    /// A player from weights aligned with `names` (the game's feature order); zero weights are
    /// dropped. A weight [`check_weight`] refuses is an error naming it.
    pub fn from_vector(names: &[&str], weights: &[f64]) -> Result<LinearPlayer> {
        debug_assert_eq!(names.len(), weights.len());
        let mut player = LinearPlayer {
            terms: [(0, 0.0); MAX_FEATURES],
            len: 0,
            mask: 0,
        };
        for (i, (&w, name)) in weights.iter().zip(names).enumerate() {
            check_weight(name, w)?;
            if w != 0.0 {
                player.terms[player.len] = (i as u8, w);
                player.len += 1;
                player.mask |= 1 << i;
            }
        }
        Ok(player)
    }

    /// A player for `game` from a weight file, checking the game and every feature name, and
    /// refusing a file whose every weight is 0 ([`WeightFile::check_has_preference`]). A run's
    /// candidates are built with [`LinearPlayer::from_vector`] instead, since an optimiser may
    /// propose them at 0 (a CMA-ES mean started there).
    pub fn from_file<G: Playable>(game: &G, file: &WeightFile) -> Result<LinearPlayer> {
        let names = game.feature_names();
        if let Some(name) = file
            .weights
            .keys()
            .find(|n| game.match_feature_names().contains(&n.as_str()))
        {
            anyhow::bail!(
                "`{name}` is a match feature: these weights play {} matches (`stacktune versus`), not a game alone",
                game.name()
            );
        }
        file.check_against(game.name(), names)?;
        file.check_has_preference()?;
        let vector: Vec<f64> = names
            .iter()
            .map(|n| file.weights.get(*n).copied().unwrap_or(0.0))
            .collect();
        Self::from_vector(names, &vector)
    }

    /// The weight of feature `index` of the game's order (0 when the player does not use it).
    pub fn weight(&self, index: usize) -> f64 {
        self.terms[..self.len]
            .iter()
            .find(|&&(i, _)| i as usize == index)
            .map_or(0.0, |&(_, w)| w)
    }

    /// The features this player needs.
    pub fn mask(&self) -> FeatureMask {
        self.mask
    }

    /// `w · φ`, or the move's terminal value when it decides the game.
    #[inline(always)]
    pub fn score(&self, outcome: &Outcome, features: &FeatureValues) -> f64 {
        if let Some(v) = outcome.terminal_value {
            return v;
        }
        // A sum unrolled for each common length: no loop to run per placement scored. The
        // terms are added one by one in feature order whatever the length, so every choice is
        // bit for bit the same.
        match self.len {
            0 => 0.0,
            1 => self.sum::<1>(features),
            2 => self.sum::<2>(features),
            3 => self.sum::<3>(features),
            4 => self.sum::<4>(features),
            5 => self.sum::<5>(features),
            6 => self.sum::<6>(features),
            7 => self.sum::<7>(features),
            8 => self.sum::<8>(features),
            9 => self.sum::<9>(features),
            10 => self.sum::<10>(features),
            _ => self.sum_of(&self.terms[..self.len], features),
        }
    }

    /// `w · φ` over the features of `mask` alone.
    #[inline]
    pub fn score_within(&self, mask: FeatureMask, features: &FeatureValues) -> f64 {
        self.terms[..self.len]
            .iter()
            .filter(|&&(i, _)| mask & (1 << i) != 0)
            .fold(0.0, |s, &(i, w)| {
                s + w * features.0[i as usize % MAX_FEATURES]
            })
    }

    /// `w · φ` over the features outside `mask`, or the move's terminal value when it decides
    /// the game: a first move's own value when a search weighs the features of `mask` apart
    /// ([`SearchHooks::first_move_features`](stacktune_game::SearchHooks::first_move_features)).
    #[inline]
    pub fn score_without(
        &self,
        mask: FeatureMask,
        outcome: &Outcome,
        features: &FeatureValues,
    ) -> f64 {
        match outcome.terminal_value {
            Some(v) => v,
            None => self.score_within(!mask, features),
        }
    }

    /// This player with `weights` for the features from index `first` on: a player of a game
    /// whose features another part of the program (Puyo's match) appends to the game's own.
    /// More features than a game may have is an error.
    pub fn with_weights_at(&self, first: usize, weights: &[f64]) -> Result<LinearPlayer> {
        if first + weights.len() > MAX_FEATURES {
            anyhow::bail!(
                "{first} features and {} more are more than the {MAX_FEATURES} features a game may have",
                weights.len()
            );
        }
        let mut player = self.clone();
        for (i, &w) in weights.iter().enumerate().filter(|(_, w)| **w != 0.0) {
            player.terms[player.len] = ((first + i) as u8, w);
            player.len += 1;
            player.mask |= 1 << (first + i);
        }
        Ok(player)
    }

    #[inline(always)]
    fn sum<const N: usize>(&self, features: &FeatureValues) -> f64 {
        let terms: &[(u8, f64); N] = self.terms[..N].try_into().unwrap();
        self.sum_of(terms, features)
    }

    #[inline(always)]
    fn sum_of(&self, terms: &[(u8, f64)], features: &FeatureValues) -> f64 {
        let mut s = 0.0;
        for &(i, w) in terms {
            // Always < MAX_FEATURES, a power of two: the mask spares a bounds check per term.
            s += w * features.0[i as usize % MAX_FEATURES];
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zero_weights_are_not_computed() {
        let p = LinearPlayer::from_vector(&["a", "b", "c"], &[1.0, 0.0, -2.0]).unwrap();
        assert_eq!(p.mask(), 0b101);
        let mut f = FeatureValues::default();
        f.0[0] = 3.0;
        f.0[1] = 100.0;
        f.0[2] = 1.0;
        assert_eq!(p.score(&Outcome::default(), &f), 1.0);
    }

    #[test]
    fn terminal_value_overrides_weights() {
        let p = LinearPlayer::from_vector(&["a"], &[1.0]).unwrap();
        let outcome = Outcome {
            terminal_value: Some(f64::NEG_INFINITY),
            ..Outcome::default()
        };
        assert_eq!(
            p.score(&outcome, &FeatureValues::default()),
            f64::NEG_INFINITY
        );
    }

    #[test]
    fn infinite_weight_is_rejected() {
        let err = LinearPlayer::from_vector(&["a"], &[f64::INFINITY]).unwrap_err();
        assert_eq!(
            err.to_string(),
            "weight `a` is inf: weights must be finite numbers"
        );
    }
}
