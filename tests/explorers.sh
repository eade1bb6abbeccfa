#!/bin/sh
# explorers.sh: delaying explorers, stratified exhaustive search (ses) and
# stratified sampling (ss).
# - ses with no delay bound visits exactly the states dfs visits, for rr,
#   rtc and prr, on every correct model of the suite small enough to finish;
# - the native twins of rr, rtc and prr make exactly the choices of their
#   .p originals in stdlib/ (--explorer-twin-check) on every model;
# - a bug that needs exactly k delays under rr is found at delay bound k,
#   not before, and --max-delays k-1 ends bounded;
# - ss gives the same samples on 1 and 2 threads, and its samples at delay
#   bound 1 spread evenly over the delay positions (chi-square);
# - a custom explorer reorders machines when the model announces an event;
#   chain replication's own explorer finds its neighbouring-failures bug
#   with no delay, in fewer states than rr, rtc and prr;
# - unsound and failing explorers are reported, with the state;
# - the frontier falls back to re-execution when it outgrows its memory;
# - ses and ss traces replay to the same bug.
. "${srcdir:-.}/tests/lib.sh"
: "${PCHECK_STDLIB:=$PWD/stdlib}"
export PCHECK_STDLIB
notime() { sed -e 's/time: [0-9.]*$/time: T/' -e 's/, [0-9.]* s$/, T s/'; }

# Correct models and test cases that dfs finishes here, as "INPUT TEST".
cases() {
  echo "models/clientserver tcSingleClient"
  [ "${EXPLORERS_MAX_STATES:-200000}" -ge 407603 ] && echo "models/clientserver tcMultipleClients"
  echo "models/twophase_n tcTwoPhase___N_3"
  for f in tests/golden/accept/*.p tests/golden/search/sum_choices.p tests/golden/search/two_workers.p; do
    t=$("$PCHECK" --list-tests "$f" 2>/dev/null | head -n 1)
    [ -n "$t" ] && echo "$f $t"
  done
  # the correct tests of the protocol models, up to EXPLORERS_MAX_STATES
  # states (default 200,000; build.sh lowers it for the sanitizer build)
  for f in models/*/expected.txt; do
    [ -f "$f" ] || continue
    awk -F'\t' -v m="${f%/expected.txt}" -v max="${EXPLORERS_MAX_STATES:-200000}" \
      '$1 !~ /^#/ && $2 == "no-bug" && $3 + 0 <= max + 0 { print m, $1 }' "$f"
  done
}

# 1. ses = dfs for rr, rtc, prr; 2. twins make the same choices.
cases >"$tmp/cases"
while read -r in t; do
  share_mine || continue
  d=$(run --search dfs --no-reduction --mem 1G -q -tc "$t" -o "$tmp/o" "$in" 2>&1)
  [ $? -eq 0 ] || continue   # a bug: searches stop at different points
  ds=$(echo "$d" | field states)
  for e in rr rtc prr; do
    s=$(run --search ses --no-reduction --explorer "$e" --mem 1G -q -tc "$t" -o "$tmp/o" "$in" 2>&1)
    sc=$? ss=$(echo "$s" | field states)
    if [ "$sc" -eq 0 ] && [ "$ss" = "$ds" ] && echo "$s" | grep -q '^result: no-bug (complete)'; then
      ok "ses $e = dfs = $ds states: $in -tc $t"
    else bad "ses $e ($ss, exit $sc) and dfs ($ds) differ on $in -tc $t"; echo "$s" | tail -n 3; fi
  done
done <"$tmp/cases"

for spec in "models/clientserver tcSingleClient" "models/clientserver tcMultipleClients" \
            "models/twophase_n tcTwoPhase___N_3" "models/twophase tcSingleClientNoFailure" \
            "models/twophase tcMultipleClientsWithFailure" "models/paxos tcTwoProposers" \
            "models/failuredetector tcTest_FailureDetector" "tests/explorers/delays.p tcDelays___K_3" \
            "tests/explorers/announce.p Main" "models/chainreplication tcTwoClients" \
            "models/multipaxos tcOneFailover" "models/txmanager tcOneTx" "models/devicedriver tcTwoTransfers" \
            "models/german tcThreeCaches" "models/leaderelection tcRing4"; do
  in=${spec% *} t=${spec#* }
  for e in rr rtc prr; do
    s=$(run --search ses --explorer "$e" --explorer-twin-check --max-delays 2 --timeout 5 --mem 1G -q -tc "$t" \
        -o "$tmp/o" "$in" 2>&1)
    sc=$?
    if [ "$sc" -le 1 ] && ! echo "$s" | grep -q 'native twin'; then ok "ses: $e and its twin agree on $in -tc $t"
    else bad "ses: $e and its twin differ on $in -tc $t (exit $sc)"; echo "$s" | tail -n 3; fi
  done
  s=$(run --search ss --explorer prr --explorer-twin-check --max-delays 2 --ss-c1 20 --ss-c2 5 --timeout 5 -q -tc "$t" \
      -o "$tmp/o" "$in" 2>&1)
  sc=$?
  if [ "$sc" -le 1 ] && ! echo "$s" | grep -q 'native twin'; then ok "ss: prr and its twin agree on $in -tc $t"
  else bad "ss: prr and its twin differ on $in -tc $t (exit $sc)"; echo "$s" | tail -n 3; fi
done

# A twin that differs is caught: an explorer named rr that is not round robin.
cat >"$tmp/rr.p" <<'EOF'
explorer rr {
  var order: seq[machine];
  var last: machine;
  fun OnCreate(m: machine) { order += (0, m); }
  fun Next(enabled: set[machine]) : machine {
    var i: int;
    var m: machine;
    while (i < sizeof(order)) { if (order[i] in enabled) { last = order[i]; return last; } i = i + 1; }
    foreach (m in enabled) { last = m; break; }
    return last;
  }
  fun Delay() {
    var i: int;
    while (i < sizeof(order)) { if (order[i] == last) { order -= (i); order += (sizeof(order), last); return; } i = i + 1; }
  }
}
EOF
s=$(PCHECK_STDLIB=$tmp run --search ses --no-reduction --explorer rr --explorer-twin-check -q -tc tcDelays___K_2 -o "$tmp/o" \
    tests/explorers/delays.p 2>&1)
sc=$?
if [ "$sc" -eq 3 ] && echo "$s" | grep -q "chose .* but its native twin chose"; then ok "a twin that differs is reported"
else bad "a differing twin is not reported (exit $sc)"; echo "$s" | tail -n 3; fi

# 3. A bug that needs exactly k delays under rr.
for k in 0 1 2 3; do
  s=$(run --search ses --no-reduction --explorer rr -tc "tcDelays___K_$k" -o "$tmp/d$k" tests/explorers/delays.p 2>/dev/null)
  sc=$?
  lines=$(echo "$s" | grep -c '^ses: delay bound [0-9]*:')
  if [ "$sc" -eq 1 ] && echo "$s" | grep -q "^ses: bug found at delay bound $k after" && [ "$lines" -eq "$k" ] &&
     echo "$s" | grep -q '^states: .* delays: '"$k"' '; then ok "ses rr finds the $k-delay bug at bound $k"
  else bad "ses rr and the $k-delay bug (exit $sc, $lines complete strata)"; echo "$s" | tail -n 5; fi
  r=$(run --replay "$tmp/d$k/tcDelays___K_$k.schedule" tests/explorers/delays.p 2>&1)
  if [ $? -eq 1 ] && echo "$r" | grep -q "the first hello came from sender $((k + 1))"; then ok "its trace replays (k=$k)"
  else bad "the $k-delay trace does not replay"; echo "$r" | tail -n 3; fi
  if [ "$k" -gt 0 ]; then
    s=$(run --search ses --no-reduction --explorer rr --max-delays $((k - 1)) -q -tc "tcDelays___K_$k" -o "$tmp/o" tests/explorers/delays.p 2>&1)
    sc=$?
    if [ "$sc" -eq 0 ] && echo "$s" | grep -q "^result: no-bug (bounded: delay bound $((k - 1)) reached"; then
      ok "--max-delays $((k - 1)) stops before the $k-delay bug"
    else bad "--max-delays $((k - 1)) and the $k-delay bug (exit $sc)"; echo "$s" | tail -n 3; fi
  fi
  s=$(run --search ss --explorer rr --seed 7 -q -tc "tcDelays___K_$k" -o "$tmp/s$k" tests/explorers/delays.p 2>&1)
  sc=$?
  if [ "$sc" -eq 1 ] && echo "$s" | grep -q "^ss: bug found at delay bound $k after"; then ok "ss rr finds the $k-delay bug at bound $k"
  else bad "ss rr and the $k-delay bug (exit $sc)"; echo "$s" | tail -n 4; fi
  r=$(run --replay "$tmp/s$k/tcDelays___K_$k.json" tests/explorers/delays.p 2>&1)
  if [ $? -eq 1 ]; then ok "the ss trace replays (k=$k)"; else bad "the ss trace does not replay (k=$k)"; fi
done

# 4. ss: the same samples on 1 and 2 threads, with a bug and without.
for spec in "rr tests/explorers/delays.p tcDelays___K_2" "prr models/clientserver tcSingleClient"; do
  e=${spec%% *} spec=${spec#* }
  in=${spec% *} t=${spec#* }
  a=$(run --search ss --explorer "$e" --seed 11 --max-delays 2 --ss-c1 30 --ss-c2 4 -v -q -j 1 -tc "$t" -o "$tmp/j" "$in" 2>&1 | notime)
  b=$(run --search ss --explorer "$e" --seed 11 --max-delays 2 --ss-c1 30 --ss-c2 4 -v -q -j 2 -tc "$t" -o "$tmp/j" "$in" 2>&1 | notime)
  n=$(echo "$a" | grep -c 'sample')
  if [ "$a" = "$b" ] && [ "$n" -gt 5 ]; then ok "ss -j 1 and -j 2 run the same $n samples: $in -tc $t"
  else
    bad "ss differs between -j 1 and -j 2 on $in -tc $t"
    echo "$a" >"$tmp/a"
    echo "$b" >"$tmp/b"
    diff "$tmp/a" "$tmp/b" | head -10
  fi
done
a=$(run --search ss --seed 1 --max-delays 1 -v -q -tc tcSingleClient -o "$tmp/o" models/clientserver 2>&1 | grep 'bound 1 sample' | md5sum)
b=$(run --search ss --seed 2 --max-delays 1 -v -q -tc tcSingleClient -o "$tmp/o" models/clientserver 2>&1 | grep 'bound 1 sample' | md5sum)
if [ "$a" != "$b" ]; then ok "ss: another seed draws other samples"; else bad "ss: seeds 1 and 2 draw the same samples"; fi

# ss honours --timeout inside a stratum, not only between windows of 4096 samples.
r=$(run --search ss --explorer prr --ss-c1 1000000 --timeout 1 -q -tc tcTest_FailureDetector -o "$tmp/o" \
    models/failuredetector 2>&1)
n=$(echo "$r" | sed -n 's/^result: no-bug (bounded: timeout at delay bound 0 after \([0-9]*\) executions.*/\1/p')
if [ -n "$n" ] && [ "$n" -lt 4096 ]; then ok "ss stops at --timeout within a stratum ($n executions)"
else bad "ss ignores --timeout within a stratum"; echo "$r" | tail -n 2; fi

# ss at delay bound 1: positions spread evenly (chi-square, 1% level).
run --search ss --explorer rr --seed 3 --max-delays 1 --ss-c1 2000 --ss-c2 1 -v -q -tc tcSingleClient -o "$tmp/o" \
  models/clientserver 2>/dev/null | sed -n 's/^ss: delay bound 1 sample [0-9]*: delays after \([0-9]*\)$/\1/p' >"$tmp/pos"
res=$(awk '{ c[$1]++; n++; if ($1 > m) m = $1 }
  END { L = m + 1; e = n / L; for (i = 0; i < L; i++) x += (c[i] - e) ^ 2 / e;
        # chi-square critical value at 1% for L-1 degrees of freedom (Wilson-Hilferty)
        k = L - 1; z = 2.326; crit = k * (1 - 2 / (9 * k) + z * sqrt(2 / (9 * k))) ^ 3;
        printf "%d %d %.1f %.1f\n", n, L, x, crit }' "$tmp/pos")
set -- $res
if [ "${1:-0}" -eq 2000 ] && [ "${2:-0}" -ge 5 ] && awk "BEGIN { exit !($3 < $4) }"; then
  ok "ss db=1: $1 samples over $2 positions, chi-square $3 < $4"
else bad "ss db=1 positions are not uniform: $res"; fi

# 5. A custom explorer reorders machines on an announced event.
s=$(run --search ses --no-reduction --explorer rr -q -o "$tmp/o" tests/explorers/announce.p 2>&1)
s2=$(run --search ses --no-reduction --explorer Reverser -q -o "$tmp/o" tests/explorers/announce.p 2>&1)
if echo "$s" | grep -q '^ses: bug found at delay bound 1' && echo "$s2" | grep -q '^ses: bug found at delay bound 0'; then
  ok "the announced event reorders the custom explorer (bug at bound 0, rr needs 1)"
else bad "custom explorer on announce"; echo "$s" | tail -n 3; echo "$s2" | tail -n 3; fi
# The case study of models/chainreplication: the model's own explorer finds
# the neighbouring-failures bug with no delay, in fewer states than rr, rtc, prr.
bugstates() { sed -n 's/^ses: bug found at delay bound \([0-9]*\) after \([0-9]*\) distinct states$/\1 \2/p'; }
set -- $(run --search ses --no-reduction --explorer ChainInit -q -o "$tmp/o" -tc tcBugNeighbours models/chainreplication 2>&1 | bugstates)
cdb=${1:-x} cn=${2:-0}
if [ "$cdb" = 0 ] && [ "$cn" -gt 0 ]; then
  for e in rr rtc prr; do
    set -- $(run --search ses --no-reduction --explorer "$e" -q -o "$tmp/o" -tc tcBugNeighbours models/chainreplication 2>&1 | bugstates)
    if [ "${1:-0}" -ge 1 ] && [ "${2:-0}" -gt "$cn" ]; then
      ok "chainreplication tcBugNeighbours: ChainInit, 0 delays and $cn states; $e, $1 delays and $2 states"
    else bad "chainreplication tcBugNeighbours: $e (${1:-none} delays, ${2:-?} states) not behind ChainInit ($cn)"; fi
  done
else bad "chainreplication tcBugNeighbours: ChainInit does not find the bug at delay bound 0"; fi
s=$(run --search ss --explorer Reverser -q -o "$tmp/o" tests/explorers/announce.p 2>&1)
if [ $? -eq 1 ] && echo "$s" | grep -q '^ss: bug found at delay bound 0 after 1 executions'; then ok "ss with the custom explorer: first execution"
else bad "ss with the custom explorer"; echo "$s" | tail -n 3; fi
a=$(run --search ses --no-reduction --explorer stdlib/rr.p:rr -q -o "$tmp/o" tests/explorers/delays.p -tc tcDelays___K_2 2>&1 | notime)
b=$(run --search ses --no-reduction --explorer rr -q -o "$tmp/o" tests/explorers/delays.p -tc tcDelays___K_2 2>&1 | notime)
if [ "$a" = "$b" ] && echo "$a" | grep -q 'bug found at delay bound 2'; then ok "--explorer FILE.p:NAME loads an explorer from a file"
else bad "--explorer FILE.p:NAME"; echo "$a" | tail -n 3; fi

s=$(run --search ses --no-reduction --explorer tests/explorers/lifo.p:Lifo -q -o "$tmp/o" tests/explorers/delays.p -tc tcDelays___K_3 2>&1)
# (at delay bound 3 or 4: a step that fails as a delayed move is reported
# at once, with its delays, before the stratum of those delays comes)
if [ $? -eq 1 ] && echo "$s" | grep -q '^ses: bug found at delay bound [34] '; then ok "the explorer of doc/explorers.md runs"
else bad "the explorer of doc/explorers.md"; echo "$s" | tail -n 3; fi

# 6. Unsound and failing explorers.
s=$(run --search ses --no-reduction --explorer Stuck -q -o "$tmp/u" tests/explorers/unsound.p 2>&1)
sc=$?
if [ "$sc" -eq 3 ] && echo "$s" | grep -q "explorer 'Stuck' is unsound: .* never chosen there: 'Pinger" &&
   [ -f "$tmp/u/Main.explorer-failure.schedule" ]; then ok "an unsound explorer is reported with the state and the missing machine"
else bad "unsound explorer (exit $sc)"; echo "$s"; fi
s=$(run --search ss --explorer Stuck -q -o "$tmp/u" tests/explorers/unsound.p 2>&1)
if [ $? -eq 3 ] && echo "$s" | grep -q "explorer 'Stuck' is unsound"; then ok "ss reports an unsound explorer too"
else bad "ss and an unsound explorer"; echo "$s"; fi
s=$(run --search ses --no-reduction --explorer BadNext -q -o "$tmp/u" tests/explorers/unsound.p 2>&1)
if [ $? -eq 3 ] && echo "$s" | grep -q "Next returned null, not a machine"; then ok "Next returning null is reported"
else bad "Next returning null"; echo "$s"; fi
s=$(run --search ses --no-reduction --explorer Crashes -q -o "$tmp/u" tests/explorers/unsound.p 2>&1)
if [ $? -eq 3 ] && echo "$s" | grep -q "unsound.p:[0-9]*:[0-9]*: explorer 'Crashes' failed in Crashes.Next: index 5 is out of range"; then
  ok "a runtime error in an explorer is reported with its location"
else bad "explorer runtime error"; echo "$s"; fi
s=$(run --search ses --no-reduction --explorer nosuch -q tests/explorers/unsound.p 2>&1)
if [ $? -eq 2 ] && echo "$s" | grep -q "unknown explorer 'nosuch'"; then ok "an unknown explorer is a usage error"
else bad "unknown explorer"; echo "$s"; fi
s=$(run --search ses --no-reduction --explorer Stuck --explorer-twin-check -q tests/explorers/unsound.p 2>&1)
if [ $? -eq 2 ]; then ok "--explorer-twin-check needs a standard explorer"; else bad "--explorer-twin-check with Stuck"; fi
for o in "--ss-c1 0" "--ss-c2 x" "--frontier-mem -1" "--explorer :x"; do
  # shellcheck disable=SC2086
  s=$(run $o tests/explorers/unsound.p 2>&1)
  if [ $? -eq 2 ]; then ok "bad option $o: exit 2"; else bad "bad option $o accepted"; fi
done

# 7. The frontier falls back to re-execution (--no-sampling): same
# states, same bug.
# (The cache's part of --mem is the rest after the frontier's: its line differs.)
a=$(run --search ses --no-reduction --explorer rtc -q -tc tcSingleClient -o "$tmp/o" models/clientserver 2>&1 | notime | grep -v '^state cache:')
b=$(run --search ses --no-reduction --explorer rtc --no-sampling --frontier-mem 96k -q -tc tcSingleClient -o "$tmp/o" models/clientserver 2>&1 | notime | grep -v '^state cache:')
if [ "$a" = "$b" ] && echo "$a" | grep -q '^result: no-bug (complete)'; then ok "re-executed frontier gives the same strata and states"
else bad "re-executed frontier differs"; echo "$a" | tail -n 3; echo "$b" | tail -n 3; fi
# The same bug after the same states as with the entries' bytes kept.
want=$(run --search ses --no-reduction --explorer rr -q -tc tcDelays___K_3 -o "$tmp/re0" tests/explorers/delays.p 2>&1 | grep '^ses: bug found at delay bound 3 after')
b=$(run --search ses --no-reduction --explorer rr --no-sampling --frontier-mem 64k -q -tc tcDelays___K_3 -o "$tmp/re" tests/explorers/delays.p 2>&1)
if [ $? -eq 1 ] && [ -n "$want" ] && echo "$b" | grep -qx "$want" &&
   [ "$(run --replay "$tmp/re/tcDelays___K_3.schedule" tests/explorers/delays.p 2>&1 | grep -c 'sender 4')" -ge 1 ]; then
  ok "re-executed frontier finds the 3-delay bug after the same states, and its trace replays"
else bad "re-executed frontier and the 3-delay bug"; echo "$b" | tail -n 3; fi

# 8. SES, then SS: when the frontier or the cache reaches its budget, ses
# samples from its frontier.  The frontier: 64k holds no entry, so ses
# samples from delay bound 0's frontier and finds the 3-delay bug there.
b=$(run --search ses --no-reduction --explorer rr --frontier-mem 64k -q -tc tcDelays___K_3 -o "$tmp/st" tests/explorers/delays.p 2>&1)
if [ $? -eq 1 ] && echo "$b" | grep -q '^ses: the frontier reached its budget at delay bound 0 after' &&
   echo "$b" | grep -Eq '^ses then ss: bug found at delay bound [3-9] after' &&
   [ "$(run --replay "$tmp/st/tcDelays___K_3.schedule" tests/explorers/delays.p 2>&1 | grep -c 'sender 4')" -ge 1 ]; then
  ok "SES then SS: frontier over budget at delay bound 0, the 3-delay bug sampled from it, and its trace replays"
else bad "SES then SS from a full frontier"; echo "$b" | tail -n 4; fi
# With the reduction (the default), ses's explorer chooses among each
# state's persistent set, and the roots the samples start from replay
# those choices (SsMove.red): the frontier over budget at delay bound 0,
# the bug sampled from it, its trace replays.
b=$(run --search ses --explorer rr --frontier-mem 64k -q -tc tcDelays___K_3 -o "$tmp/sr" tests/explorers/delays.p 2>&1)
if [ $? -eq 1 ] && echo "$b" | grep -q '^ses: the frontier reached its budget at delay bound 0 after' &&
   echo "$b" | grep -q '^ses then ss: bug found at delay bound' &&
   [ "$(run --replay "$tmp/sr/tcDelays___K_3.schedule" tests/explorers/delays.p 2>&1 | grep -c 'sender 4')" -ge 1 ]; then
  ok "SES then SS with the reduction: samples from narrowed roots find the bug, its trace replays"
else bad "SES then SS with the reduction"; echo "$b" | tail -n 4; fi
# The cache: under 1 MiB (what --mem 1093M leaves after its sixteenth and
# 1 GiB of frontier) fills during delay bound 3 (bounds 0..2 proved); the bug
# needs 4 delays.  Sampling finds it (2 s); the bounded cache alone
# (--no-sampling) re-explores and needs 30 s and 1.3 GB of frontier here,
# too long for the suite.
b=$(run --search ses --no-reduction --explorer rr --mem 1093M --frontier-mem 1G --timeout 120 -tc tcDeepDelays -o "$tmp/st" tests/explorers/ses_then_ss.p 2>&1)
if [ $? -eq 1 ] && echo "$b" | grep -q '^ses: the state cache reached its budget at delay bound 3 after' &&
   echo "$b" | grep -q '^ses then ss: bug found at delay bound [4-9] after' &&
   [ "$(run --replay "$tmp/st/tcDeepDelays.schedule" tests/explorers/ses_then_ss.p 2>&1 | grep -c 'sender 5')" -ge 1 ]; then
  ok "SES then SS: cache full at delay bound 3, the 4-delay bug sampled from the frontier, and its trace replays"
else bad "SES then SS from a full cache"; echo "$b" | tail -n 4; fi
# Sampled from a correct model: the summary says what was proved and what sampled.
b=$(run --search ses --mem 1093M --frontier-mem 1G --schedules 2000 -q -tc tcTwoProposers -o "$tmp/o" models/paxos 2>&1)
if [ $? -eq 0 ] && echo "$b" | grep -Eq '^result: no-bug \(bounded: proved up to delay bound [0-9]+ \([0-9]+ states\), then 2000 executions \(--schedules\) up to delay bound [0-9]+.*from [0-9]+ frontier states\)$'; then
  ok "SES then SS reports the bound proved and the executions sampled"
else bad "SES then SS summary"; echo "$b" | tail -n 3; fi

# A frontier that holds no entry at all: every entry is re-executed, and
# the search still completes with the same states.
s=$(run --search ses --no-reduction --explorer rtc --no-sampling --frontier-mem 8k -q -tc tcSingleClient -o "$tmp/o" models/clientserver 2>&1 | notime)
if [ $? -eq 0 ] && [ "$(echo "$s" | tail -n 2)" = "$(echo "$a" | tail -n 2)" ]; then
  ok "an 8k frontier re-executes every entry and completes alike"
else bad "an 8k frontier"; echo "$s" | tail -n 3; fi
# The same with the reduction: re-executed entries narrow their states'
# choices again as the search did (Move.red), so the states are the same.
a=$(run --search ses --explorer rtc -q -tc tcSingleClient -o "$tmp/o" models/clientserver 2>&1 | notime)
s=$(run --search ses --explorer rtc --no-sampling --frontier-mem 8k -q -tc tcSingleClient -o "$tmp/o" models/clientserver 2>&1 | notime)
if [ $? -eq 0 ] && [ "$(echo "$s" | tail -n 2)" = "$(echo "$a" | tail -n 2)" ] && echo "$a" | grep -q '^reduction: partial-order'; then
  ok "an 8k frontier with the reduction re-executes every entry and completes alike"
else bad "an 8k frontier with the reduction"; echo "$a" | tail -n 3; echo "$s" | tail -n 3; fi

# 8. The portfolio is the default search and rtc the default explorer (of
# ses, alone or in the portfolio).
a=$(run -q --seed 0 -tc tcSingleClient -o "$tmp/o" models/clientserver 2>&1 | notime)
b=$(run --search portfolio --seed 0 --explorer rtc -q -tc tcSingleClient -o "$tmp/o" models/clientserver 2>&1 | notime)
c=$(run --search ses -q -tc tcSingleClient -o "$tmp/o" models/clientserver 2>&1 | notime)
d=$(run --search ses --explorer rtc -q -tc tcSingleClient -o "$tmp/o" models/clientserver 2>&1 | notime)
if [ "$a" = "$b" ] && echo "$a" | grep -Eq '^portfolio: (ses\/rtc|dfs) covered every state( \(skipping [0-9]+ that dfs had finished\))?$' && [ "$c" = "$d" ]; then
  ok "the portfolio is the default, with rtc"
else bad "the default search is not the portfolio with rtc"; echo "$a"; fi

echo "# passed: $pass failed: $fail"
[ "$fail" -eq 0 ]
