/* test_value.c: table-driven tests of the canonical value encodings: round
** trips of every tag, canonical order of sets and maps whatever the
** insertion order, collection operations at and beyond their bounds,
** equality/order/hash agreement, float canonicalisation, printing, and
** refusal of truncated, corrupted and hand-made bad encodings.
** Values are written in a small notation (see parse_val) so that each row
** of a table is one line. */
#include <config.h>
#include "tests/unit/check_main.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "vm/value.h"

/* ---- building values from text ----
** 1 -2 (int)  1.5 -0.0 nan inf (float)  true false null  "s" ("\0" is a NUL)
** e3 (event 3)  m2 (machine 2)  E1:5 (enum 1, value 5)
** (1, x) tuple  #7(1, x) tuple of shape 7  [..] seq  {..} set  {k -> v, ..} map
** {} empty set  {->} empty map.  Sets and maps are built with val_set_add
** and val_map_put in the order written. */
typedef struct Src {
  const char *s;         /* next character */
  ValArena *a;           /* where compound values are built */
} Src;

static void ws(Src *p) { while (*p->s == ' ') p->s++; }

static int eat(Src *p, const char *tok) {
  ws(p);
  size_t n = strlen(tok);
  if (strncmp(p->s, tok, n) != 0) return 0;
  p->s += n;
  return 1;
}

static Value parse_val(Src *p);

/* Elements up to the closing character; returns their number. */
static int parse_list(Src *p, char close, Value *out, int max) {
  int n = 0;
  ws(p);
  if (*p->s == close) { p->s++; return 0; }
  for (;;) {
    ck_assert_int_lt(n, max);
    out[n++] = parse_val(p);
    ws(p);
    if (*p->s == ',') {
      p->s++;
      ws(p);
      if (*p->s == close) { p->s++; return n; }
    } else {
      ck_assert_msg(*p->s == close, "expected '%c' at '%s'", close, p->s);
      p->s++;
      return n;
    }
  }
}

static Value parse_val(Src *p) {
  Value e[64];
  ws(p);
  const char *s = p->s;
  if (*s == '(' || *s == '#') {
    uint16_t shape = 0;
    if (*s == '#') { shape = (uint16_t)strtoul(s + 1, (char **)&p->s, 10); s = p->s; }
    ck_assert(*s == '(');
    p->s++;
    int n = parse_list(p, ')', e, 64);
    return val_tuple(p->a, shape, e, n);
  }
  if (*s == '[') {
    p->s++;
    Value q = val_seq_empty();
    int n = parse_list(p, ']', e, 64);
    for (int i = 0; i < n; i++) q = val_seq_append(p->a, &q, &e[i]);
    return q;
  }
  if (*s == '{') {
    p->s++;
    if (eat(p, "}")) return val_set_empty();
    if (eat(p, "->")) { ck_assert(eat(p, "}")); return val_map_empty(); }
    Value first = parse_val(p);
    if (eat(p, "->")) {
      Value m = val_map_empty(), k = first;
      for (;;) {
        Value v = parse_val(p);
        m = val_map_put(p->a, &m, &k, &v);
        if (eat(p, "}")) return m;
        ck_assert(eat(p, ","));
        k = parse_val(p);
        ck_assert(eat(p, "->"));
      }
    }
    Value st = val_set_empty();
    st = val_set_add(p->a, &st, &first);
    for (;;) {
      if (eat(p, "}")) return st;
      ck_assert(eat(p, ","));
      Value x = parse_val(p);
      st = val_set_add(p->a, &st, &x);
    }
  }
  if (*s == '"') {
    char buf[256];
    size_t n = 0;
    for (s++; *s != '"'; s++) {
      ck_assert(*s && n < sizeof buf);
      if (*s == '\\' && s[1] == '0') { buf[n++] = 0; s++; } else buf[n++] = *s;
    }
    p->s = s + 1;
    return val_string(p->a, buf, n);
  }
  if (eat(p, "true")) return val_bool(1);
  if (eat(p, "false")) return val_bool(0);
  if (eat(p, "null")) return val_null();
  if (*s == 'e' || *s == 'm') {
    uint32_t id = (uint32_t)strtoul(s + 1, (char **)&p->s, 10);
    return *s == 'e' ? val_event(id) : val_machine(id);
  }
  if (*s == 'E') {
    uint16_t id = (uint16_t)strtoul(s + 1, (char **)&p->s, 10);
    ck_assert(*p->s == ':');
    int64_t x = strtoll(p->s + 1, (char **)&p->s, 10);
    return val_enum(id, x);
  }
  size_t n = strspn(s, "+-0123456789.eEnaif");
  ck_assert_msg(n > 0, "bad value text at '%s'", s);
  if (strcspn(s, ".eEnaif") < n) return val_float(strtod(s, (char **)&p->s));
  return val_int(strtoll(s, (char **)&p->s, 10));
}

static Value parse(ValArena *a, const char *text) {
  Src p = {text, a};
  Value v = parse_val(&p);
  ws(&p);
  ck_assert_msg(*p.s == 0, "trailing text in '%s'", text);
  return v;
}

/* ---- helpers ---- */

static const char *ev_name(const void *ctx, uint32_t id) { (void)ctx; return id == 1 ? "ePing" : NULL; }
static const char *m_name(const void *ctx, uint32_t id) {
  (void)ctx;
  static const char *const names[] = {NULL, "Main(1)", "Client(2)"};
  return id < 3 ? names[id] : NULL;
}
static const char *en_name(const void *ctx, uint16_t e, int64_t v) {
  (void)ctx;
  return e == 1 && v == 5 ? "Red" : NULL;
}
static const char *fld_name(const void *ctx, uint16_t shape, int i) {
  (void)ctx;
  static const char *const f[] = {"a", "b", "c"};
  return shape == 7 && i < 3 ? f[i] : NULL;
}
static const ValNames all_names = {NULL, ev_name, m_name, en_name, fld_name};
static const ValNames no_callbacks = {NULL, NULL, NULL, NULL, NULL};

/* The printed form of v, in a heap string. */
static char *show(const Value *v, const ValNames *names) {
  Buf b;
  buf_init(&b);
  val_print(&b, v, names);
  return buf_take(&b);
}

static void ck_show(const Value *v, const ValNames *names, const char *want) {
  char *got = show(v, names);
  ck_assert_str_eq(got, want);
  free(got);
}

/* v's encoding in a heap block of exactly val_enc_size(v) bytes. */
static uint8_t *enc(const Value *v, size_t *n) {
  *n = val_enc_size(v);
  uint8_t *p = xmalloc(*n);
  ck_assert_uint_eq(val_encode(v, p), *n);
  return p;
}

static int same_bytes(const Value *a, const Value *b) {
  size_t na, nb;
  uint8_t *pa = enc(a, &na), *pb = enc(b, &nb);
  int r = na == nb && memcmp(pa, pb, na) == 0;
  free(pa);
  free(pb);
  return r;
}

/* Canonical order computed independently of the library. */
static int ref_cmp(const Value *a, const Value *b) {
  size_t na, nb;
  uint8_t *pa = enc(a, &na), *pb = enc(b, &nb);
  int r = na != nb ? (na < nb ? -1 : 1) : memcmp(pa, pb, na);
  free(pa);
  free(pb);
  return r < 0 ? -1 : r > 0;
}

static int sign(int x) { return x < 0 ? -1 : x > 0; }

/* Decode n bytes copied into a block of exactly n bytes, so that ASan
** sees any read past the end. */
static size_t decode_exact(const uint8_t *p, size_t n, Value *v) {
  uint8_t *q = xmalloc(n);
  if (n) memcpy(q, p, n);
  size_t k = val_decode(q, n, v);
  if (k) {   /* whatever was accepted must be usable: walk it all */
    char *s = show(v, NULL);
    free(s);
    (void)val_hash(v);
    ck_assert_uint_eq(val_skip(q), k);
    ck_assert_uint_eq(val_enc_size(v), k);
  }
  free(q);
  return k;
}

/* ---- round trips, one row per value; the printed form with no names ---- */
static const struct { const char *src, *printed; } rt_rows[] = {
  {"null", NULL},
  {"true", NULL},
  {"false", NULL},
  {"0", NULL},
  {"-1", NULL},
  {"9223372036854775807", NULL},
  {"-9223372036854775808", NULL},
  {"2.5", NULL},
  {"-0.0", "0"},
  {"0.1", NULL},
  {"1e+100", NULL},
  {"nan", NULL},
  {"-inf", NULL},
  {"e0", "event#0"},
  {"e4294967295", "event#4294967295"},
  {"m2", "machine#2"},
  {"E1:5", "enum#1:5"},
  {"E65535:-7", "enum#65535:-7"},
  {"\"\"", ""},
  {"\"hello\"", "hello"},
  {"\"a\\0b\"", NULL},   /* compared by length below */
  {"(1, true)", NULL},
  {"(7,)", NULL},
  {"()", NULL},
  {"#7(1, \"x\")", "(1, x)"},
  {"[]", NULL},
  {"[1, 2, 1]", NULL},
  {"{}", NULL},
  {"{->}", "{}"},
  {"{3, 1, 2}", "{1, 2, 3}"},
  {"{\"b\", \"a\", \"ab\"}", "{a, b, ab}"},
  {"{2 -> true, 1 -> false}", "{1 -> false, 2 -> true}"},
  {"[(1, [2, {3}]), {(\"k\", e1) -> [m1, E2:3]}, null]", "[(1, [2, {3}]), {(k, event#1) -> [machine#1, enum#2:3]}, null]"},
  {"{[1], [], [2, 3]}", "{[], [1], [2, 3]}"},
  {"{{1 -> 2} -> {3}, {->} -> {}}", "{{} -> {}, {1 -> 2} -> {3}}"},
  {"((((((((1,),),),),),),),)", NULL},
};

/* fmt_grouped: commas every three digits; 27 bytes hold UINT64_MAX whole;
** a smaller buffer gets a prefix, never an overrun. */
static const struct { uint64_t v; size_t n; const char *want; } grouped[] = {
  { 0, 8, "0" }, { 999, 8, "999" }, { 1000, 8, "1,000" }, { 1234567, 16, "1,234,567" },
  { UINT64_MAX, 27, "18,446,744,073,709,551,615" }, { UINT64_MAX, 26, "18,446,744,073,709,551,61" },
  { 1234567, 6, "1,234" }, { 1234, 1, "" },
};
START_TEST(test_grouped) {
  char b[40];
  memset(b, 'x', sizeof b);
  fmt_grouped(b, grouped[_i].n, grouped[_i].v);
  ck_assert_str_eq(b, grouped[_i].want);
  ck_assert_int_eq(b[grouped[_i].n], 'x');   /* nothing written past n */
}
END_TEST

START_TEST(test_round_trip) {
  ValArena va;
  valarena_init(&va);
  Value v = parse(&va, rt_rows[_i].src);
  size_t n;
  uint8_t *buf = enc(&v, &n);
  Value back;
  ck_assert_uint_eq(val_decode(buf, n, &back), n);
  ck_assert_msg(val_equal(&back, &v), "%s", rt_rows[_i].src);
  ck_assert_uint_eq(val_hash(&back), val_hash(&v));
  ck_assert_int_eq(val_compare(&back, &v), 0);
  ck_assert(same_bytes(&back, &v));
  ck_assert_uint_eq(val_skip(buf), n);
  Value loaded;
  ck_assert_uint_eq(val_load(buf, &loaded), n);
  ck_assert(val_equal(&loaded, &v));
  ck_assert_uint_eq(back.pad, 0);
  /* trailing bytes are not part of the value */
  uint8_t *longer = xmalloc(n + 3);
  memcpy(longer, buf, n);
  memset(longer + n, 0xee, 3);
  ck_assert_uint_eq(val_decode(longer, n + 3, &back), n);
  free(longer);
  /* printing */
  const char *want = rt_rows[_i].printed ? rt_rows[_i].printed : rt_rows[_i].src;
  char *got = show(&v, NULL);
  if (strchr(rt_rows[_i].src, '\\')) ck_assert_uint_eq(strlen(got), 1);   /* "a\0b" stops at the NUL */
  else ck_assert_str_eq(got, want);
  free(got);
  free(buf);
  valarena_fini(&va);
}
END_TEST

/* Every proper prefix of an encoding is refused; every one-byte change is
** refused or decodes within bounds to something usable. */
START_TEST(test_damage) {
  ValArena va;
  valarena_init(&va);
  Value v = parse(&va, rt_rows[_i].src), back;
  size_t n;
  uint8_t *buf = enc(&v, &n);
  for (size_t k = 0; k < n; k++) ck_assert_msg(decode_exact(buf, k, &back) == 0, "%s: prefix %zu", rt_rows[_i].src, k);
  static const uint8_t flips[] = {0x01, 0x02, 0x80, 0xff, 0x10, 0x7f};
  uint8_t *d = xmalloc(n);
  for (size_t k = 0; k < n; k++) {
    for (size_t f = 0; f < sizeof flips + 2; f++) {
      memcpy(d, buf, n);
      if (f < sizeof flips) d[k] ^= flips[f];
      else d[k] = f == sizeof flips ? 0 : 0xff;
      size_t got = decode_exact(d, n, &back);
      ck_assert_uint_le(got, n);
    }
  }
  free(d);
  free(buf);
  valarena_fini(&va);
}
END_TEST

/* Many random multi-byte corruptions of one large nested encoding. */
START_TEST(test_random_damage) {
  ValArena va;
  valarena_init(&va);
  Value v = parse(&va, "[(1, [2, {3, 4}], \"xy\"), {(\"k\", e1) -> [m1, E2:3], (\"a\", e2) -> {}}, "
                       "{1.5, -2.0, nan}, #3(null, true, {[1], [2, 3]}), \"\"]");
  size_t n;
  uint8_t *buf = enc(&v, &n), *d = xmalloc(n);
  uint64_t x = 88172645463325252u;
  int accepted = 0;
  for (int round = 0; round < 20000; round++) {
    memcpy(d, buf, n);
    int nflip = 1 + round % 4;
    for (int j = 0; j < nflip; j++) {
      x ^= x << 13; x ^= x >> 7; x ^= x << 17;
      d[(x >> 8) % n] = (uint8_t)x;
    }
    Value back;
    size_t len = (size_t)((x >> 32) % (n + 1));   /* sometimes truncated too */
    if (round % 3) len = n;
    size_t got = decode_exact(d, len, &back);
    ck_assert_uint_le(got, len);
    accepted += got != 0;
  }
  ck_assert_int_gt(accepted, 0);   /* some changes (e.g. to an int) are fine */
  free(d);
  free(buf);
  valarena_fini(&va);
}
END_TEST

/* ---- hand-made encodings: accepted size, or 0 when refused ---- */
#define B(...) (const uint8_t[]){__VA_ARGS__}, sizeof((const uint8_t[]){__VA_ARGS__})
static const struct { const char *name; const uint8_t *p; size_t n; size_t want; } dec_rows[] = {
  {"null", B(0), 1},
  {"null+trailing", B(0, 99), 1},
  {"unknown tag", B(0x32), 0},
  {"tag 0x3f", B(0x3f, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0), 0},
  {"false", B(1), 1},
  {"true", B(2), 1},
  {"int 5 in the tag", B(0x85), 1},
  {"int 200", B(0x04, 200), 2},
  {"int 100 outside the tag", B(0x04, 100), 0},
  {"int 255 in 2 bytes", B(0x05, 0, 255), 0},
  {"int 256", B(0x05, 1, 0), 3},
  {"short int", B(0x05, 1), 0},
  {"int -1", B(0x0c, 0xff), 2},
  {"int -256", B(0x0c, 0x00), 2},
  {"int -1 in 2 bytes", B(0x0d, 0xff, 0xff), 0},
  {"int -257", B(0x0d, 0xfe, 0xff), 3},
  {"int max", B(0x0b, 0x7f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff), 9},
  {"positive int with the sign bit", B(0x0b, 0x80, 0, 0, 0, 0, 0, 0, 0), 0},
  {"int min", B(0x13, 0x80, 0, 0, 0, 0, 0, 0, 0), 9},
  {"negative int without the sign bit", B(0x13, 0x7f, 0, 0, 0, 0, 0, 0, 0), 0},
  {"float -0.0", B(3, 0, 0, 0, 0, 0, 0, 0, 0x80), 0},
  {"float NaN payload", B(3, 1, 0, 0, 0, 0, 0, 0xf8, 0x7f), 0},
  {"float -NaN", B(3, 0, 0, 0, 0, 0, 0, 0xf8, 0xff), 0},
  {"float quiet NaN", B(3, 0, 0, 0, 0, 0, 0, 0xf8, 0x7f), 9},
  {"event 1", B(0x14, 1), 2},
  {"short event", B(0x15, 1), 0},
  {"event 1 in 2 bytes", B(0x15, 0, 1), 0},
  {"machine 5 in the tag", B(0x45), 1},
  {"machine 64", B(0x17, 64), 2},
  {"machine 5 outside the tag", B(0x17, 5), 0},
  {"enum 1:5", B(0x1a, 1, 0x85), 3},
  {"short enum", B(0x1a, 1), 0},
  {"enum value not an int", B(0x1a, 1, 0x14, 1), 0},
  {"enum id 1 in 2 bytes", B(0x1b, 0, 1, 0x85), 0},
  {"enum value past the end", B(0x1a, 1, 0x04), 0},
  {"empty string", B(0x1c), 1},
  {"string", B(0x1d, 2, 'a', 'b'), 4},
  {"empty string with a length", B(0x1d, 0), 0},
  {"string too long", B(0x1d, 2, 'a'), 0},
  {"string length in 2 bytes", B(0x1e, 1, 0, 'a'), 0},
  {"string length 2^32-1", B(0x1f, 0xff, 0xff, 0xff, 0xff, 'a'), 0},
  {"empty seq", B(0x26), 1},
  {"seq short header", B(0x27, 1), 0},
  {"seq count > elements", B(0x27, 1, 2, 0x80), 0},
  {"seq count < elements", B(0x27, 2, 1, 0x80, 0x80), 0},
  {"seq count 0, body 1", B(0x27, 1, 0, 0x80), 0},
  {"empty seq with fields", B(0x27, 0, 0), 0},
  {"seq fields of 2 bytes", B(0x28, 1, 0, 1, 0, 0x80), 0},
  {"seq body past end", B(0x27, 5, 1, 0x80), 0},
  {"seq element past body", B(0x27, 1, 1, 0x04, 200), 0},
  {"inner body past outer", B(0x27, 4, 1, 0x27, 2, 1, 0x80, 0x80), 0},
  {"nested seq", B(0x27, 4, 1, 0x27, 1, 1, 0x80), 7},
  {"set ascending", B(0x2b, 2, 2, 0x80, 0x81), 5},
  {"set descending", B(0x2b, 2, 2, 0x81, 0x80), 0},
  {"set longer first", B(0x2b, 3, 2, 0x04, 200, 0x80), 0},
  {"set duplicate", B(0x2b, 2, 2, 0x81, 0x81), 0},
  {"map", B(0x2f, 4, 2, 0x80, 0x81, 0x81, 0x80), 7},
  {"map duplicate key", B(0x2f, 4, 2, 0x80, 0, 0x80, 0), 0},
  {"map keys descending", B(0x2f, 4, 2, 0x81, 0, 0x80, 0), 0},
  {"map values unordered", B(0x2f, 4, 2, 0x80, 0x82, 0x81, 0x80), 7},
  {"map missing value", B(0x2f, 1, 1, 0x80), 0},
  {"tuple", B(0x20, 2, 2, 7, 0x80, 0x81), 6},
  {"empty tuple", B(0x20, 0, 0, 0), 4},
  {"tuple shape 7 in 2 bytes", B(0x23, 2, 2, 7, 0, 0x80, 0x81), 0},
  {"tuple shape 300", B(0x23, 2, 2, 0x2c, 0x01, 0x80, 0x81), 7},
  {"tuple count mismatch", B(0x20, 1, 2, 0, 0x80), 0},
  {"tuple bad element", B(0x20, 2, 1, 0, 0x1a, 1), 0},
  {"set of bad float", B(0x2b, 9, 1, 3, 0, 0, 0, 0, 0, 0, 0, 0x80), 0},
  {"empty input", B(0), 0},   /* decoded with n = 0 below */
};

START_TEST(test_decode_rows) {
  Value v;
  size_t n = strcmp(dec_rows[_i].name, "empty input") == 0 ? 0 : dec_rows[_i].n;
  size_t got = decode_exact(dec_rows[_i].p, n, &v);
  ck_assert_msg(got == dec_rows[_i].want, "%s: got %zu, want %zu", dec_rows[_i].name, got, dec_rows[_i].want);
  if (!got) ck_assert_int_eq(v.tag, VT_NULL);
}
END_TEST

/* Deep nesting: moderate depth round-trips; absurd depth is refused
** without exhausting the stack. */
START_TEST(test_deep) {
  const size_t depths[] = {200, 1000, 100000};
  for (size_t d = 0; d < 3; d++) {
    size_t depth = depths[d], cap = depth * 9 + 1, at = cap - 1;
    uint8_t *p = xmalloc(cap);
    p[at] = 0;   /* [[[...[null]...]]], written from the inside out */
    for (size_t i = 0; i < depth; i++) {
      uint32_t body = (uint32_t)(cap - at), w = body <= 0xff ? 1 : body <= 0xffff ? 2 : 4, one = 1;
      at -= 1 + 2 * w;
      p[at] = (uint8_t)(0x26 + (w == 4 ? 3 : w));   /* a seq with fields of w bytes */
      memcpy(p + at + 1, &body, w);
      memcpy(p + at + 1 + w, &one, w);
    }
    size_t n = cap - at;
    Value v;
    size_t got = val_decode(p + at, n, &v);
    if (depth <= 1000) {
      ck_assert_uint_eq(got, n);
      ck_assert_uint_eq(val_count(&v), 1);
    } else {
      ck_assert_uint_eq(got, 0);
    }
    free(p);
  }
}
END_TEST

/* ---- canonical order: every insertion order gives the same bytes ---- */
START_TEST(test_canonical_order) {
  ValArena va;
  valarena_init(&va);
  const char *keys[6] = {"\"delta\"", "2", "(1, \"x\")", "{3, 4}", "-1.5", "null"};
  Value k[6];
  for (int i = 0; i < 6; i++) k[i] = parse(&va, keys[i]);
  int perm[6] = {0, 1, 2, 3, 4, 5}, nperm = 0;
  Value set0 = {0}, map0 = {0};
  for (;;) {
    Value st = val_set_empty(), mp = val_map_empty(), with_dups[12];
    for (int i = 0; i < 6; i++) {
      Value x = k[perm[i]], y = val_int(perm[i]);
      st = val_set_add(&va, &st, &x);
      mp = val_map_put(&va, &mp, &x, &y);
      with_dups[2 * i] = x;
      with_dups[2 * i + 1] = k[perm[(i + 3) % 6]];
    }
    Value from = val_set_from(&va, with_dups, 12);
    if (nperm == 0) {
      set0 = st;
      map0 = mp;
      ck_assert_uint_eq(val_count(&st), 6);
      ck_assert_uint_eq(val_count(&mp), 6);
      for (uint32_t i = 1; i < 6; i++) {   /* strictly ascending */
        Value a = val_nth(&st, i - 1), b = val_nth(&st, i);
        ck_assert_int_lt(val_compare(&a, &b), 0);
      }
    } else {
      ck_assert(st.len == set0.len && memcmp(st.u.p, set0.u.p, st.len) == 0);
      ck_assert(mp.len == map0.len && memcmp(mp.u.p, map0.u.p, mp.len) == 0);
    }
    ck_assert(from.len == set0.len && memcmp(from.u.p, set0.u.p, from.len) == 0);
    nperm++;
    /* next permutation */
    int i = 4;
    while (i >= 0 && perm[i] > perm[i + 1]) i--;
    if (i < 0) break;
    int j = 5;
    while (perm[j] < perm[i]) j--;
    int t = perm[i]; perm[i] = perm[j]; perm[j] = t;
    for (int l = i + 1, r = 5; l < r; l++, r--) { t = perm[l]; perm[l] = perm[r]; perm[r] = t; }
  }
  ck_assert_int_eq(nperm, 720);
  valarena_fini(&va);
}
END_TEST

/* val_set_from: dedupes and sorts, big inputs included. */
START_TEST(test_set_from) {
  ValArena va;
  valarena_init(&va);
  enum { N = 1000 };
  Value *e = xmalloc(N * sizeof *e);
  Value st = val_set_empty();
  for (int i = 0; i < N; i++) {
    int x = (i * 37) % 300;
    e[i] = i % 2 ? val_int(x) : val_string(&va, (char[]){(char)('a' + x % 26), (char)('a' + x / 26)}, 2);
    st = val_set_add(&va, &st, &e[i]);
  }
  Value from = val_set_from(&va, e, N);
  ck_assert(val_equal(&from, &st));
  ck_assert_uint_eq(val_count(&from), val_count(&st));
  Value none = val_set_from(&va, e, 0);
  ck_show(&none, NULL, "{}");
  Value one = val_set_from(&va, e + 1, 1);
  ck_show(&one, NULL, "{37}");
  free(e);
  valarena_fini(&va);
}
END_TEST

/* ---- seq operations from a fresh seq, one row each ---- */
static const struct { const char *start; char op; int64_t i; const char *x; int ret; const char *want; } seq_rows[] = {
  {"[10, 20, 30]", 'g', 0, NULL, 1, "10"},
  {"[10, 20, 30]", 'g', 2, NULL, 1, "30"},
  {"[10, 20, 30]", 'g', 3, NULL, 0, NULL},
  {"[10, 20, 30]", 'g', -1, NULL, 0, NULL},
  {"[]", 'g', 0, NULL, 0, NULL},
  {"[10, 20, 30]", 'i', 0, "5", 1, "[5, 10, 20, 30]"},
  {"[10, 20, 30]", 'i', 1, "\"s\"", 1, "[10, s, 20, 30]"},
  {"[10, 20, 30]", 'i', 3, "[1]", 1, "[10, 20, 30, [1]]"},
  {"[10, 20, 30]", 'i', 4, "5", 0, NULL},
  {"[10, 20, 30]", 'i', -1, "5", 0, NULL},
  {"[10, 20, 30]", 'i', INT64_MAX, "5", 0, NULL},
  {"[10, 20, 30]", 'i', INT64_MIN, "5", 0, NULL},
  {"[10, 20, 30]", 'i', 4294967296, "5", 0, NULL},
  {"[]", 'i', 0, "true", 1, "[true]"},
  {"[]", 'i', 1, "true", 0, NULL},
  {"[10, 20, 30]", 's', 0, "(1, 2)", 1, "[(1, 2), 20, 30]"},
  {"[10, 20, 30]", 's', 2, "null", 1, "[10, 20, null]"},
  {"[10, 20, 30]", 's', 1, "20", 1, "[10, 20, 30]"},
  {"[10, 20, 30]", 's', 3, "1", 0, NULL},
  {"[10, 20, 30]", 's', -1, "1", 0, NULL},
  {"[10, 20, 30]", 'r', 0, NULL, 1, "[20, 30]"},
  {"[10, 20, 30]", 'r', 1, NULL, 1, "[10, 30]"},
  {"[10, 20, 30]", 'r', 2, NULL, 1, "[10, 20]"},
  {"[10, 20, 30]", 'r', 3, NULL, 0, NULL},
  {"[10, 20, 30]", 'r', -1, NULL, 0, NULL},
  {"[\"x\"]", 'r', 0, NULL, 1, "[]"},
  {"[]", 'r', 0, NULL, 0, NULL},
  {"[10, 20, 30]", 'a', 0, "{1}", 1, "[10, 20, 30, {1}]"},
  {"[]", 'a', 0, "1", 1, "[1]"},
};

START_TEST(test_seq_ops) {
  ValArena va;
  valarena_init(&va);
  Value s = parse(&va, seq_rows[_i].start), keep = s, out = val_null(), x = val_null();
  if (seq_rows[_i].x) x = parse(&va, seq_rows[_i].x);
  int64_t i = seq_rows[_i].i;
  int ret = 1;
  switch (seq_rows[_i].op) {
  case 'g': ret = val_seq_get(&s, i, &out); break;
  case 'i': ret = val_seq_insert(&va, &s, i, &x, &out); break;
  case 's': ret = val_seq_set(&va, &s, i, &x, &out); break;
  case 'r': ret = val_seq_remove(&va, &s, i, &out); break;
  case 'a': out = val_seq_append(&va, &s, &x); break;
  }
  ck_assert_int_eq(ret, seq_rows[_i].ret);
  if (ret) ck_show(&out, NULL, seq_rows[_i].want);
  if (ret && seq_rows[_i].op != 'g') {   /* a well-formed encoding that decodes the same */
    Value back;
    ck_assert_uint_eq(val_decode(out.u.p, out.len, &back), out.len);
  }
  ck_assert(val_equal(&s, &keep));   /* values never change in place */
  char *orig = show(&s, NULL), *want = show(&keep, NULL);
  ck_assert_str_eq(orig, want);
  free(orig);
  free(want);
  valarena_fini(&va);
}
END_TEST

/* ---- set operations ---- */
static const struct { const char *start; char op; const char *x; const char *want; int same; } set_rows[] = {
  {"{1, 2}", 'a', "1", "{1, 2}", 1},
  {"{1, 2}", 'a', "3", "{1, 2, 3}", 0},
  {"{1, 2}", 'a', "\"1\"", "{1, 2, 1}", 0},   /* the string "1": 3 bytes, after the 1-byte ints */
  {"{1, 2}", 'a', "null", "{null, 1, 2}", 0},
  {"{1, 2}", 'r', "5", "{1, 2}", 1},
  {"{1, 2}", 'r', "1", "{2}", 0},
  {"{1}", 'r', "1", "{}", 0},
  {"{}", 'r', "1", "{}", 1},
  {"{}", 'a', "{}", "{{}}", 0},
  {"{(1, 2), (2, 1)}", 'r', "(2, 1)", "{(1, 2)}", 0},
  {"{(1, 2), (2, 1)}", 'a', "#5(2, 1)", NULL, 0},   /* another shape: another value */
  {"{0.0}", 'a', "-0.0", "{0}", 1},
  {"{nan}", 'a', "-nan", "{nan}", 1},
};

START_TEST(test_set_ops) {
  ValArena va;
  valarena_init(&va);
  Value s = parse(&va, set_rows[_i].start), x = parse(&va, set_rows[_i].x), out;
  int add = set_rows[_i].op == 'a';
  out = add ? val_set_add(&va, &s, &x) : val_set_remove(&va, &s, &x);
  if (set_rows[_i].want) ck_show(&out, NULL, set_rows[_i].want);
  ck_assert_int_eq(val_equal(&out, &s), set_rows[_i].same);
  ck_assert_int_eq(val_set_has(&out, &x), add);
  ck_assert_int_eq(val_set_has(&s, &x), add == set_rows[_i].same);
  /* idempotent, and the inverse gives back the original when it changed */
  Value again = add ? val_set_add(&va, &out, &x) : val_set_remove(&va, &out, &x);
  ck_assert(val_equal(&again, &out));
  if (!set_rows[_i].same) {
    Value undo = add ? val_set_remove(&va, &out, &x) : val_set_add(&va, &out, &x);
    ck_assert(same_bytes(&undo, &s));
  }
  Value back;
  ck_assert_uint_eq(val_decode(out.u.p, out.len, &back), out.len);
  valarena_fini(&va);
}
END_TEST

/* ---- map operations; for 'g' the result is the value found ---- */
static const struct { const char *start; char op; const char *k, *v; int ret; const char *want; } map_rows[] = {
  {"{1 -> true, 2 -> false}", 'p', "3", "true", 1, "{1 -> true, 2 -> false, 3 -> true}"},
  {"{1 -> true, 2 -> false}", 'p', "2", "true", 1, "{1 -> true, 2 -> true}"},
  {"{1 -> true, 2 -> false}", 'p', "2", "false", 1, "{1 -> true, 2 -> false}"},
  {"{1 -> true, 2 -> false}", 'p', "1", "[1, 2, 3]", 1, "{1 -> [1, 2, 3], 2 -> false}"},
  {"{1 -> [1, 2, 3]}", 'p', "1", "null", 1, "{1 -> null}"},
  {"{->}", 'p', "\"k\"", "1", 1, "{k -> 1}"},
  {"{\"bb\" -> 1}", 'p', "\"a\"", "2", 1, "{a -> 2, bb -> 1}"},
  {"{\"bb\" -> 1}", 'p', "\"cc\"", "2", 1, "{bb -> 1, cc -> 2}"},
  {"{1 -> true, 2 -> false}", 'r', "1", NULL, 1, "{2 -> false}"},
  {"{1 -> true, 2 -> false}", 'r', "2", NULL, 1, "{1 -> true}"},
  {"{1 -> true, 2 -> false}", 'r', "7", NULL, 1, "{1 -> true, 2 -> false}"},
  {"{1 -> true}", 'r', "1", NULL, 1, "{}"},
  {"{->}", 'r', "1", NULL, 1, "{}"},
  {"{1 -> true, 2 -> false}", 'g', "2", NULL, 1, "false"},
  {"{1 -> true, 2 -> false}", 'g', "3", NULL, 0, NULL},
  {"{1 -> true, 2 -> false}", 'g', "1.0", NULL, 0, NULL},   /* a float is not an int */
  {"{->}", 'g', "1", NULL, 0, NULL},
  {"{(1, \"a\") -> {2}, [] -> e1}", 'g', "(1, \"a\")", NULL, 1, "{2}"},
  {"{(1, \"a\") -> {2}, [] -> e1}", 'g', "[]", NULL, 1, "event#1"},
  {"{(1, \"a\") -> {2}, [] -> e1}", 'g', "{}", NULL, 0, NULL},   /* set, not seq */
  {"{1 -> true, 2 -> false}", 'k', NULL, NULL, 1, "[1, 2]"},
  {"{1 -> true, 2 -> false}", 'v', NULL, NULL, 1, "[true, false]"},
  {"{\"b\" -> [1], \"a\" -> {}}", 'k', NULL, NULL, 1, "[a, b]"},
  {"{\"b\" -> [1], \"a\" -> {}}", 'v', NULL, NULL, 1, "[{}, [1]]"},
  {"{->}", 'k', NULL, NULL, 1, "[]"},
  {"{->}", 'v', NULL, NULL, 1, "[]"},
};

START_TEST(test_map_ops) {
  ValArena va;
  valarena_init(&va);
  Value m = parse(&va, map_rows[_i].start), keep = m, out = val_null(), k = val_null(), v = val_null();
  if (map_rows[_i].k) k = parse(&va, map_rows[_i].k);
  if (map_rows[_i].v) v = parse(&va, map_rows[_i].v);
  int ret = 1;
  switch (map_rows[_i].op) {
  case 'p':
    out = val_map_put(&va, &m, &k, &v);
    ck_assert(val_map_has(&out, &k));
    Value got;
    ck_assert(val_map_get(&out, &k, &got) && val_equal(&got, &v));
    break;
  case 'r':
    out = val_map_remove(&va, &m, &k);
    ck_assert(!val_map_has(&out, &k));
    ck_assert_uint_eq(val_count(&out), val_count(&m) - (uint32_t)val_map_has(&m, &k));
    break;
  case 'g':
    ret = val_map_get(&m, &k, &out);
    ck_assert_int_eq(val_map_has(&m, &k), ret);
    break;
  case 'k': out = val_map_keys(&va, &m); break;
  case 'v': out = val_map_values(&va, &m); break;
  }
  ck_assert_int_eq(ret, map_rows[_i].ret);
  if (ret) ck_show(&out, NULL, map_rows[_i].want);
  if (ret && val_is_compound(&out)) {
    Value back;
    ck_assert_uint_eq(val_decode(out.u.p, out.len, &back), out.len);
  }
  if (map_rows[_i].op == 'k' || map_rows[_i].op == 'v') {   /* agree with iteration */
    ck_assert_uint_eq(val_count(&out), val_count(&m));
    for (uint32_t i = 0; i < val_count(&m); i++) {
      Value a = val_nth(&out, i), b = map_rows[_i].op == 'k' ? val_nth(&m, i) : val_map_nth_value(&m, i);
      ck_assert(val_equal(&a, &b));
    }
  }
  ck_assert(val_equal(&m, &keep));
  valarena_fini(&va);
}
END_TEST

/* ---- tuples ---- */
static const struct { const char *start; int i; const char *x, *get, *after; } tuple_rows[] = {
  {"(1, true)", 0, "\"long string\"", "1", "(long string, true)"},
  {"(1, true)", 1, "[1]", "true", "(1, [1])"},
  {"(7,)", 0, "8", "7", "(8,)"},
  {"#7((1, 2), {3}, \"z\")", 2, "null", "z", "(a = (1, 2), b = {3}, c = null)"},
  {"#7((1, 2), {3}, \"z\")", 0, "()", "(1, 2)", "(a = (), b = {3}, c = z)"},
};

START_TEST(test_tuples) {
  ValArena va;
  valarena_init(&va);
  Value t = parse(&va, tuple_rows[_i].start), x = parse(&va, tuple_rows[_i].x);
  Value g = val_tuple_get(&t, tuple_rows[_i].i);
  ck_show(&g, NULL, tuple_rows[_i].get);
  Value u = val_tuple_set(&va, &t, tuple_rows[_i].i, &x);
  ck_show(&u, &all_names, tuple_rows[_i].after);
  ck_assert_int_eq(val_tuple_count(&u), val_tuple_count(&t));
  ck_assert_uint_eq(val_count(&u), (uint32_t)val_tuple_count(&t));
  ck_assert_uint_eq(val_tuple_shape(&u), val_tuple_shape(&t));   /* shape kept */
  Value back;
  ck_assert_uint_eq(val_decode(u.u.p, u.len, &back), u.len);
  Value g2 = val_tuple_get(&u, tuple_rows[_i].i);
  ck_assert(val_equal(&g2, &x));
  valarena_fini(&va);
}
END_TEST

/* ---- equality, order and hash agree ---- */
/* Pairwise distinct values. */
static const char *const distinct[] = {
  "null", "true", "false", "0", "1", "-1", "256", "0.0", "1.0", "nan", "inf", "e0", "e1", "m0", "m1",
  "E0:1", "E1:1", "E1:0", "\"\"", "\"1\"", "\"a\\0\"", "\"a\"", "()", "(1,)", "#1(1,)", "(1, 2)", "(2, 1)",
  "[]", "[1]", "[1, 2]", "[2, 1]", "{}", "{->}", "{1}", "{1, 2}", "{1 -> 2}", "{2 -> 1}", "[{}]", "[{->}]",
};
/* Pairs that are the same value, however they were built. */
static const struct { const char *a, *b; } equal_pairs[] = {
  {"0.0", "-0.0"},
  {"nan", "-nan"},
  {"{1, 2}", "{2, 1, 2}"},
  {"{1 -> 2, 3 -> 4}", "{3 -> 4, 1 -> 0, 1 -> 2}"},
  {"[{\"a\", \"b\"}]", "[{\"b\", \"a\"}]"},
  {"{{1, 2} -> 1}", "{{2, 1} -> 1}"},
};

START_TEST(test_equality) {
  ValArena va;
  valarena_init(&va);
  enum { ND = sizeof distinct / sizeof distinct[0] };
  Value v[ND];
  for (int i = 0; i < ND; i++) v[i] = parse(&va, distinct[i]);
  for (int i = 0; i < ND; i++) {
    for (int j = 0; j < ND; j++) {
      int eq = val_equal(&v[i], &v[j]), c = val_compare(&v[i], &v[j]);
      ck_assert_msg(eq == (i == j), "%s vs %s", distinct[i], distinct[j]);
      ck_assert_int_eq(sign(c), ref_cmp(&v[i], &v[j]));
      ck_assert_int_eq(sign(c), -sign(val_compare(&v[j], &v[i])));
      ck_assert_int_eq(c == 0, eq);
      if (i != j) ck_assert_msg(val_hash(&v[i]) != val_hash(&v[j]), "%s vs %s", distinct[i], distinct[j]);
    }
  }
  for (size_t i = 0; i < sizeof equal_pairs / sizeof equal_pairs[0]; i++) {
    Value a = parse(&va, equal_pairs[i].a), b = parse(&va, equal_pairs[i].b);
    ck_assert_msg(val_equal(&a, &b), "%s vs %s", equal_pairs[i].a, equal_pairs[i].b);
    ck_assert_int_eq(val_compare(&a, &b), 0);
    ck_assert_uint_eq(val_hash(&a), val_hash(&b));
    ck_assert(same_bytes(&a, &b));
  }
  /* a compound equal to one built elsewhere (another block of memory) */
  Value t = parse(&va, "(1, [2])");
  uint8_t *copy = xmalloc(t.len);
  memcpy(copy, t.u.p, t.len);
  Value c;
  ck_assert_uint_eq(val_decode(copy, t.len, &c), t.len);
  ck_assert(c.u.p != t.u.p && val_equal(&c, &t) && val_hash(&c) == val_hash(&t));
  free(copy);
  valarena_fini(&va);
}
END_TEST

/* ---- floats ---- */
START_TEST(test_floats) {
  uint64_t bits[] = {0x7ff8000000000000u, 0xfff8000000000000u, 0x7ff0000000000001u, 0x7fffffffffffffffu,
                     0xfff0000000000001u};
  Value canon = val_float(NAN);
  for (size_t i = 0; i < sizeof bits / sizeof bits[0]; i++) {
    double d;
    memcpy(&d, &bits[i], 8);
    Value f = val_float(d);
    ck_assert(val_equal(&f, &canon));
    ck_assert_uint_eq(val_hash(&f), val_hash(&canon));
    ck_assert(same_bytes(&f, &canon));
  }
  Value z = val_float(0.0), nz = val_float(-0.0);
  ck_assert(val_equal(&z, &nz) && val_hash(&z) == val_hash(&nz) && same_bytes(&z, &nz));
  ck_assert(!signbit(nz.u.f));
  ck_assert(!signbit(canon.u.f) && isnan(canon.u.f));
  Value one = val_float(1.0), i1 = val_int(1);
  ck_assert(!val_equal(&one, &i1));
  ValArena va;
  valarena_init(&va);
  Value st = val_set_from(&va, (Value[]){z, nz, canon, val_float(-NAN)}, 4);
  ck_assert_uint_eq(val_count(&st), 2);
  valarena_fini(&va);
}
END_TEST

/* ---- printing ---- */
static const struct { const char *src; int names; const char *want; } print_rows[] = {
  {"42", 0, "42"},
  {"-9223372036854775808", 0, "-9223372036854775808"},
  {"0.1", 0, "0.1"},
  {"2.0", 0, "2"},
  {"-1.5", 0, "-1.5"},
  {"0.3333333333333333", 0, "0.3333333333333333"},
  {"1e21", 0, "1e+21"},
  {"123456789012345678.0", 0, "1.2345678901234568e+17"},
  {"5e-324", 0, "5e-324"},
  {"2.2250738585072014e-308", 0, "2.2250738585072014e-308"},
  {"1.7976931348623157e308", 0, "1.7976931348623157e+308"},
  {"-0.0", 0, "0"},
  {"nan", 0, "nan"},
  {"inf", 0, "inf"},
  {"-inf", 0, "-inf"},
  {"true", 0, "true"},
  {"null", 0, "null"},
  {"\"raw {s} \"", 0, "raw {s} "},
  {"e1", 1, "ePing"},
  {"e1", 0, "event#1"},
  {"e1", 2, "event#1"},
  {"e9", 1, "event#9"},
  {"m2", 1, "Client(2)"},
  {"m2", 0, "machine#2"},
  {"m2", 2, "machine#2"},
  {"E1:5", 1, "Red"},
  {"E1:5", 0, "enum#1:5"},
  {"E1:5", 2, "enum#1:5"},
  {"E1:6", 1, "enum#1:6"},
  {"(1, true)", 1, "(1, true)"},
  {"#7(1, true)", 1, "(a = 1, b = true)"},
  {"#7(1, true)", 0, "(1, true)"},
  {"#7(1, true)", 2, "(1, true)"},
  {"#7(1,)", 1, "(a = 1)"},
  {"#7(1, 2, 3, 4)", 1, "(a = 1, b = 2, c = 3, 4)"},
  {"[1, 2]", 0, "[1, 2]"},
  {"{2, 1}", 0, "{1, 2}"},
  {"{1 -> true, 2 -> false}", 0, "{1 -> true, 2 -> false}"},
  {"[m1, {e1 -> #7(E1:5, \"s\")}]", 1, "[Main(1), {ePing -> (a = Red, b = s)}]"},
  {"[m1, {e1 -> #7(E1:5, \"s\")}]", 0, "[machine#1, {event#1 -> (enum#1:5, s)}]"},
};

START_TEST(test_print) {
  ValArena va;
  valarena_init(&va);
  Value v = parse(&va, print_rows[_i].src);
  const ValNames *names = print_rows[_i].names == 1 ? &all_names : print_rows[_i].names == 2 ? &no_callbacks : NULL;
  ck_show(&v, names, print_rows[_i].want);
  /* appends to what the Buf holds */
  Buf b;
  buf_init(&b);
  buf_puts(&b, ">");
  val_print(&b, &v, names);
  ck_assert_str_eq(b.data + 1, print_rows[_i].want);
  buf_fini(&b);
  valarena_fini(&va);
}
END_TEST

/* ---- strings ---- */
START_TEST(test_strings) {
  ValArena va;
  valarena_init(&va);
  Value a = val_string(&va, "ab\0c", 4), b = val_string(&va, "", 0), c = val_string(&va, "xyz", 3);
  uint32_t n;
  const char *s = val_str(&a, &n);
  ck_assert_uint_eq(n, 4);
  ck_assert_mem_eq(s, "ab\0c", 4);
  ck_assert_uint_eq(val_count(&a), 4);
  Value ab = val_concat(&va, &a, &b);
  ck_assert(val_equal(&ab, &a));
  Value ac = val_concat(&va, &a, &c);
  s = val_str(&ac, &n);
  ck_assert_uint_eq(n, 7);
  ck_assert_mem_eq(s, "ab\0cxyz", 7);
  Value bb = val_concat(&va, &b, &b);
  ck_assert_uint_eq(val_count(&bb), 0);
  ck_assert(val_equal(&bb, &b));
  Value i = val_int(3);
  s = val_str(&i, &n);   /* not a string: empty */
  ck_assert_uint_eq(n, 0);
  ck_assert_str_eq(s, "");
  Value back;
  ck_assert_uint_eq(val_decode(ac.u.p, ac.len, &back), 9);
  valarena_fini(&va);
}
END_TEST

/* ---- nth, seq_from, counts, empties, arena reuse ---- */
START_TEST(test_misc) {
  ValArena va;
  valarena_init(&va);
  Value e[3] = {val_int(3), val_string(&va, "q", 1), val_bool(0)};
  Value q = val_seq_from(&va, e, 3);
  ck_show(&q, NULL, "[3, q, false]");
  ck_assert_uint_eq(val_count(&q), 3);
  for (uint32_t i = 0; i < 3; i++) {
    Value x = val_nth(&q, i), y;
    ck_assert(val_equal(&x, &e[i]));
    ck_assert(val_seq_get(&q, i, &y) && val_equal(&y, &e[i]));
  }
  Value q0 = val_seq_from(&va, e, 0), es = val_seq_empty();
  ck_assert(val_equal(&q0, &es));
  Value m = parse(&va, "{\"k\" -> [1], 2 -> (3,)}");
  Value k0 = val_nth(&m, 0), v0 = val_map_nth_value(&m, 0), k1 = val_nth(&m, 1), v1 = val_map_nth_value(&m, 1);
  ck_show(&k0, NULL, "2");   /* 1 byte before 3 */
  ck_show(&v0, NULL, "(3,)");
  ck_show(&k1, NULL, "k");
  ck_show(&v1, NULL, "[1]");
  Value se = val_set_empty(), me = val_map_empty();
  ck_assert(!val_equal(&se, &me) && !val_equal(&se, &es));
  ck_assert_uint_eq(val_count(&se) + val_count(&me) + val_count(&es), 0);
  ck_assert_uint_eq(val_enc_size(&se), 1);
  Value scal[] = {val_null(), val_bool(7), val_int(1), val_float(1), val_event(1), val_machine(1), val_enum(1, 1)};
  size_t sizes[] = {1, 1, 1, 9, 2, 1, 3};
  for (size_t i = 0; i < 7; i++) {
    ck_assert_uint_eq(val_enc_size(&scal[i]), sizes[i]);
    ck_assert_uint_eq(val_count(&scal[i]), 0);
    ck_assert(!val_is_compound(&scal[i]));
  }
  ck_assert_int_eq(scal[1].u.i, 1);   /* bools are 0 or 1 */
  /* the arena is reused after a reset, large blocks included */
  for (int round = 0; round < 50; round++) {
    valarena_reset(&va);
    Value big = val_seq_empty();
    for (int i = 0; i < 200; i++) { Value x = val_int(i); big = val_seq_append(&va, &big, &x); }
    ck_assert_uint_eq(val_count(&big), 200);
    uint8_t *p = valarena_alloc(&va, 100000);
    memset(p, round, 100000);
    Value last = val_nth(&big, 199);
    ck_assert_int_eq(last.u.i, 199);
  }
  valarena_fini(&va);
}
END_TEST

/* arena_reset keeps one chunk and frees the rest. */
START_TEST(test_arena_reset) {
  Arena *a = arena_new();
  arena_reset(a);   /* nothing allocated yet */
  for (int round = 0; round < 20; round++) {
    for (int i = 0; i < 100; i++) {
      char *p = arena_alloc(a, 4000);
      ck_assert_int_eq(p[3999], 0);
      memset(p, 0x5a, 4000);
    }
    arena_reset(a);
  }
  char *big = arena_alloc(a, 1 << 20);
  big[(1 << 20) - 1] = 1;
  arena_reset(a);
  char *after = arena_alloc(a, 16);
  ck_assert_int_eq(after[15], 0);
  arena_free(a);
}
END_TEST

#define NROWS(t) (int)(sizeof(t) / sizeof((t)[0]))

int main(void) {
  Suite *su = suite_create("value");
  TCase *tc = tcase_create("all");
  tcase_set_timeout(tc, 120);
  tcase_add_loop_test(tc, test_round_trip, 0, NROWS(rt_rows));
  tcase_add_loop_test(tc, test_damage, 0, NROWS(rt_rows));
  tcase_add_test(tc, test_random_damage);
  tcase_add_loop_test(tc, test_decode_rows, 0, NROWS(dec_rows));
  tcase_add_test(tc, test_deep);
  tcase_add_test(tc, test_canonical_order);
  tcase_add_test(tc, test_set_from);
  tcase_add_loop_test(tc, test_seq_ops, 0, NROWS(seq_rows));
  tcase_add_loop_test(tc, test_set_ops, 0, NROWS(set_rows));
  tcase_add_loop_test(tc, test_map_ops, 0, NROWS(map_rows));
  tcase_add_loop_test(tc, test_tuples, 0, NROWS(tuple_rows));
  tcase_add_test(tc, test_equality);
  tcase_add_test(tc, test_floats);
  tcase_add_loop_test(tc, test_print, 0, NROWS(print_rows));
  tcase_add_test(tc, test_strings);
  tcase_add_test(tc, test_misc);
  tcase_add_test(tc, test_arena_reset);
  tcase_add_loop_test(tc, test_grouped, 0, sizeof grouped / sizeof grouped[0]);
  suite_add_tcase(su, tc);
  return run_suite(su);
}
