/* search_common.c: what every search shares: recording a bug, the
** progress line, stopping on timeout or interrupt, single executions
** (Walk), the table of searches. */
#include <config.h>
#include <assert.h>
#include "checker/search/search_int.h"
#include "checker/observe/estimate.h"
#include "checker/engine/liveness.h"
#include "checker/engine/reduce.h"
#include "checker/observe/schedcov.h"
#include "checker/base/rng.h"
#include "checker/par/farm.h"
#include "checker/par/ranks.h"
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <math.h>

/* Seconds on the monotonic clock: only differences mean anything (a
** change of the wall clock does not move a --timeout). */
double search_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* (SearchOptions.alone: a portfolio member, or a search that a rank runs
** by itself.) */
int search_across_ranks(const SearchOptions *o) { return ranks_count() > 1 && !o->alone; }

/* r's bug: b, its message taken (heap), and the n choices of trace. */
static void record_bug(SearchResult *r, const VmBug *b, char *message, const TraceChoice *trace, uint64_t n) {
  r->bug = 1;
  free(r->bugdesc.message);
  r->bugdesc = *b;
  r->bugdesc.message = message;
  free(r->trace);
  r->trace = xmalloc((size_t)(n ? n : 1) * sizeof(TraceChoice));
  if (n) memcpy(r->trace, trace, (size_t)n * sizeof(TraceChoice));
  r->ntrace = n;
  r->cycle_start = -1;
}

/* The Vm's bug is copied (its message duplicated: the Vm's is gone at its
** next call); a bug recorded before in r is replaced, and cycle_start is
** reset to -1 (a safety bug: the caller sets a lasso's). */
void search_record_bug(SearchResult *r, const Vm *vm, const TraceChoice *trace, uint64_t n) {
  const VmBug *b = vm_bug(vm);
  record_bug(r, b, xstrdup(b->message ? b->message : ""), trace, n);
}

/* P's wording, so that logs and messages read as P's do. */
void search_max_steps_message(Buf *m, int64_t max_steps) {
  buf_printf(m, "Scheduling steps bound of %lld reached (--fail-on-maxsteps)", (long long)max_steps);
}

/* A bug without a place: it belongs to no instruction. */
void search_record_max_steps(SearchResult *r, const TraceChoice *trace, uint64_t n, int64_t max_steps) {
  VmBug b = { .status = VM_BUG_MAX_STEPS };
  Buf m;
  buf_init(&m);
  search_max_steps_message(&m, max_steps);
  record_bug(r, &b, buf_take(&m), trace, n);
}

/* Places compare by kind, line, column and file (the same pointer, or
** equal text); a linear scan, as few distinct places are expected.  The
** array grows by one each time: the order found is kept. */
void search_add_site(SearchResult *r, VmStatus status, const char *file, uint32_t line, uint32_t col) {
  for (uint32_t i = 0; i < r->nsites; i++) {
    BugSite *x = &r->sites[i];
    if (x->status == status && x->line == line && x->col == col &&
        (x->file == file || (x->file && file && strcmp(x->file, file) == 0))) {
      x->hits++;
      return;
    }
  }
  r->sites = xrealloc(r->sites, (r->nsites + 1) * sizeof *r->sites);
  r->sites[r->nsites++] = (BugSite){ status, file, line, col, 1 };
}

/* Frees what r owns (sites, the bug's message, error, bound, trace; the
** static notes and the bug's file are borrowed) and zeroes it. */
void search_result_fini(SearchResult *r) {
  free(r->sites);
  free(r->bugdesc.message);
  free(r->error);
  free(r->bound);
  free(r->trace);
  memset(r, 0, sizeof *r);
}

/* A string into b: u64 length + 1 (0: NULL), then its bytes. */
static void put_str(Buf *b, const char *s) {
  uint64_t n = s ? strlen(s) + 1 : 0;
  buf_append(b, &n, 8);
  if (n > 1) buf_append(b, s, (size_t)n - 1);
}

/* A string from *p (before end), heap or NULL; *ok cleared if it overruns. */
static char *get_str(const uint8_t **p, const uint8_t *end, int *ok) {
  uint64_t n;
  if (end - *p < 8) { *ok = 0; return NULL; }
  memcpy(&n, *p, 8);
  *p += 8;
  if (n == 0) return NULL;
  if ((uint64_t)(end - *p) < n - 1) { *ok = 0; return NULL; }
  char *s = xmalloc((size_t)n);
  memcpy(s, *p, (size_t)n - 1);
  s[n - 1] = '\0';
  *p += n - 1;
  return s;
}

/* The bug's file travels as its index among the program's files
** (UINT64_MAX: none, or a name the program does not have), since the
** receiving rank's pointer into its own program is what it needs. */
void search_result_pack(const SearchResult *r, const BcProgram *bc, Buf *out) {
  /* The struct's bytes carry every scalar (the ranks run one binary);
  ** the pointers are sent after it, as strings, a file number, choices. */
  buf_append(out, r, sizeof *r);
  put_str(out, r->error);
  put_str(out, r->bound);
  put_str(out, r->bugdesc.message);
  uint64_t file = UINT64_MAX;
  for (uint32_t i = 0; r->bugdesc.file && i < bc->nfiles; i++)
    if (bc->files[i] == r->bugdesc.file || strcmp(bc->files[i], r->bugdesc.file) == 0) { file = i; break; }
  buf_append(out, &file, 8);
  uint64_t n = r->trace ? r->ntrace : 0;
  buf_append(out, &n, 8);
  if (n) buf_append(out, r->trace, (size_t)n * sizeof *r->trace);
}

/* Every length is checked against the bytes left before it is used.  A
** result with a bug or an error gets a trace array even when it has no
** choices, as the searches leave one. */
int search_result_unpack(const uint8_t *p, size_t len, const BcProgram *bc, SearchResult *r) {
  const uint8_t *end = p + len;
  memset(r, 0, sizeof *r);
  if (len < sizeof *r) return -1;
  memcpy(r, p, sizeof *r);
  p += sizeof *r;
  /* Pointers of another process: none is kept. */
  r->error = r->bound = r->bugdesc.message = NULL;
  r->bugdesc.file = NULL;
  r->trace = NULL;
  r->sites = NULL;
  r->nsites = 0;
  r->unreduced = r->dist_note = NULL;
  int ok = 1;
  r->error = get_str(&p, end, &ok);
  r->bound = get_str(&p, end, &ok);
  r->bugdesc.message = get_str(&p, end, &ok);
  uint64_t file, n;
  if (!ok || end - p < 16) goto bad;
  memcpy(&file, p, 8);
  memcpy(&n, p + 8, 8);
  p += 16;
  if (file != UINT64_MAX) {
    if (file >= bc->nfiles) goto bad;
    r->bugdesc.file = bc->files[file];
  }
  if (n > (uint64_t)(end - p) / sizeof *r->trace) goto bad;
  r->ntrace = n;
  if (n || r->bug || r->error) {
    r->trace = xmalloc((size_t)(n ? n : 1) * sizeof *r->trace);
    if (n) memcpy(r->trace, p, (size_t)n * sizeof *r->trace);
  }
  return 0;
bad:
  search_result_fini(r);
  return -1;
}

/* Not thread-safe: the caller holds whatever lock guards into, and part
** is the calling thread's. */
void search_fold_counts(SearchResult *into, SearchResult *part) {
  into->states += part->states;
  into->transitions += part->transitions;
  into->state_bytes += part->state_bytes;
  into->pruned += part->pruned;
  into->widened += part->widened;
  into->period_full += part->period_full;
  if (part->max_state_bytes > into->max_state_bytes) into->max_state_bytes = part->max_state_bytes;
  if (part->max_depth > into->max_depth) into->max_depth = part->max_depth;
  if (part->peak_frontier > into->peak_frontier) into->peak_frontier = part->peak_frontier;
  part->states = part->transitions = part->state_bytes = part->pruned = part->widened = part->period_full = 0;
}

/* Advanced by the pulse thread only (atomically); read by every search. */
uint32_t search_pulse_epoch;

/* The pulse's thread waits on a condition with a timeout, so that the
** process's end (pulse_end, at exit) wakes and joins it at once. */
static struct {
  pthread_mutex_t mu;
  pthread_cond_t cv;
  pthread_t thread;
  int ending;
} pulse = { PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0, 0 };

/* Waits SEARCH_PULSE_MS on the condition (a pulse_end signal cuts it
** short), then advances the epoch; until pulse_end sets ending. */
static void *pulse_main(void *arg) {
  (void)arg;
  pthread_mutex_lock(&pulse.mu);
  while (!pulse.ending) {
    struct timespec t;
    clock_gettime(CLOCK_REALTIME, &t);
    t.tv_nsec += SEARCH_PULSE_MS * 1000000L;
    if (t.tv_nsec >= 1000000000L) { t.tv_sec++; t.tv_nsec -= 1000000000L; }
    pthread_cond_timedwait(&pulse.cv, &pulse.mu, &t);
    __atomic_add_fetch(&search_pulse_epoch, 1, __ATOMIC_RELAXED);
  }
  pthread_mutex_unlock(&pulse.mu);
  return NULL;
}

/* At exit: stop and join the thread, so that it never runs while the
** process tears itself down. */
static void pulse_end(void) {
  pthread_mutex_lock(&pulse.mu);
  pulse.ending = 1;
  pthread_cond_signal(&pulse.cv);
  pthread_mutex_unlock(&pulse.mu);
  pthread_join(pulse.thread, NULL);
}

/* Once per process (progress_init's pthread_once); a small stack, since
** the thread only waits and counts. */
static void pulse_start(void) {
  pthread_attr_t a;
  pthread_attr_init(&a);
  pthread_attr_setstacksize(&a, 64 * 1024);
  /* Without the thread the searches fall back on their step counts. */
  if (pthread_create(&pulse.thread, &a, pulse_main, NULL) == 0) atexit(pulse_end);
  else fputs("pcheck: warning: no clock thread: --timeout is checked less often\n", stderr);
  pthread_attr_destroy(&a);
}

/* Starts the pulse on first use; the search's clock starts now. */
void progress_init(Progress *p) {
  static pthread_once_t pulse_once = PTHREAD_ONCE_INIT;
  pthread_once(&pulse_once, pulse_start);
  p->start = p->last = search_now();
  p->printed = 0;
  p->bound = -1;
}

/* The process's peak resident memory in MiB (Linux reports ru_maxrss in
** KiB); the progress line shows it. */
static long peak_rss_mib(void) {
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  return ru.ru_maxrss / 1024;
}

/* How much of its work the search has done, from 0 to 1, or -1 when no
** end of the work is known: the schedules run of --schedules, the delay
** bounds finished of --max-delays, the states explored of the estimate
** (a sampling search does not end when it has run every execution).  The
** time used of --timeout is not work: it is said apart (progress_tick). */
static double progress_fraction(const Progress *p, const SearchOptions *o, const SearchResult *r) {
  double f = -1;
  if (o->schedules > 0 && r->executions) f = (double)r->executions / (double)o->schedules;
  if (o->max_delays >= 0 && p->bound >= 0) {
    double b = (double)p->bound / (double)(o->max_delays + 1);
    if (b > f) f = b;
  }
  if (r->est_kind == EST_STATES) {
    double e = est_fraction((double)r->est_done, r->est_log2);
    if (e > f) f = e;
  }
  return f > 1 ? 1 : f;
}

/* A duration as the progress line writes it: "4.2s" under 10 s (so that
** a short run's figures say something), "48s", "1m12s", "2h05m". */
static void progress_seconds(char *b, size_t n, double s) {
  if (s >= 3600) snprintf(b, n, "%dh%02dm", (int)(s / 3600), (int)(s / 60) % 60);
  else if (s >= 60) snprintf(b, n, "%dm%02ds", (int)(s / 60), (int)s % 60);
  else if (s >= 9.95) snprintf(b, n, "%.0fs", s);
  else snprintf(b, n, "%.1fs", s);
}

/* "37% done, ETA 1m12s, " where the work's end is known; else, with a
** --timeout, "timeout in 48s, "; else "". */
static void progress_eta(char *b, size_t n, double f, double el, double timeout) {
  char d[32];
  b[0] = 0;
  if (f <= 0) {
    if (timeout > 0 && timeout > el) {
      progress_seconds(d, sizeof d, timeout - el);
      snprintf(b, n, "timeout in %s, ", d);
    }
    return;
  }
  progress_seconds(d, sizeof d, el * (1 - f) / f);
  snprintf(b, n, "%.0f%% done, ETA %s, ", f * 100, d);
}

/* At most one line a second (or per --progress-every with
** --progress-lines), on stderr: rewritten in place with \r, or with
** --progress-lines one line each.  Sampling searches show executions, the
** others states and their frontier (`what` names it: "stack", "queue",
** "delay bound", ...). */
void progress_tick(Progress *p, const SearchOptions *o, const SearchResult *r, uint64_t frontier, const char *what) {
  if (!o->progress) return;
  double t = search_now();
  if (t - p->last < (o->progress_lines && o->progress_every > 0 ? o->progress_every : 1.0)) return;
  p->last = t;
  double el = t - p->start;
  char b[48] = "", eta[64], at[32];
  progress_seconds(at, sizeof at, el);
  if (p->bound >= 0) snprintf(b, sizeof b, "bound %lld, ", p->bound);
  progress_eta(eta, sizeof eta, progress_fraction(p, o, r), el, o->timeout);
  const char *lead = o->progress_lines ? "progress: " : "\r";
  const char *tail = o->progress_lines ? "\n" : "   ";
  char of[64] = "", next[96] = "";
  if (r->est_kind != EST_NONE) {
    char e[40];
    est_format(e, sizeof e, r->est_log2);
    snprintf(of, sizeof of, " of ~%s", e);
  }
  if (r->est_next_bound >= 0 && r->est_next_states > 0) {
    char e[40];
    est_format(e, sizeof e, log2(r->est_next_states));
    snprintf(next, sizeof next, ", bound %lld: ~%s new states", (long long)r->est_next_bound, e);
  }
  if (r->executions)
    fprintf(stderr, "%s%s: %s%s%llu%s executions, %.0f executions/s, depth %llu, %ld MiB%s", lead, at, eta, b,
            (unsigned long long)r->executions, of, el > 0 ? (double)r->executions / el : 0.0,
            (unsigned long long)r->max_depth, peak_rss_mib(), tail);
  else
    fprintf(stderr, "%s%s: %s%s%llu%s states, %.0f states/s, depth %llu, %s %llu%s, %ld MiB%s", lead, at, eta, b,
            (unsigned long long)r->states, of, el > 0 ? (double)r->states / el : 0.0, (unsigned long long)r->max_depth,
            what, (unsigned long long)frontier, next, peak_rss_mib(), tail);
  p->printed = !o->progress_lines;
}

/* Clears a line left on the terminal, so that the summary starts clean. */
void progress_done(Progress *p, const SearchOptions *o) {
  if (o->progress && p->printed) fputs("\r\033[K", stderr);
  p->printed = 0;
}

/* The two reasons to stop that come from outside the search: the flag
** the CLI's signal handler sets, and the --timeout measured from
** progress_init. */
static int interrupted(const SearchOptions *o) { return o->stop && *o->stop; }
static int timed_out(const SearchOptions *o, const Progress *p) {
  return o->timeout > 0 && search_now() - p->start > o->timeout;
}

/* A portfolio member asks its member's clock instead (its turn's and the
** portfolio's deadline). */
int search_time_up(const SearchOptions *o, const Progress *p) {
  if (o->member) return search_member_time_up(o->member);
  return interrupted(o) || timed_out(o, p);
}

/* *why is a static string, set only when 1 is returned. */
int search_should_stop(const SearchOptions *o, const Progress *p, const char **why) {
  if (o->member && search_member_yield(o->member)) { *why = "stopped by the portfolio"; return 1; }
  if (interrupted(o)) { *why = "interrupted"; return 1; }
  if (timed_out(o, p)) { *why = "timeout"; return 1; }
  return 0;
}

int64_t search_max_steps(const SearchOptions *o, int fair) {
  assert(o->max_steps > 0);
  if (fair && o->max_fair_steps > 0) return o->max_fair_steps;   /* P's -ms N M */
  return fair ? 10 * o->max_steps : o->max_steps;               /* P's -ms N: fair bound 10N */
}

int64_t search_temperature(const SearchOptions *o) {
  if (o->no_liveness) return 0;
  return o->temperature >= 0 ? o->temperature : search_max_steps(o, 1) / 2;
}

/* The exhaustive lifecycle (search_int.h). */
void exhaust_begin(Exhaust *x, const BcProgram *bc, const VmTest *test, const SearchOptions *o, SearchResult *res,
                   int nthreads, unsigned flags) {
  *x = (Exhaust){ .bc = bc, .test = test, .o = o, .res = res, .nthreads = nthreads, .flags = flags };
  pthread_mutex_init(&x->lock, NULL);
  if (flags & EX_MEET) pthread_barrier_init(&x->meet, NULL, (unsigned)nthreads);
  progress_init(&x->prog);
}

void exhaust_reduce(Exhaust *x, uint64_t visible) {
  if (x->o->no_reduction) return;
  x->red = red_new(x->bc, x->test, visible);
  x->res->reduced = 1;
}

StateCache *exhaust_cache(const Exhaust *x, uint64_t budget) {
  StateCache *c = search_new_cache(x->o, budget);
  if (c) sc_set_single_thread(c, x->nthreads == 1);
  return c;
}

void exhaust_end(Exhaust *x) {
  progress_done(&x->prog, x->o);
  x->res->seconds = search_now() - x->prog.start;
  search_cache_figures(x->res, x->cache, x->cache2);
  sc_free(x->cache);
  sc_free(x->cache2);
  sampler_free(x->est);
  live_free(x->live);
  red_free((struct Reduction *)x->red);
  if (x->flags & EX_MEET) pthread_barrier_destroy(&x->meet);
  pthread_mutex_destroy(&x->lock);
}

StateCache *search_new_cache(const SearchOptions *o, uint64_t budget) {
  StateCache *c = sc_new(o->cache_kind, budget);
  if (!c) fputs("pcheck: error: cannot allocate the state cache\n", stderr);
  return c;
}

void search_cache_figures(SearchResult *res, const StateCache *a, const StateCache *b) {
  const StateCache *both[2] = { a, b };
  if (!a && !b) return;
  res->cache_bytes = res->cache_refused = 0;
  res->cache_full = 0;
  for (int i = 0; i < 2; i++)
    if (both[i]) {
      res->cache_bytes += sc_bytes(both[i]);
      res->cache_refused += sc_refused(both[i]);
      res->cache_full |= sc_is_full(both[i]);
    }
}

/* The registry: every search of checker/search/searches.def, in its order. */
static const SearchOps registry[] = {
#define SEARCH(n, proof_, summary_, caps_) { .name = #n, .summary = summary_, .caps = caps_, .proof = proof_, .run = search_run_##n },
#include "checker/search/searches.def"
#undef SEARCH
};

const SearchOps *search_all(size_t *n) {
  *n = sizeof registry / sizeof registry[0];
  return registry;
}

/* By the name -S takes; NULL for an unknown one (the CLI says so). */
const SearchOps *search_find(const char *name) {
  for (size_t i = 0; i < sizeof registry / sizeof registry[0]; i++)
    if (strcmp(registry[i].name, name) == 0) return &registry[i];
  return NULL;
}

unsigned search_caps(const char *name) {
  const SearchOps *s = search_find(name);
  return s ? s->caps : 0;
}

/* rng is an Rng; a uniform choice among the enabled ones (a machine id, or
** an option index). */
uint32_t walk_pick_uniform(void *rng, const VmChoices *ch) {
  uint32_t k = rng_below(rng, ch->n);
  return ch->kind == VC_MACHINE ? ch->ids[k] : k;
}

/* A Walk owns its Vm, its two State buffers, its trace and its estimate
** tree; the program, the test and sched are borrowed.  Temperature is
** counted only when positive and the test has specs. */
void walk_init(Walk *w, const BcProgram *bc, const VmTest *test, int64_t temperature, struct SchedCov *sched) {
  memset(w, 0, sizeof *w);
  w->test = test;
  w->vm = vm_new(bc, test);
  if (sched) {
    w->sched = sched;
    walk_track_receives(w);
  }
  buf_init(&w->a);
  buf_init(&w->b);
  w->eta = eta_new(0);
  if (temperature > 0 && test->nspecs) {
    w->temp = xmalloc(sizeof *w->temp);
    live_temp_init(w->temp, bc, test, temperature);
  }
}

/* With --fail-on-maxsteps an execution that reaches max_steps is a bug
** (VM_BUG_MAX_STEPS); without it, it is only cut (WALK_CUT). */
void walk_set_bound(Walk *w, const SearchOptions *o, int64_t max_steps) {
  w->fail_at = o->fail_on_maxsteps ? max_steps : 0;
}

/* Turns on the Vm's events (the tracker reads them after every call);
** idempotent. */
void walk_track_receives(Walk *w) {
  if (w->track) return;
  w->track = xmalloc(sizeof *w->track);
  schedtrack_init(w->track);
  vm_record_events(w->vm, 1);
}

/* Frees what walk_init made and the trace; sched and the test stay the
** caller's. */
void walk_fini(Walk *w) {
  eta_free(w->eta);
  if (w->track) schedtrack_fini(w->track);
  free(w->track);
  if (w->temp) live_temp_fini(w->temp);
  free(w->temp);
  vm_choices_fini(&w->ch);
  free(w->trace);
  buf_fini(&w->a);
  buf_fini(&w->b);
  vm_free(w->vm);
}

/* Feed the events of the last VM call to the walk's schedule tracker. */
static void walk_track(Walk *w) {
  uint32_t n;
  const VmEvent *ev = vm_events(w->vm, &n);
  schedtrack_step(w->track, ev, n);
}

static WalkEnd walk_exec(Walk *w, int64_t max_steps, WalkPick pick, void *ctx, SearchResult *r);

/* The index in ch of the choice vm_step takes (a machine id, or an index). */
static uint32_t choice_index(const VmChoices *ch, uint32_t choice) {
  if (ch->kind != VC_MACHINE) return choice;
  for (uint32_t k = 0; k < ch->n; k++)
    if (ch->ids[k] == choice) return k;
  return 0;
}

/* The tracker brackets the execution, so schedule coverage sees it whole;
** with w->dec the decisions of an execution that ends or is cut are kept
** behind their count, those of one with a bug or a failure dropped. */
WalkEnd walk_run(Walk *w, int64_t max_steps, WalkPick pick, void *ctx, SearchResult *r) {
  if (w->track) schedtrack_begin(w->track);
  size_t at = 0;
  if (w->dec) {   /* the count of decisions, written once they are known */
    at = w->dec->len;
    uint32_t zero = 0;
    buf_append(w->dec, &zero, 4);
  }
  WalkEnd end = walk_exec(w, max_steps, pick, ctx, r);
  if (w->sched && end != WALK_FAIL) schedtrack_end(w->track, w->sched);
  if (w->dec) {
    if (end == WALK_END || end == WALK_CUT) {
      uint32_t n = (uint32_t)((w->dec->len - at - 4) / 8);
      memcpy(w->dec->data + at, &n, 4);
    } else {
      w->dec->len = at;   /* as the tree, which only complete executions reach */
    }
  }
  return end;
}

static int walk_farm(Walk *w, const SearchOptions *o, int64_t max_steps, const WalkLoop *l, SearchResult *res,
                     const char **why, int *truncated);
static void walk_estimate(const EtaTree *t, int cut, SearchResult *r);

/* --keep-going: the figures of an execution run into later (after res's
** bug) added to res's; later keeps its bug, if any, for walk_count_bug. */
static void walk_merge_later(SearchResult *res, const SearchResult *later) {
  res->transitions += later->transitions;
  if (later->max_depth > res->max_depth) res->max_depth = later->max_depth;
  if (later->est_kind != EST_NONE) {
    res->est_kind = later->est_kind;
    res->est_log2 = later->est_log2;
    res->est_done = later->est_done;
    res->est_factor = later->est_factor;
  }
}

/* --keep-going: the bug of an execution (in got: res itself for the
** first) counted in res, by its place and as an execution with a bug. */
static void walk_count_bug(SearchResult *res, const SearchResult *got) {
  const VmBug *b = &got->bugdesc;
  search_add_site(res, b->status, b->file, b->line, b->col);
  res->bug_executions++;
  if (got->ntrace > res->max_depth) res->max_depth = got->ntrace;
}

/* One process: executions one after another, each preceded by a stop
** check and a progress tick, until --schedules, a stop, or the first bug
** (with --keep-going, every bug is counted and the first one kept).  With
** -v each execution's log goes to logf once it is over.  Across ranks the
** work is farmed out instead (walk_farm). */
int walk_loop(Walk *w, const SearchOptions *o, FILE *logf, int64_t max_steps, const WalkLoop *l, SearchResult *res,
              const char **why, int *truncated) {
  if (search_across_ranks(o)) return walk_farm(w, o, max_steps, l, res, why, truncated);
  Buf log;
  buf_init(&log);
  if (o->verbose) vm_set_log(w->vm, &log);
  Progress prog;
  progress_init(&prog);
  *why = NULL;
  *truncated = 0;
  int rc = 0;
  w->stop_o = o;
  w->stop_prog = &prog;
  w->stopped = NULL;
  for (uint64_t ex = 0; o->schedules < 0 || ex < (uint64_t)o->schedules; ex++) {
    if (search_should_stop(o, &prog, why)) break;
    progress_tick(&prog, o, res, ex, "executions");
    res->executions++;
    if (l->before) l->before(l->ctx, ex);
    if (o->verbose) buf_printf(&log, "<TestLog> Execution %llu (seed %llu)\n", (unsigned long long)ex + 1,
                               (unsigned long long)o->seed);
    /* --keep-going: the first bug stays res's (its trace is written); a
    ** later execution runs into a scratch result, its bug counted only. */
    SearchResult later, *into = res;
    if (o->keep_going && res->bug) {
      memset(&later, 0, sizeof later);
      into = &later;
    }
    WalkEnd end = walk_run(w, max_steps, l->pick, l->ctx, into);
    if (into == &later) walk_merge_later(res, &later);
    if (end == WALK_FAIL) { rc = -1; goto out; }
    if (end == WALK_BUG) {
      if (!o->keep_going) break;
      walk_count_bug(res, into);
      if (into == &later) search_result_fini(&later);
      if (w->stopped) { *why = w->stopped; break; }
      if (o->verbose && logf) { fwrite(log.data ? log.data : "", 1, log.len, logf); log.len = 0; }
      continue;
    }
    if (w->stopped) {   /* cut short by the stop: not a --max-steps cut */
      *why = w->stopped;
      break;
    }
    if (end == WALK_CUT) *truncated = 1;
    if (l->after) l->after(l->ctx);
    if (o->verbose && logf) { fwrite(log.data ? log.data : "", 1, log.len, logf); log.len = 0; }
  }
  if (res->bug && res->ntrace > res->max_depth) res->max_depth = res->ntrace;
  if (o->verbose && logf && log.len) fwrite(log.data, 1, log.len, logf);
  progress_done(&prog, o);
  res->seconds = search_now() - prog.start;
out:
  w->stop_o = NULL;   /* prog goes out of scope */
  w->stop_prog = NULL;
  vm_set_log(w->vm, NULL);
  buf_fini(&log);
  return rc;
}

/* ---- walk_loop across ranks (checker/par/farm.h) ---- */

/* An item: executions first .. first+count-1.  Its result: a WalkItem,
** then the decisions of its executions that ended without a bug (eta_feed). */
typedef struct WalkItem {
  uint64_t executions;       /* run, up to and including a bug's */
  uint64_t transitions;
  uint64_t max_depth;
  uint64_t bug;              /* the execution with a bug, or UINT64_MAX */
  uint64_t cut;              /* some execution reached max_steps */
} WalkItem;

/* What walk_item needs, as the farm's context on every rank. */
typedef struct WalkFarm {
  Walk *w;
  int64_t max_steps;
  const WalkLoop *l;
} WalkFarm;

/* A worker rank's item: run the range of executions it names (l->before
** gets each index: random and pct seed an execution by it, so that any
** rank runs it alike), stopping at
** the first bug; out gets the WalkItem (written first, filled last) and
** the decisions of the executions that ended without a bug.  -1 on an
** internal failure or an item of the wrong size. */
static int walk_item(void *ctx, const uint8_t *item, size_t n, Buf *out) {
  WalkFarm *wf = ctx;
  uint64_t range[2];
  if (n != sizeof range) return -1;
  memcpy(range, item, sizeof range);
  WalkItem head = { 0, 0, 0, UINT64_MAX, 0 };
  buf_append(out, &head, sizeof head);
  SearchResult r = {0};
  wf->w->dec = out;
  int rc = 0;
  for (uint64_t ex = range[0]; ex < range[0] + range[1]; ex++) {
    if (wf->l->before) wf->l->before(wf->l->ctx, ex);
    head.executions++;
    WalkEnd end = walk_run(wf->w, wf->max_steps, wf->l->pick, wf->l->ctx, &r);
    if (end == WALK_FAIL) { rc = -1; break; }
    if (end == WALK_BUG) { head.bug = ex; break; }
    if (end == WALK_CUT) head.cut = 1;
  }
  wf->w->dec = NULL;
  head.transitions = r.transitions;
  head.max_depth = r.max_depth;
  memcpy(out->data, &head, sizeof head);
  search_result_fini(&r);
  return rc;
}

/* Execution ex again on rank 0, to record its bug in res (the counts of
** res are left as they are: the item's result had them). */
static int walk_rerun_bug(Walk *w, int64_t max_steps, const WalkLoop *l, uint64_t ex, SearchResult *res) {
  uint64_t transitions = res->transitions, depth = res->max_depth;
  if (l->before) l->before(l->ctx, ex);
  WalkEnd end = walk_run(w, max_steps, l->pick, l->ctx, res);
  res->transitions = transitions;
  res->max_depth = depth;
  if (end == WALK_BUG) return 0;
  if (end != WALK_FAIL)
    fprintf(stderr, "pcheck: internal error: execution %llu has a bug on another rank but none on rank 0\n",
            (unsigned long long)ex + 1);
  return -1;
}

/* The farm's counts, for the summary and --stats-json. */
void search_farm_figures(SearchResult *res, const FarmStats *st) {
  res->ranks = ranks_count();
  res->letters = st->messages;
  res->letter_bytes = st->bytes;
  res->rank_idle = st->idle;
  res->farm_items = st->items;
  res->farm_redone = st->redone;
  res->ranks_lost = st->lost;
}

static int walk_farm(Walk *w, const SearchOptions *o, int64_t max_steps, const WalkLoop *l, SearchResult *res,
                     const char **why, int *truncated) {
  WalkFarm wf = { w, max_steps, l };
  const VmCov *cov = w->test->cov;
  Farm *f = farm_new(walk_item, &wf, cov ? cov->hit : NULL, cov ? cov->npoints : 0, o->rank_timeout);
  EtaTree *eta = w->eta;   /* fed here, in execution order, from every rank's decisions */
  w->eta = NULL;
  *why = NULL;
  *truncated = 0;
  int rc = 0;
  if (ranks_me() != 0) {
    rc = farm_serve(f);
    farm_free(f);
    w->eta = eta;
    return rc;
  }
  Progress prog;
  progress_init(&prog);
  uint64_t next = 0, window = 4 * (uint64_t)ranks_count();
  for (;;) {
    if (!res->bug && !*why && search_should_stop(o, &prog, why)) farm_drop(f);
    while (!res->bug && !*why && farm_pending(f) < window && (o->schedules < 0 || next < (uint64_t)o->schedules)) {
      uint64_t range[2] = { next, farm_item_units(res->executions, search_now() - prog.start, ranks_count()) };
      if (o->schedules >= 0 && range[1] > (uint64_t)o->schedules - next) range[1] = (uint64_t)o->schedules - next;
      farm_add(f, range, sizeof range);
      next += range[1];
    }
    if (farm_pending(f) == 0) break;
    const uint8_t *out;
    size_t n;
    if (farm_take(f, &out, &n) != 0) { rc = -1; break; }
    WalkItem it;
    memcpy(&it, out, sizeof it);
    res->executions += it.executions;
    res->transitions += it.transitions;
    if (it.max_depth > res->max_depth) res->max_depth = it.max_depth;
    *truncated |= it.cut != 0;
    eta_feed(eta, out + sizeof it, n - sizeof it);
    progress_tick(&prog, o, res, res->executions, "executions");
    if (it.bug != UINT64_MAX) {
      farm_drop(f);
      if (walk_rerun_bug(w, max_steps, l, it.bug, res) != 0) { rc = -1; break; }
    }
  }
  FarmStats st;
  farm_end(f, &st);
  farm_free(f);
  w->eta = eta;
  if (eta_executions(eta)) walk_estimate(eta, *truncated, res);
  search_farm_figures(res, &st);
  if (res->bug && res->ntrace > res->max_depth) res->max_depth = res->ntrace;
  progress_done(&prog, o);
  res->seconds = search_now() - prog.start;
  return rc;
}

/* The estimate of the executions in tree t (fed with every execution
** that ended without a bug), into r.  cut: some execution was cut short
** (--max-steps, a stop), so its leaf is no end of an execution and the
** tree, however exhausted, is not every execution. */
static void walk_estimate(const EtaTree *t, int cut, SearchResult *r) {
  r->est_kind = EST_EXECUTIONS;
  r->est_log2 = eta_log2(t);
  r->est_done = eta_distinct(t);
  r->est_factor = eta_exhausted(t) && !cut ? 1 : 0;   /* 1: exact, every execution was run */
}

/* walk_run without the schedule tracker's begin and end. */
static WalkEnd walk_exec(Walk *w, int64_t max_steps, WalkPick pick, void *ctx, SearchResult *r) {
  w->depth = 0;
  if (w->temp) live_temp_reset(w->temp);
  if (w->eta) eta_begin(w->eta);
  VmStatus st = vm_initial(w->vm, &w->a);
  if (st != VM_OK) { search_record_bug(r, w->vm, w->trace, 0); return WALK_BUG; }
  if (w->track) walk_track(w);
  WalkEnd end;
  for (;;) {
    st = vm_choices(w->vm, (uint8_t *)w->a.data, w->a.len, &w->ch);
    if (st != VM_OK) {
      if (st == VM_BAD_STATE) { fputs("pcheck: internal error: the VM produced a malformed state\n", stderr); return WALK_FAIL; }
      search_record_bug(r, w->vm, w->trace, w->depth);
      return WALK_BUG;
    }
    if (w->ch.kind == VC_NONE) { end = WALK_END; break; }
    if ((int64_t)w->depth >= max_steps) {
      if (w->fail_at > 0 && (int64_t)w->depth >= w->fail_at) {
        search_record_max_steps(r, w->trace, w->depth, w->fail_at);
        return WALK_BUG;
      }
      end = WALK_CUT;
      break;
    }
    if (w->stop_o &&
        (((w->depth & 255) == 255 && !w->stop_o->member) || search_stop_due(w->stop_o, w->stop_prog, &w->pulse)) &&
        search_should_stop(w->stop_o, w->stop_prog, &w->stopped)) {
      end = WALK_CUT;   /* a long execution does not hold a --timeout or Ctrl-C back */
      break;
    }
    if (w->temp && live_temp_before(w->temp, w->vm, (uint8_t *)w->a.data, w->a.len)) {
      live_temp_record(w->temp, r, w->trace, w->depth);
      return WALK_BUG;
    }
    uint32_t choice = pick(ctx, &w->ch);
    if (w->eta) eta_step(w->eta, w->ch.n, choice_index(&w->ch, choice));
    if (w->dec) {
      uint32_t pair[2] = { w->ch.n, choice_index(&w->ch, choice) };
      buf_append_fast(w->dec, pair, sizeof pair);
    }
    if (w->depth == w->tcap) {
      w->tcap = w->tcap ? w->tcap * 2 : 1024;
      w->trace = xrealloc(w->trace, w->tcap * sizeof(TraceChoice));
    }
    w->trace[w->depth].kind = (uint8_t)w->ch.kind;
    w->trace[w->depth++].value = choice;
    w->b.len = 0;   /* the State vm_choices loaded above is stepped without loading it again */
    st = vm_step_expand(w->vm, (uint8_t *)w->a.data, w->a.len, choice, &w->b);
    r->transitions++;
    if (st != VM_OK) {
      if (st == VM_BAD_STATE) { fputs("pcheck: internal error: the VM rejected its own choice\n", stderr); return WALK_FAIL; }
      search_record_bug(r, w->vm, w->trace, w->depth);
      return WALK_BUG;
    }
    if (w->temp) live_temp_after(w->temp, w->vm);
    if (w->track) walk_track(w);
    Buf t = w->a; w->a = w->b; w->b = t;
  }
  if (w->depth > r->max_depth) r->max_depth = w->depth;
  if (w->eta) {
    eta_end(w->eta);
    w->eta_cut |= end == WALK_CUT;
    walk_estimate(w->eta, w->eta_cut, r);
  }
  return end;
}
