#!/bin/sh
# layering.sh: every #include "..." in vm/, parser/, lang/ and checker/
# keeps to the table of doc/architecture.md ("Layers"): a file may include
# the files of its own folder and what its folder's row allows (a folder,
# or one header named whole).  A source folder without a row fails, and
# so does a row whose folder does not exist.  The checker itself is
# tested first on a made-up file that breaks the table.
. "${srcdir:-.}/tests/lib.sh"

rows=$(sed -n '/^<!-- layering table -->$/,/^<!-- end of the layering table -->$/p' doc/architecture.md |
  grep '^| `' | tr -d '`')
[ -n "$rows" ] && ok "doc/architecture.md has the layering table" || bad "no layering table in doc/architecture.md"

# check FILE...: prints "file: includes X (folder D may not)" for each
# include that breaks the table, and "folder D has no row" once per folder.
check() {
  printf '%s\n' "$rows" >"$tmp/rows"
  awk -v rows="$tmp/rows" '
    BEGIN {
      while ((getline l < rows) > 0) {
        n = split(l, f, "|")
        d = f[2]; gsub(/ /, "", d)
        allow[d] = f[3]; gsub(/ /, "", allow[d])
      }
    }
    FNR == 1 { dir = FILENAME; sub(/\/[^\/]*$/, "", dir)
               if (!(dir in allow) && !(dir in told)) { print "folder " dir " has no row"; told[dir] = 1 } }
    /^[ \t]*#[ \t]*include[ \t]*"/ {
      x = $0; sub(/^[^"]*"/, "", x); sub(/".*$/, "", x)
      xd = x; if (xd !~ /\//) next; sub(/\/[^\/]*$/, "", xd)
      if (xd == dir || !(dir in allow)) next
      k = split(allow[dir], a, ",")
      okay = 0
      for (i = 1; i <= k; i++) if (a[i] == xd || a[i] == x) okay = 1
      if (!okay) print FILENAME ": includes " x " (" dir " may not)"
    }' "$@"
}

# The checker finds a breach: a base file including a report header, and
# a folder without a row.
mkdir -p "$tmp/checker/base" "$tmp/nowhere"
printf '#include "checker/base/json.h"\n#include "checker/report/trace.h"\n' >"$tmp/checker/base/x.c"
printf '#include "vm/vm.h"\n' >"$tmp/nowhere/y.c"
got=$(cd "$tmp" && rows=$rows; check checker/base/x.c nowhere/y.c)
case $got in
  *"checker/base/x.c: includes checker/report/trace.h (checker/base may not)"*"folder nowhere has no row"*)
    ok "the check finds an include across the table and a folder without a row" ;;
  *) bad "the check missed a breach: $got" ;;
esac
case $got in
  *json.h*) bad "the check refused an include within the folder: $got" ;;
  *) ok "an include within the folder is allowed" ;;
esac

# Every source file of the tree.
files=$(find vm parser lang checker -type f \( -name '*.c' -o -name '*.h' -o -name '*.y' -o -name '*.l' -o -name '*.def' \) | sort)
out=$(check $files)
if [ -z "$out" ]; then ok "every #include of $(echo "$files" | wc -l | tr -d ' ') files keeps to the table"
else bad "includes across the table:"; echo "$out"; fi

# Every row names a folder that exists.
for d in $(printf '%s\n' "$rows" | awk -F'|' '{gsub(/ /, "", $2); print $2}'); do
  [ -d "$d" ] || bad "the table names $d, which is no folder"
done
ok "the table's folders exist"

# Comments cite only files of the repository: every document (a name
# ending in .md) the sources, tests and benchmarks name is a file (from the top, from doc/, or
# beside the file that names it).
missing=""
for f in $(find vm parser lang checker tests bench -type f \( -name '*.[chyl]' -o -name '*.def' -o -name '*.sh' \) | sort) Makefile.am configure.ac build.sh; do
  for m in $(grep -oE '[$]?[A-Za-z0-9_./-]*[A-Za-z0-9_-]\.md\b' "$f" | grep -v '^[$]' | sort -u); do
    [ -f "$m" ] || [ -f "doc/$m" ] || [ -f "$(dirname "$f")/$m" ] || missing="$missing $f:$m"
  done
done
if [ -z "$missing" ]; then ok "every .md the sources cite is in the repository"
else bad "cited but not in the repository:$missing"; fi

# share_mine (tests/lib.sh): the two shares of a long script's cases
# together run each case exactly once; no share runs them all.
picked() { (PCHECK_TEST_SHARE=$1; share_n=0; out=""; for i in 0 1 2 3 4; do share_mine && out="$out$i"; done; echo "$out"); }
a=$(picked 0/2) b=$(picked 1/2) all=$(picked "")
if [ "$a" = 024 ] && [ "$b" = 13 ] && [ "$all" = 01234 ]; then ok "share_mine splits cases 0/2: $a, 1/2: $b, unset: $all"
else bad "share_mine: 0/2 '$a', 1/2 '$b', unset '$all'"; fi

echo "# passed: $pass failed: $fail"
[ "$fail" -eq 0 ]
