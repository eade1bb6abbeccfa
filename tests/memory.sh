#!/bin/sh
# memory.sh: --mem bounds the whole run.  Every search, on a model whose
# inbox grows without end (--max-inbox 0) and one whose seq does, and the
# exhaustive searches on a large model (paxos), run with --mem 128M for a
# few seconds under tests/peakmem (the kernel's count of the child's peak
# resident memory): each stays within the budget plus the margin of
# bench/README.md ("Memory": a quarter more and 48 MiB; under the
# sanitizers, whose shadow memory and quarantine the budget does not
# cover, twice and 160 MiB), and ends with a result (exit 0), not
# "out of memory".
. "${srcdir:-.}/tests/lib.sh"
peak=$(dirname "$PCHECK")/tests/peakmem
mem=128
case ${PCHECK_SAN:-} in
*sanitize*) limit=$((mem * 2 + 160)); export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}quarantine_size_mb=16" ;;
*) limit=$((mem + mem / 4 + 48)) ;;
esac
check() {   # check WHAT ARGS...: a run within the limit, exit 0
  what=$1; shift
  # shellcheck disable=SC2086
  r=$("$peak" ${PCHECK_WRAPPER:-} "$PCHECK" --mem ${mem}M --timeout 3 --seed 1 -q -o "$tmp/o" "$@" 2>&1)
  rc=$?
  kib=$(echo "$r" | sed -n 's/^peak-kib: //p')
  if [ $rc -eq 0 ] && [ -n "$kib" ] && [ $((kib / 1024)) -le $limit ] && echo "$r" | grep -q '^result: no-bug'; then
    ok "$what: $((kib / 1024)) MiB at most (--mem ${mem}M, limit $limit MiB): $(echo "$r" | sed -n 's/^result: //p')"
  else bad "$what: exit $rc, peak ${kib:-?} KiB, limit $limit MiB"; echo "$r" | tail -n 4; fi
}
for s in dfs bfs ses ss random pct pb irs portfolio; do
  check "-S $s, a growing inbox" -S $s --max-steps 3000 --max-inbox 0 tests/golden/limits/growinbox.p
  check "-S $s, a growing seq" -S $s --max-steps 3000 tests/golden/limits/growseq.p
done
for s in dfs bfs ses portfolio; do
  check "-S $s, paxos tcTwoProposers" -S $s --no-reduction -tc tcTwoProposers models/paxos
done
echo "# passed: $pass failed: $fail"
[ "$fail" -eq 0 ]
