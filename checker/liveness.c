/* liveness.c: liveness as P means it (the definitions are doc/liveness.md's).
** Hot cycles: for one spec k at a time, Tarjan's algorithm over the
** subgraph H_k of states where k is hot, run from the states the calling
** search hands over; each nontrivial strongly connected component (SCC) is
** refined as Emerson and Lei do for fairness (drop the `$$` states with an
** outcome leaving it, split again) and accepted when every machine runs on
** one of its edges or is disabled in one of its states.  The counterexample
** is a lasso through the accepted SCC, built by BFS between the states and
** edges that witness fairness.  Also here: P's temperature count for the
** sampling searches, and the fairness check of a lasso for --replay.  The
** order of the main search is the caller's; this file never writes output. */
#include <config.h>
#include "checker/liveness.h"
#include <stdlib.h>
#include <string.h>
#include "vm/hash.h"

enum { NONE32 = UINT32_MAX };   /* "no node": an edge target outside the SCC */

/* One visited set serves every spec: spec k's entries are fingerprints
** xor salt(k), so "visited for k" and "visited for j" never mix. */
static uint64_t salt(int k) { return 0x9e3779b97f4a7c15ull * (uint64_t)(k + 1); }

/* ------------------------------------------------------------------------ */
/* Fingerprint -> position on the Tarjan stack.  Open addressing, linear    */
/* probing, backward-shift deletion; key 0 marks an empty slot (a           */
/* fingerprint 0 is stored as 1).                                           */

typedef struct FpMap {
  uint64_t *key;
  uint64_t *val;
  uint64_t cap, n;           /* cap: a power of two, or 0 */
} FpMap;

/* The slot holding k, or the empty slot where it would go (cap > 0, and
** at least one slot empty: the table is never more than half full). */
static uint64_t fm_slot(const FpMap *m, uint64_t k) {
  uint64_t i = (k ^ (k >> 29)) & (m->cap - 1);
  while (m->key[i] && m->key[i] != k) i = (i + 1) & (m->cap - 1);
  return i;
}

/* Map k to v (replacing its value if present); doubles the table past
** half full. */
static void fm_put(FpMap *m, uint64_t k, uint64_t v) {
  if (!k) k = 1;
  if (2 * (m->n + 1) > m->cap) {
    FpMap big = { NULL, NULL, m->cap ? 2 * m->cap : 1024, 0 };
    big.key = xcalloc(big.cap, sizeof *big.key);
    big.val = xmalloc(big.cap * sizeof *big.val);
    for (uint64_t i = 0; i < m->cap; i++)
      if (m->key[i]) {
        uint64_t j = fm_slot(&big, m->key[i]);
        big.key[j] = m->key[i];
        big.val[j] = m->val[i];
        big.n++;
      }
    free(m->key);
    free(m->val);
    *m = big;
  }
  uint64_t i = fm_slot(m, k);
  if (!m->key[i]) { m->key[i] = k; m->n++; }
  m->val[i] = v;
}

/* 1 and *v = k's value if k is present, else 0. */
static int fm_get(const FpMap *m, uint64_t k, uint64_t *v) {
  if (!m->cap) return 0;
  if (!k) k = 1;
  uint64_t i = fm_slot(m, k);
  if (!m->key[i]) return 0;
  *v = m->val[i];
  return 1;
}

/* Remove k if present; the entries after it in its probe run move back
** so that no run has a hole (lookups stop at the first empty slot). */
static void fm_del(FpMap *m, uint64_t k) {
  if (!m->cap) return;
  if (!k) k = 1;
  uint64_t i = fm_slot(m, k);
  if (!m->key[i]) return;
  m->key[i] = 0;
  m->n--;
  for (uint64_t j = (i + 1) & (m->cap - 1); m->key[j]; j = (j + 1) & (m->cap - 1)) {
    uint64_t k2 = m->key[j], home = (k2 ^ (k2 >> 29)) & (m->cap - 1);
    /* Move j back to the hole at i unless its home lies in (i, j]. */
    int stays = i <= j ? (home > i && home <= j) : (home > i || home <= j);
    if (!stays) {
      m->key[i] = k2;
      m->val[i] = m->val[j];
      m->key[j] = 0;
      i = j;
    }
  }
}

static void fm_fini(FpMap *m) {
  free(m->key);
  free(m->val);
  memset(m, 0, sizeof *m);
}

/* ------------------------------------------------------------------------ */
/* The search's structures.                                                 */

/* An edge of H_k found from a node: the successor's fingerprint and the
** choice that leads there. */
typedef struct LEdge {
  uint64_t fp;
  uint32_t choice;           /* machine id, or option index */
  uint32_t zero;
} LEdge;

/* A state on the Tarjan stack (position = its index in Liveness.node). */
typedef struct LNode {
  uint64_t off;              /* its bytes: Liveness.bytes.data + off */
  uint64_t fp;
  uint64_t low;              /* Tarjan's lowlink, as a position on the stack */
  uint64_t eoff;             /* its edges: Liveness.edge[eoff .. eoff + nedges), once finished */
  uint64_t emark;            /* Liveness.nedge when it was entered (the edges after it are its SCC's) */
  uint32_t len;
  uint32_t nedges;
  uint32_t actor;            /* VC_DATA: the choosing machine */
  uint8_t kind;              /* VC_MACHINE, VC_DATA, or VC_NONE (an end, or a bug) */
  uint8_t fair;              /* a `$$` choice is pending */
  uint8_t out;               /* fair, and an outcome leaves H_k (k not hot, or a bug) */
  uint8_t self;              /* has an edge to itself */
} LNode;

/* The depth-first path. */
typedef struct LFrame {
  uint64_t node;             /* position of its state on the Tarjan stack */
  VmChoices ch;              /* its choices, once expanded */
  int expanded;
  uint32_t next;             /* next choice to try */
  uint32_t down;             /* the choice taken to the frame above */
  LEdge *eb;                 /* edges found so far */
  uint32_t ne, ecap;
} LFrame;

/* Invariants of the search of the moment (for spec k): node[0 .. nnode)
** is Tarjan's stack, in the order the states were entered; pos maps the
** fingerprint of each of them, and only them, to its index; fr[0 .. nfr)
** is the depth-first path, a subsequence of the stack; the edges of a
** finished node lie in edge[] after its emark, those of the SCCs above it
** too, so popping an SCC truncates node[], bytes and edge[] together. */
struct Liveness {
  const SearchOptions *o;
  const VmTest *test;
  Vm *vm;
  StateCache *visited;       /* fp ^ salt(k) of every state a search for spec k entered */
  uint64_t hotspecs;         /* bit k: spec k has a hot state */
  uint64_t settled;          /* specs whose hot cycle was found and reported (live_settle) */
  uint64_t gaveup;           /* bit k: spec k's search outgrew its memory */
  char *why;                 /* the first such reason (heap), for live_incomplete */
  uint64_t budget;           /* bytes the search may hold */
  int unfair;                /* --unfair: any hot cycle */
  /* The search of the moment (one spec): */
  Buf bytes;                 /* the State bytes of the nodes, one after another */
  LNode *node;
  uint64_t nnode, node_cap;
  LEdge *edge;
  uint64_t nedge, edge_cap;
  FpMap pos;                 /* fp -> position, for the nodes on the Tarjan stack */
  LFrame *fr;
  uint64_t nfr, fr_cap;
  Buf succ;                  /* a successor being looked at */
  uint64_t pinned;           /* the node whose State the Vm holds loaded from vm_choices
                                (vm_step_expand may reuse it), or UINT64_MAX */
  /* The analysis of one SCC (scratch arrays, n = its size, m = its edges): */
  uint64_t *a_off;           /* node u's edges: a_to/a_ch[a_off[u] .. a_off[u+1]) */
  uint32_t *a_to, *a_ch;     /* target (local id, or NONE32), choice */
  uint32_t *label;           /* the sub-SCC u belongs to, or NONE32: removed */
  uint32_t *mem;             /* members of the sub-SCCs still to look at, in segments */
  uint32_t *t_idx, *t_low, *t_stk, *t_cs, *t_ci;   /* Tarjan on the local graph */
  uint32_t *par, *parch, *seen; /* BFS: parent, choice from it, stamp */
  uint32_t stamp;
  uint8_t *onstk;
  uint64_t a_cap, a_ecap;    /* node and edge capacity of the arrays above */
  VmChoices en;              /* scratch for vm_enabled */
  /* The lasso found (valid after LIVE_FOUND): */
  TraceChoice *lasso;
  uint64_t nlasso, lasso_cap;
  uint64_t cycle_at;         /* choices of the lasso before its cycle */
  int spec;                  /* the spec that stays hot */
};

/* Bit k set when spec k of the test has a hot state (specs past 63 are
** not checked, as vm_hot_specs does not report them). */
static uint64_t bits_of_hot(const BcProgram *bc, const VmTest *test) {
  uint64_t m = 0;
  for (uint16_t k = 0; k < test->nspecs && k < 64; k++)
    for (uint16_t st = 0; st < bc->machines[test->specs[k]].nstates; st++)
      if (bc->machines[test->specs[k]].states[st].hot) m |= 1ull << k;
  return m;
}

Liveness *live_new(const BcProgram *bc, const VmTest *test, const SearchOptions *o) {
  uint64_t hot = bits_of_hot(bc, test);
  if (!hot) return NULL;
  Liveness *L = xcalloc(1, sizeof *L);
  L->o = o;
  L->test = test;
  L->hotspecs = hot;
  L->unfair = o->unfair;
  /* A quarter of the frontier's part of --mem (search.h, LIVE_SHARE):
  ** half for the search's stacks, half for the states it visited. */
  L->budget = o->frontier_mem / LIVE_SHARE / 2;
  if (L->budget < (1u << 20)) L->budget = 1u << 20;
  L->visited = sc_new(o->cache_kind, L->budget);
  if (!L->visited) {   /* as xmalloc does */
    fputs("pcheck: out of memory\n", stderr);
    abort();
  }
  sc_set_single_thread(L->visited, 1);
  L->vm = vm_new(bc, test);
  buf_init(&L->bytes);
  buf_init(&L->succ);
  return L;
}

void live_free(Liveness *L) {
  if (!L) return;
  for (uint64_t i = 0; i < L->fr_cap; i++) {
    vm_choices_fini(&L->fr[i].ch);
    free(L->fr[i].eb);
  }
  free(L->fr);
  free(L->node);
  free(L->edge);
  fm_fini(&L->pos);
  buf_fini(&L->bytes);
  buf_fini(&L->succ);
  free(L->a_off);
  free(L->a_to);
  free(L->a_ch);
  free(L->label);
  free(L->mem);
  free(L->t_idx);
  free(L->t_low);
  free(L->t_stk);
  free(L->t_cs);
  free(L->t_ci);
  free(L->par);
  free(L->parch);
  free(L->seen);
  free(L->onstk);
  vm_choices_fini(&L->en);
  free(L->lasso);
  free(L->why);
  sc_free(L->visited);
  vm_free(L->vm);
  free(L);
}

const char *live_incomplete(const Liveness *L) { return L ? L->why : NULL; }

void live_save(const Liveness *L, Buf *out) {
  buf_append(out, &L->settled, 8);
  buf_append(out, &L->gaveup, 8);
  uint64_t n = L->why ? strlen(L->why) : 0;
  buf_append(out, &n, 8);
  if (n) buf_append(out, L->why, (size_t)n);
  sc_save(L->visited, out);
}

int live_load(Liveness *L, const uint8_t *p, size_t len, Buf *err) {
  uint64_t n;
  if (len < 24) goto bad;
  memcpy(&L->settled, p, 8);
  memcpy(&L->gaveup, p + 8, 8);
  memcpy(&n, p + 16, 8);
  p += 24;
  len -= 24;
  if (n > len) goto bad;
  free(L->why);
  L->why = NULL;
  if (n) {
    L->why = xmalloc((size_t)n + 1);
    memcpy(L->why, p, (size_t)n);
    L->why[n] = 0;
  }
  StateCache *v = sc_load(L->o->cache_kind, L->budget, p + n, len - (size_t)n, err);
  if (!v) return -1;
  sc_free(L->visited);
  L->visited = v;
  sc_set_single_thread(v, 1);
  return 0;
bad:
  buf_puts(err, "the hot-cycle search's part is cut short");
  return -1;
}
uint64_t live_specs(const Liveness *L) { return L ? L->hotspecs : 0; }
int live_settle(Liveness *L) {
  L->settled |= 1ull << L->spec;
  return L->spec;
}

/* The State bytes of the node at position p (valid until bytes grows). */
static const uint8_t *node_bytes(const Liveness *L, uint64_t p) {
  return (const uint8_t *)L->bytes.data + L->node[p].off;
}

/* Bytes the search holds now (the quantity the budget bounds). */
static uint64_t held(const Liveness *L) {
  /* Frames: their edge and choice lists are counted as 64 bytes each, a
  ** typical size (the lists are a state's successors, kept per depth). */
  return L->bytes.cap + L->node_cap * sizeof(LNode) + L->edge_cap * sizeof(LEdge) + L->pos.cap * 16 +
         L->fr_cap * (sizeof(LFrame) + 64);
}

/* Enter State s (fingerprint fp) on Tarjan's stack: its lowlink is its
** own position, its edges come when it finishes.  Returns the position. */
static uint64_t push_node(Liveness *L, const Buf *s, uint64_t fp) {
  if (L->nnode == L->node_cap) {
    L->node_cap = L->node_cap ? 2 * L->node_cap : 256;
    L->node = xrealloc(L->node, L->node_cap * sizeof *L->node);
  }
  uint64_t p = L->nnode++;
  LNode *v = &L->node[p];
  memset(v, 0, sizeof *v);
  v->off = L->bytes.len;
  v->len = (uint32_t)s->len;
  v->fp = fp;
  v->low = p;
  v->emark = L->nedge;
  v->kind = VC_NONE;
  buf_append(&L->bytes, s->data, s->len);
  fm_put(&L->pos, fp, p);
  return p;
}

/* Extend the depth-first path with the node at position `node` (frames
** keep their lists' memory from one use to the next). */
static void push_frame(Liveness *L, uint64_t node) {
  if (L->nfr == L->fr_cap) {
    uint64_t nc = L->fr_cap ? 2 * L->fr_cap : 64;
    L->fr = xrealloc(L->fr, nc * sizeof *L->fr);
    memset(L->fr + L->fr_cap, 0, (nc - L->fr_cap) * sizeof *L->fr);
    L->fr_cap = nc;
  }
  LFrame *f = &L->fr[L->nfr++];
  f->node = node;
  f->expanded = 0;
  f->next = f->down = 0;
  f->ne = 0;
}

/* Note a step of H_k from f's node: to fingerprint fp by choice. */
static void frame_edge(LFrame *f, uint64_t fp, uint32_t choice) {
  if (f->ne == f->ecap) {
    f->ecap = f->ecap ? 2 * f->ecap : 8;
    f->eb = xrealloc(f->eb, f->ecap * sizeof *f->eb);
  }
  f->eb[f->ne].fp = fp;
  f->eb[f->ne].choice = choice;
  f->eb[f->ne++].zero = 0;
}

/* Forget the search of the moment (its spec's visited states stay). */
static void clear_search(Liveness *L) {
  for (uint64_t i = 0; i < L->nnode; i++) fm_del(&L->pos, L->node[i].fp);
  L->nnode = L->nedge = L->nfr = 0;
  L->bytes.len = 0;
}

/* Spec k's search outgrew L->budget: no more searches for k, the reason
** kept for live_incomplete(), the search of the moment dropped. */
static void give_up(Liveness *L, int k) {
  L->gaveup |= 1ull << k;
  if (!L->why) {
    Buf b;
    buf_init(&b);
    buf_printf(&b, "the hot-cycle search for spec '%s' outgrew its memory (%.0f MiB, a quarter of --frontier-mem)",
               vm_spec_name(L->vm, (uint16_t)k), (double)L->budget / 1048576.0);
    L->why = buf_take(&b);
  }
  clear_search(L);
}

/* ------------------------------------------------------------------------ */
/* The analysis of one SCC: nodes base .. L->nnode-1 of the Tarjan stack,   */
/* local ids 0 .. n-1 (local 0 is the SCC's root, the DFS entered it there). */

/* Room in the analysis arrays for an SCC of n nodes and m edges (the
** arrays only grow; BFS stamps are reset when the node arrays move). */
static void grow_scratch(Liveness *L, uint64_t n, uint64_t m) {
  if (n + 1 > L->a_cap) {
    L->a_cap = n + 1 > 2 * L->a_cap ? n + 1 : 2 * L->a_cap;
    uint64_t c = L->a_cap;
    L->a_off = xrealloc(L->a_off, c * sizeof *L->a_off);
    L->label = xrealloc(L->label, c * sizeof *L->label);
    L->mem = xrealloc(L->mem, 2 * c * sizeof *L->mem);
    L->t_idx = xrealloc(L->t_idx, c * sizeof *L->t_idx);
    L->t_low = xrealloc(L->t_low, c * sizeof *L->t_low);
    L->t_stk = xrealloc(L->t_stk, c * sizeof *L->t_stk);
    L->t_cs = xrealloc(L->t_cs, c * sizeof *L->t_cs);
    L->t_ci = xrealloc(L->t_ci, c * sizeof *L->t_ci);
    L->par = xrealloc(L->par, c * sizeof *L->par);
    L->parch = xrealloc(L->parch, c * sizeof *L->parch);
    L->seen = xrealloc(L->seen, c * sizeof *L->seen);
    L->onstk = xrealloc(L->onstk, c);
    memset(L->seen, 0, c * sizeof *L->seen);
    L->stamp = 0;
  }
  if (m > L->a_ecap) {
    L->a_ecap = m > 2 * L->a_ecap ? m : 2 * L->a_ecap;
    L->a_to = xrealloc(L->a_to, L->a_ecap * sizeof *L->a_to);
    L->a_ch = xrealloc(L->a_ch, L->a_ecap * sizeof *L->a_ch);
  }
}

/* Scratch bytes the analysis of an SCC of n nodes and m edges takes. */
static uint64_t scratch_bytes(uint64_t n, uint64_t m) { return (n + 1) * 60 + m * 8; }

/* The machine that runs on local node u's edge with choice c. */
static uint32_t actor(const Liveness *L, uint64_t base, uint32_t u, uint32_t c) {
  const LNode *v = &L->node[base + u];
  return v->kind == VC_MACHINE ? c : v->actor;
}

/* Append a choice to the lasso being built. */
static void lasso_push(Liveness *L, uint8_t kind, uint32_t value) {
  if (L->nlasso == L->lasso_cap) {
    L->lasso_cap = L->lasso_cap ? 2 * L->lasso_cap : 64;
    L->lasso = xrealloc(L->lasso, L->lasso_cap * sizeof *L->lasso);
  }
  L->lasso[L->nlasso].kind = kind;
  L->lasso[L->nlasso++].value = value;
}

/* Does local node u fit a target: node `tnode` if not NONE32, else any
** node of label tlab? */
static int is_target(const Liveness *L, uint32_t u, uint32_t tnode, uint32_t tlab) {
  return tnode != NONE32 ? u == tnode : L->label[u] == tlab;
}

/* Shortest path by BFS from local node `from` to a target (see is_target),
** through nodes of label `within` (NONE32: any node of the SCC), with at
** least one step if nonempty.  Appends its steps to the lasso, and for each
** step calls note(u, c) when note is not NULL.  Returns the node reached,
** or NONE32 if there is no such path (the caller's invariants exclude it). */
typedef void (*StepNote)(Liveness *L, uint64_t base, uint32_t u, uint32_t c, void *ctx);
static uint32_t bfs(Liveness *L, uint64_t base, uint32_t from, uint32_t tnode, uint32_t tlab, uint32_t within,
                    int nonempty, StepNote note, void *ctx) {
  if (!nonempty && is_target(L, from, tnode, tlab)) return from;
  if (++L->stamp == 0) {
    memset(L->seen, 0, L->a_cap * sizeof *L->seen);
    L->stamp = 1;
  }
  uint32_t *q = L->t_stk, qh = 0, qt = 0, found = NONE32;
  /* The start is not marked seen when the path must be nonempty, so that
  ** it can be the target at the end of a cycle. */
  if (!nonempty) L->seen[from] = L->stamp;
  q[qt++] = from;
  while (qh < qt && found == NONE32) {
    uint32_t u = q[qh++];
    for (uint64_t e = L->a_off[u]; e < L->a_off[u + 1]; e++) {
      uint32_t t = L->a_to[e];
      if (t == NONE32 || L->seen[t] == L->stamp) continue;
      if (within != NONE32 && L->label[t] != within) continue;
      L->seen[t] = L->stamp;
      L->par[t] = u;
      L->parch[t] = L->a_ch[e];
      if (is_target(L, t, tnode, tlab)) { found = t; break; }
      q[qt++] = t;
    }
  }
  if (found == NONE32) return NONE32;
  /* Walk back to the start, then append in order. */
  uint32_t n = 0, *rev = L->t_cs;
  uint32_t at = found;
  do {
    rev[n++] = at;
    at = L->par[at];
  } while (at != from);
  for (uint32_t i = n; i-- > 0;) {
    uint32_t t = rev[i], u = L->par[t], c = L->parch[t];
    lasso_push(L, L->node[base + u].kind, c);
    if (note) note(L, base, u, c, ctx);
  }
  return found;
}

/* The fairness obligations of the cycle being built (local ids). */
typedef struct Cyc {
  uint32_t nm;               /* machines */
  uint8_t *ran;              /* machine ran on a step of the cycle */
  uint8_t *dis;              /* machine is disabled in a state of the cycle */
  uint8_t *on;               /* local node is on the cycle */
  uint8_t *taken;            /* fair local node: bit c set when option c was taken on the cycle */
  uint32_t *fairs;           /* fair nodes on the cycle */
  uint32_t nfairs;
  int failed;                /* vm_enabled failed */
} Cyc;

/* The cycle takes local node u's step c: record who ran, which machines
** are disabled at u (the first time u is met), which option a `$$` took. */
static void cyc_note(Liveness *L, uint64_t base, uint32_t u, uint32_t c, void *ctx) {
  Cyc *y = ctx;
  uint32_t a = actor(L, base, u, c);
  if (a < y->nm) y->ran[a] = 1;
  if (!y->on[u]) {
    y->on[u] = 1;
    if (vm_enabled(L->vm, node_bytes(L, base + u), L->node[base + u].len, &L->en) != VM_OK) { y->failed = 1; return; }
    uint32_t j = 0;
    for (uint32_t m = 0; m < y->nm; m++) {
      while (j < L->en.n && L->en.ids[j] < m) j++;
      if (j == L->en.n || L->en.ids[j] != m) y->dis[m] = 1;
    }
    if (L->node[base + u].fair) y->fairs[y->nfairs++] = u;
  }
  if (L->node[base + u].fair && c < 8) y->taken[u] |= (uint8_t)(1u << c);
}

/* The target of local node u's edge with choice c, or NONE32. */
static uint32_t edge_to(const Liveness *L, uint32_t u, uint32_t c) {
  for (uint64_t e = L->a_off[u]; e < L->a_off[u + 1]; e++)
    if (L->a_ch[e] == c) return L->a_to[e];
  return NONE32;
}

/* Build the lasso for the accepted sub-SCC `lab` (stem: the DFS path to the
** SCC's root, then a path in the SCC to the sub-SCC, then a fair cycle in
** it).  0, or -1 on an internal error. */
static int build_lasso(Liveness *L, uint64_t base, uint32_t lab, uint32_t nm) {
  uint64_t n = L->nnode - base;
  L->nlasso = 0;
  for (uint64_t i = 0; i < L->nfr; i++) lasso_push(L, L->node[L->fr[i].node].kind, L->fr[i].down);
  uint32_t e = bfs(L, base, 0, NONE32, lab, NONE32, 0, NULL, NULL);
  if (e == NONE32) return -1;
  L->cycle_at = L->nlasso;
  Cyc y = {0};
  y.nm = nm;
  y.ran = xcalloc(nm ? nm : 1, 1);
  y.dis = xcalloc(nm ? nm : 1, 1);
  y.on = xcalloc(n, 1);
  y.taken = xcalloc(n, 1);
  y.fairs = xmalloc(n * sizeof *y.fairs);
  int rc = -1;
  /* The shortest cycle through e, then detours from e until every
  ** obligation is met: each detour meets one for good (meeting one never
  ** unmeets another), and there are at most 2 per fair node and 1 per
  ** machine. */
  if (bfs(L, base, e, e, NONE32, lab, 1, cyc_note, &y) != e) goto out;
  for (;;) {
    if (L->unfair) break;   /* any cycle will do */
    if (y.failed) goto out;
    /* The next unmet obligation: a step to take (src, c), or a state to
    ** pass (via).  `$$` options first, then starved machines. */
    uint32_t src = NONE32, c = 0, via = NONE32;
    for (uint32_t i = 0; i < y.nfairs && src == NONE32; i++)
      for (uint32_t o = 0; o < 2 && src == NONE32; o++)
        if (!(y.taken[y.fairs[i]] & (1u << o))) { src = y.fairs[i]; c = o; }
    for (uint32_t m = 0; m < nm && src == NONE32 && via == NONE32; m++) {
      if (y.ran[m] || y.dis[m]) continue;
      /* A state of the sub-SCC where m is disabled, else an edge where it runs. */
      for (uint32_t u = 0; u < n && via == NONE32; u++) {
        if (L->label[u] != lab) continue;
        if (vm_enabled(L->vm, node_bytes(L, base + u), L->node[base + u].len, &L->en) != VM_OK) goto out;
        int has = 0;
        for (uint32_t j = 0; j < L->en.n && !has; j++) has = L->en.ids[j] == m;
        if (!has) via = u;
      }
      for (uint32_t u = 0; u < n && via == NONE32 && src == NONE32; u++) {
        if (L->label[u] != lab) continue;
        for (uint64_t x = L->a_off[u]; x < L->a_off[u + 1]; x++)
          if (L->a_to[x] != NONE32 && L->label[L->a_to[x]] == lab && actor(L, base, u, L->a_ch[x]) == m) {
            src = u;
            c = L->a_ch[x];
            break;
          }
      }
      if (via == NONE32 && src == NONE32) goto out;   /* the acceptance test said there was one */
    }
    if (src == NONE32 && via == NONE32) break;        /* every obligation is met */
    if (via != NONE32) {
      if (bfs(L, base, e, via, NONE32, lab, 0, cyc_note, &y) != via) goto out;
      if (bfs(L, base, via, e, NONE32, lab, 0, cyc_note, &y) != e) goto out;
    } else {
      uint32_t t = edge_to(L, src, c);
      if (t == NONE32 || L->label[t] != lab) goto out;
      if (bfs(L, base, e, src, NONE32, lab, 0, cyc_note, &y) != src) goto out;
      lasso_push(L, L->node[base + src].kind, c);
      cyc_note(L, base, src, c, &y);
      if (bfs(L, base, t, e, NONE32, lab, 0, cyc_note, &y) != e) goto out;
    }
  }
  rc = 0;
out:
  free(y.ran);
  free(y.dis);
  free(y.on);
  free(y.taken);
  free(y.fairs);
  return rc;
}

/* Tarjan's algorithm on the local graph, over the members mem[from .. from
** + cnt) of label lab, following only edges inside lab.  Each nontrivial
** SCC found gets a fresh label (from *next) and its members are written to
** mem starting at `out`; trivial ones are removed.  Returns the members
** written; *labs / *nlabs list the new labels' segments (start, count). */
static uint64_t local_scc(Liveness *L, uint64_t from, uint64_t cnt, uint32_t lab, uint64_t out, uint32_t *next,
                          uint64_t *segs, uint64_t *nsegs) {
  uint32_t idx = 0, sp = 0;
  uint64_t w = out;
  for (uint64_t j = from; j < from + cnt; j++) {
    L->t_idx[L->mem[j]] = NONE32;
    L->onstk[L->mem[j]] = 0;
  }
  for (uint64_t j = from; j < from + cnt; j++) {
    uint32_t r = L->mem[j];
    if (L->label[r] != lab || L->t_idx[r] != NONE32) continue;
    /* Iterative DFS: t_cs holds the nodes of the call stack, t_ci the next edge of each. */
    uint32_t cs = 0;
    L->t_cs[cs] = r;
    L->t_ci[cs++] = (uint32_t)0;
    L->t_idx[r] = L->t_low[r] = idx++;
    L->t_stk[sp++] = r;
    L->onstk[r] = 1;
    while (cs) {
      uint32_t u = L->t_cs[cs - 1];
      uint64_t e = L->a_off[u] + L->t_ci[cs - 1];
      if (e < L->a_off[u + 1]) {
        L->t_ci[cs - 1]++;
        uint32_t t = L->a_to[e];
        if (t == NONE32 || L->label[t] != lab) continue;
        if (L->t_idx[t] == NONE32) {
          L->t_idx[t] = L->t_low[t] = idx++;
          L->t_stk[sp++] = t;
          L->onstk[t] = 1;
          L->t_cs[cs] = t;
          L->t_ci[cs++] = 0;
        } else if (L->onstk[t] && L->t_idx[t] < L->t_low[u]) {
          L->t_low[u] = L->t_idx[t];
        }
        continue;
      }
      cs--;
      if (cs && L->t_low[u] < L->t_low[L->t_cs[cs - 1]]) L->t_low[L->t_cs[cs - 1]] = L->t_low[u];
      if (L->t_low[u] != L->t_idx[u]) continue;
      /* u roots an SCC: the stack down to u. */
      uint32_t size = 0, at = sp;
      do size++; while (L->t_stk[--at] != u);
      int self = 0;
      if (size == 1)
        for (uint64_t x = L->a_off[u]; x < L->a_off[u + 1] && !self; x++) self = L->a_to[x] == u;
      uint32_t nl = size > 1 || self ? (*next)++ : NONE32;
      if (nl != NONE32) {
        segs[2 * *nsegs] = w;
        segs[2 * *nsegs + 1] = size;
        ++*nsegs;
      }
      for (uint32_t i = at; i < sp; i++) {
        uint32_t v = L->t_stk[i];
        L->onstk[v] = 0;
        L->label[v] = nl;
        if (nl != NONE32) L->mem[w++] = v;
      }
      sp = at;
    }
  }
  return w - out;
}

/* The SCC at base .. L->nnode-1 (nontrivial).  LIVE_FOUND with the lasso
** built, LIVE_NONE, LIVE_ERROR; give_up()s if its analysis would outgrow
** the budget (then LIVE_NONE, the search cleared). */
static LiveResult analyse(Liveness *L, int k, uint64_t base) {
  uint64_t n = L->nnode - base, m = 0;
  for (uint64_t p = base; p < L->nnode; p++) m += L->node[p].nedges;
  if (n >= NONE32 || held(L) + scratch_bytes(n, m) > L->budget) { give_up(L, k); return LIVE_NONE; }
  grow_scratch(L, n, m);
  /* The local graph. */
  uint64_t x = 0;
  for (uint64_t u = 0; u < n; u++) {
    const LNode *v = &L->node[base + u];
    L->a_off[u] = x;
    for (uint32_t j = 0; j < v->nedges; j++) {
      const LEdge *ed = &L->edge[v->eoff + j];
      uint64_t p;
      L->a_to[x] = fm_get(&L->pos, ed->fp, &p) && p >= base ? (uint32_t)(p - base) : NONE32;
      L->a_ch[x++] = ed->choice;
    }
  }
  L->a_off[n] = x;
  for (uint64_t u = 0; u < n; u++) L->label[u] = 0;
  if (L->unfair) {
    L->spec = k;
    return build_lasso(L, base, 0, 0) == 0 ? LIVE_FOUND : LIVE_ERROR;
  }
  /* Emerson-Lei: a work stack of sub-SCCs, each a segment of mem (the last
  ** pushed is always the last segment). */
  uint32_t next = 1;
  uint64_t nwork = 1, mlen = n;
  uint64_t *work = xmalloc(3 * sizeof *work * (n + 1));   /* (start, count, label) */
  uint64_t *segs = xmalloc(2 * sizeof *segs * (n + 1));
  for (uint64_t u = 0; u < n; u++) L->mem[u] = (uint32_t)u;
  work[0] = 0;
  work[1] = n;
  work[2] = 0;
  LiveResult res = LIVE_NONE;
  uint32_t *cnt = NULL;
  uint8_t *ran = NULL;
  while (nwork) {
    nwork--;
    uint64_t st = work[3 * nwork], c = work[3 * nwork + 1];
    uint32_t lab = (uint32_t)work[3 * nwork + 2];
    /* Strong fairness: a `$$` state with an outcome outside the sub-SCC
    ** cannot be visited forever by a fair execution that stays in it. */
    uint64_t removed = 0;
    for (uint64_t j = st; j < st + c; j++) {
      uint32_t u = L->mem[j];
      const LNode *v = &L->node[base + u];
      if (!v->fair) continue;
      int leaks = v->out;
      for (uint64_t e = L->a_off[u]; e < L->a_off[u + 1] && !leaks; e++)
        leaks = L->a_to[e] == NONE32 || L->label[L->a_to[e]] != lab;
      if (leaks) removed++;
      if (leaks) L->label[u] = NONE32 - 1;   /* marked: removed once the scan is done */
    }
    if (removed) {
      for (uint64_t j = st; j < st + c; j++)
        if (L->label[L->mem[j]] == NONE32 - 1) L->label[L->mem[j]] = NONE32;
      uint64_t nsegs = 0;
      uint64_t w = local_scc(L, st, c, lab, st + c, &next, segs, &nsegs);
      /* Move the new segments down over the one just done. */
      memmove(L->mem + st, L->mem + st + c, w * sizeof *L->mem);
      for (uint64_t s = 0; s < nsegs; s++) {
        work[3 * nwork] = segs[2 * s] - c;
        work[3 * nwork + 1] = segs[2 * s + 1];
        work[3 * nwork + 2] = L->label[L->mem[segs[2 * s] - c]];
        nwork++;
      }
      mlen = st + w;
      (void)mlen;
      continue;
    }
    /* Weak fairness: every machine runs on an edge inside, or is disabled
    ** in a state of it. */
    uint32_t nm = 0;
    free(cnt);
    cnt = NULL;
    uint32_t cntcap = 0;
    int failed = 0;
    for (uint64_t j = st; j < st + c && !failed; j++) {
      uint32_t u = L->mem[j];
      if (vm_enabled(L->vm, node_bytes(L, base + u), L->node[base + u].len, &L->en) != VM_OK) { failed = 1; break; }
      if (L->en.nmachines > cntcap) {
        cnt = xrealloc(cnt, L->en.nmachines * sizeof *cnt);
        memset(cnt + cntcap, 0, (L->en.nmachines - cntcap) * sizeof *cnt);
        cntcap = L->en.nmachines;
      }
      if (L->en.nmachines > nm) nm = L->en.nmachines;
      for (uint32_t i = 0; i < L->en.n; i++) cnt[L->en.ids[i]]++;
    }
    if (failed) { res = LIVE_ERROR; break; }
    free(ran);
    ran = xcalloc(nm ? nm : 1, 1);
    for (uint64_t j = st; j < st + c; j++) {
      uint32_t u = L->mem[j];
      for (uint64_t e = L->a_off[u]; e < L->a_off[u + 1]; e++)
        if (L->a_to[e] != NONE32 && L->label[L->a_to[e]] == lab) {
          uint32_t a = actor(L, base, u, L->a_ch[e]);
          if (a < nm) ran[a] = 1;
        }
    }
    int fair = 1;
    for (uint32_t mm = 0; mm < nm && fair; mm++) fair = ran[mm] || cnt[mm] < c;
    if (fair) {
      L->spec = k;
      res = build_lasso(L, base, lab, nm) == 0 ? LIVE_FOUND : LIVE_ERROR;
      break;
    }
  }
  free(cnt);
  free(ran);
  free(work);
  free(segs);
  return res;
}

/* ------------------------------------------------------------------------ */
/* The search from one state, for one spec.                                 */

/* Tarjan's algorithm over H_k from State s, until every state reachable
** from s inside H_k is done or a fair hot cycle is found.  Successors where
** k is not hot (or that are bugs) are not entered: for a `$$` state they
** count as outcomes that leave H_k.  Each nontrivial SCC is analysed when
** its root finishes, then popped. */
static LiveResult search_spec(Liveness *L, int k, const uint8_t *s, size_t len, uint64_t fp, const Progress *prog,
                              const char **why) {
  const uint64_t bit = 1ull << k;
  clear_search(L);
  L->pinned = UINT64_MAX;
  sc_insert(L->visited, fp ^ salt(k));
  L->succ.len = 0;
  buf_append(&L->succ, s, len);
  push_frame(L, push_node(L, &L->succ, fp));
  uint64_t steps = 0;
  while (L->nfr) {
    if ((++steps & 1023) == 0 && search_should_stop(L->o, prog, why)) { clear_search(L); return LIVE_STOPPED; }
    LFrame *f = &L->fr[L->nfr - 1];
    LNode *v = &L->node[f->node];
    if (!f->expanded) {
      VmStatus st = vm_choices(L->vm, node_bytes(L, f->node), v->len, &f->ch);
      L->pinned = f->node;
      f->expanded = 1;
      f->next = 0;
      f->ne = 0;
      if (st == VM_BAD_STATE) {
        fputs("pcheck: internal error: the VM produced a malformed state (hot-cycle search)\n", stderr);
        return LIVE_ERROR;
      }
      if (st != VM_OK) f->ch.n = 0;   /* an end state, or a bug: no edge from it */
      v->kind = st == VM_OK ? (uint8_t)f->ch.kind : VC_NONE;
      v->fair = st == VM_OK && f->ch.kind == VC_DATA && f->ch.fair;
      v->actor = f->ch.machine;
    }
    if (f->next < f->ch.n) {
      uint32_t i = f->next++;
      uint32_t choice = f->ch.kind == VC_MACHINE ? f->ch.ids[i] : i;
      /* Successive choices of one node reuse the State vm_choices loaded. */
      VmStatus st;
      L->succ.len = 0;
      if (L->pinned == f->node) st = vm_step_expand(L->vm, node_bytes(L, f->node), v->len, choice, &L->succ);
      else st = vm_step(L->vm, node_bytes(L, f->node), v->len, choice, &L->succ);
      if (st == VM_BAD_STATE) {
        fputs("pcheck: internal error: the VM rejected its own choice (hot-cycle search)\n", stderr);
        return LIVE_ERROR;
      }
      if (st != VM_OK || !(vm_hot_specs(L->vm, (uint8_t *)L->succ.data, L->succ.len) & bit)) {
        if (v->fair) v->out = 1;   /* this outcome leaves H_k */
        continue;
      }
      uint64_t h = state_hash(L->succ.data, L->succ.len);
      frame_edge(f, h, choice);
      if (h == v->fp) { v->self = 1; continue; }
      uint64_t p;
      if (fm_get(&L->pos, h, &p)) {   /* on the Tarjan stack: same SCC as an ancestor */
        if (p < v->low) v->low = p;
        continue;
      }
      if (sc_insert(L->visited, h ^ salt(k)) == SC_SEEN) continue;   /* its SCC is done */
      if (held(L) + L->succ.len + sizeof(LNode) + sizeof(LFrame) > L->budget) { give_up(L, k); return LIVE_NONE; }
      f->down = choice;
      uint64_t at = push_node(L, &L->succ, h);
      push_frame(L, at);
      continue;
    }
    /* v is finished: its edges join the SCC store. */
    if (L->nedge + f->ne > L->edge_cap) {
      L->edge_cap = L->nedge + f->ne > 2 * L->edge_cap ? L->nedge + f->ne : 2 * L->edge_cap;
      L->edge = xrealloc(L->edge, L->edge_cap * sizeof *L->edge);
    }
    v->eoff = L->nedge;
    v->nedges = f->ne;
    if (f->ne) memcpy(L->edge + L->nedge, f->eb, f->ne * sizeof *f->eb);
    L->nedge += f->ne;
    uint64_t vp = f->node;
    L->nfr--;
    L->pinned = UINT64_MAX;   /* nodes may go, and their places be reused */
    if (L->nfr) {
      LNode *u = &L->node[L->fr[L->nfr - 1].node];
      if (v->low < u->low) u->low = v->low;
    }
    if (v->low != vp) continue;
    /* vp roots an SCC: the Tarjan stack from vp up. */
    if (L->nnode - vp > 1 || v->self) {
      LiveResult r = analyse(L, k, vp);
      if (r == LIVE_FOUND) { clear_search(L); return r; }
      if (r == LIVE_ERROR) return r;
      if (L->gaveup & bit) return LIVE_NONE;
    }
    for (uint64_t q = vp; q < L->nnode; q++) fm_del(&L->pos, L->node[q].fp);
    L->bytes.len = L->node[vp].off;
    L->nedge = L->node[vp].emark;
    L->nnode = vp;
  }
  return LIVE_NONE;
}

LiveResult live_check(Liveness *L, const uint8_t *s, size_t len, uint64_t fp, uint64_t specs, const Progress *prog,
                      const char **why) {
  uint64_t hot = specs & L->hotspecs & ~L->gaveup & ~L->settled;
  for (int k = 0; hot && k < 64; k++) {
    if (!(hot & (1ull << k)) || sc_contains(L->visited, fp ^ salt(k))) continue;
    LiveResult r = search_spec(L, k, s, len, fp, prog, why);
    if (r != LIVE_NONE) return r;
  }
  return LIVE_NONE;
}

void live_cycle_message(Buf *b, const char *spec, uint64_t nsteps, int unfair) {
  if (unfair)
    buf_printf(b, "spec '%s' can stay in hot states forever: the execution can cycle through %llu steps without "
               "leaving them (fairness not required: --unfair)", spec, (unsigned long long)nsteps);
  else
    buf_printf(b, "spec '%s' can stay in hot states forever: a fair execution can cycle through %llu steps "
               "without leaving them", spec, (unsigned long long)nsteps);
}

void live_record(const Liveness *L, const TraceChoice *prefix, uint64_t nprefix, SearchResult *res) {
  uint64_t n = nprefix + L->nlasso;
  TraceChoice *t = xmalloc((n ? n : 1) * sizeof *t);
  if (nprefix) memcpy(t, prefix, nprefix * sizeof *t);
  memcpy(t + nprefix, L->lasso, L->nlasso * sizeof *t);
  free(res->trace);
  free(res->bugdesc.message);
  memset(&res->bugdesc, 0, sizeof res->bugdesc);
  res->bug = 1;
  res->bugdesc.status = VM_BUG_HOT_CYCLE;
  Buf m;
  buf_init(&m);
  live_cycle_message(&m, vm_spec_name(L->vm, (uint16_t)L->spec), L->nlasso - L->cycle_at, L->unfair);
  res->bugdesc.message = buf_take(&m);
  res->trace = t;
  res->ntrace = n;
  res->cycle_start = (int64_t)(nprefix + L->cycle_at);
  res->cycle_unfair = L->unfair;
}

/* ------------------------------------------------------------------------ */
/* Temperature.                                                             */

void live_temp_init(LiveTemp *t, const BcProgram *bc, const VmTest *test, int64_t threshold) {
  memset(t, 0, sizeof *t);
  t->threshold = threshold > 0 && bits_of_hot(bc, test) ? threshold : 0;
  t->nspecs = test->nspecs < 64 ? test->nspecs : 64;
  t->count = xcalloc(t->nspecs ? t->nspecs : 1, sizeof *t->count);
}

void live_temp_fini(LiveTemp *t) {
  free(t->count);
  free(t->bug.message);
  memset(t, 0, sizeof *t);
}

void live_temp_reset(LiveTemp *t) {
  if (t->nspecs) memset(t->count, 0, t->nspecs * sizeof *t->count);
}

/* The count is P's temperature: P raises it at each scheduling decision
** and data choice while the monitor is hot and reports when it passes the
** threshold; here a decision is a step about to be taken. */
int live_temp_before(LiveTemp *t, Vm *vm, const uint8_t *s, size_t len) {
  if (!t->threshold || !t->nspecs) return 0;
  uint64_t hot = vm_hot_specs(vm, s, len);
  for (uint16_t k = 0; hot && k < t->nspecs; k++) {
    if (!(hot & (1ull << k))) continue;
    if (++t->count[k] <= (uint64_t)t->threshold) continue;
    free(t->bug.message);
    memset(&t->bug, 0, sizeof t->bug);
    t->bug.status = VM_BUG_HOT_TEMP;
    Buf m;
    buf_init(&m);
    buf_printf(&m, "spec '%s' has stayed hot for %lld steps without entering a cold state, and the execution "
               "goes on (--liveness-temperature-threshold %lld)", vm_spec_name(vm, k), (long long)t->threshold,
               (long long)t->threshold);
    t->bug.message = buf_take(&m);
    return 1;
  }
  return 0;
}

void live_temp_after(LiveTemp *t, const Vm *vm) {
  if (!t->threshold) return;
  uint64_t cooled = vm_cooled_specs(vm);
  for (uint16_t k = 0; cooled && k < t->nspecs; k++)
    if (cooled & (1ull << k)) t->count[k] = 0;
}

void live_temp_record(const LiveTemp *t, SearchResult *r, const TraceChoice *trace, uint64_t n) {
  r->bug = 1;
  free(r->bugdesc.message);
  r->bugdesc = t->bug;
  r->bugdesc.message = xstrdup(t->bug.message ? t->bug.message : "");
  free(r->trace);
  r->trace = xmalloc((size_t)(n ? n : 1) * sizeof(TraceChoice));
  if (n) memcpy(r->trace, trace, (size_t)n * sizeof(TraceChoice));
  r->ntrace = n;
  r->cycle_start = -1;
  r->temperature = t->threshold;
}

/* ------------------------------------------------------------------------ */
/* Fairness of a given cycle (--replay).                                    */

/* The fairness check of a given cycle keeps, per machine, how many of the
** cycle's steps start in a state where it is enabled and whether it ran;
** and the steps taken from `$$` states, to compare options per state. */
typedef struct FairStep {
  uint64_t fp;               /* the state's fingerprint */
  uint64_t step;             /* its index among the steps given */
  uint32_t option;           /* the option taken */
} FairStep;

struct LiveFair {
  uint64_t nsteps;
  uint32_t nm;               /* machines (the largest count seen) */
  uint64_t *encount;         /* per machine: steps from a state where it is enabled */
  uint8_t *ran;              /* per machine: it ran on a step */
  uint32_t *machine_of;      /* per fair step: the choosing machine */
  FairStep *fs;              /* the steps from `$$` states */
  uint64_t nfs, fs_cap;
  int failed;
};

LiveFair *live_fair_new(void) { return xcalloc(1, sizeof(LiveFair)); }

void live_fair_free(LiveFair *c) {
  if (!c) return;
  free(c->encount);
  free(c->ran);
  free(c->machine_of);
  free(c->fs);
  free(c);
}

void live_fair_step(LiveFair *c, Vm *vm, const uint8_t *s, size_t len, const VmChoices *ch, uint32_t choice) {
  int fair = ch->kind == VC_DATA && ch->fair;
  uint32_t who = ch->kind == VC_MACHINE ? choice : ch->machine;
  VmChoices en = {0};
  if (vm_enabled(vm, s, len, &en) != VM_OK) { c->failed = 1; return; }
  if (en.nmachines > c->nm) {
    c->encount = xrealloc(c->encount, en.nmachines * sizeof *c->encount);
    c->ran = xrealloc(c->ran, en.nmachines);
    memset(c->encount + c->nm, 0, (en.nmachines - c->nm) * sizeof *c->encount);
    memset(c->ran + c->nm, 0, en.nmachines - c->nm);
    c->nm = en.nmachines;
  }
  for (uint32_t i = 0; i < en.n; i++) c->encount[en.ids[i]]++;
  vm_choices_fini(&en);
  if (who < c->nm) c->ran[who] = 1;
  if (fair) {
    if (c->nfs == c->fs_cap) {
      c->fs_cap = c->fs_cap ? 2 * c->fs_cap : 16;
      c->fs = xrealloc(c->fs, c->fs_cap * sizeof *c->fs);
      c->machine_of = xrealloc(c->machine_of, c->fs_cap * sizeof *c->machine_of);
    }
    c->machine_of[c->nfs] = who;
    c->fs[c->nfs].fp = state_hash(s, len);
    c->fs[c->nfs].step = c->nsteps;
    c->fs[c->nfs++].option = choice;
  }
  c->nsteps++;
}

int live_fair_check(LiveFair *c, Vm *vm, Buf *why) {
  if (c->failed) { buf_puts(why, "internal error while checking fairness"); return 0; }
  for (uint32_t m = 0; m < c->nm; m++)
    if (!c->ran[m] && c->encount[m] == c->nsteps) {
      buf_printf(why, "machine '%s' can run in every state of the cycle but never runs on it", vm_machine_text(vm, m));
      return 0;
    }
  /* Every `$$` state the cycle passes takes both options there. */
  for (uint64_t i = 0; i < c->nfs; i++) {
    unsigned got = 0;
    for (uint64_t j = 0; j < c->nfs; j++)
      if (c->fs[j].fp == c->fs[i].fp && c->fs[j].option < 2) got |= 1u << c->fs[j].option;
    if (got != 3) {
      buf_printf(why, "the `$$` choice of '%s' at cycle step %llu is made in a state the cycle passes, but the "
                 "cycle never takes %s there", vm_machine_text(vm, c->machine_of[i]),
                 (unsigned long long)c->fs[i].step + 1, got & 1 ? "true" : "false");
      return 0;
    }
  }
  return 1;
}
