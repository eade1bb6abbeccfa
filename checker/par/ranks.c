/* ranks.c: MPI ranks and their mail (ranks.h).  Without HAVE_MPI only the
** one-process answers are compiled: rank 0 of 1, collectives that change
** nothing, and no mail (a search asks for mail only with several ranks).
**
** Mail: per destination and tag one Buf being filled; a full or flushed
** batch is sent with MPI_Isend and kept in the in-flight list until MPI
** says it went (mail_get and mail_round_over reap them).  Letters are
** counted as they are sent and received; the waves of mail_round_over are
** non-blocking all-reductions of (sent, received) over MPI_COMM_WORLD,
** one at a time, so a rank keeps reading letters while a wave is under way. */
#include <config.h>
#include "checker/par/ranks.h"
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#ifdef HAVE_MPI
#include <mpi.h>
#endif

static int me = 0, count = 1, started = 0;
static FILE *err;            /* a rank other than 0: its own stderr (the process's goes to /dev/null) */

#ifdef HAVE_MPI
/* Was this process started by mpirun (or another PMI launcher)? */
static int launched(void) {
  static const char *const vars[] = { "OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_RANK", "PMI_SIZE", NULL };
  for (int i = 0; vars[i]; i++)
    if (getenv(vars[i])) return 1;
  return 0;
}
#endif

int ranks_start(int *argc, char ***argv) {
#ifdef HAVE_MPI
  if (!launched()) return 0;
  int provided = 0;
  if (MPI_Init_thread(argc, argv, MPI_THREAD_FUNNELED, &provided) != MPI_SUCCESS) {
    fputs("pcheck: error: MPI did not start (MPI_Init_thread failed)\n", stderr);
    return -1;
  }
  started = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &count);
  if (me != 0) {
    /* Rank 0 prints and writes for all; the others say only what is
    ** theirs alone (ranks_err), on the stderr they were given. */
    int fd = dup(2);
    err = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (!freopen("/dev/null", "w", stdout) || !freopen("/dev/null", "w", stderr)) return 0;
  }
#else
  (void)argc;
  (void)argv;
#endif
  return 0;
}

static int abandoned;

void ranks_abandon(void) {
  /* Under mpirun --enable-recovery a rank that died has left the job,
  ** and the others finish it with MPI_Finalize as usual. */
  const char *recovery = getenv("OMPI_MCA_orte_enable_recovery");
  abandoned = !(recovery && strcmp(recovery, "1") == 0);
}

int ranks_abandoned(void) { return abandoned; }

void ranks_end(int status) {
#ifdef HAVE_MPI
  if (started && abandoned && me != 0) {
    /* Rank 0 leaves without MPI at once (below), and mpirun then ends
    ** this rank: it waits for that, silent, rather than leave first (a
    ** status of its own, or an exit without MPI_Finalize, could become the
    ** job's).  A bound, in case mpirun never does. */
    for (int i = 0; i < 600; i++) {
      struct timespec ts = {0, 100000000};
      nanosleep(&ts, NULL);
    }
    _exit(status);
  }
  if (started && abandoned) {
    /* A lost rank cannot join MPI_Finalize, and Open MPI 4.1's mpirun was
    ** seen to hang in MPI_Abort's report while a rank was stopped: rank 0
    ** leaves without MPI, and mpirun ends the others.  It reports a rank
    ** that leaves so with status 0 as a failure (1, which would read as a
    ** bug): 3, a resource failure, is said instead. */
    if (status == 0) {
      fputs("pcheck: the job ends with exit status 3 (a rank was lost; the result above holds)\n", stderr);
      status = 3;
    }
    fflush(stdout);
    fflush(stderr);
    _exit(status);
  }
  if (started) {
    int done = 0;
    MPI_Finalized(&done);
    if (!done) MPI_Finalize();
  }
#else
  (void)status;
#endif
  started = 0;
}

FILE *ranks_err(void) { return err ? err : stderr; }

int ranks_me(void) { return me; }
int ranks_count(void) { return count; }

int ranks_local_count(void) {
  const char *v = getenv("OMPI_COMM_WORLD_LOCAL_SIZE");
  int n = v ? atoi(v) : 0;
  if (n < 1 || n > count) n = count;
  return started ? n : 1;
}

const char *ranks_build(void) {
#ifdef HAVE_MPI
  static char line[128];
#if defined(OMPI_MAJOR_VERSION)
  snprintf(line, sizeof line, "distributed search: Open MPI %d.%d.%d (mpirun -np K pcheck ...)", OMPI_MAJOR_VERSION,
           OMPI_MINOR_VERSION, OMPI_RELEASE_VERSION);
#else
  snprintf(line, sizeof line, "distributed search: MPI %d.%d (mpirun -np K pcheck ...)", MPI_VERSION, MPI_SUBVERSION);
#endif
  return line;
#else
  return "distributed search: not built (configure found no Open MPI, or was given --without-mpi)";
#endif
}

/* ---- Collectives ---- */

#ifdef HAVE_MPI
static void reduce_u64(uint64_t *v, int n, MPI_Op op) {
  if (count > 1) MPI_Allreduce(MPI_IN_PLACE, v, n, MPI_UINT64_T, op, MPI_COMM_WORLD);
}
void ranks_sum(uint64_t *v, int n) { reduce_u64(v, n, MPI_SUM); }
void ranks_max(uint64_t *v, int n) { reduce_u64(v, n, MPI_MAX); }
void ranks_min(uint64_t *v, int n) { reduce_u64(v, n, MPI_MIN); }
void ranks_max_bytes(uint8_t *v, size_t n) {
  /* In slices: MPI counts are ints. */
  for (size_t at = 0; count > 1 && at < n; at += 1u << 30) {
    size_t k = n - at < (1u << 30) ? n - at : (1u << 30);
    MPI_Allreduce(MPI_IN_PLACE, v + at, (int)k, MPI_UNSIGNED_CHAR, MPI_MAX, MPI_COMM_WORLD);
  }
}
void ranks_bcast(void *p, size_t n, int root) {
  for (size_t at = 0; count > 1 && at < n; at += 1u << 30) {
    size_t k = n - at < (1u << 30) ? n - at : (1u << 30);
    MPI_Bcast((char *)p + at, (int)k, MPI_BYTE, root, MPI_COMM_WORLD);
  }
}
void ranks_barrier(void) {
  if (count > 1) MPI_Barrier(MPI_COMM_WORLD);
}
#else
void ranks_sum(uint64_t *v, int n) { (void)v; (void)n; }
void ranks_max(uint64_t *v, int n) { (void)v; (void)n; }
void ranks_min(uint64_t *v, int n) { (void)v; (void)n; }
void ranks_max_bytes(uint8_t *v, size_t n) { (void)v; (void)n; }
void ranks_bcast(void *p, size_t n, int root) { (void)p; (void)n; (void)root; }
void ranks_barrier(void) {}
#endif

/* ---- Mail ---- */

#ifdef HAVE_MPI
typedef struct Flight {
  MPI_Request req;
  Buf bytes;                 /* kept until the send completes */
} Flight;

struct Mail {
  int ntags;
  Buf *out;                  /* [dest * ntags + tag]: the batch being filled */
  Flight *fl;                /* letters on their way */
  uint32_t nfl, capfl;
  Buf *spare;                /* the buffers of letters sent, emptied, for new batches */
  uint32_t nspare, capspare;
  uint64_t sent, received;   /* letters, over every round */
  uint64_t bytes;            /* bytes sent */
  /* The wave under way, and the one before it in this round: */
  int wave_on, have_prev;
  MPI_Request wave;
  uint64_t wave_in[2], wave_out[2], prev[2];   /* (sent, received) */
};

Mail *mail_new(int ntags) {
  Mail *m = xcalloc(1, sizeof *m);
  m->ntags = ntags;
  m->out = xcalloc((size_t)count * (size_t)ntags, sizeof *m->out);
  for (int i = 0; i < count * ntags; i++) buf_init(&m->out[i]);
  return m;
}

/* Release the letters MPI has sent; all = wait for every one. */
static void reap(Mail *m, int all) {
  uint32_t k = 0;
  for (uint32_t i = 0; i < m->nfl; i++) {
    int done = 0;
    if (all) MPI_Wait(&m->fl[i].req, MPI_STATUS_IGNORE), done = 1;
    else MPI_Test(&m->fl[i].req, &done, MPI_STATUS_IGNORE);
    if (!done) {
      m->fl[k++] = m->fl[i];
    } else if (m->nspare < 4u * (uint32_t)count * (uint32_t)m->ntags) {   /* kept for reuse: no page faults */
      if (m->nspare == m->capspare) {
        m->capspare = m->capspare ? m->capspare * 2 : 16;
        m->spare = xrealloc(m->spare, m->capspare * sizeof *m->spare);
      }
      m->fl[i].bytes.len = 0;
      m->spare[m->nspare++] = m->fl[i].bytes;
    } else {
      buf_fini(&m->fl[i].bytes);
    }
  }
  m->nfl = k;
}

void mail_free(Mail *m) {
  if (!m) return;
  reap(m, 1);
  if (m->wave_on) MPI_Wait(&m->wave, MPI_STATUS_IGNORE);
  for (int i = 0; i < count * m->ntags; i++) buf_fini(&m->out[i]);
  for (uint32_t i = 0; i < m->nspare; i++) buf_fini(&m->spare[i]);
  free(m->spare);
  free(m->out);
  free(m->fl);
  free(m);
}

Buf *mail_put(Mail *m, int dest, int tag) { return &m->out[dest * m->ntags + tag]; }

/* Send batch (dest, tag) as it is, and start a new one. */
static void send_batch(Mail *m, int dest, int tag) {
  Buf *b = &m->out[dest * m->ntags + tag];
  if (m->nfl == m->capfl) {
    m->capfl = m->capfl ? m->capfl * 2 : 16;
    m->fl = xrealloc(m->fl, m->capfl * sizeof *m->fl);
  }
  Flight *f = &m->fl[m->nfl++];
  f->bytes = *b;
  if (m->nspare) *b = m->spare[--m->nspare];
  else buf_init(b);
  MPI_Isend(f->bytes.data, (int)f->bytes.len, MPI_BYTE, dest, tag, MPI_COMM_WORLD, &f->req);
  m->sent++;
  m->bytes += f->bytes.len;
}

void mail_sent_maybe(Mail *m, int dest, int tag) {
  if (m->out[dest * m->ntags + tag].len >= MAIL_BATCH) send_batch(m, dest, tag);
}

void mail_flush(Mail *m) {
  for (int d = 0; d < count; d++)
    for (int t = 0; t < m->ntags; t++)
      if (m->out[d * m->ntags + t].len) send_batch(m, d, t);
}

int mail_get(Mail *m, Buf *into, int *from, int *tag) {
  if (m->nfl) reap(m, 0);
  int flag = 0;
  MPI_Status st;
  MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &st);
  if (!flag) return 0;
  int n = 0;
  MPI_Get_count(&st, MPI_BYTE, &n);
  into->len = 0;
  buf_reserve(into, (size_t)n);
  MPI_Recv(into->data, n, MPI_BYTE, st.MPI_SOURCE, st.MPI_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  into->len = (size_t)n;
  into->data[n] = 0;
  *from = st.MPI_SOURCE;
  *tag = st.MPI_TAG;
  m->received++;
  return 1;
}

int mail_round_over(Mail *m) {
  if (m->nfl) reap(m, 0);
  if (!m->wave_on) {
    m->wave_out[0] = m->sent;
    m->wave_out[1] = m->received;
    MPI_Iallreduce(m->wave_out, m->wave_in, 2, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD, &m->wave);
    m->wave_on = 1;
  }
  int done = 0;
  MPI_Test(&m->wave, &done, MPI_STATUS_IGNORE);
  if (!done) return 0;
  m->wave_on = 0;
  /* Over when the letters received by the last wave are the letters sent
  ** by this one (and all of them arrived). */
  int over = m->have_prev && m->prev[1] == m->wave_in[0] && m->wave_in[0] == m->wave_in[1];
  m->prev[0] = m->wave_in[0];
  m->prev[1] = m->wave_in[1];
  m->have_prev = 1;
  return over;
}

int mail_idle(Mail *m, int got, double *waited) {
  mail_flush(m);
  double t0 = MPI_Wtime();
  int over = mail_round_over(m);
  if (!got) {   /* no letter either: waiting */
    if (!over) sched_yield();
    *waited += MPI_Wtime() - t0;
  }
  return over;
}

void mail_round_start(Mail *m) {
  reap(m, 1);
  m->have_prev = 0;
}

uint64_t mail_letters(const Mail *m) { return m->sent; }
uint64_t mail_bytes(const Mail *m) { return m->bytes; }
#endif
