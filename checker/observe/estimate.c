/* estimate.c: the estimators of estimate.h. */
#include <config.h>
#include "checker/observe/estimate.h"
#include "vm/util.h"
#include "vm/hash.h"
#include "checker/engine/expand.h"
#include "checker/base/rng.h"
#include "checker/search/search.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- Eta's tree of executions ---- */

/* A node of the tree: a decision point met by some execution.  Children
** are kept as a list of the visited ones (index 0 is the root, so 0 also
** means "none" as a child or sibling link). */
typedef struct EtaNode {
  uint32_t nkids;            /* choices open here; 0: an execution ended here (a leaf) */
  uint32_t pick;             /* which child of its parent it is */
  uint32_t child, sibling;   /* first visited child; next visited sibling */
  uint32_t nvis;             /* visited children in the list */
  uint32_t xs_n;             /* executions past the node budget that left the tree here */
  uint8_t complete;          /* every execution below has been run */
  uint8_t ended;             /* an execution ended here */
  double lg;                 /* log2 of est(node) */
  double xs_lg;              /* log2 of the sum of those executions' Knuth estimates */
} EtaNode;

struct EtaTree {
  EtaNode *nodes;
  uint64_t n, cap, max;
  uint32_t *path;            /* the current execution's nodes from the root */
  uint64_t depth, pcap;
  int tail;                  /* the execution left the tree (budget): steps go to tail_lg */
  double tail_lg;            /* log2 of the product of the branching factors since */
  uint64_t executions, distinct;
};

double est_lg_add(double a, double b) {
  if (a == -INFINITY) return b;
  if (b == -INFINITY) return a;
  double m = a > b ? a : b;
  return m + log2(exp2(a - m) + exp2(b - m));
}

static uint32_t node_new(EtaTree *t, uint32_t pick) {
  if (t->n == t->cap) {
    t->cap = t->cap ? t->cap * 2 : 1024;
    t->nodes = xrealloc(t->nodes, t->cap * sizeof *t->nodes);
  }
  EtaNode *n = &t->nodes[t->n];
  memset(n, 0, sizeof *n);
  n->pick = pick;
  n->xs_lg = -INFINITY;
  return (uint32_t)t->n++;
}

EtaTree *eta_new(uint64_t max_nodes) {
  EtaTree *t = xcalloc(1, sizeof *t);
  t->max = max_nodes ? max_nodes : (1u << 18);
  if (t->max > UINT32_MAX) t->max = UINT32_MAX;
  node_new(t, 0);
  return t;
}

void eta_free(EtaTree *t) {
  if (!t) return;
  free(t->nodes);
  free(t->path);
  free(t);
}

static void path_push(EtaTree *t, uint32_t i) {
  if (t->depth == t->pcap) {
    t->pcap = t->pcap ? t->pcap * 2 : 256;
    t->path = xrealloc(t->path, t->pcap * sizeof *t->path);
  }
  t->path[t->depth++] = i;
}

void eta_begin(EtaTree *t) {
  t->depth = 0;
  t->tail = 0;
  t->tail_lg = 0;
  path_push(t, 0);
}

void eta_step(EtaTree *t, uint32_t nkids, uint32_t pick) {
  if (nkids == 0) nkids = 1;
  if (t->tail) { t->tail_lg += log2((double)nkids); return; }
  uint32_t cur = t->path[t->depth - 1];
  EtaNode *u = &t->nodes[cur];
  if (u->nkids == 0) u->nkids = nkids;
  uint32_t c = u->child;
  while (c && t->nodes[c].pick != pick) c = t->nodes[c].sibling;
  if (!c) {
    if (t->n >= t->max) {   /* over budget: the rest of the execution is one Knuth sample */
      t->tail = 1;
      t->tail_lg = 0;       /* the subtree of the child taken: its steps multiply in */
      return;
    }
    c = node_new(t, pick);
    u = &t->nodes[cur];     /* node_new may have moved the array */
    t->nodes[c].sibling = u->child;
    u->child = c;
    u->nvis++;
  }
  path_push(t, c);
}

/* est(u) from its children and its samples past the budget. */
static void node_update(EtaTree *t, EtaNode *u) {
  if (u->nkids == 0) { u->lg = 0; u->complete = 1; return; }
  if (u->nvis + u->xs_n == 0) {   /* only an execution that stopped at a bug went on from here */
    u->lg = 0;
    u->complete = 0;
    return;
  }
  double s = u->xs_lg;
  int complete = u->xs_n == 0 && u->nvis == u->nkids;
  for (uint32_t c = u->child; c; c = t->nodes[c].sibling) {
    s = est_lg_add(s, t->nodes[c].lg);
    complete &= t->nodes[c].complete;
  }
  u->lg = log2((double)u->nkids) + s - log2((double)(u->nvis + u->xs_n));
  u->complete = (uint8_t)complete;
}

void eta_end(EtaTree *t) {
  t->executions++;
  uint64_t i = t->depth;
  if (t->tail) {   /* a sample of the subtree of the node where it left the tree */
    EtaNode *u = &t->nodes[t->path[t->depth - 1]];
    u->xs_lg = est_lg_add(u->xs_lg, t->tail_lg);
    u->xs_n++;
    t->distinct++;
  } else {
    EtaNode *leaf = &t->nodes[t->path[t->depth - 1]];
    if (!leaf->ended && leaf->nkids == 0) t->distinct++;
    leaf->ended = 1;
  }
  while (i-- > 0) node_update(t, &t->nodes[t->path[i]]);
  t->depth = 0;
}

void eta_feed(EtaTree *t, const uint8_t *dec, size_t len) {
  for (size_t at = 0; at + 4 <= len;) {
    uint32_t n, pair[2];
    memcpy(&n, dec + at, 4);
    at += 4;
    eta_begin(t);
    for (uint32_t k = 0; k < n && at + 8 <= len; k++, at += 8) {
      memcpy(pair, dec + at, 8);
      eta_step(t, pair[0], pair[1]);
    }
    eta_end(t);
  }
}

double eta_log2(const EtaTree *t) { return t->executions ? t->nodes[0].lg : 0; }
uint64_t eta_executions(const EtaTree *t) { return t->executions; }
uint64_t eta_distinct(const EtaTree *t) { return t->distinct; }
int eta_exhausted(const EtaTree *t) { return t->executions && t->nodes[0].complete; }

/* ---- Capture and recapture ---- */

/* Distinct walk States kept (fingerprints in an open-addressing set): at
** most SAMPLE_MAX, at least SAMPLE_MIN before an estimate is given. */
enum { SAMPLE_MAX = 1 << 18, SAMPLE_MIN = 500, WALK_STEPS = 10000 };
#define WALK_START 0.02
/* Seconds the walks at the end of a search may take (sampler_update with
** force): a stopped search ends soon after its --timeout whatever its
** steps cost. */
#define WALK_FINAL 0.25

struct EstSampler {
  Vm *vm;
  const struct Reduction *red;
  Rng rng;
  Buf a, b;
  VmChoices ch;
  Expansion x;
  uint64_t *set;             /* SAMPLE_MAX * 2 slots, 0: empty */
  uint64_t *miss;            /* the fingerprints not yet found in the cache */
  uint64_t nmiss, distinct, hits;
  double spent;              /* seconds the walks took */
  double last;               /* elapsed seconds at the last update, -1: none yet */
  double est, factor;        /* the last estimate (-1: none) and its factor */
  int dead;                  /* the initial state fails: no walks */
  uint64_t walks;
  int cut;                   /* a walk reached WALK_STEPS: the states beyond are never sampled, no estimate */
  int in_walk;               /* a walk is under way (its State in a): the next walk_once goes on with it */
  uint64_t *pend;            /* its States' fingerprints (WALK_STEPS), added to the set when it ends */
  uint32_t npend;
  int steps;                 /* the steps it has taken */
};

EstSampler *sampler_new(const BcProgram *bc, const VmTest *test, const struct Reduction *red, uint64_t seed) {
  EstSampler *s = xcalloc(1, sizeof *s);
  s->vm = vm_new(bc, test);
  s->red = red;
  rng_seed(&s->rng, seed ^ 0x6a09e667f3bcc909ull);
  buf_init(&s->a);
  buf_init(&s->b);
  s->set = xcalloc(2 * SAMPLE_MAX, sizeof *s->set);
  s->miss = xmalloc(SAMPLE_MAX * sizeof *s->miss);
  s->pend = xmalloc(WALK_STEPS * sizeof *s->pend);
  s->last = -1;
  s->est = -1;
  return s;
}

void sampler_free(EstSampler *s) {
  if (!s) return;
  vm_free(s->vm);
  buf_fini(&s->a);
  buf_fini(&s->b);
  vm_choices_fini(&s->ch);
  expand_fini(&s->x);
  free(s->set);
  free(s->miss);
  free(s->pend);
  free(s);
}

/* Add fp to the distinct walk States (1 if it was new). */
static int sample_add(EstSampler *s, uint64_t fp) {
  if (!fp) fp = 1;
  uint64_t m = 2 * SAMPLE_MAX - 1;
  for (uint64_t i = rng_mix(fp) & m;; i = (i + 1) & m) {
    if (s->set[i] == fp) return 0;
    if (!s->set[i]) {
      s->set[i] = fp;
      s->miss[s->nmiss++] = fp;
      s->distinct++;
      return 1;
    }
  }
}

/* The end of the walk under way: its States join the sample.  A walk
** counts whole or not at all, so that the estimate never rests on the
** first part of a walk whose end is still to come (a long one may yet be
** cut at WALK_STEPS, which withdraws the estimate). */
static void walk_end(EstSampler *s) {
  s->in_walk = 0;
  for (uint32_t i = 0; i < s->npend; i++) sample_add(s, s->pend[i]);
  s->npend = 0;
}

/* One walk: until nothing is enabled, a step fails, WALK_STEPS steps or
** the set is full; or, past deadline (search_now()), for now: the walk
** stays under way (s->in_walk, its States held in s->pend) and the next
** call goes on with it, so that the walks are the same however long
** their steps take. */
static void walk_once(EstSampler *s, double deadline) {
  if (!s->in_walk) {
    s->walks++;
    if (vm_initial(s->vm, &s->a) != VM_OK) { s->dead = 1; return; }
    s->in_walk = 1;
    s->steps = 0;
  }
  for (; s->steps < WALK_STEPS && s->distinct + s->npend < SAMPLE_MAX; s->steps++) {
    if (search_now() > deadline) return;   /* a clock read: far less than a step */
    const uint8_t *st = (const uint8_t *)s->a.data;
    if (vm_choices(s->vm, st, s->a.len, &s->ch) != VM_OK || s->ch.n == 0) { walk_end(s); return; }
    if (s->red) expand_renarrow(&s->x, s->red, s->vm, st, s->a.len, &s->ch);
    uint32_t j = rng_below(&s->rng, s->ch.n);
    if (vm_step(s->vm, st, s->a.len, expand_choice(&s->ch, j), &s->b) != VM_OK) { walk_end(s); return; }
    Buf t = s->a;
    s->a = s->b;
    s->b = t;
    s->pend[s->npend++] = state_hash(s->a.data, s->a.len);
  }
  int full = s->steps < WALK_STEPS;   /* the loop ended on the set's size, not the walk's length */
  walk_end(s);
  if (!full) s->cut = 1;
}

void sampler_walk(EstSampler *s, double elapsed, double share) {
  /* At least WALK_START seconds of walks, so that a short run has an
  ** estimate early. */
  double allowed = elapsed * share > WALK_START ? elapsed * share : WALK_START;
  for (int n = 0; n < 64 && !s->dead && !s->cut && s->distinct < SAMPLE_MAX && s->spent <= allowed; n++) {
    double t0 = search_now();
    walk_once(s, t0 + (allowed - s->spent));
    s->spent += search_now() - t0;
  }
}

double sampler_estimate(EstSampler *s, struct StateCache *cache, uint64_t states, double *factor) {
  /* A State found stays found (the cache keeps what it holds, unless it
  ** is full and replaces entries: then the estimate is low). */
  uint64_t k = 0;
  for (uint64_t i = 0; i < s->nmiss; i++) {
    if (sc_contains(cache, s->miss[i])) s->hits++;
    else s->miss[k++] = s->miss[i];
  }
  s->nmiss = k;
  *factor = 0;
  if (!s->hits || (s->distinct < SAMPLE_MIN && s->walks < 256) || s->cut) return -1;
  double f = (double)s->hits / (double)s->distinct;
  /* 95% interval of the binomial fraction f (with 3/F for a fraction
  ** near 1, the rule of three), as a factor on states / f. */
  double se = sqrt(f * (1 - f) / (double)s->distinct);
  double lo = f - 2 * se - 3.0 / (double)s->distinct;
  *factor = lo > 0 ? f / lo : 10;
  if (*factor < 1) *factor = 1;
  return (double)states / f;
}

void sampler_update(EstSampler *s, struct StateCache *cache, uint64_t states, double elapsed, int force,
                    struct SearchResult *r) {
  /* Updates at most every fiftieth of the elapsed time (between 1 ms and
  ** half a second): often early, when a short run's estimate changes. */
  double every = elapsed / 50 < 0.001 ? 0.001 : elapsed / 50 > 0.5 ? 0.5 : elapsed / 50;
  if (force || s->last < 0 || elapsed - s->last >= every) {
    s->last = elapsed;
    if (!force) sampler_walk(s, elapsed, 0.02);
    /* A short run: enough walks for an estimate at its end. */
    double deadline = search_now() + WALK_FINAL;
    for (int n = 0; force && n < 256 && !s->dead && !s->cut && s->distinct < SAMPLE_MIN && search_now() <= deadline; n++)
      walk_once(s, deadline);
    s->est = sampler_estimate(s, cache, states, &s->factor);
  }
  if (s->est <= 0) return;
  r->est_kind = EST_STATES;
  r->est_log2 = log2(s->est > (double)states ? s->est : (double)states);
  r->est_factor = s->factor;
  r->est_done = states;
}

static void est_exact(struct SearchResult *r) {
  r->est_kind = EST_STATES;
  r->est_log2 = log2(r->states ? (double)r->states : 1);
  r->est_factor = 1;
  r->est_done = r->states;
}

void sampler_finish(EstSampler *s, struct StateCache *cache, double elapsed, struct SearchResult *r) {
  if (r->complete) est_exact(r);
  else if (s && cache && !r->bug && !r->error) sampler_update(s, cache, r->states, elapsed, 1, r);
}

/* ---- Layers ---- */

void layers_fini(EstLayers *l) {
  free(l->size);
  memset(l, 0, sizeof *l);
}

void layers_add(EstLayers *l, double size) {
  if (l->n == l->cap) {
    l->cap = l->cap ? l->cap * 2 : 32;
    l->size = xrealloc(l->size, l->cap * sizeof *l->size);
  }
  l->size[l->n++] = size;
}

/* The fitted trend of the last layers' ratios: log r_i = a + b i over the
** last (up to) 6 ratios i = from .. n-2 (ratio i: size[i+1] / size[i]).
** 0 when fewer than 2 ratios. */
static int ratio_trend(const double *size, uint32_t n, double *a, double *b) {
  if (n < 3) return 0;
  uint32_t from = n > 7 ? n - 7 : 0;
  double sx = 0, sy = 0, sxx = 0, sxy = 0, k = 0;
  for (uint32_t i = from; i + 1 < n; i++) {
    if (size[i] <= 0 || size[i + 1] <= 0) continue;
    double y = log(size[i + 1] / size[i]);
    sx += i; sy += y; sxx += (double)i * i; sxy += i * y; k++;
  }
  if (k < 2) return 0;
  double den = k * sxx - sx * sx;
  *b = den > 0 ? (k * sxy - sx * sy) / den : 0;
  *a = (sy - *b * sx) / k;
  return 1;
}

double layers_next(const EstLayers *l, double cur_est) {
  uint32_t n = l->n;
  double *sz = xmalloc((n + 1) * sizeof *sz);
  if (n) memcpy(sz, l->size, n * sizeof *sz);
  if (cur_est >= 0) sz[n++] = cur_est;
  double a, b, next = -1;
  if (n >= 1 && sz[n - 1] > 0) {
    if (ratio_trend(sz, n, &a, &b)) next = sz[n - 1] * exp(a + b * (n - 1));
    else if (n >= 2 && sz[n - 2] > 0) next = sz[n - 1] * sz[n - 1] / sz[n - 2];
  }
  free(sz);
  return next;
}

/* ---- Reporting ---- */

void est_format(char *b, size_t n, double log2) {
  if (log2 >= 1000) { snprintf(b, n, "2^%.0f", log2); return; }
  double v = exp2(log2);
  if (v >= 1e15) snprintf(b, n, "%.2g", v);
  else fmt_grouped(b, n, (uint64_t)llround(v));
}

double est_fraction(double done, double log2) {
  if (log2 > 62) return 0;   /* nothing run covers a measurable part of it */
  if (done <= 0) return -1;
  double f = done / exp2(log2);
  return f > 1 ? 1 : f;
}
