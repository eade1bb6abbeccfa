/* workers.c: the pool of work items and the threads (workers.h).
** The items are a LIFO stack under one mutex: items are handed over only
** when a thread is hungry, so the lock is taken rarely (a few times per
** idle period), not per State.  `waiting` counts threads inside pool_get;
** the search is over when all nthreads wait on an empty pool. */
#include <config.h>
#include "checker/par/workers.h"
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

struct Pool {
  pthread_mutex_t lock;
  pthread_cond_t cond;       /* signalled on put, stop and the end */
  WorkItem *items;           /* a stack of items */
  uint64_t n, cap;
  int nthreads;
  int waiting;               /* threads inside pool_get (under lock) */
  int hungry;                /* waiting > 0 and n == 0 (atomic, read without the lock) */
  int over;                  /* stopped, or everyone waited on an empty pool (atomic) */
};

/* Free an item's buffers and leave it empty. */
void work_fini(WorkItem *w) {
  buf_fini(&w->state);
  buf_fini(&w->aux);
  free(w->trace);
  memset(w, 0, sizeof *w);
}

Pool *pool_new(int nthreads) {
  Pool *p = xcalloc(1, sizeof *p);
  pthread_mutex_init(&p->lock, NULL);
  pthread_cond_init(&p->cond, NULL);
  p->nthreads = nthreads < 1 ? 1 : nthreads;
  return p;
}

void pool_free(Pool *p) {
  if (!p) return;
  for (uint64_t i = 0; i < p->n; i++) work_fini(&p->items[i]);
  free(p->items);
  pthread_cond_destroy(&p->cond);
  pthread_mutex_destroy(&p->lock);
  free(p);
}

/* Recompute the hungry flag (lock held). */
static void set_hungry(Pool *p) { __atomic_store_n(&p->hungry, p->waiting > 0 && p->n == 0, __ATOMIC_RELAXED); }

/* Push the item and wake one waiting thread; the flag `hungry` is
** recomputed under the lock, so a busy thread reading it sees at worst a
** stale value for one poll. */
void pool_put(Pool *p, WorkItem *item) {
  pthread_mutex_lock(&p->lock);
  if (p->n == p->cap) {
    p->cap = p->cap ? p->cap * 2 : 16;
    p->items = xrealloc(p->items, p->cap * sizeof *p->items);
  }
  p->items[p->n++] = *item;
  memset(item, 0, sizeof *item);
  set_hungry(p);
  pthread_cond_signal(&p->cond);
  pthread_mutex_unlock(&p->lock);
}

/* Termination: a thread that finds the pool empty counts itself waiting;
** when all nthreads wait, nobody holds unexplored work any more (a thread
** only gives work while it is busy), so the search is over.  The last
** thread to arrive sets `over` and wakes the others. */
int pool_get(Pool *p, WorkItem *out) {
  pthread_mutex_lock(&p->lock);
  p->waiting++;
  for (;;) {
    if (__atomic_load_n(&p->over, __ATOMIC_RELAXED)) break;
    if (p->n) {
      *out = p->items[--p->n];
      p->waiting--;
      set_hungry(p);
      pthread_mutex_unlock(&p->lock);
      return 1;
    }
    if (p->waiting == p->nthreads) {   /* nobody is left to put anything */
      __atomic_store_n(&p->over, 1, __ATOMIC_RELAXED);
      pthread_cond_broadcast(&p->cond);
      break;
    }
    set_hungry(p);
    pthread_cond_wait(&p->cond, &p->lock);
  }
  p->waiting--;
  set_hungry(p);
  pthread_mutex_unlock(&p->lock);
  return 0;
}

int pool_hungry(const Pool *p) { return __atomic_load_n(&p->hungry, __ATOMIC_RELAXED); }

void pool_stop(Pool *p) {
  pthread_mutex_lock(&p->lock);
  __atomic_store_n(&p->over, 1, __ATOMIC_RELAXED);
  pthread_cond_broadcast(&p->cond);
  pthread_mutex_unlock(&p->lock);
}

int pool_stopped(const Pool *p) { return __atomic_load_n(&p->over, __ATOMIC_RELAXED); }

/* ---- threads ---- */

/* The threads wait at a gate until all have been started: if one cannot
** be, none runs fn. */
typedef struct Gate {
  pthread_mutex_t lock;
  pthread_cond_t cond;
  int state;                 /* 0 wait, 1 go, 2 give up */
} Gate;

typedef struct Start {
  void (*fn)(void *);
  void *arg;
  Gate *gate;
} Start;

static void *start(void *a) {
  Start *s = a;
  pthread_mutex_lock(&s->gate->lock);
  while (s->gate->state == 0) pthread_cond_wait(&s->gate->cond, &s->gate->lock);
  int go = s->gate->state == 1;
  pthread_mutex_unlock(&s->gate->lock);
  if (go) s->fn(s->arg);
  return NULL;
}

static void open_gate(Gate *g, int state) {
  pthread_mutex_lock(&g->lock);
  g->state = state;
  pthread_cond_broadcast(&g->cond);
  pthread_mutex_unlock(&g->lock);
}

/* Thread 0 is the caller; threads 1 .. n-1 are created, wait at the gate,
** and run fn only once all exist (a search's barriers and termination
** count on all n threads). */
int workers_run(int n, void (*fn)(void *), void *args, size_t size) {
  if (n <= 1) { fn(args); return 0; }
  pthread_t *th = xcalloc((size_t)n, sizeof *th);
  Start *st = xcalloc((size_t)n, sizeof *st);
  Gate gate = { PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0 };
  int started = 1;
  for (int i = 1; i < n; i++, started++) {
    st[i] = (Start){ fn, (char *)args + (size_t)i * size, &gate };
    if (pthread_create(&th[i], NULL, start, &st[i]) != 0) break;
  }
  int ok = started == n;
  open_gate(&gate, ok ? 1 : 2);
  if (ok) fn(args);
  else fputs("pcheck: error: cannot start a worker thread\n", stderr);
  for (int i = 1; i < started; i++) pthread_join(th[i], NULL);
  pthread_cond_destroy(&gate.cond);
  pthread_mutex_destroy(&gate.lock);
  free(th);
  free(st);
  return ok ? 0 : -1;
}
