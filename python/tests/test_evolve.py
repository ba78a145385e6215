"""`stacktune.evolve` writes the run folder the CLI writes, returns its held-out summary, and
a run stopped by KeyboardInterrupt resumes to the result of a run never stopped."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

import stacktune
from stacktune import _stacktune
from conftest import interrupt_after_two_generations

CONFIG = {
    "name": "py",
    "seed": 5,
    "generations": 3,
    "games": 2,
    "max_pieces": 60,
    "validation_games": 4,
    "validate_every": 1,
    "final_games": 8,
    "validation_max_pieces": 60,
    "threads": 1,
    "game": {"game": "tetris", "width": 6, "height": 8},
    "ga": {"population": 6},
}

FILES = ["run.toml", "history.csv", "best.toml"]


def read(folder):
    return {name: (folder / name).read_bytes() for name in FILES}


def test_evolve_from_a_dict_writes_what_the_cli_writes(tmp_path, monkeypatch, cli):
    monkeypatch.chdir(tmp_path)
    result = stacktune.evolve(CONFIG, out="py-run", quiet=True)
    assert result["folder"] == "py-run"
    assert result["held_out"]["games"] == 8
    (tmp_path / "config.toml").write_text(
        (tmp_path / "py-run" / "run.toml").read_text()
    )
    cli("evolve", "--config", str(tmp_path / "config.toml"), "--out", str(tmp_path / "cli-run"), "--quiet")
    assert read(tmp_path / "py-run") == read(tmp_path / "cli-run")
    # The held-out figure is `play` on the run's validation seed.
    seed = _validation_seed(tmp_path / "py-run")
    held_out = stacktune.play(weights="py-run/best.toml", games=8, seed=seed, max_pieces=60, quiet=True)
    assert held_out["mean"] == result["held_out"]["mean"]


def _validation_seed(folder):
    for line in (folder / "run.toml").read_text().splitlines():
        if line.startswith("validation_seed"):
            return int(line.split("=")[1])
    raise AssertionError("run.toml names its validation seed")


def test_interrupted_run_resumes_to_the_same_result(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    stacktune.evolve(CONFIG, out="whole", quiet=True)
    run = _stacktune.start_evolve(json.dumps(CONFIG), out="stopped", quiet=True)
    run.stop()  # what Ctrl-C does: the generation under way finishes and is checkpointed
    run.wait()
    with pytest.raises(KeyboardInterrupt, match="resume with"):
        run.result()
    assert not (tmp_path / "stopped" / "best.toml").exists()
    result = stacktune.evolve(resume="stopped", quiet=True)
    assert result["folder"] == "stopped"
    assert read(tmp_path / "stopped") == read(tmp_path / "whole")


def test_ctrl_c_stops_after_the_generation_and_the_run_resumes(tmp_path, monkeypatch):
    """A real SIGINT to a Python running `evolve`: KeyboardInterrupt once the generation is
    checkpointed, and `evolve(resume=...)` ends where a run never stopped ends."""
    config = dict(CONFIG, generations=60, games=4, max_pieces=200, validate_every=30)
    child = subprocess.Popen(
        [sys.executable, "-c", f"import stacktune; stacktune.evolve({config!r}, out='stopped', quiet=True)"],
        cwd=tmp_path,
        stderr=subprocess.PIPE,
        text=True,
    )
    err = interrupt_after_two_generations(child, tmp_path / "stopped")
    assert "KeyboardInterrupt: stopped " in err and "resume with" in err, err
    assert not (tmp_path / "stopped" / "best.toml").exists()
    monkeypatch.chdir(tmp_path)
    stacktune.evolve(resume="stopped", quiet=True)
    stacktune.evolve(config, out="whole", quiet=True)
    assert read(tmp_path / "stopped") == read(tmp_path / "whole")


def test_progress_reaches_a_python_stderr_that_is_not_the_terminal(tmp_path, monkeypatch, capsys):
    """A notebook's sys.stderr is no file descriptor: the run's progress lines go to it."""
    monkeypatch.chdir(tmp_path)
    stacktune.evolve(CONFIG, out="shown", generations=1)
    err = capsys.readouterr().err
    assert "run folder: shown\n" in err
    assert "generation 0 (1 of 1 done): best " in err
