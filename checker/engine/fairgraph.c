/* fairgraph.c: fair cycles in a finished graph (fairgraph.h).  The graph
** is split into its strongly connected components (SCCs) by Tarjan's
** algorithm; each nontrivial one is refined as Emerson and Lei do for
** fairness: a data choice with an option leaving the set cannot be
** visited forever by a fair execution that stays in it, so it goes, and
** what remains is split again; a set that loses nothing is accepted when
** every machine runs on one of its edges or is disabled in one of its
** nodes.  The cycle through an accepted set is built by BFS between the
** nodes and edges that witness fairness. */
#include <config.h>
#include "checker/engine/fairgraph.h"
#include <stdlib.h>
#include <string.h>

enum { GONE = UINT32_MAX, MARK = UINT32_MAX - 1 };   /* labels: removed; to be removed */

/* A data node of a set being checked by choice points (sorted by key). */
typedef struct Point {
  uint64_t key;
  uint32_t nopt, u;
} Point;

struct FairGraph {
  uint32_t n, nw;            /* nodes, words per enabled set */
  uint32_t given;            /* nodes given so far */
  uint8_t *kind;
  uint8_t *hot;              /* the spec is hot at the node (else warm: neither hot nor cold) */
  uint32_t *actor, *nopt;
  uint64_t *key;
  uint64_t *en;              /* n * nw words */
  uint64_t *off;             /* node u's edges: to/ch[off[u] .. off[u + 1]) */
  uint32_t *to, *ch;
  uint64_t m, ecap;          /* edges given, room */
  uint64_t ncap, wcap;       /* node and word room */
  /* Refinement: */
  uint32_t *label;           /* the set a node belongs to, GONE, or MARK */
  uint32_t *mem;             /* the members of the sets to look at, in segments */
  uint32_t *tmp;             /* members being rewritten */
  uint64_t *work;            /* (start, count, label) triples */
  uint32_t nextlab;
  uint32_t *t_idx, *t_low, *t_stk, *t_cs;
  uint64_t *t_ci;
  uint8_t *onstk;
  Point *pts;
  uint64_t *bits, bcap;      /* options seen, per choice point */
  uint64_t *wand, *wran;     /* nw words each: enabled everywhere, ran somewhere */
  uint32_t *unsure, nunsure;
  uint32_t found;            /* the label accepted */
  /* BFS: */
  uint32_t *par, *seen, stamp;
  uint64_t *pare;            /* the edge taken into a node */
  /* The cycle being built: */
  uint8_t *on;               /* node on the cycle */
  uint32_t *pending;         /* data node on the cycle: its edges inside the set not taken yet */
  uint64_t *taken;           /* bitset over edges: taken on the cycle */
  uint64_t tcap;
};

FairGraph *fg_new(void) { return xcalloc(1, sizeof(FairGraph)); }

void fg_free(FairGraph *g) {
  if (!g) return;
  free(g->kind); free(g->hot); free(g->actor); free(g->nopt); free(g->key); free(g->en); free(g->off);
  free(g->to); free(g->ch); free(g->label); free(g->mem); free(g->tmp); free(g->work);
  free(g->t_idx); free(g->t_low); free(g->t_stk); free(g->t_cs); free(g->t_ci); free(g->onstk);
  free(g->pts); free(g->bits); free(g->wand); free(g->wran); free(g->unsure);
  free(g->par); free(g->seen); free(g->pare); free(g->on); free(g->taken); free(g->pending);
  free(g);
}

void fg_begin(FairGraph *g, uint32_t n, uint32_t nwords) {
  if (nwords == 0) nwords = 1;
  if (n + 1 > g->ncap) {
    uint64_t c = g->ncap = n + 1 > 2 * g->ncap ? n + 1 : 2 * g->ncap;
    g->kind = xrealloc(g->kind, c);
    g->hot = xrealloc(g->hot, c);
    g->actor = xrealloc(g->actor, c * 4);
    g->nopt = xrealloc(g->nopt, c * 4);
    g->key = xrealloc(g->key, c * 8);
    g->off = xrealloc(g->off, (c + 1) * 8);
    g->label = xrealloc(g->label, c * 4);
    g->mem = xrealloc(g->mem, c * 4);
    g->tmp = xrealloc(g->tmp, c * 4);
    g->work = xrealloc(g->work, 3 * (c + 1) * 8);
    g->t_idx = xrealloc(g->t_idx, c * 4);
    g->t_low = xrealloc(g->t_low, c * 4);
    g->t_stk = xrealloc(g->t_stk, c * 4);
    g->t_cs = xrealloc(g->t_cs, c * 4);
    g->t_ci = xrealloc(g->t_ci, c * 8);
    g->onstk = xrealloc(g->onstk, c);
    g->pts = xrealloc(g->pts, c * sizeof *g->pts);
    g->unsure = xrealloc(g->unsure, c * 4);
    g->par = xrealloc(g->par, c * 4);
    g->pare = xrealloc(g->pare, c * 8);
    g->seen = xrealloc(g->seen, c * 4);
    g->on = xrealloc(g->on, c);
    g->pending = xrealloc(g->pending, c * 4);
    memset(g->seen, 0, c * 4);
    g->stamp = 0;
  }
  if ((uint64_t)n * nwords > g->wcap) {
    g->wcap = (uint64_t)n * nwords > 2 * g->wcap ? (uint64_t)n * nwords : 2 * g->wcap;
    g->en = xrealloc(g->en, g->wcap * 8);
  }
  g->wand = xrealloc(g->wand, nwords * 8);
  g->wran = xrealloc(g->wran, nwords * 8);
  g->n = n;
  g->nw = nwords;
  g->given = 0;
  g->m = 0;
  g->off[0] = 0;
}

uint64_t *fg_node(FairGraph *g, uint32_t u, uint8_t kind, uint32_t actor, uint32_t nopt, uint64_t key, int hot) {
  g->kind[u] = kind;
  g->hot[u] = hot != 0;
  g->actor[u] = actor;
  g->nopt[u] = kind == VC_DATA ? nopt : 0;
  g->key[u] = key;
  g->off[u] = g->m;
  g->off[u + 1] = g->m;
  g->given = u + 1;
  uint64_t *w = g->en + (uint64_t)u * g->nw;
  memset(w, 0, g->nw * 8);
  return w;
}

void fg_edge(FairGraph *g, uint32_t choice, uint32_t to) {
  if (g->m == g->ecap) {
    g->ecap = g->ecap ? 2 * g->ecap : 1024;
    g->to = xrealloc(g->to, g->ecap * 4);
    g->ch = xrealloc(g->ch, g->ecap * 4);
  }
  g->to[g->m] = to;
  g->ch[g->m++] = choice;
  g->off[g->given] = g->m;
}

/* The machine that runs on node u's edge with choice c. */
static uint32_t runs(const FairGraph *g, uint32_t u, uint32_t c) { return g->kind[u] == VC_MACHINE ? c : g->actor[u]; }

/* Tarjan's algorithm over the members mem[from .. from + cnt) that have
** label lab, following only edges between them.  Each nontrivial SCC gets
** a fresh label and its members are written, one SCC after another, to
** tmp; the others are removed (GONE).  Pushes a work item per nontrivial
** SCC, its members copied back over mem[from ..), and returns how many
** items were pushed. */
static uint32_t split(FairGraph *g, uint64_t from, uint64_t cnt, uint32_t lab, uint64_t *nwork) {
  uint32_t idx = 0, sp = 0, pushed = 0;
  uint64_t w = 0;
  for (uint64_t j = from; j < from + cnt; j++) g->t_idx[g->mem[j]] = GONE;
  for (uint64_t j = from; j < from + cnt; j++) {
    uint32_t r = g->mem[j];
    if (g->label[r] != lab || g->t_idx[r] != GONE) continue;
    uint32_t cs = 0;
    g->t_cs[cs] = r;
    g->t_ci[cs++] = g->off[r];
    g->t_idx[r] = g->t_low[r] = idx++;
    g->t_stk[sp++] = r;
    g->onstk[r] = 1;
    while (cs) {
      uint32_t u = g->t_cs[cs - 1];
      uint64_t e = g->t_ci[cs - 1];
      if (e < g->off[u + 1]) {
        g->t_ci[cs - 1]++;
        uint32_t t = g->to[e];
        if (t == FG_OUT || g->label[t] != lab) continue;
        if (g->t_idx[t] == GONE) {
          g->t_idx[t] = g->t_low[t] = idx++;
          g->t_stk[sp++] = t;
          g->onstk[t] = 1;
          g->t_cs[cs] = t;
          g->t_ci[cs++] = g->off[t];
        } else if (g->onstk[t] && g->t_idx[t] < g->t_low[u]) {
          g->t_low[u] = g->t_idx[t];
        }
        continue;
      }
      cs--;
      if (cs && g->t_low[u] < g->t_low[g->t_cs[cs - 1]]) g->t_low[g->t_cs[cs - 1]] = g->t_low[u];
      if (g->t_low[u] != g->t_idx[u]) continue;
      /* u roots an SCC: the stack down to u. */
      uint32_t at = sp;
      while (g->t_stk[--at] != u) {
      }
      int self = 0;
      if (sp - at == 1)
        for (uint64_t x = g->off[u]; x < g->off[u + 1] && !self; x++) self = g->to[x] == u;
      uint32_t nl = sp - at > 1 || self ? g->nextlab++ : GONE;
      if (nl != GONE) {
        g->work[3 * *nwork] = from + w;
        g->work[3 * *nwork + 1] = sp - at;
        g->work[3 * *nwork + 2] = nl;
        ++*nwork;
        pushed++;
      }
      for (uint32_t i = at; i < sp; i++) {
        uint32_t v = g->t_stk[i];
        g->onstk[v] = 0;
        g->label[v] = nl;
        if (nl != GONE) g->tmp[w++] = v;
      }
      sp = at;
    }
  }
  memcpy(g->mem + from, g->tmp, w * 4);
  return pushed;
}

static int point_cmp(const void *a, const void *b) {
  const Point *x = a, *y = b;
  if (x->key != y->key) return x->key < y->key ? -1 : 1;
  if (x->nopt != y->nopt) return x->nopt < y->nopt ? -1 : 1;
  return x->u < y->u ? -1 : x->u > y->u;
}

/* Strong fairness of the data choices of the set lab (members mem[st ..
** st + c)): a choice point (a node, or with keys all data nodes of one key
** and option count) whose options do not all have an edge inside the set
** is marked for removal.  Returns how many nodes were marked. */
static uint64_t mark_leaky(FairGraph *g, uint64_t st, uint64_t c, uint32_t lab, int keyed) {
  uint32_t np = 0;
  for (uint64_t j = st; j < st + c; j++) {
    uint32_t u = g->mem[j];
    if (g->kind[u] == VC_DATA) g->pts[np++] = (Point){ keyed ? g->key[u] : u, g->nopt[u], u };
  }
  if (keyed) qsort(g->pts, np, sizeof *g->pts, point_cmp);
  uint64_t marked = 0;
  for (uint32_t i = 0; i < np;) {
    uint32_t j = i + 1;
    if (keyed)
      while (j < np && g->pts[j].key == g->pts[i].key && g->pts[j].nopt == g->pts[i].nopt) j++;
    uint32_t nopt = g->pts[i].nopt;
    uint64_t words = nopt / 64 + 1;
    if (words > g->bcap) {
      g->bcap = words;
      g->bits = xrealloc(g->bits, words * 8);
    }
    memset(g->bits, 0, words * 8);
    uint32_t got = 0;
    for (uint32_t p = i; p < j; p++) {
      uint32_t u = g->pts[p].u;
      for (uint64_t e = g->off[u]; e < g->off[u + 1]; e++) {
        uint32_t t = g->to[e], o = g->ch[e];
        if (t == FG_OUT || g->label[t] != lab || o >= nopt || (g->bits[o / 64] >> (o % 64) & 1)) continue;
        g->bits[o / 64] |= 1ull << (o % 64);
        got++;
      }
    }
    if (got < nopt)
      for (uint32_t p = i; p < j; p++) {
        g->label[g->pts[p].u] = MARK;
        marked++;
      }
    i = j;
  }
  return marked;
}

/* Weak fairness of the set lab: every machine runs on an edge inside it
** or is disabled in one of its nodes. */
static int weakly_fair(FairGraph *g, uint64_t st, uint64_t c, uint32_t lab) {
  for (uint32_t w = 0; w < g->nw; w++) {
    g->wand[w] = ~0ull;
    g->wran[w] = 0;
  }
  for (uint64_t j = st; j < st + c; j++) {
    uint32_t u = g->mem[j];
    const uint64_t *en = g->en + (uint64_t)u * g->nw;
    for (uint32_t w = 0; w < g->nw; w++) g->wand[w] &= en[w];
    for (uint64_t e = g->off[u]; e < g->off[u + 1]; e++) {
      uint32_t t = g->to[e];
      if (t == FG_OUT || g->label[t] != lab) continue;
      uint32_t a = runs(g, u, g->ch[e]);
      if (a / 64 < g->nw) g->wran[a / 64] |= 1ull << (a % 64);
    }
  }
  for (uint32_t w = 0; w < g->nw; w++)
    if (g->wand[w] & ~g->wran[w]) return 0;
  return 1;
}

/* Does the set (members mem[st .. st + c)) hold a node where the spec is
** hot?  A cycle through warm states only owes nothing (P's temperature
** rises only in hot states). */
static int holds_hot(const FairGraph *g, uint64_t st, uint64_t c) {
  for (uint64_t j = st; j < st + c; j++)
    if (g->hot[g->mem[j]]) return 1;
  return 0;
}

/* Refine the work items above `floor` (mode FG_EXACT or FG_UNFAIR, or keyed
** for FG_KEYED's first pass) until a set is accepted (its label in
** g->found: 1) or none is left (0).  Keyed: an accepted set is searched
** again by node; if it holds no fair cycle, one of its nodes goes to
** g->unsure and the search goes on. */
static int refine(FairGraph *g, uint64_t floor, uint64_t *nwork, FgMode mode, int keyed) {
  while (*nwork > floor) {
    --*nwork;
    uint64_t st = g->work[3 * *nwork], c = g->work[3 * *nwork + 1];
    uint32_t lab = (uint32_t)g->work[3 * *nwork + 2];
    if (mode != FG_UNFAIR && mark_leaky(g, st, c, lab, keyed)) {
      for (uint64_t j = st; j < st + c; j++)
        if (g->label[g->mem[j]] == MARK) g->label[g->mem[j]] = GONE;
      split(g, st, c, lab, nwork);
      continue;
    }
    if (mode != FG_UNFAIR && !weakly_fair(g, st, c, lab)) continue;
    if (!holds_hot(g, st, c)) continue;   /* nor do its subsets */
    if (!keyed) {
      g->found = lab;
      return 1;
    }
    /* Fair by keys: now by nodes, inside this set. */
    uint32_t low = g->mem[st];
    for (uint64_t j = st; j < st + c; j++)
      if (g->mem[j] < low) low = g->mem[j];
    uint64_t base = *nwork;
    g->work[3 * base] = st;
    g->work[3 * base + 1] = c;
    g->work[3 * base + 2] = lab;
    *nwork = base + 1;
    if (refine(g, base, nwork, FG_EXACT, 0)) return 1;
    g->unsure[g->nunsure++] = low;
  }
  return 0;
}

FgVerdict fg_search(FairGraph *g, FgMode mode, uint32_t *e) {
  g->nunsure = 0;
  g->nextlab = 1;
  for (uint32_t u = 0; u < g->n; u++) {
    g->label[u] = 0;
    g->mem[u] = u;
    g->onstk[u] = 0;
  }
  uint64_t nwork = 0;
  split(g, 0, g->n, 0, &nwork);
  if (!refine(g, 0, &nwork, mode, mode == FG_KEYED)) return g->nunsure ? FG_UNSURE : FG_NOTHING;
  uint32_t low = GONE;
  for (uint32_t u = 0; u < g->n && low == GONE; u++)
    if (g->label[u] == g->found && g->hot[u]) low = u;
  *e = low;
  return FG_FOUND;
}

const uint32_t *fg_unsure(const FairGraph *g, uint32_t *n) {
  *n = g->nunsure;
  return g->unsure;
}

void fg_trace_push(FgTrace *t, uint8_t kind, uint32_t value) {
  if (t->n == t->cap) {
    t->cap = t->cap ? 2 * t->cap : 64;
    t->v = xrealloc(t->v, t->cap * sizeof *t->v);
  }
  t->v[t->n].kind = kind;
  t->v[t->n++].value = value;
}

/* The cycle being built passes node u: what it asks from then on (its
** machines enabled narrow the ones the cycle must let run; at a data
** choice, each of its edges inside the set must be taken). */
static void visit(FairGraph *g, uint32_t u, uint32_t lab) {
  if (g->on[u]) return;
  g->on[u] = 1;
  const uint64_t *en = g->en + (uint64_t)u * g->nw;
  for (uint32_t w = 0; w < g->nw; w++) g->wand[w] &= en[w];
  g->pending[u] = 0;
  if (g->kind[u] == VC_DATA)
    for (uint64_t e = g->off[u]; e < g->off[u + 1]; e++) g->pending[u] += g->to[e] != FG_OUT && g->label[g->to[e]] == lab;
}

/* The cycle takes edge e of node u (noted, appended to t). */
static void take(FairGraph *g, uint32_t u, uint64_t e, uint32_t lab, FgTrace *t) {
  visit(g, u, lab);
  fg_trace_push(t, g->kind[u], g->ch[e]);
  if (!(g->taken[e / 64] >> (e % 64) & 1)) {
    g->taken[e / 64] |= 1ull << (e % 64);
    if (g->kind[u] == VC_DATA) g->pending[u]--;
  }
  uint32_t a = runs(g, u, g->ch[e]);
  if (a / 64 < g->nw) g->wran[a / 64] |= 1ull << (a % 64);
  visit(g, g->to[e], lab);
}

/* What a BFS looks for. */
enum { TO_NODE, TO_PENDING, TO_MACHINE };

/* Does node v end a BFS looking for `what` (b: the node, or the machine)? */
static int bfs_target(const FairGraph *g, uint32_t v, int what, uint32_t b, uint32_t lab) {
  if (what == TO_NODE) return v == b;
  if (what == TO_PENDING) return g->on[v] && g->pending[v] > 0;
  if (!(g->en[(uint64_t)v * g->nw + b / 64] >> (b % 64) & 1)) return 1;   /* machine b is disabled at v */
  for (uint64_t e = g->off[v]; e < g->off[v + 1]; e++)
    if (g->to[e] != FG_OUT && g->label[g->to[e]] == lab && runs(g, v, g->ch[e]) == b) return 1;
  return 0;
}

/* Shortest path by BFS from a to a node that ends it (bfs_target) through
** nodes of label `within` (GONE: any node), a itself if it ends it unless
** nonempty; appends its steps to t (taken for the cycle if `cyc`).  The
** node reached, or GONE if there is none. */
static uint32_t bfs(FairGraph *g, uint32_t a, int what, uint32_t b, uint32_t within, int nonempty, int cyc,
                    FgTrace *t) {
  if (!nonempty && bfs_target(g, a, what, b, within)) return a;
  if (++g->stamp == 0) {
    memset(g->seen, 0, g->ncap * 4);
    g->stamp = 1;
  }
  uint32_t *q = g->t_stk, qh = 0, qt = 0, found = GONE;
  /* The start is not marked seen when the path must be nonempty, so that
  ** it can be the end of a cycle. */
  if (!nonempty) g->seen[a] = g->stamp;
  q[qt++] = a;
  while (qh < qt && found == GONE) {
    uint32_t u = q[qh++];
    for (uint64_t e = g->off[u]; e < g->off[u + 1]; e++) {
      uint32_t v = g->to[e];
      if (v == FG_OUT || g->seen[v] == g->stamp || (within != GONE && g->label[v] != within)) continue;
      g->seen[v] = g->stamp;
      g->par[v] = u;
      g->pare[v] = e;
      if (bfs_target(g, v, what, b, within)) { found = v; break; }
      q[qt++] = v;
    }
  }
  if (found == GONE) return GONE;
  uint32_t n = 0, at = found, *rev = g->t_cs;
  do {
    rev[n++] = at;
    at = g->par[at];
  } while (at != a);
  /* rev holds the end back to the node after a; walk it backwards. */
  for (uint32_t i = n; i-- > 0;) {
    uint32_t v = rev[i], u = g->par[v];
    if (cyc) take(g, u, g->pare[v], within, t);
    else fg_trace_push(t, g->kind[u], g->ch[g->pare[v]]);
  }
  return found;
}

int fg_path(FairGraph *g, uint32_t a, uint32_t b, FgTrace *t) {
  return bfs(g, a, TO_NODE, b, GONE, 0, 0, t) == GONE ? -1 : 0;
}

int fg_cycle(FairGraph *g, FgMode mode, FgTrace *t) {
  uint32_t lab = g->found, e = GONE;
  for (uint32_t u = 0; u < g->n && e == GONE; u++)
    if (g->label[u] == lab && g->hot[u]) e = u;
  if (e == GONE) return -1;
  if (mode == FG_UNFAIR) return bfs(g, e, TO_NODE, e, lab, 1, 0, t) == GONE ? -1 : 0;
  if ((g->m + 63) / 64 > g->tcap) {
    g->tcap = (g->m + 63) / 64;
    g->taken = xrealloc(g->taken, g->tcap * 8);
  }
  memset(g->taken, 0, ((g->m + 63) / 64) * 8);
  memset(g->on, 0, g->n);
  for (uint32_t w = 0; w < g->nw; w++) {
    g->wand[w] = ~0ull;
    g->wran[w] = 0;
  }
  /* A walk from e that meets every obligation the nodes it passes bring
  ** (each edge of a data node inside the set taken; each machine enabled
  ** in all of them run), the nearest first, then back to e; the set is
  ** closed under the data nodes' edges and passed the weak test, so each
  ** obligation can be met inside it.  Each step either takes an edge not
  ** taken before or meets a machine's obligation, or closes the walk at
  ** e having passed a node not passed before: it ends. */
  uint64_t start = t->n;
  uint32_t cur = e;
  visit(g, e, lab);
  for (;;) {
    if (g->kind[cur] == VC_DATA && g->pending[cur]) {   /* an edge of cur not taken yet */
      uint64_t x = g->off[cur];
      while (g->to[x] == FG_OUT || g->label[g->to[x]] != lab || (g->taken[x / 64] >> (x % 64) & 1)) x++;
      take(g, cur, x, lab, t);
      cur = g->to[x];
      continue;
    }
    uint32_t v = bfs(g, cur, TO_PENDING, 0, lab, 0, 1, t);
    if (v != GONE) {
      cur = v;
      continue;
    }
    uint32_t m = GONE;
    for (uint32_t w = 0; w < g->nw && m == GONE; w++)
      if (g->wand[w] & ~g->wran[w]) m = w * 64 + (uint32_t)__builtin_ctzll(g->wand[w] & ~g->wran[w]);
    if (m != GONE) {   /* a node where m is disabled, or an edge where it runs */
      cur = bfs(g, cur, TO_MACHINE, m, lab, 0, 1, t);
      if (cur == GONE) return -1;   /* the weak test said there was one */
      if (g->en[(uint64_t)cur * g->nw + m / 64] >> (m % 64) & 1) {
        uint64_t x = g->off[cur];
        while (g->to[x] == FG_OUT || g->label[g->to[x]] != lab || runs(g, cur, g->ch[x]) != m) x++;
        take(g, cur, x, lab, t);
        cur = g->to[x];
      }
      continue;
    }
    if (cur == e && t->n > start) return 0;   /* every obligation met, and back at e */
    if (bfs(g, cur, TO_NODE, e, lab, cur == e, 1, t) == GONE) return -1;
    cur = e;
  }
}
