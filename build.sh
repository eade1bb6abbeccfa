#!/bin/sh
# build.sh: everything from a fresh Debian machine to a result.
#   ./build.sh demo   install what pcheck needs, build it, run it on models/clientserver
#                     (check, list tests, random executions, exhaustive search)
#   ./build.sh test   install, build with AddressSanitizer and UBSan, run the
#                     whole test suite (and make distcheck), the protocol
#                     models at reduced size; the last line is
#                     "N passed, N failed"
#   ./build.sh full   install, build optimised, run the whole test suite with
#                     every test at its full size (longer: what CI does not run)
# Debian packages are installed with apt-get (as root, or through sudo).
set -u
mode=${1:-test}
top=$(cd "$(dirname "$0")" && pwd)
cd "$top" || exit 2

# spin: the Promela twins of bench/spin (tests/spin_twins.sh checks their verdicts).
# chromium: tests/html.sh loads the HTML reports in a headless browser.
# openmpi-bin, libopenmpi-dev: the distributed search (optional for configure;
# tests/mpi.sh runs it under mpirun).
PACKAGES="build-essential autoconf automake libtool pkg-config flex bison libxxhash-dev libjudy-dev check valgrind spin chromium openmpi-bin libopenmpi-dev"

install_packages() {
  missing=""
  for p in $PACKAGES; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
  done
  [ -z "$missing" ] && return 0
  if [ "$(id -u)" -eq 0 ]; then SUDO=""; else SUDO="sudo"; fi
  echo "installing:$missing"
  $SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq $missing >/dev/null ||
    { echo "build.sh: could not install$missing" >&2; exit 2; }
}

# The long scripts (reduction, soundness, parallel, explorers, mpi, portfolio,
# checkpoint) split their cases between the two runs (PCHECK_TEST_SHARE,
# tests/lib.sh): the sanitizer pass runs the even ones, distcheck the odd
# ones, so that no long case runs twice; `./build.sh full` runs them all.
# The sizes both runs of the suite (under the sanitizers, and make
# distcheck's) use: the protocol models at reduced size (correct tests up
# to 300,000 states, ses = dfs up to 30,000, reduction.sh's dfs and bfs up
# to 50,000 and 20 s a search, 2,000 generated models for test_reduce, mpi.sh's identical
# counts up to 100,000 states, two kill-and-resume cycles per checkpoint
# case).  The tests' own defaults are larger: `./build.sh full` runs them.
set_sizes() {
  export PCHECK_TEST_SHARE=1/2 CK_CYCLES=2 MPI_MAX_STATES=100000 MODELS_MAX_STATES=300000 EXPLORERS_MAX_STATES=30000 PAR_MAX_STATES=30000 \
    REDUCE_MODELS=2000 REDUCTION_MAX_STATES=50000 REDUCTION_SEARCHES="dfs bfs" REDUCTION_TIMEOUT=20 GOLDEN_EVERY=2
}
# The sanitizer run, several times slower per state, at smaller sizes
# still: every test runs, on fewer or smaller cases (memory errors show on
# small inputs as on large ones); the optimised distcheck keeps set_sizes.
set_asan_sizes() {
  export PCHECK_TEST_SHARE=0/2 CK_CYCLES=1 MPI_MAX_STATES=20000 MODELS_MAX_STATES=50000 EXPLORERS_MAX_STATES=10000 PAR_MAX_STATES=10000 \
    REDUCE_MODELS=500 REDUCTION_MAX_STATES=10000 REDUCTION_SEARCHES="dfs bfs" REDUCTION_TIMEOUT=8 LIVENESS_MODELS=200 \
    GOLDEN_EVERY=3 PAR_TIMEOUT=15
}

configure_build() {   # configure_build DIR [configure args]
  dir=$1; shift
  [ -x configure ] || autoreconf -fi >/dev/null 2>&1 || { echo "build.sh: autoreconf failed" >&2; exit 2; }
  mkdir -p "$dir"
  (cd "$dir" && "$top/configure" -q "$@") || { echo "build.sh: configure failed" >&2; exit 2; }
  make -C "$dir" -s -j2 >/dev/null || { make -C "$dir" -j1; echo "build.sh: build failed" >&2; exit 2; }
}

case $mode in
demo)
  install_packages
  configure_build build
  echo "\$ pcheck --check-only models/clientserver"
  build/pcheck --check-only models/clientserver && echo "models/clientserver: parsed and type-checked, no errors"
  echo "\$ pcheck --list-tests models/clientserver"
  build/pcheck --list-tests models/clientserver
  echo "\$ pcheck --search random --seed 1 --schedules 1000 -tc tcMultipleClients models/clientserver"
  build/pcheck --search random --seed 1 --schedules 1000 -tc tcMultipleClients models/clientserver
  echo "\$ pcheck --search dfs -tc tcSingleClient models/clientserver"
  build/pcheck --search dfs -q -tc tcSingleClient models/clientserver
  echo "\$ pcheck -tc tcSingleClient models/clientserver      # the portfolio, the default search"
  build/pcheck -q -tc tcSingleClient models/clientserver
  ;;
test)
  install_packages
  autoreconf -fi >/dev/null 2>&1 || { echo "build.sh: autoreconf failed" >&2; exit 2; }
  configure_build build-check --enable-asan --enable-ubsan --enable-debug
  (set_asan_sizes; make -C build-check -j2 check >build-check/check-output.txt 2>&1)
  check_rc=$?
  grep -E '^(PASS|FAIL|XFAIL|ERROR|SKIP):' build-check/check-output.txt | grep -v '^PASS' || true
  # Every test of Makefile.am's TESTS counts (a test missing from the sum
  # would pass unseen).
  logs=""
  for t in $(awk '/^TESTS = /{f=1} f{print; if ($0 !~ /\\$/) exit}' Makefile.am | tr -d '\\' | sed 's/^TESTS = //'); do
    logs="$logs build-check/$t.log"
  done
  for l in $logs; do grep -E '^FAIL' "$l" 2>/dev/null | head -20; done
  # make distcheck: a release tarball builds and passes its tests (at the
  # same sizes: the full sizes are `./build.sh full`'s).
  configure_build build-dist
  # -j2: distcheck's own `make check` runs the tests two at a time (without
  # it, one at a time: 1,100 of CI's 2,740 s).
  if (set_sizes; make -C build-dist -s -j2 distcheck >build-dist/distcheck-output.txt 2>&1); then dist="# passed: 1 failed: 0"
  else dist="# passed: 0 failed: 1"; tail -30 build-dist/distcheck-output.txt; fi
  echo "$dist" >build-dist/distcheck.log
  # make check failing counts as a failure even when no log says which.
  if [ $check_rc -eq 0 ]; then echo "# passed: 1 failed: 0" >build-check/make-check.log
  else echo "make check failed (exit $check_rc)"; echo "# passed: 0 failed: 1" >build-check/make-check.log; fi
  sh tests/summary.sh $logs build-check/make-check.log build-dist/distcheck.log
  ;;
full)
  # Every test at its own (full) size, in the optimised build: what the
  # figures of bench/README.md and the models' expected.txt were made with.
  install_packages
  configure_build build
  make -C build -j2 check >build/check-output.txt 2>&1
  full_rc=$?
  grep -E '^(FAIL|ERROR):' build/check-output.txt || true
  logs=""
  for t in $(awk '/^TESTS = /{f=1} f{print; if ($0 !~ /\\$/) exit}' Makefile.am | tr -d '\\' | sed 's/^TESTS = //'); do
    logs="$logs build/$t.log"
  done
  if [ $full_rc -eq 0 ]; then echo "# passed: 1 failed: 0" >build/make-check.log
  else echo "make check failed (exit $full_rc)"; echo "# passed: 0 failed: 1" >build/make-check.log; fi
  sh tests/summary.sh $logs build/make-check.log
  ;;
*)
  echo "usage: ./build.sh demo|test|full" >&2
  exit 2
  ;;
esac
