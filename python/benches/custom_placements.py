"""Placements a second of a game written in Python (examples/game2048.py, 4 × 4) played by
stacktune.custom.play_games at 1 and 2 worker processes: 2 candidates × 20 seeds, at most
2,000 slides a game, the same games at each count (their scores are checked equal).

    python python/benches/custom_placements.py
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "examples"))

from game2048 import START, Game2048  # noqa: E402

from stacktune.custom import play_games  # noqa: E402

if __name__ == "__main__":
    results = []
    for workers in (1, 2):
        began = time.perf_counter()
        scores, moves = play_games(Game2048, [START, START * 2 + 0.5], range(1, 21), max_moves=2000, workers=workers)
        seconds = time.perf_counter() - began
        results.append(scores)
        print(f"{workers} worker(s): {moves} placements in {seconds:.2f} s, {moves / seconds:,.0f} placements/s")
    assert results[0].tobytes() == results[1].tobytes()
