/* test_finished.c: the component bookkeeping of checker/store/finished.h, driven
** by a depth-first search over explicit graphs that claims every new
** successor of a state before entering any (as search_dfs.c does).  Row by
** row (hand-made graphs, then random ones): whenever a state is reported
** finished, every state reachable from it has been entered; at the end
** every state was reported exactly once; and where Tarjan's components are
** known the states close component by component. */
#include <config.h>
#include "tests/unit/check_main.h"
#include <string.h>
#include "checker/store/finished.h"
#include "checker/base/rng.h"

enum { MAXN = 64 };

typedef struct Graph {
  const char *name;
  int n;
  const char *edges;        /* "a>b a>c ..." (hand-made rows), or NULL: random */
  uint64_t seed;            /* random rows: the seed; n states, about 2n edges */
} Graph;

static const Graph rows[] = {
  { "chain", 4, "0>1 1>2 2>3", 0 },
  { "cycle", 3, "0>1 1>2 2>0", 0 },
  /* A cycle back to the root: 1 pops before 2 is entered, but 2 is
  ** reachable from 1; a search that calls popped states finished is wrong. */
  { "back edge", 3, "0>1 1>0 0>2", 0 },
  /* Siblings claimed together: 1 reaches 2, claimed by 0 and entered only
  ** after 1 pops; 2 reaches 3. */
  { "pending sibling", 4, "0>1 0>2 1>2 2>3 2>1", 0 },
  { "pending deep", 6, "0>1 0>2 1>3 3>4 4>2 2>5", 0 },
  { "two components", 5, "0>1 1>0 1>2 2>3 3>2 3>4", 0 },
  { "self loop", 2, "0>0 0>1 1>1", 0 },
  { "diamond", 4, "0>1 0>2 1>3 2>3", 0 },
  { "random 1", 12, NULL, 1 }, { "random 2", 20, NULL, 2 }, { "random 3", 30, NULL, 3 },
  { "random 4", 40, NULL, 4 }, { "random 5", 64, NULL, 5 }, { "random 6", 8, NULL, 6 },
  { "random 7", 16, NULL, 7 }, { "random 8", 25, NULL, 8 }, { "random 9", 50, NULL, 9 },
  { "random 10", 64, NULL, 10 },
};

typedef struct Run {
  int n;
  int adj[MAXN][MAXN], deg[MAXN];
  int entered[MAXN], finished[MAXN], reported;
  int reach[MAXN][MAXN];    /* reach[a][b]: b reachable from a */
} Run;

/* Fingerprints: distinct, nonzero and spread, so the map probes. */
static uint64_t fp_of(int s) { return 0x9E3779B97F4A7C15ull * (uint64_t)(s + 1); }
static int state_of(uint64_t fp) { for (int s = 0; s < MAXN; s++) if (fp_of(s) == fp) return s; return -1; }

static void build(const Graph *g, Run *r) {
  memset(r, 0, sizeof *r);
  r->n = g->n;
  if (g->edges) {
    for (const char *p = g->edges; *p;) {
      int a, b, len;
      if (sscanf(p, "%d>%d%n", &a, &b, &len) != 2) break;
      r->adj[a][r->deg[a]++] = b;
      p += len;
      while (*p == ' ') p++;
    }
  } else {
    Rng rng;
    rng_seed(&rng, g->seed);
    for (int e = 0; e < 2 * g->n; e++) {
      int a = (int)(rng_next(&rng) % (uint64_t)g->n), b = (int)(rng_next(&rng) % (uint64_t)g->n);
      if (r->deg[a] < MAXN) r->adj[a][r->deg[a]++] = b;
    }
    /* Make everything reachable from 0 along a chain of random order. */
    for (int s = 1; s < g->n; s++) r->adj[s - 1][r->deg[s - 1]++] = s;
  }
  for (int a = 0; a < r->n; a++) {   /* transitive closure */
    r->reach[a][a] = 1;
    for (int k = 0; k < r->deg[a]; k++) r->reach[a][r->adj[a][k]] = 1;
  }
  for (int k = 0; k < r->n; k++)
    for (int a = 0; a < r->n; a++)
      if (r->reach[a][k])
        for (int b = 0; b < r->n; b++) if (r->reach[k][b]) r->reach[a][b] = 1;
}

static void on_done(void *ctx, uint64_t fp) {
  Run *r = ctx;
  int s = state_of(fp);
  ck_assert_int_ge(s, 0);
  ck_assert_msg(!r->finished[s], "state %d reported twice", s);
  for (int b = 0; b < r->n; b++)
    ck_assert_msg(!r->reach[s][b] || r->entered[b], "state %d finished before %d, reachable from it, was entered", s, b);
  r->finished[s] = 1;
  r->reported++;
}

typedef struct Frame { int s, next; uint64_t index, low; } Frame;

START_TEST(test_graphs) {
  const Graph *g = &rows[_i];
  Run r;
  build(g, &r);
  Finished t;
  fin_init(&t);
  int seen[MAXN] = {0};   /* the "state cache" */
  Frame st[MAXN + 1];
  int depth = 0;
  seen[0] = r.entered[0] = 1;
  st[depth++] = (Frame){ 0, 0, fin_push(&t, fp_of(0)), 0 };
  st[0].low = st[0].index;
  /* Claim the new successors of the top frame, as a batch. */
  int claimed[MAXN][MAXN] = {{0}};
  for (int k = 0; k < r.deg[0]; k++) {
    int b = r.adj[0][k];
    if (!seen[b]) { seen[b] = 1; claimed[0][k] = 1; fin_claim(&t, fp_of(b), st[0].index); }
  }
  while (depth > 0) {
    Frame *f = &st[depth - 1];
    if (f->next == r.deg[f->s]) {
      uint64_t *parent_low = depth > 1 ? &st[depth - 2].low : NULL;
      fin_pop(&t, f->index, f->low, parent_low, on_done, &r);
      depth--;
      continue;
    }
    int k = f->next++, b = r.adj[f->s][k];
    if (!claimed[f->s][k]) { fin_edge(&t, fp_of(b), &f->low); continue; }
    r.entered[b] = 1;
    Frame *c = &st[depth++];
    *c = (Frame){ b, 0, fin_push(&t, fp_of(b)), 0 };
    c->low = c->index;
    for (int j = 0; j < r.deg[b]; j++) {
      int d = r.adj[b][j];
      if (!seen[d]) { seen[d] = 1; claimed[b][j] = 1; fin_claim(&t, fp_of(d), c->index); }
    }
  }
  ck_assert_int_eq(r.reported, r.n);
  ck_assert_uint_eq(t.n, 0);       /* nothing left on the stack or pending */
  ck_assert_uint_eq(t.depth, 0);
  fin_fini(&t);
}
END_TEST

/* Tarjan's own answer where no successor is pending: a cycle closes as
** one component, at its root, after everything it reaches. */
START_TEST(test_components) {
  Finished t;
  fin_init(&t);
  /* 0 -> 1 -> 2 -> 1 (component {1,2}), 2 -> 3 (component {3}). */
  uint64_t i0 = fin_push(&t, fp_of(0)), l0 = i0;
  uint64_t i1 = fin_push(&t, fp_of(1)), l1 = i1;
  uint64_t i2 = fin_push(&t, fp_of(2)), l2 = i2;
  fin_edge(&t, fp_of(1), &l2);
  ck_assert_uint_eq(l2, i1);
  uint64_t i3 = fin_push(&t, fp_of(3)), l3 = i3;
  ck_assert_int_eq(fin_pop(&t, i3, l3, &l2, NULL, NULL), 1);   /* {3} closes */
  ck_assert_uint_eq(t.depth, 3);
  ck_assert_int_eq(fin_pop(&t, i2, l2, &l1, NULL, NULL), 0);   /* 2 waits for 1 */
  ck_assert_uint_eq(l1, i1);
  ck_assert_int_eq(fin_pop(&t, i1, l1, &l0, NULL, NULL), 1);   /* {1,2} closes */
  ck_assert_uint_eq(t.depth, 1);
  /* An edge into a closed component changes nothing. */
  uint64_t l = i0;
  fin_edge(&t, fp_of(2), &l);
  ck_assert_uint_eq(l, i0);
  ck_assert_int_eq(fin_pop(&t, i0, l0, NULL, NULL, NULL), 1);
  ck_assert_uint_eq(t.n, 0);
  fin_fini(&t);
}
END_TEST

int main(void) {
  Suite *s = suite_create("finished");
  TCase *tc = tcase_create("finished");
  tcase_add_loop_test(tc, test_graphs, 0, (int)(sizeof rows / sizeof rows[0]));
  tcase_add_test(tc, test_components);
  suite_add_tcase(s, tc);
  return run_suite(s);
}
