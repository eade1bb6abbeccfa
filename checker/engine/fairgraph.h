/* fairgraph.h: fair cycles in a finite graph whose edges are all known,
** the analysis behind both hot-cycle searches of checker/engine/liveness.c
** (doc/liveness.md, sections 2 and 3).  The caller gives the states of a
** spec's subgraph of states where it is not cold that it has finished
** (every edge out of them known) as nodes 0 .. n-1, each with whether the
** spec is hot there (else it is warm) and what fairness needs: its kind (machine
** choice, data choice, or an end), the machines enabled in it (a bitset),
** at a data choice the choosing machine, its number of options and a key
** of its choice point; and its edges: the choice taken and the node it
** leads to, or FG_OUT when it leads out of the graph (a step on which the
** spec entered a cold state leads out, wherever it ends).  Only cycles
** through a hot node count.  A data choice must
** list an edge for every option that stays in the graph; an option
** without one leaves it.  No Vm here: the caller computes enabled sets
** and keys.
** Ownership: a FairGraph owns its arrays (they only grow); one thread per
** FairGraph. */
#ifndef PCHECK_FAIRGRAPH_H
#define PCHECK_FAIRGRAPH_H
#include <stdint.h>
#include "checker/search/search.h"

enum { FG_OUT = UINT32_MAX };   /* an edge's target outside the graph */

typedef struct FairGraph FairGraph;

/* What fairness asks of a cycle (doc/liveness.md, section 2). */
typedef enum FgMode {
  FG_UNFAIR,                 /* nothing: any cycle (--unfair) */
  FG_EXACT,                  /* weak fairness of machines, strong fairness of every data choice per node */
  FG_KEYED,                  /* FG_EXACT, looked for inside the sets that are fair when a data choice
                                point is its key instead of its node (a weaker condition, kept by
                                trace equivalence: doc/liveness.md, "Under the reduction") */
} FgMode;

typedef enum FgVerdict {
  FG_NOTHING,                /* no fair cycle */
  FG_FOUND,                  /* a fair cycle: fg_cycle builds it */
  FG_UNSURE,                 /* FG_KEYED only: no fair cycle, but sets fair by keys (fg_unsure) */
} FgVerdict;

FairGraph *fg_new(void);
void fg_free(FairGraph *g);

/* Start a graph of n nodes whose enabled sets have nwords 64-bit words
** each (machine id i: bit i % 64 of word i / 64).  Then give each node in
** order with fg_node and, after it, its edges with fg_edge. */
void fg_begin(FairGraph *g, uint32_t n, uint32_t nwords);
/* Node u (the next one): kind VC_MACHINE, VC_DATA or VC_NONE; at VC_DATA
** the choosing machine, its options and its key (FG_KEYED: data choices of
** the same key and option count count as one choice point); hot: the spec
** is hot there.  Returns its enabled set to fill in, zeroed. */
uint64_t *fg_node(FairGraph *g, uint32_t u, uint8_t kind, uint32_t actor, uint32_t nopt, uint64_t key, int hot);
/* An edge of the node given last: its choice (a machine id, or an option
** index) and its target node, or FG_OUT. */
void fg_edge(FairGraph *g, uint32_t choice, uint32_t to);

/* Look for a strongly connected set of nodes, holding a hot node, with a
** cycle that is fair as mode says.  FG_FOUND: *e is a node of the set
** found (its lowest hot one).
** FG_UNSURE: fg_unsure lists a node of each set that is fair by keys and
** holds no fair cycle. */
FgVerdict fg_search(FairGraph *g, FgMode mode, uint32_t *e);
/* After FG_UNSURE: the nodes, *n of them (valid until the next call). */
const uint32_t *fg_unsure(const FairGraph *g, uint32_t *n);

/* A growing list of choices. */
typedef struct FgTrace {
  TraceChoice *v;
  uint64_t n, cap;
} FgTrace;
void fg_trace_push(FgTrace *t, uint8_t kind, uint32_t value);

/* After FG_FOUND (mode as given to fg_search): append to t the steps of a
** cycle from e (the node fg_search gave) back to e inside the set found, fair by construction: every
** machine enabled in every state of the cycle runs on it, every data
** choice on it takes each of its options on it (not with FG_UNFAIR: the
** shortest cycle).  0, or -1 if the set does not allow it (a bug of the
** caller's graph). */
int fg_cycle(FairGraph *g, FgMode mode, FgTrace *t);
/* Append the steps of a shortest path from node a to node b (through any
** nodes): 0, or -1 if there is none. */
int fg_path(FairGraph *g, uint32_t a, uint32_t b, FgTrace *t);

#endif
