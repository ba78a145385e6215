"""The exported agents the tests play: `stacktune export kaggle` run on the shipped connect
weights into a temporary folder, without and with an endgame stage. The binary is
tests/stacktune_binary.py's."""

import pathlib
import subprocess
import sys

import pytest

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))
from stacktune_binary import ROOT, stacktune  # noqa: E402


def export(tmp_path_factory, *extra):
    out = tmp_path_factory.mktemp("export") / "submission.py"
    weights = ROOT / "weights" / "connect" / "evolved.toml"
    subprocess.run(
        [stacktune(), "export", "kaggle", "--weights", str(weights), "--out", str(out), *extra],
        check=True,
    )
    return str(out)


@pytest.fixture(scope="session")
def submission(tmp_path_factory):
    return export(tmp_path_factory)


@pytest.fixture(scope="session")
def submission_with_endgame(tmp_path_factory):
    """The endgame stage from 22 empty cells, docs/export.md's advice for Kaggle."""
    return export(tmp_path_factory, "--endgame", "22")
