/* coverage.c: the layout of coverage points (vm/vm.h, "Coverage").  The
** marks themselves are made where the steps happen (vm/step.c,
** vm/interp.c, through vm_cov_mark); the reports are checker/observe/coverage.c's. */
#include <config.h>
#include "vm/vm.h"
#include <stdlib.h>
#include <string.h>

/* Points of one machine or spec type with S states and E event slots. */
static uint64_t type_points(uint64_t S, uint64_t E) { return 1 + S + VCOV_NKINDS * S * E + S * S; }

/* Types first, in BcMachine order, then receive tables, then asserts, as
** vm.h lays the points out; c->hit starts all zero and is the caller's to
** share between the Vms of the test (VmTest.cov) and to free with
** vm_cov_fini.  Counted in 64 bits so that a program too large is found
** before anything wraps. */
int vm_cov_init(VmCov *c, const BcProgram *p) {
  memset(c, 0, sizeof *c);
  c->nevents = p->nevents + 1;
  c->base = xcalloc(p->nmachines ? p->nmachines : 1, sizeof(uint32_t));
  c->recv_base = xcalloc(p->nrecvs ? p->nrecvs : 1, sizeof(uint32_t));
  uint64_t n = 0;
  for (uint16_t m = 0; m < p->nmachines; m++) {
    c->base[m] = (uint32_t)n;
    n += type_points(p->machines[m].nstates, c->nevents);
  }
  for (uint32_t r = 0; r < p->nrecvs; r++) {
    c->recv_base[r] = (uint32_t)n;
    n += p->recvs[r].ncases;
  }
  c->asserts = (uint32_t)n;
  n += p->nasserts;
  if (n > UINT32_MAX) { vm_cov_fini(c); return -1; }
  c->npoints = (uint32_t)n;
  c->hit = xcalloc(n ? n : 1, 1);
  return 0;
}

/* Frees the arrays and zeroes c (vm_cov_init's -1 path uses it too). */
void vm_cov_fini(VmCov *c) {
  free(c->hit);
  free(c->base);
  free(c->recv_base);
  memset(c, 0, sizeof *c);
}
