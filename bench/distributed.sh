#!/bin/sh
# distributed.sh: the distributed search (mpirun -np K, doc/distributed.md)
# against one rank, on this machine.  For each case, runs 1 rank and each
# K of RANKS, REPEAT times each, and prints pcheck's own figures: states,
# transitions, search seconds (the fastest run of each, alike for every
# rank count), states per second, the speed-up over one rank, and the
# letters the ranks sent (count, MiB, bytes per transition) for the cost
# model.  A complete case must count the same on every rank count (a row
# says DIFFERS otherwise); a case with --timeout compares states per
# second of equal time.
# Then sampling (SAMPLE_CASES): executions per second on 1 and K ranks, and
# what K independent processes get on this machine (its own ceiling).
# Usage: bench/distributed.sh [PCHECK]   (from the source folder)
#   env: RANKS="2" REPEAT=3
#        CASES="models/twophase_n:tcTwoPhase___N_6:bfs:--no-reduction ..."
#        (model:test:search:options, options joined by commas)
set -u
P=${1:-build/pcheck}
ranks=${RANKS:-"2"}
repeat=${REPEAT:-3}
cases=${CASES:-"models/twophase_n:tcTwoPhase___N_6:bfs:--no-reduction models/twophase_n:tcTwoPhase___N_6:dfs:--no-reduction models/paxos:tcTwoProposers:bfs:--timeout,10 models/twophase_n:tcTwoPhase___N_6:ses:--no-reduction models/paxos:tcTwoProposers:ses:--no-reduction,--timeout,10"}
export PCHECK_STDLIB=${PCHECK_STDLIB:-$PWD/stdlib}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
[ -x "$P" ] || { echo "distributed.sh: build pcheck first, or pass its path" >&2; exit 2; }
"$P" --version | grep -q 'Open MPI' || { echo "distributed.sh: $P is built without MPI" >&2; exit 2; }
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
field() { sed -n "s/^ *\"$1\": *\\([0-9.]*\\),*\$/\\1/p" "$2"; }
echo "| model | test | search | ranks | states | transitions | seconds | states/s | speed-up | letters | MiB | bytes/transition |"
echo "| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
for c in $cases; do
  m=$(echo "$c" | cut -d: -f1) t=$(echo "$c" | cut -d: -f2) s=$(echo "$c" | cut -d: -f3)
  opts=$(echo "$c" | cut -d: -f4 | tr , ' ')
  base="" counts=""
  for k in 1 $ranks; do
    best="" bestrate=0
    for r in $(seq "$repeat"); do
      mpirun -np "$k" "$P" -q -S "$s" $opts -tc "$t" --stats-json "$tmp/s.json" -o "$tmp/o" "$m" >/dev/null 2>&1 </dev/null
      st=$(field states "$tmp/s.json") tr=$(field transitions "$tmp/s.json") sec=$(field time_seconds "$tmp/s.json")
      le=$(field letters "$tmp/s.json") lb=$(field letter_bytes "$tmp/s.json")
      rate=$(echo "$st $sec" | awk '{ printf "%.0f", $1 / ($2 > 0 ? $2 : 1e-9) }')
      if [ "$rate" -gt "$bestrate" ]; then bestrate=$rate best="$st $tr $sec ${le:-0} ${lb:-0}"; fi
    done
    set -- $best
    [ -n "$base" ] || base=$bestrate
    same=""
    case $opts in *--timeout*) ;; *) [ -z "$counts" ] && counts="$1 $2"; [ "$counts" = "$1 $2" ] || same=" DIFFERS" ;; esac
    echo "$1 $2 $3 $4 $5 $bestrate $base" | awk -v m="$m" -v t="$t" -v s="$s" -v k="$k" -v d="$same" '{
      printf "| %s | %s | %s | %d | %d | %d | %.2f | %.0f | %.2f%s | %d | %.1f | %.1f |\n",
             m, t, s, k, $1, $2, $3, $6, $6 / $7, d, $4, $5 / 1048576, ($2 > 0 ? $5 / $2 : 0) }'
  done
done

# Sampling: executions per second of equal time (--timeout), 1 rank and
# each K, best of REPEAT; and the machine's own ceiling for K processes:
# K independent one-process runs at once, their executions summed.
samples=${SAMPLE_CASES:-"models/paxos:tcOneProposer:random:--timeout,10 models/paxos:tcOneProposer:ss:--timeout,10"}
echo
echo "| model | test | search | ranks | executions | transitions | seconds | executions/s | speed-up | K processes alone: speed-up |"
echo "| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
for c in $samples; do
  m=$(echo "$c" | cut -d: -f1) t=$(echo "$c" | cut -d: -f2) s=$(echo "$c" | cut -d: -f3)
  opts=$(echo "$c" | cut -d: -f4 | tr , ' ')
  base=""
  for k in 1 $ranks; do
    best="" bestrate=0 ceil=0
    for r in $(seq "$repeat"); do
      mpirun -np "$k" "$P" -q -S "$s" --seed 1 $opts -tc "$t" --stats-json "$tmp/s.json" -o "$tmp/o" "$m" >/dev/null 2>&1 </dev/null
      ex=$(field executions "$tmp/s.json") tr=$(field transitions "$tmp/s.json") sec=$(field time_seconds "$tmp/s.json")
      rate=$(echo "$ex $sec" | awk '{ printf "%.0f", $1 / ($2 > 0 ? $2 : 1e-9) }')
      if [ "$rate" -gt "$bestrate" ]; then bestrate=$rate best="$ex $tr $sec"; fi
      # K one-process runs side by side (seeds differ), executions per second summed.
      for i in $(seq "$k"); do "$P" -q -S "$s" --seed "$i" $opts -tc "$t" --stats-json "$tmp/a$i.json" -o "$tmp/a$i" "$m" >/dev/null 2>&1 & done
      wait
      sum=0
      for i in $(seq "$k"); do
        sum=$(echo "$sum $(field executions "$tmp/a$i.json") $(field time_seconds "$tmp/a$i.json")" | awk '{ printf "%.0f", $1 + $2 / $3 }')
      done
      [ "$sum" -gt "$ceil" ] && ceil=$sum
    done
    set -- $best
    [ -n "$base" ] || base=$bestrate
    echo "$1 $2 $3 $bestrate $base $ceil" | awk -v m="$m" -v t="$t" -v s="$s" -v k="$k" '{
      printf "| %s | %s | %s | %d | %d | %d | %.2f | %.0f | %.2f | %.2f |\n", m, t, s, k, $1, $2, $3, $4, $4 / $5, $6 / $5 }'
  done
done
echo
lscpu | sed -n 's/^Model name: *//p; s/^CPU(s): *//p' | paste -sd' ' | sed 's/^/machine: /'
