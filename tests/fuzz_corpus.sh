#!/bin/sh
# fuzz_corpus.sh: every fuzz target (tests/fuzz/fuzz_*.c), built without
# libFuzzer (tests/fuzz/replay_main.c), runs over its kept corpus
# (tests/fuzz/corpus/TARGET) and its regression inputs, each an input that
# once crashed it (tests/fuzz/regress/TARGET): none may abort or trip a
# sanitizer.  tests/fuzz/run.sh grows both; doc/testing.md keeps the hours.
. "${srcdir:-.}/tests/lib.sh"
bin=$(dirname "$PCHECK")/tests/fuzz
for t in parse trace pproj state; do
  for kind in corpus regress; do
    d=tests/fuzz/$kind/fuzz_$t
    [ -d "$d" ] || continue
    n=$(ls "$d" | wc -l)
    [ "$n" -gt 0 ] || continue
    # Many inputs at a time (the command line's limit), each batch one run.
    if find "$d" -type f -print0 | xargs -0 -n 500 ${PCHECK_WRAPPER:-} "$bin/replay_$t" >"$tmp/out" 2>&1; then
      ok "fuzz_$t: its $kind ($n inputs) runs clean"
    else bad "fuzz_$t: its $kind"; grep -m 1 -B 2 -A 12 'ERROR\|runtime error\|Aborted\|replay:' "$tmp/out" | head -30; fi
  done
done
[ "$pass" -gt 0 ] || bad "no corpus found under tests/fuzz/corpus"
echo "# passed: $pass failed: $fail"
[ "$fail" -eq 0 ]
