"""sudokit.explain: one propagation scheme's story on one puzzle, every step replayed by the
library's checker, the same as `sudokit explain`, and shown in a notebook as the page of frames."""

from __future__ import annotations

import base64
import gzip
import html
import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

import sudokit
from conftest import REPO


def test_step_one_places_every_given_and_the_contradiction_is_named():
    square = sudokit.Puzzle.parse("12...3...", latin=True)
    story = sudokit.explain(square)
    assert (story.scheme, story.ending) == ("FC", "contradiction")
    assert story.why == "the first scheme that proves it has no solution"
    assert len(story) == 2
    first, last = story.steps
    assert first["kind"] == "givens"
    assert first["placed"] == [[1, 1, 1], [1, 2, 2], [2, 3, 3]]
    assert last["text"].startswith("Contradiction: (1,3) has no candidate left")
    assert story.solution is None
    assert repr(story) == "Explanation(scheme='FC', steps=2, ending='contradiction')"


def test_the_same_story_as_the_command_line(cli):
    story = sudokit.explain("12.434.221.34321", scheme="FC")
    assert story.ending == "solved"
    assert sudokit.verify("12.434.221.34321", story.solution)
    code, out = cli("explain", "12.434.221.34321", "--scheme", "FC", "--json")
    assert code == 0
    assert story.to_json().splitlines() == out.splitlines()
    assert [json.loads(line) for line in out.splitlines()][:-1] == story.steps
    code, out = cli("explain", "12.434.221.34321", "--scheme", "FC")
    assert out.splitlines()[1:] == story.text().splitlines()


def test_a_stuck_story_names_the_branch_and_probes_carry_their_chain():
    xwing = (REPO / "models" / "sudoku" / "9x9" / "xwing.txt").read_text().splitlines()[0]
    stuck = sudokit.explain(xwing, scheme="HAC")
    assert stuck.ending == "search"
    row, column, value = stuck.ending_json["branch"]
    assert 1 <= row <= 9 and 1 <= column <= 9 and 1 <= value <= 9
    assert f"branching on ({row},{column})" in stuck.text()
    top100 = (REPO / "models" / "sudoku" / "9x9" / "top100.txt").read_text().splitlines()
    shaved = sudokit.explain([l for l in top100 if not l.startswith("#")][9])
    assert shaved.scheme == "BCV" and shaved.ending == "solved"
    probes = [step for step in shaved.steps if step["kind"] == "probe"]
    assert probes and all(p["chain"][-1]["kind"] == "contradiction" for p in probes)


def _page_of(shown: str) -> str:
    """The page a notebook cell's HTML carries (gzipped, in base64)."""
    packed = re.search(r'<div data-page="([A-Za-z0-9+/=]*)">', shown)
    assert packed, shown[:200]
    return gzip.decompress(base64.b64decode(packed.group(1))).decode()


def test_a_notebook_shows_the_frames_and_a_9x9_story_weighs_under_100_kb():
    story = sudokit.explain("12.434.221.34321")
    assert _page_of(story._repr_html_()) == story.html()
    assert story.html().count('<section class="slide frame"') == len(story) + 1
    hard = (REPO / "models" / "sudoku" / "9x9" / "top95.txt").read_text().splitlines()[2]
    long = sudokit.explain(hard)
    shown = long._repr_html_()
    assert len(long) >= 60 and len(long.html()) > 1_000_000, (len(long), len(long.html()))
    assert len(shown.encode()) < 100_000, len(shown)
    assert html.escape(long.text()) in shown  # what shows where scripts do not run


@pytest.mark.skipif(shutil.which("chromium") is None, reason="needs Debian's chromium")
def test_a_browser_unpacks_the_page_into_the_frame(tmp_path: Path) -> None:
    story = sudokit.explain("12.434.221.34321")
    cell = tmp_path / "cell.html"
    # The page of the cell, then a script that reports what the frame holds once it is set.
    cell.write_text("<!doctype html><html><body>" + story._repr_html_() + """<script>
      const f = document.querySelector("iframe");
      const wait = () => f.srcdoc ? document.body.setAttribute("data-got",
        f.srcdoc.length + " " + document.querySelectorAll("pre").length) : setTimeout(wait, 20);
      wait();</script></body></html>""")
    dom = subprocess.run(
        ["chromium", "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
         "--disable-background-networking", f"--user-data-dir={tmp_path / 'profile'}",
         "--virtual-time-budget=10000", "--dump-dom", cell.as_uri()],
        capture_output=True, text=True, timeout=120, check=True).stdout
    assert f'data-got="{len(story.html())} 0"' in dom, dom[-400:]


def test_a_scheme_that_does_not_exist_is_a_value_error():
    with pytest.raises(ValueError, match="unknown scheme 'XYZ'"):
        sudokit.explain("12.434.221.34321", scheme="XYZ")
    with pytest.raises(sudokit.ParseError):
        sudokit.explain("12.4")
