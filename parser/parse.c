/* parse.c: run the scanner and parser over one registered source file.
** The scanner reads the file's bytes as they are (NULs included). */
#include <config.h>
#include "parser/parse.h"
#include "parser/grammar.h"
#define YYSTYPE PP_YYSTYPE
#define YYLTYPE PP_YYLTYPE
#include "parser/lexer.h"

int parse_source(Diag *diag, Arena *arena, uint32_t file, Ast *prog) {
  ParseCtx ctx = {0};
  ctx.diag = diag;
  ctx.arena = arena;
  ctx.file = file;
  ctx.program = prog;
  yyscan_t scanner;
  if (pp_yylex_init_extra(&ctx, &scanner) != 0) {
    diag_error_noloc(diag, "cannot start the scanner");
    return 1;
  }
  const SrcFile *f = &diag->files[file];
  YY_BUFFER_STATE buf = pp_yy_scan_bytes(f->text, (int)f->len, scanner);
  int rc = pp_yyparse(scanner, &ctx);
  pp_yy_delete_buffer(buf, scanner);
  pp_yylex_destroy(scanner);
  if (rc != 0 && ctx.errors == 0) {
    Span sp = { file, (uint32_t)f->len, (uint32_t)f->len };
    diag_error(diag, sp, "cannot parse this file");
    ctx.errors++;
  }
  return ctx.errors;
}
