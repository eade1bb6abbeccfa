#!/bin/sh
# compare.sh [SIZES]: two-phase commit with N participants, exhaustively,
# in pcheck (models/twophase_n, --search dfs) and in SPIN
# (bench/spin/twophase.pml, -DSAFETY -DNOREDUCE), side by side.
# Installs SPIN with apt-get when it is missing.  Prints one table; the
# seconds are each tool's own figure (pcheck's search time, pan's elapsed
# time), so neither includes compiling or starting up.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
pcheck=${PCHECK:-$top/build/pcheck}
sizes=${1:-"3 4 5 6"}
if ! command -v spin >/dev/null 2>&1; then
  if [ "$(id -u)" -eq 0 ]; then SUDO=""; else SUDO="sudo"; fi
  $SUDO apt-get update -qq && $SUDO apt-get install -y -qq spin >/dev/null
fi
[ -x "$pcheck" ] || { echo "compare.sh: build pcheck first (./build.sh demo), or set PCHECK" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf '%-3s | %-8s %10s %11s %8s %12s %9s | %-8s %10s %11s %8s %12s %9s | %s\n' \
  N tool states transitions seconds states/s B/state tool states transitions seconds states/s B/state "ratio of states/s"
for n in $sizes; do
  # pcheck
  "$pcheck" --search dfs -q --mem 8G --stats-json "$tmp/p.json" -t "tcTwoPhase___N_$n" "$top/models/twophase_n" >/dev/null
  ps=$(sed -n 's/.*"states": \([0-9]*\).*/\1/p' "$tmp/p.json")
  pt=$(sed -n 's/.*"transitions": \([0-9]*\).*/\1/p' "$tmp/p.json")
  psec=$(sed -n 's/.*"time_seconds": \([0-9.]*\).*/\1/p' "$tmp/p.json")
  pbps=$(sed -n 's/.*"bytes_per_state": \([0-9.]*\).*/\1/p' "$tmp/p.json")
  # SPIN
  (cd "$tmp" && spin -DN="$n" -a "$here/twophase.pml" >/dev/null &&
   gcc -O2 -DSAFETY -DNOREDUCE -DMEMLIM=16000 -o pan pan.c 2>/dev/null)
  (cd "$tmp" && ./pan -m1000000 >"$tmp/spin.out" 2>&1)
  ss=$(sed -n 's/^ *\([0-9][0-9.e+]*\) states, stored.*/\1/p' "$tmp/spin.out")
  st=$(sed -n 's/^ *\([0-9][0-9.e+]*\) transitions.*/\1/p' "$tmp/spin.out")
  smem=$(sed -n 's/^ *\([0-9.]*\).actual memory usage for states.*/\1/p' "$tmp/spin.out")
  ssec=$(sed -n 's/^pan: elapsed time \([0-9.e+]*\) seconds.*/\1/p' "$tmp/spin.out")
  awk -v n="$n" -v ps="$ps" -v pt="$pt" -v psec="$psec" -v pb="$pbps" -v ss="$ss" -v st="$st" -v ssec="$ssec" -v smem="$smem" 'BEGIN {
    if (psec < 0.001) psec = 0.001; if (ssec < 0.001) ssec = 0.001;
    pr = ps / psec; sr = ss / ssec; sb = (ss > 0) ? smem * 1048576 / ss : 0;
    printf "%-3s | %-8s %10d %11d %8.2f %12.0f %9.1f | %-8s %10d %11d %8.2f %12.0f %9.1f | %.2f\n",
      n, "pcheck", ps, pt, psec, pr, pb, "spin", ss, st, ssec, sr, sb, pr / sr }'
done
echo "(pcheck: bytes per state of its fingerprint cache; SPIN: its 'actual memory usage for states' per stored state)"
