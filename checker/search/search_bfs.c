/* search_bfs.c: exhaustive breadth-first search with the state cache.
** Level by level: the states of the current level are kept as bytes;
** every state ever queued keeps a node (parent, choice) so that a bug's
** trace is rebuilt by following parents.  The first bug reported is one
** with the shortest trace: a bug found by stepping from level d (trace
** d+1) is held until the rest of level d has been checked for a deadlock
** or hot spec (trace d).  With a full cache, an unknown state is expanded
** again unless it already lies on its own path from the initial state.
**
** With -j N the search is level-synchronous: the N threads take the
** current level's states in chunks, each puts the new states it finds in
** a level and a node store of its own, and all meet at the end of each
** level.  Each state is inserted in the cache once, so a complete search
** counts exactly the states and transitions of one thread.  Nodes live in
** a trace tree whose nodes never move (checker/store/tracetree.h), so any
** thread may follow parents while others add nodes.  The initial state
** has no node (TT_NONE). */
#include <config.h>
#include "checker/search/search_int.h"
#include "checker/search/dist.h"
#include "checker/par/ranks.h"
#include "checker/engine/expand.h"
#include "checker/observe/estimate.h"
#include "checker/store/tracetree.h"
#include "checker/search/search_ck.h"
#include "checker/par/workers.h"
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "vm/hash.h"

/* ---- What the threads share ---- */

/* With the reduction, the next level's fingerprints take 1/FRESH_SHARE of
** the frontier's part of --mem, the queue and trace nodes the rest. */
enum { FRESH_SHARE = 8 };

typedef struct BfsShared {
  Exhaust x;                 /* what every exhaustive search holds (search_int.h) */
  StateCache *fresh;         /* with red: the fingerprints of the next level's states (not yet expanded) */
  TtStore *stores;           /* trace nodes, one store per thread */
  uint64_t root_fp;          /* the initial state's fingerprint */
  TtLevel *cur, *next;       /* per thread: this level's states (by the thread that found them), the next's */
  uint64_t *start;           /* prefix sums of cur[t].n: the level as one sequence */
  uint64_t total;            /* states in the level */
  uint64_t taken;            /* the next index to hand out (atomic) */
  int stop;                  /* end the level now: a bug, a stop, an error (atomic) */
  int done;                  /* no more levels (set by thread 0 between levels) */
  /* A bug found by stepping (trace one longer than the level's depth),
  ** held until the level is done; `holding` makes the threads only look
  ** for shorter bugs meanwhile. */
  int holding;               /* atomic */
  VmBug held_bug;
  TraceChoice *held_trace;
  uint64_t held_n;
  uint64_t depth;            /* the level's depth */
  uint64_t states_all;       /* states found, as last reported (atomic) */
  uint64_t *own;             /* per thread: bytes of its node store and next level, as last published (atomic) */
  struct BfsWorker *ws;      /* the threads (a checkpoint adds up their counts) */
} BfsShared;

typedef struct BfsWorker {
  BfsShared *sh;
  int id;
  Vm *vm;
  VmChoices ch;
  Expansion x;
  SearchResult r;            /* this thread's counts */
  uint64_t iter, reported;
  uint32_t pulse;            /* the pulse last seen (search_stop_due) */
  uint64_t at;               /* the level's state being taken (one thread: where a checkpoint resumes) */
} BfsWorker;

/* Does fp lie on the path from the initial state to node id? */
static int on_path(const BfsShared *sh, uint64_t id, uint64_t fp) {
  for (uint64_t j = id; j != TT_NONE; j = tt_at(sh->stores, j)->parent)
    if (tt_at(sh->stores, j)->fp == fp) return 1;
  return fp == sh->root_fp;
}

static void stop_level(BfsShared *sh) { __atomic_store_n(&sh->stop, 1, __ATOMIC_RELAXED); }

/* A bug at a state of this level (trace: the path to node id): the
** shortest kind; the first one recorded stays. */
static void found_bug(BfsWorker *w, uint64_t id) {
  BfsShared *sh = w->sh;
  uint64_t n;
  TraceChoice *t = tt_trace(sh->stores, id, NULL, &n);
  pthread_mutex_lock(&sh->x.lock);
  if (!sh->x.res->bug) search_record_bug(sh->x.res, w->vm, t, n);
  pthread_mutex_unlock(&sh->x.lock);
  free(t);
  stop_level(sh);
}

/* A bug of the step `last` from node id: held (the first one) until the
** level is done. */
static void hold_bug(BfsWorker *w, uint64_t id, TraceChoice last) {
  BfsShared *sh = w->sh;
  pthread_mutex_lock(&sh->x.lock);
  if (!sh->holding) {
    sh->held_bug = *vm_bug(w->vm);
    sh->held_bug.message = xstrdup(sh->held_bug.message ? sh->held_bug.message : "");
    sh->held_trace = tt_trace(sh->stores, id, &last, &sh->held_n);
    __atomic_store_n(&sh->holding, 1, __ATOMIC_RELAXED);
  }
  pthread_mutex_unlock(&sh->x.lock);
}

/* A stop from outside (timeout, interrupt, a memory bound): the first
** reason is kept (a static string); the level stops at once. */
static void set_why(BfsShared *sh, const char *why) {
  pthread_mutex_lock(&sh->x.lock);
  if (!sh->x.why) sh->x.why = why;
  pthread_mutex_unlock(&sh->x.lock);
  stop_level(sh);
}

/* An internal failure: msg is printed by the first thread only; the level
** stops. */
static void fail(BfsShared *sh, const char *msg) {
  pthread_mutex_lock(&sh->x.lock);
  if (!sh->x.failed) fputs(msg, stderr);
  sh->x.failed = 1;
  pthread_mutex_unlock(&sh->x.lock);
  stop_level(sh);
}

/* Bytes thread t's own node store and next level take (its owner only). */
static uint64_t own_bytes(const BfsShared *sh, int t) {
  return tt_bytes(&sh->stores[t]) + sh->next[t].bytes.cap + sh->next[t].cap * 16;
}

/* Bytes the queue and the nodes take: the current level (not written
** during a level) and what each thread last published of its own. */
static uint64_t queue_bytes(const BfsShared *sh) {
  uint64_t used = 0;
  for (int t = 0; t < sh->x.nthreads; t++)
    used += sh->cur[t].bytes.cap + sh->cur[t].cap * 16 + __atomic_load_n(&sh->own[t], __ATOMIC_RELAXED);
  return used;
}

/* ---- Checkpoints (checker/search/search_ck.h) ----
** Written between two states of a level on one thread, between two levels
** on several.  Section "bfs": u64 the level's depth, u64 the index of its
** next state to expand, u64 threads; then each thread's trace nodes (u64
** n, then each: u64 parent, u64 fingerprint, u8 choice kind, u32 choice);
** then each thread's part of the level and of the next one (u64 n, then
** each: u64 node, the State as bytes).  Sections "cache" and (with the
** reduction) "fresh": the state cache and the next level's fingerprints. */

enum { NODE_BYTES = 21 };

/* One thread's part of a level, as the section's layout above says: its
** count, then each state's trace node and bytes. */
static void put_level(Buf *b, const TtLevel *l) {
  ck_put_u64(b, l->n);
  for (uint64_t i = 0; i < l->n; i++) {
    size_t len;
    const uint8_t *st = tt_level_state(l, i, &len);
    ck_put_u64(b, l->node[i]);
    ck_put_bytes(b, st, len);
  }
}

/* Write a checkpoint; pos: the level's next state to expand (every one
** before it is expanded, none after). */
static void bfs_checkpoint(BfsShared *sh, uint64_t pos) {
  if (__atomic_load_n(&sh->holding, __ATOMIC_RELAXED)) return;   /* the level ends in its bug */
  ck_begin(sh->x.o);
  Checkpoint c;
  ck_init(&c);
  Buf b;
  buf_init(&b);
  uint64_t want = 64;   /* room for it all at once: no copy as it grows */
  for (int t = 0; t < sh->x.nthreads; t++)
    want += sh->stores[t].n * NODE_BYTES + 16 * (sh->cur[t].n + sh->next[t].n) + sh->cur[t].bytes.len +
            sh->next[t].bytes.len;
  buf_reserve(&b, (size_t)want);
  ck_put_u64(&b, sh->depth);
  ck_put_u64(&b, pos);
  ck_put_u64(&b, (uint64_t)sh->x.nthreads);
  for (int t = 0; t < sh->x.nthreads; t++) {
    const TtStore *st = &sh->stores[t];
    ck_put_u64(&b, st->n);
    for (uint64_t i = 0; i < st->n; i++) {
      const TtNode *nd = &st->block[i / TT_BLOCK][i % TT_BLOCK];
      ck_put_u64(&b, nd->parent);
      ck_put_u64(&b, nd->fp);
      ck_put_u8(&b, nd->choice.kind);
      ck_put_u32(&b, nd->choice.value);
    }
  }
  for (int t = 0; t < sh->x.nthreads; t++) {
    put_level(&b, &sh->cur[t]);
    put_level(&b, &sh->next[t]);
  }
  ck_add_buf(&c, "bfs", &b);
  if (sh->fresh) {
    sc_save(sh->fresh, &b);
    ck_add_buf(&c, "fresh", &b);
  }
  /* The figures so far: the threads fold theirs in at the end. */
  SearchResult all = *sh->x.res;
  for (int t = 0; t < sh->x.nthreads; t++) {
    SearchResult part = sh->ws[t].r;
    search_fold_counts(&all, &part);
  }
  ck_finish(sh->x.o, &c, sh->x.cache, NULL, &all, sh->x.bc, sh->x.test, search_now() - sh->x.prog.start);
}

/* Is id a node of the stores (TT_NONE: the initial state's)? */
static int node_known(const BfsShared *sh, uint64_t id) {
  uint64_t t = id >> TT_SHIFT;
  return id == TT_NONE || (t < (uint64_t)sh->x.nthreads && (id & ((1ull << TT_SHIFT) - 1)) < sh->stores[t].n);
}

/* A level as put_level wrote it, into l (empty); 0, or -1 if malformed
** (a State the VM would not accept, vm among them). */
static int get_level(CkIn *r, TtLevel *l, const BfsShared *sh, const Vm *vm) {
  uint64_t n = ck_get_u64(r);
  for (uint64_t i = 0; i < n && r->ok; i++) {
    uint64_t node = ck_get_u64(r), len;
    const uint8_t *st = ck_get_bytes(r, &len);
    if (!r->ok || !node_known(sh, node) || !vm_state_valid(vm, st, (size_t)len)) return -1;
    tt_level_push(l, node, st, (size_t)len);
  }
  return r->ok ? 0 : -1;
}

/* Resuming: the nodes, levels and caches of the checkpoint.  0, or -1
** (said) if it does not fit. */
static int bfs_restore(BfsShared *sh, const Vm *vm) {
  const SearchOptions *o = sh->x.o;
  const Checkpoint *from = ck_from(o);
  CkIn r = ck_in(from, "bfs");
  sh->depth = ck_get_u64(&r);
  uint64_t pos = ck_get_u64(&r), nt = ck_get_u64(&r);
  if (!r.ok || nt != (uint64_t)sh->x.nthreads) return ck_bad(o, "its queue");
  for (int t = 0; t < sh->x.nthreads; t++) {
    uint64_t n = ck_get_u64(&r);
    if (!r.ok || n > (uint64_t)(r.end - r.p) / NODE_BYTES) return ck_bad(o, "its trace nodes");
    for (uint64_t i = 0; i < n; i++) {
      uint64_t parent = ck_get_u64(&r), fp = ck_get_u64(&r);
      uint8_t kind = ck_get_u8(&r);
      uint32_t value = ck_get_u32(&r);
      tt_add(&sh->stores[t], parent, fp, (TraceChoice){ kind, value });
    }
  }
  for (int t = 0; t < sh->x.nthreads; t++)   /* every parent a node, now that all are in */
    for (uint64_t i = 0; i < sh->stores[t].n; i++)
      if (!node_known(sh, tt_at(sh->stores, ((uint64_t)t << TT_SHIFT) | i)->parent)) return ck_bad(o, "its trace nodes");
  for (int t = 0; t < sh->x.nthreads; t++)
    if (get_level(&r, &sh->cur[t], sh, vm) != 0 || get_level(&r, &sh->next[t], sh, vm) != 0)
      return ck_bad(o, "its queue");
  if (!ck_in_done(&r)) return ck_bad(o, "its queue");
  uint64_t total = 0;
  for (int t = 0; t < sh->x.nthreads; t++) {
    sh->start[t] = total;
    total += sh->cur[t].n;
  }
  sh->start[sh->x.nthreads] = total;
  sh->total = total;
  if (pos > total || (pos && sh->x.nthreads > 1)) return ck_bad(o, "its queue");
  sh->taken = pos;
  sh->x.cache = ck_get_cache(o, "cache", o->mem, "no state cache", 0);
  int rc = sh->x.cache ? 0 : -1;
  if (!rc && sh->x.red) {   /* none saved: the run had no memory for it */
    uint64_t n;
    int saved = ck_get(from, "fresh", &n) != NULL;
    sc_free(sh->fresh);
    sh->fresh = ck_get_cache(o, "fresh", o->frontier_mem / FRESH_SHARE, "its next level", 1);
    if (saved && !sh->fresh) rc = -1;
    if (sh->fresh) sc_set_single_thread(sh->fresh, sh->x.nthreads == 1);
  }
  return rc;
}

/* Every 256 states: stop requests, memory, progress.  1 to stop. */
static int periodic(BfsWorker *w) {
  BfsShared *sh = w->sh;
  const char *why = NULL;
  /* One thread checkpoints between two states; several between levels. */
  int ck = sh->x.nthreads == 1 && sh->x.o->ck && sh->x.o->ck->path;
  if (search_should_stop(sh->x.o, &sh->x.prog, &why)) {
    if (ck) bfs_checkpoint(sh, w->at);   /* where it stopped, for --resume */
    set_why(sh, why);
    return 1;
  }
  __atomic_add_fetch(&sh->states_all, w->r.states - w->reported, __ATOMIC_RELAXED);
  w->reported = w->r.states;
  __atomic_store_n(&sh->own[w->id], own_bytes(sh, w->id), __ATOMIC_RELAXED);
  if (w->id != 0) return 0;
  /* The queue and the trace nodes live outside the cache: stop cleanly
  ** rather than run out of memory (the others' sizes as they last
  ** published them: an estimate is all this needs). */
  if (queue_bytes(sh) > sh->x.o->frontier_mem - (sh->x.red ? sh->x.o->frontier_mem / FRESH_SHARE : 0)) {
    if (ck) bfs_checkpoint(sh, w->at);
    set_why(sh, "the queue of states outgrew the memory set aside for it");
    return 1;
  }
  if (ck && ck_due(sh->x.o)) bfs_checkpoint(sh, w->at);
  SearchResult all = {0};
  all.states = __atomic_load_n(&sh->states_all, __ATOMIC_RELAXED);
  all.max_depth = sh->depth;
  sampler_update(sh->x.est, sh->x.cache, all.states, search_now() - sh->x.prog.start, 0, &all);
  /* The queue: the states of the level being expanded (taken counts the
  ** states handed out in chunks, and passes total by up to a chunk). */
  progress_tick(&sh->x.prog, sh->x.o, &all, sh->total, "queue");
  return 0;
}

/* The successors w->x holds (from choice x.base on) of node id: the new
** ones (and those the full cache refused, unless on id's path) go to this
** thread's next level; the others (seen, or left out by the reduction)
** do not. */
static void push_kids(BfsWorker *w, uint64_t id) {
  BfsShared *sh = w->sh;
  for (uint32_t j = 0; j < w->x.n; j++) {
    uint64_t fp = w->x.fp[j];
    uint8_t r = w->x.res[j];
    if (r == SC_SEEN || r == RES_PRUNED) continue;
    if (r == SC_FULL && on_path(sh, id, fp)) continue;
    TraceChoice c = { (uint8_t)w->ch.kind, expand_choice(&w->ch, w->x.base + j) };
    uint64_t nid = tt_add(&sh->stores[w->id], id, fp, c);
    size_t klen;
    const uint8_t *k = expand_kid(&w->x, j, &klen);
    tt_level_push(&sh->next[w->id], nid, k, klen);
    if (sh->fresh) sc_insert(sh->fresh, fp);
    if (sh->x.o->visit) sh->x.o->visit(sh->x.o->visit_ctx, k, klen);
    w->r.states++;
  }
}

/* The reduced expansion of node id (a machine choice among 2 ..
** KID_BATCH) with the expanded proviso: if a chosen successor may already
** have been expanded (it is in the cache but not known to be in the next
** level), or the cache is full, every choice is explored
** (doc/reduction.md, "The cycle proviso").  On a cycle of the reduced
** graph the state expanded last has its successor on the cycle expanded
** before it, so it is explored in full.  A state seen in the next level
** by another thread a moment ago may not be in sh->fresh yet: then this
** one is widened, which costs states, not soundness.  0 when done (a step that failed while widening is
** held as the level's bug); 1 if a step failed before anything was
** inserted (nothing is counted: the caller expands the state in full,
** which reports it). */
static int reduce_state(BfsWorker *w, uint64_t id, const uint8_t *s, size_t len) {
  BfsShared *sh = w->sh;
  uint64_t before = w->r.transitions;
  VmStatus vs = expand_reduce(&w->x, sh->x.red, w->vm, s, len, &w->ch, &w->r.transitions);
  if (vs != VM_OK) { w->r.transitions = before; return 1; }
  expand_insert_chosen(&w->x, sh->x.cache);
  int widen = w->x.reduced && sc_is_full(sh->x.cache);
  for (uint32_t j = 0; j < w->x.n && w->x.reduced && !widen; j++)
    widen = w->x.res[j] == SC_FULL || (w->x.res[j] == SC_SEEN && (!sh->fresh || !sc_contains(sh->fresh, w->x.fp[j])));
  if (widen) {
    w->r.widened++;
    vs = expand_widen(&w->x, w->vm, s, len, &w->ch, sh->x.cache, &w->r.transitions);
  }
  if (vs == VM_BAD_STATE) { fail(sh, ""); return 0; }
  if (vs == VM_OK) w->r.pruned += w->ch.n - w->x.nsel;
  push_kids(w, id);   /* after a failed step of the widening: those before it */
  if (vs != VM_OK) hold_bug(w, id, (TraceChoice){ (uint8_t)w->ch.kind, expand_choice(&w->ch, w->x.failed) });
  return 0;
}

/* Expand state q of the level (node id), bytes s; new states go to this
** thread's next level. */
static void expand_state(BfsWorker *w, uint64_t id, const uint8_t *s, size_t len) {
  BfsShared *sh = w->sh;
  VmStatus vs = vm_choices(w->vm, s, len, &w->ch);
  if (vs == VM_BAD_STATE) { fail(sh, "pcheck: internal error: the VM produced a malformed state\n"); return; }
  if (vs != VM_OK) { found_bug(w, id); return; }
  if (__atomic_load_n(&sh->holding, __ATOMIC_RELAXED)) return;   /* only looking for shorter bugs now */
  if (sh->x.red && w->ch.kind == VC_MACHINE && w->ch.n >= 2) {
    if (red_period_full(sh->depth)) w->r.period_full++;   /* the depth period: in full */
    else if (w->ch.n <= KID_BATCH && !reduce_state(w, id, s, len)) return;
  }
  for (uint32_t first = 0; first < w->ch.n; first += KID_BATCH) {
    vs = expand_batch(&w->x, w->vm, s, len, &w->ch, first, &w->r.transitions);
    if (vs == VM_BAD_STATE) { fail(sh, ""); return; }
    expand_insert(&w->x, sh->x.cache);
    push_kids(w, id);
    if (vs != VM_OK) {
      hold_bug(w, id, (TraceChoice){ (uint8_t)w->ch.kind, expand_choice(&w->ch, w->x.failed) });
      return;
    }
  }
}

/* Take chunks of the level until it is exhausted or stopped. */
static void run_level(BfsWorker *w) {
  BfsShared *sh = w->sh;
  uint64_t chunk = sh->x.nthreads > 1 ? 16 : UINT64_MAX / 2;
  int t = 0;
  for (;;) {
    uint64_t a = __atomic_fetch_add(&sh->taken, chunk, __ATOMIC_RELAXED);
    if (a >= sh->total) return;
    uint64_t b = a + chunk < sh->total ? a + chunk : sh->total;
    for (uint64_t q = a; q < b; q++) {
      if (__atomic_load_n(&sh->stop, __ATOMIC_RELAXED)) return;
      w->at = q;
      if (((++w->iter & 255) == 0 || search_stop_due(sh->x.o, &sh->x.prog, &w->pulse)) && periodic(w)) return;
      while (sh->start[t + 1] <= q) t++;
      while (sh->start[t] > q) t--;
      const TtLevel *l = &sh->cur[t];
      uint64_t i = q - sh->start[t];
      size_t len;
      const uint8_t *s = tt_level_state(l, i, &len);
      expand_state(w, l->node[i], s, len);
    }
  }
}

/* An empty set for the next level's fingerprints, or NULL if there is no
** memory for it (then every reduced state whose chosen successor was seen
** is widened). */
static StateCache *fresh_cache(const BfsShared *sh) {
  StateCache *c = sc_new(sh->x.o->cache_kind, sh->x.o->frontier_mem / FRESH_SHARE);
  if (c) sc_set_single_thread(c, sh->x.nthreads == 1);
  return c;
}

/* Between levels (thread 0, the others wait): the held bug, the next
** level becomes the current one, or the search is done. */
static void between_levels(BfsShared *sh) {
  SearchResult *res = sh->x.res;
  if (!res->bug && sh->holding) {
    res->bug = 1;
    res->bugdesc = sh->held_bug;
    res->trace = sh->held_trace;
    res->ntrace = sh->held_n;
    res->cycle_start = -1;
    sh->held_trace = NULL;
    sh->holding = 0;
  }
  if (res->bug || sh->x.failed || sh->x.why) { sh->done = 1; return; }
  uint64_t total = 0;
  for (int t = 0; t < sh->x.nthreads; t++) {
    TtLevel l = sh->cur[t];
    sh->cur[t] = sh->next[t];
    sh->next[t] = l;
    sh->next[t].n = 0;
    sh->next[t].bytes.len = 0;
    sh->start[t] = total;
    total += sh->cur[t].n;
  }
  sh->start[sh->x.nthreads] = total;
  sh->total = total;
  if (sh->fresh) {   /* the new level is about to be expanded: none of it is fresh */
    sc_free(sh->fresh);
    sh->fresh = fresh_cache(sh);
  }
  sh->taken = 0;
  if (!total) { sh->done = 1; return; }
  sh->depth++;
  if (sh->depth > res->max_depth) res->max_depth = sh->depth;
  if (total > res->peak_frontier) res->peak_frontier = total;
  if (sh->x.o->ck && sh->x.o->ck->path && ck_due(sh->x.o)) bfs_checkpoint(sh, 0);
}

/* A worker: every level, wait until it is set up, expand its share,
** wait for the others, and on thread 0 build the next level
** (between_levels).  Returns once sh->done is set. */
static void bfs_thread(void *arg) {
  BfsWorker *w = arg;
  BfsShared *sh = w->sh;
  for (;;) {
    if (sh->x.nthreads > 1) pthread_barrier_wait(&sh->x.meet);   /* the level is ready */
    if (sh->done) return;
    run_level(w);
    if (sh->x.nthreads > 1) pthread_barrier_wait(&sh->x.meet);   /* everyone is done with it */
    if (w->id == 0) between_levels(sh);
  }
}

/* SearchOps.run for bfs: across ranks, dist_levels; else level by level on
** -j threads from the initial state or a checkpoint's level, until a
** level is empty (complete), a bug (held until its level is done, so its
** trace is a shortest one) or a stop (then the levels done are what is
** proved).  0, or -1 on an internal failure or a checkpoint that does not
** fit. */
int search_run_bfs(const BcProgram *bc, const VmTest *test, const SearchOptions *o, FILE *logf, SearchResult *res) {
  (void)logf;
#ifdef HAVE_MPI
  if (search_across_ranks(o)) return dist_levels(bc, test, o, res);
#endif
  BfsShared sh;
  memset(&sh, 0, sizeof sh);
  exhaust_begin(&sh.x, bc, test, o, res, workers_count(o), EX_MEET);
  const Checkpoint *from = ck_from(o);
  int rc = -1, n = sh.x.nthreads;
  sh.stores = xcalloc((size_t)n, sizeof *sh.stores);
  sh.cur = xcalloc((size_t)n, sizeof *sh.cur);
  sh.next = xcalloc((size_t)n, sizeof *sh.next);
  sh.start = xcalloc((size_t)n + 1, sizeof *sh.start);
  sh.own = xcalloc((size_t)n, sizeof *sh.own);
  BfsWorker *ws = xcalloc((size_t)n, sizeof *ws);
  sh.ws = ws;
  for (int i = 0; i < n; i++) {
    tt_init(&sh.stores[i], i);
    ws[i] = (BfsWorker){ .sh = &sh, .id = i, .vm = vm_new(bc, test) };
  }
  Buf s;
  buf_init(&s);
  if (!from && !(sh.x.cache = exhaust_cache(&sh.x, o->mem))) goto out;
  if (vm_initial(ws[0].vm, &s) != VM_OK) { search_record_bug(res, ws[0].vm, NULL, 0); rc = 0; goto out; }
  exhaust_reduce(&sh.x, 0);   /* bfs checks no hot cycles: nothing is visible */
  if (sh.x.red) sh.fresh = fresh_cache(&sh);
  sh.x.est = sampler_new(bc, test, sh.x.red, o->seed);
  sh.root_fp = state_hash(s.data, s.len);
  if (from) {   /* the figures, coverage, nodes, levels and caches of the checkpoint */
    if (ck_get_common(o, bc, test, res) != 0 || bfs_restore(&sh, ws[0].vm) != 0) goto out;
    sc_set_single_thread(sh.x.cache, n == 1);
  } else {
    sc_insert(sh.x.cache, sh.root_fp);
    res->states = 1;
    tt_level_push(&sh.cur[0], TT_NONE, (const uint8_t *)s.data, s.len);
    if (o->visit) o->visit(o->visit_ctx, (const uint8_t *)s.data, s.len);
    sh.start[1] = sh.start[n] = 1;
    for (int t = 1; t < n; t++) sh.start[t] = 1;
    sh.total = 1;
    res->peak_frontier = 1;
  }
  ck_start(o);
  if (workers_run(n, bfs_thread, ws, sizeof *ws) != 0) sh.x.failed = 1;
  for (int i = 0; i < n; i++) search_fold_counts(res, &ws[i].r);
  if (!res->bug && !sh.x.failed) {
    if (sh.x.why) res->bound = xstrdup(sh.x.why);
    /* Level d was being expanded: every execution of fewer than d steps
    ** was checked, deadlocks at depth d not yet. */
    if (sh.x.why && sh.depth > 0) {
      res->has_proved = 1;
      res->proved = sh.depth - 1;
      if (sh.x.red) res->proved_period = RED_PERIOD;
    }
    else if (sc_is_full(sh.x.cache)) res->bound = xstrdup("state cache full at its --mem budget");
    else res->complete = 1;
  }
  sampler_finish(sh.x.est, sh.x.cache, search_now() - sh.x.prog.start, res);
  rc = sh.x.failed ? -1 : 0;
out:
  if (sh.holding) free(sh.held_bug.message);
  free(sh.held_trace);
  for (int i = 0; i < n; i++) {
    tt_fini(&sh.stores[i]);
    tt_level_fini(&sh.cur[i]);
    tt_level_fini(&sh.next[i]);
    vm_choices_fini(&ws[i].ch);
    expand_fini(&ws[i].x);
    vm_free(ws[i].vm);
  }
  free(sh.stores);
  free(sh.cur);
  free(sh.next);
  free(sh.start);
  free(sh.own);
  free(ws);
  buf_fini(&s);
  sc_free(sh.fresh);
  exhaust_end(&sh.x);
  return rc;
}
