"""The exported controllers the tests play: `stacktune export contest` run on the shipped
contest weights into a temporary folder. The binary is $STACKTUNE, else the release build of
$CARGO_TARGET_DIR (default target/), which `cargo build --release` makes. The time each move
took is collected and reported at the end of the run."""

import os
import pathlib
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
#: Seconds per move, by level, over every game the tests played.
MOVE_SECONDS = {}


def stacktune():
    if "STACKTUNE" in os.environ:
        return os.environ["STACKTUNE"]
    target = pathlib.Path(os.environ.get("CARGO_TARGET_DIR", ROOT / "target"))
    return str(target / "release" / "stacktune")


@pytest.fixture(scope="session")
def export(tmp_path_factory):
    """Exports a weights file (a path from the repository root) and returns the controller."""
    folder = tmp_path_factory.mktemp("export")

    def run(weights):
        out = folder / (pathlib.Path(weights).stem + ".py")
        if not out.exists():
            subprocess.run(
                [stacktune(), "export", "contest", "--weights", str(ROOT / weights),
                 "--out", str(out)],
                check=True, stdout=subprocess.DEVNULL,
            )
        return str(out)

    return run


@pytest.fixture(scope="session")
def move_seconds():
    return MOVE_SECONDS


def pytest_terminal_summary(terminalreporter):
    for level, seconds in sorted(MOVE_SECONDS.items()):
        mean = sum(seconds) / len(seconds)
        terminalreporter.write_line(
            f"contest controller, level {level}: {len(seconds)} moves, mean "
            f"{mean * 1000:.1f} ms, slowest {max(seconds) * 1000:.1f} ms a move "
            "(the contest allows 1 s)"
        )
