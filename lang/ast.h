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

/* A growable list of child nodes.  Its block is in the tree's arena and is
** replaced (never freed) when it grows, so a pointer into items is valid
** only until the next ast_push on the list. */
typedef struct AstList {
  Ast **items;           /* arena block of cap pointers; items[0..n) are the children, in source order */
  int n;                 /* elements */
  int cap;               /* elements allocated (0 with items NULL, else a power of two from 4) */
} AstList;

/* One node.  Which fields a kind uses is written beside it in lang/ast.def;
** the others stay zero (slot: -1).  The parser fills the fields up to
** list2; sema fills the rest, and codegen reuses slot for the ids it
** gives (event, machine, function, state and local numbers). */
struct Ast {
  AstKind kind;
  int op;                /* operator, Prim, or kind-specific small value (D_FUN: 1 exit function,
                            2 function of a goto ... with, set by sema) */
  unsigned flags;        /* AF_* */
  int depth;             /* expression nesting depth (1 for a leaf) */
  Span span;             /* whole construct */
  Span name_span;        /* the identifier, when name is set */
  const char *name;      /* identifier, arena string, or NULL */
  int64_t ival;          /* E_INT value, E_BOOL 0/1, E_STRING length in bytes, E_TFIELD position, ... */
  double fval;           /* E_FLOAT value */
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

/* A tree's allocation context, for code that builds nodes; the parser
** itself is handed the Arena directly. */
typedef struct AstCtx {
  Arena *arena;          /* owns every node */
} AstCtx;

/* The name of kind k as lang/ast.def spells it ("S_WHILE"), for internal
** error messages; "?" for a value outside the enum. */
const char *ast_kind_name(AstKind k);
/* A new node of kind k spanning sp (children NULL, lists empty, slot -1,
** depth 1, name_span sp), allocated in a. */
Ast *ast_new(Arena *a, AstKind k, Span sp);
/* Append node to l, growing its block in a (the old block is abandoned to
** the arena).  The list keeps the node; it is never copied. */
void ast_push(Arena *a, AstList *l, Ast *node /* takes */);
/* Span from the start of a to the end of b (same file). */
Span span_join(Span a, Span b);

#endif
