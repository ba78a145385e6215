"""Shared helpers: the repository, and the `stacktune` binary the Python results are compared
with (built by `cargo build --release`; STACKTUNE_BIN names another)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


def _binary() -> Path:
    if "STACKTUNE_BIN" in os.environ:
        return Path(os.environ["STACKTUNE_BIN"])
    target = Path(os.environ.get("CARGO_TARGET_DIR", REPO / "target"))
    return target / "release" / "stacktune"


@pytest.fixture(scope="session")
def cli():
    """Runs the stacktune binary in the repository and returns its standard output."""
    binary = _binary()
    if not binary.exists():
        pytest.fail(f"no stacktune binary at {binary}: run `cargo build --release` first")

    def run(*args: str) -> str:
        done = subprocess.run(
            [str(binary), *args], cwd=REPO, capture_output=True, text=True, check=False
        )
        assert done.returncode == 0, done.stderr
        return done.stdout

    return run


@pytest.fixture(scope="session")
def cli_json(cli):
    return lambda *args: json.loads(cli(*args))


def interrupt_after_two_generations(child: subprocess.Popen, folder: Path) -> str:
    """Sends a real SIGINT to `child`, a Python running a run into `folder`, once the run's
    history holds two generations; returns its standard error after it ended, as Python ends
    on KeyboardInterrupt."""
    history = folder / "history.csv"
    while not (history.exists() and len(history.read_text().splitlines()) > 2):
        assert child.poll() is None, "the run ended before it could be interrupted"
        time.sleep(0.01)
    child.send_signal(signal.SIGINT)
    _, err = child.communicate(timeout=300)
    assert child.returncode == -signal.SIGINT, err
    return err
