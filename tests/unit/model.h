/* model.h: a compiled model for the unit tests: P source text (as file
** "m.p") or a file or folder below $srcdir, and one of its test cases. */
#ifndef PCHECK_TEST_MODEL_H
#define PCHECK_TEST_MODEL_H
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lang/codegen.h"
#include "lang/frontend.h"
#include "lang/sema.h"
#include "lang/testcases.h"
#include "parser/parse.h"

typedef struct Model {
  Diag d;
  Program *p;
  BcProgram *bc;
  TestList tests;
  VmTest test;
  int ok;                    /* compiled, test built */
} Model;

/* Compile src or, when path is set, the model at $srcdir/path, and build
** its test case called test (NULL: the first).  m->ok is 0 if that fails;
** the diagnostics then went to stderr. */
static inline void model_load_test(Model *m, const char *src, const char *path, const char *test) {
  memset(m, 0, sizeof *m);
  diag_init(&m->d, stderr);
  m->p = program_new();
  if (path) {
    char full[1024];
    const char *top = getenv("srcdir");
    snprintf(full, sizeof full, "%s/%s", top ? top : ".", path);
    char *inputs[1] = {full};
    if (frontend_load(m->p, &m->d, inputs, 1, NULL) != 0) return;
  } else if (src) {
    uint32_t id = diag_add_file(&m->d, "m.p", xstrdup(src), strlen(src));
    if (parse_source(&m->d, m->p->arena, id, m->p->root) != 0 || sema_check(m->p, &m->d) != 0) return;
  } else {
    return;   /* neither a source nor a path */
  }
  m->bc = cg_compile(m->p, &m->d);
  if (!m->bc || testcases_build(m->p, &m->d, &m->tests) != 0 || m->tests.n < 1) return;
  int k = 0;
  if (test)
    for (k = 0; k < m->tests.n && strcmp(m->tests.items[k].name, test) != 0; k++) continue;
  if (k == m->tests.n) return;
  cg_test(m->bc, m->p, &m->tests.items[k], &m->test);
  m->ok = 1;
}

/* Compile src, its first test case. */
static inline void model_load(Model *m, const char *src) { model_load_test(m, src, NULL, NULL); }

static inline void model_free(Model *m) {
  if (m->ok) cg_test_fini(&m->test);
  if (m->bc) testcases_fini(&m->tests);
  bc_free(m->bc);
  program_free(m->p);
  diag_fini(&m->d);
}

#endif
