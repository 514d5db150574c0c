"""The course notebook runs from top to bottom (nbclient), so it cannot rot: every cell
executes, and the pictures come out."""

from __future__ import annotations

import pytest

from conftest import REPO


def test_course_notebook_executes():
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    notebook = nbformat.read(REPO / "examples" / "course.ipynb", as_version=4)
    client = nbclient.NotebookClient(
        notebook,
        timeout=300,
        kernel_name="python3",
        resources={"metadata": {"path": str(REPO / "examples")}},
    )
    client.execute()
    outputs = [o for cell in notebook.cells if cell.cell_type == "code" for o in cell.outputs]
    assert not [o for o in outputs if o.output_type == "error"]
    mimes = [m for o in outputs for m in o.get("data", {})]
    assert mimes.count("image/svg+xml") >= 5
    assert "text/html" in mimes
    text = "".join(o.get("text", "") for o in outputs)
    assert "completion of L valid: True" in text and "sat: unsat" in text
