/* schedcov.h: schedule coverage for actors, as Bita defines it
** (doc/coverage.md, "Schedule coverage for actors").
** A receive (a dequeue, or a `receive` statement taking an event) is
** identified across executions by its receiver and its message: a machine
** by the event during which it was created and its ordinal there, a
** message by the event during which it was sent and its ordinal there,
** the main machine by its type.  For two receives ri, rj of one machine:
**   PR   ri before rj (within SCHED_WINDOW receives of that machine);
**   PCR  ri immediately before rj;
**   PBR  ri before rj, one of them changes the machine's state (a goto
**        while handling it), and no other state-changing receive of that
**        machine is between.
** A goal is an ordered pair; each pair seen in one order makes two goals
** (both orders), covered when seen.  Goals come from executions: the
** searches that run them (random, irs, pct, ss, bita) feed a SchedTrack
** the events of each step (vm_record_events on), and fold it into the
** shared SchedCov at the end of the execution.
** Ownership: the caller owns both; a SchedCov is safe to fold into from
** several threads at once. */
#ifndef PCHECK_SCHEDCOV_H
#define PCHECK_SCHEDCOV_H
#include <stdint.h>
#include "vm/vm.h"

enum { SC_PR, SC_PCR, SC_PBR, SC_NCRIT };
/* PR pairs a receive with at most this many earlier receives of its machine. */
enum { SCHED_WINDOW = 32 };

/* Where a message was sent: the send statement, and the sending VM
** machine id (file NULL: unknown). */
typedef struct SchedLoc {
  const char *file;          /* borrowed from the program */
  uint32_t line, col;
  uint32_t sender;
} SchedLoc;

/* One receive of an execution. */
typedef struct SchedRecv {
  uint64_t id;               /* its identity */
  uint64_t to;               /* the receiver's identity */
  uint32_t machine;          /* VM machine id of the receiver */
  int32_t node;              /* the handler run it starts (SchedTrack.nodes) */
  int32_t cause;             /* the handler run that sent its message, or -1 (the mirror lost it) */
  uint32_t ord;              /* the message's send ordinal within that run */
  uint32_t event;            /* the event received */
  SchedLoc where;            /* where its message was sent */
  uint16_t type;             /* its machine type */
  uint8_t changes;           /* handling it changed the machine's state */
} SchedRecv;

/* One handler run of an execution: a machine's start (its entry into its
** start state, run when it was created) or the handling of one receive.
** Runs are numbered in the order they began; both links point to earlier
** runs, so the causal order (happens-before) is the transitive closure of
** the links: prev (the machine's previous run) and cause (for a start, the
** run that created the machine; for a receive, the run that sent the
** message); -1 where there is none. */
typedef struct SchedNode {
  int32_t prev, cause;
  int32_t recv;              /* its index in SchedTrack.recvs, or -1 for a start */
} SchedNode;

typedef struct SchedCov SchedCov;

/* The receives of one execution so far, and what identifies them. */
typedef struct SchedTrack {
  struct SchedMachine *ms;   /* per VM machine id */
  uint32_t nms, ms_cap;
  SchedRecv *recvs;
  uint32_t nrecvs, recvs_cap;
  SchedNode *nodes;
  uint32_t nnodes, nodes_cap;
} SchedTrack;

SchedCov *schedcov_new(const BcProgram *bc);
void schedcov_free(SchedCov *c);

void schedtrack_init(SchedTrack *t);
void schedtrack_fini(SchedTrack *t);
/* Start a new execution. */
void schedtrack_begin(SchedTrack *t);
/* The events of vm_initial or of one step, in order. */
void schedtrack_step(SchedTrack *t, const VmEvent *ev, uint32_t n);
/* Add the goals the execution covered to c (locks c); returns how many of
** them c did not have. */
uint64_t schedtrack_end(SchedTrack *t, SchedCov *c);
/* The identity of VM machine m of the execution (0 if not seen). */
uint64_t schedtrack_machine(const SchedTrack *t, uint32_t m);
/* The message machine m will receive just before one sent to it now, as
** the FIFO inbox predicts (deferral aside): the newest in its inbox, else
** the last it received.  Its place in *out and 1, or 0 if there is none;
** *type: m's machine type. */
int schedtrack_before_next(const SchedTrack *t, uint32_t m, SchedLoc *out, uint16_t *type);

/* What one step would do to the receives, read from the events it made on
** a trial (the step not fed to t): the identity of the receive it makes,
** and of the receive its send will make at the receiver (whose identity is
** `to`); 0 where it makes none.  A step receives at most once and sends at
** most once (a machine step ends at its first send or creation). */
typedef struct SchedPeek {
  uint64_t recv, sent, to;
} SchedPeek;
void schedtrack_peek(const SchedTrack *t, const VmEvent *ev, uint32_t n, SchedPeek *out);

/* The pairs of the receives recvs[0..n) of one execution under the three
** criteria: fn(ctx, i, j, crit) for each, i and j indexes into recvs, the
** receive i before j.  A pair may come more than once. */
typedef void (*SchedPairFn)(void *ctx, uint32_t i, uint32_t j, uint8_t crit);
void sched_pairs(const SchedRecv *recvs, uint32_t n, SchedPairFn fn, void *ctx);

/* An ordered pair seen: receive a before receive b of a machine of type
** `type` (a machine type name when read back from a report). */
typedef struct SchedPair {
  uint64_t a, b;
  uint16_t type;
  uint8_t crit;
} SchedPair;

/* Is pair p (a, b, crit; type ignored) in c?  Add p to c unless present:
** 1 if it was new.  (Bita's search also keeps its own sets this way.) */
int schedcov_has(SchedCov *c, const SchedPair *p);
int schedcov_add(SchedCov *c, const SchedPair *p);
/* How many pairs c holds. */
uint64_t schedcov_count(SchedCov *c);
/* How many executions were folded into c. */
uint64_t schedcov_executions(SchedCov *c);
/* Every pair seen, sorted by criterion, type, a, b (heap, *n entries). */
SchedPair *schedcov_pairs(SchedCov *c, uint32_t *n);

#endif
