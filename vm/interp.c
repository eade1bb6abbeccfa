/* interp.c: the step function.  A step loads the State lazily (only the
** machines it touches are decoded), runs one machine from its current
** point to the next scheduling point (or one data choice), and writes the
** successor State: untouched records are copied as bytes, touched ones are
** re-encoded canonically.  Specs run synchronously inside the step that
** sends or announces an event they observe.
** Semantics: LANGUAGE.md, "Semantics the checker must reproduce". */
#include <config.h>
#include "vm/vm.h"
#include "vm/state.h"
#include <math.h>
#include <stddef.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct InboxEntry {
  uint32_t event;
  Value payload;
} InboxEntry;

/* A machine or spec during a step. */
typedef struct WMachine {
  const uint8_t *orig;   /* its record in the input State, or NULL if new */
  uint32_t orig_len;
  int decoded;           /* fields below are authoritative */
  MachHdr h;
  Value *vars;           /* h.type's nvars values (scratch) */
  uint32_t vars_end;     /* decoded: where the variables end in orig */
  int vars_dirty;        /* a variable was assigned (else orig's bytes are reused) */
  uint32_t pend_event;   /* MF_START / MF_RAISED */
  Value pend_payload;
  const uint8_t *frames; /* saved frames, encoded (input State or scratch) */
  uint32_t frames_len;
  InboxEntry *inbox;     /* scratch; h.ninbox entries */
  uint32_t inbox_cap;
  /* A machine that is only sent to in a step is not decoded: the events go
  ** here and are appended to a copy of its record when the State is written. */
  InboxEntry *appended;  /* scratch; nappended entries */
  uint32_t nappended, appended_cap;
  uint32_t rec;          /* record index in the State (specs first) */
} WMachine;

/* An activation record.  Machines' frames start at index 0; a spec's
** handler runs in frames stacked above the machine that triggered it. */
typedef struct Frame {
  uint32_t fun;          /* BcProgram.funs index */
  uint32_t pc;           /* next instruction */
  uint32_t lbase;        /* first local in Vm.locals */
  uint32_t sbase;        /* first operand in Vm.stack */
  uint32_t base;         /* first frame of this activation (raise/goto unwind to it) */
  uint32_t who;          /* machine id, or spec index */
  uint8_t spec;          /* who is a spec */
} Frame;

struct Vm {
  const BcProgram *p;
  VmTest t;              /* specs and params point into Vm-owned copies */
  uint16_t *specs_copy;
  Value *params_copy;
  ValArena va;           /* scratch of one step */
  WMachine *ms;          /* machines by id */
  uint32_t nms, ms_cap;
  WMachine *sp;          /* specs by index */
  uint16_t nspecs;
  StateHdr hdr;          /* working header */
  Value *stack;
  uint32_t nstack, stack_cap;
  Frame *fr;
  uint32_t nfr, fr_cap;
  Value *locals;
  uint32_t nlocals, locals_cap;
  int have_choice;       /* resuming a CHOOSE with choice_val */
  uint32_t choice_val;
  int halted_now;        /* the running machine halted in this step */
  uint64_t cooled;       /* bit k: spec k entered a cold state in this call (vm_cooled_specs) */
  Buf *log;
  int record;            /* collect VmEvents */
  VmEvent *events;       /* this step's events */
  uint32_t nevents, events_cap;
  VmBug bug;
  ValNames names;
  WMachine ex;           /* an explorer running on this Vm (frames with spec == 2) */
  uint64_t ex_rng;       /* its random state (choose and $ in explorers) */
  Buf ex_buf;            /* scratch for its state bytes */
  /* The State last given to vm_choices stays loaded: vm_step_expand on it
  ** only resets the records the previous step touched. */
  const uint8_t *pin_s;
  size_t pin_len;
  int pinned;
  uint32_t *touched;     /* record indexes decoded or sent to since the load */
  uint32_t ntouched, touched_cap;
  uint32_t *offtab;      /* write_state: record offsets */
  uint32_t offtab_cap;
  Buf frames_buf;        /* save_frames: scratch */
};

enum { R_DONE, R_SUSPEND, R_BUG };

/* ---------------------------------------------------------------------- */
/* Little helpers.                                                         */

static uint32_t rd32(const uint8_t *p) { uint32_t x; memcpy(&x, p, 4); return x; }
static uint16_t rd16(const uint8_t *p) { uint16_t x; memcpy(&x, p, 2); return x; }

static WMachine *who(Vm *vm, const Frame *f) {
  return f->spec == 2 ? &vm->ex : f->spec ? &vm->sp[f->who] : &vm->ms[f->who];
}

static const char *machine_type_name(Vm *vm, uint32_t id) {
  if (id >= vm->nms) return "?";
  WMachine *m = &vm->ms[id];
  uint16_t type = m->decoded ? m->h.type : rd16(m->orig + 4);
  return vm->p->machines[type].name;
}

static const char *cb_event(const void *ctx, uint32_t id) {
  const Vm *vm = ctx;
  return id < vm->p->nevents ? vm->p->event_names[id] : id == vm->p->nevents ? "null" : "?";
}

static const char *cb_machine(const void *ctx, uint32_t id) {
  Vm *vm = (Vm *)ctx;
  return arena_printf(vm->va.arena, "%s(%u)", machine_type_name(vm, id), id + 1);
}

static const char *cb_enum(const void *ctx, uint16_t e, int64_t v) {
  const Vm *vm = ctx;
  if (e >= vm->p->nenums) return NULL;
  const BcEnum *be = &vm->p->enums[e];
  for (uint32_t i = 0; i < be->n; i++) if (be->values[i] == v) return be->members[i];
  return NULL;
}

static const char *cb_field(const void *ctx, uint16_t shape, int i) {
  const Vm *vm = ctx;
  if (shape == 0 || shape >= vm->p->nshapes || i >= vm->p->shapes[shape].n) return NULL;
  return vm->p->shapes[shape].fields[i];
}

static void note(Vm *vm, VmEventKind k, uint32_t machine, uint32_t other, uint32_t ev, uint32_t state, int spec,
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
  e->type = spec ? vm->t.specs[machine] : machine < vm->nms ? (vm->ms[machine].decoded ? vm->ms[machine].h.type
                                                                : rd16(vm->ms[machine].orig + 4)) : 0;
  e->payload = payload;
  e->file = NULL;
  e->line = e->col = 0;
  if (vm->nfr) {   /* where: the instruction the innermost frame just ran */
    const Frame *f = &vm->fr[vm->nfr - 1];
    const BcLoc *l = bc_loc(&vm->p->funs[f->fun], f->pc ? f->pc - 1 : 0);
    if (l) { e->file = vm->p->files[l->file]; e->line = l->line; e->col = l->col; }
  }
}

static const char *mname(Vm *vm, uint32_t id) { return cb_machine(vm, id); }

static const char *state_name(Vm *vm, WMachine *m) { return vm->p->machines[m->h.type].states[m->h.state].name; }

static void log_line(Vm *vm, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Arguments of a log line are only evaluated when a log is wanted. */
#define logf_(vm, ...) do { if ((vm)->log) log_line((vm), __VA_ARGS__); } while (0)
static void log_line(Vm *vm, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  buf_vprintf(vm->log, fmt, ap);
  va_end(ap);
  buf_putc(vm->log, '\n');
}

/* An event with its payload, as P logs it: "eReq with payload (1, 2)". */
static const char *event_text(Vm *vm, uint32_t ev, const Value *payload) {
  Buf b;
  buf_init(&b);
  buf_puts(&b, cb_event(vm, ev));
  if (payload && payload->tag != VT_NULL) {
    buf_puts(&b, " with payload ");
    val_print(&b, payload, &vm->names);
  }
  char *s = arena_strdup(vm->va.arena, b.data);
  buf_fini(&b);
  return s;
}

static void set_bug_at(Vm *vm, VmStatus st, const Frame *f, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static void set_bug_at(Vm *vm, VmStatus st, const Frame *f, const char *fmt, ...) {
  free(vm->bug.message);
  Buf b;
  buf_init(&b);
  va_list ap;
  va_start(ap, fmt);
  buf_vprintf(&b, fmt, ap);
  va_end(ap);
  vm->bug.status = st;
  vm->bug.message = buf_take(&b);
  vm->bug.file = NULL;
  vm->bug.line = vm->bug.col = 0;
  if (f) {
    const BcFun *fn = &vm->p->funs[f->fun];
    /* pc has moved past the instruction; look up the one that failed. */
    const BcLoc *l = bc_loc(fn, f->pc ? f->pc - 1 : 0);
    if (l) {
      vm->bug.file = vm->p->files[l->file];
      vm->bug.line = l->line;
      vm->bug.col = l->col;
    }
  }
  if (vm->bug.file)
    logf_(vm, "<ErrorLog> %s:%u:%u: %s", vm->bug.file, vm->bug.line, vm->bug.col, vm->bug.message);
  else
    logf_(vm, "<ErrorLog> %s", vm->bug.message);
}

/* ---------------------------------------------------------------------- */
/* Loading a State.                                                        */

/* Section offsets of a record (relative to the record start). */
typedef struct RecParts {
  uint32_t vars, pend, frames, inbox, end;
} RecParts;

/* Check n value encodings at *at (advanced past them); 0 if malformed. */
static int check_values(const uint8_t *r, uint32_t len, uint32_t *at, uint32_t n) {
  for (uint32_t i = 0; i < n; i++) {
    Value v;
    size_t k = val_decode(r + *at, len - *at, &v);
    if (!k) return 0;
    *at += (uint32_t)k;
  }
  return 1;
}

/* Check n (u32 event, payload) entries at *at; 0 if malformed. */
static int check_events(const uint8_t *r, uint32_t len, uint32_t *at, uint32_t n) {
  for (uint32_t i = 0; i < n; i++) {
    if (len - *at < 4) return 0;
    *at += 4;
    if (!check_values(r, len, at, 1)) return 0;
  }
  return 1;
}

/* Find the sections of a record; 0 if it is malformed. */
static int rec_parts(const Vm *vm, const uint8_t *r, uint32_t len, RecParts *out) {
  if (len < sizeof(MachHdr)) return 0;
  MachHdr h;
  memcpy(&h, r, sizeof h);
  if (h.len != len || h.type >= vm->p->nmachines || (h.iface && h.iface >= vm->p->nifaces)) return 0;
  const BcMachine *bm = &vm->p->machines[h.type];
  uint32_t at = sizeof(MachHdr);
  out->vars = at;
  if (!(h.flags & MF_HALTED) && !check_values(r, len, &at, bm->nvars)) return 0;
  out->pend = at;
  if ((h.flags & (MF_START | MF_RAISED)) && !check_events(r, len, &at, 1)) return 0;
  out->frames = at;
  for (uint16_t i = 0; i < h.nframes; i++) {
    if (len - at < 8) return 0;
    uint16_t fun = rd16(r + at), nst = rd16(r + at + 2);
    if (fun >= vm->p->nfuns) return 0;
    at += 8;
    if (!check_values(r, len, &at, (uint32_t)vm->p->funs[fun].nlocals + nst)) return 0;
  }
  out->inbox = at;
  if (h.inbox_off != at || !check_events(r, len, &at, h.ninbox)) return 0;
  out->end = at;
  return at == len;
}

static void reserve_ms(Vm *vm, uint32_t n) {
  if (n <= vm->ms_cap) return;
  uint32_t cap = vm->ms_cap ? vm->ms_cap : 8;
  while (cap < n) cap *= 2;
  vm->ms = xrealloc(vm->ms, cap * sizeof(WMachine));
  vm->ms_cap = cap;
}

/* Set up the working machines of State s (records not yet decoded). */
static int load(Vm *vm, const uint8_t *s, size_t len) {
  if (len < sizeof(StateHdr)) return 0;
  memcpy(&vm->hdr, s, sizeof(StateHdr));
  StateHdr *h = &vm->hdr;
  uint64_t nrec = (uint64_t)h->nspecs + h->nmachines;
  if (h->size != len || h->nspecs != vm->t.nspecs || sizeof(StateHdr) + nrec * 4 > len) return 0;
  vm->nspecs = h->nspecs;
  vm->nms = h->nmachines;
  vm->pinned = 0;
  vm->ntouched = 0;
  reserve_ms(vm, vm->nms + 1);
  const uint8_t *offs = s + sizeof(StateHdr);
  for (uint64_t i = 0; i < nrec; i++) {
    uint32_t off = rd32(offs + 4 * i);
    uint32_t end = i + 1 < nrec ? rd32(offs + 4 * (i + 1)) : (uint32_t)len;
    if (off > len || end > len || end < off) return 0;
    WMachine *m = i < h->nspecs ? &vm->sp[i] : &vm->ms[i - h->nspecs];
    m->decoded = 0;
    m->nappended = m->appended_cap = 0;
    m->rec = (uint32_t)i;
    m->orig = s + off;
    m->orig_len = end - off;
    if (m->orig_len < sizeof(MachHdr)) return 0;
  }
  return 1;
}

/* Note that record m of the loaded State is no longer as load left it. */
static void touch(Vm *vm, const WMachine *m) {
  if (vm->ntouched == vm->touched_cap) {
    vm->touched_cap = vm->touched_cap ? vm->touched_cap * 2 : 16;
    vm->touched = xrealloc(vm->touched, vm->touched_cap * sizeof(uint32_t));
  }
  vm->touched[vm->ntouched++] = m->rec;
}

/* Back to the State as load left it, after a step on it: the header and
** machine count from the bytes, the touched records undecoded. */
static void reload(Vm *vm) {
  memcpy(&vm->hdr, vm->pin_s, sizeof(StateHdr));
  vm->nspecs = vm->hdr.nspecs;
  vm->nms = vm->hdr.nmachines;
  for (uint32_t i = 0; i < vm->ntouched; i++) {
    uint32_t r = vm->touched[i];
    WMachine *m = r < vm->nspecs ? &vm->sp[r] : &vm->ms[r - vm->nspecs];
    m->decoded = 0;
    m->nappended = m->appended_cap = 0;
  }
  vm->ntouched = 0;
}

static void enqueue(Vm *vm, WMachine *m, uint32_t ev, Value payload);

static void decode(Vm *vm, WMachine *m) {
  if (m->decoded) return;
  m->decoded = 1;
  touch(vm, m);
  memcpy(&m->h, m->orig, sizeof(MachHdr));
  /* Records come from this VM's own output: decode without checks. */
  const BcMachine *bm = &vm->p->machines[m->h.type];
  m->vars = valarena_alloc(&vm->va, (size_t)(bm->nvars ? bm->nvars : 1) * sizeof(Value));
  const uint8_t *r = m->orig;
  uint32_t at = sizeof(MachHdr);
  if (!(m->h.flags & MF_HALTED))
    for (uint16_t i = 0; i < bm->nvars; i++) at += (uint32_t)val_load(r + at, &m->vars[i]);
  m->vars_end = at;
  m->vars_dirty = 0;
  m->pend_event = 0;
  m->pend_payload = val_null();
  if (m->h.flags & (MF_START | MF_RAISED)) {
    m->pend_event = rd32(r + at);
    at += 4;
    at += (uint32_t)val_load(r + at, &m->pend_payload);
  }
  m->frames = r + at;
  m->frames_len = m->h.inbox_off - at;
  m->inbox_cap = m->h.ninbox + 4;
  m->inbox = valarena_alloc(&vm->va, m->inbox_cap * sizeof(InboxEntry));
  at = m->h.inbox_off;
  for (uint32_t i = 0; i < m->h.ninbox; i++) {
    m->inbox[i].event = rd32(r + at);
    at += 4;
    at += (uint32_t)val_load(r + at, &m->inbox[i].payload);
  }
  /* Events sent to it earlier in this step, before it was decoded. */
  for (uint32_t i = 0; i < m->nappended; i++) enqueue(vm, m, m->appended[i].event, m->appended[i].payload);
  m->nappended = 0;
}

/* ---------------------------------------------------------------------- */
/* Writing a State.                                                        */

static void put_value(Buf *b, const Value *v) {
  size_t n = val_enc_size(v);
  if (b->len + n + 1 > b->cap) {
    size_t cap = b->cap ? b->cap : 256;
    while (cap < b->len + n + 1) cap *= 2;
    b->data = xrealloc(b->data, cap);
    b->cap = cap;
  }
  val_encode(v, (uint8_t *)b->data + b->len);
  b->len += n;
}

static void encode_record(Vm *vm, const WMachine *m, Buf *b) {
  size_t start = b->len;
  MachHdr h = m->h;
  if (!(h.flags & MF_RECEIVE)) h.recv = 0;
  buf_append_fast(b, &h, sizeof h);
  const BcMachine *bm = &vm->p->machines[m->h.type];
  if (!(m->h.flags & MF_HALTED)) {
    if (!m->vars_dirty && m->orig)   /* unchanged: the bytes as they were */
      buf_append_fast(b, m->orig + sizeof(MachHdr), m->vars_end - sizeof(MachHdr));
    else
      for (uint16_t i = 0; i < bm->nvars; i++) put_value(b, &m->vars[i]);
    if (m->h.flags & (MF_START | MF_RAISED)) {
      buf_append_fast(b, &m->pend_event, 4);
      put_value(b, &m->pend_payload);
    }
    if (m->h.nframes) buf_append_fast(b, m->frames, m->frames_len);
  }
  uint32_t inbox_off = (uint32_t)(b->len - start);
  memcpy(b->data + start + offsetof(MachHdr, inbox_off), &inbox_off, 4);
  if (!(m->h.flags & MF_HALTED)) {
    for (uint32_t i = 0; i < m->h.ninbox; i++) {
      buf_append_fast(b, &m->inbox[i].event, 4);
      put_value(b, &m->inbox[i].payload);
    }
  }
  uint32_t len = (uint32_t)(b->len - start);
  memcpy(b->data + start, &len, 4);
}

/* An undecoded record with events appended to its inbox (the inbox is the
** last section, so they go at the end; the header's length and count change). */
static void append_record(const WMachine *m, Buf *b) {
  size_t start = b->len;
  buf_append_fast(b, m->orig, m->orig_len);
  for (uint32_t i = 0; i < m->nappended; i++) {
    buf_append_fast(b, &m->appended[i].event, 4);
    put_value(b, &m->appended[i].payload);
  }
  uint32_t len = (uint32_t)(b->len - start), n;
  memcpy(&n, b->data + start + offsetof(MachHdr, ninbox), 4);
  n += m->nappended;
  memcpy(b->data + start, &len, 4);
  memcpy(b->data + start + offsetof(MachHdr, ninbox), &n, 4);
}

/* Append the State to out (offsets inside it count from its own start). */
static void write_state(Vm *vm, Buf *out, size_t hint) {
  const uint32_t nspecs = vm->nspecs, nrec = nspecs + vm->nms;
  const size_t base = out->len, head = sizeof(StateHdr) + 4 * (size_t)nrec;
  size_t want = base + head + hint + hint / 4 + 64;
  if (out->cap < want) {
    size_t cap = out->cap ? out->cap : 256;
    while (cap < want) cap *= 2;
    out->data = xrealloc(out->data, cap);
    out->cap = cap;
  }
  if (nrec > vm->offtab_cap) {
    vm->offtab_cap = nrec * 2;
    vm->offtab = xrealloc(vm->offtab, vm->offtab_cap * sizeof(uint32_t));
  }
  StateHdr h = vm->hdr;
  h.nmachines = vm->nms;
  h.nspecs = (uint16_t)nspecs;
  h.zero = 0;
  if (!h.choice_kind) h.choice_machine = h.choice_n = 0;
  memcpy(out->data + base, &h, sizeof h);
  out->len = base + head;   /* the record offsets are filled in at the end */
  /* Untouched records that lie one after another in the input are copied
  ** with one memcpy (a run); the others are written one by one.  Offsets
  ** are gathered in vm->offtab (locals the compiler can keep in registers,
  ** where writes through out->data might alias anything). */
  uint32_t *ot = vm->offtab;
  const WMachine *sp = vm->sp, *ms = vm->ms;
  const uint8_t *run = NULL;   /* start of the pending run in the input */
  size_t run_len = 0;
  uint32_t at = (uint32_t)head;   /* where the next record starts, from base */
  for (uint32_t i = 0; i < nrec; i++) {
    const WMachine *m = i < nspecs ? &sp[i] : &ms[i - nspecs];
    if (!m->decoded && !m->nappended) {
      if (run && run + run_len == m->orig) {
        ot[i] = at + (uint32_t)run_len;
        run_len += m->orig_len;
        continue;
      }
      if (run) { buf_append_fast(out, run, run_len); at += (uint32_t)run_len; }
      ot[i] = at;
      run = m->orig;
      run_len = m->orig_len;
      continue;
    }
    if (run) { buf_append_fast(out, run, run_len); at += (uint32_t)run_len; run = NULL; }
    ot[i] = at;
    if (m->decoded) encode_record(vm, m, out);
    else append_record(m, out);
    at = (uint32_t)(out->len - base);
  }
  if (run) buf_append_fast(out, run, run_len);
  memcpy(out->data + base + sizeof(StateHdr), ot, 4 * (size_t)nrec);
  uint32_t size = (uint32_t)(out->len - base);
  memcpy(out->data + base, &size, 4);
}

/* ---------------------------------------------------------------------- */
/* Frames and the operand stack.                                           */

static void __attribute__((noinline, cold)) grow_stack(Vm *vm) {
  vm->stack_cap = vm->stack_cap ? vm->stack_cap * 2 : 256;
  vm->stack = xrealloc(vm->stack, vm->stack_cap * sizeof(Value));
}

static inline void push(Vm *vm, Value v) {
  if (__builtin_expect(vm->nstack == vm->stack_cap, 0)) grow_stack(vm);
  vm->stack[vm->nstack++] = v;
}

static Value pop(Vm *vm) { return vm->stack[--vm->nstack]; }

/* Push a frame for function fid of `who`; its params come from the stack
** (nargs values) or, when arg is not NULL, from *arg. */
static Frame *push_frame(Vm *vm, uint32_t fid, uint32_t w, int spec, uint32_t base, const Value *arg) {
  const BcFun *f = &vm->p->funs[fid];
  if (vm->nfr == vm->fr_cap) {
    vm->fr_cap = vm->fr_cap ? vm->fr_cap * 2 : 32;
    vm->fr = xrealloc(vm->fr, vm->fr_cap * sizeof(Frame));
  }
  if (vm->nlocals + f->nlocals > vm->locals_cap) {
    while (vm->nlocals + f->nlocals > vm->locals_cap) vm->locals_cap = vm->locals_cap ? vm->locals_cap * 2 : 256;
    vm->locals = xrealloc(vm->locals, vm->locals_cap * sizeof(Value));
  }
  Frame *fr = &vm->fr[vm->nfr];
  fr->fun = fid;
  fr->pc = 0;
  fr->lbase = vm->nlocals;
  fr->base = base == UINT32_MAX ? vm->nfr : base;
  fr->who = w;
  fr->spec = (uint8_t)spec;
  Value *loc = vm->locals + vm->nlocals;
  if (f->nlocals) memcpy(loc, f->local_defaults, f->nlocals * sizeof(Value));
  if (arg) {
    if (f->nparams) loc[0] = *arg;
  } else {
    vm->nstack -= f->nparams;
    if (f->nparams) memcpy(loc, vm->stack + vm->nstack, f->nparams * sizeof(Value));
  }
  vm->nlocals += f->nlocals;
  fr->sbase = vm->nstack;
  vm->nfr++;
  return fr;
}

/* Encode frames [0, nfr) of the running machine into scratch bytes. */
static void save_frames(Vm *vm, WMachine *m) {
  Buf b = vm->frames_buf;   /* scratch kept across steps (no malloc per step) */
  b.len = 0;
  for (uint32_t i = 0; i < vm->nfr; i++) {
    Frame *f = &vm->fr[i];
    const BcFun *fn = &vm->p->funs[f->fun];
    uint32_t send = i + 1 < vm->nfr ? vm->fr[i + 1].sbase : vm->nstack;
    /* A callee's arguments were popped before its sbase was taken, so the
    ** caller's operands are exactly [sbase, next sbase). */
    uint16_t fun = (uint16_t)f->fun, nst = (uint16_t)(send - f->sbase);
    buf_append_fast(&b, &fun, 2);
    buf_append_fast(&b, &nst, 2);
    buf_append_fast(&b, &f->pc, 4);
    for (uint32_t j = 0; j < fn->nlocals; j++) put_value(&b, &vm->locals[f->lbase + j]);
    for (uint32_t j = f->sbase; j < send; j++) put_value(&b, &vm->stack[j]);
  }
  uint8_t *p = valarena_alloc(&vm->va, b.len ? b.len : 1);
  if (b.len) memcpy(p, b.data, b.len);
  m->frames = p;
  m->frames_len = (uint32_t)b.len;
  m->h.nframes = (uint16_t)vm->nfr;
  vm->frames_buf = b;
}

/* Rebuild the VM stacks from a machine's saved frames. */
static void restore_frames(Vm *vm, WMachine *m, uint32_t id) {
  vm->nfr = vm->nstack = vm->nlocals = 0;
  const uint8_t *r = m->frames;
  uint32_t at = 0;
  for (uint16_t i = 0; i < m->h.nframes; i++) {
    uint16_t fun = rd16(r + at), nst = rd16(r + at + 2);
    uint32_t pc = rd32(r + at + 4);
    at += 8;
    Frame *f = push_frame(vm, fun, id, 0, 0, &(Value){0});
    f->pc = pc;
    const BcFun *fn = &vm->p->funs[fun];
    for (uint32_t j = 0; j < fn->nlocals; j++)
      at += (uint32_t)val_load(r + at, &vm->locals[f->lbase + j]);
    for (uint32_t j = 0; j < nst; j++) {
      Value v;
      at += (uint32_t)val_load(r + at, &v);
      push(vm, v);
    }
  }
  m->h.nframes = 0;
  m->frames = NULL;
  m->frames_len = 0;
}

/* ---------------------------------------------------------------------- */
/* Machines: creation, inboxes, dispatch.                                  */

static WMachine *new_record(Vm *vm, uint16_t type, int spec, uint32_t *id_out) {
  WMachine *m;
  if (spec) {
    m = &vm->sp[*id_out];
  } else {
    reserve_ms(vm, vm->nms + 1);
    *id_out = vm->nms;
    m = &vm->ms[vm->nms++];
  }
  memset(m, 0, sizeof *m);
  m->decoded = 1;
  m->rec = spec ? *id_out : (uint32_t)vm->nspecs + *id_out;
  m->h.type = type;
  const BcMachine *bm = &vm->p->machines[type];
  m->h.state = bm->start;
  m->vars = valarena_alloc(&vm->va, (size_t)(bm->nvars ? bm->nvars : 1) * sizeof(Value));
  if (bm->nvars) memcpy(m->vars, bm->var_defaults, bm->nvars * sizeof(Value));
  m->inbox_cap = 4;
  m->inbox = valarena_alloc(&vm->va, m->inbox_cap * sizeof(InboxEntry));
  return m;
}

static void enqueue(Vm *vm, WMachine *m, uint32_t ev, Value payload) {
  if (m->h.ninbox == m->inbox_cap) {
    uint32_t cap = m->inbox_cap * 2 + 4;
    InboxEntry *n = valarena_alloc(&vm->va, cap * sizeof(InboxEntry));
    if (m->h.ninbox) memcpy(n, m->inbox, m->h.ninbox * sizeof(InboxEntry));
    m->inbox = n;
    m->inbox_cap = cap;
  }
  m->inbox[m->h.ninbox].event = ev;
  m->inbox[m->h.ninbox].payload = payload;
  m->h.ninbox++;
}

static void inbox_remove(WMachine *m, uint32_t i) {
  memmove(&m->inbox[i], &m->inbox[i + 1], (m->h.ninbox - i - 1) * sizeof(InboxEntry));
  m->h.ninbox--;
}

static void halt_machine(Vm *vm, WMachine *m, uint32_t id) {
  logf_(vm, "<HaltLog> '%s' halted in state '%s'.", mname(vm, id), state_name(vm, m));
  note(vm, VE_HALT, id, 0, 0, m->h.state, 0, val_null());
  m->h.flags = MF_HALTED;
  m->h.nframes = 0;
  m->h.ninbox = 0;
  m->h.recv = 0;
  m->frames = NULL;
  m->frames_len = 0;
  vm->halted_now = 1;
}

/* Handle event ev in the current state of machine/spec `w`: push the
** handler's frame, drop it (ignore), halt, or report an unhandled event.
** Returns R_DONE (nothing more to run or a frame pushed) or R_BUG. */
static int dispatch(Vm *vm, uint32_t w, int spec, uint32_t ev, Value payload, uint32_t base, int raised) {
  WMachine *m = spec ? &vm->sp[w] : &vm->ms[w];
  const BcMachine *bm = &vm->p->machines[m->h.type];
  const BcState *st = &bm->states[m->h.state];
  const BcHandler *h = &st->handlers[ev];
  switch (h->kind) {
  case BH_DO: case BH_GOTO:
    if (h->kind == BH_GOTO && !spec)
      logf_(vm, "<GotoLog> '%s' is transitioning from state '%s' to state '%s' on event '%s'.", mname(vm, w),
            st->name, bm->states[h->target].name, cb_event(vm, ev));
    push_frame(vm, (uint32_t)h->fun, w, spec, base, &payload);
    return R_DONE;
  case BH_IGNORE:
    return R_DONE;
  default:
    if (ev == BC_HALT && !spec) {
      /* P: an unhandled halt runs the state's exit function, then halts. */
      if (st->exit < 0 || (m->h.flags & MF_HALTING)) { halt_machine(vm, m, w); return R_DONE; }
      m->h.flags |= MF_HALTING;
      push_frame(vm, (uint32_t)st->exit, w, 0, base, &(Value){0});
      return R_DONE;
    }
    if (spec)
      set_bug_at(vm, VM_BUG_UNHANDLED, NULL, "spec '%s' received event '%s' that it does not handle in state '%s'",
                 bm->name, cb_event(vm, ev), st->name);
    else
      set_bug_at(vm, VM_BUG_UNHANDLED, NULL, "'%s' received event '%s' that is not handled in state '%s'%s",
                 mname(vm, w), cb_event(vm, ev), st->name, raised ? " (raised)" : "");
    return R_BUG;
  }
}

static int run(Vm *vm, uint32_t base);

/* Run every spec that observes ev sent or announced by a machine created
** as interface `from`, synchronously (P: a spec observes the machines bound
** in the module it is asserted on). */
static int observe(Vm *vm, uint32_t ev, Value payload, uint16_t from) {
  for (uint16_t i = 0; i < vm->nspecs; i++) {
    WMachine *s = &vm->sp[i];
    const BcMachine *bm = &vm->p->machines[vm->t.specs[i]];
    if (ev >= vm->p->nevents || !bm->observes[ev]) continue;
    if (vm->t.spec_from && vm->t.spec_from[i] && !vm->t.spec_from[i][from]) continue;
    decode(vm, s);
    logf_(vm, "<MonitorLog> %s is processing event '%s' in state '%s'.", bm->name, event_text(vm, ev, &payload),
          bm->states[s->h.state].name);
    note(vm, VE_MONITOR, i, 0, ev, s->h.state, 1, payload);
    uint32_t base = vm->nfr;
    if (dispatch(vm, i, 1, ev, payload, base, 0) == R_BUG) return R_BUG;
    if (vm->nfr > base) {
      int r = run(vm, base);
      if (r != R_DONE) return R_BUG;
    }
  }
  return R_DONE;
}

/* ---------------------------------------------------------------------- */
/* Runtime type checks (`as`).                                             */

static int conforms(Vm *vm, const Value *v, uint32_t ti) {
  const BcType *t = &vm->p->types[ti];
  switch (t->kind) {
  case BT_ANY: return 1;
  case BT_DATA: {
    if (v->tag == VT_MACHINE) return 0;
    if (v->tag == VT_TUPLE || v->tag == VT_SEQ || v->tag == VT_SET || v->tag == VT_MAP) {
      uint32_t n = v->tag == VT_TUPLE ? (uint32_t)val_tuple_count(v) : val_count(v);
      for (uint32_t i = 0; i < n; i++) {
        Value e = v->tag == VT_TUPLE ? val_tuple_get(v, (int)i) : val_nth(v, i);
        if (!conforms(vm, &e, ti)) return 0;
        if (v->tag == VT_MAP) {
          Value mv = val_map_nth_value(v, i);
          if (!conforms(vm, &mv, ti)) return 0;
        }
      }
    }
    return 1;
  }
  case BT_NULL: return v->tag == VT_NULL;
  case BT_BOOL: return v->tag == VT_BOOL;
  case BT_INT: return v->tag == VT_INT;
  case BT_FLOAT: return v->tag == VT_FLOAT;
  case BT_STRING: return v->tag == VT_STRING;
  case BT_EVENT: return v->tag == VT_EVENT || v->tag == VT_NULL;
  case BT_MACHINE: return v->tag == VT_MACHINE || v->tag == VT_NULL;
  case BT_MNAME:
    if (v->tag == VT_NULL) return 1;
    if (v->tag != VT_MACHINE || (uint64_t)v->u.i >= vm->nms) return 0;
    {
      WMachine *m = &vm->ms[v->u.i];
      uint16_t type = m->decoded ? m->h.type : rd16(m->orig + 4);
      return type == t->id;
    }
  case BT_ENUM: return v->tag == VT_ENUM && v->aux == t->id;
  case BT_TUPLE: {
    if (v->tag != VT_TUPLE || val_tuple_count(v) != t->n) return 0;
    uint16_t shape = rd16(v->u.p + 1);
    if (shape != t->id) return 0;
    for (uint16_t i = 0; i < t->n; i++) {
      Value e = val_tuple_get(v, i);
      if (!conforms(vm, &e, t->elems[i])) return 0;
    }
    return 1;
  }
  case BT_SEQ: case BT_SET: {
    if (v->tag != (t->kind == BT_SEQ ? VT_SEQ : VT_SET)) return 0;
    uint32_t n = val_count(v);
    for (uint32_t i = 0; i < n; i++) {
      Value e = val_nth(v, i);
      if (!conforms(vm, &e, t->elems[0])) return 0;
    }
    return 1;
  }
  case BT_MAP: {
    if (v->tag != VT_MAP) return 0;
    uint32_t n = val_count(v);
    for (uint32_t i = 0; i < n; i++) {
      Value k = val_nth(v, i), x = val_map_nth_value(v, i);
      if (!conforms(vm, &k, t->elems[0]) || !conforms(vm, &x, t->elems[1])) return 0;
    }
    return 1;
  }
  }
  return 0;
}

static const char *bctype_name(Vm *vm, uint32_t ti) {
  const BcType *t = &vm->p->types[ti];
  static const char *const names[] = { "any", "data", "null", "bool", "int", "float", "string", "event", "machine",
                                       "", "", "tuple", "seq", "set", "map" };
  if (t->kind == BT_MNAME) return vm->p->machines[t->id].name;
  if (t->kind == BT_ENUM) return vm->p->enums[t->id].name;
  return names[t->kind];
}

/* ---------------------------------------------------------------------- */
/* The interpreter.                                                        */

static Value format_string(Vm *vm, const Value *fmt, const Value *args, int nargs) {
  uint32_t n;
  const char *s = val_str(fmt, &n);
  Buf b;
  buf_init(&b);
  for (uint32_t i = 0; i < n; i++) {
    char c = s[i];
    if (c == '{' && i + 1 < n && s[i + 1] == '{') { buf_putc(&b, '{'); i++; continue; }
    if (c == '}' && i + 1 < n && s[i + 1] == '}') { buf_putc(&b, '}'); i++; continue; }
    if (c == '{') {
      uint32_t j = i + 1;
      long k = 0;
      int digits = 0;
      while (j < n && s[j] >= '0' && s[j] <= '9' && digits < 9) { k = k * 10 + (s[j] - '0'); j++; digits++; }
      if (digits && j < n && s[j] == '}' && k < nargs) {
        if (args[k].tag == VT_STRING) {
          uint32_t sl;
          const char *ss = val_str(&args[k], &sl);
          buf_append(&b, ss, sl);
        } else {
          val_print(&b, &args[k], &vm->names);
        }
        i = j;
        continue;
      }
    }
    buf_putc(&b, c);
  }
  Value r = val_string(&vm->va, b.data ? b.data : "", b.len);
  buf_fini(&b);
  return r;
}

static int cmp_values(const Value *a, const Value *b) {
  if (a->tag == VT_INT && b->tag == VT_INT) return a->u.i < b->u.i ? -1 : a->u.i > b->u.i;
  if (a->tag == VT_FLOAT && b->tag == VT_FLOAT) return a->u.f < b->u.f ? -1 : a->u.f > b->u.f;
  if (a->tag == VT_STRING && b->tag == VT_STRING) {
    uint32_t na, nb;
    const char *sa = val_str(a, &na), *sb = val_str(b, &nb);
    int c = memcmp(sa, sb, na < nb ? na : nb);
    return c ? c : (na < nb ? -1 : na > nb);
  }
  return 0;
}

#define FETCH_U8() (code[pc++])
#define FETCH_U16(x) do { memcpy(&(x), code + pc, 2); pc += 2; } while (0)
#define FETCH_U32(x) do { memcpy(&(x), code + pc, 4); pc += 4; } while (0)
#define FETCH_I64(x) do { memcpy(&(x), code + pc, 8); pc += 8; } while (0)
#define RUNTIME(...) do { f->pc = pc; set_bug_at(vm, VM_BUG_RUNTIME, f, __VA_ARGS__); return R_BUG; } while (0)
#define SUSPEND_HERE() do { f->pc = start_pc; return R_SUSPEND; } while (0)

/* Run frames until the activation at `base` completes (R_DONE), the
** machine reaches a scheduling point (R_SUSPEND) or a bug (R_BUG). */
static int run(Vm *vm, uint32_t base) {
  const BcProgram *P = vm->p;
  for (;;) {
    if (vm->nfr <= base) return R_DONE;
    Frame *f = &vm->fr[vm->nfr - 1];
    const BcFun *fn = &P->funs[f->fun];
    const uint8_t *code = fn->code;
    uint32_t pc = f->pc;
    uint32_t start_pc = pc;
    Value *L = vm->locals + f->lbase;
#ifdef PCHECK_DEBUG
    /* Debug builds: check the instruction against the opcode table. */
    if (code[pc] >= OP__COUNT ||
        pc + 1 + (uint32_t)bc_operand_size((OperandKind)bc_op_operand[code[pc]]) > fn->ncode ||
        (bc_op_pops[code[pc]] > 0 && vm->nstack - f->sbase < (uint32_t)bc_op_pops[code[pc]])) {
      fprintf(stderr, "pcheck: internal error: bad instruction at %s:%u\n", fn->name, pc);
      abort();
    }
#endif
    Opcode op = (Opcode)code[pc++];
    switch (op) {
    case OP_NOP: /* do nothing */ break;
    case OP_PUSH_NULL: /* push null */ push(vm, val_null()); break;
    case OP_PUSH_BOOL: /* push imm as a bool */ push(vm, val_bool(FETCH_U8())); break;
    case OP_PUSH_INT: { /* push imm as an int */
      int64_t x;
      FETCH_I64(x);
      push(vm, val_int(x));
      break;
    }
    case OP_PUSH_FLOAT: { /* push imm as a float */
      double x;
      memcpy(&x, code + pc, 8);
      pc += 8;
      push(vm, val_float(x));
      break;
    }
    case OP_PUSH_CONST: { /* push constant imm */
      uint32_t k;
      FETCH_U32(k);
      push(vm, P->consts[k]);
      break;
    }
    case OP_PUSH_EVENT: { /* push event id imm */
      uint32_t k;
      FETCH_U32(k);
      push(vm, val_event(k));
      break;
    }
    case OP_THIS: /* push the running machine's id */ push(vm, val_machine(f->who)); break;
    case OP_LOAD_LOCAL: { uint16_t k; FETCH_U16(k); push(vm, L[k]); break; }
    case OP_STORE_LOCAL: { uint16_t k; FETCH_U16(k); L[k] = pop(vm); break; }
    case OP_LOAD_VAR: { uint16_t k; FETCH_U16(k); push(vm, who(vm, f)->vars[k]); break; }
    case OP_STORE_VAR: {
      uint16_t k;
      FETCH_U16(k);
      WMachine *m = who(vm, f);
      m->vars[k] = pop(vm);
      m->vars_dirty = 1;
      break;
    }
    case OP_LOAD_PARAM: { uint16_t k; FETCH_U16(k); push(vm, vm->t.params[k]); break; }
    case OP_POP: /* drop the top value */ vm->nstack--; break;
    case OP_DUP: /* duplicate the top value */ push(vm, vm->stack[vm->nstack - 1]); break;
    case OP_ADD: case OP_SUB: case OP_MUL: case OP_DIV: case OP_MOD: {
      /* int/float arithmetic; ADD also concatenates strings */
      Value b = pop(vm), a = pop(vm);
      if (a.tag == VT_INT && b.tag == VT_INT) {
        uint64_t x = (uint64_t)a.u.i, y = (uint64_t)b.u.i;
        int64_t r;
        switch (op) {
        case OP_ADD: r = (int64_t)(x + y); break;
        case OP_SUB: r = (int64_t)(x - y); break;
        case OP_MUL: r = (int64_t)(x * y); break;
        case OP_DIV:
          if (b.u.i == 0) RUNTIME("division by zero");
          r = b.u.i == -1 ? (int64_t)(0 - x) : a.u.i / b.u.i;
          break;
        default:
          if (b.u.i == 0) RUNTIME("remainder by zero");
          r = b.u.i == -1 ? 0 : a.u.i % b.u.i;
          break;
        }
        push(vm, val_int(r));
      } else if (a.tag == VT_FLOAT && b.tag == VT_FLOAT) {
        double r = op == OP_ADD ? a.u.f + b.u.f : op == OP_SUB ? a.u.f - b.u.f : op == OP_MUL ? a.u.f * b.u.f
                 : op == OP_DIV ? a.u.f / b.u.f : fmod(a.u.f, b.u.f);
        push(vm, val_float(r));
      } else if (op == OP_ADD && a.tag == VT_STRING && b.tag == VT_STRING) {
        push(vm, val_concat(&vm->va, &a, &b));
      } else {
        RUNTIME("arithmetic on values of the wrong kind");
      }
      break;
    }
    case OP_NEG: { /* int/float negation */
      Value a = pop(vm);
      if (a.tag == VT_INT) push(vm, val_int((int64_t)(0 - (uint64_t)a.u.i)));
      else push(vm, val_float(-a.u.f));
      break;
    }
    case OP_NOT: { Value a = pop(vm); push(vm, val_bool(!a.u.i)); break; }
    case OP_LT: case OP_LE: case OP_GT: case OP_GE: { /* ordered comparison */
      Value b = pop(vm), a = pop(vm);
      int c = cmp_values(&a, &b);
      int r = op == OP_LT ? c < 0 : op == OP_LE ? c <= 0 : op == OP_GT ? c > 0 : c >= 0;
      if (a.tag == VT_FLOAT && b.tag == VT_FLOAT && (isnan(a.u.f) || isnan(b.u.f))) r = 0;
      push(vm, val_bool(r));
      break;
    }
    case OP_EQ: case OP_NE: { /* deep value equality */
      Value b = pop(vm), a = pop(vm);
      int eq = val_equal(&a, &b);
      push(vm, val_bool(op == OP_EQ ? eq : !eq));
      break;
    }
    case OP_IN: { /* x is an element of seq/set c or a key of map c */
      Value c = pop(vm), x = pop(vm);
      int r = 0;
      if (c.tag == VT_SET) r = val_set_has(&c, &x);
      else if (c.tag == VT_MAP) r = val_map_has(&c, &x);
      else if (c.tag == VT_SEQ) {
        uint32_t n = val_count(&c);
        for (uint32_t i = 0; i < n && !r; i++) { Value e = val_nth(&c, i); r = val_equal(&e, &x); }
      }
      push(vm, val_bool(r));
      break;
    }
    case OP_JMP: { uint32_t t; FETCH_U32(t); pc = t; break; }
    case OP_JMP_FALSE: { uint32_t t; FETCH_U32(t); if (!pop(vm).u.i) pc = t; break; }
    case OP_JMP_TRUE: { uint32_t t; FETCH_U32(t); if (pop(vm).u.i) pc = t; break; }
    case OP_TUPLE: { /* pop n values; push a tuple of shape imm1 */
      uint16_t shape, n;
      FETCH_U16(shape);
      FETCH_U16(n);
      vm->nstack -= n;
      Value t = val_tuple(&vm->va, shape, vm->stack + vm->nstack, n);
      push(vm, t);
      break;
    }
    case OP_TGET: { /* element imm of a tuple */
      uint16_t i;
      FETCH_U16(i);
      Value t = pop(vm);
      if (t.tag != VT_TUPLE || i >= val_tuple_count(&t)) RUNTIME("tuple element %u of a value that does not have it", i);
      push(vm, val_tuple_get(&t, i));
      break;
    }
    case OP_TSET: { /* t with element imm replaced by x */
      uint16_t i;
      FETCH_U16(i);
      Value x = pop(vm), t = pop(vm);
      if (t.tag != VT_TUPLE || i >= val_tuple_count(&t)) RUNTIME("tuple element %u of a value that does not have it", i);
      push(vm, val_tuple_set(&vm->va, &t, i, &x));
      break;
    }
    case OP_INDEX: { /* seq c[k] or map c[k] */
      Value k = pop(vm), c = pop(vm), r;
      if (c.tag == VT_SEQ) {
        if (!val_seq_get(&c, k.u.i, &r))
          RUNTIME("index %lld is out of range for a seq of %u elements", (long long)k.u.i, val_count(&c));
      } else if (c.tag == VT_MAP) {
        if (!val_map_get(&c, &k, &r)) RUNTIME("key %s is not in the map", vm_value_text(vm, &k));
      } else if (c.tag == VT_SET) {
        /* the k-th element in the set's canonical (sorted) order */
        if (k.u.i < 0 || k.u.i >= (int64_t)val_count(&c))
          RUNTIME("index %lld is out of range for a set of %u elements", (long long)k.u.i, val_count(&c));
        r = val_nth(&c, (uint32_t)k.u.i);
      } else {
        RUNTIME("indexing a value that is not a seq, a set or a map");
      }
      push(vm, r);
      break;
    }
    case OP_ISET: { /* c with c[k] = x */
      Value x = pop(vm), k = pop(vm), c = pop(vm), r;
      if (c.tag == VT_SEQ) {
        if (!val_seq_set(&vm->va, &c, k.u.i, &x, &r))
          RUNTIME("index %lld is out of range for a seq of %u elements", (long long)k.u.i, val_count(&c));
      } else if (c.tag == VT_MAP) {
        r = val_map_put(&vm->va, &c, &k, &x);
      } else {
        RUNTIME("indexing a value that is not a seq or a map");
      }
      push(vm, r);
      break;
    }
    case OP_INSERT: { /* seq insert at k, or new map key */
      Value x = pop(vm), k = pop(vm), c = pop(vm), r;
      if (c.tag == VT_SEQ) {
        if (!val_seq_insert(&vm->va, &c, k.u.i, &x, &r))
          RUNTIME("insert position %lld is out of range for a seq of %u elements", (long long)k.u.i, val_count(&c));
      } else {
        if (val_map_has(&c, &k)) RUNTIME("key %s is already in the map", vm_value_text(vm, &k));
        r = val_map_put(&vm->va, &c, &k, &x);
      }
      push(vm, r);
      break;
    }
    case OP_ADD_ELEM: { Value x = pop(vm), s = pop(vm); push(vm, val_set_add(&vm->va, &s, &x)); break; }
    case OP_REMOVE: { /* without index k (seq) or key/element k */
      Value k = pop(vm), c = pop(vm), r;
      if (c.tag == VT_SEQ) {
        if (!val_seq_remove(&vm->va, &c, k.u.i, &r))
          RUNTIME("index %lld is out of range for a seq of %u elements", (long long)k.u.i, val_count(&c));
      } else if (c.tag == VT_SET) {
        r = val_set_remove(&vm->va, &c, &k);
      } else {
        r = val_map_remove(&vm->va, &c, &k);
      }
      push(vm, r);
      break;
    }
    case OP_KEYS: { Value m = pop(vm); push(vm, val_map_keys(&vm->va, &m)); break; }
    case OP_VALUES: { Value m = pop(vm); push(vm, val_map_values(&vm->va, &m)); break; }
    case OP_SIZEOF: { Value c = pop(vm); push(vm, val_int(val_count(&c))); break; }
    case OP_NTH: { /* element i of c in iteration order */
      Value i = pop(vm), c = pop(vm);
      push(vm, val_nth(&c, (uint32_t)i.u.i));
      break;
    }
    case OP_CAST: { /* v if it has type imm */
      uint32_t ti;
      FETCH_U32(ti);
      Value v = vm->stack[vm->nstack - 1];
      if (!conforms(vm, &v, ti)) RUNTIME("cannot cast %s to %s", vm_value_text(vm, &v), bctype_name(vm, ti));
      break;
    }
    case OP_CONVERT: { /* 'to' conversions */
      uint16_t mode, eid;
      FETCH_U16(mode);
      FETCH_U16(eid);
      Value v = pop(vm);
      switch (mode) {
      case CV_INT_TO_FLOAT: push(vm, val_float((double)v.u.i)); break;
      case CV_ENUM_TO_FLOAT: push(vm, val_float((double)v.u.i)); break;
      case CV_ENUM_TO_INT: push(vm, val_int(v.u.i)); break;
      case CV_FLOAT_TO_INT:
        if (!(v.u.f >= -9.2233720368547758e18 && v.u.f < 9.2233720368547758e18))
          RUNTIME("float %g cannot be converted to int", v.u.f);
        push(vm, val_int((int64_t)v.u.f));
        break;
      case CV_INT_TO_ENUM: {
        const BcEnum *be = &P->enums[eid];
        int ok = 0;
        for (uint32_t i = 0; i < be->n && !ok; i++) ok = be->values[i] == v.u.i;
        if (!ok) RUNTIME("no member of enum %s has the value %lld", be->name, (long long)v.u.i);
        push(vm, val_enum(eid, v.u.i));
        break;
      }
      default: push(vm, v); break;
      }
      break;
    }
    case OP_FORMAT: { /* constant string with {i} replaced by args */
      uint16_t k, n;
      FETCH_U16(k);
      FETCH_U16(n);
      vm->nstack -= n;
      Value r = format_string(vm, &P->consts[k], vm->stack + vm->nstack, n);
      push(vm, r);
      break;
    }
    case OP_CHOOSE: { /* data choice point: imm 0 = bool ($, choose()); 1 = pop n, int in [0,n); 2 = pop c, element of c; 3 = fair bool ($$) */
      uint8_t kind = FETCH_U8();
      int boolean = kind == 0 || kind == 3;
      if (f->spec == 2) {   /* an explorer: a seeded random draw, not a choice point */
        uint32_t n = 2;
        Value c = {0};
        if (kind == 1 && vm->stack[vm->nstack - 1].u.i == 0) break;   /* choose(0) is 0, as P */
        if (kind == 1) {
          Value x = pop(vm);
          if (x.u.i < 0) RUNTIME("choose(%lld): a negative number of choices", (long long)x.u.i);
          if (x.u.i > 10000) RUNTIME("choose(%lld): choose takes at most 10000 choices", (long long)x.u.i);
          n = (uint32_t)x.u.i;
        } else if (kind == 2) {
          c = pop(vm);
          n = val_count(&c);
          if (n == 0) RUNTIME("choose from an empty collection");
        }
        uint32_t k = (uint32_t)(vm_explorer_random(&vm->ex_rng) % n);
        push(vm, boolean ? val_bool((int)k) : kind == 1 ? val_int(k) : val_nth(&c, k));
        break;
      }
      if (f->spec) RUNTIME("a spec made a nondeterministic choice");
      if (!vm->have_choice) {
        uint32_t n = 2;
        if (kind == 1 && vm->stack[vm->nstack - 1].u.i == 0) break;   /* choose(0) is 0, as P: no choice */
        if (kind == 1) {
          Value x = vm->stack[vm->nstack - 1];
          if (x.u.i < 0) RUNTIME("choose(%lld): a negative number of choices", (long long)x.u.i);
          if (x.u.i > 10000) RUNTIME("choose(%lld): choose takes at most 10000 choices", (long long)x.u.i);
          n = (uint32_t)x.u.i;
        } else if (kind == 2) {
          Value c = vm->stack[vm->nstack - 1];
          n = val_count(&c);
          if (n == 0) RUNTIME("choose from an empty collection");
          if (n > 10000) RUNTIME("choose from a collection of %u elements: choose takes at most 10000 choices", n);
        }
        vm->hdr.choice_kind = (uint16_t)(kind + 1);   /* 4: the fair bool of $$ */
        vm->hdr.choice_machine = f->who;
        vm->hdr.choice_n = n;
        SUSPEND_HERE();
      }
      vm->have_choice = 0;
      Value r;
      if (boolean) r = val_bool((int)vm->choice_val);
      else if (kind == 1) { vm->nstack--; r = val_int(vm->choice_val); }
      else { Value c = pop(vm); r = val_nth(&c, vm->choice_val); }
      if (vm->log) {
        Buf vb;
        buf_init(&vb);
        val_print(&vb, &r, &vm->names);
        logf_(vm, "<RandomLog> '%s' nondeterministically chose '%s'.", mname(vm, f->who), vb.data);
        buf_fini(&vb);
      }
      note(vm, VE_CHOICE, f->who, 0, 0, 0, 0, r);
      push(vm, r);
      break;
    }
    case OP_NEW: { /* create a machine; scheduling point */
      if (f->spec == 2) RUNTIME("an explorer cannot create machines");
      uint16_t iface, has;
      FETCH_U16(iface);
      FETCH_U16(has);
      (void)has;
      /* The test's module decides which machine an interface creates. */
      if (vm->t.link) iface = vm->t.link[iface];
      uint16_t type = vm->t.bind ? vm->t.bind[iface] : P->iface_self[iface];
      if (type == BC_NO_MACHINE) RUNTIME("no machine implements interface '%s' in this test", P->iface_names[iface]);
      Value payload = pop(vm);
      uint32_t id;
      WMachine *m = new_record(vm, type, 0, &id);
      m->h.flags = MF_START;
      m->h.iface = iface;
      m->pend_payload = payload;
      f = &vm->fr[vm->nfr - 1];
      logf_(vm, "<CreateLog> '%s' was created by '%s'.", mname(vm, id), mname(vm, f->who));
      note(vm, VE_CREATE, id, f->who, 0, 0, 0, payload);
      push(vm, val_machine(id));
      f->pc = pc;
      return R_SUSPEND;
    }
    case OP_CALL: { /* call function imm */
      uint16_t k;
      FETCH_U16(k);
      f->pc = pc;
      if (vm->nfr > 10000) RUNTIME("call stack overflow (more than 10000 nested calls)");
      push_frame(vm, k, f->who, f->spec, f->base, NULL);
      continue;
    }
    case OP_RET: case OP_RET_VAL: { /* return */
      Value r = op == OP_RET_VAL ? pop(vm) : val_null();
      vm->nstack = f->sbase;
      vm->nlocals = f->lbase;
      vm->nfr--;
      if (op == OP_RET_VAL) push(vm, r);
      continue;
    }
    case OP_SEND: { /* specs observe; enqueue; scheduling point */
      if (f->spec == 2) RUNTIME("an explorer cannot send");
      Value payload = pop(vm), ev = pop(vm), target = pop(vm);
      if (target.tag != VT_MACHINE) RUNTIME("send to null");
      if (ev.tag != VT_EVENT) RUNTIME("send of a null event");
      if ((uint64_t)target.u.i >= vm->nms) RUNTIME("send to an unknown machine");
      f->pc = pc;
      uint32_t me = f->who;
      WMachine *sender = &vm->ms[me];
      WMachine *tm = &vm->ms[target.u.i];
      /* P's permissions: the sender's sends clause, the receives of the
      ** interface the target was created as. */
      const uint8_t *sends = P->machines[sender->h.type].sends;
      if (sends && !sends[ev.u.i])
        RUNTIME("event '%s' is not in the sends set of machine '%s'", cb_event(vm, (uint32_t)ev.u.i),
                P->machines[sender->h.type].name);
      uint16_t tif;
      if (tm->decoded) tif = tm->h.iface;
      else memcpy(&tif, tm->orig + offsetof(MachHdr, iface), 2);
      if (P->iface_recv[tif] && !P->iface_recv[tif][ev.u.i])
        RUNTIME("event '%s' is not in the permissions set of the target machine '%s' (interface '%s' receives "
                "only the events it lists)", cb_event(vm, (uint32_t)ev.u.i), mname(vm, (uint32_t)target.u.i),
                P->iface_names[tif]);
      logf_(vm, "<SendLog> '%s' in state '%s' sent event '%s' to '%s'.", mname(vm, me), state_name(vm, sender),
            event_text(vm, (uint32_t)ev.u.i, &payload), mname(vm, (uint32_t)target.u.i));
      note(vm, VE_SEND, me, (uint32_t)target.u.i, (uint32_t)ev.u.i, sender->h.state, 0, payload);
      if (observe(vm, (uint32_t)ev.u.i, payload, sender->h.iface) == R_BUG) return R_BUG;
      tm = &vm->ms[target.u.i];
      uint16_t tflags;
      if (tm->decoded) tflags = tm->h.flags;
      else memcpy(&tflags, tm->orig + offsetof(MachHdr, flags), 2);
      if (tflags & MF_HALTED) {
        logf_(vm, "<SendLog> '%s' is halted; the event is dropped.", mname(vm, (uint32_t)target.u.i));
        note(vm, VE_DROP, me, (uint32_t)target.u.i, (uint32_t)ev.u.i, 0, 0, payload);
      } else if (tm->decoded) {
        enqueue(vm, tm, (uint32_t)ev.u.i, payload);
      } else {
        if (!tm->nappended) touch(vm, tm);
        if (tm->nappended == tm->appended_cap) {
          uint32_t cap = tm->appended_cap * 2 + 4;
          InboxEntry *n = valarena_alloc(&vm->va, cap * sizeof(InboxEntry));
          if (tm->nappended) memcpy(n, tm->appended, tm->nappended * sizeof(InboxEntry));
          tm->appended = n;
          tm->appended_cap = cap;
        }
        tm->appended[tm->nappended].event = (uint32_t)ev.u.i;
        tm->appended[tm->nappended++].payload = payload;
      }
      return R_SUSPEND;
    }
    case OP_ANNOUNCE: { /* specs observe */
      if (f->spec == 2) RUNTIME("an explorer cannot announce");
      Value payload = pop(vm), ev = pop(vm);
      if (ev.tag != VT_EVENT) RUNTIME("announce of a null event");
      f->pc = pc;
      logf_(vm, "<AnnounceLog> '%s' announced event '%s'.", mname(vm, f->who), event_text(vm, (uint32_t)ev.u.i, &payload));
      note(vm, VE_ANNOUNCE, f->who, 0, (uint32_t)ev.u.i, 0, 0, payload);
      if (observe(vm, (uint32_t)ev.u.i, payload, vm->ms[f->who].h.iface) == R_BUG) return R_BUG;
      continue;
    }
    case OP_RAISE: { /* end the handler; handle the event now */
      if (f->spec == 2) RUNTIME("an explorer cannot raise");
      Value payload = pop(vm), ev = pop(vm);
      if (ev.tag != VT_EVENT) RUNTIME("raise of a null event");
      f->pc = pc;
      uint32_t w = f->who, abase = f->base;
      int spec = f->spec;
      WMachine *m = who(vm, f);
      if (spec) logf_(vm, "<MonitorLog> %s raised event '%s' in state '%s'.", P->machines[m->h.type].name,
                      event_text(vm, (uint32_t)ev.u.i, &payload), state_name(vm, m));
      else logf_(vm, "<RaiseLog> '%s' raised event '%s' in state '%s'.", mname(vm, w),
                 event_text(vm, (uint32_t)ev.u.i, &payload), state_name(vm, m));
      note(vm, VE_RAISE, w, 0, (uint32_t)ev.u.i, m->h.state, spec, payload);
      Frame *b0 = &vm->fr[abase];
      vm->nstack = b0->sbase;
      vm->nlocals = b0->lbase;
      vm->nfr = abase;
      if (dispatch(vm, w, spec, (uint32_t)ev.u.i, payload, abase, 1) == R_BUG) return R_BUG;
      if (vm->halted_now && !spec) { vm->nfr = 0; return R_DONE; }
      continue;
    }
    case OP_GOTO: { /* end the handler; exit; enter state imm */
      if (f->spec == 2) RUNTIME("an explorer cannot goto");
      uint16_t s;
      FETCH_U16(s);
      Value payload = pop(vm);
      f->pc = pc;
      uint32_t w = f->who, abase = f->base;
      int spec = f->spec;
      WMachine *m = who(vm, f);
      const BcMachine *bm = &P->machines[m->h.type];
      if (!spec)
        logf_(vm, "<GotoLog> '%s' is transitioning from state '%s' to state '%s'.", mname(vm, w),
              bm->states[m->h.state].name, bm->states[s].name);
      Frame *b0 = &vm->fr[abase];
      vm->nstack = b0->sbase;
      vm->nlocals = b0->lbase;
      vm->nfr = abase;
      push_frame(vm, (uint32_t)bm->states[s].trans, w, spec, abase, &payload);
      continue;
    }
    case OP_RECEIVE: { /* block until an event of table imm arrives */
      if (f->spec == 2) RUNTIME("an explorer cannot receive");
      uint16_t t;
      FETCH_U16(t);
      if (f->spec) RUNTIME("a spec cannot receive");
      WMachine *m = &vm->ms[f->who];
      m->h.flags |= MF_RECEIVE;
      m->h.recv = t;
      note(vm, VE_BLOCK, f->who, t, 0, m->h.state, 0, val_null());
      if (vm->log) {
        Buf eb;
        buf_init(&eb);
        const BcRecv *r = &P->recvs[t];
        for (uint16_t i = 0; i < r->ncases; i++)
          buf_printf(&eb, "%s'%s'", i ? ", " : "", cb_event(vm, r->cases[i].event));
        logf_(vm, "<ReceiveLog> '%s' waits to receive %s in state '%s'.", mname(vm, f->who), eb.data,
              state_name(vm, m));
        buf_fini(&eb);
      }
      SUSPEND_HERE();
    }
    case OP_ASSERT: { /* pop message if imm, then a bool */
      uint8_t has = FETCH_U8();
      Value msg = has ? pop(vm) : val_null();
      Value c = pop(vm);
      if (!c.u.i) {
        f->pc = pc;
        if (has) {
          uint32_t n;
          const char *s = val_str(&msg, &n);
          set_bug_at(vm, VM_BUG_ASSERT, f, "assertion failed: %.*s", (int)n, s);
        } else {
          set_bug_at(vm, VM_BUG_ASSERT, f, "assertion failed");
        }
        return R_BUG;
      }
      break;
    }
    case OP_PRINT: { /* log a string */
      Value s = pop(vm);
      uint32_t n;
      const char *t = val_str(&s, &n);
      logf_(vm, "<PrintLog> %.*s", (int)n, t);
      note(vm, VE_PRINT, f->who, 0, 0, 0, f->spec, s);
      break;
    }
    case OP_EXIT_STATE: { /* call the current state's exit function */
      f->pc = pc;
      WMachine *m = who(vm, f);
      const BcState *st = &P->machines[m->h.type].states[m->h.state];
      if (st->exit >= 0) push_frame(vm, (uint32_t)st->exit, f->who, f->spec, f->base, &(Value){0});
      continue;
    }
    case OP_SET_STATE: { /* make state imm current */
      uint16_t s;
      FETCH_U16(s);
      WMachine *m = who(vm, f);
      m->h.state = s;
      note(vm, VE_STATE, f->who, 0, 0, s, f->spec, val_null());
      if (f->spec) {
        if (f->spec == 1 && P->machines[m->h.type].states[s].cold && f->who < 64) vm->cooled |= 1ull << f->who;
        logf_(vm, "<MonitorLog> %s enters %sstate '%s'.", P->machines[m->h.type].name,
              P->machines[m->h.type].states[s].hot ? "hot " : "", P->machines[m->h.type].states[s].name);
      } else
        logf_(vm, "<StateLog> '%s' enters state '%s'.", mname(vm, f->who), P->machines[m->h.type].states[s].name);
      break;
    }
    case OP_ENTER: { /* call state imm's entry with the payload */
      uint16_t s;
      FETCH_U16(s);
      Value payload = pop(vm);
      f->pc = pc;
      WMachine *m = who(vm, f);
      const BcState *st = &P->machines[m->h.type].states[s];
      if (st->entry >= 0) push_frame(vm, (uint32_t)st->entry, f->who, f->spec, f->base, &payload);
      continue;
    }
    default:
      abort();   /* bad opcode: the compiler never emits one */
    }
    f->pc = pc;
  }
}

/* ---------------------------------------------------------------------- */
/* Enabledness.                                                            */

/* Does receive table rv have a case for event ev? */
static int recv_takes(const BcRecv *rv, uint32_t ev) {
  for (uint16_t c = 0; c < rv->ncases; c++) if (rv->cases[c].event == ev) return 1;
  return 0;
}

/* Would a dequeue in machine m (decoded or not) find something to do? */
static int can_dequeue(Vm *vm, WMachine *m) {
  MachHdr h;
  const BcState *st;
  if (m->decoded) h = m->h; else memcpy(&h, m->orig, sizeof h);
  if (h.flags & MF_HALTED) return 0;
  if (h.flags & (MF_RUNNING | MF_START | MF_RAISED)) return 1;
  const BcMachine *bm = &vm->p->machines[h.type];
  st = &bm->states[h.state];
  const BcRecv *rv = (h.flags & MF_RECEIVE) ? &vm->p->recvs[h.recv] : NULL;
  if (!rv && (st->handlers[vm->p->nevents].kind == BH_DO || st->handlers[vm->p->nevents].kind == BH_GOTO)) return 1;
  if (h.ninbox == 0) return 0;
  if (m->decoded) {
    for (uint32_t i = 0; i < h.ninbox; i++) {
      uint32_t ev = m->inbox[i].event;
      if (rv) {
        if (ev == BC_HALT || recv_takes(rv, ev)) return 1;
      } else if (st->handlers[ev].kind != BH_DEFER) {
        return 1;
      }
    }
    return 0;
  }
  uint32_t at = h.inbox_off;
  for (uint32_t i = 0; i < h.ninbox; i++) {
    uint32_t ev = rd32(m->orig + at);
    if (rv) {
      if (ev == BC_HALT || recv_takes(rv, ev)) return 1;
    } else if (ev < vm->p->nevents && st->handlers[ev].kind != BH_DEFER) {
      return 1;
    }
    at += 4;
    at += (uint32_t)val_skip(m->orig + at);
  }
  return 0;
}

/* ---------------------------------------------------------------------- */
/* The API.                                                                */

Vm *vm_new(const BcProgram *p, const VmTest *test) {
  Vm *vm = xcalloc(1, sizeof *vm);
  vm->p = p;
  vm->t = *test;
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
  vm->names.event_name = cb_event;
  vm->names.machine_name = cb_machine;
  vm->names.enum_member = cb_enum;
  vm->names.field_name = cb_field;
  return vm;
}

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
  free(vm->offtab);
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

const char *vm_value_text(Vm *vm, const Value *v) {
  Buf b;
  buf_init(&b);
  val_print(&b, v, &vm->names);
  char *s = arena_strdup(vm->va.arena, b.data ? b.data : "");
  buf_fini(&b);
  return s;
}

const char *vm_machine_text(Vm *vm, uint32_t id) { return mname(vm, id); }

static void begin(Vm *vm) {
  valarena_reset(&vm->va);
  vm->nevents = 0;
  vm->nfr = vm->nstack = vm->nlocals = 0;
  vm->have_choice = 0;
  vm->halted_now = 0;
  vm->cooled = 0;
  vm->bug.status = VM_OK;
}

VmStatus vm_initial(Vm *vm, Buf *out) {
  begin(vm);
  vm->pinned = 0;
  memset(&vm->hdr, 0, sizeof vm->hdr);
  vm->nms = 0;
  vm->nspecs = vm->t.nspecs;
  for (uint16_t i = 0; i < vm->nspecs; i++) {
    uint32_t idx = i;
    new_record(vm, vm->t.specs[i], 1, &idx);
  }
  for (uint16_t i = 0; i < vm->nspecs; i++) {
    WMachine *s = &vm->sp[i];
    const BcMachine *bm = &vm->p->machines[s->h.type];
    const BcState *st = &bm->states[s->h.state];
    logf_(vm, "<MonitorLog> %s enters %sstate '%s'.", bm->name, st->hot ? "hot " : "", st->name);
    if (st->entry >= 0) {
      push_frame(vm, (uint32_t)st->entry, i, 1, UINT32_MAX, &(Value){0});
      if (run(vm, 0) != R_DONE) return vm->bug.status ? vm->bug.status : VM_BUG_RUNTIME;
    }
  }
  uint32_t id;
  WMachine *m = new_record(vm, vm->t.main, 0, &id);
  m->h.flags = MF_START;
  m->h.iface = vm->p->machines[vm->t.main].iface;
  m->pend_payload = val_null();
  logf_(vm, "<CreateLog> '%s' was created by the test harness.", mname(vm, id));
  note(vm, VE_CREATE, id, UINT32_MAX, 0, 0, 0, val_null());
  out->len = 0;
  write_state(vm, out, 0);
  return VM_OK;
}

/* Append to out->ids the machines of the loaded State that can run. */
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

VmStatus vm_choices(Vm *vm, const uint8_t *s, size_t len, VmChoices *out) {
  begin(vm);
  out->n = 0;
  out->kind = VC_NONE;
  if (!load(vm, s, len)) return VM_BAD_STATE;
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
  for (uint32_t i = 0; i < vm->nms; i++) {
    MachHdr h;
    memcpy(&h, vm->ms[i].orig, sizeof h);
    if (h.flags & MF_RECEIVE) {
      set_bug_at(vm, VM_BUG_DEADLOCK, NULL, "no machine can run, and '%s' waits in receive",
                 mname(vm, i));
      return VM_BUG_DEADLOCK;
    }
  }
  for (uint16_t i = 0; i < vm->nspecs; i++) {
    MachHdr h;
    memcpy(&h, vm->sp[i].orig, sizeof h);
    const BcMachine *bm = &vm->p->machines[h.type];
    if (bm->states[h.state].hot) {
      set_bug_at(vm, VM_BUG_HOT, NULL, "the system is quiescent and spec '%s' is in hot state '%s'",
                 bm->name, bm->states[h.state].name);
      return VM_BUG_HOT;
    }
  }
  return VM_OK;
}

VmStatus vm_enabled(Vm *vm, const uint8_t *s, size_t len, VmChoices *out) {
  begin(vm);
  vm->pinned = 0;
  out->n = 0;
  out->kind = VC_MACHINE;
  out->fair = 0;
  if (!load(vm, s, len)) return VM_BAD_STATE;
  out->nmachines = vm->nms;
  out->machine = vm->hdr.choice_kind ? vm->hdr.choice_machine : 0;
  add_enabled(vm, out);
  return VM_OK;
}

void vm_choices_fini(VmChoices *c) {
  free(c->ids);
  c->ids = NULL;
  c->n = c->cap = 0;
}

/* Start whatever machine m does when scheduled and it is not resuming. */
static int start_machine(Vm *vm, uint32_t id) {
  WMachine *m = &vm->ms[id];
  const BcMachine *bm = &vm->p->machines[m->h.type];
  if (m->h.flags & MF_START) {
    m->h.flags &= (uint16_t)~MF_START;
    const BcState *st = &bm->states[m->h.state];
    logf_(vm, "<StateLog> '%s' enters state '%s'.", mname(vm, id), st->name);
    note(vm, VE_STATE, id, 0, 0, m->h.state, 0, val_null());
    if (st->entry >= 0) push_frame(vm, (uint32_t)st->entry, id, 0, UINT32_MAX, &m->pend_payload);
    m->pend_payload = val_null();
    return R_DONE;
  }
  if (m->h.flags & MF_RAISED) {
    m->h.flags &= (uint16_t)~MF_RAISED;
    return dispatch(vm, id, 0, m->pend_event, m->pend_payload, 0, 1);
  }
  const BcState *st = &bm->states[m->h.state];
  for (uint32_t i = 0; i < m->h.ninbox;) {
    uint32_t ev = m->inbox[i].event;
    uint8_t kind = st->handlers[ev].kind;
    if (kind == BH_IGNORE) { inbox_remove(m, i); continue; }
    if (kind == BH_DEFER) { i++; continue; }
    Value payload = m->inbox[i].payload;
    inbox_remove(m, i);
    logf_(vm, "<DequeueLog> '%s' dequeued event '%s' in state '%s'.", mname(vm, id), event_text(vm, ev, &payload),
          st->name);
    note(vm, VE_DEQUEUE, id, 0, ev, m->h.state, 0, payload);
    return dispatch(vm, id, 0, ev, payload, 0, 0);
  }
  uint8_t nk = st->handlers[vm->p->nevents].kind;
  if (nk == BH_DO || nk == BH_GOTO) {
    logf_(vm, "<DequeueLog> '%s' runs its null handler in state '%s'.", mname(vm, id), st->name);
    return dispatch(vm, id, 0, vm->p->nevents, val_null(), 0, 0);
  }
  return R_DONE;
}

/* Resume a machine blocked in receive: take the first matching event
** (halt always matches, as in P). */
static int resume_receive(Vm *vm, uint32_t id) {
  WMachine *m = &vm->ms[id];
  const BcRecv *rv = &vm->p->recvs[m->h.recv];
  m->h.flags &= (uint16_t)~MF_RECEIVE;
  restore_frames(vm, m, id);
  Frame *f = &vm->fr[vm->nfr - 1];
  for (uint32_t i = 0; i < m->h.ninbox; i++) {
    if (m->inbox[i].event == BC_HALT && !recv_takes(rv, BC_HALT)) {
      /* P: halt always wakes a receive; the handler is abandoned and the
      ** halt handled in the current state (on halt, else exit and halt). */
      inbox_remove(m, i);
      logf_(vm, "<ReceiveLog> '%s' received event 'halt' in state '%s'.", mname(vm, id), state_name(vm, m));
      note(vm, VE_RECEIVE, id, 0, BC_HALT, m->h.state, 0, val_null());
      Frame *b0 = &vm->fr[0];
      vm->nstack = b0->sbase;
      vm->nlocals = b0->lbase;
      vm->nfr = 0;
      return dispatch(vm, id, 0, BC_HALT, val_null(), 0, 1);
    }
    for (uint16_t c = 0; c < rv->ncases; c++) {
      if (rv->cases[c].event != m->inbox[i].event) continue;
      Value payload = m->inbox[i].payload;
      uint32_t ev = m->inbox[i].event;
      inbox_remove(m, i);
      logf_(vm, "<ReceiveLog> '%s' received event '%s' in state '%s'.", mname(vm, id), event_text(vm, ev, &payload),
            state_name(vm, m));
      note(vm, VE_RECEIVE, id, 0, ev, m->h.state, 0, payload);
      if (rv->cases[c].slot >= 0) vm->locals[f->lbase + (uint32_t)rv->cases[c].slot] = payload;
      f->pc = rv->cases[c].pc;
      return R_DONE;
    }
  }
  return R_DONE;   /* not enabled: the caller checked */
}

static VmStatus step_loaded(Vm *vm, size_t len, uint32_t choice, Buf *out);

VmStatus vm_step(Vm *vm, const uint8_t *s, size_t len, uint32_t choice, Buf *out) {
  out->len = 0;
  return vm_step_append(vm, s, len, choice, out);
}

VmStatus vm_step_append(Vm *vm, const uint8_t *s, size_t len, uint32_t choice, Buf *out) {
  begin(vm);
  if (!load(vm, s, len)) return VM_BAD_STATE;
  return step_loaded(vm, len, choice, out);
}

VmStatus vm_step_expand(Vm *vm, const uint8_t *s, size_t len, uint32_t choice, Buf *out) {
  if (!vm->pinned || s != vm->pin_s || len != vm->pin_len) return vm_step_append(vm, s, len, choice, out);
  begin(vm);
  reload(vm);
  return step_loaded(vm, len, choice, out);
}

/* Step the loaded State (len bytes) by choice; append the successor to out. */
static VmStatus step_loaded(Vm *vm, size_t len, uint32_t choice, Buf *out) {
  uint32_t id;
  int r = R_DONE;
  if (vm->hdr.choice_kind) {
    if (choice >= vm->hdr.choice_n) return VM_BAD_STATE;
    id = vm->hdr.choice_machine;
    WMachine *m = &vm->ms[id];
    decode(vm, m);
    m->h.flags &= (uint16_t)~MF_RUNNING;
    restore_frames(vm, m, id);
    vm->have_choice = 1;
    vm->choice_val = choice;
    vm->hdr.choice_kind = 0;
    vm->hdr.choice_n = vm->hdr.choice_machine = 0;
  } else {
    if (choice >= vm->nms || !can_dequeue(vm, &vm->ms[choice])) return VM_BAD_STATE;
    id = choice;
    WMachine *m = &vm->ms[id];
    decode(vm, m);
    if (m->h.flags & MF_RUNNING) {
      m->h.flags &= (uint16_t)~MF_RUNNING;
      restore_frames(vm, m, id);
    } else if (m->h.flags & MF_RECEIVE) {
      r = resume_receive(vm, id);
    } else {
      r = start_machine(vm, id);
    }
  }
  if (r == R_DONE && vm->nfr) r = run(vm, 0);
  if (r == R_BUG) return vm->bug.status;
  WMachine *m = &vm->ms[id];
  if (r == R_DONE && (m->h.flags & MF_HALTING) && !(m->h.flags & MF_HALTED)) halt_machine(vm, m, id);
  /* A scenario that entered a cold state in this step is covered. */
  uint64_t hit = vm->cooled & vm->t.scenario_mask;
  if (hit && (__atomic_load_n(vm->t.scenario_hit, __ATOMIC_RELAXED) & hit) != hit)
    __atomic_fetch_or(vm->t.scenario_hit, hit, __ATOMIC_RELAXED);
  if (r == R_SUSPEND && !(m->h.flags & MF_HALTED)) {
    save_frames(vm, m);
    if (!(m->h.flags & MF_RECEIVE)) m->h.flags |= MF_RUNNING;
  } else {
    m->h.nframes = 0;
    m->frames = NULL;
    m->frames_len = 0;
  }
  write_state(vm, out, len);
  return VM_OK;
}

uint64_t vm_hot_specs(Vm *vm, const uint8_t *s, size_t len) {
  StateHdr h;
  if (len < sizeof h) return 0;
  memcpy(&h, s, sizeof h);
  uint64_t mask = 0;
  const uint8_t *offs = s + sizeof(StateHdr);
  for (uint16_t i = 0; i < h.nspecs && i < 64; i++) {
    MachHdr mh;
    memcpy(&mh, s + rd32(offs + 4 * i), sizeof mh);
    if (vm->p->machines[mh.type].states[mh.state].hot) mask |= 1ull << i;
  }
  return mask;
}

uint64_t vm_cooled_specs(const Vm *vm) { return vm->cooled; }

const char *vm_spec_name(const Vm *vm, uint16_t k) {
  return k < vm->t.nspecs ? vm->p->machines[vm->t.specs[k]].name : "?";
}

int vm_state_valid(const Vm *vm_const, const uint8_t *s, size_t len) {
  Vm *vm = (Vm *)vm_const;
  if (!load(vm, s, len)) return 0;
  uint32_t nrec = (uint32_t)vm->nspecs + vm->nms;
  uint32_t expect = (uint32_t)(sizeof(StateHdr) + 4u * nrec);
  for (uint32_t i = 0; i < nrec; i++) {
    WMachine *m = i < vm->nspecs ? &vm->sp[i] : &vm->ms[i - vm->nspecs];
    if ((size_t)(m->orig - s) != expect) return 0;
    RecParts rp;
    if (!rec_parts(vm, m->orig, m->orig_len, &rp)) return 0;
    MachHdr h;
    memcpy(&h, m->orig, sizeof h);
    const BcMachine *bm = &vm->p->machines[h.type];
    if (h.state >= bm->nstates || (i < vm->nspecs) != (bm->is_spec != 0) || bm->is_explorer) return 0;
    if ((h.flags & MF_RECEIVE) && h.recv >= vm->p->nrecvs) return 0;
    expect += m->orig_len;
  }
  if (vm->hdr.choice_kind > 4) return 0;
  if (vm->hdr.choice_kind && (vm->hdr.choice_machine >= vm->nms || vm->hdr.choice_n == 0)) return 0;
  if (vm->hdr.choice_kind == 4 && vm->hdr.choice_n != 2) return 0;
  return expect == len;
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
  case VM_BAD_STATE: return "malformed state";
  }
  return "?";
}

/* ---------------------------------------------------------------------- */
/* Explorers: functions run over an explorer's own state bytes.           */

int vm_explorer_find(const BcProgram *p, const char *name) {
  for (uint16_t i = 0; i < p->nmachines; i++)
    if (p->machines[i].is_explorer && strcmp(p->machines[i].name, name) == 0) return i;
  return -1;
}

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

int32_t vm_explorer_handler(const BcProgram *p, uint16_t type, uint32_t ev) {
  const BcHandler *h = &p->machines[type].states[0].handlers[ev];
  return h->kind == BH_DO ? h->fun : -1;
}

void vm_explorer_init(Vm *vm, uint16_t type, uint64_t seed, Buf *out) {
  const BcMachine *bm = &vm->p->machines[type];
  out->len = 0;
  buf_append(out, &seed, 8);
  for (uint16_t i = 0; i < bm->nvars; i++) put_value(out, &bm->var_defaults[i]);
}

VmStatus vm_explorer_call(Vm *vm, uint16_t type, Buf *d, int32_t fun, const Value *args, uint32_t nargs, Value *ret) {
  begin(vm);
  const BcMachine *bm = &vm->p->machines[type];
  const BcFun *fn = &vm->p->funs[fun];
  if (!bm->is_explorer || fn->owner != type || fn->nparams != nargs || d->len < 8) {
    set_bug_at(vm, VM_BAD_STATE, NULL, "explorer call does not fit the program");
    return VM_BAD_STATE;
  }
  WMachine *x = &vm->ex;
  memset(x, 0, sizeof *x);
  x->decoded = 1;
  x->h.type = type;
  memcpy(&vm->ex_rng, d->data, 8);
  x->vars = valarena_alloc(&vm->va, (size_t)(bm->nvars ? bm->nvars : 1) * sizeof(Value));
  size_t at = 8;
  for (uint16_t i = 0; i < bm->nvars; i++) {
    size_t k = val_decode((const uint8_t *)d->data + at, d->len - at, &x->vars[i]);
    if (!k) {
      set_bug_at(vm, VM_BAD_STATE, NULL, "malformed explorer state");
      return VM_BAD_STATE;
    }
    at += k;
  }
  for (uint32_t i = 0; i < nargs; i++) push(vm, args[i]);
  push_frame(vm, (uint32_t)fun, 0, 2, UINT32_MAX, NULL);
  int r = run(vm, 0);
  if (r == R_SUSPEND) {
    set_bug_at(vm, VM_BUG_RUNTIME, NULL, "explorer '%s' reached a scheduling point", bm->name);
    return VM_BUG_RUNTIME;
  }
  if (r != R_DONE) return vm->bug.status ? vm->bug.status : VM_BUG_RUNTIME;
  if (ret) *ret = fn->has_result && vm->nstack ? vm->stack[vm->nstack - 1] : val_null();
  /* Write the state into scratch (values may point into d), then swap: the
  ** old bytes stay valid in ex_buf until the next call, as *ret may need. */
  Buf *o = &vm->ex_buf;
  o->len = 0;
  buf_append(o, &vm->ex_rng, 8);
  for (uint16_t i = 0; i < bm->nvars; i++) put_value(o, &x->vars[i]);
  Buf t = *d;
  *d = *o;
  *o = t;
  return VM_OK;
}
