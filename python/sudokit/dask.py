"""Batches on a Dask cluster: every command of the library's registry (:data:`COMMANDS`: solve,
count, grade, cross-check, generate, minimize, verify, info, generate-latin, reduce-latin).

The input is split into shards of whole puzzles (by the library's own reader, so a shard is read
exactly as the whole file is); each shard is a Dask task that runs the library's command on a
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
import json as _json
import contextlib
import os
import sys
from collections import deque
from typing import IO, Any, Callable, Iterable, Iterator, Optional, Sequence, Tuple, Union

from . import _native

#: Puzzles per shard (per Dask task) when the caller does not say.
DEFAULT_SHARD_SIZE = 2000

#: Puzzles generated per task when the caller does not say.
DEFAULT_GENERATE_CHUNK = 50

#: Times Dask retries a failed task.
DEFAULT_RETRIES = 2

PathLike = Union[str, "os.PathLike[str]"]
Out = Union[IO[str], PathLike, None]


#: How a batch went: the library's tally (``total``, ``done``, ``negative``, ``unknown``,
#: ``errors``), ``complete``, the command line's ``exit_code`` and its ``notes``.
Tally = _native.RunTally


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


#: The registry's commands: name -> (inputs, resumable, per_input, about), where inputs is
#: "none", "one", "two", "one_or_more" or "one_or_none". Read from the library, never written
#: here.
COMMANDS = {
    name: (inputs, resumable, per_input, about)
    for name, inputs, resumable, per_input, about in _native.commands()
}


def _calls(
    command: str,
    options: str,
    json: bool,
    inputs: Sequence[str],
    file: str,
    shard_size: int,
    chunk: int,
    count: int,
    box: Optional[Tuple[int, int]],
    latin: bool,
) -> Iterator[Tuple[tuple, dict]]:
    """The tasks of one input (one file, the pair of a two-input command, or the range of a
    command without input)."""
    kind = COMMANDS[command][0]
    base = dict(box=box, latin=latin, inputs=len(inputs))
    if kind == "none":
        for start in range(0, count, chunk):
            yield (command, options, json), dict(
                inputs=0, range=(start, min(start + chunk, count))
            )
        return
    if kind == "two":
        left = iter(_shards(inputs[0], shard_size, box, latin))
        right = iter(_shards(inputs[1], shard_size, box, latin))
        k = 0
        while True:
            a, b = next(left, None), next(right, None)
            if a is None and b is None:
                return
            yield (command, options, json), dict(
                base, file=inputs[0], shard=a, first_index=k * shard_size,
                second_file=inputs[1], second=b,
            )
            k += 1
    for k, shard in enumerate(_shards(file, shard_size, box, latin)):
        yield (command, options, json), dict(
            base, file=file, shard=shard, first_index=k * shard_size
        )


def run(
    command: str,
    *inputs: PathLike,
    out: Out = None,
    client: Any = None,
    scheduler: Optional[str] = None,
    json: bool = False,
    resume: bool = False,
    force: bool = False,
    box: Optional[Tuple[int, int]] = None,
    latin: bool = False,
    shard_size: int = DEFAULT_SHARD_SIZE,
    chunk: int = DEFAULT_GENERATE_CHUNK,
    threads_per_task: int = 1,
    retries: int = DEFAULT_RETRIES,
    **options: Any,
) -> Tally:
    """``sudokit COMMAND INPUTS... [--json] [-o OUT [--resume|--force]]`` on a Dask cluster.

    ``command`` is any command of the library's registry (:data:`COMMANDS`); ``options`` are
    its options as keyword arguments (those of ``sudokit.run``: ``backend=``, ``unique=``,
    ``time_limit=``, ``schemes=``, ...); the command's job checks them here, before any task is
    submitted. Each task runs the command over a shard of ``shard_size`` puzzles (``chunk``
    puzzles for generate); the records are placed in input order by the library's recorder,
    into ``out``: a path is a resumable result file as with ``sudokit COMMAND -o FILE``
    (``resume=True`` continues an interrupted run, ``force=True`` discards one), a stream gets
    the text, None is standard output. Commands that end with tables (grade, crosscheck,
    minimize) write a stream or a path written whole.

    Returns the tally; its ``exit_code`` is the command line's, its ``notes`` are printed on
    standard error.

    Raises:
        ValueError: an unknown command or option, a bad value, inputs that do not fit the
            command, an input with no puzzle.
        OSError: an input that cannot be read, an output that cannot be written.
        SudokitError: a resumed output that does not fit the input or another run's lock.
    """
    if command not in COMMANDS:
        raise ValueError(f"unknown command {command} (known: {', '.join(COMMANDS)})")
    if shard_size < 1 or chunk < 1:
        raise ValueError("shard_size and chunk must be at least 1")
    files = [os.fspath(p) for p in inputs]
    kind, resumable, per_input, _ = COMMANDS[command]
    if kind == "one_or_none" and not files:
        raise ValueError(
            f"{command} without input runs in one process (sudokit.run): Dask shards input files"
        )
    if kind == "none" and box is not None:
        options["box"], box = box, None  # generate's box is the shape it makes
    options.setdefault("threads", threads_per_task)
    text = _native.check_options(command, **options)
    output = os.fspath(out) if isinstance(out, (str, os.PathLike)) and out != "-" else None
    to_file = output is not None and resumable
    progress = _native.ShardRun(
        command, text, json=json, output=output if to_file else None,
        resume=resume, force=force, inputs=files,
    )
    count = progress.generated() or 0
    for note in progress.notes():
        _note(note)
    client, close = _connect(client, scheduler)
    complete = False
    try:
        with _output(None if to_file else out) as stream:
            stream.write(progress.begin())
            per_file = files if kind == "one_or_more" else [files[0] if files else "-"]
            for file in per_file:
                seen = 0
                calls = _calls(
                    command, text, json, files, file, shard_size, chunk, count, box, latin
                )
                for entries, share in _ordered(client, _native.run_shard, calls, retries):
                    seen += len(entries)
                    stream.write(progress.push(entries, share))
                if seen == 0 and kind != "none":
                    raise _no_puzzles(file)
                if per_input:
                    stream.write(progress.end_input(file))
            stream.write(progress.end(True))
            complete = True
    finally:
        close()
        tally = progress.finish(complete)
    for note in tally.notes:
        _note(note)
    return tally


def solve_file(path: PathLike, **kwargs: Any) -> Tally:
    """``sudokit solve FILE`` on a Dask cluster: :func:`run` of ``"solve"``."""
    return run("solve", path, **kwargs)


def grade_file(paths: Union[PathLike, Sequence[PathLike]], **kwargs: Any) -> Tally:
    """``sudokit grade --json FILE...`` on a Dask cluster: :func:`run` of ``"grade"`` with
    ``json=True`` unless told otherwise (``schemes`` a string or a list of names)."""
    kwargs.setdefault("json", True)
    if isinstance(paths, (str, os.PathLike)):
        paths = [paths]
    schemes = kwargs.get("schemes")
    if schemes is not None and not isinstance(schemes, str):
        kwargs["schemes"] = ",".join(schemes)
    return run("grade", *paths, **kwargs)


def crosscheck_file(path: PathLike, **kwargs: Any) -> Tally:
    """``sudokit crosscheck FILE`` on a Dask cluster: :func:`run` of ``"crosscheck"``
    (``backends`` a list of specs; none: the library's default participants)."""
    if kwargs.get("backends") is None:
        kwargs.pop("backends", None)
    return run("crosscheck", path, **kwargs)


def generate(count: int, **kwargs: Any) -> Tally:
    """``sudokit generate --count N`` on a Dask cluster: :func:`run` of ``"generate"``; puzzle
    ``i`` depends only on the seed and ``i``, so the output is the command line's whatever the
    cluster."""
    if count < 0:
        raise ValueError("count must be at least 0")
    return run("generate", count=count, **kwargs)


def _box(text: str) -> Tuple[int, int]:
    try:
        p, q = text.lower().split("x")
        return int(p), int(q)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected PxQ (e.g. 3x3), not {text}") from None


def _value(text: str) -> Any:
    """A flag's value as the option's JSON: a number, true/false, a list (``a,b``), or text."""
    try:
        return _json.loads(text)
    except ValueError:
        return text


def _list(text: str) -> list:
    return [part for part in text.split(",") if part]


def _parser() -> argparse.ArgumentParser:
    """The command line, generated from the jobs' option tables (``_native.option_defaults``):
    one flag per option, ``--time-limit`` for ``time_limit``, a switch for a boolean option."""
    parser = argparse.ArgumentParser(
        prog="python -m sudokit.dask",
        description="sudokit's batch commands on a Dask cluster: the command line's output, "
        "in input order.",
    )
    commands = parser.add_subparsers(dest="command", required=True)
    for command, (kind, _, _, about) in COMMANDS.items():
        sub = commands.add_parser(command, help=f"sudokit {command} on a Dask cluster: {about}")
        if kind in ("one", "one_or_none"):
            sub.add_argument("inputs", nargs=1, metavar="FILE")
        elif kind == "one_or_more":
            sub.add_argument("inputs", nargs="+", metavar="FILE")
        elif kind == "two":
            sub.add_argument("inputs", nargs=2, metavar="FILE")
        defaults = _json.loads(_native.option_defaults(command))
        for name, default in defaults.items():
            flag = "--" + name.replace("_", "-")
            if name == "threads":
                continue
            if name == "box":
                sub.add_argument(flag, dest=f"option_{name}", type=_box, metavar="PxQ",
                                 default=tuple(default))
            elif isinstance(default, bool):
                sub.add_argument(flag, dest=f"option_{name}", action="store_true",
                                 default=default)
            elif isinstance(default, list):
                sub.add_argument(flag, dest=f"option_{name}", type=_list, metavar="A,B",
                                 default=None)
            else:
                shown = "" if default is None else f" (default {default})"
                sub.add_argument(flag, dest=f"option_{name}", type=_value, default=None,
                                 metavar=name.upper(), help=f"the job's {name}{shown}")
        sub.add_argument("--json", action="store_true", help="one JSON object per record")
        sub.add_argument("--scheduler", default="local", metavar="ADDRESS|local",
                         help="the Dask scheduler (tcp://host:8786), or local: a LocalCluster "
                         "here (default)")
        sub.add_argument("-o", "--output", metavar="FILE",
                         help="write here (default: stdout); a resumable result file")
        sub.add_argument("--resume", action="store_true", help="continue FILE.partial")
        sub.add_argument("--force", action="store_true", help="discard FILE.partial")
        sub.add_argument("--retries", type=int, default=DEFAULT_RETRIES, help="retries per task")
        sub.add_argument("--threads-per-task", type=int, default=1,
                         help="batch threads inside each task")
        if kind == "none":
            sub.add_argument("--chunk", type=int, default=DEFAULT_GENERATE_CHUNK,
                             help="puzzles per task")
        else:
            sub.add_argument("--shard-size", type=int, default=DEFAULT_SHARD_SIZE,
                             help="puzzles per task")
            sub.add_argument("--box", type=_box, metavar="PxQ", help="read puzzles with PxQ boxes")
            sub.add_argument("--latin", action="store_true", help="read puzzles as Latin squares")
    return parser


def main(argv: Optional[Sequence[str]] = None) -> int:
    """The command line of ``python -m sudokit.dask``; returns the exit code."""
    args = _parser().parse_args(argv)
    defaults = _json.loads(_native.option_defaults(args.command))
    options = {}
    for name, default in defaults.items():
        value = getattr(args, f"option_{name}", None)
        if value is not None and value != default:
            options[name] = value
    shared: dict = dict(
        out=args.output,
        scheduler=args.scheduler,
        retries=args.retries,
        threads_per_task=args.threads_per_task,
        json=args.json,
        resume=args.resume,
        force=args.force,
    )
    if COMMANDS[args.command][0] == "none":
        shared.update(chunk=args.chunk)
    else:
        shared.update(box=args.box, latin=args.latin, shard_size=args.shard_size)
    try:
        tally = run(args.command, *getattr(args, "inputs", []), **shared, **options)
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
