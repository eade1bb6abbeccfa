#!/bin/sh
# liveness.sh: what looking for fair hot cycles costs dfs (issue 35): for
# every test of models/ whose specs have hot states (the "no-bug" and
# "bug" lines of each expected.txt; "deep-bug" and "skip" ones are not
# run), dfs as by default (hot cycles on the fly, the reduction keeping
# the steps specs with hot states observe visible) against dfs
# --no-liveness (safety only), each the best of 3 runs: states, seconds,
# and the ratios of both.  The target: at most 2 times the seconds.
# A test whose specs have no hot state (its --stats-json has no
# "hot_cycle_specs") is left out.  Prints a Markdown table, then the
# largest and the geometric mean of the time ratios over the tests that
# take at least 0.05 s without liveness (below that the ratio is noise).
# SEARCH=ses measures ses instead, whose hot-cycle search is one of its
# own, paced by ses (doc/liveness.md, 3.3).
# Usage: bench/liveness.sh [PCHECK]   (from the source folder)
#   env: MODELS="twophase paxos ..." TIMEOUT=120 RUNS=3 SEARCH=dfs
set -u
P=${1:-build/pcheck}
RUNS=${RUNS:-3}
export PCHECK_STDLIB=${PCHECK_STDLIB:-$PWD/stdlib}
[ -x "$P" ] || { echo "liveness.sh: build pcheck first, or pass its path" >&2; exit 2; }
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
field() { sed -n "s/^ *\"$1\": *\"*\\([^\",]*\\)\"*,*\$/\\1/p" "$2"; }
# best MODEL TEST ARGS...: the run with the fewest seconds of RUNS, its
# JSON left in $tmp/best.json (none: the runs failed).
best() {
  m=$1 t=$2
  shift 2
  rm -f "$tmp/best.json"
  i=0
  while [ "$i" -lt "$RUNS" ]; do
    rm -f "$tmp/r.json"
    "$P" -S "${SEARCH:-dfs}" -q --timeout "${TIMEOUT:-120}" --trace-format schedule --stats-json "$tmp/r.json" -o "$tmp/o" \
      -tc "$t" "$@" "models/$m" >/dev/null 2>&1
    if [ -s "$tmp/r.json" ]; then
      if [ ! -f "$tmp/best.json" ] ||
         awk -v a="$(field time_seconds "$tmp/r.json")" -v b="$(field time_seconds "$tmp/best.json")" 'BEGIN { exit !(a < b) }'; then
        cp "$tmp/r.json" "$tmp/best.json"
      fi
    fi
    i=$((i + 1))
  done
}
echo "machine: $(lscpu 2>/dev/null | sed -n 's/^Model name: *//p') ($(nproc) CPUs); --search ${SEARCH:-dfs}, best of $RUNS runs"
echo
echo "| model | test | result | states | states --no-liveness | ratio | s | s --no-liveness | ratio |"
echo "| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |"
for d in models/*/; do
  m=$(basename "$d")
  case " ${MODELS:-$m} " in *" $m "*) ;; *) continue ;; esac
  [ -f "$d/expected.txt" ] || continue
  awk -F'\t' '$1 !~ /^#/ && ($2 == "no-bug" || $2 == "bug") { print $1 }' "$d/expected.txt" |
  while read -r t; do
    best "$m" "$t"
    [ -f "$tmp/best.json" ] || { echo "| $m | $t | failed | | | | | | |"; continue; }
    grep -q '"hot_cycle_specs"' "$tmp/best.json" || continue   # no spec with hot states
    mv "$tmp/best.json" "$tmp/live.json"
    best "$m" "$t" --no-liveness
    [ -f "$tmp/best.json" ] || { echo "| $m | $t | failed (--no-liveness) | | | | | | |"; continue; }
    rl=$(field result "$tmp/live.json") rs=$(field result "$tmp/best.json")
    res=$rl; [ "$rl" = "$rs" ] || res="$rl / $rs"
    sl=$(field states "$tmp/live.json") ss=$(field states "$tmp/best.json")
    tl=$(field time_seconds "$tmp/live.json") ts=$(field time_seconds "$tmp/best.json")
    awk -v m="$m" -v t="$t" -v r="$res" -v sl="$sl" -v ss="$ss" -v tl="$tl" -v ts="$ts" 'BEGIN {
      d = ts < 0.001 ? 0.001 : ts; n = tl < 0.001 ? 0.001 : tl
      printf "| %s | %s | %s | %d | %d | %.2f | %.3f | %.3f | %.2f |\n", m, t, r, sl, ss, sl / (ss ? ss : 1), tl, ts, n / d }'
  done
done | tee "$tmp/table"
awk -F'|' '$9 + 0 >= 0.05 { r = $10 + 0; s += log(r); n++; if (r > max) max = r }
  END { if (n) printf "\nover %d tests of at least 0.05 s: time ratio at most %.2f, geometric mean %.2f\n", n, max, exp(s / n) }' "$tmp/table"
