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
