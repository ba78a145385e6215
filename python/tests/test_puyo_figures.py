"""scripts/puyo_figures.py, which computes docs/notes/puyo.md's tables from `play --json`."""

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
    # Chains 10, 12, 14, 14: mean 12.5, sample sd 1.915, interval t(3) * sd / 2 = 3.1824 *
    # 0.9574 = 3.05; points 40,000 to 90,000: mean 70,000, sample sd 24,495, interval 38,977.
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
        "4", "12.50 ± 3.05", "13", "75.0 %", "50.0 %", "70,000 ± 38,977", "1 (25.0 %)",
        "50.0 %", "35.0 |",
    ]


def test_the_chain_interval_is_the_one_play_reports(tmp_path, cli_json):
    """With `--fitness max_chain` a game's score is its largest chain, so the script's chain
    cell must be play's own mean and ci95 (Student's t), here with 11 degrees of freedom."""
    played = cli_json(
        "play", "--json", "--quiet", "--weights", "weights/puyo/tsu-1ply.toml",
        "--fitness", "max_chain", "--max-pieces", "40", "--games", "12", "--seed", "5",
    )
    path = tmp_path / "played.json"
    path.write_text(json.dumps(played))
    done = figures(str(path))
    assert done.returncode == 0, done.stderr
    chain = done.stdout.splitlines()[2].split(" | ")[2]
    assert played["ci95"] > 0
    assert chain == f"{played['mean']:.2f} ± {played['ci95']:.2f}"


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
