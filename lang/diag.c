/* diag.c: GNU-style diagnostics with the source line and a caret line.
** Tabs in the source line are kept in the caret line so the caret lines up;
** control bytes are shown as '?'.  Very long lines are shown as a window
** around the span. */
#include <config.h>
#include "lang/diag.h"
#include "vm/util.h"
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

enum { WINDOW = 160 };  /* bytes of context shown each side of a long line's span */

void diag_init(Diag *d, FILE *out) {
  memset(d, 0, sizeof *d);
  d->out = out;
  d->limit = 100;
}

/* The texts were handed over by diag_add_file, the paths copied there:
** both are the Diag's to free. */
void diag_fini(Diag *d) {
  for (int i = 0; i < d->nfiles; i++) {
    free(d->files[i].path);
    free(d->files[i].text);
  }
  free(d->files);
  memset(d, 0, sizeof *d);
}

/* Files are numbered in registration order; numbers are never reused, so
** a Span stays valid as long as the Diag. */
uint32_t diag_add_file(Diag *d, const char *path, char *text, size_t len) {
  if (d->nfiles == d->cap) {
    d->cap = d->cap ? d->cap * 2 : 8;
    d->files = xrealloc(d->files, (size_t)d->cap * sizeof(SrcFile));
  }
  SrcFile *f = &d->files[d->nfiles];
  f->path = xstrdup(path);
  f->text = text;
  f->len = len;
  return (uint32_t)d->nfiles++;
}

/* A scan from the start of the file: messages are few, so no line index is
** kept.  A start past the end of the text is taken as the end. */
void diag_linecol(const Diag *d, Span sp, int *line, int *col) {
  const SrcFile *f = &d->files[sp.file];
  size_t pos = sp.start > f->len ? f->len : sp.start;
  int ln = 1;
  size_t ls = 0;
  for (size_t i = 0; i < pos; i++)
    if (f->text[i] == '\n') { ln++; ls = i + 1; }
  *line = ln;
  *col = (int)(pos - ls) + 1;
}

/* Print the source line holding sp's start, then a caret line: '^' under
** the span's bytes on that line (one '^' for an empty span), blanks or tabs
** before it.  Bytes more than WINDOW before or after the start are cut
** off and shown as "...". */
static void show_source(Diag *d, Span sp) {
  const SrcFile *f = &d->files[sp.file];
  size_t pos = sp.start > f->len ? f->len : sp.start;
  size_t ls = pos, le = pos;
  while (ls > 0 && f->text[ls - 1] != '\n') ls--;
  while (le < f->len && f->text[le] != '\n') le++;
  size_t end = sp.end > le ? le : sp.end;
  if (end < pos) end = pos;
  size_t from = ls, to = le;
  if (pos - from > WINDOW) from = pos - WINDOW;
  if (to - pos > WINDOW) to = pos + WINDOW;
  if (end > to) end = to;
  Buf line, caret;
  buf_init(&line);
  buf_init(&caret);
  if (from > ls) { buf_puts(&line, "..."); buf_puts(&caret, "   "); }
  for (size_t i = from; i < to; i++) {
    unsigned char c = (unsigned char)f->text[i];
    char shown = (c == '\t' || (c >= 0x20 && c != 0x7f)) ? (char)c : '?';
    if (c == '\r' && i + 1 == le) break;
    buf_putc(&line, shown);
    /* A UTF-8 character takes one column: its continuation bytes add none. */
    if ((c & 0xC0) == 0x80 && i > from && i != pos) continue;
    if (i < pos) buf_putc(&caret, c == '\t' ? '\t' : ' ');
    else if (i < end || i == pos) buf_putc(&caret, '^');
  }
  if (pos >= to) buf_putc(&caret, '^');
  if (to < le) buf_puts(&line, "...");
  fprintf(d->out, "%s\n%s\n", line.data ? line.data : "", caret.data);
  buf_fini(&line);
  buf_fini(&caret);
}

/* Messages quote names from the source; a pathological name (a megabyte
** identifier) is cut to keep the message readable. */
enum { MAX_MESSAGE = 400 };

/* Print one message of `kind` ("error", "warning", "note") at sp's file,
** line and column, cut to MAX_MESSAGE bytes, then the source and caret. */
static void report(Diag *d, Span sp, const char *kind, const char *fmt, va_list ap) {
  int line, col;
  diag_linecol(d, sp, &line, &col);
  Buf msg;
  buf_init(&msg);
  buf_vprintf(&msg, fmt, ap);
  if (msg.len > MAX_MESSAGE) {
    msg.len = MAX_MESSAGE;
    buf_puts(&msg, "...");
  }
  fprintf(d->out, "%s:%d:%d: %s: %s\n", d->files[sp.file].path, line, col, kind, msg.data ? msg.data : "");
  buf_fini(&msg);
  show_source(d, sp);
}

/* Past d->limit errors are counted but not shown; the first one past it
** prints a line saying so. */
void diag_error(Diag *d, Span sp, const char *fmt, ...) {
  d->nerrors++;
  if (d->limit && d->nerrors > d->limit) {
    if (d->nerrors == d->limit + 1)
      fprintf(d->out, "pcheck: too many errors (%d), not showing the rest\n", d->limit);
    return;
  }
  va_list ap;
  va_start(ap, fmt);
  report(d, sp, "error", fmt, ap);
  va_end(ap);
}

void diag_note(Diag *d, Span sp, const char *fmt, ...) {
  if (d->limit && d->nerrors > d->limit) return;
  va_list ap;
  va_start(ap, fmt);
  report(d, sp, "note", fmt, ap);
  va_end(ap);
}

void diag_warning(Diag *d, Span sp, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  report(d, sp, "warning", fmt, ap);
  va_end(ap);
}

void diag_error_noloc(Diag *d, const char *fmt, ...) {
  d->nerrors++;
  va_list ap;
  va_start(ap, fmt);
  fputs("pcheck: error: ", d->out);
  vfprintf(d->out, fmt, ap);
  fputc('\n', d->out);
  va_end(ap);
}

void diag_summary(Diag *d) {
  if (d->nerrors)
    fprintf(d->out, "%d error%s generated.\n", d->nerrors, d->nerrors == 1 ? "" : "s");
}
