//! Progress for long work: a bar on a terminal, plain lines otherwise, nothing with `--quiet`.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;
use std::sync::Mutex;
use std::time::Instant;

/// How progress is shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// An indicatif bar on standard error.
    Bar,
    /// A plain line on standard error every tenth of the work.
    Lines,
    /// Nothing.
    Quiet,
}

impl Mode {
    /// A bar when standard error is a terminal, plain lines otherwise, nothing when quiet.
    pub fn detect(quiet: bool) -> Mode {
        if quiet {
            Mode::Quiet
        } else if std::io::stderr().is_terminal() {
            Mode::Bar
        } else {
            Mode::Lines
        }
    }
}

/// A counter of finished units (games) that reports itself.
pub struct Progress {
    mode: Mode,
    bar: Option<ProgressBar>,
    total: u64,
    label: String,
    state: Mutex<(u64, u64)>,
    start: Instant,
}

impl Progress {
    pub fn new(mode: Mode, total: u64, label: &str) -> Progress {
        let bar = (mode == Mode::Bar).then(|| {
            let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
            bar.set_style(
                ProgressStyle::with_template("{msg} [{bar:30}] {pos}/{len} {per_sec} eta {eta}")
                    .expect("a valid progress template")
                    .progress_chars("=> "),
            );
            bar.set_message(label.to_string());
            bar
        });
        Progress {
            mode,
            bar,
            total,
            label: label.to_string(),
            state: Mutex::new((0, 0)),
            start: Instant::now(),
        }
    }

    /// One more unit done.
    pub fn inc(&self) {
        match self.mode {
            Mode::Quiet => {}
            Mode::Bar => {
                if let Some(bar) = &self.bar {
                    bar.inc(1);
                }
            }
            Mode::Lines => {
                let mut state = self.state.lock().expect("progress lock");
                state.0 += 1;
                let tenth = state.0 * 10 / self.total.max(1);
                if tenth > state.1 {
                    state.1 = tenth;
                    eprintln!(
                        "{}: {}/{} ({:.1} s)",
                        self.label,
                        state.0,
                        self.total,
                        self.start.elapsed().as_secs_f64()
                    );
                }
            }
        }
    }

    /// Removes the bar so results print on a clean line.
    pub fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}
