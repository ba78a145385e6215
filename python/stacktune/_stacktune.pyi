"""Type stubs of the compiled part of stacktune (Rust, PyO3)."""

from __future__ import annotations

import os
from typing import Any, Callable, Dict, List, Mapping, Optional, Sequence, Tuple, Union

import numpy as np
import numpy.typing as npt

__version__: str

# Row strings as board files hold them, or cell numbers as `board` gives them.
BoardInput = Union[str, Sequence[str], npt.NDArray[np.integer[Any]], Sequence[Sequence[int]]]

class Move:
    """One legal placement, as a person reads it; ``action`` is its fixed action number."""

    def __init__(
        self,
        action: int,
        column: int,
        *,
        piece: Optional[str] = None,
        rotation: Optional[int] = None,
        hold: Optional[bool] = None,
        pair: Optional[Tuple[int, int]] = None,
    ) -> None: ...
    @property
    def action(self) -> int: ...
    @property
    def piece(self) -> Optional[str]: ...
    @property
    def rotation(self) -> Optional[int]: ...
    @property
    def column(self) -> int: ...
    @property
    def hold(self) -> Optional[bool]: ...
    @property
    def pair(self) -> Optional[Tuple[int, int]]: ...
    def __eq__(self, other: object) -> bool: ...
    def __hash__(self) -> int: ...

class Outcome:
    """What one move did."""

    @property
    def lines(self) -> int: ...
    @property
    def points(self) -> float: ...
    @property
    def chain(self) -> int: ...
    @property
    def game_over(self) -> bool: ...
    @property
    def won(self) -> bool: ...

class _Game:
    """The methods every game class has."""

    @property
    def board(self) -> npt.NDArray[np.uint8]: ...
    @property
    def pieces(self) -> npt.NDArray[np.int64]: ...
    @property
    def piece_names(self) -> List[str]: ...
    @property
    def feature_names(self) -> List[str]: ...
    @property
    def rules(self) -> str: ...
    @property
    def score(self) -> float: ...
    @property
    def moves_played(self) -> int: ...
    @property
    def done(self) -> bool: ...
    @property
    def actions(self) -> int: ...
    def legal_moves(self) -> List[Move]: ...
    def features(self) -> npt.NDArray[np.float64]: ...
    def features_by_action(self) -> npt.NDArray[np.float32]: ...
    def action_mask(self) -> npt.NDArray[np.bool_]: ...
    def play(self, move: Union[Move, int]) -> Outcome: ...
    def play_all(self, actions: Sequence[int]) -> float: ...
    def step_observe(self, action: int, features: bool) -> Tuple[Optional[Outcome], Tuple[Any, ...]]: ...
    def observe(self, features: bool) -> Tuple[Any, ...]: ...
    def copy(self) -> Any: ...
    def _set_dealer_mark(self, mark: int) -> None: ...

class Tetris(_Game):
    def __init__(
        self,
        width: int = 10,
        height: int = 20,
        seed: int = 0,
        *,
        bag7: bool = False,
        preview: bool = False,
        allow_topout: bool = False,
    ) -> None: ...
    @staticmethod
    def from_board(
        board: BoardInput,
        piece: str,
        seed: int = 0,
        *,
        bag7: bool = False,
        preview: bool = False,
        allow_topout: bool = False,
    ) -> Tetris: ...
    def copy(self) -> Tetris: ...

class ContestTetris(_Game):
    def __init__(
        self, level: int = 2, seed: int = 0, *, all_clear: bool = False, turns: Optional[int] = None
    ) -> None: ...
    @staticmethod
    def from_board(
        board: BoardInput,
        current: str,
        next: str,
        hold: Optional[str] = None,
        turn: int = 0,
        seed: int = 0,
        *,
        level: int = 2,
        all_clear: bool = False,
        failures: int = 0,
        turns: Optional[int] = None,
    ) -> ContestTetris: ...
    def copy(self) -> ContestTetris: ...

class Puyo(_Game):
    def __init__(
        self,
        rules: str = "programming",
        colours: int = 4,
        seed: int = 0,
        *,
        preview: bool = False,
        allow_topout: bool = False,
        fitness: Optional[str] = None,
    ) -> None: ...
    @staticmethod
    def from_board(
        board: BoardInput,
        pair: str,
        seed: int = 0,
        *,
        colours: int = 4,
        preview: bool = False,
        allow_topout: bool = False,
        fitness: Optional[str] = None,
    ) -> Puyo: ...
    def copy(self) -> Puyo: ...

class ConnectN(_Game):
    def __init__(self, rows: int = 6, columns: int = 7, inarow: int = 4, seed: int = 0) -> None: ...
    @staticmethod
    def from_board(board: BoardInput, inarow: int = 4, seed: int = 0) -> ConnectN: ...
    def copy(self) -> ConnectN: ...

Game = Union[Tetris, ContestTetris, Puyo, ConnectN]

class Player:
    """A weights file (or weights in memory) under its search: ``choose`` is the move
    ``stacktune play`` makes."""

    def __init__(
        self, weights: Union[str, os.PathLike[str], Mapping[str, float]], **flags: Any
    ) -> None: ...
    @classmethod
    def from_weights(
        cls,
        weights: Union[Mapping[str, float], Sequence[float], npt.NDArray[np.float64]],
        names: Optional[Sequence[str]] = None,
        **flags: Any,
    ) -> Player: ...
    def choose(self, game: Game) -> Move: ...
    def new_game(self, seed: int = 0) -> Game: ...
    @property
    def weights(self) -> List[Tuple[str, float]]: ...
    @property
    def search(self) -> str: ...

class ConnectOpponent:
    def __init__(self, name: str, game: ConnectN) -> None: ...
    def choose(self, game: ConnectN) -> Move: ...

_Observation = Dict[str, npt.NDArray[Any]]
# (observation, masks, scores, moves) of the episodes that ended in a step (same-step autoreset).
_Last = Tuple[_Observation, npt.NDArray[np.bool_], npt.NDArray[np.float64], npt.NDArray[np.int64]]
_Frame = Tuple[
    _Observation,
    npt.NDArray[np.bool_],
    npt.NDArray[np.float64],
    npt.NDArray[np.bool_],
    npt.NDArray[np.bool_],
    npt.NDArray[np.float64],
    npt.NDArray[np.int64],
    Optional[_Last],
]

class _Vector:
    """N games stepped in one call; every call writes into the same arrays and returns them."""

    def reset(self, seed: int) -> _Frame: ...
    def step(self, actions: Union[npt.NDArray[np.int64], Sequence[int]]) -> _Frame: ...
    def __len__(self) -> int: ...

class TetrisVector(_Vector):
    def __init__(self, game: Tetris, n: int, *, max_pieces: int = 0, features: bool = False, same_step: bool = False, opponent: None = None, agent_first: bool = True) -> None: ...

class ContestTetrisVector(_Vector):
    def __init__(self, game: ContestTetris, n: int, *, max_pieces: int = 0, features: bool = False, same_step: bool = False, opponent: None = None, agent_first: bool = True) -> None: ...

class PuyoVector(_Vector):
    def __init__(self, game: Puyo, n: int, *, max_pieces: int = 0, features: bool = False, same_step: bool = False, opponent: None = None, agent_first: bool = True) -> None: ...

class ConnectNVector(_Vector):
    def __init__(self, game: ConnectN, n: int, *, max_pieces: int = 0, features: bool = False, same_step: bool = False, opponent: Optional[str] = None, agent_first: bool = True) -> None: ...

class Evolution:
    def wait(self, seconds: Optional[float] = None) -> bool: ...
    def stop(self) -> None: ...
    def result(self) -> str: ...

def play_json(**flags: Any) -> str: ...
def evaluate_json(
    weights: Union[Mapping[str, float], Sequence[float], npt.NDArray[np.float64]],
    names: Optional[List[str]] = None,
    **flags: Any,
) -> Tuple[str, npt.NDArray[np.float64]]: ...
def cli(argv: List[str]) -> int: ...
def keywords(command: str) -> str: ...
def start_evolve(config_json: Optional[str] = None, **flags: Any) -> Evolution: ...
def evolve_hosted(
    config_json: Optional[str],
    name: str,
    class_: str,
    features: List[str],
    host: Tuple[
        Callable[[List[List[float]], List[int], int], Tuple[npt.NDArray[np.float64], npt.NDArray[np.int64]]],
        Callable[[List[float], int, int], List[str]],
    ],
    **flags: Any,
) -> str: ...

class DrivenRun:
    def __init__(self, config_json: Optional[str] = None, **flags: Any) -> None: ...
    @property
    def names(self) -> List[str]: ...
    @property
    def generations(self) -> int: ...
    @property
    def generation(self) -> int: ...
    @property
    def folder(self) -> str: ...
    def ask(self) -> npt.NDArray[np.float64]: ...
    def evaluate(self, candidates: Any) -> npt.NDArray[np.float64]: ...
    def finish(self) -> str: ...
