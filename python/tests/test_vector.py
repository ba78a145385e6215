"""The vector environment against Gymnasium's own SyncVectorEnv of single environments: the
same observations, rewards, ends and infos (final observations included) step for step,
under both autoreset modes and under Gymnasium's vector wrappers; `make_vec`; masks; refusals."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import data_equivalence
from gymnasium.vector import AutoresetMode
from gymnasium.wrappers import vector as wrappers

import stacktune
import stacktune.envs
from stacktune.envs import VectorEnv

N = 4

# Each id with settings small enough that episodes end (and restart) within the test.
GAMES = {
    "tetris": ("stacktune/Tetris-v0", {"width": 6, "height": 8}),
    "contest": ("stacktune/ContestTetris-v0", {"level": 3}),
    "puyo": ("stacktune/Puyo-v0", {"rules": "tsu", "colours": 4}),
    "connect": ("stacktune/ConnectFour-v0", {"opponent": "tutorial"}),
    "connect-second": ("stacktune/ConnectFour-v0", {"opponent": "random", "agent_first": False}),
}


class Dealt(gym.Wrapper):
    """A single environment dealing what the vector deals game ``index`` of ``n``: seed
    ``seed + index`` first, then ``n`` more at each new episode."""

    def __init__(self, env: gym.Env, index: int, n: int) -> None:
        super().__init__(env)
        self.index, self.n, self.seed = index, n, 0

    def reset(self, *, seed=None, options=None):
        self.seed = seed if seed is not None else self.seed + self.n
        return self.env.reset(seed=self.seed, options=options)


def pair(name, mode=AutoresetMode.NEXT_STEP, features=False, max_pieces=25):
    """The Rust vector and Gymnasium's SyncVectorEnv of N single environments, same settings."""
    env_id, settings = GAMES[name]
    settings = {**settings, "features": features, "max_pieces": max_pieces}
    singles = [
        lambda i=i: Dealt(gym.make(env_id, disable_env_checker=True, **settings).unwrapped, i, N)
        for i in range(N)
    ]
    sync = gym.vector.SyncVectorEnv(singles, autoreset_mode=mode)
    vector = gym.make_vec(
        env_id, num_envs=N, vectorization_mode="vector_entry_point", autoreset_mode=mode, **settings
    )
    return vector, sync


def run_together(vector, sync, steps, seed=7, compare_info=lambda a, b: data_equivalence(a, b)):
    """Steps both with the same random legal actions, checking every output; returns how many
    episodes ended."""
    rng = np.random.default_rng(seed)
    first, second = vector.reset(seed=seed), sync.reset(seed=seed)
    assert data_equivalence(first[0], second[0], exact=True)
    assert compare_info(first[1], second[1])
    ended = 0
    for _ in range(steps):
        mask = vector.unwrapped.action_masks()
        actions = np.argmax(rng.random(mask.shape) * mask, axis=1)
        a, b = vector.step(actions), sync.step(actions)
        for x, y in zip(a[:4], b[:4]):
            assert data_equivalence(x, y, exact=True)
        assert compare_info(a[4], b[4])
        ended += int(np.sum(a[2] | a[3]))
    return ended


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("mode", [AutoresetMode.NEXT_STEP, AutoresetMode.SAME_STEP], ids=["next", "same"])
@pytest.mark.parametrize("features", [False, True], ids=["plain", "features"])
def test_vector_equals_single_environments(name, mode, features):
    """N games in one Rust call give what N single environments give in Gymnasium's own
    SyncVectorEnv, episode for episode, final observations and infos included."""
    vector, sync = pair(name, mode, features)
    assert isinstance(vector, VectorEnv)
    assert vector.metadata["autoreset_mode"] == mode
    ended = run_together(vector, sync, 60)
    assert ended >= N


def test_same_step_keeps_the_last_observation():
    """SAME_STEP: the step that ends an episode observes the next one's first position and
    puts the last in final_obs, the ended episode's score in final_info."""
    vector = VectorEnv(stacktune.Tetris(6, 8), 3, autoreset_mode="SameStep")
    obs, info = vector.reset(seed=11)
    singles = [stacktune.Tetris(6, 8, seed=11 + i) for i in range(3)]
    rng = np.random.default_rng(3)
    while True:
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in info["action_mask"]])
        for single, action in zip(singles, actions):
            single.play(int(action))
        obs, rewards, terminated, truncated, info = vector.step(actions)
        if terminated.any():
            break
    i = int(np.flatnonzero(terminated)[0])
    assert info["_final_obs"].tolist() == terminated.tolist()
    assert np.array_equal(info["final_obs"][i]["board"], singles[i].board)
    assert info["final_info"]["score"][i] == singles[i].score
    assert info["final_info"]["moves"][i] == singles[i].moves_played
    assert not info["final_info"]["action_mask"][i].any()
    assert np.array_equal(obs["board"][i], stacktune.Tetris(6, 8, seed=11 + i + 3).board)
    assert info["score"][i] == 0 and info["moves"][i] == 0


def test_next_step_ignores_the_action_of_a_game_that_ended():
    """NEXT_STEP: the ending step observes the last position (no legal move); the next step
    starts the next episode on seed + n whatever the action, with reward 0."""
    vector = VectorEnv(stacktune.Tetris(6, 8), 2)
    obs, info = vector.reset(seed=0)
    rng = np.random.default_rng(0)
    terminated = np.zeros(2, dtype=bool)
    while not terminated.any():
        actions = np.argmax(rng.random(info["action_mask"].shape) * info["action_mask"], axis=1)
        obs, rewards, terminated, truncated, info = vector.step(actions)
    i = int(np.flatnonzero(terminated)[0])
    assert not info["action_mask"][i].any()
    actions = np.argmax(info["action_mask"], axis=1)
    actions[i] = -5  # ignored
    obs, rewards, terminated, truncated, info = vector.step(actions)
    assert (rewards[i], terminated[i], truncated[i], info["moves"][i]) == (0.0, False, False, 0)
    assert np.array_equal(obs["board"][i], stacktune.Tetris(6, 8, seed=i + 2).board)


WRAPPERS = {
    "FlattenObservation": wrappers.FlattenObservation,
    "NormalizeObservation": lambda env: wrappers.NormalizeObservation(wrappers.FlattenObservation(env)),
    "RecordEpisodeStatistics": wrappers.RecordEpisodeStatistics,
    "NormalizeReward": wrappers.NormalizeReward,
    "ClipReward": lambda env: wrappers.ClipReward(env, 0.0, 1.0),
    "DictInfoToList": wrappers.DictInfoToList,
}


def _without_time(a, b):
    """Infos equal but for RecordEpisodeStatistics's wall time ``episode.t``."""
    if not isinstance(a, dict) or not isinstance(b, dict):
        return data_equivalence(a, b, exact=True)
    a, b = dict(a), dict(b)
    if "episode" in a or "episode" in b:
        a["episode"] = {k: v for k, v in a["episode"].items() if k != "t"}
        b["episode"] = {k: v for k, v in b["episode"].items() if k != "t"}
    return data_equivalence(a, b, exact=True)


@pytest.mark.parametrize("wrapper", WRAPPERS)
@pytest.mark.parametrize("name", ["tetris", "connect"])
def test_gymnasium_vector_wrappers_work_on_it(wrapper, name):
    vector, sync = pair(name)
    wrapped, reference = WRAPPERS[wrapper](vector), WRAPPERS[wrapper](sync)
    assert run_together(wrapped, reference, 50, compare_info=_without_time) >= N


def test_record_episode_statistics_counts_each_episode():
    """The episode return RecordEpisodeStatistics reports is the game's score: lines cleared."""
    vector = wrappers.RecordEpisodeStatistics(VectorEnv(stacktune.Tetris(6, 8), N))
    obs, info = vector.reset(seed=1)
    rng = np.random.default_rng(1)
    seen = 0
    for _ in range(200):
        actions = np.argmax(rng.random(info["action_mask"].shape) * info["action_mask"], axis=1)
        obs, rewards, terminated, truncated, info = vector.step(actions)
        for i in np.flatnonzero(info.get("_episode", np.zeros(N, dtype=bool))):
            assert info["episode"]["r"][i] == info["score"][i]
            assert info["episode"]["l"][i] == info["moves"][i]
            seen += 1
    assert seen >= N


@pytest.mark.parametrize("name", GAMES)
def test_make_vec_gives_the_rust_vector(name):
    env_id, settings = GAMES[name]
    vector = gym.make_vec(env_id, num_envs=3, vectorization_mode="vector_entry_point", **settings)
    assert isinstance(vector, VectorEnv)
    assert vector.metadata["autoreset_mode"] == AutoresetMode.NEXT_STEP
    single = gym.make(env_id, **settings).unwrapped
    assert vector.single_observation_space == single.observation_space
    assert vector.single_action_space == single.action_space
    obs, info = vector.reset(seed=20)
    for i in range(3):
        single_obs, single_info = single.reset(seed=20 + i)
        assert np.array_equal(obs["board"][i], single_obs["board"])
        assert np.array_equal(info["action_mask"][i], single_info["action_mask"])


def test_masks_are_int8_and_sample_legal_actions():
    vector = VectorEnv(stacktune.Puyo(), 5)
    obs, info = vector.reset(seed=2)
    assert info["action_mask"].dtype == np.int8
    assert np.array_equal(vector.action_masks(), info["action_mask"])
    vector.action_space.seed(0)
    for _ in range(30):
        actions = vector.action_space.sample(mask=tuple(info["action_mask"]))
        assert all(info["action_mask"][i, a] == 1 for i, a in enumerate(actions))
        obs, rewards, terminated, truncated, info = vector.step(actions)


def test_copy_false_hands_out_the_engines_arrays():
    """copy=False returns the arrays the engine writes into (the next step overwrites them);
    copy=True returns arrays of the caller's own."""
    shared, own = (VectorEnv(stacktune.Tetris(), 2, copy=c) for c in (False, True))
    a, _ = shared.reset(seed=0)
    b, _ = shared.reset(seed=1)
    assert a["board"] is b["board"]
    c, _ = own.reset(seed=0)
    d, _ = own.reset(seed=1)
    assert c["board"] is not d["board"]
    assert np.array_equal(c["pieces"][0], stacktune.Tetris(seed=0).pieces)
    assert np.array_equal(d["pieces"][0], stacktune.Tetris(seed=1).pieces)


def test_step_before_reset_raises():
    vector = VectorEnv(stacktune.Tetris(), 2)
    with pytest.raises(gym.error.ResetNeeded, match="^call reset\\(\\) before step\\(\\)$"):
        vector.step(np.array([0, 0]))
    with pytest.raises(gym.error.ResetNeeded):
        vector.action_masks()
    engine = stacktune.TetrisVector(stacktune.Tetris(), 2)
    with pytest.raises(RuntimeError, match="^step before reset: call reset\\(\\) first$"):
        engine.step(np.array([0, 0]))


def test_vector_env_refuses_an_illegal_action_and_plays_nothing():
    vector = VectorEnv(stacktune.Tetris(), 2)
    obs, info = vector.reset(seed=0)
    with pytest.raises(ValueError, match="^game 1: action 39 is not a legal move of its position$"):
        vector.step(np.array([0, 39]))
    with pytest.raises(ValueError, match="^game 0: action -1 is not a legal move of its position$"):
        vector.step(np.array([-1, 0]))
    with pytest.raises(ValueError, match="^3 actions for 2 games: give one action per game$"):
        vector.step(np.array([0, 0, 0]))
    obs, rewards, terminated, truncated, info = vector.step(np.array([0, 0]))
    assert info["moves"].tolist() == [1, 1]


@pytest.mark.parametrize(
    "kwargs, error, message",
    [
        ({"autoreset_mode": "Disabled"}, ValueError, "autoreset_mode AutoresetMode.DISABLED is not supported: NEXT_STEP or SAME_STEP"),
        ({"autoreset_mode": "later"}, ValueError, "'later' is not a valid AutoresetMode"),
        ({"max_pieces": -1}, ValueError, "max_pieces -1 is negative (0: no limit)"),
        ({"opponent": "negamax4"}, ValueError, 'opponent "negamax4": only a Connect-N vector has an opponent'),
        ({"agent_first": False}, ValueError, "agent_first=False needs an opponent to open"),
    ],
)
def test_vector_env_refuses_bad_settings(kwargs, error, message):
    with pytest.raises(error) as raised:
        VectorEnv(stacktune.Tetris(), 2, **kwargs)
    assert str(raised.value) == message


def test_connect_vector_refuses_an_unknown_opponent():
    with pytest.raises(ValueError, match="^opponent `nobody` is neither random, tutorial, negamax4 nor a readable weights file"):
        VectorEnv(stacktune.ConnectN(), 2, opponent="nobody")


def test_a_connect_vector_without_an_opponent_plays_both_sides():
    """With no opponent each action is the move of the side to move, as ConnectN.play takes
    it: the boards and rewards of N games played alone, the ended ones restarting a step
    later."""
    n = 3
    vector = VectorEnv(stacktune.ConnectN(), n)
    obs, info = vector.reset(seed=5)
    games = [stacktune.ConnectN(seed=5 + i) for i in range(n)]
    rng = np.random.default_rng(2)
    waiting = [False] * n
    ended = 0
    for _ in range(60):
        actions = np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in info["action_mask"]])
        obs, rewards, terminated, truncated, info = vector.step(actions)
        for i in range(n):
            if waiting[i]:
                games[i], waiting[i] = stacktune.ConnectN(), False
                assert rewards[i] == 0.0 and not terminated[i]
            else:
                outcome = games[i].play(int(actions[i]))
                assert rewards[i] == outcome.points
                assert terminated[i] == games[i].done
                waiting[i] = games[i].done
                ended += int(games[i].done)
            assert np.array_equal(obs["board"][i], games[i].board)
            assert np.array_equal(obs["pieces"][i], games[i].pieces)
    assert ended >= n
