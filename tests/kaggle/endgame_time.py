"""Times an exported agent's endgame stage: for the positions of the games set
(tests/data/connect/accuracy-games.txt, the moves of each line) with exactly N empty cells, how
long the agent's solver takes to find the columns that keep the position's value
(`value_keeping`, what the agent does first from ENDGAME empty cells on), starting each
position with an empty table (a game's first solved move, the slowest case). Prints one JSON
line per N: positions, median and slowest seconds, and the nodes searched, median and most
(the same on any machine).

    python3 tests/kaggle/endgame_time.py submission.py --empty 16 20 24
"""

import argparse
import json
import pathlib
import statistics
import time

from same_column import load

GAMES = pathlib.Path(__file__).resolve().parents[1] / "data" / "connect" / "accuracy-games.txt"


def positions(empty):
    """The distinct move strings of the games set with `empty` cells left (1-based columns)."""
    lines = GAMES.read_text(encoding="utf-8").splitlines()
    moves = {line.split()[0] for line in lines if line.strip()}
    return sorted(m for m in moves if len(m) == 42 - empty)


def discs(rules, moves):
    """The discs of the side to move and of the other side after `moves` (1-based columns)."""
    own = opp = 0
    heights = [0] * rules.columns
    for ch in moves:
        column = int(ch) - 1
        own, opp = opp, own | rules.cell(column, heights[column])
        heights[column] += 1
    return own, opp


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("agent", help="the exported agent (or src/export/kaggle_agent.py)")
    parser.add_argument("--empty", type=int, nargs="+", default=[16, 20, 24])
    args = parser.parse_args()
    submission = load(args.agent)
    rules = submission.rules_for(6, 7, 4)
    rules.deadline = None
    for empty in args.empty:
        times = []
        for moves in positions(empty):
            own, opp = discs(rules, moves)
            rules.solver.table.clear()
            rules.nodes = 0
            begin = time.perf_counter()
            submission.value_keeping(rules, own, opp, empty)
            times.append((time.perf_counter() - begin, rules.nodes, moves))
        line = {
            "empty": empty,
            "positions": len(times),
            "median_s": round(statistics.median(t for t, _, _ in times), 4),
            "slowest_s": round(max(t for t, _, _ in times), 4),
            "median_nodes": statistics.median_low(n for _, n, _ in times),
            "most_nodes": max(n for _, n, _ in times),
            "most_nodes_moves": max((n, m) for _, n, m in times)[1],
        }
        print(json.dumps(line), flush=True)


if __name__ == "__main__":
    main()
