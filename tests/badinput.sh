#!/bin/sh
# badinput.sh: pcheck must meet bad input of every kind with a clear error
# and exit status 2 (or 0 where the input is merely empty), never a crash,
# a sanitizer report or a hang.  Inputs come from
# tests/golden/badinput/make_inputs.sh plus paths that cannot be read.
set -u
: "${PCHECK:?PCHECK must name the pcheck binary}"
: "${srcdir:=.}"
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT
sh "$srcdir/tests/golden/badinput/make_inputs.sh" "$tmp/in" >/dev/null 2>&1 || { echo "make_inputs.sh failed"; exit 99; }
pass=0 fail=0
# run NAME WANT_EXIT WANT_TEXT ARGS...: check exit status and a phrase on stderr.
run() {
  name=$1 want=$2 text=$3
  shift 3
  timeout 60 ${PCHECK_WRAPPER:-} "$PCHECK" "$@" >"$tmp/out" 2>"$tmp/err"
  code=$?
  ok=1
  [ "$code" -eq "$want" ] || ok=0
  if grep -q -e 'Sanitizer' -e 'runtime error' -e 'Segmentation' "$tmp/err"; then ok=0; fi
  if [ -n "$text" ] && ! grep -q -e "$text" "$tmp/err"; then ok=0; fi
  if [ "$ok" = 1 ]; then
    pass=$((pass + 1)); echo "PASS: $name"
  else
    fail=$((fail + 1)); echo "FAIL: $name (exit $code, wanted $want, phrase '$text')"; head -c 2000 "$tmp/err"; echo
  fi
}
for f in "$tmp"/in/*; do
  base=$(basename "$f")
  case $base in
    empty*) run "$base" 0 '' --check-only "$f" ;;
    *) run "$base" 2 'error' --check-only "$f" ;;
  esac
done
run missing-file 2 "cannot read" --check-only "$tmp/no/such/file.p"
mkdir "$tmp/emptydir"
run dir-without-p 2 "no P source files" --check-only "$tmp/emptydir"
printf 'machine Main { start state S { } }\n' >"$tmp/ok.p"
run not-a-directory 2 "cannot read" --check-only "$tmp/ok.p/x.p"
mkfifo "$tmp/fifo.p" 2>/dev/null && run fifo 2 "not a regular file" --check-only "$tmp/fifo.p"
# Project files are XML as P's loader reads them (lang/inputs.c): an entry
# that names nothing is skipped with a warning (P skips it); only
# <InputFiles><PFile> and <IncludeProject> under the root are entries;
# comments, CDATA, attributes, entities are XML's; "./" is the folder.
printf '<Project><InputFiles><PFile>missing/</PFile></InputFiles></Project>\n' >"$tmp/bad.pproj"
run pproj-missing-entry 2 "no P source files" --check-only "$tmp/bad.pproj"
grep -q "bad.pproj:1:22: warning: <PFile> '.*missing/' names no file or folder: skipped, as P skips it" "$tmp/err" &&
  pass=$((pass + 1)) && echo "PASS: pproj-missing-entry warns, with the place" ||
  { fail=$((fail + 1)); echo "FAIL: pproj-missing-entry warns"; cat "$tmp/err"; }
printf '<Project><IncludeProject>cycle.pproj</IncludeProject><InputFiles><PFile>ok.p</PFile></InputFiles></Project>\n' >"$tmp/cycle.pproj"
run pproj-cycle 0 '' --check-only "$tmp/cycle.pproj"
printf '<Project><InputFiles><PFile>ok.p' >"$tmp/trunc.pproj"
run pproj-truncated 2 "not closed" --check-only "$tmp/trunc.pproj"
mkdir -p "$tmp/px/PSrc" "$tmp/px/PForeign"
printf 'machine Main { start state S { } }\n' >"$tmp/px/PSrc/m.p"
printf 'machine Broken {\n' >"$tmp/px/PForeign/broken.p"
printf 'class Foreign { }\n' >"$tmp/px/PForeign/F.cs"
printf '<?xml version="1.0"?>\n<!-- P 3 -->\n<Project a="x > y">\n<InputFiles>\n  <!-- <PFile>./PForeign/</PFile> -->\n  <PFile><![CDATA[./PSrc/]]></PFile>\n  <PFile>./PForeign/F.cs</PFile>\n</InputFiles>\n<PFile>./PForeign/</PFile>\n</Project>\n' >"$tmp/px/X.pproj"
run pproj-xml 0 "F.cs' is not a .p file (foreign code): pcheck skips it" --check-only "$tmp/px/X.pproj"
printf '<Project><InputFiles><PFile>./</PFile></InputFiles></Project>\n' >"$tmp/px/PSrc/Dot.pproj"
run pproj-dot 0 '' --check-only "$tmp/px/PSrc/Dot.pproj"
printf '<Project><InputFiles><PFile>.</PFile></InputFiles></Project>\n' >"$tmp/px/PSrc/Dot.pproj"
run pproj-dot-alone 0 '' --check-only "$tmp/px/PSrc/Dot.pproj"
printf '<Project><InputFiles><PFile>PSrc/m.p</PFile></InputFiles></Projekt>\n' >"$tmp/px/Bad.pproj"
run pproj-mismatched 2 "Bad.pproj:1:58: error: </Projekt> closes no open element" --check-only "$tmp/px/Bad.pproj"
printf '<Project><InputFiles><PFile>.</PFile></InputFiles>\n<Target>CSharp</Target></Project>\n' >"$tmp/px/PSrc/Old.pproj"
run pproj-target-csharp 0 "Old.pproj:2:1: warning: <Target>CSharp</Target>: P 3 refuses this target" --check-only "$tmp/px/PSrc/Old.pproj"
printf '<Project><InputFiles><PFile>.</PFile></InputFiles><Target>PChecker</Target></Project>\n' >"$tmp/px/PSrc/New.pproj"
run pproj-target-pchecker 0 '' --check-only "$tmp/px/PSrc/New.pproj"
if grep -q Target "$tmp/err"; then fail=$((fail + 1)); echo "FAIL: <Target>PChecker</Target> warns"; cat "$tmp/err"
else pass=$((pass + 1)); echo "PASS: <Target>PChecker</Target> needs no word"; fi
printf '<Project><InputFiles></InputFiles></Project>\n' >"$tmp/px/None.pproj"
run pproj-no-entries 2 "names no <InputFiles><PFile> or <IncludeProject>" --check-only "$tmp/px/None.pproj"
# A folder holding one project file is that project (as p compile): the
# stray broken file beside it is not read; two project files are an error.
mkdir -p "$tmp/proj/src" "$tmp/proj2"
printf 'machine Main { start state S { } }\n' >"$tmp/proj/src/m.p"
printf 'machine Broken {\n' >"$tmp/proj/stray.p"
printf '<Project><InputFiles><PFile>./src/</PFile></InputFiles></Project>\n' >"$tmp/proj/P.pproj"
run folder-project 0 '' --check-only "$tmp/proj"
run folder-without-project 2 "syntax error" --check-only "$tmp/proj/src" "$tmp/proj/stray.p"
cp "$tmp/proj/P.pproj" "$tmp/proj2/A.pproj"; cp "$tmp/proj/P.pproj" "$tmp/proj2/B.pproj"
run folder-two-projects 2 "several project files" --check-only "$tmp/proj2"
head -c 3000 /dev/zero >"$tmp/zero.pproj"
run pproj-binary 2 "not a text file" --check-only "$tmp/zero.pproj"
run unknown-option 2 "unknown option" --frobnicate "$tmp/ok.p"
run missing-value 2 "needs a value" "$tmp/ok.p" --seed
run bad-search 2 "unknown search" --search nope "$tmp/ok.p"
run bad-mem 2 "needs a size" --mem lots "$tmp/ok.p"
run empty-out 2 "needs a folder name" -o "" "$tmp/ok.p"
run bad-format 2 "unknown trace format" --trace-format text,pdf "$tmp/ok.p"
run no-inputs 2 "no input files"
run unknown-test 2 "no test case matches" -tc nope "$tmp/ok.p"
# A JSON trace whose numbers or strings no reader may take: a seed or a
# step out of range (a cast of 1e300 is undefined), a \u escape that is
# not four hex digits, a NUL, a lone surrogate.
cs="$srcdir/models/clientserver"
timeout 60 "$PCHECK" -S dfs -q -tc tcBugLostUpdate -o "$tmp/jt" "$cs" >/dev/null 2>&1
j="$tmp/jt/tcBugLostUpdate.json"
if [ -f "$j" ]; then
  sed 's/"seed": 0,/"seed": -1,/' "$j" >"$tmp/seed_neg.json"
  sed 's/"seed": 0,/"seed": 1e300,/' "$j" >"$tmp/seed_huge.json"
  sed 's/"seed": 0,/"seed": 1.5,/' "$j" >"$tmp/seed_frac.json"
  sed 's/"step": 39}/"step": 1e300}/' "$j" >"$tmp/step_huge.json"
  sed 's/"test": "tcBugLostUpdate"/"test": "tcBug\\u00zzLostUpdate"/' "$j" >"$tmp/u_bad.json"
  sed 's/"test": "tcBugLostUpdate"/"test": "tcBug\\u0000LostUpdate"/' "$j" >"$tmp/u_nul.json"
  sed 's/"test": "tcBugLostUpdate"/"test": "tcBug\\ud800LostUpdate"/' "$j" >"$tmp/u_lone.json"
  for c in seed_neg seed_huge seed_frac step_huge; do
    run "trace-$c" 2 "must be whole numbers" --replay "$tmp/$c.json" "$cs"
  done
  run trace-u-bad 2 'bad \\u escape' --replay "$tmp/u_bad.json" "$cs"
  run trace-u-nul 2 'u0000 in a string' --replay "$tmp/u_nul.json" "$cs"
  run trace-u-lone 2 'bad \\u escape' --replay "$tmp/u_lone.json" "$cs"
  sed 's/"test": "tcBugLostUpdate"/"test": "\\ud83d\\ude00"/' "$j" >"$tmp/u_pair.json"
  run trace-u-pair 2 "which the model does not have" --replay "$tmp/u_pair.json" "$cs"
  grep -q "$(printf '\360\237\230\200')" "$tmp/err" && { pass=$((pass + 1)); echo "PASS: trace-u-pair: a surrogate pair is one character"; } ||
    { fail=$((fail + 1)); echo "FAIL: trace-u-pair: the surrogate pair not combined"; cat "$tmp/err"; }
else
  fail=$((fail + 1)); echo "FAIL: no JSON trace of tcBugLostUpdate to corrupt"
fi

echo "# passed: $pass failed: $fail"
[ "$fail" -eq 0 ]
