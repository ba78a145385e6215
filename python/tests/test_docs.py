"""The Python examples of docs/python.md, of README's Python section when it has one, and of
python/README.md (the package's page on PyPI) run as written from the repository root."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from conftest import REPO


def python_blocks(path):
    if not path.exists():
        return []
    return re.findall(r"```python\n(.*?)```", path.read_text(), flags=re.S)


DOCUMENTS = ["docs/python.md", "README.md", "python/README.md"]

BLOCKS = [
    (f"{name}#{i}", code)
    for name in DOCUMENTS
    for i, code in enumerate(python_blocks(REPO / name))
    if "stacktune.evolve(" not in code  # the notebook run's example, tested in test_evolve
]


def test_the_docs_have_the_ten_line_example():
    ten = [code for name, code in BLOCKS if name.startswith("docs")][0]
    assert len(ten.strip().splitlines()) == 10


@pytest.mark.parametrize("code", [c for _, c in BLOCKS], ids=[n for n, _ in BLOCKS])
def test_example_runs_as_written(code):
    done = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def test_the_examples_pass_mypy_strict(tmp_path):
    """The stubs describe what the examples do: `mypy --strict` finds nothing in any of them,
    the notebook run's example included (one run for all: mypy reads numpy's stubs once)."""
    files = []
    for name in DOCUMENTS:
        for i, code in enumerate(python_blocks(REPO / name)):
            files.append(tmp_path / f"{name.replace('/', '_').replace('.', '_')}_{i}.py")
            files[-1].write_text(code)
    assert len(files) >= 4
    done = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--cache-dir", str(tmp_path / "cache"), *map(str, files)],
        cwd=tmp_path, capture_output=True, text=True,
    )
    assert done.returncode == 0, done.stdout + done.stderr
