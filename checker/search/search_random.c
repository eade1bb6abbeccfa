/* search_random.c: random executions.  Each step picks a uniformly random
** enabled choice (machine or data value) with the Rng of the execution
** (seeded by --seed and the execution's number); an execution
** ends when nothing is enabled (checked for deadlock and hot specs) or at
** --max-steps.  With -v every execution's log is printed. */
#include <config.h>
#include "checker/search/search_int.h"
#include "checker/base/rng.h"
#include <stdlib.h>
#include <string.h>


typedef struct Random {
  Rng rng;                   /* first: the Random is walk_pick_uniform's Rng */
  uint64_t seed;
} Random;

/* Execution i draws from its own generator (rng_seed_at): the same
** executions whichever rank runs them (walk_loop under mpirun). */
static void random_execution(void *ctx, uint64_t i) {
  Random *r = ctx;
  rng_seed_at(&r->rng, r->seed, i);
}

/* SearchOps.run for random: the fair step bound and the temperature
** check, executions through walk_loop (farmed out across ranks).  res->bound says how many executions ran and why they stopped,
** also after a bug with --keep-going.  0, or -1 on an internal failure. */
int search_run_random(const BcProgram *bc, const VmTest *test, const SearchOptions *o, FILE *logf, SearchResult *res) {
  Walk w;
  int64_t max_steps = search_max_steps(o, 1);
  walk_init(&w, bc, test, search_temperature(o), o->sched);
  walk_set_bound(&w, o, max_steps);
  Random rnd = { .seed = o->seed };
  const char *why;
  int truncated;
  WalkLoop loop = { walk_pick_uniform, &rnd, random_execution, NULL };
  int rc = walk_loop(&w, o, logf, max_steps, &loop, res, &why, &truncated);
  if (rc == 0 && (!res->bug || o->keep_going)) {   /* --keep-going: how far it went */
    Buf r;
    buf_init(&r);
    if (why) buf_printf(&r, "%s after ", why);
    buf_printf(&r, "%llu random executions", (unsigned long long)res->executions);
    if (truncated) buf_printf(&r, ", some cut at %lld steps", (long long)max_steps);
    res->bound = buf_take(&r);
  }
  walk_fini(&w);
  return rc;
}
