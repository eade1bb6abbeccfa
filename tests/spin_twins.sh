#!/bin/sh
# spin_twins.sh: the P twins of bench/spin (bench/spin/README.md) keep
# compiling and giving their verdict, as models_expected.sh checks models/:
# each folder type-checks and lists its tests, every test is in its
# expected.txt (TEST, no-bug or bug, the states dfs visits, a note), and on
# the small sizes (SPIN_TWINS_MAX_STATES, default 100000 states)
# - a correct test: dfs ends "no-bug (complete)" having visited exactly the
#   recorded number of states;
# - a bug: dfs finds it (exit 1) and its .schedule replays to the same bug;
# and, if SPIN is installed, SPIN gives the same verdicts on the Promela twins.
. "${srcdir:-.}/tests/lib.sh"
max=${SPIN_TWINS_MAX_STATES:-100000}
n=0
for f in bench/spin/*/expected.txt; do
  [ -f "$f" ] || continue
  m=${f%/expected.txt}
  n=$((n + 1))
  if out=$(run --check-only "$m" 2>&1); then ok "check $m"; else bad "check $m"; echo "$out" | head -n 20; continue; fi
  tests=$(run --list-tests "$m" 2>&1)
  for t in $tests; do
    grep -q "^$t	" "$f" || bad "$m: test $t is missing from expected.txt"
  done
  while IFS='	' read -r t verdict states note; do
    case $t in ''|\#*) continue ;; esac
    if ! echo "$tests" | grep -qx "$t"; then bad "$m: expected.txt names $t, which the model does not declare"; continue; fi
    [ "$states" -le "$max" ] 2>/dev/null || { echo "SKIP: $m -tc $t ($states states)"; continue; }
    rm -rf "$tmp/o"
    r=$(run -q --search dfs --no-reduction --mem 256M -tc "$t" -o "$tmp/o" "$m" 2>&1)
    rc=$? got=$(echo "$r" | field states)
    if [ "$verdict" = no-bug ]; then
      if [ "$rc" -eq 0 ] && [ "$got" = "$states" ] && echo "$r" | grep -q '^result: no-bug (complete)'; then
        ok "$m -tc $t: no bug in $got states"
      else bad "$m -tc $t: expected no bug in $states states, got exit $rc, $got states"; echo "$r" | tail -n 4; fi
    else
      bugline=$(echo "$r" | grep '^bug: ')
      if [ "$rc" -eq 1 ] && [ -f "$tmp/o/$t.schedule" ]; then
        rr=$(run --replay "$tmp/o/$t.schedule" "$m" 2>&1)
        if [ $? -eq 1 ] && [ "$(echo "$rr" | grep '^bug: ')" = "$bugline" ]; then ok "$m -tc $t: ${bugline#bug: }"
        else bad "$m -tc $t: the trace does not replay to '$bugline'"; echo "$rr" | tail -n 3; fi
      else bad "$m -tc $t: dfs does not find the bug (exit $rc)"; echo "$r" | tail -n 4; fi
    fi
  done <"$f"
done
# The Promela twins give the same verdicts on a small size, when SPIN is
# installed (it is not a build dependency: skipped otherwise).
top=$(pwd)
if command -v spin >/dev/null 2>&1 && command -v "${CC_FOR_SPIN:-gcc}" >/dev/null 2>&1; then
  while read -r pml verdict flags; do
    d=$tmp/spin && rm -rf "$d" && mkdir "$d"
    if (cd "$d" && spin $flags -a "$top/bench/spin/$pml" >spin.out 2>&1 &&
        ${CC_FOR_SPIN:-gcc} -O1 -w -DSAFETY -DNOCLAIM -o pan pan.c && ./pan >pan.out 2>&1); then
      errors=$(sed -n 's/.*errors: \([0-9]*\).*/\1/p' "$d/pan.out")
      case $verdict:$errors in
      no-bug:0) ok "spin bench/spin/$pml $flags: no error" ;;
      bug:[1-9]*) ok "spin bench/spin/$pml $flags: $(grep -m1 '^pan:1:' "$d/pan.out")" ;;
      *) bad "spin bench/spin/$pml $flags: expected $verdict, got ${errors:-no} errors"; tail -n 5 "$d/pan.out" ;;
      esac
    else bad "spin bench/spin/$pml $flags: spin -a, gcc or pan failed"; cat "$d/spin.out" | head -n 5; fi
  done <<SPIN
abp/abp.pml no-bug -DN=3
abp/abp.pml bug -DN=3 -DBUG
leader/leader.pml no-bug -DN=3
leader/leader.pml bug -DN=3 -DBUG
dtp/dtp.pml no-bug -DN=1 -DQSZ=8
dtp/dtp.pml bug -DN=4 -DQSZ=2
SPIN
else echo "SKIP: the Promela twins (spin is not installed)"; fi

[ "$n" -ge 3 ] && ok "$n P twins in bench/spin" || bad "only $n P twins in bench/spin (at least 3)"
echo "# passed: $pass failed: $fail"
[ "$fail" -eq 0 ]
