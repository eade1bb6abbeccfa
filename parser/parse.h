/* parse.h: turn source files into AST declarations.
** parse_source() lexes and parses one registered file and appends its
** top-level declarations to prog->list; syntax errors go to the Diag.
** Ownership: every node is allocated in `arena`. */
#ifndef PCHECK_PARSE_H
#define PCHECK_PARSE_H
#include "lang/ast.h"

/* Per-file state shared by the scanner and the parser. */
typedef struct ParseCtx {
  Diag *diag;            /* where errors go */
  Arena *arena;          /* owns the nodes */
  uint32_t file;         /* number of the file in diag */
  uint32_t offset;       /* byte offset of the scanner in the file */
  int last_tok;          /* previous token kind, for `.5` versus `t.0` */
  Ast *program;          /* D_PROGRAM receiving declarations */
  int errors;            /* errors reported for this file */
  uint32_t comment_start;/* offset of an open block comment */
  int lex_fatal;         /* an unterminated string or comment ran to the end of the file */
} ParseCtx;

/* Longest expression nesting accepted before "nested too deeply". */
#define PARSE_MAX_DEPTH 1000

/* Parse file number `file` of diag into prog.  Returns the number of errors. */
int parse_source(Diag *diag, Arena *arena, uint32_t file, Ast *prog);

#endif
