/* workers.h: work distribution among the threads of one search, in one
** place for every search.  A search says what to do with a State; this module
** says who does it.  Threads share a pool of work items: a State's bytes,
** the choices that lead to it from the initial state, and bytes of the
** search's own (for example an explorer's state or the fingerprints of
** the path).  A thread that runs out of work waits in pool_get; a busy
** thread that sees pool_hungry hands some of its unexplored States to the
** pool (pool_put).  The search is over when every thread waits and the
** pool is empty (pool_get returns 0 to all), or when one thread calls
** pool_stop (a bug, a timeout, an error).
** Threading: every function may be called from any thread at once, except
** pool_new / pool_free.  Ownership: the pool owns the items put in it until
** pool_get hands one to a caller, who then owns it (work_fini). */
#ifndef PCHECK_WORKERS_H
#define PCHECK_WORKERS_H
#include <stdint.h>
#include "checker/search/search.h"

/* A unit of work: explore from this State. */
typedef struct WorkItem {
  Buf state;                 /* the State's bytes */
  uint64_t fp;               /* its fingerprint */
  TraceChoice *trace;        /* the choices from the initial state to it (heap) */
  uint64_t ntrace;
  Buf aux;                   /* the search's own bytes that travel with it */
} WorkItem;

void work_fini(WorkItem *w);

typedef struct Pool Pool;

/* A pool for nthreads threads (at least 1). */
Pool *pool_new(int nthreads);
void pool_free(Pool *p);
/* Hand item to the pool (its contents are moved: *item is left empty). */
void pool_put(Pool *p, WorkItem *item);
/* Take an item into *out, waiting while the pool is empty and some thread
** may still put one.  1: *out holds it; 0: the search is over (everyone
** waits with nothing to give, or pool_stop was called). */
int pool_get(Pool *p, WorkItem *out);
/* Some thread waits for work and the pool has none (a cheap read, meant
** to be polled by busy threads). */
int pool_hungry(const Pool *p);
/* End the search: waiting and future pool_get calls return 0. */
void pool_stop(Pool *p);
int pool_stopped(const Pool *p);

/* Run fn(arg_i) on n threads, arg_i = (char *)args + i * size, the first
** on the calling thread; returns when all have returned.  Returns 0, or -1
** if a thread could not be started (message on stderr): then fn ran on
** none of them. */
int workers_run(int n, void (*fn)(void *), void *args, size_t size);

/* The number of threads an exhaustive search uses for -j (o->jobs) : at
** least 1. */
static inline int workers_count(const SearchOptions *o) { return o->jobs > 1 ? o->jobs : 1; }

#endif
