/* checkpoint.c: the checkpoint file (checkpoint.h): building one in
** memory, writing it atomically, reading one back with every check (the
** checksum first, so that nothing of a damaged file is believed). */
#include <config.h>
#include "checker/checkpoint.h"
#include "checker/trace.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "vm/hash.h"

static const char magic[8] = { 'P', 'C', 'H', 'E', 'C', 'K', 'P', 'T' };

void ck_init(Checkpoint *c) { memset(c, 0, sizeof *c); }

void ck_fini(Checkpoint *c) {
  buf_fini(&c->bytes);
  free(c->sec);
  memset(c, 0, sizeof *c);
}

void ck_add(Checkpoint *c, const char *tag, const void *data, uint64_t len) {
  if (c->n == c->cap) {
    c->cap = c->cap ? c->cap * 2 : 8;
    c->sec = xrealloc(c->sec, c->cap * sizeof *c->sec);
  }
  CkSection *s = &c->sec[c->n++];
  memset(s->tag, 0, sizeof s->tag);
  strncpy(s->tag, tag, 8);
  s->off = c->bytes.len;
  s->len = len;
  if (len) buf_append(&c->bytes, data, (size_t)len);
}

const uint8_t *ck_get(const Checkpoint *c, const char *tag, uint64_t *len) {
  for (uint32_t i = 0; i < c->n; i++)
    if (strncmp(c->sec[i].tag, tag, 8) == 0) {
      *len = c->sec[i].len;
      return (const uint8_t *)c->bytes.data + c->sec[i].off;
    }
  return NULL;
}

static void put_u32(Buf *b, uint32_t v) { buf_append(b, &v, 4); }
static void put_u64(Buf *b, uint64_t v) { buf_append(b, &v, 8); }
static void put_s(Buf *b, const char *s) {
  uint32_t n = s ? (uint32_t)strlen(s) : 0;
  put_u32(b, n);
  if (n) buf_append(b, s, n);
}

int ck_write(const Checkpoint *c, const CkHeader *h, const char *path, Buf *err) {
  Buf b;
  buf_init(&b);
  buf_append(&b, magic, sizeof magic);
  put_u32(&b, CK_FORMAT);
  put_s(&b, h->version);
  put_u64(&b, h->model);
  put_s(&b, h->test);
  put_s(&b, h->search);
  put_u64(&b, h->options);
  put_u32(&b, c->n);
  for (uint32_t i = 0; i < c->n; i++) {
    char tag[8];
    memcpy(tag, c->sec[i].tag, 8);
    buf_append(&b, tag, 8);
    put_u64(&b, c->sec[i].len);
    if (c->sec[i].len) buf_append(&b, c->bytes.data + c->sec[i].off, (size_t)c->sec[i].len);
  }
  put_u64(&b, state_hash(b.data, b.len));
  int rc = trace_write_atomic(path, &b);
  if (rc != 0) buf_printf(err, "cannot write the checkpoint '%s': %s", path, strerror(errno));
  buf_fini(&b);
  return rc;
}

/* A reader over the file's bytes: every get fails once one has run past
** the end. */
typedef struct Rd {
  const uint8_t *p, *end;
  int ok;
} Rd;

static uint64_t get_n(Rd *r, size_t n) {
  uint64_t v = 0;
  if (!r->ok || (size_t)(r->end - r->p) < n) { r->ok = 0; return 0; }
  memcpy(&v, r->p, n);
  r->p += n;
  return v;
}

/* A string of the file, compared with want (NULL: any); 1 if equal. */
static int get_s(Rd *r, const char *want, char *copy, size_t cap) {
  uint32_t n = (uint32_t)get_n(r, 4);
  if (!r->ok || (size_t)(r->end - r->p) < n) { r->ok = 0; return 0; }
  size_t k = n < cap - 1 ? n : cap - 1;
  memcpy(copy, r->p, k);
  copy[k] = 0;
  int same = !want || (strlen(want) == n && memcmp(r->p, want, n) == 0);
  r->p += n;
  return same;
}

int ck_read(Checkpoint *c, const CkHeader *want, const char *path, Buf *err) {
  ck_fini(c);
  size_t len;
  char *text = read_file(path, &len);
  if (!text) {
    buf_printf(err, "cannot read the checkpoint '%s': %s", path, strerror(errno));
    return -1;
  }
  const uint8_t *s = (const uint8_t *)text;
  int rc = -1;
  uint64_t sum;
  if (len < sizeof magic + 8 || memcmp(s, magic, sizeof magic) != 0) {
    buf_printf(err, "'%s' is not a pcheck checkpoint", path);
    goto out;
  }
  memcpy(&sum, s + len - 8, 8);
  if (state_hash(s, len - 8) != sum) {
    buf_printf(err, "the checkpoint '%s' is damaged (its checksum does not match: cut short or changed)", path);
    goto out;
  }
  Rd r = { s + sizeof magic, s + len - 8, 1 };
  char got[256];
  uint32_t format = (uint32_t)get_n(&r, 4);
  if (r.ok && format != CK_FORMAT) {
    buf_printf(err, "the checkpoint '%s' has format %u; this pcheck reads format %d", path, format, CK_FORMAT);
    goto out;
  }
  if (!get_s(&r, want->version, got, sizeof got) && r.ok) {
    buf_printf(err, "the checkpoint '%s' was written by pcheck %s; this is pcheck %s: start the search again", path,
               got, want->version);
    goto out;
  }
  uint64_t model = get_n(&r, 8);
  if (r.ok && model != want->model) {
    buf_printf(err, "the checkpoint '%s' is for another model (or the model changed since it was written)", path);
    goto out;
  }
  if (!get_s(&r, want->test, got, sizeof got) && r.ok) {
    buf_printf(err, "the checkpoint '%s' is for test '%s', not '%s'", path, got, want->test);
    goto out;
  }
  if (!get_s(&r, want->search, got, sizeof got) && r.ok) {
    buf_printf(err, "the checkpoint '%s' is of --search %s, not %s", path, got, want->search);
    goto out;
  }
  uint64_t options = get_n(&r, 8);
  if (r.ok && options != want->options) {
    buf_printf(err, "the checkpoint '%s' was written with other search options (explorer, bounds, reduction, seed)",
               path);
    goto out;
  }
  uint32_t n = (uint32_t)get_n(&r, 4);
  for (uint32_t i = 0; r.ok && i < n; i++) {
    char tag[9] = { 0 };
    if ((size_t)(r.end - r.p) < 8) { r.ok = 0; break; }
    memcpy(tag, r.p, 8);
    r.p += 8;
    uint64_t sl = get_n(&r, 8);
    if (!r.ok || sl > (uint64_t)(r.end - r.p)) { r.ok = 0; break; }
    ck_add(c, tag, r.p, sl);
    r.p += sl;
  }
  if (!r.ok || r.p != r.end) {
    /* The checksum matched: only a writer that is not this one gets here. */
    buf_printf(err, "the checkpoint '%s' is malformed", path);
    ck_fini(c);
    goto out;
  }
  rc = 0;
out:
  free(text);
  return rc;
}
