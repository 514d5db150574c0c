"""The Python functions are the library's jobs: their options are the jobs' options (checked by
the job, refused by name), a ParseError item of a batch is reported in place, and the thread
count is capped as the command line caps it."""

from __future__ import annotations

import time

import pytest

import sudokit
from conftest import DATA

MIXED = str(DATA / "mixed.txt")
P4 = "...3..4114..3..."


def test_options_are_the_jobs_options():
    with pytest.raises(TypeError, match="unexpected keyword argument 'bogus'"):
        sudokit.solve(P4, bogus=1)  # type: ignore[call-arg]
    with pytest.raises(ValueError, match="unknown keyword argument `bogus`"):
        sudokit.run("solve", "models/sudoku/4x4/kr_4x4_sample.txt", bogus=1)
    with pytest.raises(ValueError, match="time_limit must be a positive number"):
        sudokit.solve(P4, time_limit=-1)
    with pytest.raises(ValueError, match="threads must be at least 1"):
        sudokit.solve_many([P4], threads=0)
    with pytest.raises(ValueError, match="limit must be at least 1"):
        sudokit.count(P4, limit=0)
    # Every option is named as Python spells it, not as the command line's flag.
    with pytest.raises(ValueError, match="^encoding and amo go with backend sat, not dlx$"):
        sudokit.solve(P4, backend="dlx", encoding="minimal")
    with pytest.raises(ValueError, match="^scheme goes with backend cp"):
        sudokit.solve(P4, backend="dlx", scheme="HAC")
    with pytest.raises(ValueError, match="^proof_dir goes with backend sat"):
        sudokit.solve(P4, backend="dlx", proof_dir="/tmp/x")
    # The job's other options reach it: the sat backend with an encoding.
    assert sudokit.solve(P4, backend="sat", encoding="minimal").backend == "sat:minimal:pairwise"


def test_a_parse_error_item_is_a_record_in_place(in_repo):
    items = list(sudokit.read(MIXED, errors="yield"))
    bad = [i for i, p in enumerate(items) if isinstance(p, sudokit.ParseError)]
    assert bad, "the file has bad lines"
    results = sudokit.solve_many(items, threads=2)
    assert len(results) == len(items)
    for i, result in enumerate(results):
        if i in bad:
            assert result.status == "error" and str(items[i]) == result.reason
        else:
            assert result.status in ("solved", "unsat")


def test_threads_are_capped_as_on_the_command_line():
    start = time.monotonic()
    results = sudokit.solve_many([P4] * 3, threads=10**6)
    assert [r.status for r in results] == ["solved"] * 3
    # 4 threads per core at most (a million took 32 s to start); a bound with a wide margin.
    assert time.monotonic() - start < 10


def test_run_refuses_what_does_not_fit(in_repo, tmp_path):
    with pytest.raises(ValueError, match="unknown command"):
        sudokit.run("frobnicate", MIXED)
    with pytest.raises(ValueError, match="solve takes one input file"):
        sudokit.run("solve")
    with pytest.raises(ValueError, match="grade writes to standard output"):
        sudokit.run("grade", MIXED, out=tmp_path / "x", resume=True)
    with pytest.raises(sudokit.SudokitError, match="nothing to resume|no"):
        out = tmp_path / "done.txt"
        sudokit.run("solve", "models/sudoku/4x4/kr_4x4_sample.txt", out=out)
        sudokit.run("solve", "models/sudoku/4x4/kr_4x4_sample.txt", out=out, resume=True)


def test_generate_takes_the_job_s_difficulty_and_default_attempts():
    puzzle = sudokit.generate(box=(2, 2), seed=3, difficulty="easy")
    assert "FCI" in sudokit.grade(puzzle, schemes=["FCI"]).search_free
    assert sudokit.generate(box=(2, 2), seed=3) == sudokit.generate(box=(2, 2), seed=3, attempts=1000)
    with pytest.raises(ValueError, match="difficulty"):
        sudokit.generate(box=(2, 2), difficulty="impossible")


def test_run_writes_through_sys_stdout_and_a_path_for_every_command(cli, tmp_path):
    """What a notebook or ``redirect_stdout`` catches is the command line's output; a command
    with closing tables writes a path whole (no ``-o`` on its command line)."""
    import contextlib
    import io

    from conftest import REPO

    puzzles = str(REPO / "models/sudoku/9x9/easy.txt")
    for command, args in [("grade", {}), ("solve", {"unique": True})]:
        caught = io.StringIO()
        with contextlib.redirect_stdout(caught):
            tally = sudokit.run(command, puzzles, **args)
        flags = ["--unique"] if args else []
        code, expected = cli(command, puzzles, *flags)
        assert (caught.getvalue(), tally.exit_code) == (expected, code), command
    out = tmp_path / "grades.txt"
    sudokit.run("grade", puzzles, out=out)
    assert out.read_text() == cli("grade", puzzles)[1]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["grades.txt"], "no temporary left"
    with pytest.raises(sudokit.OptionError):
        sudokit.run("grade", puzzles, out=tmp_path / "bad.txt", schemes="nope")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["grades.txt"], "none after an error"
