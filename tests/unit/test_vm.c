/* test_vm.c: properties of the VM's step function, on a table of models:
** replaying the same choices gives byte-identical States; a State copied
** and stepped leaves the original unchanged; a successor appended to a
** buffer is the same bytes as one written alone, and so is one stepped
** from the State vm_choices left loaded; collections built in
** different orders give identical bytes; every State the VM writes passes
** vm_state_valid, and damaged ones are refused or at least never crash;
** the verifier's operand stack depths, and code it refuses. */
#include <config.h>
#include "tests/unit/check_main.h"
#include "tests/unit/model.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "checker/base/rng.h"
#include "lang/codegen.h"
#include "lang/sema.h"
#include "lang/testcases.h"
#include "parser/parse.h"
#include "vm/vm.h"

/* Compile src (its first test case); the test fails if it does not. */
static void load_ok(Model *m, const char *src) {
  model_load(m, src);
  ck_assert_msg(m->ok, "the model does not compile");
}

static const char *const good_models[] = {
  "event ePing : (from: machine, n: int); event ePong : int;\n"
  "spec Count observes ePing { var n: int; start state S { on ePing do (p: (from: machine, n: int)) { n = n + 1; } } }\n"
  "machine Pong { start state S { on ePing do (p: (from: machine, n: int)) { send p.from, ePong, p.n; } } }\n"
  "machine Main { var pong: Pong; var got: seq[int];\n"
  "  start state Init { entry { var i: int; pong = new Pong(); while (i < 3) { send pong, ePing, (from = this, n = i); i = i + 1; } }\n"
  "    on ePong do (n: int) { got += (sizeof(got), n); if (sizeof(got) == 3) { goto Done; } } }\n"
  "  state Done { entry { assert got[0] == 0; } } }\n",
  /* data choices, maps and sets, receive */
  "event eGo : int; event eAck;\n"
  "machine Worker { var m: map[int, set[int]];\n"
  "  start state S { on eGo do (k: int) { var x: int; x = choose(3); if (!(k in m)) { m[k] = default(set[int]); }\n"
  "    m[k] += (x); if ($) { m[k] -= (x); } receive { case eAck: { } } } } }\n"
  "machine Main { start state S { entry { var w: Worker; w = new Worker(); send w, eGo, 1; send w, eGo, 2; send w, eAck; send w, eAck; } } }\n",
  /* the same set built in two orders must converge to the same bytes */
  "machine Main { var s: set[int]; var m: map[string, int];\n"
  "  start state S { entry { if ($) { s += (1); s += (2); m[\"a\"] = 1; m[\"b\"] = 2; }\n"
  "    else { s += (2); s += (1); m[\"b\"] = 2; m[\"a\"] = 1; } } } }\n",
  /* machines created while other machines can also run */
  "machine Child { start state S { } }\n"
  "machine Maker { start state S { entry { var c: Child; c = new Child(); c = new Child(); } } }\n"
  "machine Main { start state S { entry { var a: Maker; var b: Maker; a = new Maker(); b = new Maker(); } } }\n",
};
#define NGOOD (int)(sizeof good_models / sizeof good_models[0])

/* Run one random execution; return its choices (heap) and count. */
static uint32_t *random_run(Vm *vm, uint64_t seed, int *n, Buf *final) {
  Rng r;
  rng_seed(&r, seed);
  Buf a, b;
  buf_init(&a);
  buf_init(&b);
  VmChoices ch = {0};
  uint32_t *tr = xmalloc(10000 * sizeof(uint32_t));
  *n = 0;
  ck_assert_int_eq(vm_initial(vm, &a), VM_OK);
  while (*n < 10000) {
    ck_assert_int_ne(vm_choices(vm, (uint8_t *)a.data, a.len, &ch), VM_BAD_STATE);
    ck_assert(vm_state_valid(vm, (uint8_t *)a.data, a.len));
    if (ch.kind == VC_NONE) break;
    /* Every enabled choice through vm_step_expand (the State vm_choices
    ** loaded, reset between steps), in reverse order, appended one after
    ** another: the same status and bytes as vm_step from a fresh load. */
    Buf e, one;
    buf_init(&e);
    buf_init(&one);
    size_t *eoff = xmalloc((ch.n + 1) * sizeof *eoff);
    VmStatus *est = xmalloc(ch.n * sizeof *est);
    ck_assert_int_eq(vm_choices(vm, (uint8_t *)a.data, a.len, &ch), VM_OK);   /* vm_state_valid loaded */
    for (uint32_t j = ch.n; j-- > 0;) {
      eoff[j] = e.len;
      est[j] = vm_step_expand(vm, (uint8_t *)a.data, a.len, ch.kind == VC_MACHINE ? ch.ids[j] : j, &e);
      if (est[j] != VM_OK) ck_assert_uint_eq(e.len, eoff[j]);
    }
    for (uint32_t j = 0; j < ch.n; j++) {
      size_t end = j == 0 ? e.len : eoff[j - 1];
      ck_assert_int_eq(vm_step(vm, (uint8_t *)a.data, a.len, ch.kind == VC_MACHINE ? ch.ids[j] : j, &one), est[j]);
      if (est[j] == VM_OK) {
        ck_assert_uint_eq(one.len, end - eoff[j]);
        ck_assert(memcmp(one.data, e.data + eoff[j], one.len) == 0);
      }
    }
    free(eoff);
    free(est);
    buf_fini(&e);
    buf_fini(&one);
    ck_assert_int_ne(vm_choices(vm, (uint8_t *)a.data, a.len, &ch), VM_BAD_STATE);
    uint32_t k = rng_below(&r, ch.n);
    uint32_t c = ch.kind == VC_MACHINE ? ch.ids[k] : k;
    /* copy, step the copy: the original bytes must not change */
    Buf copy;
    buf_init(&copy);
    buf_append(&copy, a.data, a.len);
    VmStatus st = vm_step(vm, (uint8_t *)copy.data, copy.len, c, &b);
    ck_assert(memcmp(copy.data, a.data, a.len) == 0);
    /* appended after other bytes (an odd number of them, so misaligned),
    ** the successor is the same bytes and the bytes before it stay */
    Buf app;
    buf_init(&app);
    size_t pre = 1 + 2 * (size_t)(*n % 7);
    for (size_t i = 0; i < pre; i++) buf_append(&app, "\x5a", 1);
    ck_assert_int_eq(vm_step_append(vm, (uint8_t *)copy.data, copy.len, c, &app), st);
    if (st == VM_OK) {
      ck_assert_uint_eq(app.len, pre + b.len);
      ck_assert(memcmp(app.data + pre, b.data, b.len) == 0);
    } else {
      ck_assert_uint_eq(app.len, pre);
    }
    for (size_t i = 0; i < pre; i++) ck_assert_int_eq(app.data[i], 0x5a);
    buf_fini(&app);
    buf_fini(&copy);
    tr[(*n)++] = c;
    if (st != VM_OK) break;
    Buf t = a; a = b; b = t;
  }
  buf_fini(final);
  *final = a;
  buf_fini(&b);
  vm_choices_fini(&ch);
  return tr;
}

START_TEST(test_replay_identical) {
  Model m;
  load_ok(&m, good_models[_i]);
  Vm *vm = vm_new(m.bc, &m.test);
  for (uint64_t seed = 1; seed <= 50; seed++) {
    int n;
    Buf fin;
    buf_init(&fin);
    uint32_t *tr = random_run(vm, seed, &n, &fin);
    /* Replay the choices on a fresh VM: every State is the same bytes. */
    Vm *vm2 = vm_new(m.bc, &m.test);
    Buf a, b;
    buf_init(&a);
    buf_init(&b);
    ck_assert_int_eq(vm_initial(vm2, &a), VM_OK);
    for (int i = 0; i < n; i++) {
      if (vm_step(vm2, (uint8_t *)a.data, a.len, tr[i], &b) != VM_OK) break;
      Buf t = a; a = b; b = t;
    }
    if (n && fin.len) ck_assert(a.len == fin.len && memcmp(a.data, fin.data, a.len) == 0);
    buf_fini(&a);
    buf_fini(&b);
    buf_fini(&fin);
    vm_free(vm2);
    free(tr);
  }
  vm_free(vm);
  model_free(&m);
}
END_TEST

/* Both orders of building the set and the map end in equal bytes. */
START_TEST(test_canonical_collections) {
  Model m;
  model_load(&m, good_models[2]);
  Vm *vm = vm_new(m.bc, &m.test);
  Buf s0, s1, s2, fin[2];
  buf_init(&s0);
  buf_init(&s1);
  buf_init(&s2);
  VmChoices ch = {0};
  ck_assert_int_eq(vm_initial(vm, &s0), VM_OK);
  ck_assert_int_eq(vm_step(vm, (uint8_t *)s0.data, s0.len, 0, &s1), VM_OK);   /* enter S: stops at $ */
  ck_assert_int_eq(vm_choices(vm, (uint8_t *)s1.data, s1.len, &ch), VM_OK);
  ck_assert_int_eq(ch.kind, VC_DATA);
  ck_assert_uint_eq(ch.n, 2);
  for (uint32_t c = 0; c < 2; c++) {
    buf_init(&fin[c]);
    ck_assert_int_eq(vm_step(vm, (uint8_t *)s1.data, s1.len, c, &fin[c]), VM_OK);
  }
  ck_assert_uint_eq(fin[0].len, fin[1].len);
  ck_assert(memcmp(fin[0].data, fin[1].data, fin[0].len) == 0);
  buf_fini(&fin[0]);
  buf_fini(&fin[1]);
  buf_fini(&s0);
  buf_fini(&s1);
  buf_fini(&s2);
  vm_choices_fini(&ch);
  vm_free(vm);
  model_free(&m);
}
END_TEST

/* Damaged States: vm_state_valid refuses or accepts, never crashes; a
** State written to bytes and read back is the same State. */
START_TEST(test_damaged_states) {
  Model m;
  model_load(&m, good_models[1]);
  Vm *vm = vm_new(m.bc, &m.test);
  int n;
  Buf fin;
  buf_init(&fin);
  uint32_t *tr = random_run(vm, 7, &n, &fin);
  free(tr);
  ck_assert(vm_state_valid(vm, (uint8_t *)fin.data, fin.len));
  /* serialise/deserialise: a file round trip keeps the bytes */
  FILE *f = tmpfile();
  fwrite(fin.data, 1, fin.len, f);
  rewind(f);
  char *back = xmalloc(fin.len);
  ck_assert_uint_eq(fread(back, 1, fin.len, f), fin.len);
  fclose(f);
  ck_assert(memcmp(back, fin.data, fin.len) == 0 && vm_state_valid(vm, (uint8_t *)back, fin.len));
  free(back);
  for (size_t cut = 0; cut < fin.len; cut++) ck_assert(!vm_state_valid(vm, (uint8_t *)fin.data, cut));
  for (size_t i = 0; i < fin.len; i++) {
    char *c = xmalloc(fin.len);
    memcpy(c, fin.data, fin.len);
    c[i] ^= 0x5a;
    (void)vm_state_valid(vm, (uint8_t *)c, fin.len);
    free(c);
  }
  buf_fini(&fin);
  vm_free(vm);
  model_free(&m);
}
END_TEST

/* The verifier's depths on the models above: every function starts at
** depth 0 and stays within its max_stack wherever an instruction is
** reached; the whole program verifies again (the depths are recomputed). */
START_TEST(test_stack_depths) {
  Model m;
  load_ok(&m, good_models[_i]);
  for (uint32_t fi = 0; fi < m.bc->nfuns; fi++) {
    const BcFun *f = &m.bc->funs[fi];
    ck_assert_ptr_nonnull(f->depth);
    ck_assert_uint_eq(f->depth[0], 0);
    for (uint32_t pc = 0; pc < f->ncode; pc++)
      ck_assert(f->depth[pc] == BC_NO_DEPTH || f->depth[pc] <= f->max_stack);
  }
  Buf err;
  buf_init(&err);
  ck_assert_msg(bc_verify(m.bc, &err), "%s", err.data ? err.data : "");
  buf_fini(&err);
  model_free(&m);
}
END_TEST

/* Code made wrong on purpose: bc_verify refuses each with its problem.
** Each row changes one instruction (the first `from` in function fun) into
** `to`, or (to == OP__COUNT) sets fun's max_stack to 0, or (from ==
** OP__COUNT) flips the result flag of the function fun calls. */
static const struct {
  const char *fun;
  int from, to;
  const char *problem;
} broken[] = {
  {"F", OP_STORE_LOCAL, OP_LOAD_LOCAL, "paths meet with different operand stack depths"},   /* inside the if */
  {"F", OP_LOAD_LOCAL, OP_STORE_LOCAL, "pops below the frame's operand stack"},               /* the first: b */
  {"F", OP_LOAD_LOCAL, OP__COUNT, "operand stack deeper than max_stack"},
  {"H", OP__COUNT, OP_CALL, "pops below the frame's operand stack"},   /* G's result taken, G gives none */
};

START_TEST(test_verify_refuses) {
  static const char src[] =
    "fun F(b: bool): int { var x: int; if (b) { x = 1; } return x; }\n"
    "fun G(): int { return 3; }\n"
    "fun H(): int { var y: int; y = G(); return y + F(true); }\n"
    "machine Main { start state S { entry { var z: int; z = H(); } } }\n";
  Model m;
  load_ok(&m, src);
  BcFun *f = NULL;
  for (uint32_t fi = 0; fi < m.bc->nfuns; fi++)
    if (strcmp(m.bc->funs[fi].name, broken[_i].fun) == 0) f = &m.bc->funs[fi];
  ck_assert_ptr_nonnull(f);
  uint32_t pc = 0;
  int want = broken[_i].from == OP__COUNT ? broken[_i].to : broken[_i].from;
  while (pc < f->ncode && f->code[pc] != want) pc += 1 + (uint32_t)bc_operand_size((OperandKind)bc_op_operand[f->code[pc]]);
  ck_assert_uint_lt(pc, f->ncode);
  if (broken[_i].from == OP__COUNT) {
    uint16_t callee;
    memcpy(&callee, f->code + pc + 1, 2);
    m.bc->funs[callee].has_result = !m.bc->funs[callee].has_result;
  } else if (broken[_i].to == OP__COUNT) {
    f->max_stack = 0;
  } else {
    f->code[pc] = (uint8_t)broken[_i].to;
  }
  Buf err;
  buf_init(&err);
  ck_assert(!bc_verify(m.bc, &err));
  ck_assert_msg(strstr(err.data, broken[_i].problem), "got: %s", err.data);
  buf_fini(&err);
  model_free(&m);
}
END_TEST

/* The events a step reports: the ping-pong model's first steps. */
START_TEST(test_step_events) {
  Model m;
  model_load(&m, good_models[0]);
  Vm *vm = vm_new(m.bc, &m.test);
  vm_record_events(vm, 1);
  Buf a, b;
  buf_init(&a);
  buf_init(&b);
  uint32_t n;
  ck_assert_int_eq(vm_initial(vm, &a), VM_OK);
  const VmEvent *ev = vm_events(vm, &n);
  ck_assert_uint_eq(n, 1);
  ck_assert_int_eq(ev[0].kind, VE_CREATE);
  ck_assert_uint_eq(ev[0].other, UINT32_MAX);
  /* Main enters Init, creates Pong: a scheduling point. */
  ck_assert_int_eq(vm_step(vm, (uint8_t *)a.data, a.len, 0, &b), VM_OK);
  ev = vm_events(vm, &n);
  ck_assert_uint_eq(n, 2);
  ck_assert_int_eq(ev[0].kind, VE_STATE);
  ck_assert_int_eq(ev[1].kind, VE_CREATE);
  ck_assert_uint_eq(ev[1].machine, 1);
  ck_assert_uint_eq(ev[1].other, 0);
  /* Main resumes and sends ePing to Pong; the spec observes it first. */
  ck_assert_int_eq(vm_step(vm, (uint8_t *)b.data, b.len, 0, &a), VM_OK);
  ev = vm_events(vm, &n);
  ck_assert_uint_eq(n, 2);
  ck_assert_int_eq(ev[0].kind, VE_SEND);
  ck_assert_uint_eq(ev[0].machine, 0);
  ck_assert_uint_eq(ev[0].other, 1);
  ck_assert_int_eq(ev[0].payload.tag, VT_TUPLE);
  ck_assert_int_eq(ev[1].kind, VE_MONITOR);
  ck_assert_uint_eq(ev[1].spec, 1);
  buf_fini(&a);
  buf_fini(&b);
  vm_free(vm);
  model_free(&m);
}
END_TEST

int main(void) {
  Suite *s = suite_create("vm");
  TCase *tc = tcase_create("all");
  tcase_set_timeout(tc, 120);
  tcase_add_loop_test(tc, test_replay_identical, 0, NGOOD);
  tcase_add_test(tc, test_canonical_collections);
  tcase_add_test(tc, test_damaged_states);
  tcase_add_test(tc, test_step_events);
  tcase_add_loop_test(tc, test_stack_depths, 0, NGOOD);
  tcase_add_loop_test(tc, test_verify_refuses, 0, (int)(sizeof broken / sizeof broken[0]));
  suite_add_tcase(s, tc);
  return run_suite(s);
}
