#!/bin/sh
# reduction.sh: partial-order reduction keeps every verdict
# (doc/reduction.md).  For each exhaustive search (dfs, bfs, ses with its
# default explorer, pb), on every
# golden program that runs a search and on every test of models/ (correct
# tests up to REDUCTION_MAX_STATES states, default 300000, and the bug
# variants that are not "deep"), the search with reduction and with
# --no-reduction must end with the same result line and, for a bug, the
# same bug kind and location, or, where dfs's first bug differs, the same
# set of places a bug happens (--keep-going finds them all: compared for
# every bug case); a bug's trace found with reduction must replay to the
# same bug without it; a complete reduced search must not visit more states
# than the full one.
. "${srcdir:-.}/tests/lib.sh"
max=${REDUCTION_MAX_STATES:-300000}
budget=${REDUCTION_TIMEOUT:-60}   # seconds a search may take; past it the case is skipped
searches=${REDUCTION_SEARCHES:-dfs bfs ses pb}

# "bug: KIND: FILE:LINE:COL" of a run's output, whose bug line reads
# "bug: KIND at FILE:LINE:COL: MESSAGE" (the message may name values that
# differ between two executions reaching the same bug).
where() { grep '^bug: ' | sed 's/^\(bug: [^:]*\) at \([^:]*:[0-9]*:[0-9]*\):.*/\1: \2/'; }
# The places --keep-going lists, sorted, without their counts, then the
# result line's "bounded" if the search was not complete.
places() {
  out=$(cat)
  echo "$out" | sed -n '/^bug places:/,/^result:/p' | grep '^  ' | sed 's/ (found [0-9]* times*)$//' | LC_ALL=C sort | tr '\n' ';'
  echo "$out" | grep '^result: ' | grep -o 'bounded'
}

# The place of a run's bug as --keep-going lists places: "KIND: FILE:L:C",
# or KIND alone for a bug without a location.
site() {
  grep '^bug: ' | sed -e 's/^bug: \([^:]*\) at \([^:]*:[0-9]*:[0-9]*\):.*/\1: \2/' -e 't' -e 's/^bug: \([^:]*\):.*/\1/'
}
# in_places SITE PLACES: SITE is one of PLACES (";"-separated).
in_places() { echo "$2" | tr ';' '\n' | grep -qF "$1"; }

# compare NAME ARGS...: one case, the model and its options in ARGS.
compare() {
  name=$1; shift
  share_mine || return 0
  known=   # dfs's bug places (the same with and without reduction), once found
  for s in $searches; do
    rm -rf "$tmp/r" "$tmp/f"
    a=$(run -S "$s" --mem 1G --timeout "$budget" -o "$tmp/r" "$@" 2>&1); ca=$?
    b=$(run -S "$s" --no-reduction --mem 1G --timeout "$budget" -o "$tmp/f" "$@" 2>&1); cb=$?
    ra=$(echo "$a" | grep '^result: '); rb=$(echo "$b" | grep '^result: ')
    case "$ra$rb" in *bounded*) echo "SKIP: $name ($s): not complete in the time budget"; continue ;; esac
    same=$([ "$(echo "$a" | where)" = "$(echo "$b" | where)" ] && echo 1) pl=
    if [ "$ca" -eq 1 ] && [ "$cb" -eq 1 ] && [ "$s" = dfs ]; then
      # Every place a bug happens, with and without: the same places.
      pa=$(run -S dfs --keep-going --mem 1G --timeout "$budget" -o "$tmp/k" "$@" 2>&1 | places)
      pb=$(run -S dfs --keep-going --no-reduction --mem 1G --timeout "$budget" -o "$tmp/k" "$@" 2>&1 | places)
      case "$pa$pb" in
        *bounded*) echo "SKIP: $name ($s): bug places not complete in the time budget" ;;
        *)
          if [ "$pa" != "$pb" ]; then bad "$name ($s): bug places with reduction: $pa; without: $pb"; continue; fi
          # A different first bug is then one of the same places.
          same=1 known=$pa; pl=", same bug places ($(echo "$pa" | tr ';' '\n' | grep -c .))" ;;
      esac
    elif [ "$ca" -eq 1 ] && [ "$cb" -eq 1 ] && [ -z "$same" ] && [ -n "$known" ] &&
         in_places "$(echo "$a" | site)" "$known" && in_places "$(echo "$b" | site)" "$known"; then
      # bfs stops at its first bug: a different one, but both among dfs's places.
      same=1; pl=", both first bugs among dfs's bug places"
    fi
    if [ "$ca" != "$cb" ] || [ "$ra" != "$rb" ] || [ -z "$same" ]; then
      bad "$name ($s): with reduction exit $ca '$ra' $(echo "$a" | where); without exit $cb '$rb' $(echo "$b" | where)"
      continue
    fi
    if [ "$ca" -eq 1 ]; then
      sched=$(ls "$tmp/r"/*.schedule 2>/dev/null | head -n 1)
      if [ -z "$sched" ]; then bad "$name ($s): no trace written"; continue; fi
      rr=$(run --replay "$sched" --no-reduction "$@" 2>&1)
      if [ "$(echo "$rr" | where)" != "$(echo "$a" | where)" ]; then
        bad "$name ($s): the reduced trace does not replay to $(echo "$a" | where)"; continue
      fi
      ok "$name ($s): same bug$pl, $(echo "$a" | field states) states against $(echo "$b" | field states), trace replays"
    else
      na=$(echo "$a" | field states) nb=$(echo "$b" | field states)
      if [ "$ca" -eq 0 ] && [ "$na" -gt "$nb" ]; then bad "$name ($s): $na states with reduction, $nb without"; continue; fi
      ok "$name ($s): same result ($ra), $na states against $nb"
    fi
  done
}

# Golden programs that run a search with one test case to check (one in
# GOLDEN_EVERY of them, default every one: CI's sanitizer run takes fewer).
gi=0
for p in $(find tests/golden/search tests/golden/vm -name '*.p' | LC_ALL=C sort); do
  gi=$((gi + 1))
  [ $(((gi - 1) % ${GOLDEN_EVERY:-1})) -eq 0 ] || continue
  args=$(sed -n '1s|^// pcheck-args: *||p' "$p")
  case " $args " in ''|*" --check-only "*|*" --replay "*|*" --list-tests "*|*" --dump-bytecode "*) continue ;; esac
  n=$(run --list-tests "$p" 2>/dev/null | wc -l)
  [ "$n" -eq 1 ] || continue
  compare "$p" "$p"
done

# The models' tests.
for f in models/*/expected.txt; do
  m=${f%/expected.txt}
  while IFS='	' read -r t verdict states note; do
    case $t in ''|\#*) continue ;; esac
    case $verdict in
      no-bug) [ "$states" -le "$max" ] 2>/dev/null || continue ;;
      bug) ;;
      *) continue ;;
    esac
    compare "$m -tc $t" -tc "$t" "$m"
  done <"$f"
done
echo "# passed: $pass failed: $fail"
[ "$fail" -eq 0 ]
