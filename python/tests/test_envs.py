"""The Gymnasium environments: the checker, seeds as the CLI deals them, masks, and the vector
environment against N single ones."""

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
    player = stacktune.Player("weights/contest/one-ply-l2.toml")
    env = gym.make("stacktune/ContestTetris-v0")
    obs, info = env.reset(seed=21)
    total, done = 0.0, False
    while not done:
        move = player.choose(env.unwrapped.game)
        assert info["action_mask"][move.action]
        obs, reward, terminated, truncated, info = env.step(move.action)
        total += reward
        done = terminated or truncated
    report = cli_json("play", "--json", "--quiet", "--weights", "weights/contest/one-ply-l2.toml", "--games", "1", "--seed", "21")
    assert total == report["per_game"][0]["score"]


def test_masks_are_the_legal_moves():
    env = gym.make("stacktune/Puyo-v0", features=True)
    obs, info = env.reset(seed=4)
    game = env.unwrapped.game
    actions = [m.action for m in game.legal_moves()]
    assert np.flatnonzero(info["action_mask"]).tolist() == sorted(actions)
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


def test_vector_env_refuses_an_illegal_action():
    vector = stacktune.envs.VectorEnv(stacktune.Tetris(), 2)
    vector.reset(seed=0)
    with pytest.raises(ValueError, match="^game 1: action 39 is not a legal move of its position$"):
        vector.step(np.array([0, 39]))


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


@pytest.mark.parametrize(
    "game",
    [
        stacktune.Tetris(8, 12),
        stacktune.ContestTetris(3),
        stacktune.Puyo("tsu", 4),
        stacktune.ConnectN(),
    ],
    ids=["tetris", "contest", "puyo", "connect"],
)
@pytest.mark.parametrize("features", [True, False])
def test_vector_env_equals_single_games(game, features):
    """N games stepped in one call give the observations, rewards and ends of N single games
    (seeds seed + i) played with the same actions, across autoresets (seeds + N)."""
    n, seed = 5, 40
    vector = stacktune.envs.VectorEnv(game, n, max_pieces=30, features=features)
    obs, info = vector.reset(seed=seed)
    make = lambda s: type(game)(**_settings(game), seed=s)  # noqa: E731
    singles = [make(seed + i) for i in range(n)]
    episodes = [0] * n
    rng = np.random.default_rng(1)
    for _ in range(80):
        for i, single in enumerate(singles):
            assert np.array_equal(obs["board"][i], single.board)
            assert np.array_equal(obs["pieces"][i], single.pieces)
            assert np.array_equal(info["action_mask"][i], single.action_mask())
            if features:
                assert np.array_equal(obs["features"][i], single.features_by_action())
            else:
                assert "features" not in obs
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in info["action_mask"]])
        obs, rewards, terminated, truncated, info = vector.step(actions)
        for i, single in enumerate(singles):
            outcome = single.play(int(actions[i]))
            assert rewards[i] == outcome.points
            ended = single.done or single.moves_played >= 30
            assert bool(terminated[i] or truncated[i]) == ended
            if ended:
                assert info["final_score"][i] == single.score
                episodes[i] += 1
                singles[i] = make(seed + i + episodes[i] * n)
    assert sum(episodes) > 0


def _settings(game):
    if isinstance(game, stacktune.Tetris):
        return {"width": 8, "height": 12}
    if isinstance(game, stacktune.ContestTetris):
        return {"level": 3}
    if isinstance(game, stacktune.Puyo):
        return {"rules": "tsu", "colours": 4}
    return {}
