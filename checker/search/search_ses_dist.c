/* search_ses_dist.c: stratified exhaustive search (doc/algorithms.md, "ses")
** across MPI ranks (dist.h), stratum by stratum, as search_ses.c searches
** on one process.
**
** Each rank owns the States whose fingerprints ranks_owner gives it: it
** alone inserts them in its part of the state cache, keeps their trace
** nodes and expands them.  A state first reached in stratum db is expanded
** once: the explorer answers next, delay, next, ... and move j's successor
** (with the explorer state after it) belongs to stratum db + j.  Every
** successor goes at once to its owner, as a record in a letter (below),
** tagged with its stratum: the owner looks up a record of the current
** stratum at once (new: it is expanded in this stratum, as a chain of
** search_ses.c does), and keeps a record of a later stratum in its part
** of that stratum's frontier, unless the state is in its cache already.  A stratum is a round of mail
** (ranks.h): it is over when every rank has worked off its part of the
** stratum's frontier and its chains, and no letter is in flight.  The
** ranks then agree on a bug, a stop, and whether a later stratum holds
** entries.
**
** Which record of a stratum reaches a state first decides the explorer
** state it is searched with (doc/algorithms.md accepts either, as search_ses.c
** with -j N does), so the per-stratum figures may differ from one
** process's; a complete search visits every reachable state once and
** makes every move of each once, so it counts the states and transitions
** of one process's `ses --no-reduction`.  There is no partial-order
** reduction here: search_ses.c's cycle proviso asks whether a chosen
** successor is already in the cache when the state is expanded, which
** only the successor's owner knows, and later.  There is no hot-cycle
** search either (hot specs at quiescence are found as usual).
**
** A bug (a state that is one, a move that fails) or a failure of the
** explorer stops this rank's stratum, and a TAG_HALT letter stops the
** others'; at the stratum's end the lowest rank holding one reports it,
** its trace rebuilt from the ranks' trace nodes (dist.c).  A move j > 0
** that fails is kept as a bug record for stratum db + j (by the rank of
** its state), so that bugs come in the order of their delays.
**
** Letters.  TAG_STATE records: u64 fingerprint, u64 parent node, u64
** depth, u64 stratum, u32 choice value, u8 choice kind, u8 flags
** (FLAG_BUG: the parent's move fails there; no bytes), u32 State length,
** u32 explorer state length, then the State's bytes and the explorer's.
** TAG_HALT letters: one byte, no meaning. */
#include <config.h>
#ifdef HAVE_MPI
#include "checker/search/dist.h"
#include "checker/engine/expand.h"
#include "checker/engine/explorer.h"
#include <stdlib.h>
#include <string.h>
#include "vm/hash.h"

enum { TAG_STATE, TAG_HALT, NTAGS };
enum { FLAG_BUG = 1 };
enum { REC_HEAD = 8 + 8 + 8 + 8 + 4 + 1 + 1 + 4 + 4 };

/* A record's header, decoded. */
typedef struct Rec {
  uint64_t fp, parent, depth, stratum;
  TraceChoice c;
  uint8_t flags;
  uint32_t slen, dlen;
  const uint8_t *s, *d;      /* the State's bytes and the explorer's (in the letter) */
} Rec;

/* A later stratum's part of the frontier on this rank: its records, not
** yet looked up. */
typedef struct Later {
  Buf recs;                  /* records one after another, as in letters */
  uint64_t n;                /* how many */
} Later;

typedef struct DSes {
  const SearchOptions *o;
  int me, k;
  Vm *vm;
  Explorer *ex;
  VmChoices ch;
  StateCache *cache;         /* this rank's slice of the fingerprints */
  TtStore nodes;             /* the trace nodes of the states this rank owns */
  uint64_t db;               /* the stratum being searched (its delay bound) */
  Later *fut;                /* fut[j]: the records of stratum db + j (fut[0]: this one's) */
  uint64_t nfut;
  uint64_t pos;              /* records of fut[0] looked up so far */
  /* New states of this stratum waiting to be expanded, a stack: each
  ** entry u64 node, u64 depth, u32 State length, u32 explorer length,
  ** then the bytes; off[] says where each starts. */
  Buf work;
  uint64_t *off, noff, capoff;
  Buf st, dd, succ, kd;      /* the state being expanded, its explorer state; a successor and its */
  Buf moves;                 /* the records of the moves of the state being expanded (route_moves) */
  uint8_t *taken;            /* which of the state's machines the explorer gave */
  uint32_t taken_cap;
  Mail *mail;
  Buf letter;
  SearchResult r;            /* this rank's counts */
  uint64_t new_states;       /* this rank's in this stratum */
  uint64_t beyond;           /* moves past --max-delays, never searched */
  DistBug bug;               /* the bug (or the explorer's failure) this rank holds */
  char *exmsg;               /* the explorer failed: its message (then bug locates it) */
  int halted;                /* an outcome or a stop on some rank: this rank's work in the stratum stops */
  int stop;                  /* DIST_STOP_*: this rank's reason to end the stratum early */
  int failed;                /* an internal error (reported) */
  uint64_t known, known_mine;   /* every rank's states at the last stratum's end; this rank's */
  uint64_t iter;
  uint32_t pulse;            /* the pulse last seen (search_stop_due) */
  double idle;               /* seconds this rank waited at the ends of strata */
  double t0;                 /* when the stratum began */
  Progress prog;
} DSes;

static void fail(DSes *d, const char *msg) {
  if (!d->failed) fprintf(ranks_err(), "pcheck: rank %d: %s\n", d->me, msg);
  d->failed = 1;
}

/* Stop every rank's stratum (this rank holds an outcome, or stops). */
static void halt_all(DSes *d) {
  if (d->halted) return;
  d->halted = 1;
  for (int r = 0; r < d->k; r++)
    if (r != d->me) {
      uint8_t b = 0;
      buf_append(mail_put(d->mail, r, TAG_HALT), &b, 1);
      mail_sent_maybe(d->mail, r, TAG_HALT);
    }
}

/* Stop this rank's stratum for `code` (DIST_STOP_*), and the others'. */
static void stop_with(DSes *d, int code) {
  if (d->stop < code) d->stop = code;
  halt_all(d);
}

/* Hold a bug (kind DIST_STATE_BUG or DIST_STEP_BUG) or, with msg, the
** explorer's failure at that place; the first held stays. */
static void hold(DSes *d, int kind, uint64_t node, TraceChoice last, const char *msg) {
  if (d->bug.kind) return;
  d->bug = (DistBug){ kind, node, last };
  if (msg) d->exmsg = xstrdup(msg);
  halt_all(d);
}

static Later *later(DSes *d, uint64_t j) {
  if (j >= d->nfut) {
    d->fut = xrealloc(d->fut, (j + 1) * sizeof *d->fut);
    for (uint64_t q = d->nfut; q <= j; q++) {
      buf_init(&d->fut[q].recs);
      d->fut[q].n = 0;
    }
    d->nfut = j + 1;
  }
  return &d->fut[j];
}

/* Append a record to b. */
static void put_rec(Buf *b, const Rec *x) {
  uint8_t h[REC_HEAD];
  memcpy(h, &x->fp, 8);
  memcpy(h + 8, &x->parent, 8);
  memcpy(h + 16, &x->depth, 8);
  memcpy(h + 24, &x->stratum, 8);
  memcpy(h + 32, &x->c.value, 4);
  h[36] = x->c.kind;
  h[37] = x->flags;
  memcpy(h + 38, &x->slen, 4);
  memcpy(h + 42, &x->dlen, 4);
  buf_append_fast(b, h, REC_HEAD);
  if (x->slen) buf_append_fast(b, x->s, x->slen);
  if (x->dlen) buf_append_fast(b, x->d, x->dlen);
}

/* Decode the record at p (end: the end of its letter); the next record's
** start, or NULL if it overruns the letter. */
static const uint8_t *get_rec(const uint8_t *p, const uint8_t *end, Rec *x) {
  if ((size_t)(end - p) < REC_HEAD) return NULL;
  memcpy(&x->fp, p, 8);
  memcpy(&x->parent, p + 8, 8);
  memcpy(&x->depth, p + 16, 8);
  memcpy(&x->stratum, p + 24, 8);
  memcpy(&x->c.value, p + 32, 4);
  x->c.kind = p[36];
  x->flags = p[37];
  memcpy(&x->slen, p + 38, 4);
  memcpy(&x->dlen, p + 42, 4);
  if ((uint64_t)(end - p - REC_HEAD) < (uint64_t)x->slen + x->dlen) return NULL;
  x->s = p + REC_HEAD;
  x->d = x->s + x->slen;
  return x->d + x->dlen;
}

/* A record this rank owns: kept for its stratum, or looked up now (new:
** a trace node, and a place on the work stack). */
static void take(DSes *d, const Rec *x) {
  if (x->stratum > d->db) {
    /* Not if the state is known already: the cache forgets nothing, so
    ** looking it up then could only find it seen (as search_ses.c keeps
    ** its later moves). */
    if (!(x->flags & FLAG_BUG) && sc_contains(d->cache, x->fp)) return;
    Later *l = later(d, x->stratum - d->db);
    put_rec(&l->recs, x);
    l->n++;
    return;
  }
  if (x->flags & FLAG_BUG) {   /* a move kept for its stratum fails there */
    hold(d, DIST_STEP_BUG, x->parent, x->c, NULL);
    return;
  }
  ScResult r = sc_insert(d->cache, x->fp);
  if (r == SC_SEEN) return;
  if (r == SC_FULL) {   /* no room to know it: a bounded search ends here */
    stop_with(d, DIST_STOP_FULL);
    return;
  }
  uint64_t node = tt_add(&d->nodes, x->parent, x->fp, x->c);
  d->r.states++;
  d->new_states++;
  if (x->depth > d->r.max_depth) d->r.max_depth = x->depth;
  if (d->noff == d->capoff) {
    d->capoff = d->capoff ? d->capoff * 2 : 64;
    d->off = xrealloc(d->off, d->capoff * sizeof *d->off);
  }
  d->off[d->noff++] = d->work.len;
  uint8_t h[24];
  memcpy(h, &node, 8);
  memcpy(h + 8, &x->depth, 8);
  memcpy(h + 16, &x->slen, 4);
  memcpy(h + 20, &x->dlen, 4);
  buf_append_fast(&d->work, h, sizeof h);
  buf_append_fast(&d->work, x->s, x->slen);
  buf_append_fast(&d->work, x->d, x->dlen);
}

/* Hand the records of a state's moves (d->moves, as put_rec wrote them)
** to their owners: this rank's are looked up at once, after their cache
** slots were fetched together (the misses overlap), the others' go into
** letters as they are. */
static void route_moves(DSes *d) {
  const uint8_t *p = (const uint8_t *)d->moves.data, *end = p + d->moves.len;
  for (const uint8_t *q = p; q < end;) {
    Rec x;
    const uint8_t *next = get_rec(q, end, &x);
    if (ranks_owner(x.fp, d->k) == d->me) sc_prefetch(d->cache, x.fp);
    q = next;
  }
  while (p < end) {
    Rec x;
    const uint8_t *next = get_rec(p, end, &x);
    int owner = ranks_owner(x.fp, d->k);
    if (owner == d->me) {
      take(d, &x);
    } else {
      buf_append_fast(mail_put(d->mail, owner, TAG_STATE), p, (size_t)(next - p));
      mail_sent_maybe(d->mail, owner, TAG_STATE);
    }
    p = next;
  }
  d->moves.len = 0;
}

/* The explorer's answer for move j at the state (a delay first unless j
** is 0), checked: not given before at this state.  0; -1 when the
** explorer failed (held). */
static int answer(DSes *d, uint64_t node, uint32_t j, uint32_t *out) {
  if ((j > 0 && ex_delay(d->ex, &d->dd) != 0) || ex_next(d->ex, &d->dd, d->ch.ids, d->ch.n, out) != 0) {
    hold(d, DIST_STATE_BUG, node, (TraceChoice){ 0, 0 }, explorer_error(d->ex));
    return -1;
  }
  uint32_t lo = 0, hi = d->ch.n;
  while (lo < hi) {
    uint32_t mid = lo + (hi - lo) / 2;
    if (d->ch.ids[mid] < *out) lo = mid + 1;
    else hi = mid;
  }
  if (!d->taken[lo]) {
    d->taken[lo] = 1;
    return 0;
  }
  Buf b;
  buf_init(&b);
  buf_printf(&b, "explorer '%s' is unsound: after %u delay(s) at a state with %u enabled machines it chose '%s' "
             "again; never chosen there:", explorer_name(d->ex), j, d->ch.n, vm_machine_text(d->vm, *out));
  for (uint32_t q = 0, w = 0; q < d->ch.n; q++)
    if (!d->taken[q]) buf_printf(&b, "%s '%s'", w++ ? "," : "", vm_machine_text(d->vm, d->ch.ids[q]));
  hold(d, DIST_STATE_BUG, node, (TraceChoice){ 0, 0 }, b.data);
  buf_fini(&b);
  return -1;
}

/* Make every move of the state on top of the work stack (popped): move j
** with j delays, its successor routed for stratum db + j. */
static void expand_top(DSes *d) {
  uint64_t at = d->off[--d->noff], node, depth;
  uint32_t slen, dlen;
  const uint8_t *p = (const uint8_t *)d->work.data + at;
  memcpy(&node, p, 8);
  memcpy(&depth, p + 8, 8);
  memcpy(&slen, p + 16, 4);
  memcpy(&dlen, p + 20, 4);
  /* Copied out: routing may push onto the stack. */
  d->st.len = d->dd.len = 0;
  buf_append_fast(&d->st, p + 24, slen);
  buf_append_fast(&d->dd, p + 24 + slen, dlen);
  d->work.len = at;
  const uint8_t *s = (const uint8_t *)d->st.data;
  VmStatus vs = vm_choices(d->vm, s, slen, &d->ch);
  if (vs == VM_BAD_STATE) { fail(d, "internal error: the VM produced a malformed state"); return; }
  if (vs != VM_OK) { hold(d, DIST_STATE_BUG, node, (TraceChoice){ 0, 0 }, NULL); return; }
  uint32_t n = d->ch.n;
  if (n == 0) return;
  int machine = d->ch.kind == VC_MACHINE;
  if (machine) {
    if (d->taken_cap < n) d->taken = xrealloc(d->taken, d->taken_cap = n);
    memset(d->taken, 0, n);
    explorer_set_names(d->ex, d->vm);
  }
  const SearchOptions *o = d->o;
  for (uint32_t j = 0; j < n; j++) {
    if (j > 0 && o->max_delays >= 0 && d->db + j > (uint64_t)o->max_delays) {
      d->beyond += n - j;   /* they would need more delays than allowed */
      break;
    }
    uint32_t choice = j;
    if (machine && answer(d, node, j, &choice) != 0) break;
    TraceChoice c = { (uint8_t)d->ch.kind, choice };
    d->succ.len = 0;
    vs = vm_step_expand(d->vm, s, slen, choice, &d->succ);   /* from the State vm_choices loaded */
    d->r.transitions++;
    if (vs == VM_BAD_STATE) { fail(d, "internal error: the VM rejected its own choice"); break; }
    if (vs != VM_OK) {
      if (j == 0) { hold(d, DIST_STEP_BUG, node, c, NULL); break; }
      /* Reported in its own stratum, if the search gets there. */
      Rec x = { 0, node, depth + 1, d->db + j, c, FLAG_BUG, 0, 0, NULL, NULL };
      take(d, &x);
      break;
    }
    d->kd.len = 0;
    buf_append_fast(&d->kd, d->dd.data, d->dd.len);
    uint32_t nev;
    const VmEvent *ev = vm_events(d->vm, &nev);
    if (ex_step(d->ex, &d->kd, ev, nev) != 0) {
      hold(d, DIST_STEP_BUG, node, c, explorer_error(d->ex));
      break;
    }
    Rec x = { state_hash(d->succ.data, d->succ.len), node, depth + 1, d->db + j, c, 0,
              (uint32_t)d->succ.len, (uint32_t)d->kd.len, (const uint8_t *)d->succ.data,
              (const uint8_t *)d->kd.data };
    put_rec(&d->moves, &x);
  }
  route_moves(d);
}

/* Take the records of one letter (their cache slots prefetched first,
** KID_BATCH at a time). */
static void read_letter(DSes *d, int tag) {
  if (tag == TAG_HALT) { d->halted = 1; return; }
  if (d->halted || d->stop || d->failed) return;   /* the stratum is over for this rank */
  const uint8_t *p = (const uint8_t *)d->letter.data, *end = p + d->letter.len;
  enum { BATCH = 32 };
  Rec recs[BATCH];
  while (p < end) {
    int n = 0;
    for (; n < BATCH && p < end; n++) {
      const uint8_t *q = get_rec(p, end, &recs[n]);
      if (!q) { fail(d, "internal error: a malformed letter from another rank"); return; }
      sc_prefetch(d->cache, recs[n].fp);   /* looked up now, or checked against the cache if later */
      p = q;
    }
    for (int r = 0; r < n; r++) take(d, &recs[r]);
  }
}

/* Bytes of this rank's frontiers, work stack and trace nodes. */
static uint64_t queue_bytes(const DSes *d) {
  uint64_t b = d->work.cap + d->capoff * 8 + tt_bytes(&d->nodes);
  for (uint64_t j = 0; j < d->nfut; j++) b += d->fut[j].recs.cap;
  return b;
}

/* Every 256 expansions: a stop, memory, progress (rank 0). */
static void periodic(DSes *d) {
  const char *why = NULL;
  if (search_should_stop(d->o, &d->prog, &why)) {
    stop_with(d, strcmp(why, "interrupted") == 0 ? DIST_STOP_INTERRUPT : DIST_STOP_TIMEOUT);
  }
  if (queue_bytes(d) > d->o->frontier_mem) stop_with(d, DIST_STOP_FRONTIER);
  if (d->me != 0) return;
  SearchResult all = {0};
  /* The states at the last stratum's end, and this rank's new ones as a
  ** share of all (the others' are known at the stratum's end). */
  all.states = d->known + (d->r.states - d->known_mine) * (uint64_t)d->k;
  all.max_depth = d->r.max_depth;
  all.transitions = d->r.transitions * (uint64_t)d->k;
  uint64_t left = d->nfut ? d->fut[0].n - d->pos : 0;
  progress_tick(&d->prog, d->o, &all, left * (uint64_t)d->k, "frontier");
}

/* One stratum: look up this rank's part of its frontier and expand what
** is new, read letters, until the round is over on every rank. */
static void run_stratum(DSes *d) {
  mail_round_start(d->mail);
  d->pos = 0;
  const uint8_t *p = d->nfut ? (const uint8_t *)d->fut[0].recs.data : NULL;
  const uint8_t *end = p ? p + d->fut[0].recs.len : NULL;
  for (;;) {
    int from, tag, got = 0;
    while (got < 16 && mail_get(d->mail, &d->letter, &from, &tag)) {
      read_letter(d, tag);
      got++;
    }
    if (!d->halted && !d->stop && !d->failed && (d->noff || p < end)) {
      for (int b = 0; b < 32 && !d->halted && !d->failed && (d->noff || p < end); b++) {
        if ((++d->iter & 255) == 0 || search_stop_due(d->o, &d->prog, &d->pulse)) periodic(d);
        if (d->noff) {   /* chains first: the stack stays short */
          expand_top(d);
          continue;
        }
        Rec x;
        const uint8_t *q = get_rec(p, end, &x);
        if (!q) { fail(d, "internal error: a malformed frontier record"); break; }
        p = q;
        d->pos++;
        take(d, &x);
      }
      continue;
    }
    if (mail_idle(d->mail, got, &d->idle)) return;
  }
}

/* The bug or the explorer's failure the lowest rank holding one reports,
** on every rank.  -1 on an internal error. */
static int report(DSes *d, int who, SearchResult *res) {
  uint64_t n;
  int state_bug;
  char *msg = dist_bcast_text(d->exmsg, who);
  TraceChoice *t = dist_gather_trace(&d->nodes, who, &d->bug, &n, &state_bug);
  int rc = 0;
  if (msg[0]) {   /* the explorer failed there: not a bug of the model */
    res->error = msg;
    free(res->trace);
    res->trace = t;
    res->ntrace = n;
    return 0;
  }
  free(msg);
  if (dist_describe_bug(d->vm, &d->ch, t, n, state_bug, res) != 0) {
    fputs("pcheck: internal error: the trace rebuilt across ranks does not replay to its bug\n", stderr);
    rc = -1;
  }
  free(t);
  return rc;
}

/* Between strata: the ranks agree on a bug, a stop, the next stratum.
** 1 to go on, 0 when the search is over (res says how). */
static int end_stratum(DSes *d, FILE *logf, SearchResult *res, int *failed) {
  uint64_t later_n = 0;
  for (uint64_t j = 1; j < d->nfut; j++) later_n += d->fut[j].n;
  uint64_t sum[4] = { later_n, d->beyond, d->new_states, d->r.states };
  uint64_t max[3] = { d->bug.kind ? (uint64_t)(d->k - d->me) : 0, (uint64_t)d->stop, (uint64_t)d->failed };
  ranks_sum(sum, 4);
  ranks_max(max, 3);
  res->delays = d->db;
  if (max[2]) { *failed = 1; return 0; }
  if (max[0]) {
    if (report(d, d->k - (int)max[0], res) != 0) *failed = 1;
    if (!res->error)
      fprintf(logf, "ses: %s at delay bound %llu after %llu distinct states\n",
              res->bugdesc.status == VM_LIMIT ? "stopped at a limit" : "bug found", (unsigned long long)d->db,
              (unsigned long long)sum[3]);
    return 0;
  }
  if (max[1] != DIST_STOP_NONE) {
    char b[160];
    snprintf(b, sizeof b, "%s at delay bound %llu", dist_stop_text((int)max[1]), (unsigned long long)d->db);
    res->bound = xstrdup(b);
    if (d->db > 0) { res->has_proved = 1; res->proved = d->db - 1; }
    return 0;
  }
  progress_done(&d->prog, d->o);
  if (!d->o->quiet)
    fprintf(logf, "ses: delay bound %llu: %llu new states, frontier %llu, %.2f s\n", (unsigned long long)d->db,
            (unsigned long long)sum[2], (unsigned long long)sum[0], search_now() - d->t0);
  fflush(logf);
  if (sum[0] > res->peak_frontier) res->peak_frontier = sum[0];
  if (sum[0] == 0 && sum[1] == 0) { res->complete = 1; return 0; }
  if (sum[0] == 0 || (d->o->max_delays >= 0 && d->db >= (uint64_t)d->o->max_delays)) {
    char b[160];
    snprintf(b, sizeof b, "delay bound %llu reached, %llu frontier states left", (unsigned long long)d->db,
             (unsigned long long)(sum[0] + sum[1]));
    res->bound = xstrdup(b);
    res->has_proved = 1;
    res->proved = d->db;
    return 0;
  }
  /* The next stratum's part of the frontier becomes this one's. */
  if (d->nfut) {
    buf_fini(&d->fut[0].recs);
    memmove(d->fut, d->fut + 1, (d->nfut - 1) * sizeof *d->fut);
    d->nfut--;
  }
  d->db++;
  d->prog.bound = (long long)d->db;
  d->new_states = 0;
  d->known = sum[3];
  d->known_mine = d->r.states;
  d->t0 = search_now();
  return 1;
}

/* The initial state: every rank makes it and the explorer's first state
** alike; its owner takes it.  1 to search, 0 if it is a bug or the
** explorer failed (res says so). */
static int initial(DSes *d, SearchResult *res) {
  Buf s, x0;
  buf_init(&s);
  buf_init(&x0);
  int ok = 0;
  if (vm_initial(d->vm, &s) != VM_OK) {
    search_record_bug(res, d->vm, NULL, 0);
    goto out;
  }
  uint32_t nev;
  const VmEvent *ev = vm_events(d->vm, &nev);
  if (ex_init(d->ex, d->o->seed, ev, nev, &x0) != 0) {
    res->error = xstrdup(explorer_error(d->ex));
    goto out;
  }
  Rec x = { state_hash(s.data, s.len), TT_NONE, 0, 0, { 0, 0 }, 0, (uint32_t)s.len, (uint32_t)x0.len,
            (const uint8_t *)s.data, (const uint8_t *)x0.data };
  if (ranks_owner(x.fp, d->k) == d->me) {
    /* Its node stands for no move: its successors' parent is TT_NONE. */
    sc_insert(d->cache, x.fp);
    d->r.states = d->new_states = 1;
    uint8_t h[24];
    uint64_t none = TT_NONE, zero = 0;
    memcpy(h, &none, 8);
    memcpy(h + 8, &zero, 8);
    memcpy(h + 16, &x.slen, 4);
    memcpy(h + 20, &x.dlen, 4);
    d->off = xmalloc(sizeof *d->off);
    d->capoff = 1;
    d->off[d->noff++] = 0;
    buf_append(&d->work, h, sizeof h);
    buf_append(&d->work, x.s, x.slen);
    buf_append(&d->work, x.d, x.dlen);
  }
  d->known = 1;
  d->known_mine = d->r.states;
  res->peak_frontier = 1;
  ok = 1;
out:
  buf_fini(&s);
  buf_fini(&x0);
  return ok;
}

int dist_strata(const BcProgram *bc, const VmTest *test, const SearchOptions *o0, FILE *logf, SearchResult *res) {
  SearchOptions opts = dist_rank_options(o0);
  const SearchOptions *o = &opts;
  DSes d;
  memset(&d, 0, sizeof d);
  d.o = o;
  d.me = ranks_me();
  d.k = ranks_count();
  d.vm = vm_new(bc, test);
  vm_record_events(d.vm, 1);
  tt_init(&d.nodes, d.me);
  progress_init(&d.prog);
  d.prog.bound = 0;
  int failed = 0, rc = -1;
  Buf err;
  buf_init(&err);
  d.ex = explorer_new(bc, test, o->explorer, (ExNative)o->explorer_native, o->explorer_twin_check, &err);
  d.cache = sc_new(o->cache_kind, o->mem);
  uint64_t ok[1] = { d.cache != NULL && d.ex != NULL };
  ranks_min(ok, 1);
  if (!ok[0]) {
    if (!d.ex) fprintf(stderr, "pcheck: error: %s\n", err.data);   /* alike on every rank: rank 0's shows */
    else if (!d.cache) fprintf(ranks_err(), "pcheck: error: rank %d cannot allocate the state cache\n", d.me);
    goto out;
  }
  sc_set_single_thread(d.cache, 1);
  d.mail = mail_new(NTAGS);
  rc = 0;
  if (!initial(&d, res)) goto out;
  d.t0 = search_now();
  do run_stratum(&d);
  while (end_stratum(&d, logf, res, &failed));
  progress_done(&d.prog, o);
  dist_gather_counts(&d.r, d.cache, d.mail, d.idle, test, res);
  rc = failed ? -1 : 0;
out:
  res->seconds = search_now() - d.prog.start;
  mail_free(d.mail);
  buf_fini(&d.letter);
  buf_fini(&err);
  tt_fini(&d.nodes);
  for (uint64_t j = 0; j < d.nfut; j++) buf_fini(&d.fut[j].recs);
  free(d.fut);
  buf_fini(&d.work);
  free(d.off);
  buf_fini(&d.st);
  buf_fini(&d.dd);
  buf_fini(&d.succ);
  buf_fini(&d.kd);
  buf_fini(&d.moves);
  free(d.taken);
  free(d.exmsg);
  vm_choices_fini(&d.ch);
  explorer_free(d.ex);
  vm_free(d.vm);
  sc_free(d.cache);
  return rc;
}
#endif
