#!/bin/sh
# html.sh: the HTML counterexample report (checker/report/report_html.c) in a real
# headless Chromium, which runs the page's script; the checks read the DOM
# after it ran (--dump-dom) and screenshots:
# 1. A safety bug (clientserver tcBugLostUpdate): the bug and its relative
#    location at the top and in the last row, one lifeline per machine and
#    spec, one arrow per send and creation, a row for every step, relative
#    source paths, nothing fetched from elsewhere.
# 2. #step=N selects a step: its rows and band are marked and the panel
#    shows each machine's state after it (as the JSON trace's events say);
#    clicks on a row or the diagram, ArrowDown/ArrowUp select too.
# 3. #machine=NAME, #kind=KIND filter the rows (and dim the diagram); the
#    bug row stays.
# 4. A liveness lasso (replicatedstore tcBugAckOnData; starved.p --unfair):
#    the cycle start is marked in the header, the diagram and the list.
# 5. A 2,000-step trace (tests/html/long.p) loads, its script finishes in
#    time, selecting steps stays fast, the panel is right at step 1000.
# 6. Every kind of event (tests/html/kinds.p) is drawn (in the HTML as
#    pcheck writes it: the diagram needs no script) and listed; lifelines
#    start at a creation and end at a halt.
# 7. Markup in payloads and messages (tests/html/escape.p) shows as text.
#    The coverage section holds the run's summary line and a row per state.
# 7b. Ten machines (tests/html/many.p): the lifelines not involved in the
#    bug folded on load, arrows still on their lifelines, the bug in view;
#    #collapse=0 unfolds them.
# 8. Screenshots are not blank (larger than a blank page's, 3 times).
# Needs chromium (or CHROMIUM=path): without it the script fails.
# HTML_SHOTS=DIR keeps the screenshots there.
. "${srcdir:-.}/tests/lib.sh"

chrome=${CHROMIUM:-}
if [ -z "$chrome" ]; then
  for c in chromium chromium-browser google-chrome; do
    if command -v "$c" >/dev/null 2>&1; then chrome=$(command -v "$c"); break; fi
  done
fi
if [ -z "$chrome" ] || ! [ -x "$chrome" ]; then
  bad "chromium is not installed: the html report's tests need it (apt-get install chromium, or set CHROMIUM)"
  echo "# passed: $pass failed: $fail"
  exit 1
fi
flags="--headless=new --no-sandbox --disable-gpu --disable-dev-shm-usage --no-first-run --user-data-dir=$tmp/chrome"

# dom HTML [FRAGMENT]: the page's DOM once its scripts ran, on stdout.
dom() {
  timeout 60 "$chrome" $flags --virtual-time-budget=5000 --dump-dom "file://$1${2:+#$2}" 2>/dev/null
}

# shot HTML PNG [FRAGMENT]: a 1200x900 screenshot of the page.
shot() {
  rm -f "$2"
  (cd "$tmp" && timeout 60 "$chrome" $flags --virtual-time-budget=5000 --hide-scrollbars --window-size=1200,900 \
    --screenshot="$2" "file://$1${3:+#$3}") >/dev/null 2>&1
}

# attr NAME: the body's attribute NAME in the DOM on stdin.
attr() { sed -n "s/.*<body[^>]*$1=\"\([^\"]*\)\".*/\1/p" | head -n 1; }

# events JSON: the event lines of a JSON trace.
events() { sed -n '/"events": \[/,$p' "$1"; }

# last_field JSON KIND MACHINE STEP FIELD: FIELD of the last event of KIND
# by MACHINE at or before STEP in the JSON trace.
last_field() {
  events "$1" | awk -v k="\"kind\": \"$2\"" -v m="\"machine\": \"$3\"" -v s="$4" -v f="\"$5\": " '
    index($0, k) && index($0, m) {
      st = $0; sub(/^[^:]*: /, "", st); sub(/,.*/, "", st)
      if (st + 0 > s + 0) exit
      i = index($0, f); if (!i) next
      v = substr($0, i + length(f))
      if (substr(v, 1, 1) == "\"") { v = substr(v, 2); v = substr(v, 1, index(v, "\"") - 1) } else sub(/[,}].*/, "", v)
      r = v
    }
    END { print r }'
}

# has NAME TEXT FILE: ok when FILE holds TEXT (fixed string), else bad.
has() {
  if grep -qF -- "$2" "$3"; then ok "$1"; else bad "$1: '$2' not in $3"; fi
}

# same NAME GOT WANT: ok when equal, else bad.
same() {
  if [ "$2" = "$3" ]; then ok "$1"; else bad "$1: got '$2', want '$3'"; fi
}

# rows DOM: the event rows' start tags (not the cycle marker, not the bug row).
rows() { grep -o '<tr [^>]*data-kind="[a-z]*"[^>]*>' "$1" | grep -v 'data-kind="bug"'; }
# last_row DOM: the step list's last row (the coverage table comes after it).
last_row() { sed '/<section id="coverage">/,$d' "$1" | grep '^<tr' | tail -n 1; }

# ---- 1. A safety bug ----
o=$tmp/safety
out=$(run -S dfs -tc tcBugLostUpdate --trace-format html,json,text -o "$o" models/clientserver 2>&1)
html=$o/tcBugLostUpdate.html json=$o/tcBugLostUpdate.json
if [ -s "$html" ] && echo "$out" | grep -q '^result: bug-found'; then ok "safety: pcheck writes the report"
else bad "safety: no report (output: $out)"; fi
dom "$html" > "$tmp/s.dom"
same "safety: the script ran" "$(attr data-ready < "$tmp/s.dom")" 1
steps=$(sed -n 's/^  "steps": \([0-9]*\),/\1/p' "$json")
bug=$(grep '"bug": {' "$json")
kind=$(echo "$bug" | sed 's/.*"kind": "\([^"]*\)".*/\1/')
# The page does not repeat the kind: "assertion failed: " is left out.
msg=$(echo "$bug" | sed 's/.*"message": "\([^"]*\)".*/\1/; s/^assertion failed: //')
loc=$(echo "$bug" | sed 's/.*"file": "\([^"]*\)", "line": \([0-9]*\), "column": \([0-9]*\).*/\1:\2:\3/')
sed -n '/<header id="bug">/,/<\/header>/p' "$tmp/s.dom" > "$tmp/s.head"
has "safety: the bug kind at the top" "<span class=\"kind\">$kind</span>" "$tmp/s.head"
has "safety: the message at the top" "$msg" "$tmp/s.head"
has "safety: the location at the top" "<code id=\"bug-loc\">$loc</code>" "$tmp/s.head"
has "safety: the search at the top" "--search dfs" "$tmp/s.head"
last_row "$tmp/s.dom" > "$tmp/s.last"
has "safety: the bug is the last row" 'id="bug-row"' "$tmp/s.last"
has "safety: the last row has the message" "$msg" "$tmp/s.last"
has "safety: the last row has the location" "$loc" "$tmp/s.last"
machines=$(events "$json" | grep -c '"kind": "create"')
specs=$(events "$json" | grep '"kind": "monitor"' | sed 's/.*"machine": "\([^"]*\)".*/\1/' | sort -u | wc -l)
same "safety: one lifeline per machine" "$(grep -c '<line class="lifeline" ' "$tmp/s.dom")" "$machines"
same "safety: one lifeline per spec" "$(grep -c '<line class="lifeline spec" ' "$tmp/s.dom")" "$specs"
same "safety: one arrow per send" "$(grep -c '<g class="ev arrow[^"]*" data-step="[0-9]*" data-kind="send"' "$tmp/s.dom")" \
  "$(events "$json" | grep -c '"kind": "send".*"target"')"
same "safety: one arrow per creation" "$(grep -c '<g class="ev arrow[^"]*" data-step="[0-9]*" data-kind="create"' "$tmp/s.dom")" \
  "$(events "$json" | grep -c '"kind": "create".*"creator"')"
same "safety: a row for every step" "$(rows "$tmp/s.dom" | sed 's/.*data-step="\([0-9]*\)".*/\1/' | sort -un | wc -l)" \
  "$((steps + 1))"
same "safety: one row per event (and per quiet step)" "$(rows "$tmp/s.dom" | grep -vc 'data-kind="step"')" \
  "$(events "$json" | grep -c '"kind": ')"
has "safety: rows show their step" "<td class=\"n\">$steps</td>" "$tmp/s.dom"
src=$(events "$json" | grep -m 1 '"file": ' | sed 's/.*"file": "\([^"]*\)", "line": \([0-9]*\), "column": \([0-9]*\).*/\1:\2:\3/')
has "safety: relative source paths in the list" "<bdi>$src</bdi>" "$tmp/s.dom"
if grep -qF "$PWD/" "$html"; then bad "safety: an absolute path ($PWD/...) in the report"; else ok "safety: no absolute path"; fi
if grep -Eq '<(link|iframe|img)|(src|href)="[a-z]*:?//|url\([^#]|@import' "$html"; then bad "safety: the report fetches something"
else ok "safety: self-contained"; fi
has "safety: the diagram is in the HTML itself" '<svg class="body"' "$html"
has "safety: the panel shows the bug step by default" "After step $steps " "$tmp/s.dom"
cov=$(echo "$out" | sed -n 's/^coverage: //p' | sed 's/&/\&amp;/g')
has "safety: the coverage section has the run's summary" "<span id=\"coverage-summary\">$cov</span>" "$tmp/s.dom"
nstates=$(echo "$cov" | sed 's|^[0-9]*/\([0-9]*\) states.*|\1|')
same "safety: a coverage row per state of the machines created" \
  "$(grep -o '<tr data-machine="[^"]*" data-state=' "$tmp/s.dom" | wc -l)" "$nstates"
same "safety: states never entered marked" "$(grep -c 'data-entered="0" class="never"' "$tmp/s.dom")" \
  "$(( nstates - $(echo "$cov" | sed 's|^\([0-9]*\)/.*|\1|') ))"

# ---- 2. Selecting a step ----
dom "$html" "step=12" > "$tmp/s12.dom"
same "select: #step=12 selects step 12" "$(attr data-step < "$tmp/s12.dom")" 12
has "select: the panel shows step 12" "<h2>After step 12 " "$tmp/s12.dom"
n=$(grep -o '<tr class="[^"]* sel" data-step="[0-9]*"' "$tmp/s12.dom" | grep -c 'data-step="12"')
other=$(grep -o '<tr class="[^"]* sel" data-step="[0-9]*"' "$tmp/s12.dom" | grep -vc 'data-step="12"')
if [ "$n" -ge 1 ] && [ "$other" -eq 0 ]; then ok "select: step 12's rows are marked, only they"
else bad "select: $n rows of step 12 marked, $other others"; fi
has "select: step 12's band is marked" '<rect class="band sel" data-step="12"' "$tmp/s12.dom"
for m in "Client(3)" "BankServer(2)" "Database(5)"; do
  st=$(last_field "$json" state "$m" 12 state)
  has "select: $m is in state $st after step 12" "<b>$m</b><span class=\"mstate\">$st</span>" "$tmp/s12.dom"
done
has "select: a spec's variable" '<td class="vn">pendingWDReqs</td><td class="vv">{100}</td>' "$tmp/s12.dom"

# Clicks and keys, by a script added to a copy of the page: a row, ArrowDown,
# ArrowUp, a band of the diagram, the kind filter; then the fragment.
sends=$(events "$json" | grep -c '"kind": "send"')
sed 's|</body>|<script>(function () {\
  var r = [], b = document.body, st = function () { r.push(b.getAttribute("data-step")); };\
  var key = function (k) { document.dispatchEvent(new KeyboardEvent("keydown", { key: k, bubbles: true })); };\
  document.querySelector("#steps tr[data-step=\\"12\\"] td").click(); st();\
  key("ArrowDown"); st(); key("ArrowUp"); st();\
  document.querySelector("#diagram rect.band[data-step=\\"20\\"]").dispatchEvent(new MouseEvent("click", { bubbles: true })); st();\
  var fk = document.getElementById("filter-kind"); fk.value = "send"; fk.dispatchEvent(new Event("change"));\
  r.push(b.getAttribute("data-visible-rows"), location.hash);\
  b.setAttribute("data-interact", r.join(" "));\
})();</script></body>|' "$html" > "$tmp/interact.html"
dom "$tmp/interact.html" > "$tmp/i.dom"
same "select: click, keys, diagram, filter, fragment" "$(attr data-interact < "$tmp/i.dom")" \
  "12 13 12 20 $sends #kind=send&amp;step=20"

# ---- 3. Filters ----
k=$(sed -n 's/.*<option value="\([0-9]*\)">Client(3)<\/option>.*/\1/p' "$tmp/s.dom")
dom "$html" "machine=Client(3)&step=2" > "$tmp/sm.dom"
has "select: a machine not created yet says so" "<b>Client(4)</b><span class=\"mstatus\">not created yet" "$tmp/sm.dom"
want=$(($(events "$json" | grep -c '"\(machine\|target\|creator\)": "Client(3)"') + \
  $(rows "$tmp/sm.dom" | grep -c "data-kind=\"step\" data-m=\"$k\"")))
same "filter: #machine=Client(3) shows its rows" "$(attr data-visible-rows < "$tmp/sm.dom")" "$want"
same "filter: the rows shown are not hidden" "$(rows "$tmp/sm.dom" | grep -vc 'hidden')" "$want"
same "filter: every row shown involves Client(3)" \
  "$(rows "$tmp/sm.dom" | grep -v hidden | grep -v "data-m=\"$k\"" | grep -vc "data-o=\"$k\"")" 0
dom "$html" "kind=send" > "$tmp/sk.dom"
same "filter: #kind=send shows the sends" "$(attr data-visible-rows < "$tmp/sk.dom")" \
  "$(events "$json" | grep -c '"kind": "send"')"
same "filter: the diagram dims all but the sends" \
  "$(grep -o '<g class="ev [^"]*" data-step="[0-9]*" data-kind="[a-z]*"' "$tmp/sk.dom" | grep -v ' dim"' | grep -vc 'data-kind="send"')" 0
dom "$html" "machine=Client(3)&kind=send" > "$tmp/smk.dom"
same "filter: machine and kind together" "$(attr data-visible-rows < "$tmp/smk.dom")" \
  "$(events "$json" | grep '"kind": "send"' | grep -c '"\(machine\|target\)": "Client(3)"')"
if grep -q 'id="bug-row"[^>]*hidden' "$tmp/smk.dom"; then bad "filter: the bug row is hidden"
else ok "filter: the bug row stays"; fi

# ---- 4. Liveness lassos ----
o=$tmp/lasso
run -S dfs -tc tcBugAckOnData --trace-format html,json -o "$o" models/replicatedstore > /dev/null 2>&1
html=$o/tcBugAckOnData.html json=$o/tcBugAckOnData.json
cs=$(sed -n 's/^  "cycle_start": \([0-9]*\),/\1/p' "$json")
steps=$(sed -n 's/^  "steps": \([0-9]*\),/\1/p' "$json")
if [ -n "$cs" ] && [ -s "$html" ]; then ok "lasso: pcheck writes a lasso's report (cycle after step $cs)"
else bad "lasso: no lasso report"; cs=0; fi
dom "$html" > "$tmp/l.dom"
same "lasso: the script ran" "$(attr data-ready < "$tmp/l.dom")" 1
has "lasso: the header says where the cycle starts" "cycle: steps $((cs + 1)) to $steps repeat forever" "$tmp/l.dom"
has "lasso: the diagram marks the cycle start" "<g class=\"cycle-start\" data-step=\"$((cs + 1))\">" "$tmp/l.dom"
has "lasso: the diagram shades the cycle" '<rect class="cycle"' "$tmp/l.dom"
next=$(grep -A 1 "<tr class=\"sep cycle-start\" data-step=\"$((cs + 1))\">.*cycle starts here" "$tmp/l.dom" | sed -n 2p)
case $next in
  *"data-step=\"$((cs + 1))\""*) ok "lasso: the list marks the cycle's first row" ;;
  *) bad "lasso: no 'cycle starts here' just before step $((cs + 1))'s rows" ;;
esac
last_row "$tmp/l.dom" > "$tmp/l.last"
has "lasso: the bug is the last row" 'liveness (hot spec forever on a cycle)' "$tmp/l.last"
has "lasso: the panel says the last state closes the cycle" "state after step $cs: the cycle repeats forever" "$tmp/l.dom"
o=$tmp/unfair
run -S dfs --unfair --trace-format html -o "$o" tests/liveness/starved.p > /dev/null 2>&1
has "lasso: --unfair is said" "found with --unfair" "$o/Main.html"

# ---- 5. A 2,000-step trace ----
o=$tmp/long
run -S dfs --trace-format html,json -o "$o" tests/html/long.p > /dev/null 2>&1
html=$o/Main.html json=$o/Main.json
steps=$(sed -n 's/^  "steps": \([0-9]*\),/\1/p' "$json")
if [ "${steps:-0}" -ge 2000 ]; then ok "long: $steps steps"; else bad "long: ${steps:-no} steps"; fi
t0=$(date +%s%N)
dom "$html" "step=1000&bench=40" > "$tmp/g.dom"
t1=$(date +%s%N)
same "long: the script ran" "$(attr data-ready < "$tmp/g.dom")" 1
init=$(attr data-init-ms < "$tmp/g.dom") load=$(attr data-load-ms < "$tmp/g.dom") per=$(attr data-bench-ms < "$tmp/g.dom")
case $t0$t1 in *[!0-9]*) wall='?' ;; *) wall=$(( (t1 - t0) / 1000000 )) ;; esac   # date without %N
echo "# long: $(wc -c < "$html") bytes, script ${init:-?} ms, loaded at ${load:-?} ms, ${per:-?} ms a selection," \
  "chromium $wall ms in all"
if [ "${init%.*}" -lt 5000 ] 2>/dev/null; then ok "long: the script takes less than 5 s"; else bad "long: the script took ${init:-?} ms"; fi
if [ "${per%.*}" -lt 250 ] 2>/dev/null; then ok "long: selecting a step takes less than 250 ms"
else bad "long: selecting a step took ${per:-?} ms"; fi
same "long: a row for every step" "$(rows "$tmp/g.dom" | sed 's/.*data-step="\([0-9]*\)".*/\1/' | sort -un | wc -l)" \
  "$((steps + 1))"
same "long: step 1000 is selected" "$(attr data-step < "$tmp/g.dom")" 1000
st=$(last_field "$json" state "Pong(2)" 1000 state)
has "long: Pong(2) is in state $st after step 1000" "<b>Pong(2)</b><span class=\"mstate\">$st</span>" "$tmp/g.dom"
v=$(last_field "$json" send "Main(1)" 1000 payload)
has "long: Main(1)'s served = $v after step 1000" "<td class=\"vn\">served</td><td class=\"vv\">$v</td>" "$tmp/g.dom"
v=$(last_field "$json" monitor Rally 1000 payload)
has "long: the spec's last = $v after step 1000" "<td class=\"vn\">last</td><td class=\"vv\">$v</td>" "$tmp/g.dom"
last_row "$tmp/g.dom" > "$tmp/g.last"
has "long: the bug is the last row" "the ball reached 1000" "$tmp/g.last"

# ---- 6. Every kind ----
o=$tmp/kinds
# Replayed from a schedule of its own (the order in which the sink halts
# before Main's last send to it is one schedule among many: a search may
# take another).
run --replay tests/html/kinds.schedule --trace-format html -o "$o" tests/html/kinds.p > /dev/null 2>&1
html=$o/Main.html
for c in "arrow create" "arrow send" "arrow drop" "mark dequeue" "mark raise" "mark receive" "state state" "state halt" \
         "state spec state"; do
  set -- $c
  eval "kind=\${$#}"
  cls=$(echo "$c" | sed 's/ [a-z]*$//')
  if grep -q "<g class=\"ev $cls\" data-step=\"[0-9]*\" data-kind=\"$kind\"" "$html"; then ok "kinds: $cls $kind is drawn"
  else bad "kinds: no $cls $kind in the diagram"; fi
done
if grep -q '<g class="ev arrow" data-step="[0-9]*" data-kind="send" data-m="\([0-9]*\)" data-o="\1"><title>[^<]*</title><path' "$html"
then ok "kinds: a send to itself is a loop"; else bad "kinds: no loop for a send to itself"; fi
for k in choice print; do
  if grep -q "<tr [^>]*data-kind=\"$k\"" "$html"; then ok "kinds: a $k is listed"; else bad "kinds: no $k in the list"; fi
done
height=$(sed -n 's/.*<svg class="body"[^>]* height="\([0-9]*\)".*/\1/p' "$html")
m=$(sed -n 's/.*<option value="\([0-9]*\)">Sink(2)<\/option>.*/\1/p' "$html")
life=$(grep -o "<line class=\"lifeline\" data-m=\"$m\" [^>]*>" "$html")
y1=$(echo "$life" | sed 's/.* y1="\([0-9]*\)".*/\1/') y2=$(echo "$life" | sed 's/.* y2="\([0-9]*\)".*/\1/')
if [ "${y1:-0}" -gt 0 ] && [ "${y2:-0}" -lt "${height:-0}" ]; then ok "kinds: Sink(2)'s lifeline runs from its creation to its halt"
else bad "kinds: Sink(2)'s lifeline is '$life' (svg height $height)"; fi

# ---- 7. Markup in the texts ----
o=$tmp/escape
run -S dfs --trace-format html -o "$o" tests/html/escape.p > /dev/null 2>&1
dom "$o/Main.html" "step=1" > "$tmp/e.dom"
same "escape: the script ran" "$(attr data-ready < "$tmp/e.dom")" 1
same "escape: no element from the texts" "$(grep -c '<img' "$tmp/e.dom")" 0
same "escape: no script from the texts" "$(grep -o '<script' "$tmp/e.dom" | wc -l)" 2
has "escape: the message shows as text" '<span class="msg">markup &lt;/script&gt;&lt;img' "$tmp/e.dom"
has "escape: a variable shows as text" '<td class="vv">&lt;/script&gt;&lt;img src=x onerror=alert(1)&gt;&lt;!-- &amp;amp; "quoted"' "$tmp/e.dom"

# ---- 7b. Many machines ----
# A crowded diagram (10 machines, tests/html/many.p) folds on load the
# lifelines of the machines not involved in the bug; the bug's machine and
# the one it talks to stay, every arrow still ends on its lifelines, the
# bug is in view; #collapse=0 unfolds them all (the bug scrolled into view
# sideways); a name's click folds its lifeline; a small diagram is not folded.
o=$tmp/many
run -S dfs --trace-format html,json -o "$o" tests/html/many.p >/dev/null 2>&1
dom "$o/Main.html" > "$tmp/m.dom"
same "many: the script ran" "$(attr data-ready < "$tmp/m.dom")" 1
same "many: 8 of 10 lifelines folded" "$(attr data-collapsed < "$tmp/m.dom")" 8
same "many: the bug in view" "$(attr data-bug-in-view < "$tmp/m.dom")" 1
bm=$(grep -o '<g id="bug-mark" [^>]*>' "$tmp/m.dom" | sed 's/.*data-m="\([0-9]*\)".*/\1/')
# The machine indexes of the folded heads, and of the coordinator (Coordinator(2) is machine 1).
folded=$(grep -o '<g class="hd collapsed" data-m="[0-9]*"' "$tmp/m.dom" | sed 's/.*data-m="\([0-9]*\)"/\1/' | paste -sd' ' -)
case " $folded " in
  *" $bm "*|*" 1 "*) bad "many: the bug's machine ($bm) or the coordinator folded: $folded" ;;
  *) ok "many: the bug's machine and the coordinator stay unfolded" ;;
esac
has "many: the button unfolds" '<button id="collapse" type="button">Show all 10 lifelines</button>' "$tmp/m.dom"
# Every arrow from a lifeline's x to the other's (less 2 for the head).
arrows_on_lifelines() {
  grep -o '<line class="lifeline[^"]*" data-m="[0-9]*" x1="[0-9]*"' "$1" | sed 's/.*data-m="\([0-9]*\)" x1="\([0-9]*\)"/L \1 \2/' >"$tmp/ax"
  grep -o '<g class="ev arrow[^"]*" data-step="[0-9]*" data-kind="[a-z]*" data-m="[0-9]*" data-o="[0-9]*"><title>[^<]*</title><line x1="[0-9]*" y1="[0-9]*" x2="[0-9]*"' "$1" |
    sed 's/.*data-kind="\([a-z]*\)" data-m="\([0-9]*\)" data-o="\([0-9]*\)".*<line x1="\([0-9]*\)" y1="[0-9]*" x2="\([0-9]*\)"/A \1 \2 \3 \4 \5/' >>"$tmp/ax"
  awk '$1 == "L" { x[$2] = $3; next }
       { f = $2 == "create" ? $4 : $3; t = $2 == "create" ? $3 : $4; n++
         d = x[t] > x[f] ? 2 : -2
         if ($5 != x[f] || $6 != x[t] - d) bad++ }
       END { print n + 0, bad + 0 }' "$tmp/ax"
}
set -- $(arrows_on_lifelines "$tmp/m.dom")
if [ "$1" -gt 10 ] && [ "$2" -eq 0 ]; then ok "many: folded, all $1 arrows end on their lifelines"
else bad "many: folded, $2 of $1 arrows off their lifelines"; fi
dom "$o/Main.html" "collapse=0" > "$tmp/m0.dom"
same "many: #collapse=0 folds none" "$(attr data-collapsed < "$tmp/m0.dom")" 0
same "many: #collapse=0, the bug scrolled into view" "$(attr data-bug-in-view < "$tmp/m0.dom")" 1
set -- $(arrows_on_lifelines "$tmp/m0.dom")
if [ "$1" -gt 10 ] && [ "$2" -eq 0 ]; then ok "many: unfolded, all $1 arrows end on their lifelines"
else bad "many: unfolded, $2 of $1 arrows off their lifelines"; fi
same "safety: a diagram of a few machines is not folded" "$(attr data-collapsed < "$tmp/s.dom")" 0

# ---- 8. Screenshots ----
printf '<!DOCTYPE html>\n<html><body></body></html>\n' > "$tmp/blank.html"
shot "$tmp/blank.html" "$tmp/blank.png"
blank=$(wc -c < "$tmp/blank.png" 2>/dev/null || echo 0)
if [ "$blank" -gt 0 ]; then ok "screenshot: a blank page is $blank bytes"; else bad "screenshot: chromium took no screenshot"; blank=1000; fi
for c in "safety safety/tcBugLostUpdate.html" "lasso lasso/tcBugAckOnData.html step=$((cs + 1))" "long long/Main.html" \
         "many many/Main.html"; do
  set -- $c
  shot "$tmp/$2" "$tmp/$1.png" "${3:-}"
  size=$(wc -c < "$tmp/$1.png" 2>/dev/null || echo 0)
  if [ "$size" -gt $((3 * blank)) ]; then ok "screenshot: $1 is not blank ($size bytes)"
  else bad "screenshot: $1 looks blank ($size bytes, a blank page $blank)"; fi
  if [ -n "${HTML_SHOTS:-}" ]; then mkdir -p "$HTML_SHOTS" && cp "$tmp/$1.png" "$HTML_SHOTS/"; fi
done

echo "# passed: $pass failed: $fail"
[ "$fail" -eq 0 ]
