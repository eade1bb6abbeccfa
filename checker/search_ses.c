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
** the explorer.
**
** With -j N, the N threads share the state cache and take the entries of
** a stratum's frontier one at a time; each has its own explorer, stack and
** part of the next frontier, and all meet at the end of the stratum.  A
** complete search visits every reachable state once and takes every move
** of each once, so it counts exactly the states and transitions of one
** thread; which stratum first reaches a state may depend on timing (the
** per-stratum figures then differ from one thread's). */
#include <config.h>
#include "checker/search.h"
#include "checker/explorer.h"
#include "checker/liveness.h"
#include "checker/pathset.h"
#include "checker/workers.h"
#include <pthread.h>
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

/* References are counted atomically: with -j N, threads share paths. */
static PNode *pn_ref(PNode *p) {
  if (p) __atomic_add_fetch(&p->refs, 1, __ATOMIC_RELAXED);
  return p;
}

static void pn_unref(PNode *p) {
  while (p && __atomic_sub_fetch(&p->refs, 1, __ATOMIC_ACQ_REL) == 0) {
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
  uint64_t fp;               /* the state's fingerprint */
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

static void chunk_put(ChunkPool *P, uint8_t *c, size_t size) {
  if (!c) return;
  if (size != P->size || P->n == 64) { free(c); return; }
  if (P->n == P->cap) {
    P->cap = P->cap ? P->cap * 2 : 8;
    P->free = xrealloc(P->free, P->cap * sizeof *P->free);
  }
  P->free[P->n++] = c;
}

static void chunk_pool_fini(ChunkPool *P) {
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

/* What the threads share.  Between strata only thread 0 runs; during a
** stratum the fields marked (lock) are written under lock, those marked
** (atomic) with atomics, and the rest are only read. */
typedef struct SesShared {
  const BcProgram *bc;
  const VmTest *test;
  const SearchOptions *o;
  int nthreads;
  SearchResult *res;         /* counts between strata; the bug or explorer failure (lock) */
  StateCache *cache;
  Liveness *live;            /* hot cycles, if a spec has hot states (used under lock with -j N) */
  pthread_mutex_t lock;
  pthread_barrier_t meet;    /* the end and the start of a stratum (-j N) */
  Progress prog;             /* the clock; the progress line is printed by thread 0 */
  uint64_t db;               /* the delay bound of this stratum */
  const char *why;           /* why the search stopped early, or NULL (lock) */
  int failed;                /* res->error set: the explorer failed (lock) */
  int internal;              /* an internal error, reported (lock) */
  int stop;                  /* end the stratum now (atomic) */
  int done;                  /* no more strata (thread 0) */
  /* The stratum's entries: the parts of the frontier the threads made in
  ** the stratum before, as one sequence. */
  Frontier *work;            /* nthreads parts */
  uint64_t *wstart;          /* prefix sums of the parts' sizes (nthreads + 1) */
  uint64_t taken;            /* entries handed out (atomic) */
  uint32_t **chunk_left;     /* per part and chunk: entries with bytes not yet searched (atomic) */
  int short_mem;             /* memory ran short: stop handing out entries, sample (atomic) */
  int frontier_full;         /* an entry had to be kept as a path (atomic) */
  int sampled;               /* the search turned to sampling (SES then SS) */
  char *sample_bound;        /* how far the sampling got (heap), when it ended without a bug */
  uint64_t skipped;          /* successors and frontier entries skipped: dfs had finished them */
  uint64_t states_all;       /* states, as last reported by the threads (atomic; progress) */
  double t0;                 /* when the stratum started */
} SesShared;

/* One thread's search. */
typedef struct Ses {
  SesShared *sh;
  int id;
  const SearchOptions *o;
  Vm *vm;
  Explorer *ex;
  PathSet path;
  int tracking;              /* the cache forgets: keep the stack's fingerprints */
  SFrame *fr;
  uint64_t depth, cap;
  PNode *root;               /* path of the frontier entry being searched */
  Frontier next;             /* this thread's part of the next stratum's frontier */
  SearchResult own;          /* this thread's counts, with -j N (folded into sh->res between strata) */
  SearchResult *r;           /* where it counts: sh->res on one thread (a portfolio member's work is
                                read there as it goes), else &own */
  uint64_t new_states;       /* in this stratum */
  uint64_t skipped;
  uint64_t reported;         /* states added to sh->states_all */
  Buf succ;
  Buf kid_d;                 /* the explorer state of the successor being looked at */
  ChunkPool pool;            /* frontier chunks for reuse */
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

static void stop_stratum(SesShared *sh) { __atomic_store_n(&sh->stop, 1, __ATOMIC_RELAXED); }

/* The first bug or failure recorded stays (lock held). */
static int outcome_taken(const SesShared *sh) { return sh->res->bug || sh->res->error || sh->internal; }

static void record_bug(Ses *S, uint64_t k, const TraceChoice *extra) {
  SesShared *sh = S->sh;
  uint64_t n;
  TraceChoice *t = trace_to(S, k, extra, &n);
  pthread_mutex_lock(&sh->lock);
  if (!outcome_taken(sh)) search_record_bug(sh->res, S->vm, t, n);
  pthread_mutex_unlock(&sh->lock);
  free(t);
  stop_stratum(sh);
}

/* Stop with a failure of the explorer (not a bug of the model). */
static void explorer_failed(Ses *S, uint64_t k, const char *msg) {
  SesShared *sh = S->sh;
  pthread_mutex_lock(&sh->lock);
  if (!outcome_taken(sh)) {
    SearchResult *r = sh->res;
    r->error = xstrdup(msg);
    free(r->trace);
    r->trace = trace_to(S, k, NULL, &r->ntrace);
    sh->failed = 1;
  }
  pthread_mutex_unlock(&sh->lock);
  stop_stratum(sh);
}

/* An internal error (msg, if any, is printed once). */
static void internal_error(SesShared *sh, const char *msg) {
  pthread_mutex_lock(&sh->lock);
  if (!sh->internal && msg) fputs(msg, stderr);
  sh->internal = 1;
  pthread_mutex_unlock(&sh->lock);
  stop_stratum(sh);
}

static void set_why(SesShared *sh, const char *why) {
  pthread_mutex_lock(&sh->lock);
  if (!sh->why) sh->why = why;
  pthread_mutex_unlock(&sh->lock);
  stop_stratum(sh);
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

/* Add an entry to frontier F: the state (s, slen, fingerprint fp) with
** explorer bytes (d, dlen), reached by path (a new reference is taken), i
** moves taken.  Its
** bytes are kept if the frontier stays within budget bytes, else only its
** path (it is re-executed from the initial state later); returns 0 then. */
static int frontier_push(Frontier *F, ChunkPool *P, PNode *path, uint32_t i, uint64_t fp, const void *s,
                         uint32_t slen, const void *d, uint32_t dlen, uint64_t budget) {
  if (F->n == F->cap) {
    F->cap = F->cap ? F->cap * 2 : 1024;
    F->items = xrealloc(F->items, F->cap * sizeof *F->items);
  }
  FItem *it = &F->items[F->n++];
  it->path = pn_ref(path);
  it->i = i;
  it->fp = fp;
  it->slen = slen;
  it->dlen = dlen;
  uint64_t sz = (uint64_t)slen + dlen;
  if (F->bytes + sz + F->cap * sizeof(FItem) > budget) {
    it->bytes = NULL;
    return 0;
  }
  it->bytes = frontier_alloc(F, P, sz ? sz : 1, &it->chunk);
  memcpy(it->bytes, s, slen);
  memcpy(it->bytes + slen, d, dlen);
  F->bytes += sz;
  return 1;
}

/* Add frame k's state to this thread's part of the next frontier (it has
** taken f->i moves).  The frontier may take half of --frontier-mem (the
** other half: the stack), shared among the threads. */
static void frontier_add(Ses *S, uint64_t k) {
  SFrame *f = &S->fr[k];
  uint64_t budget = S->o->frontier_mem / 2 / (uint64_t)S->sh->nthreads;
  if (!frontier_push(&S->next, &S->pool, frame_node(S, k), f->i, f->fp, f->state.data, (uint32_t)f->state.len,
                     f->d0.data, (uint32_t)f->d0.len, budget))
    __atomic_store_n(&S->sh->frontier_full, 1, __ATOMIC_RELAXED);
}

static void frontier_free(Frontier *F, ChunkPool *P) {
  for (uint64_t i = 0; i < F->n; i++) pn_unref(F->items[i].path);
  for (uint32_t c = 0; c < F->nchunks; c++) chunk_put(P, F->chunks[c], F->sizes[c]);
  free(F->chunks);
  free(F->sizes);
  free(F->items);
  memset(F, 0, sizeof *F);
}

/* The explorer's choice at frame f (moves f->i so far), checked: it must be
** enabled and not given before at this state.  0, or -1 (it failed). */
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

/* Liveness at frame k: hot cycles through its state that no earlier state
** led to (searched in the program's state graph, whatever the explorer),
** from the states where a spec turns hot (a frontier entry was looked at
** when it was first reached).  0 to go on, 1 to stop (a bug, a stop, an
** error: recorded). */
static int check_hot(Ses *S, uint64_t k) {
  SesShared *sh = S->sh;
  SFrame *f = &S->fr[k];
  f->hot = vm_hot_specs(S->vm, (uint8_t *)f->state.data, f->state.len);
  uint64_t turned = f->resume ? 0 : f->hot & ~(k > 0 ? S->fr[k - 1].hot : 0);
  if (!turned) return 0;
  const char *why = NULL;
  int locked = sh->nthreads > 1;
  if (locked) pthread_mutex_lock(&sh->lock);
  LiveResult lr = live_check(sh->live, (uint8_t *)f->state.data, f->state.len, f->fp, turned, &sh->prog, &why);
  if (lr == LIVE_FOUND && !outcome_taken(sh)) {
    uint64_t n;
    TraceChoice *t = trace_to(S, k, NULL, &n);
    live_record(sh->live, t, n, sh->res);
    free(t);
  }
  if (locked) pthread_mutex_unlock(&sh->lock);
  if (lr == LIVE_NONE) return 0;
  if (lr == LIVE_ERROR) internal_error(sh, NULL);
  else if (lr == LIVE_STOPPED) set_why(sh, why);
  else stop_stratum(sh);
  return 1;
}

/* Frame k is entered: its choices, liveness, and the explorer's answers
** of earlier strata redone.  0 to go on, 1 to stop (recorded). */
static int expand(Ses *S, uint64_t k) {
  SFrame *f = &S->fr[k];
  VmStatus st = vm_choices(S->vm, (uint8_t *)f->state.data, f->state.len, &f->ch);
  f->expanded = 1;
  if (st == VM_BAD_STATE) {
    internal_error(S->sh, "pcheck: internal error: the VM produced a malformed state\n");
    return 1;
  }
  if (st != VM_OK) { record_bug(S, k, NULL); return 1; }
  if (S->sh->live && check_hot(S, k)) return 1;
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
      if (explorer_choice(S, k, &c) != 0) return 1;
    }
    if (j + 1 < f->resume && f->ch.kind == VC_MACHINE && ex_delay(S->ex, &f->d) != 0) {
      explorer_failed(S, k, explorer_error(S->ex));
      return 1;
    }
  }
  if (f->resume) {
    if (f->ch.kind == VC_MACHINE && ex_delay(S->ex, &f->d) != 0) {
      explorer_failed(S, k, explorer_error(S->ex));
      return 1;
    }
    f->i = f->resume;
  }
  return 0;
}

/* Every 1024 transitions: stop requests and the progress line.  1 to stop. */
static int periodic(Ses *S) {
  SesShared *sh = S->sh;
  const char *why = NULL;
  if (__atomic_load_n(&sh->stop, __ATOMIC_RELAXED)) return 1;
  __atomic_add_fetch(&sh->states_all, S->r->states - S->reported, __ATOMIC_RELAXED);
  S->reported = S->r->states;
  if (sh->nthreads == 1) {
    progress_tick(&sh->prog, S->o, sh->res, S->next.n, "frontier");
  } else if (S->id == 0) {
    SearchResult all = {0};
    all.states = sh->res->states + __atomic_load_n(&sh->states_all, __ATOMIC_RELAXED);
    all.max_depth = S->r->max_depth > sh->res->max_depth ? S->r->max_depth : sh->res->max_depth;
    progress_tick(&sh->prog, S->o, &all, S->next.n, "frontier");
  }
  if (search_should_stop(S->o, &sh->prog, &why)) { set_why(sh, why); return 1; }
  return 0;
}

/* The child of frame k by the step just taken (successor in S->succ,
** fingerprint fp, n delays used), with the explorer's state after the
** step: S->kid_d (the parent's before the step; taken).  0, or 1 if the
** explorer failed. */
static int push_child(Ses *S, uint64_t k, uint64_t fp, uint64_t n, TraceChoice in, uint32_t index) {
  SFrame *c = push_frame(S);
  Buf t = c->state; c->state = S->succ; S->succ = t;
  c->fp = fp;
  c->n = n;
  c->in_kind = in.kind;
  c->in_choice = in.value;
  c->in_index = index;
  t = c->d; c->d = S->kid_d; S->kid_d = t;
  uint32_t nev;
  const VmEvent *ev = vm_events(S->vm, &nev);
  if (ex_step(S->ex, &c->d, ev, nev) != 0) {
    explorer_failed(S, k + 1, explorer_error(S->ex));
    return 1;
  }
  c->d0.len = 0;
  buf_append_fast(&c->d0, c->d.data, c->d.len);
  if (S->tracking) { ps_add(&S->path, fp); c->on_path = 1; }
  uint64_t d = S->depth - 1 + (S->root ? S->root->depth : 0);
  if (d > S->r->max_depth) S->r->max_depth = d;
  return 0;
}

/* Is the successor (fingerprint fp) new, to be explored?  Counts it.
** (A prefetch of its cache slot was issued when fp was known.) */
static int is_new(Ses *S, uint64_t fp) {
  if (S->o->finished && sc_contains(S->o->finished, fp)) {
    S->skipped++;   /* dfs has searched everything from it */
    return 0;
  }
  if (S->tracking && ps_has(&S->path, fp)) return 0;
  ScResult ins = sc_insert(S->sh->cache, fp);
  if (ins == SC_FULL) start_tracking(S);
  if (ins == SC_SEEN) return 0;
  S->r->states++;
  S->new_states++;
  return 1;
}

/* Depth-first search from the frame on the stack (one frontier entry),
** until the stack is empty or the stratum stops. */
static void dfs(Ses *S) {
  SesShared *sh = S->sh;
  while (S->depth > 0) {
    uint64_t k = S->depth - 1;
    SFrame *f = &S->fr[k];
    if (!f->expanded) {
      if (expand(S, k)) return;
      f = &S->fr[k];
    }
    if (f->done || f->i >= f->ch.n) { pop_frame(S); continue; }
    if ((S->r->transitions & 1023) == 0 && periodic(S)) return;
    uint32_t choice;
    if (f->ch.kind == VC_MACHINE) {
      if (explorer_choice(S, k, &choice) != 0) return;
    } else {
      choice = f->i;
    }
    uint32_t index = f->i++;
    S->succ.len = 0;   /* the State vm_choices loaded in expand() is reused when this is its first step */
    VmStatus st = vm_step_expand(S->vm, (uint8_t *)f->state.data, f->state.len, choice, &S->succ);
    S->r->transitions++;
    TraceChoice tc = { (uint8_t)f->ch.kind, choice };
    if (st != VM_OK) {
      if (st == VM_BAD_STATE) internal_error(sh, "pcheck: internal error: the VM rejected its own choice\n");
      else record_bug(S, k, &tc);
      return;
    }
    uint64_t fp = state_hash(S->succ.data, S->succ.len);
    /* The cache slot is fetched while the parent's next move is made,
    ** which does not depend on whether the successor is new; the child's
    ** explorer state is the parent's before that move. */
    sc_prefetch(sh->cache, fp);
    S->kid_d.len = 0;
    buf_append_fast(&S->kid_d, f->d.data, f->d.len);
    uint64_t kid_n = f->n;
    /* The parent's next move: a delay, or, at the delay bound, the
    ** frontier of the next stratum. */
    if (f->i < f->ch.n) {
      if (f->n == sh->db) {
        frontier_add(S, k);
        f->done = 1;
      } else {
        if (f->ch.kind == VC_MACHINE && ex_delay(S->ex, &f->d) != 0) {
          explorer_failed(S, k, explorer_error(S->ex));
          return;
        }
        f->n++;
      }
    }
    if (!is_new(S, fp)) continue;
    if ((S->depth + 1) * (S->succ.len + S->kid_d.len + 2 * sizeof(SFrame)) >
        S->o->frontier_mem / 2 / (uint64_t)sh->nthreads) {
      /* The stack alone would outgrow the memory it may use: stop cleanly. */
      set_why(sh, "the search stack outgrew --frontier-mem");
      return;
    }
    if (push_child(S, k, fp, kid_n, tc, index)) return;
  }
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
  if (rc != 0) internal_error(S->sh, "pcheck: internal error: re-executing a frontier entry did not reach the same state\n");
  vm_choices_fini(&ch);
  free(moves);
  return rc;
}

/* Search from frontier entry it. */
static void launch(Ses *S, FItem *it) {
  SesShared *sh = S->sh;
  SFrame *f = push_frame(S);
  f->node = pn_ref(it->path);
  S->root = it->path;
  f->n = sh->db;
  f->resume = it->i;
  if (it->bytes) {
    f->state.len = 0;
    buf_append(&f->state, it->bytes, it->slen);
    f->d.len = 0;
    buf_append(&f->d, it->bytes + it->slen, it->dlen);
  } else if (reexecute(S, it, f) != 0) {
    pop_frame(S);
    return;
  }
  f->d0.len = 0;
  buf_append(&f->d0, f->d.data, f->d.len);
  f->fp = it->fp;
  if (S->o->finished && sc_contains(S->o->finished, f->fp)) {
    /* dfs has searched everything reachable from the entry's state. */
    S->skipped++;
    pop_frame(S);
    return;
  }
  if (S->tracking) { ps_add(&S->path, f->fp); f->on_path = 1; }
  dfs(S);
  while (S->depth) pop_frame(S);
  S->root = NULL;
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

/* The entries of F from index `from` on become roots. */
static void roots_add(RootSet *rs, const Frontier *F, uint64_t from) {
  if (from >= F->n) return;
  rs->paths = xrealloc(rs->paths, (rs->n + F->n - from + 1) * sizeof *rs->paths);
  rs->resume = xrealloc(rs->resume, (rs->n + F->n - from + 1) * sizeof *rs->resume);
  for (uint64_t i = from; i < F->n; i++) {
    rs->paths[rs->n] = pn_ref(F->items[i].path);
    rs->resume[rs->n++] = F->items[i].i;
  }
}

/* Should ses turn to sampling now (between frontier entries)? */
static int memory_short(SesShared *sh) {
  return !sh->o->no_sampling && (__atomic_load_n(&sh->frontier_full, __ATOMIC_RELAXED) || sc_is_full(sh->cache));
}

/* Free every part of the stratum's entries (thread 0, between strata). */
static void work_free(SesShared *sh, ChunkPool *P) {
  for (int t = 0; t < sh->nthreads; t++) {
    frontier_free(&sh->work[t], P);
    free(sh->chunk_left[t]);
    sh->chunk_left[t] = NULL;
  }
}

/* Sample from the stratum's entries not yet searched (from index `from`
** of the sequence) and those of the next frontier (stratum_done: every
** entry was searched, so stratum db is complete); frees the frontiers and
** the cache.  Thread 0, between strata.  Returns 0, or -1 on an internal
** error. */
static int sample_frontier(SesShared *sh, Ses *ws, uint64_t from, int stratum_done, FILE *logf) {
  SearchResult *res = sh->res, sub = {0};
  RootSet rs = {0};
  for (int t = 0; t < sh->nthreads; t++)
    roots_add(&rs, &sh->work[t], from > sh->wstart[t] ? from - sh->wstart[t] : 0);
  /* The next frontier is searched only within --max-delays. */
  if (sh->o->max_delays < 0 || sh->db < (uint64_t)sh->o->max_delays)
    for (int t = 0; t < sh->nthreads; t++) roots_add(&rs, &ws[t].next, 0);
  long long proved = (long long)sh->db - (stratum_done ? 0 : 1);   /* strata 0..proved were searched in full */
  progress_done(&sh->prog, sh->o);
  fprintf(logf, "ses: the %s reached its budget at delay bound %llu after %llu distinct states: sampling from %llu "
          "frontier states (SES then SS)\n", sc_is_full(sh->cache) ? "state cache" : "frontier",
          (unsigned long long)sh->db, (unsigned long long)res->states, (unsigned long long)rs.n);
  fflush(logf);
  res->cache_bytes = sc_bytes(sh->cache);
  res->cache_refused = sc_refused(sh->cache);
  res->cache_full = sc_is_full(sh->cache);
  work_free(sh, &ws[0].pool);
  for (int t = 0; t < sh->nthreads; t++) {
    frontier_free(&ws[t].next, &ws[t].pool);
    chunk_pool_fini(&ws[t].pool);
  }
  sc_free(sh->cache);
  sh->cache = NULL;
  sh->sampled = 1;
  int rc = 0;
  if (rs.n) {
    SsRoots R = { rs.n, sh->db, &rs, root_get };
    rc = ss_sample(sh->bc, sh->test, sh->o, logf, &R, sh->prog.start, &sub);
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
    sh->sample_bound = buf_take(&b);
    res->delays = sub.delays;
  }
  search_result_fini(&sub);
  for (uint64_t i = 0; i < rs.n; i++) pn_unref(rs.paths[i]);
  free(rs.paths);
  free(rs.resume);
  return rc;
}

/* ---- Strata ---- */

/* Entry q of the stratum's sequence: its part and index there. */
static FItem *entry_at(SesShared *sh, uint64_t q, int *part, uint64_t *idx) {
  int t = 0;
  while (sh->wstart[t + 1] <= q) t++;
  *part = t;
  *idx = q - sh->wstart[t];
  return &sh->work[t].items[*idx];
}

/* Search the stratum's entries, taking them one at a time, until none is
** left, the stratum stops, or memory runs short (then the entries not
** taken are sampled: SES then SS). */
static void run_stratum(Ses *S) {
  SesShared *sh = S->sh;
  uint64_t total = sh->wstart[sh->nthreads];
  for (;;) {
    if (__atomic_load_n(&sh->stop, __ATOMIC_RELAXED) || __atomic_load_n(&sh->short_mem, __ATOMIC_RELAXED)) return;
    if (sh->db > 0 && memory_short(sh)) {
      /* The entries already searched gave their chunks back (below); the
      ** rest become roots. */
      __atomic_store_n(&sh->short_mem, 1, __ATOMIC_RELAXED);
      return;
    }
    uint64_t q = __atomic_fetch_add(&sh->taken, 1, __ATOMIC_RELAXED);
    if (q >= total) return;
    int part;
    uint64_t idx;
    FItem *it = entry_at(sh, q, &part, &idx);
    launch(S, it);
    /* A chunk whose entries are all searched goes back (path-only entries
    ** hold none). */
    if (it->bytes) {
      uint32_t c = it->chunk;
      if (__atomic_sub_fetch(&sh->chunk_left[part][c], 1, __ATOMIC_ACQ_REL) == 0) {
        Frontier *W = &sh->work[part];
        chunk_put(&S->pool, W->chunks[c], W->sizes[c]);
        W->chunks[c] = NULL;
      }
    }
    it->bytes = NULL;
    pn_unref(it->path);
    it->path = NULL;
  }
}

/* The threads' parts of the next frontier become the stratum's entries
** (the old entries are freed first). */
static void next_becomes_work(SesShared *sh, Ses *ws) {
  work_free(sh, &ws[0].pool);
  sh->wstart[0] = 0;
  for (int t = 0; t < sh->nthreads; t++) {
    Frontier *F = &sh->work[t];
    *F = ws[t].next;
    memset(&ws[t].next, 0, sizeof ws[t].next);
    sh->wstart[t + 1] = sh->wstart[t] + F->n;
    sh->chunk_left[t] = xcalloc(F->nchunks ? F->nchunks : 1, sizeof(uint32_t));
    for (uint64_t i = 0; i < F->n; i++)
      if (F->items[i].bytes) sh->chunk_left[t][F->items[i].chunk]++;
  }
  sh->taken = 0;
}

/* Fold each thread's counts into the result. */
static void fold_counts(SesShared *sh, Ses *ws) {
  SearchResult *res = sh->res;
  for (int t = 0; t < sh->nthreads; t++) {
    Ses *S = &ws[t];
    sh->skipped += S->skipped;
    S->skipped = 0;
    if (S->r == res) continue;   /* one thread: it counted in res */
    search_fold_counts(res, S->r);
    S->reported = 0;
  }
  sh->states_all = 0;
}

/* Between strata (thread 0; the others wait): report the stratum, then
** decide: the next stratum, sampling, or the end.  Sets sh->done when
** there is no next stratum; -1 on an internal error. */
static int between_strata(SesShared *sh, Ses *ws, FILE *logf) {
  SearchResult *res = sh->res;
  const SearchOptions *o = sh->o;
  uint64_t next_n = 0, new_states = 0;
  fold_counts(sh, ws);
  for (int t = 0; t < sh->nthreads; t++) {
    next_n += ws[t].next.n;
    new_states += ws[t].new_states;
    ws[t].new_states = 0;
  }
  if (next_n > res->peak_frontier) res->peak_frontier = next_n;
  sh->done = 1;
  if (sh->internal) return -1;
  if (sh->failed || res->bug || sh->why) return 0;
  if (sh->short_mem) {
    /* Memory ran short within the stratum: the entries not taken, and the
    ** next frontier, are sampled. */
    uint64_t taken = sh->taken < sh->wstart[sh->nthreads] ? sh->taken : sh->wstart[sh->nthreads];
    return sample_frontier(sh, ws, taken, 0, logf);
  }
  progress_done(&sh->prog, o);
  fprintf(logf, "ses: delay bound %llu: %llu new states, frontier %llu, %.2f s\n", (unsigned long long)sh->db,
          (unsigned long long)new_states, (unsigned long long)next_n, search_now() - sh->t0);
  fflush(logf);
  res->delays = sh->db;
  if (next_n == 0) {
    if (sh->skipped) {
      /* Every state is one ses searched or one dfs finished: count the union. */
      uint64_t more = sc_count_absent(o->finished, sh->cache);
      fprintf(logf, "ses: %llu states skipped, finished by dfs: %llu states in all\n",
              (unsigned long long)sh->skipped, (unsigned long long)(res->states + more));
      res->states += more;
    }
    if (!live_incomplete(sh->live)) res->complete = 1;
    else sh->why = live_incomplete(sh->live);   /* every state searched, not every hot cycle */
    return 0;
  }
  if (o->max_delays >= 0 && sh->db >= (uint64_t)o->max_delays) return 0;
  if (memory_short(sh)) return sample_frontier(sh, ws, sh->wstart[sh->nthreads], 1, logf);   /* none left here */
  next_becomes_work(sh, ws);
  sh->db++;
  sh->prog.bound = (long long)sh->db;
  sh->t0 = search_now();
  sh->done = 0;
  return 0;
}

typedef struct SesThread {
  Ses *S;
  Ses *all;
  FILE *logf;
  int rc;                    /* thread 0: -1 on an internal error between strata */
} SesThread;

static void ses_thread(void *arg) {
  SesThread *T = arg;
  Ses *S = T->S;
  SesShared *sh = S->sh;
  for (;;) {
    if (sh->nthreads > 1) pthread_barrier_wait(&sh->meet);   /* the stratum is ready */
    if (sh->done) return;
    run_stratum(S);
    if (sh->nthreads > 1) pthread_barrier_wait(&sh->meet);   /* everyone is done with it */
    if (S->id == 0 && between_strata(sh, T->all, T->logf) != 0) T->rc = -1;
  }
}

/* The initial state as the only entry of stratum 0 (thread 0's part).
** 1 if it is ready, 0 if the initial state is a bug or the explorer
** failed (recorded in res). */
static int initial_entry(SesShared *sh, Ses *S0) {
  Buf s, d;
  buf_init(&s);
  buf_init(&d);
  int ok = 0;
  if (vm_initial(S0->vm, &s) != VM_OK) {
    search_record_bug(sh->res, S0->vm, NULL, 0);
    goto out;
  }
  uint32_t nev;
  const VmEvent *ev = vm_events(S0->vm, &nev);
  if (ex_init(S0->ex, sh->o->seed, ev, nev, &d) != 0) {
    sh->res->error = xstrdup(explorer_error(S0->ex));
    goto out;
  }
  uint64_t fp = state_hash(s.data, s.len);
  frontier_push(&S0->next, &S0->pool, NULL, 0, fp, s.data, (uint32_t)s.len, d.data, (uint32_t)d.len, UINT64_MAX);
  sc_insert(sh->cache, fp);
  sh->res->states = 1;
  S0->new_states = 1;
  ok = 1;
out:
  buf_fini(&s);
  buf_fini(&d);
  return ok;
}

/* Why a search that found no bug stopped where it did (heap). */
static char *bound_text(const SesShared *sh, uint64_t left) {
  Buf b;
  buf_init(&b);
  if (sh->why) buf_printf(&b, "%s at delay bound %llu", sh->why, (unsigned long long)sh->db);
  else buf_printf(&b, "delay bound %llu reached, %llu frontier states left", (unsigned long long)sh->db,
                  (unsigned long long)left);
  return buf_take(&b);
}

static int run_ses(const BcProgram *bc, const VmTest *test, const SearchOptions *o, FILE *logf, SearchResult *res) {
  SesShared shared, *sh = &shared;
  memset(sh, 0, sizeof *sh);
  sh->bc = bc;
  sh->test = test;
  sh->o = o;
  sh->res = res;
  sh->nthreads = workers_count(o);
  int n = sh->nthreads, rc = -1;
  pthread_mutex_init(&sh->lock, NULL);
  pthread_barrier_init(&sh->meet, NULL, (unsigned)n);
  progress_init(&sh->prog);
  sh->work = xcalloc((size_t)n, sizeof *sh->work);
  sh->wstart = xcalloc((size_t)n + 1, sizeof *sh->wstart);
  sh->chunk_left = xcalloc((size_t)n, sizeof *sh->chunk_left);
  Ses *ws = xcalloc((size_t)n, sizeof *ws);
  SesThread *th = xcalloc((size_t)n, sizeof *th);
  size_t chunk = o->frontier_mem / 64 < CHUNK_BYTES ? (size_t)(o->frontier_mem / 64) : CHUNK_BYTES;
  Buf err;
  buf_init(&err);
  for (int t = 0; t < n; t++) {
    Ses *S = &ws[t];
    S->sh = sh;
    S->id = t;
    S->o = o;
    S->pool.size = chunk < 4096 ? 4096 : chunk;
    S->r = n == 1 ? res : &S->own;
    buf_init(&S->succ);
    S->vm = vm_new(bc, test);
    vm_record_events(S->vm, 1);
    th[t] = (SesThread){ S, ws, logf, 0 };
  }
  for (int t = 0; t < n; t++) {
    ws[t].ex = explorer_new(bc, test, o->explorer, (ExNative)o->explorer_native, o->explorer_twin_check, &err);
    if (!ws[t].ex) { fprintf(stderr, "pcheck: error: %s\n", err.data); goto out; }
  }
  sh->cache = sc_new(o->cache_kind, o->mem);
  if (!sh->cache) { fputs("pcheck: error: cannot allocate the state cache\n", stderr); goto out; }
  sc_set_single_thread(sh->cache, n == 1);
  sh->live = live_new(bc, test, o);   /* NULL: no spec has hot states */
  rc = 0;
  if (!initial_entry(sh, &ws[0])) goto out;
  /* Stratum 0 starts from the initial state. */
  next_becomes_work(sh, ws);
  sh->t0 = search_now();
  sh->prog.bound = 0;
  if (workers_run(n, ses_thread, th, sizeof *th) != 0) sh->internal = 1;
  if (sh->internal || th[0].rc != 0) { rc = -1; goto out; }
  fold_counts(sh, ws);
  if (sh->failed) goto out;   /* the explorer failed: res->error says so */
  if (!sh->sampled) res->delays = sh->db;
  res->skipped = sh->skipped;
  if (sh->sampled && !res->bug && !res->error) {
    res->bound = sh->sample_bound;
    sh->sample_bound = NULL;
  } else if (!res->bug && !res->complete) {
    uint64_t left = 0;
    for (int t = 0; t < n; t++) left += ws[t].next.n;
    res->bound = bound_text(sh, left);
  }
  if (res->bug && !sh->sampled)
    fprintf(logf, "ses: bug found at delay bound %llu after %llu distinct states\n", (unsigned long long)sh->db,
            (unsigned long long)res->states);
out:
  progress_done(&sh->prog, o);
  res->seconds = search_now() - sh->prog.start;
  if (sh->cache) {
    res->cache_bytes = sc_bytes(sh->cache);
    res->cache_refused = sc_refused(sh->cache);
    res->cache_full = sc_is_full(sh->cache);
  }
  work_free(sh, &ws[0].pool);
  for (int t = 0; t < n; t++) {
    Ses *S = &ws[t];
    while (S->depth) pop_frame(S);
    for (uint64_t k = 0; k < S->cap; k++) frame_fini(&S->fr[k]);
    free(S->fr);
    frontier_free(&S->next, &S->pool);
    chunk_pool_fini(&S->pool);
    ps_fini(&S->path);
    explorer_free(S->ex);
    vm_free(S->vm);
    buf_fini(&S->succ);
    buf_fini(&S->kid_d);
  }
  free(sh->sample_bound);
  free(sh->work);
  free(sh->wstart);
  free(sh->chunk_left);
  free(ws);
  free(th);
  sc_free(sh->cache);
  live_free(sh->live);
  pthread_barrier_destroy(&sh->meet);
  pthread_mutex_destroy(&sh->lock);
  buf_fini(&err);
  return rc;
}

const SearchOps search_ses = { "ses", run_ses };
