/* test_reduce.c: partial-order reduction (checker/reduce.c,
** doc/reduction.md) against the plain search.
** (a) red_select on hand-made situations: what must be chosen together,
**     what may be left out (table-driven, on small programs).
** (b) The differential test: REDUCE_MODELS random P models (default
**     10,000) from tests/gen/genmodel.c, each searched exhaustively by dfs
**     with and without the reduction, both with --keep-going, which must
**     agree on whether a bug is reachable, on every place a bug happens
**     (kind and location; the spec of a hot cycle), and on the set of
**     reachable local states (vm_local_states: every spec's and machine's
**     record without its inbox); the reduced search must not enter more
**     states.  bfs, pb and ses (rtc, rr, prr by seed) with the reduction
**     must agree on the verdict (bfs and pb: on safety bugs, which they
**     check alone) and, when there is no bug, on the local states.  An
**     oracle stepping every State afresh (vm_step) must agree with dfs
**     without the reduction.  A disagreement writes the
**     model to reduce-fail-SEED.p and fails with what differs.
**     REDUCE_SEED sets the first seed (default 1). */
#include <config.h>
#include "tests/unit/check_main.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "checker/explorer.h"
#include "checker/reduce.h"
#include "checker/search.h"
#include "lang/codegen.h"
#include "lang/frontend.h"
#include "lang/sema.h"
#include "lang/testcases.h"
#include "parser/parse.h"
#include "vm/hash.h"
#include "tests/unit/model.h"

int genmodel(uint64_t seed, char *buf, size_t cap);

/* ---- A set of 64-bit hashes (open addressing; 0 stands for itself by
** a flag) ---- */

typedef struct HSet {
  uint64_t *slot;
  uint64_t cap, n;
  int has_zero;
} HSet;

static void hs_add(HSet *h, uint64_t k) {
  if (!k) { h->has_zero = 1; return; }
  if ((h->n + 1) * 2 > h->cap) {
    HSet g = { xcalloc(h->cap ? h->cap * 2 : 1024, 8), h->cap ? h->cap * 2 : 1024, 0, h->has_zero };
    for (uint64_t i = 0; i < h->cap; i++) if (h->slot[i]) hs_add(&g, h->slot[i]);
    free(h->slot);
    *h = g;
  }
  uint64_t i = k & (h->cap - 1);
  while (h->slot[i] && h->slot[i] != k) i = (i + 1) & (h->cap - 1);
  if (!h->slot[i]) { h->slot[i] = k; h->n++; }
}

static int hs_has(const HSet *h, uint64_t k) {
  if (!k) return h->has_zero;
  if (!h->cap) return 0;
  uint64_t i = k & (h->cap - 1);
  while (h->slot[i]) {
    if (h->slot[i] == k) return 1;
    i = (i + 1) & (h->cap - 1);
  }
  return 0;
}

static uint64_t hs_count(const HSet *h) { return h->n + (uint64_t)h->has_zero; }
static void hs_free(HSet *h) { free(h->slot); memset(h, 0, sizeof *h); }

/* Every element of a in b. */
static int hs_subset(const HSet *a, const HSet *b) {
  if (a->has_zero && !b->has_zero) return 0;
  for (uint64_t i = 0; i < a->cap; i++)
    if (a->slot[i] && !hs_has(b, a->slot[i])) return 0;
  return 1;
}

/* ---- One search, and what it saw ---- */

typedef struct Seen {
  Vm *vm;                    /* for vm_local_states (the model's program and test) */
  Buf scratch;
  HSet local;                /* hashes of (record index, local state bytes) */
} Seen;

static void on_local(void *ctx, uint32_t index, const uint8_t *b, size_t n) {
  Seen *s = ctx;
  hs_add(&s->local, state_hash(b, n) ^ (0x9e3779b97f4a7c15ull * (index + 1)));
}

static void on_visit(void *ctx, const uint8_t *st, size_t len) {
  Seen *s = ctx;
  vm_local_states(s->vm, st, len, &s->scratch, on_local, s);
}

typedef struct Run {
  SearchResult res;
  Seen seen;
} Run;

/* Search m's test with ops, reduced or not, keeping every local state;
** ses with the native explorer ex (EXN_RTC, EXN_RR, EXN_PRR). */
static void run_search_ex(const Model *m, const SearchOps *ops, int reduce, int keep_going, int ex, Run *r);
static void run_search(const Model *m, const SearchOps *ops, int reduce, int keep_going, Run *r) {
  run_search_ex(m, ops, reduce, keep_going, EXN_RTC, r);
}
static void run_search_ex(const Model *m, const SearchOps *ops, int reduce, int keep_going, int ex, Run *r) {
  memset(r, 0, sizeof *r);
  r->seen.vm = vm_new(m->bc, &m->test);
  buf_init(&r->seen.scratch);
  SearchOptions o;
  memset(&o, 0, sizeof o);
  o.max_steps = -1;
  o.schedules = -1;
  o.mem = 64u << 20;
  o.frontier_mem = 256u << 20;
  o.cache_kind = SC_FLAT;
  o.max_bound = -1;
  o.max_delays = -1;
  o.jobs = 1;
  o.temperature = -1;
  o.timeout = 60;
  o.no_reduction = !reduce;
  o.keep_going = keep_going;
  o.explorer = ex == EXN_RR ? "rr" : ex == EXN_PRR ? "prr" : "rtc";
  o.explorer_native = ex;
  o.visit = on_visit;
  o.visit_ctx = &r->seen;
  static FILE *quiet;   /* the searches' log lines (ses's "bug found at ...") */
  if (!quiet) quiet = fopen("/dev/null", "w");
  ck_assert_ptr_nonnull(quiet);
  ck_assert_int_eq(ops->run(m->bc, &m->test, &o, quiet, &r->res), 0);
}

static void run_free(Run *r) {
  search_result_fini(&r->res);
  vm_free(r->seen.vm);
  buf_fini(&r->seen.scratch);
  hs_free(&r->seen.local);
}

/* The oracle: every State reachable from the initial one, by the plainest
** means (vm_choices, then vm_step on a freshly loaded State for every
** choice; a failing step has no successor), recording local states into
** seen.  Returns the number of States (0 if more than max). */
static uint64_t naive_states(const Model *m, Seen *seen, uint64_t max) {
  Vm *vm = vm_new(m->bc, &m->test);
  HSet all = {0};
  Buf *queue = xmalloc(sizeof *queue);
  uint64_t n = 0, cap = 1, head = 0;
  VmChoices ch = {0};
  buf_init(&queue[0]);
  if (vm_initial(vm, &queue[0]) == VM_OK) n = 1;
  if (n) {
    hs_add(&all, state_hash(queue[0].data, queue[0].len));
    on_visit(seen, (uint8_t *)queue[0].data, queue[0].len);
  }
  while (head < n && n <= max) {
    uint64_t qi = head++;
    if (vm_choices(vm, (uint8_t *)queue[qi].data, queue[qi].len, &ch) != VM_OK) continue;
    for (uint32_t j = 0; j < ch.n; j++) {
      Buf t;
      buf_init(&t);
      VmStatus st = vm_step(vm, (uint8_t *)queue[qi].data, queue[qi].len, ch.kind == VC_MACHINE ? ch.ids[j] : j, &t);
      uint64_t th = st == VM_OK ? state_hash(t.data, t.len) : 0;
      if (st != VM_OK || hs_has(&all, th)) { buf_fini(&t); continue; }
      hs_add(&all, th);
      on_visit(seen, (uint8_t *)t.data, t.len);
      if (n == cap) {
        cap *= 2;
        queue = xrealloc(queue, cap * sizeof *queue);
      }
      queue[n++] = t;
    }
  }
  uint64_t total = n > max ? 0 : n;
  for (uint64_t i = 0; i < n; i++) buf_fini(&queue[i]);
  if (!n) buf_fini(&queue[0]);
  free(queue);
  vm_choices_fini(&ch);
  hs_free(&all);
  vm_free(vm);
  return total;
}

/* The bug places of r, one line each, sorted (for comparing and printing). */
static int site_cmp(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }
static char *places(const SearchResult *r) {
  char **lines = xcalloc(r->nsites + 1, sizeof *lines);
  for (uint32_t i = 0; i < r->nsites; i++) {
    Buf b;
    buf_init(&b);
    const BugSite *x = &r->sites[i];
    buf_printf(&b, "%s %s:%u:%u", vm_status_name(x->status), x->file ? x->file : "-", x->line, x->col);
    lines[i] = buf_take(&b);
  }
  qsort(lines, r->nsites, sizeof *lines, site_cmp);
  Buf all;
  buf_init(&all);
  for (uint32_t i = 0; i < r->nsites; i++) {
    buf_printf(&all, "%s; ", lines[i]);
    free(lines[i]);
  }
  free(lines);
  if (!all.len) buf_puts(&all, "none");
  return buf_take(&all);
}

/* ---- (a) red_select on hand-made states ---- */

/* The initial state of src stepped by Main (id 0) as long as it can run,
** then by each other machine once (their start entries), then
** red_select over the enabled machines: the chosen ids as a bitmask. */
static uint64_t selected(const char *src, uint64_t *enabled) {
  Model m;
  model_load(&m, src);
  ck_assert_msg(m.ok, "the program does not compile");
  Vm *vm = vm_new(m.bc, &m.test);
  Buf s, t;
  buf_init(&s);
  buf_init(&t);
  ck_assert_int_eq(vm_initial(vm, &s), VM_OK);
  VmChoices ch = {0};
  for (uint32_t next = 0, started = 0;;) {
    ck_assert_int_eq(vm_choices(vm, (uint8_t *)s.data, s.len, &ch), VM_OK);
    uint32_t pick = UINT32_MAX;
    for (uint32_t j = 0; j < ch.n; j++)
      if (ch.ids[j] == next) pick = next;
    if (pick == UINT32_MAX) {   /* Main is done: start the others, each once */
      if (started) break;
      started = 1;
      uint32_t n = ch.nmachines;
      for (uint32_t id = 1; id < n; id++) {
        t.len = 0;
        ck_assert_int_eq(vm_step(vm, (uint8_t *)s.data, s.len, id, &t), VM_OK);
        Buf x = s;
        s = t;
        t = x;
      }
      continue;
    }
    t.len = 0;
    ck_assert_int_eq(vm_step(vm, (uint8_t *)s.data, s.len, pick, &t), VM_OK);
    Buf x = s;
    s = t;
    t = x;
  }
  ck_assert_int_eq(vm_choices(vm, (uint8_t *)s.data, s.len, &ch), VM_OK);
  ck_assert_int_eq(ch.kind, VC_MACHINE);
  VmFootprint *foot = xcalloc(ch.n, sizeof *foot);
  for (uint32_t j = 0; j < ch.n; j++) {
    t.len = 0;
    ck_assert_int_eq(vm_step(vm, (uint8_t *)s.data, s.len, ch.ids[j], &t), VM_OK);
    foot[j] = *vm_footprint(vm);
  }
  Reduction *red = red_new(m.bc, &m.test, 0);
  RedScratch rs = {0};
  uint8_t *sel = xcalloc(ch.n, 1);
  red_select(red, &rs, vm, (uint8_t *)s.data, s.len, &ch, foot, sel);
  uint64_t out = 0;
  *enabled = 0;
  for (uint32_t j = 0; j < ch.n; j++) {
    *enabled |= 1ull << ch.ids[j];
    if (sel[j]) out |= 1ull << ch.ids[j];
  }
  free(sel);
  red_scratch_fini(&rs);
  red_free(red);
  free(foot);
  vm_choices_fini(&ch);
  buf_fini(&s);
  buf_fini(&t);
  vm_free(vm);
  model_free(&m);
  return out;
}

/* Main (id 0) creates two workers (1, 2) and sends each a start event;
** what each then does is the case's.  After Main's first step (it runs
** its entry, creating and sending), 1 and 2 are enabled, Main too if it
** has something queued. */
typedef struct SelCase {
  const char *name;
  const char *worker_a;      /* the body of worker A's eGo handler (it knows main as `m`, B as `peer`) */
  const char *worker_b;      /* the same for B */
  const char *spec;          /* a spec declaration, or "" */
  int alone;                 /* 1: one of A, B may be explored alone; 0: both are needed */
} SelCase;

static const SelCase sel_cases[] = {
  /* A local step is a persistent set by itself. */
  {"independent counters", "x = x + 1;", "x = x + 2;", "", 1},
  {"one sends, one local", "send m, eDone;", "x = 2;", "", 1},
  /* Both append to Main's inbox: their order is seen. */
  {"both send to main", "send m, eDone;", "send m, eDone;", "", 0},
  /* Each sends to the other: each append goes behind the event the other
  ** takes now (eGo, at the head), so the two steps commute; what follows
  ** is the next state's choice (the refinement of doc/reduction.md). */
  {"send to each other", "send peer, eDone;", "send peer, eDone;", "", 1},
  /* Both append to A's inbox (A to itself, B to its peer A). */
  {"both send to A", "send this, eDone;", "send peer, eDone;", "", 0},
  /* One spec observes both: it sees their order. */
  {"both observed by one spec", "announce eSeen;", "announce eSeen;",
   "spec S observes eSeen { start state I { on eSeen do {} } }", 0},
  {"one observed, one local", "announce eSeen;", "x = 3;", "spec S observes eSeen { start state I { on eSeen do {} } }", 1},
  /* Creations take the next machine id: both create, the ids differ. */
  {"both create", "new Leaf();", "new Leaf();", "", 0},
  {"one creates, one local", "new Leaf();", "x = 1;", "", 1},
};

static char *sel_program(const SelCase *c) {
  Buf b;
  buf_init(&b);
  buf_printf(&b,
             "event eGo : (m: machine, peer: machine); event eDone; event eSeen;\n"
             "%s\n"
             "machine Leaf { start state I { } }\n"
             "machine A { var x: int; var m: machine; var peer: machine;\n"
             "  start state I { on eGo do (p: (m: machine, peer: machine)) { m = p.m; peer = p.peer; %s } on eDone do {} } }\n"
             "machine B { var x: int; var m: machine; var peer: machine;\n"
             "  start state I { on eGo do (p: (m: machine, peer: machine)) { m = p.m; peer = p.peer; %s } on eDone do {} } }\n"
             "machine Main { start state I { entry { var a: machine; var b: machine;\n"
             "  a = new A(); b = new B(); send a, eGo, (m = this, peer = b); send b, eGo, (m = this, peer = a); }\n"
             "  on eDone do {} } }\n"
             "test tc [main=Main]: %s{ Main, A, B, Leaf };\n",
             c->spec, c->worker_a, c->worker_b, *c->spec ? "assert S in " : "");
  return buf_take(&b);
}

START_TEST(test_select_table) {
  const SelCase *c = &sel_cases[_i];
  char *src = sel_program(c);
  /* Main's entry, then A and B started (their entries, empty): both
  ** then have eGo at the head of their inbox. */
  uint64_t enabled;
  uint64_t sel = selected(src, &enabled);
  uint64_t ab = (1ull << 1) | (1ull << 2);
  ck_assert_msg((enabled & ab) == ab, "%s: A and B are not both enabled", c->name);
  ck_assert_msg(sel != 0, "%s: nothing chosen", c->name);
  if (c->alone) ck_assert_msg((sel & ab) != ab, "%s: A and B both chosen (%llx)", c->name, (unsigned long long)sel);
  else ck_assert_msg((sel & ab) == ab || sel == enabled, "%s: only %llx chosen", c->name, (unsigned long long)sel);
  free(src);
}
END_TEST

/* ---- (b) the differential test ---- */

/* 1 if the model of seed agrees (or does not compile: counted apart). */
static int check_text(uint64_t seed, char *src, uint64_t *counts);
static int check_model(uint64_t seed, char *src, size_t cap, uint64_t *counts) {
  ck_assert_int_ge(genmodel(seed, src, cap), 0);
  return check_text(seed, src, counts);
}

/* 1 if model src (of seed) agrees. */
static int check_text(uint64_t seed, char *src, uint64_t *counts) {
  Model m;
  model_load(&m, src);
  if (!m.ok) {
    model_free(&m);
    counts[0]++;
    char name[64];
    snprintf(name, sizeof name, "reduce-fail-%llu.p", (unsigned long long)seed);
    FILE *f = fopen(name, "w");
    if (f) { fputs(src, f); fclose(f); }
    ck_abort_msg("seed %llu: the generated model does not compile (%s)", (unsigned long long)seed, name);
  }
  Run full, red, bfs, ses, pb;
  Seen oracle = { vm_new(m.bc, &m.test), {0}, {0} };
  buf_init(&oracle.scratch);
  uint64_t nor = naive_states(&m, &oracle, 200000);
  run_search(&m, &search_dfs, 0, 1, &full);
  run_search(&m, &search_dfs, 1, 1, &red);
  run_search(&m, &search_bfs, 1, 0, &bfs);
  static const int exs[] = {EXN_RTC, EXN_RR, EXN_PRR};
  run_search_ex(&m, &search_ses, 1, 0, exs[seed % 3], &ses);
  run_search(&m, &search_pb, 1, 0, &pb);
  Buf why;
  buf_init(&why);
  char *pf = places(&full.res), *pr = places(&red.res);
  if (!full.res.complete && !full.res.bug) counts[1]++;   /* too big: not compared */
  else {
    if (nor && (nor != full.res.states || !hs_subset(&oracle.local, &full.seen.local) ||
                !hs_subset(&full.seen.local, &oracle.local)))
      buf_printf(&why, "dfs without reduction: %llu states, %llu local states; every State by vm_step: %llu, %llu; ",
                 (unsigned long long)full.res.states, (unsigned long long)hs_count(&full.seen.local),
                 (unsigned long long)nor, (unsigned long long)hs_count(&oracle.local));
    if (full.res.bug != red.res.bug) buf_printf(&why, "bug reachable: %d without, %d with reduction; ", full.res.bug, red.res.bug);
    if (strcmp(pf, pr) != 0) buf_printf(&why, "bug places without: %s with: %s; ", pf, pr);
    if (!hs_subset(&full.seen.local, &red.seen.local) || !hs_subset(&red.seen.local, &full.seen.local))
      buf_printf(&why, "local states: %llu without, %llu with reduction; ", (unsigned long long)hs_count(&full.seen.local),
                 (unsigned long long)hs_count(&red.seen.local));
    if (red.res.states > full.res.states)
      buf_printf(&why, "more states with reduction (%llu > %llu); ", (unsigned long long)red.res.states,
                 (unsigned long long)full.res.states);
    /* bfs checks no hot cycles and stops at its first bug: the verdict on
    ** the other bugs; without one, the states. */
    int safety = 0;
    for (uint32_t i = 0; i < full.res.nsites; i++) safety |= full.res.sites[i].status != VM_BUG_HOT_CYCLE;
    if (safety != bfs.res.bug) buf_printf(&why, "bfs with reduction: bug %d, dfs without: %d; ", bfs.res.bug, safety);
    else if (!safety && (!hs_subset(&full.seen.local, &bfs.seen.local) || !hs_subset(&bfs.seen.local, &full.seen.local)))
      buf_printf(&why, "bfs with reduction: %llu local states, dfs without: %llu; ",
                 (unsigned long long)hs_count(&bfs.seen.local), (unsigned long long)hs_count(&full.seen.local));
    /* pb, as bfs. */
    if (safety != pb.res.bug) buf_printf(&why, "pb with reduction: bug %d, dfs without: %d; ", pb.res.bug, safety);
    else if (!safety && (!hs_subset(&full.seen.local, &pb.seen.local) || !hs_subset(&pb.seen.local, &full.seen.local)))
      buf_printf(&why, "pb with reduction: %llu local states, dfs without: %llu; ",
                 (unsigned long long)hs_count(&pb.seen.local), (unsigned long long)hs_count(&full.seen.local));
    /* ses (an explorer by seed) likewise; it also checks hot cycles. */
    if (full.res.bug != ses.res.bug)
      buf_printf(&why, "ses with reduction: bug %d, dfs without: %d; ", ses.res.bug, full.res.bug);
    else if (!full.res.bug && (!hs_subset(&full.seen.local, &ses.seen.local) || !hs_subset(&ses.seen.local, &full.seen.local)))
      buf_printf(&why, "ses with reduction: %llu local states, dfs without: %llu; ",
                 (unsigned long long)hs_count(&ses.seen.local), (unsigned long long)hs_count(&full.seen.local));
    counts[2]++;
    counts[3] += full.res.bug;
    counts[4] += full.res.states;
    counts[5] += red.res.states;
  }
  int ok = why.len == 0;
  if (!ok) {
    buf_printf(&why, "(without: %s; with: %s)", full.res.complete ? "complete" : full.res.bound ? full.res.bound : "bug",
               red.res.complete ? "complete" : red.res.bound ? red.res.bound : "bug");
    char name[64];
    snprintf(name, sizeof name, "reduce-fail-%llu.p", (unsigned long long)seed);
    FILE *f = fopen(name, "w");
    if (f) { fputs(src, f); fclose(f); }
    fprintf(stderr, "seed %llu (%s): %s\n", (unsigned long long)seed, name, why.data);
  }
  free(pf);
  free(pr);
  buf_fini(&why);
  run_free(&full);
  run_free(&red);
  run_free(&bfs);
  run_free(&ses);
  run_free(&pb);
  vm_free(oracle.vm);
  buf_fini(&oracle.scratch);
  hs_free(&oracle.local);
  model_free(&m);
  return ok;
}

START_TEST(test_differential) {
  const char *e = getenv("REDUCE_MODELS"), *s0 = getenv("REDUCE_SEED"), *file = getenv("REDUCE_FILE");
  if (file && *file) {   /* a model of one's own (a seed's written earlier, edited) */
    FILE *f = fopen(file, "r");
    ck_assert_ptr_nonnull(f);
    static char text[1 << 20];
    size_t k = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[k] = 0;
    uint64_t c[6] = {0};
    ck_assert(check_text(0, text, c));
    return;
  }
  uint64_t n = e && *e ? strtoull(e, NULL, 10) : 10000, first = s0 && *s0 ? strtoull(s0, NULL, 10) : 1;
  size_t cap = 1 << 20;
  char *src = xmalloc(cap);
  uint64_t counts[6] = {0}, bad = 0;
  for (uint64_t seed = first; seed < first + n; seed++) bad += !check_model(seed, src, cap, counts);
  printf("# reduction differential: %llu models, %llu compared (%llu with a bug), %llu too big; states %llu without, "
         "%llu with reduction; %llu disagree\n",
         (unsigned long long)n, (unsigned long long)counts[2], (unsigned long long)counts[3],
         (unsigned long long)counts[1], (unsigned long long)counts[4], (unsigned long long)counts[5],
         (unsigned long long)bad);
  free(src);
  ck_assert_msg(bad == 0, "%llu of %llu models disagree (see stderr)", (unsigned long long)bad, (unsigned long long)n);
  ck_assert_msg(counts[1] * 20 <= n, "%llu of %llu models too big to compare", (unsigned long long)counts[1],
                (unsigned long long)n);
}
END_TEST

int main(void) {
  Suite *s = suite_create("reduce");
  TCase *tc = tcase_create("reduce");
  tcase_set_timeout(tc, 0);
  tcase_add_loop_test(tc, test_select_table, 0, (int)(sizeof sel_cases / sizeof sel_cases[0]));
  tcase_add_test(tc, test_differential);
  suite_add_tcase(s, tc);
  return run_suite(s);
}
