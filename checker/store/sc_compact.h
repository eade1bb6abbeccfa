/* sc_compact.h: the compact state cache (SC_COMPACT), for statecache.c.
** The search sees it only through statecache.h; these functions carry the
** same contracts as their sc_* counterparts there (exact set of 64-bit
** fingerprints, SC_NEW / SC_SEEN / SC_FULL, safe for concurrent callers
** unless cc_set_single_thread promised one thread).  The design and why it
** was chosen are in sc_compact.c's top comment. */
#ifndef PCHECK_SC_COMPACT_H
#define PCHECK_SC_COMPACT_H
#include <stddef.h>
#include <stdint.h>
#include "checker/store/statecache.h"
#include "vm/util.h"

typedef struct Compact Compact;

/* A cache whose table takes at most budget bytes (cc_bytes adds the
** cache's own 1.2 KB); NULL if not even the smallest table fits or mmap
** fails.  The caller owns it and frees it with cc_free. */
Compact *cc_new(uint64_t budget);
void cc_free(Compact *c);
void cc_set_single_thread(Compact *c, int single);
ScResult cc_insert(Compact *c, uint64_t fp);
void cc_prefetch(Compact *c, uint64_t fp);
int cc_contains(Compact *c, uint64_t fp);
/* Fingerprints of a not in b; neither may be written meanwhile. */
uint64_t cc_count_absent(Compact *a, Compact *b);
uint64_t cc_count(const Compact *c);
uint64_t cc_bytes(const Compact *c);
uint64_t cc_refused(const Compact *c);
int cc_is_full(const Compact *c);
/* Append the table, slot for slot, and its bookkeeping (geometry, counts
** per lane, refused, full, crowded) to out; no thread may use c meanwhile.
** The layout is in sc_compact.c. */
void cc_save(const Compact *c, Buf *out);
/* A cache holding what cc_save wrote into (data, len) for a cache of
** saved_budget, so that every later operation answers as on the saved
** cache, now under budget (which its table must fit).  NULL, with a
** message in err, if the bytes are not one (cut short, a geometry
** saved_budget would not make, a line no insert could have written,
** counts that disagree with the table), the table does not fit budget, or
** it cannot be mapped.  The caller owns it and frees it with cc_free. */
Compact *cc_load(uint64_t saved_budget, uint64_t budget, const uint8_t *data, size_t len, Buf *err);
/* For tests: tables of 2^bbits buckets or more get 4-slot buckets (as from
** 2^24 on) even where 5-slot ones would fit, so that a small table's
** growth meets the change of bucket size.  Call before any insert. */
void cc_test_four_slots_from(Compact *c, unsigned bbits);

#endif
