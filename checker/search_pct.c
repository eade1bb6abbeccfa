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
** interrupt; the same --seed gives the same run. */
#include <config.h>
#include "checker/search.h"
#include "checker/rng.h"
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

static int run_pct(const BcProgram *bc, const VmTest *test, const SearchOptions *o, FILE *logf, SearchResult *res) {
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
  double *prio = NULL;       /* priority of each machine id seen */
  uint64_t pcap = 0;
  int64_t d = o->pct_depth > 0 ? o->pct_depth : 3, k = o->pct_steps > 0 ? o->pct_steps : 1000;
  int64_t ncp = d - 1 < k ? d - 1 : k;
  int64_t *cp = xmalloc((size_t)(ncp ? ncp : 1) * sizeof *cp);
  Progress prog;
  progress_init(&prog);
  const char *why = NULL;
  int truncated = 0, rc = -1;
  for (uint64_t ex = 0; o->schedules < 0 || ex < (uint64_t)o->schedules; ex++) {
    if (search_should_stop(o, &prog, &why)) break;
    progress_tick(&prog, o, res, ex, "executions");
    res->executions++;
    change_points(&rng, k, ncp, cp);
    uint64_t depth = 0, nseen = 0;
    int64_t sched = 0;         /* scheduling steps taken */
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
      uint32_t choice;
      if (ch.kind == VC_MACHINE) {
        /* Machines seen for the first time (ids ascending) get their
        ** initial priorities, uniform in (d, d+1): a random order. */
        uint64_t top = ch.ids[ch.n - 1];
        if (top >= nseen) {
          if (top >= pcap) {
            pcap = top + 1 > 2 * pcap ? top + 1 : 2 * pcap;
            prio = xrealloc(prio, pcap * sizeof *prio);
          }
          for (; nseen <= top; nseen++) prio[nseen] = (double)d + rng_open01(&rng);
        }
        choice = ch.ids[0];
        for (uint32_t i = 1; i < ch.n; i++)
          if (prio[ch.ids[i]] > prio[choice]) choice = ch.ids[i];
        sched++;
        for (int64_t j = 0; j < ncp; j++)
          if (cp[j] == sched) prio[choice] = (double)(d - (j + 1));
      } else {
        choice = rng_below(&rng, ch.n);
      }
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
    buf_printf(&r, "%llu executions (pct, depth %lld, %lld steps)", (unsigned long long)res->executions,
               (long long)d, (long long)k);
    if (truncated) buf_printf(&r, ", some cut at %lld steps", (long long)o->max_steps);
    res->bound = buf_take(&r);
  }
  rc = 0;
fail:
  vm_choices_fini(&ch);
  free(trace);
  free(prio);
  free(cp);
  buf_fini(&a);
  buf_fini(&b);
  buf_fini(&log);
  vm_free(vm);
  return rc;
}

const SearchOps search_pct = { "pct", run_pct };
