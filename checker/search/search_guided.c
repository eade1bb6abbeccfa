/* search_guided.c: sampling steered by learned ordering constraints
** (HaPSet for actors: doc/algorithms.md, "guided";
** checker/observe/learned.h; doc/coverage.md).
** Executions as random's, but at each machine choice every enabled
** machine's step is tried on a scratch State: a step that sends message m
** to machine M predicts the ordering "M receives m right after the newest
** message in its inbox (or, if that is empty, after the last it
** received)"; if some steps predict an ordering the learned set does not
** hold, one of them is taken at random, else any enabled machine at
** random.  A predicted ordering may never happen (the receiver defers
** the message, or another arrives first): one steered to TRIES times
** without being learned is no longer preferred.  Data choices are
** uniformly random.  Every execution that ends
** without a bug adds its orderings (each machine's consecutive
** deliveries) to the set: the search keeps learning.  The set is
** o->learned (--learn: loaded before the run and saved after it by the
** CLI), else the search's own.  It steers, it proves nothing: orderings
** are abstracted to statements, so an execution it avoids may still hold
** a bug.  Executions are cut at --max-steps (10,000 by default: it is not
** fair, as pct is not); stops as random does. */
#include <config.h>
#include "checker/search/search_int.h"
#include "checker/observe/learned.h"
#include "checker/base/rng.h"
#include "checker/observe/schedcov.h"
#include <stdlib.h>
#include <string.h>

/* Steering to an ordering stops after this many tries that did not make it. */
enum { TRIES = 3 };

typedef struct Guided {
  Walk w;
  Rng rng;
  const BcProgram *bc;
  Learned *L;
  Buf trial;                 /* scratch State of a trial step */
  uint32_t *novel;           /* indexes of the choices predicting a new ordering */
  uint64_t *nkey;            /* and the orderings they predict */
  uint32_t ncap;
  uint64_t *tried;           /* open addressing: orderings steered to (0: empty slot) ... */
  uint8_t *ntried;           /* ... and how many times */
  uint64_t ntr, trcap;
  uint64_t steered;          /* choices made among such steps */
} Guided;

/* The slot of ordering k among those steered to: where it is, or the
** empty slot where it would go. */
static uint64_t tried_slot(const Guided *g, uint64_t k) {
  uint64_t i = (k * 0x9e3779b97f4a7c15ull >> 20) & (g->trcap - 1);
  while (g->tried[i] && g->tried[i] != k) i = (i + 1) & (g->trcap - 1);
  return i;
}

/* Count one more steering to ordering k (the table doubles at half full). */
static void tried_add(Guided *g, uint64_t k) {
  if (2 * (g->ntr + 1) > g->trcap) {
    uint64_t *ok = g->tried, oldcap = g->trcap;
    uint8_t *on = g->ntried;
    g->trcap = oldcap ? 2 * oldcap : 256;
    g->tried = xcalloc(g->trcap, sizeof *g->tried);
    g->ntried = xcalloc(g->trcap, 1);
    for (uint64_t i = 0; i < oldcap; i++)
      if (ok[i]) {
        uint64_t j = tried_slot(g, ok[i]);
        g->tried[j] = ok[i];
        g->ntried[j] = on[i];
      }
    free(ok);
    free(on);
  }
  uint64_t i = tried_slot(g, k);
  if (!g->tried[i]) { g->tried[i] = k; g->ntr++; }
  if (g->ntried[i] < 255) g->ntried[i]++;
}

/* Does running machine id now send a message whose delivery would make an
** ordering the set does not hold, and that was not steered to TRIES times
** in vain?  Its key in *key. */
static int predicts_new(Guided *g, uint32_t id, uint64_t *key) {
  g->trial.len = 0;
  if (vm_step_expand(g->w.vm, (const uint8_t *)g->w.a.data, g->w.a.len, id, &g->trial) != VM_OK) return 0;
  uint32_t n;
  const VmEvent *ev = vm_events(g->w.vm, &n);
  for (uint32_t i = 0; i < n; i++) {
    const VmEvent *e = &ev[i];
    if (e->spec || e->kind != VE_SEND || !e->file) continue;
    SchedLoc prev, cur = { e->file, e->line, e->col, e->machine };
    uint16_t type;
    if (!schedtrack_before_next(g->w.track, e->other, &prev, &type)) return 0;
    *key = learned_key(g->L, g->bc->machines[type].name, &prev, &cur);
    if (learned_has(g->L, *key)) return 0;
    return !g->trcap || g->ntried[tried_slot(g, *key)] < TRIES;
  }
  return 0;
}

/* The WalkPick of guided: a data choice is uniform; at a machine choice,
** the machines whose next dequeue would make an ordering not yet learned
** (predicts_new) are preferred, one of them uniformly, and the ordering is
** counted as tried; with none, any enabled machine, uniformly. */
static uint32_t pick_guided(void *ctx, const VmChoices *ch) {
  Guided *g = ctx;
  if (ch->kind != VC_MACHINE) return rng_below(&g->rng, ch->n);
  if (ch->n > g->ncap) {
    g->ncap = ch->n;
    g->novel = xrealloc(g->novel, g->ncap * sizeof *g->novel);
    g->nkey = xrealloc(g->nkey, g->ncap * sizeof *g->nkey);
  }
  uint32_t k = 0;
  for (uint32_t i = 0; i < ch->n; i++)
    if (predicts_new(g, ch->ids[i], &g->nkey[k])) g->novel[k++] = i;
  if (!k) return ch->ids[rng_below(&g->rng, ch->n)];
  g->steered++;
  uint32_t pick = rng_below(&g->rng, k);
  tried_add(g, g->nkey[pick]);
  return ch->ids[g->novel[pick]];
}

/* After an execution without a bug: learn its orderings. */
static void learn_execution(void *ctx) {
  Guided *g = ctx;
  learned_from(g->L, g->bc, g->w.track->recvs, g->w.track->nrecvs);
}

/* SearchOps.run for guided: unfair bounds, receives tracked for the
** orderings, the learned set taken from --learn (o->learned, kept by the
** caller) or made here and freed at the end.  0, or -1 on an internal
** failure. */
int search_run_guided(const BcProgram *bc, const VmTest *test, const SearchOptions *o, FILE *logf, SearchResult *res) {
  Guided g;
  memset(&g, 0, sizeof g);
  g.bc = bc;
  g.L = o->learned ? o->learned : learned_new();
  int64_t max_steps = search_max_steps(o, 0);
  walk_init(&g.w, bc, test, 0, o->sched);   /* unfair: no temperature check (search_temperature) */
  walk_set_bound(&g.w, o, max_steps);
  walk_track_receives(&g.w);
  rng_seed(&g.rng, o->seed);
  buf_init(&g.trial);
  uint64_t at_start = learned_count(g.L);
  const char *why;
  int truncated;
  WalkLoop loop = { pick_guided, &g, NULL, learn_execution };
  int rc = walk_loop(&g.w, o, logf, max_steps, &loop, res, &why, &truncated);
  if (rc == 0 && (!res->bug || o->keep_going)) {   /* --keep-going: how far it went */
    Buf r;
    buf_init(&r);
    if (why) buf_printf(&r, "%s after ", why);
    buf_printf(&r, "%llu executions (guided: %llu choices steered to new orderings; %llu orderings known, %llu new)",
               (unsigned long long)res->executions, (unsigned long long)g.steered,
               (unsigned long long)learned_count(g.L), (unsigned long long)(learned_count(g.L) - at_start));
    if (truncated) buf_printf(&r, ", some cut at %lld steps", (long long)max_steps);
    res->bound = buf_take(&r);
  }
  free(g.novel);
  free(g.nkey);
  free(g.tried);
  free(g.ntried);
  buf_fini(&g.trial);
  walk_fini(&g.w);
  if (!o->learned) learned_free(g.L);
  return rc;
}
