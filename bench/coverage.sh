#!/bin/sh
# coverage.sh: what collecting coverage costs (issue 16).  For each model
# below, dfs without the reduction (every interleaving) and random (20,000
# executions, seed 1) are timed with coverage (the default) against
# --no-coverage by farm-bench, pair by pair; prints a Markdown table of
# the median ratios (cpu seconds) and the machine.
# Usage: bench/coverage.sh [PCHECK]   (from the source folder)
#   env: RUNS=7
set -u
P=${1:-build/pcheck}
RUNS=${RUNS:-7}
[ -x "$P" ] || { echo "coverage.sh: build pcheck first, or pass its path" >&2; exit 2; }
command -v farm-bench >/dev/null || { echo "coverage.sh: needs farm-bench" >&2; exit 2; }
export PCHECK_STDLIB=${PCHECK_STDLIB:-$PWD/stdlib}
lscpu | sed -n 's/^Model name: *//p; s/^CPU family: *\(.*\)/family \1/p; s/^Model: *\(.*\)/model \1/p' | tr '\n' ' '
echo
echo "| model | test | search | cpu s with | ratio with / without (median, min-max) |"
echo "| --- | --- | --- | ---: | --- |"
for mt in "paxos tcThriftyRetry" "raft tcThreeServers" "twophase_n tcTwoPhase___N_4" "german tcTwoCaches" "clientserver tcMultipleClients"; do
  set -- $mt
  for s in "dfs --no-reduction" "random --seed 1 --schedules 20000"; do
    # shellcheck disable=SC2086
    r=$(farm-bench -n "$RUNS" --timeout 900 --vs "$P -q -o /tmp/covbench --no-coverage -S $s -tc $2 models/$1" -- \
        $P -q -o /tmp/covbench -S $s -tc "$2" "models/$1" 2>&1)
    a=$(echo "$r" | awk '$1 == "A" && $2 == "cpu" { print $5 }')
    q=$(echo "$r" | awk '$1 == "A/B" && $2 == "cpu" { printf "%.3f (%.3f-%.3f)", $4, $3, $5 }')
    echo "| $1 | $2 | ${s%% *} | $a | $q |"
  done
done
rm -rf /tmp/covbench
