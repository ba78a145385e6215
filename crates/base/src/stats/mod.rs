//! Statistics: summaries of per-game results, a two-player match's score, Elo and SPRT
//! ([`matches`]), and Bradley–Terry ratings of many players ([`ratings`]).

pub mod matches;
pub mod ratings;

mod t95_table;

use serde::Serialize;

/// Mean, spread and range of a sample, as `play` reports them.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Summary {
    pub games: usize,
    pub mean: f64,
    pub median: f64,
    /// Sample standard deviation (n − 1).
    pub std: f64,
    /// Half-width of the 95 % confidence interval of the mean, Student's t with n − 1 degrees of
    /// freedom: the normal 1.96 understates it for the tens of games a quick check plays (20
    /// games: 2.093, 7 % wider).
    pub ci95: f64,
    pub min: f64,
    pub max: f64,
}

impl Summary {
    /// Summarises `values`; an empty sample gives zeros.
    pub fn of(values: &[f64]) -> Summary {
        let n = values.len();
        if n == 0 {
            return Summary {
                games: 0,
                mean: 0.0,
                median: 0.0,
                std: 0.0,
                ci95: 0.0,
                min: 0.0,
                max: 0.0,
            };
        }
        let mean = values.iter().sum::<f64>() / n as f64;
        let var = if n > 1 {
            values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (n - 1) as f64
        } else {
            0.0
        };
        let std = var.sqrt();
        let mut sorted = values.to_vec();
        sorted.sort_by(f64::total_cmp);
        let median = if n % 2 == 1 {
            sorted[n / 2]
        } else {
            (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0
        };
        Summary {
            games: n,
            mean,
            median,
            std,
            ci95: t95(n - 1) * std / (n as f64).sqrt(),
            min: sorted[0],
            max: sorted[n - 1],
        }
    }
}

impl Summary {
    /// Summarises episodes given as (score, games they stand for): [`Summary::of`] their
    /// scores when each is a game played; when episodes stand for other numbers of games
    /// (splitting estimates), the mean is the ratio Σ score / Σ games with its delta-method
    /// interval, and the spread, median and range are those of the episodes' own figures.
    pub fn of_ratios(episodes: &[(f64, f64)]) -> Summary {
        let per_game: Vec<f64> = episodes
            .iter()
            .map(|(score, games)| score / games)
            .collect();
        let mut summary = Summary::of(&per_game);
        if episodes.iter().all(|&(_, games)| games == 1.0) {
            return summary;
        }
        let n = episodes.len() as f64;
        let ratio =
            episodes.iter().map(|e| e.0).sum::<f64>() / episodes.iter().map(|e| e.1).sum::<f64>();
        // Var(Σy / Σx) ≈ Σ (y − R x)² / ((n − 1) n x̄²).
        let residuals: f64 = episodes
            .iter()
            .map(|(score, games)| (score - ratio * games).powi(2))
            .sum();
        let mean_games = episodes.iter().map(|e| e.1).sum::<f64>() / n;
        summary.mean = ratio;
        summary.ci95 = if n > 1.0 {
            t95(episodes.len() - 1) * (residuals / ((n - 1.0) * n)).sqrt() / mean_games
        } else {
            0.0
        };
        summary
    }
}

/// The standard normal's 0.975 quantile: the two-sided 95 % factor of an asymptotic interval
/// (a maximum-likelihood fit's), and the limit of [`t95`].
pub const NORMAL_95: f64 = 1.959_963_984_540_054;

/// The two-sided 95 % quantile of Student's t with `df` degrees of freedom (its 0.975 quantile);
/// 0 with no degree of freedom, where a sample of one has no spread to scale. Below 500, statrs'
/// exact inversion, from a table of its values (t95_table.rs), so that every platform's
/// intervals are the same bits whatever its libm; statrs drifts past 10⁵ (1.95985 at 10⁶ for
/// 1.95997), and from 500 on the Cornish-Fisher series in 1/df (Abramowitz & Stegun 26.7.5,
/// four terms) agrees with the exact quantile to 10⁻¹².
pub fn t95(df: usize) -> f64 {
    match df {
        0 => 0.0,
        1..500 => f64::from_bits(t95_table::T95[df - 1]),
        _ => {
            // The series' terms g1..g4 at the normal quantile.
            let x = NORMAL_95;
            let (x2, v) = (x * x, df as f64);
            let g1 = (x2 + 1.0) * x / 4.0;
            let g2 = ((5.0 * x2 + 16.0) * x2 + 3.0) * x / 96.0;
            let g3 = (((3.0 * x2 + 19.0) * x2 + 17.0) * x2 - 15.0) * x / 384.0;
            let g4 =
                ((((79.0 * x2 + 776.0) * x2 + 1482.0) * x2 - 1920.0) * x2 - 945.0) * x / 92160.0;
            x + (g1 + (g2 + (g3 + g4 / v) / v) / v) / v
        }
    }
}

/// The `q` quantile of `values` (0 ≤ q ≤ 1), interpolating linearly between order statistics
/// (R's type 7, numpy's default); 0 for an empty sample.
pub fn quantile(values: &[f64], q: f64) -> f64 {
    let mut sorted = values.to_vec();
    sorted.sort_by(f64::total_cmp);
    let Some(last) = sorted.len().checked_sub(1) else {
        return 0.0;
    };
    let h = q.clamp(0.0, 1.0) * last as f64;
    let (lo, hi) = (h.floor() as usize, h.ceil() as usize);
    sorted[lo] + (h - lo as f64) * (sorted[hi] - sorted[lo])
}

#[cfg(test)]
mod tests {
    /// numpy.quantile([1, 2, 4, 8, 16], [0.25, 0.5, 0.75]) = 2, 4, 8; of [1, 2, 3, 4] at 0.25,
    /// 1.75 (worked by hand: position 0.75 between 1 and 2).
    #[test]
    fn quantiles_interpolate_between_order_statistics() {
        let v = [16.0, 1.0, 8.0, 2.0, 4.0];
        assert_eq!(
            [0.25, 0.5, 0.75].map(|q| super::quantile(&v, q)),
            [2.0, 4.0, 8.0]
        );
        assert_eq!(super::quantile(&[1.0, 2.0, 3.0, 4.0], 0.25), 1.75);
        assert_eq!(super::quantile(&[], 0.5), 0.0);
    }

    use super::*;

    /// Two estimates of 100 lines over 0.5 and 300 over 1.5 expected games: 400 / 2 = 200 a
    /// game (their own figures 200 and 200: no spread, and no residual either).
    #[test]
    fn episodes_of_several_games_average_as_a_ratio_of_sums() {
        let r = |score: f64, games: f64| (score, games);
        let s = Summary::of_ratios(&[r(100.0, 0.5), r(300.0, 1.5)]);
        assert_eq!((s.mean, s.ci95, s.median), (200.0, 0.0, 200.0));
        // 30 / 0.1 and 10 / 0.3: the mean of ratios would be 166.7, the ratio of sums is 100;
        // residuals 20 and −20: √(800 / 2) / 0.2 × t(1) = 100 × 12.7062.
        let s = Summary::of_ratios(&[r(30.0, 0.1), r(10.0, 0.3)]);
        assert!((s.mean - 100.0).abs() < 1e-12);
        assert!((s.ci95 - 12.706_204_736 * 20.0 / 0.2).abs() < 1e-6);
        assert_eq!((s.min, s.max), (10.0 / 0.3, 300.0));
        // Games played: exactly `of` over the scores.
        let played = [r(3.0, 1.0), r(5.0, 1.0), r(10.0, 1.0)];
        assert_eq!(Summary::of_ratios(&played), Summary::of(&[3.0, 5.0, 10.0]));
    }

    /// scipy.stats.t.ppf(0.975, df) on both sides of the series' start (500), and towards the
    /// normal limit.
    #[test]
    fn t_quantiles_match_published_values() {
        let published = [
            (1, 12.706_204_736_2),
            (2, 4.302_652_729_7),
            (19, 2.093_024_054_4),
            (99, 1.984_216_951_7),
            (499, 1.964_729_391_0),
            (500, 1.964_719_837_5),
            (1999, 1.961_151_420_2),
            (10_000, 1.960_201_239_9),
            (1_000_000, 1.959_966_356_8),
        ];
        for (df, t) in published {
            assert!((t95(df) - t).abs() < 1e-8, "df {df}: {} vs {t}", t95(df));
        }
        assert_eq!(t95(0), 0.0);
    }

    /// The case: 20 games whose normal interval is 229.0 have a t interval of 244.6.
    #[test]
    fn twenty_games_get_the_wider_t_interval() {
        let values: Vec<f64> = (0..20)
            .map(|i| if i % 2 == 0 { 0.0 } else { 1000.0 })
            .collect();
        let s = Summary::of(&values);
        let normal = 1.96 * s.std / 20f64.sqrt();
        assert!((s.ci95 / normal - 2.093_024_054_4 / 1.96).abs() < 1e-9);
    }

    #[test]
    fn known_sample() {
        let s = Summary::of(&[2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0]);
        assert_eq!(s.mean, 5.0);
        assert_eq!(s.median, 4.5);
        assert!((s.std - 2.138089935299395).abs() < 1e-12);
        // t(7) = 2.364624 (scipy.stats.t.ppf(0.975, 7)).
        assert!((s.ci95 - 2.364_624_251_6 * 2.138089935299395 / 8f64.sqrt()).abs() < 1e-9);
        assert_eq!((s.min, s.max), (2.0, 9.0));
    }
}
