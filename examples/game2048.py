"""2048 written in Python, as a game of stacktune's protocol (stacktune.custom).

A placement is a slide (up, down, left, right) that moves a tile; its points are the values of
the tiles it merges, as the original game counts them. After each slide a 2 (nine times in ten)
or a 4 appears on an empty cell, drawn from the game's seed. Each placement's features describe
the board the slide leaves (before the new tile), so the greedy player weighs where it stands.

    python examples/game2048.py [workers]   # tunes it, then the start against the tuned weights
"""

from __future__ import annotations

import random
from typing import List, Tuple

import numpy as np

SLIDES = ("up", "down", "left", "right")

FEATURES = (
    "empty",  # empty cells left
    "merged",  # points the slide scores
    "corner",  # log2 of the largest tile when it sits in a corner
    "monotone",  # how far rows and columns are from sorted (a penalty: negative)
    "rough",  # sum of |log2 a - log2 b| over neighbouring tiles (a penalty: negative)
    "edge",  # log2 sum of the tiles on the bottom row
)

# Hand-set start: keep cells empty and take merges.
START = np.array([1.0, 0.1, 0.0, 0.0, 0.0, 0.0])


def _slide_row(row: List[int]) -> Tuple[List[int], int]:
    """A row slid to the left: the tiles it leaves and the points it merges."""
    tiles = [t for t in row if t]
    out: List[int] = []
    points = 0
    i = 0
    while i < len(tiles):
        if i + 1 < len(tiles) and tiles[i] == tiles[i + 1]:
            out.append(2 * tiles[i])
            points += 2 * tiles[i]
            i += 2
        else:
            out.append(tiles[i])
            i += 1
    return out + [0] * (len(row) - len(out)), points


def slide(board: np.ndarray, direction: str) -> Tuple[np.ndarray, int]:
    """The board after a slide, and its points."""
    turned = {"left": board, "right": board[:, ::-1], "up": board.T, "down": board.T[:, ::-1]}[
        direction
    ]
    rows, points = [], 0
    for row in turned.tolist():
        slid, p = _slide_row(row)
        rows.append(slid)
        points += p
    out = np.array(rows, dtype=np.int64)
    back = {"left": out, "right": out[:, ::-1], "up": out.T, "down": out[:, ::-1].T}[direction]
    return back, points


def describe(board: np.ndarray, points: int) -> List[float]:
    """The features of a board a slide leaves."""
    logs = np.where(board > 0, np.log2(np.maximum(board, 1)), 0.0)
    n = board.shape[0]
    top = board.max()
    corners = [board[0, 0], board[0, n - 1], board[n - 1, 0], board[n - 1, n - 1]]
    monotone = 0.0
    for lines in (logs, logs.T):
        d = np.diff(lines, axis=1)
        monotone += float(np.minimum(np.maximum(d, 0).sum(axis=1), np.maximum(-d, 0).sum(axis=1)).sum())
    rough = 0.0
    for lines in (board, board.T):
        for line in lines:
            tiles = [np.log2(t) for t in line if t]
            rough += float(sum(abs(a - b) for a, b in zip(tiles, tiles[1:])))
    return [
        float((board == 0).sum()),
        float(points),
        float(np.log2(top)) if top in corners and top > 0 else 0.0,
        -monotone,
        -rough,
        float(np.log2(board[n - 1].sum() + 1)),
    ]


class Game2048:
    """2048 on a size × size board (4 by default)."""

    name = "2048"
    feature_names = FEATURES

    def __init__(self, size: int = 4) -> None:
        self.size = size
        self.board = np.zeros((size, size), dtype=np.int64)
        self.rng = random.Random(0)
        self._moves: List[Tuple[str, np.ndarray, int]] = []

    def _spawn(self) -> None:
        empty = list(zip(*np.nonzero(self.board == 0)))
        if empty:
            r, c = empty[self.rng.randrange(len(empty))]
            self.board[r, c] = 4 if self.rng.random() < 0.1 else 2

    def _legal(self) -> List[Tuple[str, np.ndarray, int]]:
        moves = []
        for d in SLIDES:
            after, points = slide(self.board, d)
            if not np.array_equal(after, self.board):
                moves.append((d, after, points))
        return moves

    def reset(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.board[:] = 0
        self._spawn()
        self._spawn()
        self._moves = self._legal()

    def placements(self) -> List[str]:
        return [d for d, _, _ in self._moves]

    def features(self) -> np.ndarray:
        return np.array([describe(after, p) for _, after, p in self._moves], dtype=np.float64)

    def play(self, placement: str) -> float:
        for d, after, points in self._moves:
            if d == placement:
                self.board = after.copy()
                self._spawn()
                self._moves = self._legal()
                return float(points)
        raise ValueError(f"{placement!r} is not one of {self.placements()}")

    def done(self) -> bool:
        return not self._moves

    def render(self) -> str:
        return "\n".join(" ".join(f"{t:5d}" if t else "    ." for t in row) for row in self.board)


# The example's run: 4 × 4 games capped at 300 slides, 10 generations of the cross-entropy
# method (12 candidates, 6 games each) from the hand-set start (examples/game2048-start.toml),
# 200 held-out games.
CONFIG = {
    "name": "example", "seed": 1, "generations": 10, "games": 6, "max_pieces": 300,
    "validation_max_pieces": 300, "validation_games": 30, "validate_every": 5,
    "final_games": 200, "init": "examples/game2048-start.toml",
    "optimizer": {"kind": "cem"}, "cem": {"population": 12, "elite_fraction": 0.25},
}


if __name__ == "__main__":
    import sys

    from stacktune.custom import evolve, play_games

    workers = int(sys.argv[1]) if len(sys.argv) > 1 else 2
    run = evolve(Game2048, CONFIG, workers=workers, out="runs/2048-example")
    games = CONFIG["final_games"]
    seeds = range(1_000_001, 1_000_001 + games)
    start, _ = play_games(Game2048, START, seeds, max_moves=300, workers=workers)
    tuned = run["held_out"]
    print(f"start: {start.mean():.1f} points a game on {games} held-out games (300 slides)")
    print(f"tuned: {tuned['mean']:.1f} ± {tuned['ci95']:.1f} on the same games ({run['folder']})")
