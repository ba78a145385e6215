"""Shared helpers: the repository, and the `stacktune` binary the Python results are compared
with (built by `cargo build --release`; STACKTUNE_BIN names another)."""

from __future__ import annotations

import json
import os
import subprocess
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
