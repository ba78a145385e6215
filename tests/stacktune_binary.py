"""The stacktune binary the Python tests of exports run (tests/kaggle, tests/contest_controller):
$STACKTUNE, else the release build of $CARGO_TARGET_DIR (default target/), which
`cargo build --release` makes."""

import os
import pathlib

ROOT = pathlib.Path(__file__).resolve().parents[1]


def stacktune():
    if "STACKTUNE" in os.environ:
        return os.environ["STACKTUNE"]
    target = pathlib.Path(os.environ.get("CARGO_TARGET_DIR", ROOT / "target"))
    return str(target / "release" / "stacktune")
