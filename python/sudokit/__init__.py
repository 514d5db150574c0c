"""sudokit: model, solve, reduce and grade generalized Sudoku (n×n grids with p×q boxes) and
Latin squares, from Python.

The package binds the sudokit library (Rust): every backend of its registry by name, every
export format, the certificate verifier that checks every answer, the Latin-square reduction,
grading by propagation scheme, generation and minimization, and the ordered parallel map
batches run on. Puzzles, solutions and reductions draw themselves in Jupyter.

>>> import sudokit
>>> p = sudokit.Puzzle.parse("...3..4114..3...")
>>> p.solve().solution.to_line()
'4123234114323214'
>>> p.verify(p.solve().solution).valid
True
>>> sudokit.unique(p, backend="sat").status
'unique'
>>> len(p.to_clauses()) > 0          # a sequence of clauses PySAT takes as it is
True

The command line's commands run as the library's jobs: ``sudokit.run("solve", FILE,
unique=True, out="solved.txt")`` writes what ``sudokit solve --unique FILE -o solved.txt``
writes (and resumes it), ``sudokit.records("grade", FILE)`` gives the records as objects.

Batches on a Dask cluster are in :mod:`sudokit.dask` (the ``dask`` extra).
"""

from __future__ import annotations

import functools as _functools
import json as _json
import os as _os
import sys as _sys
from typing import Any, Callable, Dict, Hashable, List, Mapping, Optional, Sequence, Tuple, Union

from ._native import (
    ParseError,
    Puzzle,
    PuzzleIter,
    SudokitError,
    backends,
    decode,
    explain,
    export,
    formats,
    read,
    reduce_latin,
    schemes,
    to_clauses,
)
from ._calls import count, generate, grade, minimize, solve, solve_many, unique, verify
from . import _native
from ._results import (
    Clauses,
    CountResult,
    Explanation,
    Grade,
    LatinReduction,
    Record,
    RunTally,
    Shape,
    SolveResult,
    Stats,
    Verification,
)
from ._native import precoloured_graph as _precoloured_graph

__version__ = "0.1.0"


class OptionError(SudokitError, ValueError):
    """An option sudokit refused (a keyword, its value, or a name no registry knows); the
    message names the keyword, as the call spells it, and what would fit."""

__all__ = [
    "Clauses",
    "CountResult",
    "Explanation",
    "Grade",
    "LatinReduction",
    "OptionError",
    "ParseError",
    "Puzzle",
    "PuzzleIter",
    "Record",
    "RunTally",
    "Shape",
    "SolveResult",
    "Stats",
    "SudokitError",
    "Verification",
    "backends",
    "commands",
    "count",
    "decode",
    "explain",
    "export",
    "formats",
    "generate",
    "grade",
    "minimize",
    "read",
    "records",
    "reduce_latin",
    "run",
    "schemes",
    "solve",
    "solve_many",
    "to_clauses",
    "to_networkx",
    "unique",
    "verify",
]


def to_networkx(puzzle: Union[Puzzle, str]) -> Any:
    """The precoloured Sudoku graph of ``puzzle`` as a ``networkx.Graph``, numbered as the
    exports number it (``export(puzzle, to="col")`` and ``to="graphml"``).

    One node per cell, ``(row - 1) * n + col`` (1-based, the ``.col`` vertex numbers), with
    the attributes ``row`` and ``col`` (1-based) and, on a given cell, ``given`` (its value,
    1..n: GraphML's ``given``); an edge joins two cells that share a row, a column or a box.
    The graph attribute ``colours`` is ``n``. A proper colouring with ``n`` colours that keeps
    the givens apart is a solution: :meth:`Puzzle.from_colouring` maps it back (networkx's
    ``greedy_color`` numbering included) and checks it.

    Args:
        puzzle: a ``Puzzle`` or its text.

    Returns:
        The ``networkx.Graph``.

    Raises:
        ImportError: networkx is not installed (the ``interop`` extra).
        ParseError: text that is not a puzzle.
    """
    try:
        import networkx as nx  # type: ignore[import-untyped]
    except ImportError as e:  # pragma: no cover - depends on the environment
        raise ImportError("to_networkx needs networkx: pip install 'sudokit[interop]'") from e
    vertices, edges, precolouring, colours = _precoloured_graph(puzzle)
    n = colours
    graph = nx.Graph(colours=colours)
    given = {v: c + 1 for v, c in precolouring}
    for v in range(vertices):
        attributes = {"row": v // n + 1, "col": v % n + 1}
        if v in given:
            attributes["given"] = given[v]
        graph.add_node(v + 1, **attributes)
    graph.add_edges_from((a + 1, b + 1) for a, b in edges)
    return graph


def _from_colouring(puzzle: Union[Puzzle, str], colouring: Mapping[int, Hashable]) -> Puzzle:
    """The solution a colouring of ``puzzle``'s graph names (:func:`to_networkx`: nodes 1..n²;
    any colouring of those nodes, such as networkx's ``greedy_color``, whose colours are
    relabelled so that each given keeps its value), checked by the certificate verifier.

    Args:
        puzzle: the ``Puzzle`` (or its text) whose graph was coloured.
        colouring: a dict from node (1..n²) to colour (any hashable), every node coloured.

    Returns:
        The solved ``Puzzle``.

    Raises:
        ValueError: a node missing or out of range, two givens of different values in one
            colour, more than n colours, or a colouring that is not a solution (the verifier's
            reason).
    """
    cells = (puzzle if isinstance(puzzle, Puzzle) else Puzzle(puzzle)).shape.cells
    for node in colouring:
        if not (isinstance(node, int) and 1 <= node <= cells):
            raise ValueError(f"node {node} is not a cell (1..={cells})")
    classes: Dict[Hashable, int] = {}
    for node in range(1, cells + 1):
        if node not in colouring:
            raise ValueError(f"node {node} has no colour")
        classes.setdefault(colouring[node], len(classes))
    return _native.solution_of(puzzle, [classes[colouring[v]] for v in range(1, cells + 1)])


setattr(Puzzle, "from_colouring", staticmethod(_from_colouring))
setattr(Puzzle, "parse", staticmethod(Puzzle))  # Puzzle.parse(text) is Puzzle(text)


def _method(function: Callable[..., Any]) -> Callable[..., Any]:
    """``function(puzzle, ...)`` as the method ``puzzle.function(...)``, its docs kept."""

    @_functools.wraps(function)
    def method(self: Puzzle, *args: Any, **kwargs: Any) -> Any:
        return function(self, *args, **kwargs)

    return method


# The module's calls on one puzzle are its methods: `p.solve()` is `solve(p)`.
for _function in (solve, unique, count, verify, export, to_clauses, to_networkx, grade, minimize,
                  explain):  # fmt: skip
    setattr(Puzzle, _function.__name__, _method(_function))

PathLike = Union[str, "_os.PathLike[str]"]


def run(
    command: str,
    *inputs: PathLike,
    out: Optional[PathLike] = None,
    json: bool = False,
    resume: bool = False,
    force: bool = False,
    box: Optional[Tuple[int, int]] = None,
    latin: bool = False,
    format: Optional[str] = None,
    regions: Union[str, Sequence[str], None] = None,
    extra: Union[str, Sequence[str], None] = None,
    **options: Any,
) -> RunTally:
    """``sudokit COMMAND INPUTS... [--json] [-o OUT [--resume|--force]]``, in this process.

    The library's job of ``command`` (any name of :func:`commands`) with ``options`` as its
    options (the command line's flags with underscores: ``backend="dlx"``, ``unique=True``,
    ``time_limit=1.5``, ``schemes="paper"``, ``box=(2, 3)`` for generate ...), run over the
    inputs by the library; every option is checked by the job.

    Args:
        command: the command.
        inputs: its input files (none for generate and generate-latin; puzzles and candidates
            for verify; none for count of every grid of the shape ``box`` or ``latin`` and
            ``order`` give, as ``sudokit count --box PxQ``).
        out: the output: None for ``sys.stdout`` (a notebook's cell output, what
            ``contextlib.redirect_stdout`` catches), or a path, written as ``-o FILE`` writes it
            (a resumable result file; a command with closing tables writes it whole).
        json: one JSON object per record.
        resume: continue ``OUT.partial`` (``--resume``).
        force: discard ``OUT.partial`` (``--force``).
        box, latin, format: how to read the inputs (``--box PxQ``, ``--latin``, ``--format``).
        regions, extra: a region map (its text or rows, ``--regions``) and extra units
            (``"diagonals"``, ``"windows"`` or a list, ``--extra``) the inputs are read with;
            for generate, the shape it makes.
        options: the job's options.

    Returns:
        The tally: counts by status, ``complete``, ``exit_code`` (the command line's) and the
        ``notes`` (also printed on standard error).

    Raises:
        ValueError: an unknown command or option, a bad value (``threads=0``), inputs that do
            not fit the command.
        OSError: an input that cannot be read or holds no puzzle, an output that cannot be
            written.
        SudokitError: a resumed output that does not fit, or is locked by another run.
        KeyboardInterrupt: Ctrl-C (the output is left resumable).
    """
    if command == "generate" and box is not None:
        options["box"], box = box, None  # generate's box is the shape it makes
    if command == "generate":
        regions, extra = _generate_regions(options, regions, extra)
    output = None if out is None else _os.fspath(out)
    # A command with closing tables writes a path whole, renamed when done (as sudokit.dask).
    whole = output is not None and not dict((c[0], c[2]) for c in _native.commands()).get(command)
    temporary = f"{output}.{_os.getpid()}.tmp" if whole else None
    stream = open(temporary, "w", encoding="utf-8", newline="") if temporary else _sys.stdout
    done = False
    try:
        tally = RunTally(*_native.run(command, [_os.fspath(p) for p in inputs], _json.dumps(options),
                                      json, None if whole else output, resume, force, box, latin,
                                      format, regions, extra, stream.write))
        done = True
    finally:
        stream.flush()
        if temporary:
            stream.close()
            _os.replace(temporary, str(output)) if done else _os.remove(temporary)
    for note in tally.notes:
        print(f"sudokit: {note}", file=_sys.stderr)
    return tally


def _generate_regions(options: Dict[str, Any], regions: Any, extra: Any) -> Tuple[None, None]:
    """generate's regions are the shape it makes: options of the job (its rows, its names)."""
    if regions is not None:
        options["regions"] = regions.split("\n") if isinstance(regions, str) else list(regions)
    if extra is not None:
        options["extra"] = [extra] if isinstance(extra, str) else list(extra)
    return None, None


def commands() -> List[str]:
    """The names of the library's batch commands (its registry), the ``command`` of
    :func:`run`, :func:`records` and :func:`sudokit.dask.run`.

    >>> "solve" in commands()
    True
    """
    return [name for name, *_ in _native.commands()]


def records(
    command: str,
    *inputs: PathLike,
    box: Optional[Tuple[int, int]] = None,
    latin: bool = False,
    format: Optional[str] = None,
    regions: Union[str, Sequence[str], None] = None,
    extra: Union[str, Sequence[str], None] = None,
    **options: Any,
) -> List[Record]:
    """The records of ``command`` over ``inputs`` (as :func:`run`), as objects in input order.

    Each :class:`Record` has ``status`` (``done``, ``negative``, ``unknown``, ``error``),
    ``text`` (as the command line prints it), ``json_line`` and ``json`` (the ``--json``
    object as a dict). A puzzle that cannot be read is a record of status ``error`` in its
    place, as the command line reports it.

    >>> rs = records("solve", "models/sudoku/4x4/kr_4x4_sample.txt", backend="dlx")  # doctest: +SKIP
    >>> rs[0].status  # doctest: +SKIP
    'done'

    Raises:
        ValueError, OSError: as :func:`run`.
    """
    if command == "generate" and box is not None:
        options["box"], box = box, None
    if command == "generate":
        regions, extra = _generate_regions(options, regions, extra)
    found, _ = _native.records(command, [_os.fspath(p) for p in inputs], _json.dumps(options),
                               box, latin, format, regions, extra)
    return [Record(*r) for r in found]
