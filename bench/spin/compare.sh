#!/bin/sh
# compare.sh [--markdown]: every protocol of bench/spin (bench/spin/README.md),
# at each of its sizes, searched exhaustively by pcheck and by SPIN, in one
# run.  Per protocol and size it prints, for each configuration:
#   pcheck -j1, -j2   pcheck --search dfs --no-reduction -j 1 / -j 2 on the P twin
#                     (against SPIN without reduction: the same state space)
#   pcheck por        pcheck --search dfs -j 1, its partial-order reduction on
#                     (against SPIN's default, por)
#   spin noreduce     SPIN, pan compiled -DSAFETY -DNOREDUCE (like for like)
#   spin por          SPIN, -DSAFETY with its default partial-order reduction
#   spin ncore2       SPIN multi-core, -DSAFETY -DNOREDUCE -DNCORE=2
# the verdict, states, transitions, search seconds (the tool's own figure:
# pcheck's time_seconds, pan's elapsed time), states per second, bytes per
# state of the visited-state store (pcheck: its whole fingerprint table;
# SPIN: "actual memory usage for states", the stored state vectors, without
# its hash table of fixed size, 128 MB at the default -w24), the mean size of a state (pcheck: mean
# State bytes; SPIN: the state vector), and the time to the verdict: the
# wall-clock time of what a user runs to get the answer (pcheck: the one
# command; SPIN: spin -a, gcc and pan).  Then, per protocol and size, the
# ratios: pcheck -j1's states/s over SPIN noreduce's, SPIN's time to the
# verdict over pcheck -j1's (noreduce, and por), and with both reductions
# on, pcheck por's states and time to the verdict over SPIN por's.
#
# Every configuration runs REPEAT times (default 3), the whole pipeline each
# time, and the fastest run counts, for both tools alike (search seconds and
# time to the verdict are each the smallest of the runs).  A configuration
# that fails prints "failed" and the reason, and the run goes on.
#
# Knobs (environment):
#   PROTOCOLS="twophase abp leader dtp"   which protocols (default: all)
#   SIZES="3 4"          the sizes of every protocol run (default: each one's own)
#   SIZES_leader="3 4"   the sizes of one protocol (wins over SIZES)
#   REPEAT=3             runs per configuration
#   PCHECK=path          the pcheck binary (default: build/pcheck)
#   PCHECK_MEM=4G        pcheck --mem
#   SPIN_MEMLIM=8000     pan's -DMEMLIM, in MB
#   CC="gcc -O2"         how pan.c is compiled
# --markdown (or MARKDOWN=1) prints Markdown tables instead of text.
# SPIN is installed with apt-get when it is missing.
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
pcheck=${PCHECK:-$top/build/pcheck}
repeat=${REPEAT:-3}
pmem=${PCHECK_MEM:-4G}
memlim=${SPIN_MEMLIM:-8000}
cc=${CC:-gcc -O2}
markdown=${MARKDOWN:-0}
[ "${1:-}" = "--markdown" ] && markdown=1
protocols=${PROTOCOLS:-"twophase abp leader dtp"}

# The protocols: Promela file, extra spin -a flags, extra pan.c flags, P
# model, P test name (before the size), default sizes.
proto() {
  case $1 in
  twophase) pml=$here/twophase.pml; spinflags=""; ccflags=""
            pmodel=$top/models/twophase_n; ptest=tcTwoPhase___N_; defsizes="3 4 5 6" ;;
  abp)      pml=$here/abp/abp.pml; spinflags=""; ccflags=""
            pmodel=$here/abp; ptest=tcAbp___N_; defsizes="2 128" ;;
  leader)   pml=$here/leader/leader.pml; spinflags=""; ccflags="-DNOCLAIM"
            pmodel=$here/leader; ptest=tcLeader___N_; defsizes="3 4 5" ;;
  dtp)      pml=$here/dtp/dtp.pml; spinflags="-DQSZ=8"; ccflags=""
            pmodel=$here/dtp; ptest=tcDtp___N_; defsizes="1 2 3" ;;
  *) return 1 ;;
  esac
}

if ! command -v spin >/dev/null 2>&1; then
  if [ "$(id -u)" -eq 0 ]; then SUDO=""; else SUDO="sudo"; fi
  $SUDO apt-get update -qq && $SUDO apt-get install -y -qq spin >/dev/null
fi
command -v spin >/dev/null 2>&1 || echo "compare.sh: spin is missing and could not be installed; SPIN's rows will say failed" >&2
[ -x "$pcheck" ] || { echo "compare.sh: build pcheck first (./build.sh demo), or set PCHECK" >&2; exit 2; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
results=$tmp/results     # one line per configuration, tab-separated
: >"$results"

now() { date +%s.%N; }
# min FILE: the smallest number in FILE (one per line), or empty.
min() { awk 'NF && (m == "" || $1 + 0 < m + 0) { m = $1 } END { print m }' "$1"; }
# json KEY FILE: a number of pcheck's --stats-json.
json() { sed -n "s/.*\"$1\": \"*\([^\",]*\)\"*,*$/\1/p" "$2" | head -n 1; }
# row PROTO N CONFIG VERDICT STATES TRANSITIONS SECONDS BYTES STATEBYTES VERDICT_SECONDS
row() { printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$@" >>"$results"; }
# oneline TEXT: its first non-empty line, tabs made spaces, at most 100 chars
oneline() { printf '%s\n' "$1" | sed -n '/[^ ]/{s/\t/ /g;p;q;}' | cut -c1-100; }

# pcheck_run PROTO N NAME OPTIONS...
pcheck_run() {
  p=$1 n=$2 name=$3
  shift 3
  rm -f "$tmp"/p.sec "$tmp"/p.wall
  i=0
  while [ "$i" -lt "$repeat" ]; do
    i=$((i + 1))
    rm -f "$tmp/p.json"
    t0=$(now)
    "$pcheck" --search dfs "$@" -q --mem "$pmem" --stats-json "$tmp/p.json" -o "$tmp/pout" \
      -tc "$ptest$n" "$pmodel" >"$tmp/p.out" 2>&1
    rc=$?
    t1=$(now)
    if [ "$rc" -gt 1 ] || [ ! -s "$tmp/p.json" ]; then
      row "$p" "$n" "$name" "failed: exit $rc: $(oneline "$(grep -v '^state cache' "$tmp/p.out")")" "" "" "" "" "" ""
      return
    fi
    json time_seconds "$tmp/p.json" >>"$tmp/p.sec"
    echo "$t1 $t0" | awk '{ printf "%.3f\n", $1 - $2 }' >>"$tmp/p.wall"
  done
  case $(json result "$tmp/p.json") in
  no-bug-complete) verdict="no bug" ;;
  bug-found) verdict="bug: $(sed -n "s/^bug: \([^:]*\):.*/\1/p" "$tmp/p.out" | head -n 1)" ;;
  *) verdict="incomplete: $(json result "$tmp/p.json")" ;;
  esac
  row "$p" "$n" "$name" "$verdict" "$(json states "$tmp/p.json")" "$(json transitions "$tmp/p.json")" \
    "$(min "$tmp/p.sec")" "$(json bytes_per_state "$tmp/p.json")" "$(json mean_state_bytes "$tmp/p.json")" \
    "$(min "$tmp/p.wall")"
}

# spin_run PROTO N CONFIG PANFLAGS...: spin -a, gcc, pan, REPEAT times.
spin_run() {
  p=$1 n=$2 name=$3
  shift 3
  flags="-DSAFETY $* -DMEMLIM=$memlim $ccflags"
  rm -f "$tmp"/s.sec "$tmp"/s.wall
  i=0
  while [ "$i" -lt "$repeat" ]; do
    i=$((i + 1))
    d=$tmp/spin.$i
    rm -rf "$d" && mkdir "$d"
    t0=$(now)
    if ! (cd "$d" && spin -DN="$n" $spinflags -a "$pml" >spin.out 2>&1); then
      row "$p" "$n" "$name" "failed: spin -a: $(oneline "$(cat "$d/spin.out")")" "" "" "" "" "" ""
      return
    fi
    if ! (cd "$d" && $cc $flags -w -o pan pan.c >cc.out 2>&1); then
      row "$p" "$n" "$name" "failed: gcc $flags: $(oneline "$(cat "$d/cc.out")")" "" "" "" "" "" ""
      return
    fi
    (cd "$d" && ./pan -m1000000 >pan.out 2>&1)
    t1=$(now)
    out=$d/pan.out
    states=$(sed -n 's/^ *\([0-9][0-9.e+]*\) states, stored.*/\1/p' "$out" | head -n 1)
    if [ -z "$states" ]; then
      row "$p" "$n" "$name" "failed: pan: $(oneline "$(grep -i 'error\|fail\|cannot\|pan:' "$out")")" "" "" "" "" "" ""
      return
    fi
    # pan: elapsed time 0.45 seconds / cpu0: elapsed time 0.31 seconds
    sed -n 's/^.*elapsed time \([0-9.e+]*\) seconds.*/\1/p' "$out" | sort -g | tail -n 1 >>"$tmp/s.sec"
    echo "$t1 $t0" | awk '{ printf "%.3f\n", $1 - $2 }' >>"$tmp/s.wall"
  done
  trans=$(sed -n 's/^ *\([0-9][0-9.e+]*\) transitions.*/\1/p' "$out" | head -n 1)
  errors=$(sed -n 's/.*errors: \([0-9]*\).*/\1/p' "$out" | head -n 1)
  vector=$(sed -n 's/^State-vector \([0-9]*\) byte.*/\1/p' "$out" | head -n 1)
  mem=$(sed -n 's/^ *\([0-9.]*\).actual memory usage for states.*/\1/p' "$out" | head -n 1)
  [ -n "$mem" ] || mem=$(sed -n 's/^ *\([0-9.]*\).equivalent memory usage for states.*/\1/p' "$out" | head -n 1)
  bps=$(awk -v m="${mem:-0}" -v s="$states" 'BEGIN { if (s > 0 && m > 0) printf "%.1f", m * 1048576 / s }')
  if [ "${errors:-0}" -gt 0 ]; then verdict="bug: $(sed -n 's/^.*pan:1: \(.*\) (at depth.*/\1/p' "$out" | head -n 1)"
  elif grep -q 'reached -DMEMLIM bound\|Search not completed\|out of memory' "$out"; then verdict="incomplete"
  else verdict="no bug"; fi
  row "$p" "$n" "$name" "$verdict" "$states" "$trans" "$(min "$tmp/s.sec")" "$bps" "$vector" "$(min "$tmp/s.wall")"
}

for p in $protocols; do
  if ! proto "$p"; then
    row "$p" "-" "-" "failed: no such protocol (twophase abp leader dtp)" "" "" "" "" "" ""
    continue
  fi
  eval "sizes=\${SIZES_$p:-\${SIZES:-\$defsizes}}"
  for n in $sizes; do
    echo "compare.sh: $p N=$n" >&2
    pcheck_run "$p" "$n" "pcheck -j1" --no-reduction -j 1
    pcheck_run "$p" "$n" "pcheck -j2" --no-reduction -j 2
    pcheck_run "$p" "$n" "pcheck por" -j 1
    if command -v spin >/dev/null 2>&1; then
      spin_run "$p" "$n" "spin noreduce" -DNOREDUCE
      # the multi-core pan keeps state vectors of at most VMAX bytes (256 by
      # default): size it from the run above
      vmax=$(tail -n 1 "$results" | awk -F'\t' '$9 ~ /^[0-9]+$/ { v = $9 + 0; print (v > 256 ? v + 8 : 256) }')
      spin_run "$p" "$n" "spin por"
      spin_run "$p" "$n" "spin ncore2" -DNOREDUCE -DNCORE=2 -DVMAX="${vmax:-256}"
    else
      for c in "spin noreduce" "spin por" "spin ncore2"; do
        row "$p" "$n" "$c" "failed: spin is not installed" "" "" "" "" "" ""
      done
    fi
  done
done

cpu=$(lscpu 2>/dev/null | sed -n 's/^Model name: *//p' | head -n 1)
ncpu=$(nproc 2>/dev/null)
spinv=$(spin -V 2>/dev/null | head -n 1)
pv=$("$pcheck" --version 2>/dev/null | head -n 1)

# The tables, from the results file.
awk -F'\t' -v md="$markdown" -v repeat="$repeat" -v cpu="$cpu" -v ncpu="$ncpu" -v spinv="$spinv" -v pv="$pv" '
function num(x, fmt) { return (x == "" ? "-" : sprintf(fmt, x)) }
function rate(s, t) { return (s != "" && t != "" && t > 0) ? sprintf("%.0f", s / t) : "-" }
function line(a, b, c, d, e, f, g, h, i, j, k) {
  if (md) printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", a, b, c, d, e, f, g, h, i, j, k
  else printf "%-9s %4s  %-14s %-8s %11s %12s %9s %10s %8s %8s %9s\n", a, b, c, d, e, f, g, h, i, j, k
}
BEGIN {
  if (md) {
    printf "Machine: %s, %s cores; %s; %s; fastest of %s runs.\n\n", cpu, ncpu, spinv, pv, repeat
    line("protocol", "N", "configuration", "verdict", "states", "transitions", "search s", "states/s", "B/state", "state B", "verdict s")
    print "| --- | ---: | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
  } else {
    printf "machine: %s, %s cores; %s; %s; fastest of %s runs\n\n", cpu, ncpu, spinv, pv, repeat
    line("protocol", "N", "configuration", "verdict", "states", "transitions", "search s", "states/s", "B/state", "state B", "verdict s")
  }
}
{
  key = $1 SUBSEP $2
  if (!(key in seen)) { seen[key] = 1; order[++nkeys] = key; proto[key] = $1; size[key] = $2 }
  if ($4 ~ /^failed/ || $4 ~ /^incomplete/ && $5 == "") {
    if (md) printf "| %s | %s | %s | %s | | | | | | | |\n", $1, $2, $3, $4
    else printf "%-9s %4s  %-14s %s\n", $1, $2, $3, $4
    next
  }
  line($1, $2, $3, $4, $5, $6, num($7, "%.3f"), rate($5, $7), num($8, "%.1f"), num($9, "%.0f"), num($10, "%.3f"))
  if ($3 == "pcheck -j1") { prate[key] = ($7 > 0 ? $5 / $7 : ""); psec[key] = $7; pwall[key] = $10 }
  if ($3 == "spin noreduce") { srate[key] = ($7 > 0 ? $5 / $7 : ""); ssec[key] = $7; swall[key] = $10 }
  if ($3 == "spin por") { porwall[key] = $10; porstates[key] = $5 }
  if ($3 == "pcheck por") { ppwall[key] = $10; ppstates[key] = $5 }
}
END {
  print ""
  if (md) {
    print "| protocol | N | states/s, pcheck -j1 / spin noreduce | time to verdict, spin noreduce / pcheck -j1 | time to verdict, spin por / pcheck -j1 | states, pcheck por / spin por | time to verdict, pcheck por / spin por |"
    print "| --- | ---: | ---: | ---: | ---: | ---: | ---: |"
  } else
    printf "%-9s %4s  %36s %42s %38s %30s %38s\n", "protocol", "N", "states/s, pcheck -j1 / spin noreduce", "time to verdict, spin noreduce / pcheck -j1", "time to verdict, spin por / pcheck -j1", "states, pcheck por / spin por", "time to verdict, pcheck por / spin por"
  for (i = 1; i <= nkeys; i++) {
    k = order[i]
    # a search under 0.05 s is below pan'"'"'s timer (0.01 s): no rate ratio
    r = (prate[k] != "" && srate[k] != "" && psec[k] >= 0.05 && ssec[k] >= 0.05) ? sprintf("%.2f", prate[k] / srate[k]) : "-"
    t1 = (pwall[k] > 0 && swall[k] != "") ? sprintf("%.2f", swall[k] / pwall[k]) : "-"
    t2 = (pwall[k] > 0 && porwall[k] != "") ? sprintf("%.2f", porwall[k] / pwall[k]) : "-"
    s3 = (porstates[k] > 0 && ppstates[k] != "") ? sprintf("%.3f", ppstates[k] / porstates[k]) : "-"
    t3 = (porwall[k] > 0 && ppwall[k] != "") ? sprintf("%.3f", ppwall[k] / porwall[k]) : "-"
    if (md) printf "| %s | %s | %s | %s | %s | %s | %s |\n", proto[k], size[k], r, t1, t2, s3, t3
    else printf "%-9s %4s  %36s %42s %38s %30s %38s\n", proto[k], size[k], r, t1, t2, s3, t3
  }
  print ""
  print "search s: the tool'"'"'s own search time; verdict s: wall-clock time of the whole command(s) (SPIN: spin -a + gcc + pan);"
  print "B/state: bytes per state of the visited-state store (pcheck: its fingerprint table; SPIN: the state vectors it stores, not its 128 MB hash table);"
  print "state B: mean State bytes (pcheck) or SPIN'"'"'s state vector; states/s ratio left out (-) when either search took under 0.05 s."
}' "$results"
