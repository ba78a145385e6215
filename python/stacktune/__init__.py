"""stacktune from Python: the engines, features and tuned players of the Rust tool.

Games (``Tetris``, ``ContestTetris``, ``Puyo``, ``ConnectN``) list their legal placements and
every placement's features, exactly as ``stacktune moves --json`` prints them; a ``Player``
loads a weights file and makes the move ``stacktune play`` makes; ``play(...)`` and
``evolve(...)`` run the CLI's commands and return their figures. ``import stacktune.envs``
registers the Gymnasium environments. See docs/python.md in the repository.
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
import threading
from typing import Any, Callable, Iterator, Mapping, Optional, Sequence, Union

from ._stacktune import (
    ConnectN,
    ConnectNVector,
    ConnectOpponent,
    ContestTetris,
    ContestTetrisVector,
    Move,
    Outcome,
    Player,
    Puyo,
    PuyoVector,
    Tetris,
    TetrisVector,
    __version__,
)
from . import _stacktune

__all__ = [
    "ConnectN",
    "ConnectNVector",
    "ConnectOpponent",
    "ContestTetris",
    "ContestTetrisVector",
    "Move",
    "Outcome",
    "Player",
    "Puyo",
    "PuyoVector",
    "Run",
    "Tetris",
    "TetrisVector",
    "evaluate",
    "evolve",
    "play",
    "__version__",
]


def play(features: Optional[Mapping[str, Callable[[Any], float]]] = None, **flags: Any) -> dict:
    """Plays seeded games with a weights file, as ``stacktune play --json`` does.

    Keyword arguments are the CLI's flags (``weights=``, ``games=``, ``seed=``, ``width=``,
    ``level=``, ``max_pieces=``, ``beam_width=``, ``opponent=[...]``, ``quiet=True``, ...);
    the result is the JSON report as a dict: the summary (``mean``, ``ci95``, ...), the total
    pieces and ``per_game``, each game's score and what the game counts beside it. The games
    run in Rust with the GIL released; progress goes to ``sys.stderr`` (a notebook's output);
    Ctrl-C (KeyboardInterrupt) stops the call within a second, mid-game. ``features=`` gives
    the functions of a weights file's features of your own, as ``evolve`` takes them.
    """
    with _stderr_to_python(), _BoardFeatures(features, flags):
        return json.loads(_stacktune.play_json(**flags))


def evaluate(weights: Any, names: Optional[Sequence[str]] = None, **flags: Any) -> dict:
    """Plays seeded games with weights held in memory, as ``stacktune play --json`` plays a
    file of the same weights: the same games, the same numbers, and no file written.

    ``weights`` is a dict of feature name to weight, or a vector (a numpy array, a list) with
    ``names=`` (by default the game's features in its order, as a game's ``feature_names``
    lists them); ``game=`` names the game, and the other keywords are ``play``'s (``games=``, ``seed=``,
    ``width=``, ``rules=``, ``beam_width=``, ...). Returns ``play``'s report as a dict with
    ``scores`` beside it: each game's score in order, as a numpy array. The games run in Rust
    on every core with the GIL released; progress is off unless ``quiet=False`` (an optimiser
    calls this many times). A bad weight (an unknown name, NaN, a vector of the wrong length)
    raises ValueError, a wrong type TypeError, before any game is played.
    """
    flags.setdefault("quiet", True)
    with _stderr_to_python():
        text, scores = _stacktune.evaluate_json(weights, names, **flags)
    report = json.loads(text)
    report["scores"] = scores
    return report


def evolve(
    config: Union[None, str, os.PathLike, Mapping[str, Any]] = None,
    features: Optional[Mapping[str, Callable[[Any], float]]] = None,
    **flags: Any,
) -> dict:
    """Runs ``stacktune evolve`` and returns its folder and held-out summary.

    ``config`` is a run config file's path, or the config itself as a dict (the TOML file's
    tables as nested dicts; relative paths in it are the working folder's). Keyword arguments
    are the CLI's flags (``out=``, ``generations=``, ``threads=``, ``quiet=``, ``resume=``, ...).
    The run writes the same folder the CLI writes. Progress shows in the terminal, or in the
    notebook's output. Ctrl-C (KeyboardInterrupt) stops the run within a second at its last
    checkpoint (the games under way are dropped); ``evolve(resume=folder)`` continues it to
    the very result an uninterrupted run gives.

    ``features`` (Puyo) adds features of your own: a dict of name to a function of the board
    after a placement (a numpy int64 array, rows top first, 0 empty, colours 1..5, nuisance
    6) returning a finite number. They are tuned after the built-in ones, as run.toml's
    ``[game] board_features`` names them (see docs/python.md).
    """
    config_json = _config_json(config, flags)
    with _stderr_to_python(), _BoardFeatures(features, flags):
        run = _stacktune.start_evolve(config_json, **flags)
        try:
            while not run.wait(0.1):
                pass
        except KeyboardInterrupt:
            run.stop()
            print(
                "stacktune: stopping at the last checkpoint (the games under way are dropped)",
                file=sys.stderr,
            )
            while not run.wait(0.1):
                pass
        result = json.loads(run.result())
    return result


class Run:
    """A stacktune run driven from Python, generation by generation: ``ask()``, then
    ``evaluate(candidates)``, then ``finish()``. The folder comes out as ``evolve`` writes it
    (run.toml, history.csv, plots, held-out validation, checkpoint, best.toml, report.html).

    ``config`` is a run config's path or the config as a dict, as ``evolve`` takes it, with
    ``evolve``'s keywords (``out=``, ``threads=``, ``quiet=``, ...). With a built-in optimiser
    (``[optimizer] kind = "ga"``, ``"cem"``, ``"cmaes"``) ``ask()`` gives its candidates and
    ``evaluate`` plays exactly those: the run is byte for byte the one ``evolve`` makes. With
    ``[optimizer] kind = "external"`` and ``[external] name = "pycma"`` (the optimiser's name
    for run.toml) and ``population = N``, the candidates are any N vectors of yours.
    """

    def __init__(
        self,
        config: Union[None, str, os.PathLike, Mapping[str, Any]] = None,
        features: Optional[Mapping[str, Callable[[Any], float]]] = None,
        **flags: Any,
    ) -> None:
        config_json = _config_json(config, flags)
        # The features stay defined until finish(): ask and evaluate play with them.
        self._features = _BoardFeatures(features, flags)
        with _stderr_to_python(), self._features.kept():
            self._run = _stacktune.DrivenRun(config_json, **flags)

    @classmethod
    def resume(
        cls,
        folder: Union[str, os.PathLike],
        features: Optional[Mapping[str, Callable[[Any], float]]] = None,
        **flags: Any,
    ) -> "Run":
        """Continues the stopped run in ``folder`` from its checkpoint, at the generation it
        stopped before (``threads=`` and ``quiet=`` may be given; ``features=`` again when
        the run has features of your own)."""
        run = cls.__new__(cls)
        flags["resume"] = os.fspath(folder)
        run._features = _BoardFeatures(features, flags)
        with _stderr_to_python(), run._features.kept():
            run._run = _stacktune.DrivenRun(None, **flags)
        return run

    @property
    def names(self) -> list:
        """The tuned features, in the order of a candidate's weights."""
        return self._run.names

    @property
    def generations(self) -> int:
        return self._run.generations

    @property
    def generation(self) -> int:
        """The generation to play next."""
        return self._run.generation

    @property
    def done(self) -> bool:
        """Whether every generation is played (``finish()`` is next)."""
        return self._run.generation >= self._run.generations

    @property
    def folder(self) -> str:
        return os.fspath(self._run.folder)

    def ask(self) -> tuple:
        """This generation's candidates from the run's optimiser, one a row, and the names
        of their columns (an external optimiser's run asks none: zero rows)."""
        return self._run.ask(), self.names

    def evaluate(self, candidates: Any) -> Any:
        """Plays ``candidates`` (one a row, the columns ``names``) on this generation's
        common games, records the generation, and returns their fitness (numpy, in order)."""
        with _stderr_to_python():
            return self._run.evaluate(candidates)

    def finish(self) -> dict:
        """After the last generation: the best on the held-out games, best.toml and
        report.html, and what ``evolve()`` returns. Before it: stops the run, checkpointed,
        raising the error that says how to resume it."""
        with _stderr_to_python():
            result = json.loads(self._run.finish())
        self._features.__exit__()
        return result


play.__doc__ = f"{play.__doc__}\nKeywords:\n\n{_stacktune.keywords('play')}\n"
evaluate.__doc__ = f"{evaluate.__doc__}\nKeywords:\n\n{_stacktune.keywords('play')}\n"
evolve.__doc__ = f"{evolve.__doc__}\nKeywords:\n\n{_stacktune.keywords('evolve')}\n"


class _BoardFeatures:
    """Features of one's own for one run: each function defined under its name while the run
    plays (the games call it from Rust), and named in the run's game with ``board_feature=``
    flags, unless the run resumes (its run.toml names them)."""

    def __init__(self, features: Optional[Mapping[str, Callable[[Any], float]]], flags: dict) -> None:
        if features is None:
            features = {}
        if not isinstance(features, Mapping):
            raise TypeError(f"features= is a dict of name to a function of the board, not {type(features).__name__}")
        for name, function in features.items():
            if not isinstance(name, str):
                raise TypeError(f"features= names are str, not {type(name).__name__} ({name!r})")
            if not callable(function):
                raise TypeError(f"board feature `{name}` is {type(function).__name__}, not a function of the board")
        self.names = []
        for name, function in features.items():
            _stacktune.define_board_feature(name, function)
            self.names.append(name)
        if self.names and "resume" not in flags:
            flags["board_feature"] = self.names

    def __enter__(self) -> "_BoardFeatures":
        return self

    def __exit__(self, *exc: Any) -> None:
        for name in self.names:
            _stacktune.undefine_board_feature(name)
        self.names = []

    @contextlib.contextmanager
    def kept(self) -> Iterator[None]:
        """Keeps the features defined past the block unless it fails (the run is then none)."""
        try:
            yield
        except BaseException:
            self.__exit__()
            raise


def _config_json(config: Union[None, str, os.PathLike, Mapping[str, Any]], flags: dict) -> Optional[str]:
    """A config given as a dict, as JSON for the Rust side, which reads it in memory (no file
    is written); a path goes into ``flags``. A value TOML cannot hold is refused naming its
    key."""
    if isinstance(config, Mapping):
        return json.dumps(_config_value(config, ""), allow_nan=False)
    if config is not None:
        flags["config"] = os.fspath(config)
    return None


def _config_value(value: Any, key: str) -> Any:
    """``value`` (at ``key`` of a config dict) as plain JSON data: tables, lists, str, bool,
    int and finite numbers; paths as their text, numpy numbers as Python's."""
    where = f"run config key `{key}`" if key else "run config"
    if isinstance(value, Mapping):
        table = {}
        for k, v in value.items():
            if not isinstance(k, str):
                raise TypeError(f"{where}: keys are str, not {type(k).__name__} ({k!r})")
            table[k] = _config_value(v, f"{key}.{k}" if key else k)
        return table
    if isinstance(value, (str, bool)):
        return value
    if isinstance(value, os.PathLike):
        return os.fspath(value)
    if isinstance(value, (list, tuple)):
        return [_config_value(v, f"{key}[{i}]") for i, v in enumerate(value)]
    if hasattr(value, "item") and not hasattr(value, "__len__"):
        value = value.item()  # a numpy number
    if isinstance(value, int) and not isinstance(value, bool):
        if not -(2**63) <= value < 2**64:
            # JSON would carry it as a float, which the Rust side refuses as one.
            raise ValueError(f"{where} is {value}: out of range; a run config's ints are within -2**63..2**64-1 (seeds 0..2**64-1)")
        return value
    if isinstance(value, float):
        if value != value or value in (float("inf"), float("-inf")):
            raise ValueError(f"{where} is {value}: a run config's numbers are finite")
        return value
    raise TypeError(
        f"{where} is {type(value).__name__} ({value!r}): a run config holds tables, lists, "
        f"str, bool, int and float"
    )


def _rebuild(
    owner: Any,
    attr: Optional[str],
    args: tuple,
    kwargs: dict,
    actions: list,
    dealer_mark: Optional[int],
) -> Any:
    """Unpickles a game: makes it again as it was made, replays its actions, and puts its
    dealer back (Connect-N opponents draw their tie-breaks from it between moves)."""
    make = getattr(owner, attr) if attr else owner
    game = make(*args, **kwargs)
    game.play_all(actions)
    if dealer_mark is not None:
        game._set_dealer_mark(dealer_mark)
    return game


class _stderr_to_python:
    """Sends what the Rust side writes on file descriptor 2 (progress) to ``sys.stderr`` when
    that is not descriptor 2 itself (a notebook, a captured stream); a no-op otherwise."""

    def __enter__(self) -> "_stderr_to_python":
        self.saved: Optional[int] = None
        try:
            if sys.stderr is None or sys.stderr.fileno() == 2:
                return self
        except (AttributeError, OSError, ValueError):
            pass
        sys.stderr.flush()
        read, write = os.pipe()
        self.saved = os.dup(2)
        os.dup2(write, 2)
        os.close(write)

        def pump() -> None:
            with os.fdopen(read, "r", errors="replace") as lines:
                for line in lines:
                    sys.stderr.write(line)
                    sys.stderr.flush()

        self.pump = threading.Thread(target=pump, daemon=True)
        self.pump.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        if self.saved is not None:
            os.dup2(self.saved, 2)
            os.close(self.saved)
            self.pump.join(timeout=5)
