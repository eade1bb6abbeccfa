/* coverage.c: coverage reports (checker/observe/coverage.h, doc/coverage.md).
** Building reads the VM's marks once, at the end of a test; everything
** after works on names, so that reports of different runs, tests and
** builds of a model can be merged. */
#include <config.h>
#include "checker/observe/coverage.h"
#include "checker/base/json.h"
#include "checker/observe/schedcov.h"
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------------- */
/* Building from the marks.                                                */

static const char *handler_names[] = { "none", "do", "goto", "defer", "ignore" };
/* JSON member names of the VmCovKind flags, in VmCovKind order. */
static const char *kind_names[VCOV_NKINDS] = { "handled", "received", "deferred", "ignored", "sent" };

/* A heap copy of s, or NULL for NULL (a place without a file). */
static char *dupstr(const char *s) { return s ? xstrdup(s) : NULL; }

/* Add a copy of name to the list (*list, *n) unless it holds it already. */
static void add_name(char ***list, uint32_t *n, const char *name) {
  for (uint32_t k = 0; k < *n; k++)
    if (strcmp((*list)[k], name) == 0) return;
  *list = xrealloc(*list, (*n + 1) * sizeof(char *));
  (*list)[(*n)++] = xstrdup(name);
}

/* qsort, for arrays that may be empty and NULL (qsort's base must not be). */
static void sort_n(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *)) {
  if (n > 1) qsort(base, n, size, cmp);
}

/* A report place from a program place (file copied); no place when the
** program has none (line 0) or the file index is out of range. */
static CovSrc src_of(const BcProgram *bc, BcSrc s) {
  CovSrc c = { NULL, s.line, s.col };
  if (s.line && s.file < bc->nfiles) c.file = xstrdup(bc->files[s.file]);
  else c.line = c.col = 0;
  return c;
}

/* The name of event slot e: an event of the program, or "null" for the
** slot past them (the null handler's). */
static const char *event_name(const BcProgram *bc, uint32_t e) {
  return e < bc->nevents ? bc->event_names[e] : "null";
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }
/* qsort orders: events and machines by name. */
static int cmp_event(const void *a, const void *b) {
  return strcmp(((const CovEvent *)a)->event, ((const CovEvent *)b)->event);
}
static int cmp_machine(const void *a, const void *b) {
  return strcmp(((const CovMachine *)a)->name, ((const CovMachine *)b)->name);
}
/* Sites in source order: file, line, column, then what they are. */
static int cmp_site(const void *a, const void *b) {
  const CovSite *x = a, *y = b;
  int c = strcmp(x->src.file ? x->src.file : "", y->src.file ? y->src.file : "");
  if (c) return c;
  if (x->src.line != y->src.line) return x->src.line < y->src.line ? -1 : 1;
  if (x->src.col != y->src.col) return x->src.col < y->src.col ? -1 : 1;
  c = strcmp(x->function ? x->function : "", y->function ? y->function : "");
  if (c) return c;
  return strcmp(x->event ? x->event : "", y->event ? y->event : "");
}

/* State s of type m: entered, its events, its gotos. */
static void build_state(CovState *cs, const BcProgram *bc, const VmCov *cov, uint16_t m, uint16_t s) {
  const BcMachine *bm = &bc->machines[m];
  const BcState *st = &bm->states[s];
  cs->name = xstrdup(st->name);
  cs->src = src_of(bc, st->src);
  cs->entered = cov->hit[vm_cov_state(cov, m, s)];
  cs->events = xcalloc(cov->nevents, sizeof(CovEvent));
  for (uint32_t e = 0; e < cov->nevents; e++) {
    CovEvent ce = {0};
    int any = 0;
    for (int k = 0; k < VCOV_NKINDS; k++) {
      ce.seen[k] = cov->hit[vm_cov_event(cov, bc, m, (VmCovKind)k, s, e)];
      any |= ce.seen[k];
    }
    ce.handler = st->handlers[e].kind;
    if (ce.handler == CH_NONE && !any) continue;
    ce.event = xstrdup(event_name(bc, e));
    if (st->handler_src) ce.src = src_of(bc, st->handler_src[e]);
    cs->events[cs->nevents++] = ce;
  }
  sort_n(cs->events, cs->nevents, sizeof(CovEvent), cmp_event);
  for (uint16_t t = 0; t < bm->nstates; t++)
    if (cov->hit[vm_cov_goto(cov, bc, m, s, t)]) {
      cs->next = xrealloc(cs->next, (cs->nnext + 1) * sizeof(char *));
      cs->next[cs->nnext++] = xstrdup(bm->states[t].name);
    }
  sort_n(cs->next, cs->nnext, sizeof(char *), cmp_str);
}

/* A site in function fun: its machine (NULL for a global function). */
static CovSite site_in(const BcProgram *bc, int32_t fun, BcSrc src, const char *event, int reached) {
  CovSite s = {0};
  if (fun >= 0 && (uint32_t)fun < bc->nfuns) {
    s.function = xstrdup(bc->funs[fun].name);
    if (bc->funs[fun].owner >= 0) s.machine = xstrdup(bc->machines[bc->funs[fun].owner].name);
  }
  s.event = dupstr(event);
  s.src = src_of(bc, src);
  s.reached = reached;
  return s;
}

static const char *crit_names[SC_NCRIT] = { "PR", "PCR", "PBR" };

/* Schedule goals in report order: criterion, machine type, then the two
** identities (so that a reverse pair is found by bsearch). */
static int cmp_covpair(const void *x, const void *y) {
  const CovPair *p = x, *q = y;
  if (p->crit != q->crit) return p->crit < q->crit ? -1 : 1;
  int c = strcmp(p->machine, q->machine);
  if (c) return c;
  if (p->a != q->a) return p->a < q->a ? -1 : 1;
  if (p->b != q->b) return p->b < q->b ? -1 : 1;
  return 0;
}

/* The goals sched saw, named by machine type. */
static void build_pairs(CovReport *r, const BcProgram *bc, const struct SchedCov *sched) {
  uint32_t n;
  SchedPair *ps = schedcov_pairs((struct SchedCov *)sched, &n);
  r->sched_measured = 1;
  r->pairs = xcalloc(n ? n : 1, sizeof(CovPair));
  for (uint32_t i = 0; i < n; i++)
    r->pairs[r->npairs++] = (CovPair){ xstrdup(bc->machines[ps[i].type].name), ps[i].a, ps[i].b, ps[i].crit };
  sort_n(r->pairs, r->npairs, sizeof(CovPair), cmp_covpair);
  free(ps);
}

/* Every machine and spec type but explorers, every receive case and assert
** of the program, whether reached or not: a report lists what was not. */
void cov_report_build(CovReport *r, const BcProgram *bc, const VmCov *cov, const struct SchedCov *sched,
                      const char *test) {
  memset(r, 0, sizeof *r);
  r->tests = xcalloc(1, sizeof(char *));
  r->tests[r->ntests++] = xstrdup(test);
  r->machines = xcalloc(bc->nmachines ? bc->nmachines : 1, sizeof(CovMachine));
  for (uint16_t m = 0; m < bc->nmachines; m++) {
    const BcMachine *bm = &bc->machines[m];
    if (bm->is_explorer) continue;
    CovMachine *cm = &r->machines[r->nmachines++];
    cm->name = xstrdup(bm->name);
    cm->spec = bm->is_spec;
    cm->created = cov->hit[cov->base[m]];
    cm->nstates = bm->nstates;
    cm->states = xcalloc(bm->nstates ? bm->nstates : 1, sizeof(CovState));
    for (uint16_t s = 0; s < bm->nstates; s++) build_state(&cm->states[s], bc, cov, m, s);
  }
  sort_n(r->machines, r->nmachines, sizeof(CovMachine), cmp_machine);
  for (uint32_t i = 0; i < bc->nrecvs; i++) r->nreceives += bc->recvs[i].ncases;
  r->receives = xcalloc(r->nreceives ? r->nreceives : 1, sizeof(CovSite));
  uint32_t k = 0;
  for (uint32_t i = 0; i < bc->nrecvs; i++)
    for (uint16_t c = 0; c < bc->recvs[i].ncases; c++)
      r->receives[k++] = site_in(bc, bc->recvs[i].fun, bc->recvs[i].cases[c].src,
                                 event_name(bc, bc->recvs[i].cases[c].event), cov->hit[cov->recv_base[i] + c]);
  sort_n(r->receives, r->nreceives, sizeof(CovSite), cmp_site);
  r->nasserts = bc->nasserts;
  r->asserts = xcalloc(r->nasserts ? r->nasserts : 1, sizeof(CovSite));
  for (uint32_t a = 0; a < bc->nasserts; a++)
    r->asserts[a] = site_in(bc, bc->asserts[a].fun, bc->asserts[a].src, NULL, cov->hit[cov->asserts + a]);
  sort_n(r->asserts, r->nasserts, sizeof(CovSite), cmp_site);
  if (sched && schedcov_executions((struct SchedCov *)sched)) build_pairs(r, bc, sched);
}

/* Free what a site, a state, a report own (their strings and arrays). */
static void site_fini(CovSite *s) {
  free(s->machine);
  free(s->function);
  free(s->event);
  free(s->src.file);
}

/* A state owns its name, its place's file, its events' names and files,
** and the names of the states its gotos lead to. */
static void state_fini(CovState *s) {
  free(s->name);
  free(s->src.file);
  for (uint32_t e = 0; e < s->nevents; e++) {
    free(s->events[e].event);
    free(s->events[e].src.file);
  }
  free(s->events);
  for (uint32_t t = 0; t < s->nnext; t++) free(s->next[t]);
  free(s->next);
}

/* Everything the report owns, whether cov_report_build, cov_from_json or
** cov_merge made it; r is zeroed and may be built again. */
void cov_report_fini(CovReport *r) {
  for (uint32_t i = 0; i < r->ntests; i++) free(r->tests[i]);
  free(r->tests);
  for (uint32_t m = 0; m < r->nmachines; m++) {
    for (uint32_t s = 0; s < r->machines[m].nstates; s++) state_fini(&r->machines[m].states[s]);
    free(r->machines[m].states);
    free(r->machines[m].name);
  }
  free(r->machines);
  for (uint32_t i = 0; i < r->nreceives; i++) site_fini(&r->receives[i]);
  free(r->receives);
  for (uint32_t i = 0; i < r->nasserts; i++) site_fini(&r->asserts[i]);
  free(r->asserts);
  for (uint32_t i = 0; i < r->npairs; i++) free(r->pairs[i].machine);
  free(r->pairs);
  memset(r, 0, sizeof *r);
}

/* ---------------------------------------------------------------------- */
/* Counting and the summary line.                                          */

/* The machine type called name in r, or NULL (reports are small: a scan). */
static const CovMachine *find_machine(const CovReport *r, const char *name) {
  for (uint32_t m = 0; m < r->nmachines; m++)
    if (strcmp(r->machines[m].name, name) == 0) return &r->machines[m];
  return NULL;
}

/* Does the site count: its code belongs to a machine type that was
** created, or to a global function (which any machine may call)? */
static int site_counts(const CovReport *r, const CovSite *s) {
  if (!s->machine) return 1;
  const CovMachine *m = find_machine(r, s->machine);
  return m && m->created;
}

/* A handler in the summary's sense: a do or goto handler (defer and
** ignore run no code). */
static int is_handler(const CovEvent *e) { return e->handler == CH_DO || e->handler == CH_GOTO; }

/* Count over created types only: states, their do/goto handlers, and the
** receive cases and asserts of their code and of global functions. */
void cov_counts(const CovReport *r, CovCounts *c) {
  memset(c, 0, sizeof *c);
  for (uint32_t m = 0; m < r->nmachines; m++) {
    const CovMachine *cm = &r->machines[m];
    if (!cm->created) continue;
    for (uint32_t s = 0; s < cm->nstates; s++) {
      const CovState *cs = &cm->states[s];
      c->states++;
      c->states_entered += cs->entered != 0;
      for (uint32_t e = 0; e < cs->nevents; e++)
        if (is_handler(&cs->events[e])) {
          c->handlers++;
          c->handlers_run += cs->events[e].seen[VCOV_HANDLED] != 0;
        }
    }
  }
  for (uint32_t i = 0; i < r->nreceives; i++)
    if (site_counts(r, &r->receives[i])) {
      c->handlers++;
      c->handlers_run += r->receives[i].reached != 0;
    }
  for (uint32_t i = 0; i < r->nasserts; i++)
    if (site_counts(r, &r->asserts[i])) {
      c->asserts++;
      c->asserts_run += r->asserts[i].reached != 0;
    }
}

/* " (file:line)" when src has a place; short: the file's last component. */
static void put_src_as(Buf *out, const CovSrc *src, int short_name) {
  if (!src->file || !src->line) return;
  const char *f = src->file, *slash = strrchr(f, '/');
  buf_printf(out, " (%s:%u)", short_name && slash ? slash + 1 : f, src->line);
}
static void put_src(Buf *out, const CovSrc *src) { put_src_as(out, src, 0); }

/* The summary names at most this many things never run. */
enum { SUMMARY_NAMES = 3 };

/* Append to out the first things never run (handlers, then receive cases,
** then states never entered, then asserts never evaluated), up to
** SUMMARY_NAMES, then how many more; *shown counts what was named. */
static void name_unrun(const CovReport *r, Buf *out, uint32_t *shown, uint32_t *more) {
  for (int pass = 0; pass < 4; pass++) {
    for (uint32_t m = 0; pass != 1 && pass != 3 && m < r->nmachines; m++) {
      const CovMachine *cm = &r->machines[m];
      if (!cm->created) continue;
      for (uint32_t s = 0; s < cm->nstates; s++) {
        const CovState *cs = &cm->states[s];
        if (pass == 2) {
          if (cs->entered) continue;
          if (*shown < SUMMARY_NAMES) {
            buf_printf(out, "%sstate %s.%s", *shown ? ", " : "", cm->name, cs->name);
            put_src_as(out, &cs->src, 1);
            ++*shown;
          } else ++*more;
          continue;
        }
        for (uint32_t e = 0; e < cs->nevents; e++) {
          const CovEvent *ce = &cs->events[e];
          if (!is_handler(ce) || ce->seen[VCOV_HANDLED]) continue;
          if (*shown < SUMMARY_NAMES) {
            buf_printf(out, "%s%s.%s on %s", *shown ? ", " : "", cm->name, cs->name, ce->event);
            put_src_as(out, &ce->src, 1);
            ++*shown;
          } else ++*more;
        }
      }
    }
    const CovSite *sites = pass == 1 ? r->receives : r->asserts;
    uint32_t n = pass == 1 ? r->nreceives : pass == 3 ? r->nasserts : 0;
    for (uint32_t i = 0; i < n; i++) {
      if (sites[i].reached || !site_counts(r, &sites[i])) continue;
      if (*shown < SUMMARY_NAMES) {
        if (pass == 1) buf_printf(out, "%sreceive case %s in %s", *shown ? ", " : "", sites[i].event, sites[i].function);
        else buf_printf(out, "%sassert in %s", *shown ? ", " : "", sites[i].function ? sites[i].function : "?");
        put_src_as(out, &sites[i].src, 1);
        ++*shown;
      } else ++*more;
    }
  }
}

/* The counts, then up to SUMMARY_NAMES things never run with short places,
** and how many more the full report lists. */
void cov_summary(const CovReport *r, Buf *out) {
  CovCounts c;
  cov_counts(r, &c);
  buf_printf(out, "coverage: %u/%u states, %u/%u handlers, %u/%u asserts", c.states_entered, c.states, c.handlers_run,
             c.handlers, c.asserts_run, c.asserts);
  Buf names;
  buf_init(&names);
  uint32_t shown = 0, more = 0;
  name_unrun(r, &names, &shown, &more);
  if (shown) {
    buf_printf(out, "; never run: %s", names.data);
    if (more) buf_printf(out, " and %u more (--coverage lists them)", more);
  }
  buf_fini(&names);
}

/* Is the reverse of pair p among r's pairs (sorted)? */
static int has_reverse(const CovReport *r, const CovPair *p) {
  CovPair key = { p->machine, p->b, p->a, p->crit };
  return bsearch(&key, r->pairs, r->npairs, sizeof(CovPair), cmp_covpair) != NULL;
}

/* Each ordered pair seen is one covered goal; each unordered pair seen in
** either order is two goals (both orders), counted once. */
void cov_sched_counts(const CovReport *r, const char *machine, uint32_t goals[3], uint32_t covered[3]) {
  for (int c = 0; c < SC_NCRIT; c++) goals[c] = covered[c] = 0;
  for (uint32_t i = 0; i < r->npairs; i++) {
    const CovPair *p = &r->pairs[i];
    if (machine && strcmp(p->machine, machine) != 0) continue;
    covered[p->crit]++;
    /* A pair seen in one order: two goals; seen in both: counted once. */
    if (!has_reverse(r, p)) goals[p->crit] += 2;
    else if (p->a < p->b) goals[p->crit] += 2;
  }
}

/* The schedule coverage line; it says when nothing measured it (an
** exhaustive search runs no executions). */
void cov_sched_summary(const CovReport *r, Buf *out) {
  if (!r->sched_measured) {
    buf_puts(out, "schedule coverage: not measured (it needs executions: random, irs, pct, ss, bita, "
                  "or the portfolio's sampling members)");
    return;
  }
  uint32_t g[3], c[3];
  cov_sched_counts(r, NULL, g, c);
  buf_printf(out, "schedule coverage: PR %u/%u goals, PCR %u/%u, PBR %u/%u", c[SC_PR], g[SC_PR], c[SC_PCR], g[SC_PCR],
             c[SC_PBR], g[SC_PBR]);
}

/* ---------------------------------------------------------------------- */
/* P's text layout.                                                        */

/* P's header: the text, then a line of '=' as long (bytes, as P counts
** characters of ASCII names). */
static void header(Buf *out, const char *text) {
  size_t n = strlen(text);
  buf_printf(out, "%s\n", text);
  for (size_t i = 0; i < n; i++) buf_putc(out, '=');
  buf_putc(out, '\n');
}

/* P's percentages: one decimal, "100.0" when nothing is expected. */
static void percent(Buf *out, uint32_t covered, uint32_t total) {
  if (!total) buf_puts(out, "100.0");
  else buf_printf(out, "%.1f", covered * 100.0 / total);
}

/* P's expected events of a state are those it has a do or goto handler
** for; one is covered when the state took it (handler or receive). */
static int expected(const CovEvent *e) { return is_handler(e); }
static int took(const CovEvent *e) { return e->seen[VCOV_HANDLED] || e->seen[VCOV_RECEIVED]; }

/* Add the expected events of s to *total, and those it took to *covered. */
static void count_events(const CovState *s, uint32_t *total, uint32_t *covered) {
  for (uint32_t e = 0; e < s->nevents; e++)
    if (expected(&s->events[e])) {
      ++*total;
      *covered += took(&s->events[e]) != 0;
    }
}

/* ", "-separated names of the events of s that pass `want`, or nothing. */
static void event_line(Buf *out, const char *label, const CovState *s, int (*want)(const CovEvent *)) {
  int n = 0;
  for (uint32_t e = 0; e < s->nevents; e++) {
    if (!want(&s->events[e])) continue;
    buf_printf(out, "%s%s", n++ ? ", " : label, s->events[e].event);
  }
  if (n) buf_putc(out, '\n');
}
/* event_line filters: which events each line of P's layout lists. */
static int w_received(const CovEvent *e) { return took(e); }
static int w_sent(const CovEvent *e) { return e->seen[VCOV_SENT]; }
static int w_uncovered(const CovEvent *e) { return expected(e) && !took(e); }
static int w_deferred(const CovEvent *e) { return e->seen[VCOV_DEFERRED]; }
static int w_ignored(const CovEvent *e) { return e->seen[VCOV_IGNORED]; }

/* The states of machine m with a goto to state `to`, sorted (names borrowed). */
static uint32_t previous_states(const CovMachine *m, const char *to, const char **out) {
  uint32_t n = 0;
  for (uint32_t s = 0; s < m->nstates; s++)
    for (uint32_t t = 0; t < m->states[s].nnext; t++)
      if (strcmp(m->states[s].next[t], to) == 0) { out[n++] = m->states[s].name; break; }
  sort_n(out, n, sizeof(char *), cmp_str);
  return n;
}

/* One state in P's layout (a blank line, "State: S", its coverage and
** lists), then pcheck's lines; scratch holds m->nstates names. */
static void text_state(Buf *out, const CovMachine *m, const CovState *s, const char **scratch) {
  uint32_t total = 0, covered = 0;
  count_events(s, &total, &covered);
  buf_printf(out, "\n\tState: %s%s\n", s->name, total > 0 && covered == 0 ? " is uncovered" : "");
  if (!total) buf_puts(out, "\t\tState has no expected events, so coverage is 100%\n");
  else if (covered) {
    buf_puts(out, "\t\tState event coverage: ");
    percent(out, covered, total);
    buf_puts(out, "%\n");
  }
  event_line(out, "\t\tEvents received: ", s, w_received);
  event_line(out, "\t\tEvents sent: ", s, w_sent);
  event_line(out, "\t\tEvents not covered: ", s, w_uncovered);
  uint32_t np = previous_states(m, s->name, scratch);
  for (uint32_t i = 0; i < np; i++) buf_printf(out, "%s%s", i ? ", " : "\t\tPrevious states: ", scratch[i]);
  if (np) buf_putc(out, '\n');
  for (uint32_t i = 0; i < s->nnext; i++) buf_printf(out, "%s%s", i ? ", " : "\t\tNext states: ", s->next[i]);
  if (s->nnext) buf_putc(out, '\n');
  /* pcheck's additions to P's lines. */
  if (!s->entered) buf_puts(out, "\t\tNever entered\n");
  event_line(out, "\t\tEvents deferred: ", s, w_deferred);
  event_line(out, "\t\tEvents ignored: ", s, w_ignored);
}

/* Sites never reached, under a header, or nothing. */
static void text_sites(Buf *out, const CovReport *r, const CovSite *sites, uint32_t n, const char *title) {
  int any = 0;
  for (uint32_t i = 0; i < n; i++) {
    if (sites[i].reached || !site_counts(r, &sites[i])) continue;
    if (!any++) header(out, title);
    buf_printf(out, "\t%s in %s", sites[i].event ? sites[i].event : "assert", sites[i].function ? sites[i].function : "?");
    put_src(out, &sites[i].src);
    buf_putc(out, '\n');
  }
  if (any) buf_putc(out, '\n');
}

/* The schedule coverage section: per receiving machine type, the goals of
** each criterion covered, then the total. */
static void text_sched(Buf *out, const CovReport *r) {
  if (!r->sched_measured) return;
  header(out, "Schedule coverage (Bita: pairs of receives by one machine, both orders)");
  /* The receiving machine types, once each, sorted (names borrowed). */
  const char **names = xcalloc(r->npairs ? r->npairs : 1, sizeof(char *));
  uint32_t n = 0;
  for (uint32_t i = 0; i < r->npairs; i++)
    if (!n || strcmp(names[n - 1], r->pairs[i].machine) != 0) names[n++] = r->pairs[i].machine;
  sort_n(names, n, sizeof(char *), cmp_str);
  for (uint32_t i = 0; i < n; i++) {
    if (i && strcmp(names[i], names[i - 1]) == 0) continue;
    uint32_t g[3], c[3];
    cov_sched_counts(r, names[i], g, c);
    buf_printf(out, "\t%s: PR %u/%u, PCR %u/%u, PBR %u/%u\n", names[i], c[SC_PR], g[SC_PR], c[SC_PCR], g[SC_PCR],
               c[SC_PBR], g[SC_PBR]);
  }
  free(names);
  Buf line;
  buf_init(&line);
  cov_sched_summary(r, &line);
  buf_printf(out, "\tall machines: %s\n\n", line.data + strlen("schedule coverage: "));
  buf_fini(&line);
}

/* Total event coverage over created types, each created type in name order
** (specs as "Monitor:"), then the types never created and what never ran. */
void cov_text(const CovReport *r, Buf *out) {
  uint32_t total = 0, covered = 0, maxstates = 1;
  for (uint32_t m = 0; m < r->nmachines; m++) {
    if (!r->machines[m].created) continue;
    for (uint32_t s = 0; s < r->machines[m].nstates; s++) count_events(&r->machines[m].states[s], &total, &covered);
    if (r->machines[m].nstates > maxstates) maxstates = r->machines[m].nstates;
  }
  const char **scratch = xcalloc(maxstates, sizeof(char *));
  Buf h;
  buf_init(&h);
  buf_puts(&h, "Total event coverage: ");
  percent(&h, covered, total);
  buf_puts(&h, "%");
  header(out, h.data);
  for (uint32_t m = 0; m < r->nmachines; m++) {
    const CovMachine *cm = &r->machines[m];
    if (!cm->created) continue;
    h.len = 0;
    buf_printf(&h, "%s: %s", cm->spec ? "Monitor" : "StateMachine", cm->name);
    header(out, h.data);
    uint32_t mt = 0, mc = 0;
    for (uint32_t s = 0; s < cm->nstates; s++) count_events(&cm->states[s], &mt, &mc);
    buf_puts(out, "Event coverage: ");
    percent(out, mc, mt);
    buf_puts(out, "%\n");
    for (uint32_t s = 0; s < cm->nstates; s++) text_state(out, cm, &cm->states[s], scratch);
    buf_putc(out, '\n');
  }
  free(scratch);
  int never = 0;
  for (uint32_t m = 0; m < r->nmachines; m++)
    if (!r->machines[m].created)
      buf_printf(out, "%s%s", never++ ? ", " : "Machine types never created (not counted above): ", r->machines[m].name);
  if (never) buf_puts(out, "\n\n");
  /* Handlers never run, with their places. */
  int any = 0;
  for (uint32_t m = 0; m < r->nmachines; m++) {
    const CovMachine *cm = &r->machines[m];
    if (!cm->created) continue;
    for (uint32_t s = 0; s < cm->nstates; s++)
      for (uint32_t e = 0; e < cm->states[s].nevents; e++) {
        const CovEvent *ce = &cm->states[s].events[e];
        if (!is_handler(ce) || ce->seen[VCOV_HANDLED]) continue;
        if (!any++) header(out, "Handlers never run");
        buf_printf(out, "\t%s.%s on %s", cm->name, cm->states[s].name, ce->event);
        put_src(out, &ce->src);
        buf_putc(out, '\n');
      }
  }
  if (any) buf_putc(out, '\n');
  text_sites(out, r, r->receives, r->nreceives, "Receive cases never taken");
  text_sites(out, r, r->asserts, r->nasserts, "Asserts never evaluated");
  text_sched(out, r);
  CovCounts c;
  cov_counts(r, &c);
  buf_printf(out, "States entered: %u/%u; handlers run: %u/%u; asserts evaluated: %u/%u\n", c.states_entered, c.states,
             c.handlers_run, c.handlers, c.asserts_run, c.asserts);
  buf_fini(&h);
}

/* ---------------------------------------------------------------------- */
/* JSON.                                                                   */

/* JSON writers: a string or null; a place as "file", "line", "col"; a
** site with its reached flag under the name `flag`. */
static void json_str(Buf *out, const char *s) {
  if (s) json_put_string(out, s, strlen(s));
  else buf_puts(out, "null");
}

/* The members are written bare, for the caller's object; a place without
** a file is "file": null with line and col 0. */
static void json_src(Buf *out, const CovSrc *s) {
  buf_puts(out, "\"file\": ");
  json_str(out, s->file);
  buf_printf(out, ", \"line\": %u, \"col\": %u", s->line, s->col);
}

/* One receive case ("event" set) or assert as an object; a global
** function's site has "machine": null. */
static void json_site(Buf *out, const CovSite *s, const char *flag) {
  buf_puts(out, "{\"machine\": ");
  json_str(out, s->machine);
  buf_puts(out, ", \"function\": ");
  json_str(out, s->function);
  if (s->event) {
    buf_puts(out, ", \"event\": ");
    json_str(out, s->event);
  }
  buf_puts(out, ", ");
  json_src(out, &s->src);
  buf_printf(out, ", \"%s\": %s}", flag, s->reached ? "true" : "false");
}

/* The layout of doc/coverage.md: machines, states and events, receive
** cases, asserts, schedule goals, and the counts (written, never read). */
void cov_json(const CovReport *r, Buf *out) {
  buf_puts(out, "{\n  \"format\": \"pcheck-coverage\",\n  \"version\": 1,\n  \"tests\": [");
  for (uint32_t i = 0; i < r->ntests; i++) {
    if (i) buf_puts(out, ", ");
    json_str(out, r->tests[i]);
  }
  buf_puts(out, "],\n  \"machines\": [");
  for (uint32_t m = 0; m < r->nmachines; m++) {
    const CovMachine *cm = &r->machines[m];
    buf_printf(out, "%s\n    {\"name\": ", m ? "," : "");
    json_str(out, cm->name);
    buf_printf(out, ", \"kind\": \"%s\", \"created\": %s, \"states\": [", cm->spec ? "spec" : "machine",
               cm->created ? "true" : "false");
    for (uint32_t s = 0; s < cm->nstates; s++) {
      const CovState *cs = &cm->states[s];
      buf_printf(out, "%s\n      {\"name\": ", s ? "," : "");
      json_str(out, cs->name);
      buf_puts(out, ", ");
      json_src(out, &cs->src);
      buf_printf(out, ", \"entered\": %s,\n       \"events\": [", cs->entered ? "true" : "false");
      for (uint32_t e = 0; e < cs->nevents; e++) {
        const CovEvent *ce = &cs->events[e];
        buf_printf(out, "%s\n        {\"event\": ", e ? "," : "");
        json_str(out, ce->event);
        buf_printf(out, ", \"handler\": \"%s\"", handler_names[ce->handler]);
        if (ce->src.file) {
          buf_puts(out, ", ");
          json_src(out, &ce->src);
        }
        for (int k = 0; k < VCOV_NKINDS; k++) buf_printf(out, ", \"%s\": %s", kind_names[k], ce->seen[k] ? "true" : "false");
        buf_putc(out, '}');
      }
      buf_puts(out, "],\n       \"next\": [");
      for (uint32_t t = 0; t < cs->nnext; t++) {
        if (t) buf_puts(out, ", ");
        json_str(out, cs->next[t]);
      }
      buf_puts(out, "]}");
    }
    buf_puts(out, "]}");
  }
  buf_puts(out, "],\n  \"receives\": [");
  for (uint32_t i = 0; i < r->nreceives; i++) {
    buf_puts(out, i ? ",\n    " : "\n    ");
    json_site(out, &r->receives[i], "taken");
  }
  buf_puts(out, "],\n  \"asserts\": [");
  for (uint32_t i = 0; i < r->nasserts; i++) {
    buf_puts(out, i ? ",\n    " : "\n    ");
    json_site(out, &r->asserts[i], "evaluated");
  }
  buf_printf(out, "],\n  \"schedule\": {\"measured\": %s, \"pairs\": [", r->sched_measured ? "true" : "false");
  for (uint32_t i = 0; i < r->npairs; i++) {
    buf_puts(out, i ? ",\n    {\"machine\": " : "\n    {\"machine\": ");
    json_str(out, r->pairs[i].machine);
    buf_printf(out, ", \"crit\": \"%s\", \"a\": \"%016" PRIx64 "\", \"b\": \"%016" PRIx64 "\"}",
               crit_names[r->pairs[i].crit], r->pairs[i].a, r->pairs[i].b);
  }
  CovCounts c;
  cov_counts(r, &c);
  buf_printf(out, "]},\n  \"summary\": {\"states\": %u, \"states_entered\": %u, \"handlers\": %u, \"handlers_run\": %u, "
             "\"asserts\": %u, \"asserts_evaluated\": %u}\n}\n", c.states, c.states_entered, c.handlers, c.handlers_run,
             c.asserts, c.asserts_run);
}

/* Reading JSON back: each helper reports the first thing that does not fit. */
typedef struct Rd {
  Buf *err;
  int bad;
} Rd;

/* Note the first problem only: "WHERE WHAT", e.g. "a state lacks a valid
** \"entered\"". */
static void rd_fail(Rd *rd, const char *what, const char *where) {
  if (rd->bad++) return;
  buf_printf(rd->err, "%s %s", where, what);
}

/* Member key of obj if it has that kind; else a failure and NULL.  The
** rd_* readers below return a neutral value after a failure. */
static const Json *rd_member(Rd *rd, const Json *obj, const char *key, JsonKind kind, const char *where) {
  const Json *j = obj && obj->kind == JSON_OBJECT ? json_get(obj, key) : NULL;
  if (!j || j->kind != kind) {
    Buf w;
    buf_init(&w);
    buf_printf(&w, "lacks a valid \"%s\"", key);
    rd_fail(rd, w.data, where);
    buf_fini(&w);
    return NULL;
  }
  return j;
}

/* Typed members: a heap copy of a string (NULL after a failure), a bool
** (0), a number that must fit in 32 bits unsigned (0 otherwise, with a
** failure); a fraction is dropped. */
static char *rd_string(Rd *rd, const Json *obj, const char *key, const char *where) {
  const Json *j = rd_member(rd, obj, key, JSON_STRING, where);
  return j ? xstrdup(j->str) : NULL;
}

static int rd_bool(Rd *rd, const Json *obj, const char *key, const char *where) {
  const Json *j = rd_member(rd, obj, key, JSON_BOOL, where);
  return j ? j->num != 0 : 0;
}

static uint32_t rd_uint(Rd *rd, const Json *obj, const char *key, const char *where) {
  const Json *j = rd_member(rd, obj, key, JSON_NUMBER, where);
  if (j && (j->num < 0 || j->num > 4294967295.0)) rd_fail(rd, "has a number out of range", where);
  return j && j->num >= 0 && j->num <= 4294967295.0 ? (uint32_t)j->num : 0;
}

/* A place: "file" may be null (no place). */
static CovSrc rd_src(Rd *rd, const Json *obj, const char *where) {
  CovSrc s = {0};
  const Json *f = obj->kind == JSON_OBJECT ? json_get(obj, "file") : NULL;
  if (f && f->kind == JSON_STRING) s.file = xstrdup(f->str);
  else if (f && f->kind != JSON_NULL) rd_fail(rd, "has a \"file\" that is not a string", where);
  if (s.file) {   /* a place: its line and column too (without a file, none is read) */
    s.line = rd_uint(rd, obj, "line", where);
    s.col = rd_uint(rd, obj, "col", where);
  }
  return s;
}

/* Readers of one event, one state, one site, each as cov_json writes it. */
static void rd_event(Rd *rd, const Json *j, CovEvent *e) {
  const char *where = "an event of a state";
  e->event = rd_string(rd, j, "event", where);
  char *h = rd_string(rd, j, "handler", where);
  e->handler = CH_NONE;
  int known = 0;
  for (int k = 0; h && k < 5; k++)
    if (strcmp(h, handler_names[k]) == 0) { e->handler = (uint8_t)k; known = 1; }
  if (h && !known) rd_fail(rd, "has an unknown \"handler\"", where);
  free(h);
  e->src = rd_src(rd, j, where);
  for (int k = 0; k < VCOV_NKINDS; k++) e->seen[k] = (uint8_t)rd_bool(rd, j, kind_names[k], where);
}

/* Name, place, entered, then the events (sorted by name, as
** cov_report_build sorts them, for the merge) and the gotos' targets
** (sorted); reading stops at the first event that fails. */
static void rd_state(Rd *rd, const Json *j, CovState *s) {
  const char *where = "a state";
  s->name = rd_string(rd, j, "name", where);
  s->src = rd_src(rd, j, where);
  s->entered = rd_bool(rd, j, "entered", where);
  const Json *ev = rd_member(rd, j, "events", JSON_ARRAY, where);
  if (ev) {
    s->events = xcalloc(ev->n ? ev->n : 1, sizeof(CovEvent));
    for (size_t i = 0; i < ev->n && !rd->bad; i++) rd_event(rd, ev->items[i], &s->events[s->nevents++]);
    if (!rd->bad) sort_n(s->events, s->nevents, sizeof(CovEvent), cmp_event);
  }
  const Json *nx = rd_member(rd, j, "next", JSON_ARRAY, where);
  if (nx) {
    s->next = xcalloc(nx->n ? nx->n : 1, sizeof(char *));
    for (size_t i = 0; i < nx->n; i++) {
      if (nx->items[i]->kind != JSON_STRING) { rd_fail(rd, "has a \"next\" that is not a string", where); break; }
      s->next[s->nnext++] = xstrdup(nx->items[i]->str);
    }
    if (!rd->bad) sort_n(s->next, s->nnext, sizeof(char *), cmp_str);
  }
}

/* "machine" must be a string or null (a global function's site); the
** event is read for receive cases only; flag names the reached member
** ("taken", "evaluated"). */
static void rd_site(Rd *rd, const Json *j, CovSite *s, const char *flag, int with_event, const char *where) {
  const Json *m = j->kind == JSON_OBJECT ? json_get(j, "machine") : NULL;
  if (m && m->kind == JSON_STRING) s->machine = xstrdup(m->str);
  else if (!m || m->kind != JSON_NULL) rd_fail(rd, "lacks a valid \"machine\"", where);
  s->function = rd_string(rd, j, "function", where);
  if (with_event) s->event = rd_string(rd, j, "event", where);
  s->src = rd_src(rd, j, where);
  s->reached = rd_bool(rd, j, flag, where);
}

/* The array root[key] of sites (receive cases or asserts), sorted. */
static void rd_sites(Rd *rd, const Json *root, const char *key, const char *flag, CovSite **out, uint32_t *n) {
  const Json *a = rd_member(rd, root, key, JSON_ARRAY, "the file");
  *out = xcalloc(a && a->n ? a->n : 1, sizeof(CovSite));
  *n = 0;
  const char *where = strcmp(key, "receives") == 0 ? "a receive case" : "an assert";
  for (size_t i = 0; a && i < a->n && !rd->bad; i++)
    rd_site(rd, a->items[i], &(*out)[(*n)++], flag, strcmp(key, "receives") == 0, where);
  if (!rd->bad) sort_n(*out, *n, sizeof(CovSite), cmp_site);
}

/* A 16-digit hexadecimal identity. */
static uint64_t rd_hex(Rd *rd, const Json *obj, const char *key) {
  const Json *j = rd_member(rd, obj, key, JSON_STRING, "a schedule pair");
  if (!j) return 0;
  char *end;
  uint64_t v = strtoull(j->str, &end, 16);
  if (end == j->str || *end || strlen(j->str) != 16) rd_fail(rd, "has an identity that is not 16 hexadecimal digits", "a schedule pair");
  return v;
}

/* "schedule": {"measured", "pairs"}; a report without it measured none. */
static void rd_sched(Rd *rd, const Json *root, CovReport *r) {
  const Json *s = json_get(root, "schedule");
  if (!s) return;
  r->sched_measured = rd_bool(rd, s, "measured", "the schedule coverage");
  const Json *ps = rd_member(rd, s, "pairs", JSON_ARRAY, "the schedule coverage");
  if (!ps) return;
  r->pairs = xcalloc(ps->n ? ps->n : 1, sizeof(CovPair));
  for (size_t i = 0; i < ps->n && !rd->bad; i++) {
    const Json *j = ps->items[i];
    CovPair *p = &r->pairs[r->npairs++];
    p->machine = rd_string(rd, j, "machine", "a schedule pair");
    char *crit = rd_string(rd, j, "crit", "a schedule pair");
    int k = 0;
    while (crit && k < SC_NCRIT && strcmp(crit, crit_names[k]) != 0) k++;
    if (crit && k == SC_NCRIT) rd_fail(rd, "has an unknown \"crit\" (PR, PCR or PBR)", "a schedule pair");
    free(crit);
    p->crit = (uint8_t)(k < SC_NCRIT ? k : 0);
    p->a = rd_hex(rd, j, "a");
    p->b = rd_hex(rd, j, "b");
    if (!p->machine) p->machine = xstrdup("");
  }
  if (!rd->bad) sort_n(r->pairs, r->npairs, sizeof(CovPair), cmp_covpair);
}

/* Check the format and version first, so that another JSON file gets a
** message about what it is not rather than about a missing member. */
int cov_from_json(CovReport *r, const char *text, size_t len, Buf *err) {
  memset(r, 0, sizeof *r);
  Json *root = json_parse(text, len, err);
  if (!root) return -1;
  Rd rd = { err, 0 };
  const Json *fmt = root->kind == JSON_OBJECT ? json_get(root, "format") : NULL;
  if (!fmt || fmt->kind != JSON_STRING || strcmp(fmt->str, "pcheck-coverage") != 0) {
    buf_puts(err, "it has no \"format\": \"pcheck-coverage\"");
    json_free(root);
    return -1;
  }
  if (rd_uint(&rd, root, "version", "the file") != 1 && !rd.bad) rd_fail(&rd, "has a version this pcheck does not read (it reads 1)", "the file");
  const Json *tests = rd_member(&rd, root, "tests", JSON_ARRAY, "the file");
  if (tests) {
    r->tests = xcalloc(tests->n ? tests->n : 1, sizeof(char *));
    for (size_t i = 0; i < tests->n; i++)
      if (tests->items[i]->kind == JSON_STRING) r->tests[r->ntests++] = xstrdup(tests->items[i]->str);
  }
  const Json *ms = rd_member(&rd, root, "machines", JSON_ARRAY, "the file");
  if (ms) {
    r->machines = xcalloc(ms->n ? ms->n : 1, sizeof(CovMachine));
    for (size_t i = 0; i < ms->n && !rd.bad; i++) {
      const Json *j = ms->items[i];
      CovMachine *m = &r->machines[r->nmachines++];
      m->name = rd_string(&rd, j, "name", "a machine");
      char *kind = rd_string(&rd, j, "kind", "a machine");
      m->spec = kind && strcmp(kind, "spec") == 0;
      free(kind);
      m->created = rd_bool(&rd, j, "created", "a machine");
      const Json *st = rd_member(&rd, j, "states", JSON_ARRAY, "a machine");
      if (!st) continue;
      m->states = xcalloc(st->n ? st->n : 1, sizeof(CovState));
      for (size_t s = 0; s < st->n && !rd.bad; s++) rd_state(&rd, st->items[s], &m->states[m->nstates++]);
    }
    /* Sorted only when whole: a failed read leaves names NULL. */
    if (!rd.bad) sort_n(r->machines, r->nmachines, sizeof(CovMachine), cmp_machine);
  }
  if (!rd.bad) rd_sites(&rd, root, "receives", "taken", &r->receives, &r->nreceives);
  if (!rd.bad) rd_sites(&rd, root, "asserts", "evaluated", &r->asserts, &r->nasserts);
  if (!rd.bad) rd_sched(&rd, root, r);
  json_free(root);
  if (rd.bad) {
    cov_report_fini(r);
    return -1;
  }
  return 0;
}

/* ---------------------------------------------------------------------- */
/* Merging.                                                                */

/* Deep copies, for what only the report merged in has. */
static CovSrc src_copy(const CovSrc *s) { return (CovSrc){ dupstr(s->file), s->line, s->col }; }

/* The flags and handler kind as they are, the strings copied. */
static void event_copy(CovEvent *to, const CovEvent *from) {
  *to = *from;
  to->event = xstrdup(from->event);
  to->src = src_copy(&from->src);
}

/* A state of `from` that `into` lacks, with all its events and gotos. */
static void state_copy(CovState *to, const CovState *from) {
  memset(to, 0, sizeof *to);
  to->name = xstrdup(from->name);
  to->src = src_copy(&from->src);
  to->entered = from->entered;
  to->events = xcalloc(from->nevents ? from->nevents : 1, sizeof(CovEvent));
  for (uint32_t e = 0; e < from->nevents; e++) event_copy(&to->events[to->nevents++], &from->events[e]);
  to->next = xcalloc(from->nnext ? from->nnext : 1, sizeof(char *));
  for (uint32_t t = 0; t < from->nnext; t++) to->next[to->nnext++] = xstrdup(from->next[t]);
}

/* Unite the flags of the state's events and its gotos; an event only
** `from` lists is copied; a handler one side declares is kept. */
static void merge_state(CovState *into, const CovState *from) {
  into->entered |= from->entered;
  if (!into->src.file && from->src.file) into->src = src_copy(&from->src);
  for (uint32_t e = 0; e < from->nevents; e++) {
    const CovEvent *fe = &from->events[e];
    CovEvent *ie = NULL;
    for (uint32_t k = 0; k < into->nevents && !ie; k++)
      if (strcmp(into->events[k].event, fe->event) == 0) ie = &into->events[k];
    if (!ie) {
      into->events = xrealloc(into->events, (into->nevents + 1) * sizeof(CovEvent));
      event_copy(&into->events[into->nevents++], fe);
      continue;
    }
    if (ie->handler == CH_NONE) {   /* the other side's model declares a handler */
      ie->handler = fe->handler;
      if (!ie->src.file && fe->src.file) ie->src = src_copy(&fe->src);
    }
    for (int k = 0; k < VCOV_NKINDS; k++) ie->seen[k] |= fe->seen[k];
  }
  sort_n(into->events, into->nevents, sizeof(CovEvent), cmp_event);
  for (uint32_t t = 0; t < from->nnext; t++) add_name(&into->next, &into->nnext, from->next[t]);
  sort_n(into->next, into->nnext, sizeof(char *), cmp_str);
}

/* Unite states by name (a state only `from` has is copied). */
static void merge_machine(CovMachine *into, const CovMachine *from) {
  into->created |= from->created;
  for (uint32_t s = 0; s < from->nstates; s++) {
    CovState *is = NULL;
    for (uint32_t k = 0; k < into->nstates && !is; k++)
      if (strcmp(into->states[k].name, from->states[s].name) == 0) is = &into->states[k];
    if (is) {
      merge_state(is, &from->states[s]);
    } else {
      into->states = xrealloc(into->states, (into->nstates + 1) * sizeof(CovState));
      state_copy(&into->states[into->nstates++], &from->states[s]);
    }
  }
}

/* Sites are the same when place, function, event and machine agree. */
static int same_site(const CovSite *a, const CovSite *b) {
  return cmp_site(a, b) == 0 && strcmp(a->machine ? a->machine : "", b->machine ? b->machine : "") == 0;
}

/* Add from's sites to *into: reached if reached on either side. */
static void merge_sites(CovSite **into, uint32_t *n, const CovSite *from, uint32_t nfrom) {
  for (uint32_t i = 0; i < nfrom; i++) {
    CovSite *have = NULL;
    for (uint32_t k = 0; k < *n && !have; k++)
      if (same_site(&(*into)[k], &from[i])) have = &(*into)[k];
    if (have) { have->reached |= from[i].reached; continue; }
    *into = xrealloc(*into, (*n + 1) * sizeof(CovSite));
    CovSite *s = &(*into)[(*n)++];
    *s = from[i];
    s->machine = dupstr(from[i].machine);
    s->function = dupstr(from[i].function);
    s->event = dupstr(from[i].event);
    s->src = src_copy(&from[i].src);
  }
  sort_n(*into, *n, sizeof(CovSite), cmp_site);
}

/* Tests are listed once each; machines matched by name; sites by place;
** schedule goals united by one merge of the two sorted lists. */
void cov_merge(CovReport *into, const CovReport *from) {
  for (uint32_t i = 0; i < from->ntests; i++) add_name(&into->tests, &into->ntests, from->tests[i]);
  for (uint32_t m = 0; m < from->nmachines; m++) {
    CovMachine *im = (CovMachine *)find_machine(into, from->machines[m].name);
    if (im) { merge_machine(im, &from->machines[m]); continue; }
    into->machines = xrealloc(into->machines, (into->nmachines + 1) * sizeof(CovMachine));
    im = &into->machines[into->nmachines++];
    memset(im, 0, sizeof *im);
    im->name = xstrdup(from->machines[m].name);
    im->spec = from->machines[m].spec;
    merge_machine(im, &from->machines[m]);
  }
  sort_n(into->machines, into->nmachines, sizeof(CovMachine), cmp_machine);
  merge_sites(&into->receives, &into->nreceives, from->receives, from->nreceives);
  merge_sites(&into->asserts, &into->nasserts, from->asserts, from->nasserts);
  /* Schedule goals: the union (both lists sorted: one merge pass). */
  into->sched_measured |= from->sched_measured;
  CovPair *m = xcalloc(into->npairs + from->npairs + 1, sizeof(CovPair));
  uint32_t i = 0, j = 0, n = 0;
  while (i < into->npairs || j < from->npairs) {
    int c = i == into->npairs ? 1 : j == from->npairs ? -1 : cmp_covpair(&into->pairs[i], &from->pairs[j]);
    if (c <= 0) {
      m[n++] = into->pairs[i++];
      if (c == 0) j++;
    } else {
      m[n] = from->pairs[j++];
      m[n].machine = xstrdup(m[n].machine);
      n++;
    }
  }
  free(into->pairs);
  into->pairs = m;
  into->npairs = n;
}
