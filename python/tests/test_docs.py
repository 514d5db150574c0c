"""Every Python example of the README and of the guide (``docs/src``) runs as shown, so the
documentation cannot drift from the package; its printed lines are compared where the block says
what they are (a ``# prints: ...`` comment)."""

from __future__ import annotations

import contextlib
import io
import re
import subprocess
import sys

import pytest

from conftest import REPO

FENCE = re.compile(r"^```python\n(.*?)^```", re.S | re.M)


def python_blocks():
    files = [REPO / "README.md", REPO / "python" / "README.md"]
    files += sorted((REPO / "docs" / "src").glob("*.md"))
    for path in files:
        text = path.read_text()
        for match in FENCE.finditer(text):
            if "dask_jobqueue" in match.group(1):  # needs a batch cluster
                continue
            line = text.count("\n", 0, match.start()) + 1
            yield pytest.param(match.group(1), id=f"{path.relative_to(REPO)}:{line}")


def test_the_documentation_has_python_examples():
    assert len(list(python_blocks())) >= 2


@pytest.mark.parametrize("code", list(python_blocks()))
def test_python_example_runs(code, monkeypatch):
    monkeypatch.chdir(REPO)
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(compile(code, "<example>", "exec"), {"__name__": "__example__"})
    expected = re.findall(r"# prints: (.*)$", code, re.M)
    if expected:
        assert printed.getvalue().splitlines() == expected


def test_the_package_examples_run_as_doctests(monkeypatch):
    """The docstrings' examples (``>>>``) of the package and its functions."""
    import doctest

    import sudokit
    import sudokit.dask

    monkeypatch.chdir(REPO)
    for module in (sudokit, sudokit.dask):
        failed, tried = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
        assert failed == 0, f"{failed} of {tried} examples of {module.__name__} failed"
    failed, tried = doctest.testmod(sudokit)
    assert tried >= 5


def test_the_examples_type_check(tmp_path):
    """Every Python example of the README files and the guide type-checks with mypy against
    the package's stubs (PySAT and networkx, which have none, are taken as they are)."""
    api = pytest.importorskip("mypy.api")
    blocks = python_blocks()
    for k, block in enumerate(blocks):
        (tmp_path / f"example_{k}.py").write_text(block.values[0])
    out, err, code = api.run([
        "--ignore-missing-imports", "--no-error-summary", "--follow-imports=silent",
        "--cache-dir", str(tmp_path / ".mypy_cache"), str(tmp_path),
    ])
    assert code == 0, out + err


def test_the_package_passes_strict_mypy_and_stubtest_and_refuses_a_misspelt_keyword(tmp_path):
    """``mypy --strict`` and ``stubtest`` pass on the package (its stubs and its Python); through
    the stubs, mypy refuses a keyword no call takes."""
    api = pytest.importorskip("mypy.api")
    cache = ["--cache-dir", str(tmp_path / ".mypy_cache")]
    # By name, as installed (a path into site-packages would make site-packages the root).
    out, err, code = api.run(["--strict", *cache, "-p", "sudokit"])
    assert code == 0, out + err
    wrong = tmp_path / "misspelt.py"
    wrong.write_text('import sudokit\nsudokit.solve("1...", backnd="dlx")\n')
    out, err, code = api.run(["--strict", *cache, str(wrong)])
    assert code == 1 and 'Unexpected keyword argument "backnd"' in out, out + err
    # read's items are puzzles, unless errors="yield" puts a ParseError in place of a bad one.
    reading = tmp_path / "reading.py"
    reading.write_text('import sudokit\nfor q in sudokit.read("f"):\n    q.to_line()\n'
                       'for r in sudokit.read("f", errors="yield"):\n    r.to_line()\n')
    out, err, code = api.run(["--strict", *cache, str(reading)])
    assert code == 1 and out.count("error:") == 1 and 'reading.py:5: error: Item "ParseError"' in out, out
    # stubtest: the stubs of the extension module against the module as it runs (each
    # function's and class's parameters, what is final, what the module exports).
    checked = subprocess.run([sys.executable, "-m", "mypy.stubtest", "sudokit", "--concise"],
                             cwd=tmp_path, capture_output=True, text=True)
    assert checked.returncode == 0, checked.stdout + checked.stderr
