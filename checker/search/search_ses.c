/* search_ses.c: stratified exhaustive search (doc/algorithms.md, "ses").
** The product of the program and a delaying explorer is searched one delay
** bound (stratum) at a time: a state first reached in stratum db with db
** delays takes the explorer's next choice there; its move j (after j more
** delays) belongs to stratum db + j.  The state cache holds program state
** fingerprints only, so a state met first with one explorer state is not
** explored again with another.
**
** The moves of a state are all made when it is reached (see "Chains"
** below): move 0's successor is looked up at once, move j's is kept in the
** frontier of stratum db + j (its State and explorer bytes, packed in
** chunks freed as that stratum works them off) and looked up then.  This
** visits the states and takes the moves of doc/algorithms.md's definition, in
** another order within a stratum, and loads each State once, as dfs does.
** Once the frontiers outgrow their budget, new entries hold only their
** path (the moves from the initial state, shared in a tree of
** reference-counted nodes) and are re-executed when their stratum comes.
**
** The explorer is checked as it goes: at a state with n enabled machines
** its n answers (next, delay, next, ...) must all differ, or it is unsound
** and the search stops with the state and the machine it never chose.
** Each state where a spec turns hot is handed to the hot-cycle search
** (checker/engine/liveness.c), which searches the program's state graph whatever
** the explorer.
**
** With -j N, the N threads share the state cache and take the entries of
** a stratum one at a time; each has its own explorer, chains and part of
** the later strata's frontiers, and all meet at the end of the stratum.
** A complete search visits every reachable state once and takes every
** move of each once, so it counts exactly the states and transitions of
** one thread; which stratum first reaches a state may depend on timing
** (the per-stratum figures then differ from one thread's). */
#include <config.h>
#include "checker/search/search_int.h"
#include "checker/search/dist.h"
#include "checker/engine/expand.h"
#include "checker/observe/estimate.h"
#include "checker/engine/explorer.h"
#include "checker/engine/liveness.h"
#include "checker/store/pathset.h"
#include "checker/search/search_ck.h"
#include "checker/par/workers.h"
#include <Judy.h>
#include <pthread.h>
#include <sys/mman.h>
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
  uint8_t red;               /* the explorer was offered the state's persistent set (Move.red) */
  uint64_t depth;            /* moves from the initial state, this one included */
} PNode;

/* References are counted atomically: with -j N, threads share paths. */
static PNode *pn_ref(PNode *p) {
  if (p) __atomic_add_fetch(&p->refs, 1, __ATOMIC_RELAXED);
  return p;
}

/* Nodes come from slabs that live until the search ends: a thread takes
** nodes from its own free list (or its slab) and puts the nodes it frees
** on its own list, whichever thread made them, so no list is shared. */
enum { NODE_SLAB = 4096 };
typedef struct NodePool {
  PNode *free;               /* linked through parent */
  PNode *slab;               /* the slab being cut */
  uint32_t used;             /* nodes cut from it */
  PNode **slabs;             /* every slab (freed by np_fini) */
  uint32_t nslabs, cap;
} NodePool;

/* Frees every slab (and so every node, in use or not) and empties P. */
static void np_fini(NodePool *P) {
  for (uint32_t j = 0; j < P->nslabs; j++) free(P->slabs[j]);
  free(P->slabs);
  memset(P, 0, sizeof *P);
}

/* Drop one reference to p; a node whose count reaches 0 goes on P's free
** list (P: the calling thread's pool), and its parent loses a reference
** in turn, up the path.  Counts are atomic: a path may be shared by
** chains and frontier entries of several threads. */
static void pn_unref(NodePool *P, PNode *p) {
  while (p && __atomic_sub_fetch(&p->refs, 1, __ATOMIC_ACQ_REL) == 0) {
    PNode *up = p->parent;
    p->parent = P->free;
    P->free = p;
    p = up;
  }
}

/* A node below parent, at depth (parent's depth + 1, which the caller
** knows: reading it would be a cache miss). */
static PNode *pn_new(NodePool *P, PNode *parent, uint64_t depth, uint8_t kind, uint32_t choice, uint32_t index,
                     uint8_t red) {
  PNode *p = P->free;
  if (p) {
    P->free = p->parent;
  } else {
    if (!P->slab || P->used == NODE_SLAB) {
      if (P->nslabs == P->cap) {
        P->cap = P->cap ? P->cap * 2 : 16;
        P->slabs = xrealloc(P->slabs, P->cap * sizeof *P->slabs);
      }
      P->slab = P->slabs[P->nslabs++] = xmalloc(NODE_SLAB * sizeof *P->slab);
      P->used = 0;
    }
    p = &P->slab[P->used++];
  }
  p->parent = pn_ref(parent);
  p->refs = 1;
  p->kind = kind;
  p->choice = choice;
  p->index = index;
  p->red = red;
  p->depth = depth;
  return p;
}

/* A move not (yet) in a PNode: the choice and its index at its state (the
** delays taken there before it). */
typedef struct Move {
  uint8_t kind;              /* VC_MACHINE or VC_DATA */
  uint32_t choice, index;
  uint8_t red;               /* VC_MACHINE: the explorer was offered the machines of the state's
                                persistent set (expand_narrow), not all enabled ones: re-executing
                                the move narrows them again (the same set: it depends on the state) */
} Move;

/* A frontier entry: a move whose successor is looked up when its stratum
** comes (see "Chains").  Its bytes (in a chunk) are the successor State,
** the explorer state after the move, and, when liveness is checked, the
** hot specs of the state the move leaves (8 bytes).  The path is that of
** the state the move leaves, shared by all its entries: a PNode is made
** for the successor only if it is new and needs one. */
typedef struct FItem {
  PNode *path;               /* moves to the state the move leaves (owned reference; NULL: the initial state) */
  uint8_t *bytes;            /* as above, or NULL: re-execute from the initial state */
  uint32_t slen, dlen;
  uint32_t chunk;            /* the chunk holding bytes */
  Move mv;                   /* the move */
  uint64_t fp;               /* the successor's fingerprint */
  uint64_t depth;            /* moves from the initial state to the successor (without reading the path) */
  uint8_t checked;           /* no move: the entry is the initial state, already in the cache and counted */
  uint8_t redo;              /* the move failed: make it again to report the failure (no bytes) */
} FItem;

/* Entries' bytes are packed into large chunks, filled in order and freed
** in order as the next stratum consumes the entries: no allocation per
** entry, and memory returns as the frontier is worked off. */
enum { CHUNK_BYTES = 2u << 20 };   /* at most; a 64th of --frontier-mem when that is less */

/* A frontier's entries lie in blocks of IB_ITEMS, not in one array: it
** grows without copying, and a worked-off frontier's blocks serve the next
** ones (fresh memory costs a page fault per page, and on a virtual machine
** the host's work behind it). */
enum { IB_SHIFT = 12, IB_ITEMS = 1u << IB_SHIFT };

typedef struct Frontier {
  FItem **blk;               /* blk[i >> IB_SHIFT][i & (IB_ITEMS - 1)] is entry i */
  uint32_t nblk, blk_cap;
  uint64_t n;                /* entries (room for nblk * IB_ITEMS) */
  uint64_t bytes;            /* bytes held by items */
  uint8_t **chunks;          /* NULL once freed */
  size_t *sizes;             /* bytes of each chunk */
  uint32_t nchunks, chunks_cap;
  size_t used;               /* bytes used in the last chunk */
  size_t last_size;          /* its size */
} Frontier;

/* Memory for chunks: from 2 MiB on, aligned and marked
** for transparent huge pages (a hint), so that filling it takes a page
** fault per 2 MiB instead of per 4 KiB.  Freed with free(). */
static void *big_alloc(size_t bytes) {
  if (bytes < (2u << 20)) return xmalloc(bytes);
  void *p = NULL;
  size_t sz = (bytes + (2u << 20) - 1) & ~(size_t)((2u << 20) - 1);
  if (posix_memalign(&p, 2u << 20, sz) != 0) return xmalloc(bytes);
#ifdef MADV_HUGEPAGE
  madvise(p, sz, MADV_HUGEPAGE);
#endif
  return p;
}

/* Chunks and entry blocks of worked-off frontiers, kept for the next ones
** (fresh memory costs a page fault per page).  One per thread. */
typedef struct ChunkPool {
  uint8_t **free;
  size_t size;               /* bytes of each pooled chunk */
  uint32_t n, cap;
  FItem **blks;              /* entry blocks (IB_ITEMS entries each) */
  uint32_t nblks, blks_cap;
} ChunkPool;

/* Entry i of F. */
static inline FItem *fitem(const Frontier *F, uint64_t i) { return &F->blk[i >> IB_SHIFT][i & (IB_ITEMS - 1)]; }

/* One more block of entries for F, from the pool if it has one. */
static void frontier_grow(Frontier *F, ChunkPool *P) {
  if (F->nblk == F->blk_cap) {
    F->blk_cap = F->blk_cap ? F->blk_cap * 2 : 4;
    F->blk = xrealloc(F->blk, F->blk_cap * sizeof *F->blk);
  }
  F->blk[F->nblk++] = P->nblks ? P->blks[--P->nblks] : xmalloc(IB_ITEMS * sizeof(FItem));
}

/* F's blocks go back to the pool. */
static void blocks_put(ChunkPool *P, Frontier *F) {
  if (P->nblks + F->nblk > P->blks_cap) {
    while (P->nblks + F->nblk > P->blks_cap) P->blks_cap = P->blks_cap ? P->blks_cap * 2 : 16;
    P->blks = xrealloc(P->blks, P->blks_cap * sizeof *P->blks);
  }
  for (uint32_t b = 0; b < F->nblk; b++) P->blks[P->nblks++] = F->blk[b];
  free(F->blk);
}

/* Give a frontier chunk back: kept for reuse when it has the pool's size
** and fewer than 64 are kept, else freed.  NULL is ignored. */
static void chunk_put(ChunkPool *P, uint8_t *c, size_t size) {
  if (!c) return;
  if (size != P->size || P->n == 64) { free(c); return; }
  if (P->n == P->cap) {
    P->cap = P->cap ? P->cap * 2 : 8;
    P->free = xrealloc(P->free, P->cap * sizeof *P->free);
  }
  P->free[P->n++] = c;
}

/* Frees the kept blocks and chunks and empties P. */
static void chunk_pool_fini(ChunkPool *P) {
  for (uint32_t b = 0; b < P->nblks; b++) free(P->blks[b]);
  free(P->blks);
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
    F->chunks[F->nchunks++] = F->last_size == P->size && P->n ? P->free[--P->n] : big_alloc(F->last_size);
    F->used = 0;
  }
  *chunk = F->nchunks - 1;
  uint8_t *p = F->chunks[F->nchunks - 1] + F->used;
  F->used += sz;
  return p;
}

/* What the threads share.  Between strata only thread 0 runs; during a
** stratum the fields marked (lock) are written under lock, those marked
** (atomic) with atomics, and the rest are only read. */
typedef struct SesShared {
  Exhaust x;                 /* what every exhaustive search holds (search_int.h) */
  int live_busy;             /* live_pending(live), as last seen under lock (atomic) */
  int64_t live_upto;         /* every start of strata 0 .. live_upto searched for hot cycles (lock) */
  uint64_t db;               /* the delay bound of this stratum */
  uint64_t bug_db;           /* the delays of the bug's execution (lock; a failing move j of a state of
                                this stratum is reported at once, with db + j delays) */
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
  EstLayers strata;          /* the new states of each stratum searched */
  uint64_t states0;          /* states when the stratum started */
} SesShared;

/* ---- Chains ----
** Every state is searched first in the stratum that reaches it, with the
** delays used to reach it: there it may take only the explorer's next
** choice; its move j (after j more delays) belongs to stratum db + j.
** When a state is reached, all its moves are made at once (the explorer's
** answers next, delay, next, ... and a step each, from one load of the
** State, as dfs expands a state): the successor of move 0 is looked up at
** once, and the successor of move j is kept, with its explorer state and
** fingerprint, as an entry of the frontier of stratum db + j, looked up
** when that stratum comes.  So the search from an entry is a chain: the
** entry's successor if it is new, then the move-0 successor of each new
** state, until one is not new.
** A thread works SES_BATCH chains in lockstep: a round makes the moves of
** each chain's new state, or takes a frontier entry, and prefetches the
** cache slot of the successor to look up; then it looks all of them up,
** so that the lookups' misses overlap (as dfs's batches do).  Chains of
** one thread run in a fixed order, so one thread's search is
** deterministic; which chain reaches a state first decides the explorer
** state it is searched with, as the order of entries does (doc/algorithms.md
** accepts either).
** A move whose answer, step or explorer update fails is not reported
** when the state is expanded but in the stratum the move belongs to (a
** "redo" entry: the state is re-executed and the move made again there),
** so that failures come in the order of their delays. */
enum { SES_BATCH = 16 };

typedef struct Chain {
  NodePool *np;              /* the thread's */
  int busy;                  /* a chain is in this slot */
  FItem *ent;                /* a frontier entry to look up this round (or NULL) */
  int ent_part;              /* the part of the stratum's entries that holds it */
  int cand;                  /* a successor to look up this round: ent's, or the move in c->mv */
  PNode *node;               /* path to a state of the chain (owned reference; NULL: the initial state) */
  Move *pend;                /* the moves from node's state to the current state */
  uint32_t npend, pend_cap;
  uint64_t depth;            /* moves from the initial state to the current state */
  Buf state;                 /* the current state, new: its moves are made next */
  uint64_t fp;
  uint64_t hot, parent_hot;  /* specs hot in the state, and in the state before it (liveness) */
  Buf d;                     /* explorer state: on arrival, then after its answers */
  VmChoices ch;              /* the state's choices */
  uint8_t *taken;            /* VC_MACHINE: which choices the explorer gave at the state */
  uint32_t taken_cap;
  uint32_t i;                /* the move being made (for messages) */
  /* Move 0, in flight between the two halves of a round. */
  Move mv;
  Buf succ;                  /* its successor */
  Buf kid_d;                 /* the explorer state after it */
  uint64_t kid_fp;
  uint64_t kid_cool;         /* specs that entered a cold state on move 0 (liveness: a start, doc/liveness.md 3.3) */
  PathSet path;              /* with a full cache: the chain's states not stored in it */
} Chain;

/* A later move of the state being expanded: its successor's bytes in
** Ses.tmp (off, slen) and explorer bytes in Ses.tmp_d (doff, dlen). */
typedef struct Later {
  Move mv;
  uint64_t fp;
  uint64_t off, doff;
  uint32_t slen, dlen;
  uint64_t cooled;           /* specs that entered a cold state on the move */
} Later;

/* One thread's search. */
typedef struct Ses {
  SesShared *sh;
  int id;
  const SearchOptions *o;
  Vm *vm;
  Explorer *ex;
  Chain ch[SES_BATCH];
  Frontier *fut;             /* this thread's parts of the frontiers of strata db+1, db+2, ... */
  uint32_t nfut, fut_cap;
  uint64_t fut_bytes;        /* memory they hold */
  uint64_t fut_n;            /* entries they hold */
  uint64_t beyond;           /* moves past --max-delays, not kept */
  SearchResult own;          /* this thread's counts, with -j N (folded into sh->x.res between strata) */
  SearchResult *r;           /* where it counts: sh->x.res on one thread (a portfolio member's work is
                                read there as it goes), else &own */
  uint64_t new_states;       /* in this stratum */
  uint64_t skipped;
  uint64_t reported;         /* states added to sh->states_all */
  uint64_t next_tick;        /* transitions at which periodic() runs next (0 at the start: at once) */
  uint32_t pulse;            /* the pulse last seen (search_stop_due) */
  uint64_t live_credit;      /* -j N: steps owed to the hot-cycle search (check_hot) */
  Buf tmp, tmp_d;            /* the successors of a state's later moves, and their explorer states */
  Buf kd;                    /* one of those explorer states, being made */
  Later *later;              /* where each is (nlater of them) */
  uint32_t nlater, later_cap;
  ChunkPool pool;            /* frontier chunks for reuse */
  Expansion nx;              /* narrow()'s steps */
  NodePool nodes;            /* path nodes (kept until the search ends: sampling reads them) */
  /* Drain points within a stratum (one thread; see DRAIN_ENTRIES): */
  int drain;                 /* take no more entries until the chains in flight have ended */
  const char *drain_stop;    /* stop there, after a checkpoint, for this reason (NULL: go on) */
} Ses;

static void stop_stratum(SesShared *sh) { __atomic_store_n(&sh->stop, 1, __ATOMIC_RELAXED); }

/* Does the search write checkpoints within strata (one thread, --checkpoint)? */
static int ses_checkpoints(const SesShared *sh) { return sh->x.nthreads == 1 && sh->x.o->ck && sh->x.o->ck->path; }

/* On one thread, a stratum's chains are drained after every DRAIN_ENTRIES
** entries it takes (no entry is taken until the chains in flight have
** ended): there every entry taken is searched in full and none after it
** touched, which is what a checkpoint saves.  The points are the same in
** every run, checkpoints or not, so a run resumed from one goes on as the
** run that was never stopped: the chains take the same entries in the
** same order.  (Draining costs the lockstep of a batch's last chains
** once per DRAIN_ENTRIES entries.) */
enum { DRAIN_ENTRIES = 1 << 14 };

/* The first bug or failure recorded stays (lock held). */
static int outcome_taken(const SesShared *sh) { return sh->x.res->bug || sh->x.res->error || sh->internal; }

/* The chain's pending moves become PNodes: c->node is then the path to
** the current state. */
static PNode *chain_node(Chain *c) {
  for (uint32_t j = 0; j < c->npend; j++) {
    PNode *p = pn_new(c->np, c->node, c->depth - c->npend + j + 1, c->pend[j].kind, c->pend[j].choice, c->pend[j].index,
                      c->pend[j].red);
    pn_unref(c->np, c->node);
    c->node = p;
  }
  c->npend = 0;
  return c->node;
}

/* The choices from the initial state to the chain's state, then `extra`. */
static TraceChoice *chain_trace(const Chain *c, const Move *extra, uint64_t *n) {
  uint64_t len = c->depth + (extra ? 1 : 0), j = c->depth - c->npend;
  TraceChoice *t = xcalloc(len ? len : 1, sizeof *t);
  for (const PNode *p = c->node; p; p = p->parent) {
    j--;
    t[j].kind = p->kind;
    t[j].value = p->choice;
  }
  for (uint32_t q = 0; q < c->npend; q++) {
    t[c->depth - c->npend + q].kind = c->pend[q].kind;
    t[c->depth - c->npend + q].value = c->pend[q].choice;
  }
  if (extra) {
    t[len - 1].kind = extra->kind;
    t[len - 1].value = extra->choice;
  }
  *n = len;
  return t;
}

/* Record the bug of the last Vm call at the chain's state then `extra`,
** found with `delays` delays, unless another outcome came first; then
** the stratum stops. */
static void record_bug(Ses *S, const Chain *c, const Move *extra, uint64_t delays) {
  SesShared *sh = S->sh;
  uint64_t n;
  TraceChoice *t = chain_trace(c, extra, &n);
  pthread_mutex_lock(&sh->x.lock);
  if (!outcome_taken(sh)) {
    search_record_bug(sh->x.res, S->vm, t, n);
    sh->bug_db = delays;
  }
  pthread_mutex_unlock(&sh->x.lock);
  free(t);
  stop_stratum(sh);
}

/* Stop with a failure of the explorer (not a bug of the model), at the
** chain's state then `extra`. */
static void explorer_failed(Ses *S, const Chain *c, const Move *extra, const char *msg) {
  SesShared *sh = S->sh;
  pthread_mutex_lock(&sh->x.lock);
  if (!outcome_taken(sh)) {
    SearchResult *r = sh->x.res;
    r->error = xstrdup(msg);
    free(r->trace);
    r->trace = chain_trace(c, extra, &r->ntrace);
    sh->x.failed = 1;
  }
  pthread_mutex_unlock(&sh->x.lock);
  stop_stratum(sh);
}

/* An internal error (msg, if any, is printed once). */
static void internal_error(SesShared *sh, const char *msg) {
  pthread_mutex_lock(&sh->x.lock);
  if (!sh->internal && msg) fputs(msg, stderr);
  sh->internal = 1;
  pthread_mutex_unlock(&sh->x.lock);
  stop_stratum(sh);
}

/* A stop from outside: the first reason is kept; the stratum stops. */
static void set_why(SesShared *sh, const char *why) {
  pthread_mutex_lock(&sh->x.lock);
  if (!sh->x.why) sh->x.why = why;
  pthread_mutex_unlock(&sh->x.lock);
  stop_stratum(sh);
}

/* The slot is free again (its buffers are kept for the next chain). */
static void chain_end(Chain *c) {
  pn_unref(c->np, c->node);
  c->node = NULL;
  c->npend = 0;
  if (c->path.cap) ps_fini(&c->path);
  c->busy = c->cand = 0;
  c->ent = NULL;
}

/* chain_end, then the chain's own buffers are freed too. */
static void chain_fini(Chain *c) {
  chain_end(c);
  buf_fini(&c->state);
  buf_fini(&c->d);
  buf_fini(&c->succ);
  buf_fini(&c->kid_d);
  vm_choices_fini(&c->ch);
  free(c->taken);
  free(c->pend);
}

/* The thread's part of the frontier of stratum db + 1 + off. */
static Frontier *future(Ses *S, uint32_t off) {
  if (off >= S->fut_cap) {
    uint32_t nc = S->fut_cap ? S->fut_cap : 8;
    while (nc <= off) nc *= 2;
    S->fut = xrealloc(S->fut, nc * sizeof *S->fut);
    memset(S->fut + S->fut_cap, 0, (nc - S->fut_cap) * sizeof *S->fut);
    S->fut_cap = nc;
  }
  if (off >= S->nfut) S->nfut = off + 1;
  return &S->fut[off];
}

/* Add an entry to F: move mv (NULL: none, the initial state) from the
** state at `path` (a new reference is taken), its successor (s, slen;
** fingerprint fp; depth moves from the initial state), the explorer bytes
** after it (d, dlen), and the hot specs of the state it leaves (kept with
** liveness).  Its bytes are kept if the thread's frontiers stay within
** budget, else (or with s NULL: a redo entry) only its path: it is then
** re-executed from the initial state when its stratum comes, and 0 is
** returned. */
static int frontier_push(Ses *S, Frontier *F, PNode *path, const Move *mv, uint64_t depth, uint64_t fp,
                         const void *s, uint32_t slen, const void *d, uint32_t dlen, uint64_t hot, uint64_t budget) {
  if (F->n == (uint64_t)F->nblk << IB_SHIFT) {
    frontier_grow(F, &S->pool);
    S->fut_bytes += IB_ITEMS * sizeof(FItem);
  }
  FItem *it = fitem(F, F->n++);
  S->fut_n++;
  memset(it, 0, sizeof *it);
  it->path = pn_ref(path);
  it->depth = depth;
  if (mv) it->mv = *mv;
  else it->checked = 1;
  it->fp = fp;
  it->slen = slen;
  it->dlen = dlen;
  uint32_t hl = S->sh->x.live ? 8 : 0;
  uint64_t sz = (uint64_t)slen + dlen + hl;
  if (!s || S->fut_bytes + sz > budget) {
    it->bytes = NULL;
    if (s) __atomic_store_n(&S->sh->frontier_full, 1, __ATOMIC_RELAXED);
    return 0;
  }
  uint8_t *p = it->bytes = frontier_alloc(F, &S->pool, sz ? sz : 1, &it->chunk);
  memcpy(p, s, slen);
  if (dlen) memcpy(p + slen, d, dlen);
  if (hl) memcpy(p + slen + dlen, &hot, 8);
  F->bytes += sz;
  S->fut_bytes += sz;
  return 1;
}

/* Release every entry's path, return the chunks and blocks to the pools
** and empty F. */
static void frontier_free(Frontier *F, ChunkPool *P, NodePool *NP) {
  for (uint64_t i = 0; i < F->n; i++) pn_unref(NP, fitem(F, i)->path);
  for (uint32_t c = 0; c < F->nchunks; c++) chunk_put(P, F->chunks[c], F->sizes[c]);
  free(F->chunks);
  free(F->sizes);
  blocks_put(P, F);
  memset(F, 0, sizeof *F);
}

/* Room for n taken flags, all clear. */
static void taken_reset(Chain *c, uint32_t n) {
  if (c->taken_cap < n) {
    c->taken = xrealloc(c->taken, n);
    c->taken_cap = n;
  }
  memset(c->taken, 0, n);
}

/* The explorer's answer at the chain's state for move c->i (a delay
** first, unless it is move 0), checked: not given before at this state.
** 0; -1: the explorer failed; -2: it gave a machine again (unsound).
** Nothing is recorded. */
static int explorer_answer(Ses *S, Chain *c, uint32_t *out) {
  explorer_set_names(S->ex, S->vm);
  if (c->i > 0 && ex_delay(S->ex, &c->d) != 0) return -1;
  if (ex_next(S->ex, &c->d, c->ch.ids, c->ch.n, out) != 0) return -1;
  uint32_t lo = 0, hi = c->ch.n;
  while (lo < hi) {
    uint32_t mid = lo + (hi - lo) / 2;
    if (c->ch.ids[mid] < *out) lo = mid + 1;
    else hi = mid;
  }
  /* ex_next answers an enabled machine (it checks). */
  if (c->taken[lo]) return -2;
  c->taken[lo] = 1;
  return 0;
}

/* Record the failure explorer_answer() returned (rc) for move c->i. */
static void answer_failed(Ses *S, Chain *c, int rc, uint32_t out) {
  if (rc == -1) { explorer_failed(S, c, NULL, explorer_error(S->ex)); return; }
  /* Reload this state so that machine names are right in the message. */
  VmChoices tmp = {0};
  vm_choices(S->vm, (uint8_t *)c->state.data, c->state.len, &tmp);
  vm_choices_fini(&tmp);
  Buf b;
  buf_init(&b);
  buf_printf(&b, "explorer '%s' is unsound: after %u delay(s) at a state with %u enabled machines it chose '%s' "
             "again; never chosen there:", explorer_name(S->ex), c->i, c->ch.n, vm_machine_text(S->vm, out));
  for (uint32_t j = 0, q = 0; j < c->ch.n; j++)
    if (!c->taken[j]) buf_printf(&b, "%s '%s'", q++ ? "," : "", vm_machine_text(S->vm, c->ch.ids[j]));
  explorer_failed(S, c, NULL, b.data);
  buf_fini(&b);
}

/* ---- The hot-cycle search ----
** It goes at ses's pace (checker/engine/liveness.h): each state where a spec
** turns hot is offered to it as a start, and each state ses expands pays
** it as many steps as ses makes there (its moves, plus one), so that it
** does at most about as much work as ses while starts are queued, and a
** safety bug is found as soon as ses alone would find it (about twice the
** work at most).  With -j N it is used under sh->x.lock, one thread at a
** time, so each thread pays an N-th of its steps (the search then takes
** about as long as ses's threads take, in all), a batch at a time
** (LIVE_BATCH).  At the search's end it is
** drained; a delay bound counts as proved (res->proved) only once every
** start of the strata up to it has been searched (sh->live_upto). */
enum { LIVE_BATCH = 256 };

/* What the hot-cycle search returned (the lock held, with -j N): a cycle
** found is recorded; the strata up to live_upto are searched when it has
** nothing pending. */
static void live_note(SesShared *sh, LiveResult lr) {
  if (lr == LIVE_FOUND && !outcome_taken(sh)) live_record(sh->x.live, sh->x.res);
  int busy = live_pending(sh->x.live);
  __atomic_store_n(&sh->live_busy, busy, __ATOMIC_RELAXED);
  if (!busy && (int64_t)sh->db - 1 > sh->live_upto) sh->live_upto = (int64_t)sh->db - 1;
}

/* After live_note, without the lock: 0 to go on, 1 to stop (the stratum
** stopped, or, one thread with checkpoints, stopping at the next drain
** point, as periodic() does). */
static int live_act(Ses *S, LiveResult lr, const char *why) {
  SesShared *sh = S->sh;
  if (lr == LIVE_NONE) return 0;
  if (lr == LIVE_ERROR) internal_error(sh, NULL);
  else if (lr == LIVE_STOPPED && ses_checkpoints(sh)) { S->drain_stop = why; return 0; }
  else if (lr == LIVE_STOPPED) set_why(sh, why);
  else stop_stratum(sh);
  return 1;
}

/* The chain's new state: offered as a start for the specs that turn hot
** there (hot cycles through it that no earlier state led to, searched in
** the program's state graph whatever the explorer), then the search paid
** for expanding it.  0 to go on, 1 to stop (recorded). */
static int check_hot(Ses *S, Chain *c) {
  SesShared *sh = S->sh;
  uint64_t turned = c->hot & ~c->parent_hot, steps = c->ch.n + 1;
  int locked = sh->x.nthreads > 1;
  const char *why = NULL;
  LiveResult lr = LIVE_NONE;
  if (turned) {
    uint64_t n;
    TraceChoice *t = chain_trace(c, NULL, &n);
    if (locked) pthread_mutex_lock(&sh->x.lock);
    lr = live_offer(sh->x.live, (uint8_t *)c->state.data, c->state.len, c->fp, turned, t, n, &sh->x.prog, &why);
    live_note(sh, lr);
    if (locked) pthread_mutex_unlock(&sh->x.lock);
    free(t);
    if (lr != LIVE_NONE) return live_act(S, lr, why);
  }
  if (!locked) {
    if (!live_pending(sh->x.live)) return 0;
    lr = live_work(sh->x.live, steps, &sh->x.prog, &why);
    live_note(sh, lr);
    return live_act(S, lr, why);
  }
  /* Steps are not saved up while nothing is pending. */
  if (!__atomic_load_n(&sh->live_busy, __ATOMIC_RELAXED)) { S->live_credit = 0; return 0; }
  if ((S->live_credit += steps) < LIVE_BATCH * (uint64_t)sh->x.nthreads) return 0;
  pthread_mutex_lock(&sh->x.lock);
  lr = live_work(sh->x.live, S->live_credit / (uint64_t)sh->x.nthreads, &sh->x.prog, &why);
  live_note(sh, lr);
  pthread_mutex_unlock(&sh->x.lock);
  S->live_credit = 0;
  return live_act(S, lr, why);
}

/* At the search's end (thread 0, between strata): every start searched.
** 0 when done, 1 for a bug or a stop (recorded), -1 on an internal
** error. */
static int live_drain(SesShared *sh) {
  const char *why = NULL;
  LiveResult lr = live_work(sh->x.live, LIVE_ALL, &sh->x.prog, &why);
  live_note(sh, lr);
  if (lr == LIVE_ERROR) sh->internal = 1;
  if (lr == LIVE_STOPPED) sh->x.why = why;
  return lr == LIVE_NONE ? 0 : lr == LIVE_ERROR ? -1 : 1;
}

/* The next delay bound's estimate into r: next new states (<= 0:
** unknown), at the rate so far (states in el seconds). */
static void set_next(SearchResult *r, uint64_t db, double next, uint64_t states, double el) {
  r->est_next_bound = -1;
  if (next <= 0 || el <= 0 || !states) return;
  r->est_next_bound = (int64_t)db + 1;
  r->est_next_states = next;
  r->est_next_seconds = next / ((double)states / el);
}

/* The estimates (thread 0), into r: the reachable states; the stratum
** being searched from the part of its entries handed out (Eta's estimator
** at a root whose children are the entries), and the next delay bound's
** new states and time from the trend of the strata. */
static void ses_estimate(SesShared *sh, uint64_t states, SearchResult *r) {
  double el = search_now() - sh->x.prog.start;
  sampler_update(sh->x.est, sh->x.cache, states, el, 0, r);
  double todo = (double)sh->wstart[sh->x.nthreads], done = (double)__atomic_load_n(&sh->taken, __ATOMIC_RELAXED);
  double part = (double)(states - sh->states0);
  if (done <= 0 || todo <= 0) return;
  double cur = done < todo ? part * todo / done : part;
  set_next(r, sh->db, layers_next(&sh->strata, cur), states, el);
}

/* Every 1024 transitions: stop requests and the progress line.  1 to stop. */
static int periodic(Ses *S) {
  SesShared *sh = S->sh;
  const char *why = NULL;
  S->next_tick = S->r->transitions + 1024;
  if (__atomic_load_n(&sh->stop, __ATOMIC_RELAXED)) return 1;
  __atomic_add_fetch(&sh->states_all, S->r->states - S->reported, __ATOMIC_RELAXED);
  S->reported = S->r->states;
  if (sh->x.nthreads == 1) {
    ses_estimate(sh, sh->x.res->states, sh->x.res);
    progress_tick(&sh->x.prog, S->o, sh->x.res, S->fut_n, "frontier");
  } else if (S->id == 0) {
    SearchResult all = {0};
    all.states = sh->x.res->states + __atomic_load_n(&sh->states_all, __ATOMIC_RELAXED);
    all.max_depth = S->r->max_depth > sh->x.res->max_depth ? S->r->max_depth : sh->x.res->max_depth;
    ses_estimate(sh, all.states, &all);
    progress_tick(&sh->x.prog, S->o, &all, S->fut_n, "frontier");
  }
  if (search_should_stop(S->o, &sh->x.prog, &why)) {
    /* One thread with checkpoints stops at the next drain point
    ** (run_stratum), after writing one there. */
    if (!ses_checkpoints(sh)) {
      set_why(sh, why);
      return 1;
    }
    S->drain_stop = why;
  }
  return 0;
}

/* Move j >= 1 failed (its answer, step or explorer update): a redo entry
** in its stratum reports it there. */
static void defer_failure(Ses *S, Chain *c, const Move *mv) {
  Frontier *F = future(S, mv->index - 1);
  frontier_push(S, F, chain_node(c), mv, c->depth + 1, 0, NULL, 0, NULL, 0, 0, 0);
  fitem(F, F->n - 1)->redo = 1;
}

/* The later moves just made go to their strata's frontiers, but for those
** whose successor is already in the state cache: it will still be there
** when their stratum comes (the cache forgets nothing; a full one refuses
** new states), so looking it up then could only find it seen.  (A
** successor dfs has finished is skipped, and counted, as is_new() does.) */
static void keep_later(Ses *S, Chain *c, uint64_t budget) {
  for (uint32_t q = 0; q < S->nlater; q++) {
    const Later *l = &S->later[q];
    if (S->o->finished && sc_contains(S->o->finished, l->fp)) { S->skipped++; continue; }
    if (sc_contains(S->sh->x.cache, l->fp)) continue;
    frontier_push(S, future(S, l->mv.index - 1), chain_node(c), &l->mv, c->depth + 1, l->fp,
                  (uint8_t *)S->tmp.data + l->off, l->slen, (uint8_t *)S->tmp_d.data + l->doff, l->dlen,
                  c->hot & ~l->cooled, budget);
  }
}

/* Partial-order reduction (doc/reduction.md): the chain's state's
** machines (c->ch, just given by vm_choices) narrowed to a persistent set,
** which the explorer then chooses from, so that a delay passes over a
** machine of that set.  The cycle proviso: not if a chosen successor may
** have been expanded already (it is in the state cache, or dfs has
** finished it, or the cache is full): on a cycle of the reduced graph,
** the state expanded last finds its successor on the cycle there.  1 if
** c->ch was narrowed. */
static int narrow(Ses *S, Chain *c) {
  SesShared *sh = S->sh;
  Expansion *x = &S->nx;
  if (!expand_narrow(x, sh->x.red, S->vm, (uint8_t *)c->state.data, c->state.len, &c->ch)) return 0;
  int widen = sc_is_full(sh->x.cache);
  for (uint32_t j = 0; j < x->lim && !widen; j++)
    if (x->sel[j])
      widen = sc_contains(sh->x.cache, x->fp[j]) || (S->o->finished && sc_contains(S->o->finished, x->fp[j]));
  if (widen) {
    S->r->widened++;
    return 0;
  }
  S->r->pruned += c->ch.n - x->nsel;
  expand_keep_chosen(x, &c->ch);
  return 1;
}

/* Re-executing a move whose state was narrowed: the same narrowing (no
** proviso: the search's decision is recorded in the move).  0 if it did
** not narrow (an internal error for the caller). */
static int renarrow(Ses *S, Chain *c) {
  return expand_renarrow(&S->nx, S->sh->x.red, S->vm, (uint8_t *)c->state.data, c->state.len, &c->ch);
}

/* Make every move of the chain's new state (see "Chains"): move 0's
** successor goes to c->succ (looked up in this round's second half), move
** j's to the frontier of stratum db + j.  0 when move 0 is in flight, 1
** when the chain ends (no move), -1 to stop (recorded). */
static int chain_expand(Ses *S, Chain *c) {
  SesShared *sh = S->sh;
  const SearchOptions *o = S->o;
  if (o->visit) o->visit(o->visit_ctx, (uint8_t *)c->state.data, c->state.len);   /* each new state, once */
  if (sh->x.live) c->hot = vm_hot_specs(S->vm, (uint8_t *)c->state.data, c->state.len);
  VmStatus st = vm_choices(S->vm, (uint8_t *)c->state.data, c->state.len, &c->ch);
  if (st == VM_BAD_STATE) {
    internal_error(sh, "pcheck: internal error: the VM produced a malformed state\n");
    return -1;
  }
  if (st != VM_OK) { record_bug(S, c, NULL, sh->db); return -1; }
  if (sh->x.live && check_hot(S, c)) return -1;
  if (c->ch.n == 0) return 1;
  int machine = c->ch.kind == VC_MACHINE;
  uint8_t red = machine && narrow(S, c);   /* the explorer chooses among a persistent set */
  if (machine) taken_reset(c, c->ch.n);
  uint64_t budget = o->frontier_mem / 2 / (uint64_t)sh->x.nthreads;
  for (uint32_t j = 0; j < c->ch.n; j++) {
    if (j > 0 && o->max_delays >= 0 && sh->db + j > (uint64_t)o->max_delays) {
      S->beyond += c->ch.n - j;   /* never searched: they would need more delays than allowed */
      break;
    }
    c->i = j;
    uint32_t choice = j;
    if (machine) {
      int rc = explorer_answer(S, c, &choice);
      if (rc != 0) {
        if (j == 0) { answer_failed(S, c, rc, choice); return -1; }
        Move m = { (uint8_t)c->ch.kind, choice, j, red };
        defer_failure(S, c, &m);
        break;
      }
    }
    Move mv = { (uint8_t)c->ch.kind, choice, j, red };
    /* Move 0's successor in the chain's buffers; the others one after
    ** another in S->tmp (explorer bytes in S->tmp_d), kept below. */
    Buf *out = j == 0 ? &c->succ : &S->tmp, *od = j == 0 ? &c->kid_d : &S->kd;
    if (j == 0) {
      out->len = 0;
      S->tmp.len = S->tmp_d.len = 0;
      S->nlater = 0;
    }
    uint64_t at = out->len;
    /* Every step starts from the State vm_choices loaded. */
    st = vm_step_expand(S->vm, (uint8_t *)c->state.data, c->state.len, choice, out);
    uint64_t cooled = vm_cooled_specs(S->vm);
    S->r->transitions++;
    if (st == VM_BAD_STATE) {
      internal_error(sh, "pcheck: internal error: the VM rejected its own choice\n");
      return -1;
    }
    if (st != VM_OK) {
      /* A step that fails is a bug wherever it is: found now, it is
      ** reported now, with the delays its execution takes (db + j), rather
      ** than when stratum db + j comes, which an endless stratum db never
      ** lets come (doc/reduction.md, "Endless paths"). */
      record_bug(S, c, &mv, sh->db + j);
      return -1;
    }
    od->len = 0;
    buf_append_fast(od, c->d.data, c->d.len);
    uint32_t nev;
    const VmEvent *ev = vm_events(S->vm, &nev);
    if (ex_step(S->ex, od, ev, nev) != 0) {
      if (j == 0) { explorer_failed(S, c, &mv, explorer_error(S->ex)); return -1; }
      defer_failure(S, c, &mv);
      break;
    }
    uint64_t fp = state_hash(out->data + at, out->len - at);
    sc_prefetch(sh->x.cache, fp);
    if (j == 0) {
      c->mv = mv;
      c->kid_fp = fp;
      c->kid_cool = cooled;
      continue;
    }
    if (S->nlater == S->later_cap) {
      S->later_cap = S->later_cap ? S->later_cap * 2 : 16;
      S->later = xrealloc(S->later, S->later_cap * sizeof *S->later);
    }
    S->later[S->nlater++] =
        (Later){ mv, fp, at, S->tmp_d.len, (uint32_t)(out->len - at), (uint32_t)od->len, cooled };
    buf_append_fast(&S->tmp_d, od->data, od->len);
  }
  keep_later(S, c, budget);
  return 0;
}

/* Is the successor (fingerprint fp) new, to be searched?  Counts it. */
static int is_new(Ses *S, Chain *c, uint64_t fp) {
  if (S->o->finished && sc_contains(S->o->finished, fp)) {
    S->skipped++;   /* dfs has searched everything from it */
    return 0;
  }
  if (c->path.cap && ps_has(&c->path, fp)) return 0;
  ScResult ins = sc_insert(S->sh->x.cache, fp);
  if (ins == SC_SEEN) return 0;
  /* A full cache does not store it: the chain keeps it, so as not to go
  ** round a cycle for ever. */
  if (ins == SC_FULL) ps_add(&c->path, fp);
  S->r->states++;
  S->new_states++;
  return 1;
}

/* Move mv leads from the chain's state to its next one (depth + 1). */
static void pend_push(Chain *c, const Move *mv) {
  if (c->npend == c->pend_cap) {
    c->pend_cap = c->pend_cap ? c->pend_cap * 2 : 16;
    c->pend = xrealloc(c->pend, c->pend_cap * sizeof *c->pend);
  }
  c->pend[c->npend++] = *mv;
  c->depth++;
}

/* The chain's move 0 was looked up: its successor becomes the chain's
** state (1), or the chain ends (0). */
static int chain_advance(Ses *S, Chain *c) {
  if (!is_new(S, c, c->kid_fp)) return 0;
  pend_push(c, &c->mv);
  if (c->depth > S->r->max_depth) S->r->max_depth = c->depth;
  Buf t = c->state; c->state = c->succ; c->succ = t;
  t = c->d; c->d = c->kid_d; c->kid_d = t;
  c->fp = c->kid_fp;
  c->parent_hot = c->hot & ~c->kid_cool;   /* a spec cooled on the way turns hot again */
  return 1;
}

/* Re-execute `path`, then `extra` (if not NULL), from the initial state
** into the chain's state and explorer state, asking the explorer as the search did.  0 or -1 (an
** internal error, recorded). */
static int reexecute(Ses *S, const PNode *path, const Move *extra, Chain *c) {
  uint64_t n = (path ? path->depth : 0) + (extra ? 1 : 0);
  Move *moves = xcalloc(n ? n : 1, sizeof *moves);
  uint64_t j = n;
  if (extra) moves[--j] = *extra;
  for (const PNode *p = path; p; p = p->parent) moves[--j] = (Move){ p->kind, p->choice, p->index, p->red };
  int rc = -1;
  if (vm_initial(S->vm, &c->state) != VM_OK) goto out;
  uint32_t nev;
  const VmEvent *ev = vm_events(S->vm, &nev);
  if (ex_init(S->ex, S->o->seed, ev, nev, &c->d) != 0) goto out;
  for (j = 0; j < n; j++) {
    const Move *m = &moves[j];
    if (vm_choices(S->vm, (uint8_t *)c->state.data, c->state.len, &c->ch) != VM_OK || c->ch.kind != m->kind) goto out;
    if (m->red && !renarrow(S, c)) goto out;
    uint32_t v = m->index;
    if (c->ch.kind == VC_MACHINE) {
      for (uint32_t r = 0; r <= m->index; r++) {
        if (ex_next(S->ex, &c->d, c->ch.ids, c->ch.n, &v) != 0) goto out;
        if (r < m->index && ex_delay(S->ex, &c->d) != 0) goto out;
      }
      if (v != m->choice) goto out;
    }
    if (vm_step(S->vm, (uint8_t *)c->state.data, c->state.len, v, &c->succ) != VM_OK) goto out;
    ev = vm_events(S->vm, &nev);
    if (ex_step(S->ex, &c->d, ev, nev) != 0) goto out;
    Buf t = c->state; c->state = c->succ; c->succ = t;
  }
  rc = 0;
out:
  free(moves);
  if (rc != 0)
    internal_error(S->sh, "pcheck: internal error: re-executing a frontier entry did not reach the same state\n");
  return rc;
}

/* A redo entry: re-execute its state, make its moves up to the failing
** one again, and record the failure.  Always -1 (stop). */
static int redo(Ses *S, Chain *c, const FItem *it) {
  if (reexecute(S, c->node, NULL, c) != 0) return -1;
  c->hot = 0;
  uint32_t last = it->mv.index;
  if (vm_choices(S->vm, (uint8_t *)c->state.data, c->state.len, &c->ch) != VM_OK) goto lost;
  if (it->mv.red && !renarrow(S, c)) goto lost;
  if (last >= c->ch.n) goto lost;
  if (c->ch.kind == VC_MACHINE) taken_reset(c, c->ch.n);
  for (uint32_t j = 0; j <= last; j++) {
    c->i = j;
    uint32_t choice = j;
    if (c->ch.kind == VC_MACHINE) {
      int rc = explorer_answer(S, c, &choice);
      if (rc != 0) { answer_failed(S, c, rc, choice); return -1; }
    }
    if (j < last) continue;
    Move mv = { (uint8_t)c->ch.kind, choice, j, it->mv.red };
    /* Not counted: the expansion that deferred the failure counted the step. */
    VmStatus st = vm_step(S->vm, (uint8_t *)c->state.data, c->state.len, choice, &c->succ);
    if (st == VM_BAD_STATE) goto lost;
    if (st != VM_OK) { record_bug(S, c, &mv, S->sh->db); return -1; }
    c->kid_d.len = 0;
    buf_append(&c->kid_d, c->d.data, c->d.len);
    uint32_t nev;
    const VmEvent *ev = vm_events(S->vm, &nev);
    if (ex_step(S->ex, &c->kid_d, ev, nev) != 0) { explorer_failed(S, c, &mv, explorer_error(S->ex)); return -1; }
  }
lost:
  internal_error(S->sh, "pcheck: internal error: a move that failed did not fail again when re-executed\n");
  return -1;
}

/* Slot c takes frontier entry it (of the stratum's part `part`): a redo
** entry is handled now (-1: stop); otherwise its successor is looked up in
** this round's second half (0). */
static int chain_take(Ses *S, Chain *c, FItem *it, int part) {
  c->busy = 1;
  c->node = it->path;
  it->path = NULL;
  /* chain_end will drop the reference: the node, made strata ago, is
  ** fetched now rather than then. */
  if (c->node) __builtin_prefetch(c->node, 1);
  c->npend = 0;
  c->depth = it->depth - (it->checked ? 0 : 1);
  if (it->redo) return redo(S, c, it);
  if (!it->checked) {
    /* The chain's state will be the move's successor, if it is new. */
    pend_push(c, &it->mv);
  }
  c->ent = it;
  c->ent_part = part;
  c->cand = 1;
  sc_prefetch(S->sh->x.cache, it->fp);
  return 0;
}

/* Frontier entry c->ent was looked up: if its state is new, it becomes the
** chain's state (1), else the chain ends (0); -1 to stop (recorded). */
static int entry_advance(Ses *S, Chain *c) {
  FItem *it = c->ent;
  c->ent = NULL;
  c->fp = it->fp;
  c->hot = c->parent_hot = 0;
  int rc = 0;
  if (it->checked) rc = 1;   /* the initial state, counted */
  else if (is_new(S, c, it->fp)) rc = 1;
  if (rc == 1) {
    if (c->depth > S->r->max_depth) S->r->max_depth = c->depth;
    if (it->bytes) {
      c->state.len = 0;
      buf_append(&c->state, it->bytes, it->slen);
      c->d.len = 0;
      buf_append(&c->d, it->bytes + it->slen, it->dlen);
      if (S->sh->x.live) memcpy(&c->parent_hot, it->bytes + it->slen + it->dlen, 8);
    } else if (reexecute(S, c->node, c->npend ? &c->pend[0] : NULL, c) != 0) {
      rc = -1;
    }
  }
  /* A chunk whose entries are all taken goes back (path-only entries hold
  ** none). */
  SesShared *sh = S->sh;
  if (it->bytes) {
    uint32_t k = it->chunk;
    if (__atomic_sub_fetch(&sh->chunk_left[c->ent_part][k], 1, __ATOMIC_ACQ_REL) == 0) {
      Frontier *W = &sh->work[c->ent_part];
      chunk_put(&S->pool, W->chunks[k], W->sizes[k]);
      W->chunks[k] = NULL;
    }
    it->bytes = NULL;
  }
  return rc;
}

/* SES, then SS (doc/algorithms.md, "ses"): once the state cache or the frontier has
** reached its memory budget, ses stops stratifying and samples executions
** from the frontier entries it has not searched, with ss's delay-bounded
** sampling (search_ss.c).  Each entry is a root: a sample replays the
** entry's path, applies the delay the entry waits for, and inserts more
** delays at uniformly chosen points after it. */
typedef struct RootSet {
  PNode **paths;             /* each root's path (owned references; NULL: the initial state) */
  uint32_t *resume;          /* the moves its state already took */
  uint8_t *red;              /* its state's moves were made among a persistent set (Move.red) */
  uint8_t *extra;            /* 1: a root of the next stratum (one delay more than the stratum's) */
  uint64_t n;
  uint64_t *slot;            /* open addressing over paths (index + 1; 0: empty), cap entries */
  uint64_t cap;
} RootSet;

/* SsRoots.get for roots taken from ses's frontier: the moves of root r's
** path, from the initial state on, into *moves (grown to fit, *cap its
** size), with the moves the root's state already took and whether they
** were made in a persistent set; returns the number of moves. */
static uint64_t root_get(const SsRoots *R, uint64_t r, SsMove **moves, uint64_t *cap, uint32_t *resume,
                         uint8_t *narrowed) {
  const RootSet *rs = R->ctx;
  const PNode *p = rs->paths[r];
  uint64_t n = p ? p->depth : 0;
  if (n > *cap) {
    *cap = n;
    *moves = xrealloc(*moves, n * sizeof **moves);
  }
  uint64_t j = n;
  for (; p; p = p->parent) {
    j--;
    (*moves)[j].kind = p->kind;
    (*moves)[j].choice = p->choice;
    (*moves)[j].index = p->index;
    (*moves)[j].red = p->red;
  }
  *resume = rs->resume[r];
  *narrowed = rs->red[r];
  return n;
}

static uint64_t root_hash(const PNode *p) { return ((uintptr_t)p + 1) * 0x9e3779b97f4a7c15ull; }

/* The entries of F from index `from` on become roots.  A root is a state
** with the moves it took (resume): the sample applies the delays of those
** moves, then the one it waits for, as ses would make its next move (the
** old form of a frontier entry: doc/algorithms.md).  An entry (move j of state P)
** becomes root (P, j); a state with several entries is one root, with its
** first move left, whose sampling covers its later moves. */
static void roots_add(RootSet *rs, const Frontier *F, uint64_t from, uint8_t extra) {
  for (uint64_t i = from; i < F->n; i++) {
    const FItem *it = fitem(F, i);
    uint32_t resume = it->checked ? 0 : it->mv.index;
    if (2 * (rs->n + 1) > rs->cap) {
      /* Grow the table and the arrays together. */
      uint64_t nc = rs->cap ? rs->cap * 2 : 1024;
      free(rs->slot);
      rs->slot = xcalloc(nc, sizeof *rs->slot);
      rs->cap = nc;
      rs->paths = xrealloc(rs->paths, nc / 2 * sizeof *rs->paths);
      rs->resume = xrealloc(rs->resume, nc / 2 * sizeof *rs->resume);
      rs->extra = xrealloc(rs->extra, nc / 2);
      rs->red = xrealloc(rs->red, nc / 2);
      for (uint64_t r = 0; r < rs->n; r++) {
        uint64_t h = root_hash(rs->paths[r]) & (nc - 1);
        while (rs->slot[h]) h = (h + 1) & (nc - 1);
        rs->slot[h] = r + 1;
      }
    }
    uint64_t h = root_hash(it->path) & (rs->cap - 1);
    while (rs->slot[h] && rs->paths[rs->slot[h] - 1] != it->path) h = (h + 1) & (rs->cap - 1);
    if (rs->slot[h]) {
      uint64_t r = rs->slot[h] - 1;
      if (resume < rs->resume[r]) { rs->resume[r] = resume; rs->extra[r] = extra; }
      continue;
    }
    rs->slot[h] = rs->n + 1;
    rs->paths[rs->n] = pn_ref(it->path);
    rs->extra[rs->n] = extra;
    rs->red[rs->n] = it->checked ? 0 : it->mv.red;
    rs->resume[rs->n++] = resume;
  }
}

/* Should ses turn to sampling now (between frontier entries)? */
static int memory_short(SesShared *sh) {
  return !sh->x.o->no_sampling && (__atomic_load_n(&sh->frontier_full, __ATOMIC_RELAXED) || sc_is_full(sh->x.cache));
}

/* Free the thread's frontiers of later strata. */
static void futures_free(Ses *S) {
  for (uint32_t f = 0; f < S->fut_cap; f++) frontier_free(&S->fut[f], &S->pool, &S->nodes);
  free(S->fut);
  S->fut = NULL;
  S->nfut = S->fut_cap = 0;
  S->fut_bytes = S->fut_n = 0;
}

/* Free every part of the stratum's entries (thread 0, between strata). */
static void work_free(SesShared *sh, Ses *ws) {
  for (int t = 0; t < sh->x.nthreads; t++) {
    frontier_free(&sh->work[t], &ws[t].pool, &ws[t].nodes);
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
  SearchResult *res = sh->x.res, sub = {0};
  RootSet rs = {0};
  for (int t = 0; t < sh->x.nthreads; t++)
    roots_add(&rs, &sh->work[t], from > sh->wstart[t] ? from - sh->wstart[t] : 0, 0);
  /* The next frontier is searched only within --max-delays. */
  if (sh->x.o->max_delays < 0 || sh->db < (uint64_t)sh->x.o->max_delays)
    for (int t = 0; t < sh->x.nthreads; t++)
      if (ws[t].nfut) roots_add(&rs, &ws[t].fut[0], 0, 1);   /* later strata's entries are later moves of these */
  long long proved = (long long)sh->db - (stratum_done ? 0 : 1);   /* strata 0..proved were searched in full */
  if (sh->x.live && proved > sh->live_upto) proved = sh->live_upto;   /* and their hot cycles */
  progress_done(&sh->x.prog, sh->x.o);
  fprintf(logf, "ses: the %s reached its budget at delay bound %llu after %llu distinct states: sampling from %llu "
          "frontier states (SES then SS)\n", sc_is_full(sh->x.cache) ? "state cache" : "frontier",
          (unsigned long long)sh->db, (unsigned long long)res->states, (unsigned long long)rs.n);
  fflush(logf);
  search_cache_figures(res, sh->x.cache, NULL);
  work_free(sh, ws);
  for (int t = 0; t < sh->x.nthreads; t++) {
    futures_free(&ws[t]);
    chunk_pool_fini(&ws[t].pool);
  }
  sc_free(sh->x.cache);
  sh->x.cache = NULL;
  sh->sampled = 1;
  int rc = 0;
  if (rs.n) {
    SsRoots R = { rs.n, sh->db, &rs, root_get, rs.extra, sh->x.red };
    rc = ss_sample(sh->x.bc, sh->x.test, sh->x.o, logf, &R, sh->x.prog.start, &sub);
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
  for (uint64_t i = 0; i < rs.n; i++) pn_unref(&ws[0].nodes, rs.paths[i]);
  free(rs.paths);
  free(rs.slot);
  free(rs.extra);
  free(rs.red);
  free(rs.resume);
  return rc;
}

/* ---- Checkpoints (checker/search/search_ck.h) ----
** Written when the next stratum's entries are ready (any -j), and, on one
** thread, within a stratum: its chains are drained first (no entry is
** taken until the chains in flight have ended), so that every entry
** before sh->taken is searched in full and none after it is touched.
** Section "ses": u64 the stratum, u64 its new states so far, u64 threads,
** u8 whether entries carry hot specs (liveness), u64 the number of path
** nodes, u64 live_upto + 1.  Section "sesnodes": the path nodes that the
** entries reach (each: u64 parent's number or UINT64_MAX, u8 kind, u32
** choice, u32 index, u8 red, u64 depth), parents first.  Section "sesents": per thread: u64
** moves past --max-delays, u32 frontiers (the rest of the stratum's
** entries, then those of each later stratum), and in each: u64 entries,
** each u64 path node (UINT64_MAX: none), u8 flags (1 checked, 2 redo, 4
** bytes kept), the move (u8 kind, u32 choice, u32 index, u8 red), u64
** fingerprint, u64 depth, u32 State and u32 explorer lengths, and with
** flag 4 those bytes (and the 8 of hot specs); then u32 strata sizes and
** each (f64), for the estimate of the next stratum.  Section "cache". */

enum { FL_CHECKED = 1, FL_REDO = 2, FL_BYTES = 4 };

/* The number of path node p (numbering it and its unnumbered ancestors,
** parents first, into out); UINT64_MAX for NULL. */
static uint64_t node_number(Pvoid_t *ids, uint64_t *count, Buf *out, const PNode *p) {
  if (!p) return UINT64_MAX;
  Word_t *v;
  JLG(v, *ids, (Word_t)p);
  if (v) return *v - 1;
  uint64_t parent = node_number(ids, count, out, p->parent);
  ck_put_u64(out, parent);
  ck_put_u8(out, p->kind);
  ck_put_u32(out, p->choice);
  ck_put_u32(out, p->index);
  ck_put_u8(out, p->red);
  ck_put_u64(out, p->depth);
  JLI(v, *ids, (Word_t)p);
  *v = ++*count;
  return *count - 1;
}

/* Entries from..F->n - 1 of F into b, their nodes into nodes. */
static void put_frontier(Buf *b, const Frontier *F, uint64_t from, Pvoid_t *ids, uint64_t *count, Buf *nodes,
                         uint32_t hl) {
  ck_put_u64(b, F->n > from ? F->n - from : 0);
  for (uint64_t i = from; i < F->n; i++) {
    const FItem *it = fitem(F, i);
    ck_put_u64(b, node_number(ids, count, nodes, it->path));
    ck_put_u8(b, (uint8_t)((it->checked ? FL_CHECKED : 0) | (it->redo ? FL_REDO : 0) | (it->bytes ? FL_BYTES : 0)));
    ck_put_u8(b, it->mv.kind);
    ck_put_u32(b, it->mv.choice);
    ck_put_u32(b, it->mv.index);
    ck_put_u8(b, it->mv.red);
    ck_put_u64(b, it->fp);
    ck_put_u64(b, it->depth);
    ck_put_u32(b, it->slen);
    ck_put_u32(b, it->dlen);
    if (it->bytes) buf_append(b, it->bytes, (size_t)it->slen + it->dlen + hl);
  }
}

/* Write a checkpoint: the stratum's entries from sh->taken on (the next
** stratum's, all of them, between strata), the later strata's, the cache.
** Thread 0, the others waiting (or none). */
static void ses_checkpoint(SesShared *sh, Ses *ws) {
  ck_begin(sh->x.o);
  uint32_t hl = sh->x.live ? 8 : 0;
  Pvoid_t ids = NULL;
  uint64_t count = 0, news = 0, want = 64;
  Buf nodes, ent;
  buf_init(&nodes);
  buf_init(&ent);
  for (int t = 0; t < sh->x.nthreads; t++) {   /* room for the entries at once: no copy as they grow */
    want += sh->work[t].n * 43 + sh->work[t].bytes;
    for (uint32_t f = 0; f < ws[t].nfut; f++) want += ws[t].fut[f].n * 43 + ws[t].fut[f].bytes;
  }
  buf_reserve(&ent, (size_t)want);
  for (int t = 0; t < sh->x.nthreads; t++) {
    Ses *S = &ws[t];
    news += S->new_states;
    ck_put_u64(&ent, S->beyond);
    ck_put_u32(&ent, S->nfut + 1);
    uint64_t from = sh->taken > sh->wstart[t] ? sh->taken - sh->wstart[t] : 0;
    put_frontier(&ent, &sh->work[t], from, &ids, &count, &nodes, hl);
    for (uint32_t f = 0; f < S->nfut; f++) put_frontier(&ent, &S->fut[f], 0, &ids, &count, &nodes, hl);
  }
  ck_put_u32(&ent, sh->strata.n);
  for (uint32_t i = 0; i < sh->strata.n; i++) ck_put_f64(&ent, sh->strata.size[i]);
  Word_t freed;
  JLFA(freed, ids);
  (void)freed;
  Buf b;
  buf_init(&b);
  ck_put_u64(&b, sh->db);
  ck_put_u64(&b, news);
  ck_put_u64(&b, (uint64_t)sh->x.nthreads);
  ck_put_u8(&b, (uint8_t)hl);
  ck_put_u64(&b, count);
  ck_put_u64(&b, (uint64_t)(sh->live_upto + 1));
  Checkpoint c;
  ck_init(&c);
  ck_add_buf(&c, "ses", &b);
  ck_add_buf(&c, "sesnodes", &nodes);
  ck_add_buf(&c, "sesents", &ent);
  /* The figures: on several threads, folded at the stratum's end. */
  ck_finish(sh->x.o, &c, sh->x.cache, sh->x.live, sh->x.res, sh->x.bc, sh->x.test, search_now() - sh->x.prog.start);
}

/* A frontier as put_frontier wrote it, into F of thread S (its nodes
** numbered in node[0..nn)).  0, or -1 if malformed. */
static int get_frontier(CkIn *r, Ses *S, Frontier *F, PNode **node, uint64_t nn, uint32_t hl) {
  uint64_t n = ck_get_u64(r);
  for (uint64_t i = 0; i < n && r->ok; i++) {
    uint64_t pid = ck_get_u64(r);
    uint8_t fl = ck_get_u8(r);
    Move mv = { 0 };
    mv.kind = ck_get_u8(r);
    mv.choice = ck_get_u32(r);
    mv.index = ck_get_u32(r);
    mv.red = ck_get_u8(r);
    uint64_t fp = ck_get_u64(r), depth = ck_get_u64(r);
    uint32_t slen = ck_get_u32(r), dlen = ck_get_u32(r);
    if (!r->ok || (pid != UINT64_MAX && pid >= nn) || fl > 7) return -1;
    const uint8_t *bytes = NULL;
    uint64_t hot = 0;
    if (fl & FL_BYTES) {
      uint64_t sz = (uint64_t)slen + dlen + hl;
      if (sz > (uint64_t)(r->end - r->p) || !vm_state_valid(S->vm, r->p, slen)) return -1;
      bytes = r->p;
      if (hl) memcpy(&hot, bytes + slen + dlen, 8);
      r->p += sz;
    }
    PNode *path = pid == UINT64_MAX ? NULL : node[pid];
    frontier_push(S, F, path, (fl & FL_CHECKED) ? NULL : &mv, depth, fp, bytes, slen, bytes ? bytes + slen : NULL,
                  dlen, hot, UINT64_MAX);
    FItem *it = fitem(F, F->n - 1);
    it->redo = (fl & FL_REDO) != 0;
    it->slen = slen;
    it->dlen = dlen;
  }
  return r->ok ? 0 : -1;
}

/* Resuming: the strata to come as the checkpoint left them (the rest of
** the stratum first, as every thread's first later frontier, which
** next_becomes_work makes the stratum's entries), and the cache.  0, or
** -1 (said) if it does not fit. */
static int ses_restore(SesShared *sh, Ses *ws) {
  const SearchOptions *o = sh->x.o;
  const Checkpoint *from = ck_from(o);
  CkIn r = ck_in(from, "ses");
  sh->db = ck_get_u64(&r);
  uint64_t news = ck_get_u64(&r), nt = ck_get_u64(&r);
  uint32_t hl = ck_get_u8(&r);
  uint64_t nn = ck_get_u64(&r);
  sh->live_upto = (int64_t)ck_get_u64(&r) - 1;
  if (!ck_in_done(&r) || sh->live_upto > (int64_t)sh->db) return ck_bad(o, "its strata");
  r = ck_in(from, "sesnodes");
  if (!r.ok || nt != (uint64_t)sh->x.nthreads || hl != (sh->x.live ? 8u : 0u) || nn != (uint64_t)(r.end - r.p) / 26)
    return ck_bad(o, "its strata");
  PNode **node = xmalloc((size_t)(nn ? nn : 1) * sizeof *node);
  uint64_t made = 0;
  int rc = 0;
  for (; made < nn && r.ok; made++) {
    uint64_t parent = ck_get_u64(&r);
    uint8_t kind = ck_get_u8(&r);
    uint32_t choice = ck_get_u32(&r), index = ck_get_u32(&r);
    uint8_t red = ck_get_u8(&r);
    uint64_t depth = ck_get_u64(&r);
    if (!r.ok || (parent != UINT64_MAX && parent >= made)) break;
    node[made] = pn_new(&ws[0].nodes, parent == UINT64_MAX ? NULL : node[parent], depth, kind, choice, index, red);
  }
  if (made < nn || !ck_in_done(&r)) rc = -1;
  r = ck_in(from, "sesents");
  for (int t = 0; t < sh->x.nthreads && !rc; t++) {
    Ses *S = &ws[t];
    S->beyond = ck_get_u64(&r);
    uint32_t nf = ck_get_u32(&r);
    if (!r.ok || nf == 0 || nf > (uint64_t)(r.end - r.p) / 8) { rc = -1; break; }
    for (uint32_t f = 0; f < nf && !rc; f++)
      if (get_frontier(&r, S, future(S, f), node, made, hl) != 0) rc = -1;
  }
  uint32_t ns = rc ? 0 : ck_get_u32(&r);
  for (uint32_t i = 0; i < ns && r.ok; i++) layers_add(&sh->strata, ck_get_f64(&r));
  if (!rc && !ck_in_done(&r)) rc = -1;
  /* The entries hold their references now: the numbering's go. */
  for (uint64_t i = 0; i < made; i++) pn_unref(&ws[0].nodes, node[i]);
  free(node);
  if (rc) return ck_bad(o, "its strata");
  ws[0].new_states = news;
  if (!(sh->x.cache = ck_get_cache(o, "cache", o->mem, "no state cache", 0))) rc = -1;
  return rc;
}

/* ---- Strata ---- */

/* Entry q of the stratum's sequence: its part and index there. */
static FItem *entry_at(SesShared *sh, uint64_t q, int *part, uint64_t *idx) {
  int t = 0;
  while (sh->wstart[t + 1] <= q) t++;
  *part = t;
  *idx = q - sh->wstart[t];
  return fitem(&sh->work[t], *idx);
}

/* Slot c takes the stratum's next entry.  1 when it did; 0 when no entry
** is left for this thread (none, the stratum stops, or memory ran short:
** the entries not taken are then sampled, SES then SS); -1 to stop
** (recorded). */
static int take_entry(Ses *S, Chain *c) {
  SesShared *sh = S->sh;
  uint64_t total = sh->wstart[sh->x.nthreads];
  if (__atomic_load_n(&sh->stop, __ATOMIC_RELAXED) || __atomic_load_n(&sh->short_mem, __ATOMIC_RELAXED)) return 0;
  if (sh->db > 0 && memory_short(sh)) {
    /* The entries already taken gave their chunks back; the rest become
    ** roots. */
    __atomic_store_n(&sh->short_mem, 1, __ATOMIC_RELAXED);
    return 0;
  }
  uint64_t q = __atomic_fetch_add(&sh->taken, 1, __ATOMIC_RELAXED);
  if (q >= total) return 0;
  int part;
  uint64_t idx;
  FItem *it = entry_at(sh, q, &part, &idx);
  /* The chain will write its path node's count (when it ends, or when a
  ** node is made below it), after a round's moves. */
  if (it->path) __builtin_prefetch(it->path, 1);
  if (chain_take(S, c, it, part) != 0) return -1;
  return 1;
}

/* Search the stratum's entries, SES_BATCH chains at a time (see "Chains"),
** until none is left or the stratum stops. */
static void run_stratum(Ses *S) {
  int more = 1;              /* entries may be left */
  /* S->next_tick is not reset here: strata of fewer than 1024 transitions
  ** each must still reach periodic() (its stop flag, --timeout, Ctrl-C). */
  for (;;) {
    /* First half: free slots take entries, the others make their moves. */
    uint32_t active = 0;
    for (uint32_t j = 0; j < SES_BATCH; j++) {
      Chain *c = &S->ch[j];
      if (!c->busy && more && !S->drain) {
        int rc = take_entry(S, c);
        if (rc < 0) goto stop;
        if (rc == 0) more = 0;
        else if (S->sh->x.nthreads == 1 && S->sh->taken % DRAIN_ENTRIES == 0) S->drain = 1;
      } else if (c->busy) {
        int rc = chain_expand(S, c);
        if (rc < 0) goto stop;
        if (rc > 0) chain_end(c);
        else c->cand = 1;
      }
      active += (uint32_t)c->busy;
    }
    if (!active && S->drain) {   /* a drain point: every entry taken is searched in full */
      S->drain = 0;
      if (ses_checkpoints(S->sh) && (S->drain_stop || ck_due(S->o))) ses_checkpoint(S->sh, S);
      if (S->drain_stop) {
        set_why(S->sh, S->drain_stop);
        return;
      }
      continue;
    }
    if (!active) return;   /* the stratum's entries are done (the next stratum is a drain point too) */
    /* Second half: the lookups. */
    for (uint32_t j = 0; j < SES_BATCH; j++) {
      Chain *c = &S->ch[j];
      if (!c->cand) continue;
      c->cand = 0;
      int rc = c->ent ? entry_advance(S, c) : chain_advance(S, c);
      if (rc < 0) goto stop;
      if (rc == 0) chain_end(c);
    }
    if ((S->r->transitions >= S->next_tick || search_stop_due(S->o, &S->sh->x.prog, &S->pulse)) && periodic(S)) goto stop;
  }
stop:
  for (uint32_t j = 0; j < SES_BATCH; j++)
    if (S->ch[j].busy) chain_end(&S->ch[j]);
}

/* The threads' parts of the next frontier become the stratum's entries
** (the old entries are freed first). */
static void next_becomes_work(SesShared *sh, Ses *ws) {
  work_free(sh, ws);
  sh->wstart[0] = 0;
  for (int t = 0; t < sh->x.nthreads; t++) {
    Frontier *F = &sh->work[t];
    Ses *S = &ws[t];
    if (S->nfut) {
      *F = S->fut[0];
      memmove(S->fut, S->fut + 1, (S->nfut - 1) * sizeof *S->fut);
      memset(&S->fut[--S->nfut], 0, sizeof *S->fut);
      S->fut_bytes -= F->bytes + ((uint64_t)F->nblk << IB_SHIFT) * sizeof(FItem);
      S->fut_n -= F->n;
    } else {
      memset(F, 0, sizeof *F);
    }
    sh->wstart[t + 1] = sh->wstart[t] + F->n;
    sh->chunk_left[t] = xcalloc(F->nchunks ? F->nchunks : 1, sizeof(uint32_t));
    for (uint64_t i = 0; i < F->n; i++)
      if (fitem(F, i)->bytes) sh->chunk_left[t][fitem(F, i)->chunk]++;
  }
  sh->taken = 0;
}

/* Fold each thread's counts into the result. */
static void fold_counts(SesShared *sh, Ses *ws) {
  SearchResult *res = sh->x.res;
  for (int t = 0; t < sh->x.nthreads; t++) {
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
  SearchResult *res = sh->x.res;
  const SearchOptions *o = sh->x.o;
  uint64_t next_n = 0, new_states = 0, beyond = 0;
  fold_counts(sh, ws);
  for (int t = 0; t < sh->x.nthreads; t++) {
    next_n += ws[t].fut_n;   /* every later stratum's entries */
    beyond += ws[t].beyond;
    new_states += ws[t].new_states;
    ws[t].new_states = 0;
  }
  if (next_n > res->peak_frontier) res->peak_frontier = next_n;
  sh->done = 1;
  if (sh->internal) return -1;
  if (sh->x.failed || res->bug || sh->x.why) return 0;
  if (sh->short_mem) {
    /* Memory ran short within the stratum: the entries not taken, and the
    ** next frontier, are sampled. */
    uint64_t taken = sh->taken < sh->wstart[sh->x.nthreads] ? sh->taken : sh->wstart[sh->x.nthreads];
    return sample_frontier(sh, ws, taken, 0, logf);
  }
  layers_add(&sh->strata, (double)new_states);
  sh->states0 = res->states;
  progress_done(&sh->x.prog, o);
  if (!sh->x.o->quiet) fprintf(logf, "ses: delay bound %llu: %llu new states, frontier %llu, %.2f s\n", (unsigned long long)sh->db,
          (unsigned long long)new_states, (unsigned long long)next_n, search_now() - sh->t0);
  fflush(logf);
  res->delays = sh->db;
  /* The last stratum: the hot-cycle search finishes before the end is
  ** told (complete, or proved up to db). */
  int last = next_n == 0 || (o->max_delays >= 0 && sh->db >= (uint64_t)o->max_delays);
  if (last && sh->x.live) {
    int rc = live_drain(sh);
    if (rc) return rc < 0 ? -1 : 0;
  }
  if (!live_pending(sh->x.live)) sh->live_upto = (int64_t)sh->db;
  if (next_n == 0 && beyond == 0) {
    if (sh->skipped) {
      /* Every state is one ses searched or one dfs finished: count the union. */
      uint64_t more = sc_count_absent(o->finished, sh->x.cache);
      fprintf(logf, "ses: %llu states skipped, finished by dfs: %llu states in all\n",
              (unsigned long long)sh->skipped, (unsigned long long)(res->states + more));
      res->states += more;
    }
    if (!live_incomplete(sh->x.live)) res->complete = 1;
    else sh->x.why = live_incomplete(sh->x.live);   /* every state searched, not every hot cycle */
    return 0;
  }
  if (last) return 0;
  if (memory_short(sh)) return sample_frontier(sh, ws, sh->wstart[sh->x.nthreads], 1, logf);   /* none left here */
  next_becomes_work(sh, ws);
  sh->db++;
  sh->x.prog.bound = (long long)sh->db;
  sh->t0 = search_now();
  sh->done = 0;
  if (o->ck && o->ck->path && (ck_due(o) || ws[0].drain_stop)) ses_checkpoint(sh, ws);
  if (ws[0].drain_stop) {   /* stopped within the stratum that just ended: stop here */
    sh->x.why = ws[0].drain_stop;
    sh->done = 1;
  }
  return 0;
}

typedef struct SesThread {
  Ses *S;
  Ses *all;
  FILE *logf;
  int rc;                    /* thread 0: -1 on an internal error between strata */
} SesThread;

/* A worker: every stratum, wait until it is set up, run it, wait for the
** others, and on thread 0 prepare the next (between_strata; a failure
** there is the thread's rc).  Returns once sh->done is set. */
static void ses_thread(void *arg) {
  SesThread *T = arg;
  Ses *S = T->S;
  SesShared *sh = S->sh;
  for (;;) {
    if (sh->x.nthreads > 1) pthread_barrier_wait(&sh->x.meet);   /* the stratum is ready */
    if (sh->done) return;
    run_stratum(S);
    if (sh->x.nthreads > 1) pthread_barrier_wait(&sh->x.meet);   /* everyone is done with it */
    if (S->id == 0 && between_strata(sh, T->all, T->logf) != 0) T->rc = -1;
  }
}

/* The initial state as the only entry of stratum 0 (thread 0's part).
** 1 if it is ready, 0 if the initial state is a bug or the explorer
** failed (recorded in res). */
static int initial_entry(SesShared *sh, Ses *S0) {
  Chain c0 = {0};
  c0.np = &S0->nodes;
  int ok = 0;
  if (vm_initial(S0->vm, &c0.state) != VM_OK) {
    search_record_bug(sh->x.res, S0->vm, NULL, 0);
    goto out;
  }
  uint32_t nev;
  const VmEvent *ev = vm_events(S0->vm, &nev);
  if (ex_init(S0->ex, sh->x.o->seed, ev, nev, &c0.d) != 0) {
    sh->x.res->error = xstrdup(explorer_error(S0->ex));
    goto out;
  }
  c0.fp = state_hash(c0.state.data, c0.state.len);
  Frontier *F = future(S0, 0);   /* becomes stratum 0's work */
  frontier_push(S0, F, NULL, NULL, 0, c0.fp, c0.state.data, (uint32_t)c0.state.len, c0.d.data, (uint32_t)c0.d.len, 0,
                UINT64_MAX);
  fitem(F, F->n - 1)->checked = 1;
  sc_insert(sh->x.cache, c0.fp);
  sh->x.res->states = 1;
  S0->new_states = 1;
  ok = 1;
out:
  chain_fini(&c0);
  return ok;
}

/* Why a search that found no bug stopped where it did (heap). */
static char *bound_text(const SesShared *sh, uint64_t left) {
  Buf b;
  buf_init(&b);
  if (sh->x.why) buf_printf(&b, "%s at delay bound %llu", sh->x.why, (unsigned long long)sh->db);
  else buf_printf(&b, "delay bound %llu reached, %llu frontier states left", (unsigned long long)sh->db,
                  (unsigned long long)left);
  return buf_take(&b);
}

/* SearchOps.run for ses: across ranks, dist_strata (noted in
** res->dist_note); else stratum by stratum on -j threads from the initial
** state or a checkpoint; when the state cache or the frontier reaches its
** memory budget, sampling from the frontier left (SES then SS,
** ss_sample).  0, or -1 on an internal failure. */
int search_run_ses(const BcProgram *bc, const VmTest *test, const SearchOptions *o, FILE *logf, SearchResult *res) {
#ifdef HAVE_MPI
  if (search_across_ranks(o)) {
    res->dist_note = "ses across ranks: no hot-cycle search, and which rank reaches a state first decides its "
                     "explorer state (the figures per delay bound may differ from one process's)";
    if (!o->no_reduction) res->unreduced = "ses across ranks explores every interleaving";
    return dist_strata(bc, test, o, logf, res);
  }
#endif
  SesShared shared, *sh = &shared;
  memset(sh, 0, sizeof *sh);
  exhaust_begin(&sh->x, bc, test, o, res, workers_count(o), EX_MEET);
  sh->live_upto = -1;
  int n = sh->x.nthreads, rc = -1;
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
    for (uint32_t j = 0; j < SES_BATCH; j++) S->ch[j].np = &S->nodes;
    S->vm = vm_new(bc, test);
    vm_record_events(S->vm, 1);
    th[t] = (SesThread){ S, ws, logf, 0 };
  }
  for (int t = 0; t < n; t++) {
    ws[t].ex = explorer_new(bc, test, o->explorer, (ExNative)o->explorer_native, o->explorer_twin_check, &err);
    if (!ws[t].ex) { fprintf(stderr, "pcheck: error: %s\n", err.data); goto out; }
  }
  sh->x.live = o->no_liveness ? NULL : live_new(bc, test, o, !o->no_reduction);   /* NULL: no spec has hot states */
  exhaust_reduce(&sh->x, o->unfair ? live_specs(sh->x.live) : 0);   /* steps observed by specs with hot states stay visible */
  if (ck_from(o)) {   /* the figures, coverage, strata to come and cache of the checkpoint */
    if (ck_get_common(o, bc, test, res) != 0 || ses_restore(sh, ws) != 0 || ck_get_live(o, sh->x.live) != 0) goto out;
    sh->states0 = res->states - ws[0].new_states;
    sh->live_busy = live_pending(sh->x.live);   /* a search under way goes on where it was */
  } else {
    if (!(sh->x.cache = search_new_cache(o, o->mem))) goto out;
  }
  sc_set_single_thread(sh->x.cache, n == 1);
  rc = 0;
  if (!ck_from(o) && !initial_entry(sh, &ws[0])) goto out;
  /* Stratum 0 starts from the initial state (or the checkpoint's stratum
  ** goes on from its entries not yet searched). */
  next_becomes_work(sh, ws);
  sh->t0 = search_now();
  sh->x.prog.bound = (long long)sh->db;
  ck_start(o);
  /* Walks take every choice: ses keeps states its reduced twin dfs would
  ** not (a state is new when reached with fewer delays), and walks along
  ** persistent sets found almost nothing ses had not (bench/README.md). */
  sh->x.est = sampler_new(bc, test, NULL, o->seed);
  if (workers_run(n, ses_thread, th, sizeof *th) != 0) sh->internal = 1;
  if (sh->internal || th[0].rc != 0) { rc = -1; goto out; }
  fold_counts(sh, ws);
  if (sh->x.failed) goto out;   /* the explorer failed: res->error says so */
  if (!sh->sampled) res->delays = res->bug ? sh->bug_db : sh->db;
  res->skipped = sh->skipped;
  /* The delay bounds below db were searched in full; db too when the
  ** search ended there by --max-delays. */
  if (!res->bug && !res->complete && (sh->db > 0 || (!sh->x.why && !sh->sampled))) {
    res->has_proved = 1;
    res->proved = sh->x.why || sh->sampled ? sh->db - 1 : sh->db;
  }
  if (res->has_proved && sh->x.live && (int64_t)res->proved > sh->live_upto) {   /* hot cycles not all searched */
    res->has_proved = sh->live_upto >= 0;
    res->proved = sh->live_upto >= 0 ? (uint64_t)sh->live_upto : 0;
  }
  if (sh->sampled && !res->bug && !res->error) {
    res->bound = sh->sample_bound;
    sh->sample_bound = NULL;
  } else if (!res->bug && !res->complete) {
    uint64_t left = 0;
    for (int t = 0; t < n; t++) left += ws[t].fut_n + ws[t].beyond;
    res->bound = bound_text(sh, left);
  }
  res->hot_specs = (uint32_t)__builtin_popcountll(live_specs(sh->x.live));
  if (!sh->sampled) {   /* sampled: ss's estimate of the executions stands */
    double el = search_now() - sh->x.prog.start;
    sampler_finish(sh->x.est, sh->x.cache, el, res);
    /* The next delay bound, when the search stopped at --max-delays. */
    if (!res->complete && !res->bug && !res->error)
      set_next(res, sh->db, sh->x.why ? -1 : layers_next(&sh->strata, -1), res->states, el);
  }
  if (res->bug && !sh->sampled)
    fprintf(logf, "ses: %s at delay bound %llu after %llu distinct states\n",
            res->bugdesc.status == VM_LIMIT ? "stopped at a limit" : "bug found", (unsigned long long)sh->bug_db,
            (unsigned long long)res->states);
out:
  work_free(sh, ws);
  for (int t = 0; t < n; t++) {
    Ses *S = &ws[t];
    for (uint32_t j = 0; j < SES_BATCH; j++) chain_fini(&S->ch[j]);
    futures_free(S);
    chunk_pool_fini(&S->pool);
    explorer_free(S->ex);
    vm_free(S->vm);
    buf_fini(&S->tmp);
    buf_fini(&S->tmp_d);
    buf_fini(&S->kd);
    free(S->later);
    expand_fini(&S->nx);
  }
  /* Last: a thread's free list may hold nodes of another's slabs. */
  for (int t = 0; t < n; t++) np_fini(&ws[t].nodes);
  free(sh->sample_bound);
  free(sh->work);
  free(sh->wstart);
  free(sh->chunk_left);
  free(ws);
  free(th);
  layers_fini(&sh->strata);
  exhaust_end(&sh->x);
  buf_fini(&err);
  return rc;
}
