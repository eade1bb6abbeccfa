/* test_ranks.c: the parts of the distributed search that one process can
** check (checker/par/ranks.h, checker/store/tracetree.h); tests/mpi.sh runs the rest
** under mpirun.
** (a) ranks_owner: every fingerprint has an owner in [0, k); the slices
**     are contiguous in the fingerprint's order (owner never falls as fp
**     grows) and even: a million hashed fingerprints split among k ranks
**     give each within 2% of 1/k.
** (b) Without mpirun this process is rank 0 of 1 and the collectives leave
**     values as they are.
** (c) A level (TtLevel) gives back each State's bytes and node.
** (d) Below: a result packed for another rank. */
#include <config.h>
#include "tests/unit/check_main.h"
#include "checker/par/ranks.h"
#include "checker/par/farm.h"
#include "checker/search/search.h"
#include "checker/store/tracetree.h"
#include "vm/hash.h"
#include <string.h>

static const int ks[] = { 1, 2, 3, 4, 7, 16, 100, 1000 };

START_TEST(test_owner_range_order) {
  for (size_t a = 0; a < sizeof ks / sizeof ks[0]; a++) {
    int k = ks[a];
    ck_assert_int_eq(ranks_owner(0, k), 0);
    ck_assert_int_eq(ranks_owner(UINT64_MAX, k), k - 1);
    int last = 0;
    for (uint64_t i = 0; i < 4096; i++) {
      uint64_t fp = i * (UINT64_MAX / 4095);
      int o = ranks_owner(fp, k);
      ck_assert_int_ge(o, last);
      ck_assert_int_lt(o, k);
      last = o;
    }
  }
}
END_TEST

START_TEST(test_owner_even) {
  enum { N = 1000000 };
  for (size_t a = 0; a < sizeof ks / sizeof ks[0] && ks[a] <= 16; a++) {
    int k = ks[a];
    uint64_t count[16] = {0};
    for (uint64_t i = 0; i < N; i++) count[ranks_owner(state_hash(&i, sizeof i), k)]++;
    for (int r = 0; r < k; r++) {
      double share = (double)count[r] * k / N;
      ck_assert_msg(share > 0.98 && share < 1.02, "k=%d rank %d: %.4f of its share", k, r, share);
    }
  }
}
END_TEST

START_TEST(test_alone) {
  ck_assert_int_eq(ranks_me(), 0);
  ck_assert_int_eq(ranks_count(), 1);
  ck_assert_int_eq(ranks_local_count(), 1);
  uint64_t v[3] = { 5, 7, 9 };
  ranks_sum(v, 3);
  ranks_max(v, 3);
  ranks_min(v, 3);
  ck_assert(v[0] == 5 && v[1] == 7 && v[2] == 9);
  ck_assert_ptr_nonnull(strstr(ranks_build(), "distributed search: "));
}
END_TEST

/* The farm on one rank: rank 0 runs every item itself, results come in
** the order of the items, a dropped item is never run, a failure of work
** fails the take, and the max bytes stay rank 0's. */
static int runs;
static int square(void *ctx, const uint8_t *item, size_t n, Buf *out) {
  (void)ctx;
  uint64_t v;
  if (n != sizeof v) return -1;
  memcpy(&v, item, sizeof v);
  runs++;
  if (v == 99) return -1;
  v *= v;
  buf_append(out, &v, sizeof v);
  return 0;
}

START_TEST(test_farm_alone) {
  static const struct { uint64_t in[6]; int n, take, fail_at; } cases[] = {
    { { 1, 2, 3 }, 3, 3, -1 },
    { { 5, 6, 7, 8, 9, 10 }, 6, 2, -1 },   /* four dropped */
    { { 4, 99, 5 }, 3, 3, 1 },             /* the second fails */
  };
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
    uint8_t cov[3] = { 0, 1, 0 };
    Farm *f = farm_new(square, NULL, cov, sizeof cov, 1);
    runs = 0;
    for (int i = 0; i < cases[c].n; i++) ck_assert_uint_eq(farm_add(f, &cases[c].in[i], 8), (uint64_t)i);
    ck_assert_uint_eq(farm_pending(f), (uint64_t)cases[c].n);
    for (int i = 0; i < cases[c].take; i++) {
      const uint8_t *out;
      size_t n;
      int rc = farm_take(f, &out, &n);
      if (i == cases[c].fail_at) { ck_assert_int_eq(rc, -1); break; }
      ck_assert_int_eq(rc, 0);
      uint64_t v;
      ck_assert_uint_eq(n, 8);
      memcpy(&v, out, 8);
      ck_assert_uint_eq(v, cases[c].in[i] * cases[c].in[i]);
    }
    farm_drop(f);
    ck_assert_uint_eq(farm_pending(f), 0);
    FarmStats st;
    farm_end(f, &st);
    ck_assert_uint_eq(st.items, (uint64_t)cases[c].n);
    ck_assert_uint_eq(st.remote, 0);
    ck_assert_int_eq(st.lost, 0);
    ck_assert_int_le(runs, cases[c].take);   /* dropped items were not run */
    ck_assert_uint_eq(cov[1], 1);
    farm_free(f);
  }
}
END_TEST

/* Items of about 20 ms of one rank's work, within [1, 4096]. */
START_TEST(test_farm_item_units) {
  static const struct { uint64_t done; double seconds; int k; uint64_t want; } cases[] = {
    { 0, 1.0, 2, 1 },            /* nothing seen yet: one */
    { 1000, 0.0, 1, 1 },
    { 1000, 1.0, 1, 20 },        /* 1,000 a second: 20 in 20 ms */
    { 1000, 1.0, 2, 10 },        /* by two ranks: 500 a second each */
    { 10, 1.0, 1, 1 },           /* slow executions: at least one */
    { 1000000000, 1.0, 1, 4096 },
  };
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++)
    ck_assert_uint_eq(farm_item_units(cases[c].done, cases[c].seconds, cases[c].k), cases[c].want);
}
END_TEST

START_TEST(test_level) {
  TtLevel l;
  memset(&l, 0, sizeof l);
  char s[64];
  for (uint64_t i = 0; i < 3000; i++) {
    memset(s, (int)(i % 251), sizeof s);
    tt_level_push(&l, i * 3, (const uint8_t *)s, (size_t)(i % 60) + 1);
  }
  ck_assert_uint_eq(l.n, 3000);
  for (uint64_t i = 0; i < 3000; i++) {
    size_t len;
    const uint8_t *b = tt_level_state(&l, i, &len);
    ck_assert_uint_eq(len, (size_t)(i % 60) + 1);
    ck_assert_uint_eq(l.node[i], i * 3);
    for (size_t j = 0; j < len; j++) ck_assert_int_eq(b[j], (int)(i % 251));
  }
  tt_level_fini(&l);
}
END_TEST

/* (d) A result packed for another rank (search_result_pack) reads back
**     the same: figures, bug (its file as the program's own string),
**     error and bound texts, trace; every truncation of the bytes is
**     refused, as is a file number the program does not have. */
static const char *const files[] = { "models/a.p", "models/b.p" };

typedef struct PackRow {
  const char *name;
  int bug, complete;
  const char *error, *bound, *message;
  int file;                  /* index into files, or -1: none */
  uint64_t ntrace;
} PackRow;

static const PackRow pack_rows[] = {
  { "a bug with a trace", 1, 0, NULL, NULL, "assertion failed: x", 1, 40 },
  { "a bug at the initial state", 1, 0, NULL, NULL, "deadlock", -1, 0 },
  { "the explorer failed", 0, 0, "explorer 'E' is unsound", NULL, NULL, -1, 3 },
  { "bounded", 0, 0, NULL, "timeout at delay bound 4", NULL, -1, 0 },
  { "complete", 0, 1, NULL, NULL, NULL, -1, 0 },
};

START_TEST(test_result_pack) {
  BcProgram bc;
  memset(&bc, 0, sizeof bc);
  bc.nfiles = 2;
  bc.files = (const char **)files;
  for (size_t i = 0; i < sizeof pack_rows / sizeof pack_rows[0]; i++) {
    const PackRow *w = &pack_rows[i];
    SearchResult r = {0};
    r.bug = w->bug;
    r.complete = w->complete;
    r.error = w->error ? xstrdup(w->error) : NULL;
    r.bound = w->bound ? xstrdup(w->bound) : NULL;
    r.bugdesc.message = w->message ? xstrdup(w->message) : NULL;
    r.bugdesc.status = w->bug ? VM_BUG_ASSERT : VM_OK;
    char copy[32];   /* the same path at another address, as another rank's would be */
    if (w->file >= 0) snprintf(copy, sizeof copy, "%s", files[w->file]);
    r.bugdesc.file = w->file >= 0 ? copy : NULL;
    r.bugdesc.line = 17;
    r.bugdesc.col = 3;
    if (w->bug || w->error) {
      r.trace = xmalloc((size_t)(w->ntrace + 1) * sizeof *r.trace);
      for (uint64_t j = 0; j < w->ntrace; j++) r.trace[j] = (TraceChoice){ (uint8_t)(j & 1), (uint32_t)(j * 7) };
      r.ntrace = w->ntrace;
    }
    r.states = 12345 + i;
    r.transitions = 999999;
    r.executions = 77;
    r.max_depth = 41;
    r.delays = 4;
    r.est_kind = EST_STATES;
    r.est_log2 = 20.5;
    r.ranks = 3;
    r.dist_note = "static";
    Buf b;
    buf_init(&b);
    search_result_pack(&r, &bc, &b);
    SearchResult u;
    ck_assert_msg(search_result_unpack((const uint8_t *)b.data, b.len, &bc, &u) == 0, "%s", w->name);
    ck_assert_int_eq(u.bug, w->bug);
    ck_assert_int_eq(u.complete, w->complete);
    ck_assert_uint_eq(u.states, 12345 + i);
    ck_assert_uint_eq(u.transitions, 999999);
    ck_assert_uint_eq(u.executions, 77);
    ck_assert_uint_eq(u.delays, 4);
    ck_assert_int_eq(u.est_kind, EST_STATES);
    ck_assert(u.est_log2 == 20.5);
    ck_assert_uint_eq(u.bugdesc.line, 17);
    ck_assert_ptr_null(u.dist_note);
    if (w->error) ck_assert_str_eq(u.error, w->error); else ck_assert_ptr_null(u.error);
    if (w->bound) ck_assert_str_eq(u.bound, w->bound); else ck_assert_ptr_null(u.bound);
    if (w->message) ck_assert_str_eq(u.bugdesc.message, w->message); else ck_assert_ptr_null(u.bugdesc.message);
    if (w->file >= 0) ck_assert_ptr_eq(u.bugdesc.file, files[w->file]); else ck_assert_ptr_null(u.bugdesc.file);
    ck_assert_uint_eq(u.ntrace, w->ntrace);
    if (w->bug || w->error) ck_assert_ptr_nonnull(u.trace);
    for (uint64_t j = 0; j < w->ntrace; j++) {
      ck_assert_int_eq(u.trace[j].kind, (int)(j & 1));
      ck_assert_uint_eq(u.trace[j].value, j * 7);
    }
    search_result_fini(&u);
    for (size_t cut = 0; cut < b.len; cut++) {
      SearchResult t;
      ck_assert_msg(search_result_unpack((const uint8_t *)b.data, cut, &bc, &t) != 0, "%s cut at %zu", w->name, cut);
    }
    bc.nfiles = 1;   /* a program without the file the bug names */
    if (w->file == 1) ck_assert(search_result_unpack((const uint8_t *)b.data, b.len, &bc, &u) != 0);
    bc.nfiles = 2;
    buf_fini(&b);
    r.dist_note = NULL;
    search_result_fini(&r);
  }
}
END_TEST

int main(void) {
  Suite *s = suite_create("ranks");
  TCase *tc = tcase_create("all");
  tcase_set_timeout(tc, 120);
  tcase_add_test(tc, test_owner_range_order);
  tcase_add_test(tc, test_owner_even);
  tcase_add_test(tc, test_alone);
  tcase_add_test(tc, test_level);
  tcase_add_test(tc, test_farm_alone);
  tcase_add_test(tc, test_farm_item_units);
  tcase_add_test(tc, test_result_pack);
  suite_add_tcase(s, tc);
  return run_suite(s);
}
