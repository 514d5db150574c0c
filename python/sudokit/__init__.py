"""sudokit: model, solve, reduce and grade generalized Sudoku (n×n grids with p×q boxes) and
Latin squares, from Python.

The package binds the sudokit library (Rust): every backend of its registry by name, every
export format, the certificate verifier that checks every answer, the Latin-square reduction,
grading by propagation scheme, generation and minimization, and the ordered parallel batch
driver. Puzzles, solutions and reductions draw themselves in Jupyter.

>>> import sudokit
>>> p = sudokit.Puzzle.parse("...3..4114..3...")
>>> sudokit.solve(p).solution.to_line()
'2143324114323214'
>>> sudokit.unique(p, backend="sat").status
'unique'

Batches on a Dask cluster are in :mod:`sudokit.dask` (the ``dask`` extra).
"""

from __future__ import annotations

from typing import Any, Union

from ._native import (
    Clauses,
    CountResult,
    Explanation,
    Grade,
    LatinReduction,
    ParseError,
    Puzzle,
    PuzzleIter,
    Shape,
    SolveResult,
    Stats,
    SudokitError,
    Verification,
    backends,
    count,
    decode,
    explain,
    export,
    formats,
    generate,
    grade,
    minimize,
    read,
    reduce_latin,
    schemes,
    solve,
    solve_many,
    to_clauses,
    unique,
    verify,
)
from ._native import precoloured_graph as _precoloured_graph

__version__ = "0.1.0"

__all__ = [
    "Clauses",
    "CountResult",
    "Explanation",
    "Grade",
    "LatinReduction",
    "ParseError",
    "Puzzle",
    "PuzzleIter",
    "Shape",
    "SolveResult",
    "Stats",
    "SudokitError",
    "Verification",
    "backends",
    "count",
    "decode",
    "explain",
    "export",
    "formats",
    "generate",
    "grade",
    "minimize",
    "read",
    "reduce_latin",
    "schemes",
    "solve",
    "solve_many",
    "to_clauses",
    "to_networkx",
    "unique",
    "verify",
]


def to_networkx(puzzle: Union[Puzzle, str]) -> Any:
    """The precoloured Sudoku graph of ``puzzle`` as a ``networkx.Graph``.

    One node per cell, ``row * n + col`` (0-based), with the attributes ``row`` and ``col``
    (0-based) and ``colour`` (the given value minus one, or None for an empty cell); an edge
    joins two cells that share a row, a column or a box. A proper colouring with ``n`` colours
    that keeps the precolouring is a solution (the graph attribute ``colours`` is ``n``). This
    is the graph ``export(puzzle, to="col")`` writes. Needs networkx.
    """
    try:
        import networkx as nx
    except ImportError as e:  # pragma: no cover - depends on the environment
        raise ImportError("to_networkx needs networkx: pip install networkx") from e
    vertices, edges, precolouring, colours = _precoloured_graph(puzzle)
    n = colours
    graph = nx.Graph(colours=colours)
    given = dict(precolouring)
    graph.add_nodes_from(
        (v, {"row": v // n, "col": v % n, "colour": given.get(v)}) for v in range(vertices)
    )
    graph.add_edges_from(edges)
    return graph
