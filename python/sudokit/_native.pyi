"""Type stubs of the extension module (the bindings of the sudokit library)."""

from __future__ import annotations

import os
from typing import (Any, Callable, ClassVar, Hashable, Iterable, Iterator, Literal, Mapping,
                    Optional, Sequence, Tuple, Type, Union, overload)

from typing_extensions import final

from ._calls import count, grade, minimize, solve, unique, verify
from ._results import (Clauses, CountResult, Explanation, Grade, LatinReduction, Shape,
                       SolveResult, Verification)

_PathLike = Union[str, "os.PathLike[str]"]
_PuzzleLike = Union["Puzzle", str]

__all__ = ["DaskRun", "ParseError", "Puzzle", "PuzzleIter", "SudokitError", "_puzzle_from_state",
           "backend_name", "backends", "call", "commands", "decode", "explain", "explanation_page",
           "export", "formats", "latin_back", "latin_report", "latin_svg", "options",
           "precoloured_graph", "read", "records", "reduce_latin", "run", "run_task", "schemes",
           "solution_of", "to_clauses"]

class SudokitError(Exception):
    """A failure of sudokit: a backend that cannot take a puzzle, an answer that is not a solution."""

class ParseError(SudokitError):
    """Text that is not a puzzle (or a solver's answer), with its place."""

    line: int
    column: int
    path: Optional[str]
    message: str

@final
class Puzzle:
    def __new__(
        cls,
        text: str,
        box: Optional[Tuple[int, int]] = None,
        latin: bool = False,
        allow_clashes: bool = False,
        regions: Union[str, Sequence[str], None] = None,
        extra: Union[str, Sequence[str], None] = None,
    ) -> Puzzle: ...
    parse: ClassVar[Type[Puzzle]]  # the package sets it: Puzzle.parse(text) is Puzzle(text)
    @staticmethod
    def from_grid(
        rows: Sequence[Sequence[Optional[int]]],
        box: Optional[Tuple[int, int]] = None,
        latin: bool = False,
        regions: Union[str, Sequence[str], None] = None,
        extra: Union[str, Sequence[str], None] = None,
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
    # The module's functions as methods (the package sets them; `p.solve()` is `solve(p)`),
    # typed as those functions with the puzzle bound.
    solve = solve
    unique = unique
    count = count
    verify = verify
    export = export
    to_clauses = to_clauses
    def to_networkx(puzzle) -> Any: ...
    grade = grade
    minimize = minimize
    explain = explain
    @staticmethod
    def from_colouring(puzzle: _PuzzleLike, colouring: Mapping[int, Hashable]) -> Puzzle: ...
    def __eq__(self, other: object, /) -> bool: ...
    def __hash__(self) -> int: ...
    def __len__(self) -> int: ...
    def __iter__(self) -> Iterator[list[Optional[int]]]: ...
    def __getitem__(self, index: Tuple[int, int], /) -> Optional[int]: ...

def _puzzle_from_state(json: str, line: Optional[int]) -> Puzzle: ...

@final
class PuzzleIter(Iterator[Union[Puzzle, ParseError]]):
    def __iter__(self) -> PuzzleIter: ...
    def __next__(self) -> Union[Puzzle, ParseError]: ...

# What `read` yields depends on `errors`: puzzles only, or with "yield" a ParseError in place
# of each bad puzzle.
@overload
def read(
    path: _PathLike,
    box: Optional[Tuple[int, int]] = None,
    latin: bool = False,
    format: Optional[Literal["auto", "line", "block", "json"]] = None,
    regions: Union[str, Sequence[str], None] = None,
    extra: Union[str, Sequence[str], None] = None,
    errors: Literal["raise", "skip"] = "raise",
) -> Iterator[Puzzle]: ...
@overload
def read(
    path: _PathLike,
    box: Optional[Tuple[int, int]] = None,
    latin: bool = False,
    format: Optional[Literal["auto", "line", "block", "json"]] = None,
    regions: Union[str, Sequence[str], None] = None,
    extra: Union[str, Sequence[str], None] = None,
    *,
    errors: Literal["yield"],
) -> PuzzleIter: ...

def call(
    command: str, inputs: list[list[Any]], options: str = "{}", first: int = 0
) -> list[Tuple[str, dict[str, Any], list[Puzzle]]]: ...
def backend_name(
    backend: str, scheme: Optional[str] = None, encoding: Optional[str] = None, amo: Optional[str] = None
) -> str: ...
def backends() -> list[str]: ...

def export(
    puzzle: _PuzzleLike,
    to: str = "cnf",
    encoding: Optional[str] = None,
    amo: Optional[str] = None,
) -> str: ...
def formats() -> list[str]: ...
def to_clauses(
    puzzle: _PuzzleLike, encoding: Optional[str] = None, amo: Optional[str] = None
) -> Clauses: ...
def decode(
    puzzle: _PuzzleLike,
    answer: Union[str, bytes, Iterable[int]],
    source: str = "minisat",
    encoding: Optional[str] = None,
    amo: Optional[str] = None,
) -> SolveResult: ...
def precoloured_graph(
    puzzle: _PuzzleLike,
) -> Tuple[int, list[Tuple[int, int]], list[Tuple[int, int]], int]: ...
def solution_of(puzzle: _PuzzleLike, classes: Sequence[int]) -> Puzzle: ...

def reduce_latin(square: _PuzzleLike) -> LatinReduction: ...
def latin_back(square: _PuzzleLike, solution: _PuzzleLike) -> Puzzle: ...
def latin_report(square: _PuzzleLike, solution: Optional[_PuzzleLike] = None) -> str: ...
def latin_svg(square: _PuzzleLike, solution: Optional[_PuzzleLike] = None) -> str: ...

def explain(puzzle: _PuzzleLike, scheme: Optional[str] = None) -> Explanation: ...
def explanation_page(puzzle: _PuzzleLike, scheme: str) -> str: ...

def schemes() -> list[str]: ...

# The client and the task of sudokit.dask.
@final
class DaskRun(Iterator[Union[bytes, str]]):
    def __new__(cls, command: str, inputs: list[_PathLike], options: str = "{}",
                json: bool = False, output: Optional[_PathLike] = None, resume: bool = False,
                force: bool = False, box: Optional[Tuple[int, int]] = None, latin: bool = False,
                shard_size: int = 2000, chunk: int = 50,
                regions: Optional[Sequence[str]] = None,
                extra: Sequence[str] = ...) -> DaskRun: ...
    @property
    def plan(self) -> str: ...
    def notes(self) -> list[str]: ...
    def __iter__(self) -> DaskRun: ...
    def __next__(self) -> Union[bytes, str]: ...
    def begin(self) -> str: ...
    def push(self, result: str) -> str: ...
    def end_input(self, input: str) -> str: ...
    def end(self, complete: bool = True) -> str: ...
    def finish(self, complete: bool = True) -> _Tally: ...

def run_task(plan: str, task: bytes) -> str: ...

# `sudokit._results.RunTally`'s fields, and a record's status, text and JSON line.
_Tally = Tuple[int, int, int, int, int, bool, int, list[str]]

def run(command: str, inputs: list[str], options: str = "{}", json: bool = False,
        output: Optional[str] = None, resume: bool = False, force: bool = False,
        box: Optional[Tuple[int, int]] = None, latin: bool = False, format: Optional[str] = None,
        regions: Union[str, Sequence[str], None] = None,
        extra: Union[str, Sequence[str], None] = None,
        write: Optional[Callable[[str], Any]] = None) -> _Tally: ...
def records(command: str, inputs: list[str], options: str = "{}",
            box: Optional[Tuple[int, int]] = None, latin: bool = False,
            format: Optional[str] = None, regions: Union[str, Sequence[str], None] = None,
            extra: Union[str, Sequence[str], None] = None,
            ) -> Tuple[list[Tuple[str, str, str]], _Tally]: ...
def commands() -> list[Tuple[str, Literal["none", "one", "two", "one_or_more", "one_or_none"], bool, bool, str, bool]]: ...
def options(command: str) -> str: ...
