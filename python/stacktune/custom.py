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
``play_games`` plays every (candidate, seed) pair in worker processes (fresh interpreters sent
the game's class by value, see ``stacktune._workers``: the games hold the GIL), in fixed chunks
gathered in order, so its result depends on the weights and seeds alone, never on the number
of workers. See docs/adding-a-game-python.md.
"""

from __future__ import annotations

import json
import math
import numbers
import os
from typing import Any, Callable, List, Mapping, Optional, Sequence, Tuple, Union

import numpy as np

from ._greedy import GameError, _frames, _name, _trace, _weights, _whole, play_game
from ._workers import Workers

__all__ = ["GameError", "GymGame", "check_game", "evolve", "play_game", "play_games", "replay"]

_METHODS = ("reset", "placements", "features", "play", "done")


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


def replay(make: Callable[[], Any], weights: Any, seed: int, max_moves: int) -> List[str]:
    """The text frames of one greedy game (the start, then after every placement); empty
    for a game that does not render."""
    game = check_game(make)
    return _frames(game, _weights(game, weights), int(seed), max_moves)


def _play_all(
    make: Callable[[], Any],
    game: Any,
    rows: np.ndarray,
    seeds: Sequence[int],
    max_moves: int,
    workers: Optional[Any],
    chunk: int,
    time_limit: Optional[float],
) -> Tuple[np.ndarray, np.ndarray]:
    """Every (candidate, seed) pair, in fixed chunks gathered in order, on ``workers`` when
    there are (else in this process, a game from ``make`` a chunk; ``game`` names the game in
    messages): the scores and the moves, candidates × seeds each."""
    seeds = [_whole("a seed", s, game) for s in seeds]
    pairs = [(c, s) for c in range(len(rows)) for s in range(len(seeds))]
    tasks = [(rows, pairs[i : i + chunk], seeds, max_moves) for i in range(0, len(pairs), chunk)]
    if workers is None:
        flat = []
        for _, part, _, _ in tasks:
            # A fresh game a chunk, as each worker makes one: the same games at any count.
            fresh = make()
            flat += [play_game(fresh, rows[c], seeds[s], max_moves) for c, s in part]
    else:
        flat = [r for part in workers.map(tasks, time_limit) for r in part]
    shape = (len(rows), len(seeds))
    scores = np.array([s for s, _ in flat], dtype=np.float64).reshape(shape)
    moves = np.array([m for _, m in flat], dtype=np.int64).reshape(shape)
    return scores, moves


def _cores() -> int:
    """The cores this process may run on: more workers than that only take turns."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1  # pragma: no cover (macOS, Windows)


def _workers(
    make: Callable[[], Any],
    game: Any,
    workers: Any,
    chunk: Any,
    time_limit: Any,
    pairs: Optional[int] = None,
) -> Any:
    """The worker processes for ``workers`` > 1 (``None``: play in this process), the other
    settings checked first: at most as many as there are cores, and as there are chunks of
    the ``pairs`` (candidate, seed) to play when they are known; the results are the same at
    any number."""
    workers = _whole("workers", workers, game, 1)
    chunk = _whole("chunk", chunk, game, 1)
    if time_limit is not None and (
        isinstance(time_limit, bool)
        or not isinstance(time_limit, numbers.Real)
        or not time_limit > 0
        or not math.isfinite(time_limit)
    ):
        raise GameError(
            f"game {_name(game)}: time_limit {time_limit!r} must be a number of seconds above 0, "
            f"or None for no limit"
        )
    if workers == 1 and time_limit is None:
        return None
    useful = workers if pairs is None else max(1, -(-pairs // chunk))
    return Workers(min(workers, _cores(), useful), make, _name(game))


def play_games(
    make: Callable[[], Any],
    candidates: Any,
    seeds: Sequence[int],
    max_moves: int = 1000,
    workers: int = 1,
    chunk: int = 8,
    time_limit: Optional[float] = None,
) -> Tuple[np.ndarray, int]:
    """Plays every candidate (one a row) on every seed: the scores (candidates × seeds) and
    the placements played in all. ``workers`` > 1 plays them in that many worker processes,
    ``make`` sent to them by value (a class of a notebook cell works); the pairs go out in
    fixed chunks of ``chunk`` and come back in order, so the result is the same at any number
    of workers (at most one a core, and one a chunk). ``time_limit`` (seconds, ``None`` for
    none) bounds the whole call, the games then played in worker processes (one at least), where
    a game that never ends can be stopped: it raises GameError then, as does a worker that dies;
    Ctrl-C stops the workers."""
    game = check_game(make)
    if np.iscomplexobj(candidates):
        raise GameError(f"game {_name(game)}: the weights are complex numbers; weights are real")
    if not (isinstance(candidates, np.ndarray) and candidates.dtype.kind in "fiu"):
        for value in np.asarray(candidates, dtype=object).ravel():
            if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
                raise GameError(
                    f"game {_name(game)}: a weight is {value!r} ({type(value).__name__}); "
                    f"weights are real numbers (int or float)"
                )
    rows = np.atleast_2d(np.asarray(candidates, dtype=np.float64))
    for index, row in enumerate(rows):
        if not _weights(game, row).any():
            raise GameError(
                f"game {_name(game)}: every weight of candidate {index} is 0: the player would "
                f"have no preference among placements; give at least one weight that is not 0"
            )
    max_moves = _whole("max_moves", max_moves, game, 1)
    seeds = [_whole("a seed", s, game) for s in seeds]
    pool = _workers(make, game, workers, chunk, time_limit, len(rows) * len(seeds))
    try:
        scores, moves = _play_all(make, game, rows, seeds, max_moves, pool, chunk, time_limit)
    finally:
        if pool is not None:
            pool.close()
    return scores, int(moves.sum())


def _check_reset(
    make: Callable[[], Any], game: Any, workers: Optional[Any], moves: int, time_limit: Optional[float]
) -> None:
    """Plays one game twice from one seed (in the worker processes when there are, each time
    on a fresh game) and refuses a game whose ``reset(seed)`` does not make the same game
    both times (it draws from somewhere else than its seed): a run of it could not be
    reproduced, nor its candidates compared on common games."""
    task = ("trace", 1, moves)
    if workers is None:
        played = [_trace(make(), 1, moves) for _ in range(2)]
    else:
        played = workers.map([task, task], time_limit)
    if played[0] != played[1]:
        at = next((i for i, (a, b) in enumerate(zip(*played)) if a != b), min(map(len, played)))
        raise GameError(
            f"game {_name(game)}: reset(1) made two different games (they part at move {at}): "
            f"every random draw of a game must come from reset's seed, or no run of it can be "
            f"reproduced"
        )


def evolve(
    game: Callable[[], Any],
    config: Union[None, str, os.PathLike, Mapping[str, Any]] = None,
    workers: int = 1,
    chunk: int = 8,
    time_limit: Optional[float] = None,
    **flags: Any,
) -> dict:
    """Tunes the greedy player of ``game`` (a class of the protocol: of a module, of a
    notebook cell, of ``python -c``) with stacktune's run: the optimiser of ``config``
    (``[optimizer] kind``: ga, cem, cmaes), every candidate of a generation on the same
    games, validation on held-out games, and the run folder ``stacktune.evolve`` writes
    (run.toml naming the game, history.csv, plots, checkpoint, best.toml, report.html with the
    text frames of a held-out game where the game renders). ``config`` is a run config as a
    dict (``generations``, ``games``, ``max_pieces`` — the move cap, 1000 unless given —,
    ...) or a run config file; keywords are ``evolve``'s (``out=``, ``quiet=``,
    ``resume=folder`` with the same ``game``). The games play in ``workers`` worker
    processes, in fixed chunks of ``chunk`` pairs: the folder is byte for byte the same at any
    number of workers. ``time_limit`` (seconds) bounds each batch of games, the check of
    ``reset`` and each text replay of the page, all then played in worker processes (one at
    least; a replay past the limit leaves the page without it). Training game j of
    generation g is dealt from a seed the run draws for (g, j); held-out game i from seed
    ``validation_seed + i``. One game is played twice first: a ``reset(seed)`` that does not
    make the same game from the same seed is refused. Ctrl-C stops the run at its last
    checkpoint (KeyboardInterrupt says how to resume). Returns what ``stacktune.evolve``
    returns."""
    from . import _config_json, _stderr_to_python, _stacktune

    sample = check_game(game)
    name = _name(sample)
    module = getattr(game, "__module__", None)
    qualname = getattr(game, "__qualname__", None)
    if not module or not qualname or "<" in qualname:
        raise GameError(
            f"game {name}: give evolve the game's class (or a function) defined at the top "
            f"of a module or a notebook cell, so that a resumed run can name it"
        )
    if module == "__main__":
        main = getattr(__import__("__main__"), "__file__", None)
        module = os.path.splitext(os.path.basename(main))[0] if main else module
    if "resume" in flags:
        if config is not None:
            raise GameError(f"game {name}: a resumed run keeps its run.toml; give no config")
        config_json = None
        flags["resume"] = os.fspath(flags["resume"])
        cap = 1000
    elif isinstance(config, Mapping) or config is None:
        settings = dict(config or {})
        settings.setdefault("max_pieces", 1000)
        settings.setdefault("validation_max_pieces", settings["max_pieces"])
        config_json = _config_json(settings, flags)
        cap = settings["max_pieces"]
    else:
        config_json = _config_json(config, flags)
        cap = 1000
    pool = _workers(game, sample, workers, chunk, time_limit)
    try:
        _check_reset(game, sample, pool, min(_whole("max_pieces", cap, sample, 1), 100), time_limit)
    except BaseException:
        if pool is not None:
            pool.close()
        raise

    def play(candidates: List[List[float]], seeds: List[int], max_moves: int) -> Tuple[np.ndarray, np.ndarray]:
        rows = np.asarray(candidates, dtype=np.float64).reshape(len(candidates), -1)
        return _play_all(game, sample, rows, seeds, max_moves, pool, chunk, time_limit)

    def frames(weights: List[float], seed: int, max_moves: int) -> List[str]:
        if time_limit is None:
            return replay(game, weights, seed, max_moves)
        # In a worker of its own, which the limit can stop (a render() that never returns).
        drawer = Workers(1, game, name)
        try:
            return drawer.map([("frames", list(weights), seed, max_moves)], time_limit)[0]
        finally:
            drawer.close()

    try:
        with _stderr_to_python():
            text = _stacktune.evolve_hosted(
                config_json, name, f"{module}:{qualname}", list(sample.feature_names), (play, frames), **flags
            )
    finally:
        if pool is not None:
            pool.close()
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
