#!/bin/sh
# verdicts.sh: pcheck's verdict next to P's own checker's, test by test,
# on P projects outside this repository (P's tutorials, its regression
# tests): for each project folder given, every test case pcheck lists is
# run by pcheck (the portfolio, the default search, --timeout T) and by P
# 3.1 (`p check -tc TEST -s N --timeout T`, after `p compile -pf` of the
# same .p files), and a table says "bug" or "no bug" for each, with the
# bug's first line.  Needs bench/p/install.sh's P; without it, prints one
# line saying so and exits 0 (nothing compared).
# Usage: bench/p/verdicts.sh [-t SECONDS] [-s SCHEDULES] DIR[:INPUTS] ...
#   DIR a project folder; INPUTS the folders or files of its .p sources,
#   relative to DIR and separated by commas (default: PSrc,PSpec,PTst),
#   e.g. 2_TwoPhaseCommit:PSrc,PSpec,PTst,../Common/Timer/PSrc
#   env: PCHECK (default build/pcheck, from the source folder)
set -u
T=60 S=1000
while [ $# -gt 0 ]; do
  case $1 in
    -t) T=$2; shift 2 ;;
    -s) S=$2; shift 2 ;;
    *) break ;;
  esac
done
PCHECK=${PCHECK:-$PWD/build/pcheck}
here=$(cd "$(dirname "$0")" && pwd)
[ -x "$PCHECK" ] || { echo "verdicts.sh: build pcheck first (or set PCHECK)" >&2; exit 2; }
. "$here/env.sh"
if ! p --version >/dev/null 2>&1; then echo "verdicts.sh: P's checker is not installed here (bench/p/install.sh): nothing compared"; exit 0; fi
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
echo "machine: $(lscpu 2>/dev/null | sed -n 's/^Model name: *//p') ($(nproc) CPUs); pcheck --timeout $T; P: $(p --version 2>/dev/null | head -n 1), -s $S --timeout $T"
echo
echo "| project | test | pcheck | P | agree |"
echo "| --- | --- | --- | --- | --- |"
for arg in "$@"; do
  dir=${arg%%:*} inputs=PSrc,PSpec,PTst
  case $arg in *:*) inputs=${arg#*:} ;; esac
  name=$(basename "$dir")
  ins=$(echo "$inputs" | tr ',' ' ')
  files=$(cd "$dir" && for i in $ins; do if [ -d "$i" ]; then ls "$i"/*.p; else echo "$i"; fi; done)
  # shellcheck disable=SC2086
  (cd "$dir" && p compile -pf $files -pn "P$name" -o "$tmp/$name" >"$tmp/$name.compile" 2>&1)
  dll=$tmp/$name/PChecker/net8.0/P$name.dll
  # shellcheck disable=SC2086
  for tc in $(cd "$dir" && "$PCHECK" --list-tests $ins 2>/dev/null); do
    # shellcheck disable=SC2086
    po=$(cd "$dir" && "$PCHECK" -q --timeout "$T" -o "$tmp/o" -t "$tc" $ins 2>&1)
    pb=$(echo "$po" | sed -n 's/^bug: //p' | head -n 1 | cut -c1-90)
    if [ -n "$pb" ]; then pv="bug: $pb"; else pv="no bug ($(echo "$po" | sed -n 's/^result: no-bug (\(.*\))$/\1/p'))"; fi
    if [ -f "$dll" ]; then
      # p check -tc runs every test whose name starts with tc, one block
      # (".. Test case :: NAME", its outputs numbered in that order) each.
      (cd "$tmp" && timeout $((T + 60)) p check "$dll" -tc "$tc" -s "$S" --timeout "$T" >"$tmp/all.log" 2>&1)
      awk -v tc="$tc" '/^\.\. Test case :: /{ on = ($NF == tc) } on' "$tmp/all.log" >"$tmp/check.log"
      k=$(grep '^\.\. Test case :: ' "$tmp/all.log" | awk -v tc="$tc" '$NF == tc { print NR - 1; exit }')
      if grep -q 'Found [1-9][0-9]* bug' "$tmp/check.log"; then
        out=$tmp/PCheckerOutput/BugFinding
        [ "$(grep -c '^\.\. Test case :: ' "$tmp/all.log")" -gt 1 ] && out=$out$k
        e=$(grep -h '<ErrorLog>' "$out"/*.txt 2>/dev/null | tail -n 1 | sed 's/^<ErrorLog> //' | cut -c1-90)
        Pv="bug: $e"
      elif grep -q 'Found 0 bugs' "$tmp/check.log"; then Pv="no bug"
      else Pv="error (see p check)"; fi
      rm -rf "$tmp/PCheckerOutput"
    else
      Pv="does not compile: $(grep -m1 -i 'error' "$tmp/$name.compile" | cut -c1-80)"
    fi
    a=no
    case "$pv:$Pv" in bug*:bug*|no\ bug*:no\ bug*) a=yes ;; esac
    echo "| $name | $tc | $pv | $Pv | $a |"
  done
done
