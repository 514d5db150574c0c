#!/usr/bin/env python3
"""Generates the small instances of models/ that no shared data set provides.

Usage: python3 models/tools/make_small.py   (from the repository root; seeded, reproducible)

It writes 6x6 (2x3 boxes) and easy 9x9 puzzles (locally minimal is not required: givens are removed
in random order while the puzzle stays well posed, stopping at a target count), their solutions,
solutions of the 4x4 sample, and complete and partial Latin squares of orders 3 to 7. The
uniqueness check is a plain bitmask backtracking counter with the most-constrained-cell rule,
independent of sudokit, so the models do not depend on the code they test.
"""
import random

ALPHABET = "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def units(n, p, q, latin):
    rows = [[r * n + c for c in range(n)] for r in range(n)]
    cols = [[r * n + c for r in range(n)] for c in range(n)]
    if latin:
        return rows + cols
    boxes = []
    for br in range(0, n, p):
        for bc in range(0, n, q):
            boxes.append([(br + i) * n + bc + j for i in range(p) for j in range(q)])
    return rows + cols + boxes


def peers_of(n, p, q, latin):
    us = units(n, p, q, latin)
    peers = [set() for _ in range(n * n)]
    for u in us:
        for a in u:
            peers[a].update(u)
    for a in range(n * n):
        peers[a].discard(a)
    return [sorted(s) for s in peers]


def count(grid, n, peers, limit=2):
    """Number of solutions up to limit; grid is a list of 0 (empty) or 1..n."""
    grid = list(grid)
    full = (1 << n) - 1
    found = []

    def candidates(i):
        used = 0
        for j in peers[i]:
            if grid[j]:
                used |= 1 << (grid[j] - 1)
        return full & ~used

    def search():
        best, best_mask, best_count = -1, 0, n + 1
        for i in range(n * n):
            if not grid[i]:
                m = candidates(i)
                k = bin(m).count("1")
                if k < best_count:
                    best, best_mask, best_count = i, m, k
                    if k <= 1:
                        break
        if best < 0:
            found.append(list(grid))
            return len(found) >= limit
        while best_mask:
            bit = best_mask & -best_mask
            best_mask ^= bit
            grid[best] = bit.bit_length()
            if search():
                grid[best] = 0
                return True
        grid[best] = 0
        return False

    for i in range(n * n):
        if grid[i] and grid[i] in [grid[j] for j in peers[i]]:
            return 0, []
    search()
    return len(found), found


def pattern(n, p, q):
    return [(q * (r % p) + r // p + c) % n + 1 for r in range(n) for c in range(n)]


def shuffled(n, p, q, rng, latin=False):
    g = pattern(n, p, q)
    relabel = list(range(1, n + 1))
    rng.shuffle(relabel)
    g = [relabel[v - 1] for v in g]
    if latin:
        rows, cols = list(range(n)), list(range(n))
        rng.shuffle(rows)
        rng.shuffle(cols)
    else:
        bands = list(range(q)); rng.shuffle(bands)
        rows = [b * p + i for b in bands for i in rng.sample(range(p), p)]
        stacks = list(range(p)); rng.shuffle(stacks)
        cols = [s * q + j for s in stacks for j in rng.sample(range(q), q)]
    return [g[rows[r] * n + cols[c]] for r in range(n) for c in range(n)]


def line(g):
    return "".join(ALPHABET[v - 1] if v else "." for v in g)


def make_puzzle(n, p, q, rng, target):
    peers = peers_of(n, p, q, False)
    sol = shuffled(n, p, q, rng)
    puz = list(sol)
    order = list(range(n * n))
    rng.shuffle(order)
    givens = n * n
    for i in order:
        if givens <= target:
            break
        v, puz[i] = puz[i], 0
        if count(puz, n, peers)[0] != 1:
            puz[i] = v
        else:
            givens -= 1
    return puz, sol


def write(path, lines):
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")


def main():
    rng = random.Random(20261122)
    six = [make_puzzle(6, 2, 3, rng, 12) for _ in range(10)]
    write("models/sudoku/6x6/puzzles.txt", [line(p) for p, _ in six])
    write("models/sudoku/6x6/solutions.txt", [line(s) for _, s in six])
    easy = [make_puzzle(9, 3, 3, rng, 36) for _ in range(10)]
    write("models/sudoku/9x9/easy.txt", [line(p) for p, _ in easy])
    write("models/sudoku/9x9/easy.solutions.txt", [line(s) for _, s in easy])
    four = [l.strip() for l in open("models/sudoku/4x4/kr_4x4_sample.txt") if l.strip()]
    peers4 = peers_of(4, 2, 2, False)
    sols = []
    for l in four:
        g = [0 if ch == "." else ALPHABET.index(ch) + 1 for ch in l]
        k, found = count(g, 4, peers4, limit=1)
        assert k == 1, l
        sols.append(line(found[0]))
    write("models/sudoku/4x4/kr_4x4_sample.solutions.txt", sols)
    complete, partial = [], []
    for m in range(3, 8):
        for _ in range(2):
            g = shuffled(m, 1, m, rng, latin=True)
            complete.append(line(g))
            holes = rng.sample(range(m * m), m * m // 2)
            partial.append(line([0 if i in holes else v for i, v in enumerate(g)]))
    write("models/latin/complete.txt", complete)
    write("models/latin/partial.txt", partial)


if __name__ == "__main__":
    main()
