"""Python that plugs into PySAT and networkx (the findings of the "native to PySAT and networkx"
issue, one test each): Clauses a sequence PySAT takes as it is, methods on Puzzle, one result
shape for decoding, the graph numbered as the exports number it and coloured back, range checks
as on the command line."""

from __future__ import annotations

import math

import pytest

import sudokit

FIRST = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"


def test_pysat_takes_clauses_as_they_are():
    pysat = pytest.importorskip("pysat.solvers")
    formula = pytest.importorskip("pysat.formula")
    p = sudokit.Puzzle.parse(FIRST)
    clauses = p.to_clauses()
    with pysat.Solver(name="minisat22", bootstrap_with=clauses) as solver:
        assert solver.solve()
        result = clauses.decode(solver.get_model())
    assert result.status == "solved" and p.verify(result.solution)
    cnf = formula.CNF(from_clauses=clauses)
    assert len(cnf.clauses) == len(clauses) and cnf.clauses[0] == clauses[0]
    assert clauses[-1] == list(clauses)[-1]
    assert clauses.to_pysat().nv == clauses.num_vars
    with pytest.raises(IndexError):
        clauses[len(clauses)]


def test_puzzle_methods_are_the_functions():
    p = sudokit.Puzzle.parse("...3..4114..3...")
    assert p.solve().solution == sudokit.solve(p).solution
    assert p.unique(backend="dlx").status == "unique"
    assert int(p.count(limit=5)) == 1
    assert p.export(to="cnf") == sudokit.export(p, to="cnf")
    assert p.grade().search_free == sudokit.grade(p).search_free
    assert p.verify(p.solve().solution)
    assert p.minimize(seed=1) == sudokit.minimize(p, seed=1)


def test_decoding_has_one_result_shape_and_takes_iterables():
    p = sudokit.Puzzle.parse(FIRST)
    clauses = p.to_clauses()
    solution = p.solve().solution
    model = [clauses.var(r, c, v) for r, c, v in solution.givens]
    from_clauses = clauses.decode(iter(model))
    from_function = sudokit.decode(p, (l for l in model))
    assert type(from_clauses) is type(from_function) is sudokit.SolveResult
    assert from_clauses.status == from_function.status == "solved"
    assert from_clauses.solution == from_function.solution == solution


def test_a_model_of_another_encoding_names_the_encoding():
    pysat = pytest.importorskip("pysat.solvers")
    p = sudokit.Puzzle.parse(FIRST)
    optimized = p.to_clauses(encoding="optimized")
    with pysat.Solver(name="minisat22", bootstrap_with=optimized) as solver:
        assert solver.solve()
        model = solver.get_model()
    assert optimized.decode(model).status == "solved"
    wrong = sudokit.decode(p, model)
    assert wrong.status in ("error", "invalid")
    if wrong.status == "error":
        assert "extended:pairwise" in wrong.reason and "encoding=" in wrong.reason


def test_networkx_colourings_round_trip_to_a_verified_puzzle():
    nx = pytest.importorskip("networkx")
    p = sudokit.Puzzle.parse("...3..4114..3...")
    graph = p.to_networkx()
    solution = p.solve().solution.to_grid()
    # The values as colours (the exports' `given` convention) ...
    by_value = {v: solution[(v - 1) // 4][(v - 1) % 4] for v in graph}
    assert sudokit.Puzzle.from_colouring(p, by_value) == p.solve().solution
    # ... or any labels: networkx's own colouring of the solved graph.
    solved = sudokit.Puzzle.parse(p.solve().solution.to_line()).to_networkx()
    greedy = nx.coloring.greedy_color(solved, strategy="largest_first")
    if len(set(greedy.values())) == 4:
        assert sudokit.Puzzle.from_colouring(p, greedy) == p.solve().solution
    labels = {v: f"colour-{c}" for v, c in by_value.items()}
    assert sudokit.Puzzle.from_colouring(p, labels) == p.solve().solution
    broken = dict(by_value)
    broken[1], broken[2] = broken[2], broken[1]
    with pytest.raises(ValueError):
        sudokit.Puzzle.from_colouring(p, broken)
    with pytest.raises(ValueError, match="node 16 has no colour"):
        sudokit.Puzzle.from_colouring(p, {v: c for v, c in by_value.items() if v != 16})


@pytest.mark.parametrize("cell", [-5, 0, 3.9, 201, math.nan, math.inf])
def test_svg_cell_is_range_checked_as_on_the_command_line(cell):
    p = sudokit.Puzzle.parse("...3..4114..3...")
    with pytest.raises(ValueError, match="cell must be between 4 and 200"):
        p.svg(cell=cell)
    assert p.svg(cell=4).startswith("<svg") or "<svg" in p.svg(cell=4)


def test_export_refuses_an_encoding_it_would_ignore():
    p = sudokit.Puzzle.parse("...3..4114..3...")
    with pytest.raises(ValueError, match="encoding goes with to cnf .* not with lp"):
        sudokit.export(p, to="lp", encoding="minimal")
    with pytest.raises(ValueError, match="amo goes with to cnf only, not with smt2"):
        sudokit.export(p, to="smt2", amo="pairwise")
    assert "(declare-fun" in sudokit.export(p, to="smt2", encoding="int")  # the CLI's checks
    # The backend's spelling of an encoding and its at-most-one.
    spelt = sudokit.to_clauses(p, encoding="minimal:sequential")
    assert spelt == sudokit.to_clauses(p, encoding="minimal", amo="sequential")
    assert spelt.encoding == ("minimal", "sequential")
    assert sudokit.export(p, to="cnf", encoding="minimal") != sudokit.export(p, to="cnf")


def test_unspaced_row_blocks_parse_as_one_grid():
    block = sudokit.Puzzle.parse("1...\n..1.\n.1..\n....")
    assert block.order == 4 and block.givens == [(1, 1, 1), (2, 3, 1), (3, 2, 1)]
    nine = "\n".join(FIRST[i:i + 9] for i in range(0, 81, 9))
    assert sudokit.Puzzle.parse(nine) == sudokit.Puzzle.parse(FIRST)
    with pytest.raises(sudokit.ParseError, match="more than one puzzle"):
        sudokit.Puzzle.parse("...3..4114..3...\n...3..4114..3...")
