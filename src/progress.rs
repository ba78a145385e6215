//! Progress for long work: a bar on a terminal, plain lines otherwise, nothing with `--quiet`.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

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

/// How often plain-line progress reports pieces while no game finishes: long games (millions
/// of pieces) would otherwise leave a user staring at nothing for minutes.
const LINE_EVERY: Duration = Duration::from_secs(10);

/// A counter of finished units (games), and of the moves played inside them, that reports
/// itself.
pub struct Progress {
    mode: Mode,
    bar: Option<ProgressBar>,
    total: u64,
    label: String,
    state: Mutex<(u64, u64)>,
    moves: AtomicU64,
    last_line: Mutex<Instant>,
    start: Instant,
}

impl Progress {
    pub fn new(mode: Mode, total: u64, label: &str) -> Progress {
        let bar = (mode == Mode::Bar).then(|| {
            let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
            bar.set_style(Self::style());
            bar.set_message(label.to_string());
            bar
        });
        Progress {
            mode,
            bar,
            total,
            label: label.to_string(),
            state: Mutex::new((0, 0)),
            moves: AtomicU64::new(0),
            last_line: Mutex::new(Instant::now()),
            start: Instant::now(),
        }
    }

    /// A bar in `bars` (under the bars already there): progress within a larger piece of work.
    pub fn in_multi(bars: &indicatif::MultiProgress, total: u64, label: &str) -> Progress {
        let progress = Progress::new(Mode::Quiet, total, label);
        let bar = bars.add(ProgressBar::new(total));
        bar.set_style(Self::style());
        bar.set_message(label.to_string());
        Progress {
            mode: Mode::Bar,
            bar: Some(bar),
            ..progress
        }
    }

    /// Progress that shows nothing: for work whose caller reports it another way.
    pub fn hidden() -> Progress {
        Progress::new(Mode::Quiet, 0, "")
    }

    /// `n` more moves played inside games still running.
    pub fn add_moves(&self, n: u64) {
        let moves = self.moves.fetch_add(n, Ordering::Relaxed) + n;
        match self.mode {
            Mode::Quiet => {}
            Mode::Bar => {
                if let Some(bar) = &self.bar {
                    bar.set_message(format!("{}, {} moves", self.label, moves));
                }
            }
            Mode::Lines => {
                let mut last = self.last_line.lock().expect("progress lock");
                if last.elapsed() >= LINE_EVERY {
                    *last = Instant::now();
                    let games = self.state.lock().expect("progress lock").0;
                    eprintln!(
                        "{}: {games}/{} done, {moves} moves ({:.1} s)",
                        self.label,
                        self.total,
                        self.start.elapsed().as_secs_f64()
                    );
                }
            }
        }
    }

    fn style() -> ProgressStyle {
        ProgressStyle::with_template("{msg} [{bar:30}] {pos}/{len} eta {eta}")
            .expect("a valid progress template")
            .progress_chars("=> ")
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
