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
#include "checker/store/statecache.h"
#include "checker/store/sc_compact.h"
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

enum { INITIAL_SLOTS = 1 << 16, MIN_BUDGET = 1 << 20 };

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

/* The budget a cache is given for a requested one (at least 1 MiB). */
static uint64_t budget_of(uint64_t budget) { return budget < MIN_BUDGET ? MIN_BUDGET : budget; }

/* Flat: the slots of the first table under a budget. */
static uint64_t first_cap(uint64_t budget) {
  uint64_t cap = INITIAL_SLOTS;
  while (cap * 8 > budget) cap /= 2;
  return cap;
}

/* A cache with its locks and no table yet (sc_free frees it as it is). */
static StateCache *shell(ScKind kind, uint64_t budget) {
  StateCache *c = xcalloc(1, sizeof *c);
  c->kind = kind;
  c->budget = budget_of(budget);
  pthread_rwlock_init(&c->grow, NULL);
  pthread_mutex_init(&c->judy_lock, NULL);
  return c;
}

StateCache *sc_new(ScKind kind, uint64_t budget) {
  StateCache *c = shell(kind, budget);
  if (kind == SC_COMPACT) {
    c->compact = cc_new(c->budget);
    if (!c->compact) {
      sc_free(c);
      return NULL;
    }
  }
  if (kind == SC_FLAT) {
    c->cap = first_cap(c->budget);
    c->slots = alloc_slots(c->cap);
    if (!c->slots) {
      sc_free(c);
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

/* ---- saving and loading ----
** Layout, in the machine's byte order (as checkpoint.h's):
**   header:  u32 SC_FORMAT, u32 kind, u64 budget (after sc_new's minimum);
**   flat:    u64 cap, u64 count, u64 refused, u32 full, u32 0,
**            then the cap slots as they are (u64 each, 0 = empty);
**   judy:    u64 count, u64 refused, u32 full, u32 0,
**            then the count fingerprints, strictly ascending;
**   compact: cc_save's bytes (sc_compact.c).
** Flat and compact keep their tables slot for slot, so a loaded cache
** probes, grows and replaces exactly as the saved one would have.  Judy
** is rebuilt from its fingerprints: the same set, counts and replacement
** victims; but Judy's memory depends on the order of its inserts, which
** the cache does not keep, so a cache saved before it was full may reach
** its budget (the test of Judy1MemUsed every 4096 adds) at another insert
** than the saved one would have (load_judy makes that rare).  Once full
** it no longer measures its memory, and a loaded cache answers exactly as
** the saved one.
** A loader trusts nothing: every size is checked against the bytes there
** and the budget before anything is allocated or read. */
enum { SC_FORMAT = 1 };

static void put_u32(Buf *b, uint32_t v) { buf_append(b, &v, 4); }
static void put_u64(Buf *b, uint64_t v) { buf_append(b, &v, 8); }

void sc_save(const StateCache *c, Buf *out) {
  put_u32(out, SC_FORMAT);
  put_u32(out, (uint32_t)c->kind);
  put_u64(out, c->budget);
  switch (c->kind) {
  case SC_FLAT:
    put_u64(out, c->cap);
    put_u64(out, c->count);
    put_u64(out, c->refused);
    put_u32(out, (uint32_t)c->full);
    put_u32(out, 0);
    buf_append(out, c->slots, c->cap * 8);
    return;
  case SC_JUDY: {
    put_u64(out, c->count);
    put_u64(out, c->refused);
    put_u32(out, (uint32_t)c->full);
    put_u32(out, 0);
    Word_t fp = 0;
    int found;
    J1F(found, c->judy, fp);
    while (found) {
      put_u64(out, (uint64_t)fp);
      J1N(found, c->judy, fp);
    }
    return;
  }
  case SC_COMPACT: break;
  }
  cc_save(c->compact, out);
}

/* The counters flat and judy share: full is 0 or 1, and a cache that was
** never full refused nothing.  0 with a message if they disagree. */
static int load_counters(StateCache *c, ByteRd *r, Buf *err) {
  c->count = brd_get(r, 8);
  c->refused = brd_get(r, 8);
  uint32_t full = (uint32_t)brd_get(r, 4), pad = (uint32_t)brd_get(r, 4);
  if (!r->ok) {
    buf_printf(err, "the saved state cache is cut short");
    return 0;
  }
  if (full > 1 || pad || (!full && c->refused)) {
    buf_printf(err, "the saved state cache is inconsistent (its counters)");
    return 0;
  }
  c->full = (int)full;
  return 1;
}

/* Flat: the table must be a power of two no smaller than sc_new's and
** within the budget, all there; it holds at least count fingerprints
** (an SC_FULL may fill an empty home slot without counting it), exactly
** count until the cache was full. */
static int load_flat(StateCache *c, ByteRd *r, Buf *err) {
  uint64_t cap = brd_get(r, 8);
  if (!load_counters(c, r, err)) return 0;
  if (cap < first_cap(c->budget) || (cap & (cap - 1)) || cap > c->budget / 8) {
    buf_printf(err, "the saved state cache is inconsistent (a table of %llu slots under a budget of %llu bytes)",
               (unsigned long long)cap, (unsigned long long)c->budget);
    return 0;
  }
  if (brd_left(r) != cap * 8) {
    buf_printf(err, "the saved state cache is %s", brd_left(r) < cap * 8 ? "cut short" : "followed by stray bytes");
    return 0;
  }
  c->slots = alloc_slots(cap);
  if (!c->slots) {
    buf_printf(err, "cannot map a state cache table of %llu bytes", (unsigned long long)(cap * 8));
    return 0;
  }
  c->cap = cap;
  memcpy(c->slots, r->p, cap * 8);
  uint64_t used = 0;
  for (uint64_t i = 0; i < cap; i++) used += c->slots[i] != 0;
  if (used < c->count || (!c->full && used != c->count)) {
    buf_printf(err, "the saved state cache is inconsistent (%llu fingerprints counted, %llu in its table)",
               (unsigned long long)c->count, (unsigned long long)used);
    return 0;
  }
  return 1;
}

static uint64_t gcd(uint64_t a, uint64_t b) {
  while (b) {
    uint64_t t = a % b;
    a = b;
    b = t;
  }
  return a;
}

/* Judy: count fingerprints, strictly ascending (a set, as saved).  They
** go in scattered (a stride of 0.618 n, coprime to n, visits each once):
** inserted in ascending order, Judy builds other nodes than the search's
** random order built, using up to a fifth more memory near 1 MiB, and
** may reach the budget a check (4096 adds) or more early; scattered, its
** memory tracks the saved cache's closely (still not always to the byte). */
static int load_judy(StateCache *c, ByteRd *r, Buf *err) {
  if (!load_counters(c, r, err)) return 0;
  uint64_t n = c->count;
  if (brd_left(r) / 8 != n || brd_left(r) % 8) {
    buf_printf(err, "the saved state cache is %s", brd_left(r) / 8 < n ? "cut short" : "followed by stray bytes");
    return 0;
  }
  const uint8_t *fps = r->p;
  uint64_t fp, prev = 0;
  for (uint64_t i = 0; i < n; i++, prev = fp) {
    memcpy(&fp, fps + 8 * i, 8);
    if (i && fp <= prev) {
      buf_printf(err, "the saved state cache is inconsistent (its fingerprints are not in order)");
      return 0;
    }
  }
  uint64_t step = (uint64_t)((double)n * 0.6180339887498949);
  if (!step) step = 1;
  while (gcd(step, n) != 1) step++;
  for (uint64_t i = 0, k = 0; i < n; i++, k = (k + step) % n) {
    int rc;
    memcpy(&fp, fps + 8 * k, 8);
    J1S(rc, c->judy, (Word_t)fp);
    (void)rc;
  }
  return 1;
}

StateCache *sc_load(ScKind kind, uint64_t budget, const uint8_t *data, size_t len, Buf *err) {
  ByteRd r = { data, data + len, 1 };
  uint32_t format = (uint32_t)brd_get(&r, 4), saved_kind = (uint32_t)brd_get(&r, 4);
  uint64_t saved_budget = brd_get(&r, 8);
  if (!r.ok) {
    buf_printf(err, "the saved state cache is cut short");
    return NULL;
  }
  if (format != SC_FORMAT) {
    buf_printf(err, "the saved state cache has format %u; this pcheck reads format %d", format, SC_FORMAT);
    return NULL;
  }
  if (saved_kind > SC_COMPACT) {
    buf_printf(err, "the saved state cache is of no kind this pcheck knows (%u)", saved_kind);
    return NULL;
  }
  if (saved_kind != kind) {
    buf_printf(err, "the saved state cache is a %s cache, not %s", sc_kind_name((ScKind)saved_kind),
               sc_kind_name(kind));
    return NULL;
  }
  if (saved_budget < MIN_BUDGET) {
    buf_printf(err, "the saved state cache is inconsistent (a budget of %llu bytes)", (unsigned long long)saved_budget);
    return NULL;
  }
  /* Its table is checked against the budget it was made under, then must
  ** fit this one (another --mem on resume); the cache keeps this one. */
  StateCache *c = shell(kind, saved_budget);
  int ok = 0;
  switch (kind) {
  case SC_FLAT: ok = load_flat(c, &r, err); break;
  case SC_JUDY: ok = load_judy(c, &r, err); break;
  case SC_COMPACT:
    c->compact = cc_load(c->budget, budget_of(budget), r.p, brd_left(&r), err);
    ok = c->compact != NULL;
    break;
  }
  if (ok && kind == SC_FLAT && c->cap * 8 > budget_of(budget)) {
    buf_printf(err, "the saved state cache takes %.1f MiB, more than this run's --mem gives the cache (%.1f MiB): "
               "resume with a larger --mem", (double)(c->cap * 8) / 1048576.0, (double)budget_of(budget) / 1048576.0);
    ok = 0;
  }
  if (!ok) {
    sc_free(c);
    return NULL;
  }
  c->budget = budget_of(budget);
  return c;
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
