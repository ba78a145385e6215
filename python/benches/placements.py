"""Placements per second from Python, side by side in one run.

    python python/benches/placements.py [--seconds 5] [--envs 2048 8192] [--threads 1 2]
        [--before DIR] [--vector-only] [--tetris-gymnasium /path/to/other/venv/bin/python]
    python python/benches/placements.py --profile-steps N [--envs 2048]

(a) one `stacktune/Tetris-v0` environment stepped with random legal actions;
(b) `stacktune.envs.VectorEnv` of N Tetris games (each of --envs) on T rayon threads (each of
    --threads, RAYON_NUM_THREADS in a child process), driven by a numpy random policy (a
    random legal action per game); the policy's own time is measured apart, so each row gives
    placements a second with the policy and of the environment's steps alone. With --before
    DIR, every row is measured again, alternately, with the package found in DIR (an earlier
    build: its `stacktune` folder), and the table gives after / before;
--profile-steps N runs N steps of (b), untimed, for a profiler (docs/python.md: where a
step's time goes).
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
from typing import Optional

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


def vector_env(seconds: float, envs: int) -> dict:
    """Placements a second of a VectorEnv of `envs` Tetris games under a numpy random policy,
    in all and of its steps alone, the policy's seconds a step, and the CPU seconds (every
    thread's) a placement, which other work on the machine moves less than the wall time."""
    import numpy as np

    import stacktune
    import stacktune.envs

    vector = stacktune.envs.VectorEnv(stacktune.Tetris(), envs)
    rng = np.random.default_rng(0)
    obs, info = vector.reset(seed=0)
    steps, policy, clock = 0, 0.0, time.perf_counter
    start, cpu = clock(), time.process_time()
    while clock() - start < seconds:
        before = clock()
        mask = info["action_mask"]
        # A random legal action per game: the largest of uniform draws over the legal ones.
        actions = np.argmax(rng.random(mask.shape, dtype=np.float32) * mask, axis=1)
        policy += clock() - before
        obs, rewards, terminated, truncated, info = vector.step(actions)
        steps += 1
    wall, cpu = clock() - start, time.process_time() - cpu
    return {
        "total": steps * envs / wall,
        "cpu": cpu / (steps * envs),
        "steps": steps * envs / (wall - policy),
        "policy": policy / steps,
    }


def fixed_steps(envs: int, steps: int) -> None:
    """`steps` steps of the loop `vector_env` times, untimed, for a profiler: run it with 100
    steps and with 0 under `valgrind --tool=callgrind`, and the difference is the steps."""
    import numpy as np

    import stacktune
    import stacktune.envs

    vector = stacktune.envs.VectorEnv(stacktune.Tetris(), envs)
    rng = np.random.default_rng(0)
    obs, info = vector.reset(seed=0)
    for _ in range(steps):
        mask = info["action_mask"]
        actions = np.argmax(rng.random(mask.shape, dtype=np.float32) * mask, axis=1)
        obs, rewards, terminated, truncated, info = vector.step(actions)


def vector_child(seconds: float, envs: int, threads: int, path: Optional[str]) -> dict:
    """`vector_env` in a child process on `threads` rayon threads, importing stacktune from
    `path` first when given."""
    env = {**os.environ, "RAYON_NUM_THREADS": str(threads)}
    if path:
        env["PYTHONPATH"] = os.pathsep.join([path, env.get("PYTHONPATH", "")])
    done = subprocess.run(
        [sys.executable, __file__, "--only", "vector", "--seconds", str(seconds), "--envs", str(envs)],
        capture_output=True, text=True, check=True, env=env,
    )
    return json.loads(done.stdout)


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
    parser.add_argument("--envs", type=int, nargs="+", default=[2048, 8192])
    parser.add_argument("--threads", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--before", metavar="DIR", help="an earlier build's package folder")
    parser.add_argument("--vector-only", action="store_true", help="only (b)")
    parser.add_argument("--tetris-gymnasium", metavar="PYTHON")
    parser.add_argument("--profile-steps", type=int, metavar="N", help="run N steps, untimed")
    parser.add_argument("--only", choices=["vector"], help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.profile_steps is not None:
        fixed_steps(args.envs[0], args.profile_steps)
        return
    if args.only == "vector":
        print(json.dumps(vector_env(args.seconds, args.envs[0])))
        return
    print("(b) VectorEnv, Tetris 10 x 20, a numpy random policy (placements/s)")
    header = f"{'games':>6} {'threads':>7} {'with policy':>12} {'steps alone':>12} {'policy/step':>12} {'CPU/placement':>14}"
    print(header + (f" {'before':>12} {'after/before':>12} {'CPU before/after':>16}" if args.before else ""))
    for envs in args.envs:
        for threads in args.threads:
            after = vector_child(args.seconds, envs, threads, None)
            line = (
                f"{envs:>6} {threads:>7} {after['total']:>12,.0f} {after['steps']:>12,.0f}"
                f" {1e3 * after['policy']:>9.2f} ms {1e6 * after['cpu']:>11.2f} µs"
            )
            if args.before:
                before = vector_child(args.seconds, envs, threads, args.before)
                line += (
                    f" {before['total']:>12,.0f} {after['total'] / before['total']:>12.2f}"
                    f" {before['cpu'] / after['cpu']:>16.2f}"
                )
            print(line, flush=True)
    if args.vector_only:
        return
    figures = {}
    if args.tetris_gymnasium:
        figures["(c) tetris-gymnasium, grouped actions + feature vectors"] = timed_loop(
            args.tetris_gymnasium, TETRIS_GYMNASIUM, args.seconds
        )
    figures["(a) stacktune/Tetris-v0, one environment"] = timed_loop(
        sys.executable, STACKTUNE, args.seconds
    )
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
