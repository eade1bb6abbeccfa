/* cache_bench.c: the two state-cache implementations side by side.
**   cache_bench N [flat|judy|both]
** Inserts N distinct pseudo-random fingerprints (as XXH3 would give), then
** looks each up again, and prints inserts per second, lookups per second
** and bytes per state.  The budget is large enough to hold them all. */
#include <config.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "checker/rng.h"
#include "checker/statecache.h"

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void run(ScKind kind, uint64_t n) {
  StateCache *c = sc_new(kind, 64ull << 30);
  Rng r;
  rng_seed(&r, 42);
  double t0 = now();
  uint64_t fresh = 0;
  for (uint64_t i = 0; i < n; i++) fresh += sc_insert(c, rng_next(&r)) == SC_NEW;
  double t1 = now();
  rng_seed(&r, 42);
  uint64_t found = 0;
  for (uint64_t i = 0; i < n; i++) found += sc_contains(c, rng_next(&r));
  double t2 = now();
  printf("%-5s %11llu states: %6.2f M inserts/s, %6.2f M lookups/s, %5.1f bytes/state (new %llu, found %llu)\n",
         sc_kind_name(kind), (unsigned long long)n, (double)n / (t1 - t0) / 1e6, (double)n / (t2 - t1) / 1e6,
         (double)sc_bytes(c) / (double)n, (unsigned long long)fresh, (unsigned long long)found);
  fflush(stdout);
  sc_free(c);
}

int main(int argc, char **argv) {
  uint64_t n = argc > 1 ? strtoull(argv[1], NULL, 10) : 10000000;
  const char *which = argc > 2 ? argv[2] : "both";
  if (strcmp(which, "judy") != 0) run(SC_FLAT, n);
  if (strcmp(which, "flat") != 0) run(SC_JUDY, n);
  return 0;
}
