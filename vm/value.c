/* value.c: canonical value encodings (see value.h for the format).
** Compound operations build new encodings in a ValArena; nothing is ever
** modified in place, so encodings can be shared freely within a step. */
#include <config.h>
#include "vm/value.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

static uint32_t rd32(const uint8_t *p) { uint32_t x; memcpy(&x, p, 4); return x; }
static uint16_t rd16(const uint8_t *p) { uint16_t x; memcpy(&x, p, 2); return x; }
static void wr32(uint8_t *p, uint32_t x) { memcpy(p, &x, 4); }
static void wr16(uint8_t *p, uint16_t x) { memcpy(p, &x, 2); }

/* Header bytes before the elements of a compound encoding. */
static uint32_t hdr_len(uint8_t tag) {
  switch (tag) {
  case VT_STRING: return 5;
  case VT_TUPLE: return 9;
  case VT_SEQ: case VT_SET: case VT_MAP: return 9;
  default: return 0;
  }
}

void valarena_init(ValArena *a) { a->arena = arena_new(); }
void valarena_reset(ValArena *a) { arena_reset(a->arena); }
void valarena_fini(ValArena *a) { arena_free(a->arena); a->arena = NULL; }
void *valarena_alloc(ValArena *a, size_t n) { return arena_alloc_raw(a->arena, n); }

Value val_null(void) { Value v = {0}; return v; }
Value val_bool(int b) { Value v = {0}; v.tag = VT_BOOL; v.u.i = b != 0; return v; }
Value val_int(int64_t i) { Value v = {0}; v.tag = VT_INT; v.u.i = i; return v; }
Value val_float(double f) {
  Value v = {0};
  v.tag = VT_FLOAT;
  if (f == 0.0) f = 0.0;                 /* -0.0 becomes 0.0 */
  if (isnan(f)) f = NAN;                 /* one NaN */
  v.u.f = f;
  return v;
}
Value val_event(uint32_t id) { Value v = {0}; v.tag = VT_EVENT; v.u.i = id; return v; }
Value val_machine(uint32_t id) { Value v = {0}; v.tag = VT_MACHINE; v.u.i = id; return v; }
Value val_enum(uint16_t e, int64_t x) { Value v = {0}; v.tag = VT_ENUM; v.aux = e; v.u.i = x; return v; }

static Value compound(uint8_t *p, uint32_t len) {
  Value v = {0};
  v.tag = p[0];
  v.len = len;
  v.u.p = p;
  return v;
}

Value val_string(ValArena *a, const char *s, size_t n) {
  uint8_t *p = valarena_alloc(a, 5 + n);
  p[0] = VT_STRING;
  wr32(p + 1, (uint32_t)n);
  if (n) memcpy(p + 5, s, n);
  return compound(p, (uint32_t)(5 + n));
}

size_t val_enc_size(const Value *v) {
  switch (v->tag) {
  case VT_NULL: return 1;
  case VT_BOOL: return 2;
  case VT_INT: case VT_FLOAT: return 9;
  case VT_EVENT: case VT_MACHINE: return 5;
  case VT_ENUM: return 11;
  default: return v->len;
  }
}

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

size_t val_skip(const uint8_t *p) {
  switch (p[0]) {
  case VT_NULL: return 1;
  case VT_BOOL: return 2;
  case VT_INT: case VT_FLOAT: return 9;
  case VT_EVENT: case VT_MACHINE: return 5;
  case VT_ENUM: return 11;
  case VT_STRING: return 5 + rd32(p + 1);
  case VT_TUPLE: return 9 + rd32(p + 5);
  default: return 9 + rd32(p + 5);
  }
}

/* Canonical order of two encodings: shorter first, then bytes. */
static int enc_cmp(const uint8_t *a, size_t na, const uint8_t *b, size_t nb) {
  if (na != nb) return na < nb ? -1 : 1;
  return memcmp(a, b, na);
}

static size_t decode_depth(const uint8_t *p, size_t n, Value *v, int depth);

/* Check the n elements of a compound body [p, p+len); for sets and maps,
** the (key) encodings must be strictly ascending. */
static int check_body(const uint8_t *p, size_t len, uint32_t count, int kind, int depth) {
  size_t at = 0;
  const uint8_t *prev = NULL;
  size_t prevn = 0;
  for (uint32_t i = 0; i < count; i++) {
    Value e;
    size_t k = decode_depth(p + at, len - at, &e, depth + 1);
    if (!k) return 0;
    if (kind == VT_SET || kind == VT_MAP) {
      if (prev && enc_cmp(prev, prevn, p + at, k) >= 0) return 0;
      prev = p + at;
      prevn = k;
    }
    at += k;
    if (kind == VT_MAP) {
      k = decode_depth(p + at, len - at, &e, depth + 1);
      if (!k) return 0;
      at += k;
    }
  }
  return at == len;
}

static size_t decode_depth(const uint8_t *p, size_t n, Value *v, int depth) {
  if (n < 1 || depth > 200) return 0;
  *v = val_null();
  switch (p[0]) {
  case VT_NULL: return 1;
  case VT_BOOL:
    if (n < 2 || p[1] > 1) return 0;
    *v = val_bool(p[1]);
    return 2;
  case VT_INT: {
    if (n < 9) return 0;
    int64_t x;
    memcpy(&x, p + 1, 8);
    *v = val_int(x);
    return 9;
  }
  case VT_FLOAT: {
    if (n < 9) return 0;
    double x;
    memcpy(&x, p + 1, 8);
    Value c = val_float(x);
    if (memcmp(&c.u.f, p + 1, 8) != 0) return 0;   /* not canonical */
    *v = c;
    return 9;
  }
  case VT_EVENT: case VT_MACHINE:
    if (n < 5) return 0;
    *v = p[0] == VT_EVENT ? val_event(rd32(p + 1)) : val_machine(rd32(p + 1));
    return 5;
  case VT_ENUM: {
    if (n < 11) return 0;
    int64_t x;
    memcpy(&x, p + 3, 8);
    *v = val_enum(rd16(p + 1), x);
    return 11;
  }
  case VT_STRING: {
    if (n < 5) return 0;
    uint32_t len = rd32(p + 1);
    if (len > n - 5) return 0;
    *v = compound((uint8_t *)p, 5 + len);
    return 5 + len;
  }
  case VT_TUPLE: {
    if (n < 9) return 0;
    uint16_t cnt = rd16(p + 3);
    uint32_t body = rd32(p + 5);
    if (body > n - 9 || !check_body(p + 9, body, cnt, VT_TUPLE, depth)) return 0;
    *v = compound((uint8_t *)p, 9 + body);
    return 9 + body;
  }
  case VT_SEQ: case VT_SET: case VT_MAP: {
    if (n < 9) return 0;
    uint32_t cnt = rd32(p + 1), body = rd32(p + 5);
    if (body > n - 9 || !check_body(p + 9, body, cnt, p[0], depth)) return 0;
    *v = compound((uint8_t *)p, 9 + body);
    return 9 + body;
  }
  default:
    return 0;
  }
}

size_t val_decode(const uint8_t *p, size_t n, Value *v) { return decode_depth(p, n, v, 0); }

static size_t elem_at(const uint8_t *p, Value *v);
size_t val_load(const uint8_t *p, Value *v) { return elem_at(p, v); }

/* Decode an element known to be well formed. */
static size_t elem_at(const uint8_t *p, Value *v) {
  size_t n = val_skip(p);
  switch (p[0]) {
  case VT_NULL: *v = val_null(); break;
  case VT_BOOL: *v = val_bool(p[1]); break;
  case VT_INT: { int64_t x; memcpy(&x, p + 1, 8); *v = val_int(x); break; }
  case VT_FLOAT: { Value f = {0}; f.tag = VT_FLOAT; memcpy(&f.u.f, p + 1, 8); *v = f; break; }
  case VT_EVENT: *v = val_event(rd32(p + 1)); break;
  case VT_MACHINE: *v = val_machine(rd32(p + 1)); break;
  case VT_ENUM: { int64_t x; memcpy(&x, p + 3, 8); *v = val_enum(rd16(p + 1), x); break; }
  default: *v = compound((uint8_t *)p, (uint32_t)n); break;
  }
  return n;
}

/* ---- comparison ---- */

int val_equal(const Value *a, const Value *b) {
  if (a->tag != b->tag) return 0;
  switch (a->tag) {
  case VT_NULL: return 1;
  case VT_BOOL: case VT_INT: case VT_EVENT: case VT_MACHINE: return a->u.i == b->u.i;
  case VT_FLOAT: return memcmp(&a->u.f, &b->u.f, 8) == 0;
  case VT_ENUM: return a->aux == b->aux && a->u.i == b->u.i;
  default: return a->len == b->len && memcmp(a->u.p, b->u.p, a->len) == 0;
  }
}

int val_compare(const Value *a, const Value *b) {
  uint8_t ea[16], eb[16];
  const uint8_t *pa = ea, *pb = eb;
  size_t na, nb;
  if (val_is_compound(a)) { pa = a->u.p; na = a->len; } else na = val_encode(a, ea);
  if (val_is_compound(b)) { pb = b->u.p; nb = b->len; } else nb = val_encode(b, eb);
  return enc_cmp(pa, na, pb, nb);
}

uint64_t val_hash(const Value *v) {
  if (val_is_compound(v)) return XXH3_64bits(v->u.p, v->len);
  uint8_t e[16];
  size_t n = val_encode(v, e);
  return XXH3_64bits(e, n);
}

/* ---- building encodings ---- */

/* A compound encoding under construction in a Buf-like scratch. */
typedef struct Build {
  uint8_t *p;
  size_t len, cap;
  ValArena *a;
} Build;

static void b_init(Build *b, ValArena *a, size_t cap) {
  b->a = a;
  b->cap = cap < 16 ? 16 : cap;
  b->p = valarena_alloc(a, b->cap);
  b->len = 0;
}

static uint8_t *b_grow(Build *b, size_t n) {
  if (b->len + n > b->cap) {
    size_t cap = b->cap * 2;
    while (cap < b->len + n) cap *= 2;
    uint8_t *np = valarena_alloc(b->a, cap);
    memcpy(np, b->p, b->len);
    b->p = np;
    b->cap = cap;
  }
  uint8_t *at = b->p + b->len;
  b->len += n;
  return at;
}

static void b_value(Build *b, const Value *v) {
  size_t n = val_enc_size(v);
  val_encode(v, b_grow(b, n));
}

static void b_bytes(Build *b, const uint8_t *p, size_t n) { if (n) memcpy(b_grow(b, n), p, n); }

static Value b_finish_coll(Build *b, uint8_t tag, uint32_t count) {
  b->p[0] = tag;
  wr32(b->p + 1, count);
  wr32(b->p + 5, (uint32_t)(b->len - 9));
  return compound(b->p, (uint32_t)b->len);
}

static const uint8_t *body(const Value *c) { return c->u.p + hdr_len(c->tag); }

uint32_t val_count(const Value *c) {
  switch (c->tag) {
  case VT_STRING: return rd32(c->u.p + 1);
  case VT_TUPLE: return rd16(c->u.p + 3);
  case VT_SEQ: case VT_SET: case VT_MAP: return rd32(c->u.p + 1);
  default: return 0;
  }
}

static Value empty_coll(uint8_t tag) {
  static const uint8_t enc[3][9] = {
    {VT_SEQ, 0, 0, 0, 0, 0, 0, 0, 0}, {VT_SET, 0, 0, 0, 0, 0, 0, 0, 0}, {VT_MAP, 0, 0, 0, 0, 0, 0, 0, 0}};
  return compound((uint8_t *)enc[tag - VT_SEQ], 9);
}
Value val_seq_empty(void) { return empty_coll(VT_SEQ); }
Value val_set_empty(void) { return empty_coll(VT_SET); }
Value val_map_empty(void) { return empty_coll(VT_MAP); }

/* ---- tuples ---- */

Value val_tuple(ValArena *a, uint16_t shape, const Value *elems, int n) {
  size_t total = 9;
  for (int i = 0; i < n; i++) total += val_enc_size(&elems[i]);
  Build b;
  b_init(&b, a, total);
  b_grow(&b, 9);
  for (int i = 0; i < n; i++) b_value(&b, &elems[i]);
  b.p[0] = VT_TUPLE;
  wr16(b.p + 1, shape);
  wr16(b.p + 3, (uint16_t)n);
  wr32(b.p + 5, (uint32_t)(b.len - 9));
  return compound(b.p, (uint32_t)b.len);
}

int val_tuple_count(const Value *t) { return rd16(t->u.p + 3); }

Value val_tuple_get(const Value *t, int i) {
  const uint8_t *p = t->u.p + 9;
  for (int k = 0; k < i; k++) p += val_skip(p);
  Value v;
  elem_at(p, &v);
  return v;
}

Value val_tuple_set(ValArena *a, const Value *t, int i, const Value *x) {
  const uint8_t *p = t->u.p + 9;
  for (int k = 0; k < i; k++) p += val_skip(p);
  size_t old = val_skip(p);
  size_t pre = (size_t)(p - t->u.p), post = t->len - pre - old;
  Build b;
  b_init(&b, a, t->len - old + val_enc_size(x));
  b_bytes(&b, t->u.p, pre);
  b_value(&b, x);
  b_bytes(&b, p + old, post);
  wr32(b.p + 5, (uint32_t)(b.len - 9));
  return compound(b.p, (uint32_t)b.len);
}

/* ---- seqs ---- */

/* Pointer to element i of a seq/set (or entry i of a map) and its size. */
static const uint8_t *nth_ptr(const Value *c, uint32_t i) {
  const uint8_t *p = body(c);
  for (uint32_t k = 0; k < i; k++) {
    p += val_skip(p);
    if (c->tag == VT_MAP) p += val_skip(p);
  }
  return p;
}

Value val_nth(const Value *c, uint32_t i) {
  Value v;
  elem_at(nth_ptr(c, i), &v);
  return v;
}

Value val_map_nth_value(const Value *m, uint32_t i) {
  const uint8_t *p = nth_ptr(m, i);
  p += val_skip(p);
  Value v;
  elem_at(p, &v);
  return v;
}

int val_seq_get(const Value *s, int64_t i, Value *out) {
  if (i < 0 || i >= (int64_t)val_count(s)) return 0;
  *out = val_nth(s, (uint32_t)i);
  return 1;
}

/* Replace bytes [from, from+oldn) of collection c by x's encoding (or
** nothing), adjusting the count by dcount. */
static Value splice(ValArena *a, const Value *c, const uint8_t *from, size_t oldn, const Value *x, int dcount) {
  size_t pre = (size_t)(from - c->u.p), post = c->len - pre - oldn;
  size_t xn = x ? val_enc_size(x) : 0;
  Build b;
  b_init(&b, a, c->len - oldn + xn);
  b_bytes(&b, c->u.p, pre);
  if (x) b_value(&b, x);
  b_bytes(&b, from + oldn, post);
  return b_finish_coll(&b, c->tag, (uint32_t)((int64_t)val_count(c) + dcount));
}

int val_seq_set(ValArena *a, const Value *s, int64_t i, const Value *x, Value *out) {
  if (i < 0 || i >= (int64_t)val_count(s)) return 0;
  const uint8_t *p = nth_ptr(s, (uint32_t)i);
  *out = splice(a, s, p, val_skip(p), x, 0);
  return 1;
}

int val_seq_insert(ValArena *a, const Value *s, int64_t i, const Value *x, Value *out) {
  if (i < 0 || i > (int64_t)val_count(s)) return 0;
  const uint8_t *p = nth_ptr(s, (uint32_t)i);
  *out = splice(a, s, p, 0, x, 1);
  return 1;
}

int val_seq_remove(ValArena *a, const Value *s, int64_t i, Value *out) {
  if (i < 0 || i >= (int64_t)val_count(s)) return 0;
  const uint8_t *p = nth_ptr(s, (uint32_t)i);
  *out = splice(a, s, p, val_skip(p), NULL, -1);
  return 1;
}

Value val_seq_append(ValArena *a, const Value *s, const Value *x) {
  Value out;
  val_seq_insert(a, s, val_count(s), x, &out);
  return out;
}

/* ---- sets and maps: sorted by key encoding ---- */

/* Find key x in set/map c: returns 1 and *at = its position if present,
** else 0 and *at = where it would go.  *idx gets the element index. */
static int find(const Value *c, const Value *x, const uint8_t **at) {
  uint8_t tmp[16];
  const uint8_t *xe = tmp;
  size_t xn;
  if (val_is_compound(x)) { xe = x->u.p; xn = x->len; } else xn = val_encode(x, tmp);
  const uint8_t *p = body(c);
  uint32_t n = val_count(c);
  for (uint32_t i = 0; i < n; i++) {
    size_t k = val_skip(p);
    int d = enc_cmp(p, k, xe, xn);
    if (d == 0) { *at = p; return 1; }
    if (d > 0) { *at = p; return 0; }
    p += k;
    if (c->tag == VT_MAP) p += val_skip(p);
  }
  *at = p;
  return 0;
}

int val_set_has(const Value *s, const Value *x) { const uint8_t *at; return find(s, x, &at); }
int val_map_has(const Value *m, const Value *k) { const uint8_t *at; return find(m, k, &at); }

Value val_set_add(ValArena *a, const Value *s, const Value *x) {
  const uint8_t *at;
  if (find(s, x, &at)) return *s;
  return splice(a, s, at, 0, x, 1);
}

Value val_set_remove(ValArena *a, const Value *s, const Value *x) {
  const uint8_t *at;
  if (!find(s, x, &at)) return *s;
  return splice(a, s, at, val_skip(at), NULL, -1);
}

int val_map_get(const Value *m, const Value *k, Value *out) {
  const uint8_t *at;
  if (!find(m, k, &at)) return 0;
  elem_at(at + val_skip(at), out);
  return 1;
}

Value val_map_put(ValArena *a, const Value *m, const Value *k, const Value *v) {
  const uint8_t *at;
  int present = find(m, k, &at);
  size_t oldn = present ? val_skip(at) + val_skip(at + val_skip(at)) : 0;
  size_t pre = (size_t)(at - m->u.p), post = m->len - pre - oldn;
  Build b;
  b_init(&b, a, m->len - oldn + val_enc_size(k) + val_enc_size(v));
  b_bytes(&b, m->u.p, pre);
  b_value(&b, k);
  b_value(&b, v);
  b_bytes(&b, at + oldn, post);
  return b_finish_coll(&b, VT_MAP, val_count(m) + (present ? 0 : 1));
}

Value val_map_remove(ValArena *a, const Value *m, const Value *k) {
  const uint8_t *at;
  if (!find(m, k, &at)) return *m;
  size_t oldn = val_skip(at);
  oldn += val_skip(at + oldn);
  size_t pre = (size_t)(at - m->u.p), post = m->len - pre - oldn;
  Build b;
  b_init(&b, a, m->len - oldn);
  b_bytes(&b, m->u.p, pre);
  b_bytes(&b, at + oldn, post);
  return b_finish_coll(&b, VT_MAP, val_count(m) - 1);
}

static Value map_part(ValArena *a, const Value *m, int values) {
  uint32_t n = val_count(m);
  Build b;
  b_init(&b, a, m->len);
  b_grow(&b, 9);
  const uint8_t *p = body(m);
  for (uint32_t i = 0; i < n; i++) {
    size_t k = val_skip(p), v = val_skip(p + k);
    if (values) b_bytes(&b, p + k, v); else b_bytes(&b, p, k);
    p += k + v;
  }
  return b_finish_coll(&b, VT_SEQ, n);
}

Value val_map_keys(ValArena *a, const Value *m) { return map_part(a, m, 0); }
Value val_map_values(ValArena *a, const Value *m) { return map_part(a, m, 1); }

Value val_seq_from(ValArena *a, const Value *elems, uint32_t n) {
  Build b;
  b_init(&b, a, 64);
  b_grow(&b, 9);
  for (uint32_t i = 0; i < n; i++) b_value(&b, &elems[i]);
  return b_finish_coll(&b, VT_SEQ, n);
}

Value val_set_from(ValArena *a, const Value *elems, uint32_t n) {
  Value s = val_set_empty();
  for (uint32_t i = 0; i < n; i++) s = val_set_add(a, &s, &elems[i]);
  return s;
}

/* ---- strings ---- */

const char *val_str(const Value *s, uint32_t *n) {
  if (s->tag != VT_STRING) { *n = 0; return ""; }
  *n = rd32(s->u.p + 1);
  return (const char *)s->u.p + 5;
}

Value val_concat(ValArena *a, const Value *x, const Value *y) {
  uint32_t nx, ny;
  const char *sx = val_str(x, &nx), *sy = val_str(y, &ny);
  uint8_t *p = valarena_alloc(a, 5 + (size_t)nx + ny);
  p[0] = VT_STRING;
  wr32(p + 1, nx + ny);
  memcpy(p + 5, sx, nx);
  memcpy(p + 5 + nx, sy, ny);
  return compound(p, 5 + nx + ny);
}

/* ---- printing ---- */

static void print_float(Buf *b, double f) {
  char tmp[64];
  for (int prec = 1; prec <= 17; prec++) {
    snprintf(tmp, sizeof tmp, "%.*g", prec, f);
    if (strtod(tmp, NULL) == f) break;
  }
  buf_puts(b, tmp);
}

void val_print(Buf *b, const Value *v, const ValNames *names) {
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
  case VT_EVENT: {
    const char *nm = names && names->event_name ? names->event_name(names->ctx, (uint32_t)v->u.i) : NULL;
    if (nm) buf_puts(b, nm); else buf_printf(b, "event#%u", (unsigned)v->u.i);
    break;
  }
  case VT_MACHINE: {
    const char *nm = names && names->machine_name ? names->machine_name(names->ctx, (uint32_t)v->u.i) : NULL;
    if (nm) buf_puts(b, nm); else buf_printf(b, "machine#%u", (unsigned)v->u.i);
    break;
  }
  case VT_ENUM: {
    const char *nm = names && names->enum_member ? names->enum_member(names->ctx, v->aux, v->u.i) : NULL;
    if (nm) buf_puts(b, nm); else buf_printf(b, "enum#%u:%lld", v->aux, (long long)v->u.i);
    break;
  }
  case VT_TUPLE: {
    int n = val_tuple_count(v);
    uint16_t shape = rd16(v->u.p + 1);
    buf_putc(b, '(');
    const uint8_t *p = v->u.p + 9;
    for (int i = 0; i < n; i++) {
      Value e;
      p += elem_at(p, &e);
      if (i) buf_puts(b, ", ");
      const char *f = shape && names && names->field_name ? names->field_name(names->ctx, shape, i) : NULL;
      if (f) buf_printf(b, "%s = ", f);
      val_print(b, &e, names);
    }
    if (n == 1 && !shape) buf_putc(b, ',');
    buf_putc(b, ')');
    break;
  }
  case VT_SEQ: case VT_SET: case VT_MAP: {
    uint32_t n = val_count(v);
    buf_putc(b, v->tag == VT_SEQ ? '[' : '{');
    const uint8_t *p = body(v);
    for (uint32_t i = 0; i < n; i++) {
      Value e;
      p += elem_at(p, &e);
      if (i) buf_puts(b, ", ");
      val_print(b, &e, names);
      if (v->tag == VT_MAP) {
        p += elem_at(p, &e);
        buf_puts(b, " -> ");
        val_print(b, &e, names);
      }
    }
    buf_putc(b, v->tag == VT_SEQ ? ']' : '}');
    break;
  }
  default: buf_puts(b, "?"); break;
  }
}
