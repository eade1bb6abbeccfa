/* test_estimate.c: the estimators of checker/observe/estimate.h.
** (a) Eta's tree of executions on trees given by a rule (children of a
**     node from its depth and path): on a balanced tree the estimate is
**     exact after one execution; random executions until every one has
**     been run make it exact on unbalanced trees too, and the tree says it
**     is exhausted; with a tiny node budget (the rest of each execution a
**     Knuth sample) a balanced tree's estimate stays exact.
** (b) Layers: a constant ratio and a ratio falling log-linearly are
**     followed exactly to the next layer; too few layers give no estimate.
** (c) Capture and recapture on a model: with every reachable state in the
**     cache the estimate is the count, with none there is none, with a
**     part it is at least that part.
** (d) Numbers as the summary prints them. */
#include <config.h>
#include "tests/unit/check_main.h"
#include "tests/unit/model.h"
#include "checker/observe/estimate.h"
#include "checker/base/rng.h"
#include "checker/search/search.h"
#include "checker/store/statecache.h"
#include "vm/hash.h"
#include <math.h>

/* A tree given by a rule: the number of children of a node at depth d
** whose path's choices sum to s (0: a leaf). */
typedef struct TreeRow {
  const char *name;
  uint32_t (*kids)(uint32_t d, uint32_t s);
  double leaves;             /* its number of leaves */
  int balanced;
} TreeRow;

static uint32_t bal_2_10(uint32_t d, uint32_t s) { (void)s; return d < 10 ? 2 : 0; }
static uint32_t bal_5_4(uint32_t d, uint32_t s) { (void)s; return d < 4 ? 5 : 0; }
static uint32_t bal_3_30(uint32_t d, uint32_t s) { (void)s; return d < 30 ? 3 : 0; }
/* Depth 3; a node's children: 1 + the sum of its path's choices (mod 3). */
static uint32_t uneven(uint32_t d, uint32_t s) { return d < 3 ? 1 + s % 3 : 0; }
/* A path of choice 0 goes on to depth 6; others stop at once. */
static uint32_t comb(uint32_t d, uint32_t s) { return d < 6 && s == 0 ? 3 : 0; }

/* Leaves of a rule's tree, counted. */
static double count_leaves(uint32_t (*kids)(uint32_t, uint32_t), uint32_t d, uint32_t s) {
  uint32_t k = kids(d, s);
  if (!k) return 1;
  double n = 0;
  for (uint32_t i = 0; i < k; i++) n += count_leaves(kids, d + 1, s + i);
  return n;
}

static const TreeRow trees[] = {
  { "balanced 2^10", bal_2_10, 1024, 1 },
  { "balanced 5^4", bal_5_4, 625, 1 },
  { "balanced 3^30", bal_3_30, 205891132094649.0, 1 },
  { "uneven", uneven, 0, 0 },
  { "comb", comb, 13, 0 },
};

/* One random execution of the rule's tree into t. */
static void run_one(EtaTree *t, const TreeRow *r, Rng *rng) {
  eta_begin(t);
  uint32_t d = 0, s = 0;
  for (uint32_t k; (k = r->kids(d, s)) != 0; d++) {
    uint32_t pick = rng_below(rng, k);
    eta_step(t, k, pick);
    s += pick;
  }
  eta_end(t);
}

START_TEST(test_eta_balanced_one) {
  for (size_t i = 0; i < sizeof trees / sizeof *trees; i++) {
    if (!trees[i].balanced) continue;
    for (uint64_t seed = 1; seed <= 5; seed++) {
      EtaTree *t = eta_new(0);
      Rng rng;
      rng_seed(&rng, seed);
      run_one(t, &trees[i], &rng);
      ck_assert_msg(fabs(eta_log2(t) - log2(trees[i].leaves)) < 1e-9, "%s: 2^%g after one execution",
                    trees[i].name, eta_log2(t));
      ck_assert_uint_eq(eta_distinct(t), 1);
      eta_free(t);
    }
  }
}
END_TEST

START_TEST(test_eta_exhausted_exact) {
  for (size_t i = 0; i < sizeof trees / sizeof *trees; i++) {
    if (trees[i].leaves > 5000) continue;   /* too many executions to run them all */
    double leaves = count_leaves(trees[i].kids, 0, 0);
    if (trees[i].leaves) ck_assert_double_eq(leaves, trees[i].leaves);
    EtaTree *t = eta_new(0);
    Rng rng;
    rng_seed(&rng, 7);
    for (int n = 0; n < 200000 && !eta_exhausted(t); n++) run_one(t, &trees[i], &rng);
    ck_assert_msg(eta_exhausted(t), "%s: never exhausted", trees[i].name);
    ck_assert_msg(fabs(exp2(eta_log2(t)) - leaves) < 1e-6 * leaves, "%s: %g, not %g", trees[i].name,
                  exp2(eta_log2(t)), leaves);
    ck_assert_uint_eq(eta_distinct(t), (uint64_t)leaves);
    eta_free(t);
  }
}
END_TEST

START_TEST(test_eta_budget) {
  /* Four nodes: almost every execution is a Knuth sample, exact on a
  ** balanced tree; never exhausted (the samples are not a complete tree). */
  EtaTree *t = eta_new(4);
  Rng rng;
  rng_seed(&rng, 3);
  for (int n = 0; n < 500; n++) run_one(t, &trees[0], &rng);
  ck_assert(fabs(eta_log2(t) - 10) < 1e-9);
  ck_assert(!eta_exhausted(t));
  ck_assert_uint_eq(eta_executions(t), 500);
  eta_free(t);
}
END_TEST

START_TEST(test_layers) {
  EstLayers l = {0};
  ck_assert(layers_next(&l, 5) < 0);   /* one layer: no ratio */
  layers_add(&l, 1);
  layers_add(&l, 3);
  layers_add(&l, 9);
  ck_assert(fabs(layers_next(&l, 27) - 81) < 1e-6);
  ck_assert(fabs(layers_next(&l, -1) - 27) < 1e-6);
  layers_fini(&l);
  /* Ratios e^(2 - 0.5 i): 1, e^2, e^3.5, e^4.5, e^5 ... */
  double size = 1, lg = 0;
  for (int i = 0; i < 5; i++) {
    layers_add(&l, size);
    lg += 2 - 0.5 * i;
    size = exp(lg);
  }
  double want = size * exp(2 - 0.5 * 5) / size;   /* the next ratio */
  ck_assert(fabs(layers_next(&l, size) / size - want) < 1e-6);
  layers_fini(&l);
}
END_TEST

/* Two machines each sending three pings to a sink: a few hundred states. */
static const char *model_src =
  "event ePing;\n"
  "machine Sink { start state S { on ePing do { } } }\n"
  "machine Pinger {\n"
  "  start state S { entry (s: machine) { var i: int; i = 0; while (i < 3) { send s, ePing; i = i + 1; } } }\n"
  "}\n"
  "machine Main { start state S { entry { var s: machine; s = new Sink(); new Pinger(s); new Pinger(s); } } }\n";

/* Every reachable state of m into c (depth first, all choices). */
static uint64_t enumerate(Model *m, StateCache *c) {
  Vm *vm = vm_new(m->bc, &m->test);
  Buf *stack = NULL;
  uint64_t n = 0, cap = 0, count = 0;
  VmChoices ch = {0};
  Buf b;
  buf_init(&b);
  stack = xrealloc(stack, (cap = 64) * sizeof *stack);
  buf_init(&stack[0]);
  ck_assert_int_eq(vm_initial(vm, &stack[0]), VM_OK);
  sc_insert(c, state_hash(stack[0].data, stack[0].len));
  n = 1;
  count = 1;
  while (n) {
    Buf s = stack[--n];
    if (vm_choices(vm, (const uint8_t *)s.data, s.len, &ch) == VM_OK)
      for (uint32_t k = 0; k < ch.n; k++) {
        b.len = 0;
        if (vm_step(vm, (const uint8_t *)s.data, s.len, ch.kind == VC_MACHINE ? ch.ids[k] : k, &b) != VM_OK) continue;
        if (sc_insert(c, state_hash(b.data, b.len)) != SC_NEW) continue;
        count++;
        if (n == cap) stack = xrealloc(stack, (cap *= 2) * sizeof *stack);
        buf_init(&stack[n]);
        buf_append(&stack[n++], b.data, b.len);
      }
    buf_fini(&s);
  }
  free(stack);
  buf_fini(&b);
  vm_choices_fini(&ch);
  vm_free(vm);
  return count;
}

START_TEST(test_capture) {
  Model m;
  model_load(&m, model_src);
  StateCache *all = sc_new(SC_FLAT, 1 << 24), *none = sc_new(SC_FLAT, 1 << 24);
  uint64_t n = enumerate(&m, all);
  ck_assert_uint_gt(n, 50);
  EstSampler *s = sampler_new(m.bc, &m.test, NULL, 1);
  SearchResult r = {0};
  sampler_update(s, none, 1, 0, 1, &r);   /* nothing of it found: no estimate */
  ck_assert_int_eq(r.est_kind, EST_NONE);
  sampler_update(s, all, n, 1, 1, &r);
  ck_assert_int_eq(r.est_kind, EST_STATES);
  ck_assert_msg(fabs(exp2(r.est_log2) - (double)n) < 1e-6 * (double)n, "%g states, not %llu", exp2(r.est_log2),
                (unsigned long long)n);
  sampler_free(s);
  /* Half the states (those of even fingerprint, as a stand-in for a
  ** search halfway): the estimate is at least the half and near the whole. */
  s = sampler_new(m.bc, &m.test, NULL, 2);
  StateCache *half = sc_new(SC_FLAT, 1 << 24);
  double f;
  uint64_t kept = 0;
  /* Every state met by random walks, keeping those of even fingerprint. */
  {
    StateCache *seen = sc_new(SC_FLAT, 1 << 24);
    Vm *vm = vm_new(m.bc, &m.test);
    Buf a, b;
    buf_init(&a);
    buf_init(&b);
    VmChoices ch = {0};
    Rng rng;
    rng_seed(&rng, 5);
    for (int w = 0; w < 2000; w++) {   /* random walks meet most states of this small model */
      ck_assert_int_eq(vm_initial(vm, &a), VM_OK);
      for (;;) {
        uint64_t fp = state_hash(a.data, a.len);
        if (sc_insert(seen, fp) == SC_NEW && (fp & 1) == 0) { sc_insert(half, fp); kept++; }
        if (vm_choices(vm, (const uint8_t *)a.data, a.len, &ch) != VM_OK || ch.n == 0) break;
        uint32_t k = rng_below(&rng, ch.n);
        b.len = 0;
        if (vm_step(vm, (const uint8_t *)a.data, a.len, ch.kind == VC_MACHINE ? ch.ids[k] : k, &b) != VM_OK) break;
        Buf t = a;
        a = b;
        b = t;
      }
    }
    buf_fini(&a);
    buf_fini(&b);
    vm_choices_fini(&ch);
    vm_free(vm);
    ck_assert_uint_le(sc_count(seen), n);   /* walks meet reachable states only, most of them */
    ck_assert_uint_ge(sc_count(seen) * 10, n * 9);
    sc_free(seen);
  }
  double est = sampler_estimate(s, half, kept, &f);
  ck_assert_double_eq(est, -1);   /* no walk yet */
  for (int k = 0; k < 8; k++) sampler_walk(s, 1e9, 1);   /* 64 walks a call */
  est = sampler_estimate(s, half, kept, &f);
  ck_assert_msg(est >= (double)kept && est < 2.0 * (double)n, "%g from %llu of %llu", est, (unsigned long long)kept,
                (unsigned long long)n);
  ck_assert(f >= 1);
  sampler_free(s);
  sc_free(all);
  sc_free(none);
  sc_free(half);
  model_free(&m);
}
END_TEST

START_TEST(test_format) {
  static const struct { double v; const char *want; } rows[] = {
    { 1, "1" }, { 999, "999" }, { 1000, "1,000" }, { 31416, "31,416" }, { 1234567, "1,234,567" },
    { 2e15, "2e+15" }, { 4.2e40, "4.2e+40" },
  };
  char b[40];
  for (size_t i = 0; i < sizeof rows / sizeof *rows; i++) {
    est_format(b, sizeof b, log2(rows[i].v));
    ck_assert_str_eq(b, rows[i].want);
  }
  est_format(b, sizeof b, 5000);
  ck_assert_str_eq(b, "2^5000");
  ck_assert(fabs(est_fraction(50, log2(200)) - 0.25) < 1e-12);
  ck_assert_double_eq(est_fraction(1, 100), 0);
}
END_TEST

int main(void) {
  Suite *s = suite_create("estimate");
  TCase *tc = tcase_create("all");
  tcase_set_timeout(tc, 120);
  tcase_add_test(tc, test_eta_balanced_one);
  tcase_add_test(tc, test_eta_exhausted_exact);
  tcase_add_test(tc, test_eta_budget);
  tcase_add_test(tc, test_layers);
  tcase_add_test(tc, test_capture);
  tcase_add_test(tc, test_format);
  suite_add_tcase(s, tc);
  return run_suite(s);
}
