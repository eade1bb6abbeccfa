/* liveness.h: liveness as P means it (doc/liveness.md), for the searches.
** Two checks live here, each called by the searches that support it:
** - hot cycles: an execution on which, from some point on, a spec is never
**   cold (nor enters a cold state within a step) and is hot infinitely
**   often (P's temperature grows without bound), and that is fair (weak fairness for machines, strong fairness for
**   each data choice point: `$$`, `$`, `choose`), or any such cycle with
**   --unfair.  Two ways: on the fly over the graph dfs explores
**   (LiveScc: dfs on one thread), or a search of its own from each state
**   where a spec turns hot (Liveness: ses, dfs on several threads or with
**   checkpoints, and LiveScc where the reduced graph cannot decide),
**   paced by the calling search;
** - temperature (random, irs, pct, ss): a spec hot for more consecutive
**   steps of one execution than --liveness-temperature-threshold, as P's
**   checker counts them.
** and the fairness check --replay applies to a lasso.
** Ownership: a Liveness or LiveScc borrows its program, test and options;
** traces it hands to a SearchResult become the result's. */
#ifndef PCHECK_LIVENESS_H
#define PCHECK_LIVENESS_H
#include "checker/search/search.h"

/* ---- Hot cycles: a search of its own (Liveness) ---- */

typedef struct Liveness Liveness;

typedef enum LiveResult {
  LIVE_NONE = 0,             /* no hot cycle found (by the steps taken: live_work) */
  LIVE_FOUND,                /* one was found: live_record() makes it the bug */
  LIVE_STOPPED,              /* timeout or interrupt (the search stops too) */
  LIVE_ERROR,                /* an internal error (message on stderr) */
} LiveResult;

/* The hot-cycle search for the specs of test that have a hot state, or
** NULL if none has (then there is nothing to check).  It takes its own Vm,
** a visited set of an eighth of o->frontier_mem and, for the states it
** must keep (those of strongly connected components not yet complete), at
** most another eighth; o->unfair accepts unfair cycles.  reduced: it
** searches a reduced graph (persistent sets, the steps specs with hot
** states observe visible, its own stack proviso), choice points taken by
** key, and the full graph decides what that cannot (doc/liveness.md,
** 3.3 and 3.4); 0: the full graph.  Aborts, as xmalloc does, if memory
** for the visited set cannot be had. */
Liveness *live_new(const BcProgram *bc, const VmTest *test, const SearchOptions *o, int reduced);
void live_free(Liveness *L);
/* The specs it checks (bit k: spec k of the test has a hot state); 0 for
** NULL. */
uint64_t live_specs(const Liveness *L);

/* The search goes at the caller's pace.  live_offer() queues a start;
** live_work() advances the search of the moment (one spec from one
** start: Tarjan's algorithm over the spec's hot subgraph) by a number of
** steps, taking the queued starts in the order they came, one spec at a
** time.  The searches of one spec share the visited set, and each runs to
** its end before the next begins, so that together they are one Tarjan
** forest (doc/liveness.md, 3.3): a start is skipped for a spec when it is
** taken if a search for that spec entered it already.  The caller offers
** each state where specs turn hot and, while live_pending(), pays for the
** search with steps of its own work; before it claims every hot cycle
** searched (a complete search), it drains: live_work(L, LIVE_ALL, ...). */

/* live_work's steps for "until nothing is pending". */
#define LIVE_ALL UINT64_MAX

/* Queue State s (len bytes, fingerprint fp) as a start for the specs in
** `specs` (bits) that no search has entered it for, none settled or given
** up (if none is left, nothing is queued).  The caller passes the specs
** hot in s (vm_hot_specs) but not in the state it reached s from, all of
** them for the initial state: a spec hot in both was searched for from
** there, and s with it, so that each spec's hot subgraph is searched
** once, from the states where the spec turns hot.  prefix: the nprefix
** choices from the initial state to s, copied (the stem of a lasso found
** from s).  s and the prefix count in the search's memory; when the queue
** holds its share (a quarter of it), work is done here, without pacing,
** until the start fits: a start is never dropped (its hot cycles would go
** unsearched).  So live_offer returns what live_work does (prog, why:
** see there); LIVE_NONE when it queued the start or had nothing to
** queue. */
LiveResult live_offer(Liveness *L, const uint8_t *s, size_t len, uint64_t fp, uint64_t specs,
                      const TraceChoice *prefix, uint64_t nprefix, Progress *prog, const char **why);

/* Advance the search by at most `steps` steps (a step: one successor
** looked at, or a state finished), beginning the next search when one
** ends; steps not spent when nothing is pending are lost.  LIVE_NONE: the
** steps are spent or nothing is pending; LIVE_FOUND: a fair hot cycle
** (live_record; the next call goes on where this one stopped);
** LIVE_STOPPED: prog's --timeout or an interrupt (*why set; the search is
** kept as it was, for a checkpoint); LIVE_ERROR (said on stderr).  A
** spec whose search outgrows its memory is given up (the calling search
** goes on; live_incomplete() says so). */
LiveResult live_work(Liveness *L, uint64_t steps, Progress *prog, const char **why);

/* Is a search under way or a start queued?  0 for NULL. */
int live_pending(const Liveness *L);

/* After LIVE_FOUND: record the bug in res, its trace being the prefix the
** start it was found from was offered with, then the lasso found,
** res->cycle_start where its cycle begins. */
void live_record(const Liveness *L, SearchResult *res);

/* After LIVE_FOUND: the index of the spec whose hot cycle was found;
** later searches no longer look for that spec's cycles (--keep-going
** goes on with the others). */
int live_settle(Liveness *L);

/* The message of a hot-cycle bug: spec stays hot on a cycle of nsteps
** steps, found with fairness or (unfair) without; state is the spec's
** state where the cycle begins, declared at file:line (file NULL: not
** said), for which vm_spec_state gives the three. */
void live_cycle_message(Buf *b, const char *spec, const char *state, const char *file, uint32_t line,
                        uint64_t nsteps, int unfair);

/* Why the hot-cycle search did not cover everything (a spec given up at
** its memory budget), or NULL.  Valid until live_free. */
const char *live_incomplete(const Liveness *L);

/* For checkpoints: all that L holds between two calls (the states each
** spec's search entered, the specs settled or given up, why, the queued
** starts, and the search under way: its Tarjan stack and depth-first
** path, so that a resumed search takes the same steps as one never
** stopped) appended to out; live_load puts it back into a new L of the
** same test and options.  live_load: 0, or -1 with a message in err. */
void live_save(const Liveness *L, Buf *out);
int live_load(Liveness *L, const uint8_t *p, size_t len, Buf *err);

/* ---- Hot cycles on the fly (dfs on one thread) ----
** Tarjan's algorithm over the graph the depth-first search explores (the
** reduced one unless --no-reduction), with finished.h's bookkeeping: when
** the root of a strongly connected component (SCC) leaves the search's
** stack, each spec hot in some of its states is looked at there: the
** subgraph of the component's states where it is hot, split into its SCCs
** and refined for fairness (checker/engine/fairgraph.h).  What is kept, while a
** state is on Tarjan's stack: for every state, the state that entered it
** and the choice from there; for a state where a spec is hot, the specs
** hot, the machines enabled, at a data choice its key and option count,
** and its explored steps to states not in a closed component.  Under the
** reduction a set fair by choice points but not by states is searched
** again in the full graph by a Liveness from one of its states
** (doc/liveness.md, "Under the reduction").
** The caller's order of calls, for each state it enters: live_scc_enter
** once its choices are known, live_scc_claim for each successor it has
** claimed in its cache and will enter from it later, live_scc_edge for
** each step it explores, then the states above it in the same way, then
** live_scc_leave when it leaves. */

typedef struct LiveScc LiveScc;

/* The search for the specs of test that have a hot state, or NULL if none
** has.  Its memory (every array it keeps) is bounded by 1/LIVE_SHARE of
** o->frontier_mem: past it the hot-cycle search stops (live_scc_incomplete
** says why) and the calling search goes on.  reduced: the graph is the
** reduced one (o->no_reduction not set). */
LiveScc *live_scc_new(const BcProgram *bc, const VmTest *test, const SearchOptions *o, int reduced);
void live_scc_free(LiveScc *t);
/* The specs it checks (bit k: spec k has a hot state); 0 for NULL. */
uint64_t live_scc_specs(const LiveScc *t);
/* State s (len bytes, fingerprint fp) is entered from the state entered
** before it and not left yet (none for the first) by the choice `via`:
** vm_choices gave it st and ch on vm (ch is read only if st is VM_OK), hot
** and cold are the specs hot and cold in it (vm_hot_specs, vm_cold_specs).
** At a data choice this calls vm_enabled on vm (the next step on vm loads
** its State again). */
void live_scc_enter(LiveScc *t, Vm *vm, const uint8_t *s, size_t len, uint64_t fp, VmStatus st,
                    const VmChoices *ch, uint64_t hot, uint64_t cold, TraceChoice via);
/* The state entered last and not left has claimed fp in its cache and will
** enter it later (finished.h, pending states). */
void live_scc_claim(LiveScc *t, uint64_t fp);
/* A step of that state by `choice` to fingerprint fp: fresh when it will
** be entered from there (claimed), else a state the cache held; cooled:
** the specs that entered a cold state on the step (VmFootprint.cooled). */
void live_scc_edge(LiveScc *t, uint32_t choice, uint64_t fp, int fresh, uint64_t cooled);
/* That state (s, len bytes) leaves; if it closes a component, the
** component is looked at.  LIVE_FOUND: a fair hot cycle, whose lasso
** starts at s (live_scc_record); LIVE_STOPPED (*why set: a search in the
** full graph was stopped by prog's --timeout or an interrupt), LIVE_ERROR
** (said on stderr), or LIVE_NONE. */
LiveResult live_scc_leave(LiveScc *t, const uint8_t *s, size_t len, Progress *prog, const char **why);
/* After LIVE_FOUND: the bug in res, its trace prefix (the nprefix choices
** from the initial state to the state that left, copied) then the lasso. */
void live_scc_record(const LiveScc *t, const TraceChoice *prefix, uint64_t nprefix, SearchResult *res);
/* After LIVE_FOUND: the spec's index; its cycles are no longer looked for
** (--keep-going). */
int live_scc_settle(LiveScc *t);
/* The search can no longer follow the caller's (its cache forgot a
** state): it stops, giving why as the reason. */
void live_scc_off(LiveScc *t, const char *why);
/* Why the hot-cycle search did not cover everything, or NULL. */
const char *live_scc_incomplete(const LiveScc *t);
/* The most bytes it held at once (0 for NULL). */
uint64_t live_scc_peak(const LiveScc *t);

/* ---- Temperature (sampling searches) ---- */

/* Per-spec count of hot steps since the spec last entered a cold state. */
typedef struct LiveTemp {
  int64_t threshold;         /* report when a count exceeds this; 0: off */
  uint64_t *count;           /* one per spec (specs past 63 are not counted) */
  uint16_t nspecs;
  VmBug bug;                 /* the bug, once live_temp_before reported one (message heap) */
} LiveTemp;

/* Counting off (threshold 0) when threshold is 0 or no spec of test has a
** hot state. */
void live_temp_init(LiveTemp *t, const BcProgram *bc, const VmTest *test, int64_t threshold);
void live_temp_fini(LiveTemp *t);
/* A new execution: every count back to 0. */
void live_temp_reset(LiveTemp *t);
/* Before a choice is made in State s: each spec hot in s counts one more
** step; 1 if one went past the threshold (t->bug describes it), else 0. */
int live_temp_before(LiveTemp *t, Vm *vm, const uint8_t *s, size_t len);
/* After vm_step on vm: specs that entered a cold state start again at 0. */
void live_temp_after(LiveTemp *t, const Vm *vm);
/* Record t->bug in r with the trace (copied); r->temperature is set. */
void live_temp_record(const LiveTemp *t, SearchResult *r, const TraceChoice *trace, uint64_t n);

/* ---- Fairness of a given lasso (--replay) ---- */

typedef struct LiveFair LiveFair;
LiveFair *live_fair_new(void);
void live_fair_free(LiveFair *c);
/* One step of the cycle: from State s, where vm_choices gave ch, taking
** choice (a machine id or an option).  Uses vm (reloads it). */
void live_fair_step(LiveFair *c, Vm *vm, const uint8_t *s, size_t len, const VmChoices *ch, uint32_t choice);
/* 1 if the steps given form a fair cycle (doc/liveness.md); 0 if not, with
** the reason in why (machine names through vm). */
int live_fair_check(LiveFair *c, Vm *vm, Buf *why);

/* The hot-cycle search takes 1/LIVE_SHARE of the
** frontier's part of --mem; the search that calls it keeps the rest. */
enum { LIVE_SHARE = 4 };

#endif
