#!/bin/sh
# bench/estimate.sh: how good the estimates are (bench/README.md,
# "Estimates").  For every correct test of models/*/expected.txt of at
# most MAXS states (default 1,000,000), each exhaustive search in SEARCHES
# (default "dfs bfs ses") runs to its end with progress lines every 10 ms;
# the estimate of the reachable states each line shows is compared with
# the count the run ends with, at the first line past 1%, 10% and 50% of
# it (by states; the rate is steady, so also about by time).  Prints one
# row per test and search (estimate / actual, "-" where no estimate was
# shown yet) and, per search, how many are within a factor of 2.
# EXTRA: more options for every run (e.g. --no-reduction: the full
# state spaces, bigger and longer).
# Usage: bench/estimate.sh [PCHECK]   (run from the source tree)
PCHECK=${1:-${PCHECK:-build/pcheck}}
MAXS=${MAXS:-1000000}
SEARCHES=${SEARCHES:-dfs bfs ses}
lscpu | grep -E '^(Model name|CPU\(s\))' | sed 's/  */ /g'
printf '%-16s %-28s %-4s %9s %7s %7s %7s\n' model test search states '1%' '10%' '50%'
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for exp in models/*/expected.txt; do
  m=$(dirname "$exp")
  while IFS='	' read -r t verdict states note; do
    [ "$verdict" = no-bug ] || continue
    [ "$states" -le "$MAXS" ] 2>/dev/null || continue
    for s in $SEARCHES; do
      "$PCHECK" -S "$s" -tc "$t" --mem 2G $EXTRA --progress=0.01 -o "$tmp/o" "$m" >"$tmp/out" 2>"$tmp/err"
      n=$(sed -n 's/^states: \([0-9]*\).*/\1/p' "$tmp/out")
      [ -n "$n" ] || continue
      grep '^progress: ' "$tmp/err" | sed -n 's/.*, \([0-9]*\) of ~\([0-9,.e+]*\) states.*/\1 \2/p' | tr -d , |
        awk -v n="$n" -v m="$(basename "$m")" -v t="$t" -v s="$s" '
          { st[NR] = $1; est[NR] = $2 }
          END {
            split("0.01 0.1 0.5", f, " ")
            line = sprintf("%-16s %-28s %-4s %9d", m, t, s, n)
            for (k = 1; k <= 3; k++) {
              v = "-"
              for (i = 1; i <= NR; i++) if (st[i] >= f[k] * n) { v = sprintf("%.2f", est[i] / n); break }
              line = line sprintf(" %7s", v)
            }
            print line
          }'
    done
  done < "$exp"
done | tee "$tmp/rows"
for s in $SEARCHES; do
  awk -v s="$s" '$3 == s {
      n++
      for (k = 5; k <= 7; k++) if ($k != "-" && $k >= 0.5 && $k <= 2) w[k]++
      for (k = 5; k <= 7; k++) if ($k == "-") u[k]++
    }
    END { printf "%s: within 2x of the actual count at 1%%: %d, 10%%: %d, 50%%: %d of %d tests (no estimate yet: %d, %d, %d)\n",
          s, w[5], w[6], w[7], n, u[5], u[6], u[7] }' "$tmp/rows"
done
