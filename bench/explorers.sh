#!/bin/sh
# explorers.sh: what running an explorer costs.  For each model, states per
# second of dfs (no explorer), of ses with the native twin of rr/rtc/prr, and
# of ses with the same explorer run as bytecode from stdlib/ (FILE.p:NAME),
# on the same state space (ses visits exactly the states dfs visits).
# Usage: bench/explorers.sh [PCHECK]   (from the source folder)
set -u
P=${1:-build/pcheck}
export PCHECK_STDLIB=${PCHECK_STDLIB:-$PWD/stdlib}
rate() { sed -n 's/.*states: \([0-9]*\) .*time: \([0-9.]*\).*/\1 \2/p' | tail -n 1 |
         awk '{ printf "%d states, %.2f s, %.0f states/s", $1, $2, ($2 > 0 ? $1 / $2 : 0) }'; }
for spec in "models/clientserver tcMultipleClients" "models/twophase_n tcTwoPhase___N_4"; do
  in=${spec% *} t=${spec#* }
  echo "== $in -tc $t"
  echo "dfs:                $("$P" --search dfs -q -o /tmp/pcheck-bench -tc "$t" "$in" | rate)"
  for e in rr rtc prr; do
    echo "ses $e native:      $("$P" --search ses --explorer $e -q -o /tmp/pcheck-bench -tc "$t" "$in" | rate)"
    echo "ses $e as bytecode: $("$P" --search ses --explorer stdlib/$e.p:$e -q -o /tmp/pcheck-bench -tc "$t" "$in" | rate)"
  done
done
