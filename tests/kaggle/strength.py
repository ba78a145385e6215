"""Plays an exported ConnectX agent against Kaggle's built-in agents in Kaggle's own environment
and prints its results: wins, draws, losses and errors per opponent, colours alternated (the
agent moves first in the even-numbered games), game i's random choices seeded with i.

    python tests/kaggle/strength.py submission.py --games 200 --opponent random --opponent negamax

`--seconds S` passes the agent an `actTimeout` of S instead of Kaggle's 2 s, so that long
series run in less time: the agent then searches less deep, so its results are a lower bound
for the agent given Kaggle's time. `--depth D` plays the file's fixed-depth search instead
(`choose_column`, the search the agent deepens), which no clock changes: the same results on
any machine; `--endgame N` adds the endgame stage to it and `--book` the file's opening book
(the agent itself plays the file's ENDGAME and BOOK). An opponent `depthD` (e.g. `depth6`) is
the file's own search at a fixed D plies, without book or endgame. The opponents keep Kaggle's
configuration.
"""

import argparse
import importlib.util
import json
import random
import sys
from concurrent.futures import ProcessPoolExecutor

from kaggle_environments import make
from kaggle_environments.agent import get_last_callable


#: The fixed-depth choices this process has made, by file, search settings and position: the
#: file's `choose_column` is a function of its arguments alone (its search keeps nothing from
#: one call to the next but the endgame solver's table of proven values, which no choice
#: depends on), so a position met again, in a later game of a series, is answered without
#: searching it again: the same moves in less time (the opening positions of a series recur).
CHOSEN = {}


def load_agent(path, seconds=None, depth=None, endgame=0, book=False):
    """The agent as Kaggle loads a submission (the last callable the file defines), given an
    actTimeout of `seconds`, or searching a fixed `depth` with an endgame stage from `endgame`
    empty cells, and the file's opening book when `book` (the file's `choose_column`)."""
    with open(path, encoding="utf-8") as f:
        source = f.read()
    agent = get_last_callable(source, path=path)
    if depth is not None:
        spec = importlib.util.spec_from_file_location("submission", path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        choose = module.choose_column

        def fixed(observation, configuration):
            c = configuration
            board, mark = observation.board, observation.mark
            key = (path, depth, endgame, book, tuple(board), mark, c.rows, c.columns, c.inarow)
            if key not in CHOSEN:
                CHOSEN[key] = choose(board, mark, c.rows, c.columns, c.inarow, depth, endgame, book)
            return CHOSEN[key]

        return fixed
    if seconds is not None:

        def timed(observation, configuration):
            return agent(observation, dict(configuration, actTimeout=seconds))

        return timed
    return agent


def play(path, opponent, first, seconds, depth, endgame, seed, book=False):
    """One game in Kaggle's environment, the built-in agents' random choices seeded with
    `seed`: the agent's result (1 win, 0 draw, -1 loss) and the statuses, which say whether
    anyone erred or ran out of time. An opponent `depthD` is the file's own search at a fixed
    D plies without its book or endgame."""
    random.seed(seed)
    timed = load_agent(path, seconds, depth, endgame, book)
    if opponent.startswith("depth"):
        opponent = load_agent(path, depth=int(opponent[len("depth") :]))

    env = make("connectx", debug=True)
    agents = [timed, opponent] if first else [opponent, timed]
    last = env.run(agents)[-1]
    ours = last[0] if first else last[1]
    statuses = [s["status"] for s in last]
    return ours["reward"], statuses


def series(path, opponent, games, seconds=None, depth=None, endgame=0, workers=2, book=False):
    """`games` games against `opponent`, the agent first in the even-numbered ones."""
    args = [
        (path, opponent, i % 2 == 0, seconds, depth, endgame, i, book) for i in range(games)
    ]
    with ProcessPoolExecutor(max_workers=workers) as pool:
        results = list(pool.map(play, *zip(*args)))
    tally = {"opponent": opponent, "games": games, "wins": 0, "draws": 0, "losses": 0, "errors": 0}
    for reward, statuses in results:
        if any(s != "DONE" for s in statuses) or reward is None:
            tally["errors"] += 1
        elif reward == 1:
            tally["wins"] += 1
        elif reward == 0:
            tally["draws"] += 1
        else:
            tally["losses"] += 1
    tally["win_rate"] = tally["wins"] / games
    return tally


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("agent", help="the exported agent (a .py file)")
    parser.add_argument("--games", type=int, default=200, help="games per opponent")
    parser.add_argument(
        "--opponent",
        action="append",
        help="a built-in agent, random or negamax, or depthD: the file's own D-ply search (repeat)",
    )
    parser.add_argument("--seconds", type=float, help="the agent's actTimeout (Kaggle: 2)")
    parser.add_argument(
        "--depth", type=int, help="search this many plies a move instead (no clock: reproducible)"
    )
    parser.add_argument(
        "--endgame", type=int, default=0, help="with --depth: the endgame stage from N empty cells"
    )
    parser.add_argument(
        "--book", action="store_true", help="with --depth: the file's opening book too"
    )
    parser.add_argument("--workers", type=int, default=2, help="games played at once")
    args = parser.parse_args()
    for opponent in args.opponent or ["random", "negamax"]:
        tally = series(
            args.agent,
            opponent,
            args.games,
            args.seconds,
            args.depth,
            args.endgame,
            args.workers,
            args.book,
        )
        print(json.dumps(tally), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
