#!/usr/bin/env python3
"""Writes a random 3-SAT formula in DIMACS: VARS variables, round(RATIO * VARS) clauses of three
distinct variables with random signs, from Python's random.Random(SEED).

    python3 scripts/random_3sat.py SEED VARS RATIO > formula.cnf

At the threshold (RATIO 4.26) about half are unsatisfiable and hard for their size: the
refutation proofs BENCHMARKS.md checks come from these.
"""
import random
import sys


def main() -> None:
    if len(sys.argv) != 4:
        sys.exit("usage: random_3sat.py SEED VARS RATIO")
    seed, variables, ratio = int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3])
    rng = random.Random(seed)
    clauses = round(ratio * variables)
    lines = [f"p cnf {variables} {clauses}"]
    for _ in range(clauses):
        picked = rng.sample(range(1, variables + 1), 3)
        lines.append(" ".join(str(v if rng.random() < 0.5 else -v) for v in picked) + " 0")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
