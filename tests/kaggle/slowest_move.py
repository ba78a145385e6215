"""Measures how long an exported ConnectX agent's moves take in Kaggle's environment with both
cores kept busy: it starts `--busy` processes that spin (two by default, one a core of a
two-core machine), plays `--games` games against Kaggle's `negamax`, colours alternated, and
prints one JSON line: the games' results, the moves, the slowest move and the slowest first
move (which includes reading and compiling the file), the median, and how many moves took
over 1.5 s and over `actTimeout`, each time as Kaggle's environment measures it (the call's
`duration`). The spinning processes are stopped at the end, whatever happens.

    python tests/kaggle/slowest_move.py submission.py --games 100

Not part of CI: the figure depends on the machine and its load (docs/export.md gives it).
"""

import argparse
import json
import multiprocessing
import random
import statistics
import sys

from kaggle_environments import make


def spin():
    while True:
        pass


def play(path, first, seed):
    """One game against `negamax`, its random choices seeded with `seed`: the agent's reward,
    the statuses, and the agent's move durations in order."""
    random.seed(seed)
    env = make("connectx")
    agents = [path, "negamax"] if first else ["negamax", path]
    steps = env.run(agents)
    ours = 0 if first else 1
    durations = [
        log[ours]["duration"]
        for log in env.logs
        if len(log) > ours and log[ours] and "duration" in log[ours]
    ]
    last = steps[-1]
    return last[ours]["reward"], [s["status"] for s in last], durations


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("agent", help="the exported agent (a .py file)")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--busy", type=int, default=2, help="spinning processes to start")
    args = parser.parse_args()
    spinners = [multiprocessing.Process(target=spin, daemon=True) for _ in range(args.busy)]
    for p in spinners:
        p.start()
    try:
        results = [play(args.agent, i % 2 == 0, i) for i in range(args.games)]
    finally:
        for p in spinners:
            p.terminate()
            p.join()
    moves = [d for _, _, durations in results for d in durations]
    firsts = [durations[0] for _, _, durations in results if durations]
    rewards = [r for r, _, _ in results]
    print(
        json.dumps(
            {
                "games": args.games,
                "busy": args.busy,
                "wins": rewards.count(1),
                "draws": rewards.count(0),
                "losses": sum(r == -1 for r in rewards),
                "errors": sum(any(s != "DONE" for s in st) or r is None for r, st, _ in results),
                "moves": len(moves),
                "slowest": round(max(moves), 3),
                "slowest_first": round(max(firsts), 3),
                "median_first": round(statistics.median(firsts), 3),
                "median": round(statistics.median(moves), 3),
                "over_1_5": sum(d > 1.5 for d in moves),
                "over_2": sum(d > 2.0 for d in moves),
            }
        )
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
