"""Connect-N as a PettingZoo AEC environment, and stacktune's players as its agents.

``env()`` is the environment wrapped as PettingZoo's own ``connect_four_v3`` is (an illegal
move ends the game with reward -1 for the side that made it); ``raw_env`` is the bare class.
Agents ``player_0`` (moves first, ``X``) and ``player_1`` observe a dict: ``observation``,
rows × columns × 2 planes of int8 (the observing side's discs, then the other side's, top row
first) and ``action_mask`` (int8, the legal columns for the side to move, zeros for the other).
Rewards: 1 to the winner, -1 to the loser, 0 to both for a draw.

``PlayerPolicy(stacktune.Player(path))`` plays a weights file, with its search and endgame,
from the observation alone, so it can be either agent, itself included (self-play), in any
loop or league built on ``agent_iter()``. ``OpponentPolicy("negamax4")`` does the same for the
reference agents ``stacktune play --opponent`` takes.

The game is turn-based, so there is no parallel API (PettingZoo's ``connect_four`` has none
either: ``aec_to_parallel`` needs every agent to act at once).
"""

from __future__ import annotations

from typing import Any, Dict, Optional

import gymnasium
import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv  # type: ignore[import-untyped]
from pettingzoo.utils import wrappers  # type: ignore[import-untyped]

from . import ConnectN, ConnectOpponent, Player
from .envs import _frame

__all__ = ["env", "raw_env", "PlayerPolicy", "OpponentPolicy"]


def env(**kwargs: Any) -> AECEnv:
    """The environment as PettingZoo users get theirs: an illegal move ends the game (reward
    -1 for its side), an action outside the space or a step out of order raises."""
    wrapped: AECEnv = raw_env(**kwargs)
    wrapped = wrappers.TerminateIllegalWrapper(wrapped, illegal_reward=-1)
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    return wrappers.OrderEnforcingWrapper(wrapped)


class raw_env(AECEnv):  # type: ignore[misc]
    """Connect-N (``rows`` × ``columns``, ``inarow`` to win) for two agents, turn by turn,
    played by stacktune's engine (``self.game``, a ``stacktune.ConnectN``)."""

    metadata: Dict[str, Any] = {
        "render_modes": ["ansi", "rgb_array"],
        "name": "stacktune_connect_v0",
        "is_parallelizable": False,
        "render_fps": 2,
    }

    def __init__(
        self,
        rows: int = 6,
        columns: int = 7,
        inarow: int = 4,
        render_mode: Optional[str] = None,
    ) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(
                f"render_mode {render_mode!r} is not one of {self.metadata['render_modes']}"
            )
        self.render_mode = render_mode
        self._settings = (rows, columns, inarow)
        self.game = ConnectN(rows, columns, inarow)
        rows, columns = self.game.board.shape
        self.possible_agents = ["player_0", "player_1"]
        self.agents = self.possible_agents[:]
        self.action_spaces = {a: spaces.Discrete(columns) for a in self.possible_agents}
        self.observation_spaces = {
            a: spaces.Dict(
                {
                    "observation": spaces.Box(0, 1, (rows, columns, 2), np.int8),
                    "action_mask": spaces.Box(0, 1, (columns,), np.int8),
                }
            )
            for a in self.possible_agents
        }

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: Optional[int] = None, options: Optional[Dict[str, Any]] = None) -> None:
        # Connect-N deals nothing: every episode starts from the empty board.
        self.game = ConnectN(*self._settings)
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0 for a in self.agents}
        self._cumulative_rewards = {a: 0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: Dict[str, Dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[0]

    def observe(self, agent: str) -> Dict[str, np.ndarray]:
        board = self.game.board
        me = self.possible_agents.index(agent) + 1
        planes = np.stack([board == me, board == 3 - me], axis=2).astype(np.int8)
        if agent == self.agent_selection and not self.game.done:
            mask = self.game.action_mask().view(np.int8)
        else:
            mask = np.zeros(board.shape[1], dtype=np.int8)
        return {"observation": planes, "action_mask": mask}

    def step(self, action: Optional[int]) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0
        self._clear_rewards()
        other = self.possible_agents[1 - self.possible_agents.index(agent)]
        outcome = self.game.play(int(action))  # type: ignore[arg-type]
        if outcome.won:
            self.rewards[agent], self.rewards[other] = 1, -1
        if outcome.game_over:
            self.terminations = {a: True for a in self.agents}
        self.agent_selection = other
        self._accumulate_rewards()

    def render(self) -> Any:
        if self.render_mode == "ansi":
            return repr(self.game) + "\n"
        if self.render_mode == "rgb_array":
            return _frame(self.game.board)
        gymnasium.logger.warn("render() without a render_mode draws nothing")
        return None

    def close(self) -> None:
        pass


def _position(observation: Dict[str, np.ndarray], inarow: int, seed: int = 0) -> ConnectN:
    """The game an agent's observation shows, the observing side to move: its discs are X
    when both sides have as many (X moves first), O otherwise."""
    planes = observation["observation"]
    mine, theirs = planes[..., 0].astype(bool), planes[..., 1].astype(bool)
    x, o = (mine, theirs) if mine.sum() == theirs.sum() else (theirs, mine)
    cells = np.where(x, "X", np.where(o, "O", "."))
    return ConnectN.from_board(["".join(row) for row in cells], inarow=inarow, seed=seed)


class PlayerPolicy:
    """A stacktune ``Player`` (a connect weights file under its search and endgame) as an
    agent: called with an observation, it returns the column ``stacktune play`` plays there."""

    def __init__(self, player: Player, inarow: int = 4) -> None:
        self.player = player
        self.inarow = inarow

    def __call__(self, observation: Dict[str, np.ndarray], agent: Optional[str] = None) -> int:
        move = self.player.choose(_position(observation, self.inarow))
        if move is None:
            raise ValueError("the observed game is over: no column to play")
        return move.action


class OpponentPolicy:
    """One of ``stacktune play --opponent``'s agents (``random``, ``tutorial``, ``negamax4``,
    or a connect weights file at one ply) as an agent; its random tie-breaks come from a
    generator seeded with ``seed``."""

    def __init__(self, name: str, seed: int = 0, rows: int = 6, columns: int = 7, inarow: int = 4) -> None:
        self.opponent = ConnectOpponent(name, ConnectN(rows, columns, inarow))
        self.inarow = inarow
        self.rng = np.random.default_rng(seed)

    def __call__(self, observation: Dict[str, np.ndarray], agent: Optional[str] = None) -> int:
        game = _position(observation, self.inarow, seed=int(self.rng.integers(2**63)))
        return self.opponent.choose(game).action
