#!/bin/sh
# portfolio.sh: the portfolio search (checker/search/search_portfolio.c).
# - a correct model is proved complete with exactly dfs's state count;
# - every seeded bug of models/clientserver is found, the member that found
#   it is named, and the trace replays to the same bug;
# - a bug only a sampling member finds soon (tests/portfolio/random_wins.p)
#   is found by it, in far fewer steps than dfs needs, and one only an
#   exhaustive member finds soon (exhaustive_wins.p) by ses or dfs, and
#   one pct finds soon (pct_wins.p), one ss finds soon (ss_wins.p),
#   one dfs finds soon (dfs_wins.p) and one ses finds soon (the hard model
#   vrpaxos), by the portfolio too;
# - the result is the same for the same --seed and -j (1 and 2);
# - --timeout stops every member; liveness verdicts are dfs's.
. "${srcdir:-.}/tests/lib.sh"
strip_time() { sed "s/time: [0-9.]*//; /^trace: /d; /^wrote: /d"; }

for m in "tests/golden/search/two_workers.p -tc Main" "models/clientserver -tc tcSingleClient" "models/german -tc tcTwoCaches"; do
  d=$(run --search dfs --no-reduction -q --mem 1G $m 2>&1 | field states)
  r=$(run --search portfolio --no-reduction -q --mem 1G $m 2>&1); rc=$?
  p=$(echo "$r" | field states)
  if [ "$rc" -eq 0 ] && echo "$r" | grep -q '^result: no-bug (complete)$' && [ -n "$d" ] && [ "$p" = "$d" ]; then
    ok "portfolio proves $m in $p states, as dfs"
  else bad "portfolio on $m: exit $rc, $p states, dfs $d"; echo "$r" | tail -n 4; fi
done

# The shared cache (one thread): dfs publishes the states it has finished
# and ses skips them; the proof is the same, with exactly dfs's states,
# whichever member completes; --no-shared-cache is the plain way.  The
# counts are compared without the partial-order reduction (reduction.sh
# checks the verdicts with it).
for m in "models/clientserver -tc tcMultipleClients" "models/german -tc tcThreeCaches" "models/twophase_n -tc tcTwoPhase___N_4"; do
  d=$(run --search dfs --no-reduction -q $m 2>&1 | field states)
  r=$(run --search portfolio --no-reduction $m 2>&1); rc=$?
  r2=$(run --search portfolio --no-reduction --no-shared-cache $m 2>&1); rc2=$?
  p=$(echo "$r" | field states) p2=$(echo "$r2" | field states)
  if [ "$rc" -eq 0 ] && [ "$rc2" -eq 0 ] && [ "$p" = "$d" ] && [ "$p2" = "$d" ] &&
     echo "$r" | grep -Eq '^portfolio: (ses/rtc covered every state \(skipping [1-9][0-9]* that dfs had finished\)|dfs covered every state)$' &&
     ! echo "$r2" | grep -q 'dfs had finished'; then
    ok "shared cache: $m proved in $d states as without it ($(echo "$r" | grep '^portfolio: .* covered' | sed 's/^portfolio: //'))"
  else bad "shared cache on $m: exit $rc/$rc2, $p/$p2 states, dfs $d"; echo "$r" | grep '^portfolio' ; fi
done

for t in tcBugNoDefer tcBugLostUpdate tcBugLostWakeup tcBugLockLeak tcBugReplyOrder; do
  rm -rf "$tmp/b"
  r=$(run --search portfolio -q --timeout 120 -tc $t -o "$tmp/b" models/clientserver 2>&1); rc=$?
  bug=$(echo "$r" | grep '^bug: ')
  if [ "$rc" -eq 1 ] && echo "$r" | grep -q '^portfolio: [a-z/]* found the bug after' &&
     [ "$(run --replay "$tmp/b/$t.schedule" models/clientserver 2>&1 | grep '^bug: ')" = "$bug" ]; then
    ok "portfolio finds $t ($(echo "$r" | sed -n 's/^portfolio: \(.*\) found.*/\1/p')) and it replays"
  else bad "portfolio on $t: exit $rc"; echo "$r" | tail -n 4; fi
done

# wins ALG FIELD MAX SCHEDULES "SAMPLERS" "EXHAUSTIVE" LABEL NAME INPUT...:
# ALG finds the bug of INPUT after fewer than MAX of its FIELD (states or
# executions); each of SAMPLERS (seed 1) misses it in SCHEDULES executions,
# each of EXHAUSTIVE in 3 s; the portfolio (seed 1) finds it by LABEL.
wins() {
  alg=$1 fld=$2 max=$3 sch=$4 samplers=$5 exh=$6 label=$7 name=$8
  shift 8
  share_mine || return 0
  case $alg in random|pct|ss) seed="--seed 1" ;; *) seed="" ;; esac
  r=$(run --search "$alg" $seed -q -o "$tmp/w" "$@" 2>&1); rc=$?
  n=$(echo "$r" | field "$fld")
  others=""
  for a in $samplers; do run --search "$a" --seed 1 --schedules "$sch" -q -o "$tmp/w2" "$@" >/dev/null 2>&1; others="$others $a:$?"; done
  for a in $exh; do run --search "$a" -q --timeout 3 -o "$tmp/w2" "$@" >/dev/null 2>&1; others="$others $a:$?"; done
  rp=$(run --search portfolio --seed 1 -q -o "$tmp/w3" "$@" 2>&1); rcp=$?
  if [ "$rc" -eq 1 ] && [ "${n:-99999}" -lt "$max" ] && ! echo "$others" | grep -q ':[^0]' && [ "$rcp" -eq 1 ] &&
     echo "$rp" | grep -q "^portfolio: $label found the bug after [0-9]* $fld\$"; then
    ok "$alg finds the bug after $n $fld; $samplers not in $sch executions, $exh not in 3 s; the portfolio by $label"
  else bad "$name: $alg exit $rc ($n $fld), the others (exits)$others, portfolio $rcp"; echo "$rp" | tail -n 4; fi
}

r=$(run --search portfolio -q --seed 1 -o "$tmp/r" tests/portfolio/random_wins.p 2>&1); rc=$?
d=$(run --search dfs -q -o "$tmp/r2" tests/portfolio/random_wins.p 2>&1 | field states)
if [ "$rc" -eq 1 ] && echo "$r" | grep -Eq '^portfolio: (random|pct|ss/rtc) found the bug' && [ "${d:-0}" -gt 100000 ]; then
  ok "a sampling member finds the bug dfs needs $d states for"
else bad "random_wins: exit $rc"; echo "$r" | tail -n 4; fi

# ... and a bug only the exhaustive members find soon (forty fair coins
# all false): the portfolio finds it at once, random does not in 20,000.
r=$(run --search portfolio -q --seed 1 -o "$tmp/e" tests/portfolio/exhaustive_wins.p 2>&1); rc=$?
r2=$(run --search random -q --seed 1 --schedules 20000 -o "$tmp/e2" tests/portfolio/exhaustive_wins.p 2>&1); rc2=$?
if [ "$rc" -eq 1 ] && echo "$r" | grep -Eq '^portfolio: (ses/rtc|dfs) found the bug after 41 states$' && [ "$rc2" -eq 0 ]; then
  ok "an exhaustive member finds the bug random misses in 20,000 executions"
else bad "exhaustive_wins: exit $rc, random exit $rc2"; echo "$r" | tail -n 4; fi

# ... and one pct is best at (a machine starved for 200 steps, then run
# within 20): pct finds it in about a hundred executions, random and ss
# not in 2,000 (nor in 20 s), dfs not in 20 s; the portfolio finds it (ses
# at 2 delays, 5 times slower than pct alone, may get there first: its
# turns grow faster once it has done PROOF_WORK steps).
r=$(run --search pct --seed 1 -q -o "$tmp/p" tests/portfolio/pct_wins.p 2>&1); rc=$?
n=$(echo "$r" | field executions)
r2=$(run --search random --seed 1 --schedules 2000 -q -o "$tmp/p" tests/portfolio/pct_wins.p 2>&1); rc2=$?
r3=$(run --search ss --seed 1 --schedules 2000 -q -o "$tmp/p" tests/portfolio/pct_wins.p 2>&1); rc3=$?
r4=$(run --search portfolio --seed 1 -q -o "$tmp/p" tests/portfolio/pct_wins.p 2>&1); rc4=$?
if [ "$rc" -eq 1 ] && [ "${n:-99999}" -lt 1000 ] && [ "$rc2" -eq 0 ] && [ "$rc3" -eq 0 ] && [ "$rc4" -eq 1 ] &&
   echo "$r4" | grep -q 'the mark came after number 10[0-9]'; then
  ok "pct finds the starvation bug in $n executions, random and ss not in 2,000; the portfolio finds it"
else bad "pct_wins: pct exit $rc ($n executions), random $rc2, ss $rc3, portfolio $rc4"; echo "$r4" | tail -n 4; fi

# ... and one ss is best at (two delays of rtc, each anywhere in a wide
# window of a long execution): ss finds it in about 400 executions; random
# and pct not in 2,000 (nor in 20,000; pct cannot: the change it needs
# falls past its 1,000 steps), ses and dfs not in 3 s (nor in 20 s); the
# portfolio finds it by ss (in about 4 s on one thread: ss keeps about a
# seventh of the time).
wins ss executions 1000 2000 "random pct" "ses dfs" ss/rtc ss_wins tests/portfolio/ss_wins.p

# ... and one dfs is best at (the machine created first runs first,
# everywhere: eight deviations from rtc): dfs finds it on its first path;
# random, pct and ss not in 2,000 executions, ses not in 3 s (nor in 20 s);
# the portfolio finds it by dfs.
wins dfs states 1000 2000 "random pct ss" "ses" dfs dfs_wins tests/portfolio/dfs_wins.p

# ... and one ses is best at: a hard model (models/vrpaxos, 30 machines):
# ses with rtc finds the stale PREPARE after one delay and a few thousand
# states; random, pct and ss not in 500 executions (bench/README.md: pct's
# median is about 1,000, random none in 20,000), dfs not in 3 s (nor in
# 120 s); the portfolio finds it by ses.
wins ses states 10000 500 "random pct ss" "dfs" ses/rtc "ses_wins (vrpaxos)" -tc tcBugStalePrepare models/vrpaxos

for j in 1 2; do
  a=$(run --search portfolio -q --seed 7 -j $j -tc tcBugLockLeak -o "$tmp/d1" models/clientserver 2>&1 | strip_time)
  b=$(run --search portfolio -q --seed 7 -j $j -tc tcBugLockLeak -o "$tmp/d2" models/clientserver 2>&1 | strip_time)
  c=$(run --search portfolio -q --seed 7 -j $j -o "$tmp/d3" tests/portfolio/random_wins.p 2>&1 | strip_time)
  e=$(run --search portfolio -q --seed 7 -j $j -o "$tmp/d4" tests/portfolio/random_wins.p 2>&1 | strip_time)
  if [ "$a" = "$b" ] && [ "$c" = "$e" ] && cmp -s "$tmp/d1/tcBugLockLeak.schedule" "$tmp/d2/tcBugLockLeak.schedule" &&
     cmp -s "$tmp/d3/Main.schedule" "$tmp/d4/Main.schedule"; then
    ok "portfolio -j $j: the same result and trace for the same seed"
  else bad "portfolio -j $j differs between runs"; echo "$a"; echo "$b"; fi
done

t0=$(date +%s)
r=$(run --search portfolio --no-reduction -q --timeout 1 -tc tcMultipleClients models/clientserver 2>&1); rc=$?
t1=$(date +%s)
if [ "$rc" -eq 0 ] && [ $((t1 - t0)) -lt 10 ] && echo "$r" | grep -q '^result: no-bug (bounded: timeout)$'; then
  ok "portfolio --timeout 1 stops every member ($((t1 - t0)) s)"
else bad "portfolio --timeout (exit $rc, $((t1 - t0)) s)"; echo "$r" | tail -n 3; fi

r=$(run --search portfolio -q tests/liveness/fair_false.p 2>&1); rc=$?
r2=$(run --search portfolio -q -o "$tmp/l" tests/liveness/reduced_fair.p 2>&1); rc2=$?
if [ "$rc" -eq 0 ] && [ "$rc2" -eq 1 ]; then ok "portfolio: liveness verdicts of dfs (fair cycle only)"
else bad "portfolio liveness: exit $rc and $rc2"; echo "$r" "$r2" | tail -n 4; fi

echo "# passed: $pass failed: $fail"
[ "$fail" -eq 0 ]
