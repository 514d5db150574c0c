"""The result types: the library's records made Python values.

A call of the extension module hands over its job's record as plain data (the JSON object the
command line's ``--json`` writes, its grids as :class:`Puzzle` objects); each type here is a
frozen dataclass of that record, so it pickles (``multiprocessing`` and Dask can return it),
compares and hashes by value and shows its value. ``_of`` makes one from the record (the
class itself when its fields are the record's).
"""

from __future__ import annotations

import base64
import gzip
import html
import importlib
import json
import os
from dataclasses import dataclass, field
from typing import Any, Dict, Iterable, Iterator, List, Optional, Tuple, Union, overload

from ._native import (
    Puzzle,
    decode,
    explanation_page,
    latin_back,
    latin_report,
    latin_svg,
    schemes,
)


def _framed(page: str, height: int, fallback: str) -> str:
    """A page in an iframe (its styles and keys kept out of the notebook's page), sent gzipped:
    the cell's script unpacks it (a 70-frame 9×9 story: 1.3 MB, about 50 KB sent). Where
    scripts do not run (an untrusted notebook), ``fallback`` shows as text."""
    packed = base64.b64encode(gzip.compress(page.encode(), 9, mtime=0)).decode()
    return (f'<div data-page="{packed}"><iframe style="width:100%;height:{height}px;border:0">'
            f'</iframe><pre>{html.escape(fallback)}</pre><script>(async d=>{{const b=Uint8Array'
            '.from(atob(d.dataset.page),c=>c.charCodeAt(0)),s=new Blob([b]).stream().pipeThrough('
            'new DecompressionStream("gzip"));d.firstChild.srcdoc=await new Response(s).text();'
            'd.lastChild.previousSibling.remove()})(document.currentScript.parentNode)</script></div>')


def _dumps(value: Any) -> str:
    """One JSON line as the library writes it (keys sorted, no spaces, UTF-8 kept)."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


@dataclass(frozen=True)
class RunTally:
    """How a run went: the library's tally (records ``total``, ``done``: the answer asked for,
    ``negative``: unsat, multiple with ``unique``, invalid, disagreements, ``unknown``: a budget
    ran out, ``errors``: bad input reported in place), whether it is ``complete`` (not
    stopped), the command line's ``exit_code`` (2 bad input, 1 a negative or unknown answer or
    a stop, 0 otherwise) and the ``notes`` it prints on standard error."""

    total: int
    done: int
    negative: int
    unknown: int
    errors: int
    complete: bool
    exit_code: int
    notes: List[str] = field(hash=False)


@dataclass(frozen=True)
class Record:
    """A record of a job: its ``status`` (``done``, ``negative``, ``unknown``, ``error``), its
    ``text`` (whole lines, as the command line prints it) and its ``json_line`` (as ``--json``
    prints it, ending in a newline); ``json`` is that object as a dict."""

    status: str
    text: str
    json_line: str

    @property
    def json(self) -> Dict[str, Any]:
        """The record's JSON object, as a dict."""
        return dict(json.loads(self.json_line))


@dataclass(frozen=True)
class Shape:
    """The shape of a grid: its ``order`` n (the grid is n×n), its ``box`` ``(p, q)`` (boxes of
    p rows and q columns; None for a Latin square or a region map), its ``regions`` (the rows of
    a jigsaw's region map, or None), its ``extra`` units (``("diagonals",)``, ...), whether it is
    ``latin`` (rows and columns only) and its n² ``cells``; ``str`` gives it in words
    (``9×9 (3×3 boxes)``, ``9×9 (jigsaw regions)``)."""

    order: int
    box: Optional[Tuple[int, int]]
    _text: str = field(compare=False)
    regions: Optional[Tuple[str, ...]] = None
    extra: Tuple[str, ...] = ()

    def __post_init__(self) -> None:
        # Lists from the binding become tuples, so that a shape stays hashable.
        if self.regions is not None:
            object.__setattr__(self, "regions", tuple(self.regions))
        object.__setattr__(self, "extra", tuple(self.extra))

    @property
    def latin(self) -> bool:
        """Whether the grid is a Latin square (rows and columns only)."""
        return self.box is None and self.regions is None

    @property
    def cells(self) -> int:
        """n², the number of cells."""
        return self.order * self.order

    def __str__(self) -> str:
        return self._text

    def __repr__(self) -> str:
        if self.regions is not None:
            return f"Shape(regions={self.regions!r}, extra={self.extra!r})"
        if self.box is None:
            return f"Shape(latin={self.order})"
        return f"Shape(box={self.box})" if not self.extra else f"Shape(box={self.box}, extra={self.extra!r})"


@dataclass(frozen=True)
class Stats:
    """The work counters of a call: search ``nodes`` (the root plus every branch tried),
    ``guesses`` (branches tried at choice points), ``backtracks`` (branches refuted by
    propagation), ``propagations`` (candidate eliminations, or the backend's unit of
    propagation) and ``elapsed`` wall-clock seconds."""

    nodes: int = 0
    guesses: int = 0
    backtracks: int = 0
    propagations: int = 0
    elapsed: float = 0.0

    @classmethod
    def _of(cls, record: Optional[Dict[str, Any]]) -> Stats:
        if record is None:
            return cls()
        n, g, b, p = (record[k] for k in ("nodes", "guesses", "backtracks", "propagations"))
        return cls(n, g, b, p, record["elapsed_us"] / 1e6)


@dataclass(frozen=True)
class SolveResult:
    """The answer of ``solve`` or ``unique`` (or ``decode``): ``status`` is ``solved``,
    ``unique``, ``multiple``, ``unsat``, ``unknown`` (``reason`` says why: ``time limit``,
    ``node limit``, ``cancelled``), ``invalid`` or ``error`` (``reason``: the message).
    ``solution`` is the verified solution, ``second`` another one when there are several;
    ``refutation`` says how an ``unsat`` or a ``unique`` is known (``exhausted search``,
    ``cadical's drat proof, checked by ...``, ``claimed by minisat, not checked: ...``) and
    ``certified`` whether sudokit established it rather than taking another program's word.
    True when it has a solution (for ``unique``: exactly one).

    Two results are equal when they say the same; the work counters (``stats``, whose time
    differs from run to run) are not compared, but a pickled result keeps them."""

    puzzle: Puzzle
    status: str
    backend: str
    solution: Optional[Puzzle] = None
    second: Optional[Puzzle] = None
    reason: Optional[str] = None
    refutation: Optional[str] = None
    certified: Optional[bool] = None
    stats: Stats = field(default_factory=Stats, compare=False)

    @classmethod
    def _of(cls, record: Dict[str, Any], grids: List[Puzzle], puzzle: Puzzle, backend: str) -> SolveResult:
        refutation = record.get("refutation")
        solution, second = grids[0] if grids else None, grids[1] if grids[1:] else None
        return cls(puzzle, record["status"], backend, solution, second,
                   record.get("reason", record.get("error")), refutation and refutation["text"],
                   record.get("certified"), Stats._of(record.get("stats")))

    def __bool__(self) -> bool:
        return self.status in ("solved", "unique")

    def _repr_svg_(self) -> str:
        """The puzzle with the solution's values drawn in blue."""
        return self.puzzle.svg(solution=self.solution)


@dataclass(frozen=True, eq=False)
class CountResult:
    """A count of solutions up to a limit: ``count`` (exact when ``exact``, else a lower
    bound), ``hit_limit`` (the limit stopped it), ``stopped`` (why a budget stopped it early:
    ``time limit``, ``node limit``, ``cancelled``), ``solutions`` (the first two found,
    verified), and for an exact count ``refutation`` and ``certified`` (as ``SolveResult``).

    Equal to its count as an int (``p.count() == 1``) and to a result that says the same (the
    work counters are not compared); its hash is its count's."""

    count: int
    exact: bool
    hit_limit: bool
    backend: str
    stopped: Optional[str] = None
    solutions: Tuple[Puzzle, ...] = ()
    refutation: Optional[str] = None
    certified: Optional[bool] = None
    stats: Stats = field(default_factory=Stats)

    @classmethod
    def _of(cls, record: Dict[str, Any], solutions: List[Puzzle], backend: str) -> CountResult:
        refutation = record.get("refutation")
        return cls(int(record["count"]),  # a string beyond 2^53, as JSON writes it
                   record["complete"], record["hit_limit"], backend, record["stopped"],
                   tuple(solutions), refutation and refutation["text"], record.get("certified"),
                   Stats._of(record["stats"]))

    def _key(self) -> Tuple[Any, ...]:
        return (self.count, self.exact, self.hit_limit, self.backend, self.stopped,
                self.solutions, self.refutation, self.certified)  # fmt: skip

    def __int__(self) -> int:
        return self.count

    def __eq__(self, other: object) -> bool:
        if isinstance(other, CountResult):
            return self._key() == other._key()
        if isinstance(other, int) and not isinstance(other, bool):
            return self.count == other
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self.count)


@dataclass(frozen=True, eq=False)
class Verification:
    """The certificate check of a candidate: ``valid`` when it solves the puzzle, else
    ``violation`` says why (``column 3 has 4 twice: at (2,3) and (4,3)``), ``kind`` names the
    problem (``shape``, ``empty``, ``out-of-range``, ``given-changed``, ``repeated``) and
    ``unit`` the unit that repeats a value, as ``("row" | "column" | "box", number)``, 1-based.

    Equal to its bool (``verify(p, s) == True``) and to a check that found the same."""

    valid: bool
    violation: Optional[str] = None
    kind: Optional[str] = None
    unit: Optional[Tuple[str, int]] = None

    @classmethod
    def _of(cls, record: Dict[str, Any]) -> Verification:
        unit = record["unit"]
        return cls(record["valid"], record["violation"], record["kind"], unit and tuple(unit))

    def __bool__(self) -> bool:
        return self.valid

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Verification):
            return (self.valid, self.violation) == (other.valid, other.violation)
        if isinstance(other, bool):
            return self.valid == other
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self.valid)


@dataclass(frozen=True)
class Grade:
    """The grade of a puzzle (the grade job's record): ``givens``, the schemes that solve it
    without search (``search_free``, in the order asked), the ``weakest`` of them, whether some
    scheme ``refuted`` it, its everyday ``difficulty`` (or None), and the ``candidates`` left per
    scheme as ``(scheme, left)`` pairs, weakest first (n² when search-free, None when refuted);
    with ``runtime=True``, ``runtime`` has each scheme's search (``ms``, ``nodes``, ...)."""

    givens: int
    search_free: Tuple[str, ...]
    weakest: Tuple[str, ...]
    refuted: bool
    difficulty: Optional[str]
    candidates: Tuple[Tuple[str, Optional[int]], ...]
    runtime: Optional[Dict[str, Dict[str, Any]]] = field(hash=False, repr=False)
    _record: str = field(repr=False, compare=False)

    @classmethod
    def _of(cls, record: Dict[str, Any]) -> Grade:
        left = record["candidates"]
        return cls(
            record["givens"],
            tuple(record["search_free"]),
            tuple(record["weakest"]),
            record["refuted"],
            record["difficulty"],
            tuple((s, left[s]) for s in schemes() if s in left),
            record.get("runtime"),
            _dumps(record),
        )

    def to_json(self, file: Union[str, "os.PathLike[str]"] = "", line: int = 0) -> str:
        """The JSON object ``sudokit grade --json`` writes for the puzzle (at ``line`` of
        ``file``)."""
        return _dumps({**json.loads(self._record), "file": os.fspath(file), "line": line})


@dataclass(frozen=True)
class Explanation:
    """One scheme's propagation on one puzzle, step by step: ``scheme``, ``why`` (why that
    scheme: "as asked", or the first scheme that solves or refutes the puzzle), ``steps`` (one
    dict per step, as ``sudokit explain --json`` writes it: ``step``, ``kind``, ``name``,
    ``units``, ``cells``, ``values``, ``removed``, ``placed``, ``text``, a probe's ``chain``),
    ``ending`` (``solved``, ``search`` or ``contradiction``; ``ending_json`` is its object, with
    the branch where a search would start) and ``solution`` (when solved, verified); a notebook
    shows its frames.

    A sequence of its steps: ``len``, iteration, ``explanation[i]`` and ``explanation[i:j]`` (a
    plain list of step dicts: a run of steps has no ending)."""

    puzzle: Puzzle
    scheme: str
    why: str
    steps: List[Dict[str, Any]] = field(hash=False)
    ending_json: Dict[str, Any] = field(hash=False)
    solution: Optional[Puzzle]
    _text: str = field(repr=False, compare=False)

    @property
    def ending(self) -> str:
        """``solved``, ``search`` or ``contradiction``."""
        return str(self.ending_json["ending"])

    def text(self) -> str:
        """The story as ``sudokit explain`` prints it (without its header line)."""
        return self._text

    def to_json(self) -> str:
        """The story as JSON lines: one object per step, then the ending."""
        return "\n".join(_dumps(v) for v in [*self.steps, self.ending_json])

    def html(self) -> str:
        """The page of frames (``sudokit explain --html``), stepped with ← and →."""
        return explanation_page(self.puzzle, self.scheme)

    def _repr_html_(self) -> str:
        return _framed(self.html(), 640, self._text)

    def __repr__(self) -> str:
        return f"Explanation(scheme={self.scheme!r}, steps={len(self)}, ending={self.ending!r})"

    def __len__(self) -> int:
        return len(self.steps)

    def __iter__(self) -> Iterator[Dict[str, Any]]:
        return iter(self.steps)

    @overload
    def __getitem__(self, index: int) -> Dict[str, Any]: ...
    @overload
    def __getitem__(self, index: slice) -> List[Dict[str, Any]]: ...
    def __getitem__(self, index: Union[int, slice]) -> Any:
        return self.steps[index]


@dataclass(frozen=True)
class Clauses:
    """A CNF formula of a puzzle: ``clauses`` (lists of non-zero DIMACS integers, as PySAT's
    ``CNF(from_clauses=...)`` takes them) over ``num_vars`` variables, its ``encoding`` and
    at-most-one names, whether it is ``trivially_unsat`` (an empty clause: clashing givens, or a
    cell or unit left without a place for a value), and its variable map: ``var(row, col,
    value)`` and ``decode(model)``.

    A sequence of clauses, as PySAT's ``CNF.clauses`` is: ``len``, iteration, ``clauses[i]``
    and ``clauses[i:j]`` (a plain list of clauses: a slice has no variable map). A copy is the
    list of clauses (what ``CNF(from_clauses=...)`` keeps)."""

    puzzle: Puzzle
    encoding: Tuple[str, str]
    clauses: List[List[int]] = field(repr=False, hash=False)
    num_vars: int
    trivially_unsat: bool
    _vars: List[Optional[int]] = field(repr=False, compare=False)

    def var(self, row: int, col: int, value: int) -> Optional[int]:
        """The DIMACS variable of "cell (row, col) holds value" (all 1-based), or None when the
        encoding fixed it (``optimized``: the givens and their peers)."""
        n = self.puzzle.order
        if not all(1 <= k <= n for k in (row, col, value)):
            raise ValueError(f"row, column and value go from 1 to {n}")
        return self._vars[((row - 1) * n + col - 1) * n + value - 1]

    def decode(self, model: Iterable[int]) -> SolveResult:
        """Maps a model (the literals a SAT solver set: PySAT's ``solver.get_model()``, any
        iterable of DIMACS integers) back to the puzzle and checks it, as ``sudokit.decode``:
        ``solved`` with the verified ``solution``, ``invalid`` (``reason``: the rule broken) or
        ``error`` (the model is not a grid of this encoding)."""
        encoding, amo = self.encoding
        return decode(self.puzzle, model, encoding=encoding, amo=amo)

    def to_pysat(self) -> Any:
        """The clauses as a PySAT formula (``pysat.formula.CNF``); needs python-sat."""
        return importlib.import_module("pysat.formula").CNF(from_clauses=self.clauses)

    def __len__(self) -> int:
        return len(self.clauses)

    def __iter__(self) -> Iterator[List[int]]:
        return iter(self.clauses)

    @overload
    def __getitem__(self, index: int) -> List[int]: ...
    @overload
    def __getitem__(self, index: slice) -> List[List[int]]: ...
    def __getitem__(self, index: Union[int, slice]) -> Any:
        return self.clauses[index]

    def __copy__(self) -> List[List[int]]:
        return [list(c) for c in self.clauses]

    def __deepcopy__(self, memo: Any) -> List[List[int]]:
        return self.__copy__()


@dataclass(frozen=True)
class LatinReduction:
    """A partial Latin square L of order m (``square``) reduced to a Sudoku of order m² with
    m×m boxes (``sudoku``), completable exactly when L is; ``sizes`` gives one tuple per level,
    ``(level, cells, units, cell–unit incidences, givens)``. ``back(solution)`` is the
    completion of L a solution of the Sudoku gives, verified; a notebook shows both grids
    (``svg()``, the cells that carry L shaded) or the chain as a page (``report()``)."""

    square: Puzzle
    sudoku: Puzzle
    sizes: List[Tuple[str, int, int, int, int]] = field(hash=False)

    def back(self, solution: Union[Puzzle, str]) -> Puzzle:
        """The completion of the square that ``solution`` (of the Sudoku) gives, verified."""
        return latin_back(self.square, solution)

    def report(self, solution: Union[Puzzle, str, None] = None) -> str:
        """The chain as a self-contained HTML page; with ``solution`` (of the Sudoku), both
        verified solutions drawn too."""
        return latin_report(self.square, solution)

    def svg(self, solution: Union[Puzzle, str, None] = None) -> str:
        """Both grids side by side, the cells of the Sudoku that carry the square shaded."""
        return latin_svg(self.square, solution)

    def _repr_svg_(self) -> str:
        return self.svg()

    def _repr_html_(self) -> str:
        return _framed(self.report(), 36 * self.sudoku.order + 520, repr(self))
