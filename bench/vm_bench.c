/* vm_bench.c: figures for the VM (issue: bytecode compiler and VM).
**   vm_bench MODEL.p [STEPS]
** 1. steps per second of vm_step alone: a random execution of the model's
**    first test case is recorded (states and choices), then the recorded
**    steps are replayed in a timed loop;
** 2. the State size in bytes (mean and largest seen);
** 3. nanoseconds for copy + XXH3 hash of a 512-byte State. */
#include <config.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "vm/hash.h"
#include "checker/base/rng.h"
#include "lang/codegen.h"
#include "lang/frontend.h"
#include "lang/testcases.h"
#include "vm/vm.h"

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv) {
  if (argc < 2) { fprintf(stderr, "usage: vm_bench MODEL.p [STEPS]\n"); return 2; }
  long nsteps = argc > 2 ? atol(argv[2]) : 200000;
  Diag d;
  diag_init(&d, stderr);
  Program *p = program_new();
  if (frontend_load(p, &d, argv + 1, 1, NULL)) return 2;
  BcProgram *bc = cg_compile(p, &d);
  TestList tl;
  if (!bc || testcases_build(p, &d, &tl) || tl.n == 0) return 2;
  VmTest test;
  cg_test(bc, p, &tl.items[0], &test);
  Vm *vm = vm_new(bc, &test);
  /* Record a random execution (restarting when it ends). */
  size_t cap = (size_t)nsteps;
  uint8_t **states = xmalloc(cap * sizeof(uint8_t *));
  size_t *lens = xmalloc(cap * sizeof(size_t));
  uint32_t *choices = xmalloc(cap * sizeof(uint32_t));
  Rng r;
  rng_seed(&r, 1);
  Buf a, b;
  buf_init(&a);
  buf_init(&b);
  VmChoices ch = {0};
  vm_initial(vm, &a);
  double total = 0, largest = 0;
  for (long i = 0; i < nsteps; i++) {
    if (vm_choices(vm, (uint8_t *)a.data, a.len, &ch) != VM_OK || ch.kind == VC_NONE) {
      vm_initial(vm, &a);
      vm_choices(vm, (uint8_t *)a.data, a.len, &ch);
    }
    uint32_t k = rng_below(&r, ch.n);
    choices[i] = ch.kind == VC_MACHINE ? ch.ids[k] : k;
    states[i] = xmalloc(a.len);
    memcpy(states[i], a.data, a.len);
    lens[i] = a.len;
    total += (double)a.len;
    if (a.len > largest) largest = (double)a.len;
    if (vm_step(vm, (uint8_t *)a.data, a.len, choices[i], &b) != VM_OK) vm_initial(vm, &b);
    Buf t = a; a = b; b = t;
  }
  /* Timed: vm_step over the recorded pairs. */
  int rounds = 5;
  double best = 1e9;
  for (int round = 0; round < rounds; round++) {
    double t0 = now();
    for (long i = 0; i < nsteps; i++) vm_step(vm, states[i], lens[i], choices[i], &b);
    double dt = now() - t0;
    if (dt < best) best = dt;
  }
  /* Copy + hash of a 512-byte State. */
  uint8_t src[512], dst[512];
  for (int i = 0; i < 512; i++) src[i] = (uint8_t)(i * 7);
  long reps = 20000000;
  uint64_t acc = 0;
  double t0 = now();
  for (long i = 0; i < reps; i++) {
    src[i & 511] ^= (uint8_t)i;
    memcpy(dst, src, sizeof dst);
    acc ^= state_hash(dst, sizeof dst);
  }
  double copyhash = (now() - t0) / (double)reps * 1e9;
  printf("model: %s\n", argv[1]);
  printf("vm_step: %.0f steps/s (%ld steps, best of %d rounds)\n", (double)nsteps / best, nsteps, rounds);
  printf("state size: mean %.0f bytes, largest %.0f bytes\n", total / (double)nsteps, largest);
  printf("copy + XXH3 of a 512-byte state: %.1f ns (checksum %llx)\n", copyhash, (unsigned long long)(acc & 0xff));
  for (long i = 0; i < nsteps; i++) free(states[i]);
  free(states);
  free(lens);
  free(choices);
  buf_fini(&a);
  buf_fini(&b);
  vm_choices_fini(&ch);
  vm_free(vm);
  cg_test_fini(&test);
  testcases_fini(&tl);
  bc_free(bc);
  program_free(p);
  diag_fini(&d);
  return 0;
}
