#!/bin/sh
# checkpoint.sh: what checkpoints cost (--checkpoint, --resume).  For each
# search on one model (complete runs of a few seconds):
#   - the run's time without checkpoints and with one every EVERY seconds,
#     paired with farm-bench --vs (median of RUNS pairs): the ratio is the
#     cost of writing them (each written beside, flushed to the disk,
#     renamed);
#   - how many it wrote, the time they took, and the last one's size (a
#     run stopped by --timeout at half its time);
#   - the time to resume from that one and finish, against the rest of an
#     unstopped run (whole run minus the half done).
# Usage: bench/checkpoint.sh [BUILD]   (from the source folder; BUILD holds
#   pcheck, default build)   env: EVERY=1 RUNS=5 MODEL=models/chainreplication
#   TEST="-tc tcOneFailure --no-reduction" SEARCHES="dfs bfs ses"
set -u
b=${1:-build}
P=$(cd "$b" && pwd)/pcheck
[ -x "$P" ] || { echo "checkpoint.sh: build pcheck in $b first" >&2; exit 2; }
every=${EVERY:-1}
runs=${RUNS:-5}
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
M=${MODEL:-models/chainreplication}
T=${TEST:-"-tc tcOneFailure --no-reduction"}
echo "machine: $(lscpu | sed -n 's/^Model name: *//p'), $(nproc) cores; $M $T"
echo "| search | without (s) | with, every ${every} s (s) | ratio | written | writing (s) | size (MiB) | resume + rest (s) | rest unstopped (s) |"
echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
for s in ${SEARCHES:-dfs bfs ses}; do
  # shellcheck disable=SC2086
  out=$(farm-bench -n "$runs" --timeout 900 --vs "$P -q -S $s $T -o $tmp/o $M" -- \
    "$P" -q -S $s $T --checkpoint "$tmp/ck" --checkpoint-every "$every" -o "$tmp/o" $M 2>&1)
  med() { echo "$out" | awk -v k="$1" '$1 " " $2 " " $3 == k { print $5 }'; }   # a figure's median
  a=$(med "A wall s")
  bb=$(med "B wall s")
  ratio=$(echo "$out" | awk '$1 == "A/B" && $2 == "wall" { print $4 }')
  # Written by a run stopped at half its time, and the resume from there.
  whole=$(${P} -q -S $s $T -o "$tmp/o" $M | sed -n 's/.*time: \([0-9.]*\).*/\1/p')
  half=$(awk -v w="$whole" 'BEGIN { printf "%.2f", w / 2 }')
  rm -f "$tmp/ck"
  # shellcheck disable=SC2086
  r=$($P -q -S $s $T --checkpoint "$tmp/ck" --checkpoint-every "$every" --timeout "$half" -o "$tmp/o" $M)
  n=$(echo "$r" | sed -n 's/^checkpoint: .* (\([0-9]*\) written, \([0-9.]*\) s.*/\1/p')
  w=$(echo "$r" | sed -n 's/^checkpoint: .* (\([0-9]*\) written, \([0-9.]*\) s.*/\2/p')
  size=$(stat -c %s "$tmp/ck" 2>/dev/null || echo 0)
  t0=$(date +%s.%N)
  # shellcheck disable=SC2086
  $P -q -S $s $T --resume "$tmp/ck" -o "$tmp/o" $M >/dev/null
  t1=$(date +%s.%N)
  echo "| $s | $bb | $a | $ratio | ${n:-0} | ${w:-0} | $(awk -v z="$size" 'BEGIN { printf "%.1f", z / 1048576 }') |" \
    "$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }') | $(awk -v w="$whole" -v h="$half" 'BEGIN { printf "%.2f", w - h }') |"
done
