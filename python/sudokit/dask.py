"""Batches on a Dask cluster: every command of the library's registry (:data:`COMMANDS`), run
by :func:`run` or ``python -m sudokit.dask COMMAND``.

The input is split into shards of whole puzzles (by the library's own reader, so a shard is read
exactly as the whole file is); each shard is a Dask task that runs the library's command on a
worker; the results are written **in input order, identical to the command line's output** (the
same lines, the same JSON, made by the same library functions), while later shards still run. A
task that fails (a worker lost, a process killed) is retried by Dask (``retries``); a bad puzzle
is reported in place, as the command line reports it.

The times inside the output (``elapsed_us`` of ``solve --json``, the cross-check's times) are
measured on the workers, so they differ from run to run, as they do between two runs of the
command line.

Where the work runs: pass a ``client`` (a ``dask.distributed.Client``), or a ``scheduler``
address (``tcp://host:8786``), or ``"local"`` (a ``LocalCluster`` on this machine: one worker
process per core, one thread each). The workers need this package installed, in the same version.

From the shell (every option of the command is a flag, with the library's help)::

    python -m sudokit.dask grade puzzles.txt --scheduler local -o grades.jsonl
    python -m sudokit.dask solve puzzles.txt --scheduler tcp://10.0.0.5:8786 --unique
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import json as _json
import os
import sys
from collections import deque
from typing import (IO, Any, Callable, Deque, Dict, Iterable, Iterator, List, Optional, Sequence,
                    Tuple, Union)

from . import _native
from ._results import RunTally as Tally  # how a batch went: the tally, exit code and notes

#: Puzzles per shard (per Dask task) when the caller does not say.
DEFAULT_SHARD_SIZE = 2000

#: Puzzles generated per task when the caller does not say.
DEFAULT_GENERATE_CHUNK = 50

#: Times Dask retries a failed task.
DEFAULT_RETRIES = 2

PathLike = Union[str, "os.PathLike[str]"]
Out = Union[IO[str], PathLike, None]


def _connect(client: Any, scheduler: Optional[str]) -> Tuple[Any, Callable[[], None]]:
    """The client to use and how to close what was opened for it."""
    if client is not None:
        return client, lambda: None
    try:
        distributed: Any = importlib.import_module("dask.distributed")
    except ImportError as e:  # pragma: no cover - depends on the environment
        raise ImportError(
            "sudokit.dask needs dask.distributed: pip install 'sudokit[dask]'"
        ) from e
    if scheduler in (None, "local"):
        cluster = distributed.LocalCluster(
            n_workers=os.cpu_count() or 1, threads_per_worker=1, dashboard_address=None
        )
        opened = distributed.Client(cluster)

        def close() -> None:
            opened.close()
            cluster.close()

        return opened, close
    opened = distributed.Client(scheduler)
    return opened, opened.close


def _window(client: Any) -> int:
    """Tasks kept in flight: two per worker thread, at least four."""
    try:
        threads = int(sum(client.nthreads().values()))
    except Exception:  # pragma: no cover - a scheduler that does not answer yet
        threads = 1
    return max(4, 2 * threads)


def _ordered(client: Any, plan: str, steps: Iterable[Any], retries: int) -> Iterator[Tuple[str, Any]]:
    """Submits a task for each ``bytes`` step, a window at a time, and yields the steps in
    order, each as soon as it and every one before it are done: ``("result", JSON)`` for a task,
    ``("end", name)`` for the end of an input."""
    window = _window(client)
    pending: Deque[Any] = deque()

    def done(step: Any) -> Tuple[str, Any]:
        return ("end", step) if isinstance(step, str) else ("result", step.result())

    for step in steps:
        if not isinstance(step, str):
            step = client.submit(_native.run_task, plan, step, retries=retries, pure=False)
        pending.append(step)
        if len(pending) >= window:
            yield done(pending.popleft())
    while pending:
        yield done(pending.popleft())


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


def _note(message: str) -> None:
    print(f"sudokit: {message}", file=sys.stderr)


#: The registry's commands: name -> (inputs, resumable, per_input, about, shardable), where
#: inputs is "none", "one", "two", "one_or_more" or "one_or_none", and a command that is not
#: shardable (bench) is refused by the library's plan. Read from the library, never written here.
COMMANDS: Dict[str, Tuple[str, bool, bool, str, bool]] = {
    name: (inputs, resumable, per_input, about, shardable)
    for name, inputs, resumable, per_input, about, shardable in _native.commands()
}


def _options(command: str) -> List[Dict[str, Any]]:
    """The registry's options of ``command``: each one's name, kind, flag, help and default."""
    options: List[Dict[str, Any]] = _json.loads(_native.options(command))
    return options


def run(
    command: str,
    *inputs: PathLike,
    out: Out = None,
    summary_out: Out = None,
    client: Any = None,
    scheduler: Optional[str] = None,
    json: bool = False,
    resume: bool = False,
    force: bool = False,
    box: Optional[Tuple[int, int]] = None,
    latin: bool = False,
    regions: Union[str, Sequence[str], None] = None,
    extra: Union[str, Sequence[str], None] = None,
    shard_size: int = DEFAULT_SHARD_SIZE,
    chunk: int = DEFAULT_GENERATE_CHUNK,
    threads_per_task: int = 1,
    retries: int = DEFAULT_RETRIES,
    **options: Any,
) -> Tally:
    """``sudokit COMMAND INPUTS... [--json] [-o OUT [--resume|--force]]`` on a Dask cluster.

    ``command`` is any command of the library's registry (:data:`COMMANDS`); ``options`` are
    its options as keyword arguments (those of ``sudokit.run``: ``backend=``, ``unique=``,
    ``time_limit=``, ``schemes=``, ...; ``sudokit._native.options(command)`` lists them); the
    command's job checks them here, before any task is submitted. Each task runs the command
    over a shard of ``shard_size`` puzzles (``chunk`` items for a command without input); the
    records are placed in input order by the library, into ``out``: a path is a resumable
    result file as with ``sudokit COMMAND -o FILE`` (``resume=True`` continues an interrupted
    run, ``force=True`` discards one), a stream gets the text, None is standard output.
    Commands that end with tables (grade, crosscheck, minimize) write a stream or a path
    written whole; ``summary_out`` (a stream or a path) keeps their summaries (grade's and
    minimize's line per input, the closing tables) apart, so that ``out`` gets the records
    only: with ``json=True``, one JSON object per puzzle and nothing else (default: after the
    records, as the command line writes them). ``box`` is the shape the inputs are read with, or for a command with a
    ``box`` option (generate) that option; ``regions`` (a region map: its text or rows) and
    ``extra`` (``"diagonals"``, ``"windows"`` or a list) likewise.

    Returns the tally; its ``exit_code`` is the command line's, its ``notes`` are printed on
    standard error.

    Raises:
        ValueError: an unknown command or option, a bad value, inputs that do not fit the
            command, an input with no puzzle.
        OSError: an input that cannot be read, an output that cannot be written.
        SudokitError: a resumed output that does not fit the input or another run's lock.
    """
    if box is not None and command in COMMANDS and any(
        o["name"] == "box" for o in _options(command)
    ):
        options["box"], box = box, None
    rows = regions.split("\n") if isinstance(regions, str) else regions
    names = [extra] if isinstance(extra, str) else list(extra or [])
    if command == "generate":
        if rows is not None:
            options["regions"], rows = list(rows), None
        if names:
            options["extra"], names = names, []
    options.setdefault("threads", threads_per_task)
    output = os.fspath(out) if isinstance(out, (str, os.PathLike)) and out != "-" else None
    to_file = output is not None and COMMANDS.get(command, ("", False))[1]
    progress = _native.DaskRun(
        command, [os.fspath(p) for p in inputs], _json.dumps(options), json=json,
        output=output if to_file else None, resume=resume, force=force, box=box, latin=latin,
        shard_size=shard_size, chunk=chunk, regions=None if rows is None else list(rows),
        extra=names,
    )
    for note in progress.notes():
        _note(note)
    client, close = _connect(client, scheduler)
    complete = False
    try:
        with contextlib.ExitStack() as files:
            stream = files.enter_context(_output(None if to_file else out))
            tables = stream if summary_out is None else files.enter_context(_output(summary_out))
            tables.write(progress.begin())
            for step, value in _ordered(client, progress.plan, progress, retries):
                if step == "result":
                    stream.write(progress.push(value))
                else:
                    tables.write(progress.end_input(value))
            tables.write(progress.end(True))
            complete = True
    finally:
        close()
        tally = Tally(*progress.finish(complete))
    for note in tally.notes:
        _note(note)
    return tally


def _read_map(path: str) -> str:
    """The text of the region map file ``path`` (``--regions``; the library checks it)."""
    try:
        with open(path, encoding="utf-8") as f:
            return f.read()
    except OSError as e:
        raise argparse.ArgumentTypeError(f"cannot read {path}: {e}") from e


def _box(text: str) -> Tuple[int, int]:
    try:
        p, q = text.lower().split("x")
        return int(p), int(q)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected PxQ (e.g. 3x3), not {text}") from None


def _list(text: str) -> List[str]:
    return [part for part in text.split(",") if part]


#: How each kind of option is read from its flag (a switch is a flag without value).
_KINDS: Dict[str, Dict[str, Any]] = {
    "integer": dict(type=int, metavar="N"),
    "number": dict(type=float, metavar="X"),
    "text": dict(type=str, metavar="VALUE"),
    "list": dict(type=_list, nargs="?", const=[], metavar="A,B"),
    "shape": dict(type=_box, metavar="PxQ"),
}


def _parser() -> argparse.ArgumentParser:
    """The command line, generated from the library's registry: a subcommand per command, a
    flag per option (its kind, flag, help and default from ``_native.options``)."""
    parser = argparse.ArgumentParser(
        prog="python -m sudokit.dask",
        description="sudokit's batch commands on a Dask cluster: the command line's output, "
        "in input order.",
    )
    commands = parser.add_subparsers(dest="command", required=True)
    for command, (kind, _, _, about, shardable) in COMMANDS.items():
        where = "on a Dask cluster" if shardable else "refused (one process: use sudokit.run)"
        sub = commands.add_parser(command, help=f"sudokit {command} {where}: {about}")
        if kind != "none":
            nargs: Union[int, str] = {"one": 1, "one_or_none": 1, "two": 2}.get(kind, "+")
            sub.add_argument("inputs", nargs=nargs, metavar="FILE")
        for option in _options(command):
            if option["name"] == "threads":
                continue  # --threads-per-task
            default = option["default"]
            shown = "" if default in (None, False, []) else f" (default {default})"
            flag = dict(
                help=option["help"] + shown, dest=f"option_{option['name']}",
                default=argparse.SUPPRESS,
            )
            if option["kind"] == "switch":
                flag["action"] = "store_false" if default else "store_true"
            else:
                flag.update(_KINDS[option["kind"]])
            sub.add_argument("--" + option["flag"], **flag)
        sub.add_argument("--json", action="store_true", help="one JSON object per record")
        sub.add_argument("--scheduler", default="local", metavar="ADDRESS|local",
                         help="the Dask scheduler (tcp://host:8786), or local: a LocalCluster "
                         "here (default)")
        sub.add_argument("-o", "--output", metavar="FILE",
                         help="write here (default: stdout); a resumable result file")
        sub.add_argument("--summary-out", metavar="FILE",
                         help="the summaries here, apart from the records (default: after them)")
        sub.add_argument("--resume", action="store_true", help="continue FILE.partial")
        sub.add_argument("--force", action="store_true", help="discard FILE.partial")
        sub.add_argument("--retries", type=int, default=DEFAULT_RETRIES, help="retries per task")
        sub.add_argument("--threads-per-task", type=int, default=1,
                         help="batch threads inside each task")
        if kind == "none":
            sub.add_argument("--chunk", type=int, default=DEFAULT_GENERATE_CHUNK,
                             help="items per task")
        else:
            sub.add_argument("--shard-size", type=int, default=DEFAULT_SHARD_SIZE,
                             help="puzzles per task")
            sub.add_argument("--box", type=_box, metavar="PxQ", help="read puzzles with PxQ boxes")
            sub.add_argument("--latin", action="store_true", help="read puzzles as Latin squares")
            sub.add_argument("--regions", type=_read_map, metavar="FILE",
                             help="read puzzles with this region map in place of the boxes")
            sub.add_argument("--extra", action="append", choices=["diagonals", "windows"],
                             help="extra units (may be repeated)")
    return parser


def main(argv: Optional[Sequence[str]] = None) -> int:
    """The command line of ``python -m sudokit.dask``; returns the exit code."""
    args = vars(_parser().parse_args(argv))
    options = {k[len("option_"):]: v for k, v in args.items() if k.startswith("option_")}
    shared = {k: args[k] for k in ("json", "resume", "force", "retries", "threads_per_task",
                                   "summary_out",
                                   "scheduler", "chunk", "shard_size", "box", "latin",
                                   "regions", "extra")
              if k in args}
    try:
        tally = run(args["command"], *args.get("inputs", []), out=args["output"], **shared,
                    **options)
        return tally.exit_code
    except (ValueError, OSError, _native.SudokitError) as e:
        _note(str(e))
        return 2
    except BrokenPipeError:  # pragma: no cover - a closed pipe is a normal end
        return 0
    except Exception as e:  # a task that failed for good (a killed worker): said plainly
        if type(e).__name__ == "KilledWorker":
            _note(f"a Dask worker died running a task ({e}); the output is incomplete "
                  "(with -o FILE, run again with --resume to continue it)")
            return 1
        raise


if __name__ == "__main__":
    sys.exit(main())
