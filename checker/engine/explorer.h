/* explorer.h: delaying explorers (doc/algorithms.md, "Delaying explorers"; doc/explorers.md).
** An explorer has its own state d, kept as plain bytes beside the program
** State and never part of what the state cache hashes (doc/architecture.md, "States are bytes"):
**   ex_init   d0, from the events of the initial state (the main machine's creation);
**   ex_step   d after a program step, from that step's VmEvents (creations,
**             sends, dequeues, blocks, halts, announced events);
**   ex_next   the machine it prescribes among the enabled ones (it may
**             update d, e.g. to remember its answer);
**   ex_delay  d made to prescribe a different machine next (one delay).
** Data choices are not the explorer's: the searches take option k after k
** delays at a data choice (false before true, 0 before 1, ...).
**
** Explorers are either declared in the language (`explorer NAME { ... }`,
** compiled to bytecode, run by the VM on their own Vm; hooks in
** doc/explorers.md) or one of the native twins of the standard library's
** rr, rtc and prr (the stdlib folder), which make exactly the same choices.
** An Explorer may be used by one thread at a time. */
#ifndef PCHECK_EXPLORER_H
#define PCHECK_EXPLORER_H
#include <stdint.h>
#include "vm/vm.h"

typedef struct Explorer Explorer;

/* Native twins of stdlib/rr.p, stdlib/rtc.p, stdlib/prr.p. */
typedef enum ExNative { EXN_NONE = 0, EXN_RR, EXN_RTC, EXN_PRR } ExNative;

/* The native twin called name, or EXN_NONE. */
ExNative explorer_native_kind(const char *name);

/* An explorer: the native twin `native`, or (native == EXN_NONE) the
** explorer declared as `name` in bc.  With twin_check, both the declared
** explorer and the native twin run in lockstep, and any difference in
** their choices is an error (the test that proves a twin exact).
** Returns NULL with a message in err if bc has no such explorer. */
Explorer *explorer_new(const BcProgram *bc, const VmTest *test, const char *name, ExNative native, int twin_check,
                       Buf *err);
void explorer_free(Explorer *x);
const char *explorer_name(const Explorer *x);
/* Name machines in messages as program_vm does (after its last call). */
void explorer_set_names(Explorer *x, Vm *program_vm);

/* Each returns 0, or -1 when the explorer failed (a runtime error in its
** code, a bad answer); the message is then explorer_error(x). */
int ex_init(Explorer *x, uint64_t seed, const VmEvent *ev, uint32_t nev, Buf *d);
int ex_step(Explorer *x, Buf *d, const VmEvent *ev, uint32_t nev);
int ex_next(Explorer *x, Buf *d, const uint32_t *enabled, uint32_t n, uint32_t *out);
int ex_delay(Explorer *x, Buf *d);
const char *explorer_error(const Explorer *x);

#endif
