"""Weights held in memory: `stacktune.evaluate(...)` gives what `stacktune play --json` prints
for a file of the same weights (the same games, the same numbers) on every game `play` takes,
writes no file, and refuses bad weights in one line; `Player.from_weights` is the file's player."""

from __future__ import annotations

import os
import pickle
import sys

import numpy as np
import pytest

import stacktune
from conftest import REPO

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    tomllib = pytest.importorskip("tomli")

CASES = [
    # (weights file, the flags of both calls)
    ("weights/tetris/dellacherie.toml", dict(width=8, height=12, games=6, seed=3, max_pieces=400)),
    ("reports/tetris-contest-l2/best.toml", dict(games=3, seed=7)),
    ("weights/contest/beam-l2.toml", dict(games=1, seed=11, max_pieces=300)),
    ("weights/puyo/hand.toml", dict(games=4, seed=2, max_pieces=60)),
    ("weights/connect/evolved.toml", dict(games=4, seed=1, opponent=["random", "negamax4"])),
    ("weights/connect/parity.toml", dict(depth=2, endgame=22, games=8, seed=5, opponent=["negamax4"])),
]


def in_memory(path: str) -> tuple[dict, dict]:
    """A weights file's weights, and the keywords that say what the rest of the file says."""
    with open(REPO / path, "rb") as f:
        file = tomllib.load(f)
    flags = {"game": file["game"]}
    for key in ("rules", "width", "height", "pairs_shown"):
        if key in file:
            flags[key] = file[key]
    flags.update(file.get("search", {}))
    return file["weights"], flags


def without_speed(report: dict) -> dict:
    return {k: v for k, v in report.items() if k not in ("pieces_per_second", "scores")}


@pytest.mark.parametrize("path,flags", CASES, ids=[c[0] for c in CASES])
def test_evaluate_equals_play_of_the_file(monkeypatch, tmp_path, cli_json, path, flags):
    weights, game = in_memory(path)
    argv = ["play", "--json", "--quiet", "--weights", path]
    for key, value in flags.items():
        for v in value if isinstance(value, list) else [value]:
            argv += [f"--{key.replace('_', '-')}", str(v)]
    theirs = cli_json(*argv)
    # From an empty folder: nothing is read from a file and nothing is written.
    monkeypatch.chdir(tmp_path)
    ours = stacktune.evaluate(weights, **game, **flags)
    assert os.listdir(tmp_path) == []
    assert without_speed(ours) == without_speed(theirs)
    assert isinstance(ours["scores"], np.ndarray) and ours["scores"].dtype == np.float64
    assert ours["scores"].tolist() == [g["score"] for g in theirs["per_game"]]
    assert ours["total_pieces"] > 0


def test_a_vector_with_names_is_the_dict():
    weights, game = in_memory("weights/tetris/dellacherie.toml")
    names = list(weights)
    vector = np.array([weights[n] for n in names])
    flags = dict(game, width=6, height=10, games=5, seed=9)
    by_name = stacktune.evaluate(weights, **flags)
    assert without_speed(stacktune.evaluate(vector, names=names, **flags)) == without_speed(by_name)
    # Without names=, a vector is over the game's features in their order.
    full = [weights.get(n, 0.0) for n in stacktune.Tetris().feature_names]
    assert without_speed(stacktune.evaluate(np.array(full), **flags)) == without_speed(by_name)


def test_from_weights_is_the_file_player(monkeypatch):
    """The shipped contest beam player: the same moves, whether its weights come from the file
    or from memory; and it pickles as it was made."""
    monkeypatch.chdir(REPO)
    path = "weights/contest/beam-l2.toml"
    weights, game = in_memory(path)
    names = list(weights)
    ours = stacktune.Player.from_weights(np.array(list(weights.values())), names=names, **game)
    theirs = stacktune.Player(path)
    assert (ours.weights, ours.search) == (theirs.weights, theirs.search)
    again = pickle.loads(pickle.dumps(ours))
    assert (again.weights, again.search, repr(again)) == (ours.weights, ours.search, repr(ours))
    a, b = ours.new_game(11), theirs.new_game(11)
    for _ in range(40):
        move = theirs.choose(b)
        assert ours.choose(a) == move
        a.play(move)
        b.play(move)


TETRIS = dict(game="tetris", games=1)
NAMES = (
    "landing_height, eroded_piece_cells, lines_cleared, row_transitions, column_transitions, "
    "holes, cumulative_wells, hole_depth, rows_with_holes, pattern_diversity, aggregate_height, "
    "bumpiness, max_height"
)
BAD = [
    ({"weights": {"nope": 1.0}, **TETRIS}, ValueError, f"unknown feature `nope` for game tetris; valid names: {NAMES}"),
    ({"weights": {"holes": float("nan")}, **TETRIS}, ValueError, "weight `holes` is NaN: weights must be finite numbers"),
    ({"weights": {"holes": float("inf")}, **TETRIS}, ValueError, "weight `holes` is inf: weights must be finite numbers"),
    ({"weights": {}, **TETRIS}, ValueError, "the [weights] table names no feature"),
    ({"weights": np.ones(3), **TETRIS}, ValueError, f"the weights vector has 3 values for 13 feature names: {NAMES}"),
    ({"weights": [1.0, 2.0], "names": ["holes"], **TETRIS}, ValueError, "the weights vector has 2 values for 1 feature names: holes"),
    ({"weights": [1.0, 2.0], "names": ["holes", "holes"], **TETRIS}, ValueError, "names= names feature `holes` twice"),
    ({"weights": {"holes": -1.0}, "games": 1}, ValueError, "weights in memory need the game they play: game= one of tetris, puyo, connect"),
    ({"weights": "weights/tetris/dellacherie.toml", **TETRIS}, TypeError, "evaluate() takes weights in memory (a dict, or a vector with names=); Player(path) and play(weights=path) read a file"),
    ({"weights": {"holes": "x"}, **TETRIS}, TypeError, "evaluate(): weight `holes` is a str, not a number"),
    ({"weights": {1: 2.0}, **TETRIS}, TypeError, "evaluate(): a weights dict maps feature names (str) to numbers, not int keys"),
    ({"weights": {"holes": -1.0}, "names": ["holes"], **TETRIS}, TypeError, "evaluate(): names= goes with a vector of weights, not a dict (a dict names its weights)"),
    ({"weights": np.ones((2, 13)), **TETRIS}, TypeError, "evaluate() takes a dict of feature name to weight, or a 1-D vector of numbers with names=, not ndarray"),
    ({"weights": {"holes": -1.0}, "json": True, **TETRIS}, TypeError, "evaluate() got an unexpected keyword argument 'json' (the weights are its first argument)"),
    ({"weights": {"holes": -1.0}, "colour": 3, **TETRIS}, TypeError, "evaluate() got an unexpected keyword argument 'colour'"),
]


@pytest.mark.parametrize("kwargs,kind,message", BAD, ids=[m for _, _, m in BAD])
def test_bad_weights_are_one_clear_line(tmp_path, monkeypatch, kwargs, kind, message):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(kind) as raised:
        stacktune.evaluate(**kwargs)
    assert str(raised.value) == message
    assert os.listdir(tmp_path) == []


def test_from_weights_refuses_as_evaluate_does():
    with pytest.raises(ValueError) as raised:
        stacktune.Player.from_weights({"holes": 1.0}, game="puyo")
    assert str(raised.value).startswith("unknown feature `holes` for game puyo; valid names: ")
    with pytest.raises(ValueError) as raised:
        stacktune.Player({"holes": float("nan")}, game="tetris")
    assert str(raised.value) == "weight `holes` is NaN: weights must be finite numbers"
