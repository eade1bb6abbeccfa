#!/bin/sh
# liveness.sh: liveness as P means it (doc/liveness.md), on the models of
# tests/liveness (each says in its header what is expected and why).
# 1. Hot cycles: dfs (on the fly, with the reduction), dfs -j 2
#    --no-reduction (a search of the hot subgraph from each state where
#    the spec turns hot) and ses give each model the verdict of the table
#    below, with fairness (the default) and with --unfair; every lasso
#    found replays, from .schedule and from .json, to the same bug, whose
#    message names the spec, its hot state, where that is declared, and the
#    fairness assumed.
# 2. Where strong fairness decides which cycle is fair, the cycle found is
#    the fair one, and it takes both outcomes of its `$$` choices.
# 3. --replay refuses an unfair lasso unless the trace (or the command
#    line) says --unfair, naming the starved machine or the `$$`.
# 4. The memory of the hot-cycle search is bounded: past it the search
#    ends "bounded" with the reason.
# 4b. Nothing waits for the hot-cycle search: a safety bug inside or beside
#    a large hot region is found after as many states as with
#    --no-liveness (dfs on the fly; ses and dfs on threads pacing their
#    search of its own); and the reduction keeps fair hot cycles (found,
#    transitions pruned).
# 4c. --no-liveness checks safety only: no hot cycle, no temperature, but a
#    spec hot at quiescence is still a bug.
# 5. Temperature: random, pct, irs and ss report a spec hot for more steps
#    than --liveness-temperature-threshold (default --max-steps / 2), the
#    trace replays; not under a huge threshold, not when the spec passes
#    through a cold state in time, not in exhaustive searches.
. "${srcdir:-.}/tests/lib.sh"
d=tests/liveness
cycle='^bug: liveness (hot spec forever on a cycle)'

# check_lasso NAME MODEL DIR: both trace files of DIR replay to the bug line of $out.
check_lasso() {
  bugline=$(echo "$out" | grep '^bug: ')
  for tr in "$3/Main.schedule" "$3/Main.json"; do
    r=$(run --replay "$tr" "$2" 2>&1); rc=$?
    if [ "$rc" -eq 1 ] && [ "$(echo "$r" | grep '^bug: ')" = "$bugline" ]; then ok "$1: $(basename "$tr") replays"
    else bad "$1: $tr does not replay to '$bugline' (exit $rc)"; echo "$r" | tail -n 3; fi
  done
}

# 1. The verdicts: MODEL, with fairness, with --unfair.
while read -r m fair unfair; do
  for s in dfs "dfs -j 2 --no-reduction" ses; do
    for mode in fair unfair; do
      want=$fair flag=
      [ "$mode" = unfair ] && want=$unfair flag=--unfair
      rm -rf "$tmp/o"
      # shellcheck disable=SC2086
      out=$(run -q --search $s $flag -o "$tmp/o" "$d/$m" 2>&1); rc=$?
      name="$s $flag $m"
      if [ "$want" = bug ]; then
        if [ "$rc" -eq 1 ] && echo "$out" | grep -q "$cycle"; then ok "$name: hot cycle found"; check_lasso "$name" "$d/$m" "$tmp/o"
        else bad "$name: expected a hot cycle (exit $rc)"; echo "$out" | tail -n 3; fi
        if [ "$mode" = unfair ] && ! echo "$out" | grep -q "(hot state '[A-Za-z]*' at $m:[0-9]*; fairness not required: --unfair)\$"; then bad "$name: the message does not say --unfair"; fi
        if [ "$mode" = fair ] && ! echo "$out" | grep -q "(hot state '[A-Za-z]*' at $m:[0-9]*; fair: machines weakly, choices strongly)\$"; then bad "$name: the message does not say the fairness"; fi
      else
        if [ "$rc" -eq 0 ] && echo "$out" | grep -q '^result: no-bug (complete)$'; then ok "$name: no hot cycle"
        else bad "$name: expected no bug, complete (exit $rc)"; echo "$out" | tail -n 3; fi
      fi
    done
  done
done <<'T'
fair_spin.p         bug   bug
starved.p           none  bug
fair_false.p        none  bug
unfair_false.p      none  bug
choose_timer.p      none  bug
choice_keys.p       none  bug
disabled.p          bug   bug
sf_escape.p         bug   bug
sf_split.p          bug   bug
sf_split_fair.p     none  bug
sf_both.p           bug   bug
two_specs.p         bug   bug
reduced_fair.p      bug   bug
reduced_unfair.p    none  bug
warm_cycle.p        bug   bug
warm_only.p         none  none
cool_in_step.p      none  none
T
out=$(run -q --search dfs -o "$tmp/o" "$d/fair_spin.p" 2>&1)
if echo "$out" | grep -q "^bug: liveness (hot spec forever on a cycle): spec 'Finishes' can be hot forever: a fair execution can cycle through 2 steps without entering a cold state (hot state 'Busy' at fair_spin.p:7; fair: machines weakly, choices strongly)\$"; then
  ok "fair_spin.p: the message names the spec, its hot state and where it is declared, and the fairness"
else bad "fair_spin.p: the message"; echo "$out" | head -n 1; fi
for s in dfs ses; do
  out=$(run -q --search "$s" -o "$tmp/o" "$d/two_specs.p" 2>&1)
  if echo "$out" | grep -q "^bug: liveness (hot spec forever on a cycle): spec 'Stuck' "; then ok "$s two_specs.p: the bug names the spec that stays hot"
  else bad "$s two_specs.p: wrong spec"; echo "$out" | head -n 2; fi
done

# 2. The fair cycle is the one reported.  cycle_events FILE: the JSON
# events of the steps after cycle_start.
cycle_events() {
  c=$(sed -n 's/^  "cycle_start": \([0-9]*\),$/\1/p' "$1")
  sed -n 's/^ *{"step": \([0-9]*\), \(.*\)/\1 \2/p' "$1" | awk -v c="$c" '$1 > c'
}
for s in dfs ses; do
  rm -rf "$tmp/o"; run -q --search "$s" -o "$tmp/o" "$d/sf_escape.p" >/dev/null 2>&1
  ev=$(cycle_events "$tmp/o/Main.json")
  if [ -n "$ev" ] && ! echo "$ev" | grep -v '"state": "Spin"' | grep -q '"state"' && echo "$ev" | grep -q eSpin; then
    ok "$s sf_escape.p: the cycle spins in state Spin (Loop's cycle is unfair)"
  else bad "$s sf_escape.p: the cycle is not Spin's"; echo "$ev"; fi
  rm -rf "$tmp/o"; run -q --search "$s" -o "$tmp/o" "$d/sf_split.p" >/dev/null 2>&1
  ev=$(cycle_events "$tmp/o/Main.json")
  if echo "$ev" | grep -q '"event": "eSpin"' && ! echo "$ev" | grep -q '"event": "eTick"'; then
    ok "$s sf_split.p: the cycle stays in the spin loop"
  else bad "$s sf_split.p: the cycle leaves the spin loop"; echo "$ev"; fi
  rm -rf "$tmp/o"; run -q --search "$s" -o "$tmp/o" "$d/sf_both.p" >/dev/null 2>&1
  ev=$(cycle_events "$tmp/o/Main.json")
  if echo "$ev" | grep -q '"kind": "choice".*"value": "true"' && echo "$ev" | grep -q '"kind": "choice".*"value": "false"'; then
    ok "$s sf_both.p: the cycle takes both outcomes of \$\$"
  else bad "$s sf_both.p: the cycle does not take both outcomes"; echo "$ev"; fi
done

# 3. Unfair lassos are refused unless the trace says --unfair.
for m in starved.p:"machine 'Helper(2)' can run in every state of the cycle but never runs on it" \
         fair_false.p:'the `$$` choice of .Main(1). .* never takes true there' \
         choose_timer.p:'the data choice (`$` or `choose`) of .Timer(2). at cycle step [0-9]* is made in a state the cycle passes, but the cycle never takes its option 0 there'; do
  f=${m%%:*} why=${m#*:}
  rm -rf "$tmp/u"; run -q --search dfs --unfair -o "$tmp/u" "$d/$f" >/dev/null 2>&1
  grep -v '^unfair: ' "$tmp/u/Main.schedule" >"$tmp/u/strip.schedule"
  grep -v '"unfair": true' "$tmp/u/Main.json" >"$tmp/u/strip.json"
  for tr in strip.schedule strip.json; do
    r=$(run --replay "$tmp/u/$tr" "$d/$f" 2>&1); rc=$?
    if [ "$rc" -eq 2 ] && echo "$r" | grep -q "cycle is not fair" && echo "$r" | grep -q "$why"; then ok "$f: unfair lasso refused ($tr)"
    else bad "$f: unfair lasso $tr (exit $rc)"; echo "$r" | tail -n 2; fi
  done
  r=$(run --unfair --replay "$tmp/u/strip.schedule" "$d/$f" 2>&1); rc=$?
  if [ "$rc" -eq 1 ] && echo "$r" | grep -q "$cycle"; then ok "$f: replay --unfair accepts it"
  else bad "$f: replay --unfair (exit $rc)"; echo "$r" | tail -n 2; fi
done

# 4. The hot-cycle search within its memory.
out=$(run -q --search dfs --frontier-mem 4M -o "$tmp/o" "$d/wide.p" 2>&1); rc=$?
if [ "$rc" -eq 0 ] && echo "$out" | grep -q "^result: no-bug (bounded: the hot-cycle search for spec 'Finishes' outgrew its memory (1 MiB, a quarter of --frontier-mem))$"; then
  ok "wide.p: past its memory the hot-cycle search stops, bounded"
else bad "wide.p --frontier-mem 4M (exit $rc)"; echo "$out" | tail -n 3; fi
# The search of its own when its visited set fills: given up at once, with
# the reason (it used to search every finished state again, for ever; a
# guard of 60 s kills such a run).
out=$(timeout -s KILL 60 ${PCHECK_WRAPPER:-} "$PCHECK" -q --search dfs -j 2 --no-reduction --frontier-mem 4M -o "$tmp/o" "$d/visited_full.p" 2>&1); rc=$?
if [ "$rc" -eq 0 ] && echo "$out" | grep -q "^result: no-bug (bounded: the hot-cycle search for spec 'Busy' filled its visited set (1 MiB, an eighth of --frontier-mem)"; then
  ok "dfs -j 2 --no-reduction visited_full.p: a full visited set stops the spec's search, bounded"
else bad "dfs -j 2 --no-reduction visited_full.p --frontier-mem 4M (exit $rc)"; echo "$out" | tail -n 3; fi
# ses's search of its own is reduced (doc/liveness.md, 3.3): the two
# Counters' steps are independent, so its graph is a path of about 800
# states, not the grid of 160,000, and the same 1 MiB holds it all.
out=$(timeout -s KILL 60 ${PCHECK_WRAPPER:-} "$PCHECK" -q --search ses --frontier-mem 4M -o "$tmp/o" "$d/visited_full.p" 2>&1); rc=$?
if [ "$rc" -eq 0 ] && echo "$out" | grep -q '^result: no-bug (complete)$'; then
  ok "ses visited_full.p --frontier-mem 4M: the reduced hot-cycle search fits, complete"
else bad "ses visited_full.p --frontier-mem 4M (exit $rc)"; echo "$out" | tail -n 3; fi
out=$(run -q --search ses -o "$tmp/o" "$d/visited_full.p" 2>&1); rc=$?
if [ "$rc" -eq 0 ] && echo "$out" | grep -q '^result: no-bug (complete)$'; then ok "ses visited_full.p: complete with the default memory"
else bad "ses visited_full.p (exit $rc)"; echo "$out" | tail -n 3; fi
# The fair cycle takes each of the 60 options at each choice it passes
# (hundreds of thousands of steps): only the schedule is written.
out=$(run -q --search dfs --trace-format schedule -o "$tmp/o" "$d/wide.p" 2>&1); rc=$?
if [ "$rc" -eq 1 ] && echo "$out" | grep -q "$cycle"; then ok "wide.p: found with the default memory"
else bad "wide.p (exit $rc)"; echo "$out" | tail -n 3; fi
out=$(run -q --search dfs --unfair -o "$tmp/o" "$d/wide.p" 2>&1); rc=$?
if [ "$rc" -eq 1 ] && echo "$out" | grep -q "$cycle"; then ok "wide.p --unfair: found"; check_lasso "wide.p --unfair" "$d/wide.p" "$tmp/o"
else bad "wide.p --unfair (exit $rc)"; echo "$out" | tail -n 3; fi

# 4b. Nothing waits for the hot-cycle search.
states_of() { echo "$1" | sed -n 's/^states: \([0-9]*\) .*/\1/p'; }
out=$(run -q --search dfs -o "$tmp/o" "$d/safety_behind_hot.p" 2>&1); rc=$?
safe=$(run -q --search dfs --no-liveness -o "$tmp/o" "$d/safety_behind_hot.p" 2>&1)
n=$(states_of "$out") ns=$(states_of "$safe")
if [ "$rc" -eq 1 ] && echo "$out" | grep -q '^bug: assertion failure.*the fifth round' && [ -n "$n" ] && [ "$n" = "$ns" ] && [ "$n" -lt 100 ]; then
  ok "safety_behind_hot.p: the safety bug after $n states, as with --no-liveness"
else bad "safety_behind_hot.p: $n states (--no-liveness: $ns), exit $rc"; echo "$out" | tail -n 3; fi
# The search of its own goes at the main search's pace (ses, dfs on
# threads): a safety bug is found after as many states as with
# --no-liveness (counted, not timed: searched first, the hot region would take hours).
for s in "ses --no-reduction" "dfs -j 2 --no-reduction"; do
  for m in safety_behind_hot.p:'the fifth round' safety_beside_hot.p:'the third go'; do
    f=${m%%:*} msg=${m#*:}
    # shellcheck disable=SC2086
    out=$(run -q --search $s --timeout 60 -o "$tmp/o" "$d/$f" 2>&1); rc=$?
    # shellcheck disable=SC2086
    safe=$(run -q --search $s --no-liveness -o "$tmp/o" "$d/$f" 2>&1)
    n=$(states_of "$out") ns=$(states_of "$safe")
    if [ "$rc" -eq 1 ] && echo "$out" | grep -q "^bug: assertion failure.*$msg" && [ -n "$n" ] && [ "$n" -lt 100 ] &&
       { [ "$s" != ses ] || [ "$n" = "$ns" ]; }; then
      ok "$s $f: the safety bug after $n states (--no-liveness: $ns)"
    else bad "$s $f: $n states (--no-liveness: $ns), exit $rc"; echo "$out" | tail -n 3; fi
  done
done
for m in reduced_fair.p sf_split.p; do
  out=$(run -q --search dfs -o "$tmp/o" "$d/$m" 2>&1)
  pruned=$(echo "$out" | sed -n 's/^reduction: partial-order, \([0-9]*\) transitions pruned.*/\1/p')
  if echo "$out" | grep -q "$cycle" && [ "${pruned:-0}" -gt 0 ]; then ok "$m: the fair hot cycle found in the reduced graph ($pruned transitions pruned)"
  else bad "$m: reduced ($pruned pruned)"; echo "$out" | tail -n 3; fi
done

# 4c. --no-liveness.
for s in dfs ses; do
  out=$(run -q --search $s --no-liveness -o "$tmp/o" "$d/fair_spin.p" 2>&1); rc=$?
  if [ "$rc" -eq 0 ] && echo "$out" | grep -q '^result: no-bug (complete)$'; then ok "$s --no-liveness fair_spin.p: no hot cycle looked for"
  else bad "$s --no-liveness fair_spin.p (exit $rc)"; echo "$out" | tail -n 3; fi
done
out=$(run -q --search random --schedules 3 --no-liveness -o "$tmp/o" "$d/temp_long.p" 2>&1); rc=$?
if [ "$rc" -eq 0 ]; then ok "random --no-liveness temp_long.p: no temperature"
else bad "random --no-liveness temp_long.p (exit $rc)"; echo "$out" | tail -n 3; fi
for s in dfs ses bfs random; do
  out=$(run -q --search $s --schedules 3 --no-liveness -o "$tmp/o" "$d/quiescent.p" 2>&1); rc=$?
  if [ "$rc" -eq 1 ] && echo "$out" | grep -q "^bug: liveness (hot spec at quiescence): the system is quiescent and spec 'Finishes' is in hot state 'Busy'"; then
    ok "$s --no-liveness quiescent.p: a spec hot at quiescence is still a bug"
  else bad "$s --no-liveness quiescent.p (exit $rc)"; echo "$out" | tail -n 3; fi
done
out=$(run -q --search bfs --no-liveness -o "$tmp/o" "$d/fair_spin.p" 2>&1)
if echo "$out" | grep -q '^pcheck: warning: --no-liveness has no effect on --search bfs'; then ok "--no-liveness on bfs: a warning"
else bad "--no-liveness on bfs: no warning"; echo "$out" | head -n 2; fi

# 5. Temperature.
temp='^bug: liveness (hot spec for N steps): spec .Finishes. has stayed hot for'
# pct and ss are unfair, as P's pct: P checks temperature under fair
# strategies only, and so do they (no bug whatever the threshold).
for s in pct ss; do
  for t in "" "--liveness-temperature-threshold 150"; do
    out=$(run -q --search $s --schedules 3 $t -o "$tmp/t" "$d/temp_long.p" 2>&1); rc=$?
    if [ "$rc" -eq 0 ]; then ok "$s temp_long.p $t: no temperature check"
    else bad "$s temp_long.p $t: a bug (exit $rc)"; echo "$out" | tail -n 3; fi
  done
done
for s in random "irs --irs-step 100000"; do
  rm -rf "$tmp/t"
  out=$(run -q --search $s --schedules 3 -o "$tmp/t" "$d/temp_long.p" 2>&1); rc=$?
  if [ "$rc" -eq 1 ] && echo "$out" | grep -q "$temp 50000 steps"; then ok "$s temp_long.p: hot for 50000 steps (the default threshold)"; check_lasso "$s temp_long.p" "$d/temp_long.p" "$tmp/t"
  else bad "$s temp_long.p: not found (exit $rc)"; echo "$out" | tail -n 3; fi
  for t in 100000 0; do
    out=$(run -q --search $s --schedules 3 --liveness-temperature-threshold $t -o "$tmp/t" "$d/temp_long.p" 2>&1); rc=$?
    if [ "$rc" -eq 0 ]; then ok "$s temp_long.p: no bug with threshold $t"
    else bad "$s temp_long.p: a bug with threshold $t (exit $rc)"; echo "$out" | tail -n 3; fi
  done
  out=$(run -q --search $s --schedules 3 -o "$tmp/t" "$d/temp_reset.p" 2>&1); rc=$?
  if [ "$rc" -eq 0 ]; then ok "$s temp_reset.p: passing through a cold state resets the count"
  else bad "$s temp_reset.p: a bug (exit $rc)"; echo "$out" | tail -n 3; fi
  out=$(run -q --search $s --schedules 3 --liveness-temperature-threshold 150 -o "$tmp/t" "$d/temp_reset.p" 2>&1); rc=$?
  if [ "$rc" -eq 1 ] && echo "$out" | grep -q "$temp 150 steps"; then ok "$s temp_reset.p: hot for 150 steps between resets"
  else bad "$s temp_reset.p with threshold 150 (exit $rc)"; echo "$out" | tail -n 3; fi
done
# The trace holds its threshold: a larger one does not reach the bug.
rm -rf "$tmp/t"; run -q --search random --schedules 1 --liveness-temperature-threshold 150 -o "$tmp/t" "$d/temp_long.p" >/dev/null 2>&1
n=$(grep -c '^[md] ' "$tmp/t/Main.schedule")
if [ "$n" -eq 151 ] && grep -q '^temperature: 150$' "$tmp/t/Main.schedule"; then ok "temperature trace: 1 cold step, then 150 hot ones"
else bad "temperature trace: $n steps"; fi
sed 's/^temperature: 150$/temperature: 1000/' "$tmp/t/Main.schedule" >"$tmp/t/more.schedule"
r=$(run --replay "$tmp/t/more.schedule" "$d/temp_long.p" 2>&1); rc=$?
# It no longer reaches the bug the trace records: not a pass, exit 2.
if [ "$rc" -eq 2 ] && echo "$r" | grep -q '^result: replay-failed (the trace records liveness .* at step 151; its replay ends without it)$'; then
  ok "temperature trace replayed under a larger threshold: no bug, so the recorded one is missed (exit 2)"
else bad "temperature trace under a larger threshold (exit $rc)"; echo "$r" | tail -n 2; fi
out=$(run -q --search dfs -o "$tmp/t" "$d/temp_long.p" 2>&1); rc=$?
if [ "$rc" -eq 0 ] && echo "$out" | grep -q '^result: no-bug (complete)$'; then ok "dfs temp_long.p: no cycle, no bug"
else bad "dfs temp_long.p (exit $rc)"; echo "$out" | tail -n 3; fi

# The options are documented and checked.
h=$(run --help 2>&1)
if echo "$h" | grep -q -- '--unfair' && echo "$h" | grep -q -- '--liveness-temperature-threshold N' && echo "$h" | grep -q -- '--no-liveness'; then ok "--help lists --unfair, --no-liveness and --liveness-temperature-threshold"
else bad "--help"; fi
r=$(run --liveness-temperature-threshold x "$d/temp_long.p" 2>&1); rc=$?
if [ "$rc" -eq 2 ] && echo "$r" | grep -q 'liveness-temperature-threshold needs a count'; then ok "a bad threshold is refused"
else bad "a bad threshold (exit $rc)"; fi

echo "# passed: $pass failed: $fail"
[ "$fail" -eq 0 ]
