#!/usr/bin/env bash
# Per puzzle, `sudokit solve` (native, one thread, whole process) against CaDiCaL (the `cadical`
# binary on the PATH, e.g. Debian's package) on sudokit's best exported CNF for that puzzle:
# `export --to cnf` with the optimized and the extended encoding, CaDiCaL's time being the
# faster of the two, parse included. Every process is timed by its CPU time (user + system).
#
# Usage: [FEATURES=cadical] scripts/hard_tail.sh FILE [FIRST LAST]
#   FILE         puzzles, one per line (e.g. acs_general_25x25_f40-50.txt)
#   FIRST LAST   the lines to run (default: all)
# Prints one line per puzzle (line, sudokit s, CaDiCaL optimized s, CaDiCaL extended s) and a
# summary: puzzles where sudokit is slower than CaDiCaL's best, the slowest of each.
# FEATURES: cargo features of the sudokit build (FEATURES=cadical: native's CDCL stage is
# CaDiCaL in process instead of varisat).
set -euo pipefail
cd "$(dirname "$0")/.."

FILE=${1:?usage: scripts/hard_tail.sh FILE [FIRST LAST]}
FIRST=${2:-1}
LAST=${3:-$(grep -c . "$FILE")}
command -v cadical >/dev/null || { echo "no cadical on the PATH" >&2; exit 2; }
cargo build --release --quiet --bin sudokit ${FEATURES:+--features "$FEATURES"}
SUDOKIT=target/release/sudokit
WORK=target/hard_tail
mkdir -p "$WORK"

cpu() {
  local TIMEFORMAT='%3U %3S'
  # (CaDiCaL exits with 10 or 20.)
  { time "$@" > /dev/null 2>&1 || true; } 2>&1 | awk '{ printf "%.3f\n", $1 + $2 }'
}

echo "line sudokit cadical_optimized cadical_extended"
for i in $(seq "$FIRST" "$LAST"); do
  sed -n "${i}p" "$FILE" > "$WORK/puzzle.txt"
  "$SUDOKIT" export --to cnf --encoding optimized -o "$WORK/optimized.cnf" "$WORK/puzzle.txt"
  "$SUDOKIT" export --to cnf --encoding extended -o "$WORK/extended.cnf" "$WORK/puzzle.txt"
  s=$(cpu "$SUDOKIT" solve --threads 1 "$WORK/puzzle.txt")
  o=$(cpu cadical -q "$WORK/optimized.cnf")
  e=$(cpu cadical -q "$WORK/extended.cnf")
  echo "$i $s $o $e"
done | tee "$WORK/times.txt"
awk '{
  best = ($3 < $4) ? $3 : $4; n++
  if ($2 > best) { slower++; if ($2 - best > worst_gap) { worst_gap = $2 - best; worst = $1 } }
  if ($2 > smax) { smax = $2; sline = $1 }
  if (best > cmax) { cmax = best; cline = $1 }
  if ($2 >= 1) over++
  stot += $2; ctot += best
}
END {
  printf "%d puzzles: sudokit slower than CaDiCaL'"'"'s best on %d (largest gap on line %s, %.3f s);\n",
    n, slower, worst, worst_gap
  printf "slowest: sudokit %.3f s (line %s), CaDiCaL best %.3f s (line %s); sudokit >= 1 s: %d;\n",
    smax, sline, cmax, cline, over
  printf "total CPU: sudokit %.2f s, CaDiCaL best %.2f s\n", stot, ctot
}' "$WORK/times.txt"
