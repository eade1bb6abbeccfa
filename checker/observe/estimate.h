/* estimate.h: how big is what a search covers, online (doc/algorithms.md,
** "Estimating what is left": estimates are one observer that
** every search feeds, none keeps its own copy).  Three estimators:
**
** - EtaTree, for searches whose executions form a tree (random, pct, irs,
**   guided, ss): Eta's estimator over the tree of executions explored so
**   far.  est(u) = (mean of est(c) over u's visited children c) x (u's
**   number of children); a complete execution counts 1; est(root) is the
**   number of executions.  Exact on a balanced tree after one execution,
**   exact once every execution has been run.  Estimates are kept as base-2
**   logarithms (executions of thousands of steps have astronomically many
**   siblings).
** - EstSampler, for dfs, bfs and ses: the reachable states, by capture and
**   recapture (random walks' states found in the search's cache).
** - EstLayers, for ses's strata: the size of the stratum being searched
**   from the part of its entries done (its entries are a tree's root
**   children: Eta's estimator at the root), and the next stratum's by the
**   trend of the ratios of the strata so far.
**
** An estimate comes with its uncertainty as a factor: the true value is
** taken to lie within [est / f, est * f]. */
#ifndef PCHECK_ESTIMATE_H
#define PCHECK_ESTIMATE_H
#include <stddef.h>
#include <stdint.h>
#include "vm/vm.h"

/* ---- Eta's tree of executions ---- */

typedef struct EtaTree EtaTree;

/* A tree that keeps at most max_nodes nodes (0: a default of 256K); past it,
** an execution is kept down to where it leaves the known tree, the rest
** of it as one leaf with the product of its branching factors (Knuth's
** estimate of that subtree). */
EtaTree *eta_new(uint64_t max_nodes);
void eta_free(EtaTree *t);
/* An execution begins at the root. */
void eta_begin(EtaTree *t);
/* At the current node, nkids choices were open (at least 1) and pick
** (< nkids) was taken.  A node met again with another nkids keeps the
** first (the tree of a deterministic model has one). */
void eta_step(EtaTree *t, uint32_t nkids, uint32_t pick);
/* The execution ended here: update the estimates along its branch. */
void eta_end(EtaTree *t);
/* Executions recorded elsewhere (another thread, another rank), in
** order: per execution a u32 n, then n pairs of u32 (nkids, pick), each
** fed as eta_begin, n eta_steps, eta_end.  len: the bytes at dec. */
void eta_feed(EtaTree *t, const uint8_t *dec, size_t len);
/* log2 of the estimated number of executions (0 before the first one). */
double eta_log2(const EtaTree *t);
/* Executions fed, and distinct executions among them. */
uint64_t eta_executions(const EtaTree *t);
uint64_t eta_distinct(const EtaTree *t);
/* Every execution of the tree has been run (each node's children all
** visited, no execution kept as a Knuth leaf). */
int eta_exhausted(const EtaTree *t);

/* ---- Exhaustive searches: capture and recapture by random walks ---- */

/* The sampler takes random walks from the initial state (among the
** persistent set when the search reduces, so that it walks the graph the
** search explores) and keeps the distinct States they met (fingerprints).
** The fraction H/F of them the search's cache already holds estimates
** the fraction of the reachable states explored: estimate = states x F/H.
** Walks meet states that many paths lead to more often, and searches find
** those early: the estimate is low early in a run (bench/README.md,
** "Estimates"), exact once the search is complete. */
struct Reduction;
struct StateCache;
typedef struct EstSampler EstSampler;

EstSampler *sampler_new(const BcProgram *bc, const VmTest *test, const struct Reduction *red, uint64_t seed);
void sampler_free(EstSampler *s);
/* Walk while the walks have taken less than share (e.g. 0.02) of the
** elapsed seconds since the search began, or less than 20 ms (at most 64
** walks a call; a walk the time ran out in goes on at the next call). */
void sampler_walk(EstSampler *s, double elapsed, double share);
/* The estimated number of states the search will explore, with states
** explored so far and its cache; *factor: the sampling uncertainty (95%);
** -1 while fewer than 500 walk States are known (after fewer than 256
** walks: a small model has fewer) or none is in the cache,
** and for good once a walk was cut at 10,000 steps (the states past it
** are never sampled: an estimate would be too low). */
double sampler_estimate(EstSampler *s, struct StateCache *cache, uint64_t states, double *factor);
/* What a search calls from its periodic work (one thread): at most every
** fiftieth of the elapsed time (1 ms to 0.5 s), walk (2% of the time, 20
** ms at least) and estimate, then write the estimate
** into r (est_kind, est_log2, est_factor, est_done); between updates, the
** last one.  force: update now (the end of the search), after at most a
** quarter of a second of walks. */
struct SearchResult;
void sampler_update(EstSampler *s, struct StateCache *cache, uint64_t states, double elapsed, int force,
                    struct SearchResult *r);

/* The end of an exhaustive search (r's figures final): a complete one's
** estimate is its count, exactly; one that stopped without a bug gets a
** last estimate (no sampler or cache: none). */
void sampler_finish(EstSampler *s, struct StateCache *cache, double elapsed, struct SearchResult *r);

/* ---- Layers: bfs levels, ses strata ---- */

typedef struct EstLayers {
  double *size;              /* size[i]: states of finished layer i */
  uint32_t n, cap;
} EstLayers;

void layers_fini(EstLayers *l);
/* Layer number l->n finished with size states. */
void layers_add(EstLayers *l, double size);
/* The estimated size of the layer after the current one, whose size is
** cur_est (or, when cur_est < 0, after the last finished layer): the
** last size times the trend of the ratios of the last layers (their
** logarithms fitted by a line); -1 with fewer than 2 layers. */
double layers_next(const EstLayers *l, double cur_est);

/* log2(2^a + 2^b), with -INFINITY standing for log2(0): sums of
** estimates kept as logarithms. */
double est_lg_add(double a, double b);

/* ---- Reporting ---- */

/* 2^log2 as people read it: "31,416" up to 10^15, else "4.2e+40" (or
** "2^N" past double's range). */
void est_format(char *b, size_t n, double log2);
/* The fraction of the estimate covered (0 .. 1), or -1 when unknown. */
double est_fraction(double done, double log2);

#endif
