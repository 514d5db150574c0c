"""sudokit.explain: one propagation scheme's story on one puzzle, every step replayed by the
library's checker, the same as `sudokit explain`, and shown in a notebook as the page of frames."""

from __future__ import annotations

import json

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


def test_a_notebook_shows_the_frames():
    story = sudokit.explain("12.434.221.34321")
    html = story._repr_html_()
    assert html.startswith("<iframe srcdoc=")
    assert "id=&quot;step-1&quot;" in html and "id=&quot;end&quot;" in html
    assert story.html().count('<section class="slide frame"') == len(story) + 1


def test_a_scheme_that_does_not_exist_is_a_value_error():
    with pytest.raises(ValueError, match="unknown scheme 'XYZ'"):
        sudokit.explain("12.434.221.34321", scheme="XYZ")
    with pytest.raises(sudokit.ParseError):
        sudokit.explain("12.4")
