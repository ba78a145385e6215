"""`stacktune.play(...)` gives what `stacktune play --json` prints for the same flags, and a
Player's moves played one by one score what the CLI's games score."""

from __future__ import annotations

import pytest

import stacktune
from conftest import REPO

CASES = [
    # (keyword arguments, the same as flags)
    (
        dict(weights="weights/tetris/dellacherie.toml", width=8, height=12, games=6, seed=3, max_pieces=400),
        ["--weights", "weights/tetris/dellacherie.toml", "--width", "8", "--height", "12", "--games", "6", "--seed", "3", "--max-pieces", "400"],
    ),
    (
        dict(weights="reports/tetris-contest-l2/best.toml", games=3, seed=7),
        ["--weights", "reports/tetris-contest-l2/best.toml", "--games", "3", "--seed", "7"],
    ),
    (
        dict(weights="weights/puyo/hand.toml", games=4, seed=2, max_pieces=60),
        ["--weights", "weights/puyo/hand.toml", "--games", "4", "--seed", "2", "--max-pieces", "60"],
    ),
    (
        dict(weights="weights/connect/evolved.toml", games=4, seed=1, opponent=["random", "negamax4"]),
        ["--weights", "weights/connect/evolved.toml", "--games", "4", "--seed", "1", "--opponent", "random", "--opponent", "negamax4"],
    ),
    (
        dict(weights="weights/connect/parity.toml", depth=2, endgame=22, games=8, seed=5, opponent=["negamax4"]),
        ["--weights", "weights/connect/parity.toml", "--depth", "2", "--endgame", "22", "--games", "8", "--seed", "5", "--opponent", "negamax4"],
    ),
]


def without_speed(report: dict) -> dict:
    """The report without its one measured time."""
    return {k: v for k, v in report.items() if k != "pieces_per_second"}


@pytest.mark.parametrize("kwargs,flags", CASES)
def test_play_equals_the_cli(monkeypatch, cli_json, kwargs, flags):
    monkeypatch.chdir(REPO)
    ours = stacktune.play(quiet=True, **kwargs)
    theirs = cli_json("play", "--json", "--quiet", *flags)
    assert without_speed(ours) == without_speed(theirs)
    assert ours["total_pieces"] > 0


def test_contest_player_moves_score_the_cli_games(monkeypatch, cli_json):
    """Game 0 of --seed S, played move by move with the shipped beam player's choices."""
    monkeypatch.chdir(REPO)
    player = stacktune.Player("weights/contest/beam-l2.toml")
    for seed in (11, 12):
        game = player.new_game(seed)
        while not game.done:
            game.play(player.choose(game))
        report = cli_json("play", "--json", "--quiet", "--weights", "weights/contest/beam-l2.toml", "--games", "1", "--seed", str(seed))
        assert game.score == report["per_game"][0]["score"]
        assert game.moves_played == report["total_pieces"]


def test_tetris_player_moves_score_the_cli_games(monkeypatch, cli_json):
    monkeypatch.chdir(REPO)
    player = stacktune.Player("weights/tetris/dellacherie.toml", width=6, height=10)
    game = player.new_game(5)
    assert isinstance(game, stacktune.Tetris)
    while not game.done:
        game.play(player.choose(game))
    report = cli_json("play", "--json", "--quiet", "--weights", "weights/tetris/dellacherie.toml", "--width", "6", "--height", "10", "--games", "1", "--seed", "5")
    assert game.score == report["mean"]
    assert game.moves_played == report["total_pieces"]


def test_play_all_plays_what_play_plays():
    one, other = stacktune.Tetris(8, 10, seed=9), stacktune.Tetris(8, 10, seed=9)
    actions, points = [], 0.0
    while not one.done:
        move = one.legal_moves()[len(actions) % len(one.legal_moves())]
        actions.append(move.action)
        points += one.play(move).points
    assert other.play_all(actions) == points
    assert (other.score, other.moves_played, other.done) == (one.score, one.moves_played, True)
    with pytest.raises(ValueError, match="^move 0: action 0 is not a legal move of its position$"):
        other.play_all([0])
