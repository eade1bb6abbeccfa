#!/bin/sh
# cli.sh: the user's side of the command line (the man page, doc/pcheck.1):
# - P's spellings (-tc, --testcase, --outdir, -i, --iterations), the
#   project file of the current folder when no input is given;
# - "did you mean" for unknown or ambiguous options and searches, a warning
#   for an option without effect on the chosen search;
# - random searches draw a fresh seed when none is given and print it; the
#   printed seed repeats the run;
# - exit codes: 130 after Ctrl-C with the figures, 4 with
#   --fail-on-incomplete on a bounded run, 0 without it;
# - the summary shows only meaningful figures and the guarantee reached;
#   several tests end with a table and one --stats-json object per test;
# - every file written is listed; old traces of the test are removed; -o
#   and --stats-json are checked writable before the search;
# - off a terminal, a progress line every 30 s (--progress=S: every S s;
#   --no-progress: none), with the work done and an ETA where the work's
#   end is known, else the time to the --timeout; -q hides per-bound lines;
# - traces: step numbers in the text log, the JSON and the schedule; the
#   schedule numbers machines as the logs do, version-1 schedules still
#   replay; --replay renders --trace-format into -o; Mermaid escapes what
#   it cannot take, marks the bug and a lasso's loop; DOT merges edges.
. "${srcdir:-.}/tests/lib.sh"
cs=models/clientserver

# 1. P's spellings.
a=$(run -S dfs -q -tc tcSingleClient -o "$tmp/o" $cs 2>&1 | grep '^states: ')
for spelling in "-tc tcSingleClient" "--testcase tcSingleClient" "--testcase=tcSingleClient"; do
  # shellcheck disable=SC2086
  b=$(run -S dfs -q $spelling --outdir "$tmp/o" $cs 2>&1 | grep '^states: ')
  if [ -n "$a" ] && [ "$(echo "$a" | sed 's/time.*//')" = "$(echo "$b" | sed 's/time.*//')" ]; then ok "P's spelling $spelling"
  else bad "P's spelling $spelling: '$b'"; fi
done
for spelling in "-i 7" "--iterations 7" "--schedules 7"; do
  # shellcheck disable=SC2086
  r=$(run -S random --seed 1 $spelling -q -tc tcSingleClient -o "$tmp/o" $cs 2>&1)
  if echo "$r" | grep -q '^result: no-bug (bounded: 7 random executions)$'; then ok "$spelling: 7 executions"
  else bad "$spelling"; echo "$r" | tail -n 3; fi
done
r=$(cd $cs && run --list-tests 2>&1); rc=$?
if [ "$rc" -eq 0 ] && echo "$r" | grep -q '^tcSingleClient$'; then ok "no input: the .pproj of the current folder"
else bad "no input in a project folder (exit $rc)"; echo "$r" | head -n 3; fi
r=$(cd "$tmp" && run --list-tests 2>&1); rc=$?
if [ "$rc" -eq 2 ] && echo "$r" | grep -q 'no input files, and no .pproj project file in the current folder'; then
  ok "no input and no project: a clear error"
else bad "no input, no project (exit $rc)"; echo "$r"; fi

# 1b. P's own options (p check, P 3.1) with P's meaning (issue 37): -s
# schedules, -t timeout, -ms one or two bounds, -m gigabytes, -r replay,
# the --sch-* strategies (fair PCT with its random tail and temperature
# check), -md; pcheck's old -s SEARCH and -t TEST say what to write.
r=$(run -sr --seed 1 -s 5 -tc tcSingleClient -o "$tmp/o" $cs 2>&1); rc=$?
if [ $rc -eq 0 ] && echo "$r" | grep -q '^result: no-bug (bounded: 5 random executions)$'; then ok "-sr -s 5: five random executions"
else bad "-sr -s 5 (exit $rc)"; echo "$r" | tail -n 3; fi
r=$(run -S dfs --no-reduction -t 0.5 -tc tcTwoPhase___N_6 -o "$tmp/o" models/twophase_n 2>&1); rc=$?
if [ $rc -eq 0 ] && echo "$r" | grep -q '^result: no-bug (bounded: timeout)$'; then ok "-t 0.5: the timeout"
else bad "-t 0.5 (exit $rc)"; echo "$r" | tail -n 3; fi
for bad_one in "-s dfs:-S dfs or --search dfs" "-t tcSingleClient:-tc tcSingleClient or --test tcSingleClient" \
               "-s many:-s needs a number of schedules" "-md fast:--mode needs bugfinding or pex" \
               "--sch-pct 0:--sch-pct needs a count from 1 to 1000" "-m lots:--memout needs a number of gigabytes" \
               "-ms 10 x:"; do
  # shellcheck disable=SC2086
  r=$(run ${bad_one%%:*} $cs 2>&1); rc=$?
  want=${bad_one#*:}
  if [ -z "$want" ]; then
    # "-ms 10 x": one bound; x is an input that does not exist.
    if [ $rc -eq 2 ] && echo "$r" | grep -q "x"; then ok "${bad_one%%:*}: one bound, then an input"
    else bad "${bad_one%%:*} (exit $rc)"; echo "$r" | head -n 3; fi
  elif [ $rc -eq 2 ] && echo "$r" | grep -qF -- "$want"; then ok "${bad_one%%:*}: exit 2, '$want'"
  else bad "${bad_one%%:*} (exit $rc)"; echo "$r" | head -n 3; fi
done
mk_ping() {   # a model whose executions never end: Main pings itself
  printf '%s\n' 'event ePing;' 'machine Main { start state S { entry { send this, ePing; } on ePing do { send this, ePing; } } }' >"$1"
}
mk_ping "$tmp/ping.p"
for spelling in "-ms 40 400" "-ms 40,400" "--max-steps 40 400" "--max-steps=40,400"; do
  # shellcheck disable=SC2086
  a=$(run -S pct -s 2 --seed 1 $spelling -o "$tmp/o" "$tmp/ping.p" 2>&1 | grep '^result: ')
  # shellcheck disable=SC2086
  b=$(run -S random -s 2 --seed 1 $spelling -o "$tmp/o" "$tmp/ping.p" 2>&1 | grep '^result: ')
  if echo "$a" | grep -q 'some cut at 40 steps' && echo "$b" | grep -q 'some cut at 400 steps'; then
    ok "$spelling: pct cut at 40 steps, random at 400"
  else bad "$spelling: '$a' / '$b'"; fi
done
b=$(run -S random -s 2 --seed 1 -ms 40 -o "$tmp/o" "$tmp/ping.p" 2>&1 | grep '^result: ')
if echo "$b" | grep -q 'some cut at 400 steps'; then ok "-ms 40: the fair bound 10 times as long"
else bad "-ms 40: '$b'"; fi
r=$(run -S dfs -q -m 0.25 --stats-json "$tmp/m.json" -tc tcSingleClient -o "$tmp/o" $cs 2>&1); rc=$?
if [ $rc -eq 0 ] && grep -q '"mem": 268435456' "$tmp/m.json"; then ok "-m 0.25: a quarter of a gigabyte"
else bad "-m 0.25 (exit $rc)"; grep '"mem"' "$tmp/m.json"; fi
rm -rf "$tmp/rp"
run -S dfs -q -tc tcBugLostUpdate -o "$tmp/rp" $cs >/dev/null 2>&1
r=$(run -r "$tmp/rp/tcBugLostUpdate.schedule" $cs 2>&1); rc=$?
if [ $rc -eq 1 ] && echo "$r" | grep -q '^bug: '; then ok "-r FILE replays"
else bad "-r FILE (exit $rc)"; echo "$r" | tail -n 3; fi
# A schedule records its bug as data; a cut one replays to no bug and is
# not a pass: it says so, exit 2.  The JSON trace records it too.
if grep -q '^bug-kind: assertion failure$' "$tmp/rp/tcBugLostUpdate.schedule" && grep -q '^bug-step: [0-9]*$' "$tmp/rp/tcBugLostUpdate.schedule"; then
  ok "the .schedule records its bug: bug-kind, bug-step"
else bad "no bug-kind/bug-step in the .schedule"; fi
head -n 30 "$tmp/rp/tcBugLostUpdate.schedule" >"$tmp/rp/cut.schedule"
r=$(run -r "$tmp/rp/cut.schedule" $cs 2>&1); rc=$?
if [ $rc -eq 2 ] && echo "$r" | grep -q '^result: replay-failed (the trace records assertion failure at step [0-9]*; its replay ends without it)$' &&
   echo "$r" | grep -q "^pcheck: error: .*cut.schedule does not reach the bug it records"; then ok "a cut schedule: replay-failed, exit 2"
else bad "a cut schedule (exit $rc)"; echo "$r" | tail -n 3; fi
sed 's/"step": \([0-9]*\)}/"step": 99999}/' "$tmp/rp/tcBugLostUpdate.json" >"$tmp/rp/moved.json"
r=$(run -r "$tmp/rp/moved.json" $cs 2>&1); rc=$?
if [ $rc -eq 2 ] && echo "$r" | grep -q '^result: replay-failed (the trace records assertion failure at step 99999; its replay ends in another bug)$'; then
  ok "a JSON trace whose bug is elsewhere: replay-failed, exit 2"
else bad "a JSON trace with its bug moved (exit $rc)"; echo "$r" | tail -n 3; fi
r=$(run --sch-pct 5 -s 3 --seed 1 -tc tcSingleClient -o "$tmp/o" $cs 2>&1)
if echo "$r" | grep -q '^result: no-bug (bounded: 3 executions (pct, depth 5, '; then ok "--sch-pct 5: pct of depth 5"
else bad "--sch-pct 5"; echo "$r" | tail -n 3; fi
# temp_long.p: hot for about 60000 steps.  Fair PCT's random tail runs it
# to its end and its temperature check reports it; pct cuts it at the
# unfair bound and checks no temperature.
r=$(run --sch-fairpct 3 -s 1 --seed 1 -o "$tmp/o" tests/liveness/temp_long.p 2>&1); rc=$?
r2=$(run --sch-pct 3 -s 1 --seed 1 -o "$tmp/o" tests/liveness/temp_long.p 2>&1); rc2=$?
if [ $rc -eq 1 ] && echo "$r" | grep -q '^bug: liveness' && [ $rc2 -eq 0 ]; then ok "--sch-fairpct 3: the fair tail's temperature check; --sch-pct 3: none"
else bad "--sch-fairpct 3 (exit $rc) / --sch-pct 3 (exit $rc2)"; echo "$r" | grep -E '^(bug|result)'; fi
for spelling in "--sch-probabilistic 2" "-sp 2" "--sch-pos" "--sch-feedback" "--sch-feedbackpos"; do
  # shellcheck disable=SC2086
  r=$(run $spelling -s 2 --seed 1 -tc tcSingleClient -o "$tmp/o" $cs 2>&1)
  if echo "$r" | grep -q "^pcheck: note: --sch-.*runs as pcheck's random search" &&
     echo "$r" | grep -q '^result: no-bug (bounded: 2 random executions)$'; then ok "$spelling: random, said in a note"
  else bad "$spelling"; echo "$r" | grep -E '^(pcheck|result)'; fi
done
# -s N with the default search (the portfolio) bounds the whole run: N
# executions in all, shared by its sampling members, and the run ends.
r=$(run -s 100 --seed 1 -tc tcTwoProposers -o "$tmp/o" models/paxos 2>&1); rc=$?
n=$(echo "$r" | sed -n 's/^portfolio: \(random\|pct\|ss\/rtc\): \([0-9]*\) executions$/\2/p' | awk '{ n += $1 } END { print n + 0 }')
if [ $rc -eq 0 ] && echo "$r" | grep -q '^result: no-bug (bounded: the sampling members ran their shares of --schedules 100)$' && [ "$n" = 100 ]; then
  ok "-s 100, the portfolio: 100 executions in all, then the end"
else bad "-s 100 with the portfolio (exit $rc, $n executions)"; echo "$r" | grep -E '^(portfolio|result)'; fi
# No test named and several in the model: every one in turn, each with the
# default budget (said, with --timeout to change it), then the table; exit
# 1 when one has a bug.
cat >"$tmp/two.p" <<'EOP'
event eGo;
machine Ok { start state S { entry { send this, eGo; } on eGo do { } } }
machine Bad { start state S { entry { assert false, "always"; } } }
test tcOk [main=Ok]: { Ok };
test tcBad [main=Bad]: { Bad };
EOP
r=$(run -o "$tmp/o" "$tmp/two.p" 2>&1); rc=$?
if [ $rc -eq 1 ] && echo "$r" | grep -q '^pcheck: 2 test cases and none named (-tc NAME runs one): each in turn, for at most 60 s (--timeout sets another budget)$' &&
   echo "$r" | grep -q '^tcOk  *no-bug (complete)' && echo "$r" | grep -q '^tcBad  *bug-found'; then
  ok "no test named, two in the model: both run, the table, exit 1"
else bad "no test named, two tests (exit $rc)"; echo "$r" | tail -n 6; fi
r=$(run -t 5 -o "$tmp/o" "$tmp/two.p" 2>&1)
if echo "$r" | grep -q '^pcheck: 2 test cases and none named (-tc NAME runs one): each in turn, for at most 5 s$'; then
  ok "no test named, -t 5: each for at most 5 s"
else bad "no test named, -t 5"; echo "$r" | head -n 3; fi
# A sampling search given neither --timeout nor --schedules has the
# default budget of 60 s (said; --stats-json records it); stopped at once
# here with SIGTERM.
rm -f "$tmp/budget.json"
${PCHECK_WRAPPER:-} "$PCHECK" -S random -tc tcSingleClient --stats-json "$tmp/budget.json" -o "$tmp/o" $cs >"$tmp/budget.txt" 2>&1 &
bpid=$!
i=0
while [ $i -lt 100 ] && ! grep -q '^seed: ' "$tmp/budget.txt" 2>/dev/null; do sleep 0.1; i=$((i + 1)); done
kill -TERM $bpid 2>/dev/null
wait $bpid
if grep -q '^pcheck: --search random without --timeout or --schedules: at most 60 s (--timeout sets another budget)$' "$tmp/budget.txt" &&
   grep -q '"timeout": 60' "$tmp/budget.json"; then ok "random without -t or -s: the default budget of 60 s, said"
else bad "random without -t or -s"; head -n 3 "$tmp/budget.txt"; fi
r=$(run -md pex -q -tc tcSingleClient -o "$tmp/o" $cs 2>&1); rc=$?
if [ $rc -eq 0 ] && echo "$r" | grep -q "^pcheck: note: --mode pex: .*dfs" && echo "$r" | grep -q '^result: no-bug (complete)$'; then
  ok "-md pex: dfs, said in a note"
else bad "-md pex (exit $rc)"; echo "$r" | tail -n 3; fi

# 2. "Did you mean", warnings.
r=$(run --serch dfs $cs 2>&1); rc=$?
if [ "$rc" -eq 2 ] && echo "$r" | grep -q "unknown option '--serch'; did you mean --search?"; then ok "did you mean --search"
else bad "--serch (exit $rc)"; echo "$r"; fi
r=$(run --no $cs 2>&1); rc=$?
if [ "$rc" -eq 2 ] && echo "$r" | grep -q "option '--no' is ambiguous: it could be --no-coverage, --no-liveness, --no-progress, --no-reduction, --no-sampling, --no-shared-cache$"; then
  ok "an ambiguous option lists its candidates"
else bad "--no (exit $rc)"; echo "$r"; fi
r=$(run -S dsf $cs 2>&1); rc=$?
if [ "$rc" -eq 2 ] && echo "$r" | grep -q "unknown search 'dsf'; did you mean dfs?"; then ok "did you mean dfs"
else bad "-S dsf (exit $rc)"; echo "$r"; fi
r=$(run --frobnicate $cs 2>&1); rc=$?
if [ "$rc" -eq 2 ] && echo "$r" | grep -q "unknown option '--frobnicate'$"; then ok "an option far from every name"
else bad "--frobnicate (exit $rc)"; echo "$r"; fi
r=$(run -S dfs --schedules 5 --max-delays 2 -q -tc tcSingleClient -o "$tmp/o" $cs 2>&1); rc=$?
if [ "$rc" -eq 0 ] && echo "$r" | grep -q '^pcheck: warning: --schedules has no effect on --search dfs' &&
   echo "$r" | grep -q '^pcheck: warning: --max-delays has no effect on --search dfs'; then ok "options without effect: warnings"
else bad "no warnings for options without effect (exit $rc)"; echo "$r" | head -n 3; fi
r=$(run -S random --schedules 5 -q -tc tcSingleClient -o "$tmp/o" $cs 2>&1)
if ! echo "$r" | grep -q 'warning'; then ok "no warning for options that act"
else bad "a warning for an option that acts"; echo "$r" | grep warning; fi

# 3. A fresh seed, printed, that repeats the run.
r1=$(run -S random --schedules 3 -v -q -tc tcMultipleClients -o "$tmp/o" $cs 2>&1)
r2=$(run -S random --schedules 3 -v -q -tc tcMultipleClients -o "$tmp/o" $cs 2>&1)
s1=$(echo "$r1" | sed -n 's/^seed: \([0-9]*\) (drawn at random; --seed [0-9]* repeats this run)$/\1/p')
s2=$(echo "$r2" | sed -n 's/^seed: \([0-9]*\) .*/\1/p')
if [ -n "$s1" ] && [ -n "$s2" ] && [ "$s1" != "$s2" ]; then ok "random draws a fresh seed and prints it ($s1, $s2)"
else bad "no fresh seed ('$s1', '$s2')"; fi
r3=$(run -S random --schedules 3 -v -q --seed "$s1" -tc tcMultipleClients -o "$tmp/o" $cs 2>&1)
if [ "$(echo "$r1" | grep -v '^seed: ' | grep -v 'time: ')" = "$(echo "$r3" | grep -v 'time: ')" ] && ! echo "$r3" | grep -q '^seed: '; then
  ok "the printed seed repeats the run"
else bad "the printed seed does not repeat the run"; fi
r=$(run -S dfs -q -tc tcSingleClient -o "$tmp/o" $cs 2>&1)
if ! echo "$r" | grep -q '^seed: '; then ok "dfs draws no seed"; else bad "dfs prints a seed"; fi

# 4. Exit codes.
cat >"$tmp/big.p" <<'P'
machine Main {
  var x: int;
  start state S {
    entry { while (x < 2200000) { if ($) { x = x + 1; } else { x = x + 2; } } }
  }
}
P
r=$(run -S dfs --timeout 0.3 -q -o "$tmp/o" "$tmp/big.p" 2>&1); rc=$?
r4=$(run -S dfs --timeout 0.3 --fail-on-incomplete -q -o "$tmp/o" "$tmp/big.p" 2>&1); rc4=$?
if [ "$rc" -eq 0 ] && [ "$rc4" -eq 4 ] && echo "$r4" | grep -q '^result: no-bug (bounded: timeout)$'; then
  ok "--fail-on-incomplete: a bounded run exits 4 (0 without)"
else bad "--fail-on-incomplete (exit $rc, $rc4)"; echo "$r4" | tail -n 3; fi
r=$(run -S dfs --fail-on-incomplete -q -tc tcSingleClient -o "$tmp/o" $cs 2>&1); rc=$?
if [ "$rc" -eq 0 ]; then ok "--fail-on-incomplete: a complete run exits 0"; else bad "complete run with --fail-on-incomplete exits $rc"; fi
${PCHECK_WRAPPER:-} "$PCHECK" -S dfs -q -o "$tmp/o" "$tmp/big.p" >"$tmp/int.out" 2>&1 &
pid=$!
sleep 0.5
kill -INT "$pid" 2>/dev/null
wait "$pid"; rc=$?
if [ "$rc" -eq 130 ] && grep -q '^result: no-bug (bounded: interrupted)$' "$tmp/int.out" && grep -q '^states: ' "$tmp/int.out"; then
  ok "Ctrl-C: the figures, then exit 130"
else bad "Ctrl-C (exit $rc)"; tail -n 3 "$tmp/int.out"; fi
# SIGTERM at a random moment, 100 times, from the moment the process has
# its handler (its SigCgt mask in /proc; before main nothing can answer):
# while the model is read, during the search or as it ends, every run ends
# with its summary.  The default search, the portfolio, on a test it
# decides in about a second.
caught() { m=$(sed -n 's/^SigCgt:[[:space:]]*//p' "/proc/$1/status" 2>/dev/null); [ -n "$m" ] && [ $((0x$m & 0x4000)) -ne 0 ]; }
if [ -r /proc/self/status ]; then
  lost=0 i=0
  while [ $i -lt 100 ]; do
    i=$((i + 1))
    ${PCHECK_WRAPPER:-} "$PCHECK" --seed $i -tc tcMultipleClients -o "$tmp/o" $cs >"$tmp/term.out" 2>&1 &
    pid=$!
    n=0
    while ! caught $pid && [ $n -lt 1000 ]; do n=$((n + 1)); sleep 0.01; done
    sleep "0.$(awk -v s=$i 'BEGIN { srand(s); printf "%03d", int(rand() * 400) }')"
    kill -TERM "$pid" 2>/dev/null
    wait "$pid"
    grep -q '^result: ' "$tmp/term.out" || { lost=$((lost + 1)); echo "run $i: no summary"; head -n 3 "$tmp/term.out"; }
  done
  if [ $lost -eq 0 ]; then ok "SIGTERM at 100 random moments: a summary every time"
  else bad "SIGTERM at 100 random moments: $lost without a summary"; fi
fi

for extra in "" "--fail-on-incomplete"; do
  # shellcheck disable=SC2086
  ${PCHECK_WRAPPER:-} "$PCHECK" -S dfs -q $extra -o "$tmp/o" "$tmp/big.p" >"$tmp/term.out" 2>&1 &
  pid=$!
  sleep 0.5
  kill -TERM "$pid" 2>/dev/null
  wait "$pid"; rc=$?
  want=143; [ -n "$extra" ] && want=4
  if [ "$rc" -eq "$want" ] && grep -q '^result: no-bug (bounded: interrupted)$' "$tmp/term.out"; then
    ok "SIGTERM $extra: the figures, then exit $want"
  else bad "SIGTERM $extra (exit $rc)"; tail -n 3 "$tmp/term.out"; fi
done

# SIGTERM during every search: its figures, exit 143, and an output folder
# with nothing half-written (every file is written then renamed).
for s in dfs bfs ses ss random pct pb irs portfolio; do
  rm -rf "$tmp/sig"
  ${PCHECK_WRAPPER:-} "$PCHECK" -S $s --seed 1 -q --stats-json "$tmp/sig.json" -tc tcTwoProposers -o "$tmp/sig" models/paxos \
    >"$tmp/term.out" 2>&1 &
  pid=$!
  sleep 0.7
  kill -TERM "$pid" 2>/dev/null
  wait "$pid"; rc=$?
  if [ "$rc" -eq 143 ] && grep -q '^result: no-bug (bounded: interrupted' "$tmp/term.out" && grep -q 'time: ' "$tmp/term.out" &&
     ! ls "$tmp/sig" 2>/dev/null | grep -q 'tmp' && grep -q '"result": "no-bug-bounded"' "$tmp/sig.json"; then
    ok "SIGTERM during -S $s: the figures, --stats-json, exit 143, nothing half-written"
  else bad "SIGTERM during -S $s (exit $rc)"; tail -n 3 "$tmp/term.out"; ls "$tmp/sig" 2>/dev/null; fi
done

# 5. Figures and guarantees.
r=$(run -S dfs -q -tc tcSingleClient -o "$tmp/o" $cs 2>&1)
if echo "$r" | grep -q '^states: [0-9]*  transitions: [0-9]*  max-depth: [0-9]*  time: ' &&
   echo "$r" | grep -q '^guarantee: complete: no bug in any execution ([0-9]* states explored)$'; then
  ok "dfs: no executions figure, a complete guarantee"
else bad "dfs figures"; echo "$r" | tail -n 3; fi
r=$(run -S random --seed 1 --schedules 4 -q -tc tcSingleClient -o "$tmp/o" $cs 2>&1)
if echo "$r" | grep -q '^transitions: [0-9]*  executions: 4  max-depth: [0-9]*  time: ' &&
   echo "$r" | grep -q '^guarantee: 4 executions without a bug (sampled: no proof)$'; then ok "random: no states figure, executions"
else bad "random figures"; echo "$r" | tail -n 3; fi
r=$(run -S ses --max-delays 1 -q -tc tcMultipleClients -o "$tmp/o" $cs 2>&1)
if echo "$r" | grep -q '^guarantee: no bug with at most 1 delays' && echo "$r" | grep -q '^states: .* delays: 1  time: '; then
  ok "ses: no bug with at most K delays"
else bad "ses guarantee"; echo "$r" | tail -n 3; fi
r=$(run -S pb --max-delays 0 -q -tc tcMultipleClients -o "$tmp/o" $cs 2>&1)
if echo "$r" | grep -q '^guarantee: no bug with at most 0 preemptions$'; then ok "pb: no bug with at most K preemptions"
else bad "pb guarantee"; echo "$r" | tail -n 3; fi
r=$(run -S bfs --no-reduction --timeout 0.3 -q -o "$tmp/o" "$tmp/big.p" 2>&1)
if echo "$r" | grep -q '^guarantee: no bug within depth [0-9]* (every execution of at most [0-9]* steps)$'; then
  ok "bfs stopped: no bug within depth D"
else bad "bfs guarantee"; echo "$r" | tail -n 3; fi
# With the reduction, a depth of the reduced graph covers an eighth of it
# in steps (doc/reduction.md, "Endless paths").
r=$(run -S bfs --timeout 0.3 -q -o "$tmp/o" "$tmp/big.p" 2>&1)
if echo "$r" | grep -q '^guarantee: no bug within depth [0-9]* of the reduced search, so in every execution of at most [0-9]* steps (--no-reduction: of at most the depth)$'; then
  ok "reduced bfs stopped: no bug within depth D of the reduced search, D/8 steps"
else bad "reduced bfs guarantee"; echo "$r" | tail -n 3; fi
r=$(run -S dfs -q -tc tcBugLostUpdate -o "$tmp/o" $cs 2>&1)
if echo "$r" | grep -q '^bug: assertion failure at .*BankBalanceCorrect.p:[0-9]*:[0-9]*: Bank balance' &&
   ! echo "$r" | grep '^bug: ' | grep -qi 'assertion failed'; then ok "the bug line says 'assertion' once"
else bad "bug line wording"; echo "$r" | grep '^bug: '; fi

# 6. Several tests: a table, one JSON object per test.
r=$(run -S dfs -q -tc 'tcBug*' -o "$tmp/multi" --stats-json "$tmp/multi.json" $cs 2>&1); rc=$?
n=$(echo "$r" | grep -c '^tcBug[A-Za-z]* *bug-found *[0-9,]* states *[0-9.]*$')
if [ "$rc" -eq 1 ] && echo "$r" | grep -q '^== 5 tests$' && [ "$n" -eq 5 ] &&
   echo "$r" | grep -q '^total: 5 tests: 5 bug found, 0 no bug (complete), 0 no bug (bounded); [0-9.]* s$'; then
  ok "several tests end with a table and a total"
else bad "multi-test table (exit $rc, $n rows)"; echo "$r" | tail -n 8; fi
if [ "$(grep -c '"schema": "pcheck-stats",' "$tmp/multi.json")" -eq 5 ] && grep -q '"schema": "pcheck-stats-tests"' "$tmp/multi.json" &&
   [ "$(grep -c '"trace_files": \[".*schedule"\]' "$tmp/multi.json")" -eq 5 ] && grep -q '"pcheck": "' "$tmp/multi.json" &&
   grep -q '"options": {"search": "dfs"' "$tmp/multi.json"; then
  ok "--stats-json: one object per test with the bug, trace files, version, options"
else bad "--stats-json with several tests"; head -n 20 "$tmp/multi.json"; fi
r=$(run -S dfs -q -tc tcSingleClient -o "$tmp/o" --stats-json "$tmp/one.json" $cs 2>&1)
if grep -q '"guarantee": "complete: no bug' "$tmp/one.json" && grep -q '"seed_drawn": false' "$tmp/one.json" &&
   echo "$r" | grep -q "^wrote: $tmp/one.json$"; then ok "--stats-json of one test: guarantee, options; listed as written"
else bad "--stats-json of one test"; cat "$tmp/one.json" | head -n 10; fi

# 7. Files: listed, old ones removed, outputs checked first.
rm -rf "$tmp/f"
r=$(run -S dfs -q -tc tcBugLostUpdate --trace-format text,json,schedule,html,msc,dot -o "$tmp/f" $cs 2>&1)
n=$(echo "$r" | grep -c "^wrote: $tmp/f/tcBugLostUpdate\.")
if [ "$n" -eq 6 ] && [ "$(ls "$tmp/f" | wc -l)" -eq 6 ]; then ok "every file written is listed ($n)"
else bad "files listed: $n"; echo "$r" | tail -n 8; ls "$tmp/f"; fi
r=$(run -S dfs -q -tc tcBugLostUpdate --trace-format text -o "$tmp/f" $cs 2>&1)
# --trace-format text: the text, and a schedule to replay it (always one);
# the other four files the earlier run wrote are removed, and said.
if [ "$(ls "$tmp/f" | tr '\n' ' ')" = "tcBugLostUpdate.schedule tcBugLostUpdate.txt " ] &&
   [ "$(echo "$r" | grep -c "^removed: $tmp/f/tcBugLostUpdate\.[a-z]* (an earlier run's trace of this test)$")" -eq 4 ]; then
  ok "a new run removes the old run's traces of the test; --trace-format text adds the schedule"
else bad "old traces left beside new ones, or no schedule"; ls "$tmp/f"; fi
r=$(run -S dfs -q -tc tcBugLostUpdate --trace-format text -o "$tmp/f" $cs 2>&1)
if ! echo "$r" | grep -q '^removed: ' && [ "$(echo "$r" | grep -c "^wrote: $tmp/f/tcBugLostUpdate\.")" -eq 2 ]; then
  ok "the same run again rewrites its two files (said by 'wrote:') and removes nothing"
else bad "a rerun of the same command"; echo "$r" | tail -n 5; fi
# An unhandled event has its place (the state lacking the handler) in the
# text and in the JSON trace.
r=$(run -S dfs -q --trace-format json -o "$tmp/unh" tests/golden/vm/unhandled.p 2>&1)
if echo "$r" | grep -q '^bug: unhandled event at tests/golden/vm/unhandled.p:5:15: ' &&
   grep -q '"bug": {"kind": "unhandled event", .*"line": 5, "column": 15' "$tmp/unh/Main.json"; then
  ok "an unhandled event is placed at its state, in the text and the JSON"
else bad "an unhandled event without its place"; echo "$r" | grep '^bug'; grep '"bug"' "$tmp/unh/Main.json"; fi
mkdir -p "$tmp/ro" && chmod 555 "$tmp/ro"
if [ "$(id -u)" -ne 0 ]; then
  r=$(run -S dfs -q -tc tcSingleClient -o "$tmp/ro/out" $cs 2>&1); rc=$?
  if [ "$rc" -eq 2 ] && echo "$r" | grep -q "cannot write into the output folder" && ! echo "$r" | grep -q '^result:'; then
    ok "-o not writable: refused before the search"
  else bad "-o not writable (exit $rc)"; echo "$r"; fi
fi
: >"$tmp/afile"
r=$(run -S dfs -q -tc tcSingleClient -o "$tmp/afile/out" $cs 2>&1); rc=$?
if [ "$rc" -eq 2 ] && echo "$r" | grep -q "cannot write into the output folder '$tmp/afile/out'" && ! echo "$r" | grep -q '^result:'; then
  ok "-o under a file: refused before the search"
else bad "-o under a file (exit $rc)"; echo "$r"; fi
r=$(run -S dfs -q -tc tcSingleClient -o "$tmp/o" --stats-json "$tmp/nodir/x.json" $cs 2>&1); rc=$?
if [ "$rc" -eq 2 ] && echo "$r" | grep -q "cannot write the --stats-json file '$tmp/nodir/x.json'" && ! echo "$r" | grep -q '^result:'; then
  ok "--stats-json not writable: refused before the search"
else bad "--stats-json not writable (exit $rc)"; echo "$r"; fi

# 8. Progress and -q.  Off a terminal, a line every 30 s by default: a run
# of 33 s in the background while the rest goes on (its one line, at 30 s).
run -S random --timeout 33 -o "$tmp/o30" "$tmp/big.p" >/dev/null 2>"$tmp/p30" &
p30=$!
r=$(run -S dfs --timeout 3 --progress=0.5 -o "$tmp/o" "$tmp/big.p" 2>&1 >/dev/null)
# dfs on a chain of unknown length: no work fraction, the time to the timeout.
if echo "$r" | grep -Eq '^progress: [0-9.]+s: timeout in [0-9.]+s, [0-9]+ states, [0-9]+ states/s' && ! echo "$r" | grep -q '%'; then
  ok "--progress: lines with the time to the --timeout, never as a percentage of work"
else bad "--progress"; echo "$r" | head -n 3; fi
r=$(run -S random --schedules 60 --progress=0.5 -o "$tmp/o" "$tmp/big.p" 2>&1 >/dev/null)
if echo "$r" | grep -Eq '^progress: [0-9.]+s: [0-9]+% done, ETA [0-9.]+s, [0-9]+ of ~[^ ]+ executions'; then
  ok "--progress: the share of --schedules run, as work done, with an ETA"
else bad "--progress with --schedules"; echo "$r" | head -n 3; fi
r=$(run -S dfs --timeout 0.5 -o "$tmp/o" "$tmp/big.p" 2>&1 >/dev/null)
if [ -z "$r" ]; then ok "no progress line on a pipe in a run's first 30 s"; else bad "progress before 30 s"; echo "$r" | head -n 2; fi
r=$(run -S dfs --timeout 1.5 --progress=0.5 --no-progress -o "$tmp/o" "$tmp/big.p" 2>&1 >/dev/null)
if [ -z "$r" ]; then ok "--no-progress: none"; else bad "--no-progress"; echo "$r" | head -n 2; fi
wait "$p30"
if [ "$(grep -c '^progress: 3[0-2]s: timeout in [0-3][.0-9]*s, ' "$tmp/p30")" -eq 1 ] && [ "$(grep -c '^progress: ' "$tmp/p30")" -eq 1 ]; then
  ok "off a terminal without --progress: one line at 30 s"
else bad "default progress lines off a terminal"; cat "$tmp/p30"; fi
a=$(run -S ses -tc tcSingleClient -o "$tmp/o" $cs 2>/dev/null | grep -c '^ses: delay bound')
b=$(run -S ses -q -tc tcSingleClient -o "$tmp/o" $cs 2>/dev/null | grep -c '^ses: delay bound')
if [ "$a" -gt 0 ] && [ "$b" -eq 0 ]; then ok "-q hides the per-bound lines ($a without it)"
else bad "-q and per-bound lines ($a, $b)"; fi

# 9. Traces: step numbers, machine numbers, formats.
f=$tmp/f/tcBugLostUpdate
run -S dfs -q -tc tcBugLostUpdate --trace-format text,json,schedule -o "$tmp/f" $cs >/dev/null 2>&1
steps=$(grep -c '^[md] ' "$f.schedule")
if [ "$(grep -vc '^\[[0-9]*\] <' "$f.txt")" -eq 1 ] && grep -q "^\[$steps\] <ErrorLog>" "$f.txt"; then
  ok "every line of the text log carries its step ($steps steps)"
else bad "step numbers in the text log"; head -n 3 "$f.txt"; fi
if grep -q '^m 1 *# step 1: BugLostUpdate(1)$' "$f.schedule" && grep -q '^version: 2$' "$f.schedule" &&
   grep -q "# step $steps: " "$f.schedule" && grep -Eq '^d [0-9]+ *# step [0-9]+: [A-Za-z]+\([0-9]+\) chooses ' "$f.schedule"; then
  ok "the schedule: machines numbered as in the logs, step comments"
else bad "schedule comments"; sed -n 8,12p "$f.schedule"; fi
if grep -q '{"step": 1, "kind": "machine", "value": 1, "machine": "BugLostUpdate(1)"}' "$f.json" && grep -q '"version": 2' "$f.json"; then
  ok "the JSON: choices with steps and machine names"
else bad "JSON choices"; grep -m1 '"step": 1' "$f.json"; fi
# A version-1 schedule (machines from 0) still replays to the same bug.
{ echo "test: tcBugLostUpdate"; grep '^[md] ' "$f.schedule" | sed 's/ *#.*//' | awk '$1 == "m" { print "m", $2 - 1; next } { print }'; } >"$tmp/v1.schedule"
a=$(run --replay "$f.schedule" $cs 2>&1 | grep '^bug: ')
b=$(run --replay "$tmp/v1.schedule" $cs 2>&1 | grep '^bug: ')
if [ -n "$a" ] && [ "$a" = "$b" ]; then ok "a version-1 schedule replays alike"; else bad "version 1 schedule: '$a' vs '$b'"; fi
r=$(run --replay "$f.schedule" $cs 2>&1)
if echo "$r" | grep -q '^\[1\] <StateLog>'; then ok "--replay's log carries step numbers"; else bad "--replay log"; echo "$r" | head -n 2; fi
rm -rf "$tmp/rp"
r=$(run --replay "$f.json" --trace-format msc,dot,html -o "$tmp/rp" $cs 2>&1); rc=$?
if [ "$rc" -eq 1 ] && [ -s "$tmp/rp/tcBugLostUpdate.mmd" ] && [ -s "$tmp/rp/tcBugLostUpdate.dot" ] &&
   [ -s "$tmp/rp/tcBugLostUpdate.html" ] && [ "$(echo "$r" | grep -c '^wrote: ')" -eq 3 ]; then
  ok "--replay renders --trace-format into -o"
else bad "--replay rendering (exit $rc)"; echo "$r" | tail -n 4; fi
# Mermaid: what it cannot take is escaped, the bug is a note; DOT merges edges.
cat >"$tmp/esc.p" <<'P'
event eMsg: string;
machine Main {
  start state S {
    entry { send this, eMsg, "a;b#c<d"; send this, eMsg, "e"; }
    on eMsg do (s: string) { assert s != "e", "got e"; }
  }
}
P
run -S dfs -q --trace-format msc,dot -o "$tmp/esc" "$tmp/esc.p" >/dev/null 2>&1
m=$tmp/esc/Main.mmd
if grep -q 'a#59;b#35;c#lt;d' "$m" && ! grep -v '^ *%%' "$m" | grep -q 'a;b' && grep -q '^  Note over m0: bug at step [0-9]*: assertion failure' "$m"; then
  ok "Mermaid: ; # < escaped, the bug as a note"
else bad "Mermaid escaping"; cat "$m"; fi
if grep -q '^  rankdir=LR;' "$tmp/esc/Main.dot" && [ "$(grep -c '^  m0 -> m0 \[label="[0-9]*: eMsg\\n[0-9]*: eMsg"\];' "$tmp/esc/Main.dot")" -eq 1 ] &&
   grep -q 'bug \[shape=note, color=red' "$tmp/esc/Main.dot"; then ok "DOT: parallel edges merged, left to right, the bug highlighted"
else bad "DOT"; cat "$tmp/esc/Main.dot"; fi
run -S dfs -q --trace-format msc -o "$tmp/lasso" tests/liveness/fair_spin.p >/dev/null 2>&1
if grep -q '^  loop cycle: steps [0-9]* to [0-9]* repeat forever$' "$tmp/lasso/"*.mmd && grep -q '^  end$' "$tmp/lasso/"*.mmd; then
  ok "Mermaid: a lasso's cycle in a loop block"
else bad "Mermaid lasso"; cat "$tmp/lasso/"*.mmd; fi

# --list-searches: the registry, a line each; every name is a search -S
# takes and the man page describes; a capability decides an option's
# warning (the searches it acts on are named from the registry).
ls_out=$(run --list-searches 2>&1); rc=$?
names=$(echo "$ls_out" | awk '{print $1}')
if [ "$rc" -eq 0 ] && [ "$(echo "$names" | wc -l)" -eq 11 ] && echo "$ls_out" | grep -q '^portfolio  the default: ' &&
   echo "$ls_out" | awk 'NF < 4 { bad = 1 } END { exit bad }'; then ok "--list-searches prints every search with its summary"
else bad "--list-searches: rc $rc"; echo "$ls_out"; fi
missing=""
for s in $names; do
  run -S "$s" --check-only models/clientserver >/dev/null 2>&1 || missing="$missing -S:$s"
  grep -qF "\\fB$s\\fR" doc/pcheck.1 || missing="$missing man:$s"
done
[ -z "$missing" ] && ok "every listed search is accepted by -S and described in the man page" || bad "searches: $missing"
r=$(run -S dfs --pct-depth 3 -q --timeout 5 -tc tcSingleClient models/clientserver 2>&1)
echo "$r" | grep -q 'warning: --pct-depth has no effect on --search dfs (it acts on: pct portfolio)' &&
  ok "an option's warning names the searches with its capability" || bad "capability warning: $r"
r=$(run -S ses -j 2 --checkpoint "$tmp/ck" --timeout 1 -q -tc tcSingleClient models/clientserver 2>&1); rc=$?
r2=$(run -S dfs -j 2 --checkpoint "$tmp/ck" --timeout 1 -q -tc tcSingleClient models/clientserver 2>&1); rc2=$?
if [ "$rc" -ne 2 ] && [ "$rc2" -eq 2 ] && echo "$r2" | grep -q 'dfs checkpoints one stack: run it with -j 1'; then
  ok "--checkpoint with -j 2: refused for dfs only (its checkpoint holds one stack)"
else bad "checkpoint -j: ses rc $rc, dfs rc $rc2: $r2"; fi

# Every long name of options.def (checker/cli/options.def: its rows and
# aliases; the parser, --help and the warnings are made from it) is in
# --help and in the man page (where roff writes each - as \-).
run --help >"$tmp/help.txt" 2>&1
miss=""
names=$(grep -o '^ *\(OPT\|ALSO\|ACT\|STRATEGY\|ALIAS\)([A-Z_]*, *"[a-z-]*"' checker/cli/options.def | sed 's/.*"\([a-z-]*\)"/\1/'
        grep -o '^ *ALIAS("[a-z-]*"' checker/cli/options.def | sed 's/.*"\([a-z-]*\)"/\1/')
[ "$(echo "$names" | wc -l)" -gt 60 ] && ok "options.def has $(echo "$names" | wc -l) long names" || bad "options.def: only $(echo "$names" | wc -l) long names read"
for opt in $names nonexistent-probe; do
  roff=$(printf '%s' "--$opt" | sed 's/-/\\-/g')
  grep -qF -- "--$opt" "$tmp/help.txt" || miss="$miss help:--$opt"
  grep -qF -- "$roff" doc/pcheck.1 || miss="$miss man:--$opt"
done
if [ "$miss" = " help:--nonexistent-probe man:--nonexistent-probe" ]; then
  ok "every long option is in --help and in the man page (and the check sees one that is not)"
else bad "options missing:$miss"; fi

# What options.def makes besides the parser: the defaults --help prints
# are those the run uses (--stats-json's options), and a checkpoint's
# options text has every option that shapes the search (a resume that
# changes them is refused, each named).
run -S pct -s 1 --seed 1 -q --stats-json "$tmp/def.json" -tc tcSingleClient -o "$tmp/def" models/clientserver >/dev/null 2>&1
h_steps=$(sed -n 's/.*the fair ones; default \([0-9]*\) and.*/\1/p' "$tmp/help.txt")
j_steps=$(sed -n 's/.*"max_steps": \([0-9]*\).*/\1/p' "$tmp/def.json")
h_jobs=$(sed -n 's/.*worker threads (default \([0-9]*\)).*/\1/p' "$tmp/help.txt")
j_jobs=$(sed -n 's/.*"jobs": \([0-9]*\).*/\1/p' "$tmp/def.json")
if [ -n "$h_steps" ] && [ "$h_steps" = "$j_steps" ] && [ -n "$h_jobs" ] && [ "$h_jobs" = "$j_jobs" ] &&
   grep -q -- '--pct-depth D      pct: bug depth, D-1 priority change points (default 3)$' "$tmp/help.txt"; then
  ok "--help's defaults are the run's (max-steps $h_steps, jobs $h_jobs)"
else bad "--help's defaults: max-steps '$h_steps' against '$j_steps', jobs '$h_jobs' against '$j_jobs'"; fi
run -S bfs --no-reduction --checkpoint "$tmp/opt.ck" --timeout 0.5 -q -tc tcTwoProposers -o "$tmp/ck" models/paxos >/dev/null 2>&1
r=$(run --resume "$tmp/opt.ck" --max-inbox 5 --cache judy --ss-c2 3 -q -o "$tmp/ck" models/paxos 2>&1); rc=$?
if [ ! -f "$tmp/opt.ck" ]; then bad "no checkpoint written after --timeout 0.5"
elif [ "$rc" -eq 2 ] && echo "$r" | grep -q 'max-inbox: 1000 in the checkpoint, 5 now' &&
   echo "$r" | grep -q 'cache: flat in the checkpoint, judy now' && echo "$r" | grep -q 'ss-c2: 10 in the checkpoint, 3 now' &&
   echo "$r" | grep -q 'reduction: off in the checkpoint, on now'; then
  ok "a resume with other options is refused, each named (the checkpoint's text from options.def)"
else bad "resume with other options: rc $rc: $r"; fi

echo "# passed: $pass failed: $fail"
[ "$fail" -eq 0 ]
