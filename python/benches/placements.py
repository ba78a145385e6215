"""Placements per second from Python, side by side in one run.

    python python/benches/placements.py [--seconds 5] [--envs 2048]
        [--tetris-gymnasium /path/to/other/venv/bin/python]

(a) one `stacktune/Tetris-v0` environment stepped with random legal actions;
(b) `stacktune.envs.VectorEnv` of --envs Tetris games, random legal actions, on every core
    (and on one core: RAYON_NUM_THREADS=1, in a child process);
(c) with --tetris-gymnasium: the PyPI `tetris-gymnasium` environment under its grouped
    placement actions and feature-vector observations, random legal actions, run by that
    interpreter (it lives in a virtual environment of its own);
(d) the cost of one Python call: the same random games replayed one `Tetris.play` call a
    placement, then in one `Tetris.play_all` call that plays them inside Rust.
Random actions come from numpy (seed 0), drawn the same way in (a) and (c); every figure is
placements a second of wall time.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time

# One environment stepped with random legal actions for SECONDS, run by whichever interpreter
# has the environment; MAKE builds it.
TIMED_LOOP = r"""
import json, sys, time
import numpy as np
import gymnasium as gym
MAKE
seconds = float(sys.argv[1])
draws = np.random.default_rng(0).random(1 << 20)
obs, info = env.reset(seed=0)
steps, start = 0, time.perf_counter()
while time.perf_counter() - start < seconds:
    legal = np.flatnonzero(info["action_mask"])
    action = legal[int(draws[steps & 0xFFFFF] * len(legal))]
    obs, reward, terminated, truncated, info = env.step(action)
    steps += 1
    if terminated or truncated:
        obs, info = env.reset()
print(json.dumps(steps / (time.perf_counter() - start)))
"""

STACKTUNE = """
import stacktune.envs
env = gym.make("stacktune/Tetris-v0")
"""

TETRIS_GYMNASIUM = """
from tetris_gymnasium.envs.tetris import Tetris
from tetris_gymnasium.wrappers.grouped import GroupedActionsObservations
from tetris_gymnasium.wrappers.observation import FeatureVectorObservation
base = gym.make("tetris_gymnasium/Tetris")
env = GroupedActionsObservations(base, observation_wrappers=[FeatureVectorObservation(base)])
"""


def timed_loop(python: str, make: str, seconds: float) -> float:
    """Placements a second of one environment that `make` builds, run by `python`."""
    code = TIMED_LOOP.replace("MAKE", make)
    done = subprocess.run(
        [python, "-c", code, str(seconds)], capture_output=True, text=True, check=True
    )
    return json.loads(done.stdout.strip().splitlines()[-1])


def vector_env(seconds: float, envs: int) -> float:
    import numpy as np

    import stacktune
    import stacktune.envs

    vector = stacktune.envs.VectorEnv(stacktune.Tetris(), envs)
    rng = np.random.default_rng(0)
    obs, info = vector.reset(seed=0)
    steps, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        mask = info["action_mask"]
        # A random legal action per game: the largest of uniform draws over the legal ones.
        actions = np.argmax(rng.random(mask.shape, dtype=np.float32) * mask, axis=1)
        obs, rewards, terminated, truncated, info = vector.step(actions)
        steps += envs
    return steps / (time.perf_counter() - start)


def call_overhead(seconds: float) -> tuple:
    """The same random games replayed twice: one `Tetris.play` call a placement, then one
    `Tetris.play_all` call for the whole game, which plays them inside Rust. Returns the
    seconds a placement takes each way."""
    import numpy as np

    import stacktune

    rng = np.random.default_rng(0)
    placements, by_call, in_rust, seed = 0, 0.0, 0.0, 0
    while by_call < seconds:
        game, actions = stacktune.Tetris(seed=seed), []
        while not game.done:
            legal = np.flatnonzero(game.action_mask())
            actions.append(int(legal[rng.integers(len(legal))]))
            game.play(actions[-1])
        replay = stacktune.Tetris(seed=seed)
        start = time.perf_counter()
        for action in actions:
            replay.play(action)
        by_call += time.perf_counter() - start
        replay = stacktune.Tetris(seed=seed)
        start = time.perf_counter()
        replay.play_all(actions)
        in_rust += time.perf_counter() - start
        placements += len(actions)
        seed += 1
    return by_call / placements, in_rust / placements


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--envs", type=int, default=2048)
    parser.add_argument("--tetris-gymnasium", metavar="PYTHON")
    parser.add_argument("--only", choices=["vector"], help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.only == "vector":
        print(json.dumps(vector_env(args.seconds, args.envs)))
        return
    figures = {}
    if args.tetris_gymnasium:
        figures["(c) tetris-gymnasium, grouped actions + feature vectors"] = timed_loop(
            args.tetris_gymnasium, TETRIS_GYMNASIUM, args.seconds
        )
    figures["(a) stacktune/Tetris-v0, one environment"] = timed_loop(
        sys.executable, STACKTUNE, args.seconds
    )
    figures[f"(b) VectorEnv, {args.envs} games, every core"] = vector_env(args.seconds, args.envs)
    one_core = subprocess.run(
        [sys.executable, __file__, "--only", "vector", "--seconds", str(args.seconds), "--envs", str(args.envs)],
        capture_output=True, text=True, check=True, env={**os.environ, "RAYON_NUM_THREADS": "1"},
    )
    figures[f"(b) VectorEnv, {args.envs} games, one core"] = json.loads(one_core.stdout)
    by_call, in_rust = call_overhead(args.seconds)
    figures["(d) Tetris.play, one Python call a placement"] = 1 / by_call
    figures["(d) Tetris.play_all, the same placements inside Rust"] = 1 / in_rust
    for name, value in figures.items():
        print(f"{name:<58} {value:>12,.0f} placements/s")
    c = figures.get("(c) tetris-gymnasium, grouped actions + feature vectors")
    a = figures["(a) stacktune/Tetris-v0, one environment"]
    if c:
        print(f"(a) / (c) = {a / c:,.0f}")
    print(
        f"one Python call costs {1e6 * (by_call - in_rust):.2f} µs more than the same placement "
        f"played inside Rust ({1e6 * by_call:.2f} µs against {1e6 * in_rust:.2f} µs)"
    )


if __name__ == "__main__":
    main()
