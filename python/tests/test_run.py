"""`stacktune.Run`: a run driven from Python. With a built-in optimiser it is byte for byte
the run `stacktune evolve` makes; with an optimiser of one's own (pycma, Optuna) it finishes
into a folder that `stacktune report` and `stacktune play` read, its run.toml naming it."""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest

import stacktune
from conftest import interrupt_after_two_generations

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    tomllib = pytest.importorskip("tomli")

FEATURES = ["landing_height", "eroded_piece_cells", "row_transitions", "column_transitions", "holes", "cumulative_wells"]


def config(kind: str, **more) -> dict:
    """A small Tetris run (6 × 8, short games): seconds, not minutes."""
    return {
        "name": "asktell", "seed": 5, "generations": 3, "games": 4, "max_pieces": 300,
        "validation_games": 10, "validate_every": 2, "final_games": 20, "validation_max_pieces": 300,
        "features": FEATURES, "game": {"game": "tetris", "width": 6, "height": 8},
        "optimizer": {"kind": kind}, **more,
    }


SAME = ["run.toml", "history.csv", "checkpoint.json", "best.toml", "fitness.svg", "weights.svg"]


@pytest.mark.parametrize("kind", ["ga", "cmaes"])
def test_a_built_in_optimiser_asked_and_told_is_evolve(tmp_path, monkeypatch, kind):
    monkeypatch.chdir(tmp_path)
    cli = stacktune.evolve(config(kind), out="cli", quiet=True)
    run = stacktune.Run(config(kind), out="py", quiet=True)
    assert run.names == FEATURES and run.generations == 3
    while not run.done:
        candidates, names = run.ask()
        assert names == FEATURES and candidates.shape[1] == len(FEATURES)
        fitness = run.evaluate(candidates)
        assert fitness.shape == (candidates.shape[0],)
    ours = run.finish()
    assert ours["held_out"] == cli["held_out"]
    for name in SAME:
        assert (tmp_path / "py" / name).read_bytes() == (tmp_path / "cli" / name).read_bytes(), name


def test_a_built_in_optimiser_plays_only_what_it_asked(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    run = stacktune.Run(config("cmaes"), out="py", quiet=True)
    candidates, _ = run.ask()
    with pytest.raises(ValueError) as raised:
        run.evaluate(candidates + 1.0)
    assert str(raised.value) == (
        'a cmaes run plays the candidates it asks for (ask()); an optimiser of your own is [optimizer] kind = "external"'
    )


def external(name: str, population: int) -> dict:
    return config("external", external={"name": name, "population": population})


def finished_folder_reads(cli, folder, name: str) -> None:
    """run.toml names the optimiser; `stacktune report` and `play --weights best.toml` read the
    folder, `play` giving the held-out figure the run measured."""
    with open(folder / "run.toml", "rb") as f:
        stored = tomllib.load(f)
    assert stored["optimizer"] == {"kind": "external"} and stored["external"]["name"] == name
    assert len((folder / "history.csv").read_text().splitlines()) == 1 + 3
    cli("report", str(folder))
    assert (folder / "report.html").stat().st_size > 0
    with open(folder / "best.toml", "rb") as f:
        best = tomllib.load(f)
    report = json.loads(cli(
        "play", "--json", "--quiet", "--weights", str(folder / "best.toml"), "--seed", "1000001",
        "--games", "20", "--max-pieces", "300",
    ))
    assert report["mean"] == best["meta"]["validation_mean"]


def test_pycma_drives_a_run(tmp_path, monkeypatch, cli):
    cma = pytest.importorskip("cma")
    monkeypatch.chdir(tmp_path)
    run = stacktune.Run(external("pycma", 6), out="pycma", quiet=True)
    es = cma.CMAEvolutionStrategy(np.zeros(len(run.names)), 0.5, {"popsize": 6, "seed": 3, "verbose": -9})
    while not run.done:
        asked, _ = run.ask()
        assert asked.shape == (0, len(FEATURES))
        x = es.ask()
        fitness = run.evaluate(np.array(x))
        es.tell(x, list(-fitness))
    run.finish()
    finished_folder_reads(cli, tmp_path / "pycma", "pycma")


def test_optuna_drives_a_run(tmp_path, monkeypatch, cli):
    optuna = pytest.importorskip("optuna")
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    monkeypatch.chdir(tmp_path)
    run = stacktune.Run(external("optuna", 5), out="optuna", quiet=True)
    study = optuna.create_study(direction="maximize", sampler=optuna.samplers.TPESampler(seed=1))
    while not run.done:
        trials = [study.ask() for _ in range(5)]
        x = np.array([[t.suggest_float(n, -1.0, 1.0) for n in run.names] for t in trials])
        for trial, f in zip(trials, run.evaluate(x)):
            study.tell(trial, float(f))
    run.finish()
    finished_folder_reads(cli, tmp_path / "optuna", "optuna")


def test_a_stopped_run_resumes_to_the_same_folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    stacktune.evolve(config("cmaes"), out="whole", quiet=True)
    run = stacktune.Run(config("cmaes"), out="stopped", quiet=True)
    run.evaluate(run.ask()[0])
    with pytest.raises(ValueError) as raised:
        run.finish()
    assert str(raised.value).startswith("stopped before generation 1; resume with: stacktune.Run.resume(")
    again = stacktune.Run.resume("stopped", quiet=True)
    assert again.generation == 1
    while not again.done:
        again.evaluate(again.ask()[0])
    again.finish()
    for name in SAME:
        assert (tmp_path / "stopped" / name).read_bytes() == (tmp_path / "whole" / name).read_bytes(), name


BAD = [
    (dict(), '[optimizer] kind = "external" needs an [external] table: name = "..." (the optimiser, as run.toml records it) and population = N (candidates a generation)'),
    (dict(external={"name": " ", "population": 4}), "[external] name must name the optimiser (pycma, optuna, ...)"),
    (dict(external={"name": "pycma", "population": 1}), "[external] population must be within 2..=10000 (got 1)"),
]


@pytest.mark.parametrize("more,message", BAD, ids=[m for _, m in BAD])
def test_a_bad_external_table_is_one_line(tmp_path, monkeypatch, more, message):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(ValueError) as raised:
        stacktune.Run(config("external", **more), out="bad", quiet=True)
    assert str(raised.value) == message
    assert not (tmp_path / "bad").exists()


def test_an_external_run_refuses_bad_candidates(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    run = stacktune.Run(external("mine", 4), out="mine", quiet=True)
    with pytest.raises(ValueError) as raised:
        run.evaluate(np.zeros((4, 5)))
    assert str(raised.value).startswith("a candidate has 5 weights; the run tunes 6 features: landing_height")
    with pytest.raises(ValueError) as raised:
        run.evaluate(np.zeros((3, 6)))
    assert str(raised.value) == "3 candidates given; the run's [external] population is 4 a generation"


def test_evolve_refuses_an_external_run(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(ValueError) as raised:
        stacktune.evolve(external("mine", 4), out="cli", quiet=True)
    assert str(raised.value) == (
        '[optimizer] kind = "external" takes its candidates from an optimiser of your own: drive it from Python with stacktune.Run (docs/python.md)'
    )
    assert not (tmp_path / "cli").exists()


def test_ctrl_c_stops_a_driven_run_and_it_resumes(tmp_path, monkeypatch):
    """A real SIGINT to a Python driving a run: it ends with KeyboardInterrupt, the folder
    checkpointed, and `Run.resume` driven to the end writes what `evolve` writes."""
    long = config("cmaes", generations=60, validate_every=30)
    code = (
        "import stacktune\n"
        f"run = stacktune.Run({long!r}, out='stopped', quiet=True)\n"
        "while not run.done:\n"
        "    run.evaluate(run.ask()[0])\n"
    )
    child = subprocess.Popen([sys.executable, "-c", code], cwd=tmp_path, stderr=subprocess.PIPE, text=True)
    err = interrupt_after_two_generations(child, tmp_path / "stopped")
    assert "KeyboardInterrupt" in err, err
    assert not (tmp_path / "stopped" / "best.toml").exists()
    monkeypatch.chdir(tmp_path)
    run = stacktune.Run.resume("stopped", quiet=True)
    assert 0 < run.generation < 60
    while not run.done:
        run.evaluate(run.ask()[0])
    run.finish()
    stacktune.evolve(long, out="whole", quiet=True)
    for name in SAME:
        assert (tmp_path / "stopped" / name).read_bytes() == (tmp_path / "whole" / name).read_bytes(), name
