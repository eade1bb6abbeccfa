/* codegen.h: compile a checked Program into bytecode (vm/bytecode.h).
** Every instruction keeps the source location it came from.
** Ownership: the returned BcProgram is the caller's (bc_free). */
#ifndef PCHECK_CODEGEN_H
#define PCHECK_CODEGEN_H
#include "lang/sema.h"
#include "vm/bytecode.h"

/* Compile p (which passed sema_check with no errors).  Limits the bytecode
** cannot express (more than 65535 locals, say) are reported to d; returns
** NULL then. */
BcProgram *cg_compile(Program *p, Diag *d);

#include "lang/testcases.h"
#include "vm/vm.h"

/* The VM's view of a test case: main machine, attached specs, param
** values.  The limits (max_*) are left 0, for the caller to set.
** Ownership: the VmTest's arrays are heap blocks freed by cg_test_fini. */
void cg_test(const BcProgram *bc, const Program *p, const TestCase *tc, VmTest *out);
/* Free what cg_test allocated in t (the string values in priv too); t is
** left zeroed. */
void cg_test_fini(VmTest *t);

#endif
