//! The `stacktune` command line: [`stacktune::cli`] run with the process's arguments.

fn main() {
    end_quietly_on_closed_pipe();
    let code = stacktune::cli::run(std::env::args_os());
    if code != 0 {
        std::process::exit(code);
    }
}

/// A reader that stops early (`stacktune play ... | head`) ends the command as it ends `cat`
/// or `grep`: quietly, by SIGPIPE. Rust ignores that signal by default, so the failed write
/// would make `println!` panic in the middle of a table.
fn end_quietly_on_closed_pipe() {
    // SAFETY: called first thing in main, before any other thread exists; it only restores
    // the default disposition of one signal.
    #[cfg(unix)]
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}
