/* step.c: the step function.  A step loads the State lazily (only the
** machines it touches are decoded: vm/state.c), runs one machine from its
** current point to the next scheduling point (or one data choice) with
** the instruction loop (vm/interp.c), and writes the successor State.
** Here: scheduling, dequeue with defer/ignore, receive, halt,
** enabledness, the API of vm/vm.h, and explorers' functions; names, logs
** and bugs are vm/text.c's, events' handlers and observers
** vm/interp.c's.  The top of the VM's layers (vm/interp.c).
** Semantics: P's, as doc/p-compatibility.md says ("Statements and their
** run-time meaning"). */
#include <config.h>
#include "vm/vm_impl.h"
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


/* Take entry i out of decoded m's inbox, keeping the order of the rest;
** the step's footprint records that the inbox shrank. */
static void inbox_remove(Vm *vm, WMachine *m, uint32_t i) {
  vm->foot.shrank = 1;
  memmove(&m->inbox[i], &m->inbox[i + 1], (m->h.ninbox - i - 1) * sizeof(InboxEntry));
  m->h.ninbox--;
}


/* ---------------------------------------------------------------------- */
/* Enabledness.                                                            */

/* Does receive table rv have a case for event ev? */
static int recv_takes(const BcRecv *rv, uint32_t ev) {
  for (uint16_t c = 0; c < rv->ncases; c++) if (rv->cases[c].event == ev) return 1;
  return 0;
}

/* Would a dequeue in machine m (decoded or not) find something to do? */
/* That is whether m is enabled: it is not halted, and it is stopped inside
** a handler, or has its start entry or a raised event pending, or is in a
** state with a null handler (outside a receive), or has an inbox event
** that it would take (in a receive: one a case matches, or halt; else any
** event its state does not defer: one it ignores counts, since the step
** drops it).  Reads the header fields and, for an undecoded record, the
** event ids straight from its bytes; decodes nothing. */
static int can_dequeue(Vm *vm, WMachine *m) {
  const MachHdr *h = vs_hdr(m);
  if (h->flags & MF_HALTED) return 0;
  if (h->flags & (MF_RUNNING | MF_START | MF_RAISED)) return 1;
  const BcState *st = &vm->p->machines[h->type].states[h->state];
  const BcRecv *rv = (h->flags & MF_RECEIVE) ? &vm->p->recvs[h->recv] : NULL;
  if (!rv && (st->handlers[vm->p->nevents].kind == BH_DO || st->handlers[vm->p->nevents].kind == BH_GOTO)) return 1;
  const uint8_t *p = m->decoded ? NULL : m->orig + m->body;   /* undecoded: read the events from the bytes */
  for (uint32_t i = 0; i < h->ninbox; i++) {
    uint32_t ev = p ? vs_next_event(&p) : m->inbox[i].event;
    if (rv) {
      if (ev == BC_HALT || recv_takes(rv, ev)) return 1;
    } else if (st->handlers[ev].kind != BH_DEFER) {
      return 1;
    }
  }
  return 0;
}

/* ---------------------------------------------------------------------- */
/* The API.                                                                */

/* The Vm copies the test's spec list and param values (their encodings
** too), so those arrays may be freed once it is made; the rest of the
** VmTest (bind, link, spec_from, cov, scenario_hit) and the program are
** borrowed and must outlive the Vm.  Never NULL: out of memory aborts. */
Vm *vm_new(const BcProgram *p, const VmTest *test) {
  Vm *vm = xcalloc(1, sizeof *vm);
  vm->p = p;
  vm->t = *test;
  vm->work_limit = test->max_step_instructions ? test->max_step_instructions : UINT64_MAX;
  if (test->cov) {
    vm->cov_hit = test->cov->hit;
    vm->cov_asserts = test->cov->asserts;
  }
  vm->specs_copy = xcalloc(test->nspecs ? test->nspecs : 1, sizeof(uint16_t));
  if (test->nspecs) memcpy(vm->specs_copy, test->specs, test->nspecs * sizeof(uint16_t));
  vm->t.specs = vm->specs_copy;
  vm->params_copy = xcalloc(p->nparams ? p->nparams : 1, sizeof(Value));
  /* Param values may point into the caller's memory: copy their encodings. */
  for (uint16_t i = 0; i < p->nparams; i++) {
    Value v = test->params ? test->params[i] : p->param_defaults[i];
    if (val_is_compound(&v)) {
      uint8_t *b = xmalloc(v.len);
      memcpy(b, v.u.p, v.len);
      v.u.p = b;
    }
    vm->params_copy[i] = v;
  }
  vm->t.params = vm->params_copy;
  vm->sp = xcalloc(test->nspecs ? test->nspecs : 1, sizeof(WMachine));
  valarena_init(&vm->va);
  vm->names.ctx = vm;
  vm->names.event_name = vm_event_name;
  vm_names_init(vm);
  return vm;
}

/* Frees the Vm and everything it owns (scratch, copies, the last bug);
** NULL is allowed.  The program and the borrowed parts of the VmTest stay
** the caller's. */
void vm_free(Vm *vm) {
  if (!vm) return;
  for (uint16_t i = 0; i < vm->p->nparams; i++)
    if (val_is_compound(&vm->params_copy[i])) free((void *)vm->params_copy[i].u.p);
  free(vm->params_copy);
  free(vm->specs_copy);
  free(vm->ms);
  free(vm->sp);
  free(vm->stack);
  free(vm->fr);
  free(vm->locals);
  free(vm->events);
  free(vm->touched);
  buf_fini(&vm->frames_buf);
  buf_fini(&vm->ex_buf);
  free(vm->bug.message);
  valarena_fini(&vm->va);
  free(vm);
}

void vm_set_log(Vm *vm, Buf *log) { vm->log = log; }

void vm_record_events(Vm *vm, int on) { vm->record = on; }

const VmEvent *vm_events(const Vm *vm, uint32_t *n) {
  *n = vm->nevents;
  return vm->events;
}

const VmBug *vm_bug(const Vm *vm) { return &vm->bug; }


/* Scratch reset at the start of every call that runs or loads: the arena
** (values and working records of the last call are gone), events, stacks. */
static void begin(Vm *vm) {
  valarena_reset(&vm->va);
  vm->nevents = 0;
  vm->nfr = vm->nstack = vm->nlocals = 0;
  vm->have_choice = 0;
  vm->halted_now = 0;
  vm->work = 0;
  vm->cooled = 0;
  vm->retemp = 0;
  vm->bug.status = VM_OK;
  vm->foot = (VmFootprint){ UINT32_MAX, UINT32_MAX, 0, 0, 0, 0, 0, 0, 0 };
}

/* The specs are created first, in the test's order, each entering its
** start state (logged and marked for coverage) and running its entry to
** completion (a spec has no scheduling points); a bug there is returned,
** with out left as it was.  Then the main machine is created with its start
** entry pending and a null payload, so the first step runs it.  Unpins
** the State vm_choices loaded.  The initial State is not held to
** VmTest.max_state_bytes. */
VmStatus vm_initial(Vm *vm, Buf *out) {
  begin(vm);
  vm->pinned = 0;
  memset(&vm->hdr, 0, sizeof vm->hdr);
  vm->nms = 0;
  vm->nspecs = vm->t.nspecs;
  for (uint16_t i = 0; i < vm->nspecs; i++) {
    uint32_t idx = i;
    vm_new_record(vm, vm->t.specs[i], 1, &idx);
  }
  for (uint16_t i = 0; i < vm->nspecs; i++) {
    WMachine *s = &vm->sp[i];
    const BcMachine *bm = &vm->p->machines[s->h.type];
    const BcState *st = &bm->states[s->h.state];
    logf_(vm, "<MonitorLog> %s enters %sstate '%s'.", bm->name, st->hot ? "hot " : "", st->name);
    vm_cov_mark_state(vm, s->h.type, s->h.state);
    if (st->entry >= 0) {
      vm_push_frame(vm, (uint32_t)st->entry, i, 1, UINT32_MAX, &(Value){0});
      if (vm_run(vm, 0) != R_DONE) return vm->bug.status ? vm->bug.status : VM_BUG_RUNTIME;
    }
  }
  uint32_t id;
  WMachine *m = vm_new_record(vm, vm->t.main, 0, &id);
  m->h.flags = MF_START;
  m->h.iface = vm->p->machines[vm->t.main].iface;
  m->pend_payload = val_null();
  logf_(vm, "<CreateLog> '%s' was created by the test harness.", vm_machine_text(vm, id));
  vm_note(vm, VE_CREATE, id, UINT32_MAX, 0, 0, 0, val_null());
  out->len = 0;
  vs_write(vm, out, 0);
  return VM_OK;
}

/* Append to out->ids the machines of the loaded State that can run. */
/* (out->ids grows by doubling; the caller frees it with vm_choices_fini.)
** Ids come out ascending, as VmChoices promises. */
static void add_enabled(Vm *vm, VmChoices *out) {
  for (uint32_t i = 0; i < vm->nms; i++) {
    if (!can_dequeue(vm, &vm->ms[i])) continue;
    if (out->n == out->cap) {
      out->cap = out->cap ? out->cap * 2 : 16;
      out->ids = xrealloc(out->ids, out->cap * sizeof(uint32_t));
    }
    out->ids[out->n++] = i;
  }
}

/* Quiescent with machines blocked in receive: the deadlock bug, naming
** every such machine, where it waits (its receive's first case) and for
** which events; placed at the first one's receive.  0 when none waits. */
static int deadlock(Vm *vm) {
  Buf b;
  buf_init(&b);
  BcSrc at = {0};
  uint32_t n = 0;
  for (uint32_t i = 0; i < vm->nms; i++) {
    const MachHdr *h = vs_hdr(&vm->ms[i]);
    if (!(h->flags & MF_RECEIVE)) continue;
    const BcRecv *r = &vm->p->recvs[h->recv];
    buf_printf(&b, "%s'%s' waits in receive", n ? "; " : "", vm_machine_text(vm, i));
    if (r->ncases && r->cases[0].src.line) {
      buf_printf(&b, " at %s:%u", vm->p->files[r->cases[0].src.file], r->cases[0].src.line);
      if (!n) at = r->cases[0].src;
    }
    for (uint16_t c = 0; c < r->ncases; c++)
      buf_printf(&b, "%s%s", c ? ", " : " for ", vm_event_name(vm, r->cases[c].event));
    n++;
  }
  if (n) vm_set_bug_src(vm, VM_BUG_DEADLOCK, at, "no machine can run, and %s", b.data);
  buf_fini(&b);
  return n != 0;
}

/* Loads s and keeps it loaded (pinned) for vm_step_expand.  A pending data
** choice is the only thing enabled: it is taken from the header without
** looking at any record.  Otherwise the enabled machines are found from
** their headers (and inbox event ids) alone.  When none is, the end is
** checked: a deadlock first, then the first hot spec (VM_BUG_HOT, with no
** place); a quiet end is VM_OK with out->kind VC_NONE. */
VmStatus vm_choices(Vm *vm, const uint8_t *s, size_t len, VmChoices *out) {
  begin(vm);
  out->n = 0;
  out->kind = VC_NONE;
  if (!vs_load(vm, s, len)) return VM_BAD_STATE;
  vm->pin_s = s;
  vm->pin_len = len;
  vm->pinned = 1;
  out->nmachines = vm->nms;
  out->fair = 0;
  if (vm->hdr.choice_kind) {
    out->kind = VC_DATA;
    out->n = vm->hdr.choice_n;
    out->machine = vm->hdr.choice_machine;
    out->fair = vm->hdr.choice_kind == 4;
    return VM_OK;
  }
  add_enabled(vm, out);
  if (out->n) { out->kind = VC_MACHINE; return VM_OK; }
  /* Quiescent: a machine blocked in receive is a deadlock; a hot spec is a
  ** liveness bug. */
  if (deadlock(vm)) return VM_BUG_DEADLOCK;
  for (uint16_t i = 0; i < vm->nspecs; i++) {
    const MachHdr *h = vs_hdr(&vm->sp[i]);
    const BcMachine *bm = &vm->p->machines[h->type];
    if (bm->states[h->state].hot) {
      vm_set_bug_at(vm, VM_BUG_HOT, NULL, "the system is quiescent and spec '%s' is in hot state '%s'",
                 bm->name, bm->states[h->state].name);
      return VM_BUG_HOT;
    }
  }
  return VM_OK;
}

/* As vm_choices without the pin and without the end's bugs: a pending
** choice does not hide the machines, and none enabled is plain VM_OK. */
VmStatus vm_enabled(Vm *vm, const uint8_t *s, size_t len, VmChoices *out) {
  begin(vm);
  vm->pinned = 0;
  out->n = 0;
  out->kind = VC_MACHINE;
  out->fair = 0;
  if (!vs_load(vm, s, len)) return VM_BAD_STATE;
  out->nmachines = vm->nms;
  out->machine = vm->hdr.choice_kind ? vm->hdr.choice_machine : 0;
  add_enabled(vm, out);
  return VM_OK;
}

/* Frees the id list and empties c, which may be filled again. */
void vm_choices_fini(VmChoices *c) {
  free(c->ids);
  c->ids = NULL;
  c->n = c->cap = 0;
}

/* Start whatever machine m does when scheduled and it is not resuming. */
/* For a decoded machine that is neither stopped inside a handler nor in a
** receive, in P's order: a pending start entry (the state is entered and
** its entry frame pushed with the creation payload), else a raised event
** (dispatched in the current state), else the first inbox event its state
** does not defer (ignored ones before it are dropped, VE_IGNORE), else
** the state's null handler.  With no event taken the step is marked
** sensitive to its inbox (VmFootprint.sensitive), even when nothing runs.
** Returns R_DONE, with a frame pushed or not, or R_BUG from dispatch. */
static int start_machine(Vm *vm, uint32_t id) {
  WMachine *m = &vm->ms[id];
  const BcMachine *bm = &vm->p->machines[m->h.type];
  if (m->h.flags & MF_START) {
    m->h.flags &= (uint16_t)~MF_START;
    const BcState *st = &bm->states[m->h.state];
    logf_(vm, "<StateLog> '%s' enters state '%s'.", vm_machine_text(vm, id), st->name);
    vm_note(vm, VE_STATE, id, 0, 0, m->h.state, 0, val_null());
    vm_cov_mark_state(vm, m->h.type, m->h.state);
    if (st->entry >= 0) vm_push_frame(vm, (uint32_t)st->entry, id, 0, UINT32_MAX, &m->pend_payload);
    m->pend_payload = val_null();
    return R_DONE;
  }
  if (m->h.flags & MF_RAISED) {
    m->h.flags &= (uint16_t)~MF_RAISED;
    return vm_dispatch(vm, id, 0, m->pend_event, m->pend_payload, 0, 1);
  }
  const BcState *st = &bm->states[m->h.state];
  for (uint32_t i = 0; i < m->h.ninbox;) {
    uint32_t ev = m->inbox[i].event;
    uint8_t kind = st->handlers[ev].kind;
    if (kind == BH_IGNORE) {
      vm_cov_mark_event(vm, m->h.type, VCOV_IGNORED, m->h.state, ev);
      vm_note(vm, VE_IGNORE, id, 0, ev, m->h.state, 0, val_null());
      inbox_remove(vm, m, i);
      continue;
    }
    if (kind == BH_DEFER) {
      vm_cov_mark_event(vm, m->h.type, VCOV_DEFERRED, m->h.state, ev);
      i++;
      continue;
    }
    Value payload = m->inbox[i].payload;
    inbox_remove(vm, m, i);
    logf_(vm, "<DequeueLog> '%s' dequeued event '%s' in state '%s'.", vm_machine_text(vm, id), vm_event_text(vm, ev, &payload),
          st->name);
    vm_note(vm, VE_DEQUEUE, id, 0, ev, m->h.state, 0, payload);
    return vm_dispatch(vm, id, 0, ev, payload, 0, 0);
  }
  /* No event taken: what the step does depends on the inbox's end. */
  vm->foot.sensitive = 1;
  uint8_t nk = st->handlers[vm->p->nevents].kind;
  if (nk == BH_DO || nk == BH_GOTO) {
    logf_(vm, "<DequeueLog> '%s' runs its null handler in state '%s'.", vm_machine_text(vm, id), st->name);
    return vm_dispatch(vm, id, 0, vm->p->nevents, val_null(), 0, 0);
  }
  return R_DONE;
}

/* Resume a machine blocked in receive: take the first matching event
** (halt always matches, as in P).  Its frames are restored, the event
** taken out of the inbox, its payload stored in the case's local (if the
** case names one), and the receiving frame's pc set to the case body; the
** caller then runs the frames.  Inbox order decides: the first entry that
** halt or a case matches wins, the ones before it stay.  R_DONE, or what
** dispatching the halt returns. */
static int resume_receive(Vm *vm, uint32_t id) {
  WMachine *m = &vm->ms[id];
  const BcRecv *rv = &vm->p->recvs[m->h.recv];
  m->h.flags &= (uint16_t)~MF_RECEIVE;
  vs_restore_frames(vm, m, id);
  Frame *f = &vm->fr[vm->nfr - 1];
  for (uint32_t i = 0; i < m->h.ninbox; i++) {
    if (m->inbox[i].event == BC_HALT && !recv_takes(rv, BC_HALT)) {
      /* P: halt always wakes a receive; the handler is abandoned and the
      ** halt handled in the current state (on halt, else exit and halt). */
      inbox_remove(vm, m, i);
      logf_(vm, "<ReceiveLog> '%s' received event 'halt' in state '%s'.", vm_machine_text(vm, id), vm_state_name(vm, m));
      vm_note(vm, VE_RECEIVE, id, 0, BC_HALT, m->h.state, 0, val_null());
      vm_cov_mark_event(vm, m->h.type, VCOV_RECEIVED, m->h.state, BC_HALT);
      Frame *b0 = &vm->fr[0];
      vm->nstack = b0->sbase;
      vm->nlocals = b0->lbase;
      vm->nfr = 0;
      return vm_dispatch(vm, id, 0, BC_HALT, val_null(), 0, 1);
    }
    for (uint16_t c = 0; c < rv->ncases; c++) {
      if (rv->cases[c].event != m->inbox[i].event) continue;
      Value payload = m->inbox[i].payload;
      uint32_t ev = m->inbox[i].event;
      inbox_remove(vm, m, i);
      logf_(vm, "<ReceiveLog> '%s' received event '%s' in state '%s'.", vm_machine_text(vm, id), vm_event_text(vm, ev, &payload),
            vm_state_name(vm, m));
      vm_note(vm, VE_RECEIVE, id, 0, ev, m->h.state, 0, payload);
      if (vm->cov_hit) {
        vm_cov_mark_event(vm, m->h.type, VCOV_RECEIVED, m->h.state, ev);
        vm_cov_mark(vm, vm->t.cov->recv_base[rv - vm->p->recvs] + c);
      }
      if (rv->cases[c].slot >= 0) vm->locals[f->lbase + (uint32_t)rv->cases[c].slot] = payload;
      f->pc = rv->cases[c].pc;
      return R_DONE;
    }
  }
  return R_DONE;   /* not enabled: the caller checked */
}

static VmStatus step_loaded(Vm *vm, size_t len, uint32_t choice, Buf *out);

/* Append the working State to out (vs_write, hint len), unless it is
** longer than VmTest.max_state_bytes: then out is as it was, and
** VM_LIMIT says so. */
static VmStatus write_state(Vm *vm, Buf *out, size_t len) {
  size_t at = out->len;
  vs_write(vm, out, len);
  if (!vm->t.max_state_bytes || out->len - at <= vm->t.max_state_bytes) return VM_OK;
  size_t n = out->len - at;
  out->len = at;
  vm_set_bug_at(vm, VM_LIMIT, NULL, "the State would grow to %zu bytes, past --max-state-bytes %llu", n,
                (unsigned long long)vm->t.max_state_bytes);
  return VM_LIMIT;
}

VmStatus vm_step(Vm *vm, const uint8_t *s, size_t len, uint32_t choice, Buf *out) {
  out->len = 0;
  return vm_step_append(vm, s, len, choice, out);
}

VmStatus vm_step_append(Vm *vm, const uint8_t *s, size_t len, uint32_t choice, Buf *out) {
  begin(vm);
  if (!vs_load(vm, s, len)) return VM_BAD_STATE;
  return step_loaded(vm, len, choice, out);
}

VmStatus vm_step_expand(Vm *vm, const uint8_t *s, size_t len, uint32_t choice, Buf *out) {
  if (!vm->pinned || s != vm->pin_s || len != vm->pin_len) return vm_step_append(vm, s, len, choice, out);
  begin(vm);
  vs_reload(vm);
  return step_loaded(vm, len, choice, out);
}

/* Step the loaded State (len bytes) by choice; append the successor to out. */
/* The one place a step happens, for all three entry points.  A pending
** choice resumes its machine at the CHOOSE with the option given; else the
** chosen machine (which must be enabled: VM_BAD_STATE if not) resumes
** inside its handler, takes an event in its receive, or starts what its
** state does next (start_machine).  After the run: a machine whose exit
** function for an unhandled halt returned is halted; the scenarios that
** cooled are marked covered (shared, atomic); a machine that suspended
** has its frames saved (MF_RUNNING, unless it waits in receive), any other
** loses them; the footprint is completed.  A bug returns its status with
** out as it was; otherwise the successor is appended (write_state). */
static VmStatus step_loaded(Vm *vm, size_t len, uint32_t choice, Buf *out) {
  uint32_t id;
  int r = R_DONE;
  if (vm->hdr.choice_kind) {
    if (choice >= vm->hdr.choice_n) return VM_BAD_STATE;
    id = vm->hdr.choice_machine;
    vm->foot.machine = id;
    WMachine *m = &vm->ms[id];
    vs_decode(vm, m);
    m->h.flags &= (uint16_t)~MF_RUNNING;
    vs_restore_frames(vm, m, id);
    vm->have_choice = 1;
    vm->choice_val = choice;
    vm->hdr.choice_kind = 0;
    vm->hdr.choice_n = vm->hdr.choice_machine = 0;
  } else {
    if (choice >= vm->nms || !can_dequeue(vm, &vm->ms[choice])) return VM_BAD_STATE;
    id = choice;
    vm->foot.machine = id;
    WMachine *m = &vm->ms[id];
    vs_decode(vm, m);
    if (m->h.flags & MF_RUNNING) {
      m->h.flags &= (uint16_t)~MF_RUNNING;
      vs_restore_frames(vm, m, id);
    } else if (m->h.flags & MF_RECEIVE) {
      r = resume_receive(vm, id);
    } else {
      r = start_machine(vm, id);
    }
  }
  if (r == R_DONE && vm->nfr) r = vm_run(vm, 0);
  if (r == R_BUG) return vm->bug.status;
  WMachine *m = &vm->ms[id];
  if (r == R_DONE && (m->h.flags & MF_HALTING) && !(m->h.flags & MF_HALTED)) vm_halt_machine(vm, m, id);
  /* A scenario that entered a cold state in this step is covered. */
  uint64_t hit = vm->cooled & vm->t.scenario_mask;
  if (hit && (__atomic_load_n(vm->t.scenario_hit, __ATOMIC_RELAXED) & hit) != hit)
    __atomic_fetch_or(vm->t.scenario_hit, hit, __ATOMIC_RELAXED);
  if (r == R_SUSPEND && !(m->h.flags & MF_HALTED)) {
    vs_save_frames(vm, m);
    if (!(m->h.flags & MF_RECEIVE)) m->h.flags |= MF_RUNNING;
  } else {
    m->h.nframes = 0;
    m->frames = NULL;
    m->frames_len = 0;
  }
  vm->foot.choice = vm->hdr.choice_kind != 0;
  vm->foot.cooled = vm->cooled;
  vm->foot.retemp = vm->retemp | vm->cooled;
  return write_state(vm, out, len);
}

/* The footprint is reset by every call that begins (vm_choices too), so
** read it right after the step. */
const VmFootprint *vm_footprint(const Vm *vm) { return &vm->foot; }

uint64_t vm_cooled_specs(const Vm *vm) { return vm->cooled; }

const char *vm_spec_name(const Vm *vm, uint16_t k) {
  return k < vm->t.nspecs ? vm->p->machines[vm->t.specs[k]].name : "?";
}

const char *vm_status_name(VmStatus s) {
  switch (s) {
  case VM_OK: return "ok";
  case VM_BUG_ASSERT: return "assertion failure";
  case VM_BUG_UNHANDLED: return "unhandled event";
  case VM_BUG_RUNTIME: return "runtime error";
  case VM_BUG_DEADLOCK: return "deadlock";
  case VM_BUG_HOT: return "liveness (hot spec at quiescence)";
  case VM_BUG_HOT_CYCLE: return "liveness (hot spec forever on a cycle)";
  case VM_BUG_HOT_TEMP: return "liveness (hot spec for N steps)";
  case VM_BUG_ENDLESS: return "endless step";
  case VM_BUG_INBOX: return "inbox overflow";
  case VM_BUG_MAX_STEPS: return "max steps reached";
  case VM_LIMIT: return "limit reached";
  case VM_BAD_STATE: return "malformed state";
  }
  return "?";
}

/* ---------------------------------------------------------------------- */
/* Explorers: functions run over an explorer's own state bytes.           */

/* Explorers are found by name among the program's machine types; the other
** functions here take the index this returns. */
int vm_explorer_find(const BcProgram *p, const char *name) {
  for (uint16_t i = 0; i < p->nmachines; i++)
    if (p->machines[i].is_explorer && strcmp(p->machines[i].name, name) == 0) return i;
  return -1;
}

/* The compiler names an explorer's functions "Type.fname" and gives them
** the explorer as owner; a linear search over the program's functions. */
int32_t vm_explorer_fun(const BcProgram *p, uint16_t type, const char *fname) {
  size_t nl = strlen(p->machines[type].name);
  for (uint32_t i = 0; i < p->nfuns; i++) {
    const BcFun *f = &p->funs[i];
    if (f->owner == type && strncmp(f->name, p->machines[type].name, nl) == 0 && f->name[nl] == '.' &&
        strcmp(f->name + nl + 1, fname) == 0)
      return (int32_t)i;
  }
  return -1;
}

/* An explorer has one state (0): its `on ev do` handlers take announced
** events; anything but a do handler counts as none. */
int32_t vm_explorer_handler(const BcProgram *p, uint16_t type, uint32_t ev) {
  const BcHandler *h = &p->machines[type].states[0].handlers[ev];
  return h->kind == BH_DO ? h->fun : -1;
}

/* out is replaced by the seed (8 bytes, host order) and each variable's
** default encoding: the format vm_explorer_call reads and writes. */
void vm_explorer_init(Vm *vm, uint16_t type, uint64_t seed, Buf *out) {
  const BcMachine *bm = &vm->p->machines[type];
  out->len = 0;
  buf_append(out, &seed, 8);
  for (uint16_t i = 0; i < bm->nvars; i++) vs_put_value(out, &bm->var_defaults[i]);
}

/* The explorer runs as a record of its own (Vm.ex, frames with spec 2),
** decoded from d with checks (d may come from a checkpoint); it cannot
** suspend (a `new`, send or receive is a runtime error there, a choice a
** random draw), so its function runs to its return.  A call
** that does not fit the program, or malformed bytes, is VM_BAD_STATE with
** d untouched; a bug in the function leaves d untouched too.  On VM_OK d
** holds the new state and the old buffer is kept as Vm.ex_buf. */
VmStatus vm_explorer_call(Vm *vm, uint16_t type, Buf *d, int32_t fun, const Value *args, uint32_t nargs, Value *ret) {
  begin(vm);
  const BcMachine *bm = &vm->p->machines[type];
  const BcFun *fn = &vm->p->funs[fun];
  if (!bm->is_explorer || fn->owner != type || fn->nparams != nargs || d->len < 8) {
    vm_set_bug_at(vm, VM_BAD_STATE, NULL, "explorer call does not fit the program");
    return VM_BAD_STATE;
  }
  WMachine *x = &vm->ex;
  memset(x, 0, sizeof *x);
  x->hdr_read = 1;
  x->decoded = 1;
  x->h.type = type;
  memcpy(&vm->ex_rng, d->data, 8);
  x->vars = valarena_alloc(&vm->va, (size_t)(bm->nvars ? bm->nvars : 1) * sizeof(Value));
  size_t at = 8;
  for (uint16_t i = 0; i < bm->nvars; i++) {
    size_t k = val_decode((const uint8_t *)d->data + at, d->len - at, &x->vars[i]);
    if (!k) {
      vm_set_bug_at(vm, VM_BAD_STATE, NULL, "malformed explorer state");
      return VM_BAD_STATE;
    }
    at += k;
  }
  for (uint32_t i = 0; i < nargs; i++) vm_push(vm, args[i]);
  vm_push_frame(vm, (uint32_t)fun, 0, 2, UINT32_MAX, NULL);
  int r = vm_run(vm, 0);
  if (r == R_SUSPEND) {
    vm_set_bug_at(vm, VM_BUG_RUNTIME, NULL, "explorer '%s' reached a scheduling point", bm->name);
    return VM_BUG_RUNTIME;
  }
  if (r != R_DONE) return vm->bug.status ? vm->bug.status : VM_BUG_RUNTIME;
  if (ret) *ret = fn->has_result && vm->nstack ? vm->stack[vm->nstack - 1] : val_null();
  /* Write the state into scratch (values may point into d), then swap: the
  ** old bytes stay valid in ex_buf until the next call, as *ret may need. */
  Buf *o = &vm->ex_buf;
  o->len = 0;
  buf_append(o, &vm->ex_rng, 8);
  for (uint16_t i = 0; i < bm->nvars; i++) vs_put_value(o, &x->vars[i]);
  Buf t = *d;
  *d = *o;
  *o = t;
  return VM_OK;
}


/* ---------------------------------------------------------------------- */
/* Describing a State for a reader (traces, the HTML report).              */

/* What a machine is doing besides waiting for an event, from its flags. */
static const char *view_status(Vm *vm, const WMachine *m) {
  uint16_t f = m->h.flags;
  if (f & MF_HALTED) return "halted";
  if (f & MF_START) return "creating";
  if (f & MF_RAISED) return arena_printf(vm->va.arena, "raised %s", vm_event_name(vm, m->pend_event));
  if (f & MF_RECEIVE) return "receiving";
  if (f & (MF_RUNNING | MF_HALTING)) return "running";
  return "";
}

/* Fill v from working record m (decoded here); strings in the arena. */
static void view_record(Vm *vm, WMachine *m, int spec, uint32_t index, VmView *v) {
  vs_decode(vm, m);
  const BcMachine *bm = &vm->p->machines[m->h.type];
  v->spec = spec;
  v->index = index;
  v->type = bm->name;
  v->name = spec ? bm->name : vm_machine_text(vm, index);
  v->state = m->h.state < bm->nstates ? bm->states[m->h.state].name : "?";
  v->status = view_status(vm, m);
  v->nvars = (m->h.flags & MF_HALTED) ? 0 : bm->nvars;
  v->var_names = (const char *const *)bm->var_names;
  v->var_values = arena_alloc(vm->va.arena, (size_t)(v->nvars ? v->nvars : 1) * sizeof(char *));
  for (uint16_t k = 0; k < v->nvars; k++) v->var_values[k] = vm_value_text(vm, &m->vars[k]);
  v->ninbox = m->h.ninbox;
  v->inbox = arena_alloc(vm->va.arena, (size_t)(v->ninbox ? v->ninbox : 1) * sizeof(char *));
  for (uint32_t k = 0; k < v->ninbox; k++) v->inbox[k] = vm_event_text(vm, m->inbox[k].event, &m->inbox[k].payload);
}

/* Decodes every record (views need the variables and inboxes), then puts
** the Vm back as the load left it (vs_reload); it unpins the State that
** vm_choices loaded. */
int vm_describe(Vm *vm, const uint8_t *s, size_t len, VmViewFn fn, void *ctx) {
  begin(vm);
  if (!vs_load(vm, s, len)) return -1;
  VmView v;
  for (uint16_t k = 0; k < vm->nspecs; k++) {
    view_record(vm, &vm->sp[k], 1, k, &v);
    fn(ctx, &v);
  }
  for (uint32_t id = 0; id < vm->nms; id++) {
    view_record(vm, &vm->ms[id], 0, id, &v);
    fn(ctx, &v);
  }
  vs_reload(vm);
  return 0;
}
