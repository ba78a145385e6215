//! stacktune_base::math::port (the exp, ln, log10 and cos a WebAssembly build uses) against the platform's
//! libm (glibc 2.36 on x86-64, which every shipped run was made with), bit for bit, on the
//! arguments the tuner gives them: ln of the Gaussian draws' 1 − U (multiples of 2^-53 in
//! (0, 1]) and of CMA-ES's counts, cos of 2πU, exp of CMA-ES's step-size factors and of ratings,
//! log10 of the odds 1/s − 1 a match's Elo takes;
//! then each over every exponent (random bit patterns). A million draws a range here;
//! `cargo test --release --test integration math:: -- --ignored` draws 10^8 a range.

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use stacktune_base::math::port;

/// The first argument (of `count` drawn by `draw` from a stream seeded `seed`) at which `port`
/// and `platform` differ, with both results.
fn first_difference(
    count: u64,
    seed: u64,
    draw: impl Fn(&mut ChaCha8Rng) -> f64,
    port: fn(f64) -> f64,
    platform: fn(f64) -> f64,
) -> Option<(f64, f64, f64)> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    (0..count).find_map(|_| {
        let x = draw(&mut rng);
        let (ours, theirs) = (port(x), platform(x));
        (ours.to_bits() != theirs.to_bits() && !(ours.is_nan() && theirs.is_nan()))
            .then_some((x, ours, theirs))
    })
}

fn any_bits(rng: &mut ChaCha8Rng) -> f64 {
    f64::from_bits(rng.random::<u64>())
}

fn check_all(count: u64) {
    let gaussian_u1 = |r: &mut ChaCha8Rng| 1.0 - r.random::<f64>();
    let turn = |r: &mut ChaCha8Rng| std::f64::consts::TAU * r.random::<f64>();
    let counts = |r: &mut ChaCha8Rng| r.random_range(1..100_000u32) as f64;
    let step = |r: &mut ChaCha8Rng| r.random_range(-40.0..40.0);
    let wide = |r: &mut ChaCha8Rng| r.random_range(-800.0..800.0);
    let below_2_27 = |r: &mut ChaCha8Rng| {
        let x = any_bits(r);
        if x.abs() < 1.0e8 { x } else { x % 1.0e8 }
    };
    type Case<'a> = (
        &'a str,
        &'a dyn Fn(&mut ChaCha8Rng) -> f64,
        fn(f64) -> f64,
        fn(f64) -> f64,
    );
    // A match's score as its Elo takes it: a share of points, clamped as elo_of_score does.
    let elo_ratio = |r: &mut ChaCha8Rng| {
        let s = (r.random_range(0..=2_000u32) as f64 / 2_000.0).clamp(1e-3, 1.0 - 1e-3);
        let s = if r.random::<bool>() {
            s
        } else {
            r.random_range(1e-3..1.0 - 1e-3)
        };
        1.0 / s - 1.0
    };
    let cases: [Case; 11] = [
        ("ln(1 - U)", &gaussian_u1, port::ln, f64::ln),
        ("ln(count)", &counts, port::ln, f64::ln),
        ("ln(any)", &any_bits, port::ln, f64::ln),
        ("cos(2πU)", &turn, port::cos, f64::cos),
        ("cos(|x| < 1e8)", &below_2_27, port::cos, f64::cos),
        ("exp(-40..40)", &step, port::exp, f64::exp),
        ("exp(-800..800)", &wide, port::exp, f64::exp),
        ("exp(any)", &any_bits, port::exp, f64::exp),
        ("cos(any)", &any_bits, port::cos, f64::cos),
        ("log10(1/s - 1)", &elo_ratio, port::log10, f64::log10),
        ("log10(any)", &any_bits, port::log10, f64::log10),
    ];
    for (seed, (name, draw, ours, theirs)) in cases.into_iter().enumerate() {
        let found = first_difference(count, seed as u64, draw, ours, theirs);
        assert_eq!(found, None, "{name}: (x, port, platform) differ");
    }
}

#[test]
#[cfg(all(target_arch = "x86_64", target_os = "linux"))]
fn the_port_equals_glibc_on_a_million_draws_a_range() {
    check_all(1_000_000);
}

#[test]
#[ignore = "10^8 draws a range: minutes"]
#[cfg(all(target_arch = "x86_64", target_os = "linux"))]
fn the_port_equals_glibc_on_a_hundred_million_draws_a_range() {
    check_all(100_000_000);
}

#[test]
fn the_port_gives_the_edges_as_glibc_does() {
    assert_eq!(port::ln(1.0).to_bits(), 0.0f64.to_bits());
    assert_eq!(port::ln(0.0), f64::NEG_INFINITY);
    assert!(port::ln(-1.0).is_nan());
    assert_eq!(port::ln(f64::INFINITY), f64::INFINITY);
    assert_eq!(port::exp(0.0), 1.0);
    assert_eq!(port::exp(710.0), f64::INFINITY);
    assert_eq!(port::exp(-746.0), 0.0);
    assert_eq!(port::exp(f64::NEG_INFINITY), 0.0);
    assert_eq!(port::log10(1.0).to_bits(), 0.0f64.to_bits());
    assert_eq!(port::log10(0.0), f64::NEG_INFINITY);
    assert!(port::log10(-1.0).is_nan());
    assert_eq!(port::log10(f64::INFINITY), f64::INFINITY);
    assert_eq!(port::cos(0.0), 1.0);
    assert!(port::cos(f64::INFINITY).is_nan());
    assert_eq!(port::exp(1.0), std::f64::consts::E);
    assert_eq!(port::ln(std::f64::consts::E), 1.0);
}
