#!/bin/sh
# models.sh: every model shipped in models/ (each folder, as its users
# would pass it) type-checks cleanly and lists at least one test case.
set -u
: "${PCHECK:?PCHECK must name the pcheck binary}"
: "${srcdir:=.}"
cd "$srcdir" || exit 99
pass=0 fail=0
for d in models/*/; do
  d=${d%/}
  [ -d "$d" ] || continue
  out=$(${PCHECK_WRAPPER:-} "$PCHECK" --check-only "$d" 2>&1)
  code=$?
  if [ "$code" -eq 0 ]; then pass=$((pass + 1)); echo "PASS: check $d"
  else fail=$((fail + 1)); echo "FAIL: check $d (exit $code)"; echo "$out" | head -40; fi
  tests=$(${PCHECK_WRAPPER:-} "$PCHECK" --list-tests "$d" 2>&1)
  code=$?
  if [ "$code" -eq 0 ] && [ -n "$tests" ]; then pass=$((pass + 1)); echo "PASS: list $d"
  else fail=$((fail + 1)); echo "FAIL: list $d (exit $code)"; echo "$tests" | head -20; fi
  for proj in "$d"/*.pproj; do
    [ -f "$proj" ] || continue
    out=$(${PCHECK_WRAPPER:-} "$PCHECK" --check-only "$proj" 2>&1)
    code=$?
    if [ "$code" -eq 0 ]; then pass=$((pass + 1)); echo "PASS: check $proj"
    else fail=$((fail + 1)); echo "FAIL: check $proj (exit $code)"; echo "$out" | head -40; fi
  done
done
echo "# passed: $pass failed: $fail"
[ "$fail" -eq 0 ]
