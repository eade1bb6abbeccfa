#!/bin/sh
# frontend.sh [COPIES]: front-end speed.  Builds one large model from
# COPIES renamed copies of a realistic client/server model (bench/frontend_unit.p,
# every name suffixed with the copy number) and reports pcheck's own
# figures: files, lines, seconds and lines per second of parse + type check.
set -eu
copies=${1:-2000}
here=$(cd "$(dirname "$0")" && pwd)
pcheck=${PCHECK:-$here/../pcheck}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
i=0
while [ "$i" -lt "$copies" ]; do
  sed "s/@/$i/g" "$here/frontend_unit.p"
  i=$((i + 1))
done >"$tmp/big.p"
echo "model: $copies copies of bench/frontend_unit.p, $(wc -l <"$tmp/big.p") lines, $(wc -c <"$tmp/big.p") bytes"
for run in 1 2 3; do
  "$pcheck" --check-only --stats "$tmp/big.p"
done
