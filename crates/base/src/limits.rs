//! Bounds on what a run may ask for, and the memory check made before a run allocates.
//!
//! Without bounds, one mistyped digit aborts on a huge allocation (`--population 1000000000`)
//! or spawns threads until the process limit (`--threads 1000000`). The bounds are far above
//! any useful run on one machine; `--help` and the errors quote them.

use anyhow::{Result, bail};
use std::ops::RangeInclusive;

/// Candidates per generation.
pub const POPULATION: RangeInclusive<usize> = 2..=10_000;
/// Games per candidate per generation.
pub const GAMES: RangeInclusive<u64> = 1..=100_000;
/// Held-out games (during the run and at its end).
pub const HELD_OUT_GAMES: RangeInclusive<u64> = 1..=1_000_000;
/// Generations of a run.
pub const GENERATIONS: RangeInclusive<u64> = 1..=1_000_000;
/// Repeats of each config in a comparison.
pub const REPEATS: RangeInclusive<u64> = 1..=100;
/// Training games per run in a comparison.
pub const GAMES_BUDGET: RangeInclusive<u64> = 1..=1_000_000_000;
/// Trajectories a level of a splitting estimate (`--splitting`): below ten a level's chance
/// is too coarse to mean anything.
pub const SPLITTING_EFFORT: RangeInclusive<u32> = 10..=1_000_000;
/// Worker threads (0 = one per core).
pub const THREADS: RangeInclusive<usize> = 0..=256;

/// Widest beam accepted: wider beams cost time linearly and stop paying long before this.
pub const MAX_BEAM_WIDTH: usize = 100_000;
/// Deepest beam accepted: no game here shows more pieces than this ahead.
pub const MAX_BEAM_DEPTH: u32 = 16;

/// Checks a beam's depth and width against the limits above, naming each as the user gave it
/// (`names`: the flags, or a weights file's keys), so the one-line error says what to change.
pub fn check_beam(depth: u32, width: usize, names: (&str, &str)) -> Result<()> {
    if !(1..=MAX_BEAM_DEPTH).contains(&depth) {
        bail!("{} {depth} is out of range 1..={MAX_BEAM_DEPTH}", names.0);
    }
    if !(1..=MAX_BEAM_WIDTH).contains(&width) {
        bail!("{} {width} is out of range 1..={MAX_BEAM_WIDTH}", names.1);
    }
    Ok(())
}

/// Most sampled futures a sampled beam draws: each costs a beam's worth of time.
pub const MAX_SAMPLES: u32 = 256;
/// Most unseen pieces in one sampled future.
pub const MAX_UNSEEN: u32 = 32;

/// Checks a sampled beam's settings (see [`check_beam`]; `names` as width, samples, unseen,
/// fired).
pub fn check_sampled(
    width: usize,
    samples: u32,
    unseen: u32,
    fired: Option<u32>,
    names: [&str; 4],
) -> Result<()> {
    check_beam(1, width, ("", names[0]))?;
    if !(1..=MAX_SAMPLES).contains(&samples) {
        bail!("{} {samples} is out of range 1..={MAX_SAMPLES}", names[1]);
    }
    if !(1..=MAX_UNSEEN).contains(&unseen) {
        bail!("{} {unseen} is out of range 1..={MAX_UNSEEN}", names[2]);
    }
    if fired == Some(0) {
        bail!(
            "{} 0 would end every line at once: give the points of a chain worth firing (ama: 5000)",
            names[3]
        );
    }
    Ok(())
}

/// Rejects `value` outside `range`, naming the setting and the range.
pub fn check<T: PartialOrd + std::fmt::Display>(
    name: &str,
    value: T,
    range: &RangeInclusive<T>,
) -> Result<()> {
    if !range.contains(&value) {
        bail!(
            "{name} must be within {}..={} (got {value})",
            range.start(),
            range.end()
        );
    }
    Ok(())
}

/// Refuses work that needs more memory than the machine has free, before allocating any of it.
/// `what` names the work and its sizes for the error.
pub fn check_memory(bytes: u64, what: &str) -> Result<()> {
    if let Some(free) = available_memory()
        && bytes > free
    {
        bail!(
            "{what} needs about {} MiB of memory, and {} MiB are free; use fewer candidates, games or generations",
            bytes >> 20,
            free >> 20
        );
    }
    Ok(())
}

/// Memory the kernel can give without swapping (`MemAvailable` of /proc/meminfo), where the
/// system says it; a whole system-information crate would be a large dependency for one number.
fn available_memory() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn out_of_range_names_the_setting_and_range() {
        assert_eq!(
            check("threads", 1_000_000, &THREADS)
                .unwrap_err()
                .to_string(),
            "threads must be within 0..=256 (got 1000000)"
        );
        assert!(check("threads", 0, &THREADS).is_ok());
    }

    #[test]
    fn more_than_the_machine_has_is_refused() {
        let err = check_memory(u64::MAX, "this run").unwrap_err().to_string();
        assert!(err.starts_with("this run needs about "), "{err}");
        assert!(check_memory(1, "a small run").is_ok());
    }
}
