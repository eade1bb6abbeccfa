/* checkpoint.h: the file a long search leaves behind so that a later run
** can go on from it (--checkpoint FILE, --resume FILE).  It holds a header
** that says what it is for (pcheck's version, the model's fingerprint, the
** test, the search, the options that shape the search's course as text),
** then named sections of bytes that a search writes and reads back (its
** cache, its stack or queue, counters, the seed), then a checksum of all
** that comes before it.  It is written to FILE.tmpPID, flushed to the
** disk, and renamed over FILE, so a run stopped (or a machine that went
** down) while writing leaves the last whole checkpoint.  A file that is
** not one, is damaged, or is for another version, model, test, search or
** options is refused with a message that says which.
** Layout (little-endian, as the machine writes it):
**   "PCHECKPT", u32 format (CK_FORMAT), string version, u64 model,
**   string test, string search, string options, u32 nsections,
**   nsections x (8-byte tag, u64 length, bytes), u64 XXH3 of all the above;
**   a string is u32 length then bytes.  The options are "key=value" items
**   separated by spaces. */
#ifndef PCHECK_CHECKPOINT_H
#define PCHECK_CHECKPOINT_H
#include <stdint.h>
#include <string.h>
#include "vm/util.h"

enum { CK_FORMAT = 2 };

/* What a checkpoint is for; strings borrowed. */
typedef struct CkHeader {
  const char *version;       /* pcheck's version (PACKAGE_VERSION) */
  uint64_t model;            /* bc_fingerprint of the program */
  const char *test;          /* the test case */
  const char *search;        /* the search (-s) */
  const char *options;       /* the options that shape the search, "key=value ..." */
} CkHeader;

typedef struct CkSection {
  char tag[9];               /* up to 8 characters, NUL-terminated */
  const uint8_t *data;       /* its bytes: owned (copied by ck_add) or borrowed (ck_add_ref, ck_read's file) */
  uint64_t len;
  int owned;                 /* data is the Checkpoint's to free */
} CkSection;

/* Ownership: a Checkpoint owns the sections ck_add copied and the file
** ck_read read; ck_fini frees them.  Borrowed sections must outlive it
** until ck_write. */
typedef struct Checkpoint {
  CkSection *sec;
  uint32_t n, cap;
  uint8_t *file;             /* ck_read: the file's bytes, which its sections point into */
} Checkpoint;

void ck_init(Checkpoint *c);
void ck_fini(Checkpoint *c);
/* Add a section (its bytes copied); a tag of 1 to 8 characters, each
** added once. */
void ck_add(Checkpoint *c, const char *tag, const void *data, uint64_t len);
/* Add a section whose bytes stay the caller's (a large one: not copied);
** they must not change or go before ck_write. */
void ck_add_ref(Checkpoint *c, const char *tag, const void *data, uint64_t len);
/* Add a Buf's bytes as a section, taking the Buf's block (b is reset). */
void ck_add_buf(Checkpoint *c, const char *tag, Buf *b);
/* The bytes of section tag and their length, or NULL if there is none. */
const uint8_t *ck_get(const Checkpoint *c, const char *tag, uint64_t *len);
/* Write h and c's sections to path (through a temporary file flushed to
** the disk and renamed over it).  0, or -1 with a message in err. */
int ck_write(const Checkpoint *c, const CkHeader *h, const char *path, Buf *err);
/* Read path into c (initialised by the caller, emptied first) if it is a
** whole checkpoint for `want`.  0, or -1 with a message in err naming the
** file and what is wrong (for options: each that differs, both values). */
int ck_read(Checkpoint *c, const CkHeader *want, const char *path, Buf *err);
/* What a checkpoint is for, as ck_peek reads it (cut to these sizes). */
typedef struct CkPeek {
  char test[256], search[64], options[4096];
} CkPeek;
/* Only the header of path (whole and unchanged: its checksum is checked),
** for a run that resumes without naming its test, search or seed.  0, or
** -1 with a message in err. */
int ck_peek(const char *path, CkPeek *out, Buf *err);
/* The value of key in an options text (CkHeader.options) into v (cap
** bytes, cut there); 1, or 0 if the text has no such key. */
int ck_option(const char *options, const char *key, char *v, size_t cap);

/* Writing a section's fields: fixed-size little-endian numbers. */
static inline void ck_put_u8(Buf *b, uint8_t v) { buf_append(b, &v, 1); }
static inline void ck_put_u32(Buf *b, uint32_t v) { buf_append(b, &v, 4); }
static inline void ck_put_u64(Buf *b, uint64_t v) { buf_append(b, &v, 8); }
static inline void ck_put_f64(Buf *b, double v) { buf_append(b, &v, 8); }
/* A length (u64) then the bytes. */
static inline void ck_put_bytes(Buf *b, const void *p, uint64_t n) {
  ck_put_u64(b, n);
  if (n) buf_append(b, p, (size_t)n);
}

/* Reading a section back (a ByteRd: vm/util.h): every get fails
** (returns 0 or NULL, and ok becomes 0) once one has run past the end; a
** reader checks ok once at the end, and that nothing is left
** (ck_in_done). */
typedef ByteRd CkIn;

/* A reader over section tag of c; not ok if there is none. */
static inline CkIn ck_in(const Checkpoint *c, const char *tag) {
  uint64_t n = 0;
  const uint8_t *p = ck_get(c, tag, &n);
  return (CkIn){ p, p ? p + n : NULL, p != NULL };
}
static inline uint8_t ck_get_u8(CkIn *r) { return (uint8_t)brd_get(r, 1); }
static inline uint32_t ck_get_u32(CkIn *r) { return (uint32_t)brd_get(r, 4); }
static inline uint64_t ck_get_u64(CkIn *r) { return brd_get(r, 8); }
static inline double ck_get_f64(CkIn *r) {
  uint64_t u = brd_get(r, 8);
  double d;
  memcpy(&d, &u, 8);
  return d;
}
/* What ck_put_bytes wrote: the bytes (in the section) and *n their
** length, or NULL (not ok) past the end. */
static inline const uint8_t *ck_get_bytes(CkIn *r, uint64_t *n) {
  *n = ck_get_u64(r);
  if (!r->ok || *n > (uint64_t)(r->end - r->p)) { r->ok = 0; *n = 0; return NULL; }
  const uint8_t *p = r->p;
  r->p += *n;
  return p;
}
/* Every field read and none left over. */
static inline int ck_in_done(const CkIn *r) { return r->ok && r->p == r->end; }

#endif
