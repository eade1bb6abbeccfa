/* schedcov.c: Bita's receive identities and schedule coverage goals
** (checker/schedcov.h). */
#include <config.h>
#include "checker/schedcov.h"
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------------- */
/* Identities.                                                             */

static uint64_t mix(uint64_t z) {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}
/* The identity made of tag and the values v[0..n). */
static uint64_t ident(uint64_t tag, const uint64_t *v, int n) {
  uint64_t h = mix(tag + 0x9e3779b97f4a7c15ull);
  for (int i = 0; i < n; i++) h = mix(h ^ (v[i] + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2)));
  return h;
}
enum { T_MAIN = 1, T_CREATE, T_START, T_SEND, T_RECV };

/* A message in a machine's inbox, as the tracker mirrors it. */
typedef struct SchedMsg {
  uint32_t event;
  uint64_t id;
} SchedMsg;

/* What the tracker knows of one machine of the execution. */
typedef struct SchedMachine {
  uint64_t id;               /* the machine's identity */
  uint64_t ctx;              /* the event it is handling: its start, or its last receive */
  uint32_t nsent, ncreated;  /* sends and creations during ctx so far */
  int64_t cur;               /* index of its last receive in SchedTrack.recvs, or -1 */
  uint16_t type;
  SchedMsg *inbox;           /* oldest first */
  uint32_t ninbox, inbox_cap;
} SchedMachine;

void schedtrack_init(SchedTrack *t) { memset(t, 0, sizeof *t); }

void schedtrack_fini(SchedTrack *t) {
  for (uint32_t i = 0; i < t->ms_cap; i++) free(t->ms[i].inbox);
  free(t->ms);
  free(t->recvs);
  memset(t, 0, sizeof *t);
}

void schedtrack_begin(SchedTrack *t) {
  for (uint32_t i = 0; i < t->nms; i++) t->ms[i].ninbox = 0;
  t->nms = 0;
  t->nrecvs = 0;
}

/* Machine m's record, created as needed (its inbox array is kept). */
static SchedMachine *machine(SchedTrack *t, uint32_t m) {
  if (m >= t->ms_cap) {
    uint32_t cap = t->ms_cap ? t->ms_cap : 8;
    while (cap <= m) cap *= 2;
    t->ms = xrealloc(t->ms, cap * sizeof *t->ms);
    memset(t->ms + t->ms_cap, 0, (cap - t->ms_cap) * sizeof *t->ms);
    t->ms_cap = cap;
  }
  while (t->nms <= m) {
    SchedMachine *x = &t->ms[t->nms++];
    x->id = x->ctx = 0;
    x->nsent = x->ncreated = 0;
    x->cur = -1;
    x->type = 0;
    x->ninbox = 0;
  }
  return &t->ms[m];
}

/* Append message id of `event` to m's mirrored inbox (a send). */
static void inbox_push(SchedMachine *m, uint32_t event, uint64_t id) {
  if (m->ninbox == m->inbox_cap) {
    m->inbox_cap = m->inbox_cap ? m->inbox_cap * 2 : 8;
    m->inbox = xrealloc(m->inbox, m->inbox_cap * sizeof *m->inbox);
  }
  m->inbox[m->ninbox++] = (SchedMsg){ event, id };
}

/* Take the oldest message of `event` out of m's inbox: its identity, or 0
** if the mirror has none (it cannot happen when every step was fed). */
static uint64_t inbox_take(SchedMachine *m, uint32_t event) {
  for (uint32_t i = 0; i < m->ninbox; i++)
    if (m->inbox[i].event == event) {
      uint64_t id = m->inbox[i].id;
      memmove(&m->inbox[i], &m->inbox[i + 1], (m->ninbox - i - 1) * sizeof *m->inbox);
      m->ninbox--;
      return id;
    }
  return 0;
}

/* A creation: the new machine's identity from its creator's current event
** and creation ordinal there (the main machine: from its type), and its
** start as the event it handles first. */
static void on_create(SchedTrack *t, const VmEvent *e) {
  SchedMachine *n = machine(t, e->machine);
  n->type = e->type;
  if (e->other == UINT32_MAX) {
    uint64_t v[1] = { e->type };
    n->id = ident(T_MAIN, v, 1);
  } else {
    SchedMachine *c = machine(t, e->other);
    n = machine(t, e->machine);   /* machine() may have moved the array */
    uint64_t v[3] = { c->ctx, c->ncreated++, e->type };
    n->id = ident(T_CREATE, v, 3);
  }
  uint64_t v[1] = { n->id };
  n->ctx = ident(T_START, v, 1);
  n->nsent = n->ncreated = 0;
  n->cur = -1;
}

/* A dequeue or a receive: the message is the oldest of that event in the
** mirror (P's inbox order, defer and ignore mirrored); the receive becomes
** the machine's current event, its send and creation ordinals restart. */
static void on_receive(SchedTrack *t, const VmEvent *e) {
  SchedMachine *m = machine(t, e->machine);
  uint64_t v[2] = { m->id, inbox_take(m, e->event) };
  uint64_t r = ident(T_RECV, v, 2);
  if (t->nrecvs == t->recvs_cap) {
    t->recvs_cap = t->recvs_cap ? t->recvs_cap * 2 : 64;
    t->recvs = xrealloc(t->recvs, t->recvs_cap * sizeof *t->recvs);
  }
  t->recvs[t->nrecvs] = (SchedRecv){ r, e->machine, m->type, 0 };
  m->cur = t->nrecvs++;
  m->ctx = r;
  m->nsent = m->ncreated = 0;
}

/* Mirror what the step did to inboxes and identities; a VE_STATE while a
** receive is being handled marks that receive state-changing (PBR). */
void schedtrack_step(SchedTrack *t, const VmEvent *ev, uint32_t n) {
  for (uint32_t i = 0; i < n; i++) {
    const VmEvent *e = &ev[i];
    if (e->spec) continue;   /* specs observe; they are not actors */
    switch (e->kind) {
    case VE_CREATE: on_create(t, e); break;
    case VE_SEND: {
      SchedMachine *s = machine(t, e->machine);
      uint64_t v[3] = { s->ctx, s->nsent++, e->event };
      uint64_t id = ident(T_SEND, v, 3);
      inbox_push(machine(t, e->other), e->event, id);
      break;
    }
    case VE_DROP: {   /* the send just noted went to a halted machine */
      SchedMachine *m = machine(t, e->other);
      if (m->ninbox) m->ninbox--;
      break;
    }
    case VE_DEQUEUE: case VE_RECEIVE: on_receive(t, e); break;
    case VE_IGNORE: inbox_take(machine(t, e->machine), e->event); break;
    case VE_HALT: machine(t, e->machine)->ninbox = 0; break;
    case VE_STATE: {
      SchedMachine *m = machine(t, e->machine);
      if (m->cur >= 0) t->recvs[m->cur].changes = 1;
      break;
    }
    default: break;
    }
  }
}

/* ---------------------------------------------------------------------- */
/* The goals seen: an open-addressing set of ordered pairs.                */

struct SchedCov {
  pthread_mutex_t lock;
  SchedPair *slots;          /* crit 0xFF: empty */
  uint64_t n, cap;
  uint64_t executions;       /* executions folded in */
};

/* The set starts at 1024 slots, doubling at half full. */
SchedCov *schedcov_new(const BcProgram *bc) {
  (void)bc;
  SchedCov *c = xcalloc(1, sizeof *c);
  pthread_mutex_init(&c->lock, NULL);
  c->cap = 1024;
  c->slots = xmalloc(c->cap * sizeof *c->slots);
  for (uint64_t i = 0; i < c->cap; i++) c->slots[i].crit = 0xFF;
  return c;
}

void schedcov_free(SchedCov *c) {
  if (!c) return;
  pthread_mutex_destroy(&c->lock);
  free(c->slots);
  free(c);
}

/* The slot hash of an ordered pair under its criterion. */
static uint64_t pair_hash(const SchedPair *p) {
  uint64_t v[3] = { p->a, p->b, p->crit };
  return ident(0, v, 3);
}

/* Insert p unless present (the lock held). */
static void set_add(SchedCov *c, const SchedPair *p) {
  if (2 * (c->n + 1) > c->cap) {
    SchedPair *old = c->slots;
    uint64_t oldcap = c->cap;
    c->cap *= 2;
    c->slots = xmalloc(c->cap * sizeof *c->slots);
    for (uint64_t i = 0; i < c->cap; i++) c->slots[i].crit = 0xFF;
    c->n = 0;
    for (uint64_t i = 0; i < oldcap; i++)
      if (old[i].crit != 0xFF) set_add(c, &old[i]);
    free(old);
  }
  for (uint64_t i = pair_hash(p) & (c->cap - 1);; i = (i + 1) & (c->cap - 1)) {
    SchedPair *s = &c->slots[i];
    if (s->crit == 0xFF) { *s = *p; c->n++; return; }
    if (s->a == p->a && s->b == p->b && s->crit == p->crit) return;
  }
}

/* The pairs of one machine's receives r[0..n) (indexes into recvs). */
static void machine_pairs(SchedCov *c, const SchedRecv *recvs, const uint32_t *r, uint32_t n) {
  for (uint32_t j = 0; j < n; j++) {
    const SchedRecv *rj = &recvs[r[j]];
    uint32_t lo = j > SCHED_WINDOW ? j - SCHED_WINDOW : 0;
    for (uint32_t i = lo; i < j; i++) set_add(c, &(SchedPair){ recvs[r[i]].id, rj->id, rj->type, SC_PR });
    if (j) set_add(c, &(SchedPair){ recvs[r[j - 1]].id, rj->id, rj->type, SC_PCR });
    if (!rj->changes) continue;
    /* PBR: back to the previous state-changing receive (included), and on
    ** to the next one (excluded: it pairs back to this one). */
    for (uint32_t i = j; i-- > lo;) {
      set_add(c, &(SchedPair){ recvs[r[i]].id, rj->id, rj->type, SC_PBR });
      if (recvs[r[i]].changes) break;
    }
    for (uint32_t k = j + 1; k < n && k <= j + SCHED_WINDOW && !recvs[r[k]].changes; k++)
      set_add(c, &(SchedPair){ rj->id, recvs[r[k]].id, rj->type, SC_PBR });
  }
}

/* Group the receives by machine (a counting sort keeps their order), then
** add each machine's pairs under one lock. */
void schedtrack_end(SchedTrack *t, SchedCov *c) {
  /* Each machine's receives in order: a list per machine, by one pass. */
  uint32_t *count = xcalloc(t->nms + 1, sizeof *count), *order = xmalloc((t->nrecvs + 1) * sizeof *order);
  for (uint32_t i = 0; i < t->nrecvs; i++) count[t->recvs[i].machine + 1]++;
  for (uint32_t m = 0; m < t->nms; m++) count[m + 1] += count[m];
  uint32_t *at = xmalloc((t->nms + 1) * sizeof *at);
  memcpy(at, count, (t->nms + 1) * sizeof *at);
  for (uint32_t i = 0; i < t->nrecvs; i++) order[at[t->recvs[i].machine]++] = i;
  pthread_mutex_lock(&c->lock);
  c->executions++;
  for (uint32_t m = 0; m < t->nms; m++)
    if (count[m + 1] > count[m]) machine_pairs(c, t->recvs, order + count[m], count[m + 1] - count[m]);
  pthread_mutex_unlock(&c->lock);
  free(at);
  free(order);
  free(count);
}

/* Pairs in report order: criterion, type, identities. */
static int cmp_pair(const void *x, const void *y) {
  const SchedPair *p = x, *q = y;
  if (p->crit != q->crit) return p->crit < q->crit ? -1 : 1;
  if (p->type != q->type) return p->type < q->type ? -1 : 1;
  if (p->a != q->a) return p->a < q->a ? -1 : 1;
  if (p->b != q->b) return p->b < q->b ? -1 : 1;
  return 0;
}

uint64_t schedcov_executions(SchedCov *c) {
  pthread_mutex_lock(&c->lock);
  uint64_t n = c->executions;
  pthread_mutex_unlock(&c->lock);
  return n;
}

/* A sorted copy of the set, taken under the lock. */
SchedPair *schedcov_pairs(SchedCov *c, uint32_t *n) {
  pthread_mutex_lock(&c->lock);
  SchedPair *out = xmalloc((c->n ? c->n : 1) * sizeof *out);
  uint32_t k = 0;
  for (uint64_t i = 0; i < c->cap; i++)
    if (c->slots[i].crit != 0xFF) out[k++] = c->slots[i];
  pthread_mutex_unlock(&c->lock);
  qsort(out, k, sizeof *out, cmp_pair);
  *n = k;
  return out;
}
