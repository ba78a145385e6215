"""A game of the protocol (``stacktune.custom``) played by the greedy linear player: the
checks of what a game gives and of the weights, one game, one trace. What both the caller
(``stacktune.custom``) and the worker processes (``stacktune._workers``) play with, below both.
"""

from __future__ import annotations

import math
import numbers
import time
from typing import Any, List, Optional, Tuple

import numpy as np


class GameError(ValueError):
    """A game of your own broke the protocol: the message names the game and what is wrong."""

    # Its public home, where tracebacks and pickles name it: stacktune.custom.
    __module__ = "stacktune.custom"


def _name(game: Any) -> str:
    name = getattr(game, "name", None)
    return str(name) if name else type(game).__name__


def _weights(game: Any, weights: Any) -> np.ndarray:
    names = list(game.feature_names)
    if np.iscomplexobj(weights):
        raise GameError(f"game {_name(game)}: the weights are complex numbers; weights are real")
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
    placements = list(_call(game, "placements"))
    if not placements:
        return None
    given = _call(game, "features")
    try:
        complex_ = np.iscomplexobj(given)
        phi = np.asarray(given, dtype=np.complex128 if complex_ else np.float64)
    except (TypeError, ValueError) as e:
        raise GameError(
            f"game {_name(game)}: features() must be numbers, one row of "
            f"{len(w)} per placement ({type(e).__name__}: {str(e).splitlines()[0]})"
        ) from None
    if complex_:
        at = np.argwhere(phi.imag != 0)
        where = ""
        if phi.ndim == 2 and phi.shape[1] == len(w) and len(at):
            row, column = at[0]
            where = (
                f": feature {game.feature_names[column]} of placement {placements[row]!r} is "
                f"{phi[row, column]}"
            )
        raise GameError(
            f"game {_name(game)}: features() gave complex numbers{where} (features are real numbers)"
        )
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
    with np.errstate(over="ignore", invalid="ignore"):
        values = phi @ w
    if not np.all(np.isfinite(values)):
        row = int(np.argwhere(~np.isfinite(values))[0][0])
        with np.errstate(over="ignore", invalid="ignore"):
            terms = phi[row] * w
        column = int(np.argmax(~np.isfinite(terms))) if not np.all(np.isfinite(terms)) else None
        what = (
            f"feature {game.feature_names[column]}'s weight {w[column]:g} times its value "
            f"{phi[row, column]:g}"
            if column is not None
            else "the sum of its weighted features"
        )
        raise GameError(
            f"game {_name(game)}: placement {placements[row]!r} is worth w·φ = {values[row]} "
            f"({what} passes the range of a float); use smaller weights"
        )
    # argmax keeps the first of equal values: ties go to the first placement listed.
    return placements[int(np.argmax(values))]


def _call(game: Any, method: str, *args: Any) -> Any:
    """``game.method(*args)``; an error it raises becomes a GameError naming the game, the
    call and the error (the original kept as its cause)."""
    try:
        return getattr(game, method)(*args)
    except GameError:
        raise
    except Exception as e:
        call = f"{method}({', '.join(map(repr, args))})"
        raise GameError(f"game {_name(game)}: {call} failed: {type(e).__name__}: {e}") from e


def _play(game: Any, placement: Any) -> float:
    points = _call(game, "play", placement)
    if isinstance(points, (bool, np.bool_)) or not isinstance(points, numbers.Real):
        raise GameError(
            f"game {_name(game)}: play({placement!r}) returned {points!r}; it must return the "
            f"points scored, a real number (int or float, not {type(points).__name__})"
        )
    points = float(points)
    if not math.isfinite(points):
        raise GameError(f"game {_name(game)}: play({placement!r}) scored {points}")
    return points


def _whole(what: str, value: Any, game: Any, least: int = 0) -> int:
    """``value`` as an int of at least ``least``, or the GameError naming ``what``: a float
    (a seed of 1.5, a cap of 2.5 moves) is refused rather than cut."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise GameError(f"game {_name(game)}: {what} must be an int, not {value!r}")
    if value < least:
        raise GameError(f"game {_name(game)}: {what} {value} must be at least {least}")
    return int(value)


def play_game(
    game: Any, weights: Any, seed: int, max_moves: int, deadline: Optional[float] = None
) -> Tuple[float, int]:
    """Plays one game from ``seed`` greedily with ``weights``: its points and its moves.
    ``deadline`` (a ``time.monotonic()`` time) stops a game still going then."""
    w = _weights(game, weights)
    seed = _whole("a seed", seed, game)
    max_moves = _whole("max_moves", max_moves, game, 1)
    _call(game, "reset", seed)
    score, moves = 0.0, 0
    while moves < max_moves and not _call(game, "done"):
        if deadline is not None and time.monotonic() > deadline:
            raise GameError(f"game {_name(game)}: the game of seed {seed} ran past the time limit")
        placement = _choose(game, w)
        if placement is None:
            break
        score += _play(game, placement)
        moves += 1
    if not math.isfinite(score):
        raise GameError(
            f"game {_name(game)}: the game of seed {seed} scored {score} (its points summed "
            f"past the range of a float): scores must be finite"
        )
    return score, moves


def _frames(game: Any, w: np.ndarray, seed: int, max_moves: int) -> List[str]:
    """The text frames of one greedy game with weights ``w`` (the start, then after every
    placement); empty for a game that does not render."""
    if not callable(getattr(game, "render", None)):
        return []
    _call(game, "reset", seed)
    frames = [str(_call(game, "render"))]
    for _ in range(max_moves):
        if _call(game, "done"):
            break
        placement = _choose(game, w)
        if placement is None:
            break
        _play(game, placement)
        frames.append(str(_call(game, "render")))
    return frames


def _trace(game: Any, seed: int, moves: int) -> List[Tuple[str, float]]:
    """The placements and points of one game from ``seed`` with every weight 1, at most
    ``moves`` long: what two games from one seed must share."""
    w = np.ones(len(game.feature_names))
    _call(game, "reset", seed)
    trace: List[Tuple[str, float]] = []
    while len(trace) < moves and not _call(game, "done"):
        placement = _choose(game, w)
        if placement is None:
            break
        trace.append((repr(placement), _play(game, placement)))
    return trace
