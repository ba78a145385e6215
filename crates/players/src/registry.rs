//! The registry of games: one name per game, one place that builds a game from its settings.
//!
//! Code that must call generic functions on "whatever game the user named" goes through
//! [`AnyGame`] and the [`with_game!`](crate::with_game) macro; nothing else names a game.

use crate::eval::LinearPlayer;
use crate::search::{Player, SAMPLED_FLAGS, Search};
use crate::weights::WeightFile;
use anyhow::{Result, bail};
use stacktune_base::limits::{MAX_BEAM_DEPTH, check_beam, check_sampled};
use stacktune_game::Playable;
use stacktune_game::SharedPolicy;
use stacktune_games::connect::Connect;
use stacktune_games::settings::{GameSpec, Ruleset};
use stacktune_games::tetris::guideline::Guideline;
use stacktune_games::tetris::guideline::tbp::brain::PlayerBrain;
use stacktune_games::tetris::{contest, guideline};
use stacktune_games::{connect, puyo, tetris};
use std::path::Path;
use std::sync::Arc;

use stacktune_games::GAME_NAMES;

/// The rules a weights file of `game` that names none was tuned under, where it matters:
/// Tetris weights that do not say `contest` are research weights (the contest's pieces, hold
/// and scores make other boards good), while a Puyo file without rules fits both rulesets, as
/// the hand-set start of the Tsu runs does.
pub fn unnamed_rules(game: &str) -> Option<&'static str> {
    (game == "tetris").then_some("research")
}

/// A configured game of any kind.
#[derive(Clone, Debug)]
pub enum AnyGame {
    Tetris(tetris::Tetris),
    Contest(contest::Contest),
    Guideline(guideline::Guideline),
    Puyo(puyo::Puyo),
    Connect(connect::Connect),
}

/// What the registry adds to a game's settings: the search they ask for, the game they build
/// and the weights files they name.
pub trait Build {
    /// The search the tuned player uses.
    fn search(&self) -> Result<Search>;
    /// Builds the game, rejecting unknown names, settings the game does not use and impossible
    /// sizes with one clear line.
    fn build(&self) -> Result<AnyGame>;
    /// The weights files the settings name.
    fn weight_files(&self) -> Vec<String>;
    /// [`build`](Build::build) with the weights files it names read by `load`.
    fn build_with(&self, load: &dyn Fn(&Path) -> Result<WeightFile>) -> Result<AnyGame>;
}

impl Build for GameSpec {
    /// The search the tuned player uses: Connect-N's alpha-beta over `--depth` plies, a beam
    /// when `--beam-width` is given, else one ply (two with `--preview`; one for contest Tetris,
    /// which always shows five pieces).
    fn search(&self) -> Result<Search> {
        let name = self.name();
        if (self.samples.is_some() || self.unseen.is_some()) && self.beam_width.is_none() {
            bail!("--samples and --unseen set a sampled beam for {name}; give --beam-width too");
        }
        if self.nodes.is_some() && (self.beam_width.is_none() || self.samples.is_some()) {
            bail!(
                "--nodes makes the beam of --beam-width an anytime search; give --beam-width (and no --samples)"
            );
        }
        if self.fired.is_some() && self.samples.is_none() {
            bail!("--fired values a sampled beam's moves; give --beam-width and --samples too");
        }
        match (self.depth, self.beam_width) {
            // A beam width is refused for connect with the other settings (`build`).
            (depth, _) if name == "connect" => Ok(Search::AlphaBeta {
                depth: depth.unwrap_or(1),
                endgame: self.endgame.unwrap_or(0),
            }),
            // Contest and guideline Tetris always show pieces: their cheap default looks at
            // one, as a versus opponent from a file without a search does.
            (None, None)
                if matches!(
                    self.rules.as_deref(),
                    Some("contest" | "guideline" | "tetrio")
                ) =>
            {
                Ok(Search::OnePly)
            }
            (None, None) => Ok(Search::Lookahead),
            (Some(_), None) => {
                bail!("--depth sets the beam's depth for {name}; give --beam-width too")
            }
            (depth, Some(width)) if self.samples.is_some() || self.unseen.is_some() => {
                if depth.is_some() {
                    bail!("--depth is not for a sampled beam, which searches every piece shown");
                }
                let (samples, unseen) = (self.samples.unwrap_or(1), self.unseen.unwrap_or(4));
                check_sampled(width, samples, unseen, self.fired, SAMPLED_FLAGS)?;
                Ok(Search::Sampled {
                    width,
                    samples,
                    unseen,
                    fired: self.fired,
                })
            }
            (depth, Some(width)) => {
                let depth = depth.unwrap_or(MAX_BEAM_DEPTH);
                check_beam(depth, width, ("--depth", "--beam-width"))?;
                Ok(match self.nodes {
                    Some(0) => {
                        bail!("--nodes 0 leaves the search nothing to spend; give 1 or more")
                    }
                    Some(nodes) => Search::Anytime {
                        depth,
                        width,
                        nodes,
                    },
                    None => Search::Beam { depth, width },
                })
            }
        }
    }

    /// Builds the game, rejecting unknown names, settings the game does not use and impossible
    /// sizes with one clear line.
    fn build(&self) -> Result<AnyGame> {
        self.build_with(&WeightFile::load)
    }

    /// The weights files the settings name (Connect-N opponents that are not reference agents),
    /// as they name them.
    fn weight_files(&self) -> Vec<String> {
        let agents: &[&str] = match self.ruleset() {
            Ruleset::Connect => &connect::agents::Opponent::NAMES,
            Ruleset::Guideline => &[guideline::HAND_NAME],
            Ruleset::PuyoVersus => &[],
            _ => return Vec::new(),
        };
        self.opponents
            .iter()
            .filter(|o| !agents.contains(&o.as_str()) && !o.starts_with(guideline::BOT_PREFIX))
            .cloned()
            .collect()
    }

    /// [`build`](GameSpec::build) with the weights files it names read by `load`.
    fn build_with(&self, load: &dyn Fn(&Path) -> Result<WeightFile>) -> Result<AnyGame> {
        let name = self.name();
        if GAME_NAMES.contains(&name) {
            self.check_settings()?;
        }
        match name {
            #[cfg(feature = "cli-games")]
            "tetris" if self.rules.as_deref() == Some("contest") => {
                Ok(AnyGame::Contest(contest::Contest::from_spec(self)?))
            }
            #[cfg(feature = "cli-games")]
            "tetris" if matches!(self.rules.as_deref(), Some("guideline" | "tetrio")) => {
                let policy = |game: &Guideline, role: &str, name: &str| {
                    guideline_policy(game, role, name, load, self.search()?)
                };
                let game = Guideline::from_spec(self, &policy)?;
                self.search()?;
                Ok(AnyGame::Guideline(game))
            }
            // The playground's build (see the feature in Cargo.toml).
            #[cfg(not(feature = "cli-games"))]
            "tetris"
                if matches!(
                    self.rules.as_deref(),
                    Some("contest" | "guideline" | "tetrio")
                ) =>
            {
                let rules = match self.rules.as_deref() {
                    Some("contest") => "contest",
                    _ => "guideline",
                };
                bail!(
                    "{rules} Tetris is tuned on the command line, not in the browser: stacktune evolve --rules {rules}"
                )
            }
            "tetris" => {
                if let Some(r) = self.rules.as_deref().filter(|r| *r != "research") {
                    bail!("unknown tetris rules `{r}`; valid rules: research, contest, guideline");
                }
                if let Some(effort) = self.splitting {
                    stacktune_base::limits::check(
                        "--splitting",
                        effort,
                        &stacktune_base::limits::SPLITTING_EFFORT,
                    )?;
                }
                let game =
                    tetris::Tetris::new(self.width.unwrap_or(10), self.height.unwrap_or(20))?
                        .with_randomizer(if self.bag7 {
                            tetris::Randomizer::Bag7
                        } else {
                            tetris::Randomizer::Uniform
                        })
                        .with_topout_allowed(self.allow_topout)
                        .with_preview(self.preview)
                        .with_splitting(self.splitting);
                Ok(AnyGame::Tetris(game))
            }
            "puyo" if self.ruleset() == Ruleset::PuyoVersus => {
                let opponent = |game: &puyo::Puyo, name: &str| puyo_opponent(game, name, load);
                Ok(AnyGame::Puyo(puyo::Puyo::versus_from_spec(
                    self, &opponent,
                )?))
            }
            "puyo" => Ok(AnyGame::Puyo(puyo::Puyo::from_spec(self)?)),
            "connect" => {
                let policy = |game: &Connect, name: &str| connect_policy(game, name, load);
                Ok(AnyGame::Connect(Connect::from_spec(self, &policy)?))
            }
            other => bail!(
                "unknown game `{other}`; valid games: {}",
                GAME_NAMES.join(", ")
            ),
        }
    }
}
impl AnyGame {
    /// The same game, [`adapted`] to `seed` and `rivals` under `search`.
    pub fn adapted(
        &self,
        seed: Option<u64>,
        rivals: &[Vec<f64>],
        search: Search,
    ) -> Result<AnyGame> {
        Ok(match self {
            AnyGame::Tetris(g) => AnyGame::Tetris(adapted(g, seed, rivals, search)?),
            AnyGame::Contest(g) => AnyGame::Contest(adapted(g, seed, rivals, search)?),
            AnyGame::Guideline(g) => AnyGame::Guideline(adapted(g, seed, rivals, search)?),
            AnyGame::Puyo(g) => AnyGame::Puyo(adapted(g, seed, rivals, search)?),
            AnyGame::Connect(g) => AnyGame::Connect(adapted(g, seed, rivals, search)?),
        })
    }
}

/// `game` numbered from `seed` if given, with `rivals` (earlier champions' weights, aligned with
/// its features) among its opponents, each a player under `search` without an endgame solver
/// (the tuned side's search: rivals meet candidates on equal terms); rivals for a one-player
/// game are an error ([`stacktune_game::adapted`]).
pub fn adapted<G: Playable + Clone>(
    game: &G,
    seed: Option<u64>,
    rivals: &[Vec<f64>],
    search: Search,
) -> Result<G> {
    let search = search.for_rivals();
    let rivals = rivals
        .iter()
        .map(|weights| {
            let eval = LinearPlayer::from_vector(game.feature_names(), weights)?;
            Ok(Arc::new(Player::new(eval, search)) as SharedPolicy<G>)
        })
        .collect::<Result<Vec<_>>>()?;
    stacktune_game::adapted(game, seed, &rivals)
}

/// A weights file's player for guideline Tetris, under the file's search, or `search` (the tuned
/// side's) when it names none, so that a hand-set anchor meets candidates on equal terms.
pub fn guideline_player(game: &Guideline, file: &WeightFile, search: Search) -> Result<Player> {
    // The two rulesets read the same features, so either's weights play under either.
    if !matches!(file.rules.as_deref(), Some("guideline" | "tetrio")) {
        bail!(
            "it holds {} weights{}, not guideline tetris weights",
            file.game,
            file.rules
                .as_deref()
                .map(|r| format!(" for rules `{r}`"))
                .unwrap_or_default()
        );
    }
    let eval = LinearPlayer::from_file(game, file)?;
    let search = match file.search {
        Some(s) => {
            let depth = s.depth.unwrap_or(MAX_BEAM_DEPTH);
            check_beam(depth, s.beam_width, ("depth", "beam_width"))?;
            match s.nodes {
                Some(nodes) => Search::Anytime {
                    depth,
                    width: s.beam_width,
                    nodes,
                },
                None => Search::Beam {
                    depth,
                    width: s.beam_width,
                },
            }
        }
        None => search,
    };
    Ok(Player::new(eval, search))
}

/// The compiled-in hand-set player (Cold Clear's default weights) under `search`: the opponent a
/// versus run meets when it names none, and a fixed yardstick.
pub fn hand_player(game: &Guideline, search: Search) -> Player {
    let file = WeightFile::parse(guideline::HAND_WEIGHTS).expect("the hand-set weights parse");
    guideline_player(game, &file, search).expect("the hand-set weights fit guideline tetris")
}

/// The Tetris Bot Protocol bot a guideline weights file makes (`stacktune tbp`, the browser's
/// worker): the file's player under its own search (one ply without one) on the rules it names
/// (guideline or tetrio, with their defaults); `source` names the weights in `info`.
pub fn tbp_brain(file: &WeightFile, source: String) -> Result<PlayerBrain<Player>> {
    // The bot plays the rules its weights were tuned under: TBP's `rules` names only the
    // randomizer, never the kicks or the spins.
    let rules = file
        .rules
        .as_deref()
        .and_then(guideline::rules::Rules::named);
    let game = Guideline::new(rules.unwrap_or_default(), guideline::Mode::Versus);
    let player = guideline_player(&game, file, Search::OnePly)?;
    let search = format!("{:?}", player.search);
    Ok(PlayerBrain::new(game, player, source, search))
}

/// The bot `stacktune tbp` and the browser's worker serve when given no weights: the shipped
/// versus player, compiled in so that the binary alone is a bot, named in `info` by the file
/// it was built from.
pub fn shipped_tbp_brain() -> PlayerBrain<Player> {
    let file = WeightFile::parse(guideline::TUNED_WEIGHTS).expect("the shipped weights parse");
    tbp_brain(&file, guideline::TUNED_SOURCE.to_string())
        .expect("the shipped weights fit guideline tetris")
}

/// A guideline side by name, as a policy: `hand`, or a weights file `load` reads, under its own
/// search or `search`. `role` names the side in a refusal.
pub fn guideline_policy(
    game: &Guideline,
    role: &str,
    name: &str,
    load: &dyn Fn(&Path) -> Result<WeightFile>,
    search: Search,
) -> Result<SharedPolicy<Guideline>> {
    let player = if name == guideline::HAND_NAME {
        hand_player(game, search)
    } else {
        let file = load(Path::new(name)).map_err(|e| {
            anyhow::anyhow!(
                "{role} `{name}` is neither `{}` nor a readable weights file: {e:#}",
                guideline::HAND_NAME
            )
        })?;
        guideline_player(game, &file, search)
            .map_err(|e| anyhow::anyhow!("{role} weights file {name}: {e}"))?
    };
    Ok(Arc::new(player))
}

/// An opponent of a Puyo versus run: the weights file `name`, which `load` reads, its match
/// weights (if any) read from the match, one ply shown one pair: the fixed points a run rates
/// its candidates against, whatever search the candidates play.
fn puyo_opponent(
    game: &puyo::Puyo,
    name: &str,
    load: &dyn Fn(&Path) -> Result<WeightFile>,
) -> Result<puyo::selfplay::Opponent> {
    let in_file = |e: anyhow::Error| anyhow::anyhow!("opponent weights file {name}: {e:#}");
    let file = load(Path::new(name)).map_err(in_file)?;
    if file.search.is_some() || file.pairs_shown.is_some_and(|n| n > 1) {
        return Err(in_file(anyhow::anyhow!(
            "the opponents of puyo versus runs play one ply, shown one pair; it names a search or more pairs"
        )));
    }
    let eval = LinearPlayer::from_file(game, &file).map_err(in_file)?;
    Ok(puyo::selfplay::Opponent {
        name: name.to_string(),
        policy: Arc::new(Player::new(eval, Search::OnePly)),
        shown: 1,
    })
}

/// A Connect-N opponent that is no reference agent: the weights file `name`, which `load`
/// reads, searching the game's opponent depth with alpha-beta.
fn connect_policy(
    game: &Connect,
    name: &str,
    load: &dyn Fn(&Path) -> Result<WeightFile>,
) -> Result<SharedPolicy<Connect>> {
    let search = Search::AlphaBeta {
        depth: game.opponent_depth(),
        endgame: 0,
    };
    Ok(Arc::new(Player::new(
        connect_weights(game, name, load)?,
        search,
    )))
}

/// The evaluation of a Connect-N opponent's weights file `name`, which `load` reads; errors
/// name the file and the reference agents it might have meant.
pub fn connect_weights(
    game: &Connect,
    name: &str,
    load: &dyn Fn(&Path) -> Result<WeightFile>,
) -> Result<LinearPlayer> {
    let file = load(Path::new(name)).map_err(|e| {
        anyhow::anyhow!(
            "opponent `{name}` is neither {} nor a readable weights file: {e:#}",
            connect::agents::Opponent::NAMES.join(", ")
        )
    })?;
    LinearPlayer::from_file(game, &file)
        .map_err(|e| anyhow::anyhow!("opponent weights file {name}: {e}"))
}

/// A Connect-N opponent by name: a reference agent, or a weights file read from the disk
/// ([`connect_policy`]).
pub fn connect_opponent(game: &Connect, name: &str) -> Result<connect::agents::Opponent> {
    match connect::agents::Opponent::agent_named(name) {
        Some(agent) => Ok(agent),
        None => Ok(connect::agents::Opponent::Policy {
            name: name.to_string(),
            policy: connect_policy(game, name, &WeightFile::load)?,
        }),
    }
}

/// Runs `$body` with `$g` bound to the concrete game inside an [`AnyGame`].
#[macro_export]
macro_rules! with_game {
    ($any:expr, $g:ident => $body:expr) => {
        match $any {
            $crate::registry::AnyGame::Tetris($g) => $body,
            $crate::registry::AnyGame::Contest($g) => $body,
            $crate::registry::AnyGame::Guideline($g) => $body,
            $crate::registry::AnyGame::Puyo($g) => $body,
            $crate::registry::AnyGame::Connect($g) => $body,
        }
    };
}
