//! The front-end side of TBP (`tbp::client::Bot`) against a scripted fake bot, one mode per
//! way a bot can fail, and against stacktune's own bot driver in one process.
//!
//! This test binary is also the fake bot: run as `tbp_client --fake-bot MODE` it speaks TBP
//! on its standard input and output, written line by line here rather than with the library's
//! driver, so the client is tried against an independent bot. libtest's harness prints on
//! standard output before any test runs, which would be the bot's first line; so this target
//! has `harness = false` and the small runner of `common::bots`.

#[path = "integration/common/mod.rs"]
mod common;
use common::bots::{Test, fake_bot_player, test_main, versus_report};
use serde_json::{Value, json};
use stacktune_games::tetris::guideline::matches::Contestant;
use stacktune_games::tetris::guideline::rules::Rules as GuidelineRules;
use stacktune_games::tetris::guideline::tbp::front::{BotSettings, BotSide};
use stacktune_games::tetris::guideline::tbp::{index, side_of, tbp_move};
use stacktune_games::tetris::guideline::{Guideline, Mode};
use stacktune_tbp::bot::{Brain, serve};
use stacktune_tbp::client::{Bot, BotCommand, BotFault, BotOptions, BotStderr};
use stacktune_tbp::messages::{
    Board, Info, Location, Move, Orientation, Piece, Randomizer, RandomizerState, Rules, Spin,
    Start, Suggestion,
};
use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
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
            protocol: "TBP",
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
    let bot = fake_bot_player("tbp", mode, &[]);
    versus_report(
        "weights/versus/hand.toml",
        &bot,
        &[&["--games", "2"], flags].concat(),
    )
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
    let out = common::run(args);
    assert!(
        out.status.success(),
        "{args:?}: {:?} {}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// A file of `tests/data/tbp/`.
fn data(name: &str) -> PathBuf {
    common::root().join("tests/data/tbp").join(name)
}

/// A conversation recorded from a real bot: the position it started from and, a piece at a
/// time, what it suggested, the recording relay's `play` (its suggestion echoed byte for
/// byte) and the pieces dealt after it.
struct Recording {
    start: Start,
    turns: Vec<Turn>,
}

struct Turn {
    suggested: Value,
    play: String,
    dealt: Vec<Piece>,
}

fn recording(name: &str) -> Recording {
    let text = std::fs::read_to_string(data(name)).unwrap();
    let mut start = None;
    let mut turns: Vec<Turn> = Vec::new();
    for line in text.lines() {
        let (from, message) = line.split_at(2);
        let value: Value = serde_json::from_str(message).unwrap();
        match (from, value["type"].as_str().unwrap()) {
            ("> ", "start") => start = Some(serde_json::from_value(value).unwrap()),
            ("< ", "suggestion") => turns.push(Turn {
                suggested: value["moves"][0].clone(),
                play: String::new(),
                dealt: Vec::new(),
            }),
            ("> ", "play") => turns.last_mut().unwrap().play = message.to_string(),
            ("> ", "new_piece") => {
                let piece = serde_json::from_value(value["piece"].clone()).unwrap();
                turns.last_mut().unwrap().dealt.push(piece)
            }
            _ => {}
        }
    }
    Recording {
        start: start.unwrap(),
        turns,
    }
}

/// The front end (`BotSide`, as `versus` runs it) against a recorded bot replayed line by
/// line, the game following the recording: every line the front end sent, and how many of the
/// bot's moves the rules name otherwise.
fn replay_through_front_end(name: &str, recorded: &Recording) -> (String, usize) {
    let log = tempfile::NamedTempFile::new().unwrap();
    let args = [
        "--fake-bot".into(),
        "replay".into(),
        data(name).into_os_string(),
        log.path().into(),
    ];
    let settings = BotSettings {
        command: BotCommand {
            program: std::env::current_exe().unwrap().into(),
            args: args.to_vec(),
        },
        think: Duration::ZERO,
        timeout: PATIENT,
    };
    let game = Guideline::new(GuidelineRules::default(), Mode::Versus);
    let mut bot = BotSide::launch(&settings).unwrap();
    let mut side = side_of(&recorded.start);
    bot.sync(&game, &side).unwrap();
    let mut renamed = 0;
    for turn in &recorded.turns {
        let mv = bot.choose(&game, &side).unwrap();
        renamed += (serde_json::to_value(tbp_move(&mv)).unwrap() != turn.suggested) as usize;
        side.lock(game.rules_of(), mv.hold, &mv.placement, false);
        turn.dealt.iter().for_each(|&p| side.queue.push(index(p)));
        bot.played(&game, mv, &side).unwrap();
    }
    let sent = lines_once_there(log.path(), "\"type\":\"play\"", recorded.turns.len());
    (sent, renamed)
}

/// The text of `path` once `n` of its lines contain `marker` (a bot's log, written as it
/// reads), at most the patient wait.
fn lines_once_there(path: &Path, marker: &str, n: usize) -> String {
    let since = std::time::Instant::now();
    loop {
        let text = std::fs::read_to_string(path).unwrap();
        if text.lines().filter(|l| l.contains(marker)).count() >= n || since.elapsed() > PATIENT {
            return text;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Cold Clear 1 and Cold Clear 2, replayed from their recorded lines (tests/data/tbp/): each
/// `play` the front end sends is the bot's own suggestion as the bot wrote it, the very line
/// the recording relay echoed, though the rules' own names differ for some of those moves (S,
/// Z and I name most placements two ways, and Cold Clear 1 keeps whichever it found first).
fn the_front_end_plays_back_recorded_bots_own_moves() {
    for (name, renamed_at_least) in [
        ("cold-clear-1.tbp", 1),
        ("cold-clear-1-garbage-hold.tbp", 1),
        ("cold-clear-2.tbp", 0),
        ("cold-clear-2-garbage-hold.tbp", 0),
    ] {
        let recorded = recording(name);
        assert_eq!(recorded.turns.len(), 40, "{name}");
        let (sent, renamed) = replay_through_front_end(name, &recorded);
        let plays: Vec<&str> = sent.lines().filter(|l| l.contains("\"play\"")).collect();
        let relayed: Vec<&str> = recorded.turns.iter().map(|t| t.play.as_str()).collect();
        assert_eq!(plays, relayed, "{name}");
        for (play, turn) in plays.iter().zip(&recorded.turns) {
            let play: Value = serde_json::from_str(play).unwrap();
            assert_eq!(play["move"], turn.suggested, "{name}");
        }
        assert!(renamed >= renamed_at_least, "{name}: {renamed} renamed");
        let restated = sent.lines().filter(|l| l.contains("\"start\"")).count() - 1;
        println!(
            "{name}: 40 moves played back, {renamed} named otherwise by the rules, the \
             position restated {restated} times (the rules' spin not the bot's)"
        );
    }
}

/// The recorded bot: says the recording's bot lines (`<`) in order, the next one whenever
/// it is told something that awaits an answer (`rules`, `suggest`), whatever it was told, and
/// writes every line it is told to `log` as it reads it.
fn run_replay_bot(recording: &str, log: &str) {
    let text = std::fs::read_to_string(recording).unwrap();
    let mut said = text.lines().filter_map(|l| l.strip_prefix("< "));
    let mut log = std::fs::File::create(log).unwrap();
    let mut out = std::io::stdout().lock();
    let mut say = |line: Option<&str>| {
        writeln!(out, "{}", line.expect("a recorded line to say")).unwrap();
        out.flush().unwrap();
    };
    say(said.next());
    for line in std::io::stdin().lock().lines().map(Result::unwrap) {
        log.write_all(format!("{line}\n").as_bytes()).unwrap();
        let message: Value = serde_json::from_str(&line).unwrap();
        match message["type"].as_str().unwrap() {
            "rules" | "suggest" => say(said.next()),
            "quit" => return,
            _ => {}
        }
    }
}

/// A bot that, like Cold Clear 1, keeps its own game (board and queue, from `start`, its own
/// moves and `new_piece`) and knows a `play` only as the move it suggested: any other (another
/// name of the same cells, another spin) ends it with exit status 4. It drops each piece
/// straight down where a greedy evaluation likes it best, never holds, and names its S, Z, I
/// and O placements by turns the first and the last way it found them, so the front end's
/// own names and the bot's differ often. As `strict-mini` it claims every T drop is a T-spin
/// mini, which the rules do not count: the front end must still echo the bot's spin.
#[derive(Default)]
struct StrictBot {
    /// Claims `mini` for every T.
    mini: bool,
    /// `board[y][x]`, y = 0 the bottom row.
    board: Vec<[bool; 10]>,
    queue: VecDeque<Piece>,
    suggested: Option<Move>,
    suggests: u32,
}

const ORIENTATIONS: [Orientation; 4] = [
    Orientation::North,
    Orientation::East,
    Orientation::South,
    Orientation::West,
];

impl StrictBot {
    fn run(mut self) {
        let mut out = std::io::stdout().lock();
        let mut say = |v: Value| {
            writeln!(out, "{v}").unwrap();
            out.flush().unwrap();
        };
        say(json!({"type": "info", "name": "strict", "version": "1",
            "author": "stacktune tests", "features": []}));
        for line in std::io::stdin().lock().lines().map(Result::unwrap) {
            let message: Value = serde_json::from_str(&line).unwrap();
            match message["type"].as_str().unwrap() {
                "rules" => say(json!({"type": "ready"})),
                "start" => self.start(serde_json::from_value(message).unwrap()),
                "suggest" => {
                    self.suggested = self.best();
                    self.suggests += 1;
                    say(json!({"type": "suggestion", "moves": Vec::from_iter(self.suggested)}))
                }
                "play" => self.play(serde_json::from_value(message["move"].clone()).unwrap()),
                "new_piece" => self
                    .queue
                    .push_back(serde_json::from_value(message["piece"].clone()).unwrap()),
                "quit" => return,
                _ => {}
            }
        }
    }

    fn start(&mut self, start: Start) {
        let rows = start.board.rows.iter();
        self.board = rows.map(|row| row.map(|c| c.is_some())).collect();
        self.queue = start.queue.into();
        self.suggested = None;
    }

    fn play(&mut self, mv: Move) {
        if Some(mv) != self.suggested {
            eprintln!("strict bot: told {mv:?}, which it did not suggest");
            std::process::exit(4);
        }
        self.lock(mv.location.cells());
        self.queue.pop_front();
        self.suggested = None;
    }

    fn free(&self, cells: [(i32, i32); 4]) -> bool {
        cells.iter().all(|&(x, y)| {
            (0..10).contains(&x) && (0..40).contains(&y) && !self.board[y as usize][x as usize]
        })
    }

    /// Fills `cells` and clears the full rows; the rows cleared.
    fn lock(&mut self, cells: [(i32, i32); 4]) -> usize {
        for (x, y) in cells {
            self.board[y as usize][x as usize] = true;
        }
        let before = self.board.len();
        self.board.retain(|row| !row.iter().all(|&c| c));
        let cleared = before - self.board.len();
        self.board.resize(before, [false; 10]);
        cleared
    }

    /// Every place the current piece drops to from the top, one move a set of cells.
    fn drops(&self) -> Vec<Move> {
        let Some(&piece) = self.queue.front() else {
            return Vec::new();
        };
        let mut found: Vec<Move> = Vec::new();
        for orientation in ORIENTATIONS {
            for x in -2..12 {
                let at = |y| Location {
                    piece,
                    orientation,
                    x,
                    y,
                };
                if !self.free(at(37).cells()) {
                    continue;
                }
                let y = (0..37)
                    .rev()
                    .take_while(|&y| self.free(at(y).cells()))
                    .last();
                let mini = self.mini && piece == Piece::T;
                let mv = Move {
                    location: at(y.unwrap_or(37)),
                    spin: if mini { Spin::Mini } else { Spin::None },
                };
                match found.iter_mut().find(|f| same_cells(f, &mv)) {
                    Some(f) if self.suggests % 2 == 1 => *f = mv,
                    Some(_) => {}
                    None => found.push(mv),
                }
            }
        }
        found
    }

    /// The drop a greedy evaluation (height, holes, bumpiness, lines) likes best.
    fn best(&self) -> Option<Move> {
        let score = |mv: &Move| {
            let mut after = StrictBot {
                board: self.board.clone(),
                ..StrictBot::default()
            };
            let lines = after.lock(mv.location.cells()) as f64;
            let heights: Vec<f64> = (0..10)
                .map(|x| {
                    (0..40)
                        .rev()
                        .find(|&y| after.board[y][x])
                        .map_or(0, |y| y + 1) as f64
                })
                .collect();
            let filled: usize = after.board.iter().flatten().filter(|&&c| c).count();
            let holes = heights.iter().sum::<f64>() - filled as f64;
            let bumps: f64 = heights.windows(2).map(|w| (w[0] - w[1]).abs()).sum();
            0.76 * lines - 0.51 * heights.iter().sum::<f64>() - 0.36 * holes - 0.18 * bumps
        };
        let drops = self.drops();
        let best = drops.iter().map(score).fold(f64::NEG_INFINITY, f64::max);
        drops.into_iter().find(|mv| score(mv) == best)
    }
}

fn same_cells(a: &Move, b: &Move) -> bool {
    let sorted = |mv: &Move| {
        let mut cells = mv.location.cells();
        cells.sort();
        cells
    };
    a.location.piece == b.location.piece && sorted(a) == sorted(b)
}

/// Against a bot that knows only its own moves (`--fake-bot strict`, failing on any `play`
/// it did not suggest, as Cold Clear 1 loses its queue), whole games in `versus` and in
/// `play`: each ends by the rules (a side topped out), never by the bot's fault; the same
/// in `versus` when the bot claims spins the rules do not count (`strict-mini`).
fn a_bot_that_knows_only_its_own_moves_plays_whole_games() {
    for mode in ["strict", "strict-mini"] {
        let report = versus_against(mode, &["--think-ms", "0"]);
        let endings = report["endings"].as_object().unwrap();
        assert!(
            endings.keys().all(|reason| !reason.contains("failed")),
            "{mode}: {endings:?}"
        );
        let games = endings.values().map(|n| n.as_u64().unwrap());
        assert_eq!(games.sum::<u64>(), 2, "{mode}");
    }
    let bot = format!(
        "tbp:{} --fake-bot strict",
        std::env::current_exe().unwrap().display()
    );
    let play = [
        "play",
        "--weights",
        "weights/versus/hand.toml",
        "--opponent",
        &bot,
        "--games",
        "2",
        "--think-ms",
        "0",
        "--json",
        "--quiet",
    ];
    let report: Value = serde_json::from_slice(&stacktune(&play).stdout).unwrap();
    assert!(!report.to_string().contains("failed"), "{report}");
}

/// `stacktune tbp`, told each of its S, Z, I and O moves under another name of the same cells,
/// follows it: it suggests, piece after piece, what a twin told its own words suggests.
fn the_stacktune_bot_follows_a_placement_under_either_name() {
    let weights = Path::new(env!("CARGO_MANIFEST_DIR")).join("weights/versus/hand.toml");
    let command = BotCommand {
        program: env!("CARGO_BIN_EXE_stacktune").into(),
        args: vec!["tbp".into(), "--weights".into(), weights.into()],
    };
    let rules = Rules {
        randomizer: Randomizer::SevenBag,
    };
    let options = || BotOptions {
        timeout: PATIENT,
        stderr: BotStderr::Discard,
    };
    let launch = || Bot::launch(&command, &rules, options()).unwrap();
    let (mut own, mut other) = (launch(), launch());
    let mut start = bag_start();
    start.randomizer = None;
    own.start(&start).unwrap();
    other.start(&start).unwrap();
    let mut renamed = 0;
    for piece in "ZSIZOLTJSIZLOJTSZI".chars() {
        let mv = own.suggest().unwrap().moves[0];
        assert_eq!(other.suggest().unwrap().moves[0], mv);
        let alias = other_name(&mv);
        renamed += alias.is_some() as usize;
        own.play(&mv).unwrap();
        other.play(&alias.unwrap_or(mv)).unwrap();
        let piece: Piece = serde_json::from_value(json!(piece.to_string())).unwrap();
        own.new_piece(piece).unwrap();
        other.new_piece(piece).unwrap();
    }
    assert!(renamed >= 5, "{renamed} renamed");
    assert!(own.quit().unwrap().unwrap().success());
    assert!(other.quit().unwrap().unwrap().success());
}

/// Another name of the cells `mv` fills: another orientation at a nearby centre.
fn other_name(mv: &Move) -> Option<Move> {
    let l = mv.location;
    let names = ORIENTATIONS.into_iter().filter(|&o| o != l.orientation);
    let names = names.flat_map(|orientation| {
        (-2..=2).flat_map(move |dx| {
            (-2..=2).map(move |dy| Move {
                location: Location {
                    orientation,
                    x: l.x + dx,
                    y: l.y + dy,
                    ..l
                },
                spin: mv.spin,
            })
        })
    });
    names.into_iter().find(|name| same_cells(name, mv))
}

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
    (
        "the_front_end_plays_back_recorded_bots_own_moves",
        the_front_end_plays_back_recorded_bots_own_moves,
    ),
    (
        "a_bot_that_knows_only_its_own_moves_plays_whole_games",
        a_bot_that_knows_only_its_own_moves_plays_whole_games,
    ),
    (
        "the_stacktune_bot_follows_a_placement_under_either_name",
        the_stacktune_bot_follows_a_placement_under_either_name,
    ),
];

fn main() {
    test_main(TESTS, |mode, rest| match (mode, rest) {
        ("replay", [recording, log]) => run_replay_bot(recording, log),
        ("strict", []) => StrictBot::default().run(),
        ("strict-mini", []) => StrictBot {
            mini: true,
            ..StrictBot::default()
        }
        .run(),
        _ => run_fake_bot(mode),
    });
}
