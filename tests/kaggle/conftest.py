"""The exported agent the tests play: `stacktune export kaggle` run on the shipped connect
weights into a temporary folder. The binary is tests/stacktune_binary.py's."""

import pathlib
import subprocess
import sys

import pytest

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))
from stacktune_binary import ROOT, stacktune  # noqa: E402


@pytest.fixture(scope="session")
def submission(tmp_path_factory):
    out = tmp_path_factory.mktemp("export") / "submission.py"
    weights = ROOT / "weights" / "connect" / "evolved.toml"
    subprocess.run(
        [stacktune(), "export", "kaggle", "--weights", str(weights), "--out", str(out)],
        check=True,
    )
    return str(out)
