/* search_dfs.c: exhaustive depth-first search over the VM's step function
** with the state cache.  The stack holds each state's bytes, its enabled
** choices and the next one to try; the choices along the stack are the
** trace.  When the cache is full (replacing entries), a state whose entry
** was replaced is explored again, but never one already on the stack (a
** path set of fingerprints is kept for that), so the search terminates.
** Each state where a spec turns hot is handed to the hot-cycle search
** (checker/liveness.c).
**
** In the portfolio, dfs also publishes the states it has finished (every
** state reachable from them visited and checked: checker/finished.h) in
** o->finished, for ses to skip.  It stops publishing for good once its
** cache replaces entries (a forgotten state breaks the component
** bookkeeping), once the bookkeeping outgrows a quarter of --frontier-mem,
** or while the hot-cycle search is incomplete (a finished state must have
** had its hot cycles searched too). */
#include <config.h>
#include "checker/search.h"
#include "checker/liveness.h"
#include "checker/finished.h"
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
  uint64_t hot;              /* specs hot in the state (bits), when liveness is checked */
  uint64_t index, low;       /* publishing finished states: Tarjan's index and lowlink */
} DfsFrame;

/* Publishing finished states (o->finished): the component bookkeeping and
** whether it is still on. */
typedef struct Publish {
  StateCache *to;            /* o->finished, or NULL: off */
  Finished fin;
  Liveness *live;            /* the hot-cycle search, to ask whether it is complete */
  uint64_t max_bytes;        /* the bookkeeping's share of --frontier-mem */
} Publish;

static void publish_off(Publish *p) {
  if (!p->to) return;
  p->to = NULL;
  fin_fini(&p->fin);
}

/* fin_pop's callback: fp's component closed. */
static void publish_one(void *ctx, uint64_t fp) {
  Publish *p = ctx;
  if (!sc_is_full(p->to) && !live_incomplete(p->live)) sc_insert(p->to, fp);
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
  Liveness *live = NULL;     /* hot cycles, if a spec has hot states */
  Publish pub = { o->finished, {0}, NULL, o->frontier_mem / 4 };
  if (pub.to) fin_init(&pub.fin);
  Progress prog;
  progress_init(&prog);
  if (!cache) { fputs("pcheck: error: cannot allocate the state cache\n", stderr); goto out; }
  sc_set_single_thread(cache, 1);   /* this search runs on one thread */
  live = live_new(bc, test, o);    /* NULL: no spec has hot states */
  pub.live = live;
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
  publish_enter(&pub, &fr[0]);
  res->states = 1;
  res->state_bytes = res->max_state_bytes = fr[0].state.len;
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
      /* Liveness: hot cycles through this state that no earlier state led to. */
      if (live) {
        f->hot = vm_hot_specs(vm, (uint8_t *)f->state.data, f->state.len);
        uint64_t turned = f->hot & ~(depth > 1 ? fr[depth - 2].hot : 0);   /* hot here, not in the parent */
        LiveResult lr = turned ? live_check(live, (uint8_t *)f->state.data, f->state.len, f->fp, turned, &prog, &why)
                               : LIVE_NONE;
        if (lr == LIVE_ERROR) goto out;
        if (lr == LIVE_STOPPED) break;
        if (lr == LIVE_FOUND) { live_record(live, trace, depth - 1, res); break; }
      }
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
      for (uint32_t j = 0; j < n; j++) {
        f->kid_new[j] = (uint8_t)sc_insert(cache, f->kid_fp[j]);
        /* Claimed now, entered later from this frame. */
        if (pub.to && f->kid_new[j] == SC_NEW) fin_claim(&pub.fin, f->kid_fp[j], f->index);
      }
    }
    if (f->next >= f->ch.n) {      /* every choice tried (or none): backtrack */
      f->expanded = 0;
      if (tracking) ps_remove(&path, f->fp);
      publish_pop(&pub, f, depth > 1 ? &fr[depth - 2] : NULL);
      depth--;
      continue;
    }
    uint32_t k = f->next++, j = k - f->kid_base;
    if (f->kid_new[j] == SC_SEEN) {
      if (pub.to) fin_edge(&pub.fin, f->kid_fp[j], &f->low);
      continue;
    }
    uint32_t choice = f->ch.kind == VC_MACHINE ? f->ch.ids[k] : k;
    uint64_t fp = f->kid_fp[j];
    if (f->kid_new[j] == SC_FULL) {
      publish_off(&pub);
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
    res->state_bytes += nf->state.len;
    if (nf->state.len > res->max_state_bytes) res->max_state_bytes = nf->state.len;
    nf->fp = fp;
    nf->expanded = 0;
    publish_enter(&pub, nf);
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
    } else if (live_incomplete(live)) {
      res->bound = xstrdup(live_incomplete(live));
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
  publish_off(&pub);
  live_free(live);
  sc_free(cache);
  vm_free(vm);
  return rc;
}

const SearchOps search_dfs = { "dfs", run_dfs };
