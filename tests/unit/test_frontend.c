/* test_frontend.c: table-driven unit tests of the front end: diagnostics
** positions, the lexer's tricky tokens, static rules, type compatibility
** and test-case expansion.  One row per case. */
#include <config.h>
#include "tests/unit/check_main.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lang/diag.h"
#include "lang/sema.h"
#include "lang/testcases.h"
#include "lang/types.h"
#include "parser/parse.h"

/* Parse and check `src` as one file; return the number of errors and the
** diagnostics text in *out (heap). */
static int compile(const char *src, char **out, Program **progp) {
  char *text = NULL;
  size_t tlen = 0;
  FILE *mem = open_memstream(&text, &tlen);
  Diag d;
  diag_init(&d, mem);
  Program *p = program_new();
  uint32_t id = diag_add_file(&d, "t.p", xstrdup(src), strlen(src));
  int errors = parse_source(&d, p->arena, id, p->root);
  if (!errors) errors = sema_check(p, &d);
  fclose(mem);
  diag_fini(&d);
  *out = text;
  if (progp) *progp = p; else program_free(p);
  return errors;
}

/* ---- diagnostics: line, column and caret ---- */
static const struct { const char *src; uint32_t off; int line, col; } linecol_rows[] = {
  {"abc", 0, 1, 1},
  {"abc", 2, 1, 3},
  {"a\nbc", 2, 2, 1},
  {"a\nbc\n\nd", 6, 4, 1},
  {"\t\tx", 2, 1, 3},
};

START_TEST(test_linecol) {
  Diag d;
  diag_init(&d, stderr);
  uint32_t f = diag_add_file(&d, "x.p", xstrdup(linecol_rows[_i].src), strlen(linecol_rows[_i].src));
  int line, col;
  diag_linecol(&d, (Span){f, linecol_rows[_i].off, linecol_rows[_i].off}, &line, &col);
  ck_assert_int_eq(line, linecol_rows[_i].line);
  ck_assert_int_eq(col, linecol_rows[_i].col);
  diag_fini(&d);
}
END_TEST

START_TEST(test_caret) {
  char *out;
  int n = compile("machine Main {\n  start state S { entry { send this, eNo; } }\n}\n", &out, NULL);
  ck_assert_int_eq(n, 1);
  ck_assert_str_eq(out,
    "t.p:2:38: error: undeclared event 'eNo'\n"
    "  start state S { entry { send this, eNo; } }\n"
    "                                     ^^^\n");
  free(out);
}
END_TEST

/* ---- programs: how many errors, and the first message ---- */
#define M(body) "machine Main { start state S { entry { " body " } } }\n"
static const struct { const char *name, *src; int errors; const char *msg; } prog_rows[] = {
  {"float-vs-tuple-field", "type T = (int, (int, int));\n"
     "machine Main { var t: T; var f: float; start state S { entry { t.1.0 = 2; f = .5 + 1.25; } } }\n", 0, NULL},
  {"nested-tuple-index", "machine Main { var t: ((int, bool), int); start state S { entry { t.0.1 = true; } } }\n", 0, NULL},
  {"string-escapes", M("print \"a\\\"b\\n\";"), 0, NULL},
  {"precedence", M("assert 1 + 2 * 3 == 7 && !false || 1 < 2;"), 0, NULL},
  {"unary-minus", M("assert -1 - -2 == 1;"), 0, NULL},
  {"int-too-large", M("assert 99999999999999999999 > 0;"), 1, "value is out of range for type 'int'"},
  {"int-past-32-bits", M("assert 2147483648 > 0;"), 1, "value is out of range for type 'int'"},
  {"int-32-bit-max", M("assert 2147483647 > 0;"), 0, NULL},
  {"float-remainder", M("assert 7.5 % 2.0 == 1.5;"), 0, NULL},
  {"scenario-decl", "event e; machine Main { start state S { } } scenario C observes e { start hot state A { on e goto B; } cold state B { ignore e; } }", 0, NULL},
  {"scenario-misspelt", "event e; scenaro C observes e { start state A { } }", 1, "unexpected identifier 'scenaro'"},
  {"stray-char", M("assert 1 # 2;"), 2, "stray character"},
  {"unterminated-string", M("print \"abc;"), 2, "unterminated string"},
  {"unterminated-comment", "/* never closed\nmachine Main {}", 1, "unterminated comment"},
  {"keyword-as-name", "event receive;\n", 1, "syntax error"},
  {"interface-decl", "event e;\ninterface I(int) receives e;\nmachine Main { start state S { } }\n", 0, NULL},
  {"unsupported-pure", "pure f(): int;\n", 1, "not supported by pcheck"},
  {"unsupported-foreign-type", "type T;\n", 1, "not supported by pcheck"},
  {"unsupported-init-condition", "init-condition x;\n", 1, "not supported by pcheck"},
  {"undeclared-var", M("x = 1;"), 1, "undeclared variable 'x'"},
  {"assign-mismatch", "machine Main { var b: bool; start state S { entry { b = 1; } } }\n", 1, "cannot assign"},
  {"late-local", "machine Main { start state S { entry { var a: int; a = 1; var b: int; } } }\n", 1, "declared after a statement"},
  {"break-outside", M("break;"), 1, "'break' outside a loop"},
  {"missing-return", "fun F(x: int) : int { if (x > 0) { return 1; } }\nmachine Main { start state S { } }\n", 1,
     "without returning"},
  {"return-all-paths", "fun F(x: int) : int { if (x > 0) { return 1; } else { return 2; } }\n"
     "machine Main { start state S { } }\n", 0, NULL},
  {"no-start", "machine Main { state S { } }\n", 1, "has no start state"},
  {"two-starts", "machine Main { start state S { } start state T { } }\n", 1, "more than one start state"},
  {"raise-in-exit", "event e;\nmachine Main { start state S { exit { raise e; } on e do {} } }\n", 1, "not allowed in an exit"},
  {"goto-in-named-exit", "machine Main { start state S { exit Leave; } fun Leave() { goto S; } }\n", 1, "not allowed in an exit"},
  {"handler-payload", "event e : int;\nmachine Main { start state S { on e do (s: string) { } } }\n", 1, "does not accept"},
  {"send-payload", "event e : int;\n" M("send this, e, true;"), 1, "does not match"},
  {"send-missing-payload", "event e : int;\n" M("send this, e;"), 1, "missing payload"},
  {"send-multi-payload", "event e : (int, bool);\n" M("send this, e, 1, true;"), 0, NULL},
  {"new-payload", "machine A { start state S { entry (x: int) { } } }\n" M("new A(true);"), 1, "does not match"},
  {"spec-send", "event e;\nspec P observes e { start state S { on e do { send null, e; } } }\n", 1, "a spec cannot use 'send'"},
  {"spec-this", "event e;\nspec P observes e { var m: machine; start state S { on e do { m = this; } } }\n", 1,
     "a spec cannot use 'this'"},
  {"foreach-ok", "machine Main { var s: seq[int]; start state S { entry { var x: int; foreach (x in s) { } } } }\n", 0, NULL},
  {"foreach-undeclared", "machine Main { var s: seq[int]; start state S { entry { foreach (x in s) { } } } }\n", 1,
     "undeclared variable 'x'"},
  {"format-placeholder", M("print format(\"{0} {1}\", 1);"), 1, "placeholder {1}"},
  {"cast-ok", "machine Main { var a: any; var i: int; start state S { entry { i = a as int; } } }\n", 0, NULL},
  {"convert-bad", "machine Main { var s: string; start state S { entry { s = 1 to string; } } }\n", 1, "'to' converts to an interface, int or float"},
  {"enum-to-int", "enum E { A, B }\nmachine Main { var i: int; start state S { entry { i = B to int; } } }\n", 0, NULL},
  {"choose-forms", "machine Main { var s: set[int]; var m: map[int, bool]; var i: int; var b: bool;\n"
     "start state S { entry { b = choose(); i = choose(3); i = choose(s); i = choose(m); b = $ || $$; } } }\n", 0, NULL},
  {"redeclared-event", "event e;\nevent e;\n", 1, "redeclaration of event 'e'"},
  {"test-not-spec", "machine M { start state S { } }\ntest t [main=M]: assert M in { M };\n", 1, "expected a spec monitor"},
  {"deep-expression", NULL, 1, "nested too deeply"},
};

START_TEST(test_programs) {
  const char *src = prog_rows[_i].src;
  char *gen = NULL;
  if (!src) {   /* 1500 additions in a row */
    size_t n = 1500;
    gen = xmalloc(n * 2 + 128);
    strcpy(gen, "machine Main { var x: int; start state S { entry { x = 1");
    for (size_t i = 0; i < n; i++) strcat(gen, "+1");
    strcat(gen, "; } } }\n");
    src = gen;
  }
  char *out;
  int n = compile(src, &out, NULL);
  if (n != prog_rows[_i].errors) fprintf(stderr, "%s:\n%s", prog_rows[_i].name, out);
  ck_assert_int_eq(n, prog_rows[_i].errors);
  if (prog_rows[_i].msg) ck_assert_msg(strstr(out, prog_rows[_i].msg) != NULL, "%s: wanted '%s' in:\n%s",
                                       prog_rows[_i].name, prog_rows[_i].msg, out);
  free(out);
  free(gen);
}
END_TEST

/* ---- type compatibility ---- */
START_TEST(test_types) {
  Arena *a = arena_new();
  TypeCtx tc;
  types_init(&tc, a);
  Type *si = type_seq(&tc, tc.t_int), *sa = type_seq(&tc, tc.t_any), *sm = type_seq(&tc, tc.t_machine);
  Type *mi = type_map(&tc, tc.t_int, tc.t_bool);
  struct { Type *to, *from; int assignable, castable, convertible; } rows[] = {
    {tc.t_int, tc.t_int, 1, 1, 1},
    {tc.t_int, tc.t_bool, 0, 0, 0},
    {tc.t_float, tc.t_int, 0, 0, 1},
    {tc.t_int, tc.t_float, 0, 0, 1},
    {tc.t_any, tc.t_int, 1, 1, 0},
    {tc.t_int, tc.t_any, 0, 1, 0},
    {tc.t_machine, tc.t_null, 1, 1, 0},
    {tc.t_event, tc.t_null, 1, 1, 0},
    {tc.t_int, tc.t_null, 0, 0, 0},
    {tc.t_data, tc.t_machine, 0, 0, 0},
    {tc.t_data, si, 1, 1, 0},
    {tc.t_data, sm, 0, 0, 0},
    {sa, si, 1, 1, 0},
    {si, sa, 0, 1, 0},
    {mi, si, 0, 0, 0},
  };
  for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
    ck_assert_msg(type_assignable(rows[i].to, rows[i].from) == rows[i].assignable, "assignable row %zu", i);
    ck_assert_msg(type_castable(rows[i].to, rows[i].from) == rows[i].castable, "castable row %zu", i);
    ck_assert_msg(type_convertible(rows[i].to, rows[i].from) == rows[i].convertible ||
                  type_equal(rows[i].to, rows[i].from), "convertible row %zu", i);
  }
  Buf b;
  buf_init(&b);
  Type *nt = type_new(&tc, TY_NTUPLE, 2);
  nt->names = arena_alloc(a, 2 * sizeof(char *));
  nt->names[0] = "a"; nt->names[1] = "b";
  nt->elems[0] = tc.t_int; nt->elems[1] = mi;
  type_print(&b, nt);
  ck_assert_str_eq(b.data, "(a: int, b: map[int, bool])");
  buf_fini(&b);
  arena_free(a);
}
END_TEST

/* ---- test cases ---- */
static const struct { const char *src; const char *names; } tc_rows[] = {
  {"machine Main { start state S { } }\n", "Main"},
  {"machine D { start state S { } }\n", ""},
  {"machine D { start state S { } }\ntest a [main=D]: { D };\ntest b [main=D]: { D };\n", "a b"},
  {"param n : int;\nparam b : bool;\nmachine D { start state S { } }\n"
   "test param (n in [2, 3], b in [true, false]) tc [main=D]: { D };\n",
   "tc___n_2__b_true tc___n_3__b_true tc___n_2__b_false tc___n_3__b_false"},   /* P's order: the first param fastest */
  {"param n : int;\nparam b : bool;\nmachine D { start state S { } }\n"
   "test param (n in [2, 3], b in [true, false]) assume (n > 2 || b) tc [main=D]: { D };\n",
   "tc___n_2__b_true tc___n_3__b_true tc___n_3__b_false"},
  /* Pairwise over three boolean params: 4 cases cover all 12 pairs, in the
  ** order the greedy cover picks them (P's). */
  {"param x : bool;\nparam y : bool;\nparam z : bool;\nmachine D { start state S { } }\n"
   "test param (x in [true, false], y in [true, false], z in [true, false]) (2 wise) tw [main=D]: { D };\n",
   "tw___x_true__y_true__z_true tw___x_false__y_false__z_true tw___x_false__y_true__z_false "
   "tw___x_true__y_false__z_false"},
};

START_TEST(test_testcases) {
  char *out;
  Program *p;
  int n = compile(tc_rows[_i].src, &out, &p);
  ck_assert_msg(n == 0, "%s", out);
  Diag d;
  diag_init(&d, stderr);
  TestList tl;
  ck_assert_int_eq(testcases_build(p, &d, &tl), 0);
  Buf b;
  buf_init(&b);
  for (int i = 0; i < tl.n; i++) buf_printf(&b, "%s%s", i ? " " : "", tl.items[i].name);
  ck_assert_str_eq(b.data ? b.data : "", tc_rows[_i].names);
  buf_fini(&b);
  testcases_fini(&tl);
  diag_fini(&d);
  program_free(p);
  free(out);
}
END_TEST

int main(void) {
  Suite *s = suite_create("frontend");
  TCase *tc = tcase_create("all");
  tcase_add_loop_test(tc, test_linecol, 0, (int)(sizeof linecol_rows / sizeof linecol_rows[0]));
  tcase_add_test(tc, test_caret);
  tcase_add_loop_test(tc, test_programs, 0, (int)(sizeof prog_rows / sizeof prog_rows[0]));
  tcase_add_test(tc, test_types);
  tcase_add_loop_test(tc, test_testcases, 0, (int)(sizeof tc_rows / sizeof tc_rows[0]));
  suite_add_tcase(s, tc);
  return run_suite(s);
}
