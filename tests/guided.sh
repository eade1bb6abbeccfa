#!/bin/sh
# guided.sh: --search guided and --learn, sampling steered by learned
# ordering constraints (HaPSet for actors; issue 16, doc/coverage.md,
# checker/search/search_guided.c, checker/observe/learned.c).
# - a run with --learn FILE writes the orderings it learned, one a line, in
#   the documented layout; a second run starts from them (they are known
#   after its first execution, where a run without the file needs several
#   executions to learn as many), adds its own, and loses none;
# - a file from another folder applies (places are named by file name);
# - guided steers (it reports choices steered to new orderings) and finds
#   the seeded bugs of clientserver, with traces that replay;
# - the same seed gives the same run;
# - bad files are refused with the file, the line and exit 2; --learn on
#   another search is a warning.
. "${srcdir:-.}/tests/lib.sh"
export PCHECK_STDLIB="${PCHECK_STDLIB:-$PWD/stdlib}"
cs=models/clientserver
px=models/paxos
t=tcTwoProposers
known() { sed -n 's/.*guided: .*; \([0-9]*\) orderings known.*/\1/p'; }

# 1. Learn, persist, start from it.
out=$(run -S guided --seed 1 --schedules 30 --learn "$tmp/l.txt" -q -o "$tmp/o" -tc $t $px 2>&1); rc=$?
k=$(echo "$out" | known)
lines=$(grep -c '	' "$tmp/l.txt" 2>/dev/null)
if [ "$rc" -eq 0 ] && [ -n "$k" ] && [ "$k" -ge 10 ] && [ "$lines" = "$k" ] &&
   echo "$out" | grep -qx "learned: $k orderings in $tmp/l.txt ($k new)"; then ok "first run: $k orderings learned and saved"
else bad "first run (exit $rc, $k known, $lines lines)"; echo "$out"; fi
if sed -n 3p "$tmp/l.txt" | grep -qx 'version: 1' &&
   grep -v '^#' "$tmp/l.txt" | sed 1d | grep -vq '^[A-Za-z_][A-Za-z_0-9]*	[^	]*\.p:[0-9]*:[0-9]*	[^	]*\.p:[0-9]*:[0-9]*	\(same\|other\)$'; then
  bad "the file has a line out of the layout"; cat "$tmp/l.txt"
else ok "every line of the file is TYPE, two places and same/other"; fi
cp "$tmp/l.txt" "$tmp/l1.txt"
# Without the file: how many executions to learn k orderings.
n=1
while [ $n -le 30 ]; do
  kk=$(run -S guided --seed 2 --schedules $n -q -o "$tmp/o" -tc $t $px 2>&1 | known)
  [ "${kk:-0}" -ge "$k" ] && break
  n=$((n + 1))
done
out2=$(run -S guided --seed 2 --schedules 1 --learn "$tmp/l.txt" -q -o "$tmp/o" -tc $t $px 2>&1)
k2=$(echo "$out2" | known)
if [ "$n" -gt 1 ] && [ "${k2:-0}" -ge "$k" ]; then
  ok "with the file, $k orderings are known after 1 execution; without it, after $n"
else bad "persistence: without the file $n executions, with it $k2 known after one"; echo "$out2"; fi
run -S guided --seed 3 --schedules 30 --learn "$tmp/l.txt" -q -o "$tmp/o" -tc tcOneProposer $px >/dev/null 2>&1
missing=$(grep -v '^#' "$tmp/l1.txt" | while read -r line; do grep -qxF "$line" "$tmp/l.txt" || echo x; done | wc -l)
if [ "$missing" -eq 0 ] && [ "$(grep -c '	' "$tmp/l.txt")" -ge "$k" ]; then ok "later runs keep every ordering learned before"
else bad "$missing orderings lost"; fi

# 2. A file from another folder applies.
mkdir -p "$tmp/copy" && cp -r $px "$tmp/copy/"
out3=$(cd "$tmp/copy" && "$PCHECK" -S guided --seed 1 --schedules 30 --learn "$tmp/l1.txt" -q -o "$tmp/o" -tc $t paxos 2>&1)
if echo "$out3" | grep -q "^learned: $k orderings in $tmp/l1.txt (0 new)$"; then ok "the same model in another folder learns nothing new from the same seed"
else bad "another folder"; echo "$out3" | tail -n 3; fi

# 3. It steers, finds bugs, and repeats itself.
st=$(echo "$out" | sed -n 's/.*guided: \([0-9]*\) choices steered.*/\1/p')
if [ "${st:-0}" -gt 0 ]; then ok "guided steered $st choices to new orderings"; else bad "guided did not steer"; echo "$out"; fi
for b in tcBugNoDefer tcBugLostUpdate tcBugLostWakeup tcBugLockLeak tcBugReplyOrder; do
  r=$(run -S guided --seed 1 --schedules 500 -q -o "$tmp/b" -tc $b $cs 2>&1); rc=$?
  rr=$(run --replay "$tmp/b/$b.schedule" $cs 2>&1); rc2=$?
  if [ "$rc" -eq 1 ] && [ "$rc2" -eq 1 ]; then ok "$b: guided finds it ($(echo "$r" | field executions) executions), the trace replays"
  else bad "$b (exit $rc, replay $rc2)"; echo "$r" | tail -n 3; fi
done
a=$(run -S guided --seed 9 --schedules 40 --coverage -q -o "$tmp/r1" -tc $t $px 2>&1 | grep -v '^wrote\|^time\|transitions')
b=$(run -S guided --seed 9 --schedules 40 --coverage -q -o "$tmp/r2" -tc $t $px 2>&1 | grep -v '^wrote\|^time\|transitions')
if [ "$a" = "$b" ] && cmp -s "$tmp/r1/$t.coverage.json" "$tmp/r2/$t.coverage.json"; then ok "the same seed gives the same run"
else bad "guided is not reproducible"; fi

# 4. The portfolio with --learn: its random member steers and learns.
r=$(run --schedules 200 --seed 1 --learn "$tmp/pf.txt" -q -o "$tmp/o" -tc tcOneProposer $px 2>&1); rc=$?
if [ "$rc" -eq 0 ] && echo "$r" | grep -q "^learned: [1-9][0-9]* orderings in $tmp/pf.txt" && [ "$(grep -c '	' "$tmp/pf.txt")" -ge 1 ]; then
  ok "the portfolio with --learn learns and saves orderings"
else bad "portfolio --learn (exit $rc)"; echo "$r" | tail -n 4; fi

# 5. Bad files, and --learn elsewhere.
printf 'version: 2\n' >"$tmp/v2.txt"
printf '# c\nversion: 1\nServer\tA.p:1:2\tB.p:3\tsame\n' >"$tmp/short.txt"
printf 'version: 1\nServer\tA.p:1:2\tB.p:3:4\tboth\n' >"$tmp/word.txt"
printf 'Server\tA.p:1:2\tB.p:3:4\tsame\n' >"$tmp/nover.txt"
for c in "$tmp/v2.txt|$tmp/v2.txt:1: not a pcheck learned-orderings file (expected 'version: 1')" \
         "$tmp/short.txt|$tmp/short.txt:3: expected a machine type, two places FILE:LINE:COL and 'same' or 'other', separated by tabs" \
         "$tmp/word.txt|$tmp/word.txt:2: expected a machine type" \
         "$tmp/nover.txt|$tmp/nover.txt:1: not a pcheck learned-orderings file" \
         "$tmp|cannot read the learned orderings '$tmp'"; do
  f=${c%%|*} msg=${c#*|}
  r=$(run -S guided --schedules 2 --learn "$f" -q -o "$tmp/o" -tc $t $px 2>&1); rc=$?
  if [ "$rc" -eq 2 ] && echo "$r" | grep -qF "pcheck: error: $msg" && ! echo "$r" | grep -q '^result'; then ok "refused: $(basename "$f")"
  else bad "bad file $f (exit $rc)"; echo "$r"; fi
done
r=$(run -S random --schedules 2 --learn "$tmp/none.txt" -q -o "$tmp/o" -tc $t $px 2>&1); rc=$?
if [ "$rc" -eq 0 ] && echo "$r" | grep -q 'warning: --learn has no effect on --search random' && [ ! -e "$tmp/none.txt" ]; then
  ok "--learn on random: a warning, no file"
else bad "--learn with random (exit $rc)"; echo "$r"; fi

echo "# passed: $pass failed: $fail"
[ "$fail" -eq 0 ]
