#!/bin/sh
# models_expected.sh: every protocol model of models/ gives the verdict its
# expected.txt records (one line per test case: TEST, no-bug, bug or
# deep-bug, the number of states dfs visits for a correct test, a note).
# - a correct test: the default search (the portfolio) with --no-reduction
#   ends "no-bug (complete)" having visited exactly the recorded number of
#   states, and with the reduction (the default) ends the same in at most
#   as many;
# - a bug variant: the default search finds it (exit 1), its .schedule
#   replays to the same bug, and dfs finds it too;
# - a deep bug (a bug variant of a system too large for dfs to reach it in
#   the time budget): as a bug variant, without the dfs check.
# Any other verdict (skip) is reported and skipped.
# MODELS_MAX_STATES (default 2000000) skips correct tests recorded larger.
. "${srcdir:-.}/tests/lib.sh"
max=${MODELS_MAX_STATES:-2000000}
nvariants=0
for f in models/*/expected.txt; do
  [ -f "$f" ] || continue
  m=${f%/expected.txt}
  tests=$(run --list-tests "$m" 2>&1)
  # every test case of the model is in expected.txt, and every line names one
  for t in $tests; do
    grep -q "^$t	" "$f" || bad "$m: test $t is missing from expected.txt"
  done
  while IFS='	' read -r t verdict states note; do
    case $t in ''|\#*) continue ;; esac
    if ! echo "$tests" | grep -qx "$t"; then bad "$m: expected.txt names $t, which the model does not declare"; continue; fi
    if [ "$verdict" != no-bug ] && [ "$verdict" != bug ] && [ "$verdict" != deep-bug ]; then echo "SKIP: $m -tc $t ($verdict)"; continue; fi
    if [ "$verdict" = no-bug ]; then
      [ "$states" -le "$max" ] 2>/dev/null || { echo "SKIP: $m -tc $t ($states states)"; continue; }
      # The recorded count is the full state space: without the reduction.
      r=$(run -q --no-reduction --mem 2G -tc "$t" -o "$tmp/o" "$m" 2>&1)
      rc=$? got=$(echo "$r" | field states)
      if [ "$rc" -eq 0 ] && [ "$got" = "$states" ] && echo "$r" | grep -q '^result: no-bug (complete)'; then
        ok "$m -tc $t: no bug in $got states"
      else bad "$m -tc $t: expected no bug in $states states, got exit $rc, $got states"; echo "$r" | tail -n 4; fi
      # With it (the default): the same verdict, in no more states.
      r=$(run -q --mem 2G -tc "$t" -o "$tmp/o" "$m" 2>&1)
      rc=$? got=$(echo "$r" | field states)
      if [ "$rc" -eq 0 ] && [ "$got" -le "$states" ] && echo "$r" | grep -q '^result: no-bug (complete)'; then
        ok "$m -tc $t: no bug with the reduction, in $got states"
      else bad "$m -tc $t: with the reduction: exit $rc, $got states (full: $states)"; echo "$r" | tail -n 4; fi
    else
      nvariants=$((nvariants + 1))
      rm -rf "$tmp/b"
      r=$(run -q --mem 2G --timeout 120 -tc "$t" -o "$tmp/b" "$m" 2>&1)
      rc=$?
      bugline=$(echo "$r" | grep '^bug: ')
      if [ "$rc" -eq 1 ] && [ -f "$tmp/b/$t.schedule" ]; then
        rr=$(run --replay "$tmp/b/$t.schedule" "$m" 2>&1)
        if [ $? -eq 1 ] && [ "$(echo "$rr" | grep '^bug: ')" = "$bugline" ]; then
          ok "$m -tc $t: found ($(echo "$r" | grep '^portfolio: .* found the bug' | sed 's/^portfolio: //')), trace replays"
        else bad "$m -tc $t: the trace does not replay to '$bugline'"; echo "$rr" | tail -n 3; fi
      else bad "$m -tc $t: the default search does not find the bug (exit $rc)"; echo "$r" | tail -n 4; fi
      [ "$verdict" = deep-bug ] && continue
      r=$(run -q --search dfs --mem 2G --timeout 120 -tc "$t" -o "$tmp/d" "$m" 2>&1)
      if [ $? -eq 1 ]; then ok "$m -tc $t: dfs finds it too"; else bad "$m -tc $t: dfs does not find the bug"; fi
    fi
  done <"$f"
done
if [ "$nvariants" -ge 25 ]; then ok "$nvariants seeded bug variants in models/"
else bad "only $nvariants seeded bug variants in models/ (at least 25)"; fi
echo "# passed: $pass failed: $fail"
[ "$fail" -eq 0 ]
