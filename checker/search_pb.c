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
** of (parent, choice) nodes, grown only for states that enter a work list
** or end in a bug. */
#include <config.h>
#include "checker/search.h"
#include "checker/pathset.h"
#include <stdlib.h>
#include <string.h>
#include "vm/hash.h"

#define NO_MACHINE UINT32_MAX
#define NO_NODE UINT64_MAX

/* One choice of a trace and the node of the choices before it. */
typedef struct PbNode {
  uint64_t parent;           /* NO_NODE: the choice is the first */
  TraceChoice c;
} PbNode;

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

typedef struct Pb {
  const SearchOptions *o;
  SearchResult *res;
  Vm *vm;
  StateCache *visited;       /* keys of (State, last machine) */
  StateCache *states;        /* fingerprints of program states */
  PbNode *nodes;
  uint64_t nnodes, nodecap;
  PbList lists[2];           /* work of the current bound, of the next */
  PbList *cur, *next;
  PbFrame *fr;
  uint64_t sp, cap;          /* stack depth, frames allocated */
  uint64_t mat;              /* frames [0, mat) have their trace node */
  PathSet path;              /* keys on the stack, once the visited set is full */
  int tracking;
  Buf succ;                  /* scratch successor */
  Progress prog;
  uint64_t iter;
  const char *why;           /* why the search stopped early */
} Pb;

enum { PB_GO = 0, PB_STOP = 1, PB_FAIL = -1 };

static uint64_t pb_key(uint64_t fp, uint32_t last) {
  uint64_t z = fp + 0x9e3779b97f4a7c15ull * ((uint64_t)last + 1);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

static uint64_t node_add(Pb *p, uint64_t parent, TraceChoice c) {
  if (p->nnodes == p->nodecap) {
    p->nodecap = p->nodecap ? p->nodecap * 2 : 1024;
    p->nodes = xrealloc(p->nodes, p->nodecap * sizeof *p->nodes);
  }
  p->nodes[p->nnodes].parent = parent;
  p->nodes[p->nnodes].c = c;
  return p->nnodes++;
}

/* Give frames [mat, upto) their trace nodes. */
static void materialize(Pb *p, uint64_t upto) {
  for (uint64_t i = p->mat; i < upto; i++) p->fr[i].node = node_add(p, p->fr[i - 1].node, p->fr[i].in);
  if (upto > p->mat) p->mat = upto;
}

/* Record the bug of the last Vm call: the trace is node's (depth choices),
** then `extra` if not NULL. */
static void pb_bug(Pb *p, uint64_t node, uint64_t depth, const TraceChoice *extra) {
  uint64_t n = depth + (extra ? 1 : 0);
  TraceChoice *t = xmalloc((n ? n : 1) * sizeof *t);
  if (extra) t[depth] = *extra;
  for (uint64_t i = depth; i > 0; i--) {
    t[i - 1] = p->nodes[node].c;
    node = p->nodes[node].parent;
  }
  search_record_bug(p->res, p->vm, t, n);
  free(t);
  if (n > p->res->max_depth) p->res->max_depth = n;
}

static uint64_t list_bytes(const PbList *l) {
  return l->cap * sizeof(PbWork) + l->states.cap + l->idcap * sizeof(uint32_t);
}

/* Memory outside the caches: work lists, trace tree, stack. */
static uint64_t frontier_bytes(const Pb *p) {
  uint64_t b = list_bytes(&p->lists[0]) + list_bytes(&p->lists[1]) + p->nodecap * sizeof(PbNode);
  if (p->sp) b += p->sp * (p->fr[p->sp - 1].state.cap + sizeof(PbFrame) + 64);
  return b;
}

/* Once in a while: timeout, interrupt, memory, progress. */
static int pb_tick(Pb *p) {
  if ((++p->iter & 1023) != 0) return PB_GO;
  if (search_should_stop(p->o, &p->prog, &p->why)) return PB_STOP;
  if (frontier_bytes(p) > p->o->frontier_mem) {
    p->why = "the stack and work lists outgrew the memory set aside for them";
    return PB_STOP;
  }
  progress_tick(&p->prog, p->o, p->res, p->cur->n + p->next->n, "work");
  return PB_GO;
}

/* Put the costly moves of the frame on top of the stack in the next list. */
static void add_work(Pb *p) {
  PbFrame *f = &p->fr[p->sp - 1];
  PbList *l = p->next;
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
  if (l->nids > p->res->peak_frontier) p->res->peak_frontier = l->nids;
}

/* The successor in p->succ, reached by `choice` with `last` running it: is
** it new?  If so, count its program state and return its key in *key. */
static int visit(Pb *p, uint32_t last, uint64_t *key) {
  uint64_t fp = state_hash(p->succ.data, p->succ.len);
  *key = pb_key(fp, last);
  ScResult r = sc_insert(p->visited, *key);
  if (r == SC_SEEN) return 0;
  if (r == SC_FULL) {
    if (!p->tracking) {    /* from now on, keep the stack's keys */
      for (uint64_t i = 0; i < p->sp; i++) ps_add(&p->path, p->fr[i].key);
      p->tracking = 1;
    }
    if (ps_has(&p->path, *key)) return 0;
  }
  if (sc_insert(p->states, fp) != SC_SEEN) p->res->states++;
  return 1;
}

/* Push the state in p->succ (its trace node is set by the caller or later). */
static PbFrame *push(Pb *p, uint64_t key, uint32_t last, TraceChoice in, uint64_t depth) {
  if (p->sp == p->cap) {
    uint64_t ncap = p->cap ? p->cap * 2 : 64;
    p->fr = xrealloc(p->fr, ncap * sizeof *p->fr);
    memset(p->fr + p->cap, 0, (ncap - p->cap) * sizeof *p->fr);
    p->cap = ncap;
  }
  PbFrame *f = &p->fr[p->sp++];
  Buf t = f->state; f->state = p->succ; p->succ = t;   /* take the bytes, keep a scratch */
  p->succ.len = 0;
  f->key = key;
  f->last = last;
  f->in = in;
  f->depth = depth;
  f->expanded = 0;
  f->next = 0;
  if (p->tracking) ps_add(&p->path, key);
  if (depth > p->res->max_depth) p->res->max_depth = depth;
  if (p->sp > p->res->peak_frontier) p->res->peak_frontier = p->sp;
  return f;
}

/* Explore every move of cost 0 from the frame on the stack (the only one). */
static int dfs(Pb *p) {
  while (p->sp > 0) {
    int t = pb_tick(p);
    if (t != PB_GO) return t;
    PbFrame *f = &p->fr[p->sp - 1];
    if (!f->expanded) {
      VmStatus st = vm_choices(p->vm, (uint8_t *)f->state.data, f->state.len, &f->ch);
      f->expanded = 1;
      f->next = 0;
      f->last_enabled = 0;
      if (st == VM_BAD_STATE) { fputs("pcheck: internal error: the VM produced a malformed state\n", stderr); return PB_FAIL; }
      if (st != VM_OK) {
        materialize(p, p->sp);
        pb_bug(p, f->node, f->depth, NULL);
        return PB_STOP;
      }
      if (f->ch.kind == VC_MACHINE && f->last != NO_MACHINE)
        for (uint32_t i = 0; i < f->ch.n; i++)
          if (f->ch.ids[i] == f->last) f->last_enabled = 1;
      if (f->last_enabled && f->ch.n > 1) add_work(p);
    }
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
    p->res->transitions++;
    if (st != VM_OK) {
      if (st == VM_BAD_STATE) { fputs("pcheck: internal error: the VM rejected its own choice\n", stderr); return PB_FAIL; }
      materialize(p, p->sp);
      pb_bug(p, f->node, f->depth, &in);
      return PB_STOP;
    }
    uint64_t key;
    if (!visit(p, last, &key)) continue;
    push(p, key, last, in, f->depth + 1);
  }
  return PB_GO;
}

/* Bound c: the moves of the current list, each followed by a search of
** the moves of cost 0 from where it leads. */
static int run_bound(Pb *p) {
  PbList *l = p->cur;
  for (uint64_t k = 0; k < l->n; k++) {
    PbWork *w = &l->w[k];
    const uint8_t *s = (const uint8_t *)l->states.data + w->state;
    for (uint32_t j = 0; j < w->n; j++) {
      int t = pb_tick(p);
      if (t != PB_GO) return t;
      uint32_t choice = l->ids[w->choices + j];
      TraceChoice in = { VC_MACHINE, choice };
      VmStatus st = vm_step(p->vm, s, w->len, choice, &p->succ);
      p->res->transitions++;
      if (st != VM_OK) {
        if (st == VM_BAD_STATE) { fputs("pcheck: internal error: the VM rejected its own choice\n", stderr); return PB_FAIL; }
        pb_bug(p, w->node, w->depth, &in);
        return PB_STOP;
      }
      uint64_t key;
      if (!visit(p, choice, &key)) continue;
      PbFrame *f = push(p, key, choice, in, w->depth + 1);
      f->node = node_add(p, w->node, in);
      p->mat = 1;
      t = dfs(p);
      if (t != PB_GO) return t;
    }
  }
  return PB_GO;
}

static void list_clear(PbList *l) {
  l->n = 0;
  l->states.len = 0;
  l->nids = 0;
}

static void list_fini(PbList *l) {
  free(l->w);
  buf_fini(&l->states);
  free(l->ids);
}

static int run_pb(const BcProgram *bc, const VmTest *test, const SearchOptions *o, FILE *logf, SearchResult *res) {
  Pb p;
  memset(&p, 0, sizeof p);
  p.o = o;
  p.res = res;
  p.vm = vm_new(bc, test);
  p.cur = &p.lists[0];
  p.next = &p.lists[1];
  buf_init(&p.succ);
  progress_init(&p.prog);
  int rc = -1, t = PB_GO;
  int64_t bound = 0;
  /* The (state, last) keys outnumber the program states: they get three
  ** quarters of the budget. */
  p.visited = sc_new(o->cache_kind, o->mem - o->mem / 4);
  p.states = sc_new(o->cache_kind, o->mem / 4);
  if (!p.visited || !p.states) { fputs("pcheck: error: cannot allocate the state cache\n", stderr); goto out; }
  sc_set_single_thread(p.visited, 1);
  sc_set_single_thread(p.states, 1);
  if (vm_initial(p.vm, &p.succ) != VM_OK) {
    search_record_bug(res, p.vm, NULL, 0);
    rc = 0;
    goto out;
  }
  uint64_t fp = state_hash(p.succ.data, p.succ.len), key = pb_key(fp, NO_MACHINE);
  sc_insert(p.visited, key);
  sc_insert(p.states, fp);
  res->states = 1;
  TraceChoice none = { VC_NONE, 0 };
  PbFrame *f = push(&p, key, NO_MACHINE, none, 0);
  f->node = NO_NODE;
  p.mat = 1;
  t = dfs(&p);
  for (;;) {
    if (t == PB_FAIL) goto out;
    if (t == PB_STOP) break;
    res->delays = (uint64_t)bound;
    if (logf) {
      fprintf(logf, "pb: complete up to %lld preemptions: %llu states, %.2f s\n", (long long)bound,
              (unsigned long long)res->states, search_now() - p.prog.start);
      fflush(logf);
    }
    if (p.next->n == 0) { res->complete = 1; break; }
    if (o->max_bound >= 0 && bound >= o->max_bound) break;
    PbList *tmp = p.cur; p.cur = p.next; p.next = tmp;
    list_clear(p.next);
    bound++;
    res->delays = (uint64_t)bound;
    t = run_bound(&p);
  }
  progress_done(&p.prog, o);
  if (res->bug && logf)
    fprintf(logf, "pb: bug found at preemption bound %lld after %llu distinct states\n", (long long)bound,
            (unsigned long long)res->states);
  if (!res->bug) {
    Buf b;
    buf_init(&b);
    if (t == PB_STOP) {
      buf_printf(&b, "%s during bound %lld", p.why ? p.why : "stopped", (long long)bound);
      if (bound > 0) buf_printf(&b, " (complete up to %lld preemptions)", (long long)bound - 1);
    } else if (!res->complete) {
      buf_printf(&b, "complete up to %lld preemptions", (long long)bound);
    } else if (sc_is_full(p.visited) || sc_is_full(p.states)) {
      /* Every reachable state was still explored, some more than once. */
      res->complete = 0;
      buf_printf(&b, "state cache full at its --mem budget");
    }
    if (b.len) res->bound = buf_take(&b);
    else buf_fini(&b);
  }
  rc = 0;
out:
  res->seconds = search_now() - p.prog.start;
  if (p.visited && p.states) {
    res->cache_bytes = sc_bytes(p.visited) + sc_bytes(p.states);
    res->cache_refused = sc_refused(p.visited) + sc_refused(p.states);
    res->cache_full = sc_is_full(p.visited) || sc_is_full(p.states);
  }
  for (uint64_t i = 0; i < p.cap; i++) {
    buf_fini(&p.fr[i].state);
    vm_choices_fini(&p.fr[i].ch);
  }
  free(p.fr);
  free(p.nodes);
  list_fini(&p.lists[0]);
  list_fini(&p.lists[1]);
  ps_fini(&p.path);
  buf_fini(&p.succ);
  sc_free(p.visited);
  sc_free(p.states);
  vm_free(p.vm);
  return rc;
}

const SearchOps search_pb = { "pb", run_pb };
