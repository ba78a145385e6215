//! Puyo: the seed rules vectors, Tsu scoring and reachability, conservation of puyos, and
//! `play` / `moves` through the real binary.

use crate::common::*;
use proptest::prelude::*;
use serde::Deserialize;
use stacktune_base::rng::game_stream;
use stacktune_game::SearchHooks;
use stacktune_game::episode::play_episode;
use stacktune_game::{EpisodeLimits, FeatureValues, Game, Outcome};
use stacktune_games::puyo::field::Field;
use stacktune_games::puyo::rules::{PLACEMENTS, Played, Step, placements};
use stacktune_games::puyo::{Pair, Placement, Position, Puyo, Rules};
use stacktune_games::settings::GameSpec;
use stacktune_players::eval::LinearPlayer;
use stacktune_players::registry::Build;
use stacktune_players::search::{Player, Search, lookahead};
use std::fs;

#[derive(Deserialize)]
struct Vector {
    field: Vec<Vec<u8>>,
    pair: [u8; 2],
    placement: [u8; 2],
    legal: bool,
    after: Option<Vec<Vec<u8>>>,
    chains: Option<u32>,
    score: Option<u32>,
    steps: Option<Vec<VectorStep>>,
}

#[derive(Deserialize)]
struct VectorStep {
    erased: u32,
    colours: u32,
    score: u32,
}

fn pair(axis: u8, child: u8) -> Pair {
    Pair { axis, child }
}

fn at(column: u8, rotation: u8) -> Placement {
    Placement { column, rotation }
}

/// Plays one placement with nothing owed, collecting the chain steps.
fn play(rules: Rules, f: &Field, p: Pair, at: Placement) -> (Played, Vec<Step>) {
    let mut steps = Vec::new();
    let played = rules.play(f, &f.heights(), p, at, false, &mut |s| steps.push(s));
    (played, steps)
}

#[test]
fn every_rules_vector_passes() {
    let text = include_str!("../data/puyo-rules.jsonl");
    let mut checked = 0;
    for (line, json) in text.lines().enumerate() {
        let v: Vector = serde_json::from_str(json).unwrap();
        let case = format!("vector {}", line + 1);
        let before = Field::from_rows(&v.field);
        let p = pair(v.pair[0], v.pair[1]);
        let placement = at(v.placement[0], v.placement[1]);
        let offered = Rules::Programming.offers(&before.heights(), placement);
        assert_eq!(offered, v.legal, "{case}: legality");
        if !v.legal {
            checked += 1;
            continue;
        }
        let (played, steps) = play(Rules::Programming, &before, p, placement);
        let after = Field::from_rows(v.after.as_ref().unwrap());
        assert_eq!(played.field.to_rows(12), after.to_rows(12), "{case}: after");
        assert_eq!(Some(played.chain.chains), v.chains, "{case}: chains");
        assert_eq!(Some(played.chain.score), v.score, "{case}: score");
        // The vectors give each step's erased puyos, colours and points, not its fall.
        let want: Vec<(u32, u32, u32)> = v
            .steps
            .unwrap()
            .iter()
            .map(|s| (s.erased, s.colours, s.score))
            .collect();
        let got: Vec<(u32, u32, u32)> = steps
            .iter()
            .map(|s| (s.erased, s.colours, s.score))
            .collect();
        assert_eq!(got, want, "{case}: steps");
        assert!(!played.game_over, "{case}: no vector ends the game");
        checked += 1;
    }
    assert_eq!(checked, 300);
}

#[test]
fn programming_game_ends_when_the_third_column_tops_the_field() {
    // Column 2 is 10 high (no group of four): a vertical pair fills its 12th row.
    let f = Field::from_text(&[
        "..1...", "..2...", "..1...", "..2...", "..1...", "..2...", "..1...", "..2...", "..1...",
        "..2...",
    ]);
    let (played, _) = play(Rules::Programming, &f, pair(3, 4), at(2, 1));
    assert!(played.game_over);
    // The game does not offer it, and offers it with −∞ when top-outs are allowed.
    let game = Puyo::new(Rules::Programming);
    let position = Position::new(f, pair(3, 4));
    let mut offered = Vec::new();
    game.for_each_move(&position, 0, &mut |mv, _, _, _| offered.push(mv));
    assert!(!offered.contains(&at(2, 1)));
    assert!(offered.contains(&at(2, 0)));
}

#[test]
fn tsu_lone_four_puyo_clear_scores_40() {
    let f = Field::from_text(&["111..."]);
    let (played, steps) = play(Rules::Tsu, &f, pair(1, 2), at(3, 1));
    assert_eq!(played.chain.chains, 1);
    assert_eq!(played.chain.score, 40);
    assert_eq!(
        steps,
        [Step {
            erased: 4,
            colours: 1,
            score: 40,
            // The child above the popped axis falls one row.
            fallen: 1,
        }]
    );
    assert_eq!(played.field.to_rows(1), ["...2.."]);
}

#[test]
fn tsu_two_chain_scores_40_then_320() {
    // Column 0: three 2s under three 1s; a 1 at (1, 0). The axis 2 lands at (1, 1): four 2s
    // pop (10 × 4 × max(1, 0 + 0 + 0) = 40), the 1s fall beside the 1 at (1, 0) and pop with
    // chain power 8 (10 × 4 × 8 = 320); the child 3 falls to (1, 0).
    let f = Field::from_text(&["1.....", "1.....", "1.....", "2.....", "2.....", "21...."]);
    let (played, steps) = play(Rules::Tsu, &f, pair(2, 3), at(1, 1));
    assert_eq!(
        steps,
        [
            // The 1s fall three rows onto the 1 at (1, 0) (the child one); then the child
            // falls one row.
            Step {
                erased: 4,
                colours: 1,
                score: 40,
                fallen: 3,
            },
            Step {
                erased: 4,
                colours: 1,
                score: 320,
                fallen: 1,
            },
        ]
    );
    assert_eq!(played.chain.score, 360);
    assert_eq!(played.field.to_rows(1), [".3...."]);
    assert!(!played.all_clear);
}

#[test]
fn tsu_group_and_colour_bonuses() {
    // Four 1s and four 2s pop together: two colours (bonus 3), groups of 4 (bonus 0):
    // 10 × 8 × (0 + 0 + 3) = 240.
    let f = Field::from_text(&["1.2...", "1.2...", "1.2..."]);
    let (played, _) = play(Rules::Tsu, &f, pair(1, 2), at(1, 0));
    assert_eq!((played.chain.chains, played.chain.erased), (1, 8));
    assert_eq!(played.chain.score, 240);
    // The axis 1 at (1, 0) joins two pairs of 1s into five (bonus 2); the child 2 lands on
    // column 2 at (2, 2) beside three 2s: 10 × 9 × (0 + 2 + 3) = 450.
    let f = Field::from_text(&["...2..", "1.12..", "1.12.."]);
    let (played, _) = play(Rules::Tsu, &f, pair(1, 2), at(1, 0));
    assert_eq!(played.chain.erased, 9);
    assert_eq!(played.chain.score, 450);
}

#[test]
fn tsu_all_clear_pays_2100_with_the_next_chain() {
    let rules = Rules::Tsu;
    // Five 1s pop and empty the field: 10 × 5 × 2 = 100, bonus owed.
    let f = Field::from_text(&["1.....", "1.....", "1....."]);
    let (cleared, _) = play(rules, &f, pair(1, 1), at(0, 1));
    assert_eq!(cleared.chain.score, 100);
    assert_eq!(cleared.field, Field::EMPTY);
    assert!(cleared.all_clear);
    // A move without a chain keeps it owed.
    let e = Field::EMPTY;
    let quiet = rules.play(&e, &e.heights(), pair(2, 2), at(0, 0), true, &mut |_| {});
    assert_eq!(quiet.chain.score, 0);
    assert!(quiet.all_clear);
    // The next chain gets it.
    let f = Field::from_text(&[".....3", ".....3", ".....3"]);
    let paid = rules.play(&f, &f.heights(), pair(3, 4), at(5, 1), true, &mut |_| {});
    assert_eq!(paid.chain.score, 40 + 2100);
    assert!(!paid.all_clear);
    // The programming rules have no such bonus.
    let (seed, _) = play(
        Rules::Programming,
        &Field::from_text(&["1.....", "1.....", "1....."]),
        pair(1, 1),
        at(0, 1),
    );
    assert!(!seed.all_clear);
}

/// A column of `n` puyos alternating colours 1 and 2 (never a group), as rows top first for a
/// 13-row Tsu field.
fn tsu_field(heights: [usize; 6]) -> Field {
    let rows: Vec<Vec<u8>> = (0..13)
        .rev()
        .map(|y| {
            heights
                .iter()
                .enumerate()
                .map(|(x, &h)| if y < h { ((x + y) % 2) as u8 + 1 } else { 0 })
                .collect()
        })
        .collect();
    Field::from_rows(&rows)
}

fn offered(rules: Rules, f: &Field, p: Pair) -> Vec<Placement> {
    let h = f.heights();
    placements(p)
        .iter()
        .copied()
        .filter(|&q| rules.offers(&h, q))
        .collect()
}

#[test]
fn tsu_13_high_column_blocks_everything_past_it() {
    let f = tsu_field([0, 0, 0, 13, 0, 0]);
    let got = offered(Rules::Tsu, &f, pair(1, 2));
    let within: Vec<Placement> = PLACEMENTS
        .iter()
        .copied()
        .filter(|p| p.column <= 2 && p.child_column().unwrap() <= 2)
        .collect();
    assert_eq!(got, within);
    assert_eq!(got.len(), 10);
    // The programming rules only ask for room: column 3 is simply full.
    let prog = offered(
        Rules::Programming,
        &tsu_field([0, 0, 0, 12, 0, 0]),
        pair(1, 2),
    );
    assert_eq!(prog.len(), 22 - 6);
}

#[test]
fn tsu_12_high_column_needs_a_foothold_to_climb() {
    // Column 3 is 12 high; column 2 only 10: no foothold, so columns 3 to 5 are out of reach.
    let f = tsu_field([0, 0, 10, 12, 0, 0]);
    let got = offered(Rules::Tsu, &f, pair(1, 2));
    assert!(
        got.iter()
            .all(|p| p.column <= 2 && p.child_column().unwrap() <= 2)
    );
    // Column 2 at 11 is a foothold: the pair climbs over column 3 and reaches column 5.
    let f = tsu_field([0, 0, 11, 12, 0, 0]);
    let got = offered(Rules::Tsu, &f, pair(1, 2));
    assert!(got.contains(&at(5, 1)));
    assert!(got.contains(&at(3, 1)));
    // Child below onto the 12-high column would put the axis in row 14: never offered.
    assert!(!got.contains(&at(3, 3)));
    // Columns 1 and 3 both 12 high lift the pair between them (the valley rule).
    let f = tsu_field([0, 12, 10, 12, 0, 0]);
    assert!(offered(Rules::Tsu, &f, pair(1, 2)).contains(&at(4, 1)));
}

#[test]
fn tsu_pair_in_the_spawn_column_climbs_from_a_foothold_away_from_its_childs_column() {
    // The pair steps onto the 11-high column 3, kicks up, comes back and turns its child onto
    // the 12-high column 1 (ama's move generator offers it; stacktune refused it until ama
    // lost two games of a match by suggesting it).
    let f = tsu_field([0, 12, 0, 11, 0, 0]);
    let got = offered(Rules::Tsu, &f, pair(1, 2));
    assert!(got.contains(&at(2, 2)));
    assert!(got.contains(&at(0, 1)));
    // The mirror case: child right onto a 12-high column 3, foothold on the left.
    let f = tsu_field([0, 11, 0, 12, 0, 0]);
    assert!(offered(Rules::Tsu, &f, pair(1, 2)).contains(&at(2, 0)));
    // With no foothold on the far side the turn stays out of reach.
    let f = tsu_field([0, 12, 0, 10, 0, 0]);
    let got = offered(Rules::Tsu, &f, pair(1, 2));
    assert!(!got.contains(&at(2, 2)));
    assert!(!got.contains(&at(1, 1)));
    assert_eq!(got.len(), 22 - 8);
}

#[test]
fn tsu_puyo_landing_in_row_14_vanishes() {
    let f = tsu_field([0, 0, 11, 12, 0, 0]);
    let (played, _) = play(Rules::Tsu, &f, pair(3, 4), at(3, 1));
    // The axis takes the hidden 13th row; the child has nowhere to go.
    assert_eq!(played.field.count(), f.count() + 1);
    assert_eq!(played.field.heights()[3], 13);
    assert_eq!(played.field.colour(3, 12), 3);
}

#[test]
fn tsu_game_ends_when_the_third_column_fills_its_12th_row() {
    let game = Puyo::new(Rules::Tsu);
    let f = tsu_field([0, 0, 11, 0, 0, 0]);
    let (played, _) = play(Rules::Tsu, &f, pair(3, 4), at(0, 0));
    assert!(!played.game_over);
    let (played, _) = play(Rules::Tsu, &f, pair(3, 4), at(2, 0));
    assert!(played.game_over);
    // Dead fields offer nothing.
    let dead = tsu_field([0, 0, 12, 0, 0, 0]);
    assert!(offered(Rules::Tsu, &dead, pair(1, 2)).is_empty());
    let mut n = 0;
    game.for_each_move(&Position::new(dead, pair(1, 2)), 0, &mut |_, _, _, _| {
        n += 1
    });
    assert_eq!(n, 0);
}

#[test]
fn empty_field_offers_22_or_11_placements() {
    for rules in [Rules::Programming, Rules::Tsu] {
        let game = Puyo::new(rules);
        for (p, want) in [(pair(1, 2), 22), (pair(3, 3), 11)] {
            let mut n = 0;
            game.for_each_move(&Position::new(Field::EMPTY, p), 0, &mut |_, _, _, _| n += 1);
            assert_eq!(n, want, "{rules:?} {p:?}");
        }
    }
}

fn weights_text() -> &'static str {
    "game = \"puyo\"\n\n[weights]\nmove_score = 0.01\npotential_chain = 3.0\nconnected_2 = 1.0\nconnected_3 = 2.0\nbumpiness = -0.5\ndeath_column_height = -2.0\nu_deviation = -0.3\n"
}

fn player(game: &Puyo) -> LinearPlayer {
    let file = stacktune_players::weights::WeightFile::parse(weights_text()).unwrap();
    LinearPlayer::from_file(game, &file).unwrap()
}

#[test]
fn episodes_are_reproducible_and_score_points() {
    for rules in [Rules::Programming, Rules::Tsu] {
        let game = Puyo::new(rules);
        let limits = EpisodeLimits {
            max_moves: Some(300),
        };
        let player = Player::new(player(&game), Search::Lookahead);
        let a = play_episode(&game, &player, game_stream(5, 0), limits);
        let b = play_episode(&game, &player, game_stream(5, 0), limits);
        assert_eq!(a, b);
        assert!(a.moves > 20, "{rules:?}: {a:?}");
        assert!(a.score > 0.0, "{rules:?}: {a:?}");
    }
}

#[test]
fn preview_lets_the_player_look_two_plies() {
    let spec = stacktune_games::settings::GameSpec {
        game: Some("puyo".into()),
        preview: true,
        ..Default::default()
    };
    let game = Puyo::from_spec(&spec).unwrap();
    let position = game.start(&mut game_stream(1, 0));
    assert!(game.shows_next(&position));
    let mut seen = 0;
    game.for_each_move(&position, 0, &mut |_, after, _, _| {
        assert!(after.pair.is_some());
        assert_eq!(after.pair, position.next);
        seen += 1;
    });
    assert!(seen > 0);
    assert!(lookahead(&player(&game), &game, &position).is_some());
}

/// Chains fired by the first placement in enumeration order.
fn chains_of_first(game: &Puyo, position: &Position) -> u32 {
    let mut first = None;
    game.for_each_move(position, 0, &mut |_, _, outcome, _| {
        first.get_or_insert(outcome.chains);
    });
    first.unwrap()
}

#[test]
fn two_ply_player_counts_the_chain_its_first_placement_fires() {
    // A 2 dropped into column 1 fires a 2-chain (see tsu_two_chain_scores_40_then_320); the
    // next pair, 44, can fire nothing. A player weighing only move_chain must still fire now:
    // the second board's features carry the first placement's chain.
    let game = Puyo::new(Rules::Tsu);
    let f = Field::from_text(&["1.....", "1.....", "1.....", "2.....", "2.....", "21...."]);
    let mut position = Position::new(f, pair(2, 3));
    position.next = Some(pair(4, 4));
    // Without the carry every second board scores 0 and the first placement in enumeration
    // order, which fires nothing, would win the tie.
    assert_eq!(chains_of_first(&game, &position), 0);
    let names = game.feature_names();
    let weights: Vec<f64> = names
        .iter()
        .map(|&n| if n == "move_chain" { 1.0 } else { 0.0 })
        .collect();
    let player = LinearPlayer::from_vector(names, &weights).unwrap();
    let chains_of = |position: &Position, chosen: Placement| {
        let mut chains = None;
        game.for_each_move(position, 0, &mut |mv, _, outcome, _| {
            if mv == chosen {
                chains = Some(outcome.chains);
            }
        });
        chains
    };
    let mv = lookahead(&player, &game, &position).unwrap();
    assert_eq!(chains_of(&position, mv), Some(2), "{mv:?}");
    // Without the preview the same player sees only its own placement and fires too.
    let alone = Position::new(f, pair(2, 3));
    let mv = lookahead(&player, &game, &alone).unwrap();
    assert_eq!(chains_of(&alone, mv), Some(2), "{mv:?}");
}

#[test]
fn spec_errors_are_one_clear_line() {
    let spec = |f: fn(&mut stacktune_games::settings::GameSpec)| {
        let mut s = stacktune_games::settings::GameSpec {
            game: Some("puyo".into()),
            ..Default::default()
        };
        f(&mut s);
        s.build().err().map(|e| e.to_string())
    };
    assert_eq!(spec(|_| {}), None);
    assert_eq!(
        spec(|s| s.colours = Some(6)).unwrap(),
        "puyo colours 6 is out of range 3..=5"
    );
    assert_eq!(
        spec(|s| s.width = Some(7)).unwrap(),
        "puyo is played on 6 x 12, not 7 x 12"
    );
    assert_eq!(
        spec(|s| s.rules = Some("sun".into())).unwrap(),
        "unknown puyo rules `sun`; valid rules: programming, tsu"
    );
    assert_eq!(
        spec(|s| s.fitness = Some("lines".into())).unwrap(),
        "unknown puyo fitness `lines`; valid fitness: score, max_chain, max_chain_alive"
    );
    assert_eq!(spec(|s| s.fitness = Some("max_chain".into())), None);
    assert_eq!(
        spec(|s| s.pairs_shown = Some(4)).unwrap(),
        "puyo pairs shown 4 is out of range 1..=3"
    );
    assert_eq!(
        spec(|s| {
            s.pairs_shown = Some(3);
            s.preview = true;
        })
        .unwrap(),
        "--preview shows 2 puyo pairs; give it or --pairs-shown"
    );
    assert_eq!(spec(|s| s.pairs_shown = Some(3)), None);
    assert_eq!(
        spec(|s| s.fire_points = Some(0)).unwrap(),
        "puyo fire points must be at least 1"
    );
    let tetris = run(&[
        "play",
        "--weights",
        "reports/connect-depth4/best.toml",
        "--fire-points",
        "8",
    ]);
    assert_one_line_error(
        &tetris,
        "--fire-points is a puyo setting; connect does not use it",
    );
}

/// The search puyo's flags give: `--beam-width 8` with the change `f`, or the error.
fn puyo_search(f: fn(&mut GameSpec)) -> Result<Search, String> {
    let mut s = GameSpec {
        game: Some("puyo".into()),
        beam_width: Some(8),
        ..Default::default()
    };
    f(&mut s);
    s.search().map_err(|e| e.to_string())
}

/// The sampled beam's settings from flags.
#[test]
fn sampled_beam_flags_give_the_sampled_beam() {
    let sampled = Search::Sampled {
        width: 8,
        samples: 4,
        unseen: 4,
        fired: None,
    };
    assert_eq!(puyo_search(|s| s.samples = Some(4)), Ok(sampled));
    let fired = |s: &mut GameSpec| {
        s.samples = Some(4);
        s.fired = Some(5000);
    };
    assert_eq!(
        puyo_search(fired),
        Ok(Search::Sampled {
            width: 8,
            samples: 4,
            unseen: 4,
            fired: Some(5000),
        })
    );
}

/// The sampled beam's settings from flags: each mistake is one line that names the flag.
#[test]
fn sampled_beam_flags_are_checked_with_one_clear_line() {
    /// One change to the settings.
    type Change = fn(&mut GameSpec);
    let errors: [(Change, &str); 6] = [
        (
            |s| s.fired = Some(5000),
            "--fired values a sampled beam's moves; give --beam-width and --samples too",
        ),
        (
            |s| {
                s.samples = Some(4);
                s.fired = Some(0);
            },
            "--fired 0 would end every line at once: give the points of a chain worth firing (ama: 5000)",
        ),
        (
            |s| {
                s.samples = Some(4);
                s.beam_width = None;
            },
            "--samples and --unseen set a sampled beam for puyo; give --beam-width too",
        ),
        (
            |s| s.samples = Some(0),
            "--samples 0 is out of range 1..=256",
        ),
        (
            |s| s.unseen = Some(33),
            "--unseen 33 is out of range 1..=32",
        ),
        (
            |s| {
                s.unseen = Some(2);
                s.depth = Some(2);
            },
            "--depth is not for a sampled beam, which searches every piece shown",
        ),
    ];
    for (set, error) in errors {
        assert_eq!(puyo_search(set), Err(error.into()));
    }
}

/// The sampled beam's flags are puyo's: another game refuses them with one line.
#[test]
fn sampled_beam_flags_are_refused_for_tetris() {
    let tetris = GameSpec {
        samples: Some(4),
        beam_width: Some(8),
        ..Default::default()
    };
    assert_eq!(
        tetris.build().err().map(|e| e.to_string()),
        Some("--samples is a puyo setting; tetris does not use it".into())
    );
    let tetris = GameSpec {
        fired: Some(5000),
        ..Default::default()
    };
    assert_eq!(
        tetris.build().err().map(|e| e.to_string()),
        Some("--fired is a puyo setting; tetris does not use it".into())
    );
}

/// The sampled beam's settings in a weights file's `[search]`: each mistake is one line that
/// names the key.
#[test]
fn sampled_beam_search_table_is_checked_with_one_clear_line() {
    let file = |search: &str| {
        let text = format!("game = \"puyo\"\n[search]\n{search}\n[weights]\nmove_chain = 1.0\n");
        stacktune_players::weights::WeightFile::parse(&text).map_err(|e| e.to_string())
    };
    let parsed = file("beam_width = 8\nsamples = 4\nunseen = 4\nfired = 5000").unwrap();
    let settings = parsed.search.unwrap();
    assert_eq!(
        (settings.samples, settings.unseen, settings.fired),
        (Some(4), Some(4), Some(5000))
    );
    assert_eq!(
        file("beam_width = 8\nfired = 5000").unwrap_err(),
        "[search] fired values a sampled beam's moves; give samples too"
    );
    assert_eq!(
        file("beam_width = 8\nsamples = 2\nfired = 0").unwrap_err(),
        "[search] fired 0 would end every line at once: give the points of a chain worth firing (ama: 5000)"
    );
    assert_eq!(
        file("beam_width = 8\nsamples = 300").unwrap_err(),
        "[search] samples 300 is out of range 1..=256"
    );
    assert_eq!(
        file("beam_width = 8\nunseen = 0").unwrap_err(),
        "[search] unseen 0 is out of range 1..=32"
    );
    assert_eq!(
        file("beam_width = 8\nsamples = 2\ndepth = 2").unwrap_err(),
        "[search] depth is not for a sampled beam (samples, unseen), which searches every piece shown"
    );
}

fn shown(pairs: u8) -> Puyo {
    let spec = stacktune_games::settings::GameSpec {
        game: Some("puyo".into()),
        rules: Some("tsu".into()),
        pairs_shown: Some(pairs),
        ..Default::default()
    };
    Puyo::from_spec(&spec).unwrap()
}

/// Showing more pairs changes what the player sees, never what is dealt: the pairs placed
/// are the same in the same order, and a move passes the shown pairs along.
#[test]
fn three_pairs_shown_deal_the_same_pairs_and_shift_them() {
    let (one, three) = (shown(1), shown(3));
    let (mut a, mut b) = (game_stream(4, 0), game_stream(4, 0));
    let (mut pa, mut pb) = (one.start(&mut a), three.start(&mut b));
    assert!(pb.next.is_some() && pb.after_next.is_some());
    for _ in 0..40 {
        assert_eq!(pa.pair, pb.pair);
        let mut passed = 0;
        three.for_each_move(&pb, 0, &mut |_, after, _, _| {
            assert_eq!(
                (after.pair, after.next, after.after_next),
                (pb.next, pb.after_next, None)
            );
            passed += 1;
        });
        assert!(passed > 0);
        // Upright pairs on the lowest column: nothing tops out in 40 moves.
        let h = pa.field.heights();
        let column = (0..6).min_by_key(|&x| h[x]).unwrap() as u8;
        let mv = at(column, 1);
        let (oa, ob) = (
            one.apply(&mut pa, mv, &mut a),
            three.apply(&mut pb, mv, &mut b),
        );
        assert_eq!(oa, ob);
        assert_eq!(pa.field, pb.field);
        if oa.game_over {
            break;
        }
    }
}

/// Past the pairs shown, the ten unordered pairs of four colours, a mixed pair twice as
/// likely as a same-colour one, fill the first slot not shown.
#[test]
fn unseen_pairs_fill_the_first_free_slot_with_their_probabilities() {
    let game = shown(2);
    let mut position = game.start(&mut game_stream(1, 0));
    let (mut count, mut total, mut same) = (0, 0.0, 0.0);
    game.for_each_unseen(&position, &mut |drawn, p| {
        let pair = drawn.after_next.unwrap();
        assert_eq!((drawn.pair, drawn.next), (position.pair, position.next));
        count += 1;
        total += p;
        if pair.axis == pair.child {
            assert_eq!(p, 1.0 / 16.0);
            same += p;
        } else {
            assert!(pair.axis < pair.child);
            assert_eq!(p, 2.0 / 16.0);
        }
    });
    assert_eq!((count, total, same), (10, 1.0, 0.25));
    position.pair = None;
    position.next = None;
    let mut firsts = 0;
    game.for_each_unseen(&position, &mut |drawn, _| {
        assert!(drawn.pair.is_some() && drawn.next.is_none());
        firsts += 1;
    });
    assert_eq!(firsts, 10);
}

/// A field whose 2 dropped into column 1 fires a 2-chain, with a 2-3 pair to place and a 4-4
/// pair next, Tsu showing two pairs.
fn ready_two_chain() -> (Puyo, Position) {
    let f = Field::from_text(&["1.....", "1.....", "1.....", "2.....", "2.....", "21...."]);
    let mut position = Position::new(f, pair(2, 3));
    position.next = Some(pair(4, 4));
    (shown(2), position)
}

/// Weights with `feature` at `weight` and `crowding` at −0.01, every other weight zero.
fn one_feature_and_crowding(game: &Puyo, feature: &str, weight: f64) -> LinearPlayer {
    let names = game.feature_names();
    let w: Vec<f64> = names
        .iter()
        .map(|&n| match n {
            n if n == feature => weight,
            "crowding" => -0.01,
            _ => 0.0,
        })
        .collect();
    LinearPlayer::from_vector(names, &w).unwrap()
}

/// Under `--fired` a first move is worth what its lines fire, as the weights value the chain
/// and its points (`move_chain`, `move_score`, `move_chain_squared`), not what their fields
/// promise: weights that value only the field give every line nothing, so the move whose own
/// position they value most is played, the one-ply player's move, on a field where holding
/// the ready 2-chain and firing it differ.
#[test]
fn the_fired_beam_values_moves_by_what_their_lines_fire() {
    let (game, position) = ready_two_chain();
    let eval = |potential: f64| one_feature_and_crowding(&game, "potential_chain", potential);
    let fired = |eval: LinearPlayer| {
        let search = Search::Sampled {
            width: 16,
            samples: 3,
            unseen: 6,
            fired: Some(5000),
        };
        Player::new(eval, search)
    };
    use stacktune_game::Policy;
    for potential in [1.0, -1.0] {
        let one_ply = stacktune_players::search::one_ply(&eval(potential), &game, &position);
        assert_eq!(fired(eval(potential)).choose(&game, &position), one_ply);
    }
    // The two differ: one holds the chain, the other fires it.
    assert_ne!(
        stacktune_players::search::one_ply(&eval(1.0), &game, &position),
        stacktune_players::search::one_ply(&eval(-1.0), &game, &position)
    );
}

/// When to fire is the weights' to say: on a field whose 2 dropped into column 1 fires a
/// 2-chain, a sampled beam that values chains fires it now (firing later leaves more puyos,
/// which `crowding` charges for), and one that counts a fired chain against it never fires.
#[test]
fn the_sampled_beam_fires_when_the_weights_value_the_chain() {
    let (game, position) = ready_two_chain();
    let weighted = |chain: f64| {
        let eval = one_feature_and_crowding(&game, "move_chain", chain);
        let search = Search::Sampled {
            width: 16,
            samples: 3,
            unseen: 3,
            fired: None,
        };
        Player::new(eval, search)
    };
    let chains_of = |chosen: Placement| {
        let mut chains = None;
        game.for_each_move(&position, 0, &mut |mv, _, outcome, _| {
            if mv == chosen {
                chains = Some(outcome.chains);
            }
        });
        chains.unwrap()
    };
    use stacktune_game::Policy;
    let fire = weighted(1.0).choose(&game, &position).unwrap();
    assert_eq!(chains_of(fire), 2, "{fire:?}");
    let hold = weighted(-1.0).choose(&game, &position).unwrap();
    assert_eq!(chains_of(hold), 0, "{hold:?}");
    // The futures are drawn from the position: the same position, the same move.
    assert_eq!(weighted(1.0).choose(&game, &position), Some(fire));
}

/// A settled random field: random columns, then whatever stands popped away.
fn arbitrary_field() -> impl Strategy<Value = Field> {
    prop::collection::vec(prop::collection::vec(1u8..=4, 0..=12usize), 6).prop_map(|columns| {
        let rows: Vec<Vec<u8>> = (0..12)
            .rev()
            .map(|y| {
                columns
                    .iter()
                    .map(|c| c.get(y).copied().unwrap_or(0))
                    .collect()
            })
            .collect();
        let mut f = Field::from_rows(&rows);
        let all = f.occupied();
        Rules::Programming.resolve(&mut f, all, &mut |_| {});
        f
    })
}

fn colour_swap(f: &Field, swap: [u8; 5]) -> Field {
    let rows: Vec<Vec<u8>> = (0..12)
        .rev()
        .map(|y| {
            (0..6)
                .map(|x| match f.colour(x, y) {
                    0 => 0,
                    c => swap[c as usize - 1],
                })
                .collect()
        })
        .collect();
    Field::from_rows(&rows)
}

proptest! {
    #[test]
    fn puyos_are_conserved(f in arbitrary_field(), axis in 1u8..=4, child in 1u8..=4, k in 0usize..22) {
        let p = pair(axis, child);
        let q = PLACEMENTS[k];
        let h = f.heights();
        if Rules::Programming.offers(&h, q) {
            let (played, steps) = play(Rules::Programming, &f, p, q);
            prop_assert_eq!(played.field.count(), f.count() + 2 - played.chain.erased);
            prop_assert_eq!(steps.iter().map(|s| s.erased).sum::<u32>(), played.chain.erased);
            prop_assert!(played.field.floating().is_none());
        }
        if Rules::Tsu.offers(&h, q) {
            let (played, _) = play(Rules::Tsu, &f, p, q);
            let x = q.column as usize;
            let vanished = u32::from(q.rotation == 1 && h[x] == 12);
            prop_assert_eq!(played.field.count(), f.count() + 2 - vanished - played.chain.erased);
        }
    }

    #[test]
    fn features_do_not_depend_on_colour_names(f in arbitrary_field()) {
        // Swap colours 1 ↔ 3 and 2 ↔ 4 on the field and in the pair.
        let swap = [3, 4, 1, 2, 5];
        let g = colour_swap(&f, swap);
        let game = Puyo::new(Rules::Programming);
        let collect = |field: Field, p: Pair| {
            let mut out: Vec<(Placement, Outcome, FeatureValues)> = Vec::new();
            game.for_each_move(&Position::new(field, p), u64::MAX, &mut |m, _, o, v| {
                out.push((m, *o, *v));
            });
            out
        };
        let a = collect(f, pair(1, 2));
        let b = collect(g, pair(3, 4));
        prop_assert_eq!(a.len(), b.len());
        for (x, y) in a.iter().zip(&b) {
            prop_assert_eq!(x, y);
        }
    }
}

fn weights_file(dir: &std::path::Path) -> String {
    let path = dir.join("puyo.toml");
    fs::write(&path, weights_text()).unwrap();
    path.display().to_string()
}

#[test]
fn play_runs_puyo_through_the_binary() {
    let dir = tempfile::tempdir().unwrap();
    let w = weights_file(dir.path());
    for extra in [&[][..], &["--rules", "tsu", "--fitness", "max_chain"][..]] {
        let mut args = vec![
            "play",
            "--weights",
            &w,
            "--games",
            "6",
            "--max-pieces",
            "150",
            "--seed",
            "2",
            "--json",
            "--threads",
            "1",
        ];
        args.extend_from_slice(extra);
        let out = run_in(dir.path(), &args);
        let v = json(&out);
        assert_eq!(v["games"], 6);
        assert!(v["mean"].as_f64().unwrap() > 0.0, "{v}");
    }
    let out = run_in(
        dir.path(),
        &["play", "--weights", &w, "--games", "2", "--colours", "9"],
    );
    assert_one_line_error(&out, "puyo colours 9 is out of range 3..=5");
}

fn board_file(dir: &std::path::Path, rows: &[&str]) -> String {
    let mut text = "......\n".repeat(12 - rows.len());
    for r in rows {
        text.push_str(r);
        text.push('\n');
    }
    let path = dir.join("b.txt");
    fs::write(&path, text).unwrap();
    "b.txt".to_string()
}

#[test]
fn moves_lists_every_placement_as_json() {
    let dir = tempfile::tempdir().unwrap();
    let b = board_file(dir.path(), &["1.....", "1.....", "1....."]);
    let out = run_in(
        dir.path(),
        &[
            "moves", "--game", "puyo", "--board", &b, "--piece", "41", "--json",
        ],
    );
    let v = json(&out);
    let moves = v.as_array().unwrap();
    assert_eq!(moves.len(), 22);
    let mut keys: Vec<&str> = moves[0]
        .as_object()
        .unwrap()
        .keys()
        .map(|k| k.as_str())
        .collect();
    keys.sort();
    assert_eq!(
        keys,
        ["after", "chains", "features", "legal", "placement", "score"]
    );
    // Child 1 below the axis in column 0: the 1 joins the three 1s and pops (400 points under
    // the programming rules), the 4 falls to the bottom.
    let pop = moves
        .iter()
        .find(|m| m["placement"]["column"] == 0 && m["placement"]["rotation"] == 3)
        .unwrap();
    assert_eq!(pop["legal"], true);
    assert_eq!(pop["chains"], 1);
    assert_eq!(pop["score"], 400);
    assert_eq!(pop["after"][11], "4.....");
    assert_eq!(pop["features"]["move_chain"], 1.0);
    assert_eq!(pop["features"].as_object().unwrap().len(), 18);
    let text = run_in(
        dir.path(),
        &["moves", "--game", "puyo", "--board", &b, "--piece", "41"],
    );
    assert!(stdout(&text).contains("column 0 rotation 3: 1 chain(s), 400 points"));
}

#[test]
fn moves_rejects_bad_input_with_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let args = |b: &str, piece: &str| {
        run_in(
            dir.path(),
            &["moves", "--game", "puyo", "--board", b, "--piece", piece],
        )
    };
    let ragged = board_file(dir.path(), &["1.....", "12..."]);
    assert_one_line_error(
        &args(&ragged, "41"),
        "row 12: 5 cells, but a puyo row has 6",
    );
    let colour = board_file(dir.path(), &["8....."]);
    assert_one_line_error(&args(&colour, "41"), "colour 8 is out of range 1..=5");
    let good = board_file(dir.path(), &["1....."]);
    for piece in ["4", "47", "x1", "412"] {
        assert_one_line_error(&args(&good, piece), "unknown pair");
    }
    assert_one_line_error(&args("missing.txt", "41"), "cannot read board file");
}

/// `play --json` with `args`, in the repository root; returns (mean, min).
fn play_json(args: &[&str]) -> (f64, f64) {
    let mut all = vec!["play", "--json", "--quiet"];
    all.extend_from_slice(args);
    let out = run(&all);
    let v = json(&out);
    (v["mean"].as_f64().unwrap(), v["min"].as_f64().unwrap())
}

#[test]
fn shipped_tsu_weights_load_and_build_long_chains() {
    // The first held-out games of the shipped runs (the full figures are in the README). A
    // player that fires whatever it can reaches 2 to 4; the evolved ones hold out for more.
    let tsu = [
        "--rules",
        "tsu",
        "--fitness",
        "max_chain",
        "--max-pieces",
        "100",
        "--seed",
        "1000001",
    ];
    let mut two_ply = vec!["--weights", "weights/puyo/tsu-2ply.toml", "--preview"];
    two_ply.extend_from_slice(&["--games", "8"]);
    two_ply.extend_from_slice(&tsu);
    let (mean, min) = play_json(&two_ply);
    assert!((8.5..=13.0).contains(&mean), "2-ply mean {mean}");
    assert!(min >= 5.0, "2-ply min {min}");
    let mut one_ply = vec!["--weights", "weights/puyo/tsu-1ply.toml", "--games", "30"];
    one_ply.extend_from_slice(&tsu);
    let (mean, _) = play_json(&one_ply);
    assert!((6.5..=10.5).contains(&mean), "1-ply mean {mean}");
}

#[test]
fn evolve_prints_a_play_command_that_reproduces_its_figure() {
    let dir = tempfile::tempdir().unwrap();
    let config = r#"
name = "tiny"
seed = 3
generations = 1
games = 3
max_pieces = 40
features = ["move_chain", "connected_2", "connected_3", "potential_chain", "crowding", "death_column_height"]
validation_games = 6
final_games = 6
validation_max_pieces = 40
validation_seed = 9

[game]
game = "puyo"
rules = "tsu"
fitness = "max_chain"

[ga]
population = 4
elitism = 1
"#;
    fs::write(dir.path().join("tiny.toml"), config).unwrap();
    let out = run_in(
        dir.path(),
        &["evolve", "--config", "tiny.toml", "--quiet", "--out", "run"],
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = stdout(&out);
    let figure = text
        .lines()
        .find_map(|l| l.strip_prefix("best weights: run/best.toml, "))
        .and_then(|l| l.split(' ').next())
        .unwrap_or_else(|| panic!("no figure in: {text}"))
        .to_string();
    let command = text
        .lines()
        .find_map(|l| l.strip_prefix("reproduce the held-out figure: stacktune "))
        .unwrap_or_else(|| panic!("no command in: {text}"));
    assert!(command.contains("--fitness max_chain"), "{command}");
    let mut args: Vec<&str> = command.split(' ').collect();
    args.extend(["--json", "--quiet"]);
    let replay = run_in(dir.path(), &args);
    let v = json(&replay);
    assert_eq!(format!("{:.1}", v["mean"].as_f64().unwrap()), figure);
}

/// Per game (largest chain, points, deaths) of `play` with `weights` and `settings` on the first
/// `games` games of the held-out seed, 100 pairs each, scored by the largest chain.
fn held_out_games(weights: &str, settings: &[&str], games: &str) -> Vec<(u64, u64, u64)> {
    let mut args = vec!["play", "--json", "--quiet", "--weights", weights];
    args.extend_from_slice(settings);
    args.extend_from_slice(&["--fitness", "max_chain", "--max-pieces", "100"]);
    args.extend_from_slice(&["--games", games, "--seed", "1000001"]);
    let v = json(&run(&args));
    v["per_game"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| {
            let n = |k: &str| g[k].as_u64().unwrap();
            (n("max_chain"), n("points"), n("died"))
        })
        .collect()
}

/// The first sampled beam player (the tuning run's weights, `reports/puyo-tsu-beam-steps/`) on
/// the first two games of the held-out seed, Tsu with the current pair and two next shown:
/// exact per-game figures, so any change to the search, the features or the dealing shows
/// here. The 500-game figures are in `docs/notes/puyo.md`. The file names its rules, pairs
/// shown and search, so it plays the same games with no game flag at all.
#[test]
fn first_tsu_beam_plays_its_fixed_seed_games() {
    let beam = |settings: &[&str]| {
        held_out_games("reports/puyo-tsu-beam-steps/tsu-beam.toml", settings, "2")
    };
    let first = [(11, 176790, 0), (12, 182350, 0)];
    assert_eq!(beam(&["--rules", "tsu", "--pairs-shown", "3"]), first);
    assert_eq!(beam(&[]), first);
    // A flag still overrides the file: fewer pairs shown make another player.
    assert_ne!(beam(&["--pairs-shown", "1"]), first);
    assert_ne!(beam(&["--preview"]), first);
}

/// The long tuning run's weights (generation 9's search mean, `reports/puyo-tsu-beam-long`) on
/// the same two held-out games: longer chains than the first beam's, and the file alone sets
/// the game and search they were measured with.
#[test]
fn tsu_beam_long_plays_its_fixed_seed_games() {
    let long = held_out_games("reports/puyo-tsu-beam-steps/tsu-beam-long.toml", &[], "2");
    assert_eq!(long, [(13, 213940, 0), (14, 178820, 0)]);
}

/// The blend (the mean of the first and the long run's weights, feature by feature) on the
/// same two held-out games: its file alone sets its game and search.
#[test]
fn tsu_beam_blend_plays_its_fixed_seed_games() {
    let blend = held_out_games("reports/puyo-tsu-beam-steps/tsu-beam-blend.toml", &[], "2");
    assert_eq!(blend, [(12, 182920, 0), (12, 187760, 0)]);
}

/// The blend that keeps its chains longer (a lower `move_chain_squared`) and fires them before
/// the field's last eight cells fill (`overfill`) on the same two held-out games: longer chains
/// than the blend's on both.
#[test]
fn tsu_beam_hold_plays_its_fixed_seed_games() {
    let hold = held_out_games("reports/puyo-tsu-beam-steps/tsu-beam-hold.toml", &[], "2");
    assert_eq!(hold, [(13, 217760, 0), (14, 241000, 0)]);
}

/// The hold file with the chain forms weighed (`form`, `form_broken`) on the same two held-out
/// games, under its own beam 64 wide and under the hold file's 32: the forms change the
/// second game's build, and the wider beam both.
#[test]
fn tsu_beam_form_plays_its_fixed_seed_games() {
    let form = |settings: &[&str]| {
        held_out_games(
            "reports/puyo-tsu-beam-steps/tsu-beam-form.toml",
            settings,
            "2",
        )
    };
    assert_eq!(form(&[]), [(13, 219480, 0), (14, 182060, 0)]);
    let width_32 = ["--beam-width", "32", "--samples", "8", "--unseen", "4"];
    assert_eq!(form(&width_32), [(13, 162920, 0), (13, 160220, 0)]);
}

/// The shipped beam player, the chain-form weights valuing moves by what their lines fire
/// (`tsu-beam-fired.toml`: a beam 48 wide, 6 futures of 12 pairs, lines ending at 5,000
/// points), on the same two held-out games: both reach 15, where the form file under its own search reaches 13 and 14.
#[test]
fn tsu_beam_fired_plays_its_fixed_seed_games() {
    let fired = held_out_games("weights/puyo/tsu-beam-fired.toml", &[], "2");
    assert_eq!(fired, [(15, 189140, 0), (15, 212340, 0)]);
}

/// `max_chain_alive` scores what `max_chain` does, except that a game lost before the move
/// limit scores nothing, even after its chain fired: the 1-ply player loses games 10 and 11 of
/// the held-out seed, after chains of 2 and 4.
#[test]
fn max_chain_alive_scores_a_lost_game_nothing() {
    let games = |fitness: &str| {
        let base = "play --json --quiet --weights weights/puyo/tsu-1ply.toml --max-pieces 100";
        let mut args: Vec<&str> = base.split(' ').collect();
        args.extend_from_slice(&["--games", "12", "--seed", "1000001", "--fitness", fitness]);
        json(&run(&args))["per_game"].as_array().unwrap().clone()
    };
    let (longest, alive) = (games("max_chain"), games("max_chain_alive"));
    let field = |g: &serde_json::Value, k: &str| g[k].as_f64().unwrap();
    let died: Vec<usize> = (0..12)
        .filter(|&i| field(&alive[i], "died") > 0.0)
        .collect();
    assert_eq!(died, [10, 11]);
    for (i, (a, b)) in longest.iter().zip(&alive).enumerate() {
        for k in ["max_chain", "points", "died"] {
            assert_eq!(a[k], b[k], "game {i}, {k}");
        }
        assert_eq!(field(a, "score"), field(a, "max_chain"), "game {i}");
        let lost = died.contains(&i);
        let expected = if lost { 0.0 } else { field(a, "max_chain") };
        assert_eq!(field(b, "score"), expected, "game {i}");
    }
    assert_eq!(field(&longest[11], "score"), 4.0);
}

/// ama's measure (`--fire-points 80000 --max-pieces 50`): a game stops at the first move that
/// scores 80,000 points and reports that pair; the moves before it are the moves of the game
/// without the target, which the player never sees.
#[test]
fn fire_points_stop_each_game_at_its_fire() {
    let games = |settings: &[&str]| {
        let base = "play --json --quiet --weights reports/puyo-tsu-beam-steps/tsu-beam.toml --fitness max_chain";
        let mut args: Vec<&str> = base.split(' ').collect();
        args.extend_from_slice(&["--games", "3", "--seed", "2000001"]);
        args.extend_from_slice(settings);
        json(&run(&args))
    };
    let fired = games(&["--fire-points", "80000", "--max-pieces", "50"]);
    let row = |v: &serde_json::Value, i: usize, k: &str| v["per_game"][i][k].as_u64().unwrap();
    let at: Vec<u64> = (0..3).map(|i| row(&fired, i, "fired_at")).collect();
    let points: Vec<u64> = (0..3).map(|i| row(&fired, i, "points")).collect();
    assert_eq!(at, [30, 0, 36]);
    assert_eq!(points, [87020, 57520, 103800]);
    // Game 1 never fired 80,000 and played its 50 pairs.
    assert_eq!(fired["total_pieces"].as_u64(), Some(30 + 50 + 36));
    // Stopped at pair 30, game 0 scored what the same game scores in 30 pairs without a target.
    let thirty = games(&["--max-pieces", "30"]);
    assert_eq!(row(&thirty, 0, "points"), 87020);
    assert!(thirty["per_game"][0].get("fired_at").is_none());
}

/// The 2-ply file carries its rules and two pairs shown: the file alone plays what
/// `--rules tsu --preview` plays, which its README figure was measured with.
#[test]
fn a_weights_file_carries_the_pairs_its_figure_was_measured_with() {
    let two_ply = |settings: &[&str]| held_out_games("weights/puyo/tsu-2ply.toml", settings, "4");
    let alone = two_ply(&[]);
    assert_eq!(alone, two_ply(&["--rules", "tsu", "--preview"]));
    assert_ne!(alone, two_ply(&["--pairs-shown", "1"]));
}
