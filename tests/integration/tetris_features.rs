//! The published feature vectors of the research rules (tests/data/tetris-features.jsonl):
//! board features of each board, top-out counts and the features of every placement.

use stacktune_game::FeatureValues;
use stacktune_games::tetris::board::{Board, FEATURE_NAMES, MOVE_FEATURES};
use stacktune_games::tetris::listing::list_moves;
use std::collections::BTreeMap;

type FeatureMap = BTreeMap<String, f64>;

fn parse_rows(rows: &[serde_json::Value]) -> Board {
    let rows: Vec<Vec<bool>> = rows
        .iter()
        .map(|r| r.as_str().unwrap().chars().map(|c| c == '#').collect())
        .collect();
    Board::from_rows(&rows)
}

fn as_map(v: &serde_json::Value) -> FeatureMap {
    v.as_object()
        .unwrap()
        .iter()
        .map(|(k, v)| (k.clone(), v.as_f64().unwrap()))
        .collect()
}

fn canonical(mut maps: Vec<FeatureMap>) -> Vec<String> {
    let mut keys: Vec<String> = maps.drain(..).map(|m| format!("{m:?}")).collect();
    keys.sort();
    keys
}

#[test]
fn every_vector_matches() {
    let text = include_str!("../data/tetris-features.jsonl");
    let mut cases = 0;
    for (line_no, line) in text.lines().enumerate() {
        let case: serde_json::Value = serde_json::from_str(line).unwrap();
        let board = parse_rows(case["board"].as_array().unwrap());
        assert_eq!(board.width() as u64, case["width"].as_u64().unwrap());
        assert_eq!(board.height() as u64, case["height"].as_u64().unwrap());

        // Board-only features of the given board.
        let mut values = FeatureValues::default();
        let all = (1u64 << FEATURE_NAMES.len()) - 1;
        board.features(all & !MOVE_FEATURES, &mut values);
        let expected = as_map(&case["board_features"]);
        for (name, want) in &expected {
            let i = FEATURE_NAMES.iter().position(|n| n == name).unwrap();
            assert_eq!(
                values.0[i],
                *want,
                "line {}: board feature {name}",
                line_no + 1
            );
        }

        // Every placement: top-outs counted, the rest compared as a multiset.
        let piece = case["piece"].as_str().unwrap();
        let listing = list_moves(board, piece).unwrap();
        let topouts = listing.iter().filter(|m| m.topout).count() as u64;
        assert_eq!(
            topouts,
            case["topout_placements"].as_u64().unwrap(),
            "line {}: top-out placements",
            line_no + 1
        );
        let ours: Vec<FeatureMap> = listing
            .iter()
            .filter_map(|m| m.features.as_ref())
            .map(|f| f.iter().map(|(k, v)| (k.to_string(), *v)).collect())
            .collect();
        let theirs: Vec<FeatureMap> = case["placements"]
            .as_array()
            .unwrap()
            .iter()
            .map(as_map)
            .collect();
        assert_eq!(
            canonical(ours),
            canonical(theirs),
            "line {}: placement features (piece {piece})",
            line_no + 1
        );
        cases += 1;
    }
    assert_eq!(cases, 150);
}
