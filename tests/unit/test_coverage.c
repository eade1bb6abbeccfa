/* test_coverage.c: coverage points and reports (vm/vm.h "Coverage",
** checker/observe/coverage.c).
** (a) Small deterministic models (one machine, or a spec beside it) run
**     to their end with the first choice each time; the summary line must
**     be the expected one: handlers run and not, gotos, a lazy assert
**     whose condition held, defer and ignore, receive cases, the null
**     handler, specs' states.
** (b) Reports read back from JSON and merged: the merged summary.
** (c) Malformed reports: refused with what is wrong.
** (d) Schedule coverage (Bita's example, tests/coverage/writer.p): the
**     schedules w1 w2 f and f w2 w1 cover the 6 PR goals, 4 PCR, 4 PBR;
**     the first alone half of each; identities are the same in every
**     execution (the same schedule twice adds nothing).
** (e) What bita and guided read before a step (schedtrack_peek) is what
**     the tracker records after it: on several models and seeds, each
**     step's receive identity is the one the tracker then appends, every
**     receive's identity was predicted by the send that made its message,
**     and every receive's handler-run links point backwards.
** (f) Learned orderings (checker/observe/learned.c) saved and loaded back: the
**     same keys, the file's lines in order, keys from send places equal to
**     keys from the file's text. */
#include <config.h>
#include "tests/unit/check_main.h"
#include "tests/unit/model.h"
#include "checker/observe/coverage.h"
#include "checker/base/json.h"
#include "checker/observe/schedcov.h"
#include "checker/observe/learned.h"
#include "checker/base/rng.h"
#include <unistd.h>

/* Run m's test to its end (the first choice at each step), marking cov. */
static void run_first_choices(Model *m, VmCov *cov) {
  ck_assert_int_eq(vm_cov_init(cov, m->bc), 0);
  m->test.cov = cov;
  Vm *vm = vm_new(m->bc, &m->test);
  Buf a, b;
  buf_init(&a);
  buf_init(&b);
  ck_assert_int_eq(vm_initial(vm, &a), VM_OK);
  VmChoices ch = {0};
  for (int steps = 0; steps < 1000; steps++) {
    ch.n = 0;
    if (vm_choices(vm, (const uint8_t *)a.data, a.len, &ch) != VM_OK || ch.n == 0) break;
    uint32_t c = ch.kind == VC_MACHINE ? ch.ids[0] : 0;
    ck_assert_int_eq(vm_step(vm, (const uint8_t *)a.data, a.len, c, &b), VM_OK);
    Buf t = a;
    a = b;
    b = t;
  }
  vm_choices_fini(&ch);
  buf_fini(&a);
  buf_fini(&b);
  vm_free(vm);
}

typedef struct Row {
  const char *name;
  const char *src;
  const char *summary;
} Row;

static const Row rows[] = {
  { "a handler run, one not",
    "event eA; event eB;\n"
    "machine Main { start state S { entry { raise eA; }\n"
    "  on eA do { }\n"
    "  on eB do { } } }\n",
    "coverage: 1/1 states, 1/2 handlers, 0/0 asserts; never run: Main.S on eB (m.p:4)" },
  { "goto, a lazy assert that held, a state never entered",
    "event eGo;\n"
    "machine Main { var n: int;\n"
    "  start state S { entry { n = 1; raise eGo; } on eGo goto T; }\n"
    "  state T { entry { assert n == 1, format(\"n is {0}\", n); } }\n"
    "  state U { entry { assert false; } } }\n",
    "coverage: 2/3 states, 1/1 handlers, 1/2 asserts; never run: state Main.U (m.p:5), assert in Main.U.entry (m.p:5)" },
  { "defer, ignore, then the deferred event handled after a goto",
    "event eD; event eI; event eGo;\n"
    "machine Main {\n"
    "  start state S { entry { send this, eD; send this, eI; send this, eGo; }\n"
    "    defer eD; ignore eI; on eGo goto T; }\n"
    "  state T { on eD do { } } }\n",
    "coverage: 2/2 states, 2/2 handlers, 0/0 asserts" },
  { "a receive case taken, one not",
    "event eX; event eY;\n"
    "machine Main { start state S { entry { send this, eX;\n"
    "  receive { case eX: { } case eY: { } } } } }\n",
    "coverage: 1/1 states, 1/2 handlers, 0/0 asserts; never run: receive case eY in Main.S.entry (m.p:3)" },
  { "the null handler",
    "machine Main { var k: int;\n"
    "  start state S { on null do { k = k + 1; if (k == 2) { goto T; } } }\n"
    "  state T { } }\n",
    "coverage: 2/2 states, 1/1 handlers, 0/0 asserts" },
  { "a spec's states and handlers",
    "event eA;\n"
    "spec W observes eA { start state Idle { on eA goto Seen; }\n"
    "  state Seen { on eA do { assert false, \"twice\"; } } }\n"
    "machine Main { start state S { entry { announce eA; } } }\n"
    "test t [main = Main]: assert W in { Main };\n",
    "coverage: 3/3 states, 1/2 handlers, 0/1 asserts; never run: W.Seen on eA (m.p:3), assert in W.Seen.on.eA (m.p:3)" },
};

START_TEST(test_points) {
  const Row *r = &rows[_i];
  Model m;
  model_load(&m, r->src);
  ck_assert_msg(m.ok, "%s: does not compile", r->name);
  VmCov cov;
  run_first_choices(&m, &cov);
  CovReport rep;
  cov_report_build(&rep, m.bc, &cov, NULL, "t");
  Buf line;
  buf_init(&line);
  cov_summary(&rep, &line);
  ck_assert_msg(strcmp(line.data, r->summary) == 0, "%s:\n  got  %s\n  want %s", r->name, line.data, r->summary);
  /* The JSON reads back to the same summary. */
  Buf j, err;
  buf_init(&j);
  buf_init(&err);
  cov_json(&rep, &j);
  CovReport back;
  ck_assert_msg(cov_from_json(&back, j.data, j.len, &err) == 0, "%s: %s", r->name, err.data);
  line.len = 0;
  cov_summary(&back, &line);
  ck_assert_msg(strcmp(line.data, r->summary) == 0, "%s (read back): %s", r->name, line.data);
  cov_report_fini(&back);
  cov_report_fini(&rep);
  buf_fini(&j);
  buf_fini(&err);
  buf_fini(&line);
  vm_cov_fini(&cov);
  model_free(&m);
}
END_TEST

/* Reports by hand: machine M, states S (entered or not) and T, handlers on
** eA and eB in S (run or not), one assert. */
static char *report(const char *test, int created, int t_entered, int a_run, int b_run, int assert_run) {
  Buf b;
  buf_init(&b);
  buf_printf(&b,
             "{\"format\": \"pcheck-coverage\", \"version\": 1, \"tests\": [\"%s\"], \"machines\": [{\"name\": \"M\", "
             "\"kind\": \"machine\", \"created\": %s, \"states\": [{\"name\": \"S\", \"file\": \"m.p\", \"line\": 2, "
             "\"col\": 1, \"entered\": true, \"events\": [{\"event\": \"eA\", \"handler\": \"do\", \"file\": \"m.p\", "
             "\"line\": 3, \"col\": 1, \"handled\": %s, \"received\": false, \"deferred\": false, \"ignored\": false, "
             "\"sent\": false}, {\"event\": \"eB\", \"handler\": \"goto\", \"handled\": %s, \"received\": false, "
             "\"deferred\": false, \"ignored\": false, \"sent\": false}], \"next\": [%s]}, {\"name\": \"T\", \"file\": "
             "null, \"entered\": %s, \"events\": [], \"next\": []}]}], \"receives\": [], \"asserts\": [{\"machine\": "
             "\"M\", \"function\": \"M.S.on.eA\", \"file\": \"m.p\", \"line\": 3, \"col\": 5, \"evaluated\": %s}]}",
             test, created ? "true" : "false", a_run ? "true" : "false", b_run ? "true" : "false", b_run ? "\"T\"" : "",
             t_entered ? "true" : "false", assert_run ? "true" : "false");
  return buf_take(&b);
}

typedef struct MergeRow {
  int a[5], b[5];            /* report() arguments after the name */
  const char *summary;
} MergeRow;

static const MergeRow merges[] = {
  { {1, 0, 1, 0, 1}, {1, 1, 0, 1, 0}, "coverage: 2/2 states, 2/2 handlers, 1/1 asserts" },
  { {1, 0, 1, 0, 0}, {1, 0, 1, 0, 0},
    "coverage: 1/2 states, 1/2 handlers, 0/1 asserts; never run: M.S on eB, state M.T, assert in M.S.on.eA (m.p:3)" },
  { {0, 0, 0, 0, 0}, {1, 1, 0, 1, 1}, "coverage: 2/2 states, 1/2 handlers, 1/1 asserts; never run: M.S on eA (m.p:3)" },
  { {0, 0, 0, 0, 0}, {0, 0, 0, 0, 0}, "coverage: 0/0 states, 0/0 handlers, 0/0 asserts" },
};

START_TEST(test_merge) {
  const MergeRow *r = &merges[_i];
  char *ja = report("a", r->a[0], r->a[1], r->a[2], r->a[3], r->a[4]);
  char *jb = report("b", r->b[0], r->b[1], r->b[2], r->b[3], r->b[4]);
  CovReport a, b;
  Buf err, line;
  buf_init(&err);
  buf_init(&line);
  ck_assert_msg(cov_from_json(&a, ja, strlen(ja), &err) == 0, "a: %s", err.data);
  ck_assert_msg(cov_from_json(&b, jb, strlen(jb), &err) == 0, "b: %s", err.data);
  cov_merge(&a, &b);
  cov_summary(&a, &line);
  ck_assert_msg(strcmp(line.data, r->summary) == 0, "row %d:\n  got  %s\n  want %s", _i, line.data, r->summary);
  ck_assert_int_eq(a.ntests, 2);
  cov_report_fini(&a);
  cov_report_fini(&b);
  buf_fini(&err);
  buf_fini(&line);
  free(ja);
  free(jb);
}
END_TEST

typedef struct BadRow {
  const char *json;
  const char *error;         /* a substring of the message */
} BadRow;

static const BadRow bads[] = {
  { "", "" },
  { "[1, 2]", "no \"format\": \"pcheck-coverage\"" },
  { "{\"format\": \"pcheck-coverage\", \"version\": 2}", "version this pcheck does not read" },
  { "{\"format\": \"pcheck-coverage\", \"version\": 1, \"tests\": [], \"machines\": 3}", "lacks a valid \"machines\"" },
  { "{\"format\": \"pcheck-coverage\", \"version\": 1, \"tests\": [], \"machines\": [{\"name\": \"M\", \"kind\": "
    "\"machine\", \"created\": true, \"states\": [{\"name\": \"S\", \"entered\": true, \"events\": [{\"event\": \"e\", "
    "\"handler\": \"maybe\"}], \"next\": []}]}], \"receives\": [], \"asserts\": []}", "unknown \"handler\"" },
  { "{\"format\": \"pcheck-coverage\", \"version\": 1, \"tests\": [], \"machines\": [], \"receives\": [{\"machine\": 1}], "
    "\"asserts\": []}", "a receive case lacks a valid \"machine\"" },
  { "{\"format\": \"pcheck-coverage\", \"version\": 1, \"tests\": [], \"machines\": [], \"receives\": [], "
    "\"asserts\": [{\"machine\": null, \"function\": \"f\", \"file\": \"m.p\", \"line\": -3, \"col\": 1, \"evaluated\": true}]}",
    "an assert has a number out of range" },
};

START_TEST(test_bad) {
  const BadRow *r = &bads[_i];
  CovReport rep;
  Buf err;
  buf_init(&err);
  ck_assert_int_eq(cov_from_json(&rep, r->json, strlen(r->json), &err), -1);
  ck_assert_msg(err.data && strstr(err.data, r->error), "row %d: message '%s' lacks '%s'", _i, err.data ? err.data : "",
                r->error);
  buf_fini(&err);
}
END_TEST

/* One execution of m, the enabled machine of the type listed first in
** prio (type names) running at each step; its receives folded into sc. */
static void run_priority(Model *m, const char *const *prio, SchedCov *sc) {
  Vm *vm = vm_new(m->bc, &m->test);
  vm_record_events(vm, 1);
  SchedTrack t;
  schedtrack_init(&t);
  schedtrack_begin(&t);
  Buf a, b;
  buf_init(&a);
  buf_init(&b);
  ck_assert_int_eq(vm_initial(vm, &a), VM_OK);
  uint32_t n;
  const VmEvent *ev = vm_events(vm, &n);
  schedtrack_step(&t, ev, n);
  VmChoices ch = {0};
  for (int steps = 0; steps < 1000; steps++) {
    ch.n = 0;
    if (vm_choices(vm, (const uint8_t *)a.data, a.len, &ch) != VM_OK || ch.n == 0) break;
    uint32_t c = 0;
    if (ch.kind == VC_MACHINE) {
      int best = 1 << 30;
      for (uint32_t i = 0; i < ch.n; i++) {
        const char *name = vm_machine_text(vm, ch.ids[i]);
        for (int k = 0; prio[k]; k++)
          if (strncmp(name, prio[k], strlen(prio[k])) == 0 && name[strlen(prio[k])] == '(' && k < best) {
            best = k;
            c = ch.ids[i];
          }
      }
      ck_assert_msg(best < (1 << 30), "no listed machine is enabled");
    }
    ck_assert_int_eq(vm_step(vm, (const uint8_t *)a.data, a.len, c, &b), VM_OK);
    ev = vm_events(vm, &n);
    schedtrack_step(&t, ev, n);
    Buf x = a;
    a = b;
    b = x;
  }
  schedtrack_end(&t, sc);
  schedtrack_fini(&t);
  vm_choices_fini(&ch);
  buf_fini(&a);
  buf_fini(&b);
  vm_free(vm);
}

/* The schedule coverage of sc as its summary line. */
static void sched_line(const Model *m, SchedCov *sc, VmCov *cov, Buf *out) {
  CovReport r;
  cov_report_build(&r, m->bc, cov, sc, "t");
  out->len = 0;
  cov_sched_summary(&r, out);
  cov_report_fini(&r);
}

START_TEST(test_bita_example) {
  Model m;
  model_load_test(&m, NULL, "tests/coverage/writer.p", NULL);
  ck_assert(m.ok);
  VmCov cov;
  ck_assert_int_eq(vm_cov_init(&cov, m.bc), 0);
  SchedCov *sc = schedcov_new(m.bc);
  static const char *const first[] = { "Main", "WriteOne", "WriteTwo", "Flusher", "Writer", NULL };
  static const char *const second[] = { "Main", "Flusher", "WriteTwo", "WriteOne", "Writer", NULL };
  Buf line;
  buf_init(&line);
  run_priority(&m, first, sc);
  sched_line(&m, sc, &cov, &line);
  ck_assert_str_eq(line.data, "schedule coverage: PR 3/6 goals, PCR 2/4, PBR 2/4");
  run_priority(&m, first, sc);
  sched_line(&m, sc, &cov, &line);
  ck_assert_str_eq(line.data, "schedule coverage: PR 3/6 goals, PCR 2/4, PBR 2/4");
  run_priority(&m, second, sc);
  sched_line(&m, sc, &cov, &line);
  ck_assert_str_eq(line.data, "schedule coverage: PR 6/6 goals, PCR 4/4, PBR 4/4");
  buf_fini(&line);
  schedcov_free(sc);
  vm_cov_fini(&cov);
  model_free(&m);
}
END_TEST

/* (e) Models and seeds for the peek test. */
typedef struct PeekRow {
  const char *path, *test;
  uint64_t seed;
} PeekRow;
static const PeekRow peeks[] = {
  { "tests/coverage/writer.p", NULL, 1 },
  { "models/clientserver", "tcMultipleClients", 1 },
  { "models/clientserver", "tcMultipleClients", 2 },
  { "models/paxos", "tcOneProposer", 3 },
  { "models/devicedriver", "tcTwoTransfers", 4 },
};

/* A sorted-array membership test for the predicted identities. */
static int cmp_u64(const void *x, const void *y) {
  uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
  return a < b ? -1 : a > b;
}

START_TEST(test_peek) {
  const PeekRow *row = &peeks[_i];
  Model m;
  model_load_test(&m, NULL, row->path, row->test);
  ck_assert(m.ok);
  Vm *vm = vm_new(m.bc, &m.test);
  vm_record_events(vm, 1);
  SchedTrack t;
  schedtrack_init(&t);
  schedtrack_begin(&t);
  Buf a, b;
  buf_init(&a);
  buf_init(&b);
  ck_assert_int_eq(vm_initial(vm, &a), VM_OK);
  uint32_t n;
  const VmEvent *ev = vm_events(vm, &n);
  schedtrack_step(&t, ev, n);
  Rng rng;
  rng_seed(&rng, row->seed);
  VmChoices ch = {0};
  uint64_t *sent = NULL;
  uint32_t nsent = 0, cap = 0, checked = 0;
  for (int steps = 0; steps < 3000; steps++) {
    if (vm_choices(vm, (const uint8_t *)a.data, a.len, &ch) != VM_OK || ch.kind == VC_NONE) break;
    uint32_t k = rng_below(&rng, ch.n), c = ch.kind == VC_MACHINE ? ch.ids[k] : k;
    b.len = 0;
    if (vm_step(vm, (const uint8_t *)a.data, a.len, c, &b) != VM_OK) break;
    ev = vm_events(vm, &n);
    SchedPeek pk;
    schedtrack_peek(&t, ev, n, &pk);
    uint32_t before = t.nrecvs;
    schedtrack_step(&t, ev, n);
    if (pk.recv) {
      ck_assert_uint_eq(t.nrecvs, before + 1);
      ck_assert(t.recvs[before].id == pk.recv);
      checked++;
    } else {
      ck_assert_uint_eq(t.nrecvs, before);
    }
    if (pk.sent) {
      if (nsent == cap) sent = xrealloc(sent, (cap = cap ? 2 * cap : 64) * sizeof *sent);
      sent[nsent++] = pk.sent;
    }
    Buf x = a;
    a = b;
    b = x;
  }
  ck_assert_uint_gt(checked, 2);
  if (nsent > 1) qsort(sent, nsent, sizeof *sent, cmp_u64);
  for (uint32_t i = 0; i < t.nrecvs; i++) {
    const SchedRecv *r = &t.recvs[i];
    ck_assert_msg(bsearch(&r->id, sent, nsent, sizeof *sent, cmp_u64), "receive %u was not predicted by a send", i);
    ck_assert_int_ge(r->cause, 0);
    ck_assert_int_lt(r->cause, r->node);
    ck_assert_int_lt(t.nodes[r->node].prev, r->node);
    ck_assert_int_eq(t.nodes[r->node].recv, (int)i);
    ck_assert_int_eq(t.nodes[r->node].cause, r->cause);
    ck_assert(r->where.file != NULL);
  }
  free(sent);
  schedtrack_fini(&t);
  vm_choices_fini(&ch);
  buf_fini(&a);
  buf_fini(&b);
  vm_free(vm);
  model_free(&m);
}
END_TEST

START_TEST(test_learned) {
  Model m;
  model_load_test(&m, NULL, "tests/coverage/writer.p", NULL);
  ck_assert(m.ok);
  /* The writer's receives as the tracker records them, by hand: two
  ** writes from two senders, then a flush. */
  static const char f[] = "dir/writer.p";
  SchedRecv r[3];
  memset(r, 0, sizeof r);
  for (int i = 0; i < 3; i++) {
    r[i].machine = 1;
    r[i].type = 0;
    r[i].where = (SchedLoc){ f, 20 + (uint32_t)i, 40, 2 + (uint32_t)(i == 2) };
  }
  for (uint16_t k = 0; k < m.bc->nmachines; k++)
    if (strcmp(m.bc->machines[k].name, "Writer") == 0) r[0].type = r[1].type = r[2].type = k;
  Learned *L = learned_new();
  ck_assert_uint_eq(learned_from(L, m.bc, r, 3), 2);
  ck_assert_uint_eq(learned_from(L, m.bc, r, 3), 0);
  ck_assert_uint_eq(learned_count(L), 2);
  uint64_t k01 = learned_key(L, "Writer", &r[0].where, &r[1].where);
  uint64_t k12 = learned_key(L, "Writer", &r[1].where, &r[2].where);
  uint64_t k10 = learned_key(L, "Writer", &r[1].where, &r[0].where);
  ck_assert(learned_has(L, k01) && learned_has(L, k12) && !learned_has(L, k10));
  char path[] = "/tmp/pcheck-learned-XXXXXX";
  int fd = mkstemp(path);
  ck_assert_int_ge(fd, 0);
  close(fd);
  ck_assert_int_eq(learned_save(L, path), 0);
  Learned *L2 = learned_new();
  Buf err;
  buf_init(&err);
  ck_assert_int_eq(learned_load(L2, path, &err), 0);
  ck_assert_uint_eq(learned_count(L2), 2);
  ck_assert(learned_has(L2, k01) && learned_has(L2, k12) && !learned_has(L2, k10));
  /* The same statements in another folder are the same orderings. */
  static const char g[] = "/elsewhere/writer.p";
  SchedLoc a = { g, 20, 40, 7 }, b2 = { g, 21, 40, 7 }, c = { g, 21, 40, 8 };
  ck_assert(learned_key(L2, "Writer", &a, &b2) == k01);
  ck_assert(learned_key(L2, "Writer", &a, &c) != k01);   /* other sender */
  FILE *fp = fopen(path, "r");
  char line[256];
  int lines = 0;
  while (fgets(line, sizeof line, fp))
    if (line[0] != '#') lines++;
  fclose(fp);
  ck_assert_int_eq(lines, 3);   /* version, then two orderings */
  unlink(path);
  buf_fini(&err);
  learned_free(L2);
  learned_free(L);
  model_free(&m);
}
END_TEST

int main(void) {
  Suite *s = suite_create("coverage");
  TCase *tc = tcase_create("coverage");
  tcase_add_loop_test(tc, test_points, 0, (int)(sizeof rows / sizeof rows[0]));
  tcase_add_loop_test(tc, test_merge, 0, (int)(sizeof merges / sizeof merges[0]));
  tcase_add_loop_test(tc, test_bad, 0, (int)(sizeof bads / sizeof bads[0]));
  tcase_add_test(tc, test_bita_example);
  tcase_add_loop_test(tc, test_peek, 0, (int)(sizeof peeks / sizeof peeks[0]));
  tcase_add_test(tc, test_learned);
  suite_add_tcase(s, tc);
  return run_suite(s);
}
