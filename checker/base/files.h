/* files.h: writing a file so that a reader never sees half of it. */
#ifndef PCHECK_FILES_H
#define PCHECK_FILES_H
#include "vm/util.h"

/* Write b to path through a temporary file (path.tmpPID) renamed over it:
** a reader sees the old file or the new one, never part of one, and a
** crash leaves at most the temporary behind.  0, or -1 with errno set
** (the temporary removed). */
int file_write_atomic(const char *path, const Buf *b);

#endif
