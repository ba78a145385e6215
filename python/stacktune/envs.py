"""Gymnasium environments of stacktune's games; importing this module registers them.

``stacktune/Tetris-v0``, ``stacktune/ContestTetris-v0``, ``stacktune/Puyo-v0`` and
``stacktune/ConnectFour-v0`` (against a named opponent). An action is the number of a legal
placement (``Move.action``); the mask of legal ones is ``info["action_mask"]`` and
``env.action_masks()``; an illegal action ends the episode (a forfeit: reward 0, -1 in
Connect Four, ``info["illegal_action"]``). The observation is a dict of arrays: ``board``, ``pieces`` (named by
``env.unwrapped.piece_names``) and, with ``features=True``, every placement's features by
action (``env.unwrapped.feature_names``). The reward is the score the move earned.
``reset(seed=S)`` deals game 0 of ``stacktune play --seed S``. ``VectorEnv`` steps N games
in Rust, in parallel; every id's ``vector_entry_point`` makes one (``gymnasium.make_vec(id,
num_envs=N, vectorization_mode="vector_entry_point")``).
"""

from __future__ import annotations

from typing import Any, Callable, Dict, List, Optional, Tuple, Union

import gymnasium as gym
import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode

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
    observation: Dict[str, spaces.Space[Any]] = {
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
        self._mask: np.ndarray = self.game.action_mask().view(np.int8)
        self.action_space, self.observation_space = _spaces(self.game, features)
        self.piece_names = self.game.piece_names
        self.feature_names = self.game.feature_names

    def _observation(self, observed: Tuple[Any, ...]) -> Dict[str, np.ndarray]:
        board, pieces, mask, features = observed
        self._mask = mask.view(np.int8)
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
        """The legal actions of the current position, 1 for legal (int8, the dtype Gymnasium's
        ``action_space.sample(mask=...)`` takes; the maskable-policy convention)."""
        return self._mask

    def reset(
        self, *, seed: Optional[int] = None, options: Optional[Dict[str, Any]] = None
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


# Each game's settings as the environments take them, giving the game dealt by a seed; the
# single and the vector environment of an id share them.


def _tetris(
    width: int = 10,
    height: int = 20,
    bag7: bool = False,
    preview: bool = False,
    allow_topout: bool = False,
) -> Callable[[int], Tetris]:
    return lambda seed: Tetris(
        width, height, seed, bag7=bag7, preview=preview, allow_topout=allow_topout
    )


def _contest(level: int = 2, all_clear: bool = False) -> Callable[[int], ContestTetris]:
    return lambda seed: ContestTetris(level, seed, all_clear=all_clear)


def _puyo(
    rules: str = "programming",
    colours: int = 4,
    preview: bool = False,
    allow_topout: bool = False,
) -> Callable[[int], Puyo]:
    return lambda seed: Puyo(rules, colours, seed, preview=preview, allow_topout=allow_topout)


def _connect(rows: int = 6, columns: int = 7, inarow: int = 4) -> Callable[[int], ConnectN]:
    return lambda seed: ConnectN(rows, columns, inarow, seed)


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
        super().__init__(_tetris(width, height, bag7, preview, allow_topout), **options)


class ContestTetrisEnv(_PlacementEnv):
    """Contest Tetris at ``level`` (1 to 3), ``all_clear`` bonus; ``reset(seed=S)`` plays
    contest seed S. The reward is the contest's points for the move."""

    def __init__(self, level: int = 2, all_clear: bool = False, **options: Any) -> None:
        super().__init__(_contest(level, all_clear), **options)


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
        super().__init__(_puyo(rules, colours, preview, allow_topout), **options)


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
        super().__init__(_connect(rows, columns, inarow), **options)
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
    """``num_envs`` games stepped in Rust in one call, in parallel on every core.

    ``game`` (a ``Tetris``, ``ContestTetris``, ``Puyo`` or ``ConnectN``) gives the rules;
    game i plays the seeds ``seed + i``, ``seed + i + num_envs``, ... one episode after the
    other. A Connect-N vector plays both sides unless ``opponent`` names one (as
    ``ConnectFourEnv`` takes it), which then answers every move, and the reward is 1 for a
    win, -1 for a loss. ``autoreset_mode`` is Gymnasium's: ``NEXT_STEP`` (the default, what
    its vector wrappers take) observes an episode's last position in the step that ends it
    and starts the next episode in the following step, ignoring that game's action there;
    ``SAME_STEP`` starts it at once, the last observation in ``info["final_obs"]`` and
    ``info["final_info"]``. ``info`` holds each game's ``action_mask`` (int8, as
    ``action_masks()`` gives it), ``score`` and ``moves`` (the episode's so far), each with
    its ``_key`` mask. The engine writes into the same arrays every step; ``copy=False``
    returns them as they are (valid until the next step), ``copy=True`` copies the
    observation and masks.
    """

    def __init__(
        self,
        game: Any,
        num_envs: int,
        *,
        max_pieces: int = 0,
        features: bool = False,
        autoreset_mode: Union[str, AutoresetMode] = AutoresetMode.NEXT_STEP,
        copy: bool = True,
        opponent: Optional[str] = None,
        agent_first: bool = True,
    ) -> None:
        mode = AutoresetMode(autoreset_mode)
        if mode not in (AutoresetMode.NEXT_STEP, AutoresetMode.SAME_STEP):
            raise ValueError(f"autoreset_mode {mode} is not supported: NEXT_STEP or SAME_STEP")
        if max_pieces < 0:
            raise ValueError(f"max_pieces {max_pieces} is negative (0: no limit)")
        self.metadata = {"render_modes": [], "autoreset_mode": mode}
        self.num_envs = num_envs
        self.copy = copy
        self.engine = _VECTORS[type(game)](
            game,
            num_envs,
            max_pieces=max_pieces,
            features=features,
            same_step=mode == AutoresetMode.SAME_STEP,
            opponent=opponent,
            agent_first=agent_first,
        )
        action, observation = _spaces(game, features)
        self.single_action_space = action
        self.single_observation_space = observation
        self.action_space = gym.vector.utils.batch_space(action, num_envs)
        self.observation_space = gym.vector.utils.batch_space(observation, num_envs)
        self.piece_names = game.piece_names
        self.feature_names = game.feature_names
        self._every = np.ones(num_envs, dtype=bool)
        self._mask: Optional[np.ndarray] = None

    def reset(
        self, *, seed: Optional[int] = None, options: Optional[Dict[str, Any]] = None
    ) -> Tuple[Dict[str, np.ndarray], Dict[str, Any]]:
        super().reset(seed=seed)
        obs, mask, _, _, _, scores, moves, _ = self.engine.reset(_episode_seed(self, seed))
        return self._observation(obs), self._info(mask, scores, moves)

    def step(
        self, actions: Any
    ) -> Tuple[Dict[str, np.ndarray], np.ndarray, np.ndarray, np.ndarray, Dict[str, Any]]:
        if self._mask is None:
            raise gym.error.ResetNeeded("call reset() before step()")
        actions = np.ascontiguousarray(actions, dtype=np.int64)
        obs, mask, rewards, terminated, truncated, scores, moves, last = self.engine.step(actions)
        info = self._info(mask, scores, moves)
        if last is not None:
            ended = terminated | truncated
            if ended.any():
                self._add_final(info, ended, last)
        return self._observation(obs), rewards.copy(), terminated.copy(), truncated.copy(), info

    def _observation(self, obs: Dict[str, np.ndarray]) -> Dict[str, np.ndarray]:
        return {key: value.copy() for key, value in obs.items()} if self.copy else obs

    def _info(self, mask: np.ndarray, scores: np.ndarray, moves: np.ndarray) -> Dict[str, Any]:
        mask = mask.view(np.int8)
        self._mask = mask.copy() if self.copy else mask
        every = self._every
        return {
            "action_mask": self._mask,
            "_action_mask": every,
            "score": scores.copy(),
            "_score": every,
            "moves": moves.copy(),
            "_moves": every,
        }

    @staticmethod
    def _add_final(info: Dict[str, Any], ended: np.ndarray, last: Tuple[Any, ...]) -> None:
        """``final_obs`` and ``final_info`` as Gymnasium's SyncVectorEnv gives them: an
        object array holding the ended games' last observations, and their infos batched,
        zero where no episode ended."""
        obs, mask, scores, moves = last
        final_obs = np.full(len(ended), None, dtype=object)
        for i in np.flatnonzero(ended):
            final_obs[i] = {key: value[i].copy() for key, value in obs.items()}
        info["final_obs"], info["_final_obs"] = final_obs, ended
        info["final_info"] = {
            "action_mask": np.where(ended[:, None], mask.view(np.int8), np.int8(0)),
            "_action_mask": ended,
            "score": np.where(ended, scores, 0.0),
            "_score": ended,
            "moves": np.where(ended, moves, 0),
            "_moves": ended,
        }
        info["_final_info"] = ended

    def action_masks(self) -> np.ndarray:
        """Each game's legal actions (num_envs × actions, int8)."""
        if self._mask is None:
            raise gym.error.ResetNeeded("call reset() before action_masks()")
        return self._mask


# The keywords of a vector environment made by gymnasium.make_vec, beside the game's own.
_VECTOR_OPTIONS = ("max_pieces", "features", "autoreset_mode", "copy")


def _vector_entry(rules: Callable[..., Callable[[int], Any]]) -> Callable[..., VectorEnv]:
    """The ``vector_entry_point`` of an id: its settings make the game, the rest the vector."""

    def make(num_envs: int = 1, **settings: Any) -> VectorEnv:
        options = {key: settings.pop(key) for key in _VECTOR_OPTIONS if key in settings}
        if settings.pop("render_mode", None) is not None:
            raise ValueError("the vector environment renders nothing (render_mode=None)")
        rival = {key: settings.pop(key) for key in ("opponent", "agent_first") if key in settings}
        game = rules(**settings)(0)
        return VectorEnv(game, num_envs, **options, **rival)

    return make


def _register() -> None:
    ids: List[Tuple[str, Callable[..., gym.Env[Any, Any]], Callable[..., Callable[[int], Any]]]] = [
        ("stacktune/Tetris-v0", TetrisEnv, _tetris),
        ("stacktune/ContestTetris-v0", ContestTetrisEnv, _contest),
        ("stacktune/Puyo-v0", PuyoEnv, _puyo),
        ("stacktune/ConnectFour-v0", ConnectFourEnv, _connect),
    ]
    for env_id, entry, rules in ids:
        if env_id not in gym.registry:
            gym.register(id=env_id, entry_point=entry, vector_entry_point=_vector_entry(rules))


_register()
