/* search_pct.c: probabilistic concurrency testing (Burckhardt et al.).
** In each execution every machine gets a random initial priority when it
** first appears among the enabled machines (machine ids are dense, in
** creation order), distinct and above d = --pct-depth; d-1 distinct change
** points are drawn among the scheduling steps 1..k (k = --pct-steps).  Each
** scheduling step runs the enabled machine of highest priority; at the
** step that is change point j (j = 1..d-1) the machine just chosen drops to
** priority d-j, below every initial priority.  Data choices are uniformly
** random and are not scheduling steps.  Executions are cut at --max-steps;
** the search stops at --schedules executions, a bug, the timeout or an
** interrupt; the same --seed gives the same run.
** Fair (P's --sch-fairpct): PCT as above for the unfair bound's steps
** (search_max_steps(o, 0)), then uniformly random scheduling up to the
** fair bound, with the temperature check of the fair searches. */
#include <config.h>
#include "checker/search/search_int.h"
#include "checker/base/rng.h"
#include <stdlib.h>
#include <string.h>

/* Uniform in (0, 1). */
static double rng_open01(Rng *r) {
  return ((double)(rng_next(r) >> 11) + 0.5) * (1.0 / 9007199254740992.0);
}

/* Uniform in [0, n), n > 0, without modulo bias. */
static uint64_t below(Rng *r, uint64_t n) {
  uint64_t limit = UINT64_MAX - UINT64_MAX % n, x;
  do x = rng_next(r); while (x >= limit);
  return x % n;
}

/* cp[0..n): n distinct values of 1..k in random order (Floyd's sampling,
** then a shuffle); n <= k. */
static void change_points(Rng *r, int64_t k, int64_t n, int64_t *cp) {
  for (int64_t m = 0, j = k - n + 1; j <= k; j++, m++) {
    int64_t t = 1 + (int64_t)below(r, (uint64_t)j), seen = 0;
    for (int64_t i = 0; i < m && !seen; i++) seen = cp[i] == t;
    cp[m] = seen ? j : t;
  }
  for (int64_t i = n - 1; i > 0; i--) {
    int64_t j = (int64_t)below(r, (uint64_t)(i + 1)), t = cp[i];
    cp[i] = cp[j];
    cp[j] = t;
  }
}

/* The state of one pct run that picking needs. */
typedef struct Pct {
  Rng rng;
  double *prio;              /* priority of each machine id seen */
  uint64_t pcap;             /* prio's entries allocated */
  uint64_t nseen;            /* ids below this have a priority (this execution) */
  int64_t sched;             /* scheduling steps taken (this execution) */
  int64_t d, ncp;            /* depth; change points */
  int64_t k;                 /* the steps they fall among */
  int64_t *cp;               /* the change points of this execution */
  uint64_t seed;             /* --seed */
  int64_t tail;              /* fair: scheduling steps after which picks are uniform; 0: never */
} Pct;

/* The WalkPick of pct: data choices are uniform; a machine choice runs the
** enabled machine of highest priority (on a tie, the lowest id), and the
** scheduling step that is change point j drops the chosen machine's
** priority to d - (j + 1), below every initial one.  With fair pct, after
** `tail` scheduling steps every pick is uniform, so that an execution
** cannot starve a machine forever. */
static uint32_t pick_pct(void *ctx, const VmChoices *ch) {
  Pct *p = ctx;
  if (ch->kind != VC_MACHINE) return rng_below(&p->rng, ch->n);
  if (p->tail && p->sched >= p->tail) return walk_pick_uniform(&p->rng, ch);
  /* Machines seen for the first time (ids ascending) get their initial
  ** priorities, uniform in (d, d+1): a random order. */
  uint64_t top = ch->ids[ch->n - 1];
  if (top >= p->nseen) {
    if (top >= p->pcap) {
      p->pcap = top + 1 > 2 * p->pcap ? top + 1 : 2 * p->pcap;
      p->prio = xrealloc(p->prio, p->pcap * sizeof *p->prio);
    }
    for (; p->nseen <= top; p->nseen++) p->prio[p->nseen] = (double)p->d + rng_open01(&p->rng);
  }
  uint32_t choice = ch->ids[0];
  for (uint32_t i = 1; i < ch->n; i++)
    if (p->prio[ch->ids[i]] > p->prio[choice]) choice = ch->ids[i];
  p->sched++;
  for (int64_t j = 0; j < p->ncp; j++)
    if (p->cp[j] == p->sched) p->prio[choice] = (double)(p->d - (j + 1));
  return choice;
}

/* Before execution i: its generator (seeded by --seed and i, so that any
** rank runs the same execution i), new change points, no machine seen. */
static void pct_execution(void *ctx, uint64_t i) {
  Pct *p = ctx;
  rng_seed_at(&p->rng, p->seed, i);
  change_points(&p->rng, p->k, p->ncp, p->cp);
  p->nseen = 0;
  p->sched = 0;
}

/* SearchOps.run for pct: depth d (--pct-depth) gives d - 1 change points
** among k scheduling steps (--pct-steps), fewer if k is smaller.  Unfair pct has unfair bounds and no temperature; fair pct
** the fair ones.  0, or -1 on an internal failure. */
int search_run_pct(const BcProgram *bc, const VmTest *test, const SearchOptions *o, FILE *logf, SearchResult *res) {
  Walk w;
  int64_t max_steps = search_max_steps(o, o->pct_fair);
  /* unfair: no temperature check (search_temperature) */
  walk_init(&w, bc, test, o->pct_fair ? search_temperature(o) : 0, o->sched);
  walk_set_bound(&w, o, max_steps);
  Pct p = {0};
  if (o->pct_fair) p.tail = search_max_steps(o, 0);
  p.seed = o->seed;
  p.k = o->pct_steps;
  p.d = o->pct_depth;
  p.ncp = p.d - 1 < p.k ? p.d - 1 : p.k;
  p.cp = xmalloc((size_t)(p.ncp ? p.ncp : 1) * sizeof *p.cp);
  const char *why;
  int truncated;
  WalkLoop loop = { pick_pct, &p, pct_execution, NULL };
  int rc = walk_loop(&w, o, logf, max_steps, &loop, res, &why, &truncated);
  if (rc == 0 && (!res->bug || o->keep_going)) {   /* --keep-going: how far it went */
    Buf r;
    buf_init(&r);
    if (why) buf_printf(&r, "%s after ", why);
    buf_printf(&r, "%llu executions (%s, depth %lld, %lld steps)", (unsigned long long)res->executions,
               o->pct_fair ? "fair pct" : "pct", (long long)p.d, (long long)p.k);
    if (truncated) buf_printf(&r, ", some cut at %lld steps", (long long)max_steps);
    res->bound = buf_take(&r);
  }
  free(p.prio);
  free(p.cp);
  walk_fini(&w);
  return rc;
}
