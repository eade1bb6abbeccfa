#!/bin/sh
# run.sh [SECONDS] [TARGET...]: build the fuzz targets with clang's
# libFuzzer (ASan and UBSan on) and run each for SECONDS (default 60) from
# its kept corpus, tests/fuzz/corpus/TARGET (seeded when new: the golden
# programs, the traces and projects of tests/, the States of random
# executions).  Targets (default all):
#   fuzz_parse  the front end: any bytes as one .p file
#   fuzz_trace  the trace loaders: any bytes as a .schedule or JSON trace
#   fuzz_pproj  project files: any bytes as a .pproj beside sources
#   fuzz_state  the State decoder: vm_state_valid, then the steps it allows
# After a run the corpus is merged back, minimised (-merge=1), into
# tests/fuzz/corpus/TARGET; an input that crashed is copied into
# tests/fuzz/regress/TARGET (make check replays both: tests/fuzz_corpus.sh).
# Prints one line a target: runs, seconds (libFuzzer stops at its first
# finding), corpus size, findings.
# Needs a configured build (B, default ./build: ./build.sh demo) for
# config.h and the generated parser, and clang.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
secs=${1:-60}
[ $# -gt 0 ] && shift
targets=${*:-fuzz_parse fuzz_trace fuzz_pproj fuzz_state}
b=${B:-$top/build}
[ -f "$b/config.h" ] && [ -f "$b/parser/grammar.c" ] || { echo "run.sh: configure a build in $b first (./build.sh demo)" >&2; exit 2; }
command -v clang >/dev/null || { echo "run.sh: clang is needed (apt-get install clang)" >&2; exit 2; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
# One process, no MPI: the build's config.h without HAVE_MPI, found first.
mkdir -p "$out/inc"
grep -v 'HAVE_MPI' "$b/config.h" >"$out/inc/config.h"
srcs=""
for f in "$top"/vm/*.c "$top"/lang/*.c "$top"/checker/*.c "$top"/parser/parse.c "$b"/parser/grammar.c "$b"/parser/lexer.c; do
  case $f in */checker/cli/cli.c) continue ;; esac
  srcs="$srcs $f"
done
# The library once, then each target against it.
mkdir -p "$out/obj"
for f in $srcs; do
  o="$out/obj/$(echo "$f" | sed 's|/|_|g').o"
  clang -c -g -O1 -fsanitize=fuzzer-no-link,address,undefined -std=c11 -I"$out/inc" -I"$top" -I"$b" \
    -DPCHECK_STDLIB_DIR="\"$top/stdlib\"" "$f" -o "$o" || exit 2
done
status=0
for t in $targets; do
  clang -g -O1 -fsanitize=fuzzer,address,undefined -std=c11 -I"$out/inc" -I"$top" -I"$b" \
    "$top/tests/fuzz/$t.c" "$out"/obj/*.o -lxxhash -lJudy -lm -pthread -o "$out/$t" || exit 2
  corpus=$top/tests/fuzz/corpus/$t
  if [ ! -d "$corpus" ]; then
    mkdir -p "$corpus"
    case $t in
    fuzz_parse) cp "$top"/tests/golden/*/*.p "$corpus/" 2>/dev/null ;;
    fuzz_trace) i=0; for f in $(find "$top/tests" -name '*.schedule' -o -name '*.json' | head -200); do cp "$f" "$corpus/seed-$i"; i=$((i + 1)); done ;;
    fuzz_pproj) i=0; for f in $(find "$top" -name '*.pproj' | head -50); do cp "$f" "$corpus/seed-$i"; i=$((i + 1)); done ;;
    fuzz_state) PCHECK_FUZZ_SEEDS="$corpus" "$out/$t" -runs=0 >/dev/null 2>&1 ;;
    esac
  fi
  mkdir -p "$out/$t.new" "$out/$t.crash"
  t0=$(date +%s)
  (cd "$out/$t.crash" && "$out/$t" -max_total_time="$secs" -max_len=8192 -timeout=20 -rss_limit_mb=4096 -print_final_stats=1 \
     -artifact_prefix="$out/$t.crash/" "$out/$t.new" "$corpus") >"$out/$t.log" 2>&1
  took=$(($(date +%s) - t0))   # libFuzzer stops at its first finding
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$out/$t.log" | tail -n 1)
  crashes=$(ls "$out/$t.crash" | grep -c '^crash-\|^leak-\|^oom-\|^timeout-')
  if [ "$crashes" -gt 0 ]; then
    status=1
    mkdir -p "$top/tests/fuzz/regress/$t"
    cp "$out/$t.crash"/crash-* "$out/$t.crash"/leak-* "$out/$t.crash"/oom-* "$out/$t.crash"/timeout-* \
       "$top/tests/fuzz/regress/$t/" 2>/dev/null
    grep -m 3 -A 12 'ERROR\|runtime error\|deadly signal' "$out/$t.log"
  fi
  # Keep the corpus small: what covers the same edges, once (inputs that
  # crash are left out of it; they are in regress/ already).
  mkdir -p "$out/$t.min"
  (cd "$out/$t.crash" && "$out/$t" -merge=1 -timeout=20 "$out/$t.min" "$corpus" "$out/$t.new") >/dev/null 2>&1 &&
    [ -n "$(ls "$out/$t.min")" ] && rm -rf "$corpus" && mv "$out/$t.min" "$corpus"
  echo "$t: ${runs:-0} runs in $took s, corpus $(ls "$corpus" | wc -l) inputs, $crashes crash(es)"
done
exit $status
