"""Results are values: every result type pickles (so multiprocessing and Dask can return it),
compares by value, and shows its value; Explanation and Clauses are sequences; a Puzzle is
constructed from text and indexed by cell."""

from __future__ import annotations

import copy
import multiprocessing
import pickle
import subprocess
import sys
import textwrap

import pytest

import sudokit
from conftest import REPO

TOP95 = REPO / "models/sudoku/9x9/top95.txt"
SMALL = REPO / "models/sudoku/4x4/kr_4x4_sample.txt"


def lines(path, k):
    return [line.strip() for line in path.read_text().splitlines() if line.strip()][:k]


def round_trip(value):
    back = pickle.loads(pickle.dumps(value))
    assert type(back) is type(value)
    assert back == value and not (back != value)
    assert hash(back) == hash(value)
    assert repr(back) == repr(value)
    return back


def every_result():
    p = sudokit.Puzzle(lines(SMALL, 1)[0])
    hard = sudokit.Puzzle(lines(TOP95, 4)[3])  # native searches it
    solution = p.solve().solution
    assert solution is not None
    wrong = sudokit.Puzzle.parse("1134341221434321", allow_clashes=True)
    latin = sudokit.Puzzle.parse("1.......3", latin=True)
    return {
        "Puzzle": p,
        "Shape": p.shape,
        "latin Shape": latin.shape,
        "Stats": hard.solve().stats,
        "SolveResult": p.solve(),
        "unique SolveResult": p.unique(),
        "multiple SolveResult": sudokit.unique("1...............", backend="dlx"),
        "unsat SolveResult": sudokit.solve("12.....3.......4"),
        "error SolveResult": sudokit.decode(p, [p.to_clauses().var(1, 1, 1) or 0]),
        "unknown SolveResult": sudokit.solve(hard, node_limit=1),
        "CountResult": p.count(),
        "inexact CountResult": sudokit.count("1...............", limit=3),
        "Verification": p.verify(solution),
        "failed Verification": p.verify(wrong),
        "Grade": p.grade(),
        "Clauses": p.to_clauses(encoding="efficient", amo="sequential"),
        "Explanation": p.explain(),
        "LatinReduction": sudokit.reduce_latin(latin),
    }


@pytest.mark.parametrize("name", list(every_result()))
def test_every_result_pickles_to_an_equal_value(name):
    value = every_result()[name]
    back = round_trip(value)
    assert copy.deepcopy(value) == value or name == "Clauses"  # Clauses copy to lists


def test_a_pickled_result_keeps_what_it_says():
    hard = sudokit.Puzzle(lines(TOP95, 4)[3])  # native searches it
    result = hard.unique()
    back = pickle.loads(pickle.dumps(result))
    assert back.status == "unique" and back.solution == result.solution
    assert back.refutation == result.refutation and back.certified is True
    assert back.stats == result.stats and back.stats.nodes > 1
    assert back.puzzle == hard and back.backend == result.backend
    count = pickle.loads(pickle.dumps(sudokit.count("1...............", limit=3)))
    assert count.count == 3 and not count.exact and count.hit_limit
    assert len(count.solutions) == 2
    unknown = pickle.loads(pickle.dumps(sudokit.solve(hard, node_limit=1)))
    assert unknown.status == "unknown" and unknown.reason == "node limit"
    failed = pickle.loads(pickle.dumps(sudokit.verify("1...............", "1134341221434321")))
    assert failed.kind == "repeated" and failed.unit is not None


def test_results_compare_by_value():
    p = sudokit.Puzzle(lines(SMALL, 1)[0])
    assert sudokit.solve(p) == sudokit.solve(p)
    assert sudokit.solve(p) != sudokit.solve(lines(SMALL, 2)[1])
    assert sudokit.solve(p) != sudokit.solve(p, backend="dlx")  # another backend said it
    assert p.solve() != p.unique()  # "solved" is not "unique"
    assert len({p.solve(), p.solve(), p.unique()}) == 2
    assert p.grade() == p.grade() and p.explain() == p.explain()
    assert p.explain(scheme="FC") != p.explain(scheme="HAC")
    assert p.to_clauses() == p.to_clauses()
    assert p.to_clauses() != p.to_clauses(encoding="minimal")
    assert sudokit.reduce_latin("1.......3") == sudokit.reduce_latin("1.......3")
    assert sudokit.reduce_latin("1.......3") != sudokit.reduce_latin("1.......2")


def test_a_count_is_its_int_and_a_verification_its_bool():
    p = sudokit.Puzzle(lines(SMALL, 1)[0])
    assert p.count() == 1 and 1 == p.count() and p.count() != 2
    assert hash(p.count()) == hash(1) and {p.count(): "x"}[1] == "x"
    assert sudokit.count("1...............", limit=5) == 5
    solution = p.solve().solution
    assert solution is not None
    assert p.verify(solution) == True  # noqa: E712 - the comparison is the point
    assert p.verify("1134341221434321") == False  # noqa: E712
    assert p.verify("1134341221434321") != True  # noqa: E712
    assert p.verify(solution) != p.verify("1134341221434321")


def test_reprs_show_the_value():
    p = sudokit.Puzzle(lines(SMALL, 1)[0])
    assert "status='solved'" in repr(p.solve()).replace('"', "'")
    assert "count=1" in repr(p.count())
    assert repr(p.verify("1134341221434321")).startswith("Verification(valid=False")
    assert repr(p.shape) == "Shape(box=(2, 2))"
    assert "search_free=" in repr(p.grade())


def _solution_lines(results):
    return [r.solution.to_line() if r.solution is not None else r.status for r in results]


def test_a_process_pool_maps_solve():
    puzzles = lines(TOP95, 6)
    expected = _solution_lines(sudokit.solve_many(puzzles))
    with multiprocessing.get_context("spawn").Pool(2) as pool:
        results = pool.map(sudokit.solve, puzzles, chunksize=1)
    assert [r.status for r in results] == ["solved"] * 6
    assert _solution_lines(results) == expected
    assert results == sudokit.solve_many(puzzles)


@pytest.mark.parametrize("scheduler", ["processes", "threads"])
def test_a_dask_bag_maps_solve(scheduler):
    """In a child process with a timeout: a result that does not pickle once made the bag hang."""
    puzzles = lines(TOP95, 6)
    expected = _solution_lines(sudokit.solve_many(puzzles))
    code = textwrap.dedent(
        f"""
        import dask.bag, sudokit
        if __name__ == "__main__":
            puzzles = {puzzles!r}
            bag = dask.bag.from_sequence(puzzles, npartitions=3).map(sudokit.solve)
            results = bag.compute(scheduler={scheduler!r}, num_workers=2)
            assert results == sudokit.solve_many(puzzles), results
            for r in results:
                print(r.solution.to_line())
        """
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, cwd=REPO
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == expected


def test_an_explanation_is_a_sequence_of_steps():
    e = sudokit.explain(lines(TOP95, 1)[0])
    steps = e.steps
    assert len(e) == len(steps) > 3
    assert list(e) == steps
    assert e[0] == steps[0] and e[0]["step"] == 1
    assert e[-1] == steps[-1] and e[-len(e)] == steps[0]
    assert e[1:3] == steps[1:3] and isinstance(e[1:3], list)
    assert e[::-1] == steps[::-1] and e[5:2] == []
    with pytest.raises(IndexError):
        e[len(e)]
    with pytest.raises(IndexError):
        e[-len(e) - 1]
    with pytest.raises(TypeError):
        e["1"]  # type: ignore[call-overload]


def test_clauses_are_a_sequence_of_clauses():
    c = sudokit.to_clauses(lines(SMALL, 1)[0])
    every = c.clauses
    assert len(c) == len(every) and list(c) == every
    assert c[0] == every[0] and c[-1] == every[-1]
    assert c[2:7] == every[2:7] and c[::-50] == every[::-50]
    assert isinstance(c[2:7], list) and all(isinstance(x, list) for x in c[2:7])
    with pytest.raises(IndexError):
        c[len(c)]
    with pytest.raises(IndexError):
        c[2**80]
    with pytest.raises(TypeError):
        c[1.0]  # type: ignore[call-overload]


def test_a_puzzle_is_constructed_and_indexed():
    line = lines(SMALL, 1)[0]  # ...3..4114..3...
    p = sudokit.Puzzle(line)
    assert p == sudokit.Puzzle.parse(line)
    assert sudokit.Puzzle("1.......3", latin=True).shape.latin
    with pytest.raises(sudokit.ParseError):
        sudokit.Puzzle("11..............")
    assert sudokit.Puzzle("11..............", allow_clashes=True)[0, 1] == 1
    assert len(p) == 4 == len(list(p))
    rows = list(p)
    assert rows == [[None, None, None, 3], [None, None, 4, 1], [1, 4, None, None], [3, None, None, None]]
    assert rows == [[v or None for v in row] for row in p.to_grid()]
    assert p[0, 3] == 3 and p[0, 0] is None and p[-1, 0] == 3 and p[2, -3] == 4
    for index in [(4, 0), (0, 4), (-5, 0), (0, 2**70)]:
        with pytest.raises(IndexError):
            p[index]
    for bad in [0, (0,), (0, 1, 2), ("0", 1), (0.0, 1), slice(0, 2)]:
        with pytest.raises(TypeError):
            p[bad]  # type: ignore[index]


def test_results_are_the_records_of_the_command_line(cli, tmp_path):
    """A result's fields are its job's record: what `--json` writes for the same puzzle."""
    import dataclasses
    import inspect
    import json

    def written(*args, **texts):
        paths = []
        for name, text in texts.items():
            (tmp_path / name).write_text(text + "\n")
            paths.append(str(tmp_path / name))
        return json.loads(cli(*args, "--json", *paths)[1].splitlines()[0])

    line = lines(TOP95, 4)[3]
    record = written("solve", "--unique", puzzle=line)
    result = sudokit.unique(line)
    assert dataclasses.is_dataclass(result) and result.status == record["status"]
    assert result.refutation == record["refutation"]["text"] == "exhausted search"
    assert result.certified is record["certified"] is True
    assert result.solution is not None and result.solution.to_line() == record["solution"]
    for counter in ("nodes", "guesses", "backtracks", "propagations"):
        assert getattr(result.stats, counter) == record["stats"][counter]
    assert sudokit.grade(line).difficulty == written("grade", puzzle=line)["difficulty"]
    p, candidate = lines(SMALL, 1)[0], "1134341221434321"
    record = written("verify", puzzle=p, candidate=candidate)
    failed = sudokit.verify(p, candidate)
    assert (failed.kind, list(failed.unit or ())) == (record["kind"], record["unit"])
    assert failed.violation == record["violation"] and failed.kind == "repeated"
    # A puzzle's methods are the module's functions, keywords and docs alike.
    assert "backend" in inspect.signature(sudokit.Puzzle.solve).parameters
    assert sudokit.Puzzle.count.__doc__ == sudokit.count.__doc__
