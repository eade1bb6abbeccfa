#!/bin/sh
# run.sh [SECONDS]: build the front-end fuzzer with clang's libFuzzer (ASan
# and UBSan on) and run it for SECONDS (default 60) from the golden
# programs as seeds.  Needs a configured build in ./build (./build.sh demo)
# for config.h and the generated parser, and clang (apt-get install clang).
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
secs=${1:-60}
b=$top/build
[ -f "$b/config.h" ] && [ -f "$b/parser/grammar.c" ] || { echo "run.sh: run ./build.sh demo first" >&2; exit 2; }
out=$(mktemp -d)
srcs="vm/util.c vm/value.c vm/bytecode.c vm/verify.c vm/disasm.c lang/diag.c lang/ast.c lang/types.c lang/sema.c
      lang/inputs.c lang/testcases.c lang/frontend.c lang/codegen.c parser/parse.c"
files=""
for f in $srcs; do files="$files $top/$f"; done
clang -g -O1 -fsanitize=fuzzer,address,undefined -I"$top" -I"$b" -include "$b/config.h" \
  $files "$b/parser/grammar.c" "$b/parser/lexer.c" "$top/tests/fuzz/fuzz_parse.c" -lxxhash -lJudy -lm -o "$out/fuzz_parse"
mkdir -p "$out/corpus"
cp "$top"/tests/golden/*/*.p "$out/corpus/" 2>/dev/null || true
"$out/fuzz_parse" -max_total_time="$secs" -max_len=4096 "$out/corpus"
