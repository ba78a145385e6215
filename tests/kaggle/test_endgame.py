"""The exported agent's solver, which its endgame stage (`export kaggle --endgame N`) asks
which columns keep a position's value: against Pascal Pons' published scores (win, draw or loss
for the side to move) and against the scores of every column in the games set. The positions
are those of at most 20 empty cells, which it solves in a few seconds all together; whether the
agent then picks stacktune's column is tests/export.rs's job."""

import pathlib
import sys
from collections import Counter

import pytest

sys.path.insert(0, str(pathlib.Path(__file__).parent))
from endgame_time import GAMES, discs
from same_column import load

DATA = pathlib.Path(__file__).resolve().parents[1] / "data" / "connect"
MOST_EMPTY = 20


@pytest.fixture(scope="module")
def module(submission):
    return load(submission)


def outcome(solver, own, opp, moves):
    """1, 0 or −1: the side to move wins, draws or loses under perfect play."""
    occupied = own | opp
    if solver.above(own, occupied, moves, 0):
        return 1
    return 0 if solver.above(own, occupied, moves, -1) else -1


def sign(score):
    return (score > 0) - (score < 0)


@pytest.mark.parametrize("name,least", [("test_l3_r1.txt", 1000), ("test_l2_r2.txt", 100)])
def test_outcomes_are_the_signs_of_pons_scores(module, name, least):
    rules = module.rules_for(6, 7, 4)
    rules.deadline = None
    seen = Counter()
    for line in (DATA / name).read_text(encoding="utf-8").splitlines():
        moves, score = line.split()
        if 42 - len(moves) > MOST_EMPTY:
            continue
        own, opp = discs(rules, moves)
        assert outcome(rules.solver, own, opp, len(moves)) == sign(int(score)), line
        # A lost position keeps every column, a won or drawn one those that keep its value.
        kept = module.value_keeping(rules, own, opp, MOST_EMPTY)
        assert (kept is None) == (int(score) < 0), line
        seen[sign(int(score))] += 1
    assert sum(seen.values()) >= least, seen
    # Both sets hold wins, draws and losses for the side to move.
    assert min(seen[s] for s in (1, 0, -1)) >= 5, seen


def games_set():
    """Each line of the games set: the moves, then every column's score for the side to move
    (Pons' convention; -1000 a full column)."""
    for line in GAMES.read_text(encoding="utf-8").splitlines():
        moves, *scores = line.split()
        yield moves, [int(s) for s in scores]


def test_the_columns_kept_are_those_of_the_games_sets_scores(module):
    rules = module.rules_for(6, 7, 4)
    rules.deadline = None
    restricted = Counter()
    for moves, scores in games_set():
        if 42 - len(moves) > MOST_EMPTY:
            continue
        best = max(scores)
        want = None if best < 0 else {c for c, s in enumerate(scores) if sign(s) == sign(best)}
        own, opp = discs(rules, moves)
        assert module.value_keeping(rules, own, opp, MOST_EMPTY) == want, moves
        if want is not None and len(want) < sum(s > -1000 for s in scores):
            restricted[sign(best)] += 1
    # Won and drawn positions where only some columns keep the value: those where the endgame
    # stage changes what the search may choose. The set holds no lost position this late: the
    # test above has them.
    assert restricted[1] >= 500 and restricted[0] >= 50, restricted


def test_the_stage_applies_on_the_standard_board_within_endgame_only(module):
    # The first won position of the games set with 20 empty cells where some column does not
    # win.
    moves, scores = next(
        (m, s)
        for m, s in games_set()
        if 42 - len(m) == MOST_EMPTY and max(s) > 0 and any(-1000 < x <= 0 for x in s)
    )
    rules = module.rules_for(6, 7, 4)
    rules.deadline = None
    own, opp = discs(rules, moves)
    winning = {c for c, s in enumerate(scores) if s > 0}
    assert module.value_keeping(rules, own, opp, MOST_EMPTY) == winning
    assert module.value_keeping(rules, own, opp, 42) == winning
    assert module.value_keeping(rules, own, opp, MOST_EMPTY - 1) is None
    assert module.value_keeping(rules, own, opp, 0) is None
    # Lines of three on the same board: the solver's positions are of four only.
    assert module.value_keeping(module.rules_for(6, 7, 3), own, opp, 42) is None
