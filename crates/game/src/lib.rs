//! The one interface every game implements, and what is done with a game through it alone:
//! episodes played in parallel ([`episode`]) and games recorded for the pages' replays
//! ([`replay`]).
//!
//! The players, searches, fitness, runs and the CLI are written against these traits and never
//! name a game, so adding a game means adding a module that implements them.

pub mod board_features;
pub mod episode;
pub mod replay;

use rand_chacha::ChaCha8Rng;
use std::fmt;
use std::sync::Arc;

/// Most features any game may define. Feature values live in a fixed array so that scoring a
/// placement never allocates.
pub const MAX_FEATURES: usize = 64;

/// A set of feature indices as a bit mask: games compute only the features a weight set uses.
pub type FeatureMask = u64;

/// Feature values of one resulting state, indexed by the game's feature order. Only the entries
/// whose bit is set in the requested [`FeatureMask`] are meaningful.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FeatureValues(pub [f64; MAX_FEATURES]);

impl Default for FeatureValues {
    fn default() -> Self {
        FeatureValues([0.0; MAX_FEATURES])
    }
}

/// What one move did immediately, apart from the features of the board it leaves.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Outcome {
    /// Lines (Tetris) or puyos/panels (other games) removed by the move.
    pub cleared: u32,
    /// Game-specific points earned by the move (lines for research Tetris, score elsewhere).
    pub points: f64,
    /// Chain length fired by the move, for games with chains.
    pub chains: u32,
    /// The move ended the game (topped out, filled the board, ...).
    pub game_over: bool,
    /// Set when the move decides the game (a top-out, a win, a loss): the player scores the
    /// move with this value instead of `w · φ`, since no weighting should trade against it.
    pub terminal_value: Option<f64>,
}

/// Limits on one episode, so that strong players on roomy boards still finish.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct EpisodeLimits {
    /// Stop after this many moves (pieces); `None` plays until the game ends.
    pub max_moves: Option<u64>,
}

impl EpisodeLimits {
    /// At most `pieces` moves, 0 meaning no limit: what `--max-pieces 0` means in every
    /// command and config.
    pub fn capped(pieces: u64) -> EpisodeLimits {
        EpisodeLimits {
            max_moves: (pieces > 0).then_some(pieces),
        }
    }
}

/// What one episode measured.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EpisodeResult {
    /// The fitness measure the game reports for this episode (mean lines for research Tetris).
    pub score: f64,
    /// How many games `score` stands for: 1 for a game played. An estimate that measures a
    /// stretch of play and the games expected to end in it (research Tetris's splitting: the
    /// stretch's lines over its expected top-outs) gives both, so that a mean over episodes
    /// is Σ score / Σ games, the ratio of sums, and not a mean of ratios, which would be
    /// biased upwards by the noise of each estimate's few expected top-outs.
    pub games: f64,
    /// Moves (pieces) played: throughput is counted in these.
    pub moves: u64,
    /// Counts a game reports per episode beside its score, named by
    /// [`Episodes::detail_names`] (contest Tetris: lines, clears by size, game overs).
    pub details: [u64; MAX_DETAILS],
}

impl Default for EpisodeResult {
    /// Nothing played yet, of one game.
    fn default() -> Self {
        EpisodeResult {
            score: 0.0,
            games: 1.0,
            moves: 0,
            details: [0; MAX_DETAILS],
        }
    }
}

impl EpisodeResult {
    /// The episode's own figure: its score per game it stands for.
    pub fn per_game(&self) -> f64 {
        self.score / self.games
    }

    /// The summary of `results` (mean, spread, 95 % interval) as games: each stands for its
    /// [`games`](EpisodeResult::games), so a splitting estimate's mean is a ratio of sums.
    pub fn summary(results: &[EpisodeResult]) -> stacktune_base::stats::Summary {
        let ratios: Vec<(f64, f64)> = results.iter().map(|r| (r.score, r.games)).collect();
        stacktune_base::stats::Summary::of_ratios(&ratios)
    }

    /// The mean score a game of `results`: Σ score / Σ games, summed in their order (the plain
    /// mean when each is a game played). What fitness and every reported mean are.
    pub fn mean_per_game(results: &[EpisodeResult]) -> f64 {
        results.iter().map(|r| r.score).sum::<f64>() / results.iter().map(|r| r.games).sum::<f64>()
    }
}

/// Most per-episode counts a game may report.
pub const MAX_DETAILS: usize = 8;

/// Whatever picks the tuned side's moves: a weight set under a search (`search::Player`).
///
/// Games play episodes against this trait, so a game knows nothing of evaluators or searches.
/// A policy of one's own (a reference agent, a bot behind a protocol) is one method:
/// [`Game`]'s example has one that always plays the lowest column.
pub trait Policy<G: Game>: Sync {
    /// The move to play in `position`; `None` when the game offers none.
    fn choose(&self, game: &G, position: &G::Position) -> Option<G::Move>;

    /// Whether the player was told to stop (Ctrl-C): a game's loop asks once a move and ends
    /// its episode where it is, and whoever told it drops the partial result.
    fn stopped(&self) -> bool {
        false
    }
}

/// A policy that games played in parallel share, as a game holds its opponents (a weights file
/// under its search, an earlier champion, a reference agent of the layers above): the game is
/// handed it, so it never names a player or a search, and cloning a game copies a pointer.
pub type SharedPolicy<G> = Arc<dyn Policy<G> + Send + Sync>;

impl<G: Game, P: Policy<G> + Send + ?Sized> Policy<G> for Arc<P> {
    fn choose(&self, game: &G, position: &G::Position) -> Option<G::Move> {
        (**self).choose(game, position)
    }

    fn stopped(&self) -> bool {
        (**self).stopped()
    }
}

/// A game: rules, placements and named features, the core every game implements.
///
/// A game value carries its own configuration (board size, ruleset); positions are plain data
/// so that many episodes can run in parallel over one shared game. What a game may add beyond
/// the core has a trait of its own with a default for every method: how searches look ahead
/// ([`SearchHooks`]), how its episodes are played (against opponents: [`Episodes`]) and how it
/// is drawn ([`Render`]); [`Playable`] is all of them.
///
/// A game of one's own (a piece of three cells on a small board, say) implements the core and
/// takes the defaults of the rest:
///
/// ```
/// use rand_chacha::ChaCha8Rng;
/// use stacktune_game::{Episodes, FeatureMask, FeatureValues, Game, Outcome, Render, SearchHooks};
///
/// /// Drop a stone into one of three columns; a column that reaches 4 ends the game.
/// #[derive(Clone)]
/// struct Stones;
///
/// impl Game for Stones {
///     type Position = [u8; 3];
///     type Move = usize;
///     fn name(&self) -> &'static str { "stones" }
///     fn rules(&self) -> String { "3 columns of 4".into() }
///     fn feature_names(&self) -> &'static [&'static str] { &["height"] }
///     fn start(&self, _rng: &mut ChaCha8Rng) -> [u8; 3] { [0; 3] }
///     fn for_each_move(
///         &self,
///         position: &[u8; 3],
///         _mask: FeatureMask,
///         visit: &mut impl FnMut(usize, &[u8; 3], &Outcome, &FeatureValues),
///     ) {
///         for column in 0..3 {
///             let mut after = *position;
///             after[column] += 1;
///             let mut features = FeatureValues::default();
///             features.0[0] = after[column] as f64;
///             let outcome = Outcome { points: 1.0, game_over: after[column] == 4, ..Outcome::default() };
///             visit(column, &after, &outcome, &features);
///         }
///     }
///     fn shows_next(&self, _position: &[u8; 3]) -> bool { false }
///     fn apply(&self, position: &mut [u8; 3], column: usize, _rng: &mut ChaCha8Rng) -> Outcome {
///         position[column] += 1;
///         Outcome { points: 1.0, game_over: position[column] == 4, ..Outcome::default() }
///     }
/// }
/// impl SearchHooks for Stones {}
/// impl Episodes for Stones {}
/// impl Render for Stones {}
///
/// // Always the lowest column: nine stones before a column reaches 4... and one more.
/// struct Lowest;
/// impl stacktune_game::Policy<Stones> for Lowest {
///     fn choose(&self, _game: &Stones, position: &[u8; 3]) -> Option<usize> {
///         (0..3).min_by_key(|&c| position[c])
///     }
/// }
/// let rng = stacktune_base::rng::game_stream(1, 0);
/// let limits = stacktune_game::EpisodeLimits::capped(0);
/// let result = Stones.episode(&Lowest, 0, rng, limits, &mut |_, _| {});
/// assert_eq!((result.moves, result.score), (10, 10.0));
/// ```
pub trait Game: Send + Sync {
    /// Everything the player may look at: the board, the piece to place and any preview.
    type Position: Clone + Send + Sync;
    /// One placement of the current piece.
    type Move: Copy + Send + Sync + PartialEq + fmt::Debug;

    /// The registered name of the game (`tetris`, `puyo`, ...), written into weight files.
    fn name(&self) -> &'static str;

    /// A short description of the ruleset and size, written into weight files and reports.
    fn rules(&self) -> String;

    /// The game's feature names; their order is internal and never leaks into files.
    fn feature_names(&self) -> &'static [&'static str];

    /// Features a player of the game's matches weighs beside [`Game::feature_names`] (Puyo's
    /// nuisance and opponent): weights that name one play matches, and are refused alone.
    fn match_feature_names(&self) -> &'static [&'static str] {
        &[]
    }

    /// The first position of an episode, drawing any initial pieces from `rng`.
    fn start(&self, rng: &mut ChaCha8Rng) -> Self::Position;

    /// Calls `visit` once for every placement of the position's current piece that the rules
    /// offer, in a fixed enumeration order, with the position after it (its current piece
    /// becomes the next known piece, if any), the move's outcome and the requested features.
    /// Placements the rules exclude (top-outs by default) are not visited.
    fn for_each_move(
        &self,
        position: &Self::Position,
        mask: FeatureMask,
        visit: &mut impl FnMut(Self::Move, &Self::Position, &Outcome, &FeatureValues),
    );

    /// [`for_each_move`](Game::for_each_move) without the positions after the moves: all a
    /// player that looks no further needs. A game whose after-positions cost time to build
    /// overrides it to skip building them.
    fn for_each_outcome(
        &self,
        position: &Self::Position,
        mask: FeatureMask,
        visit: &mut impl FnMut(Self::Move, &Outcome, &FeatureValues),
    ) {
        self.for_each_move(position, mask, &mut |mv, _, outcome, features| {
            visit(mv, outcome, features)
        });
    }

    /// Whether the positions after this position's moves know their piece (the game shows
    /// the next one), so a player may look one ply further.
    fn shows_next(&self, position: &Self::Position) -> bool;

    /// Plays `mv` for real: applies it and draws the next piece from `rng`.
    fn apply(&self, position: &mut Self::Position, mv: Self::Move, rng: &mut ChaCha8Rng)
    -> Outcome;

    /// Folds one move's outcome into the episode's score: by default the sum of points (lines
    /// for research Tetris); a game whose users tune for something else (the largest chain)
    /// overrides it.
    fn accumulate(&self, score: f64, outcome: &Outcome) -> f64 {
        score + outcome.points
    }

    /// What an episode's score counts, for reports ("lines", "score", ...).
    fn score_name(&self) -> &'static str {
        "points"
    }
}

/// How searches look ahead in a game: what a searched line banks, what it fires, what the
/// unseen pieces may be and which moves an exact solver keeps. Each has a default that asks
/// nothing of the game.
pub trait SearchHooks: Game {
    /// The features of a move (not of the board it leaves) that a searched line banks as it
    /// goes: a beam adds each move's value of them to the line, as it adds the points, so a
    /// line still counts a T-spin three moves back when it values its last board (versus
    /// Tetris). None by default: a line banks its points alone.
    fn banked_features(&self) -> FeatureMask {
        0
    }

    /// The features that a position's own moves carry and the positions after them do not
    /// (Puyo's match features: the match a side reads rides on the position of its choice
    /// only). One ply scores them with the move's other features; a search that values a first
    /// move by what comes after it (the lookahead, the sampled beam) adds the move's weighed
    /// values of these to that value. None by default.
    fn first_move_features(&self, _position: &Self::Position) -> FeatureMask {
        0
    }

    /// The features that count what a move, or a searched line of moves, fired and scored
    /// rather than the position it left: a search that values lines by what they fire
    /// (`--fired`) weighs only these. None for a game without chains.
    fn fired_features(&self) -> FeatureMask {
        0
    }

    /// Calls `visit` with each position that the next piece, not shown yet, may make of
    /// `position` (one past the last piece shown), and its probability: what lets a search
    /// look one piece past what the player sees. A game whose dealing depends on what it has
    /// dealt (bags) or that shows everything visits nothing.
    fn for_each_unseen(
        &self,
        _position: &Self::Position,
        _visit: &mut impl FnMut(&Self::Position, f64),
    ) {
    }

    /// The moves that keep `position`'s value under perfect play, for a game with an exact
    /// solver and a position it reads to the end cheaply (at most `endgame` empty cells);
    /// `None` when it cannot, or when every move keeps the value (a lost position). A search
    /// given these picks among them only, so the heuristic's horizon cannot lose a won or
    /// drawn endgame, while its preferences still choose among the safe moves.
    fn perfect_moves(&self, _position: &Self::Position, _endgame: u32) -> Option<Vec<Self::Move>> {
        None
    }

    /// The feature that measures a move's [`Outcome::points`], if the game has one: a search
    /// that looks several moves ahead weighs the points of the earlier moves as the weights
    /// weigh this feature, so points and board shape stay on the weights' own scale.
    fn points_feature(&self) -> Option<&'static str> {
        None
    }
}

/// How a game's episodes are played and told apart: alone by default, against opponents in a
/// two-player game, numbered from a seed for a game with a seeded source of its own.
pub trait Episodes: Game {
    /// Plays episode `index` of a set with `player`, drawing from `rng`: what fitness and
    /// `play` measure. The set's episodes share their indices across players (common random
    /// numbers), so a game with a fixed schedule (openings, colours, opponents) reads it from
    /// `index`. `observe` sees the first position and the position after every move, with the
    /// result so far (`watch` draws them). The default plays alone until game over or the move
    /// limit, folding outcomes with [`accumulate`](Game::accumulate); a two-player game
    /// overrides it to play an opponent.
    fn episode(
        &self,
        player: &impl Policy<Self>,
        index: u64,
        rng: ChaCha8Rng,
        limits: EpisodeLimits,
        observe: &mut impl FnMut(&Self::Position, &EpisodeResult),
    ) -> EpisodeResult
    where
        Self: Sized,
    {
        let _ = index;
        play_alone(self, player, rng, limits, observe)
    }

    /// The opponents of a two-player game, by name, in the order episodes meet them: episode
    /// `i` faces opponent `i mod n` and scores 1 for a win, ½ for a draw and 0 for a loss.
    /// Empty for a one-player game.
    fn opponents(&self) -> Vec<String> {
        Vec::new()
    }

    /// The same game with `rivals` (earlier champions, each under the search the tuned side
    /// plays: a hall of fame, or a generation's peers) added after its opponents as `rival 1`,
    /// `rival 2`, ..., so that evolution is not tuned against a fixed pool alone; `None` for a
    /// one-player game, which has nobody to add them to.
    fn with_rivals(&self, rivals: &[SharedPolicy<Self>]) -> Option<Self>
    where
        Self: Sized,
    {
        let _ = rivals;
        None
    }

    /// The same game with its episodes numbered from `seed`, as `play --seed` numbers them,
    /// for a game that replays a seeded source of its own (contest Tetris: episode i is
    /// contest seed `seed + i`). Other games draw everything from the episode's stream and
    /// are returned unchanged.
    fn numbered_from(&self, seed: u64) -> Self
    where
        Self: Sized + Clone,
    {
        let _ = seed;
        self.clone()
    }

    /// How a two-player game's episodes against one opponent differ (Connect-N alternates
    /// colours), for `play`'s table; `None` for a one-player game.
    fn pairing(&self) -> Option<&'static str> {
        None
    }

    /// Who plays what in episode `index`, for `watch`; `None` for a one-player game.
    fn describe_episode(&self, index: u64) -> Option<String> {
        let _ = index;
        None
    }

    /// The names of the counts in [`EpisodeResult::details`]; empty for a game that reports
    /// none. `play` shows them per game.
    fn detail_names(&self) -> &'static [&'static str] {
        &[]
    }

    /// The first failure a [board feature](board_features) of this game met in the episodes
    /// played so far (an error, a value that is not finite): the batch that played them ends
    /// with it. `None` for a game without board features.
    fn board_feature_failure(&self) -> Option<String> {
        None
    }
}

/// How a position is drawn on the terminal (`watch`).
pub trait Render: Game {
    /// A drawing of the position; by default, none.
    fn render(&self, position: &Self::Position) -> String {
        let _ = position;
        format!("({} draws no positions)", self.name())
    }

    /// For a game whose episodes are matches drawn whole (both sides, what one sends the
    /// other), episode `index` played by `player` from `rng` under `limits`, handing `frame` a
    /// drawing each time the match changes; the match's last line (who won and why). `None`
    /// for a game whose player's positions are drawn instead (`watch` then draws those).
    fn watch_match(
        &self,
        player: &impl Policy<Self>,
        index: u64,
        rng: ChaCha8Rng,
        limits: EpisodeLimits,
        frame: &mut dyn FnMut(&str),
    ) -> Option<String>
    where
        Self: Sized,
    {
        let _ = (player, index, rng, limits, frame);
        None
    }
}

/// A game with every part: what runs, backends and commands play.
pub trait Playable: SearchHooks + Episodes + Render {}

impl<G: SearchHooks + Episodes + Render> Playable for G {}

/// The same game with its episodes numbered from `seed` if given ([`Episodes::numbered_from`]) and
/// `rivals` added to its opponents if any ([`Episodes::with_rivals`]); rivals for a one-player
/// game are an error. What a batch's settings ask of any game, built-in or not.
pub fn adapted<G: Episodes + Clone>(
    game: &G,
    seed: Option<u64>,
    rivals: &[SharedPolicy<G>],
) -> anyhow::Result<G> {
    let game = seed.map_or_else(|| game.clone(), |s| game.numbered_from(s));
    if rivals.is_empty() {
        return Ok(game);
    }
    match game.with_rivals(rivals) {
        Some(game) => Ok(game),
        None => anyhow::bail!("{} is played alone: it takes no rivals", game.name()),
    }
}

/// The default [`Episodes::episode`]: a game from [`Game::start`], played alone with [`play_from`],
/// every piece drawn from `rng`. A game that measures its episodes another way in some settings
/// (research Tetris's splitting estimates) plays this in the others.
pub fn play_alone<G: Game>(
    game: &G,
    player: &impl Policy<G>,
    mut rng: ChaCha8Rng,
    limits: EpisodeLimits,
    observe: &mut impl FnMut(&G::Position, &EpisodeResult),
) -> EpisodeResult {
    let position = game.start(&mut rng);
    play_from(game, player, position, limits, observe, |position, mv| {
        game.apply(position, mv, &mut rng)
    })
}

/// Plays a game alone from `position` until it ends, reaches the move limit or `player` is
/// stopped, `player` choosing and `step` playing each move: the default [`Episodes::episode`] with `step` =
/// [`Game::apply`], and the loop of a game whose episodes draw from a source of their own.
pub fn play_from<G: Game>(
    game: &G,
    player: &impl Policy<G>,
    mut position: G::Position,
    limits: EpisodeLimits,
    observe: &mut impl FnMut(&G::Position, &EpisodeResult),
    mut step: impl FnMut(&mut G::Position, G::Move) -> Outcome,
) -> EpisodeResult {
    let mut result = EpisodeResult::default();
    observe(&position, &result);
    while limits.max_moves.is_none_or(|m| result.moves < m) && !player.stopped() {
        let Some(mv) = player.choose(game, &position) else {
            break;
        };
        let outcome = step(&mut position, mv);
        result.moves += 1;
        result.score = game.accumulate(result.score, &outcome);
        observe(&position, &result);
        if outcome.game_over {
            break;
        }
    }
    result
}
