#!/usr/bin/env bash
# Whole-process 9×9 comparison of `sudokit solve` with two peers, on the same files:
# - tdoku (T. Dillon's SIMD triad solver), through its own example program `solve` (which reads
#   puzzle lines on standard input and prints `puzzle:count:solution`), built by the user as
#   tdoku's README says (its BUILD.sh, then the `gcc example/solve.c build/libtdoku_static.a ...`
#   line; tdoku's default flags are -O3 -march=native); this script only runs it;
# - the `sudoku` crate 0.8 (`examples/peer_crate.rs`, a dev-dependency of this package).
# sudokit runs twice: the default release build (generic x86-64 target; its 9×9 engine picks
# SSE2 or AVX2 at run time) and a build with `-C target-cpu=native` (in target/native), so that
# the table shows how much of a gap is code generation and how much is the algorithm.
#
# Usage: TDOKU_SOLVE=/path/to/tdoku/solve scripts/peers.sh DATA_DIR [ROUNDS]
#   DATA_DIR  the folder of the puzzle collections (royle17_49158.txt,
#             forum_hardest_1905_11plus.txt, magictour_top1465.txt)
#   ROUNDS    alternating rounds per row (default 11); each round runs every program once, in
#             turn, so load changes hit all of them alike; the table gives the medians.
# Without TDOKU_SOLVE the tdoku columns are left out. NATIVE=0 leaves out the native build.
#
# Rows: royle17 (all 49158, first solution), forum_hardest (first 10 000, first solution and
# count to 2), top1465 (all, first solution). "count to 2" is `sudokit solve --unique` (prints
# the solution when it is unique), the crate's `solution()` (the same), and tdoku's `solve 2`
# (counts to two, then solves again to print the solution of a unique puzzle: its library
# returns no solution when it stops at the limit).
# Every time is the whole process (start, reading, solving, writing to /dev/null), one thread;
# the ratios are sudokit / peer (below 1: sudokit is faster), of medians of CPU time (perf's
# task-clock where `perf stat` runs, else user + system), with the wall-time medians beside them.
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

# --- sudokit (two builds) and the crate ----------------------------------------------------
cargo build --release --quiet --bin sudokit --example peer_crate
SUDOKIT=target/release/sudokit
CRATE=target/release/examples/peer_crate
NATIVE_BIN=""
if [ "${NATIVE:-1}" != 0 ]; then
  RUSTFLAGS="-C target-cpu=native" cargo build --release --quiet --bin sudokit \
    --target-dir target/native
  NATIVE_BIN=target/native/release/sudokit
fi

head -n 10000 "$DATA/forum_hardest_1905_11plus.txt" > "$WORK/forum_hardest_10k.txt"
ROYLE=$DATA/royle17_49158.txt
TOP=$DATA/magictour_top1465.txt
FORUM=$WORK/forum_hardest_10k.txt

# tdoku's `solve LIMIT` reads the puzzles on standard input (a shell in between, which `exec`s
# tdoku, so that it can be timed as one command like the others).
tdoku() { sh -c 'exec "$0" "$1" < "$2"' "$TDOKU" "$2" "$1"; }

# The answers must agree before anything is timed.
check() {
  local file=$1 ours
  ours=$("$SUDOKIT" solve --threads 1 "$file" | md5sum)
  [ "$ours" = "$("$CRATE" "$file" solve | md5sum)" ] ||
    { echo "sudokit and the crate disagree on $file" >&2; exit 1; }
  [ -z "$NATIVE_BIN" ] || [ "$ours" = "$("$NATIVE_BIN" solve --threads 1 "$file" | md5sum)" ] ||
    { echo "the two sudokit builds disagree on $file" >&2; exit 1; }
  [ -z "$TDOKU" ] || [ "$ours" = "$(tdoku "$file" 1 | cut -d: -f3 | md5sum)" ] ||
    { echo "sudokit and tdoku disagree on $file" >&2; exit 1; }
}

# One timed run: prints "wall cpu" in seconds. The CPU time is perf's task-clock (to the
# microsecond) where `perf stat` works, else bash's user + system time (to the millisecond, too
# coarse for top1465's 11 ms).
PERF_OK=0
perf stat -x, -e task-clock -o /dev/null true 2>/dev/null && PERF_OK=1
timed() {
  if [ "$PERF_OK" = 1 ]; then
    local TIMEFORMAT='%R' wall
    wall=$( { time perf stat -x, -e task-clock -o "$WORK/perf.txt" "$@" > /dev/null; } 2>&1 )
    awk -F, -v w="$wall" '/task-clock/ { printf "%.4f %.6f\n", w, $1 / 1000 }' "$WORK/perf.txt"
  else
    local TIMEFORMAT='%R %U %S'
    { time "$@" > /dev/null; } 2>&1 | awk '{ printf "%.4f %.4f\n", $1, $2 + $3 }'
  fi
}

median() { sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

PROGS=(sudokit)
[ -n "$NATIVE_BIN" ] && PROGS+=(native)
PROGS+=(crate)
[ -n "$TDOKU" ] && PROGS+=(tdoku)

# row NAME FILE MODE: alternating rounds of every program; prints a table row.
row() {
  local name=$1 file=$2 mode=$3
  declare -A wall cpu
  for p in "${PROGS[@]}"; do wall[$p]=""; cpu[$p]=""; done
  for _ in $(seq "$ROUNDS"); do
    for p in "${PROGS[@]}"; do
      local cmd
      case "$p/$mode" in
        sudokit/solve) cmd=("$SUDOKIT" solve --threads 1 "$file") ;;
        sudokit/count) cmd=("$SUDOKIT" solve --unique --threads 1 "$file") ;;
        native/solve) cmd=("$NATIVE_BIN" solve --threads 1 "$file") ;;
        native/count) cmd=("$NATIVE_BIN" solve --unique --threads 1 "$file") ;;
        crate/solve) cmd=("$CRATE" "$file" solve) ;;
        crate/count) cmd=("$CRATE" "$file" unique) ;;
        tdoku/solve) cmd=(sh -c 'exec "$0" "$1" < "$2"' "$TDOKU" 1 "$file") ;;
        tdoku/count) cmd=(sh -c 'exec "$0" "$1" < "$2"' "$TDOKU" 2 "$file") ;;
      esac
      read -r w c < <(timed "${cmd[@]}")
      wall[$p]+="$w"$'\n'
      cpu[$p]+="$c"$'\n'
    done
  done
  declare -A mc mw
  for p in "${PROGS[@]}"; do
    mc[$p]=$(printf '%s' "${cpu[$p]}" | median)
    mw[$p]=$(printf '%s' "${wall[$p]}" | median)
  done
  local cells="| $name | $mode"
  for p in "${PROGS[@]}"; do
    cells+=$(awk -v c="${mc[$p]}" -v w="${mw[$p]}" 'BEGIN { printf " | %.4f (%.3f)", c, w }')
  done
  local ratios=()
  ratios+=("${mc[sudokit]} ${mc[crate]}")
  [ -n "$TDOKU" ] && ratios+=("${mc[sudokit]} ${mc[tdoku]}")
  [ -n "$NATIVE_BIN" ] && [ -n "$TDOKU" ] && ratios+=("${mc[native]} ${mc[tdoku]}")
  for r in "${ratios[@]}"; do
    cells+=$(echo "$r" | awk '{ printf " | **%.3f**", $1 / $2 }')
  done
  echo "$cells |"
}

check "$ROYLE"
check "$FORUM"
check "$TOP"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg); $ROUNDS alternating rounds per row"
echo
header="| set | question | sudokit CPU (wall) s"
rule="|---|---|---:"
[ -n "$NATIVE_BIN" ] && { header+=" | sudokit native CPU (wall) s"; rule+="|---:"; }
header+=" | crate CPU (wall) s"; rule+="|---:"
[ -n "$TDOKU" ] && { header+=" | tdoku CPU (wall) s"; rule+="|---:"; }
header+=" | sudokit / crate"; rule+="|---:"
[ -n "$TDOKU" ] && { header+=" | sudokit / tdoku"; rule+="|---:"; }
[ -n "$NATIVE_BIN" ] && [ -n "$TDOKU" ] && { header+=" | native / tdoku"; rule+="|---:"; }
echo "$header |"
echo "$rule|"
row royle17_49158 "$ROYLE" solve
row "forum_hardest (first 10 000)" "$FORUM" solve
row "forum_hardest (first 10 000)" "$FORUM" count
row magictour_top1465 "$TOP" solve
echo
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
