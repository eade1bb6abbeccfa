/* farm.c: items of a sampling search run across ranks (farm.h).
**
** Messages (MPI_COMM_WORLD, bytes):
**   rank 0 -> r  TAG_WORK   u64 number, the item's bytes
**   r -> rank 0  TAG_RESULT u64 number, u8 ok (0: work failed: rank 0 runs
**                           the item itself, and reports the failure), the result
**   rank 0 -> r  TAG_END    nothing: run no more
**   r -> rank 0  TAG_FINAL  double: seconds it waited for work, its max_bytes
**   rank 0 -> r  TAG_BYE    u8: 1 when a rank was lost (the job is abandoned:
**                           r must not join MPI_Finalize either, ranks.h)
** Each rank other than 0 holds at most DEPTH items sent and not yet
** answered, so that it finds its next item waiting when it sends a
** result; rank 0 hands out items whenever it looks at its mail (between
** two items it runs, and while it waits).  A rank holding work is lost when
** nothing came from it for the rank timeout (or ten times the longest item
** rank 0 ran, if longer): its items are queued again and it gets no more.
**
** Items are kept from the oldest not taken to the newest added, numbered;
** a result for a number no longer kept (taken, dropped) is ignored. */
#include <config.h>
#include "checker/par/farm.h"
#include "checker/par/ranks.h"
#include "checker/search/search.h"
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#ifdef HAVE_MPI
#include <mpi.h>
#endif

enum { DEPTH = 3 };
enum { TAG_WORK = 101, TAG_RESULT, TAG_END, TAG_FINAL, TAG_BYE };
enum { I_QUEUED, I_OUT, I_DONE };

typedef struct Item {
  Buf msg;                   /* u64 number, then the item's bytes */
  Buf result;                /* once I_DONE */
  int state;
  int rank;                  /* I_OUT: the rank it was handed to */
  int here;                  /* it failed on another rank: rank 0 runs it (and reports the failure) */
} Item;

typedef struct Peer {
  int out;                   /* items sent to it and not answered (dropped ones too) */
  double heard;              /* when it last answered, or got work while holding none */
  int lost;
  int ended;                 /* its TAG_FINAL came (farm_end) */
} Peer;

/* A send in flight and its bytes (kept until MPI says it went; a send to
** a lost rank may never go: its buffer is then left to the process's end). */
typedef struct Send {
  Buf buf;
#ifdef HAVE_MPI
  MPI_Request req;
#endif
  int busy;
} Send;

struct Farm {
  FarmWork work;
  void *ctx;
  uint8_t *max_bytes;
  size_t nmax;
  double timeout;            /* --rank-timeout */
  double longest;            /* the longest item rank 0 ran (seconds) */
  int me, k;
  Item *items;               /* items[i] is number first + i */
  uint64_t first, n, cap;
  uint64_t taken;            /* the next number farm_take gives */
  Buf held;                  /* the result farm_take gave last */
  Buf scratch;               /* a message being read */
  Peer *peers;               /* [k], rank 0's view of the others */
  Send *sends;
  size_t nsends;
  int failed;                /* a rank's work failed */
  FarmStats st;
};

Farm *farm_new(FarmWork work, void *ctx, uint8_t *max_bytes, size_t nmax, double rank_timeout) {
  Farm *f = xcalloc(1, sizeof *f);
  f->work = work;
  f->ctx = ctx;
  f->max_bytes = max_bytes;
  f->nmax = max_bytes ? nmax : 0;
  f->timeout = rank_timeout;
  f->me = ranks_me();
  f->k = ranks_count();
  f->peers = xcalloc((size_t)f->k, sizeof *f->peers);
  buf_init(&f->held);
  buf_init(&f->scratch);
  return f;
}

static void item_fini(Item *it) {
  buf_fini(&it->msg);
  buf_fini(&it->result);
}

void farm_free(Farm *f) {
  if (!f) return;
  for (uint64_t i = 0; i < f->n; i++) item_fini(&f->items[i]);
  free(f->items);
  for (size_t i = 0; i < f->nsends; i++) {
#ifdef HAVE_MPI
    int done = !f->sends[i].busy;
    if (!done) MPI_Test(&f->sends[i].req, &done, MPI_STATUS_IGNORE);
    if (!done) {   /* to a lost rank: MPI may still read the buffer */
      MPI_Request_free(&f->sends[i].req);
      continue;
    }
#endif
    buf_fini(&f->sends[i].buf);
  }
  free(f->sends);
  free(f->peers);
  buf_fini(&f->held);
  buf_fini(&f->scratch);
  free(f);
}

static uint64_t get_u64(const uint8_t *p) {
  uint64_t v;
  memcpy(&v, p, 8);
  return v;
}

/* ---- rank 0's side ---- */

uint64_t farm_add(Farm *f, const void *item, size_t n) {
  /* Taken items are let go once they are half of those kept. */
  uint64_t gone = f->taken - f->first;
  if (gone >= 16 && gone * 2 >= f->n) {
    for (uint64_t i = 0; i < gone; i++) item_fini(&f->items[i]);
    memmove(f->items, f->items + gone, (size_t)(f->n - gone) * sizeof *f->items);
    f->n -= gone;
    f->first += gone;
  }
  if (f->n == f->cap) {
    f->cap = f->cap ? 2 * f->cap : 64;
    f->items = xrealloc(f->items, (size_t)f->cap * sizeof *f->items);
  }
  Item *it = &f->items[f->n];
  memset(it, 0, sizeof *it);
  uint64_t num = f->first + f->n++;
  buf_append(&it->msg, &num, 8);
  if (n) buf_append(&it->msg, item, n);
  it->state = I_QUEUED;
  f->st.items++;
  return num;
}

uint64_t farm_item_units(uint64_t done, double seconds, int k) {
  if (seconds <= 0 || done == 0 || k < 1) return 1;
  double n = (double)done / seconds / k * 0.02;
  return n < 1 ? 1 : n > 4096 ? 4096 : (uint64_t)n;
}

uint64_t farm_pending(const Farm *f) { return f->first + f->n - f->taken; }

void farm_drop(Farm *f) {
  for (uint64_t i = 0; i < f->n; i++) item_fini(&f->items[i]);
  f->first += f->n;
  f->n = 0;
  f->taken = f->first;
}

/* The oldest item waiting for a rank, or NULL; anywhere: also one that
** only rank 0 may run. */
static Item *first_queued(Farm *f, int anywhere) {
  for (uint64_t i = f->taken - f->first; i < f->n; i++)
    if (f->items[i].state == I_QUEUED && (anywhere || !f->items[i].here)) return &f->items[i];
  return NULL;
}

/* Run it on rank 0. */
static void run_here(Farm *f, Item *it) {
  double t0 = search_now();
  if (f->work(f->ctx, (const uint8_t *)it->msg.data + 8, it->msg.len - 8, &it->result) != 0) f->failed = 1;
  it->state = I_DONE;
  double t = search_now() - t0;
  if (t > f->longest) f->longest = t;
}

#ifdef HAVE_MPI
/* Send n bytes to rank r with tag, without waiting (the bytes are copied). */
static void post(Farm *f, int r, int tag, const void *p, size_t n) {
  Send *s = NULL;
  for (size_t i = 0; i < f->nsends && !s; i++) {
    if (f->sends[i].busy) {
      int done = 0;
      MPI_Test(&f->sends[i].req, &done, MPI_STATUS_IGNORE);
      if (!done) continue;
      f->sends[i].busy = 0;
    }
    s = &f->sends[i];
  }
  if (!s) {
    f->sends = xrealloc(f->sends, (f->nsends + 1) * sizeof *f->sends);
    s = &f->sends[f->nsends++];
    memset(s, 0, sizeof *s);
    buf_init(&s->buf);
  }
  s->buf.len = 0;
  if (n) buf_append(&s->buf, p, n);
  MPI_Isend(s->buf.data, (int)n, MPI_BYTE, r, tag, MPI_COMM_WORLD, &s->req);
  s->busy = 1;
  f->st.messages++;
  f->st.bytes += n;
}

static double deadline(const Farm *f) { return f->timeout > 10 * f->longest ? f->timeout : 10 * f->longest; }

/* Rank r stopped answering: its items go back to the queue. */
static void lose(Farm *f, int r, double quiet) {
  f->peers[r].lost = 1;
  f->st.lost++;
  for (uint64_t i = f->taken - f->first; i < f->n; i++)
    if (f->items[i].state == I_OUT && f->items[i].rank == r) {
      f->items[i].state = I_QUEUED;
      f->st.redone++;
    }
  fprintf(stderr, "pcheck: warning: rank %d stopped answering (nothing from it for %.1f s while it held work): "
          "its work goes to the other ranks\n", r, quiet);
}

/* A result from rank r. */
static void got_result(Farm *f, int r, const uint8_t *p, size_t n) {
  f->peers[r].out--;
  f->peers[r].heard = search_now();
  if (f->peers[r].lost || n < 9) return;
  uint64_t num = get_u64(p);
  if (num < f->taken || num >= f->first + f->n) return;   /* taken already, or dropped */
  Item *it = &f->items[num - f->first];
  if (it->state == I_DONE) return;
  if (!p[8]) {   /* run it again here, where a failure is reported */
    it->state = I_QUEUED;
    it->here = 1;
    return;
  }
  it->result.len = 0;
  buf_append(&it->result, p + 9, n - 9);
  it->state = I_DONE;
  f->st.remote++;
}

/* Read every message waiting; with final, rank r's TAG_FINAL is taken too. */
static void read_mail(Farm *f) {
  for (;;) {
    int flag = 0;
    MPI_Status s;
    MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &s);
    if (!flag) return;
    int cnt = 0;
    MPI_Get_count(&s, MPI_BYTE, &cnt);
    f->scratch.len = 0;
    buf_reserve(&f->scratch, (size_t)cnt);
    MPI_Recv(f->scratch.data, cnt, MPI_BYTE, s.MPI_SOURCE, s.MPI_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    f->st.messages++;
    f->st.bytes += (uint64_t)cnt;
    int r = s.MPI_SOURCE;
    if (s.MPI_TAG == TAG_RESULT) got_result(f, r, (const uint8_t *)f->scratch.data, (size_t)cnt);
    else if (s.MPI_TAG == TAG_FINAL && !f->peers[r].lost && !f->peers[r].ended) {
      f->peers[r].ended = 1;
      const uint8_t *b = (const uint8_t *)f->scratch.data;
      double idle = 0;
      if ((size_t)cnt >= sizeof idle) memcpy(&idle, b, sizeof idle);
      f->st.idle += idle;
      for (size_t i = 0; i < f->nmax && i + sizeof idle < (size_t)cnt; i++)
        if (b[i + sizeof idle] > f->max_bytes[i]) f->max_bytes[i] = b[i + sizeof idle];
    }
  }
}
#endif

/* Read mail, lose ranks past the deadline, hand out queued items. */
static void pump(Farm *f) {
#ifdef HAVE_MPI
  if (f->k == 1) return;
  read_mail(f);
  double now = search_now();
  for (int r = 1; r < f->k; r++) {
    Peer *p = &f->peers[r];
    if (!p->lost && p->out > 0 && now - p->heard > deadline(f)) lose(f, r, now - p->heard);
  }
  for (int r = 1; r < f->k; r++) {
    Peer *p = &f->peers[r];
    while (!p->lost && p->out < DEPTH) {
      Item *it = first_queued(f, 0);
      if (!it) return;
      if (p->out == 0) p->heard = now;
      post(f, r, TAG_WORK, it->msg.data, it->msg.len);
      it->state = I_OUT;
      it->rank = r;
      p->out++;
    }
  }
#else
  (void)f;
#endif
}

static void nap(Farm *f) {
  double t0 = search_now();
  struct timespec ts = { 0, 50 * 1000 };
  nanosleep(&ts, NULL);
  f->st.idle += search_now() - t0;
}

int farm_take(Farm *f, const uint8_t **out, size_t *n) {
  uint64_t at = f->taken - f->first;
  for (;;) {
    pump(f);
    if (f->failed) return -1;
    if (f->items[at].state == I_DONE) break;
    Item *q = first_queued(f, 1);
    if (q) {
      run_here(f, q);
      continue;
    }
    nap(f);
  }
  Buf t = f->held;
  f->held = f->items[at].result;
  f->items[at].result = t;
  f->items[at].result.len = 0;
  f->taken++;
  *out = (const uint8_t *)f->held.data;
  *n = f->held.len;
  return 0;
}

void farm_end(Farm *f, FarmStats *st) {
  farm_drop(f);
#ifdef HAVE_MPI
  if (f->me == 0 && f->k > 1) {
    double now = search_now();
    for (int r = 1; r < f->k; r++)
      if (!f->peers[r].lost) {
        post(f, r, TAG_END, NULL, 0);
        f->peers[r].heard = now;
      }
    for (;;) {
      read_mail(f);
      int waiting = 0;
      now = search_now();
      for (int r = 1; r < f->k; r++) {
        Peer *p = &f->peers[r];
        if (p->lost || p->ended) continue;
        if (now - p->heard > deadline(f)) lose(f, r, now - p->heard);
        else waiting = 1;
      }
      if (!waiting) break;
      nap(f);
    }
    if (f->st.lost) ranks_abandon();
    /* Every rank that answered learns whether the job is abandoned: one
    ** that went on to MPI_Finalize while a lost rank cannot would wait
    ** there, and was seen to crash inside Open MPI when mpirun ended the
    ** job under it (exit 139 for the whole run). */
    uint8_t bye = (uint8_t)ranks_abandoned();
    for (int r = 1; r < f->k; r++)
      if (!f->peers[r].lost) MPI_Send(&bye, 1, MPI_BYTE, r, TAG_BYE, MPI_COMM_WORLD);
  }
#endif
  *st = f->st;
}

/* ---- the other ranks ---- */

/* The failure a test asks of this rank through PCHECK_FARM_FAULT=WHAT:R:N
** (WHAT stop or kill): rank R stops (SIGSTOP) or dies (SIGKILL) once it has
** run N items, before sending the N-th result.  The signal, or 0. */
static int fault(int me, uint64_t *after) {
  const char *v = getenv("PCHECK_FARM_FAULT");
  char what[8];
  int r;
  unsigned long long n;
  if (!v || sscanf(v, "%7[a-z]:%d:%llu", what, &r, &n) != 3 || r != me) return 0;
  *after = n;
  return strcmp(what, "stop") == 0 ? SIGSTOP : strcmp(what, "kill") == 0 ? SIGKILL : 0;
}

int farm_serve(Farm *f) {
  int rc = 0;
#ifdef HAVE_MPI
  enum { NOUT = DEPTH + 1 };
  Buf in, res, outs[NOUT];
  MPI_Request reqs[NOUT];
  buf_init(&in);
  buf_init(&res);
  for (int i = 0; i < NOUT; i++) {
    buf_init(&outs[i]);
    reqs[i] = MPI_REQUEST_NULL;
  }
  uint64_t ran = 0, fault_after = 0;
  int fault_signal = fault(f->me, &fault_after);
  for (int slot = 0;; slot = (slot + 1) % NOUT) {
    MPI_Status s;
    double tw = search_now();
    MPI_Probe(0, MPI_ANY_TAG, MPI_COMM_WORLD, &s);
    f->st.idle += search_now() - tw;
    int cnt = 0;
    MPI_Get_count(&s, MPI_BYTE, &cnt);
    in.len = 0;
    buf_reserve(&in, (size_t)cnt);
    MPI_Recv(in.data, cnt, MPI_BYTE, 0, s.MPI_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (s.MPI_TAG == TAG_END) break;
    if (s.MPI_TAG != TAG_WORK || cnt < 8) continue;
    res.len = 0;
    uint8_t ok = f->work(f->ctx, (const uint8_t *)in.data + 8, (size_t)cnt - 8, &res) == 0;
    if (!ok) rc = -1;
    ++ran;
    if (fault_signal && ran == fault_after) raise(fault_signal);
    MPI_Wait(&reqs[slot], MPI_STATUS_IGNORE);
    Buf *o = &outs[slot];
    o->len = 0;
    buf_append(o, in.data, 8);
    buf_append(o, &ok, 1);
    if (res.len) buf_append(o, res.data, res.len);
    MPI_Isend(o->data, (int)o->len, MPI_BYTE, 0, TAG_RESULT, MPI_COMM_WORLD, &reqs[slot]);
  }
  MPI_Waitall(NOUT, reqs, MPI_STATUSES_IGNORE);
  Buf fin;
  buf_init(&fin);
  buf_append(&fin, &f->st.idle, sizeof f->st.idle);
  if (f->nmax) buf_append(&fin, f->max_bytes, f->nmax);
  MPI_Send(fin.data, (int)fin.len, MPI_BYTE, 0, TAG_FINAL, MPI_COMM_WORLD);
  uint8_t bye = 0;
  MPI_Recv(&bye, 1, MPI_BYTE, 0, TAG_BYE, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  if (bye) ranks_abandon();
  buf_fini(&fin);
  buf_fini(&in);
  buf_fini(&res);
  for (int i = 0; i < NOUT; i++) buf_fini(&outs[i]);
#else
  (void)f;
#endif
  return rc;
}
