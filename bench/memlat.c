/* memlat.c: what one random read of a large table costs on this machine,
** the figure behind the state cache's prefetching (bench/README.md).
**
**   bench/memlat MB...
**
** For each size: an array of MB megabytes (with MADV_HUGEPAGE, as the
** state cache asks), then (1) dependent reads, each address computed from
** the value just read, so nothing overlaps: the latency; (2) independent
** reads, each slot prefetched 8 reads ahead: the throughput when the
** hardware can overlap misses. */
#include <config.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <time.h>

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static uint64_t next(uint64_t *x) {   /* xorshift64 */
  *x ^= *x << 13;
  *x ^= *x >> 7;
  *x ^= *x << 17;
  return *x;
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: %s MB...\n", argv[0]);
    return 2;
  }
  for (int a = 1; a < argc; a++) {
    long mb = strtol(argv[a], NULL, 10);
    if (mb < 1 || mb > 65536 || (mb & (mb - 1))) {
      fprintf(stderr, "memlat: %s: give a power of two between 1 and 65536 (MB)\n", argv[a]);
      return 2;
    }
    size_t n = (size_t)mb << 17, mask = n - 1;   /* 8-byte slots */
    uint64_t *t = mmap(NULL, n * 8, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (t == MAP_FAILED) {
      perror("memlat: mmap");
      return 1;
    }
#ifdef MADV_HUGEPAGE
    madvise(t, n * 8, MADV_HUGEPAGE);
#endif
    uint64_t x = 0x9e3779b97f4a7c15ull;
    for (size_t i = 0; i < n; i++) t[i] = next(&x);
    enum { READS = 4000000, AHEAD = 8 };
    uint64_t acc = 0;
    double t0 = now();
    for (int i = 0; i < READS; i++) acc += t[(next(&x) ^ acc) & mask] & 1;
    double dep = (now() - t0) / READS * 1e9;
    uint64_t slot[AHEAD];
    for (int i = 0; i < AHEAD; i++) slot[i] = next(&x) & mask;
    t0 = now();
    for (int i = 0; i < READS; i++) {
      int j = i % AHEAD;
      acc += t[slot[j]];
      slot[j] = next(&x) & mask;
      __builtin_prefetch(&t[slot[j]]);
    }
    double ind = (now() - t0) / READS * 1e9;
    printf("%6ld MB: dependent read %6.1f ns, prefetched read %5.1f ns (checksum %llu)\n", mb, dep, ind,
           (unsigned long long)(acc & 1));
    munmap(t, n * 8);
  }
  return 0;
}
