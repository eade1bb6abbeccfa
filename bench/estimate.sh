#!/bin/sh
# bench/estimate.sh: how good the estimates are (bench/README.md,
# "Estimates").  For every correct test of models/*/expected.txt of at
# most MAXS states (default 1,000,000), each exhaustive search in SEARCHES
# (default "dfs bfs ses") runs to its end with progress lines every 10 ms;
# the estimate of the reachable states each line shows is compared with
# the count the run ends with, at the first line past 1%, 10% and 50% of
# it (by states; the rate is steady, so also about by time).  Prints one
# row per test and search (estimate / actual, "-" where no estimate was
# shown yet) and, per search, how many are within a factor of 2.  The
# last column is the ETA the progress line shows at half way (its first
# line past half the run's time) over the time the run really had left
# then; it is counted only for runs of at least 1 s (the line's times
# have a tenth of a second).
# EXTRA: more options for every run (e.g. --no-reduction: the full
# state spaces, bigger and longer).
# Usage: bench/estimate.sh [PCHECK]   (run from the source tree)
PCHECK=${1:-${PCHECK:-build/pcheck}}
MAXS=${MAXS:-1000000}
SEARCHES=${SEARCHES:-dfs bfs ses}
lscpu | grep -E '^(Model name|CPU\(s\))' | sed 's/  */ /g'
printf '%-16s %-28s %-4s %9s %7s %7s %7s %7s %8s\n' model test search states '1%' '10%' '50%' 'time' 'ETA@50%'
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
      T=$(sed -n 's/^states: .*time: \([0-9.]*\)$/\1/p' "$tmp/out")
      [ -n "$n" ] || continue
      # Each line as "ELAPSED ETA STATES ESTIMATE" (times as the line writes them).
      grep '^progress: ' "$tmp/err" |
        sed -n -e 's/^progress: \([^:]*\): [0-9]*% done, ETA \([^,]*\), .*, \([0-9]*\) of ~\([0-9,.e+]*\) states.*/\1 \2 \3 \4/p' \
               -e 's/^progress: \([^:]*\): [0-9]*% done, ETA \([^,]*\), \([0-9]*\) of ~\([0-9,.e+]*\) states.*/\1 \2 \3 \4/p' \
               -e 's/^progress: \([^:]*\): .*, \([0-9]*\) of ~\([0-9,.e+]*\) states.*/\1 - \2 \3/p' | tr -d , |
        awk -v n="$n" -v T="$T" -v m="$(basename "$m")" -v t="$t" -v s="$s" '
          # "4.2s", "48s", "1m12s", "2h05m" in seconds.
          function secs(x,   v) {
            v = 0
            if (x ~ /h/) { v += 3600 * substr(x, 1, index(x, "h") - 1); x = substr(x, index(x, "h") + 1) }
            if (x ~ /m/) { v += 60 * substr(x, 1, index(x, "m") - 1); x = substr(x, index(x, "m") + 1) }
            sub(/s$/, "", x)
            return v + x
          }
          { el[NR] = secs($1); eta[NR] = $2 == "-" ? -1 : secs($2); st[NR] = $3; est[NR] = $4 }
          END {
            split("0.01 0.1 0.5", f, " ")
            line = sprintf("%-16s %-28s %-4s %9d", m, t, s, n)
            for (k = 1; k <= 3; k++) {
              v = "-"
              for (i = 1; i <= NR; i++) if (st[i] >= f[k] * n) { v = sprintf("%.2f", est[i] / n); break }
              line = line sprintf(" %7s", v)
            }
            v = "-"
            for (i = 1; i <= NR && T >= 1; i++)
              if (el[i] >= T / 2) { if (T - el[i] > 0 && eta[i] >= 0) v = sprintf("%.2f", eta[i] / (T - el[i])); break }
            print line sprintf(" %7.2f %8s", T, v)
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
    $3 == s && $8 >= 1 { long++; if ($9 != "-" && $9 >= 0.5 && $9 <= 2) e++ }
    END { printf "%s: within 2x of the actual count at 1%%: %d, 10%%: %d, 50%%: %d of %d tests (no estimate yet: %d, %d, %d)\n",
          s, w[5], w[6], w[7], n, u[5], u[6], u[7]
          printf "%s: ETA at half way within 2x of the time left: %d of %d runs of 1 s or more\n", s, e, long }' "$tmp/rows"
done
