/* cache_bench.c: the state-cache implementations side by side.
**   cache_bench N [flat|judy|compact|all]
** For each kind: inserts N distinct pseudo-random fingerprints (as XXH3
** would give: splitmix64 of 0..N-1) into a cache promised to one thread
** (as the searches use it), then looks each up again (present) and looks
** up N others (absent); then inserts the same N into a fresh shared cache,
** from one thread and from two (each its half, at the same time).  Prints
** millions of operations per second and bytes per state (sc_bytes at N,
** table and metadata).  The budget is large enough to hold them all. */
#include <config.h>
#include <pthread.h>
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

/* The i-th fingerprint: distinct for distinct i (splitmix64 is a bijection). */
static uint64_t fp_at(uint64_t i) { return rng_splitmix(&i); }

typedef struct Span { StateCache *c; uint64_t from, to, hits; } Span;

static void *insert_span(void *arg) {
  Span *s = arg;
  for (uint64_t i = s->from; i < s->to; i++) s->hits += sc_insert(s->c, fp_at(i)) == SC_NEW;
  return NULL;
}

static void *lookup_span(void *arg) {
  Span *s = arg;
  for (uint64_t i = s->from; i < s->to; i++) s->hits += (uint64_t)sc_contains(s->c, fp_at(i));
  return NULL;
}

/* Run fn over [from, to) split among threads; returns operations per
** second (millions) and adds the hits up in *hits. */
static double timed(void *(*fn)(void *), StateCache *c, uint64_t from, uint64_t to, int threads, uint64_t *hits) {
  Span s[2];
  pthread_t th[2];
  uint64_t n = to - from;
  double t0 = now();
  for (int t = 0; t < threads; t++) {
    s[t] = (Span){ c, from + n * (uint64_t)t / (uint64_t)threads, from + n * (uint64_t)(t + 1) / (uint64_t)threads, 0 };
    if (threads == 1) fn(&s[t]);
    else pthread_create(&th[t], NULL, fn, &s[t]);
  }
  *hits = 0;
  for (int t = 0; t < threads; t++) {
    if (threads > 1) pthread_join(th[t], NULL);
    *hits += s[t].hits;
  }
  return (double)n / (now() - t0) / 1e6;
}

static StateCache *fresh(ScKind kind) {
  StateCache *c = sc_new(kind, 64ull << 30);
  if (!c) {
    fprintf(stderr, "cache_bench: cannot map a %s cache\n", sc_kind_name(kind));
    exit(1);
  }
  return c;
}

static void run(ScKind kind, uint64_t n) {
  uint64_t news, found, absent, news1, news2;
  StateCache *c = fresh(kind);
  sc_set_single_thread(c, 1);
  double ins = timed(insert_span, c, 0, n, 1, &news);
  double bytes = (double)sc_bytes(c) / (double)n;
  double look = timed(lookup_span, c, 0, n, 1, &found);
  double miss = timed(lookup_span, c, n, 2 * n, 1, &absent);
  sc_free(c);
  c = fresh(kind);
  double ins1 = timed(insert_span, c, 0, n, 1, &news1);
  sc_free(c);
  c = fresh(kind);
  double ins2 = timed(insert_span, c, 0, n, 2, &news2);
  uint64_t count2 = sc_count(c);
  sc_free(c);
  printf("%-7s %11llu states: %5.2f bytes/state; inserts %5.2f M/s (one thread), %5.2f M/s (shared, 1 thread), "
         "%5.2f M/s (shared, 2 threads); lookups %5.2f M/s present, %5.2f M/s absent\n",
         sc_kind_name(kind), (unsigned long long)n, bytes, ins, ins1, ins2, look, miss);
  if (news != n || found != n || absent != 0 || news1 != n || news2 != n || count2 != n)
    printf("%-7s MISMATCH: new %llu, found %llu, absent found %llu, new (shared) %llu %llu, count %llu\n",
           sc_kind_name(kind), (unsigned long long)news, (unsigned long long)found, (unsigned long long)absent,
           (unsigned long long)news1, (unsigned long long)news2, (unsigned long long)count2);
  fflush(stdout);
}

int main(int argc, char **argv) {
  uint64_t n = argc > 1 ? strtoull(argv[1], NULL, 10) : 10000000;
  const char *which = argc > 2 ? argv[2] : "all";
  int any = 0;
  static const ScKind kinds[] = { SC_FLAT, SC_JUDY, SC_COMPACT };
  for (int i = 0; i < 3; i++)
    if (!strcmp(which, "all") || !strcmp(which, sc_kind_name(kinds[i]))) {
      run(kinds[i], n);
      any = 1;
    }
  if (!any) {
    fprintf(stderr, "usage: cache_bench N [flat|judy|compact|all]\n");
    return 2;
  }
  return 0;
}
