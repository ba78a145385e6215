"""The Gymnasium environments: the checker, seeds as the CLI deals them, masks (the vector
environment has test_vector.py)."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import stacktune
import stacktune.envs
from conftest import REPO

IDS = [
    "stacktune/Tetris-v0",
    "stacktune/ContestTetris-v0",
    "stacktune/Puyo-v0",
    "stacktune/ConnectFour-v0",
]


@pytest.mark.parametrize("env_id", IDS)
@pytest.mark.parametrize("features", [False, True])
def test_check_env_passes(env_id, features):
    env = gym.make(env_id, features=features, max_pieces=50)
    check_env(env.unwrapped, skip_render_check=False)


@pytest.mark.parametrize("env_id", IDS)
@pytest.mark.parametrize("mode", ["ansi", "rgb_array"])
def test_render_modes(env_id, mode):
    env = gym.make(env_id, render_mode=mode)
    env.reset(seed=1)
    frame = env.render()
    if mode == "ansi":
        assert isinstance(frame, str) and "score" in frame
    else:
        rows, columns = env.unwrapped.game.board.shape
        assert frame.shape == (rows * 16, columns * 16, 3) and frame.dtype == np.uint8


def test_contest_episode_driven_by_the_shipped_player_scores_the_cli(monkeypatch, cli_json):
    monkeypatch.chdir(REPO)
    player = stacktune.Player("reports/tetris-contest-l2/best.toml")
    env = gym.make("stacktune/ContestTetris-v0")
    obs, info = env.reset(seed=21)
    total, done = 0.0, False
    while not done:
        move = player.choose(env.unwrapped.game)
        assert info["action_mask"][move.action]
        obs, reward, terminated, truncated, info = env.step(move.action)
        total += reward
        done = terminated or truncated
    report = cli_json("play", "--json", "--quiet", "--weights", "reports/tetris-contest-l2/best.toml", "--games", "1", "--seed", "21")
    assert total == report["per_game"][0]["score"]


def test_masks_are_the_legal_moves():
    env = gym.make("stacktune/Puyo-v0", features=True)
    obs, info = env.reset(seed=4)
    game = env.unwrapped.game
    actions = [m.action for m in game.legal_moves()]
    assert np.flatnonzero(info["action_mask"]).tolist() == sorted(actions)
    assert info["action_mask"].dtype == np.int8
    assert np.array_equal(env.unwrapped.action_masks(), info["action_mask"])
    by_action = obs["features"]
    for action, row in zip(actions, game.features()):
        assert np.array_equal(by_action[action], row.astype(np.float32))


def test_illegal_action_ends_the_episode_as_a_forfeit():
    env = gym.make("stacktune/Tetris-v0")
    env.reset(seed=0)
    obs, reward, terminated, truncated, info = env.step(39)
    assert (reward, terminated, truncated, info["illegal_action"]) == (0.0, True, False, True)
    connect = gym.make("stacktune/ConnectFour-v0")
    connect.reset(seed=0)
    obs, reward, terminated, truncated, info = connect.unwrapped.step(7)
    assert (reward, terminated, info["illegal_action"]) == (-1.0, True, True)


def test_connect_four_against_negamax4_ends_with_the_right_reward():
    env = gym.make("stacktune/ConnectFour-v0", opponent="random")
    rng = np.random.default_rng(0)
    results = []
    for episode in range(6):
        obs, info = env.reset(seed=episode)
        done, reward = False, 0.0
        while not done:
            action = rng.choice(np.flatnonzero(info["action_mask"]))
            obs, reward, terminated, truncated, info = env.step(action)
            done = terminated or truncated
        results.append(reward)
    assert set(results) <= {-1.0, 0.0, 1.0}


def test_the_mask_samples_legal_actions():
    """Gymnasium samples with an int8 mask: ``action_space.sample(mask=info["action_mask"])``
    draws only legal actions."""
    env = gym.make("stacktune/Tetris-v0", width=6, height=8)
    obs, info = env.reset(seed=5)
    env.action_space.seed(0)
    for _ in range(40):
        action = env.action_space.sample(mask=info["action_mask"])
        assert info["action_mask"][action] == 1
        obs, reward, terminated, truncated, info = env.step(action)
        assert "illegal_action" not in info
        if terminated or truncated:
            obs, info = env.reset()
