#!/bin/sh
# reduction.sh: what partial-order reduction saves on the correct tests of
# models/ (the "no-bug" lines of each expected.txt, up to MAX_STATES states
# unreduced): dfs with and without it, states, transitions and seconds of
# each, the verdicts (which must be equal), the ratio of states, and at
# the end the geometric mean of the ratios (issue 14's target: at least 5).
# Prints a Markdown table.
# Usage: bench/reduction.sh [PCHECK]   (from the source folder)
#   env: MAX_STATES=4000000 MODELS="twophase paxos ..." TIMEOUT=600
set -u
P=${1:-build/pcheck}
MAX_STATES=${MAX_STATES:-4000000}
export PCHECK_STDLIB=${PCHECK_STDLIB:-$PWD/stdlib}
[ -x "$P" ] || { echo "reduction.sh: build pcheck first, or pass its path" >&2; exit 2; }
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
field() { sed -n "s/^ *\"$1\": *\"*\\([^\",]*\\)\"*,*\$/\\1/p" "$2"; }
echo "| model | test | result | states full | states reduced | ratio | s full | s reduced |"
echo "| --- | --- | --- | ---: | ---: | ---: | ---: | ---: |"
for d in models/*/; do
  m=$(basename "$d")
  case " ${MODELS:-$m} " in *" $m "*) ;; *) continue ;; esac
  [ -f "$d/expected.txt" ] || continue
  awk -F'\t' -v max="$MAX_STATES" '$1 !~ /^#/ && $2 == "no-bug" && $3 + 0 <= max { print $1 }' "$d/expected.txt" |
  while read -r t; do
    rm -f "$tmp/f.json" "$tmp/r.json"
    "$P" -S dfs --no-reduction -q --timeout "${TIMEOUT:-600}" --stats-json "$tmp/f.json" -o "$tmp/o" -tc "$t" "models/$m" >/dev/null 2>&1
    "$P" -S dfs -q --timeout "${TIMEOUT:-600}" --stats-json "$tmp/r.json" -o "$tmp/o" -tc "$t" "models/$m" >/dev/null 2>&1
    if [ ! -s "$tmp/f.json" ] || [ ! -s "$tmp/r.json" ]; then echo "| $m | $t | failed | | | | | |"; continue; fi
    rf=$(field result "$tmp/f.json") rr=$(field result "$tmp/r.json")
    sf=$(field states "$tmp/f.json") sr=$(field states "$tmp/r.json")
    res=$rf; [ "$rf" = "$rr" ] || res="DIFFERENT: $rf / $rr"
    echo "| $m | $t | $res | $sf | $sr | $(awk -v a="$sf" -v b="$sr" 'BEGIN { printf "%.1f", a / b }') |" \
         "$(field time_seconds "$tmp/f.json") | $(field time_seconds "$tmp/r.json") |"
  done
done | tee "$tmp/table"
awk -F'|' '$7 + 0 > 0 { s += log($7); n++ } END { if (n) printf "\ngeometric mean of the state ratios over %d tests: %.2f\n", n, exp(s / n) }' "$tmp/table"
