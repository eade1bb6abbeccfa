/* frontend.h: from command-line inputs to a checked Program: expand the
** inputs, read and parse every file, then run the type checker (only if
** parsing succeeded).  Errors go to the Diag. */
#ifndef PCHECK_FRONTEND_H
#define PCHECK_FRONTEND_H
#include "lang/sema.h"

/* Files larger than this are refused with a clear error. */
#define FRONTEND_MAX_FILE (256u << 20)

/* Load the model named by inputs into p.  Returns the number of errors;
** the Program is usable (for listing tests, codegen) only when it is 0.
** *nlines receives the number of source lines read (for statistics). */
int frontend_load(Program *p, Diag *d, char *const *inputs, int n, long *nlines);

#endif
