/* statecache.h: the set of 64-bit fingerprints (XXH3 of State bytes) of the
** states a search has seen, under a byte budget (--mem).  One operation
** matters: insert if absent, and say whether it was new; it is safe for
** concurrent callers.  At the budget the cache stops adding: an insert of
** an unknown fingerprint answers SC_FULL, which the search treats as new
** (it explores the state again later if it meets it again: sound, only
** slower).  Three implementations, measured against each other in
** bench/cache_bench.c: an open-addressing table of 64-bit slots (flat), a
** Judy1 array (judy), and a cuckoo table that stores only the part of a
** fingerprint its bucket does not give (compact, sc_compact.c).  Flat is
** the default (--cache); judy and compact keep every fingerprint apart,
** flat all but 0 and 1 (it stores 0 as 1).  sc_save and sc_load carry a
** cache through a checkpoint (checkpoint.h). */
#ifndef PCHECK_STATECACHE_H
#define PCHECK_STATECACHE_H
#include <stddef.h>
#include <stdint.h>
#include "vm/util.h"

typedef enum ScKind { SC_FLAT, SC_JUDY, SC_COMPACT } ScKind;
typedef enum ScResult { SC_NEW, SC_SEEN, SC_FULL } ScResult;

typedef struct StateCache StateCache;

/* A cache that will use at most budget bytes (at least 1 MiB is needed);
** NULL if its first table cannot be mapped. */
StateCache *sc_new(ScKind kind, uint64_t budget);
void sc_free(StateCache *c);
/* Promise that only one thread will use the cache from now on: it then
** skips its locks (a search on one thread).  Caches start shared-safe. */
void sc_set_single_thread(StateCache *c, int single);
/* Add fp; SC_NEW if it was absent, SC_SEEN if present, SC_FULL if absent
** and stored only by evicting another (the budget is reached). */
ScResult sc_insert(StateCache *c, uint64_t fp);
/* Start fetching the memory sc_insert(c, fp) will read (a hint). */
void sc_prefetch(StateCache *c, uint64_t fp);
/* Is fp present? */
int sc_contains(StateCache *c, uint64_t fp);
uint64_t sc_count(const StateCache *c);     /* fingerprints stored */
/* How many fingerprints of a are not in b (both of one kind; neither may
** be written meanwhile). */
uint64_t sc_count_absent(StateCache *a, StateCache *b);
uint64_t sc_bytes(const StateCache *c);     /* memory the cache holds */
uint64_t sc_refused(const StateCache *c);   /* inserts answered SC_FULL (entries replaced) */
int sc_is_full(const StateCache *c);        /* the budget has been reached */
/* Append the cache's whole contents and bookkeeping to out (one thread
** may use the cache meanwhile: none).  The bytes (statecache.c gives their
** layout) are plain data in the machine's byte order, for a checkpoint
** section. */
void sc_save(const StateCache *c, Buf *out);
/* A cache of kind and budget as sc_new makes, holding what sc_save wrote
** into (data, len): the same fingerprints and bookkeeping, so that every
** later operation answers as it would have on the saved cache (except
** that a judy cache saved below its budget may reach it at another
** insert: statecache.c).  The budget may differ from the saved cache's
** (a resumed run with another --mem): the table must fit it, and growth
** and the point where the cache is full then follow it (a cache saved
** full stays full).  NULL, with a message in err, if the bytes are not a
** saved cache of that kind (truncated, another kind, inconsistent), its
** table does not fit budget, or it cannot be mapped.  The caller owns the
** cache; it starts shared-safe. */
StateCache *sc_load(ScKind kind, uint64_t budget, const uint8_t *data, size_t len, Buf *err);
/* "flat", "judy" or "compact" (the --cache values). */
const char *sc_kind_name(ScKind k);
/* Probability that a fingerprint collision hid a state among n distinct
** fingerprints (n(n-1)/2 pairs, 2^64 values), as TLC reports it. */
double sc_collision_probability(uint64_t n);

#endif
