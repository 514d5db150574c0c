"""Regions through Python and Dask: the `regions=` and `extra=` keywords read a jigsaw and an
X-Sudoku as the command line's `--regions` and `--extra` do, with the same answers, the same
errors (as `OptionError`, with the map's line and column) and the same generated puzzles."""

from __future__ import annotations

import io

import pytest

import sudokit
from conftest import REPO

JIGSAW = "models/variants/janko_chaos_108.txt"
MAP = "models/variants/janko_chaos_108.regions"
X = "models/variants/x_sudoku_18.txt"
SOLUTION = "845279361359162784281395476467918235574623918136754829928536147792481653613847592"


def test_a_jigsaw_reads_with_its_map_as_text_or_rows():
    text = (REPO / MAP).read_text()
    puzzle = sudokit.Puzzle((REPO / JIGSAW).read_text(), regions=text)
    assert str(puzzle.shape) == "9×9 (jigsaw regions)"
    assert puzzle.shape.box is None and not puzzle.shape.latin
    assert puzzle.shape.regions[0] == "111112222"
    assert puzzle.solve().solution.to_line() == SOLUTION
    rows = [r for r in text.splitlines() if not r.startswith("#")]
    assert sudokit.Puzzle(puzzle.to_line(), regions=rows).shape == puzzle.shape
    # The repr reads back.
    again = eval(repr(puzzle), {"Puzzle": sudokit.Puzzle})
    assert again.shape == puzzle.shape and again.to_line() == puzzle.to_line()


def test_an_x_sudoku_is_unique_with_its_diagonals_only():
    line = (REPO / X).read_text()
    x = sudokit.Puzzle(line, extra="diagonals")
    assert x.shape.extra == ("diagonals",) and x.shape.box == (3, 3)
    assert x.count().count == 1
    assert sudokit.Puzzle(line).count(limit=2).count == 2


def test_bad_regions_are_option_errors_with_their_place():
    with pytest.raises(sudokit.OptionError, match=r"regions: 2:2: the cell is in no region"):
        sudokit.Puzzle("1234", regions=["12", "1."])
    with pytest.raises(sudokit.OptionError, match=r"extra: unknown extra units diagonal"):
        sudokit.Puzzle("1234", extra="diagonal")
    with pytest.raises(sudokit.OptionError, match=r"latin or regions"):
        sudokit.Puzzle("1234", latin=True, extra="diagonals")


def test_run_and_generate_take_the_keywords_as_the_command_line(cli, in_repo):
    code, expected = cli("solve", "--regions", MAP, JIGSAW)
    out = io.StringIO()
    import contextlib
    with contextlib.redirect_stdout(out):
        tally = sudokit.run("solve", JIGSAW, regions=(REPO / MAP).read_text())
    assert out.getvalue() == expected and tally.exit_code == code == 0
    records = sudokit.records("count", X, extra=["diagonals"])
    assert [r.text.strip() for r in records] == ["1"]
    _, generated = cli("generate", "--box", "3x3", "--extra", "diagonals", "--seed", "4")
    puzzle = sudokit.generate(box=(3, 3), extra="diagonals", seed=4)
    assert puzzle.to_line() == generated.strip()
    assert puzzle.count().count == 1


def test_dask_reads_with_the_regions(cli, client, in_repo):
    sd = pytest.importorskip("sudokit.dask")
    code, expected = cli("solve", "--unique", "--extra", "diagonals", X)
    out = io.StringIO()
    tally = sd.run("solve", X, out=out, client=client, extra="diagonals", unique=True,
                   shard_size=1)
    assert out.getvalue() == expected and tally.exit_code == code
    code, expected = cli("solve", "--regions", MAP, JIGSAW)
    out = io.StringIO()
    sd.run("solve", JIGSAW, out=out, client=client, regions=(REPO / MAP).read_text())
    assert out.getvalue() == expected
