//! One game on a given piece sequence instead of drawn pieces (`play --pieces`): how a user
//! replays a game recorded elsewhere, such as MdpTetris's, and compares it move by move.

use super::board::Board;
use super::pieces::{PIECE_LETTERS, VALID_PIECES, piece_index};
use super::{FULL_BAG, NO_PIECE, Placement, Position, Tetris};
use anyhow::{Result, bail};
use serde::Serialize;
use stacktune_game::{EpisodeResult, Policy};

/// Reads a piece sequence: the letters `IOTZSJL` (either case), whitespace ignored anywhere.
/// `source` names the file in errors, which give the line and column of a bad character.
pub fn parse_pieces(text: &str, source: &str) -> Result<Vec<u8>> {
    let mut pieces = Vec::new();
    for (l, line) in text.lines().enumerate() {
        for (c, ch) in line.chars().enumerate() {
            if ch.is_whitespace() {
                continue;
            }
            let Some(piece) = piece_index(ch) else {
                bail!(
                    "piece file {source} line {} column {}: unknown piece `{ch}`; valid pieces: {VALID_PIECES}",
                    l + 1,
                    c + 1
                );
            };
            pieces.push(piece);
        }
    }
    if pieces.is_empty() {
        bail!("piece file {source}: no pieces (want letters {VALID_PIECES})");
    }
    Ok(pieces)
}

/// One move of a sequence game, as `play --trace` writes it (one JSON object a line).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct TraceMove {
    pub piece: char,
    pub orientation: u8,
    /// The piece's leftmost column, 0-based.
    pub column: u8,
    /// Rows this move removed.
    pub lines: u32,
}

impl Tetris {
    /// Plays `pieces` in order with `player` from an empty board, showing `each` every move.
    /// The game ends when the sequence runs out, after `max_moves` moves, or when no placement
    /// of the piece avoids topping out (with top-outs allowed: when one is chosen). With the
    /// preview on, the player sees the sequence's next piece as it would see a drawn one.
    pub fn play_sequence(
        &self,
        player: &impl Policy<Tetris>,
        pieces: &[u8],
        max_moves: Option<u64>,
        mut each: impl FnMut(TraceMove),
    ) -> EpisodeResult {
        let mut board = Board::empty(self.width, self.height);
        let mut result = EpisodeResult::default();
        for (i, &piece) in pieces.iter().enumerate() {
            if max_moves.is_some_and(|m| result.moves >= m) {
                break;
            }
            let next = match self.preview {
                true => pieces.get(i + 1).copied().unwrap_or(NO_PIECE),
                false => NO_PIECE,
            };
            let position = Position {
                board,
                piece,
                next,
                bag: FULL_BAG,
            };
            let Some(mv) = player.choose(self, &position) else {
                break;
            };
            let landing = self.land(&mut board, piece, mv);
            result.moves += 1;
            result.score += landing.lines as f64;
            let Placement {
                orientation,
                column,
            } = mv;
            each(TraceMove {
                piece: PIECE_LETTERS[piece as usize],
                orientation,
                column,
                lines: landing.lines,
            });
            if landing.topout {
                break;
            }
        }
        result
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use stacktune_game::Game;

    #[test]
    fn whitespace_is_ignored_and_case_does_not_matter() {
        let pieces = parse_pieces("IOT\n zs\tJL\n\n", "p.txt").unwrap();
        assert_eq!(pieces.len(), 7);
        let letters: String = pieces.iter().map(|&p| PIECE_LETTERS[p as usize]).collect();
        assert_eq!(letters, "IOTZSJL");
    }

    #[test]
    fn unknown_letter_names_line_and_column() {
        let err = parse_pieces("IOTZ\nSJ X\n", "p.txt").unwrap_err();
        assert_eq!(
            err.to_string(),
            "piece file p.txt line 2 column 4: unknown piece `X`; valid pieces: I, O, T, S, Z, L, J"
        );
    }

    #[test]
    fn no_pieces_is_an_error() {
        let err = parse_pieces(" \n\t\n", "p.txt").unwrap_err();
        assert_eq!(
            err.to_string(),
            "piece file p.txt: no pieces (want letters I, O, T, S, Z, L, J)"
        );
    }

    /// Plays the move with the lowest landing height plus holes, the first of equals.
    struct LowAndSolid;

    impl Policy<Tetris> for LowAndSolid {
        fn choose(&self, game: &Tetris, position: &Position) -> Option<Placement> {
            let names = &super::super::board::FEATURE_NAMES;
            let index = |name| names.iter().position(|&n| n == name).unwrap();
            let (height, holes) = (index("landing_height"), index("holes"));
            let mut best = None;
            game.for_each_outcome(position, 1 << height | 1 << holes, &mut |mv, outcome, f| {
                let value = outcome.terminal_value.unwrap_or(-f.0[height] - f.0[holes]);
                if best.is_none_or(|(_, b)| value > b) {
                    best = Some((mv, value));
                }
            });
            best.map(|(mv, _)| mv)
        }
    }

    #[test]
    fn the_sequence_ends_the_game_when_it_runs_out() {
        let game = Tetris::new(10, 10).unwrap();
        let player = LowAndSolid;
        let mut moves = Vec::new();
        let result = game.play_sequence(&player, &[0, 0, 1], None, |m| moves.push(m));
        // Flat I pieces side by side (the first of the tied lowest places), then the O fills
        // the bottom row's last two cells and clears it.
        let want = [('I', 1, 0, 0), ('I', 1, 4, 0), ('O', 0, 8, 1)].map(
            |(piece, orientation, column, lines)| TraceMove {
                piece,
                orientation,
                column,
                lines,
            },
        );
        assert_eq!(moves, want);
        assert_eq!((result.moves, result.score), (3, 1.0));
    }
}
