/* sc_compact.c: the compact state cache, an exact set of 64-bit
** fingerprints in about 41 bits per slot (7.2 bytes per state at 100
** million states, bench/README.md).
**
** Design: bucketised cuckoo hashing with quotienting.  The table has 2^B
** buckets of S slots (S = 4 or 5).  A fingerprint fp splits into a
** quotient q = its low B bits, which names its home bucket, and a
** remainder r = its high 64 - B bits, which is all a slot stores.  Its
** alternate bucket is q XOR d(r), d(r) an odd hash of r, so it is
** derivable from either bucket and r alone (partial-key cuckoo hashing):
** entries can move between their two buckets, and a resize rebuilds from
** the slots, since fp = r << B | q and q is the slot's bucket, or that
** bucket XOR d(r).  A slot holds r, one bit saying which of its two
** buckets the entry is in, and one bit saying the slot is used: W = 66 - B
** bits, nothing is lost, so the set is exact and the collision
** probability of statecache.h stays true.
**
** Why this and not the alternatives the issue lists:
** - Cleary's compact hashing / a quotient filter stores one bit or so less
**   per slot, but an insert shifts a run of slots (long runs at 90% load),
**   its three metadata bits make every probe decode a run, and concurrent
**   inserters need region locks over runs that can cross any boundary.
** - Cuckoo buckets are fixed places: an insert writes one slot (or moves a
**   few entries along a short path), a lookup reads at most two buckets,
**   each within one cache line, and a 4-way table sustains 95% load.
** - Locality: buckets are packed whole into 64-byte lines (3 buckets of 4
**   slots when W <= 42, i.e. from 2^24 buckets on; 2 buckets of 5 slots, or
**   of 4, below), so a bucket never straddles two cache lines, and the
**   last bit of each line is that line's lock.
** - Home first: an entry goes to its alternate bucket only when its home is
**   full, and a full bucket never gets a free slot again (nothing is
**   deleted: moves refill the slot they empty, replacements overwrite), so
**   a lookup whose home bucket has a free slot stops there: one cache line
**   for most new states.  Slots of a bucket fill from the first, so the
**   first free slot ends a bucket's scan too.
**
** Growth: the table starts at 2^14 buckets and, when 90% of its slots are
** used (or an insert finds no cuckoo path), rebuilds with twice the buckets
** if that table fits the budget.  When it cannot, it is full (sc_is_full):
** it keeps adding through cuckoo paths up to 95% load, and after that into
** free slots of the two buckets only; an absent fingerprint whose two
** buckets are full then overwrites a slot of its home bucket and gets
** SC_FULL (counted by cc_refused).
**
** Threads: each operation runs inside a read section of a distributed
** reader lock (a counter per lane, a lane per thread, each in its own cache
** line), which only a resize waits for.  An insert locks the lines of the
** fingerprint's two buckets (lock bits, taken in address order); a
** cuckoo path is found without locks and then carried out with the lines
** of every bucket on it locked and checked unchanged, so no other thread
** ever sees an entry in flight or a full bucket with a hole.  Since an
** entry only moves between its own two buckets, whose lines are locked
** whenever it is looked up or moved, exactly one of several concurrent
** inserters of a fingerprint gets SC_NEW.  With cc_set_single_thread the
** reader lock, the line locks and every read-modify-write atomic are
** skipped (the table's words are read and written with relaxed atomic
** loads and stores, plain moves on the machines we run on). */
#include <config.h>
#include "checker/sc_compact.h"
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

enum {
  LINE_WORDS = 8,          /* a line is one 64-byte cache line */
  LINE_BYTES = 64,
  LINE_DATA_BITS = 511,    /* bits for buckets; bit 511 (word 7, bit 63) is the lock */
  COUNT_BITS = 3,          /* a bucket's count of used slots */
  MAX_SLOTS = 5,           /* slots per bucket, at most */
  LANES = 16,              /* reader-lock and counter lanes */
  FIRST_BUCKET_BITS = 14,  /* the first table: 2^14 buckets, 2^16 slots, 512 KiB */
  MIN_BUCKET_BITS = 8,
  MAX_BUCKET_BITS = 33,    /* a slot's high part, 33 - B bits, is never negative */
  CHECK_EVERY = 64,        /* a lane sums the load every 64 of its adds */
  BFS_NODES = 256,         /* buckets a cuckoo-path search visits, at most */
  PATH_DEPTH = 5,          /* moves on a cuckoo path, at most */
  PATH_TRIES = 8,          /* path searches per insert before giving up */
};
#define LOCK_BIT (1ull << 63)

/* The geometry of one table, a function of B alone (layout_for).  A line
** holds k buckets of S slots: first the k*S low halves of the slots, 32
** bits each (aligned, compared as integers), then their k*S high parts of
** H bits each, then the k buckets' 3-bit counts of used slots, and last
** the lock bit. */
typedef struct Layout {
  unsigned bbits;      /* B: quotient bits; buckets = 2^B */
  unsigned hbits;      /* H: a slot's bits beyond its low 32, 33 - B (a slot: 65 - B) */
  unsigned slots;      /* S: slots per bucket, 4 or 5 */
  unsigned per_line;   /* k: buckets per line, 2 or 3 */
  unsigned high_at;    /* bit where the high parts start: 32 k S */
  unsigned count_at;   /* bit where the counts start: high_at + H k S */
  uint64_t buckets;    /* 2^B */
  uint64_t lines;      /* ceil(buckets / k) */
} Layout;

/* One thread's share of the reader lock and of the count, alone in its
** cache line so that threads do not write each other's lines. */
typedef struct Lane {
  _Alignas(64) uint64_t readers;   /* operations inside the table now (atomic) */
  uint64_t added;                  /* entries added through this lane (atomic) */
} Lane;

struct Compact {
  Lane lanes[LANES];
  Layout L;              /* the current table (changed only by a resize) */
  uint64_t *words;       /* its lines, L.lines * 8 words, mmap'ed (atomic pointer) */
  unsigned pf_bbits;     /* L.bbits for cc_prefetch's racy read (atomic) */
  uint64_t budget;       /* bytes, table and this struct */
  uint64_t grow_at;      /* slots used at which the table grows (90%) */
  uint64_t fill_at;      /* at the budget, slots used past which no paths (95%) */
  uint64_t refused;      /* SC_FULL answers (atomic) */
  int full;              /* the budget stopped growth (atomic) */
  int crowded;           /* full and past fill_at: free slots or replace only (atomic) */
  int single;            /* one thread: no locks, no atomic read-modify-writes */
  int resizing;          /* a resize holds or waits for the table (atomic) */
  pthread_mutex_t resize_lock;   /* held through a resize; readers sleep on it */
};

/* ---- geometry ---- */

static int layout_fits(unsigned k, unsigned s, unsigned h) {
  return k * s * (32 + h) + k * COUNT_BITS <= LINE_DATA_BITS;
}

/* The layout of a table of 2^bbits buckets: the most slots whole buckets
** give a line (3 x 4 from B = 24 on, 2 x 5 from B = 15, else 2 x 4). */
static Layout layout_for(unsigned bbits) {
  Layout L;
  L.bbits = bbits;
  L.hbits = 33 - bbits;
  if (layout_fits(3, 4, L.hbits)) L.per_line = 3, L.slots = 4;
  else if (layout_fits(2, 5, L.hbits)) L.per_line = 2, L.slots = 5;
  else L.per_line = 2, L.slots = 4;
  L.high_at = 32 * L.per_line * L.slots;
  L.count_at = L.high_at + L.hbits * L.per_line * L.slots;
  L.buckets = 1ull << bbits;
  L.lines = (L.buckets + L.per_line - 1) / L.per_line;
  return L;
}

static uint64_t table_bytes(const Layout *L) { return L->lines * LINE_BYTES; }
static uint64_t capacity(const Layout *L) { return L->buckets * L->slots; }

/* A fingerprint's place: its home bucket, its alternate, and the
** remainder its slot stores. */
typedef struct Key {
  uint64_t home, alt, rem;
} Key;

/* The other bucket of an entry with remainder rem that is in bucket b
** (an involution: the alternate of the alternate is b; never b itself). */
static inline uint64_t other_bucket(const Layout *L, uint64_t b, uint64_t rem) {
  return b ^ (((rem * 0x9E3779B97F4A7C15ull) >> (64 - L->bbits)) | 1);
}

static inline Key key_of(const Layout *L, uint64_t fp) {
  Key k;
  k.home = fp & (L->buckets - 1);
  k.rem = fp >> L->bbits;
  k.alt = other_bucket(L, k.home, k.rem);
  return k;
}

/* Slot values: rem << 1 | in_alternate (65 - B bits). */
static inline uint64_t entry_of(uint64_t rem, int in_alt) { return rem << 1 | (uint64_t)in_alt; }

/* The fingerprint of slot value v found in bucket b. */
static inline uint64_t fp_of(const Layout *L, uint64_t b, uint64_t v) {
  uint64_t rem = v >> 1;
  uint64_t q = (v & 1) ? other_bucket(L, b, rem) : b;
  return rem << L->bbits | q;
}

/* Where bucket b lives: its line and its place j (0 .. k-1) in it. */
typedef struct Where {
  uint64_t *line;
  unsigned j;
} Where;

static inline Where where(const Layout *L, uint64_t *words, uint64_t b) {
  uint64_t line, j;
  if (L->per_line == 3) {
    line = b / 3;
    j = b - line * 3;
  } else {
    line = b >> 1;
    j = b & 1;
  }
  Where w = { words + line * LINE_WORDS, (unsigned)j };
  return w;
}

/* ---- fields of a line ----
** Relaxed atomic loads and stores: a cuckoo-path search reads lines other
** threads are writing (it checks what it read under locks before acting),
** and word 7 also holds the lock bit others set with atomic operations.
** A field's writer owns the line (its lock, or the whole table). */

static inline uint64_t ld(const uint64_t *p) { return __atomic_load_n(p, __ATOMIC_RELAXED); }
static inline void st(uint64_t *p, uint64_t v) { __atomic_store_n(p, v, __ATOMIC_RELAXED); }
static inline uint32_t ld32(const uint32_t *p) { return __atomic_load_n(p, __ATOMIC_RELAXED); }
static inline void st32(uint32_t *p, uint32_t v) { __atomic_store_n(p, v, __ATOMIC_RELAXED); }

/* The n-bit field (n <= 32) at bit of a line, without a branch: it reads
** the field's word and the next one in the line (word 7 itself when it is
** the last: no field crosses bit 511); what the second adds beyond the
** field is masked off. */
static inline uint64_t get_bits(const uint64_t *line, unsigned bit, unsigned n) {
  unsigned i = bit >> 6, sh = bit & 63;
  uint64_t lo = ld(&line[i]), hi = ld(&line[i + (i < LINE_WORDS - 1)]);
  return ((lo >> sh) | hi << 1 << (63 - sh)) & ((1ull << n) - 1);
}

/* Write the n-bit field at bit, keeping the other bits of its words (the
** lock bit among them). */
static inline void put_bits(uint64_t *line, unsigned bit, unsigned n, uint64_t v) {
  unsigned i = bit >> 6, sh = bit & 63;
  uint64_t m = (1ull << n) - 1;
  v &= m;
  st(&line[i], (ld(&line[i]) & ~(m << sh)) | v << sh);
  if (sh + n > 64) {
    unsigned hi = 64 - sh;
    st(&line[i + 1], (ld(&line[i + 1]) & ~(m >> hi)) | v >> hi);
  }
}

static inline const uint32_t *lows(const Layout *L, Where w) {
  return (const uint32_t *)(const void *)w.line + w.j * L->slots;
}

static inline unsigned high_bit(const Layout *L, Where w, unsigned s) {
  return L->high_at + (w.j * L->slots + s) * L->hbits;
}

/* Slots a bucket uses: always its first ones (slots are taken in order
** and never emptied, only overwritten or refilled). */
static inline unsigned used_of(const Layout *L, Where w) {
  return (unsigned)get_bits(w.line, L->count_at + COUNT_BITS * w.j, COUNT_BITS);
}

static inline void set_used(const Layout *L, Where w, unsigned n) {
  put_bits(w.line, L->count_at + COUNT_BITS * w.j, COUNT_BITS, n);
}

static inline uint64_t get_slot(const Layout *L, Where w, unsigned s) {
  return ld32(&lows(L, w)[s]) | get_bits(w.line, high_bit(L, w, s), L->hbits) << 32;
}

static inline void put_slot(const Layout *L, Where w, unsigned s, uint64_t v) {
  st32((uint32_t *)(void *)w.line + w.j * L->slots + s, (uint32_t)v);
  put_bits(w.line, high_bit(L, w, s), L->hbits, v >> 32);
}

/* Add v in the first free slot of a bucket using n < S slots. */
static inline void append_slot(const Layout *L, Where w, unsigned n, uint64_t v) {
  put_slot(L, w, n, v);
  set_used(L, w, n + 1);
}

/* How many slots bucket b uses, and whether one holds want (ORed into
** *found).  The low halves of all S slots are compared without a branch
** (used or not: the mask drops the unused); only a low half that matches,
** rare unless want is there, costs a read of its high part. */
static inline unsigned scan(const Layout *L, uint64_t *words, uint64_t b, uint64_t want, int *found) {
  Where w = where(L, words, b);
  unsigned n = used_of(L, w);
  const uint32_t *lo = lows(L, w);
  unsigned m = 0;
  for (unsigned s = 0; s < L->slots; s++) m |= (unsigned)(ld32(&lo[s]) == (uint32_t)want) << s;
  for (m &= (1u << n) - 1; m; m &= m - 1)
    if (get_bits(w.line, high_bit(L, w, (unsigned)__builtin_ctz(m)), L->hbits) == want >> 32) {
      *found = 1;
      break;
    }
  return n;
}

/* ---- locks ---- */

static inline void cpu_relax(void) {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  __asm__ __volatile__("yield");
#endif
}

/* Spin on a line's lock bit (test and test-and-set). */
static void lock_line(uint64_t *line) {
  uint64_t *w = &line[LINE_WORDS - 1];
  while (__atomic_fetch_or(w, LOCK_BIT, __ATOMIC_ACQUIRE) & LOCK_BIT)
    while (ld(w) & LOCK_BIT) cpu_relax();
}

static void unlock_line(uint64_t *line) { __atomic_fetch_and(&line[LINE_WORDS - 1], ~LOCK_BIT, __ATOMIC_RELEASE); }

/* A set of lines to lock together: kept sorted by address and without
** repeats, so every thread takes locks in one order (no deadlock). */
typedef struct LockSet {
  uint64_t *line[PATH_DEPTH + 3];
  int n;
} LockSet;

static void ls_add(LockSet *s, uint64_t *line) {
  int i = s->n;
  while (i > 0 && s->line[i - 1] > line) i--;
  if (i > 0 && s->line[i - 1] == line) return;
  memmove(&s->line[i + 1], &s->line[i], (size_t)(s->n - i) * sizeof s->line[0]);
  s->line[i] = line;
  s->n++;
}

static void ls_lock(const Compact *c, const LockSet *s) {
  if (!c->single)
    for (int i = 0; i < s->n; i++) lock_line(s->line[i]);
}

static void ls_unlock(const Compact *c, const LockSet *s) {
  if (!c->single)
    for (int i = s->n - 1; i >= 0; i--) unlock_line(s->line[i]);
}

/* The lock set of a key's two buckets (empty for a single-thread cache,
** which takes no locks). */
static LockSet key_locks(const Compact *c, const Layout *L, uint64_t *words, const Key *k) {
  LockSet s = { .n = 0 };
  if (c->single) return s;
  uint64_t *h = where(L, words, k->home).line, *a = where(L, words, k->alt).line;
  /* Ask for both lines at once: the first lock would otherwise wait for
  ** its line alone before the second line is even requested. */
  __builtin_prefetch(h, 1);
  __builtin_prefetch(a, 1);
  ls_add(&s, h);
  ls_add(&s, a);
  return s;
}

/* The calling thread's lane: lane 0 for a single-thread cache, else one
** of LANES picked once per thread (threads beyond LANES share lanes, which
** stays correct: lanes are updated atomically). */
static _Thread_local unsigned my_lane = ~0u;
static unsigned next_lane;

static Lane *lane_of(Compact *c) {
  if (c->single) return &c->lanes[0];
  if (my_lane == ~0u) my_lane = __atomic_fetch_add(&next_lane, 1, __ATOMIC_RELAXED) % LANES;
  return &c->lanes[my_lane];
}

/* Enter a read section: the table will not be resized before leave().
** A thread that finds a resize under way sleeps on the resize mutex. */
static void enter(Compact *c, Lane *ln) {
  if (c->single) return;
  for (;;) {
    __atomic_add_fetch(&ln->readers, 1, __ATOMIC_SEQ_CST);
    if (!__atomic_load_n(&c->resizing, __ATOMIC_SEQ_CST)) return;
    __atomic_sub_fetch(&ln->readers, 1, __ATOMIC_RELEASE);
    pthread_mutex_lock(&c->resize_lock);
    pthread_mutex_unlock(&c->resize_lock);
  }
}

static void leave(Compact *c, Lane *ln) {
  if (!c->single) __atomic_sub_fetch(&ln->readers, 1, __ATOMIC_RELEASE);
}

/* Wait until no thread is inside a read section (resizing is set, so no
** new one starts). */
static void drain_readers(Compact *c) {
  for (int i = 0; i < LANES; i++)
    while (__atomic_load_n(&c->lanes[i].readers, __ATOMIC_ACQUIRE)) cpu_relax();
}

/* ---- counts ---- */

static uint64_t total_added(const Compact *c) {
  uint64_t n = 0;
  for (int i = 0; i < LANES; i++) n += __atomic_load_n(&c->lanes[i].added, __ATOMIC_RELAXED);
  return n;
}

static void count_add(Compact *c, Lane *ln) {
  if (c->single) ln->added++;
  else __atomic_add_fetch(&ln->added, 1, __ATOMIC_RELAXED);
}

/* Before an add: should the table grow first?  Every CHECK_EVERY adds of
** a lane the lanes are summed (so the load may overshoot by that much per
** lane; the table has room to spare).  At the budget the same sum marks
** the table crowded past fill_at, which ends cuckoo paths for good. */
static int load_says_grow(Compact *c, Lane *ln) {
  if (__atomic_load_n(&ln->added, __ATOMIC_RELAXED) % CHECK_EVERY) return 0;
  uint64_t n = total_added(c);
  if (__atomic_load_n(&c->full, __ATOMIC_RELAXED)) {
    if (n >= c->fill_at) __atomic_store_n(&c->crowded, 1, __ATOMIC_RELAXED);
    return 0;
  }
  return n >= c->grow_at;
}

/* ---- the table's memory ---- */

static uint64_t *alloc_lines(const Layout *L) {
  uint64_t bytes = table_bytes(L);
  void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) return NULL;
#ifdef MADV_HUGEPAGE
  /* Lookups land anywhere: huge pages spare most TLB misses (a hint). */
  if (bytes >= (2u << 20)) madvise(p, bytes, MADV_HUGEPAGE);
#endif
  return p;
}

/* Make L (with its lines words) the current table; the caller owns the
** whole table (sc_new, or a resize with readers drained). */
static void install(Compact *c, const Layout *L, uint64_t *words) {
  c->L = *L;
  __atomic_store_n(&c->words, words, __ATOMIC_RELAXED);
  __atomic_store_n(&c->pf_bbits, L->bbits, __ATOMIC_RELAXED);
  c->grow_at = capacity(L) / 10 * 9;
  c->fill_at = capacity(L) / 20 * 19;
}

Compact *cc_new(uint64_t budget) {
  Compact *c = aligned_alloc(64, sizeof *c);   /* sizeof is a multiple of 64 (the lanes) */
  if (!c) return NULL;
  memset(c, 0, sizeof *c);
  c->budget = budget;
  unsigned b = FIRST_BUCKET_BITS;
  Layout L = layout_for(b);
  while (b > MIN_BUCKET_BITS && table_bytes(&L) + sizeof *c > budget) L = layout_for(--b);
  uint64_t *w = table_bytes(&L) + sizeof *c <= budget ? alloc_lines(&L) : NULL;
  if (!w) {
    free(c);
    return NULL;
  }
  install(c, &L, w);
  pthread_mutex_init(&c->resize_lock, NULL);
  return c;
}

void cc_free(Compact *c) {
  if (!c) return;
  munmap(c->words, table_bytes(&c->L));
  pthread_mutex_destroy(&c->resize_lock);
  free(c);
}

void cc_set_single_thread(Compact *c, int single) { c->single = single; }

/* ---- cuckoo paths ----
** A path runs from one of the key's two (full) buckets through entries
** that each move to their other bucket, ending in a bucket with a free
** slot.  Carried out from the end, each move fills the slot the previous
** one emptied, and the key takes the first bucket's slot. */

typedef struct Node {
  uint64_t bucket;   /* this bucket */
  uint64_t value;    /* the slot value that moves here from the parent */
  int16_t parent;    /* index of the parent node; -1 at the two roots */
  uint8_t slot;      /* the parent's slot it moves from */
  uint8_t depth;     /* moves from the root */
} Node;

typedef struct Path {
  Node node[BFS_NODES];
  int end;             /* node whose bucket has the free slot */
  unsigned free;       /* that slot */
} Path;

/* Is bucket b already on the path from the root to node i?  (A path
** through a bucket twice could move one slot twice.) */
static int on_path(const Path *p, int i, uint64_t b) {
  for (; i >= 0; i = p->node[i].parent)
    if (p->node[i].bucket == b) return 1;
  return 0;
}

/* Breadth-first search for the shortest path from the key's buckets, read
** without locks (what it finds is checked under locks before use).
** Returns 1 with p->end and p->free set, or 0 if none within the limits. */
static int find_path(const Layout *L, uint64_t *words, const Key *k, Path *p) {
  Node *nd = p->node;
  nd[0] = (Node){ k->home, 0, -1, 0, 0 };
  nd[1] = (Node){ k->alt, 0, -1, 0, 0 };
  int n = 2;
  for (int h = 0; h < n; h++) {
    Where w = where(L, words, nd[h].bucket);
    unsigned used = used_of(L, w);
    if (used < L->slots) {
      p->end = h;
      p->free = used;
      return 1;
    }
    if (nd[h].depth >= PATH_DEPTH) continue;
    for (unsigned s = 0; s < L->slots && n < BFS_NODES; s++) {
      uint64_t v = get_slot(L, w, s);
      uint64_t to = other_bucket(L, nd[h].bucket, v >> 1);
      if (on_path(p, h, to)) continue;
      nd[n++] = (Node){ to, v, (int16_t)h, (uint8_t)s, (uint8_t)(nd[h].depth + 1) };
    }
  }
  return 0;
}

/* Lock the lines of the key's buckets and of every bucket on the path. */
static LockSet path_locks(const Compact *c, const Layout *L, uint64_t *words, const Key *k, const Path *p) {
  LockSet s = key_locks(c, L, words, k);
  if (c->single) return s;
  for (int i = p->end; i >= 0; i = p->node[i].parent) ls_add(&s, where(L, words, p->node[i].bucket).line);
  return s;
}

/* Under the path's locks: is it still as the search saw it (every moving
** entry in its slot, the end bucket using the slots it did)? */
static int path_valid(const Layout *L, uint64_t *words, const Path *p) {
  const Node *nd = p->node;
  if (used_of(L, where(L, words, nd[p->end].bucket)) != p->free) return 0;
  for (int i = p->end; nd[i].parent >= 0; i = nd[i].parent) {
    Where from = where(L, words, nd[nd[i].parent].bucket);
    if (nd[i].slot >= used_of(L, from) || get_slot(L, from, nd[i].slot) != nd[i].value) return 0;
  }
  return 1;
}

/* Carry out a valid path (its lines owned) and store the key at its root. */
static void path_apply(const Layout *L, uint64_t *words, const Key *k, const Path *p) {
  const Node *nd = p->node;
  int i = p->end;
  Where dst = where(L, words, nd[i].bucket);
  unsigned ds = p->free;
  set_used(L, dst, ds + 1);                  /* the end bucket gains the entry */
  for (; nd[i].parent >= 0; i = nd[i].parent) {
    put_slot(L, dst, ds, nd[i].value ^ 1);   /* now in its other bucket */
    dst = where(L, words, nd[nd[i].parent].bucket);
    ds = nd[i].slot;
  }
  put_slot(L, dst, ds, entry_of(k->rem, nd[i].bucket != k->home));
}

/* ---- insert ---- */

/* What a key's two buckets say, under their locks. */
typedef enum Probe { P_FOUND, P_ROOM, P_NONE } Probe;

/* Both buckets are read (their lines are fetched together); P_ROOM names
** the first free slot of the emptier one (home on a tie), which keeps
** buckets even and cuckoo paths rare. */
static Probe probe(const Layout *L, uint64_t *words, const Key *k, uint64_t *bucket, unsigned *slot) {
  int found = 0;
  unsigned home = scan(L, words, k->home, entry_of(k->rem, 0), &found);
  unsigned alt = scan(L, words, k->alt, entry_of(k->rem, 1), &found);
  if (found) return P_FOUND;
  *bucket = alt < home ? k->alt : k->home;
  *slot = alt < home ? alt : home;
  return *slot < L->slots ? P_ROOM : P_NONE;
}

/* An insert's outcome inside one read section: done (with an answer), or
** the table must grow first. */
typedef enum Step { S_DONE, S_GROW } Step;

/* Look the key up and take a free slot of its buckets.  Returns S_DONE
** with *res (SC_SEEN or SC_NEW), S_GROW if the load says grow, or sets
** *res to SC_FULL (meaning: both buckets are full) and returns S_DONE
** with *room = 0. */
static Step insert_direct(Compact *c, Lane *ln, const Layout *L, uint64_t *words, const Key *k, ScResult *res, int *room) {
  LockSet s = key_locks(c, L, words, k);
  ls_lock(c, &s);
  uint64_t b = 0;
  unsigned slot = 0;
  Probe pr = probe(L, words, k, &b, &slot);
  Step step = S_DONE;
  *room = 1;
  if (pr == P_FOUND) *res = SC_SEEN;
  else if (load_says_grow(c, ln)) step = S_GROW;
  else if (pr == P_ROOM) {
    append_slot(L, where(L, words, b), slot, entry_of(k->rem, b != k->home));
    count_add(c, ln);
    *res = SC_NEW;
  } else *room = 0;
  ls_unlock(c, &s);
  return step;
}

/* Both buckets were full: find and carry out a cuckoo path.  Returns 1
** with *res (SC_SEEN or SC_NEW: the key may have come or room appeared
** meanwhile), or 0 if no path was found. */
static int insert_by_path(Compact *c, Lane *ln, const Layout *L, uint64_t *words, const Key *k, ScResult *res) {
  Path p;
  for (int tries = 0; tries < PATH_TRIES; tries++) {
    if (!find_path(L, words, k, &p)) return 0;
    LockSet s = path_locks(c, L, words, k, &p);
    ls_lock(c, &s);
    uint64_t b = 0;
    unsigned slot = 0;
    Probe pr = probe(L, words, k, &b, &slot);
    int done = 1;
    if (pr == P_FOUND) *res = SC_SEEN;
    else if (pr == P_ROOM) append_slot(L, where(L, words, b), slot, entry_of(k->rem, b != k->home));
    else if (path_valid(L, words, &p)) path_apply(L, words, k, &p);
    else done = 0;
    ls_unlock(c, &s);
    if (done) {
      if (pr != P_FOUND) {
        count_add(c, ln);
        *res = SC_NEW;
      }
      return 1;
    }
  }
  return 0;
}

/* At the budget, both buckets full: the key overwrites a slot of its home
** (unless it came, or room appeared, meanwhile). */
static ScResult insert_replacing(Compact *c, Lane *ln, const Layout *L, uint64_t *words, const Key *k) {
  LockSet s = key_locks(c, L, words, k);
  ls_lock(c, &s);
  uint64_t b = 0;
  unsigned slot = 0;
  ScResult res;
  Probe pr = probe(L, words, k, &b, &slot);
  if (pr == P_FOUND) res = SC_SEEN;
  else if (pr == P_ROOM) {
    append_slot(L, where(L, words, b), slot, entry_of(k->rem, b != k->home));
    count_add(c, ln);
    res = SC_NEW;
  } else {
    put_slot(L, where(L, words, k->home), (unsigned)(k->rem % L->slots), entry_of(k->rem, 0));
    if (c->single) c->refused++;
    else __atomic_add_fetch(&c->refused, 1, __ATOMIC_RELAXED);
    res = SC_FULL;
  }
  ls_unlock(c, &s);
  return res;
}

/* One attempt inside a read section (the table is fixed meanwhile). */
static Step insert_once(Compact *c, Lane *ln, uint64_t fp, ScResult *res) {
  const Layout *L = &c->L;
  uint64_t *words = c->words;
  Key k = key_of(L, fp);
  int room;
  if (insert_direct(c, ln, L, words, &k, res, &room) == S_GROW) return S_GROW;
  if (room) return S_DONE;
  int full = __atomic_load_n(&c->full, __ATOMIC_RELAXED);
  if (!__atomic_load_n(&c->crowded, __ATOMIC_RELAXED) && insert_by_path(c, ln, L, words, &k, res)) return S_DONE;
  if (!full) return S_GROW;
  *res = insert_replacing(c, ln, L, words, &k);
  return S_DONE;
}

/* ---- growth ---- */

/* Store fp in a table no other thread can see (a rebuild).  0 if no
** cuckoo path has room for it. */
static int place_quietly(const Layout *L, uint64_t *words, uint64_t fp) {
  Key k = key_of(L, fp);
  uint64_t b = 0;
  unsigned slot = 0;
  Probe pr = probe(L, words, &k, &b, &slot);
  if (pr == P_FOUND) return 1;
  if (pr == P_ROOM) {
    append_slot(L, where(L, words, b), slot, entry_of(k.rem, b != k.home));
    return 1;
  }
  Path p;
  if (!find_path(L, words, &k, &p)) return 0;
  path_apply(L, words, &k, &p);
  return 1;
}

/* Copy every entry of the current table into a new one of 2^bbits
** buckets (the caller owns the table: readers drained).  Returns 0,
** changing nothing, if the new table would exceed the budget, mmap
** fails, or an entry finds no place. */
static int rebuild(Compact *c, unsigned bbits) {
  Layout N = layout_for(bbits);
  if (bbits > MAX_BUCKET_BITS || table_bytes(&N) + sizeof *c > c->budget) return 0;
  uint64_t *nw = alloc_lines(&N);
  if (!nw) return 0;
  const Layout *L = &c->L;
  for (uint64_t b = 0; b < L->buckets; b++) {
    Where w = where(L, c->words, b);
    for (unsigned s = 0, used = used_of(L, w); s < used; s++) {
      uint64_t v = get_slot(L, w, s);
      if (!place_quietly(&N, nw, fp_of(L, b, v))) {
        munmap(nw, table_bytes(&N));
        return 0;
      }
    }
  }
  munmap(c->words, table_bytes(L));
  install(c, &N, nw);
  return 1;
}

/* Grow the table that had seen_bbits, or mark the cache full if the budget
** (or memory) does not allow it.  Nothing to do if another thread has
** done either meanwhile.  The caller is in no read section. */
static void grow(Compact *c, unsigned seen_bbits) {
  int single = c->single;
  if (!single) {
    pthread_mutex_lock(&c->resize_lock);
    __atomic_store_n(&c->resizing, 1, __ATOMIC_SEQ_CST);
    drain_readers(c);
  }
  if (c->L.bbits == seen_bbits && !c->full && !rebuild(c, seen_bbits + 1)) __atomic_store_n(&c->full, 1, __ATOMIC_RELAXED);
  if (!single) {
    __atomic_store_n(&c->resizing, 0, __ATOMIC_RELEASE);
    pthread_mutex_unlock(&c->resize_lock);
  }
}

ScResult cc_insert(Compact *c, uint64_t fp) {
  Lane *ln = lane_of(c);
  for (;;) {
    enter(c, ln);
    unsigned bbits = c->L.bbits;
    ScResult res = SC_NEW;
    Step step = insert_once(c, ln, fp, &res);
    leave(c, ln);
    if (step == S_DONE) return res;
    grow(c, bbits);
  }
}

/* ---- lookups and the rest ---- */

int cc_contains(Compact *c, uint64_t fp) {
  Lane *ln = lane_of(c);
  enter(c, ln);
  const Layout *L = &c->L;
  Key k = key_of(L, fp);
  LockSet s = key_locks(c, L, c->words, &k);
  ls_lock(c, &s);
  uint64_t b;
  unsigned slot;
  int found = probe(L, c->words, &k, &b, &slot) == P_FOUND;
  ls_unlock(c, &s);
  leave(c, ln);
  return found;
}

void cc_prefetch(Compact *c, uint64_t fp) {
  /* Racy reads of the table: a stale pointer or size only wastes the hint
  ** (addresses are computed as integers; prefetching never faults). */
  uintptr_t words = (uintptr_t)__atomic_load_n(&c->words, __ATOMIC_RELAXED);
  Layout L = layout_for(__atomic_load_n(&c->pf_bbits, __ATOMIC_RELAXED));
  Key k = key_of(&L, fp);
  uint64_t lh = L.per_line == 3 ? k.home / 3 : k.home >> 1;
  uint64_t la = L.per_line == 3 ? k.alt / 3 : k.alt >> 1;
  __builtin_prefetch((const void *)(words + lh * LINE_BYTES));
  __builtin_prefetch((const void *)(words + la * LINE_BYTES));
}

uint64_t cc_count_absent(Compact *a, Compact *b) {
  const Layout *L = &a->L;
  uint64_t n = 0;
  for (uint64_t bk = 0; bk < L->buckets; bk++) {
    Where w = where(L, a->words, bk);
    for (unsigned s = 0, used = used_of(L, w); s < used; s++) {
      uint64_t v = get_slot(L, w, s);
      n += !cc_contains(b, fp_of(L, bk, v));
    }
  }
  return n;
}

uint64_t cc_count(const Compact *c) { return total_added(c); }
uint64_t cc_bytes(const Compact *c) { return table_bytes(&c->L) + sizeof *c; }
uint64_t cc_refused(const Compact *c) { return __atomic_load_n(&c->refused, __ATOMIC_RELAXED); }
int cc_is_full(const Compact *c) { return __atomic_load_n(&c->full, __ATOMIC_RELAXED); }
