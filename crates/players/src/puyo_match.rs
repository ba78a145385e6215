//! A Puyo side of a match by weights file: the solo player it always was, or, when the file
//! weighs match features, a player that reads the match.
//!
//! A match player scores each first move as its search does alone (the same beam and sampled
//! futures over its own field) and adds what the move does in the match, `w · m` over the
//! match features ([`match_features`]): the nuisance its chain cancels or sends, what lands
//! when the turn ends and whether it kills, what the opponent could send back. So firing now
//! and building on are weighed against each other by the same search, and a chain the solo
//! weights would hold fires when the nuisance on its way would bury the side or when what it
//! sends outweighs the opponent's answer. It reads the match as a self-play run's sides do
//! ([`Reader`]): the match features ride on the position it chooses from, and its search
//! weighs them as each first move's own.

use crate::search::{Player, Search};
use crate::weights::WeightFile;
use anyhow::{Result, bail};
use stacktune_games::puyo::Puyo;
use stacktune_games::puyo::match_features::{MATCH_FEATURE_NAMES, MatchValues};
use stacktune_games::puyo::rules::Placement;
use stacktune_games::puyo::versus::{Contestant, MatchView, Reader, Seat};

/// A Puyo weights file's player under its search and the pairs it is shown; when the file
/// weighs the match, its player weighs the match features too, and it reads the match.
#[derive(Clone, Debug)]
pub struct PuyoSide {
    player: Player,
    shown: u8,
    reads: bool,
}

/// A weights file split into its solo features (a file of its own, for the evaluator) and its
/// match features' weights (`None` when it weighs none: a solo file plays as it always did).
/// A file that weighs the match only is refused: it has nothing to build with.
pub fn split_match_weights(file: &WeightFile) -> Result<(WeightFile, Option<MatchValues>)> {
    let mut solo = file.clone();
    let mut weights: MatchValues = [0.0; MATCH_FEATURE_NAMES.len()];
    let mut any = false;
    for (i, name) in MATCH_FEATURE_NAMES.iter().enumerate() {
        if let Some(w) = solo.weights.remove(*name) {
            weights[i] = w;
            any = true;
        }
    }
    if any && solo.weights.values().all(|&w| w == 0.0) {
        bail!(
            "it weighs match features only: a match player also needs the solo features of its field"
        );
    }
    Ok((solo, any.then_some(weights)))
}

impl PuyoSide {
    /// A side of `player` in `game`, shown `shown` pairs, reading the match with `reads`; a
    /// search that does not weigh a first move's match features on its own scale
    /// ([`Search::weighs_first_move_features`]) is refused, and so are match features that,
    /// after the game's own and board features, are more than a game may have. The match
    /// weights join the player's here, once, not at every move.
    pub fn new(
        game: &Puyo,
        player: Player,
        shown: u8,
        reads: Option<MatchValues>,
    ) -> Result<PuyoSide> {
        if reads.is_some() && !player.search.weighs_first_move_features() {
            let search = match player.search {
                Search::AlphaBeta { .. } => "alpha-beta",
                Search::Anytime { .. } => "the anytime beam (--nodes)",
                _ => "a beam over the pairs shown (--depth)",
            };
            bail!(
                "match features play under one ply, the lookahead or the sampled beam (--samples), not {search}"
            );
        }
        let Some(weights) = reads else {
            return Ok(PuyoSide {
                player,
                shown,
                reads: false,
            });
        };
        // The match features follow the game's own, where the reading position puts them.
        let eval = player
            .eval
            .with_weights_at(game.match_features_at(), &weights)?;
        Ok(PuyoSide {
            player: Player::new(eval, player.search),
            shown,
            reads: true,
        })
    }
}

impl Contestant for &PuyoSide {
    fn choose(&mut self, game: &Puyo, view: &MatchView<'_>) -> Result<Placement, String> {
        if self.reads {
            Reader {
                policy: &self.player,
                shown: self.shown,
            }
            .choose(game, view)
        } else {
            Seat {
                policy: &self.player,
                shown: self.shown,
            }
            .choose(game, view)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::LinearPlayer;
    use stacktune_game::Game;
    use stacktune_games::puyo::field::Field;
    use stacktune_games::puyo::rules::Rules;
    use stacktune_games::puyo::versus::{Battle, BattleRules};
    use stacktune_games::puyo::{Pair, Position};

    /// The shipped match player's file.
    fn shipped_file() -> WeightFile {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../weights/puyo/versus-hand.toml"
        );
        WeightFile::load(std::path::Path::new(path)).unwrap()
    }

    /// The shipped match player's game, its solo part at one ply, and its match weights.
    fn shipped() -> (Puyo, Player, Option<MatchValues>) {
        let file = shipped_file();
        let game = Battle::new(Puyo::new(Rules::Tsu), BattleRules::TSU)
            .unwrap()
            .game;
        let (solo, reads) = split_match_weights(&file).unwrap();
        assert!(reads.is_some());
        let eval = LinearPlayer::from_file(&game, &solo).unwrap();
        (game, Player::new(eval, Search::OnePly), reads)
    }

    /// A 2-chain ready in columns 1 and 2 (a 2 dropped in column 2 fires it: 360 points, 5
    /// nuisance), and column 3 eight high with no group.
    const READY: [&str; 8] = [
        "..3...", "..4...", "1.3...", "1.4...", "1.3...", "2.4...", "2.3...", "214...",
    ];

    /// A choice on `own` against `opponent`, `fixed` nuisance due and nothing else coming.
    fn view<'a>(own: &'a Position, opponent: &'a Position, fixed: u32) -> MatchView<'a> {
        MatchView {
            now: 0,
            position: own,
            pending: 0,
            fixed,
            carry: 0,
            all_clear: false,
            last_sent: 0,
            opponent,
            opponent_chain_ends: None,
            target_points: 70,
            nuisance_cap: 30,
            all_clear_nuisance: 30,
            pairs: [10, 10],
        }
    }

    /// The chain `side` fires on `own` with `fixed` nuisance due.
    fn chain_of(game: &Puyo, side: &PuyoSide, own: &Position, fixed: u32) -> u32 {
        let opponent = Position::new(Field::EMPTY, Pair { axis: 1, child: 1 });
        let mut side = side;
        let mv = side.choose(game, &view(own, &opponent, fixed)).unwrap();
        let mut chains = 0;
        game.for_each_move(own, 0, &mut |m, _, outcome, _| {
            if m == mv {
                chains = outcome.chains;
            }
        });
        chains
    }

    /// The chain the shipped player fires on `READY` with the pair 2-3, `fixed` nuisance due,
    /// reading the match or (`solo`) without its match weights.
    fn chain_fired(fixed: u32, solo: bool) -> u32 {
        let (game, player, reads) = shipped();
        let reads = if solo { None } else { reads };
        // Shown one pair, as `versus` plays it.
        let side = PuyoSide::new(&game, player, 1, reads).unwrap();
        let own = Position::new(Field::from_text(&READY), Pair { axis: 2, child: 3 });
        chain_of(&game, &side, &own, fixed)
    }

    #[test]
    fn nuisance_that_would_kill_makes_the_player_fire_its_ready_chain() {
        // 23 due: 4 rows on column 3's 8 fill row 12. The 2-chain cancels 5, and 18 fall as
        // 3 rows: 11 high, alive. The solo weights alone would hold the chain and die.
        assert_eq!(chain_fired(23, false), 2);
        assert_eq!(chain_fired(23, true), 0);
    }

    #[test]
    fn with_nothing_coming_the_player_keeps_its_chain() {
        // The same field and pair, nothing due, an empty opponent: the solo weights hold the
        // 2-chain, and the 5 nuisance it would send do not buy it.
        assert_eq!(chain_fired(0, false), 0);
    }

    #[test]
    fn every_search_that_weighs_first_moves_adds_the_match_features_to_its_own_values() {
        let (game, solo, _) = shipped();
        // The next pair shown, so that the lookahead looks.
        let mut own = Position::new(Field::from_text(&READY), Pair { axis: 2, child: 3 });
        own.next = Some(Pair { axis: 1, child: 4 });
        let sampled = Search::Sampled {
            width: 4,
            samples: 2,
            unseen: 2,
            fired: None,
        };
        // Rows sent weighed 1,000: the 2-chain's 5 nuisance outweigh any field.
        let mut sending = [0.0; MATCH_FEATURE_NAMES.len()];
        sending[3] = 1e3;
        for search in [Search::OnePly, Search::Lookahead, sampled] {
            assert!(search.weighs_first_move_features());
            let player = Player::new(solo.eval.clone(), search);
            let side_reading = |reads| PuyoSide::new(&game, player.clone(), 2, reads).unwrap();
            // Alone the search builds on; match weights of 0 change nothing; sending, it fires.
            let alone = chain_of(&game, &side_reading(None), &own, 0);
            assert_eq!(alone, 0, "{search:?}");
            let zero = Some([0.0; MATCH_FEATURE_NAMES.len()]);
            assert_eq!(
                chain_of(&game, &side_reading(zero), &own, 0),
                0,
                "{search:?}"
            );
            assert_eq!(
                chain_of(&game, &side_reading(Some(sending)), &own, 0),
                2,
                "{search:?}"
            );
        }
    }

    #[test]
    fn match_weights_are_refused_alone_and_without_a_field_to_build() {
        let (game, _, _) = shipped();
        let file = shipped_file();
        assert_eq!(
            LinearPlayer::from_file(&game, &file)
                .unwrap_err()
                .to_string(),
            "`match_incoming` is a match feature: these weights play puyo matches (`stacktune versus`), not a game alone"
        );
        let only = WeightFile::in_memory("puyo", [("match_sent".to_string(), 1.0)].into()).unwrap();
        assert_eq!(
            split_match_weights(&only).unwrap_err().to_string(),
            "it weighs match features only: a match player also needs the solo features of its field"
        );
        let (solo, reads) = split_match_weights(&file).unwrap();
        let eval = LinearPlayer::from_file(&game, &solo).unwrap();
        let beam = Player::new(eval, Search::Beam { depth: 2, width: 4 });
        assert!(PuyoSide::new(&game, beam.clone(), 1, None).is_ok());
        assert_eq!(
            PuyoSide::new(&game, beam, 1, reads)
                .unwrap_err()
                .to_string(),
            "match features play under one ply, the lookahead or the sampled beam (--samples), not a beam over the pairs shown (--depth)"
        );
    }

    #[test]
    fn match_features_past_the_features_a_game_may_have_are_refused_at_load() {
        // 18 built-in features and 44 board features leave 2 places of 64; the six match
        // features do not fit, and the side says so before its first game.
        let names: Vec<String> = (0..44).map(|i| format!("crowded_{i}")).collect();
        for name in &names {
            stacktune_game::board_features::define(name, std::sync::Arc::new(|_: &_| Ok(0.0)))
                .unwrap();
        }
        let spec = stacktune_games::settings::GameSpec {
            board_features: names.clone(),
            ..Default::default()
        };
        let game = Puyo::from_spec(&spec).unwrap();
        let (solo, reads) = split_match_weights(&shipped_file()).unwrap();
        let eval = LinearPlayer::from_file(&game, &solo).unwrap();
        let error = PuyoSide::new(&game, Player::new(eval, Search::OnePly), 1, reads).unwrap_err();
        for name in &names {
            stacktune_game::board_features::undefine(name);
        }
        assert_eq!(
            error.to_string(),
            "62 features and 6 more are more than the 64 features a game may have"
        );
    }
}
