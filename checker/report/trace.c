/* trace.c: writing counterexamples in every format and reading them back.
** Rendering replays the choices with logging and step events on, so a
** trace shows exactly what the VM did. */
#include <config.h>
#include "checker/report/trace.h"
#include "checker/base/files.h"
#include "checker/base/json.h"
#include "checker/engine/liveness.h"
#include "checker/report/tracedoc.h"
#include "checker/observe/coverage.h"
#include <unistd.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* Frees the strings and choices and zeroes t (cycle_start becomes 0, not
** -1: t is to be filled again by trace_read, which sets it). */
void trace_info_fini(TraceInfo *t) {
  free(t->test);
  free(t->search);
  free(t->choices);
  free(t->bug_kind);
  memset(t, 0, sizeof *t);
}

/* Whether the comma list `list` (no spaces) names format f exactly; an
** empty item or an unknown one matches nothing. */
static int has_format(const char *list, const char *f) {
  size_t n = strlen(f);
  for (const char *p = list; *p;) {
    const char *e = strchr(p, ',');
    size_t len = e ? (size_t)(e - p) : strlen(p);
    if (len == n && strncmp(p, f, n) == 0) return 1;
    if (!e) break;
    p = e + 1;
  }
  return 0;
}

/* mkdir -p: each prefix up to a '/' is created (mode 0777, less the
** umask), an existing one is fine, whether it is a folder or not (the
** write into it fails later).  dir must not be empty: the walk starts at
** its second byte. */
int trace_mkdirs(const char *dir) {
  if (!*dir) {   /* no folder named (the CLI refuses -o ''): nothing to walk */
    errno = ENOENT;
    return -1;
  }
  char *d = xstrdup(dir);
  for (char *p = d + 1; *p; p++) {
    if (*p != '/') continue;
    *p = 0;
    if (mkdir(d, 0777) != 0 && errno != EEXIST) { free(d); return -1; }
    *p = '/';
  }
  int rc = mkdir(d, 0777) != 0 && errno != EEXIST ? -1 : 0;
  free(d);
  return rc;
}

/* ---------------------------------------------------------------------- */
/* Rendering a TraceDoc.  Every format numbers steps the same way (1 for
** the first choice, 0 for the initial state) and names machines as the
** logs do ("Client(2)"); schedules number machine choices that way too. */

/* Append text's lines, each prefixed with "[step] ". */
static void numbered_lines(Buf *out, const char *text, size_t len, uint64_t step) {
  const char *p = text, *end = text + len;
  while (p < end) {
    const char *nl = memchr(p, '\n', (size_t)(end - p));
    size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
    buf_printf(out, "[%llu] ", (unsigned long long)step);
    buf_append(out, p, n);
    buf_putc(out, '\n');
    p += n + (nl ? 1 : 0);
  }
}

/* The <ErrorLog> line of a liveness bug, which the VM does not log itself,
** at step `step`: a lasso back to the state after step cycle_start (>= 0),
** or a spec hot for too long (cycle_start < 0).  The text trace and
** --replay's log both end with it. */
static void liveness_line(Buf *out, uint64_t step, int64_t cycle_start, const char *msg) {
  if (cycle_start >= 0)
    buf_printf(out, "[%llu] <ErrorLog> liveness: the last %llu steps return to the state after step %lld: %s\n",
               (unsigned long long)step, (unsigned long long)(step - (uint64_t)cycle_start), (long long)cycle_start,
               msg);
  else
    buf_printf(out, "[%llu] <ErrorLog> liveness: %s\n", (unsigned long long)step, msg);
}

/* The closing line of a log: what the bug is, for the bugs whose last
** step logs nothing about them (liveness). */
static void bug_trailer(Buf *out, const TraceDoc *d) {
  if (d->cycle_start >= 0 || d->bug.status == VM_BUG_HOT_TEMP)
    liveness_line(out, d->nsteps, d->cycle_start, d->bug.message ? d->bug.message : "");
}

/* NAME.txt: a header line, then each step's P-style log lines numbered
** with the step, then the liveness line the VM does not log itself. */
static void render_text(Buf *out, const TraceDoc *d) {
  buf_printf(out, "<TestLog> Counterexample of test '%s' found by --search %s (seed %llu), %llu steps\n", d->test,
             *d->search ? d->search : "?", (unsigned long long)d->seed, (unsigned long long)d->nsteps);
  for (uint64_t i = 0; i <= d->nsteps; i++)
    numbered_lines(out, d->log.data + d->steps[i].log_at, d->steps[i].log_len, i);
  bug_trailer(out, d);
}

/* The machine a choice names, for the schedule's comments and the JSON. */
static const char *choice_actor(const TraceDoc *d, uint64_t step) {
  int32_t a = d->steps[step].actor;
  return a >= 0 && (uint32_t)a < d->nmachines && d->machines[a].name ? d->machines[a].name : "?";
}

/* The value a data choice took (its VE_CHOICE event), or NULL. */
static const char *choice_value(const TraceDoc *d, uint64_t step) {
  const TdStep *s = &d->steps[step];
  for (uint32_t k = 0; k < s->nevents; k++)
    if (d->events[s->first_event + k].kind == VE_CHOICE) return d->events[s->first_event + k].payload;
  return NULL;
}

/* A NUL-terminated string as a JSON literal; s must not be NULL. */
static void json_str(Buf *b, const char *s) { json_put_string(b, s, strlen(s)); }

/* NAME.json, version 2 (doc/trace-format.md): machine choices count from
** 1 as the logs do; trace_read subtracts it again. */
static void render_json(Buf *j, const TraceDoc *d) {
  buf_puts(j, "{\n  \"schema\": \"pcheck-trace\",\n  \"version\": 2,\n  \"pcheck\": \"" PACKAGE_VERSION "\",\n  \"test\": ");
  json_str(j, d->test);
  buf_puts(j, ",\n  \"search\": ");
  json_str(j, d->search);
  buf_printf(j, ",\n  \"seed\": %llu,\n  \"steps\": %llu,\n  \"bug\": {\"kind\": \"%s\", \"message\": ",
             (unsigned long long)d->seed, (unsigned long long)d->nsteps, vm_status_name(d->bug.status));
  json_str(j, d->bug.message ? d->bug.message : "");
  if (d->bug_file) {
    buf_puts(j, ", \"file\": ");
    json_str(j, d->bug_file);
    buf_printf(j, ", \"line\": %u, \"column\": %u", d->bug.line, d->bug.col);
  }
  buf_printf(j, ", \"step\": %llu},\n", (unsigned long long)d->bug_step);
  if (d->cycle_start >= 0) buf_printf(j, "  \"cycle_start\": %lld,\n", (long long)d->cycle_start);
  if (d->cycle_start >= 0 && d->unfair) buf_puts(j, "  \"unfair\": true,\n");
  if (d->bug.status == VM_BUG_HOT_TEMP) buf_printf(j, "  \"temperature_threshold\": %lld,\n", (long long)d->temperature);
  buf_puts(j, "  \"choices\": [");
  for (uint64_t i = 1; i <= d->nsteps; i++) {
    const TraceChoice *c = &d->steps[i].choice;
    buf_printf(j, "%s\n    {\"step\": %llu, \"kind\": \"%s\", \"value\": %u, \"machine\": ", i > 1 ? "," : "",
               (unsigned long long)i, c->kind == VC_MACHINE ? "machine" : "data",
               c->kind == VC_MACHINE ? c->value + 1 : c->value);
    json_str(j, choice_actor(d, i));
    buf_putc(j, '}');
  }
  buf_puts(j, d->nsteps ? "\n  ],\n  \"events\": [" : "],\n  \"events\": [");
  for (uint32_t i = 0; i < d->nevents; i++) {
    const TdEvent *e = &d->events[i];
    buf_printf(j, "%s\n    {\"step\": %llu, \"kind\": \"%s\", \"machine\": ", i ? "," : "", (unsigned long long)e->step,
               tracedoc_kind_name(e->kind));
    json_str(j, d->machines[e->actor].name);
    if (e->state) { buf_puts(j, ", \"state\": "); json_str(j, e->state); }
    if (e->event) { buf_puts(j, ", \"event\": "); json_str(j, e->event); }
    if (e->other >= 0) {
      buf_puts(j, e->kind == VE_CREATE ? ", \"creator\": " : ", \"target\": ");
      json_str(j, d->machines[e->other].name);
    }
    if (e->payload) {
      buf_puts(j, e->kind == VE_CHOICE ? ", \"value\": " : e->kind == VE_PRINT ? ", \"text\": " : ", \"payload\": ");
      json_str(j, e->payload);
    }
    if (e->file) {
      buf_puts(j, ", \"file\": ");
      json_str(j, e->file);
      buf_printf(j, ", \"line\": %u, \"column\": %u", e->line, e->col);
    }
    buf_putc(j, '}');
  }
  buf_puts(j, d->nevents ? "\n  ]\n}\n" : "]\n}\n");
}

/* The lines every schedule starts with. */
static void schedule_header(Buf *b, const char *test, const char *search, uint64_t seed) {
  buf_puts(b, "# pcheck schedule: the choices from the initial state, one a line, step 1 first\n"
              "# (m ID: run machine ID, numbered as the logs number machines: m 2 runs Client(2);\n"
              "#  d K: take option K of a data choice; '#' starts a comment)\n");
  buf_printf(b, "version: 2\ntest: %s\nsearch: %s\nseed: %llu\n", test, search ? search : "", (unsigned long long)seed);
}

/* NAME.schedule, version 2: one choice a line with a comment naming the
** step and the machine (and a data choice's value); read back by
** read_schedule, which ignores the comments. */
static void render_schedule(Buf *b, const TraceDoc *d) {
  schedule_header(b, d->test, d->search, d->seed);
  buf_printf(b, "# bug at step %llu: %s: %s\n", (unsigned long long)d->bug_step, vm_status_name(d->bug.status),
             d->bug.message ? d->bug.message : "");
  /* The same as data: a replay that does not reach it says so. */
  buf_printf(b, "bug-kind: %s\nbug-step: %llu\n", vm_status_name(d->bug.status), (unsigned long long)d->bug_step);
  if (d->cycle_start >= 0)
    buf_printf(b, "# the execution returns to the state after step `cycle`, forever\ncycle: %lld\n",
               (long long)d->cycle_start);
  if (d->cycle_start >= 0 && d->unfair) buf_puts(b, "# found with --unfair: the cycle need not be fair\nunfair: 1\n");
  if (d->bug.status == VM_BUG_HOT_TEMP)
    buf_printf(b, "# a spec hot for more steps than this is the bug\ntemperature: %lld\n", (long long)d->temperature);
  for (uint64_t i = 1; i <= d->nsteps; i++) {
    const TraceChoice *c = &d->steps[i].choice;
    if (c->kind == VC_MACHINE) {
      buf_printf(b, "m %u    # step %llu: %s\n", c->value + 1, (unsigned long long)i, choice_actor(d, i));
    } else {
      const char *v = choice_value(d, i);
      buf_printf(b, "d %u    # step %llu: %s chooses %s\n", c->value, (unsigned long long)i, choice_actor(d, i),
                 v ? v : "?");
    }
  }
}

/* Mermaid labels: what Mermaid reads as syntax (';' ends a statement, '#'
** starts an entity, '<' '>' are HTML) as entity codes; newlines as spaces. */
static void mermaid_text(Buf *b, const char *s) {
  for (; *s; s++) {
    switch (*s) {
    case ';': buf_puts(b, "#59;"); break;
    case '#': buf_puts(b, "#35;"); break;
    case '<': buf_puts(b, "#lt;"); break;
    case '>': buf_puts(b, "#gt;"); break;
    case '\n': case '\r': buf_putc(b, ' '); break;
    default: buf_putc(b, *s);
    }
  }
}

/* The bug in one line, for the diagrams' notes. */
static void bug_line(Buf *b, const TraceDoc *d) {
  buf_printf(b, "bug at step %llu: %s: %s", (unsigned long long)d->bug_step, vm_status_name(d->bug.status),
             tracedoc_bug_message(&d->bug));
  if (d->bug_file) buf_printf(b, " (%s:%u:%u)", d->bug_file, d->bug.line, d->bug.col);
}

/* The machine the bug happened in: the last step's actor, or the first
** machine. */
static uint32_t bug_machine(const TraceDoc *d) {
  int32_t a = d->steps[d->nsteps].actor;
  return a >= 0 ? (uint32_t)a : d->nspecs < d->nmachines ? d->nspecs : 0;
}

/* NAME.mmd: participants are named m<machine index> (labels carry the
** names, escaped), so no machine name can break Mermaid's syntax; specs
** have no lifeline. */
static void render_msc(Buf *b, const TraceDoc *d) {
  buf_puts(b, "sequenceDiagram\n  %% pcheck counterexample of test ");
  mermaid_text(b, d->test);
  buf_puts(b, "\n");
  for (uint32_t m = d->nspecs; m < d->nmachines; m++) {
    buf_printf(b, "  participant m%u as ", m);
    mermaid_text(b, d->machines[m].name ? d->machines[m].name : "?");
    buf_putc(b, '\n');
  }
  int in_loop = 0;
  for (uint64_t i = 0; i <= d->nsteps; i++) {
    if (d->cycle_start >= 0 && i == (uint64_t)d->cycle_start + 1 && i <= d->nsteps) {
      buf_printf(b, "  loop cycle: steps %llu to %llu repeat forever\n", (unsigned long long)i,
                 (unsigned long long)d->nsteps);
      in_loop = 1;
    }
    const TdStep *s = &d->steps[i];
    for (uint32_t k = 0; k < s->nevents; k++) {
      const TdEvent *e = &d->events[s->first_event + k];
      if (e->spec) continue;
      if (e->kind == VE_SEND && e->other >= 0) {
        buf_printf(b, "  m%u->>m%d: %llu: ", e->actor, e->other, (unsigned long long)i);
        mermaid_text(b, e->event);
        if (e->payload) { buf_putc(b, ' '); mermaid_text(b, e->payload); }
        buf_putc(b, '\n');
      } else if (e->kind == VE_CREATE && e->other >= 0) {
        buf_printf(b, "  m%d-->>m%u: %llu: new\n", e->other, e->actor, (unsigned long long)i);
      } else if (e->kind == VE_STATE || e->kind == VE_HALT) {
        buf_printf(b, "  Note over m%u: %llu: ", e->actor, (unsigned long long)i);
        mermaid_text(b, e->kind == VE_HALT ? "halted" : e->state);
        buf_putc(b, '\n');
      }
    }
  }
  if (in_loop) buf_puts(b, "  end\n");
  if (d->bug.status != VM_OK) {
    Buf t;
    buf_init(&t);
    bug_line(&t, d);
    buf_printf(b, "  Note over m%u: ", bug_machine(d));
    mermaid_text(b, t.data);
    buf_putc(b, '\n');
    buf_fini(&t);
  }
}

/* A DOT string's body: quotes and backslashes escaped. */
static void dot_text(Buf *b, const char *s) {
  for (; *s; s++) {
    if (*s == '"' || *s == '\\') buf_putc(b, '\\');
    if (*s == '\n') { buf_puts(b, "\\n"); continue; }
    buf_putc(b, *s);
  }
}

/* One merged edge of the DOT graph: every send (or creation) from one
** machine to another, in step order. */
typedef struct DotEdge {
  int32_t from, to;
  int create;
  Buf label;
} DotEdge;

/* NAME.dot: one node per machine, one edge per (from, to, kind) with every
** step's event on a line of its label, in step order. */
static void render_dot(Buf *b, const TraceDoc *d) {
  uint32_t hit = d->bug.status != VM_OK ? bug_machine(d) : UINT32_MAX;
  Buf bug;                   /* the bug in one line, DOT-escaped */
  buf_init(&bug);
  Buf t;
  buf_init(&t);
  bug_line(&t, d);
  dot_text(&bug, t.data);
  buf_fini(&t);
  buf_puts(b, "digraph counterexample {\n  rankdir=LR;\n  label=\"test ");
  dot_text(b, d->test);
  buf_printf(b, ": %s", bug.data);
  buf_puts(b, "\";\n  labelloc=t;\n  node [shape=box, fontname=\"sans-serif\"];\n  edge [fontname=\"sans-serif\"];\n");
  for (uint32_t m = d->nspecs; m < d->nmachines; m++) {
    buf_printf(b, "  m%u [label=\"", m);
    dot_text(b, d->machines[m].name ? d->machines[m].name : "?");
    buf_puts(b, m == hit ? "\", color=red, penwidth=2, fontcolor=red];\n" : "\"];\n");
  }
  DotEdge *edges = NULL;
  uint32_t nedges = 0;
  for (uint32_t i = 0; i < d->nevents; i++) {
    const TdEvent *e = &d->events[i];
    if (e->spec || e->other < 0 || (e->kind != VE_SEND && e->kind != VE_CREATE)) continue;
    int create = e->kind == VE_CREATE;
    int32_t from = create ? e->other : (int32_t)e->actor, to = create ? (int32_t)e->actor : e->other;
    uint32_t k = 0;
    while (k < nedges && !(edges[k].from == from && edges[k].to == to && edges[k].create == create)) k++;
    if (k == nedges) {
      edges = xrealloc(edges, (nedges + 1) * sizeof(DotEdge));
      edges[k].from = from;
      edges[k].to = to;
      edges[k].create = create;
      buf_init(&edges[k].label);
      nedges++;
    }
    if (edges[k].label.len) buf_puts(&edges[k].label, "\\n");
    buf_printf(&edges[k].label, "%llu: ", (unsigned long long)e->step);
    dot_text(&edges[k].label, create ? "new" : e->event);
  }
  for (uint32_t k = 0; k < nedges; k++) {
    buf_printf(b, "  m%d -> m%d [label=\"%s\"%s];\n", edges[k].from, edges[k].to,
               edges[k].label.data ? edges[k].label.data : "", edges[k].create ? ", style=dashed" : "");
    buf_fini(&edges[k].label);
  }
  free(edges);
  if (hit != UINT32_MAX) {
    buf_printf(b, "  bug [shape=note, color=red, fontcolor=red, label=\"%s\"];\n", bug.data);
    buf_printf(b, "  m%u -> bug [color=red, style=dotted, arrowhead=none];\n", hit);
  }
  buf_fini(&bug);
  buf_puts(b, "}\n");
}

/* Only the HTML report shows the machines' variables and inboxes step by
** step; the other formats need no vm_describe per step. */
int trace_wants_views(const char *formats) { return has_format(formats, "html"); }
int trace_replayable(const char *formats) { return has_format(formats, "schedule") || has_format(formats, "json"); }

/* The formats, their file extensions and renderers. */
static const struct {
  const char *fmt, *ext;
  void (*render)(Buf *, const TraceDoc *);
} renderers[] = {
  { "text", "txt", render_text }, { "json", "json", render_json }, { "schedule", "schedule", render_schedule },
  { "msc", "mmd", render_msc }, { "html", "html", report_html }, { "dot", "dot", render_dot },
};
#define NRENDERERS (sizeof renderers / sizeof renderers[0])

/* The list owns path from here on (filelist_fini frees it). */
void filelist_add(FileList *l, char *path /* takes */) {
  if (l->n == l->cap) {
    l->cap = l->cap ? l->cap * 2 : 8;
    l->items = xrealloc(l->items, l->cap * sizeof(char *));
  }
  l->items[l->n++] = path;
}

/* Frees every path and the array; l is empty again. */
void filelist_fini(FileList *l) {
  for (uint32_t i = 0; i < l->n; i++) free(l->items[i]);
  free(l->items);
  memset(l, 0, sizeof *l);
}

void trace_remove_stale(const char *dir, const char *test_name, const FileList *keep) {
  Buf path;
  buf_init(&path);
  for (size_t i = 0; i <= NRENDERERS; i++) {
    path.len = 0;
    if (i < NRENDERERS) buf_printf(&path, "%s/%s.%s", dir, test_name, renderers[i].ext);
    else buf_printf(&path, "%s/%s.explorer-failure.schedule", dir, test_name);
    int kept = 0;
    for (uint32_t k = 0; keep && k < keep->n && !kept; k++) kept = strcmp(keep->items[k], path.data) == 0;
    if (!kept && remove(path.data) == 0) printf("removed: %s (an earlier run's trace of this test)\n", path.data);
  }
  buf_fini(&path);
}

/* Each format asked for is rendered into memory and written in one atomic
** write as DIR/TEST.EXT; a failure is reported on stderr and the others
** are still written (the result is -1 if any failed).  Only the files
** written are added to `written`.  Unknown names in formats are ignored
** (the CLI checks them). */
int trace_render(const TraceDoc *d, const char *dir, const char *formats, FileList *written) {
  if (trace_mkdirs(dir) != 0) {
    fprintf(stderr, "pcheck: error: cannot create the output folder '%s': %s\n", dir, strerror(errno));
    return -1;
  }
  int rc = 0;
  Buf body, path;
  buf_init(&body);
  buf_init(&path);
  for (size_t i = 0; i < NRENDERERS; i++) {
    if (!has_format(formats, renderers[i].fmt)) continue;
    body.len = 0;
    path.len = 0;
    renderers[i].render(&body, d);
    buf_printf(&path, "%s/%s.%s", dir, d->test, renderers[i].ext);
    if (file_write_atomic(path.data, &body) != 0) {
      fprintf(stderr, "pcheck: error: cannot write '%s': %s\n", path.data, strerror(errno));
      rc = -1;
    } else {
      filelist_add(written, xstrdup(path.data));
      if (renderers[i].render == report_html && body.len > (20u << 20))
        fprintf(stderr, "pcheck: note: the HTML report of this %llu-step trace takes %.0f MB and loads slowly; "
                "--search bfs finds the shortest trace\n", (unsigned long long)d->nsteps, (double)body.len / 1048576.0);
    }
  }
  buf_fini(&body);
  buf_fini(&path);
  return rc;
}

/* The search's trace is replayed once into a TraceDoc (with the machines'
** views only when html is asked for, and the coverage so far when the
** test collects it), then rendered.  The search's bug description is the
** document's bug, so lassos and temperature bugs are shown as found.  A
** trace that does not replay is an internal error: the search and the
** replay disagree about the model. */
int trace_write(const BcProgram *bc, const VmTest *test, const char *test_name, const char *search, uint64_t seed,
                const SearchResult *res, const char *dir, const char *formats, FileList *written) {
  TdMeta meta = { test_name, search, seed, &res->bugdesc, res->cycle_start, res->cycle_unfair, res->temperature,
                  trace_wants_views(formats), NULL };
  CovReport cov;
  int with_cov = test->cov && has_format(formats, "html");   /* the HTML report has a coverage section */
  if (with_cov) {
    cov_report_build(&cov, bc, test->cov, NULL, test_name);
    meta.coverage = &cov;
  }
  TraceDoc d;
  Buf err;
  buf_init(&err);
  int rc = tracedoc_build(&d, bc, test, &meta, res->trace, res->ntrace, &err);
  if (rc != 0) fprintf(stderr, "pcheck: internal error: the counterexample does not replay: %s\n", err.data);
  else rc = trace_render(&d, dir, formats, written);
  tracedoc_fini(&d);
  buf_fini(&err);
  if (with_cov) cov_report_fini(&cov);
  return rc;
}
/* A .schedule file: "key: value" lines, then one choice a line ("m ID" or
** "d K"), '#' comments and blank lines anywhere, CRLF accepted.  Values
** are read with strto* and not checked further, but for the version (1
** or 2; a later version line changes how the lines after it count
** machines) and the limits.  The first line that is neither, and a
** machine 0 in version 2, is an error naming the line; a file without a
** test line is refused.  out must be zeroed
** (trace_parse does it); what was read stays in it on error. */
static int read_schedule(const char *path, const char *text, size_t len, TraceInfo *out, Buf *err) {
  uint64_t cap = 0, line = 0;
  long version = 1;          /* no version line: version 1, machine ids from 0 */
  const char *p = text, *end = text + len;
  while (p < end) {
    const char *nl = memchr(p, '\n', (size_t)(end - p));
    const char *le = nl ? nl : end;
    line++;
    size_t n = (size_t)(le - p);
    char *l = xstrndup(p, n);
    if (n && l[n - 1] == '\r') l[--n] = 0;
    p = nl ? nl + 1 : end;
    char *hash = strchr(l, '#');   /* a comment runs to the end of the line */
    if (hash) { *hash = 0; n = (size_t)(hash - l); }
    while (n && (l[n - 1] == ' ' || l[n - 1] == '\t')) l[--n] = 0;
    if (!n) { free(l); continue; }
    if (strncmp(l, "version: ", 9) == 0) {
      version = strtol(l + 9, NULL, 10);
      free(l);
      if (version != 1 && version != 2) {
        buf_printf(err, "%s:%llu: unknown schedule version (this pcheck reads versions 1 and 2)", path,
                   (unsigned long long)line);
        return -1;
      }
      continue;
    }
    if (strncmp(l, "test: ", 6) == 0) { free(out->test); out->test = xstrdup(l + 6); free(l); continue; }
    if (strncmp(l, "search: ", 8) == 0) { free(out->search); out->search = xstrdup(l + 8); free(l); continue; }
    if (strncmp(l, "seed: ", 6) == 0) { out->seed = strtoull(l + 6, NULL, 10); free(l); continue; }
    if (strncmp(l, "cycle: ", 7) == 0) { out->cycle_start = strtoll(l + 7, NULL, 10); free(l); continue; }
    if (strncmp(l, "unfair: ", 8) == 0) { out->unfair = atoi(l + 8) != 0; free(l); continue; }
    if (strncmp(l, "temperature: ", 13) == 0) { out->temperature = strtoll(l + 13, NULL, 10); free(l); continue; }
    if (strncmp(l, "bug-kind: ", 10) == 0) { free(out->bug_kind); out->bug_kind = xstrdup(l + 10); free(l); continue; }
    if (strncmp(l, "bug-step: ", 10) == 0) { out->bug_step = strtoull(l + 10, NULL, 10); free(l); continue; }
    if (strncmp(l, "limits:", 7) == 0) {
      unsigned long long v[TRACE_NLIMITS];
      char extra;
      if (sscanf(l + 7, "%llu %llu %llu %llu %llu %c", &v[0], &v[1], &v[2], &v[3], &v[4], &extra) != TRACE_NLIMITS ||
          v[1] > UINT32_MAX || v[2] > UINT32_MAX || v[3] > UINT32_MAX) {
        buf_printf(err, "%s:%llu: expected 'limits:' and %d counts, found '%.40s'", path, (unsigned long long)line,
                   TRACE_NLIMITS, l);
        free(l);
        return -1;
      }
      for (int i = 0; i < TRACE_NLIMITS; i++) out->limits[i] = v[i];
      out->has_limits = 1;
      free(l);
      continue;
    }
    char kind;
    unsigned long long v;
    char extra;
    if (sscanf(l, "%c %llu %c", &kind, &v, &extra) != 2 || (kind != 'm' && kind != 'd') || v > UINT32_MAX) {
      buf_printf(err, "%s:%llu: expected 'm ID' or 'd K', found '%.40s'", path, (unsigned long long)line, l);
      free(l);
      return -1;
    }
    free(l);
    if (out->n == cap) {
      cap = cap ? cap * 2 : 256;
      out->choices = xrealloc(out->choices, cap * sizeof(TraceChoice));
    }
    if (kind == 'm' && version >= 2) {
      if (v == 0) {
        buf_printf(err, "%s:%llu: machine 0 does not exist (machines count from 1, as in the logs)", path,
                   (unsigned long long)line);
        return -1;
      }
      v--;
    }
    out->choices[out->n].kind = kind == 'm' ? VC_MACHINE : VC_DATA;
    out->choices[out->n++].value = (uint32_t)v;
  }
  if (!out->test) { buf_printf(err, "%s: no 'test:' line", path); return -1; }
  return 0;
}

/* A .json trace (doc/trace-format.md): the schema and a version of 1 or 2
** are required, then "test" and "choices"; search, seed, cycle_start,
** unfair, temperature_threshold and the bug's kind and step are taken
** when present with the right kind, ignored otherwise.  Numbers come as
** doubles (json.c): a seed above 2^53 does not come back exactly, and a
** fraction in a choice's value is dropped.  Events are not read: a replay
** makes them again. */
static int read_json(const char *path, const char *text, size_t len, TraceInfo *out, Buf *err) {
  Buf jerr;
  buf_init(&jerr);
  Json *j = json_parse(text, len, &jerr);
  if (!j) {
    buf_printf(err, "%s: not valid JSON: %s", path, jerr.data ? jerr.data : "");
    buf_fini(&jerr);
    return -1;
  }
  buf_fini(&jerr);
  int rc = -1;
  const Json *schema = json_get(j, "schema"), *version = json_get(j, "version"), *test = json_get(j, "test");
  const Json *choices = json_get(j, "choices"), *search = json_get(j, "search"), *seed = json_get(j, "seed");
  if (!schema || schema->kind != JSON_STRING || strcmp(schema->str, "pcheck-trace") != 0) {
    buf_printf(err, "%s: not a pcheck trace (no \"schema\": \"pcheck-trace\")", path);
    goto out;
  }
  if (!version || version->kind != JSON_NUMBER || (version->num != 1 && version->num != 2)) {
    buf_printf(err, "%s: trace version is not 1 or 2 (written by a newer pcheck?)", path);
    goto out;
  }
  if (!test || test->kind != JSON_STRING || !choices || choices->kind != JSON_ARRAY) {
    buf_printf(err, "%s: a trace needs \"test\" and \"choices\"", path);
    goto out;
  }
  out->test = xstrdup(test->str);
  if (search && search->kind == JSON_STRING) out->search = xstrdup(search->str);
  const Json *cyc = json_get(j, "cycle_start");
  const Json *unf = json_get(j, "unfair"), *temp = json_get(j, "temperature_threshold");
  const Json *bug = json_get(j, "bug"), *bkind = bug ? json_get(bug, "kind") : NULL,
             *bstep = bug ? json_get(bug, "step") : NULL;
  /* Whole numbers a double holds exactly (2^53), where their field wants. */
  const double exact = 9007199254740992.0;
  if (!json_whole(seed, 0, exact) || !json_whole(cyc, -1, exact) || !json_whole(temp, 0, exact) ||
      !json_whole(bstep, 0, exact)) {
    buf_printf(err, "%s: \"seed\", \"cycle_start\", \"temperature_threshold\" and the bug's \"step\" must be whole "
               "numbers from 0 (-1 for cycle_start) to 2^53", path);
    goto out;
  }
  if (seed && seed->kind == JSON_NUMBER) out->seed = (uint64_t)seed->num;
  if (cyc && cyc->kind == JSON_NUMBER) out->cycle_start = (int64_t)cyc->num;
  if (unf && unf->kind == JSON_BOOL && unf->num != 0) out->unfair = 1;
  if (temp && temp->kind == JSON_NUMBER) out->temperature = (int64_t)temp->num;
  if (bkind && bkind->kind == JSON_STRING && bstep && bstep->kind == JSON_NUMBER) {
    out->bug_kind = xstrdup(bkind->str);
    out->bug_step = (uint64_t)bstep->num;
  }
  out->choices = xmalloc((choices->n ? choices->n : 1) * sizeof(TraceChoice));
  for (size_t i = 0; i < choices->n; i++) {
    const Json *c = choices->items[i], *k = json_get(c, "kind"), *v = json_get(c, "value");
    if (!k || k->kind != JSON_STRING || !v || v->kind != JSON_NUMBER || v->num < 0 || v->num > UINT32_MAX ||
        (strcmp(k->str, "machine") != 0 && strcmp(k->str, "data") != 0)) {
      buf_printf(err, "%s: choice %zu is not {\"kind\": \"machine\"|\"data\", \"value\": N}", path, i + 1);
      goto out;
    }
    out->choices[i].kind = strcmp(k->str, "machine") == 0 ? VC_MACHINE : VC_DATA;
    out->choices[i].value = (uint32_t)v->num;
    if (out->choices[i].kind == VC_MACHINE && version->num == 2) {
      if (v->num < 1) {
        buf_printf(err, "%s: choice %zu runs machine 0, but machines count from 1 in version 2", path, i + 1);
        goto out;
      }
      out->choices[i].value--;
    }
    out->n++;
  }
  rc = 0;
out:
  json_free(j);
  return rc;
}

/* out is overwritten (not freed first); on failure it is empty, and err
** names the file (the system's reason, or what trace_parse found). */
int trace_read(const char *path, TraceInfo *out, Buf *err) {
  memset(out, 0, sizeof *out);
  out->cycle_start = -1;
  size_t len;
  char *text = read_file(path, &len);
  if (!text) { buf_printf(err, "cannot read '%s': %s", path, strerror(errno)); return -1; }
  int rc = trace_parse(path, text, len, out, err);
  free(text);
  return rc;
}

/* The format is told by the first byte after whitespace: '{' is JSON,
** anything else a schedule.  Checks what both share: the temperature is
** not negative, the cycle starts within the trace.  On failure out is
** freed and zeroed. */
int trace_parse(const char *path, const char *text, size_t len, TraceInfo *out, Buf *err) {
  memset(out, 0, sizeof *out);
  out->cycle_start = -1;
  size_t i = 0;
  while (i < len && (text[i] == ' ' || text[i] == '\n' || text[i] == '\t' || text[i] == '\r')) i++;
  int rc = i < len && text[i] == '{' ? read_json(path, text, len, out, err) : read_schedule(path, text, len, out, err);
  if (rc == 0 && out->temperature < 0) {
    buf_printf(err, "%s: the temperature threshold is negative", path);
    rc = -1;
  }
  if (rc == 0 && out->cycle_start > (int64_t)out->n) {
    buf_printf(err, "%s: the cycle starts after step %lld, but the trace has %llu steps", path,
               (long long)out->cycle_start, (unsigned long long)out->n);
    rc = -1;
  }
  if (rc != 0) trace_info_fini(out);
  return rc;
}

/* One fresh Vm, logging into raw; after each step its lines are moved to
** log with their step number.  A bug of the initial state or of a step,
** a deadlock or hot spec at the end, a temperature past the threshold
** (checked before each step, as the sampling searches check it) or the
** max-steps bound all end the replay as a bug; a choice the State does not
** offer is -1 with what it offered instead.  The lasso test needs the
** whole trace: the last State must equal the one after cycle_start
** choices, some spec must be hot somewhere on the cycle and never cold on
** it, and the cycle must be fair unless `unfair` (live_fair_*).  *bug is
** zeroed first and filled, with *bug_step, only when 1 is returned: its
** message a heap copy, its file borrowed from the program. */
int trace_replay(const BcProgram *bc, const VmTest *test, const TraceChoice *choices, uint64_t n,
                 int64_t cycle_start, int unfair, int64_t temperature, uint64_t fail_at, Buf *log, VmBug *bug,
                 uint64_t *bug_step, Buf *err) {
  Buf at_cycle;              /* the State after cycle_start choices */
  buf_init(&at_cycle);
  uint64_t live_all = ~0ull; /* specs never cold on the cycle (nor entering a cold state on a step of it) */
  uint64_t hot_any = 0;      /* specs hot in some state of the cycle */
  LiveFair *fair = cycle_start >= 0 && !unfair ? live_fair_new() : NULL;   /* the cycle's steps */
  LiveTemp temp;             /* hot steps per spec, with a temperature threshold */
  live_temp_init(&temp, bc, test, temperature);
  int temp_hit = 0;
  Vm *vm = vm_new(bc, test);
  Buf raw;                   /* the VM's log of one step, numbered into log */
  buf_init(&raw);
  vm_set_log(vm, &raw);
  Buf a, b;
  buf_init(&a);
  buf_init(&b);
  VmChoices ch = {0};
  int rc = 0;
  memset(bug, 0, sizeof *bug);
  VmStatus st = vm_initial(vm, &a);
  numbered_lines(log, raw.data, raw.len, 0);
  raw.len = 0;
  uint64_t i = 0;
  if (st != VM_OK) { rc = 1; goto bugout; }
  for (; i < n; i++) {
    if (cycle_start >= 0 && i == (uint64_t)cycle_start) buf_append(&at_cycle, a.data, a.len);
    if (cycle_start >= 0 && i >= (uint64_t)cycle_start) {
      uint64_t hot, cold;
      vm_spec_temps(vm, (uint8_t *)a.data, a.len, &hot, &cold);
      live_all &= ~cold;
      hot_any |= hot;
    }
    st = vm_choices(vm, (uint8_t *)a.data, a.len, &ch);
    if (st != VM_OK) {
      if (st == VM_BAD_STATE) { buf_printf(err, "internal error at step %llu", (unsigned long long)i + 1); rc = -1; goto out; }
      rc = 1;
      goto bugout;
    }
    const TraceChoice *c = &choices[i];
    if (!tracedoc_fits(&ch, c)) {
      buf_printf(err, "the trace diverges from the model at step %llu: it chooses %s %u, but ",
                 (unsigned long long)i + 1, c->kind == VC_MACHINE ? "machine" : "option",
                 c->kind == VC_MACHINE ? c->value + 1 : c->value);
      if (ch.kind == VC_NONE) buf_puts(err, "the execution has ended there");
      else if (ch.kind == VC_DATA) buf_printf(err, "the model makes a data choice with options 0 to %u", ch.n - 1);
      else {
        buf_puts(err, "the machines that can run are");
        for (uint32_t k = 0; k < ch.n; k++) buf_printf(err, "%s %u", k ? "," : "", ch.ids[k] + 1);
      }
      rc = -1;
      goto out;
    }
    if (live_temp_before(&temp, vm, (uint8_t *)a.data, a.len)) { temp_hit = 1; rc = 1; goto bugout; }
    if (fair && i >= (uint64_t)cycle_start) live_fair_step(fair, vm, (uint8_t *)a.data, a.len, &ch, c->value);
    st = vm_step(vm, (uint8_t *)a.data, a.len, c->value, &b);
    numbered_lines(log, raw.data, raw.len, i + 1);
    raw.len = 0;
    if (st != VM_OK) {
      i++;
      rc = 1;
      goto bugout;
    }
    live_temp_after(&temp, vm);
    if (cycle_start >= 0 && i >= (uint64_t)cycle_start) live_all &= ~vm_cooled_specs(vm);
    Buf t = a; a = b; b = t;
  }
  if (cycle_start >= 0) {
    /* A lasso: the end must be the state where the cycle began, with a
    ** spec never cold along it and hot somewhere on it (P's temperature
    ** grows without bound around it). */
    uint64_t hot_all = live_all & hot_any;
    Buf why;
    buf_init(&why);
    int closes = (uint64_t)cycle_start < n && at_cycle.len == a.len && memcmp(at_cycle.data, a.data, a.len) == 0;
    if (closes && hot_all && fair && !live_fair_check(fair, vm, &why)) {
      buf_printf(err, "the trace's cycle is not fair, so it is no liveness bug of this model: %s (replay with "
                 "--unfair to accept unfair cycles)", why.data);
      buf_fini(&why);
      rc = -1;
      goto out;
    }
    buf_fini(&why);
    if (closes && hot_all) {
      int k = 0;
      while (!(hot_all & (1ull << k))) k++;
      bug->status = VM_BUG_HOT_CYCLE;
      Buf m;
      buf_init(&m);
      const char *sname, *sfile;
      uint32_t sline;
      vm_spec_state(vm, (uint8_t *)at_cycle.data, at_cycle.len, (uint16_t)k, &sname, &sfile, &sline);
      live_cycle_message(&m, vm_spec_name(vm, (uint16_t)k), sname, sfile, sline, n - (uint64_t)cycle_start, unfair);
      bug->message = buf_take(&m);
      *bug_step = n;
      liveness_line(log, n, cycle_start, bug->message);
      rc = 1;
    } else {
      buf_printf(err, "the trace's last state is not the state after step %lld with a spec hot on the cycle and "
                 "never cold: it is not a liveness cycle of this model", (long long)cycle_start);
      rc = -1;
    }
    goto out;
  }
  /* At the end: a deadlock or hot spec shows when asking what is enabled;
  ** a spec hot too long, when a choice is still to be made. */
  st = vm_choices(vm, (uint8_t *)a.data, a.len, &ch);
  if (st == VM_BUG_DEADLOCK || st == VM_BUG_HOT) { rc = 1; goto bugout; }
  if (st == VM_OK && ch.kind != VC_NONE && live_temp_before(&temp, vm, (uint8_t *)a.data, a.len)) {
    temp_hit = 1;
    rc = 1;
    goto bugout;
  }
  if (st == VM_OK && ch.kind != VC_NONE && fail_at > 0 && n >= fail_at) {
    Buf m;
    buf_init(&m);
    search_max_steps_message(&m, (int64_t)fail_at);
    bug->status = VM_BUG_MAX_STEPS;
    bug->message = buf_take(&m);
    *bug_step = n;
    rc = 1;
  }
  goto out;
bugout:
  *bug = temp_hit ? temp.bug : *vm_bug(vm);
  bug->message = xstrdup(bug->message ? bug->message : "");
  if (temp_hit) liveness_line(log, i, -1, bug->message);
  *bug_step = i;
  if (i < n && rc == 1) {
    /* The bug came before the trace's end: the rest no longer applies. */
    buf_printf(log, "[%llu] <TestLog> the bug was reached at step %llu; the trace has %llu steps\n",
               (unsigned long long)i, (unsigned long long)i, (unsigned long long)n);
  }
out:
  live_fair_free(fair);
  live_temp_fini(&temp);
  buf_fini(&at_cycle);
  buf_fini(&raw);
  vm_choices_fini(&ch);
  buf_fini(&a);
  buf_fini(&b);
  vm_free(vm);
  return rc;
}

/* The schedule written here has no bug-kind or cycle lines (render_schedule
** writes those): it replays a way to a State, not a verdict.  Machine ids
** are written from 1, as version 2 wants. */
int trace_write_choices(const char *path, const char *test_name, const char *search, uint64_t seed, const uint64_t *limits,
                        const char *comment, const TraceChoice *c, uint64_t n) {
  Buf sch;
  buf_init(&sch);
  schedule_header(&sch, test_name, search, seed);
  if (limits) {
    buf_puts(&sch, "# the limits it ran under: step instructions, inbox, machines, collection, State bytes (0: none)\nlimits:");
    for (int i = 0; i < TRACE_NLIMITS; i++) buf_printf(&sch, " %llu", (unsigned long long)limits[i]);
    buf_puts(&sch, "\n");
  }
  if (comment) buf_printf(&sch, "# %s\n", comment);
  for (uint64_t i = 0; i < n; i++)
    buf_printf(&sch, "%c %u    # step %llu\n", c[i].kind == VC_MACHINE ? 'm' : 'd',
               c[i].kind == VC_MACHINE ? c[i].value + 1 : c[i].value, (unsigned long long)i + 1);
  int rc = file_write_atomic(path, &sch);
  if (rc != 0) fprintf(stderr, "pcheck: error: cannot write '%s': %s\n", path, strerror(errno));
  buf_fini(&sch);
  return rc;
}

/* The comment line says what stopped the search (res->error, else the
** bug's message).  The folder is created first; failures are reported on
** stderr.  *path_out is the caller's to free. */
int trace_write_schedule(const char *test_name, const char *search, uint64_t seed, const SearchResult *res,
                         const uint64_t *limits, const char *dir, const char *what, char **path_out) {
  *path_out = NULL;
  if (trace_mkdirs(dir) != 0) {
    fprintf(stderr, "pcheck: error: cannot create the output folder '%s': %s\n", dir, strerror(errno));
    return -1;
  }
  Buf path, comment;
  buf_init(&path);
  buf_init(&comment);
  buf_printf(&path, "%s/%s.%s.schedule", dir, test_name, what);
  buf_printf(&comment, "%s: %s", what, res->error ? res->error : res->bugdesc.message ? res->bugdesc.message : "");
  int rc = trace_write_choices(path.data, test_name, search, seed, limits, comment.data, res->trace, res->ntrace);
  if (rc == 0) *path_out = buf_take(&path);
  buf_fini(&path);
  buf_fini(&comment);
  return rc;
}
