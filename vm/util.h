/* util.h: allocation that never returns NULL, growable byte buffers, and
** an arena.  Shared by every layer; holds no global mutable state.
** Ownership: Buf and Arena own their memory; _fini/_free release it. */
#ifndef PCHECK_UTIL_H
#define PCHECK_UTIL_H
#include <stddef.h>
#include <stdint.h>
#include <stdarg.h>
#include <string.h>

/* Allocate or abort with "pcheck: out of memory" (exit status 3). */
void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);

/* A growable byte buffer; data is always NUL-terminated after len bytes. */
typedef struct Buf {
  char *data;           /* heap block, NULL until the first append */
  size_t len;           /* bytes in use, not counting the NUL */
  size_t cap;           /* bytes allocated */
} Buf;
void buf_init(Buf *b);
void buf_fini(Buf *b);
void buf_append(Buf *b, const void *p, size_t n);
/* Room for n more bytes (and the NUL) after len, without changing len. */
void buf_reserve(Buf *b, size_t n);
/* buf_append for hot paths: inline when the room is already there. */
static inline void buf_append_fast(Buf *b, const void *p, size_t n) {
  if (b->len + n + 1 <= b->cap) {
    __builtin_memcpy(b->data + b->len, p, n);
    b->len += n;
    b->data[b->len] = 0;
  } else {
    buf_append(b, p, n);
  }
}
void buf_puts(Buf *b, const char *s);
void buf_putc(Buf *b, char c);
void buf_printf(Buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void buf_vprintf(Buf *b, const char *fmt, va_list ap);
/* Hand the buffer's block to the caller (never NULL) and reset the Buf. */
char *buf_take(Buf *b);

/* Reading fixed-size fields (in the machine's byte order) from bytes that
** may be cut short: a get past the end gives 0 and leaves ok at 0 (and so
** does every later one), so a reader checks ok once, at the end. */
typedef struct ByteRd {
  const uint8_t *p, *end;
  int ok;
} ByteRd;
static inline uint64_t brd_get(ByteRd *r, size_t n) {
  uint64_t v = 0;
  if (!r->ok || (size_t)(r->end - r->p) < n) {
    r->ok = 0;
    return 0;
  }
  memcpy(&v, r->p, n);
  r->p += n;
  return v;
}
static inline size_t brd_left(const ByteRd *r) { return (size_t)(r->end - r->p); }

/* A bump allocator: everything allocated from it is freed at once. */
typedef struct Arena Arena;
Arena *arena_new(void);
void arena_free(Arena *a);
/* Zeroed memory of n bytes, 16-byte aligned, owned by the arena. */
void *arena_alloc(Arena *a, size_t n);
/* Like arena_alloc, but the memory is not zeroed. */
void *arena_alloc_raw(Arena *a, size_t n);
/* Free everything allocated so far, keeping one chunk for reuse. */
void arena_reset(Arena *a);
char *arena_strndup(Arena *a, const char *s, size_t n);
char *arena_strdup(Arena *a, const char *s);
char *arena_printf(Arena *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Growable array of pointers (elements are borrowed, not owned). */
typedef struct PtrVec {
  void **items;         /* heap block */
  int n;                /* elements in use */
  int cap;              /* elements allocated */
} PtrVec;
void ptrvec_push(PtrVec *v, void *p);
void ptrvec_fini(PtrVec *v);

/* Read a whole file into a NUL-terminated heap block; NULL and errno on
** failure.  *len receives its size (the file may itself contain NULs). */
char *read_file(const char *path, size_t *len);
/* v in decimal with its thousands separated by commas ("1,234,567"),
** written into buf (n bytes, cut short if too small); returns buf. */
const char *fmt_grouped(char *buf, size_t n, uint64_t v);

#endif
