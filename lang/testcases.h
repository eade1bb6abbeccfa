/* testcases.h: the test cases of a checked model: each `implementation`
** declaration with a main machine (as P runs it), each `test` declaration,
** every instance of a `test param` declaration (filtered by its assume
** condition and reduced to a t-wise covering set when it says so), or,
** with none of those, the implicit test whose main machine is `Main`.
** Ownership: a TestList owns its TestCases and their names. */
#ifndef PCHECK_TESTCASES_H
#define PCHECK_TESTCASES_H
#include "lang/sema.h"

typedef struct TestCase {
  char *name;            /* e.g. tcOne, tc___n_2__b_true, or Main */
  Ast *decl;             /* D_TEST or D_IMPL, or NULL for the implicit test */
  Ast *main;             /* D_MACHINE created first */
  Ast **values;          /* per param of decl->list: the chosen value expr */
  int nvalues;
} TestCase;

typedef struct TestList {
  TestCase *items;
  int n;
} TestList;

/* Build the test cases of a program that passed sema_check.  Errors (an
** assume condition that cannot be evaluated, too many combinations) go to
** d.  Returns the number of errors. */
int testcases_build(const Program *p, Diag *d, TestList *out);
void testcases_fini(TestList *l);
/* The test cases --test NAME selects, into indexes (at most max): the one
** named NAME exactly, or, for a pattern (NAME with * ? or [, fnmatch(3)),
** every one it matches.  Their number. */
int testcases_select(const TestList *l, const char *name, int *indexes, int max);
/* How many test cases have a name starting with prefix. */
int testcases_starting(const TestList *l, const char *prefix);

#endif
