/* report_html.c: the HTML report of a counterexample, one self-contained
** page (inline CSS, JS and SVG; nothing fetched; works from file://): the
** bug at the top, a sequence diagram drawn here as SVG, the step list with
** filters, and a panel with every machine's and spec's view after the
** selected step, looked up by the page's script in views embedded as JSON.
**
** What the page offers to readers and to tests (tests/html.sh), stable:
**   #bug                header: test, .kind, .msg, #bug-loc (file:line:col, relative),
**                       #goto-bug (the bug's step), search, seed, steps; #cycle-note
**                       for a lasso (and --unfair) or a spec hot for too long
**   #diagram            svg.head (lifeline names, sticky: g.hd[data-m], .collapsed when
**                       folded) and svg.body (data-cw, data-gut: the layout):
**                       line.lifeline[data-m] one per machine (.spec for specs),
**                       g.ev[data-step][data-kind][data-m][data-o] one per drawn event
**                       (.arrow: send, drop, create; .state; .mark: dequeue, receive,
**                       raise), rect.band[data-step] one per step with drawn events,
**                       .sel on the selected step's band (#sel-mark: a line where a
**                       step without a band would be), g.cycle-start and rect.cycle
**                       for a lasso, g#bug-mark
**   #filter-machine     select, value = machine index ("" = all); #filter-kind: select,
**                       value = event kind ("" = all); #filter-count
**   #steps              table; tbody tr[data-step]: event rows (data-kind = the event kind,
**                       or "step" for a step that logged nothing; data-m actor, data-o
**                       target/creator), tr.sep.cycle-start before the cycle's first row,
**                       tr#bug-row.bug last; tr.sel = the selected step
**   #state-panel        #only-changed (checkbox); #views: h2 "After step N", ul.evs (the
**                       step's events), .mcard[data-m] per spec and machine (.spec,
**                       .changed, .absent), .mstate, .mstatus, table.vars tr[data-var]
**                       (.chg = changed in this step), ol.inbox li (oldest first)
**   #coverage           section (a closed details) with #coverage-summary (the summary line
**                       without "coverage: ") and table#coverage-states: tr[data-machine]
**                       [data-state][data-entered] per state of each machine type created
**                       (.never when not entered; td.unrun: handlers never run)
**   script#trace-data   the views (JSON; see put_data)
**   #collapse           button: folds the lifelines of the machines not involved in the
**                       bug (D.inv), or unfolds all; a folded lifeline is .collapsed, its
**                       own marks .cx (hidden)
**   body                data-ready="1" once the script ran, data-step (selected),
**                       data-visible-rows, data-init-ms (script time), data-load-ms,
**                       data-collapsed (lifelines folded), data-bug-in-view (0/1)
** URL fragment, read on load and on hashchange, written on selection:
**   #step=N  #machine=NAME (or its index)  #kind=KIND  #collapse=0|1 (default:
**   folded at 8 lifelines or more), joined by '&'; #bench=N
**   (tests) times N selections: body data-bench-ms, the mean per selection.
** Keys: ArrowDown/ArrowUp (or j/k) select the next/previous visible step. */
#include <config.h>
#include "checker/report/tracedoc.h"
#include "checker/observe/coverage.h"
#include <stdlib.h>
#include <string.h>

/* ---- Escaping ---- */

/* Characters (UTF-8 code points) of s. */
static size_t utf8_chars(const char *s) {
  size_t n = 0;                                     /* continuation bytes are 10xxxxxx */
  for (; *s; s++) n += ((unsigned char)*s & 0xC0) != 0x80;
  return n;
}

/* Append byte c as HTML text, fit for double- or single-quoted attribute
** values too; control characters (but newline and tab) become U+FFFD. */
static void html_byte(Buf *b, unsigned char c) {
  switch (c) {
  case '<': buf_puts(b, "&lt;"); break;
  case '>': buf_puts(b, "&gt;"); break;
  case '&': buf_puts(b, "&amp;"); break;
  case '"': buf_puts(b, "&quot;"); break;
  case '\'': buf_puts(b, "&#39;"); break;
  default:
    if ((c < 0x20 && c != '\n' && c != '\t') || c == 0x7f) buf_puts(b, "\xEF\xBF\xBD");
    else buf_putc(b, (char)c);
  }
}

/* Append s as HTML text, its first max characters only: when s is
** longer, max - 1 of them and an ellipsis. */
static void html_trunc(Buf *b, const char *s, size_t max) {
  if (!s) return;
  /* keep: the characters written before the ellipsis (all: SIZE_MAX); the
  ** cut falls on a character's first byte, never inside a character. */
  size_t keep = utf8_chars(s) > max ? (max ? max - 1 : 0) : SIZE_MAX, n = 0;
  for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
    if ((*p & 0xC0) != 0x80 && n++ == keep) { buf_puts(b, "\xE2\x80\xA6"); return; }
    html_byte(b, *p);
  }
}

/* Append s (NULL: nothing) as HTML text. */
static void html_text(Buf *b, const char *s) { html_trunc(b, s, SIZE_MAX); }

/* Append s as a JSON string that is safe inside a <script> element: '<',
** '>' and '&' escaped too, and U+2028/U+2029 for old JS parsers. */
static void js_string(Buf *b, const char *s) {
  /* "</script" or "<!--" inside the block would end it or change how it is
  ** parsed: no '<' is left as is, so neither can appear. */
  buf_putc(b, '"');
  for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++) {
    unsigned char c = *p;
    if (c == '"' || c == '\\') { buf_putc(b, '\\'); buf_putc(b, (char)c); }
    else if (c == '\n') buf_puts(b, "\\n");
    else if (c < 0x20 || c == 0x7f || c == '<' || c == '>' || c == '&') buf_printf(b, "\\u%04x", c);
    else if (c == 0xE2 && p[1] == 0x80 && (p[2] == 0xA8 || p[2] == 0xA9)) {
      buf_printf(b, "\\u%04x", p[2] == 0xA8 ? 0x2028 : 0x2029);
      p += 2;
    } else buf_putc(b, (char)c);
  }
  buf_putc(b, '"');
}

/* ---- Small readers of the document ---- */

/* The name of machine m, never NULL. */
static const char *mname(const TraceDoc *d, int64_t m) {
  return m >= 0 && (uint64_t)m < d->nmachines && d->machines[m].name ? d->machines[m].name : "?";
}

/* Whether the bug happened inside the last step (the step failed, so no
** view was recorded after it) rather than in the state it reached. */
static int bug_in_step(const TraceDoc *d) {
  VmStatus s = d->bug.status;
  return s == VM_BUG_ASSERT || s == VM_BUG_UNHANDLED || s == VM_BUG_RUNTIME || s == VM_BAD_STATE;
}

/* The machine the bug is drawn on: a spec the message names in quotes
** (liveness), else the last step's actor, else the first machine. */
static uint32_t bug_machine(const TraceDoc *d) {
  const char *msg = d->bug.message ? d->bug.message : "";
  for (uint32_t m = 0; m < d->nspecs && m < d->nmachines; m++) {
    const char *n = mname(d, m);
    size_t len = strlen(n);
    for (const char *p = strchr(msg, '\''); p; p = strchr(p + 1, '\''))
      if (strncmp(p + 1, n, len) == 0 && p[1 + len] == '\'') return m;
  }
  int32_t a = d->steps[d->nsteps].actor;
  if (a >= 0 && (uint32_t)a < d->nmachines) return (uint32_t)a;
  return d->nspecs < d->nmachines ? d->nspecs : 0;
}

/* ---- The page's head: title and style sheet ---- */

/* The style sheet, in parts: page and header; the grid of boxes; the
** diagram's SVG; the filters and the step list; the state panel. */
static const char *const css[] = {
  "#coverage{background:#fff;margin:10px 12px;padding:8px 16px;border-radius:6px;box-shadow:0 1px 3px rgba(0,0,0,.15)}\n",
  "#coverage summary{cursor:pointer;font-weight:600}\n",
  "#coverage table{border-collapse:collapse;margin-top:6px}\n",
  "#coverage td,#coverage th{border-bottom:1px solid var(--line);padding:2px 8px;text-align:left;vertical-align:top}\n",
  "#coverage tr.never td,#coverage td.unrun{color:var(--red)}\n",
  ":root{--red:#c62828;--blue:#1d5fb4;--green:#2e7d32;--purple:#7b1fa2;--amber:#d98200;--line:#d9dde3}\n",
  "*{box-sizing:border-box}\n",
  "body{margin:0;font:13px/1.45 'DejaVu Sans','Segoe UI',Roboto,Helvetica,Arial,sans-serif;color:#1d2430;"
  "background:#f3f4f6}\n",
  "code,.pl,.vv,.inbox li{font-family:'DejaVu Sans Mono',Menlo,Consolas,monospace;font-size:12px}\n",
  "#bug{background:#fff;border-left:6px solid var(--red);margin:10px 12px;padding:10px 16px;border-radius:6px;"
  "box-shadow:0 1px 3px rgba(0,0,0,.15)}\n",
  "#bug .test{color:#5b6472;font-size:12px}\n",
  "#bug h1{margin:2px 0 4px;font-size:18px;line-height:1.35}\n",
  "#bug .kind{color:#fff;background:var(--red);border-radius:4px;padding:1px 8px;margin-right:8px;font-size:14px;"
  "white-space:nowrap;vertical-align:2px}\n",
  "#bug .msg{color:var(--red)}\n",
  "#bug .where,#bug .meta{color:#39414d}\n",
  "#bug .meta{font-size:12px;color:#5b6472}\n",
  "#bug a{color:var(--blue)}\n",
  "#cycle-note{margin-top:4px;color:#7a4a00;background:#fff4e0;border:1px solid #f3cf8f;border-radius:4px;"
  "padding:2px 8px;display:inline-block}\n",
  /* Diagram and list on the left, the state panel on the right, sticky. */
  "main{display:grid;grid-template-columns:minmax(0,1fr) minmax(300px,30%);gap:10px;padding:0 12px 12px}\n",
  ".box{background:#fff;border-radius:6px;box-shadow:0 1px 3px rgba(0,0,0,.15);min-width:0}\n",
  ".box>h2,#state-panel h2{font-size:13px;margin:0;padding:6px 12px;border-bottom:1px solid var(--line);"
  "background:#fafbfc;border-radius:6px 6px 0 0}\n",
  ".box>h2 small,#state-panel h2 small{font-weight:normal;color:#6b7380}\n",
  "#diagram-box{grid-column:1;grid-row:1}\n",
  "#list-box{grid-column:1;grid-row:2}\n",
  "#state-panel{grid-column:2;grid-row:1/span 2;align-self:start;position:sticky;top:8px;"
  "max-height:calc(100vh - 16px);overflow:auto}\n",
  "#diagram{max-height:56vh;overflow:auto;position:relative}\n",
  "#diagram svg{display:block;font-size:11px;min-width:100%}\n",
  "#diagram svg.head{position:sticky;top:0;z-index:2;background:#fff;border-bottom:1px solid var(--line)}\n",
  /* The diagram: names, step bands (selected: yellow), the cycle, lifelines, events. */
  "svg .hd rect{fill:#eef3fb;stroke:var(--blue)}\n",
  "svg .hd.spec rect{fill:#f6eef9;stroke:var(--purple);stroke-dasharray:4 2}\n",
  "svg .hd text{font-weight:bold;text-anchor:middle}\n",
  "svg .hd.spec text{fill:var(--purple);font-style:italic}\n",
  "svg .band{fill:transparent;cursor:pointer}\n",
  "svg .band.odd{fill:#f8f9fb}\n",
  "svg .band:hover{fill:#eef1f6}\n",
  "svg .band.sel{fill:#ffe58a}\n",
  "svg #sel-mark{fill:#e0a800;pointer-events:none}\n",
  "svg .cycle{fill:rgba(245,166,35,.10);pointer-events:none}\n",
  "svg .cycle-start line{stroke:var(--amber);stroke-width:2;stroke-dasharray:8 4}\n",
  "svg .cycle-start text{fill:#8a5200;font-weight:bold}\n",
  "svg .lifeline{stroke:#9aa3ae;stroke-width:1.5}\n",
  "svg .lifeline.spec{stroke:#c9a3d8;stroke-dasharray:3 3}\n",
  /* A folded lifeline: narrow, its name in the tooltip, its own marks hidden. */
  "svg .lifeline.collapsed{stroke:#d5d9df;stroke-dasharray:2 4}\n",
  "svg .hd{cursor:pointer}\n",
  "svg .hd.collapsed text{display:none}\n",
  "svg .hd.collapsed rect{fill:#f1f2f4;stroke:#c3c8cf}\n",
  "svg .ev.cx{display:none}\n",
  "#collapse{font:inherit;font-size:11px;margin-left:8px;padding:1px 8px;cursor:pointer}\n",
  "svg .stepno{fill:#7b8390;text-anchor:end;font-size:10px}\n",
  "svg .ev{cursor:pointer}\n",
  "svg .ev text{fill:#1d2430}\n",
  "svg .arrow line,svg .arrow path{stroke:var(--blue);stroke-width:1.4;fill:none}\n",
  "svg .arrow[data-kind=create] line{stroke:var(--green);stroke-dasharray:5 3}\n",
  "svg .arrow[data-kind=create] text{fill:var(--green)}\n",
  "svg .arrow[data-kind=drop] line,svg .arrow[data-kind=drop] path{stroke:#b71c1c;stroke-dasharray:2 3}\n",
  "svg .arrow[data-kind=drop] text{fill:#b71c1c}\n",
  "svg .state rect{fill:#e3eefc;stroke:var(--blue)}\n",
  "svg .state.spec rect{fill:#f5e9fa;stroke:var(--purple)}\n",
  "svg .state[data-kind=halt] rect{fill:#4a4f57;stroke:#4a4f57}\n",
  "svg .state[data-kind=halt] text{fill:#fff}\n",
  "svg .state text{text-anchor:middle}\n",
  "svg .mark circle{fill:#00897b}\n",
  "svg .mark text{fill:#00695c}\n",
  "svg .ev.dim{opacity:.18}\n",
  "svg #bug-mark circle{fill:var(--red)}\n",
  "svg #bug-mark path{stroke:#fff;stroke-width:2.2}\n",
  "svg #bug-mark text{fill:var(--red);font-weight:bold;font-size:12px;paint-order:stroke;stroke:#fff;"
  "stroke-width:3px;stroke-linejoin:round}\n",
  /* The list: fixed layout and a separate-borders table, so that selecting a
  ** row repaints it without laying the table out again. */
  "#filters{display:flex;flex-wrap:wrap;gap:6px 16px;align-items:center;padding:6px 12px;"
  "border-bottom:1px solid var(--line)}\n",
  "#filters select{font:inherit;padding:1px 4px;max-width:260px}\n",
  "#filter-count{color:#6b7380}\n",
  "#filters .keys{color:#8a919c;font-size:11px;margin-left:auto}\n",
  "#list{max-height:60vh;overflow:auto}\n",
  "#steps{border-collapse:separate;border-spacing:0;width:100%;table-layout:fixed}\n",
  "#steps th{position:sticky;top:0;background:#fafbfc;text-align:left;font-weight:600;z-index:1;"
  "border-bottom:1px solid var(--line);padding:3px 8px}\n",
  "#steps td{padding:2px 8px;vertical-align:top;border-bottom:1px solid #eef0f3;overflow:hidden;"
  "text-overflow:ellipsis;white-space:nowrap}\n",
  "#steps col.n{width:56px}#steps col.who{width:17%}#steps col.k{width:76px}#steps col.loc{width:24%}\n",
  "#steps tbody tr{cursor:pointer}\n",
  "#steps tr.odd{background:#f8f9fb}\n",
  "#steps tr:hover{background:#eef1f6}\n",
  "#steps td.n{color:#6b7380;text-align:right}\n",
  "#steps tr.first td.n{color:#1d2430;font-weight:600}\n",
  "#steps tr.spec td.who{color:var(--purple);font-style:italic}\n",
  "#steps td.loc{color:#5b6472;direction:rtl;text-align:left}\n",
  "#steps td.loc bdi{direction:ltr}\n",
  "#steps tr.sel{background:#ffe58a}\n",

  "#steps .pl{color:#5b6472}\n",
  "#steps tr.cyc td.n{box-shadow:inset 3px 0 var(--amber)}\n",
  "#steps tr.sep td{background:#fff4e0;color:#8a5200;font-weight:bold;border-top:2px dashed var(--amber)}\n",
  "#steps tr.bug td{background:#fdecea;color:var(--red);font-weight:bold;white-space:normal}\n",
  "#steps tr.bug td.loc{direction:ltr;overflow-wrap:anywhere}\n",
  "#steps tr.bug.sel td{background:#ffd7d2}\n",
  /* The state panel: the step's events, then a card per spec and machine. */
  "#state-panel .ph{padding:4px 12px;border-bottom:1px solid var(--line);font-size:12px;color:#5b6472}\n",
  "#views{padding:8px 10px}\n",
  "#views .stepinfo{margin:0 0 4px}\n",
  "#views ul.evs{margin:0 0 8px;padding:4px 8px 4px 22px;max-height:30vh;overflow:auto;background:#fffbe6;"
  "border:1px solid #f3e3a0;border-radius:4px}\n",
  "#views ul.evs li{overflow-wrap:anywhere}\n",
  "#views ul.evs .k{color:#6b7380;display:inline-block;min-width:58px}\n",
  "#views ul.evs .loc{color:#6b7380;font-size:11px}\n",
  "#views ul.evs li.bug{color:var(--red);font-weight:bold}\n",
  "#views .note{margin:0 0 6px;padding:3px 8px;border-radius:4px}\n",
  "#views .note.bug{background:#fdecea;color:var(--red)}\n",
  "#views .note.cyc{background:#fff4e0;color:#8a5200}\n",
  ".mcard{border:1px solid var(--line);border-radius:5px;margin:0 0 6px;padding:4px 8px;background:#fff}\n",
  ".mcard.spec{border-style:dashed;border-color:#cfb2dc}\n",
  ".mcard.changed{border-color:#e0b800;box-shadow:inset 3px 0 #f2c200}\n",
  ".mcard.absent{color:#8a919c;background:#f7f7f8}\n",
  ".only-changed .mcard:not(.changed){display:none}\n",
  ".mh b{margin-right:4px}\n",
  ".tag{font-size:10px;border-radius:3px;padding:0 4px;background:#f1e4f7;color:var(--purple)}\n",
  ".tag.new{background:#e4f3e6;color:var(--green)}\n",
  ".mstate{font-weight:600;color:var(--blue)}\n",
  ".mcard.spec .mstate{color:var(--purple)}\n",
  ".mstatus{color:#7a4a00;font-size:11px;background:#fff4e0;border-radius:3px;padding:0 4px}\n",
  "table.vars{border-collapse:collapse;margin:3px 0 0;width:100%}\n",
  "table.vars td{padding:0 4px;vertical-align:top;border-top:1px solid #f0f1f3}\n",
  "table.vars td.vn{color:#5b6472;width:1%;white-space:nowrap}\n",
  "table.vars td.vv{overflow-wrap:anywhere}\n",
  "table.vars tr.chg td{background:#fff3b0}\n",
  ".inbox{color:#5b6472;font-size:12px;margin-top:2px}\n",
  ".inbox ol{margin:0;padding-left:22px;color:#1d2430}\n"  ".inbox.chg ol{background:#fff3b0}\n",
  ".inbox li{overflow-wrap:anywhere}\n",
  ".hint{color:#6b7380}\n",
};

/* The document's start: doctype, title, style sheet. */
static void put_head(Buf *b, const TraceDoc *d) {
  buf_puts(b, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
              "<meta name=\"viewport\" content=\"width=device-width,initial-scale=1\">\n"
              "<meta name=\"generator\" content=\"pcheck " PACKAGE_VERSION "\">\n<title>");
  html_text(b, d->test);
  buf_puts(b, ": ");
  html_text(b, d->bug.status != VM_OK ? vm_status_name(d->bug.status) : "no bug");
  buf_puts(b, " (pcheck counterexample)</title>\n<style>\n");
  for (size_t i = 0; i < sizeof css / sizeof css[0]; i++) buf_puts(b, css[i]);
  buf_puts(b, "</style></head>\n<body>\n");
}

/* ---- The header: the bug ---- */

/* The bug's location "file:line:col" (relative), nothing if it has none. */
static void put_location(Buf *b, const TraceDoc *d) {
  if (!d->bug_file) return;
  html_text(b, d->bug_file);
  buf_printf(b, ":%u:%u", d->bug.line, d->bug.col);
}

/* The #bug header: test, bug kind and message, location, search, steps,
** and for a lasso where its cycle starts. */
static void put_header(Buf *b, const TraceDoc *d) {
  unsigned long long n = d->nsteps, bs = d->bug_step;
  /* The title line, then the bug: its kind as a badge, its message. */
  buf_puts(b, "<header id=\"bug\">\n<div class=\"test\">pcheck counterexample of test <b>");
  html_text(b, d->test);
  buf_puts(b, "</b></div>\n<h1><span class=\"kind\">");
  html_text(b, d->bug.status != VM_OK ? vm_status_name(d->bug.status) : "no bug reached");
  buf_puts(b, "</span><span class=\"msg\">");
  html_text(b, tracedoc_bug_message(&d->bug));
  buf_puts(b, "</span></h1>\n<div class=\"where\">");
  /* Where: a bug in a step has a source location; a liveness bug is about
  ** the state after the last step. */
  if (d->bug_file) {
    buf_puts(b, "at <code id=\"bug-loc\">");
    put_location(b, d);
    buf_puts(b, "</code>, ");
  }
  buf_printf(b, "%s step <a href=\"#step=%llu\" id=\"goto-bug\">%llu</a> of %llu</div>\n",
             d->bug_file ? "in" : "after", bs, bs, n);
  /* How it was found and how big the trace is. */
  buf_puts(b, "<div class=\"meta\">found by <code>--search ");
  html_text(b, *d->search ? d->search : "?");
  buf_printf(b, "</code> with seed %llu &middot; %llu steps, %llu events &middot; %u machines, %u specs</div>\n",
             (unsigned long long)d->seed, n, (unsigned long long)d->nevents,
             d->nmachines - d->nspecs, d->nspecs);
  /* A lasso: the steps after cycle_start return to the state after it. */
  if (d->cycle_start >= 0) {
    unsigned long long k = (unsigned long long)d->cycle_start;
    buf_printf(b, "<div id=\"cycle-note\">&#8635; cycle: steps %llu to %llu repeat forever (the state after step "
                  "%llu is the state after step %llu)", k + 1, n, n, k);
    if (d->unfair) buf_puts(b, "; found with --unfair: the cycle need not be fair");
    buf_puts(b, "</div>\n");
  } else if (d->bug.status == VM_BUG_HOT_TEMP) {
    buf_printf(b, "<div id=\"cycle-note\">a spec stayed hot for more than %lld steps</div>\n",
               (long long)d->temperature);
  }
  buf_puts(b, "</header>\n");
}

/* ---- The sequence diagram ---- */

/* Geometry, in pixels: the step-number gutter, the names' header, a row,
** the room above the cycle's start line, the bug's row, the char width. */
enum { DG_GUT = 44, DG_HEAD = 34, DG_ROW = 22, DG_GAP = 20, DG_BUGROW = 28, DG_BUGLINE = 16, DG_TOP = 4 };
#define DG_CHAR 6.2

/* A drawn event (or the bug) and the row it is in. */
typedef struct DgItem {
  uint32_t ev;               /* TraceDoc.events index, or UINT32_MAX for the bug */
  uint32_t row;
} DgItem;

/* The diagram's layout: columns, items, rows and their heights. */
typedef struct Diagram {
  const TraceDoc *d;
  uint32_t *col;             /* machines index -> column (machines, then specs) */
  uint32_t ncols;
  int cw;                    /* a column's width */
  int width, height;
  DgItem *items;
  uint32_t nitems;
  uint64_t *row_step;        /* each row's step */
  int *row_y;                /* each row's top */
  uint32_t nrows, rows_cap;
  uint32_t cycle_row;        /* the cycle's first row, or UINT32_MAX */
  uint32_t bug_col;
  Buf bug;                   /* the bug's note, in lines of NUL-separated text */
  int buglines;
} Diagram;

/* Whether event e has a place in the diagram (the rest is in the list). */
static int dg_drawn(const TdEvent *e) {
  switch (e->kind) {
  case VE_SEND: case VE_DROP: return !e->spec && e->other >= 0;
  case VE_CREATE: return !e->spec && (e->other >= 0 || e->step > 0);
  case VE_STATE: case VE_HALT: case VE_DEQUEUE: case VE_RECEIVE: case VE_RAISE: return 1;
  default: return 0;
  }
}

/* The horizontal room item e takes, in half columns [lo, hi): two items
** of a step share a row when their rooms do not meet. */
static void dg_span(const Diagram *g, const TdEvent *e, int *lo, int *hi) {
  int c = 2 * (int)g->col[e->actor];
  int arrow = (e->kind == VE_SEND || e->kind == VE_DROP || e->kind == VE_CREATE) && e->other >= 0;
  if (arrow) {
    int t = 2 * (int)g->col[e->other];
    if (t == c) { *lo = c - 1; *hi = c + 2; }       /* a loop to the right, its label */
    else { *lo = t < c ? t : c; *hi = (t < c ? c : t) + 1; }
  } else if (e->kind == VE_DEQUEUE || e->kind == VE_RECEIVE || e->kind == VE_RAISE) {
    *lo = c - 1; *hi = c + 4;                       /* a dot, its label to the right */
  } else {
    *lo = c - 1; *hi = c + 1;                       /* a box on the lifeline */
  }
}

/* Columns: machines by index, then specs; the column width from the
** longest name. */
static void dg_columns(Diagram *g) {
  const TraceDoc *d = g->d;
  g->col = xcalloc(d->nmachines ? d->nmachines : 1, sizeof(uint32_t));
  size_t longest = 8;
  for (uint32_t m = d->nspecs; m < d->nmachines; m++) g->col[m] = g->ncols++;
  for (uint32_t m = 0; m < d->nspecs && m < d->nmachines; m++) g->col[m] = g->ncols++;
  for (uint32_t m = d->nspecs; m < d->nmachines; m++) {  /* specs' names may be cut */
    size_t n = utf8_chars(mname(d, m));
    if (n > longest) longest = n;
  }
  g->cw = (int)(longest * 7.2) + 20;
  if (g->cw < 110) g->cw = 110;
  if (g->cw > 180) g->cw = 180;
  g->width = DG_GUT + (int)g->ncols * g->cw + 16;
  if (g->width < 560) g->width = 560;
}

/* Start a new row for step `step` (the rows' table grows by doubling). */
static void dg_new_row(Diagram *g, uint64_t step) {
  if (g->nrows == g->rows_cap) {
    g->rows_cap = g->rows_cap ? 2 * g->rows_cap : 64;
    g->row_step = xrealloc(g->row_step, g->rows_cap * sizeof(uint64_t));
  }
  g->row_step[g->nrows++] = step;
}

/* Place the drawn events in rows, in order: an item joins the step's last
** row when it meets no item there, else opens a row; the bug gets the last. */
static void dg_rows(Diagram *g) {
  const TraceDoc *d = g->d;
  /* Only the last row of the current step takes more items, so that the
  ** order of a lifeline's items is the order of its events (its items
  ** always meet each other, so never share a row). */
  g->items = xcalloc((size_t)d->nevents + 1, sizeof(DgItem));
  int used[64][2];                                  /* the rooms taken in the current row */
  int nused = 0;
  for (uint32_t i = 0; i < d->nevents; i++) {
    const TdEvent *e = &d->events[i];
    if (!dg_drawn(e)) continue;
    int lo, hi, fits = g->nrows && g->row_step[g->nrows - 1] == e->step && nused < 64;
    dg_span(g, e, &lo, &hi);
    for (int k = 0; k < nused && fits; k++) fits = hi <= used[k][0] || lo >= used[k][1];
    if (!fits) { dg_new_row(g, e->step); nused = 0; }
    used[nused][0] = lo;
    used[nused++][1] = hi;
    g->items[g->nitems].ev = i;
    g->items[g->nitems++].row = g->nrows - 1;
  }
  if (d->bug.status != VM_OK) {
    dg_new_row(g, d->bug_step);
    g->items[g->nitems].ev = UINT32_MAX;
    g->items[g->nitems++].row = g->nrows - 1;
  }
}

/* The number of bytes of s's first line when lines hold max characters:
** cut at the last space that fits, else at max characters. */
static size_t line_len(const char *s, size_t max) {
  size_t chars = 0, space = 0, i = 0;
  for (; s[i]; i++) {
    if (((unsigned char)s[i] & 0xC0) == 0x80) continue;
    if (chars == max) return space ? space : i;
    if (s[i] == ' ') space = i + 1;
    chars++;
  }
  return i;
}

/* The bug's note, "bug at step N: kind: message (location)", cut into at
** most 4 lines that fit the diagram's width. */
static void dg_bug_note(Diagram *g) {
  const TraceDoc *d = g->d;
  Buf t;
  buf_init(&t);
  buf_init(&g->bug);
  buf_printf(&t, "bug at step %llu: %s: %s", (unsigned long long)d->bug_step, vm_status_name(d->bug.status),
             tracedoc_bug_message(&d->bug));
  if (d->bug_file) buf_printf(&t, " (%s:%u:%u)", d->bug_file, d->bug.line, d->bug.col);
  int px = (g->width < 760 ? g->width : 760) - DG_GUT - 10;
  size_t max = (size_t)(px / 7.4);
  for (const char *p = t.data; *p && g->buglines < 4; g->buglines++) {
    size_t n = g->buglines == 3 ? strlen(p) : line_len(p, max);
    buf_append(&g->bug, p, n);
    buf_putc(&g->bug, 0);
    p += n;
  }
  buf_fini(&t);
}

/* Each row's top, with the room for the cycle's label before its first
** row, and the total height. */
static void dg_heights(Diagram *g) {
  const TraceDoc *d = g->d;
  /* The cycle starts at the first row of a step after cycle_start (the
  ** bug's row if the cycle draws nothing, past the end if there is none). */
  g->cycle_row = UINT32_MAX;
  if (d->cycle_start >= 0)
    for (uint32_t r = 0; r < g->nrows && g->cycle_row == UINT32_MAX; r++)
      if (g->row_step[r] > (uint64_t)d->cycle_start) g->cycle_row = r;
  /* row_y[nrows] is the bottom of the last row. */
  g->row_y = xcalloc(g->nrows + 1, sizeof(int));
  int y = DG_TOP;
  for (uint32_t r = 0; r < g->nrows; r++) {
    if (r == g->cycle_row) y += DG_GAP;
    g->row_y[r] = y;
    int bugrow = d->bug.status != VM_OK && r == g->nrows - 1;
    y += bugrow ? DG_BUGROW + DG_BUGLINE * g->buglines : DG_ROW;
  }
  if (g->cycle_row == UINT32_MAX && d->cycle_start >= 0) { g->cycle_row = g->nrows; y += DG_GAP; }
  g->row_y[g->nrows] = y;
  g->height = y + 8;
}

/* The x of column c's lifeline. */
static int dg_x(const Diagram *g, uint32_t c) { return DG_GUT + (int)c * g->cw + g->cw / 2; }

/* The names above the lifelines: the sticky header svg. */
static void dg_put_head(Buf *b, const Diagram *g) {
  const TraceDoc *d = g->d;
  buf_printf(b, "<svg class=\"head\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\">\n", g->width,
             DG_HEAD);
  size_t fit = (size_t)((g->cw - 14) / 7.2);
  for (uint32_t m = 0; m < d->nmachines; m++) {
    int x = dg_x(g, g->col[m]);
    buf_printf(b, "<g class=\"hd%s\" data-m=\"%u\"><title>", d->machines[m].spec ? " spec" : "", m);
    html_text(b, mname(d, m));
    buf_puts(b, d->machines[m].spec ? " (spec)" : "");
    buf_printf(b, "</title><rect x=\"%d\" y=\"5\" width=\"%d\" height=\"24\" rx=\"4\"/><text x=\"%d\" y=\"21\">",
               x - g->cw / 2 + 5, g->cw - 10, x);
    html_trunc(b, mname(d, m), fit);
    buf_puts(b, "</text></g>\n");
  }
  buf_puts(b, "</svg>\n");
}

/* The clickable band of each step with rows, shaded every other step, its
** number in the gutter; then the cycle's shading. */
static void dg_put_bands(Buf *b, const Diagram *g) {
  /* A band spans its step's rows [r, e); the room above the cycle's line
  ** belongs to no band. Bands span the width the page gives the svg. */
  for (uint32_t r = 0; r < g->nrows;) {
    uint32_t e = r;
    while (e < g->nrows && g->row_step[e] == g->row_step[r]) e++;
    unsigned long long s = g->row_step[r];
    buf_printf(b, "<rect class=\"band%s\" data-step=\"%llu\" x=\"0\" y=\"%d\" width=\"100%%\" height=\"%d\"/>"
                  "<text class=\"stepno\" x=\"%d\" y=\"%d\">%llu</text>\n",
               s % 2 ? " odd" : "", s, g->row_y[r], g->row_y[e] - g->row_y[r] - (e == g->cycle_row ? DG_GAP : 0),
               DG_GUT - 8, g->row_y[r] + 15, s);
    r = e;
  }
  if (g->cycle_row != UINT32_MAX) {
    int y = g->row_y[g->cycle_row < g->nrows ? g->cycle_row : g->nrows];
    buf_printf(b, "<rect class=\"cycle\" x=\"0\" y=\"%d\" width=\"100%%\" height=\"%d\"/>\n", y, g->height - y);
  }
}

/* One lifeline per machine and spec: from the top (or its creation) to
** the bottom (or its halt). */
static void dg_put_lifelines(Buf *b, const Diagram *g) {
  const TraceDoc *d = g->d;
  size_t n = d->nmachines ? d->nmachines : 1;
  int *top = xcalloc(n, sizeof(int)), *bottom = xcalloc(n, sizeof(int));  /* 0: none yet */
  for (uint32_t k = 0; k < g->nitems; k++) {
    if (g->items[k].ev == UINT32_MAX) continue;
    const TdEvent *e = &d->events[g->items[k].ev];
    int y = g->row_y[g->items[k].row] + 15;
    if (e->kind == VE_CREATE && !top[e->actor]) top[e->actor] = y;
    if (e->kind == VE_HALT && !bottom[e->actor]) bottom[e->actor] = y;
  }
  for (uint32_t m = 0; m < d->nmachines; m++) {
    if (!top[m] && d->machines[m].created > 0)  /* created without a drawn creation: its step's first row */
      for (uint32_t r = 0; r < g->nrows && !top[m]; r++)
        if (g->row_step[r] >= d->machines[m].created) top[m] = g->row_y[r] + 15;
    int x = dg_x(g, g->col[m]);
    buf_printf(b, "<line class=\"lifeline%s\" data-m=\"%u\" x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/>\n",
               d->machines[m].spec ? " spec" : "", m, x, top[m], x, bottom[m] ? bottom[m] : g->height);
  }
  free(top);
  free(bottom);
}

/* The label of an arrow or a mark: "step: what", fit to chars. */
static void dg_label(Buf *b, uint64_t step, const char *what, const char *name, int px) {
  Buf t;
  buf_init(&t);
  buf_printf(&t, "%llu: %s%s", (unsigned long long)step, what, name ? name : "");
  html_trunc(b, t.data, px > 0 ? (size_t)(px / DG_CHAR) : 1);
  buf_fini(&t);
}

/* The attribute data-l="LABEL" of an arrow's text: its whole label, which
** the script cuts again when the columns change (collapse()). */
static void dg_label_attr(Buf *b, uint64_t step, const char *what, const char *name) {
  Buf t;
  buf_init(&t);
  buf_printf(&t, "%llu: %s%s", (unsigned long long)step, what, name ? name : "");
  buf_puts(b, " data-l=\"");
  html_text(b, t.data);
  buf_putc(b, '"');
  buf_fini(&t);
}

/* The tooltip of event e: what the list says of it, in one line. */
static void dg_title(Buf *b, const TraceDoc *d, const TdEvent *e) {
  buf_printf(b, "<title>step %llu: ", (unsigned long long)e->step);
  html_text(b, mname(d, e->actor));
  buf_printf(b, " %s", tracedoc_kind_name(e->kind));
  if (e->event) { buf_putc(b, ' '); html_text(b, e->event); }
  if (e->state && e->kind == VE_STATE) { buf_putc(b, ' '); html_text(b, e->state); }
  if (e->other >= 0) {
    buf_puts(b, e->kind == VE_CREATE ? " by " : " to ");
    html_text(b, mname(d, e->other));
  }
  if (e->payload) { buf_puts(b, ": "); html_trunc(b, e->payload, 160); }
  buf_puts(b, "</title>");
}

/* An arrow: a send, a dropped send, a creation (from the creator); a
** loop when a machine sends to itself. */
static void dg_put_arrow(Buf *b, const Diagram *g, const TdEvent *e, int y) {
  /* A creation's event is the created machine's, its `other` the creator:
  ** the arrow goes from the creator to the new lifeline. */
  int create = e->kind == VE_CREATE;
  uint32_t from = create ? (uint32_t)e->other : e->actor, to = create ? e->actor : (uint32_t)e->other;
  int x1 = dg_x(g, g->col[from]), x2 = dg_x(g, g->col[to]);
  const char *what = create ? "new " : "";
  const char *name = create ? g->d->machines[e->actor].type : e->event;
  const char *marker = create ? "ah-new" : e->kind == VE_DROP ? "ah-drop" : "ah";
  if (x1 == x2) {                                  /* to itself: out, down, back */
    buf_printf(b, "<path d=\"M%d %d h24 v9 h-21\" marker-end=\"url(#%s)\"/><text x=\"%d\" y=\"%d\">", x1, y - 6,
               marker, x1 + 29, y + 2);
    dg_label(b, e->step, what, name, g->cw - 34);
  } else {                                         /* the label above, centred, cut to the span */
    int dir = x2 > x1 ? 1 : -1, w = (x2 - x1) * dir;
    buf_printf(b, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" marker-end=\"url(#%s)\"/>"
                  "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\"",
               x1, y, x2 - 2 * dir, y, marker, (x1 + x2) / 2, y - 4);
    dg_label_attr(b, e->step, what, name);
    buf_putc(b, '>');
    dg_label(b, e->step, what, name, w - 12);
  }
  if (e->kind == VE_DROP) buf_puts(b, " (dropped)");
  buf_puts(b, "</text>");
}

/* A state box (entered state, or "halted") on the actor's lifeline. */
static void dg_put_box(Buf *b, const Diagram *g, const TdEvent *e, int top) {
  /* The box is as wide as its text, at most the column less a margin. */
  const char *text = e->kind == VE_HALT ? "halted" : e->kind == VE_CREATE ? "created" : e->state ? e->state : "?";
  size_t fit = (size_t)((g->cw - 18) / DG_CHAR), n = utf8_chars(text);
  int w = (int)((n < fit ? n : fit) * DG_CHAR) + 14, x = dg_x(g, g->col[e->actor]);
  buf_printf(b, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"17\" rx=\"5\"/><text x=\"%d\" y=\"%d\">", x - w / 2,
             top + 3, w, x, top + 15);
  html_trunc(b, text, fit);
  buf_puts(b, "</text>");
}

/* A dot on the actor's lifeline, labelled: a dequeue, a receive, a raise. */
static void dg_put_mark(Buf *b, const Diagram *g, const TdEvent *e, int top) {
  int x = dg_x(g, g->col[e->actor]);
  const char *what = e->kind == VE_DEQUEUE ? "got " : e->kind == VE_RECEIVE ? "received " : "raised ";
  buf_printf(b, "<circle cx=\"%d\" cy=\"%d\" r=\"4\"/><text x=\"%d\" y=\"%d\">", x, top + 11, x + 8, top + 15);
  dg_label(b, e->step, what, e->event, 2 * g->cw - 24);
  buf_puts(b, "</text>");
}

/* The bug's mark on its machine's lifeline and its note below. */
static void dg_put_bug(Buf *b, const Diagram *g, int top) {
  const TraceDoc *d = g->d;
  int x = dg_x(g, g->col[g->bug_col]), y = top + 11;
  buf_printf(b, "<g id=\"bug-mark\" class=\"ev\" data-step=\"%llu\" data-kind=\"bug\" data-m=\"%u\"><title>",
             (unsigned long long)d->bug_step, g->bug_col);
  html_text(b, tracedoc_bug_message(&d->bug));
  buf_printf(b, "</title><g class=\"bx\"><circle cx=\"%d\" cy=\"%d\" r=\"9\"/><path d=\"M%d %d l8 8 m0 -8 l-8 8\"/>"
                "</g><text>", x, y, x - 4, y - 4);
  size_t fit = (size_t)((g->width - DG_GUT - 10) / 7.4);
  const char *line = g->bug.data;
  for (int i = 0; i < g->buglines; i++, line += strlen(line) + 1) {
    buf_printf(b, "<tspan x=\"%d\" y=\"%d\">", DG_GUT + 4, top + 36 + i * DG_BUGLINE);
    html_trunc(b, line, fit);
    buf_puts(b, "</tspan>");
  }
  buf_puts(b, "</text></g>\n");
}

/* Every item: an arrow, a box or a mark in a clickable group that says
** its step, kind and machines; the bug last. */
static void dg_put_items(Buf *b, const Diagram *g) {
  const TraceDoc *d = g->d;
  for (uint32_t k = 0; k < g->nitems; k++) {
    int top = g->row_y[g->items[k].row];
    if (g->items[k].ev == UINT32_MAX) { dg_put_bug(b, g, top); continue; }
    const TdEvent *e = &d->events[g->items[k].ev];
    int arrow = (e->kind == VE_SEND || e->kind == VE_DROP || e->kind == VE_CREATE) && e->other >= 0;
    int box = !arrow && (e->kind == VE_STATE || e->kind == VE_HALT || e->kind == VE_CREATE);
    buf_printf(b, "<g class=\"ev %s%s\" data-step=\"%llu\" data-kind=\"%s\" data-m=\"%u\"",
               arrow ? "arrow" : box ? "state" : "mark", e->spec ? " spec" : "", (unsigned long long)e->step,
               tracedoc_kind_name(e->kind), e->actor);
    if (e->other >= 0) buf_printf(b, " data-o=\"%d\"", e->other);
    buf_putc(b, '>');
    if (arrow) dg_title(b, d, e);
    if (arrow) dg_put_arrow(b, g, e, top + 15);
    else if (box) dg_put_box(b, g, e, top);
    else dg_put_mark(b, g, e, top);
    buf_puts(b, "</g>\n");
  }
}

/* The line where the cycle starts, labelled, above the cycle's first row. */
static void dg_put_cycle(Buf *b, const Diagram *g) {
  const TraceDoc *d = g->d;
  if (g->cycle_row == UINT32_MAX) return;
  int y = g->row_y[g->cycle_row < g->nrows ? g->cycle_row : g->nrows];
  unsigned long long k = (unsigned long long)d->cycle_start + 1;
  buf_printf(b, "<g class=\"cycle-start\" data-step=\"%llu\"><line x1=\"0\" y1=\"%d\" x2=\"100%%\" y2=\"%d\"/>"
                "<text x=\"%d\" y=\"%d\">&#8635; cycle starts: steps %llu to %llu repeat forever</text></g>\n",
             k, y - 2, y - 2, DG_GUT + 4, y - 7, k, (unsigned long long)d->nsteps);
}

/* The arrowheads, one per colour. */
static void dg_put_defs(Buf *b) {
  static const char *const heads[][2] = { { "ah", "#1d5fb4" }, { "ah-new", "#2e7d32" }, { "ah-drop", "#b71c1c" } };
  buf_puts(b, "<defs>");
  for (size_t i = 0; i < sizeof heads / sizeof heads[0]; i++)
    buf_printf(b, "<marker id=\"%s\" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\" markerWidth=\"8\" markerHeight=\"8\" "
                  "orient=\"auto\"><path d=\"M0 0L10 5L0 10z\" fill=\"%s\"/></marker>",
               heads[i][0], heads[i][1]);
  buf_puts(b, "</defs>\n");
}

/* The #diagram box: the layout, then the header svg and the body svg. */
static void put_diagram(Buf *b, const TraceDoc *d) {
  Diagram g;
  memset(&g, 0, sizeof g);
  g.d = d;
  dg_columns(&g);
  dg_rows(&g);
  if (d->bug.status != VM_OK) dg_bug_note(&g);
  dg_heights(&g);
  g.bug_col = d->bug.status != VM_OK ? bug_machine(d) : 0;
  buf_printf(b, "<section id=\"diagram-box\" class=\"box\"><h2>Sequence diagram <small>%u rows for %llu steps; "
                "click a step to see the machines after it, a name to fold its lifeline</small> "
                "<button id=\"collapse\" type=\"button\" hidden></button></h2>\n<div id=\"diagram\">\n",
             g.nrows, (unsigned long long)d->nsteps);
  dg_put_head(b, &g);
  buf_printf(b, "<svg class=\"body\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" data-cw=\"%d\" "
                "data-gut=\"%d\">\n", g.width, g.height, g.cw, DG_GUT);
  dg_put_defs(b);
  dg_put_bands(b, &g);
  dg_put_lifelines(b, &g);
  dg_put_items(b, &g);
  dg_put_cycle(b, &g);
  buf_puts(b, "<rect id=\"sel-mark\" x=\"0\" y=\"-9\" width=\"100%\" height=\"3\"/>\n</svg>\n</div></section>\n");
  free(g.col);
  free(g.items);
  free(g.row_step);
  free(g.row_y);
  buf_fini(&g.bug);
}

/* ---- The step list ---- */

/* The filters: by machine (actor or other end) and by kind of event. */
static void put_filters(Buf *b, const TraceDoc *d) {
  buf_puts(b, "<div id=\"filters\"><label>Machine <select id=\"filter-machine\"><option value=\"\">all machines"
              "</option>");
  for (uint32_t m = 0; m < d->nmachines; m++) {
    buf_printf(b, "<option value=\"%u\">", m);
    html_text(b, mname(d, m));
    buf_puts(b, d->machines[m].spec ? " (spec)</option>" : "</option>");
  }
  buf_puts(b, "</select></label>\n<label>Kind <select id=\"filter-kind\"><option value=\"\">all kinds</option>");
  int nkinds = 0;                                   /* the kinds tracedoc_kind_name names */
  while (strcmp(tracedoc_kind_name((VmEventKind)nkinds), "?")) nkinds++;
  char *seen = xcalloc((size_t)nkinds + 1, 1);
  for (uint32_t i = 0; i < d->nevents; i++)
    if ((int)d->events[i].kind < nkinds) seen[d->events[i].kind] = 1;
  for (int k = 0; k < nkinds; k++)                  /* those of the trace, in the VM's order */
    if (seen[k]) buf_printf(b, "<option>%s</option>", tracedoc_kind_name((VmEventKind)k));
  free(seen);
  int quiet = 0;
  for (uint64_t i = 0; i <= d->nsteps && !quiet; i++) quiet = !d->steps[i].nevents;
  if (quiet) buf_puts(b, "<option value=\"step\">step (nothing logged)</option>");
  buf_puts(b, "</select></label>\n<span id=\"filter-count\"></span>"
              "<span class=\"keys\">&uarr;/&darr;: previous/next step</span></div>\n");
}

/* A payload (or a choice's value, a print's text) in the details cell. */
static void put_payload(Buf *b, const char *p) {
  if (!p) return;
  buf_puts(b, " <span class=\"pl\">");
  html_text(b, p);
  buf_puts(b, "</span>");
}

/* The details cell of event e: what it did, in words. */
static void put_details(Buf *b, const TraceDoc *d, const TdEvent *e) {
  switch (e->kind) {
  case VE_CREATE:
    buf_puts(b, "created by ");
    html_text(b, e->other >= 0 ? mname(d, e->other) : "the test");
    break;
  case VE_SEND: case VE_DROP:
    buf_puts(b, "<b>");
    html_text(b, e->event);
    buf_puts(b, "</b> &rarr; ");
    html_text(b, mname(d, e->other));
    if (e->kind == VE_DROP) buf_puts(b, " (dropped: halted)");
    break;
  case VE_DEQUEUE: case VE_RECEIVE: case VE_RAISE: case VE_MONITOR: case VE_ANNOUNCE:
    buf_puts(b, "<b>");
    html_text(b, e->event);
    buf_puts(b, "</b>");
    break;
  case VE_STATE: buf_puts(b, "enters <b>"); html_text(b, e->state); buf_puts(b, "</b>"); break;
  case VE_HALT: buf_puts(b, "halts"); break;
  case VE_BLOCK: buf_puts(b, "waits to receive"); break;
  case VE_CHOICE: buf_puts(b, "chose"); break;
  case VE_PRINT: buf_puts(b, "prints"); break;
  default: break;
  }
  if (e->state && e->kind != VE_STATE) { buf_puts(b, " in "); html_text(b, e->state); }
  put_payload(b, e->payload);
}

/* One row of the list: event e, the first of its step or not. */
static void put_event_row(Buf *b, const TraceDoc *d, const TdEvent *e, int first, int cyc) {
  unsigned long long s = e->step;
  /* Classes: odd/even steps shade alternately, first marks a step's first
  ** row (its number in bold), cyc the rows of a lasso's cycle. */
  buf_printf(b, "<tr class=\"%s%s%s%s\" data-step=\"%llu\" data-kind=\"%s\" data-m=\"%u\"", s % 2 ? "odd" : "even",
             first ? " first" : "", e->spec ? " spec" : "", cyc ? " cyc" : "", s, tracedoc_kind_name(e->kind),
             e->actor);
  if (e->other >= 0) buf_printf(b, " data-o=\"%d\"", e->other);
  buf_printf(b, "><td class=\"n\">%llu</td><td class=\"who\">", s);
  html_text(b, mname(d, e->actor));
  buf_printf(b, "</td><td class=\"k\">%s</td><td class=\"what\">", tracedoc_kind_name(e->kind));
  put_details(b, d, e);
  buf_puts(b, "</td><td class=\"loc\">");
  if (e->file) {                                   /* cut from the left (rtl), read left to right */
    buf_puts(b, "<bdi>");
    html_text(b, e->file);
    buf_printf(b, ":%u:%u</bdi>", e->line, e->col);
  }
  buf_puts(b, "</td></tr>\n");
}

/* The row of a step that logged nothing, so every step can be selected. */
static void put_quiet_row(Buf *b, const TraceDoc *d, uint64_t step, int cyc) {
  const TdStep *s = &d->steps[step];
  unsigned long long n = step;
  buf_printf(b, "<tr class=\"%s first%s\" data-step=\"%llu\" data-kind=\"step\" data-m=\"%d\"><td class=\"n\">%llu"
                "</td><td class=\"who\">",
             n % 2 ? "odd" : "even", cyc ? " cyc" : "", n, s->actor, n);
  html_text(b, step ? mname(d, s->actor) : "");
  buf_printf(b, "</td><td class=\"k\">step</td><td class=\"what\">%s</td><td class=\"loc\"></td></tr>\n",
             step == 0 ? "the initial state" : s->choice.kind == VC_DATA ? "a data choice; nothing logged"
                                                                          : "runs; nothing logged");
}

/* The last row: the bug, its location. */
static void put_bug_row(Buf *b, const TraceDoc *d) {
  buf_printf(b, "<tr id=\"bug-row\" class=\"bug\" data-step=\"%llu\" data-kind=\"bug\" data-m=\"%u\"><td class=\"n\">"
                "%llu</td><td class=\"who\">",
             (unsigned long long)d->bug_step, bug_machine(d), (unsigned long long)d->bug_step);
  html_text(b, mname(d, bug_machine(d)));
  buf_puts(b, "</td><td class=\"k\">bug</td><td class=\"what\">");
  html_text(b, vm_status_name(d->bug.status));
  buf_puts(b, ": ");
  html_text(b, tracedoc_bug_message(&d->bug));
  buf_puts(b, "</td><td class=\"loc\">");
  put_location(b, d);
  buf_puts(b, "</td></tr>\n");
}

/* The #list box: filters, then the #steps table (every event of every
** step, a marker where the cycle starts, the bug last). */
static void put_steps(Buf *b, const TraceDoc *d) {
  /* The rows are written here, not by the script: the list is there without
  ** JavaScript, and the script only finds them (one querySelectorAll). */
  buf_puts(b, "<section id=\"list-box\" class=\"box\"><h2>Steps <small>click a row (or use &uarr;/&darr;) to see "
              "the machines after that step</small></h2>\n");
  put_filters(b, d);
  buf_puts(b, "<div id=\"list\"><table id=\"steps\"><colgroup><col class=\"n\"><col class=\"who\"><col class=\"k\">"
              "<col class=\"what\"><col class=\"loc\"></colgroup>\n<thead><tr><th>step</th><th>machine</th><th>kind"
              "</th><th>details</th><th>source</th></tr></thead>\n<tbody>\n");
  for (uint64_t i = 0; i <= d->nsteps; i++) {
    int cyc = d->cycle_start >= 0 && i > (uint64_t)d->cycle_start;
    if (d->cycle_start >= 0 && i == (uint64_t)d->cycle_start + 1)
      buf_printf(b, "<tr class=\"sep cycle-start\" data-step=\"%llu\"><td colspan=\"5\">&#8635; cycle starts here: "
                    "steps %llu to %llu repeat forever</td></tr>\n",
                 (unsigned long long)i, (unsigned long long)i, (unsigned long long)d->nsteps);
    const TdStep *s = &d->steps[i];
    if (!s->nevents) put_quiet_row(b, d, i, cyc);
    for (uint32_t k = 0; k < s->nevents; k++) put_event_row(b, d, &d->events[s->first_event + k], k == 0, cyc);
  }
  if (d->bug.status != VM_OK) put_bug_row(b, d);
  buf_puts(b, "</tbody></table></div></section>\n");
}

/* ---- The state panel and its data ---- */

/* The #state-panel box: filled by the script for the selected step. */
static void put_panel(Buf *b) {
  buf_puts(b, "<aside id=\"state-panel\" class=\"box\"><h2>Machines and specs <small>after the selected step</small>"
              "</h2>\n<div class=\"ph\"><label><input type=\"checkbox\" id=\"only-changed\"> only those changed in "
              "this step</label></div>\n<div id=\"views\"><p class=\"hint\">Select a step in the diagram or the list."
              "</p><noscript><p class=\"hint\">The views need JavaScript.</p></noscript></div></aside>\n");
}

/* A JSON array of n strings. */
static void put_strings(Buf *b, char *const *s, uint32_t n) {
  buf_putc(b, '[');
  for (uint32_t i = 0; i < n; i++) {
    if (i) buf_putc(b, ',');
    js_string(b, s[i]);
  }
  buf_putc(b, ']');
}

/* Whether snap s names the same variables as p. */
static int same_names(const TdSnap *s, const TdSnap *p) {
  if (!p || p->nvars != s->nvars) return 0;
  for (uint16_t k = 0; k < s->nvars; k++)
    if (strcmp(s->var_names[k], p->var_names[k])) return 0;
  return 1;
}

/* Machine m's snaps: [step, state, status, names or 0 (as the snap
** before), values, inbox] each. */
static void put_snaps(Buf *b, const TdMachine *t) {
  buf_putc(b, '[');
  for (uint32_t k = 0; k < t->nsnaps; k++) {
    const TdSnap *s = &t->snaps[k];
    buf_printf(b, "%s[%llu,", k ? "," : "", (unsigned long long)s->step);
    js_string(b, s->state);
    buf_putc(b, ',');
    js_string(b, s->status);
    buf_putc(b, ',');
    if (same_names(s, k ? &t->snaps[k - 1] : NULL)) buf_putc(b, '0');
    else put_strings(b, s->var_names, s->nvars);
    buf_putc(b, ',');
    put_strings(b, s->var_values, s->nvars);
    buf_putc(b, ',');
    put_strings(b, s->inbox, s->ninbox);
    buf_putc(b, ']');
  }
  buf_putc(b, ']');
}

/* The machines involved in the bug, into inv (one flag per machine): its
** machine, the machines it sent to or got events from, created or was
** created by, and those that ran the last 3 steps; every machine when
** there is no bug.  The others' lifelines are folded on a crowded
** diagram (the script's collapse()). */
static void involved(const TraceDoc *d, uint8_t *inv) {
  memset(inv, d->bug.status == VM_OK, d->nmachines);
  if (d->bug.status == VM_OK) return;
  uint32_t bm = bug_machine(d);
  inv[bm] = 1;
  for (uint32_t i = 0; i < d->nevents; i++) {
    const TdEvent *e = &d->events[i];
    if (e->other < 0 || (uint32_t)e->other >= d->nmachines) continue;
    if (e->kind != VE_SEND && e->kind != VE_DROP && e->kind != VE_CREATE) continue;
    if (e->actor == bm) inv[e->other] = 1;
    if ((uint32_t)e->other == bm) inv[e->actor] = 1;
  }
  for (uint64_t s = d->nsteps >= 2 ? d->nsteps - 2 : 0; s <= d->nsteps; s++) {
    int32_t a = d->steps[s].actor;
    if (a >= 0 && (uint32_t)a < d->nmachines) inv[a] = 1;
  }
}

/* The data the script reads, as JSON in script#trace-data: steps, bug
** step, whether there is a bug ("bug") and whether it happened inside the
** last step ("failed"), the cycle, whether views were kept; per step its
** actor ("a", -1 for none) and choice kind ("k": m machine, d data, "-"
** for step 0); the machines involved in the bug ("inv", involved()); per
** machine its name, type, spec flag, creation step and snaps ("m",
** put_snaps).  Every string goes through js_string, so nothing in a name
** or a value can end the script element. */
static void put_data(Buf *b, const TraceDoc *d) {
  /* Only the snaps, where a view changed, not every view at every step:
  ** the script finds the one in force by a binary search (view()). */
  buf_printf(b, "<script type=\"application/json\" id=\"trace-data\">{\"nsteps\":%llu,\"bugStep\":%llu,\"bug\":%d,"
                "\"failed\":%d,\"cycleStart\":%lld,\"views\":%d,\"a\":[",
             (unsigned long long)d->nsteps, (unsigned long long)d->bug_step, d->bug.status != VM_OK, bug_in_step(d),
             (long long)d->cycle_start, d->views);
  for (uint64_t i = 0; i <= d->nsteps; i++) buf_printf(b, "%s%d", i ? "," : "", d->steps[i].actor);
  buf_puts(b, "],\"k\":\"-");
  for (uint64_t i = 1; i <= d->nsteps; i++) buf_putc(b, d->steps[i].choice.kind == VC_DATA ? 'd' : 'm');
  buf_puts(b, "\",\"inv\":[");
  uint8_t *inv = xmalloc(d->nmachines ? d->nmachines : 1);
  involved(d, inv);
  for (uint32_t m = 0, n = 0; m < d->nmachines; m++)
    if (inv[m]) buf_printf(b, "%s%u", n++ ? "," : "", m);
  free(inv);
  buf_puts(b, "],\"m\":[");
  for (uint32_t m = 0; m < d->nmachines; m++) {
    const TdMachine *t = &d->machines[m];
    buf_puts(b, m ? ",\n{\"n\":" : "\n{\"n\":");
    js_string(b, mname(d, m));
    buf_puts(b, ",\"t\":");
    js_string(b, t->type);
    buf_printf(b, ",\"s\":%d,\"c\":%llu,\"v\":", t->spec, (unsigned long long)t->created);
    put_snaps(b, t);
    buf_putc(b, '}');
  }
  buf_puts(b, "]}</script>\n");
}

/* ---- The script ---- */

/* The page's behaviour: selection (click, keys, fragment), the state
** panel (a binary search over each machine's snaps), the filters.  One
** delegated listener per area; selecting touches the old and new rows. */
static const char *const script[] = {
  "(function () {\n",
  "'use strict';\n",
  "var t0 = performance.now(), body = document.body;\n",
  /* The data; each snap's variable names resolved (0: as the snap before). */
  "var D = JSON.parse(document.getElementById('trace-data').textContent), M = D.m;\n",
  "M.forEach(function (m) {\n",
  "  var names = [];\n",
  "  m.v.forEach(function (s) { if (s[3]) names = s[3]; else s[3] = names; });\n",
  "});\n",
  /* The page's parts; the rows of each step (first, last: indexes in rows),
  ** the band of each step in the diagram. */
  "var list = document.getElementById('list'), dia = document.getElementById('diagram');\n",
  "var views = document.getElementById('views'), count = document.getElementById('filter-count');\n",
  "var fm = document.getElementById('filter-machine'), fk = document.getElementById('filter-kind');\n",
  "var rows = Array.prototype.slice.call(document.querySelectorAll('#steps tbody tr'));\n",
  "var first = Object.create(null), last = Object.create(null), bands = Object.create(null), bandSteps = [];\n",
  "var selMark = document.getElementById('sel-mark');\n",
  "rows.forEach(function (r, i) {\n",
  "  var s = r.getAttribute('data-step');\n",
  "  if (!(s in first)) first[s] = i;\n",
  "  last[s] = i;\n",
  "});\n",
  "Array.prototype.forEach.call(dia.querySelectorAll('rect.band'), function (r) {\n",
  "  var s = r.getAttribute('data-step'); if (!(s in bands)) { bands[s] = r; bandSteps.push(+s); } });\n",
  "var items = Array.prototype.slice.call(dia.querySelectorAll('svg.body g.ev'));\n",
  "var cur = -1, selRows = [], selBand = null;\n",
  /* The diagram's columns: each lifeline's centre as pcheck drew it (x0),
  ** and as laid out now (xs), folded lifelines NARROW wide.  layout()
  ** moves every drawn thing to its column's centre: a single-column item
  ** by a translation, an arrow's ends and label anew (its label cut to its
  ** span, as pcheck cuts it). */
  "var svgH = dia.querySelector('svg.head'), svgB = dia.querySelector('svg.body');\n",
  "var CW = +svgB.getAttribute('data-cw'), GUT = +svgB.getAttribute('data-gut'), NARROW = 16;\n",
  "var x0 = [], xs = [], order = [], shut = [], inv = [], lines = [];\n",
  "Array.prototype.forEach.call(svgB.querySelectorAll('line.lifeline'), function (l) {\n",
  "  var m = +l.getAttribute('data-m'); x0[m] = xs[m] = +l.getAttribute('x1'); order.push(m); lines[m] = l; });\n",
  "order.sort(function (a, b) { return x0[a] - x0[b]; });\n",
  "D.inv.forEach(function (m) { inv[m] = true; });\n",
  "var heads = Array.prototype.slice.call(svgH.querySelectorAll('g.hd'));\n",
  "var bugMark = document.getElementById('bug-mark'), collapseBtn = document.getElementById('collapse');\n",
  "var others = order.filter(function (m) { return !inv[m]; });\n",
  "function cut(s, n) { return s.length > n ? s.slice(0, n > 0 ? n - 1 : 0) + '\\u2026' : s; }\n",
  "function shift(el, m) {\n",
  "  if (xs[m] === x0[m]) el.removeAttribute('transform');\n",
  "  else el.setAttribute('transform', 'translate(' + (xs[m] - x0[m]) + ',0)');\n",
  "}\n",
  "function layout() {\n",
  "  var x = GUT;\n",
  "  order.forEach(function (m) { var w = shut[m] ? NARROW : CW; xs[m] = x + Math.floor(w / 2); x += w; });\n",
  "  var width = Math.max(560, x + 16);\n",
  "  svgH.setAttribute('width', width);\n",
  "  svgB.setAttribute('width', width);\n",
  "  heads.forEach(function (g) {\n",
  "    var m = +g.getAttribute('data-m'), w = shut[m] ? 10 : CW - 10, r = g.querySelector('rect');\n",
  "    r.setAttribute('x', xs[m] - Math.floor(w / 2));\n",
  "    r.setAttribute('width', w);\n",
  "    g.querySelector('text').setAttribute('x', xs[m]);\n",
  "    g.classList.toggle('collapsed', !!shut[m]);\n",
  "  });\n",
  "  order.forEach(function (m) {\n",
  "    lines[m].setAttribute('x1', xs[m]); lines[m].setAttribute('x2', xs[m]);\n",
  "    lines[m].classList.toggle('collapsed', !!shut[m]);\n",
  "  });\n",
  "  items.forEach(function (g) {\n",
  "    var m = +g.getAttribute('data-m'), kind = g.getAttribute('data-kind');\n",
  "    if (kind === 'bug') { shift(g.querySelector('.bx'), m); return; }\n",
  "    var line = g.classList.contains('arrow') ? g.querySelector('line') : null;\n",
  "    if (!line) { shift(g, m); g.classList.toggle('cx', !!shut[m]); return; }\n",
  "    var o = +g.getAttribute('data-o'), from = kind === 'create' ? o : m, to = kind === 'create' ? m : o;\n",
  "    var x1 = xs[from], x2 = xs[to], dir = x2 > x1 ? 1 : -1, t = g.querySelector('text');\n",
  "    line.setAttribute('x1', x1);\n",
  "    line.setAttribute('x2', x2 - 2 * dir);\n",
  "    t.setAttribute('x', Math.trunc((x1 + x2) / 2));\n",
  "    t.textContent = cut(t.getAttribute('data-l'), Math.floor(((x2 - x1) * dir - 12) / 6.2))\n",
  "      + (kind === 'drop' ? ' (dropped)' : '');\n",
  "  });\n",
  "  var n = order.filter(function (m) { return shut[m]; }).length;\n",
  "  body.setAttribute('data-collapsed', n);\n",
  "  collapseBtn.hidden = !others.length;\n",
  "  collapseBtn.textContent = n ? 'Show all ' + order.length + ' lifelines'\n",
  "    : 'Fold the ' + others.length + ' lifeline' + (others.length > 1 ? 's' : '') + ' not involved in the bug';\n",
  "}\n",
  /* collapse(on): fold the lifelines of the machines not involved in the
  ** bug (D.inv), or unfold every lifeline. */
  "function collapse(on) {\n",
  "  order.forEach(function (m) { shut[m] = on && !inv[m]; });\n",
  "  layout();\n",
  "}\n",
  /* crowded(): the diagram is folded on load: 8 columns or more (a wide
  ** diagram of fewer scrolls sideways, showBug()). */
  "function crowded() { return order.length >= 8; }\n",
  /* showBug(): scroll the diagram sideways so that the bug's machine is in
  ** view; body data-bug-in-view says whether its mark is. */
  "function showBug() {\n",
  "  if (!bugMark) return;\n",
  "  var c = xs[+bugMark.getAttribute('data-m')];\n",
  "  if (c < dia.scrollLeft + 40 || c > dia.scrollLeft + dia.clientWidth - 40)\n",
  "    dia.scrollLeft = Math.max(0, c - dia.clientWidth / 2);\n",
  "  var b = dia.getBoundingClientRect(), r = bugMark.querySelector('.bx').getBoundingClientRect();\n",
  "  body.setAttribute('data-bug-in-view', r.left >= b.left && r.right <= b.right ? '1' : '0');\n",
  "}\n",
  /* esc(s): s as HTML text, fit for double-quoted attributes too. */
  "function esc(s) {\n",
  "  return String(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/\"/g, '&quot;');\n",
  "}\n",
  /* view(m, step): the index of m's last snap at or before step, or -1. */
  "function view(m, step) {\n",
  "  var v = M[m].v, lo = 0, hi = v.length;\n",
  "  while (lo < hi) { var mid = (lo + hi) >> 1; if (v[mid][0] <= step) lo = mid + 1; else hi = mid; }\n",
  "  return lo - 1;\n",
  "}\n",
  /* card(m, step): machine m's view after step, as HTML. */
  "function card(m, step) {\n",
  "  var mm = M[m], i = view(m, step), cls = 'mcard' + (mm.s ? ' spec' : '');\n",
  "  var head = `<div class=\"mh\"><b>${esc(mm.n)}</b>` + (mm.s ? '<span class=\"tag\">spec</span> ' : '');\n",
  "  if (i < 0) return `<div class=\"${cls} absent\" data-m=\"${m}\">${head}<span class=\"mstatus\">not created yet`\n",
  "    + (mm.c > step ? ` (created in step ${mm.c})` : '') + '</span></div></div>';\n",
  "  var s = mm.v[i], p = i > 0 ? mm.v[i - 1] : null, ch = s[0] === step;\n",
  "  var h = `<div class=\"${cls}${ch ? ' changed' : ''}\" data-m=\"${m}\">${head}`\n",
  "    + `<span class=\"mstate\">${esc(s[1])}</span>` + (s[2] ? ` <span class=\"mstatus\">${esc(s[2])}</span>` : '')\n",
  "    + (ch && !p && step > 0 ? ' <span class=\"tag new\">new</span>' : '') + '</div>';\n",
  "  if (s[4].length) {\n",
  "    h += '<table class=\"vars\">';\n",
  "    for (var k = 0; k < s[4].length; k++) {\n",
  "      var c = ch && (!p || p[3][k] !== s[3][k] || p[4][k] !== s[4][k]);\n",
  "      h += `<tr data-var=\"${esc(s[3][k])}\"${c ? ' class=\"chg\"' : ''}><td class=\"vn\">${esc(s[3][k])}</td>`\n",
  "        + `<td class=\"vv\">${esc(s[4][k])}</td></tr>`;\n",
  "    }\n",
  "    h += '</table>';\n",
  "  }\n",
  "  var ib = ch && (!p || p[5].join('\\n') !== s[5].join('\\n'));\n",
  "  if (!mm.s) h += `<div class=\"inbox${ib ? ' chg' : ''}\">inbox`\n",
  "    + (s[5].length ? ` (${s[5].length}, oldest first)<ol class=\"inbox\">`\n",
  "    + s[5].map(function (e) { return '<li>' + esc(e) + '</li>'; }).join('') + '</ol>' : ': empty') + '</div>';\n",
  "  return h + '</div>';\n",
  "}\n",
  /* panel(step): the views of every spec and machine after step. */
  "function panel(step, evs) {\n",
  "  var a = D.a[step], h = `<h2>After step ${step} <small>of ${D.nsteps}</small></h2>`;\n",
  "  h += '<p class=\"stepinfo\">' + (step === 0 ? 'The initial state.'\n",
  "    : `Step ${step}: <b>${esc(a >= 0 ? M[a].n : '?')}</b> `\n",
  "    + (D.k[step] === 'd' ? 'makes a data choice:' : 'runs:')) + '</p>';\n",
  "  h += '<ul class=\"evs\">' + evs.filter(function (r) { return r.cells.length === 5; }).map(function (r) {\n",
  "    var c = r.cells, loc = c[4].textContent;\n",
  "    return `<li class=\"${r.id ? 'bug' : ''}\"><span class=\"k\">${c[2].textContent}</span> `\n",
  "      + `${esc(c[1].textContent)}: `\n",
  "      + c[3].innerHTML + (loc ? ` <span class=\"loc\">${esc(loc)}</span>` : '') + '</li>'; }).join('') + '</ul>';\n",
  "  if (D.bug && step === D.bugStep) h += '<p class=\"note bug\">' + (D.failed\n",
  "    ? 'The bug happened during this step: the views are those before it.'\n",
  "    : 'The bug is in this state.') + '</p>';\n",
  "  if (D.cycleStart >= 0 && step > D.cycleStart) h += '<p class=\"note cyc\">' + (step === D.nsteps\n",
  "    ? `This state is the state after step ${D.cycleStart}: the cycle repeats forever.`\n",
  "    : `In the cycle (steps ${D.cycleStart + 1} to ${D.nsteps}).`) + '</p>';\n",
  "  if (!D.views) h += '<p class=\"hint\">The views were not recorded.</p>';\n",
  "  else for (var m = 0; m < M.length; m++) h += card(m, step);\n",
  "  views.innerHTML = h;\n",
  "}\n",
  /* reveal(box, el): scroll box (only) so that el shows, below its sticky head. */
  "function reveal(box, el, pad) {\n",
  "  if (!el || el.hidden) return;\n",
  "  var b = box.getBoundingClientRect(), r = el.getBoundingClientRect();\n",
  "  if (r.top < b.top + pad || r.bottom > b.bottom) box.scrollTop += r.top - b.top - pad - (b.height - pad) / 3;\n",
  "}\n",
  /* nextBand(step): the band of the first step after step that has one, or null. */
  "function nextBand(step) {\n",
  "  var lo = 0, hi = bandSteps.length;\n",
  "  while (lo < hi) { var mid = (lo + hi) >> 1; if (bandSteps[mid] <= step) lo = mid + 1; else hi = mid; }\n",
  "  return lo < bandSteps.length ? bands[bandSteps[lo]] : null;\n",
  "}\n",
  /* select(step, how): mark the step's rows and band, show its views; how
  ** says where the selection came from ('' on load: the fragment stays). */
  "function select(step, how) {\n",
  "  step = +step;\n",
  "  if (!(step in first)) return;\n",
  "  selRows.forEach(function (r) { r.classList.remove('sel'); });\n",
  "  selRows = rows.slice(first[step], last[step] + 1);\n",
  "  selRows.forEach(function (r) { r.classList.add('sel'); });\n",
  "  if (selBand) selBand.classList.remove('sel');\n",
  "  selBand = bands[step] || null;\n",
  "  if (selBand) selBand.classList.add('sel');\n",
  "  var near = selBand || nextBand(step);\n",
  "  selMark.setAttribute('y', selBand || !near ? -9 : +near.getAttribute('y') - 2);\n",
  "  cur = step;\n",
  "  body.setAttribute('data-step', step);\n",
  "  panel(step, selRows);\n",
  "  if (how !== 'list') reveal(list, selRows.filter(function (r) { return !r.hidden; })[0], 26);\n",
  "  if (how !== 'diagram') reveal(dia, near, 36);\n",
  "  if (how && how !== 'bench') writeHash();\n",
  "}\n",
  /* filter(): hide the rows, dim the drawn events, that the filters exclude. */
  "function filter() {\n",
  "  var m = fm.value, k = fk.value, n = 0, total = 0;\n",
  "  for (var i = 0; i < rows.length; i++) {\n",
  "    var r = rows[i], kind = r.getAttribute('data-kind');\n",
  "    if (!kind || kind === 'bug') continue;\n",
  "    total++;\n",
  "    var on = (m === '' || r.getAttribute('data-m') === m || r.getAttribute('data-o') === m)\n",
  "      && (k === '' || kind === k);\n",
  "    if (r.hidden === on) r.hidden = !on;\n",
  "    if (on) n++;\n",
  "  }\n",
  "  items.forEach(function (g) {\n",
  "    var kind = g.getAttribute('data-kind');\n",
  "    var on = kind === 'bug' || ((m === '' || g.getAttribute('data-m') === m || g.getAttribute('data-o') === m)\n",
  "      && (k === '' || kind === k));\n",
  "    g.classList.toggle('dim', !on);\n",
  "  });\n",
  "  count.textContent = m === '' && k === '' ? `${total} rows` : `${n} of ${total} rows shown`;\n",
  "  body.setAttribute('data-visible-rows', n);\n",
  "}\n",
  /* writeHash(): the fragment machine=NAME&kind=KIND&step=N of the page's
  ** state, without a history entry (so that links to it can be shared). */
  "function writeHash() {\n",
  "  var p = [];\n",
  "  if (fm.value !== '') p.push('machine=' + encodeURIComponent(M[+fm.value].n));\n",
  "  if (fk.value !== '') p.push('kind=' + encodeURIComponent(fk.value));\n",
  "  if (cur >= 0) p.push('step=' + cur);\n",
  "  var folded = order.some(function (m) { return shut[m]; });\n",
  "  if (others.length && folded !== crowded()) p.push('collapse=' + (folded ? 1 : 0));\n",
  "  try { history.replaceState(null, '', '#' + p.join('&')); } catch (e) { }\n",
  "}\n",
  /* readHash(): apply the fragment (filters, then the step); its fields. */
  "function readHash() {\n",
  "  var o = {};\n",
  "  location.hash.slice(1).split('&').forEach(function (kv) {\n",
  "    var i = kv.indexOf('=');\n",
  "    if (i > 0) try { o[kv.slice(0, i)] = decodeURIComponent(kv.slice(i + 1)); } catch (e) { }\n",
  "  });\n",
  "  var m = '';\n",
  "  if (o.machine !== undefined)\n",
  "    for (var j = 0; j < M.length; j++) if (M[j].n === o.machine || String(j) === o.machine) m = String(j);\n",
  "  fm.value = m;\n",
  "  fk.value = o.kind || '';\n",
  "  if (fk.value !== (o.kind || '')) fk.value = '';\n",
  "  filter();\n",
  "  collapse(o.collapse === '1' || (o.collapse !== '0' && crowded()));\n",
  "  select(o.step !== undefined && o.step in first ? o.step : D.bugStep, '');\n",
  "  return o;\n",
  "}\n",
  /* bench(n): time n selections spread over the trace and a filter pass,
  ** as a user would do them, then select the step again (for tests:
  ** #bench=N; body data-bench-ms). */
  "function bench(n) {\n",
  "  var t = performance.now(), s = cur;\n",
  "  for (var i = 0; i < n; i++) select(Math.floor(i * D.nsteps / n), 'bench');\n",
  "  filter();\n",
  "  body.setAttribute('data-bench-ms', ((performance.now() - t) / n).toFixed(2));\n",
  "  select(s, '');\n",
  "}\n",
  /* One listener per area: the list, the diagram, the filters, the keys. */
  "document.getElementById('steps').addEventListener('click', function (e) {\n",
  "  var r = e.target.closest('tr[data-step]'); if (r) select(r.getAttribute('data-step'), 'list'); });\n",
  "dia.addEventListener('click', function (e) {\n",
  "  var h = e.target.closest('g.hd');\n",
  "  if (h) { var m = +h.getAttribute('data-m'); shut[m] = !shut[m]; layout(); return; }\n",
  "  var g = e.target.closest('[data-step]'); if (g) select(g.getAttribute('data-step'), 'diagram'); });\n",
  "collapseBtn.addEventListener('click', function () {\n",
  "  collapse(!order.some(function (m) { return shut[m]; })); showBug(); writeHash(); });\n",
  "fm.addEventListener('change', function () { filter(); writeHash(); });\n",
  "fk.addEventListener('change', function () { filter(); writeHash(); });\n",
  "document.getElementById('only-changed').addEventListener('change', function (e) {\n",
  "  views.classList.toggle('only-changed', e.target.checked); });\n",
  "window.addEventListener('hashchange', readHash);\n",
  "document.addEventListener('keydown', function (e) {\n",
  "  var t = e.target.tagName;\n",
  "  if (t === 'SELECT' || t === 'INPUT' || e.altKey || e.ctrlKey || e.metaKey) return;\n",
  "  var dir = e.key === 'ArrowDown' || e.key === 'j' ? 1 : e.key === 'ArrowUp' || e.key === 'k' ? -1 : 0;\n",
  "  if (!dir) return;\n",
  "  e.preventDefault();\n",
  "  var i = cur < 0 ? (dir > 0 ? -1 : rows.length) : dir > 0 ? last[cur] : first[cur];\n",
  "  for (i += dir; i >= 0 && i < rows.length; i += dir)\n",
  "    if (!rows[i].hidden && +rows[i].getAttribute('data-step') !== cur) {\n",
  "      select(rows[i].getAttribute('data-step'), 'key');\n",
  "      return;\n",
  "    }\n",
  "});\n",
  /* Start: the fragment's filters and step (else the bug's), then say so. */
  "var o = readHash();\n",
  "showBug();\n",
  "body.setAttribute('data-init-ms', (performance.now() - t0).toFixed(1));\n",
  "body.setAttribute('data-load-ms', performance.now().toFixed(1));\n",
  "if (o.bench) bench(+o.bench || 20);\n",
  "body.setAttribute('data-ready', '1');\n",
  "})();\n",
};

/* ---- The page ---- */

/* ---- Coverage: what the search exercised before it stopped ---- */

/* Event names of state s that pass want, ", "-separated, as HTML. */
static void cov_events(Buf *b, const CovState *s, int (*want)(const CovEvent *)) {
  int n = 0;
  for (uint32_t e = 0; e < s->nevents; e++)
    if (want(&s->events[e])) {
      if (n++) buf_puts(b, ", ");
      html_text(b, s->events[e].event);
    }
}
/* The columns' tests on one event slot of a state: taken (by a handler or
** a receive), a do or goto handler that never ran, deferred, ignored,
** sent or raised while in the state (checker/observe/coverage.h). */
static int cv_handled(const CovEvent *e) { return e->seen[VCOV_HANDLED] || e->seen[VCOV_RECEIVED]; }
static int cv_unrun(const CovEvent *e) {
  return (e->handler == CH_DO || e->handler == CH_GOTO) && !e->seen[VCOV_HANDLED];
}
static int cv_deferred(const CovEvent *e) { return e->seen[VCOV_DEFERRED]; }
static int cv_ignored(const CovEvent *e) { return e->seen[VCOV_IGNORED]; }
static int cv_sent(const CovEvent *e) { return e->seen[VCOV_SENT]; }

/* The #coverage section (closed by default): the summary line, then a
** row per state of each machine type created. */
static void put_coverage(Buf *b, const TraceDoc *d) {
  const CovReport *r = d->coverage;
  if (!r) return;
  Buf line;
  buf_init(&line);
  cov_summary(r, &line);
  buf_puts(b, "<section id=\"coverage\"><details><summary>Coverage of the search until it stopped: "
              "<span id=\"coverage-summary\">");
  html_text(b, line.data + strlen("coverage: "));
  buf_puts(b, "</span></summary>\n<table id=\"coverage-states\"><thead><tr><th>machine</th><th>state</th>"
              "<th>entered</th><th>events taken</th><th>handlers never run</th><th>deferred</th><th>ignored</th>"
              "<th>sent</th></tr></thead><tbody>\n");
  for (uint32_t m = 0; m < r->nmachines; m++) {
    const CovMachine *cm = &r->machines[m];
    if (!cm->created) continue;
    for (uint32_t i = 0; i < cm->nstates; i++) {
      const CovState *cs = &cm->states[i];
      buf_printf(b, "<tr data-machine=\"");
      html_text(b, cm->name);
      buf_puts(b, "\" data-state=\"");
      html_text(b, cs->name);
      buf_printf(b, "\" data-entered=\"%d\"%s><td>", cs->entered ? 1 : 0, cs->entered ? "" : " class=\"never\"");
      html_text(b, cm->name);
      buf_puts(b, cm->spec ? " <small>spec</small></td><td>" : "</td><td>");
      html_text(b, cs->name);
      buf_printf(b, "</td><td>%s</td><td>", cs->entered ? "yes" : "no");
      cov_events(b, cs, cv_handled);
      buf_puts(b, "</td><td class=\"unrun\">");
      cov_events(b, cs, cv_unrun);
      buf_puts(b, "</td><td>");
      cov_events(b, cs, cv_deferred);
      buf_puts(b, "</td><td>");
      cov_events(b, cs, cv_ignored);
      buf_puts(b, "</td><td>");
      cov_events(b, cs, cv_sent);
      buf_puts(b, "</td></tr>\n");
    }
  }
  buf_puts(b, "</tbody></table>\n</details></section>\n");
  buf_fini(&line);
}

/* The page: head, bug header, the grid (diagram, list, panel), the
** coverage section when the document has one, the data, the script last
** so that everything it reads is parsed already.  Appended to b; d is only
** read, and the page needs nothing but itself (no file or network). */
void report_html(Buf *b, const TraceDoc *d) {
  put_head(b, d);
  put_header(b, d);
  buf_puts(b, "<main>\n");
  put_diagram(b, d);
  put_steps(b, d);
  put_panel(b);
  buf_puts(b, "</main>\n");
  put_coverage(b, d);
  put_data(b, d);
  buf_puts(b, "<script>\n");
  for (size_t i = 0; i < sizeof script / sizeof script[0]; i++) buf_puts(b, script[i]);
  buf_puts(b, "</script>\n</body></html>\n");
}
