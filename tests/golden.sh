#!/bin/sh
# golden.sh: run every tests/golden/**/*.p through pcheck and compare
# stdout, stderr and the exit code with <name>.out beside it.
# A first line "// pcheck-args: ARGS" replaces the default --check-only.
# UPDATE_GOLDEN=1 rewrites the .out files instead (review the diff).
# Prints PASS/FAIL a case and ends with "# passed: N failed: M".
set -u
: "${PCHECK:?PCHECK must name the pcheck binary}"
: "${srcdir:=.}"
cd "$srcdir" || exit 99
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
for p in $(find tests/golden -name '*.p' | LC_ALL=C sort); do
  case $p in tests/golden/badinput/*) continue ;; esac
  exp=${p%.p}.out
  args=$(sed -n '1s|^// pcheck-args: *||p' "$p")
  [ -n "$args" ] || args=--check-only
  # $TMP in the arguments is a scratch folder (traces go there); it prints as TMP.
  rm -rf "$tmp/out"
  args=$(printf '%s' "$args" | sed "s|\$TMP|$tmp/out|g")
  # Traces never go into the source tree: without -o they go to the scratch folder.
  case " $args " in *" -o "*) ;; *) args="$args -o $tmp/out" ;; esac
  # shellcheck disable=SC2086
  ${PCHECK_WRAPPER:-} "$PCHECK" $args "$p" >"$tmp/stdout" 2>"$tmp/stderr"
  code=$?
  # Timings vary from run to run: "time: 0.01" becomes "time: T".
  { cat "$tmp/stdout" "$tmp/stderr"; echo "exit: $code"; } | sed -e 's/time: [0-9.]*$/time: T/' -e 's/, [0-9.]* s$/, T s/' -e "s|$tmp/out|TMP|g" >"$tmp/got"
  if [ "${UPDATE_GOLDEN:-0}" = 1 ]; then
    cp "$tmp/got" "$exp"
  fi
  if [ -f "$exp" ] && cmp -s "$tmp/got" "$exp"; then
    pass=$((pass + 1))
    echo "PASS: $p"
  else
    fail=$((fail + 1))
    echo "FAIL: $p"
    if [ -f "$exp" ]; then diff -u "$exp" "$tmp/got" | head -40; else echo "  (no $exp)"; fi
  fi
done
echo "# passed: $pass failed: $fail"
[ "$fail" -eq 0 ]
