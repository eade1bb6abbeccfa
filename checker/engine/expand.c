/* expand.c: successors in batches (expand.h).  A batch is stepped,
** hashed and looked up in three separate loops on purpose: the steps fill
** one buffer (the VM reuses the State it loaded for the first step), the
** hashes then run over bytes still in cache, and the prefetches of all the
** batch's cache slots are in flight together before the first lookup. */
#include <config.h>
#include "checker/engine/expand.h"
#include <stdlib.h>
#include <string.h>
#include "vm/hash.h"

/* Free x's buffers and leave it empty (reusable). */
void expand_fini(Expansion *x) {
  buf_fini(&x->kids);
  free(x->off);
  free(x->fp);
  free(x->res);
  free(x->foot);
  free(x->sel);
  red_scratch_fini(&x->rs);
  *x = (Expansion){0};
}

/* Room for n successors (n + 1 offsets). */
static void reserve(Expansion *x, uint32_t n) {
  if (n + 1 <= x->cap) return;
  x->cap = n + 1;
  x->off = xrealloc(x->off, x->cap * sizeof(uint64_t));
  x->fp = xrealloc(x->fp, x->cap * sizeof(uint64_t));
  x->res = xrealloc(x->res, x->cap);
  x->foot = xrealloc(x->foot, x->cap * sizeof *x->foot);
  x->sel = xrealloc(x->sel, x->cap);
}

/* Step choice j of s into x (successor x->n), keeping its footprint, not
** yet hashed (hash_from).  Offsets are recorded before each step, so that
** after a failed step (x->failed = j) x->off[x->n] still ends the last
** good successor; what the failed step wrote is dropped. */
static VmStatus step_one(Expansion *x, Vm *vm, const uint8_t *s, size_t len, const VmChoices *ch, uint32_t j) {
  x->off[x->n] = x->kids.len;
  VmStatus st = vm_step_expand(vm, s, len, expand_choice(ch, j), &x->kids);
  if (st != VM_OK) {
    if (st == VM_BAD_STATE) fputs("pcheck: internal error: the VM rejected its own choice\n", stderr);
    x->failed = j;
    x->kids.len = x->off[x->n];
    return st;
  }
  x->foot[x->n] = *vm_footprint(vm);
  x->n++;
  x->off[x->n] = x->kids.len;
  return VM_OK;
}

/* The fingerprints of successors k .. x->n - 1, in one loop over bytes
** still in cache (see the top). */
static void hash_from(Expansion *x, uint32_t k) {
  for (uint32_t j = k; j < x->n; j++) x->fp[j] = state_hash(x->kids.data + x->off[j], x->off[j + 1] - x->off[j]);
}

VmStatus expand_reduce(Expansion *x, const Reduction *red, Vm *vm, const uint8_t *s, size_t len,
                       const VmChoices *ch, uint64_t *transitions) {
  reserve(x, ch->n);
  x->kids.len = 0;
  x->base = 0;
  x->n = 0;
  x->off[0] = 0;
  for (uint32_t j = 0; j < ch->n; j++) {
    VmStatus st = step_one(x, vm, s, len, ch, j);
    if (st != VM_OK) {
      (*transitions)++;
      hash_from(x, 0);
      return st;
    }
    if (red_local(red, &x->foot[j])) {   /* a local step: it alone is a persistent set */
      hash_from(x, 0);
      memset(x->sel, 0, j);
      x->sel[j] = 1;
      x->nsel = 1;
      x->lim = j + 1;
      x->reduced = 1;
      (*transitions)++;
      return VM_OK;
    }
  }
  hash_from(x, 0);
  x->nsel = red_select(red, &x->rs, vm, s, len, ch, x->foot, x->sel);
  x->reduced = x->nsel < ch->n;
  x->lim = ch->n;
  if (x->reduced)
    while (!x->sel[x->lim - 1]) x->lim--;
  *transitions += x->nsel;
  return VM_OK;
}

int expand_narrow(Expansion *x, const Reduction *red, Vm *vm, const uint8_t *s, size_t len, const VmChoices *ch) {
  if (!red || ch->kind != VC_MACHINE || ch->n < 2 || ch->n > KID_BATCH) return 0;
  uint64_t steps = 0;
  if (expand_reduce(x, red, vm, s, len, ch, &steps) != VM_OK) return 0;
  return x->reduced;
}

void expand_keep_chosen(const Expansion *x, VmChoices *ch) {
  uint32_t k = 0;
  for (uint32_t j = 0; j < x->lim; j++)
    if (x->sel[j]) ch->ids[k++] = ch->ids[j];
  ch->n = k;
}

int expand_renarrow(Expansion *x, const Reduction *red, Vm *vm, const uint8_t *s, size_t len, VmChoices *ch) {
  if (!expand_narrow(x, red, vm, s, len, ch)) return 0;
  expand_keep_chosen(x, ch);
  return 1;
}

void expand_insert_chosen(Expansion *x, StateCache *cache) {
  for (uint32_t j = 0; j < x->n; j++) if (x->sel[j]) sc_prefetch(cache, x->fp[j]);
  for (uint32_t j = 0; j < x->n; j++) x->res[j] = x->sel[j] ? (uint8_t)sc_insert(cache, x->fp[j]) : RES_PRUNED;
}

VmStatus expand_widen(Expansion *x, Vm *vm, const uint8_t *s, size_t len, const VmChoices *ch, StateCache *cache,
                      uint64_t *transitions) {
  uint32_t had = x->n;
  VmStatus st = VM_OK;
  for (uint32_t j = had; j < ch->n && st == VM_OK; j++) {
    st = step_one(x, vm, s, len, ch, j);
    (*transitions)++;
    if (st == VM_OK) x->sel[j] = 0;
  }
  hash_from(x, had);
  for (uint32_t j = 0; j < x->n; j++)
    if (!x->sel[j]) {
      if (j < had) (*transitions)++;
      x->res[j] = (uint8_t)sc_insert(cache, x->fp[j]);
      x->sel[j] = 1;
    }
  x->nsel = x->n;
  x->lim = ch->n;
  x->reduced = 0;
  return st;
}

VmStatus expand_batch(Expansion *x, Vm *vm, const uint8_t *s, size_t len, const VmChoices *ch, uint32_t first,
                      uint64_t *transitions) {
  uint32_t want = ch->n - first < KID_BATCH ? ch->n - first : KID_BATCH;
  reserve(x, want);
  x->kids.len = 0;
  x->base = first;
  x->n = 0;
  x->off[0] = 0;
  VmStatus st = VM_OK;
  for (uint32_t j = 0; j < want && st == VM_OK; j++) {
    st = step_one(x, vm, s, len, ch, first + j);
    (*transitions)++;
  }
  hash_from(x, 0);
  return st;
}

/* Every prefetch is issued before the first insert (see the top). */
void expand_insert(Expansion *x, StateCache *cache) {
  for (uint32_t j = 0; j < x->n; j++) sc_prefetch(cache, x->fp[j]);
  for (uint32_t j = 0; j < x->n; j++) x->res[j] = (uint8_t)sc_insert(cache, x->fp[j]);
}
