#!/bin/sh
# portfolio_proofs.sh: what a proof costs the default search.  On every
# test of models/ that is correct and small enough to finish (the "no-bug"
# lines of each expected.txt), the time to "complete: no bug" of dfs alone
# and of the portfolio (one thread, --seed 1), pcheck's own "time:" figure
# (search only), the best of REPEAT runs for each side alike, and their
# ratio; last, the geometric mean and the largest ratio.  A run that does
# not complete within TIME seconds counts as TIME (and says so).
# Usage: bench/portfolio_proofs.sh [PCHECK]   (from the source folder)
#   env: TIME=60 REPEAT=3 MODELS="german paxos ..."
set -u
P=${1:-build/pcheck}
TIME=${TIME:-60}
REPEAT=${REPEAT:-3}
export PCHECK_STDLIB=${PCHECK_STDLIB:-$PWD/stdlib}
[ -x "$P" ] || { echo "portfolio_proofs.sh: build pcheck first, or pass its path" >&2; exit 2; }
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT

# best SEARCH MODEL TEST: the least "time:" of REPEAT complete runs, or
# TIME+ when one did not complete.
best() {
  b=""
  i=0
  while [ "$i" -lt "$REPEAT" ]; do
    r=$("$P" --search "$1" --seed 1 -j 1 --timeout "$TIME" -q -o "$tmp/o" -tc "$3" "models/$2" 2>&1)
    echo "$r" | grep -q '^result: no-bug (complete)' || { echo "${TIME}+"; return; }
    t=$(echo "$r" | sed -n 's/.*time: \([0-9.]*\).*/\1/p' | tail -n 1)
    b=$(awk -v a="$b" -v t="$t" 'BEGIN { if (a == "" || t + 0 < a + 0) print t; else print a }')
    i=$((i + 1))
  done
  echo "$b"
}

echo "| model | test | states | dfs s | portfolio s | portfolio / dfs |"
echo "| --- | --- | --- | --- | --- | --- |"
for f in models/*/expected.txt; do
  m=$(basename "$(dirname "$f")")
  case " ${MODELS:-$m} " in *" $m "*) ;; *) continue ;; esac
  awk -F'\t' '$1 !~ /^#/ && $2 == "no-bug" { print $1, $3 }' "$f" | while read -r t n; do
    d=$(best dfs "$m" "$t")
    p=$(best portfolio "$m" "$t")
    ratio=$(awk -v d="${d%+}" -v p="${p%+}" 'BEGIN { if (d < 0.01) d = 0.01; if (p < 0.01) p = 0.01; printf "%.2f", p / d }')
    echo "| $m | $t | $n | $d | $p | $ratio |"
    echo "$ratio" >>"$tmp/ratios"
  done
done
awk '{ s += log($1); n++; if ($1 > mx) mx = $1 } END { if (n) printf "%d tests; portfolio / dfs: geometric mean %.2f, largest %.2f\n", n, exp(s / n), mx }' "$tmp/ratios"
