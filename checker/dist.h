/* dist.h: the searches that run on several MPI ranks (ranks.h).  A search
** whose process is one of several ranks calls its distributed twin here;
** every rank calls it alike and gets the same result (only rank 0 prints
** and writes it).  Built only with HAVE_MPI. */
#ifndef PCHECK_DIST_H
#define PCHECK_DIST_H
#include "checker/search.h"

/* Exhaustive search level by level with States partitioned among the
** ranks by fingerprint (search_dist.c): bfs's order, its cycle proviso
** and its counts.  As a SearchOps run (no log). */
int dist_levels(const BcProgram *bc, const VmTest *test, const SearchOptions *o, SearchResult *res);

#endif
