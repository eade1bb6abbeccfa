/* coverage.h: what a search exercised (doc/coverage.md).  The VM marks
** coverage points as steps reach them (vm/vm.h, "Coverage"); this module
** turns the marks of one test into a report keyed by names (CovReport),
** which can also be read back from its JSON and merged with others, and
** renders it: the one-line summary every run prints, P's text layout
** (--coverage), JSON, and the HTML report's section.
** Ownership: a CovReport owns all its strings (cov_report_fini). */
#ifndef PCHECK_COVERAGE_H
#define PCHECK_COVERAGE_H
#include <stdint.h>
#include "vm/vm.h"

/* What a state does with an event, as declared. */
typedef enum CovHandler { CH_NONE, CH_DO, CH_GOTO, CH_DEFER, CH_IGNORE } CovHandler;

/* Where a construct is: file (heap) and line; line 0 when unknown. */
typedef struct CovSrc {
  char *file;
  uint32_t line, col;
} CovSrc;

/* One event in one state: listed when the state has a handler for it or
** a step did something with it there. */
typedef struct CovEvent {
  char *event;
  uint8_t handler;           /* CovHandler */
  CovSrc src;                /* the handler's `on` item */
  uint8_t seen[VCOV_NKINDS]; /* per VmCovKind: some step did it */
} CovEvent;

typedef struct CovState {
  char *name;
  CovSrc src;
  int entered;
  CovEvent *events;          /* sorted by event name */
  uint32_t nevents;
  char **next;               /* states a goto reached from this one (sorted, heap) */
  uint32_t nnext;
} CovState;

typedef struct CovMachine {
  char *name;
  int spec;                  /* a spec (P: monitor) */
  int created;               /* some run created one (a spec: a test attached it) */
  CovState *states;          /* in declaration order */
  uint32_t nstates;
} CovMachine;

/* A receive case or an assert statement. */
typedef struct CovSite {
  char *machine;             /* the machine or spec whose code holds it, or NULL: a global function */
  char *function;            /* its function's name as traces show it */
  char *event;               /* receive cases: the event; asserts: NULL */
  CovSrc src;
  int reached;               /* the case took an event; the assert was evaluated */
} CovSite;

/* A schedule coverage goal seen (checker/observe/schedcov.h): receive a before
** receive b of a machine of type `machine`, under criterion crit. */
typedef struct CovPair {
  char *machine;
  uint64_t a, b;
  uint8_t crit;              /* SC_PR, SC_PCR, SC_PBR */
} CovPair;

typedef struct CovReport {
  char **tests;              /* the test cases merged in */
  uint32_t ntests;
  CovMachine *machines;      /* sorted by name */
  uint32_t nmachines;
  CovSite *receives;         /* sorted by place */
  uint32_t nreceives;
  CovSite *asserts;          /* sorted by place */
  uint32_t nasserts;
  int sched_measured;        /* schedule coverage was measured (some search ran executions with it on) */
  CovPair *pairs;            /* the goals seen, sorted by crit, machine, a, b */
  uint32_t npairs;
} CovReport;

struct SchedCov;
/* The report of test `test` of program bc from the marks in cov, and the
** schedule coverage goals in sched (NULL: not measured). */
void cov_report_build(CovReport *r, const BcProgram *bc, const VmCov *cov, const struct SchedCov *sched,
                      const char *test);
void cov_report_fini(CovReport *r);

/* The counts the summary gives, over machine types that were created. */
typedef struct CovCounts {
  uint32_t states, states_entered;
  uint32_t handlers, handlers_run;   /* do and goto handlers, and receive cases */
  uint32_t asserts, asserts_run;
} CovCounts;
void cov_counts(const CovReport *r, CovCounts *c);

/* Schedule coverage per criterion (SC_*): goals (both orders of every pair
** seen) and those covered (seen), over all machines or those of type
** machine (NULL: all). */
void cov_sched_counts(const CovReport *r, const char *machine, uint32_t goals[3], uint32_t covered[3]);
/* "schedule coverage: PR 6/6 goals, PCR 4/4, PBR 4/4" (no newline), or
** "schedule coverage: not measured (...)" when no execution measured it. */
void cov_sched_summary(const CovReport *r, Buf *out);

/* "coverage: 41/45 states, 88/97 handlers, 12/12 asserts; never run:
** Server.Recover on eTimeout (Server.p:88), ..." (no newline). */
void cov_summary(const CovReport *r, Buf *out);
/* P's coverage text (Total event coverage, then per machine and state),
** then what P's layout has no place for: handlers never run, receive
** cases never taken, asserts never evaluated. */
void cov_text(const CovReport *r, Buf *out);
/* The report as JSON (doc/coverage.md, "pcheck-coverage" version 1). */
void cov_json(const CovReport *r, Buf *out);
/* Read a report written by cov_json.  0, or -1 with a message in err. */
int cov_from_json(CovReport *r, const char *text, size_t len, Buf *err);
/* Add what `from` reached to `into` (machines, states, events, sites are
** matched by name and place; what only one side has is kept). */
void cov_merge(CovReport *into, const CovReport *from);

#endif
