/* test_reduce.c: partial-order reduction (checker/engine/reduce.c,
** doc/reduction.md) against the plain search.
** (a) red_select on hand-made situations: what must be chosen together,
**     what may be left out (table-driven, on small programs).
** (b) The differential test: REDUCE_MODELS random P models (default
**     10,000; REDUCE_SEED the first seed, default 1) from
**     tests/gen/genmodel.c, each checked with the inbox bound its line
**     `// max-inbox: N` names (the CLI's defaults for the other limits),
**     and the models of tests/reduce/ (REDUCE_FILE: one file instead).
**     Each is searched with and without the reduction by dfs --keep-going
**     (without the reduction: the reference), dfs, bfs, ses (rtc, rr, prr
**     by seed) and pb, these on one thread and on two (two: one seed in
**     REDUCE_THREADS_EVERY, default 4; dfs with the reduction runs on one
**     thread whatever -j says).  Every search has a budget (States
**     visited: REDUCE_BUDGET_PLAIN, default 200,000, for a model without
**     extras, which is finite; REDUCE_BUDGET, default 1,000, and
**     REDUCE_BUDGET_BYTES, default 512 KiB of them, with extras, whose
**     state space may be infinite), so that every run ends.  What must
**     hold:
**     - a search that completes without a bug, where any other found a
**       bug of a kind it checks (bfs and pb check no hot cycles): the
**       failure hunted above all (a reduced search claiming "complete"
**       where the unreduced one finds a bug);
**     - where the reference completes: every bug found is at one of its
**       places; the reduced dfs --keep-going has the same places, in no
**       more states (without completing, the places of one are among the
**       places of a complete one);
**     - every search's observable local states (vm_local_states: every
**       spec's and machine's record without its inbox) are among those of
**       a complete search, and those of the complete ones are the same;
**       an oracle stepping every State afresh (vm_step) agrees;
**     - every bug's trace is an execution that ends in it.
**     A disagreement writes the model to reduce-fail-SEED.p and fails with
**     what differs and the command lines that show it.  REDUCE_VERBOSE=1
**     prints what each search did. */
#include <config.h>
#include "tests/unit/check_main.h"
#include <dirent.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "checker/engine/explorer.h"
#include "checker/engine/reduce.h"
#include "checker/search/search.h"
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
  pthread_mutex_t lock;      /* visit is called from every thread of a search */
  uint64_t visits, budget;   /* States visited; past budget (0: none) the search is stopped, */
  uint64_t bytes, budget_bytes; /* and past budget_bytes of them (0: none): an inbox that grows makes big States */
  volatile int stop;         /* the search's SearchOptions.stop */
  int over;                  /* the budget stopped it */
} Seen;

static void on_local(void *ctx, uint32_t index, const uint8_t *b, size_t n) {
  Seen *s = ctx;
  hs_add(&s->local, state_hash(b, n) ^ (0x9e3779b97f4a7c15ull * (index + 1)));
}

static void on_visit(void *ctx, const uint8_t *st, size_t len) {
  Seen *s = ctx;
  pthread_mutex_lock(&s->lock);
  vm_local_states(s->vm, st, len, &s->scratch, on_local, s);
  s->bytes += len;
  if ((s->budget && ++s->visits > s->budget) || (s->budget_bytes && s->bytes > s->budget_bytes)) {
    s->stop = 1;
    s->over = 1;
  }
  pthread_mutex_unlock(&s->lock);
}

static void seen_init(Seen *s, const Model *m, uint64_t budget, uint64_t budget_bytes) {
  memset(s, 0, sizeof *s);
  s->vm = vm_new(m->bc, &m->test);
  buf_init(&s->scratch);
  pthread_mutex_init(&s->lock, NULL);
  s->budget = budget;
  s->budget_bytes = budget_bytes;
}

static void seen_fini(Seen *s) {
  vm_free(s->vm);
  buf_fini(&s->scratch);
  hs_free(&s->local);
  pthread_mutex_destroy(&s->lock);
}

/* One search of the differential test: which, how. */
typedef struct Cfg {
  const char *name;          /* as --search names it (search_find) */
  int reduce, jobs, keep_going;
  int safety;                /* it checks no hot cycles (bfs, pb) */
} Cfg;

typedef struct Run {
  const Cfg *cfg;
  SearchResult res;
  Seen seen;
  int exhaustive;            /* complete, with --keep-going or without a bug: it saw every reachable local state */
  int skipped;               /* not run (nothing in it: no bug, not complete, no local state) */
} Run;

/* Search m's test as cfg says (ses with the native explorer ex: EXN_RTC,
** EXN_RR, EXN_PRR), keeping every local state, stopped once it has
** visited budget States or budget_bytes of them (0: no budget) and after
** 60 seconds.  Small: a model that may be infinite, given a small state
** cache (the hot-cycle search takes a quarter of it: it is not counted in
** the budget) and, for ses, a bound on the delays (ses looks at its stop
** flag only every 1024 transitions of a stratum: delay bounds that each
** add a few states, as on an endless producer, would never see it). */
static void run_search(const Model *m, const Cfg *cfg, int ex, uint64_t budget, uint64_t budget_bytes, int small,
                       Run *r) {
  memset(r, 0, sizeof *r);
  r->cfg = cfg;
  seen_init(&r->seen, m, budget, budget_bytes);
  SearchOptions o;
  memset(&o, 0, sizeof o);
  o.max_steps = -1;
  o.schedules = -1;
  o.mem = small ? 4u << 20 : 16u << 20;
  o.frontier_mem = small ? 1u << 20 : 128u << 20;
  o.cache_kind = SC_FLAT;
  o.max_bound = -1;
  o.max_delays = small ? 150 : -1;
  o.jobs = cfg->jobs;
  o.temperature = -1;
  o.timeout = small ? 0.5 : 60;
  o.no_sampling = 1;   /* ses: no switch to sampling when memory runs short (the budget stops it first) */
  o.no_reduction = !cfg->reduce;
  o.keep_going = cfg->keep_going;
  o.explorer = ex == EXN_RR ? "rr" : ex == EXN_PRR ? "prr" : "rtc";
  o.explorer_native = ex;
  o.visit = on_visit;
  o.visit_ctx = &r->seen;
  o.stop = &r->seen.stop;
  static FILE *quiet;   /* the searches' log lines (ses's "bug found at ...") */
  if (!quiet) quiet = fopen("/dev/null", "w");
  ck_assert_ptr_nonnull(quiet);
  ck_assert_int_eq(search_find(cfg->name)->run(m->bc, &m->test, &o, quiet, &r->res), 0);
  r->exhaustive = r->res.complete && !r->res.error && (cfg->keep_going || !r->res.bug);
}

static void run_free(Run *r) {
  if (r->skipped) return;
  search_result_fini(&r->res);
  seen_fini(&r->seen);
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

/* A bug place as --keep-going lists it: "KIND FILE:LINE:COL" (heap). */
static char *place(VmStatus st, const char *file, uint32_t line, uint32_t col) {
  Buf b;
  buf_init(&b);
  buf_printf(&b, "%s %s:%u:%u", vm_status_name(st), file ? file : "-", line, col);
  return buf_take(&b);
}

/* The bug places of r, one line each, sorted (for comparing and printing). */
static int site_cmp(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }
static char *places(const SearchResult *r) {
  char **lines = xcalloc(r->nsites + 1, sizeof *lines);
  for (uint32_t i = 0; i < r->nsites; i++) {
    const BugSite *x = &r->sites[i];
    lines[i] = place(x->status, x->file, x->line, x->col);
  }
  qsort(lines, r->nsites, sizeof *lines, site_cmp);
  Buf all;
  buf_init(&all);
  for (uint32_t i = 0; i < r->nsites; i++) {
    buf_printf(&all, "%s%s", i ? ", " : "", lines[i]);
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

/* The searches every model gets, each with and without the reduction:
** dfs with --keep-going (the first, without the reduction, is the
** reference: every place a bug happens), then dfs, bfs, ses and pb as the
** CLI runs them, on one thread and on two.  dfs with the reduction runs on
** one thread whatever -j says (doc/reduction.md), so it is not run again
** with two. */
enum { R_REF = 0 };
static const Cfg cfgs[] = {
  {"dfs", 0, 1, 1, 0}, {"dfs", 1, 1, 1, 0},
  {"dfs", 0, 1, 0, 0}, {"dfs", 1, 1, 0, 0}, {"dfs", 0, 2, 0, 0},
  {"bfs", 0, 1, 0, 1}, {"bfs", 1, 1, 0, 1},
  {"bfs", 0, 2, 0, 1}, {"bfs", 1, 2, 0, 1},
  {"ses", 0, 1, 0, 0}, {"ses", 1, 1, 0, 0},
  {"ses", 0, 2, 0, 0}, {"ses", 1, 2, 0, 0},
  {"pb", 0, 1, 0, 1}, {"pb", 1, 1, 0, 1},
  {"pb", 0, 2, 0, 1}, {"pb", 1, 2, 0, 1},
};
enum { NCFG = sizeof cfgs / sizeof cfgs[0] };

/* The twin of cfgs[i] (the same search, the reduction the other way), or -1. */
static int twin(int i) {
  const Cfg *a = &cfgs[i];
  for (int j = 0; j < NCFG; j++) {
    const Cfg *b = &cfgs[j];
    if (j != i && !strcmp(a->name, b->name) && a->keep_going == b->keep_going && a->reduce != b->reduce &&
        (a->jobs == b->jobs || (!strcmp(a->name, "dfs") && (a->reduce ? a : b)->jobs == 1)))
      return j;
  }
  return -1;
}

/* The command-line options of a run ("--search bfs -j 2 --no-reduction"). */
static void describe(const Cfg *c, int ex, uint32_t inbox, Buf *b) {
  buf_printf(b, "--search %s", c->name);
  if (!strcmp(c->name, "ses")) buf_printf(b, " --explorer %s", ex == EXN_RR ? "rr" : ex == EXN_PRR ? "prr" : "rtc");
  if (c->jobs > 1) buf_printf(b, " -j %d", c->jobs);
  if (c->keep_going) buf_puts(b, " --keep-going");
  if (!c->reduce) buf_puts(b, " --no-reduction");
  buf_printf(b, " --max-inbox %u", inbox);
}

/* The limits a model is checked with: the CLI's defaults, but the inbox
** bound of its line `// max-inbox: N` (0, none, without one), past which
** a send is a bug. */
static void model_limits(const char *src, VmTest *t) {
  const char *p = strstr(src, "// max-inbox: ");
  t->max_inbox = p ? (uint32_t)strtoul(p + 14, NULL, 10) : 0;
  t->inbox_bug = 1;   /* an overflow is a bug, as with --inbox-overflow-is-bug: its places are compared */
  t->max_step_instructions = 10000000;
  t->max_machines = 10000;
  t->max_collection = 1000000;
  t->max_state_bytes = 16ull << 20;
}

/* The bugs a run found: its --keep-going places, or its one bug. */
static uint32_t nbugs(const Run *r) { return r->cfg->keep_going ? r->res.nsites : (uint32_t)(r->res.bug != 0); }
static void bug_at(const Run *r, uint32_t i, VmStatus *st, char **where) {
  if (r->cfg->keep_going) {
    const BugSite *x = &r->res.sites[i];
    *st = x->status;
    *where = place(x->status, x->file, x->line, x->col);
  } else {
    const VmBug *b = &r->res.bugdesc;
    *st = b->status;
    /* a hot cycle's place is its spec, as --keep-going lists it */
    *where = b->status == VM_BUG_HOT_CYCLE ? NULL : place(b->status, b->file, b->line, b->col);
  }
}
/* Is (st, where) one of r's --keep-going places?  A hot cycle of a run
** without them has no place to compare: any hot cycle of r. */
static int has_place(const Run *r, VmStatus st, const char *where) {
  for (uint32_t i = 0; i < r->res.nsites; i++) {
    const BugSite *x = &r->res.sites[i];
    if (x->status != st) continue;
    if (!where) return 1;
    char *p = place(x->status, x->file, x->line, x->col);
    int same = !strcmp(p, where);
    free(p);
    if (same) return 1;
  }
  return 0;
}

/* NULL if r's trace is an execution of the model that ends in r's bug
** (its last step fails there; a deadlock or a hot end: nothing can run
** after it; a hot cycle: it returns to the State after cycle_start
** choices), else what is wrong (static). */
static const char *replay_fails(const Model *m, const SearchResult *r) {
  Vm *vm = vm_new(m->bc, &m->test);
  Buf a, b;
  buf_init(&a);
  buf_init(&b);
  VmChoices ch = {0};
  const char *bad = NULL;
  uint64_t loop = 0;
  VmStatus st = vm_initial(vm, &a);
  uint64_t i;
  for (i = 0; i < r->ntrace && !bad; i++) {
    if (st != VM_OK) { bad = "a step before the last failed"; break; }
    if ((int64_t)i == r->cycle_start) loop = state_hash(a.data, a.len);
    if (vm_choices(vm, (uint8_t *)a.data, a.len, &ch) != VM_OK) { bad = "a state on the way has no choice"; break; }
    const TraceChoice *c = &r->trace[i];
    int ok = c->kind == ch.kind;
    if (ok && ch.kind == VC_MACHINE) {
      ok = 0;
      for (uint32_t j = 0; j < ch.n; j++) ok |= ch.ids[j] == c->value;
    } else if (ok) {
      ok = c->value < ch.n;
    }
    if (!ok) { bad = "a choice of the trace is not enabled"; break; }
    b.len = 0;
    st = vm_step(vm, (uint8_t *)a.data, a.len, c->value, &b);
    Buf t = a;
    a = b;
    b = t;
  }
  VmStatus want = r->bugdesc.status;
  if (!bad && want == VM_BUG_HOT_CYCLE) {
    if (st != VM_OK) bad = "a step of the lasso failed";
    else if (r->cycle_start < 0 || (uint64_t)r->cycle_start > r->ntrace) bad = "the lasso has no cycle";
    else if ((uint64_t)r->cycle_start == r->ntrace ? 0 : state_hash(a.data, a.len) != loop) bad = "the lasso does not return to its cycle's start";
  } else if (!bad && (want == VM_BUG_DEADLOCK || want == VM_BUG_HOT)) {
    if (st != VM_OK) bad = "a step failed";
    else if (vm_choices(vm, (uint8_t *)a.data, a.len, &ch) != want) bad = "the trace's end is not that bug";
  } else if (!bad) {
    const VmBug *vb = st == VM_OK ? NULL : vm_bug(vm);
    if (st != want) bad = "the trace's last step does not fail with that bug";
    else if (vb && (vb->line != r->bugdesc.line || vb->col != r->bugdesc.col)) bad = "the trace's bug is elsewhere";
  }
  vm_choices_fini(&ch);
  buf_fini(&a);
  buf_fini(&b);
  vm_free(vm);
  return bad;
}

/* What the differential test counts. */
typedef struct Stats {
  uint64_t models, compared, buggy, cut, cut_plain, plain, states_full, states_red, missed, timeouts, disagree;
  uint64_t kinds[VM_BAD_STATE + 1];   /* models where some search found a bug of each kind */
} Stats;

static uint64_t env_u64(const char *name, uint64_t dflt) {
  const char *e = getenv(name);
  return e && *e ? strtoull(e, NULL, 10) : dflt;
}

/* 1 if model src (of seed, 0 for a file) agrees; what differs on stderr,
** the model in reduce-fail-SEED.p. */
static int check_text(uint64_t seed, const char *src, Stats *S) {
  Model m;
  model_load(&m, src);
  char name[64];
  snprintf(name, sizeof name, "reduce-fail-%llu.p", (unsigned long long)seed);
  if (!m.ok) {
    model_free(&m);
    FILE *f = fopen(name, "w");
    if (f) { fputs(src, f); fclose(f); }
    ck_abort_msg("seed %llu: the generated model does not compile (%s)", (unsigned long long)seed, name);
  }
  model_limits(src, &m.test);
  uint32_t inbox = m.test.max_inbox;
  /* A model without extras is finite (tests/gen/genmodel.c): a big
  ** budget, so that it is compared in full; with them, a small one. */
  int plain = strstr(src, "// extras: none") != NULL;
  uint64_t budget = plain ? env_u64("REDUCE_BUDGET_PLAIN", 200000) : env_u64("REDUCE_BUDGET", 1000);
  uint64_t budget_bytes = plain ? 0 : env_u64("REDUCE_BUDGET_BYTES", 1u << 19);
  /* The searches on two threads, for one seed in REDUCE_THREADS_EVERY (default 4; files: always). */
  uint64_t every = env_u64("REDUCE_THREADS_EVERY", 4);
  int two = seed == 0 || (every && seed % every == 0);
  static const int exs[] = {EXN_RTC, EXN_RR, EXN_PRR};
  int ex = exs[seed % 3];
  Run runs[NCFG];
  /* When the reference runs out of time (its hot-cycle search, which no
  ** budget counts, on a big hot subgraph), the other searches that have
  ** one (dfs, ses) would spend the same time: they are not run. */
  int slow = 0;
  for (int i = 0; i < NCFG; i++) {
    const Cfg *c = &cfgs[i];
    if ((c->jobs > 1 && !two) || (slow && !c->safety)) {
      memset(&runs[i], 0, sizeof runs[i]);
      runs[i].cfg = c;
      runs[i].skipped = 1;
      continue;
    }
    run_search(&m, c, ex, budget, budget_bytes, !plain, &runs[i]);
    if (i == R_REF && runs[i].res.bound && strstr(runs[i].res.bound, "timeout")) slow = 1;
  }
  Seen oracle;
  seen_init(&oracle, &m, 0, 0);
  uint64_t nor = naive_states(&m, &oracle, budget);
  const Run *F = &runs[R_REF];
  Buf why;
  buf_init(&why);
  char *names[NCFG];
  for (int i = 0; i < NCFG; i++) {
    Buf d;
    buf_init(&d);
    describe(&cfgs[i], ex, inbox, &d);
    names[i] = buf_take(&d);
  }
#define NAME(r) names[(r) - runs]
  S->models++;
  S->plain += plain;
  uint8_t kinds[VM_BAD_STATE + 1] = {0};
  for (int i = 0; i < NCFG; i++) {
    const Run *X = &runs[i];
    if (X->res.error) buf_printf(&why, "[%s] error: %s; ", NAME(X), X->res.error);
    if (X->res.bound && strstr(X->res.bound, "timeout")) S->timeouts++;
    for (uint32_t k = 0; k < nbugs(X); k++) {
      VmStatus st;
      char *w;
      bug_at(X, k, &st, &w);
      if (st <= VM_BAD_STATE) kinds[st] = 1;
      free(w);
    }
  }
  for (int k = 0; k <= VM_BAD_STATE; k++) S->kinds[k] += kinds[k];
  /* A search that completes without a bug, where another one found a bug
  ** of a kind it checks: the failure hunted above all (its twin first). */
  for (int i = 0; i < NCFG; i++) {
    const Run *X = &runs[i];
    if (!X->exhaustive || nbugs(X)) continue;
    int t = twin(i), found = 0;
    for (int jj = -1; jj < NCFG && !found; jj++) {
      int j = jj < 0 ? t : jj;
      if (j < 0 || j == i || (jj >= 0 && j == t)) continue;
      const Run *Y = &runs[j];
      for (uint32_t k = 0; k < nbugs(Y) && !found; k++) {
        VmStatus st;
        char *w;
        bug_at(Y, k, &st, &w);
        if (!X->cfg->safety || st != VM_BUG_HOT_CYCLE) {
          buf_printf(&why, "[%s] complete, no bug; ", NAME(X));
          buf_printf(&why, "[%s] %s; ", NAME(Y), w ? w : vm_status_name(st));
          found = 1;
        }
        free(w);
      }
    }
  }
  /* Against the reference, when it is complete: each bug found is one of
  ** its places; the --keep-going searches find the same places (each's
  ** are among a complete one's otherwise), the reduced one in no more
  ** states. */
  char *pf = places(&F->res);
  for (int i = 0; i < NCFG; i++) {
    const Run *X = &runs[i];
    if (i == R_REF) continue;
    if (X->cfg->keep_going) {
      char *px = places(&X->res);
      if (F->exhaustive && X->exhaustive && strcmp(pf, px) != 0)
        buf_printf(&why, "[%s] bug places %s; [%s] %s; ", NAME(F), pf, NAME(X), px);
      if (F->exhaustive && X->exhaustive && X->res.states > F->res.states)
        buf_printf(&why, "[%s] more states (%llu) than [%s] (%llu); ", NAME(X), (unsigned long long)X->res.states, NAME(F),
                   (unsigned long long)F->res.states);
      const Run *A = F->exhaustive ? F : X->exhaustive ? X : NULL, *B = A == F ? X : F;
      if (A && !(F->exhaustive && X->exhaustive))
        for (uint32_t k = 0; k < B->res.nsites; k++) {
          const BugSite *s = &B->res.sites[k];
          char *p = place(s->status, s->file, s->line, s->col);
          if (!has_place(A, s->status, s->status == VM_BUG_HOT_CYCLE ? NULL : p)) buf_printf(&why, "[%s] place %s not among those of [%s]; ", NAME(B), p, NAME(A));
          free(p);
        }
      free(px);
    } else if (F->exhaustive && X->res.bug) {
      VmStatus st;
      char *w;
      bug_at(X, 0, &st, &w);
      if (!has_place(F, st, w)) buf_printf(&why, "[%s] bug %s, not among the places of [%s]: %s; ", NAME(X), w ? w : vm_status_name(st), NAME(F), pf);
      free(w);
    }
  }
  /* Local states: every search's are among those of a complete one, and
  ** the complete ones' are the same; so are the oracle's. */
  const Run *E = NULL;
  for (int i = 0; i < NCFG && !E; i++) if (runs[i].exhaustive) E = &runs[i];
  if (E) {
    for (int i = 0; i < NCFG; i++) {
      const Run *X = &runs[i];
      if (X == E) continue;
      if (!hs_subset(&X->seen.local, &E->seen.local))
        buf_printf(&why, "[%s] local states not all among the %llu of [%s]; ", NAME(X), (unsigned long long)hs_count(&E->seen.local), NAME(E));
      else if (X->exhaustive && !hs_subset(&E->seen.local, &X->seen.local))
        buf_printf(&why, "[%s] %llu local states, [%s] %llu; ", NAME(X), (unsigned long long)hs_count(&X->seen.local), NAME(E),
                   (unsigned long long)hs_count(&E->seen.local));
    }
    if (!hs_subset(&oracle.local, &E->seen.local) || (nor && !hs_subset(&E->seen.local, &oracle.local)))
      buf_printf(&why, "[%s] %llu local states; every State by vm_step: %llu%s; ", NAME(E), (unsigned long long)hs_count(&E->seen.local),
                 (unsigned long long)hs_count(&oracle.local), nor ? "" : " (cut)");
  }
  if (nor && F->exhaustive && nor != F->res.states)
    buf_printf(&why, "[%s] %llu states; every State by vm_step: %llu; ", NAME(F), (unsigned long long)F->res.states, (unsigned long long)nor);
  /* Every bug's trace is an execution that ends in it. */
  for (int i = 0; i < NCFG; i++) {
    const Run *X = &runs[i];
    if (!X->res.bug) continue;
    const char *bad = replay_fails(&m, &X->res);
    if (bad) buf_printf(&why, "[%s] the trace of %s: %s; ", NAME(X), vm_status_name(X->res.bugdesc.status), bad);
  }
  /* A reduced search stopped by the budget without the bug its twin
  ** found: allowed (it did not finish), counted. */
  for (int i = 0; i < NCFG; i++) {
    const Run *X = &runs[i];
    int t = twin(i);
    if (X->cfg->reduce && !X->res.complete && !nbugs(X) && t >= 0 && nbugs(&runs[t])) S->missed++;
  }
  if (F->exhaustive) {
    S->compared++;
    S->buggy += F->res.nsites != 0;
    S->states_full += F->res.states;
    S->states_red += runs[R_REF + 1].res.states;
  } else {
    S->cut++;
    S->cut_plain += plain;
  }
  if (env_u64("REDUCE_VERBOSE", 0)) {   /* what each search did */
    fprintf(stderr, "seed %llu: --max-inbox %u, budget %llu, oracle %llu\n", (unsigned long long)seed, inbox,
            (unsigned long long)budget, (unsigned long long)nor);
    for (int i = 0; i < NCFG; i++) {
      const Run *X = &runs[i];
      if (X->skipped) continue;
      char *w = NULL;
      VmStatus st = VM_OK;
      if (nbugs(X)) bug_at(X, 0, &st, &w);
      fprintf(stderr, "  [%s] %s, %llu states, %.3f s%s%s\n", NAME(X),
              X->res.bug ? (w ? w : vm_status_name(st)) : X->res.complete ? "complete" : X->res.bound ? X->res.bound : "?",
              (unsigned long long)X->res.states, X->res.seconds, X->seen.over ? ", over budget" : "",
              X->cfg->keep_going && X->res.nsites ? " (keep-going)" : "");
      free(w);
    }
  }
  int ok = why.len == 0;
  if (!ok) {
    S->disagree++;
    FILE *f = fopen(name, "w");
    if (f) { fputs(src, f); fclose(f); }
    fprintf(stderr, "seed %llu (written to %s; each [...] is a run `pcheck [...] %s`): %s\n", (unsigned long long)seed, name,
            name, why.data);
  }
#undef NAME
  free(pf);
  buf_fini(&why);
  for (int i = 0; i < NCFG; i++) free(names[i]);
  for (int i = 0; i < NCFG; i++) run_free(&runs[i]);
  seen_fini(&oracle);
  model_free(&m);
  return ok;
}

static void print_stats(const char *what, const Stats *S) {
  printf("# reduction differential (%s): %llu models (%llu without extras), %llu compared in full (%llu with a bug), "
         "%llu cut by the budget (%llu without extras); dfs --keep-going states %llu without, %llu with reduction; "
         "reduced searches cut without their twin's bug %llu; timeouts %llu; %llu disagree\n",
         what, (unsigned long long)S->models, (unsigned long long)S->plain, (unsigned long long)S->compared,
         (unsigned long long)S->buggy, (unsigned long long)S->cut, (unsigned long long)S->cut_plain,
         (unsigned long long)S->states_full, (unsigned long long)S->states_red, (unsigned long long)S->missed,
         (unsigned long long)S->timeouts, (unsigned long long)S->disagree);
  printf("# models with a bug of each kind found:");
  for (int k = VM_BUG_ASSERT; k < VM_BAD_STATE; k++)
    if (S->kinds[k]) printf(" %s %llu", vm_status_name((VmStatus)k), (unsigned long long)S->kinds[k]);
  printf("\n");
}

START_TEST(test_differential) {
  const char *file = getenv("REDUCE_FILE");
  Stats S;
  memset(&S, 0, sizeof S);
  if (file && *file) {   /* a model of one's own (a seed's written earlier, edited) */
    size_t tlen;
    char *text = read_file(file, &tlen);
    ck_assert_ptr_nonnull(text);
    int ok = check_text(0, text, &S);
    free(text);
    print_stats(file, &S);
    ck_assert(ok);
    return;
  }
  uint64_t n = env_u64("REDUCE_MODELS", 10000), first = env_u64("REDUCE_SEED", 1);
  size_t cap = 1 << 20;
  char *src = xmalloc(cap);
  for (uint64_t seed = first; seed < first + n; seed++) {
    ck_assert_int_ge(genmodel(seed, src, cap), 0);
    check_text(seed, src, &S);
  }
  print_stats("generated", &S);
  free(src);
  ck_assert_msg(S.disagree == 0, "%llu of %llu models disagree (see stderr)", (unsigned long long)S.disagree, (unsigned long long)n);
  ck_assert_msg(S.cut_plain * 20 <= S.plain, "%llu of %llu models without extras too big to compare",
                (unsigned long long)S.cut_plain, (unsigned long long)S.plain);
}
END_TEST

/* The models of tests/reduce/ (disagreements found earlier, minimised),
** each checked as a generated one. */
START_TEST(test_regressions) {
  const char *top = getenv("srcdir");
  char dir[1024];
  snprintf(dir, sizeof dir, "%s/tests/reduce", top ? top : ".");
  DIR *dp = opendir(dir);
  if (!dp) return;   /* none */
  Stats S;
  memset(&S, 0, sizeof S);
  struct dirent *de;
  uint64_t bad = 0;
  while ((de = readdir(dp)) != NULL) {
    size_t l = strlen(de->d_name);
    if (l < 3 || strcmp(de->d_name + l - 2, ".p") != 0) continue;
    char path[2048];
    snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
    size_t tlen;
    char *text = read_file(path, &tlen);
    ck_assert_ptr_nonnull(text);
    if (!check_text(0, text, &S)) {
      fprintf(stderr, "  (that was %s)\n", path);
      bad++;
    }
    free(text);
  }
  closedir(dp);
  print_stats("tests/reduce", &S);
  ck_assert_msg(bad == 0, "%llu models of tests/reduce disagree (see stderr)", (unsigned long long)bad);
}
END_TEST

int main(void) {
  Suite *s = suite_create("reduce");
  TCase *tc = tcase_create("reduce");
  tcase_set_timeout(tc, 0);
  tcase_add_loop_test(tc, test_select_table, 0, (int)(sizeof sel_cases / sizeof sel_cases[0]));
  tcase_add_test(tc, test_regressions);
  tcase_add_test(tc, test_differential);
  suite_add_tcase(s, tc);
  return run_suite(s);
}
