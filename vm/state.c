/* state.c: State bytes and the working machines of a step.  vs_load finds
** a State's records (their header fields are read when first asked for:
** vs_hdr); vs_decode decodes the ones a step touches; vs_write writes the
** successor, copying untouched records as bytes and encoding touched ones.
** Also the validation of State bytes from outside (vm_state_valid), and
** the working State's new records and frames (vm_new_record,
** vm_push_frame).  The layout is vm/state.h; what a step does with the
** machines is vm/step.c's.  The lowest of the VM's layers: it calls no
** other file of the VM but value.c and util.c.
**
** Canonical bytes: each program state has one encoding, because every
** writer here emits the one form vm/state.h allows (shortest varints,
** sections exactly when their flag is set, flags derived from the data:
** RF_INBOX from the inbox count) and values come in their canonical
** encodings (vm/value.c).  Copying a record's bytes instead of encoding it
** again is therefore the same as encoding it: what was canonical stays so.
** vm_state_valid accepts nothing else, so bytes from outside that pass it
** are the encoding this VM would have written. */
#include <config.h>
#include "vm/vm_impl.h"
#include <assert.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------------- */
/* Varints.                                                               */

/* Read a uv at *p, before end, into *out and advance *p; 0 if it runs past
** end, is longer than it need be, or does not fit in 32 bits.  One byte
** inline; longer ones in uv_get_long. */
static int uv_get_long(const uint8_t **p, const uint8_t *end, uint32_t *out);
static inline int uv_get(const uint8_t **p, const uint8_t *end, uint32_t *out) {
  if (__builtin_expect(*p < end && **p < 0x80, 1)) { *out = *(*p)++; return 1; }
  return uv_get_long(p, end, out);
}

static __attribute__((noinline)) int uv_get_long(const uint8_t **p, const uint8_t *end, uint32_t *out) {
  const uint8_t *q = *p;
  uint64_t x = 0;
  for (unsigned sh = 0; sh < 35; sh += 7) {
    if (q == end) return 0;
    uint8_t b = *q++;
    x |= (uint64_t)(b & 0x7f) << sh;
    if (!(b & 0x80)) {
      if ((b == 0 && sh) || x > UINT32_MAX) return 0;   /* padded, or too large */
      *out = (uint32_t)x;
      *p = q;
      return 1;
    }
  }
  return 0;
}

/* Bytes of x as a uv. */
static unsigned uv_size(uint32_t x) { return x < 1u << 7 ? 1 : x < 1u << 14 ? 2 : x < 1u << 21 ? 3 : x < 1u << 28 ? 4 : 5; }

/* Write x as a uv at p; returns its size. */
static inline unsigned uv_put(uint8_t *p, uint32_t x) {
  if (x < 0x80) { p[0] = (uint8_t)x; return 1; }
  unsigned n = 0;
  while (x >= 0x80) { p[n++] = (uint8_t)(x | 0x80); x >>= 7; }
  p[n++] = (uint8_t)x;
  return n;
}

/* ---------------------------------------------------------------------- */
/* Loading a State.                                                        */

/* Doubling from 8; vm->ms may move, so WMachine pointers into it do not
** survive a call (vm_new_record's callers take them again). */
void vs_reserve_ms(Vm *vm, uint32_t n) {
  if (n <= vm->ms_cap) return;
  uint32_t cap = vm->ms_cap ? vm->ms_cap : 8;
  while (cap < n) cap *= 2;
  vm->ms = xrealloc(vm->ms, cap * sizeof(WMachine));
  vm->ms_cap = cap;
}

/* Read the State header at *p (before end) into *h and the machine count
** into *nms; 0 if malformed. */
static int parse_state_header(const uint8_t **p, const uint8_t *end, StateHdr *h, uint32_t *nms) {
  if (*p == end) return 0;
  memset(h, 0, sizeof *h);
  h->choice_kind = *(*p)++;
  if (h->choice_kind > 4 || !uv_get(p, end, nms)) return 0;
  if (h->choice_kind && (!uv_get(p, end, &h->choice_machine) || !uv_get(p, end, &h->choice_n))) return 0;
  return 1;
}

/* The length of the next record at *p (before end), *p advanced to the
** record; 0 if it does not fit before end. */
static int record_len(const uint8_t **p, const uint8_t *end, uint32_t *len) {
  return uv_get(p, end, len) && *len <= (size_t)(end - *p);
}

/* Loading trusts the records (they come from this VM, or passed
** vm_state_valid) but not the lengths: a State whose records do not end
** exactly at its end is refused. */
int vs_load(Vm *vm, const uint8_t *s, size_t len) {
  const uint8_t *p = s, *end = s + len;
  uint32_t nms;
  vm->pinned = 0;
  vm->ntouched = 0;
  if (len > UINT32_MAX || !parse_state_header(&p, end, &vm->hdr, &nms)) return 0;
  /* Each record takes at least 4 bytes: a count this large is malformed
  ** (and would not fit in memory). */
  if (nms > len) return 0;
  vm->nspecs = vm->t.nspecs;
  vm->nms = nms;
  vs_reserve_ms(vm, vm->nms + 1);
  uint32_t nrec = (uint32_t)vm->nspecs + nms;
  for (uint32_t i = 0; i < nrec; i++) {
    WMachine *m = i < vm->nspecs ? &vm->sp[i] : &vm->ms[i - vm->nspecs];
    const uint8_t *at = p, *q = p;   /* q: p's address is not taken, so p stays in a register */
    uint32_t rlen;
    if (!record_len(&q, end, &rlen) || rlen == 0) return 0;
    p = q;
    m->pre = (uint8_t)(p - at);
    m->orig = p;
    m->orig_len = rlen;
    m->decoded = 0;
    m->nappended = m->appended_cap = 0;
    m->rec = i;
    m->hdr_read = 0;
    p += rlen;
  }
  vm->pin_hdr = vm->hdr;
  vm->pin_nms = nms;
  return p == end;
}

/* A record may be listed more than once (vs_reload resets it each time:
** harmless); the list is reset by vs_load and vs_reload. */
void vs_touch(Vm *vm, const WMachine *m) {
  if (vm->ntouched == vm->touched_cap) {
    vm->touched_cap = vm->touched_cap ? vm->touched_cap * 2 : 16;
    vm->touched = xrealloc(vm->touched, vm->touched_cap * sizeof(uint32_t));
  }
  vm->touched[vm->ntouched++] = m->rec;
}

/* Back to the State as load left it, after a step on it: the header and
** machine count as loaded, the touched records undecoded, their header
** fields to be read again.  The others keep theirs. */
void vs_reload(Vm *vm) {
  vm->hdr = vm->pin_hdr;
  vm->nspecs = vm->t.nspecs;
  vm->nms = vm->pin_nms;
  for (uint32_t i = 0; i < vm->ntouched; i++) {
    uint32_t r = vm->touched[i];
    WMachine *m = r < vm->nspecs ? &vm->sp[r] : &vm->ms[r - vm->nspecs];
    m->hdr_read = 0;
    m->decoded = 0;
    m->nappended = m->appended_cap = 0;
  }
  vm->ntouched = 0;
}

/* Records come from this VM's own output: decode without checks. */
void vs_decode(Vm *vm, WMachine *m) {
  if (m->decoded) return;
  vs_hdr(m);
  m->decoded = 1;
  vs_touch(vm, m);
  const BcMachine *bm = &vm->p->machines[m->h.type];
  const uint8_t *r = m->orig, *p = r + m->body;
  m->inbox_cap = m->h.ninbox + 4;
  m->inbox = valarena_alloc(&vm->va, m->inbox_cap * sizeof(InboxEntry));
  for (uint32_t i = 0; i < m->h.ninbox; i++) {
    m->inbox[i].event = vs_uv(&p);
    p += val_load(p, &m->inbox[i].payload);
  }
  m->pend_event = 0;
  m->pend_payload = val_null();
  if (m->h.flags & MF_RAISED) m->pend_event = vs_uv(&p);
  if (m->h.flags & (MF_START | MF_RAISED)) p += val_load(p, &m->pend_payload);
  m->vars = valarena_alloc(&vm->va, (size_t)(bm->nvars ? bm->nvars : 1) * sizeof(Value));
  m->vars_at = (uint32_t)(p - r);
  if (!(m->h.flags & MF_HALTED))
    for (uint16_t i = 0; i < bm->nvars; i++) p += val_load(p, &m->vars[i]);
  m->vars_end = (uint32_t)(p - r);
  m->vars_dirty = 0;
  m->h.nframes = 0;
  m->frames = NULL;
  m->frames_len = 0;
  if (m->h.flags & (MF_RUNNING | MF_RECEIVE)) {
    m->h.nframes = (uint16_t)vs_uv(&p);
    m->frames = p;
    m->frames_len = m->orig_len - (uint32_t)(p - r);
  }
  /* Events sent to it earlier in this step, before it was decoded. */
  for (uint32_t i = 0; i < m->nappended; i++) vs_enqueue(vm, m, m->appended[i].event, m->appended[i].payload);
  m->nappended = 0;
}

/* ---------------------------------------------------------------------- */
/* Writing a State.                                                        */
/* Writers append to a Buf through need(), which keeps room for Buf's NUL;
** vs_write writes the NUL once at the end. */

/* Room for n more bytes in b (and its NUL). */
static inline void need(Buf *b, size_t n) {
  if (__builtin_expect(b->len + n + 1 > b->cap, 0)) {
    size_t cap = b->cap ? b->cap : 256;
    while (cap < b->len + n + 1) cap *= 2;
    b->data = xrealloc(b->data, cap);
    b->cap = cap;
  }
}

/* One byte, a uv (at most 5 bytes), n raw bytes; no NUL written. */
static inline void put_u8(Buf *b, uint8_t x) { need(b, 1); b->data[b->len++] = (char)x; }
static inline void put_uv(Buf *b, uint32_t x) { need(b, 5); b->len += uv_put((uint8_t *)b->data + b->len, x); }
static inline void put_bytes(Buf *b, const void *p, size_t n) {
  need(b, n);
  if (n) memcpy(b->data + b->len, p, n);
  b->len += n;
}

/* A compound's bytes are copied; a scalar is encoded in place, without
** asking its size first. */
void vs_put_value(Buf *b, const Value *v) {
  if (val_is_compound(v)) { put_bytes(b, v->u.p, v->len); return; }
  need(b, VAL_SCALAR_MAX);
  b->len += val_encode(v, (uint8_t *)b->data + b->len);
}

/* A record's header fields, with the inbox count; *h's flags plus
** RF_INBOX when ninbox > 0. */
static void put_header(Buf *b, const MachHdr *h, uint32_t ninbox) {
  need(b, 1 + 5 * 5);
  uint8_t *p = (uint8_t *)b->data + b->len, *p0 = p;
  *p++ = (uint8_t)(h->flags | (ninbox ? RF_INBOX : 0));
  p += uv_put(p, h->type);
  p += uv_put(p, h->state);
  p += uv_put(p, h->iface);
  if (h->flags & MF_RECEIVE) p += uv_put(p, h->recv);
  if (ninbox) p += uv_put(p, ninbox);
  b->len += (size_t)(p - p0);
}

/* n inbox entries: uv event, payload. */
static void put_events(Buf *b, const InboxEntry *e, uint32_t n) {
  for (uint32_t i = 0; i < n; i++) {
    put_uv(b, e[i].event);
    vs_put_value(b, &e[i].payload);
  }
}

/* The record of decoded m, in its canonical form.  Its variables' bytes
** are reused when none was assigned, its saved frames' bytes always (they
** are only rewritten by vs_save_frames); a halted machine keeps only its
** header fields. */
static void encode_record(Vm *vm, const WMachine *m, Buf *b) {
  const MachHdr *h = &m->h;
  assert(!h->nframes || (h->flags & (MF_RUNNING | MF_RECEIVE)));
  if (h->flags & MF_HALTED) { put_header(b, h, 0); return; }
  put_header(b, h, h->ninbox);
  put_events(b, m->inbox, h->ninbox);
  if (h->flags & MF_RAISED) put_uv(b, m->pend_event);
  if (h->flags & (MF_START | MF_RAISED)) vs_put_value(b, &m->pend_payload);
  const BcMachine *bm = &vm->p->machines[h->type];
  if (!m->vars_dirty && m->orig)   /* unchanged: the bytes as they were */
    put_bytes(b, m->orig + m->vars_at, m->vars_end - m->vars_at);
  else
    for (uint16_t i = 0; i < bm->nvars; i++) vs_put_value(b, &m->vars[i]);
  if (h->flags & (MF_RUNNING | MF_RECEIVE)) {
    put_uv(b, h->nframes);
    put_bytes(b, m->frames, m->frames_len);
  }
}

/* An undecoded record with events appended to its inbox: a new header
** (the count changes), the old entries, the new ones, then the rest of
** the record as it was. */
static void append_record(const WMachine *m, Buf *b) {
  assert(m->hdr_read);   /* the send read its flags */
  const uint8_t *r = m->orig, *p = r + m->body;
  for (uint32_t i = 0; i < m->h.ninbox; i++) vs_next_event(&p);
  uint32_t inbox_end = (uint32_t)(p - r);
  put_header(b, &m->h, m->h.ninbox + m->nappended);
  put_bytes(b, r + m->body, inbox_end - m->body);
  put_events(b, m->appended, m->nappended);
  put_bytes(b, r + inbox_end, m->orig_len - inbox_end);
}

/* A record was written at start + 1 after one byte left for its length:
** write the length there, moving the record up if it takes more. */
static void close_record(Buf *b, size_t start) {
  assert(b->len - start - 1 <= UINT32_MAX);
  uint32_t len = (uint32_t)(b->len - start - 1);
  unsigned k = uv_size(len);
  if (k > 1) {
    need(b, k - 1);
    memmove(b->data + start + k, b->data + start + 1, len);
    b->len += k - 1;
  }
  uv_put((uint8_t *)b->data + start, len);
}

/* Untouched records waiting to be copied: they lie one after another in
** the input, lengths included. */
typedef struct Run {
  const uint8_t *at;     /* the first one's length, in the input; NULL: none */
  size_t len;            /* bytes of them all */
} Run;

/* Write records m[0..n) to out: untouched ones join the run (copied with
** one memcpy when it ends), the others are encoded or appended to. */
static inline void write_records(Vm *vm, Buf *out, const WMachine *m, uint32_t n, Run *run) {
  for (const WMachine *end = m + n; m < end; m++) {
    if (!m->decoded && !m->nappended) {
      const uint8_t *at = m->orig - m->pre;
      if (run->at && run->at + run->len == at) {
        run->len += m->pre + m->orig_len;
        continue;
      }
      if (run->at) put_bytes(out, run->at, run->len);
      run->at = at;
      run->len = m->pre + m->orig_len;
      continue;
    }
    if (run->at) { put_bytes(out, run->at, run->len); run->at = NULL; }
    size_t start = out->len;
    put_u8(out, 0);
    if (m->decoded) encode_record(vm, m, out);
    else append_record(m, out);
    close_record(out, start);
  }
}

/* Append the State to out: its header, then the specs' records and the
** machines'.  hint: the input's size, for one allocation up front (the
** successor is rarely much larger). */
void vs_write(Vm *vm, Buf *out, size_t hint) {
  need(out, hint + hint / 4 + 64);
  const StateHdr *h = &vm->hdr;
  put_u8(out, (uint8_t)h->choice_kind);
  put_uv(out, vm->nms);
  if (h->choice_kind) {
    put_uv(out, h->choice_machine);
    put_uv(out, h->choice_n);
  }
  Run run = {NULL, 0};
  write_records(vm, out, vm->sp, vm->nspecs, &run);
  write_records(vm, out, vm->ms, vm->nms, &run);
  if (run.at) put_bytes(out, run.at, run.len);
  out->data[out->len] = 0;   /* Buf's NUL; need() left room for it */
}

/* ---------------------------------------------------------------------- */
/* Saved frames.                                                           */

/* Frames are written outermost first, each as uv fun, uv pc, uv operand
** count, its locals, its operands (vm/state.h); m->frames then points to
** arena memory holding them, valid for the step. */
void vs_save_frames(Vm *vm, WMachine *m) {
  Buf b = vm->frames_buf;   /* scratch kept across steps (no malloc per step) */
  b.len = 0;
  for (uint32_t i = 0; i < vm->nfr; i++) {
    Frame *f = &vm->fr[i];
    const BcFun *fn = &vm->p->funs[f->fun];
    uint32_t send = i + 1 < vm->nfr ? vm->fr[i + 1].sbase : vm->nstack;
    /* A callee's arguments were popped before its sbase was taken, so the
    ** caller's operands are exactly [sbase, next sbase). */
    put_uv(&b, f->fun);
    put_uv(&b, f->pc);
    put_uv(&b, send - f->sbase);
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

/* The inverse of vs_save_frames: the frames pushed again with their pcs,
** locals and operands; m keeps no saved frames afterwards. */
void vs_restore_frames(Vm *vm, WMachine *m, uint32_t id) {
  vm->nfr = vm->nstack = vm->nlocals = 0;
  const uint8_t *p = m->frames;
  for (uint16_t i = 0; i < m->h.nframes; i++) {
    uint32_t fun = vs_uv(&p), pc = vs_uv(&p), nst = vs_uv(&p);
    Frame *f = vm_push_frame(vm, fun, id, 0, 0, &(Value){0});
    f->pc = pc;
    const BcFun *fn = &vm->p->funs[fun];
    for (uint32_t j = 0; j < fn->nlocals; j++) p += val_load(p, &vm->locals[f->lbase + j]);
    for (uint32_t j = 0; j < nst; j++) {
      Value v;
      p += val_load(p, &v);
      vm_push(vm, v);
    }
  }
  m->h.nframes = 0;
  m->frames = NULL;
  m->frames_len = 0;
}

/* ---------------------------------------------------------------------- */
/* Working inboxes.                                                        */

/* The inbox lives in the step's arena and grows by copying (the old array
** is left to the arena); payloads keep pointing where they did. */
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
/* What machines hold (for partial-order reduction).                       */

/* Values of a record the VM wrote, from its inbox section to its end:
** each inbox payload, a pending payload, the variables and the saved
** frames' locals and operands go through val_ids. */
static void scan_body(const Vm *vm, const MachHdr *h, const uint8_t *p, ValIdFn held, void *ctx) {
  for (uint32_t i = 0; i < h->ninbox; i++) {
    vs_uv(&p);                               /* the event: not a value the machine can use */
    p += val_ids(p, held, ctx);
  }
  if (h->flags & MF_RAISED) vs_uv(&p);
  if (h->flags & (MF_START | MF_RAISED)) p += val_ids(p, held, ctx);
  if (h->flags & MF_HALTED) return;
  for (uint16_t i = 0; i < vm->p->machines[h->type].nvars; i++) p += val_ids(p, held, ctx);
  if (!(h->flags & (MF_RUNNING | MF_RECEIVE))) return;
  uint32_t nframes = vs_uv(&p);
  for (uint32_t f = 0; f < nframes; f++) {
    uint32_t fun = vs_uv(&p);
    vs_uv(&p);                               /* pc */
    uint32_t n = vm->p->funs[fun].nlocals + vs_uv(&p);
    for (uint32_t i = 0; i < n; i++) p += val_ids(p, held, ctx);
  }
}

/* Reads the bytes directly, without loading them into the Vm (only its
** program and test are read, and nothing it loaded is disturbed).  Spec
** records are skipped whole; an empty s is no State and is ignored. */
void vm_scan_machines(const Vm *vm, const uint8_t *s, size_t len, VmRecordFn rec, ValIdFn held, void *ctx) {
  if (!len) return;
  const uint8_t *p = s + 1;
  uint32_t nms = vs_uv(&p);
  if (s[0]) { vs_uv(&p); vs_uv(&p); }   /* a pending choice: machine, options */
  for (uint32_t i = 0; i < (uint32_t)vm->t.nspecs + nms; i++) {
    uint32_t rlen = vs_uv(&p);
    if (i >= vm->t.nspecs) {
      MachHdr h;
      uint32_t body = vs_read_header(p, &h);
      if (rec(ctx, i - vm->t.nspecs, h.type, h.flags)) scan_body(vm, &h, p + body, held, ctx);
    }
    p += rlen;
  }
}

/* The local state is rebuilt from the record's bytes: flags without
** RF_INBOX, the header fields up to the inbox, then everything after the
** inbox (pending event, variables, frames), then the choice kind byte for
** the machine a pending data choice belongs to.  Without the inbox count
** too, so two records that differ only in their inboxes agree. */
void vm_local_states(const Vm *vm, const uint8_t *s, size_t len, Buf *scratch, VmLocalFn fn, void *ctx) {
  if (!len) return;
  const uint8_t *p = s + 1;
  uint32_t nms = vs_uv(&p), cm = UINT32_MAX;
  if (s[0]) { cm = vs_uv(&p); vs_uv(&p); }   /* a pending choice: machine, options */
  for (uint32_t i = 0; i < (uint32_t)vm->t.nspecs + nms; i++) {
    uint32_t rlen = vs_uv(&p);
    const uint8_t *r = p, *q = r + 1;
    vs_uv(&q);                                /* type */
    vs_uv(&q);                                /* state */
    vs_uv(&q);                                /* iface */
    if (r[0] & MF_RECEIVE) vs_uv(&q);         /* the receive table */
    const uint8_t *cut = q;                   /* the inbox section starts here */
    if (r[0] & RF_INBOX) {
      uint32_t n = vs_uv(&q);
      while (n--) vs_next_event(&q);
    }
    scratch->len = 0;
    uint8_t flags = (uint8_t)(r[0] & ~RF_INBOX);
    buf_append(scratch, &flags, 1);
    buf_append(scratch, r + 1, (size_t)(cut - r - 1));
    buf_append(scratch, q, (size_t)(r + rlen - q));
    if (i >= vm->t.nspecs && i - vm->t.nspecs == cm) buf_append(scratch, s, 1);
    fn(ctx, i, (const uint8_t *)scratch->data, scratch->len);
    p += rlen;
  }
}

/* ---------------------------------------------------------------------- */
/* Reading and checking States from outside.                               */
/* The check_* functions walk bytes that may be anything: every read is
** bounded by the record's end, every count is checked against the bytes
** left before anything is allocated for it, and every value goes through
** val_decode, which refuses non-canonical encodings. */

/* In a State the VM wrote: read without bounds, as vs_load reads records. */
void vm_spec_temps(Vm *vm, const uint8_t *s, size_t len, uint64_t *hot, uint64_t *cold) {
  *hot = *cold = 0;
  if (!len) return;
  const uint8_t *p = s + 1;
  vs_uv(&p);                         /* the machine count */
  if (s[0]) { vs_uv(&p); vs_uv(&p); }   /* a pending choice: machine, options */
  for (uint16_t i = 0; i < vm->t.nspecs && i < 64; i++) {
    uint32_t rlen = vs_uv(&p);
    MachHdr h;
    vs_read_header(p, &h);
    const BcState *st = &vm->p->machines[h.type].states[h.state];
    if (st->hot) *hot |= 1ull << i;
    if (st->cold) *cold |= 1ull << i;
    p += rlen;
  }
}

uint64_t vm_hot_specs(Vm *vm, const uint8_t *s, size_t len) {
  uint64_t hot, cold;
  vm_spec_temps(vm, s, len, &hot, &cold);
  return hot;
}

uint64_t vm_cold_specs(Vm *vm, const uint8_t *s, size_t len) {
  uint64_t hot, cold;
  vm_spec_temps(vm, s, len, &hot, &cold);
  return cold;
}

/* Skips the records before spec k by their lengths and reads only k's
** header; s must be a State the VM wrote (no checks). */
void vm_spec_state(const Vm *vm, const uint8_t *s, size_t len, uint16_t k, const char **name, const char **file,
                   uint32_t *line) {
  *name = "?";
  *file = NULL;
  *line = 0;
  if (!len || k >= vm->t.nspecs) return;
  const uint8_t *p = s + 1;
  vs_uv(&p);                         /* the machine count */
  if (s[0]) { vs_uv(&p); vs_uv(&p); }   /* a pending choice: machine, options */
  for (uint16_t i = 0; i < k; i++) {
    uint32_t rlen = vs_uv(&p);
    p += rlen;
  }
  vs_uv(&p);                         /* the record's length */
  MachHdr h;
  vs_read_header(p, &h);
  const BcState *st = &vm->p->machines[h.type].states[h.state];
  *name = st->name;
  if (st->src.line && st->src.file < vm->p->nfiles) {
    *file = vm->p->files[st->src.file];
    *line = st->src.line;
  }
}

/* Check n values at *p (before end), advancing *p; 0 if one is malformed. */
/* val_ids's callback for check_values: an event id past the program's. */
typedef struct IdCheck {
  uint32_t nevents;
  int bad;
} IdCheck;
static void check_id(void *ctx, uint8_t tag, uint32_t id) {
  IdCheck *c = ctx;
  if (tag == VT_EVENT && id >= c->nevents) c->bad = 1;
}

/* Check n values at *p: each decodes, and every event it holds is one of
** the program's (a send or raise of it indexes the event tables); 0 if
** not. */
static int check_values(const Vm *vm, const uint8_t **p, const uint8_t *end, uint32_t n) {
  IdCheck c = { vm->p->nevents, 0 };
  for (uint32_t i = 0; i < n; i++) {
    Value v;
    size_t k = val_decode(*p, (size_t)(end - *p), &v);
    if (!k) return 0;
    val_ids(*p, check_id, &c);
    if (c.bad) return 0;
    *p += k;
  }
  return 1;
}

/* Check n (uv event, payload) entries at *p; 0 if malformed. */
static int check_events(const Vm *vm, const uint8_t **p, const uint8_t *end, uint32_t n) {
  for (uint32_t i = 0; i < n; i++) {
    uint32_t ev;
    if (!uv_get(p, end, &ev) || ev >= vm->p->nevents || !check_values(vm, p, end, 1)) return 0;
  }
  return 1;
}

/* The instructions of fn around pc: the one that starts at pc (*at) and
** the one that ends there (*before, with its operand in *operand), as
** opcodes; OP__COUNT where there is none. */
static void around(const BcFun *fn, uint32_t pc, int *at, int *before, uint32_t *operand) {
  *at = *before = OP__COUNT;
  *operand = 0;
  for (uint32_t q = 0; q < fn->ncode && q <= pc;) {
    uint8_t op = fn->code[q];
    if (op >= OP__COUNT) return;
    uint32_t size = 1 + (uint32_t)bc_operand_size((OperandKind)bc_op_operand[op]);
    if (q + size > fn->ncode) return;
    if (q == pc) *at = op;
    if (q + size == pc) {
      *before = op;
      uint16_t k;
      if (size == 3) {
        memcpy(&k, fn->code + q + 1, 2);   /* as the interpreter reads a U16 */
        *operand = k;
      }
    }
    q += size;
  }
}

/* Check nframes saved frames at *p, of a machine with header flags and
** (MF_RECEIVE) receive table recv; 0 if malformed.  A frame may only be
** where the VM suspends one: the last at a receive of table recv, at a
** data choice, or just after a `new` or a send; each other just after the
** call of the frame above it (or the state change whose entry or exit
** handler it is).  Its operand stack fits the function's. */
static int check_frames(const Vm *vm, const uint8_t **p, const uint8_t *end, uint32_t nframes, uint16_t flags,
                        uint32_t recv) {
  uint32_t callee = UINT32_MAX;   /* the function the frame before called */
  for (uint32_t i = 0; i < nframes; i++) {
    uint32_t fun, pc, nst;
    if (!uv_get(p, end, &fun) || !uv_get(p, end, &pc) || !uv_get(p, end, &nst)) return 0;
    if (fun >= vm->p->nfuns || pc >= vm->p->funs[fun].ncode) return 0;
    const BcFun *fn = &vm->p->funs[fun];
    if (i > 0 && callee != UINT32_MAX && fun != callee) return 0;
    int at, before;
    uint32_t operand;
    around(fn, pc, &at, &before, &operand);
    if (i + 1 < nframes) {
      /* A call, or the entry or exit handler a state change runs. */
      if (before != OP_CALL && before != OP_ENTER && before != OP_EXIT_STATE) return 0;
      if (before == OP_CALL && operand >= vm->p->nfuns) return 0;
      callee = before == OP_CALL ? operand : UINT32_MAX;
    } else if (flags & MF_RECEIVE) {
      uint16_t table;
      if (at != OP_RECEIVE || recv >= vm->p->nrecvs || vm->p->recvs[recv].fun != (int32_t)fun) return 0;
      memcpy(&table, fn->code + pc + 1, 2);
      if (table != recv) return 0;
    } else if (at != OP_CHOOSE && before != OP_NEW && before != OP_SEND) {
      return 0;
    }
    /* The operands the code expects there (bc_verify's depths): a frame
    ** under a call has given its callee the params, and the callee's
    ** result is not pushed yet. */
    uint32_t want = fn->depth ? fn->depth[pc] : BC_NO_DEPTH;
    if (want != BC_NO_DEPTH && i + 1 < nframes && before == OP_CALL) want -= vm->p->funs[operand].has_result != 0;
    if (nst != want || nst > (size_t)(end - *p)) return 0;   /* each value takes a byte at least */
    if (!check_values(vm, p, end, (uint32_t)fn->nlocals + nst)) return 0;
  }
  return 1;
}

/* Check the header fields of record r (len bytes, spec: a spec's) into
** *h and where its inbox entries start into *body; 0 if they run past the
** record, are not canonical, or name a type, state, interface or receive
** table the program does not have. */
static int check_header(const Vm *vm, const uint8_t *r, uint32_t len, int spec, MachHdr *h, uint32_t *body) {
  const uint8_t *p = r + 1, *end = r + len;
  uint32_t type, state, iface, recv = 0, ninbox = 0;
  if (len < 1 || (r[0] & ~(unsigned)(RF_INBOX | 0x3f))) return 0;
  uint8_t flags = r[0];
  if (!uv_get(&p, end, &type) || !uv_get(&p, end, &state) || !uv_get(&p, end, &iface)) return 0;
  if ((flags & MF_RECEIVE) && !uv_get(&p, end, &recv)) return 0;
  if ((flags & RF_INBOX) && (!uv_get(&p, end, &ninbox) || ninbox == 0)) return 0;
  if (type >= vm->p->nmachines || state >= vm->p->machines[type].nstates || (iface && iface >= vm->p->nifaces) ||
      ((flags & MF_RECEIVE) && recv >= vm->p->nrecvs))
    return 0;
  const BcMachine *bm = &vm->p->machines[type];
  if ((spec != 0) != (bm->is_spec != 0) || bm->is_explorer) return 0;
  if ((flags & MF_HALTED) && flags != MF_HALTED) return 0;   /* halted: no other flag, no inbox */
  *h = (MachHdr){ (uint16_t)type, (uint16_t)state, (uint16_t)(flags & ~RF_INBOX), 0, ninbox, (uint16_t)recv,
                  (uint16_t)iface };
  *body = (uint32_t)(p - r);
  return 1;
}

/* Check record r (len bytes): its header fields, then every section
** present exactly as its flags say, and nothing after. */
static int check_record(const Vm *vm, const uint8_t *r, uint32_t len, int spec) {
  MachHdr h;
  uint32_t body;
  if (!check_header(vm, r, len, spec, &h, &body)) return 0;
  const uint8_t *p = r + body, *end = r + len;
  const BcMachine *bm = &vm->p->machines[h.type];
  if (!check_events(vm, &p, end, h.ninbox)) return 0;
  if (h.flags & MF_RAISED) {
    uint32_t ev;
    if (!uv_get(&p, end, &ev) || ev >= vm->p->nevents) return 0;
  }
  if ((h.flags & (MF_START | MF_RAISED)) && !check_values(vm, &p, end, 1)) return 0;
  if (!(h.flags & MF_HALTED) && !check_values(vm, &p, end, bm->nvars)) return 0;
  if (h.flags & (MF_RUNNING | MF_RECEIVE)) {
    uint32_t nframes;
    if (!uv_get(&p, end, &nframes) || nframes == 0 || nframes > UINT16_MAX) return 0;
    if (!check_frames(vm, &p, end, nframes, h.flags, h.recv)) return 0;
  }
  return p == end;
}

/* One bounded walk: the State header, every record in full (check_record),
** nothing after the last; the Vm is only read (its program and test). */
int vm_state_valid(const Vm *vm, const uint8_t *s, size_t len) {
  const uint8_t *p = s, *end = s + len;
  StateHdr h;
  uint32_t nms;
  if (len > UINT32_MAX || !parse_state_header(&p, end, &h, &nms) || nms > len) return 0;
  uint32_t nrec = (uint32_t)vm->t.nspecs + nms;
  for (uint32_t i = 0; i < nrec; i++) {
    uint32_t rlen;
    if (!record_len(&p, end, &rlen) || !check_record(vm, p, rlen, i < vm->t.nspecs)) return 0;
    p += rlen;
  }
  if (h.choice_kind && (h.choice_machine >= nms || h.choice_n == 0)) return 0;
  if (h.choice_kind == 4 && h.choice_n != 2) return 0;
  return p == end;
}

/* ---------------------------------------------------------------------- */
/* Records and frames of the working State.                                */

/* A spec's record is the one at *id_out (its index: vm->sp has room for
** the test's specs); a machine's is appended to vm->ms, which may move
** (so no WMachine pointer survives it), and its id returned in *id_out.
** The record is new and decoded, in the start state, with the variables'
** defaults, an empty inbox, no flags and interface 0 (for a machine the
** caller sets MF_START and its interface).  Marks the type's creation
** point for coverage.  Its arrays are in the step's arena. */
WMachine *vm_new_record(Vm *vm, uint16_t type, int spec, uint32_t *id_out) {
  WMachine *m;
  if (spec) {
    m = &vm->sp[*id_out];
  } else {
    vs_reserve_ms(vm, vm->nms + 1);
    *id_out = vm->nms;
    m = &vm->ms[vm->nms++];
  }
  memset(m, 0, sizeof *m);
  m->hdr_read = 1;
  m->decoded = 1;
  m->rec = spec ? *id_out : (uint32_t)vm->nspecs + *id_out;
  m->h.type = type;
  const BcMachine *bm = &vm->p->machines[type];
  m->h.state = bm->start;
  if (vm->cov_hit) vm_cov_mark(vm, vm->t.cov->base[type]);
  m->vars = valarena_alloc(&vm->va, (size_t)(bm->nvars ? bm->nvars : 1) * sizeof(Value));
  if (bm->nvars) memcpy(m->vars, bm->var_defaults, bm->nvars * sizeof(Value));
  m->inbox_cap = 4;
  m->inbox = valarena_alloc(&vm->va, m->inbox_cap * sizeof(InboxEntry));
  return m;
}

/* Push a frame for function fid of `w` (a machine id, a spec index with
** spec 1, the explorer with spec 2); its params come from the stack (the
** function's nparams values, popped) or, when arg is not NULL, from *arg
** (the one param of a handler, entry or exit function: its payload; a
** function without params ignores it).  Its locals start at their
** defaults (BcFun.local_defaults), its operand stack empty above the
** caller's.  base is the first frame of the activation the frame belongs
** to (RAISE and GOTO unwind to it); UINT32_MAX starts a new activation at
** this frame.  Returns the frame, valid until the next push: vm->fr and
** vm->locals may move (out of memory aborts). */
Frame *vm_push_frame(Vm *vm, uint32_t fid, uint32_t w, int spec, uint32_t base, const Value *arg) {
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
