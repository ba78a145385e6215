"""Games of one's own, written in Python (stacktune.custom): the greedy player, the same scores
at any number of worker processes, replays, the Gymnasium adapter and the errors."""

from __future__ import annotations

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


def test_a_missing_protocol_method_is_named():
    with pytest.raises(GameError) as e:
        play_games(NoDone, [[1.0, 0.0]], [1])
    assert message(e) == "game no-done: missing protocol method done (see stacktune.custom)"


def test_features_of_the_wrong_shape():
    with pytest.raises(GameError) as e:
        play_games(WrongShape, [[1.0, 0.0]], [1])
    assert message(e) == (
        "game wrong-shape: features() has shape (4, 3); expected (4, 2): "
        "one row per placement, one column per feature"
    )


def test_nan_features():
    with pytest.raises(GameError) as e:
        play_games(NanFeatures, [[1.0, 0.0]], [1], workers=2, chunk=1)
    assert message(e) == "game nan-features: feature odd of placement 2 is nan (features must be finite)"


def test_a_placement_the_game_refuses():
    with pytest.raises(GameError) as e:
        play_games(Refuses, [[1.0, 0.0]], [1])
    assert message(e) == (
        "game refuses: play(3) failed: ValueError: placement 3 is not legal here"
    )


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
