#!/bin/sh
# check_reduction.sh: the oracle of the partial-order reduction
# (--check-reduction; doc/reduction.md, "The oracle") over every test of
# models/ (correct tests up to MAX_STATES states unreduced; the bug
# variants too: a reduced search must find a bug where the full one does),
# every golden program that runs one test, and, when given, every P
# project (a folder with a .pproj) and every other folder of .p files (as
# one program) under CORPUS (P's own tests, fetched apart: they are not
# part of this repository); the models that pcheck does not read are
# skipped.  For each, each
# search of SEARCHES: the reduced search with --check-reduction.  Prints
# one line per disagreement, and at the end how many cases ran, agreed,
# had nothing to compare, and disagreed (which must be 0).
# Usage: bench/check_reduction.sh [PCHECK]   (from the source folder)
#   env: SEARCHES="dfs bfs ses pb portfolio" MAX_STATES=1000000 TIMEOUT=120 CORPUS=DIR
#        REPO=0 (the corpus only)
set -u
P=${1:-build/pcheck}
SEARCHES=${SEARCHES:-dfs bfs ses pb portfolio}
MAX_STATES=${MAX_STATES:-1000000}
TIMEOUT=${TIMEOUT:-120}
export PCHECK_STDLIB=${PCHECK_STDLIB:-$PWD/stdlib}
[ -x "$P" ] || { echo "check_reduction.sh: build pcheck first, or pass its path" >&2; exit 2; }
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
n=0 agree=0 none=0 bad=0 err=0

# one NAME ARGS...: every search on one test.
one() {
  name=$1; shift
  for s in $SEARCHES; do
    out=$(timeout $((TIMEOUT * 3)) "$P" -S "$s" --check-reduction --seed 1 --timeout "$TIMEOUT" -q -o "$tmp/o" "$@" 2>&1)
    rc=$?
    rm -rf "$tmp/o"
    n=$((n + 1))
    line=$(echo "$out" | grep '^check-reduction: ' | head -n 1)
    case $line in
      "check-reduction: agrees"*) agree=$((agree + 1)) ;;
      "check-reduction: nothing"*) none=$((none + 1)) ;;
      "check-reduction: DISAGREES"*) bad=$((bad + 1)); echo "DISAGREES: $name ($s): $line" ;;
      *) err=$((err + 1)); echo "NO ANSWER: $name ($s): exit $rc: $(echo "$out" | grep -E '^(result|pcheck)' | head -n 2 | tr '\n' ' ')" ;;
    esac
  done
}

for f in models/*/expected.txt; do
  [ "${REPO:-1}" = 0 ] && break
  m=${f%/expected.txt}
  while IFS='	' read -r t verdict states note; do
    case $t in ''|\#*) continue ;; esac
    case $verdict in
      no-bug) [ "$states" -le "$MAX_STATES" ] 2>/dev/null || continue ;;
      bug) ;;
      *) continue ;;
    esac
    one "$m -tc $t" -tc "$t" "$m"
  done <"$f"
done
for p in $(find tests/golden tests/reduction -name '*.p' | LC_ALL=C sort); do
  [ "${REPO:-1}" = 0 ] && break
  args=$(sed -n '1s|^// pcheck-args: *||p' "$p")
  case " $args " in *" --replay "*|*" --list-tests "*|*" --dump-bytecode "*) continue ;; esac
  "$P" --check-only "$p" >/dev/null 2>&1 || continue
  [ "$("$P" --list-tests "$p" 2>/dev/null | wc -l)" -eq 1 ] || continue
  one "$p" "$p"
done
if [ -n "${CORPUS:-}" ]; then
  # P projects (folders with a .pproj); then every other folder holding .p
  # files, as one program (P's regression tests: a folder a test).
  projs=$(find "$CORPUS" -name '*.pproj' -exec dirname {} \; | LC_ALL=C sort -u)
  for d in $projs; do
    for t in $("$P" --list-tests "$d" 2>/dev/null); do one "$d -tc $t" -tc "$t" "$d"; done
  done
  for d in $(find "$CORPUS" -name '*.p' -exec dirname {} \; | LC_ALL=C sort -u); do
    inproj=
    for q in $projs; do case $d/ in "$q"/*) inproj=1 ;; esac; done
    [ -z "$inproj" ] || continue
    "$P" --check-only "$d"/*.p >/dev/null 2>&1 || continue
    for t in $("$P" --list-tests "$d"/*.p 2>/dev/null); do one "$d -tc $t" -tc "$t" "$d"/*.p; done
  done
fi
echo "cases: $n  agree: $agree  nothing to compare: $none  disagree: $bad  no answer: $err"
[ "$bad" -eq 0 ]
