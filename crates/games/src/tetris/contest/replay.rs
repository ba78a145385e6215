//! Replaying a contest game from a controller's requests, turn by turn, in the form of the
//! recorded traces (testdata/contest/traces.jsonl), so a replay can be checked against them.

use super::rules::{Position, Request, Rules, Turn};
use super::stream::ContestStream;
use anyhow::{Result, bail};
use serde::Serialize;

/// One turn as the traces record it; the field order is theirs.
#[derive(Debug, Serialize)]
pub struct TurnRecord {
    pub turn: u32,
    pub current: u8,
    pub hold_before: u8,
    pub next5: [u8; 5],
    pub request: RequestRecord,
    pub placed: bool,
    pub landed: Option<Landed>,
    pub lines: u32,
    pub drop: u32,
    pub game_over: bool,
    pub overlap_spawn: bool,
    pub score: i64,
    pub board: Vec<String>,
}

#[derive(Debug, Serialize)]
pub struct RequestRecord {
    pub hold: bool,
    pub rotation: u8,
    pub x: u8,
}

#[derive(Debug, Serialize)]
pub struct Landed {
    pub rotation: u8,
    pub x: i32,
    pub y: i32,
}

/// Parses a requests file: one turn a non-blank line, `hold rotation x` (e.g. `0 1 3`), at
/// most `turns` of them (the game's turn limit). Errors name the source and line.
pub fn parse_requests(text: &str, source: &str, turns: u32) -> Result<Vec<Request>> {
    let mut requests = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let at = || format!("{source} line {}", i + 1);
        if line.trim().is_empty() {
            continue;
        }
        let fields: Vec<&str> = line.split_whitespace().collect();
        let [hold, rotation, x] = fields[..] else {
            bail!(
                "{}: want `hold rotation x` (three integers), got `{}`",
                at(),
                line.trim()
            );
        };
        let number = |name: &str, field: &str, max: u8| -> Result<u8> {
            match field.parse::<u8>() {
                Ok(v) if v <= max => Ok(v),
                _ => bail!("{}: {name} `{field}` is not an integer in 0..={max}", at()),
            }
        };
        let request = Request {
            hold: number("hold", hold, 1)? == 1,
            rotation: number("rotation", rotation, 3)?,
            x: number("x", x, 9)?,
        };
        if requests.len() == turns as usize {
            bail!(
                "{}: a game has {turns} turns, this is request {}",
                at(),
                turns as u64 + 1
            );
        }
        requests.push(request);
    }
    Ok(requests)
}

/// Plays `requests` on contest seed `seed` and records every turn.
pub fn replay(rules: &Rules, seed: u64, requests: &[Request]) -> Vec<TurnRecord> {
    let mut dealer = ContestStream::new(seed);
    let mut position = rules.start(&mut dealer);
    let mut score = 0i64;
    requests
        .iter()
        .map(|&request| {
            let before: Position = position;
            let turn: Turn = rules.play(&mut position, request, &mut dealer);
            score += turn.points as i64;
            TurnRecord {
                turn: position.turn,
                current: before.current,
                hold_before: before.hold,
                next5: before.next,
                request: RequestRecord {
                    hold: request.hold,
                    rotation: request.rotation,
                    x: request.x,
                },
                placed: turn.landing.is_some(),
                landed: turn.landing.map(|l| Landed {
                    rotation: l.state,
                    x: l.x,
                    y: l.y,
                }),
                lines: turn.lines,
                drop: turn.landing.map_or(0, |l| l.drop),
                game_over: turn.game_over,
                overlap_spawn: turn.overlap_spawn,
                score,
                board: position.board.to_rows(),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_requests_name_their_line() {
        let cases = [
            ("0 4 3", "f line 1: rotation `4` is not an integer in 0..=3"),
            ("0 1 10", "f line 1: x `10` is not an integer in 0..=9"),
            ("2 1 1", "f line 1: hold `2` is not an integer in 0..=1"),
            (
                "0 1",
                "f line 1: want `hold rotation x` (three integers), got `0 1`",
            ),
            ("0 1 -1", "f line 1: x `-1` is not an integer in 0..=9"),
        ];
        for (text, message) in cases {
            let err = parse_requests(text, "f", 180).unwrap_err();
            assert_eq!(err.to_string(), message);
        }
        let long = "0 0 0\n".repeat(181);
        assert_eq!(
            parse_requests(&long, "f", 180).unwrap_err().to_string(),
            "f line 181: a game has 180 turns, this is request 181"
        );
        // A level-4 game of `--turns 3`.
        assert_eq!(
            parse_requests(&long, "f", 3).unwrap_err().to_string(),
            "f line 4: a game has 3 turns, this is request 4"
        );
        assert_eq!(parse_requests(&long, "f", 181).unwrap().len(), 181);
    }

    #[test]
    fn blank_lines_are_skipped() {
        let requests = parse_requests("1 0 5\n\n0 3 9\n", "f", 180).unwrap();
        assert_eq!(
            requests,
            [
                Request {
                    hold: true,
                    rotation: 0,
                    x: 5
                },
                Request {
                    hold: false,
                    rotation: 3,
                    x: 9
                }
            ]
        );
    }
}
