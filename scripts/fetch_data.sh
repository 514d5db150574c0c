#!/usr/bin/env bash
# Fetches the public puzzle collections BENCHMARKS.md measures (`$SUDOKIT_DATA/FILE`) from the
# repositories models/README.md names, normalises them to puzzle lines (one puzzle per line, `.`
# for an empty cell, values 1-9 then A-Z, LF endings, comment lines dropped, exact duplicates
# removed except in the acs_general files, whose line order carries meaning), and makes the
# generated inputs BENCHMARKS.md uses (empty64.json, a 100 MB line, the derived samples).
#
# Usage: scripts/fetch_data.sh DIR      (then `export SUDOKIT_DATA=DIR`)
# Needs curl (or wget); the network is yours. The acs_general files are assembled from 6000
# small instance files: several minutes. A file already in DIR is kept (delete it to fetch again).
set -euo pipefail

DIR=${1:?usage: scripts/fetch_data.sh DIR}
mkdir -p "$DIR"
cd "$DIR"

raw() { # OWNER/REPO PATH: the file's text on standard output
  local url="https://raw.githubusercontent.com/$1/HEAD/$2"
  if command -v curl >/dev/null; then curl -fsSL --retry 3 "$url"; else wget -qO- "$url"; fi
}

# Puzzle lines from a tdoku-style file: comments and blank lines dropped, CRLF to LF, 0 to `.`,
# only lines of n² symbols for n = 4, 9, 16, 25 (a trailing field after the puzzle is cut).
normalise() {
  tr -d '\r' | grep -v '^#' | awk '{ p = $1; gsub(/0/, ".", p);
    if (length(p) == 16 || length(p) == 81 || length(p) == 256 || length(p) == 625) print p }'
}

dedupe() { awk '!seen[$0]++'; }

fetch() { # FILE OWNER/REPO PATH
  if [ -s "$1" ]; then echo "kept $1"; return; fi
  raw "$2" "$3" | normalise | dedupe > "$1.tmp"
  mv "$1.tmp" "$1"
  echo "$1: $(wc -l < "$1") puzzles"
}

fetch royle17_49158.txt balmerdx/sudoku_pytorch data/puzzles2_17_clue
fetch magictour_top1465.txt balmerdx/sudoku_pytorch data/puzzles3_magictour_top1465
fetch forum_hardest_1905_11plus.txt balmerdx/sudoku_pytorch data/puzzles5_forum_hardest_1905_11+
fetch forum_hardest_1106.txt balmerdx/sudoku_pytorch data/puzzles6_forum_hardest_1106
fetch serg_benchmark.txt balmerdx/sudoku_pytorch data/puzzles7_serg_benchmark
fetch magictour_top95.txt t-dillon/norvig-sudoku-bench data/top95.txt
fetch norvig_hardest.txt t-dillon/norvig-sudoku-bench data/hardest.txt
fetch top100.txt owhygithub/sudoku-sat-solvers top100.txt
fetch kr_4x4.txt owhygithub/sudoku-sat-solvers 4x4.txt
fetch kr_16x16.txt owhygithub/sudoku-sat-solvers 16x16.txt

# Lloyd and Amos' "general" instances: inst{N}x{N}_{f}_{i}.txt holds the box order, a count, then
# N rows of N tab-separated values (-1 empty). Line L (0-based) of the assembled file is
# f = 5*(L/100 + 1) % given, instance i = L % 100; f = 0 (empty grids) is left out.
acs_instance() { # N F I: one puzzle line
  raw huwlloyd-mmu/sudoku_acs "instances/general/inst$1x$1_$2_$3.txt" | tr -d '\r' | awk '
    NR > 2 { for (k = 1; k <= NF; k++) { v = $k;
      printf "%s", (v == -1 ? "." : substr("123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ", v, 1)) } }
    END { print "" }'
}
for n in 9 16 25; do
  file="acs_general_${n}x${n}.txt"
  if [ -s "$file" ]; then echo "kept $file"; else
    for f in $(seq 5 5 100); do
      for i in $(seq 0 99); do acs_instance "$n" "$f" "$i"; done
    done > "$file.tmp"
    mv "$file.tmp" "$file"
    echo "$file: $(wc -l < "$file") puzzles"
  fi
  # The hard band: 40, 45 and 50 % given (lines 701-1000).
  sed -n '701,1000p' "$file" > "acs_general_${n}x${n}_f40-50.txt"
done

for file in aiescargot coly013 goldennugget platinumblond reddwarf sabuncu1 sabuncu10 sabuncu2 \
  sabuncu3 sabuncu4 sabuncu5 sabuncu6 sabuncu7 sabuncu8 sabuncu9 tarx0134; do
  raw huwlloyd-mmu/sudoku_acs "instances/logic-solvable/$file.txt" | tr -d '\r' | awk '
    NR > 2 { for (k = 1; k <= NF; k++) printf "%s", ($k == -1 ? "." : $k) } END { print "" }'
done > acs_logic_solvable_9x9.txt.tmp
mv acs_logic_solvable_9x9.txt.tmp acs_logic_solvable_9x9.txt

# Generated and derived inputs of BENCHMARKS.md.
echo '{"box":[8,8],"givens":[]}' > empty64.json                         # "Encodings": streamed writing
head -c 100000000 /dev/zero | tr '\0' '.' > line100mb.txt && echo >> line100mb.txt  # "Resource use": info on a 100 MB line
head -200 acs_general_9x9_f40-50.txt > acs200.txt                          # "Generation and minimize"
head -200 magictour_top1465.txt > mt200.txt
head -1000 royle17_49158.txt > royle1000.txt                               # "Cross-check"
{ cat royle17_49158.txt royle17_49158.txt; head -1684 royle17_49158.txt; } > royle100k.txt  # "Python and Dask"
echo "done: export SUDOKIT_DATA=$PWD"
