/* types.c: P's type compatibility rules.  Typedefs are structural (they
** resolve to the type they name); enums and machine names are nominal. */
#include <config.h>
#include "lang/types.h"
#include <string.h>

/* A type without parts: the singletons of TypeCtx. */
static Type *prim(TypeCtx *tc, TypeKind k) { return type_new(tc, k, 0); }

void types_init(TypeCtx *tc, Arena *arena) {
  tc->arena = arena;
  tc->t_error = prim(tc, TY_ERROR);
  tc->t_void = prim(tc, TY_VOID);
  tc->t_null = prim(tc, TY_NULL);
  tc->t_int = prim(tc, TY_INT);
  tc->t_bool = prim(tc, TY_BOOL);
  tc->t_float = prim(tc, TY_FLOAT);
  tc->t_string = prim(tc, TY_STRING);
  tc->t_event = prim(tc, TY_EVENT);
  tc->t_machine = prim(tc, TY_MACHINE);
  tc->t_any = prim(tc, TY_ANY);
  tc->t_data = prim(tc, TY_DATA);
}

Type *type_new(TypeCtx *tc, TypeKind k, int n) {
  Type *t = arena_alloc(tc->arena, sizeof(Type));
  t->kind = k;
  t->n = n;
  if (n) t->elems = arena_alloc(tc->arena, (size_t)n * sizeof(Type *));
  return t;
}

Type *type_seq(TypeCtx *tc, Type *elem) { Type *t = type_new(tc, TY_SEQ, 1); t->elems[0] = elem; return t; }
Type *type_set(TypeCtx *tc, Type *elem) { Type *t = type_new(tc, TY_SET, 1); t->elems[0] = elem; return t; }
Type *type_map(TypeCtx *tc, Type *key, Type *val) {
  Type *t = type_new(tc, TY_MAP, 2);
  t->elems[0] = key;
  t->elems[1] = val;
  return t;
}
Type *type_mname(TypeCtx *tc, Ast *machine) {
  Type *t = type_new(tc, TY_MNAME, 0);
  t->decl = machine;
  t->nperm = tc->nperm;
  return t;
}

/* `machine`, a machine name and `any` may hold machine ids; a compound
** type is data when all its parts are. */
int type_is_data(const Type *t) {
  switch (t->kind) {
  case TY_MACHINE: case TY_MNAME: case TY_ANY: return 0;
  default:
    for (int i = 0; i < t->n; i++)
      if (!type_is_data(t->elems[i])) return 0;
    return 1;
  }
}

/* Enums and permission types are equal only when they name the same
** declaration (decl); named tuples also need the same field names. */
int type_equal(const Type *a, const Type *b) {
  if (a == b) return 1;
  if (a->kind != b->kind || a->n != b->n || a->decl != b->decl) return 0;
  for (int i = 0; i < a->n; i++) {
    if (!type_equal(a->elems[i], b->elems[i])) return 0;
    if (a->kind == TY_NTUPLE && strcmp(a->names[i], b->names[i]) != 0) return 0;
  }
  return 1;
}

/* Structural for collections and tuples (element by element, names
** too), nominal for enums; `any` takes every value, `data` every value
** without machine ids, and `machine` and `event` also take null. */
int type_assignable(const Type *to, const Type *from) {
  if (to->kind == TY_ERROR || from->kind == TY_ERROR) return 1;
  switch (to->kind) {
  case TY_ANY: return from->kind != TY_VOID;
  case TY_DATA: return from->kind != TY_VOID && type_is_data(from);
  case TY_MACHINE: return from->kind == TY_MACHINE || from->kind == TY_MNAME || from->kind == TY_NULL;
  case TY_MNAME:
    /* P's permission types: a machine, interface or event set name accepts
    ** a value of another such type when their permission sets (receive
    ** sets) are the same; `machine` and `null` are not accepted (use `to`). */
    if (from->kind != TY_MNAME) return 0;
    if (from->decl == to->decl) return 1;
    return to->decl->perm && from->decl->perm && memcmp(to->decl->perm, from->decl->perm, (size_t)to->nperm) == 0;
  case TY_EVENT: return from->kind == TY_EVENT || from->kind == TY_NULL;
  case TY_NULL: return from->kind == TY_NULL;
  case TY_VOID: return 0;
  case TY_INT: case TY_BOOL: case TY_FLOAT: case TY_STRING: return from->kind == to->kind;
  case TY_ENUM: return from->kind == TY_ENUM && from->decl == to->decl;
  case TY_SEQ: case TY_SET: case TY_MAP: case TY_TUPLE: case TY_NTUPLE:
    if (from->kind != to->kind || from->n != to->n) return 0;
    for (int i = 0; i < to->n; i++) {
      if (to->kind == TY_NTUPLE && strcmp(to->names[i], from->names[i]) != 0) return 0;
      if (!type_assignable(to->elems[i], from->elems[i])) return 0;
    }
    return 1;
  case TY_ERROR: return 1;
  }
  return 0;
}

/* Comparable when either way round is assignable. */
int type_comparable(const Type *a, const Type *b) {
  return type_assignable(a, b) || type_assignable(b, a);
}

/* A machine id of any kind or of a named one. */
static int machineish(const Type *t) { return t->kind == TY_MACHINE || t->kind == TY_MNAME; }

/* `as` is checked at run time (OP_CAST), so it allows what might succeed:
** comparable types, any machine to any machine, and collections and
** unnamed tuples of the same shape whose parts are castable. */
int type_castable(const Type *to, const Type *from) {
  if (type_comparable(to, from)) return 1;
  if (machineish(to) && machineish(from)) return 1;
  if (to->kind == from->kind && to->n == from->n &&
      (to->kind == TY_SEQ || to->kind == TY_SET || to->kind == TY_MAP || to->kind == TY_TUPLE)) {
    for (int i = 0; i < to->n; i++)
      if (!type_castable(to->elems[i], from->elems[i])) return 0;
    return 1;
  }
  return 0;
}

int type_convertible(const Type *to, const Type *from) {
  if (to->kind == TY_ERROR || from->kind == TY_ERROR) return 1;
  /* P's coercions: int <-> float, enum -> int, and a machine reference to an
  ** interface whose permissions it has. */
  switch (to->kind) {
  case TY_INT: return from->kind == TY_INT || from->kind == TY_FLOAT || from->kind == TY_ENUM;
  case TY_FLOAT: return from->kind == TY_INT || from->kind == TY_FLOAT;
  case TY_MNAME:
    if (from->kind == TY_MACHINE) return 1;
    if (from->kind != TY_MNAME) return 0;
    for (int i = 0; i < to->nperm; i++)
      if (to->decl->perm[i] && !from->decl->perm[i]) return 0;
    return 1;
  default: return 0;
  }
}

/* What `in`, foreach, choose and sizeof see in a collection. */
Type *type_elem(const Type *t) {
  if (t->kind == TY_SEQ || t->kind == TY_SET || t->kind == TY_MAP) return t->elems[0];
  return NULL;
}

/* As the model would write it: enums and permission types by name, a
** one-element tuple as "(int,)", an ill-typed expression as "<error>". */
void type_print(Buf *b, const Type *t) {
  switch (t->kind) {
  case TY_ERROR: buf_puts(b, "<error>"); break;
  case TY_VOID: buf_puts(b, "void"); break;
  case TY_NULL: buf_puts(b, "null"); break;
  case TY_INT: buf_puts(b, "int"); break;
  case TY_BOOL: buf_puts(b, "bool"); break;
  case TY_FLOAT: buf_puts(b, "float"); break;
  case TY_STRING: buf_puts(b, "string"); break;
  case TY_EVENT: buf_puts(b, "event"); break;
  case TY_MACHINE: buf_puts(b, "machine"); break;
  case TY_ANY: buf_puts(b, "any"); break;
  case TY_DATA: buf_puts(b, "data"); break;
  case TY_MNAME: case TY_ENUM: buf_puts(b, t->decl->name); break;
  case TY_SEQ: buf_puts(b, "seq["); type_print(b, t->elems[0]); buf_putc(b, ']'); break;
  case TY_SET: buf_puts(b, "set["); type_print(b, t->elems[0]); buf_putc(b, ']'); break;
  case TY_MAP:
    buf_puts(b, "map[");
    type_print(b, t->elems[0]);
    buf_puts(b, ", ");
    type_print(b, t->elems[1]);
    buf_putc(b, ']');
    break;
  case TY_TUPLE: case TY_NTUPLE:
    buf_putc(b, '(');
    for (int i = 0; i < t->n; i++) {
      if (i) buf_puts(b, ", ");
      if (t->kind == TY_NTUPLE) buf_printf(b, "%s: ", t->names[i]);
      type_print(b, t->elems[i]);
    }
    if (t->n == 1 && t->kind == TY_TUPLE) buf_putc(b, ',');
    buf_putc(b, ')');
    break;
  }
}

/* The string lives in tc's arena, as long as the Program: messages may
** keep it. */
const char *type_str(TypeCtx *tc, const Type *t) {
  Buf b;
  buf_init(&b);
  type_print(&b, t);
  char *s = arena_strdup(tc->arena, b.data ? b.data : "");
  buf_fini(&b);
  return s;
}
