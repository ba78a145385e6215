//! The flag that stops long work: raised by Ctrl-C in the command line, or by a host that
//! handles interrupts itself (the Python package turns KeyboardInterrupt into it). Whatever
//! plays games reads it once a move (a relaxed load), so a game under way ends where it is
//! and is dropped, never recorded: Ctrl-C ends a command within a second, mid-game, and a
//! run keeps the checkpoint of its last whole generation.

use std::sync::OnceLock;
use std::sync::atomic::AtomicBool;

/// The process's stop flag: Ctrl-C's, or a host's ([`host_stop_flag`]).
static STOP: OnceLock<&'static AtomicBool> = OnceLock::new();

/// The flag Ctrl-C raises; the first call installs the handler. Without a handler (another
/// one is installed) Ctrl-C simply ends the process, which leaves a run's last checkpoint
/// valid all the same. WebAssembly has no signals: there a browser stops a run by not
/// stepping it.
pub fn ctrl_c() -> &'static AtomicBool {
    STOP.get_or_init(|| {
        let flag: &'static AtomicBool = Box::leak(Box::new(AtomicBool::new(false)));
        #[cfg(not(target_family = "wasm"))]
        let _ = ctrlc::set_handler(move || flag.store(true, std::sync::atomic::Ordering::SeqCst));
        flag
    })
}

/// The stop flag for a host that handles interrupts itself: taken before any command, it
/// keeps commands in this process from installing a Ctrl-C handler, which would take SIGINT
/// from the host for good.
pub fn host_stop_flag() -> &'static AtomicBool {
    STOP.get_or_init(|| Box::leak(Box::new(AtomicBool::new(false))))
}
