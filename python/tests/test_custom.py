"""Games of one's own, written in Python (stacktune.custom): the greedy player, the same scores
at any number of worker processes, replays, the Gymnasium adapter and the errors."""

from __future__ import annotations

import json
import re

import numpy as np
import pytest

from custom_games import Counting, NanFeatures, NoDone, Refuses, Small2048, WrongShape
from stacktune.custom import GameError, GymGame, play_game, play_games, replay

WEIGHTS = np.array(
    [[1.0, 0.1, 0.0, 0.0, 0.0, 0.0], [0.2, 1.0, 0.5, 0.1, 0.1, 0.0], [1.0, 0.0, 1.0, 1.0, 0.3, 0.2]]
)


def test_scores_are_the_same_at_one_and_four_workers():
    seeds = range(5, 11)
    one, moves_one = play_games(Small2048, WEIGHTS, seeds, max_moves=40, workers=1, chunk=2)
    four, moves_four = play_games(Small2048, WEIGHTS, seeds, max_moves=40, workers=4, chunk=2)
    assert one.shape == (3, 6)
    assert one.tobytes() == four.tobytes() and moves_one == moves_four
    # Each game is a function of its weights and seed alone: played on its own, it agrees.
    game = Small2048()
    assert play_game(game, WEIGHTS[1], 7, 40)[0] == one[1, 2]


def test_greedy_player_takes_the_best_placement_ties_to_the_first():
    # value 1, odd 0: plays 3 every turn; odd only: 1 and 3 tie, 1 is played.
    by_value = play_game(Counting(), [1.0, 0.0], 1, 100)
    by_odd = play_game(Counting(), [0.0, 1.0], 1, 100)
    assert by_value[1] == by_odd[1] == 5
    assert by_value[0] == 3 * by_odd[0] > 0


def test_max_moves_caps_a_game():
    assert play_game(Counting(), [1.0, 0.0], 1, 2)[1] == 2


def test_replay_has_frames_where_the_game_renders():
    frames = replay(Small2048, WEIGHTS[0], 3, 10)
    assert 2 <= len(frames) <= 11 and all(len(f.splitlines()) == 3 for f in frames)
    assert replay(Counting, [1.0, 0.0], 3, 10) == []


def message(excinfo) -> str:
    text = str(excinfo.value)
    assert "\n" not in text
    return text


BROKEN = [
    (NoDone, "game no-done: missing protocol method done (see stacktune.custom)"),
    (WrongShape, "game wrong-shape: features() has shape (4, 3); expected (4, 2): one row per placement, one column per feature"),
    (NanFeatures, "game nan-features: feature odd of placement 2 is nan (features must be finite)"),
    (Refuses, "game refuses: play(3) failed: ValueError: placement 3 is not legal here"),
]


@pytest.mark.parametrize("game, words", BROKEN, ids=[g.name for g, _ in BROKEN])
@pytest.mark.parametrize("workers", [1, 2])
def test_a_broken_game_is_one_line_naming_it(game, words, workers):
    with pytest.raises(GameError) as e:
        play_games(game, [[1.0, 0.0]], [1, 2], workers=workers, chunk=1)
    assert message(e) == words


def test_weights_of_the_wrong_length():
    with pytest.raises(GameError, match=re.escape("game counting: weights of shape (3,); it has 2 features: value, odd")):
        play_games(Counting, [[1.0, 0.0, 2.0]], [1])


def make_tetris():
    import gymnasium as gym

    import stacktune.envs  # noqa: F401

    return gym.make("stacktune/Tetris-v0", features=True, max_pieces=30)


def test_a_gymnasium_environment_through_the_adapter():
    env = make_tetris()
    names = list(env.unwrapped.feature_names)
    w = np.zeros(len(names))
    w[names.index(names[0])] = -1.0
    make = lambda: GymGame(make_tetris)  # noqa: E731
    scores, moves = play_games(make, [w, -w], [1, 2])
    assert scores.shape == (2, 2) and 0 < moves <= 4 * 30
    game = make()
    game.reset(1)
    with pytest.raises(GameError, match=r"^game stacktune/Tetris-v0: placement 100000 is not legal$"):
        game.play(100000)


# A small run of 3 × 3 2048: seconds, not minutes.
RUN = {
    "name": "tiny", "seed": 3, "generations": 3, "games": 3, "max_pieces": 40,
    "validation_games": 6, "validate_every": 2, "final_games": 12, "validation_max_pieces": 40,
    "optimizer": {"kind": "cem"}, "cem": {"population": 10, "elite_fraction": 0.3},
}
SAME = ["run.toml", "history.csv", "checkpoint.json", "best.toml", "fitness.svg", "weights.svg"]


def test_a_python_game_run_is_the_same_at_one_and_four_workers(tmp_path, monkeypatch):
    from stacktune.custom import evolve

    monkeypatch.chdir(tmp_path)
    one = evolve(Small2048, RUN, out="one", quiet=True)
    four = evolve(Small2048, RUN, workers=4, chunk=2, out="four", quiet=True)
    assert one["held_out"] == four["held_out"]
    for name in SAME + ["report.html"]:
        assert (tmp_path / "one" / name).exists(), name
    for name in SAME:
        assert (tmp_path / "one" / name).read_bytes() == (tmp_path / "four" / name).read_bytes(), name
    run_toml = (tmp_path / "one" / "run.toml").read_text()
    assert '[hosted]\nname = "2048"\nclass = "custom_games:Small2048"' in run_toml
    assert len((tmp_path / "one" / "history.csv").read_text().splitlines()) == 1 + 3
    # The page replays held-out game 1 (seed validation_seed) as the game renders it.
    page = (tmp_path / "one" / "report.html").read_text()
    data = json.loads(re.search(r'<script type="application/json" id="data">(.*?)</script>', page, re.S).group(1))
    assert data["replays"] == []
    assert data["frames"][0] == replay(Small2048, data["history"][-1]["best_weights"], 1_000_001, 40)[0]
    assert len(data["frames"]) == len(replay(Small2048, data["history"][-1]["best_weights"], 1_000_001, 40))
    # The held-out games are seeds validation_seed + i, as play_games plays them.
    best = (tmp_path / "one" / "best.toml").read_text()
    names = list(Small2048.feature_names)
    weights = [float(re.search(rf"^{n} = (.*)$", best, re.M).group(1)) for n in names]
    scores, _ = play_games(Small2048, weights, range(1_000_001, 1_000_013), max_moves=40)
    assert scores.mean() == pytest.approx(one["held_out"]["mean"])


def test_a_stopped_python_game_run_resumes_to_the_same_folder(tmp_path, monkeypatch):
    import custom_games
    from stacktune.custom import evolve

    monkeypatch.chdir(tmp_path)
    evolve(custom_games.Stopping, RUN, out="whole", quiet=True)
    # Stopped in generation 1's games (each generation resets 10 × 3 games, validation 6).
    custom_games.Stopping.resets, custom_games.Stopping.STOP_AT = 0, 30 + 5
    with pytest.raises(KeyboardInterrupt):
        evolve(custom_games.Stopping, RUN, out="stopped", quiet=True)
    custom_games.Stopping.STOP_AT = -1
    assert len((tmp_path / "stopped" / "history.csv").read_text().splitlines()) == 1 + 1
    with pytest.raises(ValueError, match=r"stopped is a run of custom_games:Stopping; it resumes with that game$"):
        evolve(Small2048, resume="stopped", quiet=True)
    evolve(custom_games.Stopping, resume="stopped", quiet=True)
    for name in SAME:
        assert (tmp_path / "stopped" / name).read_bytes() == (tmp_path / "whole" / name).read_bytes(), name


def test_a_broken_game_ends_its_run_with_its_own_line(tmp_path, monkeypatch):
    from stacktune.custom import evolve

    monkeypatch.chdir(tmp_path)
    with pytest.raises(GameError) as e:
        evolve(NanFeatures, {**RUN, "generations": 1}, workers=2, out="nan", quiet=True)
    assert message(e) == BROKEN[2][1]


def test_the_command_line_refuses_a_python_game_run(tmp_path, monkeypatch):
    import stacktune
    from stacktune.custom import evolve

    monkeypatch.chdir(tmp_path)
    evolve(Small2048, {**RUN, "generations": 1}, out="run", quiet=True)
    with pytest.raises(ValueError) as e:
        stacktune.evolve("run/run.toml", out="cli", quiet=True)
    assert message(e) == (
        "this run plays 2048, a game of Python's (custom_games:Small2048): run it with stacktune.custom.evolve"
    )


def test_the_example_tuned_beats_its_start_on_held_out_games(tmp_path, monkeypatch):
    from conftest import REPO
    from stacktune.custom import evolve
    from game2048 import START

    monkeypatch.chdir(tmp_path)
    start_file = str(REPO / "examples" / "game2048-start.toml")
    config = {**RUN, "generations": 4, "games": 4, "final_games": 40, "init": start_file}
    tuned = evolve(Small2048, config, workers=2, out="tuned", quiet=True)["held_out"]["mean"]
    start, _ = play_games(Small2048, START, range(1_000_001, 1_000_041), max_moves=40)
    assert tuned > start.mean() * 1.05, (tuned, start.mean())


def test_a_game_that_does_not_render_has_no_replay(tmp_path, monkeypatch):
    from stacktune.custom import evolve

    monkeypatch.chdir(tmp_path)
    evolve(Counting, {**RUN, "generations": 1}, out="run", quiet=True)
    page = (tmp_path / "run" / "report.html").read_text()
    assert '"frames"' not in page and '"replays":[]' in page
