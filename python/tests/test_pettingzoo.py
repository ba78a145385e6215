"""Connect-N as a PettingZoo AEC environment: PettingZoo's own API and seed tests, rewards and
masks on known games, and stacktune's players as agents through the AEC loop, scoring what
`stacktune play` scores on the same games."""

from __future__ import annotations

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

import stacktune
from conftest import REPO
from stacktune.pettingzoo import OpponentPolicy, PlayerPolicy, env, raw_env


@pytest.mark.parametrize("settings", [{}, {"rows": 4, "columns": 5, "inarow": 3}], ids=["7x6", "5x4"])
def test_pettingzoo_api_test_passes(settings):
    api_test(env(**settings), num_cycles=1000)


def test_pettingzoo_seed_test_passes():
    seed_test(env, num_cycles=100)


def play_out(aec, policies, opening=()):
    """One game through the AEC loop: `opening`'s columns first, then each agent's policy.
    Returns each agent's total reward."""
    aec.reset(seed=0)
    totals = dict.fromkeys(aec.possible_agents, 0)
    scripted = list(opening)
    for agent in aec.agent_iter():
        observation, reward, termination, truncation, info = aec.last()
        totals[agent] += reward
        if termination or truncation:
            action = None
        elif scripted:
            action = scripted.pop(0)
        else:
            action = policies[agent](observation, agent)
            assert observation["action_mask"][action] == 1
        aec.step(action)
    return totals


def test_a_vertical_four_wins_and_the_masks_follow_the_turn():
    aec = env()
    aec.reset()
    for column in [0, 1, 0, 1, 0, 1]:
        observation, *_ = aec.last()
        assert observation["action_mask"].dtype == np.int8
        assert observation["action_mask"].tolist() == [1] * 7
        other = aec.possible_agents[1 - aec.possible_agents.index(aec.agent_selection)]
        assert aec.observe(other)["action_mask"].tolist() == [0] * 7
        aec.step(column)
    planes = aec.observe("player_0")["observation"]
    assert planes[:, :, 0][3:, 0].tolist() == [1, 1, 1] and planes[:, :, 1][3:, 1].tolist() == [1, 1, 1]
    assert np.array_equal(aec.observe("player_1")["observation"], planes[:, :, ::-1])
    aec.step(0)
    assert aec.rewards == {"player_0": 1, "player_1": -1}
    assert all(aec.terminations.values())


def test_an_illegal_column_loses_as_in_pettingzoos_connect_four():
    aec = env(rows=4, columns=5, inarow=3)
    aec.reset()
    for _ in range(4):
        aec.step(2)
    aec.step(2)  # the column is full: player_0 forfeits
    assert aec.rewards == {"player_0": -1, "player_1": 0}
    assert all(aec.terminations.values())


def test_a_full_board_is_a_draw():
    # 2 columns of 3, three in a row: columns X O X and X O O, the sixth disc ends it.
    totals = play_out(env(rows=3, columns=2, inarow=3), {}, opening=[0, 0, 1, 1, 0, 1])
    assert totals == {"player_0": 0, "player_1": 0}


def test_raw_env_renders_as_text():
    aec = raw_env(render_mode="ansi")
    aec.reset()
    aec.step(3)
    assert aec.render() == repr(aec.game) + "\n"
    with pytest.raises(ValueError, match="render_mode 'human' is not one of"):
        raw_env(render_mode="human")


def test_a_stacktune_player_beats_a_random_agent_from_either_side(monkeypatch):
    """The shipped one-ply weights against PettingZoo's usual random agent (a masked sample of
    the action space), 10 games as each agent: it wins all 20."""
    monkeypatch.chdir(REPO)
    tuned = PlayerPolicy(stacktune.Player("weights/connect/evolved.toml"))
    aec = env()
    results = []
    for game in range(20):
        aec.reset(seed=game)
        space = aec.action_space("player_0")
        space.seed(game)
        rand = lambda obs, agent: int(space.sample(mask=obs["action_mask"]))  # noqa: E731
        seats = ("player_0", "player_1") if game % 2 == 0 else ("player_1", "player_0")
        totals = play_out(aec, {seats[0]: tuned, seats[1]: rand})
        results.append(totals[seats[0]])
    assert results == [1] * 20


def suite_match(aec, a, b, games):
    """`stacktune play`'s series between `a` and `b` replayed through the AEC loop: game i opens
    with the (i div 2)-th two-move opening (all pairs of columns, in order), `a` moving first
    in even games. Returns (wins, draws, losses) from `a`'s side."""
    columns = aec.action_space("player_0").n
    openings = [(first, second) for first in range(columns) for second in range(columns)]
    tally = [0, 0, 0]
    for i in range(games):
        seats = ("player_0", "player_1") if i % 2 == 0 else ("player_1", "player_0")
        totals = play_out(aec, {seats[0]: a, seats[1]: b}, opening=openings[i // 2 % len(openings)])
        tally[{1: 0, 0: 1, -1: 2}[totals[seats[0]]]] += 1
    return tuple(tally)


@pytest.mark.parametrize(
    "weights, flags",
    [
        ("weights/connect/evolved.toml", {}),  # self-play
        ("weights/connect/parity.toml", {"depth": 2, "endgame": 12}),
    ],
    ids=["self-play", "parity-depth2-endgame"],
)
def test_a_league_through_the_aec_loop_scores_what_play_scores(monkeypatch, cli_json, weights, flags):
    """A tuned player (with its search and endgame) against the one-ply `evolved.toml`, over
    play's 98 suite games (every opening with each colour), through PettingZoo: the same wins,
    draws and losses as `stacktune play --opponent weights/connect/evolved.toml`."""
    monkeypatch.chdir(REPO)
    a = PlayerPolicy(stacktune.Player(weights, **flags))
    b = PlayerPolicy(stacktune.Player("weights/connect/evolved.toml"))
    tally = suite_match(env(), a, b, 98)
    cli_flags = [f"--{k}={v}" for k, v in flags.items()]
    report = cli_json(
        "play", "--json", "--quiet", "--weights", weights, *cli_flags,
        "--opponent", "weights/connect/evolved.toml", "--games", "98", "--seed", "0",
    )
    (row,) = report["opponents"]
    assert tally == (row["wins"], row["draws"], row["losses"])


def test_stacktunes_reference_agents_play_through_the_aec_loop():
    """negamax4 (as `stacktune play --opponent` has it) beats a uniformly random agent."""
    aec = env()
    strong = OpponentPolicy("negamax4", seed=1)
    weak = OpponentPolicy("random", seed=2)
    assert suite_match(aec, strong, weak, 10) == (10, 0, 0)


def test_player_policy_refuses_an_ended_game(monkeypatch):
    monkeypatch.chdir(REPO)
    policy = PlayerPolicy(stacktune.Player("weights/connect/evolved.toml"))
    aec = env()
    aec.reset()
    for column in [0, 1, 0, 1, 0, 1, 0]:
        aec.step(column)
    with pytest.raises(ValueError):
        policy(aec.observe("player_1"), "player_1")
