/* reduce.h: partial-order reduction (doc/reduction.md).  At a state where
** several machines can run, choose a subset of them whose steps form a
** persistent set: no sequence of steps of the other machines, from this
** state on, can do anything that depends on a chosen step.  Exploring only
** the chosen steps (plus a cycle proviso that the caller applies, see
** expand.h) loses no reachable bug, deadlock or local state.
** The choice comes from the footprint of each candidate step (vm.h:
** VmFootprint) and a per-state over-approximation of what every machine
** can still do: whom it may send to (the machine ids it holds, closed
** under passing them on), which events it may send or announce (event
** constants of its code and what it holds), whether it may create
** machines, whether its steps can depend on the end of its inbox.
** Ownership: a Reduction is built once per search from the program and the
** test and is read-only afterwards (shared by threads); a RedScratch is
** one thread's working memory. */
#ifndef PCHECK_REDUCE_H
#define PCHECK_REDUCE_H
#include <stdint.h>
#include "vm/vm.h"

typedef struct Reduction Reduction;

/* What one thread needs to select: per-machine bitsets of the state at
** hand (grown on demand). */
typedef struct RedScratch {
  uint64_t *ev;              /* per machine: nev_words words of events it may send or announce */
  uint32_t ev_cap;           /* machines ev has room for */
} RedScratch;

/* The static part for the program and test (event constants per machine
** type, creations, sensitivity, specs' observed events).  visible: the
** specs (footprint bits, vm.h) whose temperature the search must see
** change in every order: a step that changes one's temperature or enters
** a cold state (VmFootprint.retemp) is never left out of a state's
** expansion nor explored alone while others wait (the visibility condition
** that keeps hot cycles, doc/reduction.md "Liveness"); the other steps a
** spec observes keep their order as dependent steps.  0 for safety alone. */
Reduction *red_new(const BcProgram *bc, const VmTest *test, uint64_t visible);
void red_free(Reduction *r);
void red_scratch_fini(RedScratch *w);

/* A step that no step of another machine can depend on, nor it on theirs:
** it sent nothing, created nothing, no spec saw it, it took an event that
** was already in its inbox (or none was needed), and it did not stop at a
** data choice; and, where the test bounds inboxes (VmTest.max_inbox), it
** did not shrink its inbox (a send to it that would overflow before the
** step does not after it, doc/reduction.md "Dependence").  Such a step
** alone is a persistent set. */
int red_local(const Reduction *r, const VmFootprint *f);

/* The depth period of the reduced searches that go level by level (bfs,
** and bfs's order across ranks): a state of a level l with
** red_period_full(l) is explored in full whatever its persistent set.
** Along any path of the reduced graph at most RED_PERIOD - 1 reduced
** expansions come between two full ones, so no enabled machine is
** postponed for ever on an endless path, and a bug that an execution of n
** steps reaches is reached within n * RED_PERIOD levels
** (doc/reduction.md, "Endless paths"). */
enum { RED_PERIOD = 8 };
/* dfs turns the order of the machines at such a State only from this
** depth on: shallower, its first path stays that of the persistent sets
** (the creation order that finds many bugs soonest), and no protocol test
** of models/ goes deeper (their deepest State: 1,200 steps); deeper, a
** path that long is taken for an endless one (search_dfs.c). */
enum { RED_TURN_DEPTH = 4096 };
static inline int red_period_full(uint64_t level) { return level % RED_PERIOD == RED_PERIOD - 1; }

/* The steps to explore at State s (len bytes), where ch (VC_MACHINE, n >= 2)
** lists the enabled machines and foot[j] is the footprint of stepping
** ch->ids[j]: sets sel[j] to 1 for each chosen, 0 for the others, and
** returns how many were chosen (ch->n: no reduction here).  vm only
** supplies the program (its State need not be loaded). */
uint32_t red_select(const Reduction *r, RedScratch *w, const Vm *vm, const uint8_t *s, size_t len,
                    const VmChoices *ch, const VmFootprint *foot, uint8_t *sel);

#endif
