"""The Python API against the command line on the repository's own files: the same answers, the
same exports, the same grades, the same generated puzzles; and the Python side's own contracts
(errors with their place, the interop with PySAT and networkx, pictures, Ctrl-C)."""

from __future__ import annotations

import json
import pickle
import threading
import time
import _thread

import shutil

import pytest

import sudokit
from conftest import DATA, REPO

TOP95 = "models/sudoku/9x9/top95.txt"
EASY = "models/sudoku/9x9/easy.txt"
SIX = "models/sudoku/6x6/puzzles.txt"
FIRST = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"


def lines_of(path: str) -> list[str]:
    return [l for l in (REPO / path).read_text().split() if not l.startswith("#")]


def test_puzzle_parse_forms_and_shape():
    p = sudokit.Puzzle.parse(FIRST)
    assert p.shape.box == (3, 3) and p.order == 9 and p.shape.cells == 81
    assert p.to_line() == FIRST
    assert len(p.givens) == sum(c != "." for c in FIRST)
    assert p.givens[0] == (1, 1, 4)
    assert sudokit.Puzzle.parse(p.to_block()) == p
    assert sudokit.Puzzle.parse(p.to_json()) == p
    assert sudokit.Puzzle.from_grid(p.to_grid()) == p
    assert pickle.loads(pickle.dumps(p)) == p
    latin = sudokit.Puzzle.parse("1.......3", latin=True)
    assert latin.shape.latin and latin.shape.box is None
    six = sudokit.Puzzle.parse(lines_of(SIX)[0])
    assert six.shape.box == (2, 3)
    assert sudokit.Puzzle.parse("." * 36, box=(3, 2)).shape.box == (3, 2)
    assert "<svg" in p._repr_svg_() and p._repr_svg_().count('class="cell') == 81


def test_bad_text_raises_parse_error_with_line_and_column():
    with pytest.raises(sudokit.ParseError) as caught:
        sudokit.Puzzle.parse("# comment\n1..1............\n")
    error = caught.value
    assert (error.line, error.column) == (2, 4)
    assert "clashing givens" in error.message and error.path is None
    with pytest.raises(sudokit.ParseError) as caught:
        sudokit.Puzzle.parse("1.x.")
    assert (caught.value.line, caught.value.column) == (1, 3)
    with pytest.raises(ValueError):
        sudokit.Puzzle.from_grid([[1, 2], [3]])
    with pytest.raises(ValueError):
        sudokit.solve(FIRST, backend="quantum")
    # A box that does not fit is the keyword's error; a candidate is read in its puzzle's shape.
    with pytest.raises(sudokit.OptionError, match=r"box=\(2, 4\) does not fit the text's order 9"):
        sudokit.Puzzle("." * 81, box=(2, 4))
    small = sudokit.Puzzle("1.....3.........")
    with pytest.raises(sudokit.ParseError, match=r"not a grid of the puzzle's shape, 4×4 .* \(16 cells\)"):
        small.verify("1234")


def test_read_streams_a_file_and_places_every_error(cli):
    path = DATA / "mixed.txt"
    _, out = cli("solve", "--json", str(path))
    expected_errors = [json.loads(l) for l in out.splitlines() if '"column"' in l]
    assert len(expected_errors) == 5
    got = list(sudokit.read(path, errors="yield"))
    errors = [e for e in got if isinstance(e, sudokit.ParseError)]
    assert [(e.line, e.column) for e in errors] == [
        (e["line"], e["column"]) for e in expected_errors
    ]
    assert all(e.path == str(path) for e in errors)
    puzzles = [p for p in got if isinstance(p, sudokit.Puzzle)]
    assert len(puzzles) == len(list(sudokit.read(path, errors="skip")))
    assert puzzles[0].line == 2
    # errors="raise": the first bad puzzle raises, and the iteration goes on after it.
    reader = sudokit.read(path)
    seen = []
    while True:
        try:
            seen.append(next(reader))
        except sudokit.ParseError as e:
            seen.append(e.line)
        except StopIteration:
            break
    assert [x if isinstance(x, int) else x.line for x in seen] == [
        x.line for x in got
    ]


@pytest.mark.parametrize("backend", ["native", "dlx", "sat:minimal:pairwise", "cp:HACS", "colour"])
def test_solve_agrees_with_the_cli(cli, backend):
    _, out = cli("solve", "--backend", backend, EASY)
    got = [sudokit.solve(p, backend=backend) for p in sudokit.read(REPO / EASY)]
    assert [r.solution.to_line() for r in got] == out.split()
    assert all(r.status == "solved" and sudokit.verify(r.puzzle, r.solution) for r in got)


def test_unique_and_count_agree_with_the_cli(cli):
    _, out = cli("solve", "--unique", str(DATA / "mixed.txt"))
    expected = [l for l in out.splitlines() if not l.startswith("error:")]
    got = [sudokit.unique(p) for p in sudokit.read(DATA / "mixed.txt", errors="skip")]
    words = [r.solution.to_line() if r.status == "unique" else r.status for r in got]
    assert words == expected
    multiple = got[-1]
    assert multiple.status == "multiple" and multiple.second != multiple.solution
    assert sudokit.count(sudokit.Puzzle.parse("." * 16), limit=1000).count == 288
    assert sudokit.count("." * 16, limit=10).exact is False


def test_solve_many_uses_the_batch_driver_in_order(cli):
    _, out = cli("solve", TOP95)
    got = sudokit.solve_many(sudokit.read(REPO / TOP95), threads=2)
    assert [r.solution.to_line() for r in got] == out.split()
    unique = sudokit.solve_many(lines_of(TOP95)[:5], backend="dlx", unique=True, threads=3)
    assert [r.status for r in unique] == ["unique"] * 5


def test_verify_names_the_unit():
    puzzle = "1.3.....4....2.."
    assert sudokit.verify(puzzle, "1432234141233214")
    wrong = sudokit.verify(puzzle, "1432234141233241")
    assert not wrong and wrong.kind == "repeated" and wrong.unit == ("column", 3)
    assert wrong.violation == "column 3 has 4 twice: at (2,3) and (4,3)"
    changed = sudokit.verify("2...............", "1432234141233214")
    assert changed.kind == "given-changed" and changed.unit is None


@pytest.mark.parametrize(
    "to,options",
    [("cnf", []), ("cnf", ["--encoding", "minimal", "--amo", "sequential"])]
    + [(name, []) for name in ("opb", "smt2", "asp", "lp", "mps", "mzn", "dzn", "dlx", "col",
                               "graphml", "edges", "hgr")],
)
def test_export_is_the_cli_export(cli, to, options):
    """The same file as the command line's, but for the two provenance comment lines the command
    line adds (the input file and line, the exact `decode` command): a puzzle in memory has no
    file to name."""
    _, out = cli("export", EASY, "--index", "1", "--to", to, *options)
    provenance = (f"source: {EASY}, puzzle 1 (line 1)", f"decode exactly: sudokit decode {EASY}")
    from_file = "".join(
        line for line in out.splitlines(keepends=True)
        if not any(mark in line.replace("- -", "--") for mark in provenance)
    )
    assert len(from_file.splitlines()) == len(out.splitlines()) - 2
    keywords = dict(zip(["encoding", "amo"], options[1::2]))
    assert sudokit.export(lines_of(EASY)[0], to=to, **keywords) == from_file


@pytest.mark.parametrize("encoding", ["minimal", "extended", "optimized"])
def test_pysat_solves_to_clauses_and_decode_maps_the_model_back(encoding):
    solvers = pytest.importorskip("pysat.solvers")
    puzzle = sudokit.Puzzle.parse(lines_of(TOP95)[3])
    cnf = sudokit.to_clauses(puzzle, encoding=encoding)
    assert cnf.encoding[0] == encoding and len(cnf) == len(cnf.clauses)
    assert all(0 not in c and all(abs(l) <= cnf.num_vars for l in c) for c in cnf.clauses)
    with solvers.Minisat22(bootstrap_with=cnf.clauses) as solver:
        assert solver.solve()
        model = solver.get_model()
    solution = cnf.decode(model).solution
    assert solution == sudokit.solve(puzzle).solution
    decoded = sudokit.decode(puzzle, model, encoding=encoding)
    assert decoded.status == "solved" and decoded.solution == solution
    # The DIMACS answer text a solver writes decodes the same way.
    answer = "SAT\n" + " ".join(map(str, model)) + " 0\n"
    assert sudokit.decode(puzzle, answer, source="minisat", encoding=encoding).solution == solution
    # A model that breaks a rule is caught by the verifier.
    r, c = 1, 1
    if cnf.var(r, c, 1) is not None:
        flipped = [abs(l) if abs(l) == cnf.var(r, c, 1) else l for l in model]
        assert sudokit.decode(puzzle, flipped, encoding=encoding).status in ("invalid", "error")


def test_decode_reports_bad_answer_text_with_its_place():
    with pytest.raises(sudokit.ParseError) as caught:
        sudokit.decode(FIRST, "SAT\n1 2 x 0\n", source="minisat")
    assert caught.value.line == 2


def test_to_networkx_is_the_precoloured_graph(cli):
    nx = pytest.importorskip("networkx")
    puzzle = sudokit.Puzzle.parse(FIRST)
    graph = sudokit.to_networkx(puzzle)
    _, col = cli("export", TOP95, "--index", "1", "--to", "col")
    header = next(l for l in col.splitlines() if l.startswith("p edge")).split()
    assert graph.number_of_nodes() == int(header[2]) == 81
    assert graph.number_of_edges() == int(header[3]) == 810
    assert all(d == 20 for _, d in graph.degree())
    # The exports' conventions: nodes 1..81 (the .col vertices), `given` the value.
    assert min(graph) == 1 and max(graph) == 81
    col_edges = {tuple(sorted(map(int, l.split()[1:]))) for l in col.splitlines() if l.startswith("e ")}
    assert {tuple(sorted(e)) for e in graph.edges()} == col_edges
    given = dict(graph.nodes(data="given", default=None))
    assert [(v, g) for v, g in given.items() if g] == [
        ((r - 1) * 9 + c, value) for r, c, value in puzzle.givens
    ]
    solution = sudokit.solve(puzzle).solution.to_grid()
    colouring = {v: solution[(v - 1) // 9][(v - 1) % 9] for v in graph}
    assert all(colouring[a] != colouring[b] for a, b in graph.edges())
    assert nx.is_connected(graph)


def test_reduce_latin_maps_back_and_draws(cli):
    squares = list(sudokit.read(REPO / "models/latin/course.txt", latin=True))
    _, out = cli("reduce", "latin", "models/latin/course.txt", "--solve", "--json")
    expected = [json.loads(l) for l in out.splitlines()]
    for square, row in zip(squares, expected):
        reduction = sudokit.reduce_latin(square)
        assert reduction.sudoku.to_json() == json.dumps(row["sudoku"], separators=(",", ":"))
        answer = sudokit.solve(reduction.sudoku)
        if row["status"] == "completed":
            completion = reduction.back(answer.solution)
            assert sudokit.verify(square, completion)
            assert "<svg" in reduction.svg(answer.solution)
            assert "verify completion" in reduction.report(answer.solution)
        else:
            assert answer.status == "unsat"
    red = sudokit.reduce_latin(squares[0])
    assert red.sizes[0][0] == "partial Latin square" and red.sizes[1][1] == 81
    assert red._repr_svg_().count("<svg") == 3
    assert red._repr_html_().startswith("<div data-page=")
    with pytest.raises(sudokit.SudokitError):
        red.back(sudokit.generate(box=(3, 3), seed=1).to_line().replace(".", "1"))


def test_grade_is_the_cli_grade(cli):
    _, out = cli("grade", "--json", "--schemes", "all", TOP95)
    rows = [l for l in out.splitlines() if '"line"' in l]
    for puzzle, row in zip(sudokit.read(REPO / TOP95), rows):
        grade = sudokit.grade(puzzle)
        assert grade.to_json(TOP95, puzzle.line) == row
    hard = sudokit.grade(lines_of(TOP95)[0], schemes=["FC", "HAC"])
    assert [s for s, _ in hard.candidates] == ["FC", "HAC"] and "FC" not in hard.search_free
    _, out = cli("grade", "--json", "--runtime", "--schemes", "FC,HAC", "--node-limit", "50", TOP95)
    timed = sudokit.grade(lines_of(TOP95)[0], schemes="FC,HAC", runtime=True, node_limit=50)
    first = json.loads(out.splitlines()[0])["runtime"]
    assert {s: r["nodes"] for s, r in timed.runtime.items()} == {s: r["nodes"] for s, r in first.items()}
    assert sudokit.grade(lines_of(TOP95)[0]).runtime is None


def test_generate_and_minimize_are_the_cli_ones(cli):
    _, out = cli("generate", "--box", "3x3", "--count", "3", "--seed", "7", "--symmetry", "rot180")
    made = [sudokit.generate(box=(3, 3), seed=7, index=i, symmetry="rot180") for i in range(3)]
    assert [p.to_line() for p in made] == out.split()
    assert all(sudokit.unique(p).status == "unique" for p in made)
    _, out = cli("generate", "--box", "2x3", "--seed", "4", "--grid-only")
    assert sudokit.generate(box=(2, 3), seed=4, grid_only=True).to_line() == out.strip()
    _, out = cli("generate", "--box", "2x3", "--seed", "4", "--no-sweeps")
    assert sudokit.generate(box=(2, 3), seed=4, sweeps=False).to_line() == out.strip()
    _, out = cli("minimize", EASY)
    expected = [row.split()[-1] for row in out.splitlines() if " givens: " in row]
    assert [sudokit.minimize(line).to_line() for line in lines_of(EASY)] == expected


def test_ctrl_c_interrupts_a_long_count():
    empty = sudokit.Puzzle.parse("." * 81)
    threading.Timer(0.3, _thread.interrupt_main).start()
    start = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        sudokit.count(empty, limit=10**15)
    assert time.monotonic() - start < 5
    # The next call works as usual.
    assert sudokit.count(empty, limit=3).count == 3


def test_every_export_format_is_listed():
    assert set(sudokit.formats()) >= {"cnf", "opb", "smt2", "asp", "lp", "mps", "mzn", "dzn",
                                      "dlx", "col", "graphml", "edges", "hgr"}


@pytest.mark.parametrize("solver", ["minisat", "clasp", "z3", "glpsol", "minizinc"])
def test_an_external_solver_is_a_backend(solver):
    if shutil.which(solver) is None:
        pytest.skip(f"{solver} not installed")
    result = sudokit.solve(lines_of(EASY)[0], backend=f"ext:{solver}")
    assert result.status == "solved"
    assert sudokit.verify(lines_of(EASY)[0], result.solution)
    assert sudokit.unique(lines_of(EASY)[0], backend=f"ext:{solver}").status == "unique"


@pytest.mark.parametrize(
    "keywords, words",
    [
        (dict(backend="nope"), "unknown backend nope"),
        (dict(encoding="minimal"), "encoding and amo go with backend sat, not native"),
        (dict(time_limit="5s"), "time_limit takes a number"),
        (dict(scheme="FC"), "scheme goes with backend cp"),
    ],
)
def test_option_errors_are_sudokit_errors_in_keywords(keywords, words):
    p = sudokit.Puzzle("...3..4114..3...")
    with pytest.raises(sudokit.OptionError, match=words) as raised:
        sudokit.solve(p, **keywords)
    assert isinstance(raised.value, sudokit.SudokitError) and isinstance(raised.value, ValueError)
    assert "--" not in str(raised.value), "keywords, not flags"
    with pytest.raises(TypeError, match="unexpected keyword argument 'backnd'"):
        sudokit.solve(p, backnd="dlx")  # a Python function's own keywords
    with pytest.raises(sudokit.OptionError, match="amo goes with to cnf only"):
        sudokit.export(p, to="lp", amo="pairwise")
    with pytest.raises(sudokit.OptionError, match="errors must be raise, skip or yield"):
        sudokit.read("models/sudoku/4x4/kr_4x4_sample.txt", errors="ignore")


def test_signatures_are_the_jobs_options():
    """Each call's keywords are its job's options (the registry's), less those it sets itself."""
    import inspect

    for function, command, set_by_the_call in [
        (sudokit.solve, "solve", {"threads"}),
        (sudokit.unique, "solve", {"threads", "unique"}),
        (sudokit.solve_many, "solve", set()),
        (sudokit.count, "count", {"method", "order"}),  # the census of an empty grid's
        (sudokit.minimize, "minimize", {"threads"}),
        (sudokit.grade, "grade", {"threads"}),
        (sudokit.generate, "generate", {"threads", "count"}),  # the call's draw is `index`
    ]:
        keywords = set(inspect.signature(function).parameters) - {"puzzle", "puzzles", "index"}
        options = {o["name"] for o in json.loads(sudokit._native.options(command))}
        assert keywords == options - set_by_the_call, function.__name__
