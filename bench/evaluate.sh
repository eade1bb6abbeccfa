#!/bin/sh
# evaluate.sh: which search finds which bug, and after how much work — the
# shape of the seed paper's evaluation (Delaying explorers: the ses and ss paper's evaluation).
# For every seeded bug variant of models/ (the lines marked "bug" or
# "deep-bug" in each model's expected.txt):
#   ses with rr, rtc, prr (and the model's own explorer), and pb: distinct
#   states explored before the bug, and the bound it was found at;
#   ss with rr, rtc, prr, random, irs, pct, bita and guided: executions
#   before the bug,
#   the median over SEEDS seeds ("not found" when half or more of the seeds
#   do not find it within the budget).
# Each run has a time budget (TIME seconds) and a memory budget (MEM for the
# state cache).  Writes a Markdown table on stdout.
# Usage: bench/evaluate.sh [PCHECK]   (from the source folder)
#   env: TIME=30 MEM=1G SEEDS=10 JOBS=2 MODELS="chainreplication german ..."
#        SCHEDULES=N: sampling runs stop after N executions (not found within
#        them), so that what a "not found" means does not depend on the machine
set -u
P=${1:-build/pcheck}
TIME=${TIME:-30}
MEM=${MEM:-1G}
SEEDS=${SEEDS:-10}
JOBS=${JOBS:-2}
SCHEDULES=${SCHEDULES:-}
export PCHECK_STDLIB=${PCHECK_STDLIB:-$PWD/stdlib}
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
[ -x "$P" ] || { echo "evaluate.sh: build pcheck first, or pass its path" >&2; exit 2; }

# The bug variants: "MODEL TEST".
for f in models/*/expected.txt; do
  m=$(basename "$(dirname "$f")")
  case " ${MODELS:-$m} " in *" $m "*) ;; *) continue ;; esac
  awk -F'\t' -v m="$m" '$1 !~ /^#/ && ($2 == "bug" || $2 == "deep-bug") { print m, $1 }' "$f"
done >"$tmp/bugs"

# One run: prints "KEY RESULT" where RESULT is the figure or "-".
cat >"$tmp/one.sh" <<'EOF'
#!/bin/sh
P=$1 TIME=$2 MEM=$3 key=$4 m=$5 t=$6 alg=$7 e=$8 seed=$9
shift 9
out=$(mktemp -d)
case $alg in
  ses) r=$("$P" --search ses --explorer "$e" --timeout "$TIME" --mem "$MEM" -q -o "$out" -tc "$t" "models/$m" 2>&1) ;;
  pb)  r=$("$P" --search pb --timeout "$TIME" --mem "$MEM" -q -o "$out" -tc "$t" "models/$m" 2>&1) ;;
  ss)  r=$("$P" --search ss --explorer "$e" --seed "$seed" --timeout "$TIME" "$@" -q -o "$out" -tc "$t" "models/$m" 2>&1) ;;
  *)   r=$("$P" --search "$alg" --seed "$seed" --timeout "$TIME" "$@" -q -o "$out" -tc "$t" "models/$m" 2>&1) ;;
esac
code=$?
rm -rf "$out"
if [ "$code" -eq 1 ]; then
  case $alg in ses|pb) v=$(echo "$r" | sed -n 's/^states: \([0-9]*\).*delays: \([0-9]*\).*/\1@\2/p') ;;
               *) v=$(echo "$r" | sed -n 's/.*executions: \([0-9]*\).*/\1/p') ;; esac
  echo "$key ${v:--}"
else
  echo "$key -"
fi
EOF
custom() { grep -rh '^explorer ' "models/$1" --include='*.p' 2>/dev/null | awk '{ print $2; exit }'; }
while read -r m t; do
  c=$(custom "$m")
  for e in rr rtc prr $c; do echo "$m $t ses $e 0"; done
  echo "$m $t pb - 0"
  s=1
  while [ "$s" -le "$SEEDS" ]; do
    for e in rr rtc prr $c; do echo "$m $t ss $e $s"; done
    for a in random irs pct bita guided; do echo "$m $t $a - $s"; done
    s=$((s + 1))
  done
done <"$tmp/bugs" >"$tmp/runs"
n=$(wc -l <"$tmp/runs")
echo "evaluate.sh: $(wc -l <"$tmp/bugs") bug variants, $n runs, budget $TIME s and $MEM each, $JOBS at a time" >&2
# (no blank at the end of a line: xargs -L would join it to the next)
awk -v P="$P" -v T="$TIME" -v M="$MEM" -v S="${SCHEDULES:+--schedules $SCHEDULES}" \
  '{ print P, T, M, $1 "|" $2 "|" $3 "|" $4 "|" $5, $1, $2, $3, $4, $5 (S == "" ? "" : " " S) }' "$tmp/runs" |
  xargs -P "$JOBS" -L 1 sh "$tmp/one.sh" >"$tmp/results"

# The table.
median() {   # values on stdin, "-" = not found; prints the median or "not found"
  sort -n | awk -v n="$SEEDS" '{ if ($1 == "-") miss++; else v[++k] = $1 }
    END { if (miss * 2 >= n || k == 0) { print "not found"; exit }
          # not-found runs count as larger than any found one
          mid = int((n + 1) / 2); if (mid <= k) print v[mid]; else print "not found" }'
}
get() { grep "^$1|$2|$3|$4|$5 " "$tmp/results" | awk '{ print $2 }'; }
# ses and pb cells: "STATES (BOUND)", the delay or preemption bound of the bug
cell() { v=$(get "$@"); [ "$v" = "-" ] || [ -z "$v" ] && v="not found"; echo "$v" | sed 's/@\(.*\)/ (\1)/'; }
{
echo "| model | bug | ses rr | ses rtc | ses prr | ses custom | pb | ss rr | ss rtc | ss prr | ss custom | random | irs | pct | bita | guided |"
echo "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
while read -r m t; do
  row="| $m | $t"
  c=$(custom "$m")
  for e in rr rtc prr; do row="$row | $(cell "$m" "$t" ses "$e" 0)"; done
  if [ -n "$c" ]; then row="$row | $c: $(cell "$m" "$t" ses "$c" 0)"; else row="$row | "; fi
  row="$row | $(cell "$m" "$t" pb - 0)"
  for e in rr rtc prr $c; do
    row="$row | $(grep "^$m|$t|ss|$e|" "$tmp/results" | awk '{ print $2 }' | median)"
  done
  [ -n "$c" ] || row="$row | "
  for a in random irs pct bita guided; do
    row="$row | $(grep "^$m|$t|$a|-|" "$tmp/results" | awk '{ print $2 }' | median)"
  done
  echo "$row |"
done <"$tmp/bugs"
echo
echo "ses custom / ss custom: the explorer declared in the model, if any. ses and pb: distinct states explored before the bug (in brackets: the delay bound, or preemption bound, it was found at); ss, random, irs, pct, bita, guided: executions before the bug, median of $SEEDS seeds; budget $TIME s and --mem $MEM per run${SCHEDULES:+, at most $SCHEDULES executions per sampling run}."
} | tee "$tmp/table"

# What the table shows, counted from it.
awk -F'|' -v seeds="$SEEDS" '
  function num(x) { gsub(/^ +| +$/, "", x); sub(/^[A-Za-z0-9_]+: /, "", x); sub(/ \(.*\)$/, "", x);
                    return (x ~ /^[0-9]+$/) ? x + 0 : -1 }
  /^\| [a-z]/ && $2 !~ /model/ {
    n++
    best = -1; who = ""
    split("rr rtc prr custom", name, " ")
    for (i = 0; i < 4; i++) { v = num($(4 + i)); if (v >= 0 && (best < 0 || v < best)) { best = v; who = name[i + 1] } }
    if (best >= 0) { sesfound++; wins[who]++ }
    pb = num($8); if (pb >= 0) pbfound++
    if (best >= 0 && (pb < 0 || best < pb)) sesbetter++
    if (best >= 0 && pb >= 0) { lr += log(pb / best); nr++ }
    if (best >= 0 && pb >= 0 && pb >= 10 * best) ses10++
    sbest = -1
    for (i = 9; i <= 12; i++) { v = num($i); if (v >= 0 && (sbest < 0 || v < sbest)) sbest = v }
    rnd = num($13); pct = num($15); base = -1
    if (rnd >= 0) base = rnd
    if (pct >= 0 && (base < 0 || pct < base)) base = pct
    if (sbest >= 0) ssfound++
    if (sbest >= 0 && (base < 0 || sbest < base)) ssbetter++
    if (base >= 0) basefound++
  }
  END {
    if (!n) exit
    printf "\n%d bug variants. ses found %d (with at least one of its explorers), pb %d.\n", n, sesfound, pbfound
    printf "ses (its best explorer) needed fewer distinct states than pb on %d, at least ten times fewer on %d;", sesbetter, ses10
    if (nr) printf " geometric mean of pb / best ses: %.2f.\n", exp(lr / nr); else printf "\n"
    printf "Best ses explorer: rr %d, rtc %d, prr %d, the model'"'"'s own %d.\n", wins["rr"], wins["rtc"], wins["prr"], wins["custom"]
    printf "ss (its best explorer) found %d, random or pct %d; ss needed fewer executions than the better of random and pct on %d.\n", ssfound, basefound, ssbetter
  }' "$tmp/table"
