/* test_state.c: the State encoding (vm/state.h, vm/state.c, vm/value.c).
** (a) Every State a bounded search reaches on a set of models decodes and
**     encodes again to the same bytes, and vm_state_valid accepts it.
** (b) Equal program states reached along different paths (interleavings,
**     values built in different ways) are equal bytes.
** (c) Truncated States are refused; bit-flipped ones are refused or are
**     the one canonical encoding of some State; nothing crashes (run it
**     under ASan: ./configure --enable-asan).
** (d) Small States have exactly the size the layout gives them.
** White-box: it includes vm/vm_impl.h to decode and re-encode records the
** way a step does, but with every value and frame encoded afresh. */
#include <config.h>
#include "tests/unit/check_main.h"
#include "tests/unit/model.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lang/codegen.h"
#include "lang/frontend.h"
#include "lang/sema.h"
#include "lang/testcases.h"
#include "parser/parse.h"
#include "vm/hash.h"
#include "vm/vm_impl.h"

/* ---- models ---- */

/* Compile a model from source text (its first test case) or, when path is
** set, from models/ (the test case called test); the test fails if it does
** not compile. */
static void load_ok(Model *m, const char *src, const char *path, const char *test) {
  model_load_test(m, src, path, test);
  ck_assert_msg(m->ok, "%s: does not compile or has no test %s", path ? path : "the model", test ? test : "");
}

/* Every kind of record section and value: defer, receive, raise, halt,
** a spec, collections of every kind, named tuples, enums, strings, floats,
** negative and large ints. */
static const char kitchen_sink[] =
  "enum Color { Red = 0, Green = 5, Blue = -300 }\n"
  "type Rec = (name: string, n: int, c: Color);\n"
  "event eJob : Rec; event eDone : (from: machine, tag: int); event eLater; event eNext : int;\n"
  "event eBig : map[(int, string), seq[float]];\n"
  "spec Watch observes eJob, eDone { var seen: set[int]; var last: Color;\n"
  "  start state Idle { on eJob do (r: Rec) { seen += (r.n); last = r.c; }\n"
  "    on eDone do (d: (from: machine, tag: int)) { seen -= (d.tag); } } }\n"
  "machine Worker { var boss: machine; var jobs: seq[Rec]; var big: map[(int, string), seq[float]]; var f: float;\n"
  "  start state Init { entry (b: machine) { boss = b; goto Work; } }\n"
  "  state Work { defer eLater;\n"
  "    on eJob do (r: Rec) { jobs += (sizeof(jobs), r); f = f + 1.5;\n"
  "      receive { case eBig: (m: map[(int, string), seq[float]]) { big = m; } }\n"
  "      send boss, eDone, (from = this, tag = r.n);\n"
  "      if (sizeof(jobs) == 1) { raise eNext, -7; } goto Done; }\n"
  "    on eNext do (k: int) { f = f + 0.5; } }\n"
  "  state Done { on eLater do { raise halt; } } }\n"
  "machine Main { var w: Worker; var n: int; var x: int;\n"
  "  var mp: map[(int, string), seq[float]]; var fl: seq[float];\n"
  "  start state Init { entry {\n"
  "    w = new Worker(this); x = -70000;\n"
  "    fl += (0, 0.25); fl += (1, -1.0); mp[(1, \"k\")] = fl;\n"
  "    send w, eLater;\n"
  "    send w, eJob, (name = \"a\", n = 1000000, c = Green);\n"
  "    send w, eBig, default(map[(int, string), seq[float]]);\n"
  "    send w, eJob, (name = \"a\" + \"b\", n = -3, c = Blue);\n"
  "    send w, eBig, mp; }\n"
  "    on eDone do (d: (from: machine, tag: int)) { n = n + d.tag; if ($) { x = x + 1; } } } }\n";

/* More than 64 machines: ids past 63 in records and in values. */
static const char many_machines[] =
  "event eHi : machine;\n"
  "machine Idle { start state S { on eHi do (m: machine) { } } }\n"
  "machine Main { var ids: set[machine]; var i: int; var c: Idle;\n"
  "  start state Init { entry { while (i < 65) { c = new Idle(); ids += (c); i = i + 1; } send c, eHi, c; } } }\n";

/* ---- re-encoding ---- */

/* Decode every record of State s, as a step decodes the ones it touches,
** but mark the values changed and take the frames apart and together
** again, so that all of it is encoded afresh; write the State to out. */
static void recode(Vm *vm, const uint8_t *s, size_t len, Buf *out) {
  VmChoices ch = {0};
  ck_assert_int_ne(vm_choices(vm, s, len, &ch), VM_BAD_STATE);   /* loads s */
  vm_choices_fini(&ch);
  for (uint32_t i = 0; i < (uint32_t)vm->nspecs + vm->nms; i++) {
    int spec = i < vm->nspecs;
    WMachine *m = spec ? &vm->sp[i] : &vm->ms[i - vm->nspecs];
    vs_decode(vm, m);
    m->vars_dirty = 1;
    if (m->h.nframes) {
      vs_restore_frames(vm, m, spec ? i : i - vm->nspecs);
      vs_save_frames(vm, m);
    }
  }
  out->len = 0;
  vs_write(vm, out, len);
}

static void check_round_trip(Vm *vm, const uint8_t *s, size_t len) {
  Buf b;
  buf_init(&b);
  ck_assert(vm_state_valid(vm, s, len));
  recode(vm, s, len, &b);
  ck_assert_uint_eq(b.len, len);
  ck_assert(memcmp(b.data, s, len) == 0);
  buf_fini(&b);
}

/* ---- a bounded breadth-first search ---- */

typedef struct Reached {
  Buf *states;           /* in the order reached */
  uint32_t n;             /* States held */
  uint64_t *seen;        /* fingerprints, open addressing (0: empty) */
  uint32_t nseen_cap;
} Reached;

static int seen_add(Reached *r, uint64_t fp) {
  fp |= 1;   /* never 0 */
  for (uint32_t i = (uint32_t)fp & (r->nseen_cap - 1);; i = (i + 1) & (r->nseen_cap - 1)) {
    if (r->seen[i] == fp) return 0;
    if (!r->seen[i]) { r->seen[i] = fp; return 1; }
  }
}

/* Up to max distinct States reachable from the initial one, depth first
** (the first choice of each State is followed first), so that long runs
** are reached within the bound. */
static void reach(Vm *vm, uint32_t max, Reached *r) {
  r->states = xcalloc(max, sizeof(Buf));
  r->nseen_cap = 1;
  while (r->nseen_cap < 2 * max) r->nseen_cap *= 2;
  r->seen = xcalloc(r->nseen_cap, sizeof(uint64_t));
  uint32_t *stack = xmalloc(max * sizeof *stack), depth = 0;
  ck_assert_int_eq(vm_initial(vm, &r->states[0]), VM_OK);
  seen_add(r, state_hash(r->states[0].data, r->states[0].len));
  r->n = 1;
  stack[depth++] = 0;
  VmChoices ch = {0};
  Buf next;
  buf_init(&next);
  while (depth && r->n < max) {
    uint32_t at = stack[--depth];
    const uint8_t *s = (const uint8_t *)r->states[at].data;
    size_t len = r->states[at].len;
    if (vm_choices(vm, s, len, &ch) != VM_OK) continue;
    for (uint32_t k = ch.n; k-- > 0 && r->n < max;) {   /* the first choice ends on top */
      uint32_t c = ch.kind == VC_MACHINE ? ch.ids[k] : k;
      if (vm_step(vm, s, len, c, &next) != VM_OK) continue;
      if (!seen_add(r, state_hash(next.data, next.len))) continue;
      buf_init(&r->states[r->n]);
      buf_append(&r->states[r->n], next.data, next.len);
      stack[depth++] = r->n++;
    }
  }
  free(stack);
  vm_choices_fini(&ch);
  buf_fini(&next);
}

static void reached_fini(Reached *r) {
  for (uint32_t i = 0; i < r->n; i++) buf_fini(&r->states[i]);
  free(r->states);
  free(r->seen);
}

/* The models of (a) and (c): path and test, or inline source. */
static const struct { const char *src, *path, *test; uint32_t max; } models[] = {
  {kitchen_sink, NULL, NULL, 3000},
  {many_machines, NULL, NULL, 5000},
  {NULL, "models/twophase_n", "tcTwoPhase___N_3", 5000},   /* all 3901 */
  {NULL, "models/clientserver", "tcSingleClient", 3000},  /* all 2335; receive */
  {NULL, "models/german", "tcTwoCaches", 4000},           /* all 3611; defer */
  {NULL, "models/twophase", "tcOneClientTwoParticipants", 3000},   /* receive, raise, halt */
  {NULL, "models/failuredetector", "tcTwoNodesOneRound", 3000},    /* raise, halt */
};
#define NMODELS (int)(sizeof models / sizeof models[0])

/* (a) Every reached State is valid and re-encodes to itself. */
START_TEST(test_round_trip) {
  Model m;
  load_ok(&m, models[_i].src, models[_i].path, models[_i].test);
  Vm *vm = vm_new(m.bc, &m.test);
  Reached r;
  reach(vm, models[_i].max, &r);
  ck_assert_uint_gt(r.n, 50);
  for (uint32_t i = 0; i < r.n; i++) check_round_trip(vm, (uint8_t *)r.states[i].data, r.states[i].len);
  reached_fini(&r);
  vm_free(vm);
  model_free(&m);
}
END_TEST

/* The flags of every machine record of the States reached on a model,
** and the largest number of machines in them. */
static uint16_t reached_flags(const char *src, uint32_t max, uint32_t *nms) {
  Model m;
  load_ok(&m, src, NULL, NULL);
  Vm *vm = vm_new(m.bc, &m.test);
  Reached r;
  reach(vm, max, &r);
  uint16_t flags = 0;
  *nms = 0;
  for (uint32_t i = 0; i < r.n; i++) {
    VmChoices ch = {0};
    vm_choices(vm, (uint8_t *)r.states[i].data, r.states[i].len, &ch);
    vm_choices_fini(&ch);
    for (uint32_t k = 0; k < vm->nms; k++) flags |= vs_hdr(&vm->ms[k])->flags;
    if (vm->nms > *nms) *nms = vm->nms;
  }
  reached_fini(&r);
  vm_free(vm);
  model_free(&m);
  return flags;
}

/* The models of (a) reach what they are there for: machines halted,
** waiting in receive, stopped mid-handler and not yet started; machine
** ids past 63. */
START_TEST(test_coverage) {
  uint32_t nms;
  uint16_t all = MF_HALTED | MF_START | MF_RECEIVE | MF_RUNNING;
  ck_assert_uint_eq(reached_flags(kitchen_sink, 3000, &nms) & all, all);
  reached_flags(many_machines, 5000, &nms);
  ck_assert_uint_gt(nms, 65);
}
END_TEST

/* ---- (b) equal states, equal bytes ---- */

/* Step s by each choice in turn; the result in out. */
static void walk(Vm *vm, const Buf *s, const uint32_t *choices, int n, Buf *out) {
  Buf a, b;
  buf_init(&a);
  buf_init(&b);
  buf_append(&a, s->data, s->len);
  for (int i = 0; i < n; i++) {
    ck_assert_int_eq(vm_step(vm, (uint8_t *)a.data, a.len, choices[i], &b), VM_OK);
    Buf t = a; a = b; b = t;
  }
  out->len = 0;
  buf_append(out, a.data, a.len);
  buf_fini(&a);
  buf_fini(&b);
}

static void ck_same(const Buf *x, const Buf *y) {
  ck_assert_uint_eq(x->len, y->len);
  ck_assert(memcmp(x->data, y->data, x->len) == 0);
}

/* Two branches of a `$` build the same values in different ways: an int
** that goes 0 -> 1 -> 0, maps, sets and seqs filled in other orders and
** with elements added and removed again, a string built by concatenation,
** a tuple rebuilt field by field. */
static const char two_ways[] =
  "machine Main { var x: int; var m: map[int, int]; var s: set[int]; var q: seq[int]; var str: string;\n"
  "  var t: (a: int, b: bool); var big: int;\n"
  "  start state S { entry {\n"
  "    if ($) { x = 1; x = 0; m[1] = 1; m[2] = 2; s += (3); s += (1); q += (0, 5); q += (1, 6); str = \"ab\";\n"
  "      t = (a = 7, b = true); big = 100000; }\n"
  "    else { m[2] = 2; m[3] = 3; m[1] = 1; m -= (3); s += (1); s += (2); s += (3); s -= (2);\n"
  "      q += (0, 6); q += (0, 5); str = \"a\"; str = str + \"b\"; t.a = 7; t.b = true; big = 99999; big = big + 1; }\n"
  "  } } }\n";

START_TEST(test_two_ways) {
  Model m;
  load_ok(&m, two_ways, NULL, NULL);
  Vm *vm = vm_new(m.bc, &m.test);
  Buf s0, s1, a, b;
  buf_init(&s0);
  buf_init(&s1);
  buf_init(&a);
  buf_init(&b);
  ck_assert_int_eq(vm_initial(vm, &s0), VM_OK);
  const uint32_t start[] = {0};   /* Main enters S: stops at the $ */
  walk(vm, &s0, start, 1, &s1);
  const uint32_t yes[] = {1}, no[] = {0};
  walk(vm, &s1, yes, 1, &a);
  walk(vm, &s1, no, 1, &b);
  ck_same(&a, &b);
  check_round_trip(vm, (uint8_t *)a.data, a.len);
  buf_fini(&s0);
  buf_fini(&s1);
  buf_fini(&a);
  buf_fini(&b);
  vm_free(vm);
  model_free(&m);
}
END_TEST

/* Two machines whose steps commute: either order, the same bytes; and a
** machine whose variable goes back to its first value. */
static const char interleavings[] =
  "event ePing;\n"
  "machine W { var n: int; start state S { entry { n = n + 1; } on ePing do { n = n + 1; n = n - 1; } } }\n"
  "machine Main { var a: W; var b: W; start state S { entry { a = new W(); b = new W(); } } }\n";

START_TEST(test_interleavings) {
  Model m;
  load_ok(&m, interleavings, NULL, NULL);
  Vm *vm = vm_new(m.bc, &m.test);
  Buf s0, x, y;
  buf_init(&s0);
  buf_init(&x);
  buf_init(&y);
  ck_assert_int_eq(vm_initial(vm, &s0), VM_OK);
  /* Main: enter and create a (stop), create b (stop), finish; then the
  ** Ws start, in either order. */
  const uint32_t ab[] = {0, 0, 0, 1, 2}, ba[] = {0, 0, 0, 2, 1};
  walk(vm, &s0, ab, 5, &x);
  walk(vm, &s0, ba, 5, &y);
  ck_same(&x, &y);
  /* The same after both Main and a machine were stepped in another order. */
  const uint32_t mixed[] = {0, 0, 1, 0, 2};   /* a starts before Main finishes */
  walk(vm, &s0, mixed, 5, &y);
  ck_same(&x, &y);
  check_round_trip(vm, (uint8_t *)x.data, x.len);
  buf_fini(&s0);
  buf_fini(&x);
  buf_fini(&y);
  vm_free(vm);
  model_free(&m);
}
END_TEST

/* ---- (c) damaged States ---- */

/* Every proper prefix is refused; every one-bit change is refused, or is
** accepted only as the one encoding of its State (it re-encodes to
** itself). */
static void damage(Vm *vm, const uint8_t *s, size_t len) {
  for (size_t cut = 0; cut < len; cut++) {
    uint8_t *c = xmalloc(cut ? cut : 1);   /* exactly cut bytes: ASan sees reads past the end */
    memcpy(c, s, cut);
    ck_assert_msg(!vm_state_valid(vm, c, cut), "prefix of %zu bytes of %zu accepted", cut, len);
    free(c);
  }
  uint8_t *d = xmalloc(len);
  Buf b;
  buf_init(&b);
  for (size_t i = 0; i < len; i++) {
    for (int bit = 0; bit < 8; bit++) {
      memcpy(d, s, len);
      d[i] ^= (uint8_t)(1u << bit);
      if (!vm_state_valid(vm, d, len)) continue;
      recode(vm, d, len, &b);
      ck_assert_msg(b.len == len && memcmp(b.data, d, len) == 0, "byte %zu bit %d: accepted, not canonical", i, bit);
    }
  }
  buf_fini(&b);
  free(d);
}

START_TEST(test_damaged) {
  Model m;
  load_ok(&m, models[_i].src, models[_i].path, models[_i].test);
  Vm *vm = vm_new(m.bc, &m.test);
  Reached r;
  reach(vm, models[_i].max, &r);
  /* A sample: the first States and then every 97th. */
  for (uint32_t i = 0; i < r.n; i += i < 8 ? 1 : 97) damage(vm, (uint8_t *)r.states[i].data, r.states[i].len);
  reached_fini(&r);
  vm_free(vm);
  model_free(&m);
}
END_TEST

/* An event value that names no event of the program (a State from outside:
** a checkpoint, the fuzzer) is refused: a send or raise of it would index
** the event tables out of bounds.  Every byte pair that reads as a 1-byte
** event value (TG_EVENT, vm/value.c) in the reached States is turned into
** event 255 of a program with three. */
static const char event_var[] =
  "event eGo;\nevent eMark;\n"
  "machine Main {\n  var x: event;\n"
  "  start state S { entry { x = eMark; send this, eGo; } on eGo do { x = eGo; } }\n}\n";
START_TEST(test_event_out_of_range) {
  Model m;
  load_ok(&m, event_var, NULL, NULL);
  Vm *vm = vm_new(m.bc, &m.test);
  Reached r;
  reach(vm, 50, &r);
  int tried = 0;
  for (uint32_t i = 0; i < r.n; i++) {
    uint8_t *b = (uint8_t *)r.states[i].data;
    for (size_t k = 0; k + 1 < r.states[i].len; k++) {
      if (b[k] != 0x14 || b[k + 1] == 0 || b[k + 1] > 2) continue;
      uint8_t was = b[k + 1];
      b[k + 1] = 0xff;
      ck_assert_msg(!vm_state_valid(vm, b, r.states[i].len), "state %u: event 255 at byte %zu accepted", i, k + 1);
      b[k + 1] = was;
      tried++;
    }
  }
  ck_assert_int_gt(tried, 0);
  reached_fini(&r);
  vm_free(vm);
  model_free(&m);
}
END_TEST

/* Hand-made bytes: what the layout forbids is refused. */
START_TEST(test_refused) {
  Model m;
  load_ok(&m, "machine Main { var x: int; start state S { } }\n", NULL, NULL);
  Vm *vm = vm_new(m.bc, &m.test);
  Buf s0;
  buf_init(&s0);
  ck_assert_int_eq(vm_initial(vm, &s0), VM_OK);
  const uint8_t *g = (uint8_t *)s0.data;
  /* The initial State: no choice, 1 machine; its record: 6 bytes, START,
  ** type, state, interface, null payload, x = 0. */
  ck_assert_uint_eq(s0.len, 9);
  ck_assert(g[0] == 0 && g[1] == 1 && g[2] == 6 && g[3] == MF_START && g[7] == 0x00 && g[8] == 0x80);
  ck_assert(vm_state_valid(vm, g, s0.len));
  struct { const char *why; uint8_t bytes[16]; size_t n; } rows[] = {
    {"trailing byte", {0, 1, 6, MF_START, g[4], g[5], g[6], 0, 0x80, 0}, 10},
    {"padded machine count", {0, 0x81, 0x00, 6, MF_START, g[4], g[5], g[6], 0, 0x80}, 10},
    {"two machines, one record", {0, 2, 6, MF_START, g[4], g[5], g[6], 0, 0x80}, 9},
    {"choice kind 5", {5, 1, 0, 2, 6, MF_START, g[4], g[5], g[6], 0, 0x80}, 11},
    {"choice of machine 1 of 1", {1, 1, 1, 2, 6, MF_START, g[4], g[5], g[6], 0, 0x80}, 11},
    {"fair choice of 3", {4, 1, 0, 3, 6, MF_START, g[4], g[5], g[6], 0, 0x80}, 11},
    {"flag bit 7", {0, 1, 6, MF_START | 0x80, g[4], g[5], g[6], 0, 0x80}, 9},
    {"inbox flag, count 0", {0, 1, 7, MF_START | RF_INBOX, g[4], g[5], g[6], 0, 0, 0x80}, 10},
    {"inbox event past the last", {0, 1, 9, MF_START | RF_INBOX, g[4], g[5], g[6], 1, 99, 0, 0, 0x80}, 12},
    {"halted and started", {0, 1, 4, MF_HALTED | MF_START, g[4], g[5], g[6]}, 7},
    {"halted with variables", {0, 1, 5, MF_HALTED, g[4], g[5], g[6], 0x80}, 8},
    {"running, no frames", {0, 1, 6, MF_RUNNING, g[4], g[5], g[6], 0x80, 0}, 9},
    {"type past the last", {0, 1, 6, MF_START, 99, g[5], g[6], 0, 0x80}, 9},
    {"state past the last", {0, 1, 6, MF_START, g[4], 99, g[6], 0, 0x80}, 9},
    {"int 0 in two bytes", {0, 1, 7, MF_START, g[4], g[5], g[6], 0, 0x04, 0}, 10},
  };
  for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
    ck_assert_msg(!vm_state_valid(vm, rows[i].bytes, rows[i].n), "%s: accepted", rows[i].why);
  buf_fini(&s0);
  vm_free(vm);
  model_free(&m);
}
END_TEST

/* ---- (d) exact sizes ---- */

/* A program, the machine choices to step from its initial State, and the
** size of the State after each of them (index 0: the initial State). */
static const struct { const char *name, *src; int nsteps; uint32_t choice[4]; size_t size[5]; } size_rows[] = {
  /* choice byte, machine count; record length 5: START, type, state,
  ** interface, null payload: 8.  Started: the payload goes: 7. */
  {"empty machine", "machine Main { start state S { } }\n", 1, {0}, {8, 7}},
  /* Halted: flags, type, state, interface, as before: 7. */
  {"halted", "machine Main { start state S { entry { raise halt; } } }\n", 1, {0}, {8, 7}},
  /* 11 variables at their defaults: int, bool, seq, set, map, string,
  ** machine, event 1 byte each; enum 3 (tag, enum id, value); the tuple
  ** (0, false) 6 (tag, body, count, shape, 2 elements); float 9: 26. */
  {"defaults", "enum Color { Red, Green }\n"
   "machine Main { var i: int; var b: bool; var s: seq[int]; var st: set[int]; var m: map[int, int]; var str: string;\n"
   "  var mm: machine; var e: event; var c: Color; var t: (int, bool); var f: float; start state S { } }\n",
   1, {0}, {2 + 1 + 5 + 26, 2 + 1 + 4 + 26}},
  /* Small values: 5, true, -1 (2 bytes), 300 (3), [1, 2] (3 + 2), "ab"
  ** (2 + 2): 1 + 1 + 2 + 3 + 5 + 4 = 16. */
  {"small values", "machine Main { var i: int; var b: bool; var n: int; var k: int; var q: seq[int]; var s: string;\n"
   "  start state S { entry { i = 5; b = true; n = -1; k = 300; q += (0, 1); q += (1, 2); s = \"ab\"; } } }\n",
   1, {0}, {2 + 1 + 5 + 6, 2 + 1 + 4 + 16}},
  /* A spec record (flags, type, state, interface 0, a set of one int: 4)
  ** before Main.  Main sends ePing, 300 to Sink and itself twice; Sink is
  ** created and never runs.  At the end Main's record is 5 (the variable
  ** is machine id 1); Sink's is START|inbox, type, state, interface,
  ** count 2, (ePing, 300: 1 + 3) twice, null payload: 14.  Spec: the set
  ** {300}: tag, body, count, 3 bytes: 6, record 10. */
  {"inbox", "event ePing : int;\n"
   "spec Seen observes ePing { var got: set[int]; start state S { on ePing do (x: int) { got += (x); } } }\n"
   "machine Sink { start state S { on ePing do (x: int) { } } }\n"
   "machine Main { var k: Sink; start state S { entry { k = new Sink(); send k, ePing, 300; send k, ePing, 300; } } }\n",
   4, {0, 0, 0, 0}, {2 + 1 + 5 + 1 + 6, 0, 0, 0, 2 + 1 + 10 + 1 + 5 + 1 + 14}},
};

START_TEST(test_sizes) {
  Model m;
  load_ok(&m, size_rows[_i].src, NULL, NULL);
  Vm *vm = vm_new(m.bc, &m.test);
  Buf a, b;
  buf_init(&a);
  buf_init(&b);
  ck_assert_int_eq(vm_initial(vm, &a), VM_OK);
  ck_assert_msg(a.len == size_rows[_i].size[0], "%s: initial State of %zu bytes, not %zu", size_rows[_i].name,
                a.len, size_rows[_i].size[0]);
  for (int k = 0; k < size_rows[_i].nsteps; k++) {
    ck_assert_int_eq(vm_step(vm, (uint8_t *)a.data, a.len, size_rows[_i].choice[k], &b), VM_OK);
    Buf t = a; a = b; b = t;
    size_t want = size_rows[_i].size[k + 1];
    if (want) ck_assert_msg(a.len == want, "%s: after step %d, %zu bytes, not %zu", size_rows[_i].name, k + 1, a.len, want);
    check_round_trip(vm, (uint8_t *)a.data, a.len);
  }
  buf_fini(&a);
  buf_fini(&b);
  vm_free(vm);
  model_free(&m);
}
END_TEST

#define NROWS(t) (int)(sizeof(t) / sizeof((t)[0]))

int main(void) {
  Suite *s = suite_create("state");
  TCase *tc = tcase_create("all");
  tcase_set_timeout(tc, 600);
  tcase_add_loop_test(tc, test_round_trip, 0, NMODELS);
  tcase_add_test(tc, test_coverage);
  tcase_add_test(tc, test_two_ways);
  tcase_add_test(tc, test_interleavings);
  tcase_add_loop_test(tc, test_damaged, 0, NMODELS);
  tcase_add_test(tc, test_refused);
  tcase_add_test(tc, test_event_out_of_range);
  tcase_add_loop_test(tc, test_sizes, 0, NROWS(size_rows));
  suite_add_tcase(s, tc);
  return run_suite(s);
}
