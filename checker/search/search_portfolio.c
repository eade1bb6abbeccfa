/* search_portfolio.c: several searches on one test, in turns (doc/algorithms.md,
** "The portfolio").  Each member is an ordinary search (SearchOps) run on a
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
#include "checker/search/search_int.h"
#include "checker/search/dist.h"
#include "checker/par/ranks.h"
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
  int me, k;                 /* across MPI ranks: this rank and how many (k 1: one process) */
  int local;                 /* ranks on this machine, which share --mem (1: one process) */
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

int search_member_time_up(const SearchMember *m) {
  const Portfolio *pf = m->pf;
  return pf->stop || (pf->outer_stop && *pf->outer_stop) || (pf->deadline > 0 && search_now() > pf->deadline);
}

/* Called by search_should_stop() on the member's thread: 1 if the member
** must stop now; otherwise it returns (perhaps after waiting for its next
** turn) with a fresh slice. */
int search_member_yield(SearchMember *m) {
  if (search_member_time_up(m)) return 1;
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

/* Why a portfolio bounded by --schedules ended: its text, kept for the
** run (the caller copies it). */
static const char *schedules_why(const SearchOptions *o) {
  static char text[80];
  snprintf(text, sizeof text, "the sampling members ran their shares of --schedules %lld", (long long)o->schedules);
  return text;
}

/* The members, in the order turns are given (doc/algorithms.md, "The portfolio").
** ses and ss use the explorer of --explorer (rtc by default). */
typedef struct PlanEntry {
  const char *search;
  uint64_t slice;            /* its first turn, in work */
  const char *learning;      /* the search it runs as with --learn (o->learned), or NULL: itself */
} PlanEntry;
static const PlanEntry plan[] = {
  { "random", 2000, "guided" },   /* the member that wins most often on bench/portfolio.sh: twice the share */
  { "ses", 1000, NULL },
  { "pct", 2000, NULL },     /* the best member on several hard models (bench/portfolio.sh): twice the share */
  { "dfs", 1000, NULL },
  { "ss", 1000, NULL },
};
enum { NPLAN = sizeof plan / sizeof plan[0] };

/* Does member i of the plan prove (an exhaustive search), or run with the
** explorer (a delaying one)? */
static int plan_exhaustive(int i) { return (search_caps(plan[i].search) & SEARCH_EXHAUSTIVE) != 0; }
static int plan_delaying(int i) { return (search_caps(plan[i].search) & SEARCH_EXPLORER) != 0; }

/* Across k ranks, the members rank `me` runs (indexes into plan, in plan
** order, into pick), and how many: member i runs on rank i % k.  A rank
** past the last member (k > NPLAN) runs one sampling member again, the
** sampling members in turn, with seeds of its own (seed + *seed_shift):
** more executions of the same kinds. */
static int mine_of(int me, int k, int *pick, uint64_t *seed_shift) {
  int n = 0;
  *seed_shift = 0;
  if (me < NPLAN) {
    for (int i = me; i < NPLAN; i += k) pick[n++] = i;
    return n;
  }
  int nsamp = 0, samp[NPLAN];
  for (int i = 0; i < NPLAN; i++)
    if (!plan_exhaustive(i)) samp[nsamp++] = i;
  pick[n++] = samp[(me - NPLAN) % nsamp];
  *seed_shift = (uint64_t)me * 0x9e3779b97f4a7c15ull;
  return n;
}

/* --schedules N bounds the portfolio's whole run, as P's -s does: the
** sampling members share N executions (member i of all ranks' sampling
** members, counted rank by rank in plan order, gets N / count, and one
** more while i < N % count), and the portfolio ends once they have all run
** theirs, or sooner by a bug or a proof (search_run_portfolio).  The share of
** local member q (one of pick[0..n)), or -1 without --schedules. */
static int64_t schedules_share(const Portfolio *pf, const SearchOptions *o, const int *pick, int q) {
  if (o->schedules < 0 || plan_exhaustive(pick[q])) return o->schedules < 0 ? -1 : o->schedules;
  int64_t count = 0, index = -1;
  for (int r = 0; r < pf->k; r++) {
    int their[NPLAN], m = NPLAN;
    uint64_t shift;
    if (pf->k > 1) m = mine_of(r, pf->k, their, &shift);
    else
      for (int i = 0; i < m; i++) their[i] = i;
    for (int i = 0; i < m; i++) {
      if (plan_exhaustive(their[i])) continue;
      if (r == pf->me && their[i] == pick[q]) index = count;
      count++;
    }
  }
  return o->schedules / count + (index < o->schedules % count);
}

static int add_members(Portfolio *pf, const SearchOptions *o) {
  /* This process's members: all of them, or across ranks its share. */
  int pick[NPLAN], n = NPLAN, nex = 0;
  uint64_t seed_shift = 0;
  if (pf->k > 1) n = mine_of(pf->me, pf->k, pick, &seed_shift);
  else
    for (int i = 0; i < n; i++) pick[i] = i;
  for (int i = 0; i < n; i++) nex += plan_exhaustive(pick[i]);
  /* The shared part of the state cache (doc/algorithms.md, "The portfolio"): dfs
  ** publishes its finished states, ses skips them.  Only on one thread: the
  ** members then take turns, so what ses sees of dfs's work is fixed by
  ** their turns, not by timing (determinism), and the set needs no locks
  ** (each hand-over of the turn passes the portfolio's mutex).  It gets a
  ** quarter of --mem, the exhaustive members the rest.  Across ranks the
  ** ranks of one machine share --mem and --frontier-mem. */
  uint64_t mem = o->mem / (uint64_t)pf->local, fmem = o->frontier_mem / (uint64_t)pf->local;
  if (o->jobs <= 1 && !o->no_shared_cache && nex >= 2) {
    pf->finished = sc_new(o->cache_kind, mem / 4);
    if (!pf->finished) return -1;
    sc_set_single_thread(pf->finished, 1);
    mem -= mem / 4;
  }
  if (nex == 0) nex = 1;
  pf->m = xcalloc((size_t)n, sizeof *pf->m);
  pf->n = n;
  for (int q = 0; q < n; q++) {
    int i = pick[q];
    SearchMember *m = &pf->m[q];
    /* With learned orderings (--learn) the random member steers by them. */
    const char *search = o->learned && plan[i].learning ? plan[i].learning : plan[i].search;
    snprintf(m->label, sizeof m->label, "%s%s%.40s", search, plan_delaying(i) ? "/" : "", plan_delaying(i) ? o->explorer : "");
    if (pf->k > 1) {
      size_t l = strlen(m->label);
      snprintf(m->label + l, sizeof m->label - l, " (rank %d)", pf->me);
    }
    m->ops = search_find(search);
    m->exhaustive = plan_exhaustive(i);
    m->slice = m->base = plan[i].slice;
    m->pf = pf;
    m->o = *o;
    m->o.member = m;
    m->o.stop = &pf->stop;
    m->o.timeout = 0;          /* the portfolio keeps the time */
    m->o.progress = 0;
    m->o.verbose = 0;
    m->o.jobs = 1;
    m->o.alone = 1;            /* across ranks, each member runs on its rank alone */
    m->o.seed = o->seed + seed_shift;
    /* Sampling members run until the portfolio ends, or their share of
    ** --schedules. */
    m->o.schedules = schedules_share(pf, o, pick, q);
    m->o.mem = mem / (uint64_t)nex;
    m->o.finished = pf->finished;
    m->o.frontier_mem = fmem / (uint64_t)nex;
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

/* The line that says who decided (w's result, now in res). */
static void winner_line(const char *label, int exhaustive, const SearchResult *res, FILE *logf) {
  if (res->bug)
    fprintf(logf, "portfolio: %s %s after %llu %s\n", label,
            res->bugdesc.status == VM_LIMIT ? "reached a limit" : "found the bug",
            (unsigned long long)(exhaustive ? res->states : res->executions), exhaustive ? "states" : "executions");
  else if (res->complete && !res->error && res->skipped)
    fprintf(logf, "portfolio: %s covered every state (skipping %llu that dfs had finished)\n", label,
            (unsigned long long)res->skipped);
  else if (res->complete && !res->error)
    fprintf(logf, "portfolio: %s covered every state\n", label);
}

/* No member decided: the most states any exhaustive member covered, and
** every member's executions and steps, into res. */
static void combine(const Portfolio *pf, SearchResult *res) {
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

/* The figures of the members but w, for the record, into b. */
static void member_lines(const Portfolio *pf, const SearchMember *w, Buf *b) {
  for (int i = 0; i < pf->n; i++) {
    const SearchMember *m = &pf->m[i];
    if (m == w || m->o.quiet) continue;
    buf_printf(b, "portfolio: %s: %llu %s\n", m->label,
               (unsigned long long)(m->exhaustive ? m->res.states : m->res.executions),
               m->exhaustive ? "states" : "executions");
  }
}

/* Move the deciding member's result into res, with a line naming it. */
static void take_result(Portfolio *pf, SearchMember *w, FILE *logf, SearchResult *res, const char *bound) {
  if (w) {
    *res = w->res;
    memset(&w->res, 0, sizeof w->res);
    winner_line(w->label, w->exhaustive, res, logf);
  } else {
    res->complete = 0;
    res->bound = xstrdup(bound);
    combine(pf, res);
  }
  Buf b;
  buf_init(&b);
  member_lines(pf, w, &b);
  if (b.len) fwrite(b.data, 1, b.len, logf);
  buf_fini(&b);
}

#ifdef HAVE_MPI
/* ---- Across MPI ranks ----
** Under mpirun (search_across_ranks) each rank runs its share of the
** members (mine_of), each member alone on its rank (no distributed twin,
** no farm), in turns as on one process.  After every round the ranks
** agree, by one reduction, on whether a member decided somewhere, a rank
** must stop (its clock, a signal), or every member is done.  The lowest
** rank with a deciding member in the first round that has one wins: its
** member's result is packed and broadcast, so that every rank holds it
** and exits with its status, and rank 0 prints it.  Each rank's turns are
** fixed by its members' work, so the result is the same for a given
** --seed and number of ranks, whatever the timing. */

/* Rounds until the ranks agree to end.  The winner's rank, or -1 (*why
** then says why, or stays NULL: every member on every rank is done). */
static int rounds_across(Portfolio *pf, const SearchOptions *o, Progress *prog, const char **why, double *idle) {
  int jobs = o->jobs > 0 ? o->jobs : 1;
  for (;;) {
    int code = 0;            /* this rank must stop: 1 its clock, 2 a signal */
    if (!pf->stop) {
      if (search_should_stop(o, prog, why)) code = strcmp(*why, "interrupted") == 0 ? 2 : 1;
      else run_round(pf, jobs);
    }
    int decided = 0;
    uint64_t alive[2] = { 0, 0 };   /* members not done; sampling ones */
    for (int i = 0; i < pf->n; i++) {
      decided |= decisive(&pf->m[i]);
      alive[0] += pf->m[i].st != MS_DONE;
      alive[1] += pf->m[i].st != MS_DONE && !pf->m[i].exhaustive;
    }
    uint64_t v[2] = { decided ? (uint64_t)(pf->k - pf->me) : 0, (uint64_t)code };
    double t0 = search_now();
    ranks_max(v, 2);
    ranks_sum(alive, 2);
    *idle += search_now() - t0;
    if (v[0]) return pf->k - (int)v[0];
    if (v[1]) {
      *why = v[1] == 2 ? "interrupted" : "timeout";
      return -1;
    }
    if (!alive[0]) return -1;
    if (o->schedules >= 0 && !alive[1]) {
      *why = schedules_why(o);
      return -1;
    }
  }
}

/* Collective: rank root's bytes b (len and contents) on every rank. */
static void bcast_buf(Buf *b, int root) {
  uint64_t len = b->len;
  ranks_bcast(&len, sizeof len, root);
  if (ranks_me() != root) {
    b->len = 0;
    buf_reserve(b, (size_t)len);
    b->len = (size_t)len;
  }
  if (len) ranks_bcast(b->data, (size_t)len, root);
}

/* The portfolio's result across ranks, into res on every rank: the
** winner's (rank wrank's first deciding member) or, with none, the
** combined figures; the members' lines of every rank, in rank order, go
** to logf (rank 0 prints).  -1 on an internal error of the winner, or a
** malformed message. */
static int result_across(Portfolio *pf, const BcProgram *bc, const VmTest *test, int wrank, const char *why,
                         double idle, FILE *logf, SearchResult *res) {
  int rc = 0;
  SearchMember *w = NULL;
  Buf b;
  buf_init(&b);
  if (wrank >= 0) {
    if (pf->me == wrank) {
      for (int i = 0; i < pf->n && !w; i++)
        if (decisive(&pf->m[i])) w = &pf->m[i];
      int32_t head[2] = { w->rc, w->exhaustive };
      buf_append(&b, head, sizeof head);
      buf_append(&b, w->label, sizeof w->label);
      search_result_pack(&w->res, bc, &b);
    }
    bcast_buf(&b, wrank);
    int32_t head[2];
    char label[sizeof pf->m[0].label];
    if (b.len < sizeof head + sizeof label ||
        (memcpy(head, b.data, sizeof head), memcpy(label, b.data + sizeof head, sizeof label),
         search_result_unpack((const uint8_t *)b.data + sizeof head + sizeof label, b.len - sizeof head - sizeof label,
                              bc, res) != 0)) {
      fputs("pcheck: internal error: a malformed result from another rank\n", stderr);
      rc = -1;
    } else {
      label[sizeof label - 1] = '\0';
      if (head[0] != 0) rc = -1;
      winner_line(label, head[1], res, logf);
    }
  } else {
    res->complete = 0;
    res->bound = xstrdup(why ? why : "every member reached its bound");
    combine(pf, res);
    uint64_t sum[2] = { res->executions, res->transitions };
    uint64_t max[4] = { res->states, res->cache_bytes, res->delays, res->max_depth };
    ranks_sum(sum, 2);
    ranks_max(max, 4);
    res->executions = sum[0];
    res->transitions = sum[1];
    res->states = max[0];
    res->cache_bytes = max[1];
    res->delays = max[2];
    res->max_depth = max[3];
  }
  /* Every rank's lines, rank 0's first. */
  for (int r = 0; r < pf->k; r++) {
    b.len = 0;
    if (r == pf->me) member_lines(pf, w, &b);
    bcast_buf(&b, r);
    if (b.len) fwrite(b.data, 1, b.len, logf);
  }
  buf_fini(&b);
  if (test->cov) ranks_max_bytes(test->cov->hit, test->cov->npoints);
  uint64_t waited[1] = { (uint64_t)(idle * 1e6) };
  ranks_sum(waited, 1);
  res->ranks = pf->k;
  res->rank_idle = (double)waited[0] / 1e6;
  res->dist_note = "the members side by side, member i of (random, ses, pct, dfs, ss) on rank i mod K, each "
                   "alone; ranks from the sixth run random, pct, ss again with seeds of their own";
  return rc;
}
#endif

int search_run_portfolio(const BcProgram *bc, const VmTest *test, const SearchOptions *o, FILE *logf,
                         SearchResult *res) {
  Portfolio pf = {0};
  pthread_mutex_init(&pf.mu, NULL);
  pthread_cond_init(&pf.cv, NULL);
  int rc = 0, started = 0;
  pf.outer_stop = o->stop;
  Progress prog;
  progress_init(&prog);
  if (o->timeout > 0) pf.deadline = prog.start + o->timeout;
  pf.k = pf.local = 1;
  if (search_across_ranks(o)) {
    pf.me = ranks_me();
    pf.k = ranks_count();
    pf.local = ranks_local_count();
  }
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
#ifdef HAVE_MPI
  int wrank = -1;            /* across ranks: the winner's rank */
  double idle = 0;           /* seconds this rank waited for the others */
  if (pf.k > 1) {
    uint64_t ok[1] = { rc == 0 };   /* every rank set up its members */
    ranks_min(ok, 1);
    if (!ok[0]) rc = -1;
    if (rc == 0) wrank = rounds_across(&pf, o, &prog, &why, &idle);
  }
#endif
  while (pf.k <= 1 && rc == 0 && !pf.stop) {
    if (search_should_stop(o, &prog, &why)) break;
    run_round(&pf, o->jobs > 0 ? o->jobs : 1);
    int alive = 0, sampling = 0;
    for (int i = 0; i < pf.n; i++) {
      alive += pf.m[i].st != MS_DONE;
      sampling += pf.m[i].st != MS_DONE && !pf.m[i].exhaustive;
    }
    if (!alive) break;
    if (o->schedules >= 0 && !sampling) {
      why = schedules_why(o);
      break;
    }
  }
  pthread_mutex_lock(&pf.mu);
  pf.stop = 1;
  pthread_cond_broadcast(&pf.cv);
  pthread_mutex_unlock(&pf.mu);
  for (int i = 0; i < started; i++) pthread_join(pf.m[i].th, NULL);
  for (int i = 0; i < pf.n && !winner; i++)
    if (decisive(&pf.m[i])) winner = &pf.m[i];
  if (!why && o->stop && *o->stop) why = "interrupted";
  if (!why && pf.deadline > 0 && search_now() > pf.deadline) why = "timeout";
#ifdef HAVE_MPI
  if (pf.k > 1) {
    if (rc == 0 && wrank < 0) {
      /* Every member done everywhere: why on any rank (its clock, a
      ** signal) is why for all. */
      uint64_t code[1] = { !why ? 0u : strcmp(why, "interrupted") == 0 ? 3u : strcmp(why, "timeout") == 0 ? 2u : 1u };
      ranks_max(code, 1);
      why = code[0] == 3 ? "interrupted" : code[0] == 2 ? "timeout" : code[0] == 1 ? schedules_why(o) : NULL;
    }
    if (rc == 0) rc = result_across(&pf, bc, test, wrank, why, idle, logf, res);
    winner = NULL;
  }
#endif
  if (winner && winner->rc != 0) rc = -1;
  if (rc == 0 && pf.k <= 1) take_result(&pf, winner, logf, res, why ? why : "every member reached its bound");
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
