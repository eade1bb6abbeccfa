/* finished.c: Tarjan's component bookkeeping for a depth-first search,
** with pending successors (finished.h).  The map from fingerprint to index
** is open addressing with backward-shift deletion. */
#include <config.h>
#include "checker/store/finished.h"
#include <stdlib.h>
#include "vm/util.h"

void fin_init(Finished *t) {
  t->cap = 1024;
  t->key = xcalloc(t->cap, sizeof *t->key);
  t->val = xcalloc(t->cap, sizeof *t->val);
  t->n = 0;
  t->stack = NULL;
  t->stack_index = NULL;
  t->depth = t->stack_cap = 0;
  t->next = 0;
}

void fin_fini(Finished *t) {
  free(t->key);
  free(t->val);
  free(t->stack);
  free(t->stack_index);
  t->key = t->val = t->stack = t->stack_index = NULL;
  t->cap = t->n = t->depth = t->stack_cap = 0;
}

/* The slot holding fp, or the empty slot where it would go. */
static uint64_t slot(const Finished *t, uint64_t fp) {
  uint64_t i = fp & (t->cap - 1);
  while (t->key[i] && t->key[i] != fp) i = (i + 1) & (t->cap - 1);
  return i;
}

/* Set fp's value, adding it if absent (the table stays at most half full). */
static void map_set(Finished *t, uint64_t fp, uint64_t v) {
  if (!fp) fp = 1;
  if (2 * (t->n + 1) > t->cap) {
    Finished big = { xcalloc(t->cap * 2, 8), xcalloc(t->cap * 2, 8), t->cap * 2, 0, NULL, NULL, 0, 0, 0 };
    for (uint64_t i = 0; i < t->cap; i++)
      if (t->key[i]) {
        uint64_t j = slot(&big, t->key[i]);
        big.key[j] = t->key[i];
        big.val[j] = t->val[i];
      }
    free(t->key);
    free(t->val);
    t->key = big.key;
    t->val = big.val;
    t->cap = big.cap;
  }
  uint64_t i = slot(t, fp);
  if (!t->key[i]) { t->key[i] = fp; t->n++; }
  t->val[i] = v;
}

/* Remove fp; backward-shift deletion keeps probe chains whole. */
static void map_remove(Finished *t, uint64_t fp) {
  if (!fp) fp = 1;
  uint64_t mask = t->cap - 1, i = slot(t, fp);
  if (t->key[i] != fp) return;
  t->key[i] = 0;
  t->n--;
  for (uint64_t j = (i + 1) & mask; t->key[j]; j = (j + 1) & mask) {
    uint64_t home = t->key[j] & mask;
    /* Move j back to i unless its home lies cyclically in (i, j]. */
    int stays = i < j ? (home > i && home <= j) : (home > i || home <= j);
    if (!stays) {
      t->key[i] = t->key[j];
      t->val[i] = t->val[j];
      t->key[j] = 0;
      i = j;
    }
  }
}

uint64_t fin_push(Finished *t, uint64_t fp) {
  uint64_t index = t->next++;
  map_set(t, fp, index);
  if (t->depth == t->stack_cap) {
    t->stack_cap = t->stack_cap ? 2 * t->stack_cap : 256;
    t->stack = xrealloc(t->stack, t->stack_cap * sizeof *t->stack);
    t->stack_index = xrealloc(t->stack_index, t->stack_cap * sizeof *t->stack_index);
  }
  t->stack[t->depth] = fp;
  t->stack_index[t->depth++] = index;
  return index;
}

void fin_claim(Finished *t, uint64_t fp, uint64_t by) { map_set(t, fp, by); }

int fin_edge(const Finished *t, uint64_t fp, uint64_t *low) {
  if (!fp) fp = 1;
  uint64_t i = slot(t, fp);
  if (t->key[i] != fp) return 0;
  if (t->val[i] < *low) *low = t->val[i];
  return 1;
}

int fin_pop(Finished *t, uint64_t index, uint64_t low, uint64_t *parent_low,
            void (*done)(void *ctx, uint64_t fp), void *ctx) {
  if (low != index) {
    if (parent_low && low < *parent_low) *parent_low = low;
    return 0;
  }
  /* The component: every state entered since this one and still on the stack. */
  while (t->depth > 0 && t->stack_index[t->depth - 1] >= index) {
    uint64_t fp = t->stack[--t->depth];
    map_remove(t, fp);
    if (done) done(ctx, fp);
  }
  return 1;
}

uint64_t fin_bytes(const Finished *t) { return t->cap * 16 + t->stack_cap * 16; }
