/* redcheck.c: --check-reduction (redcheck.h).  The local states of a
** State are hashed one record at a time, salted with the record's index
** (specs first, then machines by id), into a set of fingerprints: the
** judy kind of state cache, which keeps every fingerprint apart.  The
** reduced search fills the set through SearchOptions.visit; the full
** search, run afterwards, looks each of its local states up and counts
** those missing. */
#include <config.h>
#include "checker/search/redcheck.h"
#include <stdlib.h>
#include <string.h>
#include "vm/hash.h"

/* The set's budget: local states are far fewer than States. */
enum { SET_BUDGET = 256u << 20 };

struct RedCheck {
  Vm *vm;                    /* for vm_local_states */
  Buf scratch;
  StateCache *seen;          /* the reduced search's local states */
  int full;                  /* the set reached its budget: the comparison of local states is off */
  int comparing;             /* 0: collecting (reduced search), 1: looking up (full search) */
  uint64_t missing;          /* local states of the full search not in the set */
  uint32_t missing_index;    /* the first one's record index (specs, then machines) */
  int has_missing;
  int attached;              /* the reduced search's States were seen (redcheck_attach) */
};

/* A set that cannot be made (its budget refused) leaves the checker
** comparing verdicts only, as a set that outgrows its budget does. */
RedCheck *redcheck_new(const BcProgram *bc, const VmTest *test) {
  RedCheck *c = xcalloc(1, sizeof *c);
  c->vm = vm_new(bc, test);
  buf_init(&c->scratch);
  c->seen = sc_new(SC_JUDY, SET_BUDGET);
  if (!c->seen) c->full = 1;
  else sc_set_single_thread(c->seen, 1);
  return c;
}

/* NULL is allowed. */
void redcheck_free(RedCheck *c) {
  if (!c) return;
  vm_free(c->vm);
  buf_fini(&c->scratch);
  if (c->seen) sc_free(c->seen);
  free(c);
}

/* vm_local_states's callback: the local state's hash, salted by its
** record index (the same bytes in two records are two local states), is
** added to the set while collecting and looked up while comparing; the
** first one missing names its record.  Nothing once the set is full. */
static void on_local(void *ctx, uint32_t index, const uint8_t *b, size_t n) {
  RedCheck *c = ctx;
  if (c->full) return;
  uint64_t h = state_hash(b, n) ^ (0x9e3779b97f4a7c15ull * (index + 1));
  if (!c->comparing) {
    if (sc_insert(c->seen, h) == SC_FULL) c->full = 1;
  } else if (!sc_contains(c->seen, h)) {
    if (!c->has_missing) c->missing_index = index;
    c->has_missing = 1;
    c->missing++;
  }
}

/* SearchOptions.visit: every State the search enters, split into its
** records' local states. */
static void on_visit(void *ctx, const uint8_t *s, size_t len) {
  RedCheck *c = ctx;
  vm_local_states(c->vm, s, len, &c->scratch, on_local, c);
}

void redcheck_attach(RedCheck *c, SearchOptions *so) {
  so->visit = on_visit;
  so->visit_ctx = c;
  c->attached = 1;
}

/* The record index vm_local_states gives, in words (heap). */
static char *record_name(const VmTest *test, uint32_t index) {
  Buf b;
  buf_init(&b);
  if (index < test->nspecs) buf_printf(&b, "spec %u", index);
  else buf_printf(&b, "machine %u", index - test->nspecs);
  return buf_take(&b);
}

/* The full search runs on one thread with the reduction off and nothing
** that would write files or share state with the run (checkpoints,
** finished states, schedule coverage, learning, the portfolio), its log
** thrown away; it sees its States only if the reduced search's were seen
** and the set is whole. */
int redcheck_compare(RedCheck *c, const BcProgram *bc, const VmTest *test, const SearchOptions *so,
                     const char *name, const SearchResult *reduced, FILE *out) {
  if (reduced->bug) {
    fputs("check-reduction: nothing to compare: the reduced search found a bug (its trace is an execution of "
          "the full semantics)\n", out);
    return 0;
  }
  if (!reduced->complete) {
    fputs("check-reduction: nothing to compare: the reduced search did not complete (a bounded claim "
          "the full search cannot contradict)\n", out);
    return 0;
  }
  SearchOptions full = *so;
  full.no_reduction = 1;
  full.quiet = 1;
  full.progress = 0;
  full.keep_going = 0;
  full.jobs = 1;
  full.member = NULL;
  full.finished = NULL;
  full.ck = NULL;
  full.sched = NULL;
  full.save_schedule = NULL;
  full.learned = NULL;
  int sees = c->attached;
  c->comparing = 1;
  full.visit = NULL;
  if (sees && !c->full) {
    full.visit = on_visit;
    full.visit_ctx = c;
  }
  /* The full search looks for what the reduced one looks for: hot cycles
  ** with dfs (for dfs, ses and the portfolio), none with bfs (for bfs and
  ** pb, which report hot specs at quiescence only). */
  int cycles = (search_caps(name) & SEARCH_HOT_CYCLES) != 0;
  const SearchOps *ops = search_find(cycles ? "dfs" : "bfs");
  SearchResult r = {0};
  FILE *sink = fopen("/dev/null", "w");
  int rc = ops->run(bc, test, &full, sink ? sink : out, &r);
  if (sink) fclose(sink);
  if (rc != 0) {
    fputs("check-reduction: the full search failed (said above)\n", out);
    search_result_fini(&r);
    return -1;
  }
  int bad = 0;
  if (r.bug) {
    fprintf(out, "check-reduction: DISAGREES: the full search (%s --no-reduction) finds a bug the reduced "
            "search reported complete without: %s", ops->name, vm_status_name(r.bugdesc.status));
    if (r.bugdesc.file) fprintf(out, " at %s:%u:%u", r.bugdesc.file, r.bugdesc.line, r.bugdesc.col);
    if (r.bugdesc.message) fprintf(out, ": %s", r.bugdesc.message);
    fputs("\n", out);
    bad = 1;
  } else if (c->has_missing) {
    char *who = record_name(test, c->missing_index);
    fprintf(out, "check-reduction: DISAGREES: the full search reaches %llu observable local states the reduced "
            "search did not (the first of %s)\n", (unsigned long long)c->missing, who);
    free(who);
    bad = 1;
  } else {
    fprintf(out, "check-reduction: agrees: the full search (%s --no-reduction, %llu states, %s) finds no bug",
            ops->name, (unsigned long long)r.states, r.complete ? "complete" : "stopped early");
    if (!sees) fputs("; local states not compared (this search's States are not seen)", out);
    else if (c->full) fputs("; local states not compared (their set outgrew its budget)", out);
    else fprintf(out, " and no local state the reduced search (%llu states) missed", (unsigned long long)reduced->states);
    fputs("\n", out);
  }
  search_result_fini(&r);
  return bad;
}
