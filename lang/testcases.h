/* testcases.h: the test cases of a checked model: each `implementation`
** declaration with a main machine (as P runs it), each `test` declaration,
** every instance of a `test param` declaration (filtered by its assume
** condition and reduced to a t-wise covering set when it says so), or,
** with none of those, the implicit test whose main machine is `Main`.
** Ownership: a TestList owns its TestCases and their names. */
#ifndef PCHECK_TESTCASES_H
#define PCHECK_TESTCASES_H
#include "lang/sema.h"

/* One test case: what the checker runs.  The AST pointers are borrowed
** from the Program, which must outlive the list. */
typedef struct TestCase {
  char *name;            /* e.g. tcOne, tc___n_2__b_true, or Main (heap, the list's) */
  Ast *decl;             /* D_TEST or D_IMPL, or NULL for the implicit test */
  Ast *main;             /* D_MACHINE created first */
  Ast **values;          /* per param of decl->list: the chosen value expr (heap block; NULL
                            for a test without params) */
  int nvalues;           /* entries of values: decl->list.n for a param test, else 0 */
} TestCase;

/* The test cases of a model in P's order (implementations, then tests,
** each in declaration order, a param test's cases in its greedy order). */
typedef struct TestList {
  TestCase *items;       /* heap block */
  int n;                 /* test cases */
} TestList;

/* Build the test cases of a program that passed sema_check.  Errors (an
** assume condition that cannot be evaluated, too many combinations) go to
** d.  Returns the number of errors. */
int testcases_build(const Program *p, Diag *d, TestList *out);
/* Free every case's name and values and the list's block; l is left empty. */
void testcases_fini(TestList *l);
/* The test cases --test NAME selects, into indexes (at most max): the one
** named NAME exactly, or, for a pattern (NAME with * ? or [, fnmatch(3)),
** every one it matches.  Their number. */
int testcases_select(const TestList *l, const char *name, int *indexes, int max);
/* How many test cases have a name starting with prefix. */
int testcases_starting(const TestList *l, const char *prefix);

#endif
