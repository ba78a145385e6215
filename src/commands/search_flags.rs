//! The flags of the exact searches (`solve`, `solve-connect`): their progress and time limit.

use stacktune_base::progress::{Meter, Mode};
use std::time::Duration;

/// Progress on standard error and an optional time limit, shared so that both solvers read
/// and behave alike.
#[derive(clap::Args, Debug)]
pub struct SearchFlags {
    /// Stop a search after SECONDS (decimals allowed): the command then fails with one line
    /// saying how far it got, and shows no result.
    #[arg(long, value_name = "SECONDS", value_parser = seconds)]
    pub time_limit: Option<Duration>,
    /// Show no progress on standard error (nodes searched, nodes per second, time).
    #[arg(long)]
    pub quiet: bool,
    /// Seconds between progress lines when standard error is not a terminal (a log file, a
    /// pipe); 10 by default.
    #[arg(long, value_name = "SECONDS", value_parser = seconds)]
    pub progress_every: Option<Duration>,
}

impl SearchFlags {
    /// The meter a search labelled `label` counts into.
    pub fn meter(&self, label: &str) -> Meter {
        let meter = Meter::new(Mode::detect(self.quiet), label, self.time_limit);
        match self.progress_every {
            Some(every) => meter.lines_every(every),
            None => meter,
        }
    }
}

/// A positive, finite number of seconds.
fn seconds(text: &str) -> Result<Duration, String> {
    let value: f64 = text
        .parse()
        .map_err(|_| format!("`{text}` is not a number of seconds"))?;
    if value.is_nan() || value <= 0.0 {
        return Err(format!("must be more than 0 seconds (got {text})"));
    }
    Duration::try_from_secs_f64(value).map_err(|_| format!("{text} seconds is too long"))
}
