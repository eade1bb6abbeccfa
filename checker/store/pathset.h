/* pathset.h: a multiset of fingerprints (the states on a search's current
** stack), so that a search whose state cache forgets entries (at the --mem
** budget) never re-enters a state it is already inside, and terminates.
** Open addressing with counts; backward-shift deletion. */
#ifndef PCHECK_PATHSET_H
#define PCHECK_PATHSET_H
#include <stdint.h>
#include <stdlib.h>
#include "vm/util.h"

/* Fingerprints on the current stack: open addressing with counts, used
** only once the cache replaces entries. */
typedef struct PathSet {
  uint64_t *fp;              /* 0 = empty (fingerprint 0 stored as 1) */
  uint32_t *count;
  uint64_t cap, n;
} PathSet;

static inline uint64_t ps_slot(const PathSet *p, uint64_t fp) {
  uint64_t i = fp & (p->cap - 1);
  while (p->fp[i] && p->fp[i] != fp) i = (i + 1) & (p->cap - 1);
  return i;
}

static inline void ps_add(PathSet *p, uint64_t fp) {
  if (!fp) fp = 1;
  if (2 * (p->n + 1) > p->cap) {
    PathSet big = { xcalloc(p->cap ? p->cap * 2 : 1024, 8), xcalloc(p->cap ? p->cap * 2 : 1024, 4),
                    p->cap ? p->cap * 2 : 1024, 0 };
    for (uint64_t i = 0; i < p->cap; i++)
      if (p->fp[i]) { uint64_t j = ps_slot(&big, p->fp[i]); big.fp[j] = p->fp[i]; big.count[j] = p->count[i]; big.n++; }
    free(p->fp);
    free(p->count);
    *p = big;
  }
  uint64_t i = ps_slot(p, fp);
  /* An empty slot may hold the count of the entry ps_remove moved out of it. */
  if (!p->fp[i]) { p->fp[i] = fp; p->count[i] = 0; p->n++; }
  p->count[i]++;
}

static inline int ps_has(const PathSet *p, uint64_t fp) {
  if (!fp) fp = 1;
  return p->cap && p->fp[ps_slot(p, fp)] == fp;
}

/* Remove one occurrence; backward-shift deletion keeps probe chains whole. */
static inline void ps_remove(PathSet *p, uint64_t fp) {
  if (!fp) fp = 1;
  if (!p->cap) return;
  uint64_t i = ps_slot(p, fp);
  if (p->fp[i] != fp || --p->count[i]) return;
  p->fp[i] = 0;
  p->n--;
  for (uint64_t j = (i + 1) & (p->cap - 1); p->fp[j]; j = (j + 1) & (p->cap - 1)) {
    uint64_t home = p->fp[j] & (p->cap - 1);
    /* Move j back to i if its home is not in (i, j]. */
    if ((j > i && (home <= i || home > j)) || (j < i && (home <= i && home > j))) {
      p->fp[i] = p->fp[j];
      p->count[i] = p->count[j];
      p->fp[j] = 0;
      i = j;
    }
  }
}

static inline void ps_fini(PathSet *p) {
  free(p->fp);
  free(p->count);
  p->fp = NULL;
  p->count = NULL;
  p->cap = p->n = 0;
}

#endif
