/* search_pb.c: iterative preemption bounding with state caching (CHESS's
** iterative context bounding).  A preemption is a step that runs a machine
** other than the one that ran the previous step (the machine chosen, or the
** machine that made a data choice) while that machine is still enabled;
** switching away from a blocked, idle or halted machine is free, and so are
** data choices.  The search is stratified: bound c = 0, 1, 2, ... is a
** depth-first search, from the work list of bound c, of every move of cost
** 0; a move that would cost one more preemption goes to the work list of
** bound c+1 (the parent State, its trace, the last machine and the costly
** choices).  A visited set keyed by (State, last machine) prevents
** re-exploration; since each bound is complete before the next starts, a
** key first reached at bound c needs exactly c preemptions.  Distinct
** program states are counted in a second cache.  Traces are kept as a tree
** of (parent, choice) nodes (checker/store/tracetree.h), grown only for states
** that enter a work list or end in a bug.
**
** With -j N the threads share both caches and take the entries of a
** bound's work list one at a time; each has its own stack, trace store and
** part of the next work list, and all meet at the end of each bound.  The
** keys reached within a bound do not depend on the order, and each is
** expanded once, so a complete search counts exactly the states and
** transitions of one thread. */
#include <config.h>
#include "checker/search/search_int.h"
#include "checker/engine/expand.h"
#include "checker/store/pathset.h"
#include "checker/store/tracetree.h"
#include "checker/par/workers.h"
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "vm/hash.h"

#define NO_MACHINE UINT32_MAX

/* A state whose costly moves wait for the next bound. */
typedef struct PbWork {
  uint64_t node;             /* the trace to the state */
  uint64_t depth;            /* its length */
  uint64_t state, len;       /* the State bytes, in the list's pool */
  uint64_t choices;          /* first costly machine id, in the list's pool */
  uint32_t n;                /* how many */
  uint32_t last;             /* the machine that ran the step into the state */
} PbWork;

typedef struct PbList {
  PbWork *w;
  uint64_t n, cap;
  Buf states;                /* State bytes, one after another */
  uint32_t *ids;             /* costly choices, one after another */
  uint64_t nids, idcap;
} PbList;

typedef struct PbFrame {
  Buf state;
  uint64_t fp;               /* the state's fingerprint */
  uint64_t key;              /* visited key of (state, last) */
  uint32_t last;             /* machine that ran the step into it, NO_MACHINE at the start */
  TraceChoice in;            /* the choice into it */
  uint64_t node;             /* its trace node (valid below Pb.mat) */
  uint64_t depth;            /* trace length */
  VmChoices ch;
  uint32_t next;             /* next choice to try */
  int expanded;              /* ch is valid */
  int last_enabled;          /* `last` is among ch's machines: switching costs one */
} PbFrame;

/* What the threads share.  Between bounds only thread 0 runs; during a
** bound the fields marked (lock) are written under lock, (atomic) with
** atomics, the rest only read. */
typedef struct PbShared {
  Exhaust x;                 /* what every exhaustive search holds (search_int.h); x.cache: the keys
                                of (State, last machine), x.cache2: the program states' fingerprints */
  StateCache *decided;       /* with red: program states whose set was decided (narrow) */
  StateCache *narrowed;      /* with red: those of them decided to be narrowed */
  TtStore *stores;           /* trace nodes, one store per thread */
  PbList *cur;               /* per thread: its part of this bound's work list */
  uint64_t *wstart;          /* prefix sums of the parts' sizes (nthreads + 1) */
  uint64_t taken;            /* entries handed out (atomic) */
  int64_t bound;
  int stop;                  /* end the bound now: a bug, a stop, a failure (atomic) */
  int done;                  /* no more bounds (thread 0) */
  uint64_t states_all;       /* for progress (atomic) */
} PbShared;

/* One thread's search. */
typedef struct Pb {
  PbShared *sh;
  int id;
  const SearchOptions *o;
  Vm *vm;
  TtStore *store;            /* this thread's trace nodes */
  PbList next;               /* its part of the next bound's work list */
  PbFrame *fr;
  uint64_t sp, cap;          /* stack depth, frames allocated */
  uint64_t mat;              /* frames [0, mat) have their trace node */
  PathSet path;              /* keys on the stack, once the visited set is full */
  int tracking;
  Buf succ;                  /* scratch successor */
  Expansion nx;              /* narrow()'s steps */
  uint64_t iter, reported;
  uint32_t pulse;            /* the pulse last seen (search_stop_due) */
  SearchResult own;          /* this thread's counts with -j N */
  SearchResult *r;           /* where it counts: sh->x.res on one thread, else &own */
} Pb;

enum { PB_GO = 0, PB_STOP = 1 };

/* The visited key of a state reached with machine `last` having run the
** step into it: its fingerprint mixed with last (splitmix64's finaliser),
** so that the same State reached after different machines is two keys. */
static uint64_t pb_key(uint64_t fp, uint32_t last) {
  uint64_t z = fp + 0x9e3779b97f4a7c15ull * ((uint64_t)last + 1);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

/* Every thread sees sh->stop at its next check and leaves the bound. */
static void stop_bound(PbShared *sh) { __atomic_store_n(&sh->stop, 1, __ATOMIC_RELAXED); }

/* An internal failure: msg (a whole line) is printed by the first thread
** that fails only, and the bound stops. */
static void pb_fail(PbShared *sh, const char *msg) {
  pthread_mutex_lock(&sh->x.lock);
  if (!sh->x.failed) fputs(msg, stderr);
  sh->x.failed = 1;
  pthread_mutex_unlock(&sh->x.lock);
  stop_bound(sh);
}

/* A stop from outside (timeout, interrupt, a memory bound): the first
** reason is kept (a static string) for the result's bound text. */
static void pb_stop(PbShared *sh, const char *why) {
  pthread_mutex_lock(&sh->x.lock);
  if (!sh->x.why) sh->x.why = why;
  pthread_mutex_unlock(&sh->x.lock);
  stop_bound(sh);
}

/* Give frames [mat, upto) their trace nodes. */
static void materialize(Pb *p, uint64_t upto) {
  for (uint64_t i = p->mat; i < upto; i++) p->fr[i].node = tt_add(p->store, p->fr[i - 1].node, 0, p->fr[i].in);
  if (upto > p->mat) p->mat = upto;
}

/* Record the bug of the last Vm call (unless another thread recorded one):
** the trace is node's choices, then `extra` if not NULL. */
static void pb_bug(Pb *p, uint64_t node, const TraceChoice *extra) {
  PbShared *sh = p->sh;
  uint64_t n;
  TraceChoice *t = tt_trace(sh->stores, node, extra, &n);
  pthread_mutex_lock(&sh->x.lock);
  if (!sh->x.res->bug && !sh->x.failed) {
    search_record_bug(sh->x.res, p->vm, t, n);
    if (n > sh->x.res->max_depth) sh->x.res->max_depth = n;
  }
  pthread_mutex_unlock(&sh->x.lock);
  free(t);
  stop_bound(sh);
}

/* The memory a work list holds: its entries, its States' pool and its
** costly choices (allocated sizes, not used ones). */
static uint64_t list_bytes(const PbList *l) {
  return l->cap * sizeof(PbWork) + l->states.cap + l->idcap * sizeof(uint32_t);
}

/* Memory outside the caches: this thread's stack, trace store and next
** list, and its share of the current lists (read racily: an estimate). */
static uint64_t frontier_bytes(const Pb *p) {
  const PbShared *sh = p->sh;
  uint64_t b = list_bytes(&p->next) + tt_bytes(p->store), cur = 0;
  for (int t = 0; t < sh->x.nthreads; t++) cur += list_bytes(&sh->cur[t]);
  b += cur / (uint64_t)sh->x.nthreads;
  if (p->sp) b += p->sp * (p->fr[p->sp - 1].state.cap + sizeof(PbFrame) + 64);
  return b;
}

/* Once in a while: timeout, interrupt, memory, progress. */
static int pb_tick(Pb *p) {
  PbShared *sh = p->sh;
  if ((++p->iter & 1023) != 0 && !search_stop_due(p->o, &sh->x.prog, &p->pulse)) return PB_GO;
  if (__atomic_load_n(&sh->stop, __ATOMIC_RELAXED)) return PB_STOP;
  const char *why = NULL;
  if (search_should_stop(p->o, &sh->x.prog, &why)) { pb_stop(sh, why); return PB_STOP; }
  if (frontier_bytes(p) > p->o->frontier_mem / (uint64_t)sh->x.nthreads) {
    pb_stop(sh, "the stack and work lists outgrew the memory set aside for them");
    return PB_STOP;
  }
  __atomic_add_fetch(&sh->states_all, p->r->states - p->reported, __ATOMIC_RELAXED);
  p->reported = p->r->states;
  uint64_t work = sh->wstart[sh->x.nthreads] - __atomic_load_n(&sh->taken, __ATOMIC_RELAXED) + p->next.n;
  if (sh->x.nthreads == 1) {
    progress_tick(&sh->x.prog, p->o, p->r, work, "work");
  } else if (p->id == 0) {
    SearchResult all = {0};
    all.states = sh->x.res->states + __atomic_load_n(&sh->states_all, __ATOMIC_RELAXED);
    all.max_depth = p->r->max_depth;
    progress_tick(&sh->x.prog, p->o, &all, work, "work");
  }
  return PB_GO;
}

/* Put the costly moves of the frame on top of the stack in the next list. */
static void add_work(Pb *p) {
  PbFrame *f = &p->fr[p->sp - 1];
  PbList *l = &p->next;
  materialize(p, p->sp);
  if (l->n == l->cap) {
    l->cap = l->cap ? l->cap * 2 : 256;
    l->w = xrealloc(l->w, l->cap * sizeof *l->w);
  }
  PbWork *w = &l->w[l->n++];
  w->node = f->node;
  w->depth = f->depth;
  w->last = f->last;
  w->state = l->states.len;
  w->len = f->state.len;
  buf_append(&l->states, f->state.data, f->state.len);
  if (l->nids + f->ch.n > l->idcap) {
    while (l->nids + f->ch.n > l->idcap) l->idcap = l->idcap ? l->idcap * 2 : 1024;
    l->ids = xrealloc(l->ids, l->idcap * sizeof *l->ids);
  }
  w->choices = l->nids;
  w->n = 0;
  for (uint32_t i = 0; i < f->ch.n; i++)
    if (f->ch.ids[i] != f->last) { l->ids[l->nids++] = f->ch.ids[i]; w->n++; }
  if (l->nids > p->r->peak_frontier) p->r->peak_frontier = l->nids;
}

/* The successor in p->succ, reached by `choice` with `last` running it: is
** it new?  If so, count its program state; *fp is its fingerprint and
** *key its key. */
static int visit(Pb *p, uint32_t last, uint64_t *fp, uint64_t *key) {
  PbShared *sh = p->sh;
  *fp = state_hash(p->succ.data, p->succ.len);
  *key = pb_key(*fp, last);
  ScResult r = sc_insert(sh->x.cache, *key);
  if (r == SC_SEEN) return 0;
  if (r == SC_FULL) {
    if (!p->tracking) {    /* from now on, keep the stack's keys */
      for (uint64_t i = 0; i < p->sp; i++) ps_add(&p->path, p->fr[i].key);
      p->tracking = 1;
    }
    if (ps_has(&p->path, *key)) return 0;
  }
  if (sc_insert(sh->x.cache2, *fp) != SC_SEEN) {
    p->r->states++;
    if (p->o->visit) p->o->visit(p->o->visit_ctx, (uint8_t *)p->succ.data, p->succ.len);
  }
  return 1;
}

/* Push the state in p->succ (its trace node is set by the caller or later). */
static PbFrame *push(Pb *p, uint64_t fp, uint64_t key, uint32_t last, TraceChoice in, uint64_t depth) {
  if (p->sp == p->cap) {
    uint64_t ncap = p->cap ? p->cap * 2 : 64;
    p->fr = xrealloc(p->fr, ncap * sizeof *p->fr);
    memset(p->fr + p->cap, 0, (ncap - p->cap) * sizeof *p->fr);
    p->cap = ncap;
  }
  PbFrame *f = &p->fr[p->sp++];
  Buf t = f->state; f->state = p->succ; p->succ = t;   /* take the bytes, keep a scratch */
  p->succ.len = 0;
  f->fp = fp;
  f->key = key;
  f->last = last;
  f->in = in;
  f->depth = depth;
  f->expanded = 0;
  f->next = 0;
  if (p->tracking) ps_add(&p->path, key);
  if (depth > p->r->max_depth) p->r->max_depth = depth;
  if (p->sp > p->r->peak_frontier) p->r->peak_frontier = p->sp;
  return f;
}

/* Partial-order reduction (doc/reduction.md): the frame's machines (f->ch,
** just given by vm_choices) narrowed to a persistent set.  A program state
** is expanded once per last machine; the first expansion decides, with the
** proviso, and the later ones follow (sh->decided, sh->narrowed).  The
** proviso fails, and every machine is kept, if a chosen successor's
** program state was already visited, or the program-state cache is full:
** on a cycle of what pb explores, the state decided last finds its
** successor on the cycle visited before, so it keeps every machine.
** (Should the sets be full, or two threads decide at once, a state is
** decided again, or kept whole: more states, never fewer.)  Preemptions
** then count within the set: running another machine of it while the
** last one, also in it, could run; a machine the set leaves out is not
** waited for. */
static void narrow(Pb *p, PbFrame *f) {
  PbShared *sh = p->sh;
  if (!sh->x.red || f->ch.kind != VC_MACHINE || f->ch.n < 2 || f->ch.n > KID_BATCH) return;
  ScResult d = sc_insert(sh->decided, f->fp);
  if (d == SC_SEEN && !sc_contains(sh->narrowed, f->fp)) return;   /* decided: every machine */
  Expansion *x = &p->nx;
  if (!expand_narrow(x, sh->x.red, p->vm, (uint8_t *)f->state.data, f->state.len, &f->ch)) return;
  int widen = d != SC_SEEN && sc_is_full(sh->x.cache2);
  for (uint32_t j = 0; j < x->lim && !widen && d != SC_SEEN; j++)
    if (x->sel[j]) widen = sc_contains(sh->x.cache2, x->fp[j]);
  if (widen) {
    p->r->widened++;
    return;
  }
  if (d != SC_SEEN) sc_insert(sh->narrowed, f->fp);
  p->r->pruned += f->ch.n - x->nsel;
  expand_keep_chosen(x, &f->ch);
}

/* The frame on top is entered: its choices; its costly moves go to the
** next list.  PB_GO, or PB_STOP (a bug or a failure, recorded). */
static int expand_top(Pb *p) {
  PbFrame *f = &p->fr[p->sp - 1];
  VmStatus st = vm_choices(p->vm, (uint8_t *)f->state.data, f->state.len, &f->ch);
  f->expanded = 1;
  f->next = 0;
  f->last_enabled = 0;
  if (st == VM_BAD_STATE) {
    pb_fail(p->sh, "pcheck: internal error: the VM produced a malformed state\n");
    return PB_STOP;
  }
  if (st != VM_OK) {
    materialize(p, p->sp);
    pb_bug(p, f->node, NULL);
    return PB_STOP;
  }
  narrow(p, f);
  if (f->ch.kind == VC_MACHINE && f->last != NO_MACHINE)
    for (uint32_t i = 0; i < f->ch.n; i++)
      if (f->ch.ids[i] == f->last) f->last_enabled = 1;
  if (f->last_enabled && f->ch.n > 1) add_work(p);
  return PB_GO;
}

/* Explore every move of cost 0 from the frame on the stack (the only one). */
static int dfs(Pb *p) {
  while (p->sp > 0) {
    int t = pb_tick(p);
    if (t != PB_GO) return t;
    PbFrame *f = &p->fr[p->sp - 1];
    if (!f->expanded && expand_top(p) != PB_GO) return PB_STOP;
    if (f->next >= f->ch.n) {
      if (p->tracking) ps_remove(&p->path, f->key);
      p->sp--;
      if (p->mat > p->sp) p->mat = p->sp;
      continue;
    }
    uint32_t i = f->next++, choice, last;
    if (f->ch.kind == VC_MACHINE) {
      choice = last = f->ch.ids[i];
      if (f->last_enabled && choice != f->last) continue;   /* a preemption: next bound */
    } else {
      choice = i;
      last = f->ch.machine;
    }
    TraceChoice in = { (uint8_t)f->ch.kind, choice };
    VmStatus st = vm_step(p->vm, (uint8_t *)f->state.data, f->state.len, choice, &p->succ);
    p->r->transitions++;
    if (st != VM_OK) {
      if (st == VM_BAD_STATE) pb_fail(p->sh, "pcheck: internal error: the VM rejected its own choice\n");
      else {
        materialize(p, p->sp);
        pb_bug(p, f->node, &in);
      }
      return PB_STOP;
    }
    uint64_t fp, key;
    if (!visit(p, last, &fp, &key)) continue;
    push(p, fp, key, last, in, f->depth + 1);
  }
  return PB_GO;
}

/* The costly moves of work entry w (state bytes s), each followed by a
** search of the moves of cost 0 from where it leads. */
static int run_entry(Pb *p, const PbList *l, const PbWork *w) {
  const uint8_t *s = (const uint8_t *)l->states.data + w->state;
  for (uint32_t j = 0; j < w->n; j++) {
    int t = pb_tick(p);
    if (t != PB_GO) return t;
    uint32_t choice = l->ids[w->choices + j];
    TraceChoice in = { VC_MACHINE, choice };
    VmStatus st = vm_step(p->vm, s, w->len, choice, &p->succ);
    p->r->transitions++;
    if (st != VM_OK) {
      if (st == VM_BAD_STATE) pb_fail(p->sh, "pcheck: internal error: the VM rejected its own choice\n");
      else pb_bug(p, w->node, &in);
      return PB_STOP;
    }
    uint64_t fp, key;
    if (!visit(p, choice, &fp, &key)) continue;
    PbFrame *f = push(p, fp, key, choice, in, w->depth + 1);
    f->node = tt_add(p->store, w->node, 0, in);
    p->mat = 1;
    t = dfs(p);
    if (t != PB_GO) return t;
  }
  return PB_GO;
}

/* Bound c: the entries of the current lists, taken one at a time. */
static void run_bound(Pb *p) {
  PbShared *sh = p->sh;
  uint64_t total = sh->wstart[sh->x.nthreads];
  int t = 0;
  for (;;) {
    if (__atomic_load_n(&sh->stop, __ATOMIC_RELAXED)) return;
    uint64_t q = __atomic_fetch_add(&sh->taken, 1, __ATOMIC_RELAXED);
    if (q >= total) return;
    while (sh->wstart[t + 1] <= q) t++;
    const PbList *l = &sh->cur[t];
    if (run_entry(p, l, &l->w[q - sh->wstart[t]]) != PB_GO) return;
  }
}

/* Empty the list, keeping its memory for the next bound. */
static void list_clear(PbList *l) {
  l->n = 0;
  l->states.len = 0;
  l->nids = 0;
}

/* Free the list's arrays (l is not reset). */
static void list_fini(PbList *l) {
  free(l->w);
  buf_fini(&l->states);
  free(l->ids);
}

/* Fold each thread's counts into the result. */
static void fold_counts(PbShared *sh, Pb *ps) {
  SearchResult *res = sh->x.res;
  for (int t = 0; t < sh->x.nthreads; t++) {
    Pb *p = &ps[t];
    if (p->r == res) continue;   /* one thread: it counted in res */
    search_fold_counts(res, p->r);
    p->reported = 0;
  }
  sh->states_all = 0;
}

/* Between bounds (thread 0; the others wait): report the bound done,
** then the next bound's lists, or the end (sh->done). */
static void between_bounds(PbShared *sh, Pb *ps, FILE *logf) {
  SearchResult *res = sh->x.res;
  fold_counts(sh, ps);
  sh->done = 1;
  if (sh->x.failed || res->bug || sh->x.why) return;
  res->delays = (uint64_t)sh->bound;
  if (logf) {
    if (!sh->x.o->quiet) fprintf(logf, "pb: complete up to %lld preemptions: %llu states, %.2f s\n", (long long)sh->bound,
            (unsigned long long)res->states, search_now() - sh->x.prog.start);
    fflush(logf);
  }
  uint64_t next_n = 0;
  for (int t = 0; t < sh->x.nthreads; t++) next_n += ps[t].next.n;
  if (next_n == 0) { res->complete = 1; return; }
  if (sh->x.o->max_bound >= 0 && sh->bound >= sh->x.o->max_bound) return;
  sh->wstart[0] = 0;
  for (int t = 0; t < sh->x.nthreads; t++) {
    PbList tmp = sh->cur[t];
    sh->cur[t] = ps[t].next;
    ps[t].next = tmp;
    list_clear(&ps[t].next);
    sh->wstart[t + 1] = sh->wstart[t] + sh->cur[t].n;
  }
  sh->taken = 0;
  sh->bound++;
  res->delays = (uint64_t)sh->bound;
  sh->done = 0;
}

typedef struct PbThread {
  Pb *p, *all;
  FILE *logf;
  int first;                 /* thread 0: bound 0 starts with the initial state on its stack */
} PbThread;

/* A worker: every bound, wait until it is set up, expand (thread 0 starts
** bound 0 from the initial state; later bounds take work list entries),
** wait for the others, and on thread 0 prepare the next bound.  Returns
** once sh->done is set between bounds. */
static void pb_thread(void *arg) {
  PbThread *T = arg;
  Pb *p = T->p;
  PbShared *sh = p->sh;
  for (;;) {
    if (sh->x.nthreads > 1) pthread_barrier_wait(&sh->x.meet);   /* the bound is ready */
    if (sh->done) return;
    if (T->first) {
      T->first = 0;
      dfs(p);
    } else {
      run_bound(p);
    }
    if (sh->x.nthreads > 1) pthread_barrier_wait(&sh->x.meet);   /* everyone is done with it */
    if (p->id == 0) between_bounds(sh, T->all, T->logf);
  }
}

/* Why a search that found no bug is not complete, or NULL (heap). */
static char *bound_text(const PbShared *sh, int stopped) {
  const SearchResult *res = sh->x.res;
  Buf b;
  buf_init(&b);
  long long bound = (long long)sh->bound;
  if (stopped) {
    buf_printf(&b, "%s during bound %lld", sh->x.why ? sh->x.why : "stopped", bound);
    if (bound > 0) buf_printf(&b, " (complete up to %lld preemptions)", bound - 1);
  } else if (!res->complete) {
    buf_printf(&b, "complete up to %lld preemptions", bound);
  } else if (sc_is_full(sh->x.cache) || sc_is_full(sh->x.cache2)) {
    /* Every reachable state was still explored, some more than once. */
    buf_printf(&b, "state cache full at its --mem budget");
  }
  if (b.len) return buf_take(&b);
  buf_fini(&b);
  return NULL;
}

/* SearchOps.run for pb: the shared visited and state caches, per thread a
** Vm, a trace store and a work list, then the bounds (pb_thread) until
** one leaves no work (complete), the highest bound (--max-delays,
** SearchOptions.max_bound), a bug or a stop.  Without a bug, res->bound
** says where it stopped (bound_text).  0, or -1 on an internal failure. */
int search_run_pb(const BcProgram *bc, const VmTest *test, const SearchOptions *o, FILE *logf, SearchResult *res) {
  PbShared shared, *sh = &shared;
  memset(sh, 0, sizeof *sh);
  exhaust_begin(&sh->x, bc, test, o, res, workers_count(o), EX_MEET);
  int n = sh->x.nthreads, rc = -1;
  sh->stores = xcalloc((size_t)n, sizeof *sh->stores);
  sh->cur = xcalloc((size_t)n, sizeof *sh->cur);
  sh->wstart = xcalloc((size_t)n + 1, sizeof *sh->wstart);
  Pb *ps = xcalloc((size_t)n, sizeof *ps);
  PbThread *th = xcalloc((size_t)n, sizeof *th);
  for (int t = 0; t < n; t++) {
    tt_init(&sh->stores[t], t);
    ps[t] = (Pb){ .sh = sh, .id = t, .o = o, .vm = vm_new(bc, test), .store = &sh->stores[t] };
    ps[t].r = n == 1 ? res : &ps[t].own;
    buf_init(&ps[t].succ);
    th[t] = (PbThread){ &ps[t], ps, logf, t == 0 };
  }
  /* The (state, last) keys outnumber the program states: they get three
  ** quarters of the budget. */
  if (!(sh->x.cache = exhaust_cache(&sh->x, o->mem - o->mem / 4)) || !(sh->x.cache2 = exhaust_cache(&sh->x, o->mem / 4)))
    goto out;
  Pb *p0 = &ps[0];
  if (vm_initial(p0->vm, &p0->succ) != VM_OK) {
    search_record_bug(res, p0->vm, NULL, 0);
    rc = 0;
    goto out;
  }
  uint64_t fp = state_hash(p0->succ.data, p0->succ.len), key = pb_key(fp, NO_MACHINE);
  sc_insert(sh->x.cache, key);
  sc_insert(sh->x.cache2, fp);
  res->states = 1;
  if (o->visit) o->visit(o->visit_ctx, (uint8_t *)p0->succ.data, p0->succ.len);
  exhaust_reduce(&sh->x, 0);   /* pb checks no hot cycles: nothing is visible */
  if (sh->x.red) {
    if (!(sh->decided = exhaust_cache(&sh->x, o->mem / 8)) || !(sh->narrowed = exhaust_cache(&sh->x, o->mem / 8))) goto out;
  }
  PbFrame *f = push(p0, fp, key, NO_MACHINE, (TraceChoice){ VC_NONE, 0 }, 0);
  f->node = TT_NONE;
  p0->mat = 1;
  if (workers_run(n, pb_thread, th, sizeof *th) != 0) sh->x.failed = 1;
  fold_counts(sh, ps);
  if (sh->x.failed) goto out;
  if (res->bug && logf)
    fprintf(logf, "pb: bug found at preemption bound %lld after %llu distinct states\n", (long long)sh->bound,
            (unsigned long long)res->states);
  if (!res->bug) {
    int stopped = sh->x.why != NULL;
    res->bound = bound_text(sh, stopped);
    if (res->complete && res->bound) res->complete = 0;
    if (!res->complete && (!stopped || sh->bound > 0)) {
      res->has_proved = 1;
      res->proved = stopped ? (uint64_t)sh->bound - 1 : (uint64_t)sh->bound;
    }
  }
  rc = 0;
out:
  for (int t = 0; t < n; t++) {
    Pb *p = &ps[t];
    for (uint64_t i = 0; i < p->cap; i++) {
      buf_fini(&p->fr[i].state);
      vm_choices_fini(&p->fr[i].ch);
    }
    free(p->fr);
    list_fini(&p->next);
    list_fini(&sh->cur[t]);
    ps_fini(&p->path);
    buf_fini(&p->succ);
    expand_fini(&p->nx);
    vm_free(p->vm);
    tt_fini(&sh->stores[t]);
  }
  free(sh->stores);
  free(sh->cur);
  free(sh->wstart);
  free(ps);
  free(th);
  sc_free(sh->decided);
  sc_free(sh->narrowed);
  exhaust_end(&sh->x);
  return rc;
}
