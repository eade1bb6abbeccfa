/* testcases.c: expanding test declarations into test cases.  A param test
** enumerates the cartesian product of its params' values in declaration
** order, keeps the combinations its assume condition accepts, and with
** (t wise) keeps a greedy covering subset: every t-way combination of
** values that some accepted case has is covered by a kept case. */
#include <config.h>
#include "lang/testcases.h"
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

/* Combinations of param values one param test may have (before its
** assume condition filters them): past it, an error, not a long wait. */
enum { MAX_COMBINATIONS = 100000 };

/* A constant value for evaluating assume conditions. */
typedef struct CVal {
  int kind;              /* 0 int, 1 bool, 2 float, 3 string, 4 enum, -1 error */
  int64_t i;             /* int, bool (0/1) and enum (the member's value) */
  double f;              /* float */
  const char *s;         /* string: the literal's bytes, borrowed from the AST */
} CVal;

/* The value of an expression that cannot be evaluated (already reported,
** or reported by the caller as an assume condition that is not a bool). */
static CVal cerr(void) { CVal v = { -1, 0, 0, NULL }; return v; }

/* The value of a param value or literal e: a literal, a negated number or
** an enum member; anything else is an error value (not reported here). */
static CVal literal(const Ast *e) {
  CVal v = { -1, 0, 0, NULL };
  switch (e->kind) {
  case AST_E_INT: v.kind = 0; v.i = e->ival; break;
  case AST_E_BOOL: v.kind = 1; v.i = e->ival; break;
  case AST_E_FLOAT: v.kind = 2; v.f = e->fval; break;
  case AST_E_STRING: v.kind = 3; v.s = e->sval; break;
  case AST_E_NAME:
    if (e->decl && e->decl->kind == AST_D_ENUMELEM) { v.kind = 4; v.i = e->decl->ival; }
    break;
  case AST_E_UNARY:
    v = literal(e->k[0]);
    if (v.kind == 0) v.i = -v.i;
    else if (v.kind == 2) v.f = -v.f;
    else v = cerr();
    break;
  default: break;
  }
  return v;
}

/* Evaluate e with params bound to `vals` (parallel to test->list). */
static CVal eval(const Ast *test, Ast **vals, const Ast *e, Diag *d, int *bad) {
  switch (e->kind) {
  case AST_E_NAME:
    if (e->decl && e->decl->kind == AST_D_PARAM) {
      for (int i = 0; i < test->list.n; i++)
        if (test->list.items[i]->decl == e->decl) return literal(vals[i]);
      if (!*bad) diag_error(d, e->span, "param '%s' has no value in test '%s'", e->name, test->name);
      *bad = 1;
      return cerr();
    }
    return literal(e);
  case AST_E_INT: case AST_E_BOOL: case AST_E_FLOAT: case AST_E_STRING: return literal(e);
  case AST_E_UNARY: {
    CVal v = eval(test, vals, e->k[0], d, bad);
    if (e->op == '!' && v.kind == 1) v.i = !v.i;
    else if (e->op == '-' && v.kind == 0) v.i = -v.i;
    else if (e->op == '-' && v.kind == 2) v.f = -v.f;
    return v;
  }
  case AST_E_BINARY: {
    CVal a = eval(test, vals, e->k[0], d, bad);
    if (e->op == BIN_AND && a.kind == 1 && !a.i) return a;
    if (e->op == BIN_OR && a.kind == 1 && a.i) return a;
    CVal b = eval(test, vals, e->k[1], d, bad);
    if (a.kind < 0 || b.kind < 0 || a.kind != b.kind) return cerr();
    CVal r = { 1, 0, 0, NULL };
    double x = a.kind == 2 ? a.f : (double)a.i, y = b.kind == 2 ? b.f : (double)b.i;
    int cmp = a.kind == 3 ? strcmp(a.s, b.s) : (x < y ? -1 : x > y ? 1 : 0);
    switch ((BinOp)e->op) {
    case BIN_AND: case BIN_OR: r.i = b.i; return r;
    case BIN_EQ: r.i = cmp == 0; return r;
    case BIN_NE: r.i = cmp != 0; return r;
    case BIN_LT: r.i = cmp < 0; return r;
    case BIN_GT: r.i = cmp > 0; return r;
    case BIN_LE: r.i = cmp <= 0; return r;
    case BIN_GE: r.i = cmp >= 0; return r;
    case BIN_ADD: case BIN_SUB: case BIN_MUL: case BIN_DIV: case BIN_MOD:
      if (a.kind == 0) {
        r.kind = 0;
        if ((e->op == BIN_DIV || e->op == BIN_MOD) && b.i == 0) {
          if (!*bad) diag_error(d, e->span, "division by zero in the assume condition of test '%s'", test->name);
          *bad = 1;
          return cerr();
        }
        uint64_t ua = (uint64_t)a.i, ub = (uint64_t)b.i;
        r.i = e->op == BIN_ADD ? (int64_t)(ua + ub) : e->op == BIN_SUB ? (int64_t)(ua - ub)
            : e->op == BIN_MUL ? (int64_t)(ua * ub) : e->op == BIN_DIV ? (b.i == -1 ? (int64_t)(0 - ua) : a.i / b.i)
            : (b.i == -1 ? 0 : a.i % b.i);
        return r;
      }
      if (a.kind == 2 && e->op != BIN_MOD) {
        r.kind = 2;
        r.f = e->op == BIN_ADD ? x + y : e->op == BIN_SUB ? x - y : e->op == BIN_MUL ? x * y : x / y;
        return r;
      }
      return cerr();
    default: return cerr();
    }
  }
  default:
    if (!*bad)
      diag_error(d, e->span, "an assume condition may only use params, literals and operators");
    *bad = 1;
    return cerr();
  }
}

/* A param value as P writes it in a test case's name: a negative number
** as neg1 (P's ExpectedParametricTests.txt of its ParamTest regression). */
static void value_text(Buf *b, const Ast *e) {
  switch (e->kind) {
  case AST_E_INT:
    if (e->ival < 0) buf_printf(b, "neg%lld", -(long long)e->ival);
    else buf_printf(b, "%lld", (long long)e->ival);
    break;
  case AST_E_BOOL: buf_puts(b, e->ival ? "true" : "false"); break;
  case AST_E_FLOAT: buf_printf(b, "%g", e->fval); break;
  case AST_E_STRING: buf_puts(b, e->sval); break;
  case AST_E_NAME: buf_puts(b, e->name); break;
  case AST_E_UNARY: buf_puts(b, "neg"); value_text(b, e->k[0]); break;
  default: buf_putc(b, '?'); break;
  }
}

/* Append tc to l, which has room for *cap cases (doubled as needed); l
** takes tc's name and values. */
static void push_case(TestList *l, int *cap, TestCase tc) {
  if (l->n == *cap) {
    *cap = *cap ? *cap * 2 : 8;
    l->items = xrealloc(l->items, (size_t)*cap * sizeof(TestCase));
  }
  l->items[l->n++] = tc;
}

/* The key of one t-way interaction: which params (bitmask) and the indexes
** of their values. */
typedef struct Inter {
  uint64_t params;
  int vals[8];
} Inter;

/* Whether two interactions are the same params with the same values. */
static int inter_eq(const Inter *a, const Inter *b) {
  return a->params == b->params && memcmp(a->vals, b->vals, sizeof a->vals) == 0;
}

/* The interactions of combination idx (a value index per param): one per
** t-subset of its k params, in lexicographic order of the subsets, into
** out (room for choose_count(k, t)).  Their number.  Needs 1 <= t <= 8. */
static int interactions(int k, int t, const int *idx, Inter *out) {
  int n = 0, sel[8];
  for (int i = 0; i < t; i++) sel[i] = i;
  for (;;) {
    Inter it;
    memset(&it, 0, sizeof it);
    for (int i = 0; i < t; i++) { it.params |= 1ull << sel[i]; it.vals[i] = idx[sel[i]]; }
    out[n++] = it;
    int i = t - 1;
    while (i >= 0 && sel[i] == k - t + i) i--;
    if (i < 0) break;
    sel[i]++;
    for (int j = i + 1; j < t; j++) sel[j] = sel[j - 1] + 1;
  }
  return n;
}

/* The binomial coefficient k over t (exact: each partial product is a
** binomial coefficient itself, so the division leaves no remainder). */
static long choose_count(int k, int t) {
  long r = 1;
  for (int i = 0; i < t; i++) r = r * (k - i) / (i + 1);
  return r;
}

/* Append the cases of param test t to out (room for *cap): every
** combination of values its assume condition accepts, or with t-wise
** coverage the greedy choice, named as P names them (tc___n_2__b_true).
** Errors (a param without values, too many combinations, an assume
** condition that cannot be evaluated) are reported: 1, no case added. */
static int expand_param_test(Diag *d, Ast *t, TestList *out, int *cap) {
  int k = t->list.n;
  long total = 1;
  for (int i = 0; i < k; i++) {
    int nv = t->list.items[i]->list.n;
    if (nv == 0) { diag_error(d, t->list.items[i]->span, "param '%s' has no values", t->list.items[i]->name); return 1; }
    total *= nv;
    if (total > MAX_COMBINATIONS) {
      diag_error(d, t->span, "test '%s' has more than %d combinations of param values", t->name, MAX_COMBINATIONS);
      return 1;
    }
  }
  /* Accepted combinations, as value indexes. */
  int *accepted = xmalloc((size_t)(total * (k ? k : 1)) * sizeof(int));
  long nacc = 0;
  Ast **vals = xmalloc((size_t)(k ? k : 1) * sizeof(Ast *));
  int *idx = xcalloc((size_t)(k ? k : 1), sizeof(int));
  int errors = 0;
  for (long c = 0; c < total; c++) {
    long r = c;
    for (int i = 0; i < k; i++) {   /* the first param varies fastest, as in P's order */
      int nv = t->list.items[i]->list.n;
      idx[i] = (int)(r % nv);
      r /= nv;
      vals[i] = t->list.items[i]->list.items[idx[i]];
    }
    int ok = 1;
    if (t->k[2]) {
      int bad = 0;
      CVal v = eval(t, vals, t->k[2], d, &bad);
      if (bad) { errors = 1; break; }
      if (v.kind != 1) {
        diag_error(d, t->k[2]->span, "cannot evaluate the assume condition of test '%s'", t->name);
        errors = 1;
        break;
      }
      ok = (int)v.i;
    }
    if (ok) memcpy(accepted + nacc++ * k, idx, (size_t)k * sizeof(int));
  }
  /* keep[c]: combination c is a test case; with t-wise coverage, its
  ** place in the greedy choice (1, 2, ...), the order P lists them in. */
  long *keep = xcalloc((size_t)(nacc ? nacc : 1), sizeof *keep);
  long nkept = 0;
  int wise = (int)t->ival;
  if (!errors && wise > 0 && wise < k && k <= 64 && wise <= 8) {
    long per = choose_count(k, wise);
    Inter *all = xmalloc((size_t)(nacc * per) * sizeof(Inter));
    for (long c = 0; c < nacc; c++) interactions(k, wise, accepted + c * k, all + c * per);
    /* Distinct interactions still to cover. */
    long ninter = nacc * per;
    char *covered = xcalloc((size_t)(ninter > 0 ? ninter : 1), 1);
    for (long i = 0; i < nacc * per; i++)
      for (long j = 0; j < i; j++)
        if (!covered[j] && inter_eq(&all[i], &all[j])) { covered[i] = 2; break; }   /* a duplicate */
    for (;;) {
      long best = -1, bestn = 0;
      for (long c = 0; c < nacc; c++) {
        if (keep[c]) continue;
        long n = 0;
        for (long a = 0; a < per; a++) {
          Inter *it = &all[c * per + a];
          int cov = 0;
          for (long j = 0; j < nacc * per && !cov; j++)
            if (covered[j] == 1 && inter_eq(&all[j], it)) cov = 1;
          if (!cov) n++;
        }
        if (n > bestn) { bestn = n; best = c; }
      }
      if (best < 0) break;
      keep[best] = ++nkept;
      for (long a = 0; a < per; a++) covered[best * per + a] = 1;
    }
    free(covered);
    free(all);
  } else {
    for (long c = 0; c < nacc; c++) keep[c] = ++nkept;
  }
  /* Case number j (1..nkept) is the combination whose keep is j. */
  long *order = xcalloc((size_t)(nkept ? nkept : 1), sizeof *order);
  for (long c = 0; c < nacc; c++)
    if (keep[c]) order[keep[c] - 1] = c;
  for (long j = 0; j < nkept && !errors; j++) {
    long c = order[j];
    TestCase tc = {0};
    tc.decl = t;
    tc.main = t->k[0]->decl;
    tc.nvalues = k;
    tc.values = xmalloc((size_t)(k ? k : 1) * sizeof(Ast *));
    Buf name;
    buf_init(&name);
    buf_printf(&name, "%s__", t->name);
    for (int i = 0; i < k; i++) {
      Ast *pv = t->list.items[i];
      tc.values[i] = pv->list.items[accepted[c * k + i]];
      buf_printf(&name, "_%s_", pv->name);
      value_text(&name, tc.values[i]);
      if (i + 1 < k) buf_putc(&name, '_');
    }
    tc.name = buf_take(&name);
    push_case(out, cap, tc);
  }
  free(order);
  free(keep);
  free(idx);
  free(vals);
  free(accepted);
  return errors;
}

int testcases_build(const Program *p, Diag *d, TestList *out) {
  int cap = 0, errors = 0;
  out->items = NULL;
  out->n = 0;
  /* P's order: implementations, then tests, each in declaration order.
  ** An implementation without a main machine runs none (P 3.1 compiles
  ** no test for it): not a test case. */
  for (int i = 0; i < p->impls.n; i++) {
    Ast *t = p->impls.items[i];
    if (!t->k[0] || !t->k[0]->decl || !t->info) continue;
    TestCase tc = {0};
    tc.name = xstrdup(t->name);
    tc.decl = t;
    tc.main = t->k[0]->decl;
    push_case(out, &cap, tc);
  }
  for (int i = 0; i < p->tests.n; i++) {
    Ast *t = p->tests.items[i];
    if (t->op == 1) {
      errors += expand_param_test(d, t, out, &cap);
      continue;
    }
    TestCase tc = {0};
    tc.name = xstrdup(t->name);
    tc.decl = t;
    tc.main = t->k[0]->decl;
    push_case(out, &cap, tc);
  }
  if (p->tests.n == 0 && out->n == 0) {
    Ast *m = sema_global(p, "Main");
    if (m && m->kind == AST_D_MACHINE && !(m->flags & AF_SPEC)) {
      TestCase tc = {0};
      tc.name = xstrdup("Main");
      tc.main = m;
      push_case(out, &cap, tc);
    }
  }
  return errors;
}

void testcases_fini(TestList *l) {
  for (int i = 0; i < l->n; i++) {
    free(l->items[i].name);
    free(l->items[i].values);
  }
  free(l->items);
  l->items = NULL;
  l->n = 0;
}

/* An exact name is tried first, so a test whose name holds '*' or '['
** can still be selected alone. */
int testcases_select(const TestList *l, const char *name, int *indexes, int max) {
  int n = 0;
  for (int i = 0; i < l->n; i++) {
    if (strcmp(l->items[i].name, name) == 0) { indexes[0] = i; return 1; }   /* exact name wins */
  }
  if (!strpbrk(name, "*?[")) return 0;
  for (int i = 0; i < l->n && n < max; i++)
    if (fnmatch(name, l->items[i].name, 0) == 0) indexes[n++] = i;
  return n;
}

int testcases_starting(const TestList *l, const char *prefix) {
  int n = 0;
  size_t pl = strlen(prefix);
  for (int i = 0; i < l->n; i++) n += strncmp(l->items[i].name, prefix, pl) == 0;
  return n;
}
