//! What a match between two players says: the score with its interval, the Elo difference
//! with its interval, and the sequential test (SPRT) that decides whether one is better.
//!
//! The formulas are fishtest's (official-stockfish/fishtest, `server/fishtest/stats`), the
//! reference chess engines are tested by, so that a figure here reads as theirs does:
//! - the score's 95 % interval is the mean per-game score (or per-pair score, for paired games)
//!   with Student's t over its sample standard deviation, exactly what `play` reports for any
//!   per-game figure ([`crate::stats::Summary`]);
//! - the Elo difference and its interval are the score and its interval's ends mapped through
//!   the logistic curve, `elo = −400 log10(1/s − 1)` (fishtest's `get_elo`), the score clamped to
//!   [0.001, 0.999] as fishtest clamps it, so that all wins or all losses give ±1199.9 instead of
//!   an infinity;
//! - the SPRT is fishtest's GSPRT on **logistic** Elo (`LLRcalc.LLR_logistic`): the log-likelihood
//!   ratio of the multinomial maximum-likelihood distributions whose expected score is
//!   L(elo1) and L(elo0), with counts of zero replaced by 0.001 (fishtest's `regularize`), and
//!   Wald's bounds ln(β/(1−α)) and ln((1−β)/α).
//!
//! Paired games (one seed played twice, the sides swapped) are counted as pentanomial pairs,
//! each pair one unit scoring 0, ¼, ½, ¾ or 1. Fishtest does this for game pairs on one opening:
//! the two games of a pair share the seed's luck (a piece sequence that suits one side), which
//! the pair's mean cancels, so the pairs are independent draws where the games are not, and the
//! trinomial variance would misstate the interval.

use crate::stats::t95;

/// A game's result for the first player (`win`, `draw` or `loss` in a match's JSON).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Outcome {
    Loss,
    Draw,
    Win,
}

impl Outcome {
    /// Points: 0, ½ or 1.
    pub fn points(self) -> f64 {
        match self {
            Outcome::Loss => 0.0,
            Outcome::Draw => 0.5,
            Outcome::Win => 1.0,
        }
    }
}

/// Wins, draws and losses of the first player over games that are independent of each other.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Trinomial {
    pub losses: u64,
    pub draws: u64,
    pub wins: u64,
}

impl Trinomial {
    pub fn add(&mut self, outcome: Outcome) {
        match outcome {
            Outcome::Loss => self.losses += 1,
            Outcome::Draw => self.draws += 1,
            Outcome::Win => self.wins += 1,
        }
    }

    pub fn games(&self) -> u64 {
        self.losses + self.draws + self.wins
    }

    fn counts(&self) -> [u64; 3] {
        [self.losses, self.draws, self.wins]
    }

    /// The score and Elo with their 95 % intervals, a game a unit.
    pub fn estimate(&self) -> Estimate {
        estimate(&self.counts())
    }
}

/// Game pairs of the first player, by the pair's points: `pairs[k]` pairs scored k/2 points
/// (LL; LD or DL; LW, DD or WL; DW or WD; WW).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Pentanomial {
    pub pairs: [u64; 5],
}

impl Pentanomial {
    /// Counts the pair of games played on one seed with the sides swapped.
    pub fn add_pair(&mut self, first: Outcome, second: Outcome) {
        let half_points = |o: Outcome| match o {
            Outcome::Loss => 0,
            Outcome::Draw => 1,
            Outcome::Win => 2,
        };
        self.pairs[half_points(first) + half_points(second)] += 1;
    }

    /// The score and Elo with their 95 % intervals, a pair a unit.
    pub fn estimate(&self) -> Estimate {
        estimate(&self.pairs)
    }
}

/// A match's score and Elo difference for the first player, with their 95 % intervals.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Estimate {
    /// The games (trinomial) or pairs (pentanomial) the figures come from.
    pub units: u64,
    /// The mean score per game, 0 to 1.
    pub score: f64,
    pub score_low: f64,
    pub score_high: f64,
    /// The logistic Elo difference; positive when the first player is the stronger.
    pub elo: f64,
    pub elo_low: f64,
    pub elo_high: f64,
}

/// The mean and its interval over units scoring `k / (len − 1)` for `counts[k]` units. No unit
/// says nothing: a score of ½ anywhere in [0, 1].
fn estimate(counts: &[u64]) -> Estimate {
    let units: u64 = counts.iter().sum();
    let top = (counts.len() - 1) as f64;
    let (score, half) = match units {
        0 => (0.5, 0.5),
        _ => {
            let n = units as f64;
            let score = weighted_sum(counts, |k| k / top) / n;
            let var = match units {
                1 => 0.0,
                _ => weighted_sum(counts, |k| (k / top - score).powi(2)) / (n - 1.0),
            };
            (score, t95(units as usize - 1) * (var / n).sqrt())
        }
    };
    let (score_low, score_high) = ((score - half).max(0.0), (score + half).min(1.0));
    Estimate {
        units,
        score,
        score_low,
        score_high,
        elo: elo_of_score(score),
        elo_low: elo_of_score(score_low),
        elo_high: elo_of_score(score_high),
    }
}

/// Σ counts[k] · f(k), in the order of k.
fn weighted_sum(counts: &[u64], f: impl Fn(f64) -> f64) -> f64 {
    let mut sum = 0.0;
    for (k, &c) in counts.iter().enumerate() {
        sum += c as f64 * f(k as f64);
    }
    sum
}

/// How close to 0 or 1 a score is taken before it becomes an Elo figure (fishtest's `elo`).
const SCORE_CLAMP: f64 = 1e-3;

/// The logistic Elo difference that gives the expected score `score`, the score clamped to
/// [0.001, 0.999] (±1199.9 Elo) so that a one-sided match stays finite.
pub fn elo_of_score(score: f64) -> f64 {
    let s = score.clamp(SCORE_CLAMP, 1.0 - SCORE_CLAMP);
    -400.0 * crate::math::log10(1.0 / s - 1.0)
}

/// The expected score of a player `elo` above its opponent (the logistic curve).
pub fn score_of_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// A sequential probability ratio test of H0: elo = elo0 against H1: elo = elo1 (logistic Elo),
/// with error rates α (accepting H1 when H0 holds) and β (accepting H0 when H1 holds).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
}

/// What an SPRT says after the games so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The log-likelihood ratio fell to the lower bound: elo0 (the change is not better).
    AcceptH0,
    /// It rose to the upper bound: elo1 (the change is better).
    AcceptH1,
    /// Neither yet: play on.
    Continue,
}

/// An SPRT's state: the log-likelihood ratio, its bounds, and what they say.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SprtState {
    pub llr: f64,
    pub lower: f64,
    pub upper: f64,
    pub verdict: Verdict,
}

impl Sprt {
    /// The test, checked: finite bounds with elo0 < elo1, and 0 < α, β with α + β < 1.
    pub fn new(elo0: f64, elo1: f64, alpha: f64, beta: f64) -> Result<Sprt, String> {
        if !(elo0.is_finite() && elo1.is_finite() && elo0 < elo1) {
            return Err(format!(
                "SPRT needs finite elo0 < elo1, not elo0 {elo0} and elo1 {elo1}"
            ));
        }
        if !(alpha > 0.0 && beta > 0.0 && alpha + beta < 1.0) {
            return Err(format!(
                "SPRT needs α > 0, β > 0 and α + β < 1, not α {alpha} and β {beta}"
            ));
        }
        Ok(Sprt {
            elo0,
            elo1,
            alpha,
            beta,
        })
    }

    /// Wald's bounds on the log-likelihood ratio: ln(β/(1−α)) and ln((1−β)/α).
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The test after independent games.
    pub fn trinomial(&self, results: &Trinomial) -> SprtState {
        self.state(&results.counts())
    }

    /// The test after game pairs.
    pub fn pentanomial(&self, results: &Pentanomial) -> SprtState {
        self.state(&results.pairs)
    }

    fn state(&self, counts: &[u64]) -> SprtState {
        let llr = llr_logistic(self.elo0, self.elo1, counts);
        let (lower, upper) = self.bounds();
        let verdict = if llr >= upper {
            Verdict::AcceptH1
        } else if llr <= lower {
            Verdict::AcceptH0
        } else {
            Verdict::Continue
        };
        SprtState {
            llr,
            lower,
            upper,
            verdict,
        }
    }
}

/// What a count of zero weighs in the likelihood (fishtest's `regularize`): the likelihood of
/// a distribution with an empty outcome has no interior maximum.
const EMPTY_COUNT: f64 = 1e-3;

/// Fishtest's `LLR_logistic`: N times the mean log ratio, over the observed outcomes, of the
/// maximum-likelihood distributions on the same outcomes whose expectation is L(elo1) and
/// L(elo0). No unit played: 0.
fn llr_logistic(elo0: f64, elo1: f64, counts: &[u64]) -> f64 {
    if counts.iter().all(|&c| c == 0) {
        return 0.0;
    }
    let top = (counts.len() - 1) as f64;
    let weights: Vec<f64> = counts
        .iter()
        .map(|&c| if c == 0 { EMPTY_COUNT } else { c as f64 })
        .collect();
    let n: f64 = weights.iter().sum();
    let pdf: Vec<(f64, f64)> = (weights.iter().enumerate())
        .map(|(k, w)| (k as f64 / top, w / n))
        .collect();
    let p0 = mle_with_expectation(&pdf, score_of_elo(elo0));
    let p1 = mle_with_expectation(&pdf, score_of_elo(elo1));
    let mut llr = 0.0;
    for (k, &(_, p)) in pdf.iter().enumerate() {
        llr += p * (p1[k].ln() - p0[k].ln());
    }
    n * llr
}

/// The probabilities, on the outcomes of `pdf` (value, observed frequency), of the
/// distribution nearest to it in likelihood whose expectation is `s` (fishtest's
/// `MLE_expected`): p_k / (1 + x (a_k − s)), with x the root of the secular equation
/// Σ p_k (a_k − s) / (1 + x (a_k − s)) = 0 (van den Bergh, "support_MLE_multinomial",
/// Proposition 1.1).
fn mle_with_expectation(pdf: &[(f64, f64)], s: f64) -> Vec<f64> {
    let x = secular_root(pdf, s);
    pdf.iter().map(|&(a, p)| p / (1.0 + x * (a - s))).collect()
}

/// The root of Σ p_k (a_k − s) / (1 + x (a_k − s)) between its poles −1/(max a − s) and
/// −1/(min a − s), where the sum falls from +∞ to −∞: bisection to the last bit, which is
/// deterministic and needs no tolerance. `s` lies strictly between the least and the greatest
/// value (a score of L(elo) for a finite elo does).
fn secular_root(pdf: &[(f64, f64)], s: f64) -> f64 {
    let f = |x: f64| -> f64 {
        let mut sum = 0.0;
        for &(a, p) in pdf {
            sum += p * (a - s) / (1.0 + x * (a - s));
        }
        sum
    };
    let (least, greatest) = (pdf[0].0 - s, pdf[pdf.len() - 1].0 - s);
    let (mut lo, mut hi) = (-1.0 / greatest, -1.0 / least);
    loop {
        let mid = 0.5 * (lo + hi);
        if mid <= lo || mid >= hi {
            return mid;
        }
        if f(mid) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::Summary;

    fn close(a: f64, b: f64, tolerance: f64) -> bool {
        (a - b).abs() <= tolerance
    }

    /// The score's interval is `play`'s interval over the per-game points.
    #[test]
    fn the_score_interval_is_plays_interval_of_the_points() {
        let results = Trinomial {
            losses: 7,
            draws: 5,
            wins: 11,
        };
        let mut points = vec![0.0; 7];
        points.extend([0.5; 5]);
        points.extend([1.0; 11]);
        let summary = Summary::of(&points);
        let e = results.estimate();
        assert_eq!(e.units, 23);
        assert!(close(e.score, summary.mean, 1e-15));
        assert!(close(e.score_high - e.score, summary.ci95, 1e-15));
        assert!(close(e.score - e.score_low, summary.ci95, 1e-15));
    }

    /// Worked once with Python (scipy.stats.t.ppf(0.975, n − 1), numpy's sample variance):
    /// the estimates below, written here as constants.
    #[test]
    fn estimates_match_values_worked_independently() {
        let e = Trinomial {
            losses: 20,
            draws: 30,
            wins: 50,
        }
        .estimate();
        assert!(close(e.score, 0.65, 1e-15));
        assert!(close(e.score_low, 0.572_123_490_080_831_7, 1e-12), "{e:?}");
        assert!(close(e.score_high, 0.727_876_509_919_168_3, 1e-12), "{e:?}");
        assert!(close(e.elo, 107.538_124_917_032_04, 1e-9), "{e:?}");
        assert!(close(e.elo_low, 50.468_533_821_209_35, 1e-9), "{e:?}");
        assert!(close(e.elo_high, 170.916_668_687_532_3, 1e-9), "{e:?}");
        // Pairs LL 3, LD 10, LW/DD 40, DW 30, WW 17: 200 games in 100 pairs.
        let e = Pentanomial {
            pairs: [3, 10, 40, 30, 17],
        }
        .estimate();
        assert!(close(e.score, 0.62, 1e-15));
        assert!(close(e.score_low, 0.570_908_322_744_058_4, 1e-12), "{e:?}");
        assert!(close(e.score_high, 0.669_091_677_255_941_5, 1e-12), "{e:?}");
        assert!(close(e.elo, 85.043_237_152_577_45, 1e-9), "{e:?}");
        assert!(close(e.elo_low, 49.606_513_309_770_875, 1e-9), "{e:?}");
        assert!(close(e.elo_high, 122.311_174_981_028_26, 1e-9), "{e:?}");
    }

    /// fishtest's own `LLRcalc.LLR_logistic` (server/fishtest/stats/LLRcalc.py, run once with
    /// scipy 1.17.1) on these counts.
    #[test]
    fn llr_matches_fishtest() {
        let sprt = Sprt::new(0.0, 5.0, 0.05, 0.05).unwrap();
        let t = sprt.trinomial(&Trinomial {
            losses: 980,
            draws: 2040,
            wins: 1030,
        });
        assert!(close(t.llr, 0.604_893_897_340_441_5, 1e-7), "{t:?}");
        let p = sprt.pentanomial(&Pentanomial {
            pairs: [50, 420, 980, 460, 60],
        });
        assert!(close(p.llr, 1.360_440_234_917_865_3, 1e-7), "{p:?}");
        // A wide test with an empty outcome (regularised) and a bound crossed.
        let sprt = Sprt::new(-10.0, 40.0, 0.05, 0.1).unwrap();
        let t = sprt.trinomial(&Trinomial {
            losses: 0,
            draws: 40,
            wins: 60,
        });
        assert!(close(t.llr, 13.770_917_636_472_529, 1e-6), "{t:?}");
        assert_eq!(t.verdict, Verdict::AcceptH1);
        let p = sprt.pentanomial(&Pentanomial {
            pairs: [30, 40, 25, 5, 0],
        });
        assert!(close(p.llr, -15.010_600_880_580_776, 1e-6), "{p:?}");
        assert_eq!(p.verdict, Verdict::AcceptH0);
    }

    #[test]
    fn bounds_are_walds() {
        let sprt = Sprt::new(0.0, 5.0, 0.05, 0.05).unwrap();
        let (lower, upper) = sprt.bounds();
        assert!(close(lower, -2.944_438_979_166_440_3, 1e-12));
        assert!(close(upper, 2.944_438_979_166_440_3, 1e-12));
        let sprt = Sprt::new(0.0, 5.0, 0.05, 0.1).unwrap();
        assert!(close(sprt.bounds().0, (0.1f64 / 0.95).ln(), 1e-15));
        assert!(close(sprt.bounds().1, 18f64.ln(), 1e-15));
        let state = sprt.trinomial(&Trinomial::default());
        assert_eq!((state.llr, state.verdict), (0.0, Verdict::Continue));
    }

    #[test]
    fn bad_sprt_settings_are_refused() {
        assert_eq!(
            Sprt::new(5.0, 0.0, 0.05, 0.05).unwrap_err(),
            "SPRT needs finite elo0 < elo1, not elo0 5 and elo1 0"
        );
        assert_eq!(
            Sprt::new(0.0, 5.0, 0.5, 0.5).unwrap_err(),
            "SPRT needs α > 0, β > 0 and α + β < 1, not α 0.5 and β 0.5"
        );
        assert!(Sprt::new(0.0, f64::NAN, 0.05, 0.05).is_err());
        assert!(Sprt::new(0.0, 5.0, 0.0, 0.05).is_err());
    }

    /// One-sided and empty matches give finite figures: ±1199.9 Elo at the clamp, no NaN.
    #[test]
    fn one_sided_matches_stay_finite() {
        let sprt = Sprt::new(0.0, 5.0, 0.05, 0.05).unwrap();
        let edge = elo_of_score(1.0);
        let low_edge = elo_of_score(0.0);
        assert!(close(edge, 400.0 * 999f64.log10(), 1e-9));
        assert!(close(low_edge, -edge, 1e-9));
        let all = |losses, draws, wins| Trinomial {
            losses,
            draws,
            wins,
        };
        let e = all(0, 0, 40).estimate();
        assert_eq!((e.score, e.score_low, e.score_high), (1.0, 1.0, 1.0));
        assert_eq!((e.elo, e.elo_low, e.elo_high), (edge, edge, edge));
        // fishtest's LLR_logistic(0, 5, [0, 0, 40]) and [0, 0, 400]: wins alone weigh little
        // between two hypotheses 5 Elo apart, and 400 of them are enough.
        let t = sprt.trinomial(&all(0, 0, 40));
        assert!(close(t.llr, 0.571_504_100_489_034_7, 1e-7), "{t:?}");
        assert_eq!(t.verdict, Verdict::Continue);
        let t = sprt.trinomial(&all(0, 0, 400));
        assert!(close(t.llr, 5.715_042_876_001_6, 1e-6), "{t:?}");
        assert_eq!(t.verdict, Verdict::AcceptH1);
        let e = all(40, 0, 0).estimate();
        assert_eq!(
            (e.elo, e.elo_low, e.elo_high),
            (low_edge, low_edge, low_edge)
        );
        let t = sprt.trinomial(&all(40, 0, 0));
        assert!(close(t.llr, -0.579_788_444_568_701, 1e-7), "{t:?}");
        assert_eq!(sprt.trinomial(&all(400, 0, 0)).verdict, Verdict::AcceptH0);
        let e = all(0, 40, 0).estimate();
        assert_eq!(
            (e.score, e.score_low, e.score_high, e.elo),
            (0.5, 0.5, 0.5, 0.0)
        );
        let e = Trinomial::default().estimate();
        assert_eq!((e.score_low, e.score_high, e.elo), (0.0, 1.0, 0.0));
        assert_eq!((e.elo_low, e.elo_high), (low_edge, edge));
        for counts in [[0, 0, 40], [40, 0, 0], [0, 40, 0], [0, 0, 1], [1, 0, 0]] {
            let t = all(counts[0], counts[1], counts[2]);
            let llr = sprt.trinomial(&t).llr;
            let e = t.estimate();
            let figures = [llr, e.score, e.score_low, e.score_high, e.elo, e.elo_low];
            assert!(
                figures.iter().all(|f| f.is_finite()),
                "{counts:?}: {e:?} {llr}"
            );
        }
        for pairs in [[0, 0, 0, 0, 9], [9, 0, 0, 0, 0], [0, 0, 9, 0, 0]] {
            let p = Pentanomial { pairs };
            let llr = sprt.pentanomial(&p).llr;
            assert!(llr.is_finite() && p.estimate().elo.is_finite(), "{pairs:?}");
        }
    }

    #[test]
    fn pairs_count_by_their_points() {
        let mut p = Pentanomial::default();
        use Outcome::*;
        for (a, b) in [
            (Loss, Loss),
            (Draw, Loss),
            (Loss, Draw),
            (Win, Loss),
            (Draw, Draw),
        ] {
            p.add_pair(a, b);
        }
        p.add_pair(Win, Draw);
        p.add_pair(Win, Win);
        assert_eq!(p.pairs, [1, 2, 2, 1, 1]);
        let mut t = Trinomial::default();
        for o in [Win, Win, Draw, Loss] {
            t.add(o);
        }
        assert_eq!((t.wins, t.draws, t.losses, t.games()), (2, 1, 1, 4));
        assert_eq!(Draw.points(), 0.5);
    }

    #[test]
    fn elo_and_score_are_inverse() {
        for elo in [-800.0, -100.0, 0.0, 35.5, 400.0] {
            assert!(close(elo_of_score(score_of_elo(elo)), elo, 1e-9));
        }
        // 400 Elo: ten to one.
        assert!(close(score_of_elo(400.0), 10.0 / 11.0, 1e-15));
    }
}
