#!/bin/sh
# search.sh: the exhaustive searches and their counterexamples.
# - dfs and bfs visit the same number of distinct states on every correct
#   model of the suite that is small enough to finish here;
# - every seeded bug (the golden programs that end in a bug) is found by
#   dfs and bfs, its .schedule and .json traces replay to the same bug, and
#   bfs's trace is never longer than dfs's;
# - a trace that no longer fits the model is refused with the step where
#   it diverges; malformed trace files are refused with a clear error;
# - a state space larger than --mem 16M ends "bounded" with the reason;
# - every --cache kind visits the same states; compact fits more in --mem.
. "${srcdir:-.}/tests/lib.sh"

# 1. dfs and bfs agree on correct models.
for spec in "models/clientserver tcSingleClient" "models/clientserver tcMultipleClients" \
            $(for f in tests/golden/accept/*.p tests/golden/search/sum_choices.p tests/golden/search/two_workers.p; do
                t=$("$PCHECK" --list-tests "$f" 2>/dev/null | head -n 1); [ -n "$t" ] && echo "$f:$t"; done); do
  in=${spec%% *}; t=${spec#* }
  case $spec in *:*) in=${spec%%:*}; t=${spec#*:} ;; esac
  d=$(run --search dfs --no-reduction --mem 1G -q -tc "$t" -o "$tmp/o" "$in" 2>&1)
  dc=$?
  [ "$dc" -eq 1 ] && continue   # a bug: bfs stops at a shorter trace, counts differ
  b=$(run --search bfs --no-reduction --mem 1G -q -tc "$t" -o "$tmp/o" "$in" 2>&1)
  ds=$(echo "$d" | field states) bs=$(echo "$b" | field states)
  if [ "$dc" -eq 0 ] && [ -n "$ds" ] && [ "$ds" = "$bs" ]; then ok "dfs = bfs = $ds states: $in -tc $t"
  else bad "dfs ($ds) and bfs ($bs) differ on $in -tc $t"; echo "$d" | tail -n 3; echo "$b" | tail -n 3; fi
done

# 2. Seeded bugs: found, replayed from both trace formats, bfs not longer
# (every interleaving: with the reduction, bfs is shortest in its graph).
for f in tests/golden/vm/*.p tests/golden/search/bug_shortest.p tests/golden/search/deadlock_dfs.p; do
  grep -q '^result: bug-found' "${f%.p}.out" 2>/dev/null || continue
  for alg in dfs bfs; do
    rm -rf "$tmp/$alg"
    out=$(run --search "$alg" --no-reduction --mem 64M -q -o "$tmp/$alg" "$f" 2>&1)
    code=$?
    bugline=$(echo "$out" | grep '^bug: ')
    if [ "$code" -ne 1 ] || [ ! -f "$tmp/$alg/Main.schedule" ] || [ ! -f "$tmp/$alg/Main.json" ] || [ ! -f "$tmp/$alg/Main.txt" ]; then
      bad "$alg does not find the bug of $f (exit $code)"; continue
    fi
    for tr in "$tmp/$alg/Main.schedule" "$tmp/$alg/Main.json"; do
      r=$(run --replay "$tr" "$f" 2>&1)
      rc=$?
      if [ "$rc" -eq 1 ] && [ "$(echo "$r" | grep '^bug: ')" = "$bugline" ]; then ok "$alg trace $(basename "$tr") replays: $f"
      else bad "replay of $tr does not reproduce '$bugline' (exit $rc)"; echo "$r" | tail -n 5; fi
    done
  done
  dn=$(grep -c '^[md] ' "$tmp/dfs/Main.schedule") bn=$(grep -c '^[md] ' "$tmp/bfs/Main.schedule")
  if [ "$bn" -le "$dn" ]; then ok "bfs trace ($bn steps) not longer than dfs ($dn): $f"
  else bad "bfs trace ($bn) longer than dfs ($dn): $f"; fi
done

# 3. Traces that do not fit, and files that are not traces.
f=tests/golden/search/deadlock_dfs.p
run --search dfs -q -o "$tmp/div" "$f" >/dev/null 2>&1
sed 's/^m 1 .*/m 8/' "$tmp/div/Main.schedule" >"$tmp/diverge.schedule"
r=$(run --replay "$tmp/diverge.schedule" "$f" 2>&1); rc=$?
if [ "$rc" -eq 2 ] && echo "$r" | grep -q 'diverges from the model at step 1'; then ok "divergence reported"
else bad "divergence not reported (exit $rc)"; echo "$r" | tail -n 3; fi
printf 'test: Main\nm 0\nx 9\n' >"$tmp/bad.schedule"
r=$(run --replay "$tmp/bad.schedule" "$f" 2>&1); rc=$?
if [ "$rc" -eq 2 ] && echo "$r" | grep -q 'bad.schedule:3: expected'; then ok "malformed schedule refused"
else bad "malformed schedule (exit $rc)"; echo "$r" | tail -n 3; fi
printf '{"schema": "pcheck-trace", "version": 1, "test": "Main", "choices": [{"kind": "machine", "value": 0}' >"$tmp/bad.json"
r=$(run --replay "$tmp/bad.json" "$f" 2>&1); rc=$?
if [ "$rc" -eq 2 ] && echo "$r" | grep -q 'not valid JSON'; then ok "truncated JSON trace refused"
else bad "truncated JSON trace (exit $rc)"; echo "$r" | tail -n 3; fi
head -c 2000 /dev/zero >"$tmp/zero.json"
r=$(run --replay "$tmp/zero.json" "$f" 2>&1); rc=$?
if [ "$rc" -eq 2 ]; then ok "binary trace refused"; else bad "binary trace (exit $rc)"; fi
printf 'test: NoSuchTest\nm 0\n' >"$tmp/other.schedule"
r=$(run --replay "$tmp/other.schedule" "$f" 2>&1); rc=$?
if [ "$rc" -eq 2 ] && echo "$r" | grep -q "which the model does not have"; then ok "trace for another test refused"
else bad "trace for another test (exit $rc)"; fi

# 3b. Liveness lassos: found by dfs, replayed from both formats; a lasso
# whose cycle does not close is refused.
f=tests/golden/search/hot_cycle.p
run --search dfs --mem 64M -q -o "$tmp/hot" "$f" >/dev/null 2>&1
for tr in "$tmp/hot/Main.schedule" "$tmp/hot/Main.json"; do
  r=$(run --replay "$tr" "$f" 2>&1); rc=$?
  if [ "$rc" -eq 1 ] && echo "$r" | grep -q '^bug: liveness (hot spec forever on a cycle)'; then ok "lasso $(basename "$tr") replays"
  else bad "lasso $tr (exit $rc)"; echo "$r" | tail -n 3; fi
done
sed 's/^cycle: .*/cycle: 1/' "$tmp/hot/Main.schedule" >"$tmp/badcycle.schedule"
r=$(run --replay "$tmp/badcycle.schedule" "$f" 2>&1); rc=$?
if [ "$rc" -eq 2 ] && echo "$r" | grep -q 'not a liveness cycle'; then ok "open lasso refused"
else bad "open lasso (exit $rc)"; echo "$r" | tail -n 3; fi

# 4. A state space larger than the cache budget: bounded, with the reason.
# 2,208,152 states, 2101 deep (a deep space would fill the stack's part of
# --mem first).
cat >"$tmp/big.p" <<'P'
machine Main {
  var x: int;
  var y: int;
  start state S {
    entry { while (x + y < 2100) { if ($) { x = x + 1; } else { y = y + 1; } } }
  }
}
P
r=$(run --search dfs --mem 16M -q "$tmp/big.p" 2>&1); rc=$?
if [ "$rc" -eq 0 ] && echo "$r" | grep -q '^result: no-bug (bounded: state cache full at its --mem budget)$' &&
   echo "$r" | grep -q 'states not cached'; then ok "--mem 16M: bounded"
else bad "--mem 16M (exit $rc)"; echo "$r" | tail -n 4; fi

# 5. --stats-json writes the figures.
run --search dfs --mem 64M -q --stats-json "$tmp/stats.json" tests/golden/search/two_workers.p >/dev/null 2>&1
if grep -q '"states": 6,' "$tmp/stats.json" && grep -q '"collision_probability"' "$tmp/stats.json" &&
   grep -q '"reduction": "partial-order",' "$tmp/stats.json" && grep -q '"pruned_transitions": 2,' "$tmp/stats.json"; then
  ok "--stats-json (with the reduction's figures)"
else bad "--stats-json"; cat "$tmp/stats.json"; fi
run --search dfs --no-reduction --mem 64M -q --stats-json "$tmp/stats0.json" tests/golden/search/two_workers.p >/dev/null 2>&1
if grep -q '"states": 11,' "$tmp/stats0.json" && grep -q '"reduction": "none",' "$tmp/stats0.json"; then
  ok "--stats-json with --no-reduction"
else bad "--stats-json with --no-reduction"; cat "$tmp/stats0.json"; fi
mean=$(sed -n 's/^ *"mean_state_bytes": \([0-9.]*\),$/\1/p' "$tmp/stats.json")
max=$(sed -n 's/^ *"max_state_bytes": \([0-9]*\),$/\1/p' "$tmp/stats.json")
if [ -n "$mean" ] && [ -n "$max" ] && awk -v a="$mean" -v b="$max" 'BEGIN { exit !(a > 0 && a <= b) }'; then
  ok "--stats-json: dfs's State sizes (mean $mean, largest $max bytes)"
else bad "--stats-json: no State sizes from dfs"; fi
# --mem 64M: 16 MiB kept back, 24 MiB for the cache, 24 for the frontier.
if grep -q '"cache_budget_bytes": 25165824,' "$tmp/stats.json" &&
   grep -q '"memory": {"budget": 67108864, "cache": 25165824, "frontier": 25165824, "reserve": 16777216, "peak_resident": [1-9]' "$tmp/stats.json"
then ok "--stats-json: the --mem budget and its parts"
else bad "--stats-json: the --mem budget"; grep -e budget -e memory "$tmp/stats.json"; fi
# Without --mem the budget in effect (half of the machine's memory) is reported, not 0.
run --search dfs -q --stats-json "$tmp/stats2.json" tests/golden/search/two_workers.p >/dev/null 2>&1
b=$(sed -n 's/.*"cache_budget_bytes": \([0-9]*\),.*/\1/p' "$tmp/stats2.json")
if [ -n "$b" ] && [ "$b" -ge 1048576 ] && grep -q '"cache_fill": [0-9]' "$tmp/stats2.json" &&
   ! grep -q '"cache_fill": 0,' "$tmp/stats2.json"; then ok "--stats-json: the default budget ($b bytes)"
else bad "--stats-json: the default budget"; grep -e budget -e fill "$tmp/stats2.json"; fi

# 6. --timeout stops cleanly with the figures so far.
r=$(run --search dfs --mem 64M -q --timeout 0.5 "$tmp/big.p" 2>&1); rc=$?
if [ "$rc" -eq 0 ] && echo "$r" | grep -q '^result: no-bug (bounded: timeout)$'; then ok "--timeout"
else bad "--timeout (exit $rc)"; echo "$r" | tail -n 3; fi

# 6a. ses ends at --timeout when each delay bound takes a few transitions
# (a guard of 60 s kills a run that never looks at its clock).
r=$(timeout -s KILL 60 ${PCHECK_WRAPPER:-} "$PCHECK" --search ses --no-reduction -q --timeout 1 --max-inbox 0 \
    -o "$tmp/o" tests/search/ses_few_steps.p 2>&1); rc=$?
if [ "$rc" -eq 0 ] && echo "$r" | grep -q '^result: no-bug (bounded: timeout at delay bound [0-9]*)$'; then
  ok "ses --timeout with strata of a few transitions each"
else bad "ses --timeout with strata of a few transitions each (exit $rc)"; echo "$r" | tail -n 3; fi

# 6a'. --keep-going stopped by --timeout says its bug places may be
# incomplete (it said "bug-found" as a complete one does).
r=$(run --search dfs --keep-going --no-reduction -q --timeout 0.5 -o "$tmp/o" -tc tcBugStaleAck models/chainreplication 2>&1); rc=$?
if [ "$rc" -eq 1 ] && echo "$r" | grep -q '^result: bug-found (bounded: timeout; more bug places may exist)$'; then
  ok "--keep-going --timeout: the bug places are said to be incomplete"
else bad "--keep-going --timeout (exit $rc)"; echo "$r" | grep '^result'; fi

# 6a''. --keep-going on the sampling searches (P's --explore: random when
# no search is named): every execution runs, those with a bug counted by
# place; the first bug is the one reported, its trace the one a run without
# --keep-going writes with the same seed (so it replays to that bug).
tw="-tc tcBugStaleVote models/twophase"
# shellcheck disable=SC2086
r=$(run --explore -s 200 --seed 1 -o "$tmp/ex" $tw 2>&1); rc=$?
# shellcheck disable=SC2086
run -S random -s 200 --seed 1 -o "$tmp/nx" $tw >/dev/null 2>&1
nb=$(echo "$r" | sed -n 's/^bug executions: \([0-9]*\) of 200 (.*)$/\1/p')
hits=$(echo "$r" | sed -n 's/^  assertion failure: .* (found \([0-9]*\) times*)$/\1/p' | awk '{ n += $1 } END { print n + 0 }')
if [ "$rc" -eq 1 ] && echo "$r" | grep -q "^pcheck: note: --explore: P's default strategy, --search random" &&
   [ -n "$nb" ] && [ "$nb" -gt 1 ] && [ "$hits" = "$nb" ] &&
   echo "$r" | grep -q '^result: bug-found (bounded: 200 random executions; more bug places may exist)$' &&
   cmp -s "$tmp/ex/tcBugStaleVote.schedule" "$tmp/nx/tcBugStaleVote.schedule"; then
  ok "--explore: random goes on after each bug ($nb of 200 executions), the first one's trace written"
else bad "--explore (exit $rc, $nb buggy, $hits hits)"; echo "$r" | head -n 8; fi
for s in "pct --pct-depth 10" guided; do
  # shellcheck disable=SC2086
  r=$(run -S $s --keep-going -s 300 --seed 3 -o "$tmp/ex" --stats-json "$tmp/ex.json" $tw 2>&1); rc=$?
  nb=$(sed -n 's/^ *"bug_executions": \([0-9]*\),$/\1/p' "$tmp/ex.json")
  if [ "$rc" -eq 1 ] && [ -n "$nb" ] && [ "$nb" -gt 1 ] && echo "$r" | grep -q "^bug executions: $nb of 300 " &&
     echo "$r" | grep -q '^bug places: [1-9]'; then ok "--keep-going -S $s: $nb of 300 executions with a bug"
  else bad "--keep-going -S $s (exit $rc)"; echo "$r" | head -n 6; fi
done
r=$(run --explore -S bfs -o "$tmp/ex" $tw 2>&1); rc=$?
if [ "$rc" -eq 2 ] && echo "$r" | grep -q '^pcheck: error: --explore needs --search dfs, random, pct or guided, not --search bfs$'; then
  ok "--explore -S bfs: refused"
else bad "--explore -S bfs (exit $rc)"; echo "$r"; fi

# 6a'''. --fail-on-maxsteps (P's): an execution that reaches the bound on
# its steps is a bug, whose trace replays to it (and a cut copy does not);
# without the option the same executions are cut there, no bug.
r=$(run -S random -s 20 --seed 1 -ms 50 --fail-on-maxsteps -o "$tmp/fm" tests/reduction/endless.p 2>&1); rc=$?
rr=$(run -r "$tmp/fm/Main.schedule" tests/reduction/endless.p 2>&1); rrc=$?
sed '$d' "$tmp/fm/Main.schedule" >"$tmp/fm/cut.schedule"
rc_cut=$(run -r "$tmp/fm/cut.schedule" tests/reduction/endless.p >/dev/null 2>&1; echo $?)
rn=$(run -S random -s 20 --seed 1 -ms 50 -o "$tmp/fm" tests/reduction/endless.p 2>&1); rnc=$?
if [ "$rc" -eq 1 ] && echo "$r" | grep -q '^bug: max steps reached: Scheduling steps bound of 500 reached' &&
   [ "$rrc" -eq 1 ] && echo "$rr" | grep -q '^replay: 500 of 500 steps$' && [ "$rc_cut" -eq 2 ] &&
   [ "$rnc" -eq 0 ] && echo "$rn" | grep -q '^result: no-bug (bounded: 20 random executions, some cut at 500 steps)$'; then
  ok "--fail-on-maxsteps: the bound (random's fair one, 10 x -ms) is a bug; its trace replays, a cut one does not"
else bad "--fail-on-maxsteps (exit $rc, replay $rrc, cut $rc_cut, without $rnc)"; echo "$r" | head -n 3; echo "$rn" | grep result; fi
for s in pct irs bita guided; do
  r=$(run -S $s -s 100 --seed 1 -ms 4 --fail-on-maxsteps -o "$tmp/fm" tests/reduction/endless.p 2>&1); rc=$?
  if [ "$rc" -eq 1 ] && echo "$r" | grep -q '^bug: max steps reached: Scheduling steps bound of [0-9]* reached'; then
    ok "--fail-on-maxsteps -S $s"
  else bad "--fail-on-maxsteps -S $s (exit $rc)"; echo "$r" | head -n 3; fi
done

r=$(run -s 10 --seed 1 -ms 4 --fail-on-maxsteps -o "$tmp/fm" tests/reduction/endless.p 2>&1); rc=$?
r2=$(run -S portfolio --fail-on-maxsteps -o "$tmp/fm" tests/reduction/endless.p 2>&1); rc2=$?
if [ "$rc" -eq 1 ] && echo "$r" | grep -q "^pcheck: note: --fail-on-maxsteps: P's default strategy, --search random" &&
   [ "$rc2" -eq 2 ]; then ok "--fail-on-maxsteps: random when no search is named, refused with -S portfolio"
else bad "--fail-on-maxsteps and the portfolio (exit $rc, $rc2)"; echo "$r" | head -n 3; fi

# 6b. Ctrl-C and SIGTERM: tests/cli.sh.

# 6c. Every trace format is written.
rm -rf "$tmp/fmt"
run --search bfs -q --trace-format text,json,schedule,msc,html,dot -o "$tmp/fmt" tests/golden/vm/unhandled.p >/dev/null 2>&1
if [ -s "$tmp/fmt/Main.txt" ] && [ -s "$tmp/fmt/Main.json" ] && [ -s "$tmp/fmt/Main.schedule" ] &&
   grep -q '^sequenceDiagram' "$tmp/fmt/Main.mmd" && grep -q 'm0->>m0: 1: eSurprise' "$tmp/fmt/Main.mmd" &&
   grep -q '^digraph counterexample' "$tmp/fmt/Main.dot" && grep -q '^<!DOCTYPE html>' "$tmp/fmt/Main.html" &&
   grep -q 'eSurprise' "$tmp/fmt/Main.html"; then
  ok "all six trace formats"
else bad "trace formats"; ls -l "$tmp/fmt"; fi

# 6b. Wide data choices: successors are computed in batches of 64, so 200
# options span four batches.  1 + 1 + 200 + 600 states, counted by hand.
cat >"$tmp/wide.p" <<'P'
machine Main {
  var x: int;
  var y: int;
  start state S {
    entry {
      x = choose(200);
      y = choose(3);
      assert x != 157 || y != 2, format("x = {0}, y = {1}", x, y);
    }
  }
}
P
sed 's/assert x != 157 || y != 2, format("x = {0}, y = {1}", x, y);/assert x >= 0;/' "$tmp/wide.p" >"$tmp/wide_ok.p"
for s in dfs bfs; do
  r=$(run --search $s -q "$tmp/wide_ok.p" 2>&1)
  if echo "$r" | grep -q '^states: 802  transitions: 801 '; then ok "$s: 802 states over a choice of 200 then 3"
  else bad "$s over a wide choice"; echo "$r" | tail -n 2; fi
  r=$(run --search $s -q -o "$tmp/w$s" "$tmp/wide.p" 2>&1)
  if echo "$r" | grep -q '^result: bug-found$' && run --replay "$tmp/w$s/Main.schedule" "$tmp/wide.p" 2>&1 |
       grep -q 'assertion failed: x = 157, y = 2'; then ok "$s: the bug in the third batch of 64, replayed"
  else bad "$s: the bug at choice 157"; echo "$r" | tail -n 3; fi
done

# 7. A pattern selects every test it matches (tcA*); a name alone only the
# test of that name, with a hint where tests start with it.
r=$(run --search dfs --mem 64M -q -tc 'tcA*' tests/golden/accept/multi_file_proj.p 2>&1); rc=$?
if [ "$rc" -eq 0 ] && [ "$(echo "$r" | grep -c '^== test tcA')" -eq 2 ] && [ "$(echo "$r" | grep -c '^result: no-bug (complete)$')" -eq 2 ]; then
  ok "-tc 'tcA*' runs every matching test"
else bad "-tc 'tcA*' (exit $rc)"; echo "$r"; fi
r=$(run --search dfs -q -tc tcA tests/golden/accept/multi_file_proj.p 2>&1); rc=$?
if [ "$rc" -eq 2 ] && echo "$r" | grep -q "^pcheck: error: no test case named 'tcA'; did you mean tcA1? (2 start with it: -tc 'tcA\*' runs them all)$"; then
  ok "-tc tcA, a prefix that is no test's name: exit 2, the pattern to write"
else bad "-tc tcA (exit $rc)"; echo "$r" | head -n 3; fi
r=$(run --search dfs -q -tc tcbuglostupdate models/clientserver 2>&1); rc=$?
if [ "$rc" -eq 2 ] && echo "$r" | grep -q "^pcheck: error: no test case named 'tcbuglostupdate'; did you mean tcBugLostUpdate?$"; then
  ok "-tc in the wrong case: did you mean"
else bad "-tc tcbuglostupdate (exit $rc)"; echo "$r" | head -n 3; fi

# A bfs counterexample of a safety bug is not presented as a liveness lasso.
run --search bfs -q -tc tcBugEarlyGrant -o "$tmp/bl" models/german >/dev/null 2>&1
if [ -f "$tmp/bl/tcBugEarlyGrant.txt" ] && ! grep -q 'liveness' "$tmp/bl/tcBugEarlyGrant.txt"; then
  ok "bfs safety trace has no liveness line"
else bad "bfs safety trace mentions liveness"; tail -n 2 "$tmp/bl/tcBugEarlyGrant.txt"; fi

# --timeout also stops a search of the hot states of its own (dfs on two
# threads runs one from each state where a spec turns hot: the whole
# search takes about 7 s here, most of it in the first cycle search; on
# one thread, dfs looks for hot cycles on the fly and takes 0.3 s).
t0=$(date +%s)
r=$(run --search dfs -j 2 --no-reduction -q --timeout 0.5 -tc tcRing3Retransmit -o "$tmp/o" models/leaderelection 2>&1); rc=$?
t1=$(date +%s)
if [ "$rc" -eq 0 ] && [ $((t1 - t0)) -lt 15 ] && echo "$r" | grep -q 'bounded: timeout'; then
  ok "--timeout stops the hot-cycle search ($((t1 - t0)) s)"
else bad "--timeout and the hot-cycle search (exit $rc, $((t1 - t0)) s)"; echo "$r" | tail -n 3; fi

# 8. --cache: every kind gives the same states and transitions (dfs and
# bfs); the compact cache holds big.p's 2.2 million states within --mem 48M
# (18 MiB for the cache), where flat's 8-byte slots cannot; an unknown kind
# is refused.
for s in dfs bfs; do
  f=$(run --search $s --cache flat -q -tc tcMultipleClients models/clientserver 2>&1 | grep '^states: ')
  for k in compact judy; do
    r=$(run --search $s --cache $k -q -tc tcMultipleClients models/clientserver 2>&1)
    if [ -n "$f" ] && [ "$(echo "$r" | grep '^states: ' | sed 's/ time: .*//')" = "$(echo "$f" | sed 's/ time: .*//')" ] &&
       echo "$r" | grep -q "^state cache: $k,"; then ok "$s --cache $k: as flat ($(echo "$f" | field states) states)"
    else bad "$s --cache $k differs from flat"; echo "$f"; echo "$r" | tail -n 3; fi
  done
done
r=$(run --search dfs --cache compact --mem 48M -q "$tmp/big.p" 2>&1); rc=$?
r2=$(run --search dfs --mem 48M -q "$tmp/big.p" 2>&1)
if [ "$rc" -eq 0 ] && echo "$r" | grep -q '^result: no-bug (complete)$' && echo "$r" | grep -q '^states: 2208152 ' &&
   echo "$r2" | grep -q '^result: no-bug (bounded: state cache full at its --mem budget)$'; then
  ok "--cache compact --mem 48M: all 2208152 states (flat: full)"
else bad "--cache compact --mem 48M (exit $rc)"; echo "$r" | tail -n 4; fi
r=$(run --cache foo -q models/clientserver 2>&1); rc=$?
if [ "$rc" -eq 2 ] && echo "$r" | grep -q "unknown state cache 'foo' (expected flat, compact or judy)"; then ok "--cache foo refused"
else bad "--cache foo (exit $rc)"; echo "$r"; fi

# --keep-going: dfs goes on after a bug and lists every place one happens
# (summary and --stats-json); other searches refuse it.
r=$(run --search dfs --keep-going -q --stats-json "$tmp/kg.json" -tc tcBugEarlyGrant -o "$tmp/kg" models/german 2>&1); rc=$?
if [ "$rc" -eq 1 ] && echo "$r" | grep -q '^bug places: 2$' &&
   [ "$(echo "$r" | grep -c '^  assertion failure: models/german/PSpec/Coherence.p:[0-9]*:[0-9]* (found [0-9]* times*)$')" -eq 2 ] &&
   [ "$(grep -c '"kind": "assertion failure", "file": "models/german/PSpec/Coherence.p"' "$tmp/kg.json")" -eq 2 ] &&
   [ -f "$tmp/kg/tcBugEarlyGrant.schedule" ]; then ok "--keep-going lists both bug places, in the summary and the JSON"
else bad "--keep-going (exit $rc)"; echo "$r" | tail -n 6; fi
r=$(run --search bfs --keep-going -q tests/golden/search/two_workers.p 2>&1); rc=$?
if [ "$rc" -eq 2 ] && echo "$r" | grep -q 'keep-going needs --search dfs'; then ok "--keep-going refused with bfs"
else bad "--keep-going with bfs (exit $rc)"; echo "$r"; fi

echo "# passed: $pass failed: $fail"
[ "$fail" -eq 0 ]
