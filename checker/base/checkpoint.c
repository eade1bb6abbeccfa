/* checkpoint.c: the checkpoint file (checkpoint.h): building one in
** memory, writing it atomically, reading one back with every check (the
** checksum first, so that nothing of a damaged file is believed). */
#include <config.h>
#include "checker/base/checkpoint.h"
#include <errno.h>
#include <stdio.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>
#include "vm/hash.h"

static const char magic[8] = { 'P', 'C', 'H', 'E', 'C', 'K', 'P', 'T' };

/* An empty checkpoint: no sections, no file. */
void ck_init(Checkpoint *c) { memset(c, 0, sizeof *c); }

/* Frees the copied sections, the table and the file read; borrowed bytes
** stay the caller's.  c is empty afterwards and may be used again. */
void ck_fini(Checkpoint *c) {
  for (uint32_t i = 0; i < c->n; i++)
    if (c->sec[i].owned) free((void *)c->sec[i].data);
  free(c->sec);
  free(c->file);
  memset(c, 0, sizeof *c);
}

/* A zeroed entry at the end of the table (doubling from 8), its tag cut
** to 8 characters.  Tags are not checked for duplicates: ck_get finds the
** first. */
static CkSection *new_section(Checkpoint *c, const char *tag) {
  if (c->n == c->cap) {
    c->cap = c->cap ? c->cap * 2 : 8;
    c->sec = xrealloc(c->sec, c->cap * sizeof *c->sec);
  }
  CkSection *s = &c->sec[c->n++];
  memset(s, 0, sizeof *s);
  strncpy(s->tag, tag, 8);
  return s;
}

/* data may be NULL when len is 0.  The copy is the Checkpoint's. */
void ck_add(Checkpoint *c, const char *tag, const void *data, uint64_t len) {
  CkSection *s = new_section(c, tag);
  uint8_t *copy = xmalloc(len ? (size_t)len : 1);
  if (len) memcpy(copy, data, (size_t)len);
  s->data = copy;
  s->len = len;
  s->owned = 1;
}

/* Not owned: ck_fini leaves the bytes alone (ck_read's sections are of
** this kind, pointing into c->file). */
void ck_add_ref(Checkpoint *c, const char *tag, const void *data, uint64_t len) {
  CkSection *s = new_section(c, tag);
  s->data = data;
  s->len = len;
}

/* No copy: the block moves to the section (an untouched Buf gives an
** empty one). */
void ck_add_buf(Checkpoint *c, const char *tag, Buf *b) {
  uint64_t len = b->len;
  CkSection *s = new_section(c, tag);
  s->data = (const uint8_t *)buf_take(b);
  s->len = len;
  s->owned = 1;
}

/* Tags compare on their first 8 characters; *len is set only when found.
** The bytes are the Checkpoint's (or their owner's): valid until ck_fini. */
const uint8_t *ck_get(const Checkpoint *c, const char *tag, uint64_t *len) {
  for (uint32_t i = 0; i < c->n; i++)
    if (strncmp(c->sec[i].tag, tag, 8) == 0) {
      *len = c->sec[i].len;
      return c->sec[i].data;
    }
  return NULL;
}

/* A file being written, hashed as it goes (the same XXH3-64 as
** state_hash over the whole). */
typedef struct Out {
  FILE *f;
  XXH3_state_t *h;
  int ok;
} Out;

/* Write n bytes and hash them; after a failed write nothing more is
** written (ok stays 0), so the caller checks once, at the end. */
static void out_put(Out *o, const void *p, size_t n) {
  if (!n || !o->ok) return;
  if (fwrite(p, 1, n, o->f) != n) o->ok = 0;
  XXH3_64bits_update(o->h, p, n);
}
/* Numbers in the machine's byte order (little-endian, checkpoint.h); a
** string as u32 length then bytes, NULL as the empty string. */
static void out_u32(Out *o, uint32_t v) { out_put(o, &v, 4); }
static void out_u64(Out *o, uint64_t v) { out_put(o, &v, 8); }
static void out_s(Out *o, const char *s) {
  uint32_t n = s ? (uint32_t)strlen(s) : 0;
  out_u32(o, n);
  out_put(o, s, n);
}

/* The file is written in one pass, hashed as it goes, with the checksum
** last; flushed and fsync'd, then renamed over path.  On any failure the
** temporary file is removed, path is left as it was, and err (appended
** to) names path and the system's reason.  The directory is not fsync'd:
** after a crash path holds the old checkpoint or the new one, whole. */
int ck_write(const Checkpoint *c, const CkHeader *h, const char *path, Buf *err) {
  Buf tmp;
  buf_init(&tmp);
  buf_printf(&tmp, "%s.tmp%ld", path, (long)getpid());
  Out o = { fopen(tmp.data, "wb"), XXH3_createState(), 1 };
  int e = 0;
  if (!o.f || !o.h) {
    e = o.f ? ENOMEM : errno;
    o.ok = 0;
  } else {
    XXH3_64bits_reset(o.h);
    out_put(&o, magic, sizeof magic);
    out_u32(&o, CK_FORMAT);
    out_s(&o, h->version);
    out_u64(&o, h->model);
    out_s(&o, h->test);
    out_s(&o, h->search);
    out_s(&o, h->options);
    out_u32(&o, c->n);
    for (uint32_t i = 0; i < c->n; i++) {
      char tag[8];
      memcpy(tag, c->sec[i].tag, 8);
      out_put(&o, tag, 8);
      out_u64(&o, c->sec[i].len);
      out_put(&o, c->sec[i].data, (size_t)c->sec[i].len);
    }
    uint64_t sum = XXH3_64bits_digest(o.h);
    if (o.ok && fwrite(&sum, 1, 8, o.f) != 8) o.ok = 0;
    /* On the disk before the rename: a machine that goes down keeps the
    ** old checkpoint or the new one, whole. */
    if (o.ok && (fflush(o.f) != 0 || fsync(fileno(o.f)) != 0)) o.ok = 0;
    if (!o.ok) e = errno;
  }
  if (o.f && fclose(o.f) != 0 && o.ok) {
    o.ok = 0;
    e = errno;
  }
  if (o.ok && rename(tmp.data, path) != 0) {
    o.ok = 0;
    e = errno;
  }
  if (!o.ok) {
    remove(tmp.data);
    buf_printf(err, "cannot write the checkpoint '%s': %s", path, strerror(e ? e : EIO));
  }
  if (o.h) XXH3_freeState(o.h);
  buf_fini(&tmp);
  return o.ok ? 0 : -1;
}

/* A string of the file into copy (cap bytes, cut there), compared with
** want (NULL: any); 1 if equal. */
/* (cap must be at least 1.)  A string that runs past the end leaves
** r->ok 0 and returns 0 with copy unset; callers test r->ok before
** reporting a mismatch. */
static int get_s(ByteRd *r, const char *want, char *copy, size_t cap) {
  uint32_t n = (uint32_t)brd_get(r, 4);
  if (!r->ok || (size_t)(r->end - r->p) < n) { r->ok = 0; return 0; }
  size_t k = n < cap - 1 ? n : cap - 1;
  memcpy(copy, r->p, k);
  copy[k] = 0;
  int same = !want || (strlen(want) == n && memcmp(r->p, want, n) == 0);
  r->p += n;
  return same;
}

/* The value of key (klen bytes) in an options text ("key=value ..."),
** into v (cap bytes); 0 if the key is not there. */
static int option_value(const char *text, const char *key, size_t klen, char *v, size_t cap) {
  for (const char *p = text; *p;) {
    const char *end = strchr(p, ' ');
    size_t n = end ? (size_t)(end - p) : strlen(p);
    if (n > klen && p[klen] == '=' && memcmp(p, key, klen) == 0) {
      size_t m = n - klen - 1 < cap - 1 ? n - klen - 1 : cap - 1;
      memcpy(v, p + klen + 1, m);
      v[m] = 0;
      return 1;
    }
    p += n;
    while (*p == ' ') p++;
  }
  return 0;
}

/* Each option whose value differs between the checkpoint's text (got) and
** this run's (want), as "key: V in the checkpoint, W now; ..." (a key
** only one of them has: "none" for the other). */
static void options_differ(const char *got, const char *want, Buf *err) {
  int first = 1;
  for (int pass = 0; pass < 2; pass++) {   /* got's keys, then those only want has */
    const char *a = pass ? want : got, *b = pass ? got : want;
    for (const char *p = a; *p;) {
      const char *end = strchr(p, ' '), *eq = strchr(p, '=');
      size_t n = end ? (size_t)(end - p) : strlen(p);
      if (eq && eq < p + n) {
        size_t klen = (size_t)(eq - p);
        char va[128], vb[128];
        option_value(a, p, klen, va, sizeof va);
        int inb = option_value(b, p, klen, vb, sizeof vb);
        if (pass == 0 ? !inb || strcmp(va, vb) != 0 : !inb) {
          const char *in_ck = pass ? "none" : va, *now = pass ? va : (inb ? vb : "none");
          buf_printf(err, "%s%.*s: %s in the checkpoint, %s now", first ? "" : "; ", (int)klen, p, in_ck, now);
          first = 0;
        }
      }
      p += n;
      while (*p == ' ') p++;
    }
  }
}

/* Check the header at r against want (NULL: any), copying the test and
** search; 0, or -1 with the message. */
/* The fields in file order, each refused with its own message (format,
** version, model, test, search, options: the first that differs).  A
** header cut short returns 0 with r->ok 0, for the caller to call
** malformed.  want NULL only copies the fields into *pk (ck_peek). */
static int read_header(ByteRd *r, const CkHeader *want, const char *path, CkPeek *pk, Buf *err) {
  char got[256];
  char *test = pk->test, *search = pk->search;
  uint32_t format = (uint32_t)brd_get(r, 4);
  if (r->ok && format != CK_FORMAT) {
    buf_printf(err, "the checkpoint '%s' has format %u; this pcheck reads format %d", path, format, CK_FORMAT);
    return -1;
  }
  if (!get_s(r, want ? want->version : NULL, got, sizeof got) && r->ok) {
    buf_printf(err, "the checkpoint '%s' was written by pcheck %s; this is pcheck %s: start the search again", path,
               got, want->version);
    return -1;
  }
  uint64_t model = brd_get(r, 8);
  if (r->ok && want && model != want->model) {
    buf_printf(err, "the checkpoint '%s' is for another model (or the model changed since it was written)", path);
    return -1;
  }
  if (!get_s(r, want ? want->test : NULL, test, sizeof pk->test) && r->ok) {
    buf_printf(err, "the checkpoint '%s' is for test '%s', not '%s'", path, test, want->test);
    return -1;
  }
  if (!get_s(r, want ? want->search : NULL, search, sizeof pk->search) && r->ok) {
    buf_printf(err, "the checkpoint '%s' is of --search %s, not %s", path, search, want->search);
    return -1;
  }
  if (!get_s(r, want ? want->options : NULL, pk->options, sizeof pk->options) && r->ok) {
    buf_printf(err, "the checkpoint '%s' was written with other search options (", path);
    options_differ(pk->options, want->options, err);
    buf_puts(err, "): resume with the options it was written with");
    return -1;
  }
  return 0;
}

/* The file at path, whole and with its checksum right, into *text and
** *len; 0, or -1 with the message. */
/* The magic and the checksum are checked before any field is read, so a
** damaged file is refused as damaged, not for what its bytes seem to say.
** *text is the caller's to free, also on failure (it may be NULL). */
static int read_whole(const char *path, char **text, size_t *len, Buf *err) {
  *text = read_file(path, len);
  if (!*text) {
    buf_printf(err, "cannot read the checkpoint '%s': %s", path, strerror(errno));
    return -1;
  }
  const uint8_t *s = (const uint8_t *)*text;
  uint64_t sum;
  if (*len < sizeof magic + 8 || memcmp(s, magic, sizeof magic) != 0) {
    buf_printf(err, "'%s' is not a pcheck checkpoint", path);
    return -1;
  }
  memcpy(&sum, s + *len - 8, 8);
  if (state_hash(s, *len - 8) != sum) {
    buf_printf(err, "the checkpoint '%s' is damaged (its checksum does not match: cut short or changed)", path);
    return -1;
  }
  return 0;
}

/* key must be a whole key: "seed" does not match "seeds=1". */
int ck_option(const char *options, const char *key, char *v, size_t cap) {
  return option_value(options, key, strlen(key), v, cap);
}

/* The file is read whole (for the checksum) and freed; out's strings are
** copies, cut to CkPeek's sizes. */
int ck_peek(const char *path, CkPeek *out, Buf *err) {
  size_t len;
  char *text;
  int rc = read_whole(path, &text, &len, err);
  if (rc == 0) {
    ByteRd r = { (const uint8_t *)text + sizeof magic, (const uint8_t *)text + len - 8, 1 };
    rc = read_header(&r, NULL, path, out, err);
    if (rc == 0 && !r.ok) {
      buf_printf(err, "the checkpoint '%s' is malformed", path);
      rc = -1;
    }
  }
  free(text);
  return rc;
}

/* The sections point into the file's bytes, which c keeps (c->file) until
** ck_fini.  On failure c is empty. */
int ck_read(Checkpoint *c, const CkHeader *want, const char *path, Buf *err) {
  ck_fini(c);
  size_t len;
  char *text;
  if (read_whole(path, &text, &len, err) != 0) {
    free(text);
    return -1;
  }
  ByteRd r = { (const uint8_t *)text + sizeof magic, (const uint8_t *)text + len - 8, 1 };
  CkPeek *pk = xmalloc(sizeof *pk);
  int bad = read_header(&r, want, path, pk, err);
  free(pk);
  if (bad) {
    free(text);
    return -1;
  }
  c->file = (uint8_t *)text;
  uint32_t n = (uint32_t)brd_get(&r, 4);
  for (uint32_t i = 0; r.ok && i < n; i++) {
    char tag[9] = { 0 };
    if ((size_t)(r.end - r.p) < 8) { r.ok = 0; break; }
    memcpy(tag, r.p, 8);
    r.p += 8;
    uint64_t sl = brd_get(&r, 8);
    if (!r.ok || sl > (uint64_t)(r.end - r.p)) { r.ok = 0; break; }
    ck_add_ref(c, tag, r.p, sl);
    r.p += sl;
  }
  if (!r.ok || r.p != r.end) {
    /* The checksum matched: only a writer that is not this one gets here. */
    buf_printf(err, "the checkpoint '%s' is malformed", path);
    ck_fini(c);
    return -1;
  }
  return 0;
}
