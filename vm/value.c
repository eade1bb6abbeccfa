/* value.c: canonical value encodings (the format is in value.h).
** Compound operations build a new encoding in the ValArena, sized exactly
** before it is written; nothing is modified in place, so encodings can be
** shared freely within a step.  val_decode is the only function that
** trusts nothing: everything else assumes well-formed encodings. */
#include <config.h>
#include "vm/value.h"
#include <assert.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

/* Header bytes of each compound encoding, before its elements. */
enum { STR_HDR = 5, COLL_HDR = 9 };
/* Deepest nesting val_decode accepts: deeper input is refused, so that the
** recursive printers never run out of stack on values read from a file. */
enum { MAX_DEPTH = 1000 };

static uint16_t rd16(const uint8_t *p) { uint16_t x; memcpy(&x, p, 2); return x; }
static uint32_t rd32(const uint8_t *p) { uint32_t x; memcpy(&x, p, 4); return x; }
static void wr16(uint8_t *p, uint16_t x) { memcpy(p, &x, 2); }
static void wr32(uint8_t *p, uint32_t x) { memcpy(p, &x, 4); }

/* ---- arena ---- */

void valarena_init(ValArena *a) { a->arena = arena_new(); }
void valarena_reset(ValArena *a) { arena_reset(a->arena); }
void valarena_fini(ValArena *a) { arena_free(a->arena); a->arena = NULL; }
/* Not zeroed: every builder below writes all the bytes it asks for. */
void *valarena_alloc(ValArena *a, size_t n) { return arena_alloc_raw(a->arena, n); }

/* ---- scalars ---- */

Value val_null(void) { Value v = {0}; return v; }
Value val_bool(int b) { Value v = {0}; v.tag = VT_BOOL; v.u.i = b != 0; return v; }
Value val_int(int64_t i) { Value v = {0}; v.tag = VT_INT; v.u.i = i; return v; }

Value val_float(double f) {
  Value v = {0};
  v.tag = VT_FLOAT;
  if (isnan(f)) f = NAN;          /* one quiet NaN, sign cleared */
  else if (f == 0.0) f = 0.0;     /* -0.0 becomes 0.0 */
  v.u.f = f;
  return v;
}

Value val_event(uint32_t id) { Value v = {0}; v.tag = VT_EVENT; v.u.i = id; return v; }
Value val_machine(uint32_t id) { Value v = {0}; v.tag = VT_MACHINE; v.u.i = id; return v; }
Value val_enum(uint16_t enum_id, int64_t x) { Value v = {0}; v.tag = VT_ENUM; v.aux = enum_id; v.u.i = x; return v; }

/* A Value for the compound encoding of len bytes at p (tag at p[0]). */
static Value compound(const uint8_t *p, size_t len) {
  assert(len <= UINT32_MAX);
  Value v = {0};
  v.tag = p[0];
  v.len = (uint32_t)len;
  v.u.p = p;
  return v;
}

Value val_string(ValArena *a, const char *s, size_t n) {
  assert(n <= UINT32_MAX - STR_HDR);
  uint8_t *p = valarena_alloc(a, STR_HDR + n);
  p[0] = VT_STRING;
  wr32(p + 1, (uint32_t)n);
  if (n) memcpy(p + STR_HDR, s, n);
  return compound(p, STR_HDR + n);
}

/* ---- encoding ---- */

/* Encoded size of a scalar tag; 0 for compound or unknown tags. */
static size_t scalar_size(uint8_t tag) {
  switch (tag) {
  case VT_NULL: return 1;
  case VT_BOOL: return 2;
  case VT_INT: case VT_FLOAT: return 9;
  case VT_EVENT: case VT_MACHINE: return 5;
  case VT_ENUM: return 11;
  default: return 0;
  }
}

size_t val_enc_size(const Value *v) { return val_is_compound(v) ? v->len : scalar_size(v->tag); }

size_t val_encode(const Value *v, uint8_t *out) {
  out[0] = v->tag;
  switch (v->tag) {
  case VT_NULL: return 1;
  case VT_BOOL: out[1] = (uint8_t)(v->u.i != 0); return 2;
  case VT_INT: memcpy(out + 1, &v->u.i, 8); return 9;
  case VT_FLOAT: memcpy(out + 1, &v->u.f, 8); return 9;
  case VT_EVENT: case VT_MACHINE: wr32(out + 1, (uint32_t)v->u.i); return 5;
  case VT_ENUM: wr16(out + 1, v->aux); memcpy(out + 3, &v->u.i, 8); return 11;
  default: memcpy(out, v->u.p, v->len); return v->len;
  }
}

/* The encoding of any value: a compound's own bytes, or a scalar encoded
** into tmp (at least 16 bytes).  *n receives the size. */
static const uint8_t *enc_of(const Value *v, uint8_t *tmp, size_t *n) {
  if (val_is_compound(v)) { *n = v->len; return v->u.p; }
  *n = val_encode(v, tmp);
  return tmp;
}

size_t val_skip(const uint8_t *p) {
  switch (p[0]) {
  case VT_STRING: return STR_HDR + (size_t)rd32(p + 1);
  case VT_TUPLE: case VT_SEQ: case VT_SET: case VT_MAP: return COLL_HDR + (size_t)rd32(p + 5);
  default: return scalar_size(p[0]);
  }
}

size_t val_load(const uint8_t *p, Value *v) {
  Value r = {0};
  size_t n;
  r.tag = p[0];
  switch (p[0]) {
  case VT_NULL: n = 1; break;
  case VT_BOOL: r.u.i = p[1]; n = 2; break;
  case VT_INT: memcpy(&r.u.i, p + 1, 8); n = 9; break;
  case VT_FLOAT: memcpy(&r.u.f, p + 1, 8); n = 9; break;
  case VT_EVENT: case VT_MACHINE: r.u.i = rd32(p + 1); n = 5; break;
  case VT_ENUM: r.aux = rd16(p + 1); memcpy(&r.u.i, p + 3, 8); n = 11; break;
  case VT_STRING: n = STR_HDR + (size_t)rd32(p + 1); r.len = (uint32_t)n; r.u.p = p; break;
  default: n = COLL_HDR + (size_t)rd32(p + 5); r.len = (uint32_t)n; r.u.p = p; break;
  }
  *v = r;
  return n;
}

/* Canonical order of two encodings: shorter first, then bytes. */
static int enc_cmp(const uint8_t *a, size_t na, const uint8_t *b, size_t nb) {
  if (na != nb) return na < nb ? -1 : 1;
  return memcmp(a, b, na);
}

/* One open compound while val_decode walks its elements. */
typedef struct DecFrame {
  const uint8_t *end;    /* one past the last byte of the body */
  uint64_t left;         /* elements still to read; a map entry counts 2 */
  const uint8_t *prev;   /* previous set element or map key; NULL at first */
  size_t nprev;          /* its encoded size */
  uint8_t kind;          /* VT_TUPLE, VT_SEQ, VT_SET or VT_MAP */
} DecFrame;

/* Validation is iterative, with an explicit stack, so that hostile input
** cannot exhaust the C stack.  Each element's extent is known from its
** header before its body is read, so set/map order is checked on the
** whole encodings as they appear; every element must end inside its
** parent's body and the body must end exactly after the counted elements. */
size_t val_decode(const uint8_t *p, size_t n, Value *v) {
  DecFrame local[16], *st = local;
  size_t cap = sizeof local / sizeof local[0], depth = 0, ret = 0;
  *v = val_null();
  if (!n) return 0;   /* p may then be NULL: no pointer arithmetic on it */
  const uint8_t *at = p, *end = p + n;
  for (;;) {
    const uint8_t *lim = depth ? st[depth - 1].end : end;
    size_t room = (size_t)(lim - at), sz;
    uint64_t nelems = 0;
    if (room < 1) goto out;
    uint8_t tag = at[0];
    switch (tag) {
    case VT_STRING: {
      if (room < STR_HDR) goto out;
      uint32_t len = rd32(at + 1);
      if (len > room - STR_HDR || len > UINT32_MAX - STR_HDR) goto out;
      sz = STR_HDR + (size_t)len;
      break;
    }
    case VT_TUPLE: case VT_SEQ: case VT_SET: case VT_MAP: {
      if (room < COLL_HDR) goto out;
      uint32_t body = rd32(at + 5);
      if (body > room - COLL_HDR || body > UINT32_MAX - COLL_HDR) goto out;
      sz = COLL_HDR + (size_t)body;
      nelems = tag == VT_TUPLE ? rd16(at + 3) : rd32(at + 1);
      if (tag == VT_MAP) nelems *= 2;
      break;
    }
    default:
      sz = scalar_size(tag);               /* 0: not a tag */
      if (!sz || sz > room) goto out;
      if (tag == VT_BOOL && at[1] > 1) goto out;
      if (tag == VT_FLOAT) {   /* only the canonical zero and NaN */
        double f;
        memcpy(&f, at + 1, 8);
        Value c = val_float(f);
        if (memcmp(&c.u.f, at + 1, 8) != 0) goto out;
      }
      break;
    }
    if (depth) {
      DecFrame *top = &st[depth - 1];
      if (top->kind == VT_SET || (top->kind == VT_MAP && top->left % 2 == 0)) {
        if (top->prev && enc_cmp(top->prev, top->nprev, at, sz) >= 0) goto out;
        top->prev = at;
        top->nprev = sz;
      }
      top->left--;
    }
    if (tag >= VT_TUPLE) {
      if (depth == MAX_DEPTH) goto out;
      if (depth == cap) {
        DecFrame *bigger = xmalloc(2 * cap * sizeof *bigger);
        memcpy(bigger, st, cap * sizeof *st);
        if (st != local) free(st);
        st = bigger;
        cap *= 2;
      }
      st[depth++] = (DecFrame){ at + sz, nelems, NULL, 0, tag };
      at += COLL_HDR;
    } else {
      at += sz;
    }
    while (depth && st[depth - 1].left == 0) {
      if (at != st[depth - 1].end) goto out;
      depth--;
    }
    if (!depth) break;
  }
  ret = val_load(p, v);
  assert(ret == (size_t)(at - p));
out:
  if (st != local) free(st);
  return ret;
}

/* ---- comparison ---- */

int val_equal(const Value *a, const Value *b) {
  if (a->tag != b->tag) return 0;
  switch (a->tag) {
  case VT_NULL: return 1;
  case VT_BOOL: case VT_INT: case VT_EVENT: case VT_MACHINE: return a->u.i == b->u.i;
  case VT_FLOAT: return memcmp(&a->u.f, &b->u.f, 8) == 0;   /* canonical, so bits */
  case VT_ENUM: return a->aux == b->aux && a->u.i == b->u.i;
  default: return a->len == b->len && (a->u.p == b->u.p || memcmp(a->u.p, b->u.p, a->len) == 0);
  }
}

int val_compare(const Value *a, const Value *b) {
  uint8_t ta[16], tb[16];
  size_t na, nb;
  const uint8_t *pa = enc_of(a, ta, &na), *pb = enc_of(b, tb, &nb);
  return enc_cmp(pa, na, pb, nb);
}

uint64_t val_hash(const Value *v) {
  uint8_t tmp[16];
  size_t n;
  const uint8_t *p = enc_of(v, tmp, &n);
  return XXH3_64bits(p, n);
}

/* ---- compound values ---- */

/* Start of the elements of a compound. */
static const uint8_t *body_of(const Value *c) { return c->u.p + (c->tag == VT_STRING ? STR_HDR : COLL_HDR); }

uint32_t val_count(const Value *c) {
  switch (c->tag) {
  case VT_STRING: case VT_SEQ: case VT_SET: case VT_MAP: return rd32(c->u.p + 1);
  case VT_TUPLE: return rd16(c->u.p + 3);
  default: return 0;
  }
}

/* A copy of collection or tuple c with bytes [from, from + nold) replaced
** by x then y (either may be empty), its element count moved by dcount
** (collections only) and its body length fixed.  The one allocation. */
static Value splice(ValArena *a, const Value *c, const uint8_t *from, size_t nold, const uint8_t *x, size_t nx,
                    const uint8_t *y, size_t ny, int dcount) {
  size_t pre = (size_t)(from - c->u.p), post = c->len - pre - nold;
  size_t len = pre + nx + ny + post;
  assert(len <= UINT32_MAX);
  uint8_t *p = valarena_alloc(a, len), *w = p;
  memcpy(w, c->u.p, pre);
  w += pre;
  if (nx) { memcpy(w, x, nx); w += nx; }
  if (ny) { memcpy(w, y, ny); w += ny; }
  if (post) memcpy(w, from + nold, post);
  if (c->tag != VT_TUPLE) wr32(p + 1, (uint32_t)((int64_t)rd32(p + 1) + dcount));
  wr32(p + 5, (uint32_t)(len - COLL_HDR));
  return compound(p, len);
}

static Value empty_coll(uint8_t tag) {
  static const uint8_t enc[3][COLL_HDR] = {{VT_SEQ}, {VT_SET}, {VT_MAP}};
  return compound(enc[tag - VT_SEQ], COLL_HDR);
}
Value val_seq_empty(void) { return empty_coll(VT_SEQ); }
Value val_set_empty(void) { return empty_coll(VT_SET); }
Value val_map_empty(void) { return empty_coll(VT_MAP); }

/* Write a collection header for n elements and body bytes at p. */
static void coll_header(uint8_t *p, uint8_t tag, uint32_t n, size_t body) {
  p[0] = tag;
  wr32(p + 1, n);
  wr32(p + 5, (uint32_t)body);
}

/* ---- tuples ---- */

Value val_tuple(ValArena *a, uint16_t shape, const Value *elems, int n) {
  assert(n >= 0 && n <= UINT16_MAX);
  size_t len = COLL_HDR;
  for (int i = 0; i < n; i++) len += val_enc_size(&elems[i]);
  uint8_t *p = valarena_alloc(a, len), *w = p + COLL_HDR;
  p[0] = VT_TUPLE;
  wr16(p + 1, shape);
  wr16(p + 3, (uint16_t)n);
  wr32(p + 5, (uint32_t)(len - COLL_HDR));
  for (int i = 0; i < n; i++) w += val_encode(&elems[i], w);
  return compound(p, len);
}

int val_tuple_count(const Value *t) { return rd16(t->u.p + 3); }

/* Element i of a tuple, seq or set, or entry i (its key) of a map. */
static const uint8_t *nth_ptr(const Value *c, uint32_t i) {
  const uint8_t *p = c->u.p + COLL_HDR;
  if (c->tag == VT_MAP) {
    for (uint32_t k = 0; k < i; k++) { p += val_skip(p); p += val_skip(p); }
  } else {
    for (uint32_t k = 0; k < i; k++) p += val_skip(p);
  }
  return p;
}

Value val_tuple_get(const Value *t, int i) {
  assert(i >= 0 && i < val_tuple_count(t));
  Value v;
  val_load(nth_ptr(t, (uint32_t)i), &v);
  return v;
}

Value val_tuple_set(ValArena *a, const Value *t, int i, const Value *x) {
  assert(i >= 0 && i < val_tuple_count(t));
  const uint8_t *at = nth_ptr(t, (uint32_t)i);
  uint8_t tmp[16];
  size_t nx;
  const uint8_t *xe = enc_of(x, tmp, &nx);
  return splice(a, t, at, val_skip(at), xe, nx, NULL, 0, 0);
}

/* ---- seqs ---- */

Value val_nth(const Value *c, uint32_t i) {
  assert(i < val_count(c));
  Value v;
  val_load(nth_ptr(c, i), &v);
  return v;
}

Value val_map_nth_value(const Value *m, uint32_t i) {
  assert(i < val_count(m));
  const uint8_t *p = nth_ptr(m, i);
  Value v;
  val_load(p + val_skip(p), &v);
  return v;
}

int val_seq_get(const Value *s, int64_t i, Value *out) {
  if (i < 0 || i >= (int64_t)val_count(s)) return 0;
  val_load(nth_ptr(s, (uint32_t)i), out);
  return 1;
}

int val_seq_set(ValArena *a, const Value *s, int64_t i, const Value *x, Value *out) {
  if (i < 0 || i >= (int64_t)val_count(s)) return 0;
  const uint8_t *at = nth_ptr(s, (uint32_t)i);
  uint8_t tmp[16];
  size_t nx, nold = val_skip(at);
  const uint8_t *xe = enc_of(x, tmp, &nx);
  if (nx == nold && memcmp(xe, at, nx) == 0) { *out = *s; return 1; }   /* no change */
  *out = splice(a, s, at, nold, xe, nx, NULL, 0, 0);
  return 1;
}

int val_seq_insert(ValArena *a, const Value *s, int64_t i, const Value *x, Value *out) {
  uint32_t n = val_count(s);
  if (i < 0 || i > (int64_t)n) return 0;
  const uint8_t *at = i == n ? s->u.p + s->len : nth_ptr(s, (uint32_t)i);
  uint8_t tmp[16];
  size_t nx;
  const uint8_t *xe = enc_of(x, tmp, &nx);
  *out = splice(a, s, at, 0, xe, nx, NULL, 0, 1);
  return 1;
}

int val_seq_remove(ValArena *a, const Value *s, int64_t i, Value *out) {
  if (i < 0 || i >= (int64_t)val_count(s)) return 0;
  const uint8_t *at = nth_ptr(s, (uint32_t)i);
  *out = splice(a, s, at, val_skip(at), NULL, 0, NULL, 0, -1);
  return 1;
}

Value val_seq_append(ValArena *a, const Value *s, const Value *x) {
  Value out;
  val_seq_insert(a, s, val_count(s), x, &out);
  return out;
}

Value val_seq_from(ValArena *a, const Value *elems, uint32_t n) {
  size_t body = 0;
  for (uint32_t i = 0; i < n; i++) body += val_enc_size(&elems[i]);
  assert(body <= UINT32_MAX - COLL_HDR);
  uint8_t *p = valarena_alloc(a, COLL_HDR + body), *w = p + COLL_HDR;
  coll_header(p, VT_SEQ, n, body);
  for (uint32_t i = 0; i < n; i++) w += val_encode(&elems[i], w);
  return compound(p, COLL_HDR + body);
}

/* ---- sets and maps: entries sorted by the canonical order of their keys ---- */

/* Look for the key encoded as (xe, nx) in set or map c.  Returns 1 with *at
** at its entry if present, else 0 with *at where it would be inserted.
** Entries are skipped by their length fields; since shorter encodings
** come first, only keys of the same length are compared at all. */
static int find(const Value *c, const uint8_t *xe, size_t nx, const uint8_t **at) {
  const uint8_t *p = c->u.p + COLL_HDR, *end = c->u.p + c->len;
  int map = c->tag == VT_MAP;
  while (p < end) {
    size_t k = val_skip(p);
    if (k > nx) break;
    if (k == nx) {
      int d = memcmp(p, xe, nx);
      if (d == 0) { *at = p; return 1; }
      if (d > 0) break;
    }
    p += k;
    if (map) p += val_skip(p);
  }
  *at = p;
  return 0;
}

/* find() for a Value key. */
static int find_val(const Value *c, const Value *x, const uint8_t **at) {
  uint8_t tmp[16];
  size_t nx;
  const uint8_t *xe = enc_of(x, tmp, &nx);
  return find(c, xe, nx, at);
}

int val_set_has(const Value *s, const Value *x) { const uint8_t *at; return find_val(s, x, &at); }
int val_map_has(const Value *m, const Value *k) { const uint8_t *at; return find_val(m, k, &at); }

Value val_set_add(ValArena *a, const Value *s, const Value *x) {
  uint8_t tmp[16];
  size_t nx;
  const uint8_t *xe = enc_of(x, tmp, &nx), *at;
  if (find(s, xe, nx, &at)) return *s;
  return splice(a, s, at, 0, xe, nx, NULL, 0, 1);
}

Value val_set_remove(ValArena *a, const Value *s, const Value *x) {
  const uint8_t *at;
  if (!find_val(s, x, &at)) return *s;
  return splice(a, s, at, val_skip(at), NULL, 0, NULL, 0, -1);
}

int val_map_get(const Value *m, const Value *k, Value *out) {
  const uint8_t *at;
  if (!find_val(m, k, &at)) return 0;
  val_load(at + val_skip(at), out);
  return 1;
}

Value val_map_put(ValArena *a, const Value *m, const Value *k, const Value *v) {
  uint8_t tk[16], tv[16];
  size_t nk, nv;
  const uint8_t *ke = enc_of(k, tk, &nk), *ve = enc_of(v, tv, &nv), *at;
  if (!find(m, ke, nk, &at)) return splice(a, m, at, 0, ke, nk, ve, nv, 1);
  at += nk;                                 /* replace only the value */
  size_t nold = val_skip(at);
  if (nold == nv && memcmp(at, ve, nv) == 0) return *m;
  return splice(a, m, at, nold, ve, nv, NULL, 0, 0);
}

Value val_map_remove(ValArena *a, const Value *m, const Value *k) {
  const uint8_t *at;
  if (!find_val(m, k, &at)) return *m;
  size_t nk = val_skip(at), nv = val_skip(at + nk);
  return splice(a, m, at, nk + nv, NULL, 0, NULL, 0, -1);
}

/* keys(m) (values == 0) or values(m) as a seq.  The body is at most the
** map's, so that much is reserved and the rest left unused. */
static Value map_part(ValArena *a, const Value *m, int values) {
  uint32_t n = val_count(m);
  uint8_t *p = valarena_alloc(a, m->len), *w = p + COLL_HDR;
  const uint8_t *r = m->u.p + COLL_HDR;
  for (uint32_t i = 0; i < n; i++) {
    size_t nk = val_skip(r), nv = val_skip(r + nk);
    if (values) memcpy(w, r + nk, nv); else memcpy(w, r, nk);
    w += values ? nv : nk;
    r += nk + nv;
  }
  coll_header(p, VT_SEQ, n, (size_t)(w - p) - COLL_HDR);
  return compound(p, (size_t)(w - p));
}

Value val_map_keys(ValArena *a, const Value *m) { return map_part(a, m, 0); }
Value val_map_values(ValArena *a, const Value *m) { return map_part(a, m, 1); }

/* One element encoding for sorting in val_set_from. */
typedef struct Piece {
  const uint8_t *p;      /* the encoding (a compound's own bytes or scratch) */
  size_t n;              /* its size */
} Piece;

static int piece_cmp(const void *x, const void *y) {
  const Piece *a = x, *b = y;
  return enc_cmp(a->p, a->n, b->p, b->n);
}

/* Sort the element encodings, drop duplicates, then write the set once.
** Scalars are encoded into scratch first; small inputs use the stack. */
Value val_set_from(ValArena *a, const Value *elems, uint32_t n) {
  if (n == 0) return val_set_empty();
  Piece spc[32], *pc = spc;
  uint8_t sbuf[32 * 16], *sc = sbuf;
  if (n > 32) {
    pc = xmalloc(n * sizeof *pc);
    sc = xmalloc((size_t)n * 16);
  }
  for (uint32_t i = 0; i < n; i++) pc[i].p = enc_of(&elems[i], sc + (size_t)i * 16, &pc[i].n);
  qsort(pc, n, sizeof *pc, piece_cmp);
  uint32_t m = 0;
  size_t body = 0;
  for (uint32_t i = 0; i < n; i++) {
    if (m && piece_cmp(&pc[m - 1], &pc[i]) == 0) continue;
    pc[m++] = pc[i];
    body += pc[i].n;
  }
  assert(body <= UINT32_MAX - COLL_HDR);
  uint8_t *p = valarena_alloc(a, COLL_HDR + body), *w = p + COLL_HDR;
  coll_header(p, VT_SET, m, body);
  for (uint32_t i = 0; i < m; i++) {
    memcpy(w, pc[i].p, pc[i].n);
    w += pc[i].n;
  }
  if (pc != spc) { free(pc); free(sc); }
  return compound(p, COLL_HDR + body);
}

/* ---- strings ---- */

const char *val_str(const Value *s, uint32_t *n) {
  if (s->tag != VT_STRING) { *n = 0; return ""; }
  *n = rd32(s->u.p + 1);
  return (const char *)s->u.p + STR_HDR;
}

Value val_concat(ValArena *a, const Value *x, const Value *y) {
  uint32_t nx, ny;
  const char *sx = val_str(x, &nx), *sy = val_str(y, &ny);
  size_t len = STR_HDR + (size_t)nx + ny;
  assert(len <= UINT32_MAX);
  uint8_t *p = valarena_alloc(a, len);
  p[0] = VT_STRING;
  wr32(p + 1, (uint32_t)(len - STR_HDR));
  if (nx) memcpy(p + STR_HDR, sx, nx);
  if (ny) memcpy(p + STR_HDR + nx, sy, ny);
  return compound(p, len);
}

/* ---- printing ---- */

/* The shortest %g form that reads back as f.  A normal double with at
** most 15 significant digits always survives %.15g (DBL_DIG), and %g drops
** trailing zeros, so the search starts there; subnormals start at 1. */
static void print_float(Buf *b, double f) {
  if (isnan(f)) { buf_puts(b, "nan"); return; }
  if (isinf(f)) { buf_puts(b, f < 0 ? "-inf" : "inf"); return; }
  char tmp[40];
  int prec = fabs(f) < DBL_MIN ? 1 : DBL_DIG;
  for (; prec < 17; prec++) {
    snprintf(tmp, sizeof tmp, "%.*g", prec, f);
    if (strtod(tmp, NULL) == f) break;
  }
  if (prec == 17) snprintf(tmp, sizeof tmp, "%.17g", f);
  buf_puts(b, tmp);
}

/* A name from a callback, or NULL when there is no callback or no name. */
#define NAME(names, fn, ...) ((names) && (names)->fn ? (names)->fn((names)->ctx, __VA_ARGS__) : NULL)

void val_print(Buf *b, const Value *v, const ValNames *names) {
  const char *nm;
  switch (v->tag) {
  case VT_NULL: buf_puts(b, "null"); break;
  case VT_BOOL: buf_puts(b, v->u.i ? "true" : "false"); break;
  case VT_INT: buf_printf(b, "%lld", (long long)v->u.i); break;
  case VT_FLOAT: print_float(b, v->u.f); break;
  case VT_STRING: {
    uint32_t n;
    const char *s = val_str(v, &n);
    buf_append(b, s, n);
    break;
  }
  case VT_EVENT:
    if ((nm = NAME(names, event_name, (uint32_t)v->u.i))) buf_puts(b, nm);
    else buf_printf(b, "event#%u", (unsigned)v->u.i);
    break;
  case VT_MACHINE:
    if ((nm = NAME(names, machine_name, (uint32_t)v->u.i))) buf_puts(b, nm);
    else buf_printf(b, "machine#%u", (unsigned)v->u.i);
    break;
  case VT_ENUM:
    if ((nm = NAME(names, enum_member, v->aux, v->u.i))) buf_puts(b, nm);
    else buf_printf(b, "enum#%u:%lld", (unsigned)v->aux, (long long)v->u.i);
    break;
  case VT_TUPLE: {
    int n = val_tuple_count(v);
    uint16_t shape = rd16(v->u.p + 1);
    const uint8_t *p = v->u.p + COLL_HDR;
    buf_putc(b, '(');
    for (int i = 0; i < n; i++) {
      Value e;
      p += val_load(p, &e);
      if (i) buf_puts(b, ", ");
      const char *f = shape ? NAME(names, field_name, shape, i) : NULL;
      if (f) buf_printf(b, "%s = ", f);
      val_print(b, &e, names);
    }
    if (n == 1 && !shape) buf_putc(b, ',');   /* P's one-element tuple: (1,) */
    buf_putc(b, ')');
    break;
  }
  case VT_SEQ: case VT_SET: case VT_MAP: {
    uint32_t n = val_count(v);
    const uint8_t *p = body_of(v);
    buf_putc(b, v->tag == VT_SEQ ? '[' : '{');
    for (uint32_t i = 0; i < n; i++) {
      Value e;
      p += val_load(p, &e);
      if (i) buf_puts(b, ", ");
      val_print(b, &e, names);
      if (v->tag == VT_MAP) {
        p += val_load(p, &e);
        buf_puts(b, " -> ");
        val_print(b, &e, names);
      }
    }
    buf_putc(b, v->tag == VT_SEQ ? ']' : '}');
    break;
  }
  default: buf_printf(b, "?%u", (unsigned)v->tag); break;
  }
}
