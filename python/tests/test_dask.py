"""sudokit.dask against the command line: byte for byte the same output on a LocalCluster of two
workers, with shards small enough that every file is cut in many places (between puzzles, before
bad lines, inside runs of comments, between grid blocks), a failed task retried, and the
``python -m sudokit.dask`` command on a LocalCluster of worker processes."""

from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys
import types

import pytest

import sudokit
import sudokit.dask as sd
from conftest import DATA, REPO

pytest.importorskip("dask.distributed")

MIXED = str(DATA / "mixed.txt")
BLOCKS = str(DATA / "blocks.txt")
JSONL = str(DATA / "lines.jsonl")
TOP95 = "models/sudoku/9x9/top95.txt"


def run(command, *args, **kwargs) -> tuple[str, sd.Tally]:
    out = io.StringIO()
    tally = sd.run(command, *args, out=out, **kwargs)
    return out.getvalue(), tally


@pytest.mark.parametrize("path", [MIXED, BLOCKS, JSONL, TOP95])
@pytest.mark.parametrize("shard_size", [1, 4, 1000])
def test_grade_is_cli_grade_json(cli, client, in_repo, path, shard_size):
    code, expected = cli("grade", "--json", path)
    got, tally = run("grade", path, client=client, json=True, shard_size=shard_size)
    assert got == expected
    assert tally.exit_code == code


def test_summaries_kept_apart_leave_uniform_json_lines(cli, client, in_repo, tmp_path):
    code, expected = cli("grade", "--json", MIXED, TOP95)
    tables = tmp_path / "summaries.jsonl"
    got, tally = run("grade", MIXED, TOP95, client=client, json=True, shard_size=7,
                     summary_out=tables)
    records = [json.loads(line) for line in got.splitlines()]
    summaries = [json.loads(line) for line in tables.read_text().splitlines()]
    assert records and all("line" in r for r in records)
    assert [s["file"] for s in summaries] == [MIXED, TOP95] and all("line" not in s for s in summaries)
    assert sorted(expected.splitlines()) == sorted(got.splitlines() + tables.read_text().splitlines())
    assert tally.exit_code == code


def test_grade_with_schemes_and_several_files(cli, client, in_repo):
    code, expected = cli("grade", "--json", "--schemes", "FC,HAC,HACV", "--shave", "fixpoint",
                         MIXED, TOP95)
    got, tally = run("grade", MIXED, TOP95, client=client, json=True, schemes="FC,HAC,HACV",
                     shave="fixpoint", shard_size=3)
    assert got == expected and tally.exit_code == code == 2


@pytest.mark.parametrize("options", [[], ["--unique"], ["--backend", "dlx", "--unique"]])
@pytest.mark.parametrize("path", [MIXED, BLOCKS, JSONL])
def test_solve_is_cli_solve(cli, client, in_repo, path, options):
    code, expected = cli("solve", *options, path)
    got, tally = run(
        "solve", path, client=client, shard_size=3,
        unique="--unique" in options, backend=options[1] if "--backend" in options else "native",
    )
    assert got == expected
    assert tally.exit_code == code


def test_solve_json_matches_but_for_the_times(cli, client, in_repo):
    _, expected = cli("solve", "--json", MIXED)
    got, _ = run("solve", MIXED, client=client, json=True, shard_size=2)
    untimed = lambda text: re.sub(r'"elapsed_us":[0-9.e-]+', '"elapsed_us":0', text)
    assert untimed(got) == untimed(expected)
    assert len(got.splitlines()) == len(expected.splitlines())


def test_crosscheck_is_cli_crosscheck_but_for_the_times(cli, client, in_repo):
    backends = "native,dlx,sat"
    code, expected = cli("crosscheck", "--backends", backends, MIXED)
    got, tally = run("crosscheck", MIXED, client=client, backends=backends.split(","),
                     shard_size=4)
    rows = lambda text: text.split("\n\n")[0]
    assert rows(got) == rows(expected)
    # The summary table: the same counts; the times are measured where the work ran.
    untimed = lambda text: [l.split()[:5] for l in text.split("\n\n")[1].splitlines()]
    assert untimed(got) == untimed(expected)
    assert tally.exit_code == code
    _, expected = cli("crosscheck", "--json", "--backends", backends, JSONL)
    got, _ = run("crosscheck", JSONL, client=client, json=True,
                 backends=backends.split(","), shard_size=3)
    strip = lambda text: [
        {k: v for k, v in json.loads(l).items() if k != "runs"} for l in text.splitlines()[:-1]
    ]
    assert strip(got) == strip(expected)


def test_generate_is_cli_generate(cli, client):
    _, expected = cli("generate", "--box", "2x3", "--count", "23", "--seed", "5", "--json")
    got, tally = run("generate", client=client, count=23, box=(2, 3), seed=5, json=True, chunk=4)
    assert got == expected and tally.total == 23
    _, expected = cli("generate", "--box", "3x3", "--count", "7", "--seed", "3",
                      "--symmetry", "mirror")
    got, _ = run("generate", client=client, count=7, seed=3, symmetry="mirror", chunk=2)
    assert got == expected


def test_a_failed_task_is_retried(cli, client, in_repo, monkeypatch, tmp_path):
    """The first attempt of every third shard fails (a worker lost, say); Dask runs it again and
    the output is still the command line's."""
    real = sudokit._native.run_task
    marks = tmp_path / "failed"
    marks.mkdir()

    def flaky(plan, task):
        # Attempts are marked on disk: the task may run in another thread or process. A task
        # is bytes: a JSON header line (the shard's first line among it), then the shard.
        first_line = json.loads(task.split(b"\n", 1)[0])["shards"][0]["first"]
        mark = marks / str(first_line)
        if first_line % 3 == 0 and not mark.exists():
            mark.touch()
            raise RuntimeError(f"injected failure of the shard at line {first_line}")
        return real(plan, task)

    # The runner looks its task function up in sudokit.dask's _native: a stand-in whose
    # run_task is the flaky one.
    stand_in = types.SimpleNamespace(**{k: getattr(sudokit._native, k) for k in dir(sudokit._native)})
    stand_in.run_task = flaky
    monkeypatch.setattr(sd, "_native", stand_in)
    _, expected = cli("grade", "--json", TOP95)
    got, _ = run("grade", TOP95, client=client, json=True, shard_size=5)
    assert len(list(marks.iterdir())) >= 3, "no shard failed: the test tested nothing"
    assert got == expected
    # Without retries the failure reaches the caller.
    for mark in marks.iterdir():
        mark.unlink()
    with pytest.raises(RuntimeError, match="injected failure"):
        run("grade", TOP95, client=client, json=True, shard_size=5, retries=0)


def test_bad_options_fail_before_any_task(client):
    with pytest.raises(ValueError):
        run("solve", MIXED, client=client, backend="quantum")
    with pytest.raises(ValueError):
        run("grade", MIXED, client=client, schemes="XYZ")
    # Options are named as Python spells them, with what they take.
    with pytest.raises(ValueError, match="unknown keyword argument `bogus`"):
        run("solve", MIXED, client=client, bogus=1)
    with pytest.raises(ValueError, match="time_limit takes a number"):
        run("solve", MIXED, client=client, time_limit="soon")
    with pytest.raises(ValueError, match="^proof_dir goes with backend sat"):
        run("solve", MIXED, client=client, backend="dlx", proof_dir="/tmp/x")
    with pytest.raises(ValueError, match="unknown command"):
        run("slove", MIXED, client=client)
    empty = DATA / "empty.txt"
    with pytest.raises(ValueError, match="no puzzles found"):
        run("grade", str(empty), client=client)


def test_bench_is_refused_before_any_task(in_repo, capsys):
    """bench times whole files in one process (the registry marks it not shardable): the rows
    of shards would be other runs that do not add up to a file's row, so Dask refuses it, from
    Python and from the command line, before connecting to any cluster."""
    refusal = "bench times whole runs in one process: use sudokit.run"
    with pytest.raises(ValueError, match=re.escape(refusal)):
        sd.run("bench", MIXED)
    assert not dict((n, s) for n, *_, s in sudokit._native.commands())["bench"]
    assert sd.main(["bench", MIXED]) == 2
    assert refusal in capsys.readouterr().err


def test_the_command_prints_what_the_cli_prints(cli, in_repo, tmp_path):
    """`python -m sudokit.dask grade FILE --scheduler local` (a LocalCluster of worker processes)
    against `sudokit grade --json FILE`, and `-o FILE`."""
    code, expected = cli("grade", "--json", MIXED)
    env = dict(os.environ)
    done = subprocess.run(
        [sys.executable, "-m", "sudokit.dask", "grade", "--json", MIXED, "--scheduler", "local",
         "--shard-size", "5"],
        capture_output=True, text=True, timeout=600, env=env,
    )
    assert done.stdout == expected, done.stderr
    assert done.returncode == code == 2
    out = tmp_path / "solved.txt"
    _, expected = cli("solve", TOP95)
    done = subprocess.run(
        [sys.executable, "-m", "sudokit.dask", "solve", TOP95, "--scheduler", "local",
         "--shard-size", "10", "-o", str(out)],
        capture_output=True, text=True, timeout=600, env=env,
    )
    assert done.returncode == 0, done.stderr
    assert out.read_text() == expected


def test_the_command_s_flags_are_the_registry_s_options():
    """Every option of every command is a flag of ``python -m sudokit.dask`` with the library's
    help and kind: a switch on by default is turned off by its ``--no-`` flag, a list is split
    at commas, a box shape is PxQ; only the options given reach the job."""
    parser = sd._parser()
    for command in sd.COMMANDS:
        help_text = parser._subparsers._group_actions[0].choices[command].format_help()
        for option in json.loads(sudokit._native.options(command)):
            if option["name"] != "threads":
                assert "--" + option["flag"] in help_text, (command, option)
                assert option["help"].split()[0] in help_text, (command, option)
    args = vars(parser.parse_args(["generate", "--no-sweeps", "--box", "2x3", "--count", "4"]))
    assert {k: v for k, v in args.items() if k.startswith("option_")} == {
        "option_sweeps": False, "option_box": (2, 3), "option_count": 4}
    args = vars(parser.parse_args(["crosscheck", MIXED, "--backends", "dlx,sat", "--external"]))
    assert (args["option_backends"], args["option_external"]) == (["dlx", "sat"], [])
    args = vars(parser.parse_args(["solve", MIXED, "--time-limit", "1.5", "--unique"]))
    assert (args["option_time_limit"], args["option_unique"]) == (1.5, True)
    assert "option_backend" not in args


def test_a_killed_worker_is_reported_plainly(monkeypatch, capsys):
    """When Dask gives up on a task (its workers died, retries spent), the command says so in
    one line and exits 1, instead of a traceback."""
    distributed = pytest.importorskip("distributed")

    def dies(*args, **kwargs):
        worker = types.SimpleNamespace(address="tcp://10.0.0.9:4000")
        raise distributed.KilledWorker("run_task-1", worker, 3)

    monkeypatch.setattr(sd, "run", dies)
    assert sd.main(["solve", MIXED]) == 1
    err = capsys.readouterr().err
    assert "a Dask worker died" in err and "--resume" in err and "Traceback" not in err


def test_an_existing_client_is_used_and_left_open(client, in_repo):
    """A client passed in is the one the tasks run on (no cluster is started) and stays open."""
    out = io.StringIO()
    tally = sd.run("info", MIXED, out=out, client=client, shard_size=4)
    assert tally.total > 0 and client.status == "running"
