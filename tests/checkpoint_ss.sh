#!/bin/sh
# checkpoint_ss.sh: -S ss stopped and resumed ends where a run never
# stopped ends.  For each case a reference run, then rounds: the search
# starts with --checkpoint F --checkpoint-every 0.05, is killed after a
# random delay (SIGKILL: the last periodic checkpoint stays; SIGTERM: the
# search stops and writes one where it stopped, which it says), and is
# resumed with --resume F --checkpoint F, killed again, until a run ends
# (exit 0 or 1).
# That run must have resumed, and its stratum lines, bug, result, figures
# (executions, transitions, max-depth, delays) and schedule coverage must
# be the reference's, and so must the files it writes (the trace, and
# with --coverage the coverage report); -j 2 must give the same.  The
# delays are fractions of the reference's time, so that the rounds stop
# the search at similar points in optimised and sanitizer builds; the
# random seed is printed (CK_SEED=N repeats a run's delays).
. "${srcdir:-.}/tests/lib.sh"

seed=${CK_SEED:-$$}
echo "# random seed: $seed"
state=$((seed % 2147483648))
# rnd LO HI: r becomes a random integer in LO..HI, the next of the seed's
# sequence (a linear congruential generator, its high bits).
rnd() {
  state=$(((state * 1103515245 + 12345) % 2147483648))
  r=$(($1 + (state / 65536) % ($2 - $1 + 1)))
}
now_ms() { date +%s%3N; }
# What must not change from the reference: the stratum lines (without
# their times), the bug, the result, the figures (without the time) and
# the schedule coverage (--coverage).
figures() {
  grep -E '^(ss:|bug:|result:|transitions:|schedule coverage:)' "$1" | sed 's/, [0-9.]* s$//; s/  time: .*//'
}

# ref NAME ARGS...: the reference run of case NAME: its figures, its
# trace folder, and its time in ms (in $tmp/NAME.*).
ref() {
  name=$1
  shift
  t0=$(now_ms)
  run "$@" -o "$tmp/$name.o" >"$tmp/$name.out" 2>&1
  echo $(($(now_ms) - t0)) >"$tmp/$name.ms"
  figures "$tmp/$name.out" >"$tmp/$name.ref"
  echo "# $name: reference $(grep '^transitions:' "$tmp/$name.out") ($(cat "$tmp/$name.ms") ms)"
}

# round NAME SIGNALS ARGS...: one round of case NAME: each run of the
# search is stopped with the next of SIGNALS ("KILL TERM ...") after a
# random delay (by timeout(1), which signals only its own child); once
# they are used up, it runs to its end.  A run resumes from the
# checkpoint if there is one (a first run killed before writing one
# starts again).  A round whose runs ended before a resume is tried again.
round() {
  name=$1 sigs=$2
  shift 2
  ck=$tmp/$name.ck
  T=$(cat "$tmp/$name.ms")
  : >"$tmp/runs.out"
  for try in 1 2 3; do
    rm -f "$ck"
    rm -rf "$tmp/r.o"
    left=$sigs runs=0 how="" termck=""
    while :; do
      from=""
      [ -f "$ck" ] && from="--resume $ck"
      sig=${left%% *}
      if [ -n "$sig" ]; then
        left=${left#"$sig"}
        left=${left# }
        if [ -n "$from" ]; then rnd 5 40; else rnd 20 50; fi
        d=$((T * r / 100))
        stop="timeout --preserve-status -s $sig $((d / 1000)).$(printf %03d $((d % 1000)))"
      else
        stop=""
      fi
      # shellcheck disable=SC2086
      $stop ${PCHECK_WRAPPER:-} "$PCHECK" "$@" -o "$tmp/r.o" $from --checkpoint "$ck" --checkpoint-every 0.05 \
        >"$tmp/r.out" 2>&1
      rc=$?
      runs=$((runs + 1))
      cat "$tmp/r.out" >>"$tmp/runs.out"
      [ $rc -eq 0 ] || [ $rc -eq 1 ] && break
      if [ $rc -ne 137 ] && [ $rc -ne 143 ]; then break; fi
      how="$how $sig@${d}ms"
      # SIGTERM: the search stops and says which checkpoint it leaves (a
      # signal before the model is read ends pcheck at once: no summary,
      # nothing to save yet).
      [ $rc -eq 143 ] && grep -q '^result:' "$tmp/r.out" && ! grep -q "^checkpoint: $ck (" "$tmp/r.out" &&
        termck="$termck $runs"
    done
    grep -q "^resumed: from $ck" "$tmp/r.out" && break
    echo "# $name: the runs ended before a resume (try $try)"
  done
  if grep -E 'Sanitizer|runtime error' "$tmp/runs.out"; then
    bad "$name ($*): a sanitizer spoke"
  elif [ $rc -gt 1 ]; then
    bad "$name ($*): exit $rc"; tail -n 5 "$tmp/r.out"
  elif ! grep -q "^resumed: from $ck" "$tmp/r.out"; then
    bad "$name ($*): no run was resumed in 3 tries"
  elif [ -n "$termck" ]; then
    bad "$name ($*), stopped$how: run(s)$termck, stopped by SIGTERM, wrote no checkpoint"
  elif ! figures "$tmp/r.out" | cmp -s - "$tmp/$name.ref"; then
    bad "$name ($*), stopped$how: other figures than a run never stopped"
    figures "$tmp/r.out" | diff "$tmp/$name.ref" -
  elif [ -d "$tmp/$name.o" ] && ! diff -r "$tmp/$name.o" "$tmp/r.o" >/dev/null; then
    bad "$name ($*), stopped$how: other files than a run never stopped"; diff -r "$tmp/$name.o" "$tmp/r.o" | head -n 5
  else
    ok "$name ($*): $runs runs, stopped$how: the reference's figures and files"
  fi
}

P="--seed 1 --coverage -tc tcThriftyRetry models/paxos"
# The interleaved schedule: checkpoints between rounds of 128 executions.
ref inter -S ss --schedules 40000 $P
round inter "KILL KILL" -S ss --schedules 40000 $P
round inter "TERM TERM" -S ss --schedules 40000 $P
round inter "TERM KILL TERM" -S ss --schedules 40000 $P
round inter "KILL TERM" -S ss --schedules 40000 -j 2 $P
# The paper's schedule: a stratum drawn in windows, checkpoints between them.
ref strata -S ss --ss-schedule strata --schedules 60000 $P
round strata "KILL TERM KILL" -S ss --ss-schedule strata --schedules 60000 $P
round strata "TERM KILL" -S ss --ss-schedule strata --schedules 60000 -j 2 $P
# A bug at delay bound 3 after 29,897 executions: the same bug and trace.
B="--seed 1 -tc tcBugTimerRestart models/devicedriver"
ref bug -S ss $B
round bug "TERM KILL" -S ss $B
round bug "KILL TERM" -S ss -j 2 $B

echo "# passed: $pass failed: $fail"
[ "$fail" -eq 0 ]
