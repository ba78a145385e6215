"""Gymnasium environments of stacktune's games; importing this module registers them.

``stacktune/Tetris-v0``, ``stacktune/ContestTetris-v0``, ``stacktune/Puyo-v0`` and
``stacktune/ConnectFour-v0`` (against a named opponent). An action is the number of a legal
placement (``Move.action``); the mask of legal ones is ``info["action_mask"]`` and
``env.action_masks()``; an illegal action ends the episode (a forfeit: reward 0, -1 in
Connect Four, ``info["illegal_action"]``). The observation is a dict of arrays: ``board``, ``pieces`` (named by
``env.unwrapped.piece_names``) and, with ``features=True``, every placement's features by
action (``env.unwrapped.feature_names``). The reward is the score the move earned.
``reset(seed=S)`` deals game 0 of ``stacktune play --seed S``. ``VectorEnv`` steps N games
in Rust, in parallel.
"""

from __future__ import annotations

from typing import Any, Callable, Dict, Optional, Tuple

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from . import (
    ConnectN,
    ConnectNVector,
    ConnectOpponent,
    ContestTetris,
    ContestTetrisVector,
    Puyo,
    PuyoVector,
    Tetris,
    TetrisVector,
)

__all__ = ["TetrisEnv", "ContestTetrisEnv", "PuyoEnv", "ConnectFourEnv", "VectorEnv"]

# The largest cell and piece numbers of each game, for the observation space's bounds.
_CELLS = {Tetris: 1, ContestTetris: 1, Puyo: 5, ConnectN: 2}
_PIECES = {Tetris: 7, ContestTetris: 7, Puyo: 5, ConnectN: 2}
_VECTORS = {
    Tetris: TetrisVector,
    ContestTetris: ContestTetrisVector,
    Puyo: PuyoVector,
    ConnectN: ConnectNVector,
}
# Colours of an rgb_array frame: empty, then cell numbers 1, 2, ...
_PALETTE = np.array(
    [
        [20, 20, 28],
        [200, 200, 210],
        [220, 60, 60],
        [60, 180, 90],
        [70, 110, 220],
        [230, 200, 60],
    ],
    dtype=np.uint8,
)
_CELL_PIXELS = 16
_SEEDS = 2**63


def _spaces(game: Any, features: bool) -> Tuple[spaces.Discrete, spaces.Dict]:
    kind = type(game)
    rows, columns = game.board.shape
    observation = {
        "board": spaces.Box(0, _CELLS[kind], (rows, columns), np.uint8),
        "pieces": spaces.Box(0, _PIECES[kind], (len(game.piece_names),), np.int64),
    }
    if features:
        big = np.finfo(np.float32).max
        observation["features"] = spaces.Box(
            -big, big, (game.actions, len(game.feature_names)), np.float32
        )
    return spaces.Discrete(game.actions), spaces.Dict(observation)


def _episode_seed(env: Any, seed: Optional[int]) -> int:
    """The seed a reset deals: the one given, else one drawn from the environment's own
    generator (which `reset(seed=...)` seeded), so that later resets are reproducible too."""
    return seed if seed is not None else int(env.np_random.integers(0, _SEEDS))


def _frame(board: np.ndarray) -> np.ndarray:
    """The board as an RGB image, one square of pixels a cell."""
    image = _PALETTE[np.minimum(board, len(_PALETTE) - 1)]
    return np.repeat(np.repeat(image, _CELL_PIXELS, axis=0), _CELL_PIXELS, axis=1)


class _PlacementEnv(gym.Env):
    """One game, one placement a step."""

    metadata = {"render_modes": ["ansi", "rgb_array"], "render_fps": 4}

    def __init__(
        self,
        make: Callable[[int], Any],
        render_mode: Optional[str] = None,
        features: bool = False,
        max_pieces: int = 0,
    ) -> None:
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(
                f"render_mode {render_mode!r} is not one of {self.metadata['render_modes']}"
            )
        if max_pieces < 0:
            raise ValueError(f"max_pieces {max_pieces} is negative (0: no limit)")
        self._make = make
        self.render_mode = render_mode
        self.features = features
        self.max_pieces = max_pieces
        self.game = make(0)
        self._mask = self.game.action_mask()
        self.action_space, self.observation_space = _spaces(self.game, features)
        self.piece_names = self.game.piece_names
        self.feature_names = self.game.feature_names

    def _observation(self, observed: Tuple[Any, ...]) -> Dict[str, np.ndarray]:
        board, pieces, mask, features = observed
        self._mask = mask
        obs = {"board": board, "pieces": pieces}
        if self.features:
            obs["features"] = features
        return obs

    def _info(self) -> Dict[str, Any]:
        return {
            "action_mask": self._mask,
            "score": self.game.score,
            "moves": self.game.moves_played,
        }

    def action_masks(self) -> np.ndarray:
        """The legal actions of the current position (the maskable-policy convention)."""
        return self._mask

    def reset(
        self, *, seed: Optional[int] = None, options: Optional[dict] = None
    ) -> Tuple[Dict[str, np.ndarray], Dict[str, Any]]:
        super().reset(seed=seed)
        self.game = self._make(_episode_seed(self, seed))
        self._start()
        obs = self._observation(self.game.observe(self.features))
        return obs, self._info()

    def _start(self) -> None:
        """What a game does after it is dealt (the opponent's first move)."""

    def step(self, action: Any) -> Tuple[Dict[str, np.ndarray], float, bool, bool, Dict[str, Any]]:
        outcome, observed = self.game.step_observe(int(action), self.features)
        if outcome is None:
            # An illegal move ends the episode, as a referee ends a game (a forfeit).
            obs = self._observation(observed)
            info = self._info()
            info["illegal_action"] = True
            return obs, self._forfeit, True, False, info
        reward = self._reward(outcome)
        if self._replied:
            observed = self.game.observe(self.features)
        terminated = self.game.done
        truncated = (
            not terminated and self.max_pieces > 0 and self.game.moves_played >= self.max_pieces
        )
        return self._observation(observed), reward, terminated, truncated, self._info()

    #: Whether the position changes after the agent's move (an opponent's reply).
    _replied = False

    def _reward(self, outcome: Any) -> float:
        return float(outcome.points)

    #: The reward of an illegal action, which ends the episode.
    _forfeit = 0.0

    def render(self) -> Any:
        if self.render_mode == "ansi":
            return repr(self.game) + "\n"
        if self.render_mode == "rgb_array":
            return _frame(self.game.board)
        return None


class TetrisEnv(_PlacementEnv):
    """Research Tetris: ``width``, ``height``, ``bag7``, ``preview``, ``allow_topout`` as the
    CLI has them; the reward is the lines a placement clears."""

    def __init__(
        self,
        width: int = 10,
        height: int = 20,
        bag7: bool = False,
        preview: bool = False,
        allow_topout: bool = False,
        **options: Any,
    ) -> None:
        super().__init__(
            lambda seed: Tetris(
                width, height, seed, bag7=bag7, preview=preview, allow_topout=allow_topout
            ),
            **options,
        )


class ContestTetrisEnv(_PlacementEnv):
    """Contest Tetris at ``level`` (1 to 3), ``all_clear`` bonus; ``reset(seed=S)`` plays
    contest seed S. The reward is the contest's points for the move."""

    def __init__(self, level: int = 2, all_clear: bool = False, **options: Any) -> None:
        super().__init__(
            lambda seed: ContestTetris(level, seed, all_clear=all_clear), **options
        )


class PuyoEnv(_PlacementEnv):
    """Puyo Puyo under ``rules`` (programming or tsu) with ``colours`` colours; the reward is
    the chain score of the move."""

    def __init__(
        self,
        rules: str = "programming",
        colours: int = 4,
        preview: bool = False,
        allow_topout: bool = False,
        **options: Any,
    ) -> None:
        super().__init__(
            lambda seed: Puyo(
                rules, colours, seed, preview=preview, allow_topout=allow_topout
            ),
            **options,
        )


class ConnectFourEnv(_PlacementEnv):
    """Connect-N against ``opponent`` (random, tutorial, negamax4 or a connect weights file).
    The agent plays first (``X``) unless ``agent_first=False``. Reward: 1 for a win, -1 for a
    loss (or an illegal move), 0 otherwise."""

    def __init__(
        self,
        opponent: str = "negamax4",
        rows: int = 6,
        columns: int = 7,
        inarow: int = 4,
        agent_first: bool = True,
        **options: Any,
    ) -> None:
        def make(seed: int) -> ConnectN:
            return ConnectN(rows, columns, inarow, seed)

        super().__init__(make, **options)
        self.opponent = ConnectOpponent(opponent, self.game)
        self.agent_first = agent_first
        self._replied = True

    _forfeit = -1.0

    def _start(self) -> None:
        if not self.agent_first:
            self.game.play(self.opponent.choose(self.game))

    def _reward(self, outcome: Any) -> float:
        if outcome.game_over:
            return 1.0 if outcome.won else 0.0
        reply = self.game.play(self.opponent.choose(self.game))
        return -1.0 if reply.won else 0.0


class VectorEnv(gym.vector.VectorEnv):
    """``num_envs`` games stepped in Rust in one call, in parallel, with autoreset in the
    same step: an ended game's next observation is its next episode's first (seeds
    ``seed + i``, ``seed + i + num_envs``, ...); ``info["final_score"]`` and
    ``info["final_moves"]`` hold the ended episodes' figures, ``info["action_mask"]`` the
    masks. ``game`` is a ``Tetris``, ``ContestTetris``, ``Puyo`` or ``ConnectN`` giving the
    rules (a two-player game steps both sides)."""

    metadata = {"render_modes": [], "autoreset_mode": gym.vector.AutoresetMode.SAME_STEP}

    def __init__(
        self, game: Any, num_envs: int, *, max_pieces: int = 0, features: bool = False
    ) -> None:
        self.num_envs = num_envs
        self.engine = _VECTORS[type(game)](
            game, num_envs, max_pieces=max_pieces, features=features
        )
        action, observation = _spaces(game, features)
        self.single_action_space = action
        self.single_observation_space = observation
        self.action_space = gym.vector.utils.batch_space(action, num_envs)
        self.observation_space = gym.vector.utils.batch_space(observation, num_envs)
        self._mask: Optional[np.ndarray] = None

    def reset(
        self, *, seed: Optional[int] = None, options: Optional[dict] = None
    ) -> Tuple[Dict[str, np.ndarray], Dict[str, Any]]:
        super().reset(seed=seed)
        obs, mask, *_ = self.engine.reset(_episode_seed(self, seed))
        self._mask = mask
        return obs, {"action_mask": mask}

    def step(
        self, actions: Any
    ) -> Tuple[Dict[str, np.ndarray], np.ndarray, np.ndarray, np.ndarray, Dict[str, Any]]:
        actions = np.ascontiguousarray(actions, dtype=np.int64)
        obs, mask, rewards, terminated, truncated, scores, moves = self.engine.step(actions)
        self._mask = mask
        info = {"action_mask": mask, "final_score": scores, "final_moves": moves}
        return obs, rewards, terminated, truncated, info

    def action_masks(self) -> np.ndarray:
        """Each game's legal actions (num_envs × actions)."""
        if self._mask is None:
            raise RuntimeError("call reset() before action_masks()")
        return self._mask


def _register() -> None:
    for env_id, entry in [
        ("stacktune/Tetris-v0", TetrisEnv),
        ("stacktune/ContestTetris-v0", ContestTetrisEnv),
        ("stacktune/Puyo-v0", PuyoEnv),
        ("stacktune/ConnectFour-v0", ConnectFourEnv),
    ]:
        if env_id not in gym.registry:
            gym.register(id=env_id, entry_point=entry)


_register()
