/* text.c: names, logs and bugs of the VM: the words a log line or a bug
** message uses for machines, events, states and values (as P's logs write
** them), and recording a bug with its place.  Above vm/state.c (names
** read the loaded State's headers), below the instruction loop. */
#include <config.h>
#include "vm/vm_impl.h"
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------------- */
/* Names, logs and bugs.                                                   */

/* The type name of machine id of the loaded State ("?" past its machines);
** reads only the record's header fields.  Borrowed from the program. */
static const char *machine_type_name(Vm *vm, uint32_t id) {
  if (id >= vm->nms) return "?";
  WMachine *m = &vm->ms[id];
  uint16_t type = vs_hdr(m)->type;
  return vm->p->machines[type].name;
}

/* ctx is the Vm (a ValNames callback); ids past null are "?".  Borrowed
** from the program, never NULL. */
const char *vm_event_name(const void *ctx, uint32_t id) {
  const Vm *vm = ctx;
  return id < vm->p->nevents ? vm->p->event_names[id] : id == vm->p->nevents ? "null" : "?";
}

/* A machine as P's logs name it: its type and its id counted from 1,
** "Client(2)" for id 1.  In the step's arena: valid until the next call
** that resets the Vm (begin). */
static const char *cb_machine(const void *ctx, uint32_t id) {
  Vm *vm = (Vm *)ctx;
  return arena_printf(vm->va.arena, "%s(%u)", machine_type_name(vm, id), id + 1);
}

/* The member of enum e with value v, or NULL (val_print then writes the
** raw number). */
static const char *cb_enum(const void *ctx, uint16_t e, int64_t v) {
  const Vm *vm = ctx;
  if (e >= vm->p->nenums) return NULL;
  const BcEnum *be = &vm->p->enums[e];
  for (uint32_t i = 0; i < be->n; i++) if (be->values[i] == v) return be->members[i];
  return NULL;
}

/* Field i of named-tuple shape, or NULL for an unnamed tuple or a shape
** or field the program does not have. */
static const char *cb_field(const void *ctx, uint16_t shape, int i) {
  const Vm *vm = ctx;
  if (shape == 0 || shape >= vm->p->nshapes || i >= vm->p->shapes[shape].n) return NULL;
  return vm->p->shapes[shape].fields[i];
}

/* Nothing unless events are recorded (vm_record_events); the list grows
** by doubling and lives until vm_free, reset by each call (begin).  The
** payload is kept as it is: compound payloads point into the State or the
** step's arena, so an event is valid only until the next call.  The type
** is looked up here, the place is the instruction the innermost frame ran
** last (none when no frame runs, as at the harness's creation or at a
** dequeue). */
void vm_note(Vm *vm, VmEventKind k, uint32_t machine, uint32_t other, uint32_t ev, uint32_t state, int spec,
                 Value payload) {
  if (!vm->record) return;
  if (vm->nevents == vm->events_cap) {
    vm->events_cap = vm->events_cap ? vm->events_cap * 2 : 32;
    vm->events = xrealloc(vm->events, vm->events_cap * sizeof(VmEvent));
  }
  VmEvent *e = &vm->events[vm->nevents++];
  e->kind = k;
  e->machine = machine;
  e->other = other;
  e->event = ev;
  e->state = (uint16_t)state;
  e->spec = (uint16_t)spec;
  e->type = spec ? vm->t.specs[machine] : machine < vm->nms ? vs_hdr(&vm->ms[machine])->type : 0;
  e->payload = payload;
  e->file = NULL;
  e->line = e->col = 0;
  if (vm->nfr) {   /* where: the instruction the innermost frame just ran */
    const Frame *f = &vm->fr[vm->nfr - 1];
    const BcLoc *l = bc_loc(&vm->p->funs[f->fun], f->pc ? f->pc - 1 : 0);
    if (l) { e->file = vm->p->files[l->file]; e->line = l->line; e->col = l->col; }
  }
}


/* m's header fields must have been read (vs_hdr); borrowed from the
** program. */
const char *vm_state_name(Vm *vm, WMachine *m) { return vm->p->machines[m->h.type].states[m->h.state].name; }

/* One line appended to the log the caller set (vm_set_log), newline
** added; call it through logf_, which skips the formatting without one. */
void vm_log_line(Vm *vm, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  buf_vprintf(vm->log, fmt, ap);
  va_end(ap);
  buf_putc(vm->log, '\n');
}

/* An event with its payload, as P logs it: "eReq with payload (1, 2)". */
const char *vm_event_text(Vm *vm, uint32_t ev, const Value *payload) {
  Buf b;
  buf_init(&b);
  buf_puts(&b, vm_event_name(vm, ev));
  if (payload && payload->tag != VT_NULL) {
    buf_puts(&b, " with payload ");
    val_print(&b, payload, &vm->names);
  }
  char *s = arena_strdup(vm->va.arena, b.data);
  buf_fini(&b);
  return s;
}

/* The bug of this step: its kind, message and place (file NULL: none). */
static void set_bug_v(Vm *vm, VmStatus st, const char *file, uint32_t line, uint32_t col, const char *fmt, va_list ap) {
  free(vm->bug.message);
  Buf b;
  buf_init(&b);
  buf_vprintf(&b, fmt, ap);
  vm->bug.status = st;
  vm->bug.message = buf_take(&b);
  vm->bug.file = file;
  vm->bug.line = file ? line : 0;
  vm->bug.col = file ? col : 0;
  if (vm->bug.file)
    logf_(vm, "<ErrorLog> %s:%u:%u: %s", vm->bug.file, vm->bug.line, vm->bug.col, vm->bug.message);
  else
    logf_(vm, "<ErrorLog> %s", vm->bug.message);
}

/* f->pc is already past the failing instruction (its opcode at least), so
** the location is that of the byte before it; with f NULL, or a function
** without locations, the bug has no place.  The message replaces the last
** bug's (freed) and is logged as an <ErrorLog> line. */
void vm_set_bug_at(Vm *vm, VmStatus st, const Frame *f, const char *fmt, ...) {
  const BcLoc *l = NULL;
  /* pc has moved past the instruction; look up the one that failed. */
  if (f) l = bc_loc(&vm->p->funs[f->fun], f->pc ? f->pc - 1 : 0);
  va_list ap;
  va_start(ap, fmt);
  set_bug_v(vm, st, l ? vm->p->files[l->file] : NULL, l ? l->line : 0, l ? l->col : 0, fmt, ap);
  va_end(ap);
}

/* For bugs that belong to a declaration rather than an instruction: an
** unhandled event at its state, a deadlock at its receive. */
void vm_set_bug_src(Vm *vm, VmStatus st, BcSrc src, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  set_bug_v(vm, st, src.line ? vm->p->files[src.file] : NULL, src.line, src.col, fmt, ap);
  va_end(ap);
}

/* ---------------------------------------------------------------------- */
/* Machines: creation, inboxes, dispatch.                                  */


/* The text is copied into the step's arena (valid until the next call
** that resets the Vm); machine names use the loaded State's records. */
const char *vm_value_text(Vm *vm, const Value *v) {
  Buf b;
  buf_init(&b);
  val_print(&b, v, &vm->names);
  char *s = arena_strdup(vm->va.arena, b.data ? b.data : "");
  buf_fini(&b);
  return s;
}

const char *vm_machine_text(Vm *vm, uint32_t id) { return cb_machine(vm, id); }

/* The Vm's ValNames: machine, enum member and field names from the
** program and the loaded State. */
void vm_names_init(Vm *vm) {
  vm->names.machine_name = cb_machine;
  vm->names.enum_member = cb_enum;
  vm->names.field_name = cb_field;
}
