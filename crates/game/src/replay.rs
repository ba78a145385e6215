//! One game recorded for the report page's replay (`report.html`, `play --replay-html`).
//!
//! The page plays a game back from its moves and the pieces drawn, not from stored boards, so
//! a replay of thousands of moves stays a few tens of kilobytes. Each game says what its moves
//! and boards look like to the page ([`Replayable`]); the recorder plays the very game
//! `play --seed S` plays as game i, keeps its first moves, and adds the board every
//! [`CHECK_EVERY`] moves so the page can prove that its own play-back matches this one.

use crate::{EpisodeLimits, EpisodeResult, Episodes, Game, Policy};
use rand_chacha::ChaCha8Rng;
use serde::Serialize;
use serde_json::Value;
use stacktune_base::progress::Progress;
use stacktune_base::rng::game_stream;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};

/// Moves a replay stores by default: enough to watch a game well past its opening, small
/// enough that a report with a replay stays under a few hundred kilobytes.
pub const DEFAULT_MOVE_CAP: u64 = 5_000;

/// The page compares its board with the recorded one after every this many moves (and after
/// the last move stored).
pub const CHECK_EVERY: u64 = 100;

/// What the report page needs of a game to draw it and play its moves back.
pub trait Replayable: crate::Playable + Clone {
    /// The board's size and the tables the page plays moves with (the pieces' cells), and
    /// which of the page's games this is (`tetris`, `contest`, `puyo`, `connect`).
    fn replay_setup(&self) -> Value;

    /// The position's board, top row first, one character a cell (`.` empty): the start of a
    /// replay and the page's checks.
    fn board_rows(&self, position: &Self::Position) -> Vec<String>;

    /// The pieces the position shows (to place, held, previewed) as the page's queue starts.
    fn shown_pieces(&self, position: &Self::Position) -> Value;

    /// The move that led from `before` to `after` as the page plays it, with the pieces it
    /// drew. `chosen` is the recorded player's move; a move made by someone else (an
    /// opponent) is `None` and is read off the positions. `None` when nothing was played
    /// (a game that shows its last position twice).
    fn replay_step(
        &self,
        before: &Self::Position,
        chosen: Option<Self::Move>,
        after: &Self::Position,
    ) -> Option<Vec<Value>>;

    /// For a game whose episodes are estimates rather than games (research Tetris under
    /// `--splitting`), the same game with its games played out, which is what a replay shows;
    /// `None` for a game whose episodes are games.
    fn played_out(&self) -> Option<Self> {
        None
    }

    /// The moves after which every game of these rules ends, when the rules have such a limit
    /// (contest Tetris: 180 turns, or a level-4 game's `--turns`), so the page can say that a
    /// game reached it rather than that it was lost.
    fn turn_limit(&self) -> Option<u64> {
        None
    }

    /// For a game whose episodes are matches the page shows whole (both sides' fields, what
    /// one sends the other), episode `index` played by `player` from `rng` under `limits` as
    /// such a replay; `None` records the player's side move by move.
    fn record_match(
        &self,
        player: &impl Policy<Self>,
        index: u64,
        rng: ChaCha8Rng,
        limits: EpisodeLimits,
    ) -> Option<Replay> {
        let _ = (player, index, rng, limits);
        None
    }

    /// Whether the library can play the game's moves to record them: not for a game a host
    /// plays (a Python game's run), whose page has no replay.
    fn records_games(&self) -> bool {
        true
    }

    /// For a game the library cannot record ([`Replayable::records_games`]): game `seed` of
    /// `weights` (over all its features), at most `cap` moves, as the game renders it, a
    /// frame a position; empty when the game does not render.
    fn text_frames(&self, weights: &[f64], seed: u64, cap: u64) -> Vec<String> {
        let _ = (weights, seed, cap);
        Vec::new()
    }
}

/// One recorded game, as the page's JSON holds it.
#[derive(Clone, Debug, Serialize)]
pub struct Replay {
    /// The `play` command whose game `game` this is (set by the caller, who knows the
    /// weights file and the flags).
    pub command: String,
    /// `play --seed` of the game and its index there.
    pub seed: u64,
    pub game: u64,
    /// Who plays whom (two-player games), else `None`.
    pub versus: Option<String>,
    /// What the score counts ("lines", "score", ...).
    pub score_name: &'static str,
    pub setup: Value,
    /// The first position's board and pieces, and the moves counted before the first
    /// recorded one (a two-player game's opening).
    pub start_board: Vec<String>,
    pub start_pieces: Value,
    pub start_moves: u64,
    /// The stored moves: each the game's fields and, last, the points it scored.
    pub steps: Vec<Vec<Value>>,
    /// The board after move n (counted from the first stored one), for the page's checks.
    pub checks: Vec<(u64, Vec<String>)>,
    /// The whole game's moves and score, as `play` reports them, stored moves or not.
    pub moves: u64,
    pub score: f64,
    /// Fewer moves were stored than played.
    pub capped: bool,
    pub cap: u64,
    /// The moves the game was limited to (`--max-pieces`), so the page can tell a game that
    /// ended from one that was stopped.
    pub limit: Option<u64>,
    /// The rules' own limit on a game's moves ([`Replayable::turn_limit`]).
    pub turn_limit: Option<u64>,
}

/// The tuned player, remembering the move it chose last so the recorder can name it.
struct Recording<'a, P, M> {
    player: &'a P,
    chosen: Mutex<Option<M>>,
    stop: &'a AtomicBool,
}

impl<G: Game, P: Policy<G>> Policy<G> for Recording<'_, P, G::Move> {
    fn choose(&self, game: &G, position: &G::Position) -> Option<G::Move> {
        let mv = self.player.choose(game, position);
        *self.chosen.lock().expect("one episode, one thread") = mv;
        mv
    }

    fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }
}

/// Plays game `index` of `play --seed seed` with `player` under `limits` (the game numbered
/// from `seed` as `play` numbers it), storing its first `cap` moves. A game whose episodes are
/// estimates is played out instead, and stopped after those `cap` moves: its games may last
/// hundreds of millions of moves. `progress` hears of the moves as they are played (a level-4
/// contest game plays 180,000) and of the game when it ends. Raising `stop` ends the game at
/// its next move, and gives `None`.
#[allow(clippy::too_many_arguments)]
pub fn record<G: Replayable>(
    game: &G,
    player: &impl Policy<G>,
    seed: u64,
    index: u64,
    limits: EpisodeLimits,
    cap: u64,
    progress: &Progress,
    stop: &AtomicBool,
) -> Option<Replay> {
    let played_out = game.played_out();
    let (game, limits) = match &played_out {
        Some(whole) => (whole, EpisodeLimits::capped(cap)),
        None => (game, limits),
    };
    let game = &game.numbered_from(seed);
    if let Some(replay) = game.record_match(player, index, game_stream(seed, index), limits) {
        progress.game_ended(replay.moves);
        return Some(Replay {
            seed,
            game: index,
            ..replay
        });
    }
    let recording = Recording {
        player,
        chosen: Mutex::new(None),
        stop,
    };
    let mut tape = Tape::new(game, seed, index, limits, cap);
    let result = game.episode(
        &recording,
        index,
        game_stream(seed, index),
        limits,
        &mut |position, so_far| {
            progress.playing(so_far.moves);
            let chosen = recording.chosen.lock().expect("one thread").take();
            tape.observe(game, position, so_far, chosen);
        },
    );
    if stop.load(Ordering::Relaxed) {
        return None;
    }
    progress.game_ended(result.moves);
    Some(tape.finish(game, &result))
}

/// A replay being recorded: what it stores so far, the last position seen with the score
/// then, and the position after the last stored move (for the final check).
struct Tape<G: Game> {
    replay: Replay,
    previous: Option<(G::Position, f64)>,
    last_stored: Option<G::Position>,
}

impl<G: Replayable> Tape<G> {
    /// Nothing recorded yet of game `index` of `play --seed seed`, to store at most `cap`
    /// moves.
    fn new(game: &G, seed: u64, index: u64, limits: EpisodeLimits, cap: u64) -> Tape<G> {
        let replay = Replay {
            command: String::new(),
            seed,
            game: index,
            versus: game.describe_episode(index),
            score_name: game.score_name(),
            setup: game.replay_setup(),
            start_board: Vec::new(),
            start_pieces: Value::Null,
            start_moves: 0,
            steps: Vec::new(),
            checks: Vec::new(),
            moves: 0,
            score: 0.0,
            capped: false,
            cap,
            limit: limits.max_moves,
            turn_limit: game.turn_limit(),
        };
        Tape {
            replay,
            previous: None,
            last_stored: None,
        }
    }

    /// The game reached `position` with `so_far` played; `chosen` is the recorded player's
    /// last move, if it made one. The first position starts the replay; each later one stores
    /// the move that led to it, until `cap` moves are stored.
    fn observe(
        &mut self,
        game: &G,
        position: &G::Position,
        so_far: &EpisodeResult,
        chosen: Option<G::Move>,
    ) {
        let Some((before, score)) = self.previous.replace((position.clone(), so_far.score)) else {
            self.replay.start_board = game.board_rows(position);
            self.replay.start_pieces = game.shown_pieces(position);
            self.replay.start_moves = so_far.moves;
            return;
        };
        let points = so_far.score - score;
        if self.replay.steps.len() as u64 >= self.replay.cap {
            self.replay.capped = true;
            return;
        }
        match game.replay_step(&before, chosen, position) {
            Some(step) => self.store(game, step, points, position),
            // Nothing was played, but the score may have moved (a two-player game scores
            // its result with its last position): it belongs to the last move.
            None => {
                if let Some(last) = self.replay.steps.last_mut() {
                    let so_far = last.pop().and_then(|v| v.as_f64()).unwrap_or(0.0);
                    last.push((so_far + points).into());
                }
            }
        }
    }

    /// Stores `step`, the move that scored `points` and left `position`, with the board
    /// every [`CHECK_EVERY`] moves.
    fn store(&mut self, game: &G, mut step: Vec<Value>, points: f64, position: &G::Position) {
        step.push(points.into());
        self.replay.steps.push(step);
        let n = self.replay.steps.len() as u64;
        if n.is_multiple_of(CHECK_EVERY) {
            self.replay.checks.push((n, game.board_rows(position)));
        }
        self.last_stored = Some(position.clone());
    }

    /// The replay of the game that ended with `result`, checked after its last stored move.
    fn finish(mut self, game: &G, result: &EpisodeResult) -> Replay {
        let n = self.replay.steps.len() as u64;
        if let Some(position) = self.last_stored
            && !n.is_multiple_of(CHECK_EVERY)
        {
            self.replay.checks.push((n, game.board_rows(&position)));
        }
        self.replay.moves = result.moves;
        self.replay.score = result.score;
        self.replay
    }
}

/// A two-sided match being recorded for the page (`versus --replay-html`, a match run's
/// page): both boards side by side, a step a moment of the match, so every game with matches
/// stores, caps and checks its steps alike.
pub struct MatchTape {
    replay: Replay,
    /// The boards after the last stored step, for the final check.
    last_rows: Option<Vec<String>>,
}

impl MatchTape {
    /// Nothing recorded yet of the match on seed `seed` between `versus`, which ended with the
    /// left side's match score `score`; at most `cap` steps are stored.
    pub fn new(seed: u64, versus: String, setup: Value, score: f64, cap: u64) -> MatchTape {
        MatchTape {
            replay: Replay {
                command: String::new(),
                seed,
                game: 0,
                versus: Some(versus),
                score_name: "match score",
                setup,
                start_board: Vec::new(),
                start_pieces: Value::Null,
                start_moves: 0,
                steps: Vec::new(),
                checks: Vec::new(),
                moves: 0,
                score,
                capped: false,
                cap,
                limit: None,
                turn_limit: None,
            },
            last_rows: None,
        }
    }

    /// The boards and pieces the match starts from.
    pub fn start(&mut self, board: Vec<String>, pieces: Value) {
        self.replay.start_board = board;
        self.replay.start_pieces = pieces;
    }

    /// Counts a step of the match and stores it, with no points, while fewer than the cap
    /// are stored; `rows` gives the boards it leaves, checked every [`CHECK_EVERY`] steps.
    pub fn push(&mut self, mut step: Vec<Value>, rows: impl FnOnce() -> Vec<String>) {
        self.replay.moves += 1;
        if self.replay.moves > self.replay.cap {
            self.replay.capped = true;
            return;
        }
        step.push(0.into());
        self.replay.steps.push(step);
        let rows = rows();
        if self.replay.moves.is_multiple_of(CHECK_EVERY) {
            self.replay.checks.push((self.replay.moves, rows));
        } else {
            self.last_rows = Some(rows);
        }
    }

    /// The replay: the match score on its last stored step, checked after it.
    pub fn finish(mut self) -> Replay {
        let n = self.replay.steps.len() as u64;
        if let Some(rows) = self.last_rows
            && !n.is_multiple_of(CHECK_EVERY)
        {
            self.replay.checks.push((n, rows));
        }
        if let Some(last) = self.replay.steps.last_mut() {
            *last.last_mut().expect("a step ends with its points") = self.replay.score.into();
        }
        self.replay
    }
}

/// The games of `play --seed seed --games 1` as replays naming `command`: one game, or for a
/// two-player game one against each opponent (game i meets opponent i); `progress` counts
/// them. `None` when `stop` was raised before they were all played.
#[allow(clippy::too_many_arguments)]
pub fn record_games<G: Replayable>(
    game: &G,
    player: &impl Policy<G>,
    seed: u64,
    limits: EpisodeLimits,
    cap: u64,
    command: &str,
    progress: &Progress,
    stop: &AtomicBool,
) -> Option<Vec<Replay>> {
    if !game.records_games() {
        return Some(Vec::new());
    }
    (0..replayed_games(game))
        .map(|i| {
            Some(Replay {
                command: command.to_string(),
                ..record(game, player, seed, i, limits, cap, progress, stop)?
            })
        })
        .collect()
}

/// The games [`record_games`] records: one, or one against each opponent.
pub fn replayed_games<G: Episodes>(game: &G) -> u64 {
    game.opponents().len().max(1) as u64
}
