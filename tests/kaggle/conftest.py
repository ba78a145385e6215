"""The exported agent the tests play: `stacktune export kaggle` run on the shipped connect
weights into a temporary folder. The binary is $STACKTUNE, else the release build of
$CARGO_TARGET_DIR (default target/), which `cargo build --release` makes."""

import os
import pathlib
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]


def stacktune():
    if "STACKTUNE" in os.environ:
        return os.environ["STACKTUNE"]
    target = pathlib.Path(os.environ.get("CARGO_TARGET_DIR", ROOT / "target"))
    return str(target / "release" / "stacktune")


@pytest.fixture(scope="session")
def submission(tmp_path_factory):
    out = tmp_path_factory.mktemp("export") / "submission.py"
    weights = ROOT / "weights" / "connect" / "evolved.toml"
    subprocess.run(
        [stacktune(), "export", "kaggle", "--weights", str(weights), "--out", str(out)],
        check=True,
    )
    return str(out)
