#!/bin/sh
# limits.sh: models that grow without end or loop inside a step, under
# every search (tests/golden/limits holds one golden run of each):
# - a handler that never finishes is a bug ("endless step", exit 1) placed
#   in its loop, with a trace that replays to it;
# - a send past --max-inbox is a bug ("inbox overflow", exit 1) with
#   --inbox-overflow-is-bug, else a bound as the three below (issue 42: P's
#   inboxes have no bound);
# - a State past --max-machines, --max-collection or --max-state-bytes is
#   no bug but a bound: "limit: ..." and "result: no-bug (bounded: limit
#   reached: ...)", exit 0 (4 with --fail-on-incomplete), and the way
#   there in TEST.limit.schedule, which replays to the limit under the
#   limits it records (`limits:`);
# - --timeout ends every search within seconds, however long its steps;
# - the defaults leave the models of models/ alone (their recorded
#   verdicts hold: models_expected.sh), and a limit of 0 is none;
# - bad values are refused with exit 2.
. "${srcdir:-.}/tests/lib.sh"
L=tests/golden/limits

# Bugs: endless steps and full inboxes, every search.
for s in dfs bfs ses ss random pct pb irs portfolio; do
  for c in "endless.p --max-step-instructions 20000:endless step at $L/endless.p:\\(9\\|10\\|11\\):" \
           "endless_goto.p --max-step-instructions 20000:endless step at $L/endless_goto.p:1[14]:" \
           "inbox.p --max-inbox 4 --inbox-overflow-is-bug:inbox overflow at $L/inbox.p:19:"; do
    args=${c%%:*} want=${c#*:}
    rm -rf "$tmp/o"
    # shellcheck disable=SC2086
    r=$(run -S $s --seed 1 --timeout 20 -o "$tmp/o" $L/$args 2>&1)
    rc=$?
    rr=$(run --replay "$tmp/o/Main.schedule" $L/${args%% *} ${args#* } 2>&1)
    if [ $rc -eq 1 ] && echo "$r" | grep -q "^bug: $want" && echo "$rr" | grep -q "^bug: $want"; then
      ok "-S $s $args: '$(echo "$want" | cut -d' ' -f1-2)', replayed"
    else bad "-S $s $args: exit $rc"; echo "$r" | tail -n 5; echo "$rr" | tail -n 2; fi
  done
done

# Bounds: machines, collections, State bytes, every search.
for s in dfs bfs ses ss random pct pb irs portfolio; do
  for c in "machines.p --max-machines 12:more than 12 machines" \
           "growseq.p --max-collection 30:a seq would hold more than 30 elements" \
           "statebytes.p --max-state-bytes 1500:past --max-state-bytes 1500" \
           "inbox.p --max-inbox 4:the inbox of 'Consumer(2)' hold more than 4 events (--max-inbox: a bound of pcheck's"; do
    args=${c%%:*} want=${c#*:}
    rm -rf "$tmp/o"
    # shellcheck disable=SC2086
    r=$(run -S $s --seed 1 --timeout 20 -o "$tmp/o" $L/$args 2>&1)
    rc=$?
    rr=$(run --replay "$tmp/o/Main.limit.schedule" $L/${args%% *} 2>&1)
    rrc=$?
    if [ $rc -eq 0 ] && echo "$r" | grep -q "^limit: .*$want" &&
       echo "$r" | grep -q "^result: no-bug (bounded: limit reached: .*$want" &&
       [ $rrc -eq 0 ] && echo "$rr" | grep -q "^limit: .*$want" && echo "$rr" | grep -q '^result: no-bug (the trace ran to a limit'; then
      ok "-S $s $args: bounded, the way there replays to the limit"
    else bad "-S $s $args: exit $rc, replay exit $rrc"; echo "$r" | tail -n 6; echo "$rr" | tail -n 2; fi
  done
done

# --fail-on-incomplete makes a bound exit 4; a limit of 0 is none.
r=$(run -S dfs --max-collection 30 --fail-on-incomplete -o "$tmp/o" $L/growseq.p 2>&1)
if [ $? -eq 4 ]; then ok "a limit with --fail-on-incomplete: exit 4"; else bad "a limit with --fail-on-incomplete"; fi
r=$(run -S random --seed 1 --schedules 1 --max-steps 300 --max-collection 0 --max-state-bytes 0 -o "$tmp/o" $L/growseq.p 2>&1)
if [ $? -eq 0 ] && ! echo "$r" | grep -q '^limit:' && echo "$r" | grep -q '^result: no-bug'; then ok "limits of 0 are none"
else bad "limits of 0"; echo "$r" | tail -n 3; fi
# The defaults: a deep seq is fine well below them.
r=$(run -S random --seed 1 --schedules 1 --max-steps 2000 -o "$tmp/o" $L/growseq.p 2>&1)
if [ $? -eq 0 ] && ! echo "$r" | grep -q '^limit:'; then ok "the default limits leave 2000 appends alone"
else bad "default limits on growseq"; echo "$r" | tail -n 3; fi
# The replay takes the options given over the trace's limits.
rm -rf "$tmp/o"
run -S dfs --max-collection 30 -o "$tmp/o" $L/growseq.p >/dev/null 2>&1
r=$(run --replay "$tmp/o/Main.limit.schedule" --max-collection 0 $L/growseq.p 2>&1)
if [ $? -eq 0 ] && echo "$r" | grep -q '^result: no-bug (the trace ran to its end'; then ok "--replay with --max-collection 0 runs past the recorded limit"
else bad "--replay with the limit lifted"; echo "$r" | tail -n 2; fi

# Bad values.
for a in "--max-inbox -1" "--max-inbox x" "--max-machines 5000000000" "--max-state-bytes 12Q" "--max-step-instructions 1e3"; do
  # shellcheck disable=SC2086
  r=$(run $a -o "$tmp/o" $L/growseq.p 2>&1)
  if [ $? -eq 2 ] && echo "$r" | grep -q "^pcheck: error: ${a%% *} needs"; then ok "$a: refused"
  else bad "$a: not refused as it should be"; echo "$r" | head -n 2; fi
done
printf 'version: 2\ntest: Main\nlimits: 1 2 3\nm 1\n' >"$tmp/bad.schedule"
r=$(run --replay "$tmp/bad.schedule" $L/growseq.p 2>&1)
if [ $? -eq 2 ] && echo "$r" | grep -q "bad.schedule:3: expected 'limits:' and 5 counts"; then ok "a malformed limits: line is refused with its place"
else bad "a malformed limits: line"; echo "$r" | head -n 2; fi

# A --timeout is kept within an execution too: one execution of the
# growing inbox would run 200,000 steps (a minute and more); stopped at 1 s,
# each sampling search ends well within the generous bound below.
for s in random pct; do
  t0=$(date +%s)
  r=$(run -q -S $s --seed 1 --max-inbox 0 --max-steps 200000 --timeout 1 -o "$tmp/o" $L/growinbox.p 2>&1)
  rc=$? t1=$(date +%s)
  if [ $rc -eq 0 ] && [ $((t1 - t0)) -le 20 ] && echo "$r" | grep -q '^result: no-bug (bounded: timeout'; then
    ok "-S $s: --timeout 1 stops an execution of 200,000 steps ($((t1 - t0)) s)"
  else bad "-S $s: --timeout 1 took $((t1 - t0)) s, exit $rc"; echo "$r" | tail -n 3; fi
done

# A --timeout is kept however long the steps are (issue 42): every search,
# and the estimate's walks at its end, on a model whose steps each run a
# few million instructions; a search that looked at the clock only every
# thousand steps (a minute of them here) ran minutes past it.  The bound
# leaves room for a slow (sanitizer) build: one step, the final estimate.
for s in dfs bfs ses ss pb random pct irs bita guided portfolio; do
  t0=$(date +%s)
  r=$(run -q -S $s --seed 1 --timeout 1 -o "$tmp/o" $L/slowstep.p 2>&1)
  rc=$? t1=$(date +%s)
  if [ $rc -eq 0 ] && [ $((t1 - t0)) -le 6 ] && echo "$r" | grep -q '^result: no-bug (bounded: timeout'; then
    ok "-S $s: --timeout 1 with steps of millions of instructions ends in $((t1 - t0)) s"
  else bad "-S $s: --timeout 1 with slow steps took $((t1 - t0)) s, exit $rc"; echo "$r" | tail -n 3; fi
done

echo "# passed: $pass failed: $fail"
[ "$fail" -eq 0 ]
