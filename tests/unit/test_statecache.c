/* test_statecache.c: the three state caches (flat, judy, compact), row by
** row: new, seen, growth, the budget (replacement and counts), fingerprint
** 0, exact set semantics (fingerprints one bit apart, in the bits a compact
** table's bucket supplies as in those it stores), the set kept across
** several doublings, sc_count_absent, and concurrent inserts from several
** threads giving exactly one SC_NEW per fingerprint; the compact cache's
** bytes per state; and the State fingerprint (vm/hash.h, through
** libxxhash's vector dispatcher where it has one) equal to plain XXH3-64
** at every length. */
#include <config.h>
#include "tests/unit/check_main.h"
#include <pthread.h>
#include "checker/rng.h"
#include "checker/statecache.h"
#include "checker/sc_compact.h"
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
  tcase_add_test(tc, test_collision_probability);
  tcase_add_test(tc, test_state_hash);
  suite_add_tcase(s, tc);
  return run_suite(s);
}
