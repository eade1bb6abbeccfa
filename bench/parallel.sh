#!/bin/sh
# parallel.sh: how the exhaustive searches scale with threads (-j).  For
# each search (dfs, bfs, ses, pb; --no-reduction: every interleaving, the
# state space these figures were first taken on) and model, runs 1, 2, ... JOBS threads,
# REPEAT times each (fastest counts, for every thread count alike), and
# prints states, transitions, seconds (pcheck's search time), states per
# second and the speed-up over one thread.  The counts must agree across
# thread counts (a complete search); a row says DIFFERS if they do not.
# Usage: bench/parallel.sh [PCHECK]   (from the source folder)
#   env: JOBS="1 2" REPEAT=3 SEARCHES="dfs bfs ses pb"
#        CASES="models/twophase_n:tcTwoPhase___N_5 models/clientserver:tcMultipleClients"
set -u
P=${1:-build/pcheck}
jobs=${JOBS:-"1 2"}
repeat=${REPEAT:-3}
searches=${SEARCHES:-"dfs bfs ses pb"}
cases=${CASES:-"models/twophase_n:tcTwoPhase___N_5 models/clientserver:tcMultipleClients models/german:tcThreeCaches"}
export PCHECK_STDLIB=${PCHECK_STDLIB:-$PWD/stdlib}
[ -x "$P" ] || { echo "parallel.sh: build pcheck first, or pass its path" >&2; exit 2; }
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
field() { sed -n "s/^ *\"$1\": *\\([0-9.]*\\),*\$/\\1/p" "$2"; }
echo "| model | test | search | threads | states | transitions | seconds | states/s | speed-up |"
echo "| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |"
for c in $cases; do
  m=${c%%:*} t=${c#*:}
  for s in $searches; do
    base="" counts=""
    for j in $jobs; do
      best=""
      i=0
      while [ "$i" -lt "$repeat" ]; do
        i=$((i + 1))
        "$P" --search "$s" --no-reduction -j "$j" -q --mem 4G --stats-json "$tmp/s.json" -tc "$t" "$m" >/dev/null 2>&1
        sec=$(field time_seconds "$tmp/s.json")
        if [ -z "$best" ] || awk -v a="$sec" -v b="$best" 'BEGIN { exit !(a < b) }'; then best=$sec; fi
      done
      st=$(field states "$tmp/s.json") tr=$(field transitions "$tmp/s.json")
      note=""
      [ -n "$counts" ] && [ "$counts" != "$st $tr" ] && note=" DIFFERS"
      counts="$st $tr"
      [ -z "$base" ] && base=$best
      awk -v m="$m" -v t="$t" -v s="$s" -v j="$j" -v st="$st" -v tr="$tr" -v sec="$best" -v b="$base" -v note="$note" 'BEGIN {
        rate = sec > 0 ? st / sec : 0; up = sec > 0 ? b / sec : 0;
        printf "| %s | %s | %s | %d | %d | %d | %.3f | %.0f | %.2f%s |\n", m, t, s, j, st, tr, sec, rate, up, note }'
    done
  done
done
echo
echo "(fastest of $repeat runs per row; $(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //'), $(nproc) cores)"
