#!/bin/sh
# bita.sh: --search bita, Bita's coverage-guided schedule generation
# (issue 16, doc/coverage.md, checker/search/search_bita.c).
# - Bita's writer example (tests/coverage/writer.p): bita covers the 6 PR
#   goals and the 4 PBR goals within 4 executions for every seed 1..10, and
#   with 2 executions (the initial one and one forced schedule) for some;
#   random executions, given the same number, cover fewer goals in total;
# - every schedule written by --save-schedules replays (--replay: the trace
#   runs to its end), on the writer and on protocol models; the files say
#   which goal they were made for; a run removes the schedules an earlier
#   run of the test left, and nothing else;
# - bita finds the seeded bugs of clientserver's variants within a few
#   executions, and its trace replays to the bug;
# - the same seed gives the same run; --save-schedules on another search is
#   a warning; an unwritable folder is refused before the search (exit 2).
. "${srcdir:-.}/tests/lib.sh"
w=tests/coverage/writer.p
export PCHECK_STDLIB="${PCHECK_STDLIB:-$PWD/stdlib}"

# 1. The writer: all goals within 4 executions, seeds 1..10; 2 for some seed.
all=1 two=0 pb=0 prb=0 prr=0
for s in 1 2 3 4 5 6 7 8 9 10; do
  out=$(run -S bita --seed "$s" --schedules 4 --coverage -q -o "$tmp/w" $w 2>&1)
  echo "$out" | grep -q '^schedule coverage: PR 6/6 goals, PCR [0-9]*/[0-9]*, PBR 4/4$' || { all=0; echo "seed $s: $out"; }
  two2=$(run -S bita --seed "$s" --schedules 2 --coverage -q -o "$tmp/w" $w 2>&1)
  echo "$two2" | grep -q '^schedule coverage: PR 6/6 goals' && two=$((two + 1))
  for alg in bita random; do
    n=$(run -S $alg --seed "$s" --schedules 3 --coverage -q -o "$tmp/w" $w 2>&1 |
        sed -n 's/^schedule coverage: PR \([0-9]*\)\/.*/\1/p')
    if [ $alg = bita ]; then pb=$((pb + n)); else prr=$((prr + n)); fi
  done
done
if [ $all = 1 ]; then ok "writer: bita covers 6/6 PR and 4/4 PBR goals within 4 executions, seeds 1-10"
else bad "writer: bita left goals uncovered"; fi
if [ $two -ge 1 ]; then ok "writer: two executions cover the 6 PR goals ($two seeds of 10)"
else bad "writer: no seed covered the PR goals with two executions"; fi
if [ $pb -gt $prr ]; then ok "writer: in 3 executions bita covers more PR goals than random ($pb against $prr over 10 seeds)"
else bad "writer: bita $pb PR goals, random $prr"; fi

# 2. Saved schedules replay, and say their goal.
out=$(run -S bita --seed 1 --schedules 6 --save-schedules "$tmp/sch" -q -o "$tmp/w" $w 2>&1); rc=$?
n=$(ls "$tmp/sch" | grep -c '^Main-[0-9]*\.schedule$')
if [ "$rc" -eq 0 ] && [ "$n" -ge 1 ] && echo "$out" | grep -qx "schedules: $n written to $tmp/sch (Main-1.schedule, ...)"; then
  ok "writer: $n schedules written and listed"
else bad "writer --save-schedules (exit $rc, $n files)"; echo "$out"; fi
if grep -q '^# bita schedule 1: P[RCB]*R goal at Writer(2): e[A-Za-z]* (receive [0-9]* of the base execution) before e[A-Za-z]* (receive [0-9]*)' "$tmp/sch/Main-1.schedule" &&
   grep -q '^search: bita$' "$tmp/sch/Main-1.schedule"; then ok "a saved schedule names its goal"
else bad "schedule header"; head -n 9 "$tmp/sch/Main-1.schedule"; fi
replays() {   # MODEL DIR: every schedule in DIR replays to its end
  bad_one=
  for f in "$2"/*.schedule; do
    r=$(run --replay "$f" "$1" 2>&1); c=$?
    steps=$(grep -c '^[md] ' "$f")
    if [ "$c" -ne 0 ] || ! echo "$r" | grep -q "^result: no-bug (the trace ran to its end, $steps steps, without a bug)$"; then
      bad_one="$f"; echo "$r" | tail -n 3
    fi
  done
  [ -z "$bad_one" ]
}
if replays $w "$tmp/sch"; then ok "writer: every saved schedule replays"; else bad "writer: $bad_one does not replay"; fi
for mt in "clientserver tcMultipleClients" "devicedriver tcTwoTransfers" "paxos tcTwoProposers"; do
  set -- $mt
  run --list-tests "models/$1" 2>/dev/null | grep -qx "$2" || { bad "models/$1 has no test $2"; continue; }
  rm -rf "$tmp/m"
  out=$(run -S bita --seed 2 --schedules 25 --save-schedules "$tmp/m" -q -o "$tmp/w" -tc "$2" "models/$1" 2>&1); rc=$?
  k=$(ls "$tmp/m" | grep -c "^$2-[0-9]*\.schedule$")
  if [ "$rc" -eq 0 ] && [ "$k" -ge 5 ] && replays "models/$1" "$tmp/m"; then ok "$1 $2: its $k schedules replay"
  else bad "$1 $2 (exit $rc, $k schedules) ${bad_one:-}"; echo "$out" | tail -n 3; fi
done

# 3. Old schedules of the test go, other files stay.
mkdir -p "$tmp/old" && for f in Main-99.schedule Main-x.schedule Other-1.schedule notes.txt; do : >"$tmp/old/$f"; done
run -S bita --seed 1 --schedules 2 --save-schedules "$tmp/old" -q -o "$tmp/w" $w >/dev/null 2>&1
if [ ! -e "$tmp/old/Main-99.schedule" ] && [ -e "$tmp/old/Main-x.schedule" ] && [ -e "$tmp/old/Other-1.schedule" ] &&
   [ -e "$tmp/old/notes.txt" ] && [ -e "$tmp/old/Main-1.schedule" ]; then ok "an earlier run's schedules of the test are removed, nothing else"
else bad "stale schedules"; ls "$tmp/old"; fi

# 4. Bugs: found, and the trace replays to the bug.
for t in tcBugNoDefer tcBugLostUpdate tcBugLostWakeup tcBugLockLeak tcBugReplyOrder; do
  out=$(run -S bita --seed 1 --schedules 200 -q -o "$tmp/b" -tc $t models/clientserver 2>&1); rc=$?
  ex=$(echo "$out" | field executions)
  r=$(run --replay "$tmp/b/$t.schedule" models/clientserver 2>&1); rc2=$?
  if [ "$rc" -eq 1 ] && [ "$rc2" -eq 1 ] && echo "$r" | grep -q '^result: bug-found$'; then ok "clientserver $t: bita finds it ($ex executions), it replays"
  else bad "clientserver $t (exit $rc, replay $rc2)"; echo "$out" | tail -n 4; fi
done

# 5. Same seed, same run; options.
a=$(run -S bita --seed 7 --schedules 30 --coverage -q -o "$tmp/r1" -tc tcSingleClient models/clientserver 2>&1 | grep -v '^wrote\|^time\|transitions')
b=$(run -S bita --seed 7 --schedules 30 --coverage -q -o "$tmp/r2" -tc tcSingleClient models/clientserver 2>&1 | grep -v '^wrote\|^time\|transitions')
if [ "$a" = "$b" ] && cmp -s "$tmp/r1/tcSingleClient.coverage.json" "$tmp/r2/tcSingleClient.coverage.json"; then
  ok "the same seed gives the same run and coverage"
else bad "bita is not reproducible"; echo "$a"; echo "$b"; fi
r=$(run -S random --schedules 2 --save-schedules "$tmp/x" -q -o "$tmp/w" $w 2>&1); rc=$?
if [ "$rc" -eq 0 ] && echo "$r" | grep -q 'warning: --save-schedules has no effect on --search random (it acts on: bita)' && [ ! -e "$tmp/x" ]; then
  ok "--save-schedules on random: a warning"
else bad "--save-schedules with random (exit $rc)"; echo "$r"; fi
: >"$tmp/afile"
r=$(run -S bita --schedules 2 --save-schedules "$tmp/afile/s" -q -o "$tmp/w" $w 2>&1); rc=$?
if [ "$rc" -eq 2 ] && echo "$r" | grep -q "cannot write into the --save-schedules folder '$tmp/afile/s'" && ! echo "$r" | grep -q '^result:'; then
  ok "an unwritable --save-schedules folder is refused before the search"
else bad "unwritable --save-schedules (exit $rc)"; echo "$r"; fi

echo "# passed: $pass failed: $fail"
[ "$fail" -eq 0 ]
