"""Every placement's features equal `stacktune moves --json` on the boards of tests/data."""

from __future__ import annotations

import json

import numpy as np
import pytest

import stacktune
from conftest import REPO

DATA = REPO / "tests" / "data"


def rows(path):
    return [line.strip() for line in path.read_text().splitlines() if line.strip()]


@pytest.mark.parametrize("piece", list("IOTSZLJ"))
def test_tetris_board_features_equal_the_cli(cli_json, piece):
    board = DATA / "boards" / "tetris.txt"
    listing = [m for m in cli_json("moves", "--board", str(board), "--piece", piece, "--json") if not m["topout"]]
    game = stacktune.Tetris.from_board(rows(board), piece)
    moves = game.legal_moves()
    assert [(m.rotation, m.column) for m in moves] == [
        (m["placement"]["orientation"], m["placement"]["column"]) for m in listing
    ]
    expected = np.array([[m["features"][n] for n in game.feature_names] for m in listing])
    assert np.array_equal(game.features(), expected)


def test_tetris_feature_vectors_of_the_shared_file():
    """The 150 boards of tests/data/tetris-features.jsonl (MdpTetris's values): every legal
    placement's features, compared as a multiset as tests/integration/tetris_features.rs does."""
    cases = 0
    for line in (DATA / "tetris-features.jsonl").read_text().splitlines():
        case = json.loads(line)
        game = stacktune.Tetris.from_board(case["board"], case["piece"])
        ours = sorted(tuple(float(v) for v in row) for row in game.features())
        theirs = sorted(
            tuple(float(p[n]) for n in game.feature_names) for p in case["placements"]
        )
        assert ours == theirs, case["board"]
        cases += 1
    assert cases == 150


@pytest.mark.parametrize("pair", ["12", "41", "33"])
def test_puyo_board_features_equal_the_cli(cli_json, pair):
    board = DATA / "boards" / "puyo.txt"
    listing = [m for m in cli_json("moves", "--game", "puyo", "--board", str(board), "--piece", pair, "--json") if m["legal"]]
    game = stacktune.Puyo.from_board(rows(board), pair)
    assert [(m.column, m.rotation) for m in game.legal_moves()] == [
        (m["placement"]["column"], m["placement"]["rotation"]) for m in listing
    ]
    expected = np.array([[m["features"][n] for n in game.feature_names] for m in listing])
    assert np.array_equal(game.features(), expected)


def test_connect_board_features_equal_the_cli(cli_json):
    board = DATA / "boards" / "connect.txt"
    listing = {m["column"] - 1: m for m in cli_json("moves", "--game", "connect", "--board", str(board), "--json")}
    game = stacktune.ConnectN.from_board(rows(board))
    moves = game.legal_moves()
    assert sorted(m.column for m in moves) == sorted(c for c, m in listing.items() if m["legal"])
    for move, row in zip(moves, game.features()):
        expected = listing[move.column]["features"]
        assert expected is not None, "a move that ends the game has no features"
        assert list(row) == [expected[n] for n in game.feature_names]


def test_board_arrays_read_as_the_board_files():
    tetris = stacktune.Tetris.from_board(rows(DATA / "boards" / "tetris.txt"), "T")
    text = ["".join("#" if c else "." for c in row) for row in tetris.board]
    assert text == [r.replace("X", "#") for r in rows(DATA / "boards" / "tetris.txt")]
    puyo = stacktune.Puyo.from_board(rows(DATA / "boards" / "puyo.txt"), "12")
    assert ["".join(str(c) if c else "." for c in row) for row in puyo.board] == rows(DATA / "boards" / "puyo.txt")
    connect = stacktune.ConnectN.from_board(rows(DATA / "boards" / "connect.txt"))
    assert ["".join(".XO"[c] for c in row) for row in connect.board] == rows(DATA / "boards" / "connect.txt")
