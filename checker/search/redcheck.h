/* redcheck.h: --check-reduction, an oracle beside the partial-order
** reduction (doc/reduction.md, "The oracle").  A reduced search is run
** with redcheck_attach: every State it enters is seen, and the observable
** local states of those States (vm_local_states: every spec's record,
** every machine's record without its inbox) are kept as a set of hashes.
** redcheck_compare then searches the same test again with no reduction,
** every interleaving (dfs, which looks for hot cycles as dfs, ses and the
** portfolio do; bfs for bfs and pb, which do not), and compares:
**   - a reduced search that completed without a bug: the full search must
**     find no bug (a reachable bug the reduction skipped is the failure
**     this oracle exists for), and every local state the full search
**     reaches must be one the reduced search reached;
**   - a reduced search that found a bug or stopped early: nothing it
**     claimed can be contradicted; the line says so.
** Ownership: a RedCheck owns its set and its Vm; it borrows the program
** and the test, which must outlive it.  One thread. */
#ifndef PCHECK_REDCHECK_H
#define PCHECK_REDCHECK_H
#include <stdio.h>
#include "checker/search/search.h"

typedef struct RedCheck RedCheck;

RedCheck *redcheck_new(const BcProgram *bc, const VmTest *test);
void redcheck_free(RedCheck *c);

/* Set so's visit hook to collect the local states of the States the search
** enters: only for a search that calls it (SEARCH_VISITS: dfs, bfs and ses
** on one thread); the others are compared by verdict only. */
void redcheck_attach(RedCheck *c, SearchOptions *so);

/* After the reduced search `name` (options so, result reduced) ended: the full
** search and the comparison, one line on out ("check-reduction: ...").
** Returns 0 when they agree or nothing can be compared, 1 when they
** disagree (the line says how: the bug the full search found, or how
** many local states the reduced search missed), -1 on an internal error
** of the full search. */
int redcheck_compare(RedCheck *c, const BcProgram *bc, const VmTest *test, const SearchOptions *so,
                     const char *name, const SearchResult *reduced, FILE *out);

#endif
