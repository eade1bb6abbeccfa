#!/bin/sh
# coverage.sh: what a search exercised (issue 16, doc/coverage.md).
# - the report of tests/coverage/store.p (every kind of point: a handler
#   and a receive case that cannot run, a state never entered, asserts
#   never evaluated, deferred and ignored events, a spec) is exactly
#   tests/coverage/store.coverage.txt, and its summary line says what
#   never ran with its place;
# - every search that covers the model gives the same summary; the
#   partial-order reduction and threads do not change a complete search's
#   report (compared with the plain way on protocol models);
# - reports merge (--coverage-merge): two tests each running one handler
#   merge to both run; a report merged alone is the same file; merging is
#   idempotent;
# - the figures reach --stats-json; a bug run still reports coverage;
# - bad reports (missing, not JSON, not a coverage report, truncated,
#   wrong fields) are refused with the file's name and exit 2.
. "${srcdir:-.}/tests/lib.sh"
store=tests/coverage/store.p
two=tests/coverage/two.p

# 1. The report of store.p, and its summary.
out=$(run -S dfs --coverage -o "$tmp/s" $store 2>&1); rc=$?
if [ "$rc" -eq 0 ] && cmp -s "$tmp/s/tcStore.coverage.txt" tests/coverage/store.coverage.txt; then
  ok "store.p: the text report is the expected one"
else bad "store.p report (exit $rc)"; diff tests/coverage/store.coverage.txt "$tmp/s/tcStore.coverage.txt" | head -n 20; fi
want='coverage: 7/8 states, 6/11 handlers, 1/4 asserts; never run: Store.Open on eNever (store.p:23), Store.Closing on eWrite (store.p:27), Watch.Closed on eClose (store.p:58) and 6 more (--coverage lists them)'
if echo "$out" | grep -qxF "$want"; then ok "store.p: the summary names what never ran, with places"
else bad "store.p summary"; echo "$out" | grep coverage; fi
if echo "$out" | grep -q '^result: no-bug (complete)$' && echo "$out" | grep -qx "wrote: $tmp/s/tcStore.coverage.txt" &&
   echo "$out" | grep -qx "wrote: $tmp/s/tcStore.coverage.json" && ! echo "$out" | grep -q '^trace:'; then
  ok "--coverage: both files listed as written, no trace line"
else bad "--coverage lines"; echo "$out"; fi
for line in "Total event coverage: 55.6%" "StateMachine: Store" "Monitor: Watch" "		Events deferred: eFlush" \
            "		Events ignored: eNoise, eWrite" "		Events not covered: eNever" "	State: Closed is uncovered" \
            "	eNever in Writer.Init.entry (tests/coverage/store.p:45)" "	assert in Store.Broken.entry (tests/coverage/store.p:35)"; do
  if grep -qxF "$line" "$tmp/s/tcStore.coverage.txt"; then ok "report line: $line"
  else bad "report lacks: $line"; fi
done
if grep -q '"name": "Broken", "file": "tests/coverage/store.p", "line": 34, "col": 9, "entered": false' "$tmp/s/tcStore.coverage.json" &&
   grep -q '"event": "eFlush", "handler": "defer", "file": "tests/coverage/store.p", "line": 19, "col": 5, "handled": false, "received": false, "deferred": true' "$tmp/s/tcStore.coverage.json"; then
  ok "JSON: a state never entered, a deferred event, with places"
else bad "JSON report"; head -n 30 "$tmp/s/tcStore.coverage.json"; fi

# 2. Every search that covers store.p agrees; reduction and threads change nothing.
ref=$(run -S dfs --no-reduction $store 2>&1 | grep '^coverage:')
for s in "dfs" "bfs" "bfs -j 2" "ses" "pb" "random --seed 1 --schedules 2000" "pct --seed 1 --schedules 2000" \
         "ss --seed 2 --schedules 3000" "irs --seed 1 --schedules 500" "portfolio --seed 1"; do
  # shellcheck disable=SC2086
  got=$(run -S $s $store 2>&1 | grep '^coverage:')
  if [ -n "$ref" ] && [ "$got" = "$ref" ]; then ok "store.p: -S $s gives the same coverage"
  else bad "store.p -S $s: '$got' against '$ref'"; fi
done
for m in "clientserver tcMultipleClients" "paxos tcThriftyOneRound" "twophase tcOneClientTwoParticipants" "german tcTwoCaches"; do
  set -- $m
  run -q -S dfs --coverage -o "$tmp/r" -tc "$2" "models/$1" >/dev/null 2>&1
  run -q -S dfs --no-reduction --coverage -o "$tmp/p" -tc "$2" "models/$1" >/dev/null 2>&1
  run -q -S bfs -j 2 --coverage -o "$tmp/j" -tc "$2" "models/$1" >/dev/null 2>&1
  if [ -s "$tmp/p/$2.coverage.json" ] && cmp -s "$tmp/r/$2.coverage.json" "$tmp/p/$2.coverage.json" &&
     cmp -s "$tmp/j/$2.coverage.json" "$tmp/p/$2.coverage.json"; then
    ok "$1 $2: dfs with the reduction and bfs -j 2 report what plain dfs reports"
  else bad "$1 $2: reports differ"; diff "$tmp/r/$2.coverage.json" "$tmp/p/$2.coverage.json" | head -n 10; fi
done

# 3. Merging.
a=$(run -S dfs -tc tcA --coverage -o "$tmp/m" $two 2>&1 | grep '^coverage:')
b=$(run -S dfs -tc tcB --coverage -o "$tmp/m" $two 2>&1 | grep '^coverage:')
m=$(run --coverage-merge "$tmp/m/tcA.coverage.json" "$tmp/m/tcB.coverage.json" -o "$tmp/m" 2>&1); rc=$?
case $a in "coverage: 2/3 states, 1/2 handlers, 1/1 asserts; never run: Server.Serve on eB (two.p:9), state Server.Done (two.p:11)") ok "tcA runs one handler" ;; *) bad "tcA: $a" ;; esac
case $b in "coverage: 3/3 states, 1/2 handlers, 0/1 asserts; never run: Server.Serve on eA (two.p:8), assert in Server.Serve.on.eA (two.p:8)") ok "tcB runs the other" ;; *) bad "tcB: $b" ;; esac
if [ "$rc" -eq 0 ] && echo "$m" | grep -qx 'coverage: 4/4 states, 2/2 handlers, 1/1 asserts' &&
   echo "$m" | grep -qx 'merged: 2 reports (tests: tcA tcB)' && echo "$m" | grep -qx "wrote: $tmp/m/merged.coverage.json"; then
  ok "--coverage-merge: the union of both tests"
else bad "merge (exit $rc)"; echo "$m"; fi
run --coverage-merge "$tmp/s/tcStore.coverage.json" -o "$tmp/one" >/dev/null 2>&1
if cmp -s "$tmp/one/merged.coverage.json" "$tmp/s/tcStore.coverage.json" && cmp -s "$tmp/one/merged.coverage.txt" "$tmp/s/tcStore.coverage.txt"; then
  ok "a report merged alone is the same report"
else bad "merge of one report"; diff "$tmp/s/tcStore.coverage.json" "$tmp/one/merged.coverage.json" | head; fi
run --coverage-merge "$tmp/m/merged.coverage.json" "$tmp/m/merged.coverage.json" "$tmp/m/tcA.coverage.json" -o "$tmp/twice" >/dev/null 2>&1
if cmp -s "$tmp/twice/merged.coverage.json" "$tmp/m/merged.coverage.json"; then ok "merging is idempotent"
else bad "merge twice"; diff "$tmp/m/merged.coverage.json" "$tmp/twice/merged.coverage.json" | head; fi

# A report whose second machine (or a state's second event) lacks its
# name is refused with a message, not read (it crashed the sort).
sed 's/{"name": "SendB", /{/' "$tmp/m/tcA.coverage.json" >"$tmp/m/noname.json"
sed 's/{"event": "eB", "handler": "goto"/{"handler": "goto"/' "$tmp/m/tcB.coverage.json" >"$tmp/m/noevent.json"
for f in noname noevent; do
  out=$(run --coverage-merge "$tmp/m/$f.json" -o "$tmp/bad" 2>&1); rc=$?
  if [ "$rc" -eq 2 ] && echo "$out" | grep -q "error: .*$f.json"; then ok "--coverage-merge: a report with a nameless entry ($f) is refused"
  else bad "--coverage-merge $f (exit $rc)"; echo "$out"; fi
done

# 4. Schedule coverage (Bita's example, tests/coverage/writer.p).
w=tests/coverage/writer.p
out=$(run -S random --seed 1 --schedules 500 --coverage -o "$tmp/w" $w 2>&1)
if echo "$out" | grep -qx 'schedule coverage: PR 6/6 goals, PCR 6/6, PBR 4/4' &&
   grep -qx '	Writer: PR 6/6, PCR 6/6, PBR 4/4' "$tmp/w/Main.coverage.txt"; then
  ok "writer: random executions cover every PR, PCR and PBR goal"
else bad "writer schedule coverage"; echo "$out"; fi
for s in "pct --seed 1 --schedules 500" "irs --seed 1 --schedules 200" "ss --seed 1 --schedules 2000" "portfolio --seed 1"; do
  # shellcheck disable=SC2086
  got=$(run -S $s --coverage -o "$tmp/w2" $w 2>&1 | grep '^schedule coverage')
  case $got in "schedule coverage: PR "[1-6]/6" goals, PCR "*", PBR "*) ok "writer: -S $s measures schedule coverage ($got)" ;;
    *) bad "writer -S $s: '$got'" ;; esac
done
out=$(run -S dfs --coverage -o "$tmp/w3" $w 2>&1)
if echo "$out" | grep -q '^schedule coverage: not measured (it needs executions'; then ok "dfs: schedule coverage not measured, said so"
else bad "dfs schedule coverage"; echo "$out"; fi
run -S random --seed 1 --schedules 1 --coverage -o "$tmp/w4" $w >/dev/null 2>&1
run -S random --seed 7 --schedules 1 --coverage -o "$tmp/w5" $w >/dev/null 2>&1
one=$(run --coverage-merge "$tmp/w4/Main.coverage.json" -o "$tmp/w6" 2>&1 | grep '^schedule coverage')
both=$(run --coverage-merge "$tmp/w4/Main.coverage.json" "$tmp/w5/Main.coverage.json" "$tmp/w/Main.coverage.json" -o "$tmp/w6" 2>&1 | grep '^schedule coverage')
if [ "$one" = "schedule coverage: PR 3/6 goals, PCR 2/4, PBR 2/4" ] && [ "$both" = "schedule coverage: PR 6/6 goals, PCR 6/6, PBR 4/4" ]; then
  ok "merged reports keep and unite the schedule goals"
else bad "schedule merge: '$one' / '$both'"; fi

# 5. Stats, bugs.
run -S dfs --stats-json "$tmp/st.json" -o "$tmp/st" $store >/dev/null 2>&1
if grep -q '"coverage": {"states": 8, "states_entered": 7, "handlers": 11, "handlers_run": 6, "asserts": 4, "asserts_evaluated": 1}' "$tmp/st.json"; then
  ok "--stats-json has the coverage figures"
else bad "stats coverage"; grep coverage "$tmp/st.json"; fi
out=$(run -S dfs -q -tc tcBugLostUpdate -o "$tmp/bug" models/clientserver 2>&1); rc=$?
if [ "$rc" -eq 1 ] && echo "$out" | grep -q '^coverage: [0-9]*/[0-9]* states' && echo "$out" | grep -qx "trace: $tmp/bug/tcBugLostUpdate.txt"; then
  ok "a run that finds a bug reports coverage and its trace"
else bad "bug run (exit $rc)"; echo "$out"; fi

# 6. --no-coverage collects none; with --coverage it is a usage error.
out=$(run -S dfs --no-coverage $store 2>&1); rc=$?
if [ "$rc" -eq 0 ] && ! echo "$out" | grep -q '^coverage'; then ok "--no-coverage: no summary line"
else bad "--no-coverage (exit $rc)"; echo "$out"; fi
r=$(run --coverage --no-coverage $store 2>&1); rc=$?
if [ "$rc" -eq 2 ] && echo "$r" | grep -q 'contradict'; then ok "--coverage with --no-coverage refused"
else bad "--coverage --no-coverage (exit $rc)"; fi

# 7. Bad reports.
printf 'not json' >"$tmp/bad1.json"
printf '{"format": "pcheck-stats", "version": 1}' >"$tmp/bad2.json"
head -c 300 "$tmp/s/tcStore.coverage.json" >"$tmp/bad3.json"
sed 's/"entered": true/"entered": 3/' "$tmp/s/tcStore.coverage.json" >"$tmp/bad4.json"
sed 's/"version": 1/"version": 7/' "$tmp/s/tcStore.coverage.json" >"$tmp/bad5.json"
for c in "$tmp/none.json|cannot read '$tmp/none.json'" "$tmp/bad1.json|$tmp/bad1.json: not a pcheck coverage report" \
         "$tmp/bad2.json|$tmp/bad2.json: not a pcheck coverage report: it has no \"format\": \"pcheck-coverage\"" \
         "$tmp/bad3.json|$tmp/bad3.json: not a pcheck coverage report" \
         "$tmp/bad4.json|$tmp/bad4.json: not a pcheck coverage report: a state lacks a valid \"entered\"" \
         "$tmp/bad5.json|$tmp/bad5.json: not a pcheck coverage report: the file has a version this pcheck does not read (it reads 1)"; do
  f=${c%%|*} msg=${c#*|}
  r=$(run --coverage-merge "$tmp/s/tcStore.coverage.json" "$f" -o "$tmp/bad" 2>&1); rc=$?
  if [ "$rc" -eq 2 ] && echo "$r" | grep -qF "pcheck: error: $msg" && [ ! -e "$tmp/bad/merged.coverage.json" ]; then
    ok "refused: $(basename "$f")"
  else bad "bad report $f (exit $rc)"; echo "$r"; fi
done
r=$(run --coverage-merge 2>&1); rc=$?
if [ "$rc" -eq 2 ] && echo "$r" | grep -q 'needs the coverage reports'; then ok "--coverage-merge without files"
else bad "--coverage-merge alone (exit $rc)"; echo "$r"; fi

echo "# passed: $pass failed: $fail"
[ "$fail" -eq 0 ]
