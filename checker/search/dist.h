/* dist.h: the searches that run on several MPI ranks (ranks.h).  A search
** whose process is one of several ranks calls its distributed twin here;
** every rank calls it alike and gets the same result (only rank 0 prints
** and writes it).  Below them, what the twins share (dist.c).  Built only
** with HAVE_MPI. */
#ifndef PCHECK_DIST_H
#define PCHECK_DIST_H
#include "checker/search/search.h"
#include "checker/par/ranks.h"
#include "checker/store/statecache.h"
#include "checker/store/tracetree.h"

/* Exhaustive search level by level with States partitioned among the
** ranks by fingerprint (search_bfs_dist.c): bfs's order, its cycle proviso
** and its counts.  As a SearchOps run (no log). */
int dist_levels(const BcProgram *bc, const VmTest *test, const SearchOptions *o, SearchResult *res);

/* Stratified exhaustive search (ses) with States partitioned among the
** ranks by fingerprint (search_ses_dist.c): stratum by stratum, each
** stratum a round of mail; every interleaving (no partial-order
** reduction), no hot-cycle search.  Log lines per stratum go to logf. */
int dist_strata(const BcProgram *bc, const VmTest *test, const SearchOptions *o, FILE *logf, SearchResult *res);

/* ---- Shared by the twins (dist.c) ---- */

/* Reasons to stop early, agreed as their maximum across ranks: each
** rank's own clock or signal may come first, so the words are the
** largest code's. */
enum { DIST_STOP_NONE, DIST_STOP_TIMEOUT, DIST_STOP_INTERRUPT, DIST_STOP_FRONTIER, DIST_STOP_FULL };
/* The words of a stop code for the result's bound (static), or NULL. */
const char *dist_stop_text(int code);

/* A bug a rank holds: a state bug (the state of `node` is one: deadlock,
** hot spec at quiescence...) or a step bug (node's state, then `last`). */
enum { DIST_NO_BUG, DIST_STATE_BUG, DIST_STEP_BUG };
typedef struct DistBug {
  int kind;                  /* DIST_* above */
  uint64_t node;             /* trace node id (rank above TT_SHIFT), or TT_NONE: the initial state */
  TraceChoice last;          /* DIST_STEP_BUG: the failing choice */
} DistBug;

/* Collective: the trace of the bug rank `who` holds (`bug` is read there
** only), rebuilt by following parents through every rank's `nodes`.
** Returns the choices from the initial state (heap), *n their number and
** *state_bug whether the last state is the bug. */
TraceChoice *dist_gather_trace(const TtStore *nodes, int who, const DistBug *bug, uint64_t *n, int *state_bug);
/* Replay trace t (from dist_gather_trace) to describe its bug in res, so
** that every rank holds the same result.  0, or -1 if the replay does not
** end in a bug (an internal error). */
int dist_describe_bug(Vm *vm, VmChoices *ch, const TraceChoice *t, uint64_t n, int state_bug, SearchResult *res);
/* Collective: the ranks' counts (mine: this rank's states, transitions,
** pruned, widened and deepest state), cache figures, letters and waiting
** summed or maxed into res; coverage points merged. */
void dist_gather_counts(const SearchResult *mine, const StateCache *cache, const Mail *mail, double idle,
                        const VmTest *test, SearchResult *res);
/* o for one rank: the ranks on one machine share its budgets (--mem's
** cache and frontier parts) equally. */
SearchOptions dist_rank_options(const SearchOptions *o);
/* Collective: rank who's text (heap, "" when who's is NULL), on every rank. */
char *dist_bcast_text(const char *text, int who);

#endif
