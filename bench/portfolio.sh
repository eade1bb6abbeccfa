#!/bin/sh
# portfolio.sh: time to the first bug, portfolio against each single
# strategy, on every seeded bug of models/ (the "bug" and "deep-bug" lines
# of each expected.txt).  Each single strategy: ses with rtc, rr and prr, dfs, pb
# (one run each: they are deterministic), random, pct and ss with rtc, and
# the portfolio (the median of SEEDS seeds each).  Times are pcheck's own "time:" figure (search
# only), floored at 0.01 s; a run that does not find the bug within TIME
# seconds counts as TIME.  Prints a Markdown table and, last, the geometric
# mean and the largest of portfolio / best single strategy.
# Usage: bench/portfolio.sh [PCHECK]   (from the source folder)
#   env: TIME=10 SEEDS=3 JOBS=2 MODELS="clientserver paxos ..." PJOBS=1 (the portfolio's -j)
set -u
P=${1:-build/pcheck}
TIME=${TIME:-10}
SEEDS=${SEEDS:-3}
JOBS=${JOBS:-2}
PJOBS=${PJOBS:-1}
export PCHECK_STDLIB=${PCHECK_STDLIB:-$PWD/stdlib}
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
[ -x "$P" ] || { echo "portfolio.sh: build pcheck first, or pass its path" >&2; exit 2; }
for f in models/*/expected.txt; do
  m=$(basename "$(dirname "$f")")
  case " ${MODELS:-$m} " in *" $m "*) ;; *) continue ;; esac
  awk -F'\t' -v m="$m" '$1 !~ /^#/ && ($2 == "bug" || $2 == "deep-bug") { print m, $1 }' "$f"
done >"$tmp/bugs"
cat >"$tmp/one.sh" <<'EOS'
#!/bin/sh
# one.sh P TIME PJOBS MODEL TEST ALG SEED: prints "MODEL TEST ALG SEED SECONDS"
P=$1 TIME=$2 PJ=$3 m=$4 t=$5 alg=$6 seed=$7
out=$(mktemp -d)
case $alg in
  ses-*) r=$("$P" --search ses --explorer "${alg#ses-}" --timeout "$TIME" -q -o "$out" -tc "$t" "models/$m" 2>&1) ;;
  ss-*) r=$("$P" --search ss --explorer "${alg#ss-}" --seed "$seed" --timeout "$TIME" -q -o "$out" -tc "$t" "models/$m" 2>&1) ;;
  portfolio) r=$("$P" --search portfolio -j "$PJ" --seed "$seed" --timeout "$TIME" -q -o "$out" -tc "$t" "models/$m" 2>&1) ;;
  *) r=$("$P" --search "$alg" --seed "$seed" --timeout "$TIME" -q -o "$out" -tc "$t" "models/$m" 2>&1) ;;
esac
code=$?
rm -rf "$out"
s=$(echo "$r" | sed -n 's/.*time: \([0-9.]*\).*/\1/p' | tail -n 1)
[ "$code" -eq 1 ] && [ -n "$s" ] || s=$TIME
echo "$m $t $alg $seed $s"
EOS
while read -r m t; do
  for a in ses-rtc ses-rr ses-prr dfs pb; do echo "$m $t $a 1"; done
  s=1
  while [ "$s" -le "$SEEDS" ]; do
    for a in random pct ss-rtc portfolio; do echo "$m $t $a $s"; done
    s=$((s + 1))
  done
done <"$tmp/bugs" >"$tmp/runs"
echo "portfolio.sh: $(wc -l <"$tmp/bugs") bugs, $(wc -l <"$tmp/runs") runs, $TIME s each, $JOBS at a time" >&2
awk -v P="$P" -v T="$TIME" -v J="$PJOBS" '{ print P, T, J, $0 }' "$tmp/runs" | xargs -P "$JOBS" -L 1 sh "$tmp/one.sh" >"$tmp/res"
awk -v seeds="$SEEDS" -v T="$TIME" '
  function fl(x) { return x < 0.01 ? 0.01 : x }
  { k = $1 " " $2; if (!(k in seen)) { seen[k] = 1; order[++n] = k }
    v[k, $3, ++c[k, $3]] = fl($5 + 0) }
  function med(k, a,   i, j, t, m, arr) { m = c[k, a]; for (i = 1; i <= m; i++) arr[i] = v[k, a, i]
    for (i = 1; i <= m; i++) for (j = i + 1; j <= m; j++) if (arr[j] < arr[i]) { t = arr[i]; arr[i] = arr[j]; arr[j] = t }
    return arr[int((m + 1) / 2)] }
  END {
    split("ses-rtc ses-rr ses-prr dfs pb random pct ss-rtc", algs, " ")
    printf "| model | bug | portfolio |"; for (i = 1; i <= 8; i++) printf " %s |", algs[i]; printf " best | ratio |\n"
    printf "| --- | --- | ---: |"; for (i = 1; i <= 8; i++) printf " ---: |"; printf " --- | ---: |\n"
    lg = 0; worst = 0
    for (q = 1; q <= n; q++) { k = order[q]; split(k, mt, " ")
      pf = med(k, "portfolio"); best = T + 1; bn = ""
      printf "| %s | %s | %.2f |", mt[1], mt[2], pf
      for (i = 1; i <= 8; i++) { x = med(k, algs[i]); printf " %.2f |", x; if (x < best) { best = x; bn = algs[i] } }
      r = pf / best; lg += log(r); if (r > worst) { worst = r; wk = k }
      printf " %s | %.1f |\n", bn, r }
    printf "\n%d bugs; portfolio / best single strategy: geometric mean %.2f, largest %.1f (%s)\n", n, exp(lg / n), worst, wk
  }' "$tmp/res"
