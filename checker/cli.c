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
} Options;

static const char *const searches[] = { "ses", "ss", "dfs", "bfs", "random", "irs", "pct", "pb", NULL };
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
"  -s, --search ALG       ses (default), ss, dfs, bfs, random, irs, pct, pb\n"
"  -e, --explorer NAME    rr, rtc (default), prr, an explorer of the model, or FILE.p:NAME\n"
"      --max-delays N     highest delay budget for ses/ss (default: no bound)\n"
"      --max-steps N      longest execution for sampling searches (default 10000)\n"
"      --schedules N      how many executions for sampling searches (default: no bound)\n"
"      --timeout SECONDS  stop the search after this long and report how far it got\n"
"      --mem SIZE         memory budget of the state cache, e.g. 512M, 4G (default: a quarter of RAM)\n"
"      --seed N           seed of every random decision of the checker\n"
"  -j, --jobs N           worker threads (default 1)\n"
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

static volatile int stop_requested;
static void on_sigint(int sig) { (void)sig; stop_requested = 1; }

/* Compile, then dump the bytecode or run the search on one test case. */
static int run_checker(const Options *o, Program *prog, Diag *diag, const TestCase *tc) {
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
  const SearchOps *ops = NULL;
  if (strcmp(o->search, "random") == 0) ops = &search_random;
  if (!ops || o->replay) {
    fprintf(stderr, "pcheck: error: %s is not available in this build yet; pcheck %s runs --search random "
            "(and checks, lists and dumps models)\n", o->replay ? "--replay" : "this search", PACKAGE_VERSION);
    bc_free(bc);
    return EXIT_INTERNAL;
  }
  VmTest test;
  cg_test(bc, prog, tc, &test);
  SearchOptions so = {0};
  so.seed = o->seed;
  so.max_steps = o->max_steps;
  so.schedules = o->schedules;
  so.timeout = o->timeout;
  so.verbose = o->verbose;
  so.quiet = o->quiet;
  so.stop = &stop_requested;
  signal(SIGINT, on_sigint);
  SearchResult res = {0};
  if (ops->run(bc, &test, &so, stdout, &res) != 0) {
    rc = EXIT_INTERNAL;
  } else {
    if (res.bug) {
      const VmBug *b = &res.bugdesc;
      if (b->file) printf("bug: %s: %s:%u:%u: %s\n", vm_status_name(b->status), b->file, b->line, b->col, b->message);
      else printf("bug: %s: %s\n", vm_status_name(b->status), b->message);
      printf("result: bug-found\n");
      rc = EXIT_BUG;
    } else if (res.complete) {
      printf("result: no-bug (complete)\n");
    } else {
      printf("result: no-bug (bounded: %s%s)\n", stop_requested ? "interrupted, " : "", res.bound ? res.bound : "");
    }
    printf("states: %llu  transitions: %llu  executions: %llu  max-depth: %llu  delays: %llu  time: %.2f\n",
           (unsigned long long)res.states, (unsigned long long)res.transitions, (unsigned long long)res.executions,
           (unsigned long long)res.max_depth, (unsigned long long)res.delays, res.seconds);
  }
  search_result_fini(&res);
  cg_test_fini(&test);
  bc_free(bc);
  return rc;
}

int main(int argc, char **argv) {
  Options o = {0};
  o.search = "ses";
  o.explorer = "rtc";
  o.max_delays = -1;
  o.max_steps = 10000;
  o.schedules = -1;
  o.jobs = 1;
  o.out = "pcheck-out";
  o.trace_format = "text,json,schedule";
  enum { O_LIST = 256, O_CHECK, O_MAXD, O_MAXS, O_SCHED, O_TIMEOUT, O_MEM, O_SEED, O_TFMT, O_REPLAY,
         O_SJSON, O_DUMP, O_STATS };
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
        return bad_usage("unknown search '%s' (expected ses, ss, dfs, bfs, random, irs, pct or pb)", optarg);
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
    case 'h': usage(stdout); return EXIT_NOBUG;
    case 'V': printf("pcheck %s\n", PACKAGE_VERSION); return EXIT_NOBUG;
    case ':': return bad_usage("option '%s' needs a value", argv[optind - 1]);
    default: return bad_usage("unknown option '%s'", argv[optind - 1]);
    }
  }
  if (optind >= argc) return bad_usage("no input files%s", "");

  Diag diag;
  diag_init(&diag, stderr);
  Program *prog = program_new();
  double t0 = now_seconds();
  long nlines = 0;
  int errors = frontend_load(prog, &diag, argv + optind, argc - optind, &nlines);
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
  int sel = -1;
  if (tests.n == 0 && !o.dump_bytecode) {
    fputs("pcheck: error: the model declares no test and has no machine 'Main' to start from\n", stderr);
    rc = EXIT_USAGE;
  } else if (!o.test && tests.n > 1 && !o.dump_bytecode) {
    fputs("pcheck: error: the model has several test cases; choose one with -t NAME:\n", stderr);
    for (int i = 0; i < tests.n; i++) fprintf(stderr, "  %s\n", tests.items[i].name);
    rc = EXIT_USAGE;
  } else if (o.test && testcases_select(&tests, o.test, &sel, 1) == 0) {
    fprintf(stderr, "pcheck: error: no test case matches '%s'; the model has:\n", o.test);
    for (int i = 0; i < tests.n; i++) fprintf(stderr, "  %s\n", tests.items[i].name);
    rc = EXIT_USAGE;
  } else {
    if (sel < 0 && tests.n) sel = 0;
    rc = run_checker(&o, prog, &diag, sel >= 0 ? &tests.items[sel] : NULL);
  }
  testcases_fini(&tests);
out:
  program_free(prog);
  diag_fini(&diag);
  return rc;
}
