/* explorer.c: delaying explorers behind one interface (explorer.h).
** Two implementations: explorers declared in the language, whose hooks
** run as bytecode on a Vm of their own (doc/explorers.md), and native twins
** of the standard library's rr, rtc and prr (the stdlib folder), which keep the
** same order of machines and draw the same random numbers, so they make
** exactly the same choices, only faster.  `--explorer-twin-check` runs a
** declared explorer and a twin in lockstep and fails at the first choice
** where they differ (tests/explorers.sh runs it on every model).
**
** A native state is: u64 random state, u32 last machine chosen, u32 count,
** then the machine order (u32 ids), highest priority first. */
#include <config.h>
#include "checker/engine/explorer.h"
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { HK_CREATE, HK_HALT, HK_SEND, HK_DEQUEUE, HK_BLOCK, HK_NEXT, HK_DELAY, HK__COUNT };
static const char *const hook_names[HK__COUNT] = { "OnCreate", "OnHalt", "OnSend", "OnDequeue", "OnBlock", "Next",
                                                   "Delay" };

struct Explorer {
  char *name;
  ExNative native;           /* the twin, or EXN_NONE */
  int hosted;                /* a declared explorer runs on evm */
  const BcProgram *bc;
  Vm *evm;                   /* the explorer's own Vm */
  uint16_t type;             /* its BcMachine index */
  int32_t hook[HK__COUNT];   /* function ids, -1 when not declared */
  ValArena va;               /* arguments */
  Buf err;
  Vm *names;                 /* the program's Vm, for machine names in messages */
  char tmp[32];
};

ExNative explorer_native_kind(const char *name) {
  if (strcmp(name, "rr") == 0) return EXN_RR;
  if (strcmp(name, "rtc") == 0) return EXN_RTC;
  if (strcmp(name, "prr") == 0) return EXN_PRR;
  return EXN_NONE;
}

static int fail(Explorer *x, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fail(Explorer *x, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  x->err.len = 0;
  buf_vprintf(&x->err, fmt, ap);
  va_end(ap);
  return -1;
}

const char *explorer_error(const Explorer *x) { return x->err.data ? x->err.data : "explorer failed"; }
const char *explorer_name(const Explorer *x) { return x->name; }
void explorer_set_names(Explorer *x, Vm *program_vm) { x->names = program_vm; }

/* A machine's name for messages (valid until the next call). */
static const char *mtext(Explorer *x, uint32_t id) {
  if (x->names) return vm_machine_text(x->names, id);
  if (x->evm) return vm_machine_text(x->evm, id);
  snprintf(x->tmp, sizeof x->tmp, "machine %u", id + 1);
  return x->tmp;
}

Explorer *explorer_new(const BcProgram *bc, const VmTest *test, const char *name, ExNative native, int twin_check,
                       Buf *err) {
  Explorer *x = xcalloc(1, sizeof *x);
  x->name = xstrdup(name);
  x->bc = bc;
  valarena_init(&x->va);
  if (native == EXN_NONE || twin_check) {
    int t = vm_explorer_find(bc, name);
    if (t < 0) {
      buf_printf(err, "the model declares no explorer '%s'", name);
      explorer_free(x);
      return NULL;
    }
    x->hosted = 1;
    x->type = (uint16_t)t;
    x->evm = vm_new(bc, test);
    for (int h = 0; h < HK__COUNT; h++) x->hook[h] = vm_explorer_fun(bc, x->type, hook_names[h]);
    if (x->hook[HK_NEXT] < 0 || x->hook[HK_DELAY] < 0) {
      buf_printf(err, "explorer '%s' has no Next or Delay function", name);
      explorer_free(x);
      return NULL;
    }
  }
  x->native = twin_check || !x->hosted ? native : EXN_NONE;
  return x;
}

void explorer_free(Explorer *x) {
  if (!x) return;
  vm_free(x->evm);
  valarena_fini(&x->va);
  buf_fini(&x->err);
  free(x->name);
  free(x);
}

/* ---------------------------------------------------------------------- */
/* Native twins.                                                           */

enum { NHDR = 16 };   /* u64 random state, u32 last, u32 count */

static uint32_t rd32(const uint8_t *p) { uint32_t v; memcpy(&v, p, 4); return v; }
static void wr32(uint8_t *p, uint32_t v) { memcpy(p, &v, 4); }
static uint32_t n_count(const Buf *d) { return rd32((const uint8_t *)d->data + 12); }
static uint32_t n_at(const Buf *d, uint32_t i) { return rd32((const uint8_t *)d->data + NHDR + 4 * i); }

static int64_t n_find(const Buf *d, uint32_t id) {
  uint32_t n = n_count(d);
  for (uint32_t i = 0; i < n; i++)
    if (n_at(d, i) == id) return i;
  return -1;
}

static void n_remove(Buf *d, uint32_t i) {
  uint8_t *p = (uint8_t *)d->data;
  uint32_t n = n_count(d);
  memmove(p + NHDR + 4 * i, p + NHDR + 4 * (i + 1), 4 * (n - i - 1));
  wr32(p + 12, n - 1);
  d->len -= 4;
}

static void n_insert(Buf *d, uint32_t i, uint32_t id) {
  uint32_t n = n_count(d);
  buf_append(d, &id, 4);
  uint8_t *p = (uint8_t *)d->data;
  memmove(p + NHDR + 4 * (i + 1), p + NHDR + 4 * i, 4 * (n - i));
  wr32(p + NHDR + 4 * i, id);
  wr32(p + 12, n + 1);
}

/* Move id to position `to` (0: the front, UINT32_MAX: the back), if
** present: the entries between shift by one, in place. */
static void n_move(Buf *d, uint32_t id, uint32_t to) {
  int64_t found = n_find(d, id);
  if (found < 0) return;
  uint32_t i = (uint32_t)found, n = n_count(d), j = to == UINT32_MAX || to >= n ? n - 1 : to;
  uint8_t *p = (uint8_t *)d->data + NHDR;
  if (j > i) memmove(p + 4 * i, p + 4 * (i + 1), 4 * (size_t)(j - i));
  else if (j < i) memmove(p + 4 * (j + 1), p + 4 * j, 4 * (size_t)(i - j));
  wr32(p + 4 * j, id);
}

static void n_init(Buf *d, uint64_t seed) {
  d->len = 0;
  buf_append(d, &seed, 8);
  uint32_t z[2] = { UINT32_MAX, 0 };
  buf_append(d, z, 8);
}

static void n_event(ExNative k, Buf *d, const VmEvent *e) {
  switch (e->kind) {
  case VE_CREATE: {
    uint32_t n = n_count(d), at = n;
    if (k == EXN_RTC) at = 0;
    else if (k == EXN_PRR) {
      uint64_t r;
      memcpy(&r, d->data, 8);
      at = (uint32_t)(vm_explorer_random(&r) % (n + 1));
      memcpy(d->data, &r, 8);
    }
    n_insert(d, at, e->machine);
    break;
  }
  case VE_HALT: {
    int64_t i = n_find(d, e->machine);
    if (i >= 0) n_remove(d, (uint32_t)i);
    break;
  }
  case VE_SEND: if (k == EXN_RTC) n_move(d, e->other, 0); break;
  case VE_BLOCK: if (k != EXN_RTC) n_move(d, e->machine, UINT32_MAX); break;
  default: break;
  }
}

static int contains(const uint32_t *ids, uint32_t n, uint32_t id) {
  uint32_t lo = 0, hi = n;   /* ids ascending */
  while (lo < hi) {
    uint32_t mid = lo + (hi - lo) / 2;
    if (ids[mid] == id) return 1;
    if (ids[mid] < id) lo = mid + 1;
    else hi = mid;
  }
  return 0;
}

static uint32_t n_next(Buf *d, const uint32_t *ids, uint32_t n) {
  uint32_t cnt = n_count(d), pick = ids[0];
  for (uint32_t i = 0; i < cnt; i++)
    if (contains(ids, n, n_at(d, i))) { pick = n_at(d, i); break; }
  wr32((uint8_t *)d->data + 8, pick);
  return pick;
}

static void n_delay(Buf *d) { n_move(d, rd32((const uint8_t *)d->data + 8), UINT32_MAX); }

/* ---------------------------------------------------------------------- */
/* Declared explorers, on the Vm.                                          */

static int h_call(Explorer *x, Buf *d, int32_t fun, const Value *args, uint32_t nargs, Value *ret) {
  VmStatus st = vm_explorer_call(x->evm, x->type, d, fun, args, nargs, ret);
  if (st == VM_OK) return 0;
  const VmBug *b = vm_bug(x->evm);
  if (b->file)
    return fail(x, "%s:%u:%u: explorer '%s' failed in %s: %s", b->file, b->line, b->col, x->name,
                x->bc->funs[fun].name, b->message);
  return fail(x, "explorer '%s' failed in %s: %s", x->name, x->bc->funs[fun].name, b->message ? b->message : "");
}

static int h_event(Explorer *x, Buf *d, const VmEvent *e) {
  Value a[3];
  int h = -1;
  uint32_t n = 0;
  switch (e->kind) {
  case VE_CREATE: h = HK_CREATE; a[0] = val_machine(e->machine); n = 1; break;
  case VE_HALT: h = HK_HALT; a[0] = val_machine(e->machine); n = 1; break;
  case VE_SEND:
    h = HK_SEND;
    a[0] = val_machine(e->machine);
    a[1] = val_machine(e->other);
    a[2] = val_event(e->event);
    n = 3;
    break;
  case VE_DEQUEUE: case VE_RECEIVE: h = HK_DEQUEUE; a[0] = val_machine(e->machine); a[1] = val_event(e->event); n = 2; break;
  case VE_BLOCK: h = HK_BLOCK; a[0] = val_machine(e->machine); n = 1; break;
  case VE_ANNOUNCE: {
    int32_t f = e->event < x->bc->nevents ? vm_explorer_handler(x->bc, x->type, e->event) : -1;
    if (f < 0) return 0;
    return h_call(x, d, f, &e->payload, x->bc->funs[f].nparams, NULL);
  }
  default: return 0;
  }
  return x->hook[h] < 0 ? 0 : h_call(x, d, x->hook[h], a, n, NULL);
}

static int h_next(Explorer *x, Buf *d, const uint32_t *ids, uint32_t n, uint32_t *out) {
  valarena_reset(&x->va);
  Value *el = valarena_alloc(&x->va, n * sizeof(Value));
  for (uint32_t i = 0; i < n; i++) el[i] = val_machine(ids[i]);
  Value set = val_set_from(&x->va, el, n), r;
  if (h_call(x, d, x->hook[HK_NEXT], &set, 1, &r) != 0) return -1;
  if (r.tag != VT_MACHINE || !contains(ids, n, (uint32_t)r.u.i)) {
    Buf b;
    buf_init(&b);
    for (uint32_t i = 0; i < n; i++) buf_printf(&b, "%s'%s'", i ? ", " : "", mtext(x, ids[i]));
    if (r.tag == VT_MACHINE)
      fail(x, "explorer '%s': Next returned '%s', which is not enabled (enabled: %s)", x->name,
           mtext(x, (uint32_t)r.u.i), b.data);
    else
      fail(x, "explorer '%s': Next returned %s, not a machine (enabled: %s)", x->name,
           r.tag == VT_NULL ? "null" : "a value of another type", b.data);
    buf_fini(&b);
    return -1;
  }
  *out = (uint32_t)r.u.i;
  return 0;
}

/* ---------------------------------------------------------------------- */
/* The interface.  With a twin check, d is: u32 length of the declared
** explorer's state, its bytes, then the twin's state. */

static void split(Explorer *x, Buf *d, Buf *h, Buf *n) {
  uint32_t hl = rd32((const uint8_t *)d->data);
  h->len = n->len = 0;
  buf_append(h, d->data + 4, hl);
  buf_append(n, d->data + 4 + hl, d->len - 4 - hl);
  (void)x;
}

static void join(Buf *d, const Buf *h, const Buf *n) {
  uint32_t hl = (uint32_t)h->len;
  d->len = 0;
  buf_append(d, &hl, 4);
  buf_append(d, h->data, h->len);
  buf_append(d, n->data, n->len);
}

static int twin(const Explorer *x) { return x->hosted && x->native != EXN_NONE; }

int ex_init(Explorer *x, uint64_t seed, const VmEvent *ev, uint32_t nev, Buf *d) {
  if (twin(x)) {
    Buf h, n;
    buf_init(&h);
    buf_init(&n);
    vm_explorer_init(x->evm, x->type, seed, &h);
    n_init(&n, seed);
    join(d, &h, &n);
    buf_fini(&h);
    buf_fini(&n);
  } else if (x->hosted) {
    vm_explorer_init(x->evm, x->type, seed, d);
  } else {
    n_init(d, seed);
  }
  return ex_step(x, d, ev, nev);
}

int ex_step(Explorer *x, Buf *d, const VmEvent *ev, uint32_t nev) {
  if (!x->hosted) {
    for (uint32_t i = 0; i < nev; i++) n_event(x->native, d, &ev[i]);
    return 0;
  }
  if (!twin(x)) {
    for (uint32_t i = 0; i < nev; i++)
      if (h_event(x, d, &ev[i]) != 0) return -1;
    return 0;
  }
  Buf h, n;
  buf_init(&h);
  buf_init(&n);
  split(x, d, &h, &n);
  int rc = 0;
  for (uint32_t i = 0; i < nev && rc == 0; i++) {
    rc = h_event(x, &h, &ev[i]);
    n_event(x->native, &n, &ev[i]);
  }
  join(d, &h, &n);
  buf_fini(&h);
  buf_fini(&n);
  return rc;
}

int ex_next(Explorer *x, Buf *d, const uint32_t *enabled, uint32_t n, uint32_t *out) {
  if (n == 0) return fail(x, "explorer '%s' asked to choose among no machines", x->name);
  if (!x->hosted) { *out = n_next(d, enabled, n); return 0; }
  if (!twin(x)) return h_next(x, d, enabled, n, out);
  Buf h, nb;
  buf_init(&h);
  buf_init(&nb);
  split(x, d, &h, &nb);
  int rc = h_next(x, &h, enabled, n, out);
  if (rc == 0) {
    uint32_t t = n_next(&nb, enabled, n);
    if (t != *out) {
      char *a = xstrdup(mtext(x, *out));
      rc = fail(x, "explorer '%s' chose '%s' but its native twin chose '%s'", x->name, a,
                mtext(x, t));
      free(a);
    }
  }
  join(d, &h, &nb);
  buf_fini(&h);
  buf_fini(&nb);
  return rc;
}

int ex_delay(Explorer *x, Buf *d) {
  if (!x->hosted) { n_delay(d); return 0; }
  if (!twin(x)) return h_call(x, d, x->hook[HK_DELAY], NULL, 0, NULL);
  Buf h, n;
  buf_init(&h);
  buf_init(&n);
  split(x, d, &h, &n);
  int rc = h_call(x, &h, x->hook[HK_DELAY], NULL, 0, NULL);
  n_delay(&n);
  join(d, &h, &n);
  buf_fini(&h);
  buf_fini(&n);
  return rc;
}
