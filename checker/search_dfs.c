/* search_dfs.c: exhaustive depth-first search over the VM's step function
** with the state cache.  The stack holds each state's bytes, its enabled
** choices and the next one to try; the choices along the stack are the
** trace.  When the cache is full (replacing entries), a state whose entry
** was replaced is explored again, but never one already on the stack (a
** path set of fingerprints is kept for that), so the search terminates. */
#include <config.h>
#include "checker/search.h"
#include "checker/pathset.h"
#include <stdlib.h>
#include <string.h>
#include "vm/hash.h"

typedef struct DfsFrame {
  Buf state;                 /* the State bytes */
  uint64_t fp;               /* their fingerprint */
  VmChoices ch;              /* enabled choices, once expanded */
  uint32_t next;             /* next choice to try */
  int expanded;              /* ch is valid */
  /* The main search computes all successors of a state at once, so that
  ** the cache lookups of all of them can be prefetched together: */
  Buf kids;                  /* successor States, one after another */
  uint64_t *kid_off;         /* where each starts in kids (nkids + 1 entries) */
  uint64_t *kid_fp;          /* their fingerprints */
  uint8_t *kid_new;          /* ScResult of inserting each */
  uint32_t kid_cap;          /* entries allocated */
  uint32_t kid_base;         /* choice index of the first successor held */
  uint32_t kid_n;            /* successors held (a batch of at most KID_BATCH) */
} DfsFrame;


static uint64_t salt(int k) { return 0x9e3779b97f4a7c15ull * (uint64_t)(k + 1); }

/* Liveness: is there a cycle, reachable from root, on which spec k stays
** in hot states?  A depth-first search restricted to the states where spec
** k is hot; every launch shares `visited` (keys salted by k), so together
** the launches form one DFS forest of that subgraph, and the subgraph has a
** cycle exactly when some launch meets a state on its own stack.  On
** success *cyc holds the choices from root (heap, *ncyc of them) and
** *start the number of them after which the cycle begins.  Returns 1 if a
** cycle was found, 0 if not, -1 on an internal error. */
static int hot_cycle(Vm *vm, StateCache *visited, int k, const Buf *root, uint64_t root_fp, TraceChoice **cyc,
                     uint64_t *ncyc, uint64_t *start, const SearchOptions *o, const Progress *prog) {
  uint64_t cap = 32, depth = 1;
  DfsFrame *fr = xcalloc(cap, sizeof *fr);
  TraceChoice *tr = xcalloc(cap, sizeof *tr);
  PathSet path = {0};
  int found = 0;
  buf_append(&fr[0].state, root->data, root->len);
  fr[0].fp = root_fp;
  sc_insert(visited, root_fp ^ salt(k));
  ps_add(&path, root_fp);
  const char *why;
  for (uint64_t steps = 0; depth > 0 && !found; steps++) {
    /* A timeout or an interrupt stops this search too (the caller then stops). */
    if ((steps & 1023) == 0 && search_should_stop(o, prog, &why)) break;
    DfsFrame *f = &fr[depth - 1];
    if (!f->expanded) {
      VmStatus st = vm_choices(vm, (uint8_t *)f->state.data, f->state.len, &f->ch);
      f->expanded = 1;
      f->next = 0;
      if (st == VM_BAD_STATE) { found = -1; break; }
      if (st != VM_OK) f->ch.n = 0;   /* an end state: no cycle through it */
    }
    if (f->next >= f->ch.n) {
      f->expanded = 0;
      ps_remove(&path, f->fp);
      depth--;
      continue;
    }
    uint32_t i = f->next++;
    uint32_t choice = f->ch.kind == VC_MACHINE ? f->ch.ids[i] : i;
    if (depth == cap) {
      fr = xrealloc(fr, 2 * cap * sizeof *fr);
      memset(fr + cap, 0, cap * sizeof *fr);
      tr = xrealloc(tr, 2 * cap * sizeof *tr);
      cap *= 2;
      f = &fr[depth - 1];
    }
    tr[depth - 1].kind = (uint8_t)f->ch.kind;
    tr[depth - 1].value = choice;
    DfsFrame *nf = &fr[depth];
    if (vm_step(vm, (uint8_t *)f->state.data, f->state.len, choice, &nf->state) != VM_OK) continue;
    if (!(vm_hot_specs(vm, (uint8_t *)nf->state.data, nf->state.len) & (1ull << k))) continue;
    uint64_t fp = state_hash(nf->state.data, nf->state.len);
    if (ps_has(&path, fp)) {
      uint64_t at = 0;
      while (fr[at].fp != fp) at++;
      *start = at;
      *ncyc = depth;
      *cyc = xmalloc(depth * sizeof(TraceChoice));
      memcpy(*cyc, tr, depth * sizeof(TraceChoice));
      found = 1;
      break;
    }
    if (sc_insert(visited, fp ^ salt(k)) == SC_SEEN) continue;
    nf->fp = fp;
    nf->expanded = 0;
    ps_add(&path, fp);
    depth++;
  }
  for (uint64_t i = 0; i < cap; i++) {
    buf_fini(&fr[i].state);
    vm_choices_fini(&fr[i].ch);
  }
  free(fr);
  free(tr);
  free(path.fp);
  free(path.count);
  return found;
}

static int run_dfs(const BcProgram *bc, const VmTest *test, const SearchOptions *o, FILE *logf, SearchResult *res) {
  (void)logf;
  int rc = -1;
  Vm *vm = vm_new(bc, test);
  StateCache *cache = sc_new(o->cache_kind, o->mem);
  DfsFrame *fr = NULL;
  TraceChoice *trace = NULL;
  uint64_t cap = 0, depth = 0;
  const char *why = NULL;
  PathSet path = {0};
  int tracking = 0;          /* path holds the stack's fingerprints */
  StateCache *hot_visited = NULL;   /* states visited by the hot-cycle searches */
  Vm *hot_vm = NULL;
  Progress prog;
  progress_init(&prog);
  if (!cache) { fputs("pcheck: error: cannot allocate the state cache\n", stderr); goto out; }
  sc_set_single_thread(cache, 1);   /* this search runs on one thread */
  /* Specs with hot states: look for hot cycles (a second cache of a quarter
  ** of the budget, and a Vm of its own so the main one's events stay put). */
  for (uint16_t k = 0; k < test->nspecs; k++)
    for (uint16_t st = 0; st < bc->machines[test->specs[k]].nstates; st++)
      if (bc->machines[test->specs[k]].states[st].hot && !hot_visited) {
        hot_visited = sc_new(o->cache_kind, o->mem / 4);
        if (hot_visited) sc_set_single_thread(hot_visited, 1);
        hot_vm = vm_new(bc, test);
      }
  cap = 64;
  fr = xcalloc(cap, sizeof *fr);
  trace = xcalloc(cap, sizeof *trace);
  if (vm_initial(vm, &fr[0].state) != VM_OK) {
    search_record_bug(res, vm, trace, 0);
    rc = 0;
    goto out;
  }
  fr[0].fp = state_hash(fr[0].state.data, fr[0].state.len);
  sc_insert(cache, fr[0].fp);
  res->states = 1;
  depth = 1;
  res->max_depth = 0;
  uint64_t iter = 0;
  while (depth > 0) {
    if ((++iter & 1023) == 0) {
      if (search_should_stop(o, &prog, &why)) break;
      /* The stack lives outside the cache: stop cleanly rather than run out. */
      if (depth * (fr[depth - 1].state.cap + fr[depth - 1].kids.cap + sizeof(DfsFrame) + 64) > o->frontier_mem) {
        why = "the search stack outgrew the memory set aside for it";
        break;
      }
      progress_tick(&prog, o, res, depth, "stack");
    }
    DfsFrame *f = &fr[depth - 1];
    if (!f->expanded) {
      VmStatus st = vm_choices(vm, (uint8_t *)f->state.data, f->state.len, &f->ch);
      f->expanded = 1;
      f->next = 0;
      f->kid_base = f->kid_n = 0;
      if (st == VM_BAD_STATE) { fputs("pcheck: internal error: the VM produced a malformed state\n", stderr); goto out; }
      if (st != VM_OK) { search_record_bug(res, vm, trace, depth - 1); break; }
      /* Liveness: a cycle through hot states of some spec, from here. */
      uint64_t hot = hot_visited ? vm_hot_specs(vm, (uint8_t *)f->state.data, f->state.len) : 0;
      for (int k = 0; hot && k < 64 && !res->bug; k++) {
        if (!(hot & (1ull << k)) || sc_contains(hot_visited, f->fp ^ salt(k))) continue;
        TraceChoice *cyc = NULL;
        uint64_t ncyc = 0, start = 0;
        int found = hot_cycle(hot_vm, hot_visited, k, &f->state, f->fp, &cyc, &ncyc, &start, o, &prog);
        if (found < 0) { fputs("pcheck: internal error in the cycle search\n", stderr); goto out; }
        if (found) {
          uint64_t n = depth - 1 + ncyc;
          TraceChoice *t = xmalloc(n * sizeof *t);
          memcpy(t, trace, (depth - 1) * sizeof *t);
          memcpy(t + depth - 1, cyc, ncyc * sizeof *t);
          res->bug = 1;
          res->bugdesc.status = VM_BUG_HOT_CYCLE;
          Buf m;
          buf_init(&m);
          buf_printf(&m, "spec '%s' can stay in hot states forever: the execution can cycle through %llu steps "
                     "without leaving them", vm_spec_name(vm, (uint16_t)k), (unsigned long long)(ncyc - start));
          res->bugdesc.message = buf_take(&m);
          res->trace = t;
          res->ntrace = n;
          res->cycle_start = (int64_t)(depth - 1 + start);
        }
        free(cyc);
      }
      if (res->bug) break;
    }
    if (f->next < f->ch.n && f->next >= f->kid_base + f->kid_n) {
      /* The next batch of successors; then their cache slots are fetched
      ** together. */
      uint32_t first = f->next, n = f->ch.n - first < KID_BATCH ? f->ch.n - first : KID_BATCH;
      if (n + 1 > f->kid_cap) {
        f->kid_cap = n + 1;
        f->kid_off = xrealloc(f->kid_off, f->kid_cap * sizeof(uint64_t));
        f->kid_fp = xrealloc(f->kid_fp, f->kid_cap * sizeof(uint64_t));
        f->kid_new = xrealloc(f->kid_new, f->kid_cap);
      }
      f->kids.len = 0;
      f->kid_base = first;
      f->kid_n = 0;
      int failed = 0;
      for (uint32_t j = 0; j < n; j++) {
        uint32_t k = first + j;
        uint32_t choice = f->ch.kind == VC_MACHINE ? f->ch.ids[k] : k;
        f->kid_off[j] = f->kids.len;
        VmStatus st = vm_step_expand(vm, (uint8_t *)f->state.data, f->state.len, choice, &f->kids);
        res->transitions++;
        if (st != VM_OK) {
          if (st == VM_BAD_STATE) { fputs("pcheck: internal error: the VM rejected its own choice\n", stderr); goto out; }
          trace[depth - 1].kind = (uint8_t)f->ch.kind;
          trace[depth - 1].value = choice;
          search_record_bug(res, vm, trace, depth);
          failed = 1;
          break;
        }
      }
      if (failed) break;
      f->kid_off[n] = f->kids.len;
      /* Hash and prefetch them back to back: on a table far bigger than the
      ** TLB reaches, each prefetch waits for its page walk, and walks issued
      ** together overlap. */
      for (uint32_t j = 0; j < n; j++)
        f->kid_fp[j] = state_hash(f->kids.data + f->kid_off[j], f->kid_off[j + 1] - f->kid_off[j]);
      for (uint32_t j = 0; j < n; j++) sc_prefetch(cache, f->kid_fp[j]);
      f->kid_n = n;
      for (uint32_t j = 0; j < n; j++) f->kid_new[j] = (uint8_t)sc_insert(cache, f->kid_fp[j]);
    }
    if (f->next >= f->ch.n) {      /* every choice tried (or none): backtrack */
      f->expanded = 0;
      if (tracking) ps_remove(&path, f->fp);
      depth--;
      continue;
    }
    uint32_t k = f->next++, j = k - f->kid_base;
    if (f->kid_new[j] == SC_SEEN) continue;
    uint32_t choice = f->ch.kind == VC_MACHINE ? f->ch.ids[k] : k;
    uint64_t fp = f->kid_fp[j];
    if (f->kid_new[j] == SC_FULL) {
      if (!tracking) {   /* from now on, keep the stack's fingerprints */
        for (uint64_t i = 0; i < depth; i++) ps_add(&path, fr[i].fp);
        tracking = 1;
      }
      if (ps_has(&path, fp)) continue;
    }
    if (depth == cap) {
      uint64_t ncap = cap * 2;
      fr = xrealloc(fr, ncap * sizeof *fr);
      memset(fr + cap, 0, (ncap - cap) * sizeof *fr);
      trace = xrealloc(trace, ncap * sizeof *trace);
      cap = ncap;
      f = &fr[depth - 1];
    }
    trace[depth - 1].kind = (uint8_t)f->ch.kind;
    trace[depth - 1].value = choice;
    DfsFrame *nf = &fr[depth];
    nf->state.len = 0;
    buf_append_fast(&nf->state, f->kids.data + f->kid_off[j], f->kid_off[j + 1] - f->kid_off[j]);
    if (tracking) ps_add(&path, fp);
    res->states++;
    nf->fp = fp;
    nf->expanded = 0;
    depth++;
    if (depth - 1 > res->max_depth) res->max_depth = depth - 1;
    if (depth > res->peak_frontier) res->peak_frontier = depth;
  }
  progress_done(&prog, o);
  if (!res->bug) {
    if (why) {
      Buf b;
      buf_init(&b);
      buf_printf(&b, "%s", why);
      res->bound = buf_take(&b);
    } else if (sc_is_full(cache)) {
      /* Every reachable state was still explored, some more than once;
      ** the summary says the budget was hit. */
      res->bound = xstrdup("state cache full at its --mem budget");
    } else {
      res->complete = 1;
    }
  }
  rc = 0;
out:
  res->seconds = search_now() - prog.start;
  if (cache) {
    res->cache_bytes = sc_bytes(cache);
    res->cache_refused = sc_refused(cache);
    res->cache_full = sc_is_full(cache);
  }
  for (uint64_t i = 0; i < cap; i++) {
    buf_fini(&fr[i].state);
    buf_fini(&fr[i].kids);
    free(fr[i].kid_off);
    free(fr[i].kid_fp);
    free(fr[i].kid_new);
    vm_choices_fini(&fr[i].ch);
  }
  free(fr);
  free(trace);
  free(path.fp);
  free(path.count);
  sc_free(hot_visited);
  vm_free(hot_vm);
  sc_free(cache);
  vm_free(vm);
  return rc;
}

const SearchOps search_dfs = { "dfs", run_dfs };
