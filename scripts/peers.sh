#!/usr/bin/env bash
# Whole-process 9×9 comparison of `sudokit solve` with two peers, on the same files:
# - tdoku (T. Dillon's SIMD triad solver), through its own example program `solve` (which reads
#   puzzle lines on standard input and prints `puzzle:count:solution`), built by the user as
#   tdoku's README says (its BUILD.sh, then the `gcc example/solve.c build/libtdoku_static.a ...`
#   line); this script only runs it;
# - the `sudoku` crate 0.8 (`examples/peer_crate.rs`, a dev-dependency of this package).
#
# Usage: TDOKU_SOLVE=/path/to/tdoku/solve scripts/peers.sh DATA_DIR [ROUNDS]
#   DATA_DIR  the folder of the puzzle collections (royle17_49158.txt,
#             forum_hardest_1905_11plus.txt, magictour_top1465.txt)
#   ROUNDS    alternating rounds per row (default 11); each round runs every program once, in
#             turn, so load changes hit all of them alike; the table gives the medians.
# Without TDOKU_SOLVE the tdoku columns are left out.
#
# Rows: royle17 (all 49158, first solution), forum_hardest (first 10 000, first solution and
# count to 2), top1465 (all, first solution). "count to 2" is `sudokit solve --unique` (prints
# the solution when it is unique), the crate's `solution()` (the same), and tdoku's `solve 2`
# (counts to two, then solves again to print the solution of a unique puzzle).
# Every time is the whole process (start, reading, solving, writing to /dev/null), one thread;
# the ratios are sudokit / peer (below 1: sudokit is faster), of medians of CPU time (user +
# system), with the wall-time medians beside them.
set -euo pipefail
cd "$(dirname "$0")/.."

DATA=${1:?usage: TDOKU_SOLVE=PATH scripts/peers.sh DATA_DIR [ROUNDS]}
ROUNDS=${2:-11}
WORK=target/peers
mkdir -p "$WORK"
TDOKU=${TDOKU_SOLVE:-}
if [ -n "$TDOKU" ] && [ ! -x "$TDOKU" ]; then
  echo "TDOKU_SOLVE=$TDOKU is not an executable" >&2
  exit 2
fi
[ -n "$TDOKU" ] || echo "TDOKU_SOLVE is not set: the tdoku columns are left out" >&2

# --- sudokit and the crate -----------------------------------------------------------------
cargo build --release --quiet --bin sudokit --example peer_crate
SUDOKIT=target/release/sudokit
CRATE=target/release/examples/peer_crate

head -n 10000 "$DATA/forum_hardest_1905_11plus.txt" > "$WORK/forum_hardest_10k.txt"
ROYLE=$DATA/royle17_49158.txt
TOP=$DATA/magictour_top1465.txt
FORUM=$WORK/forum_hardest_10k.txt

# tdoku's `solve LIMIT` reads the puzzles on standard input.
tdoku() { "$TDOKU" "$2" < "$1"; }

# The answers must agree before anything is timed.
check() {
  local file=$1
  cmp -s <("$SUDOKIT" solve --threads 1 "$file") <("$CRATE" "$file" solve) ||
    { echo "sudokit and the crate disagree on $file" >&2; exit 1; }
  [ -z "$TDOKU" ] || cmp -s <("$SUDOKIT" solve --threads 1 "$file") \
    <(tdoku "$file" 1 | cut -d: -f3) ||
    { echo "sudokit and tdoku disagree on $file" >&2; exit 1; }
}

# One timed run: prints "wall cpu" in seconds.
timed() {
  local TIMEFORMAT='%R %U %S'
  { time "$@" > /dev/null; } 2>&1 | awk '{ printf "%.4f %.4f\n", $1, $2 + $3 }'
}

median() { sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

# row NAME FILE MODE: alternating rounds of every program; prints a table row.
row() {
  local name=$1 file=$2 mode=$3
  local progs=(sudokit crate)
  [ -n "$TDOKU" ] && progs+=(tdoku)
  declare -A wall cpu
  for p in "${progs[@]}"; do wall[$p]=""; cpu[$p]=""; done
  for _ in $(seq "$ROUNDS"); do
    for p in "${progs[@]}"; do
      local cmd
      case "$p/$mode" in
        sudokit/solve) cmd=("$SUDOKIT" solve --threads 1 "$file") ;;
        sudokit/count) cmd=("$SUDOKIT" solve --unique --threads 1 "$file") ;;
        crate/solve) cmd=("$CRATE" "$file" solve) ;;
        crate/count) cmd=("$CRATE" "$file" unique) ;;
        tdoku/solve) cmd=(tdoku "$file" 1) ;;
        tdoku/count) cmd=(tdoku "$file" 2) ;;
      esac
      read -r w c < <(timed "${cmd[@]}")
      wall[$p]+="$w"$'\n'
      cpu[$p]+="$c"$'\n'
    done
  done
  local ms=() mw=()
  for p in "${progs[@]}"; do
    ms+=("$(printf '%s' "${cpu[$p]}" | median)")
    mw+=("$(printf '%s' "${wall[$p]}" | median)")
  done
  awk -v n="$name" -v m="$mode" -v s="${ms[0]}" -v c="${ms[1]}" -v t="${ms[2]:-0}" \
      -v sw="${mw[0]}" -v cw="${mw[1]}" -v tw="${mw[2]:-0}" 'BEGIN {
    tdoku = t > 0 ? sprintf("%.3f (%.3f) | **%.3f**", t, tw, s / t) : "– | –"
    printf "| %s | %s | %.3f (%.3f) | %.3f (%.3f) | **%.3f** | %s |\n",
      n, m, s, sw, c, cw, s / c, tdoku }'
}

check "$ROYLE"
check "$FORUM"
check "$TOP"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg); $ROUNDS alternating rounds per row"
echo
echo "| set | question | sudokit CPU (wall) s | crate CPU (wall) s | sudokit / crate | tdoku CPU (wall) s | sudokit / tdoku |"
echo "|---|---|---:|---:|---:|---:|---:|"
row royle17_49158 "$ROYLE" solve
row "forum_hardest (first 10 000)" "$FORUM" solve
row "forum_hardest (first 10 000)" "$FORUM" count
row magictour_top1465 "$TOP" solve
echo
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
