/* test_value.c: table-driven tests of the canonical value encodings:
** round trips, canonical order of sets and maps whatever the insertion
** order, collection operations at their bounds, equality/hash agreement,
** float canonicalisation, printing, and refusal of damaged encodings. */
#include <config.h>
#include "tests/unit/check_main.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "vm/value.h"

static ValArena va;

static Value s(const char *x) { return val_string(&va, x, strlen(x)); }

static const char *show(const Value *v) {
  static char out[512];
  Buf b;
  buf_init(&b);
  val_print(&b, v, NULL);
  snprintf(out, sizeof out, "%s", b.data ? b.data : "");
  buf_fini(&b);
  return out;
}

/* Round trip of every kind of value, nested ones included. */
START_TEST(test_round_trip) {
  valarena_init(&va);
  Value pair[2] = { val_int(-5), s("x") };
  Value tup = val_tuple(&va, 0, pair, 2);
  Value seq = val_seq_empty();
  seq = val_seq_append(&va, &seq, &tup);
  Value set = val_set_empty();
  Value three = val_int(3), one = val_int(1);
  set = val_set_add(&va, &set, &three);
  set = val_set_add(&va, &set, &one);
  Value map = val_map_empty();
  map = val_map_put(&va, &map, &one, &set);
  Value rows[] = {
    val_null(), val_bool(1), val_bool(0), val_int(0), val_int(INT64_MIN), val_int(INT64_MAX), val_float(2.5),
    val_event(7), val_machine(3), val_enum(2, -4), s(""), s("hello"), tup, seq, set, map,
  };
  for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
    size_t n = val_enc_size(&rows[i]);
    uint8_t *buf = malloc(n);
    ck_assert_uint_eq(val_encode(&rows[i], buf), n);
    Value back;
    ck_assert_uint_eq(val_decode(buf, n, &back), n);
    ck_assert_msg(val_equal(&back, &rows[i]), "row %zu", i);
    ck_assert_uint_eq(val_hash(&back), val_hash(&rows[i]));
    ck_assert_uint_eq(val_skip(buf), n);
    /* every proper prefix is refused */
    for (size_t k = 0; k < n; k++) ck_assert_msg(val_decode(buf, k, &back) == 0, "row %zu prefix %zu", i, k);
    /* damaged bytes: refused or decoded within bounds, never a crash */
    for (size_t k = 0; k < n; k++) {
      uint8_t *d = malloc(n);
      memcpy(d, buf, n);
      d[k] ^= 0xa5;
      size_t got = val_decode(d, n, &back);
      ck_assert(got <= n);
      free(d);
    }
    free(buf);
  }
  valarena_fini(&va);
}
END_TEST

/* Sets and maps built in every insertion order have the same bytes. */
START_TEST(test_canonical_order) {
  valarena_init(&va);
  Value keys[4] = { s("delta"), val_int(2), s("a"), val_int(-9) };
  int perms[6][4] = { {0, 1, 2, 3}, {3, 2, 1, 0}, {1, 3, 0, 2}, {2, 0, 3, 1}, {1, 0, 3, 2}, {3, 0, 2, 1} };
  Value first_set = {0}, first_map = {0};
  for (int p = 0; p < 6; p++) {
    Value st = val_set_empty(), mp = val_map_empty();
    for (int i = 0; i < 4; i++) {
      Value k = keys[perms[p][i]];
      st = val_set_add(&va, &st, &k);
      st = val_set_add(&va, &st, &k);   /* adding twice changes nothing */
      Value v = val_int(perms[p][i]);
      mp = val_map_put(&va, &mp, &k, &v);
    }
    if (p == 0) { first_set = st; first_map = mp; continue; }
    ck_assert(st.len == first_set.len && memcmp(st.u.p, first_set.u.p, st.len) == 0);
    ck_assert(mp.len == first_map.len && memcmp(mp.u.p, first_map.u.p, mp.len) == 0);
  }
  ck_assert_uint_eq(val_count(&first_set), 4);
  valarena_fini(&va);
}
END_TEST

/* Collection operations, one row each: expected printed result. */
START_TEST(test_operations) {
  valarena_init(&va);
  Value a = val_int(1), b = val_int(2), c = val_int(3), out;
  Value sq = val_seq_empty();
  ck_assert(val_seq_insert(&va, &sq, 0, &b, &sq));
  ck_assert(val_seq_insert(&va, &sq, 0, &a, &sq));
  ck_assert(val_seq_insert(&va, &sq, 2, &c, &sq));
  ck_assert_str_eq(show(&sq), "[1, 2, 3]");
  ck_assert(!val_seq_insert(&va, &sq, 4, &c, &out));
  ck_assert(!val_seq_insert(&va, &sq, -1, &c, &out));
  ck_assert(!val_seq_get(&sq, 3, &out));
  ck_assert(val_seq_set(&va, &sq, 2, &a, &out));
  ck_assert_str_eq(show(&out), "[1, 2, 1]");
  ck_assert(val_seq_remove(&va, &sq, 0, &out));
  ck_assert_str_eq(show(&out), "[2, 3]");
  ck_assert(!val_seq_remove(&va, &sq, 3, &out));
  ck_assert_str_eq(show(&sq), "[1, 2, 3]");   /* values never change in place */
  Value m = val_map_empty();
  Value t = val_bool(1), f = val_bool(0);
  m = val_map_put(&va, &m, &b, &t);
  m = val_map_put(&va, &m, &a, &f);
  m = val_map_put(&va, &m, &b, &f);
  ck_assert_str_eq(show(&m), "{1 -> false, 2 -> false}");
  ck_assert(val_map_get(&m, &a, &out) && out.tag == VT_BOOL && out.u.i == 0);
  ck_assert(!val_map_get(&m, &c, &out));
  Value ks = val_map_keys(&va, &m);
  ck_assert_str_eq(show(&ks), "[1, 2]");
  Value m2 = val_map_remove(&va, &m, &a);
  ck_assert_str_eq(show(&m2), "{2 -> false}");
  ck_assert(val_equal(&(Value){0}, &(Value){0}));
  Value st = val_set_from(&va, (Value[]){ c, a, c, b }, 4);
  ck_assert_str_eq(show(&st), "{1, 2, 3}");
  Value st2 = val_set_remove(&va, &st, &b);
  ck_assert_str_eq(show(&st2), "{1, 3}");
  ck_assert(val_set_has(&st, &b) && !val_set_has(&st2, &b));
  Value tup = val_tuple(&va, 0, (Value[]){ a, s("x") }, 2);
  Value tup2 = val_tuple_set(&va, &tup, 1, &sq);
  ck_assert_str_eq(show(&tup2), "(1, [1, 2, 3])");
  Value one = val_tuple(&va, 0, &a, 1);
  ck_assert_str_eq(show(&one), "(1,)");
  Value hs = s("ab"), hs2 = s("cd");
  Value cc = val_concat(&va, &hs, &hs2);
  ck_assert_str_eq(show(&cc), "abcd");
  valarena_fini(&va);
}
END_TEST

/* Floats: -0.0 is 0.0, every NaN is one NaN; equal values hash equal. */
START_TEST(test_floats) {
  Value z = val_float(0.0), nz = val_float(-0.0), n1 = val_float(NAN), n2 = val_float(-NAN);
  ck_assert(val_equal(&z, &nz) && val_hash(&z) == val_hash(&nz));
  ck_assert(val_equal(&n1, &n2) && val_hash(&n1) == val_hash(&n2));
  Value f = val_float(0.1);
  ck_assert_str_eq(show(&f), "0.1");
  Value g = val_float(2.0);
  ck_assert_str_eq(show(&g), "2");
  ck_assert(val_compare(&z, &f) != 0);
}
END_TEST

int main(void) {
  Suite *su = suite_create("value");
  TCase *tc = tcase_create("all");
  tcase_add_test(tc, test_round_trip);
  tcase_add_test(tc, test_canonical_order);
  tcase_add_test(tc, test_operations);
  tcase_add_test(tc, test_floats);
  suite_add_tcase(su, tc);
  return run_suite(su);
}
