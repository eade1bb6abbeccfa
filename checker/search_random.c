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
  Vm *vm = vm_new(bc, test);
  Rng rng;
  rng_seed(&rng, o->seed);
  Buf a, b, log;
  buf_init(&a);
  buf_init(&b);
  buf_init(&log);
  if (o->verbose) vm_set_log(vm, &log);
  VmChoices ch = {0};
  TraceChoice *trace = NULL;
  uint64_t tcap = 0;
  Progress prog;
  progress_init(&prog);
  const char *why = NULL;
  int truncated = 0, rc = -1;
  for (uint64_t ex = 0; o->schedules < 0 || ex < (uint64_t)o->schedules; ex++) {
    if (search_should_stop(o, &prog, &why)) break;
    progress_tick(&prog, o, res, ex, "executions");
    res->executions++;
    uint64_t depth = 0;
    if (o->verbose) buf_printf(&log, "<TestLog> Execution %llu (seed %llu)\n", (unsigned long long)ex + 1,
                               (unsigned long long)o->seed);
    VmStatus st = vm_initial(vm, &a);
    if (st != VM_OK) { search_record_bug(res, vm, trace, 0); goto done; }
    for (;;) {
      st = vm_choices(vm, (uint8_t *)a.data, a.len, &ch);
      if (st != VM_OK) {
        if (st == VM_BAD_STATE) { fputs("pcheck: internal error: the VM produced a malformed state\n", stderr); goto fail; }
        search_record_bug(res, vm, trace, depth);
        goto done;
      }
      if (ch.kind == VC_NONE) break;
      if ((int64_t)depth >= o->max_steps) { truncated = 1; break; }
      uint32_t k = rng_below(&rng, ch.n);
      uint32_t choice = ch.kind == VC_MACHINE ? ch.ids[k] : k;
      if (depth == tcap) {
        tcap = tcap ? tcap * 2 : 1024;
        trace = xrealloc(trace, tcap * sizeof(TraceChoice));
      }
      trace[depth].kind = (uint8_t)ch.kind;
      trace[depth++].value = choice;
      st = vm_step(vm, (uint8_t *)a.data, a.len, choice, &b);
      res->transitions++;
      if (st != VM_OK) {
        if (st == VM_BAD_STATE) { fputs("pcheck: internal error: the VM rejected its own choice\n", stderr); goto fail; }
        search_record_bug(res, vm, trace, depth);
        goto done;
      }
      Buf t = a; a = b; b = t;
    }
    if (depth > res->max_depth) res->max_depth = depth;
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
    if (truncated) buf_printf(&r, ", some cut at %lld steps", (long long)o->max_steps);
    res->bound = buf_take(&r);
  }
  rc = 0;
fail:
  vm_choices_fini(&ch);
  free(trace);
  buf_fini(&a);
  buf_fini(&b);
  buf_fini(&log);
  vm_free(vm);
  return rc;
}

const SearchOps search_random = { "random", run_random };
