//! The settings that pick a game, its size, rules and search: the part of a run's config and
//! of every command's flags that says which game is played and how.
//!
//! Each setting is declared once, in [`GameSpec`]'s declaration below: its name (the run.toml
//! key), its help (the flag's), its flag, its run.toml form, and the games it applies to.
//! The flags (clap), run.toml (serde), the check that refuses a setting a game does not use,
//! how a flag overlays a config, the command line a report prints and the switches a flag
//! turns off all come from that declaration.

use anyhow::{Result, bail};
use serde::{Deserialize, Serialize};
use std::path::Path;

/// What one setting is, for whatever walks every setting (the check, the command line, tests
/// that carry each setting through a run).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Setting {
    /// The run.toml key (`[game]` table), the field's name.
    pub key: &'static str,
    /// The flag, without its dashes.
    pub flag: &'static str,
    /// The rulesets that use it: every other refuses it.
    pub users: &'static [Ruleset],
}

/// How a setting's value behaves, whatever its type: whether it was given, how a flag given on
/// the command line overlays a config's value, and how the command line writes it.
trait Value {
    fn given(&self) -> bool;
    /// A value given wins; a switch given turns on; a list given replaces the config's.
    fn overlay(&mut self, flag: &Self);
    /// The flag as a command line writes it, each with a leading space (none when not given).
    fn command(&self, flag: &str) -> String;
}

impl<T: Clone + std::fmt::Display> Value for Option<T> {
    fn given(&self) -> bool {
        self.is_some()
    }

    fn overlay(&mut self, flag: &Self) {
        if flag.is_some() {
            self.clone_from(flag);
        }
    }

    fn command(&self, flag: &str) -> String {
        self.as_ref()
            .map_or_else(String::new, |v| format!(" --{flag} {v}"))
    }
}

impl Value for bool {
    fn given(&self) -> bool {
        *self
    }

    fn overlay(&mut self, flag: &Self) {
        *self |= *flag;
    }

    fn command(&self, flag: &str) -> String {
        match self {
            true => format!(" --{flag}"),
            false => String::new(),
        }
    }
}

impl Value for Vec<String> {
    fn given(&self) -> bool {
        !self.is_empty()
    }

    fn overlay(&mut self, flag: &Self) {
        if !flag.is_empty() {
            self.clone_from(flag);
        }
    }

    fn command(&self, flag: &str) -> String {
        self.iter().map(|v| format!(" --{flag} {v}")).collect()
    }
}

/// Declares the game settings once: each `field: Type = "flag" for [rulesets] (off no_flag)?;`
/// with its help (doc comment) and its run.toml form (serde attributes) above it. Generates
/// [`GameSpec`], its [`SETTINGS`](GameSpec::SETTINGS), what walks them, and [`Off`] (a
/// `--no-<flag>` for each switch marked `off`).
macro_rules! game_settings {
    ($(
        $(#[$attr:meta])*
        $field:ident: $ty:ty = $flag:literal for [$($user:ident),*] $(off $off:ident)?;
    )*) => {
        /// Which game, at what size and under which rules: the part of a run's config and of
        /// the CLI that picks the game. Every field but `game` has a per-game default.
        #[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
        #[cfg_attr(feature = "clap", derive(clap::Args))]
        #[serde(deny_unknown_fields)]
        pub struct GameSpec {
            $(
                $(#[$attr])*
                #[cfg_attr(feature = "clap", arg(long = $flag))]
                pub $field: $ty,
            )*
        }

        /// Flags that turn off a switch a config file turned on (`bag7 = true` and
        /// `--no-bag7`).
        #[derive(Clone, Debug, Default, PartialEq, Eq)]
        #[cfg_attr(feature = "clap", derive(clap::Args))]
        pub struct Off {
            $($(
                #[doc = concat!("Turn off --", $flag, " even if the config turns it on.")]
                #[cfg_attr(feature = "clap", arg(long, conflicts_with = stringify!($field)))]
                pub $off: bool,
            )?)*
        }

        impl GameSpec {
            /// Every setting, in the order the command line writes them.
            pub const SETTINGS: &'static [Setting] = &[$(Setting {
                key: stringify!($field),
                flag: $flag,
                users: &[$(Ruleset::$user),*],
            }),*];

            /// Whether each setting of [`SETTINGS`](GameSpec::SETTINGS) was given.
            pub fn given(&self) -> Vec<bool> {
                vec![$(Value::given(&self.$field)),*]
            }

            /// The settings given in `flags` over these (a config's): a value or a list given
            /// wins, a switch given turns on.
            pub fn overlay(&mut self, flags: &GameSpec) {
                $(Value::overlay(&mut self.$field, &flags.$field);)*
            }

            /// Turns off the switches `off` names.
            pub fn switch_off(&mut self, off: &Off) {
                $($(
                    if off.$off {
                        self.$field = false;
                    }
                )?)*
            }

            /// Each setting given, as the command line writes it (with a leading space), in
            /// the order of [`SETTINGS`](GameSpec::SETTINGS).
            fn commands(&self) -> Vec<String> {
                vec![$(Value::command(&self.$field, $flag)),*]
            }
        }
    };
}

game_settings! {
    /// Game to play: tetris, puyo or connect (default: the game a weights file names, else
    /// tetris).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    game: Option<String> = "game" for [Research, Contest, Guideline, Puyo, Connect, PuyoVersus];
    /// Board width (tetris: 4 to 16, default 10; connect: columns, default 7, with
    /// (rows + 1) × columns at most 64).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    width: Option<usize> = "width" for [Research, Puyo, Connect];
    /// Board height (tetris: 4 to 64, default 20; connect: rows, default 6, with
    /// (rows + 1) × columns at most 64).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    height: Option<usize> = "height" for [Research, Puyo, Connect];
    /// Ruleset: tetris `research`, `contest`, `guideline` or `tetrio` (guideline's settings
    /// from TETR.IO's defaults); puyo `programming` or `tsu`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    rules: Option<String> = "rules" for [Research, Contest, Guideline, Puyo, PuyoVersus];
    /// Puyo: what an episode scores, `score` (default), `max_chain` (largest chain fired) or
    /// `max_chain_alive` (the same, 0 for a lost game).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    fitness: Option<String> = "fitness" for [Puyo];
    /// Puyo colours (3 to 5, default 4).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    colours: Option<u8> = "colours" for [Puyo, PuyoVersus];
    /// Connect-N: discs in a row to win (default 4).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    inarow: Option<usize> = "inarow" for [Connect];
    /// Plies the player searches: Connect-N with alpha-beta (default 1: one ply); other games
    /// with the beam of --beam-width (default: every piece the game shows).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    depth: Option<u32> = "depth" for [Research, Contest, Guideline, Puyo, Connect, PuyoVersus];
    /// Connect-N: plies a weights-file --opponent searches with alpha-beta (default 1), so an
    /// anchor can search as deep as the player it measures.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    opponent_depth: Option<u32> = "opponent-depth" for [Connect];
    /// Connect Four (7 × 6, 4 in a row): from this many empty cells on (1 to 42), the player
    /// keeps to the columns an exact solver proves keep the game's value, and its search picks
    /// among them (default: never).
    #[cfg_attr(feature = "clap", arg(value_name = "EMPTY_CELLS"))]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    endgame: Option<u32> = "endgame" for [Connect];
    /// Connect Four (7 × 6, 4 in a row): an opening book (`connect-book`) whose columns the
    /// search picks among in the positions it holds: a book file, `shipped`
    /// (weights/connect/book.txt, compiled in) or `none` (the default).
    #[cfg_attr(feature = "clap", arg(value_name = "FILE|shipped|none"))]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    book: Option<String> = "book" for [Connect];
    /// Search a beam this wide over the pieces the game shows (previews, hold) instead of one
    /// ply; a position's value is its evaluation plus the points of the moves before it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    beam_width: Option<usize> = "beam-width" for [Research, Contest, Guideline, Puyo, PuyoVersus];
    /// Search with the beam of --beam-width past the pieces shown: this many sampled futures
    /// of --unseen pieces each, a move valued by its mean over them (puyo).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    samples: Option<u32> = "samples" for [Puyo, PuyoVersus];
    /// Pieces past those shown that each of --samples futures draws (default 4).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    unseen: Option<u32> = "unseen" for [Puyo, PuyoVersus];
    /// Value the sampled beam's moves by the chains their lines fire, not the positions they
    /// reach (ama's and takapt's search; puyo): a line ends at a move scoring POINTS or more
    /// (ama: 5,000); deeper futures (--unseen 12) carry a build to its fire.
    #[cfg_attr(feature = "clap", arg(value_name = "POINTS"))]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    fired: Option<u32> = "fired" for [Puyo, PuyoVersus];
    /// Search the beam of --beam-width as an anytime search: it widens (1, 2, 4, ... up to
    /// --beam-width positions a ply) while its searches stay within NODES expansions a move,
    /// so the budget is counted in nodes and a move is the same on any machine.
    #[cfg_attr(feature = "clap", arg(value_name = "NODES"))]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    nodes: Option<u64> = "nodes" for [Research, Contest, Guideline, Puyo, PuyoVersus];
    /// Puyo: pairs the player sees, the one to place included (1 to 3; Tsu shows 3; default
    /// 1, 2 with --preview).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pairs_shown: Option<u8> = "pairs-shown" for [Puyo, PuyoVersus];
    /// Puyo: end a game once one move scores at least these points (ama's measure: build one
    /// chain, fire it, stop); play then reports each game's `fired_at` pair.
    #[cfg_attr(feature = "clap", arg(value_name = "POINTS"))]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    fire_points: Option<u32> = "fire-points" for [Puyo];
    /// Contest tetris: the level, 1 to 4 (default 2; 3 adds obstacles; 4 is level 3 without
    /// the 180-turn limit, see --turns).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    level: Option<u8> = "level" for [Contest];
    /// Contest tetris level 4: turns a game lasts, 1 to 180,000 (default 180,000: a move every
    /// 1 ms tick of the contest's 180 s; fewer model a slower controller).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    turns: Option<u32> = "turns" for [Contest];
    /// Research tetris: each game is a multilevel-splitting estimate of an uncapped game's
    /// mean lines, EFFORT trajectories a level (e.g. 500), not a game played out: seconds for
    /// players whose games last hours.
    #[cfg_attr(feature = "clap", arg(value_name = "EFFORT"))]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    splitting: Option<u32> = "splitting" for [Research];
    /// Guideline tetris: what an episode measures, `versus` (a match against each
    /// --opponent, default), `sprint` (40 lines), `attack` (attack per piece) or `survival`
    /// (against a seeded garbage stream); puyo: `versus`, Tsu's battle rules (what `stacktune
    /// versus` plays on puyo weights).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    mode: Option<String> = "mode" for [Guideline, PuyoVersus];
    /// Guideline tetris: pieces shown after the current one (0 to 6, default 5).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    previews: Option<u8> = "previews" for [Guideline];
    /// Guideline tetris: the rotation system, `srs` (the guideline's; default) or `srs+`
    /// (TETR.IO's: the I piece's kicks mirror-symmetric).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    kicks: Option<String> = "kicks" for [Guideline];
    /// Guideline tetris: whether pieces turn half round with TETR.IO's 180° kicks, `true` or
    /// `false` (default).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    turn_180: Option<bool> = "turn-180" for [Guideline];
    /// Guideline tetris: what counts as a spin, `t-spins` (default) or `all-mini+` (TETR.IO's:
    /// any piece that cannot move left, right or up after its turn spins, a mini unless a
    /// T-spin is full).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    spins: Option<String> = "spins" for [Guideline];
    /// Guideline tetris: where pieces appear, `guideline` (the 21st row, dropping to the 20th
    /// if it can; default) or `tetrio` (the 22nd row).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    spawn: Option<String> = "spawn" for [Guideline];
    /// Guideline tetris: the attack table, `guideline` (Puyo Puyo Tetris, Tetris 99; default)
    /// `tetrio` (TETR.IO season 1) or `tetrio-s2` (TETR.IO's TETRA LEAGUE season 2: surge,
    /// perfect clear 5).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    attack: Option<String> = "attack" for [Guideline];
    /// Guideline tetris: pieces the receiver places before an attack's rows can rise
    /// (default 1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    garbage_delay: Option<u32> = "garbage-delay" for [Guideline];
    /// Guideline tetris: most garbage rows that rise after one piece (default 8).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    garbage_cap: Option<u32> = "garbage-cap" for [Guideline];
    /// Guideline tetris: the chance (0 to 1) that a garbage row's hole moves from the row
    /// below's column within one attack (default 0: one column an attack).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    messiness: Option<f64> = "messiness" for [Guideline];
    /// Guideline tetris: margin time, in pieces: from each side's PIECES-th piece on, its attacks
    /// grow by --margin-increase per cent a piece, rounded down (TETR.IO's margin time), so
    /// that matches between players that only defend still end (default: none).
    #[cfg_attr(feature = "clap", arg(value_name = "PIECES"))]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    margin: Option<u32> = "margin" for [Guideline];
    /// Guideline tetris: with --margin, the per cent each piece adds to attacks (1 to 1,000,
    /// default 1: attacks doubled 100 pieces after the margin).
    #[cfg_attr(feature = "clap", arg(value_name = "PERCENT"))]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    margin_increase: Option<u32> = "margin-increase" for [Guideline];
    /// Puyo versus: points a nuisance puyo costs before the margin (default 70, Tsu's).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    target_points: Option<u32> = "target-points" for [PuyoVersus];
    /// Puyo versus: pairs a side places before its target points first fall (default 103:
    /// Tsu's 96 s margin at 56 frames a pair).
    #[cfg_attr(feature = "clap", arg(value_name = "PAIRS"))]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    margin_pairs: Option<u32> = "margin-pairs" for [PuyoVersus];
    /// Puyo versus: pairs between later falls of the target points (default 17: Tsu's 16 s).
    #[cfg_attr(feature = "clap", arg(value_name = "PAIRS"))]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    margin_every: Option<u32> = "margin-every" for [PuyoVersus];
    /// Puyo versus: most nuisance that falls on a side in one turn (default 30, five rows).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    nuisance_cap: Option<u32> = "nuisance-cap" for [PuyoVersus];
    /// Puyo versus: nuisance an all clear adds to the side's next chain (default 30).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    all_clear_nuisance: Option<u32> = "all-clear-nuisance" for [PuyoVersus];
    /// Guideline tetris: a bot opponent's (`tbp:COMMAND`) thinking time a piece, in
    /// milliseconds of wall time before it is asked for its move (default 100).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    think_ms: Option<u64> = "think-ms" for [Guideline];
    /// Guideline tetris: how long a bot opponent may take to answer beyond its thinking time
    /// before it loses the game, in milliseconds (default 5,000); puyo versus: how long a
    /// `pbp:` bot may take for any answer (default 5,000).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    timeout_ms: Option<u64> = "timeout-ms" for [Guideline, PuyoVersus];
    /// Connect-N: an opponent, repeat for a pool: random, tutorial, negamax4 or a connect
    /// weights file (default: tutorial and negamax4). Puyo versus runs: a puyo weights file.
    #[cfg_attr(feature = "clap", arg(value_name = "NAME|FILE"))]
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    opponents: Vec<String> = "opponent" for [Connect, Guideline, PuyoVersus];
    /// Puyo: a feature of one's own, a function of the board defined beside the run (in
    /// Python, or on the browser's page), tuned after the built-in features; repeat for more.
    #[cfg_attr(feature = "clap", arg(value_name = "NAME"))]
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    board_features: Vec<String> = "board-feature" for [Puyo];
    /// Draw tetris pieces from shuffled bags of seven instead of independently.
    #[serde(default)]
    bag7: bool = "bag7" for [Research] off no_bag7;
    /// Offer placements that top out (they end the game when chosen).
    #[serde(default)]
    allow_topout: bool = "allow-topout" for [Research, Puyo] off no_allow_topout;
    /// Show the next piece; the player then places both before scoring.
    #[serde(default)]
    preview: bool = "preview" for [Research, Puyo, PuyoVersus] off no_preview;
    /// Contest tetris: score the July-2023 all-clear bonus (off in the March-2023 rules).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    all_clear: bool = "all-clear" for [Contest] off no_all_clear;
    /// Guideline tetris: play without hold.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    no_hold: bool = "no-hold" for [Guideline];
    /// Guideline tetris: a piece locking wholly above the visible 20 rows does not lose.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    no_lock_out: bool = "no-lock-out" for [Guideline];
}

/// The rulesets whose settings differ: what [`GameSpec::check_settings`] tells apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ruleset {
    Research,
    Contest,
    Guideline,
    Puyo,
    /// Puyo's battle rules (`versus` on puyo weights: `--mode versus`).
    PuyoVersus,
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
            Ruleset::PuyoVersus => "puyo versus",
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
                // Puyo's battle rules take what they share with solo puyo.
                Ruleset::PuyoVersus if users.contains(&Ruleset::Puyo) => None,
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
    /// game, its rules and size too, but a flag more says it plainly; it names the game alone).
    fn flags(&self) -> String {
        Self::SETTINGS
            .iter()
            .zip(self.commands())
            .filter(|(setting, _)| setting.key != "game")
            .map(|(_, command)| command)
            .collect()
    }

    /// The ruleset the spec names, for the settings check.
    pub fn ruleset(&self) -> Ruleset {
        match (self.name(), self.rules.as_deref()) {
            ("tetris", Some("contest")) => Ruleset::Contest,
            ("tetris", Some("guideline" | "tetrio")) => Ruleset::Guideline,
            ("puyo", _) if self.mode.as_deref() == Some("versus") => Ruleset::PuyoVersus,
            ("puyo", _) => Ruleset::Puyo,
            ("connect", _) => Ruleset::Connect,
            _ => Ruleset::Research,
        }
    }

    /// Refuses every setting the game does not use, flag and config key alike, so nothing is
    /// silently ignored (or written into a run.toml as if it counted).
    pub fn check_settings(&self) -> Result<()> {
        let this = self.ruleset();
        for (setting, given) in Self::SETTINGS.iter().zip(self.given()) {
            if given && !setting.users.contains(&this) {
                bail!(
                    "--{} is a {} setting; {} does not use it",
                    setting.flag,
                    Ruleset::owners(setting.users),
                    this.name()
                );
            }
        }
        Ok(())
    }
}
