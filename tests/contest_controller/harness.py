"""A stand-in for the contest's engine (seigot/tetris) that drives an exported
`block_controller.py` exactly through the engine's documented interface: each turn it builds
`GameStatus` (doc/files/GameStatus.md: the 220-cell board, shapes by the contest's index
numbers 1..7 = I L J T O S Z, the preview list, the hold shape, the block index, the level's
seed and obstacle settings) and reads `nextMove["strategy"]` back (doc/files/block_controller.md:
direction, x, y_operation, y_moveblocknum, use_hold_function).

The game itself is `stacktune.ContestTetris`, the contest's rules as stacktune implements them
(src/games/contest/rules.rs), so a game here is a game of `stacktune play --rules contest`
with the controller's requests; the only question it answers is whether the controller, seeing
only what the engine shows, plays the moves stacktune plays.

Run as a script for a table of scores and times per move:
    python tests/contest_controller/harness.py block_controller.py --level 2 --seeds 1-20
"""

import argparse
import importlib.util
import itertools
import time

import stacktune

WIDTH = 10
HEIGHT = 22
#: The piece letters of `ContestTetris.legal_moves`, by the contest's shape index 1..7.
LETTERS = "ILJTOSZ"
#: Rotations a shape has (the engine's `direction_range`), by index.
DIRECTIONS = {1: 2, 2: 4, 3: 4, 4: 4, 5: 1, 6: 2, 7: 2}
#: start.py's settings per level: seed (None: the one given), obstacle height, probability,
#: block_num_max (-1: no limit; level 4 is played against the clock).
LEVELS = {1: (0, 0, 0, 180), 2: (None, 0, 0, 180), 3: (None, 10, 40, 180), 4: (None, 10, 40, -1)}
_counter = itertools.count()


def load_module(path):
    """The exported file as a fresh module (its `BLOCK_CONTROLLER` is built on import)."""
    spec = importlib.util.spec_from_file_location(f"block_controller_{next(_counter)}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def shape(index):
    """A shape entry of `block_info` as the engine fills it (`class` is the engine's object)."""
    if index == 0:
        return {"class": None, "index": None, "direction_range": None}
    return {"class": None, "index": index, "direction_range": tuple(range(DIRECTIONS[index]))}


def game_status(game, seed, level, game_overs, all_clear=False):
    """The engine's `GameStatus` for the position `game` is in; with `all_clear`, as the
    engine's versions from July 2023 give it, with the all-clear bonus among the points."""
    board = game.board
    backboard = [int(board[y][x] != 0) for y in range(HEIGHT) for x in range(WIDTH)]
    pieces = [int(p) for p in game.pieces]  # current, next1..next5, hold
    _, obstacle_height, obstacle_probability, block_num_max = LEVELS[level]
    return {
        "field_info": {
            "width": WIDTH,
            "height": HEIGHT,
            "backboard": backboard,
            "withblock": backboard,  # the falling piece is not drawn: no controller needs it
        },
        "block_info": {
            "currentX": 5,
            "currentY": 1,
            "currentDirection": 0,
            "currentShape": shape(pieces[0]),
            "nextShape": shape(pieces[1]),
            "nextShapeList": {f"element{i}": shape(p) for i, p in enumerate(pieces[:6])},
            "holdShape": shape(pieces[6]),
        },
        "judge_info": {
            "elapsed_time": 0.0,
            "game_time": 180,
            "gameover_count": game_overs,
            "score": game.score,
            "line": 0,
            "block_index": game.moves_played + 1,
            "block_num_max": block_num_max,
            "mode": "default",
        },
        "debug_info": {
            "random_seed": seed,
            "obstacle_height": obstacle_height,
            "obstacle_probability": obstacle_probability,
            **({"line_score": {"all_block_clear": 4000 if level >= 3 else 500}}
               if all_clear else {}),
        },
    }


def empty_next_move():
    """`nextMove` as the engine hands it to the controller."""
    keys = ("direction", "x", "y_operation", "y_moveblocknum", "use_hold_function")
    return {"strategy": dict.fromkeys(keys, "none"), "option": {}}


def request(game, next_move):
    """The legal move of `game` that `nextMove` asks for (a hard drop); an error otherwise."""
    s = next_move["strategy"]
    if s["y_operation"] != 1:
        raise ValueError(f"only hard drops are played, not y_operation {s['y_operation']!r}")
    if s["use_hold_function"] not in ("y", "n"):
        raise ValueError(f"use_hold_function is 'y' or 'n', not {s['use_hold_function']!r}")
    hold = s["use_hold_function"] == "y"
    for move in game.legal_moves():
        if (move.hold, move.rotation, move.column) == (hold, s["direction"], s["x"]):
            return move
    raise ValueError(f"no legal move is {s} in\n{game!r}")


def play(path, level, seed, moves=None, all_clear=False):
    """One game of the controller at `path`, stopped after `moves` moves if given (a level-4
    game lasts 180,000): its score and its seconds per move."""
    controller = load_module(path).Block_Controller()
    contest_seed = LEVELS[level][0] if LEVELS[level][0] is not None else seed
    game = stacktune.ContestTetris(level=level, seed=contest_seed, all_clear=all_clear)
    game_overs, seconds = 0, []
    while not game.done and (moves is None or len(seconds) < moves):
        status = game_status(game, contest_seed, level, game_overs, all_clear)
        start = time.perf_counter()
        next_move = controller.GetNextMove(empty_next_move(), status)
        seconds.append(time.perf_counter() - start)
        game_overs += game.play(request(game, next_move)).game_over
    return game.score, seconds


def seeds(text):
    first, _, last = text.partition("-")
    return range(int(first), int(last or first) + 1)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("controller")
    parser.add_argument("--level", type=int, choices=sorted(LEVELS), default=2)
    parser.add_argument("--seeds", type=seeds, default=seeds("1-20"))
    parser.add_argument("--all-clear", action="store_true",
                        help="the engine's versions from July 2023, which score an all-clear")
    args = parser.parse_args()
    worst = []
    for seed in args.seeds:
        score, secs = play(args.controller, args.level, seed, all_clear=args.all_clear)
        worst.append(max(secs))
        mean = sum(secs) / len(secs)
        print(f"seed {seed}: score {score:.0f}, {len(secs)} moves, "
              f"mean {mean * 1000:.1f} ms, max {max(secs) * 1000:.1f} ms a move")
    print(f"slowest move over all games: {max(worst) * 1000:.1f} ms (the contest allows 1 s)")


if __name__ == "__main__":
    main()
