//! The front-end side of TBP: an external bot as a player, behind calls that cannot hang.
//!
//! A match against another program must go on whatever that program does: crash, hang, print
//! garbage, close its pipes. So every wait here is bounded by a per-message timeout (a reader
//! thread turns the bot's output into a channel, and the front end waits on the channel with
//! `recv_timeout`: no polling), and everything that goes wrong comes back as a [`BotFault`],
//! a value that says why in one line; a faulted bot is killed at once (it would steal the CPU
//! from the games that go on) and answers every later call with the same fault. Dropping a
//! [`Bot`] kills its process.
//!
//! A process that hosts bots must ignore SIGPIPE: the `stacktune` binary restores its default
//! (for `play | head`), under which writing to a bot that died would end stacktune instead of
//! giving [`BotFault::Crashed`].

use super::lines::{Frame, excerpt, read_frame, write_message};
use super::messages::{BotMessage, FrontendMessage, Info, Move, Piece, Rules, Start, Suggestion};
use serde::Serialize;
use serde::de::DeserializeOwned;
use std::ffi::OsString;
use std::fmt;
use std::fs::File;
use std::io::{self, BufReader, Read, Write};
use std::marker::PhantomData;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::str::FromStr;
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, TryRecvError};
use std::time::{Duration, Instant};

/// How to start a bot: a program and its arguments, written as a shell would split them
/// (`"path/to/cold-clear-2 --config cc2.json"`, quotes for spaces), run without a shell.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BotCommand {
    pub program: OsString,
    pub args: Vec<OsString>,
}

impl FromStr for BotCommand {
    type Err = String;
    fn from_str(line: &str) -> Result<BotCommand, String> {
        let words = shlex::split(line)
            .ok_or_else(|| format!("bot command `{line}` has an unclosed quote"))?;
        let mut words = words.into_iter().map(OsString::from);
        let program = words
            .next()
            .ok_or_else(|| "the bot command is empty".to_string())?;
        Ok(BotCommand {
            program,
            args: words.collect(),
        })
    }
}

impl fmt::Display for BotCommand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.program.to_string_lossy())?;
        for arg in &self.args {
            write!(f, " {}", arg.to_string_lossy())?;
        }
        Ok(())
    }
}

/// Where a bot's standard error goes: a bot's diagnostics are worth keeping, but a match of
/// many games wants them in a file rather than across its progress lines.
#[derive(Debug)]
pub enum BotStderr {
    Inherit,
    Discard,
    File(File),
}

/// How a front end treats a bot.
#[derive(Debug)]
pub struct BotOptions {
    /// The longest wait for any one message (`info`, `ready`, `suggestion`), and for the bot's
    /// exit once its output has closed.
    pub timeout: Duration,
    pub stderr: BotStderr,
}

impl Default for BotOptions {
    fn default() -> BotOptions {
        BotOptions {
            timeout: Duration::from_secs(5),
            stderr: BotStderr::Inherit,
        }
    }
}

/// Why a bot can no longer play, in words a match report can print as they are.
#[derive(Clone, Debug, PartialEq)]
pub enum BotFault {
    /// The program could not be started.
    Spawn { command: String, error: String },
    /// The process ended (on its own, or by a signal).
    Crashed {
        status: ExitStatus,
        during: &'static str,
    },
    /// No awaited message within the timeout.
    TimedOut {
        awaited: &'static str,
        after: Duration,
    },
    /// A line that is not a message of the bot's protocol (as much of it as a report can
    /// show).
    Garbage {
        protocol: &'static str,
        line: String,
        error: String,
    },
    /// The bot closed its standard output but went on running.
    ClosedOutput { during: &'static str },
    /// The bot closed its standard input (writing to it failed) but went on running.
    ClosedInput { during: &'static str },
    /// The bot sent `error` (to `rules`: it cannot play them).
    Refused { reason: String },
    /// None of the suggested moves could be played: the match finds this, not the client.
    NoValidMove { suggested: usize },
}

impl fmt::Display for BotFault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BotFault::Spawn { command, error } => {
                write!(f, "cannot start the bot `{command}`: {error}")
            }
            BotFault::Crashed { status, during } => {
                write!(f, "the bot ended ({status}) while {during}")
            }
            BotFault::TimedOut { awaited, after } => write!(
                f,
                "the bot sent no `{awaited}` within {} ms",
                after.as_millis()
            ),
            BotFault::Garbage {
                protocol,
                line,
                error,
            } => {
                write!(
                    f,
                    "the bot sent a line that is not a {protocol} message ({error}): {line}"
                )
            }
            BotFault::ClosedOutput { during } => {
                write!(f, "the bot closed its output while {during}")
            }
            BotFault::ClosedInput { during } => {
                write!(f, "the bot closed its input while {during}")
            }
            BotFault::Refused { reason } => write!(f, "the bot sent `error`: {reason}"),
            BotFault::NoValidMove { suggested } => {
                write!(f, "the bot suggested no valid move ({suggested} suggested)")
            }
        }
    }
}

impl std::error::Error for BotFault {}

/// A bot that has sent `info` and accepted the rules, ready for `start`.
pub struct Bot {
    info: Info,
    link: Link<BotMessage>,
}

/// A protocol's messages from a bot, as a [`Link`] sorts them: TBP's here, and any other
/// protocol on the same pattern (JSON lines with a `type`, an `error`, unknown types skipped).
pub trait Incoming: DeserializeOwned {
    /// The protocol's name, for a line that is not one of its messages.
    const PROTOCOL: &'static str;
    /// The bot's reason when the message is its `error`.
    fn refusal(&self) -> Option<&str>;
    /// The message is of a type this side does not know (skipped, as TBP's spec asks).
    fn unknown(&self) -> bool;
}

/// Implements [`Incoming`] for a protocol's bot messages on TBP's pattern, an enum whose
/// `Error { reason }` is the bot's refusal and whose `Unknown` is a type this side skips: one
/// implementation for TBP's messages and every protocol that copies their shape (the Puyo Bot
/// Protocol's).
#[macro_export]
macro_rules! impl_incoming {
    ($message:ty, $protocol:literal) => {
        impl $crate::client::Incoming for $message {
            const PROTOCOL: &'static str = $protocol;
            fn refusal(&self) -> Option<&str> {
                match self {
                    Self::Error { reason } => Some(reason),
                    _ => None,
                }
            }
            fn unknown(&self) -> bool {
                matches!(self, Self::Unknown)
            }
        }
    };
}

impl_incoming!(BotMessage, "TBP");

/// A bot process (or any reader and writer) behind calls that cannot hang: messages `M` read
/// by a thread with a cap on each line, every wait bounded by the timeout, every failure a
/// [`BotFault`] that kills the process and answers every later call. The machinery of
/// [`Bot`], for any protocol on TBP's pattern.
pub struct Link<M> {
    child: Option<Child>,
    input: Box<dyn Write + Send>,
    output: Receiver<io::Result<Frame>>,
    timeout: Duration,
    fault: Option<BotFault>,
    messages: PhantomData<fn() -> M>,
}

/// A bot process never outlives stacktune, however stacktune ends (SIGKILL included): on
/// Linux the kernel kills the child when the thread that started it ends (PR_SET_PDEATHSIG,
/// kept across exec), and a parent that died before the child could ask is caught by the
/// parent pid having changed. Elsewhere dropping the [`Bot`] kills it, which covers every
/// ending but a killed stacktune.
fn die_with_this_process(process: &mut Command) {
    #[cfg(target_os = "linux")]
    {
        use std::os::unix::process::CommandExt;
        let parent = std::process::id() as libc::pid_t;
        // SAFETY: the closure runs in the child between fork and exec and calls only
        // async-signal-safe functions (prctl, getppid).
        unsafe {
            process.pre_exec(move || {
                if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL) != 0 {
                    return Err(io::Error::last_os_error());
                }
                if libc::getppid() != parent {
                    return Err(io::Error::other("stacktune ended while the bot started"));
                }
                Ok(())
            });
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = process;
}

impl Bot {
    /// Starts `command`, reads its `info`, sends `rules` and waits for `ready`.
    pub fn launch(
        command: &BotCommand,
        rules: &Rules,
        options: BotOptions,
    ) -> Result<Bot, BotFault> {
        Bot::handshake(Link::launch(command, options)?, rules)
    }

    /// A bot already connected by a reader of its messages and a writer of ours (a bot in this
    /// process, or behind any other transport): reads its `info`, sends `rules`, waits for
    /// `ready`. With no process, a closed stream is [`BotFault::ClosedOutput`].
    pub fn connect(
        reader: impl Read + Send + 'static,
        writer: impl Write + Send + 'static,
        rules: &Rules,
        timeout: Duration,
    ) -> Result<Bot, BotFault> {
        Bot::handshake(Link::over(reader, writer, None, timeout), rules)
    }

    fn handshake(mut link: Link<BotMessage>, rules: &Rules) -> Result<Bot, BotFault> {
        let info = link.await_message("info", "waiting for `info`", |m| match m {
            BotMessage::Info(info) => Some(info),
            _ => None,
        })?;
        link.send(&FrontendMessage::Rules(*rules), "sending `rules`")?;
        link.await_message("ready", "waiting for `ready`", |m| match m {
            BotMessage::Ready => Some(()),
            _ => None,
        })?;
        Ok(Bot { info, link })
    }

    /// What the bot said of itself.
    pub fn info(&self) -> &Info {
        &self.info
    }

    /// Sets the wait for each later message: a bot may need longer to load than to answer.
    pub fn set_timeout(&mut self, timeout: Duration) {
        self.link.set_timeout(timeout);
    }

    /// The fault that ended this bot, if one did.
    pub fn fault(&self) -> Option<&BotFault> {
        self.link.fault()
    }

    /// Sends `start`: the bot calculates from this position (again after garbage lands).
    pub fn start(&mut self, start: &Start) -> Result<(), BotFault> {
        self.link.send(
            &FrontendMessage::Start(Box::new(start.clone())),
            "sending `start`",
        )
    }

    /// Asks for moves and waits for them, at most the timeout. Lines the bot sent since the
    /// last request are read first (a late answer must not pass for this one's).
    pub fn suggest(&mut self) -> Result<Suggestion, BotFault> {
        self.link.drain()?;
        self.link
            .send(&FrontendMessage::Suggest, "sending `suggest`")?;
        self.link
            .await_message("suggestion", "waiting for `suggestion`", |m| match m {
                BotMessage::Suggestion(suggestion) => Some(suggestion),
                _ => None,
            })
    }

    /// Sends `play`: the bot advances as if `mv` was played.
    pub fn play(&mut self, mv: &Move) -> Result<(), BotFault> {
        self.link
            .send(&FrontendMessage::Play { mv: *mv }, "sending `play`")
    }

    /// Sends `new_piece`: a piece joined the queue.
    pub fn new_piece(&mut self, piece: Piece) -> Result<(), BotFault> {
        self.link
            .send(&FrontendMessage::NewPiece { piece }, "sending `new_piece`")
    }

    /// Sends `stop`: the game is over for this bot.
    pub fn stop(&mut self) -> Result<(), BotFault> {
        self.link.send(&FrontendMessage::Stop, "sending `stop`")
    }

    /// Sends `quit` and waits for the process to exit (at most the timeout, then it is
    /// killed); its exit status, or `None` for a bot that is not a process of ours.
    pub fn quit(mut self) -> Result<Option<ExitStatus>, BotFault> {
        self.link.send(&FrontendMessage::Quit, "sending `quit`")?;
        self.link.exit()
    }
}

impl<M: Incoming> Link<M> {
    /// Starts `command` with piped standard input and output; its standard error goes where
    /// `options` says.
    pub fn launch(command: &BotCommand, options: BotOptions) -> Result<Link<M>, BotFault> {
        survive_closed_pipes();
        let stderr = match options.stderr {
            BotStderr::Inherit => Stdio::inherit(),
            BotStderr::Discard => Stdio::null(),
            BotStderr::File(file) => Stdio::from(file),
        };
        let mut process = Command::new(&command.program);
        process
            .args(&command.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(stderr);
        die_with_this_process(&mut process);
        let mut child = process.spawn().map_err(|e| BotFault::Spawn {
            command: command.to_string(),
            error: e.to_string(),
        })?;
        let input = child.stdin.take().expect("stdin was piped");
        let output = child.stdout.take().expect("stdout was piped");
        Ok(Link::over(output, input, Some(child), options.timeout))
    }

    /// A link over a reader of the bot's messages and a writer of ours, and its process if
    /// it is one.
    pub fn over(
        reader: impl Read + Send + 'static,
        writer: impl Write + Send + 'static,
        child: Option<Child>,
        timeout: Duration,
    ) -> Link<M> {
        let (sender, output) = mpsc::channel();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(reader);
            loop {
                let frame = read_frame(&mut reader);
                let last = !matches!(frame, Ok(Frame::Line(_) | Frame::Invalid { .. }));
                if sender.send(frame).is_err() || last {
                    return;
                }
            }
        });
        Link {
            child,
            input: Box::new(writer),
            output,
            timeout,
            fault: None,
            messages: PhantomData,
        }
    }

    /// Sets the wait for each later message.
    pub fn set_timeout(&mut self, timeout: Duration) {
        self.timeout = timeout;
    }

    /// The fault that ended this bot, if one did.
    pub fn fault(&self) -> Option<&BotFault> {
        self.fault.as_ref()
    }

    /// Waits for the process to exit once told to (at most the timeout, then it is killed);
    /// its exit status, or `None` for a bot that is not a process of ours.
    pub fn exit(&mut self) -> Result<Option<ExitStatus>, BotFault> {
        let Some(child) = self.child.as_mut() else {
            return Ok(None);
        };
        match wait(child, self.timeout) {
            Some(status) => Ok(Some(status)),
            None => Err(BotFault::TimedOut {
                awaited: "exit",
                after: self.timeout,
            }),
        }
    }

    /// Writes one message; a failed write is a bot that died or closed its input.
    pub fn send(&mut self, message: &impl Serialize, during: &'static str) -> Result<(), BotFault> {
        if let Some(fault) = &self.fault {
            return Err(fault.clone());
        }
        match write_message(&mut self.input, message) {
            Ok(()) => Ok(()),
            Err(_) => Err(self.ended(during, BotFault::ClosedInput { during })),
        }
    }

    /// Waits for the message `pick` takes (of type `awaited`); unknown types and other known
    /// ones are skipped (the spec lets bots grow), `error` is a fault.
    pub fn await_message<T>(
        &mut self,
        awaited: &'static str,
        during: &'static str,
        pick: impl Fn(M) -> Option<T>,
    ) -> Result<T, BotFault> {
        if let Some(fault) = &self.fault {
            return Err(fault.clone());
        }
        let deadline = Instant::now() + self.timeout;
        loop {
            let wait = deadline.saturating_duration_since(Instant::now());
            let frame = match self.output.recv_timeout(wait) {
                Ok(frame) => frame,
                Err(RecvTimeoutError::Timeout) => {
                    let after = self.timeout;
                    return Err(self.faulted(BotFault::TimedOut { awaited, after }));
                }
                Err(RecvTimeoutError::Disconnected) => Ok(Frame::End),
            };
            if let Some(wanted) = self.message(frame, during)?.and_then(&pick) {
                return Ok(wanted);
            }
        }
    }

    /// Reads what has already arrived, without waiting: a fault in it ends the bot, messages
    /// are dropped as stale.
    pub fn drain(&mut self) -> Result<(), BotFault> {
        if let Some(fault) = &self.fault {
            return Err(fault.clone());
        }
        loop {
            let frame = match self.output.try_recv() {
                Ok(frame) => frame,
                Err(TryRecvError::Empty) => return Ok(()),
                Err(TryRecvError::Disconnected) => Ok(Frame::End),
            };
            self.message(frame, "between requests")?;
        }
    }

    /// One frame from the reader thread as a message, or the fault it means.
    fn message(
        &mut self,
        frame: io::Result<Frame>,
        during: &'static str,
    ) -> Result<Option<M>, BotFault> {
        let protocol = M::PROTOCOL;
        let line = match frame {
            Ok(Frame::Line(line)) => line,
            Ok(Frame::Invalid { reason, start }) => {
                let error = reason.to_string();
                let line = start;
                return Err(self.faulted(BotFault::Garbage {
                    protocol,
                    line,
                    error,
                }));
            }
            Ok(Frame::End) | Err(_) => {
                return Err(self.ended(during, BotFault::ClosedOutput { during }));
            }
        };
        if line.trim().is_empty() {
            return Ok(None);
        }
        match serde_json::from_str::<M>(&line) {
            Ok(message) => match message.refusal() {
                Some(reason) => {
                    let reason = reason.to_string();
                    Err(self.faulted(BotFault::Refused { reason }))
                }
                None if message.unknown() => Ok(None),
                None => Ok(Some(message)),
            },
            Err(e) => {
                let (line, error) = (excerpt(&line), e.to_string());
                Err(self.faulted(BotFault::Garbage {
                    protocol,
                    line,
                    error,
                }))
            }
        }
    }

    /// The fault for a bot whose pipe closed: [`BotFault::Crashed`] when its process ends
    /// within the timeout, `alive` when it goes on running.
    fn ended(&mut self, during: &'static str, alive: BotFault) -> BotFault {
        let status = match self.child.as_mut() {
            Some(child) => wait(child, self.timeout),
            None => None,
        };
        self.faulted(match status {
            Some(status) => BotFault::Crashed { status, during },
            None => alive,
        })
    }

    /// Records `fault`, kills the process, and hands the fault back.
    fn faulted(&mut self, fault: BotFault) -> BotFault {
        self.kill();
        self.fault = Some(fault.clone());
        fault
    }
}

impl<M> Link<M> {
    fn kill(&mut self) {
        if let Some(mut child) = self.child.take() {
            // Both fail only for a process already reaped, which is what is wanted.
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

impl<M> Drop for Link<M> {
    fn drop(&mut self) {
        self.kill();
    }
}

/// Lets a write to a peer that has closed its end (a bot that died, a front end that left) come
/// back as an error instead of killing this process by SIGPIPE. The `stacktune` binary
/// restores SIGPIPE's default so that `play | head` ends quietly; whatever starts a bot or
/// serves as one sets it back to ignored first, here in the protocol, so that every command
/// that talks to a bot (`versus`, `play` and `evolve` with a `tbp:` opponent, `tbp`) survives
/// a peer that leaves and says so in a line.
pub fn survive_closed_pipes() {
    // SAFETY: only changes one signal's disposition to ignored, which is always sound.
    #[cfg(unix)]
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_IGN);
    }
}

/// `child`'s exit status if it exits within `timeout`. WebAssembly has no processes (a bot's
/// command cannot start there), so there it is only whether the child has already exited.
fn wait(child: &mut Child, timeout: Duration) -> Option<ExitStatus> {
    #[cfg(not(target_family = "wasm"))]
    return wait_timeout::ChildExt::wait_timeout(child, timeout)
        .ok()
        .flatten();
    #[cfg(target_family = "wasm")]
    {
        let _ = timeout;
        child.try_wait().ok().flatten()
    }
}
