/* search_portfolio.c: several searches on one test, in turns (SEARCH.md,
** "portfolio").  Each member is an ordinary search (SearchOps) run on a
** thread of its own; a scheduler lets at most -j of them run at a time,
** each for a slice of its own work (transitions), in a fixed order of
** rounds.  A member gives the turn back from search_should_stop(), which
** every search calls regularly, so no search carries portfolio code.
**
** The first member (in member order, within the round) to find a bug, or
** an exhaustive member that completes, ends the portfolio: the others are
** stopped and its result becomes the portfolio's.  Because a member's turn
** ends at a point fixed by its own work, and the winner of a round is the
** first in member order, the result is the same for a given --seed and -j
** whatever the timing.
**
** Ownership: the members' results are the portfolio's until the winner's
** is moved into the caller's SearchResult. */
#include <config.h>
#include "checker/search.h"
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* A member's first turn is `slice` transitions; each next one is 1.5
** times its last, and, once an exhaustive member has done PROOF_WORK
** steps (a few hundredths of a second), twice its last, up to SLICE_MAX:
** a bug that one member finds soon costs the others little, a long proof
** of W steps costs each sampling member far fewer than W, and a long run
** still switches members every few seconds.  Measured (bench/README.md):
** growth by 2 for every member gave up to 14 times the best member's time
** to a bug (pct on devicedriver tcBugTagWrap); by 1.5 for every member,
** proofs took 4 to 5 times as long as ses alone; doubling exhaustive turns
** from the first, 19 times on tcBugTagWrap. */
enum { SLICE_MAX = 1 << 22, PROOF_WORK = 1 << 15 };
/* Searches call search_should_stop about every thousand steps (the
** hot-cycle search exactly every 1024). */
enum { STALL_WORK = 1024 };

/* What a member does between turns. */
typedef enum MemberState {
  MS_WAITING = 0,            /* waiting for a turn (or not started) */
  MS_RUNNING,                /* holds a turn */
  MS_YIELDED,                /* used its slice; waits for the next round */
  MS_DONE,                   /* its search returned */
} MemberState;

struct SearchMember {
  char label[48];            /* e.g. "ses/rtc" */
  const SearchOps *ops;
  int exhaustive;            /* completing proves the model */
  SearchOptions o;           /* its options: the portfolio's, adjusted */
  SearchResult res;          /* its result */
  uint64_t work;             /* its work so far: res.transitions, plus STALL_WORK for each call of
                                search_should_stop that found res.transitions unchanged (work that is
                                not a transition of the search, such as the hot-cycle search) */
  uint64_t last_transitions; /* res.transitions at the previous call */
  int called;                /* search_should_stop was called before */
  uint64_t slice;            /* work per turn */
  uint64_t base;             /* its first slice (its share) */
  uint64_t ref_slice, ref_work;  /* sampling members: the slice and work an exhaustive member of
                                first slice REF_BASE would have after as many turns (for the floor) */
  uint64_t turn_end;         /* its turn ends once work reaches this */
  MemberState st;
  int rc;                    /* what ops->run returned */
  struct Portfolio *pf;
  const BcProgram *bc;
  const VmTest *test;
  FILE *log;                 /* where its log lines go (discarded) */
  pthread_t th;
};

typedef struct Portfolio {
  StateCache *finished;      /* the states dfs has finished, which ses skips (one thread only), or NULL */
  pthread_mutex_t mu;
  pthread_cond_t cv;         /* any change of a member's state, or of stop */
  volatile int stop;         /* members must stop: a winner, or the portfolio ends */
  volatile int *outer_stop;  /* the caller's stop flag (Ctrl-C) */
  double deadline;           /* search_now() past which members stop (--timeout); 0: none */
  int n;
  SearchMember *m;
} Portfolio;

/* The slice of m's next turn.  Turns grow by half; past PROOF_WORK an
** exhaustive member's double, so that early rounds are cheap and even,
** and a long run (most likely a proof) goes more to the members that can
** end it.  But a sampling member's turn does not fall below half of what
** an exhaustive member's would be at the same turn: an exhaustive step
** (hashing, the cache) costs about twice a sampling one, so each sampling
** member keeps about a seventh of the time, and a bug only it finds costs
** the portfolio a bounded multiple of its own time (measured in
** bench/README.md: without the floor, 30 times on
** tests/portfolio/ss_wins.p, 15 on raft tcBugConfigNoWait by pct). */
enum { REF_BASE = 1000 };
static void next_slice(SearchMember *m) {
  if (m->exhaustive) {
    if (m->slice < SLICE_MAX) m->slice += m->work >= PROOF_WORK ? m->slice : m->slice / 2;
    return;
  }
  if (m->slice < SLICE_MAX) m->slice += m->slice / 2;
  if (m->ref_slice == 0) m->ref_slice = REF_BASE;
  m->ref_work += m->ref_slice;
  if (m->ref_slice < SLICE_MAX) m->ref_slice += m->ref_work >= PROOF_WORK ? m->ref_slice : m->ref_slice / 2;
  uint64_t floor = m->ref_slice / 2;
  if (m->slice < floor) m->slice = floor;
}

/* Called by search_should_stop() on the member's thread: 1 if the member
** must stop now; otherwise it returns (perhaps after waiting for its next
** turn) with a fresh slice. */
int search_member_yield(SearchMember *m) {
  if (m->pf->stop || (m->pf->outer_stop && *m->pf->outer_stop)) return 1;
  if (m->pf->deadline > 0 && search_now() > m->pf->deadline) return 1;
  if (m->res.transitions != m->last_transitions) m->work += m->res.transitions - m->last_transitions;
  else if (m->called) m->work += STALL_WORK;   /* not the search's first call, made before any work */
  m->called = 1;
  m->last_transitions = m->res.transitions;
  if (m->work < m->turn_end) return 0;
  /* The turn is over.  Work past its end (a search that calls here only
  ** every few thousand steps, such as ss between windows of samples) is
  ** owed: the member sits out whole turns until it has paid it back. */
  Portfolio *pf = m->pf;
  while (m->work >= m->turn_end) {
    pthread_mutex_lock(&pf->mu);
    m->st = MS_YIELDED;
    pthread_cond_broadcast(&pf->cv);
    while (m->st != MS_RUNNING && !pf->stop) pthread_cond_wait(&pf->cv, &pf->mu);
    pthread_mutex_unlock(&pf->mu);
    if (pf->stop) return 1;
    next_slice(m);
    m->turn_end += m->slice;
  }
  return 0;
}

static void *member_main(void *arg) {
  SearchMember *m = arg;
  Portfolio *pf = m->pf;
  pthread_mutex_lock(&pf->mu);
  while (m->st != MS_RUNNING && !pf->stop) pthread_cond_wait(&pf->cv, &pf->mu);
  pthread_mutex_unlock(&pf->mu);
  m->turn_end = m->slice;
  m->rc = pf->stop ? 0 : m->ops->run(m->bc, m->test, &m->o, m->log, &m->res);
  pthread_mutex_lock(&pf->mu);
  m->st = MS_DONE;
  pthread_cond_broadcast(&pf->cv);
  pthread_mutex_unlock(&pf->mu);
  return NULL;
}

/* Did member m end the portfolio (a bug, a failure, or a proof)? */
static int decisive(const SearchMember *m) {
  if (m->st != MS_DONE) return 0;
  return m->rc != 0 || m->res.error || m->res.bug || (m->exhaustive && m->res.complete);
}

/* The members, in the order turns are given (SEARCH.md, "portfolio"). */
static int add_members(Portfolio *pf, const SearchOptions *o) {
  /* ses and ss use the explorer of --explorer (rtc by default). */
  static const struct { const char *search; int delaying, exhaustive; uint64_t slice; } plan[] = {
    { "random", 0, 0, 2000 },   /* the member that wins most often on bench/portfolio.sh: twice the share */
    { "ses", 1, 1, 1000 },
    { "pct", 0, 0, 2000 },     /* the best member on several hard models (bench/portfolio.sh): twice the share */
    { "dfs", 0, 1, 1000 },
    { "ss", 1, 0, 1000 },
  };
  int n = (int)(sizeof plan / sizeof plan[0]), nex = 0;
  for (int i = 0; i < n; i++) nex += plan[i].exhaustive;
  /* The shared part of the state cache (SEARCH.md, "portfolio"): dfs
  ** publishes its finished states, ses skips them.  Only on one thread: the
  ** members then take turns, so what ses sees of dfs's work is fixed by
  ** their turns, not by timing (determinism), and the set needs no locks
  ** (each hand-over of the turn passes the portfolio's mutex).  It gets a
  ** quarter of --mem, the exhaustive members the rest. */
  uint64_t mem = o->mem;
  if (o->jobs <= 1 && !o->no_shared_cache) {
    pf->finished = sc_new(o->cache_kind, o->mem / 4);
    if (!pf->finished) return -1;
    sc_set_single_thread(pf->finished, 1);
    mem = o->mem - o->mem / 4;
  }
  pf->m = xcalloc((size_t)n, sizeof *pf->m);
  pf->n = n;
  for (int i = 0; i < n; i++) {
    SearchMember *m = &pf->m[i];
    /* With learned orderings (--learn) the random member steers by them. */
    const char *search = o->learned && strcmp(plan[i].search, "random") == 0 ? "guided" : plan[i].search;
    snprintf(m->label, sizeof m->label, "%s%s%.40s", search, plan[i].delaying ? "/" : "", plan[i].delaying ? o->explorer : "");
    m->ops = search_find(search);
    m->exhaustive = plan[i].exhaustive;
    m->slice = m->base = plan[i].slice;
    m->pf = pf;
    m->o = *o;
    m->o.member = m;
    m->o.stop = &pf->stop;
    m->o.timeout = 0;          /* the portfolio keeps the time */
    m->o.progress = 0;
    m->o.verbose = 0;
    m->o.jobs = 1;
    /* Sampling members run until the portfolio ends, or --schedules each. */
    m->o.mem = mem / (uint64_t)nex;
    m->o.finished = pf->finished;
    m->o.frontier_mem = o->frontier_mem / (uint64_t)nex;
    m->log = fopen("/dev/null", "w");
    if (!m->ops || !m->log) return -1;
  }
  return 0;
}

/* Give the next turns: members in order, at most jobs at a time; returns
** when every member given a turn has yielded or is done. */
static void run_round(Portfolio *pf, int jobs) {
  for (int first = 0; first < pf->n && !pf->stop;) {
    int given = 0, i = first;
    pthread_mutex_lock(&pf->mu);
    for (; i < pf->n && given < jobs; i++)
      if (pf->m[i].st != MS_DONE) { pf->m[i].st = MS_RUNNING; given++; }
    pthread_cond_broadcast(&pf->cv);
    for (int k = first; k < i; k++)
      while (pf->m[k].st == MS_RUNNING) pthread_cond_wait(&pf->cv, &pf->mu);
    pthread_mutex_unlock(&pf->mu);
    for (int k = first; k < i; k++)
      if (decisive(&pf->m[k])) { pf->stop = 1; break; }
    first = i;
  }
}

/* Move the deciding member's result into res, with a line naming it. */
static void take_result(Portfolio *pf, SearchMember *w, FILE *logf, SearchResult *res, const char *bound) {
  if (w) {
    *res = w->res;
    memset(&w->res, 0, sizeof w->res);
    if (res->bug)
      fprintf(logf, "portfolio: %s found the bug after %llu %s\n", w->label,
              (unsigned long long)(w->exhaustive ? res->states : res->executions),
              w->exhaustive ? "states" : "executions");
    else if (res->complete && !res->error && res->skipped)
      fprintf(logf, "portfolio: %s covered every state (skipping %llu that dfs had finished)\n", w->label,
              (unsigned long long)res->skipped);
    else if (res->complete && !res->error)
      fprintf(logf, "portfolio: %s covered every state\n", w->label);
  } else {
    /* No member decided: the most states any exhaustive member covered,
    ** and every member's executions and steps. */
    res->complete = 0;
    res->bound = xstrdup(bound);
    for (int i = 0; i < pf->n; i++) {
      const SearchResult *r = &pf->m[i].res;
      if (pf->m[i].exhaustive && r->states > res->states) {
        res->states = r->states;
        res->cache_bytes = r->cache_bytes;
        res->delays = r->delays;
      }
      res->executions += r->executions;
      res->transitions += r->transitions;
      if (r->max_depth > res->max_depth) res->max_depth = r->max_depth;
    }
  }
  /* The figures of the others, for the record. */
  for (int i = 0; i < pf->n; i++) {
    SearchMember *m = &pf->m[i];
    if (m == w) continue;
    if (!m->o.quiet) fprintf(logf, "portfolio: %s: %llu %s\n", m->label,
            (unsigned long long)(m->exhaustive ? m->res.states : m->res.executions),
            m->exhaustive ? "states" : "executions");
  }
}

static int run_portfolio(const BcProgram *bc, const VmTest *test, const SearchOptions *o, FILE *logf,
                         SearchResult *res) {
  Portfolio pf = {0};
  pthread_mutex_init(&pf.mu, NULL);
  pthread_cond_init(&pf.cv, NULL);
  int rc = 0, started = 0;
  pf.outer_stop = o->stop;
  Progress prog;
  progress_init(&prog);
  if (o->timeout > 0) pf.deadline = prog.start + o->timeout;
  if (add_members(&pf, o) != 0) {
    fprintf(stderr, "pcheck: error: the portfolio could not set up its members\n");
    rc = -1;
  }
  for (int i = 0; rc == 0 && i < pf.n; i++) {
    pf.m[i].bc = bc;
    pf.m[i].test = test;
    if (pthread_create(&pf.m[i].th, NULL, member_main, &pf.m[i]) != 0) { rc = -1; break; }
    started++;
  }
  const char *why = NULL;
  SearchMember *winner = NULL;
  while (rc == 0 && !pf.stop) {
    if (search_should_stop(o, &prog, &why)) break;
    run_round(&pf, o->jobs > 0 ? o->jobs : 1);
    int alive = 0;
    for (int i = 0; i < pf.n; i++) alive += pf.m[i].st != MS_DONE;
    if (!alive) break;
  }
  pthread_mutex_lock(&pf.mu);
  pf.stop = 1;
  pthread_cond_broadcast(&pf.cv);
  pthread_mutex_unlock(&pf.mu);
  for (int i = 0; i < started; i++) pthread_join(pf.m[i].th, NULL);
  for (int i = 0; i < pf.n && !winner; i++)
    if (pf.m[i].rc != 0 || pf.m[i].res.error || pf.m[i].res.bug || (pf.m[i].exhaustive && pf.m[i].res.complete))
      winner = &pf.m[i];
  if (winner && winner->rc != 0) rc = -1;
  if (!why && o->stop && *o->stop) why = "interrupted";
  if (!why && pf.deadline > 0 && search_now() > pf.deadline) why = "timeout";
  if (rc == 0) take_result(&pf, winner, logf, res, why ? why : "every member reached its bound");
  res->seconds = search_now() - prog.start;
  for (int i = 0; i < pf.n; i++) {
    search_result_fini(&pf.m[i].res);
    if (pf.m[i].log) fclose(pf.m[i].log);
  }
  free(pf.m);
  sc_free(pf.finished);
  pthread_cond_destroy(&pf.cv);
  pthread_mutex_destroy(&pf.mu);
  return rc;
}

const SearchOps search_portfolio = { "portfolio", run_portfolio };
