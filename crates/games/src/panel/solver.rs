//! Exact search: the shortest solution by iterative deepening, and every solution by counting.
//!
//! Both searches remember boards. Many swap orders reach the same board (swaps far apart
//! commute), so a board proven hopeless with `r` swaps left is never searched again with `r`
//! or fewer, and a board's number of solutions with `r` swaps left is computed once.

use super::board::{Board, Swap};
use anyhow::{Result, bail};
use stacktune_base::progress::{Meter, Stopped};
// Boards are six words the program made itself, so rustc's fast multiplicative hash is safe,
// and SipHash would cost more than the rules do.
use rustc_hash::FxHashMap as FxMap;

/// What a board reached with `left` swaps to spare can still become.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Outlook {
    /// Empty: a solution ends here.
    Solved,
    /// Not empty and no sequence within `left` swaps empties it.
    Hopeless,
    /// Must be searched.
    Open,
}

/// `cleared` says whether panels vanished on the way here: only then can a colour have
/// dropped to 1 or 2 panels, so only then is the count worth checking.
fn outlook(board: &Board, cleared: bool, left: u32) -> Outlook {
    if board.is_empty() {
        Outlook::Solved
    } else if left == 0 || (cleared && board.is_dead()) {
        Outlook::Hopeless
    } else {
        Outlook::Open
    }
}

/// The result of [`shortest`].
#[derive(Clone, Debug)]
pub struct Shortest {
    /// The first shortest solution in search order (swaps bottom row first, left to right),
    /// or `None` when no solution uses at most the limit.
    pub solution: Option<Vec<Swap>>,
    /// Boards the search generated: the measure of work that does not depend on the machine.
    pub nodes: u64,
}

/// The shortest solution within `limit` swaps. Deepening one swap at a time makes the first
/// solution found a shortest one; boards proven hopeless stay remembered across depths. When a
/// depth reaches no board that an earlier depth did not, every reachable board has been tried
/// and the search stops early, so a large limit on a hopeless puzzle still ends. `meter` counts
/// the nodes and may stop the search at its time limit, which is then the error.
pub fn shortest(board: &Board, limit: u32, meter: &mut Meter) -> Result<Shortest, Stopped> {
    let before = meter.nodes();
    let mut search = Deepening {
        hopeless: FxMap::default(),
        meter,
        path: Vec::new(),
    };
    let found = match outlook(board, true, limit) {
        Outlook::Solved => true,
        Outlook::Hopeless => false,
        Outlook::Open => {
            let mut found = false;
            for depth in 1..=limit {
                let known = search.hopeless.len();
                found = search.solve(board, depth);
                // Depth 1 always adds the start board, so only a later depth can add nothing.
                if found || search.meter.stopped() || (depth > 1 && search.hopeless.len() == known)
                {
                    break;
                }
            }
            found
        }
    };
    search.path.reverse();
    let nodes = search.meter.nodes() - before;
    search.meter.result(Shortest {
        solution: found.then_some(search.path),
        nodes,
    })
}

/// Depth-first search state of [`shortest`].
struct Deepening<'m> {
    /// The most swaps left with which each board was searched in vain.
    hopeless: FxMap<Board, u32>,
    meter: &'m mut Meter,
    /// The solution found, last swap first (pushed while unwinding).
    path: Vec<Swap>,
}

impl Deepening<'_> {
    /// Whether some sequence of at most `left` swaps empties the open board `board`.
    fn solve(&mut self, board: &Board, left: u32) -> bool {
        if self.hopeless.get(board).is_some_and(|&r| r >= left) {
            return false;
        }
        for swap in board.swaps() {
            let Some((next, chains)) = board.swapped(swap) else {
                continue;
            };
            // A stopped search unwinds without marking the boards it left unfinished hopeless.
            if !self.meter.node() {
                return false;
            }
            let found = match outlook(&next, chains > 0, left - 1) {
                Outlook::Solved => true,
                Outlook::Hopeless => false,
                Outlook::Open => self.solve(&next, left - 1),
            };
            if self.meter.stopped() {
                return false;
            }
            if found {
                self.path.push(swap);
                return true;
            }
        }
        let r = self.hopeless.entry(*board).or_insert(0);
        *r = (*r).max(left);
        false
    }
}

/// Counts and lists every solution: every sequence of at most the limit swaps, none of them
/// exchanging two equal cells, that leaves the board empty after its last swap. The counts
/// are memoised per board and swaps left, so listing only walks branches that lead to a
/// solution, and counting alone never enumerates. `meter` counts the boards generated and may
/// stop the search at its time limit, which is then the error.
#[derive(Default)]
pub struct AllSolutions {
    counts: FxMap<(Board, u32), u64>,
}

impl AllSolutions {
    /// How many solutions `board` has within `limit` swaps, saturating at `u64::MAX`.
    pub fn count(&mut self, board: &Board, limit: u32, meter: &mut Meter) -> Result<u64, Stopped> {
        let n = self.count_outlook(board, true, limit, meter);
        meter.result(n)
    }

    /// Every solution, in search order. Refuses with a clear line when there are more than
    /// `max`, so a loose limit cannot flood the output or the memory.
    pub fn list(
        &mut self,
        board: &Board,
        limit: u32,
        max: u64,
        meter: &mut Meter,
    ) -> Result<Vec<Vec<Swap>>> {
        let n = self.count(board, limit, meter)?;
        if n > max {
            bail!("{n} solutions within {limit} swaps: too many to list (at most {max})");
        }
        let mut out = Vec::with_capacity(n as usize);
        if n > 0 {
            let mut path = Vec::new();
            if board.is_empty() {
                out.push(path);
            } else {
                self.collect(board, limit, &mut path, &mut out, meter);
            }
        }
        Ok(meter.result(out)?)
    }

    fn count_outlook(&mut self, board: &Board, cleared: bool, left: u32, meter: &mut Meter) -> u64 {
        match outlook(board, cleared, left) {
            Outlook::Solved => 1,
            Outlook::Hopeless => 0,
            Outlook::Open => self.count_open(board, left, meter),
        }
    }

    /// A stopped search returns 0 without remembering it: the count is unfinished.
    fn count_open(&mut self, board: &Board, left: u32, meter: &mut Meter) -> u64 {
        if let Some(&n) = self.counts.get(&(*board, left)) {
            return n;
        }
        let mut total = 0u64;
        for swap in board.swaps() {
            if let Some((next, chains)) = board.swapped(swap) {
                if !meter.node() {
                    return 0;
                }
                let n = self.count_outlook(&next, chains > 0, left - 1, meter);
                total = total.saturating_add(n);
            }
        }
        if meter.stopped() {
            return 0;
        }
        self.counts.insert((*board, left), total);
        total
    }

    /// Appends to `out` every solution from the open board `board` with `left` swaps, each
    /// prefixed by `path`.
    fn collect(
        &mut self,
        board: &Board,
        left: u32,
        path: &mut Vec<Swap>,
        out: &mut Vec<Vec<Swap>>,
        meter: &mut Meter,
    ) {
        for swap in board.swaps() {
            let Some((next, chains)) = board.swapped(swap) else {
                continue;
            };
            if self.count_outlook(&next, chains > 0, left - 1, meter) == 0 {
                continue;
            }
            path.push(swap);
            if next.is_empty() {
                out.push(path.clone());
            } else {
                self.collect(&next, left - 1, path, out, meter);
            }
            path.pop();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::panel::board::WIDTH;
    use stacktune_base::progress::Meter;

    fn board(rows: &[[u8; WIDTH]]) -> Board {
        Board::from_rows(rows).unwrap()
    }

    fn swaps(list: &[(u8, u8)]) -> Vec<Swap> {
        list.iter().map(|&(x, y)| Swap { x, y }).collect()
    }

    #[test]
    fn one_swap_puzzle_has_one_answer() {
        // 1 1 . 1: only moving the right panel into the gap lines up three.
        let b = board(&[[1, 1, 0, 1, 0, 0]]);
        let s = shortest(&b, 3, &mut Meter::unbounded()).unwrap();
        assert_eq!(s.solution, Some(swaps(&[(2, 0)])));
        let mut all = AllSolutions::default();
        let listed = all.list(&b, 1, 100, &mut Meter::unbounded()).unwrap();
        assert_eq!(listed, [swaps(&[(2, 0)])]);
        // With two swaps, also every detour through one other board and back onto the answer.
        let two = all.list(&b, 2, 100, &mut Meter::unbounded()).unwrap();
        assert_eq!(
            two.len() as u64,
            all.count(&b, 2, &mut Meter::unbounded()).unwrap()
        );
        assert!(two.iter().all(|s| !s.is_empty() && s.len() <= 2));
        assert!(two.contains(&swaps(&[(2, 0)])));
    }

    #[test]
    fn empty_boards_are_solved_by_no_swap() {
        let b = board(&[]);
        assert_eq!(
            shortest(&b, 0, &mut Meter::unbounded()).unwrap().solution,
            Some(vec![])
        );
        assert_eq!(
            AllSolutions::default()
                .list(&b, 2, 10, &mut Meter::unbounded())
                .unwrap(),
            [vec![]]
        );
    }

    #[test]
    fn hopeless_boards_end_even_with_a_huge_limit() {
        // Two 2s: dead before any swap.
        let dead = board(&[[1, 2, 1, 2, 1, 0]]);
        let s = shortest(&dead, u32::MAX, &mut Meter::unbounded()).unwrap();
        assert_eq!((s.solution, s.nodes), (None, 0));
        // Four 1s on the floor never form a run of four, and a run of three leaves one behind.
        // They have at most 15 places, so the search runs out of new boards long before the limit.
        let stuck = board(&[[1, 1, 0, 1, 1, 0]]);
        let s = shortest(&stuck, u32::MAX, &mut Meter::unbounded()).unwrap();
        assert!(s.solution.is_none());
        assert!(s.nodes < 1_000, "{}", s.nodes);
    }

    #[test]
    fn too_many_solutions_are_refused_not_listed() {
        let b = board(&[[1, 1, 0, 1, 0, 0]]);
        let err = AllSolutions::default()
            .list(&b, 3, 2, &mut Meter::unbounded())
            .unwrap_err();
        assert!(err.to_string().contains("too many to list"), "{err}");
    }
}
