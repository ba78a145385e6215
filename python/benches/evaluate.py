"""Evaluations a second of `stacktune.evaluate` against `stacktune play` on the same games.

    python python/benches/evaluate.py [--binary target/release/stacktune]

From the repository root. (a) small evaluations, as an optimiser makes many of them: 16 and
100 games of 6 x 8 Tetris capped at 300 pieces, `evaluate` called 100 times a round (five
rounds, after one warm-up call that pays the first call's imports) against 40 runs of the
`play --json` process on the same games; (b) one long batch: 1,000 games of 10 x 10 Tetris
capped at 2,000 pieces, `evaluate` and the binary alternated six times, with each side's own
rate (the report's `pieces_per_second`) and `evaluate`'s whole call. Every pair's per-game
scores are checked equal. Figures in docs/python.md ("Speed of evaluate").
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

import stacktune

WEIGHTS = "weights/tetris/dellacherie.toml"


def play_argv(binary: str, **flags: int) -> list:
    argv = [binary, "play", "--weights", WEIGHTS, "--json", "--quiet"]
    for key, value in flags.items():
        argv += [f"--{key.replace('_', '-')}", str(value)]
    return argv


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--binary", default="target/release/stacktune")
    binary = parser.parse_args().binary
    with open(WEIGHTS, "rb") as f:
        w = tomllib.load(f)["weights"]
    small = dict(width=6, height=8, max_pieces=300)
    stacktune.evaluate(w, game="tetris", games=1, seed=0, **small)
    for games in (16, 100):
        rounds = []
        for _ in range(5):
            start = time.perf_counter()
            for i in range(100):
                stacktune.evaluate(w, game="tetris", games=games, seed=i, **small)
            rounds.append((time.perf_counter() - start) / 100)
        start = time.perf_counter()
        for i in range(40):
            out = subprocess.run(play_argv(binary, games=games, seed=i, **small), capture_output=True, check=True)
        process = (time.perf_counter() - start) / 40
        ours = stacktune.evaluate(w, game="tetris", games=games, seed=39, **small)
        assert ours["per_game"] == json.loads(out.stdout)["per_game"]
        print(
            f"(a) {games} games: evaluate {statistics.median(rounds) * 1000:.2f} ms a call "
            f"(rounds {', '.join(f'{r * 1000:.2f}' for r in rounds)}), play process {process * 1000:.1f} ms a call"
        )
    long = dict(width=10, height=10, games=1000, seed=0, max_pieces=2000)
    inside, binary_rates, calls = [], [], []
    for _ in range(6):
        start = time.perf_counter()
        ours = stacktune.evaluate(w, game="tetris", **long)
        calls.append(time.perf_counter() - start)
        theirs = json.loads(subprocess.run(play_argv(binary, **long), capture_output=True, check=True).stdout)
        assert ours["per_game"] == theirs["per_game"]
        per_game = ours["total_pieces"] / 1000
        inside.append(ours["pieces_per_second"] / per_game)
        binary_rates.append(theirs["pieces_per_second"] / per_game)
    print(f"(b) evaluate games/s inside play: {[round(x) for x in inside]}")
    print(f"(b) binary   games/s inside play: {[round(x) for x in binary_rates]}")
    print(f"(b) evaluate's whole call: {statistics.median(calls):.3f} s median, {1000 / statistics.median(calls):.0f} games/s")
    ratios = [a / b for a, b in zip(inside, binary_rates)]
    print(f"(b) evaluate / binary, pair by pair: median {statistics.median(ratios):.2f} ({min(ratios):.2f} to {max(ratios):.2f})")


if __name__ == "__main__":
    main()
