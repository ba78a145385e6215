"""What a Python user meets beyond the games' rules: Ctrl-C stops long calls, progress reaches
sys.stderr, boards go in as they come out, keyword mistakes are named in Python's words,
everything a worker process needs pickles, and `python -m stacktune` is the command line."""

from __future__ import annotations

import io
import multiprocessing
import pickle
import signal
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import stacktune
from conftest import REPO

# A guard against a hang only: every call below is interrupted long before it would end.
HANG = 300


def interrupted_in_child(call: str) -> subprocess.CompletedProcess:
    """Runs `call` in a child interpreter whose main thread gets KeyboardInterrupt one second
    in, as Ctrl-C gives it; the child prints what the call ended with."""
    script = textwrap.dedent(
        f"""
        import _thread, threading, stacktune
        threading.Timer(1.0, _thread.interrupt_main).start()
        try:
            {call}
            print("finished")
        except KeyboardInterrupt:
            print("interrupted")
        """
    )
    return subprocess.run(
        [sys.executable, "-c", script], cwd=REPO, capture_output=True, text=True, timeout=HANG
    )


@pytest.mark.parametrize(
    "call",
    [
        # A million short games: minutes of work, stopped between two games.
        "stacktune.play(weights='weights/tetris/dellacherie.toml', width=6, height=10, games=1000000, quiet=True)",
        # The Connect Four solver as the endgame of the search, from the empty board: minutes.
        "stacktune.Player('weights/connect/evolved.toml', endgame=42).choose(stacktune.ConnectN())",
    ],
    ids=["play", "choose"],
)
def test_ctrl_c_stops_a_long_call(call):
    done = interrupted_in_child(call)
    assert (done.returncode, done.stdout) == (0, "interrupted\n"), done.stderr


def test_ctrl_c_ends_the_command_line_as_it_ends_the_binary():
    """`python -m stacktune solve-connect` (the exact solver) on an early position runs for
    minutes; SIGINT, sent once it reports progress, ends it as it ends the binary."""
    child = subprocess.Popen(
        [sys.executable, "-m", "stacktune", "solve-connect", "4", "--progress-every", "0.2"],
        cwd=REPO,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    first = child.stderr.readline()
    assert first.startswith("4: ") and " nodes/s " in first, first
    child.send_signal(signal.SIGINT)
    child.communicate(timeout=HANG)
    assert child.returncode == -signal.SIGINT


def test_play_progress_goes_through_sys_stderr(monkeypatch):
    monkeypatch.chdir(REPO)
    captured = io.StringIO()
    monkeypatch.setattr(sys, "stderr", captured)
    stacktune.play(weights="weights/tetris/dellacherie.toml", width=6, height=10, games=20)
    lines = captured.getvalue().splitlines()
    assert [line.split(" (")[0] for line in lines] == [f"games: {n}/20" for n in range(2, 21, 2)]


def test_research_tetris_reports_every_game(monkeypatch, cli_json):
    monkeypatch.chdir(REPO)
    flags = dict(weights="weights/tetris/dellacherie.toml", width=6, height=10, games=4, seed=8)
    report = stacktune.play(quiet=True, **flags)
    assert [g["game"] for g in report["per_game"]] == ["0", "1", "2", "3"]
    assert sum(g["score"] for g in report["per_game"]) / 4 == report["mean"]
    cli = cli_json("play", "--json", "--quiet", "--weights", flags["weights"], "--width", "6",
                   "--height", "10", "--games", "4", "--seed", "8")
    assert report["per_game"] == cli["per_game"]


def played(game, moves: int):
    """`game` after its first legal move `moves` times (fewer if it ends)."""
    for _ in range(moves):
        if game.done:
            break
        game.play(game.legal_moves()[0])
    return game


def test_every_board_goes_back_in_as_it_came_out():
    tetris = played(stacktune.Tetris(6, 10, seed=4), 6)
    again = stacktune.Tetris.from_board(tetris.board, "T")
    assert np.array_equal(again.board, tetris.board) and again.board.any()
    contest = played(stacktune.ContestTetris(seed=2), 5)
    again = stacktune.ContestTetris.from_board(contest.board, "T", "IOTSZ")
    assert np.array_equal(again.board, contest.board) and again.board.any()
    for rules in ["programming", "tsu"]:
        puyo = played(stacktune.Puyo(rules, seed=3), 8)
        again = stacktune.Puyo.from_board(puyo.board, "41")
        assert np.array_equal(again.board, puyo.board) and again.board.any()
        assert again.rules == puyo.rules
    connect = played(stacktune.ConnectN(seed=1), 5)
    again = stacktune.ConnectN.from_board(connect.board)
    assert np.array_equal(again.board, connect.board)
    assert list(again.pieces) == list(connect.pieces) == [2]
    assert np.array_equal(stacktune.Tetris.from_board(tetris.board.tolist(), "T").board, tetris.board)


BAD = [
    ("stacktune.Tetris().play(-1)", ValueError, "action -1 is out of range: this game's actions are 0..40"),
    ("stacktune.Tetris().play(40)", ValueError, "action 40 is out of range: this game's actions are 0..40"),
    ("stacktune.Tetris().play(2**70)", ValueError, "action 1180591620717411303424 is out of range: this game's actions are 0..40"),
    ("stacktune.Tetris.from_board(np.full((4, 4), 7), 'T')", ValueError, "board row 0, column 0: cell 7 is out of range 0..2"),
    ("stacktune.Tetris.from_board(3, 'T')", TypeError, "a board is a list of row strings (top row first) or a 2-D array of cell numbers, not int"),
    ("stacktune.play(weights=W, games=-1)", ValueError, "games= -1 is out of range: it cannot be negative"),
    ("stacktune.play(weights=W, wdith=6)", TypeError, "play() got an unexpected keyword argument 'wdith'"),
    ("stacktune.play(weights=W, width='six')", TypeError, "play() keyword 'width' takes an int, not str"),
    ("stacktune.play(weights=W, width=None)", TypeError, "play() keyword 'width' takes an int, not NoneType"),
    ("stacktune.play(weights=W, quiet=1)", TypeError, "play() keyword 'quiet' takes True or False, not int"),
    ("stacktune.play(weights=W, width=[6, 8])", TypeError, "play() keyword 'width' takes an int, not list"),
    ("stacktune.play(weights=W, help=True)", TypeError, "play() got an unexpected keyword argument 'help' (help(stacktune.play) lists every keyword)"),
    ("stacktune.play(games=3)", TypeError, "the following required arguments were not provided: weights="),
    ("stacktune.Player(W, wdith=6)", TypeError, "Player() got an unexpected keyword argument 'wdith'"),
    ("stacktune.evolve(generations='many')", TypeError, "evolve() keyword 'generations' takes an int, not str"),
    ("stacktune.Player(W, width=4, height=4).choose(played(stacktune.Tetris(4, 4), 100))", ValueError, "the game is over: there is no move to choose"),
    ("stacktune.Player(W).choose(stacktune.Tetris(4, 4))", ValueError, "weights file weights/tetris/dellacherie.toml plays tetris (research 10x20, uniform pieces), not this tetris game (research 4x4, uniform pieces)"),
]


@pytest.mark.parametrize("code,error,message", BAD, ids=[c[0] for c in BAD])
def test_a_mistake_is_named_in_python_words(monkeypatch, code, error, message):
    monkeypatch.chdir(REPO)
    scope = {"stacktune": stacktune, "np": np, "played": played, "W": "weights/tetris/dellacherie.toml"}
    with pytest.raises(error) as raised:
        eval(code, scope)
    assert str(raised.value) == message


def test_help_lists_every_keyword():
    for keyword in ["weights=WEIGHTS", "max_pieces=", "beam_width=", "opponent=", "quiet=True"]:
        assert f"\n{keyword}" in stacktune.play.__doc__, keyword
    for keyword in ["config=", "out=", "resume=", "generations="]:
        assert f"\n{keyword}" in stacktune.evolve.__doc__, keyword


def games_to_pickle():
    player = stacktune.Player(str(REPO / "reports/tetris-contest-l2/best.toml"))
    connect = stacktune.ConnectN(seed=5)
    opponent = stacktune.ConnectOpponent("random", connect)
    for _ in range(3):
        connect.play(opponent.choose(connect))
    return [
        played(stacktune.Tetris(8, 12, seed=6, bag7=True), 9),
        played(stacktune.Tetris.from_board(["....", "#..#", "##.#", "#.##"], "L", seed=2), 2),
        played(stacktune.ContestTetris(level=3, seed=4), 7),
        played(player.new_game(9), 4),
        played(stacktune.Puyo("tsu", colours=5, seed=8), 6),
        connect,
    ]


def same_game(one, other) -> bool:
    """Same position, score and moves, and the same pieces and choices to come."""
    one, other = one.copy(), other.copy()
    for _ in range(12):
        if (one.rules, one.score, one.moves_played, one.done) != (other.rules, other.score, other.moves_played, other.done):
            return False
        if not (np.array_equal(one.board, other.board) and np.array_equal(one.pieces, other.pieces)):
            return False
        if one.done:
            return True
        if isinstance(one, stacktune.ConnectN):
            # The opponent's tie-breaks come from the game's own stream.
            move = stacktune.ConnectOpponent("random", one).choose(one)
            assert move == stacktune.ConnectOpponent("random", other).choose(other)
        else:
            move = one.legal_moves()[-1]
        one.play(move)
        other.play(move)
    return True


def test_games_moves_and_players_pickle():
    for game in games_to_pickle():
        again = pickle.loads(pickle.dumps(game))
        assert type(again) is type(game)
        assert same_game(game, again), repr(game)
    move = stacktune.ContestTetris(seed=1).legal_moves()[3]
    assert pickle.loads(pickle.dumps(move)) == move
    assert repr(pickle.loads(pickle.dumps(move))) == repr(move)
    puyo_move = stacktune.Puyo().legal_moves()[5]
    assert pickle.loads(pickle.dumps(puyo_move)) == puyo_move
    player = stacktune.Player(str(REPO / "weights/tetris/dellacherie.toml"), width=6, height=10)
    again = pickle.loads(pickle.dumps(player))
    assert (again.weights, again.search, repr(again)) == (player.weights, player.search, repr(player))


def score_of(player, seed):
    game = player.new_game(seed)
    while not game.done:
        game.play(player.choose(game))
    return game.score


def test_a_process_pool_plays_what_this_process_plays():
    player = stacktune.Player(str(REPO / "weights/tetris/dellacherie.toml"), width=6, height=10)
    with multiprocessing.get_context("spawn").Pool(2) as pool:
        theirs = pool.starmap(score_of, [(player, seed) for seed in range(4)])
    assert theirs == [score_of(player, seed) for seed in range(4)]


def run_module(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "stacktune", *args], cwd=REPO, capture_output=True, text=True, timeout=HANG
    )


def test_python_m_stacktune_is_the_command_line(cli):
    args = ["play", "--weights", "weights/puyo/hand.toml", "--games", "3", "--seed", "4", "--max-pieces", "50", "--quiet"]
    done = run_module(*args)
    assert (done.returncode, done.stderr) == (0, "")
    ours = [line for line in done.stdout.splitlines() if "pieces/s" not in line]
    assert ours == [line for line in cli(*args).splitlines() if "pieces/s" not in line]
    version = run_module("--version")
    assert (version.returncode, version.stdout) == (0, f"stacktune {stacktune.__version__}\n")
    bad = run_module("play", "--wdith", "6")
    assert bad.returncode == 2
    assert bad.stderr.startswith("error: unexpected argument '--wdith' found")
    assert bad.stderr.count("\n") == 1
