/* search_ses.c: stratified exhaustive search (SEARCH.md, "SES").
** The product of the program and a delaying explorer is searched depth
** first, one delay bound (stratum) at a time: within stratum db a state
** takes the explorer's next choice, then delays while fewer than db delays
** have been used since the initial state; a state that would need one
** more delay goes to the frontier of stratum db+1, with its explorer state
** and the number of moves it already took.  The state cache holds program
** state fingerprints only, so a state met first with one explorer state is
** not explored again with another.
**
** Frontier entries hold the State and explorer bytes (packed in chunks
** freed as the next stratum works them off); once they outgrow
** the frontier budget, new entries hold only their path (the moves from
** the initial state, shared in a tree of reference-counted nodes) and are
** re-executed from the initial state when their stratum comes.
**
** The explorer is checked as it goes: at a state with n enabled machines
** its n answers (next, delay, next, ...) must all differ, or it is unsound
** and the search stops with the state and the machine it never chose.
** Each state where a spec turns hot is handed to the hot-cycle search
** (checker/liveness.c), which searches the program's state graph whatever
** the explorer. */
#include <config.h>
#include "checker/search.h"
#include "checker/explorer.h"
#include "checker/liveness.h"
#include "checker/pathset.h"
#include <stdlib.h>
#include <string.h>
#include "vm/hash.h"

/* A move from a state: the choice and the number of moves taken at that
** state before it (= the delays applied there first). */
typedef struct PNode {
  struct PNode *parent;
  uint32_t refs;
  uint32_t choice;
  uint32_t index;
  uint8_t kind;              /* VC_MACHINE or VC_DATA */
  uint64_t depth;            /* moves from the initial state, this one included */
} PNode;

static PNode *pn_ref(PNode *p) { if (p) p->refs++; return p; }

static void pn_unref(PNode *p) {
  while (p && --p->refs == 0) {
    PNode *up = p->parent;
    free(p);
    p = up;
  }
}

static PNode *pn_new(PNode *parent, uint8_t kind, uint32_t choice, uint32_t index) {
  PNode *p = xmalloc(sizeof *p);
  p->parent = pn_ref(parent);
  p->refs = 1;
  p->kind = kind;
  p->choice = choice;
  p->index = index;
  p->depth = parent ? parent->depth + 1 : 1;
  return p;
}

typedef struct FItem {
  PNode *path;               /* moves to the state (owned reference; NULL: the initial state) */
  uint8_t *bytes;            /* State bytes then explorer bytes (in a chunk), or NULL: re-execute */
  uint32_t slen, dlen;
  uint32_t i;                /* moves already taken at the state */
  uint32_t chunk;            /* the chunk holding bytes */
} FItem;

/* Entries' bytes are packed into large chunks, filled in order and freed
** in order as the next stratum consumes the entries: no allocation per
** entry, and memory returns as the frontier is worked off. */
enum { CHUNK_BYTES = 4u << 20 };   /* at most; a 64th of --frontier-mem when that is less */

typedef struct Frontier {
  FItem *items;
  uint64_t n, cap;
  uint64_t bytes;            /* bytes held by items */
  uint8_t **chunks;          /* NULL once freed */
  size_t *sizes;             /* bytes of each chunk */
  uint32_t nchunks, chunks_cap;
  size_t used;               /* bytes used in the last chunk */
  size_t last_size;          /* its size */
} Frontier;

/* Chunks of the worked-off frontier, kept for the next one (fresh memory
** costs a page fault per page). */
typedef struct ChunkPool {
  uint8_t **free;
  size_t size;               /* bytes of each pooled chunk */
  uint32_t n, cap;
} ChunkPool;

static void pool_put(ChunkPool *P, uint8_t *c, size_t size) {
  if (!c) return;
  if (size != P->size || P->n == 64) { free(c); return; }
  if (P->n == P->cap) {
    P->cap = P->cap ? P->cap * 2 : 8;
    P->free = xrealloc(P->free, P->cap * sizeof *P->free);
  }
  P->free[P->n++] = c;
}

static void pool_fini(ChunkPool *P) {
  for (uint32_t i = 0; i < P->n; i++) free(P->free[i]);
  free(P->free);
  memset(P, 0, sizeof *P);
}

/* Room for sz bytes of one entry; sets *chunk to the chunk's index. */
static uint8_t *frontier_alloc(Frontier *F, ChunkPool *P, size_t sz, uint32_t *chunk) {
  if (!F->nchunks || F->used + sz > F->last_size) {
    if (F->nchunks == F->chunks_cap) {
      F->chunks_cap = F->chunks_cap ? F->chunks_cap * 2 : 16;
      F->chunks = xrealloc(F->chunks, F->chunks_cap * sizeof *F->chunks);
      F->sizes = xrealloc(F->sizes, F->chunks_cap * sizeof *F->sizes);
    }
    F->last_size = sz > P->size ? sz : P->size;
    F->sizes[F->nchunks] = F->last_size;
    F->chunks[F->nchunks++] = F->last_size == P->size && P->n ? P->free[--P->n] : xmalloc(F->last_size);
    F->used = 0;
  }
  *chunk = F->nchunks - 1;
  uint8_t *p = F->chunks[F->nchunks - 1] + F->used;
  F->used += sz;
  return p;
}

typedef struct SFrame {
  Buf state;
  uint64_t fp;
  Buf d0;                    /* explorer state on arrival */
  Buf d;                     /* explorer state now (Next and Delay change it) */
  VmChoices ch;
  int expanded;
  int done;                  /* went to the frontier: pop when its child returns */
  uint32_t i;                /* moves taken */
  uint64_t n;                /* delays used from the initial state */
  uint8_t *taken;            /* VC_MACHINE: which choices the explorer gave */
  uint32_t taken_cap;
  uint32_t resume;           /* from the frontier: moves taken in earlier strata */
  PNode *node;               /* path to this state, once needed (owned reference) */
  uint8_t in_kind;           /* the move from the parent frame */
  uint32_t in_choice, in_index;
  int on_path;               /* fp is in the path set */
  uint64_t hot;              /* specs hot in the state (bits), when liveness is checked */
} SFrame;

typedef struct Ses {
  const BcProgram *bc;
  const VmTest *test;
  const SearchOptions *o;
  SearchResult *res;
  Vm *vm;
  Explorer *ex;
  StateCache *cache;
  PathSet path;
  int tracking;              /* the cache forgets: keep the stack's fingerprints */
  SFrame *fr;
  uint64_t depth, cap;
  PNode *root;               /* path of the frontier entry being searched */
  Frontier next;             /* the frontier of the next stratum */
  uint64_t db;               /* the delay bound of this stratum */
  Progress prog;
  const char *why;           /* why the search stopped early, or NULL */
  int failed;                /* internal error, or res->error set */
  uint64_t new_states;       /* in this stratum */
  uint64_t skipped;          /* successors and frontier entries skipped: dfs had finished them
                                (o->finished, in the portfolio) */
  Buf succ;
  ChunkPool pool;            /* frontier chunks for reuse */
  Liveness *live;            /* hot cycles, if a spec has hot states */
  int frontier_full;         /* a frontier entry had to be kept as a path: the frontier reached its budget */
  int sampled;               /* the search turned to sampling (SES then SS) */
  char *sample_bound;        /* how far the sampling got (heap), when it ended without a bug */
} Ses;

static void frame_fini(SFrame *f) {
  buf_fini(&f->state);
  buf_fini(&f->d0);
  buf_fini(&f->d);
  vm_choices_fini(&f->ch);
  free(f->taken);
  pn_unref(f->node);
}

/* The path node of frame k (made on demand, kept in the frame). */
static PNode *frame_node(Ses *S, uint64_t k) {
  if (k == 0) return S->fr[0].node;
  if (!S->fr[k].node) {
    PNode *up = frame_node(S, k - 1);
    SFrame *f = &S->fr[k];
    f->node = pn_new(up, f->in_kind, f->in_choice, f->in_index);
  }
  return S->fr[k].node;
}

/* The choices from the initial state to frame k's state, then `extra`. */
static TraceChoice *trace_to(Ses *S, uint64_t k, const TraceChoice *extra, uint64_t *n) {
  PNode *p = S->fr[0].node;
  uint64_t base = p ? p->depth : 0, len = base + k + (extra ? 1 : 0);
  TraceChoice *t = xcalloc(len ? len : 1, sizeof *t);
  for (uint64_t j = base; p; p = p->parent) {
    j--;
    t[j].kind = p->kind;
    t[j].value = p->choice;
  }
  for (uint64_t j = 1; j <= k; j++) {
    t[base + j - 1].kind = S->fr[j].in_kind;
    t[base + j - 1].value = S->fr[j].in_choice;
  }
  if (extra) t[len - 1] = *extra;
  *n = len;
  return t;
}

static void record_bug(Ses *S, uint64_t k, const TraceChoice *extra) {
  uint64_t n;
  TraceChoice *t = trace_to(S, k, extra, &n);
  search_record_bug(S->res, S->vm, t, n);
  free(t);
}

/* Stop with a failure of the explorer (not a bug of the model). */
static void explorer_failed(Ses *S, uint64_t k, const char *msg) {
  SearchResult *r = S->res;
  free(r->error);
  r->error = xstrdup(msg);
  free(r->trace);
  r->trace = trace_to(S, k, NULL, &r->ntrace);
  S->failed = 1;
}

static SFrame *push_frame(Ses *S) {
  if (S->depth == S->cap) {
    uint64_t nc = S->cap ? S->cap * 2 : 64;
    S->fr = xrealloc(S->fr, nc * sizeof *S->fr);
    memset(S->fr + S->cap, 0, (nc - S->cap) * sizeof *S->fr);
    S->cap = nc;
  }
  SFrame *f = &S->fr[S->depth++];
  f->expanded = f->done = 0;
  f->i = f->resume = 0;
  f->node = NULL;
  f->on_path = 0;
  return f;
}

static void pop_frame(Ses *S) {
  SFrame *f = &S->fr[S->depth - 1];
  if (f->on_path) ps_remove(&S->path, f->fp);
  pn_unref(f->node);
  f->node = NULL;
  S->depth--;
}

static void start_tracking(Ses *S) {
  if (S->tracking) return;
  S->tracking = 1;
  for (uint64_t k = 0; k < S->depth; k++) {
    ps_add(&S->path, S->fr[k].fp);
    S->fr[k].on_path = 1;
  }
}

/* Add frame k's state to the next frontier (it has taken f->i moves). */
static void frontier_add(Ses *S, uint64_t k) {
  SFrame *f = &S->fr[k];
  Frontier *F = &S->next;
  if (F->n == F->cap) {
    F->cap = F->cap ? F->cap * 2 : 1024;
    F->items = xrealloc(F->items, F->cap * sizeof *F->items);
  }
  FItem *it = &F->items[F->n++];
  it->path = pn_ref(frame_node(S, k));
  it->i = f->i;
  it->slen = (uint32_t)f->state.len;
  it->dlen = (uint32_t)f->d0.len;
  uint64_t sz = (uint64_t)it->slen + it->dlen;
  if (F->bytes + sz + F->cap * sizeof(FItem) <= S->o->frontier_mem / 2) {   /* the other half: the stack */
    it->bytes = frontier_alloc(F, &S->pool, sz ? sz : 1, &it->chunk);
    memcpy(it->bytes, f->state.data, it->slen);
    memcpy(it->bytes + it->slen, f->d0.data, it->dlen);
    F->bytes += sz;
  } else {
    it->bytes = NULL;   /* re-executed from the initial state later */
    S->frontier_full = 1;
  }
  if (F->n > S->res->peak_frontier) S->res->peak_frontier = F->n;
}

static void frontier_free(Frontier *F, ChunkPool *P) {
  for (uint64_t i = 0; i < F->n; i++) pn_unref(F->items[i].path);
  for (uint32_t c = 0; c < F->nchunks; c++) pool_put(P, F->chunks[c], F->sizes[c]);
  free(F->chunks);
  free(F->sizes);
  free(F->items);
  memset(F, 0, sizeof *F);
}

/* The explorer's choice at frame f (moves f->i so far), checked: it must be
** enabled and not given before at this state.  0, or -1 (S->failed). */
static int explorer_choice(Ses *S, uint64_t k, uint32_t *out) {
  SFrame *f = &S->fr[k];
  explorer_set_names(S->ex, S->vm);
  if (ex_next(S->ex, &f->d, f->ch.ids, f->ch.n, out) != 0) {
    explorer_failed(S, k, explorer_error(S->ex));
    return -1;
  }
  uint32_t lo = 0, hi = f->ch.n;
  while (lo < hi) {
    uint32_t mid = lo + (hi - lo) / 2;
    if (f->ch.ids[mid] < *out) lo = mid + 1;
    else hi = mid;
  }
  if (f->taken[lo]) {
    /* Reload this state so that machine names are right in the message. */
    VmChoices tmp = {0};
    vm_choices(S->vm, (uint8_t *)f->state.data, f->state.len, &tmp);
    vm_choices_fini(&tmp);
    Buf b;
    buf_init(&b);
    buf_printf(&b, "explorer '%s' is unsound: after %u delay(s) at a state with %u enabled machines it chose '%s' "
               "again; never chosen there:", explorer_name(S->ex), f->i, f->ch.n, vm_machine_text(S->vm, *out));
    for (uint32_t j = 0, c = 0; j < f->ch.n; j++)
      if (!f->taken[j]) buf_printf(&b, "%s '%s'", c++ ? "," : "", vm_machine_text(S->vm, f->ch.ids[j]));
    explorer_failed(S, k, b.data);
    buf_fini(&b);
    return -1;
  }
  f->taken[lo] = 1;
  return 0;
}

static int expand(Ses *S, uint64_t k) {
  SFrame *f = &S->fr[k];
  VmStatus st = vm_choices(S->vm, (uint8_t *)f->state.data, f->state.len, &f->ch);
  f->expanded = 1;
  if (st == VM_BAD_STATE) { fputs("pcheck: internal error: the VM produced a malformed state\n", stderr); return -1; }
  if (st != VM_OK) { record_bug(S, k, NULL); return 1; }
  /* Liveness: hot cycles through this state that no earlier state led to
  ** (searched in the program's state graph, whatever the explorer). */
  if (S->live) {
    /* From the states where a spec turns hot (a frontier entry was looked
    ** at when it was first reached). */
    f->hot = vm_hot_specs(S->vm, (uint8_t *)f->state.data, f->state.len);
    uint64_t turned = f->resume ? 0 : f->hot & ~(k > 0 ? S->fr[k - 1].hot : 0);
    LiveResult lr = turned ? live_check(S->live, (uint8_t *)f->state.data, f->state.len, f->fp, turned, &S->prog,
                                        &S->why)
                           : LIVE_NONE;
    if (lr == LIVE_ERROR) return -1;
    if (lr == LIVE_STOPPED) return 1;
    if (lr == LIVE_FOUND) {
      uint64_t n;
      TraceChoice *t = trace_to(S, k, NULL, &n);
      live_record(S->live, t, n, S->res);
      free(t);
      return 1;
    }
  }
  if (f->ch.kind == VC_MACHINE) {
    if (f->taken_cap < f->ch.n) {
      f->taken = xrealloc(f->taken, f->ch.n);
      f->taken_cap = f->ch.n;
    }
    memset(f->taken, 0, f->ch.n);
  }
  /* A frontier entry: redo the explorer's answers of earlier strata, then
  ** the delay this stratum allows. */
  for (uint32_t j = 0; j < f->resume; j++) {
    if (f->ch.kind == VC_MACHINE) {
      uint32_t c;
      if (explorer_choice(S, k, &c) != 0) return -1;
    }
    if (j + 1 < f->resume && f->ch.kind == VC_MACHINE && ex_delay(S->ex, &f->d) != 0) {
      explorer_failed(S, k, explorer_error(S->ex));
      return -1;
    }
  }
  if (f->resume) {
    if (f->ch.kind == VC_MACHINE && ex_delay(S->ex, &f->d) != 0) {
      explorer_failed(S, k, explorer_error(S->ex));
      return -1;
    }
    f->i = f->resume;
  }
  return 0;
}

/* Depth-first search from the frame on the stack (one frontier entry).
** Returns 0 (done, or a bug recorded), -1 on a failure. */
static int dfs(Ses *S) {
  SearchResult *res = S->res;
  while (S->depth > 0) {
    uint64_t k = S->depth - 1;
    SFrame *f = &S->fr[k];
    if (!f->expanded) {
      int r = expand(S, k);
      if (r < 0) return -1;
      if (r > 0) return 0;   /* bug */
      f = &S->fr[k];
    }
    if (f->done || f->i >= f->ch.n) { pop_frame(S); continue; }
    if ((res->transitions & 1023) == 0) {
      progress_tick(&S->prog, S->o, res, S->next.n, "frontier");
      if (search_should_stop(S->o, &S->prog, &S->why)) return 0;
    }
    uint32_t choice;
    if (f->ch.kind == VC_MACHINE) {
      if (explorer_choice(S, k, &choice) != 0) return -1;
    } else {
      choice = f->i;
    }
    uint32_t index = f->i++;
    S->succ.len = 0;   /* the State vm_choices loaded in expand() is reused when this is its first step */
    VmStatus st = vm_step_expand(S->vm, (uint8_t *)f->state.data, f->state.len, choice, &S->succ);
    res->transitions++;
    TraceChoice tc = { (uint8_t)f->ch.kind, choice };
    if (st != VM_OK) {
      if (st == VM_BAD_STATE) { fputs("pcheck: internal error: the VM rejected its own choice\n", stderr); return -1; }
      record_bug(S, k, &tc);
      return 0;
    }
    uint64_t fp = state_hash(S->succ.data, S->succ.len);
    int explore = 0;
    if (S->o->finished && sc_contains(S->o->finished, fp)) {
      S->skipped++;   /* dfs has searched everything from it */
    } else if (!S->tracking || !ps_has(&S->path, fp)) {
      ScResult ins = sc_insert(S->cache, fp);
      if (ins == SC_FULL) start_tracking(S);
      explore = ins != SC_SEEN;
      if (explore) { res->states++; S->new_states++; }
    }
    if (explore && (S->depth + 1) * (S->succ.len + f->d.len + 2 * sizeof(SFrame)) > S->o->frontier_mem / 2) {
      /* The stack alone would outgrow the memory it may use: stop cleanly. */
      S->why = "the search stack outgrew --frontier-mem";
      return 0;
    }
    if (explore) {
      /* The child: the successor, with the explorer's state after the step. */
      SFrame *c = push_frame(S);
      f = &S->fr[k];
      Buf t = c->state; c->state = S->succ; S->succ = t;
      c->fp = fp;
      c->n = f->n;
      c->in_kind = (uint8_t)f->ch.kind;
      c->in_choice = choice;
      c->in_index = index;
      c->d.len = 0;
      buf_append_fast(&c->d, f->d.data, f->d.len);
      uint32_t nev;
      const VmEvent *ev = vm_events(S->vm, &nev);
      if (ex_step(S->ex, &c->d, ev, nev) != 0) {
        explorer_failed(S, k + 1, explorer_error(S->ex));
        return -1;
      }
      c->d0.len = 0;
      buf_append_fast(&c->d0, c->d.data, c->d.len);
      if (S->tracking) { ps_add(&S->path, fp); c->on_path = 1; }
      uint64_t d = S->depth - 1 + (S->root ? S->root->depth : 0);
      if (d > res->max_depth) res->max_depth = d;
    }
    /* The parent's next move (the child, if any, works on copies): a delay,
    ** or, at the delay bound, the frontier of the next stratum. */
    if (f->i < f->ch.n) {
      if (f->n == S->db) {
        frontier_add(S, k);
        f->done = 1;
      } else {
        if (f->ch.kind == VC_MACHINE && ex_delay(S->ex, &f->d) != 0) {
          explorer_failed(S, k, explorer_error(S->ex));
          return -1;
        }
        f->n++;
      }
    }
  }
  return 0;
}

/* Rebuild a frontier entry held as a path: re-execute its moves from the
** initial state, asking the explorer as the search did. 0 or -1. */
static int reexecute(Ses *S, const FItem *it, SFrame *f) {
  uint64_t n = it->path ? it->path->depth : 0;
  PNode **moves = xcalloc(n ? n : 1, sizeof *moves);
  uint64_t j = n;
  for (PNode *p = it->path; p; p = p->parent) moves[--j] = p;
  int rc = -1;
  VmChoices ch = {0};
  if (vm_initial(S->vm, &f->state) != VM_OK) goto out;
  uint32_t nev;
  const VmEvent *ev = vm_events(S->vm, &nev);
  if (ex_init(S->ex, S->o->seed, ev, nev, &f->d) != 0) goto out;
  for (j = 0; j < n; j++) {
    const PNode *m = moves[j];
    if (vm_choices(S->vm, (uint8_t *)f->state.data, f->state.len, &ch) != VM_OK || ch.kind != m->kind) goto out;
    uint32_t c = m->index;
    if (ch.kind == VC_MACHINE) {
      for (uint32_t r = 0; r <= m->index; r++) {
        if (ex_next(S->ex, &f->d, ch.ids, ch.n, &c) != 0) goto out;
        if (r < m->index && ex_delay(S->ex, &f->d) != 0) goto out;
      }
      if (c != m->choice) goto out;
    }
    if (vm_step(S->vm, (uint8_t *)f->state.data, f->state.len, c, &S->succ) != VM_OK) goto out;
    ev = vm_events(S->vm, &nev);
    if (ex_step(S->ex, &f->d, ev, nev) != 0) goto out;
    Buf t = f->state; f->state = S->succ; S->succ = t;
  }
  rc = 0;
out:
  if (rc != 0) fputs("pcheck: internal error: re-executing a frontier entry did not reach the same state\n", stderr);
  vm_choices_fini(&ch);
  free(moves);
  return rc;
}

static int launch(Ses *S, FItem *it) {
  SFrame *f = push_frame(S);
  f->node = pn_ref(it->path);
  S->root = it->path;
  f->n = S->db;
  f->resume = it->i;
  if (it->bytes) {
    f->state.len = 0;
    buf_append(&f->state, it->bytes, it->slen);
    f->d.len = 0;
    buf_append(&f->d, it->bytes + it->slen, it->dlen);
  } else if (reexecute(S, it, f) != 0) {
    return -1;
  }
  f->d0.len = 0;
  buf_append(&f->d0, f->d.data, f->d.len);
  f->fp = state_hash(f->state.data, f->state.len);
  if (S->o->finished && sc_contains(S->o->finished, f->fp)) {
    /* dfs has searched everything reachable from the entry's state. */
    S->skipped++;
    pop_frame(S);
    return 0;
  }
  if (S->tracking) { ps_add(&S->path, f->fp); f->on_path = 1; }
  int r = dfs(S);
  while (S->depth) pop_frame(S);
  return r;
}

/* SES, then SS (SEARCH.md): once the state cache or the frontier has
** reached its memory budget, ses stops stratifying and samples executions
** from the frontier entries it has not searched, with ss's delay-bounded
** sampling (search_ss.c).  Each entry is a root: a sample replays the
** entry's path, applies the delay the entry waits for, and inserts more
** delays at uniformly chosen points after it. */
typedef struct RootSet {
  PNode **paths;             /* each root's path (owned references; NULL: the initial state) */
  uint32_t *resume;          /* the moves its state already took */
  uint64_t n;
} RootSet;

static uint64_t root_get(const SsRoots *R, uint64_t r, SsMove **moves, uint64_t *cap, uint32_t *resume) {
  const RootSet *rs = R->ctx;
  const PNode *p = rs->paths[r];
  uint64_t n = p ? p->depth : 0;
  if (n > *cap) {
    *cap = n;
    *moves = xrealloc(*moves, n * sizeof **moves);
  }
  for (uint64_t j = n; p; p = p->parent) {
    j--;
    (*moves)[j].kind = p->kind;
    (*moves)[j].choice = p->choice;
    (*moves)[j].index = p->index;
  }
  *resume = rs->resume[r];
  return n;
}

static void roots_add(RootSet *rs, const Frontier *F, uint64_t from) {
  rs->paths = xrealloc(rs->paths, (rs->n + F->n - from + 1) * sizeof *rs->paths);
  rs->resume = xrealloc(rs->resume, (rs->n + F->n - from + 1) * sizeof *rs->resume);
  for (uint64_t i = from; i < F->n; i++) {
    rs->paths[rs->n] = pn_ref(F->items[i].path);
    rs->resume[rs->n++] = F->items[i].i;
  }
}

/* Should ses turn to sampling now (between frontier entries)? */
static int memory_short(const Ses *S) {
  return !S->o->no_sampling && (S->frontier_full || sc_is_full(S->cache));
}

/* Sample from the entries of work not yet searched (from index `from`)
** and those of the next frontier (stratum_done: every entry of work was
** searched, so stratum S->db is complete); frees the frontiers and the
** cache.
** Returns 0, or -1 on an internal error. */
static int sample_frontier(Ses *S, Frontier *work, uint64_t from, int stratum_done, FILE *logf) {
  SearchResult *res = S->res, sub = {0};
  RootSet rs = {0};
  roots_add(&rs, work, from);
  /* The next frontier is searched only within --max-delays. */
  if (S->o->max_delays < 0 || S->db < (uint64_t)S->o->max_delays) roots_add(&rs, &S->next, 0);
  long long proved = (long long)S->db - (stratum_done ? 0 : 1);   /* strata 0..proved were searched in full */
  progress_done(&S->prog, S->o);
  fprintf(logf, "ses: the %s reached its budget at delay bound %llu after %llu distinct states: sampling from %llu "
          "frontier states (SES then SS)\n", sc_is_full(S->cache) ? "state cache" : "frontier",
          (unsigned long long)S->db, (unsigned long long)res->states, (unsigned long long)rs.n);
  fflush(logf);
  res->cache_bytes = sc_bytes(S->cache);
  res->cache_refused = sc_refused(S->cache);
  res->cache_full = sc_is_full(S->cache);
  frontier_free(work, &S->pool);
  frontier_free(&S->next, &S->pool);
  pool_fini(&S->pool);
  sc_free(S->cache);
  S->cache = NULL;
  S->sampled = 1;
  int rc = 0;
  if (rs.n) {
    SsRoots R = { rs.n, S->db, &rs, root_get };
    rc = ss_sample(S->bc, S->test, S->o, logf, &R, S->prog.start, &sub);
  }
  res->executions = sub.executions;
  res->transitions += sub.transitions;
  if (sub.max_depth > res->max_depth) res->max_depth = sub.max_depth;
  if (rc == 0 && (sub.bug || sub.error)) {
    res->bug = sub.bug;
    res->bugdesc = sub.bugdesc;
    sub.bugdesc.message = NULL;
    res->error = sub.error;
    sub.error = NULL;
    res->trace = sub.trace;
    res->ntrace = sub.ntrace;
    sub.trace = NULL;
    res->cycle_start = -1;
    res->delays = sub.delays;
  } else if (rc == 0) {
    Buf b;
    buf_init(&b);
    if (proved >= 0) buf_printf(&b, "proved up to delay bound %lld (%llu states), then ", proved,
                                (unsigned long long)res->states);
    buf_printf(&b, "%s", rs.n ? sub.bound : "no frontier state to sample from");
    S->sample_bound = buf_take(&b);
    res->delays = sub.delays;
  }
  search_result_fini(&sub);
  for (uint64_t i = 0; i < rs.n; i++) pn_unref(rs.paths[i]);
  free(rs.paths);
  free(rs.resume);
  return rc;
}

static int run_ses(const BcProgram *bc, const VmTest *test, const SearchOptions *o, FILE *logf, SearchResult *res) {
  Ses s = {0}, *S = &s;
  S->bc = bc;
  S->test = test;
  S->o = o;
  S->pool.size = o->frontier_mem / 64 < CHUNK_BYTES ? (size_t)(o->frontier_mem / 64) : CHUNK_BYTES;
  if (S->pool.size < 4096) S->pool.size = 4096;
  S->res = res;
  int rc = -1;
  Buf err;
  buf_init(&err);
  buf_init(&S->succ);
  progress_init(&S->prog);
  S->vm = vm_new(bc, test);
  vm_record_events(S->vm, 1);
  S->ex = explorer_new(bc, test, o->explorer, (ExNative)o->explorer_native, o->explorer_twin_check, &err);
  if (!S->ex) { fprintf(stderr, "pcheck: error: %s\n", err.data); goto out; }
  S->cache = sc_new(o->cache_kind, o->mem);
  if (!S->cache) { fputs("pcheck: error: cannot allocate the state cache\n", stderr); goto out; }
  sc_set_single_thread(S->cache, 1);
  S->live = live_new(bc, test, o);   /* NULL: no spec has hot states */
  /* Stratum 0 starts from the initial state. */
  SFrame *f = push_frame(S);
  if (vm_initial(S->vm, &f->state) != VM_OK) {
    search_record_bug(res, S->vm, NULL, 0);
    S->depth = 0;
    rc = 0;
    goto out;
  }
  uint32_t nev;
  const VmEvent *ev = vm_events(S->vm, &nev);
  if (ex_init(S->ex, o->seed, ev, nev, &f->d) != 0) {
    res->error = xstrdup(explorer_error(S->ex));
    S->depth = 0;
    rc = 0;
    goto out;
  }
  f->d0.len = 0;
  buf_append(&f->d0, f->d.data, f->d.len);
  f->fp = state_hash(f->state.data, f->state.len);
  f->n = 0;
  sc_insert(S->cache, f->fp);
  res->states = 1;
  S->new_states = 1;
  double t0 = search_now();
  S->prog.bound = 0;
  int r = dfs(S);
  while (S->depth) pop_frame(S);
  for (;;) {
    if (r < 0 || S->failed) { rc = S->failed ? 0 : -1; goto out; }
    if (res->bug || S->why) break;
    progress_done(&S->prog, o);
    fprintf(logf, "ses: delay bound %llu: %llu new states, frontier %llu, %.2f s\n", (unsigned long long)S->db,
            (unsigned long long)S->new_states, (unsigned long long)S->next.n, search_now() - t0);
    fflush(logf);
    res->delays = S->db;
    if (S->next.n == 0) {
      if (S->skipped) {
        /* Every state is one ses searched or one dfs finished: count the union. */
        uint64_t more = sc_count_absent(S->o->finished, S->cache);
        fprintf(logf, "ses: %llu states skipped, finished by dfs: %llu states in all\n",
                (unsigned long long)S->skipped, (unsigned long long)(res->states + more));
        res->states += more;
      }
      if (!live_incomplete(S->live)) res->complete = 1;
      else S->why = live_incomplete(S->live);   /* every state searched, not every hot cycle */
      break;
    }
    if (o->max_delays >= 0 && S->db >= (uint64_t)o->max_delays) break;
    if (memory_short(S)) {
      Frontier none = {0};
      if (sample_frontier(S, &none, 0, 1, logf) != 0) goto out;
      break;
    }
    Frontier work = S->next;
    memset(&S->next, 0, sizeof S->next);
    S->db++;
    S->prog.bound = (long long)S->db;
    S->new_states = 0;
    t0 = search_now();
    for (uint64_t i = 0; i < work.n && r == 0 && !res->bug && !S->why && !S->failed; i++) {
      if (memory_short(S)) {
        /* The entries already searched gave their chunks back (below);
        ** the rest become roots. */
        if (sample_frontier(S, &work, i, 0, logf) != 0) goto out;
        break;
      }
      FItem *it = &work.items[i];
      r = launch(S, it);
      /* A chunk whose entries are all done goes back (entries with bytes
      ** fill the chunks in order; path-only entries hold none). */
      if (it->bytes) {
        uint32_t c = it->chunk;
        uint64_t j = i + 1;
        while (j < work.n && !work.items[j].bytes) j++;
        if (j == work.n || work.items[j].chunk != c) {
          pool_put(&S->pool, work.chunks[c], work.sizes[c]);
          work.chunks[c] = NULL;
        }
      }
      it->bytes = NULL;
      pn_unref(it->path);
      it->path = NULL;
    }
    S->root = NULL;
    frontier_free(&work, &S->pool);
    if (S->sampled) break;
  }
  if (!S->sampled) res->delays = S->db;
  res->skipped = S->skipped;
  if (S->sampled && !res->bug && !res->error) {
    res->bound = S->sample_bound;
    S->sample_bound = NULL;
  } else if (!res->bug && !res->complete) {
    Buf b;
    buf_init(&b);
    if (S->why) buf_printf(&b, "%s at delay bound %llu", S->why, (unsigned long long)S->db);
    else buf_printf(&b, "delay bound %llu reached, %llu frontier states left", (unsigned long long)S->db,
                    (unsigned long long)S->next.n);
    res->bound = buf_take(&b);
  }
  if (res->bug && !S->sampled)
    fprintf(logf, "ses: bug found at delay bound %llu after %llu distinct states\n", (unsigned long long)S->db,
            (unsigned long long)res->states);
  rc = 0;
out:
  progress_done(&S->prog, o);
  res->seconds = search_now() - S->prog.start;
  if (S->cache) {
    res->cache_bytes = sc_bytes(S->cache);
    res->cache_refused = sc_refused(S->cache);
    res->cache_full = sc_is_full(S->cache);
  }
  while (S->depth) pop_frame(S);
  for (uint64_t k = 0; k < S->cap; k++) frame_fini(&S->fr[k]);
  free(S->fr);
  frontier_free(&S->next, &S->pool);
  pool_fini(&S->pool);
  free(S->sample_bound);
  ps_fini(&S->path);
  sc_free(S->cache);
  live_free(S->live);
  explorer_free(S->ex);
  vm_free(S->vm);
  buf_fini(&S->succ);
  buf_fini(&err);
  return rc;
}

const SearchOps search_ses = { "ses", run_ses };
