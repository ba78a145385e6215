//! Progress for long work: a bar on a terminal, plain lines otherwise, nothing with `--quiet`.

use indicatif::{
    HumanCount, HumanDuration, ProgressBar, ProgressDrawTarget, ProgressState, ProgressStyle,
};
use std::io::IsTerminal;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;
// std's own clock on every platform but WebAssembly in a browser, whose std has none (its
// `Instant::now` panics): there it is the page's `performance.now()`.
use web_time::Instant;

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

/// Moves a game plays between two reports of [`Progress::playing`].
pub const MOVES_PER_TICK: u64 = 1 << 14;

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
        let bar = (mode == Mode::Bar)
            .then(|| ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr()));
        Self::with_bar(mode, bar, total, label)
    }

    /// A bar in `bars` (under the bars already there): progress within a larger piece of work.
    pub fn in_multi(bars: &indicatif::MultiProgress, total: u64, label: &str) -> Progress {
        let bar = bars.add(ProgressBar::new(total));
        Self::with_bar(Mode::Bar, Some(bar), total, label)
    }

    fn with_bar(mode: Mode, bar: Option<ProgressBar>, total: u64, label: &str) -> Progress {
        if let Some(bar) = &bar {
            bar.set_style(Self::style());
            bar.set_message(label.to_string());
        }
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

    /// A game still running has played `moves` so far: its moves are reported every
    /// [`MOVES_PER_TICK`], rarely enough to cost nothing next to the moves themselves.
    #[inline]
    pub fn playing(&self, moves: u64) {
        if moves > 0 && moves.is_multiple_of(MOVES_PER_TICK) {
            self.add_moves(MOVES_PER_TICK);
        }
    }

    /// A game ended after `moves`: its moves not reported yet, and one more unit done.
    pub fn game_ended(&self, moves: u64) {
        self.add_moves(moves % MOVES_PER_TICK);
        self.inc();
    }

    /// The bar: its ETA is the time so far over the units done, times the units left, and `?`
    /// before the first unit is done (indicatif's own would say 0 s then).
    fn style() -> ProgressStyle {
        ProgressStyle::with_template("{msg} [{bar:30}] {pos}/{len} eta {eta}")
            .expect("a valid progress template")
            .with_key(
                "eta",
                |state: &ProgressState, out: &mut dyn std::fmt::Write| {
                    let (done, total) = (state.pos(), state.len().unwrap_or(0));
                    let _ = match done {
                        0 => write!(out, "?"),
                        _ => {
                            let left = total.saturating_sub(done) as f64 / done as f64;
                            let eta = state.elapsed().mul_f64(left);
                            write!(out, "{:#}", HumanDuration(eta))
                        }
                    };
                },
            )
            .progress_chars("=> ")
    }

    /// Shows the work begun at once (`0/N` on a plain line), and on a terminal keeps the bar's
    /// clock and ETA moving between units: for work whose units take minutes each.
    pub fn show_start(&self) {
        match self.mode {
            Mode::Quiet => {}
            Mode::Bar => {
                if let Some(bar) = &self.bar {
                    bar.enable_steady_tick(Duration::from_secs(1));
                }
            }
            Mode::Lines => eprintln!("{}: 0/{} (0.0 s)", self.label, self.total),
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

/// Nodes an exact search counts between reports to its [`Meter`]: often enough for a steady
/// display and a time limit overshot by milliseconds, rare enough that the clock, the bar and
/// the limit cost nothing measurable per node.
pub const BATCH: u64 = 1 << 16;

/// The end of a search stopped by its time limit: what the user is told instead of a result.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Stopped {
    pub seconds: f64,
    pub nodes: u64,
}

impl std::fmt::Display for Stopped {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "search stopped by --time-limit after {:.1} s and {} nodes without a result",
            self.seconds, self.nodes
        )
    }
}

impl std::error::Error for Stopped {}

/// Progress of work with no known total, an exact search: nodes searched, nodes per second and
/// time, as a spinner on a terminal or a plain line every [`LINE_EVERY`] otherwise, and an
/// optional time limit. The search owns it and counts into it with [`Meter::node`], a plain
/// field increment, so its hot loop takes no lock and makes no call but once per [`BATCH`].
pub struct Meter {
    mode: Mode,
    bar: Option<ProgressBar>,
    label: String,
    limit: Option<Duration>,
    /// Time between plain lines, [`LINE_EVERY`] unless the user asked otherwise.
    line_every: Duration,
    nodes: u64,
    stopped: bool,
    start: Instant,
    last_line: Instant,
}

impl Meter {
    pub fn new(mode: Mode, label: &str, limit: Option<Duration>) -> Meter {
        let bar = (mode == Mode::Bar).then(|| {
            let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
            bar.set_style(
                ProgressStyle::with_template("{spinner} {msg}, {elapsed}")
                    .expect("a valid progress template"),
            );
            bar.set_message(format!("{label}: 0 nodes"));
            // The clock moves even while a batch is being searched.
            bar.enable_steady_tick(Duration::from_millis(200));
            bar
        });
        let mut meter = Meter {
            mode,
            bar,
            label: String::new(),
            limit,
            line_every: LINE_EVERY,
            nodes: 0,
            stopped: false,
            start: Instant::now(),
            last_line: Instant::now(),
        };
        meter.restart(label);
        meter
    }

    /// The same meter writing its plain lines every `every` instead of every [`LINE_EVERY`].
    pub fn lines_every(mut self, every: Duration) -> Meter {
        self.line_every = every;
        self
    }

    /// A meter that shows nothing and never stops: for searches run without a user watching.
    pub fn unbounded() -> Meter {
        Meter::new(Mode::Quiet, "", None)
    }

    /// Starts over for the next piece of work (the next puzzle of a file): count, clock and time
    /// limit begin again, on the same spinner.
    pub fn restart(&mut self, label: &str) {
        self.label = label.to_string();
        self.nodes = 0;
        self.stopped = false;
        self.start = Instant::now();
        self.last_line = self.start;
        if let Some(bar) = &self.bar {
            bar.reset();
            bar.set_message(format!("{label}: 0 nodes"));
        }
    }

    /// Counts one node; false once the time limit has passed, and from then on (counting
    /// nothing more), so that the search unwinds without recording anything it did not finish.
    #[inline]
    pub fn node(&mut self) -> bool {
        if self.stopped {
            return false;
        }
        self.nodes += 1;
        if self.nodes.is_multiple_of(BATCH) {
            self.report();
        }
        !self.stopped
    }

    /// Runs `print` with the spinner hidden, so a line on standard output does not tear it.
    pub fn suspend<R>(&self, print: impl FnOnce() -> R) -> R {
        match &self.bar {
            Some(bar) => bar.suspend(print),
            None => print(),
        }
    }

    /// Whether the time limit stopped the search.
    #[inline]
    pub fn stopped(&self) -> bool {
        self.stopped
    }

    /// Nodes counted since the last restart.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// `value` when the search ran to its end; the error that says where it stopped otherwise,
    /// so that what a stopped search computed is never shown as a result.
    pub fn result<T>(&self, value: T) -> Result<T, Stopped> {
        if self.stopped {
            Err(Stopped {
                seconds: self.start.elapsed().as_secs_f64(),
                nodes: self.nodes,
            })
        } else {
            Ok(value)
        }
    }

    #[cold]
    #[inline(never)]
    fn report(&mut self) {
        let elapsed = self.start.elapsed();
        if self.limit.is_some_and(|limit| elapsed >= limit) {
            self.stopped = true;
        }
        let seconds = elapsed.as_secs_f64();
        let rate = (self.nodes as f64 / seconds) as u64;
        match self.mode {
            Mode::Quiet => {}
            Mode::Bar => {
                if let Some(bar) = &self.bar {
                    bar.set_message(format!(
                        "{}: {} nodes, {} nodes/s",
                        self.label,
                        HumanCount(self.nodes),
                        HumanCount(rate)
                    ));
                }
            }
            Mode::Lines => {
                if self.last_line.elapsed() >= self.line_every {
                    self.last_line = Instant::now();
                    eprintln!(
                        "{}: {} nodes, {rate} nodes/s ({seconds:.1} s)",
                        self.label, self.nodes
                    );
                }
            }
        }
    }
}

/// The spinner goes away with the search, so results and errors print on a clean line.
impl Drop for Meter {
    fn drop(&mut self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_meter_stops_at_the_first_batch_past_its_limit_and_counts_no_further() {
        let mut meter = Meter::new(Mode::Quiet, "test", Some(Duration::ZERO));
        assert!((1..BATCH).all(|_| meter.node()));
        assert!(!meter.node());
        assert!(!meter.node());
        assert!(meter.stopped());
        let stopped = meter.result(()).unwrap_err();
        assert_eq!(stopped.nodes, BATCH);
        assert!(
            stopped
                .to_string()
                .starts_with("search stopped by --time-limit after ")
        );
        meter.restart("next");
        assert!(!meter.stopped() && meter.nodes() == 0);
    }

    #[test]
    fn an_unbounded_meter_never_stops() {
        let mut meter = Meter::unbounded();
        assert!((0..3 * BATCH).all(|_| meter.node()));
        assert_eq!(meter.result(7), Ok(7));
        assert_eq!(meter.nodes(), 3 * BATCH);
    }
}
