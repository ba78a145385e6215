//! The flag that stops long work: raised by Ctrl-C in the command line, or by a host that
//! handles interrupts itself (the Python package turns KeyboardInterrupt into it). Whatever
//! plays games reads it once a move (a relaxed load), so a game under way ends where it is
//! and is dropped, never recorded: Ctrl-C ends a command within a second, mid-game, and a
//! run keeps the checkpoint of its last whole generation.

use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, Ordering};

/// The process's stop flag: Ctrl-C's, or a host's ([`host_stop_flag`]).
static STOP: OnceLock<&'static AtomicBool> = OnceLock::new();

/// Whether a host handles interrupts itself ([`host_stop_flag`]): then no command installs a
/// Ctrl-C handler.
static HOSTED: AtomicBool = AtomicBool::new(false);

fn flag() -> &'static AtomicBool {
    STOP.get_or_init(|| Box::leak(Box::new(AtomicBool::new(false))))
}

/// The flag Ctrl-C raises; the first call installs the handler. Without a handler (another
/// one is installed) Ctrl-C simply ends the process, which leaves a run's last checkpoint
/// valid all the same. WebAssembly has no signals: there a browser stops a run by not
/// stepping it.
pub fn ctrl_c() -> &'static AtomicBool {
    let flag = flag();
    #[cfg(not(target_family = "wasm"))]
    if !HOSTED.load(Ordering::SeqCst) {
        static HANDLER: std::sync::Once = std::sync::Once::new();
        HANDLER.call_once(|| {
            let _ = ctrlc::set_handler(move || flag.store(true, Ordering::SeqCst));
        });
    }
    flag
}

/// The stop flag for a host that handles interrupts itself: taken before any command, it
/// keeps commands in this process from installing a Ctrl-C handler, which would take SIGINT
/// from the host for good.
pub fn host_stop_flag() -> &'static AtomicBool {
    HOSTED.store(true, Ordering::SeqCst);
    flag()
}

/// Hands Ctrl-C back to the commands, as in the binary: a host that runs the command line
/// itself and then ends (`python -m stacktune`) calls it first, so that a run stopped by
/// Ctrl-C says how to resume, as the binary's does.
pub fn commands_take_ctrl_c() {
    HOSTED.store(false, Ordering::SeqCst);
}
