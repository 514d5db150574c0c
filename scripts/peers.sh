#!/usr/bin/env bash
# Whole-process 9×9 comparison of `sudokit solve` with two peers, on the same files:
# - tdoku (T. Dillon's SIMD triad solver), built here from its source with the system C++
#   compiler (`clang++ -O3 -march=native` unless CXX / TDOKU_FLAGS say otherwise) and driven by a
#   small C program of ours that prints one line per puzzle;
# - the `sudoku` crate 0.8 (`examples/peer_crate.rs`, a dev-dependency of this package).
#
# Usage: scripts/peers.sh DATA_DIR [ROUNDS]
#   DATA_DIR  the folder of the puzzle collections (royle17_49158.txt,
#             forum_hardest_1905_11plus.txt, magictour_top1465.txt)
#   ROUNDS    alternating rounds per row (default 11); each round runs every program once, in
#             turn, so load changes hit all of them alike; the table gives the medians.
# Environment:
#   TDOKU_DIR    a tdoku checkout to build from (default: cloned into target/peers/tdoku)
#   CXX, CC      compilers (default clang++ / clang, else c++ / cc)
#   TDOKU_FLAGS  tdoku's flags (default "-O3 -march=native")
#
# Rows: royle17 (all 49158, first solution), forum_hardest (first 10 000, first solution and
# count to 2), top1465 (all, first solution). "count to 2" is `sudokit solve --unique` (prints
# the solution when it is unique), the crate's `solution()` (the same), and tdoku asked for at
# most two solutions, printing only the verdict (tdoku returns no solution when counting; its
# own example program solves a second time to print one, which the `tdoku+sol` column shows).
# Every time is the whole process (start, reading, solving, writing to /dev/null), one thread;
# the ratios are sudokit / peer (below 1: sudokit is faster), of medians of CPU time (user +
# system), with the wall-time medians beside them.
set -euo pipefail
cd "$(dirname "$0")/.."

DATA=${1:?usage: scripts/peers.sh DATA_DIR [ROUNDS]}
ROUNDS=${2:-11}
WORK=target/peers
mkdir -p "$WORK"

pick() { for c in "$@"; do command -v "$c" >/dev/null && { echo "$c"; return; }; done; }
CXX=${CXX:-$(pick clang++ c++ g++)}
CC=${CC:-$(pick clang cc gcc)}
TDOKU_FLAGS=${TDOKU_FLAGS:--O3 -march=native}

# --- tdoku ---------------------------------------------------------------------------------
if [ -z "${TDOKU_DIR:-}" ]; then
  TDOKU_DIR=$WORK/tdoku
  [ -d "$TDOKU_DIR" ] || git clone --depth 1 https://github.com/t-dillon/tdoku "$TDOKU_DIR"
fi
[ -f "$TDOKU_DIR/src/solver_dpll_triad_simd.cc" ] ||
  { echo "no tdoku source in $TDOKU_DIR (src/solver_dpll_triad_simd.cc)" >&2; exit 2; }
cat > "$WORK/tdoku_driver.c" <<'EOF'
/* Reads 9x9 puzzle lines from FILE and prints one line per puzzle: `solve`, the solution (or
   unsat); `count`, unique / multiple / unsat from tdoku counting to two; `count+sol`, as tdoku's
   own example: the count, then a second call for the solution of a unique puzzle. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
size_t TdokuSolverDpllTriadSimd(const char *, size_t, uint32_t, char *, size_t *);
int main(int argc, char **argv) {
  if (argc < 3) { fprintf(stderr, "usage: tdoku_driver FILE solve|count|count+sol\n"); return 2; }
  FILE *in = fopen(argv[1], "r");
  if (!in) { perror(argv[1]); return 2; }
  int mode = strcmp(argv[2], "solve") == 0 ? 0 : strcmp(argv[2], "count") == 0 ? 1 : 2;
  static char out[1 << 16];
  setvbuf(stdout, out, _IOFBF, sizeof out);
  char *line = NULL, solution[82];
  size_t cap = 0, guesses;
  while (getline(&line, &cap, in) != -1) {
    if (strlen(line) < 81) continue;
    size_t n = TdokuSolverDpllTriadSimd(line, mode == 0 ? 1 : 2, 0, solution, &guesses);
    if (mode == 2 && n == 1) TdokuSolverDpllTriadSimd(line, 1, 0, solution, &guesses);
    if (n == 0) fputs("unsat\n", stdout);
    else if (mode == 1) fputs(n == 1 ? "unique\n" : "multiple\n", stdout);
    else if (n > 1) fputs("multiple\n", stdout);
    else { solution[81] = '\n'; fwrite(solution, 1, 82, stdout); }
  }
  return 0;
}
EOF
# shellcheck disable=SC2086
"$CXX" $TDOKU_FLAGS -std=c++14 -fno-exceptions -fno-rtti -c \
  "$TDOKU_DIR/src/solver_dpll_triad_simd.cc" -o "$WORK/tdoku.o"
# shellcheck disable=SC2086
"$CXX" $TDOKU_FLAGS -std=c++14 -c "$TDOKU_DIR/src/util.cc" -o "$WORK/tdoku_util.o"
# shellcheck disable=SC2086
"$CC" $TDOKU_FLAGS -c "$WORK/tdoku_driver.c" -o "$WORK/tdoku_driver.o"
"$CXX" "$WORK/tdoku_driver.o" "$WORK/tdoku.o" "$WORK/tdoku_util.o" -o "$WORK/tdoku_driver"
TDOKU=$WORK/tdoku_driver

# --- sudokit and the crate -----------------------------------------------------------------
cargo build --release --quiet --bin sudokit --example peer_crate
SUDOKIT=target/release/sudokit
CRATE=target/release/examples/peer_crate

head -n 10000 "$DATA/forum_hardest_1905_11plus.txt" > "$WORK/forum_hardest_10k.txt"
ROYLE=$DATA/royle17_49158.txt
TOP=$DATA/magictour_top1465.txt
FORUM=$WORK/forum_hardest_10k.txt

# The answers must agree before anything is timed (the tdoku count mode prints verdicts only).
check() {
  local file=$1
  cmp -s <("$SUDOKIT" solve --threads 1 "$file") <("$CRATE" "$file" solve) ||
    { echo "sudokit and the crate disagree on $file" >&2; exit 1; }
  cmp -s <("$SUDOKIT" solve --threads 1 "$file") <("$TDOKU" "$file" solve) ||
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
  local progs=(sudokit crate tdoku)
  [ "$mode" = count ] && progs+=(tdoku+sol)
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
        tdoku/solve) cmd=("$TDOKU" "$file" solve) ;;
        tdoku/count) cmd=("$TDOKU" "$file" count) ;;
        tdoku+sol/count) cmd=("$TDOKU" "$file" count+sol) ;;
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
  local extra="–"
  [ "$mode" = count ] && extra=$(awk -v a="${ms[0]}" -v b="${ms[3]}" 'BEGIN { printf "%.3f", a / b }')
  awk -v n="$name" -v m="$mode" -v s="${ms[0]}" -v c="${ms[1]}" -v t="${ms[2]}" \
      -v sw="${mw[0]}" -v cw="${mw[1]}" -v tw="${mw[2]}" -v x="$extra" 'BEGIN {
    printf "| %s | %s | %.3f (%.3f) | %.3f (%.3f) | %.3f (%.3f) | **%.3f** | **%.3f** | %s |\n",
      n, m, s, sw, c, cw, t, tw, s / c, s / t, x }'
}

check "$ROYLE"
check "$FORUM"
check "$TOP"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg); $ROUNDS alternating rounds per row"
echo "tdoku: $CXX $TDOKU_FLAGS ($("$CXX" --version | head -n 1))"
echo
echo "| set | question | sudokit CPU (wall) s | crate CPU (wall) s | tdoku CPU (wall) s | sudokit / crate | sudokit / tdoku | sudokit / tdoku+sol |"
echo "|---|---|---:|---:|---:|---:|---:|---:|"
row royle17_49158 "$ROYLE" solve
row "forum_hardest (first 10 000)" "$FORUM" solve
row "forum_hardest (first 10 000)" "$FORUM" count
row magictour_top1465 "$TOP" solve
echo
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
