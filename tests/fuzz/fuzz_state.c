/* fuzz_state.c: libFuzzer entry point for the State decoder: any bytes as
** a State of a fixed model (below: records, strings, seqs, sets, maps,
** enums, a spec with a hot state, receive, defer, ignore, data choices)
** go through vm_state_valid, the check every State read from outside
** passes (a checkpoint, a letter from another rank); one it accepts is
** expanded: vm_choices, then a step for each of its first choices, whose
** results must themselves be valid States.  With PCHECK_FUZZ_SEEDS=DIR
** set, the first call writes the States of random executions into DIR
** (tests/fuzz/run.sh makes its seeds so).  Build and run with
** tests/fuzz/run.sh. */
#include <config.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lang/codegen.h"
#include "lang/sema.h"
#include "lang/testcases.h"
#include "parser/parse.h"
#include "vm/vm.h"

static const char model[] =
  "type Req = (id: int, key: string, vals: seq[int], from: machine);\n"
  "enum Mode { Idle, Busy, Done }\n"
  "event eReq: Req;\n"
  "event eAck: (id: int, ok: bool);\n"
  "event eTick;\n"
  "event eStop;\n"
  "\n"
  "spec Progress observes eReq, eAck {\n"
  "  var pending: set[int];\n"
  "  start cold state Quiet {\n"
  "    on eReq do (r: Req) { pending += (r.id); goto Waiting; }\n"
  "  }\n"
  "  hot state Waiting {\n"
  "    on eReq do (r: Req) { pending += (r.id); }\n"
  "    on eAck do (a: (id: int, ok: bool)) {\n"
  "      pending -= (a.id);\n"
  "      if (sizeof(pending) == 0) { goto Quiet; }\n"
  "    }\n"
  "  }\n"
  "}\n"
  "\n"
  "machine Server {\n"
  "  var store: map[string, seq[int]];\n"
  "  var mode: Mode;\n"
  "  var seen: set[int];\n"
  "  start state Serve {\n"
  "    defer eTick;\n"
  "    on eReq do (r: Req) {\n"
  "      var i: int;\n"
  "      store[r.key] = r.vals;\n"
  "      seen += (r.id);\n"
  "      mode = Busy;\n"
  "      if ($) { i = choose(3); store[r.key] += (0, i); }\n"
  "      send r.from, eAck, (id = r.id, ok = r.id in seen);\n"
  "    }\n"
  "    on eStop goto Stopped;\n"
  "  }\n"
  "  state Stopped {\n"
  "    ignore eReq, eTick;\n"
  "    entry { mode = Done; }\n"
  "  }\n"
  "}\n"
  "\n"
  "machine Client {\n"
  "  var s: machine;\n"
  "  var n: int;\n"
  "  var v: seq[int];\n"
  "  start state Init {\n"
  "    entry (srv: machine) {\n"
  "      s = srv;\n"
  "      n = 0;\n"
  "      goto Send;\n"
  "    }\n"
  "  }\n"
  "  state Send {\n"
  "    entry {\n"
  "      n = n + 1;\n"
  "      v = default(seq[int]);\n"
  "      v += (0, n);\n"
  "      send s, eReq, (id = n, key = format(\"k{0}\", n % 2), vals = v, from = this);\n"
  "      receive {\n"
  "        case eAck: (a: (id: int, ok: bool)) { assert a.ok, \"ack without the request\"; }\n"
  "      }\n"
  "      if (n < 3) { goto Send; }\n"
  "      send s, eStop;\n"
  "    }\n"
  "  }\n"
  "}\n"
  "\n"
  "machine Main {\n"
  "  start state Init {\n"
  "    entry {\n"
  "      var srv: machine;\n"
  "      srv = new Server();\n"
  "      new Client(srv);\n"
  "      new Client(srv);\n"
  "    }\n"
  "  }\n"
  "}\n"
  ;

static Vm *vm;
static VmChoices ch;
/* What the model's compilation made, freed at exit (clean). */
static Program *prog;
static BcProgram *bc;
static VmTest test;
static TestList tl;
static Diag diag;
static FILE *sink;

static void clean(void) {
  vm_free(vm);
  vm_choices_fini(&ch);
  cg_test_fini(&test);
  testcases_fini(&tl);
  bc_free(bc);
  program_free(prog);
  diag_fini(&diag);
  fclose(sink);
}

/* The States of random executions of the model, into dir (seeds). */
static void write_seeds(const char *dir) {
  Buf a, b;
  buf_init(&a);
  buf_init(&b);
  uint64_t r = 88172645463325252ull, k = 0;
  for (int ex = 0; ex < 64; ex++) {
    if (vm_initial(vm, &a) != VM_OK) break;
    for (int step = 0; step < 200; step++) {
      char path[4096];
      snprintf(path, sizeof path, "%s/state-%llu", dir, (unsigned long long)k++);
      FILE *f = fopen(path, "wb");
      if (f) { fwrite(a.data, 1, a.len, f); fclose(f); }
      if (vm_choices(vm, (const uint8_t *)a.data, a.len, &ch) != VM_OK || ch.n == 0) break;
      r ^= r << 13; r ^= r >> 7; r ^= r << 17;
      uint32_t j = (uint32_t)(r % ch.n);
      uint32_t c = ch.kind == VC_MACHINE ? ch.ids[j] : j;
      b.len = 0;
      if (vm_step(vm, (const uint8_t *)a.data, a.len, c, &b) != VM_OK) break;
      Buf t = a; a = b; b = t;
    }
  }
  buf_fini(&a);
  buf_fini(&b);
}

int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc;
  (void)argv;
  sink = fopen("/dev/null", "w");
  diag_init(&diag, sink);
  prog = program_new();
  uint32_t id = diag_add_file(&diag, "model.p", xstrdup(model), sizeof model - 1);
  if (parse_source(&diag, prog->arena, id, prog->root) != 0 || sema_check(prog, &diag) != 0 ||
      testcases_build(prog, &diag, &tl) != 0 || tl.n < 1)
    abort();
  bc = cg_compile(prog, &diag);
  if (!bc) abort();
  cg_test(bc, prog, &tl.items[0], &test);
  test.max_step_instructions = 1000000;   /* a fuzzed State may loop; the budget ends it */
  test.max_inbox = 1000;
  vm = vm_new(bc, &test);
  atexit(clean);
  const char *seeds = getenv("PCHECK_FUZZ_SEEDS");
  if (seeds) write_seeds(seeds);
  return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (!vm_state_valid(vm, data, size)) return 0;
  VmStatus st = vm_choices(vm, data, size, &ch);
  if (st == VM_BAD_STATE) abort();   /* accepted, then refused */
  if (st != VM_OK) return 0;
  uint32_t n = ch.n < 8 ? ch.n : 8;
  uint32_t ids[8];
  VmChoiceKind kind = ch.kind;
  for (uint32_t j = 0; j < n; j++) ids[j] = kind == VC_MACHINE ? ch.ids[j] : j;
  Buf out;
  buf_init(&out);
  for (uint32_t j = 0; j < n; j++) {
    out.len = 0;
    st = vm_step(vm, data, size, ids[j], &out);
    if (st == VM_BAD_STATE) abort();   /* a choice vm_choices gave */
    if (st == VM_OK && !vm_state_valid(vm, (const uint8_t *)out.data, out.len)) abort();
  }
  buf_fini(&out);
  return 0;
}
