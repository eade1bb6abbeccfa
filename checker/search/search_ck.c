/* search_ck.c: what every search's checkpoint holds besides its own
** sections, and when one is due (search_ck.h). */
#include <config.h>
#include "checker/search/search_ck.h"
#include "checker/engine/liveness.h"
#include <stdlib.h>
#include <string.h>

int ck_due(const SearchOptions *o) {
  const CkRun *k = o->ck;
  if (!k || !k->path) return 0;
  /* Writing takes at most a tenth of the run: a checkpoint that took t
  ** seconds to write is followed by the next no sooner than 9 t later. */
  double gap = k->every > 9 * k->last_write ? k->every : 9 * k->last_write;
  return search_now() - k->last >= gap;
}

void ck_start(const SearchOptions *o) {
  if (o->ck) o->ck->last = search_now();
}

void ck_begin(const SearchOptions *o) { o->ck->begun = search_now(); }

void ck_put_common(const SearchOptions *o, Checkpoint *c, const SearchResult *r, const BcProgram *bc,
                   const VmTest *test, double seconds) {
  SearchResult copy = *r;
  copy.seconds = o->ck->prior_seconds + seconds;
  Buf b;
  buf_init(&b);
  search_result_pack(&copy, bc, &b);
  ck_add_buf(c, "result", &b);
  if (test->cov) ck_add(c, "coverage", test->cov->hit, test->cov->npoints);
}

int ck_commit(const SearchOptions *o, Checkpoint *c) {
  CkRun *k = o->ck;
  double t0 = search_now();
  Buf err;
  buf_init(&err);
  int rc = ck_write(c, &k->head, k->path, &err);
  if (rc != 0 && !k->warned) fprintf(stderr, "pcheck: warning: %s; the search goes on\n", err.data);
  k->warned |= rc != 0;
  k->failed = rc != 0;
  if (rc == 0) k->written++;
  buf_fini(&err);
  k->last = search_now();
  k->last_write = k->last - (k->begun > 0 ? k->begun : t0);
  k->write_seconds += k->last_write;
  k->begun = 0;
  return rc;
}

StateCache *ck_get_cache(const SearchOptions *o, const char *key, uint64_t budget, const char *what, int optional) {
  uint64_t n;
  const uint8_t *p = ck_get(o->ck->from, key, &n);
  if (!p) {
    if (!optional) ck_bad(o, what);
    return NULL;
  }
  Buf err;
  buf_init(&err);
  StateCache *c = sc_load(o->cache_kind, budget, p, (size_t)n, &err);
  if (!c) ck_bad(o, err.data ? err.data : what);
  buf_fini(&err);
  return c;
}

int ck_get_common(const SearchOptions *o, const BcProgram *bc, const VmTest *test, SearchResult *r) {
  const Checkpoint *c = o->ck->from;
  uint64_t len;
  const uint8_t *p = ck_get(c, "result", &len);
  if (!p || search_result_unpack(p, (size_t)len, bc, r) != 0) return ck_bad(o, "its figures");
  o->ck->prior_seconds = r->seconds;
  r->seconds = 0;
  const uint8_t *hit = ck_get(c, "coverage", &len);
  if (test->cov && hit) {
    if (len != test->cov->npoints) return ck_bad(o, "its coverage points");
    for (uint64_t i = 0; i < len; i++) test->cov->hit[i] |= hit[i];
  }
  return 0;
}

int ck_bad(const SearchOptions *o, const char *what) {
  fprintf(stderr, "pcheck: error: the checkpoint '%s' does not fit this search (%s): it was not written by this "
          "pcheck's search; start the search again\n", o->ck->from_path, what);
  return -1;
}

void ck_put_live(Checkpoint *c, const Liveness *L) {
  if (!L) return;
  Buf b;
  buf_init(&b);
  live_save(L, &b);
  ck_add_buf(c, "live", &b);
}

int ck_get_live(const SearchOptions *o, Liveness *L) {
  if (!L) return 0;
  uint64_t n;
  const uint8_t *p = ck_get(o->ck->from, "live", &n);
  Buf err;
  buf_init(&err);
  int rc = p ? live_load(L, p, (size_t)n, &err) : -1;
  if (rc != 0) ck_bad(o, err.data ? err.data : "no hot-cycle search");
  buf_fini(&err);
  return rc;
}

void ck_finish(const SearchOptions *o, Checkpoint *c, const StateCache *cache, const Liveness *L,
               const SearchResult *r, const BcProgram *bc, const VmTest *test, double seconds) {
  if (cache) {
    Buf b;
    buf_init(&b);
    sc_save(cache, &b);
    ck_add_buf(c, "cache", &b);
  }
  ck_put_live(c, L);
  ck_put_common(o, c, r, bc, test, seconds);
  ck_commit(o, c);
  ck_fini(c);
}
