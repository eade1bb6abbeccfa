/* search_bfs.c: exhaustive breadth-first search with the state cache.
** Level by level: the states of the current level are kept as bytes in one
** buffer; every state ever queued keeps a node (parent, choice) so that a
** bug's trace is rebuilt by following parents.  The first bug reported is
** one with the shortest trace: a bug found by stepping from level d (trace
** d+1) is held until the rest of level d has been checked for a deadlock
** or hot spec (trace d).  With a full cache, an unknown state is expanded
** again unless it already lies on its own path from the initial state. */
#include <config.h>
#include "checker/search.h"
#include <stdlib.h>
#include <string.h>
#include "vm/hash.h"

typedef struct Node {
  uint64_t parent;           /* node index, UINT64_MAX for the initial state */
  uint64_t fp;               /* fingerprint of the state */
  TraceChoice choice;        /* the step from the parent */
} Node;

typedef struct Level {
  Buf bytes;                 /* the states, one after another */
  uint64_t *node;            /* node of each state */
  uint64_t *off;             /* where each state starts in bytes */
  uint64_t n, cap;
} Level;

static void level_push(Level *l, uint64_t node, const char *state, size_t len) {
  if (l->n == l->cap) {
    l->cap = l->cap ? l->cap * 2 : 1024;
    l->node = xrealloc(l->node, l->cap * sizeof(uint64_t));
    l->off = xrealloc(l->off, l->cap * sizeof(uint64_t));
  }
  l->node[l->n] = node;
  l->off[l->n] = l->bytes.len;
  l->n++;
  buf_append(&l->bytes, state, len);
}

static void level_reset(Level *l) { l->n = 0; l->bytes.len = 0; }

static void level_fini(Level *l) {
  buf_fini(&l->bytes);
  free(l->node);
  free(l->off);
}

/* The choices from the initial state to node i, then `last` if given. */
static uint64_t path_of(const Node *nodes, uint64_t i, TraceChoice **out, const TraceChoice *last) {
  uint64_t n = 0;
  for (uint64_t j = i; nodes[j].parent != UINT64_MAX; j = nodes[j].parent) n++;
  TraceChoice *t = xmalloc((size_t)(n + 1) * sizeof(TraceChoice));
  uint64_t k = n;
  for (uint64_t j = i; nodes[j].parent != UINT64_MAX; j = nodes[j].parent) t[--k] = nodes[j].choice;
  if (last) t[n++] = *last;
  *out = t;
  return n;
}

static int on_path(const Node *nodes, uint64_t i, uint64_t fp) {
  for (uint64_t j = i;; j = nodes[j].parent) {
    if (nodes[j].fp == fp) return 1;
    if (nodes[j].parent == UINT64_MAX) return 0;
  }
}

static int run_bfs(const BcProgram *bc, const VmTest *test, const SearchOptions *o, FILE *logf, SearchResult *res) {
  (void)logf;
  int rc = -1;
  Vm *vm = vm_new(bc, test);
  StateCache *cache = sc_new(o->cache_kind, o->mem);
  Node *nodes = NULL;
  uint64_t nnodes = 0, ncap = 0;
  Level cur = {0}, next = {0};
  Buf s, kids;                /* kids: the successors of one state */
  buf_init(&s);
  buf_init(&kids);
  uint64_t koff[KID_BATCH + 1], kfp[KID_BATCH];   /* where each starts; fingerprints */
  VmChoices ch = {0};
  const char *why = NULL;
  Progress prog;
  progress_init(&prog);
  /* A bug found by stepping, held until its level is done. */
  int held = 0;
  VmBug held_bug = {0};
  TraceChoice *held_trace = NULL;
  uint64_t held_n = 0;
  if (!cache) { fputs("pcheck: error: cannot allocate the state cache\n", stderr); goto out; }
  sc_set_single_thread(cache, 1);   /* this search runs on one thread */
  if (vm_initial(vm, &s) != VM_OK) { search_record_bug(res, vm, NULL, 0); rc = 0; goto out; }
  ncap = 1024;
  nodes = xmalloc(ncap * sizeof(Node));
  nodes[0].parent = UINT64_MAX;
  nodes[0].fp = state_hash(s.data, s.len);
  nnodes = 1;
  sc_insert(cache, nodes[0].fp);
  res->states = 1;
  level_push(&cur, 0, s.data, s.len);
  uint64_t depth = 0, iter = 0;
  while (cur.n && !res->bug && !why) {
    if (cur.n > res->peak_frontier) res->peak_frontier = cur.n;
    for (uint64_t q = 0; q < cur.n && !res->bug; q++) {
      if ((++iter & 255) == 0) {
        if (search_should_stop(o, &prog, &why)) break;
        /* The queue and the trace nodes live outside the cache: stop cleanly
        ** rather than run out of memory. */
        uint64_t used = nnodes * sizeof(Node) + cur.bytes.cap + next.bytes.cap + (cur.cap + next.cap) * 16;
        if (used > o->frontier_mem) { why = "the queue of states outgrew the memory set aside for it"; break; }
        progress_tick(&prog, o, res, cur.n - q + next.n, "queue");
      }
      uint64_t id = cur.node[q];
      const uint8_t *st = (const uint8_t *)cur.bytes.data + cur.off[q];
      size_t len = (q + 1 < cur.n ? cur.off[q + 1] : cur.bytes.len) - cur.off[q];
      VmStatus vs = vm_choices(vm, st, len, &ch);
      if (vs == VM_BAD_STATE) { fputs("pcheck: internal error: the VM produced a malformed state\n", stderr); goto out; }
      if (vs != VM_OK) {
        TraceChoice *t;
        uint64_t n = path_of(nodes, id, &t, NULL);
        search_record_bug(res, vm, t, n);
        free(t);
        break;
      }
      if (held) continue;   /* only looking for shorter bugs now */
      /* The successors in batches of KID_BATCH (a data choice may have
      ** very many): all of a batch first, then their fingerprints and cache
      ** prefetches back to back, then the lookups (see search_dfs.c). */
      for (uint32_t first = 0; first < ch.n && !held; first += KID_BATCH) {
        uint32_t nk = 0, nb = ch.n - first < KID_BATCH ? ch.n - first : KID_BATCH;
        kids.len = 0;
        for (uint32_t j = 0; j < nb; j++) {
          uint32_t k = first + j, choice = ch.kind == VC_MACHINE ? ch.ids[k] : k;
          koff[j] = kids.len;
          vs = vm_step_expand(vm, st, len, choice, &kids);
          res->transitions++;
          if (vs == VM_BAD_STATE) { fputs("pcheck: internal error: the VM rejected its own choice\n", stderr); goto out; }
          if (vs != VM_OK) {
            TraceChoice tc = { (uint8_t)ch.kind, choice };
            held = 1;
            held_bug = *vm_bug(vm);
            held_bug.message = xstrdup(held_bug.message ? held_bug.message : "");
            held_n = path_of(nodes, id, &held_trace, &tc);
            break;
          }
          nk++;
        }
        koff[nk] = kids.len;
        for (uint32_t j = 0; j < nk; j++) kfp[j] = state_hash(kids.data + koff[j], koff[j + 1] - koff[j]);
        for (uint32_t j = 0; j < nk; j++) sc_prefetch(cache, kfp[j]);
        for (uint32_t j = 0; j < nk; j++) {
          uint32_t k = first + j;
          uint64_t fp = kfp[j];
          ScResult r = sc_insert(cache, fp);
          if (r == SC_SEEN) continue;
          if (r == SC_FULL && on_path(nodes, id, fp)) continue;
          if (nnodes == ncap) {
            ncap *= 2;
            nodes = xrealloc(nodes, ncap * sizeof(Node));
          }
          nodes[nnodes].parent = id;
          nodes[nnodes].fp = fp;
          nodes[nnodes].choice = (TraceChoice){ (uint8_t)ch.kind, ch.kind == VC_MACHINE ? ch.ids[k] : k };
          level_push(&next, nnodes, kids.data + koff[j], koff[j + 1] - koff[j]);
          nnodes++;
          res->states++;
        }
      }
    }
    if (!res->bug && held) {
      res->bug = 1;
      res->bugdesc = held_bug;
      res->trace = held_trace;
      res->ntrace = held_n;
      res->cycle_start = -1;
      held_trace = NULL;
      held = 0;
    }
    if (next.n) depth++;
    if (depth > res->max_depth) res->max_depth = depth;
    Level t = cur; cur = next; next = t;
    level_reset(&next);
  }
  progress_done(&prog, o);
  if (!res->bug) {
    if (why) res->bound = xstrdup(why);
    else if (sc_is_full(cache)) res->bound = xstrdup("state cache full at its --mem budget");
    else res->complete = 1;
  }
  rc = 0;
out:
  if (held) free(held_bug.message);
  free(held_trace);
  res->seconds = search_now() - prog.start;
  if (cache) {
    res->cache_bytes = sc_bytes(cache);
    res->cache_refused = sc_refused(cache);
    res->cache_full = sc_is_full(cache);
  }
  free(nodes);
  level_fini(&cur);
  level_fini(&next);
  buf_fini(&s);
  buf_fini(&kids);
  vm_choices_fini(&ch);
  sc_free(cache);
  vm_free(vm);
  return rc;
}

const SearchOps search_bfs = { "bfs", run_bfs };
