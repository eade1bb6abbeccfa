#!/bin/sh
# checkpoint.sh: --checkpoint and --resume (doc/pcheck.1, CHECKPOINTS).
# (a) Killed at random moments and resumed until it ends, many times: each
#     search (dfs, bfs on one and two threads, ses on one and two threads,
#     with and without the reduction; ses finding a hot cycle by its search
#     of its own) ends with the figures of a run never
#     stopped (result, states, transitions, depth, delays; for a bug, the
#     bug and its trace, replayed).  Most kills are SIGKILL (no last
#     checkpoint: the run goes on from the one before), some SIGTERM (the
#     search writes one where it stops).  CK_CYCLES (default 3) kill-and-
#     resume cycles per search; the kill times are drawn from a seed printed
#     with each failure.
# (b) Refusals, each with its message and exit 2: another model, test,
#     search, options (each difference named), a damaged file, a file that
#     is not a checkpoint, a missing one, several tests, searches without
#     checkpoints, dfs on threads, --keep-going.
# (c) The checkpoint is removed once the search has ended; a resume under
#     another --mem works, one whose cache does not fit is refused; a stop
#     by SIGTERM writes one (the summary says so) and --fail-on-incomplete
#     still exits 4.
. "${srcdir:-.}/tests/lib.sh"
cycles=${CK_CYCLES:-3}
seed=${CK_SEED:-$$}
echo "# kill times drawn from seed $seed (CK_SEED=$seed repeats them)"

now() { date +%s.%N; }
# A number in [lo, hi), from the next draw of the seed.
draw() {
  seed=$((seed + 1))
  awk -v s="$seed" -v lo="$1" -v hi="$2" 'BEGIN { srand(s); printf "%.3f", lo + rand() * (hi - lo) }'
}
# The figures two runs must agree on (time and the estimate aside).
figures() { grep -E '^(result|bug|states):' | sed 's/  time: .*//'; }

# cycles NAME ARGS...: a reference run, then $cycles times: the same run
# with --checkpoint, killed after a random time, resumed (and killed again)
# until it ends; its figures must be the reference's, and it must have
# resumed at least once in some cycle.  After `cycles --threads`, only the
# result, states and transitions are compared: on threads, which stratum
# first reaches a state depends on timing (the depth and the last delay
# bound with it), with or without checkpoints.
cycles() {
  loose=0 mayend=0
  [ "$1" = --threads ] && { loose=1; shift; }
  [ "$1" = --may-end-first ] && { mayend=1; shift; }   # a run that can be too quick to kill
  name=$1
  shift
  share_mine || return 0
  rm -rf "$tmp/ref" "$tmp/ckt"
  run -q "$@" -o "$tmp/ref" >"$tmp/out" 2>&1
  want_rc=$?
  ref=$(figures <"$tmp/out")
  [ $loose -eq 1 ] && ref=$(echo "$ref" | sed 's/  max-depth: .*//')
  # How long the run takes with checkpoints: the kills fall within it.
  t0=$(now)
  run -q "$@" --checkpoint "$tmp/ckt" --checkpoint-every 0.02 -o "$tmp/ref" >/dev/null 2>&1
  t1=$(now)
  T=$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')
  exercised=0
  c=0
  while [ $c -lt "$cycles" ]; do
    c=$((c + 1))
    ck=$tmp/ck-$seed
    rm -rf "$tmp/o"
    kills=0 resume="" rc=999 log=""
    while [ $kills -lt 80 ]; do
      # pcheck itself in the background (not a shell running it: the kill
      # must reach pcheck)
      # shellcheck disable=SC2086
      ${PCHECK_WRAPPER:-} "$PCHECK" -q "$@" $resume --checkpoint "$ck" --checkpoint-every 0.02 -o "$tmp/o" \
        >"$tmp/out" 2>"$tmp/err" &
      pid=$!
      # The first kill within the first 60% of the run, later ones anywhere
      # in it, later and later: a search that checkpoints only at some
      # points (ses on threads: between strata) gets past the next one.
      lo=$(awk -v t="$T" -v k=$kills 'BEGIN { print t * (0.15 + k * 0.02) }')
      hi=$(awk -v t="$T" -v k=$kills -v first=$([ -z "$resume" ] && echo 1 || echo 0) \
        'BEGIN { print first ? t * 0.6 : t * (1 + k * 0.05) }')
      sleep "$(draw "$lo" "$hi")"
      sig=KILL
      [ $((seed % 4)) -eq 0 ] && sig=TERM
      kill -s $sig $pid 2>/dev/null && kills=$((kills + 1))
      wait $pid 2>/dev/null
      rc=$?
      log="$log $rc$(grep -o '^resumed: from [^,]*, after [0-9.]* s' "$tmp/out" | sed 's/.*after / @/')"
      # ended (0: no bug, 1: a bug); killed (137) or stopped (143): go on
      # from the checkpoint, or from the start if there is none yet (or
      # none any more: killed on its way out after the end)
      [ $rc -ne 137 ] && [ $rc -ne 143 ] && break
      if [ -f "$ck" ]; then resume="--resume $ck"; else resume=""; fi
    done
    got=$(figures <"$tmp/out")
    [ $loose -eq 1 ] && got=$(echo "$got" | sed 's/  max-depth: .*//')
    grep -q '^resumed: from ' "$tmp/out" && exercised=$((exercised + 1))
    if [ $rc -eq $want_rc ] && [ "$got" = "$ref" ]; then
      if [ $rc -eq 1 ]; then   # the trace replays to the same bug
        rr=$(run --replay "$tmp/o/"*.schedule "$@" 2>&1)
        if [ "$(echo "$rr" | grep '^bug: ')" != "$(echo "$ref" | grep '^bug: ')" ]; then
          bad "$name: cycle $c: the trace after $kills kills does not replay to the bug"
          continue
        fi
      fi
      ok "$name: cycle $c: $kills kills, then $(echo "$got" | grep '^states:')"
    else
      bad "$name: cycle $c (seed $seed): $kills kills (exits:$log), exit $rc (want $want_rc): got"
      echo "$got"
      echo "want:"
      echo "$ref"
      tail -n 3 "$tmp/err"
    fi
  done
  if [ $exercised -gt 0 ]; then ok "$name: resumed in $exercised of $cycles cycles"
  elif [ $mayend -eq 1 ]; then echo "SKIP: $name: each run ended before its first kill (the case below resumes)"
  else bad "$name: no cycle resumed (each run ended before its first kill)"; fi
}

P=models/paxos
D=tests/checkpoint/deepbug.p
cycles "dfs" -S dfs --no-reduction -tc tcThriftyRetry $P
cycles "dfs, reduction" -S dfs -tc tcThriftyRetry $P
cycles "bfs" -S bfs --no-reduction -tc tcThriftyRetry $P
cycles "bfs -j 2" -S bfs -j 2 --no-reduction -tc tcThriftyRetry $P
cycles "bfs, a deep bug" -S bfs --no-reduction $D
cycles "ses" -S ses --no-reduction -tc tcThriftyRetry $P
cycles "ses, reduction" -S ses -tc tcThriftyRetry $P
cycles --threads "ses -j 2" -S ses -j 2 --no-reduction -tc tcThriftyOneRound $P
cycles "ses, a deep bug" -S ses --no-reduction $D
# The hot-cycle search of its own is under way at most checkpoints here
# (its Tarjan stack saved and restored); the lasso it finds is the same.
# wide.p alone can end before the first kill in the optimised build; the
# drain of visited_full.p's hot region in the full graph (over a million states, no bug)
# takes long enough in every build.
cycles --may-end-first "ses, a hot cycle" -S ses --trace-format schedule tests/liveness/wide.p
cycles "ses, draining its hot-cycle search" -S ses --no-reduction tests/liveness/visited_full.p

# (b) Refusals.
refuse() {   # refuse WHAT MESSAGE ARGS...: exit 2 and the message on stderr
  what=$1 msg=$2
  shift 2
  r=$(run "$@" 2>&1)
  rc=$?
  if [ $rc -eq 2 ] && echo "$r" | grep -qF -- "$msg"; then ok "refused: $what"
  else bad "refused: $what: exit $rc"; echo "$r" | tail -n 3; fi
}
ck=$tmp/ck2
C=models/chainreplication
run -q -S dfs --no-reduction -tc tcOneFailure --checkpoint "$ck" --checkpoint-every 0.05 --timeout 1 -o "$tmp/o" $C \
  >"$tmp/out" 2>&1
if [ -f "$ck" ] && grep -q "^checkpoint: $ck (" "$tmp/out"; then ok "a timeout leaves a checkpoint: $(grep '^checkpoint:' "$tmp/out")"
else bad "a timeout leaves no checkpoint"; cat "$tmp/out"; fi
cp -R $C "$tmp/chain2" && chmod -R u+w "$tmp/chain2"   # (make distcheck: the sources are read-only)
echo "fun CheckpointTestExtra(): int { return 1; }" >>"$tmp/chain2/PSrc/$(ls $C/PSrc | head -n 1)"   # the program changed
refuse "another model" "is for another model" --resume "$ck" -o "$tmp/o" "$tmp/chain2" --no-reduction
refuse "another test" "is for test 'tcOneFailure', not 'tcTwoClients'" --resume "$ck" -tc tcTwoClients --no-reduction -o "$tmp/o" $C
refuse "another search" "is of --search dfs, not bfs" --resume "$ck" -S bfs --no-reduction -o "$tmp/o" $C
refuse "other options" "(reduction: off in the checkpoint, on now)" --resume "$ck" -o "$tmp/o" $C
# (the options in the order of checker/cli/options.def)
refuse "another seed, cache" "cache: flat in the checkpoint, compact now; seed: 0 in the checkpoint, 5 now" \
  --resume "$ck" --no-reduction --seed 5 --cache compact -o "$tmp/o" $C
head -c 200 "$ck" >"$tmp/cut"
refuse "a file cut short" "is damaged (its checksum does not match" --resume "$tmp/cut" -o "$tmp/o" $C
cp "$ck" "$tmp/flip"
printf 'X' | dd of="$tmp/flip" bs=1 seek=300 conv=notrunc 2>/dev/null
refuse "a changed byte" "is damaged" --resume "$tmp/flip" -o "$tmp/o" $C
refuse "not a checkpoint" "is not a pcheck checkpoint" --resume $D -o "$tmp/o" $D
refuse "a missing file" "cannot read the checkpoint" --resume "$tmp/none" -o "$tmp/o" $P
refuse "several tests" "is for one test case, and 2 are selected" -S dfs -tc 'tcThrifty*' --checkpoint "$tmp/x" -o "$tmp/o" $P
refuse "random" "dfs, bfs, ses and ss write checkpoints" -S random --checkpoint "$tmp/x" -tc tcThriftyRetry -o "$tmp/o" $P
refuse "the portfolio" "not --search portfolio" --checkpoint "$tmp/x" -tc tcThriftyRetry -o "$tmp/o" $P
refuse "dfs on threads" "dfs checkpoints one stack" -S dfs -j 2 --no-reduction --checkpoint "$tmp/x" -tc tcThriftyRetry -o "$tmp/o" $P
refuse "--keep-going" "cannot be checkpointed" -S dfs --keep-going --checkpoint "$tmp/x" -tc tcThriftyRetry -o "$tmp/o" $P
refuse "an unwritable folder" "cannot write the checkpoint '/nonexistent-folder/ck': No such file or directory" \
  -S dfs --checkpoint /nonexistent-folder/ck -tc tcThriftyRetry -o "$tmp/o" $P
refuse "--checkpoint-every 0" "--checkpoint-every needs a positive number" -S dfs --checkpoint "$tmp/x" --checkpoint-every 0 $P

# (c) Another --mem; a stop by SIGTERM; the end removes the checkpoint.
r=$(run -q --resume "$ck" --no-reduction --mem 3G -o "$tmp/o" $C 2>&1)
if [ $? -eq 0 ] && echo "$r" | grep -q '^states: 743047 ' && [ -f "$ck" ]; then ok "resumed under another --mem (the checkpoint stays: none asked for)"
else bad "resume under another --mem"; echo "$r" | tail -n 3; fi
# A checkpoint whose cache has grown past 2 MiB (polled: how soon depends
# on the build), resumed with a budget that gives the cache 1 MiB.
${PCHECK_WRAPPER:-} "$PCHECK" -q -S dfs --cache compact --no-reduction -tc tcOneFailure --checkpoint "$tmp/big" \
  --checkpoint-every 0.1 -o "$tmp/o" models/chainreplication >/dev/null 2>&1 &
pid=$!
n=0
while [ $n -lt 1200 ] && [ "$(stat -c %s "$tmp/big" 2>/dev/null || echo 0)" -lt 3000000 ] && kill -0 $pid 2>/dev/null; do
  sleep 0.1
  n=$((n + 1))
done
kill $pid 2>/dev/null
wait $pid 2>/dev/null
r=$(run -q --resume "$tmp/big" --no-reduction --cache compact --mem 2M -o "$tmp/o" models/chainreplication 2>&1)
if [ $? -eq 3 ] && echo "$r" | grep -q 'resume with a larger --mem'; then ok "a cache larger than --mem gives it: refused, with what to do"
else bad "a cache larger than --mem: $(echo "$r" | tail -n 2)"; fi
${PCHECK_WRAPPER:-} "$PCHECK" -q -S bfs --no-reduction -tc tcThriftyRetry --checkpoint "$tmp/t" --fail-on-incomplete \
  -o "$tmp/o" $P >"$tmp/out" 2>&1 &
pid=$!
sleep 0.3
kill -s TERM $pid
wait $pid
rc=$?
if [ $rc -eq 4 ] && [ -f "$tmp/t" ] && grep -q "^checkpoint: $tmp/t (" "$tmp/out"; then ok "SIGTERM: a last checkpoint, exit 4 with --fail-on-incomplete"
else bad "SIGTERM: exit $rc, $(grep '^checkpoint' "$tmp/out")"; fi
r=$(run -q --resume "$tmp/t" --checkpoint "$tmp/t" --no-reduction --stats-json "$tmp/s.json" -o "$tmp/o" $P 2>&1)
if [ $? -eq 0 ] && [ ! -f "$tmp/t" ] && echo "$r" | grep -q "^checkpoint: $tmp/t removed (the search ended"; then ok "the search ended: its checkpoint removed"
else bad "the checkpoint of an ended search: $(echo "$r" | grep checkpoint)"; fi
if grep -q "\"checkpoint\": {\"file\": \"$tmp/t\", \"written\": [0-9]*, \"write_seconds\": [0-9.]*, \"resumed_from\": \"$tmp/t\", \"seconds_before\": [0-9.]*}" "$tmp/s.json" &&
   grep -q '"states": 225615,' "$tmp/s.json"; then ok "--stats-json: the checkpoint object"
else bad "--stats-json: no checkpoint object"; grep checkpoint "$tmp/s.json"; fi
echo "# passed: $pass failed: $fail"
[ "$fail" -eq 0 ]
