"""The calls on puzzles in memory: each runs the command line's job (``sudokit solve``,
``count``, ``verify``, ``grade``, ``minimize``, ``generate``) from the library's registry, with
the keyword arguments as its options (the command line's flags with underscores; the job checks
them and refuses an unknown one by name), and makes its record a value of ``sudokit._results``.
Every grid a backend returns has passed the library's certificate verifier.
"""

from __future__ import annotations

import json
from typing import Any, Dict, Iterable, List, Literal, Optional, Sequence, Tuple, Union

from . import _native
from ._native import ParseError, Puzzle, SudokitError
from ._results import CountResult, Grade, SolveResult, Verification

PuzzleLike = Union[Puzzle, str]
Schemes = Union[str, Sequence[str], None]
_Answer = Tuple[str, Dict[str, Any], List[Puzzle]]


def _one(command: str, inputs: List[Any], _first: int = 0, **options: Any) -> _Answer:
    """The one record of ``command`` on one item (its inputs, or generated item ``_first``); an
    item the job reports as an error (a backend that cannot take the puzzle, a puzzle that is
    not well posed, no puzzle made) raises it."""
    options.setdefault("threads", 1)  # one item: no worker thread to start
    (status, record, grids), = _native.call(command, [[i] for i in inputs], json.dumps(options),
                                           _first)
    if "error" in record:
        raise SudokitError(record["error"])
    return status, record, grids


def _backend(backend: str, options: Dict[str, Any]) -> str:
    """The registry's name of ``backend`` with the parts the options give apart."""
    return _native.backend_name(backend, *(options.get(k) for k in ("scheme", "encoding", "amo")))


def _puzzle(puzzle: PuzzleLike) -> Puzzle:
    return puzzle if isinstance(puzzle, Puzzle) else Puzzle(puzzle)


def solve(puzzle: PuzzleLike, backend: str = "native", time_limit: Optional[float] = None,
          node_limit: Optional[int] = None, *, unique: bool = False,
          encoding: Optional[str] = None, amo: Optional[str] = None, scheme: Optional[str] = None,
          max_order: Optional[int] = None, proof_dir: Optional[str] = None,
          require_certificate: bool = False) -> SolveResult:
    """The first solution of ``puzzle`` with ``backend``.

    Args:
        puzzle: a ``Puzzle``, or its text in any form.
        backend: any spec of the registry (``native``, ``dlx``, ``sat:minimal:pairwise``,
            ``cp:HACS``, ...; ``backends()`` lists them).
        time_limit: seconds (a positive number), or None for no limit.
        node_limit: search nodes (at least 1), or None.
        unique: decide none, one or several solutions (as ``unique``).
        encoding, amo, scheme, max_order, proof_dir, require_certificate: the other options of
            the solve job, as ``sudokit solve`` takes them (``--encoding``, ``--amo``, ...).

    Returns:
        A ``SolveResult``: ``status`` ``solved``, ``unsat`` or ``unknown`` (``reason``: ``time
        limit``, ``node limit``, ``cancelled``), the verified ``solution``, the work counters.

    Raises:
        OptionError: an unknown backend or option, a bad limit. ParseError: text that is not a
        puzzle. SudokitError: a backend that cannot take the puzzle. KeyboardInterrupt: Ctrl-C
        (the search stops).
    """
    options = dict(locals())
    del options["puzzle"]
    puzzle = _puzzle(puzzle)
    _, record, grids = _one("solve", [puzzle], **options)
    return SolveResult._of(record, grids, puzzle, _backend(backend, options))


def unique(puzzle: PuzzleLike, backend: str = "native", time_limit: Optional[float] = None,
           node_limit: Optional[int] = None, *, encoding: Optional[str] = None,
           amo: Optional[str] = None, scheme: Optional[str] = None,
           max_order: Optional[int] = None, proof_dir: Optional[str] = None,
           require_certificate: bool = False) -> SolveResult:
    """Whether ``puzzle`` has no, one or several solutions.

    Args, Raises: as ``solve``.

    Returns:
        A ``SolveResult``: ``status`` ``unique``, ``multiple`` (with ``solution`` and
        ``second``), ``unsat`` or ``unknown``.
    """
    return solve(**locals(), unique=True)


def count(puzzle: PuzzleLike, limit: int = 2, backend: str = "native",
          time_limit: Optional[float] = None, node_limit: Optional[int] = None,
          threads: Optional[int] = None, *, encoding: Optional[str] = None,
          amo: Optional[str] = None, scheme: Optional[str] = None,
          max_order: Optional[int] = None, require_certificate: bool = False) -> CountResult:
    """The number of solutions of ``puzzle``, counted up to ``limit`` (the count job of
    ``sudokit count --limit``, split over ``threads``).

    Args:
        puzzle: a ``Puzzle``, or its text.
        limit: count at most this many (at least 1).
        backend, time_limit, node_limit, encoding, ...: as ``solve``.
        threads: threads the count is split over (default: all cores).

    Returns:
        A ``CountResult`` (``count``, ``exact``, ``hit_limit``, ``stopped``, the first
        solutions).

    Raises:
        OptionError: a bad option (``limit=0``, ``threads=0``). ParseError, SudokitError,
        KeyboardInterrupt: as ``solve``.
    """
    options = dict(locals())
    del options["puzzle"]
    _, record, grids = _one("count", [puzzle], **options)
    return CountResult._of(record, grids, _backend(backend, options))


def solve_many(puzzles: Iterable[Union[PuzzleLike, ParseError]], backend: str = "native",
               threads: Optional[int] = None, unique: bool = False,
               time_limit: Optional[float] = None, node_limit: Optional[int] = None, *,
               encoding: Optional[str] = None, amo: Optional[str] = None,
               scheme: Optional[str] = None, max_order: Optional[int] = None,
               proof_dir: Optional[str] = None, require_certificate: bool = False
               ) -> List[SolveResult]:
    """Solves every puzzle with the library's solve job on its ordered parallel map; the
    results come in the order of the puzzles.

    Args:
        puzzles: an iterable of ``Puzzle``s or texts; a ``ParseError`` item (from
            ``read(path, errors="yield")``) is passed through as a result of status ``error``
            in its place, as the command line reports a bad line.
        backend, time_limit, node_limit, encoding, ...: as ``solve``.
        threads: puzzles solved at a time (default: all cores; at most 4 per core).
        unique: test uniqueness (as ``unique``) instead.

    Returns:
        A list of ``SolveResult``s, one per item; a puzzle the backend cannot take is a result
        of status ``error``.

    Raises:
        OptionError: a bad option (``threads=0``). ParseError: an item that is text but not a
        puzzle. KeyboardInterrupt: Ctrl-C (the batch stops).
    """
    options = dict(locals())
    del options["puzzles"]
    items = [i if isinstance(i, ParseError) else _puzzle(i) for i in puzzles]
    good = [i for i in items if isinstance(i, Puzzle)]
    answers = iter(_native.call("solve", [good], json.dumps(options)))
    name = _backend(backend, options)

    def result(item: Union[Puzzle, ParseError]) -> SolveResult:
        if isinstance(item, ParseError):
            empty = Puzzle.from_grid([[None]], box=(1, 1))
            return SolveResult._of({"status": "error", "reason": str(item)}, [], empty, name)
        _, record, grids = next(answers)
        return SolveResult._of(record, grids, item, name)

    return [result(i) for i in items]


def verify(puzzle: PuzzleLike, candidate: PuzzleLike) -> Verification:
    """The certificate check: whether ``candidate`` is a solution of ``puzzle`` (O(n²)), the
    verify job's record of them.

    Returns:
        A ``Verification``, true when valid; else ``violation`` says why, ``kind`` names the
        problem and ``unit`` the row, column or box that repeats a value.

    Raises:
        ParseError: text that is not a grid.
    """
    puzzle = _puzzle(puzzle)
    if not isinstance(candidate, Puzzle):  # read in the puzzle's shape, so errors say it
        shape = puzzle.shape
        try:
            candidate = Puzzle(candidate, box=shape.box, latin=shape.latin, allow_clashes=True,
                               regions=shape.regions, extra=list(shape.extra) or None)
        except ValueError:  # an OptionError: its size is another order's
            raise ParseError(f"the candidate is not a grid of the puzzle's shape, {shape} "
                             f"({shape.cells} cells)") from None
    return Verification._of(_one("verify", [puzzle, candidate])[1])


def grade(puzzle: PuzzleLike, schemes: Schemes = None,
          shave: Optional[Literal["once", "fixpoint"]] = None, *, runtime: bool = False,
          time_limit: Optional[float] = None, node_limit: Optional[int] = None) -> Grade:
    """Which propagation schemes (Simonis 2005) solve ``puzzle`` without search: the grade job
    of ``sudokit grade`` on one puzzle.

    Args:
        puzzle: a ``Puzzle``, or its text.
        schemes: ``"all"`` (the eighteen, default), ``"paper"`` (the fifteen), or names
            (``"FC,HAC"`` or a list).
        shave: ``"once"`` or ``"fixpoint"`` for the shaving schemes (None: as named).
        runtime: also search with each scheme (up to 2 solutions), as ``sudokit grade
            --runtime``: ``Grade.runtime`` has each search's time and counters.
        time_limit: seconds per scheme's search (default: the job's, 10); node_limit: nodes.

    Returns:
        A ``Grade`` (the search-free schemes, the weakest of them, the difficulty, candidates
        left per scheme, weakest first).

    Raises:
        OptionError: an unknown scheme or shave mode, a bad limit. ParseError: text that is not
        a puzzle.
    """
    options = dict(locals())
    del options["puzzle"]
    if time_limit is None:  # the job's own default (one place for it)
        del options["time_limit"]
    names = schemes if schemes is None or isinstance(schemes, str) else ",".join(schemes)
    options["schemes"] = names or "all"
    return Grade._of(_one("grade", [puzzle], **options)[1])


def generate(box: Tuple[int, int] = (3, 3), seed: int = 1, index: int = 0,
             symmetry: Literal["none", "rot180", "rot90", "mirror", "diagonal"] = "none",
             givens: Optional[int] = None, scheme: Optional[str] = None,
             not_scheme: Optional[str] = None,
             difficulty: Optional[Literal["easy", "medium", "hard", "expert"]] = None,
             shave: Optional[Literal["once", "fixpoint"]] = None,
             grids: Literal["search", "pattern"] = "search",
             attempts: Optional[int] = None, *, sweeps: bool = True,
             grid_only: bool = False, regions: Union[str, Sequence[str], None] = None,
             extra: Union[str, Sequence[str], None] = None) -> Puzzle:
    """A locally minimal well-posed puzzle with ``box=(p, q)`` boxes, drawn from ``(seed,
    index)`` exactly as ``sudokit generate --seed SEED`` draws its puzzle number ``index`` (the
    generate job's own draw).

    Args:
        box: the box shape ``(p, q)``.
        seed, index: the draw.
        symmetry: of the givens (``none``, ``rot180``, ``rot90``, ``mirror``, ``diagonal``).
        givens: stop removing givens at this many.
        scheme: a scheme that must solve it search-free; ``not_scheme`` one that must not.
        difficulty: an everyday label (``easy``, ``medium``, ``hard``, ``expert``), which
            stands for a scheme and a not_scheme.
        shave: how the shaving schemes shave (``once``, ``fixpoint``).
        grids: where complete grids come from (``search``, ``pattern``).
        attempts: complete grids tried before giving up (default: the job's, as the command
            line's).
        sweeps: the removal loop's second sweeps over the givens kept (``--no-sweeps``: one).
        grid_only: the complete grid, no givens removed (``--grid-only``).
        regions: a region map in place of the boxes (its text or its rows, ``--regions``);
            its order must be the boxes'.
        extra: extra units, ``"diagonals"``, ``"windows"`` or a list (``--extra``).

    Returns:
        The ``Puzzle``.

    Raises:
        ValueError: a bad option. SudokitError: no puzzle within ``attempts``.
        KeyboardInterrupt: Ctrl-C.
    """
    options = dict(locals())
    del options["index"]
    if attempts is None:  # the job's own default (one place for it)
        del options["attempts"]
    options["regions"] = regions.split("\n") if isinstance(regions, str) else regions
    options["extra"] = [extra] if isinstance(extra, str) else list(extra or [])
    return _one("generate", [], index, **options)[2][0]


def minimize(puzzle: PuzzleLike, seed: Optional[int] = None) -> Puzzle:
    """The puzzle with redundant givens removed until every given is needed (the minimize job
    of ``sudokit minimize`` on one puzzle).

    Args:
        puzzle: a well-posed ``Puzzle``, or its text.
        seed: remove givens in the random order of this seed (None: cell order).

    Returns:
        The locally minimal ``Puzzle``.

    Raises:
        SudokitError: a puzzle that is not well posed. ParseError: text that is not a puzzle.
        KeyboardInterrupt: Ctrl-C.
    """
    return _one("minimize", [puzzle], seed=seed)[2][0]
