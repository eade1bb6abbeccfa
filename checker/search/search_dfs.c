/* search_dfs.c: exhaustive depth-first search over the VM's step function
** with the state cache.  The stack holds each state's enabled choices and
** its successors, computed a batch at a time (checker/engine/expand.h); a frame's
** State is the bytes its parent computed, used where they lie (no copy).
** The choices along the stack are the trace.  When the cache is full
** (replacing entries), a state whose entry was replaced is explored again,
** but never one already on its path from the initial state (a path set of
** fingerprints is kept for that), so the search terminates.  Hot cycles
** (checker/engine/liveness.h): on one thread, found on the fly (LiveScc) in the
** graph the search explores, each strongly connected component looked at
** when its root leaves the stack, so that nothing waits for another
** search; on several threads, or with checkpoints, each state where a
** spec turns hot is handed to a search of the spec's hot subgraph of its
** own (Liveness).  --no-liveness: neither.
**
** With -j N, N threads search at once over one state cache
** (checker/par/workers.h).  Whoever inserts a state first owns it: a state is
** expanded exactly once, so a complete search counts exactly the states
** and transitions of one thread.  A thread whose stack runs empty waits
** for work; a busy thread that sees one waiting gives away the successors
** it has claimed but not entered, from its lowest frame that has some (the
** biggest subtrees), as work items carrying their trace from the initial
** state and the fingerprints of their path.  The first bug stops every
** thread; which bug is found first then depends on timing.
**
** In the portfolio (one thread), dfs also publishes the states it has
** finished (every state reachable from them visited and checked:
** checker/store/finished.h) in o->finished, for ses to skip.  It stops
** publishing for good once its cache replaces entries (a forgotten state
** breaks the component bookkeeping), once the bookkeeping outgrows a
** quarter of --frontier-mem, or while the hot-cycle search is incomplete
** or behind (a finished state must have had its hot cycles searched
** too). */
#include <config.h>
#include "checker/search/search_int.h"
#include "checker/search/dist.h"
#include "checker/par/ranks.h"
#include "checker/engine/expand.h"
#include "checker/observe/estimate.h"
#include "checker/engine/liveness.h"
#include "checker/store/finished.h"
#include "checker/store/pathset.h"
#include "checker/search/search_ck.h"
#include "checker/par/workers.h"
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "vm/hash.h"

/* kid_new of a successor given away to another thread. */
enum { KID_GIVEN = 3 };
_Static_assert((int)KID_GIVEN > (int)SC_FULL && (int)KID_GIVEN < (int)RES_PRUNED, "batch answers: ScResult < KID_GIVEN < RES_PRUNED");

typedef struct DfsFrame {
  const uint8_t *s;          /* the State: in the parent's Expansion, or the item's bytes */
  size_t len;
  uint64_t fp;               /* its fingerprint */
  VmChoices ch;              /* enabled choices, once expanded */
  uint32_t next;             /* next choice to try */
  int expanded;              /* ch is valid */
  Expansion x;               /* the current batch of successors; x.res: ScResult or KID_GIVEN */
  uint64_t hot;              /* specs hot in the state (bits), when liveness is checked */
  uint64_t index, low;       /* publishing finished states: Tarjan's index and lowlink */
  uint32_t skip;             /* --keep-going: the choice whose step failed, passed over (UINT32_MAX: none) */
  uint64_t below;            /* bytes the frames under it held when it was entered (frame_bytes each):
                                only the top frame's expansion grows, so top.below + frame_bytes(top)
                                is the whole stack's */
} DfsFrame;

/* A frame's expansion buffers are kept for its next use up to this size. */
enum { FRAME_KEEP = 64 << 10 };

/* What a frame holds: its successors' bytes (which hold the State of the
** frame above it) and its own bookkeeping. */
static uint64_t frame_bytes(const DfsFrame *f) { return f->x.kids.cap + sizeof(DfsFrame) + 64; }

/* Publishing finished states (o->finished): the component bookkeeping and
** whether it is still on. */
typedef struct Publish {
  StateCache *to;            /* o->finished, or NULL: off */
  Finished fin;
  Liveness *live;            /* the hot-cycle searches, to ask whether they are complete */
  LiveScc *scc;
  uint64_t max_bytes;        /* the bookkeeping's share of --frontier-mem */
} Publish;

/* Stop publishing finished states (a bug, a stop or a memory bound makes
** the rest untrustworthy): the bookkeeping is freed, nothing more is
** written into o->finished.  Idempotent. */
static void publish_off(Publish *p) {
  if (!p->to) return;
  p->to = NULL;
  fin_fini(&p->fin);
}

/* fin_pop's callback: fp's component closed. */
static void publish_one(void *ctx, uint64_t fp) {
  Publish *p = ctx;
  if (!sc_is_full(p->to) && !live_incomplete(p->live) && !live_pending(p->live) && !live_scc_incomplete(p->scc))
    sc_insert(p->to, fp);
}

/* The frame leaves the stack: its component may close. */
static void publish_pop(Publish *p, DfsFrame *f, DfsFrame *parent) {
  if (!p->to) return;
  fin_pop(&p->fin, f->index, f->low, parent ? &parent->low : NULL, publish_one, p);
  if (fin_bytes(&p->fin) > p->max_bytes) publish_off(p);
}

/* The frame f was entered with fingerprint fp. */
static void publish_enter(Publish *p, DfsFrame *f) {
  if (p->to) f->index = f->low = fin_push(&p->fin, f->fp);
}

/* ---- What the threads share ---- */

typedef struct DfsShared {
  Exhaust x;                 /* what every exhaustive search holds (search_int.h) */
  Pool *pool;
  LiveScc *scc;              /* hot cycles on the fly (one thread), or NULL (and NULL both: no spec has
                                hot states, or --no-liveness) */
  int live_found;            /* the hot-cycle search found a bug (the search stopped there) */
  int live_busy;             /* live_pending(live), as last seen under lock (atomic) */
  uint64_t stack_mem;        /* bytes each thread's stack may take */
  uint64_t states_all;       /* states entered by all threads, as last reported (atomic) */
  uint64_t depth_all;        /* the deepest of them (atomic) */
} DfsShared;

/* One thread's search. */
typedef struct DfsWorker {
  DfsShared *sh;
  int id;
  Vm *vm;
  DfsFrame *fr;              /* the stack */
  uint64_t cap, depth;
  TraceChoice *trace;        /* trace[0 .. base + depth - 1): the item's prefix, then the stack's choices */
  uint64_t tcap, base;
  uint64_t *anc;             /* fingerprints of the base states before fr[0] (the item's path) */
  uint64_t nanc, anc_cap;
  uint64_t root_hot;         /* specs hot in fr[0]'s parent */
  PathSet path;              /* when tracking: anc and the stack's fingerprints */
  int tracking;
  PathSet pend;              /* with the reduction: the successors the stack's frames have claimed in
                                the cache and not entered yet (the stack proviso counts them as on the
                                stack) */
  Publish pub;
  SearchResult own;          /* this thread's counts, with -j N */
  SearchResult *r;           /* where it counts: sh->x.res on one thread (a portfolio member's work is
                                read there as it goes), else &own, added to it at the end */
  uint64_t iter, reported;   /* loop turns; states added to states_all */
  uint32_t pulse;            /* the pulse last seen (search_stop_due) */
  int resume;                /* --resume: the first item's stack comes from the checkpoint */
  uint64_t live_credit;      /* -j N: steps owed to the hot-cycle search of its own (pace_live) */
} DfsWorker;

/* An item's aux bytes: u64 hot specs of the parent, u8 whether the cache
** answered SC_FULL for it, then the path's fingerprints (ntrace of them). */
enum { AUX_HEAD = 9 };

/* Stop every thread (the caller holds no lock). */
static void stop_all(DfsShared *sh) { pool_stop(sh->pool); }

/* Record the bug the worker's Vm reported, with the first n choices of its
** trace, unless another thread recorded one first.  Returns 1: the search
** stops; with --keep-going the bug's place is counted and 0 returned (the
** caller goes on, the failed step having no successor). */
static int worker_bug(DfsWorker *w, uint64_t n) {
  DfsShared *sh = w->sh;
  pthread_mutex_lock(&sh->x.lock);
  if (!sh->x.res->bug && !sh->x.failed) search_record_bug(sh->x.res, w->vm, w->trace, n);
  const VmBug *b = vm_bug(w->vm);
  if (sh->x.o->keep_going) search_add_site(sh->x.res, b->status, b->file, b->line, b->col);
  pthread_mutex_unlock(&sh->x.lock);
  if (sh->x.o->keep_going) return 0;
  stop_all(sh);
  return 1;
}

/* An internal failure: msg is printed by the first thread only, and every
** thread stops. */
static void worker_fail(DfsWorker *w, const char *msg) {
  DfsShared *sh = w->sh;
  pthread_mutex_lock(&sh->x.lock);
  if (!sh->x.failed) fputs(msg, stderr);
  sh->x.failed = 1;
  pthread_mutex_unlock(&sh->x.lock);
  stop_all(sh);
}

/* A stop from outside (timeout, interrupt, a memory bound): the first
** reason is kept (a static string), and every thread stops. */
static void worker_stop(DfsWorker *w, const char *why) {
  DfsShared *sh = w->sh;
  pthread_mutex_lock(&sh->x.lock);
  if (!sh->x.why) sh->x.why = why;
  pthread_mutex_unlock(&sh->x.lock);
  stop_all(sh);
}

/* Room for n choices in the worker's trace (doubling from 64). */
static void trace_reserve(DfsWorker *w, uint64_t n) {
  if (n <= w->tcap) return;
  while (w->tcap < n) w->tcap = w->tcap ? w->tcap * 2 : 64;
  w->trace = xrealloc(w->trace, w->tcap * sizeof *w->trace);
}

/* Room for one more frame. */
static void stack_reserve(DfsWorker *w) {
  if (w->depth < w->cap) return;
  uint64_t ncap = w->cap ? w->cap * 2 : 64;
  w->fr = xrealloc(w->fr, ncap * sizeof *w->fr);
  memset(w->fr + w->cap, 0, (ncap - w->cap) * sizeof *w->fr);
  w->cap = ncap;
}

/* From now on the path set holds the item's path and the stack. */
static void track_start(DfsWorker *w) {
  if (w->tracking) return;
  for (uint64_t i = 0; i < w->nanc; i++) ps_add(&w->path, w->anc[i]);
  for (uint64_t i = 0; i < w->depth; i++) ps_add(&w->path, w->fr[i].fp);
  w->tracking = 1;
}

/* ---- Giving work away ---- */

/* Successors of f claimed by this thread and not yet entered. */
static uint32_t remaining(const DfsFrame *f) {
  if (!f->expanded) return 0;
  uint32_t n = 0;
  for (uint32_t j = f->next > f->x.base ? f->next - f->x.base : 0; j < f->x.n; j++)
    n += f->x.res[j] == SC_NEW || f->x.res[j] == SC_FULL;
  return n;
}

/* The specs hot in frame p "before" its successor j for the hot-cycle
** search's starts: those hot in p, less those that entered a cold state on
** the step (P reset their temperature there: hot in the successor, they
** turn hot again). */
static uint64_t hot_before_kid(const DfsFrame *p, uint32_t j) { return p->hot & ~p->x.foot[j].cooled; }

/* Successor j of frame i, as a work item for another thread (put in the
** shared pool): its State, fingerprint and the trace to it, and in the
** item's aux the specs hot before it (hot_before_kid), whether the cache
** was full for it, and the fingerprints of its path (the item's own
** ancestors, then frames 0..i), for a thread that must track its path.
** The slot is marked KID_GIVEN so that this thread skips it. */
static void give_kid(DfsWorker *w, uint64_t i, uint32_t j) {
  DfsFrame *f = &w->fr[i];
  WorkItem it = {0};
  size_t len;
  const uint8_t *s = expand_kid(&f->x, j, &len);
  buf_append(&it.state, s, len);
  it.fp = f->x.fp[j];
  it.ntrace = w->base + i + 1;
  it.trace = xmalloc(it.ntrace * sizeof *it.trace);
  memcpy(it.trace, w->trace, (w->base + i) * sizeof *it.trace);
  it.trace[w->base + i] = (TraceChoice){ (uint8_t)f->ch.kind, expand_choice(&f->ch, f->x.base + j) };
  uint8_t full = f->x.res[j] == SC_FULL;
  uint64_t parent_hot = hot_before_kid(f, j);
  buf_append(&it.aux, &parent_hot, 8);
  buf_append(&it.aux, &full, 1);
  buf_append(&it.aux, w->anc, w->nanc * 8);
  for (uint64_t k = 0; k <= i; k++) buf_append(&it.aux, &w->fr[k].fp, 8);
  f->x.res[j] = KID_GIVEN;
  pool_put(w->sh->pool, &it);
}

/* Another thread waits for work: give it the claimed successors of the
** lowest frame that has some (half of them if no other frame has any,
** so that this thread keeps work too). */
static void donate(DfsWorker *w) {
  uint64_t total = 0, bottom = UINT64_MAX;
  uint32_t bottom_n = 0;
  for (uint64_t i = 0; i < w->depth && (bottom == UINT64_MAX || total == bottom_n); i++) {
    uint32_t r = remaining(&w->fr[i]);
    if (r && bottom == UINT64_MAX) { bottom = i; bottom_n = r; }
    total += r;
  }
  if (bottom == UINT64_MAX || total < 2) return;
  uint32_t give = total == bottom_n ? bottom_n / 2 : bottom_n;
  DfsFrame *f = &w->fr[bottom];
  for (uint32_t j = f->x.n; j-- > 0 && give > 0;) {
    if (j + f->x.base < f->next || (f->x.res[j] != SC_NEW && f->x.res[j] != SC_FULL)) continue;
    give_kid(w, bottom, j);
    give--;
  }
}

/* ---- Checkpoints (one thread: checker/search/search_ck.h) ----
** Section "dfs": u8 whether the path set is kept, u64 the stack's depth,
** then each frame from the bottom: u8 expanded, and if it is: u32 next,
** u32 skip, u32 the batch's first choice, u32 its successors n, u32 lim,
** u8 reduced (expand_reduce made the batch), n bytes of their cache
** answers.  No State is saved: the bottom frame's is the initial State,
** each other is its parent's successor next - 1, which resuming computes
** again (a step is a function of its State and choice).  Section "cache":
** the state cache (sc_save). */

static void dfs_checkpoint(DfsWorker *w) {
  DfsShared *sh = w->sh;
  ck_begin(sh->x.o);
  Checkpoint c;
  ck_init(&c);
  Buf b;
  buf_init(&b);
  ck_put_u8(&b, (uint8_t)w->tracking);
  ck_put_u64(&b, w->depth);
  for (uint64_t i = 0; i < w->depth; i++) {
    const DfsFrame *f = &w->fr[i];
    ck_put_u8(&b, (uint8_t)f->expanded);
    if (!f->expanded) continue;
    ck_put_u32(&b, f->next);
    ck_put_u32(&b, f->skip);
    ck_put_u32(&b, f->x.base);
    ck_put_u32(&b, f->x.n);
    ck_put_u32(&b, f->x.lim);
    ck_put_u8(&b, f->x.reduced);
    buf_append(&b, f->x.res, f->x.n);
  }
  ck_add_buf(&c, "dfs", &b);
  ck_finish(sh->x.o, &c, sh->x.cache, sh->x.live, sh->x.res, sh->x.bc, sh->x.test, search_now() - sh->x.prog.start);
}

/* The depth period of the reduction (reduce.h, red_period_full): the
** State at depth d of the path, a choice among several machines, is
** explored in full, its machines taken in an order that turns with d / RED_PERIOD,
** so that along the path dfs follows first every machine the persistent
** sets keep postponing gets its turn (doc/reduction.md, "Endless paths").
** 1 if f's choices (just given by vm_choices) are such a State's. */
static int period_full(const DfsShared *sh, DfsFrame *f, uint64_t d) {
  if (!sh->x.red || f->ch.kind != VC_MACHINE || f->ch.n < 2 || !red_period_full(d)) return 0;
  uint32_t n = f->ch.n, r = (uint32_t)((d / RED_PERIOD) % n), tmp[KID_BATCH];
  if (d < RED_TURN_DEPTH || r == 0 || n > KID_BATCH) return 1;
  for (uint32_t j = 0; j < n; j++) tmp[j] = f->ch.ids[(j + r) % n];   /* no longer ascending: this frame's order */
  memcpy(f->ch.ids, tmp, n * sizeof *tmp);
  return 1;
}

/* Rebuild frame f (State s, len bytes) as the checkpoint r describes it:
** its choices, its batch made again and the cache's answers as they were.
** 0, or -1 if they do not fit. */
static int restore_frame(DfsWorker *w, DfsFrame *f, CkIn *r) {
  DfsShared *sh = w->sh;
  f->next = ck_get_u32(r);
  f->skip = ck_get_u32(r);
  uint32_t base = ck_get_u32(r), n = ck_get_u32(r), lim = ck_get_u32(r);
  uint8_t reduced = ck_get_u8(r);
  if (!r->ok || n > KID_BATCH || (reduced && !sh->x.red)) return -1;
  if (vm_choices(w->vm, f->s, f->len, &f->ch) != VM_OK) return -1;
  if (period_full(sh, f, w->base + (uint64_t)(f - w->fr)) && reduced) return -1;
  uint64_t steps = 0;   /* counted before the checkpoint */
  VmStatus st = VM_OK;
  f->x.base = base;
  f->x.n = 0;
  if (reduced) st = expand_reduce(&f->x, sh->x.red, w->vm, f->s, f->len, &f->ch, &steps);
  else if (n) st = expand_batch(&f->x, w->vm, f->s, f->len, &f->ch, base, &steps);
  if (st != VM_OK || f->x.n != n || f->x.base != base || lim > f->ch.n || (uint64_t)(r->end - r->p) < n) return -1;
  for (uint32_t j = 0; j < n; j++)
    if (r->p[j] > RES_PRUNED) return -1;   /* an ScResult, KID_GIVEN or RES_PRUNED (the largest) */
  if (n) memcpy(f->x.res, r->p, n);   /* (a frame with no batch held has no x.res yet) */
  r->p += n;
  f->x.lim = lim;
  f->x.reduced = reduced;
  f->expanded = 1;
  if (sh->x.live) f->hot = vm_hot_specs(w->vm, f->s, f->len);
  return 0;
}

/* Resuming: the stack as the checkpoint left it, from the initial State
** (s, len).  0, or -1 (said) if the checkpoint does not fit. */
static int dfs_restore(DfsWorker *w, const uint8_t *s, size_t len) {
  DfsShared *sh = w->sh;
  CkIn r = ck_in(ck_from(sh->x.o), "dfs");
  int tracking = ck_get_u8(&r);
  uint64_t depth = ck_get_u64(&r);
  if (!r.ok || depth == 0 || depth > (uint64_t)(r.end - r.p)) return ck_bad(sh->x.o, "its stack");
  w->depth = 0;
  for (uint64_t i = 0; i < depth; i++) {
    stack_reserve(w);
    DfsFrame *f = &w->fr[i];
    f->s = s;
    f->len = len;
    f->fp = state_hash(s, len);
    f->below = i ? w->fr[i - 1].below + frame_bytes(&w->fr[i - 1]) : 0;
    f->expanded = 0;
    w->depth = i + 1;
    if (!ck_get_u8(&r)) {   /* not expanded yet: only the top */
      if (i + 1 != depth) return ck_bad(sh->x.o, "its stack");
      break;
    }
    if (restore_frame(w, f, &r) != 0) return ck_bad(sh->x.o, "its stack");
    if (sh->x.red)   /* its claims not entered yet (the one at next - 1 is the frame above) */
      for (uint32_t j = f->next > f->x.base ? f->next - f->x.base : 0; j < f->x.n; j++)
        if (f->x.res[j] == SC_NEW) ps_add(&w->pend, f->x.fp[j]);
    if (i + 1 == depth) break;
    /* The frame above is this one's successor next - 1, entered last. */
    if (f->next == 0 || f->next - 1 < f->x.base || f->next - 1 - f->x.base >= f->x.n) return ck_bad(sh->x.o, "its stack");
    trace_reserve(w, i + 1);
    w->trace[i] = (TraceChoice){ (uint8_t)f->ch.kind, expand_choice(&f->ch, f->next - 1) };
    s = expand_kid(&f->x, f->next - 1 - f->x.base, &len);
  }
  if (!ck_in_done(&r)) return ck_bad(sh->x.o, "its stack");
  if (tracking || sh->x.red) track_start(w);
  return 0;
}

/* ---- One thread's depth-first search ---- */

/* Enter the successor (s, len, fp) of the top frame as a new top frame. */
static void enter(DfsWorker *w, const uint8_t *s, size_t len, uint64_t fp) {
  stack_reserve(w);
  DfsFrame *nf = &w->fr[w->depth];
  nf->s = s;
  nf->len = len;
  nf->fp = fp;
  nf->expanded = 0;
  nf->below = w->depth ? w->fr[w->depth - 1].below + frame_bytes(&w->fr[w->depth - 1]) : 0;
  if (w->tracking) ps_add(&w->path, fp);
  w->r->states++;
  w->r->state_bytes += len;
  if (len > w->r->max_state_bytes) w->r->max_state_bytes = len;
  publish_enter(&w->pub, nf);
  if (w->sh->x.o->visit) w->sh->x.o->visit(w->sh->x.o->visit_ctx, s, len);
  w->depth++;
  uint64_t d = w->base + w->depth - 1;
  if (d > w->r->max_depth) w->r->max_depth = d;
  if (w->depth > w->r->peak_frontier) w->r->peak_frontier = w->depth;
}

/* Every 1024 turns: stop requests, the stack's memory, the progress line.
** 1 if this thread must stop. */
static int periodic(DfsWorker *w) {
  DfsShared *sh = w->sh;
  const char *why = NULL;
  if (pool_stopped(sh->pool)) return 1;
  int ck = sh->x.o->ck && sh->x.o->ck->path;   /* one thread: the CLI refuses --checkpoint with more */
  if (search_should_stop(sh->x.o, &sh->x.prog, &why)) {
    if (ck) dfs_checkpoint(w);   /* where it stopped, for --resume */
    worker_stop(w, why);
    return 1;
  }
  /* The stack lives outside the cache: stop cleanly rather than run out. */
  DfsFrame *top = &w->fr[w->depth - 1];
  if (top->below + frame_bytes(top) > sh->stack_mem) {
    if (ck) dfs_checkpoint(w);
    worker_stop(w, "the search stack outgrew the memory set aside for it");
    return 1;
  }
  if (ck && ck_due(sh->x.o)) dfs_checkpoint(w);
  __atomic_add_fetch(&sh->states_all, w->r->states - w->reported, __ATOMIC_RELAXED);
  w->reported = w->r->states;
  uint64_t d = __atomic_load_n(&sh->depth_all, __ATOMIC_RELAXED);
  while (w->r->max_depth > d &&
         !__atomic_compare_exchange_n(&sh->depth_all, &d, w->r->max_depth, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
  }
  if (w->id != 0) return 0;
  double el = search_now() - sh->x.prog.start;
  uint64_t states = __atomic_load_n(&sh->states_all, __ATOMIC_RELAXED);
  if (sh->x.nthreads == 1) {
    sampler_update(sh->x.est, sh->x.cache, states, el, 0, sh->x.res);
    progress_tick(&sh->x.prog, sh->x.o, sh->x.res, w->depth, "stack");
  } else {
    SearchResult all = {0};
    all.states = states;
    all.max_depth = __atomic_load_n(&sh->depth_all, __ATOMIC_RELAXED);
    sampler_update(sh->x.est, sh->x.cache, states, el, 0, &all);
    progress_tick(&sh->x.prog, sh->x.o, &all, w->depth, "stack");
  }
  return 0;
}

/* The top frame's successors were computed with status st: report a step
** that failed, else claim the new ones for publishing (they are entered
** later from this frame).  0 to go on, 1 if this thread must stop. */
static int batch_done(DfsWorker *w, VmStatus st) {
  DfsFrame *f = &w->fr[w->depth - 1];
  if (st == VM_BAD_STATE) { worker_fail(w, ""); return 1; }
  if (st != VM_OK) {
    trace_reserve(w, w->base + w->depth);
    w->trace[w->base + w->depth - 1] = (TraceChoice){ (uint8_t)f->ch.kind, expand_choice(&f->ch, f->x.failed) };
    if (worker_bug(w, w->base + w->depth)) return 1;
    f->skip = f->x.failed;
  }
  if (w->pub.to)
    for (uint32_t j = 0; j < f->x.n; j++)
      if (f->x.res[j] == SC_NEW) fin_claim(&w->pub.fin, f->x.fp[j], f->index);
  if (w->sh->scc)
    for (uint32_t j = 0; j < f->x.n; j++)
      if (f->x.res[j] == SC_NEW) live_scc_claim(w->sh->scc, f->x.fp[j]);
  if (w->sh->x.red)
    for (uint32_t j = 0; j < f->x.n; j++)
      if (f->x.res[j] == SC_NEW) ps_add(&w->pend, f->x.fp[j]);
  return 0;
}

/* The top frame's successors under partial-order reduction (a machine
** choice among 2 .. KID_BATCH): the chosen ones inserted in the cache;
** all of them when the cycle proviso fails (a chosen successor on the
** stack, or claimed by a frame of the stack and not entered yet: w->pend)
** or the cache is full.  0 to go on, 1 if this thread must stop. */
static int reduce_top(DfsWorker *w) {
  DfsShared *sh = w->sh;
  DfsFrame *f = &w->fr[w->depth - 1];
  uint64_t before = w->r->transitions;
  VmStatus st = expand_reduce(&f->x, sh->x.red, w->vm, f->s, f->len, &f->ch, &w->r->transitions);
  if (st != VM_OK && st != VM_BAD_STATE && sh->x.o->keep_going) {
    /* A step failed: every other place a bug may happen must stay
    ** reachable, and the failed step has no successor to stand for the
    ** others, so this state is explored in full (by the plain batches,
    ** which record the failure and pass over it). */
    w->r->transitions = before;
    f->x.base = f->x.n = 0;
    f->x.lim = f->ch.n;
    f->x.reduced = 0;
    return 0;
  }
  if (st == VM_OK) {
    expand_insert_chosen(&f->x, sh->x.cache);
    /* A full cache forgets or refuses states: the proviso's argument needs
    ** every expanded state remembered, so from then on all are explored. */
    int widen = f->x.reduced && sc_is_full(sh->x.cache);
    for (uint32_t j = 0; j < f->x.n && f->x.reduced && !widen; j++) {
      uint8_t r = f->x.res[j];
      if (r == RES_PRUNED || r == SC_NEW) continue;
      widen = r == SC_FULL || ps_has(&w->path, f->x.fp[j]) || ps_has(&w->pend, f->x.fp[j]);
    }
    if (widen) {
      w->r->widened++;
      st = expand_widen(&f->x, w->vm, f->s, f->len, &f->ch, sh->x.cache, &w->r->transitions);
    }
  }
  if (st == VM_OK) w->r->pruned += f->ch.n - f->x.nsel;
  return batch_done(w, st);
}

/* What the hot-cycle search of its own returned (the lock held, with -j
** N): a cycle found is recorded, and with --keep-going noted and the
** search gone on with the other specs (then LIVE_NONE). */
static LiveResult live_found(DfsShared *sh, const Vm *vm, LiveResult lr) {
  if (lr != LIVE_FOUND) return lr;
  if (!sh->x.res->bug && !sh->x.failed) live_record(sh->x.live, sh->x.res);
  if (sh->x.o->keep_going) {
    search_add_site(sh->x.res, VM_BUG_HOT_CYCLE, vm_spec_name(vm, (uint16_t)live_settle(sh->x.live)), 0, 0);
    return LIVE_NONE;
  }
  sh->live_found = 1;
  return lr;
}

/* After live_found (the lock released): 0 to go on, or 1 if this thread
** must stop, the stop made (a cycle found, an error, or a stop request,
** where a checkpoint is written for --resume, as periodic() does). */
static int live_act(DfsWorker *w, LiveResult lr, const char *why) {
  DfsShared *sh = w->sh;
  if (lr == LIVE_NONE) return 0;
  if (lr == LIVE_ERROR) worker_fail(w, "");
  else if (lr == LIVE_STOPPED) {
    if (sh->x.o->ck && sh->x.o->ck->path) dfs_checkpoint(w);
    worker_stop(w, why);
  } else stop_all(sh);
  return 1;
}

/* The hot-cycle search of its own (sh->x.live) at the top frame, just
** entered and expanded: offered as a start for the specs that turned hot
** there (`turned`), then paid `steps` steps, the work dfs does there, so
** that it does about as much as dfs while starts are queued
** (checker/engine/liveness.h); on several threads under lock, one at a time,
** so each pays an N-th of its steps (about the time the N threads take,
** in all), a batch at a time (LIVE_BATCH); nothing is saved up while
** nothing is pending.  0 to go on, 1 if this thread must stop (a bug, a stop, an
** error). */
enum { LIVE_BATCH = 256 };
static int pace_live(DfsWorker *w, uint64_t turned, uint64_t steps) {
  DfsShared *sh = w->sh;
  DfsFrame *f = &w->fr[w->depth - 1];
  int shared = sh->x.nthreads > 1;
  if (!turned) {
    if (!(shared ? __atomic_load_n(&sh->live_busy, __ATOMIC_RELAXED) : live_pending(sh->x.live))) {
      w->live_credit = 0;
      return 0;
    }
    if (shared && (w->live_credit += steps) < LIVE_BATCH * (uint64_t)sh->x.nthreads) return 0;
  }
  if (shared) {   /* one thread at a time works on it: each pays an N-th */
    steps = (steps + w->live_credit) / (uint64_t)sh->x.nthreads;
    w->live_credit = 0;
    pthread_mutex_lock(&sh->x.lock);
  }
  const char *why = NULL;
  LiveResult lr = LIVE_NONE;
  if (turned)
    lr = live_offer(sh->x.live, f->s, f->len, f->fp, turned, w->trace, w->base + w->depth - 1, &sh->x.prog, &why);
  if (lr == LIVE_NONE) lr = live_work(sh->x.live, steps, &sh->x.prog, &why);
  lr = live_found(sh, w->vm, lr);
  __atomic_store_n(&sh->live_busy, live_pending(sh->x.live), __ATOMIC_RELAXED);
  if (shared) pthread_mutex_unlock(&sh->x.lock);
  return live_act(w, lr, why);
}

/* Every start the hot-cycle search of its own has queued searched, before
** the search ends (no other thread runs).  LIVE_NONE when done; a cycle
** found is recorded (with --keep-going, noted, and the drain goes on). */
static LiveResult live_drain(DfsShared *sh, const Vm *vm, const char **why) {
  LiveResult lr;
  do lr = live_found(sh, vm, live_work(sh->x.live, LIVE_ALL, &sh->x.prog, why));
  while (lr == LIVE_NONE && live_pending(sh->x.live));
  return lr;
}

/* The search's end on one thread: live_drain, then live_act.  0 to go
** on, 1 if the search must stop. */
static int end_live(DfsWorker *w) {
  const char *why = NULL;
  LiveResult lr = live_drain(w->sh, w->vm, &why);
  return live_act(w, lr, why);
}

/* The top frame is entered: its choices, its hot-cycle search.  0 to go
** on, 1 if this thread must stop (a bug, a stop, an error). */
static int expand_top(DfsWorker *w) {
  DfsShared *sh = w->sh;
  DfsFrame *f = &w->fr[w->depth - 1];
  VmStatus st = vm_choices(w->vm, f->s, f->len, &f->ch);
  f->expanded = 1;
  f->next = 0;
  f->x.base = f->x.n = 0;
  f->skip = UINT32_MAX;
  if (st == VM_BAD_STATE) { worker_fail(w, "pcheck: internal error: the VM produced a malformed state\n"); return 1; }
  uint64_t cold = 0;
  if (sh->scc) vm_spec_temps(w->vm, f->s, f->len, &f->hot, &cold);
  else if (sh->x.live) f->hot = vm_hot_specs(w->vm, f->s, f->len);
  if (sh->scc) {
    TraceChoice via = w->depth > 1 ? w->trace[w->base + w->depth - 2] : (TraceChoice){ VC_NONE, 0 };
    live_scc_enter(sh->scc, w->vm, f->s, f->len, f->fp, st, &f->ch, f->hot, cold, via);
  }
  if (st != VM_OK) {   /* a bug in the state itself: it has no successors */
    f->x.lim = 0;
    return worker_bug(w, w->base + w->depth - 1);
  }
  f->x.lim = f->ch.n;
  if (period_full(sh, f, w->base + w->depth - 1)) w->r->period_full++;
  else if (sh->x.red && f->ch.kind == VC_MACHINE && f->ch.n >= 2 && f->ch.n <= KID_BATCH && reduce_top(w)) return 1;
  if (!sh->x.live) return 0;
  /* Liveness: hot cycles through this state that no earlier state led to
  ** (f is successor next - 1 of the frame below). */
  const DfsFrame *p = w->depth > 1 ? &w->fr[w->depth - 2] : NULL;
  uint64_t turned = f->hot & ~(p ? hot_before_kid(p, p->next - 1 - p->x.base) : w->root_hot);
  return pace_live(w, turned, f->ch.n + 1);
}

/* The next batch of the top frame's successors, inserted in the cache.
** 0 to go on, 1 if this thread must stop. */
static int next_batch(DfsWorker *w) {
  DfsShared *sh = w->sh;
  DfsFrame *f = &w->fr[w->depth - 1];
  VmStatus st = expand_batch(&f->x, w->vm, f->s, f->len, &f->ch, f->next, &w->r->transitions);
  if (st != VM_BAD_STATE) expand_insert(&f->x, sh->x.cache);   /* after a failed step: those before it */
  return batch_done(w, st);
}

/* The top frame leaves: the hot-cycle search on the fly looks at the
** component it closes, if it does.  0 to go on, 1 if this thread must
** stop (a bug, a stop, an error). */
static int leave_scc(DfsWorker *w) {
  DfsShared *sh = w->sh;
  DfsFrame *f = &w->fr[w->depth - 1];
  const char *why = NULL;
  LiveResult lr = live_scc_leave(sh->scc, f->s, f->len, &sh->x.prog, &why);
  if (lr == LIVE_NONE) return 0;
  if (lr == LIVE_FOUND) {
    if (!sh->x.res->bug && !sh->x.failed) live_scc_record(sh->scc, w->trace, w->base + w->depth - 1, sh->x.res);
    if (sh->x.o->keep_going) {   /* note it, and go on with the other specs */
      search_add_site(sh->x.res, VM_BUG_HOT_CYCLE, vm_spec_name(w->vm, (uint16_t)live_scc_settle(sh->scc)), 0, 0);
      return 0;
    }
    sh->live_found = 1;
    stop_all(sh);
  } else if (lr == LIVE_ERROR) {
    worker_fail(w, "");
  } else {
    worker_stop(w, why);
  }
  return 1;
}

/* Search from the item's State until the stack is empty.  0 when it is,
** 1 if this thread must stop. */
static int search_item(DfsWorker *w, WorkItem *it) {
  DfsShared *sh = w->sh;
  const uint8_t *aux = (const uint8_t *)it->aux.data;
  uint8_t full = 0;
  w->root_hot = 0;
  w->nanc = 0;
  if (it->aux.len >= AUX_HEAD) {
    memcpy(&w->root_hot, aux, 8);
    full = aux[8];
    w->nanc = (it->aux.len - AUX_HEAD) / 8;
    if (w->nanc > w->anc_cap) {
      w->anc_cap = w->nanc;
      w->anc = xrealloc(w->anc, w->anc_cap * 8);
    }
    memcpy(w->anc, aux + AUX_HEAD, w->nanc * 8);
  }
  w->base = it->ntrace;
  trace_reserve(w, w->base + 64);
  if (it->ntrace) memcpy(w->trace, it->trace, it->ntrace * sizeof *it->trace);
  if (w->tracking) { ps_fini(&w->path); w->tracking = 0; }
  ps_fini(&w->pend);
  w->depth = 0;
  if (full) {   /* forgotten by the cache: not if it lies on its own path */
    for (uint64_t i = 0; i < w->nanc; i++)
      if (w->anc[i] == it->fp) return 0;
  }
  if (w->resume) {   /* the stack the checkpoint describes, counted already */
    w->resume = 0;
    if (dfs_restore(w, (const uint8_t *)it->state.data, it->state.len) != 0) {
      worker_fail(w, "");
      return 1;
    }
  } else {
    enter(w, (const uint8_t *)it->state.data, it->state.len, it->fp);
    if (sh->x.red) track_start(w);   /* the stack proviso asks the path set */
  }
  while (w->depth > 0) {
    if (((++w->iter & 1023) == 0 || search_stop_due(sh->x.o, &sh->x.prog, &w->pulse)) && periodic(w)) return 1;
    if (sh->x.nthreads > 1 && (w->iter & 63) == 0 && pool_hungry(sh->pool)) donate(w);
    DfsFrame *f = &w->fr[w->depth - 1];
    if (!f->expanded && expand_top(w)) return 1;
    if (f->next < f->x.lim && f->next >= f->x.base + f->x.n && f->next != f->skip && next_batch(w)) return 1;
    if (f->next == f->skip) {   /* --keep-going: a failed step, no successor */
      f->next++;
      continue;
    }
    if (f->next >= f->x.lim) {     /* every choice tried (or none): backtrack */
      if (sh->scc && leave_scc(w)) return 1;
      /* On one thread, the hot-cycle search of its own drains before the
      ** last frame leaves: stopped there, a checkpoint holds that frame. */
      if (sh->x.live && sh->x.nthreads == 1 && w->depth == 1 && live_pending(sh->x.live) && end_live(w)) return 1;
      f->expanded = 0;
      if (w->tracking) ps_remove(&w->path, f->fp);
      publish_pop(&w->pub, f, w->depth > 1 ? &w->fr[w->depth - 2] : NULL);
      /* A large expansion is not kept for the frame's next use: the frames
      ** above the stack would hold memory the stack's count has left. */
      if (f->x.kids.cap > FRAME_KEEP) expand_fini(&f->x);
      w->depth--;
      continue;
    }
    uint32_t k = f->next++, j = k - f->x.base;
    uint8_t r = f->x.res[j];
    if (r == SC_SEEN) {
      if (w->pub.to) fin_edge(&w->pub.fin, f->x.fp[j], &f->low);
      if (sh->scc) live_scc_edge(sh->scc, expand_choice(&f->ch, k), f->x.fp[j], 0, f->x.foot[j].cooled);
      continue;
    }
    if (r == KID_GIVEN || r == RES_PRUNED) continue;
    uint64_t fp = f->x.fp[j];
    if (r == SC_FULL) {
      publish_off(&w->pub);
      if (sh->scc) live_scc_off(sh->scc, "the state cache forgot states at its --mem budget");
      track_start(w);
      if (ps_has(&w->path, fp)) continue;
    }
    if (sh->scc) live_scc_edge(sh->scc, expand_choice(&f->ch, k), fp, 1, f->x.foot[j].cooled);
    if (sh->x.red && r == SC_NEW) ps_remove(&w->pend, fp);
    trace_reserve(w, w->base + w->depth);
    w->trace[w->base + w->depth - 1] = (TraceChoice){ (uint8_t)f->ch.kind, expand_choice(&f->ch, k) };
    size_t len;
    const uint8_t *s = expand_kid(&f->x, j, &len);
    enter(w, s, len, fp);
  }
  return 0;
}

/* A thread: take items until the search is over. */
static void dfs_thread(void *arg) {
  DfsWorker *w = arg;
  WorkItem it = {0};
  while (pool_get(w->sh->pool, &it)) {
    int stop = search_item(w, &it);
    work_fini(&it);
    if (stop) break;
  }
  publish_off(&w->pub);
}

/* Frees the worker's frames (every slot ever allocated, with its
** expansion and choices), its trace, ancestors, path sets and Vm. */
static void worker_fini(DfsWorker *w) {
  for (uint64_t i = 0; i < w->cap; i++) {
    expand_fini(&w->fr[i].x);
    vm_choices_fini(&w->fr[i].ch);
  }
  free(w->fr);
  free(w->trace);
  free(w->anc);
  ps_fini(&w->path);
  ps_fini(&w->pend);
  vm_free(w->vm);
}

/* Why a search that found no bug is not complete, or NULL (heap). */
static char *incomplete(const DfsShared *sh) {
  if (sh->x.why) return xstrdup(sh->x.why);
  /* A full cache: every reachable state was still explored, some more than
  ** once; the summary says the budget was hit. */
  if (sc_is_full(sh->x.cache)) return xstrdup("state cache full at its --mem budget");
  if (live_incomplete(sh->x.live)) return xstrdup(live_incomplete(sh->x.live));
  if (live_scc_incomplete(sh->scc)) return xstrdup(live_scc_incomplete(sh->scc));
  return NULL;
}

/* SearchOps.run for dfs: across ranks it runs level by level (dist_levels)
** and says so in res->dist_note; else the threads share the state cache
** and the work, and unless --no-liveness the hot-cycle searches run with
** it (on the fly, and one of their own: doc/liveness.md).  0, or -1 on an
** internal failure or a checkpoint that does not fit. */
int search_run_dfs(const BcProgram *bc, const VmTest *test, const SearchOptions *o, FILE *logf, SearchResult *res) {
  (void)logf;
#ifdef HAVE_MPI
  if (search_across_ranks(o)) {
    res->dist_note = "dfs runs level by level across ranks (bfs's order and cycle proviso), without its hot-cycle search";
    return dist_levels(bc, test, o, res);
  }
#endif
  DfsShared sh;
  memset(&sh, 0, sizeof sh);
  int nthreads = workers_count(o);
  const Checkpoint *from = ck_from(o);
  if (o->ck) nthreads = 1;   /* checkpoints hold one stack (the CLI says so with -j) */
  /* With the reduction, one thread: the stack proviso needs one stack,
  ** and the visited proviso of several threads keeps far more states
  ** (52 times as many on two-phase commit with 5 participants) than a
  ** second thread can make up for (doc/reduction.md). */
  if (!o->no_reduction && nthreads > 1) {
    nthreads = 1;
    res->reduced_one_thread = 1;
  }
  exhaust_begin(&sh.x, bc, test, o, res, nthreads, 0);
  int rc = -1;
  DfsWorker *ws = xcalloc((size_t)sh.x.nthreads, sizeof *ws);
  for (int i = 0; i < sh.x.nthreads; i++) {
    ws[i].sh = &sh;
    ws[i].id = i;
    ws[i].vm = vm_new(bc, test);
    ws[i].r = sh.x.nthreads == 1 ? res : &ws[i].own;
  }
  sh.pool = pool_new(sh.x.nthreads);
  WorkItem first = {0};
  if (from) {   /* the figures, the coverage and the cache of the checkpoint */
    if (ck_get_common(o, bc, test, res) != 0) goto out;
    if (!(sh.x.cache = ck_get_cache(o, "cache", o->mem, "no state cache", 0))) goto out;
    ws[0].resume = 1;
  } else {
    if (!(sh.x.cache = search_new_cache(o, o->mem))) goto out;
  }
  sc_set_single_thread(sh.x.cache, sh.x.nthreads == 1);
  if (vm_initial(ws[0].vm, &first.state) != VM_OK) {
    search_record_bug(res, ws[0].vm, NULL, 0);
    const VmBug *b = vm_bug(ws[0].vm);
    if (o->keep_going) search_add_site(res, b->status, b->file, b->line, b->col);
    rc = 0;
    goto out;
  }
  /* Hot cycles on the fly on one thread; a checkpoint saves the visited
  ** set of the searches of their own, not a component bookkeeping. */
  if (o->no_liveness) {   /* safety only */
  } else if (sh.x.nthreads == 1 && !o->ck) {
    sh.scc = live_scc_new(bc, test, o, !o->no_reduction);   /* NULL: no spec has hot states */
  } else {
    sh.x.live = live_new(bc, test, o, !o->no_reduction);
    if (from && ck_get_live(o, sh.x.live) != 0) goto out;
  }
  /* Reduction; the steps specs with hot states observe stay visible, so
  ** that the reduced graph keeps a fair hot cycle of every spec that has
  ** one (doc/reduction.md, "Liveness"). */
  /* On its one thread, the stack proviso, also as a portfolio member
  ** (its stack lives on between turns) and when publishing finished
  ** states (a state is published once its strongly connected component
  ** is complete, when every cycle through it has been closed, each at a
  ** state explored in full: doc/reduction.md). */
  exhaust_reduce(&sh.x, o->unfair ? live_specs(sh.x.live) | live_scc_specs(sh.scc) : 0);
  /* The frontier's part of --mem: the stack, and a quarter each for the
  ** hot-cycle search and the bookkeeping of publishing. */
  uint64_t stack = o->frontier_mem;
  if (sh.x.live || sh.scc) stack -= o->frontier_mem / LIVE_SHARE;
  if (sh.x.nthreads == 1 && o->finished) {
    ws[0].pub = (Publish){ o->finished, {0}, sh.x.live, sh.scc, o->frontier_mem / 4 };
    fin_init(&ws[0].pub.fin);
    stack -= o->frontier_mem / 4;
  }
  sh.stack_mem = stack / (uint64_t)sh.x.nthreads;
  sh.x.est = sampler_new(bc, test, sh.x.red, o->seed);
  first.fp = state_hash(first.state.data, first.state.len);
  if (!from) sc_insert(sh.x.cache, first.fp);
  ck_start(o);
  pool_put(sh.pool, &first);
  if (workers_run(sh.x.nthreads, dfs_thread, ws, sizeof *ws) != 0) sh.x.failed = 1;
  if (sh.x.nthreads > 1)
    for (int i = 0; i < sh.x.nthreads; i++) search_fold_counts(res, &ws[i].own);
  if (sh.x.nthreads > 1 && live_pending(sh.x.live) && !sh.x.failed && !sh.x.why &&
      (!res->bug || (o->keep_going && !sh.live_found))) {
    /* Every start searched before the end is told (the threads have ended). */
    const char *why = NULL;
    LiveResult lr = live_drain(&sh, ws[0].vm, &why);
    if (lr == LIVE_ERROR) sh.x.failed = 1;
    else if (lr == LIVE_STOPPED) sh.x.why = why;
  }
  if (!sh.x.failed && (!res->bug || (o->keep_going && !sh.live_found))) {
    res->bound = incomplete(&sh);
    res->complete = !res->bound;
  }
  sampler_finish(sh.x.est, sh.x.cache, search_now() - sh.x.prog.start, res);
  res->hot_specs = (uint32_t)__builtin_popcountll(live_specs(sh.x.live) | live_scc_specs(sh.scc));
  res->hot_cycle_bytes = live_scc_peak(sh.scc);
  rc = sh.x.failed ? -1 : 0;
out:
  work_fini(&first);
  for (int i = 0; i < sh.x.nthreads; i++) worker_fini(&ws[i]);
  free(ws);
  pool_free(sh.pool);
  live_scc_free(sh.scc);
  exhaust_end(&sh.x);
  return rc;
}
