/* search_bita.c: Bita's coverage-guided schedule generation for actors
** (doc/coverage.md, "Schedule coverage for actors").
**
** The search starts with one random execution.  Every execution whose
** receives cover a goal not covered before becomes a *base*.  For each
** base, and each pair of receives ri before rj of one machine in it under
** the criterion of the current phase (PR, then PBR, then PCR, as Bita
** escalates), whose other order (rj before ri) is a goal not yet covered
** nor tried, and which is not ordered by must-happen-before, the search
** builds a schedule and forces it in one execution:
**   schedule = the base's receives before ri, then those of rj's causes
**              that came after ri, then rj, ri, then the rest of the base
**              without what depended on ri or rj.
** Must-happen-before (MHB): ri must precede rj when rj's message was sent
** by ri's handler run or by a run after it in the causal order (the
** links of SchedNode: a machine's runs in order, a message from its
** sender's run, a machine's start from its creator's run), or when the
** two messages were sent in that order by one run or by causally ordered
** runs (P's inbox is one FIFO per receiver: receives follow sends).
** Forcing: at each scheduling choice every enabled machine's step is
** tried on a scratch State and read as a receive and a send
** (schedtrack_peek).  A step is held when it would make a scheduled
** receive that is not the schedule's head, or send a message whose
** scheduled receive comes after a scheduled receive of the same machine
** whose message is not sent yet.  Among the steps not held, the one making
** the head receive is taken, else one at random; when every step is held
** the head cannot happen now and is dropped.  While the schedule has
** entries left, data choices take the values the base took at the same
** machine's same data choice; after it, fresh ones.  The
** goal counts as covered only when the execution shows it.
** The search ends at a bug, --schedules executions, the timeout, or when
** no base has a goal left to try.  Executions are cut at --max-steps
** (10,000 by default, as the other unfair searches). */
#include <config.h>
#include "checker/search/search_int.h"
#include "checker/base/rng.h"
#include "checker/observe/schedcov.h"
#include <stdlib.h>
#include <string.h>

/* Must-happen-before is computed over a base's first MAX_NODES handler
** runs (a bitset of ancestors per run); receives past them get no goals.
** At most MAX_BASES bases are kept. */
enum { MAX_NODES = 4096, MAX_BASES = 4096 };

/* A data choice of an execution: a key (the choosing machine's identity
** and the choice's ordinal among that machine's), and the value taken. */
typedef struct DataRec {
  uint64_t key;
  uint32_t value;
} DataRec;

/* An execution schedules are generated from (copies of its tracker). */
typedef struct Base {
  SchedRecv *recvs;
  uint32_t nrecvs;
  SchedNode *nodes;
  uint32_t nnodes;
  DataRec *data;             /* sorted by key */
  uint32_t ndata;
} Base;

/* One receive of the schedule being forced. */
enum { E_PENDING, E_SENT, E_DONE, E_DROPPED };
typedef struct Entry {
  uint64_t recv, to;         /* the receive's identity; its receiver's */
  int32_t prevsame;          /* the previous entry with the same receiver, or -1 */
  uint8_t st;                /* E_*: its message not sent yet, sent, received, or dropped */
} Entry;

typedef struct Bita {
  Walk w;
  Rng rng;
  SchedCov *cov;             /* goals covered: the run's (--coverage) or own */
  SchedCov *own;             /* cov when the run has none (freed here) */
  SchedCov *tried;           /* goals a schedule was made for */
  Base *bases;
  uint32_t nbases, bases_cap;
  /* The schedule being forced (len 0: none, every choice random). */
  Entry *S;
  uint32_t len, cap, head;   /* head: the first entry neither received nor dropped */
  uint32_t *index;           /* open addressing by receive identity: entry + 1, 0 empty */
  uint32_t icap;
  /* Data choices: the base followed, and this execution's. */
  const Base *follow;
  int forcing;               /* the last machine choice was made with schedule entries left */
  uint32_t *dcount;          /* per VM machine id: its data choices so far */
  uint32_t dcap;
  DataRec *cur;
  uint32_t ncur, curcap;
  /* Trial steps at one choice: States, their choices, their events. */
  Buf trial, trial2;
  VmChoices tch;
  VmEvent *tev;
  uint32_t ntev, tevcap;
  SchedPeek *peek;
  uint8_t *ok;
  uint32_t pcap;
  /* Ancestors of the base being worked on: nn runs, words per bitset. */
  uint64_t *anc;
  uint32_t nn, words;
  uint64_t seed;             /* from --seed, for data values no base gives: new each execution */
  /* Figures. */
  uint64_t forced, realized, dropped;
} Bita;

/* ---------------------------------------------------------------------- */
/* The schedule's index: receive identity -> entry.                        */

/* The entry of receive identity r in the schedule, or -1. */
static int32_t entry_of(const Bita *b, uint64_t r) {
  if (!b->len || !r) return -1;
  for (uint32_t i = (uint32_t)rng_mix(r) & (b->icap - 1);; i = (i + 1) & (b->icap - 1)) {
    if (!b->index[i]) return -1;
    if (b->S[b->index[i] - 1].recv == r) return (int32_t)(b->index[i] - 1);
  }
}

/* Append the receive r of receiver `to`; a receive already in the
** schedule is not added again. */
static void entry_add(Bita *b, uint64_t r, uint64_t to) {
  if (entry_of(b, r) >= 0) return;
  if (b->len == b->cap) {
    b->cap = b->cap ? 2 * b->cap : 256;
    b->S = xrealloc(b->S, b->cap * sizeof *b->S);
  }
  int32_t prev = -1;
  for (uint32_t k = b->len; k-- > 0;)
    if (b->S[k].to == to) { prev = (int32_t)k; break; }
  b->S[b->len] = (Entry){ r, to, prev, E_PENDING };
  uint32_t i = (uint32_t)rng_mix(r) & (b->icap - 1);
  while (b->index[i]) i = (i + 1) & (b->icap - 1);
  b->index[i] = ++b->len;
}

/* Empty the schedule, with room in the index for n entries. */
static void schedule_reset(Bita *b, uint32_t n) {
  b->len = b->head = 0;
  uint32_t want = 16;
  while (want < 2 * n + 2) want *= 2;
  if (want > b->icap) {
    free(b->index);
    b->index = xmalloc(want * sizeof *b->index);
    b->icap = want;
  }
  memset(b->index, 0, b->icap * sizeof *b->index);
}

/* ---------------------------------------------------------------------- */
/* Forcing: the pick function of the walk.                                 */

/* Move the head past received and dropped entries. */
static void advance_head(Bita *b) {
  while (b->head < b->len && b->S[b->head].st >= E_DONE) b->head++;
}

/* May a step that does p be taken now (the rules in the header)? */
static int step_allowed(const Bita *b, const SchedPeek *p) {
  int32_t q = entry_of(b, p->recv);
  if (q >= 0 && b->S[q].st < E_DONE && (uint32_t)q != b->head) return 0;
  q = entry_of(b, p->sent);
  if (q >= 0 && b->S[q].st == E_PENDING)
    for (int32_t k = b->S[q].prevsame; k >= 0; k = b->S[k].prevsame)
      if (b->S[k].st == E_PENDING) return 0;
  return 1;
}

/* The step p is taken: its receive and its send count in the schedule. */
static void step_taken(Bita *b, const SchedPeek *p) {
  int32_t q = entry_of(b, p->sent);
  if (q >= 0 && b->S[q].st == E_PENDING) b->S[q].st = E_SENT;
  q = entry_of(b, p->recv);
  if (q >= 0 && b->S[q].st < E_DONE) b->S[q].st = E_DONE;
}

/* The value of data choice number k of VM machine m in this execution,
** among n options: the followed base's value at the same machine's same
** choice when it has one below n, else one drawn from the seed and the
** choice (a function of them: a trial step and the real one agree). */
static uint32_t data_value(const Bita *b, uint32_t m, uint32_t k, uint32_t n, uint64_t *key_out) {
  uint64_t key = rng_mix(schedtrack_machine(b->w.track, m) ^ rng_mix(k + 1));
  *key_out = key;
  if (b->follow && b->forcing) {
    uint32_t lo = 0, hi = b->follow->ndata;
    while (lo < hi) {
      uint32_t mid = lo + (hi - lo) / 2;
      if (b->follow->data[mid].key < key) lo = mid + 1;
      else hi = mid;
    }
    if (lo < b->follow->ndata && b->follow->data[lo].key == key && b->follow->data[lo].value < n)
      return b->follow->data[lo].value;
  }
  return (uint32_t)(rng_mix(key ^ b->seed) % n);
}

/* VM machine m's data choices so far in this execution (the counter). */
static uint32_t *data_count(Bita *b, uint32_t m) {
  if (m >= b->dcap) {
    uint32_t cap = b->dcap ? b->dcap : 16;
    while (cap <= m) cap *= 2;
    b->dcount = xrealloc(b->dcount, cap * sizeof *b->dcount);
    memset(b->dcount + b->dcap, 0, (cap - b->dcap) * sizeof *b->dcount);
    b->dcap = cap;
  }
  return &b->dcount[m];
}

/* Append the events of the last VM call to b->tev. */
static void keep_events(Bita *b) {
  uint32_t n;
  const VmEvent *ev = vm_events(b->w.vm, &n);
  if (b->ntev + n > b->tevcap) {
    while (b->ntev + n > b->tevcap) b->tevcap = b->tevcap ? 2 * b->tevcap : 64;
    b->tev = xrealloc(b->tev, b->tevcap * sizeof *b->tev);
  }
  if (n) memcpy(b->tev + b->ntev, ev, n * sizeof *ev);
  b->ntev += n;
}

/* What running machine id from the walk's current State would receive
** and send: its step, then the data choices it stops at, taken as
** pick_data will take them, until it stops at a scheduling point (a
** machine's send may follow its data choice in the same step).  A step
** that fails is free to take (peek all 0). */
static void try_machine(Bita *b, uint32_t id, SchedPeek *p) {
  b->ntev = 0;
  b->trial.len = 0;
  VmStatus st = vm_step_expand(b->w.vm, (const uint8_t *)b->w.a.data, b->w.a.len, id, &b->trial);
  uint32_t k = 0;
  while (st == VM_OK) {
    keep_events(b);
    if (!vm_footprint(b->w.vm)->choice) break;
    st = vm_choices(b->w.vm, (const uint8_t *)b->trial.data, b->trial.len, &b->tch);
    if (st != VM_OK || b->tch.kind != VC_DATA) break;
    uint64_t key;
    uint32_t v = data_value(b, b->tch.machine, *data_count(b, b->tch.machine) + k++, b->tch.n, &key);
    b->trial2.len = 0;
    st = vm_step_expand(b->w.vm, (const uint8_t *)b->trial.data, b->trial.len, v, &b->trial2);
    Buf t = b->trial;
    b->trial = b->trial2;
    b->trial2 = t;
  }
  if (st == VM_OK) schedtrack_peek(b->w.track, b->tev, b->ntev, p);
  else *p = (SchedPeek){ 0, 0, 0 };
}

/* Try each enabled machine (b->peek). */
static void try_steps(Bita *b, const VmChoices *ch) {
  if (ch->n > b->pcap) {
    b->pcap = ch->n;
    b->peek = xrealloc(b->peek, b->pcap * sizeof *b->peek);
    b->ok = xrealloc(b->ok, b->pcap);
  }
  for (uint32_t i = 0; i < ch->n; i++) try_machine(b, ch->ids[i], &b->peek[i]);
}

/* A data choice (data_value), recorded for the execution's base. */
static uint32_t pick_data(Bita *b, const VmChoices *ch) {
  uint32_t *count = data_count(b, ch->machine);
  uint64_t key;
  uint32_t v = data_value(b, ch->machine, (*count)++, ch->n, &key);
  if (b->ncur == b->curcap) {
    b->curcap = b->curcap ? 2 * b->curcap : 64;
    b->cur = xrealloc(b->cur, b->curcap * sizeof *b->cur);
  }
  b->cur[b->ncur++] = (DataRec){ key, v };
  return v;
}

/* The walk's pick: a data choice as the base took it; a machine by the
** forcing rules while the schedule has entries left, else at random. */
static uint32_t pick_bita(void *ctx, const VmChoices *ch) {
  Bita *b = ctx;
  if (ch->kind == VC_DATA) return pick_data(b, ch);
  advance_head(b);
  b->forcing = b->head < b->len;
  if (!b->forcing) return ch->ids[rng_below(&b->rng, ch->n)];
  try_steps(b, ch);
  for (;;) {
    advance_head(b);
    if (b->head == b->len) return ch->ids[rng_below(&b->rng, ch->n)];
    uint32_t nok = 0, pick = UINT32_MAX;
    for (uint32_t i = 0; i < ch->n; i++) {
      b->ok[i] = (uint8_t)step_allowed(b, &b->peek[i]);
      nok += b->ok[i];
      if (b->ok[i] && pick == UINT32_MAX && b->peek[i].recv == b->S[b->head].recv) pick = i;
    }
    if (pick == UINT32_MAX && nok) {
      uint32_t k = rng_below(&b->rng, nok);
      for (pick = 0; !b->ok[pick] || k--; pick++) {}
    }
    if (pick != UINT32_MAX) {
      step_taken(b, &b->peek[pick]);
      return ch->ids[pick];
    }
    b->S[b->head].st = E_DROPPED;   /* every step is held: the head cannot happen now */
    b->dropped++;
  }
}

/* ---------------------------------------------------------------------- */
/* Bases and must-happen-before.                                           */

static int cmp_data(const void *x, const void *y) {
  const DataRec *p = x, *q = y;
  return p->key < q->key ? -1 : p->key > q->key;
}

/* Keep the execution just run (the walk's tracker, b->cur) as a base. */
static void add_base(Bita *b) {
  if (b->nbases == MAX_BASES) return;
  if (b->nbases == b->bases_cap) {
    b->bases_cap = b->bases_cap ? 2 * b->bases_cap : 16;
    b->bases = xrealloc(b->bases, b->bases_cap * sizeof *b->bases);
  }
  const SchedTrack *t = b->w.track;
  Base *x = &b->bases[b->nbases++];
  x->nrecvs = t->nrecvs;
  x->recvs = xmalloc((t->nrecvs ? t->nrecvs : 1) * sizeof *x->recvs);
  if (t->nrecvs) memcpy(x->recvs, t->recvs, t->nrecvs * sizeof *x->recvs);
  x->nnodes = t->nnodes;
  x->nodes = xmalloc((t->nnodes ? t->nnodes : 1) * sizeof *x->nodes);
  if (t->nnodes) memcpy(x->nodes, t->nodes, t->nnodes * sizeof *x->nodes);
  x->ndata = b->ncur;
  x->data = xmalloc((b->ncur ? b->ncur : 1) * sizeof *x->data);
  if (b->ncur) memcpy(x->data, b->cur, b->ncur * sizeof *x->data);
  if (x->ndata > 1) qsort(x->data, x->ndata, sizeof *x->data, cmp_data);
}

/* Is run x among the causal ancestors of run y (both below b->nn)? */
static int before(const Bita *b, int32_t x, int32_t y) {
  return x >= 0 && y >= 0 && (uint32_t)y < b->nn && (b->anc[(size_t)y * b->words + x / 64] >> (x % 64) & 1);
}

/* The ancestor bitsets of base x's first runs (b->anc). */
static void base_ancestors(Bita *b, const Base *x) {
  b->nn = x->nnodes < MAX_NODES ? x->nnodes : MAX_NODES;
  b->words = (b->nn + 63) / 64;
  free(b->anc);
  b->anc = xcalloc((size_t)b->nn * b->words + 1, sizeof *b->anc);
  for (uint32_t k = 0; k < b->nn; k++) {
    uint64_t *row = b->anc + (size_t)k * b->words;
    int32_t link[2] = { x->nodes[k].prev, x->nodes[k].cause };
    for (int l = 0; l < 2; l++) {
      int32_t p = link[l];
      if (p < 0 || (uint32_t)p >= k) continue;
      const uint64_t *up = b->anc + (size_t)p * b->words;
      for (uint32_t w = 0; w < b->words; w++) row[w] |= up[w];
      row[p / 64] |= 1ull << (p % 64);
    }
  }
}

/* Must receive i precede receive j (i before j in base x, one machine)? */
static int must_precede(const Bita *b, const Base *x, uint32_t i, uint32_t j) {
  const SchedRecv *ri = &x->recvs[i], *rj = &x->recvs[j];
  if (ri->cause < 0 || rj->cause < 0 || (uint32_t)rj->node >= b->nn) return 1;   /* unknown: keep */
  if (ri->node == rj->cause || before(b, ri->node, rj->cause)) return 1;        /* rj's send after ri */
  if (ri->cause == rj->cause) return ri->ord < rj->ord;                          /* one run sent both */
  return before(b, ri->cause, rj->cause);                                        /* FIFO through causality */
}

/* The schedule that puts receive j of base x before receive i (header). */
static void build_schedule(Bita *b, const Base *x, uint32_t i, uint32_t j) {
  schedule_reset(b, x->nrecvs);
  const SchedRecv *R = x->recvs;
  int32_t cj = R[j].cause, ni = R[i].node, nj = R[j].node;
  for (uint32_t k = 0; k < i; k++) entry_add(b, R[k].id, R[k].to);
  for (uint32_t k = i + 1; k < j; k++)
    if (R[k].node == cj || before(b, R[k].node, cj)) entry_add(b, R[k].id, R[k].to);
  entry_add(b, R[j].id, R[j].to);
  entry_add(b, R[i].id, R[i].to);
  for (uint32_t k = i + 1; k < x->nrecvs && (uint32_t)R[k].node < b->nn; k++)
    if (k != j && !before(b, ni, R[k].node) && !before(b, nj, R[k].node)) entry_add(b, R[k].id, R[k].to);
}

/* ---------------------------------------------------------------------- */
/* The search.                                                             */

/* What one run of the search shares with its parts. */
typedef struct Run {
  Bita *b;
  const BcProgram *bc;
  const SearchOptions *o;
  FILE *logf;
  Buf log;
  SearchResult *res;
  Progress prog;
  int64_t max_steps;
  const char *why;           /* why it stopped early (timeout, interrupt), or NULL */
  int truncated;             /* some execution was cut at max_steps */
} Run;

enum { R_GO, R_STOP, R_BUG, R_FAIL };

/* Run one execution (forcing b's schedule, following base `follow`'s
** data choices); keep it as a base when it covered a new goal. */
static int execute(Run *r, const Base *follow) {
  Bita *b = r->b;
  const SearchOptions *o = r->o;
  if (search_should_stop(o, &r->prog, &r->why)) return R_STOP;
  if (o->schedules >= 0 && r->res->executions >= (uint64_t)o->schedules) return R_STOP;
  progress_tick(&r->prog, o, r->res, r->res->executions, "executions");
  r->res->executions++;
  if (o->verbose)
    buf_printf(&r->log, "<TestLog> Execution %llu (seed %llu)\n", (unsigned long long)r->res->executions,
               (unsigned long long)o->seed);
  b->follow = follow;
  b->forcing = b->len > 0;
  b->ncur = 0;
  b->seed = rng_mix(o->seed ^ rng_mix(r->res->executions));
  if (b->dcap) memset(b->dcount, 0, b->dcap * sizeof *b->dcount);
  uint64_t before_n = schedcov_count(b->cov);
  WalkEnd end = walk_run(&b->w, r->max_steps, pick_bita, b, r->res);
  if (o->verbose && r->logf) { fwrite(r->log.data ? r->log.data : "", 1, r->log.len, r->logf); r->log.len = 0; }
  if (end == WALK_FAIL) return R_FAIL;
  if (end == WALK_BUG) return R_BUG;
  if (b->w.stopped) {   /* cut short by a stop: not a --max-steps cut */
    r->why = b->w.stopped;
    return R_STOP;
  }
  if (end == WALK_CUT) r->truncated = 1;
  if (schedcov_count(b->cov) > before_n) add_base(b);
  return R_GO;
}

static const char *const crit_name[SC_NCRIT] = { "PR", "PCR", "PBR" };

/* Candidates of one base under one criterion, collected by sched_pairs. */
typedef struct Cands {
  uint8_t crit;
  uint32_t (*ij)[2];
  uint32_t n, cap;
} Cands;
static void collect(void *ctx, uint32_t i, uint32_t j, uint8_t crit) {
  Cands *c = ctx;
  if (crit != c->crit) return;
  if (c->n == c->cap) {
    c->cap = c->cap ? 2 * c->cap : 64;
    c->ij = xrealloc(c->ij, c->cap * sizeof *c->ij);
  }
  c->ij[c->n][0] = i;
  c->ij[c->n++][1] = j;
}

/* Force the goal "receive j before receive i" of base number bi; hand
** the schedule to --save-schedules. */
static int force_goal(Run *r, uint32_t bi, uint32_t i, uint32_t j, uint8_t crit) {
  Bita *b = r->b;
  const Base *x = &b->bases[bi];
  SchedPair goal = { x->recvs[j].id, x->recvs[i].id, x->recvs[j].type, crit };
  build_schedule(b, x, i, j);
  b->forced++;
  /* The base is copied out of b->bases: the execution may add a base. */
  Base follow = *x;
  int rc = execute(r, &follow);
  if (rc == R_STOP) return rc;
  if (schedcov_has(b->cov, &goal)) b->realized++;
  b->len = b->head = 0;
  if (rc == R_GO && r->o->save_schedule) {
    const BcProgram *bc = r->bc;
    const SchedRecv *ri = &b->bases[bi].recvs[i], *rj = &b->bases[bi].recvs[j];
    Buf g;
    buf_init(&g);
    buf_printf(&g, "bita schedule %llu: %s goal at %s(%u): %s (receive %u of the base execution) before %s (receive %u)%s",
               (unsigned long long)b->forced, crit_name[crit], bc->machines[rj->type].name, rj->machine + 1,
               bc->event_names[rj->event], j, bc->event_names[ri->event], i,
               schedcov_has(b->cov, &goal) ? "" : "; not realized");
    if (r->o->save_schedule(r->o->save_ctx, g.data, b->w.trace, b->w.depth) != 0) rc = R_FAIL;
    buf_fini(&g);
  }
  return rc;
}

/* Try every open goal of base bi under crit. */
static int goals_of_base(Run *r, uint32_t bi, uint8_t crit) {
  Bita *b = r->b;
  base_ancestors(b, &b->bases[bi]);
  Cands c = { crit, NULL, 0, 0 };
  sched_pairs(b->bases[bi].recvs, b->bases[bi].nrecvs, collect, &c);
  int rc = R_GO;
  for (uint32_t k = 0; k < c.n && rc == R_GO; k++) {
    uint32_t i = c.ij[k][0], j = c.ij[k][1];
    const Base *x = &b->bases[bi];
    SchedPair goal = { x->recvs[j].id, x->recvs[i].id, x->recvs[j].type, crit };
    if (schedcov_has(b->cov, &goal) || must_precede(b, x, i, j) || !schedcov_add(b->tried, &goal)) continue;
    rc = force_goal(r, bi, i, j, crit);
  }
  free(c.ij);
  return rc;
}

int search_run_bita(const BcProgram *bc, const VmTest *test, const SearchOptions *o, FILE *logf, SearchResult *res) {
  Bita b;
  memset(&b, 0, sizeof b);
  b.cov = o->sched ? o->sched : (b.own = schedcov_new(bc));
  b.tried = schedcov_new(bc);
  walk_init(&b.w, bc, test, 0, b.cov);   /* unfair: no temperature check (search_temperature) */
  rng_seed(&b.rng, o->seed);
  buf_init(&b.trial);
  buf_init(&b.trial2);
  Run r;
  memset(&r, 0, sizeof r);
  r.b = &b;
  r.bc = bc;
  r.o = o;
  r.logf = logf;
  r.res = res;
  r.max_steps = search_max_steps(o, 0);
  walk_set_bound(&b.w, o, r.max_steps);
  buf_init(&r.log);
  if (o->verbose) vm_set_log(b.w.vm, &r.log);
  progress_init(&r.prog);
  b.w.stop_o = o;   /* a long execution does not hold a --timeout back (walk_run) */
  b.w.stop_prog = &r.prog;
  /* Escalation: a base's PR goals, then (every base done under PR) PBR,
  ** then PCR; a base added meanwhile goes through PR first.  next[ph]: the
  ** first base not yet worked on under phase ph.  With no goal left, a
  ** random execution (that may add a base). */
  static const uint8_t phases[] = { SC_PR, SC_PBR, SC_PCR };
  uint32_t next[3] = { 0, 0, 0 };
  int rc = R_GO;
  while (rc == R_GO) {
    int ph = 0;
    while (ph < 3 && next[ph] == b.nbases) ph++;
    if (ph == 3) rc = execute(&r, NULL);
    else rc = goals_of_base(&r, next[ph]++, phases[ph]);
  }
  if (res->bug && res->ntrace > res->max_depth) res->max_depth = res->ntrace;
  if (o->verbose && logf && r.log.len) fwrite(r.log.data, 1, r.log.len, logf);
  progress_done(&r.prog, o);
  res->seconds = search_now() - r.prog.start;
  if (!res->bug && rc != R_FAIL) {
    Buf t;
    buf_init(&t);
    if (r.why) buf_printf(&t, "%s after ", r.why);
    buf_printf(&t, "%llu executions (bita: %llu forced a schedule, %llu of them its goal)",
               (unsigned long long)res->executions, (unsigned long long)b.forced, (unsigned long long)b.realized);
    if (r.truncated) buf_printf(&t, ", some cut at %lld steps", (long long)r.max_steps);
    res->bound = buf_take(&t);
  }
  for (uint32_t i = 0; i < b.nbases; i++) {
    free(b.bases[i].recvs);
    free(b.bases[i].nodes);
    free(b.bases[i].data);
  }
  free(b.bases);
  free(b.S);
  free(b.index);
  free(b.dcount);
  free(b.cur);
  free(b.peek);
  free(b.ok);
  free(b.anc);
  buf_fini(&b.trial);
  buf_fini(&b.trial2);
  vm_choices_fini(&b.tch);
  free(b.tev);
  buf_fini(&r.log);
  walk_fini(&b.w);
  schedcov_free(b.tried);
  schedcov_free(b.own);
  return rc == R_FAIL ? -1 : 0;
}
