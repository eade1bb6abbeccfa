/* search_bfs_dist.c: exhaustive search across MPI ranks (dist.h), level by
** level, as search_bfs.c searches on one process.
**
** Each rank owns the States whose fingerprints ranks_owner gives it: it
** alone inserts them in its part of the state cache, keeps their trace
** nodes and expands them.  A level is a round of mail (ranks.h): every
** rank expands the states of the current level it owns and hands each
** successor to its owner, as a record in a letter (below); the owner
** inserts it and, if new, puts it in its next level.  Successors a rank
** owns itself skip the mail.  The round is over when every rank has
** expanded its share and every letter has been read (mail_round_over);
** the ranks then agree on the next level's size, on a bug, on a stop.
** Each state enters one owner's cache once, so a complete search counts
** the states and transitions of one process.
**
** The partial-order reduction keeps bfs's cycle proviso: a state whose
** expansion is reduced is explored in full if one of its chosen successors
** was expanded at this level or before (in the cache, not in the next
** level).  Only the successor's owner knows, so a chosen successor travels
** with a flag, and its owner answers a seen one with a letter asking the
** parent's rank to widen the parent, which then hands out the rest of its
** successors in the same round.  Whether a state is widened depends only
** on which states lie at which level, not on the order of letters: the
** counts are those of one process's bfs.
**
** A bug: a state bug (deadlock and the like, found at a state of level d)
** has a trace of d choices, a step bug one of d + 1, so as in bfs a step
** bug is held while the level goes on, and the lowest rank with a state
** bug, else the lowest with a step bug, reports.  Its trace is rebuilt by
** following parents from rank to rank: the owner of each node broadcasts
** its parent and choice (one broadcast per step of the trace).  Every
** rank replays the trace to describe the bug, so all end with the same
** result and exit status; only rank 0 prints and writes (cli.c).
**
** Letters.  TAG_STATE records: u64 fingerprint, u64 parent node, u64
** parent's index in the sender's level, u32 choice value, u8 choice kind,
** u8 flags (FLAG_CHOSEN: chosen by a reduced expansion), u32 length, then
** the State's bytes.  TAG_WIDEN records: u64 the index to widen. */
#include <config.h>
#ifdef HAVE_MPI
#include "checker/search/dist.h"
#include "checker/engine/expand.h"
#include "checker/par/ranks.h"
#include "checker/engine/reduce.h"
#include <stdlib.h>
#include <string.h>
#include "vm/hash.h"

enum { TAG_STATE, TAG_WIDEN, NTAGS };
enum { FLAG_CHOSEN = 1 };
enum { REC_HEAD = 8 + 8 + 8 + 4 + 1 + 1 + 4 };

typedef struct Dist {
  const SearchOptions *o;
  int me, k;
  Vm *vm;
  VmChoices ch;
  Expansion x;
  StateCache *cache;         /* this rank's slice of the fingerprints */
  StateCache *fresh;         /* with red: the next level's fingerprints (of this slice) */
  const Reduction *red;
  TtStore nodes;             /* the trace nodes of the states this rank owns */
  TtLevel cur, next;
  uint8_t *widened;          /* per state of cur: explored in full already */
  uint64_t *wq;              /* indexes of cur this rank was asked to widen, not yet widened */
  uint64_t nwq, capwq;
  Mail *mail;
  Buf letter;
  SearchResult r;            /* this rank's counts */
  DistBug bug;               /* the bug this rank holds for the level */
  int stop;                  /* DIST_STOP_*: this rank's reason to end the level early */
  int failed;                /* an internal error (reported) */
  uint64_t depth;            /* the level being expanded */
  uint64_t known;            /* states of every rank as of the last level's end */
  uint64_t known_mine;       /* this rank's r.states then */
  uint64_t iter;
  uint32_t pulse;            /* the pulse last seen (search_stop_due) */
  double idle;               /* seconds this rank waited at the ends of levels */
  Progress prog;
} Dist;

static void fail(Dist *d, const char *msg) {
  if (!d->failed && msg[0]) fprintf(ranks_err(), "pcheck: rank %d: %s\n", d->me, msg);
  d->failed = 1;
}

/* A new state for this rank's next level, or a seen one (which, chosen by a
** reduced expansion at `from`'s index pidx, makes that parent widen). */
static void take_state(Dist *d, uint64_t fp, uint64_t parent, uint64_t pidx, int from, TraceChoice c, int flags,
                       const uint8_t *s, size_t len) {
  ScResult r = sc_insert(d->cache, fp);
  if (r == SC_FULL) {   /* no room to know it: a bounded search ends here */
    if (d->stop < DIST_STOP_FULL) d->stop = DIST_STOP_FULL;
    return;
  }
  if (r == SC_SEEN) {
    if (!(flags & FLAG_CHOSEN) || (d->fresh && sc_contains(d->fresh, fp))) return;
    if (from == d->me) {
      if (d->nwq == d->capwq) {
        d->capwq = d->capwq ? d->capwq * 2 : 64;
        d->wq = xrealloc(d->wq, d->capwq * sizeof *d->wq);
      }
      d->wq[d->nwq++] = pidx;
    } else {
      buf_append(mail_put(d->mail, from, TAG_WIDEN), &pidx, 8);
      mail_sent_maybe(d->mail, from, TAG_WIDEN);
    }
    return;
  }
  uint64_t nid = tt_add(&d->nodes, parent, fp, c);
  tt_level_push(&d->next, nid, s, len);
  if (d->fresh) sc_insert(d->fresh, fp);
  d->r.states++;
}

/* Hand successor j of x (of the state at index i of cur) to its owner. */
static void route(Dist *d, uint64_t i, uint32_t j, int flags) {
  uint64_t fp = d->x.fp[j];
  TraceChoice c = { (uint8_t)d->ch.kind, expand_choice(&d->ch, d->x.base + j) };
  size_t len;
  const uint8_t *s = expand_kid(&d->x, j, &len);
  int owner = ranks_owner(fp, d->k);
  if (owner == d->me) { take_state(d, fp, d->cur.node[i], i, d->me, c, flags, s, len); return; }
  Buf *b = mail_put(d->mail, owner, TAG_STATE);
  uint8_t head[REC_HEAD];
  uint32_t len32 = (uint32_t)len;
  memcpy(head, &fp, 8);
  memcpy(head + 8, &d->cur.node[i], 8);
  memcpy(head + 16, &i, 8);
  memcpy(head + 24, &c.value, 4);
  head[28] = c.kind;
  head[29] = (uint8_t)flags;
  memcpy(head + 30, &len32, 4);
  buf_append_fast(b, head, REC_HEAD);
  buf_append_fast(b, s, len);
  mail_sent_maybe(d->mail, owner, TAG_STATE);
}

/* Start fetching the cache slots of the successors x holds that this rank
** owns (inserted next, back to back: the misses overlap, as in expand.h). */
static void prefetch_mine(Dist *d) {
  for (uint32_t j = 0; j < d->x.n; j++)
    if (ranks_owner(d->x.fp[j], d->k) == d->me) sc_prefetch(d->cache, d->x.fp[j]);
}

/* Hold a bug of this level (dist.h's DistBug).  A state bug replaces a
** step bug (its trace is shorter); otherwise the first stays. */
static void hold_bug(Dist *d, int kind, uint64_t node, TraceChoice last) {
  if (d->bug.kind && !(kind == DIST_STATE_BUG && d->bug.kind == DIST_STEP_BUG)) return;
  d->bug = (DistBug){ kind, node, last };
}

/* State i of cur was asked to widen: step the choices its reduced
** expansion left out and hand those successors out (unflagged). */
static void widen(Dist *d, uint64_t i) {
  if (i >= d->cur.n || d->widened[i]) return;
  d->widened[i] = 1;
  size_t len;
  const uint8_t *s = tt_level_state(&d->cur, i, &len);
  uint64_t scratch = 0;
  if (vm_choices(d->vm, s, len, &d->ch) != VM_OK ||
      expand_reduce(&d->x, d->red, d->vm, s, len, &d->ch, &scratch) != VM_OK) {
    fail(d, "internal error: a state widened by the cycle proviso expands differently the second time");
    return;
  }
  uint64_t chosen = 0;   /* the chosen choices (at most KID_BATCH) */
  for (uint32_t j = 0; j < d->x.lim; j++)
    if (d->x.sel[j]) chosen |= 1ull << j;
  uint32_t nsel = d->x.nsel;
  d->r.widened++;
  d->r.pruned -= d->ch.n - nsel;
  VmStatus vs = expand_batch(&d->x, d->vm, s, len, &d->ch, 0, &scratch);
  if (vs == VM_BAD_STATE) { fail(d, ""); return; }
  prefetch_mine(d);
  for (uint32_t j = 0; j < d->x.n; j++)
    if (!(chosen >> j & 1)) {
      d->r.transitions++;
      route(d, i, j, 0);
    }
  if (vs != VM_OK) {
    d->r.transitions++;
    hold_bug(d, DIST_STEP_BUG, d->cur.node[i], (TraceChoice){ (uint8_t)d->ch.kind, expand_choice(&d->ch, d->x.failed) });
  }
}

/* The reduced expansion of state i (a machine choice among 2 ..
** KID_BATCH): the chosen successors go out flagged when some choice is
** left out.  0 when done, 1 if a step failed first (the caller expands
** the state in full, which reports it; nothing was counted). */
static int reduce_state(Dist *d, uint64_t i, const uint8_t *s, size_t len) {
  uint64_t steps = 0;
  if (expand_reduce(&d->x, d->red, d->vm, s, len, &d->ch, &steps) != VM_OK) return 1;
  d->r.transitions += steps;
  d->r.pruned += d->ch.n - d->x.nsel;
  prefetch_mine(d);
  for (uint32_t j = 0; j < d->x.n; j++)
    if (j < d->x.lim && d->x.sel[j]) route(d, i, j, d->x.reduced ? FLAG_CHOSEN : 0);
  return 0;
}

/* Expand state i of this rank's current level. */
static void expand_state(Dist *d, uint64_t i) {
  size_t len;
  const uint8_t *s = tt_level_state(&d->cur, i, &len);
  VmStatus vs = vm_choices(d->vm, s, len, &d->ch);
  if (vs == VM_BAD_STATE) { fail(d, "internal error: the VM produced a malformed state"); return; }
  if (vs != VM_OK) { hold_bug(d, DIST_STATE_BUG, d->cur.node[i], (TraceChoice){ 0, 0 }); return; }
  if (d->bug.kind) return;   /* only looking for shorter bugs now */
  if (d->red && d->ch.kind == VC_MACHINE && d->ch.n >= 2) {
    if (red_period_full(d->depth)) d->r.period_full++;   /* the depth period: in full */
    else if (d->ch.n <= KID_BATCH && !reduce_state(d, i, s, len)) return;
  }
  for (uint32_t first = 0; first < d->ch.n; first += KID_BATCH) {
    vs = expand_batch(&d->x, d->vm, s, len, &d->ch, first, &d->r.transitions);
    if (vs == VM_BAD_STATE) { fail(d, ""); return; }
    prefetch_mine(d);
    for (uint32_t j = 0; j < d->x.n; j++) route(d, i, j, 0);
    if (vs != VM_OK) {
      hold_bug(d, DIST_STEP_BUG, d->cur.node[i], (TraceChoice){ (uint8_t)d->ch.kind, expand_choice(&d->ch, d->x.failed) });
      return;
    }
  }
}

/* Read one letter. */
static void read_letter(Dist *d, int from, int tag) {
  const uint8_t *p = (const uint8_t *)d->letter.data, *end = p + d->letter.len;
  if (tag == TAG_WIDEN) {
    for (; p + 8 <= end; p += 8) {
      uint64_t i;
      memcpy(&i, p, 8);
      widen(d, i);
    }
    return;
  }
  /* KID_BATCH records at a time: their cache slots are prefetched, then
  ** they are taken. */
  const uint8_t *rec[KID_BATCH];
  while (p + REC_HEAD <= end) {
    int n = 0;
    for (; n < KID_BATCH && p + REC_HEAD <= end; n++) {
      uint64_t fp;
      uint32_t len;
      memcpy(&fp, p, 8);
      memcpy(&len, p + 30, 4);
      if ((size_t)(end - p - REC_HEAD) < len) break;
      sc_prefetch(d->cache, fp);
      rec[n] = p;
      p += REC_HEAD + len;
    }
    for (int r = 0; r < n; r++) {
      const uint8_t *q = rec[r];
      uint64_t fp, parent, pidx;
      uint32_t len;
      TraceChoice c;
      memcpy(&fp, q, 8);
      memcpy(&parent, q + 8, 8);
      memcpy(&pidx, q + 16, 8);
      memcpy(&c.value, q + 24, 4);
      c.kind = q[28];
      memcpy(&len, q + 30, 4);
      take_state(d, fp, parent, pidx, from, c, q[29], q + REC_HEAD, len);
    }
    if (n < KID_BATCH && p + REC_HEAD <= end) break;   /* a record longer than the letter */
  }
  if (p != end) fail(d, "internal error: a malformed letter from another rank");
}

/* Bytes of this rank's queue and trace nodes. */
static uint64_t queue_bytes(const Dist *d) {
  return d->cur.bytes.cap + d->cur.cap * 16 + d->next.bytes.cap + d->next.cap * 16 + tt_bytes(&d->nodes);
}

/* Every 256 states: a stop, memory, progress (rank 0). */
static void periodic(Dist *d) {
  const char *why = NULL;
  if (search_should_stop(d->o, &d->prog, &why)) {
    int code = strcmp(why, "interrupted") == 0 ? DIST_STOP_INTERRUPT : DIST_STOP_TIMEOUT;
    if (d->stop < code) d->stop = code;
  }
  if (queue_bytes(d) > d->o->frontier_mem && d->stop < DIST_STOP_FRONTIER) d->stop = DIST_STOP_FRONTIER;
  if (d->me != 0) return;
  SearchResult all = {0};
  /* The states of the last level's end, and this rank's new ones as a
  ** share of all (the others' are known at the level's end). */
  all.states = d->known + (d->r.states - d->known_mine) * (uint64_t)d->k;
  all.max_depth = d->depth;
  progress_tick(&d->prog, d->o, &all, d->cur.n * (uint64_t)d->k, "level");
}

/* One level: expand this rank's share, read letters, widen, until the
** round is over on every rank. */
static void run_level(Dist *d) {
  mail_round_start(d->mail);
  d->widened = xrealloc(d->widened, d->cur.n ? d->cur.n : 1);
  memset(d->widened, 0, d->cur.n ? d->cur.n : 1);
  d->nwq = 0;
  uint64_t i = 0;
  for (;;) {
    int from, tag, got = 0;
    while (got < 16 && mail_get(d->mail, &d->letter, &from, &tag)) {
      read_letter(d, from, tag);
      got++;
    }
    while (d->nwq) widen(d, d->wq[--d->nwq]);
    if (i < d->cur.n && !d->stop && !d->failed && d->bug.kind != DIST_STATE_BUG) {
      for (int b = 0; b < 32 && i < d->cur.n; b++) {
        if ((++d->iter & 255) == 0 || search_stop_due(d->o, &d->prog, &d->pulse)) periodic(d);
        expand_state(d, i++);
      }
      continue;
    }
    if (mail_idle(d->mail, got, &d->idle)) return;
  }
}

/* Between levels: the ranks agree on a bug, a stop, the next level. 1 to
** go on with the next level, 0 when the search is over. */
static int end_level(Dist *d, SearchResult *res, int *failed) {
  uint64_t sum[2] = { d->next.n, d->r.states };
  uint64_t max[4] = { d->bug.kind == DIST_STATE_BUG ? (uint64_t)(d->k - d->me) : 0,
                      d->bug.kind == DIST_STEP_BUG ? (uint64_t)(d->k - d->me) : 0,
                      (uint64_t)d->stop, (uint64_t)d->failed };
  ranks_sum(sum, 2);
  ranks_max(max, 4);
  if (max[3]) { *failed = 1; return 0; }
  if (max[0] || max[1]) {
    int who = d->k - (int)(max[0] ? max[0] : max[1]);
    uint64_t n;
    int state_bug;
    TraceChoice *t = dist_gather_trace(&d->nodes, who, &d->bug, &n, &state_bug);
    if (dist_describe_bug(d->vm, &d->ch, t, n, state_bug, res) != 0) {
      fputs("pcheck: internal error: the trace rebuilt across ranks does not replay to its bug\n", stderr);
      *failed = 1;
    }
    free(t);
    return 0;
  }
  if (max[2] != DIST_STOP_NONE) {
    res->bound = xstrdup(dist_stop_text((int)max[2]));
    /* Level d was being expanded: every execution of fewer than d steps
    ** was checked (bfs's guarantee). */
    if (d->depth > 0) {
      res->has_proved = 1;
      res->proved = d->depth - 1;
      if (d->red) res->proved_period = RED_PERIOD;
    }
    return 0;
  }
  if (!sum[0]) { res->complete = 1; return 0; }
  TtLevel l = d->cur;
  d->cur = d->next;
  d->next = l;
  d->next.n = 0;
  d->next.bytes.len = 0;
  if (d->fresh) {
    sc_free(d->fresh);
    d->fresh = sc_new(d->o->cache_kind, d->o->frontier_mem / 8);
    if (d->fresh) sc_set_single_thread(d->fresh, 1);
  }
  d->depth++;
  if (d->depth > res->max_depth) res->max_depth = d->depth;
  if (sum[0] > res->peak_frontier) res->peak_frontier = sum[0];
  d->known = sum[1];
  d->known_mine = d->r.states;
  return 1;
}

int dist_levels(const BcProgram *bc, const VmTest *test, const SearchOptions *o0, SearchResult *res) {
  SearchOptions opts = dist_rank_options(o0);
  const SearchOptions *o = &opts;
  Dist d;
  memset(&d, 0, sizeof d);
  d.o = o;
  d.me = ranks_me();
  d.k = ranks_count();
  d.vm = vm_new(bc, test);
  tt_init(&d.nodes, d.me);
  progress_init(&d.prog);
  int failed = 0, rc = -1;
  Buf s;
  buf_init(&s);
  d.cache = sc_new(o->cache_kind, o->mem);
  uint64_t ok[1] = { d.cache != NULL };
  ranks_min(ok, 1);
  if (!ok[0]) {
    if (!d.cache) fprintf(ranks_err(), "pcheck: error: rank %d cannot allocate the state cache\n", d.me);
    goto out;
  }
  sc_set_single_thread(d.cache, 1);
  d.mail = mail_new(NTAGS);
  if (vm_initial(d.vm, &s) != VM_OK) {   /* every rank finds it alike */
    search_record_bug(res, d.vm, NULL, 0);
    rc = 0;
    goto out;
  }
  if (!o->no_reduction) {
    d.red = red_new(bc, test, 0);
    d.fresh = sc_new(o->cache_kind, o->frontier_mem / 8);
    if (d.fresh) sc_set_single_thread(d.fresh, 1);
    res->reduced = 1;
  }
  uint64_t root = state_hash(s.data, s.len);
  if (ranks_owner(root, d.k) == d.me) {
    sc_insert(d.cache, root);
    d.r.states = 1;
    tt_level_push(&d.cur, TT_NONE, (const uint8_t *)s.data, s.len);
  }
  d.known = 1;
  d.known_mine = d.r.states;
  res->peak_frontier = 1;
  do run_level(&d);
  while (end_level(&d, res, &failed));
  progress_done(&d.prog, o);
  dist_gather_counts(&d.r, d.cache, d.mail, d.idle, test, res);
  rc = failed ? -1 : 0;
out:
  res->seconds = search_now() - d.prog.start;
  buf_fini(&s);
  mail_free(d.mail);
  buf_fini(&d.letter);
  tt_fini(&d.nodes);
  tt_level_fini(&d.cur);
  tt_level_fini(&d.next);
  free(d.widened);
  free(d.wq);
  vm_choices_fini(&d.ch);
  expand_fini(&d.x);
  vm_free(d.vm);
  sc_free(d.cache);
  sc_free(d.fresh);
  red_free((Reduction *)d.red);
  return rc;
}
#endif
