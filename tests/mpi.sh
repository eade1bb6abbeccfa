#!/bin/sh
# mpi.sh: the distributed search (doc/distributed.md) under mpirun with
# 2, 3 and 4 ranks on this machine (--oversubscribe):
# - `pcheck --version` says whether MPI is built in; without it, this
#   script checks only that line (the build is the one-process build);
# - the same binary runs alone, without mpirun (no "distributed:" line);
# - identical counts: on every correct test of models/ up to
#   MPI_MAX_STATES states (default 300,000), bfs with the reduction on 2
#   and 4 ranks counts the states and transitions of one process's bfs,
#   and without the reduction on 3 ranks (dfs) the recorded count of
#   expected.txt, and ses (every interleaving) on 2 ranks, and 4 with rr
#   up to 20,000 states, the same states and transitions;
# - ses: bugs found and replayed, --max-delays, --timeout, an unsound or
#   failing explorer reported once;
# - bugs: each bug variant of paxos and german, on 2 and 4 ranks: found
#   with exit status 1, a trace of one process's bfs length (the shortest),
#   written once (rank 0), which replays to the same bug;
# - bounded runs (--timeout) end cleanly on every rank; --stats-json gives
#   the ranks and letters; what runs on one process only is refused once,
#   with exit status 2;
# - the portfolio, its members side by side on 2, 3, 4 and 7 ranks: bugs
#   found, written once and replayed, a proof, the same run for a seed;
# - sampling (random, pct, ss) on 2 and 4 ranks gives one process's result
#   (figures, estimate, trace); a rank stopped or killed mid-run has its
#   work redone and the result stays the same (PCHECK_FARM_FAULT).
. "${srcdir:-.}/tests/lib.sh"
max=${MPI_MAX_STATES:-300000}
# As root (CI), Open MPI wants to be told; LeakSanitizer would report
# what libmpi keeps until exit.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
# mpirun reads stdin; a job that hangs (Open MPI 4.1's mpirun was seen to,
# now and then, after a rank left) is ended after MPI_TIMEOUT seconds and
# run once more, with a line that says so (a second hang fails its check).
mpi_timeout=${MPI_TIMEOUT:-300}
mp() {
  np=$1; shift
  timeout -k 10 "$mpi_timeout" mpirun --oversubscribe -np "$np" ${PCHECK_WRAPPER:-} "$PCHECK" "$@" </dev/null
  mp_rc=$?
  [ $mp_rc -eq 124 ] || [ $mp_rc -eq 137 ] || return $mp_rc
  echo "mpi.sh: mpirun -np $np $* hung for ${mpi_timeout} s; once more" >&2
  timeout -k 10 "$mpi_timeout" mpirun --oversubscribe -np "$np" ${PCHECK_WRAPPER:-} "$PCHECK" "$@" </dev/null
}

v=$(run --version)
if echo "$v" | grep -q '^distributed search: not built'; then
  ok "--version: built without MPI ($(echo "$v" | tail -n 1))"
  echo "# passed: $pass failed: $fail"
  [ "$fail" -eq 0 ]
  exit
fi
if echo "$v" | grep -q '^distributed search: Open MPI [0-9]'; then ok "--version: $(echo "$v" | tail -n 1)"
else bad "--version says nothing of MPI"; echo "$v"; fi
if ! command -v mpirun >/dev/null 2>&1; then
  bad "pcheck is built with MPI but mpirun is missing (Debian package openmpi-bin)"
  echo "# passed: $pass failed: $fail"
  exit 1
fi

# Alone, without mpirun: the one-process search.
r=$(run -S bfs -tc tcTwoCaches -o "$tmp/o" models/german 2>&1)
if [ $? -eq 0 ] && ! echo "$r" | grep -q '^distributed:' && echo "$r" | grep -q '^result: no-bug (complete)'; then
  ok "the MPI build runs alone without mpirun"
else bad "the MPI build alone"; echo "$r" | tail -n 5; fi

# Identical counts on the correct tests.
counts() { echo "$1" | sed -n 's/^states: \([0-9]*\)  transitions: \([0-9]*\) .*/\1 \2/p'; }
for f in models/*/expected.txt; do
  m=${f%/expected.txt}
  while IFS='	' read -r t verdict states note; do
    case $t in ''|\#*) continue ;; esac
    [ "$verdict" = no-bug ] && [ "$states" -le "$max" ] 2>/dev/null || continue
    share_mine || continue
    one=$(counts "$(run -q -S bfs --mem 512M -tc "$t" -o "$tmp/o" "$m" 2>&1)")
    for np in 2 4; do
      r=$(mp $np -q -S bfs --mem 1G -tc "$t" -o "$tmp/o" "$m" 2>&1)
      rc=$? got=$(counts "$r")
      if [ $rc -eq 0 ] && [ -n "$one" ] && [ "$got" = "$one" ] && echo "$r" | grep -q "^distributed: $np ranks" &&
         echo "$r" | grep -q '^result: no-bug (complete)'; then
        ok "$m -tc $t: bfs on $np ranks counts one process's $one (states, transitions)"
      else bad "$m -tc $t: bfs on $np ranks: exit $rc, '$got', one process '$one'"; echo "$r" | tail -n 4; fi
    done
    r=$(mp 3 -q -S dfs --no-reduction --mem 1G -tc "$t" -o "$tmp/o" "$m" 2>&1)
    rc=$? got=$(echo "$r" | field states) full=$(counts "$r")
    if [ $rc -eq 0 ] && [ "$got" = "$states" ] && echo "$r" | grep -q '^result: no-bug (complete)'; then
      ok "$m -tc $t: dfs --no-reduction on 3 ranks: the recorded $states states"
    else bad "$m -tc $t: dfs --no-reduction on 3 ranks: exit $rc, $got states, recorded $states"; echo "$r" | tail -n 4; fi
    # ses on 2 ranks (4 with rr on the smaller tests): every interleaving,
    # so the states and transitions of every exhaustive search without the
    # reduction.
    for run_ses in "2 rtc" "4 rr"; do
      set -- $run_ses
      [ "$1" = 4 ] && [ "$states" -gt 20000 ] && continue
      r=$(mp "$1" -q -S ses -e "$2" --mem 1G -tc "$t" -o "$tmp/o" "$m" 2>&1)
      rc=$? got=$(counts "$r")
      if [ $rc -eq 0 ] && [ -n "$full" ] && [ "$got" = "$full" ] && echo "$r" | grep -q '^result: no-bug (complete)' &&
         echo "$r" | grep -q '^reduction: off (ses across ranks explores every interleaving)'; then
        ok "$m -tc $t: ses -e $2 on $1 ranks: $full (states, transitions) as dfs --no-reduction"
      else bad "$m -tc $t: ses -e $2 on $1 ranks: exit $rc, '$got', dfs --no-reduction '$full'"; echo "$r" | tail -n 4; fi
    done
  done <"$f"
done

# Bugs: found, shortest, written once, replayed.
for m in models/paxos models/german; do
  for t in $(grep -v '^#' $m/expected.txt | awk -F'\t' '$2 == "bug" { print $1 }'); do
    share_mine || continue
    rm -rf "$tmp/b1"
    r1=$(run -q -S bfs -tc "$t" -o "$tmp/b1" "$m" 2>&1)
    len1=$(run --replay "$tmp/b1/$t.schedule" "$m" 2>&1 | sed -n 's/^replay: \([0-9]*\) of .*/\1/p')
    for np in 2 4; do
      rm -rf "$tmp/b"
      r=$(mp $np -q -S bfs -tc "$t" -o "$tmp/b" "$m" 2>&1)
      rc=$?
      files=$(ls "$tmp/b" 2>/dev/null | tr '\n' ' ')
      rr=$(run --replay "$tmp/b/$t.schedule" "$m" 2>&1)
      rrc=$?
      len=$(echo "$rr" | sed -n 's/^replay: \([0-9]*\) of .*/\1/p')
      kind=$(echo "$r" | sed -n 's/^bug: \([a-z ]*\).*/\1/p')
      if [ $rc -eq 1 ] && [ $rrc -eq 1 ] && [ -n "$len" ] && [ "$len" = "$len1" ] &&
         [ "$files" = "$t.json $t.schedule $t.txt " ] && [ "$(echo "$r" | grep -c '^result: bug-found')" = 1 ] &&
         [ -n "$kind" ] && echo "$rr" | grep -q "^bug: $kind"; then
        ok "$m -tc $t on $np ranks: $kind, trace of $len steps as one process's bfs, written once, replays"
      else bad "$m -tc $t on $np ranks: exit $rc, replay exit $rrc, $len steps (one process: $len1), files '$files'"
        echo "$r" | tail -n 4; echo "$rr" | tail -n 2; fi
    done
  done
done

# ses: bugs found in their delay bound, the trace written once and
# replayed to the bug reported.
for t in tcBugStaleAccept tcBugRoundOnly tcBugNackAfterGiveUp; do
  share_mine || continue
  for np in 2 4; do
    rm -rf "$tmp/b"
    r=$(mp $np -q -S ses -tc "$t" -o "$tmp/b" models/paxos 2>&1)
    rc=$?
    files=$(ls "$tmp/b" 2>/dev/null | tr '\n' ' ')
    rr=$(run --replay "$tmp/b/$t.schedule" models/paxos 2>&1)
    rrc=$?
    bug=$(echo "$r" | grep '^bug: ')
    if [ $rc -eq 1 ] && [ $rrc -eq 1 ] && [ -n "$bug" ] && echo "$rr" | grep -qxF "$bug" &&
       [ "$files" = "$t.json $t.schedule $t.txt " ] && [ "$(echo "$r" | grep -c '^result: bug-found')" = 1 ]  &&
       [ -n "$(echo "$r" | field delays)" ]; then
      ok "paxos -tc $t: ses on $np ranks finds the bug ($(echo "$r" | field delays) delays), written once, replays to it"
    else bad "paxos -tc $t: ses on $np ranks: exit $rc, replay exit $rrc, files '$files'"; echo "$r" | tail -n 4; echo "$rr" | tail -n 2; fi
  done
done
# ses bounded by --max-delays: the bound reached, what it proves.
r=$(mp 2 -S ses --max-delays 2 -tc tcTwoProposers -o "$tmp/o" models/paxos 2>&1)
rc=$?
if [ $rc -eq 0 ] && echo "$r" | grep -q '^result: no-bug (bounded: delay bound 2 reached, [0-9]* frontier states left)' &&
   [ "$(echo "$r" | grep -c '^ses: delay bound [0-9]*: ')" = 3 ] && [ "$(echo "$r" | field delays)" = 2 ]; then
  ok "ses --max-delays 2 on 2 ranks: bounded at delay bound 2, one line per stratum"
else bad "ses --max-delays 2 on 2 ranks: exit $rc"; echo "$r" | tail -n 6; fi
# An unsound or failing explorer: reported once, with the state's schedule.
for e in Stuck BadNext Crashes; do
  rm -rf "$tmp/u"
  r=$(mp 2 -q -S ses -e $e -o "$tmp/u" tests/explorers/unsound.p 2>&1)
  rc=$?
  if [ $rc -eq 3 ] && [ "$(echo "$r" | grep -c "^pcheck: error: .*explorer '$e'")" = 1 ] &&
     [ -f "$tmp/u/Main.explorer-failure.schedule" ]; then ok "ses -e $e on 2 ranks: the explorer's failure, once, with its state"
  else bad "ses -e $e on 2 ranks: exit $rc"; echo "$r" | grep pcheck; fi
done

# Bounded: a timeout on every rank, figures, exit 0 (4 with --fail-on-incomplete).
r=$(mp 2 -S bfs --no-reduction --timeout 1 --fail-on-incomplete -tc tcTwoProposers -o "$tmp/o" models/paxos 2>&1)
rc=$?
if [ $rc -eq 4 ] && echo "$r" | grep -q '^result: no-bug (bounded: timeout)' && [ "$(echo "$r" | field states)" -gt 100 ] &&
   echo "$r" | grep -q '^guarantee: no bug within depth'; then
  ok "2 ranks, --timeout: bounded, $(echo "$r" | field states) states, exit 4 with --fail-on-incomplete"
else bad "2 ranks with --timeout: exit $rc"; echo "$r" | tail -n 5; fi

r=$(mp 2 -S ses --timeout 1 -tc tcTwoProposers -o "$tmp/o" models/paxos 2>&1)
rc=$?
if [ $rc -eq 0 ] && echo "$r" | grep -q '^result: no-bug (bounded: timeout at delay bound [0-9]*)'; then
  ok "ses on 2 ranks, --timeout: bounded, $(echo "$r" | field states) states"
else bad "ses on 2 ranks with --timeout: exit $rc"; echo "$r" | tail -n 5; fi

# --stats-json: ranks and letters.
mp 2 -q -S bfs -tc tcTwoCaches --stats-json "$tmp/s.json" -o "$tmp/o" models/german >/dev/null 2>&1
if grep -q '"ranks": 2,' "$tmp/s.json" && grep -q '"letters": [1-9]' "$tmp/s.json" &&
   grep -q '"letter_bytes": [1-9]' "$tmp/s.json"; then ok "--stats-json: ranks, letters, letter_bytes"
else bad "--stats-json under mpirun"; grep -E 'ranks|letter' "$tmp/s.json"; fi

# The man page's examples (DISTRIBUTED SEARCH), but for those on other machines.
mkdir -p "$tmp/bin" "$tmp/mw" && ln -s "$PCHECK" "$tmp/bin/pcheck" && ln -s "$(pwd)/models" "$tmp/mw/models"
sed -n '/^\.SH DISTRIBUTED SEARCH/,/^\.SH EXIT STATUS/p' doc/pcheck.1 | grep '^mpirun' | grep -v hostfile | sed 's/\\-/-/g' |
while IFS= read -r cmd; do
  out=$(cd "$tmp/mw" && PATH="$tmp/bin:$PATH" sh -c "timeout -k 10 $mpi_timeout $cmd" 2>&1 </dev/null)
  rc=$?
  if { [ $rc -eq 0 ] || { [ $rc -eq 1 ] && echo "$out" | grep -q '^result: bug-found'; }; } &&
     echo "$out" | grep -q '^distributed: [0-9]* ranks'; then echo "PASS: man page: $cmd"
  else echo "FAIL: man page: $cmd (exit $rc)"; echo "$out" | tail -n 3; fi
done >"$tmp/man.txt"
cat "$tmp/man.txt"
pass=$((pass + $(grep -c '^PASS' "$tmp/man.txt"))) fail=$((fail + $(grep -c '^FAIL' "$tmp/man.txt")))
[ "$(grep -c '^PASS' "$tmp/man.txt")" -ge 4 ] || bad "the man page's DISTRIBUTED SEARCH examples were not found"

# Sampling (random, pct, ss): the executions shared out by rank 0 give
# the one-process result on 2 and 4 ranks: the same figures (result,
# estimate, transitions and executions), and for a bug the same trace.
same() { echo "$1" | grep -E '^(result|bug|estimate|transitions|guarantee):' | sed 's/  time: [0-9.]*$//'; }
for s in random pct ss; do
  for t in tcOneProposer tcBugStaleAccept tcBugNackAfterGiveUp; do
    share_mine || continue
    rm -rf "$tmp/o1" "$tmp/ok"
    want=$(run -S $s --seed 11 --schedules 3000 -tc $t -o "$tmp/o1" models/paxos 2>&1)
    wrc=$?
    for k in 2 4; do
      rm -rf "$tmp/ok"
      r=$(mp $k -S $s --seed 11 --schedules 3000 -tc $t -o "$tmp/ok" models/paxos 2>&1)
      rc=$?
      if [ $rc -eq $wrc ] && [ -n "$(same "$want")" ] && [ "$(same "$r")" = "$(same "$want")" ] &&
         echo "$r" | grep -q "^distributed: $k ranks, [0-9]* items of work" &&
         { [ $wrc -eq 0 ] || cmp -s "$tmp/o1/$t.schedule" "$tmp/ok/$t.schedule"; }; then
        ok "-S $s -tc $t on $k ranks: the one-process result (exit $rc, $(echo "$r" | field executions) executions)"
      else bad "-S $s -tc $t on $k ranks: exit $rc (one process: $wrc)"; same "$want"; echo "--"; echo "$r" | tail -n 8; fi
    done
  done
done

# A seed drawn at random is rank 0's on every rank: the one it prints
# repeats the run on one process.
r=$(mp 2 -S random --schedules 2000 -tc tcBugRoundOnly -o "$tmp/ok" models/paxos 2>&1)
seed=$(echo "$r" | sed -n 's/^seed: \([0-9]*\) (drawn at random.*/\1/p')
want=$(run -S random --seed "${seed:-0}" --schedules 2000 -tc tcBugRoundOnly -o "$tmp/o1" models/paxos 2>&1)
if [ -n "$seed" ] && [ "$(same "$r")" = "$(same "$want")" ]; then ok "a seed drawn at random on 2 ranks ($seed) repeats on one process"
else bad "a seed drawn at random under mpirun (${seed:-none})"; same "$want"; echo "--"; same "$r"; fi

# A rank that stops answering (SIGSTOP after its third item; --rank-timeout
# 1): its items are redone by the others, the result is the one-process
# result, the exit status is kept (rank 0 leaves without MPI_Finalize with
# it, and mpirun ends the job).
for t in tcOneProposer tcBugStalePromise; do
  want=$(run -S random --seed 5 --schedules 20000 --fail-on-incomplete -tc $t -o "$tmp/o1" models/paxos 2>&1)
  wrc=$?
  r=$(PCHECK_FARM_FAULT=stop:1:3 mp 3 -S random --seed 5 --schedules 20000 --fail-on-incomplete --rank-timeout 1 \
        -tc $t -o "$tmp/ok" models/paxos 2>&1)
  rc=$?
  if [ $rc -eq $wrc ] && [ "$(same "$r")" = "$(same "$want")" ] &&
     echo "$r" | grep -q '^pcheck: warning: rank 1 stopped answering' &&
     echo "$r" | grep -q '^distributed: 3 ranks, .*; 1 rank stopped answering, [1-9][0-9]* items\{0,1\} redone'; then
    ok "-tc $t, rank 1 stopped: its work redone, the one-process result, exit $rc"
  else bad "-tc $t with rank 1 stopped: exit $rc (one process: $wrc)"; same "$want"; echo "--"; echo "$r" | grep -v '^$' | head -n 12; fi
done
# A rank killed (SIGKILL): Open MPI's mpirun then ends the job unless run
# with --enable-recovery, and with it returns 0 whatever rank 0's status,
# and was seen to hang after the ranks' MPI_Finalize now and then (Open MPI
# 4.1): the figures rank 0 wrote are checked, not the exit status, and
# mpirun and what is left of the job are killed after 60 s.
want=$(run -S ss --seed 5 --schedules 20000 -tc tcOneProposer -o "$tmp/o1" models/paxos 2>&1)
PCHECK_FARM_FAULT=kill:1:3 timeout -s KILL 60 mpirun --oversubscribe --enable-recovery -np 3 ${PCHECK_WRAPPER:-} "$PCHECK" \
  -S ss --seed 5 --schedules 20000 --rank-timeout 1.25 -tc tcOneProposer -o "$tmp/ok" models/paxos </dev/null >"$tmp/kill.txt" 2>&1
command -v pkill >/dev/null && pkill -KILL -f -- '--rank-timeout 1.25 -tc tcOneProposer' 2>/dev/null
r=$(cat "$tmp/kill.txt")
if [ "$(same "$r")" = "$(same "$want")" ] && echo "$r" | grep -q '^pcheck: warning: rank 1 stopped answering' &&
   echo "$r" | grep -q '1 rank stopped answering'; then
  ok "-S ss, rank 1 killed under --enable-recovery: its work redone, the one-process result"
else bad "-S ss with rank 1 killed"; same "$want"; echo "--"; echo "$r" | grep -v '^$' | head -n 12; fi

# The portfolio: its members side by side on the ranks, each alone.  A bug
# found by some member is reported once, written once and replays; the
# same seed and number of ranks give the same run; ranks past the fifth
# run samplers again; a proof names the member and its rank.
for t in tcBugStaleAccept tcBugRoundOnly; do
  for np in 2 4; do
    rm -rf "$tmp/b"
    r=$(mp $np --seed 7 -tc "$t" -o "$tmp/b" models/paxos 2>&1)
    rc=$?
    files=$(ls "$tmp/b" 2>/dev/null | tr '\n' ' ')
    rr=$(run --replay "$tmp/b/$t.schedule" models/paxos 2>&1)
    bug=$(echo "$r" | grep '^bug: ')
    if [ $rc -eq 1 ] && [ -n "$bug" ] && echo "$rr" | grep -qxF "$bug" && [ "$files" = "$t.json $t.schedule $t.txt " ] &&
       echo "$r" | grep -q "^portfolio: [a-z/]* (rank [0-$((np - 1))]) found the bug after" &&
       [ "$(echo "$r" | grep -c '^portfolio: ')" = 5 ] && echo "$r" | grep -q "^distributed: $np ranks, "; then
      ok "portfolio on $np ranks, -tc $t: $(echo "$r" | sed -n 's/^portfolio: \(.*\) found the bug.*/\1/p') found it, written once, replays"
    else bad "portfolio on $np ranks, -tc $t: exit $rc, files '$files'"; echo "$r" | grep -v '^$' | head -n 12; fi
  done
done
strip() { echo "$1" | grep -E '^(portfolio|result|bug|states|guarantee):' | sed 's/  time: [0-9.]*$//'; }
a=$(mp 3 --seed 5 -tc tcBugNackAfterGiveUp -o "$tmp/b" models/paxos 2>&1)
b=$(mp 3 --seed 5 -tc tcBugNackAfterGiveUp -o "$tmp/b" models/paxos 2>&1)
if [ -n "$(strip "$a")" ] && [ "$(strip "$a")" = "$(strip "$b")" ]; then ok "portfolio on 3 ranks: the same seed, the same run"
else bad "portfolio on 3 ranks twice with --seed 5 differ"; strip "$a"; echo "--"; strip "$b"; fi
r=$(mp 7 --seed 2 --timeout 2 -tc tcTwoProposers -o "$tmp/o" models/paxos 2>&1)
rc=$?
if [ $rc -eq 0 ] && echo "$r" | grep -q '^portfolio: random (rank 5): [0-9]* executions' &&
   echo "$r" | grep -q '^portfolio: pct (rank 6): [0-9]* executions' && echo "$r" | grep -q '^result: no-bug (bounded: timeout)'; then
  ok "portfolio on 7 ranks: ranks 5 and 6 sample again (random, pct), bounded by --timeout"
else bad "portfolio on 7 ranks: exit $rc"; echo "$r" | grep -v '^$' | head -n 12; fi
# -s N bounds the whole portfolio, as P's -s: N executions in all, shared
# by the sampling members of every rank (here 7: the samplers of ranks 5
# and 6 too), and the run ends there (ss may run one fewer than its share:
# at most N).
r=$(mp 7 --seed 2 -s 61 -tc tcTwoProposers -o "$tmp/o" models/paxos 2>&1)
rc=$?
ex=$(echo "$r" | sed -n 's/^states: .* executions: \([0-9]*\) .*/\1/p')
if [ $rc -eq 0 ] && echo "$r" | grep -q '^result: no-bug (bounded: the sampling members ran their shares of --schedules 61)$' &&
   [ "${ex:-0}" -ge 55 ] && [ "${ex:-0}" -le 61 ]; then
  ok "portfolio on 7 ranks with -s 61: $ex executions in all, then the end"
else bad "portfolio on 7 ranks with -s 61: exit $rc"; echo "$r" | grep -v '^$' | head -n 12; fi
r=$(mp 2 --seed 1 -tc tcTwoCaches -o "$tmp/o" models/german 2>&1)
rc=$?
if [ $rc -eq 0 ] && echo "$r" | grep -q '^portfolio: [a-z/]* (rank [01]) covered every state' &&
   echo "$r" | grep -q '^result: no-bug (complete)'; then ok "portfolio on 2 ranks proves german tcTwoCaches"
else bad "portfolio on 2 ranks, german tcTwoCaches: exit $rc"; echo "$r" | grep -v '^$' | head -n 12; fi

# --stats-json of a sampling run: the work items.
mp 2 -q -S random --seed 3 --schedules 500 -tc tcTwoCaches --stats-json "$tmp/r.json" -o "$tmp/o" models/german >/dev/null 2>&1
if grep -q '"ranks": 2,' "$tmp/r.json" && grep -q '"work_items": [1-9]' "$tmp/r.json" && grep -q '"ranks_lost": 0' "$tmp/r.json"
then ok "--stats-json of random on 2 ranks: work_items, ranks_lost"
else bad "--stats-json of random under mpirun"; grep -E 'ranks|work' "$tmp/r.json"; fi

# One process only: refused once, exit 2.
for args in "-S random -v" "--learn $tmp/l.txt" "-S pb" "-S bfs -j 2" "--list-tests"; do
  r=$(mp 2 $args -tc tcTwoCaches -o "$tmp/o" models/german 2>&1)
  rc=$?
  if [ $rc -eq 2 ] && [ "$(echo "$r" | grep -c '^pcheck: ')" = 1 ]; then ok "mpirun pcheck $args: refused once ($(echo "$r" | grep '^pcheck: ' | cut -c1-70)...)"
  else bad "mpirun pcheck $args: exit $rc"; echo "$r" | grep '^pcheck'; fi
done

echo "# passed: $pass failed: $fail"
[ "$fail" -eq 0 ]
