/* json.c: a recursive-descent JSON reader with a depth limit, and string
** escaping for the writers.  Numbers are read as doubles. */
#include <config.h>
#include "checker/base/json.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The reader's position: text s of n bytes, the next byte at i; err gets
** the first failure only; depth counts the values open around i (at most
** 200, so that the recursion over nesting is bounded on any input). */
typedef struct P {
  const char *s;
  size_t n, i;
  Buf *err;
  int depth;
} P;

/* Skip JSON's four whitespace bytes. */
static void ws(P *p) {
  while (p->i < p->n && (p->s[p->i] == ' ' || p->s[p->i] == '\t' || p->s[p->i] == '\n' || p->s[p->i] == '\r')) p->i++;
}

/* Note msg at the current offset, unless a failure is noted already (an
** inner failure is the one reported); returns NULL for `return fail(...)`. */
static Json *fail(P *p, const char *msg) {
  if (p->err && !p->err->len) buf_printf(p->err, "%s at byte %zu", msg, p->i);
  return NULL;
}

static Json *value(P *p);

/* The four hex digits at i as a number (i moves past them), or -1 when
** there are not four. */
static long hex4(P *p) {
  long v = 0;
  for (int k = 0; k < 4; k++, p->i++) {
    if (p->i >= p->n) return -1;
    char h = p->s[p->i];
    int d = h >= '0' && h <= '9' ? h - '0' : h >= 'a' && h <= 'f' ? h - 'a' + 10 : h >= 'A' && h <= 'F' ? h - 'A' + 10 : -1;
    if (d < 0) return -1;
    v = v * 16 + d;
  }
  return v;
}

/* Character c (at most 0x10FFFF) as UTF-8 onto b. */
static void utf8(Buf *b, unsigned long c) {
  if (c < 0x80) { buf_putc(b, (char)c); return; }
  if (c < 0x800) { buf_putc(b, (char)(0xc0 | (c >> 6))); buf_putc(b, (char)(0x80 | (c & 0x3f))); return; }
  if (c < 0x10000) {
    buf_putc(b, (char)(0xe0 | (c >> 12)));
  } else {
    buf_putc(b, (char)(0xf0 | (c >> 18)));
    buf_putc(b, (char)(0x80 | ((c >> 12) & 0x3f)));
  }
  buf_putc(b, (char)(0x80 | ((c >> 6) & 0x3f)));
  buf_putc(b, (char)(0x80 | (c & 0x3f)));
}

/* A string literal at i, its escapes decoded, as a heap string the caller
** frees; NULL (with the failure noted) if none is there, it is not closed,
** or it holds a raw control byte.  \uXXXX is written as UTF-8, a
** surrogate pair \uD8xx\uDCxx as the one character it stands for; four
** hex digits are required, and a lone surrogate or \u0000 (a NUL would
** end the string for C) is refused.  Any other escaped byte stands for
** itself (\/ and \" as JSON wants, but also \q). */
static char *string(P *p) {
  if (p->i >= p->n || p->s[p->i] != '"') { fail(p, "expected a string"); return NULL; }
  p->i++;
  Buf b;
  buf_init(&b);
  while (p->i < p->n && p->s[p->i] != '"') {
    char c = p->s[p->i++];
    if ((unsigned char)c < 0x20) { buf_fini(&b); fail(p, "control character in a string"); return NULL; }
    if (c != '\\') { buf_putc(&b, c); continue; }
    if (p->i >= p->n) break;
    char e = p->s[p->i++];
    switch (e) {
    case 'n': buf_putc(&b, '\n'); break;
    case 't': buf_putc(&b, '\t'); break;
    case 'r': buf_putc(&b, '\r'); break;
    case 'b': buf_putc(&b, '\b'); break;
    case 'f': buf_putc(&b, '\f'); break;
    case 'u': {
      long v = hex4(p);
      if (v >= 0xd800 && v <= 0xdbff && p->i + 1 < p->n && p->s[p->i] == '\\' && p->s[p->i + 1] == 'u') {
        p->i += 2;
        long lo = hex4(p);
        v = lo >= 0xdc00 && lo <= 0xdfff ? 0x10000 + ((v - 0xd800) << 10) + (lo - 0xdc00) : -1;
      }
      if (v <= 0 || (v >= 0xd800 && v <= 0xdfff)) {
        buf_fini(&b);
        fail(p, v == 0 ? "\\u0000 in a string" : "bad \\u escape");
        return NULL;
      }
      utf8(&b, (unsigned long)v);
      break;
    }
    default: buf_putc(&b, e); break;
    }
  }
  if (p->i >= p->n) { buf_fini(&b); fail(p, "unterminated string"); return NULL; }
  p->i++;
  return buf_take(&b);
}

/* A zeroed node of kind k (never NULL: out of memory aborts). */
static Json *node(JsonKind k) {
  Json *j = xcalloc(1, sizeof *j);
  j->kind = k;
  return j;
}

/* Append v (and, in an object, its key) to j, which takes both; one
** realloc per element, which suffices for trace files. */
static void push(Json *j, char *key, Json *v) {
  j->items = xrealloc(j->items, (j->n + 1) * sizeof(Json *));
  if (j->kind == JSON_OBJECT) j->keys = xrealloc(j->keys, (j->n + 1) * sizeof(char *));
  j->items[j->n] = v;
  if (j->kind == JSON_OBJECT) j->keys[j->n] = key;
  j->n++;
}

/* An array or object at i (open is its first byte): elements separated by
** commas, no trailing comma; on failure everything read so far is freed.
** Duplicate keys are kept (json_get finds the first). */
static Json *container(P *p, char open) {
  Json *j = node(open == '[' ? JSON_ARRAY : JSON_OBJECT);
  p->i++;
  ws(p);
  if (p->i < p->n && p->s[p->i] == (open == '[' ? ']' : '}')) { p->i++; return j; }
  for (;;) {
    char *key = NULL;
    ws(p);
    if (j->kind == JSON_OBJECT) {
      key = string(p);
      if (!key) { json_free(j); return NULL; }
      ws(p);
      if (p->i >= p->n || p->s[p->i] != ':') { free(key); json_free(j); return fail(p, "expected ':'"); }
      p->i++;
    }
    Json *v = value(p);
    if (!v) { free(key); json_free(j); return NULL; }
    push(j, key, v);
    ws(p);
    if (p->i < p->n && p->s[p->i] == ',') { p->i++; continue; }
    if (p->i < p->n && p->s[p->i] == (open == '[' ? ']' : '}')) { p->i++; return j; }
    json_free(j);
    return fail(p, "expected ',' or the end of a list");
  }
}

/* Any value at i, whitespace before it skipped.  Numbers are the bytes
** from "+-0123456789.eE" (up to 63) that strtod reads whole, so a few
** forms JSON forbids (a leading +, leading zeros) are accepted.  NULL on
** failure, noted in p->err. */
static Json *value(P *p) {
  ws(p);
  if (p->i >= p->n) return fail(p, "unexpected end of input");
  if (++p->depth > 200) return fail(p, "nested too deeply");
  Json *j = NULL;
  char c = p->s[p->i];
  if (c == '{' || c == '[') j = container(p, c);
  else if (c == '"') {
    char *s = string(p);
    if (s) { j = node(JSON_STRING); j->str = s; }
  } else if (p->n - p->i >= 4 && memcmp(p->s + p->i, "true", 4) == 0) { j = node(JSON_BOOL); j->num = 1; p->i += 4; }
  else if (p->n - p->i >= 5 && memcmp(p->s + p->i, "false", 5) == 0) { j = node(JSON_BOOL); p->i += 5; }
  else if (p->n - p->i >= 4 && memcmp(p->s + p->i, "null", 4) == 0) { j = node(JSON_NULL); p->i += 4; }
  else if (c == '-' || (c >= '0' && c <= '9')) {
    char tmp[64];
    size_t k = 0;
    while (p->i < p->n && k < sizeof tmp - 1 && strchr("+-0123456789.eE", p->s[p->i])) tmp[k++] = p->s[p->i++];
    tmp[k] = 0;
    char *end;
    double d = strtod(tmp, &end);
    if (*end) return fail(p, "bad number");
    j = node(JSON_NUMBER);
    j->num = d;
  } else {
    fail(p, "unexpected character");
  }
  p->depth--;
  return j;
}

/* One value and nothing after it but whitespace.  err (may be NULL) should
** come in empty: only a failure noted into an empty Buf is kept. */
Json *json_parse(const char *text, size_t len, Buf *err) {
  P p = { text, len, 0, err, 0 };
  Json *j = value(&p);
  if (!j) return NULL;
  ws(&p);
  if (p.i != p.n) { json_free(j); return fail(&p, "trailing characters"); }
  return j;
}

/* Recursive, as deep as the tree (at most 200 levels from json_parse);
** NULL is allowed. */
void json_free(Json *j) {
  if (!j) return;
  for (size_t i = 0; i < j->n; i++) {
    json_free(j->items[i]);
    if (j->keys) free(j->keys[i]);
  }
  free(j->items);
  free(j->keys);
  free(j->str);
  free(j);
}

/* A linear search; obj may be NULL or no object (NULL then), so lookups
** can be chained.  The result is borrowed from obj. */
const Json *json_get(const Json *obj, const char *key) {
  if (!obj || obj->kind != JSON_OBJECT) return NULL;
  for (size_t i = 0; i < obj->n; i++)
    if (strcmp(obj->keys[i], key) == 0) return obj->items[i];
  return NULL;
}

/* The n bytes of s between quotes: quote, backslash, \n, \t and \r
** escaped by name, other control bytes and DEL as \u00XX; bytes from 0x80
** up are copied as they are (the callers write UTF-8). */
void json_put_string(Buf *b, const char *s, size_t n) {
  buf_putc(b, '"');
  for (size_t i = 0; i < n; i++) {
    unsigned char c = (unsigned char)s[i];
    switch (c) {
    case '"': buf_puts(b, "\\\""); break;
    case '\\': buf_puts(b, "\\\\"); break;
    case '\n': buf_puts(b, "\\n"); break;
    case '\t': buf_puts(b, "\\t"); break;
    case '\r': buf_puts(b, "\\r"); break;
    default:
      if (c < 0x20 || c == 0x7f) buf_printf(b, "\\u%04x", c);
      else buf_putc(b, (char)c);
    }
  }
  buf_putc(b, '"');
}

int json_whole(const Json *j, double lo, double hi) {
  if (!j || j->kind != JSON_NUMBER) return 1;
  return j->num >= lo && j->num <= hi && floor(j->num) == j->num;
}
