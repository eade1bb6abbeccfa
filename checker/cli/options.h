/* options.h: the command line of `pcheck`, as the CLI's files share it
** (private to checker/cli/).  Every option is a row of options.def; from
** the rows come the Options struct, its defaults, the parser, --help and
** the outputs that list options.  cli.c settles what follows from the
** options taken together. */
#ifndef PCHECK_OPTIONS_H
#define PCHECK_OPTIONS_H
#include <stdint.h>
#include <stdio.h>
#include "checker/base/json.h"

/* The exit codes of the man page (doc/pcheck.1). */
enum { EXIT_NOBUG = 0, EXIT_BUG = 1, EXIT_USAGE = 2, EXIT_INTERNAL = 3, EXIT_INCOMPLETE = 4,
       EXIT_INTERRUPTED = 130 };

/* OUT column of options.def. */
enum { OUT_CK = 1, OUT_JS = 2 };

/* The C type of each KIND of options.def. */
#define OPT_T_FLAG int
#define OPT_T_COUNT long long
#define OPT_T_U64 unsigned long long
#define OPT_T_REAL double
#define OPT_T_SECONDS double
#define OPT_T_OPT_SECONDS double
#define OPT_T_SIZE unsigned long long
#define OPT_T_TEXT const char *
#define OPT_T_CHOICE int

typedef enum OptKind { K_FLAG, K_COUNT, K_U64, K_REAL, K_SECONDS, K_OPT_SECONDS, K_SIZE, K_TEXT, K_CHOICE } OptKind;

/* What the command line set: a field per OPT row (the option's value, or
** its default), then what follows from them. */
typedef struct Options {
#define OPT(ID, LONG, SHORT, KIND, FIELD, DEFAULT, MIN, MAX, WORDS, HANDLER, CAPS, OUT, LABEL, HELP) OPT_T_##KIND FIELD;
#include "checker/cli/options.def"
  long long max_fair_steps;  /* --max-steps' second value (P's -ms N M), or -1: 10 x max_steps */
  int pct_fair;              /* --sch-fairpct: pct with P's fair tail */
  int seed_given;            /* --seed, or the checkpoint's (else random searches draw one) */
  int limits_given;          /* a limit on a step or a State was given (a replay then ignores the trace's) */
  int budget_default;        /* timeout is the default budget (neither --timeout nor --schedules) */
  const char *explorer_name; /* the explorer resolved: its name */
  int explorer_native;       /* and its native twin (ExNative), or 0 */
} Options;

/* The option codes: O_ID for the row of ID, from 256 on (getopt's letters
** come below). */
enum {
  O_FIRST_ = 255,
#define OPT(ID, ...) O_##ID,
#define ALSO(ID, ...) O_##ID,
#define ACT(ID, ...) O_##ID,
#define STRATEGY(ID, ...) O_##ID,
#include "checker/cli/options.def"
  O_END
};

/* The defaults that are no one option's (DEFAULT rows). */
enum {
#define DEFAULT(NAME, VALUE) NAME = VALUE,
#include "checker/cli/options.def"
};

/* What the command line named, beside the values it set. */
typedef struct Given {
  unsigned char code[O_END]; /* code[O_ID]: option ID was given */
} Given;

/* o's fields at their defaults (options.def's DEFAULT column). */
void options_defaults(Options *o);
/* The command line into o and g: argv is rewritten for P's spellings,
** *argcp set to its new count, optind to the first input.  -1 to go on, or
** the exit code (0 after --help, --version or --list-searches, 2 after a
** refusal, said). */
int options_parse(int *argcp, char **argv, Options *o, Given *g);
/* --help. */
void options_usage(FILE *f);
/* The index of word among the values of CHOICE option code (-1: none). */
int options_choice(int code, const char *word);
/* The warnings for the options given that do nothing to a search of
** capabilities caps (checker/search/search.h) named search. */
void options_warn_ineffective(const Options *o, const Given *g, const char *search, unsigned caps);
/* The OUT_CK options as "name=value ..." (appended to b). */
void options_ck_text(Buf *b, const Options *o);
/* The OUT_JS options as JSON members ("name": value, ...; appended to b). */
void options_json(Buf *b, const Options *o);

/* "pcheck: error: MESSAGE" and the pointer to --help on stderr; EXIT_USAGE. */
int usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Edit distance of two short words (a swap of neighbours is one edit). */
size_t edit_distance(const char *a, const char *b);
/* The nearest word of the NULL-terminated list to s, for "did you mean", or NULL. */
const char *nearest(const char *s, const char *const *list);
/* A count ("0", "12"; no sign): 1 and *out, or 0. */
int parse_count(const char *s, long long *out);
/* A positive number of seconds ("0.5", "60"): 1 and *out, or 0. */
int parse_seconds(const char *s, double *out);
/* A size in bytes ("512M", "4G", "100k", "12345"): 1 and *out, or 0. */
int parse_size(const char *s, unsigned long long *out);
#endif
