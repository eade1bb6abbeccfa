#!/bin/sh
# examples.sh: every example command of the man page (doc/pcheck.1,
# EXAMPLES) and of the README ("By hand") runs as printed: in order, in a
# scratch folder holding a copy of models/, with `pcheck` (and ./pcheck)
# the binary under test.  An example works when it exits 0 (no bug), 1 (a
# bug, with its trace) or 4 (--fail-on-incomplete on a bounded run) and
# prints no error; usage errors (2) and internal errors (3) fail it.
. "${srcdir:-.}/tests/lib.sh"
top=$(pwd)

# The examples: man page lines between .SH EXAMPLES's .nf and .fi (with
# roff's \- as -), the README's indented ./pcheck lines (configure and
# make lines left out: the binary is built already).
man_examples() {
  sed -n '/^\.SH EXAMPLES/,/^\.fi/p' "$top/doc/pcheck.1" | grep -v '^\.' | sed 's/\\-/-/g'
}
readme_examples() {
  sed -n '/^## By hand/,/^## /p' "$top/README.md" | grep -E '^    (\./pcheck|\(cd )' | sed 's/^    //'
}

# A scratch folder as the source folder looks to a user: models/, and
# pcheck both on PATH and as ./pcheck.
setup() {
  rm -rf "$tmp/w" && mkdir -p "$tmp/w/bin" && cp -R "$top/models" "$tmp/w/models" || exit 99
  printf '#!/bin/sh\nexec %s "%s" "$@"\n' "${PCHECK_WRAPPER:-}" "$PCHECK" >"$tmp/w/bin/pcheck"
  chmod +x "$tmp/w/bin/pcheck"
  cp "$tmp/w/bin/pcheck" "$tmp/w/pcheck"
}

# run_examples SOURCE: each line of stdin as a shell command in the scratch folder.
run_examples() {
  src=$1
  n=0
  while IFS= read -r cmd; do
    [ -n "$cmd" ] || continue
    n=$((n + 1))
    out=$(cd "$tmp/w" && PATH="$tmp/w/bin:$PATH" timeout 300 sh -c "$cmd" 2>&1 </dev/null); rc=$?
    if { [ "$rc" -eq 0 ] || [ "$rc" -eq 1 ] || [ "$rc" -eq 4 ]; } && ! echo "$out" | grep -q 'error:'; then
      ok "$src example $n (exit $rc): $cmd"
    else
      bad "$src example $n (exit $rc): $cmd"; echo "$out" | tail -n 5
    fi
  done
  [ "$n" -gt 0 ] || bad "no examples found in $src"
}

# The README's "A first model": each "    $ CMD" line runs in the scratch
# folder and must print the indented lines that follow it (times aside).
readme_shown() {
  sed -n '/^## A first model/,/^## /p' "$top/README.md" | awk '
    /^    \$ / { n++; f = sprintf("%s/shown%d", dir, n); print substr($0, 7) > (f ".cmd"); close(f ".cmd"); next }
    /^    / && n { print substr($0, 5) >> (f ".out"); next }
    { if (n) close(f ".out") }' dir="$tmp"
}
check_shown() {
  k=0
  for c in "$tmp"/shown*.cmd; do
    [ -f "$c" ] || continue
    k=$((k + 1))
    cmd=$(cat "$c")
    (cd "$tmp/w" && PATH="$tmp/w/bin:$PATH" timeout 300 sh -c "$cmd" >"$tmp/got" 2>&1 </dev/null)
    sed 's/time: [0-9.]*$/time: T/' "$tmp/got" >"$tmp/got.n"
    sed 's/time: [0-9.]*$/time: T/' "${c%.cmd}.out" >"$tmp/shown.n"
    if cmp -s "$tmp/shown.n" "$tmp/got.n"; then
      ok "README shows what '$cmd' prints"
    else
      bad "README's output of '$cmd' differs:"; diff "$tmp/shown.n" "$tmp/got.n" | head -n 10
    fi
  done
  [ "$k" -eq 2 ] || bad "README's first model: $k shown commands (2 expected)"
}

# (Input from files, not pipes: the counters live in this shell.)
man_examples >"$tmp/man.txt"
readme_examples >"$tmp/readme.txt"
setup
run_examples "man page" <"$tmp/man.txt"
setup
run_examples README <"$tmp/readme.txt"
setup
readme_shown
check_shown
echo "# passed: $pass failed: $fail"
[ "$fail" -eq 0 ]
