/* vm_impl.h: what the VM's own files share and nothing outside vm/ sees:
** the Vm, the working form of a machine during a step (WMachine), frames,
** and the functions each file offers the others.  vm/state.c turns State
** bytes into working machines and back; vm/step.c holds the step
** semantics and the API of vm.h; vm/interp.c runs instructions. */
#ifndef PCHECK_VM_IMPL_H
#define PCHECK_VM_IMPL_H
#include <stddef.h>
#include <string.h>
#include "vm/vm.h"
#include "vm/state.h"

/* The header fields of a record (vm/state.h), decoded. */
typedef struct MachHdr {
  uint16_t type;         /* BcMachine index */
  uint16_t state;        /* current state */
  uint16_t flags;        /* MF_* */
  uint16_t nframes;      /* saved frames (known once the record is decoded; 0 before) */
  uint32_t ninbox;       /* inbox entries */
  uint16_t recv;         /* MF_RECEIVE: receive table; else 0 */
  uint16_t iface;        /* the interface it was created as (BcProgram.nifaces); 0 for specs */
} MachHdr;

/* The header of a State (vm/state.h), decoded. */
typedef struct StateHdr {
  uint16_t choice_kind;  /* 0 none; 1 bool; 2 int in [0,n); 3 element of a collection; 4 fair bool ($$) */
  uint32_t choice_machine; /* machine suspended at the data choice */
  uint32_t choice_n;     /* options of the pending data choice */
} StateHdr;

/* One inbox entry of a working machine. */
typedef struct InboxEntry {
  uint32_t event;
  Value payload;
} InboxEntry;

/* A machine or spec during a step. */
typedef struct WMachine {
  /* Set by vs_load, kept in one cache line (loading touches one per
  ** record).  decoded and nappended lie in different 8-byte words: the
  ** compiler reads them together when it can, and one load of bytes that
  ** separate stores just wrote stalls. */
  const uint8_t *orig;   /* its record in the input State, or NULL if new */
  uint32_t orig_len;     /* bytes of the record */
  uint8_t decoded;       /* the fields from vars on are authoritative */
  uint8_t pre;           /* bytes of the record's length before orig */
  uint8_t hdr_read;      /* h and body are valid: read them through vs_hdr, which reads them if not */
  uint32_t rec;          /* record index in the State (specs first) */
  /* A machine that is only sent to in a step is not decoded: the events go
  ** here and are appended to a copy of its record when the State is written. */
  uint32_t nappended, appended_cap;
  InboxEntry *appended;  /* scratch; nappended entries */
  uint32_t body;         /* hdr_read: where the inbox entries start in orig (after the header fields) */
  MachHdr h;             /* hdr_read: from orig (h.nframes: once decoded), then kept current */
  Value *vars;           /* h.type's nvars values (scratch) */
  uint32_t vars_at, vars_end; /* decoded: where the variables lie in orig */
  int vars_dirty;        /* a variable was assigned (else orig's bytes are reused) */
  uint32_t pend_event;   /* MF_START / MF_RAISED */
  Value pend_payload;
  const uint8_t *frames; /* saved frames, encoded (input State or scratch) */
  uint32_t frames_len;
  InboxEntry *inbox;     /* scratch; h.ninbox entries */
  uint32_t inbox_cap;
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
  uint64_t work;         /* instructions run since the call began (begin()) */
  uint64_t work_limit;   /* VmTest.max_step_instructions, or UINT64_MAX for none */
  uint64_t cooled;       /* bit k: spec k entered a cold state in this call (vm_cooled_specs) */
  uint64_t retemp;       /* bit k: spec k entered a state of another temperature than the one it left */
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
  StateHdr pin_hdr;      /* its header and machine count, as loaded */
  uint32_t pin_nms;
  uint32_t *touched;     /* record indexes decoded or sent to since the load */
  uint32_t ntouched, touched_cap;
  Buf frames_buf;        /* save_frames: scratch */
  VmFootprint foot;      /* what the current step did (vm_footprint) */
  uint8_t *cov_hit;      /* t.cov's marks, or NULL: coverage is not collected */
  uint32_t cov_asserts;  /* t.cov's first assert point */
};

/* What vm_run and the functions around it end in. */
enum { R_DONE, R_SUSPEND, R_BUG };

/* The machine or spec frame f runs for. */
static inline WMachine *vm_who(Vm *vm, const Frame *f) {
  return f->spec == 2 ? &vm->ex : f->spec ? &vm->sp[f->who] : &vm->ms[f->who];
}

/* ---- vm/state.c: State bytes <-> working machines ---- */
/* A uv (vm/state.h) at *p, which is advanced past it; from the VM's own
** bytes (well formed). */
static inline uint32_t vs_uv(const uint8_t **p) {
  const uint8_t *q = *p;
  uint32_t x = q[0] & 0x7f;
  for (unsigned sh = 7; *q++ & 0x80; sh += 7) x |= (uint32_t)(q[0] & 0x7f) << sh;
  *p = q;
  return x;
}
/* Read the header fields of record r, one the VM wrote, into *h; returns
** where its inbox entries start.  h->nframes is left 0: it comes after
** the values (vs_decode). */
static inline uint32_t vs_read_header(const uint8_t *r, MachHdr *h) {
  const uint8_t *p = r + 1;
  uint8_t flags = r[0];
  h->flags = (uint16_t)(flags & ~RF_INBOX);
  h->type = (uint16_t)vs_uv(&p);
  h->state = (uint16_t)vs_uv(&p);
  h->iface = (uint16_t)vs_uv(&p);
  h->recv = (flags & MF_RECEIVE) ? (uint16_t)vs_uv(&p) : 0;
  h->ninbox = (flags & RF_INBOX) ? vs_uv(&p) : 0;
  h->nframes = 0;
  return (uint32_t)(p - r);
}
/* The header fields of machine m: loading a State reads none of them, so
** that a step reads only those of the machines it looks at. */
static inline MachHdr *vs_hdr(WMachine *m) {
  if (__builtin_expect(!m->hdr_read, 0)) {
    m->body = vs_read_header(m->orig, &m->h);
    m->hdr_read = 1;
  }
  return &m->h;
}
/* The events in the inbox of undecoded record m, one by one: start at
** *p = m->orig + m->body and call m->h.ninbox times. */
static inline uint32_t vs_next_event(const uint8_t **p) {
  uint32_t ev = vs_uv(p);
  *p += val_skip(*p);
  return ev;
}
/* Set up the working machines of State s (len bytes; records not yet
** decoded); 0 if the header or the record table is malformed. */
int vs_load(Vm *vm, const uint8_t *s, size_t len);
/* Back to the State as vs_load left it (vm->pin_s), after a step on it. */
void vs_reload(Vm *vm);
/* Note that record m of the loaded State is no longer as vs_load left it. */
void vs_touch(Vm *vm, const WMachine *m);
/* Decode record m of the loaded State (variables, pending event, inbox);
** nothing if it is decoded already. */
void vs_decode(Vm *vm, WMachine *m);
/* Append v's encoding to b. */
void vs_put_value(Buf *b, const Value *v);
/* Append the working State to out; hint: the expected size in bytes. */
void vs_write(Vm *vm, Buf *out, size_t hint);
/* Encode the frames [0, nfr) of the running machine m into scratch bytes. */
void vs_save_frames(Vm *vm, WMachine *m);
/* Rebuild the VM's frames and stacks from machine id's saved frames. */
void vs_restore_frames(Vm *vm, WMachine *m, uint32_t id);
/* Room for n working machines in vm->ms. */
void vs_reserve_ms(Vm *vm, uint32_t n);
/* Add event ev with payload to the end of decoded m's inbox. */
void vs_enqueue(Vm *vm, WMachine *m, uint32_t ev, Value payload);

/* ---- vm/interp.c: the instruction loop ---- */
/* Run frames until the activation at `base` completes (R_DONE), the
** machine reaches a scheduling point (R_SUSPEND) or a bug (R_BUG). */
int vm_run(Vm *vm, uint32_t base);
/* Push a frame for function fid of `w`; its params come from the stack
** (nparams values) or, when arg is not NULL, from *arg. */
Frame *vm_push_frame(Vm *vm, uint32_t fid, uint32_t w, int spec, uint32_t base, const Value *arg);
/* Double the operand stack. */
void vm_grow_stack(Vm *vm);
static inline void vm_push(Vm *vm, Value v) {
  if (__builtin_expect(vm->nstack == vm->stack_cap, 0)) vm_grow_stack(vm);
  vm->stack[vm->nstack++] = v;
}

/* ---- vm/step.c: step semantics, logs, bugs ---- */
/* Record a VmEvent, if events are recorded. */
void vm_note(Vm *vm, VmEventKind k, uint32_t machine, uint32_t other, uint32_t ev, uint32_t state, int spec,
             Value payload);
/* Name of an event id ("null" for the null event). */
const char *vm_event_name(const void *ctx, uint32_t id);
/* Name of the current state of m. */
const char *vm_state_name(Vm *vm, WMachine *m);
/* An event with its payload, as P logs it: "eReq with payload (1, 2)". */
const char *vm_event_text(Vm *vm, uint32_t ev, const Value *payload);
void vm_log_line(Vm *vm, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Arguments of a log line are only evaluated when a log is wanted. */
#define logf_(vm, ...) do { if ((vm)->log) vm_log_line((vm), __VA_ARGS__); } while (0)
/* Set vm->bug, located at frame f's last instruction (f may be NULL). */
void vm_set_bug_at(Vm *vm, VmStatus st, const Frame *f, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/* The same, placed at src (a declaration: line 0 for none). */
void vm_set_bug_src(Vm *vm, VmStatus st, BcSrc src, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/* A new working machine (or spec *id_out) of type, with default variables. */
WMachine *vm_new_record(Vm *vm, uint16_t type, int spec, uint32_t *id_out);
/* Halt decoded machine m (id): its header fields alone stay (interp.c). */
void vm_halt_machine(Vm *vm, WMachine *m, uint32_t id);
/* The Vm's ValNames callbacks (text.c). */
void vm_names_init(Vm *vm);
/* Handle ev in w's current state: push the handler, ignore, halt, or R_BUG. */
int vm_dispatch(Vm *vm, uint32_t w, int spec, uint32_t ev, Value payload, uint32_t base, int raised);
/* Run the specs that observe ev sent or announced by a machine of interface from. */
int vm_observe(Vm *vm, uint32_t ev, Value payload, uint16_t from);

/* Coverage (vm.h, "Coverage"): mark point i reached.  Free when not
** collected; once reached, one relaxed load (no write contends between
** threads). */
static inline void vm_cov_mark(Vm *vm, uint32_t i) {
  if (vm->cov_hit && !__atomic_load_n(&vm->cov_hit[i], __ATOMIC_RELAXED))
    __atomic_store_n(&vm->cov_hit[i], 1, __ATOMIC_RELAXED);
}
/* Mark state `state` of machine or spec type `type` entered. */
static inline void vm_cov_mark_state(Vm *vm, uint16_t type, uint16_t state) {
  if (vm->cov_hit) vm_cov_mark(vm, vm_cov_state(vm->t.cov, type, state));
}
/* Mark event ev of kind k in state `state` of machine or spec type `type`. */
static inline void vm_cov_mark_event(Vm *vm, uint16_t type, VmCovKind k, uint16_t state, uint32_t ev) {
  if (vm->cov_hit) vm_cov_mark(vm, vm_cov_event(vm->t.cov, vm->p, type, k, state, ev));
}

#endif
