/* ast.h: the abstract syntax tree.  One node type, Ast, whose fields are
** used per kind as lang/ast.def says.  Every node carries its source span.
** Ownership: all nodes, names and lists live in one Arena; ast_free()
** frees the arena and with it the whole tree.  Nodes are never shared. */
#ifndef PCHECK_AST_H
#define PCHECK_AST_H
#include <stdint.h>
#include "lang/diag.h"
#include "vm/util.h"

typedef enum AstKind {
#define AST(kind, doc) AST_##kind,
#include "lang/ast.def"
#undef AST
  AST__COUNT
} AstKind;

/* Primitive types named in source (T_PRIM.op). */
typedef enum Prim {
  PRIM_INT, PRIM_BOOL, PRIM_FLOAT, PRIM_STRING, PRIM_EVENT, PRIM_MACHINE,
  PRIM_ANY, PRIM_DATA
} Prim;

/* Binary operators (E_BINARY.op). */
typedef enum BinOp {
  BIN_MUL, BIN_DIV, BIN_MOD, BIN_ADD, BIN_SUB, BIN_LT, BIN_GT, BIN_LE,
  BIN_GE, BIN_IN, BIN_EQ, BIN_NE, BIN_AND, BIN_OR
} BinOp;

enum {
  AF_SPEC = 1 << 0,      /* D_MACHINE: a spec monitor */
  AF_START = 1 << 1,     /* D_STATE */
  AF_HOT = 1 << 2,       /* D_STATE */
  AF_COLD = 1 << 3,      /* D_STATE */
  AF_VALUE = 1 << 4,     /* D_ENUMELEM: has an explicit value */
  AF_FOREIGN = 1 << 5,   /* D_FUN without a body */
  AF_LATEVAR = 1 << 6,   /* S_NOP standing for a local declared after a statement */
  AF_NULLEV = 1 << 7,    /* E_NAME in an event list standing for `null` */
  AF_SCENARIO = 1 << 8,  /* D_MACHINE (with AF_SPEC): a scenario, P's coverage spec: never a bug */
};

typedef struct Type Type;
typedef struct Ast Ast;

typedef struct AstList {
  Ast **items;           /* arena block */
  int n;                 /* elements */
  int cap;               /* elements allocated */
} AstList;

struct Ast {
  AstKind kind;
  int op;                /* operator, Prim, or kind-specific small value */
  unsigned flags;        /* AF_* */
  int depth;             /* expression nesting depth (1 for a leaf) */
  Span span;             /* whole construct */
  Span name_span;        /* the identifier, when name is set */
  const char *name;      /* identifier, arena string, or NULL */
  int64_t ival;
  double fval;
  const char *sval;      /* E_STRING contents (ival bytes) */
  Ast *k[4];             /* fixed children, per ast.def */
  AstList list;          /* variable children, per ast.def */
  AstList list2;
  /* Filled in by sema: */
  Type *type;            /* type of an expression; declared type of a D_VAR */
  Ast *decl;             /* what a name refers to (D_VAR, D_FUN, D_STATE, ...) */
  Ast *owner;            /* D_VAR/D_FUN/D_STATE: enclosing machine, or NULL */
  int slot;              /* D_VAR: index among its kind (locals, fields, params) */
  int vkind;             /* D_VAR: VK_* */
  int iface;             /* D_MACHINE (not a spec), D_INTERFACE: index in Program.ifaces */
  void *info;            /* D_TEST, D_IMPL: its module (ModInfo, lang/modules.c) */
  uint8_t *perm;         /* D_MACHINE, D_INTERFACE, D_EVENTSET: permission set, one flag per event id
                            (Program.nperm of them, halt first); a machine's receives */
};

typedef struct AstCtx {
  Arena *arena;          /* owns every node */
} AstCtx;

const char *ast_kind_name(AstKind k);
/* A new node of kind k spanning sp (children NULL, lists empty). */
Ast *ast_new(Arena *a, AstKind k, Span sp);
void ast_push(Arena *a, AstList *l, Ast *node /* takes */);
/* Span from the start of a to the end of b (same file). */
Span span_join(Span a, Span b);

#endif
