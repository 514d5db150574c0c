"""Type stubs of the extension module (the bindings of the sudokit library)."""

from __future__ import annotations

import os
from typing import Any, Iterable, Iterator, Literal, Optional, Sequence, Tuple, Union

PathLike = Union[str, "os.PathLike[str]"]
PuzzleLike = Union["Puzzle", str]
Schemes = Union[str, Sequence[str], None]

class SudokitError(Exception):
    """A failure of sudokit: a backend that cannot take a puzzle, an answer that is not a solution."""

class ParseError(SudokitError):
    """Text that is not a puzzle (or a solver's answer), with its place."""

    line: int
    column: int
    path: Optional[str]
    message: str

class Shape:
    @property
    def order(self) -> int: ...
    @property
    def box(self) -> Optional[Tuple[int, int]]: ...
    @property
    def latin(self) -> bool: ...
    @property
    def cells(self) -> int: ...

class Puzzle:
    @staticmethod
    def parse(
        text: str,
        box: Optional[Tuple[int, int]] = None,
        latin: bool = False,
        allow_clashes: bool = False,
    ) -> Puzzle: ...
    @staticmethod
    def from_grid(
        rows: Sequence[Sequence[Optional[int]]],
        box: Optional[Tuple[int, int]] = None,
        latin: bool = False,
    ) -> Puzzle: ...
    @property
    def shape(self) -> Shape: ...
    @property
    def order(self) -> int: ...
    @property
    def givens(self) -> list[Tuple[int, int, int]]: ...
    @property
    def complete(self) -> bool: ...
    @property
    def line(self) -> Optional[int]: ...
    def to_line(self) -> str: ...
    def to_grid(self) -> list[list[int]]: ...
    def to_block(self) -> str: ...
    def to_json(self) -> str: ...
    def svg(
        self,
        solution: Optional[Puzzle] = None,
        cell: float = 36.0,
        highlight: Optional[Sequence[Tuple[int, int]]] = None,
        caption: Optional[str] = None,
    ) -> str: ...
    def _repr_svg_(self) -> str: ...
    def __eq__(self, other: object) -> bool: ...
    def __hash__(self) -> int: ...

class PuzzleIter(Iterator[Union[Puzzle, ParseError]]):
    def __iter__(self) -> PuzzleIter: ...
    def __next__(self) -> Union[Puzzle, ParseError]: ...

def read(
    path: PathLike,
    box: Optional[Tuple[int, int]] = None,
    latin: bool = False,
    format: Optional[Literal["auto", "line", "block", "json"]] = None,
    errors: Literal["raise", "skip", "yield"] = "raise",
) -> PuzzleIter: ...

class Stats:
    nodes: int
    guesses: int
    backtracks: int
    propagations: int
    elapsed: float

class SolveResult:
    @property
    def status(
        self,
    ) -> Literal["solved", "unique", "multiple", "unsat", "unknown", "invalid", "error"]: ...
    @property
    def solution(self) -> Optional[Puzzle]: ...
    @property
    def second(self) -> Optional[Puzzle]: ...
    @property
    def reason(self) -> Optional[str]: ...
    @property
    def stats(self) -> Stats: ...
    @property
    def backend(self) -> str: ...
    @property
    def puzzle(self) -> Puzzle: ...
    def __bool__(self) -> bool: ...
    def _repr_svg_(self) -> str: ...

class CountResult:
    @property
    def count(self) -> int: ...
    @property
    def exact(self) -> bool: ...
    @property
    def hit_limit(self) -> bool: ...
    @property
    def stopped(self) -> Optional[str]: ...
    @property
    def solutions(self) -> list[Puzzle]: ...
    @property
    def stats(self) -> Stats: ...
    @property
    def backend(self) -> str: ...
    def __int__(self) -> int: ...

class Verification:
    @property
    def valid(self) -> bool: ...
    @property
    def violation(self) -> Optional[str]: ...
    @property
    def kind(
        self,
    ) -> Optional[Literal["shape", "empty", "out-of-range", "given-changed", "repeated"]]: ...
    @property
    def unit(self) -> Optional[Tuple[Literal["row", "column", "box"], int]]: ...
    def __bool__(self) -> bool: ...

def solve(
    puzzle: PuzzleLike,
    backend: str = "native",
    time_limit: Optional[float] = None,
    node_limit: Optional[int] = None,
) -> SolveResult: ...
def unique(
    puzzle: PuzzleLike,
    backend: str = "native",
    time_limit: Optional[float] = None,
    node_limit: Optional[int] = None,
) -> SolveResult: ...
def count(
    puzzle: PuzzleLike,
    limit: int = 2,
    backend: str = "native",
    time_limit: Optional[float] = None,
    node_limit: Optional[int] = None,
) -> CountResult: ...
def verify(puzzle: PuzzleLike, candidate: PuzzleLike) -> Verification: ...
def solve_many(
    puzzles: Iterable[PuzzleLike],
    backend: str = "native",
    threads: Optional[int] = None,
    unique: bool = False,
    time_limit: Optional[float] = None,
    node_limit: Optional[int] = None,
) -> list[SolveResult]: ...
def backends() -> list[str]: ...

class Clauses:
    @property
    def clauses(self) -> list[list[int]]: ...
    @property
    def num_vars(self) -> int: ...
    @property
    def encoding(self) -> Tuple[str, str]: ...
    @property
    def trivially_unsat(self) -> bool: ...
    def var(self, row: int, col: int, value: int) -> Optional[int]: ...
    def decode(self, model: Iterable[int]) -> Puzzle: ...
    def __len__(self) -> int: ...

def export(
    puzzle: PuzzleLike,
    to: str = "cnf",
    encoding: Optional[str] = None,
    amo: Optional[str] = None,
) -> str: ...
def formats() -> list[str]: ...
def to_clauses(
    puzzle: PuzzleLike, encoding: Optional[str] = None, amo: Optional[str] = None
) -> Clauses: ...
def decode(
    puzzle: PuzzleLike,
    answer: Union[str, bytes, Iterable[int]],
    source: str = "minisat",
    encoding: Optional[str] = None,
    amo: Optional[str] = None,
) -> SolveResult: ...
def precoloured_graph(
    puzzle: PuzzleLike,
) -> Tuple[int, list[Tuple[int, int]], list[Tuple[int, int]], int]: ...

class LatinReduction:
    @property
    def square(self) -> Puzzle: ...
    @property
    def sudoku(self) -> Puzzle: ...
    def back(self, solution: PuzzleLike) -> Puzzle: ...
    @property
    def sizes(self) -> list[Tuple[str, int, int, int, int]]: ...
    def report(self, solution: Optional[PuzzleLike] = None) -> str: ...
    def svg(self, solution: Optional[PuzzleLike] = None) -> str: ...
    def _repr_svg_(self) -> str: ...
    def _repr_html_(self) -> str: ...

def reduce_latin(square: PuzzleLike) -> LatinReduction: ...

class Explanation:
    @property
    def scheme(self) -> str: ...
    @property
    def why(self) -> str: ...
    @property
    def steps(self) -> list[dict[str, Any]]: ...
    @property
    def ending(self) -> Literal["solved", "search", "contradiction"]: ...
    @property
    def ending_json(self) -> dict[str, Any]: ...
    @property
    def solution(self) -> Optional[Puzzle]: ...
    def text(self) -> str: ...
    def to_json(self) -> str: ...
    def html(self) -> str: ...
    def _repr_html_(self) -> str: ...
    def __len__(self) -> int: ...

def explain(puzzle: PuzzleLike, scheme: Optional[str] = None) -> Explanation: ...

class Grade:
    @property
    def givens(self) -> int: ...
    @property
    def search_free(self) -> list[str]: ...
    @property
    def weakest(self) -> list[str]: ...
    @property
    def refuted(self) -> bool: ...
    @property
    def candidates(self) -> list[Tuple[str, Optional[int]]]: ...
    def to_json(self, file: str = "", line: int = 0) -> str: ...

def grade(
    puzzle: PuzzleLike, schemes: Schemes = None, shave: Optional[Literal["once", "fixpoint"]] = None
) -> Grade: ...
def schemes() -> list[str]: ...
def generate(
    box: Tuple[int, int] = (3, 3),
    seed: int = 1,
    index: int = 0,
    symmetry: Literal["none", "rot180", "rot90", "mirror", "diagonal"] = "none",
    givens: Optional[int] = None,
    scheme: Optional[str] = None,
    not_scheme: Optional[str] = None,
    shave: Optional[Literal["once", "fixpoint"]] = None,
    grids: Literal["search", "pattern"] = "search",
    attempts: int = 1000,
) -> Puzzle: ...
def minimize(puzzle: PuzzleLike, seed: Optional[int] = None) -> Puzzle: ...

# The shard functions of sudokit.dask.
Tail = Tuple[int, int, str, str]
Shard = Tuple[int, str, bytes, Optional[Tail]]

class ShardReader(Iterator[Shard]):
    def __iter__(self) -> ShardReader: ...
    def __next__(self) -> Shard: ...

def shards(
    path: PathLike,
    size: int,
    box: Optional[Tuple[int, int]] = None,
    latin: bool = False,
    format: Optional[str] = None,
) -> ShardReader: ...
def solve_shard(
    file: str,
    first_line: int,
    form: str,
    data: bytes,
    tail: Optional[Tail],
    backend: str = "native",
    unique: bool = False,
    json: bool = False,
    time_limit: Optional[float] = None,
    node_limit: Optional[int] = None,
    threads: int = 1,
    box: Optional[Tuple[int, int]] = None,
    latin: bool = False,
) -> Tuple[str, int, int, int]: ...

GradeSums = Tuple[int, int, int, int, list[int], list[int], int]

def grade_shard(
    file: str,
    first_line: int,
    form: str,
    data: bytes,
    tail: Optional[Tail],
    schemes: str = "all",
    shave: Optional[str] = None,
    threads: int = 1,
    box: Optional[Tuple[int, int]] = None,
    latin: bool = False,
) -> Tuple[str, GradeSums]: ...

class GradeSummary:
    def __init__(self, schemes: str = "all", shave: Optional[str] = None) -> None: ...
    def add(self, sums: GradeSums) -> None: ...
    @property
    def puzzles(self) -> int: ...
    @property
    def bad(self) -> int: ...
    def json_line(self, file: str) -> str: ...

CheckSums = Tuple[list[Tuple[int, int, int, int, int]], Tuple[int, int, int, int]]

def crosscheck_shard(
    file: str,
    first_line: int,
    form: str,
    data: bytes,
    tail: Optional[Tail],
    backends: Optional[Sequence[str]] = None,
    limit: int = 2,
    time_limit: Optional[float] = 10.0,
    node_limit: Optional[int] = None,
    json: bool = False,
    threads: int = 1,
    box: Optional[Tuple[int, int]] = None,
    latin: bool = False,
) -> Tuple[str, CheckSums]: ...

class CrosscheckSummary:
    def __init__(self, backends: Optional[Sequence[str]] = None) -> None: ...
    def add(self, sums: CheckSums) -> None: ...
    @property
    def counts(self) -> Tuple[int, int, int, int]: ...
    def text(self, json: bool = False) -> str: ...

def generate_range(
    box: Tuple[int, int],
    seed: int,
    start: int,
    stop: int,
    json: bool = False,
    grid_only: bool = False,
    symmetry: str = "none",
    givens: Optional[int] = None,
    scheme: Optional[str] = None,
    not_scheme: Optional[str] = None,
    shave: Optional[str] = None,
    grids: str = "search",
    attempts: int = 1000,
    threads: int = 1,
) -> str: ...
