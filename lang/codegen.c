/* codegen.c: typed AST to bytecode.  Ids: event 0 is halt, declared events
** follow in order; machines and specs share one numbering (declaration
** order); functions are numbered as they are created (global functions,
** machine functions, anonymous handlers, state transitions).  Locals of a
** function are its parameters, then its declared locals, then the locals
** of its receive cases, then compiler temporaries.  Assignments to nested
** locations (a.f[k] = v) are read-modify-write chains over immutable
** values. */
#include <config.h>
#include "lang/codegen.h"
#include "lang/modules.h"
#include <stdlib.h>
#include <string.h>

typedef struct Patch { uint32_t *at; int n, cap; } Patch;

/* A loop being compiled: the jumps out of it wait here for their target
** until pop_loop knows it.  Loops of one function form a stack. */
typedef struct Loop {
  struct Loop *up;       /* the enclosing loop of the same function, or NULL */
  uint32_t continue_pc;  /* where `continue` jumps, when known */
  int continue_known;    /* while: the test is before the body, so continue_pc is known at once */
  PtrVec breaks;         /* offsets (as uintptr) of JMP operands to patch at the end */
  PtrVec continues;      /* offsets to patch to the continue target */
} Loop;

/* The function being compiled, between begin_fun and end_fun. */
typedef struct FunBuild {
  BcFun *fun;            /* where end_fun puts the result */
  Buf code;              /* instructions so far; offsets into it are pcs */
  PtrVec locs;           /* BcLoc* (heap), pcs ascending */
  int nlocals;           /* slots given so far (new_local) */
  PtrVec local_types;    /* Type* per local slot (NULL: temp, default null) */
  int depth, max_depth;  /* operand stack, for max_stack (approximate upper bound) */
  Loop *loop;            /* innermost loop being compiled, or NULL */
} FunBuild;

/* One cg_compile: the program read, the program built, and the scratch
** that becomes its arrays at the end (cg_arrays). */
typedef struct Cg {
  Program *p;
  Diag *d;               /* limits the bytecode cannot express are reported here */
  BcProgram *bc;         /* being built; freed if compiling fails */
  Arena *a;              /* bc->arena */
  ValArena va;           /* encodings of constants (copied into the arena) */
  FunBuild *fb;          /* function being compiled */
  Ast *owner;            /* machine being compiled */
  PtrVec funs;           /* BcFun* in id order (heap; copied at the end) */
  PtrVec consts;         /* Value* (heap) */
  PtrVec types;          /* BcType* (heap), Type* kept beside in type_keys */
  PtrVec type_keys;
  PtrVec shapes;         /* Type* (TY_NTUPLE) per shape id; slot 0 is NULL */
  uint32_t **line_starts;/* per file: offsets of line starts */
  uint32_t *nline_starts; /* per file: entries of line_starts (lines) */
  int errors;            /* errors reported by codegen; any makes cg_compile fail */
} Cg;

/* BC_CARRY_* flags of what a value of type t may hold: machine ids,
** event values (for partial-order reduction: which sends can pass them on). */
static uint8_t type_carry(const Type *t) {
  if (!t) return BC_CARRY_MACHINES | BC_CARRY_EVENTS;
  switch (t->kind) {
  case TY_VOID: case TY_NULL: case TY_INT: case TY_BOOL: case TY_FLOAT: case TY_STRING: case TY_ENUM: return 0;
  case TY_EVENT: return BC_CARRY_EVENTS;
  case TY_MACHINE: case TY_MNAME: return BC_CARRY_MACHINES;
  case TY_DATA: return BC_CARRY_EVENTS;
  case TY_SEQ: case TY_SET: case TY_MAP: case TY_TUPLE: case TY_NTUPLE: {
    uint8_t c = 0;
    for (int i = 0; i < t->n; i++) c |= type_carry(t->elems[i]);
    return c;
  }
  default: return BC_CARRY_MACHINES | BC_CARRY_EVENTS;   /* any, error */
  }
}

/* ---------------------------------------------------------------------- */
/* Emission.                                                               */

/* The file, line and column where span sp starts. */
static BcSrc src_of(Cg *C, Span sp) {
  uint32_t f = sp.file;
  uint32_t *ls = C->line_starts[f];
  uint32_t n = C->nline_starts[f];
  uint32_t lo = 0, hi = n;
  while (hi - lo > 1) {
    uint32_t mid = (lo + hi) / 2;
    if (ls[mid] <= sp.start) lo = mid; else hi = mid;
  }
  uint32_t col = sp.start - ls[lo] + 1;
  return (BcSrc){ (uint16_t)f, (uint16_t)(col > 65535 ? 0 : col), lo + 1 };
}

/* Instructions emitted from here on come from sp: a new BcLoc at the
** current pc, unless the last one already says so, or is at this pc too
** (then it is moved to sp, as nothing was emitted for it). */
static void loc_at(Cg *C, Span sp) {
  FunBuild *fb = C->fb;
  uint32_t pc = (uint32_t)fb->code.len;
  BcSrc src = src_of(C, sp);
  uint32_t f = src.file, line = src.line, col = src.col;
  if (fb->locs.n) {
    BcLoc *last = fb->locs.items[fb->locs.n - 1];
    if (last->line == line && last->col == col && last->file == f) return;
    if (last->pc == pc) { last->line = line; last->col = (uint16_t)col; last->file = (uint16_t)f; return; }
  }
  BcLoc *l = xcalloc(1, sizeof *l);
  l->pc = pc;
  l->file = (uint16_t)f;
  l->line = line;
  l->col = (uint16_t)col;
  ptrvec_push(&fb->locs, l);
}

/* The operand stack grows by delta (shrinks when negative; never counted
** below 0); its deepest point becomes the function's max_stack. */
static void stack(Cg *C, int delta) {
  C->fb->depth += delta;
  if (C->fb->depth < 0) C->fb->depth = 0;
  if (C->fb->depth > C->fb->max_depth) C->fb->max_depth = C->fb->depth;
}

/* Append an instruction with its operand bytes (in host byte order, as
** the VM reads them).  emit_u32 returns the operand's offset, for patch;
** none of them counts the stack (the caller calls stack). */
static void emit0(Cg *C, Opcode op) { buf_putc(&C->fb->code, (char)op); }
static void emit_u8(Cg *C, Opcode op, uint8_t x) { emit0(C, op); buf_putc(&C->fb->code, (char)x); }
static void emit_u16(Cg *C, Opcode op, uint16_t x) { emit0(C, op); buf_append(&C->fb->code, &x, 2); }
static uint32_t emit_u32(Cg *C, Opcode op, uint32_t x) {
  emit0(C, op);
  uint32_t at = (uint32_t)C->fb->code.len;
  buf_append(&C->fb->code, &x, 4);
  return at;
}
static void emit_u16u16(Cg *C, Opcode op, uint16_t x, uint16_t y) {
  emit0(C, op);
  buf_append(&C->fb->code, &x, 2);
  buf_append(&C->fb->code, &y, 2);
}
static void emit_i64(Cg *C, Opcode op, int64_t x) { emit0(C, op); buf_append(&C->fb->code, &x, 8); }
static void emit_f64(Cg *C, Opcode op, double x) { emit0(C, op); buf_append(&C->fb->code, &x, 8); }
/* The pc of the next instruction; patch sets the u32 operand at offset at
** (from emit_u32) to target, for forward jumps. */
static uint32_t here(Cg *C) { return (uint32_t)C->fb->code.len; }
static void patch(Cg *C, uint32_t at, uint32_t target) { memcpy(C->fb->code.data + at, &target, 4); }

/* Number a new assert statement at sp of the function being compiled
** (BcProgram.asserts, grown on the heap and moved into the arena at the
** end).  At most 65,536 (OP_ASSERT's operand); past that, an error. */
static int32_t fun_id(Cg *C, BcFun *f);
static uint16_t new_assert(Cg *C, Span sp) {
  BcProgram *bc = C->bc;
  if (bc->nasserts >= 65536) {   /* counted on past the limit, so that the error is given once */
    if (bc->nasserts++ == 65536) {
      diag_error(C->d, sp, "more than 65536 assert statements: pcheck numbers them in 16 bits");
      C->errors++;
    }
    return 0;
  }
  bc->asserts = xrealloc(bc->asserts, (size_t)(bc->nasserts + 1) * sizeof(BcAssert));
  bc->asserts[bc->nasserts].fun = fun_id(C, C->fb->fun);
  bc->asserts[bc->nasserts].src = src_of(C, sp);
  return (uint16_t)bc->nasserts++;
}

/* A new local slot of the function being built, initially default(t)
** (t NULL: a temporary, initially null).  Its index. */
static int new_local(Cg *C, Type *t) {
  ptrvec_push(&C->fb->local_types, t);
  return C->fb->nlocals++;
}

/* ---------------------------------------------------------------------- */
/* Constants, types, shapes.                                               */

/* The index of constant v, added if no equal one is there yet (so equal
** literals share one entry).  v's encoding lives in C->va until cg_arrays
** persists it. */
static uint32_t add_const(Cg *C, Value v) {
  for (int i = 0; i < C->consts.n; i++) {
    Value *o = C->consts.items[i];
    if (o->tag == v.tag && val_equal(o, &v)) return (uint32_t)i;
  }
  Value *nv = xmalloc(sizeof *nv);
  *nv = v;
  ptrvec_push(&C->consts, nv);
  return (uint32_t)(C->consts.n - 1);
}

/* The shape id of tuple type t: 0 for an unnamed tuple, else the id of
** its field names (equal lists of names, whatever the field types, share
** one), added on first use. */
static uint16_t shape_of(Cg *C, const Type *t) {
  if (t->kind != TY_NTUPLE) return 0;
  for (int i = 1; i < C->shapes.n; i++) {
    const Type *o = C->shapes.items[i];
    if (o->n != t->n) continue;
    int same = 1;
    for (int j = 0; j < t->n && same; j++) same = strcmp(o->names[j], t->names[j]) == 0;
    if (same) return (uint16_t)i;
  }
  ptrvec_push(&C->shapes, (void *)t);
  return (uint16_t)(C->shapes.n - 1);
}

/* The id of enum declaration d (cg_number_decls gave it). */
static uint16_t enum_id(const Ast *d) { return (uint16_t)d->slot; }

/* The default value of a type (P's default(T)). */
static Value default_value(Cg *C, const Type *t) {
  switch (t->kind) {
  case TY_INT: return val_int(0);
  case TY_BOOL: return val_bool(0);
  case TY_FLOAT: return val_float(0.0);
  case TY_STRING: return val_string(&C->va, "", 0);
  case TY_ENUM: {
    /* P: the smallest value among the members, not the first declared. */
    const Ast *d = t->decl;
    int64_t v = d->list.n ? d->list.items[0]->ival : 0;
    for (int i = 1; i < d->list.n; i++)
      if (d->list.items[i]->ival < v) v = d->list.items[i]->ival;
    return val_enum(enum_id(d), v);
  }
  case TY_SEQ: return val_seq_empty();
  case TY_SET: return val_set_empty();
  case TY_MAP: return val_map_empty();
  case TY_TUPLE: case TY_NTUPLE: {
    Value *el = xmalloc((size_t)(t->n ? t->n : 1) * sizeof(Value));
    for (int i = 0; i < t->n; i++) el[i] = default_value(C, t->elems[i]);
    Value v = val_tuple(&C->va, shape_of(C, t), el, t->n);
    free(el);
    return v;
  }
  default: return val_null();
  }
}

/* The index of t's runtime descriptor (BcType, for OP_CAST), added with
** its element types on first use; equal types (type_equal) share one. */
static uint32_t type_index(Cg *C, const Type *t) {
  for (int i = 0; i < C->type_keys.n; i++)
    if (type_equal(C->type_keys.items[i], t)) return (uint32_t)i;
  BcType *bt = xcalloc(1, sizeof *bt);
  uint32_t idx = (uint32_t)C->types.n;
  ptrvec_push(&C->types, bt);
  ptrvec_push(&C->type_keys, (void *)t);
  switch (t->kind) {
  case TY_ANY: case TY_ERROR: case TY_VOID: bt->kind = BT_ANY; break;
  case TY_DATA: bt->kind = BT_DATA; break;
  case TY_NULL: bt->kind = BT_NULL; break;
  case TY_BOOL: bt->kind = BT_BOOL; break;
  case TY_INT: bt->kind = BT_INT; break;
  case TY_FLOAT: bt->kind = BT_FLOAT; break;
  case TY_STRING: bt->kind = BT_STRING; break;
  case TY_EVENT: bt->kind = BT_EVENT; break;
  case TY_MACHINE: bt->kind = BT_MACHINE; break;
  case TY_MNAME: bt->kind = BT_MNAME; bt->id = (uint16_t)t->decl->slot; break;
  case TY_ENUM: bt->kind = BT_ENUM; bt->id = enum_id(t->decl); break;
  case TY_SEQ: bt->kind = BT_SEQ; break;
  case TY_SET: bt->kind = BT_SET; break;
  case TY_MAP: bt->kind = BT_MAP; break;
  case TY_TUPLE: case TY_NTUPLE: bt->kind = BT_TUPLE; bt->id = shape_of(C, t); break;
  }
  if (t->n) {
    bt->n = (uint16_t)t->n;
    bt->elems = xcalloc((size_t)t->n, sizeof(uint32_t));
    for (int i = 0; i < t->n; i++) {
      uint32_t e = type_index(C, t->elems[i]);
      bt = C->types.items[idx];   /* the vector may have grown; the element is stable */
      bt->elems[i] = e;
    }
  }
  return idx;
}

/* ---------------------------------------------------------------------- */
/* Functions.                                                              */

/* A new, empty function named name (copied into the arena) of machine
** owner (-1: global); its id is the next one (fun_id). */
static BcFun *new_fun(Cg *C, const char *name, int32_t owner) {
  BcFun *f = xcalloc(1, sizeof *f);
  f->name = arena_strdup(C->a, name);
  f->owner = owner;
  ptrvec_push(&C->funs, f);
  return f;
}

/* The id of f (its index in C->funs), or -1 if it is not there.  Searched
** from the end: the function asked about is usually the newest. */
static int32_t fun_id(Cg *C, BcFun *f) {
  for (int i = C->funs.n - 1; i >= 0; i--) if (C->funs.items[i] == f) return i;
  return -1;
}

/* Start building f in fb (the caller's; it becomes C->fb).  Builds do not
** nest: receive cases are compiled inline into the function holding them. */
static void begin_fun(Cg *C, FunBuild *fb, BcFun *f) {
  memset(fb, 0, sizeof *fb);
  fb->fun = f;
  buf_init(&fb->code);
  C->fb = fb;
}

/* Finish the function being built: its code, locations, max_stack and
** locals' defaults into the arena, the build's scratch freed.  More than
** 65535 locals is an error (OP_LOAD_LOCAL's operand is 16 bits). */
static void end_fun(Cg *C) {
  FunBuild *fb = C->fb;
  BcFun *f = fb->fun;
  if (fb->nlocals > 65535) {
    diag_error_noloc(C->d, "function '%s' needs more than 65535 locals", f->name);
    C->errors++;
  }
  f->nlocals = (uint16_t)fb->nlocals;
  f->ncode = (uint32_t)fb->code.len;
  f->code = arena_alloc(C->a, f->ncode ? f->ncode : 1);
  if (f->ncode) memcpy(f->code, fb->code.data, f->ncode);
  f->max_stack = (uint32_t)fb->max_depth + 4;
  f->nlocs = (uint32_t)fb->locs.n;
  f->locs = arena_alloc(C->a, (fb->locs.n ? (size_t)fb->locs.n : 1) * sizeof(BcLoc));
  for (int i = 0; i < fb->locs.n; i++) {
    f->locs[i] = *(BcLoc *)fb->locs.items[i];
    free(fb->locs.items[i]);
  }
  f->local_defaults = arena_alloc(C->a, (fb->nlocals ? (size_t)fb->nlocals : 1) * sizeof(Value));
  for (int i = 0; i < fb->nlocals; i++) {
    Type *t = fb->local_types.items[i];
    f->local_defaults[i] = t ? default_value(C, t) : val_null();
  }
  ptrvec_fini(&fb->locs);
  ptrvec_fini(&fb->local_types);
  buf_fini(&fb->code);
  C->fb = NULL;
}

static void cg_expr(Cg *C, Ast *e);
static void cg_stmt(Cg *C, Ast *s);

/* Push the payload of a send/raise/new/goto: null, the one value, or a tuple. */
static void cg_payload(Cg *C, AstList *args) {
  if (args->n == 0) { emit0(C, OP_PUSH_NULL); stack(C, 1); return; }
  for (int i = 0; i < args->n; i++) cg_expr(C, args->items[i]);
  if (args->n > 1) { emit_u16u16(C, OP_TUPLE, 0, (uint16_t)args->n); stack(C, 1 - args->n); }
}

/* Push variable d: a machine's or explorer's variable by OP_LOAD_VAR, a
** param or local of the function by OP_LOAD_LOCAL. */
static void cg_load_var(Cg *C, Ast *d) {
  if (d->vkind == VK_MACHINE || d->vkind == VK_EXPLORER) emit_u16(C, OP_LOAD_VAR, (uint16_t)d->slot);
  else emit_u16(C, OP_LOAD_LOCAL, (uint16_t)d->slot);
  stack(C, 1);
}

/* Pop the top of the stack into variable d (as cg_load_var finds it). */
static void cg_store_var(Cg *C, Ast *d) {
  if (d->vkind == VK_MACHINE || d->vkind == VK_EXPLORER) emit_u16(C, OP_STORE_VAR, (uint16_t)d->slot);
  else emit_u16(C, OP_STORE_LOCAL, (uint16_t)d->slot);
  stack(C, -1);
}

/* The OP_CONVERT mode of `x to T` from type from to type to (CV_IDENTITY:
** nothing to emit, as for an interface or the same type). */
static int convert_mode(const Type *to, const Type *from) {
  if (to->kind == TY_FLOAT && from->kind == TY_INT) return CV_INT_TO_FLOAT;
  if (to->kind == TY_INT && from->kind == TY_FLOAT) return CV_FLOAT_TO_INT;
  if (to->kind == TY_INT && from->kind == TY_ENUM) return CV_ENUM_TO_INT;
  if (to->kind == TY_FLOAT && from->kind == TY_ENUM) return CV_ENUM_TO_FLOAT;
  if (to->kind == TY_ENUM && from->kind == TY_INT) return CV_INT_TO_ENUM;
  return CV_IDENTITY;
}

/* The value of a string literal outside format(): P passes every literal
** through String.Format, so {{ and }} are single braces (sema has rejected
** any placeholder). */
static Value string_literal(ValArena *va, const Ast *e) {
  char *t = xmalloc((size_t)e->ival + 1);
  size_t n = 0;
  for (int64_t i = 0; i < e->ival; i++) {
    t[n++] = e->sval[i];
    if ((e->sval[i] == '{' || e->sval[i] == '}') && i + 1 < e->ival && e->sval[i + 1] == e->sval[i]) i++;
  }
  Value v = val_string(va, t, n);
  free(t);
  return v;
}

/* Emit code that pushes the value of expression e (sema has typed it),
** after a location for it.  Operands come first, left to right, then a
** location for the operation itself, so a runtime error points at it. */
static void cg_expr(Cg *C, Ast *e) {
  loc_at(C, e->span);
  switch (e->kind) {
  case AST_E_INT: emit_i64(C, OP_PUSH_INT, e->ival); stack(C, 1); break;
  case AST_E_FLOAT: emit_f64(C, OP_PUSH_FLOAT, e->fval); stack(C, 1); break;
  case AST_E_BOOL: emit_u8(C, OP_PUSH_BOOL, (uint8_t)e->ival); stack(C, 1); break;
  case AST_E_STRING:
    emit_u32(C, OP_PUSH_CONST, add_const(C, string_literal(&C->va, e)));
    stack(C, 1);
    break;
  case AST_E_NULL: emit0(C, OP_PUSH_NULL); stack(C, 1); break;
  case AST_E_THIS: emit0(C, OP_THIS); stack(C, 1); break;
  case AST_E_HALT: emit_u32(C, OP_PUSH_EVENT, BC_HALT); stack(C, 1); break;
  case AST_E_NONDET: emit_u8(C, OP_CHOOSE, e->ival ? 3 : 0); stack(C, 1); break;   /* $$ is the fair one */
  case AST_E_NAME: {
    Ast *d = e->decl;
    switch (d->kind) {
    case AST_D_VAR: cg_load_var(C, d); break;
    case AST_D_ENUMELEM:
      emit_u32(C, OP_PUSH_CONST, add_const(C, val_enum(enum_id(d->owner), d->ival)));
      stack(C, 1);
      break;
    case AST_D_EVENT: emit_u32(C, OP_PUSH_EVENT, (uint32_t)d->slot); stack(C, 1); break;
    case AST_D_PARAM: emit_u16(C, OP_LOAD_PARAM, (uint16_t)d->slot); stack(C, 1); break;
    default: emit0(C, OP_PUSH_NULL); stack(C, 1); break;
    }
    break;
  }
  case AST_E_TUPLE: case AST_E_NTUPLE:
    for (int i = 0; i < e->list.n; i++)
      cg_expr(C, e->kind == AST_E_NTUPLE ? e->list.items[i]->k[0] : e->list.items[i]);
    emit_u16u16(C, OP_TUPLE, shape_of(C, e->type), (uint16_t)e->list.n);
    stack(C, 1 - e->list.n);
    break;
  case AST_E_FIELD: case AST_E_TFIELD:
    cg_expr(C, e->k[0]);
    loc_at(C, e->span);
    emit_u16(C, OP_TGET, (uint16_t)e->slot);
    break;
  case AST_E_INDEX:
    cg_expr(C, e->k[0]);
    cg_expr(C, e->k[1]);
    loc_at(C, e->span);
    emit0(C, OP_INDEX);
    stack(C, -1);
    break;
  case AST_E_KEYS: cg_expr(C, e->k[0]); emit0(C, OP_KEYS); break;
  case AST_E_VALUES: cg_expr(C, e->k[0]); emit0(C, OP_VALUES); break;
  case AST_E_SIZEOF: cg_expr(C, e->k[0]); emit0(C, OP_SIZEOF); break;
  case AST_E_DEFAULT: {
    Value v = default_value(C, e->type);
    emit_u32(C, OP_PUSH_CONST, add_const(C, v));
    stack(C, 1);
    break;
  }
  case AST_E_NEW:
    cg_payload(C, &e->list);
    loc_at(C, e->span);
    emit_u16u16(C, OP_NEW, (uint16_t)e->decl->iface, (uint16_t)(e->list.n > 0));
    break;
  case AST_E_CALL:
    for (int i = 0; i < e->list.n; i++) cg_expr(C, e->list.items[i]);
    loc_at(C, e->span);
    emit_u16(C, OP_CALL, (uint16_t)e->decl->slot);
    stack(C, -e->list.n + (e->decl->type && e->decl->type->kind != TY_VOID));
    break;
  case AST_E_UNARY:
    cg_expr(C, e->k[0]);
    loc_at(C, e->span);
    emit0(C, e->op == '-' ? OP_NEG : OP_NOT);
    break;
  case AST_E_BINARY: {
    if (e->op == BIN_AND || e->op == BIN_OR) {
      cg_expr(C, e->k[0]);
      emit0(C, OP_DUP);
      stack(C, 1);
      uint32_t j = emit_u32(C, e->op == BIN_AND ? OP_JMP_FALSE : OP_JMP_TRUE, 0);
      stack(C, -1);
      emit0(C, OP_POP);
      stack(C, -1);
      cg_expr(C, e->k[1]);
      patch(C, j, here(C));
      break;
    }
    cg_expr(C, e->k[0]);
    cg_expr(C, e->k[1]);
    loc_at(C, e->span);
    static const Opcode ops[] = { OP_MUL, OP_DIV, OP_MOD, OP_ADD, OP_SUB, OP_LT, OP_GT, OP_LE, OP_GE, OP_IN,
                                  OP_EQ, OP_NE, OP_NOP, OP_NOP };
    emit0(C, ops[e->op]);
    stack(C, -1);
    break;
  }
  case AST_E_CAST: {
    cg_expr(C, e->k[0]);
    loc_at(C, e->span);
    Type *to = e->type, *from = e->k[0]->type;
    if (e->op == 0) {
      if (!type_assignable(to, from)) emit_u32(C, OP_CAST, type_index(C, to));
    } else {
      int mode = convert_mode(to, from);
      if (mode != CV_IDENTITY)
        emit_u16u16(C, OP_CONVERT, (uint16_t)mode, to->kind == TY_ENUM ? enum_id(to->decl) : 0);
    }
    break;
  }
  case AST_E_CHOOSE:
    if (!e->k[0]) { emit_u8(C, OP_CHOOSE, 0); stack(C, 1); break; }
    cg_expr(C, e->k[0]);
    loc_at(C, e->span);
    emit_u8(C, OP_CHOOSE, e->k[0]->type->kind == TY_INT ? 1 : 2);
    break;
  case AST_E_FORMAT: {
    for (int i = 0; i < e->list.n; i++) cg_expr(C, e->list.items[i]);
    loc_at(C, e->span);
    uint32_t k = add_const(C, val_string(&C->va, e->k[0]->sval, (size_t)e->k[0]->ival));
    if (k > 65535) { diag_error(C->d, e->span, "too many constants"); C->errors++; }
    emit_u16u16(C, OP_FORMAT, (uint16_t)k, (uint16_t)e->list.n);
    stack(C, 1 - e->list.n);
    break;
  }
  default:
    diag_error(C->d, e->span, "internal error: cannot compile %s", ast_kind_name(e->kind));
    C->errors++;
    break;
  }
}

/* Store the value on top of the stack into lvalue lv (read-modify-write for
** nested locations). */
static void cg_store(Cg *C, Ast *lv) {
  if (lv->kind == AST_E_NAME) { cg_store_var(C, lv->decl); return; }
  int tmp = new_local(C, NULL);
  emit_u16(C, OP_STORE_LOCAL, (uint16_t)tmp);
  stack(C, -1);
  cg_expr(C, lv->k[0]);
  loc_at(C, lv->span);
  if (lv->kind == AST_E_INDEX) {
    cg_expr(C, lv->k[1]);
    emit_u16(C, OP_LOAD_LOCAL, (uint16_t)tmp);
    stack(C, 1);
    loc_at(C, lv->span);
    emit0(C, OP_ISET);
    stack(C, -2);
  } else {
    emit_u16(C, OP_LOAD_LOCAL, (uint16_t)tmp);
    stack(C, 1);
    emit_u16(C, OP_TSET, (uint16_t)lv->slot);
    stack(C, -1);
  }
  cg_store(C, lv->k[0]);
}

/* `c += (k, v)`, `c += (x)`, `c -= k`: load the collection, push the
** nargs operands, build the new collection with op, store it back. */
static void cg_update(Cg *C, Ast *s, Opcode op, int nargs) {
  cg_expr(C, s->k[0]);
  for (int i = 1; i <= nargs; i++) cg_expr(C, s->k[i]);
  loc_at(C, s->span);
  emit0(C, op);
  stack(C, -nargs);
  cg_store(C, s->k[0]);
}

/* Enter loop l (the caller's) in the function being built. */
static void push_loop(Cg *C, Loop *l) { memset(l, 0, sizeof *l); l->up = C->fb->loop; C->fb->loop = l; }

/* Leave loop l: its breaks jump to end, its continues to continue_pc. */
static void pop_loop(Cg *C, Loop *l, uint32_t continue_pc, uint32_t end) {
  for (int i = 0; i < l->breaks.n; i++) patch(C, (uint32_t)(uintptr_t)l->breaks.items[i], end);
  for (int i = 0; i < l->continues.n; i++) patch(C, (uint32_t)(uintptr_t)l->continues.items[i], continue_pc);
  ptrvec_fini(&l->breaks);
  ptrvec_fini(&l->continues);
  C->fb->loop = l->up;
}

/* Give slots to the locals of receive cases nested in s (a body). */
static void slot_case_locals(Cg *C, Ast *s) {
  if (!s) return;
  switch (s->kind) {
  case AST_S_BLOCK: for (int i = 0; i < s->list.n; i++) slot_case_locals(C, s->list.items[i]); break;
  case AST_S_IF: slot_case_locals(C, s->k[1]); slot_case_locals(C, s->k[2]); break;
  case AST_S_WHILE: slot_case_locals(C, s->k[1]); break;
  case AST_S_FOREACH: slot_case_locals(C, s->k[2]); break;
  case AST_S_RECEIVE:
    for (int i = 0; i < s->list.n; i++) {
      Ast *f = s->list.items[i]->k[0];
      for (int j = 0; j < f->list.n; j++) f->list.items[j]->slot = new_local(C, f->list.items[j]->type);
      Ast *body = f->k[1];
      for (int j = 0; j < body->list2.n; j++) body->list2.items[j]->slot = new_local(C, body->list2.items[j]->type);
      slot_case_locals(C, body);
    }
    break;
  default: break;
  }
}

/* A block: each statement in order. */
static void cg_stmt_block(Cg *C, Ast *s) {
  for (int i = 0; i < s->list.n; i++) cg_stmt(C, s->list.items[i]);
}

/* `assert c, msg?`: OP_ASSERT with a new assert id (new_assert).  With a
** message and a non-literal c, the message is computed only when c is
** false, and OP_ASSERT_HELD marks the assert evaluated when it holds. */
static void cg_stmt_assert(Cg *C, Ast *s) {
  cg_expr(C, s->k[0]);
  if (s->k[1] && s->k[0]->kind != AST_E_BOOL) {
    /* As P: the message (its calls, its format arguments) is evaluated
    ** only when the condition is false; with a literal condition, always. */
    uint32_t j = emit_u32(C, OP_JMP_TRUE, 0);
    stack(C, -1);
    emit_u8(C, OP_PUSH_BOOL, 0);
    stack(C, 1);
    cg_expr(C, s->k[1]);
    loc_at(C, s->span);
    uint16_t id = new_assert(C, s->span);
    emit_u16u16(C, OP_ASSERT, 1, id);   /* always fails: nothing falls through */
    stack(C, -2);
    patch(C, j, here(C));
    emit_u16(C, OP_ASSERT_HELD, id);
    return;
  }
  if (s->k[1]) cg_expr(C, s->k[1]);
  loc_at(C, s->span);
  emit_u16u16(C, OP_ASSERT, s->k[1] != NULL, new_assert(C, s->span));
  stack(C, s->k[1] ? -2 : -1);
}

/* `print e`: the string, then OP_PRINT. */
static void cg_stmt_print(Cg *C, Ast *s) {
  cg_expr(C, s->k[0]);
  loc_at(C, s->span);
  emit0(C, OP_PRINT);
  stack(C, -1);
}

/* `return e?`: OP_RET_VAL with the value, or OP_RET. */
static void cg_stmt_return(Cg *C, Ast *s) {
  if (s->k[0]) { cg_expr(C, s->k[0]); loc_at(C, s->span); emit0(C, OP_RET_VAL); stack(C, -1); }
  else emit0(C, OP_RET);
}

/* `break` and `continue`: an OP_JMP of the innermost loop (sema has seen
** to it that there is one), to a known continue target or patched by
** pop_loop. */
static void cg_stmt_jump(Cg *C, Ast *s) {
  Loop *l = C->fb->loop;
  if (s->kind == AST_S_CONTINUE && l->continue_known) { emit_u32(C, OP_JMP, l->continue_pc); return; }
  uint32_t at = emit_u32(C, OP_JMP, 0);
  ptrvec_push(s->kind == AST_S_BREAK ? &l->breaks : &l->continues, (void *)(uintptr_t)at);
}

/* `l = r`: the value, then the store into l (cg_store). */
static void cg_stmt_assign(Cg *C, Ast *s) {
  cg_expr(C, s->k[1]);
  loc_at(C, s->span);
  cg_store(C, s->k[0]);
}

/* `while (c) body`: test at the top, OP_JMP_FALSE past the end; continue
** jumps to the test. */
static void cg_stmt_while(Cg *C, Ast *s) {
  Loop l;
  push_loop(C, &l);
  uint32_t top = here(C);
  l.continue_pc = top;
  l.continue_known = 1;
  cg_expr(C, s->k[0]);
  uint32_t j = emit_u32(C, OP_JMP_FALSE, 0);
  stack(C, -1);
  cg_stmt(C, s->k[1]);
  emit_u32(C, OP_JMP, top);
  patch(C, j, here(C));
  pop_loop(C, &l, top, here(C));
}

/* `if (c) a else b`: OP_JMP_FALSE over a, and with an else an OP_JMP
** over b. */
static void cg_stmt_if(Cg *C, Ast *s) {
  cg_expr(C, s->k[0]);
  uint32_t j = emit_u32(C, OP_JMP_FALSE, 0);
  stack(C, -1);
  cg_stmt(C, s->k[1]);
  if (s->k[2]) {
    uint32_t j2 = emit_u32(C, OP_JMP, 0);
    patch(C, j, here(C));
    cg_stmt(C, s->k[2]);
    patch(C, j2, here(C));
  } else {
    patch(C, j, here(C));
  }
}

/* `foreach (v in c) body`: c and an index in two new temporaries, the
** element OP_NTH stores into v while index < sizeof(c); continue jumps to
** the increment. */
static void cg_stmt_foreach(Cg *C, Ast *s) {
  int coll = new_local(C, NULL), idx = new_local(C, NULL);
  cg_expr(C, s->k[1]);
  emit_u16(C, OP_STORE_LOCAL, (uint16_t)coll);
  emit_i64(C, OP_PUSH_INT, 0);
  emit_u16(C, OP_STORE_LOCAL, (uint16_t)idx);
  stack(C, -1);
  Loop l;
  push_loop(C, &l);
  uint32_t top = here(C);
  emit_u16(C, OP_LOAD_LOCAL, (uint16_t)idx);
  emit_u16(C, OP_LOAD_LOCAL, (uint16_t)coll);
  stack(C, 2);
  emit0(C, OP_SIZEOF);
  emit0(C, OP_LT);
  stack(C, -1);
  uint32_t j = emit_u32(C, OP_JMP_FALSE, 0);
  stack(C, -1);
  emit_u16(C, OP_LOAD_LOCAL, (uint16_t)coll);
  emit_u16(C, OP_LOAD_LOCAL, (uint16_t)idx);
  stack(C, 2);
  emit0(C, OP_NTH);
  stack(C, -1);
  cg_store(C, s->k[0]);
  cg_stmt(C, s->k[2]);
  uint32_t cont = here(C);
  emit_u16(C, OP_LOAD_LOCAL, (uint16_t)idx);
  emit_i64(C, OP_PUSH_INT, 1);
  emit0(C, OP_ADD);
  emit_u16(C, OP_STORE_LOCAL, (uint16_t)idx);
  emit_u32(C, OP_JMP, top);
  patch(C, j, here(C));
  pop_loop(C, &l, cont, here(C));
}

/* `new M(...)` as a statement: the creation, its machine id popped. */
static void cg_stmt_new(Cg *C, Ast *s) {
  cg_expr(C, s->k[0]);
  emit0(C, OP_POP);
  stack(C, -1);
}

/* `f(...)` as a statement: the call, its result (if any) popped. */
static void cg_stmt_call(Cg *C, Ast *s) {
  Ast *e = s->k[0];
  cg_expr(C, e);
  if (e->decl->type && e->decl->type->kind != TY_VOID) { emit0(C, OP_POP); stack(C, -1); }
}

/* `raise e, p` and `announce e, p`: event, payload, OP_RAISE or
** OP_ANNOUNCE. */
static void cg_stmt_raise(Cg *C, Ast *s) {
  cg_expr(C, s->k[0]);
  cg_payload(C, &s->list);
  loc_at(C, s->span);
  emit0(C, s->kind == AST_S_RAISE ? OP_RAISE : OP_ANNOUNCE);
  stack(C, -2);
}

/* `send t, e, p`: target, event, payload, OP_SEND. */
static void cg_stmt_send(Cg *C, Ast *s) {
  cg_expr(C, s->k[0]);
  cg_expr(C, s->k[1]);
  cg_payload(C, &s->list);
  loc_at(C, s->span);
  emit0(C, OP_SEND);
  stack(C, -3);
}

/* `goto T, p`: the payload, then OP_GOTO of T's state index. */
static void cg_stmt_goto(Cg *C, Ast *s) {
  cg_payload(C, &s->list);
  loc_at(C, s->span);
  emit_u16(C, OP_GOTO, (uint16_t)s->decl->slot);
  stack(C, -1);
}

/* `receive { case ... }`: OP_RECEIVE of a new receive table (its id the
** next of BcProgram.recvs), one BcCase per event of each case, then each
** case's body in order, each ending in an OP_JMP past the last. */
static void cg_stmt_receive(Cg *C, Ast *s) {
  BcRecv *r = arena_alloc(C->a, sizeof *r);
  int ncases = 0;
  for (int i = 0; i < s->list.n; i++) ncases += s->list.items[i]->list.n;
  r->ncases = (uint16_t)ncases;
  r->fun = fun_id(C, C->fb->fun);
  r->cases = arena_alloc(C->a, (size_t)(ncases ? ncases : 1) * sizeof(BcCase));
  /* Receive tables are numbered in order; the program's array grows. */
  uint32_t rid = C->bc->nrecvs++;
  C->bc->recvs = xrealloc(C->bc->recvs, (size_t)C->bc->nrecvs * sizeof(BcRecv));
  emit_u16(C, OP_RECEIVE, (uint16_t)rid);
  PtrVec ends = {0};
  int k = 0;
  for (int i = 0; i < s->list.n; i++) {
    Ast *c = s->list.items[i];
    Ast *f = c->k[0];
    uint32_t pc = here(C);
    for (int j = 0; j < c->list.n; j++) {
      Ast *ev = c->list.items[j];
      /* case null (P accepts it; no event is ever null, so it never fires):
      ** the id past the last event, which no inbox entry carries. */
      r->cases[k].event = ev->kind == AST_E_HALT ? BC_HALT
                          : (ev->flags & AF_NULLEV) ? C->bc->nevents : (uint32_t)ev->decl->slot;
      r->cases[k].pc = pc;
      r->cases[k].slot = f->list.n ? f->list.items[0]->slot : -1;
      r->cases[k].src = src_of(C, c->span);
      k++;
    }
    cg_stmt(C, f->k[1]);
    ptrvec_push(&ends, (void *)(uintptr_t)emit_u32(C, OP_JMP, 0));
  }
  for (int i = 0; i < ends.n; i++) patch(C, (uint32_t)(uintptr_t)ends.items[i], here(C));
  ptrvec_fini(&ends);
  C->bc->recvs[rid] = *r;
}

/* Emit statement s into the function being built (C->fb), its location
** first; each kind has an emitter of its own.  A kind with none is an
** internal error, counted in C->errors. */
static void cg_stmt(Cg *C, Ast *s) {
  loc_at(C, s->span);
  switch (s->kind) {
  case AST_S_BLOCK: cg_stmt_block(C, s); break;
  case AST_S_NOP: break;
  case AST_S_ASSERT: cg_stmt_assert(C, s); break;
  case AST_S_PRINT: cg_stmt_print(C, s); break;
  case AST_S_RETURN: cg_stmt_return(C, s); break;
  case AST_S_BREAK: case AST_S_CONTINUE: cg_stmt_jump(C, s); break;
  case AST_S_ASSIGN: cg_stmt_assign(C, s); break;
  case AST_S_INSERT: cg_update(C, s, OP_INSERT, 2); break;
  case AST_S_ADD: cg_update(C, s, OP_ADD_ELEM, 1); break;
  case AST_S_REMOVE: cg_update(C, s, OP_REMOVE, 1); break;
  case AST_S_WHILE: cg_stmt_while(C, s); break;
  case AST_S_IF: cg_stmt_if(C, s); break;
  case AST_S_FOREACH: cg_stmt_foreach(C, s); break;
  case AST_S_NEW: cg_stmt_new(C, s); break;
  case AST_S_CALL: cg_stmt_call(C, s); break;
  case AST_S_RAISE: case AST_S_ANNOUNCE: cg_stmt_raise(C, s); break;
  case AST_S_SEND: cg_stmt_send(C, s); break;
  case AST_S_GOTO: cg_stmt_goto(C, s); break;
  case AST_S_RECEIVE: cg_stmt_receive(C, s); break;
  default:
    diag_error(C->d, s->span, "internal error: cannot compile %s", ast_kind_name(s->kind));
    C->errors++;
    break;
  }
}

/* Compile a function declaration (named or anonymous) into f. */
static void cg_fun(Cg *C, Ast *decl, BcFun *f) {
  FunBuild fb;
  begin_fun(C, &fb, f);
  f->nparams = (uint16_t)decl->list.n;
  f->has_result = decl->type && decl->type->kind != TY_VOID && decl->type->kind != TY_ERROR;
  for (int i = 0; i < decl->list.n; i++) decl->list.items[i]->slot = new_local(C, decl->list.items[i]->type);
  Ast *body = decl->k[1];
  for (int i = 0; i < body->list2.n; i++) body->list2.items[i]->slot = new_local(C, body->list2.items[i]->type);
  slot_case_locals(C, body);
  cg_stmt(C, body);
  /* Falling off the end: return (a function with a result cannot, by sema). */
  Span end = body->span;
  end.start = end.end > 0 ? end.end - 1 : 0;
  loc_at(C, end);
  emit0(C, OP_RET);
  end_fun(C);
}

/* A transition: exit the current state, run `with` (optional), enter target. */
static int32_t cg_transition(Cg *C, const char *mname, BcState *target, uint16_t tidx, int32_t with, Span sp) {
  BcFun *f = new_fun(C, with >= 0 ? arena_printf(C->a, "%s.goto.%s.with", mname, target->name)
                                  : arena_printf(C->a, "%s.goto.%s", mname, target->name), C->owner->slot);
  FunBuild fb;
  begin_fun(C, &fb, f);
  f->nparams = 1;
  new_local(C, NULL);
  loc_at(C, sp);
  emit0(C, OP_EXIT_STATE);
  if (with >= 0) {
    BcFun *w = C->funs.items[with];
    if (w->nparams) { emit_u16(C, OP_LOAD_LOCAL, 0); stack(C, 1); }
    emit_u16(C, OP_CALL, (uint16_t)with);
    stack(C, -(int)w->nparams);
  }
  emit_u16(C, OP_SET_STATE, tidx);
  emit_u16(C, OP_LOAD_LOCAL, 0);
  stack(C, 1);
  emit_u16(C, OP_ENTER, tidx);
  stack(C, -1);
  emit0(C, OP_RET);
  end_fun(C);
  return fun_id(C, f);
}

/* The function id of handler h: an anonymous D_FUN is compiled now under
** name (its id also kept in h->slot); a named one has its id already.
** -1 for no handler (h NULL, or a name that did not resolve). */
static int32_t handler_fun(Cg *C, Ast *h, const char *name, int32_t owner) {
  if (!h) return -1;
  if (h->kind == AST_D_FUN) {
    BcFun *f = new_fun(C, name, owner);
    int32_t id = fun_id(C, f);
    h->slot = id;
    Ast *saved = C->owner;
    cg_fun(C, h, f);
    C->owner = saved;
    return id;
  }
  return h->decl ? h->decl->slot : -1;
}

/* The handler-table index of an event list item: its event id, halt 0,
** or the null slot (BcProgram.nevents) for `null`. */
static uint32_t event_index(Cg *C, Ast *ev) {
  if (ev->kind == AST_E_HALT) return BC_HALT;
  if (ev->flags & AF_NULLEV) return C->bc->nevents;   /* the null slot */
  return (uint32_t)ev->decl->slot;
}

/* Compile machine or spec m into bm: variables and their defaults,
** states (numbered in declaration order), functions, entries and exits,
** each state's transition, its handlers, and what a spec observes or a
** machine's sends clause allows.  Function ids follow that order. */
static void cg_machine(Cg *C, Ast *m, BcMachine *bm) {
  C->owner = m;
  int32_t mid = m->slot;
  /* States first, so transitions and gotos can name them. */
  int nstates = 0, nvars = 0;
  for (int i = 0; i < m->list.n; i++) {
    Ast *it = m->list.items[i];
    if (it->kind == AST_D_STATE) it->slot = nstates++;
    else if (it->kind == AST_D_VAR) nvars++;
  }
  bm->name = arena_strdup(C->a, m->name);
  bm->is_spec = (m->flags & AF_SPEC) != 0;
  bm->is_scenario = (m->flags & AF_SCENARIO) != 0;
  bm->nvars = (uint16_t)nvars;
  bm->var_names = arena_alloc(C->a, (size_t)(nvars ? nvars : 1) * sizeof(char *));
  bm->var_defaults = arena_alloc(C->a, (size_t)(nvars ? nvars : 1) * sizeof(Value));
  bm->nstates = (uint16_t)nstates;
  bm->states = arena_alloc(C->a, (size_t)(nstates ? nstates : 1) * sizeof(BcState));
  for (int i = 0; i < m->list.n; i++) {
    Ast *it = m->list.items[i];
    if (it->kind == AST_D_VAR) {
      bm->var_names[it->slot] = arena_strdup(C->a, it->name);
      bm->var_defaults[it->slot] = default_value(C, it->type);
    }
  }
  uint32_t nslots = C->bc->nevents + 1;
  for (int i = 0; i < m->list.n; i++) {
    Ast *st = m->list.items[i];
    if (st->kind != AST_D_STATE) continue;
    BcState *bs = &bm->states[st->slot];
    bs->name = arena_strdup(C->a, st->name);
    /* A temperature is a spec's (a machine's hot state is only warned of,
    ** as P ignores it); a scenario is never a liveness bug. */
    bs->hot = (st->flags & AF_HOT) != 0 && (m->flags & AF_SPEC) && !(m->flags & AF_SCENARIO);
    bs->cold = (st->flags & AF_COLD) != 0 && (m->flags & AF_SPEC);
    bs->entry = bs->exit = bs->trans = -1;
    bs->handlers = arena_alloc(C->a, nslots * sizeof(BcHandler));
    for (uint32_t e = 0; e < nslots; e++) bs->handlers[e].fun = -1;
    bs->handler_src = arena_alloc(C->a, nslots * sizeof(BcSrc));
    memset(bs->handler_src, 0, nslots * sizeof(BcSrc));
    bs->src = src_of(C, st->name_span);
    if (st->flags & AF_START) bm->start = (uint16_t)st->slot;
  }
  /* Machine functions (named), so handlers can refer to them. */
  for (int i = 0; i < m->list.n; i++) {
    Ast *it = m->list.items[i];
    if (it->kind == AST_D_FUN) {
      BcFun *f = new_fun(C, arena_printf(C->a, "%s.%s", m->name, it->name), mid);
      it->slot = fun_id(C, f);
    }
  }
  for (int i = 0; i < m->list.n; i++) {
    Ast *it = m->list.items[i];
    if (it->kind == AST_D_FUN) cg_fun(C, it, C->funs.items[it->slot]);
  }
  for (int i = 0; i < m->list.n; i++) {
    Ast *st = m->list.items[i];
    if (st->kind != AST_D_STATE) continue;
    BcState *bs = &bm->states[st->slot];
    for (int j = 0; j < st->list.n; j++) {
      Ast *si = st->list.items[j];
      if (si->kind == AST_I_ENTRY)
        bs->entry = handler_fun(C, si->k[0], arena_printf(C->a, "%s.%s.entry", m->name, st->name), mid);
      else if (si->kind == AST_I_EXIT)
        bs->exit = handler_fun(C, si->k[0], arena_printf(C->a, "%s.%s.exit", m->name, st->name), mid);
    }
  }
  for (int i = 0; i < m->list.n; i++) {
    Ast *st = m->list.items[i];
    if (st->kind != AST_D_STATE) continue;
    BcState *bs = &bm->states[st->slot];
    bs->trans = cg_transition(C, m->name, bs, (uint16_t)st->slot, -1, st->name_span);
  }
  for (int i = 0; i < m->list.n; i++) {
    Ast *st = m->list.items[i];
    if (st->kind != AST_D_STATE) continue;
    BcState *bs = &bm->states[st->slot];
    for (int j = 0; j < st->list.n; j++) {
      Ast *si = st->list.items[j];
      BcHandler h = { BH_NONE, 0, -1 };
      switch (si->kind) {
      case AST_I_DEFER: h.kind = BH_DEFER; break;
      case AST_I_IGNORE: h.kind = BH_IGNORE; break;
      case AST_I_ONDO:
        h.kind = BH_DO;
        h.fun = handler_fun(C, si->k[0], arena_printf(C->a, "%s.%s.on.%s", m->name, st->name,
                            si->list.items[0]->kind == AST_E_HALT ? "halt" : si->list.items[0]->name), mid);
        break;
      case AST_I_ONGOTO: {
        Ast *target = si->decl;
        h.kind = BH_GOTO;
        h.target = (uint16_t)target->slot;
        if (si->k[0]) {
          int32_t with = handler_fun(C, si->k[0], arena_printf(C->a, "%s.%s.with", m->name, st->name), mid);
          h.fun = cg_transition(C, m->name, &bm->states[target->slot], (uint16_t)target->slot, with, si->span);
        } else {
          h.fun = bm->states[target->slot].trans;
        }
        break;
      }
      default: continue;
      }
      for (int k = 0; k < si->list.n; k++) {
        bs->handlers[event_index(C, si->list.items[k])] = h;
        bs->handler_src[event_index(C, si->list.items[k])] = src_of(C, si->span);
      }
    }
  }
  if (bm->is_spec) {
    bm->observes = arena_alloc(C->a, C->bc->nevents);
    for (int i = 0; i < m->list2.n; i++) bm->observes[event_index(C, m->list2.items[i])] = 1;
  } else {
    bm->iface = (uint16_t)m->iface;
    if (m->k[0] && (m->k[0]->op & 2)) {   /* a sends clause */
      bm->sends = arena_alloc(C->a, C->bc->nevents);
      memset(bm->sends, 0, C->bc->nevents);
      for (int i = 0; i < m->k[0]->list2.n; i++) bm->sends[event_index(C, m->k[0]->list2.items[i])] = 1;
    }
  }
  C->owner = NULL;
}

/* An explorer: a record of variables with functions, and one pseudo-state
** whose handlers are its `on e do` items (events the model announces). */
static void cg_explorer(Cg *C, Ast *x, BcMachine *bm) {
  C->owner = x;
  int32_t xid = x->slot;
  int nvars = 0;
  for (int i = 0; i < x->list.n; i++)
    if (x->list.items[i]->kind == AST_D_VAR) nvars++;
  bm->name = arena_strdup(C->a, x->name);
  bm->is_explorer = 1;
  bm->nvars = (uint16_t)nvars;
  bm->var_names = arena_alloc(C->a, (size_t)(nvars ? nvars : 1) * sizeof(char *));
  bm->var_defaults = arena_alloc(C->a, (size_t)(nvars ? nvars : 1) * sizeof(Value));
  for (int i = 0; i < x->list.n; i++) {
    Ast *it = x->list.items[i];
    if (it->kind == AST_D_VAR) {
      bm->var_names[it->slot] = arena_strdup(C->a, it->name);
      bm->var_defaults[it->slot] = default_value(C, it->type);
    }
  }
  bm->nstates = 1;
  bm->states = arena_alloc(C->a, sizeof(BcState));
  BcState *bs = &bm->states[0];
  bs->name = "explorer";
  bs->entry = bs->exit = bs->trans = -1;
  uint32_t nslots = C->bc->nevents + 1;
  bs->handlers = arena_alloc(C->a, nslots * sizeof(BcHandler));
  for (uint32_t e = 0; e < nslots; e++) bs->handlers[e].fun = -1;
  bs->handler_src = arena_alloc(C->a, nslots * sizeof(BcSrc));
  memset(bs->handler_src, 0, nslots * sizeof(BcSrc));
  bs->src = src_of(C, x->name_span);
  for (int i = 0; i < x->list.n; i++) {
    Ast *it = x->list.items[i];
    if (it->kind == AST_D_FUN) {
      BcFun *f = new_fun(C, arena_printf(C->a, "%s.%s", x->name, it->name), xid);
      it->slot = fun_id(C, f);
    }
  }
  for (int i = 0; i < x->list.n; i++) {
    Ast *it = x->list.items[i];
    if (it->kind == AST_D_FUN) cg_fun(C, it, C->funs.items[it->slot]);
  }
  for (int i = 0; i < x->list.n; i++) {
    Ast *it = x->list.items[i];
    if (it->kind != AST_I_ONDO) continue;
    BcHandler h = { BH_DO, 0, -1 };
    h.fun = handler_fun(C, it->k[0], arena_printf(C->a, "%s.on.%s", x->name, it->list.items[0]->name), xid);
    for (int k = 0; k < it->list.n; k++) bs->handlers[event_index(C, it->list.items[k])] = h;
  }
  C->owner = NULL;
}

/* For each of d's files, the offset where each line starts (line 1 at 0),
** so src_of finds a span's line by binary search. */
static void index_lines(Cg *C) {
  uint32_t n = (uint32_t)C->d->nfiles;
  C->line_starts = xcalloc(n ? n : 1, sizeof(uint32_t *));
  C->nline_starts = xcalloc(n ? n : 1, sizeof(uint32_t));
  for (uint32_t f = 0; f < n; f++) {
    const SrcFile *sf = &C->d->files[f];
    uint32_t cnt = 1;
    for (size_t i = 0; i < sf->len; i++) cnt += sf->text[i] == '\n';
    C->line_starts[f] = xmalloc(cnt * sizeof(uint32_t));
    uint32_t k = 0;
    C->line_starts[f][k++] = 0;
    for (size_t i = 0; i < sf->len; i++)
      if (sf->text[i] == '\n') C->line_starts[f][k++] = (uint32_t)i + 1;
    C->nline_starts[f] = k;
  }
}

/* Copy a value's encoding into the program arena so it outlives the
** compiler's scratch arena. */
static Value persist(Cg *C, Value v) {
  if (!val_is_compound(&v)) return v;
  uint8_t *p = arena_alloc(C->a, v.len);
  memcpy(p, v.u.p, v.len);
  v.u.p = p;
  return v;
}

/* Start compiling p: a new BcProgram (C->bc, its arena C->a) with the
** source paths of d's files, the scratch constant arena, shape 0 (the
** unnamed tuples) and the line index src_of reads. */
static void cg_begin(Cg *C, Program *p, Diag *d) {
  C->p = p;
  C->d = d;
  BcProgram *bc = xcalloc(1, sizeof *bc);
  bc->arena = arena_new();
  C->bc = bc;
  C->a = bc->arena;
  valarena_init(&C->va);
  ptrvec_push(&C->shapes, NULL);
  index_lines(C);
  bc->nfiles = (uint32_t)d->nfiles;
  bc->files = arena_alloc(C->a, (bc->nfiles ? bc->nfiles : 1) * sizeof(char *));
  for (uint32_t i = 0; i < bc->nfiles; i++) bc->files[i] = arena_strdup(C->a, d->files[i].path);
}

/* Event ids (halt 0, declared events from 1 in order, into each D_EVENT's
** slot), their names, and what each payload may carry (type_carry). */
static void cg_events(Cg *C) {
  Program *p = C->p;
  BcProgram *bc = C->bc;
  bc->nevents = (uint32_t)p->events.n + 1;
  bc->event_names = arena_alloc(C->a, bc->nevents * sizeof(char *));
  bc->event_names[0] = "halt";
  for (int i = 0; i < p->events.n; i++) {
    Ast *e = p->events.items[i];
    e->slot = i + 1;
    bc->event_names[i + 1] = arena_strdup(C->a, e->name);
  }
  bc->event_carry = arena_alloc(C->a, bc->nevents);
  bc->event_carry[0] = 0;
  for (int i = 0; i < p->events.n; i++) {
    Ast *e = p->events.items[i];
    bc->event_carry[i + 1] = e->k[0] ? type_carry(e->k[0]->type) : 0;
  }
}

/* Number the enums, the machines and specs (one numbering, in declaration
** order), then the explorers after them, into each declaration's slot;
** their counts go to *nenums, *nmach and *nexpl. */
static void cg_number_decls(Cg *C, int *nenums, int *nmach, int *nexpl) {
  Program *p = C->p;
  *nenums = *nmach = *nexpl = 0;
  for (int i = 0; i < p->root->list.n; i++) {
    Ast *x = p->root->list.items[i];
    if (x->kind == AST_D_ENUM) x->slot = (*nenums)++;
    else if (x->kind == AST_D_MACHINE) x->slot = (*nmach)++;
  }
  for (int i = 0; i < p->root->list.n; i++)
    if (p->root->list.items[i]->kind == AST_D_EXPLORER) p->root->list.items[i]->slot = *nmach + (*nexpl)++;
}

/* The enum table (nenums of them, numbered by cg_number_decls): names,
** members and their values. */
static void cg_enums(Cg *C, int nenums) {
  Program *p = C->p;
  BcProgram *bc = C->bc;
  bc->nenums = (uint16_t)nenums;
  bc->enums = arena_alloc(C->a, (size_t)(nenums ? nenums : 1) * sizeof(BcEnum));
  for (int i = 0; i < p->root->list.n; i++) {
    Ast *x = p->root->list.items[i];
    if (x->kind != AST_D_ENUM) continue;
    BcEnum *be = &bc->enums[x->slot];
    be->name = arena_strdup(C->a, x->name);
    be->n = (uint32_t)x->list.n;
    be->members = arena_alloc(C->a, (size_t)(x->list.n ? x->list.n : 1) * sizeof(char *));
    be->values = arena_alloc(C->a, (size_t)(x->list.n ? x->list.n : 1) * sizeof(int64_t));
    for (int j = 0; j < x->list.n; j++) {
      be->members[j] = arena_strdup(C->a, x->list.items[j]->name);
      be->values[j] = x->list.items[j]->ival;
    }
  }
}

/* The interface table: names, the machine of the same name, and the
** events each may be sent: P's permissions are the receive sets (Ast.perm,
** halt first, as event ids are); a universal set needs no check (NULL). */
static void cg_ifaces(Cg *C) {
  Program *p = C->p;
  BcProgram *bc = C->bc;
  bc->nifaces = (uint16_t)p->ifaces.n;
  bc->iface_names = arena_alloc(C->a, (size_t)(p->ifaces.n ? p->ifaces.n : 1) * sizeof(char *));
  bc->iface_self = arena_alloc(C->a, (size_t)(p->ifaces.n ? p->ifaces.n : 1) * sizeof(uint16_t));
  bc->iface_recv = arena_alloc(C->a, (size_t)(p->ifaces.n ? p->ifaces.n : 1) * sizeof(uint8_t *));
  for (int i = 0; i < p->ifaces.n; i++) {
    Ast *x = p->ifaces.items[i];
    bc->iface_names[i] = arena_strdup(C->a, x->name);
    bc->iface_self[i] = x->kind == AST_D_MACHINE ? (uint16_t)x->slot : BC_NO_MACHINE;
    int all = 1;
    for (int e = 0; e < p->nperm; e++) all &= x->perm[e] != 0;
    bc->iface_recv[i] = NULL;
    if (!all) {
      bc->iface_recv[i] = arena_alloc(C->a, bc->nevents);
      memcpy(bc->iface_recv[i], x->perm, bc->nevents);
    }
  }
}

/* Global params: numbered in declaration order (each D_PARAM's slot),
** with names and default values (persisted in the program's arena). */
static void cg_params(Cg *C) {
  Program *p = C->p;
  BcProgram *bc = C->bc;
  bc->nparams = (uint16_t)p->params.n;
  bc->param_names = arena_alloc(C->a, (size_t)(p->params.n ? p->params.n : 1) * sizeof(char *));
  bc->param_defaults = arena_alloc(C->a, (size_t)(p->params.n ? p->params.n : 1) * sizeof(Value));
  for (int i = 0; i < p->params.n; i++) {
    Ast *pa = p->params.items[i];
    pa->slot = i;
    bc->param_names[i] = arena_strdup(C->a, pa->name);
    bc->param_defaults[i] = persist(C, default_value(C, pa->type));
  }
}

/* Global functions: all get ids first (function ids 0.. in declaration
** order), so that every body can call any of them; then their bodies. */
static void cg_globals(Cg *C) {
  Program *p = C->p;
  for (int i = 0; i < p->funs.n; i++) {
    Ast *f = p->funs.items[i];
    f->slot = fun_id(C, new_fun(C, f->name, -1));
  }
  for (int i = 0; i < p->funs.n; i++) {
    Ast *f = p->funs.items[i];
    cg_fun(C, f, C->funs.items[f->slot]);
  }
}

/* The machine table: nowners records (machines and specs, then explorers,
** as cg_number_decls numbered them), each compiled with its functions. */
static void cg_owners(Cg *C, int nowners) {
  Program *p = C->p;
  BcProgram *bc = C->bc;
  bc->nmachines = (uint16_t)nowners;
  bc->machines = arena_alloc(C->a, (size_t)(nowners ? nowners : 1) * sizeof(BcMachine));
  for (int i = 0; i < p->root->list.n; i++) {
    Ast *x = p->root->list.items[i];
    if (x->kind == AST_D_MACHINE) cg_machine(C, x, &bc->machines[x->slot]);
    else if (x->kind == AST_D_EXPLORER) cg_explorer(C, x, &bc->machines[x->slot]);
  }
}

/* Move what compiling built on the heap into the program's arena: the
** functions (in id order), the default values of the nowners machines'
** variables, the constants, types, shapes, asserts and receive tables. */
static void cg_arrays(Cg *C, int nowners) {
  BcProgram *bc = C->bc;
  bc->nfuns = (uint32_t)C->funs.n;
  bc->funs = arena_alloc(C->a, (size_t)(C->funs.n ? C->funs.n : 1) * sizeof(BcFun));
  for (int i = 0; i < C->funs.n; i++) {
    BcFun *f = C->funs.items[i];
    for (uint32_t j = 0; j < f->nlocals; j++) f->local_defaults[j] = persist(C, f->local_defaults[j]);
    bc->funs[i] = *f;
    free(f);
  }
  for (int i = 0; i < nowners; i++)
    for (uint16_t j = 0; j < bc->machines[i].nvars; j++)
      bc->machines[i].var_defaults[j] = persist(C, bc->machines[i].var_defaults[j]);
  bc->nconsts = (uint32_t)C->consts.n;
  bc->consts = arena_alloc(C->a, (size_t)(C->consts.n ? C->consts.n : 1) * sizeof(Value));
  for (int i = 0; i < C->consts.n; i++) {
    bc->consts[i] = persist(C, *(Value *)C->consts.items[i]);
    free(C->consts.items[i]);
  }
  bc->ntypes = (uint32_t)C->types.n;
  bc->types = arena_alloc(C->a, (size_t)(C->types.n ? C->types.n : 1) * sizeof(BcType));
  for (int i = 0; i < C->types.n; i++) {
    BcType *t = C->types.items[i];
    bc->types[i] = *t;
    if (t->n) {
      bc->types[i].elems = arena_alloc(C->a, t->n * sizeof(uint32_t));
      memcpy(bc->types[i].elems, t->elems, t->n * sizeof(uint32_t));
    }
    free(t->elems);
    free(t);
  }
  bc->nshapes = (uint16_t)C->shapes.n;
  bc->shapes = arena_alloc(C->a, (size_t)C->shapes.n * sizeof(BcShape));
  for (int i = 1; i < C->shapes.n; i++) {
    const Type *t = C->shapes.items[i];
    bc->shapes[i].n = (uint16_t)t->n;
    bc->shapes[i].fields = arena_alloc(C->a, (size_t)t->n * sizeof(char *));
    for (int j = 0; j < t->n; j++) bc->shapes[i].fields[j] = arena_strdup(C->a, t->names[j]);
  }
  /* asserts and recvs were realloc'ed on the heap; move them into the arena. */
  if (bc->nasserts > 65536) bc->nasserts = 65536;
  if (bc->nasserts) {
    BcAssert *as = arena_alloc(C->a, bc->nasserts * sizeof(BcAssert));
    memcpy(as, bc->asserts, bc->nasserts * sizeof(BcAssert));
    free(bc->asserts);
    bc->asserts = as;
  }
  if (bc->nrecvs) {
    BcRecv *r = arena_alloc(C->a, bc->nrecvs * sizeof(BcRecv));
    memcpy(r, bc->recvs, bc->nrecvs * sizeof(BcRecv));
    free(bc->recvs);
    bc->recvs = r;
  }
}

/* Free the compiler's scratch (line index, vectors, constant arena); the
** BcProgram is left as it is. */
static void cg_end(Cg *C) {
  for (uint32_t f = 0; f < (uint32_t)C->d->nfiles; f++) free(C->line_starts[f]);
  free(C->line_starts);
  free(C->nline_starts);
  ptrvec_fini(&C->funs);
  ptrvec_fini(&C->consts);
  ptrvec_fini(&C->types);
  ptrvec_fini(&C->type_keys);
  ptrvec_fini(&C->shapes);
  valarena_fini(&C->va);
}

/* The compiled program, or NULL (freed) when compiling reported an error
** or, an internal error reported to d, the bytecode does not verify. */
static BcProgram *cg_verified(Cg *C) {
  BcProgram *bc = C->bc;
  if (C->errors) { bc_free(bc); return NULL; }
  Buf err;
  buf_init(&err);
  if (!bc_verify(bc, &err)) {
    diag_error_noloc(C->d, "internal error: the compiled bytecode does not verify: %s", err.data);
    buf_fini(&err);
    bc_free(bc);
    return NULL;
  }
  buf_fini(&err);
  return bc;
}

/* The phases in order; ids given by one phase are read by the later
** ones (event ids by everything, machine slots by cg_ifaces). */
BcProgram *cg_compile(Program *p, Diag *d) {
  Cg c = {0};
  Cg *C = &c;
  int nenums, nmach, nexpl;
  cg_begin(C, p, d);
  cg_events(C);
  cg_number_decls(C, &nenums, &nmach, &nexpl);
  cg_enums(C, nenums);
  cg_ifaces(C);
  cg_params(C);
  cg_globals(C);
  cg_owners(C, nmach + nexpl);
  cg_arrays(C, nmach + nexpl);
  cg_end(C);
  return cg_verified(C);
}

/* ---------------------------------------------------------------------- */
/* Test cases.                                                             */

/* The specs a test's module expression attaches (assert ... in), through
** named modules, into out once each: an outer assert's before an inner's. */
static void collect_specs(const Ast *me, PtrVec *out) {
  if (!me) return;
  switch (me->kind) {
  case AST_M_ASSERT:
    for (int i = 0; i < me->list2.n; i++) {
      Ast *d = me->list2.items[i]->decl;
      int dup = 0;
      for (int j = 0; j < out->n; j++) dup |= out->items[j] == d;
      if (d && !dup) ptrvec_push(out, d);
    }
    collect_specs(me->k[0], out);
    break;
  case AST_M_UNION: case AST_M_SET:
    for (int i = 0; i < me->list.n; i++) collect_specs(me->list.items[i], out);
    break;
  case AST_M_MAIN: collect_specs(me->k[1], out); break;
  case AST_M_NAME:
    if (me->decl && me->decl->kind == AST_D_MODULE) collect_specs(me->decl->k[0], out);
    break;
  default: break;
  }
}

/* The Value of a param value e (sema checked it is_constant): its
** encoding, when compound, lives in va.  Anything else is null. */
static Value literal_value(ValArena *va, const Ast *e) {
  switch (e->kind) {
  case AST_E_INT: return val_int(e->ival);
  case AST_E_BOOL: return val_bool((int)e->ival);
  case AST_E_FLOAT: return val_float(e->fval);
  case AST_E_STRING: return string_literal(va, e);
  case AST_E_UNARY: {
    Value v = literal_value(va, e->k[0]);
    if (v.tag == VT_INT) v.u.i = (int64_t)(0 - (uint64_t)v.u.i);
    else if (v.tag == VT_FLOAT) v = val_float(-v.u.f);   /* canonical: -0.0 is 0.0 */
    return v;
  }
  case AST_E_NAME:
    if (e->decl && e->decl->kind == AST_D_ENUMELEM) return val_enum((uint16_t)e->decl->owner->slot, e->decl->ival);
    return val_null();
  default: return val_null();
  }
}

/* Specs: the test's asserted ones (every spec for the implicit test),
** then every scenario not asserted; the module's bindings, links and what
** each spec observes; params: defaults, then the case's values. */
void cg_test(const BcProgram *bc, const Program *p, const TestCase *tc, VmTest *out) {
  memset(out, 0, sizeof *out);
  out->main = (uint16_t)tc->main->slot;
  PtrVec specs = {0};
  if (tc->decl) collect_specs(tc->decl->k[1], &specs);
  else for (int i = 0; i < p->specs.n; i++) ptrvec_push(&specs, p->specs.items[i]);
  /* Scenarios are attached to every test, asserted or not (P). */
  for (int i = 0; tc->decl && i < p->specs.n; i++) {
    Ast *d = p->specs.items[i];
    int dup = 0;
    for (int j = 0; j < specs.n; j++) dup |= specs.items[j] == d;
    if ((d->flags & AF_SCENARIO) && !dup) ptrvec_push(&specs, d);
  }
  for (int i = 0; i < specs.n && i < 64; i++)
    if (((Ast *)specs.items[i])->flags & AF_SCENARIO) out->scenario_mask |= 1ull << i;
  if (out->scenario_mask) out->scenario_hit = xcalloc(1, sizeof(uint64_t));
  uint16_t *sp = xcalloc((size_t)(specs.n ? specs.n : 1), sizeof(uint16_t));
  for (int i = 0; i < specs.n; i++) sp[i] = (uint16_t)((Ast *)specs.items[i])->slot;
  out->nspecs = (uint16_t)specs.n;
  out->specs = sp;
  /* The test's module: which machine each interface creates, links
  ** (rename), and whose sends each spec observes. */
  const ModInfo *mi = tc->decl ? tc->decl->info : NULL;
  if (mi) {
    uint16_t *bind = xcalloc((size_t)(mi->niface ? mi->niface : 1), sizeof(uint16_t));
    uint16_t *link = xcalloc((size_t)(mi->niface ? mi->niface : 1), sizeof(uint16_t));
    for (int i = 0; i < mi->niface; i++) {
      bind[i] = mi->def[i] ? (uint16_t)mi->def[i]->slot : BC_NO_MACHINE;
      link[i] = mi->link[i];
    }
    const uint8_t **from = xcalloc((size_t)(specs.n ? specs.n : 1), sizeof(uint8_t *));
    for (int i = 0; i < specs.n; i++)   /* a scenario observes every machine */
      from[i] = (((Ast *)specs.items[i])->flags & AF_SCENARIO) ? NULL : mi->observed[((Ast *)specs.items[i])->iface];
    out->bind = bind;
    out->link = link;
    out->spec_from = from;
  }
  ptrvec_fini(&specs);
  Value *params = xcalloc(bc->nparams ? bc->nparams : 1, sizeof(Value));
  for (uint16_t i = 0; i < bc->nparams; i++) params[i] = bc->param_defaults[i];
  /* Literal strings are copied to heap blocks, listed in priv. */
  PtrVec *owned = xcalloc(1, sizeof *owned);
  for (int i = 0; i < tc->nvalues; i++) {
    const Ast *pv = tc->decl->list.items[i];
    int slot = pv->decl->slot;
    ValArena va;
    valarena_init(&va);
    Value v = literal_value(&va, tc->values[i]);
    if (v.tag == VT_INT && pv->decl->type->kind == TY_FLOAT) v = val_float((double)v.u.i);
    if (val_is_compound(&v)) {
      uint8_t *b = xmalloc(v.len);
      memcpy(b, v.u.p, v.len);
      v.u.p = b;
      ptrvec_push(owned, b);
    }
    valarena_fini(&va);
    params[slot] = v;
  }
  out->params = params;
  out->priv = owned;
}

void cg_test_fini(VmTest *t) {
  free((void *)t->specs);
  free((void *)t->bind);
  free((void *)t->link);
  free((void *)t->spec_from);
  free(t->scenario_hit);
  free((void *)t->params);
  PtrVec *owned = t->priv;
  if (owned) {
    for (int i = 0; i < owned->n; i++) free(owned->items[i]);
    ptrvec_fini(owned);
    free(owned);
  }
  memset(t, 0, sizeof *t);
}
