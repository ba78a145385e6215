"""The agent's clock: on a machine where every node of its search is slow (a loaded machine,
where the issue saw 256 nodes take most of a second), or where the load arrives in the middle
of a move, `agent` answers within TIME_SHARE of `actTimeout` and at most one stretch between
two looks at the clock after it; the first move counts the time since the file began to run.
The machine is `test_endgame.SlowMachine`, a fake clock, so that the test is the same on any
machine and its figures are exact."""

import pathlib
import sys

import pytest

sys.path.insert(0, str(pathlib.Path(__file__).parent))
from same_column import load
from test_endgame import SlowMachine, kaggle_board

#: Kaggle's time a move.
ACT_TIMEOUT = 2.0


@pytest.fixture(scope="module")
def module(submission_with_endgame):
    return load(submission_with_endgame)


def move(module, monkeypatch, moves, clock, loaded=None):
    """Plays the agent's move after `moves` on `clock`, and returns the time the move took on
    it, from its call (or from `loaded`, the first move's LOADED) to its answer."""
    monkeypatch.setattr(module, "time", clock)
    begin = clock.perf_counter()
    monkeypatch.setattr(module, "LOADED", loaded)
    observation = {"board": kaggle_board(moves), "mark": 1 + len(moves) % 2}
    configuration = {"rows": 6, "columns": 7, "inarow": 4, "actTimeout": ACT_TIMEOUT}
    column = module.agent(observation, configuration)
    assert column in range(7)
    end = clock.perf_counter()
    return end - (begin if loaded is None else loaded)


def budget(module):
    return module.TIME_SHARE * ACT_TIMEOUT


def look_seconds(module):
    return module.LOOK_SHARE * (1 - module.TIME_SHARE) * ACT_TIMEOUT


#: The empty board, an opening, and the games set's first position with 22 empty cells (the
#: endgame stage's solver shares the time).
POSITIONS = ["", "4444", "56665155677333513734"]


@pytest.mark.parametrize("moves", POSITIONS)
@pytest.mark.parametrize("node_seconds", [0.004, 0.04])
def test_a_slow_machine_ends_the_move_within_its_budget(module, monkeypatch, moves, node_seconds):
    rules = module.rules_for(6, 7, 4)
    clock = SlowMachine(rules, node_seconds)
    took = move(module, monkeypatch, moves, clock)
    # It searched until its deadline: no sooner than one node before it.
    assert took > budget(module) - node_seconds
    # And at most one stretch between looks after it: as many nodes as fit in LOOK_SHARE of
    # the margin at the rate measured (at least one).
    assert took <= budget(module) + max(look_seconds(module), node_seconds) + 1e-3


@pytest.mark.parametrize("moves", POSITIONS)
def test_a_load_that_arrives_mid_move_costs_at_most_look_most_nodes(module, monkeypatch, moves):
    # 4 ms a node after 2,000 nodes at 40 µs: the rate measured says a look every 250 nodes,
    # which would take a second now.
    rules = module.rules_for(6, 7, 4)
    clock = SlowMachine(rules, 0.004, fast=2000)
    took = move(module, monkeypatch, moves, clock)
    assert clock.seen - clock.first > 2000, "the load came after the move"
    assert budget(module) - 0.004 < took <= budget(module) + module.LOOK_MOST * 0.004 + 1e-3
    assert took < 0.75 * ACT_TIMEOUT


def test_the_first_move_counts_from_loading(module, monkeypatch):
    # The file took 0.6 s to load before the agent was called: the move has what is left.
    rules = module.rules_for(6, 7, 4)
    clock = SlowMachine(rules, 0.004)
    loaded = clock.perf_counter()
    clock.now += 0.6
    took = move(module, monkeypatch, "", clock, loaded=loaded)
    assert budget(module) - 0.004 < took <= budget(module) + look_seconds(module) + 1e-3
    # Later moves count from their call.
    assert module.LOADED is None
