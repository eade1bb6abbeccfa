/* expand.h: the successors of a State, a batch at a time, for every
** exhaustive search (written once, here).  A batch is
** at most KID_BATCH choices of one State: each successor is written by
** vm_step_expand into one buffer, then all are hashed, then their cache
** slots are prefetched back to back, then they are looked up and inserted.
** On a table far bigger than the TLB reaches, each prefetch waits for its
** page walk, and walks issued together overlap; that is why the steps of a
** batch are separated this way.
** Ownership: an Expansion owns its buffers; it borrows the Vm, the State
** and the cache for the duration of a call.  One thread per Expansion. */
#ifndef PCHECK_EXPAND_H
#define PCHECK_EXPAND_H
#include <stdint.h>
#include "checker/search/search.h"
#include "checker/engine/reduce.h"

/* dfs and bfs compute the successors of a state in batches of this many,
** so that a choice among very many values does not hold all their States
** at once; each batch is hashed and its cache slots prefetched together. */
enum { KID_BATCH = 64 };

/* x->res of a successor the reduction left out (not inserted). */
enum { RES_PRUNED = 4 };

typedef struct Expansion {
  Buf kids;                  /* successor States, one after another */
  uint64_t *off;             /* where each starts in kids (n + 1 entries) */
  uint64_t *fp;              /* their fingerprints */
  uint8_t *res;              /* ScResult of inserting each (expand_insert) */
  uint32_t cap;              /* entries allocated */
  uint32_t base;             /* choice index (into the VmChoices) of the first successor held */
  uint32_t n;                /* successors held */
  uint32_t failed;           /* after a step bug: the choice index whose step failed */
  /* Partial-order reduction (expand_reduce): */
  VmFootprint *foot;         /* footprint of each successor's step */
  uint8_t *sel;              /* 1: successor chosen */
  uint32_t lim;              /* choices of the state to explore: after the last chosen one */
  uint32_t nsel;             /* successors chosen */
  uint8_t reduced;           /* fewer than all choices are chosen */
  RedScratch rs;             /* red_select's working memory */
} Expansion;

void expand_fini(Expansion *x);

/* The choice vm_step takes for index k of ch (a machine id, or k itself). */
static inline uint32_t expand_choice(const VmChoices *ch, uint32_t k) {
  return ch->kind == VC_MACHINE ? ch->ids[k] : k;
}

/* Step State s (len bytes; ch is what vm_choices gave for it on vm) by the
** choices first .. first + min(KID_BATCH, ch->n - first) - 1, and hash
** each successor; x then holds them (x->base = first).  Each step counts
** one in *transitions.  Returns VM_OK; or the bug of a step (vm_bug(vm)
** describes it, x->failed is its choice index, and x holds the successors
** before it, hashed); or VM_BAD_STATE, an internal error, reported on
** stderr. */
VmStatus expand_batch(Expansion *x, Vm *vm, const uint8_t *s, size_t len, const VmChoices *ch, uint32_t first,
                      uint64_t *transitions);

/* The reduced expansion of State s, whose choices ch are VC_MACHINE with
** 2 .. KID_BATCH machines: steps them in order until one step is local
** (red_local: it alone is chosen) or all are stepped (red_select chooses).
** x then holds the stepped successors from choice 0, hashed, x->sel marks
** the chosen, x->lim is one past the last chosen choice (the rest are not
** stepped) and x->reduced says whether some choice is left out.  Chosen
** steps count in *transitions.  Returns as expand_batch does. */
VmStatus expand_reduce(Expansion *x, const Reduction *red, Vm *vm, const uint8_t *s, size_t len,
                       const VmChoices *ch, uint64_t *transitions);

/* For the searches that take a state's choices one by one (ses and its
** explorer, ss replaying ses's moves, pb): ch (as vm_choices just gave it
** for State s on vm) narrowed to the persistent set expand_reduce
** chooses, without a proviso.  1 if a proper subset is chosen: x->sel
** marks it among choices [0, x->lim), x->fp holds their successors'
** fingerprints, and ch is left as it was (expand_keep_chosen narrows it);
** 0 if red is NULL, ch is not a choice among 2 .. KID_BATCH machines,
** every machine is needed or a step failed.  Counts no transition (the
** caller makes the moves again).  The State stays loaded (vm_step_expand
** on s goes on from it). */
int expand_narrow(Expansion *x, const Reduction *red, Vm *vm, const uint8_t *s, size_t len, const VmChoices *ch);
/* After expand_narrow returned 1: ch keeps the chosen machines only, in
** their order. */
void expand_keep_chosen(const Expansion *x, VmChoices *ch);
/* expand_narrow, then expand_keep_chosen if it narrowed: re-executing a
** move whose state the search narrowed (the set depends on the state
** alone).  1 if ch was narrowed. */
int expand_renarrow(Expansion *x, const Reduction *red, Vm *vm, const uint8_t *s, size_t len, VmChoices *ch);

/* After expand_reduce: insert the chosen successors (x->res[j] is
** sc_insert's answer), mark the others RES_PRUNED. */
void expand_insert_chosen(Expansion *x, StateCache *cache);

/* The cycle proviso did not hold: explore every choice after all.  Steps
** the choices expand_reduce did not, inserts every successor not yet
** inserted (their x->res become sc_insert's answers); x then holds all
** ch->n successors, x->lim = ch->n and x->reduced = 0.  The new steps count
** in *transitions.  Returns as expand_batch does. */
VmStatus expand_widen(Expansion *x, Vm *vm, const uint8_t *s, size_t len, const VmChoices *ch, StateCache *cache,
                      uint64_t *transitions);

/* Prefetch the cache slots of the successors held, then insert each:
** x->res[j] is what sc_insert answered for successor j. */
void expand_insert(Expansion *x, StateCache *cache);

/* Successor j's bytes and length. */
static inline const uint8_t *expand_kid(const Expansion *x, uint32_t j, size_t *len) {
  *len = (size_t)(x->off[j + 1] - x->off[j]);
  return (const uint8_t *)x->kids.data + x->off[j];
}

#endif
