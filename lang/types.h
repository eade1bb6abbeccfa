/* types.h: semantic types of P values, and the compatibility rules the
** type checker uses (assignment, comparison, casts, conversions).
** Ownership: types live in the TypeCtx's arena; primitives are shared
** singletons; compound types may be shared and are never mutated. */
#ifndef PCHECK_TYPES_H
#define PCHECK_TYPES_H
#include "lang/ast.h"

typedef enum TypeKind {
  TY_ERROR,     /* the type of an ill-typed expression; compatible with all */
  TY_VOID,      /* "no value": a function without a return type */
  TY_NULL,      /* the type of `null`, and the payload of an event without one */
  TY_INT, TY_BOOL, TY_FLOAT, TY_STRING, TY_EVENT,
  TY_MACHINE,   /* any machine id */
  TY_MNAME,     /* id of a machine of one named kind (decl) */
  TY_ANY,       /* every value */
  TY_DATA,      /* every value that holds no machine id */
  TY_ENUM,      /* decl: the D_ENUM */
  TY_SEQ, TY_SET,   /* elem[0] */
  TY_MAP,           /* elem[0] key, elem[1] value */
  TY_TUPLE,         /* n elems */
  TY_NTUPLE,        /* n elems with names */
} TypeKind;

/* A type.  Compound types are compared structurally (type_equal), never
** by address; the singletons of TypeCtx may be compared by kind. */
struct Type {
  TypeKind kind;
  int n;                 /* number of elems (0 for every kind without elements) */
  int nperm;             /* TY_MNAME: flags in decl->perm (TypeCtx.nperm) */
  Type **elems;          /* element types (arena) */
  const char **names;    /* TY_NTUPLE field names (arena) */
  Ast *decl;             /* TY_ENUM: D_ENUM; TY_MNAME: D_MACHINE, D_INTERFACE or D_EVENTSET */
};

/* The arena types live in and the shared types without parts. */
typedef struct TypeCtx {
  Arena *arena;          /* the Program's: types live as long as the AST */
  Type *t_error, *t_void, *t_null, *t_int, *t_bool, *t_float, *t_string,
       *t_event, *t_machine, *t_any, *t_data;   /* the singletons: one Type per kind without parts */
  int nperm;             /* event ids (halt included): the length of a permission set */
} TypeCtx;

/* Make the singletons in arena.  tc->nperm is not set here: sema sets it
** once it has numbered the events, before any type_mname. */
void types_init(TypeCtx *tc, Arena *arena);
/* A new type of kind k with room for n elements (NULL, names NULL); the
** caller fills them in. */
Type *type_new(TypeCtx *tc, TypeKind k, int n);
/* seq[elem], set[elem], map[key, val]: new types each call (not interned). */
Type *type_seq(TypeCtx *tc, Type *elem);
Type *type_set(TypeCtx *tc, Type *elem);
Type *type_map(TypeCtx *tc, Type *key, Type *val);
/* The permission type named by machine (a D_MACHINE, D_INTERFACE or
** D_EVENTSET); it records tc->nperm, the length of machine->perm. */
Type *type_mname(TypeCtx *tc, Ast *machine);

/* Can a value of type `from` be stored where `to` is expected? */
int type_assignable(const Type *to, const Type *from);
/* Structural equality. */
int type_equal(const Type *a, const Type *b);
/* May values of these types be compared with == and != ? */
int type_comparable(const Type *a, const Type *b);
/* Is `e as to` allowed for an expression of type from? */
int type_castable(const Type *to, const Type *from);
/* Is `e to to` a supported conversion from type from? */
int type_convertible(const Type *to, const Type *from);
/* Does the type hold no machine ids (P's `data`)? */
int type_is_data(const Type *t);
/* Element type of a seq/set, key type of a map; NULL otherwise. */
Type *type_elem(const Type *t);
/* Append P syntax for t to b. */
void type_print(Buf *b, const Type *t);
/* P syntax for t, in an arena string. */
const char *type_str(TypeCtx *tc, const Type *t);

#endif
