/* checkpoint.h: the file a long search leaves behind so that a later run
** can go on from it (issue 18: --checkpoint FILE, --resume FILE).  It holds
** a header that says what it is for (pcheck's version, the model's
** fingerprint, the test, the search, a hash of the options that shape the
** search's order), then named sections of bytes that a search writes and
** reads back (its cache, its stack or queue, counters, the seed), then a
** checksum of all that comes before it.  It is written to FILE.tmpPID and
** renamed over FILE, so a run stopped while writing leaves the last whole
** checkpoint.  A file that is not one, is damaged, or is for another
** version, model, test, search or options is refused with a message that
** says which.
** Layout (little-endian, as the machine writes it):
**   "PCHECKPT", u32 format (CK_FORMAT), string version, u64 model,
**   string test, string search, u64 options, u32 nsections,
**   nsections x (8-byte tag, u64 length, bytes), u64 XXH3 of all the above;
**   a string is u32 length then bytes. */
#ifndef PCHECK_CHECKPOINT_H
#define PCHECK_CHECKPOINT_H
#include <stdint.h>
#include "vm/util.h"

enum { CK_FORMAT = 1 };

/* What a checkpoint is for; strings borrowed. */
typedef struct CkHeader {
  const char *version;       /* pcheck's version (PACKAGE_VERSION) */
  uint64_t model;            /* bc_fingerprint of the program */
  const char *test;          /* the test case */
  const char *search;        /* the search (-s) */
  uint64_t options;          /* a hash of the options that shape the search (the search's choice) */
} CkHeader;

typedef struct CkSection {
  char tag[9];               /* up to 8 characters, NUL-terminated */
  uint64_t off, len;         /* where its bytes are in Checkpoint.bytes */
} CkSection;

/* Ownership: a Checkpoint owns its bytes and sections; ck_fini frees them. */
typedef struct Checkpoint {
  Buf bytes;                 /* the sections' bytes, one after another */
  CkSection *sec;
  uint32_t n, cap;
} Checkpoint;

void ck_init(Checkpoint *c);
void ck_fini(Checkpoint *c);
/* Add a section (its bytes copied); a tag of 1 to 8 characters, each
** added once. */
void ck_add(Checkpoint *c, const char *tag, const void *data, uint64_t len);
/* The bytes of section tag and their length, or NULL if there is none. */
const uint8_t *ck_get(const Checkpoint *c, const char *tag, uint64_t *len);
/* Write h and c's sections to path (through a temporary file renamed over
** it).  0, or -1 with a message in err. */
int ck_write(const Checkpoint *c, const CkHeader *h, const char *path, Buf *err);
/* Read path into c (initialised by the caller, emptied first) if it is a
** whole checkpoint for `want`.  0, or -1 with a message in err naming the
** file and what is wrong. */
int ck_read(Checkpoint *c, const CkHeader *want, const char *path, Buf *err);

#endif
