/* cli.c: the `pcheck` command.  Reads argv (P's spellings too), runs the
** front end and maps every outcome to the exit codes of the man page (doc/pcheck.1): 0 no bug,
** 1 bug found, 2 usage or compile error, 3 internal or resource failure,
** 4 incomplete with --fail-on-incomplete, 130 interrupted.  The only file
** that reads argv or calls exit(). */
#include <config.h>
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <signal.h>
#include "lang/codegen.h"
#include "lang/frontend.h"
#include "lang/testcases.h"
#include "checker/search/search.h"
#include "checker/engine/reduce.h"
#include "checker/search/redcheck.h"
#include "checker/observe/estimate.h"
#include "checker/base/json.h"
#include "checker/report/trace.h"
#include "checker/base/files.h"
#include "checker/engine/explorer.h"
#include "checker/report/tracedoc.h"
#include "checker/observe/coverage.h"
#include "checker/observe/schedcov.h"
#include "checker/observe/learned.h"
#include "checker/par/ranks.h"
#include "checker/search/search_ck.h"
#include "checker/cli/options.h"
#include <sys/resource.h>
#include <unistd.h>
#include <dirent.h>

/* --resume FILE: what the run does not name is the checkpoint's (its
** test, search and seed); then what --checkpoint and --resume need.  0, or
** the exit code of a refusal (said). */
static int checkpoint_options(Options *o, int search_given, int seed_given) {
  static CkPeek pk;   /* o keeps pointers into it */
  if (o->resume) {
    Buf err;
    buf_init(&err);
    if (ck_peek(o->resume, &pk, &err) != 0) {
      fprintf(stderr, "pcheck: error: %s\n", err.data);
      buf_fini(&err);
      return EXIT_USAGE;
    }
    buf_fini(&err);
    if (!search_given && search_find(pk.search)) o->search = pk.search;
    if (!o->test) o->test = pk.test;
    char seed[32];
    if (!seed_given && ck_option(pk.options, "seed", seed, sizeof seed)) {
      o->seed = strtoull(seed, NULL, 10);
      o->seed_given = 1;
    }
  }
  const char *opt = o->checkpoint ? "--checkpoint" : "--resume";
  if (!(search_caps(o->search) & SEARCH_CHECKPOINT)) {
    fprintf(stderr, "pcheck: error: %s: dfs, bfs, ses and ss write checkpoints and resume from them, not --search %s\n", opt,
            o->search);
    return EXIT_USAGE;
  }
  if (o->keep_going) return usage_error("--keep-going keeps every bug place in memory: it cannot be checkpointed%s", "");
  if ((search_caps(o->search) & SEARCH_CK_SERIAL) && o->jobs > 1)
    return usage_error("%s checkpoints one stack: run it with -j 1, or use --search bfs on -j threads", o->search);
  if (ranks_count() > 1) return usage_error("--checkpoint and --resume need one process: run without mpirun%s", "");
  if (o->replay) return usage_error("--replay re-runs a trace: it has no checkpoint%s", "");
  if (o->checkpoint) {   /* a folder that cannot take it is said now, not an hour into the search */
    Buf tmp;
    buf_init(&tmp);
    buf_printf(&tmp, "%s.tmp%ld", o->checkpoint, (long)getpid());
    FILE *f = fopen(tmp.data, "wb");
    int e = errno;
    if (f) {
      fclose(f);
      remove(tmp.data);
    }
    buf_fini(&tmp);
    if (!f) {
      fprintf(stderr, "pcheck: error: cannot write the checkpoint '%s': %s\n", o->checkpoint, strerror(e));
      return EXIT_USAGE;
    }
  }
  return 0;
}

/* What shapes a search's course, as a checkpoint's options text: a run
** resumes only with the same (--mem and --frontier-mem may differ: the
** state cache is loaded into any budget it fits). */
static char *checkpoint_options_text(const Options *o, const SearchOptions *so) {
  Buf b;
  buf_init(&b);
  options_ck_text(&b, o);
  buf_printf(&b, " explorer=%s", so->explorer ? so->explorer : "none");   /* resolved: the same from any folder */
  return buf_take(&b);
}

/* The state cache of --cache (the CHOICE's order in options.def). */
static ScKind cache_kind(const Options *o) {
  static const ScKind kinds[] = { SC_FLAT, SC_COMPACT, SC_JUDY };
  return kinds[o->cache];
}

/* The limits of --max-step-instructions, --max-inbox, --max-machines,
** --max-collection and --max-state-bytes on every Vm of the test. */
static void set_limits(const Options *o, VmTest *t) {
  t->max_step_instructions = (uint64_t)o->max_step_instructions;
  t->max_inbox = (uint32_t)o->max_inbox;
  t->inbox_bug = (uint8_t)o->inbox_bug;
  t->max_machines = (uint32_t)o->max_machines;
  t->max_collection = (uint32_t)o->max_collection;
  t->max_state_bytes = o->max_state_bytes;
}

static double now_seconds(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}



/* A quarter of the machine's memory: the default state-cache budget. */
/* MemTotal of /proc/meminfo, else sysconf's count of pages, else 4 GiB. */
static uint64_t read_physical_memory(void) {
  FILE *f = fopen("/proc/meminfo", "r");
  unsigned long long kb = 0;
  if (f) {
    char line[256];
    while (fgets(line, sizeof line, f))
      if (sscanf(line, "MemTotal: %llu kB", &kb) == 1) break;
    fclose(f);
  }
  if (kb) return (uint64_t)kb * 1024;
  long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGE_SIZE);
  return pages > 0 && size > 0 ? (uint64_t)pages * (uint64_t)size : 4ull << 30;
}

/* Physical memory in bytes: MemTotal of /proc/meminfo, else sysconf's
** count of pages, else 4 GiB.  Read once: the memory plan asks for it
** wherever the options are turned into budgets. */
static uint64_t physical_memory(void) {
  static uint64_t known;
  if (!known) known = read_physical_memory();
  return known;
}

/* The memory budget: --mem bounds the whole of pcheck's memory (default:
** half of physical memory), split by one policy (man page, --mem):
**   reserve  a sixteenth (at least 16 MiB, at most 1 GiB) for what no
**            search budgets: the program, the VMs' scratch of one step,
**            explorer states being made, estimates, coverage;
**   frontier half of the rest, or --frontier-mem: stacks, queues, ses's
**            frontier, trace trees, the hot-cycle search, the states dfs
**            publishes for ses;
**   cache    the rest: the state cache.
** A search keeps its parts within these; the margin past --mem is the
** reserve's overrun and the allocators' slack (bench/README.md, Memory). */
typedef struct MemPlan {
  uint64_t total, reserve, frontier, cache;
} MemPlan;

static uint64_t default_mem(void) { return physical_memory() / 2; }

/* The plan for o (0 if --frontier-mem leaves the cache nothing). */
static int mem_plan(const Options *o, MemPlan *p) {
  p->total = o->mem ? o->mem : default_mem();
  p->reserve = p->total / 16;
  if (p->reserve < (16ull << 20)) p->reserve = p->total / 4 < (16ull << 20) ? p->total / 4 : 16ull << 20;
  if (p->reserve > (1ull << 30)) p->reserve = 1ull << 30;
  uint64_t rest = p->total - p->reserve;
  p->frontier = o->frontier_mem ? o->frontier_mem : rest / 2;
  if (p->frontier >= rest) return 0;
  p->cache = rest - p->frontier;
  return 1;
}

/* Does this process print and write (rank 0, or the only process)? */
static int writer(void) { return ranks_me() == 0; }

/* The bug line: "bug: KIND at FILE:L:C: MESSAGE", without repeating the
** kind the message starts with ("assertion failed: ..."). */
static void print_bug(const VmBug *b) {
  if (b->file)
    printf("bug: %s at %s:%u:%u: %s\n", vm_status_name(b->status), b->file, b->line, b->col, tracedoc_bug_message(b));
  else printf("bug: %s: %s\n", vm_status_name(b->status), tracedoc_bug_message(b));
}

/* --keep-going: every place a bug was found, in the order found. */
static void print_sites(const SearchResult *r) {
  if (r->executions)
    printf("bug executions: %llu of %llu (%.2f%%)\n", (unsigned long long)r->bug_executions,
           (unsigned long long)r->executions, 100.0 * (double)r->bug_executions / (double)r->executions);
  printf("bug places: %u\n", r->nsites);
  for (uint32_t i = 0; i < r->nsites; i++) {
    const BugSite *x = &r->sites[i];
    const char *steps = x->hits == 1 ? "time" : "times";
    if (x->status == VM_BUG_HOT_CYCLE) printf("  %s: spec %s\n", vm_status_name(x->status), x->file);
    else if (x->file) printf("  %s: %s:%u:%u (found %llu %s)\n", vm_status_name(x->status), x->file, x->line, x->col,
                        (unsigned long long)x->hits, steps);
    else printf("  %s (found %llu %s)\n", vm_status_name(x->status), (unsigned long long)x->hits, steps);
  }
}

/* P's scenarios (coverage specs) of the test: covered when some step of
** the search made one enter a cold state; never a bug either way. */
static void print_scenarios(const BcProgram *bc, const VmTest *t) {
  if (!t->scenario_mask) return;
  uint64_t hit = __atomic_load_n(t->scenario_hit, __ATOMIC_RELAXED);
  for (uint16_t k = 0; k < t->nspecs && k < 64; k++) {
    if (!(t->scenario_mask >> k & 1)) continue;
    if (hit >> k & 1) printf("scenario: %s covered\n", bc->machines[t->specs[k]].name);
    else printf("scenario: %s not covered (no step entered a cold state)\n", bc->machines[t->specs[k]].name);
  }
}

/* A search that runs executions (SEARCH_SAMPLING: the portfolio too, by
** its sampling members): it draws a seed when none is given and stops at
** the default budget without a bound. */
static int is_random_search(const char *search) { return (search_caps(search) & SEARCH_SAMPLING) != 0; }

/* What kind of figures a search has: states (exhaustive), executions
** (sampling), delay or preemption bounds. */
static int is_exhaustive(const char *search) { return (search_caps(search) & SEARCH_EXHAUSTIVE) != 0; }

static int has_delays(const char *search) { return (search_caps(search) & SEARCH_DELAYS) != 0; }

/* The figures line: only those that mean something for the search that
** ran (no "executions: 0" for dfs, no "states: 0" for random). */
static void print_figures(const char *search, const SearchResult *res, int exhaustive) {
  if (exhaustive || res->states) printf("states: %llu  ", (unsigned long long)res->states);
  printf("transitions: %llu  ", (unsigned long long)res->transitions);
  if (!exhaustive || res->executions) printf("executions: %llu  ", (unsigned long long)res->executions);
  printf("max-depth: %llu  ", (unsigned long long)res->max_depth);
  if (has_delays(search) || res->delays) printf("delays: %llu  ", (unsigned long long)res->delays);
  printf("time: %.2f\n", res->seconds);
}

/* The estimate of what the search would cover in all, for a run that
** ended before covering it (a complete run's count is exact). */
static void print_estimate(const SearchResult *res) {
  if (res->complete) return;
  char e[40];
  est_format(e, sizeof e, res->est_log2);
  if (res->est_kind == EST_STATES) {
    double f = est_fraction((double)res->est_done, res->est_log2);
    printf("estimate: ~%s reachable states, %.0f%% explored", e, f * 100);
    if (res->est_factor >= 1.05) printf(" (sampling error within %.2gx; low early in a run)", res->est_factor);
    else printf(" (low early in a run)");
    printf("\n");
  } else if (res->est_kind == EST_EXECUTIONS) {
    char d[40];
    fmt_grouped(d, sizeof d, res->est_done);
    double f = est_fraction((double)res->est_done, res->est_log2);
    if (res->est_factor == 1) {
      printf("estimate: every execution was run (%s distinct)\n", d);
    } else {
      printf("estimate: ~%s distinct executions in all (Eta's estimator), %s run", e, d);
      if (f >= 0.01) printf(" (%.0f%%)", f * 100);
      printf("\n");
    }
  }
  if (res->est_next_bound >= 0 && res->est_next_states > 0) {
    est_format(e, sizeof e, log2(res->est_next_states));
    printf("next: --max-delays %lld would add ~%s states", (long long)res->est_next_bound, e);
    if (res->est_next_seconds > 0) printf(" (~%.0f s)", res->est_next_seconds);
    printf("\n");
  }
}

/* What a run that found no bug has shown, in words (heap). */
static char *guarantee_text(const char *search, const SearchResult *res, int exhaustive) {
  Buf b;
  buf_init(&b);
  if (res->complete) {
    buf_printf(&b, "complete: no bug in any execution (%llu states explored)", (unsigned long long)res->states);
  } else if (res->has_proved && res->proved_period) {
    /* The reduced graph's levels: an execution of n steps is covered within
    ** n * proved_period of them (reduce.h, red_period_full). */
    buf_printf(&b, "no bug within depth %llu of the reduced search, so in every execution of at most %llu steps "
               "(--no-reduction: of at most the depth)", (unsigned long long)res->proved,
               (unsigned long long)(res->proved / res->proved_period));
  } else if (res->has_proved && search_find(search)->proof == PROOF_DEPTH) {
    buf_printf(&b, "no bug within depth %llu (every execution of at most %llu steps)", (unsigned long long)res->proved,
               (unsigned long long)res->proved);
  } else if (res->has_proved && search_find(search)->proof == PROOF_PREEMPTIONS) {
    buf_printf(&b, "no bug with at most %llu preemptions", (unsigned long long)res->proved);
  } else if (res->has_proved) {
    buf_printf(&b, "no bug with at most %llu delays (--explorer's schedule and every deviation of at most %llu delays)",
               (unsigned long long)res->proved, (unsigned long long)res->proved);
  } else if (exhaustive || (res->states && !res->executions)) {
    buf_printf(&b, "none beyond the %llu states explored: no bug in them", (unsigned long long)res->states);
  } else {
    buf_printf(&b, "%llu executions without a bug (sampled: no proof)", (unsigned long long)res->executions);
  }
  return buf_take(&b);
}

static long peak_rss_bytes(void) {
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  return ru.ru_maxrss * 1024L;
}

static void json_key_str(Buf *b, const char *key, const char *v) {
  buf_printf(b, "  \"%s\": ", key);
  if (v) json_put_string(b, v, strlen(v));
  else buf_puts(b, "null");
  buf_puts(b, ",\n");
}

static uint64_t plan_total(const Options *o) {
  MemPlan p;
  mem_plan(o, &p);
  return p.total;
}

/* The options that shaped the run, for --stats-json: options.def's
** OUT_JS ones, then the memory budget and whether the seed was drawn. */
static void json_options(Buf *b, const Options *o, const char *indent) {
  buf_printf(b, "%s\"options\": {", indent);
  options_json(b, o);
  buf_printf(b, ", \"mem\": %llu, \"seed_drawn\": %s}", (unsigned long long)plan_total(o),
             !o->seed_given && is_random_search(o->search) ? "true" : "false");
}

/* One test's figures as a JSON object (the whole --stats-json file for
** one test; an element of "tests" for several). */
static void stats_object(Buf *b, const Options *o, const char *test, const SearchResult *res, int exhaustive,
                         const FileList *traces, const CovCounts *cov, const CkRun *ck) {
  double secs = res->seconds > 1e-9 ? res->seconds : 1e-9;
  buf_printf(b, "{\n  \"schema\": \"pcheck-stats\",\n  \"version\": 1,\n  \"pcheck\": \"%s\",\n", PACKAGE_VERSION);
  json_key_str(b, "test", test);
  buf_printf(b, "  \"search\": \"%s\",\n  \"result\": \"%s\",\n", o->search,
             res->bug ? "bug-found" : res->complete ? "no-bug-complete" : "no-bug-bounded");
  if (res->bound) json_key_str(b, "bound", res->bound);
  if (!res->bug) {
    char *g = guarantee_text(o->search, res, exhaustive);
    json_key_str(b, "guarantee", g);
    free(g);
  }
  if (res->bug) {
    const VmBug *bug = &res->bugdesc;
    buf_printf(b, "  \"bug\": {\"kind\": \"%s\", \"message\": ", vm_status_name(bug->status));
    json_put_string(b, tracedoc_bug_message(bug), strlen(tracedoc_bug_message(bug)));
    if (bug->file) {
      buf_puts(b, ", \"file\": ");
      json_put_string(b, bug->file, strlen(bug->file));
      buf_printf(b, ", \"line\": %u, \"column\": %u", bug->line, bug->col);
    }
    buf_printf(b, ", \"steps\": %llu, \"trace_files\": [", (unsigned long long)res->ntrace);
    for (uint32_t i = 0; traces && i < traces->n; i++) {
      if (i) buf_puts(b, ", ");
      json_put_string(b, traces->items[i], strlen(traces->items[i]));
    }
    buf_puts(b, "]},\n");
  }
  buf_printf(b, "  \"states\": %llu,\n  \"transitions\": %llu,\n  \"executions\": %llu,\n  \"max_depth\": %llu,\n"
             "  \"delays\": %llu,\n  \"time_seconds\": %.3f,\n  \"states_per_second\": %.0f,\n"
             "  \"peak_memory_bytes\": %ld,\n",
             (unsigned long long)res->states, (unsigned long long)res->transitions,
             (unsigned long long)res->executions, (unsigned long long)res->max_depth,
             (unsigned long long)res->delays, res->seconds, (double)res->states / secs, peak_rss_bytes());
  MemPlan mp;
  mem_plan(o, &mp);
  buf_printf(b, "  \"memory\": {\"budget\": %llu, \"cache\": %llu, \"frontier\": %llu, \"reserve\": %llu, "
             "\"peak_resident\": %ld},\n", (unsigned long long)mp.total, (unsigned long long)mp.cache,
             (unsigned long long)mp.frontier, (unsigned long long)mp.reserve, peak_rss_bytes());
  if (exhaustive) {
    uint64_t budget = mp.cache;   /* the state cache's part */
    buf_printf(b, "  \"cache\": \"%s\",\n  \"cache_budget_bytes\": %llu,\n  \"cache_bytes\": %llu,\n"
               "  \"bytes_per_state\": %.1f,\n  \"cache_fill\": %.4g,\n  \"states_not_cached\": %llu,\n"
               "  \"collision_probability\": %.3g,\n",
               sc_kind_name(cache_kind(o)), (unsigned long long)budget, (unsigned long long)res->cache_bytes,
               res->states ? (double)res->cache_bytes / (double)res->states : 0.0,
               budget ? (double)res->cache_bytes / (double)budget : 0.0, (unsigned long long)res->cache_refused,
               sc_collision_probability(res->states));
  }
  if (res->est_kind != EST_NONE) {
    /* The estimate: its value as a number (log10 too: executions can be
    ** past a double's range) and how much of it was covered. */
    double l10 = res->est_log2 * 0.30102999566398120;
    buf_printf(b, "  \"estimate\": {\"of\": \"%s\", \"value\": %.6g, \"log10\": %.4f, \"covered\": %llu, "
               "\"fraction\": %.6g, \"factor\": %.4g, \"exact\": %s",
               res->est_kind == EST_STATES ? "states" : "executions", l10 < 300 ? pow(10, l10) : 1e300, l10,
               (unsigned long long)res->est_done, est_fraction((double)res->est_done, res->est_log2), res->est_factor,
               res->complete && res->est_kind == EST_STATES ? "true" : "false");
    if (res->est_next_bound >= 0 && res->est_next_states > 0)
      buf_printf(b, ", \"next_bound\": {\"delays\": %lld, \"new_states\": %.0f, \"seconds\": %.3g}",
                 (long long)res->est_next_bound, res->est_next_states, res->est_next_seconds);
    buf_puts(b, "},\n");
  }
  buf_printf(b, "  \"reduction\": \"%s\",\n", res->reduced ? "partial-order" : "none");
  if (res->unreduced) json_key_str(b, "reduction_off_because", res->unreduced);
  if (res->reduced)
    buf_printf(b, "  \"pruned_transitions\": %llu,\n  \"proviso_full_states\": %llu,\n  \"period_full_states\": %llu,\n"
               "  \"reduction_threads\": %d,\n",
               (unsigned long long)res->pruned, (unsigned long long)res->widened, (unsigned long long)res->period_full,
               res->reduced_one_thread ? 1 : (o->jobs > 0 ? (int)o->jobs : 1));
  if (res->hot_specs)
    buf_printf(b, "  \"hot_cycle_specs\": %u,\n  \"hot_cycle_peak_bytes\": %llu,\n", res->hot_specs,
               (unsigned long long)res->hot_cycle_bytes);
  if (res->ranks > 1)
    buf_printf(b, "  \"ranks\": %d,\n  \"letters\": %llu,\n  \"letter_bytes\": %llu,\n  \"rank_idle_seconds\": %.3f,\n",
               res->ranks, (unsigned long long)res->letters, (unsigned long long)res->letter_bytes, res->rank_idle);
  if (res->ranks > 1 && res->farm_items)
    buf_printf(b, "  \"work_items\": %llu,\n  \"work_items_redone\": %llu,\n  \"ranks_lost\": %d,\n",
               (unsigned long long)res->farm_items, (unsigned long long)res->farm_redone, res->ranks_lost);
  if (o->keep_going) {
    buf_puts(b, "  \"bug_places\": [");
    for (uint32_t i = 0; i < res->nsites; i++) {
      const BugSite *x = &res->sites[i];
      buf_printf(b, "%s\n    {\"kind\": \"%s\", \"file\": ", i ? "," : "", vm_status_name(x->status));
      if (x->file) json_put_string(b, x->file, strlen(x->file));
      else buf_puts(b, "null");
      buf_printf(b, ", \"line\": %u, \"col\": %u, \"found\": %llu}", x->line, x->col,
                 (unsigned long long)x->hits);
    }
    buf_puts(b, res->nsites ? "\n  ],\n" : "],\n");
    if (res->executions) buf_printf(b, "  \"bug_executions\": %llu,\n", (unsigned long long)res->bug_executions);
  }
  if (cov)
    buf_printf(b, "  \"coverage\": {\"states\": %u, \"states_entered\": %u, \"handlers\": %u, \"handlers_run\": %u, "
               "\"asserts\": %u, \"asserts_evaluated\": %u},\n", cov->states, cov->states_entered, cov->handlers,
               cov->handlers_run, cov->asserts, cov->asserts_run);
  if (ck) {   /* --checkpoint, --resume */
    buf_puts(b, "  \"checkpoint\": {\"file\": ");
    if (ck->path) json_put_string(b, ck->path, strlen(ck->path));
    else buf_puts(b, "null");
    buf_printf(b, ", \"written\": %llu, \"write_seconds\": %.3f, \"resumed_from\": ", (unsigned long long)ck->written,
               ck->write_seconds);
    if (ck->from_path) json_put_string(b, ck->from_path, strlen(ck->from_path));
    else buf_puts(b, "null");
    buf_printf(b, ", \"seconds_before\": %.3f},\n", ck->prior_seconds);
  }
  if (res->state_bytes)   /* dfs: the size of the States it entered */
    buf_printf(b, "  \"mean_state_bytes\": %.1f,\n  \"max_state_bytes\": %llu,\n",
               (double)res->state_bytes / (double)res->states, (unsigned long long)res->max_state_bytes);
  json_options(b, o, "  ");
  buf_printf(b, ",\n  \"seed\": %llu\n}", o->seed);
}

/* Write the --stats-json file: the test's object, or for several tests
** an object holding one per test.  0, or -1 with a message. */
static int write_stats_json(const char *path, const Options *o, char **objects, int n) {
  Buf b;
  buf_init(&b);
  if (n == 1) {
    buf_puts(&b, objects[0]);
    buf_putc(&b, '\n');
  } else {
    buf_printf(&b, "{\n  \"schema\": \"pcheck-stats-tests\",\n  \"version\": 1,\n  \"pcheck\": \"%s\",\n  \"seed\": %llu,\n",
               PACKAGE_VERSION, o->seed);
    json_options(&b, o, "  ");
    buf_puts(&b, ",\n  \"tests\": [");
    for (int i = 0; i < n; i++) {
      buf_puts(&b, i ? ",\n" : "\n");
      buf_puts(&b, objects[i]);
    }
    buf_puts(&b, "\n  ]\n}\n");
  }
  int ok = file_write_atomic(path, &b) == 0;
  buf_fini(&b);
  if (!ok) fprintf(stderr, "pcheck: error: cannot write '%s': %s\n", path, strerror(errno));
  return ok ? 0 : -1;
}

static volatile sig_atomic_t stop_requested;   /* the signal that asked the search to stop, or 0 */

/* SIGINT/SIGTERM: the search stops at its next check and prints its
** figures; a second signal ends the process at once. */
static void on_signal(int sig) {
  if (stop_requested) _exit(128 + sig);
  stop_requested = sig;
}

/* --replay: re-run a trace file's choices and print the log; with
** --trace-format, also render those formats into -o. */
static int run_replay(const Options *o, const BcProgram *bc, Program *prog, TestList *tests, int render) {
  TraceInfo ti;
  Buf err;
  buf_init(&err);
  if (trace_read(o->replay, &ti, &err) != 0) {
    fprintf(stderr, "pcheck: error: %s\n", err.data);
    buf_fini(&err);
    return EXIT_USAGE;
  }
  const char *want = o->test ? o->test : ti.test;
  int sel = -1;
  for (int i = 0; i < tests->n; i++) if (strcmp(tests->items[i].name, want) == 0) sel = i;
  if (sel < 0) {
    fprintf(stderr, "pcheck: error: the trace is for test '%s', which the model does not have\n", want);
    trace_info_fini(&ti);
    buf_fini(&err);
    return EXIT_USAGE;
  }
  VmTest test;
  cg_test(bc, prog, &tests->items[sel], &test);
  set_limits(o, &test);
  if (ti.has_limits && !o->limits_given) {   /* the limits the trace ran under */
    test.max_step_instructions = ti.limits[0];
    test.max_inbox = (uint32_t)ti.limits[1];
    test.max_machines = (uint32_t)ti.limits[2];
    test.max_collection = (uint32_t)ti.limits[3];
    test.max_state_bytes = ti.limits[4];
  }
  /* A trace of an inbox overflow was found with --inbox-overflow-is-bug. */
  if (ti.bug_kind && strcmp(ti.bug_kind, vm_status_name(VM_BUG_INBOX)) == 0) test.inbox_bug = 1;
  Buf log;
  buf_init(&log);
  VmBug bug;
  uint64_t at = 0;
  int unfair = ti.unfair || o->unfair;
  /* A trace of a --fail-on-maxsteps bug reached its bound at its end. */
  uint64_t fail_at = ti.bug_kind && strcmp(ti.bug_kind, vm_status_name(VM_BUG_MAX_STEPS)) == 0 ? ti.bug_step : 0;
  int r = trace_replay(bc, &test, ti.choices, ti.n, ti.cycle_start, unfair, ti.temperature, fail_at, &log, &bug, &at,
                       &err);
  fwrite(log.data ? log.data : "", 1, log.len, stdout);
  int rc;
  /* The bug the trace records (when it records one): reached, of the same
  ** kind, at the same step (a lasso's step is where its cycle closes,
  ** which the replay reports as it goes round: the kind alone). */
  int missed = r >= 0 && ti.bug_kind &&
               !(r == 1 && strcmp(vm_status_name(bug.status), ti.bug_kind) == 0 &&
                 (ti.cycle_start >= 0 || at == ti.bug_step));
  if (r < 0) {
    fprintf(stderr, "pcheck: error: %s: %s\n", o->replay, err.data);
    rc = EXIT_USAGE;
  } else if (missed) {
    if (r == 1) print_bug(&bug);
    printf("result: replay-failed (the trace records %s at step %llu; its replay %s)\n", ti.bug_kind,
           (unsigned long long)ti.bug_step, r == 1 ? "ends in another bug" : "ends without it");
    if (r == 1) printf("replay: %llu of %llu steps\n", (unsigned long long)at, (unsigned long long)ti.n);
    else printf("replay: %llu steps, all of the trace's\n", (unsigned long long)ti.n);
    fflush(stdout);
    fprintf(stderr, "pcheck: error: %s does not reach the bug it records (%s at step %llu): cut, or for "
            "another model or version\n", o->replay, ti.bug_kind, (unsigned long long)ti.bug_step);
    rc = EXIT_USAGE;
  } else {
    if (r == 1 && bug.status == VM_LIMIT) {   /* the way to a limit, not to a bug */
      if (bug.file) printf("limit: %s at %s:%u:%u\n", bug.message, bug.file, bug.line, bug.col);
      else printf("limit: %s\n", bug.message);
      printf("result: no-bug (the trace ran to a limit after %llu of %llu steps)\n", (unsigned long long)at,
             (unsigned long long)ti.n);
      rc = EXIT_NOBUG;
    } else if (r == 1) {
      print_bug(&bug);
      printf("result: bug-found\n");
      printf("replay: %llu of %llu steps\n", (unsigned long long)at, (unsigned long long)ti.n);
      rc = EXIT_BUG;
    } else {
      printf("result: no-bug (the trace ran to its end, %llu steps, without a bug)\n", (unsigned long long)ti.n);
      rc = EXIT_NOBUG;
    }
    if (render) {
      /* The formats, from the choices up to the bug (a lasso keeps them all). */
      TdMeta meta = { ti.test, ti.search, ti.seed, r == 1 ? &bug : NULL, r == 1 ? ti.cycle_start : -1, unfair,
                      ti.temperature, trace_wants_views(o->trace_format), NULL };
      TraceDoc d;
      FileList written = {0};
      if (tracedoc_build(&d, bc, &test, &meta, ti.choices, r == 1 ? at : ti.n, &err) != 0 ||
          trace_render(&d, o->out, o->trace_format, &written) != 0)
        rc = EXIT_INTERNAL;
      for (uint32_t i = 0; i < written.n; i++) printf("wrote: %s\n", written.items[i]);
      tracedoc_fini(&d);
      filelist_fini(&written);
    }
  }
  if (r == 1) free(bug.message);
  buf_fini(&log);
  buf_fini(&err);
  cg_test_fini(&test);
  trace_info_fini(&ti);
  return rc;
}

/* Source lines for --dump-bytecode, from the files the Diag holds. */
static const char *source_line(void *ctx, uint32_t file, uint32_t line, size_t *len) {
  const Diag *d = ctx;
  if (file >= (uint32_t)d->nfiles) return NULL;
  const SrcFile *f = &d->files[file];
  uint32_t ln = 1;
  size_t i = 0;
  while (i < f->len && ln < line) if (f->text[i++] == '\n') ln++;
  if (ln != line) return NULL;
  size_t e = i;
  while (e < f->len && f->text[e] != '\n' && f->text[e] != '\r') e++;
  *len = e - i;
  return f->text + i;
}

/* What one test's search came to, for the table after several tests. */
typedef struct TestRun {
  const char *name;          /* borrowed from the TestList */
  int rc;                    /* its exit code */
  const char *verdict;       /* "bug-found", "no-bug (complete)", "no-bug (bounded)", "error" */
  int exhaustive;            /* states are its figure, else executions */
  uint64_t states, executions;
  double seconds;
  char *json;                /* its --stats-json object (heap), or NULL */
} TestRun;

/* Which exit code wins when several tests ran: an internal error, an
** interrupt, a bug, an incomplete run (--fail-on-incomplete), none. */
static int worse(int a, int b) {
  static const int order[] = { EXIT_INTERNAL, EXIT_INTERRUPTED, EXIT_USAGE, EXIT_BUG, EXIT_INCOMPLETE, EXIT_NOBUG };
  for (size_t i = 0; i < sizeof order / sizeof order[0]; i++)
    if (a == order[i] || b == order[i]) return order[i];
  return a;
}

/* The table that ends a run of several tests: one line per test, a total. */
static void print_table(const TestRun *runs, int n) {
  size_t w = 4;
  for (int i = 0; i < n; i++) if (strlen(runs[i].name) > w) w = strlen(runs[i].name);
  printf("\n== %d tests\n%-*s  %-18s  %18s  %9s\n", n, (int)w, "test", "result", "states/executions", "time (s)");
  int bugs = 0, complete = 0, bounded = 0, errors = 0;
  double total = 0;
  for (int i = 0; i < n; i++) {
    const TestRun *r = &runs[i];
    char num[40], fig[64];
    snprintf(fig, sizeof fig, "%s %s", fmt_grouped(num, sizeof num, r->exhaustive ? r->states : r->executions),
             r->exhaustive ? "states" : "executions");
    printf("%-*s  %-18s  %18s  %9.2f\n", (int)w, r->name, r->verdict, fig, r->seconds);
    total += r->seconds;
    if (r->rc == EXIT_BUG) bugs++;
    else if (strcmp(r->verdict, "no-bug (complete)") == 0) complete++;
    else if (strcmp(r->verdict, "error") == 0) errors++;
    else bounded++;
  }
  printf("total: %d tests: %d bug found, %d no bug (complete), %d no bug (bounded)", n, bugs, complete, bounded);
  if (errors) printf(", %d failed to run", errors);
  printf("; %.2f s\n", total);
}

/* Search one test case, print its summary and fill run. */
static int run_search(const Options *o, const BcProgram *bc, Program *prog, const TestCase *tc, Learned *learned,
                      TestRun *run);

/* Compile, then dump the bytecode, replay a trace, or search each selected
** test case in turn (exit status: the worst of them). */
static int run_checker(const Options *o, Program *prog, Diag *diag, TestList *tests, const int *sel, int nsel,
                       int render) {
  BcProgram *bc = cg_compile(prog, diag);
  if (!bc) { diag_summary(diag); return EXIT_USAGE; }
  int rc = EXIT_NOBUG;
  if (o->dump_bytecode) {
    Buf b;
    buf_init(&b);
    bc_disasm(bc, &b, source_line, diag);
    fwrite(b.data ? b.data : "", 1, b.len, stdout);
    buf_fini(&b);
    bc_free(bc);
    return EXIT_NOBUG;
  }
  if (o->replay) {
    rc = run_replay(o, bc, prog, tests, render);
    bc_free(bc);
    return rc;
  }
  if (!search_find(o->search)) {
    fprintf(stderr, "pcheck: error: --search %s is not available in this build (pcheck %s)\n", o->search,
            PACKAGE_VERSION);
    bc_free(bc);
    return EXIT_INTERNAL;
  }
  if ((o->checkpoint || o->resume) && nsel != 1) {
    fprintf(stderr, "pcheck: error: %s is for one test case, and %d are selected: choose one with -tc NAME\n",
            o->checkpoint ? "--checkpoint" : "--resume", nsel);
    bc_free(bc);
    return EXIT_USAGE;
  }
  if (!o->seed_given && is_random_search(o->search))
    printf("seed: %llu (drawn at random; --seed %llu repeats this run)\n", o->seed, o->seed);
  Learned *learned = NULL;
  if (o->learn && (search_caps(o->search) & SEARCH_LEARNS)) {
    Buf err;
    buf_init(&err);
    learned = learned_new();
    if (learned_load(learned, o->learn, &err) != 0) {
      fprintf(stderr, "pcheck: error: %s\n", err.data);
      buf_fini(&err);
      learned_free(learned);
      bc_free(bc);
      return EXIT_USAGE;
    }
    buf_fini(&err);
  }
  TestRun *runs = xcalloc((size_t)(nsel ? nsel : 1), sizeof *runs);
  int ran = 0;
  /* The first test runs even when a signal came before it (while the model
  ** was read): its search stops at once and prints its summary. */
  for (int i = 0; i < nsel && (i == 0 || !stop_requested); i++) {
    if (nsel > 1) printf("%s== test %s\n", i ? "\n" : "", tests->items[sel[i]].name);
    fflush(stdout);
    int r = run_search(o, bc, prog, &tests->items[sel[i]], learned, &runs[ran++]);
    rc = ran == 1 ? r : worse(rc, r);
  }
  if (nsel > 1) print_table(runs, ran);
  if (o->stats_json && ran && writer()) {
    char **objs = xcalloc((size_t)ran, sizeof(char *));
    int nobj = 0;
    for (int i = 0; i < ran; i++) if (runs[i].json) objs[nobj++] = runs[i].json;
    if (nobj && write_stats_json(o->stats_json, o, objs, nobj) != 0) rc = worse(rc, EXIT_INTERNAL);
    else if (nobj) printf("wrote: %s\n", o->stats_json);
    free(objs);
  }
  for (int i = 0; i < ran; i++) free(runs[i].json);
  free(runs);
  learned_free(learned);
  bc_free(bc);
  return rc;
}

/* The exit code of a search that found no bug. */
static int nobug_code(const Options *o, const SearchResult *res) {
  if (stop_requested == SIGINT) return EXIT_INTERRUPTED;
  if (o->fail_on_incomplete && !res->complete) return EXIT_INCOMPLETE;
  if (stop_requested) return 128 + (int)stop_requested;
  return EXIT_NOBUG;
}

/* ", N by the depth period" when the search has one (bfs: reduce.h,
** red_period_full); a static buffer. */
static const char *period_text(const SearchResult *res) {
  static char t[80];
  if (!res->period_full) return "";
  snprintf(t, sizeof t, ", %llu by the depth period (every %dth level)", (unsigned long long)res->period_full,
           (int)RED_PERIOD);
  return t;
}

/* The lines after a search's own: cache, reduction, bug places. */
static void print_details(const Options *o, const SearchResult *res, const SearchOptions *so, int exhaustive) {
  if (exhaustive) {
    printf("state cache: %s, %.1f MiB of %.1f MiB%s", sc_kind_name(cache_kind(o)),
           (double)res->cache_bytes / 1048576.0, (double)so->mem / 1048576.0, res->cache_full ? ", full" : "");
    if (res->cache_refused) printf(", %llu states not cached", (unsigned long long)res->cache_refused);
    printf("; fingerprint collision probability %.2g\n", sc_collision_probability(res->states));
  }
  if (res->ranks > 1 && res->farm_items) {
    printf("distributed: %d ranks, %llu items of work, %llu messages (%.1f MiB), %.2f s waiting for work",
           res->ranks, (unsigned long long)res->farm_items, (unsigned long long)res->letters,
           (double)res->letter_bytes / 1048576.0, res->rank_idle);
    if (res->ranks_lost)
      printf("; %d rank%s stopped answering, %llu item%s redone by the others", res->ranks_lost,
             res->ranks_lost == 1 ? "" : "s", (unsigned long long)res->farm_redone, res->farm_redone == 1 ? "" : "s");
    printf("\n");
  } else if (res->ranks > 1 && (search_caps(o->search) & SEARCH_MEMBERS)) {
    printf("distributed: %d ranks, %.2f s waiting for each other at the ends of rounds; %s\n", res->ranks,
           res->rank_idle, res->dist_note ? res->dist_note : "");
  } else if (res->ranks > 1) {
    printf("distributed: %d ranks, %llu letters between them (%.1f MiB), %.2f s waiting for each other",
           res->ranks, (unsigned long long)res->letters, (double)res->letter_bytes / 1048576.0, res->rank_idle);
    if (res->dist_note) printf("; %s", res->dist_note);
    printf("\n");
  }
  if (res->unreduced) printf("reduction: off (%s)\n", res->unreduced);
  if (res->reduced)
    printf("reduction: partial-order, %llu transitions pruned, %llu states explored in full by the cycle proviso%s%s\n",
           (unsigned long long)res->pruned, (unsigned long long)res->widened, period_text(res),
           res->reduced_one_thread ? "; dfs ran on one thread (--no-reduction searches every interleaving on -j threads)"
                                   : "");
  if (o->keep_going) print_sites(res);
}

/* The search's options from the command line's. */
static void search_options(const Options *o, SearchOptions *so) {
  memset(so, 0, sizeof *so);
  so->seed = o->seed;
  so->max_steps = o->max_steps;
  so->max_fair_steps = o->max_fair_steps;
  so->schedules = o->schedules;
  so->timeout = o->timeout;
  so->rank_timeout = o->rank_timeout;
  MemPlan mp;
  mem_plan(o, &mp);   /* checked when the options were read */
  so->mem = mp.cache;
  so->frontier_mem = mp.frontier;
  so->cache_kind = cache_kind(o);
  so->verbose = o->verbose;
  so->quiet = o->quiet;
  so->progress = !o->quiet && !o->no_progress;
  so->progress_lines = so->progress && !isatty(2);
  so->progress_every = o->progress_every;
  so->stop = &stop_requested;
  so->max_bound = o->max_delays;
  so->irs_step = o->irs_step;
  so->pct_depth = o->pct_depth;
  so->pct_steps = o->pct_steps;
  so->pct_fair = o->pct_fair;
  so->explorer = o->explorer_name;
  so->explorer_native = o->explorer_native;
  so->explorer_twin_check = o->twin_check;
  so->max_delays = o->max_delays;
  so->ss_c1 = o->ss_c1;
  so->ss_c2 = o->ss_c2;
  so->ss_strata = o->ss_strata;
  so->no_sampling = o->no_sampling;
  so->no_shared_cache = o->no_shared_cache;
  so->no_reduction = o->no_reduction;
  so->keep_going = o->keep_going;
  so->fail_on_maxsteps = o->fail_on_maxsteps;
  so->jobs = (int)o->jobs;
  so->unfair = o->unfair;
  so->no_liveness = o->no_liveness;
  so->temperature = o->temperature;   /* -1: each search's default (search_temperature) */
}

/* Write report r as DIR/NAME.coverage.txt and .json, adding the paths to
** written.  0, or -1 with a message. */
static int write_coverage(const CovReport *r, const char *dir, const char *name, FileList *written) {
  if (trace_mkdirs(dir) != 0) {
    fprintf(stderr, "pcheck: error: cannot create '%s': %s\n", dir, strerror(errno));
    return -1;
  }
  for (int json = 0; json < 2; json++) {
    Buf b, path;
    buf_init(&b);
    buf_init(&path);
    if (json) cov_json(r, &b);
    else cov_text(r, &b);
    buf_printf(&path, "%s/%s.coverage.%s", dir, name, json ? "json" : "txt");
    if (file_write_atomic(path.data, &b) != 0) {
      fprintf(stderr, "pcheck: error: cannot write '%s': %s\n", path.data, strerror(errno));
      buf_fini(&b);
      buf_fini(&path);
      return -1;
    }
    buf_fini(&b);
    filelist_add(written, buf_take(&path));
  }
  return 0;
}

/* The coverage summary line of r, then, when `sched`, its schedule
** coverage line. */
static void print_coverage(const CovReport *r, int sched) {
  Buf line;
  buf_init(&line);
  cov_summary(r, &line);
  printf("%s\n", line.data);
  if (sched) {
    line.len = 0;
    cov_sched_summary(r, &line);
    printf("%s\n", line.data);
  }
  buf_fini(&line);
}

/* After a test: the coverage summary line, its counts, and with
** --coverage the report files.  0, or -1 if a file could not be written. */
static int report_coverage(const Options *o, const BcProgram *bc, const VmCov *cov, const SchedCov *sched,
                           const char *test, CovCounts *counts, FileList *written) {
  CovReport r;
  cov_report_build(&r, bc, cov, sched, test);
  cov_counts(&r, counts);
  print_coverage(&r, o->coverage);
  int rc = o->coverage ? write_coverage(&r, o->out, test, written) : 0;
  cov_report_fini(&r);
  return rc;
}

/* --coverage-merge: read the reports in files, merge them, print the
** summary and write DIR/merged.coverage.txt and .json. */
static int merge_coverage(const Options *o, char **files, int n) {
  CovReport all;
  memset(&all, 0, sizeof all);
  int rc = EXIT_NOBUG;
  for (int i = 0; i < n && rc == EXIT_NOBUG; i++) {
    size_t len;
    char *text = read_file(files[i], &len);
    if (!text) {
      fprintf(stderr, "pcheck: error: cannot read '%s': %s\n", files[i], strerror(errno));
      rc = EXIT_USAGE;
      break;
    }
    Buf err;
    buf_init(&err);
    CovReport one;
    if (cov_from_json(&one, text, len, &err) != 0) {
      fprintf(stderr, "pcheck: error: %s: not a pcheck coverage report: %s\n", files[i], err.data ? err.data : "unreadable");
      rc = EXIT_USAGE;
    } else {
      cov_merge(&all, &one);
      cov_report_fini(&one);
    }
    buf_fini(&err);
    free(text);
  }
  if (rc == EXIT_NOBUG) {
    printf("merged: %d reports (tests:", n);
    for (uint32_t i = 0; i < all.ntests; i++) printf(" %s", all.tests[i]);
    printf(")\n");
    print_coverage(&all, all.sched_measured);
    FileList written = {0};
    if (write_coverage(&all, o->out, "merged", &written) != 0) rc = EXIT_INTERNAL;
    for (uint32_t i = 0; i < written.n; i++) printf("wrote: %s\n", written.items[i]);
    filelist_fini(&written);
  }
  cov_report_fini(&all);
  return rc;
}

/* --save-schedules: where a search's schedules go (SearchOptions.save_schedule). */
typedef struct SaveSched {
  const Options *o;
  const char *test;
  uint64_t n;                /* written so far */
} SaveSched;

/* Write DIR/TEST-K.schedule for the K-th schedule. */
static int save_schedule(void *ctx, const char *goal, const TraceChoice *c, uint64_t n) {
  SaveSched *s = ctx;
  Buf path;
  buf_init(&path);
  buf_printf(&path, "%s/%s-%llu.schedule", s->o->save_schedules, s->test, (unsigned long long)++s->n);
  int rc = trace_write_choices(path.data, s->test, s->o->search, s->o->seed, NULL, goal, c, n);
  buf_fini(&path);
  return rc;
}

/* Make DIR and remove the TEST-K.schedule files an earlier run left there.
** 0, or -1 with a message. */
static int prepare_schedule_dir(const char *dir, const char *test) {
  if (trace_mkdirs(dir) != 0) {
    fprintf(stderr, "pcheck: error: cannot create the folder '%s': %s\n", dir, strerror(errno));
    return -1;
  }
  DIR *d = opendir(dir);
  if (!d) {
    fprintf(stderr, "pcheck: error: cannot read the folder '%s': %s\n", dir, strerror(errno));
    return -1;
  }
  size_t tl = strlen(test);
  Buf path;
  buf_init(&path);
  for (struct dirent *e; (e = readdir(d));) {
    const char *n = e->d_name, *p = n + tl + 1;
    if (strncmp(n, test, tl) != 0 || n[tl] != '-' || !isdigit((unsigned char)*p)) continue;
    while (isdigit((unsigned char)*p)) p++;
    if (strcmp(p, ".schedule") != 0) continue;
    path.len = 0;
    buf_printf(&path, "%s/%s", dir, n);
    unlink(path.data);
  }
  closedir(d);
  buf_fini(&path);
  return 0;
}

/* The search stopped where the model would grow past a limit (VM_LIMIT):
** not a bug, but a bound of the search.  Say which, write the way there
** as OUT/TEST.limit.schedule (replayable), and make res a bounded result. */
static void limit_reached(const Options *o, const char *test_name, SearchResult *res) {
  const VmBug *b = &res->bugdesc;
  const char *msg = b->message ? b->message : "";
  if (b->file) printf("limit: %s at %s:%u:%u\n", msg, b->file, b->line, b->col);
  else printf("limit: %s\n", msg);
  char *path = NULL;
  SearchResult r2 = *res;
  r2.bug = 0;
  uint64_t limits[TRACE_NLIMITS] = { (uint64_t)o->max_step_instructions, (uint64_t)o->max_inbox,
                                     (uint64_t)o->max_machines, (uint64_t)o->max_collection, o->max_state_bytes };
  if (writer() && trace_write_schedule(test_name, o->search, o->seed, &r2, limits, o->out, "limit", &path) == 0)
    printf("limit: the way there (%llu steps): %s\n", (unsigned long long)res->ntrace, path);
  free(path);
  Buf t;
  buf_init(&t);
  buf_printf(&t, "limit reached: %s", msg);
  free(res->bound);
  res->bound = buf_take(&t);
  res->bug = 0;
  res->complete = 0;
}

/* The summary's checkpoint lines: where the search resumed from, and the
** checkpoint it leaves (removed once the search has ended: nothing is left
** to resume). */
static void print_checkpoint(const Options *o, CkRun *k, const SearchResult *res) {
  if (o->resume) printf("resumed: from %s, after %.2f s of search\n", o->resume, k->prior_seconds);
  if (!k->path) return;
  /* Stopped before its end (a signal, --timeout, a frontier that outgrew
  ** its memory): the checkpoint goes on from there.  Otherwise the search
  ** ended by itself (complete, a bug, or a bound it was given such as
  ** --max-delays or --schedules): a resume would only repeat its end. */
  const char *b = res->bound ? res->bound : "";
  int stopped = strstr(b, "interrupted") || strstr(b, "timeout") || strstr(b, "outgrew the memory set aside");
  if (!stopped && !res->error) {
    if (remove(k->path) == 0) printf("checkpoint: %s removed (the search ended; %llu written, %.2f s)\n", k->path,
                                     (unsigned long long)k->written, k->write_seconds);
    return;
  }
  if (k->written && !k->failed)
    printf("checkpoint: %s (%llu written, %.2f s; the search goes on with --resume %s)\n", k->path,
           (unsigned long long)k->written, k->write_seconds, k->path);
  else if (k->failed)
    printf("checkpoint: %s: the last could not be written (said above)%s\n", k->path,
           access(k->path, F_OK) == 0 ? "; the one before it stays" : "");
  else if (access(k->path, F_OK) == 0)
    printf("checkpoint: %s as it was (none written by this run: the search stopped before it reached a "
           "point where it could write one)\n", k->path);
  else
    printf("checkpoint: none written (the search stopped before it reached a point where it could write one)\n");
}

/* learned: --learn's orderings (saved into o->learn after the test), or NULL. */
static int run_search(const Options *o, const BcProgram *bc, Program *prog, const TestCase *tc, Learned *learned,
                      TestRun *run) {
  int rc = EXIT_NOBUG;
  const SearchOps *ops = search_find(o->search);
  int exhaustive = is_exhaustive(o->search);
  VmTest test;
  cg_test(bc, prog, tc, &test);
  set_limits(o, &test);
  VmCov cov;
  if (o->no_coverage) memset(&cov, 0, sizeof cov);
  else if (vm_cov_init(&cov, bc) == 0) test.cov = &cov;
  else fputs("pcheck: warning: the model is too large for coverage points; no coverage is reported\n", stderr);
  SearchOptions so;
  search_options(o, &so);
  /* Executions feed it their receives (schedule coverage); under mpirun
  ** they run on every rank, whose receives are not gathered. */
  if (o->coverage && ranks_count() == 1) so.sched = schedcov_new(bc);
  so.learned = learned;
  uint64_t learned_before = learned ? learned_count(learned) : 0;
  run->name = tc->name;
  run->verdict = "error";
  SaveSched saved = { o, tc->name, 0 };
  if (o->save_schedules && (ops->caps & SEARCH_SAVES)) {
    if (prepare_schedule_dir(o->save_schedules, tc->name) != 0) rc = EXIT_INTERNAL;
    so.save_schedule = save_schedule;
    so.save_ctx = &saved;
  }
  /* Checkpoints: what they are for, and the one to resume from. */
  CkRun ckr;
  Checkpoint from;
  ck_init(&from);
  char *ck_opts = NULL;
  if (rc == EXIT_NOBUG && (o->checkpoint || o->resume)) {
    memset(&ckr, 0, sizeof ckr);
    ckr.path = o->checkpoint;
    ckr.every = o->checkpoint_every;
    ck_opts = checkpoint_options_text(o, &so);
    ckr.head = (CkHeader){ PACKAGE_VERSION, bc_fingerprint(bc), tc->name, o->search, ck_opts };
    so.ck = &ckr;
    if (o->resume) {
      Buf err;
      buf_init(&err);
      if (ck_read(&from, &ckr.head, o->resume, &err) != 0) {
        fprintf(stderr, "pcheck: error: %s\n", err.data);
        rc = EXIT_USAGE;
      }
      buf_fini(&err);
      ckr.from = &from;
      ckr.from_path = o->resume;
    }
  }
  RedCheck *rchk = NULL;
  if (o->check_reduction) {
    rchk = redcheck_new(bc, &test);
    if (search_caps(o->search) & SEARCH_VISITS) redcheck_attach(rchk, &so);
  }
  SearchResult res = {0};
  if (rc != EXIT_NOBUG) {
    /* the schedule folder could not be prepared, or the checkpoint read (said above) */
  } else if (ops->run(bc, &test, &so, stdout, &res) != 0) {
    if (writer()) trace_remove_stale(o->out, tc->name, NULL);   /* never an old trace beside this run's */
    rc = EXIT_INTERNAL;
  } else if (res.error) {
    /* The explorer failed: not a result about the model. */
    fprintf(stderr, "pcheck: error: %s\n", res.error);
    if (res.ntrace || res.trace) {
      char *path = NULL;
      SearchResult r2 = res;
      r2.bug = 0;
      if (trace_write_schedule(tc->name, o->search, o->seed, &r2, NULL, o->out, "explorer-failure", &path) == 0)
        fprintf(stderr, "pcheck: the state where it happened is reached by the choices in %s\n", path);
      FileList kept = {0};
      if (path) filelist_add(&kept, path);
      if (writer()) trace_remove_stale(o->out, tc->name, &kept);
      filelist_fini(&kept);
    } else if (writer()) {
      trace_remove_stale(o->out, tc->name, NULL);
    }
    rc = EXIT_INTERNAL;
  } else {
    FileList written = {0};
    if (so.ck) res.seconds += ckr.prior_seconds;   /* the whole search's time */
    if (res.bug && res.bugdesc.status == VM_LIMIT) limit_reached(o, tc->name, &res);
    /* The portfolio's figures are those of the member that decided. */
    if ((ops->caps & SEARCH_MEMBERS) && res.cache_bytes) exhaustive = 1;
    if (res.bug) {
      print_bug(&res.bugdesc);
      if (writer() && trace_write(bc, &test, tc->name, o->search, o->seed, &res, o->out, o->trace_format, &written) != 0)
        rc = EXIT_INTERNAL;
    }
    print_details(o, &res, &so, exhaustive);
    if (so.ck) print_checkpoint(o, &ckr, &res);
    if (res.bug) {
      /* --keep-going stopped before the end (a timeout, a budget): the
      ** bug places listed are those found so far, not all there are. */
      if (o->keep_going && !res.complete && res.bound && *res.bound)
        printf("result: bug-found (bounded: %s; more bug places may exist)\n", res.bound);
      else
        printf("result: bug-found\n");
      run->verdict = "bug-found";
      if (rc == EXIT_NOBUG) rc = EXIT_BUG;
    } else {
      if (res.complete) printf("result: no-bug (complete)\n");
      else printf("result: no-bug (bounded: %s)\n", res.bound ? res.bound : "");
      char *g = guarantee_text(o->search, &res, exhaustive);
      printf("guarantee: %s\n", g);
      free(g);
      print_estimate(&res);
      run->verdict = res.complete ? "no-bug (complete)" : "no-bug (bounded)";
      rc = nobug_code(o, &res);
    }
    print_figures(o->search, &res, exhaustive);
    if (rchk) {
      int cr = redcheck_compare(rchk, bc, &test, &so, o->search, &res, stdout);
      if (cr != 0) rc = worse(rc, EXIT_INTERNAL);
    }
    print_scenarios(bc, &test);
    CovCounts counts;
    uint32_t ntraces = written.n;
    if (test.cov && writer() && report_coverage(o, bc, &cov, so.sched, tc->name, &counts, &written) != 0)
      rc = worse(rc, EXIT_INTERNAL);
    if (ntraces) printf("trace: %s\n", written.items[0]);
    if (learned) {
      if (learned_save(learned, o->learn) != 0) rc = worse(rc, EXIT_INTERNAL);
      else printf("learned: %llu orderings in %s (%llu new)\n", (unsigned long long)learned_count(learned), o->learn,
                  (unsigned long long)(learned_count(learned) - learned_before));
    }
    if (so.save_schedule && saved.n)
      printf("schedules: %llu written to %s (%s-1.schedule, ...)\n", (unsigned long long)saved.n, o->save_schedules,
             tc->name);
    else if (so.save_schedule)
      printf("schedules: none forced\n");
    if (writer()) trace_remove_stale(o->out, tc->name, &written);   /* never an old trace beside this run's */
    for (uint32_t i = 0; i < written.n; i++) printf("wrote: %s\n", written.items[i]);
    run->exhaustive = exhaustive;
    run->states = res.states;
    run->executions = res.executions;
    run->seconds = res.seconds;
    if (o->stats_json) {
      Buf j;
      buf_init(&j);
      stats_object(&j, o, tc->name, &res, exhaustive, &written, test.cov ? &counts : NULL, so.ck);
      run->json = buf_take(&j);
    }
    filelist_fini(&written);
  }
  run->rc = rc;
  fflush(stdout);
  ck_fini(&from);
  free(ck_opts);
  search_result_fini(&res);
  redcheck_free(rchk);
  int had_cov = test.cov != NULL;   /* cg_test_fini clears test */
  cg_test_fini(&test);
  if (had_cov) vm_cov_fini(&cov);
  schedcov_free(so.sched);
  return rc;
}

static int is_delaying(const char *search) { return (search_caps(search) & SEARCH_EXPLORER) != 0; }

/* Where the standard library's .p files are: $PCHECK_STDLIB, or the
** installed folder. */
static const char *stdlib_dir(void) {
  const char *e = getenv("PCHECK_STDLIB");
  return e && *e ? e : PCHECK_STDLIB_DIR;
}

static char *stdlib_file(const char *name) {
  Buf b;
  buf_init(&b);
  buf_printf(&b, "%s/%s.p", stdlib_dir(), name);
  return buf_take(&b);
}

static int declares_explorer(const Program *p, const char *name) {
  for (int i = 0; i < p->explorers.n; i++)
    if (strcmp(((Ast *)p->explorers.items[i])->name, name) == 0) return 1;
  return 0;
}

/* Split --explorer into a name and, for FILE.p:NAME or the twin check, a
** file to load with the model.  0 after a usage message. */
static int resolve_explorer_name(Options *o, char **file) {
  const char *colon = strrchr(o->explorer, ':');
  *file = NULL;
  if (colon) {
    if (colon == o->explorer || !colon[1]) {
      usage_error("--explorer needs NAME or FILE.p:NAME, not '%s'", o->explorer);
      return 0;
    }
    *file = xstrdup(o->explorer);
    (*file)[colon - o->explorer] = 0;
    o->explorer_name = colon + 1;
    o->explorer_native = EXN_NONE;
    return 1;
  }
  o->explorer_name = o->explorer;
  o->explorer_native = explorer_native_kind(o->explorer);
  if (o->twin_check) *file = stdlib_file(o->explorer);
  return 1;
}

/* --test NAME selects nothing: what the user may have meant (a name that
** differs in case or by a typo, or the pattern NAME* for the tests that
** start with NAME), then every test. */
static void lower_copy(char *dst, size_t size, const char *src) {
  snprintf(dst, size, "%s", src);
  for (char *c = dst; *c; c++) *c = (char)tolower((unsigned char)*c);
}

static void no_such_test(const char *name, const TestList *tests) {
  const char *near = NULL;
  size_t bd = 2 + strlen(name) / 4, len = strlen(name);
  char low[128], cand[128];
  lower_copy(low, sizeof low, name);
  for (int i = 0; i < tests->n; i++) {
    lower_copy(cand, sizeof cand, tests->items[i].name);
    size_t d = strcmp(low, cand) == 0 ? 0 : edit_distance(low, cand);
    if (d < bd) { bd = d; near = tests->items[i].name; }
  }
  int starting = testcases_starting(tests, name);
  if (near && starting > 1 && len)
    fprintf(stderr, "pcheck: error: no test case named '%s'; did you mean %s? (%d start with it: -tc '%s*' runs "
            "them all)\n", name, near, starting, name);
  else if (near)
    fprintf(stderr, "pcheck: error: no test case named '%s'; did you mean %s?\n", name, near);
  else if (starting && len)
    fprintf(stderr, "pcheck: error: no test case named '%s'; %d start with it: -tc '%s*' runs them all\n", name,
            starting, name);
  else fprintf(stderr, "pcheck: error: no test case matches '%s'\n", name);
  fputs("the model has:\n", stderr);
  for (int i = 0; i < tests->n; i++) fprintf(stderr, "  %s\n", tests->items[i].name);
}

/* Draw a seed for a random search that was given none (P's behaviour):
** from the kernel's random source, or the clock and pid. */
static unsigned long long fresh_seed(void) {
  unsigned int v = 0;
  FILE *f = fopen("/dev/urandom", "rb");
  if (!f || fread(&v, sizeof v, 1, f) != 1) {
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    v = (unsigned int)(ts.tv_nsec ^ ts.tv_sec ^ ((long)getpid() << 16));
  }
  if (f) fclose(f);
  return v;
}

/* Does folder dir (created if need be) take a file?  0, or EXIT_USAGE
** after a message naming it as "the WHAT 'DIR'OPTION". */
static int probe_folder(const char *dir, const char *what, const char *option) {
  Buf p;
  buf_init(&p);
  int rc = 0;
  trace_mkdirs(dir);   /* a failure shows as the probe below failing, with its reason */
  buf_printf(&p, "%s/.pcheck-write-test-%ld", dir, (long)getpid());
  FILE *f = fopen(p.data, "w");
  if (!f) {
    fprintf(stderr, "pcheck: error: cannot write into the %s '%s'%s: %s\n", what, dir, option, strerror(errno));
    rc = EXIT_USAGE;
  } else {
    fclose(f);
    remove(p.data);
  }
  buf_fini(&p);
  return rc;
}

/* Can the run write its outputs?  The output folder and the
** --save-schedules folder take a file, the --stats-json file can be
** opened for writing.  0, or EXIT_USAGE after a message: checked before a
** search of hours. */
static int check_writable(const Options *o) {
  int rc = probe_folder(o->out, "output folder", " (-o)");
  if (!rc && o->save_schedules && (search_caps(o->search) & SEARCH_SAVES))
    rc = probe_folder(o->save_schedules, "--save-schedules folder", "");
  if (!rc && o->stats_json) {
    int existed = access(o->stats_json, F_OK) == 0;
    FILE *f = fopen(o->stats_json, "a");
    if (!f) {
      fprintf(stderr, "pcheck: error: cannot write the --stats-json file '%s': %s\n", o->stats_json, strerror(errno));
      rc = EXIT_USAGE;
    } else {
      fclose(f);
      if (!existed) remove(o->stats_json);
    }
  }
  return rc;
}

/* With no input: the .pproj of the current folder, as `p check` does.
** Returns it (heap), or NULL after a message. */
static char *project_of_cwd(void) {
  DIR *d = opendir(".");
  char *found = NULL;
  int n = 0;
  Buf all;
  buf_init(&all);
  for (struct dirent *e; d && (e = readdir(d)) != NULL;) {
    size_t len = strlen(e->d_name);
    if (len > 6 && strcmp(e->d_name + len - 6, ".pproj") == 0) {
      n++;
      buf_printf(&all, " %s", e->d_name);
      if (!found) found = xstrdup(e->d_name);
    }
  }
  if (d) closedir(d);
  if (n != 1) {
    if (n == 0) fputs("pcheck: error: no input files, and no .pproj project file in the current folder\n", stderr);
    else fprintf(stderr, "pcheck: error: no input files, and several project files in the current folder:%s; name one\n",
                 all.data);
    fputs("Try 'pcheck --help' for more information.\n", stderr);
    free(found);
    found = NULL;
  }
  buf_fini(&all);
  return found;
}

/* No test named and several in the model: all of them, one after another,
** each for the search's own bound or, with none given, DEFAULT_BUDGET
** seconds, said in one line; then the table (run_checker, which also
** refuses --checkpoint and --resume for more than one test). */
static void several_tests(Options *o, const TestList *tests, int *sel, int *nsel) {
  for (int i = 0; i < tests->n; i++) sel[i] = i;
  *nsel = tests->n;
  if (o->timeout > 0 && !o->budget_default)
    fprintf(stderr, "pcheck: %d test cases and none named (-tc NAME runs one): each in turn, for at most %g s\n",
            tests->n, o->timeout);
  else if (o->schedules >= 0)
    fprintf(stderr, "pcheck: %d test cases and none named (-tc NAME runs one): each in turn, for %lld schedules\n",
            tests->n, o->schedules);
  else {
    o->timeout = DEFAULT_BUDGET;
    o->budget_default = 2;   /* said here */
    fprintf(stderr, "pcheck: %d test cases and none named (-tc NAME runs one): each in turn, for at most %d s "
            "(--timeout sets another budget)\n", tests->n, DEFAULT_BUDGET);
  }
}

/* The line that says a run has the default budget (budget_default 1). */
static void default_budget_line(const Options *o) {
  if (o->budget_default == 1)
    fprintf(stderr, "pcheck: --search %s without --timeout or --schedules: at most %d s (--timeout sets another "
            "budget)\n", o->search, DEFAULT_BUDGET);
}

/* What follows from the options taken together: defaults that depend on
** the search, searches P's options imply, and refusals of combinations
** that cannot work.  -1 to go on, or the exit code. */
static int settle_options(Options *o, const Given *g) {
  o->seed_given = g->code[O_SEED];
  o->limits_given = g->code[O_MAX_STEP_INSTRUCTIONS] | g->code[O_MAX_INBOX] | g->code[O_MAX_MACHINES] |
                    g->code[O_MAX_COLLECTION] | g->code[O_MAX_STATE_BYTES];
  /* The default cache: flat, the fastest on one thread; compact for an
  ** exhaustive search on several threads, where flat's resize lock (taken
  ** for reading on every insert) is shared by all of them
  ** (bench/README.md, "Parallel exhaustive search"). */
  unsigned search_can = search_caps(o->search);
  if (!g->code[O_CACHE] && o->jobs > 1 && (search_can & SEARCH_EXHAUSTIVE) && (search_can & SEARCH_THREADS) &&
      (o->no_reduction || !(search_can & SEARCH_REDUCED_SERIAL)))
    o->cache = options_choice(O_CACHE, "compact");   /* dfs with the reduction runs on one thread (search_dfs.c) */
  if (o->coverage && o->no_coverage) return usage_error("--coverage and --no-coverage contradict each other%s", "");
  if (o->resume || o->checkpoint) {
    int w = checkpoint_options(o, g->code[O_SEARCH], g->code[O_SEED]);
    if (w) return w;
  }
  if (g->code[O_CHECKPOINT_EVERY] && !o->checkpoint)
    fputs("pcheck: warning: --checkpoint-every has no effect without --checkpoint FILE\n", stderr);
  if (g->code[O_EXPLORE] && !g->code[O_SEARCH]) {
    fputs("pcheck: note: --explore: P's default strategy, --search random, goes on after each bug (pcheck's "
          "--keep-going)\n", stderr);
    o->search = "random";
  }
  /* The portfolio's exhaustive members prove what no execution reaches,
  ** which says nothing of how long an execution runs: with
  ** --fail-on-maxsteps, P's default strategy. */
  if (o->fail_on_maxsteps && (search_caps(o->search) & SEARCH_MEMBERS)) {
    if (g->code[O_SEARCH])
      return usage_error("--fail-on-maxsteps needs a sampling search (random, irs, pct, bita, guided), not --search "
                       "portfolio%s", "");
    fputs("pcheck: note: --fail-on-maxsteps: P's default strategy, --search random (the portfolio's exhaustive "
          "searches do not count an execution's steps)\n", stderr);
    o->search = "random";
  }
  if (o->keep_going && !(search_caps(o->search) & SEARCH_KEEP_GOING))
    return usage_error("%s needs --search dfs, random, pct or guided, not --search %s",
                     g->code[O_EXPLORE] ? "--explore" : "--keep-going", o->search);
  if (o->check_reduction && o->no_reduction)
    return usage_error("--check-reduction compares a reduced search with the full one: not with --no-reduction%s", "");
  if (o->check_reduction && o->jobs > 1) {
    fputs("pcheck: warning: --check-reduction runs the search on one thread (it sees every State)\n", stderr);
    o->jobs = 1;
  }
  /* Whatever formats a search is given, a bug leaves a file that replays
  ** (--replay renders only what it is asked: it has its trace). */
  if (!o->replay && !trace_replayable(o->trace_format)) {
    static char with_schedule[512];
    snprintf(with_schedule, sizeof with_schedule, "%.480s,schedule", o->trace_format);
    o->trace_format = with_schedule;
  }
  /* A run always ends: a sampling search or the portfolio given neither
  ** --timeout nor --schedules stops after DEFAULT_BUDGET seconds (said
  ** when it runs: default_budget_line); --checkpoint and --resume runs are
  ** meant to be long and keep no bound. */
  if (o->timeout <= 0 && o->schedules < 0 && is_random_search(o->search) && !o->replay && !o->checkpoint && !o->resume) {
    o->timeout = DEFAULT_BUDGET;
    o->budget_default = 1;
  }
  if (o->twin_check && explorer_native_kind(o->explorer) == EXN_NONE)
    return usage_error("--explorer-twin-check needs --explorer rr, rtc or prr, not '%s'", o->explorer);
  return -1;
}

/* Warnings for options that do nothing to the chosen search. */
static void warn_ineffective(const Options *o, const Given *g) {
  if (!o->replay && !o->check_only && !o->list_tests && !o->dump_bytecode)
    options_warn_ineffective(o, g, o->search, search_caps(o->search));
  if (o->replay && g->code[O_SCHEDULES] + g->code[O_MAX_DELAYS] + g->code[O_MAX_STEPS] + g->code[O_SEARCH] + g->code[O_JOBS])
    fputs("pcheck: warning: --replay re-runs the trace's choices: search options have no effect\n", stderr);
}

/* The run's seed, memory plan and processes, and whether its outputs
** can be written: refused now rather than after a search of hours.  -1
** to go on, or the exit code. */
static int prepare_run(Options *o, const Given *g) {
  if (!o->seed_given && is_random_search(o->search)) o->seed = fresh_seed();
  MemPlan mp;
  if (!mem_plan(o, &mp)) {
    fprintf(stderr, "pcheck: error: --frontier-mem %.1f MiB leaves nothing of --mem %.1f MiB for the state cache "
            "(%.1f MiB are kept for the rest)\nTry 'pcheck --help' for more information.\n",
            (double)o->frontier_mem / 1048576.0, (double)mp.total / 1048576.0, (double)mp.reserve / 1048576.0);
    return EXIT_USAGE;
  }
  if (ranks_count() > 1) {
    int dist = (search_caps(o->search) & SEARCH_RANKS) != 0;
    int farm = (search_caps(o->search) & SEARCH_FARM) != 0;
    int portfolio = (search_caps(o->search) & SEARCH_MEMBERS) != 0;
    if (o->replay || o->coverage_merge || o->check_only || o->list_tests || o->dump_bytecode || !(dist || farm || portfolio))
      return usage_error("under mpirun pcheck runs a search across the ranks: --search dfs, bfs, ses (the states shared "
                       "among them), random, pct, ss (the executions) or the portfolio (its members side by "
                       "side)%s; other work runs without mpirun", "");
    if (o->learn) return usage_error("--learn keeps one file of orderings: run it without mpirun%s", "");
    if (farm && o->verbose)
      return usage_error("-v prints every execution's log in order: run it without mpirun%s", "");
    if (o->jobs > 1) return usage_error("-j with mpirun: each rank is one thread; start more ranks instead%s", "");
    if (o->keep_going) return usage_error("--keep-going needs one process: run it without mpirun%s", "");
    /* A seed drawn at random is rank 0's: every rank runs its executions. */
    ranks_bcast(&o->seed, sizeof o->seed, 0);
  }
  if (writer() && !o->check_only && !o->list_tests && !o->dump_bytecode && (!o->replay || g->code[O_TRACE_FORMAT])) {
    int w = check_writable(o);
    if (w) return w;
  }

  return -1;
}

/* Read the model (inputs: the nin paths of args, or none: the current
** folder's project), then list, check or search its tests.  The exit code. */
static int check_model(Options *o, int nin, char **args, int format_given) {
  /* The inputs: the model, plus the file of FILE.p:NAME or of a standard
  ** explorer written in the language. */
  char *cwd_project = NULL;  /* no input: the current folder's .pproj */
  if (nin == 0 && !(cwd_project = project_of_cwd())) return EXIT_USAGE;
  int ninputs = cwd_project ? 1 : nin;
  char **inputs = xcalloc((size_t)ninputs + 2, sizeof(char *));
  for (int i = 0; i < ninputs; i++) inputs[i] = cwd_project ? cwd_project : args[i];
  char *explorer_file = NULL;
  if (!resolve_explorer_name(o, &explorer_file)) { free(inputs); free(cwd_project); return EXIT_USAGE; }
  if (explorer_file) inputs[ninputs++] = explorer_file;

  Diag diag;
  diag_init(&diag, stderr);
  Program *prog = program_new();
  double t0 = now_seconds();
  long nlines = 0;
  int errors = frontend_load(prog, &diag, inputs, ninputs, &nlines);
  if (!errors && !explorer_file && !declares_explorer(prog, o->explorer_name) && o->explorer_native == EXN_NONE &&
      is_delaying(o->search)) {
    /* Not in the model and not a native twin: a .p file of the standard
    ** library, if there is one of that name. */
    explorer_file = stdlib_file(o->explorer_name);
    if (access(explorer_file, R_OK) == 0) {
      program_free(prog);
      diag_fini(&diag);
      diag_init(&diag, stderr);
      prog = program_new();
      inputs[ninputs++] = explorer_file;
      errors = frontend_load(prog, &diag, inputs, ninputs, &nlines);
    }
  }
  if (!errors && is_delaying(o->search) && !declares_explorer(prog, o->explorer_name) &&
      (o->explorer_native == EXN_NONE || o->twin_check)) {
    fprintf(stderr, "pcheck: error: unknown explorer '%s': the model declares no explorer of that name, and the "
            "standard ones are rr, rtc and prr (found in %s)\n", o->explorer_name, stdlib_dir());
    free(explorer_file);
    free(inputs);
    free(cwd_project);
    program_free(prog);
    diag_fini(&diag);
    return EXIT_USAGE;
  }
  /* A declared explorer wins over a native twin of the same name. */
  if (!o->twin_check && declares_explorer(prog, o->explorer_name)) o->explorer_native = EXN_NONE;
  double t1 = now_seconds();
  int rc = EXIT_NOBUG;
  if (o->stats) {
    double dt = t1 - t0 > 1e-9 ? t1 - t0 : 1e-9;
    fprintf(stderr, "front end: %d files, %ld lines, %.3f s, %.0f lines/s\n", diag.nfiles, nlines, t1 - t0,
            (double)nlines / dt);
  }
  if (errors) {
    diag_summary(&diag);
    rc = EXIT_USAGE;
    goto out;
  }
  if (o->check_only) goto out;

  TestList tests;
  if (testcases_build(prog, &diag, &tests)) {
    diag_summary(&diag);
    testcases_fini(&tests);
    rc = EXIT_USAGE;
    goto out;
  }
  if (o->list_tests) {
    for (int i = 0; i < tests.n; i++) printf("%s\n", tests.items[i].name);
    testcases_fini(&tests);
    goto out;
  }
  int *sel = xcalloc((size_t)(tests.n ? tests.n : 1), sizeof(int));
  int nsel = 0;
  if (o->replay) {
    rc = run_checker(o, prog, &diag, &tests, NULL, 0, format_given);
  } else if (tests.n == 0 && !o->dump_bytecode) {
    fputs("pcheck: error: the model declares no test and has no machine 'Main' to start from\n", stderr);
    rc = EXIT_USAGE;
  } else if (o->test && (nsel = testcases_select(&tests, o->test, sel, tests.n)) == 0) {
    no_such_test(o->test, &tests);
    rc = EXIT_USAGE;
  } else {
    if (!o->test && tests.n == 1) nsel = 1;   /* the only test (sel[0] = 0) */
    else if (!o->test && !o->dump_bytecode) several_tests(o, &tests, sel, &nsel);
    if (!o->dump_bytecode) default_budget_line(o);
    rc = run_checker(o, prog, &diag, &tests, sel, nsel, 0);
  }
  free(sel);
  testcases_fini(&tests);
out:
  program_free(prog);
  diag_fini(&diag);
  free(explorer_file);
  free(inputs);
  free(cwd_project);
  return rc;
}

static int pcheck_main(int argc, char **argv) {
  /* From the start: a signal that comes while the model is read still ends
  ** with the search's summary (run_checker runs the first test anyway). */
  signal(SIGINT, on_signal);
  signal(SIGTERM, on_signal);
  Options o;
  Given g = {0};
  options_defaults(&o);
  int rc = options_parse(&argc, argv, &o, &g);
  if (rc < 0) rc = settle_options(&o, &g);
  if (rc >= 0) return rc;
  warn_ineffective(&o, &g);
  if ((rc = prepare_run(&o, &g)) >= 0) return rc;
  if (o.coverage_merge) {
    if (optind >= argc) return usage_error("--coverage-merge needs the coverage reports (.coverage.json) to merge%s", "");
    return merge_coverage(&o, argv + optind, argc - optind);
  }

  return check_model(&o, argc - optind, argv + optind, g.code[O_TRACE_FORMAT]);
}
int main(int argc, char **argv) {
  if (ranks_start(&argc, &argv) != 0) return EXIT_INTERNAL;
  int rc = pcheck_main(argc, argv);
  fflush(stdout);
  ranks_end(rc);
  return rc;
}
