"""Features of one's own: a Python function of the board, weighed and evolved beside Puyo's
built-in features. A function that recomputes a built-in feature plays the built-in run's
games, byte for byte; the command line reads it from a file (``--feature-file``); a function
that fails ends the run in one line naming it."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

import stacktune

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    tomllib = pytest.importorskip("tomli")

BUILT_IN = ["move_chain", "connected_2", "connected_3", "potential_chain", "max_height"]


def bumpiness(board):
    """Puyo's built-in `bumpiness`, the course's way: the heights' differences summed."""
    heights = (board != 0).sum(axis=0)
    return float(np.abs(np.diff(heights)).sum())


def config(last: str, **game) -> dict:
    """A small Puyo run whose last feature is `last` (weighed last, so w · φ adds its terms in
    the built-in run's order)."""
    return {
        "name": "own", "seed": 3, "generations": 2, "games": 4, "max_pieces": 40,
        "validation_games": 4, "validate_every": 1, "final_games": 8, "validation_max_pieces": 40,
        "features": BUILT_IN + [last], "game": {"game": "puyo", "rules": "programming", **game},
        "optimizer": {"kind": "cmaes"}, "cmaes": {"population": 6},
    }


def test_a_python_feature_that_recomputes_a_built_in_one_makes_the_built_in_run(tmp_path):
    stacktune.evolve(config("bumpiness"), out=tmp_path / "built_in", quiet=True)
    result = stacktune.evolve(config("my_bumpiness"), features={"my_bumpiness": bumpiness},
                              out=tmp_path / "own", quiet=True, threads=2)
    built_in = (tmp_path / "built_in" / "history.csv").read_text()
    own = (tmp_path / "own" / "history.csv").read_text()
    assert own == built_in.replace(",bumpiness\n", ",my_bumpiness\n", 1)
    assert own != built_in
    best = {k: v for k, v in tomllib.loads((tmp_path / "own" / "best.toml").read_text())["weights"].items()}
    same = tomllib.loads((tmp_path / "built_in" / "best.toml").read_text())["weights"]
    assert best.pop("my_bumpiness") == same.pop("bumpiness") != 0
    assert best == same
    run_toml = tomllib.loads((tmp_path / "own" / "run.toml").read_text())
    assert run_toml["game"]["board_features"] == ["my_bumpiness"]
    assert result["held_out"]["mean"] > 0


def test_the_board_is_the_course_s_numpy_array(tmp_path):
    seen = []

    def look(board):
        if not seen:
            seen.append(board.copy())
        return float(board[-1].sum())

    stacktune.evolve(config("look", rules="tsu"), features={"look": look}, out=tmp_path / "run",
                     quiet=True, generations=1)
    board = seen[0]
    # Tsu's 13 rows (the hidden one first), 6 columns, colours 1..4 of the 4 drawn, 0 empty.
    assert (board.shape, board.dtype) == ((13, 6), np.dtype("int64"))
    assert set(np.unique(board)) <= {0, 1, 2, 3, 4} and board.sum() > 0
    # Puyos fall: a column's cells are empty above, filled below.
    filled = board != 0
    assert (np.sort(filled, axis=0) == filled).all()


@pytest.mark.parametrize(
    "function, message",
    [
        (lambda board: 1 / 0, "board feature `mine` failed: ZeroDivisionError: division by zero"),
        (lambda board: float("nan") if board.any() else 0.0,
         "board feature `mine` returned NaN: a feature's value must be a finite number"),
        (lambda board: "high", "board feature `mine` failed: it returned str, not a number"),
    ],
)
def test_a_feature_that_fails_ends_the_run_in_one_line_naming_it(tmp_path, function, message):
    with pytest.raises(ValueError) as error:
        stacktune.evolve(config("mine"), features={"mine": function}, out=tmp_path / "run", quiet=True)
    assert str(error.value) == message
    # The run is over, and so is the feature: a run naming it without giving it is refused.
    with pytest.raises(ValueError, match=r"^board feature `mine` is not defined: "):
        stacktune.evolve(config("mine", board_features=["mine"]), out=tmp_path / "again", quiet=True)


def test_features_are_checked_before_the_run(tmp_path):
    with pytest.raises(TypeError, match=r"^board feature `mine` is int, not a function of the board$"):
        stacktune.evolve(config("mine"), features={"mine": 3}, out=tmp_path / "run")
    with pytest.raises(ValueError, match=r"^board feature `bumpiness` is a built-in feature of puyo: give it another name$"):
        stacktune.evolve(config("bumpiness"), features={"bumpiness": bumpiness}, out=tmp_path / "run")
    with pytest.raises(ValueError, match=r"^board feature name `my feature` is not a word"):
        stacktune.evolve(config("x"), features={"my feature": bumpiness}, out=tmp_path / "run")


def test_the_command_line_reads_the_features_from_a_file(tmp_path):
    (tmp_path / "my_bumpiness.py").write_text(
        "import numpy as np\n\n\ndef my_bumpiness(board):\n"
        "    heights = (board != 0).sum(axis=0)\n    return float(np.abs(np.diff(heights)).sum())\n"
    )
    stacktune.evolve(config("my_bumpiness"), features={"my_bumpiness": bumpiness}, out=tmp_path / "own", quiet=True)
    command = [sys.executable, "-m", "stacktune", "evolve", "--config", str(tmp_path / "own" / "run.toml"),
               "--quiet", "--out", str(tmp_path / "cli")]
    refused = subprocess.run(command, capture_output=True, text=True)
    assert refused.returncode != 0
    assert refused.stderr.startswith("error: board feature `my_bumpiness` is not defined: ")
    assert len(refused.stderr.splitlines()) == 1
    ran = subprocess.run(command + ["--feature-file", str(tmp_path / "my_bumpiness.py")], capture_output=True, text=True)
    assert ran.returncode == 0, ran.stderr
    for name in ["history.csv", "best.toml", "run.toml"]:
        assert (tmp_path / "cli" / name).read_bytes() == (tmp_path / "own" / name).read_bytes(), name


def test_a_run_asked_and_told_with_features_is_evolve_s(tmp_path):
    stacktune.evolve(config("my_bumpiness"), features={"my_bumpiness": bumpiness}, out=tmp_path / "evolved", quiet=True)
    run = stacktune.Run(config("my_bumpiness"), features={"my_bumpiness": bumpiness}, out=tmp_path / "asked", quiet=True)
    assert run.names[-1] == "my_bumpiness"
    while not run.done:
        candidates, _ = run.ask()
        run.evaluate(candidates)
    run.finish()
    for name in ["run.toml", "history.csv", "checkpoint.json", "best.toml"]:
        assert (tmp_path / "asked" / name).read_bytes() == (tmp_path / "evolved" / name).read_bytes(), name


def test_a_stopped_run_with_features_resumes_to_the_same_bytes(tmp_path):
    stacktune.evolve(config("my_bumpiness"), features={"my_bumpiness": bumpiness}, out=tmp_path / "evolved", quiet=True)
    run = stacktune.Run(config("my_bumpiness"), features={"my_bumpiness": bumpiness}, out=tmp_path / "asked", quiet=True)
    run.evaluate(run.ask()[0])
    with pytest.raises(ValueError, match="resume"):
        run.finish()
    run = stacktune.Run.resume(tmp_path / "asked", features={"my_bumpiness": bumpiness}, quiet=True)
    while not run.done:
        run.evaluate(run.ask()[0])
    run.finish()
    for name in ["history.csv", "checkpoint.json", "best.toml"]:
        assert (tmp_path / "asked" / name).read_bytes() == (tmp_path / "evolved" / name).read_bytes(), name


def test_the_best_weights_play_their_held_out_figure_with_the_features(tmp_path):
    result = stacktune.evolve(config("my_bumpiness"), features={"my_bumpiness": bumpiness}, out=tmp_path / "run", quiet=True)
    report = stacktune.play(features={"my_bumpiness": bumpiness}, weights=str(tmp_path / "run" / "best.toml"),
                            rules="programming", seed=1000001, games=8, max_pieces=40, quiet=True)
    assert (report["mean"], report["ci95"]) == (result["held_out"]["mean"], result["held_out"]["ci95"])
    with pytest.raises(ValueError, match="my_bumpiness"):
        stacktune.play(weights=str(tmp_path / "run" / "best.toml"), rules="programming", games=2, quiet=True)
