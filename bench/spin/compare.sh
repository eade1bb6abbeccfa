#!/bin/sh
# compare.sh [SIZES]: two-phase commit with N participants, exhaustively,
# in pcheck (models/twophase_n, --search dfs) and in SPIN
# (bench/spin/twophase.pml, -DSAFETY -DNOREDUCE), side by side.
# Installs SPIN with apt-get when it is missing.  Prints one table; the
# seconds are each tool's own figure (pcheck's search time, pan's elapsed
# time), so neither includes compiling or starting up.  Each tool runs
# REPEAT times (default 3) and the fastest run counts, for both alike: on a
# shared machine the slow runs measure the neighbours.  The ratio is left
# out ("-") when either tool took under 0.05 s: SPIN reports its time to
# 0.01 s, so such a figure says nothing.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
pcheck=${PCHECK:-$top/build/pcheck}
sizes=${1:-"3 4 5 6"}
repeat=${REPEAT:-3}
# best FILE...: the smallest number among the files' contents.
best() { cat "$@" | awk 'NR == 1 || $1 < m { m = $1 } END { print m }'; }
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
  i=0
  while [ "$i" -lt "$repeat" ]; do
    i=$((i + 1))
    "$pcheck" --search dfs -q --mem 8G --stats-json "$tmp/p.json" -t "tcTwoPhase___N_$n" "$top/models/twophase_n" >/dev/null
    sed -n 's/.*"time_seconds": \([0-9.]*\).*/\1/p' "$tmp/p.json" >"$tmp/psec.$i"
  done
  ps=$(sed -n 's/.*"states": \([0-9]*\).*/\1/p' "$tmp/p.json")
  pt=$(sed -n 's/.*"transitions": \([0-9]*\).*/\1/p' "$tmp/p.json")
  psec=$(best "$tmp"/psec.*)
  pbps=$(sed -n 's/.*"bytes_per_state": \([0-9.]*\).*/\1/p' "$tmp/p.json")
  rm -f "$tmp"/psec.*
  # SPIN
  (cd "$tmp" && spin -DN="$n" -a "$here/twophase.pml" >/dev/null &&
   gcc -O2 -DSAFETY -DNOREDUCE -DMEMLIM=16000 -o pan pan.c 2>/dev/null)
  i=0
  while [ "$i" -lt "$repeat" ]; do
    i=$((i + 1))
    (cd "$tmp" && ./pan -m1000000 >"$tmp/spin.out" 2>&1)
    sed -n 's/^pan: elapsed time \([0-9.e+]*\) seconds.*/\1/p' "$tmp/spin.out" >"$tmp/ssec.$i"
  done
  ss=$(sed -n 's/^ *\([0-9][0-9.e+]*\) states, stored.*/\1/p' "$tmp/spin.out")
  st=$(sed -n 's/^ *\([0-9][0-9.e+]*\) transitions.*/\1/p' "$tmp/spin.out")
  smem=$(sed -n 's/^ *\([0-9.]*\).actual memory usage for states.*/\1/p' "$tmp/spin.out")
  ssec=$(best "$tmp"/ssec.*)
  rm -f "$tmp"/ssec.*
  awk -v n="$n" -v ps="$ps" -v pt="$pt" -v psec="$psec" -v pb="$pbps" -v ss="$ss" -v st="$st" -v ssec="$ssec" -v smem="$smem" 'BEGIN {
    pr = (psec > 0) ? sprintf("%12.0f", ps / psec) : sprintf("%12s", "-");
    sr = (ssec > 0) ? sprintf("%12.0f", ss / ssec) : sprintf("%12s", "-");
    ratio = (psec >= 0.05 && ssec >= 0.05) ? sprintf("%.2f", (ps / psec) / (ss / ssec)) : "-";
    sb = (ss > 0) ? smem * 1048576 / ss : 0;
    printf "%-3s | %-8s %10d %11d %8.3f %s %9.1f | %-8s %10d %11d %8.2f %s %9.1f | %s\n",
      n, "pcheck", ps, pt, psec, pr, pb, "spin", ss, st, ssec, sr, sb, ratio }'
done
echo "(fastest of $repeat runs each; pcheck: bytes per state of its fingerprint cache; SPIN: its 'actual memory usage for states' per stored state)"
