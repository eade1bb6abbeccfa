/* genmodel.c: a generator of small random P models, for the differential
** test of partial-order reduction (an exhaustive search with and without
** the reduction must give the same verdict).
**
** Contract:
**   int genmodel(uint64_t seed, char *buf, size_t cap);
** writes one P model, a pure function of seed, into buf (NUL-terminated)
** and returns its length, or -1 when cap is too small (buf then holds no
** usable model).  No dependency beyond libc, no global state, its own
** PRNG (splitmix64): the same seed gives the same model on every platform.
**
** Every model but its extras (below), by construction:
**   - type-checks under pcheck (`pcheck --check-only`);
**   - has a finite state space, small enough for an exhaustive search
**     without reduction (on seeds 1-2000: median a few hundred states,
**     rarely above 50,000): every send outside a machine's one-time start
**     entry spends one unit of the machine's `fuel` (0 to 3, within a
**     budget over all machines), every raise and every goto of an entry
**     one unit of its `hops` (1 or 2), every int is kept in [0, 3) (event
**     tags in [0, 5]), spec counters saturate at 3, a machine creates each
**     of its children once, at most 3 machines besides Main;
**   - consists of 2-5 events (payloads none, int, machine, or a
**     (m: machine, v: int) tuple), a machine Main that creates 1-3
**     machines of 1-3 other types, 0-2 specs, and one test `tcMain`
**     naming Main, every machine type and asserting the specs;
**   - is either "intended correct" (no reachable bug of any kind: every
**     event is handled, deferred or ignored in every state, asserts are
**     invariants, every `receive` is preceded by a send that satisfies it
**     or waits for a hello that is always sent, hot spec states are left
**     within the same handler, sends to a peer that may be null are
**     under a null test), or, for 75% of the seeds, "intended buggy" with
**     one or two chosen sources of bugs (violable machine or spec
**     asserts, states with an unhandled event, a `receive` that may wait
**     forever, a hot spec state that may never be left, a send to a peer
**     that may be null); such a bug may or may not be reachable (on
**     seeds 1-2000 about half of them are, a third of all models).
** The first line of the model says which (`// intended: ...`).
**
** The extras (section "extras", 55% of the seeds): what the fuel keeps
** out of the models above, added to them, drawn from a second stream of
** random numbers so that the rest of the model is the text it would be
** without them: a Pump machine (1-2) and Main's start entry sending in
** loops that never wait (`while (true)`), or run past the inbox bound, or
** while `$`; `$`, `choose(n)` and the counter inside those loops; a turn
** that sends itself an event and receives it, or waits for any reply; a
** Sink that takes its events by `receive` in an endless loop (the events
** of no case pile up) or by handlers (one deferred, perhaps `on null`),
** halts after some events or on `$` while others keep sending to it, and
** may answer each; workers' handlers that count without bound, send
** their own event back to themselves, run loops of sends spending no
** fuel, halt on `$`; a spec Live, hot for ever, between two events, or
** until one, on the events the loops send.  Such a model may have
** unhandled events, deadlocks, overflowing inboxes, hot specs, and an
** infinite state space: it is cut by the inbox bound the model is checked
** with or by the checking search's budget.  The second line names that
** bound (`// max-inbox: N`, 0 for none; chosen by seed for every model,
** small ones making overflow reachable in a few steps), the third the
** extras (`// extras: none` for a model without them).
**
** How a model is made: first a plan (events and their payload types;
** machine types, their states, who creates whom, the fuel; for every
** state of every machine what it does with every event; the specs; the
** intended bugs), then the text, statement by statement, each statement
** drawn among those its context allows (struct Ctx).  Every safety
** argument above is local to one generator function, stated at it.
**
** Names in the models: machine variables `x` (an int in [0, 3)), `fuel`,
** `hops`, `peer` (a machine id, null until known), `seen` (order of the
** events taken), `made` (children created), Main's `k0`..`k2` (its
** children); payloads are `p` (handlers, entries), `q` (receive cases);
** the local `t` is an int in [0, 3) or a loop counter; specs have `n`
** (a count saturating at 3), `last` (an int in [0, 3)) and `seen`.
**
** With -DGENMODEL_MAIN, a command:  genmodel SEED [COUNT]
** prints the model for SEED, or writes COUNT models, SEED..SEED+COUNT-1,
** to files m<SEED>.p in the current directory.
*/
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int genmodel(uint64_t seed, char *buf, size_t cap);

/* ---- limits of the generated models ---- */
#define MAX_EV 7   /* at most 5 ordinary events plus eBegin, eEnd */
#define MAX_MT 4   /* Main and up to 3 other machine types */
#define MAX_ST 3   /* states of a machine */
#define MAX_SP 2   /* specs */
#define MAX_SPST 2 /* states of a spec */
#define MAX_KIDS 3 /* machines Main creates */
#define MAX_INST 3 /* machines besides Main, over all creators */

/* Payload types of events and entries. */
enum { PT_NONE, PT_INT, PT_MACH, PT_PAIR };

/* What a state does with an event. */
enum { A_DO, A_GOTO, A_DEFER, A_IGNORE, A_NONE };

/* The sources of bugs an intended-buggy model may contain (bit mask). */
enum {
  B_ASSERT = 1,     /* violable asserts in machines */
  B_SPEC = 2,       /* violable asserts in specs */
  B_UNHANDLED = 4,  /* states leave an event unhandled */
  B_RECV = 8,       /* receives that may wait forever (deadlock) */
  B_HOT = 16,       /* hot spec states that may never be left */
  B_NULL = 32       /* sends to a peer that may still be null */
};

/* Where a statement is generated: restricts what it may do. */
enum {
  K_ENTRY,   /* a state's entry: raise and goto are guarded by `hops` */
  K_HANDLER, /* an `on e do` body */
  K_NULL,    /* an `on null do` body */
  K_EXIT,    /* an exit function: no raise, goto, receive */
  K_WITH,    /* the action of `goto S with`: as exit */
  K_FUN,     /* a named handler function: as exit */
  K_RECV,    /* a case of a receive: as exit */
  K_SPEC     /* a spec's code: no nondeterminism, no this, no sends */
};

/* ---- PRNG: splitmix64 ----
** Small, fast, and every 64-bit state is valid, so any seed (0 included)
** starts a good sequence; the seed is scrambled once more in genmodel(). */

typedef struct { uint64_t s; } Rng;

/* The next 64 random bits. */
static uint64_t rng_next(Rng *r) {
  uint64_t z = (r->s += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

/* ---- the model being planned, and the output ---- */

typedef struct {
  char name[12];
  int pt;       /* payload type */
  int annonly;  /* announced only (eBegin/eEnd of a pair spec), never sent */
} Event;

typedef struct {
  int act;      /* A_* */
  int target;   /* A_GOTO: target state */
  int with;     /* A_GOTO: has a `with` action */
  int named;    /* A_DO: handled by a named function */
} Handler;

typedef struct {
  int entry_pt;   /* payload of the entry (PT_NONE, PT_INT, PT_MACH) */
  int has_entry;  /* non-start states may have no entry */
  int hot;        /* specs only */
  int on_null;    /* has an `on null` handler */
  int has_exit;
  Handler h[MAX_EV];
} State;

typedef struct {
  char name[12];
  int ctor_pt;     /* payload of the start state's entry */
  int hello;       /* start entry sends the hello event to its ctor machine */
  int nst;
  State st[MAX_ST];
  unsigned creates;/* bit j: creates one machine of type j */
  int create_st;   /* where it creates: state, -1 for the start entry */
  int create_ev;   /*   and the event whose handler (with create_st) */
  int fuel;        /* initial fuel: sends */
  int hops;        /* initial hops: raises and gotos in entries */
  int peer_safe;   /* `peer` is never null once the start entry ran */
  int has_mix;     /* declares fun Mix */
  int seen;        /* has `seen`: the last event its `do` handlers took, + 1 */
} Mach;

typedef struct {
  char name[12];
  int pair;        /* observes eBegin/eEnd: hot between them */
  unsigned obs;    /* bit e: observes event e */
  int nst;
  State st[MAX_SPST];
} Spec;

/* Loop shapes of the extras' send loops. */
enum { L_NONE, L_FOREVER, L_BOUNDED, L_DOLLAR };
/* Kinds of the Live spec. */
enum { LV_NONE, LV_FOREVER, LV_BETWEEN, LV_UNTIL };

/* The extras' plan (section "extras"): what a model has beyond the
** fuel-bounded machines and specs, the sources of unbounded behaviour. */
typedef struct {
  int on;          /* any extra at all */
  int max_inbox;   /* the inbox bound the model is checked with (0: none) */
  int npumps;      /* Pump machines Main creates (0-2), each looping on sends to its target */
  int pump_loop;   /* L_*: the Pump's loop */
  int pump_k;      /* L_BOUNDED: turns */
  int pump_after;  /* after a bounded loop: 0 nothing, 1 raise halt, 2 goto Done, 3 send tgt halt */
  int pump_recv;   /* each turn: 0 no receive, 1 sends itself an event and receives it, 2 waits for any reply */
  int pump_defer;  /* the Pump defers (1) or ignores (0) the events sent to it */
  int pump_ev[2];  /* the events it sends */
  int pump_to[2];  /* target of pump i: -1 the Sink, -2 Main, else Main's child k<i> */
  int main_loop;   /* L_*: Main's start entry ends in a loop of sends */
  int main_k;
  int main_to;     /* its target, as pump_to */
  int sink;        /* a Sink machine (Main creates it, passing itself) */
  int sink_recv;   /* it takes events by receive in an endless loop (else with handlers) */
  unsigned sink_cases; /* receive mode: events it receives (the others pile up) */
  int sink_halt;   /* 0 never, 1 when its count reaches sink_k, 2 on $ */
  int sink_k;
  int sink_defer;  /* handler mode: an event it defers (piles up), or -1 */
  int sink_reply;  /* it answers every event taken (to Main, or to the id in the payload) */
  int sink_null;   /* handler mode: an `on null` handler (its steps see the end of its inbox) */
  int sink_bound;  /* its count is kept below 4 (else it grows without bound) */
  int counters;    /* machines count the events they take in `c`, without bound */
  int selfloop;    /* a worker's handler sends its own event back to itself, with no fuel spent */
  int sl_mi, sl_s, sl_e;
  int whalt;       /* workers' handlers may halt (on $) */
  int wloops;      /* workers' handlers may run loops of 1-3 sends with no fuel spent */
  int live;        /* LV_*: a spec Live with hot states on the extras' events */
  int live_a, live_b;
  int live_count;  /* Live counts what it observes without bound */
} Extra;

/* The whole generator state: the plan, then the output position.  It is
** allocated per call (about 5 KB), so genmodel() is reentrant. */
typedef struct {
  Rng r;
  char *buf;       /* output */
  size_t cap, len;
  int overflow;
  int ind;         /* indentation level */
  int nev, nnorm;  /* events; [0, nnorm) are ordinary, the rest announce-only */
  Event ev[MAX_EV];
  int hello_ev;    /* event of the hellos (machine or pair payload), -1 */
  int nm;          /* machine types; m[0] is Main */
  Mach m[MAX_MT];
  int nkids;       /* Main's creations */
  int kid_type[MAX_KIDS];
  int ninit;       /* messages Main sends when it starts (2-3, 1-2 with 3 machines) */
  int nsp;
  Spec sp[MAX_SP];
  int pair_spec;   /* a spec observes eBegin/eEnd */
  int ebegin;      /* index of eBegin (eEnd follows), -1 */
  unsigned bugs;   /* B_* of an intended-buggy model, 0 otherwise */
  /* the extras (section "extras" below): drawn from a stream of their
     own, so that the rest of a model is the text it was without them */
  Rng xr;          /* that stream while the main one is in use (x_begin swaps) */
  int xdepth;      /* nesting of x_begin */
  Extra x;
} Gen;

/* Context of the statement being generated: it decides which
** statements are allowed (no raise or goto where P forbids them or where
** they could loop, no nondeterminism in specs), which names are in scope
** and whether `peer` may be used without a null test. */
typedef struct {
  int mi;          /* machine index; -1 in a spec */
  int si;          /* state index whose handlers apply (raise); -1 none */
  int kind;        /* K_* */
  const char *pn;  /* name of the payload in scope, or NULL */
  int pt;          /* its type */
  int has_t;       /* local `t` declared */
  int in_loop;     /* inside a while on t: t is read-only */
  int depth;       /* nesting of blocks */
  int peer_ok;     /* `peer` is non-null here */
} Ctx;

/* A number in [0, n), n > 0. */
static int rnd(Gen *g, int n) { return (int)(rng_next(&g->r) % (uint64_t)n); }

/* True with probability pct percent. */
static int chance(Gen *g, int pct) { return rnd(g, 100) < pct; }

/* An index into w[0..n) drawn with the weights w (some positive). */
static int pick(Gen *g, const int *w, int n) {
  int sum = 0, i, x;
  for (i = 0; i < n; i++) sum += w[i];
  x = rnd(g, sum);
  for (i = 0; i < n; i++) {
    if (x < w[i]) return i;
    x -= w[i];
  }
  return n - 1;
}

/* Appends formatted text to the output (sets overflow when it does not fit). */
static void put(Gen *g, const char *f, ...) {
  va_list ap;
  size_t room;
  int n;
  if (g->overflow) return;
  room = g->cap - g->len;
  va_start(ap, f);
  n = vsnprintf(g->buf + g->len, room, f, ap);
  va_end(ap);
  if (n < 0 || (size_t)n >= room) { g->overflow = 1; return; }
  g->len += (size_t)n;
}

/* Starts a line at the current indentation. */
static void indent(Gen *g) {
  int i;
  for (i = 0; i < g->ind; i++) put(g, "  ");
}

/* Formats into a small string buffer (expressions). */
static void fmt(char *dst, size_t n, const char *f, ...) {
  va_list ap;
  va_start(ap, f);
  vsnprintf(dst, n, f, ap);
  va_end(ap);
}

/* ---- planning: events, machines, specs, bugs ---- */

/* The ordinary events: 2-5 (2-3 when eBegin/eEnd are added), names from a
** shuffled pool, payload types at random; most models have at least one
** event that carries a machine id, whose first one carries the hellos. */
static void plan_events(Gen *g) {
  static const char *pool[] = { "ePing", "ePong", "eReq", "eResp", "eData",
                                "eAck", "eWork", "eDone", "eToken", "eInfo" };
  int idx[10], i, j, t, mach = 0;
  static const int wpt[] = { 30, 35, 20, 15 };
  for (i = 0; i < 10; i++) idx[i] = i;
  for (i = 9; i > 0; i--) { j = rnd(g, i + 1); t = idx[i]; idx[i] = idx[j]; idx[j] = t; }
  g->nnorm = 2 + rnd(g, g->pair_spec ? 2 : 4);
  for (i = 0; i < g->nnorm; i++) {
    fmt(g->ev[i].name, sizeof g->ev[i].name, "%s", pool[idx[i]]);
    g->ev[i].pt = pick(g, wpt, 4);
    g->ev[i].annonly = 0;
    if (g->ev[i].pt == PT_MACH || g->ev[i].pt == PT_PAIR) mach = 1;
  }
  if (!mach && chance(g, 80)) g->ev[rnd(g, g->nnorm)].pt = chance(g, 60) ? PT_MACH : PT_PAIR;
  g->nev = g->nnorm;
  g->ebegin = -1;
  if (g->pair_spec) {
    g->ebegin = g->nev;
    fmt(g->ev[g->nev].name, sizeof g->ev[0].name, "eBegin");
    fmt(g->ev[g->nev + 1].name, sizeof g->ev[0].name, "eEnd");
    g->ev[g->nev].pt = g->ev[g->nev + 1].pt = PT_NONE;
    g->ev[g->nev].annonly = g->ev[g->nev + 1].annonly = 1;
    g->nev += 2;
  }
  g->hello_ev = -1;
  for (i = 0; i < g->nnorm; i++)
    if (g->ev[i].pt == PT_MACH || g->ev[i].pt == PT_PAIR) { g->hello_ev = i; break; }
}

/* An ordinary event at random. */
static int any_event(Gen *g) { return rnd(g, g->nnorm); }

/* The handler table of state s of machine mi: for every ordinary event a
** `do`, a `goto` (to a non-start state whose entry takes this event's
** payload or none), a `defer` or an `ignore`. */
static void plan_handlers(Gen *g, int mi, int s) {
  Mach *m = &g->m[mi];
  State *st = &m->st[s];
  int e, t, tries;
  /* covering every ordinary event in every state is what keeps a correct
     model free of "unhandled event" bugs: any machine may be sent any
     event, since ids travel in payloads */
  static const int w[] = { 45, 20, 15, 20 };  /* do, goto, defer, ignore */
  for (e = 0; e < g->nev; e++) {
    Handler *h = &st->h[e];
    memset(h, 0, sizeof *h);
    if (g->ev[e].annonly) { h->act = A_NONE; continue; }
    h->act = pick(g, w, 4);
    if (h->act == A_GOTO) {
      /* a target among the non-start states with a compatible entry */
      h->act = A_DO;
      for (tries = 0; tries < 6 && m->nst > 1; tries++) {
        t = 1 + rnd(g, m->nst - 1);
        if (m->st[t].entry_pt == PT_NONE || m->st[t].entry_pt == g->ev[e].pt) {
          h->act = A_GOTO;
          h->target = t;
          h->with = chance(g, 20);
          break;
        }
      }
    }
    if (h->act == A_DO) h->named = chance(g, 12);
  }
  /* `on null` makes the machine's steps sensitive to sends to it (a
     dependence the reduction must respect); its body spends fuel or hops
     like any other, so the machine may keep running it without changing
     state: a self-loop, not a growing state space */
  st->on_null = mi > 0 && s > 0 && chance(g, 8);
  st->has_exit = chance(g, 12);
}

/* The number of machines besides Main (inst[j]: of type j) that Main's
** creations and the creation edges give. */
static int count_inst(Gen *g, int *inst) {
  int i, j, total = 0;
  memset(inst, 0, MAX_MT * sizeof *inst);
  for (i = 0; i < g->nkids; i++) inst[g->kid_type[i]]++;
  for (j = 1; j < g->nm; j++) {
    for (i = 1; i < j; i++) if (g->m[i].creates & (1u << j)) inst[j] += inst[i];
    total += inst[j];
  }
  return total;
}

/* The machine types and who creates whom: Main creates 1-3 machines;
** worker type i may create one machine of a type j > i (so creation
** terminates); every worker type is created by someone, at most
** MAX_INST machines besides Main in all. */
static void plan_machines(Gen *g) {
  static const char *pool[] = { "Client", "Server", "Relay", "Node", "Worker", "Proxy", "Store" };
  static const int wn[] = { 35, 45, 20 };
  static const int wctor[] = { 25, 20, 55 };
  static const int wentry[] = { 60, 25, 15 };
  int idx[7], i, j, t, nw, total;
  int inst[MAX_MT];
  for (i = 0; i < 7; i++) idx[i] = i;
  for (i = 6; i > 0; i--) { j = rnd(g, i + 1); t = idx[i]; idx[i] = idx[j]; idx[j] = t; }
  nw = 1 + pick(g, wn, 3);
  g->nm = 1 + nw;
  for (i = 0; i < g->nm; i++) {
    Mach *m = &g->m[i];
    memset(m, 0, sizeof *m);
    fmt(m->name, sizeof m->name, "%s", i == 0 ? "Main" : pool[idx[i - 1]]);
    m->ctor_pt = i == 0 ? PT_NONE : pick(g, wctor, 3);
    m->hello = m->ctor_pt == PT_MACH && g->hello_ev >= 0 && chance(g, 55);
    m->nst = 2 + rnd(g, 2);
    m->fuel = i == 0 ? 1 + rnd(g, 2) : 2 + rnd(g, 2);
    m->hops = 1 + rnd(g, 2);
    m->peer_safe = i == 0 || m->ctor_pt == PT_MACH;
    m->has_mix = chance(g, 20);
    m->seen = (g->bugs & B_ASSERT) ? chance(g, 80) : chance(g, 50);
    m->st[0].entry_pt = m->ctor_pt;
    m->st[0].has_entry = 1;
    for (j = 1; j < m->nst; j++) {
      m->st[j].entry_pt = pick(g, wentry, 3);
      m->st[j].has_entry = m->st[j].entry_pt != PT_NONE || chance(g, 70);
    }
    m->create_st = -1;
    m->create_ev = -1;
  }
  /* creation edges between worker types; Main creates the types nobody
     else creates; fewer edges while that is over MAX_INST machines */
  for (i = 1; i < g->nm; i++)
    for (j = i + 1; j < g->nm; j++)
      if (chance(g, 30)) g->m[i].creates |= 1u << j;
  /* an edge i -> j (i < j) makes every machine of type i create one of
     type j; with no edge into j, Main creates it: so the types form a DAG
     and the number of machines is finite, and count_inst() gives it */
  for (;;) {
    g->nkids = 0;
    for (j = 1; j < g->nm; j++) {
      int incoming = 0;
      for (i = 1; i < j; i++) if (g->m[i].creates & (1u << j)) incoming = 1;
      if (!incoming) g->kid_type[g->nkids++] = j;
    }
    if (count_inst(g, inst) <= MAX_INST) break;
    i = 1 + rnd(g, g->nm - 1);
    g->m[i].creates = 0;
  }
  /* extra creations by Main, of types that create nothing, while the
     instance budget allows */
  while (g->nkids < MAX_KIDS && count_inst(g, inst) < MAX_INST && chance(g, count_inst(g, inst) == 1 ? 60 : 30)) {
    t = 1 + rnd(g, g->nm - 1);
    if (g->m[t].creates) break;
    g->kid_type[g->nkids++] = t;
  }
  /* the fuel: at most a budget over all the machines, smaller the more
     machines there are (6-9 units with one machine besides Main, 5-8
     with two, 3-4 with three) */
  {
    int budget, f;
    total = count_inst(g, inst);
    g->ninit = total >= 3 ? 1 + rnd(g, 2) : 2 + rnd(g, 2);
    budget = total <= 1 ? 6 + rnd(g, 4) : total == 2 ? 5 + rnd(g, 4) : 3 + rnd(g, 2);
    if (total <= 1)  /* a lone worker: more fuel each, for a few hundred states */
      for (j = 0; j < g->nm; j++) g->m[j].fuel += 1 + rnd(g, 2);
    /* take fuel away from random types until the total (each type's
       fuel times its number of machines) fits; Main keeps at least 1 */
    for (;;) {
      f = g->m[0].fuel;
      for (j = 1; j < g->nm; j++) f += inst[j] * g->m[j].fuel;
      if (f <= budget) break;
      j = rnd(g, g->nm);
      if (g->m[j].fuel > (j == 0)) g->m[j].fuel--;
    }
  }
  /* where each creator creates: its start entry (-1), or a `do` handler
     (1 for now: placed once the handler tables exist) */
  for (i = 1; i < g->nm; i++) g->m[i].create_st = g->m[i].creates && chance(g, 50) ? 1 : -1;
}

/* Makes every non-start state of machine mi the target of a `goto`
** handler of a state before it (so that no state is dead code); a state
** whose entry payload no event carries takes none. */
static void plan_reach(Gen *g, int mi) {
  Mach *m = &g->m[mi];
  int s, t, e, k, found;
  for (s = 1; s < m->nst; s++) {
    found = 0;
    for (t = 0; t < m->nst; t++)
      for (e = 0; e < g->nnorm; e++)
        if (t != s && m->st[t].h[e].act == A_GOTO && m->st[t].h[e].target == s) found = 1;
    if (found) continue;
    t = rnd(g, s);
    for (k = 0; k < g->nnorm && !found; k++) {
      e = (k + t + s) % g->nnorm;
      if (m->st[s].entry_pt == PT_NONE || m->st[s].entry_pt == g->ev[e].pt) found = 1;
    }
    if (!found) {
      m->st[s].entry_pt = PT_NONE;
      e = any_event(g);
    } else {
      e = (k - 1 + t + s) % g->nnorm;
    }
    m->st[t].h[e].act = A_GOTO;
    m->st[t].h[e].target = s;
    m->st[t].h[e].with = chance(g, 20);
    m->st[t].h[e].named = 0;
  }
}

/* The specs: 0-2, each counting or checking the payloads of 1-3
** ordinary events; one may be a "pair" spec, hot between eBegin and eEnd
** (announced together by the machines, so it is always left). With
** B_HOT, a counting spec gets a hot state entered and left on ordinary
** events, or the pair spec's announces are unbalanced. */
static void plan_specs(Gen *g) {
  int i, s, e, n;
  static const int wsp[] = { 35, 45, 20 };
  static const int wact[] = { 55, 25, 20 };  /* do, goto, ignore */
  g->nsp = pick(g, wsp, 3);
  if ((g->bugs & (B_SPEC | B_HOT)) && g->nsp == 0) g->nsp = 1;
  for (i = 0; i < g->nsp; i++) {
    Spec *sp = &g->sp[i];
    memset(sp, 0, sizeof *sp);
    sp->pair = g->pair_spec && i == 0;
    fmt(sp->name, sizeof sp->name, sp->pair ? "Balanced" : i == 0 ? "Counter" : "Checker");
    if (sp->pair) {
      /* Idle --eBegin--> Busy (hot) --eEnd--> Idle; the other event of
         each state is ignored or handled in place, so a begin inside a
         begin (two machines) never leaves it hot at the end */
      sp->nst = 2;
      sp->st[1].hot = 1;
      sp->obs = 3u << g->ebegin;
      if (chance(g, 40)) sp->obs |= 1u << any_event(g);
      for (e = 0; e < g->nev; e++) {
        for (s = 0; s < 2; s++) {
          Handler *h = &sp->st[s].h[e];
          h->act = chance(g, 60) ? A_DO : A_IGNORE;
          h->target = 0;
        }
      }
      sp->st[0].h[g->ebegin].act = A_GOTO;
      sp->st[0].h[g->ebegin].target = 1;
      sp->st[1].h[g->ebegin + 1].act = A_GOTO;
      sp->st[1].h[g->ebegin + 1].target = 0;
      continue;
    }
    /* a counting spec: 1-3 observed ordinary events, 1-2 cold states,
       each observed event handled in place, moving, or ignored (so a
       correct model never has an unhandled observed event) */
    n = 1 + rnd(g, g->nnorm < 3 ? g->nnorm : 3);
    while (n > 0) {
      e = any_event(g);
      if (!(sp->obs & (1u << e))) { sp->obs |= 1u << e; n--; }
    }
    sp->nst = 1 + rnd(g, 2);
    for (s = 0; s < sp->nst; s++)
      for (e = 0; e < g->nnorm; e++) {
        Handler *h = &sp->st[s].h[e];
        int k = pick(g, wact, 3);
        h->act = k == 0 ? A_DO : k == 1 ? A_GOTO : A_IGNORE;
        h->target = rnd(g, sp->nst);
      }
    if ((g->bugs & B_HOT) && !g->pair_spec && i == 0) {
      /* a hot state entered on one event and left on another */
      int a = any_event(g), b = any_event(g);
      if (sp->nst < 2) {
        sp->nst = 2;
        for (e = 0; e < g->nnorm; e++) sp->st[1].h[e] = sp->st[0].h[e];
      }
      sp->st[1].hot = 1;
      sp->obs |= (1u << a) | (1u << b);
      sp->st[0].h[a].act = A_GOTO;
      sp->st[0].h[a].target = 1;
      sp->st[1].h[b].act = A_GOTO;
      sp->st[1].h[b].target = 0;
    }
  }
}

/* The intended bugs: none (a correct model, 25% of the seeds) or one or
** two sources, weighted towards assertion failures; each source is only
** a possibility, reached in about half of the buggy models. */
static void plan_bugs(Gen *g) {
  static const int w[] = { 32, 18, 18, 15, 10, 7 };
  int k, n;
  g->bugs = 0;
  if (!chance(g, 75)) return;
  n = 1 + chance(g, 50);
  while (n-- > 0) {
    k = pick(g, w, 6);
    g->bugs |= 1u << k;
  }
}

/* With B_UNHANDLED: three states of machines other than Main (start
** states more often: they are the ones most events reach) each leave an
** event unhandled that they would otherwise handle. */
static void plan_unhandled(Gen *g) {
  int k;
  for (k = 0; k < 3; k++) {
    int mi = 1 + rnd(g, g->nm - 1), s = chance(g, 50) ? 0 : rnd(g, g->m[mi].nst), e = any_event(g);
    if (g->m[mi].create_st == s && g->m[mi].create_ev == e) continue;
    g->m[mi].st[s].h[e].act = A_NONE;
  }
}

/* ---- expressions ---- */

/* An int expression of the context, always in [0, 3). */
static void int_expr(Gen *g, Ctx *c, char *d, size_t n) {
  int k = rnd(g, 10);
  /* every source of an int is in [0, 3): literals, x, t, payloads (which
     are built from these), `% 3`, choose(3); so `assert x < 3` and the
     like are invariants */
  if (c->mi < 0) {  /* spec: no choose */
    if (c->pt == PT_INT && k < 4) fmt(d, n, "%s", c->pn);
    else if (c->pt == PT_PAIR && k < 4) fmt(d, n, "%s.v", c->pn);
    else if (k < 6) fmt(d, n, "(last + 1) %% 3");
    else fmt(d, n, "%d", rnd(g, 3));
    return;
  }
  switch (k) {
    case 0: case 1: fmt(d, n, "%d", rnd(g, 3)); return;
    case 2: fmt(d, n, "x"); return;
    case 3: fmt(d, n, "(x + %d) %% 3", 1 + rnd(g, 2)); return;
    case 4: fmt(d, n, "choose(3)"); return;
    case 5: if (c->has_t) { fmt(d, n, "t"); return; } break;
    case 6: if (g->m[c->mi].has_mix) { fmt(d, n, "Mix(x, %d)", rnd(g, 3)); return; } break;
    default: break;
  }
  if (c->pt == PT_INT) fmt(d, n, "%s", c->pn);
  else if (c->pt == PT_PAIR) fmt(d, n, "%s.v", c->pn);
  else fmt(d, n, "%d", rnd(g, 3));
}

/* A boolean expression of the context. */
static void bool_expr(Gen *g, Ctx *c, char *d, size_t n) {
  int k = rnd(g, 12);
  if (c->mi < 0) {
    if (c->pt == PT_INT && k < 5) fmt(d, n, "%s %s %d", c->pn, k & 1 ? "==" : "<", rnd(g, 3));
    else if (k < 8) fmt(d, n, "n %s %d", k & 1 ? "<" : "==", rnd(g, 3));
    else fmt(d, n, "last != %d", rnd(g, 3));
    return;
  }
  switch (k) {
    case 0: case 1: case 2: fmt(d, n, "$"); return;
    case 3: fmt(d, n, "x == %d", rnd(g, 3)); return;
    case 4: fmt(d, n, "x < %d", 1 + rnd(g, 2)); return;
    case 5: fmt(d, n, "%s > 0", chance(g, 50) ? "fuel" : "hops"); return;
    case 6: fmt(d, n, "choose()"); return;
    case 7: if (c->pt == PT_INT) { fmt(d, n, "%s != %d", c->pn, rnd(g, 3)); return; } break;
    case 8: fmt(d, n, "peer == null"); return;
    case 9: fmt(d, n, "$$"); return;
    default: break;
  }
  fmt(d, n, "x != %d", rnd(g, 3));
}

/* A machine expression of the context that is never null. */
static void mach_expr(Gen *g, Ctx *c, char *d, size_t n) {
  Mach *m = &g->m[c->mi];
  /* `this` always qualifies, so the loop ends; ids in payloads are never
     null since only expressions of this function are ever sent */
  for (;;) {
    int k = rnd(g, 6);
    if (k == 0) { fmt(d, n, "this"); return; }
    if (k <= 2 && (m->peer_safe || c->peer_ok)) { fmt(d, n, "peer"); return; }
    if (k == 3 && c->pt == PT_MACH) { fmt(d, n, "%s", c->pn); return; }
    if (k == 3 && c->pt == PT_PAIR) { fmt(d, n, "%s.m", c->pn); return; }
    if (k >= 4 && c->mi == 0) { fmt(d, n, "k%d", rnd(g, g->nkids)); return; }
  }
}

/* The payload of event e (empty for none), with its leading ", ". */
static void payload(Gen *g, Ctx *c, int e, char *d, size_t n) {
  char a[96], b[96];
  switch (g->ev[e].pt) {
    case PT_INT: int_expr(g, c, a, sizeof a); fmt(d, n, ", %s", a); return;
    case PT_MACH: mach_expr(g, c, a, sizeof a); fmt(d, n, ", %s", a); return;
    case PT_PAIR:
      mach_expr(g, c, a, sizeof a);
      int_expr(g, c, b, sizeof b);
      fmt(d, n, ", (m = %s, v = %s)", a, b);
      return;
    default: d[0] = 0; return;
  }
}

/* The P type of a payload type. */
static const char *ptype(int pt) {
  return pt == PT_INT ? "int" : pt == PT_MACH ? "machine" : "(m: machine, v: int)";
}

/* ---- statements ---- */

static void gen_block(Gen *g, Ctx *c, int n);

/* An assert: an invariant, or with B_ASSERT (machines) / B_SPEC (specs)
** sometimes one that can fail. */
static void gen_assert(Gen *g, Ctx *c) {
  int violable = c->mi >= 0 ? (g->bugs & B_ASSERT) && chance(g, 45)
                            : (g->bugs & B_SPEC) && chance(g, 70);
  int k = rnd(g, 5);
  indent(g);
  if (violable) {
    if (c->mi < 0) {
      if (c->pt == PT_INT && k < 2) put(g, "assert %s != %d, \"payload\";\n", c->pn, rnd(g, 3));
      else if (k < 4) put(g, "assert n < %d, format(\"count {0}\", n);\n", 1 + rnd(g, 3));
      else put(g, "assert last != %d;\n", 1 + rnd(g, 2));
    } else {
      if (c->pt == PT_INT && k < 2) put(g, "assert %s != %d;\n", c->pn, rnd(g, 3));
      else if (k < 3) put(g, "assert x != %d, format(\"x is {0}\", x);\n", 1 + rnd(g, 2));
      else if (k < 4) put(g, "assert !(x == %d && fuel == 0);\n", rnd(g, 3));
      else put(g, "assert x < 2 || fuel > 0;\n");
    }
    return;
  }
  if (c->mi < 0) {
    if (c->pt == PT_INT && k < 2) put(g, "assert %s >= 0 && %s < 3;\n", c->pn, c->pn);
    else if (c->pt == PT_MACH && k < 2) put(g, "assert %s != null;\n", c->pn);
    else if (k < 4) put(g, "assert n <= 3, \"n saturates at 3\";\n");
    else put(g, "assert last < 3;\n");
    return;
  }
  if (c->pt == PT_INT && k == 0) put(g, "assert %s >= 0 && %s <= 2;\n", c->pn, c->pn);
  else if (c->pt == PT_MACH && k == 0) put(g, "assert %s != null;\n", c->pn);
  else if (c->pt == PT_PAIR && k == 0) put(g, "assert %s.m != null && %s.v < 3;\n", c->pn, c->pn);
  else if (c->has_t && k == 1) put(g, "assert t < 3;\n");
  else if (k == 2) put(g, "assert fuel >= 0;\n");
  else if (k == 3) put(g, "assert x >= 0 && x < 3, format(\"x is {0}\", x);\n");
  else put(g, "assert x != 3;\n");
}

/* A send of an ordinary event (or halt) spending one unit of fuel; to a
** peer that may be null only under a null test (except with B_NULL). */
static void gen_send(Gen *g, Ctx *c, int halt) {
  Mach *m = &g->m[c->mi];
  char tgt[96], pay[200];
  int e = any_event(g), guard = 0, saved = c->peer_ok;
  /* the fuel guard is what bounds every inbox: without it a handler that
     sends the event it handles (to itself or a peer that answers) would
     make the state space infinite; halt goes under it too, since an `on
     null` body may run any number of times */
  if (!m->peer_safe && !c->peer_ok && chance(g, 50)) {
    fmt(tgt, sizeof tgt, "peer");
    guard = !((g->bugs & B_NULL) && chance(g, 50));
  } else {
    mach_expr(g, c, tgt, sizeof tgt);
  }
  indent(g); put(g, "if (fuel > 0) {\n"); g->ind++;
  indent(g); put(g, "fuel = fuel - 1;\n");
  if (guard) { indent(g); put(g, "if (peer != null) {\n"); g->ind++; c->peer_ok = 1; }
  if (halt) {
    indent(g); put(g, "send %s, halt;\n", tgt);
  } else {
    payload(g, c, e, pay, sizeof pay);
    indent(g); put(g, "send %s, %s%s;\n", tgt, g->ev[e].name, pay);
  }
  if (guard) { g->ind--; indent(g); put(g, "}\n"); }
  c->peer_ok = saved;
  g->ind--; indent(g); put(g, "}\n");
}

/* announce eBegin; ...; announce eEnd; -- a balanced pair, or with B_HOT
** sometimes an eEnd that may be skipped. */
static void gen_pair(Gen *g, Ctx *c) {
  /* between the two announces: no raise, goto, receive or halt, so the
     handler always reaches eEnd (a send in between is a scheduling point
     while the spec is hot, but the machine stays enabled) */
  indent(g); put(g, "announce eBegin;\n");
  if (chance(g, 40)) {
    char a[96];
    int_expr(g, c, a, sizeof a);
    indent(g); put(g, "x = %s;\n", a);
  } else if (chance(g, 30)) {
    gen_send(g, c, 0);
  }
  if ((g->bugs & B_HOT) && chance(g, 50)) {
    indent(g); put(g, "if ($) { announce eEnd; }\n");
  } else {
    indent(g); put(g, "announce eEnd;\n");
  }
}

/* A receive: after a send to this machine of the awaited event (both
** spending one unit of fuel, so that a handler that the received event
** triggers again cannot loop forever), or with B_RECV sometimes without
** (it may wait forever: a deadlock). */
static void gen_receive(Gen *g, Ctx *c) {
  int e = any_event(g), e2 = -1, i, safe = !((g->bugs & B_RECV) && chance(g, 60));
  char pay[200];
  Ctx cc = *c;
  if (safe) {
    payload(g, c, e, pay, sizeof pay);
    indent(g); put(g, "if (fuel > 0) {\n"); g->ind++;
    indent(g); put(g, "fuel = fuel - 1;\n");
    indent(g); put(g, "send this, %s%s;\n", g->ev[e].name, pay);
  }
  if (chance(g, 35) && g->nnorm > 1) {
    e2 = any_event(g);
    if (e2 == e) e2 = -1;
  }
  indent(g); put(g, "receive {\n"); g->ind++;
  for (i = 0; i < 2; i++) {
    int ev = i == 0 ? e : e2;
    if (ev < 0) continue;
    cc.kind = K_RECV;
    cc.depth = c->depth + 1;
    cc.pt = g->ev[ev].pt;
    cc.pn = cc.pt == PT_NONE ? NULL : "q";
    indent(g);
    if (cc.pt == PT_NONE) put(g, "case %s: {\n", g->ev[ev].name);
    else put(g, "case %s: (q: %s) {\n", g->ev[ev].name, ptype(cc.pt));
    g->ind++;
    gen_block(g, &cc, 1 + rnd(g, 2));
    g->ind--; indent(g); put(g, "}\n");
  }
  g->ind--; indent(g); put(g, "}\n");
  if (safe) { g->ind--; indent(g); put(g, "}\n"); }
}

/* raise e (an event the current state handles or ignores), guarded by
** the machine's `hops` (raises and gotos, so that they cannot loop). */
static int gen_raise(Gen *g, Ctx *c) {
  State *st = &g->m[c->mi].st[c->si];
  int tries, e;
  char pay[200];
  /* a raised event is handled at once in the current state, so it must
     not be deferred there or (unless B_UNHANDLED planted it) unhandled;
     without `hops` a handler that raises its own event would never end */
  for (tries = 0; tries < 6; tries++) {
    e = any_event(g);
    if (st->h[e].act == A_DO || st->h[e].act == A_GOTO || st->h[e].act == A_IGNORE) {
      payload(g, c, e, pay, sizeof pay);
      indent(g); put(g, "if (hops > 0) {\n"); g->ind++;
      indent(g); put(g, "hops = hops - 1;\n");
      indent(g); put(g, "raise %s%s;\n", g->ev[e].name, pay);
      g->ind--; indent(g); put(g, "}\n");
      return 1;
    }
  }
  return 0;
}

/* goto a non-start state with a payload for its entry: guarded by hops
** in entries (entries may not loop) or when not the last statement. */
static int gen_goto(Gen *g, Ctx *c, int last) {
  Mach *m = &g->m[c->mi];
  int t, guard = c->kind == K_ENTRY || !last || chance(g, 30);
  char a[96];
  if (m->nst < 2) return 0;
  t = 1 + rnd(g, m->nst - 1);
  a[0] = 0;
  if (m->st[t].entry_pt == PT_INT) { a[0] = ','; a[1] = ' '; int_expr(g, c, a + 2, sizeof a - 2); }
  if (m->st[t].entry_pt == PT_MACH) { a[0] = ','; a[1] = ' '; mach_expr(g, c, a + 2, sizeof a - 2); }
  if (guard) {
    indent(g); put(g, "if (hops > 0) {\n"); g->ind++;
    indent(g); put(g, "hops = hops - 1;\n");
  }
  indent(g); put(g, "goto S%d%s;\n", t, a);
  if (guard) { g->ind--; indent(g); put(g, "}\n"); }
  return 1;
}

/* The statements a creator runs to create its children (once: `made`). */
static void gen_create(Gen *g, Ctx *c, int once) {
  Mach *m = &g->m[c->mi];
  int j;
  char a[96];
  /* in the start entry (once == 0) the creation runs once by itself; in a
     handler, `made` makes it once per machine */
  if (once) { indent(g); put(g, "if (!made) {\n"); g->ind++; indent(g); put(g, "made = true;\n"); }
  for (j = 1; j < g->nm; j++) {
    if (!(m->creates & (1u << j))) continue;
    a[0] = 0;
    if (g->m[j].ctor_pt == PT_INT) int_expr(g, c, a, sizeof a);
    if (g->m[j].ctor_pt == PT_MACH) mach_expr(g, c, a, sizeof a);
    indent(g);
    if (chance(g, 50)) put(g, "peer = new %s(%s);\n", g->m[j].name, a);
    else put(g, "new %s(%s);\n", g->m[j].name, a);
  }
  if (once) { g->ind--; indent(g); put(g, "}\n"); }
}

/* One statement of the context; `last`: the last one of its block. */
static void gen_stmt(Gen *g, Ctx *c, int last) {
  enum { S_ASSIGN, S_T, S_SEND, S_HALTSEND, S_ANN, S_PAIR, S_IF, S_WHILE,
         S_ASSERT, S_RAISE, S_GOTO, S_HALT, S_RECV, S_PRINT, S_N };
  int w[S_N], k;
  int mach = c->mi >= 0;
  int full = c->kind == K_ENTRY || c->kind == K_HANDLER || c->kind == K_NULL;
  char a[200], b[200];
  memset(w, 0, sizeof w);
  w[S_ASSIGN] = 20;
  w[S_ASSERT] = 10;
  w[S_IF] = c->depth < 2 ? 12 : 0;
  if (mach) {
    w[S_T] = c->has_t && !c->in_loop ? 6 : 0;
    w[S_SEND] = 24;
    w[S_HALTSEND] = 1;
    w[S_ANN] = 5;
    w[S_PAIR] = g->pair_spec ? 6 : 0;
    w[S_WHILE] = c->has_t && !c->in_loop && c->depth < 2 ? 5 : 0;
    w[S_RAISE] = full && c->si >= 0 ? 5 : 0;
    w[S_GOTO] = full ? 6 : 0;
    w[S_HALT] = full && last && c->mi > 0 ? 2 : 0;
    w[S_RECV] = full && c->depth < 2 ? 5 : 0;
    w[S_PRINT] = 2;
  }
  /* weights: sends dominate (they make the interleavings); terminal
     statements (goto, halt) only where P allows them and, unguarded, only
     last in their block; receive only in the bodies that may block */
  k = pick(g, w, S_N);
  switch (k) {
    case S_ASSIGN:
      if (!mach) {
        indent(g);
        if (chance(g, 50)) put(g, "if (n < 3) { n = n + 1; }\n");
        else { int_expr(g, c, a, sizeof a); put(g, "last = %s;\n", a); }
        return;
      }
      int_expr(g, c, a, sizeof a);
      indent(g); put(g, "x = %s;\n", a);
      if (c->pt == PT_MACH && c->kind != K_SPEC && chance(g, 30)) {
        indent(g); put(g, "peer = %s;\n", c->pn);
        c->peer_ok = 1;
      }
      return;
    case S_T:
      int_expr(g, c, a, sizeof a);
      indent(g); put(g, "t = %s;\n", a);
      return;
    case S_SEND: gen_send(g, c, 0); return;
    case S_HALTSEND: gen_send(g, c, 1); return;
    case S_ANN: {
      int e = any_event(g);
      payload(g, c, e, a, sizeof a);
      indent(g); put(g, "announce %s%s;\n", g->ev[e].name, a);
      return;
    }
    case S_PAIR: gen_pair(g, c); return;
    case S_IF: {
      Ctx cc = *c;
      bool_expr(g, c, a, sizeof a);
      cc.depth++;
      indent(g); put(g, "if (%s) {\n", a); g->ind++;
      gen_block(g, &cc, 1 + rnd(g, 2));
      g->ind--;
      if (chance(g, 50)) {
        cc = *c;
        cc.depth++;
        indent(g); put(g, "} else {\n"); g->ind++;
        gen_block(g, &cc, 1 + rnd(g, 2));
        g->ind--;
      }
      indent(g); put(g, "}\n");
      return;
    }
    case S_WHILE: {
      Ctx cc = *c;
      cc.depth++;
      cc.in_loop = 1;
      indent(g); put(g, "t = 0;\n");
      indent(g); put(g, "while (t < %d) {\n", 1 + rnd(g, 2)); g->ind++;
      gen_block(g, &cc, 1 + rnd(g, 2));
      indent(g); put(g, "t = t + 1;\n");
      g->ind--; indent(g); put(g, "}\n");
      return;
    }
    case S_ASSERT: gen_assert(g, c); return;
    case S_RAISE: if (gen_raise(g, c)) return; break;
    case S_GOTO: if (gen_goto(g, c, last)) return; break;
    case S_HALT: indent(g); put(g, "raise halt;\n"); return;
    case S_RECV: gen_receive(g, c); return;
    case S_PRINT:
      int_expr(g, c, b, sizeof b);
      indent(g); put(g, "print format(\"{0}: x = {1}\", this, %s);\n", b);
      return;
    default: break;
  }
  /* fall back on an assignment */
  int_expr(g, c, a, sizeof a);
  indent(g);
  if (mach) put(g, "x = %s;\n", a);
  else put(g, "last = %s;\n", a);
}

/* n statements of the context. */
static void gen_block(Gen *g, Ctx *c, int n) {
  int i;
  for (i = 0; i < n; i++) gen_stmt(g, c, i == n - 1);
}

/* Decides whether a machine's function body has the local `t`, and
** declares it (before any statement, as P requires). */
static void decl_t(Gen *g, Ctx *c) {
  c->has_t = c->mi >= 0 && chance(g, 30);
  if (c->has_t) { indent(g); put(g, "var t: int;\n"); }
}

/* The start of a `do` handler of event e that records the order of the
** events in `seen` (0: none yet, e + 1: event e): perhaps an assert on
** the event taken before (that it was not a given one: violable with
** B_ASSERT in machines, B_SPEC in specs, and then it depends on the
** interleaving; otherwise an invariant), then `seen = e + 1`. */
static void gen_seen(Gen *g, Ctx *c, int e) {
  int spec = c->mi < 0;
  if (!spec && !g->m[c->mi].seen) return;
  if (chance(g, (g->bugs & (spec ? B_SPEC : B_ASSERT)) ? 90 : 50)) {
    int violable = (g->bugs & (spec ? B_SPEC : B_ASSERT)) && chance(g, 80);
    indent(g);
    if (violable) put(g, "assert seen != %d, format(\"{0} before %s\", seen);\n", 1 + any_event(g), g->ev[e].name);
    else put(g, "assert seen >= 0 && seen <= %d;\n", g->nev);
  }
  if (chance(g, 85)) { indent(g); put(g, "seen = %d;\n", e + 1); }
}

static void x_hook(Gen *g, Ctx *c, int e);

/* A function body: decides on the local `t`, declares it, then n
** statements (and, at the creation site, the creations first; in a
** handler of event ev, the extras' statements, x_hook). */
static void gen_body(Gen *g, Ctx *c, int n, int create, int ev) {
  decl_t(g, c);
  if (ev >= 0) gen_seen(g, c, ev);
  if (create) gen_create(g, c, 1);
  if (ev >= 0 && (c->kind == K_HANDLER || c->kind == K_FUN)) x_hook(g, c, ev);
  gen_block(g, c, n);
}

/* ---- extras: unbounded behaviour ----
** What the fuel keeps out of the models above, added to some of them
** (plan_extras): machines that send in loops and never wait (a Pump, or
** Main's start entry), loops bounded past the inbox bound, self-sends, a
** Sink that takes its events by `receive` in an endless loop or halts
** while others keep sending to it, counters that grow without bound,
** data choices in loops, and a spec Live with hot states on the events
** sent in loops.  Such a model's state space may be infinite: it is cut
** by the inbox bound the model names (`// max-inbox: N`, 0 for none) or
** by the budget of the search that checks it.  Everything here draws from
** the extras' own stream of random numbers (x_begin, x_end), so that the
** rest of a model is the text it would be without them. */

static void x_swap(Gen *g) { Rng t = g->r; g->r = g->xr; g->xr = t; }
static void x_begin(Gen *g) { if (g->xdepth++ == 0) x_swap(g); }
static void x_end(Gen *g) { if (--g->xdepth == 0) x_swap(g); }

/* The payload of event e for an extra send (", ..." or empty): ints in
** [0, 3) (so the workers' invariants on payloads hold), ids `this` or
** alt (another id the sender holds, or NULL). */
static void x_payload(Gen *g, int e, const char *alt, char *d, size_t n) {
  char iv[32], mv[32];
  int k = rnd(g, 4);
  if (k == 0) fmt(iv, sizeof iv, "choose(3)");
  else if (k == 1) fmt(iv, sizeof iv, "c %% 3");
  else fmt(iv, sizeof iv, "%d", rnd(g, 3));
  fmt(mv, sizeof mv, "%s", alt && chance(g, 40) ? alt : "this");
  switch (g->ev[e].pt) {
    case PT_INT: fmt(d, n, ", %s", iv); return;
    case PT_MACH: fmt(d, n, ", %s", mv); return;
    case PT_PAIR: fmt(d, n, ", (m = %s, v = %s)", mv, iv); return;
    default: d[0] = 0; return;
  }
}

/* send tgt, e with a payload. */
static void x_send(Gen *g, const char *tgt, int e, const char *alt) {
  char pay[100];
  x_payload(g, e, alt, pay, sizeof pay);
  indent(g); put(g, "send %s, %s%s;\n", tgt, g->ev[e].name, pay);
}

/* A receive with a case for each event of evs (bits), each running body. */
static void x_receive(Gen *g, unsigned evs, const char *body) {
  int e;
  indent(g); put(g, "receive {\n"); g->ind++;
  for (e = 0; e < g->nnorm; e++) {
    if (!(evs & (1u << e))) continue;
    indent(g);
    if (g->ev[e].pt == PT_NONE) put(g, "case %s: { %s }\n", g->ev[e].name, body);
    else put(g, "case %s: (q: %s) { %s }\n", g->ev[e].name, ptype(g->ev[e].pt), body);
  }
  g->ind--; indent(g); put(g, "}\n");
}

/* One turn of a send loop to tgt, of the events ev[0..1]: a send first
** (every turn reaches a scheduling point, so the loop is no endless step),
** then 0-2 of: a send, a send chosen by `$` or choose, the counter, an
** announce, rarely a halt sent; recv 1: the machine sends itself ev[0]
** and receives it; recv 2: it waits for any event (a reply, if one
** comes: else a deadlock). */
static void x_turn(Gen *g, const char *tgt, const int *ev, int recv) {
  int i, n = 1 + rnd(g, 3);
  char pay[100];
  for (i = 0; i < n; i++) {
    int k = i == 0 ? rnd(g, 6) : rnd(g, 20);
    if (k < 4) {
      x_send(g, tgt, ev[rnd(g, 2)], tgt);
    } else if (k < 6) {
      if (chance(g, 70)) { indent(g); put(g, "if ($) {\n"); }
      else { indent(g); put(g, "if (choose(3) == 0) {\n"); }
      g->ind++; x_send(g, tgt, ev[0], tgt); g->ind--;
      indent(g); put(g, "} else {\n");
      g->ind++; x_send(g, tgt, ev[1], NULL); g->ind--;
      indent(g); put(g, "}\n");
    } else if (k < 11) {
      indent(g); put(g, "c = c + 1;\n");
    } else if (k < 14) {
      int e = ev[rnd(g, 2)];
      x_payload(g, e, tgt, pay, sizeof pay);
      indent(g); put(g, "announce %s%s;\n", g->ev[e].name, pay);
    } else if (k < 15) {
      indent(g); put(g, "send %s, halt;\n", tgt);
    } else {
      x_send(g, tgt, any_event(g), NULL);
    }
  }
  if (recv == 1) {
    x_send(g, "this", ev[0], NULL);
    x_receive(g, 1u << ev[0], "c = c + 1;");
  } else if (recv == 2) {
    x_receive(g, (1u << g->nnorm) - 1, "");
  }
}

/* A loop of turns: endless, k turns (counted in `xi`), or while `$`. */
static void x_loop(Gen *g, int shape, int k, const char *tgt, const int *ev, int recv) {
  indent(g);
  if (shape == L_FOREVER) put(g, "while (true) {\n");
  else if (shape == L_BOUNDED) { put(g, "xi = 0;\n"); indent(g); put(g, "while (xi < %d) {\n", k); }
  else put(g, "while ($) {\n");
  g->ind++;
  x_turn(g, tgt, ev, recv);
  if (shape == L_BOUNDED) { indent(g); put(g, "xi = xi + 1;\n"); }
  g->ind--; indent(g); put(g, "}\n");
}

/* The target expression of pump_to / main_to. */
static void x_target(int to, char *d, size_t n) {
  if (to == -1) fmt(d, n, "sink");
  else if (to == -2) fmt(d, n, "this");
  else fmt(d, n, "k%d", to);
}

/* A loop shape and its turns: endless 45%, bounded 40% (past the inbox
** bound by 1-3, or 2-6 turns without one), while `$` 15%. */
static void x_plan_loop(Gen *g, int *shape, int *k) {
  static const int w[] = { 45, 40, 15 };
  *shape = L_FOREVER + pick(g, w, 3);
  *k = g->x.max_inbox > 0 && g->x.max_inbox < 1000 ? g->x.max_inbox + 1 + rnd(g, 3) : 2 + rnd(g, 5);
}

/* A target for a loop of Main or a Pump: the Sink (60% when there is
** one), Main (10%), else one of Main's children. */
static int x_plan_target(Gen *g, int self_ok) {
  if (g->x.sink && chance(g, 60)) return -1;
  if (self_ok && chance(g, 10)) return -2;
  return rnd(g, g->nkids);
}

/* The extras of a model, or none (45% of the seeds); and the inbox bound
** it is checked with: without extras none (55%), 2-6 (35%) or 1000 (the
** CLI's default, 10%); with them 2-6 (72%), 10-40 (17%), none (8%) or
** 1000 (3%): an inbox that grows long makes big States, slow searches. */
static void plan_extras(Gen *g) {
  static const int wlive[] = { 20, 50, 30 };
  static const int wrecv[] = { 60, 25, 15 };
  Extra *x = &g->x;
  int k, tries;
  x_begin(g);
  memset(x, 0, sizeof *x);
  x->on = chance(g, 55);
  k = rnd(g, 100);
  if (!x->on) {
    x->max_inbox = k < 55 ? 0 : k < 90 ? 2 + rnd(g, 5) : 1000;
    x_end(g);
    return;
  }
  x->max_inbox = k < 72 ? 2 + rnd(g, 5) : k < 89 ? 10 + rnd(g, 31) : k < 97 ? 0 : 1000;
  do {
    x->npumps = chance(g, 50) ? 1 + chance(g, 35) : 0;
    x->main_loop = chance(g, 30) ? L_FOREVER : L_NONE;
    x->sink = chance(g, 50);
    x->counters = chance(g, 40);
    x->selfloop = chance(g, 20);
    x->whalt = chance(g, 20);
    x->wloops = chance(g, 30);
    x->live = chance(g, 20) ? LV_FOREVER + pick(g, wlive, 3) : LV_NONE;
  } while (!(x->npumps || x->main_loop || x->sink || x->counters || x->selfloop || x->whalt || x->wloops || x->live));
  x->pump_ev[0] = any_event(g);
  x->pump_ev[1] = chance(g, 50) ? x->pump_ev[0] : any_event(g);
  if (x->npumps) {
    x_plan_loop(g, &x->pump_loop, &x->pump_k);
    x->pump_after = rnd(g, 4);
    x->pump_recv = pick(g, wrecv, 3);
    x->pump_defer = chance(g, 30);
    for (k = 0; k < x->npumps; k++) x->pump_to[k] = x_plan_target(g, 1);
  }
  if (x->main_loop) {
    x_plan_loop(g, &x->main_loop, &x->main_k);
    x->main_to = x_plan_target(g, 1);
  }
  if (x->sink) {
    x->sink_recv = chance(g, 40);
    x->sink_cases = chance(g, 50) ? (1u << g->nnorm) - 1 : 0;
    while (!x->sink_cases) x->sink_cases = (unsigned)rnd(g, 1 << g->nnorm);
    x->sink_halt = pick(g, wrecv, 3);
    x->sink_k = 1 + rnd(g, 3);
    x->sink_defer = !x->sink_recv && chance(g, 25) ? any_event(g) : -1;
    x->sink_reply = chance(g, 35);
    x->sink_null = !x->sink_recv && chance(g, 20);
    x->sink_bound = chance(g, 40);
  }
  if (x->selfloop) {
    /* an inline `do` handler: it sends its own event to its machine */
    x->selfloop = 0;
    for (tries = 0; tries < 20 && !x->selfloop; tries++) {
      int mi = rnd(g, g->nm), s = rnd(g, g->m[mi].nst), e = any_event(g);
      Handler *h = &g->m[mi].st[s].h[e];
      if (h->act == A_DO && !h->named) { x->selfloop = 1; x->sl_mi = mi; x->sl_s = s; x->sl_e = e; }
    }
  }
  if (x->live) {
    x->live_a = (x->npumps || x->main_loop) && chance(g, 70) ? x->pump_ev[rnd(g, 2)] : any_event(g);
    x->live_b = any_event(g);
    x->live_count = chance(g, 40);
  }
  x_end(g);
}

/* In a `do` handler (or the function of a named one) of event e of
** machine c->mi, after its declarations: the counter, a halt on `$`, a
** loop of sends spending no fuel, the self-send of the planned site. */
static void x_hook(Gen *g, Ctx *c, int e) {
  Extra *x = &g->x;
  if (!x->on || c->mi < 0) return;
  x_begin(g);
  if (x->counters && chance(g, 70)) { indent(g); put(g, "c = c + 1;\n"); }
  if (x->whalt && c->kind == K_HANDLER && c->mi > 0 && chance(g, 25)) { indent(g); put(g, "if ($) { raise halt; }\n"); }
  if (x->wloops && chance(g, 30)) {
    int guard = chance(g, 50), k = 1 + rnd(g, 3), e2 = any_event(g);
    if (guard) { indent(g); put(g, "if (peer != null) {\n"); g->ind++; }
    indent(g); put(g, "xi = 0;\n");
    indent(g); put(g, "while (xi < %d) {\n", k); g->ind++;
    x_send(g, guard ? "peer" : "this", e2, NULL);
    indent(g); put(g, "xi = xi + 1;\n");
    g->ind--; indent(g); put(g, "}\n");
    if (guard) { g->ind--; indent(g); put(g, "}\n"); }
  }
  if (x->selfloop && c->kind == K_HANDLER && c->mi == x->sl_mi && c->si == x->sl_s && e == x->sl_e)
    x_send(g, "this", e, NULL);
  x_end(g);
}

/* The machine Pump: its start entry keeps its target (the constructor's
** payload) and runs the planned loop of sends; it never takes an event
** before the loop ends (what is sent to it is then ignored or deferred). */
static void x_emit_pump(Gen *g) {
  Extra *x = &g->x;
  int e, first;
  x_begin(g);
  put(g, "machine Pump {\n");
  g->ind = 1;
  indent(g); put(g, "var tgt: machine;\n");
  indent(g); put(g, "var c: int;\n");
  indent(g); put(g, "var xi: int;\n");
  indent(g); put(g, "start state Init {\n"); g->ind++;
  indent(g); put(g, "entry (p: machine) {\n"); g->ind++;
  indent(g); put(g, "tgt = p;\n");
  x_loop(g, x->pump_loop, x->pump_k, "tgt", x->pump_ev, x->pump_recv);
  if (x->pump_loop != L_FOREVER) {
    if (x->pump_after == 1) { indent(g); put(g, "raise halt;\n"); }
    if (x->pump_after == 2) { indent(g); put(g, "goto Done;\n"); }
    if (x->pump_after == 3) { indent(g); put(g, "send tgt, halt;\n"); }
  }
  g->ind--; indent(g); put(g, "}\n");
  for (first = 1, e = 0; e < g->nnorm; e++) {
    if (first) { indent(g); put(g, "%s %s", x->pump_defer ? "defer" : "ignore", g->ev[e].name); first = 0; }
    else put(g, ", %s", g->ev[e].name);
  }
  put(g, ";\n");
  g->ind--; indent(g); put(g, "}\n");
  if (x->pump_loop != L_FOREVER && x->pump_after == 2) {
    indent(g); put(g, "state Done {\n"); g->ind++;
    for (first = 1, e = 0; e < g->nnorm; e++) {
      if (first) { indent(g); put(g, "ignore %s", g->ev[e].name); first = 0; }
      else put(g, ", %s", g->ev[e].name);
    }
    put(g, ";\n");
    g->ind--; indent(g); put(g, "}\n");
  }
  g->ind = 0;
  put(g, "}\n\n");
  x_end(g);
}

/* What the Sink does with an event of payload type pt taken (as `q`):
** count it, perhaps halt, perhaps answer. */
static void x_sink_body(Gen *g, int pt, char *d, size_t n) {
  Extra *x = &g->x;
  char a[300], b[120], pay[100];
  const char *to = "boss";
  int e2;
  fmt(a, sizeof a, "%s", x->sink_bound ? "if (c < 3) { c = c + 1; }" : "c = c + 1;");
  b[0] = 0;
  if (x->sink_halt == 1) fmt(b, sizeof b, " if (c == %d) { raise halt; }", x->sink_k);
  if (x->sink_halt == 2) fmt(b, sizeof b, " if ($) { raise halt; }");
  fmt(d, n, "%s%s", a, b);
  if (!x->sink_reply) return;
  if (pt == PT_MACH && chance(g, 50)) to = "q";
  if (pt == PT_PAIR && chance(g, 50)) to = "q.m";
  e2 = any_event(g);
  x_payload(g, e2, "boss", pay, sizeof pay);
  fmt(a, sizeof a, "%s send %s, %s%s;", d, to, g->ev[e2].name, pay);
  fmt(d, n, "%s", a);
}

/* The machine Sink: Main creates it with its own id (`boss`); it takes
** events with handlers (perhaps deferring one, perhaps with `on null`) or
** by `receive` in an endless loop (the events of no case pile up). */
static void x_emit_sink(Gen *g) {
  Extra *x = &g->x;
  int e;
  char body[300];
  x_begin(g);
  put(g, "machine Sink {\n");
  g->ind = 1;
  indent(g); put(g, "var c: int;\n");
  indent(g); put(g, "var boss: machine;\n");
  indent(g); put(g, "start state S {\n"); g->ind++;
  indent(g); put(g, "entry (p: machine) {\n"); g->ind++;
  indent(g); put(g, "boss = p;\n");
  if (x->sink_recv) {
    indent(g); put(g, "while (true) {\n"); g->ind++;
    indent(g); put(g, "receive {\n"); g->ind++;
    for (e = 0; e < g->nnorm; e++) {
      if (!(x->sink_cases & (1u << e))) continue;
      x_sink_body(g, g->ev[e].pt, body, sizeof body);
      indent(g);
      if (g->ev[e].pt == PT_NONE) put(g, "case %s: { %s }\n", g->ev[e].name, body);
      else put(g, "case %s: (q: %s) { %s }\n", g->ev[e].name, ptype(g->ev[e].pt), body);
    }
    g->ind--; indent(g); put(g, "}\n");
    g->ind--; indent(g); put(g, "}\n");
  }
  g->ind--; indent(g); put(g, "}\n");
  if (!x->sink_recv) {
    for (e = 0; e < g->nnorm; e++) {
      if (e == x->sink_defer) continue;
      x_sink_body(g, g->ev[e].pt, body, sizeof body);
      indent(g);
      if (g->ev[e].pt == PT_NONE) put(g, "on %s do { %s }\n", g->ev[e].name, body);
      else put(g, "on %s do (q: %s) { %s }\n", g->ev[e].name, ptype(g->ev[e].pt), body);
    }
    if (x->sink_defer >= 0) { indent(g); put(g, "defer %s;\n", g->ev[x->sink_defer].name); }
    if (x->sink_null) { indent(g); put(g, "on null do { }\n"); }
  }
  g->ind--; indent(g); put(g, "}\n");
  g->ind = 0;
  put(g, "}\n\n");
  x_end(g);
}

/* The spec Live on events a and b: hot from the start for ever, hot
** between a and b, or hot until a. */
static void x_emit_live(Gen *g) {
  Extra *x = &g->x;
  int a = x->live_a, b = x->live_b;
  char ha[80], cnt[60];
  x_begin(g);
  if (g->ev[a].pt == PT_NONE) fmt(ha, sizeof ha, "on %s do", g->ev[a].name);
  else fmt(ha, sizeof ha, "on %s do (p: %s)", g->ev[a].name, ptype(g->ev[a].pt));
  fmt(cnt, sizeof cnt, "%s", x->live_count ? "n = n + 1;" : "if (n < 3) { n = n + 1; }");
  put(g, "spec Live observes %s", g->ev[a].name);
  if (b != a) put(g, ", %s", g->ev[b].name);
  put(g, " {\n");
  put(g, "  var n: int;\n");
  if (x->live == LV_FOREVER) {
    put(g, "  start hot state Hot {\n    %s { %s }\n", ha, cnt);
    if (b != a) put(g, "    ignore %s;\n", g->ev[b].name);
    put(g, "  }\n");
  } else if (x->live == LV_BETWEEN) {
    put(g, "  start cold state Cool {\n    on %s goto Hot;\n", g->ev[a].name);
    if (b != a) put(g, "    ignore %s;\n", g->ev[b].name);
    put(g, "  }\n  hot state Hot {\n    on %s goto Cool;\n", g->ev[b].name);
    if (b != a) put(g, "    %s { %s }\n", ha, cnt);
    put(g, "  }\n");
  } else {
    put(g, "  start hot state Hot {\n    on %s goto Cool;\n", g->ev[a].name);
    if (b != a) put(g, "    ignore %s;\n", g->ev[b].name);
    put(g, "  }\n  cold state Cool {\n    %s { %s }\n", ha, cnt);
    if (b != a) put(g, "    ignore %s;\n", g->ev[b].name);
    put(g, "  }\n");
  }
  put(g, "}\n\n");
  x_end(g);
}

/* Main's extras, after its children exist: the Sink, the Pumps. */
static void x_main_create(Gen *g) {
  Extra *x = &g->x;
  char t[16];
  int i;
  if (!x->on) return;
  x_begin(g);
  if (x->sink) { indent(g); put(g, "sink = new Sink(this);\n"); }
  for (i = 0; i < x->npumps; i++) {
    x_target(x->pump_to[i], t, sizeof t);
    indent(g); put(g, "new Pump(%s);\n", t);
  }
  x_end(g);
}

/* Main's loop of sends, at the end of its start entry. */
static void x_main_loop(Gen *g) {
  Extra *x = &g->x;
  char t[16];
  if (!x->on || !x->main_loop) return;
  x_begin(g);
  x_target(x->main_to, t, sizeof t);
  x_loop(g, x->main_loop, x->main_k, t, x->pump_ev, 0);
  x_end(g);
}

/* The header's lines about the extras: the inbox bound, what was added. */
static void x_emit_header(Gen *g) {
  static const char *loops[] = { "", "forever", "bounded", "while-$" };
  static const char *lives[] = { "", "hot-forever", "hot-between", "hot-until" };
  Extra *x = &g->x;
  put(g, "// max-inbox: %d\n// extras:", x->max_inbox);
  if (!x->on) put(g, " none");
  if (x->npumps)
    put(g, " pump x%d %s%s%s;", x->npumps, loops[x->pump_loop], x->pump_recv == 1 ? " recv-self" : x->pump_recv == 2 ? " recv-any" : "",
        x->pump_defer ? " defers" : "");
  if (x->main_loop) put(g, " main-loop %s;", loops[x->main_loop]);
  if (x->sink)
    put(g, " sink %s%s%s%s%s;", x->sink_recv ? "receive" : "handlers", x->sink_halt ? " halts" : "",
        x->sink_reply ? " replies" : "", x->sink_null ? " on-null" : "", x->sink_bound ? "" : " unbounded");
  if (x->counters) put(g, " counters;");
  if (x->selfloop) put(g, " self-send-loop;");
  if (x->whalt) put(g, " worker-halts;");
  if (x->wloops) put(g, " send-loops;");
  if (x->live) put(g, " live %s;", lives[x->live]);
  put(g, "\n");
}

/* ---- declarations ---- */

/* The start state's entry of machine mi: fuel, the payload, the hello,
** the creations (Main: its children, their hellos, ids passed around). */
static void emit_start_entry(Gen *g, int mi) {
  Mach *m = &g->m[mi];
  Ctx c;
  int i;
  char a[200];
  memset(&c, 0, sizeof c);
  c.mi = mi; c.si = 0; c.kind = K_ENTRY;
  c.pt = m->ctor_pt; c.pn = m->ctor_pt == PT_NONE ? NULL : "p";
  indent(g);
  if (m->ctor_pt == PT_NONE) put(g, "entry {\n");
  else put(g, "entry (p: %s) {\n", ptype(m->ctor_pt));
  g->ind++;
  c.has_t = mi > 0 && chance(g, 25);
  if (c.has_t) { indent(g); put(g, "var t: int;\n"); }
  indent(g); put(g, "fuel = %d;\n", m->fuel);
  indent(g); put(g, "hops = %d;\n", m->hops);
  if (m->ctor_pt == PT_MACH) { indent(g); put(g, "peer = p;\n"); }
  if (m->ctor_pt == PT_INT) { indent(g); put(g, "x = p;\n"); }
  if (m->hello) {
    indent(g);
    if (g->ev[g->hello_ev].pt == PT_MACH) put(g, "send p, %s, this;\n", g->ev[g->hello_ev].name);
    else put(g, "send p, %s, (m = this, v = %d);\n", g->ev[g->hello_ev].name, rnd(g, 3));
  }
  if (mi == 0) {
    /* Main: create the children, each with its constructor payload (Main
       itself or an earlier child, so ids reach machines that did not
       create each other), and wait for the hellos of some */
    for (i = 0; i < g->nkids; i++) {
      Mach *k = &g->m[g->kid_type[i]];
      int self = 0;
      a[0] = 0;
      if (k->ctor_pt == PT_INT) fmt(a, sizeof a, "%d", rnd(g, 3));
      if (k->ctor_pt == PT_MACH) {
        self = i == 0 || chance(g, 60);
        if (self) fmt(a, sizeof a, "this");
        else fmt(a, sizeof a, "k%d", rnd(g, i));
      }
      indent(g); put(g, "k%d = new %s(%s);\n", i, k->name, a);
      if (self && k->hello && chance(g, 60)) {
        /* the hello is always sent: waiting for it never deadlocks */
        int pt = g->ev[g->hello_ev].pt;
        indent(g); put(g, "receive {\n"); g->ind++;
        indent(g); put(g, "case %s: (q: %s) {\n", g->ev[g->hello_ev].name, ptype(pt)); g->ind++;
        indent(g); put(g, "assert q%s != null, \"hello from a machine\";\n", pt == PT_PAIR ? ".m" : "");
        if (chance(g, 50)) { indent(g); put(g, "x = (x + 1) %% 3;\n"); }
        g->ind--; indent(g); put(g, "}\n");
        g->ind--; indent(g); put(g, "}\n");
      }
    }
    indent(g); put(g, "peer = k0;\n");
    x_main_create(g);
    /* machine ids passed on */
    for (i = 0; i < g->nnorm; i++) {
      int pt = g->ev[i].pt;
      if ((pt == PT_MACH || pt == PT_PAIR) && g->nkids >= 2 && chance(g, 60)) {
        int to = rnd(g, g->nkids), about = rnd(g, g->nkids);
        indent(g);
        if (pt == PT_MACH) put(g, "send k%d, %s, k%d;\n", to, g->ev[i].name, about);
        else put(g, "send k%d, %s, (m = k%d, v = %d);\n", to, g->ev[i].name, about, rnd(g, 3));
        break;
      }
    }
    /* the first messages */
    for (i = g->ninit; i > 0; i--) {
      int e = any_event(g);
      payload(g, &c, e, a, sizeof a);
      indent(g); put(g, "send k%d, %s%s;\n", rnd(g, g->nkids), g->ev[e].name, a);
    }
    if (g->pair_spec && chance(g, 40)) gen_pair(g, &c);
    if (chance(g, 40)) gen_block(g, &c, 1);
    if ((g->bugs & B_RECV) && chance(g, 60)) {
      /* waits for an event that may never be sent to Main: a deadlock */
      int e = any_event(g);
      indent(g); put(g, "receive {\n"); g->ind++;
      indent(g);
      if (g->ev[e].pt == PT_NONE) put(g, "case %s: { x = 1; }\n", g->ev[e].name);
      else put(g, "case %s: (q: %s) { x = 1; }\n", g->ev[e].name, ptype(g->ev[e].pt));
      g->ind--; indent(g); put(g, "}\n");
    }
    x_main_loop(g);
    if (m->nst > 1 && chance(g, 50)) {
      int t = 1 + rnd(g, m->nst - 1);
      a[0] = 0;
      if (m->st[t].entry_pt == PT_INT) fmt(a, sizeof a, ", %d", rnd(g, 3));
      if (m->st[t].entry_pt == PT_MACH) fmt(a, sizeof a, ", k%d", rnd(g, g->nkids));
      indent(g); put(g, "goto S%d%s;\n", t, a);
    }
  } else {
    if (m->creates && m->create_st < 0) gen_create(g, &c, 0);
    gen_block(g, &c, 1 + rnd(g, 2));
  }
  g->ind--; indent(g); put(g, "}\n");
}

/* The handlers of state s of machine mi (do bodies, gotos, defers,
** ignores, on null), and its entry and exit. */
static void emit_state(Gen *g, int mi, int s) {
  Mach *m = &g->m[mi];
  State *st = &m->st[s];
  Ctx c;
  int e, first;
  memset(&c, 0, sizeof c);
  c.mi = mi; c.si = s;
  indent(g);
  if (s == 0) put(g, "start state Init {\n");
  else put(g, "state S%d {\n", s);
  g->ind++;
  if (s == 0) emit_start_entry(g, mi);
  else if (st->has_entry) {
    c.kind = K_ENTRY;
    c.pt = st->entry_pt; c.pn = st->entry_pt == PT_NONE ? NULL : "p";
    indent(g);
    if (st->entry_pt == PT_NONE) put(g, "entry {\n");
    else put(g, "entry (p: %s) {\n", ptype(st->entry_pt));
    g->ind++;
    decl_t(g, &c);
    if (st->entry_pt == PT_MACH && chance(g, 70)) {
      indent(g); put(g, "peer = p;\n");
      c.peer_ok = 1;
    }
    gen_block(g, &c, 1 + rnd(g, 2));
    g->ind--; indent(g); put(g, "}\n");
  }
  if (st->has_exit) {
    memset(&c, 0, sizeof c);
    c.mi = mi; c.si = -1; c.kind = K_EXIT;
    indent(g); put(g, "exit {\n"); g->ind++;
    gen_body(g, &c, 1, 0, -1);
    g->ind--; indent(g); put(g, "}\n");
  }
  /* the handlers, in event order: inline `do` bodies (a handler of an
     event carrying an id often keeps it in `peer`), named ones (defined
     after the states), gotos with or without an action; then the defers
     and ignores grouped on one line each */
  for (e = 0; e < g->nev; e++) {
    Handler *h = &st->h[e];
    int pt = g->ev[e].pt;
    memset(&c, 0, sizeof c);
    c.mi = mi; c.si = s;
    c.pt = pt; c.pn = pt == PT_NONE ? NULL : "p";
    if (h->act == A_DO) {
      indent(g);
      if (h->named) { put(g, "on %s do On_%s_%d;\n", g->ev[e].name, g->ev[e].name, s); continue; }
      if (pt == PT_NONE) put(g, "on %s do {\n", g->ev[e].name);
      else put(g, "on %s do (p: %s) {\n", g->ev[e].name, ptype(pt));
      g->ind++;
      c.kind = K_HANDLER;
      if ((pt == PT_MACH || pt == PT_PAIR) && chance(g, 60)) {
        /* the id received is kept (through a local) */
        indent(g); put(g, "var t0: machine;\n");
        indent(g); put(g, "t0 = p%s;\n", pt == PT_PAIR ? ".m" : "");
        indent(g); put(g, "peer = t0;\n");
        c.peer_ok = 1;
        gen_seen(g, &c, e);
        if (m->create_st == s && m->create_ev == e) gen_create(g, &c, 1);
        x_hook(g, &c, e);
        gen_block(g, &c, 1 + rnd(g, 2));
      } else {
        gen_body(g, &c, 1 + rnd(g, 3), m->create_st == s && m->create_ev == e, e);
      }
      g->ind--; indent(g); put(g, "}\n");
    } else if (h->act == A_GOTO) {
      indent(g);
      if (!h->with) { put(g, "on %s goto S%d;\n", g->ev[e].name, h->target); continue; }
      if (pt == PT_NONE) put(g, "on %s goto S%d with {\n", g->ev[e].name, h->target);
      else put(g, "on %s goto S%d with (p: %s) {\n", g->ev[e].name, h->target, ptype(pt));
      g->ind++;
      c.kind = K_WITH; c.si = -1;
      gen_body(g, &c, 1, 0, -1);
      g->ind--; indent(g); put(g, "}\n");
    }
  }
  for (first = 1, e = 0; e < g->nev; e++)
    if (st->h[e].act == A_DEFER) {
      if (first) { indent(g); put(g, "defer %s", g->ev[e].name); first = 0; }
      else put(g, ", %s", g->ev[e].name);
    }
  if (!first) put(g, ";\n");
  for (first = 1, e = 0; e < g->nev; e++)
    if (st->h[e].act == A_IGNORE) {
      if (first) { indent(g); put(g, "ignore %s", g->ev[e].name); first = 0; }
      else put(g, ", %s", g->ev[e].name);
    }
  if (!first) put(g, ";\n");
  if (st->on_null) {
    memset(&c, 0, sizeof c);
    c.mi = mi; c.si = s; c.kind = K_NULL;
    indent(g); put(g, "on null do {\n"); g->ind++;
    gen_body(g, &c, 1 + rnd(g, 2), 0, -1);
    g->ind--; indent(g); put(g, "}\n");
  }
  g->ind--; indent(g); put(g, "}\n");
}

/* Machine mi: its variables, states, named handlers and helper. */
static void emit_machine(Gen *g, int mi) {
  Mach *m = &g->m[mi];
  int s, e, i;
  Ctx c;
  /* Main's children are kept in variables typed `machine` or by the
     machine's name (both are legal targets and payloads) */
  put(g, "machine %s {\n", m->name);
  g->ind = 1;
  indent(g); put(g, "var x: int;\n");
  indent(g); put(g, "var fuel: int;\n");
  indent(g); put(g, "var hops: int;\n");
  indent(g); put(g, "var peer: machine;\n");
  if (m->seen) { indent(g); put(g, "var seen: int;\n"); }
  if (m->creates && m->create_st >= 0) { indent(g); put(g, "var made: bool;\n"); }
  for (i = 0; mi == 0 && i < g->nkids; i++) {
    indent(g); put(g, "var k%d: %s;\n", i, chance(g, 50) ? "machine" : g->m[g->kid_type[i]].name);
  }
  if (g->x.on) {   /* the extras' counter and loop index, Main's Sink */
    indent(g); put(g, "var c: int;\n");
    indent(g); put(g, "var xi: int;\n");
    if (mi == 0 && g->x.sink) { indent(g); put(g, "var sink: machine;\n"); }
  }
  for (s = 0; s < m->nst; s++) emit_state(g, mi, s);
  for (s = 0; s < m->nst; s++)
    for (e = 0; e < g->nev; e++) {
      Handler *h = &m->st[s].h[e];
      int pt = g->ev[e].pt;
      if (h->act != A_DO || !h->named) continue;
      memset(&c, 0, sizeof c);
      c.mi = mi; c.si = -1; c.kind = K_FUN;
      c.pt = pt; c.pn = pt == PT_NONE ? NULL : "p";
      indent(g);
      if (pt == PT_NONE) put(g, "fun On_%s_%d() {\n", g->ev[e].name, s);
      else put(g, "fun On_%s_%d(p: %s) {\n", g->ev[e].name, s, ptype(pt));
      g->ind++;
      gen_body(g, &c, 1 + rnd(g, 2), 0, e);
      g->ind--; indent(g); put(g, "}\n");
    }
  if (m->has_mix) { indent(g); put(g, "fun Mix(a: int, b: int) : int { return (a + b) %% 3; }\n"); }
  g->ind = 0;
  put(g, "}\n\n");
}

/* Spec i: a counter `n` (saturating at 3), the last int seen, its states. */
static void emit_spec(Gen *g, int i) {
  Spec *sp = &g->sp[i];
  int s, e, first;
  Ctx c;
  /* a spec runs on every send and announce of what it observes, so the
     order of its `do` handlers (seen, n) depends on the interleaving of
     the senders: the dependence the reduction must keep */
  put(g, "spec %s observes", sp->name);
  for (first = 1, e = 0; e < g->nev; e++)
    if (sp->obs & (1u << e)) { put(g, "%s %s", first ? "" : ",", g->ev[e].name); first = 0; }
  put(g, " {\n");
  g->ind = 1;
  indent(g); put(g, "var n: int;\n");
  indent(g); put(g, "var last: int;\n");
  indent(g); put(g, "var seen: int;\n");
  for (s = 0; s < sp->nst; s++) {
    State *st = &sp->st[s];
    indent(g);
    put(g, "%s%sstate %s {\n", s == 0 ? "start " : "", st->hot ? "hot " : s == 0 && chance(g, 30) ? "cold " : "",
        sp->pair ? (s == 0 ? "Idle" : "Busy") : (s == 0 ? "Watch" : "Alert"));
    g->ind++;
    if (chance(g, 20)) { indent(g); put(g, "entry { last = 0; }\n"); }
    for (first = 1, e = 0; e < g->nev; e++) {
      Handler *h = &st->h[e];
      int pt = g->ev[e].pt;
      if (!(sp->obs & (1u << e))) continue;
      if (h->act == A_DO) {
        memset(&c, 0, sizeof c);
        c.mi = -1; c.si = -1; c.kind = K_SPEC;
        c.pt = pt; c.pn = pt == PT_NONE ? NULL : "p";
        indent(g);
        if (pt == PT_NONE) put(g, "on %s do {\n", g->ev[e].name);
        else put(g, "on %s do (p: %s) {\n", g->ev[e].name, ptype(pt));
        g->ind++;
        gen_seen(g, &c, e);
        indent(g); put(g, "if (n < 3) { n = n + 1; }\n");
        gen_block(g, &c, 1 + rnd(g, 2));
        g->ind--; indent(g); put(g, "}\n");
      } else if (h->act == A_GOTO) {
        const char *tn = sp->pair ? (h->target == 0 ? "Idle" : "Busy") : (h->target == 0 ? "Watch" : "Alert");
        indent(g); put(g, "on %s goto %s;\n", g->ev[e].name, tn);
      }
    }
    for (e = 0; e < g->nev; e++)
      if ((sp->obs & (1u << e)) && st->h[e].act == A_IGNORE) {
        if (first) { indent(g); put(g, "ignore %s", g->ev[e].name); first = 0; }
        else put(g, ", %s", g->ev[e].name);
      }
    if (!first) put(g, ";\n");
    g->ind--; indent(g); put(g, "}\n");
  }
  g->ind = 0;
  put(g, "}\n\n");
}

/* The names of the intended bugs, for the model's first line. */
static void emit_header(Gen *g, uint64_t seed) {
  static const char *names[] = { "assert", "spec-assert", "unhandled", "receive", "hot", "null-send" };
  int i, first = 1;
  put(g, "// genmodel seed %llu; intended: ", (unsigned long long)seed);
  if (!g->bugs) put(g, "correct");
  for (i = 0; i < 6; i++)
    if (g->bugs & (1u << i)) { put(g, "%s%s", first ? "bug " : ", ", names[i]); first = 0; }
  put(g, "\n");
}

/* The entry point (contract at the top of the file): plan, then emit
** the events, the specs, the machines and the test. */
int genmodel(uint64_t seed, char *buf, size_t cap) {
  Gen *g;
  int i, e, len;
  if (!buf || cap == 0) return -1;
  g = calloc(1, sizeof *g);
  if (!g) return -1;
  g->r.s = seed * 0x2545f4914f6cdd1dULL + 0x632be59bd9b4e019ULL;
  g->xr.s = seed * 0xd1b54a32d192ed03ULL + 0x8cb92ba72f3d8dd7ULL;
  g->buf = buf;
  g->cap = cap;
  /* the order of planning matters: the bugs first (they shape the
     rest), the pair spec before the events (it adds eBegin/eEnd), the
     handler tables before the creation sites (a `do` handler hosts one)
     and before the unhandled holes (which spare the creation site), the
     specs last (they observe the events) */
  plan_bugs(g);
  g->pair_spec = chance(g, 22) || ((g->bugs & B_HOT) && chance(g, 50));
  plan_events(g);
  plan_machines(g);
  for (i = 0; i < g->nm; i++) {
    int s;
    for (s = 0; s < g->m[i].nst; s++) plan_handlers(g, i, s);
    plan_reach(g, i);
  }
  /* creators marked for a handler get the first inline `do` handler of a
     non-start state (none: they create in their start entry) */
  for (i = 1; i < g->nm; i++) {
    Mach *m = &g->m[i];
    int s;
    if (!m->creates || m->create_st < 0) continue;
    m->create_st = -1;
    for (s = 1; s < m->nst && m->create_st < 0; s++)
      for (e = 0; e < g->nnorm; e++)
        if (m->st[s].h[e].act == A_DO && !m->st[s].h[e].named) { m->create_st = s; m->create_ev = e; break; }
  }
  if (g->bugs & B_UNHANDLED) plan_unhandled(g);
  plan_specs(g);
  plan_extras(g);

  /* the text: header line, events, specs, machines (Main first), test */
  emit_header(g, seed);
  x_emit_header(g);
  for (e = 0; e < g->nev; e++) {
    if (g->ev[e].pt == PT_NONE) put(g, "event %s;\n", g->ev[e].name);
    else put(g, "event %s : %s;\n", g->ev[e].name, ptype(g->ev[e].pt));
  }
  put(g, "\n");
  for (i = 0; i < g->nsp; i++) emit_spec(g, i);
  if (g->x.live) x_emit_live(g);
  for (i = 0; i < g->nm; i++) emit_machine(g, i);
  if (g->x.npumps) x_emit_pump(g);
  if (g->x.sink) x_emit_sink(g);
  /* the test names every machine type (the module must be closed under
     creation) and asserts every spec */
  put(g, "test tcMain [main=Main]: ");
  if (g->nsp || g->x.live) {
    put(g, "assert ");
    for (i = 0; i < g->nsp; i++) put(g, "%s%s", i ? ", " : "", g->sp[i].name);
    if (g->x.live) put(g, "%sLive", g->nsp ? ", " : "");
    put(g, " in ");
  }
  put(g, "{ ");
  for (i = 0; i < g->nm; i++) put(g, "%s%s", i ? ", " : "", g->m[i].name);
  if (g->x.npumps) put(g, ", Pump");
  if (g->x.sink) put(g, ", Sink");
  put(g, " };\n");
  len = g->overflow ? -1 : (int)g->len;
  free(g);
  return len;
}

#ifdef GENMODEL_MAIN
/* genmodel SEED [COUNT]: prints the model for SEED, or writes COUNT
** models to m<SEED>.p, m<SEED+1>.p, ... in the current directory.
** Exit status 0, 1 when a model does not fit or a file cannot be
** written, 2 on a usage error.  256 KiB is far above the largest model
** (about 14 KB on seeds 1-3000). */
int main(int argc, char **argv) {
  static char buf[1 << 18];
  unsigned long long seed, count, i;
  if (argc < 2 || argc > 3) {
    fprintf(stderr, "usage: genmodel SEED [COUNT]\n");
    return 2;
  }
  seed = strtoull(argv[1], NULL, 10);
  if (argc == 2) {
    int n = genmodel(seed, buf, sizeof buf);
    if (n < 0) { fprintf(stderr, "genmodel: model too large\n"); return 1; }
    fwrite(buf, 1, (size_t)n, stdout);
    return 0;
  }
  count = strtoull(argv[2], NULL, 10);
  for (i = 0; i < count; i++) {
    char name[64];
    FILE *f;
    int n = genmodel(seed + i, buf, sizeof buf);
    if (n < 0) { fprintf(stderr, "genmodel: model %llu too large\n", seed + i); return 1; }
    snprintf(name, sizeof name, "m%llu.p", seed + i);
    f = fopen(name, "w");
    if (!f || fwrite(buf, 1, (size_t)n, f) != (size_t)n || fclose(f) != 0) {
      fprintf(stderr, "genmodel: cannot write %s\n", name);
      return 1;
    }
  }
  return 0;
}
#endif
