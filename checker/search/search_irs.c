/* search_irs.c: iterative random search with depth bounding.  Iteration
** i = 0, 1, 2, ... draws 3^i random executions (a uniformly random enabled
** choice at each step, as search_random.c) cut at depth bound
** (i+1)*--irs-step steps (and at --max-steps).  The search stops at
** --schedules executions, a bug, the timeout or an interrupt; the same
** --seed gives the same run. */
#include <config.h>
#include "checker/search/search_int.h"
#include "checker/base/rng.h"
#include <stdlib.h>
#include <string.h>

/* SearchOps.run for irs.  One Rng seeded once by --seed draws every
** execution in turn, so the run is not split across ranks (no walk_loop):
** it always runs in this process.  Iteration counts and bounds saturate
** instead of overflowing.  Without a bug, res->bound says how far it went
** (the stop, the iteration, its depth bound, and whether --max-steps cut
** any execution); --keep-going does not apply: the first bug ends it.
** 0, or -1 when a walk failed (said on stderr). */
int search_run_irs(const BcProgram *bc, const VmTest *test, const SearchOptions *o, FILE *logf, SearchResult *res) {
  Walk w;
  int64_t max_steps = search_max_steps(o, 1);
  walk_init(&w, bc, test, search_temperature(o), o->sched);
  walk_set_bound(&w, o, max_steps);
  Rng rng;
  rng_seed(&rng, o->seed);
  Buf log;
  buf_init(&log);
  if (o->verbose) vm_set_log(w.vm, &log);
  Progress prog;
  progress_init(&prog);
  w.stop_o = o;   /* a long execution does not hold a --timeout back (walk_run) */
  w.stop_prog = &prog;
  const char *why = NULL;
  int rc = -1, max_cut = 0;
  int64_t step = o->irs_step, bound = step;
  uint64_t iter = 0, ex = 0;
  if (o->schedules == 0) goto done;
  for (uint64_t count = 1;; iter++) {
    /* The bound of iteration iter, and its 3^iter executions (saturating). */
    bound = step > INT64_MAX / (int64_t)(iter + 1) ? INT64_MAX : step * (int64_t)(iter + 1);
    int64_t cut = bound < max_steps ? bound : max_steps;
    for (uint64_t k = 0; k < count; k++) {
      if (search_should_stop(o, &prog, &why)) goto done;
      progress_tick(&prog, o, res, ex, "executions");
      ex++;
      res->executions++;
      if (o->verbose)
        buf_printf(&log, "<TestLog> Execution %llu (seed %llu, depth bound %lld)\n", (unsigned long long)ex,
                   (unsigned long long)o->seed, (long long)cut);
      WalkEnd end = walk_run(&w, cut, walk_pick_uniform, &rng, res);
      if (end == WALK_FAIL) goto fail;
      if (end == WALK_BUG) goto done;
      if (w.stopped) {   /* cut short by a stop: not a depth bound's cut */
        why = w.stopped;
        goto done;
      }
      if (end == WALK_CUT && cut == max_steps) max_cut = 1;
      if (o->verbose && logf) { fwrite(log.data ? log.data : "", 1, log.len, logf); log.len = 0; }
      if (o->schedules >= 0 && ex >= (uint64_t)o->schedules) goto done;
    }
    count = count > UINT64_MAX / 3 ? UINT64_MAX : count * 3;
  }
done:
  if (res->bug && res->ntrace > res->max_depth) res->max_depth = res->ntrace;
  if (o->verbose && logf && log.len) fwrite(log.data, 1, log.len, logf);
  progress_done(&prog, o);
  res->seconds = search_now() - prog.start;
  if (!res->bug) {
    Buf r;
    buf_init(&r);
    if (why) buf_printf(&r, "%s after ", why);
    buf_printf(&r, "%llu executions (irs, iteration %llu, depth bound %lld)", (unsigned long long)res->executions,
               (unsigned long long)iter, (long long)bound);
    if (max_cut) buf_printf(&r, ", some cut at %lld steps", (long long)max_steps);
    res->bound = buf_take(&r);
  }
  rc = 0;
fail:
  buf_fini(&log);
  walk_fini(&w);
  return rc;
}
