#!/bin/sh
# bench/comments.sh: comment density of the C sources, per folder: lines
# that hold only comment (inside /* */, or a // line) over lines that hold
# code (any line with something outside a comment), blank lines aside.
# Prints a row per folder, then the groups the architecture issue sets
# targets for (vm/ plus checker/, lang/), and the longest functions.
# Usage: bench/comments.sh [FOLDER...]   (run from the source tree)
dirs=${*:-vm lang parser checker/base checker/store checker/engine checker/observe checker/par checker/search checker/report checker/cli}
count() {   # count FILE...: "comment code" for the files
  awk '
    FNR == 1 { inc = 0 }
    {
      line = $0; code = 0; com = 0
      while (length(line) > 0) {
        if (inc) {
          e = index(line, "*/")
          com = 1
          if (!e) { line = ""; break }
          line = substr(line, e + 2); inc = 0
        } else {
          s = index(line, "/*"); d = index(line, "//")
          if (d && (!s || d < s)) { pre = substr(line, 1, d - 1); if (pre ~ /[^ \t]/) code = 1; com = 1; line = ""; break }
          if (!s) { if (line ~ /[^ \t]/) code = 1; line = ""; break }
          pre = substr(line, 1, s - 1); if (pre ~ /[^ \t]/) code = 1
          com = 1; inc = 1; line = substr(line, s + 2)
        }
      }
      if (code) ncode++; else if (com) ncom++
    }
    END { printf "%d %d\n", ncom, ncode }' "$@"
}
printf '%-18s %6s %8s %8s %8s\n' folder files comment code density
all_vc=0; all_vk=0
for d in $dirs; do
  fs=$(find "$d" -maxdepth 1 -type f \( -name '*.c' -o -name '*.h' \) | sort)
  [ -n "$fs" ] || continue
  # shellcheck disable=SC2086
  set -- $(count $fs)
  printf '%-18s %6d %8d %8d %8.3f\n' "$d" "$(echo "$fs" | wc -l)" "$1" "$2" "$(echo "$1 $2" | awk '{print $2 ? $1 / $2 : 0}')"
done
for g in "vm checker" "lang"; do
  # shellcheck disable=SC2086
  fs=$(find $g -type f \( -name '*.c' -o -name '*.h' \) | sort)
  # shellcheck disable=SC2086
  set -- $(count $fs)
  printf '%-18s %6d %8d %8d %8.3f\n' "$(echo "$g" | tr ' ' '+')" "$(echo "$fs" | wc -l)" "$1" "$2" "$(echo "$1 $2" | awk '{print $2 ? $1 / $2 : 0}')"
done
# The longest functions (a line starting a definition at column 0 to the
# closing brace at column 0).
echo "longest functions (lines):"
find vm lang checker -name '*.c' | sort | xargs awk '
  /^[a-zA-Z].*\) \{$/ && !/^(if|for|while|switch)/ { name = $0; sub(/\(.*/, "", name); n = split(name, w, /[ *]+/); start = FNR; f = FILENAME; next }
  /^\}/ && start { printf "%6d %s %s\n", FNR - start + 1, f, w[n]; start = 0 }' | sort -rn | head -10
