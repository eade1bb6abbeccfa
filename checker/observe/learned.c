/* learned.c: the learned orderings of checker/observe/learned.h.
** The set is an open-addressing table of keys (odd 64-bit values; 0 marks
** an empty slot) kept at most half full, with each key's line of the file
** beside it, so that saving needs no program: orderings loaded from a
** file whose statements the model no longer has are kept and saved again.
** Keys of places met in executions are computed from the hashes of their
** texts, cached by the place's address in the program (loc_hash), so that
** a key costs no formatting once a statement was seen. */
#include <config.h>
#include "checker/observe/learned.h"
#include "checker/base/rng.h"
#include "checker/base/files.h"
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A send statement's hash, cached by its place in the program. */
typedef struct LocSlot {
  const char *file;          /* NULL: empty slot */
  uint32_t line, col;
  uint64_t h;
} LocSlot;

/* The set, and the cache of place hashes; lock guards both. */
struct Learned {
  pthread_mutex_t lock;
  uint64_t *keys;            /* open addressing; 0: empty (keys are odd) */
  char **lines;              /* per slot: the ordering's line in the file (heap) */
  uint64_t n, cap;
  LocSlot *locs;
  uint32_t nlocs, lcap;
};

/* FNV-1a over s[0..n), mixed. */
static uint64_t hash_text(const char *s, size_t n) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (size_t i = 0; i < n; i++) h = (h ^ (uint8_t)s[i]) * 0x100000001b3ull;
  return rng_mix(h);
}

/* The key of the four texts' hashes: odd, so never 0 (the empty slot). */
static uint64_t combine(uint64_t type, uint64_t a, uint64_t b, int same) {
  uint64_t k = rng_mix(type + 0x9e3779b97f4a7c15ull);
  k = rng_mix(k ^ a);
  k = rng_mix(k ^ (b + 0x632be59bd9b4e019ull));
  k = rng_mix(k ^ (uint64_t)(same ? 1 : 2));
  return k | 1;
}

/* An empty set: 1024 slots, 64 cached places, both doubling as needed. */
Learned *learned_new(void) {
  Learned *L = xcalloc(1, sizeof *L);
  pthread_mutex_init(&L->lock, NULL);
  L->cap = 1024;
  L->keys = xcalloc(L->cap, sizeof *L->keys);
  L->lines = xcalloc(L->cap, sizeof *L->lines);
  L->lcap = 64;
  L->locs = xcalloc(L->lcap, sizeof *L->locs);
  return L;
}

/* Free the set, its lines and its cache. */
void learned_free(Learned *L) {
  if (!L) return;
  for (uint64_t i = 0; i < L->cap; i++) free(L->lines[i]);
  free(L->lines);
  free(L->keys);
  free(L->locs);
  pthread_mutex_destroy(&L->lock);
  free(L);
}

/* The slot of key k: where it is, or the empty slot where it would go. */
static uint64_t slot_of(const Learned *L, uint64_t k) {
  uint64_t i = rng_mix(k) & (L->cap - 1);
  while (L->keys[i] && L->keys[i] != k) i = (i + 1) & (L->cap - 1);
  return i;
}

/* Insert key k with its line (taken; freed if k is present): 1 if new.
** The lock held. */
static int insert(Learned *L, uint64_t k, char *line) {
  if (2 * (L->n + 1) > L->cap) {
    uint64_t oldcap = L->cap;
    uint64_t *ok = L->keys;
    char **ol = L->lines;
    L->cap *= 2;
    L->keys = xcalloc(L->cap, sizeof *L->keys);
    L->lines = xcalloc(L->cap, sizeof *L->lines);
    for (uint64_t i = 0; i < oldcap; i++)
      if (ok[i]) {
        uint64_t j = slot_of(L, ok[i]);
        L->keys[j] = ok[i];
        L->lines[j] = ol[i];
      }
    free(ok);
    free(ol);
  }
  uint64_t i = slot_of(L, k);
  if (L->keys[i]) { free(line); return 0; }
  L->keys[i] = k;
  L->lines[i] = line;
  L->n++;
  return 1;
}

/* A place's file as orderings name it: its last path component, so that
** a file learned in one folder applies in another. */
static const char *base_name(const char *file) {
  const char *b = strrchr(file, '/');
  return b ? b + 1 : file;
}

/* The cache slot of place (file, line, col): where it is, or the empty
** slot where it would go. */
static uint32_t loc_slot(const Learned *L, const char *file, uint32_t line, uint32_t col) {
  uint32_t i = (uint32_t)rng_mix((uint64_t)(uintptr_t)file ^ ((uint64_t)line << 32 | col)) & (L->lcap - 1);
  while (L->locs[i].file && !(L->locs[i].file == file && L->locs[i].line == line && L->locs[i].col == col))
    i = (i + 1) & (L->lcap - 1);
  return i;
}

/* The hash of place a's text "FILE:LINE:COL", cached (the lock held). */
static uint64_t loc_hash(Learned *L, const SchedLoc *a) {
  uint32_t i = loc_slot(L, a->file, a->line, a->col);
  if (L->locs[i].file) return L->locs[i].h;
  if (2 * (L->nlocs + 1) > L->lcap) {   /* grow to twice the size, then find the slot again */
    LocSlot *old = L->locs;
    uint32_t oldcap = L->lcap;
    L->lcap *= 2;
    L->locs = xcalloc(L->lcap, sizeof *L->locs);
    for (uint32_t j = 0; j < oldcap; j++)
      if (old[j].file) L->locs[loc_slot(L, old[j].file, old[j].line, old[j].col)] = old[j];
    free(old);
    i = loc_slot(L, a->file, a->line, a->col);
  }
  Buf t;
  buf_init(&t);
  buf_printf(&t, "%s:%u:%u", base_name(a->file), a->line, a->col);
  L->locs[i] = (LocSlot){ a->file, a->line, a->col, hash_text(t.data, t.len) };
  L->nlocs++;
  buf_fini(&t);
  return L->locs[i].h;
}

/* learned_key with the lock held. */
static uint64_t key_locked(Learned *L, const char *type, const SchedLoc *a, const SchedLoc *b) {
  return combine(hash_text(type, strlen(type)), loc_hash(L, a), loc_hash(L, b), a->sender == b->sender);
}

uint64_t learned_key(Learned *L, const char *type, const SchedLoc *a, const SchedLoc *b) {
  pthread_mutex_lock(&L->lock);
  uint64_t k = key_locked(L, type, a, b);
  pthread_mutex_unlock(&L->lock);
  return k;
}

/* Is the ordering of key in the set? */
int learned_has(Learned *L, uint64_t key) {
  pthread_mutex_lock(&L->lock);
  int r = L->keys[slot_of(L, key)] != 0;
  pthread_mutex_unlock(&L->lock);
  return r;
}

/* The number of keys in the set. */
uint64_t learned_count(Learned *L) {
  pthread_mutex_lock(&L->lock);
  uint64_t n = L->n;
  pthread_mutex_unlock(&L->lock);
  return n;
}

/* sched_pairs' callback for learned_from: consecutive deliveries only. */
typedef struct FromCtx {
  Learned *L;
  const BcProgram *bc;
  const SchedRecv *r;
  uint64_t added;
} FromCtx;
static void learn_pair(void *ctx, uint32_t i, uint32_t j, uint8_t crit) {
  FromCtx *f = ctx;
  const SchedLoc *a = &f->r[i].where, *b = &f->r[j].where;
  if (crit != SC_PCR || !a->file || !b->file) return;
  const char *type = f->bc->machines[f->r[j].type].name;
  uint64_t k = key_locked(f->L, type, a, b);
  if (f->L->keys[slot_of(f->L, k)]) return;
  Buf line;
  buf_init(&line);
  buf_printf(&line, "%s\t%s:%u:%u\t%s:%u:%u\t%s", type, base_name(a->file), a->line, a->col, base_name(b->file),
             b->line, b->col,
             a->sender == b->sender ? "same" : "other");
  f->added += (uint64_t)insert(f->L, k, buf_take(&line));
}

/* Each machine's consecutive receives (PCR pairs) become orderings; a
** receive whose message's place is unknown makes none. */
uint64_t learned_from(Learned *L, const BcProgram *bc, const SchedRecv *r, uint32_t n) {
  FromCtx f = { L, bc, r, 0 };
  pthread_mutex_lock(&L->lock);
  sched_pairs(r, n, learn_pair, &f);
  pthread_mutex_unlock(&L->lock);
  return f.added;
}

/* Parse "FILE:LINE:COL" (the last two colons) into the canonical text in
** out: 0, or -1 if it is not one. */
static int parse_place(const char *s, size_t n, Buf *out) {
  size_t c2 = n, c1;
  while (c2 > 0 && s[c2 - 1] != ':') c2--;
  if (c2 < 2) return -1;
  c1 = c2 - 1;
  while (c1 > 0 && s[c1 - 1] != ':') c1--;
  if (c1 < 2) return -1;
  unsigned long v[2];
  const size_t from[2] = { c1, c2 }, to[2] = { c2 - 1, n };
  for (int k = 0; k < 2; k++) {
    if (from[k] == to[k] || to[k] - from[k] > 9) return -1;
    v[k] = 0;
    for (size_t i = from[k]; i < to[k]; i++) {
      if (s[i] < '0' || s[i] > '9') return -1;
      v[k] = v[k] * 10 + (unsigned long)(s[i] - '0');
    }
  }
  buf_printf(out, "%.*s:%lu:%lu", (int)(c1 - 1), s, v[0], v[1]);
  return 0;
}

/* Read path line by line: comments and blank lines skipped, then
** "version: 1", then orderings; each ordering's places are rewritten in
** canonical form (numbers without leading zeros) before hashing, so that
** its key is the one the same statement gets in an execution.  Orderings
** read before an error stay in L (the caller stops anyway). */
int learned_load(Learned *L, const char *path, Buf *err) {
  FILE *f = fopen(path, "r");
  if (!f) {
    if (errno == ENOENT) return 0;
    buf_printf(err, "cannot read the learned orderings '%s': %s", path, strerror(errno));
    return -1;
  }
  char *line = NULL;
  size_t cap = 0;
  ssize_t len;
  int rc = 0, version = 0;
  uint64_t lineno = 0;
  Buf a, b, text;
  buf_init(&a);
  buf_init(&b);
  buf_init(&text);
  pthread_mutex_lock(&L->lock);
  while (rc == 0 && (len = getline(&line, &cap, f)) >= 0) {
    lineno++;
    while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r')) line[--len] = 0;
    if (len == 0 || line[0] == '#') continue;
    if (!version) {
      if (strcmp(line, "version: 1") != 0) {
        buf_printf(err, "%s:%llu: not a pcheck learned-orderings file (expected 'version: 1')", path,
                   (unsigned long long)lineno);
        rc = -1;
      }
      version = 1;
      continue;
    }
    /* TYPE \t PLACE \t PLACE \t same|other */
    char *f1 = strchr(line, '\t'), *f2 = f1 ? strchr(f1 + 1, '\t') : NULL, *f3 = f2 ? strchr(f2 + 1, '\t') : NULL;
    a.len = b.len = text.len = 0;
    if (!f3 || strchr(f3 + 1, '\t') || f1 == line || (strcmp(f3 + 1, "same") != 0 && strcmp(f3 + 1, "other") != 0) ||
        parse_place(f1 + 1, (size_t)(f2 - f1 - 1), &a) != 0 || parse_place(f2 + 1, (size_t)(f3 - f2 - 1), &b) != 0) {
      buf_printf(err, "%s:%llu: expected a machine type, two places FILE:LINE:COL and 'same' or 'other', "
                      "separated by tabs", path, (unsigned long long)lineno);
      rc = -1;
      break;
    }
    int same = strcmp(f3 + 1, "same") == 0;
    uint64_t k = combine(hash_text(line, (size_t)(f1 - line)), hash_text(a.data, a.len), hash_text(b.data, b.len), same);
    buf_printf(&text, "%.*s\t%s\t%s\t%s", (int)(f1 - line), line, a.data, b.data, same ? "same" : "other");
    insert(L, k, buf_take(&text));
  }
  if (rc == 0 && ferror(f)) {
    buf_printf(err, "cannot read the learned orderings '%s': %s", path, strerror(errno));
    rc = -1;
  }
  if (rc == 0 && !version && lineno) {
    buf_printf(err, "%s: not a pcheck learned-orderings file (no 'version: 1' line)", path);
    rc = -1;
  }
  pthread_mutex_unlock(&L->lock);
  free(line);
  fclose(f);
  buf_fini(&a);
  buf_fini(&b);
  buf_fini(&text);
  return rc;
}

/* Lines in byte order, for a file that does not depend on hashing. */
static int cmp_str(const void *x, const void *y) { return strcmp(*(char *const *)x, *(char *const *)y); }

/* The header, then every line sorted; the lock is held while the text is
** built, not while it is written. */
int learned_save(Learned *L, const char *path) {
  pthread_mutex_lock(&L->lock);
  char **v = xmalloc((L->n ? L->n : 1) * sizeof *v);
  uint64_t n = 0;
  for (uint64_t i = 0; i < L->cap; i++)
    if (L->keys[i]) v[n++] = L->lines[i];
  if (n > 1) qsort(v, n, sizeof *v, cmp_str);
  Buf out;
  buf_init(&out);
  buf_puts(&out, "# pcheck learned orderings (--learn): a machine of TYPE received a message sent at the\n"
                 "# second place right after one sent at the first, sent by the same machine or another\n"
                 "version: 1\n");
  for (uint64_t i = 0; i < n; i++) buf_printf(&out, "%s\n", v[i]);
  pthread_mutex_unlock(&L->lock);
  int rc = file_write_atomic(path, &out);
  if (rc != 0) fprintf(stderr, "pcheck: error: cannot write the learned orderings '%s': %s\n", path, strerror(errno));
  buf_fini(&out);
  free(v);
  return rc;
}
