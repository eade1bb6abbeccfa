/* fuzz_parse.c: libFuzzer entry point for the front end: any bytes as one
** .p file go through the lexer, the parser, the type checker and, when
** they check cleanly, the compiler and the bytecode verifier.  Build with
**   clang -g -O1 -fsanitize=fuzzer,address,undefined -I. -Ibuild ... (see tests/fuzz/run.sh) */
#include <config.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lang/codegen.h"
#include "lang/sema.h"
#include "lang/testcases.h"
#include "parser/parse.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  FILE *sink = fopen("/dev/null", "w");
  Diag d;
  diag_init(&d, sink);
  Program *p = program_new();
  char *text = xmalloc(size + 1);
  if (size) memcpy(text, data, size);
  text[size] = 0;
  uint32_t id = diag_add_file(&d, "fuzz.p", text, size);
  if (parse_source(&d, p->arena, id, p->root) == 0 && sema_check(p, &d) == 0) {
    TestList tl;
    if (testcases_build(p, &d, &tl) == 0) testcases_fini(&tl);
    else testcases_fini(&tl);
    BcProgram *bc = cg_compile(p, &d);
    if (bc) {
      Buf err;
      buf_init(&err);
      if (!bc_verify(bc, &err)) abort();   /* the compiler must emit verifiable code */
      buf_fini(&err);
      bc_free(bc);
    }
  }
  program_free(p);
  diag_fini(&d);
  fclose(sink);
  return 0;
}
