#!/bin/sh
# soundness.sh: no reachable bug is ever turned into "complete" (issue 34;
# doc/reduction.md).
# 1. The models on which the partial-order reduction once hid a reachable
#    bug (tests/reduction/: rule 5 and "Endless paths"), each searched
#    with the default options and a 10 s budget by every search its header
#    names (default: dfs, bfs, ses, pb and the portfolio; "none": only
#    below), on 1 and 2 threads: the bug of its "// expect:" line must be
#    found (its trace replaying to it without the reduction), and never a
#    "complete"; an inbox overflow with --inbox-overflow-is-bug, and by
#    default the inbox bound reached (issue 42), with its way there.  "// expect: none": no bug, and a reduced bfs stopped by
#    its timeout claims only a depth of the reduced graph and an eighth of
#    it in steps.
# 2. The oracle, --check-reduction, on a bug model and on clientserver.
# 3. The other claims of "complete": a state cache full at its budget, a
#    frontier past its budget (bfs, pb), ses turning to sampling (SES then
#    SS), the portfolio's shared cache of states dfs has finished: each
#    either finds the bug or says "bounded".
. "${srcdir:-.}/tests/lib.sh"

kind() { sed -n 's/^bug: \([^:]*\) at .*/\1/p' | head -n 1; }

for p in tests/reduction/*.p; do
  share_mine || continue
  expect=$(sed -n 's|^// expect: *||p' "$p" | head -n 1)
  searches=$(sed -n 's|^// searches: *||p' "$p" | head -n 1)
  case $searches in none*) continue ;; esac
  # An inbox overflow is a bug with --inbox-overflow-is-bug; by default
  # it is a bound (P's inboxes have none), never "complete" either.
  bug_opt=
  [ "$expect" = "inbox overflow" ] && bug_opt=--inbox-overflow-is-bug
  for s in ${searches:-dfs bfs ses pb portfolio}; do
    if [ -n "$bug_opt" ]; then
      out=$(run -S "$s" --seed 1 --timeout 10 -q -o "$tmp/o" "$p" 2>&1); rc=$?
      if [ "$rc" -eq 0 ] && echo "$out" | grep -q "^result: no-bug (bounded: limit reached: the send would make the inbox of" &&
         [ -f "$tmp/o/Main.limit.schedule" ]; then ok "$p ($s, default options): the inbox bound reached, its way there written"
      else bad "$p ($s, default options): exit $rc, $(echo "$out" | grep '^result: ')"; fi
      rm -rf "$tmp/o"
    fi
    for j in 1 2; do
      # shellcheck disable=SC2086
      out=$(run -S "$s" -j "$j" --seed 1 --timeout 10 -q $bug_opt -o "$tmp/o" "$p" 2>&1); rc=$?
      res=$(echo "$out" | grep '^result: ')
      case $res in "result: no-bug (complete)") if [ "$expect" != none ]; then bad "$p ($s -j $j): $res"; continue; fi ;; esac
      if [ "$expect" = none ]; then
        if [ "$rc" -ne 0 ]; then bad "$p ($s -j $j): exit $rc, $res"; continue; fi
        g=$(echo "$out" | sed -n 's/^guarantee: //p')
        d=$(echo "$g" | sed -n 's/^no bug within depth \([0-9]*\) of the reduced search, so in every execution of at most \([0-9]*\) steps.*/\1 \2/p')
        set -- $d
        if [ $# -eq 2 ] && [ $(($2 * 8)) -le "$1" ]; then ok "$p ($s -j $j): $g"
        else bad "$p ($s -j $j): guarantee '$g'"; fi
        continue
      fi
      got=$(echo "$out" | kind)
      if [ "$rc" -ne 1 ] || [ "$got" != "$expect" ]; then bad "$p ($s -j $j): exit $rc, '$got', not '$expect' ($res)"; continue; fi
      sched=$(ls "$tmp/o"/*.schedule 2>/dev/null | head -n 1)
      rp=$(run --replay "$sched" --no-reduction "$p" 2>&1 | kind)
      rm -rf "$tmp/o"
      if [ "$rp" = "$expect" ]; then ok "$p ($s -j $j): $expect, the trace replays to it"
      else bad "$p ($s -j $j): the trace replays to '$rp'"; fi
    done
  done
done

# The oracle: a finite model the reduction completes agrees with the full
# search; each of these models' reduced searches must stop at their bug,
# so it has nothing to compare.
for p in tests/reduction/burst.p tests/golden/search/deadlock_dfs.p; do
  [ -f "$p" ] || continue
  out=$(run -S dfs --check-reduction --inbox-overflow-is-bug -q -o "$tmp/o" "$p" 2>&1)
  if echo "$out" | grep -q '^check-reduction: nothing to compare: the reduced search found a bug'; then ok "--check-reduction on $p: a bug, nothing to compare"
  else bad "--check-reduction on $p: $(echo "$out" | grep check-reduction)"; fi
done
for t in tcSingleClient tcMultipleClients; do
  ss="dfs bfs ses pb portfolio"; [ "$t" = tcSingleClient ] || ss=dfs
  for s in $ss; do
    out=$(run -S "$s" --check-reduction --seed 1 -q -o "$tmp/o" -tc "$t" models/clientserver 2>&1); rc=$?
    if [ "$rc" -eq 0 ] && echo "$out" | grep -q '^check-reduction: agrees: '; then ok "--check-reduction $s $t: $(echo "$out" | grep '^check-reduction')"
    else bad "--check-reduction $s $t: exit $rc: $(echo "$out" | grep -E '^check-reduction|^result')"; fi
  done
done

# never_complete NAME EXPECT ARGS...: the run finds bug kind EXPECT, or
# stops "bounded" (EXPECT "-": no bug is expected, only no "complete").
never_complete() {
  name=$1 expect=$2; shift 2
  out=$(run --seed 1 --timeout 10 -q -o "$tmp/o" "$@" 2>&1); rc=$?
  rm -rf "$tmp/o"
  res=$(echo "$out" | grep '^result: ')
  got=$(echo "$out" | kind)
  case $res in
    "result: no-bug (complete)") bad "$name: $res" ;;
    "result: bug-found") if [ "$got" = "$expect" ]; then ok "$name: $got"; else bad "$name: '$got', not '$expect'"; fi ;;
    "result: no-bug (bounded"*) ok "$name: $res" ;;
    *) bad "$name: exit $rc: $res $(echo "$out" | grep '^pcheck' | head -n 1)" ;;
  esac
}
# A 2 MiB state cache (--mem 60M, of which 43 for the frontier and 16 kept
# back) fills long before deeper.p's bug; a correct model bigger than it.
small="--mem 60M --frontier-mem 43M"
for s in dfs bfs ses pb portfolio; do
  never_complete "deeper.p, a full cache ($s)" "assertion failure" -S $s $small tests/reduction/deeper.p
  never_complete "clientserver tcMultipleClients unreduced, a full cache ($s)" - -S $s --no-reduction $small \
    -tc tcMultipleClients models/clientserver
done
# A frontier past its budget: bfs's queue, pb's work lists, ses's frontier
# (which then samples: SES then SS) on a bug that needs 2 delays.
for s in bfs ses pb; do
  never_complete "clientserver tcBugLostUpdate, --frontier-mem 1M ($s)" "assertion failure" -S $s --frontier-mem 1M \
    -tc tcBugLostUpdate models/clientserver
  never_complete "clientserver tcMultipleClients, --frontier-mem 1M ($s)" - -S $s --frontier-mem 1M \
    -tc tcMultipleClients models/clientserver
done
# The portfolio, whose ses skips the states its dfs has finished, and
# without that shared cache: every bug variant of clientserver and the
# flood models.
for t in tcBugNoDefer tcBugLostUpdate tcBugLostWakeup tcBugLockLeak tcBugReplyOrder; do
  for sc in "" --no-shared-cache; do
    out=$(run --seed 1 --timeout 30 -q $sc -o "$tmp/o" -tc "$t" models/clientserver 2>&1); rc=$?
    rm -rf "$tmp/o"
    if [ "$rc" -eq 1 ]; then ok "portfolio $sc on clientserver $t: $(echo "$out" | kind)"
    else bad "portfolio $sc on clientserver $t: exit $rc, $(echo "$out" | grep '^result')"; fi
  done
done
echo "# passed: $pass failed: $fail"
[ "$fail" -eq 0 ]
