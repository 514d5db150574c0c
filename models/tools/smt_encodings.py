#!/usr/bin/env python3
"""Times z3 and cvc5 on each SMT-LIB encoding of sudokit's smt2 export, puzzle by puzzle.

Usage: python3 models/tools/smt_encodings.py [--sudokit PATH] [--timeout SECONDS] FILE...
  Each puzzle of each FILE is exported with `sudokit export --to smt2 --encoding E` (E = bool,
  int) and solved by `z3 -smt2` and `cvc5 --lang=smt2`, each run stopped after --timeout seconds
  (default 10). Prints one row per file, solver and encoding: puzzles, solved (sat with values),
  unknown (timed out), median and largest time per puzzle in seconds. The numbers in
  BENCHMARKS.md were made by this script.
"""
import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

SOLVERS = {
    "z3": ["z3", "-smt2"],
    "cvc5": ["cvc5", "--lang=smt2"],
}
ENCODINGS = ["bool", "int"]


def puzzles(path):
    """The puzzle lines of a file (blank and # lines skipped)."""
    with open(path) as f:
        return [l.strip() for l in f if l.strip() and not l.startswith("#")]


def export(sudokit, line, encoding, out):
    """Writes the smt2 export of one puzzle line."""
    subprocess.run(
        [sudokit, "export", "-", "--to", "smt2", "--encoding", encoding, "-o", out],
        input=line + "\n",
        text=True,
        check=True,
    )


def run(command, path, timeout):
    """(seconds, answered sat) of one solver run, or (None, False) when it timed out."""
    start = time.monotonic()
    try:
        done = subprocess.run(
            command + [path],
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            timeout=timeout,
        )
    except subprocess.TimeoutExpired:
        return None, False
    return time.monotonic() - start, done.stdout.startswith("sat")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="+")
    parser.add_argument("--sudokit", default="target/release/sudokit")
    parser.add_argument("--timeout", type=float, default=10.0)
    args = parser.parse_args()
    print("| file | solver | encoding | puzzles | sat | unknown | median s | max s |")
    print("|---|---|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as scratch:
        for f, path in enumerate(args.files):
            lines = puzzles(path)
            for solver, command in SOLVERS.items():
                for encoding in ENCODINGS:
                    times, sat, unknown = [], 0, 0
                    for k, line in enumerate(lines):
                        script = os.path.join(scratch, f"f{f}p{k}-{encoding}.smt2")
                        if not os.path.exists(script):
                            export(args.sudokit, line, encoding, script)
                        seconds, solved = run(command, script, args.timeout)
                        if seconds is None:
                            unknown += 1
                            times.append(args.timeout)
                        else:
                            times.append(seconds)
                            sat += solved
                    print(
                        f"| {os.path.basename(path)} | {solver} | {encoding} | {len(lines)} | "
                        f"{sat} | {unknown} | {statistics.median(times):.2f} | {max(times):.2f} |",
                        flush=True,
                    )


if __name__ == "__main__":
    sys.exit(main())
