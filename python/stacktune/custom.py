"""A game of your own, written in Python, played by stacktune's greedy linear player.

A game is a class that can be made with no arguments and has:

- ``name``: a short name for messages (``"2048"``);
- ``feature_names``: the names of its features, in the order of a weights vector;
- ``reset(seed)``: starts a game, every random draw of it from ``seed`` alone;
- ``placements()``: the legal placements of the current position (a list, empty when none);
- ``features()``: every placement's features, a numpy array of shape
  (len(placements()), len(feature_names)), finite;
- ``play(placement)``: plays one of ``placements()`` and returns the points it scores;
- ``done()``: whether the game is over;
- optionally ``render()``: the position as text (frames of a replay).

The player is greedy one-ply: it scores every placement as w·φ and plays the best, ties to the
first listed; a game's score is its points summed over at most ``max_moves`` placements.
``play_games`` plays every (candidate, seed) pair in worker processes (spawn context: the games
hold the GIL), in fixed chunks gathered in order, so its result depends on the weights and
seeds alone, never on the number of workers. See docs/adding-a-game-python.md.
"""

from __future__ import annotations

import json
import math
import multiprocessing
import os
from typing import Any, Callable, List, Mapping, Optional, Sequence, Tuple, Union

import numpy as np

__all__ = ["GameError", "GymGame", "check_game", "evolve", "play_game", "play_games", "replay"]

_METHODS = ("reset", "placements", "features", "play", "done")


class GameError(ValueError):
    """A game of your own broke the protocol: the message names the game and what is wrong."""


def _name(game: Any) -> str:
    name = getattr(game, "name", None)
    return str(name) if name else type(game).__name__


def check_game(make: Callable[[], Any]) -> Any:
    """Makes a game with ``make()`` and checks that it has the protocol's members (before any
    game is played, so a missing method fails once, in the caller's process); returns it."""
    game = make()
    missing = [m for m in _METHODS if not callable(getattr(game, m, None))]
    if missing:
        raise GameError(
            f"game {_name(game)}: missing protocol method{'s' if len(missing) > 1 else ''} "
            f"{', '.join(missing)} (see stacktune.custom)"
        )
    names = getattr(game, "feature_names", None)
    if (
        names is None
        or isinstance(names, str)
        or not all(isinstance(n, str) for n in names)
        or len(names) == 0
    ):
        raise GameError(f"game {_name(game)}: feature_names must be a non-empty list of strings")
    if len(set(names)) != len(names):
        raise GameError(f"game {_name(game)}: feature_names has a name twice")
    return game


def _weights(game: Any, weights: Any) -> np.ndarray:
    names = list(game.feature_names)
    w = np.asarray(weights, dtype=np.float64)
    if w.shape != (len(names),):
        raise GameError(
            f"game {_name(game)}: weights of shape {w.shape}; it has {len(names)} features: "
            f"{', '.join(names)}"
        )
    if not np.all(np.isfinite(w)):
        raise GameError(f"game {_name(game)}: a weight is not finite")
    return w


def _choose(game: Any, w: np.ndarray) -> Any:
    """The greedy placement of the current position (w·φ, ties to the first listed), its
    features checked first; ``None`` when there is none."""
    placements = list(game.placements())
    if not placements:
        return None
    phi = np.asarray(game.features(), dtype=np.float64)
    if phi.shape != (len(placements), len(w)):
        raise GameError(
            f"game {_name(game)}: features() has shape {phi.shape}; expected "
            f"({len(placements)}, {len(w)}): one row per placement, one column per feature"
        )
    if not np.all(np.isfinite(phi)):
        row, column = np.argwhere(~np.isfinite(phi))[0]
        raise GameError(
            f"game {_name(game)}: feature {game.feature_names[column]} of placement "
            f"{placements[row]!r} is {phi[row, column]} (features must be finite)"
        )
    # argmax keeps the first of equal values: ties go to the first placement listed.
    return placements[int(np.argmax(phi @ w))]


def _play(game: Any, placement: Any) -> float:
    try:
        points = float(game.play(placement))
    except GameError:
        raise
    except Exception as e:
        raise GameError(
            f"game {_name(game)}: play({placement!r}) failed: {type(e).__name__}: {e}"
        ) from e
    if not math.isfinite(points):
        raise GameError(f"game {_name(game)}: play({placement!r}) scored {points}")
    return points


def play_game(game: Any, weights: Any, seed: int, max_moves: int) -> Tuple[float, int]:
    """Plays one game from ``seed`` greedily with ``weights``: its points and its moves."""
    w = _weights(game, weights)
    game.reset(int(seed))
    score, moves = 0.0, 0
    while moves < max_moves and not game.done():
        placement = _choose(game, w)
        if placement is None:
            break
        score += _play(game, placement)
        moves += 1
    return score, moves


def replay(make: Callable[[], Any], weights: Any, seed: int, max_moves: int) -> List[str]:
    """The text frames of one greedy game (the start, then after every placement); empty
    for a game that does not render."""
    game = check_game(make)
    if not callable(getattr(game, "render", None)):
        return []
    w = _weights(game, weights)
    game.reset(int(seed))
    frames = [str(game.render())]
    for _ in range(max_moves):
        if game.done():
            break
        placement = _choose(game, w)
        if placement is None:
            break
        _play(game, placement)
        frames.append(str(game.render()))
    return frames


def _chunk(task: Tuple[Callable[[], Any], np.ndarray, List[Tuple[int, int]], Sequence[int], int]) -> List[Tuple[float, int]]:
    """A worker's chunk: (candidate, seed) pairs, each a fresh reset of one game object."""
    make, candidates, pairs, seeds, max_moves = task
    game = make()
    return [play_game(game, candidates[c], seeds[s], max_moves) for c, s in pairs]


def _play_all(
    make: Callable[[], Any],
    rows: np.ndarray,
    seeds: Sequence[int],
    max_moves: int,
    pool: Any,
    chunk: int,
) -> Tuple[np.ndarray, np.ndarray]:
    """Every (candidate, seed) pair, in fixed chunks gathered in order (in ``pool`` when there
    is one): the scores and the moves, candidates × seeds each."""
    seeds = [int(s) for s in seeds]
    pairs = [(c, s) for c in range(len(rows)) for s in range(len(seeds))]
    tasks = [
        (make, rows, pairs[i : i + chunk], seeds, max_moves) for i in range(0, len(pairs), chunk)
    ]
    if pool is None or len(tasks) <= 1:
        done = [_chunk(t) for t in tasks]
    else:
        done = pool.map(_chunk, tasks, chunksize=1)
    flat = [r for part in done for r in part]
    shape = (len(rows), len(seeds))
    scores = np.array([s for s, _ in flat], dtype=np.float64).reshape(shape)
    moves = np.array([m for _, m in flat], dtype=np.int64).reshape(shape)
    return scores, moves


def _pool(workers: int, game: Any) -> Any:
    if workers < 1:
        raise GameError(f"game {_name(game)}: workers {workers} must be at least 1")
    return multiprocessing.get_context("spawn").Pool(workers) if workers > 1 else None


def play_games(
    make: Callable[[], Any],
    candidates: Any,
    seeds: Sequence[int],
    max_moves: int = 1000,
    workers: int = 1,
    chunk: int = 8,
) -> Tuple[np.ndarray, int]:
    """Plays every candidate (one a row) on every seed: the scores (candidates × seeds) and
    the placements played in all. ``workers`` > 1 plays them in that many spawned processes
    (``make`` must then be picklable: a class or function a module defines); the pairs go
    out in fixed chunks of ``chunk`` and come back in order, so the result is the same at any
    number of workers."""
    game = check_game(make)
    rows = np.atleast_2d(np.asarray(candidates, dtype=np.float64))
    for row in rows:
        _weights(game, row)
    if max_moves < 1:
        raise GameError(f"game {_name(game)}: max_moves {max_moves} must be at least 1")
    pool = _pool(workers, game)
    try:
        scores, moves = _play_all(make, rows, seeds, max_moves, pool, chunk)
    finally:
        if pool is not None:
            pool.terminate()
    return scores, int(moves.sum())


def evolve(
    game: Callable[[], Any],
    config: Optional[Mapping[str, Any]] = None,
    workers: int = 1,
    chunk: int = 8,
    **flags: Any,
) -> dict:
    """Tunes the greedy player of ``game`` (a class of the protocol, defined in a module)
    with stacktune's run: the optimiser of ``config`` (``[optimizer] kind``: ga, cem, cmaes),
    every candidate of a generation on the same games, validation on held-out games, and the
    run folder ``stacktune.evolve`` writes (run.toml naming the game, history.csv, plots,
    checkpoint, best.toml, report.html with the text frames of a held-out game where the game
    renders). ``config`` is a run config as a dict
    (``generations``, ``games``, ``max_pieces`` — the move cap, 1000 unless given —, ...);
    keywords are ``evolve``'s (``out=``, ``quiet=``, ``resume=folder`` with the same
    ``game``). The games play in ``workers`` spawned processes, in fixed chunks of ``chunk``
    pairs: the folder is byte for byte the same at any number of workers. Training game j of
    generation g is dealt from a seed the run draws for (g, j); held-out game i from seed
    ``validation_seed + i``. Returns what ``stacktune.evolve`` returns."""
    from . import _config_json, _stderr_to_python, _stacktune

    sample = check_game(game)
    name = _name(sample)
    module = getattr(game, "__module__", None)
    qualname = getattr(game, "__qualname__", None)
    if not module or not qualname or "<" in qualname:
        raise GameError(
            f"game {name}: give evolve the game's class (or a function) defined at the top "
            f"of a module, so worker processes and a resumed run can find it"
        )
    if module == "__main__":
        main = getattr(__import__("__main__"), "__file__", None)
        module = os.path.splitext(os.path.basename(main))[0] if main else module
    if "resume" in flags:
        if config is not None:
            raise GameError(f"game {name}: a resumed run keeps its run.toml; give no config")
        config_json = None
        flags["resume"] = os.fspath(flags["resume"])
    else:
        settings = dict(config or {})
        settings.setdefault("max_pieces", 1000)
        settings.setdefault("validation_max_pieces", settings["max_pieces"])
        config_json = _config_json(settings, flags)
    pool = _pool(workers, sample)

    def play(candidates: List[List[float]], seeds: List[int], max_moves: int) -> Tuple[np.ndarray, np.ndarray]:
        rows = np.asarray(candidates, dtype=np.float64).reshape(len(candidates), -1)
        return _play_all(game, rows, seeds, max_moves, pool, chunk)

    def frames(weights: List[float], seed: int, max_moves: int) -> List[str]:
        return replay(game, weights, seed, max_moves)

    try:
        with _stderr_to_python():
            text = _stacktune.evolve_hosted(
                config_json, name, f"{module}:{qualname}", list(sample.feature_names), (play, frames), **flags
            )
    finally:
        if pool is not None:
            pool.terminate()
    result: dict = json.loads(text)
    return result


class GymGame:
    """A Gymnasium environment as a game of the protocol: its observation's ``features``
    (one row per action, as stacktune's environments give with ``features=True``) and
    ``info["action_mask"]`` give the placements and their features, its reward the points.
    ``make_env`` makes the environment (a picklable function for worker processes);
    ``feature_names`` defaults to the environment's ``unwrapped.feature_names``."""

    def __init__(
        self,
        make_env: Callable[[], Any],
        feature_names: Optional[Sequence[str]] = None,
        name: Optional[str] = None,
    ) -> None:
        self.env = make_env()
        spec = getattr(self.env, "spec", None)
        self.name = name or (spec.id if spec is not None else type(self.env.unwrapped).__name__)
        self.feature_names = list(
            feature_names if feature_names is not None else self.env.unwrapped.feature_names
        )
        self._obs: Any = None
        self._mask: np.ndarray = np.zeros(0, dtype=np.int8)
        self._over = True

    def _see(self, obs: Any, info: dict) -> None:
        if not isinstance(obs, dict) or "features" not in obs:
            raise GameError(
                f"game {self.name}: the observation has no 'features' (make the environment "
                f"with features=True)"
            )
        if "action_mask" not in info:
            raise GameError(f"game {self.name}: info has no 'action_mask'")
        self._obs, self._mask = obs, np.asarray(info["action_mask"])

    def reset(self, seed: int) -> None:
        obs, info = self.env.reset(seed=seed)
        self._see(obs, info)
        self._over = False

    def placements(self) -> List[int]:
        return [int(a) for a in np.flatnonzero(self._mask)]

    def features(self) -> np.ndarray:
        return np.asarray(self._obs["features"])[np.flatnonzero(self._mask)]

    def play(self, placement: int) -> float:
        if not (0 <= placement < len(self._mask)) or not self._mask[placement]:
            raise GameError(f"game {self.name}: placement {placement!r} is not legal")
        obs, reward, terminated, truncated, info = self.env.step(placement)
        self._over = bool(terminated or truncated)
        if not self._over:
            self._see(obs, info)
        return float(reward)

    def done(self) -> bool:
        return self._over

    def render(self) -> str:
        return str(self.env.render())
