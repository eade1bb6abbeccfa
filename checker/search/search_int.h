/* search_int.h: what only the searches share (the files of checker/search/):
** single executions (Walk) and their loop, ss's sampling from ses's
** frontier, the portfolio's side of stopping, the across-ranks switch.
** The contract with the rest of pcheck is search.h. */
#ifndef PCHECK_SEARCH_INT_H
#define PCHECK_SEARCH_INT_H
#include <pthread.h>
#include "checker/search/search.h"

/* What the exhaustive searches (dfs, bfs, ses, pb) set up and tear down
** alike (search_common.c, "The exhaustive lifecycle").  A search embeds
** an Exhaust in what its threads share and calls
**   exhaust_begin    the program, options and result; the threads, their
**                    lock (and barrier: EX_MEET), the clock
**   exhaust_reduce   the partial-order reduction unless --no-reduction
**   ...              its cache (new or the checkpoint's), liveness and
**                    sampler, then its own order of exploration
**   exhaust_end      on every way out, also a failed set-up: the progress
**                    line ended, the time and the caches' figures into
**                    res, and everything above freed
** so that its file keeps its order of exploration and its own state. */
struct Liveness;
struct Reduction;
struct EstSampler;
typedef struct Exhaust {
  const BcProgram *bc;
  const VmTest *test;
  const SearchOptions *o;
  SearchResult *res;         /* what the search reports (the bug under lock) */
  int nthreads;              /* the threads the search runs on */
  pthread_mutex_t lock;      /* res's bug, why and failed, and what each search adds */
  pthread_barrier_t meet;    /* EX_MEET: where the nthreads threads meet (between levels, strata, bounds) */
  unsigned flags;
  Progress prog;             /* the clock; the progress line, printed by thread 0 */
  StateCache *cache;         /* the visited states (pb: its (State, last machine) keys), or NULL */
  StateCache *cache2;        /* a second cache in the figures (pb: its program states), or NULL */
  const struct Reduction *red; /* partial-order reduction, or NULL (--no-reduction) */
  struct Liveness *live;     /* hot cycles by searches of their own, or NULL */
  struct EstSampler *est;    /* the estimate of the states in all (thread 0 updates it), or NULL */
  const char *why;           /* why the search stopped before its end, or NULL (lock) */
  int failed;                /* an internal error, or ses's explorer failed (reported; lock) */
} Exhaust;
enum { EX_MEET = 1 };
void exhaust_begin(Exhaust *x, const BcProgram *bc, const VmTest *test, const SearchOptions *o, SearchResult *res,
                   int nthreads, unsigned flags);
/* Unless --no-reduction: x->red, keeping the steps of the specs in
** visible (a mask of spec indices) visible, and res->reduced. */
void exhaust_reduce(Exhaust *x, uint64_t visible);
void exhaust_end(Exhaust *x);
/* A new state cache of budget bytes for x's threads (unlocked on one);
** NULL after saying so on stderr. */
StateCache *exhaust_cache(const Exhaust *x, uint64_t budget);
/* A new state cache of budget bytes of o->cache_kind; NULL after saying
** so on stderr. */
StateCache *search_new_cache(const SearchOptions *o, uint64_t budget);
/* res's figures of its caches (cache_bytes, cache_refused, cache_full):
** a's and b's together; either may be NULL (nothing to count). */
void search_cache_figures(SearchResult *res, const StateCache *a, const StateCache *b);

/* Each search's run (SearchOps.run), defined in search_NAME.c. */
#define SEARCH(name, proof, summary, caps) \
  int search_run_##name(const BcProgram *bc, const VmTest *test, const SearchOptions *o, FILE *log, SearchResult *res);
#include "checker/search/searches.def"
#undef SEARCH

/* Does this search run across the MPI ranks (this process one of several,
** and not told to run alone)? */
int search_across_ranks(const SearchOptions *o);

/* The portfolio's side of search_should_stop: 1 if member m must stop. */
int search_member_yield(SearchMember *m);
/* The portfolio's side of search_time_up: 1 if the portfolio ended or its
** deadline passed (nothing accounted, no waiting). */
int search_member_time_up(const SearchMember *m);

/* A sampling search across ranks (checker/par/farm.h): what its farm did,
** into res (ranks, items, messages, waiting, ranks lost). */
struct FarmStats;
void search_farm_figures(SearchResult *res, const struct FarmStats *st);

/* SES, then SS (doc/algorithms.md, "ses"): start points for ss's samples other than the
** initial state.  A move as ses records it: the choice, and how many moves
** its state took before it (the delays applied there first). */
typedef struct SsMove {
  uint8_t kind;              /* VC_MACHINE or VC_DATA */
  uint32_t choice;
  uint32_t index;
  uint8_t red;               /* ses offered its explorer the state's persistent set (expand_narrow) */
} SsMove;
typedef struct SsRoots {
  uint64_t n;                /* how many roots (at least one) */
  uint64_t base;             /* the delays used to reach them, for reports */
  void *ctx;
  /* Root r's moves from the initial state into *moves (grown, *cap its
  ** size); returns their number; *resume: the moves the root's state
  ** already took (a sample delays there once more first), *narrowed:
  ** whether they were made among its persistent set.  Called from
  ** several threads at once: must only read. */
  uint64_t (*get)(const struct SsRoots *R, uint64_t r, SsMove **moves, uint64_t *cap, uint32_t *resume,
                  uint8_t *narrowed);
  /* Per root, the delays it used beyond base (reports), or NULL: none. */
  const uint8_t *extra;
  /* ses's reduction (moves with red set, and roots *narrowed, were made
  ** among the state's persistent set), or NULL. */
  const struct Reduction *red;
} SsRoots;
/* Stratified sampling (search_ss.c) from roots (NULL: the initial state),
** with delay bounds counted from the roots; start: when the search began
** (search_now(), for --timeout and the time reported; 0: now).  As a
** SearchOps run. */
int ss_sample(const BcProgram *bc, const VmTest *test, const SearchOptions *o, FILE *logf, const SsRoots *roots,
              double start, SearchResult *res);

/* Single executions from the initial state, one picked choice at a time:
** what random, irs and pct share. */
struct LiveTemp;
typedef struct Walk {
  Vm *vm;
  Buf a, b;                  /* the current State; scratch for the next */
  VmChoices ch;              /* the choices at the current State */
  TraceChoice *trace;        /* the choices taken so far */
  uint64_t depth, tcap;      /* how many; allocated */
  struct LiveTemp *temp;     /* hot steps per spec (checker/engine/liveness.h; heap), or NULL: not counted */
  struct SchedCov *sched;    /* schedule coverage to feed, or NULL */
  struct EtaTree *eta;       /* the tree of executions to feed (checker/observe/estimate.h), or NULL */
  struct SchedTrack *track;  /* this walk's receives (heap) when sched is set or walk_track_receives
                                was called: after walk_run, those of the execution it ran */
  Buf *dec;                  /* or NULL: walk_run appends the decisions of each execution that ends
                                without a bug here, for an EtaTree elsewhere (eta_feed's format) */
  const VmTest *test;
  int eta_cut;               /* an execution fed to eta was cut short (walk_estimate) */
  /* walk_loop's: a stop (timeout, interrupt) is also looked for every
  ** 256 steps of an execution and at every pulse (search_stop_due), not
  ** only between executions; a portfolio member's at the pulse only (its
  ** turns are taken between executions); stop_o NULL: not. */
  const SearchOptions *stop_o;
  const Progress *stop_prog;
  uint32_t pulse;            /* the pulse last seen */
  const char *stopped;       /* why the last execution was cut short by a stop, or NULL */
  int64_t fail_at;           /* --fail-on-maxsteps: an execution that reaches this many steps without
                                ending is a bug (VM_BUG_MAX_STEPS); 0: it is cut there (walk_set_bound) */
} Walk;
typedef enum WalkEnd { WALK_END, WALK_CUT, WALK_BUG, WALK_FAIL } WalkEnd;
/* The choice to take among ch (a machine id, or a data option index). */
typedef uint32_t (*WalkPick)(void *ctx, const VmChoices *ch);
/* A uniformly random choice; ctx is an Rng (checker/base/rng.h). */
uint32_t walk_pick_uniform(void *rng, const VmChoices *ch);
/* temperature: o->temperature of the search (0: no temperature check);
** sched: o->sched (every execution's receives are folded into it). */
void walk_init(Walk *w, const BcProgram *bc, const VmTest *test, int64_t temperature, struct SchedCov *sched);
void walk_fini(Walk *w);
/* The search's bound on an execution's steps is max_steps: with
** --fail-on-maxsteps, reaching it is a bug. */
void walk_set_bound(Walk *w, const SearchOptions *o, int64_t max_steps);
/* r's bug: an execution of n steps (trace) reached the bound on steps,
** max_steps, without ending; its message (search_max_steps_message) is
** P's: "Scheduling steps bound of N reached". */
void search_record_max_steps(SearchResult *r, const TraceChoice *trace, uint64_t n, int64_t max_steps);
/* Track each execution's receives in w->track (also without sched: then
** nothing is folded); records the VM's events. */
void walk_track_receives(Walk *w);
/* One execution: pick until nothing is enabled (WALK_END), max_steps
** steps were taken (WALK_CUT), a bug (WALK_BUG, recorded in r: also a
** spec hot for more steps than the temperature threshold, found before
** the step that would pass it) or an internal error (WALK_FAIL,
** reported).  Counts r's transitions; after END and CUT, raises
** r->max_depth to the execution's length. */
WalkEnd walk_run(Walk *w, int64_t max_steps, WalkPick pick, void *ctx, SearchResult *r);

/* The loop random, pct and guided share: executions until --schedules of
** them, a bug, the timeout or an interrupt, with progress, the -v log of
** each ("<TestLog> Execution N (seed S)" first) and the figures
** (executions, seconds, max_depth).  before(ctx, i), when set, runs before
** execution i (0, 1, ...); after(ctx), when set, after each that ended
** without a bug.  Returns -1 after an internal error (reported), else 0
** with *why (NULL, or why it stopped early) and *truncated (an execution
** was cut at max_steps).
**
** Under mpirun (ranks_count() > 1) the executions are shared among the
** ranks (checker/par/farm.h): then before must make execution i depend on i
** alone (seed its generators from --seed and i: rng_seed_at), after must
** be NULL, and the result is the one of one process.  Ranks other than 0
** return with nothing counted. */
typedef struct WalkLoop {
  WalkPick pick;
  void *ctx;
  void (*before)(void *ctx, uint64_t i);
  void (*after)(void *ctx);
} WalkLoop;
int walk_loop(Walk *w, const SearchOptions *o, FILE *logf, int64_t max_steps, const WalkLoop *l, SearchResult *res,
              const char **why, int *truncated);

#endif
