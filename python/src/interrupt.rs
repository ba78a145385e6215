//! Long calls that Ctrl-C (KeyboardInterrupt) stops: the work runs off the interpreter's
//! thread with the GIL released, while the calling thread waits in short slices and asks the
//! interpreter between them whether a signal came (`Python::check_signals`), which is where
//! Python raises KeyboardInterrupt.

use pyo3::exceptions::{PyOSError, PyRuntimeError};
use pyo3::prelude::*;
use stacktune_base::fsutil::failed_output;
use std::cell::RefCell;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError, Sender};
use std::time::Duration;

/// How long the caller waits between two looks for a signal: short next to the second a user
/// gives Ctrl-C, long next to the cost of a look.
const SLICE: Duration = Duration::from_millis(50);

/// Runs `work`, which stops soon after `stop` is raised, and returns what it returns; on a
/// signal, raises `stop`, waits for `work` to stop and raises the signal's exception
/// (KeyboardInterrupt) instead.
pub fn until_signal<T: Send>(
    py: Python<'_>,
    stop: &AtomicBool,
    work: impl FnOnce() -> T + Send,
) -> PyResult<T> {
    std::thread::scope(|scope| {
        // The worker says when it is done, so that a call of a millisecond returns in a
        // millisecond rather than at the end of the caller's slice.
        let (done, mut finished) = mpsc::channel::<()>();
        let worker = scope.spawn(move || {
            let value = work();
            let _ = done.send(());
            value
        });
        let mut signal = None;
        loop {
            let (waited, back) = py.detach(move || (finished.recv_timeout(SLICE), finished));
            finished = back;
            if !matches!(waited, Err(RecvTimeoutError::Timeout)) {
                break;
            }
            if signal.is_none()
                && let Err(e) = py.check_signals()
            {
                stop.store(true, Ordering::SeqCst);
                signal = Some(e);
            }
        }
        let value = py
            .detach(|| worker.join())
            .map_err(|panic| match failed_output(&*panic) {
                // Its progress could not be written: a full disk is the user's, not a bug.
                Some(line) => PyOSError::new_err(line),
                None => PyRuntimeError::new_err("stacktune's worker thread panicked"),
            })?;
        match signal {
            Some(e) => Err(e),
            None => Ok(value),
        }
    })
}

type Job = Box<dyn FnOnce() + Send>;

thread_local! {
    /// The calling thread's worker: one thread kept from call to call, so that what it keeps
    /// per thread (the Connect endgame solver's table) lasts from move to move, and Python
    /// threads keep searching in parallel.
    static WORKER: RefCell<Option<Sender<Job>>> = const { RefCell::new(None) };
}

/// Runs `work`, which cannot be stopped, on the calling thread's worker; on a signal, raises
/// the signal's exception at once and leaves the worker to finish `work` alone (its result is
/// dropped; the next call gets a new worker).
pub fn abandon_on_signal<T: Send + 'static>(
    py: Python<'_>,
    work: impl FnOnce() -> T + Send + 'static,
) -> PyResult<T> {
    let (result, mut answer) = mpsc::sync_channel(1);
    let job: Job = Box::new(move || {
        // The caller may be gone (it was interrupted): then nobody wants the result.
        let _ = result.send(work());
    });
    WORKER.with(|worker| {
        let mut worker = worker.borrow_mut();
        let jobs = worker.get_or_insert_with(spawn_worker);
        if let Err(mpsc::SendError(job)) = jobs.send(job) {
            // The worker died (a job panicked): the next one takes the job.
            let jobs = worker.insert(spawn_worker());
            jobs.send(job).expect("a new worker takes jobs");
        }
    });
    loop {
        // The receiver goes to the waiting side and back: it may be sent, not shared.
        let (received, back) = py.detach(move || (answer.recv_timeout(SLICE), answer));
        answer = back;
        match received {
            Ok(value) => return Ok(value),
            Err(RecvTimeoutError::Timeout) => {
                if let Err(e) = py.check_signals() {
                    // The busy worker ends once its job is done and it finds no sender left.
                    WORKER.with(|worker| worker.borrow_mut().take());
                    return Err(e);
                }
            }
            Err(RecvTimeoutError::Disconnected) => {
                return Err(PyRuntimeError::new_err("stacktune's search panicked"));
            }
        }
    }
}

/// A thread that runs the jobs sent to it, one after the other, until its sender is dropped.
fn spawn_worker() -> Sender<Job> {
    let (jobs, inbox) = mpsc::channel::<Job>();
    std::thread::Builder::new()
        .name("stacktune-search".into())
        .spawn(move || {
            for job in inbox {
                job();
            }
        })
        .expect("a thread for the search");
    jobs
}
