/* cli.c: the `pcheck` command.  Reads argv, runs the front end and maps
** every outcome to the exit codes of CLI.md: 0 no bug, 1 bug found,
** 2 usage or compile error, 3 internal or resource failure.  The only file
** that reads argv or calls exit(). */
#include <config.h>
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <signal.h>
#include "lang/codegen.h"
#include "lang/frontend.h"
#include "lang/testcases.h"
#include "checker/search.h"
#include "checker/json.h"
#include "checker/trace.h"
#include "checker/explorer.h"
#include <sys/resource.h>
#include <unistd.h>

enum { EXIT_NOBUG = 0, EXIT_BUG = 1, EXIT_USAGE = 2, EXIT_INTERNAL = 3 };

typedef struct Options {
  const char *test;          /* -t: test name or prefix */
  int list_tests;
  int check_only;
  int dump_bytecode;
  const char *search;        /* -s */
  const char *explorer;      /* -e */
  long long max_delays;      /* -1: no bound */
  long long max_steps;
  long long schedules;       /* -1: no bound */
  double timeout;            /* seconds, 0: none */
  unsigned long long mem;    /* bytes, 0: default */
  unsigned long long seed;
  long jobs;
  const char *out;
  const char *trace_format;
  const char *replay;
  const char *stats_json;
  int verbose, quiet, stats;
  ScKind cache_kind;         /* --cache */
  long long irs_step;        /* --irs-step */
  long long pct_depth;       /* --pct-depth */
  long long pct_steps;       /* --pct-steps */
  int twin_check;            /* --explorer-twin-check */
  unsigned long long frontier_mem; /* --frontier-mem, 0: default */
  double ss_c1, ss_c2;       /* --ss-c1, --ss-c2 */
  int ss_strata;             /* --ss-schedule strata */
  int no_sampling;           /* --no-sampling */
  int no_shared_cache;       /* --no-shared-cache */
  int no_reduction;          /* --no-reduction */
  int keep_going;            /* --keep-going */
  int unfair;                /* --unfair */
  long long temperature;     /* --liveness-temperature-threshold, -1: P's default (half of --max-steps) */
  /* Resolved explorer: */
  const char *explorer_name; /* NAME */
  int explorer_native;       /* ExNative */
} Options;

static const char *const searches[] = { "ses", "ss", "dfs", "bfs", "random", "irs", "pct", "pb", "portfolio", NULL };
static const char *const formats[] = { "text", "json", "schedule", "msc", "html", "dot", NULL };

static void usage(FILE *f) {
  fputs(
"usage: pcheck [OPTIONS] INPUT...\n"
"Check a P model: INPUT is any mix of .p files, directories (every *.p\n"
"below them) and P project files (.pproj); together they form one model.\n"
"\n"
"Selecting what to check:\n"
"  -t, --test NAME        the test case (a prefix selects every test starting with it)\n"
"      --list-tests       print the test cases, one a line, and exit\n"
"      --check-only       parse and type-check only\n"
"\n"
"How to search:\n"
"  -s, --search ALG       portfolio (default: random, ses, pct, dfs and ss in turns),\n"
"                         ses, ss, dfs, bfs, random, irs, pct, pb\n"
"  -e, --explorer NAME    for ses and ss (also in the portfolio): rr, rtc (default), prr,\n"
"                         an explorer of the model, or FILE.p:NAME\n"
"      --max-delays N     highest delay budget for ses/ss, preemption bound for pb (default: no bound)\n"
"      --explorer-twin-check  run stdlib's rr/rtc/prr .p explorer and its native twin\n"
"                         in lockstep; fail where their choices differ\n"
"      --ss-c1 X, --ss-c2 X  ss draws c1 * c2^db samples at delay bound db (100, 10)\n"
"      --ss-schedule S    interleaved (default: delay bound db+1 starts once db has drawn\n"
"                         a c2-th of its samples, open bounds take turns) or strata (each\n"
"                         bound in full before the next, the paper's order)\n"
"      --no-sampling      ses keeps exhausting when its cache or frontier reaches its\n"
"                         budget, instead of sampling from its frontier (SES then SS)\n"
"      --no-shared-cache  portfolio: ses does not skip the states dfs has finished (on one\n"
"                         thread, dfs shares them by default)\n"
"      --max-steps N      longest execution for sampling searches (default, as P: 100000 for\n"
"                         random and irs, 10000 for pct and ss)\n"
"      --schedules N      how many executions for sampling searches (default: no bound)\n"
"      --irs-step N       irs: the depth bound grows by N steps each iteration (default 10)\n"
"      --pct-depth D      pct: bug depth, D-1 priority change points (default 3)\n"
"      --pct-steps K      pct: the change points fall among the first K steps (default 1000)\n"
"      --timeout SECONDS  stop the search after this long and report how far it got\n"
"      --mem SIZE         memory budget of the state cache, e.g. 512M, 4G (default: a quarter of RAM)\n"
"      --frontier-mem SIZE  memory for stacks, queues and the ses frontier (default: the larger\n"
"                         of --mem and a quarter of RAM); past it ses keeps paths, not states\n"
"      --cache KIND       state cache: flat (open addressing, default), compact (cuckoo table\n"
"                         storing part of each fingerprint: about 7 bytes per state at 100\n"
"                         million, against 10.7; the default of dfs, bfs, ses, pb with -j 2\n"
"                         or more) or judy (Judy1 array)\n"
"      --no-reduction     dfs, bfs, ses, pb (also in the portfolio): explore every interleaving\n"
"                         (partial-order reduction is on by default; doc/reduction.md)\n"
"      --keep-going       dfs: go on after a bug (the failing step has no successor) and\n"
"                         list every place a step failed (\"bug places\"); the first\n"
"                         bug found is the one reported, with its trace\n"
"      --seed N           seed of every random decision of the checker\n"
"      --unfair           dfs, ses: report any cycle on which a spec stays hot, also one\n"
"                         that starves a machine or a `$$` (default: fair cycles only)\n"
"      --liveness-temperature-threshold N  random, irs: a spec hot for more than N\n"
"                         steps of one execution is a liveness bug (0: off; default,\n"
"                         as P: half their step bound, 50000); pct and ss, unfair like\n"
"                         P's pct, do not check it\n"
"  -j, --jobs N           worker threads (default 1): bfs, ses, pb (and dfs with --no-reduction)\n"
"                         search in parallel, ss samples, portfolio members side by side\n"
"\n"
"Output:\n"
"  -o, --out DIR          where counterexamples and reports go (default pcheck-out/)\n"
"      --trace-format L   any of text,json,schedule,msc,html,dot (default text,json,schedule)\n"
"      --replay FILE      re-run the counterexample in FILE and print its log\n"
"      --stats-json FILE  write the final figures as JSON\n"
"      --stats            print front-end figures (files, lines, time) on stderr\n"
"  -v, --verbose          more on stderr\n"
"  -q, --quiet            less on stderr\n"
"      --dump-bytecode    print the compiled bytecode\n"
"  -h, --help             this help\n"
"  -V, --version          the version\n"
"\n"
"Exit status: 0 no bug found, 1 bug found, 2 usage or compile error,\n"
"3 internal error or resource failure.\n", f);
}

static int bad_usage(const char *fmt, const char *arg) {
  fputs("pcheck: error: ", stderr);
  fprintf(stderr, fmt, arg);
  fputs("\nTry 'pcheck --help' for more information.\n", stderr);
  return EXIT_USAGE;
}

static int parse_count(const char *s, long long *out) {
  char *end;
  errno = 0;
  long long v = strtoll(s, &end, 10);
  if (errno || end == s || *end || v < 0) return 0;
  *out = v;
  return 1;
}

/* "512M", "4G", "100k", "12345" (bytes). */
static int parse_size(const char *s, unsigned long long *out) {
  char *end;
  errno = 0;
  double v = strtod(s, &end);
  if (errno || end == s || v <= 0) return 0;
  double mul = 1;
  switch (*end) {
  case 0: break;
  case 'k': case 'K': mul = 1024.0; end++; break;
  case 'm': case 'M': mul = 1024.0 * 1024; end++; break;
  case 'g': case 'G': mul = 1024.0 * 1024 * 1024; end++; break;
  case 't': case 'T': mul = 1024.0 * 1024 * 1024 * 1024; end++; break;
  default: return 0;
  }
  if (*end == 'B' || *end == 'b') end++;
  if (*end) return 0;
  v *= mul;
  if (v < 1 || v > 1.8e19) return 0;
  *out = (unsigned long long)v;
  return 1;
}

static int in_list(const char *s, const char *const *list) {
  for (int i = 0; list[i]; i++) if (strcmp(s, list[i]) == 0) return 1;
  return 0;
}

static int check_formats(const char *list) {
  char *copy = xstrdup(list);
  int ok = 1;
  for (char *save, *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save))
    if (!in_list(tok, formats)) {
      bad_usage("unknown trace format '%s' (expected text, json, schedule, msc, html or dot)", tok);
      ok = 0;
      break;
    }
  free(copy);
  return ok;
}

static double now_seconds(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}



/* A quarter of the machine's memory: the default state-cache budget. */
static uint64_t default_mem(void) {
  long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGE_SIZE);
  if (pages <= 0 || size <= 0) return 1ull << 30;
  return (uint64_t)pages * (uint64_t)size / 4;
}

static void print_bug(const VmBug *b) {
  if (b->file) printf("bug: %s: %s:%u:%u: %s\n", vm_status_name(b->status), b->file, b->line, b->col, b->message);
  else printf("bug: %s: %s\n", vm_status_name(b->status), b->message);
}

/* --keep-going: every place a bug was found, in the order found. */
static void print_sites(const SearchResult *r) {
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

static void print_figures(const SearchResult *res) {
  printf("states: %llu  transitions: %llu  executions: %llu  max-depth: %llu  delays: %llu  time: %.2f\n",
         (unsigned long long)res->states, (unsigned long long)res->transitions, (unsigned long long)res->executions,
         (unsigned long long)res->max_depth, (unsigned long long)res->delays, res->seconds);
}

static long peak_rss_bytes(void) {
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  return ru.ru_maxrss * 1024L;
}

static int write_stats_json(const char *path, const Options *o, const char *test, const SearchResult *res,
                            int exhaustive) {
  Buf b;
  buf_init(&b);
  double secs = res->seconds > 1e-9 ? res->seconds : 1e-9;
  buf_printf(&b, "{\n  \"schema\": \"pcheck-stats\",\n  \"version\": 1,\n  \"test\": ");
  json_put_string(&b, test, strlen(test));
  buf_printf(&b, ",\n  \"search\": \"%s\",\n  \"result\": \"%s\",\n", o->search,
             res->bug ? "bug-found" : res->complete ? "no-bug-complete" : "no-bug-bounded");
  if (res->bound) {
    buf_puts(&b, "  \"bound\": ");
    json_put_string(&b, res->bound, strlen(res->bound));
    buf_puts(&b, ",\n");
  }
  buf_printf(&b, "  \"states\": %llu,\n  \"transitions\": %llu,\n  \"executions\": %llu,\n  \"max_depth\": %llu,\n"
             "  \"delays\": %llu,\n  \"time_seconds\": %.3f,\n  \"states_per_second\": %.0f,\n"
             "  \"peak_memory_bytes\": %ld,\n",
             (unsigned long long)res->states, (unsigned long long)res->transitions,
             (unsigned long long)res->executions, (unsigned long long)res->max_depth,
             (unsigned long long)res->delays, res->seconds, (double)res->states / secs, peak_rss_bytes());
  if (exhaustive) {
    uint64_t budget = o->mem ? o->mem : default_mem();   /* the budget the search had */
    buf_printf(&b, "  \"cache\": \"%s\",\n  \"cache_budget_bytes\": %llu,\n  \"cache_bytes\": %llu,\n"
               "  \"bytes_per_state\": %.1f,\n  \"cache_fill\": %.4g,\n  \"states_not_cached\": %llu,\n"
               "  \"collision_probability\": %.3g,\n",
               sc_kind_name(o->cache_kind), (unsigned long long)budget, (unsigned long long)res->cache_bytes,
               res->states ? (double)res->cache_bytes / (double)res->states : 0.0,
               budget ? (double)res->cache_bytes / (double)budget : 0.0, (unsigned long long)res->cache_refused,
               sc_collision_probability(res->states));
  }
  buf_printf(&b, "  \"reduction\": \"%s\",\n", res->reduced ? "partial-order" : "none");
  if (res->unreduced) {
    buf_puts(&b, "  \"reduction_off_because\": ");
    json_put_string(&b, res->unreduced, strlen(res->unreduced));
    buf_puts(&b, ",\n");
  }
  if (res->reduced)
    buf_printf(&b, "  \"pruned_transitions\": %llu,\n  \"proviso_full_states\": %llu,\n  \"reduction_threads\": %d,\n",
               (unsigned long long)res->pruned, (unsigned long long)res->widened,
               res->reduced_one_thread ? 1 : (o->jobs > 0 ? (int)o->jobs : 1));
  if (o->keep_going) {
    buf_puts(&b, "  \"bug_places\": [");
    for (uint32_t i = 0; i < res->nsites; i++) {
      const BugSite *x = &res->sites[i];
      buf_printf(&b, "%s\n    {\"kind\": \"%s\", \"file\": ", i ? "," : "", vm_status_name(x->status));
      if (x->file) json_put_string(&b, x->file, strlen(x->file));
      else buf_puts(&b, "null");
      buf_printf(&b, ", \"line\": %u, \"col\": %u, \"found\": %llu}", x->line, x->col,
                 (unsigned long long)x->hits);
    }
    buf_puts(&b, res->nsites ? "\n  ],\n" : "],\n");
  }
  if (res->state_bytes)   /* dfs: the size of the States it entered */
    buf_printf(&b, "  \"mean_state_bytes\": %.1f,\n  \"max_state_bytes\": %llu,\n",
               (double)res->state_bytes / (double)res->states, (unsigned long long)res->max_state_bytes);
  buf_printf(&b, "  \"seed\": %llu\n}\n", o->seed);
  FILE *f = fopen(path, "w");
  int ok = f && fwrite(b.data, 1, b.len, f) == b.len;
  if (f && fclose(f) != 0) ok = 0;
  buf_fini(&b);
  if (!ok) fprintf(stderr, "pcheck: error: cannot write '%s': %s\n", path, strerror(errno));
  return ok ? 0 : -1;
}

static volatile int stop_requested;
static void on_sigint(int sig) { (void)sig; stop_requested = 1; }

/* --replay: re-run a trace file's choices and print the log. */
static int run_replay(const Options *o, const BcProgram *bc, Program *prog, TestList *tests) {
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
  Buf log;
  buf_init(&log);
  VmBug bug;
  uint64_t at = 0;
  int r = trace_replay(bc, &test, ti.choices, ti.n, ti.cycle_start, ti.unfair || o->unfair, ti.temperature, &log, &bug,
                       &at, &err);
  fwrite(log.data ? log.data : "", 1, log.len, stdout);
  int rc;
  if (r < 0) {
    fprintf(stderr, "pcheck: error: %s: %s\n", o->replay, err.data);
    rc = EXIT_USAGE;
  } else if (r == 1) {
    print_bug(&bug);
    printf("result: bug-found\n");
    printf("replay: %llu of %llu steps\n", (unsigned long long)at, (unsigned long long)ti.n);
    free(bug.message);
    rc = EXIT_BUG;
  } else {
    printf("result: no-bug (the trace ran to its end, %llu steps, without a bug)\n", (unsigned long long)ti.n);
    rc = EXIT_NOBUG;
  }
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

/* Compile, then dump the bytecode, replay a trace, or run the search. */
static int run_search(const Options *o, const BcProgram *bc, Program *prog, const TestCase *tc);

/* Compile, then dump the bytecode, replay a trace, or search each selected
** test case in turn (exit status: the worst of them). */
static int run_checker(const Options *o, Program *prog, Diag *diag, TestList *tests, const int *sel, int nsel) {
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
    rc = run_replay(o, bc, prog, tests);
    bc_free(bc);
    return rc;
  }
  if (!search_find(o->search)) {
    fprintf(stderr, "pcheck: error: --search %s is not available in this build (pcheck %s)\n", o->search,
            PACKAGE_VERSION);
    bc_free(bc);
    return EXIT_INTERNAL;
  }
  for (int i = 0; i < nsel && !stop_requested; i++) {
    if (nsel > 1) printf("%s== test %s\n", i ? "\n" : "", tests->items[sel[i]].name);
    fflush(stdout);
    int r = run_search(o, bc, prog, &tests->items[sel[i]]);
    if (r == EXIT_INTERNAL || (r == EXIT_BUG && rc != EXIT_INTERNAL)) rc = r;
  }
  bc_free(bc);
  return rc;
}

/* Search one test case and print its summary. */
static int run_search(const Options *o, const BcProgram *bc, Program *prog, const TestCase *tc) {
  int rc = EXIT_NOBUG;
  const SearchOps *ops = search_find(o->search);
  int exhaustive = strcmp(o->search, "dfs") == 0 || strcmp(o->search, "bfs") == 0 || strcmp(o->search, "pb") == 0 ||
                   strcmp(o->search, "ses") == 0;
  VmTest test;
  cg_test(bc, prog, tc, &test);
  SearchOptions so = {0};
  so.seed = o->seed;
  so.max_steps = o->max_steps;
  so.schedules = o->schedules;
  so.timeout = o->timeout;
  so.mem = o->mem ? o->mem : default_mem();
  so.frontier_mem = so.mem > default_mem() ? so.mem : default_mem();
  if (o->frontier_mem) so.frontier_mem = o->frontier_mem;
  so.cache_kind = o->cache_kind;
  so.verbose = o->verbose;
  so.quiet = o->quiet;
  so.progress = !o->quiet && isatty(2);
  so.stop = &stop_requested;
  so.max_bound = o->max_delays;
  so.irs_step = o->irs_step;
  so.pct_depth = o->pct_depth;
  so.pct_steps = o->pct_steps;
  so.explorer = o->explorer_name;
  so.explorer_native = o->explorer_native;
  so.explorer_twin_check = o->twin_check;
  so.max_delays = o->max_delays;
  so.ss_c1 = o->ss_c1;
  so.ss_c2 = o->ss_c2;
  so.ss_strata = o->ss_strata;
  so.no_sampling = o->no_sampling;
  so.no_shared_cache = o->no_shared_cache;
  so.no_reduction = o->no_reduction;
  so.keep_going = o->keep_going;
  so.jobs = (int)o->jobs;
  so.unfair = o->unfair;
  so.temperature = o->temperature;   /* -1: each search's default (search_temperature) */
  signal(SIGINT, on_sigint);
  SearchResult res = {0};
  if (ops->run(bc, &test, &so, stdout, &res) != 0) {
    rc = EXIT_INTERNAL;
  } else if (res.error) {
    /* The explorer failed: not a result about the model. */
    fprintf(stderr, "pcheck: error: %s\n", res.error);
    if (res.ntrace || res.trace) {
      char *path = NULL;
      SearchResult r2 = res;
      r2.bug = 0;
      if (trace_write_schedule(tc->name, o->search, o->seed, &r2, o->out, "explorer-failure", &path) == 0)
        fprintf(stderr, "pcheck: the state where it happened is reached by the choices in %s\n", path);
      free(path);
    }
    rc = EXIT_INTERNAL;
  } else {
    FileList written = {0};
    /* The portfolio's figures are those of the member that decided. */
    if (ops == &search_portfolio && res.cache_bytes) exhaustive = 1;
    if (res.bug) {
      print_bug(&res.bugdesc);
      if (trace_write(bc, &test, tc->name, o->search, o->seed, &res, o->out, o->trace_format, &written) != 0)
        rc = EXIT_INTERNAL;
    }
    if (exhaustive) {
      printf("state cache: %s, %.1f MiB of %.1f MiB%s", sc_kind_name(o->cache_kind),
             (double)res.cache_bytes / 1048576.0, (double)so.mem / 1048576.0, res.cache_full ? ", full" : "");
      if (res.cache_refused) printf(", %llu states not cached", (unsigned long long)res.cache_refused);
      printf("; fingerprint collision probability %.2g\n", sc_collision_probability(res.states));
    }
    if (res.unreduced) printf("reduction: off (%s)\n", res.unreduced);
    if (res.reduced)
      printf("reduction: partial-order, %llu transitions pruned, %llu states explored in full by the cycle proviso%s\n",
             (unsigned long long)res.pruned, (unsigned long long)res.widened,
             res.reduced_one_thread ? "; dfs ran on one thread (--no-reduction searches every interleaving on -j threads)"
                                    : "");
    if (o->keep_going) print_sites(&res);
    if (res.bug) {
      printf("result: bug-found\n");
      if (rc == EXIT_NOBUG) rc = EXIT_BUG;
    } else if (res.complete) {
      printf("result: no-bug (complete)\n");
    } else {
      printf("result: no-bug (bounded: %s)\n", res.bound ? res.bound : "");
    }
    print_figures(&res);
    print_scenarios(bc, &test);
    if (written.n) printf("trace: %s\n", written.items[0]);
    filelist_fini(&written);
    if (o->stats_json && write_stats_json(o->stats_json, o, tc->name, &res, exhaustive) != 0) rc = EXIT_INTERNAL;
  }
  search_result_fini(&res);
  cg_test_fini(&test);
  return rc;
}

static int is_delaying(const char *search) {
  return strcmp(search, "ses") == 0 || strcmp(search, "ss") == 0 || strcmp(search, "portfolio") == 0;
}

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
      bad_usage("--explorer needs NAME or FILE.p:NAME, not '%s'", o->explorer);
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

int main(int argc, char **argv) {
  Options o = {0};
  o.search = "portfolio";
  int cache_given = 0;      /* --cache was given: no default depends on -j */
  o.explorer = "rtc";
  o.max_delays = -1;
  o.max_steps = -1;   /* P's bounds: 100,000 steps for random and irs, 10,000 for pct and ss */
  o.schedules = -1;
  o.jobs = 1;
  o.out = "pcheck-out";
  o.trace_format = "text,json,schedule";
  o.irs_step = 10;
  o.pct_depth = 3;
  o.pct_steps = 1000;
  o.ss_c1 = 100;
  o.ss_c2 = 10;
  o.temperature = -1;
  enum { O_LIST = 256, O_CHECK, O_MAXD, O_MAXS, O_SCHED, O_TIMEOUT, O_MEM, O_SEED, O_TFMT, O_REPLAY,
         O_SJSON, O_DUMP, O_STATS, O_CACHE, O_TWIN, O_SSC1, O_SSC2, O_FMEM,
         O_SS_SCHED, O_NO_SAMPLING, O_NO_SHARED, O_NO_REDUCTION, O_KEEP_GOING };
  enum { O_IRS_STEP = 512, O_PCT_DEPTH, O_PCT_STEPS };   /* the baselines' options */
  enum { O_UNFAIR = 768, O_TEMP };   /* liveness */
  static const struct option longopts[] = {
    {"test", required_argument, 0, 't'}, {"list-tests", no_argument, 0, O_LIST},
    {"check-only", no_argument, 0, O_CHECK}, {"search", required_argument, 0, 's'},
    {"explorer", required_argument, 0, 'e'}, {"max-delays", required_argument, 0, O_MAXD},
    {"max-steps", required_argument, 0, O_MAXS}, {"schedules", required_argument, 0, O_SCHED},
    {"timeout", required_argument, 0, O_TIMEOUT}, {"mem", required_argument, 0, O_MEM},
    {"seed", required_argument, 0, O_SEED}, {"jobs", required_argument, 0, 'j'},
    {"out", required_argument, 0, 'o'}, {"trace-format", required_argument, 0, O_TFMT},
    {"replay", required_argument, 0, O_REPLAY}, {"stats-json", required_argument, 0, O_SJSON},
    {"verbose", no_argument, 0, 'v'}, {"quiet", no_argument, 0, 'q'},
    {"dump-bytecode", no_argument, 0, O_DUMP}, {"stats", no_argument, 0, O_STATS},
    {"cache", required_argument, 0, O_CACHE}, {"explorer-twin-check", no_argument, 0, O_TWIN},
    {"frontier-mem", required_argument, 0, O_FMEM},
    {"ss-c1", required_argument, 0, O_SSC1}, {"ss-c2", required_argument, 0, O_SSC2},
    {"ss-schedule", required_argument, 0, O_SS_SCHED}, {"no-sampling", no_argument, 0, O_NO_SAMPLING},
    {"no-shared-cache", no_argument, 0, O_NO_SHARED},
    {"no-reduction", no_argument, 0, O_NO_REDUCTION},
    {"keep-going", no_argument, 0, O_KEEP_GOING},
    {"irs-step", required_argument, 0, O_IRS_STEP}, {"pct-depth", required_argument, 0, O_PCT_DEPTH},
    {"pct-steps", required_argument, 0, O_PCT_STEPS},
    {"unfair", no_argument, 0, O_UNFAIR}, {"liveness-temperature-threshold", required_argument, 0, O_TEMP},
    {"help", no_argument, 0, 'h'}, {"version", no_argument, 0, 'V'}, {0, 0, 0, 0},
  };
  opterr = 0;
  int c;
  long long n;
  while ((c = getopt_long(argc, argv, ":t:s:e:j:o:vqhV", longopts, NULL)) != -1) {
    switch (c) {
    case 't': o.test = optarg; break;
    case O_LIST: o.list_tests = 1; break;
    case O_CHECK: o.check_only = 1; break;
    case 's':
      if (!in_list(optarg, searches))
        return bad_usage("unknown search '%s' (expected portfolio, ses, ss, dfs, bfs, random, irs, pct or pb)", optarg);
      o.search = optarg;
      break;
    case 'e':
      if (!*optarg) return bad_usage("empty explorer name%s", "");
      o.explorer = optarg;
      break;
    case O_MAXD: if (!parse_count(optarg, &o.max_delays)) return bad_usage("--max-delays needs a count, not '%s'", optarg); break;
    case O_MAXS:
      if (!parse_count(optarg, &o.max_steps) || o.max_steps == 0)
        return bad_usage("--max-steps needs a positive count, not '%s'", optarg);
      break;
    case O_SCHED: if (!parse_count(optarg, &o.schedules)) return bad_usage("--schedules needs a count, not '%s'", optarg); break;
    case O_TIMEOUT: {
      char *end;
      errno = 0;
      o.timeout = strtod(optarg, &end);
      if (errno || end == optarg || *end || o.timeout <= 0)
        return bad_usage("--timeout needs a positive number of seconds, not '%s'", optarg);
      break;
    }
    case O_MEM: if (!parse_size(optarg, &o.mem)) return bad_usage("--mem needs a size such as 512M or 4G, not '%s'", optarg); break;
    case O_SEED:
      if (!parse_count(optarg, &n)) return bad_usage("--seed needs a non-negative integer, not '%s'", optarg);
      o.seed = (unsigned long long)n;
      break;
    case 'j':
      if (!parse_count(optarg, &n) || n < 1 || n > 1024) return bad_usage("--jobs needs a count from 1 to 1024, not '%s'", optarg);
      o.jobs = (long)n;
      break;
    case 'o': o.out = optarg; break;
    case O_TFMT: if (!check_formats(optarg)) return EXIT_USAGE; o.trace_format = optarg; break;
    case O_REPLAY: o.replay = optarg; break;
    case O_SJSON: o.stats_json = optarg; break;
    case 'v': o.verbose++; break;
    case 'q': o.quiet = 1; break;
    case O_DUMP: o.dump_bytecode = 1; break;
    case O_STATS: o.stats = 1; break;
    case O_CACHE:
      cache_given = 1;
      if (strcmp(optarg, "flat") == 0) o.cache_kind = SC_FLAT;
      else if (strcmp(optarg, "judy") == 0) o.cache_kind = SC_JUDY;
      else if (strcmp(optarg, "compact") == 0) o.cache_kind = SC_COMPACT;
      else return bad_usage("unknown state cache '%s' (expected flat, compact or judy)", optarg);
      break;
    case O_TWIN: o.twin_check = 1; break;
    case O_FMEM:
      if (!parse_size(optarg, &o.frontier_mem))
        return bad_usage("--frontier-mem needs a size such as 512M or 4G, not '%s'", optarg);
      break;
    case O_SSC1: case O_SSC2: {
      char *end;
      errno = 0;
      double v = strtod(optarg, &end);
      if (errno || end == optarg || *end || !(v > 0) || v > 1e12)
        return bad_usage(c == O_SSC1 ? "--ss-c1 needs a positive number, not '%s'" : "--ss-c2 needs a positive number, not '%s'",
                         optarg);
      if (c == O_SSC1) o.ss_c1 = v;
      else o.ss_c2 = v;
      break;
    }
    case O_SS_SCHED:
      if (strcmp(optarg, "interleaved") == 0) o.ss_strata = 0;
      else if (strcmp(optarg, "strata") == 0) o.ss_strata = 1;
      else return bad_usage("unknown ss schedule '%s' (expected interleaved or strata)", optarg);
      break;
    case O_NO_SAMPLING: o.no_sampling = 1; break;
    case O_NO_SHARED: o.no_shared_cache = 1; break;
    case O_NO_REDUCTION: o.no_reduction = 1; break;
    case O_KEEP_GOING: o.keep_going = 1; break;
    case O_IRS_STEP:
      if (!parse_count(optarg, &o.irs_step) || o.irs_step == 0)
        return bad_usage("--irs-step needs a positive count, not '%s'", optarg);
      break;
    case O_PCT_DEPTH:
      if (!parse_count(optarg, &o.pct_depth) || o.pct_depth < 1 || o.pct_depth > 1000)
        return bad_usage("--pct-depth needs a count from 1 to 1000, not '%s'", optarg);
      break;
    case O_PCT_STEPS:
      if (!parse_count(optarg, &o.pct_steps) || o.pct_steps == 0)
        return bad_usage("--pct-steps needs a positive count, not '%s'", optarg);
      break;
    case O_UNFAIR: o.unfair = 1; break;
    case O_TEMP:
      if (!parse_count(optarg, &o.temperature))
        return bad_usage("--liveness-temperature-threshold needs a count (0: off), not '%s'", optarg);
      break;
    case 'h': usage(stdout); return EXIT_NOBUG;
    case 'V': printf("pcheck %s\n", PACKAGE_VERSION); return EXIT_NOBUG;
    case ':': return bad_usage("option '%s' needs a value", argv[optind - 1]);
    default: return bad_usage("unknown option '%s'", argv[optind - 1]);
    }
  }
  if (optind >= argc) return bad_usage("no input files%s", "");
  /* The default cache: flat, the fastest on one thread; compact for an
  ** exhaustive search on several threads, where flat's resize lock (taken
  ** for reading on every insert) is shared by all of them
  ** (bench/README.md, "Parallel exhaustive search"). */
  if (!cache_given && o.jobs > 1 &&
      ((strcmp(o.search, "dfs") == 0 && o.no_reduction) || strcmp(o.search, "bfs") == 0 ||
       strcmp(o.search, "ses") == 0 || strcmp(o.search, "pb") == 0))
    o.cache_kind = SC_COMPACT;   /* dfs with the reduction runs on one thread (search_dfs.c) */
  if (o.keep_going && strcmp(o.search, "dfs") != 0)
    return bad_usage("--keep-going needs -s dfs, not -s %s", o.search);
  if (o.twin_check && explorer_native_kind(o.explorer) == EXN_NONE)
    return bad_usage("--explorer-twin-check needs --explorer rr, rtc or prr, not '%s'", o.explorer);

  /* The inputs: the model, plus the file of FILE.p:NAME or of a standard
  ** explorer written in the language. */
  int ninputs = argc - optind;
  char **inputs = xcalloc((size_t)ninputs + 2, sizeof(char *));
  for (int i = 0; i < ninputs; i++) inputs[i] = argv[optind + i];
  char *explorer_file = NULL;
  if (!resolve_explorer_name(&o, &explorer_file)) { free(inputs); return EXIT_USAGE; }
  if (explorer_file) inputs[ninputs++] = explorer_file;

  Diag diag;
  diag_init(&diag, stderr);
  Program *prog = program_new();
  double t0 = now_seconds();
  long nlines = 0;
  int errors = frontend_load(prog, &diag, inputs, ninputs, &nlines);
  if (!errors && !explorer_file && !declares_explorer(prog, o.explorer_name) && o.explorer_native == EXN_NONE &&
      is_delaying(o.search)) {
    /* Not in the model and not a native twin: a .p file of the standard
    ** library, if there is one of that name. */
    explorer_file = stdlib_file(o.explorer_name);
    if (access(explorer_file, R_OK) == 0) {
      program_free(prog);
      diag_fini(&diag);
      diag_init(&diag, stderr);
      prog = program_new();
      inputs[ninputs++] = explorer_file;
      errors = frontend_load(prog, &diag, inputs, ninputs, &nlines);
    }
  }
  if (!errors && is_delaying(o.search) && !declares_explorer(prog, o.explorer_name) &&
      (o.explorer_native == EXN_NONE || o.twin_check)) {
    fprintf(stderr, "pcheck: error: unknown explorer '%s': the model declares no explorer of that name, and the "
            "standard ones are rr, rtc and prr (found in %s)\n", o.explorer_name, stdlib_dir());
    free(explorer_file);
    free(inputs);
    program_free(prog);
    diag_fini(&diag);
    return EXIT_USAGE;
  }
  /* A declared explorer wins over a native twin of the same name. */
  if (!o.twin_check && declares_explorer(prog, o.explorer_name)) o.explorer_native = EXN_NONE;
  double t1 = now_seconds();
  int rc = EXIT_NOBUG;
  if (o.stats) {
    double dt = t1 - t0 > 1e-9 ? t1 - t0 : 1e-9;
    fprintf(stderr, "front end: %d files, %ld lines, %.3f s, %.0f lines/s\n", diag.nfiles, nlines, t1 - t0,
            (double)nlines / dt);
  }
  if (errors) {
    diag_summary(&diag);
    rc = EXIT_USAGE;
    goto out;
  }
  if (o.check_only) goto out;

  TestList tests;
  if (testcases_build(prog, &diag, &tests)) {
    diag_summary(&diag);
    testcases_fini(&tests);
    rc = EXIT_USAGE;
    goto out;
  }
  if (o.list_tests) {
    for (int i = 0; i < tests.n; i++) printf("%s\n", tests.items[i].name);
    testcases_fini(&tests);
    goto out;
  }
  int *sel = xcalloc((size_t)(tests.n ? tests.n : 1), sizeof(int));
  int nsel = 0;
  if (o.replay) {
    rc = run_checker(&o, prog, &diag, &tests, NULL, 0);
  } else if (tests.n == 0 && !o.dump_bytecode) {
    fputs("pcheck: error: the model declares no test and has no machine 'Main' to start from\n", stderr);
    rc = EXIT_USAGE;
  } else if (!o.test && tests.n > 1 && !o.dump_bytecode) {
    fputs("pcheck: error: the model has several test cases; choose one with -t NAME:\n", stderr);
    for (int i = 0; i < tests.n; i++) fprintf(stderr, "  %s\n", tests.items[i].name);
    rc = EXIT_USAGE;
  } else if (o.test && (nsel = testcases_select(&tests, o.test, sel, tests.n)) == 0) {
    fprintf(stderr, "pcheck: error: no test case matches '%s'; the model has:\n", o.test);
    for (int i = 0; i < tests.n; i++) fprintf(stderr, "  %s\n", tests.items[i].name);
    rc = EXIT_USAGE;
  } else {
    if (!o.test && tests.n) nsel = 1;   /* the only test (sel[0] = 0) */
    rc = run_checker(&o, prog, &diag, &tests, sel, nsel);
  }
  free(sel);
  testcases_fini(&tests);
out:
  program_free(prog);
  diag_fini(&diag);
  free(explorer_file);
  free(inputs);
  return rc;
}
