/* search.h: the interface every search algorithm implements (one file
** each, SearchOps), what it is given (SearchOptions) and what it reports
** (SearchResult).  A search never prints the summary or writes traces:
** the CLI does, from the result. */
#ifndef PCHECK_SEARCH_H
#define PCHECK_SEARCH_H
#include <stdint.h>
#include <stdio.h>
#include "checker/base/choice.h"
#include "checker/store/statecache.h"
#include "vm/vm.h"

/* A member of the portfolio (search_portfolio.c), as its search sees it. */
typedef struct SearchMember SearchMember;
struct Checkpoint;
struct CkRun;

typedef struct SearchOptions {
  uint64_t seed;             /* --seed */
  int64_t max_steps;         /* --max-steps: the sampling searches' bound (> 0; search_max_steps) */
  int64_t max_fair_steps;    /* P's second -ms value: the fair searches' bound, or -1: 10 x max_steps */
  int64_t schedules;         /* --schedules, -1: no bound */
  double timeout;            /* seconds, 0: none */
  uint64_t mem;              /* --mem: state cache budget in bytes */
  uint64_t frontier_mem;     /* bytes the stack or queue may take before the
                                search stops cleanly (not part of --mem) */
  ScKind cache_kind;         /* state cache implementation */
  int verbose;               /* -v: print the log of every execution */
  int quiet;                 /* -q */
  int progress;              /* print a progress line on stderr once a second */
  int progress_lines;        /* stderr is no terminal (--progress): lines, not one line rewritten */
  double progress_every;     /* seconds between progress lines (--progress=S; default 10), 0: 1 s */
  volatile int *stop;        /* set by SIGINT: stop cleanly */
  /* Baselines (pb, irs, pct): */
  int64_t max_bound;         /* pb: highest preemption bound (--max-delays), -1: none */
  int64_t irs_step;          /* irs: depth bound increment (--irs-step, > 0) */
  int64_t pct_depth;         /* pct: bug depth d (--pct-depth, > 0) */
  int64_t pct_steps;         /* pct: steps k the change points fall among (--pct-steps, > 0) */
  int pct_fair;              /* pct: P's fair PCT (--sch-fairpct): a random tail past the unfair bound */
  /* Delaying searches (ses, ss): */
  const char *explorer;      /* --explorer: its name */
  int explorer_native;       /* ExNative: a native twin, or 0 for a declared explorer */
  int explorer_twin_check;   /* run the declared explorer and its twin in lockstep */
  int64_t max_delays;        /* --max-delays, -1: no bound */
  double ss_c1, ss_c2;       /* ss: numsamples(db) = c1 * c2^db */
  int ss_strata;             /* --ss-schedule strata: ss draws stratum by stratum (the paper's order),
                                not interleaved */
  int no_sampling;           /* --no-sampling: ses does not turn to sampling when memory runs short */
  int no_shared_cache;       /* --no-shared-cache: the portfolio does not set `finished` */
  StateCache *finished;      /* set by the portfolio (one thread, unless --no-shared-cache): dfs adds
                                the states it has finished (checker/store/finished.h), ses skips them */
  int jobs;                  /* -j */
  double rank_timeout;       /* --rank-timeout: seconds a rank holding work may stay silent (farm.h) */
  int no_reduction;          /* --no-reduction: exhaustive searches explore every interleaving */
  /* --check-reduction (checker/search/redcheck.h) and tests: dfs, bfs and ses on
  ** one thread call visit with every State they enter (dfs), queue (bfs)
  ** or expand (ses), once each. */
  void (*visit)(void *ctx, const uint8_t *s, size_t len);
  void *visit_ctx;
  int fail_on_maxsteps;      /* --fail-on-maxsteps: an execution of a sampling search (Walk) that
                                reaches its bound on steps is a bug, as in P */
  int keep_going;            /* --keep-going: dfs goes on after a failing step (it has no successor),
                                random, pct and guided (walk_loop) with the next execution,
                                collecting every place a bug happens (SearchResult.sites) */
  /* Liveness (checker/engine/liveness.h): */
  int unfair;                /* --unfair: hot cycles need not be fair */
  int no_liveness;           /* --no-liveness: safety only: no hot cycles, no temperature (a spec hot
                                at quiescence is still a bug: the VM's check of end states) */
  int live_recheck;          /* tests: dfs's hot-cycle search on the fly hands each fair set it finds
                                to a search of the full graph, as it does the sets only fair by choice
                                points (liveness.h, LiveScc), so that that way is tested too */
  int64_t temperature;       /* --liveness-temperature-threshold: random and irs report a spec hot for
                                more steps than this; 0: off; -1: P's default (search_temperature) */
  struct SchedCov *sched;    /* --coverage: searches that run executions (random, irs, pct, ss) feed
                                it each execution's receives (checker/observe/schedcov.h); NULL: none */
  /* --save-schedules: bita passes each schedule it forced here (its
  ** choices, and a line saying which goal it was made for); NULL: none.
  ** Returns 0, or -1 (the file could not be written: reported). */
  int (*save_schedule)(void *ctx, const char *goal, const TraceChoice *c, uint64_t n);
  void *save_ctx;
  struct Learned *learned;   /* --learn: the orderings guided starts from and adds to (checker/observe/learned.h);
                                NULL: guided keeps its own */
  int alone;                 /* run on this process alone, even as one of several MPI ranks (a
                                portfolio member on its rank): no distributed twin, no farm */
  SearchMember *member;      /* set when the search runs as a portfolio member: search_should_stop
                                hands its turn back there; NULL otherwise */
  struct CkRun *ck;          /* --checkpoint / --resume (dfs, bfs, ses, ss; checker/search/search_ck.h), or NULL */
} SearchOptions;

/* A place where a step failed, for --keep-going: the bug's kind and its
** source location (a bug without one, such as a deadlock, has file NULL). */
typedef struct BugSite {
  VmStatus status;
  const char *file;          /* borrowed from the program, or NULL; for a hot cycle (VM_BUG_HOT_CYCLE)
                                the spec's name */
  uint32_t line, col;
  uint64_t hits;             /* failing steps found there */
} BugSite;

enum { EST_NONE, EST_STATES, EST_EXECUTIONS };

typedef struct SearchResult {
  char *error;               /* the search stopped on a failure that is not a
                                bug of the model (an unsound or failing
                                explorer); trace is then the way to where it
                                happened (heap) */
  int bug;                   /* a bug was found */
  VmBug bugdesc;             /* its description (message is heap) */
  TraceChoice *trace;        /* the choices of the buggy execution (heap) */
  uint64_t ntrace;
  int64_t cycle_start;       /* liveness cycles: the trace returns, after its
                                last choice, to the state after this many
                                choices; -1 for other bugs */
  int cycle_unfair;          /* that cycle was found without fairness (--unfair) */
  int64_t temperature;       /* VM_BUG_HOT_TEMP: the threshold it passed */
  int complete;              /* the search covered everything it set out to */
  char *bound;               /* why it is not complete (heap), or NULL */
  int has_proved;            /* a bounded search proved something: */
  uint64_t proved;           /* no bug with at most this many delays (ses), preemptions (pb), or
                                within this depth (bfs): every execution within it was checked */
  uint64_t states;           /* distinct states (exhaustive searches) */
  uint64_t transitions;      /* steps taken */
  uint64_t executions;       /* executions (sampling searches) */
  uint64_t state_bytes;      /* dfs: the States it entered, in bytes (their mean size: / states) */
  uint64_t max_state_bytes;  /* dfs: the largest of them */
  uint64_t skipped;          /* ses in the portfolio: successors and frontier entries it skipped
                                because dfs had finished them (counted in states when complete) */
  uint64_t max_depth;        /* longest execution or deepest state */
  uint64_t delays;           /* delay budget reached (delaying searches) */
  double seconds;
  uint64_t cache_bytes;      /* memory of the state cache */
  uint64_t cache_refused;    /* states not cached because of the budget */
  int cache_full;            /* the budget was reached */
  uint64_t peak_frontier;    /* deepest stack or widest queue */
  int reduced;               /* partial-order reduction was on (checker/engine/reduce.h) */
  uint64_t pruned;           /* transitions the reduction left out (enabled choices not explored) */
  uint64_t widened;          /* states explored in full because the reduction's cycle proviso failed */
  uint64_t period_full;      /* states explored in full by the depth period (reduce.h: red_period_full) */
  uint32_t proved_period;    /* bfs with the reduction: `proved` counts levels of the reduced graph,
                                which cover every execution of proved / proved_period steps */
  int reduced_one_thread;    /* dfs with the reduction ran on one thread although -j asked for more */
  uint32_t hot_specs;        /* dfs, ses: specs of the test whose hot cycles were looked for */
  uint64_t hot_cycle_bytes;  /* dfs on the fly: the most memory the hot-cycle search held */
  const char *unreduced;     /* why an exhaustive search ran without the reduction although it was not
                                turned off (a static string), or NULL */
  /* How big is what the search covers in all (checker/observe/estimate.h), as
  ** the progress line, the summary and --stats-json show it: */
  int est_kind;              /* EST_NONE, EST_STATES (reachable states) or EST_EXECUTIONS */
  double est_log2;           /* log2 of the estimate */
  double est_factor;         /* its uncertainty: within [est / f, est * f]; 0: unknown */
  uint64_t est_done;         /* what is covered of it: states, or distinct executions */
  int64_t est_next_bound;    /* ses: the next delay bound, whose estimate follows; -1: none */
  double est_next_states;    /* its new states */
  double est_next_seconds;   /* and the time they take at the current rate */
  int ranks;                 /* MPI ranks that ran the search (checker/search/dist.h), 0: one process */
  uint64_t letters;          /* with ranks: letters the ranks sent each other, */
  uint64_t letter_bytes;     /* and their bytes */
  double rank_idle;          /* with ranks: seconds the ranks waited for each other, summed (sampling:
                                rank 0's waiting) */
  const char *dist_note;     /* with ranks: how the search differs from its one-process self (static), or NULL */
  uint64_t farm_items;       /* sampling with ranks (checker/par/farm.h): items of work handed out, */
  uint64_t farm_redone;      /* those handed out again because their rank stopped answering, */
  int ranks_lost;            /* and the ranks that did */
  BugSite *sites;            /* --keep-going: every distinct place a bug was found, in the order found
                                (heap; the first is res.bug's) */
  uint32_t nsites;
  uint64_t bug_executions;   /* --keep-going, sampling searches: executions that ended in a bug */
} SearchResult;

/* What a search can do (SearchOps.caps).  The CLI's defaults, warnings
** and refusals ask these, never a search's name. */
enum {
  SEARCH_EXHAUSTIVE = 1u << 0,     /* visits States with a state cache and can complete (a proof); --mem,
                                      --cache and --frontier-mem size it */
  SEARCH_SAMPLING = 1u << 1,       /* runs executions: --schedules and --max-steps bound it, a seed is drawn
                                      when none is given, and without a bound it stops at the default
                                      budget */
  SEARCH_SEED = 1u << 2,           /* draws random numbers from --seed */
  SEARCH_DELAYS = 1u << 3,         /* counts delays (or pb's preemptions): --max-delays bounds it */
  SEARCH_EXPLORER = 1u << 4,       /* runs a delaying explorer (--explorer, --explorer-twin-check) */
  SEARCH_REDUCTION = 1u << 5,      /* partial-order reduction, on unless --no-reduction; --check-reduction */
  SEARCH_THREADS = 1u << 6,        /* runs on -j threads */
  SEARCH_HOT_CYCLES = 1u << 7,     /* looks for hot cycles (--unfair; --no-liveness turns it off) */
  SEARCH_TEMPERATURE = 1u << 8,    /* checks how long a spec stays hot (--liveness-temperature-threshold) */
  SEARCH_CHECKPOINT = 1u << 9,     /* writes checkpoints and resumes from them */
  SEARCH_CK_SERIAL = 1u << 10,     /* its checkpoint holds one thread's work: --checkpoint needs -j 1 */
  SEARCH_RANKS = 1u << 11,         /* under mpirun, its States are partitioned among the ranks */
  SEARCH_FARM = 1u << 12,          /* under mpirun, its executions are shared among the ranks */
  SEARCH_MEMBERS = 1u << 13,       /* runs other searches side by side (--no-shared-cache) */
  SEARCH_KEEP_GOING = 1u << 14,    /* --keep-going: on after a bug, every bug place listed */
  SEARCH_FAIL_MAXSTEPS = 1u << 15, /* --fail-on-maxsteps: reaching the step bound is a bug */
  SEARCH_LEARNS = 1u << 16,        /* --learn: starts from and adds to learned orderings */
  SEARCH_SAVES = 1u << 17,         /* --save-schedules: writes the schedules it forces */
  SEARCH_PRIORITIES = 1u << 18,    /* PCT's priorities (--pct-depth, --pct-steps) */
  SEARCH_DEPTH_STEPS = 1u << 19,   /* irs's growing depth bound (--irs-step) */
  SEARCH_STRATA = 1u << 20,        /* ss's stratified samples (--ss-c1, --ss-c2, --ss-schedule) */
  SEARCH_TO_SAMPLING = 1u << 21,   /* turns to sampling at its memory budget (--no-sampling) */
  SEARCH_VISITS = 1u << 22,        /* calls SearchOptions.visit with every State (--check-reduction's oracle) */
  SEARCH_REDUCED_SERIAL = 1u << 23 /* with the reduction, one thread: -j is for --no-reduction */
};

/* What `proved` of a bounded result counts (SearchResult.has_proved). */
typedef enum SearchProof {
  PROOF_NONE,                /* nothing short of completing */
  PROOF_DEPTH,               /* every execution of at most so many steps (bfs's levels) */
  PROOF_PREEMPTIONS,         /* every execution with at most so many preemptions (pb) */
  PROOF_DELAYS               /* every execution with at most so many delays (ses) */
} SearchProof;

typedef struct SearchOps {
  const char *name;
  const char *summary;       /* one line: what it does, for --list-searches */
  unsigned caps;             /* SEARCH_* above */
  SearchProof proof;
  /* Search the test case; fill res.  Returns 0, or -1 on an internal
  ** error or a resource failure (message on stderr). */
  int (*run)(const BcProgram *bc, const VmTest *test, const SearchOptions *o, FILE *log, SearchResult *res);
} SearchOps;


/* The search named name (doc/pcheck.1), or NULL if this build has none. */
const SearchOps *search_find(const char *name);
/* Every search of this build, in the registry's order
** (checker/search/searches.def); *n of them. */
const SearchOps *search_all(size_t *n);
/* The capabilities of the search named name (0: no such search). */
unsigned search_caps(const char *name);

void search_result_fini(SearchResult *r);
/* A result as bytes, for another process running the same binary and
** program (an MPI rank): every figure, the bug, the error and bound
** texts, the trace; not the --keep-going sites nor the static notes. */
void search_result_pack(const SearchResult *r, const BcProgram *bc, Buf *out);
/* Read what search_result_pack wrote into r (which it owns then).  0, or
** -1 if the bytes are malformed (r then empty). */
int search_result_unpack(const uint8_t *p, size_t len, const BcProgram *bc, SearchResult *r);
/* Add the counts of one thread's result `part` to `into` (states,
** transitions, State bytes; the largest of max_state_bytes, max_depth,
** peak_frontier), then zero part's summed counts, so that it can be folded
** again later without counting twice. */
void search_fold_counts(SearchResult *into, SearchResult *part);
/* Record the bug the Vm reported, with its trace (copied). */
void search_record_bug(SearchResult *r, const Vm *vm, const TraceChoice *trace, uint64_t n);
/* Count a bug of kind status at file:line:col in r->sites (a new place is
** appended); file is borrowed, as BugSite.file. */
void search_add_site(SearchResult *r, VmStatus status, const char *file, uint32_t line, uint32_t col);

/* Progress on stderr: at most once a second, only when o->progress. */
typedef struct Progress {
  double start;              /* monotonic seconds at the start */
  double last;               /* when the last line was printed */
  int printed;               /* a line is on the terminal (to be cleared) */
  long long bound;           /* delay or preemption bound being searched, or -1 */
} Progress;
double search_now(void);
void progress_init(Progress *p);
void progress_tick(Progress *p, const SearchOptions *o, const SearchResult *r, uint64_t frontier, const char *what);
void progress_done(Progress *p, const SearchOptions *o);
/* Should the search stop now (timeout or interrupt, or, for a portfolio
** member, the portfolio ended)?  Sets *why.  A portfolio member may wait
** here for its next turn.  Every search calls it at least every few
** thousand transitions. */
int search_should_stop(const SearchOptions *o, const Progress *p, const char **why);
/* The pulse: a clock that a thread of its own advances every
** SEARCH_PULSE_MS milliseconds from the first progress_init() on, so that
** the searches see --timeout, an interrupt or the end of the portfolio
** within a pulse or two however long their steps are (a step may run
** millions of instructions: checking every so many steps alone overshot
** a --timeout of 3 s by minutes).  search_stop_due(o, p, &seen) costs one
** load when the pulse has not ticked since *seen; when it has, 1 if the run
** must stop for a reason that is not the search's own (the timeout, an
** interrupt, the portfolio's deadline or stop: no member's turn is
** accounted, so that turns stay a function of work alone).  A search that
** gets 1 calls search_should_stop at once, which then says why. */
enum { SEARCH_PULSE_MS = 100 };
extern uint32_t search_pulse_epoch;
int search_time_up(const SearchOptions *o, const Progress *p);
static inline int search_stop_due(const SearchOptions *o, const Progress *p, uint32_t *seen) {
  uint32_t e = __atomic_load_n(&search_pulse_epoch, __ATOMIC_RELAXED);
  if (__builtin_expect(e == *seen, 1)) return 0;
  *seen = e;
  return search_time_up(o, p);
}

/* The step bound of a search that runs executions: an unfair one (pct,
** ss, bita, guided) runs them up to max_steps steps, a fair one (random,
** irs: every enabled choice has a chance at every step) up to
** max_fair_steps, or 10 x max_steps where that is -1, as P's -ms N does
** (Configuration.WithMaxSchedulingSteps).  max_steps > 0: the CLI's
** default, as P's, is 10,000 and so 100,000 for the fair ones
** (checker/cli/options.def). */
int64_t search_max_steps(const SearchOptions *o, int fair);
/* The temperature threshold of a fair search: --liveness-temperature-
** threshold, else, as P, half its step bound (50,000 by default).  Unfair
** searches do not check temperature (P checks it under fair strategies
** only: a spec hot for long in an unfair execution is no bug).  0 (off)
** with --no-liveness. */
int64_t search_temperature(const SearchOptions *o);


/* The message of the bug of reaching the bound on steps, max_steps, as
** P words it: "Scheduling steps bound of N reached". */
void search_max_steps_message(Buf *m, int64_t max_steps);

#endif
