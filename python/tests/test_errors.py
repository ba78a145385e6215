"""Every bad input raises the matching Python exception with the CLI's one-line message; none
aborts the interpreter (each case also runs in a child interpreter that must exit cleanly)."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

import stacktune
from conftest import REPO

CASES = [
    ("stacktune.Tetris(width=3)", ValueError, "tetris board width 3 is out of range 4..=16"),
    ("stacktune.Tetris(height=65)", ValueError, "tetris board height 65 is out of range 4..=64"),
    ("stacktune.ContestTetris(level=5)", ValueError, "--level 5 is out of range 1..=4"),
    ("stacktune.ContestTetris(level=3, turns=500)", ValueError, "--turns is for level 4; level 3 plays exactly 180 turns"),
    ("stacktune.ContestTetris(level=4, turns=0)", ValueError, "--turns 0 is out of range 1..=180000 (level 4 is 180 s of 1 ms ticks, a turn a tick at most)"),
    ("stacktune.ContestTetris.from_board(['..........'] * 22, 'T', 'IOTSZ', turn=500, level=4, turns=500)", ValueError, "turn 500 is out of range 0..500"),
    ("stacktune.Puyo(colours=7)", ValueError, "puyo colours 7 is out of range 3..=5"),
    ("stacktune.Puyo(rules='sun')", ValueError, "unknown puyo rules `sun`; valid rules: programming, tsu"),
    ("stacktune.Tetris.from_board(['....', '...'], 'T')", ValueError, "board file board line 2: 3 cells, but the first row has 4 (rows must be equally wide)"),
    ("stacktune.Tetris.from_board(['....'] * 4, 'Q')", ValueError, "unknown piece `Q`; valid pieces: I, O, T, S, Z, L, J"),
    ("stacktune.Puyo.from_board(['......'] * 12, '19')", ValueError, "unknown pair `19`; a pair is two colour digits 1 to 5, axis first (e.g. 41)"),
    ("stacktune.Tetris.from_board(['....'] * 4, 'O').play(3)", ValueError, "action 3 is not a legal move of this position; legal actions: 0, 1, 2"),
    ("stacktune.Tetris().play(99)", ValueError, "action 99 is out of range: this game's actions are 0..40"),
    ("stacktune.Tetris().play('I')", TypeError, "a move is a Move from legal_moves() or an action number, not str"),
    ("stacktune.Player('weights/none.toml')", FileNotFoundError, "cannot read weights file weights/none.toml: No such file or directory (os error 2)"),
    ("stacktune.Player('weights/tetris/dellacherie.toml').choose(stacktune.Puyo())", ValueError, "weights file weights/tetris/dellacherie.toml plays tetris (research 10x20, uniform pieces), not this puyo game"),
    ("stacktune.play(weights='weights/none.toml')", FileNotFoundError, "cannot read weights file weights/none.toml"),
    ("stacktune.play(weights='weights/tetris/dellacherie.toml', games=0)", ValueError, "--games must be within 1..=1000000 (got 0)"),
    ("stacktune.play(weights='weights/tetris/dellacherie.toml', colours=4)", ValueError, "--colours is a puyo setting; tetris does not use it"),
    ("stacktune.play(weights='weights/tetris/dellacherie.toml', speed=3)", TypeError, "play() got an unexpected keyword argument 'speed'"),
    ("stacktune.play(weights='weights/tetris/dellacherie.toml', json=True)", ValueError, "json= is the command line's"),
    ("stacktune.play(weights='weights/tetris/dellacherie.toml', replay_html='r.html')", ValueError, "--replay-html is for the command line: run `stacktune play --replay-html ...` for it"),
    ("stacktune.evolve({'generations': 'many'})", ValueError, "run config key `generations`: invalid type"),
    ("stacktune.evolve('nowhere.toml')", FileNotFoundError, "cannot read config file nowhere.toml"),
    ("stacktune.evolve(resume='nowhere')", ValueError, "nowhere holds no run to resume (no run.toml there)"),
    ("stacktune.ConnectOpponent('nobody', stacktune.ConnectN())", ValueError, "opponent `nobody` is neither random, tutorial, negamax4 nor a readable weights file"),
    ("stacktune.TetrisVector(stacktune.Tetris(), 0)", ValueError, "a vector needs at least one game (n >= 1)"),
    ("stacktune.TetrisVector(stacktune.Tetris(), 10**12)", ValueError, "a vector of 1000000000000 games is more than the 1000000 one can hold; use fewer games (n)"),
    ("stacktune.Tetris(seed=-1)", ValueError, "seed -1 is out of range: seeds are 0..2**64-1"),
    ("stacktune.Tetris(seed=2**70)", ValueError, "seed 1180591620717411303424 is out of range: seeds are 0..2**64-1"),
    ("stacktune.Puyo(seed=1.5)", TypeError, "argument 'seed': a seed is an int in 0..2**64-1, not float"),
    ("stacktune.evolve({'seed': 2**70})", ValueError, "run config key `seed` is 1180591620717411303424: out of range; a run config's ints are within -2**63..2**64-1 (seeds 0..2**64-1)"),
    ("stacktune.evaluate({'holes': True}, game='tetris')", TypeError, "evaluate(): weight `holes` is a bool (True), not a number: give 1.0 or 0.0"),
    ("stacktune.evaluate({'holes': 10**400}, game='tetris')", ValueError, "evaluate(): weight `holes` (an int of 401 digits) is too large for a float (at most about 1.8e308)"),
    ("stacktune.evaluate({'holes': 0, 'bumpiness': 0.0}, game='tetris')", ValueError, "every weight is 0: the player would have no preference among moves; give at least one weight that is not 0"),
    ("stacktune.evaluate([1.0], names=[b'holes'], game='tetris')", TypeError, "evaluate(): names= must be str, got bytes (b'holes')"),
    ("stacktune.Player.from_weights([True], names=['holes'], game='tetris')", TypeError, "Player.from_weights(): weight 0 is a bool (True), not a number: give 1.0 or 0.0"),
    ("stacktune.Tetris.from_board(np.zeros((20, 10)), 'T')", TypeError, "a board array holds cell numbers: a 2-D array of an integer dtype (uint8, as `board` gives it), not 2-D of dtype float64"),
]


@pytest.mark.parametrize("code,error,message", CASES, ids=[c[0] for c in CASES])
def test_bad_input_raises(monkeypatch, code, error, message):
    monkeypatch.chdir(REPO)
    with pytest.raises(error) as raised:
        eval(code, {"stacktune": stacktune, "np": np})
    assert str(raised.value).startswith(message)
    assert "\n" not in str(raised.value)


def test_no_error_aborts_the_interpreter():
    script = "import numpy as np, stacktune\n" + "".join(
        f"try:\n    {code}\nexcept {error.__name__}:\n    pass\n" for code, error, _ in CASES
    ) + "print('alive')\n"
    done = subprocess.run([sys.executable, "-c", script], cwd=REPO, capture_output=True, text=True)
    assert (done.returncode, done.stdout) == (0, "alive\n"), done.stderr


def test_numbers_from_numpy_are_taken_as_the_ints_they_are(monkeypatch):
    monkeypatch.chdir(REPO)
    assert str(stacktune.Tetris(seed=np.uint64(7))) == str(stacktune.Tetris(seed=7))
    flags = dict(game="tetris", width=6, height=8)
    by_numpy = stacktune.evaluate({"holes": -1.0}, games=np.int64(3), **flags)
    by_int = stacktune.evaluate({"holes": -1.0}, games=3, **flags)
    assert by_numpy["per_game"] == by_int["per_game"] and len(by_int["per_game"]) == 3


def test_a_vector_steps_on_a_list_of_ints_and_says_what_it_takes_otherwise():
    by_array, by_list = (stacktune.TetrisVector(stacktune.Tetris(), 2) for _ in range(2))
    by_array.reset(5)
    by_list.reset(5)
    stepped = by_array.step(np.array([3, 7]))[0]["board"].copy()
    assert (by_list.step([3, 7])[0]["board"] == stepped).all()
    with pytest.raises(TypeError) as raised:
        by_list.step(np.array([3.0, 7.0]))
    assert str(raised.value) == "actions are one int per game (a 1-D int64 array or a list of ints), not an array of dtype float64"
