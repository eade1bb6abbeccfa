/* liveness.c: liveness as P means it (the definitions are doc/liveness.md's).
** Hot cycles, two ways.  Liveness: for one spec k at a time, Tarjan's
** algorithm over the subgraph H_k of the full graph where k is hot, run
** from the states the calling search hands over; each strongly connected
** component (SCC) is given to checker/engine/fairgraph.c once it is complete.
** LiveScc: Tarjan's algorithm over the graph the calling dfs explores,
** following its calls (finished.h's bookkeeping), each closed component's
** hot states given to fairgraph.c; what the reduced graph cannot decide
** is handed to a Liveness.  Also here: P's temperature count for the
** sampling searches, and the fairness check of a lasso for --replay.  The
** order of the main search is the caller's; this file never writes
** output but internal errors on stderr. */
#include <config.h>
#include "checker/engine/liveness.h"
#include <stdlib.h>
#include <string.h>
#include "checker/base/checkpoint.h"
#include "checker/engine/expand.h"
#include "checker/engine/fairgraph.h"
#include "checker/store/finished.h"
#include "vm/hash.h"

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
/* The search in the full graph (Liveness).                                 */

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
  uint32_t nopt;             /* VC_DATA: its options */
  uint32_t nm;               /* machine records in the State */
  uint8_t kind;              /* VC_MACHINE, VC_DATA, or VC_NONE (an end, or a bug) */
  uint8_t self;              /* has an edge to itself */
  uint8_t onpath;            /* its frame is on the depth-first path (the cycle proviso's test) */
} LNode;

/* The depth-first path. */
typedef struct LFrame {
  uint64_t node;             /* position of its state on the Tarjan stack */
  VmChoices ch;              /* its choices, once expanded */
  int expanded;
  uint32_t next;             /* next choice to try */
  uint32_t down;             /* the choice taken to the frame above */
  uint64_t chosen;           /* the choices (indices into ch) to take: all of them, or the persistent
                                set of the reduction (then ch.n <= KID_BATCH = 64, bit i: index i) */
  int narrowed;              /* chosen is a proper subset: a step back to the path widens it */
  LEdge *eb;                 /* edges found so far */
  uint32_t ne, ecap;
} LFrame;

/* A start queued by live_offer: its State bytes (len of them, then zeros
** to a multiple of 8) then its prefix (nprefix TraceChoice), at
** Liveness.qbytes.data + off (a multiple of 8). */
typedef struct LStart {
  uint64_t off;
  uint64_t fp;
  uint64_t specs;            /* the specs still to search from it */
  uint64_t nprefix;
  uint32_t len;
} LStart;

/* Invariants of the search of the moment (for spec k): node[0 .. nnode)
** is Tarjan's stack, in the order the states were entered; pos maps the
** fingerprint of each of them, and only them, to its index; fr[0 .. nfr)
** is the depth-first path, a subsequence of the stack; the edges of a
** finished node lie in edge[] after its emark, those of the SCCs above it
** too, so popping an SCC truncates node[], bytes and edge[] together.
** The queue: q[qhead .. nq) are the starts offered and not yet done, in
** the order offered; while a search is under way (nfr > 0) it is from the
** first of them, for spec k, and k is no longer in that start's specs. */
struct Liveness {
  const BcProgram *bc;
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
  uint64_t ticks;            /* steps taken by every search: the stop requests are asked every 1024 */
  uint32_t pulse;            /* the pulse last seen (search_stop_due): a stop is also asked at each */
  uint64_t owed;             /* steps a paced live_work did not take, stopped: the next call takes them */
  int draining;              /* work() is draining the queue for a search that has ended (drain_progress) */
  /* The starts (live_offer): */
  LStart *q;
  uint64_t qhead, nq, qcap;
  Buf qbytes;                /* their bytes; those before q[qhead].off belong to starts done */
  /* The search of the moment (one spec): */
  int k;                     /* its spec */
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
  FairGraph *fg;             /* the analysis of one SCC */
  VmChoices en;              /* scratch for vm_enabled */
  /* Under the reduction (doc/liveness.md, 3.4): */
  Reduction *red;            /* NULL: the full graph */
  Expansion nx;              /* expand_narrow's successors */
  Buf scratch;               /* vm_local_states' */
  uint32_t key_index;        /* the record key_of hashes */
  uint64_t key;              /* its hash */
  Liveness *full;            /* the full graph's search, for the sets the reduced one cannot decide */
  uint32_t *unsure;          /* those sets' states (fg_unsure), copied */
  uint32_t unsure_cap;
  /* The lasso found (valid after LIVE_FOUND): */
  FgTrace stem;              /* the prefix its start was offered with */
  FgTrace lasso;
  uint64_t cycle_at;         /* choices of the lasso before its cycle */
  int spec;                  /* the spec that stays hot */
  const char *st_name, *st_file;   /* its state where the cycle begins (vm_spec_state) */
  uint32_t st_line;
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

Liveness *live_new(const BcProgram *bc, const VmTest *test, const SearchOptions *o, int reduced) {
  uint64_t hot = bits_of_hot(bc, test);
  if (!hot) return NULL;
  Liveness *L = xcalloc(1, sizeof *L);
  L->bc = bc;
  L->o = o;
  L->test = test;
  L->hotspecs = hot;
  L->unfair = o->unfair;
  /* A quarter of the frontier's part of --mem (search.h, LIVE_SHARE):
  ** half for the search's stacks and its queue of starts, half for the
  ** states it visited. */
  L->budget = o->frontier_mem / LIVE_SHARE / 2;
  if (L->budget < (1u << 20)) L->budget = 1u << 20;
  L->visited = sc_new(o->cache_kind, L->budget);
  if (!L->visited) {   /* as xmalloc does */
    fputs("pcheck: out of memory\n", stderr);
    abort();
  }
  sc_set_single_thread(L->visited, 1);
  L->vm = vm_new(bc, test);
  L->fg = fg_new();
  /* The steps a spec with hot states observes stay visible (P2 of
  ** doc/liveness.md, 3.4). */
  if (reduced) L->red = red_new(bc, test, o->unfair ? hot : 0);
  buf_init(&L->bytes);
  buf_init(&L->succ);
  buf_init(&L->qbytes);
  buf_init(&L->scratch);
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
  fg_free(L->fg);
  vm_choices_fini(&L->en);
  free(L->q);
  buf_fini(&L->qbytes);
  free(L->stem.v);
  free(L->lasso.v);
  free(L->why);
  sc_free(L->visited);
  red_free(L->red);
  expand_fini(&L->nx);
  buf_fini(&L->scratch);
  free(L->unsure);
  live_free(L->full);
  vm_free(L->vm);
  free(L);
}

const char *live_incomplete(const Liveness *L) { return !L ? NULL : L->why ? L->why : live_incomplete(L->full); }

uint64_t live_specs(const Liveness *L) { return L ? L->hotspecs : 0; }
int live_settle(Liveness *L) {
  L->settled |= 1ull << L->spec;
  return L->spec;
}

/* The State bytes of the node at position p (valid until bytes grows). */
static const uint8_t *node_bytes(const Liveness *L, uint64_t p) {
  return (const uint8_t *)L->bytes.data + L->node[p].off;
}

/* Bytes the search and its queue hold now (the quantity the budget
** bounds). */
static uint64_t held(const Liveness *L) {
  /* Frames: their edge and choice lists are counted as 64 bytes each, a
  ** typical size (the lists are a state's successors, kept per depth). */
  return L->bytes.cap + L->node_cap * sizeof(LNode) + L->edge_cap * sizeof(LEdge) + L->pos.cap * 16 +
         L->fr_cap * (sizeof(LFrame) + 64) + L->qbytes.cap + L->qcap * sizeof(LStart);
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
  L->node[node].onpath = 1;
  f->expanded = 0;
  f->chosen = UINT64_MAX;
  f->narrowed = 0;
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

/* The reason a hot-cycle search for spec `spec` stopped at its budget
** (heap). */
static char *outgrew(const Vm *vm, int spec, uint64_t budget) {
  Buf b;
  buf_init(&b);
  buf_printf(&b, "the hot-cycle search for spec '%s' outgrew its memory (%.0f MiB, a quarter of --frontier-mem)",
             vm_spec_name(vm, (uint16_t)spec), (double)budget / 1048576.0);
  return buf_take(&b);
}

/* Spec k's search is given up: no more searches for k, the reason (why,
** heap, taken) kept for live_incomplete() if it is the first, the search
** of the moment dropped. */
static void give_up_why(Liveness *L, int k, char *why) {
  L->gaveup |= 1ull << k;
  if (!L->why) L->why = why;
  else free(why);
  clear_search(L);
}

/* Spec k's search outgrew L->budget. */
static void give_up(Liveness *L, int k) { give_up_why(L, k, outgrew(L->vm, k, L->budget)); }

/* Spec k's search filled its visited set. */
static void give_up_full(Liveness *L, int k) {
  Buf b;
  buf_init(&b);
  buf_printf(&b, "the hot-cycle search for spec '%s' filled its visited set (%.0f MiB, an eighth of --frontier-mem)",
             vm_spec_name(L->vm, (uint16_t)k), (double)sc_bytes(L->visited) / 1048576.0);
  give_up_why(L, k, buf_take(&b));
}

/* Scratch bytes fairgraph.c takes for n nodes, m edges and nm machines. */
static uint64_t scratch_bytes(uint64_t n, uint64_t m, uint64_t nm) { return (n + 1) * (100 + nm / 8) + m * 9; }

static LiveResult internal_error(const char *what) {
  fprintf(stderr, "pcheck: internal error: %s\n", what);
  return LIVE_ERROR;
}

/* Mark the machines of ch (ids) in the bitset w. */
static void set_bits(uint64_t *w, const VmChoices *ch) {
  for (uint32_t i = 0; i < ch->n; i++) w[ch->ids[i] / 64] |= 1ull << (ch->ids[i] % 64);
}

/* vm_local_states' callback: the hash of record key_index. */
static void live_key_of(void *ctx, uint32_t index, const uint8_t *b, size_t n) {
  Liveness *L = ctx;
  if (index == L->key_index) L->key = state_hash(b, n);
}

/* The lasso's choices up to node u of the SCC at base (in L->fg): the
** depth-first path to the SCC's root, then a path inside it. */
static int path_into(Liveness *L, uint32_t u) {
  L->lasso.n = 0;
  for (uint64_t i = 0; i < L->nfr; i++) fg_trace_push(&L->lasso, L->node[L->fr[i].node].kind, L->fr[i].down);
  return fg_path(L->fg, 0, u, &L->lasso);
}

/* The reduced graph's SCC accepted by choice points but not decided by
** states: the full graph decides, from each of the states fg_unsure
** names (doc/liveness.md, 3.4), searched to its end. */
static LiveResult decide_in_full(Liveness *L, int k, uint64_t base, const uint32_t *us, uint32_t nu, Progress *prog,
                                 const char **why) {
  if (nu > L->unsure_cap) {
    L->unsure_cap = nu;
    L->unsure = xrealloc(L->unsure, nu * sizeof *L->unsure);
  }
  memcpy(L->unsure, us, nu * sizeof *us);
  if (!L->full) L->full = live_new(L->bc, L->test, L->o, 0);
  for (uint32_t i = 0; i < nu; i++) {
    uint64_t p = base + L->unsure[i];
    LiveResult r = live_offer(L->full, node_bytes(L, p), L->node[p].len, L->node[p].fp, 1ull << k, NULL, 0, prog, why);
    if (r == LIVE_NONE) r = live_work(L->full, LIVE_ALL, prog, why);
    if (r == LIVE_NONE) continue;
    if (r != LIVE_FOUND) return r;
    const Liveness *F = L->full;
    if (path_into(L, L->unsure[i]) != 0) return internal_error("no path in a strongly connected component");
    L->cycle_at = L->lasso.n + F->cycle_at;
    for (uint64_t j = 0; j < F->lasso.n; j++) fg_trace_push(&L->lasso, F->lasso.v[j].kind, F->lasso.v[j].value);
    L->spec = k;
    L->st_name = F->st_name;
    L->st_file = F->st_file;
    L->st_line = F->st_line;
    return LIVE_FOUND;
  }
  return LIVE_NONE;
}

/* The SCC at base .. L->nnode-1.  LIVE_FOUND with the lasso built,
** LIVE_NONE, LIVE_STOPPED or LIVE_ERROR (the full graph's search of
** decide_in_full); give_up()s if its analysis would outgrow the budget
** (then LIVE_NONE, the search cleared). */
static LiveResult analyse(Liveness *L, int k, uint64_t base, Progress *prog, const char **why) {
  uint64_t n = L->nnode - base, m = 0, nm = 0;
  for (uint64_t p = base; p < L->nnode; p++) {
    m += L->node[p].nedges;
    if (L->node[p].nm > nm) nm = L->node[p].nm;
  }
  if (n >= FG_OUT || held(L) + scratch_bytes(n, m, nm) > L->budget) { give_up(L, k); return LIVE_NONE; }
  /* Reduced, choice points are taken by key (doc/liveness.md, 3.4). */
  FgMode mode = L->unfair ? FG_UNFAIR : L->red ? FG_KEYED : FG_EXACT;
  fg_begin(L->fg, (uint32_t)n, (uint32_t)(nm / 64 + 1));
  for (uint32_t u = 0; u < n; u++) {
    const LNode *v = &L->node[base + u];
    const uint8_t *b = node_bytes(L, base + u);
    int hot = (vm_hot_specs(L->vm, b, v->len) >> k) & 1;
    L->key = 0;
    if (mode == FG_KEYED && v->kind == VC_DATA) {
      L->key_index = L->test->nspecs + v->actor;
      vm_local_states(L->vm, b, v->len, &L->scratch, live_key_of, L);
    }
    uint64_t *en = fg_node(L->fg, u, v->kind, v->actor, v->nopt, L->key, hot);
    if (mode != FG_UNFAIR && v->kind != VC_NONE) {
      if (vm_enabled(L->vm, b, v->len, &L->en) != VM_OK)
        return internal_error("the VM rejected its own state (hot-cycle search)");
      set_bits(en, &L->en);
    }
    for (uint32_t j = 0; j < v->nedges; j++) {
      const LEdge *ed = &L->edge[v->eoff + j];
      uint64_t p;
      fg_edge(L->fg, ed->choice, fm_get(&L->pos, ed->fp, &p) && p >= base ? (uint32_t)(p - base) : FG_OUT);
    }
  }
  uint32_t e;
  FgVerdict verdict = fg_search(L->fg, mode, &e);
  if (verdict == FG_FOUND && mode == FG_KEYED && L->o->live_recheck)   /* tests: the full graph decides */
    return decide_in_full(L, k, base, &e, 1, prog, why);
  if (verdict == FG_UNSURE) {
    uint32_t nu;
    const uint32_t *us = fg_unsure(L->fg, &nu);
    return decide_in_full(L, k, base, us, nu, prog, why);
  }
  if (verdict != FG_FOUND) return LIVE_NONE;
  /* The lasso: the DFS path to the SCC's root, a path in the SCC to e, a
  ** fair cycle through e. */
  L->spec = k;
  if (path_into(L, e) != 0) return internal_error("no path in a strongly connected component");
  L->cycle_at = L->lasso.n;
  if (fg_cycle(L->fg, mode, &L->lasso) != 0) return internal_error("no fair cycle in an accepted component");
  vm_spec_state(L->vm, node_bytes(L, base + e), L->node[base + e].len, (uint16_t)k, &L->st_name, &L->st_file,
                &L->st_line);
  return LIVE_FOUND;
}

/* Begin spec k's search from State s (len bytes, fingerprint fp): its
** root on Tarjan's stack and the depth-first path. */
static void search_begin(Liveness *L, int k, const uint8_t *s, size_t len, uint64_t fp) {
  clear_search(L);
  L->k = k;
  L->pinned = UINT64_MAX;
  sc_insert(L->visited, fp ^ salt(k));
  L->succ.len = 0;
  buf_append(&L->succ, s, len);
  push_frame(L, push_node(L, &L->succ, fp));
}

/* While the queue is drained (the main search has ended and waits), the
** progress line (--progress, as progress_tick throttles it) says so: the
** spec searched, the steps taken, the stack, the starts left. */
static void drain_progress(Liveness *L, Progress *p) {
  const SearchOptions *o = L->o;
  if (!o->progress) return;
  double t = search_now();
  if (t - p->last < (o->progress_lines && o->progress_every > 0 ? o->progress_every : 1.0)) return;
  p->last = t;
  fprintf(stderr, "%s%.0fs: the search is done but for its hot-cycle search: spec '%s', %llu steps, stack %llu, "
          "queued starts: %llu%s", o->progress_lines ? "progress: " : "\r", t - p->start, vm_spec_name(L->vm, (uint16_t)L->k),
          (unsigned long long)L->ticks, (unsigned long long)L->nnode, (unsigned long long)(L->nq - L->qhead),
          o->progress_lines ? "\n" : "   ");
  p->printed = !o->progress_lines;
}

/* Tarjan's algorithm over N_k (k = L->k) from the search's root, taking at
** most *steps steps (each taken is subtracted); the search ends (nfr 0)
** when every state reachable from the root inside N_k is done or a fair
** hot cycle is found.  Successors where k is cold, steps that cool k, and
** bugs are not entered, nor kept as edges: an option of a data choice
** without an edge leaves N_k.  Each nontrivial SCC is analysed when its root
** finishes, then popped.  Between two calls the search is whole: its
** stack and path are all in L, the Vm's loaded State aside (pinned). */
static LiveResult search_steps(Liveness *L, uint64_t *steps, Progress *prog, const char **why) {
  const int k = L->k;
  const uint64_t bit = 1ull << k;
  while (L->nfr && *steps) {
    /* Stopped, the step is not taken: a resumed search takes it. */
    if (((L->ticks + 1) & 1023) == 0 || search_stop_due(L->o, prog, &L->pulse)) {
      if (search_should_stop(L->o, prog, why)) return LIVE_STOPPED;
      if (L->draining) drain_progress(L, prog);
    }
    L->ticks++;
    --*steps;
    LFrame *f = &L->fr[L->nfr - 1];
    LNode *v = &L->node[f->node];
    if (!f->expanded) {
      VmStatus st = vm_choices(L->vm, node_bytes(L, f->node), v->len, &f->ch);
      L->pinned = f->node;
      f->expanded = 1;
      f->next = 0;
      f->ne = 0;
      if (st == VM_BAD_STATE) return internal_error("the VM produced a malformed state (hot-cycle search)");
      if (st != VM_OK) f->ch.n = 0;   /* an end state, or a bug: no edge from it */
      v->kind = st == VM_OK ? (uint8_t)f->ch.kind : VC_NONE;
      v->actor = f->ch.machine;
      v->nopt = v->kind == VC_DATA ? f->ch.n : 0;
      v->nm = st == VM_OK ? f->ch.nmachines : 0;
      /* Under the reduction, the persistent set (the State stays loaded). */
      if (st == VM_OK && expand_narrow(&L->nx, L->red, L->vm, node_bytes(L, f->node), v->len, &f->ch)) {
        f->chosen = 0;
        for (uint32_t j = 0; j < L->nx.lim; j++)
          if (L->nx.sel[j]) f->chosen |= 1ull << j;
        f->narrowed = 1;
      }
    }
    while (f->next < f->ch.n && f->next < 64 && !(f->chosen >> f->next & 1)) f->next++;   /* left out */
    if (f->next < f->ch.n) {
      uint32_t i = f->next++;
      uint32_t choice = f->ch.kind == VC_MACHINE ? f->ch.ids[i] : i;
      /* Successive choices of one node reuse the State vm_choices loaded. */
      VmStatus st;
      L->succ.len = 0;
      if (L->pinned == f->node) st = vm_step_expand(L->vm, node_bytes(L, f->node), v->len, choice, &L->succ);
      else st = vm_step(L->vm, node_bytes(L, f->node), v->len, choice, &L->succ);
      if (st == VM_BAD_STATE) return internal_error("the VM rejected its own choice (hot-cycle search)");
      /* N_k: the successor is not cold for k, nor did k pass through a
      ** cold state on the step (P resets its temperature there). */
      if (st != VM_OK || (vm_cooled_specs(L->vm) & bit) ||
          (vm_cold_specs(L->vm, (uint8_t *)L->succ.data, L->succ.len) & bit))
        continue;
      uint64_t h = state_hash(L->succ.data, L->succ.len);
      frame_edge(f, h, choice);
      uint64_t p;
      int back = h == v->fp, stacked = back;
      if (back) v->self = 1;
      else if (fm_get(&L->pos, h, &p)) {   /* on the Tarjan stack: same SCC as an ancestor */
        if (p < v->low) v->low = p;
        back = L->node[p].onpath;
        stacked = 1;
      }
      /* The cycle proviso (P3 of doc/liveness.md, 3.4): a step of a
      ** reduced state back to the depth-first path closes a cycle, which
      ** must pass a state explored in full; this one then is.  Every
      ** cycle of the graph searched has such a step, its last to the
      ** first of its states entered. */
      if (back && f->narrowed) {
        uint64_t all = f->ch.n >= 64 ? UINT64_MAX : (1ull << f->ch.n) - 1;
        uint64_t taken = f->chosen & (f->next >= 64 ? UINT64_MAX : (1ull << f->next) - 1);
        f->chosen = all & ~taken;   /* what is left: not taken yet, or left out */
        f->next = 0;
        f->narrowed = 0;
      }
      if (stacked) continue;
      ScResult ins = sc_insert(L->visited, h ^ salt(k));
      if (ins == SC_SEEN) continue;   /* its SCC is done */
      /* A full visited set would have every finished state it cannot hold
      ** searched again whenever it is met: time exponential in the worst
      ** case, a search that never ends in practice.  The spec is given up
      ** instead (the result says so: bounded). */
      if (ins == SC_FULL) { give_up_full(L, k); return LIVE_NONE; }
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
    v->onpath = 0;
    L->nfr--;
    L->pinned = UINT64_MAX;   /* nodes may go, and their places be reused */
    if (L->nfr) {
      LNode *u = &L->node[L->fr[L->nfr - 1].node];
      if (v->low < u->low) u->low = v->low;
    }
    if (v->low != vp) continue;
    /* vp roots an SCC: the Tarjan stack from vp up. */
    if (L->nnode - vp > 1 || v->self) {
      LiveResult r = analyse(L, k, vp, prog, why);
      if (r == LIVE_FOUND) { clear_search(L); return r; }
      if (r == LIVE_STOPPED) {   /* the frame back: a resumed search finishes vp again (its edges' copy
                                    is dropped with the SCC) and analyses it whole */
        L->nfr++;
        v->onpath = 1;
        return r;
      }
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

/* Bytes the queued starts take (what the queue's share bounds). */
static uint64_t queue_bytes(const Liveness *L) {
  uint64_t dead = L->qhead < L->nq ? L->q[L->qhead].off : L->qbytes.len;
  return L->qbytes.len - dead + (L->nq - L->qhead) * sizeof(LStart);
}

/* The queue's share of the budget: the searches keep the rest. */
static uint64_t queue_share(const Liveness *L) { return L->budget / 4; }

/* Drop the first start (done); the memory of the starts done is reused
** once they are half of the queue's. */
static void queue_pop(Liveness *L) {
  if (++L->qhead == L->nq) {
    L->qhead = L->nq = 0;
    L->qbytes.len = 0;
    return;
  }
  uint64_t dead = L->q[L->qhead].off;
  if (2 * dead < L->qbytes.len) return;
  memmove(L->qbytes.data, L->qbytes.data + dead, L->qbytes.len - dead);
  L->qbytes.len -= dead;
  memmove(L->q, L->q + L->qhead, (L->nq - L->qhead) * sizeof *L->q);
  L->nq -= L->qhead;
  L->qhead = 0;
  for (uint64_t i = 0; i < L->nq; i++) L->q[i].off -= dead;
}

/* Append a start to the queue. */
static void queue_push(Liveness *L, const uint8_t *s, size_t len, uint64_t fp, uint64_t specs,
                       const TraceChoice *prefix, uint64_t nprefix) {
  if (L->nq == L->qcap) {
    L->qcap = L->qcap ? 2 * L->qcap : 64;
    L->q = xrealloc(L->q, L->qcap * sizeof *L->q);
  }
  static const uint8_t zeros[8];
  L->q[L->nq++] = (LStart){ L->qbytes.len, fp, specs, nprefix, (uint32_t)len };
  buf_append(&L->qbytes, s, len);
  buf_append(&L->qbytes, zeros, -len & 7);   /* the prefix aligned */
  if (nprefix) buf_append(&L->qbytes, prefix, nprefix * sizeof *prefix);
}

/* The State bytes and the prefix of start st. */
static const uint8_t *start_bytes(const Liveness *L, const LStart *st) {
  return (const uint8_t *)L->qbytes.data + st->off;
}
static const TraceChoice *start_prefix(const Liveness *L, const LStart *st) {
  return (const TraceChoice *)(const void *)(start_bytes(L, st) + ((st->len + 7) & ~7u));
}

/* No search under way: begin the next one, for the next spec of the first
** start that still needs searching for it (not settled, given up, or
** entered by an earlier search for it); the starts left with no spec are
** dropped.  0 if none is left. */
static int search_next(Liveness *L) {
  while (L->qhead < L->nq) {
    LStart *st = &L->q[L->qhead];
    while (st->specs) {
      int k = __builtin_ctzll(st->specs);
      st->specs &= st->specs - 1;
      if (((L->gaveup | L->settled) >> k & 1) || sc_contains(L->visited, st->fp ^ salt(k))) continue;
      search_begin(L, k, start_bytes(L, st), st->len, st->fp);
      return 1;
    }
    queue_pop(L);
  }
  return 0;
}

/* live_work's loop; with `shrink`, it returns as soon as, between two
** searches, the queue fits its share or holds only its last start (that
** is how live_offer makes room). */
static LiveResult work(Liveness *L, uint64_t steps, int shrink, Progress *prog, const char **why) {
  int paced = steps != LIVE_ALL;
  if (paced) steps = steps > LIVE_ALL - L->owed ? LIVE_ALL - 1 : steps + L->owed;
  L->owed = 0;
  L->draining = !paced && !shrink;
  for (;;) {
    if (!L->nfr) {
      if (shrink && (queue_bytes(L) <= queue_share(L) || L->nq - L->qhead <= 1)) return LIVE_NONE;
      if (!search_next(L)) return LIVE_NONE;
    }
    if (!steps) return LIVE_NONE;
    /* The start searched from, for its prefix should a cycle be found. */
    const LStart *st = &L->q[L->qhead];
    LiveResult r = search_steps(L, &steps, prog, why);
    if (r == LIVE_FOUND) {
      L->stem.n = 0;
      const TraceChoice *pre = start_prefix(L, st);
      for (uint64_t i = 0; i < st->nprefix; i++) fg_trace_push(&L->stem, pre[i].kind, pre[i].value);
    }
    if (r == LIVE_STOPPED && paced) L->owed = steps;
    if (r != LIVE_NONE) return r;
  }
}

LiveResult live_offer(Liveness *L, const uint8_t *s, size_t len, uint64_t fp, uint64_t specs,
                      const TraceChoice *prefix, uint64_t nprefix, Progress *prog, const char **why) {
  specs &= L->hotspecs & ~L->gaveup & ~L->settled;
  for (uint64_t m = specs; m; m &= m - 1) {
    int k = __builtin_ctzll(m);
    if (sc_contains(L->visited, fp ^ salt(k))) specs &= ~(1ull << k);
  }
  if (!specs) return LIVE_NONE;
  /* Queued first, then room made: whatever work returns, the start is
  ** kept (the queue may pass its share by this one start). */
  queue_push(L, s, len, fp, specs, prefix, nprefix);
  if (queue_bytes(L) <= queue_share(L)) return LIVE_NONE;
  return work(L, LIVE_ALL, 1, prog, why);
}

LiveResult live_work(Liveness *L, uint64_t steps, Progress *prog, const char **why) {
  return work(L, steps, 0, prog, why);
}

int live_pending(const Liveness *L) { return L && (L->nfr || L->qhead < L->nq); }

/* ---- Checkpoints ----
** Section "live": u64 settled, u64 gaveup, bytes why (ck_put_bytes), u64
** ticks, u64 owed; u64 the starts queued, each u64 fp, u64 specs, bytes its State,
** u64 nprefix and nprefix times u8 kind, u32 value; u64 the frames of the
** search under way (0: none), and if there are: u32 k, the capacities
** held() counts (u64 node_cap, edge_cap, fr_cap, pos.cap, bytes.cap,
** qbytes.cap, qcap: a resumed search gives up where one never stopped
** does), u64 nnode and each node's fields, bytes the nodes' States, u64
** nedge and each edge (u64 fp, u32 choice), each frame (u64 node, u8
** expanded, u32 next, u32 down, u64 chosen, u8 narrowed, u32 ne and its
** edges); then the visited
** set (sc_save), to the end.  A frame's choices are made again from its
** State (vm_choices is a function of it). */

static void put_edges(Buf *out, const LEdge *e, uint64_t n) {
  for (uint64_t i = 0; i < n; i++) {
    ck_put_u64(out, e[i].fp);
    ck_put_u32(out, e[i].choice);
  }
}

void live_save(const Liveness *L, Buf *out) {
  ck_put_u64(out, L->settled);
  ck_put_u64(out, L->gaveup);
  ck_put_bytes(out, L->why, L->why ? strlen(L->why) : 0);
  ck_put_u64(out, L->ticks);
  ck_put_u64(out, L->owed);
  ck_put_u64(out, L->nq - L->qhead);
  for (uint64_t i = L->qhead; i < L->nq; i++) {
    const LStart *st = &L->q[i];
    ck_put_u64(out, st->fp);
    ck_put_u64(out, st->specs);
    ck_put_bytes(out, start_bytes(L, st), st->len);
    ck_put_u64(out, st->nprefix);
    const TraceChoice *pre = start_prefix(L, st);
    for (uint64_t j = 0; j < st->nprefix; j++) {
      ck_put_u8(out, pre[j].kind);
      ck_put_u32(out, pre[j].value);
    }
  }
  ck_put_u64(out, L->nfr);
  if (L->nfr) {
    ck_put_u32(out, (uint32_t)L->k);
    uint64_t caps[7] = { L->node_cap, L->edge_cap, L->fr_cap, L->pos.cap, L->bytes.cap, L->qbytes.cap, L->qcap };
    for (int i = 0; i < 7; i++) ck_put_u64(out, caps[i]);
    ck_put_u64(out, L->nnode);
    for (uint64_t i = 0; i < L->nnode; i++) {
      const LNode *v = &L->node[i];
      uint64_t w[5] = { v->off, v->fp, v->low, v->eoff, v->emark };
      uint32_t h[5] = { v->len, v->nedges, v->actor, v->nopt, v->nm };
      for (int j = 0; j < 5; j++) ck_put_u64(out, w[j]);
      for (int j = 0; j < 5; j++) ck_put_u32(out, h[j]);
      ck_put_u8(out, v->kind);
      ck_put_u8(out, v->self);
    }
    ck_put_bytes(out, L->bytes.data, L->bytes.len);
    ck_put_u64(out, L->nedge);
    put_edges(out, L->edge, L->nedge);
    for (uint64_t i = 0; i < L->nfr; i++) {
      const LFrame *f = &L->fr[i];
      ck_put_u64(out, f->node);
      ck_put_u8(out, (uint8_t)f->expanded);
      ck_put_u32(out, f->next);
      ck_put_u32(out, f->down);
      ck_put_u64(out, f->chosen);
      ck_put_u8(out, (uint8_t)f->narrowed);
      ck_put_u32(out, f->ne);
      put_edges(out, f->eb, f->ne);
    }
  }
  sc_save(L->visited, out);
}

/* The search under way as live_save wrote it (r after its frame count
** nfr), into L.  0, or -1 if it does not fit. */
static int load_search(Liveness *L, CkIn *r, uint64_t nfr) {
  L->k = (int)ck_get_u32(r);
  uint64_t caps[7];
  for (int i = 0; i < 7; i++) caps[i] = ck_get_u64(r);
  uint64_t nnode = ck_get_u64(r), left = (uint64_t)(r->end - r->p);
  const uint64_t size[7] = { sizeof(LNode), sizeof(LEdge), sizeof(LFrame), 16, 1, 1, sizeof(LStart) };
  for (int i = 0; i < 7; i++)   /* no more than the budget lets a search reach */
    if (caps[i] > (4 * L->budget + (1u << 20)) / size[i]) return -1;
  if (!r->ok || L->k < 0 || L->k >= 64 || !(L->hotspecs >> L->k & 1) || nnode == 0 || nnode > left / 62 ||
      caps[0] < nnode || nfr > nnode || caps[2] < nfr || caps[3] < 2 * nnode || (caps[3] & (caps[3] - 1)))
    return -1;
  L->node_cap = caps[0];
  L->node = xcalloc(L->node_cap, sizeof *L->node);
  for (uint64_t i = 0; i < nnode; i++) {
    LNode *v = &L->node[i];
    v->off = ck_get_u64(r);
    v->fp = ck_get_u64(r);
    v->low = ck_get_u64(r);
    v->eoff = ck_get_u64(r);
    v->emark = ck_get_u64(r);
    v->len = ck_get_u32(r);
    v->nedges = ck_get_u32(r);
    v->actor = ck_get_u32(r);
    v->nopt = ck_get_u32(r);
    v->nm = ck_get_u32(r);
    v->kind = ck_get_u8(r);
    v->self = ck_get_u8(r);
  }
  L->nnode = nnode;
  uint64_t nb;
  const uint8_t *b = ck_get_bytes(r, &nb);
  uint64_t nedge = ck_get_u64(r);
  if (!r->ok || nb + 1 > caps[4] || nedge > (uint64_t)(r->end - r->p) / 12 || nedge > caps[1]) return -1;
  buf_reserve(&L->bytes, (size_t)caps[4] - 1);
  buf_append(&L->bytes, b, (size_t)nb);
  L->edge_cap = caps[1];
  L->edge = xmalloc((L->edge_cap ? L->edge_cap : 1) * sizeof *L->edge);
  for (uint64_t i = 0; i < nedge; i++) {
    L->edge[i].fp = ck_get_u64(r);
    L->edge[i].choice = ck_get_u32(r);
    L->edge[i].zero = 0;
  }
  L->nedge = nedge;
  for (uint64_t i = 0; i < nnode; i++) {   /* every State whole, every edge list stored */
    const LNode *v = &L->node[i];
    if (v->off > nb || v->len > nb - v->off || v->low > i || v->eoff + v->nedges > nedge || v->emark > nedge ||
        !vm_state_valid(L->vm, node_bytes(L, i), v->len))
      return -1;
  }
  L->pos.cap = caps[3];
  L->pos.key = xcalloc(L->pos.cap, sizeof *L->pos.key);
  L->pos.val = xmalloc(L->pos.cap * sizeof *L->pos.val);
  for (uint64_t i = 0; i < nnode; i++) fm_put(&L->pos, L->node[i].fp, i);
  L->fr_cap = caps[2];
  L->fr = xcalloc(L->fr_cap, sizeof *L->fr);
  for (uint64_t i = 0; i < nfr && r->ok; i++) {
    LFrame *f = &L->fr[i];
    f->node = ck_get_u64(r);
    f->expanded = ck_get_u8(r);
    f->next = ck_get_u32(r);
    f->down = ck_get_u32(r);
    f->chosen = ck_get_u64(r);
    f->narrowed = ck_get_u8(r);
    uint32_t ne = ck_get_u32(r);
    if (!r->ok || f->node >= nnode || (i && f->node <= L->fr[i - 1].node) || ne > (uint64_t)(r->end - r->p) / 12)
      return -1;
    for (uint32_t j = 0; j < ne; j++) {
      uint64_t fp = ck_get_u64(r);
      frame_edge(f, fp, ck_get_u32(r));
    }
    L->nfr = i + 1;
    L->node[f->node].onpath = 1;
    if (f->narrowed > 1 || (f->narrowed && !L->red)) return -1;
    if (!f->expanded) continue;
    const LNode *v = &L->node[f->node];
    VmStatus st = vm_choices(L->vm, node_bytes(L, f->node), v->len, &f->ch);
    if (st == VM_BAD_STATE) return -1;
    if (st != VM_OK) f->ch.n = 0;
    if (f->next > f->ch.n || (f->narrowed && (f->ch.kind != VC_MACHINE || f->ch.n > 64))) return -1;
  }
  L->pinned = UINT64_MAX;
  L->qcap = caps[6];
  if (L->qcap < L->nq) return -1;
  L->q = xrealloc(L->q, (L->qcap ? L->qcap : 1) * sizeof *L->q);
  if (caps[5] > L->qbytes.cap) buf_reserve(&L->qbytes, (size_t)caps[5] - 1 - L->qbytes.len);
  return r->ok && L->nq > 0 ? 0 : -1;   /* the search is from the first start */
}

int live_load(Liveness *L, const uint8_t *p, size_t len, Buf *err) {
  CkIn r = { p, p + len, 1 };
  L->settled = ck_get_u64(&r);
  L->gaveup = ck_get_u64(&r);
  uint64_t nwhy;
  const uint8_t *why = ck_get_bytes(&r, &nwhy);
  L->ticks = ck_get_u64(&r);
  L->owed = ck_get_u64(&r);
  uint64_t nst = ck_get_u64(&r);
  if (!r.ok || nst > (uint64_t)(r.end - r.p) / 32) goto bad;
  free(L->why);
  L->why = NULL;
  if (nwhy) {
    L->why = xmalloc((size_t)nwhy + 1);
    memcpy(L->why, why, (size_t)nwhy);
    L->why[nwhy] = 0;
  }
  TraceChoice *pre = NULL;
  uint64_t pre_cap = 0;
  for (uint64_t i = 0; i < nst && r.ok; i++) {
    uint64_t fp = ck_get_u64(&r), specs = ck_get_u64(&r), ns, np;
    const uint8_t *s = ck_get_bytes(&r, &ns);
    np = ck_get_u64(&r);
    if (!r.ok || ns > UINT32_MAX || np > (uint64_t)(r.end - r.p) / 5 || !vm_state_valid(L->vm, s, (size_t)ns)) {
      r.ok = 0;
      break;
    }
    if (np > pre_cap) {
      pre_cap = np;
      pre = xrealloc(pre, pre_cap * sizeof *pre);
    }
    for (uint64_t j = 0; j < np; j++) {
      pre[j].kind = ck_get_u8(&r);
      pre[j].value = ck_get_u32(&r);
    }
    queue_push(L, s, (size_t)ns, fp, specs & L->hotspecs, pre, np);
  }
  free(pre);
  uint64_t nfr = ck_get_u64(&r);
  if (!r.ok || (nfr && load_search(L, &r, nfr) != 0)) goto bad;
  StateCache *v = sc_load(L->o->cache_kind, L->budget, r.p, (size_t)(r.end - r.p), err);
  if (!v) return -1;
  sc_free(L->visited);
  L->visited = v;
  sc_set_single_thread(v, 1);
  return 0;
bad:
  buf_puts(err, "the hot-cycle search's part does not fit");
  return -1;
}

void live_cycle_message(Buf *b, const char *spec, const char *state, const char *file, uint32_t line,
                        uint64_t nsteps, int unfair) {
  if (unfair)
    buf_printf(b, "spec '%s' can be hot forever: the execution can cycle through %llu steps without entering a "
               "cold state", spec, (unsigned long long)nsteps);
  else
    buf_printf(b, "spec '%s' can be hot forever: a fair execution can cycle through %llu steps without entering "
               "a cold state", spec, (unsigned long long)nsteps);
  buf_printf(b, " (hot state '%s'", state);
  if (file) {
    const char *slash = strrchr(file, '/');
    buf_printf(b, " at %s:%u", slash ? slash + 1 : file, line);
  }
  buf_puts(b, unfair ? "; fairness not required: --unfair)" : "; fair: machines weakly, choices strongly)");
}

/* Make the hot-cycle bug of spec (its state where the cycle begins: name,
** file, line) the result's, with the trace prefix then lasso, the cycle
** starting cycle_at choices into the lasso. */
static void record_cycle(SearchResult *res, const Vm *vm, int spec, const char *name, const char *file, uint32_t line,
                         int unfair, const TraceChoice *prefix, uint64_t nprefix, const FgTrace *lasso,
                         uint64_t cycle_at) {
  uint64_t n = nprefix + lasso->n;
  TraceChoice *t = xmalloc((n ? n : 1) * sizeof *t);
  if (nprefix) memcpy(t, prefix, nprefix * sizeof *t);
  if (lasso->n) memcpy(t + nprefix, lasso->v, lasso->n * sizeof *t);
  free(res->trace);
  free(res->bugdesc.message);
  memset(&res->bugdesc, 0, sizeof res->bugdesc);
  res->bug = 1;
  res->bugdesc.status = VM_BUG_HOT_CYCLE;
  Buf m;
  buf_init(&m);
  live_cycle_message(&m, vm_spec_name(vm, (uint16_t)spec), name, file, line, lasso->n - cycle_at, unfair);
  res->bugdesc.message = buf_take(&m);
  res->trace = t;
  res->ntrace = n;
  res->cycle_start = (int64_t)(nprefix + cycle_at);
  res->cycle_unfair = unfair;
}

void live_record(const Liveness *L, SearchResult *res) {
  record_cycle(res, L->vm, L->spec, L->st_name, L->st_file, L->st_line, L->unfair, L->stem.v, L->stem.n, &L->lasso,
               L->cycle_at);
}

/* ------------------------------------------------------------------------ */
/* On the fly, over the calling dfs's graph (LiveScc).                      */

/* A state on Tarjan's stack, at the same position as in LiveScc.fin. */
typedef struct OtEntry {
  uint64_t parent;           /* position of the state that entered it, or UINT64_MAX: the first */
  uint32_t via;              /* the choice from there */
  uint8_t via_kind;
} OtEntry;

/* A state on the stack where a spec checked is not cold (hot, or warm). */
typedef struct OtHot {
  uint64_t live;             /* the specs checked that are not cold in it */
  uint64_t hot;              /* those of them hot in it */
  uint64_t key;              /* VC_DATA: its choice point's key (the choosing machine's record without
                                its inbox, hashed: what trace equivalence keeps) */
  uint64_t pos;              /* its position on the stack */
  uint64_t eoff;             /* its steps: efp/ech/ecl[eoff .. eoff + ne), once it left */
  uint64_t woff;             /* the machines enabled in it: words[woff .. woff + nw) */
  uint32_t ne, nopt, actor, nw;
  uint8_t kind;              /* VC_MACHINE, VC_DATA, or VC_NONE (an end, or a bug) */
} OtHot;

/* A state entered and not yet left (the calling search's path). */
typedef struct OtFrame {
  uint64_t index, low;       /* Tarjan's (finished.h) */
  uint64_t pos;              /* its position on the stack */
  uint64_t hot;              /* its OtHot, or UINT64_MAX */
  uint64_t nhot, nedge, nword;   /* the arrays' lengths when it was entered */
  uint64_t *efp;             /* its steps so far, when it has an OtHot: successor fingerprint, choice, */
  uint32_t *ech;
  uint64_t *ecl;             /* and the specs that entered a cold state on the step */
  uint32_t ne, ecap;
} OtFrame;

/* Invariants: ent[0 .. nent) and fin's stack are Tarjan's stack, position
** for position; hot[] lists those where a spec checked is not cold among
** them, in the same order;
** the states of a component closing at a root are those from the root's
** position up, their OtHot those from its frame's nhot, their steps and
** enabled sets those from its nedge and nword (a state's steps are stored
** when it leaves, after its descendants', and a component closing below
** it took its own along), so closing truncates every array. */
struct LiveScc {
  const SearchOptions *o;
  const BcProgram *bc;
  const VmTest *test;
  Vm *vm;                    /* replays inside a component */
  uint64_t hotspecs;         /* bit k: spec k has a hot state */
  uint64_t settled;          /* specs whose hot cycle was reported (live_scc_settle) */
  int unfair, reduced;
  char *why;                 /* why it stopped (heap), or NULL: it follows the caller */
  uint64_t budget;           /* bytes it may hold */
  uint64_t peak;             /* the most it held, as scc_held counts */
  Finished fin;
  OtEntry *ent;
  uint64_t nent, ent_cap;
  OtHot *hot;
  uint64_t nhot, hot_cap;
  uint64_t *efp;
  uint32_t *ech;
  uint64_t *ecl;
  uint64_t nedge, edge_cap;
  uint64_t *words;
  uint64_t nword, word_cap;
  OtFrame *fr;
  uint64_t nfr, fr_cap;
  uint64_t fbytes;           /* the frames' step lists */
  FpMap local;               /* fingerprint -> node, for the component being looked at */
  uint64_t *nodes, nodes_cap;   /* its OtHot, by node */
  uint32_t *unsure, unsure_cap;
  FairGraph *fg;
  VmChoices en;
  Buf scratch, a, b;         /* vm_local_states' scratch; States replayed */
  uint32_t key_index;        /* the record key_of hashes */
  uint64_t key;
  Liveness *full;            /* the search in the full graph, once needed */
  FgTrace stem;
  /* The lasso found (valid after LIVE_FOUND): */
  FgTrace lasso;
  uint64_t cycle_at;
  int spec;
  const char *st_name, *st_file;
  uint32_t st_line;
};

LiveScc *live_scc_new(const BcProgram *bc, const VmTest *test, const SearchOptions *o, int reduced) {
  uint64_t hot = bits_of_hot(bc, test);
  if (!hot) return NULL;
  LiveScc *t = xcalloc(1, sizeof *t);
  t->o = o;
  t->bc = bc;
  t->test = test;
  t->hotspecs = hot;
  t->unfair = o->unfair;
  t->reduced = reduced;
  t->budget = o->frontier_mem / LIVE_SHARE;
  if (t->budget < (1u << 20)) t->budget = 1u << 20;
  fin_init(&t->fin);
  t->vm = vm_new(bc, test);
  t->fg = fg_new();
  buf_init(&t->scratch);
  buf_init(&t->a);
  buf_init(&t->b);
  return t;
}

/* Free what follows the caller (kept: what a lasso found needs). */
static void scc_release(LiveScc *t) {
  fin_fini(&t->fin);
  for (uint64_t i = 0; i < t->fr_cap; i++) {
    free(t->fr[i].efp);
    free(t->fr[i].ech);
    free(t->fr[i].ecl);
  }
  free(t->fr);
  free(t->ent);
  free(t->hot);
  free(t->efp);
  free(t->ech);
  free(t->ecl);
  free(t->words);
  free(t->nodes);
  free(t->unsure);
  fm_fini(&t->local);
  t->fr = NULL;
  t->ent = NULL;
  t->hot = NULL;
  t->efp = NULL;
  t->ech = NULL;
  t->ecl = NULL;
  t->words = t->nodes = NULL;
  t->unsure = NULL;
  t->nfr = t->fr_cap = t->nent = t->ent_cap = t->nhot = t->hot_cap = 0;
  t->nedge = t->edge_cap = t->nword = t->word_cap = t->nodes_cap = t->fbytes = 0;
  t->unsure_cap = 0;
}

void live_scc_free(LiveScc *t) {
  if (!t) return;
  scc_release(t);
  fg_free(t->fg);
  vm_choices_fini(&t->en);
  buf_fini(&t->scratch);
  buf_fini(&t->a);
  buf_fini(&t->b);
  free(t->stem.v);
  free(t->lasso.v);
  free(t->why);
  live_free(t->full);
  vm_free(t->vm);
  free(t);
}

uint64_t live_scc_specs(const LiveScc *t) { return t ? t->hotspecs : 0; }
uint64_t live_scc_peak(const LiveScc *t) { return t ? t->peak : 0; }

void live_scc_off(LiveScc *t, const char *why) {
  if (t->why) return;
  t->why = xstrdup(why);
  scc_release(t);
}

const char *live_scc_incomplete(const LiveScc *t) {
  if (!t) return NULL;
  return t->why ? t->why : live_incomplete(t->full);
}

int live_scc_settle(LiveScc *t) {
  t->settled |= 1ull << t->spec;
  return t->spec;
}

/* Bytes it holds (what the budget bounds). */
static uint64_t scc_held(const LiveScc *t) {
  return fin_bytes(&t->fin) + t->ent_cap * sizeof(OtEntry) + t->hot_cap * sizeof(OtHot) + t->edge_cap * 20 +
         t->word_cap * 8 + t->fr_cap * sizeof(OtFrame) + t->fbytes + t->local.cap * 16 + t->nodes_cap * 8;
}

/* vm_local_states' callback: the hash of record key_index. */
static void key_of(void *ctx, uint32_t index, const uint8_t *b, size_t n) {
  LiveScc *t = ctx;
  if (index == t->key_index) t->key = state_hash(b, n);
}

/* Room for n more words of enabled sets; returns where they start, zeroed. */
static uint64_t *scc_words(LiveScc *t, uint64_t n) {
  if (t->nword + n > t->word_cap) {
    t->word_cap = t->nword + n > 2 * t->word_cap ? t->nword + n : 2 * t->word_cap;
    t->words = xrealloc(t->words, t->word_cap * 8);
  }
  uint64_t *w = t->words + t->nword;
  memset(w, 0, n * 8);
  t->nword += n;
  return w;
}

void live_scc_enter(LiveScc *t, Vm *vm, const uint8_t *s, size_t len, uint64_t fp, VmStatus st,
                    const VmChoices *ch, uint64_t hot, uint64_t cold, TraceChoice via) {
  if (t->why) return;
  uint64_t live = t->hotspecs & ~t->settled & ~cold;
  hot &= live;
  uint64_t held = scc_held(t);
  if (held > t->peak) t->peak = held;
  if (held > t->budget) {
    uint64_t k = hot ? hot : t->hotspecs & ~t->settled;
    char *why = outgrew(t->vm, k ? __builtin_ctzll(k) : 0, t->budget);
    live_scc_off(t, why);
    free(why);
    return;
  }
  if (t->nent == t->ent_cap) {
    t->ent_cap = t->ent_cap ? 2 * t->ent_cap : 1024;
    t->ent = xrealloc(t->ent, t->ent_cap * sizeof *t->ent);
  }
  if (t->nfr == t->fr_cap) {
    uint64_t nc = t->fr_cap ? 2 * t->fr_cap : 64;
    t->fr = xrealloc(t->fr, nc * sizeof *t->fr);
    memset(t->fr + t->fr_cap, 0, (nc - t->fr_cap) * sizeof *t->fr);
    t->fr_cap = nc;
  }
  uint64_t pos = t->nent++;
  t->ent[pos] = (OtEntry){ t->nfr ? t->fr[t->nfr - 1].pos : UINT64_MAX, via.value, via.kind };
  OtFrame *f = &t->fr[t->nfr++];
  f->index = f->low = fin_push(&t->fin, fp);
  f->pos = pos;
  f->hot = UINT64_MAX;
  f->nhot = t->nhot;
  f->nedge = t->nedge;
  f->nword = t->nword;
  f->ne = 0;
  if (!live) return;
  if (t->nhot == t->hot_cap) {
    t->hot_cap = t->hot_cap ? 2 * t->hot_cap : 256;
    t->hot = xrealloc(t->hot, t->hot_cap * sizeof *t->hot);
  }
  f->hot = t->nhot;
  OtHot *h = &t->hot[t->nhot++];
  memset(h, 0, sizeof *h);
  h->live = live;
  h->hot = hot;
  h->pos = pos;
  h->woff = t->nword;
  h->kind = st == VM_OK ? (uint8_t)ch->kind : VC_NONE;
  if (t->unfair || h->kind == VC_NONE) return;   /* no fairness, or no step: nothing more to know */
  const VmChoices *en = ch;
  if (h->kind == VC_DATA) {
    h->nopt = ch->n;
    h->actor = ch->machine;
    if (vm_enabled(vm, s, len, &t->en) != VM_OK) t->en.n = 0;
    en = &t->en;
    if (t->reduced) {
      t->key_index = t->test->nspecs + ch->machine;
      t->key = 0;
      vm_local_states(vm, s, len, &t->scratch, key_of, t);
      h->key = t->key;
    }
  }
  h->nw = en->nmachines / 64 + 1;
  set_bits(scc_words(t, h->nw), en);
}

void live_scc_claim(LiveScc *t, uint64_t fp) {
  if (!t->why) fin_claim(&t->fin, fp, t->fr[t->nfr - 1].index);
}

void live_scc_edge(LiveScc *t, uint32_t choice, uint64_t fp, int fresh, uint64_t cooled) {
  if (t->why) return;
  OtFrame *f = &t->fr[t->nfr - 1];
  if (!fresh) {
    /* A state of a closed component: outside every component still open. */
    if (!fin_edge(&t->fin, fp, &f->low) || f->hot == UINT64_MAX) return;
  } else if (f->hot == UINT64_MAX) {
    return;
  }
  if (f->ne == f->ecap) {
    uint32_t nc = f->ecap ? 2 * f->ecap : 8;
    t->fbytes += (uint64_t)(nc - f->ecap) * 20;
    f->ecap = nc;
    f->efp = xrealloc(f->efp, nc * sizeof *f->efp);
    f->ech = xrealloc(f->ech, nc * sizeof *f->ech);
    f->ecl = xrealloc(f->ecl, nc * sizeof *f->ecl);
  }
  f->efp[f->ne] = fp;
  f->ecl[f->ne] = cooled;
  f->ech[f->ne++] = choice;
}

/* Append to tr the tree path from the state at position rp to the one at
** p (rp an ancestor of p, or p itself).  0, or -1 if rp is not. */
static int stem_to(const LiveScc *t, uint64_t rp, uint64_t p, FgTrace *tr) {
  uint64_t start = tr->n;
  while (p != rp) {
    if (p == UINT64_MAX || p < rp) return -1;
    fg_trace_push(tr, t->ent[p].via_kind, t->ent[p].via);
    p = t->ent[p].parent;
  }
  for (uint64_t i = start, j = tr->n; i + 1 < j; i++, j--) {
    TraceChoice x = tr->v[i];
    tr->v[i] = tr->v[j - 1];
    tr->v[j - 1] = x;
  }
  return 0;
}

/* The State reached from s by the n choices c, in t->a.  0, or -1. */
static int replay(LiveScc *t, const uint8_t *s, size_t len, const TraceChoice *c, uint64_t n) {
  t->a.len = 0;
  buf_append(&t->a, s, len);
  for (uint64_t i = 0; i < n; i++) {
    t->b.len = 0;
    if (vm_step(t->vm, (const uint8_t *)t->a.data, t->a.len, c[i].value, &t->b) != VM_OK) return -1;
    Buf x = t->a;
    t->a = t->b;
    t->b = x;
  }
  return 0;
}

/* The graph of spec k's states that are not cold (N_k) in the component
** whose OtHot start at h0, in t->fg (t->nodes maps its nodes back); a step
** on which k entered a cold state leads out of it. */
static void scc_graph(LiveScc *t, int k, uint64_t h0) {
  uint64_t n = 0, nw = 1;
  for (uint64_t h = h0; h < t->nhot; h++) {
    if (!(t->hot[h].live >> k & 1)) continue;
    if (n == t->nodes_cap) {
      t->nodes_cap = t->nodes_cap ? 2 * t->nodes_cap : 256;
      t->nodes = xrealloc(t->nodes, t->nodes_cap * sizeof *t->nodes);
    }
    t->nodes[n] = h;
    fm_put(&t->local, t->fin.stack[t->hot[h].pos], n++);
    if (t->hot[h].nw > nw) nw = t->hot[h].nw;
  }
  fg_begin(t->fg, (uint32_t)n, (uint32_t)nw);
  for (uint32_t u = 0; u < n; u++) {
    const OtHot *h = &t->hot[t->nodes[u]];
    uint64_t *en = fg_node(t->fg, u, h->kind, h->actor, h->nopt, h->key, (int)(h->hot >> k & 1));
    if (h->nw) memcpy(en, t->words + h->woff, h->nw * 8);
    for (uint64_t e = h->eoff; e < h->eoff + h->ne; e++) {
      uint64_t v;
      int in = !(t->ecl[e] >> k & 1) && fm_get(&t->local, t->efp[e], &v);
      fg_edge(t->fg, t->ech[e], in ? (uint32_t)v : FG_OUT);
    }
  }
  for (uint64_t u = 0; u < n; u++) fm_del(&t->local, t->fin.stack[t->hot[t->nodes[u]].pos]);
}

/* The component closing at frame f (its root's State s) is complete: look
** for each spec hot in some of its states, in its states where that spec
** is not cold. */
static LiveResult scc_look(LiveScc *t, const OtFrame *f, const uint8_t *s, size_t len, Progress *prog,
                           const char **why) {
  uint64_t rp = f->pos, specs = 0;
  for (uint64_t h = f->nhot; h < t->nhot; h++) specs |= t->hot[h].hot;
  specs &= ~t->settled;
  if (!specs) return LIVE_NONE;
  if (t->nent - rp == 1) {   /* one state: a cycle only through a step to itself */
    const OtHot *h = &t->hot[f->nhot];
    int self = 0;
    for (uint64_t e = h->eoff; e < h->eoff + h->ne && !self; e++) self = t->efp[e] == t->fin.stack[rp];
    /* (a step to itself that cools the spec leads out: fg_search sees it) */
    if (!self) return LIVE_NONE;
  }
  if (t->nhot - f->nhot >= FG_OUT) return internal_error("a component too large for the hot-cycle search");
  FgMode mode = t->unfair ? FG_UNFAIR : t->reduced ? FG_KEYED : FG_EXACT;
  for (int k = 0; specs; k++) {
    if (!(specs >> k & 1)) continue;
    specs &= ~(1ull << k);
    scc_graph(t, k, f->nhot);
    uint32_t e, nu = 0;
    const uint32_t *us = NULL;
    FgVerdict v = fg_search(t->fg, mode, &e);
    if (v == FG_FOUND && !t->o->live_recheck) {
      t->lasso.n = 0;
      if (stem_to(t, rp, t->hot[t->nodes[e]].pos, &t->lasso) != 0) return internal_error("a broken search tree");
      t->cycle_at = t->lasso.n;
      if (fg_cycle(t->fg, mode, &t->lasso) != 0) return internal_error("no fair cycle in an accepted component");
      if (replay(t, s, len, t->lasso.v, t->cycle_at) != 0) return internal_error("a step of the lasso failed");
      vm_spec_state(t->vm, (const uint8_t *)t->a.data, t->a.len, (uint16_t)k, &t->st_name, &t->st_file,
                    &t->st_line);
      t->spec = k;
      return LIVE_FOUND;
    }
    if (v == FG_FOUND && t->o->live_recheck) {   /* tests: the full graph's search decides */
      v = FG_UNSURE;
      us = &e;
      nu = 1;
    } else if (v == FG_UNSURE) {
      us = fg_unsure(t->fg, &nu);
    }
    if (v != FG_UNSURE) continue;
    /* Fair by choice points but not by states: the full graph decides,
    ** from a state of each such set (doc/liveness.md, "Under the
    ** reduction"). */
    if (nu > t->unsure_cap) {
      t->unsure_cap = nu;
      t->unsure = xrealloc(t->unsure, nu * sizeof *t->unsure);
    }
    memcpy(t->unsure, us, nu * sizeof *us);
    for (uint32_t i = 0; i < nu; i++) {
      uint64_t p = t->hot[t->nodes[t->unsure[i]]].pos;
      t->stem.n = 0;
      if (stem_to(t, rp, p, &t->stem) != 0) return internal_error("a broken search tree");
      if (replay(t, s, len, t->stem.v, t->stem.n) != 0) return internal_error("a step of the search tree failed");
      if (!t->full) t->full = live_new(t->bc, t->test, t->o, 0);
      /* Searched to its end from there (nothing else is queued). */
      LiveResult r = live_offer(t->full, (const uint8_t *)t->a.data, t->a.len, t->fin.stack[p], 1ull << k, NULL, 0,
                                prog, why);
      if (r == LIVE_NONE) r = live_work(t->full, LIVE_ALL, prog, why);
      if (r == LIVE_NONE) continue;
      if (r != LIVE_FOUND) return r;
      const Liveness *L = t->full;
      t->lasso.n = 0;
      for (uint64_t j = 0; j < t->stem.n; j++) fg_trace_push(&t->lasso, t->stem.v[j].kind, t->stem.v[j].value);
      for (uint64_t j = 0; j < L->lasso.n; j++) fg_trace_push(&t->lasso, L->lasso.v[j].kind, L->lasso.v[j].value);
      t->cycle_at = t->stem.n + L->cycle_at;
      t->st_name = L->st_name;
      t->st_file = L->st_file;
      t->st_line = L->st_line;
      t->spec = k;
      return LIVE_FOUND;
    }
  }
  return LIVE_NONE;
}

LiveResult live_scc_leave(LiveScc *t, const uint8_t *s, size_t len, Progress *prog, const char **why) {
  if (t->why) return LIVE_NONE;
  OtFrame *f = &t->fr[--t->nfr];
  if (f->hot != UINT64_MAX) {   /* its steps join the store */
    if (t->nedge + f->ne > t->edge_cap) {
      t->edge_cap = t->nedge + f->ne > 2 * t->edge_cap ? t->nedge + f->ne : 2 * t->edge_cap;
      t->efp = xrealloc(t->efp, t->edge_cap * sizeof *t->efp);
      t->ech = xrealloc(t->ech, t->edge_cap * sizeof *t->ech);
      t->ecl = xrealloc(t->ecl, t->edge_cap * sizeof *t->ecl);
    }
    OtHot *h = &t->hot[f->hot];
    h->eoff = t->nedge;
    h->ne = f->ne;
    if (f->ne) {
      memcpy(t->efp + t->nedge, f->efp, f->ne * sizeof *f->efp);
      memcpy(t->ech + t->nedge, f->ech, f->ne * sizeof *f->ech);
      memcpy(t->ecl + t->nedge, f->ecl, f->ne * sizeof *f->ecl);
    }
    t->nedge += f->ne;
  }
  LiveResult r = LIVE_NONE;
  if (f->low == f->index && t->nhot > f->nhot) r = scc_look(t, f, s, len, prog, why);
  if (fin_pop(&t->fin, f->index, f->low, t->nfr ? &t->fr[t->nfr - 1].low : NULL, NULL, NULL)) {
    t->nent = f->pos;
    t->nhot = f->nhot;
    t->nedge = f->nedge;
    t->nword = f->nword;
  }
  return r;
}

void live_scc_record(const LiveScc *t, const TraceChoice *prefix, uint64_t nprefix, SearchResult *res) {
  record_cycle(res, t->vm, t->spec, t->st_name, t->st_file, t->st_line, t->unfair, prefix, nprefix, &t->lasso,
               t->cycle_at);
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
** and the steps taken at data choices, to compare options per state. */
typedef struct FairStep {
  uint64_t fp;               /* the state's fingerprint */
  uint64_t step;             /* its index among the steps given */
  uint32_t option;           /* the option taken */
  uint32_t nopt;             /* the choice's options */
  uint32_t machine;          /* the choosing machine */
  uint8_t coin;              /* a `$$` */
} FairStep;

struct LiveFair {
  uint64_t nsteps;
  uint32_t nm;               /* machines (the largest count seen) */
  uint64_t *encount;         /* per machine: steps from a state where it is enabled */
  uint8_t *ran;              /* per machine: it ran on a step */
  FairStep *fs;              /* the steps from data choices */
  uint64_t nfs, fs_cap;
  int failed;
};

LiveFair *live_fair_new(void) { return xcalloc(1, sizeof(LiveFair)); }

void live_fair_free(LiveFair *c) {
  if (!c) return;
  free(c->encount);
  free(c->ran);
  free(c->fs);
  free(c);
}

void live_fair_step(LiveFair *c, Vm *vm, const uint8_t *s, size_t len, const VmChoices *ch, uint32_t choice) {
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
  if (ch->kind == VC_DATA) {
    if (c->nfs == c->fs_cap) {
      c->fs_cap = c->fs_cap ? 2 * c->fs_cap : 16;
      c->fs = xrealloc(c->fs, c->fs_cap * sizeof *c->fs);
    }
    c->fs[c->nfs++] = (FairStep){ state_hash(s, len), c->nsteps, choice, ch->n, who, ch->fair };
  }
  c->nsteps++;
}

/* Data steps by state, then option, then step. */
static int fairstep_cmp(const void *a, const void *b) {
  const FairStep *x = a, *y = b;
  if (x->fp != y->fp) return x->fp < y->fp ? -1 : 1;
  if (x->option != y->option) return x->option < y->option ? -1 : 1;
  return x->step < y->step ? -1 : x->step > y->step;
}

int live_fair_check(LiveFair *c, Vm *vm, Buf *why) {
  if (c->failed) { buf_puts(why, "internal error while checking fairness"); return 0; }
  for (uint32_t m = 0; m < c->nm; m++)
    if (!c->ran[m] && c->encount[m] == c->nsteps) {
      buf_printf(why, "machine '%s' can run in every state of the cycle but never runs on it", vm_machine_text(vm, m));
      return 0;
    }
  /* Every data choice the cycle passes takes each of its options there;
  ** the first such state (in cycle order) that misses one is named. */
  if (c->nfs) qsort(c->fs, c->nfs, sizeof *c->fs, fairstep_cmp);
  const FairStep *bad = NULL;
  uint32_t missing = 0;
  for (uint64_t i = 0; i < c->nfs;) {
    uint64_t j = i, first = i;
    uint32_t want = 0;   /* the next option expected */
    for (; j < c->nfs && c->fs[j].fp == c->fs[i].fp; j++) {
      if (c->fs[j].step < c->fs[first].step) first = j;
      if (c->fs[j].option == want) want++;
    }
    if (want < c->fs[i].nopt && (!bad || c->fs[first].step < bad->step)) {
      bad = &c->fs[first];
      missing = want;
    }
    i = j;
  }
  if (!bad) return 1;
  if (bad->coin)
    buf_printf(why, "the `$$` choice of '%s' at cycle step %llu is made in a state the cycle passes, but the "
               "cycle never takes %s there", vm_machine_text(vm, bad->machine), (unsigned long long)bad->step + 1,
               missing ? "true" : "false");
  else
    buf_printf(why, "the data choice (`$` or `choose`) of '%s' at cycle step %llu is made in a state the cycle "
               "passes, but the cycle never takes its option %u there", vm_machine_text(vm, bad->machine),
               (unsigned long long)bad->step + 1, missing);
  return 0;
}
