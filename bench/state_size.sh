#!/bin/sh
# state_size.sh: how many bytes a State takes, model by model: dfs over
# every correct test of models/ (the "no-bug" lines of each expected.txt,
# up to MAX_STATES states), with the mean and largest size of the States it
# entered (--stats-json: mean_state_bytes, max_state_bytes) and the state
# cache's bytes per state.  The baseline and the measure of issue 13's
# compact encoding.  Prints a Markdown table.
# Usage: bench/state_size.sh [PCHECK]   (from the source folder)
#   env: MAX_STATES=1000000 MODELS="twophase_n clientserver ..." TIMEOUT=60
#   (a model without expected.txt: each of its tests, dfs stopped at TIMEOUT)
set -u
P=${1:-build/pcheck}
MAX_STATES=${MAX_STATES:-1000000}
export PCHECK_STDLIB=${PCHECK_STDLIB:-$PWD/stdlib}
[ -x "$P" ] || { echo "state_size.sh: build pcheck first, or pass its path" >&2; exit 2; }
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
field() { sed -n "s/^ *\"$1\": *\\([0-9.]*\\),*\$/\\1/p" "$tmp/s.json"; }
echo "| model | test | states | mean State bytes | largest | cache bytes per state |"
echo "| --- | --- | ---: | ---: | ---: | ---: |"
for d in models/*/; do
  m=$(basename "$d")
  case " ${MODELS:-$m} " in *" $m "*) ;; *) continue ;; esac
  if [ -f "$d/expected.txt" ]; then
    awk -F'\t' -v max="$MAX_STATES" '$1 !~ /^#/ && $2 == "no-bug" && $3 + 0 <= max { print $1 }' "$d/expected.txt"
  else
    "$P" --list-tests "models/$m"   # a benchmark model (twophase_n): every test, within TIMEOUT
  fi |
  while read -r t; do
    rm -f "$tmp/s.json"
    "$P" --search dfs --no-reduction -q --timeout "${TIMEOUT:-60}" --stats-json "$tmp/s.json" -o "$tmp/o" -tc "$t" "models/$m" >/dev/null 2>&1
    [ -s "$tmp/s.json" ] || { echo "| $m | $t | failed | | | |"; continue; }
    echo "| $m | $t | $(field states) | $(field mean_state_bytes) | $(field max_state_bytes) | $(field bytes_per_state) |"
  done
done
