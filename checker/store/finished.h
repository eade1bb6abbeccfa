/* finished.h: which states a depth-first search has *finished*: every
** state reachable from them has been visited (and checked).  The portfolio
** lets dfs publish them so that ses, searching the same graph in another
** order, need not enter them again (doc/algorithms.md, "The portfolio", the shared
** state cache).
**
** A state popped by a depth-first search is not finished by itself: a
** cycle back to a state still on the stack leaves that state's other
** successors unvisited, and they are reachable from the popped one.  The
** strongly connected component is the unit: when the root of a component
** pops (Tarjan: its lowlink is its own index), everything reachable from
** any state of the component has been visited.
**
** Deviation from Tarjan, for searches that claim a batch of successors in
** the state cache before visiting them (search_dfs.c does, to prefetch):
** a claimed successor is recorded as *pending*, with the index of the
** frame that claimed it.  An edge to a pending state lowers the lowlink to
** that frame's index, so no component that reaches it closes before the
** claiming frame has visited it.  Conservative (components may close
** later than Tarjan's), never early.
**
** Use: fin_push when a state is entered (returns its index; the caller
** keeps index and lowlink in its frame), fin_claim for each successor
** claimed but not yet entered, fin_edge for an edge to a state that was
** already in the cache, fin_pop when the frame leaves; fin_pop calls
** `done` for every state of a component that closed.  Memory: 24 bytes
** per state on the stack or pending, 16 more on the
** stack (fin_bytes). */
#ifndef PCHECK_FINISHED_H
#define PCHECK_FINISHED_H
#include <stdint.h>

typedef struct Finished {
  uint64_t *key;             /* fingerprint (0 = empty slot; fingerprint 0 stored as 1) */
  uint64_t *val;             /* its index (on the stack) or its claimer's (pending) */
  uint64_t cap, n;           /* slots (power of two), entries */
  uint64_t *stack;           /* the fingerprints of the entered states not yet in a closed component */
  uint64_t *stack_index;     /* their indexes (increasing) */
  uint64_t depth, stack_cap;
  uint64_t next;             /* the next index */
} Finished;

void fin_init(Finished *t);
void fin_fini(Finished *t);
/* fp is entered: it gets the next index (returned), is pushed on the
** component stack, and replaces any pending record of itself. */
uint64_t fin_push(Finished *t, uint64_t fp);
/* fp was claimed by the frame whose index is `by` and will be entered
** from it later. */
void fin_claim(Finished *t, uint64_t fp, uint64_t by);
/* An edge to fp, which the cache already held: lowers *low to fp's index
** (or its claimer's) if fp is on the stack or pending, and returns 1; a
** state in a closed component leaves *low alone (0). */
int fin_edge(const Finished *t, uint64_t fp, uint64_t *low);
/* The frame of fp (index, lowlink low) leaves.  If low == index its
** component closes: each of its states is removed and passed to done(ctx,
** fp); returns 1.  Otherwise *parent_low (if not NULL) is lowered to low
** and 0 returned. */
int fin_pop(Finished *t, uint64_t index, uint64_t low, uint64_t *parent_low,
            void (*done)(void *ctx, uint64_t fp), void *ctx);
uint64_t fin_bytes(const Finished *t);

#endif
