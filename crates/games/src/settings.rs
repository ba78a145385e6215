//! The settings that pick a game, its size, rules and search: the part of a run's config and
//! of every command's flags that says which game is played and how.

use anyhow::{Result, bail};
use serde::{Deserialize, Serialize};
use std::path::Path;

/// Which game, at what size and under which rules: the part of a run's config and of the
/// CLI that picks the game. Every field but `game` has a per-game default.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "clap", derive(clap::Args))]
#[serde(deny_unknown_fields)]
pub struct GameSpec {
    /// Game to play: tetris, puyo or connect (default: the game a weights file names, else
    /// tetris).
    #[cfg_attr(feature = "clap", arg(long))]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub game: Option<String>,
    /// Board width (tetris: 4 to 16, default 10; connect: columns, default 7, with
    /// (rows + 1) × columns at most 64).
    #[cfg_attr(feature = "clap", arg(long))]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub width: Option<usize>,
    /// Board height (tetris: 4 to 64, default 20; connect: rows, default 6, with
    /// (rows + 1) × columns at most 64).
    #[cfg_attr(feature = "clap", arg(long))]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub height: Option<usize>,
    /// Ruleset: tetris `research` or `contest`; puyo `programming` or `tsu`.
    #[cfg_attr(feature = "clap", arg(long))]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rules: Option<String>,
    /// Puyo colours (3 to 5, default 4).
    #[cfg_attr(feature = "clap", arg(long))]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub colours: Option<u8>,
    /// Connect-N: discs in a row to win (default 4).
    #[cfg_attr(feature = "clap", arg(long))]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub inarow: Option<usize>,
    /// Plies the player searches: Connect-N with alpha-beta (default 1: one ply); other games
    /// with the beam of --beam-width (default: every piece the game shows).
    #[cfg_attr(feature = "clap", arg(long))]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub depth: Option<u32>,
    /// Connect-N: plies a weights-file --opponent searches with alpha-beta (default 1), so an
    /// anchor can search as deep as the player it measures.
    #[cfg_attr(feature = "clap", arg(long))]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub opponent_depth: Option<u32>,
    /// Connect Four (7 × 6, 4 in a row): from this many empty cells on (1 to 42), the player
    /// keeps to the columns an exact solver proves keep the game's value, and its search picks
    /// among them (default: never).
    #[cfg_attr(feature = "clap", arg(long, value_name = "EMPTY_CELLS"))]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub endgame: Option<u32>,
    /// Connect Four (7 × 6, 4 in a row): an opening book (`connect-book`) whose columns the
    /// search picks among in the positions it holds: a book file, `shipped`
    /// (weights/connect/book.txt, compiled in) or `none` (the default).
    #[cfg_attr(feature = "clap", arg(long, value_name = "FILE|shipped|none"))]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub book: Option<String>,
    /// Search a beam this wide over the pieces the game shows (previews, hold) instead of one
    /// ply; a position's value is its evaluation plus the points of the moves before it.
    #[cfg_attr(feature = "clap", arg(long))]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub beam_width: Option<usize>,
    /// Search with the beam of --beam-width past the pieces shown: this many sampled futures
    /// of --unseen pieces each, a move valued by its mean over them (puyo).
    #[cfg_attr(feature = "clap", arg(long))]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub samples: Option<u32>,
    /// Pieces past those shown that each of --samples futures draws (default 4).
    #[cfg_attr(feature = "clap", arg(long))]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unseen: Option<u32>,
    /// Value the sampled beam's moves by the chains their lines fire, not the positions they
    /// reach (ama's and takapt's search; puyo): a line ends at a move scoring POINTS or more
    /// (ama: 5,000); deeper futures (--unseen 12) carry a build to its fire.
    #[cfg_attr(feature = "clap", arg(long, value_name = "POINTS"))]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fired: Option<u32>,
    /// Search the beam of --beam-width as an anytime search: it widens (1, 2, 4, ... up to
    /// --beam-width positions a ply) while its searches stay within NODES expansions a move,
    /// so the budget is counted in nodes and a move is the same on any machine.
    #[cfg_attr(feature = "clap", arg(long, value_name = "NODES"))]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nodes: Option<u64>,
    /// Puyo: pairs the player sees, the one to place included (1 to 3; Tsu shows 3; default
    /// 1, 2 with --preview).
    #[cfg_attr(feature = "clap", arg(long))]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pairs_shown: Option<u8>,
    /// Puyo: end a game once one move scores at least these points (ama's measure: build one
    /// chain, fire it, stop); play then reports each game's `fired_at` pair.
    #[cfg_attr(feature = "clap", arg(long, value_name = "POINTS"))]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fire_points: Option<u32>,
    /// Connect-N: an opponent, repeat for a pool: random, tutorial, negamax4 or a connect
    /// weights file (default: tutorial and negamax4).
    #[cfg_attr(feature = "clap", arg(long = "opponent", value_name = "NAME|FILE"))]
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub opponents: Vec<String>,
    /// Draw tetris pieces from shuffled bags of seven instead of independently.
    #[cfg_attr(feature = "clap", arg(long))]
    #[serde(default)]
    pub bag7: bool,
    /// Offer placements that top out (they end the game when chosen).
    #[cfg_attr(feature = "clap", arg(long))]
    #[serde(default)]
    pub allow_topout: bool,
    /// Show the next piece; the player then places both before scoring.
    #[cfg_attr(feature = "clap", arg(long))]
    #[serde(default)]
    pub preview: bool,
    /// Contest tetris: the level, 1 to 4 (default 2; 3 adds obstacles; 4 is level 3 without
    /// the 180-turn limit, see --turns).
    #[cfg_attr(feature = "clap", arg(long))]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub level: Option<u8>,
    /// Contest tetris level 4: turns a game lasts, 1 to 180,000 (default 180,000: a move every
    /// 1 ms tick of the contest's 180 s; fewer model a slower controller).
    #[cfg_attr(feature = "clap", arg(long))]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub turns: Option<u32>,
    /// Contest tetris: score the July-2023 all-clear bonus (off in the March-2023 rules).
    #[cfg_attr(feature = "clap", arg(long))]
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub all_clear: bool,
    /// Guideline tetris: what an episode measures, `versus` (a match against each
    /// --opponent, default), `sprint` (40 lines), `attack` (attack per piece) or `survival`
    /// (against a seeded garbage stream).
    #[cfg_attr(feature = "clap", arg(long))]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mode: Option<String>,
    /// Guideline tetris: pieces shown after the current one (0 to 6, default 5).
    #[cfg_attr(feature = "clap", arg(long))]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub previews: Option<u8>,
    /// Guideline tetris: play without hold.
    #[cfg_attr(feature = "clap", arg(long))]
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub no_hold: bool,
    /// Guideline tetris: the attack table, `guideline` (Puyo Puyo Tetris, Tetris 99; default)
    /// or `tetrio` (TETR.IO season 1).
    #[cfg_attr(feature = "clap", arg(long))]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub attack: Option<String>,
    /// Guideline tetris: pieces the receiver places before an attack's rows can rise
    /// (default 1).
    #[cfg_attr(feature = "clap", arg(long))]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub garbage_delay: Option<u32>,
    /// Guideline tetris: most garbage rows that rise after one piece (default 8).
    #[cfg_attr(feature = "clap", arg(long))]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub garbage_cap: Option<u32>,
    /// Guideline tetris: the chance (0 to 1) that a garbage row's hole moves from the row
    /// below's column within one attack (default 0: one column an attack).
    #[cfg_attr(feature = "clap", arg(long))]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub messiness: Option<f64>,
    /// Guideline tetris: margin time, in pieces: from each side's PIECES-th piece on, its attacks
    /// grow by --margin-increase per cent a piece, rounded down (TETR.IO's margin time), so
    /// that matches between players that only defend still end (default: none).
    #[cfg_attr(feature = "clap", arg(long, value_name = "PIECES"))]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub margin: Option<u32>,
    /// Guideline tetris: with --margin, the per cent each piece adds to attacks (1 to 1,000,
    /// default 1: attacks doubled 100 pieces after the margin).
    #[cfg_attr(feature = "clap", arg(long, value_name = "PERCENT"))]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub margin_increase: Option<u32>,
    /// Guideline tetris: a bot opponent's (`tbp:COMMAND`) thinking time a piece, in
    /// milliseconds of wall time before it is asked for its move (default 100).
    #[cfg_attr(feature = "clap", arg(long))]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub think_ms: Option<u64>,
    /// Guideline tetris: how long a bot opponent may take to answer beyond its thinking time
    /// before it loses the game, in milliseconds (default 5,000).
    #[cfg_attr(feature = "clap", arg(long))]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timeout_ms: Option<u64>,
    /// Guideline tetris: a piece locking wholly above the visible 20 rows does not lose.
    #[cfg_attr(feature = "clap", arg(long))]
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub no_lock_out: bool,
    /// Puyo: what an episode scores, `score` (default), `max_chain` (largest chain fired) or
    /// `max_chain_alive` (the same, 0 for a lost game).
    #[cfg_attr(feature = "clap", arg(long))]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fitness: Option<String>,
    /// Research tetris: each game is a multilevel-splitting estimate of an uncapped game's
    /// mean lines, EFFORT trajectories a level (e.g. 500), not a game played out: seconds for
    /// players whose games last hours.
    #[cfg_attr(feature = "clap", arg(long, value_name = "EFFORT"))]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub splitting: Option<u32>,
}

/// The rulesets whose settings differ: what [`GameSpec::check_settings`] tells apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ruleset {
    Research,
    Contest,
    Guideline,
    Puyo,
    Connect,
}

impl Ruleset {
    /// The game as an error names it when it refuses a setting.
    fn name(self) -> &'static str {
        match self {
            Ruleset::Research => "tetris",
            Ruleset::Contest => "contest tetris",
            Ruleset::Guideline => "guideline tetris",
            Ruleset::Puyo => "puyo",
            Ruleset::Connect => "connect",
        }
    }

    /// Who takes a setting: both Tetris rulesets together are just "tetris".
    fn owners(users: &[Ruleset]) -> String {
        let both = users.contains(&Ruleset::Research) && users.contains(&Ruleset::Contest);
        let names: Vec<&str> = users
            .iter()
            .filter_map(|&r| match r {
                Ruleset::Research if both => Some("tetris"),
                Ruleset::Contest | Ruleset::Guideline if both => None,
                Ruleset::Research => Some("research tetris"),
                Ruleset::Contest => Some("contest tetris (--rules contest)"),
                Ruleset::Guideline => Some("guideline tetris (--rules guideline)"),
                other => Some(other.name()),
            })
            .collect();
        names.join(" or ")
    }
}

impl GameSpec {
    /// The game's name, `tetris` when none was given.
    pub fn name(&self) -> &str {
        self.game.as_deref().unwrap_or("tetris")
    }

    /// The `play` command that plays games `0..games` of `--seed seed` (a two-player game:
    /// `games` against each opponent) with `weights` on this game, each stopped after
    /// `max_pieces` moves (0: never): what a run's report and a replay page print so that a
    /// user can play the same games.
    pub fn play_command(&self, weights: &Path, seed: u64, games: u64, max_pieces: u64) -> String {
        let max_pieces = match max_pieces {
            0 => String::new(),
            m => format!(" --max-pieces {m}"),
        };
        format!(
            "stacktune play --weights {}{} --seed {seed} --games {games}{max_pieces}",
            weights.display(),
            self.flags()
        )
    }

    /// The flags that select this game, each with a leading space (a weights file names the
    /// game, its rules and size too, but a flag more says it plainly).
    fn flags(&self) -> String {
        fn text<T: std::fmt::Display>(value: &Option<T>) -> Option<String> {
            value.as_ref().map(T::to_string)
        }
        let valued: [(&str, Option<String>); 30] = [
            ("--width", text(&self.width)),
            ("--height", text(&self.height)),
            ("--rules", text(&self.rules)),
            ("--fitness", text(&self.fitness)),
            ("--colours", text(&self.colours)),
            ("--inarow", text(&self.inarow)),
            ("--depth", text(&self.depth)),
            ("--opponent-depth", text(&self.opponent_depth)),
            ("--endgame", text(&self.endgame)),
            ("--book", text(&self.book)),
            ("--beam-width", text(&self.beam_width)),
            ("--samples", text(&self.samples)),
            ("--unseen", text(&self.unseen)),
            ("--fired", text(&self.fired)),
            ("--nodes", text(&self.nodes)),
            ("--pairs-shown", text(&self.pairs_shown)),
            ("--fire-points", text(&self.fire_points)),
            ("--level", text(&self.level)),
            ("--turns", text(&self.turns)),
            ("--splitting", text(&self.splitting)),
            ("--mode", text(&self.mode)),
            ("--previews", text(&self.previews)),
            ("--attack", text(&self.attack)),
            ("--garbage-delay", text(&self.garbage_delay)),
            ("--garbage-cap", text(&self.garbage_cap)),
            ("--messiness", text(&self.messiness)),
            ("--margin", text(&self.margin)),
            ("--margin-increase", text(&self.margin_increase)),
            ("--think-ms", text(&self.think_ms)),
            ("--timeout-ms", text(&self.timeout_ms)),
        ];
        let mut s: String = valued
            .into_iter()
            .filter_map(|(flag, value)| value.map(|v| format!(" {flag} {v}")))
            .collect();
        for o in &self.opponents {
            s += &format!(" --opponent {o}");
        }
        for (on, flag) in [
            (self.bag7, " --bag7"),
            (self.allow_topout, " --allow-topout"),
            (self.preview, " --preview"),
            (self.all_clear, " --all-clear"),
            (self.no_hold, " --no-hold"),
            (self.no_lock_out, " --no-lock-out"),
        ] {
            if on {
                s += flag;
            }
        }
        s
    }

    /// The ruleset the spec names, for the settings check.
    pub fn ruleset(&self) -> Ruleset {
        match (self.name(), self.rules.as_deref()) {
            ("tetris", Some("contest")) => Ruleset::Contest,
            ("tetris", Some("guideline")) => Ruleset::Guideline,
            ("puyo", _) => Ruleset::Puyo,
            ("connect", _) => Ruleset::Connect,
            _ => Ruleset::Research,
        }
    }

    /// Refuses every setting the game does not use, flag and config key alike: the one place
    /// that says which game takes which setting, so nothing is silently ignored (or written
    /// into a run.toml as if it counted).
    pub fn check_settings(&self) -> Result<()> {
        use Ruleset::*;
        let settings: [(&str, bool, &[Ruleset]); 35] = [
            ("--width", self.width.is_some(), &[Research, Puyo, Connect]),
            (
                "--height",
                self.height.is_some(),
                &[Research, Puyo, Connect],
            ),
            (
                "--rules",
                self.rules.is_some(),
                &[Research, Contest, Guideline, Puyo],
            ),
            ("--colours", self.colours.is_some(), &[Puyo]),
            ("--fitness", self.fitness.is_some(), &[Puyo]),
            ("--inarow", self.inarow.is_some(), &[Connect]),
            ("--endgame", self.endgame.is_some(), &[Connect]),
            (
                "--opponent-depth",
                self.opponent_depth.is_some(),
                &[Connect],
            ),
            ("--book", self.book.is_some(), &[Connect]),
            (
                "--opponent",
                !self.opponents.is_empty(),
                &[Connect, Guideline],
            ),
            ("--mode", self.mode.is_some(), &[Guideline]),
            ("--previews", self.previews.is_some(), &[Guideline]),
            ("--no-hold", self.no_hold, &[Guideline]),
            ("--attack", self.attack.is_some(), &[Guideline]),
            (
                "--garbage-delay",
                self.garbage_delay.is_some(),
                &[Guideline],
            ),
            ("--garbage-cap", self.garbage_cap.is_some(), &[Guideline]),
            ("--messiness", self.messiness.is_some(), &[Guideline]),
            ("--margin", self.margin.is_some(), &[Guideline]),
            (
                "--margin-increase",
                self.margin_increase.is_some(),
                &[Guideline],
            ),
            ("--no-lock-out", self.no_lock_out, &[Guideline]),
            ("--think-ms", self.think_ms.is_some(), &[Guideline]),
            ("--timeout-ms", self.timeout_ms.is_some(), &[Guideline]),
            ("--bag7", self.bag7, &[Research]),
            ("--allow-topout", self.allow_topout, &[Research, Puyo]),
            ("--preview", self.preview, &[Research, Puyo]),
            ("--level", self.level.is_some(), &[Contest]),
            ("--turns", self.turns.is_some(), &[Contest]),
            ("--all-clear", self.all_clear, &[Contest]),
            ("--splitting", self.splitting.is_some(), &[Research]),
            ("--samples", self.samples.is_some(), &[Puyo]),
            ("--unseen", self.unseen.is_some(), &[Puyo]),
            ("--fired", self.fired.is_some(), &[Puyo]),
            ("--pairs-shown", self.pairs_shown.is_some(), &[Puyo]),
            ("--fire-points", self.fire_points.is_some(), &[Puyo]),
            (
                "--beam-width",
                self.beam_width.is_some(),
                &[Research, Contest, Guideline, Puyo],
            ),
        ];
        let this = self.ruleset();
        for (flag, given, users) in settings {
            if given && !users.contains(&this) {
                bail!(
                    "{flag} is a {} setting; {} does not use it",
                    Ruleset::owners(users),
                    this.name()
                );
            }
        }
        Ok(())
    }
}
