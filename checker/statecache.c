/* statecache.c: fingerprint sets.
** Flat: a power-of-two array of 64-bit slots, linear probing, 0 = empty
** (fingerprint 0 is stored as 1).  Inserters hold a read lock and claim
** slots with compare-and-swap; the table doubles under the write lock when
** it is three quarters full, as long as the doubled table fits the budget.
** When it cannot grow it keeps adding up to 90% load, then replaces: the
** new fingerprint overwrites the one in its home slot.
** Judy: a Judy1 bit set under a mutex (Judy arrays are not thread-safe);
** once Judy1MemUsed reaches the budget it replaces the nearest fingerprint
** above the new one (or below, at the top).
** Compact: sc_compact.c; every sc_* function hands it to its cc_*
** counterpart. */
#include <config.h>
#include "checker/statecache.h"
#include "checker/sc_compact.h"
#include <Judy.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include "vm/util.h"

struct StateCache {
  ScKind kind;
  uint64_t budget;             /* bytes */
  pthread_rwlock_t grow;       /* flat: read = insert, write = resize */
  pthread_mutex_t judy_lock;   /* judy: every operation */
  uint64_t *slots;             /* flat: mmap'ed table */
  uint64_t cap;                /* flat: slots (power of two) */
  uint64_t count;              /* fingerprints stored (atomic) */
  uint64_t refused;            /* SC_FULL answers (atomic) */
  int full;                    /* the budget has been reached (atomic) */
  int single;                  /* one thread only: no locking */
  Pvoid_t judy;                /* judy: the set */
  Compact *compact;            /* compact: the whole cache */
};

enum { INITIAL_SLOTS = 1 << 16 };

static uint64_t *alloc_slots(uint64_t n) {
  void *p = mmap(NULL, n * 8, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) return NULL;
#ifdef MADV_HUGEPAGE
  /* Probes land anywhere in the table: huge pages spare most TLB misses
  ** (a hint; the kernel may say no, which changes nothing else). */
  if (n * 8 >= (2u << 20)) madvise(p, n * 8, MADV_HUGEPAGE);
#endif
  return p;
}

StateCache *sc_new(ScKind kind, uint64_t budget) {
  StateCache *c = xcalloc(1, sizeof *c);
  c->kind = kind;
  c->budget = budget < (1u << 20) ? (1u << 20) : budget;
  pthread_rwlock_init(&c->grow, NULL);
  pthread_mutex_init(&c->judy_lock, NULL);
  if (kind == SC_COMPACT) {
    c->compact = cc_new(c->budget);
    if (!c->compact) {
      free(c);
      return NULL;
    }
  }
  if (kind == SC_FLAT) {
    c->cap = INITIAL_SLOTS;
    while (c->cap * 8 > c->budget) c->cap /= 2;
    c->slots = alloc_slots(c->cap);
    if (!c->slots) {
      free(c);
      return NULL;
    }
  }
  return c;
}

void sc_set_single_thread(StateCache *c, int single) {
  c->single = single;
  if (c->compact) cc_set_single_thread(c->compact, single);
}

/* Locks that vanish when the cache has a single user. */
static void rdlock(StateCache *c) { if (!c->single) pthread_rwlock_rdlock(&c->grow); }
static void wrlock(StateCache *c) { if (!c->single) pthread_rwlock_wrlock(&c->grow); }
static void unlock(StateCache *c) { if (!c->single) pthread_rwlock_unlock(&c->grow); }
static void jlock(StateCache *c) { if (!c->single) pthread_mutex_lock(&c->judy_lock); }
static void junlock(StateCache *c) { if (!c->single) pthread_mutex_unlock(&c->judy_lock); }

void sc_free(StateCache *c) {
  if (!c) return;
  if (c->slots) munmap(c->slots, c->cap * 8);
  cc_free(c->compact);
  if (c->judy) {
    Word_t freed;
    J1FA(freed, c->judy);
    (void)freed;
  }
  pthread_rwlock_destroy(&c->grow);
  pthread_mutex_destroy(&c->judy_lock);
  free(c);
}

/* Double the table (write lock held).  Returns 0 if the budget or memory
** does not allow it. */
static int grow(StateCache *c) {
  uint64_t ncap = c->cap * 2;
  if (ncap * 8 > c->budget) return 0;
  uint64_t *ns = alloc_slots(ncap);
  if (!ns) return 0;
  for (uint64_t i = 0; i < c->cap; i++) {
    uint64_t fp = c->slots[i];
    if (!fp) continue;
    uint64_t j = fp & (ncap - 1);
    while (ns[j]) j = (j + 1) & (ncap - 1);
    ns[j] = fp;
  }
  munmap(c->slots, c->cap * 8);
  /* sc_prefetch reads these without the lock (a hint): atomic stores. */
  __atomic_store_n(&c->slots, ns, __ATOMIC_RELAXED);
  __atomic_store_n(&c->cap, ncap, __ATOMIC_RELAXED);
  return 1;
}

static ScResult flat_insert(StateCache *c, uint64_t fp) {
  if (!fp) fp = 1;
  for (;;) {
    rdlock(c);
    uint64_t cap = c->cap, mask = cap - 1;
    uint64_t n = __atomic_load_n(&c->count, __ATOMIC_RELAXED);
    int can_add = n * 4 < cap * 3 || (__atomic_load_n(&c->full, __ATOMIC_RELAXED) && n * 10 < cap * 9);
    uint64_t i = fp & mask;
    for (uint64_t probes = 0; probes < cap; probes++, i = (i + 1) & mask) {
      uint64_t cur = __atomic_load_n(&c->slots[i], __ATOMIC_ACQUIRE);
      if (cur == fp) { unlock(c); return SC_SEEN; }
      if (cur) continue;
      if (!can_add) break;
      uint64_t expected = 0;
      if (__atomic_compare_exchange_n(&c->slots[i], &expected, fp, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
        __atomic_add_fetch(&c->count, 1, __ATOMIC_RELAXED);
        unlock(c);
        return SC_NEW;
      }
      if (expected == fp) { unlock(c); return SC_SEEN; }
    }
    unlock(c);
    /* Not present and no room: grow if the budget allows, else refuse. */
    wrlock(c);
    int grew = 0;
    if (c->cap == cap && !c->full) {
      grew = grow(c);
      if (!grew) __atomic_store_n(&c->full, 1, __ATOMIC_RELAXED);
    } else if (c->cap != cap) {
      grew = 1;   /* another thread grew it */
    }
    int full = c->full;
    n = c->count;
    unlock(c);
    if (!grew && full && n * 10 >= c->cap * 9) {
      /* Replace: the new fingerprint takes its home slot. */
      rdlock(c);
      __atomic_store_n(&c->slots[fp & (c->cap - 1)], fp, __ATOMIC_RELEASE);
      unlock(c);
      __atomic_add_fetch(&c->refused, 1, __ATOMIC_RELAXED);
      return SC_FULL;
    }
  }
}

static ScResult judy_insert(StateCache *c, uint64_t fp) {
  jlock(c);
  int rc;
  J1T(rc, c->judy, (Word_t)fp);
  if (rc) { junlock(c); return SC_SEEN; }
  if (c->full || (c->count % 4096 == 0 && Judy1MemUsed(c->judy) >= c->budget)) {
    c->full = 1;
    c->refused++;
    Word_t victim = (Word_t)fp;
    int found;
    J1N(found, c->judy, victim);
    if (!found) { victim = (Word_t)fp; J1P(found, c->judy, victim); }
    if (found) { J1U(rc, c->judy, victim); }
    J1S(rc, c->judy, (Word_t)fp);
    junlock(c);
    return SC_FULL;
  }
  J1S(rc, c->judy, (Word_t)fp);
  c->count++;
  junlock(c);
  return SC_NEW;
}

ScResult sc_insert(StateCache *c, uint64_t fp) {
  switch (c->kind) {
  case SC_FLAT: return flat_insert(c, fp);
  case SC_JUDY: return judy_insert(c, fp);
  case SC_COMPACT: break;
  }
  return cc_insert(c->compact, fp);
}

void sc_prefetch(StateCache *c, uint64_t fp) {
  if (c->kind == SC_COMPACT) {
    cc_prefetch(c->compact, fp);
    return;
  }
  if (c->kind != SC_FLAT) return;
  if (!fp) fp = 1;
  /* A racy read of the table pointer is fine for a hint: a stale address
  ** only wastes the prefetch. */
  uint64_t *slots = __atomic_load_n(&c->slots, __ATOMIC_RELAXED);
  uint64_t cap = __atomic_load_n(&c->cap, __ATOMIC_RELAXED);
  __builtin_prefetch(&slots[fp & (cap - 1)]);
}

int sc_contains(StateCache *c, uint64_t fp) {
  if (c->kind == SC_COMPACT) return cc_contains(c->compact, fp);
  if (c->kind == SC_JUDY) {
    jlock(c);
    int rc;
    J1T(rc, c->judy, (Word_t)fp);
    junlock(c);
    return rc;
  }
  if (!fp) fp = 1;
  rdlock(c);
  uint64_t mask = c->cap - 1, i = fp & mask;
  int found = 0;
  for (uint64_t probes = 0; probes < c->cap; probes++, i = (i + 1) & mask) {
    uint64_t cur = __atomic_load_n(&c->slots[i], __ATOMIC_ACQUIRE);
    if (cur == fp) { found = 1; break; }
    if (!cur) break;
  }
  unlock(c);
  return found;
}

uint64_t sc_count_absent(StateCache *a, StateCache *b) {
  uint64_t n = 0;
  if (a->kind == SC_COMPACT) return cc_count_absent(a->compact, b->compact);
  if (a->kind == SC_FLAT) {
    /* Stored values (0 already stored as 1) are looked up as they are. */
    for (uint64_t i = 0; i < a->cap; i++)
      if (a->slots[i] && !sc_contains(b, a->slots[i])) n++;
    return n;
  }
  Word_t fp = 0;
  int found;
  J1F(found, a->judy, fp);
  while (found) {
    if (!sc_contains(b, (uint64_t)fp)) n++;
    J1N(found, a->judy, fp);
  }
  return n;
}

uint64_t sc_count(const StateCache *c) {
  return c->compact ? cc_count(c->compact) : __atomic_load_n(&c->count, __ATOMIC_RELAXED);
}
uint64_t sc_refused(const StateCache *c) {
  return c->compact ? cc_refused(c->compact) : __atomic_load_n(&c->refused, __ATOMIC_RELAXED);
}
int sc_is_full(const StateCache *c) { return c->compact ? cc_is_full(c->compact) : __atomic_load_n(&c->full, __ATOMIC_RELAXED); }

uint64_t sc_bytes(const StateCache *c) {
  if (c->kind == SC_FLAT) return c->cap * 8;
  if (c->kind == SC_COMPACT) return cc_bytes(c->compact);
  StateCache *m = (StateCache *)c;
  jlock(m);
  uint64_t b = Judy1MemUsed(c->judy);
  junlock(m);
  return b;
}

const char *sc_kind_name(ScKind k) {
  switch (k) {
  case SC_FLAT: return "flat";
  case SC_JUDY: return "judy";
  case SC_COMPACT: break;
  }
  return "compact";
}

double sc_collision_probability(uint64_t n) {
  double d = (double)n;
  return d * (d - 1) / 2.0 / 18446744073709551616.0;
}
