/* ranks.h: the processes of a distributed search (MPI ranks), and the
** mail they exchange (doc/distributed.md).
** pcheck started by mpirun is one rank of K; started alone it is rank 0 of
** 1, and so is a build without MPI (configure found no Open MPI): then
** every function here is the one-process case and no mail is ever sent.
**
** A search that runs on several ranks gives each State an owner by its
** fingerprint (ranks_owner) and hands a State it reaches to that owner as
** bytes in a letter.  Letters go out in batches (mail_put appends to the
** batch for a destination, which is sent once it holds MAIL_BATCH bytes
** or when the sender flushes), and the search works in rounds (a BFS
** level, a stratum): mail_round_over, called by a rank with nothing left
** to do and everything flushed, answers whether every rank is in that
** state with no letter in flight, by waves of counts (each rank's letters
** sent and received, summed over the ranks; the round is over when the
** letters received by one wave equal the letters sent by the next, which
** every rank joins only after the first is complete: no letter was then in
** flight and nobody was busy between the two, Mattern's four counters).
** Threading: one thread per process calls these (MPI_THREAD_FUNNELED). */
#ifndef PCHECK_RANKS_H
#define PCHECK_RANKS_H
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "vm/util.h"

/* Start MPI when this process was started by mpirun (its environment
** says so); otherwise nothing.  0, or -1 with a message on stderr. */
int ranks_start(int *argc, char ***argv);
/* End MPI (when started); every rank calls it before exiting, status
** being its exit status.  After ranks_abandon, rank 0 exits at once with
** status (3 for 0: mpirun takes an exit without MPI_Finalize for a
** failure) and mpirun ends the other ranks (which wait for that in
** ranks_end, at most 60 s). */
void ranks_end(int status);
/* Rank 0 gave up on a rank that stopped answering (checker/par/farm.h), and
** told the others (they call it too): it cannot take part in
** MPI_Finalize.  No effect under mpirun --enable-recovery, where a rank
** that died has left the job and the others finalize as usual. */
void ranks_abandon(void);
/* 1 once ranks_abandon took effect. */
int ranks_abandoned(void);
/* This process's rank, and how many there are (1 without mpirun). */
int ranks_me(void);
int ranks_count(void);
/* Where a rank reports what only it knows (an internal error): stderr;
** ranks other than 0 print nothing else (their stdout and stderr go to
** /dev/null, so that the front end's messages appear once). */
FILE *ranks_err(void);
/* How many ranks run on this machine (a share of its memory each). */
int ranks_local_count(void);
/* What `pcheck --version` says about MPI: one line, no newline. */
const char *ranks_build(void);

/* The rank that owns fingerprint fp among k: the fingerprint's top bits
** scaled to k (the state cache indexes by its low bits, so the slice a
** rank owns fills its table evenly). */
static inline int ranks_owner(uint64_t fp, int k) {
  return (int)(((unsigned __int128)fp * (unsigned)k) >> 64);
}

/* Collectives over every rank (each calls them in the same order); with
** one rank they change nothing.  v has n entries and gets the result. */
void ranks_sum(uint64_t *v, int n);
void ranks_max(uint64_t *v, int n);
void ranks_min(uint64_t *v, int n);
void ranks_max_bytes(uint8_t *v, size_t n);
/* n bytes at p from rank root to every rank. */
void ranks_bcast(void *p, size_t n, int root);
/* Every rank waits for every other. */
void ranks_barrier(void);

/* ---- Mail: letters of records between ranks, in batches ---- */
enum { MAIL_BATCH = 1 << 16 };
typedef struct Mail Mail;
Mail *mail_new(int ntags);
void mail_free(Mail *m);
/* The batch going to rank dest under tag (0 .. ntags - 1): append a
** record to it, then call mail_sent_maybe. */
Buf *mail_put(Mail *m, int dest, int tag);
/* Send the batch for dest and tag if it holds MAIL_BATCH bytes or more. */
void mail_sent_maybe(Mail *m, int dest, int tag);
/* Send every batch that holds something. */
void mail_flush(Mail *m);
/* A letter that has arrived, if any: 1 with its bytes in *into (replaced),
** its sender and tag; 0 if none is waiting. */
int mail_get(Mail *m, Buf *into, int *from, int *tag);
/* Call when this rank has nothing to do and has flushed: 1 when the round
** is over on every rank (all return 1 at the same wave), 0 to keep
** reading mail (a wave is under way; a letter may still come). */
int mail_round_over(Mail *m);
/* The end of a rank's turn in the loop of a round when it has nothing
** left to do: flush, then mail_round_over; when no letter came this turn
** (got 0) give the processor up if the round goes on and add the time to
** *waited.  Its answer is mail_round_over's. */
int mail_idle(Mail *m, int got, double *waited);
/* Start a new round (after mail_round_over returned 1 everywhere). */
void mail_round_start(Mail *m);
/* Letters and bytes sent so far (the cost model of doc/distributed.md). */
uint64_t mail_letters(const Mail *m);
uint64_t mail_bytes(const Mail *m);

#endif
