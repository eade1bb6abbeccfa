#!/bin/sh
# estimate.sh: estimates of what a search covers (checker/observe/estimate.h; the
# man page's ESTIMATES), as the summary, --stats-json and the progress
# line show them:
# - a complete exhaustive search's estimate is its count, marked exact;
# - a bounded dfs and bfs say how many states there are, and their
#   progress lines show "N of ~E states"; near the end of a run the
#   estimate is near the count (paxos without the reduction: 170,071);
# - ses stopped by --max-delays estimates the next bound's new states, and
#   the estimate is of the right size (within 2x of what that bound adds);
# - sampling searches: Eta's estimate of the distinct executions, "every
#   execution was run" once its tree is exhausted (a model of 2 executions,
#   and ss's delay placements on a small model);
# - no estimate when walks run 10,000 steps (the states beyond are never met).
. "${srcdir:-.}/tests/lib.sh"
px=models/paxos

# 1. Complete: exact.
r=$(run -S dfs -q -tc tcOneProposer --stats-json "$tmp/s.json" -o "$tmp/o" $px 2>&1)
n=$(echo "$r" | field states)
if grep -q "\"estimate\": {\"of\": \"states\", \"value\": $n, .*\"fraction\": 1, \"factor\": 1, \"exact\": true" "$tmp/s.json" &&
   ! echo "$r" | grep -q '^estimate:'; then ok "complete dfs: the estimate is its count ($n), exact; no estimate line"
else bad "complete dfs estimate"; grep estimate "$tmp/s.json"; fi

# 2. Bounded dfs and bfs: an estimate line, at least the states explored.
for s in dfs bfs; do
  r=$(run -S "$s" --no-reduction --timeout 0.5 -tc tcTwoProposers --stats-json "$tmp/b.json" -o "$tmp/o" $px 2>/dev/null)
  n=$(echo "$r" | field states)
  e=$(echo "$r" | sed -n 's/^estimate: ~\([0-9,]*\) reachable states, \([0-9]*\)% explored.*/\1/p' | tr -d ,)
  if [ -n "$e" ] && [ "$e" -ge "$n" ] && grep -q '"estimate": {"of": "states".*"exact": false' "$tmp/b.json"; then
    ok "bounded $s: estimate ~$e states ($n explored)"
  else bad "bounded $s estimate"; echo "$r" | grep -E '^(estimate|states|result)'; fi
done

# 3. Progress lines: "N of ~E states"; the last estimate near the count.
r=$(run -S dfs --no-reduction --progress=0.02 -tc tcOneProposer -o "$tmp/o" $px 2>&1)
n=$(echo "$r" | field states)
last=$(echo "$r" | sed -n 's/^progress: .*, \([0-9]*\) of ~\([0-9,]*\) states.*/\1 \2/p' | tr -d , | tail -n 1)
if [ -n "$last" ] && echo "$last" | awk -v n="$n" '{ exit !($1 >= n / 2 && $2 >= n / 2 && $2 <= 2 * n) }'; then
  ok "progress lines: N of ~E states, last '$last' near $n states"
elif [ -z "$last" ] && [ -n "${PCHECK_WRAPPER:-}" ]; then ok "progress lines: none under a slow wrapper (nothing to check)"
else bad "progress estimate ($last for $n states)"; echo "$r" | grep progress | tail -n 3; fi

# 4. ses: the next delay bound.
r=$(run -S ses -q --max-delays 3 -tc tcTwoProposers --stats-json "$tmp/n.json" -o "$tmp/o" $px 2>&1)
next=$(echo "$r" | sed -n 's/^next: --max-delays 4 would add ~\([0-9,]*\) states.*/\1/p' | tr -d ,)
a=$(run -S ses --max-delays 4 -tc tcTwoProposers -o "$tmp/o" $px 2>&1 | sed -n 's/^ses: delay bound 4: \([0-9]*\) new states.*/\1/p')
if [ -n "$next" ] && [ -n "$a" ] && [ "$((next * 2))" -ge "$a" ] && [ "$next" -le "$((a * 2))" ] &&
   grep -q '"next_bound": {"delays": 4, "new_states": ' "$tmp/n.json"; then
  ok "ses: bound 4 estimated at ~$next new states (it adds $a)"
else bad "ses next bound (~$next, actual $a)"; echo "$r" | grep -E '^(next|estimate|result)'; fi

# 5. Sampling searches.
cat >"$tmp/two.p" <<'P'
machine Main { start state S { entry { if ($) { assert true; } } } }
P
r=$(run -S random --schedules 50 -q -o "$tmp/o" "$tmp/two.p" 2>&1)
if echo "$r" | grep -q '^estimate: every execution was run (2 distinct)$'; then ok "random: both executions of a coin run"
else bad "random on two executions"; echo "$r" | grep estimate; fi
r=$(run -S random --schedules 30 -q -tc tcTwoProposers -o "$tmp/o" $px 2>&1)
if echo "$r" | grep -Eq '^estimate: ~[0-9.e+,]+ distinct executions in all \(Eta.s estimator\), 30 run$'; then
  ok "random: Eta's estimate of the executions"
else bad "random estimate"; echo "$r" | grep estimate; fi
r=$(run -S ss --max-delays 1 -q -tc tcSingleClient -o "$tmp/o" models/clientserver 2>&1)
if echo "$r" | grep -Eq '^estimate: (every execution was run|~[0-9,]+ distinct executions)'; then
  ok "ss: $(echo "$r" | grep '^estimate:')"
else bad "ss estimate"; echo "$r" | grep -E 'estimate|result'; fi

# 6. Walks of 10,000 steps: no estimate.
cat >"$tmp/long.p" <<'P'
machine Main {
  var x: int;
  start state S {
    entry { while (x < 2200000) { if ($) { x = x + 1; } else { x = x + 2; } } }
  }
}
P
r=$(run -S dfs --timeout 0.5 -q -o "$tmp/o" "$tmp/long.p" 2>&1)
if echo "$r" | grep -q '^result: no-bug (bounded: timeout)' && ! echo "$r" | grep -q '^estimate:'; then
  ok "no estimate when walks are cut at 10,000 steps"
else bad "long walks"; echo "$r" | grep -E 'estimate|result'; fi

echo "# passed: $pass failed: $fail"
[ "$fail" -eq 0 ]
