#!/bin/sh
# memory.sh: peak resident memory against --mem (the whole run's budget),
# every search, on large models and on models that grow without end.
# Each run gets --mem BUDGET and --timeout SECS; tests/peakmem (built by
# make check) reports the kernel's count of its peak.  Prints a table: the
# run, how it ended, its peak, and the peak as a share of the budget.
# Usage: bench/memory.sh [BUILD]   (from the source folder; BUILD holds pcheck
#   and tests/peakmem, default build)
#   env: BUDGETS="256 1024" (MiB) SECS=30
set -u
b=${1:-build}
P=$b/pcheck
peak=$b/tests/peakmem
[ -x "$P" ] && [ -x "$peak" ] || { echo "memory.sh: build pcheck and tests/peakmem (make check) in $b first" >&2; exit 2; }
budgets=${BUDGETS:-"256 1024"}
secs=${SECS:-30}
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
runs="
models/paxos|-tc tcTwoProposers --no-reduction|dfs bfs ses pb portfolio
models/twophase_n|-tc tcTwoPhase___N_6 --no-reduction|dfs bfs ses
models/paxos|-tc tcTwoProposers|ss random pct irs
tests/golden/limits/growinbox.p|--max-inbox 0 --max-steps 20000|dfs bfs ses ss random pct pb irs portfolio
tests/golden/limits/growseq.p|--max-steps 20000|dfs bfs ses ss random pct pb irs portfolio
"
echo "| model | options | search | --mem (MiB) | how it ended | peak (MiB) | peak / --mem |"
echo "| --- | --- | --- | ---: | --- | ---: | ---: |"
echo "$runs" | while IFS='|' read -r m opts searches; do
  [ -n "$m" ] || continue
  for s in $searches; do
    for mem in $budgets; do
      # shellcheck disable=SC2086
      r=$("$peak" "$P" -S "$s" $opts --mem "${mem}M" --timeout "$secs" --seed 1 -q -o "$tmp/o" "$m" 2>&1)
      kib=$(echo "$r" | sed -n 's/^peak-kib: //p')
      how=$(echo "$r" | sed -n 's/^result: //p' | cut -c1-70)
      echo "$kib $mem" | awk -v m="$m" -v o="$opts" -v s="$s" -v h="$how" '{
        printf "| %s | %s | %s | %d | %s | %.0f | %.2f |\n", m, o, s, $2, h, $1 / 1024, $1 / 1024 / $2 }'
    done
  done
done
