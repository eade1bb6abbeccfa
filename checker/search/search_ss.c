/* search_ss.c: stratified sampling (doc/algorithms.md, "ss").
** Stratum db holds the delay-bounded samples with db delays; it is to draw
** numsamples(db) = c1 * c2^db of them (at db = 0 with rr or rtc, whose one
** execution without delays is always the same, just one).  A sample
** starts from the explorer's schedule with no delay; then db times: count
** the points L where a delay was possible after the last delay of the
** execution just run, pick one uniformly, and re-run with a delay there
** too.  A point is a state with more choices left than delays applied
** there; at a machine choice the explorer is asked (Next) and the delay is
** its Delay, at a data choice the delay takes the next value; a fair choice
** (`$$`) is a coin drawn from the sample's generator, never a delay point.
** Every execution run is checked for bugs.
**
** The schedule of strata (--ss-schedule): `strata`, the paper's, draws
** every sample of stratum db before the first of db+1, so a bug that
** needs k delays waits for all of strata 0..k-1 (about 2,000 executions
** for k = 2, 32,000 for k = 3).  `interleaved` (the default) opens
** stratum db+1 once stratum db has drawn a c2-th of its samples, and then
** gives every open stratum the same number of executions in turn, in
** rounds; each stratum still draws exactly its numsamples(db) samples, the
** same ones, so the guarantee of each sample (1/L^db for any execution
** with db delays) and of each stratum is the paper's; only the order
** changes.  About two strata are open at a time, so a bug deep in a
** stratum costs at most about twice the executions, and a bug found by
** its stratum's first samples far fewer.
**
** Samples start from the initial state, or, for SES then SS, from roots:
** frontier entries of ses (search.h, SsRoots).  Sample i of a stratum then
** starts from root i mod the number of roots, replays the root's moves,
** applies the delay the root was waiting for, and goes on as above; every
** execution through the root with db more delays is sampled with
** probability at least 1/L^db.  A stratum draws the same number of
** samples from every root, at least one.
**
** Sample i of stratum db draws its numbers from a generator seeded by
** (--seed, db, i), whatever thread runs it, and samples are handed out in
** chunks whose results are combined in sample order: with -j N the same
** samples run, the same bug (the one of the first sample that has one) is
** reported and the same execution count is given as on one thread.
**
** Checkpoints (checker/search/search_ck.h): the run of -s ss writes one between
** two windows, when every sample drawn so far is merged, and where a stop
** left it.  Since samples are drawn again from their seeds, it holds no
** execution: the strata (samples each is to draw and has drawn, their
** executions), where the rounds are (Cursor), the figures, the coverage
** points and the schedule coverage's pairs.  A resumed run draws the same
** samples next and ends with the figures, stratum lines and bug of a run
** never stopped, on any number of threads.  The trees of executions
** behind the estimate are not saved: a stratum that drew all its samples
** keeps what its tree said (it is fed no more), an open stratum's tree
** starts again empty, so the estimate may differ from a run never stopped.
** ss run as ses's sampling phase (from roots) writes no checkpoint of its
** own: ses's checkpoints are taken before it samples. */
#include <config.h>
#include "checker/search/search_int.h"
#include "checker/search/search_ck.h"
#include "checker/observe/estimate.h"
#include "checker/engine/expand.h"
#include "checker/engine/explorer.h"
#include "checker/engine/liveness.h"
#include "checker/observe/schedcov.h"
#include "checker/base/rng.h"
#include "checker/par/farm.h"
#include "checker/par/ranks.h"
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

enum { CHUNK = 16, WINDOW = 256 };   /* samples per chunk, chunks per window */

typedef struct Chunk {
  uint64_t executions;       /* executions run (up to and including a bug) */
  uint64_t bug_sample;       /* first sample with a bug, or UINT64_MAX */
  uint64_t max_depth;
  uint64_t transitions;      /* steps taken */
  int cut;                   /* some execution reached --max-steps */
  int ran;                   /* its samples were run (up to a bug); 0: a stop came first */
  Buf vlog;                  /* -v: a line per sample */
  Buf dec;                   /* each sample's decisions, for the estimate: u32 n, then n pairs
                                (u32 choices, u32 taken) */
} Chunk;

/* Where the rounds are: stratum db is drawing its share of the round, up
** to sample end.  A resumed run goes on from here: the share is not worked
** out again (--schedules cut it from the executions at its start). */
typedef struct Cursor {
  uint64_t db;
  uint64_t end;              /* Strata.drawn[db] <= end <= Strata.target[db] */
  uint8_t last;              /* --schedules cut this share: the run ends after it */
} Cursor;

/* What a stratum's tree of executions says about the stratum. */
typedef struct EtaSum {
  double lg;                 /* log2 of the executions estimated */
  uint64_t executions;       /* executions fed (0: none, the stratum adds nothing) */
  uint64_t distinct;
  uint8_t exhausted;         /* every execution of the stratum was run */
} EtaSum;

typedef struct Shared {
  const BcProgram *bc;
  const VmTest *test;
  const SearchOptions *o;
  uint64_t db;
  uint64_t first;            /* first sample of this window */
  uint64_t nsamples;         /* samples in this window */
  Chunk *chunks;
  EtaTree **eta;             /* per stratum, its tree of executions (checker/observe/estimate.h) */
  uint64_t neta;
  EtaSum *kept;              /* resumed: per stratum done before, what its tree said (its tree is empty) */
  uint64_t nkept;
  uint64_t nchunks;
  pthread_mutex_t lock;
  uint64_t next_chunk;       /* the next chunk to hand out */
  uint64_t bug_chunk;        /* lowest chunk with a bug so far */
  uint64_t bug_root;         /* the root of the bug taken (with roots) */
  volatile int halt;         /* timeout, interrupt or failure */
  double start;              /* when the search began (for --timeout) */
  char *error;               /* explorer failure (first one) */
  FILE *logf;
  const SsRoots *roots;      /* where samples start, or NULL: the initial state */
  uint64_t salt;             /* mixed into sample seeds: roots draw other samples than the initial state */
  Farm *farm;                /* under mpirun: samples run across ranks (draw_farm), else NULL */
  uint64_t farm_samples;     /* samples merged from the farm so far (the size of its items) */
  struct Strata *S;          /* the strata (with the farm, merge_item prints their lines) */
  Cursor at;                 /* the share being drawn */
  int ck;                    /* this run writes checkpoints (-s ss with --checkpoint) */
  const char *tag;           /* "ss" or "ses then ss" */
  uint64_t base;             /* delays of the roots */
  Progress *prog;
  uint64_t bugdb;            /* with the farm: the stratum of the bug merged */
} Shared;

typedef struct Worker {
  Shared *sh;
  uint32_t pulse;            /* the pulse last seen (search_stop_due) */
  Vm *vm;
  Explorer *ex;
  Buf a, b, d;
  VmChoices ch;
  TraceChoice *trace;
  uint64_t ntrace, tcap;
  uint32_t *given;           /* the explorer's answers at the current state */
  uint32_t given_cap;
  uint32_t *path;
  SsMove *moves;             /* the moves of the current root */
  uint64_t moves_cap;
  Expansion nx;              /* ss_narrow's steps */
  int root_narrowed;         /* still at the root, whose moves ses made among its persistent set */
  LiveTemp temp;             /* hot steps per spec in the current execution */
  int temp_hit;              /* the execution's bug is temp.bug (a spec hot too long) */
  SchedTrack track;          /* the execution's receives, when o->sched is set */
  /* the bug of the lowest sample this worker found */
  uint64_t bug_sample;
  VmBug bug;
  TraceChoice *bug_trace;
  uint64_t bug_ntrace;
  char *error;
  TraceChoice *error_trace;
  uint64_t error_ntrace;
} Worker;

/* Append a choice to the worker's current trace (doubling from 256). */
static void tr_push(Worker *w, uint8_t kind, uint32_t v) {
  if (w->ntrace == w->tcap) {
    w->tcap = w->tcap ? w->tcap * 2 : 256;
    w->trace = xrealloc(w->trace, w->tcap * sizeof *w->trace);
  }
  w->trace[w->ntrace].kind = kind;
  w->trace[w->ntrace++].value = v;
}

/* Stop with an explorer failure (first one wins). */
static int ex_failed(Worker *w, const char *msg) {
  if (!w->error) {
    w->error = xstrdup(msg);
    w->error_trace = xmalloc((w->ntrace ? w->ntrace : 1) * sizeof(TraceChoice));
    memcpy(w->error_trace, w->trace, w->ntrace * sizeof(TraceChoice));
    w->error_ntrace = w->ntrace;
  }
  return -1;
}

/* A state where ses offered its explorer the machines of a persistent set
** (SsMove.red): w->ch, just given by vm_choices for w->a, narrowed the same
** way.  1 if it was; 0 if not (the replay has gone astray). */
static int ss_narrow(Worker *w) {
  const Reduction *red = w->sh->roots ? w->sh->roots->red : NULL;
  return expand_renarrow(&w->nx, red, w->vm, (uint8_t *)w->a.data, w->a.len, &w->ch);
}

/* Replay root r's moves from the initial state (w->a, w->d hold it),
** asking the explorer as ses did, then take the root's earlier answers
** and the delay it waits for: *here is then the delays applied at the
** root's state, *steps the moves replayed.  0, 1 (a bug on the way: the
** model is not deterministic under replay, reported as one), -1. */
static int enter_root(Worker *w, uint64_t r, uint32_t *here, uint64_t *steps) {
  const SsRoots *R = w->sh->roots;
  uint32_t resume = 0;
  uint8_t narrowed = 0;
  uint64_t n = R->get(R, r, &w->moves, &w->moves_cap, &resume, &narrowed);
  for (uint64_t j = 0;; j++) {
    VmStatus st = vm_choices(w->vm, (uint8_t *)w->a.data, w->a.len, &w->ch);
    if (st == VM_BAD_STATE) return ex_failed(w, "internal error: the VM produced a malformed state");
    if (st != VM_OK) return 1;
    if (j == n) break;
    const SsMove *m = &w->moves[j];
    if (w->ch.kind != m->kind || (m->red && !ss_narrow(w)))
      return ex_failed(w, "internal error: replaying a frontier entry took another path");
    uint32_t c = m->index;
    if (m->kind == VC_MACHINE) {
      explorer_set_names(w->ex, w->vm);
      for (uint32_t k = 0; k <= m->index; k++) {
        if (ex_next(w->ex, &w->d, w->ch.ids, w->ch.n, &c) != 0) return ex_failed(w, explorer_error(w->ex));
        if (k < m->index && ex_delay(w->ex, &w->d) != 0) return ex_failed(w, explorer_error(w->ex));
      }
      if (c != m->choice) return ex_failed(w, "internal error: replaying a frontier entry took another path");
    }
    tr_push(w, m->kind, c);
    st = vm_step(w->vm, (uint8_t *)w->a.data, w->a.len, c, &w->b);
    (*steps)++;
    if (st == VM_BAD_STATE) return ex_failed(w, "internal error: the VM rejected its own choice");
    if (st != VM_OK) return 1;
    uint32_t nev;
    const VmEvent *ev = vm_events(w->vm, &nev);
    if (w->sh->o->sched) schedtrack_step(&w->track, ev, nev);
    if (ex_step(w->ex, &w->d, ev, nev) != 0) return ex_failed(w, explorer_error(w->ex));
    Buf t = w->a; w->a = w->b; w->b = t;
  }
  /* At the root: the answers of earlier strata, each followed by a delay
  ** (the last one is the delay the root was waiting for), among the
  ** machines ses offered there. */
  w->root_narrowed = narrowed;
  if (narrowed && !ss_narrow(w)) return ex_failed(w, "internal error: replaying a frontier entry took another path");
  if (resume >= w->ch.n) return ex_failed(w, "internal error: a frontier entry has no move left");
  if (resume + 1 > w->given_cap) {
    w->given_cap = 2 * (resume + 1);
    w->given = xrealloc(w->given, w->given_cap * sizeof *w->given);
  }
  for (uint32_t k = 0; k < resume && w->ch.kind == VC_MACHINE; k++) {
    explorer_set_names(w->ex, w->vm);
    if (ex_next(w->ex, &w->d, w->ch.ids, w->ch.n, &w->given[k]) != 0) return ex_failed(w, explorer_error(w->ex));
    if (ex_delay(w->ex, &w->d) != 0) return ex_failed(w, explorer_error(w->ex));
  }
  *here = resume;
  return 0;
}

/* Run one execution with delays at path[0..np) (each: the number of delay
** points to pass since the previous delay).  *L: delay points after the last
** delay.  Returns 0, 1 for a bug (w->trace), 2 when time is up (sh->halt set), -1 on a failure. */
static int execute(Worker *w, uint64_t root, const uint32_t *path, uint32_t np, uint64_t exseed, uint64_t *L,
                   int *cut, uint64_t *depth) {
  const SearchOptions *o = w->sh->o;
  w->ntrace = 0;
  *L = 0;
  w->temp_hit = 0;
  live_temp_reset(&w->temp);
  if (o->sched) schedtrack_begin(&w->track);
  if (vm_initial(w->vm, &w->a) != VM_OK) return 1;
  uint32_t nev;
  const VmEvent *ev = vm_events(w->vm, &nev);
  if (o->sched) schedtrack_step(&w->track, ev, nev);
  if (ex_init(w->ex, exseed, ev, nev, &w->d) != 0) return ex_failed(w, explorer_error(w->ex));
  uint32_t pi = 0, left = np ? path[0] : 0, here = 0;
  uint64_t steps = 0;
  w->root_narrowed = 0;
  if (w->sh->roots) {
    int rc = enter_root(w, root, &here, &steps);
    if (rc != 0) { *depth = steps; return rc; }
  }
  Rng coin;   /* the fair choices ($$) of this execution: the same on every re-execution of the sample */
  rng_seed(&coin, exseed ^ 0x9e3779b97f4a7c15ull);
  for (;;) {
    VmStatus st = vm_choices(w->vm, (uint8_t *)w->a.data, w->a.len, &w->ch);
    if (st == VM_BAD_STATE) return ex_failed(w, "internal error: the VM produced a malformed state");
    if (st != VM_OK) return 1;
    if (w->ch.kind == VC_NONE) break;
    if (search_stop_due(o, w->sh->prog, &w->pulse)) {   /* time is up: the window is dropped (draw) */
      w->sh->halt = 1;
      *depth = steps;
      return 2;
    }
    if (w->root_narrowed && !ss_narrow(w)) return ex_failed(w, "internal error: replaying a frontier entry took another path");
    if ((int64_t)steps >= search_max_steps(o, 0)) { *cut = 1; break; }
    uint32_t c = here;
    if (w->ch.kind == VC_MACHINE) {
      explorer_set_names(w->ex, w->vm);
      if (ex_next(w->ex, &w->d, w->ch.ids, w->ch.n, &c) != 0) return ex_failed(w, explorer_error(w->ex));
      for (uint32_t j = 0; j < here; j++)
        if (w->given[j] == c) {
          Buf b;
          buf_init(&b);
          buf_printf(&b, "explorer '%s' is unsound: after %u delay(s) at a state with %u enabled machines it "
                     "chose '%s' again", explorer_name(w->ex), here, w->ch.n, vm_machine_text(w->vm, c));
          ex_failed(w, b.data);
          buf_fini(&b);
          return -1;
        }
      if (here + 1 > w->given_cap) {
        w->given_cap = 2 * (here + 1);
        w->given = xrealloc(w->given, w->given_cap * sizeof *w->given);
      }
      w->given[here] = c;
    }
    /* A `$$` is a fair coin, drawn, never a delay point: taking its first
    ** option every time would make every sample with few delays an unfair
    ** execution (a lossy channel losing forever), which the temperature
    ** check would report as a liveness bug no fair execution has. */
    int fair = w->ch.kind == VC_DATA && w->ch.fair;
    if (fair) c = rng_below(&coin, w->ch.n);
    if (!fair && here + 1 < w->ch.n) {   /* a delay point */
      if (pi < np && left == 0) {
        if (w->ch.kind == VC_MACHINE && ex_delay(w->ex, &w->d) != 0) return ex_failed(w, explorer_error(w->ex));
        here++;
        pi++;
        left = pi < np ? path[pi] : 0;
        continue;
      }
      if (pi < np) left--;
      else (*L)++;
    }
    if (live_temp_before(&w->temp, w->vm, (uint8_t *)w->a.data, w->a.len)) {
      w->temp_hit = 1;   /* a spec hot too long: the trace ends before this step */
      *depth = steps;
      return 1;
    }
    tr_push(w, (uint8_t)w->ch.kind, c);
    st = vm_step(w->vm, (uint8_t *)w->a.data, w->a.len, c, &w->b);
    steps++;
    if (st == VM_BAD_STATE) return ex_failed(w, "internal error: the VM rejected its own choice");
    if (st != VM_OK) { *depth = steps; return 1; }
    live_temp_after(&w->temp, w->vm);
    ev = vm_events(w->vm, &nev);
    if (o->sched) schedtrack_step(&w->track, ev, nev);
    if (ex_step(w->ex, &w->d, ev, nev) != 0) return ex_failed(w, explorer_error(w->ex));
    Buf t = w->a; w->a = w->b; w->b = t;
    here = 0;
    w->root_narrowed = 0;   /* past the root: every machine, as ss samples */
  }
  *depth = steps;
  return 0;
}

/* The seed of sample idx of stratum db: a hash of (--seed, db, idx), so
** that a sample draws the same numbers whichever thread or rank runs it
** and whenever (a resumed run too). */
static uint64_t sample_seed(uint64_t seed, uint64_t db, uint64_t idx) {
  uint64_t k[3] = { seed, db, idx };
  return XXH3_64bits(k, sizeof k);
}

/* One delay-bounded sample.  Adds its executions to *execs.  0, 1 (bug), 2 (time up: execute), -1. */
static int sample(Worker *w, uint64_t idx, Chunk *c) {
  Shared *sh = w->sh;
  Rng r;
  rng_seed(&r, sample_seed(sh->o->seed ^ sh->salt, sh->db, idx));
  uint64_t exseed = rng_next(&r), L, depth = 0;
  uint64_t root = sh->roots ? idx % sh->roots->n : 0;
  w->path = xrealloc(w->path, (sh->db + 1) * sizeof *w->path);
  uint32_t np = 0;
  size_t at = c->dec.len;
  uint32_t head[3] = { 0, sh->roots ? (uint32_t)sh->roots->n : 1, (uint32_t)root };
  buf_append(&c->dec, head, sizeof head);   /* the root is the first decision */
  for (;;) {
    int rc = execute(w, root, w->path, np, exseed, &L, &c->cut, &depth);
    if (sh->o->sched && rc >= 0) schedtrack_end(&w->track, sh->o->sched);
    c->executions++;
    c->transitions += depth;
    if (depth > c->max_depth) c->max_depth = depth;
    if (rc != 0) {   /* the decisions so far, complete for the reader */
      uint32_t n = np + 1;
      memcpy(c->dec.data + at, &n, 4);
      return rc;
    }
    if (np == sh->db || L == 0) break;
    uint32_t pair[2] = { L > UINT32_MAX ? UINT32_MAX : (uint32_t)L, 0 };
    pair[1] = w->path[np++] = rng_below(&r, pair[0]);
    buf_append(&c->dec, pair, sizeof pair);
  }
  uint32_t n = np + 1;
  memcpy(c->dec.data + at, &n, 4);
  if (sh->o->verbose) {
    buf_printf(&c->vlog, "ss: delay bound %llu sample %llu: delays after", (unsigned long long)sh->db,
               (unsigned long long)idx);
    for (uint32_t j = 0; j < np; j++) buf_printf(&c->vlog, " %u", w->path[j]);
    buf_printf(&c->vlog, "%s\n", np ? "" : " none");
  }
  return 0;
}

/* Sample s just had a bug: keep it if it is the worker's lowest. */
static void keep_bug(Worker *w, uint64_t s) {
  if (s >= w->bug_sample) return;
  w->bug_sample = s;
  const VmBug *b = w->temp_hit ? &w->temp.bug : vm_bug(w->vm);
  free(w->bug.message);
  w->bug = *b;
  w->bug.message = xstrdup(b->message ? b->message : "");
  free(w->bug_trace);
  w->bug_trace = xmalloc((w->ntrace ? w->ntrace : 1) * sizeof(TraceChoice));
  memcpy(w->bug_trace, w->trace, w->ntrace * sizeof(TraceChoice));
  w->bug_ntrace = w->ntrace;
}

/* The first failure among ws[0..nw) (explorer failure, internal error),
** with the trace to where it happened, into res. */
static void take_error(Worker *ws, int nw, SearchResult *res) {
  for (int i = 0; i < nw && !res->error; i++)
    if (ws[i].error) {
      res->error = ws[i].error;
      ws[i].error = NULL;
      res->trace = ws[i].error_trace;
      res->ntrace = ws[i].error_ntrace;
      ws[i].error_trace = NULL;
    }
}

/* Samples lo..hi-1 of stratum sh->db into c, up to the first with a bug
** (c->bug_sample, kept by keep_bug).  0, 1: a bug, 2: cut when time was up, -1: a failure (w->error). */
static int run_chunk(Worker *w, uint64_t lo, uint64_t hi, Chunk *c) {
  for (uint64_t s = lo; s < hi; s++) {
    int rc = sample(w, s, c);
    if (rc < 0) return -1;
    if (rc == 2) return 2;
    if (rc == 1) {
      c->bug_sample = s;
      keep_bug(w, s);
      return 1;
    }
  }
  return 0;
}

/* A thread: takes chunks in order under the lock, none past the first
** chunk known to hold a bug (an earlier chunk may still find an earlier
** one), and runs them; a timeout, interrupt or failure halts every
** thread.  Results stay in the chunks, combined later in sample order. */
static void *worker_main(void *arg) {
  Worker *w = arg;
  Shared *sh = w->sh;
  for (;;) {
    pthread_mutex_lock(&sh->lock);
    uint64_t ci = sh->next_chunk++;
    int go = ci < sh->nchunks && ci < sh->bug_chunk && !sh->halt;
    pthread_mutex_unlock(&sh->lock);
    if (!go) break;
    if ((sh->o->stop && *sh->o->stop) ||
        (sh->o->timeout > 0 && search_now() - sh->start > sh->o->timeout)) { sh->halt = 1; break; }
    Chunk *c = &sh->chunks[ci];
    uint64_t lo = sh->first + ci * CHUNK, hi = lo + CHUNK;
    if (hi > sh->first + sh->nsamples) hi = sh->first + sh->nsamples;
    int rc = run_chunk(w, lo, hi, c);
    c->ran = rc == 0 || rc == 1;
    if (rc == 2) break;   /* cut by the pulse: sh->halt is set */
    if (rc < 0) {
      pthread_mutex_lock(&sh->lock);
      sh->halt = 1;
      pthread_mutex_unlock(&sh->lock);
      return NULL;
    }
    if (rc == 1) {
      pthread_mutex_lock(&sh->lock);
      if (ci < sh->bug_chunk) sh->bug_chunk = ci;
      pthread_mutex_unlock(&sh->lock);
    }
  }
  return NULL;
}

/* Move the bug of sample smp, which one of the workers kept, into res. */
static void take_bug(Shared *sh, Worker *ws, int nw, uint64_t smp, SearchResult *res) {
  if (sh->roots) sh->bug_root = smp % sh->roots->n;
  for (int i = 0; i < nw; i++)
    if (ws[i].bug_sample == smp) {
      res->bug = 1;
      res->bugdesc = ws[i].bug;
      ws[i].bug.message = NULL;
      res->trace = ws[i].bug_trace;
      res->ntrace = ws[i].bug_ntrace;
      ws[i].bug_trace = NULL;
      res->cycle_start = -1;
      if (res->bugdesc.status == VM_BUG_HOT_TEMP) res->temperature = sh->o->temperature;
      return;
    }
}

/* Frees what the worker owns: tracker, temperature, Vm, explorer, State
** and explorer buffers, choices and traces. */
static void worker_fini(Worker *w) {
  schedtrack_fini(&w->track);
  live_temp_fini(&w->temp);
  vm_free(w->vm);
  explorer_free(w->ex);
  buf_fini(&w->a);
  buf_fini(&w->b);
  buf_fini(&w->d);
  vm_choices_fini(&w->ch);
  expand_fini(&w->nx);
  free(w->trace);
  free(w->given);
  free(w->path);
  free(w->moves);
  free(w->bug.message);
  free(w->bug_trace);
  free(w->error);
  free(w->error_trace);
}

/* The strata of a run: what each is to draw and has drawn. */
typedef struct Strata {
  uint64_t *target;          /* numsamples(db) */
  uint64_t *drawn;           /* samples drawn (with the farm: handed out) */
  uint64_t *merged;          /* with the farm: samples whose results were merged */
  uint64_t *execs;           /* executions they ran */
  double *secs;              /* once drawn in full: seconds of search then (runs resumed from included) */
  uint64_t open;             /* strata 0..open-1 are open */
  uint64_t cap;
} Strata;

/* numsamples(db): c1 * c2^db; one at db = 0 for an explorer with a single
** execution without delays; with roots, the same number from each root,
** at least one. */
static uint64_t stratum_target(const SearchOptions *o, const SsRoots *roots, uint64_t db) {
  double want = o->ss_c1 * pow(o->ss_c2, (double)db);
  uint64_t total = want >= 1e18 ? (uint64_t)1e18 : (uint64_t)ceil(want);
  if (total == 0) total = 1;
  int single = (o->explorer_native == EXN_RR || o->explorer_native == EXN_RTC) && !o->explorer_twin_check;
  if (db == 0 && single) total = 1;
  if (roots) {
    uint64_t each = (total + roots->n - 1) / roots->n;
    if (each > (uint64_t)1e18 / roots->n) each = (uint64_t)1e18 / roots->n;
    total = each * roots->n;
  }
  return total;
}

/* Open the next stratum; 0, or 1 if --max-delays forbids it. */
static int stratum_open(Strata *S, const SearchOptions *o, const SsRoots *roots, uint64_t base) {
  uint64_t db = S->open;
  if (o->max_delays >= 0 && db + base > (uint64_t)o->max_delays) return 1;
  if (db == S->cap) {
    S->cap = S->cap ? S->cap * 2 : 8;
    S->target = xrealloc(S->target, S->cap * sizeof *S->target);
    S->drawn = xrealloc(S->drawn, S->cap * sizeof *S->drawn);
    S->execs = xrealloc(S->execs, S->cap * sizeof *S->execs);
    S->merged = xrealloc(S->merged, S->cap * sizeof *S->merged);
    S->secs = xrealloc(S->secs, S->cap * sizeof *S->secs);
  }
  S->target[db] = stratum_target(o, roots, db);
  S->drawn[db] = S->execs[db] = S->merged[db] = 0;
  S->secs[db] = 0;
  S->open++;
  return 0;
}

/* Executions each open stratum gets per round of the interleaved
** schedule: few, so that a deeper stratum starts soon, and the same
** whatever -j, so that -j N draws the same samples in the same order as
** one thread (threads share a round's chunks). */
enum { ROUND_EXECS = 128 };

/* What stratum d's tree says; resumed, for a stratum done before, what
** its tree said then. */
static EtaSum eta_sum(const Shared *sh, uint64_t d) {
  if (d < sh->nkept && sh->kept[d].executions) return sh->kept[d];
  if (d >= sh->neta || !eta_executions(sh->eta[d])) return (EtaSum){0};
  const EtaTree *t = sh->eta[d];
  return (EtaSum){ eta_log2(t), eta_executions(t), eta_distinct(t), (uint8_t)eta_exhausted(t) };
}

/* Each sample of a chunk, in order, into its stratum's tree of
** executions (Eta's estimator: the decisions are uniform, as it wants),
** and the estimate of the executions of every stratum opened into res. */
static void feed_estimate(Shared *sh, const Buf *dec, SearchResult *res) {
  if (sh->db >= sh->neta) {
    sh->eta = xrealloc(sh->eta, (sh->db + 1) * sizeof *sh->eta);
    for (uint64_t d = sh->neta; d <= sh->db; d++) sh->eta[d] = eta_new(0);
    sh->neta = sh->db + 1;
  }
  eta_feed(sh->eta[sh->db], (const uint8_t *)dec->data, dec->len);
  double lg = -INFINITY;
  uint64_t distinct = 0;
  int exact = 1;
  for (uint64_t d = 0; d < sh->neta || d < sh->nkept; d++) {
    EtaSum e = eta_sum(sh, d);
    if (!e.executions) continue;
    exact &= e.exhausted;
    lg = est_lg_add(lg, e.lg);
    distinct += e.distinct;
  }
  if (lg == -INFINITY) return;
  res->est_kind = EST_EXECUTIONS;
  res->est_log2 = lg;
  res->est_done = distinct;
  res->est_factor = exact ? 1 : 0;   /* 1: every delay placement of the strata opened was run */
}

/* Stratum db's line: its figures, and the search's time when it was done. */
static void stratum_line(Shared *sh, const Strata *S, uint64_t db) {
  progress_done(sh->prog, sh->o);
  if (!sh->o->quiet)
    fprintf(sh->logf, "%s: delay bound %llu: %llu samples, %llu executions, %.2f s\n", sh->tag,
            (unsigned long long)(db + sh->base), (unsigned long long)S->target[db], (unsigned long long)S->execs[db],
            S->secs[db]);
  fflush(sh->logf);
}

/* Stratum db drew all its samples: the time (counted from the start of
** the search, with the time of the runs it resumed from), and its line. */
static void stratum_done(Shared *sh, Strata *S, uint64_t db) {
  S->secs[db] = (sh->o->ck ? sh->o->ck->prior_seconds : 0) + search_now() - sh->prog->start;
  stratum_line(sh, S, db);
}

/* ---- Checkpoints (checker/search/search_ck.h) ----
** Section "ss": u64 open, then per open stratum u64 target, drawn,
** execs, f64 secs, and what its tree of executions says (EtaSum: f64 lg,
** u64 executions, distinct, u8 exhausted); the Cursor (u64 db, end, u8
** last); u8 cut (some execution reached --max-steps).  Section "sched",
** with schedule coverage: u64 executions folded, u64 n, n pairs (u64 a,
** b, u32 type, u8 crit).  With the common sections: the figures and the
** coverage points. */

enum { STRATUM_BYTES = 8 * 4 + 8 * 3 + 1,   /* one stratum's bytes in "ss" */
       PAIR_BYTES = 8 + 8 + 4 + 1 };           /* one pair's in "sched" */

/* Write a checkpoint; every window drawn so far is merged. */
static void ss_checkpoint(Shared *sh, int cut, const SearchResult *res) {
  const SearchOptions *o = sh->o;
  ck_begin(o);
  const Strata *S = sh->S;
  Checkpoint c;
  ck_init(&c);
  Buf b;
  buf_init(&b);
  ck_put_u64(&b, S->open);
  for (uint64_t d = 0; d < S->open; d++) {
    EtaSum e = eta_sum(sh, d);
    ck_put_u64(&b, S->target[d]);
    ck_put_u64(&b, S->drawn[d]);
    ck_put_u64(&b, S->execs[d]);
    ck_put_f64(&b, S->secs[d]);
    ck_put_f64(&b, e.lg);
    ck_put_u64(&b, e.executions);
    ck_put_u64(&b, e.distinct);
    ck_put_u8(&b, e.exhausted);
  }
  ck_put_u64(&b, sh->at.db);
  ck_put_u64(&b, sh->at.end);
  ck_put_u8(&b, sh->at.last);
  ck_put_u8(&b, (uint8_t)cut);
  ck_add_buf(&c, "ss", &b);
  if (o->sched) {
    uint32_t n;
    SchedPair *p = schedcov_pairs(o->sched, &n);
    ck_put_u64(&b, schedcov_executions(o->sched));
    ck_put_u64(&b, n);
    for (uint32_t i = 0; i < n; i++) {
      ck_put_u64(&b, p[i].a);
      ck_put_u64(&b, p[i].b);
      ck_put_u32(&b, p[i].type);
      ck_put_u8(&b, p[i].crit);
    }
    free(p);
    ck_add_buf(&c, "sched", &b);
  }
  buf_fini(&b);
  ck_put_common(o, &c, res, sh->bc, sh->test, search_now() - sh->prog->start);
  ck_commit(o, &c);
  ck_fini(&c);
}

/* Resuming: the figures, coverage, strata, cursor (sh->at) and *cut of
** the checkpoint, and the lines of the strata it had drawn in full,
** printed again in the order they were done.  0, or -1 (said) if the
** checkpoint does not fit. */
static int ss_restore(Shared *sh, int *cut, SearchResult *res) {
  const SearchOptions *o = sh->o;
  Strata *S = sh->S;
  if (ck_get_common(o, sh->bc, sh->test, res) != 0) return -1;
  CkIn r = ck_in(ck_from(o), "ss");
  uint64_t open = ck_get_u64(&r);
  if (!r.ok || open == 0 || open > (uint64_t)(r.end - r.p) / STRATUM_BYTES) return ck_bad(o, "its strata");
  sh->kept = xcalloc(open, sizeof *sh->kept);
  sh->nkept = open;
  for (uint64_t d = 0; d < open; d++) {
    if (stratum_open(S, o, NULL, 0) != 0) return ck_bad(o, "its strata (past --max-delays)");
    uint64_t target = ck_get_u64(&r);
    S->drawn[d] = ck_get_u64(&r);
    S->execs[d] = ck_get_u64(&r);
    S->secs[d] = ck_get_f64(&r);
    EtaSum e;
    e.lg = ck_get_f64(&r);
    e.executions = ck_get_u64(&r);
    e.distinct = ck_get_u64(&r);
    e.exhausted = ck_get_u8(&r);
    if (target != S->target[d] || S->drawn[d] > target) return ck_bad(o, "its strata");
    if (S->drawn[d] == target) sh->kept[d] = e;   /* fed no more: what its tree said stays */
  }
  sh->at.db = ck_get_u64(&r);
  sh->at.end = ck_get_u64(&r);
  sh->at.last = ck_get_u8(&r);
  *cut = ck_get_u8(&r) != 0;
  if (!ck_in_done(&r) || sh->at.db >= open || sh->at.end < S->drawn[sh->at.db] ||
      sh->at.end > S->target[sh->at.db] || sh->at.last > 1)
    return ck_bad(o, "where its rounds were");
  r = ck_in(ck_from(o), "sched");
  if (o->sched && r.ok) {   /* a checkpoint written with --no-coverage has none */
    uint64_t folded = ck_get_u64(&r), n = ck_get_u64(&r);
    if (!r.ok || n > (uint64_t)(r.end - r.p) / PAIR_BYTES) return ck_bad(o, "its schedule coverage");
    for (uint64_t i = 0; i < n; i++) {
      SchedPair p = {0};
      p.a = ck_get_u64(&r);
      p.b = ck_get_u64(&r);
      uint32_t type = ck_get_u32(&r);
      p.crit = ck_get_u8(&r);
      if (!r.ok || type > UINT16_MAX || p.crit >= SC_NCRIT) return ck_bad(o, "its schedule coverage");
      p.type = (uint16_t)type;
      schedcov_add(o->sched, &p);
    }
    if (!ck_in_done(&r)) return ck_bad(o, "its schedule coverage");
    /* Executions folded before: the report reads only whether there were
    ** any (coverage.c), which an execution with no receive says. */
    if (folded) {
      SchedTrack none;
      schedtrack_init(&none);
      schedtrack_end(&none, o->sched);
      schedtrack_fini(&none);
    }
  }
  /* The strata drawn in full, in the order they were done (of their
  ** times, the earlier; of equal times, the shallower: a round draws its
  ** strata in that order). */
  double after = -1;
  uint64_t last = UINT64_MAX;
  for (;;) {
    uint64_t next = UINT64_MAX;
    for (uint64_t d = 0; d < open; d++) {
      if (S->drawn[d] != S->target[d]) continue;
      int later = S->secs[d] > after || (S->secs[d] == after && last != UINT64_MAX && d > last);
      if (later && (next == UINT64_MAX || S->secs[d] < S->secs[next])) next = d;
    }
    if (next == UINT64_MAX) break;
    stratum_line(sh, S, next);
    after = S->secs[next];
    last = next;
  }
  return 0;
}

/* ---- Across ranks (checker/par/farm.h) ---- */

/* An item: samples lo..hi-1 of stratum db.  Its result: a FarmChunk, then
** the samples' decisions (Chunk.dec). */
typedef struct FarmChunk {
  uint64_t db;
  uint64_t executions, bug_sample, max_depth, transitions, cut;
  uint64_t samples;          /* drawn: hi - lo, or up to the one with a bug */
} FarmChunk;

/* A worker rank's item (stratum, first sample, count): the samples run as
** one chunk on this rank's worker; out gets the FarmChunk then their
** decisions.  -1 for an item of the wrong size or an internal failure. */
static int ss_item(void *ctx, const uint8_t *item, size_t n, Buf *out) {
  Worker *w = ctx;
  uint64_t v[3];
  if (n != sizeof v) return -1;
  memcpy(v, item, sizeof v);
  w->sh->db = v[0];
  Chunk c = {0};
  c.bug_sample = UINT64_MAX;
  FarmChunk head = {0};
  buf_append(out, &head, sizeof head);
  c.dec = *out;   /* the decisions follow the head */
  int rc = run_chunk(w, v[1], v[2], &c);
  *out = c.dec;
  head = (FarmChunk){ v[0], c.executions, c.bug_sample, c.max_depth, c.transitions, (uint64_t)c.cut,
                      (c.bug_sample != UINT64_MAX ? c.bug_sample + 1 : v[2]) - v[1] };
  memcpy(out->data, &head, sizeof head);
  buf_fini(&c.vlog);
  return rc < 0 ? -1 : 0;
}

/* The oldest result of the farm, merged into res (and the strata's
** figures; the stratum's line once all its samples are in).  0, or -1 on
** a failure (res->error). */
static int merge_item(Shared *sh, Worker *ws, int *cut, SearchResult *res) {
  const uint8_t *out;
  size_t n;
  if (farm_take(sh->farm, &out, &n) != 0) {   /* rank 0 ran the failing item: ws[0] has the failure */
    take_error(ws, 1, res);
    if (!res->error) res->error = xstrdup("internal error: sampling failed on a rank");
    return -1;
  }
  FarmChunk h;
  memcpy(&h, out, sizeof h);
  sh->db = h.db;   /* for the tree fed and the sample drawn again */
  res->executions += h.executions;
  res->transitions += h.transitions;
  if (h.max_depth > res->max_depth) res->max_depth = h.max_depth;
  *cut |= h.cut != 0;
  Buf dec = { (char *)out + sizeof h, n - sizeof h, 0 };
  feed_estimate(sh, &dec, res);
  sh->farm_samples += h.samples;
  sh->S->execs[h.db] += h.executions;
  sh->S->merged[h.db] += h.samples;
  if (h.bug_sample != UINT64_MAX) {
    /* Rank 0 draws that sample again to keep its bug and trace. */
    farm_drop(sh->farm);
    Chunk c = {0};
    int rc = sample(&ws[0], h.bug_sample, &c);
    buf_fini(&c.dec);
    if (rc != 1) {
      fputs("pcheck: internal error: a sample with a bug on another rank has none on rank 0\n", stderr);
      return -1;
    }
    keep_bug(&ws[0], h.bug_sample);
    take_bug(sh, ws, 1, h.bug_sample, res);
    sh->bugdb = h.db;
  } else if (sh->S->merged[h.db] == sh->S->target[h.db]) {
    stratum_done(sh, sh->S, h.db);
  }
  return 0;
}

/* Merge results until fewer than `keep` items are pending (0: all), a
** bug, or a stop (sh->halt, *why: the rest is dropped).  0, or -1. */
static int farm_drain(Shared *sh, Worker *ws, uint64_t keep, const char **why, int *cut, SearchResult *res) {
  while (!res->bug && farm_pending(sh->farm) > keep) {
    if (search_should_stop(sh->o, sh->prog, why)) {
      sh->halt = 1;
      farm_drop(sh->farm);
      break;
    }
    progress_tick(sh->prog, sh->o, res, sh->db, "delay bound");
    if (merge_item(sh, ws, cut, res) != 0) return -1;
  }
  return 0;
}

/* draw() across ranks: the draw's samples handed out as items of about
** 20 ms of a rank's work; results are merged in the order of the items
** (merge_item), later: the next draw's items go out meanwhile, so the
** ranks do not wait for each other between draws. */
static int draw_farm(Shared *sh, Worker *ws, uint64_t first, uint64_t count, const char **why, int *cut,
                     SearchResult *res) {
  uint64_t db = sh->db, window = 16 * (uint64_t)ranks_count();
  sh->prog->bound = (long long)db;
  for (uint64_t next = first, end = first + count; next < end && !res->bug && !sh->halt;) {
    if (farm_pending(sh->farm) >= window && farm_drain(sh, ws, window - 1, why, cut, res) != 0) return -1;
    uint64_t v[3] = { db, next, next + farm_item_units(sh->farm_samples, search_now() - sh->start, ranks_count()) };
    if (v[2] > end) v[2] = end;
    farm_add(sh->farm, v, sizeof v);
    next = v[2];
  }
  sh->db = db;
  return 0;
}

/* Draw samples first..first+count-1 of stratum sh->db, in windows of
** chunks; add their figures to res; record the bug of the first sample
** that has one.  Without the farm, each window merged counts in the
** stratum's figures (sh->S: its line once it drew all its samples), and
** a checkpoint is written after it when one is due.  Sets sh->halt (and
** *why) when the run must stop (the window it stopped in is dropped: a
** resumed run draws it again), and returns -1 on a failure (res->error). */
static int draw(Shared *sh, Worker *ws, pthread_t *th, int nw, uint64_t first, uint64_t count, Progress *prog,
                const char **why, int *cut, SearchResult *res) {
  if (sh->farm) return draw_farm(sh, ws, first, count, why, cut, res);
  const SearchOptions *o = sh->o;
  Strata *S = sh->S;
  uint64_t db = sh->db;
  for (uint64_t done = 0; done < count && !res->bug && !sh->halt;) {
    if (search_should_stop(o, prog, why)) { sh->halt = 1; break; }
    prog->bound = (long long)sh->db;
    progress_tick(prog, o, res, sh->db, "delay bound");
    sh->first = first + done;
    /* A portfolio member hands its turn back between windows: small ones. */
    uint64_t window = (uint64_t)(o->member ? 1 : WINDOW) * CHUNK;
    sh->nsamples = count - done < window ? count - done : window;
    sh->nchunks = (sh->nsamples + CHUNK - 1) / CHUNK;
    for (uint64_t c = 0; c < sh->nchunks; c++) {
      Buf keep = sh->chunks[c].vlog, dec = sh->chunks[c].dec;
      keep.len = dec.len = 0;
      memset(&sh->chunks[c], 0, sizeof sh->chunks[c]);
      sh->chunks[c].vlog = keep;
      sh->chunks[c].dec = dec;
      sh->chunks[c].bug_sample = UINT64_MAX;
    }
    sh->next_chunk = 0;
    sh->bug_chunk = UINT64_MAX;
    if (nw == 1) {
      worker_main(&ws[0]);
    } else {
      for (int i = 0; i < nw; i++) pthread_create(&th[i], NULL, worker_main, &ws[i]);
      for (int i = 0; i < nw; i++) pthread_join(th[i], NULL);
    }
    take_error(ws, nw, res);
    if (res->error) return -1;
    /* Stopped within the window: its chunks are not all run (a worker
    ** stops before its next one), so none counts.  A bug found counts;
    ** with checkpoints only if every chunk before it ran (an unrun one
    ** might hold the bug a run never stopped reports): else the window is
    ** dropped, and a resumed run draws it again. */
    if (sh->halt) {
      uint64_t hole = 0;
      while (hole < sh->nchunks && sh->chunks[hole].ran) hole++;
      if (sh->bug_chunk == UINT64_MAX || (sh->ck && hole < sh->bug_chunk)) break;
    }
    uint64_t upto = sh->bug_chunk < sh->nchunks ? sh->bug_chunk + 1 : sh->nchunks, before = res->executions;
    for (uint64_t c = 0; c < upto; c++) {
      res->executions += sh->chunks[c].executions;
      res->transitions += sh->chunks[c].transitions;
      if (o->verbose && sh->chunks[c].vlog.len) fwrite(sh->chunks[c].vlog.data, 1, sh->chunks[c].vlog.len, sh->logf);
      if (sh->chunks[c].max_depth > res->max_depth) res->max_depth = sh->chunks[c].max_depth;
      *cut |= sh->chunks[c].cut;
      feed_estimate(sh, &sh->chunks[c].dec, res);
    }
    S->execs[db] += res->executions - before;
    if (sh->bug_chunk != UINT64_MAX) {
      take_bug(sh, ws, nw, sh->chunks[sh->bug_chunk].bug_sample, res);
      break;
    }
    done += sh->nsamples;
    S->drawn[db] += sh->nsamples;
    if (S->drawn[db] == S->target[db]) stratum_done(sh, S, db);
    if (sh->ck && ck_due(o)) ss_checkpoint(sh, *cut, res);
  }
  return 0;
}

/* Why a run without a bug ended and how far it got. */
static char *ss_bound(const SearchOptions *o, const Strata *S, uint64_t nroots, uint64_t base, const char *why,
                      int cut, const SearchResult *res) {
  Buf b;
  buf_init(&b);
  uint64_t full = 0;   /* strata 0..full-1 drew all their samples */
  while (full < S->open && S->drawn[full] == S->target[full]) full++;
  unsigned long long deepest = (unsigned long long)((S->open ? S->open - 1 : 0) + base);
  unsigned long long ex = (unsigned long long)res->executions;
  if (why && strcmp(why, "schedules") == 0)
    buf_printf(&b, "%llu executions (--schedules) up to delay bound %llu", ex, deepest);
  else if (why)
    buf_printf(&b, "%s at delay bound %llu after %llu executions", why, deepest, ex);
  else
    buf_printf(&b, "sampled up to delay bound %llu, %llu executions", deepest, ex);
  if (full < S->open && full > 0)
    buf_printf(&b, "; up to delay bound %llu in full", (unsigned long long)(full - 1 + base));
  if (nroots) buf_printf(&b, ", from %llu frontier states", (unsigned long long)nroots);
  if (cut) buf_printf(&b, ", some cut at %lld steps", (long long)search_max_steps(o, 0));
  return buf_take(&b);
}

int ss_sample(const BcProgram *bc, const VmTest *test, const SearchOptions *o, FILE *logf, const SsRoots *roots,
              double start, SearchResult *res) {
  int nw = o->jobs > 0 ? o->jobs : 1, rc = -1;
  Shared sh = {0};
  sh.bc = bc;
  sh.test = test;
  sh.o = o;
  sh.logf = logf;
  sh.roots = roots && roots->n ? roots : NULL;
  sh.salt = sh.roots ? 0x5e55e55e55e55e55ull : 0;
  uint64_t base = sh.roots ? roots->base : 0;   /* delays the roots used (for reports) */
  const char *tag = sh.roots ? "ses then ss" : "ss";
  sh.tag = tag;
  sh.base = base;
  pthread_mutex_init(&sh.lock, NULL);
  Worker *ws = xcalloc((size_t)nw, sizeof *ws);
  pthread_t *th = xcalloc((size_t)nw, sizeof *th);
  Progress prog;
  progress_init(&prog);
  if (start > 0) prog.start = start;
  sh.start = prog.start;
  sh.prog = &prog;
  Strata S = {0};
  sh.S = &S;
  Buf err;
  buf_init(&err);
  for (int i = 0; i < nw; i++) {
    ws[i].sh = &sh;
    ws[i].vm = vm_new(bc, test);
    vm_record_events(ws[i].vm, 1);
    ws[i].ex = explorer_new(bc, test, o->explorer, (ExNative)o->explorer_native, o->explorer_twin_check, &err);
    ws[i].bug_sample = UINT64_MAX;
    live_temp_init(&ws[i].temp, bc, test, 0);   /* unfair: no temperature check (search_temperature) */
    if (!ws[i].ex) { fprintf(stderr, "pcheck: error: %s\n", err.data); goto out; }
  }
  sh.chunks = xcalloc(WINDOW, sizeof *sh.chunks);
  if (search_across_ranks(o)) {   /* one worker per rank; ranks other than 0 run what rank 0 hands out */
    const VmCov *cov = test->cov;
    sh.farm = farm_new(ss_item, &ws[0], cov ? cov->hit : NULL, cov ? cov->npoints : 0, o->rank_timeout);
    if (ranks_me() != 0) {
      rc = farm_serve(sh.farm);
      goto out;
    }
  }
  const char *why = NULL;
  int cut = 0, interleave = !o->ss_strata;
  uint64_t bugdb = 0;
  /* Checkpoints for -s ss only (roots: ses's sampling phase writes none,
  ** and does not resume from ses's checkpoint); none across ranks. */
  const Checkpoint *from = roots || sh.farm ? NULL : ck_from(o);
  sh.ck = !roots && !sh.farm && o->ck && o->ck->path;
  int resuming = from != NULL;
  if (resuming) {
    if (ss_restore(&sh, &cut, res) != 0) goto out;
  } else if (stratum_open(&S, o, sh.roots, base) != 0) {
    S.open = 0;
  }
  if (sh.ck) ck_start(o);
  /* Rounds: every open stratum with samples left draws its share (all of
  ** them on the paper's schedule); resumed, the first round goes on with
  ** the share the checkpoint was drawing. */
  while (S.open && !res->bug && !sh.halt && !why) {
    int drew = 0;
    for (uint64_t db = resuming ? sh.at.db : 0; db < S.open && !res->bug && !sh.halt && !why; db++) {
      uint64_t want;
      if (resuming) {
        resuming = 0;
        want = sh.at.end - S.drawn[db];
        if (sh.at.last) why = "schedules";
      } else {
        uint64_t left = S.target[db] - S.drawn[db];
        if (left == 0) continue;
        want = interleave ? (ROUND_EXECS + db) / (db + 1) : left;
        if (want > left) want = left;
        /* The executions so far decide how many samples --schedules leaves:
        ** with the farm, every result is merged first. */
        if (o->schedules >= 0 && sh.farm && farm_drain(&sh, ws, 0, &why, &cut, res) != 0) {
          rc = res->error ? 0 : -1;
          goto out;
        }
        if (res->bug || sh.halt) break;
        if (o->schedules >= 0) {
          uint64_t sl = (uint64_t)o->schedules > res->executions ? (uint64_t)o->schedules - res->executions : 0;
          uint64_t can = sl / (db + 1);
          if (can < want) { want = can; why = "schedules"; }
          if (want == 0) break;
        }
        sh.at = (Cursor){ db, S.drawn[db] + want, why != NULL };
      }
      sh.db = db;
      if (draw(&sh, ws, th, nw, S.drawn[db], want, &prog, &why, &cut, res) != 0) { rc = 0; goto out; }
      if (sh.halt && !res->bug) break;
      drew = 1;
      if (sh.farm) {   /* merge_item keeps the figures */
        S.drawn[db] += want;
        if (res->bug) break;
        continue;
      }
      if (res->bug) { bugdb = db; break; }   /* draw kept the stratum's figures */
    }
    if (res->bug || sh.halt || why) break;
    /* The next stratum opens once the deepest has drawn its share: a
    ** c2-th of its samples interleaved, all of them on the paper's
    ** schedule. */
    uint64_t d = S.open - 1;
    double share = interleave ? (double)S.target[d] / (o->ss_c2 > 1 ? o->ss_c2 : 1) : (double)S.target[d];
    if (((double)S.drawn[d] >= share || S.drawn[d] == S.target[d]) && stratum_open(&S, o, sh.roots, base) == 0)
      continue;
    if (!drew) break;   /* every open stratum is done and no deeper one may open */
  }
  if (sh.farm) {   /* the results still out */
    if (farm_drain(&sh, ws, 0, &why, &cut, res) != 0) {
      rc = res->error ? 0 : -1;
      goto out;
    }
    bugdb = sh.bugdb;
    memcpy(S.drawn, S.merged, S.open * sizeof *S.drawn);   /* what the figures are of */
  }
  /* Stopped: where, for --resume (every window drawn is merged). */
  if (sh.ck && sh.halt && !res->bug) ss_checkpoint(&sh, cut, res);
  progress_done(&prog, o);
  res->delays = (res->bug ? bugdb : (S.open ? S.open - 1 : 0)) + base;
  if (res->bug && sh.roots && sh.roots->extra) res->delays += sh.roots->extra[sh.bug_root];
  if (res->bug) {
    fprintf(logf, "%s: %s at delay bound %llu after %llu executions\n", tag,
            res->bugdesc.status == VM_LIMIT ? "stopped at a limit" : "bug found", (unsigned long long)res->delays,
            (unsigned long long)res->executions);
  } else {
    /* A worker that stopped the run left *why unset, or as the last share's "schedules". */
    if (sh.halt && (!why || strcmp(why, "schedules") == 0)) why = o->stop && *o->stop ? "interrupted" : "timeout";
    res->bound = ss_bound(o, &S, sh.roots ? sh.roots->n : 0, base, why, cut, res);
  }
  rc = 0;
out:
  if (sh.farm && ranks_me() == 0) {
    FarmStats st;
    farm_end(sh.farm, &st);
    search_farm_figures(res, &st);
  }
  farm_free(sh.farm);
  progress_done(&prog, o);
  res->seconds = search_now() - prog.start;
  for (int i = 0; i < nw; i++) worker_fini(&ws[i]);
  free(ws);
  free(th);
  for (int c = 0; sh.chunks && c < WINDOW; c++) {
    buf_fini(&sh.chunks[c].vlog);
    buf_fini(&sh.chunks[c].dec);
  }
  for (uint64_t d = 0; d < sh.neta; d++) eta_free(sh.eta[d]);
  free(sh.eta);
  free(sh.chunks);
  free(S.target);
  free(S.drawn);
  free(S.execs);
  free(S.merged);
  free(S.secs);
  free(sh.kept);
  pthread_mutex_destroy(&sh.lock);
  buf_fini(&err);
  return rc;
}

/* SearchOps.run for ss: sampling from the initial state (no roots), its
** clock starting now. */
int search_run_ss(const BcProgram *bc, const VmTest *test, const SearchOptions *o, FILE *logf, SearchResult *res) {
  return ss_sample(bc, test, o, logf, NULL, 0, res);
}
