/* learned.h: ordering constraints learned from executions without a bug,
** HaPSet's idea for actors (doc/algorithms.md, "guided";
** doc/coverage.md, "--search guided").
** An ordering is a pair of deliveries to one machine, the second right
** after the first, abstracted to statements: the receiver's machine type,
** the send statement of each message (FILE:LINE:COL, FILE the source
** file's name without its folder), and whether one
** machine sent both (same) or two (other), as HaPSet tells local from
** remote.  The set is kept across runs in a text file (--learn FILE), one
** ordering a line:
**     TYPE <tab> FILE:LINE:COL <tab> FILE:LINE:COL <tab> same|other
** after the lines "# pcheck learned orderings" and "version: 1"; lines
** starting with '#' are comments.  An ordering is known by a 64-bit key
** hashed from those four texts, so a file stays valid while the
** statements it names keep their places.
** Thread safety: every function locks the set; it may be shared. */
#ifndef PCHECK_LEARNED_H
#define PCHECK_LEARNED_H
#include <stdint.h>
#include "checker/observe/schedcov.h"
#include "vm/util.h"

typedef struct Learned Learned;

Learned *learned_new(void);
void learned_free(Learned *L);
/* The key of "a delivery of the message sent at b right after one sent at
** a, to a machine of type `type`" (a name). */
uint64_t learned_key(Learned *L, const char *type, const SchedLoc *a, const SchedLoc *b);
int learned_has(Learned *L, uint64_t key);
/* How many orderings the set holds. */
uint64_t learned_count(Learned *L);
/* Learn the orderings of one execution's receives r[0..n) (each
** machine's consecutive deliveries); returns how many were new. */
uint64_t learned_from(Learned *L, const BcProgram *bc, const SchedRecv *r, uint32_t n);
/* Add the orderings of file `path` to L.  A file that does not exist is
** an empty set (0).  0, or -1 with a message naming the file and line in
** err. */
int learned_load(Learned *L, const char *path, Buf *err);
/* Write every ordering of L to path (sorted; through a temporary file).
** 0, or -1 with a message on stderr. */
int learned_save(Learned *L, const char *path);

#endif
