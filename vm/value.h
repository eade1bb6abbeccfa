/* value.h: P values in the VM.  A Value is 16 bytes: scalars unboxed, and
** compound values (string, tuple, seq, set, map) as a pointer to their
** canonical encoding.  Encodings are immutable byte strings: "changing" a
** map builds a new encoding, which gives P's value semantics for free.
** Equal values have equal encodings (maps and sets are kept sorted by the
** canonical order of their keys' encodings; -0.0 is stored as 0.0 and
** every NaN as one NaN), so equality is memcmp and hashing is XXH3.
**
** Encoding: one tag byte, which says the type and the size of what
** follows (so that skipping a scalar reads only its tag); every value has
** exactly one encoding, the shortest:
**   0x00          null
**   0x01 0x02     false, true
**   0x03          float: f64 little-endian
**   0x80 + i      int i in 0..127
**   0x04 + k-1    int >= 128 in k = 1..8 bytes big-endian, no leading zero byte
**   0x0c + k-1    int < 0: its low k = 1..8 bytes (two's complement) big-endian,
**                 no leading 0xff byte (-256..-1 take one byte)
**   0x14 + w      event id in 1, 2, 4 bytes big-endian (w = 0, 1, 2)
**   0x40 + id     machine id 0..63
**   0x17 + w      machine id >= 64 in 1, 2, 4 bytes big-endian
**   0x1a, 0x1b    enum: enum id in 1 or 2 bytes big-endian, then the value as an int
**   0x1c          the empty string
**   0x1d + w      string: byte count n in 1, 2, 4 bytes, then n bytes
**   0x20 + w      tuple: body bytes and count in 1, 2, 4 bytes each, u8 shape, elements
**   0x23 + w      the same with a u16 shape (shapes above 255)
**   0x26 / 0x2a / 0x2e   the empty seq / set / map
**   0x27 + w      seq: body bytes and count in 1, 2, 4 bytes each, then the elements
**   0x2b + w      set: the same, elements strictly ascending
**   0x2f + w      map: the same (count of entries), (key, value) pairs, keys strictly ascending
**   0x32 .. 0x3f  not tags
** Length and count fields are little-endian and as narrow as the body
** length allows (w = 0 up to 255 bytes, 1 up to 65535, else 2).
** The canonical order of encodings: shorter first, then memcmp.  For ints
** that is 0..127, then 128..255, -256..-1, 256..65535, -65536..-257 and so
** on, each group in numeric order.
** A tuple's shape is 0 for an unnamed tuple, else the named-tuple shape id
** the compiler assigned (its field names), so `any as (a: int)` can check.
**
** Ownership: the bytes a compound Value points to belong to whoever made
** them: the State buffer, or a ValArena that lives for one step. */
#ifndef PCHECK_VALUE_H
#define PCHECK_VALUE_H
#include <stddef.h>
#include <stdint.h>
#include "vm/util.h"

typedef enum ValTag {
  VT_NULL = 0, VT_BOOL = 1, VT_INT = 2, VT_FLOAT = 3, VT_STRING = 4, VT_EVENT = 5,
  VT_MACHINE = 6, VT_ENUM = 7, VT_TUPLE = 8, VT_SEQ = 9, VT_SET = 10, VT_MAP = 11,
} ValTag;

typedef struct Value {
  uint8_t tag;           /* ValTag */
  uint8_t pad;           /* always 0 */
  uint16_t aux;          /* VT_ENUM: enum id; otherwise 0 */
  uint32_t len;          /* compound: bytes of the encoding at u.p; else 0 */
  union {
    int64_t i;           /* BOOL (0/1), INT, EVENT id, MACHINE id, ENUM value */
    double f;            /* FLOAT */
    const uint8_t *p;    /* compound: the whole encoding, tag byte included */
  } u;
} Value;
_Static_assert(sizeof(Value) == 16, "Value layout");

static inline int val_is_compound(const Value *v) { return v->tag == VT_STRING || v->tag >= VT_TUPLE; }

/* Scratch memory for encodings built during one step; reset between steps. */
typedef struct ValArena {
  Arena *arena;
} ValArena;

/* ---- scalars ---- */
Value val_null(void);
Value val_bool(int b);
Value val_int(int64_t i);
Value val_float(double f);
Value val_event(uint32_t id);
Value val_machine(uint32_t id);
Value val_enum(uint16_t enum_id, int64_t v);
Value val_string(ValArena *a, const char *s, size_t n);

/* ---- encoding ---- */
/* No scalar's encoding is longer (an enum with a 2-byte id and an 8-byte
** value takes 12): room enough for val_encode of any scalar. */
enum { VAL_SCALAR_MAX = 16 };
/* Bytes val_encode would write for v. */
size_t val_enc_size(const Value *v);
/* Write v's encoding at out (val_enc_size(v) bytes); returns bytes written. */
size_t val_encode(const Value *v, uint8_t *out);
/* Decode the encoding at p (at most n bytes) into *v; compound values
** point into p.  Returns the bytes consumed, or 0 if p is malformed. */
size_t val_decode(const uint8_t *p, size_t n, Value *v);
/* Decode a well-formed encoding (one this library wrote) without checks;
** returns its size. */
size_t val_load(const uint8_t *p, Value *v);
/* Size of the encoding at p without decoding it (p well formed). */
size_t val_skip(const uint8_t *p);

/* Called by val_ids for each machine id (tag VT_MACHINE) and event id
** (VT_EVENT) inside an encoding. */
typedef void (*ValIdFn)(void *ctx, uint8_t tag, uint32_t id);
/* Call fn for every machine and event id in the encoding at p (well
** formed), elements of compound values included; returns its size. */
size_t val_ids(const uint8_t *p, ValIdFn fn, void *ctx);

/* ---- comparison ---- */
int val_equal(const Value *a, const Value *b);
/* Canonical order: <0, 0, >0. */
int val_compare(const Value *a, const Value *b);
uint64_t val_hash(const Value *v);

/* ---- compound values; every result is built in the arena ---- */
Value val_tuple(ValArena *a, uint16_t shape, const Value *elems, int n);
/* Element i of a tuple (0-based); the tuple must have > i elements. */
Value val_tuple_get(const Value *t, int i);
Value val_tuple_set(ValArena *a, const Value *t, int i, const Value *x);
int val_tuple_count(const Value *t);
/* The shape of a tuple: 0 unnamed, else the named-tuple shape id. */
uint16_t val_tuple_shape(const Value *t);

Value val_seq_empty(void);
Value val_set_empty(void);
Value val_map_empty(void);
uint32_t val_count(const Value *c);   /* elements of a seq, set or map; bytes of a string */
/* Seq: get/set/insert/remove at index; index errors return 0, else 1. */
int val_seq_get(const Value *s, int64_t i, Value *out);
int val_seq_set(ValArena *a, const Value *s, int64_t i, const Value *x, Value *out);
int val_seq_insert(ValArena *a, const Value *s, int64_t i, const Value *x, Value *out);
int val_seq_remove(ValArena *a, const Value *s, int64_t i, Value *out);
Value val_seq_append(ValArena *a, const Value *s, const Value *x);
/* Set: membership, add, remove (adding a member or removing a non-member
** gives the same set). */
int val_set_has(const Value *s, const Value *x);
Value val_set_add(ValArena *a, const Value *s, const Value *x);
Value val_set_remove(ValArena *a, const Value *s, const Value *x);
/* Map: lookup (returns 0 if absent), put (insert or replace), remove. */
int val_map_get(const Value *m, const Value *k, Value *out);
Value val_map_put(ValArena *a, const Value *m, const Value *k, const Value *v);
Value val_map_remove(ValArena *a, const Value *m, const Value *k);
int val_map_has(const Value *m, const Value *k);
/* keys(m) and values(m) as seqs, in key order. */
Value val_map_keys(ValArena *a, const Value *m);
Value val_map_values(ValArena *a, const Value *m);
/* Element i (0-based, in canonical order) of a seq, set or map's keys. */
Value val_nth(const Value *c, uint32_t i);
/* For map iteration: value of the i-th entry. */
Value val_map_nth_value(const Value *m, uint32_t i);
/* A seq/set/map built from n elements (sets dedupe and sort). */
Value val_seq_from(ValArena *a, const Value *elems, uint32_t n);
Value val_set_from(ValArena *a, const Value *elems, uint32_t n);

/* ---- strings ---- */
Value val_concat(ValArena *a, const Value *x, const Value *y);
/* String bytes (not NUL-terminated) and length. */
const char *val_str(const Value *s, uint32_t *n);

/* ---- printing (P style: 1, true, "abc" as abc, (a = 1, b = 2), [1, 2], {1}, {k -> v}) ----
** Names come from the caller: enum member names, event names, machine
** names and tuple field names are looked up through these callbacks. */
typedef struct ValNames {
  const void *ctx;
  const char *(*event_name)(const void *ctx, uint32_t id);
  const char *(*machine_name)(const void *ctx, uint32_t id);   /* e.g. "Client(2)" */
  const char *(*enum_member)(const void *ctx, uint16_t enum_id, int64_t v);
  const char *(*field_name)(const void *ctx, uint16_t shape, int i);
} ValNames;
void val_print(Buf *b, const Value *v, const ValNames *names);

void valarena_init(ValArena *a);
void valarena_reset(ValArena *a);
void valarena_fini(ValArena *a);
void *valarena_alloc(ValArena *a, size_t n);

#endif
