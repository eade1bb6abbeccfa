#!/bin/sh
# ss_schedule.sh: ss's two schedules of strata on every seeded bug of
# models/ (the "bug" and "deep-bug" lines of each expected.txt):
# executions to the bug with --ss-schedule strata (the paper's order: each
# delay bound in full before the next) and interleaved (the default), for
# rtc, rr and prr, the median over SEEDS seeds ("-" when half or more do
# not find it within TIME seconds).  Executions do not depend on the
# machine's speed, only which runs finish within TIME does.  Prints a
# Markdown table, then per explorer the geometric mean of strata /
# interleaved over the bugs both find, and the bugs only one finds.
# Usage: bench/ss_schedule.sh [PCHECK]   (from the source folder)
#   env: TIME=20 SEEDS=5 JOBS=2 MODELS="clientserver paxos ..."
set -u
P=${1:-build/pcheck}
TIME=${TIME:-20}
SEEDS=${SEEDS:-5}
JOBS=${JOBS:-2}
export PCHECK_STDLIB=${PCHECK_STDLIB:-$PWD/stdlib}
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
[ -x "$P" ] || { echo "ss_schedule.sh: build pcheck first, or pass its path" >&2; exit 2; }
for f in models/*/expected.txt; do
  m=$(basename "$(dirname "$f")")
  case " ${MODELS:-$m} " in *" $m "*) ;; *) continue ;; esac
  awk -F'\t' -v m="$m" '$1 !~ /^#/ && ($2 == "bug" || $2 == "deep-bug") { print m, $1 }' "$f"
done >"$tmp/bugs"
cat >"$tmp/one.sh" <<'EOS'
#!/bin/sh
# one.sh P TIME MODEL TEST EXPLORER SCHEDULE SEED: prints "MODEL TEST EXPLORER SCHEDULE SEED EXECUTIONS|-"
P=$1 TIME=$2 m=$3 t=$4 e=$5 sch=$6 seed=$7
out=$(mktemp -d)
r=$("$P" --search ss --explorer "$e" --ss-schedule "$sch" --seed "$seed" --timeout "$TIME" -q -o "$out" -tc "$t" "models/$m" 2>&1)
code=$?
rm -rf "$out"
v=$(echo "$r" | sed -n 's/.*executions: \([0-9]*\).*/\1/p' | tail -n 1)
[ "$code" -eq 1 ] && [ -n "$v" ] || v=-
echo "$m $t $e $sch $seed $v"
EOS
while read -r m t; do
  for e in rtc rr prr; do
    for sch in strata interleaved; do
      s=1
      while [ "$s" -le "$SEEDS" ]; do echo "$m $t $e $sch $s"; s=$((s + 1)); done
    done
  done
done <"$tmp/bugs" >"$tmp/runs"
echo "ss_schedule.sh: $(wc -l <"$tmp/bugs") bugs, $(wc -l <"$tmp/runs") runs of up to $TIME s, $JOBS at a time" >&2
awk -v P="$P" -v T="$TIME" '{ print P, T, $0 }' "$tmp/runs" | xargs -P "$JOBS" -L 1 sh "$tmp/one.sh" >"$tmp/res"
median() {   # the values of "M T E SCH" on stdin's lines; "-" counts as larger than any
  awk -v n="$SEEDS" '{ if ($6 == "-") miss++; else v[++k] = $6 }
    END { if (miss * 2 >= n) { print "-"; exit }
          # sort the found ones
          for (i = 1; i <= k; i++) for (j = i + 1; j <= k; j++) if (v[j] < v[i]) { x = v[i]; v[i] = v[j]; v[j] = x }
          print v[int((n + 1) / 2)] }'
}
echo "| model | bug | rtc strata | rtc interleaved | rr strata | rr interleaved | prr strata | prr interleaved |"
echo "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |"
while read -r m t; do
  line="| $m | $t |"
  for e in rtc rr prr; do
    for sch in strata interleaved; do
      v=$(grep "^$m $t $e $sch " "$tmp/res" | median)
      line="$line $v |"
      echo "$m $t $e $sch $v" >>"$tmp/med"
    done
  done
  echo "$line"
done <"$tmp/bugs"
echo
for e in rtc rr prr; do
  awk -v e="$e" '$3 == e { key = $1 " " $2; if ($4 == "strata") s[key] = $5; else i[key] = $5 }
    END { for (k in s) {
            if (s[k] != "-" && i[k] != "-") { g += log(s[k] / i[k]); n++; if (s[k] / i[k] > hi) hi = s[k] / i[k]; if (lo == "" || s[k] / i[k] < lo) lo = s[k] / i[k] }
            else if (s[k] == "-" && i[k] != "-") oi++
            else if (s[k] != "-" && i[k] == "-") os++ }
          printf "%s: strata / interleaved executions, geometric mean %.2f over %d bugs (from %.2f to %.2f); found only interleaved %d, only strata %d\n", e, n ? exp(g / n) : 0, n, lo, hi, oi, os }' "$tmp/med"
done
