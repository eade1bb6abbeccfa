#!/bin/sh
# random.sh: every model of the suite (models/*, tests/golden/accept and
# tests/golden/vm programs) runs a thousand random executions of each of its
# test cases; a found bug is fine (exit 1) except in models/, whose
# correct versions must pass (the bug variants, tests named tcBug*, may fail); a crash, an internal error or a sanitizer
# report is never fine.  Run under --enable-asan --enable-ubsan in CI.
set -u
: "${PCHECK:?PCHECK must name the pcheck binary}"
: "${srcdir:=.}"
cd "$srcdir" || exit 99
runs=${RANDOM_RUNS:-1000}
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
check_one() {   # check_one INPUT TEST
  timeout 300 ${PCHECK_WRAPPER:-} "$PCHECK" --search random --seed 7 --schedules "$runs" --max-steps 2000 -o "$tmp/traces" \
    -tc "$2" "$1" >"$tmp/out" 2>"$tmp/err"
  code=$?
  ok_codes="0 1"
  case $1 in models/*) ok_codes="0" ;; esac   # the shipped models' correct versions pass
  case $2 in tcBug*) ok_codes="0 1" ;; esac   # their seeded bug variants may be found
  case " $ok_codes " in *" $code "*) good=1 ;; *) good=0 ;; esac
  if [ "$good" = 1 ] && ! grep -q -e Sanitizer -e 'runtime error:' "$tmp/err"; then
    pass=$((pass + 1)); echo "PASS: $1 -tc $2 ($(tail -n 2 "$tmp/out" | head -n 1))"
  else
    fail=$((fail + 1)); echo "FAIL: $1 -tc $2 (exit $code)"; head -c 3000 "$tmp/err"; echo
  fi
}
inputs=""
for d in models/*/; do [ -d "$d" ] && inputs="$inputs ${d%/}"; done
for f in tests/golden/accept/*.p tests/golden/vm/*.p; do [ -f "$f" ] && inputs="$inputs $f"; done
for in in $inputs; do
  tests=$("$PCHECK" --list-tests "$in" 2>/dev/null) || continue
  for t in $tests; do check_one "$in" "$t"; done
done
# --max-steps N as P's -ms N: the fair bound (random's) is 10N, the
# temperature threshold half of it, 5N (P's WithMaxSchedulingSteps and
# LivenessTemperatureThreshold = MaxFairSchedulingSteps / 2).
r=$("$PCHECK" -S random --seed 1 --max-steps 50 -q -o "$tmp/ms" tests/liveness/temp_long.p 2>&1)
if echo "$r" | grep -q -- "--liveness-temperature-threshold 250)$"; then pass=$((pass + 1)); echo "PASS: --max-steps 50: threshold 250"
else fail=$((fail + 1)); echo "FAIL: --max-steps 50: $(echo "$r" | grep '^bug')"; fi
r=$("$PCHECK" -S random --seed 1 --schedules 100 --max-steps 50 -q -o "$tmp/ms" models/clientserver -tc tcMultipleClients 2>&1)
if echo "$r" | grep -q '^result: no-bug'; then pass=$((pass + 1)); echo "PASS: --max-steps 50 on a correct test: no false liveness bug"
else fail=$((fail + 1)); echo "FAIL: --max-steps 50 on tcMultipleClients: $(echo "$r" | grep -E '^(bug|result)')"; fi
echo "# passed: $pass failed: $fail"
[ "$fail" -eq 0 ]
