/* sema.h: name resolution and type checking of a parsed model.
** sema_check() resolves every name to its declaration (Ast.decl), gives
** every expression its type (Ast.type) and reports every static error P
** enforces.  Ownership: the Program owns its arena (AST and types); the
** symbol tables borrow nodes from it. */
#ifndef PCHECK_SEMA_H
#define PCHECK_SEMA_H
#include "lang/ast.h"
#include "lang/types.h"

/* D_VAR kinds (Ast.vkind).  VK_MACHINE and VK_EXPLORER variables live in
** the machine record (Ast.slot: their index there); VK_PARAM and VK_LOCAL
** in the function's locals; VK_GLOBALPARAM is a D_PARAM's. */
enum { VK_FIELD = 1, VK_LOCAL, VK_PARAM, VK_MACHINE, VK_EXPLORER, VK_GLOBALPARAM };

typedef struct Symtab Symtab;

typedef struct Program {
  Arena *arena;          /* owns every node and type */
  TypeCtx types;         /* type singletons and constructors */
  Ast *root;             /* D_PROGRAM: declarations of every file, in order */
  PtrVec events;         /* D_EVENT, in declaration order */
  PtrVec machines;       /* D_MACHINE that are not specs */
  PtrVec specs;          /* D_MACHINE with AF_SPEC */
  PtrVec funs;           /* global D_FUN */
  PtrVec tests;          /* D_TEST */
  PtrVec params;         /* global D_PARAM */
  PtrVec explorers;      /* D_EXPLORER */
  PtrVec ifaces;         /* interfaces: each non-spec D_MACHINE and each D_INTERFACE, in declaration order */
  PtrVec impls;          /* D_IMPL */
  int nperm;             /* event ids: halt (0), then events in declaration order */
  Symtab *globals;       /* top-level names (tests excluded) */
  Symtab *testnames;     /* test names */
  Symtab *modules;       /* module names: their own namespace, as in P */
} Program;

/* An empty Program: its arena, the type singletons, an empty D_PROGRAM
** root for the parser to fill, and empty symbol tables. */
Program *program_new(void);
/* Free p and everything in its arena (NULL is allowed). */
void program_free(Program *p);
/* Check the whole program; errors go to d.  Returns the number of errors. */
int sema_check(Program *p, Diag *d);
/* The named module `name` (modules have their own namespace), or NULL. */
Ast *sema_module(const Program *p, const char *name);
/* The top-level declaration named `name`, or NULL. */
Ast *sema_global(const Program *p, const char *name);
/* The machine's state or function named `name`, or NULL. */
Ast *sema_machine_member(const Ast *machine, const char *name, AstKind kind);
/* The start state of a machine (NULL if it has none). */
Ast *sema_start_state(const Ast *machine);
/* The entry function of a state (a D_FUN), or NULL. */
Ast *sema_entry_fun(const Ast *state);

#endif
