/* vm.h: the model's semantics as a pure function over State bytes.
** A State is one pointer-free buffer (layout in vm/state.h): equal program
** states are equal bytes.  vm_step(state, choice) computes the successor:
** it never draws a random number; the checker makes every choice.
** A Vm holds only scratch memory and may be used by one thread at a time;
** any number of Vms may step different States at once.
** Ownership: a Vm borrows its BcProgram; States are the caller's buffers. */
#ifndef PCHECK_VM_H
#define PCHECK_VM_H
#include <stddef.h>
#include <stdint.h>
#include "vm/bytecode.h"
#include "vm/util.h"
#include "vm/value.h"

/* What a step (or the initial state) ended in. */
typedef enum VmStatus {
  VM_OK = 0,             /* a new state */
  VM_BUG_ASSERT,         /* a failed assert, in a machine or a spec */
  VM_BUG_UNHANDLED,      /* an event no handler takes */
  VM_BUG_RUNTIME,        /* failed `as`, missing key, index out of range, ... */
  VM_BUG_DEADLOCK,       /* nothing can run while a machine waits in receive */
  VM_BUG_HOT,            /* quiescent with a spec in a hot state */
  VM_BUG_HOT_CYCLE,      /* a reachable cycle on which a spec stays hot (found by searches) */
  VM_BUG_HOT_TEMP,       /* a spec hot for more steps of one execution than a threshold (found by searches) */
  VM_BUG_ENDLESS,        /* a step ran more instructions than VmTest.max_step_instructions: a loop
                            that never ends (the bug's place is the instruction it had reached) */
  VM_BUG_INBOX,          /* a send would make an inbox longer than VmTest.max_inbox (with
                            VmTest.inbox_bug; without it, VM_LIMIT) */
  VM_BUG_MAX_STEPS,      /* an execution reached the sampling searches' bound on its steps without
                            ending, with --fail-on-maxsteps (found by searches, as P's checker does) */
  VM_LIMIT,              /* not a bug: the State, its machines or a collection would grow past a
                            limit of VmTest (searches stop there as at a bug; the CLI reports the
                            search as bounded, with the way there) */
  VM_BAD_STATE,          /* the State bytes or the choice do not fit the program */
} VmStatus;

/* The test case an execution runs: main machine, specs, param values. */
typedef struct VmTest {
  uint16_t main;         /* machine type created first */
  uint16_t nspecs;       /* specs attached, in this order */
  const uint16_t *specs; /* machine types of the specs */
  const Value *params;   /* value of each global param (BcProgram.nparams) */
  const uint16_t *bind;  /* per interface (BcProgram.nifaces): the machine type `new` of it creates,
                            BC_NO_MACHINE if none; NULL: each interface's own machine (iface_self) */
  const uint16_t *link;  /* per interface: the interface `new` of it creates (P's rename); NULL: itself */
  const uint8_t *const *spec_from; /* per spec (nspecs): NULL, or per interface whether the spec observes
                            sends and announcements of machines created as that interface; NULL: all */
  uint64_t scenario_mask; /* bit k: spec k is a scenario (P's coverage spec; specs past 63 not counted) */
  uint64_t *scenario_hit; /* shared by every Vm of the test: bit k set (atomically) once a step made
                            scenario k enter a cold state (it is covered); NULL without scenarios */
  const struct VmCov *cov; /* NULL, or the coverage points every Vm of the test marks (vm_cov_init) */
  void *priv;            /* the builder's bookkeeping (lang/codegen.c); the VM ignores it */
  /* Limits on what one step may do or make (0: none), so that a model that
  ** grows without end, or loops in a handler, is reported, not run until
  ** memory or patience runs out: */
  uint64_t max_step_instructions; /* instructions one step may run (VM_BUG_ENDLESS) */
  uint32_t max_inbox;    /* events one inbox may hold: past it VM_LIMIT (a bound of the search:
                            P's inboxes have none), or VM_BUG_INBOX with inbox_bug */
  uint8_t inbox_bug;     /* a send past max_inbox is a bug (--inbox-overflow-is-bug) */
  uint32_t max_machines; /* machines a State may hold (VM_LIMIT) */
  uint32_t max_collection; /* elements one seq, set or map may hold (VM_LIMIT) */
  uint64_t max_state_bytes; /* bytes of one State (VM_LIMIT) */
} VmTest;

/* The choices enabled in a state. */
typedef enum VmChoiceKind {
  VC_NONE = 0,           /* nothing enabled: the execution has ended */
  VC_MACHINE,            /* which machine runs next: ids[0..n) */
  VC_DATA,               /* a value for machine `machine`: options 0..n-1 */
} VmChoiceKind;

typedef struct VmChoices {
  VmChoiceKind kind;
  uint32_t n;            /* number of choices */
  uint32_t machine;      /* VC_DATA: the machine that is choosing */
  uint32_t *ids;         /* VC_MACHINE: enabled machine ids, ascending */
  uint32_t cap;          /* allocated ids */
  uint32_t nmachines;    /* machine records in the State (ids 0..nmachines-1, halted ones included) */
  uint8_t fair;          /* VC_DATA: the choice is a `$$` (strongly fair: options 0 = false, 1 = true) */
} VmChoices;

/* A bug: its kind, a message and where it happened. */
typedef struct VmBug {
  VmStatus status;
  char *message;         /* heap */
  const char *file;      /* source file, or NULL */
  uint32_t line, col;
} VmBug;

/* What a step did, for explorers and traces (vm_record_events). */
typedef enum VmEventKind {
  VE_CREATE,             /* machine created by `other` (UINT32_MAX: the test harness) */
  VE_SEND,               /* machine sent event (payload) to `other` */
  VE_DROP,               /* the send to halted machine `other` was dropped */
  VE_DEQUEUE,            /* machine dequeued event (payload) in state */
  VE_RAISE,              /* machine raised event */
  VE_STATE,              /* machine entered state */
  VE_HALT,               /* machine halted */
  VE_BLOCK,              /* machine waits in receive */
  VE_RECEIVE,            /* machine received event in receive */
  VE_MONITOR,            /* spec `spec` processed event */
  VE_ANNOUNCE,           /* machine announced event */
  VE_CHOICE,             /* machine chose payload at a data choice */
  VE_PRINT,              /* machine printed payload (a string) */
  VE_IGNORE,             /* machine dropped event from its inbox in state: the state ignores it (not in
                            traces: for trackers of inboxes, checker/observe/schedcov.c) */
} VmEventKind;

typedef struct VmEvent {
  VmEventKind kind;
  uint32_t machine;      /* the acting machine (spec events: the spec's index) */
  uint32_t other;        /* see VmEventKind */
  uint32_t event;        /* event id, where there is one */
  uint16_t state;        /* state, where there is one */
  uint16_t spec;         /* 1 when `machine` is a spec index */
  uint16_t type;         /* BcMachine index of the acting machine or spec */
  Value payload;         /* valid until the next call on this Vm */
  const char *file;      /* source location of the code that did it, or NULL */
  uint32_t line, col;
} VmEvent;

typedef struct Vm Vm;

Vm *vm_new(const BcProgram *p, const VmTest *test);
void vm_free(Vm *vm);
/* Append P-style log lines (<SendLog> ...) of every step to log; NULL stops. */
void vm_set_log(Vm *vm, Buf *log);
/* Record a VmEvent list of what each call did (off by default). */
void vm_record_events(Vm *vm, int on);
/* The events of the last vm_initial/vm_step (valid until the next call). */
const VmEvent *vm_events(const Vm *vm, uint32_t *n);
/* Write the initial State of the test case into out (replacing its
** contents).  Runs the specs' start entries.  VM_OK or a bug. */
VmStatus vm_initial(Vm *vm, Buf *out);
/* The choices enabled in state s.  Returns VM_OK, VM_BAD_STATE, or, when
** nothing is enabled, VM_BUG_DEADLOCK / VM_BUG_HOT if the end is a bug. */
VmStatus vm_choices(Vm *vm, const uint8_t *s, size_t len, VmChoices *out);
/* The machines that can run in State s, as vm_choices lists them at a
** machine choice (out->kind VC_MACHINE, ids ascending, out->nmachines set),
** also while a data choice is pending: then they are the machines that
** would be enabled were it not for the handler in progress, the choosing
** machine (out->machine) among them.  For fairness, not for stepping: the
** next vm_step_expand on this Vm starts afresh.  VM_OK or VM_BAD_STATE. */
VmStatus vm_enabled(Vm *vm, const uint8_t *s, size_t len, VmChoices *out);
/* Step s by `choice` (a machine id for VC_MACHINE, an option index for
** VC_DATA) and write the successor into out.  Returns VM_OK or a bug. */
VmStatus vm_step(Vm *vm, const uint8_t *s, size_t len, uint32_t choice, Buf *out);
/* The same, but the successor is added at the end of out, after what it
** holds (s must not point into out).  On a bug out is left as it was. */
VmStatus vm_step_append(Vm *vm, const uint8_t *s, size_t len, uint32_t choice, Buf *out);
/* vm_step_append for a search expanding State s: when s is the State the
** last vm_choices call on this Vm was given, still at the same address
** with the same bytes, and only vm_step_expand calls on it came between,
** the step starts from the State as vm_choices loaded it instead of
** loading it again.  With any other s it is vm_step_append. */
VmStatus vm_step_expand(Vm *vm, const uint8_t *s, size_t len, uint32_t choice, Buf *out);
/* The bug of the last call that returned one (valid until the next call). */
const VmBug *vm_bug(const Vm *vm);
/* Text of a value for logs and traces (names resolved against the State
** of the last call); valid until the next call. */
const char *vm_value_text(Vm *vm, const Value *v);
/* Name of machine id as logs show it, e.g. "Client(2)" (valid until the next call). */
const char *vm_machine_text(Vm *vm, uint32_t id);
/* Bit k set when spec k of the test is in a hot state in State s (specs
** past 63 are not reported). */
uint64_t vm_hot_specs(Vm *vm, const uint8_t *s, size_t len);
/* Bit k set when spec k is in a cold state in State s (specs past 63 are
** not reported).  A spec in neither kind of state is "warm": P counts no
** temperature there, nor resets it (doc/liveness.md, section 2). */
uint64_t vm_cold_specs(Vm *vm, const uint8_t *s, size_t len);
/* Both at once (one reading of the specs' records): *hot as vm_hot_specs,
** *cold as vm_cold_specs. */
void vm_spec_temps(Vm *vm, const uint8_t *s, size_t len, uint64_t *hot, uint64_t *cold);
/* The state spec k (below the test's nspecs) is in, in State s: its name,
** and where its declaration is (*file the program's path of it, NULL and
** *line 0 if unknown).  Strings borrowed from the program. */
void vm_spec_state(const Vm *vm, const uint8_t *s, size_t len, uint16_t k, const char **name, const char **file,
                   uint32_t *line);
/* Bit k set when spec k entered a cold state during the last vm_initial
** or vm_step* call on this Vm, even if it left it again in the same call
** (P resets a spec's liveness temperature there). */
uint64_t vm_cooled_specs(const Vm *vm);
/* Name of spec k of the test. */
const char *vm_spec_name(const Vm *vm, uint16_t k);
/* Check that s is a well-formed State of this program, in its one
** canonical encoding (vm/state.h), for bytes read from outside; 0 if not.
** The other functions taking State bytes trust them: give them only
** States the VM wrote or this function accepted. */
int vm_state_valid(const Vm *vm, const uint8_t *s, size_t len);
/* Describe the value of the last data choice (for <RandomLog>). */
void vm_choices_fini(VmChoices *c);
const char *vm_status_name(VmStatus s);

/* ---- Coverage (checker/observe/coverage.c reads it; doc/coverage.md) ----
** What steps reach is marked in one byte array shared by every Vm of a
** test: byte i is set to 1 (a relaxed atomic store, after a load finds it
** 0) the first time a step reaches point i, and never cleared, so a point
** costs one load once it is reached.  The points of machine or spec type m,
** with S states and E = nevents + 1 event slots (the last one `null`),
** counted from base[m]:
**   0            a machine of the type was created (a spec: the test has it)
**   1 + s        state s was entered
**   1 + S + (k*S + s)*E + e
**                event e in state s, for each VmCovKind k
**   1 + S + K*S*E + s*S + t
**                a goto from state s to state t (K = VCOV_NKINDS)
** then, per receive table r, recv_base[r] + c: case c took an event; then,
** per assert a (BcProgram.asserts), asserts + a: it was evaluated. */
typedef enum VmCovKind {
  VCOV_HANDLED,          /* dequeued or raised, and taken by the state's do or goto handler; for a
                            spec, processed there */
  VCOV_RECEIVED,         /* taken by a `receive` while the machine was in the state */
  VCOV_DEFERRED,         /* passed over in the inbox because the state defers it */
  VCOV_IGNORED,          /* dropped because the state ignores it */
  VCOV_SENT,             /* sent or raised by the machine (a spec: raised) while in the state */
  VCOV_NKINDS
} VmCovKind;

typedef struct VmCov {
  uint8_t *hit;          /* npoints bytes, 1: reached */
  uint32_t npoints;
  uint32_t *base;        /* per machine type (BcProgram.machines) */
  uint32_t *recv_base;   /* per receive table (BcProgram.recvs) */
  uint32_t asserts;      /* the first assert's point */
  uint32_t nevents;      /* E: BcProgram.nevents + 1 */
} VmCov;

/* Lay out the points of program p, all unreached: 0, or -1 (c zeroed) if
** there would be more than 2^32 of them. */
int vm_cov_init(VmCov *c, const BcProgram *p);
void vm_cov_fini(VmCov *c);
/* The point of state s of type m being entered, of event e in state s for
** kind k, and of a goto from s to t. */
static inline uint32_t vm_cov_state(const VmCov *c, uint16_t m, uint16_t s) { return c->base[m] + 1 + s; }
static inline uint32_t vm_cov_event(const VmCov *c, const BcProgram *p, uint16_t m, VmCovKind k, uint16_t s,
                                    uint32_t e) {
  uint32_t S = p->machines[m].nstates;
  return c->base[m] + 1 + S + ((uint32_t)k * S + s) * c->nevents + e;
}
static inline uint32_t vm_cov_goto(const VmCov *c, const BcProgram *p, uint16_t m, uint16_t s, uint16_t t) {
  uint32_t S = p->machines[m].nstates;
  return c->base[m] + 1 + S + VCOV_NKINDS * S * c->nevents + (uint32_t)s * S + t;
}

/* ---- For partial-order reduction (checker/engine/reduce.c; doc/reduction.md) ---- */

/* What the last vm_step* call did that another machine or a spec could
** notice.  A machine step ends at its first send or creation, so it
** appends to at most one inbox. */
typedef struct VmFootprint {
  uint32_t machine;      /* the machine that ran (VC_DATA steps: the one choosing) */
  uint32_t target;       /* the machine whose inbox the step sent to (even if halted), or UINT32_MAX */
  uint64_t specs;        /* bit k: spec k processed an event in the step (specs past 63: bit 63) */
  uint8_t created;       /* the step created a machine */
  uint8_t sensitive;     /* it looked at its inbox and took no event from it (a null handler ran, or
                            only ignored events were dropped): an event appended to that inbox
                            before the step would have changed what it did */
  uint8_t choice;        /* it ended at a data choice (the successor is a VC_DATA state) */
  uint8_t shrank;        /* it took an event out of its own inbox (dequeue, receive, an ignored event
                            dropped) or halted: under VmTest.max_inbox, a send to this machine that
                            would overflow before the step does not after it */
  uint64_t cooled;       /* bit k: spec k entered a cold state in the step (vm_cooled_specs) */
  uint64_t retemp;       /* bit k: spec k's temperature (hot, cold, or neither) changed in the step, or
                            it entered a cold state: what a liveness check sees (the rest of what a
                            spec does is ordered by dependence, checker/engine/reduce.c) */
} VmFootprint;

/* The footprint of the last vm_step* call on this Vm, meaningful when it
** returned VM_OK: every call that loads or runs a State (vm_choices,
** vm_enabled, vm_describe, a failed step) resets it, so read it first. */
const VmFootprint *vm_footprint(const Vm *vm);

/* vm_scan_machines calls this for each machine record (not specs), ids
** ascending, with its type and MF_* flags (vm/state.h); the record's
** values are scanned when it returns nonzero. */
typedef int (*VmRecordFn)(void *ctx, uint32_t id, uint16_t type, uint16_t flags);
/* Walk the machine records of State s (one the VM wrote): rec for each,
** then, if it asks, held for every machine id and event id the record
** holds as a value (variables, inbox payloads, a pending payload, locals
** and operands of saved frames; not the event ids of inbox entries). */
void vm_scan_machines(const Vm *vm, const uint8_t *s, size_t len, VmRecordFn rec, ValIdFn held, void *ctx);

/* The local state of one record, for vm_local_states: index counts the
** test's specs first (0 .. nspecs-1), then the machines by id. */
typedef void (*VmLocalFn)(void *ctx, uint32_t index, const uint8_t *bytes, size_t n);
/* Each record of State s (one the VM wrote) as the local state of its
** spec or machine: the record's bytes without its inbox (what others
** append to it is theirs), plus, for a machine suspended at a data choice,
** one byte: the choice's kind.  What partial-order reduction preserves
** (doc/reduction.md, "What is preserved"); scratch holds the bytes passed
** to fn, which are valid during the call only. */
void vm_local_states(const Vm *vm, const uint8_t *s, size_t len, Buf *scratch, VmLocalFn fn, void *ctx);

/* ---- For traces (checker/report/tracedoc.c) ---- */

/* One spec or machine of a State as a reader sees it.  Every string is
** valid until the next call on the Vm. */
typedef struct VmView {
  int spec;                  /* 1 for a spec of the test */
  uint32_t index;            /* spec index, or machine id */
  const char *name;          /* "Client(2)", or the spec's name */
  const char *type;          /* machine or spec type */
  const char *state;         /* current state */
  const char *status;        /* "halted", "receiving", "creating" (start entry not run yet), "raised EV",
                                "running" (stopped inside a handler), or "" (waiting for an event) */
  uint16_t nvars;            /* variables (0 for a halted machine) */
  const char *const *var_names;
  const char **var_values;   /* nvars texts */
  uint32_t ninbox;           /* inbox entries, oldest first */
  const char **inbox;        /* ninbox texts: "eReq with payload (1, 2)" */
} VmView;

typedef void (*VmViewFn)(void *ctx, const VmView *v);
/* Call fn for each spec of State s (a State the VM wrote), then each
** machine by id.  Resets the Vm's scratch (events of the last step are
** gone: read them first).  0, or -1 if s cannot be read. */
int vm_describe(Vm *vm, const uint8_t *s, size_t len, VmViewFn fn, void *ctx);

/* ---- Explorers (checker/engine/explorer.c; doc/explorers.md) ----
** An explorer declared in the model runs on a Vm of its own, over its
** state bytes: u64 random state, then its variables' encodings. */

/* The random numbers of `choose` and `$` in explorers (splitmix64): the
** draw among n is vm_explorer_random(&state) % n.  The native twins of the
** standard explorers use the same numbers. */
static inline uint64_t vm_explorer_random(uint64_t *x) {
  uint64_t z = (*x += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}
/* The BcMachine index of the explorer called name, or -1. */
int vm_explorer_find(const BcProgram *p, const char *name);
/* Function `fname` of explorer type, or -1. */
int32_t vm_explorer_fun(const BcProgram *p, uint16_t type, const char *fname);
/* The initial state of explorer type: random state seed, default variables. */
void vm_explorer_init(Vm *vm, uint16_t type, uint64_t seed, Buf *out);
/* Run function fun of the explorer (args: its parameters) over the state
** d, updating d in place; *ret gets the result (valid until the next call
** on this Vm), if ret is not NULL.  VM_OK, a bug (the explorer failed:
** vm_bug), or VM_BAD_STATE. */
VmStatus vm_explorer_call(Vm *vm, uint16_t type, Buf *d, int32_t fun, const Value *args, uint32_t nargs, Value *ret);
/* The explorer's handler of announced event ev, or -1 if it has none. */
int32_t vm_explorer_handler(const BcProgram *p, uint16_t type, uint32_t ev);

#endif
