"""Every Python example of the README and of the guide (``docs/src``) runs as shown, so the
documentation cannot drift from the package; its printed lines are compared where the block says
what they are (a ``# prints: ...`` comment)."""

from __future__ import annotations

import contextlib
import io
import re

import pytest

from conftest import REPO

FENCE = re.compile(r"^```python\n(.*?)^```", re.S | re.M)


def python_blocks():
    files = [REPO / "README.md"] + sorted((REPO / "docs" / "src").glob("*.md"))
    for path in files:
        text = path.read_text()
        for match in FENCE.finditer(text):
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
