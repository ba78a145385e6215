"""Small games of the stacktune.custom protocol for test_custom.py, in a module of their own
so that spawned worker processes can import them."""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import List

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "examples"))

from game2048 import Game2048  # noqa: E402


class Small2048(Game2048):
    """2048 on a 3 × 3 board: short games."""

    def __init__(self) -> None:
        super().__init__(size=3)


class Counting:
    """Pick a number 0..3 each turn, scored by a hidden draw; five turns. No render."""

    name = "counting"
    feature_names = ("value", "odd")

    def reset(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.turns = 0

    def placements(self) -> List[int]:
        return [0, 1, 2, 3]

    def features(self) -> np.ndarray:
        return np.array([[p, p % 2] for p in range(4)], dtype=float)

    def play(self, placement: int) -> float:
        self.turns += 1
        return float(placement * self.rng.randrange(1, 4))

    def done(self) -> bool:
        return self.turns >= 5


class NoDone:
    name = "no-done"
    feature_names = ("value", "odd")
    reset = Counting.reset
    placements = Counting.placements
    features = Counting.features
    play = Counting.play


class WrongShape(Counting):
    name = "wrong-shape"

    def features(self) -> np.ndarray:
        return np.zeros((4, 3))


class NanFeatures(Counting):
    name = "nan-features"

    def features(self) -> np.ndarray:
        f = super().features()
        f[2, 1] = np.nan
        return f


class Refuses(Counting):
    name = "refuses"

    def play(self, placement: int) -> float:
        raise ValueError(f"placement {placement} is not legal here")


class Stopping(Small2048):
    """Small2048 that raises KeyboardInterrupt at its reset number STOP_AT (in this process):
    a run stopped in the middle, as Ctrl-C stops it."""

    resets = 0
    STOP_AT = -1

    def reset(self, seed: int) -> None:
        Stopping.resets += 1
        if Stopping.resets == Stopping.STOP_AT:
            raise KeyboardInterrupt
        super().reset(seed)
