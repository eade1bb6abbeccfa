#!/bin/sh
# baselines.sh: the baseline searches pb, irs and pct (models in tests/baselines/).
# - pb finds a bug that needs one preemption at bound 1, after reporting
#   bound 0 complete, and its trace replays to the same bug;
# - pb on correct models ends complete with as many distinct states as dfs;
# - a bug that needs two preemptions is out of reach of --max-delays 1
#   (bounded, exit 0) and found without it;
# - irs and pct find a shallow race within 1000 executions, the same seed
#   gives the same run, another seed is accepted; irs's depth bound holds
#   back a bug deeper than its first bounds;
# - pct with --pct-depth 1 never changes priorities, so a bug that needs a
#   preemption is out of its reach, while depth 3 finds it;
# - bad values of the new options are usage errors (exit 2).
. "${srcdir:-.}/tests/lib.sh"
d=tests/baselines

# Sections 1 to 3 count preemptions in the full graph (--no-reduction;
# with the reduction they count within persistent sets: doc/reduction.md).
# 1. pb: one preemption.  Bound 0 is reported complete first, then the bug
# is found at bound 1; the trace replays to the same bug.
f=$d/preempt1.p
r=$(run --search pb --no-reduction --mem 256M -o "$tmp/pb1" "$f" 2>/dev/null); rc=$?
first=$(echo "$r" | head -n 1)
bugline=$(echo "$r" | grep '^bug: ')
if [ "$rc" -eq 1 ] && echo "$first" | grep -q '^pb: complete up to 0 preemptions: [0-9]* states, [0-9.]* s$' &&
   ! echo "$r" | grep -q '^pb: complete up to 1 preemptions' && [ "$(echo "$r" | field delays)" = 1 ] &&
   echo "$bugline" | grep -q 'eB arrived between eA1 and eA2'; then
  ok "pb finds the one-preemption bug at bound 1"
else bad "pb on $f (exit $rc)"; echo "$r"; fi
for tr in "$tmp/pb1/Main.schedule" "$tmp/pb1/Main.json"; do
  rr=$(run --replay "$tr" "$f" 2>&1); rc=$?
  if [ "$rc" -eq 1 ] && [ -n "$bugline" ] && [ "$(echo "$rr" | grep '^bug: ')" = "$bugline" ]; then
    ok "pb trace $(basename "$tr") replays"
  else bad "replay of $tr (exit $rc)"; echo "$rr" | tail -n 3; fi
done

# 2. pb on correct models: complete, with the states of dfs.
for spec in "$d/correct.p Main" "tests/golden/search/two_workers.p Main" "models/clientserver tcSingleClient"; do
  in=${spec% *}; t=${spec##* }
  a=$(run --search dfs --no-reduction --mem 256M -q -tc "$t" "$in" 2>&1)
  b=$(run --search pb --no-reduction --mem 256M -q -tc "$t" "$in" 2>&1); rc=$?
  as=$(echo "$a" | field states) bs=$(echo "$b" | field states)
  if [ "$rc" -eq 0 ] && echo "$b" | grep -q '^result: no-bug (complete)$' && [ -n "$as" ] && [ "$as" = "$bs" ]; then
    ok "pb complete, $bs states as dfs: $in -tc $t"
  else bad "pb ($bs states, exit $rc) vs dfs ($as) on $in -tc $t"; echo "$b" | tail -n 3; fi
done
# ... and the model needs preemptions: bound 0 alone sees fewer states.
r=$(run --search pb --no-reduction --mem 256M -q --max-delays 0 "$d/correct.p" 2>&1); rc=$?
if [ "$rc" -eq 0 ] && echo "$r" | grep -q '^result: no-bug (bounded: complete up to 0 preemptions)$' &&
   [ "$(echo "$r" | field states)" -lt "$(echo "$b" | field states)" ]; then ok "pb --max-delays 0: bounded, fewer states"
else bad "pb --max-delays 0 (exit $rc)"; echo "$r" | tail -n 3; fi

# 3. pb: two preemptions.  Not found with --max-delays 1, found without.
f=$d/preempt2.p
r=$(run --search pb --no-reduction --mem 256M -q --max-delays 1 -o "$tmp/pb2" "$f" 2>&1); rc=$?
if [ "$rc" -eq 0 ] && echo "$r" | grep -q '^result: no-bug (bounded: complete up to 1 preemptions)$' &&
   [ "$(echo "$r" | field delays)" = 1 ]; then ok "pb --max-delays 1 misses the two-preemption bug"
else bad "pb --max-delays 1 on $f (exit $rc)"; echo "$r" | tail -n 3; fi
r=$(run --search pb --no-reduction --mem 256M -o "$tmp/pb2" "$f" 2>/dev/null); rc=$?
if [ "$rc" -eq 1 ] && echo "$r" | grep -q 'interleaved' && [ "$(echo "$r" | field delays)" = 2 ] &&
   echo "$r" | grep -q '^pb: complete up to 1 preemptions'; then ok "pb finds the two-preemption bug at bound 2"
else bad "pb on $f (exit $rc)"; echo "$r" | tail -n 3; fi
rr=$(run --replay "$tmp/pb2/Main.schedule" "$f" 2>&1); rc=$?
if [ "$rc" -eq 1 ] && echo "$rr" | grep -q 'interleaved'; then ok "pb two-preemption trace replays"
else bad "replay of the two-preemption trace (exit $rc)"; fi

# 4. irs and pct: a shallow race, deterministic per seed.
f=$d/race.p
for alg in irs pct; do
  a=$(run --search "$alg" --seed 5 --schedules 1000 -q -o "$tmp/$alg" "$f" 2>&1); rc=$?
  b=$(run --search "$alg" --seed 5 --schedules 1000 -q -o "$tmp/$alg" "$f" 2>&1)
  n=$(echo "$a" | field executions)
  if [ "$rc" -eq 1 ] && echo "$a" | grep -q 'eB arrived before eA' && [ -n "$n" ] && [ "$n" -ge 1 ] && [ "$n" -le 1000 ]; then
    ok "$alg finds the race after $n executions"
  else bad "$alg on $f (exit $rc)"; echo "$a" | tail -n 3; fi
  # (the time may differ: a loaded machine can take 0.01 s where the other run took 0.00)
  if [ "$(echo "$a" | grep -v '^states:' | sed 's/time: [0-9.]*//')" = "$(echo "$b" | grep -v '^states:' | sed 's/time: [0-9.]*//')" ] &&
     [ "$n" = "$(echo "$b" | field executions)" ] &&
     [ "$(echo "$a" | field transitions)" = "$(echo "$b" | field transitions)" ]; then ok "$alg: same seed, same run"
  else bad "$alg: two runs with --seed 5 differ"; echo "$a"; echo "$b"; fi
  rr=$(run --replay "$tmp/$alg/Main.schedule" "$f" 2>&1); rc=$?
  if [ "$rc" -eq 1 ] && echo "$rr" | grep -q 'eB arrived before eA'; then ok "$alg trace replays"
  else bad "replay of the $alg trace (exit $rc)"; fi
  r=$(run --search "$alg" --seed 77 --schedules 1000 -q -o "$tmp/$alg" "$f" 2>&1); rc=$?
  if [ "$rc" -eq 0 ] || [ "$rc" -eq 1 ]; then ok "$alg --seed 77 accepted (exit $rc)"
  else bad "$alg --seed 77 (exit $rc)"; echo "$r" | tail -n 3; fi
done
# No bug within the budget: bounded, with the count and the parameters.
r=$(run --search pct --schedules 50 -q "$d/correct.p" 2>&1); rc=$?
if [ "$rc" -eq 0 ] && echo "$r" | grep -q '^result: no-bug (bounded: 50 executions (pct, depth 3, 1000 steps))$'; then
  ok "pct: bounded by --schedules"
else bad "pct --schedules 50 (exit $rc)"; echo "$r" | tail -n 3; fi
r=$(run --search irs --schedules 50 -q "$d/correct.p" 2>&1); rc=$?
# 1 + 3 + 9 + 27 = 40 executions in iterations 0-3, then 10 of iteration 4 (depth bound 50).
if [ "$rc" -eq 0 ] && echo "$r" | grep -q '^result: no-bug (bounded: 50 executions (irs, iteration 4, depth bound 50))$'; then
  ok "irs: bounded by --schedules"
else bad "irs --schedules 50 (exit $rc)"; echo "$r" | tail -n 3; fi
# irs's depth bound: the race needs 6 steps, so with --irs-step 1 no
# execution of iterations 0-4 (bounds 1-5, 1+3+9+27+81 = 121 executions)
# can reach it.
r=$(run --search irs --irs-step 1 --seed 3 --schedules 2000 -q -o "$tmp/irs1" "$f" 2>&1); rc=$?
n=$(echo "$r" | field executions)
if [ "$rc" -eq 1 ] && [ -n "$n" ] && [ "$n" -gt 121 ] && [ "$(echo "$r" | field max-depth)" -ge 6 ]; then
  ok "irs --irs-step 1: the bug only after the bound reaches it ($n executions)"
else bad "irs --irs-step 1 (exit $rc, $n executions)"; echo "$r" | tail -n 3; fi

# 5. pct --pct-depth 1: fixed priorities; the highest-priority enabled
# machine always runs, so the one-preemption bug is unreachable.  Depth 3
# finds it (the change points among the first 20 steps of a 13-step model).
f=$d/preempt1.p
r=$(run --search pct --pct-depth 1 --pct-steps 20 --seed 1 --schedules 200 -q -o "$tmp/pct1" "$f" 2>&1); rc=$?
if [ "$rc" -eq 0 ] && echo "$r" | grep -q '^result: no-bug (bounded: 200 executions (pct, depth 1, 20 steps))$'; then
  ok "pct --pct-depth 1 never preempts: no bug in 200 executions"
else bad "pct --pct-depth 1 (exit $rc)"; echo "$r" | tail -n 3; fi
r=$(run --search pct --pct-depth 3 --pct-steps 20 --seed 1 --schedules 200 -q -o "$tmp/pct3" "$f" 2>&1); rc=$?
if [ "$rc" -eq 1 ] && echo "$r" | grep -q 'eB arrived between eA1 and eA2'; then
  ok "pct --pct-depth 3 finds it after $(echo "$r" | field executions) executions"
else bad "pct --pct-depth 3 (exit $rc)"; echo "$r" | tail -n 3; fi

# 6. --timeout stops pb cleanly.
cat >"$tmp/big.p" <<'P'
machine Main {
  var x: int;
  var y: int;
  start state S {
    entry { while (x + y < 2100) { if ($) { x = x + 1; } else { y = y + 1; } } }
  }
}
P
r=$(run --search pb --mem 256M -q --timeout 0.5 "$tmp/big.p" 2>&1); rc=$?
if [ "$rc" -eq 0 ] && echo "$r" | grep -q '^result: no-bug (bounded: timeout during bound 0)$'; then ok "pb --timeout"
else bad "pb --timeout (exit $rc)"; echo "$r" | tail -n 3; fi

# 7. Bad values of the new options.
for args in "--irs-step 0" "--irs-step x" "--irs-step -3" "--pct-depth 0" "--pct-depth 1001" "--pct-depth abc" \
            "--pct-steps 0" "--pct-steps 1.5" "--pct-steps"; do
  # shellcheck disable=SC2086
  r=$(run $args "$d/race.p" 2>&1); rc=$?
  opt=${args%% *}
  if [ "$rc" -eq 2 ] && echo "$r" | grep -q -- "error: .*$opt"; then ok "$args: usage error"
  else bad "$args (exit $rc)"; echo "$r" | tail -n 2; fi
done

echo "# passed: $pass failed: $fail"
[ "$fail" -eq 0 ]
