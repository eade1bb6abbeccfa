/* test_liveness.c: the hot-cycle searches of checker/engine/liveness.c against a
** brute-force reference, on a few hundred small random models (a machine
** Main walking a little transition table with $, $$ and plain steps, which
** announces to a spec that turns hot, cold and warm (neither), sometimes
** cold then hot within one step, a Helper it may kick, and in half of them
** a Worker flipping a bit at $).
** The reference explores the whole state graph with the VM and decides by
** definition (doc/liveness.md), with P's temperature: N is the set of
** states where the spec is not cold, and a step on which it entered a cold
** state leaves N wherever it ends:
** - a fair hot cycle exists iff some set S of states of N holding a state
**   where the spec is hot
**   is strongly connected by the edges inside it, every data choice ($ or
**   $$) in S has both outcomes in S, and every machine runs on an edge
**   inside S or is
**   disabled in a state of S; S is found by trying every subset of each
**   strongly connected component of the hot states (components of at most
**   16 states; larger ones are decided by a naive fixpoint instead);
** - any hot cycle exists (--unfair) iff N has a cycle through a hot state.
** --search dfs must agree on every model, with and without the reduction
** (the reduced graph keeps every fair hot cycle: doc/liveness.md, "Under
** the reduction"), and so must ses; each lasso reported must replay as a
** bug (its fairness checked by --replay's own check).  The
** models are deterministic (fixed seeds); counts of each verdict show the
** generator covers fair, unfair-only and cycle-free cases. */
#include <config.h>
#include "tests/unit/check_main.h"
#include "tests/unit/model.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "checker/engine/explorer.h"
#include "checker/base/rng.h"
#include "checker/search/search.h"
#include "checker/report/trace.h"
#include "lang/codegen.h"
#include "lang/sema.h"
#include "lang/testcases.h"
#include "parser/parse.h"
#include "vm/hash.h"
#include "vm/vm.h"

/* Compile src (its first test case); the test fails if it does not. */
static void load_ok(Model *m, const char *src) {
  model_load(m, src);
  ck_assert_msg(m->ok, "the model does not compile");
}

/* ---- The random models ---- */

static uint32_t below(Rng *r, uint32_t n) { return (uint32_t)(rng_next(r) % n); }

static void gen_announce(Buf *b, Rng *r) {
  switch (below(r, 10)) {
  case 0: case 1: case 2: buf_puts(b, "announce eHot; "); break;
  case 3: case 4: buf_puts(b, "announce eCold; "); break;
  case 5: buf_puts(b, "announce eWarm; "); break;
  case 6: buf_puts(b, "announce eCold; announce eHot; "); break;   /* cold within the step */
  default: break;
  }
}

/* Main's state s runs action s on each eStep it sends itself; it may kick
** Helper (at most twice in all), whose handler may announce too. */
static char *gen_model(uint64_t seed) {
  Rng r;
  rng_seed(&r, seed);
  uint32_t k = 2 + below(&r, 2);
  Buf b;
  buf_init(&b);
  buf_puts(&b, "event eStep; event eHot; event eCold; event eWarm; event eKick;\n"
               "spec Spec observes eHot, eCold, eWarm {\n"
               "  start cold state C { on eHot goto H; on eCold goto C; on eWarm goto W; }\n"
               "  hot state H { on eHot goto H; on eCold goto C; on eWarm goto W; }\n"
               "  state W { on eHot goto H; on eCold goto C; on eWarm goto W; }\n}\n");
  buf_puts(&b, "machine Helper { start state S { on eKick do { ");
  gen_announce(&b, &r);
  buf_puts(&b, "} } }\n");
  /* Half of the models have a Worker too, that flips a bit at $ forever
  ** (or twice), so that the reduction has machines to reorder and the
  ** graph has choice points of the same Worker state in many states. */
  uint32_t worker = below(&r, 2);
  if (worker)
    buf_printf(&b, "event eW;\nmachine Worker { var c: int; var k: int;\n"
               "  start state W { entry { send this, eW; } on eW do { if ($) { c = 1 - c; } %s } } }\n",
               below(&r, 2) ? "send this, eW;" : "k = k + 1; if (k < 2) { send this, eW; }");
  buf_printf(&b, "machine Main {\n  var s: int; var n: int; var hp: Helper;\n  start state S {\n"
             "    entry { hp = new Helper(); %sannounce eHot; send this, eStep; }\n    on eStep do {\n",
             worker ? "new Worker(); " : "");
  for (uint32_t i = 0; i < k; i++) {
    buf_printf(&b, "      %sif (s == %u) { ", i ? "else " : "", i);
    gen_announce(&b, &r);
    if (below(&r, 3) == 0) buf_puts(&b, "if (n < 2) { n = n + 1; send hp, eKick; } ");
    uint32_t kind = below(&r, 3), a = below(&r, k), c = below(&r, k);
    if (kind == 0) {
      buf_printf(&b, "s = %u; ", a);
    } else {
      buf_printf(&b, "if (%s) { s = %u; ", kind == 1 ? "$" : "$$", a);
      gen_announce(&b, &r);
      buf_printf(&b, "} else { s = %u; ", c);
      gen_announce(&b, &r);
      buf_puts(&b, "} ");
    }
    buf_puts(&b, "}\n");
  }
  buf_puts(&b, "      send this, eStep;\n    }\n  }\n}\n");
  return buf_take(&b);
}

/* ---- The state graph, explored with the VM ---- */

enum { MAXS = 4000, BUG = -1 };

typedef struct Edge { int to; uint32_t choice, actor; int cool; /* the spec entered a cold state on it */ } Edge;

typedef struct Graph {
  int n;
  Buf bytes;
  uint64_t off[MAXS], fp[MAXS];
  uint32_t len[MAXS];
  int hot[MAXS];             /* spec 0 hot */
  int live[MAXS];            /* spec 0 not cold (hot or warm): in N */
  int fair[MAXS];            /* a data choice ($, $$) is pending */
  uint64_t enabled[MAXS];    /* machines that can run (vm_enabled), as bits */
  uint32_t nm[MAXS];         /* machines */
  Edge *e[MAXS];
  int ne[MAXS];
} Graph;

static int find(Graph *g, uint64_t fp) {
  for (int i = 0; i < g->n; i++) if (g->fp[i] == fp) return i;
  return -1;
}

/* Explore every reachable state; 0, or -1 if there are too many. */
static int explore(Graph *g, Vm *vm) {
  memset(g, 0, sizeof *g);
  buf_init(&g->bytes);
  Buf s, t;
  buf_init(&s);
  buf_init(&t);
  VmChoices ch = {0}, en = {0};
  ck_assert_int_eq(vm_initial(vm, &s), VM_OK);
  g->fp[0] = state_hash(s.data, s.len);
  g->off[0] = 0;
  g->len[0] = (uint32_t)s.len;
  buf_append(&g->bytes, s.data, s.len);
  g->n = 1;
  int rc = 0;
  for (int i = 0; i < g->n; i++) {
    s.len = 0;
    buf_append(&s, g->bytes.data + g->off[i], g->len[i]);
    uint64_t hot = vm_hot_specs(vm, (uint8_t *)s.data, s.len);
    g->hot[i] = (int)(hot & 1);
    g->live[i] = !(vm_cold_specs(vm, (uint8_t *)s.data, s.len) & 1);
    ck_assert_int_eq(vm_enabled(vm, (uint8_t *)s.data, s.len, &en), VM_OK);
    g->nm[i] = en.nmachines;
    for (uint32_t j = 0; j < en.n; j++) g->enabled[i] |= 1ull << en.ids[j];
    VmStatus st = vm_choices(vm, (uint8_t *)s.data, s.len, &ch);
    ck_assert(st != VM_BAD_STATE);
    if (st != VM_OK || ch.kind == VC_NONE) continue;
    g->fair[i] = ch.kind == VC_DATA;   /* every data choice is strongly fair */
    g->e[i] = calloc(ch.n, sizeof(Edge));
    uint32_t nch = ch.n, kind = ch.kind, who = ch.machine;
    uint32_t ids[64];
    for (uint32_t j = 0; j < nch && kind == VC_MACHINE; j++) ids[j] = ch.ids[j];
    for (uint32_t j = 0; j < nch; j++) {
      uint32_t c = kind == VC_MACHINE ? ids[j] : j;
      Edge *ed = &g->e[i][g->ne[i]++];
      ed->choice = c;
      ed->actor = kind == VC_MACHINE ? c : who;
      if (vm_step(vm, (uint8_t *)s.data, s.len, c, &t) != VM_OK) { ed->to = BUG; continue; }
      ed->cool = (int)(vm_cooled_specs(vm) & 1);
      uint64_t fp = state_hash(t.data, t.len);
      int at = find(g, fp);
      if (at < 0) {
        if (g->n == MAXS) { rc = -1; goto out; }
        at = g->n++;
        g->fp[at] = fp;
        g->off[at] = g->bytes.len;
        g->len[at] = (uint32_t)t.len;
        buf_append(&g->bytes, t.data, t.len);
      }
      ed->to = at;
    }
  }
out:
  vm_choices_fini(&ch);
  vm_choices_fini(&en);
  buf_fini(&s);
  buf_fini(&t);
  return rc;
}

static void graph_fini(Graph *g) {
  for (int i = 0; i < g->n; i++) free(g->e[i]);
  buf_fini(&g->bytes);
}

/* ---- The reference ---- */

/* Nodes reachable from u through nodes with in[] set, by steps that do not
** cool the spec (u itself only if on a cycle): written into out[] as 0/1. */
static void reach(const Graph *g, const char *in, int u, char *out) {
  static int q[MAXS];
  int qh = 0, qt = 0;
  memset(out, 0, MAXS);
  q[qt++] = u;
  while (qh < qt) {
    int v = q[qh++];
    for (int j = 0; j < g->ne[v]; j++) {
      int t = g->e[v][j].to;
      if (t == BUG || g->e[v][j].cool || !in[t] || out[t]) continue;
      out[t] = 1;
      q[qt++] = t;
    }
  }
}

/* Is the set S (in[] = 1, with members list) a fair strongly connected set
** by the definition? */
static int fair_set(const Graph *g, const char *in, const int *mem, int cnt) {
  static char fw[MAXS], bw[MAXS];
  /* strongly connected with at least one edge: every member reaches every
  ** member (forward from the first, and each reaches the first) */
  reach(g, in, mem[0], fw);
  for (int i = 0; i < cnt; i++) if (!fw[mem[i]]) return 0;
  for (int i = 0; i < cnt; i++) {
    reach(g, in, mem[i], bw);
    if (!bw[mem[0]]) return 0;
  }
  uint64_t ran = 0, dis = 0, all = 0;
  int hot = 0;
  for (int i = 0; i < cnt; i++) {
    int u = mem[i];
    hot |= g->hot[u];
    all |= (g->nm[u] >= 64 ? ~0ull : (1ull << g->nm[u]) - 1);
    dis |= ~g->enabled[u] & (g->nm[u] >= 64 ? ~0ull : (1ull << g->nm[u]) - 1);
    for (int j = 0; j < g->ne[u]; j++) {
      int t = g->e[u][j].to;
      int inside = t != BUG && in[t] && !g->e[u][j].cool;
      if (g->fair[u] && !inside) return 0;   /* an outcome of a data choice leaves S */
      if (inside) ran |= 1ull << g->e[u][j].actor;
    }
  }
  return hot && ((ran | dis) & all) == all;
}

/* A cycle inside N (live) through a hot state. */
static int any_cycle(const Graph *g, const char *live) {
  static char r[MAXS];
  for (int u = 0; u < g->n; u++) {
    if (!live[u] || !g->hot[u]) continue;
    reach(g, live, u, r);
    if (r[u]) return 1;
  }
  return 0;
}

/* Decide one strongly connected component C (members) of N. */
static int fair_in_component(const Graph *g, const int *comp, int cnt, int *brute) {
  static char in[MAXS];
  static int mem[MAXS];
  memset(in, 0, MAXS);
  if (cnt <= 16) {
    *brute = 1;
    for (uint32_t mask = 1; mask < (1u << cnt); mask++) {
      int m = 0;
      for (int i = 0; i < cnt; i++)
        if (mask & (1u << i)) { in[comp[i]] = 1; mem[m++] = comp[i]; }
      int ok = fair_set(g, in, mem, m);
      for (int i = 0; i < m; i++) in[mem[i]] = 0;
      if (ok) return 1;
    }
    return 0;
  }
  /* Larger: remove data choices with an outcome outside their own class and
  ** states on no cycle until nothing changes, then try each class. */
  static char r1[MAXS], r2[MAXS], done[MAXS];
  for (int i = 0; i < cnt; i++) in[comp[i]] = 1;
  for (int changed = 1; changed;) {
    changed = 0;
    for (int i = 0; i < cnt; i++) {
      int u = comp[i];
      if (!in[u]) continue;
      reach(g, in, u, r1);
      int drop = !r1[u];
      for (int j = 0; j < g->ne[u] && !drop && g->fair[u]; j++) {
        int t = g->e[u][j].to;
        if (t == BUG || !in[t] || g->e[u][j].cool) { drop = 1; break; }
        reach(g, in, t, r2);
        drop = !r2[u] || !r1[t];
      }
      if (drop) { in[u] = 0; changed = 1; }
    }
  }
  memset(done, 0, MAXS);
  for (int i = 0; i < cnt; i++) {
    int u = comp[i];
    if (!in[u] || done[u]) continue;
    reach(g, in, u, r1);
    int m = 0;
    static char cls[MAXS];
    memset(cls, 0, MAXS);
    for (int j = 0; j < cnt; j++) {
      int v = comp[j];
      if (!in[v] || !(r1[v] || v == u)) continue;
      reach(g, in, v, r2);
      if (r2[u] || v == u) { cls[v] = 1; mem[m++] = v; done[v] = 1; }
    }
    if (fair_set(g, cls, mem, m)) return 1;
  }
  return 0;
}

static int fair_exists(const Graph *g, int *brute) {
  static char hot[MAXS], r1[MAXS], r2[MAXS], done[MAXS];   /* hot[]: N, the states not cold */
  static int comp[MAXS];
  for (int u = 0; u < g->n; u++) hot[u] = (char)g->live[u];
  memset(done, 0, MAXS);
  int found = 0;
  for (int u = 0; u < g->n && !found; u++) {
    if (!hot[u] || done[u]) continue;
    reach(g, hot, u, r1);
    if (!r1[u]) continue;   /* on no cycle */
    int cnt = 0;
    for (int v = 0; v < g->n; v++) {
      if (!hot[v] || !(r1[v])) continue;
      reach(g, hot, v, r2);
      if (r2[u]) { comp[cnt++] = v; done[v] = 1; }
    }
    found = fair_in_component(g, comp, cnt, brute);
  }
  return found;
}

/* ---- pcheck ---- */

/* The search (dfs or ses) on the model: 1 if it reports a hot cycle (the
** lasso replaying as a bug), 0 if it ends complete without a bug. */
static int pcheck_verdict(Model *m, const SearchOps *ops, int unfair, int no_reduction, int recheck) {
  SearchOptions o = {0};
  o.mem = 64ull << 20;
  o.frontier_mem = 256ull << 20;
  o.cache_kind = SC_FLAT;
  o.max_steps = 10000;
  o.schedules = -1;
  o.max_delays = -1;
  o.unfair = unfair;
  o.no_reduction = no_reduction;
  o.live_recheck = recheck;
  o.explorer = "rtc";
  o.explorer_native = EXN_RTC;
  SearchResult res = {0};
  FILE *devnull = fopen("/dev/null", "w");
  ck_assert_int_eq(ops->run(m->bc, &m->test, &o, devnull, &res), 0);
  fclose(devnull);
  int v = res.bug;
  if (v) {
    ck_assert_int_eq(res.bugdesc.status, VM_BUG_HOT_CYCLE);
    ck_assert_int_ge(res.cycle_start, 0);
    Buf log, err;
    buf_init(&log);
    buf_init(&err);
    VmBug bug;
    uint64_t at;
    int r = trace_replay(m->bc, &m->test, res.trace, res.ntrace, res.cycle_start, unfair, 0, 0, &log, &bug, &at, &err);
    if (r != 1) fprintf(stderr, "replay: %s\n", err.data ? err.data : "");
    ck_assert_int_eq(r, 1);
    free(bug.message);
    buf_fini(&log);
    buf_fini(&err);
  } else {
    ck_assert(res.complete);
  }
  search_result_fini(&res);
  return v;
}

enum { NMODELS = 400 };

START_TEST(test_against_reference) {
  int counts[2][2] = {{0, 0}, {0, 0}}, brute = 0, nmodels = 0;
  /* LIVENESS_MODELS=N tries more (or fewer) models, for a longer check. */
  const char *env = getenv("LIVENESS_MODELS");
  int total = env && atoi(env) > 0 ? atoi(env) : NMODELS;
  for (uint64_t seed = 1; seed <= (uint64_t)total; seed++) {
    char *src = gen_model(seed);
    Model m;
    load_ok(&m, src);
    Vm *vm = vm_new(m.bc, &m.test);
    static Graph g;
    if (explore(&g, vm) == 0) {
      static char live[MAXS];
      for (int u = 0; u < g.n; u++) live[u] = (char)g.live[u];
      int b = 0;
      int ref_fair = fair_exists(&g, &b), ref_any = any_cycle(&g, live);
      brute += b;
      static const struct { const char *search; int no_reduction, recheck; const char *name; } runs[] = {
        { "dfs", 0, 0, "dfs" }, { "dfs", 1, 0, "dfs --no-reduction" }, { "ses", 0, 0, "ses" },
        { "ses", 1, 0, "ses --no-reduction" },
        { "dfs", 0, 1, "dfs, each fair set searched again in the full graph" },
        { "ses", 0, 1, "ses, each fair set searched again in the full graph" } };
      for (size_t i = 0; i < sizeof runs / sizeof runs[0]; i++) {
        int got_fair = pcheck_verdict(&m, search_find(runs[i].search), 0, runs[i].no_reduction, runs[i].recheck);
        int got_any = pcheck_verdict(&m, search_find(runs[i].search), 1, runs[i].no_reduction, runs[i].recheck);
        if (got_fair != ref_fair || got_any != ref_any)
          fprintf(stderr, "model %llu (%d states), %s: fair %d (reference %d), any %d (reference %d)\n%s",
                  (unsigned long long)seed, g.n, runs[i].name, got_fair, ref_fair, got_any, ref_any, src);
        ck_assert_int_eq(got_fair, ref_fair);
        ck_assert_int_eq(got_any, ref_any);
      }
      ck_assert(!ref_fair || ref_any);
      counts[ref_fair][ref_any]++;
      nmodels++;
    }
    graph_fini(&g);
    vm_free(vm);
    model_free(&m);
    free(src);
  }
  fprintf(stderr, "test_liveness: %d models: %d with a fair hot cycle, %d with only unfair ones, %d with none; "
          "%d decided by trying every subset\n", nmodels, counts[1][1], counts[0][1], counts[0][0], brute);
  /* The generator must exercise every verdict. */
  ck_assert_int_ge(nmodels, total * 9 / 10);
  ck_assert_int_ge(counts[1][1], total / 20);
  ck_assert_int_ge(counts[0][1], total / 20);
  ck_assert_int_ge(counts[0][0], total / 20);
  ck_assert_int_ge(brute, total / 20);
}
END_TEST

int main(void) {
  Suite *s = suite_create("liveness");
  TCase *tc = tcase_create("reference");
  tcase_set_timeout(tc, 600);
  tcase_add_test(tc, test_against_reference);
  suite_add_tcase(s, tc);
  return run_suite(s);
}
