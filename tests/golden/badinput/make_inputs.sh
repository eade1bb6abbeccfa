#!/bin/sh
# make_inputs.sh DIR: write inputs that must be refused cleanly into DIR.
# Reproducible (no /dev/urandom); POSIX sh, printf, head, awk only.
set -eu
d=$1
mkdir -p "$d"
# Binary garbage: a fixed pseudo-random byte pattern.
awk 'BEGIN { x = 12345; for (i = 0; i < 4096; i++) { x = (x * 1103515245 + 12345) % 2147483648; printf "%c", int(x / 65536) % 256 } }' >"$d/garbage.p"
# A valid program cut in the middle of a machine.
printf 'event ePing;\nmachine Main {\n  var x: int;\n  start state Init {\n    entry { x = 1; send this, eP' >"$d/truncated.p"
# A one-megabyte identifier.
{ printf 'event '; head -c 1048576 /dev/zero | tr '\0' 'a'; printf ';\nmachine Main { start state S { entry { x = 1; } } }\n'; } >"$d/long_identifier.p"
# An expression nested 100000 parentheses deep.
{ printf 'machine Main { start state S { entry { var x: int; x = '; head -c 100000 /dev/zero | tr '\0' '('; printf '1'; head -c 100000 /dev/zero | tr '\0' ')'; printf '; } } }\n'; } >"$d/deep_parens.p"
# Statements nested 50000 blocks deep.
{ printf 'machine Main { start state S { entry { '; head -c 50000 /dev/zero | tr '\0' '{'; head -c 50000 /dev/zero | tr '\0' '}'; printf ' } } }\n'; } >"$d/deep_blocks.p"
# A chain of 100000 additions (deep on the left).
{ printf 'machine Main { start state S { entry { var x: int; x = 1'; head -c 100000 /dev/zero | tr '\0' '+' | sed 's/+/+1/g'; printf '; } } }\n'; } >"$d/long_chain.p"
# An empty file: no machine, nothing to check, not an error.
: >"$d/empty.p"
# A NUL byte in the middle of a program.
printf 'machine Main {\n  start state S { }\0\n}\n' >"$d/nul_byte.p"
# A string literal that is not valid UTF-8, followed by an undeclared name.
printf 'machine Main {\n  start state S { entry { print "\377\376 bytes"; y = 2; } }\n}\n' >"$d/bad_utf8.p"
# An unterminated comment and an unterminated string.
printf 'machine Main { start state S { } }\n/* never closed\n' >"$d/open_comment.p"
printf 'machine Main { start state S { entry { print "never closed; } } }\n' >"$d/open_string.p"
