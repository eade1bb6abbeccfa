/* search_random.c: random executions.  Each step picks a uniformly random
** enabled choice (machine or data value) with the seeded Rng; an execution
** ends when nothing is enabled (checked for deadlock and hot specs) or at
** --max-steps.  With -v every execution's log is printed. */
#include <config.h>
#include "checker/search.h"
#include "checker/rng.h"
#include <stdlib.h>
#include <string.h>


static int run_random(const BcProgram *bc, const VmTest *test, const SearchOptions *o, FILE *logf, SearchResult *res) {
  Walk w;
  int64_t max_steps = search_max_steps(o, 1);
  walk_init(&w, bc, test, search_temperature(o), o->sched);
  Rng rng;
  rng_seed(&rng, o->seed);
  Buf log;
  buf_init(&log);
  if (o->verbose) vm_set_log(w.vm, &log);
  Progress prog;
  progress_init(&prog);
  const char *why = NULL;
  int truncated = 0, rc = -1;
  for (uint64_t ex = 0; o->schedules < 0 || ex < (uint64_t)o->schedules; ex++) {
    if (search_should_stop(o, &prog, &why)) break;
    progress_tick(&prog, o, res, ex, "executions");
    res->executions++;
    if (o->verbose) buf_printf(&log, "<TestLog> Execution %llu (seed %llu)\n", (unsigned long long)ex + 1,
                               (unsigned long long)o->seed);
    WalkEnd end = walk_run(&w, max_steps, walk_pick_uniform, &rng, res);
    if (end == WALK_FAIL) goto fail;
    if (end == WALK_BUG) goto done;
    if (end == WALK_CUT) truncated = 1;
    if (o->verbose && logf) { fwrite(log.data ? log.data : "", 1, log.len, logf); log.len = 0; }
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
    buf_printf(&r, "%llu random executions", (unsigned long long)res->executions);
    if (truncated) buf_printf(&r, ", some cut at %lld steps", (long long)max_steps);
    res->bound = buf_take(&r);
  }
  rc = 0;
fail:
  buf_fini(&log);
  walk_fini(&w);
  return rc;
}

const SearchOps search_random = { "random", run_random };
