#!/bin/sh
# summary.sh LOG...: add up the "# passed: N failed: M" lines of test logs
# (a log without one counts as one case) and print "N passed, N failed".
pass=0 fail=0
for log in "$@"; do
  [ -f "$log" ] || continue
  line=$(grep '^# passed: [0-9]* failed: [0-9]*' "$log" | tail -n 1)
  if [ -n "$line" ]; then
    p=$(echo "$line" | sed 's/^# passed: \([0-9]*\) failed: \([0-9]*\).*/\1/')
    f=$(echo "$line" | sed 's/^# passed: \([0-9]*\) failed: \([0-9]*\).*/\2/')
  else
    trs=${log%.log}.trs
    if grep -q '^:test-result: PASS' "$trs" 2>/dev/null; then p=1 f=0; else p=0 f=1; fi
  fi
  trs=${log%.log}.trs
  if [ "$f" -eq 0 ] && grep -q '^:test-result: FAIL' "$trs" 2>/dev/null; then f=1; fi
  pass=$((pass + p))
  fail=$((fail + f))
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
