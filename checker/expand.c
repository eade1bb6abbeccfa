/* expand.c: successors in batches (expand.h).  A batch is stepped, looked
** up and written in separate loops on purpose: the steps stage their
** successors in the VM (the VM reuses the State it loaded for the first
** step) with fingerprints computed from the State's, the prefetches of all
** the batch's cache slots are in flight together before the first lookup,
** and only the successors the cache did not hold are written. */
#include <config.h>
#include "checker/expand.h"
#include <stdlib.h>
#include <string.h>

/* Free x's buffers and leave it empty (reusable). */
void expand_fini(Expansion *x) {
  buf_fini(&x->kids);
  free(x->off);
  free(x->fp);
  free(x->res);
  *x = (Expansion){0};
}

/* Room for n successors (n + 1 offsets). */
static void reserve(Expansion *x, uint32_t n) {
  if (n + 1 <= x->cap) return;
  x->cap = n + 1;
  x->off = xrealloc(x->off, x->cap * sizeof(uint64_t));
  x->fp = xrealloc(x->fp, x->cap * sizeof(uint64_t));
  x->res = xrealloc(x->res, x->cap);
}

VmStatus expand_batch(Expansion *x, Vm *vm, const uint8_t *s, size_t len, uint64_t fp, const VmChoices *ch,
                      uint32_t first, uint64_t *transitions) {
  uint32_t want = ch->n - first < KID_BATCH ? ch->n - first : KID_BATCH;
  reserve(x, want);
  x->kids.len = 0;
  x->base = first;
  x->n = 0;
  vm_stage_clear(vm);
  VmStatus st = VM_OK;
  for (uint32_t j = 0; j < want; j++) {
    st = vm_step_stage(vm, s, len, fp, expand_choice(ch, first + j), &x->fp[j]);
    (*transitions)++;
    if (st != VM_OK) {
      if (st == VM_BAD_STATE) fputs("pcheck: internal error: the VM rejected its own choice\n", stderr);
      x->failed = first + j;
      break;
    }
    x->n++;
  }
  memset(x->off, 0, (x->n + 1) * sizeof *x->off);
  return st;
}

/* Every prefetch is issued before the first insert (see the top); then
** the successors not seen before are written. */
void expand_insert(Expansion *x, Vm *vm, StateCache *cache) {
  for (uint32_t j = 0; j < x->n; j++) sc_prefetch(cache, x->fp[j]);
  for (uint32_t j = 0; j < x->n; j++) x->res[j] = (uint8_t)sc_insert(cache, x->fp[j]);
  for (uint32_t j = 0; j < x->n; j++) {
    x->off[j] = x->kids.len;
    if (x->res[j] != SC_SEEN) vm_stage_write(vm, j, &x->kids);
  }
  x->off[x->n] = x->kids.len;
}
