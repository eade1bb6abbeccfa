/* state.c: State bytes and the working machines of a step.  vs_load sets
** up a State's records without decoding them; vs_decode decodes the ones a
** step touches; vs_write writes the successor, copying untouched records
** as bytes and encoding touched ones canonically.  Also the validation of
** State bytes from outside (vm_state_valid).  The layout is vm/state.h;
** what a step does with the machines is vm/step.c's. */
#include <config.h>
#include "vm/vm_impl.h"
#include <stdlib.h>
#include <string.h>

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

void vs_reserve_ms(Vm *vm, uint32_t n) {
  if (n <= vm->ms_cap) return;
  uint32_t cap = vm->ms_cap ? vm->ms_cap : 8;
  while (cap < n) cap *= 2;
  vm->ms = xrealloc(vm->ms, cap * sizeof(WMachine));
  vm->ms_cap = cap;
}

/* Set up the working machines of State s (records not yet decoded). */
int vs_load(Vm *vm, const uint8_t *s, size_t len) {
  if (len < sizeof(StateHdr)) return 0;
  memcpy(&vm->hdr, s, sizeof(StateHdr));
  StateHdr *h = &vm->hdr;
  uint64_t nrec = (uint64_t)h->nspecs + h->nmachines;
  if (h->size != len || h->nspecs != vm->t.nspecs || sizeof(StateHdr) + nrec * 4 > len) return 0;
  vm->nspecs = h->nspecs;
  vm->nms = h->nmachines;
  vm->pinned = 0;
  vm->ntouched = 0;
  vs_reserve_ms(vm, vm->nms + 1);
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
void vs_touch(Vm *vm, const WMachine *m) {
  if (vm->ntouched == vm->touched_cap) {
    vm->touched_cap = vm->touched_cap ? vm->touched_cap * 2 : 16;
    vm->touched = xrealloc(vm->touched, vm->touched_cap * sizeof(uint32_t));
  }
  vm->touched[vm->ntouched++] = m->rec;
}

/* Back to the State as load left it, after a step on it: the header and
** machine count from the bytes, the touched records undecoded. */
void vs_reload(Vm *vm) {
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

void vs_decode(Vm *vm, WMachine *m) {
  if (m->decoded) return;
  m->decoded = 1;
  vs_touch(vm, m);
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
  for (uint32_t i = 0; i < m->nappended; i++) vs_enqueue(vm, m, m->appended[i].event, m->appended[i].payload);
  m->nappended = 0;
}

/* ---------------------------------------------------------------------- */
/* Writing a State.                                                        */

void vs_put_value(Buf *b, const Value *v) {
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
      for (uint16_t i = 0; i < bm->nvars; i++) vs_put_value(b, &m->vars[i]);
    if (m->h.flags & (MF_START | MF_RAISED)) {
      buf_append_fast(b, &m->pend_event, 4);
      vs_put_value(b, &m->pend_payload);
    }
    if (m->h.nframes) buf_append_fast(b, m->frames, m->frames_len);
  }
  uint32_t inbox_off = (uint32_t)(b->len - start);
  memcpy(b->data + start + offsetof(MachHdr, inbox_off), &inbox_off, 4);
  if (!(m->h.flags & MF_HALTED)) {
    for (uint32_t i = 0; i < m->h.ninbox; i++) {
      buf_append_fast(b, &m->inbox[i].event, 4);
      vs_put_value(b, &m->inbox[i].payload);
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
    vs_put_value(b, &m->appended[i].payload);
  }
  uint32_t len = (uint32_t)(b->len - start), n;
  memcpy(&n, b->data + start + offsetof(MachHdr, ninbox), 4);
  n += m->nappended;
  memcpy(b->data + start, &len, 4);
  memcpy(b->data + start + offsetof(MachHdr, ninbox), &n, 4);
}

/* Append the State to out (offsets inside it count from its own start). */
void vs_write(Vm *vm, Buf *out, size_t hint) {
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

/* Encode frames [0, nfr) of the running machine into scratch bytes. */
void vs_save_frames(Vm *vm, WMachine *m) {
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
    for (uint32_t j = 0; j < fn->nlocals; j++) vs_put_value(&b, &vm->locals[f->lbase + j]);
    for (uint32_t j = f->sbase; j < send; j++) vs_put_value(&b, &vm->stack[j]);
  }
  uint8_t *p = valarena_alloc(&vm->va, b.len ? b.len : 1);
  if (b.len) memcpy(p, b.data, b.len);
  m->frames = p;
  m->frames_len = (uint32_t)b.len;
  m->h.nframes = (uint16_t)vm->nfr;
  vm->frames_buf = b;
}

/* Rebuild the VM stacks from a machine's saved frames. */
void vs_restore_frames(Vm *vm, WMachine *m, uint32_t id) {
  vm->nfr = vm->nstack = vm->nlocals = 0;
  const uint8_t *r = m->frames;
  uint32_t at = 0;
  for (uint16_t i = 0; i < m->h.nframes; i++) {
    uint16_t fun = rd16(r + at), nst = rd16(r + at + 2);
    uint32_t pc = rd32(r + at + 4);
    at += 8;
    Frame *f = vm_push_frame(vm, fun, id, 0, 0, &(Value){0});
    f->pc = pc;
    const BcFun *fn = &vm->p->funs[fun];
    for (uint32_t j = 0; j < fn->nlocals; j++)
      at += (uint32_t)val_load(r + at, &vm->locals[f->lbase + j]);
    for (uint32_t j = 0; j < nst; j++) {
      Value v;
      at += (uint32_t)val_load(r + at, &v);
      vm_push(vm, v);
    }
  }
  m->h.nframes = 0;
  m->frames = NULL;
  m->frames_len = 0;
}

/* ---------------------------------------------------------------------- */
/* Working inboxes.                                                        */

void vs_enqueue(Vm *vm, WMachine *m, uint32_t ev, Value payload) {
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

/* ---------------------------------------------------------------------- */
/* Reading and checking States from outside.                               */

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

int vm_state_valid(const Vm *vm_const, const uint8_t *s, size_t len) {
  Vm *vm = (Vm *)vm_const;
  if (!vs_load(vm, s, len)) return 0;
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
