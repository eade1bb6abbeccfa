# lib.sh: sourced by bench/p/compare.sh and tests/p_agreement.sh: P's
# own checker and pcheck run on one test each, their verdicts read the
# same way.  The caller sets plib_dir (this folder) before sourcing it,
# and T (seconds per run), S (schedules), PCHECK (pcheck's path) and
# plib_tmp (a scratch folder) before calling; env.sh is sourced here.
. "$plib_dir/env.sh"

# p_installed: 0 when `p` runs.
p_installed() { p --version >/dev/null 2>&1; }

# p_compile DIR NAME FILES...: `p compile` of FILES (relative to DIR)
# into $plib_tmp/NAME; prints the checker's dll, or nothing (the
# compiler's output is in $plib_tmp/NAME.compile).
p_compile() {
  pc_dir=$1 pc_name=$2
  shift 2
  rm -rf "${plib_tmp:?}/$pc_name"
  (cd "$pc_dir" && p compile -pf "$@" -pn "P$pc_name" -o "$plib_tmp/$pc_name" >"$plib_tmp/$pc_name.compile" 2>&1)
  [ -f "$plib_tmp/$pc_name/PChecker/net8.0/P$pc_name.dll" ] && echo "$plib_tmp/$pc_name/PChecker/net8.0/P$pc_name.dll"
}

# p_compile_pproj DIR NAME PPROJ: `p compile -pp PPROJ` in DIR into
# $plib_tmp/NAME; prints the checker's dll (named after the project's
# <ProjectName>), or nothing (the output in $plib_tmp/NAME.compile).
p_compile_pproj() {
  rm -rf "${plib_tmp:?}/$2"
  (cd "$1" && p compile -pp "$3" -o "$plib_tmp/$2" >"$plib_tmp/$2.compile" 2>&1)
  pcp_n=$(sed -n 's|.*<ProjectName>[[:space:]]*\([^<[:space:]]*\)[[:space:]]*</ProjectName>.*|\1|p' "$1/$3" | head -n 1)
  [ -f "$plib_tmp/$2/PChecker/net8.0/$pcp_n.dll" ] && echo "$plib_tmp/$2/PChecker/net8.0/$pcp_n.dll"
}

# p_tests DLL: the names of the test cases P's checker lists for DLL, one a
# line (a program without a test declaration has one, DefaultImpl, where
# pcheck's is Main).
p_tests() {
  (cd "$plib_tmp" && p check "$1" --list-tests 2>/dev/null) | sed -n '/List of test cases/,/^\. Done/p' | sed -e '1d' -e '$d'
}

# p_run DLL TEST ARGS...: `p check` of TEST: its verdict in $Pv ("bug:
# <the error's first line>", "no bug" or "no verdict"), the time P prints
# for it in $Pt (its search alone; for a bug, when it was found), its
# schedules in $Pn.
p_run() {
  pr_dll=$1 pr_tc=$2
  shift 2
  rm -rf "$plib_tmp/run"
  mkdir -p "$plib_tmp/run"
  (cd "$plib_tmp/run" && timeout $((T + 120)) p check "$pr_dll" -tc "$pr_tc" -s "$S" --timeout "$T" "$@" >"$plib_tmp/all.log" 2>&1)
  p_verdict "$plib_tmp/all.log" "$pr_tc" "$plib_tmp/run/PCheckerOutput"
}

# p_verdict LOG TEST OUTDIR: TEST's verdict, time and schedules ($Pv, $Pt,
# $Pn, as p_run) from LOG, the output of a `p check -tc TEST`, and the bug
# files under OUTDIR (its PCheckerOutput).  P's -tc runs every test whose
# name starts with TEST (`-tc tcSingleClient` runs tcSingleClientAbstractServer
# too): TEST's own block of LOG counts; $Pothers says how many other tests
# P ran.
p_verdict() {
  awk -v tc="$2" '/^\.\. Test case :: /{ on = ($NF == tc) } on' "$1" >"$plib_tmp/block.log"
  Pothers=$(grep '^\.\. Test case :: ' "$1" | awk -v tc="$2" '$NF != tc' | grep -c .)
  Pt=$(sed -n 's/^\.\.\. Elapsed \([0-9.]*\) sec.*/\1/p' "$plib_tmp/block.log" | head -n 1)
  [ -n "$Pt" ] && Pt=$(printf '%.3f' "$Pt")
  Pn=$(sed -n 's/^\.\.\.\.\. Explored \([0-9]*\) schedules*$/\1/p' "$plib_tmp/block.log" | head -n 1)
  if grep -q 'Found [1-9][0-9]* bug' "$plib_tmp/block.log"; then
    pv_e=$(grep -h '<ErrorLog>' "$3"/BugFinding*/*.txt 2>/dev/null | head -n 1 | sed 's/^<ErrorLog> //' | cut -c1-70)
    Pv="bug: $pv_e"
  elif grep -q 'Found 0 bugs' "$plib_tmp/block.log"; then Pv="no bug"
  else Pv="no verdict"; Pt=""; fi
}

# c_run DIR TEST INPUTS ARGS...: pcheck on TEST (INPUTS relative to DIR,
# separated by spaces): its verdict in $Cv ("bug: ...", "no bug", or
# "error: ..."), its wall time in $Ct, its executions in $Cn.
c_run() {
  cr_dir=$1 cr_tc=$2 cr_ins=$3
  shift 3
  rm -f "$plib_tmp/c.json"
  cr_t0=$(date +%s.%N)
  # shellcheck disable=SC2086
  cr_out=$(cd "$cr_dir" && "$PCHECK" -q --timeout "$T" --stats-json "$plib_tmp/c.json" -o "$plib_tmp/co" \
           ${cr_tc:+-tc "$cr_tc"} "$@" $cr_ins 2>&1)
  cr_t1=$(date +%s.%N)
  Ct=$(awk -v a="$cr_t0" -v b="$cr_t1" 'BEGIN { printf "%.3f", b - a }')
  Cn=$(sed -n 's/^ *"executions": *\([0-9]*\),*$/\1/p' "$plib_tmp/c.json" 2>/dev/null)
  cr_b=$(echo "$cr_out" | sed -n 's/^bug: //p' | head -n 1 | cut -c1-70)
  if [ -n "$cr_b" ]; then Cv="bug: $cr_b"
  elif echo "$cr_out" | grep -q '^result: no-bug'; then Cv="no bug"
  else Cv="error: $(echo "$cr_out" | head -n 1 | cut -c1-60)"; fi
}

# short VERDICT: "bug", "no bug", or the verdict itself.
short() { case $1 in bug*) echo bug ;; "no bug") echo "no bug" ;; *) echo "$1" ;; esac; }
