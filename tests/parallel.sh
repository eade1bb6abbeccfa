#!/bin/sh
# parallel.sh: the exhaustive searches on 2 threads against 1 (-j 2, -j 1):
# dfs, bfs, ses with each standard explorer (rtc, rr, prr), pb.
# - every correct test of models/ (expected.txt, up to PAR_MAX_STATES
#   states, default 100000): each search on 2 threads counts exactly the
#   states and transitions of 1 thread, and those are the recorded states;
# - every seeded bug of models/ (expected.txt "bug") that dfs or bfs finds
#   on 1 thread within as many states (bfs does not search for hot cycles):
#   found on 2 threads too, and its .schedule replays to the same bug;
# - every golden program of tests/golden/vm and tests/golden/search that
#   checks: the same verdict on 2 threads as on 1, and, when complete, the
#   same counts.
. "${srcdir:-.}/tests/lib.sh"
max=${PAR_MAX_STATES:-100000}
ptime=${PAR_TIMEOUT:-60}   # seconds the 1-thread run of a bug case may take (the 2-thread one: 4 times as long)
# counts FILE: "states transitions" of a summary
counts() { printf '%s %s' "$(field states <"$1")" "$(field transitions <"$1")"; }
counts_of() { printf '%s %s' "$(echo "$1" | field states)" "$(echo "$1" | field transitions)"; }
verdict() { sed -n 's/^result: //p' "$1" | tail -n 1; }
# search SPEC: the options of dfs, bfs, pb, or ses:EXPLORER.  Exact
# counts are compared without the reduction (its cycle proviso depends on
# the order, which differs between 1 and 2 threads); NAME-red is the
# search with it (ses with rtc), compared by verdict, and within the full
# counts.
search() {
  case $1 in
    ses:*) echo "--no-reduction --search ses --explorer ${1#ses:}" ;;
    *-red) echo "--search ${1%-red}" ;;
    *) echo "--no-reduction --search $1" ;;
  esac
}

for f in models/*/expected.txt; do
  m=${f%/expected.txt}
  while IFS='	' read -r t v states note; do
    case $t in ''|\#*) continue ;; esac
    share_mine || continue
    if [ "$v" = no-bug ]; then
      [ "$states" -le "$max" ] 2>/dev/null || continue
      for s in dfs bfs ses pb; do
        run -q $(search $s-red) -j 2 --mem 2G -tc "$t" "$m" >"$tmp/2" 2>&1
        n2=$(field states <"$tmp/2")
        if [ "$(verdict "$tmp/2")" = "no-bug (complete)" ] && [ "$n2" -le "$states" ]; then
          ok "$m -tc $t: $s -j 2 with the reduction: no bug, $n2 states"
        else bad "$m -tc $t: $s -j 2 with the reduction gave $n2 states ($(verdict "$tmp/2")), full $states"; fi
      done
      for s in dfs bfs ses:rtc ses:rr ses:prr pb; do
        run -q $(search "$s") -j 1 --mem 2G -tc "$t" "$m" >"$tmp/1" 2>&1
        run -q $(search "$s") -j 2 --mem 2G -tc "$t" "$m" >"$tmp/2" 2>&1
        c1=$(counts "$tmp/1") c2=$(counts "$tmp/2")
        if [ "$(verdict "$tmp/2")" = "no-bug (complete)" ] && [ "$c1" = "$c2" ] && [ "${c1%% *}" = "$states" ]; then
          ok "$m -tc $t: $s -j 2 counts $c2 as -j 1 does"
        else bad "$m -tc $t: $s -j 2 gave '$c2' ($(verdict "$tmp/2")), -j 1 '$c1', recorded $states states"; fi
      done
    elif [ "$v" = bug ]; then
      for s in dfs dfs-red bfs bfs-red ses:rtc ses-red pb pb-red; do
        rm -rf "$tmp/o"
        run -q $(search "$s") -j 1 --mem 2G --timeout "$ptime" -tc "$t" -o "$tmp/o" "$m" >"$tmp/1" 2>&1
        [ $? -eq 1 ] && [ "$(field states <"$tmp/1")" -le "$max" ] || continue
        rm -rf "$tmp/o"
        run -q $(search "$s") -j 2 --mem 2G --timeout $((ptime * 4)) -tc "$t" -o "$tmp/o" "$m" >"$tmp/2" 2>&1
        rc=$?
        bugline=$(grep '^bug: ' "$tmp/2")
        if [ "$rc" -eq 1 ] && [ -f "$tmp/o/$t.schedule" ]; then
          run --replay "$tmp/o/$t.schedule" "$m" >"$tmp/r" 2>&1
          if [ $? -eq 1 ] && [ "$(grep '^bug: ' "$tmp/r")" = "$bugline" ]; then ok "$m -tc $t: $s -j 2 finds the bug, its trace replays"
          else bad "$m -tc $t: $s -j 2: the trace does not replay to '$bugline'"; fi
        else bad "$m -tc $t: $s -j 2 does not find the bug (exit $rc)"; tail -n 3 "$tmp/2"; fi
      done
    fi
  done <"$f"
done

# Golden programs: the verdict, and the counts of a complete search (one
# in GOLDEN_EVERY of them, default every one: CI's sanitizer run takes
# fewer).
gi=0
for p in tests/golden/vm/*.p tests/golden/search/*.p; do
  gi=$((gi + 1))
  [ $(((gi - 1) % ${GOLDEN_EVERY:-1})) -eq 0 ] || continue
  share_mine || continue
  for s in dfs bfs ses:rtc pb; do
    run -q $(search "$s") -j 1 --timeout 20 "$p" >"$tmp/1" 2>&1
    r1=$?
    case $r1 in 0|1) ;; *) continue ;; esac   # not a program that checks (a compile error, a usage test)
    run -q $(search "$s") -j 2 --timeout 20 "$p" >"$tmp/2" 2>&1
    r2=$?
    if [ "$r1" -ne "$r2" ]; then bad "$p: $s exits $r1 on 1 thread, $r2 on 2"; continue; fi
    if [ "$(verdict "$tmp/1")" = "no-bug (complete)" ] && [ "$(counts "$tmp/1")" != "$(counts "$tmp/2")" ]; then
      bad "$p: $s counts '$(counts "$tmp/1")' on 1 thread, '$(counts "$tmp/2")' on 2"
    else ok "$p: $s -j 2 agrees with -j 1"; fi
  done
done
# The default cache: flat on one thread, compact for an exhaustive search
# on several; --cache always wins.
kind() { run -q "$@" -tc tcTwoPhase___N_3 models/twophase_n 2>&1 | sed -n 's/^state cache: \([a-z]*\),.*/\1/p'; }
for s in dfs bfs ses pb; do
  a=$(kind --no-reduction --search "$s" -j 1) b=$(kind --no-reduction --search "$s" -j 2)
  c=$(kind --no-reduction --search "$s" -j 2 --cache flat)
  if [ "$a $b $c" = "flat compact flat" ]; then ok "$s: default cache flat on 1 thread, compact on 2, --cache wins"
  else bad "$s: cache kinds '$a $b $c' for -j 1, -j 2, -j 2 --cache flat (expected flat compact flat)"; fi
done
# dfs with the reduction runs on one thread whatever -j says (its stack
# proviso needs one stack), says so, and keeps the flat cache.
a=$(run -q --search dfs -j 1 -tc tcTwoPhase___N_4 models/twophase_n 2>&1)
b=$(run -q --search dfs -j 2 -tc tcTwoPhase___N_4 models/twophase_n 2>&1)
if [ "$(counts_of "$a")" = "$(counts_of "$b")" ] && echo "$b" | grep -q '^reduction: .*; dfs ran on one thread' &&
   echo "$b" | grep -q '^state cache: flat,'; then ok "dfs -j 2 with the reduction: one thread, as -j 1"
else bad "dfs -j 2 with the reduction"; echo "$a" | tail -n 3; echo "$b" | tail -n 3; fi
echo "# passed: $pass failed: $fail"
[ "$fail" -eq 0 ]
