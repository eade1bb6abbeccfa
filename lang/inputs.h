/* inputs.h: expand the command line's inputs (.p files, directories and
** .pproj project files) into the list of source files of one model.
** Paths are kept as the user would recognise them; duplicates (by real
** path) are dropped.  Errors go to the Diag. */
#ifndef PCHECK_INPUTS_H
#define PCHECK_INPUTS_H
#include "lang/diag.h"
#include "vm/util.h"

/* Append heap-allocated paths of source files to out (the caller frees
** each and the vector).  Returns the number of errors reported. */
int inputs_collect(Diag *d, char *const *inputs, int n, PtrVec *out);

#endif
