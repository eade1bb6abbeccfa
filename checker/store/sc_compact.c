/* sc_compact.c: the compact state cache, an exact set of 64-bit
** fingerprints in 5.3 bytes per slot from 2^26 slots on (7.2 bytes per
** state at 100 million states; bench/README.md).
**
** Design: bucketised cuckoo hashing with quotienting.  The table has 2^B
** buckets of S slots (S = 4 or 5).  A fingerprint fp splits into a
** quotient q = its low B bits, which names its home bucket, and a
** remainder r = its high 64 - B bits, which is all a slot stores.  Its
** alternate bucket is q XOR d(r), d(r) an odd hash of fp's top 32 bits
** (which are part of r), so it is derivable from either bucket and r alone
** (partial-key cuckoo hashing): entries can move between their two
** buckets, and a resize rebuilds from the slots, since fp = r << B | q and
** q is the slot's bucket, or that bucket XOR d(r).  A slot holds r and one
** bit saying which of its two
** buckets the entry is in (65 - B bits); a bucket also keeps a 3-bit count
** of the slots it uses.  Nothing is lost, so the set is exact and the
** collision probability of statecache.h stays true.
**
** Why this and not the alternatives the issue lists:
** - Cleary's compact hashing / a quotient filter stores a bit or so less
**   per slot, but an insert shifts a run of slots (long runs at 90% load),
**   its metadata bits make every probe decode a run, and concurrent
**   inserters need region locks over runs that can cross any boundary.
** - Cuckoo buckets are fixed places: an insert writes one slot (or moves a
**   few entries along a short path), a lookup reads two buckets, each
**   within one cache line and fetched together, and a 4-way table
**   sustains 95% load.
** - Locality: buckets are packed whole into 64-byte lines (3 buckets of 4
**   slots from 2^24 buckets on; 2 of 5, or of 4, below), so a bucket never
**   straddles two cache lines, and the last bit of each line is its lock.
**   A slot's low 32 bits sit in an aligned array at the start of the line
**   and are compared as integers, without branches; its high bits, read
**   only when the low ones match, and the counts follow.
** - Two choices: a new entry goes to the emptier of its two buckets, so
**   buckets fill evenly; a few percent of the inserts between 45% and 90%
**   load need a cuckoo path.
** - Growth that streams: d(r) at 2^(B+1) buckets extends d(r) at 2^B by
**   one bit, so an entry of old bucket b has a bucket at b or b + 2^B in
**   the doubled table, and a rebuild splits each old bucket into those two
**   in order, as flat's rebuild copies its slots (split_bucket).
**
** Growth: the table starts at 2^14 buckets (512 KiB) and, when 90% of its
** slots are used (or an insert finds no cuckoo path), rebuilds with twice
** the buckets if that table fits the budget.  When it cannot, it is full (sc_is_full):
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
** ever sees an entry in flight.  Since an entry only moves between its own
** two buckets, whose lines are locked whenever it is looked up or moved,
** exactly one of several concurrent inserters of a fingerprint gets
** SC_NEW.  With cc_set_single_thread the reader lock, the line locks and
** every read-modify-write atomic are skipped: the table's words are read
** and written with relaxed atomic loads and stores, plain moves on the
** machines we run on. */
#include <config.h>
#include "checker/store/sc_compact.h"
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include "vm/util.h"
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#define INLINE static inline __attribute__((always_inline))

enum {
  LINE_WORDS = 8,          /* a line is one 64-byte cache line */
  LINE_BYTES = 64,
  LINE_DATA_BITS = 511,    /* bits for buckets; bit 511 (word 7, bit 63) is the lock */
  COUNT_BITS = 3,          /* a bucket's count of used slots */
  LANES = 16,              /* reader-lock and counter lanes */
  FIRST_BUCKET_BITS = 14,  /* the first table: 2^14 buckets, 2^16 slots, 512 KiB */
  MIN_BUCKET_BITS = 8,
  MAX_BUCKET_BITS = 32,    /* the top 32 bits of a fingerprint stay in its remainder */
  FOUR_SLOTS_FROM = 24,    /* where 3 buckets of 4 fit a line, and 2 of 5 no longer do */
  CHECK_EVERY = 64,        /* a lane sums the load every 64 of its adds */
  BFS_NODES = 256,         /* buckets a cuckoo-path search visits, at most */
  PATH_DEPTH = 5,          /* moves on a cuckoo path, at most */
  PATH_TRIES = 8,          /* path searches per insert before giving up */
};
#define LOCK_BIT (1ull << 63)

/* The geometry of one table, a function of B alone (layout_for).  A line
** holds k buckets of S slots: first the k*S low halves of the slots, 32
** bits each (aligned, compared as integers), then their k*S high parts of
** H bits each; its last bit (word 7, bit 63) is the lock, and below it
** the k buckets' 3-bit counts of used slots, bucket j's at bits 60 - 3j
** to 62 - 3j of word 7. */
typedef struct Layout {
  unsigned bbits;      /* B: quotient bits; buckets = 2^B */
  unsigned hbits;      /* H: a slot's bits beyond its low 32, 33 - B (a slot: 65 - B) */
  unsigned slots;      /* S: slots per bucket, 4 or 5 */
  unsigned per_line;   /* k: buckets per line, 2 or 3 */
  unsigned high_at;    /* bit where the high parts start: 32 k S */
  uint64_t buckets;    /* 2^B */
  uint64_t lines;      /* ceil(buckets / k) */
} Layout;

/* One thread's share of the reader lock and of the count, alone in its
** cache line so that threads do not write each other's lines; one word,
** so that leaving a read section and counting an add are one atomic
** operation. */
typedef struct Lane {
  _Alignas(64) uint64_t state;   /* added << READER_BITS | readers (atomic) */
} Lane;

enum { READER_BITS = 16 };   /* readers: operations inside the table now */
#define READERS_MASK ((1ull << READER_BITS) - 1)

struct Compact {
  Lane lanes[LANES];
  Layout L;              /* the current table (changed only by a resize) */
  uint64_t *words;       /* its lines, L.lines * 8 words, mmap'ed (atomic pointer) */
  unsigned pf_bbits;     /* L.bbits and L.per_line for cc_prefetch's racy */
  unsigned pf_per_line;  /* reads (atomic) */
  uint64_t budget;       /* bytes for the table (this struct, 1.2 KB, aside,
                         ** as flat's is: a table may fill a budget of 2^n) */
  uint64_t grow_at;      /* slots used at which the table grows (90%) */
  uint64_t fill_at;      /* at the budget, slots used past which no paths (95%) */
  uint64_t refused;      /* SC_FULL answers (atomic) */
  int full;              /* the budget stopped growth (atomic) */
  int crowded;           /* full and past fill_at: free slots or replace only (atomic) */
  int single;            /* one thread: no locks, no atomic read-modify-writes */
  int resizing;          /* a resize holds or waits for the table (atomic) */
  unsigned four_from;    /* layout_for's switch to 4-slot buckets */
  pthread_mutex_t resize_lock;   /* held through a resize; readers sleep on it */
};

/* ---- geometry ---- */

static int layout_fits(unsigned k, unsigned s, unsigned h) {
  return k * s * (32 + h) + k * COUNT_BITS <= LINE_DATA_BITS;
}

/* The layout of a table of 2^bbits buckets: the most slots whole buckets
** give a line (3 x 4 from B = 24 on, 2 x 5 from B = 15, else 2 x 4);
** from B = four_from on, buckets have 4 slots even where 5 would fit
** (24, or lower through cc_test_four_slots_from). */
static Layout layout_for(unsigned bbits, unsigned four_from) {
  Layout L;
  L.bbits = bbits;
  L.hbits = 33 - bbits;
  if (layout_fits(3, 4, L.hbits)) L.per_line = 3, L.slots = 4;
  else if (bbits < four_from && layout_fits(2, 5, L.hbits)) L.per_line = 2, L.slots = 5;
  else L.per_line = 2, L.slots = 4;
  L.high_at = 32 * L.per_line * L.slots;
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

/* The other bucket of an entry with remainder rem that is in bucket b: b
** XOR the low B bits of a hash of the fingerprint's top 32 bits (part of
** the remainder at every size), made odd.  An involution (the alternate
** of the alternate is b), never b itself; and the offset at 2^(B+1)
** buckets extends the one at 2^B by one bit, so that an entry in bucket b
** has one of its two buckets at b or b + 2^B in the doubled table (see
** rebuild). */
static inline uint64_t other_of(unsigned bbits, uint64_t b, uint64_t rem) {
  uint64_t h = (rem >> (32 - bbits)) * 0x9E3779B97F4A7C15ull;
  return b ^ (((h ^ h >> 32) & ((1ull << bbits) - 1)) | 1);
}

static inline uint64_t other_bucket(const Layout *L, uint64_t b, uint64_t rem) { return other_of(L->bbits, b, rem); }

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
  (void)L;
  return (unsigned)(ld(&w.line[LINE_WORDS - 1]) >> (60 - COUNT_BITS * w.j)) & 7;
}

static inline void set_used(const Layout *L, Where w, unsigned n) {
  (void)L;
  unsigned sh = 60 - COUNT_BITS * w.j;
  uint64_t *w7 = &w.line[LINE_WORDS - 1];
  st(w7, (ld(w7) & ~(7ull << sh)) | (uint64_t)n << sh);
}

static inline uint64_t get_slot(const Layout *L, Where w, unsigned s) {
  return ld32(&lows(L, w)[s]) | get_bits(w.line, high_bit(L, w, s), L->hbits) << 32;
}

static inline void put_slot(const Layout *L, Where w, unsigned s, uint64_t v) {
  st32((uint32_t *)(void *)w.line + w.j * L->slots + s, (uint32_t)v);
  put_bits(w.line, high_bit(L, w, s), L->hbits, v >> 32);
}

/* Add v in the first free slot of a bucket using n < S slots. */
INLINE void append_slot(const Layout *L, Where w, unsigned n, uint64_t v) {
  put_slot(L, w, n, v);
  set_used(L, w, n + 1);
}

/* ---- buckets ---- */

/* Bit s set where lo[s] == want, s < S.  The low halves are only read
** here by a thread that owns the line (its lock, or a single-thread
** cache): plain loads, four compared at once with SSE2 where there is. */
INLINE unsigned low_matches(const uint32_t *lo, uint32_t want, unsigned S) {
#ifdef __SSE2__
  __m128i v;
  memcpy(&v, lo, sizeof v);
  unsigned m = (unsigned)_mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(v, _mm_set1_epi32((int)want))));
  if (S == 5) m |= (unsigned)(lo[4] == want) << 4;
  return m;
#else
  unsigned m = 0;
  for (unsigned s = 0; s < S; s++) m |= (unsigned)(lo[s] == want) << s;
  return m;
#endif
}

/* Does a slot that m marks in bucket w have high part high?  The slow
** path of probe_ks: several low halves matched (about one lookup in a
** billion). */
static int high_any(const Layout *L, Where w, unsigned m, uint64_t high) {
  int hit = 0;
  for (; m; m &= m - 1) hit |= get_bits(w.line, high_bit(L, w, (unsigned)__builtin_ctz(m)), L->hbits) == high;
  return hit;
}

/* Where bucket b lives, for a constant k. */
INLINE Where where_k(uint64_t *words, uint64_t b, unsigned K) {
  uint64_t line = K == 3 ? b / 3 : b >> 1;
  Where w = { words + line * LINE_WORDS, (unsigned)(b - line * K) };
  return w;
}

/* What a key's two buckets say (under their locks, or in a table no other
** thread uses). */
typedef struct Look {
  int found;         /* the key is there */
  int room;          /* else: some slot is free, namely */
  int in_alt;        /* in the emptier bucket (home on a tie): the alternate? */
  Where at;          /* that bucket */
  unsigned slot;     /* and its first free slot */
} Look;

INLINE Look probe_ks(const Layout *L, uint64_t *words, const Key *k, unsigned K, unsigned S) {
  Where h = where_k(words, k->home, K), a = where_k(words, k->alt, K);
  Look r = { 0, 0, 0, { NULL, 0 }, 0 };
  /* Both lines are asked for (their counts read) before either is
  ** scanned: the scan of the first would otherwise fill the CPU's queues
  ** with work waiting for it and hold back the second's load. */
  unsigned nh = used_of(L, h), na = used_of(L, a);
  uint64_t vh = entry_of(k->rem, 0), high = vh >> 32;   /* in the alternate: vh | 1 */
  unsigned mh = low_matches(lows(L, h), (uint32_t)vh, S) & ((1u << nh) - 1);
  unsigned ma = low_matches(lows(L, a), (uint32_t)vh | 1, S) & ((1u << na) - 1);
  /* One high part read, without a branch, for the common cases: no low
  ** half matched, or one did (the key is in either bucket, at random, and
  ** a branch there would be mispredicted half the time). */
  int in_a = mh == 0;
  Where w = in_a ? a : h;
  unsigned m = in_a ? ma : mh;
  unsigned s = (unsigned)__builtin_ctz(m | 1u << (S - 1));
  r.found = (int)((unsigned)(m != 0) & (unsigned)(get_bits(w.line, high_bit(L, w, s), L->hbits) == high));
  if (__builtin_expect((mh && ma) || (m & (m - 1)), 0)) r.found = high_any(L, h, mh, high) | high_any(L, a, ma, high);
  r.in_alt = na < nh;
  r.at = r.in_alt ? a : h;
  r.slot = r.in_alt ? na : nh;
  r.room = r.slot < S;
  return r;
}

/* Both buckets are read (their lines are fetched together), each with the
** code for its layout. */
INLINE Look probe(const Layout *L, uint64_t *words, const Key *k) {
  if (L->per_line == 3) return probe_ks(L, words, k, 3, 4);
  if (L->slots == 5) return probe_ks(L, words, k, 2, 5);
  return probe_ks(L, words, k, 2, 4);
}

/* Store the key in the free slot a probe found. */
INLINE void take_room(const Layout *L, const Key *k, const Look *r) {
  append_slot(L, r->at, r->slot, entry_of(k->rem, r->in_alt));
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
static inline void lock_line(uint64_t *line) {
  uint64_t *w = &line[LINE_WORDS - 1];
  while (__atomic_fetch_or(w, LOCK_BIT, __ATOMIC_ACQUIRE) & LOCK_BIT)
    while (ld(w) & LOCK_BIT) cpu_relax();
}

/* Release a line we hold: a plain store (with release order) of word 7
** without the lock bit suffices, as no other thread changes that word
** meanwhile (a waiter's fetch-or sets a bit already set). */
static inline void unlock_line(uint64_t *line) {
  uint64_t *w = &line[LINE_WORDS - 1];
  __atomic_store_n(w, ld(w) & ~LOCK_BIT, __ATOMIC_RELEASE);
}

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

static void ls_lock(const LockSet *s) {
  for (int i = 0; i < s->n; i++) lock_line(s->line[i]);
}

static void ls_unlock(const LockSet *s) {
  for (int i = s->n - 1; i >= 0; i--) unlock_line(s->line[i]);
}

/* The lines of a key's two buckets, lower address first (the same line
** twice if both buckets share it). */
typedef struct KeyLines {
  uint64_t *first, *second;
} KeyLines;

static inline KeyLines key_lines(const Layout *L, uint64_t *words, const Key *k) {
  uint64_t *h = where(L, words, k->home).line, *a = where(L, words, k->alt).line;
  KeyLines kl = { h < a ? h : a, h < a ? a : h };
  return kl;
}

/* Lock a key's two lines.  Both are requested (for writing) before the
** first lock waits for its line, so the two misses overlap. */
static inline KeyLines lock_key(const Layout *L, uint64_t *words, const Key *k) {
  KeyLines kl = key_lines(L, words, k);
  __builtin_prefetch(kl.first, 1);
  __builtin_prefetch(kl.second, 1);
  lock_line(kl.first);
  if (kl.second != kl.first) lock_line(kl.second);
  return kl;
}

static inline void unlock_key(KeyLines kl) {
  if (kl.second != kl.first) unlock_line(kl.second);
  unlock_line(kl.first);
}

/* ---- lanes: the reader lock and the count ---- */

/* The calling thread's lane: lane 0 for a single-thread cache, else one
** of LANES picked once per thread (threads beyond LANES share lanes, which
** stays correct: lanes are updated atomically). */
static _Thread_local unsigned my_lane = ~0u;
static unsigned next_lane;

static inline Lane *shared_lane(Compact *c) {
  if (my_lane == ~0u) my_lane = __atomic_fetch_add(&next_lane, 1, __ATOMIC_RELAXED) % LANES;
  return &c->lanes[my_lane];
}

/* Enter a read section (a shared cache): the table will not be resized
** before leave().  A thread that finds a resize under way sleeps on the
** resize mutex. */
static inline void enter(Compact *c, Lane *ln) {
  for (;;) {
    __atomic_add_fetch(&ln->state, 1, __ATOMIC_SEQ_CST);
    if (!__atomic_load_n(&c->resizing, __ATOMIC_SEQ_CST)) return;
    __atomic_sub_fetch(&ln->state, 1, __ATOMIC_RELEASE);
    pthread_mutex_lock(&c->resize_lock);
    pthread_mutex_unlock(&c->resize_lock);
  }
}

/* Leave a read section, counting an entry added in it if added. */
static inline void leave(Lane *ln, int added) {
  __atomic_add_fetch(&ln->state, ((uint64_t)added << READER_BITS) - 1, __ATOMIC_RELEASE);
}

/* Wait until no thread is inside a read section (resizing is set, so no
** new one starts). */
static void drain_readers(Compact *c) {
  for (int i = 0; i < LANES; i++)
    while (__atomic_load_n(&c->lanes[i].state, __ATOMIC_ACQUIRE) & READERS_MASK) cpu_relax();
}

static uint64_t total_added(const Compact *c) {
  uint64_t n = 0;
  for (int i = 0; i < LANES; i++) n += __atomic_load_n(&c->lanes[i].state, __ATOMIC_RELAXED) >> READER_BITS;
  return n;
}


/* Before an add: should the table grow first?  Every CHECK_EVERY adds of
** a lane the lanes are summed (so the load may overshoot by that much per
** lane; the table has room to spare).  At the budget the same sum marks
** the table crowded past fill_at, which ends cuckoo paths for good. */
static int load_check(Compact *c) {
  uint64_t n = total_added(c);
  if (__atomic_load_n(&c->full, __ATOMIC_RELAXED)) {
    if (n >= c->fill_at) __atomic_store_n(&c->crowded, 1, __ATOMIC_RELAXED);
    return 0;
  }
  return n >= c->grow_at;
}

static inline int load_says_grow(Compact *c, Lane *ln) {
  return (__atomic_load_n(&ln->state, __ATOMIC_RELAXED) >> READER_BITS) % CHECK_EVERY == 0 && load_check(c);
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
  /* Fault the pages in now, in order: a rebuild writes the table in two
  ** streams, and taking its page faults on the way doubled its time. */
  for (uint64_t i = 0; i < bytes / 8; i += 4096 / 8) ((volatile uint64_t *)p)[i] = 0;
  return p;
}

/* Make L (with its lines words) the current table; the caller owns the
** whole table (cc_new, or a resize with readers drained). */
static void install(Compact *c, const Layout *L, uint64_t *words) {
  c->L = *L;
  __atomic_store_n(&c->words, words, __ATOMIC_RELAXED);
  __atomic_store_n(&c->pf_bbits, L->bbits, __ATOMIC_RELAXED);
  __atomic_store_n(&c->pf_per_line, L->per_line, __ATOMIC_RELAXED);
  c->grow_at = capacity(L) / 10 * 9;
  c->fill_at = capacity(L) / 20 * 19;
}

/* The first table under a budget: 2^14 buckets, or fewer down to 2^8
** while it exceeds the budget (then it may still exceed it). */
static Layout first_layout(uint64_t budget) {
  unsigned b = FIRST_BUCKET_BITS;
  Layout L = layout_for(b, FOUR_SLOTS_FROM);
  while (b > MIN_BUCKET_BITS && table_bytes(&L) > budget) L = layout_for(--b, FOUR_SLOTS_FROM);
  return L;
}

Compact *cc_new(uint64_t budget) {
  Compact *c = aligned_alloc(64, sizeof *c);   /* sizeof is a multiple of 64 (the lanes) */
  if (!c) return NULL;
  memset(c, 0, sizeof *c);
  c->budget = budget;
  c->four_from = FOUR_SLOTS_FROM;
  Layout L = first_layout(budget);
  uint64_t *w = table_bytes(&L) <= budget ? alloc_lines(&L) : NULL;
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

void cc_test_four_slots_from(Compact *c, unsigned bbits) { c->four_from = bbits; }

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
  unsigned free;       /* that slot (the end bucket's count of used slots) */
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
      /* Asked for now, read when its turn comes: the misses of a level
      ** overlap. */
      __builtin_prefetch(where(L, words, to).line);
      nd[n++] = (Node){ to, v, (int16_t)h, (uint8_t)s, (uint8_t)(nd[h].depth + 1) };
    }
  }
  return 0;
}

/* The lines of the key's buckets and of every bucket on the path. */
static LockSet path_lines(const Layout *L, uint64_t *words, const Key *k, const Path *p) {
  LockSet s;
  s.n = 0;
  ls_add(&s, where(L, words, k->home).line);
  ls_add(&s, where(L, words, k->alt).line);
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

/* An insert's outcome: an answer, or: both buckets are full (try a path,
** or replace), or: grow the table first. */
typedef enum Step { S_SEEN, S_NEW, S_NO_ROOM, S_GROW } Step;

/* Look the key up and take a free slot of its buckets; shared is a
** constant where this is inlined: with it, the key's lines are locked. */
INLINE Step insert_direct(Compact *c, Lane *ln, const Layout *L, uint64_t *words, const Key *k, int shared) {
  KeyLines kl = { NULL, NULL };
  if (shared) kl = lock_key(L, words, k);
  Look r = probe(L, words, k);
  Step step = S_SEEN;
  if (r.found) step = S_SEEN;
  else if (load_says_grow(c, ln)) step = S_GROW;
  else if (r.room) {
    take_room(L, k, &r);
    step = S_NEW;
  } else step = S_NO_ROOM;
  if (shared) unlock_key(kl);
  return step;
}

/* Both buckets were full: find and carry out a cuckoo path.  Returns
** S_SEEN or S_NEW (the key may have come, or room appeared, meanwhile),
** or S_NO_ROOM if no path was found. */
static Step insert_by_path(const Layout *L, uint64_t *words, const Key *k, int shared) {
  Path p;
  for (int tries = 0; tries < PATH_TRIES; tries++) {
    if (!find_path(L, words, k, &p)) return S_NO_ROOM;
    LockSet s = { .n = 0 };
    if (shared) {
      s = path_lines(L, words, k, &p);
      ls_lock(&s);
    }
    Look r = probe(L, words, k);
    Step step = S_NEW;
    if (r.found) step = S_SEEN;
    else if (r.room) take_room(L, k, &r);
    else if (path_valid(L, words, &p)) path_apply(L, words, k, &p);
    else step = S_NO_ROOM;   /* changed meanwhile: search again */
    if (shared) ls_unlock(&s);
    if (step != S_NO_ROOM) return step;
  }
  return S_NO_ROOM;
}

/* At the budget, both buckets full: the key overwrites a slot of its home
** (unless it came, or room appeared, meanwhile). */
static ScResult insert_replacing(Compact *c, const Layout *L, uint64_t *words, const Key *k, int shared) {
  KeyLines kl = { NULL, NULL };
  if (shared) kl = lock_key(L, words, k);
  Look r = probe(L, words, k);
  ScResult res = SC_FULL;
  if (r.found) res = SC_SEEN;
  else if (r.room) {
    take_room(L, k, &r);
    res = SC_NEW;
  } else {
    put_slot(L, where(L, words, k->home), (unsigned)(k->rem % L->slots), entry_of(k->rem, 0));
    if (shared) __atomic_add_fetch(&c->refused, 1, __ATOMIC_RELAXED);
    else c->refused++;
  }
  if (shared) unlock_key(kl);
  return res;
}

/* The slow part of an insert: both buckets full. */
static Step insert_no_room(Compact *c, const Layout *L, uint64_t *words, const Key *k, int shared, ScResult *res) {
  if (!__atomic_load_n(&c->crowded, __ATOMIC_RELAXED)) {
    Step step = insert_by_path(L, words, k, shared);
    if (step != S_NO_ROOM) return step;
  }
  if (!__atomic_load_n(&c->full, __ATOMIC_RELAXED)) return S_GROW;
  *res = insert_replacing(c, L, words, k, shared);
  return S_NO_ROOM;
}

/* One attempt on the current table (fixed meanwhile: a read section, or a
** single thread).  S_NO_ROOM here means: answered *res at the budget. */
INLINE Step insert_once(Compact *c, Lane *ln, uint64_t fp, int shared, ScResult *res) {
  const Layout *L = &c->L;
  uint64_t *words = c->words;
  Key k = key_of(L, fp);
  Step step = insert_direct(c, ln, L, words, &k, shared);
  if (__builtin_expect(step == S_NO_ROOM, 0)) step = insert_no_room(c, L, words, &k, shared, res);
  return step;
}

/* ---- growth ---- */

/* Entries a split could not place (see split_bucket), placed afterwards
** like inserts.  A heap array the rebuild owns. */
typedef struct Spill {
  uint64_t *fp;
  size_t n, cap;
} Spill;

static void spill(Spill *sp, uint64_t fp) {
  if (sp->n == sp->cap) {
    sp->cap = sp->cap ? 2 * sp->cap : 1024;
    sp->fp = xrealloc(sp->fp, sp->cap * sizeof *sp->fp);
  }
  sp->fp[sp->n++] = fp;
}

/* Store fp in a table no other thread can see (a rebuild).  0 if no
** cuckoo path has room for it. */
static int place_quietly(const Layout *L, uint64_t *words, uint64_t fp) {
  Key k = key_of(L, fp);
  Look r = probe(L, words, &k);
  if (r.found) return 1;
  if (r.room) {
    take_room(L, &k, &r);
    return 1;
  }
  Path p;
  if (!find_path(L, words, &k, &p)) return 0;
  path_apply(L, words, &k, &p);
  return 1;
}

/* Copy the entries of old bucket b into the doubled table.  Each entry
** has one of its new buckets at b or b + 2^B (other_bucket), and the two
** receive only old bucket b's entries, so a rebuild writes the new table
** in two sequential streams, never waiting for a random line or searching
** a cuckoo path.  They always fit, except where buckets shrink from 5
** slots to 4 (B = 24): an old bucket's 5 entries may all choose one of the
** two; the fifth is spilled. */
static void split_bucket(const Layout *L, uint64_t *words, uint64_t b, const Layout *N, uint64_t *nw, Spill *sp) {
  Where w = where(L, words, b);
  unsigned used = used_of(L, w);
  if (!used) return;
  Where to[2] = { where(N, nw, b), where(N, nw, b | 1ull << L->bbits) };
  unsigned n[2] = { 0, 0 };   /* both start empty: each gets only b's entries */
  for (unsigned s = 0; s < used; s++) {
    /* Without rebuilding the fingerprint: v = r << 1 | a (a: in the
    ** alternate).  Bit B of fp, r's lowest, moves into the quotient, and
    ** the entry lands in b + x 2^B: x is that bit for an entry at home,
    ** and for one in its alternate that bit XOR bit B of the offset. */
    uint64_t v = get_slot(L, w, s), a = v & 1, t = v >> 1 & 1;
    uint64_t h = (v >> 1 >> (32 - L->bbits)) * 0x9E3779B97F4A7C15ull;
    unsigned x = (unsigned)(t ^ (a & (h ^ h >> 32) >> L->bbits));
    if (n[x] < N->slots) put_slot(N, to[x], n[x]++, (v >> 2) << 1 | a);
    else spill(sp, fp_of(L, b, v));
  }
  set_used(N, to[0], n[0]);
  set_used(N, to[1], n[1]);
}

/* Copy every entry of the current table into a new one of 2^bbits
** buckets, bbits = B + 1 (the caller owns the table: readers drained).
** Returns 0, changing nothing, if the new table would exceed the budget,
** mmap fails, or a spilled entry finds no place. */
static int rebuild(Compact *c, unsigned bbits) {
  Layout N = layout_for(bbits, c->four_from);
  if (bbits > MAX_BUCKET_BITS || table_bytes(&N) > c->budget) return 0;
  uint64_t *nw = alloc_lines(&N);
  if (!nw) return 0;
  const Layout *L = &c->L;
  Spill sp = { NULL, 0, 0 };
  for (uint64_t b = 0; b < L->buckets; b++) split_bucket(L, c->words, b, &N, nw, &sp);
  int ok = 1;
  for (size_t i = 0; i < sp.n && ok; i++) ok = place_quietly(&N, nw, sp.fp[i]);
  free(sp.fp);
  if (!ok) {
    munmap(nw, table_bytes(&N));
    return 0;
  }
  munmap(c->words, table_bytes(L));
  install(c, &N, nw);
  return 1;
}

/* Grow the table that had seen_bbits, or mark the cache full if the budget
** (or memory) does not allow it.  Nothing to do if another thread has
** done either meanwhile.  The caller is in no read section. */
static void grow(Compact *c, unsigned seen_bbits, int shared) {
  if (shared) {
    pthread_mutex_lock(&c->resize_lock);
    __atomic_store_n(&c->resizing, 1, __ATOMIC_SEQ_CST);
    drain_readers(c);
  }
  if (c->L.bbits == seen_bbits && !c->full && !rebuild(c, seen_bbits + 1)) __atomic_store_n(&c->full, 1, __ATOMIC_RELAXED);
  if (shared) {
    __atomic_store_n(&c->resizing, 0, __ATOMIC_RELEASE);
    pthread_mutex_unlock(&c->resize_lock);
  }
}

static inline ScResult answer(Step step, ScResult at_budget) {
  return step == S_SEEN ? SC_SEEN : step == S_NEW ? SC_NEW : at_budget;
}

/* One thread: no lanes but the first, no read section, no locks. */
static ScResult insert_single(Compact *c, uint64_t fp) {
  Lane *ln = &c->lanes[0];
  for (;;) {
    ScResult res = SC_FULL;
    Step step = insert_once(c, ln, fp, 0, &res);
    if (step != S_GROW) {
      res = answer(step, res);
      if (res == SC_NEW) ln->state += 1ull << READER_BITS;
      return res;
    }
    grow(c, c->L.bbits, 0);
  }
}

/* Several threads: each attempt in a read section, which also counts the
** entry added (one atomic operation for both). */
static ScResult insert_shared(Compact *c, uint64_t fp) {
  Lane *ln = shared_lane(c);
  for (;;) {
    enter(c, ln);
    unsigned bbits = c->L.bbits;
    ScResult res = SC_FULL;
    Step step = insert_once(c, ln, fp, 1, &res);
    res = answer(step, res);
    leave(ln, step != S_GROW && res == SC_NEW);
    if (step != S_GROW) return res;
    grow(c, bbits, 1);
  }
}

ScResult cc_insert(Compact *c, uint64_t fp) { return c->single ? insert_single(c, fp) : insert_shared(c, fp); }

/* ---- lookups and the rest ---- */

int cc_contains(Compact *c, uint64_t fp) {
  if (c->single) {
    Key k = key_of(&c->L, fp);
    return probe(&c->L, c->words, &k).found;
  }
  Lane *ln = shared_lane(c);
  enter(c, ln);
  Key k = key_of(&c->L, fp);
  KeyLines kl = lock_key(&c->L, c->words, &k);
  int found = probe(&c->L, c->words, &k).found;
  unlock_key(kl);
  leave(ln, 0);
  return found;
}

void cc_prefetch(Compact *c, uint64_t fp) {
  /* Racy reads of the table: a stale pointer or size only wastes the hint
  ** (addresses are computed as integers; prefetching never faults). */
  uintptr_t words = (uintptr_t)__atomic_load_n(&c->words, __ATOMIC_RELAXED);
  unsigned bbits = __atomic_load_n(&c->pf_bbits, __ATOMIC_RELAXED);
  int three = __atomic_load_n(&c->pf_per_line, __ATOMIC_RELAXED) == 3;
  uint64_t home = fp & ((1ull << bbits) - 1), alt = other_of(bbits, home, fp >> bbits);
  uint64_t lh = three ? home / 3 : home >> 1;
  uint64_t la = three ? alt / 3 : alt >> 1;
  __builtin_prefetch((const void *)(words + lh * LINE_BYTES));
  __builtin_prefetch((const void *)(words + la * LINE_BYTES));
}

uint64_t cc_count_absent(Compact *a, Compact *b) {
  const Layout *L = &a->L;
  uint64_t n = 0;
  for (uint64_t bk = 0; bk < L->buckets; bk++) {
    Where w = where(L, a->words, bk);
    for (unsigned s = 0, used = used_of(L, w); s < used; s++) n += !cc_contains(b, fp_of(L, bk, get_slot(L, w, s)));
  }
  return n;
}

uint64_t cc_count(const Compact *c) { return total_added(c); }
uint64_t cc_bytes(const Compact *c) { return table_bytes(&c->L) + sizeof *c; }
uint64_t cc_refused(const Compact *c) { return __atomic_load_n(&c->refused, __ATOMIC_RELAXED); }
int cc_is_full(const Compact *c) { return __atomic_load_n(&c->full, __ATOMIC_RELAXED); }

/* ---- saving and loading ----
** Layout, in the machine's byte order (after statecache.c's header):
**   u32 bbits, u32 four_from, u32 slots, u32 per_line, u64 lines,
**   u64 refused, u32 full, u32 crowded, LANES x u64 added (each lane's
**   count), then the table's lines, 64 bytes each, as they are.
** The geometry is saved whole and must be what layout_for gives for bbits
** and four_from, so a file from a build with another layout is refused
** rather than misread.  The lanes' counts are kept apart: when a table
** grows depends on each lane's count (load_says_grow), and a loaded cache
** grows, crowds and replaces at the same inserts as the saved one.
** A loaded line must be one an insert could have written: no lock bit (a
** set one would stall every thread that met it), no bucket using more
** than S slots (a count up to 7 would read past its bucket, and past the
** line), and nothing outside its used slots and counts; and the slots
** used in all must add up to the lanes' counts. */

static void put_u32(Buf *b, uint32_t v) { buf_append(b, &v, 4); }
static void put_u64(Buf *b, uint64_t v) { buf_append(b, &v, 8); }

void cc_save(const Compact *c, Buf *out) {
  const Layout *L = &c->L;
  put_u32(out, L->bbits);
  put_u32(out, c->four_from);
  put_u32(out, L->slots);
  put_u32(out, L->per_line);
  put_u64(out, L->lines);
  put_u64(out, c->refused);
  put_u32(out, (uint32_t)c->full);
  put_u32(out, (uint32_t)c->crowded);
  for (int i = 0; i < LANES; i++) put_u64(out, __atomic_load_n(&c->lanes[i].state, __ATOMIC_RELAXED) >> READER_BITS);
  buf_append(out, c->words, table_bytes(L));
}

/* Is line, whose first bucket is b0, exactly what inserts write: each
** bucket using at most S slots (places past the last bucket none), and
** every bit that is not in a used slot or a count, the lock's included,
** zero?  Adds the slots it uses to *used. */
static int line_valid(const Layout *L, uint64_t *line, uint64_t b0, uint64_t *used) {
  uint64_t z[LINE_WORDS] = { 0 };
  for (unsigned j = 0; j < L->per_line && b0 + j < L->buckets; j++) {
    Where w = { line, j }, wz = { z, j };
    unsigned n = used_of(L, w);
    if (n > L->slots) return 0;
    for (unsigned s = 0; s < n; s++) put_slot(L, wz, s, get_slot(L, w, s));
    set_used(L, wz, n);
    *used += n;
  }
  return memcmp(z, line, LINE_BYTES) == 0;
}

Compact *cc_load(uint64_t saved_budget, uint64_t budget, const uint8_t *data, size_t len, Buf *err) {
  ByteRd r = { data, data + len, 1 };
  unsigned bbits = (unsigned)brd_get(&r, 4), four_from = (unsigned)brd_get(&r, 4);
  unsigned slots = (unsigned)brd_get(&r, 4), per_line = (unsigned)brd_get(&r, 4);
  uint64_t lines = brd_get(&r, 8), refused = brd_get(&r, 8);
  uint32_t full = (uint32_t)brd_get(&r, 4), crowded = (uint32_t)brd_get(&r, 4);
  uint64_t added[LANES], total = 0;
  int lanes_ok = 1;
  for (int i = 0; i < LANES; i++) {
    added[i] = brd_get(&r, 8);
    lanes_ok &= added[i] <= UINT64_MAX >> READER_BITS;   /* fits a lane (total cannot overflow) */
    total += added[i];
  }
  if (!r.ok) {
    buf_printf(err, "the saved state cache is cut short");
    return NULL;
  }
  int bits_ok = bbits >= first_layout(saved_budget).bbits && bbits <= MAX_BUCKET_BITS;
  Layout L = layout_for(bits_ok ? bbits : MIN_BUCKET_BITS, four_from);
  if (!bits_ok || !lanes_ok || L.slots != slots || L.per_line != per_line || L.lines != lines ||
      table_bytes(&L) > saved_budget || full > 1 || crowded > full || (refused && !full)) {
    buf_printf(err, "the saved state cache is inconsistent (its geometry or counters)");
    return NULL;
  }
  if (table_bytes(&L) > budget) {
    buf_printf(err, "the saved state cache takes %.1f MiB, more than this run's --mem gives the cache (%.1f MiB): "
               "resume with a larger --mem", (double)table_bytes(&L) / 1048576.0, (double)budget / 1048576.0);
    return NULL;
  }
  size_t rest = (size_t)(r.end - r.p);
  if (rest != table_bytes(&L)) {
    buf_printf(err, "the saved state cache is %s", rest < table_bytes(&L) ? "cut short" : "followed by stray bytes");
    return NULL;
  }
  Compact *c = aligned_alloc(64, sizeof *c);
  uint64_t *w = c ? alloc_lines(&L) : NULL;
  if (!w) {
    free(c);
    buf_printf(err, "cannot map a state cache table of %llu bytes", (unsigned long long)table_bytes(&L));
    return NULL;
  }
  memset(c, 0, sizeof *c);
  c->budget = budget;
  c->four_from = four_from;
  install(c, &L, w);
  pthread_mutex_init(&c->resize_lock, NULL);
  memcpy(w, r.p, rest);
  uint64_t used = 0;
  int ok = 1;
  for (uint64_t i = 0; i < L.lines && ok; i++) ok = line_valid(&L, w + i * LINE_WORDS, i * L.per_line, &used);
  if (!ok || used != total) {
    buf_printf(err, "the saved state cache is inconsistent (%s)", ok ? "its counts disagree with its table" : "a damaged line");
    cc_free(c);
    return NULL;
  }
  for (int i = 0; i < LANES; i++) c->lanes[i].state = added[i] << READER_BITS;
  c->refused = refused;
  c->full = (int)full;
  c->crowded = (int)crowded;
  return c;
}
