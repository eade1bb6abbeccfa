/* util.c: checked allocation, byte buffers, arenas and file reading.
** Only xmalloc and friends ever end the process, and only when memory is
** exhausted, with the exit status the CLI uses for resource failures. */
#include <config.h>
#include "vm/util.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The one way out on exhausted memory: a message and exit status 3 (the
** CLI's status for resource failures); no cleanup is attempted. */
static void oom(void) {
  fputs("pcheck: out of memory\n", stderr);
  exit(3);
}

/* A request of 0 bytes asks for 1, so the result is never NULL and may be
** freed like any other (the same holds for xcalloc and xrealloc). */
void *xmalloc(size_t n) {
  void *p = malloc(n ? n : 1);
  if (!p) oom();
  return p;
}

void *xcalloc(size_t n, size_t size) {
  void *p = calloc(n ? n : 1, size ? size : 1);
  if (!p) oom();
  return p;
}

void *xrealloc(void *p, size_t n) {
  p = realloc(p, n ? n : 1);
  if (!p) oom();
  return p;
}

/* The first n bytes of s (which need not be NUL-terminated) and a NUL. */
char *xstrndup(const char *s, size_t n) {
  char *p = xmalloc(n + 1);
  memcpy(p, s, n);
  p[n] = 0;
  return p;
}

char *xstrdup(const char *s) { return xstrndup(s, strlen(s)); }

void buf_init(Buf *b) { b->data = NULL; b->len = b->cap = 0; }

/* Frees the block and leaves b empty and usable again. */
void buf_fini(Buf *b) { free(b->data); buf_init(b); }

/* Grows by doubling from 64 bytes, so appends are amortized O(1); data may
** move, so no pointer into it survives a call that appends. */
void buf_reserve(Buf *b, size_t extra) {
  if (b->len + extra + 1 <= b->cap) return;
  size_t cap = b->cap ? b->cap : 64;
  while (cap < b->len + extra + 1) cap *= 2;
  b->data = xrealloc(b->data, cap);
  b->cap = cap;
}

/* p may be NULL when n is 0 (the block is still allocated and the NUL
** written, so data is never NULL after an append). */
void buf_append(Buf *b, const void *p, size_t n) {
  buf_reserve(b, n);
  if (n) memcpy(b->data + b->len, p, n);
  b->len += n;
  b->data[b->len] = 0;
}

void buf_puts(Buf *b, const char *s) { buf_append(b, s, strlen(s)); }
void buf_putc(Buf *b, char c) { buf_append(b, &c, 1); }

/* Formats twice, once to measure and once into the room reserved; an
** encoding error from vsnprintf appends nothing.  ap is consumed. */
void buf_vprintf(Buf *b, const char *fmt, va_list ap) {
  va_list ap2;
  va_copy(ap2, ap);
  int n = vsnprintf(NULL, 0, fmt, ap2);
  va_end(ap2);
  if (n < 0) return;
  buf_reserve(b, (size_t)n);
  vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
  b->len += (size_t)n;
}

void buf_printf(Buf *b, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  buf_vprintf(b, fmt, ap);
  va_end(ap);
}

/* The caller frees the block; an untouched Buf gives a fresh "". */
char *buf_take(Buf *b) {
  char *p = b->data ? b->data : xstrdup("");
  buf_init(b);
  return p;
}

/* Arena: a list of chunks; big requests get a chunk of their own. */
typedef struct Chunk {
  struct Chunk *next;   /* older chunk */
  size_t used, cap;     /* bytes used / available in data */
  _Alignas(16) unsigned char data[];
} Chunk;

struct Arena {
  Chunk *head;          /* current chunk, NULL when empty */
};

/* An empty arena: its first chunk is made on the first allocation. */
Arena *arena_new(void) { return xcalloc(1, sizeof(Arena)); }

/* Every chunk and the arena itself; NULL is allowed. */
void arena_free(Arena *a) {
  if (!a) return;
  for (Chunk *c = a->head, *n; c; c = n) {
    n = c->next;
    free(c);
  }
  free(a);
}

/* Keeps the newest chunk (emptied) and frees the older ones, so an arena
** reset every step settles at one chunk and allocates nothing more.  All
** memory handed out before is invalid afterwards. */
void arena_reset(Arena *a) {
  if (!a->head) return;
  Chunk *keep = a->head;
  for (Chunk *c = keep->next, *n; c; c = n) {
    n = c->next;
    free(c);
  }
  keep->next = NULL;
  keep->used = 0;
}

/* The rounding up to 16 bytes is zeroed too: it is the allocation's. */
void *arena_alloc(Arena *a, size_t n) {
  void *p = arena_alloc_raw(a, n);
  memset(p, 0, (n + 15) & ~(size_t)15);
  return p;
}

/* Sizes round up to 16 bytes, keeping every block 16-byte aligned.  A
** request that does not fit the current chunk starts a new one of 64 KiB,
** or of exactly its size when larger (the rest of the old chunk is left
** unused); never NULL, out of memory aborts. */
void *arena_alloc_raw(Arena *a, size_t n) {
  n = (n + 15) & ~(size_t)15;
  if (!a->head || a->head->cap - a->head->used < n) {
    size_t cap = n > 65536 ? n : 65536;
    Chunk *c = xmalloc(sizeof(Chunk) + cap);
    c->used = 0;
    c->cap = cap;
    c->next = a->head;
    a->head = c;
  }
  void *p = a->head->data + a->head->used;
  a->head->used += n;
  return p;
}

char *arena_strndup(Arena *a, const char *s, size_t n) {
  char *p = arena_alloc(a, n + 1);
  memcpy(p, s, n);
  p[n] = 0;
  return p;
}

char *arena_strdup(Arena *a, const char *s) { return arena_strndup(a, s, strlen(s)); }

/* Formatted into a heap Buf, then copied into the arena (the Buf freed). */
char *arena_printf(Arena *a, const char *fmt, ...) {
  Buf b;
  buf_init(&b);
  va_list ap;
  va_start(ap, fmt);
  buf_vprintf(&b, fmt, ap);
  va_end(ap);
  char *p = arena_strndup(a, b.data ? b.data : "", b.len);
  buf_fini(&b);
  return p;
}

/* Doubles from 8 slots; v may start zeroed. */
void ptrvec_push(PtrVec *v, void *p) {
  if (v->n == v->cap) {
    v->cap = v->cap ? v->cap * 2 : 8;
    v->items = xrealloc(v->items, (size_t)v->cap * sizeof(void *));
  }
  v->items[v->n++] = p;
}

/* Frees the array, not the elements (borrowed); v is empty again. */
void ptrvec_fini(PtrVec *v) {
  free(v->items);
  v->items = NULL;
  v->n = v->cap = 0;
}

/* In 64 KiB reads; the caller frees the block.  *len is set only on
** success; an empty file gives "" with *len 0. */
char *read_file(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  Buf b;
  buf_init(&b);
  char tmp[65536];
  size_t n;
  while ((n = fread(tmp, 1, sizeof tmp, f)) > 0) buf_append(&b, tmp, n);
  int err = ferror(f);
  int saved = errno;
  fclose(f);
  if (err) {
    buf_fini(&b);
    errno = saved ? saved : EIO;
    return NULL;
  }
  *len = b.len;
  return buf_take(&b);
}

/* n must be at least 1.  A digit is written only with room for it, its
** comma and the NUL, so 27 bytes hold every uint64_t (20 digits, 6
** commas, the NUL); a smaller buffer gets a prefix of the digits. */
const char *fmt_grouped(char *buf, size_t n, uint64_t v) {
  char raw[32];
  int len = snprintf(raw, sizeof raw, "%llu", (unsigned long long)v);
  size_t o = 0;
  for (int i = 0; i < len; i++) {
    int comma = i && (len - i) % 3 == 0;
    if (o + (size_t)comma + 1 >= n) break;
    if (comma) buf[o++] = ',';
    buf[o++] = raw[i];
  }
  buf[o] = 0;
  return buf;
}
