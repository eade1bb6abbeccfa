/* reduce.c: persistent sets for P's steps (reduce.h; doc/reduction.md).
** Two parts.  Once per search, from the bytecode: for each machine type,
** what the code it can run (its own functions and every function they
** call) may do in any future step: the events it may send or announce
** (event constants in that code, and those of every type it may create,
** since a machine's descendants act on its behalf), whether it creates,
** whether it uses `this`, and whether any of its states has a null
** handler or ignores an event (its steps may then depend on what is
** appended to its inbox).  Per state, when no single step is local:
** which machines each machine may send to (the ids its record holds,
** closed under passing ids on in payloads), the closure of a candidate
** step under "may depend on", and the smallest resulting set.
** Machines are bitsets of 64: a state with more machines is not reduced. */
#include <config.h>
#include "checker/engine/reduce.h"
#include "vm/state.h"
#include <stdlib.h>
#include <string.h>

/* Per machine type (BcMachine index). */
typedef struct RedType {
  uint8_t uses_this;         /* its code reads `this` (so it may send its own id) */
  uint8_t creates;           /* its code (or a descendant's) creates machines */
  uint8_t sensitive;         /* a state of it has a null handler or ignores an event */
  uint64_t *ev;              /* nev_words words: events its code or a descendant's may send/announce */
} RedType;

struct Reduction {
  uint32_t nevents, nev_words;
  uint16_t ntypes;
  RedType *types;
  uint64_t *carry_m;         /* nev_words: events whose payload may hold machine ids */
  uint64_t *carry_e;         /* nev_words: events whose payload may hold event values */
  uint16_t nspecs;           /* the test's specs, at most 64 counted (spec 63 stands for the rest) */
  uint64_t *spec_obs;        /* per spec bit (min(nspecs, 64)): nev_words of events it observes */
  uint64_t visible;          /* spec bits whose observed steps force a full expansion */
  uint8_t inbox_bounded;     /* the test bounds inboxes: taking an event depends on sends to the taker */
};

static inline void bit_set(uint64_t *w, uint32_t i) { w[i >> 6] |= 1ull << (i & 63); }
static inline int bit_get(const uint64_t *w, uint32_t i) { return (int)(w[i >> 6] >> (i & 63)) & 1; }
static int words_meet(const uint64_t *a, const uint64_t *b, uint32_t n) {
  for (uint32_t i = 0; i < n; i++) if (a[i] & b[i]) return 1;
  return 0;
}
/* a |= b; 1 if a changed. */
static int words_or(uint64_t *a, const uint64_t *b, uint32_t n) {
  int ch = 0;
  for (uint32_t i = 0; i < n; i++) {
    uint64_t x = a[i] | b[i];
    ch |= x != a[i];
    a[i] = x;
  }
  return ch;
}

/* ---- The static part ---- */

/* What one function does directly (before following its calls). */
typedef struct FunInfo {
  uint8_t uses_this;
  uint32_t *calls, ncalls;   /* callee function indexes */
  uint16_t *news, nnews;     /* machine types it creates (under the test's bindings) */
} FunInfo;

typedef struct IdsCtx { uint64_t *ev; uint32_t nevents; } IdsCtx;
static void add_event_id(void *ctx, uint8_t tag, uint32_t id) {
  IdsCtx *c = ctx;
  if (tag == VT_EVENT && id < c->nevents) bit_set(c->ev, id);
}
/* Events inside value v (a scalar or an encoding). */
static void value_events(const Value *v, uint64_t *ev, uint32_t nevents) {
  IdsCtx c = { ev, nevents };
  if (v->tag == VT_EVENT) add_event_id(&c, VT_EVENT, (uint32_t)v->u.i);
  else if (val_is_compound(v)) val_ids(v->u.p, add_event_id, &c);
}

/* The machine type `new` of interface iface creates in this test (as OP_NEW
** decides), or BC_NO_MACHINE. */
static uint16_t new_type(const BcProgram *bc, const VmTest *t, uint16_t iface) {
  if (t->link) iface = t->link[iface];
  if (iface >= bc->nifaces) return BC_NO_MACHINE;
  return t->bind ? t->bind[iface] : bc->iface_self[iface];
}

/* Walk function f's instructions: events it pushes (into ev), what it
** calls, creates, and whether it reads `this`. */
static void scan_fun(const BcProgram *bc, const VmTest *t, const BcFun *f, FunInfo *fi, uint64_t *ev) {
  for (uint32_t pc = 0; pc < f->ncode;) {
    uint8_t op = f->code[pc];
    const uint8_t *imm = f->code + pc + 1;
    uint16_t a16;
    uint32_t a32;
    switch (op) {
    case OP_THIS: fi->uses_this = 1; break;
    case OP_PUSH_EVENT:
      memcpy(&a32, imm, 4);
      if (a32 < bc->nevents) bit_set(ev, a32);
      break;
    case OP_PUSH_CONST:
      memcpy(&a32, imm, 4);
      if (a32 < bc->nconsts) value_events(&bc->consts[a32], ev, bc->nevents);
      break;
    case OP_CALL:
      memcpy(&a16, imm, 2);
      fi->calls = xrealloc(fi->calls, (fi->ncalls + 1) * sizeof *fi->calls);
      fi->calls[fi->ncalls++] = a16;
      break;
    case OP_NEW: {
      memcpy(&a16, imm, 2);
      uint16_t ty = new_type(bc, t, a16);
      if (ty == BC_NO_MACHINE) break;
      fi->news = xrealloc(fi->news, (fi->nnews + 1) * sizeof *fi->news);
      fi->news[fi->nnews++] = ty;
      break;
    }
    default: break;
    }
    pc += 1 + (uint32_t)bc_operand_size((OperandKind)bc_op_operand[op]);
  }
  for (uint16_t i = 0; i < f->nlocals && f->local_defaults; i++) value_events(&f->local_defaults[i], ev, bc->nevents);
}

/* Functions type ty's code can reach: its own and all they call. */
static void reach_of(const BcProgram *bc, const FunInfo *fi, uint16_t ty, uint8_t *seen) {
  uint32_t *work = xmalloc((bc->nfuns + 1) * sizeof *work), n = 0;
  memset(seen, 0, bc->nfuns);
  for (uint32_t f = 0; f < bc->nfuns; f++)
    if (bc->funs[f].owner == ty) { seen[f] = 1; work[n++] = f; }
  while (n) {
    uint32_t f = work[--n];
    for (uint32_t k = 0; k < fi[f].ncalls; k++) {
      uint32_t g = fi[f].calls[k];
      if (g < bc->nfuns && !seen[g]) { seen[g] = 1; work[n++] = g; }
    }
  }
  free(work);
}

Reduction *red_new(const BcProgram *bc, const VmTest *test, uint64_t visible) {
  Reduction *r = xcalloc(1, sizeof *r);
  r->visible = visible;
  r->inbox_bounded = test->max_inbox != 0;
  r->nevents = bc->nevents;
  r->nev_words = (bc->nevents + 63) / 64;
  uint32_t W = r->nev_words;
  r->ntypes = bc->nmachines;
  r->types = xcalloc(bc->nmachines ? bc->nmachines : 1, sizeof *r->types);
  /* Direct facts per function, events per function. */
  FunInfo *fi = xcalloc(bc->nfuns ? bc->nfuns : 1, sizeof *fi);
  uint64_t *fev = xcalloc((size_t)(bc->nfuns ? bc->nfuns : 1) * W, 8);
  for (uint32_t f = 0; f < bc->nfuns; f++) scan_fun(bc, test, &bc->funs[f], &fi[f], fev + (size_t)f * W);
  uint64_t *pev = xcalloc(W, 8);   /* events in the test's params: any code can read them */
  for (uint16_t i = 0; i < bc->nparams; i++)
    value_events(test->params ? &test->params[i] : &bc->param_defaults[i], pev, bc->nevents);
  /* Per type: its code's reach; then its descendants' (creation closure). */
  uint8_t *seen = xmalloc(bc->nfuns ? bc->nfuns : 1);
  uint8_t *kids = xcalloc((size_t)bc->nmachines * bc->nmachines + 1, 1);   /* kids[a*n+b]: a creates b */
  for (uint16_t ty = 0; ty < bc->nmachines; ty++) {
    RedType *rt = &r->types[ty];
    const BcMachine *bm = &bc->machines[ty];
    rt->ev = xcalloc(W, 8);
    words_or(rt->ev, pev, W);
    for (uint16_t v = 0; v < bm->nvars; v++) value_events(&bm->var_defaults[v], rt->ev, bc->nevents);
    reach_of(bc, fi, ty, seen);
    for (uint32_t f = 0; f < bc->nfuns; f++) {
      if (!seen[f]) continue;
      words_or(rt->ev, fev + (size_t)f * W, W);
      rt->uses_this |= fi[f].uses_this;
      for (uint32_t k = 0; k < fi[f].nnews; k++) {
        rt->creates = 1;
        kids[(size_t)ty * bc->nmachines + fi[f].news[k]] = 1;
      }
    }
    for (uint16_t s = 0; s < bm->nstates; s++) {
      const BcState *st = &bm->states[s];
      uint8_t nk = st->handlers[bc->nevents].kind;
      if (nk == BH_DO || nk == BH_GOTO) rt->sensitive = 1;
      for (uint32_t e = 0; e < bc->nevents; e++) if (st->handlers[e].kind == BH_IGNORE) rt->sensitive = 1;
    }
  }
  /* A machine acts for its descendants: their events are its events.
  ** Transitive closure of kids, then fold the events up. */
  uint16_t n = bc->nmachines;
  for (uint16_t k = 0; k < n; k++)
    for (uint16_t a = 0; a < n; a++)
      if (kids[(size_t)a * n + k])
        for (uint16_t b = 0; b < n; b++) if (kids[(size_t)k * n + b]) kids[(size_t)a * n + b] = 1;
  uint64_t *own = xcalloc((size_t)(n ? n : 1) * W, 8);
  for (uint16_t a = 0; a < n; a++) memcpy(own + (size_t)a * W, r->types[a].ev, W * 8);
  for (uint16_t a = 0; a < n; a++)
    for (uint16_t b = 0; b < n; b++)
      if (kids[(size_t)a * n + b]) words_or(r->types[a].ev, own + (size_t)b * W, W);
  free(own);
  free(kids);
  free(seen);
  free(pev);
  for (uint32_t f = 0; f < bc->nfuns; f++) { free(fi[f].calls); free(fi[f].news); }
  free(fi);
  free(fev);
  /* Events by what their payloads may carry. */
  r->carry_m = xcalloc(W, 8);
  r->carry_e = xcalloc(W, 8);
  for (uint32_t e = 0; e < bc->nevents; e++) {
    uint8_t c = bc->event_carry ? bc->event_carry[e] : BC_CARRY_MACHINES | BC_CARRY_EVENTS;
    if (c & BC_CARRY_MACHINES) bit_set(r->carry_m, e);
    if (c & BC_CARRY_EVENTS) bit_set(r->carry_e, e);
  }
  /* Specs: what each observes (specs past 63 share bit 63, as footprints do). */
  r->nspecs = test->nspecs < 64 ? test->nspecs : 64;
  r->spec_obs = xcalloc((size_t)(r->nspecs ? r->nspecs : 1) * W, 8);
  for (uint16_t k = 0; k < test->nspecs; k++) {
    const BcMachine *sm = &bc->machines[test->specs[k]];
    uint64_t *o = r->spec_obs + (size_t)(k < 63 ? k : 63) * W;
    for (uint32_t e = 0; e < bc->nevents; e++) if (sm->observes && sm->observes[e]) bit_set(o, e);
  }
  return r;
}

int red_local(const Reduction *r, const VmFootprint *f) {
  return f->target == UINT32_MAX && !f->sensitive && !f->specs && !f->created && !f->choice &&
         !(f->shrank && r->inbox_bounded);
}

void red_free(Reduction *r) {
  if (!r) return;
  for (uint16_t i = 0; i < r->ntypes; i++) free(r->types[i].ev);
  free(r->types);
  free(r->carry_m);
  free(r->carry_e);
  free(r->spec_obs);
  free(r);
}

void red_scratch_fini(RedScratch *w) {
  free(w->ev);
  *w = (RedScratch){0};
}

/* ---- Per state ---- */

/* What the machines of one State may do, as bitsets over machine ids. */
typedef struct Know {
  const Reduction *r;
  uint64_t *ev;              /* per machine: events it may send or announce (nev_words each) */
  uint64_t know[64];         /* per machine: ids it may send to */
  uint16_t type[64];
  uint64_t live;             /* not halted */
} Know;

static int on_record(void *ctx, uint32_t id, uint16_t type, uint16_t flags) {
  Know *k = ctx;
  const RedType *rt = &k->r->types[type];
  k->type[id] = type;
  k->know[id] = rt->uses_this ? 1ull << id : 0;
  memcpy(k->ev + (size_t)id * k->r->nev_words, rt->ev, k->r->nev_words * 8);
  if (flags & MF_HALTED) return 0;
  k->live |= 1ull << id;
  return 1;
}

/* Scanning record `cur`: an id it holds. */
typedef struct HeldCtx { Know *k; uint32_t cur; } HeldCtx;
static void on_held(void *ctx, uint8_t tag, uint32_t id) {
  HeldCtx *h = ctx;
  if (tag == VT_MACHINE) { if (id < 64) h->k->know[h->cur] |= 1ull << id; }
  else if (id < h->k->r->nevents) bit_set(h->k->ev + (size_t)h->cur * h->k->r->nev_words, id);
}
static int on_record_held(void *ctx, uint32_t id, uint16_t type, uint16_t flags) {
  HeldCtx *h = ctx;
  h->cur = id;
  return on_record(h->k, id, type, flags);
}

/* Close know and ev under passing on: a machine that may send y an event
** whose payload may hold machine ids may tell y every id it knows (events
** likewise).  A machine that creates acts for its descendants, whose ids
** are new: whoever it may tell ids may learn one of theirs and then send
** to them, which counts as sending to the creator. */
static void close_knowledge(Know *k) {
  const Reduction *r = k->r;
  uint32_t W = r->nev_words;
  for (int changed = 1; changed;) {
    changed = 0;
    for (uint64_t xs = k->live; xs; xs &= xs - 1) {
      uint32_t x = (uint32_t)__builtin_ctzll(xs);
      const uint64_t *ex = k->ev + (size_t)x * W;
      int cm = words_meet(ex, r->carry_m, W), ce = words_meet(ex, r->carry_e, W);
      if (!cm && !ce) continue;
      uint64_t tell = k->know[x] | (cm && r->types[k->type[x]].creates ? 1ull << x : 0);
      for (uint64_t ys = k->know[x] & k->live & ~(1ull << x); ys; ys &= ys - 1) {
        uint32_t y = (uint32_t)__builtin_ctzll(ys);
        if (cm && (k->know[y] | tell) != k->know[y]) { k->know[y] |= tell; changed = 1; }
        if (ce && words_or(k->ev + (size_t)y * W, ex, W)) changed = 1;
      }
    }
  }
}

uint32_t red_select(const Reduction *r, RedScratch *w, const Vm *vm, const uint8_t *s, size_t len,
                    const VmChoices *ch, const VmFootprint *foot, uint8_t *sel) {
  memset(sel, 1, ch->n);
  if (ch->nmachines > 64) return ch->n;
  uint32_t W = r->nev_words;
  if (w->ev_cap < 64) {
    w->ev = xrealloc(w->ev, (size_t)64 * W * 8);
    w->ev_cap = 64;
  }
  Know k;
  memset(&k, 0, sizeof k);
  k.r = r;
  k.ev = w->ev;
  HeldCtx hc = { &k, 0 };
  vm_scan_machines(vm, s, len, on_record_held, on_held, &hc);
  close_knowledge(&k);
  /* The relations the closure needs, as bitsets over machines. */
  uint64_t senders_to[64], observers[64], creators = 0, sens = 0, enabled = 0;
  const VmFootprint *fo[64];
  memset(senders_to, 0, sizeof senders_to);
  memset(observers, 0, sizeof observers);
  for (uint64_t xs = k.live; xs; xs &= xs - 1) {
    uint32_t x = (uint32_t)__builtin_ctzll(xs);
    const RedType *rt = &r->types[k.type[x]];
    for (uint64_t ys = k.know[x]; ys; ys &= ys - 1) senders_to[__builtin_ctzll(ys)] |= 1ull << x;
    for (uint16_t b = 0; b < r->nspecs; b++)
      if (words_meet(k.ev + (size_t)x * W, r->spec_obs + (size_t)b * W, W)) observers[b] |= 1ull << x;
    if (rt->creates) creators |= 1ull << x;
    if (rt->sensitive) sens |= 1ull << x;
  }
  for (uint32_t j = 0; j < ch->n; j++) {
    enabled |= 1ull << ch->ids[j];
    fo[ch->ids[j]] = &foot[j];
  }
  /* The closure of each enabled machine's step; keep the smallest. */
  uint64_t best = enabled;
  int best_n = __builtin_popcountll(enabled);
  for (uint32_t j = 0; j < ch->n && best_n > 1; j++) {
    uint64_t M = 1ull << ch->ids[j], done = 0;
    while ((M & ~done) && __builtin_popcountll(M & enabled) < best_n) {
      uint32_t z = (uint32_t)__builtin_ctzll(M & ~done);
      done |= 1ull << z;
      if (!(enabled & (1ull << z))) {          /* disabled: whoever may enable it */
        if (k.live & (1ull << z)) M |= senders_to[z];
        continue;
      }
      const VmFootprint *f = fo[z];
      if (f->choice) { M = enabled; break; }   /* what it does after the choice is unknown */
      /* Visible (doc/reduction.md, "Liveness"): a step that changes the
      ** temperature of a spec with hot states is never reordered; the
      ** other steps a spec observes keep their order by dependence
      ** (observers, below). */
      if (f->retemp & r->visible) { M = enabled; break; }
      if (f->target < 64 && (k.live & (1ull << f->target))) {
        M |= senders_to[f->target];             /* appends to the same inbox */
        if (sens & (1ull << f->target)) M |= 1ull << f->target;   /* its steps may see the append */
      }
      if (f->sensitive || (f->shrank && r->inbox_bounded)) M |= senders_to[z];   /* sends to it */
      for (uint64_t b = f->specs; b; b &= b - 1) {
        uint32_t sb = (uint32_t)__builtin_ctzll(b);
        if (sb < r->nspecs) M |= observers[sb];
      }
      if (f->created) M |= creators;
    }
    int n = __builtin_popcountll(M & enabled);
    if (n < best_n) { best = M & enabled; best_n = n; }
  }
  if (best == enabled) return ch->n;
  for (uint32_t j = 0; j < ch->n; j++) sel[j] = (uint8_t)((best >> ch->ids[j]) & 1);
  return (uint32_t)best_n;
}
