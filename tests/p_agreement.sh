#!/bin/sh
# p_agreement.sh: pcheck's verdict against P's own checker's (P 3.1,
# `p check`), test by test, on P's regression tests and tutorials (issue
# 36).  Neither P nor its tests are part of this repository: P comes from
# bench/p/install.sh (NuGet), the tests from a folder named by P_CORPUS:
# every test folder under a folder named Correct or DynamicError in it (P's
# Tst/RegressionTests layout: <Feature>/<Correct|DynamicError>/<Test>/*.p),
# and every folder listed, one per line, in $P_CORPUS/projects.txt (a P
# project whose test cases `pcheck --list-tests` lists, e.g. a tutorial;
# one with a .pproj is compiled from it by both, as `p compile` and a
# `pcheck` without inputs do).
# Without P or P_CORPUS the script says so and is skipped.
#
# Per test case: P's verdict is "bug" if `p check -s S --timeout T` finds
# one with its default strategy (random) or with --sch-fairpct 3 (its
# schedules are long enough for a spec hot half the time to reach the
# temperature threshold: doc/p-compatibility.md); pcheck's, with its
# default search and --timeout T.  A program without a `test` (or `implementation`) declaration
# is compiled for P with one added, `test tcDefault [main=Main]: assert
# <every spec> in { <every machine> };`, since P 3.1's default test
# attaches no spec (doc/p-compatibility.md) and pcheck's attaches all.
# Where pcheck finds a bug that P's two runs miss, tests/p_agreement.known
# may name the test with the options under which P finds it too (a
# strategy or bounds P's default lacks); P is then run with them.
# PASS when both say bug or both no bug; FAIL when they differ (both
# outputs shown) or pcheck rejects a program P compiles; "n/a" lines (not
# counted) where P does not compile the program or reaches no verdict.
# env: P_CORPUS, P_AGREE_TIMEOUT (30), P_AGREE_SCHEDULES (1000)
. "${srcdir:-.}/tests/lib.sh"
plib_dir=$PWD/bench/p
. "$plib_dir/lib.sh"
skip() { echo "SKIP: $*"; echo "# passed: 0 failed: 0"; exit 77; }
p_installed || skip "P's checker is not installed here (bench/p/install.sh): no verdict compared with P's"
corpus=${P_CORPUS:-}
[ -n "$corpus" ] && [ -d "$corpus" ] ||
  skip "P_CORPUS names no folder of P's tests (they are not part of this repository): no verdict compared with P's"
corpus=$(cd "$corpus" && pwd)
T=${P_AGREE_TIMEOUT:-30} S=${P_AGREE_SCHEDULES:-1000}
plib_tmp=$tmp

# agree_project DIR: every test case of the project in DIR.
agree_project() {
  ap_dir=$1
  ap_name=$(echo "${ap_dir#"$corpus"/}" | tr -c 'A-Za-z0-9_\n' '_')   # P's project names: letters, digits, '_'
  ap_pproj=$(cd "$ap_dir" && ls ./*.pproj 2>/dev/null)
  if [ "$(echo "$ap_pproj" | grep -c .)" = 1 ]; then
    # A project with its .pproj: both read it, P by `p compile`, pcheck with
    # no input, in a copy of the folder above it (a .pproj may include
    # ../Common/...).
    rm -rf "$tmp/par"
    mkdir "$tmp/par"
    cp -R "$(dirname "$ap_dir")"/. "$tmp/par"/
    ap_run=$tmp/par/$(basename "$ap_dir") ap_files=
    ap_dll=$(p_compile_pproj "$ap_run" "$ap_name" "$ap_pproj")
  else
    ap_run=$ap_dir
    agree_files
  fi
  agree_tests
}

# agree_files: the program of the folder $ap_dir without a .pproj: every .p
# file in it ($ap_files), P's compiled checker in $ap_dll.
agree_files() {
  rm -rf "$tmp/src"
  cp -R "$ap_dir" "$tmp/src"
  ap_files=$(cd "$tmp/src" && find . -name '*.p' | sort)
  # shellcheck disable=SC2086
  (cd "$tmp/src" && for f in $ap_files; do cat "$f"; echo; done) >"$tmp/all.p"   # a file may not end its last line
  if ! grep -q '^[[:space:]]*\(test\|implementation\)[[:space:]]' "$tmp/all.p"; then
    specs=$(sed -n 's/^[[:space:]]*spec[[:space:]]\{1,\}\([A-Za-z_][A-Za-z0-9_]*\).*/\1/p' "$tmp/all.p" | sort -u | paste -sd, -)
    machines=$(sed -n 's/^[[:space:]]*machine[[:space:]]\{1,\}\([A-Za-z_][A-Za-z0-9_]*\).*/\1/p' "$tmp/all.p" | sort -u | paste -sd, -)
    if [ -n "$specs" ] && [ -n "$machines" ]; then
      echo "test tcDefault [main=Main]: assert $specs in { $machines };" >"$tmp/src/zz_p_agreement_test.p"
    fi
  fi
  # shellcheck disable=SC2086
  ap_dll=$(p_compile "$tmp/src" "$ap_name" $(cd "$tmp/src" && find . -name '*.p' | sort))
}

# agree_tests: each test case of the program ($ap_run, $ap_files, $ap_dll).
agree_tests() {
  # shellcheck disable=SC2086
  ap_tests=$(cd "$ap_run" && "$PCHECK" --list-tests $ap_files 2>/dev/null)
  # P's own names for its tests (a program without a test declaration has
  # one, DefaultImpl, where pcheck's is Main).
  ap_ptests=
  [ -n "$ap_dll" ] && ap_ptests=$(p_tests "$ap_dll")
  if [ -z "$ap_tests" ]; then
    # shellcheck disable=SC2086
    c_run "$ap_run" "" "$ap_files"
    if [ -n "$ap_dll" ] && [ -z "$ap_ptests" ]; then
      echo "n/a: ${ap_dir#"$corpus"/}: no test case to run in either (P lists none; pcheck: $Cv)"
    elif [ -n "$ap_dll" ]; then bad "${ap_dir#"$corpus"/}: pcheck rejects a program P compiles: $Cv"
    else echo "n/a: ${ap_dir#"$corpus"/}: neither compiles it"; fi
    return
  fi
  for ap_tc in $ap_tests; do
    ap_what="${ap_dir#"$corpus"/} $ap_tc"
    # shellcheck disable=SC2086
    c_run "$ap_run" "$ap_tc" "$ap_files"
    if [ -z "$ap_dll" ]; then
      echo "n/a: $ap_what: P does not compile it ($(grep -m1 -i 'error' "$tmp/$ap_name.compile" | cut -c1-80)); pcheck: $Cv"
      continue
    fi
    # P's test for pcheck's: the same name, or each program's only one
    # (pcheck's Main is P's DefaultImpl, or the tcDefault added above).
    ap_ptc=$ap_tc
    if ! echo "$ap_ptests" | grep -qxF "$ap_tc"; then
      if [ "$(echo "$ap_ptests" | grep -c .)" = 1 ] && [ "$(echo "$ap_tests" | grep -c .)" = 1 ]; then ap_ptc=$ap_ptests
      else
        echo "n/a: $ap_what: P has no test of that name (P's: $(echo "$ap_ptests" | head -n 3 | paste -sd' ' -)); pcheck: $Cv"
        continue
      fi
    fi
    p_run "$ap_dll" "$ap_ptc"
    [ "$Pv" = "no bug" ] && p_run "$ap_dll" "$ap_ptc" --sch-fairpct 3
    # A bug pcheck finds and P's default runs miss: P's verdict with the
    # options tests/p_agreement.known gives for the test, when it gives any.
    ap_known=
    if [ "$Pv" = "no bug" ] && [ "${Cv%%:*}" = bug ]; then
      ap_known=$(awk -v d="${ap_dir#"$corpus"/}" -v t="$ap_tc" '$1 == d && $2 == t { $1 = ""; $2 = ""; sub(/ *:.*/, ""); print; exit }' \
                 "$srcdir/tests/p_agreement.known")
      # shellcheck disable=SC2086
      [ -n "$ap_known" ] && p_run "$ap_dll" "$ap_ptc" $ap_known
    fi
    case "$Pv:$Cv" in
      bug*:bug*) if [ -n "$ap_known" ]; then ok "$ap_what: bug, one P's default misses (P finds it with$ap_known; pcheck: $Cv)"
                 else ok "$ap_what: $(short "$Pv") (P: $Pv; pcheck: $Cv)"; fi ;;
      "no bug:no bug") ok "$ap_what: $(short "$Pv") (P: $Pv; pcheck: $Cv)" ;;
      "no verdict:"*) echo "n/a: $ap_what: P reaches no verdict in ${T} s; pcheck: $Cv" ;;
      *) bad "$ap_what: P: $Pv; pcheck: $Cv" ;;
    esac
  done
}

find -L "$corpus" -type d \( -name Correct -o -name DynamicError \) | sort | while read -r kind; do
  for d in "$kind"/*/; do [ -d "$d" ] && echo "${d%/}"; done
done >"$tmp/tests"
[ -f "$corpus/projects.txt" ] && sed -e '/^#/d' -e '/^$/d' -e "s|^\([^/]\)|$corpus/\1|" "$corpus/projects.txt" >>"$tmp/tests"
[ -s "$tmp/tests" ] || skip "$corpus holds no Correct or DynamicError folder and no projects.txt"
while read -r d; do agree_project "$d"; done <"$tmp/tests" >"$tmp/out"
cat "$tmp/out"
pass=$(grep -c '^PASS' "$tmp/out") fail=$(grep -c '^FAIL' "$tmp/out") na=$(grep -c '^n/a' "$tmp/out")
echo "$pass agree, $fail differ, $na not decided by both (P: $(p --version 2>/dev/null | head -n 1))"
echo "# passed: $pass failed: $fail"
[ "$fail" -eq 0 ]
