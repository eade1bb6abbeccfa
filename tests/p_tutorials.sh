#!/bin/sh
# p_tutorials.sh: P's tutorials 1-5 with the command lines of P's
# documentation, unmodified (tests/p_tutorials.cmds): in a copy of each
# tutorial folder, `p compile` then `p check ARGS` (P 3.1), and `pcheck
# ARGS` (no input: the folder's .pproj, as `p check` finds it).  PASS when
# both report a bug or both none; FAIL otherwise (both outputs shown) or
# when pcheck fails where P ran; "n/a" (not counted) where P and pcheck
# both reject the project as stored, or neither has the named test.  The
# tutorials are not part of this repository: $P_CORPUS/tutorials/<folder>
# (their .pproj may include ../Common/...: $P_CORPUS/tutorials/Common).
# Without P or the tutorials the script says so and is skipped.
. "${srcdir:-.}/tests/lib.sh"
plib_dir=$PWD/bench/p
. "$plib_dir/lib.sh"
plib_tmp=$tmp
skip() { echo "SKIP: $*"; echo "# passed: 0 failed: 0"; exit 77; }
p_installed || skip "P's checker is not installed here (bench/p/install.sh): no verdict compared with P's"
tut=${P_CORPUS:+$P_CORPUS/tutorials}
[ -n "$tut" ] && [ -d "$tut" ] || skip "P_CORPUS names no folder with P's tutorials (not part of this repository)"
pcheck_abs=$(cd "$(dirname "$PCHECK")" && pwd)/$(basename "$PCHECK")
rm -rf "$tmp/t"
cp -R "$tut" "$tmp/t"
compiled=
# shellcheck disable=SC2034
while IFS='	' read -r folder args; do
  case $folder in '#'*|'') continue ;; esac
  d=$tmp/t/$folder
  if ! [ -d "$d" ]; then bad "$folder: not in $tut"; continue; fi
  case " $compiled " in
    *" $folder "*) ;;
    *) if ! (cd "$d" && timeout 600 p compile </dev/null >"$tmp/$folder.compile" 2>&1); then
         # P rejects the project as stored: so must pcheck (or it accepts
         # what P does not), and there is no verdict to compare.
         pe=$(grep -m1 -i error "$tmp/$folder.compile" | cut -c1-120)
         if ce=$(cd "$d" && "$pcheck_abs" --check-only </dev/null 2>&1); then
           bad "$folder: pcheck accepts the project P rejects (P: $pe)"
         else echo "n/a: $folder p check $args: P and pcheck both reject the project (P: $pe; pcheck: $(echo "$ce" | grep -m1 error | cut -c1-120))"; fi
         continue
       fi
       compiled="$compiled $folder" ;;
  esac
  # shellcheck disable=SC2086
  (cd "$d" && rm -rf PCheckerOutput && timeout 900 p check $args </dev/null >"$tmp/p.out" 2>&1)
  # The named test's verdict (P runs every test whose name starts with it).
  tc=$(echo "$args" | sed -n 's/.*-tc \([^ ]*\).*/\1/p')
  p_verdict "$tmp/p.out" "$tc" "$d/PCheckerOutput"
  pv=$Pv pt=$Pt
  [ "$Pothers" -gt 0 ] && echo "note: $folder p check $args: P ran $Pothers more test(s) whose names start with $tc; pcheck runs the one named"
  t0=$(date +%s.%N)
  # shellcheck disable=SC2086
  (cd "$d" && ${PCHECK_WRAPPER:-} "$pcheck_abs" $args </dev/null >"$tmp/c.out" 2>&1); crc=$?
  t1=$(date +%s.%N)
  ct=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }')
  cb=$(sed -n 's/^bug: //p' "$tmp/c.out" | head -n 1 | cut -c1-70)
  if [ -n "$cb" ] && [ "$crc" -eq 1 ]; then cv="bug: $cb"
  elif grep -q '^result: no-bug' "$tmp/c.out" && [ "$crc" -eq 0 ]; then cv="no bug"
  else cv="error (exit $crc): $(grep -m1 -v '^pcheck: note' "$tmp/c.out" | cut -c1-70)"; fi
  case "$pv:$cv" in
    bug*:bug*|"no bug:no bug") ok "$folder p check $args: $(short "$pv") (P: $pv, ${pt:-?} s; pcheck: $cv, $ct s)" ;;
    "no verdict:error"*)   # e.g. a test name of the documentation that the stored tutorial lacks
      if grep -qF "no test case matches '$tc'" "$tmp/c.out"; then echo "n/a: $folder p check $args: neither runs it (P: no such test; pcheck: $cv)"
      else bad "$folder p check $args: P reaches no verdict; pcheck: $cv"; fi ;;
    "no verdict:"*) bad "$folder p check $args: P reaches no verdict"; tail -n 5 "$tmp/p.out" ;;
    *) bad "$folder p check $args: P: $pv; pcheck: $cv"; tail -n 8 "$tmp/c.out" ;;
  esac
done <"$srcdir/tests/p_tutorials.cmds"
echo "# passed: $pass failed: $fail"
[ "$fail" -eq 0 ]
