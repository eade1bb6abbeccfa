/* report_html.c: the HTML report of a counterexample (being written: for
** now the bug and the step list as a table). */
#include <config.h>
#include "checker/tracedoc.h"
#include <string.h>

static void html_text(Buf *b, const char *s) {
  for (; *s; s++) {
    switch (*s) {
    case '<': buf_puts(b, "&lt;"); break;
    case '>': buf_puts(b, "&gt;"); break;
    case '&': buf_puts(b, "&amp;"); break;
    case '"': buf_puts(b, "&quot;"); break;
    default: buf_putc(b, *s);
    }
  }
}

void report_html(Buf *b, const TraceDoc *d) {
  buf_puts(b, "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>pcheck counterexample</title></head><body>\n<h1>Test ");
  html_text(b, d->test);
  buf_puts(b, "</h1>\n<p><b>");
  html_text(b, vm_status_name(d->bug.status));
  buf_puts(b, "</b>: ");
  html_text(b, d->bug.message ? d->bug.message : "");
  buf_puts(b, "</p>\n<table>\n");
  for (uint32_t i = 0; i < d->nevents; i++) {
    const TdEvent *e = &d->events[i];
    buf_printf(b, "<tr><td>%llu</td><td>", (unsigned long long)e->step);
    html_text(b, d->machines[e->actor].name);
    buf_printf(b, "</td><td>%s</td></tr>\n", tracedoc_kind_name(e->kind));
  }
  buf_puts(b, "</table>\n</body></html>\n");
}
