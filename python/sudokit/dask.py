"""Batches on a Dask cluster: solve, grade and cross-check puzzle files, and generate puzzles.

The input is split into shards of whole puzzles (by the library's own reader, so a shard is read
exactly as the whole file is); each shard is a Dask task that runs the library's batch driver on a
worker; the results are written **in input order, identical to the command line's output** (the
same lines, the same JSON, made by the same library functions), while later shards still run. A
task that fails (a worker lost, a process killed) is retried by Dask (``retries``); a bad puzzle
is reported in place, as the command line reports it.

=====================================  ==============================================
``solve_file(path, ...)``              ``sudokit solve FILE`` (``--unique``, ``--json``)
``grade_file(path, ...)``              ``sudokit grade --json FILE`` (without ``--runtime``)
``crosscheck_file(path, ...)``         ``sudokit crosscheck FILE`` (``--json``)
``generate(count=..., ...)``           ``sudokit generate --count N``
=====================================  ==============================================

Each writes to ``out`` (a text stream, a path, or standard output) and returns a :class:`Tally`
whose ``exit_code`` is the command line's. The times inside the output (``elapsed_us`` of
``solve --json``, the cross-check's times) are measured on the workers, so they differ from run
to run, as they do between two runs of the command line.

Where the work runs: pass a ``client`` (a ``dask.distributed.Client``), or a ``scheduler``
address (``tcp://host:8786``), or ``"local"`` (a ``LocalCluster`` on this machine: one worker
process per core, one thread each). The workers need this package installed, in the same version.

From the shell::

    python -m sudokit.dask grade puzzles.txt --scheduler local -o grades.jsonl
    python -m sudokit.dask solve puzzles.txt --scheduler tcp://10.0.0.5:8786 --unique
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
from collections import deque
from dataclasses import dataclass
from typing import IO, Any, Callable, Iterable, Iterator, Optional, Sequence, Tuple, Union

from . import _native

#: Puzzles per shard (per Dask task) when the caller does not say.
DEFAULT_SHARD_SIZE = 2000

#: Puzzles generated per task when the caller does not say.
DEFAULT_GENERATE_CHUNK = 50

#: Times Dask retries a failed task.
DEFAULT_RETRIES = 2

#: A shard with no puzzle: a task on it checks the options before any real task is submitted.
_EMPTY_SHARD = (1, "auto", b"", None)

PathLike = Union[str, "os.PathLike[str]"]
Out = Union[IO[str], PathLike, None]


@dataclass
class Tally:
    """How a batch went: items written, bad input (reported in place), negative answers (unsat,
    unknown, multiple with ``unique``, disagreements), and the command line's exit code for it."""

    total: int = 0
    bad: int = 0
    negative: int = 0

    @property
    def exit_code(self) -> int:
        """2 if some input was bad, else 1 if some answer was negative, else 0."""
        return 2 if self.bad else 1 if self.negative else 0


def _connect(client: Any, scheduler: Optional[str]) -> Tuple[Any, Callable[[], None]]:
    """The client to use and how to close what was opened for it."""
    if client is not None:
        return client, lambda: None
    try:
        from dask.distributed import Client, LocalCluster
    except ImportError as e:  # pragma: no cover - depends on the environment
        raise ImportError(
            "sudokit.dask needs dask.distributed: pip install 'sudokit[dask]'"
        ) from e
    if scheduler in (None, "local"):
        cluster = LocalCluster(
            n_workers=os.cpu_count() or 1, threads_per_worker=1, dashboard_address=None
        )
        opened = Client(cluster)

        def close() -> None:
            opened.close()
            cluster.close()

        return opened, close
    opened = Client(scheduler)
    return opened, opened.close


def _window(client: Any) -> int:
    """Tasks kept in flight: two per worker thread, at least four."""
    try:
        threads = sum(client.nthreads().values())
    except Exception:  # pragma: no cover - a scheduler that does not answer yet
        threads = 1
    return max(4, 2 * threads)


def _ordered(
    client: Any, function: Callable[..., Any], calls: Iterable[Tuple[tuple, dict]], retries: int
) -> Iterator[Any]:
    """Submits ``function(*args, **kwargs)`` for each call, a window at a time, and yields the
    results in call order, each as soon as it and every one before it are done."""
    window = _window(client)
    pending: deque = deque()
    for args, kwargs in calls:
        pending.append(client.submit(function, *args, retries=retries, pure=False, **kwargs))
        if len(pending) >= window:
            yield pending.popleft().result()
    while pending:
        yield pending.popleft().result()


@contextlib.contextmanager
def _output(out: Out) -> Iterator[IO[str]]:
    """A text stream for ``out``; a path is written under a temporary name and renamed when
    complete, so an interrupted run never leaves a file that looks whole."""
    if out is None or out == "-":
        yield sys.stdout
        sys.stdout.flush()
        return
    if not isinstance(out, (str, os.PathLike)):
        yield out
        return
    path = os.fspath(out)
    directory, name = os.path.split(path)
    temporary = os.path.join(directory, f".{name}.partial-{os.getpid()}")
    try:
        with open(temporary, "w", encoding="utf-8", newline="") as stream:
            yield stream
        os.replace(temporary, path)
    finally:
        if os.path.exists(temporary):
            os.remove(temporary)


def _shards(path: PathLike, size: int, box: Optional[Tuple[int, int]], latin: bool) -> Any:
    return _native.shards(path, size, box=box, latin=latin)


def _no_puzzles(file: str) -> ValueError:
    return ValueError(
        f"{file}: no puzzles found (the input is empty or holds only blank and # comment lines)"
    )


def _note(message: str) -> None:
    print(f"sudokit: {message}", file=sys.stderr)


def solve_file(
    path: PathLike,
    *,
    out: Out = None,
    client: Any = None,
    scheduler: Optional[str] = None,
    backend: str = "native",
    unique: bool = False,
    json: bool = False,
    time_limit: Optional[float] = None,
    node_limit: Optional[int] = None,
    box: Optional[Tuple[int, int]] = None,
    latin: bool = False,
    shard_size: int = DEFAULT_SHARD_SIZE,
    threads_per_task: int = 1,
    retries: int = DEFAULT_RETRIES,
) -> Tally:
    """``sudokit solve FILE`` on a Dask cluster: one line per puzzle, in input order (the
    solution, ``unsat``, ``unknown (...)``, with ``unique`` also ``multiple``; ``json`` for the
    JSON lines)."""
    file = os.fspath(path)
    options = dict(
        backend=backend,
        unique=unique,
        json=json,
        time_limit=time_limit,
        node_limit=node_limit,
        threads=threads_per_task,
        box=box,
        latin=latin,
    )
    # Check the options here, on an empty shard, before any task is submitted.
    _native.solve_shard(file, *_EMPTY_SHARD, **options)
    tally = Tally()
    client, close = _connect(client, scheduler)
    try:
        calls = (((file, *shard), options) for shard in _shards(path, shard_size, box, latin))
        with _output(out) as stream:
            for text, total, bad, negative in _ordered(
                client, _native.solve_shard, calls, retries
            ):
                stream.write(text)
                tally.total += total
                tally.bad += bad
                tally.negative += negative
    finally:
        close()
    if tally.total == 0:
        raise _no_puzzles(file)
    if tally.bad:
        _note(
            f"{tally.bad} of {tally.total} puzzles gave an error (reported in place, in input order)"
        )
    return tally


def grade_file(
    paths: Union[PathLike, Sequence[PathLike]],
    *,
    out: Out = None,
    client: Any = None,
    scheduler: Optional[str] = None,
    schemes: Union[str, Sequence[str]] = "all",
    shave: Optional[str] = None,
    box: Optional[Tuple[int, int]] = None,
    latin: bool = False,
    shard_size: int = DEFAULT_SHARD_SIZE,
    threads_per_task: int = 1,
    retries: int = DEFAULT_RETRIES,
) -> Tally:
    """``sudokit grade --json FILE...`` on a Dask cluster: one JSON object per puzzle, in input
    order, then the summary object of each file (search-free percentages, givens, lattice)."""
    if isinstance(paths, (str, os.PathLike)):
        paths = [paths]
    scheme_list = schemes if isinstance(schemes, str) else ",".join(schemes)
    options = dict(schemes=scheme_list, shave=shave, threads=threads_per_task, box=box, latin=latin)
    _native.GradeSummary(scheme_list, shave)  # checks the schemes before any task
    tally = Tally()
    client, close = _connect(client, scheduler)
    try:
        with _output(out) as stream:
            for path in paths:
                file = os.fspath(path)
                summary = _native.GradeSummary(scheme_list, shave)
                calls = (((file, *shard), options) for shard in _shards(path, shard_size, box, latin))
                for text, sums in _ordered(client, _native.grade_shard, calls, retries):
                    stream.write(text)
                    summary.add(sums)
                tally.total += summary.puzzles + summary.bad
                tally.bad += summary.bad
                if tally.total == 0:
                    raise _no_puzzles(file)
                stream.write(summary.json_line(file))
    finally:
        close()
    if tally.bad:
        _note(
            f"{tally.bad} of {tally.total} puzzles gave an error (reported in place, in input order)"
        )
    return tally


def crosscheck_file(
    path: PathLike,
    *,
    out: Out = None,
    client: Any = None,
    scheduler: Optional[str] = None,
    backends: Optional[Sequence[str]] = None,
    limit: int = 2,
    time_limit: Optional[float] = 10.0,
    node_limit: Optional[int] = None,
    json: bool = False,
    box: Optional[Tuple[int, int]] = None,
    latin: bool = False,
    shard_size: int = DEFAULT_SHARD_SIZE,
    threads_per_task: int = 1,
    retries: int = DEFAULT_RETRIES,
) -> Tally:
    """``sudokit crosscheck FILE`` on a Dask cluster: every backend (default: every complete one)
    on every puzzle, every solution verified, the answers compared; one row per puzzle in input
    order, then the summary table (or with ``json`` the JSON lines)."""
    file = os.fspath(path)
    backends = list(backends) if backends else None
    options = dict(
        backends=backends,
        limit=limit,
        time_limit=time_limit,
        node_limit=node_limit,
        json=json,
        threads=threads_per_task,
        box=box,
        latin=latin,
    )
    summary = _native.CrosscheckSummary(backends)
    _native.crosscheck_shard(file, *_EMPTY_SHARD, **options)
    client, close = _connect(client, scheduler)
    try:
        calls = (((file, *shard), options) for shard in _shards(path, shard_size, box, latin))
        with _output(out) as stream:
            for text, sums in _ordered(client, _native.crosscheck_shard, calls, retries):
                stream.write(text)
                summary.add(sums)
            total, bad, disagreements, _ = summary.counts
            if total == 0:
                raise _no_puzzles(file)
            stream.write(summary.text(json))
    finally:
        close()
    if bad:
        _note(f"{bad} of {total} puzzles gave an error (reported in place, in input order)")
    if disagreements:
        _note(
            f"{disagreements} of {total - bad} puzzles have answers that disagree "
            "(printed above with the puzzle)"
        )
    return Tally(total=total, bad=bad, negative=disagreements)


def generate(
    count: int,
    *,
    out: Out = None,
    client: Any = None,
    scheduler: Optional[str] = None,
    box: Tuple[int, int] = (3, 3),
    seed: int = 1,
    json: bool = False,
    grid_only: bool = False,
    symmetry: str = "none",
    givens: Optional[int] = None,
    scheme: Optional[str] = None,
    not_scheme: Optional[str] = None,
    shave: Optional[str] = None,
    grids: str = "search",
    attempts: int = 1000,
    chunk: int = DEFAULT_GENERATE_CHUNK,
    threads_per_task: int = 1,
    retries: int = DEFAULT_RETRIES,
) -> Tally:
    """``sudokit generate --box PxQ --count N --seed S`` on a Dask cluster: puzzle ``i`` depends
    only on the seed and ``i``, so the output is the command line's, whatever the cluster."""
    if count < 0 or chunk < 1:
        raise ValueError("count must be at least 0 and chunk at least 1")
    options = dict(
        json=json,
        grid_only=grid_only,
        symmetry=symmetry,
        givens=givens,
        scheme=scheme,
        not_scheme=not_scheme,
        shave=shave,
        grids=grids,
        attempts=attempts,
        threads=threads_per_task,
    )
    _native.generate_range(box, seed, 0, 0, **options)  # checks the options first
    client, close = _connect(client, scheduler)
    try:
        calls = (
            ((box, seed, start, min(start + chunk, count)), options)
            for start in range(0, count, chunk)
        )
        with _output(out) as stream:
            for text in _ordered(client, _native.generate_range, calls, retries):
                stream.write(text)
    finally:
        close()
    return Tally(total=count)


def _box(text: str) -> Tuple[int, int]:
    try:
        p, q = text.lower().split("x")
        return int(p), int(q)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected PxQ (e.g. 3x3), not {text}") from None


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m sudokit.dask",
        description="sudokit's batch commands on a Dask cluster: the command line's output, "
        "in input order.",
    )
    commands = parser.add_subparsers(dest="command", required=True)

    def common(sub: argparse.ArgumentParser, files: bool = True) -> None:
        sub.add_argument(
            "--scheduler",
            default="local",
            metavar="ADDRESS|local",
            help="the Dask scheduler (tcp://host:8786), or local: a LocalCluster here (default)",
        )
        sub.add_argument("-o", "--output", metavar="FILE", help="write here (default: stdout)")
        sub.add_argument("--retries", type=int, default=DEFAULT_RETRIES, help="retries per task")
        sub.add_argument(
            "--threads-per-task", type=int, default=1, help="batch threads inside each task"
        )
        if files:
            sub.add_argument(
                "--shard-size", type=int, default=DEFAULT_SHARD_SIZE, help="puzzles per task"
            )
            sub.add_argument("--box", type=_box, metavar="PxQ", help="read puzzles with PxQ boxes")
            sub.add_argument("--latin", action="store_true", help="read puzzles as Latin squares")

    solve = commands.add_parser("solve", help="solve each puzzle (sudokit solve)")
    solve.add_argument("file")
    solve.add_argument("--backend", default="native")
    solve.add_argument("--unique", action="store_true")
    solve.add_argument("--json", action="store_true")
    solve.add_argument("--time-limit", type=float)
    solve.add_argument("--node-limit", type=int)
    common(solve)

    grade = commands.add_parser("grade", help="grade each puzzle (sudokit grade --json)")
    grade.add_argument("files", nargs="+")
    grade.add_argument("--schemes", default="all")
    grade.add_argument("--shave", choices=["once", "fixpoint"])
    common(grade)

    check = commands.add_parser("crosscheck", help="cross-check backends (sudokit crosscheck)")
    check.add_argument("file")
    check.add_argument("--backends", type=lambda s: [b for b in s.split(",") if b])
    check.add_argument("--limit", type=int, default=2)
    check.add_argument("--time-limit", type=float, default=10.0)
    check.add_argument("--node-limit", type=int)
    check.add_argument("--json", action="store_true")
    common(check)

    make = commands.add_parser("generate", help="generate puzzles (sudokit generate)")
    make.add_argument("--box", type=_box, required=True, metavar="PxQ")
    make.add_argument("--count", type=int, default=1)
    make.add_argument("--seed", type=int, default=1)
    make.add_argument("--json", action="store_true")
    make.add_argument("--grid-only", action="store_true")
    make.add_argument("--symmetry", default="none")
    make.add_argument("--givens", type=int)
    make.add_argument("--scheme")
    make.add_argument("--not-scheme")
    make.add_argument("--shave", choices=["once", "fixpoint"])
    make.add_argument("--grids", default="search", choices=["search", "pattern"])
    make.add_argument("--attempts", type=int, default=1000)
    make.add_argument("--chunk", type=int, default=DEFAULT_GENERATE_CHUNK, help="puzzles per task")
    common(make, files=False)
    return parser


def main(argv: Optional[Sequence[str]] = None) -> int:
    """The command line of ``python -m sudokit.dask``; returns the exit code."""
    args = _parser().parse_args(argv)
    shared: dict = dict(
        out=args.output,
        scheduler=args.scheduler,
        retries=args.retries,
        threads_per_task=args.threads_per_task,
    )
    try:
        if args.command == "generate":
            tally = generate(
                args.count,
                box=args.box,
                seed=args.seed,
                json=args.json,
                grid_only=args.grid_only,
                symmetry=args.symmetry,
                givens=args.givens,
                scheme=args.scheme,
                not_scheme=args.not_scheme,
                shave=args.shave,
                grids=args.grids,
                attempts=args.attempts,
                chunk=args.chunk,
                **shared,
            )
            return tally.exit_code
        shared.update(box=args.box, latin=args.latin, shard_size=args.shard_size)
        if args.command == "solve":
            tally = solve_file(
                args.file,
                backend=args.backend,
                unique=args.unique,
                json=args.json,
                time_limit=args.time_limit,
                node_limit=args.node_limit,
                **shared,
            )
        elif args.command == "grade":
            tally = grade_file(args.files, schemes=args.schemes, shave=args.shave, **shared)
        else:
            tally = crosscheck_file(
                args.file,
                backends=args.backends,
                limit=args.limit,
                time_limit=args.time_limit,
                node_limit=args.node_limit,
                json=args.json,
                **shared,
            )
        return tally.exit_code
    except (ValueError, OSError, _native.SudokitError) as e:
        _note(str(e))
        return 2
    except BrokenPipeError:  # pragma: no cover - a closed pipe is a normal end
        return 0


if __name__ == "__main__":
    sys.exit(main())
