/* cache_bench.c: the state-cache implementations side by side.
**   cache_bench N [flat|judy|compact|all]
** For each kind, N distinct pseudo-random fingerprints (as XXH3 would
** give: splitmix64 of 0..N-1), into caches large enough to hold them all:
**   - inserted one after another into a cache promised to one thread
**     (sc_set_single_thread, as the searches use it), then looked up again
**     (present) and N others looked up (absent);
**   - the same, but as dfs and bfs call the cache: sc_prefetch of a batch
**     of 8, then the 8 inserts (or lookups);
**   - inserted into a shared cache from one thread, and from two at once
**     (each its half).
** Prints millions of operations per second and bytes per state (sc_bytes
** at N: table and metadata), and a MISMATCH line if any answer was wrong. */
#include <config.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "checker/base/rng.h"
#include "checker/store/statecache.h"

enum { BATCH = 8 };

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* The i-th fingerprint: distinct for distinct i (splitmix64 is a bijection). */
static uint64_t fp_at(uint64_t i) { return rng_splitmix(&i); }

/* One thread's share of a timed pass: [from, to), and how many answers
** were SC_NEW (inserts) or present (lookups). */
typedef struct Span { StateCache *c; uint64_t from, to, hits; int batched; } Span;

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

/* As search_dfs.c does: prefetch a batch, then operate on it. */
static void *insert_batched(void *arg) {
  Span *s = arg;
  for (uint64_t i = s->from; i < s->to; i += BATCH) {
    uint64_t end = i + BATCH < s->to ? i + BATCH : s->to;
    for (uint64_t j = i; j < end; j++) sc_prefetch(s->c, fp_at(j));
    for (uint64_t j = i; j < end; j++) s->hits += sc_insert(s->c, fp_at(j)) == SC_NEW;
  }
  return NULL;
}

static void *lookup_batched(void *arg) {
  Span *s = arg;
  for (uint64_t i = s->from; i < s->to; i += BATCH) {
    uint64_t end = i + BATCH < s->to ? i + BATCH : s->to;
    for (uint64_t j = i; j < end; j++) sc_prefetch(s->c, fp_at(j));
    for (uint64_t j = i; j < end; j++) s->hits += (uint64_t)sc_contains(s->c, fp_at(j));
  }
  return NULL;
}

/* Run fn over [from, to) split among threads; returns operations per
** second (millions) and the hits in *hits. */
static double timed(void *(*fn)(void *), StateCache *c, uint64_t from, uint64_t to, int threads, uint64_t *hits) {
  Span s[2];
  pthread_t th[2];
  uint64_t n = to - from;
  double t0 = now();
  for (int t = 0; t < threads; t++) {
    s[t] = (Span){ c, from + n * (uint64_t)t / (uint64_t)threads, from + n * (uint64_t)(t + 1) / (uint64_t)threads, 0, 0 };
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

static StateCache *fresh(ScKind kind, int single) {
  StateCache *c = sc_new(kind, 64ull << 30);
  if (!c) {
    fprintf(stderr, "cache_bench: cannot map a %s cache\n", sc_kind_name(kind));
    exit(1);
  }
  sc_set_single_thread(c, single);
  return c;
}

/* One row of figures: the five passes of the top comment. */
static void run(ScKind kind, uint64_t n) {
  uint64_t h[10];
  double r[10];
  StateCache *c = fresh(kind, 1);
  r[0] = timed(insert_span, c, 0, n, 1, &h[0]);
  double bytes = (double)sc_bytes(c) / (double)n;
  r[1] = timed(lookup_span, c, 0, n, 1, &h[1]);
  r[2] = timed(lookup_span, c, n, 2 * n, 1, &h[2]);
  sc_free(c);
  c = fresh(kind, 1);
  r[3] = timed(insert_batched, c, 0, n, 1, &h[3]);
  r[4] = timed(lookup_batched, c, 0, n, 1, &h[4]);
  r[5] = timed(lookup_batched, c, n, 2 * n, 1, &h[5]);
  sc_free(c);
  c = fresh(kind, 0);
  r[6] = timed(insert_span, c, 0, n, 1, &h[6]);
  sc_free(c);
  c = fresh(kind, 0);
  r[7] = timed(insert_span, c, 0, n, 2, &h[7]);
  h[8] = sc_count(c);
  sc_free(c);
  printf("%-7s %11llu states: %5.2f bytes/state\n"
         "  one thread:   inserts %6.2f M/s, lookups %6.2f M/s present, %6.2f M/s absent\n"
         "  prefetched:   inserts %6.2f M/s, lookups %6.2f M/s present, %6.2f M/s absent (batches of %d)\n"
         "  shared cache: inserts %6.2f M/s from 1 thread, %6.2f M/s from 2 threads\n",
         sc_kind_name(kind), (unsigned long long)n, bytes, r[0], r[1], r[2], r[3], r[4], r[5], BATCH, r[6], r[7]);
  if (h[0] != n || h[1] != n || h[2] != 0 || h[3] != n || h[4] != n || h[5] != 0 || h[6] != n || h[7] != n || h[8] != n)
    printf("%-7s MISMATCH: new %llu, found %llu, absent found %llu; prefetched: new %llu, found %llu, absent found %llu; "
           "shared: new %llu, %llu (2 threads), count %llu\n",
           sc_kind_name(kind), (unsigned long long)h[0], (unsigned long long)h[1], (unsigned long long)h[2],
           (unsigned long long)h[3], (unsigned long long)h[4], (unsigned long long)h[5], (unsigned long long)h[6],
           (unsigned long long)h[7], (unsigned long long)h[8]);
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
