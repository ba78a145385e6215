//! The transcendental functions a run's bytes depend on (the optimisers' Gaussian draws, CMA-ES's
//! step size, ratings, a match's Elo): every such call goes through here. Natively they are the platform's
//! (std's, glibc's on Linux), so every shipped run keeps its bytes; on WebAssembly, whose std
//! uses another libm that differs in the last bit for a few per cent of inputs, they are
//! [`port`]'s, which computes what glibc 2.36 computes on x86-64 (tests/integration/math.rs
//! compares the two here on the ranges the tuner uses), so a run in a browser equals `stacktune
//! evolve`.

pub mod port;
mod tables;

/// e^x.
pub fn exp(x: f64) -> f64 {
    #[cfg(target_family = "wasm")]
    return port::exp(x);
    #[cfg(not(target_family = "wasm"))]
    x.exp()
}

/// The natural logarithm.
pub fn ln(x: f64) -> f64 {
    #[cfg(target_family = "wasm")]
    return port::ln(x);
    #[cfg(not(target_family = "wasm"))]
    x.ln()
}

/// The base-10 logarithm (the logistic Elo of a match's score).
pub fn log10(x: f64) -> f64 {
    #[cfg(target_family = "wasm")]
    return port::log10(x);
    #[cfg(not(target_family = "wasm"))]
    x.log10()
}

/// The cosine.
pub fn cos(x: f64) -> f64 {
    #[cfg(target_family = "wasm")]
    return port::cos(x);
    #[cfg(not(target_family = "wasm"))]
    x.cos()
}
