/* test_statecache.c: both state caches, row by row: new, seen, growth,
** the budget (replacement and counts), fingerprint 0, and concurrent
** inserts from several threads giving exactly one SC_NEW per fingerprint;
** and the State fingerprint (vm/hash.h, through libxxhash's vector
** dispatcher where it has one) equal to plain XXH3-64 at every length. */
#include <config.h>
#include "tests/unit/check_main.h"
#include <pthread.h>
#include "checker/rng.h"
#include "checker/statecache.h"
#include "vm/hash.h"

static const ScKind kinds[] = { SC_FLAT, SC_JUDY };

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
  tcase_add_loop_test(tc, test_new_seen, 0, 2);
  tcase_add_loop_test(tc, test_budget, 0, 2);
  tcase_add_loop_test(tc, test_concurrent, 0, 2);
  tcase_add_test(tc, test_collision_probability);
  tcase_add_test(tc, test_state_hash);
  suite_add_tcase(s, tc);
  return run_suite(s);
}
