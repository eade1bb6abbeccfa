#!/bin/sh
# compare.sh: P's own checker (P 3.1, `p check`) and pcheck side by side
# on P projects, test by test (issue 36): for each test, P's verdict and
# time with its default strategy (random) and with --sch-pct 3, and
# pcheck's with --search random, --search pct and its default (the
# portfolio), all for the same number of schedules N and the same
# --timeout; the schedules per second of both random searches; then the
# geometric means of P's time over pcheck's.
#
# Times: P's are what it prints for the test ("Elapsed X sec": its search
# alone, after .NET has started and loaded the model; for a bug, the
# first such line, when the bug was found); pcheck's are the wall time
# of the whole command (parsing and compiling the .p files included).
# Both measure the same schedules where neither finds a bug (N of them);
# where one does, the time to its first bug.  Schedules per second: the
# schedules a random search ran over its time (P: "Explored N
# schedules"; pcheck: "executions").
#
# Usage: bench/p/compare.sh [-s N] [-t SECONDS] DIR[:INPUTS] ...
#   DIR a project folder; INPUTS its .p folders or files, relative to DIR,
#   separated by commas (default: every .p file under DIR), e.g.
#   /work/pcorpus/tutorials-run/1_ClientServer models/clientserver
#   env: PCHECK (default build/pcheck, from the source folder), SEED (1),
#   REPEAT (1): runs of each command, the fastest one's time kept (the
#   verdict is the first run's)
# Needs P (bench/p/install.sh); without it, prints one line and exits 0.
# Machine: named in the first line (lscpu).
set -u
S=1000 T=60
while [ $# -gt 0 ]; do
  case $1 in
    -s) S=$2; shift 2 ;;
    -t) T=$2; shift 2 ;;
    *) break ;;
  esac
done
[ $# -gt 0 ] || { echo "usage: bench/p/compare.sh [-s N] [-t SECONDS] DIR[:INPUTS] ..." >&2; exit 2; }
PCHECK=${PCHECK:-$PWD/build/pcheck}
SEED=${SEED:-1}
REPEAT=${REPEAT:-1}
case $PCHECK in /*) ;; *) PCHECK=$PWD/$PCHECK ;; esac
here=$(cd "$(dirname "$0")" && pwd)
[ -x "$PCHECK" ] || { echo "compare.sh: build pcheck first (or set PCHECK)" >&2; exit 2; }
export PCHECK_STDLIB=${PCHECK_STDLIB:-$here/../../stdlib}
plib_dir=$here
. "$here/lib.sh"
if ! p_installed; then echo "compare.sh: P's checker is not installed here (bench/p/install.sh): nothing compared"; exit 0; fi
plib_tmp=$(mktemp -d) || exit 2
tmp=$plib_tmp
trap 'rm -rf "$tmp"' EXIT
# best RUN X ARGS: RUN (p_run or c_run, which set ${X}v, ${X}t and ${X}n)
# REPEAT times: the first run's verdict, the fastest run's time and its
# schedules (best of several for both sides alike).
faster() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a != "" && (b == "" || a < b)) }'; }
best() {
  b_run=$1 b_x=$2
  shift 2
  "$b_run" "$@"
  eval "b_v=\$${b_x}v b_t=\$${b_x}t b_n=\$${b_x}n"
  b_i=1
  while [ "$b_i" -lt "$REPEAT" ]; do
    "$b_run" "$@"
    eval "b_t2=\$${b_x}t b_n2=\$${b_x}n"
    if faster "$b_t2" "$b_t"; then b_t=$b_t2 b_n=$b_n2; fi
    b_i=$((b_i + 1))
  done
  eval "${b_x}v=\$b_v ${b_x}t=\$b_t ${b_x}n=\$b_n"
}
rate() { awk -v n="${1:-0}" -v t="${2:-0}" 'BEGIN { if (n > 0 && t > 0) printf "%.0f", n / t; else printf "-" }'; }

echo "machine: $(lscpu 2>/dev/null | sed -n 's/^Model name: *//p') ($(nproc) CPUs); $(p --version 2>/dev/null | head -n 1); pcheck $("$PCHECK" --version 2>/dev/null | head -n 1 | sed 's/^pcheck //'); -s $S, --timeout $T, pcheck --seed $SEED, best of $REPEAT"
echo
echo "| project | test | P random | s | sched/s | P pct | s | pcheck random | s | sched/s | pcheck pct | s | pcheck default | s | agree |"
echo "| --- | --- | --- | ---: | ---: | --- | ---: | --- | ---: | ---: | --- | ---: | --- | ---: | --- |"
: >"$tmp/ratios"
for arg in "$@"; do
  dir=${arg%%:*} inputs=
  case $arg in *:*) inputs=${arg#*:} ;; esac
  dir=$(cd "$dir" && pwd) || continue
  name=$(basename "$dir")
  if [ -n "$inputs" ]; then ins=$(echo "$inputs" | tr ',' ' ')
  else ins=$(cd "$dir" && find . -name '*.p' | sort | tr '\n' ' '); fi
  files=$(cd "$dir" && for i in $ins; do if [ -d "$i" ]; then find "$i" -name '*.p' | sort; else echo "$i"; fi; done)
  # shellcheck disable=SC2086
  dll=$(p_compile "$dir" "$name" $files)
  # shellcheck disable=SC2086
  ctests=$(cd "$dir" && "$PCHECK" --list-tests $ins 2>/dev/null)
  ptests=
  [ -n "$dll" ] && ptests=$(p_tests "$dll")
  for tc in $ctests; do
    # P's name for it: the same, or P's only test where each side has one
    # (a program without a test declaration: DefaultImpl, pcheck's Main).
    ptc=$tc
    if ! echo "$ptests" | grep -qxF "$tc" && [ "$(echo "$ptests" | grep -c .)" = 1 ] &&
       [ "$(echo "$ctests" | grep -c .)" = 1 ]; then ptc=$ptests; fi
    if [ -n "$dll" ]; then
      best p_run P "$dll" "$ptc"; Pv1=$Pv Pt1=$Pt Pn1=$Pn
      best p_run P "$dll" "$ptc" --sch-pct 3; Pv2=$Pv Pt2=$Pt
    else
      Pv1="does not compile: $(grep -m1 -i 'error' "$tmp/$name.compile" | cut -c1-50)" Pt1= Pn1= Pv2=- Pt2=
    fi
    best c_run C "$dir" "$tc" "$ins" -S random --schedules "$S" --seed "$SEED"; Cv1=$Cv Ct1=$Ct Cn1=$Cn
    best c_run C "$dir" "$tc" "$ins" -S pct --schedules "$S" --seed "$SEED"; Cv2=$Cv Ct2=$Ct
    best c_run C "$dir" "$tc" "$ins"; Cv3=$Cv Ct3=$Ct
    # Agreement: P's verdicts (a bug under either strategy is a bug)
    # against pcheck's (the same).
    pb=no; case "$Pv1$Pv2" in *bug:*) pb=bug ;; esac
    cb=no; case "$Cv1$Cv2$Cv3" in *bug:*) cb=bug ;; esac
    a=yes
    case "$Pv1" in "no bug"|bug*) [ "$pb" = "$cb" ] || a=no ;; *) a=n/a ;; esac
    echo "| $name | $tc | $Pv1 | $Pt1 | $(rate "$Pn1" "$Pt1") | $(short "$Pv2") | $Pt2 | $Cv1 | $Ct1 | $(rate "$Cn1" "$Ct1") | $(short "$Cv2") | $Ct2 | $(short "$Cv3") | $Ct3 | $a |"
    # The same verdict by the same kind of search: P's time over pcheck's,
    # and the random searches' rates.
    if [ -n "$Pt1" ] && [ "$(short "$Pv1")" = "$(short "$Cv1")" ]; then
      echo "random $Pt1 $Ct1 $(rate "$Pn1" "$Pt1") $(rate "$Cn1" "$Ct1")" >>"$tmp/ratios"
    fi
    if [ -n "$Pt2" ] && [ "$(short "$Pv2")" = "$(short "$Cv2")" ]; then echo "pct $Pt2 $Ct2" >>"$tmp/ratios"; fi
  done
done
echo
awk '
  function g(s, n) { return n ? exp(s / n) : 0 }
  { t = $3 < 0.001 ? 0.001 : $3; p = $2 < 0.001 ? 0.001 : $2; r = p / t
    if ($1 == "random") { sr += log(r); nr++; if ($4 != "-" && $5 != "-" && $4 > 0) { q = $5 / $4; sq += log(q); nq++ } }
    else { sp += log(r); np++ } }
  END {
    printf "P time / pcheck time, same verdict, geometric mean: random %.1fx over %d tests, pct %.1fx over %d tests\n", g(sr, nr), nr, g(sp, np), np
    printf "random schedules per second, pcheck / P, geometric mean: %.1fx over %d tests\n", g(sq, nq), nq
  }' "$tmp/ratios"
