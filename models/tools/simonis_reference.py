#!/usr/bin/env python3
"""An independent reference for Simonis' propagation schemes on 9x9 Sudoku (cross-checks `grade`).

Usage: python3 models/tools/simonis_reference.py FILE [--schemes LIST] [--per-puzzle]
  FILE: one puzzle per line (81 characters, `.` or `0` for an empty cell); blank lines and `#`
  lines are skipped, any other line is an error naming its line and column (exit 2).
  --schemes: comma-separated scheme names (default: all 18 below).
  --per-puzzle: also one line per puzzle with the candidates left per scheme (81 = search-free,
  `x` = the fixpoint is a failure).
Prints, per scheme, how many puzzles it solves search-free: its propagation fixpoint, computed from
the givens, leaves exactly one candidate in every cell.

Paper: H. Simonis, "Sudoku as a constraint problem", CP 2005 Workshop on Modeling and Reformulating
Constraint Satisfaction Problems (the schemes and their names). Every unit (row, column, box) is an
alldifferent, propagated at one of three levels:
  FC   forward checking on the binary decomposition (a fixed value leaves every peer);
  BC   ECLiPSe's ic_global alldifferent/1, "range exhaustion" (see `exhaust` below);
  HAC  hyper-arc consistency (Regin 1994: one perfect matching plus strongly connected components).
with the extras
  I    channeling to the dual variables (per unit and value, the positions where the value can go),
       with an alldifferent on them at the same level (for FC: a value with one place goes there,
       one with none fails; for BC: range exhaustion on positions); HAC implies it;
  S    "same": where a row (column) crosses a box, the rest of the row and the rest of the box take
       the same values (locked candidates);
  C    "colored matrix": per value, the rows x columns matching of its candidate cells is HAC;
  3    per value, the rows x boxes matching of a band (columns x boxes of a stack) is HAC;
  V    shaving once: each candidate of each cell (row-major, values increasing) is tried, and
       removed if the base scheme refutes it (the store is re-propagated after each removal);
  V+   shaving passes repeated until one removes nothing.
Units are revised in sweeps, rows then columns then boxes, after forwarding the fixed cells: BC's
range exhaustion is not monotone, so its fixpoint depends on that order (the other schemes have a
unique fixpoint). BCI runs BC to its fixpoint first, then adds the dual constraints; V schemes start
their pass from the base's fixpoint of the givens.

BENCHMARKS.md ("Grading", agreement with the paper's model) uses it: it is written from the
definitions only, shares no code with sudokit, and gives the same candidates per puzzle and scheme
as `sudokit grade --json`, so the same search-free counts on top100: 0 0 2 5 5 14 10 14 14 14 14
14 4 93 100 18 99 100 in the order of SCHEMES below (`cargo test --release --test it -- --ignored
propagate_data` checks sudokit's side).

Complexity: a store is 81 bitmasks of 9 bits. A unit revision costs O(n) for FC and channeling,
O(n^2) per range-exhaustion scan (at most n scans), O(n^2) for a matching and a transitive
closure (HAC, C, 3); a fixpoint makes at most one sweep per removed candidate (n^3 of them). A
shaving pass makes one base fixpoint per candidate (plus one per removal). All 18 schemes on
top100 take about 35 s with CPython 3 (BCV and BCV+ two thirds of it).
"""
import sys

N = 9
ALL = (1 << N) - 1
POP = [bin(m).count("1") for m in range(1 << N)]
MINV = [(m & -m).bit_length() - 1 if m else N for m in range(1 << N)]  # smallest value (0-based)
MAXV = [m.bit_length() - 1 for m in range(1 << N)]  # largest value (0-based)
BITS = [[v for v in range(N) if m >> v & 1] for m in range(1 << N)]

# Units 0..8 rows, 9..17 columns, 18..26 boxes; cells in the order of the paper's model
# (columns of a row, rows of a column, row-major in a box).
UNITS = ([[9 * r + c for c in range(9)] for r in range(9)]
         + [[9 * r + c for r in range(9)] for c in range(9)]
         + [[9 * (3 * (b // 3) + i // 3) + 3 * (b % 3) + i % 3 for i in range(9)] for b in range(9)])
CELL_UNITS = [[u for u in range(27) if x in UNITS[u]] for x in range(81)]
PEERS = [sorted({y for u in CELL_UNITS[x] for y in UNITS[u]} - {x}) for x in range(81)]

SCHEMES = ["FC", "FCI", "BC", "BCI", "HAC", "HACS", "HACC", "HAC3", "HACSC", "HACS3", "HACC3",
           "HACSC3", "FCV", "BCV", "HACV", "FCV+", "BCV+", "HACV+"]


class Failure(Exception):
    """The store has no solution: a cell (or a value of a unit) has no candidate left."""


# ---------------------------------------------------------------- range exhaustion (BC)

def exhaust(d):
    """ECLiPSe's range exhaustion on one alldifferent over the items' domains `d` (list of
    bitmasks, changed in place). Raises Failure.

    1. Sort the items by increasing largest value, decreasing smallest value, increasing size
       (stable: ties keep the list order).
    2. For each distinct largest value b (increasing), scan the items whose largest value is at
       most b in decreasing order of smallest value (ties: the order of step 1): with U the union
       of the k items scanned, |U| < k fails, |U| = k means they are exhausted (stop once |U|
       exceeds the group size).
    3. At the first exhausted prefix that is not the whole list, remove U from all other items,
       drop the exhausted items and start again with the rest, a list in the order of step 1 (in
       ECLiPSe the constraint splits and the rest, taken from the sorted list, is posted anew).
    """
    active = list(range(len(d)))
    while len(active) > 1:
        for i in active:
            if not d[i]:
                raise Failure
        order = sorted(active, key=lambda i: (MAXV[d[i]], -MINV[d[i]], POP[d[i]]))
        rank = {i: p for p, i in enumerate(order)}
        m = len(order)
        found = None
        bounds = sorted({MAXV[d[i]] for i in order})
        for b in bounds:
            group = sorted((i for i in order if MAXV[d[i]] <= b),
                           key=lambda i: (-MINV[d[i]], rank[i]))
            g = len(group)
            union = 0
            for k, i in enumerate(group, 1):
                union |= d[i]
                c = POP[union]
                if c < k:
                    raise Failure
                if c == k and k < m:
                    found = group[:k]
                    break
                if c > g:
                    break
            if found:
                break
        if found is None:
            return
        keep = ~union
        for i in range(len(d)):
            if i not in found:
                d[i] &= keep
        active = [i for i in order if i not in found]  # the rest, in the order of step 1
    if active and not d[active[0]]:
        raise Failure


# ---------------------------------------------------------------- Regin's matching filter (HAC)

def regin(adj):
    """Hyper-arc consistency of a perfect matching constraint: `adj[x]` is the bitmask of the
    "values" of left vertex x (as many values as left vertices). Returns the filtered lists
    (edges in some perfect matching) or raises Failure if there is none."""
    n = len(adj)
    owner = [-1] * n  # value -> left vertex
    mate = [-1] * n   # left vertex -> value

    def augment(x, seen):
        for v in BITS[adj[x]]:
            if not seen >> v & 1:
                seen |= 1 << v
                y = owner[v]
                if y < 0:
                    owner[v], mate[x] = x, v
                    return seen, True
                seen, ok = augment(y, seen)
                if ok:
                    owner[v], mate[x] = x, v
                    return seen, True
        return seen, False

    for x in range(n):  # greedy start, then augmenting paths
        for v in BITS[adj[x]]:
            if owner[v] < 0:
                owner[v], mate[x] = x, v
                break
    for x in range(n):
        if mate[x] < 0 and not augment(x, 0)[1]:
            raise Failure
    # x -> y when x can take y's matched value; (x, mate[y]) is in a perfect matching iff y
    # reaches x (an alternating cycle). reach[y] = vertices reachable from y, by Warshall.
    reach = []
    for x in range(n):
        r = 1 << x
        for v in BITS[adj[x]]:
            r |= 1 << owner[v]
        reach.append(r)
    for k in range(n):
        bk, rk = 1 << k, reach[k]
        for i in range(n):
            if reach[i] & bk:
                reach[i] |= rk
    out = []
    for x in range(n):
        bx, allowed = 1 << x, 0
        for y in range(n):
            if reach[y] & bx:
                allowed |= 1 << mate[y]
        out.append(adj[x] & allowed)
    return out


# ---------------------------------------------------------------- the propagation engine

class Scheme:
    """A scheme's parts, parsed from its name (e.g. "HACSC3", "BCV+")."""

    def __init__(self, name):
        self.name = name
        rest = name
        self.shave = None
        if rest.endswith("V+"):
            self.shave, rest = "fixpoint", rest[:-2]
        elif rest.endswith("V"):
            self.shave, rest = "once", rest[:-1]
        for level in ("HAC", "FC", "BC"):
            if rest.startswith(level):
                self.level, rest = level, rest[len(level):]
                break
        else:
            raise ValueError("unknown scheme " + name)
        self.dual = rest == "I" and self.level != "HAC"
        rest = rest.replace("I", "") if self.dual else rest
        self.same, self.color, self.three = "S" in rest, "C" in rest, "3" in rest
        if rest.strip("SC3") or (rest and self.level != "HAC"):
            raise ValueError("unknown scheme " + name)
        self.base = Scheme(self.level) if self.shave else None


class Store:
    """Candidates (bitmask per cell), the queue of newly fixed cells and the dirty units."""

    def __init__(self, dom, fixed, dirty):
        self.dom, self.fixed, self.dirty = dom, fixed, dirty

    def set(self, x, nd):
        """Narrow cell x to nd (a subset of its candidates)."""
        if nd == self.dom[x]:
            return False
        if not nd:
            raise Failure
        self.dom[x] = nd
        for u in CELL_UNITS[x]:
            self.dirty[u] = True
        if POP[nd] == 1:
            self.fixed.append(x)
        return True

    def forward(self):
        """Forward checking: a fixed cell's value leaves all its peers, to the fixpoint."""
        dom = self.dom
        while self.fixed:
            x = self.fixed.pop()
            d = dom[x]
            for y in PEERS[x]:
                if dom[y] & d:
                    self.set(y, dom[y] & ~d)


def revise(st, sch, u, dual):
    """Revise unit u at the scheme's level (primal), or its dual variables (dual=True)."""
    cells = UNITS[u]
    dom = st.dom
    d = [dom[x] for x in cells]
    if dual:
        if sch.level == "FC":  # channeling: a value with no place fails, one place goes there
            once = twice = 0
            for m in d:
                twice |= once & m
                once |= m
            if once != ALL:
                raise Failure
            for v in BITS[once & ~twice]:
                for x in cells:
                    if dom[x] >> v & 1:
                        st.set(x, 1 << v)
            return
        # BC on the duals: item v = bitmask of positions of value v in the unit
        pos = [sum(1 << i for i in range(9) if d[i] >> v & 1) for v in range(9)]
        exhaust(pos)
        new = [sum(1 << v for v in range(9) if pos[v] >> i & 1) for i in range(9)]
    elif sch.level == "BC":
        if all(POP[m] == 1 for m in d):
            return
        new = d[:]
        exhaust(new)
    elif sch.level == "HAC":
        if all(POP[m] == 1 for m in d):
            return
        new = regin(d)
    else:
        return  # FC: forwarding does it all
    for i, x in enumerate(cells):
        st.set(x, dom[x] & new[i])


def redundant_round(st, sch):
    """One round of the redundant constraints S, C and 3 over the whole grid."""
    dom = st.dom
    if sch.same:
        for line in range(18):  # rows 0..8, columns 9..17
            lc = UNITS[line]
            for b in range(18, 27):
                bc = UNITS[b]
                if not set(lc) & set(bc):
                    continue
                rest_line = [x for x in lc if x not in bc]
                rest_box = [x for x in bc if x not in lc]
                ul = ub = 0
                for x in rest_line:
                    ul |= dom[x]
                for x in rest_box:
                    ub |= dom[x]
                for x in rest_box:
                    st.set(x, dom[x] & ul)
                for x in rest_line:
                    st.set(x, dom[x] & ub)
    for v in range(9):
        bit = 1 << v
        if sch.color:  # rows x columns matching of value v
            adj = [sum(1 << c for c in range(9) if dom[9 * r + c] & bit) for r in range(9)]
            new = regin(adj)
            for r in range(9):
                for c in BITS[adj[r] & ~new[r]]:
                    st.set(9 * r + c, dom[9 * r + c] & ~bit)
        if sch.three:  # rows x boxes of each band, columns x boxes of each stack
            for band in range(3):
                for stack in (False, True):
                    def crossing(i, j):  # cells where line i of the band meets its box j
                        if stack:
                            return [9 * (3 * j + k) + 3 * band + i for k in range(3)]
                        return [9 * (3 * band + i) + 3 * j + k for k in range(3)]
                    adj = [sum(1 << j for j in range(3)
                               if any(dom[x] & bit for x in crossing(i, j))) for i in range(3)]
                    new = regin(adj)
                    for i in range(3):
                        for j in BITS[adj[i] & ~new[i]]:
                            for x in crossing(i, j):
                                st.set(x, dom[x] & ~bit)


def propagate(st, sch, dual_phase=True):
    """Run the scheme's propagators (not shaving) on the store to their common fixpoint: forward
    the fixed cells, then sweep the dirty units in index order (rows, columns, boxes), until
    nothing changes. Raises Failure."""
    dual = sch.dual and dual_phase
    redundant = sch.same or sch.color or sch.three
    while True:
        while True:
            st.forward()
            if not any(st.dirty):
                break
            for u in range(27):
                if st.dirty[u]:
                    st.dirty[u] = False
                    revise(st, sch, u, False)
                    if dual:
                        revise(st, sch, u, True)
        if not redundant:
            return
        before = st.dom[:]
        redundant_round(st, sch)
        if st.dom == before:
            return


def fixpoint_from(dom, sch):
    """The scheme's fixpoint from a store of candidates (all units dirty, all fixed cells
    queued); shaving schemes shave on top of their base's fixpoint. Raises Failure."""
    st = Store(dom, [x for x in range(81) if POP[dom[x]] == 1], [True] * 27)
    if sch.shave:
        propagate(st, sch.base)
        shave(st, sch.base, sch.shave == "fixpoint")
    elif sch.dual and sch.level == "BC":  # BCI: BC's fixpoint first, then the duals
        propagate(st, sch, dual_phase=False)
        st.dirty = [True] * 27
        propagate(st, sch)
    else:
        propagate(st, sch)
    return st.dom


def shave(st, base, repeat):
    """Shaving passes on a store at the base's fixpoint: the cells row-major, each candidate in
    increasing order is assigned in a copy and propagated with the base; a refuted candidate is
    removed at once and the store re-propagated. With `repeat`, until a pass removes nothing."""
    dom = st.dom
    while True:
        removed = False
        for x in range(81):
            for v in range(9):
                if POP[dom[x]] == 1:
                    break
                if not dom[x] >> v & 1:
                    continue
                probe = Store(dom[:], [x], [False] * 27)
                probe.set(x, 1 << v)
                try:
                    propagate(probe, base)
                except Failure:
                    st.set(x, dom[x] & ~(1 << v))
                    propagate(st, base)
                    removed = True
        if not repeat or not removed:
            return


# ---------------------------------------------------------------- command line

def parse(line):
    """The domains of a puzzle line, None for a blank or `#` line; ValueError(column, why) else."""
    text = line.strip()
    if not text or text.startswith("#"):
        return None
    for column, ch in enumerate(text, 1):
        if ch not in ".0123456789":
            raise ValueError(column, "%r is not a digit or '.'" % ch)
    if len(text) != 81:
        raise ValueError(1, "%d cells, a 9x9 puzzle line has 81" % len(text))
    return [ALL if ch in ".0" else 1 << (int(ch) - 1) for ch in text]


def candidates_left(dom, sch):
    """The number of candidates at the scheme's fixpoint, or None if it is a failure."""
    try:
        return sum(POP[m] for m in fixpoint_from(dom[:], sch))
    except Failure:
        return None


def main(argv):
    args = argv[1:]
    per_puzzle = "--per-puzzle" in args
    names = SCHEMES
    if "--schemes" in args:
        names = [s.strip().upper() for s in args[args.index("--schemes") + 1].split(",")]
        del args[args.index("--schemes"):args.index("--schemes") + 2]
    files = [a for a in args if not a.startswith("--")]
    if len(files) != 1:
        sys.exit(__doc__.split("\n\n")[0])
    try:
        schemes = [Scheme(n) for n in names]
    except ValueError as err:
        sys.exit(str(err))
    puzzles = []
    with open(files[0]) as f:
        for number, line in enumerate(f, 1):
            try:
                dom = parse(line)
            except ValueError as err:
                column, why = err.args
                print("%s:%d:%d: %s" % (files[0], number, column, why), file=sys.stderr)
                sys.exit(2)
            if dom is not None:
                puzzles.append(dom)
    solved = [0] * len(schemes)
    if per_puzzle:
        print("puzzle " + " ".join(names))
    for i, dom in enumerate(puzzles, 1):
        left = [candidates_left(dom, s) for s in schemes]
        for j, c in enumerate(left):
            solved[j] += c == 81
        if per_puzzle:
            print(i, " ".join("x" if c is None else str(c) for c in left), flush=True)
    print("search-free of %d:" % len(puzzles))
    for name, count in zip(names, solved):
        print("%-7s %d" % (name, count))


if __name__ == "__main__":
    main(sys.argv)
