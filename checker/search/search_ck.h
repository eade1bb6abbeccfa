/* search_ck.h: checkpoints of a running search and resuming from one
** (--checkpoint FILE, --checkpoint-every SECONDS, --resume FILE), for dfs,
** bfs, ses and ss.  The file is checker/base/checkpoint.h's container; here is
** what every search puts in it besides its own sections (its figures as
** search_result_pack writes them, and the coverage points reached), when
** one is due, and the run's bookkeeping.  A search that supports
** checkpoints writes one when ck_due says so, at a moment where what it
** holds is whole (between two states), and once more when it is stopped
** (interrupt, timeout, a memory bound); resumed, it reads its sections
** back and goes on so that it ends with the figures of a run that was
** never stopped (for a complete search: the same states and transitions;
** for ss: the same executions, its samples being seeded by their place).
** The hot-cycle search's memory is saved too (ck_put_live).  What is not
** saved starts again on resume: the estimates (they converge again). */
#ifndef PCHECK_SEARCH_CK_H
#define PCHECK_SEARCH_CK_H
#include "checker/base/checkpoint.h"
#include "checker/search/search.h"

/* The run's checkpoints, as the CLI sets them up for one test. */
typedef struct CkRun {
  const char *path;          /* --checkpoint FILE, or NULL: none written */
  double every;              /* seconds between two */
  CkHeader head;             /* what they are for */
  Checkpoint *from;          /* --resume: the checkpoint read (the CLI owns it), or NULL */
  const char *from_path;     /* its file */
  double last;               /* search_now() when the last one was written, or the search started */
  uint64_t written;          /* checkpoints written by this run */
  double write_seconds;      /* the time they took */
  double last_write;         /* the time the last one took to make and write (ck_due waits 9 times that) */
  double begun;              /* search_now() at ck_begin, or 0 */
  double prior_seconds;      /* --resume: the search's time before this run (the checkpoint's) */
  int failed;                /* the last write failed (the search goes on) */
  int warned;                /* a failed write was said on stderr (once a run) */
} CkRun;

/* Is a checkpoint due (o->ck with a path, and `every` seconds since the
** last, or nine times as long as the last took to write if that is more:
** writing takes at most a tenth of the run)?  The clock starts with the
** search (ck_start). */
int ck_due(const SearchOptions *o);
/* The search starts: the clock of ck_due. */
void ck_start(const SearchOptions *o);
/* A checkpoint is being made: the time it takes from here to the end of
** its ck_commit is what ck_due weighs (making it counts, not only
** writing it). */
void ck_begin(const SearchOptions *o);
/* Add the sections every search writes to c: r's figures (with seconds,
** this run's search time, added to the checkpoint's it resumed from), and
** the coverage points of test reached so far. */
void ck_put_common(const SearchOptions *o, Checkpoint *c, const SearchResult *r, const BcProgram *bc,
                   const VmTest *test, double seconds);
/* Write c as o's checkpoint (through a temporary file renamed over it).
** 0, or -1: the write failed, said on stderr the first time (the search
** goes on: the previous checkpoint, if any, stays). */
int ck_commit(const SearchOptions *o, Checkpoint *c);
/* Resuming: read the common sections of o->ck->from into r (which must be
** empty) and the test's coverage.  0, or -1 with a message on stderr. */
int ck_get_common(const SearchOptions *o, const BcProgram *bc, const VmTest *test, SearchResult *r);
/* Resuming: a section of the checkpoint that does not fit what this run
** rebuilt (a checkpoint of this version and model that is inconsistent:
** hand-made or of a broken writer).  Says so on stderr; returns -1. */
int ck_bad(const SearchOptions *o, const char *what);
/* Resuming: the state cache saved as section key, loaded into budget
** bytes of o->cache_kind.  NULL when the section is missing (said as
** ck_bad(o, what), unless optional) or does not load (said, with what
** when the loader gives no reason). */
StateCache *ck_get_cache(const SearchOptions *o, const char *key, uint64_t budget, const char *what, int optional);
/* The hot-cycle search's part (section "live"): add L's, or (resuming)
** put the checkpoint's back into L.  Either does nothing for L NULL.
** ck_get_live: 0, or -1 (said). */
struct Liveness;
void ck_put_live(Checkpoint *c, const struct Liveness *L);
int ck_get_live(const SearchOptions *o, struct Liveness *L);
/* The end of every search's checkpoint: add the state cache (section
** "cache", unless NULL), the hot-cycle search's part (L NULL: none), the
** figures and coverage (ck_put_common), write it (ck_commit) and free c. */
void ck_finish(const SearchOptions *o, Checkpoint *c, const StateCache *cache, const struct Liveness *L,
               const SearchResult *r, const BcProgram *bc, const VmTest *test, double seconds);
/* The checkpoint this run resumes from, or NULL. */
static inline const Checkpoint *ck_from(const SearchOptions *o) { return o->ck ? o->ck->from : NULL; }

#endif
