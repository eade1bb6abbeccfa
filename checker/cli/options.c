/* options.c: the command line's options, made from the rows of
** options.def: the table of specs below, the parser, --help, and the
** options' texts in a checkpoint and in --stats-json.  What an option means
** past its own value (a search it implies, a combination refused) is
** cli.c's (settle_options). */
#include <config.h>
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include "checker/cli/options.h"
#include "checker/par/ranks.h"
#include "checker/search/search.h"

typedef struct OptSpec OptSpec;
/* Reads the value arg (NULL for an option without one) into o: -1 to go
** on, or the exit code (said). */
typedef int OptHandler(const OptSpec *s, Options *o, Given *g, const char *arg);

/* One row of options.def. */
struct OptSpec {
  enum { ROW_TEXT, ROW_OPT, ROW_ALIAS } row;
  int code;                  /* O_ID (an alias: the option it spells) */
  const char *name;          /* the long name, without "--" (NULL: none) */
  int shortc;                /* its letter, or 0 */
  const char *pshort;        /* ALIAS: P's one-dash spelling, or NULL */
  OptKind kind;
  long field;                /* offset of its field in Options, or -1 */
  long long min, max;
  const char *words;
  OptHandler *handler;
  unsigned caps, out;
  const char *label, *help;
  /* STRATEGY rows: */
  const char *search;
  int fair;
  const char *note;
};

static OptHandler opt_list_searches, opt_search, opt_max_steps, opt_schedules, opt_timeout, opt_trace_format,
  opt_progress, opt_help, opt_version, opt_memout, opt_mode, opt_strategy;

static const OptSpec specs[] = {
#define TEXT(T) { .row = ROW_TEXT, .help = T },
#define OPT(ID, LONG, SHORT, KIND, FIELD, DEFAULT, MIN, MAX, WORDS, HANDLER, CAPS, OUT, LABEL, HELP)              \
  { .row = ROW_OPT, .code = O_##ID, .name = LONG, .shortc = SHORT, .kind = K_##KIND,                              \
    .field = (long)offsetof(Options, FIELD), .min = MIN, .max = MAX, .words = WORDS, .handler = HANDLER,           \
    .caps = CAPS, .out = OUT, .label = LABEL, .help = HELP },
#define ALSO(...) OPT(__VA_ARGS__)
#define ACT(ID, LONG, SHORT, KIND, HANDLER, CAPS, LABEL, HELP)                                                    \
  { .row = ROW_OPT, .code = O_##ID, .name = LONG, .shortc = SHORT, .kind = K_##KIND, .field = -1,                 \
    .handler = HANDLER, .caps = CAPS, .label = LABEL, .help = HELP },
#define STRATEGY(ID, LONG, ARG, SEARCH, FAIR, NOTE, LABEL, HELP)                                                  \
  { .row = ROW_OPT, .code = O_##ID, .name = LONG, .kind = (ARG) ? K_COUNT : K_FLAG, .field = -1, .min = 1,        \
    .max = 1000, .handler = opt_strategy, .label = LABEL, .help = HELP, .search = SEARCH, .fair = FAIR,            \
    .note = NOTE },
#define ALIAS(LONG, SHORT, PSHORT, ID) { .row = ROW_ALIAS, .code = O_##ID, .name = LONG, .shortc = SHORT, .pshort = PSHORT },
#include "checker/cli/options.def"
};
enum { NSPECS = sizeof specs / sizeof specs[0] };

void options_defaults(Options *o) {
  memset(o, 0, sizeof *o);
#define OPT(ID, LONG, SHORT, KIND, FIELD, DEFAULT, ...) o->FIELD = DEFAULT;
#include "checker/cli/options.def"
  o->max_fair_steps = -1;
}

/* The option row of code (not an alias). */
static const OptSpec *spec_of(int code) {
  for (size_t i = 0; i < NSPECS; i++)
    if (specs[i].row == ROW_OPT && specs[i].code == code) return &specs[i];
  return NULL;
}

static const OptSpec *spec_named(const char *name, size_t len) {
  for (size_t i = 0; i < NSPECS; i++)
    if (specs[i].row == ROW_OPT && specs[i].name && strlen(specs[i].name) == len && strncmp(specs[i].name, name, len) == 0)
      return &specs[i];
  return NULL;
}

static void *field_of(Options *o, const OptSpec *s) { return (char *)o + s->field; }
static const void *cfield_of(const Options *o, const OptSpec *s) { return (const char *)o + s->field; }

int usage_error(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fputs("pcheck: error: ", stderr);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fputs("\nTry 'pcheck --help' for more information.\n", stderr);
  return EXIT_USAGE;
}

int parse_count(const char *s, long long *out) {
  char *end;
  errno = 0;
  long long v = strtoll(s, &end, 10);
  if (errno || end == s || *end || v < 0) return 0;
  *out = v;
  return 1;
}

int parse_seconds(const char *s, double *out) {
  char *end;
  errno = 0;
  double v = strtod(s, &end);
  if (errno || end == s || *end || !(v > 0)) return 0;
  *out = v;
  return 1;
}

int parse_size(const char *s, unsigned long long *out) {
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

/* CHOICE words: "what: w0 w1 ..." -> the index of word, or -1. */
static int choice_index(const char *words, const char *word) {
  const char *p = strchr(words, ':') + 1;
  size_t len = strlen(word);
  for (int k = 0; *p; k++) {
    while (*p == ' ') p++;
    size_t n = strcspn(p, " ");
    if (n == len && strncmp(p, word, len) == 0) return k;
    p += n;
  }
  return -1;
}

int options_choice(int code, const char *word) { return choice_index(spec_of(code)->words, word); }

/* The k-th word of a CHOICE (static). */
static const char *choice_word(const char *words, int k) {
  static char w[64];
  const char *p = strchr(words, ':') + 1;
  for (int i = 0; *p; i++) {
    while (*p == ' ') p++;
    size_t n = strcspn(p, " ");
    if (i == k) {
      snprintf(w, sizeof w, "%.*s", (int)n, p);
      return w;
    }
    p += n;
  }
  return "?";
}

/* "unknown WHAT 'arg' (expected a, b or c)". */
static int refuse_choice(const OptSpec *s, const char *arg) {
  const char *colon = strchr(s->words, ':');
  Buf b;
  buf_init(&b);
  int n = 0;
  for (const char *p = colon + 1; *p;) {
    while (*p == ' ') p++;
    if (*p) n++;
    p += strcspn(p, " ");
  }
  for (int k = 0; k < n; k++) buf_printf(&b, "%s%s", k == 0 ? "" : k == n - 1 ? " or " : ", ", choice_word(s->words, k));
  usage_error("unknown %.*s '%s' (expected %s)", (int)(colon - s->words), s->words, arg, b.data);
  buf_fini(&b);
  return EXIT_USAGE;
}

/* The refusal of arg as the value of s: what it needs, from WORDS or else
** from its kind and bounds. */
static int refuse_value(const OptSpec *s, const char *arg) {
  char what[96];
  if (s->words) snprintf(what, sizeof what, "%s", s->words);
  else if (s->kind == K_COUNT || s->kind == K_U64) {
    if (s->max == LLONG_MAX) snprintf(what, sizeof what, "%s", s->min > 0 ? "a positive count" : "a count");
    else snprintf(what, sizeof what, "a count from %lld to %lld", s->min, s->max);
  } else if (s->kind == K_REAL) snprintf(what, sizeof what, "a positive number");
  else if (s->kind == K_SIZE) snprintf(what, sizeof what, "a size such as 512M or 4G");
  else snprintf(what, sizeof what, "a positive number of seconds");
  if (s->kind == K_TEXT) return usage_error("--%s needs %s", s->name, what);
  return usage_error("--%s needs %s, not '%s'", s->name, what, arg);
}

/* The value of an option without a handler, by its kind. */
static int read_value(const OptSpec *s, Options *o, const char *arg) {
  void *f = field_of(o, s);
  switch (s->kind) {
  case K_FLAG: *(int *)f = 1; return -1;
  case K_COUNT: case K_U64: {
    long long v;
    if (!parse_count(arg, &v) || v < s->min || v > s->max) return refuse_value(s, arg);
    if (s->kind == K_COUNT) *(long long *)f = v;
    else *(unsigned long long *)f = (unsigned long long)v;
    return -1;
  }
  case K_REAL: {
    char *end;
    errno = 0;
    double v = strtod(arg, &end);
    if (errno || end == arg || *end || !(v > 0) || v > (double)s->max) return refuse_value(s, arg);
    *(double *)f = v;
    return -1;
  }
  case K_SECONDS: case K_OPT_SECONDS:
    if (!arg) *(double *)f = (double)s->min;
    else if (!parse_seconds(arg, f)) return refuse_value(s, arg);
    return -1;
  case K_SIZE:
    if (s->min == 0 && strcmp(arg, "0") == 0) *(unsigned long long *)f = 0;
    else if (!parse_size(arg, f)) return refuse_value(s, arg);
    return -1;
  case K_TEXT:
    if (s->words && !*arg) return refuse_value(s, arg);
    *(const char **)f = arg;
    return -1;
  case K_CHOICE: {
    int k = choice_index(s->words, arg);
    if (k < 0) return refuse_choice(s, arg);
    *(int *)f = k;
    return -1;
  }
  }
  return -1;
}

/* The searches of the registry, NULL-terminated, for "did you mean". */
static const char *const *search_names(void) {
  static const char *names[32];
  if (!names[0]) {
    size_t n;
    const SearchOps *all = search_all(&n);
    for (size_t i = 0; i < n && i + 1 < sizeof names / sizeof names[0]; i++) names[i] = all[i].name;
  }
  return names;
}

/* "portfolio, ses, ... or guided": the registry's names (static). */
static const char *search_list(void) {
  static char b[256];
  const char *const *names = search_names();
  size_t at = 0;
  for (int i = 0; names[i]; i++)
    at += (size_t)snprintf(b + at, sizeof b - at, "%s%s", i == 0 ? "" : names[i + 1] ? ", " : " or ", names[i]);
  return b;
}

static int opt_list_searches(const OptSpec *s, Options *o, Given *g, const char *arg) {
  (void)s, (void)o, (void)g, (void)arg;
  size_t n;
  const SearchOps *all = search_all(&n);
  for (size_t i = 0; i < n; i++) printf("%-10s %s\n", all[i].name, all[i].summary);
  return EXIT_NOBUG;
}

static int opt_search(const OptSpec *s, Options *o, Given *g, const char *arg) {
  (void)s, (void)g;
  if (!search_find(arg)) {
    const char *near = nearest(arg, search_names());
    if (near) {
      fprintf(stderr, "pcheck: error: unknown search '%s'; did you mean %s?\n", arg, near);
      return usage_error("expected %s", search_list());
    }
    return usage_error("unknown search '%s' (expected %s)", arg, search_list());
  }
  o->search = arg;
  return -1;
}

/* N, or P's two bounds N,M: unfair N, fair M (10N without it). */
static int opt_max_steps(const OptSpec *s, Options *o, Given *g, const char *arg) {
  (void)s, (void)g;
  char one[32];
  const char *comma = strchr(arg, ',');
  size_t len = comma ? (size_t)(comma - arg) : strlen(arg);
  snprintf(one, sizeof one, "%.*s", (int)(len < sizeof one ? len : sizeof one - 1), arg);
  if (len >= sizeof one || !parse_count(one, &o->max_steps) || o->max_steps == 0 ||
      (comma && (!parse_count(comma + 1, &o->max_fair_steps) || o->max_fair_steps == 0)))
    return usage_error("--max-steps needs a positive count, or two (P's -ms N M: the unfair and the fair bound), not '%s'",
                       arg);
  return -1;
}

/* The letter the option being read was given by, or 0 (a long name). */
static int letter_given;

/* P's -s is the number of schedules: a search name there is pcheck's -S. */
static int opt_schedules(const OptSpec *s, Options *o, Given *g, const char *arg) {
  (void)g;
  if (letter_given == 's' && !parse_count(arg, &o->schedules)) {
    if (search_find(arg))
      return usage_error("-s is the number of schedules (P's -s), not a search: write -S %s or --search %s", arg, arg);
    return usage_error("-s needs a number of schedules (P's -s), not '%s'", arg);
  }
  return read_value(s, o, arg);
}

/* P's -t is the timeout: a name there is a test (-tc). */
static int opt_timeout(const OptSpec *s, Options *o, Given *g, const char *arg) {
  (void)s, (void)g;
  if (!parse_seconds(arg, &o->timeout)) {
    if ((arg[0] >= 'A' && arg[0] <= 'Z') || (arg[0] >= 'a' && arg[0] <= 'z') || arg[0] == '_')
      return usage_error("-t is the timeout in seconds (P's -t), not a test: write -tc %s or --test %s", arg, arg);
    return usage_error("--timeout needs a positive number of seconds, not '%s'", arg);
  }
  return -1;
}

static int opt_trace_format(const OptSpec *s, Options *o, Given *g, const char *arg) {
  (void)s, (void)g;
  static const char *const formats[] = { "text", "json", "schedule", "msc", "html", "dot" };
  size_t len;
  for (const char *p = arg; *p; p += len + (p[len] == ',')) {
    len = strcspn(p, ",");
    int known = 0;
    for (size_t k = 0; k < sizeof formats / sizeof formats[0]; k++)
      if (strlen(formats[k]) == len && strncmp(p, formats[k], len) == 0) known = 1;
    if (len && !known)
      return usage_error("unknown trace format '%.*s' (expected text, json, schedule, msc, html or dot)", (int)len, p);
  }
  o->trace_format = arg;
  return -1;
}

/* --progress[=S]: lines every S seconds (the row's MIN when bare), also
** after --no-progress. */
static int opt_progress(const OptSpec *s, Options *o, Given *g, const char *arg) {
  (void)g;
  o->no_progress = 0;
  return read_value(s, o, arg);
}

static int opt_help(const OptSpec *s, Options *o, Given *g, const char *arg) {
  (void)s, (void)o, (void)g, (void)arg;
  options_usage(stdout);
  return EXIT_NOBUG;
}

static int opt_version(const OptSpec *s, Options *o, Given *g, const char *arg) {
  (void)s, (void)o, (void)g, (void)arg;
  printf("pcheck %s\n%s\n", PACKAGE_VERSION, ranks_build());
  return EXIT_NOBUG;
}

/* P's -m/--memout: gigabytes, a fraction allowed. */
static int opt_memout(const OptSpec *s, Options *o, Given *g, const char *arg) {
  (void)s, (void)g;
  char *end;
  double gb = strtod(arg, &end);
  if (end == arg || *end || !(gb > 0) || gb > 1e6)
    return usage_error("--memout needs a number of gigabytes (P's -m), not '%s'", arg);
  o->mem = (unsigned long long)(gb * (double)(1ull << 30));
  return -1;
}

/* P's -md: bugfinding (the default) or pex, P's exhaustive mode. */
static int opt_mode(const OptSpec *s, Options *o, Given *g, const char *arg) {
  (void)s;
  if (strcmp(arg, "bugfinding") == 0) return -1;
  if (strcmp(arg, "pex") == 0) {
    fputs("pcheck: note: --mode pex: P's exhaustive mode runs as pcheck's dfs (complete within its bounds)\n", stderr);
    o->search = "dfs";
    g->code[O_SEARCH] = 1;
    return -1;
  }
  return usage_error("--mode needs bugfinding or pex (P's -md), not '%s'", arg);
}

/* A P strategy: the search it runs as, its count as --pct-depth where the
** search has priorities. */
static int opt_strategy(const OptSpec *s, Options *o, Given *g, const char *arg) {
  long long n = 0;
  if (s->kind == K_COUNT && (!parse_count(arg, &n) || n < s->min || n > s->max))
    return usage_error("--%s needs a count from %lld to %lld, as P's, not '%s'", s->name, s->min, s->max, arg);
  o->search = s->search;
  g->code[O_SEARCH] = 1;
  if (s->kind == K_COUNT && (search_caps(s->search) & SEARCH_PRIORITIES)) {
    o->pct_depth = n;
    g->code[O_PCT_DEPTH] = 1;
  }
  o->pct_fair = s->fair;
  if (s->note) fprintf(stderr, "pcheck: note: --%s: %s\n", s->name, s->note);
  return -1;
}

size_t edit_distance(const char *a, const char *b) {
  size_t n = strlen(a), m = strlen(b);
  if (n > 63 || m > 63) return 99;
  unsigned char d[64][64];
  for (size_t i = 0; i <= n; i++) d[i][0] = (unsigned char)i;
  for (size_t j = 0; j <= m; j++) d[0][j] = (unsigned char)j;
  for (size_t i = 1; i <= n; i++)
    for (size_t j = 1; j <= m; j++) {
      unsigned best = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
      if (d[i - 1][j] + 1u < best) best = d[i - 1][j] + 1u;
      if (d[i][j - 1] + 1u < best) best = d[i][j - 1] + 1u;
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] && d[i - 2][j - 2] + 1u < best)
        best = d[i - 2][j - 2] + 1u;
      d[i][j] = (unsigned char)best;
    }
  return d[n][m];
}

const char *nearest(const char *s, const char *const *list) {
  const char *best = NULL;
  size_t bd = 2 + strlen(s) / 4;
  for (int i = 0; list[i]; i++) {
    size_t d = edit_distance(s, list[i]);
    if (d < bd) { bd = d; best = list[i]; }
  }
  return best;
}

static int by_name(const void *a, const void *b) { return strcmp(*(const char *const *)a, *(const char *const *)b); }

/* The message for an option getopt refused: ambiguous (the long names it
** is a prefix of, in alphabetical order), or unknown with the nearest names. */
static int unknown_option(const char *arg) {
  if (strncmp(arg, "--", 2) != 0) {
    fprintf(stderr, "pcheck: error: unknown option '%s'\nTry 'pcheck --help' for more information.\n", arg);
    return EXIT_USAGE;
  }
  const char *name = arg + 2;
  size_t len = strcspn(name, "=");
  Buf b;
  buf_init(&b);
  const char *prefixed[NSPECS];
  size_t nprefix = 0;
  for (size_t i = 0; i < NSPECS; i++)
    if (specs[i].row != ROW_TEXT && specs[i].name && strncmp(specs[i].name, name, len) == 0)
      prefixed[nprefix++] = specs[i].name;
  qsort(prefixed, nprefix, sizeof *prefixed, by_name);
  for (size_t i = 0; i < nprefix; i++) buf_printf(&b, "%s--%s", i ? ", " : "", prefixed[i]);
  if (nprefix > 1) {
    fprintf(stderr, "pcheck: error: option '--%.*s' is ambiguous: it could be %s\n", (int)len, name, b.data);
  } else {
    b.len = 0;
    char *given = xstrndup(name, len);
    size_t best = (size_t)-1;
    for (size_t i = 0; i < NSPECS; i++)
      if (specs[i].row != ROW_TEXT && specs[i].name) {
        size_t d = edit_distance(given, specs[i].name);
        if (d < best) best = d;
      }
    int n = 0;
    for (size_t i = 0; i < NSPECS && best <= 1 + len / 4; i++)
      if (specs[i].row != ROW_TEXT && specs[i].name && edit_distance(given, specs[i].name) == best)
        buf_printf(&b, "%s--%s", n++ ? " or " : "", specs[i].name);
    if (n) fprintf(stderr, "pcheck: error: unknown option '--%s'; did you mean %s?\n", given, b.data);
    else fprintf(stderr, "pcheck: error: unknown option '--%s'\n", given);
    free(given);
  }
  fputs("Try 'pcheck --help' for more information.\n", stderr);
  buf_fini(&b);
  return EXIT_USAGE;
}

/* getopt's tables, from the specs: the long names (aliases too, each
** with the code of the option it spells), the letters, and the code of
** each letter. */
static struct option longopts[NSPECS + 1];
static char shortopts[3 * NSPECS + 2];
static int letter_code[128];
static char *dashed[O_END];  /* "--name" of each option code with a long name (P's spellings become it) */

static int has_arg_of(OptKind k) {
  return k == K_FLAG ? no_argument : k == K_OPT_SECONDS ? optional_argument : required_argument;
}

static void build_tables(void) {
  if (shortopts[0]) return;
  size_t nl = 0, ns = 0;
  shortopts[ns++] = ':';
  for (size_t i = 0; i < NSPECS; i++) {
    const OptSpec *s = &specs[i];
    if (s->row == ROW_TEXT) continue;
    const OptSpec *target = spec_of(s->code);
    int has = has_arg_of(target->kind);
    if (s->name) longopts[nl++] = (struct option){ s->name, has, NULL, s->code };
    if (s->shortc) {
      shortopts[ns++] = (char)s->shortc;
      if (has != no_argument) shortopts[ns++] = ':';
      if (has == optional_argument) shortopts[ns++] = ':';
      letter_code[s->shortc] = s->code;
    }
    if (s->row == ROW_OPT && s->name) {
      dashed[s->code] = xmalloc(strlen(s->name) + 3);
      sprintf(dashed[s->code], "--%s", s->name);
    }
  }
}

static int is_count(const char *s) {
  if (!*s) return 0;
  for (; *s; s++)
    if (*s < '0' || *s > '9') return 0;
  return 1;
}

/* P's spellings (-tc, -ms, ...: one dash and two letters) become pcheck's
** long names, in argv itself (up to "--"), and P's two values of -ms (its
** unfair and fair bounds: "-ms 100 1000") one ("--max-steps=100,1000");
** the new argc. */
static int p_spellings(int argc, char **argv) {
  for (int i = 1; i < argc && strcmp(argv[i], "--") != 0; i++) {
    for (size_t k = 0; k < NSPECS; k++)
      if (specs[k].pshort && strcmp(argv[i], specs[k].pshort) == 0) argv[i] = dashed[specs[k].code];
    if (strcmp(argv[i], "--max-steps") == 0 && i + 2 < argc && is_count(argv[i + 1]) && is_count(argv[i + 2])) {
      static char joined[64];
      snprintf(joined, sizeof joined, "--max-steps=%.24s,%.24s", argv[i + 1], argv[i + 2]);
      argv[i] = joined;
      memmove(&argv[i + 1], &argv[i + 3], (size_t)(argc - i - 3 + 1) * sizeof *argv);
      argc -= 2;
    }
  }
  return argc;
}

int options_parse(int *argcp, char **argv, Options *o, Given *g) {
  build_tables();
  opterr = 0;
  int argc = p_spellings(*argcp, argv);
  *argcp = argc;
  int c;
  while ((c = getopt_long(argc, argv, shortopts, longopts, NULL)) != -1) {
    if (c == ':') return usage_error("option '%s' needs a value", argv[optind - 1]);
    int code = c > O_FIRST_ && c < O_END ? c : c > 0 && c < 128 ? letter_code[c] : 0;
    if (!code) {
      if (optopt && optopt != '?') {
        char shortopt[3] = { '-', (char)optopt, 0 };
        return unknown_option(shortopt);
      }
      return unknown_option(argv[optind - 1]);
    }
    g->code[code] = 1;
    letter_given = c < 128 ? c : 0;
    const OptSpec *s = spec_of(code);
    int rc = s->handler ? s->handler(s, o, g, optarg) : read_value(s, o, optarg);
    if (rc >= 0) return rc;
  }
  return -1;
}

/* The searches of capabilities caps, space-separated, in the registry's
** order (static). */
static const char *acting_searches(unsigned caps) {
  static char b[256];
  size_t n, at = 0;
  const SearchOps *all = search_all(&n);
  b[0] = 0;
  for (size_t i = 0; i < n; i++)
    if (all[i].caps & caps) at += (size_t)snprintf(b + at, sizeof b - at, "%s%s", at ? " " : "", all[i].name);
  return b;
}

void options_warn_ineffective(const Options *o, const Given *g, const char *search, unsigned caps) {
  (void)o;
  for (size_t i = 0; i < NSPECS; i++)
    if (specs[i].row == ROW_OPT && specs[i].caps && g->code[specs[i].code] && !(caps & specs[i].caps))
      fprintf(stderr, "pcheck: warning: --%s has no effect on --search %s (it acts on: %s)\n", specs[i].name, search,
              acting_searches(specs[i].caps));
}

/* A FLAG named no-X is written as X, negated (reduction=off, "reduction": false). */
static int negated(const OptSpec *s) { return s->kind == K_FLAG && strncmp(s->name, "no-", 3) == 0; }

/* s's value in o: as a checkpoint's text writes it, or as JSON. */
static void put_value(Buf *b, const Options *o, const OptSpec *s, int json) {
  const void *f = cfield_of(o, s);
  switch (s->kind) {
  case K_FLAG: {
    int set = *(const int *)f != 0, on = negated(s) ? !set : set;
    buf_puts(b, json ? (on ? "true" : "false") : on ? "on" : "off");
    break;
  }
  case K_COUNT: buf_printf(b, "%lld", *(const long long *)f); break;
  case K_U64: case K_SIZE: buf_printf(b, "%llu", *(const unsigned long long *)f); break;
  case K_REAL: case K_SECONDS: case K_OPT_SECONDS: buf_printf(b, "%g", *(const double *)f); break;
  case K_TEXT: {
    const char *v = *(const char *const *)f;
    if (json && v) json_put_string(b, v, strlen(v));
    else buf_puts(b, v ? v : json ? "null" : "none");
    break;
  }
  case K_CHOICE: {
    const char *w = choice_word(s->words, *(const int *)f);
    if (json) json_put_string(b, w, strlen(w));
    else buf_puts(b, w);
    break;
  }
  }
}

void options_ck_text(Buf *b, const Options *o) {
  int n = 0;
  for (size_t i = 0; i < NSPECS; i++)
    if (specs[i].row == ROW_OPT && (specs[i].out & OUT_CK)) {
      buf_printf(b, "%s%s=", n++ ? " " : "", specs[i].name + (negated(&specs[i]) ? 3 : 0));
      put_value(b, o, &specs[i], 0);
    }
}

void options_json(Buf *b, const Options *o) {
  int n = 0;
  for (size_t i = 0; i < NSPECS; i++) {
    const OptSpec *s = &specs[i];
    if (s->row != ROW_OPT || !(s->out & OUT_JS)) continue;
    buf_puts(b, n++ ? ", \"" : "\"");   /* '-' as '_' */
    for (const char *c = s->name + (negated(s) ? 3 : 0); *c; c++) buf_putc(b, *c == '-' ? '_' : *c);
    buf_puts(b, "\": ");
    put_value(b, o, s, 1);
  }
}

/* A default for --help: a size in K, M or G where it is whole. */
static void put_default(Buf *b, const Options *d, const OptSpec *s, int bare) {
  if (bare) buf_printf(b, "%g", (double)s->min);
  else if (s->kind == K_SIZE) {
    unsigned long long v = *(const unsigned long long *)cfield_of(d, s);
    const char *unit = "GMK";
    int k = 0;
    for (unsigned long long m = 1ull << 30; m >= 1024; m >>= 10, k++)
      if (v && v % m == 0) {
        buf_printf(b, "%llu%c", v / m, unit[k]);
        return;
      }
    buf_printf(b, "%llu", v);
  } else put_value(b, d, s, 0);
}

/* HELP of s with its placeholders filled from d (the defaults). */
static void help_text(Buf *b, const Options *d, const OptSpec *s) {
  for (const char *p = s->help; *p; p++) {
    const char *close = *p == '{' ? strchr(p, '}') : NULL;
    if (!close) {
      buf_putc(b, *p);
      continue;
    }
    size_t len = (size_t)(close - p - 1);
    const OptSpec *of = len == 0 || (len == 1 && p[1] == '!') ? s : spec_named(p + 1, len);
    if (of) put_default(b, d, of, len == 1 && p[1] == '!');
    else buf_printf(b, "%.*s", (int)len + 2, p);
    p = close;
  }
}

void options_usage(FILE *f) {
  enum { COLUMN = 25 };
  Options d;
  options_defaults(&d);
  Buf b, help;
  buf_init(&b);
  buf_init(&help);
  for (size_t i = 0; i < NSPECS; i++) {
    const OptSpec *s = &specs[i];
    if (s->row == ROW_TEXT) {
      buf_printf(&b, "%s\n", s->help);
      continue;
    }
    if (s->row != ROW_OPT || !s->label) continue;
    size_t start = b.len;
    if (strncmp(s->label, "--", 2) != 0) buf_printf(&b, "  %s", s->label);
    else if (s->shortc) buf_printf(&b, "  -%c, %s", s->shortc, s->label);
    else buf_printf(&b, "      %s", s->label);
    help.len = 0;
    help_text(&help, &d, s);
    const char *line = help.data;
    if (*line == '\n') line++;
    else {
      size_t w = b.len - start;
      buf_printf(&b, "%*s", w + 2 <= COLUMN ? (int)(COLUMN - w) : 2, "");
      size_t n = strcspn(line, "\n");
      buf_printf(&b, "%.*s", (int)n, line);
      line += n + (line[n] == '\n');
    }
    buf_putc(&b, '\n');
    while (*line) {
      size_t n = strcspn(line, "\n");
      buf_printf(&b, "%*s%.*s\n", COLUMN, "", (int)n, line);
      line += n + (line[n] == '\n');
    }
  }
  fputs(b.data, f);
  buf_fini(&help);
  buf_fini(&b);
}
