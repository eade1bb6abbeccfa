/* value.c: canonical value encodings (the format is in value.h).
** Compound operations build a new encoding in the ValArena, sized exactly
** before it is written; nothing is modified in place, so encodings can be
** shared freely within a step.  val_decode is the only function that
** trusts nothing: everything else assumes well-formed encodings.
**
** One encoding per value: each writer picks the shortest form (an int in
** its tag if it fits, else the fewest bytes; the narrowest length fields
** for a compound's body, chosen again whenever a compound is rebuilt, so
** a collection that shrinks gets narrower fields too), and sets and maps
** keep their elements in the canonical order.  Scalars are big-endian so
** that, among encodings of one length, memcmp orders non-negative numbers
** numerically; length and count fields are little-endian (read with
** memcpy).  The tag alone gives a scalar's size (an enum's: with its
** value's tag), so skipping never decodes. */
#include <config.h>
#include "vm/value.h"
#include <assert.h>
#include <stddef.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

/* ---- the tags (value.h gives the format) ---- */
enum {
  TG_NULL = 0x00, TG_FALSE = 0x01, TG_TRUE = 0x02, TG_FLOAT = 0x03,
  TG_POS = 0x04,         /* + k-1: an int >= 128 in k = 1..8 bytes, big-endian */
  TG_NEG = 0x0c,         /* + k-1: an int < 0, its low k = 1..8 bytes, big-endian */
  TG_EVENT = 0x14,       /* + 0, 1, 2: an event id in 1, 2, 4 bytes, big-endian */
  TG_MACHINE = 0x17,     /* + 0, 1, 2: a machine id >= 64 in 1, 2, 4 bytes, big-endian */
  TG_ENUM = 0x1a,        /* + 0, 1: the enum id in 1, 2 bytes, big-endian; then the value as an int */
  TG_STRING = 0x1c,      /* + 0: ""; + 1, 2, 3: the byte count in 1, 2, 4 bytes */
  TG_TUPLE = 0x20,       /* + 0, 1, 2: fields of 1, 2, 4 bytes, 1-byte shape; + 3, 4, 5: 2-byte shape */
  TG_SEQ = 0x26, TG_SET = 0x2a, TG_MAP = 0x2e,   /* + 0: empty; + 1, 2, 3: fields of 1, 2, 4 bytes */
  TG_END = 0x32,         /* 0x32 .. 0x3f are not tags */
  TG_MACH_INLINE = 0x40, /* + id: machine id 0..63 */
  TG_INT_INLINE = 0x80,  /* + i: int 0..127 */
};
/* Deepest nesting val_decode accepts: deeper input is refused, so that the
** recursive printers never run out of stack on values read from a file. */
enum { MAX_DEPTH = 1000 };

/* The tags from TG_STRING on: header bytes (tag, length field, count
** field, a tuple's shape), the width of the length and count fields (0:
** empty, no fields), and the ValTag. */
static const struct { uint8_t hlen, w, vt; } CT[TG_END - TG_STRING] = {
  {1, 0, VT_STRING}, {2, 1, VT_STRING}, {3, 2, VT_STRING}, {5, 4, VT_STRING},
  {4, 1, VT_TUPLE}, {6, 2, VT_TUPLE}, {10, 4, VT_TUPLE}, {5, 1, VT_TUPLE}, {7, 2, VT_TUPLE}, {11, 4, VT_TUPLE},
  {1, 0, VT_SEQ}, {3, 1, VT_SEQ}, {5, 2, VT_SEQ}, {9, 4, VT_SEQ},
  {1, 0, VT_SET}, {3, 1, VT_SET}, {5, 2, VT_SET}, {9, 4, VT_SET},
  {1, 0, VT_MAP}, {3, 1, VT_MAP}, {5, 2, VT_MAP}, {9, 4, VT_MAP},
};
_Static_assert(sizeof CT / sizeof CT[0] == 22, "compound tags");
static const uint8_t WIDTH[3] = {1, 2, 4};

static uint16_t rd16(const uint8_t *p) { uint16_t x; memcpy(&x, p, 2); return x; }
static uint32_t rd32(const uint8_t *p) { uint32_t x; memcpy(&x, p, 4); return x; }
static void wr16(uint8_t *p, uint16_t x) { memcpy(p, &x, 2); }
static void wr32(uint8_t *p, uint32_t x) { memcpy(p, &x, 4); }

/* A length or count field of w (1, 2 or 4) bytes, little-endian. */
static uint32_t rdw(const uint8_t *p, unsigned w) { return w == 1 ? p[0] : w == 2 ? rd16(p) : rd32(p); }
static void wrw(uint8_t *p, unsigned w, uint32_t x) {
  if (w == 1) p[0] = (uint8_t)x; else if (w == 2) wr16(p, (uint16_t)x); else wr32(p, x);
}
/* Index into WIDTH of the narrowest field that holds x. */
static unsigned wsel(uint64_t x) { return x <= 0xff ? 0 : x <= 0xffff ? 1 : 2; }

/* k big-endian bytes; the low k bytes of x. */
static uint64_t rdbe(const uint8_t *p, unsigned k) {
  uint64_t x = 0;
  for (unsigned i = 0; i < k; i++) x = x << 8 | p[i];
  return x;
}
static void wrbe(uint8_t *p, unsigned k, uint64_t x) {
  for (unsigned i = k; i-- > 0; x >>= 8) p[i] = (uint8_t)x;
}
/* Bytes (1..8) that hold x without its leading zero bytes. */
static unsigned nbytes(uint64_t x) {
  unsigned k = 1;
  while (k < 8 && x >> (8 * k)) k++;
  return k;
}

/* ---- ints: 0..127 in the tag; others in as few bytes as hold them ----
** A positive int takes the bytes of its magnitude; a negative one the low
** bytes of its two's complement, as many as keep the sign (k bytes hold
** -2^(8k) .. -1 once the tag says negative), so both are minimal. */

/* Bytes of v's encoding. */
static size_t int_size(int64_t v) {
  if (v >= 0 && v < 128) return 1;
  return 1 + nbytes(v > 0 ? (uint64_t)v : ~(uint64_t)v);
}

/* Write v's encoding at out (int_size(v) bytes); returns its size. */
static size_t int_put(int64_t v, uint8_t *out) {
  if (v >= 0 && v < 128) { out[0] = (uint8_t)(TG_INT_INLINE + v); return 1; }
  unsigned k = nbytes(v > 0 ? (uint64_t)v : ~(uint64_t)v);
  out[0] = (uint8_t)((v > 0 ? TG_POS : TG_NEG) + k - 1);
  wrbe(out + 1, k, (uint64_t)v);
  return 1 + k;
}

/* Size of the int encoding whose tag is t (an int tag). */
static size_t int_len(uint8_t t) { return t >= TG_INT_INLINE ? 1 : 2 + (size_t)((t - TG_POS) % 8); }
static int is_int_tag(uint8_t t) { return t >= TG_INT_INLINE || (t >= TG_POS && t < TG_EVENT); }

/* Read the int encoding at p (well formed) into *v; returns its size. */
static size_t int_get(const uint8_t *p, int64_t *v) {
  uint8_t t = p[0];
  if (t >= TG_INT_INLINE) { *v = t - TG_INT_INLINE; return 1; }
  unsigned k = (unsigned)(t - TG_POS) % 8 + 1;
  uint64_t u = rdbe(p + 1, k);
  if (t >= TG_NEG && k < 8) u |= ~0ull << (8 * k);   /* sign-extend */
  *v = (int64_t)u;
  return 1 + k;
}

/* ---- arena ---- */

/* A ValArena wraps one Arena (vm/util.h): allocation is a bump of a
** pointer, reset frees everything at once, and every encoding built since
** the last reset (and every Value pointing at one) dies with it. */
void valarena_init(ValArena *a) { a->arena = arena_new(); }
void valarena_reset(ValArena *a) { arena_reset(a->arena); }
void valarena_fini(ValArena *a) { arena_free(a->arena); a->arena = NULL; }
/* Not zeroed: every builder below writes all the bytes it asks for. */
void *valarena_alloc(ValArena *a, size_t n) { return arena_alloc_raw(a->arena, n); }

/* ---- scalars ---- */

/* Scalars are built whole from a zeroed Value, so that pad, len and (but
** for enums) aux are 0, as value.h says: two equal scalars are equal
** bytes, as val_load builds them too. */
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

/* A Value for the compound encoding of len bytes at p. */
static Value compound(const uint8_t *p, size_t len) {
  assert(len <= UINT32_MAX && p[0] >= TG_STRING && p[0] < TG_END);
  Value v = {0};
  v.tag = CT[p[0] - TG_STRING].vt;
  v.len = (uint32_t)len;
  v.u.p = p;
  return v;
}

/* ---- compound headers ----
** [tag][body length][count][a tuple's shape], the two fields w bytes wide
** (the tag says w); the empty string, seq, set and map are the tag alone.
** The count is not above the body length (each element takes a byte at
** least), so the field that holds one holds the other. */

/* Header bytes and body bytes of the well-formed compound encoding at p. */
static size_t hdr_len(const uint8_t *p) { return CT[p[0] - TG_STRING].hlen; }
static uint32_t body_len(const uint8_t *p) {
  unsigned w = CT[p[0] - TG_STRING].w;
  return w ? rdw(p + 1, w) : 0;
}
/* Elements of a tuple, seq, set or map (entries of a map); bytes of a string. */
static uint32_t count_of(const uint8_t *p) {
  unsigned w = CT[p[0] - TG_STRING].w;
  if (!w) return 0;
  return p[0] < TG_TUPLE ? rdw(p + 1, w) : rdw(p + 1 + w, w);
}

/* Header bytes of a compound of type vt with body bytes and n elements
** (a tuple: of that shape). */
static size_t hdr_size(uint8_t vt, size_t body, uint16_t shape) {
  if (vt == VT_TUPLE) return 1 + 2 * (size_t)WIDTH[wsel(body)] + (shape > 0xff ? 2 : 1);
  if (body == 0) return 1;
  return 1 + (size_t)WIDTH[wsel(body)] * (vt == VT_STRING ? 1 : 2);
}

/* Write that header at p; returns its size (hdr_size). */
static size_t hdr_put(uint8_t *p, uint8_t vt, size_t body, uint32_t n, uint16_t shape) {
  assert(body <= UINT32_MAX);
  unsigned wi = wsel(body), w = WIDTH[wi];
  if (vt == VT_TUPLE) {
    unsigned wide = shape > 0xff;
    p[0] = (uint8_t)(TG_TUPLE + wi + 3 * wide);
    wrw(p + 1, w, (uint32_t)body);
    wrw(p + 1 + w, w, n);
    if (wide) wr16(p + 1 + 2 * w, shape); else p[1 + 2 * w] = (uint8_t)shape;
    return 1 + 2 * w + 1 + wide;
  }
  uint8_t base = vt == VT_STRING ? TG_STRING : vt == VT_SEQ ? TG_SEQ : vt == VT_SET ? TG_SET : TG_MAP;
  if (body == 0) { p[0] = base; return 1; }
  p[0] = (uint8_t)(base + 1 + wi);
  wrw(p + 1, w, (uint32_t)body);
  if (vt == VT_STRING) return 1 + w;
  wrw(p + 1 + w, w, n);
  return 1 + 2 * w;
}

/* The n bytes at s (any bytes, NUL included; s may be NULL when n is 0)
** copied into a string encoding in the arena. */
Value val_string(ValArena *a, const char *s, size_t n) {
  assert(n <= UINT32_MAX - 8);
  size_t h = hdr_size(VT_STRING, n, 0);
  uint8_t *p = valarena_alloc(a, h + n);
  hdr_put(p, VT_STRING, n, 0, 0);
  if (n) memcpy(p + h, s, n);
  return compound(p, h + n);
}

/* ---- encoding ---- */

/* Bytes of an event or machine id in its 1-, 2- or 4-byte form. */
static size_t id_size(uint64_t id) { return 1 + (size_t)WIDTH[wsel(id)]; }

/* A scalar's size is computed from its value; a compound's is its len. */
size_t val_enc_size(const Value *v) {
  switch (v->tag) {
  case VT_NULL: case VT_BOOL: return 1;
  case VT_INT: return int_size(v->u.i);
  case VT_FLOAT: return 9;
  case VT_EVENT: return id_size((uint64_t)v->u.i);
  case VT_MACHINE: return v->u.i < 64 ? 1 : id_size((uint64_t)v->u.i);
  case VT_ENUM: return 1 + (v->aux > 0xff ? 2 : 1) + int_size(v->u.i);
  default: return v->len;
  }
}

/* An event (base TG_EVENT) or machine (TG_MACHINE) id in 1, 2 or 4 bytes. */
static size_t id_put(uint8_t *out, uint8_t base, uint64_t id) {
  unsigned wi = wsel(id);
  out[0] = (uint8_t)(base + wi);
  wrbe(out + 1, WIDTH[wi], id);
  return 1 + WIDTH[wi];
}

/* out needs val_enc_size(v) bytes (VAL_SCALAR_MAX for any scalar); a
** compound is copied as it is, being canonical already. */
size_t val_encode(const Value *v, uint8_t *out) {
  switch (v->tag) {
  case VT_NULL: out[0] = TG_NULL; return 1;
  case VT_BOOL: out[0] = v->u.i ? TG_TRUE : TG_FALSE; return 1;
  case VT_INT:
    if ((uint64_t)v->u.i < 128) { out[0] = (uint8_t)(TG_INT_INLINE + v->u.i); return 1; }   /* the usual case */
    return int_put(v->u.i, out);
  case VT_FLOAT: out[0] = TG_FLOAT; memcpy(out + 1, &v->u.f, 8); return 9;
  case VT_EVENT: return id_put(out, TG_EVENT, (uint64_t)v->u.i);
  case VT_MACHINE:
    if (v->u.i < 64) { out[0] = (uint8_t)(TG_MACH_INLINE + v->u.i); return 1; }
    return id_put(out, TG_MACHINE, (uint64_t)v->u.i);
  case VT_ENUM: {
    unsigned k = v->aux > 0xff ? 2 : 1;
    out[0] = (uint8_t)(TG_ENUM + k - 1);
    wrbe(out + 1, k, v->aux);
    return 1 + k + int_put(v->u.i, out + 1 + k);
  }
  default: memcpy(out, v->u.p, v->len); return v->len;
  }
}

/* The encoding of any value: a compound's own bytes, or a scalar encoded
** into tmp (at least VAL_SCALAR_MAX bytes).  *n receives the size. */
static const uint8_t *enc_of(const Value *v, uint8_t *tmp, size_t *n) {
  if (val_is_compound(v)) { *n = v->len; return v->u.p; }
  *n = val_encode(v, tmp);
  return tmp;
}

/* From the tag alone for scalars (an enum also reads its value's tag),
** from the length field for compounds: never a walk over elements. */
size_t val_skip(const uint8_t *p) {
  uint8_t t = p[0];
  if (t >= TG_MACH_INLINE || t <= TG_TRUE) return 1;
  if (t < TG_EVENT) return t == TG_FLOAT ? 9 : int_len(t);
  if (t < TG_ENUM) return 1 + (size_t)WIDTH[(t - TG_EVENT) % 3];
  if (t < TG_STRING) { size_t k = 1 + (size_t)(t - TG_ENUM); return 1 + k + int_len(p[1 + k]); }
  return hdr_len(p) + body_len(p);
}

/* Recursive over nesting, as deep as the value (well formed: at most
** val_decode's MAX_DEPTH for values read from outside).  Strings, ints,
** floats and enums hold no ids and are skipped whole. */
size_t val_ids(const uint8_t *p, ValIdFn fn, void *ctx) {
  uint8_t t = p[0];
  if (t >= TG_INT_INLINE) return 1;
  if (t >= TG_MACH_INLINE) { fn(ctx, VT_MACHINE, (uint32_t)(t - TG_MACH_INLINE)); return 1; }
  if (t >= TG_EVENT && t < TG_ENUM) {
    unsigned w = WIDTH[(t - TG_EVENT) % 3];
    fn(ctx, t < TG_MACHINE ? VT_EVENT : VT_MACHINE, (uint32_t)rdbe(p + 1, w));
    return 1 + w;
  }
  if (t < TG_TUPLE) return val_skip(p);   /* other scalars and strings hold no ids */
  /* A compound value: its elements (map keys and values alike) lie one
  ** after another in its body. */
  const uint8_t *q = p + hdr_len(p), *end = q + body_len(p);
  while (q < end) q += val_ids(q, fn, ctx);
  return (size_t)(end - p);
}

/* Set *v with two 8-byte stores (tag, aux and len make the first word).
** Values are read back whole, and loading 8 bytes just stored in parts
** stalls (store forwarding fails): val_load is on every decode. */
_Static_assert(offsetof(Value, aux) == 2 && offsetof(Value, len) == 4 && offsetof(Value, u) == 8, "Value layout");
static inline void set_value(Value *v, uint8_t tag, uint16_t aux, uint32_t len, uint64_t payload) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  uint64_t w = tag | (uint64_t)aux << 16 | (uint64_t)len << 32;
  memcpy(v, &w, 8);
#else
  v->tag = tag;
  v->pad = 0;
  v->aux = aux;
  v->len = len;
#endif
  memcpy(&v->u, &payload, 8);
}

/* The inverse of val_encode for bytes this library wrote (or val_decode
** accepted): no bounds and no checks.  A compound's Value points at p, so
** it lives as long as the bytes at p do (a State buffer, or the arena). */
size_t val_load(const uint8_t *p, Value *v) {
  uint8_t t = p[0];
  if (t >= TG_INT_INLINE) { set_value(v, VT_INT, 0, 0, t - TG_INT_INLINE); return 1; }
  if (t >= TG_MACH_INLINE) { set_value(v, VT_MACHINE, 0, 0, t - TG_MACH_INLINE); return 1; }
  if (t <= TG_TRUE) { set_value(v, t == TG_NULL ? VT_NULL : VT_BOOL, 0, 0, t == TG_TRUE); return 1; }
  if (t == TG_FLOAT) { uint64_t f; memcpy(&f, p + 1, 8); set_value(v, VT_FLOAT, 0, 0, f); return 9; }
  if (t < TG_EVENT) {
    int64_t i;
    size_t n = int_get(p, &i);
    set_value(v, VT_INT, 0, 0, (uint64_t)i);
    return n;
  }
  if (t < TG_ENUM) {
    unsigned w = WIDTH[(t - TG_EVENT) % 3];
    set_value(v, t < TG_MACHINE ? VT_EVENT : VT_MACHINE, 0, 0, rdbe(p + 1, w));
    return 1 + w;
  }
  if (t < TG_STRING) {
    unsigned k = 1u + (unsigned)(t - TG_ENUM);
    int64_t i;
    size_t n = 1 + k + int_get(p + 1 + k, &i);
    set_value(v, VT_ENUM, (uint16_t)rdbe(p + 1, k), 0, (uint64_t)i);
    return n;
  }
  size_t n = hdr_len(p) + body_len(p);
  set_value(v, CT[t - TG_STRING].vt, 0, (uint32_t)n, (uint64_t)(uintptr_t)p);
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

/* Size of the scalar encoding at p (room bytes there), if it is the one
** and only encoding of its value; else 0.  The test is by construction:
** decode it, encode the value again (floats made canonical first), and
** compare; so whatever the encoder would never write is refused. */
static size_t check_scalar(const uint8_t *p, size_t room) {
  uint8_t t = p[0];
  size_t sz;
  if (t >= TG_MACH_INLINE || t <= TG_TRUE) return 1;
  if (t >= TG_END) return 0;                       /* not a tag */
  if (t < TG_EVENT) sz = t == TG_FLOAT ? 9 : int_len(t);
  else if (t < TG_ENUM) sz = 1 + (size_t)WIDTH[(t - TG_EVENT) % 3];
  else {
    size_t k = 1 + (size_t)(t - TG_ENUM);
    if (room < 2 + k || !is_int_tag(p[1 + k])) return 0;
    sz = 1 + k + int_len(p[1 + k]);
  }
  if (sz > room) return 0;
  /* The value's own encoding must be these bytes (minimal widths; for a
  ** float, the canonical zero and NaN). */
  Value v;
  uint8_t tmp[VAL_SCALAR_MAX];
  val_load(p, &v);
  if (v.tag == VT_FLOAT) v = val_float(v.u.f);
  return val_encode(&v, tmp) == sz && memcmp(tmp, p, sz) == 0 ? sz : 0;
}

/* Size of the compound encoding at p (room bytes there) and, in *nelems,
** the element encodings its body holds; 0 if its header is not the
** canonical one of a body that fits in room. */
static size_t check_header(const uint8_t *p, size_t room, uint64_t *nelems) {
  uint8_t t = p[0];
  unsigned hl = CT[t - TG_STRING].hlen, w = CT[t - TG_STRING].w, vt = CT[t - TG_STRING].vt;
  if (room < hl) return 0;
  uint32_t body = w ? rdw(p + 1, w) : 0;
  if (body > room - hl) return 0;
  if (vt == VT_TUPLE ? WIDTH[wsel(body)] != w : (w == 0) != (body == 0) || (w && WIDTH[wsel(body)] != w))
    return 0;                                      /* not the narrowest fields */
  if (vt == VT_TUPLE && t >= TG_TUPLE + 3 && rd16(p + 1 + 2 * w) <= 0xff) return 0;
  *nelems = vt == VT_STRING ? 0 : count_of(p) * (vt == VT_MAP ? 2ull : 1ull);
  return hl + (size_t)body;
}

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
    int coll = tag >= TG_TUPLE && tag < TG_END;
    sz = tag >= TG_STRING && tag < TG_END ? check_header(at, room, &nelems) : check_scalar(at, room);
    if (!sz) goto out;
    if (depth) {
      DecFrame *top = &st[depth - 1];
      if (top->kind == VT_SET || (top->kind == VT_MAP && top->left % 2 == 0)) {
        if (top->prev && enc_cmp(top->prev, top->nprev, at, sz) >= 0) goto out;
        top->prev = at;
        top->nprev = sz;
      }
      top->left--;
    }
    if (coll) {
      if (depth == MAX_DEPTH) goto out;
      if (depth == cap) {
        DecFrame *bigger = xmalloc(2 * cap * sizeof *bigger);
        memcpy(bigger, st, cap * sizeof *st);
        if (st != local) free(st);
        st = bigger;
        cap *= 2;
      }
      st[depth++] = (DecFrame){ at + sz, nelems, NULL, 0, CT[tag - TG_STRING].vt };
      at += hdr_len(at);
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

/* Deep equality in one comparison: canonical encodings make equal values
** equal bytes, and floats are canonical (val_float), so their bits
** compare.  Values of two tags are never equal (1 is not 1.0). */
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

/* The canonical order of the encodings (enc_cmp): the order of set
** elements and map keys, and of P's set indexing; not numeric order. */
int val_compare(const Value *a, const Value *b) {
  uint8_t ta[VAL_SCALAR_MAX], tb[VAL_SCALAR_MAX];
  size_t na, nb;
  const uint8_t *pa = enc_of(a, ta, &na), *pb = enc_of(b, tb, &nb);
  return enc_cmp(pa, na, pb, nb);
}

/* XXH3 of the encoding: equal values hash equal, whatever built them. */
uint64_t val_hash(const Value *v) {
  uint8_t tmp[VAL_SCALAR_MAX];
  size_t n;
  const uint8_t *p = enc_of(v, tmp, &n);
  return XXH3_64bits(p, n);
}

/* ---- compound values ---- */

/* Start and end of the elements (a string's bytes) of a compound. */
static const uint8_t *body_of(const Value *c) { return c->u.p + hdr_len(c->u.p); }
static const uint8_t *end_of(const Value *c) { return c->u.p + c->len; }

/* (A tuple's element count too; a scalar counts 0.) */
uint32_t val_count(const Value *c) { return val_is_compound(c) ? count_of(c->u.p) : 0; }

/* The shape byte, or the u16 of the wide tuple tags, after the two
** fields; t must be a tuple. */
uint16_t val_tuple_shape(const Value *t) {
  unsigned w = CT[t->u.p[0] - TG_STRING].w;
  return t->u.p[0] >= TG_TUPLE + 3 ? rd16(t->u.p + 1 + 2 * w) : t->u.p[1 + 2 * w];
}

/* A copy of collection or tuple c with bytes [from, from + nold) of its
** body replaced by x then y (either may be empty), its element count
** moved by dcount (collections only), under a new header.  The one
** allocation. */
static Value splice(ValArena *a, const Value *c, const uint8_t *from, size_t nold, const uint8_t *x, size_t nx,
                    const uint8_t *y, size_t ny, int dcount) {
  const uint8_t *b0 = body_of(c);
  size_t pre = (size_t)(from - b0), post = (size_t)(end_of(c) - from) - nold;
  size_t body = pre + nx + ny + post;
  uint16_t shape = c->tag == VT_TUPLE ? val_tuple_shape(c) : 0;
  uint32_t n = (uint32_t)((int64_t)count_of(c->u.p) + dcount);
  size_t h = hdr_size(c->tag, body, shape);
  assert(h + body <= UINT32_MAX);
  uint8_t *p = valarena_alloc(a, h + body), *w = p + hdr_put(p, c->tag, body, n, shape);
  if (pre) { memcpy(w, b0, pre); w += pre; }
  if (nx) { memcpy(w, x, nx); w += nx; }
  if (ny) { memcpy(w, y, ny); w += ny; }
  if (post) memcpy(w, from + nold, post);
  return compound(p, h + body);
}

/* The empty seq, set or map: one tag byte in static memory, never freed
** and valid beyond any arena reset. */
static Value empty_coll(uint8_t tag) {
  static const uint8_t enc[3] = {TG_SEQ, TG_SET, TG_MAP};
  return compound(&enc[tag == TG_SEQ ? 0 : tag == TG_SET ? 1 : 2], 1);
}
Value val_seq_empty(void) { return empty_coll(TG_SEQ); }
Value val_set_empty(void) { return empty_coll(TG_SET); }
Value val_map_empty(void) { return empty_coll(TG_MAP); }

/* ---- tuples ---- */

/* The n elements encoded in order after a header for their total size,
** in one arena allocation; elems are only read. */
Value val_tuple(ValArena *a, uint16_t shape, const Value *elems, int n) {
  assert(n >= 0 && n <= UINT16_MAX);
  size_t body = 0;
  for (int i = 0; i < n; i++) body += val_enc_size(&elems[i]);
  size_t h = hdr_size(VT_TUPLE, body, shape);
  uint8_t *p = valarena_alloc(a, h + body), *w = p + hdr_put(p, VT_TUPLE, body, (uint32_t)n, shape);
  for (int i = 0; i < n; i++) w += val_encode(&elems[i], w);
  return compound(p, h + body);
}

/* count_of for a tuple, without the table: the count follows a length
** field of 1, 2 or 4 bytes ((tag - TG_TUPLE) % 3 says which). */
int val_tuple_count(const Value *t) {
  const uint8_t *p = t->u.p;
  unsigned wi = (unsigned)(p[0] - TG_TUPLE) % 3;
  return wi == 0 ? p[2] : wi == 1 ? rd16(p + 3) : (int)rd32(p + 5);
}

/* Element i of a tuple, seq or set, or entry i (its key) of a map. */
static const uint8_t *nth_ptr(const Value *c, uint32_t i) {
  const uint8_t *p = body_of(c);
  if (c->tag == VT_MAP) {
    for (uint32_t k = 0; k < i; k++) { p += val_skip(p); p += val_skip(p); }
  } else {
    for (uint32_t k = 0; k < i; k++) p += val_skip(p);
  }
  return p;
}

/* The element points into t's encoding (for a compound element). */
Value val_tuple_get(const Value *t, int i) {
  assert(i >= 0 && i < val_tuple_count(t));
  Value v;
  val_load(nth_ptr(t, (uint32_t)i), &v);
  return v;
}

/* A new tuple in the arena, t unchanged; the shape is kept. */
Value val_tuple_set(ValArena *a, const Value *t, int i, const Value *x) {
  assert(i >= 0 && i < val_tuple_count(t));
  const uint8_t *at = nth_ptr(t, (uint32_t)i);
  uint8_t tmp[VAL_SCALAR_MAX];
  size_t nx;
  const uint8_t *xe = enc_of(x, tmp, &nx);
  return splice(a, t, at, val_skip(at), xe, nx, NULL, 0, 0);
}

/* ---- seqs ---- */

/* Elements lie one after another, so this skips i of them: a loop over a
** collection with val_nth is quadratic in its size (foreach's NTH is). */
Value val_nth(const Value *c, uint32_t i) {
  assert(i < val_count(c));
  Value v;
  val_load(nth_ptr(c, i), &v);
  return v;
}

/* The value of entry i: the one after its key. */
Value val_map_nth_value(const Value *m, uint32_t i) {
  assert(i < val_count(m));
  const uint8_t *p = nth_ptr(m, i);
  Value v;
  val_load(p + val_skip(p), &v);
  return v;
}

/* 0, *out unset, for i outside [0, size); the element points into s. */
int val_seq_get(const Value *s, int64_t i, Value *out) {
  if (i < 0 || i >= (int64_t)val_count(s)) return 0;
  val_load(nth_ptr(s, (uint32_t)i), out);
  return 1;
}

/* 0 for i outside [0, size).  Storing the element already there returns s
** itself (no allocation); else a new seq in the arena. */
int val_seq_set(ValArena *a, const Value *s, int64_t i, const Value *x, Value *out) {
  if (i < 0 || i >= (int64_t)val_count(s)) return 0;
  const uint8_t *at = nth_ptr(s, (uint32_t)i);
  uint8_t tmp[VAL_SCALAR_MAX];
  size_t nx, nold = val_skip(at);
  const uint8_t *xe = enc_of(x, tmp, &nx);
  if (nx == nold && memcmp(xe, at, nx) == 0) { *out = *s; return 1; }   /* no change */
  *out = splice(a, s, at, nold, xe, nx, NULL, 0, 0);
  return 1;
}

/* i may be the size (append); 0 for i outside [0, size]. */
int val_seq_insert(ValArena *a, const Value *s, int64_t i, const Value *x, Value *out) {
  uint32_t n = val_count(s);
  if (i < 0 || i > (int64_t)n) return 0;
  const uint8_t *at = i == n ? end_of(s) : nth_ptr(s, (uint32_t)i);
  uint8_t tmp[VAL_SCALAR_MAX];
  size_t nx;
  const uint8_t *xe = enc_of(x, tmp, &nx);
  *out = splice(a, s, at, 0, xe, nx, NULL, 0, 1);
  return 1;
}

/* 0 for i outside [0, size); the later elements move down one index. */
int val_seq_remove(ValArena *a, const Value *s, int64_t i, Value *out) {
  if (i < 0 || i >= (int64_t)val_count(s)) return 0;
  const uint8_t *at = nth_ptr(s, (uint32_t)i);
  *out = splice(a, s, at, val_skip(at), NULL, 0, NULL, 0, -1);
  return 1;
}

/* x added at the end (val_seq_insert at the size, which cannot fail). */
Value val_seq_append(ValArena *a, const Value *s, const Value *x) {
  Value out;
  val_seq_insert(a, s, val_count(s), x, &out);
  return out;
}

/* The n elements in the order given; one allocation, measured first. */
Value val_seq_from(ValArena *a, const Value *elems, uint32_t n) {
  size_t body = 0;
  for (uint32_t i = 0; i < n; i++) body += val_enc_size(&elems[i]);
  size_t h = hdr_size(VT_SEQ, body, 0);
  assert(h + body <= UINT32_MAX);
  uint8_t *p = valarena_alloc(a, h + body), *w = p + hdr_put(p, VT_SEQ, body, n, 0);
  for (uint32_t i = 0; i < n; i++) w += val_encode(&elems[i], w);
  return compound(p, h + body);
}

/* ---- sets and maps: entries sorted by the canonical order of their keys ---- */

/* Look for the key encoded as (xe, nx) in set or map c.  Returns 1 with *at
** at its entry if present, else 0 with *at where it would be inserted.
** Entries are skipped by their length fields; since shorter encodings
** come first, only keys of the same length are compared at all. */
static int find(const Value *c, const uint8_t *xe, size_t nx, const uint8_t **at) {
  const uint8_t *p = body_of(c), *end = end_of(c);
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
  uint8_t tmp[VAL_SCALAR_MAX];
  size_t nx;
  const uint8_t *xe = enc_of(x, tmp, &nx);
  return find(c, xe, nx, at);
}

/* Membership and key lookup need no allocation: one scan of the sorted
** body that compares only encodings of x's length. */
int val_set_has(const Value *s, const Value *x) { const uint8_t *at; return find_val(s, x, &at); }
int val_map_has(const Value *m, const Value *k) { const uint8_t *at; return find_val(m, k, &at); }

/* A member already there returns s itself; else x goes where the order
** puts it, in a new set. */
Value val_set_add(ValArena *a, const Value *s, const Value *x) {
  uint8_t tmp[VAL_SCALAR_MAX];
  size_t nx;
  const uint8_t *xe = enc_of(x, tmp, &nx), *at;
  if (find(s, xe, nx, &at)) return *s;
  return splice(a, s, at, 0, xe, nx, NULL, 0, 1);
}

/* A non-member returns s itself; else a new set without it. */
Value val_set_remove(ValArena *a, const Value *s, const Value *x) {
  const uint8_t *at;
  if (!find_val(s, x, &at)) return *s;
  return splice(a, s, at, val_skip(at), NULL, 0, NULL, 0, -1);
}

/* The value points into m's encoding (for a compound value). */
int val_map_get(const Value *m, const Value *k, Value *out) {
  const uint8_t *at;
  if (!find_val(m, k, &at)) return 0;
  val_load(at + val_skip(at), out);
  return 1;
}

/* A new key is inserted at its place in the order; an existing key keeps
** its place and gets v, and when v is what it held already m itself is
** returned. */
Value val_map_put(ValArena *a, const Value *m, const Value *k, const Value *v) {
  uint8_t tk[VAL_SCALAR_MAX], tv[VAL_SCALAR_MAX];
  size_t nk, nv;
  const uint8_t *ke = enc_of(k, tk, &nk), *ve = enc_of(v, tv, &nv), *at;
  if (!find(m, ke, nk, &at)) return splice(a, m, at, 0, ke, nk, ve, nv, 1);
  at += nk;                                 /* replace only the value */
  size_t nold = val_skip(at);
  if (nold == nv && memcmp(at, ve, nv) == 0) return *m;
  return splice(a, m, at, nold, ve, nv, NULL, 0, 0);
}

/* An absent key returns m itself; else the entry (key and value) goes. */
Value val_map_remove(ValArena *a, const Value *m, const Value *k) {
  const uint8_t *at;
  if (!find_val(m, k, &at)) return *m;
  size_t nk = val_skip(at), nv = val_skip(at + nk);
  return splice(a, m, at, nk + nv, NULL, 0, NULL, 0, -1);
}

/* keys(m) (values == 0) or values(m) as a seq: the body is measured
** first, so that the header can be written before it. */
static Value map_part(ValArena *a, const Value *m, int values) {
  uint32_t n = val_count(m);
  const uint8_t *r = body_of(m);
  size_t body = 0;
  for (uint32_t i = 0; i < n; i++) {
    size_t nk = val_skip(r), nv = val_skip(r + nk);
    body += values ? nv : nk;
    r += nk + nv;
  }
  size_t h = hdr_size(VT_SEQ, body, 0);
  uint8_t *p = valarena_alloc(a, h + body), *w = p + hdr_put(p, VT_SEQ, body, n, 0);
  r = body_of(m);
  for (uint32_t i = 0; i < n; i++) {
    size_t nk = val_skip(r), nv = val_skip(r + nk);
    if (values) memcpy(w, r + nk, nv); else memcpy(w, r, nk);
    w += values ? nv : nk;
    r += nk + nv;
  }
  return compound(p, h + body);
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
  uint8_t sbuf[32 * VAL_SCALAR_MAX], *sc = sbuf;
  if (n > 32) {
    pc = xmalloc(n * sizeof *pc);
    sc = xmalloc((size_t)n * VAL_SCALAR_MAX);
  }
  for (uint32_t i = 0; i < n; i++) pc[i].p = enc_of(&elems[i], sc + (size_t)i * VAL_SCALAR_MAX, &pc[i].n);
  qsort(pc, n, sizeof *pc, piece_cmp);
  uint32_t m = 0;
  size_t body = 0;
  for (uint32_t i = 0; i < n; i++) {
    if (m && piece_cmp(&pc[m - 1], &pc[i]) == 0) continue;
    pc[m++] = pc[i];
    body += pc[i].n;
  }
  size_t h = hdr_size(VT_SET, body, 0);
  assert(h + body <= UINT32_MAX);
  uint8_t *p = valarena_alloc(a, h + body), *w = p + hdr_put(p, VT_SET, body, m, 0);
  for (uint32_t i = 0; i < m; i++) {
    memcpy(w, pc[i].p, pc[i].n);
    w += pc[i].n;
  }
  if (pc != spc) { free(pc); free(sc); }
  return compound(p, h + body);
}

/* ---- strings ---- */

/* The bytes point into s's encoding (not NUL-terminated: use *n); a value
** that is not a string reads as "" of length 0, so callers need no
** check. */
const char *val_str(const Value *s, uint32_t *n) {
  if (s->tag != VT_STRING) { *n = 0; return ""; }
  *n = body_len(s->u.p);
  return (const char *)body_of(s);
}

/* A new string in the arena: x's bytes then y's (non-strings count as
** ""). */
Value val_concat(ValArena *a, const Value *x, const Value *y) {
  uint32_t nx, ny;
  const char *sx = val_str(x, &nx), *sy = val_str(y, &ny);
  size_t body = (size_t)nx + ny, h = hdr_size(VT_STRING, body, 0);
  assert(h + body <= UINT32_MAX);
  uint8_t *p = valarena_alloc(a, h + body);
  hdr_put(p, VT_STRING, body, 0, 0);
  if (nx) memcpy(p + h, sx, nx);
  if (ny) memcpy(p + h + nx, sy, ny);
  return compound(p, h + body);
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

/* Appends v's text to b.  names may be NULL, or lack any callback: then
** events, machines and enum members print as event#N, machine#N and
** enum#E:V, named-tuple fields without names.  Strings are written as
** their bytes, without quotes or escapes.  Recursive over nesting. */
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
    uint16_t shape = val_tuple_shape(v);
    const uint8_t *p = body_of(v);
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
