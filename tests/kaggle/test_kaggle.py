"""The exported agent in Kaggle's own ConnectX environment (kaggle-environments): it plays
whole games against the built-in `random` and `negamax` agents on both sides (also with an
endgame stage) and on other board sizes without an error or a timeout, as Kaggle loads a
submission, and it wins as often as the export promises over 200 games per opponent."""

import pathlib
import random
import sys

import pytest
from kaggle_environments import make

sys.path.insert(0, str(pathlib.Path(__file__).parent))
import strength


# The fixed depths of the games that assert wins: the search the agent deepens under Kaggle's
# clock, which reaches 6 to 8 plies in its second, so that no machine's speed changes the results.
# The whole games below are won at 7 plies on both sides (at 6, the second player lost a game
# against negamax, with and without the endgame); the 200-game series asks for its rate at 6.
WHOLE_GAME_DEPTH = 7
STRENGTH_DEPTH = 6


def run_game(submission, opponent, first, configuration=None, seed=0):
    """One game in Kaggle's environment, its built-in agents' random choices seeded."""
    random.seed(seed)
    env = make("connectx", configuration=configuration or {}, debug=True)
    agents = [submission, opponent] if first else [opponent, submission]
    last = env.run(agents)[-1]
    return last[0 if first else 1], [s["status"] for s in last]


# Under Kaggle's clock the agent deepens as far as the machine lets it, so what it plays, and
# whether it wins, depends on the load: these games assert what the clock guarantees on any
# machine (DONE for both: no error, no invalid column, no timeout, Kaggle's statuses for those),
# and the same games at a fixed depth assert the wins.
@pytest.mark.parametrize("opponent", ["random", "negamax"])
@pytest.mark.parametrize("first", [True, False])
def test_plays_whole_games_on_both_sides(submission, opponent, first):
    for seed in range(3):
        _, statuses = run_game(submission, opponent, first, seed=seed)
        assert statuses == ["DONE", "DONE"], f"seed {seed}"
        ours, statuses = run_game(strength.load_agent(submission, depth=WHOLE_GAME_DEPTH), opponent, first, seed=seed)
        assert statuses == ["DONE", "DONE"]
        assert ours["reward"] == 1, f"seed {seed}"


@pytest.mark.parametrize("first", [True, False])
def test_plays_whole_games_with_an_endgame(submission_with_endgame, first):
    # The solver and the search share the move's time: no timeout; at a fixed depth, with the
    # endgame stage from 22 empty cells, the game is won.
    _, statuses = run_game(submission_with_endgame, "negamax", first)
    assert statuses == ["DONE", "DONE"]
    fixed = strength.load_agent(submission_with_endgame, depth=WHOLE_GAME_DEPTH, endgame=22)
    ours, statuses = run_game(fixed, "negamax", first)
    assert statuses == ["DONE", "DONE"]
    assert ours["reward"] == 1


@pytest.mark.parametrize("rows,columns,inarow", [(7, 8, 5), (5, 6, 4), (6, 7, 3), (10, 12, 6)])
def test_follows_the_configured_board_and_line(submission, rows, columns, inarow):
    # Lines of 3 have no `windows_3` feature: the agent plays without those weights, where
    # stacktune refuses them; a 10 x 12 board is too large for stacktune's 64-bit boards.
    configuration = {"rows": rows, "columns": columns, "inarow": inarow}
    for first in (True, False):
        ours, statuses = run_game(submission, "random", first, configuration)
        assert statuses == ["DONE", "DONE"]
        assert ours["reward"] == 1


# Strength over 200 games per opponent, colours alternated, the built-in agents seeded per game.


@pytest.mark.parametrize("opponent,least", [("random", 0.99), ("negamax", 0.95)])
def test_wins_as_promised_over_200_games(submission, opponent, least):
    tally = strength.series(submission, opponent, 200, depth=STRENGTH_DEPTH)
    assert tally["errors"] == 0, tally
    assert tally["win_rate"] >= least, tally
