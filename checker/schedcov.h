/* schedcov.h: schedule coverage for actors, as Bita defines it
** (SEARCH.md, "Schedule coverage for actors"; doc/coverage.md).
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

/* One receive of an execution. */
typedef struct SchedRecv {
  uint64_t id;               /* its identity */
  uint32_t machine;          /* VM machine id of the receiver */
  uint16_t type;             /* its machine type */
  uint8_t changes;           /* handling it changed the machine's state */
} SchedRecv;

typedef struct SchedCov SchedCov;

/* The receives of one execution so far, and what identifies them. */
typedef struct SchedTrack {
  struct SchedMachine *ms;   /* per VM machine id */
  uint32_t nms, ms_cap;
  SchedRecv *recvs;
  uint32_t nrecvs, recvs_cap;
} SchedTrack;

SchedCov *schedcov_new(const BcProgram *bc);
void schedcov_free(SchedCov *c);

void schedtrack_init(SchedTrack *t);
void schedtrack_fini(SchedTrack *t);
/* Start a new execution. */
void schedtrack_begin(SchedTrack *t);
/* The events of vm_initial or of one step, in order. */
void schedtrack_step(SchedTrack *t, const VmEvent *ev, uint32_t n);
/* Add the goals the execution covered to c (locks c). */
void schedtrack_end(SchedTrack *t, SchedCov *c);

/* An ordered pair seen: receive a before receive b of a machine of type
** `type` (a machine type name when read back from a report). */
typedef struct SchedPair {
  uint64_t a, b;
  uint16_t type;
  uint8_t crit;
} SchedPair;

/* How many executions were folded into c. */
uint64_t schedcov_executions(SchedCov *c);
/* Every pair seen, sorted by criterion, type, a, b (heap, *n entries). */
SchedPair *schedcov_pairs(SchedCov *c, uint32_t *n);

#endif
