"""The exported agent's endgame stage (`export kaggle --endgame N`). Its solver, which says
which columns keep a position's value, against Pascal Pons' published scores (win, draw or loss
for the side to move) and against the scores of every column in the games set, on positions of
at most 20 empty cells (a few seconds all together); and `agent` itself, on a clock that moves
on by a fixed step at every look and for every node searched, so that its search is the same
on any machine: it keeps the
value within its endgame where the plain search does not, and it falls back to the plain
search when the solver runs out of time. That `choose_column` picks stacktune's column with an
endgame is tests/integration/export.rs's job."""

import pathlib
import random
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


class Clock:
    """A clock that moves on by `step` seconds at every look, for the agent's `time`: its
    deepening then stops at the same depth on any machine."""

    def __init__(self, step):
        self.now = 0.0
        self.step = step

    def perf_counter(self):
        self.now += self.step + self.searching()
        return self.now

    def searching(self):
        """The seconds the search took since the last look: none on this clock."""
        return 0.0


class SlowMachine(Clock):
    """A `Clock` that also moves on by `node_seconds` for every node the agent's `rules`
    search (from its first look on), as on a machine where a node takes that long: after
    `fast` nodes at a hundredth of it, a load that arrives in the middle of a move."""

    def __init__(self, rules, node_seconds, fast=0, step=1e-6):
        super().__init__(step)
        self.rules = rules
        self.node_seconds = node_seconds
        self.fast = fast
        self.first = self.seen = None

    def searching(self):
        nodes = self.rules.nodes
        if self.seen is None:
            self.first = self.seen = nodes
        fast_end = self.first + self.fast
        quick = max(0, min(nodes, fast_end) - self.seen)
        slow = nodes - max(self.seen, fast_end) if nodes > fast_end else 0
        self.seen = nodes
        return (quick / 100 + slow) * self.node_seconds


def kaggle_board(moves):
    """Kaggle's board after `moves` (1-based columns): row 0 at the top, 1 the first player."""
    board = [0] * 42
    heights = [0] * 7
    for i, ch in enumerate(moves):
        column = int(ch) - 1
        board[(5 - heights[column]) * 7 + column] = 1 + i % 2
        heights[column] += 1
    return board


def play(module, monkeypatch, moves, endgame, clock, seconds=2):
    """The agent's column after `moves`, its ENDGAME `endgame`, given an actTimeout of
    `seconds` on `clock` (a `Clock`)."""
    monkeypatch.setattr(module, "ENDGAME", endgame)
    monkeypatch.setattr(module, "time", clock)
    # Every move's clock from its call, the first one's too (no file was loaded on this clock).
    monkeypatch.setattr(module, "LOADED", None)
    # The same node count and table for every move: the same looks at the clock.
    rules = module.rules_for(6, 7, 4)
    rules.nodes = 0
    rules.solver.table.clear()
    observation = {"board": kaggle_board(moves), "mark": 1 + len(moves) % 2}
    configuration = {"rows": 6, "columns": 7, "inarow": 4, "actTimeout": seconds}
    return module.agent(observation, configuration)


def kept_columns(scores):
    best = max(scores)
    return {c for c, s in enumerate(scores) if sign(s) == sign(best)}


def test_the_agent_keeps_the_value_within_its_endgame(module, monkeypatch):
    # Won or drawn positions with at most 16 empty cells where only some columns keep the
    # value, and 768 nodes a move: the solver needs a few hundred.
    late = [
        (m, s)
        for m, s in games_set()
        if 42 - len(m) <= 16 and len(kept_columns(s)) < sum(x > -1000 for x in s)
    ]
    assert len(late) >= 300, len(late)
    plain_lost = 0
    for moves, scores in late:
        rules = module.rules_for(6, 7, 4)
        column = play(module, monkeypatch, moves, 16, SlowMachine(rules, 1 / 768))
        assert column in kept_columns(scores), moves
        plain = play(module, monkeypatch, moves, 0, SlowMachine(rules, 1 / 768))
        plain_lost += plain not in kept_columns(scores)
    # Without the stage, the same search loses the value of some of them.
    assert plain_lost >= 5, plain_lost


def test_out_of_time_the_agent_chooses_among_all_columns(module, monkeypatch):
    # A position with 21 to 24 empty cells whose one-ply choice loses the value, and where the
    # solver has to search.
    rules = module.rules_for(6, 7, 4)
    rules.deadline = None
    for moves, scores in games_set():
        if not 21 <= 42 - len(moves) <= 24:
            continue
        own, opp = discs(rules, moves)
        one_ply = rules.choose(own, opp, 1)[0]
        if one_ply in kept_columns(scores):
            continue
        rules.solver.table.clear()
        nodes = rules.nodes
        module.value_keeping(rules, own, opp, 42)
        if rules.nodes > nodes:
            break
    # A clock that jumps past the deadline at the first look, after the first node: the
    # solver gives up, and the agent chooses among all columns, as without the stage, in the
    # time left (none: the one-ply choice).
    rules.solver.table.clear()
    assert play(module, monkeypatch, moves, 24, Clock(10.0)) == one_ply
    # Given the time, it keeps the value.
    fast = SlowMachine(rules, 1e-7)
    assert play(module, monkeypatch, moves, 24, fast) in kept_columns(scores)


def test_lines_of_four_unrolled_find_the_cells_of_any_line(module):
    # Random boards of several sizes: columns filled from the bottom to random heights, each
    # disc of one player or the other (up a column, only the cell above its discs is empty).
    rng = random.Random(7)
    for rows, columns in ((6, 7), (5, 6), (7, 8), (10, 12)):
        rules = module.rules_for(rows, columns, 4)
        assert rules.winning_cells == rules.completing_four
        for _ in range(500):
            occupied = 0
            for c in range(columns):
                for r in range(rng.randint(0, rows)):
                    occupied |= rules.cell(c, r)
            discs = occupied & rng.getrandbits(rules.board.bit_length())
            four = rules.completing_four(discs, occupied)
            assert four == rules.completing_cells(discs, occupied)
