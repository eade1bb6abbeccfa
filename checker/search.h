/* search.h: the interface every search algorithm implements (one file
** each), and what a search reports back to the CLI. */
#ifndef PCHECK_SEARCH_H
#define PCHECK_SEARCH_H
#include <stdint.h>
#include <stdio.h>
#include "vm/vm.h"

typedef struct SearchOptions {
  uint64_t seed;             /* --seed */
  int64_t max_steps;         /* --max-steps */
  int64_t schedules;         /* --schedules, -1: no bound */
  double timeout;            /* seconds, 0: none */
  int verbose;               /* -v: print the log of every execution */
  int quiet;
  volatile int *stop;        /* set by SIGINT: stop cleanly */
} SearchOptions;

typedef struct SearchResult {
  int bug;                   /* a bug was found */
  VmBug bugdesc;             /* its description (message is heap) */
  int complete;              /* the search covered everything it set out to */
  char *bound;               /* why it is not complete (heap), or NULL */
  uint64_t states, transitions, executions, max_depth, delays;
  double seconds;
  uint32_t *trace;           /* the choices of the buggy execution (heap) */
  uint64_t ntrace;
} SearchResult;

typedef struct SearchOps {
  const char *name;
  /* Search the test case; fill res.  Returns 0, or -1 on an internal error
  ** (message on stderr). */
  int (*run)(const BcProgram *bc, const VmTest *test, const SearchOptions *o, FILE *log, SearchResult *res);
} SearchOps;

extern const SearchOps search_random;

void search_result_fini(SearchResult *r);

#endif
