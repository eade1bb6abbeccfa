# lib.sh: the set-up the check scripts share (search.sh, baselines.sh,
# explorers.sh, models_expected.sh), sourced first:
#   . "${srcdir:-.}/tests/lib.sh"
# It works from the source folder, gives a scratch folder $tmp removed at
# exit, counts checks with ok/bad (pass, fail), runs pcheck through run
# (under $PCHECK_WRAPPER if set), and field NAME reads "NAME: 123" from
# the summary on stdin.
set -u
: "${PCHECK:?PCHECK must name the pcheck binary}"
: "${srcdir:=.}"
cd "$srcdir" || exit 99
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); echo "PASS: $*"; }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
run() { ${PCHECK_WRAPPER:-} "$PCHECK" "$@"; }
field() { sed -n "s/.*$1: \([0-9]*\).*/\1/p" | tail -n 1; }
# share_mine: whether the next case of a long script is this run's.  The
# two runs of `./build.sh test` (the sanitizer pass and distcheck) split
# such cases between them: PCHECK_TEST_SHARE=K/N runs the cases whose
# number (0, 1, 2, ... in the script's order, counted by the calls) is K
# modulo N; unset, every case runs (`./build.sh full`, a script run by
# hand).  Called in the script's own shell, not in a pipe's.
share_n=0
share_mine() {
  share_i=$share_n
  share_n=$((share_n + 1))
  [ -n "${PCHECK_TEST_SHARE:-}" ] || return 0
  [ $((share_i % ${PCHECK_TEST_SHARE#*/})) -eq "${PCHECK_TEST_SHARE%/*}" ]
}
