"""docs/notebooks/: each notebook is kept in git without outputs, and runs from top to bottom
against the installed package as a reader runs it (from its own folder)."""

from __future__ import annotations

import json

import nbformat
import pytest
from nbclient import NotebookClient

from conftest import REPO

NOTEBOOKS = sorted((REPO / "docs" / "notebooks").glob("*.ipynb"))


def test_the_docs_have_a_notebook():
    assert [p.name for p in NOTEBOOKS] == ["tune-tetris.ipynb"]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.name for p in NOTEBOOKS])
def test_the_notebook_is_stored_without_outputs(path):
    notebook = json.loads(path.read_text())
    code = [cell for cell in notebook["cells"] if cell["cell_type"] == "code"]
    assert code
    for cell in code:
        assert (cell["outputs"], cell["execution_count"]) == ([], None), "".join(cell["source"])[:60]
        assert cell["metadata"] == {}


def printed(notebook) -> str:
    return "".join(
        output.get("text", "")
        for cell in notebook.cells
        if cell.cell_type == "code"
        for output in cell.outputs
        if output.output_type == "stream" and output.name == "stdout"
    )


def test_the_tuning_notebook_runs_to_its_tuned_player():
    path = REPO / "docs" / "notebooks" / "tune-tetris.ipynb"
    notebook = nbformat.read(path, as_version=4)
    client = NotebookClient(
        notebook, timeout=600, kernel_name="python3", resources={"metadata": {"path": str(path.parent)}}
    )
    client.execute()
    text = printed(notebook)
    # The figures its text quotes.
    assert "200 games: 83.0 ± 9.5 lines" in text
    assert "tuned, on the same 200 held-out games: 122.8 ± 16.1 lines" in text
    assert "stacktune play --weights " in text
    figures = [o for cell in notebook.cells if cell.cell_type == "code" for o in cell.outputs if "image/png" in o.get("data", {})]
    assert len(figures) == 1
