/* files.c: atomic file writes (files.h). */
#include <config.h>
#include "checker/base/files.h"
#include <errno.h>
#include <stdio.h>
#include <unistd.h>

/* Write b to path (created or truncated) and to the disk.  0, or -1. */
static int write_file(const char *path, const Buf *b) {
  FILE *f = fopen(path, "wb");
  if (!f) return -1;
  size_t n = b->len ? fwrite(b->data, 1, b->len, f) : 0;
  int bad = n != b->len;
  /* On the disk before the rename, so that a crash leaves the old file or
  ** the whole new one, never a renamed empty one. */
  if (fflush(f) != 0 || fsync(fileno(f)) != 0) bad = 1;
  if (fclose(f) != 0) bad = 1;
  return bad ? -1 : 0;
}

int file_write_atomic(const char *path, const Buf *b) {
  Buf tmp;
  buf_init(&tmp);
  buf_printf(&tmp, "%s.tmp%ld", path, (long)getpid());
  int rc = write_file(tmp.data, b);
  if (rc == 0 && rename(tmp.data, path) != 0) rc = -1;
  if (rc != 0) {
    int e = errno;
    remove(tmp.data);
    errno = e;
  }
  buf_fini(&tmp);
  return rc;
}
