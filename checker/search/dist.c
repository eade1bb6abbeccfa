/* dist.c: what the distributed searches (search_bfs_dist.c's levels,
** search_ses_dist.c's strata) share: a bug's trace rebuilt from the trace
** nodes every rank keeps for the States it owns, its replay into the
** result, the words for a stop.  Every function here that takes `who` is
** collective: every rank calls it alike. */
#include <config.h>
#ifdef HAVE_MPI
#include "checker/search/dist.h"
#include "checker/par/ranks.h"
#include <stdlib.h>
#include <string.h>

TraceChoice *dist_gather_trace(const TtStore *nodes, int who, const DistBug *bug, uint64_t *n, int *state_bug) {
  /* The holder says where the trace ends; then each node's owner in turn
  ** says its parent and the choice into it, back to the initial state. */
  uint64_t info[4] = { bug->node, (uint64_t)bug->kind, bug->last.kind, bug->last.value };
  ranks_bcast(info, sizeof info, who);
  uint64_t cap = 64, len = 0;
  TraceChoice *t = xmalloc(cap * sizeof *t);
  int me = ranks_me();
  for (uint64_t id = info[0]; id != TT_NONE;) {
    int owner = (int)(id >> TT_SHIFT);
    uint64_t rec[3] = { 0, 0, 0 };
    if (owner == me) {
      uint64_t j = id & ((1ull << TT_SHIFT) - 1);
      const TtNode *node = &nodes->block[j / TT_BLOCK][j % TT_BLOCK];
      rec[0] = node->parent;
      rec[1] = node->choice.kind;
      rec[2] = node->choice.value;
    }
    ranks_bcast(rec, sizeof rec, owner);
    if (len == cap) t = xrealloc(t, (cap *= 2) * sizeof *t);
    t[len++] = (TraceChoice){ (uint8_t)rec[1], (uint32_t)rec[2] };
    id = rec[0];
  }
  for (uint64_t a = 0, b = len; a + 1 < b; a++, b--) {   /* root first */
    TraceChoice x = t[a];
    t[a] = t[b - 1];
    t[b - 1] = x;
  }
  *state_bug = info[1] == DIST_STATE_BUG;
  if (!*state_bug) {
    if (len == cap) t = xrealloc(t, (cap + 1) * sizeof *t);
    t[len++] = (TraceChoice){ (uint8_t)info[2], (uint32_t)info[3] };
  }
  *n = len;
  return t;
}

/* Every rank replays the same choices on its own Vm, so every rank ends
** with the same description (message, place) and exits alike; a replay
** that ends without a bug means the ranks' nodes disagree with the
** program, an internal error. */
int dist_describe_bug(Vm *vm, VmChoices *ch, const TraceChoice *t, uint64_t n, int state_bug, SearchResult *res) {
  Buf a, b;
  buf_init(&a);
  buf_init(&b);
  int rc = -1;
  VmStatus st = vm_initial(vm, &a);
  for (uint64_t j = 0; st == VM_OK && j < n; j++) {
    st = vm_choices(vm, (const uint8_t *)a.data, a.len, ch);
    if (st != VM_OK) break;
    st = vm_step(vm, (const uint8_t *)a.data, a.len, t[j].value, &b);
    Buf x = a;
    a = b;
    b = x;
  }
  if (st == VM_OK && state_bug) st = vm_choices(vm, (const uint8_t *)a.data, a.len, ch);
  if (st != VM_OK && st != VM_BAD_STATE) {
    search_record_bug(res, vm, t, n);
    rc = 0;
  }
  buf_fini(&a);
  buf_fini(&b);
  return rc;
}

SearchOptions dist_rank_options(const SearchOptions *o) {
  SearchOptions r = *o;
  r.mem /= (uint64_t)ranks_local_count();
  r.frontier_mem /= (uint64_t)ranks_local_count();
  return r;
}

/* Two broadcasts: the length (0 for NULL), then the bytes, so that the
** other ranks can size their copy. */
char *dist_bcast_text(const char *text, int who) {
  uint64_t len = text && ranks_me() == who ? strlen(text) : 0;
  ranks_bcast(&len, sizeof len, who);
  char *s = xmalloc((size_t)len + 1);
  if (ranks_me() == who && len) memcpy(s, text, (size_t)len);
  if (len) ranks_bcast(s, (size_t)len, who);
  s[len] = '\0';
  return s;
}

const char *dist_stop_text(int code) {
  switch (code) {
  case DIST_STOP_FULL: return "state cache full at its --mem budget";
  case DIST_STOP_FRONTIER: return "the queue of states outgrew the memory set aside for it";
  case DIST_STOP_INTERRUPT: return "interrupted";
  case DIST_STOP_TIMEOUT: return "timeout";
  default: return NULL;
  }
}
/* Sums (counts, bytes, letters, microseconds waited) in one reduction,
** maxima (a full cache anywhere, the deepest state) in another. */
void dist_gather_counts(const SearchResult *mine, const StateCache *cache, const Mail *mail, double idle,
                        const VmTest *test, SearchResult *res) {
  uint64_t s[10] = { mine->states, mine->transitions, mine->pruned, mine->widened, sc_bytes(cache),
                     sc_refused(cache), mail_letters(mail), mail_bytes(mail), (uint64_t)(idle * 1e6), mine->period_full };
  uint64_t m[2] = { (uint64_t)sc_is_full(cache), mine->max_depth };
  ranks_sum(s, 10);
  ranks_max(m, 2);
  res->states = s[0];
  res->transitions = s[1];
  res->pruned = s[2];
  res->widened = s[3];
  res->cache_bytes = s[4];
  res->cache_refused = s[5];
  res->cache_full = (int)m[0];
  if (m[1] > res->max_depth) res->max_depth = m[1];
  res->ranks = ranks_count();
  res->letters = s[6];
  res->letter_bytes = s[7];
  res->rank_idle = (double)s[8] / 1e6;
  res->period_full = s[9];
  if (test->cov) ranks_max_bytes(test->cov->hit, test->cov->npoints);
}
#endif
