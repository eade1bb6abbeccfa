/* farm.h: sampling across ranks, the work distribution of every sampling
** search (doc/distributed.md, "Sampling across ranks").  Rank 0, the coordinator, cuts a
** sampling search into items (a range of executions, a chunk of a
** stratum's samples: bytes the search defines), hands them to the other
** ranks and runs some itself, and gives the search their results in the
** order the items were added, whoever ran them.  An item's result must
** depend on the item alone (its executions draw from generators seeded by
** --seed and their index): an item run twice, or by another rank, gives
** the same result, so the search's result does not depend on K, nor on
** which rank ran what.
**
** A rank that stops answering (nothing from it for rank_timeout seconds
** while it holds work) is lost: its items go to others, what it sends
** later is ignored, and at the end rank 0 leaves without MPI_Finalize
** (the lost rank cannot take part in it) after it has written everything,
** and mpirun ends the others; ranks_end does it.  Open MPI's mpirun ends the whole job
** when a rank dies unless it runs with --enable-recovery; a rank stopped
** (SIGSTOP) or hung needs nothing.
**
** Tests make a rank fail on purpose with PCHECK_FARM_FAULT (farm.c).
**
** With one rank (or without MPI) rank 0 runs every item itself.
** Threading: one thread per rank calls these. */
#ifndef PCHECK_FARM_H
#define PCHECK_FARM_H
#include <stddef.h>
#include <stdint.h>
#include "vm/util.h"

/* Run one item (n bytes) into out (emptied first).  0, or -1 on a failure
** of the search itself (reported). */
typedef int (*FarmWork)(void *ctx, const uint8_t *item, size_t n, Buf *out);

typedef struct Farm Farm;

/* What a farm did, for the summary and --stats-json. */
typedef struct FarmStats {
  uint64_t items;            /* items added */
  uint64_t remote;           /* of them, results taken from other ranks */
  uint64_t redone;           /* items handed out again after their rank was lost */
  uint64_t messages, bytes;  /* messages rank 0 sent and received, and their bytes */
  int lost;                  /* ranks lost */
  double idle;               /* seconds the ranks waited with nothing to run, summed */
} FarmStats;

/* Every rank: a farm running items with work(ctx, ...).  At the end, the
** ranks' bytes max_bytes[0..nmax) are merged into rank 0's by maximum
** (coverage's hit flags); NULL: none.  rank_timeout: seconds (> 0). */
Farm *farm_new(FarmWork work, void *ctx, uint8_t *max_bytes, size_t nmax, double rank_timeout);
void farm_free(Farm *f);

/* A rank other than 0: run the items rank 0 sends until it ends the farm,
** then send max_bytes.  0, or -1 after a failure of work (rank 0 then
** runs that item itself, so that the failure is reported there). */
int farm_serve(Farm *f);

/* How many units (executions, samples) an item should hold: about 20 ms
** of one rank's work at the rate seen so far (done units merged in
** seconds by k ranks), at least 1, at most 4096.  Results do not depend
** on it. */
uint64_t farm_item_units(uint64_t done, double seconds, int k);
/* Rank 0: add an item (copied); returns its number (0, 1, ...). */
uint64_t farm_add(Farm *f, const void *item, size_t n);
/* Rank 0: items added and not yet taken. */
uint64_t farm_pending(const Farm *f);
/* Rank 0: the result of the oldest item not yet taken (there must be
** one), once some rank has run it; rank 0 runs items itself meanwhile.
** *out stays valid until the next call.  0, or -1 after a failure of work
** on rank 0 (reported). */
int farm_take(Farm *f, const uint8_t **out, size_t *n);
/* Rank 0: forget every item not yet taken (a bug was found, or the search
** stops); their results, when they come, are dropped. */
void farm_drop(Farm *f);
/* Rank 0: end the farm on every rank and merge their max_bytes (ranks
** that do not answer within rank_timeout are lost); then *st. */
void farm_end(Farm *f, FarmStats *st);

#endif
