/* tracetree.h: trace trees for the searches that keep states in queues or
** work lists (bfs, pb): each queued state has a node (its parent's node,
** the choice from there, its fingerprint), and a bug's trace is rebuilt by
** following parents.  With -j N each thread adds nodes to a store of its
** own while any thread may follow parents through all stores: a node never
** moves once added (blocks of TT_BLOCK nodes, addressed through a table
** of TT_MAX_BLOCKS pointers allocated up front, whose untouched entries
** cost no memory).  A node id is the owning thread (or MPI rank, in the
** distributed search) above bit TT_SHIFT, the index in its store below.
** Threading: tt_add on a store by its one owner; tt_at on any store from
** any thread, for nodes added before the reader last synchronised with
** the owner (a barrier or a lock). */
#ifndef PCHECK_TRACETREE_H
#define PCHECK_TRACETREE_H
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include "checker/base/choice.h"
#include "vm/util.h"

#define TT_NONE UINT64_MAX   /* the parent of a first choice */
enum { TT_BLOCK = 1 << 16, TT_MAX_BLOCKS = 1 << 20, TT_SHIFT = 40 };

typedef struct TtNode {
  uint64_t parent;           /* node id, or TT_NONE */
  uint64_t fp;               /* fingerprint of the state (or a search's own key) */
  TraceChoice choice;        /* the step from the parent */
} TtNode;

typedef struct TtStore {
  TtNode **block;            /* TT_MAX_BLOCKS entries, NULL until used */
  uint64_t n;                /* nodes added */
  int tid;                   /* the owning thread */
} TtStore;

static inline void tt_init(TtStore *s, int tid) {
  s->block = xcalloc(TT_MAX_BLOCKS, sizeof *s->block);
  s->n = 0;
  s->tid = tid;
}

static inline void tt_fini(TtStore *s) {
  if (!s->block) return;
  for (uint64_t b = 0; b < TT_MAX_BLOCKS && s->block[b]; b++) free(s->block[b]);
  free(s->block);
  s->block = NULL;
}

/* Add a node; returns its id.  Exits like xmalloc (status 3) past
** TT_BLOCK * TT_MAX_BLOCKS nodes of one thread. */
static inline uint64_t tt_add(TtStore *s, uint64_t parent, uint64_t fp, TraceChoice c) {
  uint64_t b = s->n / TT_BLOCK;
  if (b >= TT_MAX_BLOCKS) {
    fputs("pcheck: out of memory (too many queued states)\n", stderr);
    exit(3);
  }
  if (!s->block[b]) s->block[b] = xmalloc(TT_BLOCK * sizeof(TtNode));
  s->block[b][s->n % TT_BLOCK] = (TtNode){ parent, fp, c };
  return ((uint64_t)s->tid << TT_SHIFT) | s->n++;
}

/* Node id among the stores (indexed by thread). */
static inline const TtNode *tt_at(const TtStore *stores, uint64_t id) {
  uint64_t i = id & ((1ull << TT_SHIFT) - 1);
  return &stores[id >> TT_SHIFT].block[i / TT_BLOCK][i % TT_BLOCK];
}

/* Bytes the store holds. */
static inline uint64_t tt_bytes(const TtStore *s) {
  return (s->n + TT_BLOCK - 1) / TT_BLOCK * TT_BLOCK * sizeof(TtNode);
}

/* The choices from the initial state to node id (TT_NONE: none), then
** `last` if not NULL, as a heap array; *n gets its length. */
static inline TraceChoice *tt_trace(const TtStore *stores, uint64_t id, const TraceChoice *last, uint64_t *n) {
  uint64_t len = 0;
  for (uint64_t j = id; j != TT_NONE; j = tt_at(stores, j)->parent) len++;
  TraceChoice *t = xmalloc((size_t)(len + 1) * sizeof(TraceChoice));
  uint64_t k = len;
  for (uint64_t j = id; j != TT_NONE; j = tt_at(stores, j)->parent) t[--k] = tt_at(stores, j)->choice;
  if (last) t[len++] = *last;
  *n = len;
  return t;
}

/* A level of states waiting to be expanded (bfs, the distributed search):
** their bytes one after another, each with its node id. */
typedef struct TtLevel {
  Buf bytes;                 /* the states, one after another */
  uint64_t *node;            /* node of each state */
  uint64_t *off;             /* where each starts in bytes (n + 1 entries once one is pushed) */
  uint64_t n, cap;
} TtLevel;

static inline void tt_level_push(TtLevel *l, uint64_t node, const uint8_t *state, size_t len) {
  if (l->n + 1 >= l->cap) {
    l->cap = l->cap ? l->cap * 2 : 1024;
    l->node = xrealloc(l->node, l->cap * sizeof(uint64_t));
    l->off = xrealloc(l->off, l->cap * sizeof(uint64_t));
  }
  l->node[l->n] = node;
  l->off[l->n] = l->bytes.len;
  l->n++;
  l->off[l->n] = l->bytes.len + len;
  buf_append_fast(&l->bytes, state, len);
}

/* State i of the level: its bytes and length. */
static inline const uint8_t *tt_level_state(const TtLevel *l, uint64_t i, size_t *len) {
  *len = (size_t)(l->off[i + 1] - l->off[i]);
  return (const uint8_t *)l->bytes.data + l->off[i];
}

static inline void tt_level_fini(TtLevel *l) {
  buf_fini(&l->bytes);
  free(l->node);
  free(l->off);
}

#endif
