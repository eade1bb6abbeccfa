#!/bin/sh
# mpi.sh: the distributed search (doc/distributed.md) under mpirun with
# 2, 3 and 4 ranks on this machine (--oversubscribe):
# - `pcheck --version` says whether MPI is built in; without it, this
#   script checks only that line (the build is the one-process build);
# - the same binary runs alone, without mpirun (no "distributed:" line);
# - identical counts: on every correct test of models/ up to
#   MPI_MAX_STATES states (default 300,000), bfs with the reduction on 2
#   and 4 ranks counts the states and transitions of one process's bfs,
#   and without the reduction on 3 ranks (dfs) the recorded count of
#   expected.txt;
# - bugs: each bug variant of paxos and german, on 2 and 4 ranks: found
#   with exit status 1, a trace of one process's bfs length (the shortest),
#   written once (rank 0), which replays to the same bug;
# - bounded runs (--timeout) end cleanly on every rank; --stats-json gives
#   the ranks and letters; what runs on one process only is refused once,
#   with exit status 2.
. "${srcdir:-.}/tests/lib.sh"
max=${MPI_MAX_STATES:-300000}
# As root (CI), Open MPI wants to be told; LeakSanitizer would report
# what libmpi keeps until exit.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
mp() { np=$1; shift; mpirun --oversubscribe -np "$np" ${PCHECK_WRAPPER:-} "$PCHECK" "$@" </dev/null; }   # mpirun reads stdin

v=$(run --version)
if echo "$v" | grep -q '^distributed search: not built'; then
  ok "--version: built without MPI ($(echo "$v" | tail -n 1))"
  echo "# passed: $pass failed: $fail"
  [ "$fail" -eq 0 ]
  exit
fi
if echo "$v" | grep -q '^distributed search: Open MPI [0-9]'; then ok "--version: $(echo "$v" | tail -n 1)"
else bad "--version says nothing of MPI"; echo "$v"; fi
if ! command -v mpirun >/dev/null 2>&1; then
  bad "pcheck is built with MPI but mpirun is missing (Debian package openmpi-bin)"
  echo "# passed: $pass failed: $fail"
  exit 1
fi

# Alone, without mpirun: the one-process search.
r=$(run -s bfs -t tcTwoCaches -o "$tmp/o" models/german 2>&1)
if [ $? -eq 0 ] && ! echo "$r" | grep -q '^distributed:' && echo "$r" | grep -q '^result: no-bug (complete)'; then
  ok "the MPI build runs alone without mpirun"
else bad "the MPI build alone"; echo "$r" | tail -n 5; fi

# Identical counts on the correct tests.
counts() { echo "$1" | sed -n 's/^states: \([0-9]*\)  transitions: \([0-9]*\) .*/\1 \2/p'; }
for f in models/*/expected.txt; do
  m=${f%/expected.txt}
  while IFS='	' read -r t verdict states note; do
    case $t in ''|\#*) continue ;; esac
    [ "$verdict" = no-bug ] && [ "$states" -le "$max" ] 2>/dev/null || continue
    one=$(counts "$(run -q -s bfs --mem 512M -t "$t" -o "$tmp/o" "$m" 2>&1)")
    for np in 2 4; do
      r=$(mp $np -q -s bfs --mem 1G -t "$t" -o "$tmp/o" "$m" 2>&1)
      rc=$? got=$(counts "$r")
      if [ $rc -eq 0 ] && [ -n "$one" ] && [ "$got" = "$one" ] && echo "$r" | grep -q "^distributed: $np ranks" &&
         echo "$r" | grep -q '^result: no-bug (complete)'; then
        ok "$m -t $t: bfs on $np ranks counts one process's $one (states, transitions)"
      else bad "$m -t $t: bfs on $np ranks: exit $rc, '$got', one process '$one'"; echo "$r" | tail -n 4; fi
    done
    r=$(mp 3 -q -s dfs --no-reduction --mem 1G -t "$t" -o "$tmp/o" "$m" 2>&1)
    rc=$? got=$(echo "$r" | field states)
    if [ $rc -eq 0 ] && [ "$got" = "$states" ] && echo "$r" | grep -q '^result: no-bug (complete)'; then
      ok "$m -t $t: dfs --no-reduction on 3 ranks: the recorded $states states"
    else bad "$m -t $t: dfs --no-reduction on 3 ranks: exit $rc, $got states, recorded $states"; echo "$r" | tail -n 4; fi
  done <"$f"
done

# Bugs: found, shortest, written once, replayed.
for m in models/paxos models/german; do
  for t in $(grep -v '^#' $m/expected.txt | awk -F'\t' '$2 == "bug" { print $1 }'); do
    rm -rf "$tmp/b1"
    r1=$(run -q -s bfs -t "$t" -o "$tmp/b1" "$m" 2>&1)
    len1=$(run --replay "$tmp/b1/$t.schedule" "$m" 2>&1 | sed -n 's/^replay: \([0-9]*\) of .*/\1/p')
    for np in 2 4; do
      rm -rf "$tmp/b"
      r=$(mp $np -q -s bfs -t "$t" -o "$tmp/b" "$m" 2>&1)
      rc=$?
      files=$(ls "$tmp/b" 2>/dev/null | tr '\n' ' ')
      rr=$(run --replay "$tmp/b/$t.schedule" "$m" 2>&1)
      rrc=$?
      len=$(echo "$rr" | sed -n 's/^replay: \([0-9]*\) of .*/\1/p')
      kind=$(echo "$r" | sed -n 's/^bug: \([a-z ]*\).*/\1/p')
      if [ $rc -eq 1 ] && [ $rrc -eq 1 ] && [ -n "$len" ] && [ "$len" = "$len1" ] &&
         [ "$files" = "$t.json $t.schedule $t.txt " ] && [ "$(echo "$r" | grep -c '^result: bug-found')" = 1 ] &&
         [ -n "$kind" ] && echo "$rr" | grep -q "^bug: $kind"; then
        ok "$m -t $t on $np ranks: $kind, trace of $len steps as one process's bfs, written once, replays"
      else bad "$m -t $t on $np ranks: exit $rc, replay exit $rrc, $len steps (one process: $len1), files '$files'"
        echo "$r" | tail -n 4; echo "$rr" | tail -n 2; fi
    done
  done
done

# Bounded: a timeout on every rank, figures, exit 0 (4 with --fail-on-incomplete).
r=$(mp 2 -s bfs --no-reduction --timeout 0.5 --fail-on-incomplete -t tcTwoProposers -o "$tmp/o" models/paxos 2>&1)
rc=$?
if [ $rc -eq 4 ] && echo "$r" | grep -q '^result: no-bug (bounded: timeout)' && [ "$(echo "$r" | field states)" -gt 1000 ] &&
   echo "$r" | grep -q '^guarantee: no bug within depth'; then
  ok "2 ranks, --timeout: bounded, $(echo "$r" | field states) states, exit 4 with --fail-on-incomplete"
else bad "2 ranks with --timeout: exit $rc"; echo "$r" | tail -n 5; fi

# --stats-json: ranks and letters.
mp 2 -q -s bfs -t tcTwoCaches --stats-json "$tmp/s.json" -o "$tmp/o" models/german >/dev/null 2>&1
if grep -q '"ranks": 2,' "$tmp/s.json" && grep -q '"letters": [1-9]' "$tmp/s.json" &&
   grep -q '"letter_bytes": [1-9]' "$tmp/s.json"; then ok "--stats-json: ranks, letters, letter_bytes"
else bad "--stats-json under mpirun"; grep -E 'ranks|letter' "$tmp/s.json"; fi

# The man page's examples (DISTRIBUTED SEARCH), but for those on other machines.
mkdir -p "$tmp/bin" "$tmp/mw" && ln -s "$PCHECK" "$tmp/bin/pcheck" && ln -s "$(pwd)/models" "$tmp/mw/models"
sed -n '/^\.SH DISTRIBUTED SEARCH/,/^\.fi/p' doc/pcheck.1 | grep '^mpirun' | grep -v hostfile | sed 's/\\-/-/g' |
while IFS= read -r cmd; do
  out=$(cd "$tmp/mw" && PATH="$tmp/bin:$PATH" sh -c "$cmd" 2>&1 </dev/null)
  rc=$?
  if [ $rc -eq 0 ] && echo "$out" | grep -q '^distributed: [0-9]* ranks'; then echo "PASS: man page: $cmd"
  else echo "FAIL: man page: $cmd (exit $rc)"; echo "$out" | tail -n 3; fi
done >"$tmp/man.txt"
cat "$tmp/man.txt"
pass=$((pass + $(grep -c '^PASS' "$tmp/man.txt"))) fail=$((fail + $(grep -c '^FAIL' "$tmp/man.txt")))
[ "$(grep -c '^PASS' "$tmp/man.txt")" -ge 2 ] || bad "the man page's DISTRIBUTED SEARCH examples were not found"

# One process only: refused once, exit 2.
for args in "-s random" "-s ses" "-s bfs -j 2" "--list-tests"; do
  r=$(mp 2 $args -t tcTwoCaches -o "$tmp/o" models/german 2>&1)
  rc=$?
  if [ $rc -eq 2 ] && [ "$(echo "$r" | grep -c '^pcheck: ')" = 1 ]; then ok "mpirun pcheck $args: refused once ($(echo "$r" | grep '^pcheck: ' | cut -c1-70)...)"
  else bad "mpirun pcheck $args: exit $rc"; echo "$r" | grep '^pcheck'; fi
done

echo "# passed: $pass failed: $fail"
[ "$fail" -eq 0 ]
