"""scripts/puyo_figures.py, which computes docs/puyo-beam.md's tables from `play --json`."""

from __future__ import annotations

import json
import subprocess
import sys

from conftest import REPO

SCRIPT = REPO / "scripts" / "puyo_figures.py"


def report(path, rows):
    path.write_text(json.dumps({"games": len(rows), "per_game": rows}))
    return str(path)


def figures(*paths):
    return subprocess.run(
        [sys.executable, str(SCRIPT), *paths], capture_output=True, text=True
    )


def game(chain, points, died=0, fired_at=None):
    row = {"game": "0", "score": chain, "max_chain": chain, "points": points, "died": died}
    if fired_at is not None:
        row["fired_at"] = fired_at
    return row


def test_a_row_holds_the_means_shares_and_fires(tmp_path):
    # Chains 10, 12, 14, 14: mean 12.5, sample sd 1.915, interval 1.96 * sd / 2 = 1.88; points
    # 40,000 to 90,000: mean 70,000, sample sd 24,495, interval 24,005.
    rows = [
        game(10, 40000, died=1, fired_at=0),
        game(12, 60000, fired_at=0),
        game(14, 90000, fired_at=30),
        game(14, 90000, fired_at=40),
    ]
    done = figures(report(tmp_path / "a.json", rows))
    assert done.returncode == 0, done.stderr
    row = done.stdout.splitlines()[2].split(" | ")
    assert row[1:] == [
        "4", "12.50 ± 1.88", "13", "75.0 %", "50.0 %", "70,000 ± 24,005", "1 (25.0 %)",
        "50.0 %", "35.0 |",
    ]


def test_a_later_report_is_paired_with_the_first(tmp_path):
    first = report(tmp_path / "a.json", [game(10, 1), game(12, 1)])
    later = report(tmp_path / "b.json", [game(11, 1), game(13, 1)])
    done = figures(first, later)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1].endswith("largest chain +1.00 ± 0.00 (paired)")


def test_a_file_that_is_no_report_is_one_line(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('{"games": 2}')
    done = figures(str(bad))
    assert done.returncode == 1
    assert done.stderr.strip() == (
        f"{bad}: no per_game rows: not a `play --json` report of Puyo games"
    )
