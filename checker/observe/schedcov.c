/* schedcov.c: Bita's receive identities and schedule coverage goals
** (checker/observe/schedcov.h). */
#include <config.h>
#include "checker/observe/schedcov.h"
#include "checker/base/rng.h"
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------------- */
/* Identities.                                                             */

/* The identity made of tag and the values v[0..n). */
static uint64_t ident(uint64_t tag, const uint64_t *v, int n) {
  uint64_t h = rng_mix(tag + 0x9e3779b97f4a7c15ull);
  for (int i = 0; i < n; i++) h = rng_mix(h ^ (v[i] + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2)));
  return h;
}
enum { T_MAIN = 1, T_CREATE, T_START, T_SEND, T_RECV };

/* The identity of a message sent as the ord-th send of `event` during
** the event whose identity is ctx; the identity of the receive of message
** msg by the machine whose identity is receiver.  schedtrack_step and
** schedtrack_peek both number through these two. */
static uint64_t send_ident(uint64_t ctx, uint32_t ord, uint32_t event) {
  uint64_t v[3] = { ctx, ord, event };
  return ident(T_SEND, v, 3);
}
static uint64_t recv_ident(uint64_t receiver, uint64_t msg) {
  uint64_t v[2] = { receiver, msg };
  return ident(T_RECV, v, 2);
}

/* A message in a machine's inbox, as the tracker mirrors it. */
typedef struct SchedMsg {
  uint32_t event;
  uint32_t ord;              /* send ordinal within the run that sent it */
  int32_t cause;             /* that run (SchedNode index) */
  uint64_t id;
  SchedLoc where;
} SchedMsg;

/* What the tracker knows of one machine of the execution. */
typedef struct SchedMachine {
  uint64_t id;               /* the machine's identity */
  uint64_t ctx;              /* the event it is handling: its start, or its last receive */
  uint32_t nsent, ncreated;  /* sends and creations during ctx so far */
  int64_t cur;               /* index of its last receive in SchedTrack.recvs, or -1 */
  int32_t node;              /* its current run (SchedTrack.nodes): its start or last receive */
  SchedLoc last;             /* where its last received message was sent (file NULL: none yet) */
  uint16_t type;
  SchedMsg *inbox;           /* oldest first */
  uint32_t ninbox, inbox_cap;
} SchedMachine;

void schedtrack_init(SchedTrack *t) { memset(t, 0, sizeof *t); }

void schedtrack_fini(SchedTrack *t) {
  for (uint32_t i = 0; i < t->ms_cap; i++) free(t->ms[i].inbox);
  free(t->ms);
  free(t->recvs);
  free(t->nodes);
  memset(t, 0, sizeof *t);
}

void schedtrack_begin(SchedTrack *t) {
  for (uint32_t i = 0; i < t->nms; i++) t->ms[i].ninbox = 0;
  t->nms = 0;
  t->nrecvs = 0;
  t->nnodes = 0;
}

uint64_t schedtrack_machine(const SchedTrack *t, uint32_t m) { return m < t->nms ? t->ms[m].id : 0; }

int schedtrack_before_next(const SchedTrack *t, uint32_t m, SchedLoc *out, uint16_t *type) {
  if (m >= t->nms) return 0;
  const SchedMachine *x = &t->ms[m];
  *type = x->type;
  if (x->ninbox) *out = x->inbox[x->ninbox - 1].where;
  else *out = x->last;
  return out->file != NULL;
}

/* Append a run with these links; its index. */
static int32_t add_node(SchedTrack *t, int32_t prev, int32_t cause, int32_t recv) {
  if (t->nnodes == t->nodes_cap) {
    t->nodes_cap = t->nodes_cap ? t->nodes_cap * 2 : 64;
    t->nodes = xrealloc(t->nodes, t->nodes_cap * sizeof *t->nodes);
  }
  t->nodes[t->nnodes] = (SchedNode){ prev, cause, recv };
  return (int32_t)t->nnodes++;
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
    x->node = -1;
    x->last = (SchedLoc){ NULL, 0, 0, 0 };
    x->type = 0;
    x->ninbox = 0;
  }
  return &t->ms[m];
}

/* Append message msg to m's mirrored inbox (a send). */
static void inbox_push(SchedMachine *m, SchedMsg msg) {
  if (m->ninbox == m->inbox_cap) {
    m->inbox_cap = m->inbox_cap ? m->inbox_cap * 2 : 8;
    m->inbox = xrealloc(m->inbox, m->inbox_cap * sizeof *m->inbox);
  }
  m->inbox[m->ninbox++] = msg;
}

/* The oldest message of `event` in m's inbox, or NULL if the mirror has
** none (it cannot happen when every step was fed). */
static const SchedMsg *inbox_find(const SchedMachine *m, uint32_t event) {
  for (uint32_t i = 0; i < m->ninbox; i++)
    if (m->inbox[i].event == event) return &m->inbox[i];
  return NULL;
}

/* Take the oldest message of `event` out of m's inbox: it, or an empty
** message (identity 0, cause -1) if there is none. */
static SchedMsg inbox_take(SchedMachine *m, uint32_t event) {
  const SchedMsg *x = inbox_find(m, event);
  if (!x) return (SchedMsg){ event, 0, -1, 0, { NULL, 0, 0, 0 } };
  SchedMsg msg = *x;
  uint32_t i = (uint32_t)(x - m->inbox);
  memmove(&m->inbox[i], &m->inbox[i + 1], (m->ninbox - i - 1) * sizeof *m->inbox);
  m->ninbox--;
  return msg;
}

/* A creation: the new machine's identity from its creator's current event
** and creation ordinal there (the main machine: from its type), and its
** start as the event it handles first. */
static void on_create(SchedTrack *t, const VmEvent *e) {
  SchedMachine *n = machine(t, e->machine);
  n->type = e->type;
  int32_t born = -1;
  if (e->other == UINT32_MAX) {
    uint64_t v[1] = { e->type };
    n->id = ident(T_MAIN, v, 1);
  } else {
    SchedMachine *c = machine(t, e->other);
    n = machine(t, e->machine);   /* machine() may have moved the array */
    uint64_t v[3] = { c->ctx, c->ncreated++, e->type };
    n->id = ident(T_CREATE, v, 3);
    born = c->node;
  }
  uint64_t v[1] = { n->id };
  n->ctx = ident(T_START, v, 1);
  n->nsent = n->ncreated = 0;
  n->cur = -1;
  n->node = add_node(t, -1, born, -1);
}

/* A dequeue or a receive: the message is the oldest of that event in the
** mirror (P's inbox order, defer and ignore mirrored); the receive becomes
** the machine's current event, its send and creation ordinals restart. */
static void on_receive(SchedTrack *t, const VmEvent *e) {
  SchedMachine *m = machine(t, e->machine);
  SchedMsg msg = inbox_take(m, e->event);
  uint64_t r = recv_ident(m->id, msg.id);
  if (t->nrecvs == t->recvs_cap) {
    t->recvs_cap = t->recvs_cap ? t->recvs_cap * 2 : 64;
    t->recvs = xrealloc(t->recvs, t->recvs_cap * sizeof *t->recvs);
  }
  int32_t node = add_node(t, m->node, msg.cause, (int32_t)t->nrecvs);
  t->recvs[t->nrecvs] = (SchedRecv){ r, m->id, e->machine, node, msg.cause, msg.ord, e->event, msg.where, m->type, 0 };
  m->last = msg.where;
  m->cur = t->nrecvs++;
  m->node = node;
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
      SchedMsg msg = { e->event, s->nsent, s->node, 0, { e->file, e->line, e->col, e->machine } };
      msg.id = send_ident(s->ctx, s->nsent++, e->event);
      inbox_push(machine(t, e->other), msg);
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

/* The receive and send of one step, on copies of the acting machine's
** context: its receive takes the oldest message of the event from the
** mirror (as on_receive would), its send numbers the message as the case
** VE_SEND above would. */
void schedtrack_peek(const SchedTrack *t, const VmEvent *ev, uint32_t n, SchedPeek *out) {
  out->recv = out->sent = out->to = 0;
  uint64_t ctx = 0;
  uint32_t nsent = 0, actor = UINT32_MAX;
  for (uint32_t i = 0; i < n; i++) {
    const VmEvent *e = &ev[i];
    if (e->spec || e->machine >= t->nms) continue;
    const SchedMachine *m = &t->ms[e->machine];
    if (actor != e->machine) { actor = e->machine; ctx = m->ctx; nsent = m->nsent; }
    if ((e->kind == VE_DEQUEUE || e->kind == VE_RECEIVE) && !out->recv) {
      const SchedMsg *msg = inbox_find(m, e->event);
      out->recv = ctx = recv_ident(m->id, msg ? msg->id : 0);
      nsent = 0;
    } else if (e->kind == VE_SEND && !out->sent && e->other < t->nms) {
      out->to = t->ms[e->other].id;
      out->sent = recv_ident(out->to, send_ident(ctx, nsent++, e->event));
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

/* Insert p unless present (the lock held): 1 if it was new. */
static int set_add(SchedCov *c, const SchedPair *p) {
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
    if (s->crit == 0xFF) { *s = *p; c->n++; return 1; }
    if (s->a == p->a && s->b == p->b && s->crit == p->crit) return 0;
  }
}

/* The slot holding p, or NULL (the lock held). */
static const SchedPair *set_find(const SchedCov *c, const SchedPair *p) {
  for (uint64_t i = pair_hash(p) & (c->cap - 1);; i = (i + 1) & (c->cap - 1)) {
    const SchedPair *s = &c->slots[i];
    if (s->crit == 0xFF) return NULL;
    if (s->a == p->a && s->b == p->b && s->crit == p->crit) return s;
  }
}

int schedcov_has(SchedCov *c, const SchedPair *p) {
  pthread_mutex_lock(&c->lock);
  int r = set_find(c, p) != NULL;
  pthread_mutex_unlock(&c->lock);
  return r;
}

int schedcov_add(SchedCov *c, const SchedPair *p) {
  pthread_mutex_lock(&c->lock);
  int r = set_add(c, p);
  pthread_mutex_unlock(&c->lock);
  return r;
}

uint64_t schedcov_count(SchedCov *c) {
  pthread_mutex_lock(&c->lock);
  uint64_t n = c->n;
  pthread_mutex_unlock(&c->lock);
  return n;
}

/* The pairs of one machine's receives r[0..n) (indexes into recvs), each
** passed to fn as its two indexes into recvs, first the earlier. */
static void machine_pairs(const SchedRecv *recvs, const uint32_t *r, uint32_t n, SchedPairFn fn, void *ctx) {
  for (uint32_t j = 0; j < n; j++) {
    uint32_t lo = j > SCHED_WINDOW ? j - SCHED_WINDOW : 0;
    for (uint32_t i = lo; i < j; i++) fn(ctx, r[i], r[j], SC_PR);
    if (j) fn(ctx, r[j - 1], r[j], SC_PCR);
    if (!recvs[r[j]].changes) continue;
    /* PBR: back to the previous state-changing receive (included), and on
    ** to the next one (excluded: it pairs back to this one). */
    for (uint32_t i = j; i-- > lo;) {
      fn(ctx, r[i], r[j], SC_PBR);
      if (recvs[r[i]].changes) break;
    }
    for (uint32_t k = j + 1; k < n && k <= j + SCHED_WINDOW && !recvs[r[k]].changes; k++)
      fn(ctx, r[j], r[k], SC_PBR);
  }
}

/* Group the receives by machine (a counting sort keeps their order), then
** each machine's pairs. */
void sched_pairs(const SchedRecv *recvs, uint32_t n, SchedPairFn fn, void *ctx) {
  uint32_t nms = 0;
  for (uint32_t i = 0; i < n; i++)
    if (recvs[i].machine >= nms) nms = recvs[i].machine + 1;
  uint32_t *count = xcalloc(nms + 1, sizeof *count), *order = xmalloc((n + 1) * sizeof *order);
  for (uint32_t i = 0; i < n; i++) count[recvs[i].machine + 1]++;
  for (uint32_t m = 0; m < nms; m++) count[m + 1] += count[m];
  uint32_t *at = xmalloc((nms + 1) * sizeof *at);
  memcpy(at, count, (nms + 1) * sizeof *at);
  for (uint32_t i = 0; i < n; i++) order[at[recvs[i].machine]++] = i;
  for (uint32_t m = 0; m < nms; m++)
    if (count[m + 1] > count[m]) machine_pairs(recvs, order + count[m], count[m + 1] - count[m], fn, ctx);
  free(at);
  free(order);
  free(count);
}

/* sched_pairs' callback for schedtrack_end: add the pair (the lock held). */
typedef struct FoldCtx {
  SchedCov *c;
  const SchedRecv *recvs;
} FoldCtx;
static void fold_pair(void *ctx, uint32_t i, uint32_t j, uint8_t crit) {
  FoldCtx *f = ctx;
  set_add(f->c, &(SchedPair){ f->recvs[i].id, f->recvs[j].id, f->recvs[j].type, crit });
}

/* Every pair of the execution under one lock. */
uint64_t schedtrack_end(SchedTrack *t, SchedCov *c) {
  pthread_mutex_lock(&c->lock);
  uint64_t before = c->n;
  c->executions++;
  sched_pairs(t->recvs, t->nrecvs, fold_pair, &(FoldCtx){ c, t->recvs });
  uint64_t added = c->n - before;
  pthread_mutex_unlock(&c->lock);
  return added;
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
