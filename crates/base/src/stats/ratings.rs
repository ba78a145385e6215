//! Ratings of many players from their pairwise results: a Bradley–Terry fit on the Elo scale.
//!
//! Self-play tuning scores a generation by matches among its members (and against a hall of
//! fame and anchors), and each pairing plays a different number of games or none, so raw win
//! rates are not comparable; a rating fitted to all the results at once is. The model is
//! Bradley–Terry's: player i beats j with probability γᵢ / (γᵢ + γⱼ), a draw counting half a
//! win for each; the ratings are `400 log10 γ`, the logistic Elo of [`crate::stats::matches`],
//! centred on the players' mean.
//!
//! A player that lost every game has no finite maximum-likelihood rating, yet a tuner must
//! still rank it. So the fit carries a weak prior: each player has `prior` virtual **drawn**
//! games, spread evenly over the others (each pair gets `prior / (N − 1)` of them). It pulls
//! every rating towards the mean by about as much as `prior` real draws would, keeps all of
//! them finite and ordered, and for two players gives the closed form
//! `r₁ − r₂ = 400 log10((w₁ + prior/2) / (w₂ + prior/2))`.
//!
//! The fit is Hunter's MM algorithm (2004, "MM algorithms for generalized Bradley–Terry
//! models"), whose every step raises the likelihood, iterated in a fixed order so that the
//! same table gives the same bytes. The 95 % intervals come from the Fisher information at the
//! fit (virtual games included), under the constraint that the ratings' mean is 0: each is
//! the interval of a player's rating relative to the population's mean.

use crate::math;
use crate::stats::NORMAL_95;
use crate::stats::matches::Outcome;
use nalgebra::DMatrix;

/// Elo per unit of ln γ.
const ELO_PER_NAT: f64 = 400.0 / std::f64::consts::LN_10;
/// The fit stops when no log-strength moves by more than this (10⁻⁸ Elo).
const TOLERANCE: f64 = 1e-10 / ELO_PER_NAT;
/// A bound on the iterations, far above what any table here needs.
const MAX_ITERATIONS: usize = 1_000_000;

/// Points and games between every two of N players.
#[derive(Clone, Debug, PartialEq)]
pub struct Results {
    players: usize,
    /// `points[a * players + b]`: what a scored against b.
    points: Vec<f64>,
    /// `games[a * players + b]`: games between a and b (the same both ways).
    games: Vec<f64>,
}

impl Results {
    /// No game yet between `players` players.
    pub fn new(players: usize) -> Results {
        Results {
            players,
            points: vec![0.0; players * players],
            games: vec![0.0; players * players],
        }
    }

    pub fn players(&self) -> usize {
        self.players
    }

    /// Records a game between players `a` and `b`, `outcome` from a's side.
    pub fn add(&mut self, a: usize, b: usize, outcome: Outcome) {
        assert!(
            a != b && a < self.players && b < self.players,
            "a game between players {a} and {b} of {}",
            self.players
        );
        let (ab, ba) = (a * self.players + b, b * self.players + a);
        self.points[ab] += outcome.points();
        self.points[ba] += 1.0 - outcome.points();
        self.games[ab] += 1.0;
        self.games[ba] += 1.0;
    }
}

/// Each player's rating and the half-width of its 95 % interval, in Elo, in player order.
#[derive(Clone, Debug, PartialEq)]
pub struct Ratings {
    pub elo: Vec<f64>,
    pub ci95: Vec<f64>,
    /// MM steps the fit took.
    pub iterations: usize,
}

/// Fits ratings to `results` with `prior` virtual drawn games a player (module doc); `prior`
/// must be positive and finite.
pub fn fit(results: &Results, prior: f64) -> Result<Ratings, String> {
    if !(prior.is_finite() && prior > 0.0) {
        return Err(format!(
            "the ratings' prior must be a positive number of virtual games, not {prior}"
        ));
    }
    let n = results.players;
    if n < 2 {
        return Ok(Ratings {
            elo: vec![0.0; n],
            ci95: vec![0.0; n],
            iterations: 0,
        });
    }
    // Games and points with the prior's virtual draws in.
    let virtual_games = prior / (n - 1) as f64;
    let games = |a: usize, b: usize| results.games[a * n + b] + virtual_games;
    let scored: Vec<f64> = (0..n)
        .map(|a| {
            let mut sum = 0.0;
            for b in (0..n).filter(|&b| b != a) {
                sum += results.points[a * n + b] + virtual_games / 2.0;
            }
            sum
        })
        .collect();
    let mut theta = vec![0.0f64; n];
    let mut iterations = 0;
    while iterations < MAX_ITERATIONS {
        iterations += 1;
        let gamma: Vec<f64> = theta.iter().map(|&t| math::exp(t)).collect();
        let mut next: Vec<f64> = (0..n)
            .map(|a| {
                let mut sum = 0.0;
                for b in (0..n).filter(|&b| b != a) {
                    sum += games(a, b) / (gamma[a] + gamma[b]);
                }
                math::ln(scored[a]) - math::ln(sum)
            })
            .collect();
        centre(&mut next);
        let moved = (theta.iter().zip(&next)).fold(0.0f64, |m, (t, u)| m.max((t - u).abs()));
        theta = next;
        if moved < TOLERANCE {
            break;
        }
    }
    let covariance = centred_covariance(&theta, games);
    Ok(Ratings {
        elo: theta.iter().map(|t| t * ELO_PER_NAT).collect(),
        ci95: (0..n)
            .map(|a| NORMAL_95 * ELO_PER_NAT * covariance[(a, a)].max(0.0).sqrt())
            .collect(),
        iterations,
    })
}

/// Shifts `theta` to mean 0 (summed in order).
fn centre(theta: &mut [f64]) {
    let mut sum = 0.0;
    for t in theta.iter() {
        sum += t;
    }
    let mean = sum / theta.len() as f64;
    theta.iter_mut().for_each(|t| *t -= mean);
}

/// The covariance of the log-strengths under the mean-zero constraint: the pseudo-inverse of
/// the Fisher information F (F_ab = −n_ab p_ab p_ba, F_aa = Σ_b n_ab p_ab p_ba), which is
/// (F + J/N)⁻¹ − J/N since F's null space is the constant vector (every pair has virtual
/// games, so the comparison graph is connected).
fn centred_covariance(theta: &[f64], games: impl Fn(usize, usize) -> f64) -> DMatrix<f64> {
    let n = theta.len();
    let j = 1.0 / n as f64;
    let mut f = DMatrix::from_element(n, n, j);
    for a in 0..n {
        for b in (0..n).filter(|&b| b != a) {
            let p = 1.0 / (1.0 + math::exp(theta[b] - theta[a]));
            let w = games(a, b) * p * (1.0 - p);
            f[(a, b)] -= w;
            f[(a, a)] += w;
        }
    }
    let inverse = f
        .cholesky()
        .expect("the Fisher information plus J/N is positive definite")
        .inverse();
    inverse.map(|v| v - j)
}

#[cfg(test)]
mod tests {
    use super::*;
    use Outcome::*;

    fn close(a: f64, b: f64, tolerance: f64) -> bool {
        (a - b).abs() <= tolerance
    }

    fn play(results: &mut Results, a: usize, b: usize, outcome: Outcome, times: usize) {
        for _ in 0..times {
            results.add(a, b, outcome);
        }
    }

    /// Two players: the closed form of the module doc, and the interval 1 / (4 n p q) of a
    /// rating's variance (F is n p q times [[1, −1], [−1, 1]], whose pseudo-inverse is a
    /// quarter of that matrix over n p q).
    #[test]
    fn two_players_match_the_closed_form() {
        let mut r = Results::new(2);
        play(&mut r, 0, 1, Win, 7);
        play(&mut r, 1, 0, Win, 3);
        play(&mut r, 0, 1, Draw, 2);
        let fit = fit(&r, 1.0).unwrap();
        // 8 + ½ points against 4 + ½ over 12 + 1 games.
        let gap = 400.0 * (8.5f64 / 4.5).log10();
        assert!(close(fit.elo[0], gap / 2.0, 1e-7), "{fit:?}");
        assert!(close(fit.elo[1], -gap / 2.0, 1e-7), "{fit:?}");
        let (p, games) = (8.5 / 13.0, 13.0f64);
        let ci = NORMAL_95 * ELO_PER_NAT / (4.0 * games * p * (1.0 - p)).sqrt();
        assert!(close(fit.ci95[0], ci, 1e-7) && close(fit.ci95[1], ci, 1e-7));
        // A stronger prior pulls the two together as its closed form says.
        let fit = super::fit(&r, 4.0).unwrap();
        let gap = 400.0 * (10.0f64 / 6.0).log10();
        assert!(close(fit.elo[0] - fit.elo[1], gap, 1e-7), "{fit:?}");
    }

    /// A beats B beats C beats A, twice each: nobody is better.
    #[test]
    fn a_cycle_of_three_rates_all_equal() {
        let mut r = Results::new(3);
        play(&mut r, 0, 1, Win, 2);
        play(&mut r, 1, 2, Win, 2);
        play(&mut r, 2, 0, Win, 2);
        let fit = fit(&r, 1.0).unwrap();
        assert!(fit.elo.iter().all(|e| e.abs() < 1e-9), "{fit:?}");
        assert!(close(fit.ci95[0], fit.ci95[1], 1e-9) && close(fit.ci95[1], fit.ci95[2], 1e-9));
    }

    /// One player beats all the others, which draw among themselves.
    #[test]
    fn a_dominant_player_rates_first_and_the_rest_equal() {
        let mut r = Results::new(4);
        for b in 1..4 {
            play(&mut r, 0, b, Win, 3);
            for c in b + 1..4 {
                play(&mut r, b, c, Draw, 3);
            }
        }
        let fit = fit(&r, 1.0).unwrap();
        assert!(fit.elo[0] > 300.0, "{fit:?}");
        assert!(close(fit.elo[1], fit.elo[2], 1e-9) && close(fit.elo[2], fit.elo[3], 1e-9));
        assert!(close(fit.elo.iter().sum::<f64>(), 0.0, 1e-9));
    }

    #[test]
    fn ties_rate_all_zero() {
        let mut r = Results::new(3);
        play(&mut r, 0, 1, Draw, 4);
        play(&mut r, 1, 2, Draw, 4);
        play(&mut r, 0, 2, Win, 1);
        play(&mut r, 2, 0, Win, 1);
        let fit = fit(&r, 1.0).unwrap();
        assert!(fit.elo.iter().all(|e| e.abs() < 1e-9), "{fit:?}");
    }

    /// Players that never won keep finite ratings, below everyone who did, and in the order
    /// of their losses: 3 lost to all; 2 lost to all but drew with 3.
    #[test]
    fn players_without_a_win_stay_finite_and_ordered() {
        let mut r = Results::new(4);
        play(&mut r, 0, 1, Win, 2);
        play(&mut r, 1, 0, Win, 1);
        for loser in [2, 3] {
            for winner in [0, 1] {
                play(&mut r, winner, loser, Win, 4);
            }
        }
        play(&mut r, 2, 3, Draw, 1);
        play(&mut r, 2, 3, Win, 1);
        let fit = fit(&r, 1.0).unwrap();
        assert!(
            fit.elo.iter().chain(&fit.ci95).all(|v| v.is_finite()),
            "{fit:?}"
        );
        assert!(fit.elo[0] > fit.elo[1] && fit.elo[1] > fit.elo[2] && fit.elo[2] > fit.elo[3]);
        // Nobody won anything: the prior alone, all equal.
        let fit = super::fit(&Results::new(3), 1.0).unwrap();
        assert!(fit.elo.iter().all(|e| e.abs() < 1e-12), "{fit:?}");
    }

    /// A table fitted independently (scipy.optimize.minimize on the same penalised
    /// likelihood, BFGS, gtol 1e-12; the intervals from numpy's pseudo-inverse of its exact
    /// Hessian), written here as constants.
    #[test]
    fn a_table_matches_an_independent_fit() {
        let mut r = Results::new(4);
        for (a, b, w, d, l) in [
            (0, 1, 5, 2, 3),
            (0, 2, 6, 1, 1),
            (0, 3, 3, 0, 0),
            (1, 2, 4, 4, 2),
            (1, 3, 2, 0, 6),
            (2, 3, 0, 1, 5),
        ] {
            play(&mut r, a, b, Win, w);
            play(&mut r, a, b, Draw, d);
            play(&mut r, a, b, Loss, l);
        }
        let fit = fit(&r, 1.0).unwrap();
        let elo = [
            113.528_595_582_681_79,
            -41.839_897_262_236_36,
            -148.439_115_772_107_47,
            76.750_417_451_662_02,
        ];
        let ci = [
            126.640_691_335_675_3,
            101.596_311_699_953_56,
            119.939_995_943_023_04,
            133.176_209_580_319_98,
        ];
        for a in 0..4 {
            assert!(close(fit.elo[a], elo[a], 1e-6), "{fit:?}");
            assert!(close(fit.ci95[a], ci[a], 1e-6), "{fit:?}");
        }
    }

    /// The same table gives the same bits, and the ratings do not depend on the players'
    /// order.
    #[test]
    fn fits_are_deterministic_and_follow_the_players() {
        let mut r = Results::new(3);
        let mut swapped = Results::new(3);
        let games = [
            (0, 1, Win),
            (0, 1, Draw),
            (1, 2, Win),
            (2, 0, Loss),
            (2, 1, Win),
        ];
        for (a, b, o) in games {
            r.add(a, b, o);
            // Players 0 and 2 trade places.
            swapped.add(2 - a, 2 - b, o);
        }
        let (x, y) = (fit(&r, 1.0).unwrap(), fit(&r, 1.0).unwrap());
        assert_eq!(x.elo.map_bits(), y.elo.map_bits());
        let z = fit(&swapped, 1.0).unwrap();
        for a in 0..3 {
            assert!(close(x.elo[a], z.elo[2 - a], 1e-9), "{x:?} {z:?}");
        }
    }

    trait Bits {
        fn map_bits(&self) -> Vec<u64>;
    }
    impl Bits for Vec<f64> {
        fn map_bits(&self) -> Vec<u64> {
            self.iter().map(|v| v.to_bits()).collect()
        }
    }

    #[test]
    fn a_prior_that_is_not_positive_is_refused() {
        for prior in [0.0, -1.0, f64::NAN, f64::INFINITY] {
            let e = fit(&Results::new(2), prior).unwrap_err();
            assert_eq!(
                e,
                format!(
                    "the ratings' prior must be a positive number of virtual games, not {prior}"
                )
            );
        }
        let one = fit(&Results::new(1), 1.0).unwrap();
        assert_eq!((one.elo, one.ci95), (vec![0.0], vec![0.0]));
    }
}
