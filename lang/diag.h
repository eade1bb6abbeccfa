/* diag.h: source files and compiler diagnostics in GNU format.
** Spans are byte offsets into a registered file; line and column are only
** computed when a message is printed.  Messages go to Diag.out so tests can
** capture them.  Ownership: the Diag owns every registered file's text. */
#ifndef PCHECK_DIAG_H
#define PCHECK_DIAG_H
#include <stdint.h>
#include <stdio.h>
#include <stddef.h>

/* A half-open byte range [start, end) in file number `file`. */
typedef struct Span {
  uint32_t file;        /* index into Diag.files */
  uint32_t start;       /* first byte */
  uint32_t end;         /* one past the last byte; == start for a point */
} Span;

/* A registered source file.  Spans index its text by byte, so the text is
** never changed once registered. */
typedef struct SrcFile {
  char *path;           /* as the user named it (or as found in a directory); heap, the Diag's */
  char *text;           /* whole contents, NUL-terminated, may hold NULs */
  size_t len;           /* bytes in text */
} SrcFile;

/* The files of one model and the count of its errors.  Warnings and notes
** are printed but never counted; only errors make a load fail. */
typedef struct Diag {
  FILE *out;            /* where messages go (stderr in the CLI) */
  SrcFile *files;       /* registered source files, by number (heap block) */
  int nfiles;           /* files[0..nfiles) are registered; a Span's file is below it */
  int cap;              /* SrcFiles allocated */
  int nerrors;          /* errors reported so far (counted past the limit too) */
  int limit;            /* print at most this many errors; 0 = no limit */
} Diag;

/* An empty Diag printing to out, showing at most 100 errors (d->limit). */
void diag_init(Diag *d, FILE *out);
/* Free every registered file's path and text; d is left empty (zeroed). */
void diag_fini(Diag *d);
/* Register a file; takes ownership of text.  Returns its number. */
uint32_t diag_add_file(Diag *d, const char *path, char *text /* takes */, size_t len);
/* 1-based line and column (in bytes) of a span's start. */
void diag_linecol(const Diag *d, Span sp, int *line, int *col);
/* "file:line:col: error: MSG", the source line and a caret under the span. */
void diag_error(Diag *d, Span sp, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* A note attached to the previous error (not counted; not shown once the
** errors are past the limit, as that error was not). */
void diag_note(Diag *d, Span sp, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* "file:line:col: warning: MSG" and the caret; not an error (not counted). */
void diag_warning(Diag *d, Span sp, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* "pcheck: error: MSG" for problems with no source location (counted, and
** always shown: the limit is for errors with a place). */
void diag_error_noloc(Diag *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Print "N error(s) generated." if any errors were reported. */
void diag_summary(Diag *d);

#endif
