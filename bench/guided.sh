#!/bin/sh
# guided.sh: the coverage-guided searches (bita, guided) against the others
# (issue 16; doc/coverage.md).  Two parts, chosen by PART (default: both):
#   PART=bugs  executions before each seeded bug of models/ (the "bug" lines
#              of the models' expected.txt) for random, pct, bita and guided:
#              the median over SEEDS seeds, "not found" when half or more of
#              them miss it within SCHEDULES executions and TIME seconds;
#   PART=time  coverage over time: for each MODEL:TEST of MODELS (a correct
#              test; MODEL alone: its first correct test), each search of SEARCHES and each time budget
#              of TIMES (seconds, --seed 1): PR, PCR, PBR goals covered,
#              states entered, handlers run; a Markdown table on stdout and
#              an SVG plot of PR goals covered against time, one panel per
#              model, written to SVG (default bench/guided-coverage.svg).
# Usage: bench/guided.sh [PCHECK]   (from the source folder)
#   env: PART, SEEDS=5 TIME=10 SCHEDULES=2000 JOBS=2, MODELS, SEARCHES,
#        TIMES="0.5 1 2 4", SVG
set -u
P=${1:-build/pcheck}
PART=${PART:-bugs time}
SEEDS=${SEEDS:-5}
TIME=${TIME:-10}
SCHEDULES=${SCHEDULES:-2000}
JOBS=${JOBS:-2}
MODELS=${MODELS:-clientserver:tcMultipleClients devicedriver:tcTwoTransfers paxos:tcTwoProposers chainreplication:tcTwoClients twophase:tcMultipleClientsWithFailure german:tcThreeCaches}
SEARCHES=${SEARCHES:-random pct ss ses bita guided}
TIMES=${TIMES:-0.5 1 2 4}
SVG=${SVG:-bench/guided-coverage.svg}
export PCHECK_STDLIB=${PCHECK_STDLIB:-$PWD/stdlib}
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
[ -x "$P" ] || { echo "guided.sh: build pcheck first, or pass its path" >&2; exit 2; }

case " $PART " in *" bugs "*)
for f in models/*/expected.txt; do
  m=$(basename "$(dirname "$f")")
  awk -F'\t' -v m="$m" '$1 !~ /^#/ && $2 == "bug" { print m, $1 }' "$f"
done >"$tmp/bugs"
while read -r m t; do
  s=1
  while [ "$s" -le "$SEEDS" ]; do
    for a in random pct bita guided; do echo "$m $t $a $s"; done
    s=$((s + 1))
  done
done <"$tmp/bugs" >"$tmp/runs"
cat >"$tmp/one.sh" <<'EOF'
#!/bin/sh
P=$1 TIME=$2 SCHED=$3 m=$4 t=$5 a=$6 s=$7
out=$(mktemp -d)
r=$("$P" --search "$a" --seed "$s" --timeout "$TIME" --schedules "$SCHED" -q -o "$out" -tc "$t" "models/$m" 2>&1)
code=$?
rm -rf "$out"
v=-
[ "$code" -eq 1 ] && v=$(echo "$r" | sed -n 's/.*executions: \([0-9]*\).*/\1/p')
echo "$m|$t|$a ${v:--}"
EOF
echo "guided.sh: $(wc -l <"$tmp/bugs") bug variants, $(wc -l <"$tmp/runs") runs, $JOBS at a time" >&2
awk -v P="$P" -v T="$TIME" -v S="$SCHEDULES" '{ print P, T, S, $1, $2, $3, $4 }' "$tmp/runs" |
  xargs -P "$JOBS" -L 1 sh "$tmp/one.sh" >"$tmp/results"
median() {
  sort -n | awk -v n="$SEEDS" '{ if ($1 == "-") miss++; else v[++k] = $1 }
    END { if (miss * 2 >= n || k == 0) { print "not found"; exit }
          mid = int((n + 1) / 2); if (mid <= k) print v[mid]; else print "not found" }'
}
{
echo "| model | bug | random | pct | bita | guided |"
echo "| --- | --- | ---: | ---: | ---: | ---: |"
while read -r m t; do
  row="| $m | $t"
  for a in random pct bita guided; do row="$row | $(grep "^$m|$t|$a " "$tmp/results" | awk '{ print $2 }' | median)"; done
  echo "$row |"
done <"$tmp/bugs"
} | tee "$tmp/table"
awk -F'|' '
  function num(x) { gsub(/ /, "", x); return x ~ /^[0-9]+$/ ? x + 0 : -1 }
  /^\| [a-z]/ && $2 !~ /model/ {
    n++; r = num($4); p = num($5); b = num($6); g = num($7)
    for (k = 0; k < 2; k++) {
      v = k ? g : b
      if (v < 0) continue
      found[k]++
      if ((r < 0 || v < r) && (p < 0 || v < p)) fewer[k]++
      if ((r < 0 || v <= r) && (p < 0 || v <= p)) atmost[k]++
    }
  }
  END {
    printf "\n%d bug variants, executions before the bug (median of the seeds).\n", n
    printf "bita found %d; fewer executions than both random and pct on %d, at most as many on %d.\n", found[0], fewer[0], atmost[0]
    printf "guided found %d; fewer executions than both random and pct on %d, at most as many on %d.\n", found[1], fewer[1], atmost[1]
  }' "$tmp/table"
;; esac

case " $PART " in *" time "*)
echo
echo "| model | test | search | seconds | executions | PR goals | PCR goals | PBR goals | states | handlers |"
echo "| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
: >"$tmp/points"
for mt in $MODELS; do
  m=${mt%%:*} t=${mt#*:}
  [ "$t" != "$mt" ] || t=$(awk -F'\t' '$1 !~ /^#/ && ($2 == "no-bug" || $2 == "skip") { print $1; exit }' "models/$m/expected.txt")
  [ -n "$t" ] || continue
  for a in $SEARCHES; do
    for T in $TIMES; do
      r=$("$P" --search "$a" --seed 1 --timeout "$T" --coverage -q -o "$tmp/o" -tc "$t" "models/$m" 2>&1)
      ex=$(echo "$r" | sed -n 's/.*executions: \([0-9]*\).*/\1/p')
      pr=$(echo "$r" | sed -n 's/^schedule coverage: PR \([0-9]*\)\/.*/\1/p')
      pcr=$(echo "$r" | sed -n 's/^schedule coverage: .*PCR \([0-9]*\)\/.*/\1/p')
      pbr=$(echo "$r" | sed -n 's/^schedule coverage: .*PBR \([0-9]*\)\/.*/\1/p')
      st=$(echo "$r" | sed -n 's/^coverage: \([0-9]*\/[0-9]*\) states.*/\1/p')
      hd=$(echo "$r" | sed -n 's/^coverage: [0-9]*\/[0-9]* states, \([0-9]*\/[0-9]*\) handlers.*/\1/p')
      echo "| $m | $t | $a | $T | ${ex:--} | ${pr:--} | ${pcr:--} | ${pbr:--} | $st | $hd |"
      [ -n "$pr" ] && echo "$m $a $T $pr" >>"$tmp/points"
    done
  done
done
# The plot: one panel per model, PR goals covered (y) against seconds (x,
# log scale), a line per search.
awk -v times="$TIMES" -v searches="$SEARCHES" '
  BEGIN { nt = split(times, T, " "); ns = split(searches, S, " ")
          split("#1f77b4 #ff7f0e #2ca02c #d62728 #9467bd #8c564b", C, " ") }
  { if (!($1 in seen)) { seen[$1] = 1; M[++nm] = $1 } v[$1, $2, $3] = $4; if ($4 > top[$1]) top[$1] = $4 }
  END {
    cols = 3; rows = int((nm + cols - 1) / cols); W = 300; H = 220
    printf "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" font-family=\"sans-serif\" font-size=\"11\">\n", cols * W, rows * H + 40
    printf "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n"
    for (i = 1; i <= ns; i++)
      printf "<rect x=\"%d\" y=\"%d\" width=\"10\" height=\"10\" fill=\"%s\"/><text x=\"%d\" y=\"%d\">%s</text>\n", 10 + (i - 1) * 90, rows * H + 15, C[i], 24 + (i - 1) * 90, rows * H + 24, S[i]
    for (k = 1; k <= nm; k++) {
      m = M[k]; ox = ((k - 1) % cols) * W + 45; oy = int((k - 1) / cols) * H + 25; pw = W - 60; ph = H - 60
      printf "<text x=\"%d\" y=\"%d\" font-weight=\"bold\">%s: PR goals covered</text>\n", ox, oy - 8, m
      printf "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" stroke=\"#999\"/>\n", ox, oy, pw, ph
      printf "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">%d</text><text x=\"%d\" y=\"%d\" text-anchor=\"end\">0</text>\n", ox - 3, oy + 8, top[m], ox - 3, oy + ph
      for (j = 1; j <= nt; j++) {
        x = ox + (nt > 1 ? (j - 1) * pw / (nt - 1) : pw / 2)
        printf "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">%ss</text>\n", x, oy + ph + 14, T[j]
      }
      for (i = 1; i <= ns; i++) {
        pts = ""
        for (j = 1; j <= nt; j++) {
          if (!((m, S[i], T[j]) in v)) continue
          x = ox + (nt > 1 ? (j - 1) * pw / (nt - 1) : pw / 2); y = oy + ph - (top[m] ? v[m, S[i], T[j]] * ph / top[m] : 0)
          pts = pts sprintf("%.1f,%.1f ", x, y)
        }
        if (pts != "") printf "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\" points=\"%s\"/>\n", C[i], pts
      }
    }
    print "</svg>"
  }' "$tmp/points" >"$SVG"
echo
echo "Plot: $SVG (x: the time budgets $TIMES s, evenly spaced; y: PR goals covered, from 0 to the best search's)."
echo "Exhaustive searches (ses) do not measure schedule coverage: \"-\" in the table, no line in the plot."
;; esac
