/* test_statecache.c: the three state caches (flat, judy, compact), row by
** row: new, seen, growth, the budget (replacement and counts), fingerprint
** 0, exact set semantics (fingerprints one bit apart, in the bits a compact
** table's bucket supplies as in those it stores), the set kept across
** several doublings, sc_count_absent, and concurrent inserts from several
** threads giving exactly one SC_NEW per fingerprint; sc_save and sc_load
** (a loaded cache answers as the saved one would have; damaged, cut short
** or foreign bytes are refused, never read past); the compact cache's
** bytes per state; and the State fingerprint (vm/hash.h, through
** libxxhash's vector dispatcher where it has one) equal to plain XXH3-64
** at every length. */
#include <config.h>
#include "tests/unit/check_main.h"
#include <pthread.h>
#include <string.h>
#include "checker/base/rng.h"
#include "checker/store/statecache.h"
#include "checker/store/sc_compact.h"
#include "vm/hash.h"

static const ScKind kinds[] = { SC_FLAT, SC_JUDY, SC_COMPACT };
enum { NKINDS = sizeof kinds / sizeof kinds[0] };

/* The i-th fingerprint of a test's own sequence (distinct for distinct i:
** splitmix64 is a bijection). */
static uint64_t fp_at(uint64_t i) { return rng_splitmix(&i); }

START_TEST(test_new_seen) {
  StateCache *c = sc_new(kinds[_i], 64u << 20);
  ck_assert_int_eq(sc_insert(c, 42), SC_NEW);
  ck_assert_int_eq(sc_insert(c, 42), SC_SEEN);
  ck_assert_int_eq(sc_insert(c, 0), SC_NEW);      /* fingerprint 0 is a value like any other */
  ck_assert_int_eq(sc_insert(c, 0), SC_SEEN);
  ck_assert(sc_contains(c, 42) && sc_contains(c, 0) && !sc_contains(c, 7));
  /* Many more than the initial table: growth keeps everything. */
  Rng r;
  rng_seed(&r, 1);
  for (int i = 0; i < 300000; i++) sc_insert(c, rng_next(&r));
  rng_seed(&r, 1);
  for (int i = 0; i < 300000; i++) ck_assert_int_eq(sc_insert(c, rng_next(&r)), SC_SEEN);
  ck_assert_uint_eq(sc_count(c), 300002);
  ck_assert(!sc_is_full(c));
  ck_assert_uint_eq(sc_refused(c), 0);
  sc_free(c);
}
END_TEST

START_TEST(test_budget) {
  StateCache *c = sc_new(kinds[_i], 1u << 20);   /* 1 MiB */
  Rng r;
  rng_seed(&r, 2);
  uint64_t fresh = 0, full = 0;
  for (int i = 0; i < 1000000; i++) {
    ScResult x = sc_insert(c, rng_next(&r));
    fresh += x == SC_NEW;
    full += x == SC_FULL;
  }
  ck_assert(sc_is_full(c));
  ck_assert_uint_eq(fresh + full, 1000000);
  ck_assert_uint_eq(sc_refused(c), full);
  ck_assert(sc_bytes(c) <= (1u << 20) + (64u << 10));
  ck_assert_uint_eq(sc_count(c), fresh);
  ck_assert_uint_gt(full, 0);
  /* A fingerprint inserted at the budget replaced another: it is present. */
  ck_assert_int_eq(sc_insert(c, 123456789), SC_FULL);
  ck_assert(sc_contains(c, 123456789));
  sc_free(c);
}
END_TEST

typedef struct Job { StateCache *c; uint64_t news; } Job;

static void *inserter(void *arg) {
  Job *j = arg;
  Rng r;
  rng_seed(&r, 3);   /* every thread inserts the same fingerprints */
  for (int i = 0; i < 200000; i++) j->news += sc_insert(j->c, rng_next(&r)) == SC_NEW;
  return NULL;
}

START_TEST(test_concurrent) {
  StateCache *c = sc_new(kinds[_i], 256u << 20);
  Job jobs[4];
  pthread_t th[4];
  for (int t = 0; t < 4; t++) { jobs[t].c = c; jobs[t].news = 0; pthread_create(&th[t], NULL, inserter, &jobs[t]); }
  uint64_t total = 0;
  for (int t = 0; t < 4; t++) { pthread_join(th[t], NULL); total += jobs[t].news; }
  ck_assert_uint_eq(total, 200000);
  ck_assert_uint_eq(sc_count(c), 200000);
  sc_free(c);
}
END_TEST

/* Exact set semantics, shared (rows 0..2) and single-thread (rows 3..5):
** fingerprints 0 and all ones, N random ones and for each a twin one bit
** away (bit i % 64: the low bits are a compact table's quotient, the high
** ones what it stores) or differing in several low bits; the twins are
** never inserted and must never be found. */
START_TEST(test_exact_set) {
  enum { N = 100000 };
  StateCache *c = sc_new(kinds[_i % NKINDS], 256u << 20);
  sc_set_single_thread(c, _i >= NKINDS);
  ck_assert_int_eq(sc_insert(c, 0), SC_NEW);
  ck_assert_int_eq(sc_insert(c, UINT64_MAX), SC_NEW);
  /* (flat stores fingerprint 0 as 1, so for it the two are one.) */
  ck_assert(!sc_contains(c, 1) || kinds[_i % NKINDS] == SC_FLAT);
  ck_assert(!sc_contains(c, UINT64_MAX - 1) && !sc_contains(c, 1ull << 63));
  for (uint64_t i = 0; i < N; i++) ck_assert_int_eq(sc_insert(c, fp_at(i)), SC_NEW);
  for (uint64_t i = 0; i < N; i++) {
    uint64_t x = fp_at(i);
    ck_assert_int_eq(sc_insert(c, x), SC_SEEN);
    ck_assert(!sc_contains(c, x ^ (1ull << (i % 64))));
    ck_assert(!sc_contains(c, x ^ ((i * 0x9E3779B1u) & 0xFFFFF) ^ 0x80000));
  }
  for (uint64_t i = N; i < 2 * N; i++) ck_assert(!sc_contains(c, fp_at(i)));
  ck_assert(sc_contains(c, 0) && sc_contains(c, UINT64_MAX));
  ck_assert_int_eq(sc_insert(c, 0), SC_SEEN);
  ck_assert_int_eq(sc_insert(c, UINT64_MAX), SC_SEEN);
  ck_assert_uint_eq(sc_count(c), N + 2);
  sc_free(c);
}
END_TEST

/* Fingerprints that share their high bits and differ only in their low
** 16: a compact table keeps them apart by bucket alone. */
START_TEST(test_same_remainder) {
  StateCache *c = sc_new(kinds[_i], 64u << 20);
  uint64_t hi = 0xDEADBEEFCAFE0000ull;
  for (uint64_t q = 0; q < 65536; q += 2) ck_assert_int_eq(sc_insert(c, hi | q), SC_NEW);
  for (uint64_t q = 0; q < 65536; q++) ck_assert_int_eq(sc_contains(c, hi | q), !(q & 1));
  ck_assert_uint_eq(sc_count(c), 32768);
  sc_free(c);
}
END_TEST

/* Fingerprints equal in their low 48 bits, different above: one home
** bucket, and in a small compact table slots whose low 32 stored bits are
** all alike, told apart by their high parts only. */
START_TEST(test_same_low_bits) {
  StateCache *c = sc_new(kinds[_i % NKINDS], 64u << 20);
  sc_set_single_thread(c, _i >= NKINDS);
  uint64_t lo = 0x0000123456789ABCull;
  for (uint64_t j = 1; j < 24; j += 2) ck_assert_int_eq(sc_insert(c, j << 48 | lo), SC_NEW);
  for (uint64_t j = 0; j < 24; j++) ck_assert_int_eq(sc_contains(c, j << 48 | lo), (int)(j & 1));
  for (uint64_t j = 1; j < 24; j += 2) ck_assert_int_eq(sc_insert(c, j << 48 | lo), SC_SEEN);
  ck_assert_uint_eq(sc_count(c), 12);
  sc_free(c);
}
END_TEST

/* Growth: every time the cache's memory has doubled (give or take its
** fixed metadata), all it was given is still there; at least four
** doublings happen. */
START_TEST(test_growth) {
  enum { N = 600000 };
  StateCache *c = sc_new(kinds[_i], 1u << 30);
  uint64_t checked = sc_bytes(c);
  int doublings = 0;
  for (uint64_t i = 0; i < N; i++) {
    ck_assert_int_eq(sc_insert(c, fp_at(i)), SC_NEW);
    if (sc_bytes(c) >= checked / 10 * 19) {
      checked = sc_bytes(c);
      doublings++;
      for (uint64_t j = 0; j <= i; j++) ck_assert(sc_contains(c, fp_at(j)));
      ck_assert(!sc_contains(c, fp_at(i + 1)));
    }
  }
  ck_assert_int_ge(doublings, 4);
  for (uint64_t j = 0; j < N; j++) ck_assert_int_eq(sc_insert(c, fp_at(j)), SC_SEEN);
  ck_assert_uint_eq(sc_count(c), N);
  ck_assert(!sc_is_full(c));
  sc_free(c);
}
END_TEST

/* sc_count_absent(a, b) with a = X + Y, b = Y + Z. */
START_TEST(test_count_absent) {
  StateCache *a = sc_new(kinds[_i], 64u << 20), *b = sc_new(kinds[_i], 64u << 20);
  for (uint64_t i = 0; i < 1000; i++) sc_insert(a, fp_at(i));             /* X */
  for (uint64_t i = 1000; i < 51000; i++) {                               /* Y */
    sc_insert(a, fp_at(i));
    sc_insert(b, fp_at(i));
  }
  for (uint64_t i = 51000; i < 71000; i++) sc_insert(b, fp_at(i));        /* Z */
  ck_assert_uint_eq(sc_count_absent(a, b), 1000);
  ck_assert_uint_eq(sc_count_absent(b, a), 20000);
  ck_assert_uint_eq(sc_count_absent(a, a), 0);
  sc_free(a);
  sc_free(b);
}
END_TEST

/* Two threads, overlapping ranges inserted at the same time: both start
** on the shared middle third, then each goes to its own third.  Every
** fingerprint is answered SC_NEW exactly once overall. */
enum { OV_THIRD = 150000 };
typedef struct Overlap { StateCache *c; int side; uint8_t *news; uint64_t count; } Overlap;

static void *overlap_inserter(void *arg) {
  Overlap *o = arg;
  uint64_t own = o->side ? 2 * OV_THIRD : 0;
  for (uint64_t k = 0; k < 2 * OV_THIRD; k++) {
    uint64_t i = k < OV_THIRD ? OV_THIRD + k : own + k - OV_THIRD;
    if (sc_insert(o->c, fp_at(i)) == SC_NEW) {
      __atomic_add_fetch(&o->news[i], 1, __ATOMIC_RELAXED);
      o->count++;
    }
  }
  return NULL;
}

START_TEST(test_concurrent_overlap) {
  StateCache *c = sc_new(kinds[_i], 256u << 20);
  uint8_t *news = calloc(3 * OV_THIRD, 1);
  Overlap o[2] = { { c, 0, news, 0 }, { c, 1, news, 0 } };
  pthread_t th[2];
  for (int t = 0; t < 2; t++) pthread_create(&th[t], NULL, overlap_inserter, &o[t]);
  for (int t = 0; t < 2; t++) pthread_join(th[t], NULL);
  for (uint64_t i = 0; i < 3 * OV_THIRD; i++) ck_assert_uint_eq(news[i], 1);
  ck_assert_uint_eq(o[0].count + o[1].count, 3 * OV_THIRD);
  ck_assert_uint_eq(sc_count(c), 3 * OV_THIRD);
  for (uint64_t i = 0; i < 3 * OV_THIRD; i++) ck_assert(sc_contains(c, fp_at(i)));
  free(news);
  sc_free(c);
}
END_TEST

/* The compact cache's point: at 2.3 million states (near the top of its
** table's load range) at most 8 bytes per state, where flat needs 16. */
START_TEST(test_compact_bytes) {
  enum { N = 2300000 };
  StateCache *c = sc_new(SC_COMPACT, 1u << 30);
  sc_set_single_thread(c, 1);
  for (uint64_t i = 0; i < N; i++) sc_insert(c, fp_at(i));
  ck_assert_uint_eq(sc_count(c), N);
  ck_assert_uint_le(sc_bytes(c), 8ull * N);
  sc_free(c);
}
END_TEST

/* Growth where buckets shrink from 5 slots to 4 (at 2^24 buckets; here
** moved down to 2^17): a bucket's 5 entries may all want one of its two
** successors, and none may be lost.  Shared and single-thread rows. */
START_TEST(test_compact_four_slots) {
  enum { N = 450000 };
  Compact *c = cc_new(1u << 30);
  cc_set_single_thread(c, _i);
  cc_test_four_slots_from(c, 17);
  for (uint64_t i = 0; i < N; i++) ck_assert_int_eq(cc_insert(c, fp_at(i)), SC_NEW);
  ck_assert_uint_ge(cc_bytes(c), 2u << 20);   /* it did grow past 2^16 buckets */
  for (uint64_t i = 0; i < N; i++) ck_assert(cc_contains(c, fp_at(i)));
  for (uint64_t i = N; i < 2 * N; i++) ck_assert(!cc_contains(c, fp_at(i)));
  ck_assert_uint_eq(cc_count(c), N);
  cc_free(c);
}
END_TEST

/* ---- saving and loading ---- */

/* sc_load of the len bytes the caller put at the end of a heap block of
** cap bytes (ASan sees any read past them); NULL if refused, which must
** then say why. */
static StateCache *load_end(ScKind kind, uint64_t budget, const uint8_t *block, size_t cap, size_t len) {
  Buf err;
  buf_init(&err);
  StateCache *c = sc_load(kind, budget, block + cap - len, len, &err);
  if (!c && !err.len) ck_abort_msg("sc_load refused without a message");
  buf_fini(&err);
  return c;
}

/* load_end of a copy of len bytes of data in a block of their own. */
static StateCache *load_copy(ScKind kind, uint64_t budget, const void *data, size_t len) {
  uint8_t *copy = malloc(len ? len : 1);
  memcpy(copy, data, len);
  StateCache *c = load_end(kind, budget, copy, len ? len : 1, len);
  free(copy);
  return c;
}

/* Round trips: insert `before` fingerprints, save, load, then give both
** caches the same `after` inserts (a third of them fingerprints seen
** before, the rest new).  Every answer is the same, as are the counts, the
** set and what each saves at the end.  Rows: growing and never full; full
** and replacing when saved (1 MiB); saved below the budget and full
** after.  Judy cannot promise that last row past its budget (statecache.c:
** its memory depends on the order of its inserts), so there it is compared
** only while neither cache is full. */
typedef struct RoundTrip {
  uint64_t budget;     /* bytes */
  uint64_t before;     /* inserts before the save */
  uint64_t after;      /* inserts after it, on both caches */
  int single;          /* sc_set_single_thread on both */
  int full_at_save;    /* the saved cache is full */
} RoundTrip;

static const RoundTrip round_trips[] = {
  { 64u << 20, 150000, 100000, 0, 0 },
  { 1u << 20, 250000, 100000, 1, 1 },
  { 1u << 20, 20000, 250000, 1, 0 },
};
enum { NROUND_TRIPS = sizeof round_trips / sizeof round_trips[0] };

START_TEST(test_save_round_trip) {
  const RoundTrip *t = &round_trips[_i / NKINDS];
  ScKind kind = kinds[_i % NKINDS];
  StateCache *a = sc_new(kind, t->budget);
  sc_set_single_thread(a, t->single);
  for (uint64_t i = 0; i < t->before; i++) sc_insert(a, fp_at(i));
  ck_assert_int_eq(sc_is_full(a), t->full_at_save);
  Buf saved;
  buf_init(&saved);
  sc_save(a, &saved);
  StateCache *b = load_copy(kind, t->budget, saved.data, saved.len);
  ck_assert_ptr_nonnull(b);
  sc_set_single_thread(b, t->single);
  ck_assert_uint_eq(sc_count(b), sc_count(a));
  ck_assert_uint_eq(sc_refused(b), sc_refused(a));
  ck_assert_int_eq(sc_is_full(b), sc_is_full(a));
  if (kind != SC_JUDY) ck_assert_uint_eq(sc_bytes(b), sc_bytes(a));
  /* (Mismatches are counted, not asserted one by one: each check that
  ** passes costs Check a write.) */
  uint64_t differ = 0;
  for (uint64_t i = 0; i < t->before; i++)
    differ += sc_contains(b, fp_at(i)) != sc_contains(a, fp_at(i)) || (!sc_is_full(a) && !sc_contains(b, fp_at(i)));
  ck_assert_uint_eq(differ, 0);
  ck_assert_uint_eq(sc_count_absent(a, b), 0);
  ck_assert_uint_eq(sc_count_absent(b, a), 0);
  /* What a loaded cache saves is what it was loaded from. */
  Buf again;
  buf_init(&again);
  sc_save(b, &again);
  ck_assert_uint_eq(again.len, saved.len);
  ck_assert(memcmp(again.data, saved.data, saved.len) == 0);
  int exact = kind != SC_JUDY || sc_is_full(a);
  Rng r;
  rng_seed(&r, 11);
  uint64_t fulls = 0;
  for (uint64_t k = 0; k < t->after; k++) {
    uint64_t fp = rng_below(&r, 3) == 0 ? fp_at(rng_below(&r, (uint32_t)t->before)) : fp_at(t->before + k);
    ScResult x = sc_insert(a, fp), y = sc_insert(b, fp);
    differ += y != x && (exact || (!sc_is_full(a) && !sc_is_full(b)));
    fulls += x == SC_FULL;
  }
  ck_assert_uint_eq(differ, 0);
  if (t->budget == 1u << 20) ck_assert_uint_gt(fulls, 0);   /* replacing after the save */
  if (exact) {
    ck_assert_uint_eq(sc_count(b), sc_count(a));
    ck_assert_uint_eq(sc_refused(b), sc_refused(a));
    ck_assert_int_eq(sc_is_full(b), sc_is_full(a));
    ck_assert_uint_eq(sc_count_absent(a, b), 0);
    ck_assert_uint_eq(sc_count_absent(b, a), 0);
    buf_fini(&saved);
    buf_fini(&again);
    sc_save(a, &saved);
    sc_save(b, &again);
    ck_assert_uint_eq(again.len, saved.len);
    ck_assert(memcmp(again.data, saved.data, saved.len) == 0);
  }
  buf_fini(&saved);
  buf_fini(&again);
  sc_free(a);
  sc_free(b);
}
END_TEST

/* A saved cache, full or not (rows 0..2: a few thousand fingerprints;
** 3..5: past a 1 MiB budget), cut at every length up to 64 and then every
** 997th and at the last 16 bytes, is refused; a byte of the header's
** format or kind changed is refused; a byte changed further on (the
** budget it was made under, the counters and
** geometry, then anywhere) is refused or gives a cache that works.  The
** bytes end where their heap block does, so ASan sees any read past them. */
START_TEST(test_save_damaged) {
  ScKind kind = kinds[_i % NKINDS];
  int full = _i >= NKINDS;
  StateCache *a = sc_new(kind, 1u << 20);
  for (uint64_t i = 0; i < (full ? 250000u : 3000u); i++) sc_insert(a, fp_at(i));
  ck_assert_int_eq(sc_is_full(a), full);
  Buf saved;
  buf_init(&saved);
  sc_save(a, &saved);
  size_t len = saved.len;
  uint8_t *block = malloc(len);
  uint64_t loaded = 0;
  for (size_t cut = 0; cut < len; cut++) {
    if (cut >= 64 && cut % 997 && cut + 16 < len) continue;
    memcpy(block + len - cut, saved.data, cut);
    StateCache *c = load_end(kind, 1u << 20, block, len, cut);
    loaded += c != NULL;
    sc_free(c);
  }
  ck_assert_uint_eq(loaded, 0);
  /* Bytes 0..199 cover the header and every kind's counters and geometry
  ** (compact's are the longest: 184 bytes); then 24 anywhere. */
  Rng r;
  rng_seed(&r, 13);
  for (size_t at = 0; at < 200 + 24; at++) {
    size_t pos = at < 200 ? at : rng_below(&r, (uint32_t)len);
    memcpy(block, saved.data, len);
    block[pos] ^= at % 2 ? 0xFF : (uint8_t)(1u << (at / 2 % 8));
    StateCache *c = load_end(kind, 1u << 20, block, len, len);
    loaded += pos < 8 && c;   /* the format and kind; a budget changed is one the table may fit */
    if (!c) continue;
    for (uint64_t i = 0; i < 1000; i++) {
      sc_insert(c, fp_at(i * 7919));
      sc_contains(c, fp_at(i));
    }
    sc_free(c);
  }
  ck_assert_uint_eq(loaded, 0);
  free(block);
  buf_fini(&saved);
  sc_free(a);
}
END_TEST

/* Compact lines that no insert writes but a damaged file may hold are
** refused: the lock bit set (a shared cache would wait on it for ever), a
** bucket counting 7 slots (its reads would run past the bucket, and past
** the line), a bit set in a slot its bucket does not use, and a count of
** entries one off.  Offsets: the 16-byte header, then cc_save's 168 bytes
** before the table (the slots per bucket at 8 of them, lane 0's count at
** 40); word 7 of a line holds its lock (bit 63) and its first bucket's
** count (bits 60-62), and the line starts with that bucket's low halves,
** 32 bits a slot. */
START_TEST(test_save_compact_lines) {
  enum { SLOTS = 16 + 8, LANE0 = 16 + 40, TABLE = 16 + 168 };
  StateCache *a = sc_new(SC_COMPACT, 1u << 20);
  for (uint64_t i = 0; i < 3000; i++) sc_insert(a, fp_at(i));
  Buf saved;
  buf_init(&saved);
  sc_save(a, &saved);
  uint8_t *p = (uint8_t *)saved.data;
  uint32_t slots;
  memcpy(&slots, p + SLOTS, 4);
  /* A line whose first bucket has a free slot: its last low half is unused. */
  size_t line = TABLE;
  while (line + 64 <= saved.len && (p[line + 63] >> 4 & 7) >= slots) line += 64;
  ck_assert(line + 64 <= saved.len);
  const struct { size_t at; uint8_t flip; } bad[] = {
    { line + 63, 0x80 },                           /* the lock bit */
    { line + 63, 0x70 },                           /* 7 slots used */
    { line + 4 * (slots - 1), 0x01 },              /* in an unused slot */
    { LANE0, 0x01 },                               /* one entry more or less */
  };
  StateCache *b = load_copy(SC_COMPACT, 1u << 20, saved.data, saved.len);
  ck_assert_ptr_nonnull(b);
  sc_free(b);
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    p[bad[i].at] ^= bad[i].flip;
    ck_assert_ptr_null(load_copy(SC_COMPACT, 1u << 20, saved.data, saved.len));
    p[bad[i].at] ^= bad[i].flip;
  }
  buf_fini(&saved);
  sc_free(a);
}
END_TEST

/* A saved cache loads only as its own kind; under another budget (a run
** resumed with another --mem) when its table fits it, holding the same
** fingerprints; a flat or compact table larger than the new budget is
** refused with what to do. */
START_TEST(test_save_other_kind) {
  ScKind kind = kinds[_i];
  StateCache *a = sc_new(kind, 0);
  for (uint64_t i = 0; i < 1000; i++) sc_insert(a, fp_at(i));
  Buf saved;
  buf_init(&saved);
  sc_save(a, &saved);
  for (int k = 0; k < NKINDS; k++) {
    StateCache *b = load_copy(kinds[k], 0, saved.data, saved.len);
    ck_assert((b != NULL) == (kinds[k] == kind));
    sc_free(b);
  }
  uint64_t budgets[] = { 1u << 20, 2u << 20, (1u << 20) + 1, 64u << 20 };
  for (size_t j = 0; j < sizeof budgets / sizeof budgets[0]; j++) {
    StateCache *b = load_copy(kind, budgets[j], saved.data, saved.len);
    ck_assert_ptr_nonnull(b);
    ck_assert_uint_eq(sc_count(b), 1000);
    for (uint64_t i = 0; i < 1000; i++) ck_assert(sc_contains(b, fp_at(i)));
    ck_assert_int_eq(sc_insert(b, fp_at(5000)), SC_NEW);
    sc_free(b);
  }
  buf_fini(&saved);
  sc_free(a);
  if (kind == SC_JUDY) return;   /* no table: a judy cache loads under any budget */
  /* A table grown past 1 MiB does not fit a run given 1 MiB. */
  StateCache *big = sc_new(kind, 64u << 20);
  for (uint64_t i = 0; i < 300000; i++) sc_insert(big, fp_at(i));
  ck_assert_uint_gt(sc_bytes(big), 1u << 20);
  buf_init(&saved);
  sc_save(big, &saved);
  uint8_t *copy = malloc(saved.len);
  memcpy(copy, saved.data, saved.len);
  Buf err;
  buf_init(&err);
  ck_assert_ptr_null(sc_load(kind, 1u << 20, copy, saved.len, &err));
  ck_assert_msg(strstr(err.data, "resume with a larger --mem") != NULL, "%s", err.data);
  buf_fini(&err);
  free(copy);
  buf_fini(&saved);
  sc_free(big);
}
END_TEST

START_TEST(test_collision_probability) {
  ck_assert(sc_collision_probability(0) == 0.0);
  ck_assert(sc_collision_probability(1) == 0.0);
  double p = sc_collision_probability(1000000);   /* about 2.7e-8 */
  ck_assert(p > 2.6e-8 && p < 2.8e-8);
}
END_TEST

/* Lengths 0..2048 cover every XXH3 path (0, 1-3, 4-8, 9-16, 17-128,
** 129-240, long inputs with and without a partial stripe), at offsets 0-7. */
START_TEST(test_state_hash) {
  static unsigned char buf[2048 + 8];
  Rng r;
  rng_seed(&r, 7);
  for (size_t i = 0; i < sizeof buf; i++) buf[i] = (unsigned char)rng_below(&r, 256);
  for (size_t n = 0; n <= 2048; n++) {
    size_t at = n % 8;
    ck_assert_uint_eq(state_hash(buf + at, n), XXH3_64bits(buf + at, n));
  }
}
END_TEST

int main(void) {
  Suite *s = suite_create("statecache");
  TCase *tc = tcase_create("all");
  tcase_set_timeout(tc, 300);
  tcase_add_loop_test(tc, test_new_seen, 0, NKINDS);
  tcase_add_loop_test(tc, test_budget, 0, NKINDS);
  tcase_add_loop_test(tc, test_concurrent, 0, NKINDS);
  tcase_add_loop_test(tc, test_exact_set, 0, 2 * NKINDS);
  tcase_add_loop_test(tc, test_same_remainder, 0, NKINDS);
  tcase_add_loop_test(tc, test_same_low_bits, 0, 2 * NKINDS);
  tcase_add_loop_test(tc, test_growth, 0, NKINDS);
  tcase_add_loop_test(tc, test_count_absent, 0, NKINDS);
  tcase_add_loop_test(tc, test_concurrent_overlap, 0, NKINDS);
  tcase_add_test(tc, test_compact_bytes);
  tcase_add_loop_test(tc, test_compact_four_slots, 0, 2);
  tcase_add_loop_test(tc, test_save_round_trip, 0, NROUND_TRIPS * NKINDS);
  tcase_add_loop_test(tc, test_save_damaged, 0, 2 * NKINDS);
  tcase_add_test(tc, test_save_compact_lines);
  tcase_add_loop_test(tc, test_save_other_kind, 0, NKINDS);
  tcase_add_test(tc, test_collision_probability);
  tcase_add_test(tc, test_state_hash);
  suite_add_tcase(s, tc);
  return run_suite(s);
}
