/* trace.c: writing counterexamples in every format and reading them back.
** Rendering replays the choices with logging and step events on, so a
** trace shows exactly what the VM did. */
#include <config.h>
#include "checker/trace.h"
#include "checker/json.h"
#include "checker/liveness.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

void trace_info_fini(TraceInfo *t) {
  free(t->test);
  free(t->search);
  free(t->choices);
  memset(t, 0, sizeof *t);
}

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

static int mkdirs(const char *dir) {
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

static int write_file(const char *path, const Buf *b) {
  FILE *f = fopen(path, "wb");
  if (!f) return -1;
  size_t n = b->len ? fwrite(b->data, 1, b->len, f) : 0;
  int bad = n != b->len;
  if (fclose(f) != 0) bad = 1;
  return bad ? -1 : 0;
}

static const char *event_kind_name(VmEventKind k) {
  static const char *const names[] = { "create", "send", "drop", "dequeue", "raise", "state", "halt", "block",
                                       "receive", "monitor", "announce", "choice", "print" };
  return (unsigned)k < sizeof names / sizeof names[0] ? names[k] : "?";
}

/* JSON for the events of one step. */
static void json_events(Buf *j, Vm *vm, const BcProgram *bc, const VmTest *test, uint64_t step, int *first) {
  uint32_t n;
  const VmEvent *ev = vm_events(vm, &n);
  for (uint32_t i = 0; i < n; i++) {
    const VmEvent *e = &ev[i];
    buf_puts(j, *first ? "\n    " : ",\n    ");
    *first = 0;
    buf_printf(j, "{\"step\": %llu, \"kind\": \"%s\", \"machine\": ", (unsigned long long)step, event_kind_name(e->kind));
    const char *who = e->spec ? bc->machines[test->specs[e->machine]].name : vm_machine_text(vm, e->machine);
    json_put_string(j, who, strlen(who));
    if (e->kind == VE_STATE || e->kind == VE_DEQUEUE || e->kind == VE_RECEIVE || e->kind == VE_RAISE ||
        e->kind == VE_SEND || e->kind == VE_BLOCK || e->kind == VE_HALT || e->kind == VE_MONITOR) {
      const BcMachine *bm = &bc->machines[e->type];
      const char *sn = e->state < bm->nstates ? bm->states[e->state].name : "?";
      buf_puts(j, ", \"state\": ");
      json_put_string(j, sn, strlen(sn));
    }
    if (e->kind == VE_SEND || e->kind == VE_DEQUEUE || e->kind == VE_RECEIVE || e->kind == VE_RAISE ||
        e->kind == VE_ANNOUNCE || e->kind == VE_MONITOR || e->kind == VE_DROP) {
      const char *en = e->event < bc->nevents ? bc->event_names[e->event] : "null";
      buf_puts(j, ", \"event\": ");
      json_put_string(j, en, strlen(en));
    }
    if (e->kind == VE_SEND || e->kind == VE_DROP || (e->kind == VE_CREATE && e->other != UINT32_MAX)) {
      const char *o = vm_machine_text(vm, e->other);
      buf_puts(j, e->kind == VE_CREATE ? ", \"creator\": " : ", \"target\": ");
      json_put_string(j, o, strlen(o));
    }
    if (e->payload.tag != VT_NULL || e->kind == VE_CHOICE) {
      const char *pt = vm_value_text(vm, &e->payload);
      buf_puts(j, e->kind == VE_CHOICE ? ", \"value\": " : e->kind == VE_PRINT ? ", \"text\": " : ", \"payload\": ");
      json_put_string(j, pt, strlen(pt));
    }
    if (e->file) {
      buf_puts(j, ", \"file\": ");
      json_put_string(j, e->file, strlen(e->file));
      buf_printf(j, ", \"line\": %u, \"column\": %u", e->line, e->col);
    }
    buf_putc(j, '}');
  }
}

/* The diagram formats, built from the same step events as the JSON:
** msc (a Mermaid sequence diagram: one lifeline per machine, an arrow per
** send, notes for state changes), dot (Graphviz: machines as nodes,
** creations and sends as numbered edges) and html (a self-contained page
** with the log as a table). */
typedef struct Diagrams {
  Buf msc, dot, html;
} Diagrams;

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

/* Mermaid and DOT names: letters, digits and underscores only. */
static void ident(Buf *b, const char *s) {
  for (; *s; s++) buf_putc(b, ((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9')) ? *s : '_');
}

static void diagram_events(Diagrams *d, Vm *vm, const BcProgram *bc, const VmTest *test, uint64_t step) {
  uint32_t n;
  const VmEvent *ev = vm_events(vm, &n);
  for (uint32_t i = 0; i < n; i++) {
    const VmEvent *e = &ev[i];
    const char *who = e->spec ? bc->machines[test->specs[e->machine]].name : vm_machine_text(vm, e->machine);
    const char *en = e->event < bc->nevents ? bc->event_names[e->event] : "null";
    const char *pay = e->payload.tag != VT_NULL ? vm_value_text(vm, &e->payload) : NULL;
    const BcMachine *bm = &bc->machines[e->type];
    const char *sn = e->state < bm->nstates ? bm->states[e->state].name : "?";
    /* html: every event */
    buf_printf(&d->html, "<tr><td>%llu</td><td>", (unsigned long long)step);
    html_text(&d->html, who);
    static const char *const kinds[] = { "create", "send", "drop", "dequeue", "raise", "state", "halt", "block",
                                         "receive", "monitor", "announce", "choice", "print" };
    buf_printf(&d->html, "</td><td>%s</td><td>", kinds[e->kind]);
    Buf what;
    buf_init(&what);
    switch (e->kind) {
    case VE_SEND: buf_printf(&what, "%s to %s", en, vm_machine_text(vm, e->other)); break;
    case VE_CREATE: buf_printf(&what, "by %s", e->other == UINT32_MAX ? "the test" : vm_machine_text(vm, e->other)); break;
    case VE_STATE: case VE_HALT: case VE_BLOCK: buf_printf(&what, "%s", sn); break;
    case VE_CHOICE: case VE_PRINT: break;
    default: buf_printf(&what, "%s", en); break;
    }
    if (pay) buf_printf(&what, "%s%s", what.len ? " " : "", pay);
    html_text(&d->html, what.data ? what.data : "");
    buf_puts(&d->html, "</td><td>");
    if (e->file) {
      html_text(&d->html, e->file);
      buf_printf(&d->html, ":%u:%u", e->line, e->col);
    }
    buf_puts(&d->html, "</td></tr>\n");
    buf_fini(&what);
    /* msc and dot: creations, sends, state changes */
    if (e->kind == VE_CREATE) {
      buf_puts(&d->msc, "  participant ");
      ident(&d->msc, who);
      buf_printf(&d->msc, " as %s\n", who);
      if (e->other != UINT32_MAX) {
        buf_puts(&d->dot, "  ");
        ident(&d->dot, vm_machine_text(vm, e->other));
        buf_puts(&d->dot, " -> ");
        ident(&d->dot, who);
        buf_printf(&d->dot, " [style=dashed, label=\"%llu: new\"];\n", (unsigned long long)step);
      }
      buf_puts(&d->dot, "  ");
      ident(&d->dot, who);
      buf_printf(&d->dot, " [label=\"%s\"];\n", who);
    } else if (e->kind == VE_SEND) {
      const char *to = vm_machine_text(vm, e->other);
      buf_puts(&d->msc, "  ");
      ident(&d->msc, who);
      buf_puts(&d->msc, "->>");
      ident(&d->msc, to);
      buf_printf(&d->msc, ": %llu: %s%s%s\n", (unsigned long long)step, en, pay ? " " : "", pay ? pay : "");
      buf_puts(&d->dot, "  ");
      ident(&d->dot, who);
      buf_puts(&d->dot, " -> ");
      ident(&d->dot, to);
      buf_printf(&d->dot, " [label=\"%llu: %s\"];\n", (unsigned long long)step, en);
    } else if (e->kind == VE_STATE && !e->spec) {
      buf_puts(&d->msc, "  Note over ");
      ident(&d->msc, who);
      buf_printf(&d->msc, ": %s\n", sn);
    }
  }
}

int trace_write(const BcProgram *bc, const VmTest *test, const char *test_name, const char *search, uint64_t seed,
                const SearchResult *res, const char *dir, const char *formats, char **main_path) {
  *main_path = NULL;
  if (mkdirs(dir) != 0) {
    fprintf(stderr, "pcheck: error: cannot create the output folder '%s': %s\n", dir, strerror(errno));
    return -1;
  }
  /* Replay with a log and events. */
  Vm *vm = vm_new(bc, test);
  Buf log, j, a, b;
  buf_init(&log);
  buf_init(&j);
  buf_init(&a);
  buf_init(&b);
  vm_set_log(vm, &log);
  vm_record_events(vm, 1);
  buf_printf(&log, "<TestLog> Counterexample of test '%s' found by --search %s, %llu steps\n", test_name,
             search ? search : "?", (unsigned long long)res->ntrace);
  buf_printf(&j, "{\n  \"schema\": \"pcheck-trace\",\n  \"version\": 1,\n  \"test\": ");
  json_put_string(&j, test_name, strlen(test_name));
  buf_puts(&j, ",\n  \"search\": ");
  json_put_string(&j, search ? search : "", search ? strlen(search) : 0);
  buf_printf(&j, ",\n  \"seed\": %llu,\n  \"bug\": {\"kind\": \"%s\", \"message\": ", (unsigned long long)seed,
             vm_status_name(res->bugdesc.status));
  const char *msg = res->bugdesc.message ? res->bugdesc.message : "";
  json_put_string(&j, msg, strlen(msg));
  if (res->bugdesc.file) {
    buf_puts(&j, ", \"file\": ");
    json_put_string(&j, res->bugdesc.file, strlen(res->bugdesc.file));
    buf_printf(&j, ", \"line\": %u, \"column\": %u", res->bugdesc.line, res->bugdesc.col);
  }
  buf_puts(&j, "},\n");
  if (res->cycle_start >= 0) buf_printf(&j, "  \"cycle_start\": %lld,\n", (long long)res->cycle_start);
  if (res->cycle_start >= 0 && res->cycle_unfair) buf_puts(&j, "  \"unfair\": true,\n");
  if (res->bugdesc.status == VM_BUG_HOT_TEMP)
    buf_printf(&j, "  \"temperature_threshold\": %lld,\n", (long long)res->temperature);
  buf_puts(&j, "  \"choices\": [");
  for (uint64_t i = 0; i < res->ntrace; i++)
    buf_printf(&j, "%s{\"kind\": \"%s\", \"value\": %u}", i ? ", " : "",
               res->trace[i].kind == VC_MACHINE ? "machine" : "data", res->trace[i].value);
  buf_puts(&j, "],\n  \"events\": [");
  int first = 1;
  Diagrams dg;
  buf_init(&dg.msc);
  buf_init(&dg.dot);
  buf_init(&dg.html);
  buf_printf(&dg.msc, "sequenceDiagram\n  %%%% pcheck counterexample of test %s: %s\n", test_name, msg);
  buf_printf(&dg.dot, "digraph counterexample {\n  label=\"test %s: %s\";\n  node [shape=box];\n", test_name,
             vm_status_name(res->bugdesc.status));
  buf_puts(&dg.html, "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>pcheck counterexample</title>\n"
           "<style>body{font-family:sans-serif}td,th{padding:2px 8px;text-align:left}"
           "tr:nth-child(even){background:#f3f3f3}</style></head><body>\n<h1>Test ");
  html_text(&dg.html, test_name);
  buf_puts(&dg.html, "</h1>\n<p><b>");
  html_text(&dg.html, vm_status_name(res->bugdesc.status));
  buf_puts(&dg.html, "</b>: ");
  html_text(&dg.html, msg);
  if (res->bugdesc.file) {
    buf_puts(&dg.html, " at ");
    html_text(&dg.html, res->bugdesc.file);
    buf_printf(&dg.html, ":%u:%u", res->bugdesc.line, res->bugdesc.col);
  }
  buf_puts(&dg.html, "</p>\n<table>\n<tr><th>step</th><th>machine</th><th>what</th><th>details</th><th>where</th></tr>\n");
  vm_initial(vm, &a);
  json_events(&j, vm, bc, test, 0, &first);
  diagram_events(&dg, vm, bc, test, 0);
  for (uint64_t i = 0; i < res->ntrace; i++) {
    VmStatus st = vm_step(vm, (uint8_t *)a.data, a.len, res->trace[i].value, &b);
    json_events(&j, vm, bc, test, i + 1, &first);
    diagram_events(&dg, vm, bc, test, i + 1);
    if (st != VM_OK) break;
    Buf t = a; a = b; b = t;
  }
  buf_puts(&dg.dot, "}\n");
  buf_puts(&dg.html, "</table>\n</body></html>\n");
  if (res->cycle_start >= 0) {
    buf_printf(&log, "<ErrorLog> liveness: the last %llu steps return to the state after step %lld: %s\n",
               (unsigned long long)(res->ntrace - (uint64_t)res->cycle_start), (long long)res->cycle_start, msg);
  } else if (res->bugdesc.status == VM_BUG_HOT_TEMP) {
    buf_printf(&log, "<ErrorLog> liveness: %s\n", msg);
  } else if (res->bugdesc.status == VM_BUG_DEADLOCK || res->bugdesc.status == VM_BUG_HOT) {
    VmChoices ch = {0};
    vm_choices(vm, (uint8_t *)a.data, a.len, &ch);
    vm_choices_fini(&ch);
  }
  buf_puts(&j, "\n  ]\n}\n");
  /* The schedule. */
  Buf sch;
  buf_init(&sch);
  buf_printf(&sch, "# pcheck schedule, version 1: the choices from the initial state, one a line\n");
  buf_printf(&sch, "# (m ID: run machine ID; d K: take option K of a data choice)\n");
  buf_printf(&sch, "test: %s\nsearch: %s\nseed: %llu\n# bug: %s: %s\n", test_name, search ? search : "",
             (unsigned long long)seed, vm_status_name(res->bugdesc.status), msg);
  if (res->cycle_start >= 0)
    buf_printf(&sch, "# the execution returns to the state after `cycle` choices, forever\ncycle: %lld\n",
               (long long)res->cycle_start);
  if (res->cycle_start >= 0 && res->cycle_unfair)
    buf_puts(&sch, "# found with --unfair: the cycle need not be fair\nunfair: 1\n");
  if (res->bugdesc.status == VM_BUG_HOT_TEMP)
    buf_printf(&sch, "# a spec hot for more steps than this is the bug\ntemperature: %lld\n",
               (long long)res->temperature);
  for (uint64_t i = 0; i < res->ntrace; i++)
    buf_printf(&sch, "%c %u\n", res->trace[i].kind == VC_MACHINE ? 'm' : 'd', res->trace[i].value);
  int rc = 0;
  struct { const char *fmt, *ext; Buf *body; } outs[] = {
    { "text", "txt", &log }, { "json", "json", &j }, { "schedule", "schedule", &sch },
    { "msc", "mmd", &dg.msc }, { "html", "html", &dg.html }, { "dot", "dot", &dg.dot },
  };
  for (size_t i = 0; i < sizeof outs / sizeof outs[0]; i++) {
    if (!has_format(formats, outs[i].fmt)) continue;
    Buf path;
    buf_init(&path);
    buf_printf(&path, "%s/%s.%s", dir, test_name, outs[i].ext);
    if (write_file(path.data, outs[i].body) != 0) {
      fprintf(stderr, "pcheck: error: cannot write '%s': %s\n", path.data, strerror(errno));
      rc = -1;
    } else if (!*main_path) {
      *main_path = xstrdup(path.data);
    }
    buf_fini(&path);
  }
  buf_fini(&sch);
  buf_fini(&dg.msc);
  buf_fini(&dg.dot);
  buf_fini(&dg.html);
  buf_fini(&log);
  buf_fini(&j);
  buf_fini(&a);
  buf_fini(&b);
  vm_free(vm);
  return rc;
}

static int read_schedule(const char *path, const char *text, size_t len, TraceInfo *out, Buf *err) {
  uint64_t cap = 0, line = 0;
  const char *p = text, *end = text + len;
  while (p < end) {
    const char *nl = memchr(p, '\n', (size_t)(end - p));
    const char *le = nl ? nl : end;
    line++;
    size_t n = (size_t)(le - p);
    char *l = xstrndup(p, n);
    if (n && l[n - 1] == '\r') l[--n] = 0;
    p = nl ? nl + 1 : end;
    if (!n || l[0] == '#') { free(l); continue; }
    if (strncmp(l, "test: ", 6) == 0) { free(out->test); out->test = xstrdup(l + 6); free(l); continue; }
    if (strncmp(l, "search: ", 8) == 0) { free(out->search); out->search = xstrdup(l + 8); free(l); continue; }
    if (strncmp(l, "seed: ", 6) == 0) { out->seed = strtoull(l + 6, NULL, 10); free(l); continue; }
    if (strncmp(l, "cycle: ", 7) == 0) { out->cycle_start = strtoll(l + 7, NULL, 10); free(l); continue; }
    if (strncmp(l, "unfair: ", 8) == 0) { out->unfair = atoi(l + 8) != 0; free(l); continue; }
    if (strncmp(l, "temperature: ", 13) == 0) { out->temperature = strtoll(l + 13, NULL, 10); free(l); continue; }
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
    out->choices[out->n].kind = kind == 'm' ? VC_MACHINE : VC_DATA;
    out->choices[out->n++].value = (uint32_t)v;
  }
  if (!out->test) { buf_printf(err, "%s: no 'test:' line", path); return -1; }
  return 0;
}

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
  if (!version || version->kind != JSON_NUMBER || version->num != 1) {
    buf_printf(err, "%s: trace version is not 1", path);
    goto out;
  }
  if (!test || test->kind != JSON_STRING || !choices || choices->kind != JSON_ARRAY) {
    buf_printf(err, "%s: a trace needs \"test\" and \"choices\"", path);
    goto out;
  }
  out->test = xstrdup(test->str);
  if (search && search->kind == JSON_STRING) out->search = xstrdup(search->str);
  if (seed && seed->kind == JSON_NUMBER) out->seed = (uint64_t)seed->num;
  const Json *cyc = json_get(j, "cycle_start");
  if (cyc && cyc->kind == JSON_NUMBER) out->cycle_start = (int64_t)cyc->num;
  const Json *unf = json_get(j, "unfair"), *temp = json_get(j, "temperature_threshold");
  if (unf && unf->kind == JSON_BOOL && unf->num != 0) out->unfair = 1;
  if (temp && temp->kind == JSON_NUMBER) out->temperature = (int64_t)temp->num;
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
    out->n++;
  }
  rc = 0;
out:
  json_free(j);
  return rc;
}

int trace_read(const char *path, TraceInfo *out, Buf *err) {
  memset(out, 0, sizeof *out);
  out->cycle_start = -1;
  size_t len;
  char *text = read_file(path, &len);
  if (!text) { buf_printf(err, "cannot read '%s': %s", path, strerror(errno)); return -1; }
  size_t i = 0;
  while (i < len && (text[i] == ' ' || text[i] == '\n' || text[i] == '\t' || text[i] == '\r')) i++;
  int rc = i < len && text[i] == '{' ? read_json(path, text, len, out, err) : read_schedule(path, text, len, out, err);
  free(text);
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

int trace_replay(const BcProgram *bc, const VmTest *test, const TraceChoice *choices, uint64_t n,
                 int64_t cycle_start, int unfair, int64_t temperature, Buf *log, VmBug *bug, uint64_t *bug_step,
                 Buf *err) {
  Buf at_cycle;              /* the State after cycle_start choices */
  buf_init(&at_cycle);
  uint64_t hot_all = ~0ull;  /* specs hot in every state of the cycle */
  LiveFair *fair = cycle_start >= 0 && !unfair ? live_fair_new() : NULL;   /* the cycle's steps */
  LiveTemp temp;             /* hot steps per spec, with a temperature threshold */
  live_temp_init(&temp, bc, test, temperature);
  int temp_hit = 0;
  Vm *vm = vm_new(bc, test);
  vm_set_log(vm, log);
  Buf a, b;
  buf_init(&a);
  buf_init(&b);
  VmChoices ch = {0};
  int rc = 0;
  memset(bug, 0, sizeof *bug);
  VmStatus st = vm_initial(vm, &a);
  uint64_t i = 0;
  if (st != VM_OK) { rc = 1; goto bugout; }
  for (; i < n; i++) {
    if (cycle_start >= 0 && i == (uint64_t)cycle_start) buf_append(&at_cycle, a.data, a.len);
    if (cycle_start >= 0 && i >= (uint64_t)cycle_start) hot_all &= vm_hot_specs(vm, (uint8_t *)a.data, a.len);
    st = vm_choices(vm, (uint8_t *)a.data, a.len, &ch);
    if (st != VM_OK) {
      if (st == VM_BAD_STATE) { buf_printf(err, "internal error at step %llu", (unsigned long long)i + 1); rc = -1; goto out; }
      rc = 1;
      goto bugout;
    }
    const TraceChoice *c = &choices[i];
    int ok = 0;
    if (ch.kind == VC_MACHINE && c->kind == VC_MACHINE)
      for (uint32_t k = 0; k < ch.n && !ok; k++) ok = ch.ids[k] == c->value;
    else if (ch.kind == VC_DATA && c->kind == VC_DATA)
      ok = c->value < ch.n;
    if (!ok) {
      buf_printf(err, "the trace diverges from the model at step %llu: it chooses %s %u, but ",
                 (unsigned long long)i + 1, c->kind == VC_MACHINE ? "machine" : "option", c->value);
      if (ch.kind == VC_NONE) buf_puts(err, "the execution has ended there");
      else if (ch.kind == VC_DATA) buf_printf(err, "the model makes a data choice with options 0 to %u", ch.n - 1);
      else {
        buf_puts(err, "the machines that can run are");
        for (uint32_t k = 0; k < ch.n; k++) buf_printf(err, "%s %u", k ? "," : "", ch.ids[k]);
      }
      rc = -1;
      goto out;
    }
    if (live_temp_before(&temp, vm, (uint8_t *)a.data, a.len)) { temp_hit = 1; rc = 1; goto bugout; }
    if (fair && i >= (uint64_t)cycle_start) live_fair_step(fair, vm, (uint8_t *)a.data, a.len, &ch, c->value);
    st = vm_step(vm, (uint8_t *)a.data, a.len, c->value, &b);
    if (st != VM_OK) {
      i++;
      rc = 1;
      goto bugout;
    }
    live_temp_after(&temp, vm);
    Buf t = a; a = b; b = t;
  }
  if (cycle_start >= 0) {
    /* A lasso: the end must be the state where the cycle began, with a
    ** spec hot all along. */
    hot_all &= vm_hot_specs(vm, (uint8_t *)a.data, a.len);
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
      live_cycle_message(&m, vm_spec_name(vm, (uint16_t)k), n - (uint64_t)cycle_start, unfair);
      bug->message = buf_take(&m);
      *bug_step = n;
      buf_printf(log, "<ErrorLog> liveness: the last %llu steps return to the state after step %lld: %s\n",
                 (unsigned long long)(n - (uint64_t)cycle_start), (long long)cycle_start, bug->message);
      rc = 1;
    } else {
      buf_printf(err, "the trace's last state is not the state after step %lld with a spec hot throughout: "
                 "it is not a liveness cycle of this model", (long long)cycle_start);
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
  goto out;
bugout:
  *bug = temp_hit ? temp.bug : *vm_bug(vm);
  bug->message = xstrdup(bug->message ? bug->message : "");
  if (temp_hit) buf_printf(log, "<ErrorLog> liveness: %s\n", bug->message);
  *bug_step = i;
  if (i < n && rc == 1) {
    /* The bug came before the trace's end: the rest no longer applies. */
    buf_printf(log, "<TestLog> the bug was reached at step %llu; the trace has %llu steps\n", (unsigned long long)i,
               (unsigned long long)n);
  }
out:
  live_fair_free(fair);
  live_temp_fini(&temp);
  buf_fini(&at_cycle);
  vm_choices_fini(&ch);
  buf_fini(&a);
  buf_fini(&b);
  vm_free(vm);
  return rc;
}

int trace_write_schedule(const char *test_name, const char *search, uint64_t seed, const SearchResult *res,
                         const char *dir, const char *what, char **path_out) {
  *path_out = NULL;
  if (mkdirs(dir) != 0) {
    fprintf(stderr, "pcheck: error: cannot create the output folder '%s': %s\n", dir, strerror(errno));
    return -1;
  }
  Buf sch, path;
  buf_init(&sch);
  buf_init(&path);
  buf_printf(&sch, "# pcheck schedule, version 1: the choices from the initial state, one a line\n");
  buf_printf(&sch, "# (m ID: run machine ID; d K: take option K of a data choice)\n");
  buf_printf(&sch, "test: %s\nsearch: %s\nseed: %llu\n# %s: %s\n", test_name, search ? search : "",
             (unsigned long long)seed, what, res->error ? res->error : "");
  for (uint64_t i = 0; i < res->ntrace; i++)
    buf_printf(&sch, "%c %u\n", res->trace[i].kind == VC_MACHINE ? 'm' : 'd', res->trace[i].value);
  buf_printf(&path, "%s/%s.%s.schedule", dir, test_name, what);
  int rc = write_file(path.data, &sch);
  if (rc != 0) fprintf(stderr, "pcheck: error: cannot write '%s': %s\n", path.data, strerror(errno));
  else *path_out = buf_take(&path);
  buf_fini(&path);
  buf_fini(&sch);
  return rc;
}
