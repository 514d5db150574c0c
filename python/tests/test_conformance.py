"""One semantics for every face: each command run through the command line, ``sudokit.run``,
``sudokit.records`` and ``sudokit.dask.run`` on the same files of models/ (and the bad lines of
tests/data/mixed.txt), the outputs compared byte for byte.

Only the times a record carries (``elapsed_us``, a cross-check's milliseconds) may differ, as
they do between two runs of the command line; they are masked before the comparison, and the
masks are checked to leave everything else in place.
"""

from __future__ import annotations

import io
import json as _json
import re
from pathlib import Path

import pytest

import sudokit
import sudokit.dask as sd
from conftest import DATA

MIXED = str(DATA / "mixed.txt")
SAMPLE_4 = "models/sudoku/4x4/kr_4x4_sample.txt"
EASY = "models/sudoku/9x9/easy.txt"
EASY_SOLUTIONS = "models/sudoku/9x9/easy.solutions.txt"
HARD = "models/sudoku/9x9/hard.txt"
LATIN = "models/latin/partial.txt"
ANSWERS = "tests/fixtures/answers/"

# (name, CLI arguments, inputs, options of the job, read options)
CASES = [
    ("solve", ["solve"], [MIXED], {}, {}),
    ("solve-unique", ["solve", "--unique", "--backend", "dlx"], [HARD], {"unique": True, "backend": "dlx"}, {}),
    ("solve-unique-sat", ["solve", "--unique", "--backend", "sat"], [SAMPLE_4], {"unique": True, "backend": "sat"}, {}),
    # A count's work counters depend on how many threads share it: one thread everywhere.
    ("count", ["count", "--limit", "5", "--threads", "1"], [MIXED], {"limit": 5, "threads": 1}, {}),
    ("count-latin", ["count", "--threads", "1"], [LATIN], {"threads": 1}, {"latin": True}),
    ("grade", ["grade", "--schemes", "FC,HAC,HACV"], [MIXED, EASY], {"schemes": "FC,HAC,HACV"}, {}),
    ("crosscheck", ["crosscheck", "--backends", "native,dlx,sat"], [MIXED], {"backends": ["native", "dlx", "sat"]}, {}),
    ("generate", ["generate", "--box", "2x3", "--count", "9", "--seed", "4"], [], {"box": [2, 3], "count": 9, "seed": 4}, {}),
    ("minimize", ["minimize", "--seed", "3"], [SAMPLE_4, MIXED], {"seed": 3}, {}),
    ("verify", ["verify"], [EASY, EASY_SOLUTIONS], {}, {}),
    ("info", ["info"], [MIXED, EASY], {}, {}),
    ("reduce-latin", ["reduce", "latin"], [LATIN], {}, {}),
    ("solvers", ["solvers"], [], {}, {}),
    ("generate-latin", ["generate-latin", "--order", "5", "--holes", "8", "--count", "7", "--seed", "3"], [], {"order": 5, "holes": 8, "count": 7, "seed": 3}, {}),
    # decode: the puzzle file and a solver's answer; the index picks the third puzzle, in the
    # second shard of two puzzles on Dask. (bench is below: its rows are timings of whole
    # files, different on every run, and Dask refuses it.)
    ("decode", ["decode", "--from", "dimacs"], [ANSWERS + "two.txt", ANSWERS + "picosat-all.out"], {"reader": "dimacs"}, {}),
    ("decode-index", ["decode", "--from", "dimacs", "--index", "3"], [SAMPLE_4, ANSWERS + "kr-4x4-3-picosat-all.out"], {"reader": "dimacs", "index": 3}, {}),
]


def job_options(case, json: bool) -> dict:
    """The job's options of a case; ``reduce latin --json`` is ``--form json``, an option of
    the job (a Sudoku above order 35 has no puzzle line)."""
    options = dict(case[3])
    if json and registry_name(case) == "reduce-latin":
        options["form"] = "json"
    return options


def registry_name(case) -> str:
    """The registry's name of a case's command (``reduce latin`` is ``reduce-latin``)."""
    args = case[1]
    return "reduce-latin" if args[:2] == ["reduce", "latin"] else args[0]


def untimed(text: str) -> str:
    """The text with the times a run measures masked: `elapsed_us` of solve and count, and in a
    cross-check (whose rows and table hold times) every decimal number."""
    text = re.sub(r'"elapsed_us":[0-9.e+-]+', '"elapsed_us":0', text)
    if "agreed" in text or "backends" in text:
        # (with the spaces that align them: a wider time shifts its column)
        text = re.sub(r" *[0-9]+\.[0-9]+", " T", text)
    return text


def cli_args(case, json: bool) -> list[str]:
    _, args, inputs, _, read = case
    extra = ["--latin"] if read.get("latin") else []
    return [*args, *extra, *(["--json"] if json else []), *inputs]


@pytest.mark.parametrize("json", [False, True], ids=["text", "json"])
@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_cli_python_and_dask_write_the_same_records(cli, client, in_repo, case, json):
    name, _, inputs, _, read = case
    options = job_options(case, json)
    code, expected = cli(*cli_args(case, json))
    assert expected, "the command line wrote nothing: the test would compare nothing"

    # sudokit.dask.run: shards of 2 puzzles (generate: chunks of 2), placed in order.
    command = registry_name(case)
    stream = io.StringIO()
    tally = sd.run(command, *inputs, out=stream, client=client, json=json, shard_size=2,
                   chunk=2, **read, **{"threads": 1, **options})
    assert untimed(stream.getvalue()) == untimed(expected)
    assert tally.exit_code == code

    # sudokit.records: the records, whose texts are the command line's record lines.
    records = sudokit.records(command, *inputs, **read, **options)
    # In order, and only the summaries between them (grade, minimize, crosscheck) left over.
    lines = iter(untimed(expected).splitlines())
    for record in records:
        for line in untimed(record.json_line if json else record.text).splitlines():
            assert line in lines, f"{line!r} is not in the command line's output, in order"
    assert len(records) == tally.total


@pytest.mark.parametrize("json", [False, True], ids=["text", "json"])
@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_python_run_writes_what_the_cli_writes(cli, in_repo, tmp_path, capfd, case, json):
    name, _, inputs, _, read = case
    options = job_options(case, json)
    command = registry_name(case)
    code, expected = cli(*cli_args(case, json))
    tally = sudokit.run(command, *inputs, json=json, **read, **options)
    got = capfd.readouterr().out
    assert untimed(got) == untimed(expected)
    assert tally.exit_code == code


def test_every_registry_command_is_in_this_test_and_on_every_face(cli):
    """The library's registry is the one list of commands: this test covers each, and the
    command line, ``sudokit.run`` and ``python -m sudokit.dask`` expose exactly them."""
    registry = [name for name, *_ in sudokit._native.commands()]
    # export: files, below; bench: timings, below.
    covered = {registry_name(case) for case in CASES} | {"export", "bench"}
    assert sorted(covered) == sorted(registry)
    assert list(sd.COMMANDS) == registry
    _, help_text = cli("--help")
    listed = {line.split()[0] for line in help_text.split("Commands:")[1].split("Options:")[0].splitlines() if line.strip()}
    assert {name.split("-latin")[0] if name == "reduce-latin" else name for name in registry} <= listed
    dask_help = sd._parser().format_help()
    shown = dask_help.split("{", 1)[1].split("}", 1)[0].split(",")
    assert shown == registry
    for name in registry:
        assert sudokit._native.options(name).startswith("[")
    with pytest.raises(ValueError, match="unknown command"):
        sudokit.run("slove")


def timings_masked(text: str, json: bool) -> list:
    """bench's output with what it measures masked: its rows are times of whole runs, which
    differ between two runs of the command line as much as between two faces, so the faces are
    compared on everything else: the rows and their order, files, backends, columns, counts of
    puzzles solved, unsat and unknown, and how many within 0.1 s, 1 s and 10 s."""
    if json:
        rows = [_json.loads(line) for line in text.splitlines()]
        for row in rows:
            for key in ("puzzles_per_second", "wall_seconds", "median_us", "p99_us"):
                row[key] = "T"
        return rows
    lines = [line.split() for line in text.splitlines()]
    # A row's 7th to 9th columns are puzzles/s, median and p99 (the heading is left whole).
    return [line if i == 0 else line[:6] + ["T"] * 3 + line[9:] for i, line in enumerate(lines)]


@pytest.mark.parametrize("json", [False, True], ids=["text", "json"])
def test_bench_is_the_cli_bench_but_for_its_timings(cli, in_repo, capfd, json):
    """bench is a registry command like the others; ``sudokit.run`` writes the command line's
    table (or JSON rows), and ``sudokit.records`` gives its rows, compared with the timings
    masked (``timings_masked``): byte for byte is out of reach of any two runs of a timer."""
    files = [SAMPLE_4, MIXED]
    flags = ["--json"] if json else []
    code, expected = cli("bench", "--backends", "native,dlx", *flags, *files)
    tally = sudokit.run("bench", *files, json=json, backends=["native", "dlx"])
    got = capfd.readouterr().out
    assert len(timings_masked(expected, json)) == 4 + (not json)
    assert timings_masked(got, json) == timings_masked(expected, json)
    assert tally.exit_code == code == 2 and tally.errors > 0
    records = sudokit.records("bench", *files, backends=["native", "dlx"])
    rows = "".join(r.json_line if json else r.text for r in records)
    heading = "" if json else expected.splitlines(keepends=True)[0]  # not a record
    assert timings_masked(heading + rows, json) == timings_masked(expected, json)


def test_export_writes_the_cli_files_from_python_and_dask(cli, client, in_repo, tmp_path):
    """``export --out-dir`` writes files, not records: the files of the command line,
    ``sudokit.run`` and ``sudokit.dask.run`` are compared byte for byte."""
    dirs = {face: tmp_path / face for face in ("cli", "python", "dask")}
    code, _ = cli("export", "--to", "cnf", "--encoding", "minimal", "--out-dir", str(dirs["cli"]), EASY)
    assert code == 0
    sudokit.run("export", EASY, to="cnf", encoding="minimal", out_dir=str(dirs["python"]))
    sd.run("export", EASY, client=client, shard_size=2, to="cnf", encoding="minimal",
           out_dir=str(dirs["dask"]), threads=1)
    names = sorted(p.name for p in dirs["cli"].iterdir())
    assert names, "the command line wrote no file"
    for face in ("python", "dask"):
        assert sorted(p.name for p in dirs[face].iterdir()) == names
        for name in names:
            assert (dirs[face] / name).read_bytes() == (dirs["cli"] / name).read_bytes()


def test_the_masks_leave_the_records_alone():
    assert untimed("4123234114323214\n") == "4123234114323214\n"
    assert untimed('{"elapsed_us":12.5,"line":3}') == '{"elapsed_us":0,"line":3}'
    assert untimed("agreed 12 3.5") != untimed("agreed 13 3.5")
    assert untimed("agreed 12   3.5") == untimed("agreed 12 13.52")


def test_a_resumable_output_written_by_python_is_the_cli_file(cli, in_repo, tmp_path):
    out = tmp_path / "solved.txt"
    _, expected = cli("solve", MIXED)
    tally = sudokit.run("solve", MIXED, out=out)
    assert out.read_text() == expected and tally.exit_code == 2 and tally.errors > 0
    assert not (tmp_path / "solved.txt.partial").exists()
    # A second fresh run refuses to destroy nothing: the file is complete, a run replaces it.
    sudokit.run("solve", MIXED, out=out)
    assert out.read_text() == expected


def test_dask_resumes_a_partial_output_of_the_cli(cli, client, in_repo, tmp_path):
    """A run the command line left partial (--timeout) is finished by Dask with resume=True:
    the file is the one an uninterrupted run writes; a resume with other options is refused;
    and Python's run resumes a partial output of Dask the same way."""
    # Six copies of top95 under forward checking take about 7 s on one core, 14 times the
    # 0.5 s deadline, so the first run stops part way on any machine CI runs on.
    top95 = tmp_path / "top95x6.txt"
    top95.write_text(Path("models/sudoku/9x9/top95.txt").read_text() * 6)
    top95 = str(top95)
    options = ["--unique", "--threads", "1", "--backend", "cp:FC"]
    out = tmp_path / "top95.txt"
    _, expected = cli("solve", "--unique", top95)
    code, _ = cli("--timeout", "0.5", "solve", *options, top95, "-o", str(out))
    partial = tmp_path / "top95.txt.partial"
    assert code == 1 and partial.exists() and not out.exists()
    kept = partial.read_text().splitlines()
    # The stop may leave `unknown (time limit)` results: the resumed run redoes those.
    assert kept and all(k == e for k, e in zip(kept, expected.splitlines()) if k != "unknown (time limit)")
    with pytest.raises(sudokit.SudokitError, match="unique"):
        sd.run("solve", top95, out=out, client=client, resume=True, backend="cp:FC")
    tally = sd.run("solve", top95, out=out, client=client, resume=True, unique=True,
                   backend="cp:FC", shard_size=10)
    assert out.read_text() == expected
    assert tally.complete and tally.exit_code == 0 and tally.total == 6 * 95
    assert not partial.exists()


def test_default_crosscheck_participants_are_the_cli_ones(cli, in_repo):
    """Finding 2 of the one-semantics issue: Python's default participants are the library's
    (no `ext`), so the default cross-check runs and agrees with the command line."""
    code, expected = cli("crosscheck", "--json", SAMPLE_4)
    got = sudokit.records("crosscheck", SAMPLE_4)
    assert all('"ext' not in r.json_line for r in got)
    assert [untimed(r.json_line) for r in got] == [untimed(l + "\n") for l in expected.splitlines()[:-1]]
    assert code == 0


@pytest.mark.parametrize("json", [False, True], ids=["text", "json"])
@pytest.mark.parametrize(
    "cli_shape, read",
    [(["--box", "2x4"], {"box": (2, 4)}), (["--latin", "--order", "6"], {"latin": True, "order": 6})],
    ids=["box", "latin"],
)
def test_count_without_input_is_the_cli_census(cli, in_repo, tmp_path, capfd, cli_shape, read, json):
    """``count`` without input is the registry's census of the empty grid: ``sudokit.run``
    (to standard output and to a file) and ``sudokit.records`` write what the command line
    writes; Dask, which shards input files, says so."""
    flags = ["--json"] if json else []
    code, expected = cli("count", *cli_shape, *flags)
    assert code == 0 and expected
    tally = sudokit.run("count", json=json, **read)
    assert untimed(capfd.readouterr().out) == untimed(expected)
    assert (tally.total, tally.done, tally.exit_code) == (1, 1, 0)
    out = tmp_path / "count.txt"
    sudokit.run("count", out=out, json=json, **read)
    assert untimed(out.read_text()) == untimed(expected)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["count.txt"]
    [record] = sudokit.records("count", **read)
    assert untimed(record.json_line if json else record.text) == untimed(expected)
    refusal = "count without input counts every grid in one process: use sudokit.run"
    with pytest.raises(ValueError, match=refusal):
        sd.run("count", **read)
