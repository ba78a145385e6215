"""A controller for the Tetris programming contest (github.com/seigot/tetris), written by
`stacktune export contest` from a weights file.

It needs the `stacktune` Python package: from a stacktune checkout, `pip install ./python`
(a Rust toolchain and Python 3.9 or newer). Put this file at `game_manager/block_controller.py`
in the contest's repository and run the contest's own command, e.g. `python start.py -l 2`.

Each turn it rebuilds the engine's position in `stacktune.ContestTetris` (the same rules:
src/games/contest/rules.rs) from `GameStatus` (the 220-cell board, the current piece, the five
previews, the hold piece, the block index for the turn, the obstacle and seed settings for the
level) and answers with the move `stacktune play --rules contest` makes from that position on
that turn: tests/contest_controller checks it game by game. Where the engine scores an all-clear
(its versions from July 2023, whose GameStatus gives the bonus), the move is the one
`stacktune play --rules contest --all-clear` makes.
"""

import os
import tempfile

import stacktune

# <stacktune:generated> Written by `stacktune export contest`; export again rather than edit.
SOURCE = "(the template, before export)"
SOURCE_SHA256 = ""
WEIGHTS_TOML = ""
# </stacktune:generated>

WIDTH = 10
HEIGHT = 22
#: The contest's shape index (1..7) is the position of the piece's letter here plus one.
LETTERS = "ILJTOSZ"
#: Where every piece spawns (its reference point), state 0.
SPAWN = (5, 1)
#: The cells of each piece in state 0, offsets (x, y) from the reference point, y downward.
SPAWN_CELLS = {
    1: ((0, -1), (0, 0), (0, 1), (0, 2)),
    2: ((0, -1), (0, 0), (0, 1), (1, 1)),
    3: ((0, -1), (0, 0), (0, 1), (-1, 1)),
    4: ((0, -1), (0, 0), (0, 1), (1, 0)),
    5: ((0, 0), (0, -1), (1, 0), (1, -1)),
    6: ((0, 0), (0, -1), (-1, 0), (1, -1)),
    7: ((0, 0), (0, -1), (1, 0), (-1, -1)),
}


def load_player(**flags):
    """The embedded weights as a `stacktune.Player` for the game `flags` name (level,
    all-clear bonus), which reads a file: a temporary one."""
    handle, path = tempfile.mkstemp(suffix=".toml")
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            out.write(WEIGHTS_TOML)
        return stacktune.Player(path, **flags)
    finally:
        os.remove(path)


def letter(index):
    """The piece letter of a contest shape index; None for no piece (an empty hold)."""
    if index in (None, 0, "none"):
        return None
    return LETTERS[int(index) - 1]


def rows_of(backboard):
    """The 220 cells (index x + 10 y, nonzero filled) as 22 row strings, top first."""
    return [
        "".join("#" if backboard[x + y * WIDTH] else "." for x in range(WIDTH))
        for y in range(HEIGHT)
    ]


def all_clear_scored(debug):
    """Whether the engine scores an all-clear: its GameStatus says how much from July 2023 on
    (500 at levels 1-2, 4,000 at 3-4: the bonus the rules give), and nothing before."""
    points = (debug.get("line_score") or {}).get("all_block_clear")
    return str(points).isdigit() and int(points) > 0


def spawn_overlaps(backboard, index):
    """Whether the piece spawned over the stack: the engine's 2nd, 4th, ... failed spawn."""
    for dx, dy in SPAWN_CELLS[int(index)]:
        x, y = SPAWN[0] + dx, SPAWN[1] + dy
        if 0 <= y < HEIGHT and backboard[x + y * WIDTH]:
            return True
    return False


class Block_Controller:  # noqa: N801 (the contest's name)
    """The contest's controller interface: `GetNextMove` fills `nextMove["strategy"]`."""

    def __init__(self):
        #: A player per game the engine runs (level, all-clear bonus), made when first met.
        self.players = {}
        #: Failed spawns so far (game overs are the odd ones), as the engine counts them.
        self.failures = 0

    def position(self, status):
        """The engine's position as a `stacktune.ContestTetris` game, and the player for the
        game the engine runs (its level and all-clear bonus)."""
        field, blocks = status["field_info"], status["block_info"]
        judge, debug = status["judge_info"], status["debug_info"]
        board = field["backboard"]
        shapes = blocks["nextShapeList"]
        current = shapes["element0"]["index"]
        previews = "".join(letter(shapes["element%d" % i]["index"]) for i in range(1, 6))
        game_overs = int(judge["gameover_count"])
        if game_overs and spawn_overlaps(board, current):
            self.failures = 2 * game_overs
        elif 2 * game_overs - 1 > self.failures:
            self.failures = 2 * game_overs - 1
        # Level 4 is level 3 without the block limit: start.py sets block_num_max -1 there, and
        # its game lasts up to 180,000 turns (180 s of 1 ms ticks), which is the default.
        if int(debug.get("obstacle_height") or 0) == 0:
            level = 2
        else:
            level = 4 if int(judge.get("block_num_max") or 0) <= 0 else 3
        # Seed 0 deals the fixed cycle I L J T O S Z, which the search may count on; any other
        # seed's pieces are unknown beyond the previews, whichever seed stands for them.
        seed = 0 if int(debug.get("random_seed") or 0) == 0 else 1
        game = dict(level=level, all_clear=all_clear_scored(debug))
        key = tuple(sorted(game.items()))
        if key not in self.players:
            self.players[key] = load_player(**game)
        position = stacktune.ContestTetris.from_board(
            rows_of(board),
            current=letter(current),
            next=previews,
            hold=letter(blocks["holdShape"]["index"]),
            turn=int(judge["block_index"]) - 1,
            seed=seed,
            level=level,
            all_clear=all_clear_scored(debug),
            failures=self.failures,
        )
        return position, self.players[key]

    def GetNextMove(self, nextMove, GameStatus):  # noqa: N802, N803 (the contest's names)
        game, player = self.position(GameStatus)
        move = player.choose(game)
        strategy = nextMove["strategy"]
        if move is None:  # the game is over: nothing to choose
            return nextMove
        strategy["direction"] = move.rotation
        strategy["x"] = move.column
        strategy["y_operation"] = 1  # hard drop
        strategy["y_moveblocknum"] = 1
        strategy["use_hold_function"] = "y" if move.hold else "n"
        return nextMove


BLOCK_CONTROLLER = Block_Controller()
