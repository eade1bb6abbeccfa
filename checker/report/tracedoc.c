/* tracedoc.c: building a TraceDoc by replaying a trace's choices once
** with the VM's log, its step events and, after every step, a description
** of every machine (vm_describe), of which only the changes are kept.
** Rendering is left to the formats' writers (trace.c, report_html.c). */
#include <config.h>
#include "checker/report/tracedoc.h"
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Indexed by VmEventKind; the JSON trace and the HTML report use these
** names, so they are part of doc/trace-format.md's contract. */
const char *tracedoc_kind_name(VmEventKind k) {
  static const char *const names[] = { "create", "send", "drop", "dequeue", "raise", "state", "halt", "block",
                                       "receive", "monitor", "announce", "choice", "print" };
  return (unsigned)k < sizeof names / sizeof names[0] ? names[k] : "?";
}

/* Only an assertion's message loses its prefix, and only when something
** follows it (a bare "assertion failed" stays whole).  The result points
** into b->message (or is ""). */
const char *tracedoc_bug_message(const VmBug *b) {
  const char *m = b->message ? b->message : "";
  static const char *const echoes[] = { "assertion failed: ", "Assertion failed: ", NULL };
  for (int i = 0; echoes[i]; i++) {
    size_t n = strlen(echoes[i]);
    if (b->status == VM_BUG_ASSERT && strncmp(m, echoes[i], n) == 0 && m[n]) return m + n;
  }
  return m;
}

/* A source path as the reader knows it: relative to the current folder
** when it lies below it.  Heap. */
static char *relative_path(const char *file, const char *cwd) {
  size_t n = cwd ? strlen(cwd) : 0;
  if (n && file[0] == '/' && strncmp(file, cwd, n) == 0 && file[n] == '/') return xstrdup(file + n + 1);
  return xstrdup(file);
}

/* Machine `index` of the document (specs first, then ids), created with
** name and type when it is new; the table grows to hold it. */
static TdMachine *machine_at(TraceDoc *d, uint32_t index, const char *name, const char *type, uint64_t step) {
  while (d->nmachines <= index) {
    if (d->nmachines == d->machines_cap) {
      d->machines_cap = d->machines_cap ? d->machines_cap * 2 : 16;
      d->machines = xrealloc(d->machines, d->machines_cap * sizeof(TdMachine));
    }
    TdMachine *m = &d->machines[d->nmachines++];
    memset(m, 0, sizeof *m);
    m->created = step;
  }
  TdMachine *m = &d->machines[index];
  if (!m->name && name) m->name = xstrdup(name);
  if (!m->type && type) m->type = xstrdup(type);
  return m;
}

/* The document index of a VM machine id, naming it as the VM does. */
/* The name is the Vm's text of the id, which must be read before the next
** call on the Vm resets its scratch. */
static uint32_t machine_index(TraceDoc *d, Vm *vm, uint32_t id, const char *type, uint64_t step) {
  uint32_t index = d->nspecs + id;
  machine_at(d, index, vm_machine_text(vm, id), type, step);
  return index;
}

/* Keep the events of the step just run (before vm_describe resets them). */
/* Each VmEvent becomes a TdEvent with its own copies of the strings a
** format shows: the state and event names for the kinds that have them,
** the other machine (VE_SEND, VE_DROP, VE_CREATE; not the harness), a
** payload's text (a choice's even when it is null), and the place made
** relative to cwd.  Machines are added to the document as they appear. */
static void take_events(TraceDoc *d, Vm *vm, const BcProgram *bc, uint64_t step, const char *cwd) {
  uint32_t n;
  const VmEvent *ev = vm_events(vm, &n);
  for (uint32_t i = 0; i < n; i++) {
    const VmEvent *e = &ev[i];
    if (e->kind == VE_IGNORE) continue;   /* P's logs do not show it; traces neither */
    if (d->nevents == d->events_cap) {
      d->events_cap = d->events_cap ? d->events_cap * 2 : 256;
      d->events = xrealloc(d->events, d->events_cap * sizeof(TdEvent));
    }
    TdEvent *t = &d->events[d->nevents++];
    memset(t, 0, sizeof *t);
    t->step = step;
    t->kind = e->kind;
    t->spec = e->spec != 0;
    const BcMachine *bm = &bc->machines[e->type];
    t->actor = e->spec ? e->machine : machine_index(d, vm, e->machine, bm->name, step);
    if (e->kind == VE_STATE || e->kind == VE_DEQUEUE || e->kind == VE_RECEIVE || e->kind == VE_RAISE ||
        e->kind == VE_SEND || e->kind == VE_BLOCK || e->kind == VE_HALT || e->kind == VE_MONITOR)
      t->state = xstrdup(e->state < bm->nstates ? bm->states[e->state].name : "?");
    if (e->kind == VE_SEND || e->kind == VE_DEQUEUE || e->kind == VE_RECEIVE || e->kind == VE_RAISE ||
        e->kind == VE_ANNOUNCE || e->kind == VE_MONITOR || e->kind == VE_DROP)
      t->event = xstrdup(e->event < bc->nevents ? bc->event_names[e->event] : "null");
    t->other = -1;
    if ((e->kind == VE_SEND || e->kind == VE_DROP || e->kind == VE_CREATE) && e->other != UINT32_MAX)
      t->other = (int32_t)machine_index(d, vm, e->other, NULL, step);
    if (e->payload.tag != VT_NULL || e->kind == VE_CHOICE) t->payload = xstrdup(vm_value_text(vm, &e->payload));
    if (e->file) {
      t->file = relative_path(e->file, cwd);
      t->line = e->line;
      t->col = e->col;
    }
  }
}

/* Does the machine look the same as in its last TdSnap?  Then no new one
** is kept: a machine that did not act costs nothing per step.  Variable
** names never change for a machine, so only values are compared. */
static int same_view(const TdSnap *s, const VmView *v) {
  if (strcmp(s->state, v->state) || strcmp(s->status, v->status) || s->nvars != v->nvars || s->ninbox != v->ninbox)
    return 0;
  for (uint16_t k = 0; k < v->nvars; k++) if (strcmp(s->var_values[k], v->var_values[k])) return 0;
  for (uint32_t k = 0; k < v->ninbox; k++) if (strcmp(s->inbox[k], v->inbox[k])) return 0;
  return 1;
}

typedef struct ViewCtx {
  TraceDoc *d;               /* the document being built */
  uint64_t step;             /* the step whose successor State is described */
} ViewCtx;

/* vm_describe's callback: a new TdSnap where the view changed. */
/* Every string is copied: the view's texts live in the Vm's scratch. */
static void on_view(void *ctx, const VmView *v) {
  ViewCtx *c = ctx;
  uint32_t index = v->spec ? v->index : c->d->nspecs + v->index;
  TdMachine *m = machine_at(c->d, index, v->name, v->type, c->step);
  if (m->nsnaps && same_view(&m->snaps[m->nsnaps - 1], v)) return;
  if (m->nsnaps == m->snaps_cap) {
    m->snaps_cap = m->snaps_cap ? m->snaps_cap * 2 : 4;
    m->snaps = xrealloc(m->snaps, m->snaps_cap * sizeof(TdSnap));
  }
  TdSnap *s = &m->snaps[m->nsnaps++];
  s->step = c->step;
  s->state = xstrdup(v->state);
  s->status = xstrdup(v->status);
  s->nvars = v->nvars;
  s->var_names = xcalloc(v->nvars ? v->nvars : 1, sizeof(char *));
  s->var_values = xcalloc(v->nvars ? v->nvars : 1, sizeof(char *));
  for (uint16_t k = 0; k < v->nvars; k++) {
    s->var_names[k] = xstrdup(v->var_names[k] ? v->var_names[k] : "?");
    s->var_values[k] = xstrdup(v->var_values[k]);
  }
  s->ninbox = v->ninbox;
  s->inbox = xcalloc(v->ninbox ? v->ninbox : 1, sizeof(char *));
  for (uint32_t k = 0; k < v->ninbox; k++) s->inbox[k] = xstrdup(v->inbox[k]);
}

/* Close step `step`: its events and log lines, then the machines' views. */
/* The events go first: vm_describe resets the Vm's event list.  Views
** are taken only when ok (there is a successor State) and views are
** wanted. */
static void end_step(TraceDoc *d, Vm *vm, const BcProgram *bc, uint64_t step, size_t log_at, const Buf *state,
                     int ok, const char *cwd) {
  TdStep *s = &d->steps[step];
  s->first_event = d->nevents;
  take_events(d, vm, bc, step, cwd);
  s->nevents = d->nevents - s->first_event;
  s->log_at = log_at;
  s->log_len = d->log.len - log_at;
  ViewCtx c = { d, step };
  if (ok && d->views) vm_describe(vm, (const uint8_t *)state->data, state->len, on_view, &c);
}

/* A data choice fits when its option is below the number offered; a
** machine choice when the id is one of the enabled ones. */
int tracedoc_fits(const VmChoices *ch, const TraceChoice *c) {
  if (ch->kind != c->kind) return 0;
  if (c->kind == VC_DATA) return c->value < ch->n;
  for (uint32_t k = 0; k < ch->n; k++)
    if (ch->ids[k] == c->value) return 1;
  return 0;
}

/* The replay checks every choice against what the State offers (as
** trace_replay does) so that a document is never built from choices that
** do not fit; a step that fails ends the document there, its events and
** log lines kept, its successor (there is none) not described.  Where the
** caller knows the bug (the search's or trace_replay's verdict, which
** also covers lassos and temperature bugs) it is taken as given; else the
** bug is what the replay itself reaches: a failing step, or a deadlock or
** hot spec at the end. */
int tracedoc_build(TraceDoc *d, const BcProgram *bc, const VmTest *test, const TdMeta *meta,
                   const TraceChoice *choices, uint64_t n, Buf *err) {
  memset(d, 0, sizeof *d);
  buf_init(&d->log);
  d->test = xstrdup(meta->test ? meta->test : "");
  d->search = xstrdup(meta->search ? meta->search : "");
  d->seed = meta->seed;
  d->cycle_start = meta->cycle_start;
  d->unfair = meta->unfair;
  d->temperature = meta->temperature;
  d->nspecs = test->nspecs;
  d->views = meta->views;
  d->coverage = meta->coverage;
  for (uint16_t k = 0; k < test->nspecs; k++) {
    const char *name = bc->machines[test->specs[k]].name;
    machine_at(d, k, name, name, 0)->spec = 1;
  }
  d->steps = xcalloc(n + 1, sizeof(TdStep));
  char *cwd = getcwd(NULL, 0);
  Vm *vm = vm_new(bc, test);
  vm_set_log(vm, &d->log);
  vm_record_events(vm, 1);
  Buf a, b;
  buf_init(&a);
  buf_init(&b);
  VmChoices ch = {0};
  int rc = 0;
  d->steps[0].actor = -1;
  VmStatus st = vm_initial(vm, &a);
  end_step(d, vm, bc, 0, 0, &a, st == VM_OK, cwd);
  uint64_t i = 0;
  for (; i < n && st == VM_OK; i++) {
    const TraceChoice *c = &choices[i];
    VmStatus cs = vm_choices(vm, (uint8_t *)a.data, a.len, &ch);
    if (cs != VM_OK || !tracedoc_fits(&ch, c)) {
      buf_printf(err, "the trace does not fit the model at step %llu", (unsigned long long)i + 1);
      rc = -1;
      break;
    }
    /* The actor: the machine chosen, or for a data choice the machine that
    ** was suspended at it (the footprint's, or the first event's). */
    TdStep *s = &d->steps[i + 1];
    s->choice = *c;
    size_t log_at = d->log.len;
    st = vm_step(vm, (uint8_t *)a.data, a.len, c->value, &b);
    if (c->kind == VC_MACHINE) s->actor = (int32_t)(d->nspecs + c->value);
    else s->actor = st == VM_OK ? (int32_t)(d->nspecs + vm_footprint(vm)->machine) : -1;
    if (st == VM_OK) { Buf t = a; a = b; b = t; }
    else if (!meta->bug) {
      d->bug = *vm_bug(vm);
      d->bug.message = xstrdup(d->bug.message ? d->bug.message : "");
    }
    end_step(d, vm, bc, i + 1, log_at, &a, st == VM_OK, cwd);
    if (c->kind == VC_DATA && s->actor < 0 && s->nevents) s->actor = (int32_t)d->events[s->first_event].actor;
  }
  d->nsteps = i;
  d->bug_step = i;
  if (meta->bug) {
    d->bug = *meta->bug;
    d->bug.message = xstrdup(meta->bug->message ? meta->bug->message : "");
  } else if (rc == 0 && st == VM_OK) {
    /* A deadlock or a hot spec at the end shows when asking what is enabled. */
    VmStatus es = vm_choices(vm, (uint8_t *)a.data, a.len, &ch);
    if (es == VM_BUG_DEADLOCK || es == VM_BUG_HOT) {
      d->bug = *vm_bug(vm);
      d->bug.message = xstrdup(d->bug.message ? d->bug.message : "");
    }
  }
  if (d->bug.file) d->bug_file = relative_path(d->bug.file, cwd);
  vm_choices_fini(&ch);
  buf_fini(&a);
  buf_fini(&b);
  vm_free(vm);
  free(cwd);
  return rc;
}

/* Every string of the document is its own heap copy (none points into
** the Vm, which is gone once tracedoc_build returns). */
void tracedoc_fini(TraceDoc *d) {
  free(d->test);
  free(d->search);
  free(d->bug.message);
  free(d->bug_file);
  for (uint32_t i = 0; i < d->nevents; i++) {
    TdEvent *e = &d->events[i];
    free(e->state);
    free(e->event);
    free(e->payload);
    free(e->file);
  }
  free(d->events);
  for (uint32_t i = 0; i < d->nmachines; i++) {
    TdMachine *m = &d->machines[i];
    for (uint32_t k = 0; k < m->nsnaps; k++) {
      TdSnap *s = &m->snaps[k];
      for (uint16_t v = 0; v < s->nvars; v++) { free(s->var_names[v]); free(s->var_values[v]); }
      for (uint32_t v = 0; v < s->ninbox; v++) free(s->inbox[v]);
      free(s->var_names);
      free(s->var_values);
      free(s->inbox);
      free(s->state);
      free(s->status);
    }
    free(m->snaps);
    free(m->name);
    free(m->type);
  }
  free(d->machines);
  free(d->steps);
  buf_fini(&d->log);
  memset(d, 0, sizeof *d);
}

/* Borrowed from d; NULL too for an index past the document's machines. */
const TdSnap *tracedoc_view(const TraceDoc *d, uint32_t m, uint64_t step) {
  if (m >= d->nmachines) return NULL;
  const TdMachine *t = &d->machines[m];
  /* The last snap at or before step: binary search over ascending steps. */
  uint32_t lo = 0, hi = t->nsnaps;
  while (lo < hi) {
    uint32_t mid = lo + (hi - lo) / 2;
    if (t->snaps[mid].step <= step) lo = mid + 1;
    else hi = mid;
  }
  return lo ? &t->snaps[lo - 1] : NULL;
}
