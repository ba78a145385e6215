//! The front-end side of TBP (`tbp::client::Bot`) against a scripted fake bot, one mode per
//! way a bot can fail, and against stacktune's own bot driver in one process.
//!
//! This test binary is also the fake bot: run as `tbp_client --fake-bot MODE` it speaks TBP
//! on its standard input and output, written line by line here rather than with the library's
//! driver, so the client is tried against an independent bot. libtest's harness prints on
//! standard output before any test runs, which would be the bot's first line; so this target
//! has `harness = false` and the small runner in `main`.

use serde_json::{Value, json};
use stacktune_tbp::bot::{Brain, serve};
use stacktune_tbp::client::{Bot, BotCommand, BotFault, BotOptions, BotStderr};
use stacktune_tbp::messages::{
    Board, Info, Location, Move, Orientation, Piece, Randomizer, RandomizerState, Rules, Spin,
    Start, Suggestion,
};
use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::time::Duration;

/// A wait no healthy exchange comes near, even on a loaded machine.
const PATIENT: Duration = Duration::from_secs(20);
/// The wait for tests where the bot never answers: how long it is changes only the test's
/// duration, never its outcome.
const SHORT: Duration = Duration::from_millis(300);

fn fake_bot(mode: &str) -> BotCommand {
    BotCommand {
        program: std::env::current_exe().unwrap().into(),
        args: vec!["--fake-bot".into(), mode.into()],
    }
}

fn launch(mode: &str, timeout: Duration) -> Result<Bot, BotFault> {
    let rules = Rules {
        randomizer: Randomizer::SevenBag,
    };
    let options = BotOptions {
        timeout,
        stderr: BotStderr::Discard,
    };
    Bot::launch(&fake_bot(mode), &rules, options)
}

fn bag_start() -> Start {
    use Piece::*;
    Start {
        hold: None,
        queue: vec![T, I, O, L, J, S],
        combo: 0,
        back_to_back: false,
        board: Board::EMPTY,
        randomizer: Some(RandomizerState::SevenBag { bag_state: vec![Z] }),
    }
}

/// The move the fake bot suggests for `piece`, and what it tells of the game so far.
fn expected_move(piece: Piece) -> Move {
    Move {
        location: Location {
            piece,
            orientation: Orientation::North,
            x: 4,
            y: 0,
        },
        spin: Spin::None,
    }
}

/// The fake bot's pid, which it gives as its version.
fn pid(bot: &Bot) -> u32 {
    bot.info().version.parse().unwrap()
}

fn process_is_gone(pid: u32) -> bool {
    !Path::new(&format!("/proc/{pid}")).exists()
}

/// A good bot through the spec's lifecycle: its info, two games, its standard error in a
/// file, and its exit after `quit`.
fn a_good_bot_plays_through_the_lifecycle() {
    let log = tempfile::NamedTempFile::new().unwrap();
    let options = BotOptions {
        timeout: PATIENT,
        stderr: BotStderr::File(log.reopen().unwrap()),
    };
    let rules = Rules {
        randomizer: Randomizer::SevenBag,
    };
    let mut bot = Bot::launch(&fake_bot("good"), &rules, options).unwrap();
    assert_eq!(bot.info().name, "fake");
    assert_eq!(bot.info().author, "stacktune tests");
    assert_eq!(bot.info().features, ["randomizer"]);
    bot.start(&bag_start()).unwrap();
    let first = bot.suggest().unwrap();
    assert_eq!(first.moves, [expected_move(Piece::T)]);
    assert_eq!(
        first.move_info.unwrap().extra.unwrap(),
        "rules seven_bag, bag [Z], played 0, queue TIOLJS"
    );
    bot.play(&first.moves[0]).unwrap();
    bot.new_piece(Piece::Z).unwrap();
    let second = bot.suggest().unwrap();
    assert_eq!(second.moves, [expected_move(Piece::I)]);
    assert_eq!(
        second.move_info.unwrap().extra.unwrap(),
        "rules seven_bag, bag [Z], played 1, queue IOLJSZ"
    );
    bot.stop().unwrap();
    let mut again = bag_start();
    again.queue = vec![Piece::S];
    again.randomizer = None;
    bot.start(&again).unwrap();
    let third = bot.suggest().unwrap();
    assert_eq!(third.moves, [expected_move(Piece::S)]);
    assert_eq!(
        third.move_info.unwrap().extra.unwrap(),
        "rules seven_bag, bag none, played 0, queue S"
    );
    let status = bot.quit().unwrap().unwrap();
    assert!(status.success(), "{status}");
    let log = std::fs::read_to_string(log.path()).unwrap();
    assert_eq!(log, "fake bot good: hello\nfake bot good: quit\n");
}

/// Messages of unknown types, before `info` and between answers, are skipped.
fn unknown_messages_from_a_bot_are_skipped() {
    let mut bot = launch("unknowns", PATIENT).unwrap();
    bot.start(&bag_start()).unwrap();
    assert_eq!(bot.suggest().unwrap().moves, [expected_move(Piece::T)]);
    bot.play(&expected_move(Piece::T)).unwrap();
    assert_eq!(bot.suggest().unwrap().moves, [expected_move(Piece::I)]);
    assert!(bot.quit().unwrap().unwrap().success());
}

fn a_bot_that_cannot_start_is_a_spawn_fault() {
    let command: BotCommand = "/nonexistent/cold-clear-2 --fast".parse().unwrap();
    let fault = Bot::launch(&command, &Rules::default(), BotOptions::default())
        .err()
        .unwrap();
    assert_eq!(
        fault.to_string(),
        "cannot start the bot `/nonexistent/cold-clear-2 --fast`: No such file or directory \
         (os error 2)"
    );
}

fn a_bot_that_refuses_the_rules_is_refused() {
    let fault = launch("refuse", PATIENT).err().unwrap();
    assert_eq!(
        fault,
        BotFault::Refused {
            reason: "unsupported_rules".into()
        }
    );
    assert_eq!(fault.to_string(), "the bot sent `error`: unsupported_rules");
}

fn a_bot_that_never_says_info_times_out() {
    let fault = launch("silent", SHORT).err().unwrap();
    assert_eq!(
        fault,
        BotFault::TimedOut {
            awaited: "info",
            after: SHORT
        }
    );
    assert_eq!(fault.to_string(), "the bot sent no `info` within 300 ms");
}

/// Plays the first exchange of a game, which every fake bot answers well, and asks for the
/// second, where each fails its own way.
/// The first exchange waits as long as a loaded machine may need, the second `timeout`.
fn second_suggestion(mode: &str, timeout: Duration) -> (Bot, BotFault) {
    let mut bot = launch(mode, PATIENT).unwrap();
    bot.start(&bag_start()).unwrap();
    let first = bot.suggest().unwrap();
    bot.play(&first.moves[0]).unwrap();
    bot.new_piece(Piece::Z).unwrap();
    bot.set_timeout(timeout);
    let fault = bot.suggest().unwrap_err();
    (bot, fault)
}

/// A crash mid-game gives its exit status, and every later call the same fault.
fn a_bot_that_crashes_mid_game_is_crashed() {
    let (mut bot, fault) = second_suggestion("crash", PATIENT);
    let BotFault::Crashed { status, during } = &fault else {
        panic!("{fault:?}")
    };
    assert_eq!(
        (status.code(), *during),
        (Some(3), "waiting for `suggestion`")
    );
    assert_eq!(
        fault.to_string(),
        "the bot ended (exit status: 3) while waiting for `suggestion`"
    );
    assert_eq!(bot.play(&expected_move(Piece::I)), Err(fault.clone()));
    assert_eq!(bot.suggest(), Err(fault.clone()));
    assert_eq!(bot.fault(), Some(&fault));
}

/// A bot that stops answering times out and is killed at once.
fn a_bot_that_hangs_mid_game_times_out_and_is_killed() {
    let (bot, fault) = second_suggestion("hang", SHORT);
    assert_eq!(
        fault,
        BotFault::TimedOut {
            awaited: "suggestion",
            after: SHORT
        }
    );
    assert_eq!(
        fault.to_string(),
        "the bot sent no `suggestion` within 300 ms"
    );
    assert!(process_is_gone(pid(&bot)));
}

fn a_bot_that_prints_garbage_sent_garbage() {
    let (_bot, fault) = second_suggestion("garbage", PATIENT);
    assert_eq!(
        fault,
        BotFault::Garbage {
            line: "I think the T goes left".into(),
            error: "expected value at line 1 column 1".into()
        }
    );
    assert_eq!(
        fault.to_string(),
        "the bot sent a line that is not a TBP message (expected value at line 1 column 1): \
         I think the T goes left"
    );
}

/// A bot that closes its output but goes on running is told apart from one that ended.
fn a_bot_that_closes_its_output_closed_its_output() {
    let (bot, fault) = second_suggestion("close", SHORT);
    assert_eq!(
        fault,
        BotFault::ClosedOutput {
            during: "waiting for `suggestion`"
        }
    );
    assert_eq!(
        fault.to_string(),
        "the bot closed its output while waiting for `suggestion`"
    );
    assert!(process_is_gone(pid(&bot)));
}

/// Dropping a bot kills its process (and reaps it).
fn dropping_a_bot_kills_its_process() {
    let bot = launch("hang", PATIENT).unwrap();
    let pid = pid(&bot);
    assert!(!process_is_gone(pid));
    drop(bot);
    assert!(process_is_gone(pid));
}

/// The match's own verdict on a suggestion reads like the others.
fn no_valid_move_reads_as_a_fault() {
    let fault = BotFault::NoValidMove { suggested: 3 };
    assert_eq!(
        fault.to_string(),
        "the bot suggested no valid move (3 suggested)"
    );
}

fn bot_commands_split_as_a_shell_splits_them() {
    let command: BotCommand = "bots/cc2 --config 'my weights.json' -v".parse().unwrap();
    assert_eq!(command.program, "bots/cc2");
    assert_eq!(command.args, ["--config", "my weights.json", "-v"]);
    assert_eq!(
        "cc2 \"--x".parse::<BotCommand>().unwrap_err(),
        "bot command `cc2 \"--x` has an unclosed quote"
    );
    assert_eq!(
        "  ".parse::<BotCommand>().unwrap_err(),
        "the bot command is empty"
    );
}

/// A brain that always suggests the first piece of its queue at the bottom, north.
struct Fixed {
    queue: Vec<Piece>,
}

impl Brain for Fixed {
    fn info(&self) -> Info {
        Info {
            name: "fixed".into(),
            version: "1".into(),
            author: "stacktune tests".into(),
            features: vec![],
        }
    }
    fn rules(&mut self, _: &Rules) -> Result<(), String> {
        Ok(())
    }
    fn start(&mut self, start: &Start) {
        self.queue = start.queue.clone();
    }
    fn suggest(&mut self) -> Suggestion {
        Suggestion {
            moves: self
                .queue
                .first()
                .map(|&p| expected_move(p))
                .into_iter()
                .collect(),
            move_info: None,
        }
    }
    fn play(&mut self, _: &Move) -> Result<(), String> {
        self.queue.remove(0);
        Ok(())
    }
    fn new_piece(&mut self, piece: Piece) {
        self.queue.push(piece);
    }
    fn stop(&mut self) {}
}

/// stacktune's bot driver and its front end, joined by two pipes in one process.
fn the_bot_driver_and_the_client_understand_each_other() {
    let (to_bot_reader, to_bot_writer) = std::io::pipe().unwrap();
    let (from_bot_reader, from_bot_writer) = std::io::pipe().unwrap();
    let server = std::thread::spawn(move || {
        let mut brain = Fixed { queue: vec![] };
        serve(BufReader::new(to_bot_reader), from_bot_writer, &mut brain)
    });
    let rules = Rules::default();
    let mut bot = Bot::connect(from_bot_reader, to_bot_writer, &rules, PATIENT).unwrap();
    assert_eq!(bot.info().name, "fixed");
    bot.start(&bag_start()).unwrap();
    for piece in [Piece::T, Piece::I, Piece::O, Piece::L] {
        let suggestion = bot.suggest().unwrap();
        assert_eq!(suggestion.moves, [expected_move(piece)]);
        bot.play(&suggestion.moves[0]).unwrap();
        bot.new_piece(Piece::Z).unwrap();
    }
    bot.stop().unwrap();
    assert_eq!(bot.quit().unwrap(), None);
    server.join().unwrap().unwrap();
}

/// The fake bot: `info` (its pid as version), then answers by `mode`. Good answers suggest
/// the queue's first piece, north at (4, 0), and say in `move_info.extra` what it was told.
fn run_fake_bot(mode: &str) {
    let mut bot = FakeBot {
        mode,
        out: std::io::stdout().lock(),
        rules: String::new(),
        bag: String::new(),
        queue: Vec::new(),
        played: 0,
        suggests: 0,
    };
    eprintln!("fake bot {mode}: hello");
    let lines = std::io::stdin().lock().lines().map(Result::unwrap);
    if mode == "silent" {
        return lines.for_each(drop);
    }
    if mode == "unknowns" {
        bot.say(json!({"type": "greeting", "text": "hi"}));
    }
    bot.say(
        json!({"type": "info", "name": "fake", "version": std::process::id().to_string(),
        "author": "stacktune tests", "features": ["randomizer"]}),
    );
    for line in lines {
        let message: Value = serde_json::from_str(&line).unwrap();
        match message["type"].as_str().unwrap() {
            "rules" if mode == "refuse" => {
                bot.say(json!({"type": "error", "reason": "unsupported_rules"}))
            }
            "rules" => {
                bot.rules = message["randomizer"].as_str().unwrap_or("none").into();
                bot.say(json!({"type": "ready"}))
            }
            "start" => bot.start(&message),
            "play" => {
                bot.queue.remove(0);
                bot.played += 1;
            }
            "new_piece" => bot.queue.push(message["piece"].as_str().unwrap().into()),
            "suggest" => bot.suggest(),
            "quit" => {
                eprintln!("fake bot {mode}: quit");
                return;
            }
            _ => {}
        }
    }
}

/// The fake bot as it plays: its mode, its output, and what it was told of the game (the
/// rules' randomizer, the bag at the start, the queue, the pieces played) and asked so far.
struct FakeBot<'a> {
    mode: &'a str,
    out: std::io::StdoutLock<'static>,
    rules: String,
    bag: String,
    queue: Vec<String>,
    played: u32,
    suggests: u32,
}

impl FakeBot<'_> {
    /// Sends `v`, a line of its own.
    fn say(&mut self, v: Value) {
        writeln!(self.out, "{v}").unwrap();
        self.out.flush().unwrap();
    }

    /// A game starts: its queue and bag.
    fn start(&mut self, message: &Value) {
        let strings = |v: &Value| -> Vec<String> {
            let list = v.as_array().unwrap().iter();
            list.map(|p| p.as_str().unwrap().to_string()).collect()
        };
        self.queue = strings(&message["queue"]);
        self.bag = match message["randomizer"]["bag_state"].is_array() {
            true => format!(
                "[{}]",
                strings(&message["randomizer"]["bag_state"]).concat()
            ),
            false => "none".into(),
        };
        self.played = 0;
    }

    /// Answers `suggest`, except for the second in a failing mode, which crashes, hangs,
    /// prints garbage or closes its output instead; `close-input` closes its input before it
    /// answers the first.
    fn suggest(&mut self) {
        self.suggests += 1;
        if self.suggests == 1 && self.mode == "close-input" {
            // SAFETY: closes this process's standard input, which nothing here reads again:
            // the front end's `play` after this suggestion finds no reader (its write fails
            // with EPIPE, which would kill it by SIGPIPE if it did not survive it).
            unsafe { libc::close(0) };
        }
        if self.suggests == 2 {
            match self.mode {
                "crash" => std::process::exit(3),
                "hang" => return,
                "garbage" => {
                    println!("I think the T goes left");
                    return;
                }
                "close" => {
                    // SAFETY: closes this process's standard output, which nothing here
                    // writes to again.
                    unsafe { libc::close(1) };
                    return;
                }
                _ => {}
            }
        }
        if self.mode == "unknowns" {
            self.say(json!({"type": "thinking", "nodes": 5}));
        }
        let extra = format!(
            "rules {}, bag {}, played {}, queue {}",
            self.rules,
            self.bag,
            self.played,
            self.queue.concat()
        );
        self.say(
            json!({"type": "suggestion", "moves": [{"location": {"type": self.queue[0],
            "orientation": "north", "x": 4, "y": 0}, "spin": "none"}],
            "move_info": {"extra": extra}}),
        )
    }
}

/// `versus` against the fake bot in `mode`: the JSON report of two games.
fn versus_against(mode: &str, flags: &[&str]) -> Value {
    let bot = format!(
        "tbp:{} --fake-bot {mode}",
        std::env::current_exe().unwrap().display()
    );
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_stacktune"))
        .args([
            "versus",
            "weights/versus/hand.toml",
            &bot,
            "--games",
            "2",
            "--json",
            "--quiet",
        ])
        .args(flags)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

/// A bot that crashes, hangs or prints garbage in a match loses that game with the fault as
/// its reason, and the match goes on to its next game (each game starts the bot afresh).
fn versus_scores_a_failing_bot_as_a_loss_and_plays_on() {
    for (mode, flags, reason) in [
        (
            "crash",
            &[][..],
            "second failed: the bot ended (exit status: 3) while waiting for `suggestion`",
        ),
        (
            "hang",
            &["--think-ms", "0", "--timeout-ms", "300"][..],
            "second failed: the bot sent no `suggestion` within 300 ms",
        ),
        (
            "garbage",
            &[][..],
            "second failed: the bot sent a line that is not a TBP message (expected value at line 1 column 1): I think the T goes left",
        ),
    ] {
        let report = versus_against(mode, flags);
        assert_eq!(
            (report["wins"].as_u64(), report["losses"].as_u64()),
            (Some(2), Some(0)),
            "{mode}"
        );
        assert_eq!(report["endings"], json!({ reason: 2 }), "{mode}");
    }
}

/// A bot that closes its input mid-game (the front end's next write fails with EPIPE) loses
/// that game with its reason in `versus`, `play` and `evolve` alike: none of them is killed by
/// SIGPIPE, whichever command started the bot.
fn a_bot_that_closes_its_input_loses_in_every_command() {
    // Whether the bot has exited by the front end's write (it ends once its input is gone)
    // decides which of the two the fault says; either way it is the write of `play`.
    let report = versus_against("close-input", &[]);
    let endings = report["endings"].as_object().unwrap();
    let (reason, games) = endings.iter().next().unwrap();
    assert!(
        endings.len() == 1
            && games == 2
            && (reason == "second failed: the bot closed its input while sending `play`"
                || reason == "second failed: the bot ended (exit status: 0) while sending `play`"),
        "{endings:?}"
    );
    let bot = format!(
        "tbp:{} --fake-bot close-input",
        std::env::current_exe().unwrap().display()
    );
    let hand = "weights/versus/hand.toml";
    let play = [
        "play",
        "--weights",
        hand,
        "--opponent",
        &bot,
        "--games",
        "2",
        "--json",
        "--quiet",
    ];
    let out = stacktune(&play);
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["opponents"][0]["wins"], json!(2), "{report}");
    let dir = tempfile::tempdir().unwrap();
    let run = dir.path().join("run");
    let evolve = [
        "evolve",
        "--game",
        "tetris",
        "--rules",
        "guideline",
        "--opponent",
        &bot,
        "--generations",
        "1",
        "--population",
        "2",
        "--games",
        "1",
        "--max-pieces",
        "20",
        "--quiet",
        "--out",
    ];
    let mut args: Vec<&str> = evolve.to_vec();
    args.push(run.to_str().unwrap());
    stacktune(&args);
}

/// Runs the `stacktune` binary from the repository's root, which must succeed.
fn stacktune(args: &[&str]) -> std::process::Output {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_stacktune"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{args:?}: {:?} {}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

type Test = (&'static str, fn());

const TESTS: &[Test] = &[
    (
        "a_bot_that_closes_its_input_loses_in_every_command",
        a_bot_that_closes_its_input_loses_in_every_command,
    ),
    (
        "a_good_bot_plays_through_the_lifecycle",
        a_good_bot_plays_through_the_lifecycle,
    ),
    (
        "unknown_messages_from_a_bot_are_skipped",
        unknown_messages_from_a_bot_are_skipped,
    ),
    (
        "a_bot_that_cannot_start_is_a_spawn_fault",
        a_bot_that_cannot_start_is_a_spawn_fault,
    ),
    (
        "a_bot_that_refuses_the_rules_is_refused",
        a_bot_that_refuses_the_rules_is_refused,
    ),
    (
        "a_bot_that_never_says_info_times_out",
        a_bot_that_never_says_info_times_out,
    ),
    (
        "a_bot_that_crashes_mid_game_is_crashed",
        a_bot_that_crashes_mid_game_is_crashed,
    ),
    (
        "a_bot_that_hangs_mid_game_times_out_and_is_killed",
        a_bot_that_hangs_mid_game_times_out_and_is_killed,
    ),
    (
        "a_bot_that_prints_garbage_sent_garbage",
        a_bot_that_prints_garbage_sent_garbage,
    ),
    (
        "a_bot_that_closes_its_output_closed_its_output",
        a_bot_that_closes_its_output_closed_its_output,
    ),
    (
        "dropping_a_bot_kills_its_process",
        dropping_a_bot_kills_its_process,
    ),
    (
        "no_valid_move_reads_as_a_fault",
        no_valid_move_reads_as_a_fault,
    ),
    (
        "bot_commands_split_as_a_shell_splits_them",
        bot_commands_split_as_a_shell_splits_them,
    ),
    (
        "the_bot_driver_and_the_client_understand_each_other",
        the_bot_driver_and_the_client_understand_each_other,
    ),
    (
        "versus_scores_a_failing_bot_as_a_loss_and_plays_on",
        versus_scores_a_failing_bot_as_a_loss_and_plays_on,
    ),
];

/// Runs the fake bot when asked to be one; lists the tests for `--list`; otherwise runs the
/// tests whose names contain one of the arguments that are not flags (all of them when there
/// is none), as libtest would.
fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if let [flag, mode] = &args[..]
        && flag == "--fake-bot"
    {
        return run_fake_bot(mode);
    }
    if args.iter().any(|a| a == "--list") {
        return TESTS.iter().for_each(|(name, _)| println!("{name}: test"));
    }
    let filters: Vec<&String> = args.iter().filter(|a| !a.starts_with('-')).collect();
    let chosen = TESTS
        .iter()
        .filter(|(name, _)| filters.is_empty() || filters.iter().any(|f| name.contains(*f)));
    let (mut passed, mut failed) = (0, Vec::new());
    for (name, test) in chosen {
        println!("test {name} ...");
        match std::panic::catch_unwind(test) {
            Ok(()) => passed += 1,
            Err(_) => failed.push(*name),
        }
    }
    println!("{passed} passed, {} failed: {failed:?}", failed.len());
    if !failed.is_empty() {
        std::process::exit(101);
    }
}
