"""The exported controllers the tests play: `stacktune export contest` run on the shipped
contest weights into a temporary folder. The binary is tests/stacktune_binary.py's. The time
each move took is collected and reported at the end of the run."""

import pathlib
import subprocess
import sys

import pytest

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))
from stacktune_binary import ROOT, stacktune  # noqa: E402

#: Seconds per move, by level and weights file, over every game the tests played.
MOVE_SECONDS = {}


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
    for (level, weights), seconds in sorted(MOVE_SECONDS.items()):
        mean = sum(seconds) / len(seconds)
        terminalreporter.write_line(
            f"contest controller, level {level}, {weights}: {len(seconds)} moves, mean "
            f"{mean * 1000:.1f} ms, slowest {max(seconds) * 1000:.1f} ms a move "
            + ("(the engine ticks every 1 ms)" if level == 4 else "(the contest allows 1 s)")
        )
