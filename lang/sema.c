/* sema.c: name resolution and type checking.
** Passes: (1) collect top-level names, (2) resolve typedefs, event payloads,
** params and every signature, (3) check machines' structure (states,
** handlers, start states), (4) check every function body, (5) check modules
** and tests.  Every error is reported; checking goes on with TY_ERROR so
** one mistake does not cascade. */
#include <config.h>
#include "lang/sema.h"
#include "lang/modules.h"
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------------- */
/* Symbol tables: open addressing on names, values borrowed from the AST.  */

/* Linear probing; never more than half full (symtab_put doubles first),
** so a probe always ends at an empty slot.  Entries are never removed. */
struct Symtab {
  const char **keys;     /* NULL for an empty slot; borrowed arena strings */
  Ast **vals;            /* the declaration named keys[i] */
  size_t cap;            /* power of two */
  size_t n;              /* used slots */
};

/* FNV-1a of a NUL-terminated name. */
static uint64_t hash_str(const char *s) {
  uint64_t h = 1469598103934665603ull;
  for (; *s; s++) h = (h ^ (unsigned char)*s) * 1099511628211ull;
  return h;
}

/* An empty table of 64 slots (heap; symtab_free). */
static Symtab *symtab_new(void) {
  Symtab *t = xcalloc(1, sizeof *t);
  t->cap = 64;
  t->keys = xcalloc(t->cap, sizeof *t->keys);
  t->vals = xcalloc(t->cap, sizeof *t->vals);
  return t;
}

/* Free t's slots and t (NULL is allowed); the names and nodes are the
** arena's. */
static void symtab_free(Symtab *t) {
  if (!t) return;
  free(t->keys);
  free(t->vals);
  free(t);
}

/* The declaration named k, or NULL. */
static Ast *symtab_get(const Symtab *t, const char *k) {
  size_t i = hash_str(k) & (t->cap - 1);
  while (t->keys[i]) {
    if (strcmp(t->keys[i], k) == 0) return t->vals[i];
    i = (i + 1) & (t->cap - 1);
  }
  return NULL;
}

/* Name k means v from now on (a name already there is rebound: callers
** that must report a redeclaration look it up first).  k is kept, not
** copied. */
static void symtab_put(Symtab *t, const char *k, Ast *v) {
  if (2 * (t->n + 1) > t->cap) {
    Symtab big = { xcalloc(t->cap * 2, sizeof(char *)), xcalloc(t->cap * 2, sizeof(Ast *)), t->cap * 2, 0 };
    for (size_t i = 0; i < t->cap; i++)
      if (t->keys[i]) symtab_put(&big, t->keys[i], t->vals[i]);
    free(t->keys);
    free(t->vals);
    *t = big;
  }
  size_t i = hash_str(k) & (t->cap - 1);
  while (t->keys[i]) {
    if (strcmp(t->keys[i], k) == 0) { t->vals[i] = v; return; }
    i = (i + 1) & (t->cap - 1);
  }
  t->keys[i] = k;
  t->vals[i] = v;
  t->n++;
}

/* The D_PROGRAM root spans nothing (file 0, offset 0): the parser appends
** each file's declarations to it. */
Program *program_new(void) {
  Program *p = xcalloc(1, sizeof *p);
  p->arena = arena_new();
  types_init(&p->types, p->arena);
  p->root = ast_new(p->arena, AST_D_PROGRAM, (Span){0, 0, 0});
  p->globals = symtab_new();
  p->testnames = symtab_new();
  p->modules = symtab_new();
  return p;
}

/* The vectors and tables hold borrowed nodes: freeing the arena last
** frees the tree, its names and its types at once. */
void program_free(Program *p) {
  if (!p) return;
  ptrvec_fini(&p->events);
  ptrvec_fini(&p->machines);
  ptrvec_fini(&p->specs);
  ptrvec_fini(&p->funs);
  ptrvec_fini(&p->tests);
  ptrvec_fini(&p->params);
  ptrvec_fini(&p->explorers);
  ptrvec_fini(&p->ifaces);
  ptrvec_fini(&p->impls);
  symtab_free(p->globals);
  symtab_free(p->testnames);
  symtab_free(p->modules);
  arena_free(p->arena);
  free(p);
}

Ast *sema_global(const Program *p, const char *name) { return symtab_get(p->globals, name); }
Ast *sema_module(const Program *p, const char *name) { return symtab_get(p->modules, name); }

/* The first member of that kind in declaration order: sema reports a
** second of the same name, so there is one in a checked program. */
Ast *sema_machine_member(const Ast *m, const char *name, AstKind kind) {
  for (int i = 0; i < m->list.n; i++) {
    Ast *it = m->list.items[i];
    if (it->kind == kind && it->name && strcmp(it->name, name) == 0) return it;
  }
  return NULL;
}

Ast *sema_start_state(const Ast *m) {
  for (int i = 0; i < m->list.n; i++) {
    Ast *it = m->list.items[i];
    if (it->kind == AST_D_STATE && (it->flags & AF_START)) return it;
  }
  return NULL;
}

/* The entry is an anonymous D_FUN or the name of one (resolved by sema
** into decl; NULL until then or when it does not resolve). */
Ast *sema_entry_fun(const Ast *st) {
  for (int i = 0; i < st->list.n; i++) {
    Ast *it = st->list.items[i];
    if (it->kind == AST_I_ENTRY) return it->k[0]->kind == AST_D_FUN ? it->k[0] : it->k[0]->decl;
  }
  return NULL;
}

/* ---------------------------------------------------------------------- */
/* Checking context.                                                       */

/* The names a body sees before the machine's and the globals: a chain of
** functions, innermost first (a receive case sees its enclosing
** function's params and locals). */
typedef struct Scope {
  struct Scope *parent;  /* enclosing function's scope (receive cases) */
  Ast *fun;              /* the D_FUN whose params and locals these are */
} Scope;

/* One sema_check: the program, where reports go, and where in the program
** the checker is (the owner, the function and its scope, the loops). */
typedef struct Sema {
  Program *p;
  Diag *d;               /* every report goes here (ERR) */
  TypeCtx *tc;           /* &p->types (TS formats with it) */
  Ast *owner;            /* D_MACHINE or D_EXPLORER being checked, or NULL */
  Ast *fun;              /* innermost D_FUN being checked */
  Scope *scope;          /* params and locals visible here */
  int is_exit;           /* D_FUN.op of the function being checked: 1 exit function, 2 function of a
                            goto ... with (neither may raise or goto), 0 otherwise */
  int loops;             /* enclosing loops within the current function */
} Sema;

#define ERR(sp, ...) diag_error(S->d, (sp), __VA_ARGS__)
#define TS(t) type_str(S->tc, (t))

static int is_spec(const Sema *S) { return S->owner && (S->owner->flags & AF_SPEC); }
static int is_explorer(const Sema *S) { return S->owner && S->owner->kind == AST_D_EXPLORER; }

/* What a declaration is, in words for messages ("event", "spec",
** "enum member", ...). */
static const char *decl_what(const Ast *d) {
  switch (d->kind) {
  case AST_D_EVENT: return "event";
  case AST_D_TYPEDEF: return "type";
  case AST_D_ENUM: return "enum";
  case AST_D_ENUMELEM: return "enum member";
  case AST_D_MACHINE: return (d->flags & AF_SCENARIO) ? "scenario" : (d->flags & AF_SPEC) ? "spec" : "machine";
  case AST_D_EXPLORER: return "explorer";
  case AST_D_FUN: return "function";
  case AST_D_MODULE: return "module";
  case AST_D_INTERFACE: return "interface";
  case AST_D_EVENTSET: return "event set";
  case AST_D_IMPL: return "implementation";
  case AST_D_TEST: return "test";
  case AST_D_PARAM: return "param";
  case AST_D_STATE: return "state";
  case AST_D_VAR: return "variable";
  default: return "declaration";
  }
}

/* Report `now` as a redeclaration of `before`: an error at now's name,
** a note at before's. */
static void redeclared(Sema *S, Ast *now, Ast *before) {
  ERR(now->name_span, "redeclaration of %s '%s'", decl_what(now), now->name);
  diag_note(S->d, before->name_span, "previous declaration of '%s' is here", before->name);
}

/* ---------------------------------------------------------------------- */
/* Pass 1: top-level names.                                               */

/* Enter d in the global namespace; a name taken is a redeclaration (the
** first declaration keeps it). */
static void declare_global(Sema *S, Ast *d) {
  Ast *old = symtab_get(S->p->globals, d->name);
  if (old) { redeclared(S, d, old); return; }
  symtab_put(S->p->globals, d->name, d);
}

/* Pass 1: every top-level declaration into its namespace (globals, enum
** members among them; modules; tests with implementations) and into the
** Program's lists, in declaration order; events, interfaces, specs numbered. */
static void collect(Sema *S) {
  Program *p = S->p;
  for (int i = 0; i < p->root->list.n; i++) {
    Ast *d = p->root->list.items[i];
    switch (d->kind) {
    case AST_D_EVENT: declare_global(S, d); ptrvec_push(&p->events, d); d->slot = p->events.n; break;
    case AST_D_TYPEDEF: declare_global(S, d); break;
    case AST_D_MODULE: {
      Ast *old = symtab_get(p->modules, d->name);
      if (old) redeclared(S, d, old);
      else symtab_put(p->modules, d->name, d);
      break;
    }
    case AST_D_ENUM:
      declare_global(S, d);
      for (int j = 0; j < d->list.n; j++) {
        Ast *e = d->list.items[j];
        e->owner = d;
        declare_global(S, e);
      }
      break;
    case AST_D_MACHINE:
      declare_global(S, d);
      ptrvec_push((d->flags & AF_SPEC) ? &p->specs : &p->machines, d);
      /* Every machine declares an interface of its own name (P); a spec's
      ** `iface` is its index among the specs. */
      if (!(d->flags & AF_SPEC)) { d->iface = p->ifaces.n; ptrvec_push(&p->ifaces, d); }
      else d->iface = p->specs.n - 1;
      break;
    case AST_D_INTERFACE: declare_global(S, d); d->iface = p->ifaces.n; ptrvec_push(&p->ifaces, d); break;
    case AST_D_EVENTSET: declare_global(S, d); break;
    case AST_D_IMPL: {
      Ast *old = symtab_get(p->testnames, d->name);
      if (old) redeclared(S, d, old);
      else symtab_put(p->testnames, d->name, d);
      ptrvec_push(&p->impls, d);
      break;
    }
    case AST_D_FUN: declare_global(S, d); ptrvec_push(&p->funs, d); break;
    case AST_D_PARAM: declare_global(S, d); ptrvec_push(&p->params, d); break;
    case AST_D_EXPLORER: declare_global(S, d); ptrvec_push(&p->explorers, d); break;
    case AST_D_TEST: {
      Ast *old = symtab_get(p->testnames, d->name);
      if (old) redeclared(S, d, old);
      else symtab_put(p->testnames, d->name, d);
      ptrvec_push(&p->tests, d);
      break;
    }
    default: break;
    }
  }
}

/* ---------------------------------------------------------------------- */
/* Pass 2: types.                                                         */

static Type *resolve_type(Sema *S, Ast *t);

/* The type typedef d names, resolved once and kept in d->type.  d->slot
** is -2 while it is being resolved: meeting it again is a cycle, reported
** at use, and the typedef is TY_ERROR. */
static Type *resolve_typedef(Sema *S, Ast *d, Span use) {
  if (d->type) return d->type;
  if (d->slot == -2) {
    ERR(use, "type '%s' is defined in terms of itself", d->name);
    d->type = S->tc->t_error;
    return d->type;
  }
  d->slot = -2;   /* in progress */
  Type *t = resolve_type(S, d->k[0]);
  d->slot = -1;
  if (!d->type) d->type = t;
  return d->type;
}

/* The type type syntax t denotes (also kept in t->type); TY_ERROR after
** reporting an undeclared name, a name that is not a type, or a named
** tuple with a field twice. */
static Type *resolve_type(Sema *S, Ast *t) {
  TypeCtx *tc = S->tc;
  Type *r = tc->t_error;
  switch (t->kind) {
  case AST_T_PRIM:
    switch ((Prim)t->op) {
    case PRIM_INT: r = tc->t_int; break;
    case PRIM_BOOL: r = tc->t_bool; break;
    case PRIM_FLOAT: r = tc->t_float; break;
    case PRIM_STRING: r = tc->t_string; break;
    case PRIM_EVENT: r = tc->t_event; break;
    case PRIM_MACHINE: r = tc->t_machine; break;
    case PRIM_ANY: r = tc->t_any; break;
    case PRIM_DATA: r = tc->t_data; break;
    }
    break;
  case AST_T_NAMED: {
    Ast *d = symtab_get(S->p->globals, t->name);
    if (!d) { ERR(t->name_span, "undeclared type '%s'", t->name); break; }
    t->decl = d;
    if (d->kind == AST_D_TYPEDEF) r = resolve_typedef(S, d, t->name_span);
    else if (d->kind == AST_D_ENUM) {
      if (!d->type) { d->type = type_new(tc, TY_ENUM, 0); d->type->decl = d; }
      r = d->type;
    } else if ((d->kind == AST_D_MACHINE && !(d->flags & AF_SPEC)) || d->kind == AST_D_INTERFACE ||
               d->kind == AST_D_EVENTSET) r = type_mname(tc, d);   /* P's permission types */
    else ERR(t->name_span, "'%s' is a %s, not a type", t->name, decl_what(d));
    break;
  }
  case AST_T_SEQ: r = type_seq(tc, resolve_type(S, t->k[0])); break;
  case AST_T_SET: r = type_set(tc, resolve_type(S, t->k[0])); break;
  case AST_T_MAP: r = type_map(tc, resolve_type(S, t->k[0]), resolve_type(S, t->k[1])); break;
  case AST_T_TUPLE:
    r = type_new(tc, TY_TUPLE, t->list.n);
    for (int i = 0; i < t->list.n; i++) r->elems[i] = resolve_type(S, t->list.items[i]);
    break;
  case AST_T_NTUPLE:
    r = type_new(tc, TY_NTUPLE, t->list.n);
    r->names = arena_alloc(tc->arena, (size_t)t->list.n * sizeof(char *));
    for (int i = 0; i < t->list.n; i++) {
      Ast *f = t->list.items[i];
      for (int j = 0; j < i; j++)
        if (strcmp(t->list.items[j]->name, f->name) == 0) {
          ERR(f->name_span, "duplicate field '%s' in named tuple type", f->name);
          break;
        }
      r->names[i] = f->name;
      r->elems[i] = resolve_type(S, f->k[0]);
      f->type = r->elems[i];
    }
    break;
  default:
    break;
  }
  t->type = r;
  return r;
}

/* Function f's signature: its params' kinds, slots (0, 1, ...) and types,
** a param name twice reported, and its return type (void without one). */
static void resolve_fun_sig(Sema *S, Ast *f, Ast *owner, int vkind_params) {
  f->owner = owner;
  for (int i = 0; i < f->list.n; i++) {
    Ast *p = f->list.items[i];
    p->vkind = vkind_params;
    p->slot = i;
    p->owner = owner;
    p->type = resolve_type(S, p->k[0]);
    for (int j = 0; j < i; j++)
      if (strcmp(f->list.items[j]->name, p->name) == 0) { redeclared(S, p, f->list.items[j]); break; }
  }
  f->type = f->k[0] ? resolve_type(S, f->k[0]) : S->tc->t_void;
}

/* The payload type of an event declaration (null when it has none). */
static Type *event_payload(Sema *S, const Ast *ev) {
  if (ev->kind == AST_E_HALT) return S->tc->t_null;
  return ev->k[0] ? ev->k[0]->type : S->tc->t_null;
}

static void resolve_events(Sema *S, AstList *events, int allow_null);

/* A permission set (P): one flag per event id, halt first.  `events` NULL
** gives the universal set (every event and halt), as a machine without a
** receives clause has. */
static uint8_t *perm_set(Sema *S, const AstList *events) {
  uint8_t *f = arena_alloc(S->p->arena, (size_t)S->p->nperm);
  memset(f, events ? 0 : 1, (size_t)S->p->nperm);
  for (int i = 0; events && i < events->n; i++) {
    const Ast *ev = events->items[i];
    if (ev->kind == AST_E_HALT) f[0] = 1;
    else if (ev->decl) f[ev->decl->slot] = 1;
  }
  return f;
}

/* Interfaces, event sets and machines' receives/sends clauses: their events
** and permission sets. */
static void resolve_permissions(Sema *S) {
  Program *p = S->p;
  p->nperm = p->events.n + 1;
  S->tc->nperm = p->nperm;
  for (int i = 0; i < p->root->list.n; i++) {
    Ast *d = p->root->list.items[i];
    switch (d->kind) {
    case AST_D_INTERFACE:
      if (d->k[0]) resolve_type(S, d->k[0]);
      resolve_events(S, &d->list, 0);
      d->perm = perm_set(S, &d->list);
      break;
    case AST_D_EVENTSET:
      resolve_events(S, &d->list, 0);
      d->perm = perm_set(S, &d->list);
      break;
    case AST_D_MACHINE:
      if (d->flags & AF_SPEC) break;
      if (d->k[0]) { resolve_events(S, &d->k[0]->list, 0); resolve_events(S, &d->k[0]->list2, 0); }
      d->perm = perm_set(S, d->k[0] && (d->k[0]->op & 1) ? &d->k[0]->list : NULL);
      break;
    default: break;
    }
  }
}

/* Pass 2: permissions first (type_mname needs their size), then in
** declaration order typedefs, event payloads, params, enums (a member
** without a value gets its position; numbering only some is an error),
** function signatures, machines' and explorers' variables and members. */
static void resolve_signatures(Sema *S) {
  Program *p = S->p;
  resolve_permissions(S);
  for (int i = 0; i < p->root->list.n; i++) {
    Ast *d = p->root->list.items[i];
    switch (d->kind) {
    case AST_D_TYPEDEF: resolve_typedef(S, d, d->name_span); break;
    case AST_D_EVENT: if (d->k[0]) resolve_type(S, d->k[0]); break;
    case AST_D_PARAM: d->type = resolve_type(S, d->k[0]); d->vkind = VK_GLOBALPARAM; break;
    case AST_D_ENUM: {
      if (!d->type) { d->type = type_new(S->tc, TY_ENUM, 0); d->type->decl = d; }
      int numbered = 0;
      for (int j = 0; j < d->list.n; j++) {
        Ast *e = d->list.items[j];
        e->type = d->type;
        if (e->flags & AF_VALUE) numbered++;
        else e->ival = j;
      }
      if (numbered && numbered != d->list.n)
        ERR(d->name_span, "enum '%s' numbers some of its members but not all", d->name);
      break;
    }
    case AST_D_FUN: resolve_fun_sig(S, d, NULL, VK_PARAM); break;
    case AST_D_MACHINE: case AST_D_EXPLORER: {
      int nvars = 0;
      int vk = d->kind == AST_D_EXPLORER ? VK_EXPLORER : VK_MACHINE;
      for (int j = 0; j < d->list.n; j++) {
        Ast *it = d->list.items[j];
        it->owner = d;
        if (it->kind == AST_D_VAR) {
          it->vkind = vk;
          it->slot = nvars++;
          it->type = resolve_type(S, it->k[0]);
        } else if (it->kind == AST_D_FUN) {
          resolve_fun_sig(S, it, d, VK_PARAM);
        }
        /* Members have one namespace per kind, as in P: vars, functions and
        ** states (a var and a function may share a name: lookup_value and
        ** lookup_fun tell them apart). */
        if (it->kind == AST_D_VAR || it->kind == AST_D_FUN || it->kind == AST_D_STATE) {
          for (int k = 0; k < j; k++) {
            Ast *o = d->list.items[k];
            if (o->name && o->kind == it->kind && strcmp(o->name, it->name) == 0) {
              redeclared(S, it, o);
              break;
            }
          }
        }
      }
      break;
    }
    default: break;
    }
  }
}

/* ---------------------------------------------------------------------- */
/* Names in bodies.                                                        */

/* A param or declared local of f named name, or NULL. */
static Ast *find_local(const Ast *f, const char *name) {
  for (int i = 0; i < f->list.n; i++)
    if (strcmp(f->list.items[i]->name, name) == 0) return f->list.items[i];
  Ast *body = f->k[1];
  if (body)
    for (int i = 0; i < body->list2.n; i++)
      if (strcmp(body->list2.items[i]->name, name) == 0) return body->list2.items[i];
  return NULL;
}

/* A variable, enum member, event or param visible here, or NULL. */
static Ast *lookup_value(Sema *S, const char *name) {
  for (Scope *sc = S->scope; sc; sc = sc->parent) {
    Ast *v = find_local(sc->fun, name);
    if (v) return v;
  }
  if (S->owner) {
    Ast *v = sema_machine_member(S->owner, name, AST_D_VAR);
    if (v) return v;
  }
  return symtab_get(S->p->globals, name);
}

/* The function a call names: the owner's own function, else the global
** declaration of that name (which the caller checks is a function). */
static Ast *lookup_fun(Sema *S, const char *name) {
  if (S->owner) {
    Ast *f = sema_machine_member(S->owner, name, AST_D_FUN);
    if (f) return f;
  }
  Ast *g = symtab_get(S->p->globals, name);
  return g;
}

/* ---------------------------------------------------------------------- */
/* Expressions.                                                            */

static Type *check_expr(Sema *S, Ast *e);

/* An expression whose value is used: a call to a function without a
** return type is an error here. */
static Type *check_value(Sema *S, Ast *e) {
  Type *t = check_expr(S, e);
  if (t->kind == TY_VOID) {
    ERR(e->span, "'%s' does not return a value", e->name ? e->name : "expression");
    e->type = t = S->tc->t_error;
  }
  return t;
}

/* Check e as a value that `what` (for the message: "a loop condition")
** needs to be of type want. */
static void expect_type(Sema *S, Ast *e, Type *want, const char *what) {
  Type *t = check_value(S, e);
  if (!type_assignable(want, t))
    ERR(e->span, "%s must be '%s', not '%s'", what, TS(want), TS(t));
}

/* The payload type of a list of payload expressions (null, one, or a tuple). */
static Type *payload_type(Sema *S, AstList *args) {
  if (args->n == 0) return S->tc->t_null;
  if (args->n == 1) return check_value(S, args->items[0]);
  Type *t = type_new(S->tc, TY_TUPLE, args->n);
  for (int i = 0; i < args->n; i++) t->elems[i] = check_value(S, args->items[i]);
  return t;
}

/* Check a payload against the type its receiver expects (NULL: unknown). */
static void check_payload(Sema *S, Span sp, Type *want, AstList *args, const char *what, const char *name) {
  Type *got = payload_type(S, args);
  if (!want || type_assignable(want, got)) return;
  if (got->kind == TY_NULL)
    ERR(sp, "missing payload: %s '%s' expects a payload of type '%s'", what, name, TS(want));
  else if (want->kind == TY_NULL)
    ERR(args->items[0]->span, "%s '%s' takes no payload, but one of type '%s' is given", what, name, TS(got));
  else
    ERR(args->items[0]->span, "payload of type '%s' does not match %s '%s', which expects '%s'",
        TS(got), what, name, TS(want));
}

/* The entry parameter type of a state: null type when the entry takes none. */
static Type *entry_param(Sema *S, const Ast *st) {
  Ast *f = sema_entry_fun(st);
  if (!f || f->list.n == 0) return S->tc->t_null;
  return f->list.items[0]->type ? f->list.items[0]->type : S->tc->t_error;
}

/* An expression naming an event; returns the event declaration when it is
** a constant (a declared event or halt), NULL otherwise. */
static Ast *check_event_expr(Sema *S, Ast *e) {
  if (e->kind == AST_E_NULL) {
    ERR(e->span, "the null event cannot be sent, raised or announced");
    e->type = S->tc->t_error;
    return NULL;
  }
  if (e->kind == AST_E_NAME && !lookup_value(S, e->name)) {
    ERR(e->name_span, "undeclared event '%s'", e->name);
    e->type = S->tc->t_error;
    return NULL;
  }
  Type *t = check_value(S, e);
  if (t->kind != TY_EVENT && t->kind != TY_ERROR && t->kind != TY_NULL) {
    ERR(e->span, "expected an event, found a value of type '%s'", TS(t));
    return NULL;
  }
  if (e->kind == AST_E_HALT) return e;
  if (e->kind == AST_E_NAME && e->decl && e->decl->kind == AST_D_EVENT) return e->decl;
  return NULL;
}

/* P's reading of a string literal (its PrintStmtNumArgs, which P applies to
** every string literal, not only to format's): the number of arguments it
** takes, the largest placeholder {N} plus one (0 without placeholders), or
** -1 after reporting a malformed one.  `{{` and `}}` are escaped braces; a
** `{` not closed by digits and `}`, or a lone `}`, is an error. */
static int64_t format_arity(Sema *S, const Ast *lit) {
  const char *s = lit->sval;
  int64_t len = lit->ival, need = 0;
  for (int64_t i = 0; i < len; i++) {
    if ((s[i] == '{' || s[i] == '}') && i + 1 < len && s[i + 1] == s[i]) { i++; continue; }
    int64_t j = i + 1, n = 0;
    if (s[i] == '{')
      while (j < len && s[j] >= '0' && s[j] <= '9' && n < 100000000) n = n * 10 + (s[j++] - '0');
    if (s[i] == '}' || (s[i] == '{' && (j == i + 1 || j >= len || s[j] != '}'))) {
      ERR(lit->span, "string format placeholders must contain only digits; escape braces by doubling them");
      return -1;
    }
    if (s[i] == '{') {
      if (n + 1 > need) need = n + 1;
      i = j;
    }
  }
  return need;
}

/* format(lit, args): as P, the literal takes exactly its largest
** placeholder plus one arguments. */
static void check_format_args(Sema *S, Ast *call, Ast *fmt, int nargs) {
  int64_t need = format_arity(S, fmt);
  if (need < 0 || need == nargs) return;
  if (need > nargs)
    ERR(fmt->span, "format string has placeholder {%lld} but %d argument%s given", (long long)need - 1, nargs,
        nargs == 1 ? " is" : "s are");
  else
    ERR(call->list.items[need]->span, "format argument %lld is not used: the largest placeholder is {%lld}",
        (long long)need, (long long)need - 1);
}

/* A call f(args): the arguments first, then f a function (e->decl)
** taking that many arguments of its param types.  The result is f's
** return type (void without one, which check_value rejects). */
static Type *check_call(Sema *S, Ast *e) {
  Ast *f = lookup_fun(S, e->name);
  for (int i = 0; i < e->list.n; i++) check_value(S, e->list.items[i]);
  if (!f) { ERR(e->name_span, "undeclared function '%s'", e->name); return S->tc->t_error; }
  if (f->kind != AST_D_FUN) {
    ERR(e->name_span, "'%s' is a %s, not a function", e->name, decl_what(f));
    return S->tc->t_error;
  }
  e->decl = f;
  if (e->list.n != f->list.n) {
    ERR(e->span, "function '%s' takes %d argument%s, but %d %s given", e->name, f->list.n,
        f->list.n == 1 ? "" : "s", e->list.n, e->list.n == 1 ? "is" : "are");
  } else {
    for (int i = 0; i < e->list.n; i++) {
      Ast *a = e->list.items[i];
      Type *want = f->list.items[i]->type;
      if (!type_assignable(want, a->type))
        ERR(a->span, "argument %d of '%s' must be '%s', not '%s'", i + 1, e->name, TS(want), TS(a->type));
    }
  }
  return f->type ? f->type : S->tc->t_error;
}

/* `new X(p)`: X a machine or interface (not a spec), p the payload its
** start entry or declaration takes; not in a spec or an explorer.  The
** result is X's permission type. */
static Type *check_new(Sema *S, Ast *e) {
  if (is_spec(S)) ERR(e->span, "a spec cannot create machines ('new' in spec '%s')", S->owner->name);
  else if (is_explorer(S)) ERR(e->span, "an explorer cannot create machines");
  /* `new X(...)` creates interface X: a machine's own interface or a
  ** declared one; the test's module binds it to a machine (lang/modules.c). */
  Ast *m = symtab_get(S->p->globals, e->name);
  if (!m || (m->kind != AST_D_MACHINE && m->kind != AST_D_INTERFACE)) {
    for (int i = 0; i < e->list.n; i++) check_value(S, e->list.items[i]);
    if (!m) ERR(e->name_span, "undeclared machine or interface '%s'", e->name);
    else ERR(e->name_span, "'%s' is a %s, not a machine or an interface", e->name, decl_what(m));
    return S->tc->t_error;
  }
  if (m->flags & AF_SPEC) {
    ERR(e->name_span, "'%s' is a spec; specs are not created with 'new'", e->name);
    return S->tc->t_error;
  }
  e->decl = m;
  if (m->kind == AST_D_INTERFACE) {
    Type *want = m->k[0] ? m->k[0]->type : NULL;
    check_payload(S, e->span, want, &e->list, "interface", e->name);
  } else {
    Ast *st = sema_start_state(m);
    check_payload(S, e->span, st ? entry_param(S, st) : NULL, &e->list, "the start state of machine", e->name);
  }
  return type_mname(S->tc, m);
}

/* `a op b`: both operands first, then op's rule (arithmetic on two ints
** or two floats, + on strings, ordering, ==, && and ||, `in`).  With an
** ill-typed operand nothing is reported: arithmetic gives the other
** operand's type, the rest bool. */
static Type *check_binary(Sema *S, Ast *e) {
  TypeCtx *tc = S->tc;
  Type *a = check_value(S, e->k[0]);
  Type *b = check_value(S, e->k[1]);
  static const char *const opname[] = { "*", "/", "%", "+", "-", "<", ">", "<=", ">=", "in", "==", "!=", "&&", "||" };
  const char *op = opname[e->op];
  if (a->kind == TY_ERROR || b->kind == TY_ERROR) {
    switch ((BinOp)e->op) {
    case BIN_MUL: case BIN_DIV: case BIN_MOD: case BIN_ADD: case BIN_SUB:
      return a->kind == TY_ERROR ? b : a;
    default: return tc->t_bool;
    }
  }
  switch ((BinOp)e->op) {
  case BIN_MUL: case BIN_DIV: case BIN_MOD: case BIN_ADD: case BIN_SUB:
    if (a->kind == TY_INT && b->kind == TY_INT) return tc->t_int;
    if (a->kind == TY_FLOAT && b->kind == TY_FLOAT) return tc->t_float;   /* % is fmod, as P (C# double %) */
    if (e->op == BIN_ADD && a->kind == TY_STRING && b->kind == TY_STRING) return tc->t_string;
    break;
  case BIN_LT: case BIN_GT: case BIN_LE: case BIN_GE:
    if ((a->kind == TY_INT && b->kind == TY_INT) || (a->kind == TY_FLOAT && b->kind == TY_FLOAT) ||
        (a->kind == TY_STRING && b->kind == TY_STRING))
      return tc->t_bool;
    break;
  case BIN_EQ: case BIN_NE:
    if (type_comparable(a, b)) return tc->t_bool;
    break;
  case BIN_AND: case BIN_OR:
    if (a->kind == TY_BOOL && b->kind == TY_BOOL) return tc->t_bool;
    break;
  case BIN_IN: {
    Type *el = type_elem(b);
    if (!el) {
      ERR(e->k[1]->span, "right operand of 'in' must be a seq, set or map, not '%s'", TS(b));
      return tc->t_bool;
    }
    if (!type_comparable(el, a))
      ERR(e->k[0]->span, "'%s' cannot be an element of '%s'", TS(a), TS(b));
    return tc->t_bool;
  }
  }
  ERR(e->span, "invalid operands to '%s' ('%s' and '%s')", op, TS(a), TS(b));
  return tc->t_error;
}

/* A string literal outside format(): P formats every literal, so one with
** a placeholder is an error (it would need format's arguments). */
static Type *check_expr_string(Sema *S, Ast *e) {
  int64_t need = format_arity(S, e);
  if (need > 0) ERR(e->span, "string literal has placeholder {%lld}: write format(\"...\", ...) to give it a value",
                    (long long)need - 1);
  return S->tc->t_string;
}

/* `this`: the enclosing machine's own interface; an error in a spec, an
** explorer or a global function. */
static Type *check_expr_this(Sema *S, Ast *e) {
  TypeCtx *tc = S->tc;
  if (is_spec(S)) { ERR(e->span, "a spec cannot use 'this' (spec '%s')", S->owner->name); return tc->t_error; }
  if (is_explorer(S)) { ERR(e->span, "an explorer cannot use 'this'"); return tc->t_error; }
  if (S->owner) return type_mname(tc, S->owner);
  ERR(e->span, "'this' is used outside a machine (in a global function)");
  return tc->t_error;
}

/* `$` and `$$`: a bool; a spec cannot choose. */
static Type *check_expr_nondet(Sema *S, Ast *e) {
  if (is_spec(S)) ERR(e->span, "a spec cannot make nondeterministic choices (spec '%s')", S->owner->name);
  return S->tc->t_bool;
}

/* A name used as a value: a variable, enum member, event or param
** (e->decl is set to it); anything else is an error. */
static Type *check_expr_name(Sema *S, Ast *e) {
  TypeCtx *tc = S->tc;
  Ast *d = lookup_value(S, e->name);
  if (!d) { ERR(e->name_span, "undeclared variable '%s'", e->name); return tc->t_error; }
  e->decl = d;
  switch (d->kind) {
  case AST_D_VAR: return d->type ? d->type : tc->t_error;
  case AST_D_ENUMELEM: return d->type ? d->type : tc->t_error;
  case AST_D_EVENT: return tc->t_event;
  case AST_D_PARAM: return d->type ? d->type : tc->t_error;
  default:
    ERR(e->name_span, "'%s' is a %s, not a value", e->name, decl_what(d));
    return tc->t_error;
  }
}

/* `(a, b, ...)`: the tuple of its elements' types. */
static Type *check_expr_tuple(Sema *S, Ast *e) {
  Type *t = type_new(S->tc, TY_TUPLE, e->list.n);
  for (int i = 0; i < e->list.n; i++) t->elems[i] = check_value(S, e->list.items[i]);
  return t;
}

/* `(f = a, g = b, ...)`: the named tuple of its fields, each field's
** E_FIELDINIT typed too; a field named twice is an error. */
static Type *check_expr_ntuple(Sema *S, Ast *e) {
  TypeCtx *tc = S->tc;
  Type *t = type_new(tc, TY_NTUPLE, e->list.n);
  t->names = arena_alloc(tc->arena, (size_t)e->list.n * sizeof(char *));
  for (int i = 0; i < e->list.n; i++) {
    Ast *f = e->list.items[i];
    for (int j = 0; j < i; j++)
      if (strcmp(e->list.items[j]->name, f->name) == 0) {
        ERR(f->name_span, "duplicate field '%s' in named tuple", f->name);
        break;
      }
    t->names[i] = f->name;
    t->elems[i] = f->type = check_value(S, f->k[0]);
  }
  return t;
}

/* `x.f`: x a named tuple with a field f, whose position goes to e->slot. */
static Type *check_expr_field(Sema *S, Ast *e) {
  TypeCtx *tc = S->tc;
  Type *t = check_value(S, e->k[0]);
  if (t->kind == TY_ERROR) return t;
  if (t->kind != TY_NTUPLE) {
    ERR(e->name_span, "field '%s' of a value of type '%s', which is not a named tuple", e->name, TS(t));
    return tc->t_error;
  }
  for (int i = 0; i < t->n; i++)
    if (strcmp(t->names[i], e->name) == 0) { e->slot = i; return t->elems[i]; }
  ERR(e->name_span, "no field '%s' in '%s'", e->name, TS(t));
  return tc->t_error;
}

/* `x.N`: x a tuple (named or not) with more than N elements; N goes to
** e->slot. */
static Type *check_expr_tfield(Sema *S, Ast *e) {
  TypeCtx *tc = S->tc;
  Type *t = check_value(S, e->k[0]);
  if (t->kind == TY_ERROR) return t;
  if (t->kind != TY_TUPLE && t->kind != TY_NTUPLE) {
    ERR(e->name_span, "element %lld of a value of type '%s', which is not a tuple", (long long)e->ival, TS(t));
    return tc->t_error;
  }
  if (e->ival >= t->n) {
    ERR(e->name_span, "element %lld of '%s', which has %d element%s", (long long)e->ival, TS(t), t->n,
        t->n == 1 ? "" : "s");
    return tc->t_error;
  }
  e->slot = (int)e->ival;
  return t->elems[e->ival];
}

/* `c[i]`: a seq or a set by an int position, a map by a key of its key
** type; the element (or value) type. */
static Type *check_expr_index(Sema *S, Ast *e) {
  TypeCtx *tc = S->tc;
  Type *t = check_value(S, e->k[0]);
  Type *i = check_value(S, e->k[1]);
  if (t->kind == TY_ERROR) return t;
  if (t->kind == TY_SEQ) {
    if (!type_assignable(tc->t_int, i)) ERR(e->k[1]->span, "a seq index must be 'int', not '%s'", TS(i));
    return t->elems[0];
  }
  if (t->kind == TY_MAP) {
    if (!type_assignable(t->elems[0], i))
      ERR(e->k[1]->span, "a key of '%s' must be '%s', not '%s'", TS(t), TS(t->elems[0]), TS(i));
    return t->elems[1];
  }
  if (t->kind == TY_SET) {
    /* P reads the i-th element of a set; the order is the canonical order
    ** of set elements (vm/value.c), a function of the set's value. */
    if (!type_assignable(tc->t_int, i)) ERR(e->k[1]->span, "a set index must be 'int', not '%s'", TS(i));
    return t->elems[0];
  }
  ERR(e->span, "cannot index a value of type '%s'", TS(t));
  return tc->t_error;
}

/* `keys(m)` and `values(m)`: m a map; a seq of its keys or values. */
static Type *check_expr_keys(Sema *S, Ast *e) {
  Type *t = check_value(S, e->k[0]);
  if (t->kind == TY_ERROR) return t;
  if (t->kind != TY_MAP) {
    ERR(e->k[0]->span, "%s() needs a map, not '%s'", e->kind == AST_E_KEYS ? "keys" : "values", TS(t));
    return S->tc->t_error;
  }
  return type_seq(S->tc, t->elems[e->kind == AST_E_KEYS ? 0 : 1]);
}

/* `sizeof(c)`: an int; c a seq, set or map (not a string, as P). */
static Type *check_expr_sizeof(Sema *S, Ast *e) {
  Type *t = check_value(S, e->k[0]);
  if (t->kind != TY_ERROR && !type_elem(t))   /* P: not of a string */
    ERR(e->k[0]->span, "sizeof() needs a seq, set or map, not '%s'", TS(t));
  return S->tc->t_int;
}

/* `-x` of an int or float, `!x` of a bool: the operand's type. */
static Type *check_expr_unary(Sema *S, Ast *e) {
  Type *t = check_value(S, e->k[0]);
  if (t->kind == TY_ERROR) return t;
  if (e->op == '-' && (t->kind == TY_INT || t->kind == TY_FLOAT)) return t;
  if (e->op == '!' && t->kind == TY_BOOL) return t;
  ERR(e->span, "invalid operand to unary '%c' ('%s')", e->op, TS(t));
  return S->tc->t_error;
}

/* `x as T` (a cast type_castable allows) and `x to T` (a conversion to an
** interface, int or float that type_convertible allows): T, even after an
** error. */
static Type *check_expr_cast(Sema *S, Ast *e) {
  Type *from = check_value(S, e->k[0]);
  Type *to = resolve_type(S, e->k[1]);
  if (e->op == 0 && !type_castable(to, from))
    ERR(e->span, "cannot cast a value of type '%s' to '%s'", TS(from), TS(to));
  else if (e->op == 1 && to->kind != TY_INT && to->kind != TY_FLOAT && to->kind != TY_MNAME && to->kind != TY_ERROR)
    ERR(e->k[1]->span, "'to' converts to an interface, int or float, not to '%s'", TS(to));
  else if (e->op == 1 && to->kind == TY_MNAME && from->kind == TY_MNAME && !type_convertible(to, from))
    ERR(e->span, "cannot convert '%s' to '%s' with 'to': the permissions of '%s' are not a superset of those "
        "of '%s'", TS(from), TS(to), TS(from), TS(to));
  else if (e->op == 1 && !type_convertible(to, from))
    ERR(e->span, "cannot convert a value of type '%s' to '%s' with 'to'", TS(from), TS(to));
  return to;
}

/* `choose()` (a bool), `choose(n)` (an int below n, n at most 10000 when a
** literal), `choose(c)` (an element of a seq, set or map); not in a spec. */
static Type *check_expr_choose(Sema *S, Ast *e) {
  TypeCtx *tc = S->tc;
  if (is_spec(S)) ERR(e->span, "a spec cannot make nondeterministic choices (spec '%s')", S->owner->name);
  if (!e->k[0]) return tc->t_bool;
  Type *t = check_value(S, e->k[0]);
  if (t->kind == TY_ERROR) return t;
  if (t->kind == TY_INT) {
    if (e->k[0]->kind == AST_E_INT && e->k[0]->ival > 10000)
      ERR(e->k[0]->span, "choose(%lld): choose takes at most 10000 choices", (long long)e->k[0]->ival);
    return tc->t_int;
  }
  if (type_elem(t)) return type_elem(t);
  ERR(e->k[0]->span, "choose() needs an int, a seq, a set or a map, not '%s'", TS(t));
  return tc->t_error;
}

/* `format(lit, args)`: a string; the arguments first, then their number
** against the literal's placeholders (check_format_args). */
static Type *check_expr_format(Sema *S, Ast *e) {
  for (int i = 0; i < e->list.n; i++) check_value(S, e->list.items[i]);
  check_format_args(S, e, e->k[0], e->list.n);
  e->k[0]->type = S->tc->t_string;
  return S->tc->t_string;
}

/* The type of expression e (check_expr records it in e->type); each kind
** has a checker of its own.  An ill-typed e is TY_ERROR, compatible with
** every type (lang/types.h), so the expressions around it report nothing more. */
static Type *check_expr_inner(Sema *S, Ast *e) {
  TypeCtx *tc = S->tc;
  switch (e->kind) {
  case AST_E_INT: return tc->t_int;
  case AST_E_FLOAT: return tc->t_float;
  case AST_E_BOOL: return tc->t_bool;
  case AST_E_STRING: return check_expr_string(S, e);
  case AST_E_NULL: return tc->t_null;
  case AST_E_HALT: return tc->t_event;
  case AST_E_THIS: return check_expr_this(S, e);
  case AST_E_NONDET: return check_expr_nondet(S, e);
  case AST_E_NAME: return check_expr_name(S, e);
  case AST_E_TUPLE: return check_expr_tuple(S, e);
  case AST_E_NTUPLE: return check_expr_ntuple(S, e);
  case AST_E_FIELD: return check_expr_field(S, e);
  case AST_E_TFIELD: return check_expr_tfield(S, e);
  case AST_E_INDEX: return check_expr_index(S, e);
  case AST_E_KEYS: case AST_E_VALUES: return check_expr_keys(S, e);
  case AST_E_SIZEOF: return check_expr_sizeof(S, e);
  case AST_E_DEFAULT: return resolve_type(S, e->k[0]);
  case AST_E_NEW: return check_new(S, e);
  case AST_E_CALL: return check_call(S, e);
  case AST_E_UNARY: return check_expr_unary(S, e);
  case AST_E_BINARY: return check_binary(S, e);
  case AST_E_CAST: return check_expr_cast(S, e);
  case AST_E_CHOOSE: return check_expr_choose(S, e);
  case AST_E_FORMAT: return check_expr_format(S, e);
  default:
    ERR(e->span, "unexpected %s in an expression", ast_kind_name(e->kind));
    return tc->t_error;
  }
}

/* The type of e, recorded in e->type (check_expr_inner does the work). */
static Type *check_expr(Sema *S, Ast *e) {
  Type *t = check_expr_inner(S, e);
  e->type = t;
  return t;
}

/* ---------------------------------------------------------------------- */
/* Statements.                                                            */

/* The type of a location assigned to: a variable (not a global param,
** enum member or event), or a field, element or entry of one; never a
** set's element.  TY_ERROR after an error. */
static Type *check_lvalue(Sema *S, Ast *e) {
  if (e->kind == AST_E_NAME) {
    Ast *d = lookup_value(S, e->name);
    if (!d) { ERR(e->name_span, "undeclared variable '%s'", e->name); e->type = S->tc->t_error; return e->type; }
    e->decl = d;
    if (d->kind != AST_D_VAR) {
      ERR(e->name_span, "cannot assign to %s '%s'", decl_what(d), e->name);
      e->type = S->tc->t_error;
      return e->type;
    }
    e->type = d->type ? d->type : S->tc->t_error;
    return e->type;
  }
  if (e->kind == AST_E_FIELD || e->kind == AST_E_TFIELD || e->kind == AST_E_INDEX) {
    /* The base is itself an lvalue; check_expr would resolve it the same way
    ** but allow non-variables, so check the base first. */
    Ast *base = e;
    while (base->kind != AST_E_NAME) base = base->k[0];
    if (check_lvalue(S, base)->kind == TY_ERROR && !base->decl) { e->type = S->tc->t_error; return e->type; }
    Type *t = check_expr(S, e);
    /* Sets are indexable for reading only. */
    for (Ast *x = e; x->kind != AST_E_NAME; x = x->k[0])
      if (x->kind == AST_E_INDEX && x->k[0]->type && x->k[0]->type->kind == TY_SET) {
        ERR(x->span, "cannot assign to an element of a set (sets are indexable for reading only)");
        return S->tc->t_error;
      }
    return t;
  }
  return check_expr(S, e);
}

static void check_fun(Sema *S, Ast *f);
static void check_stmt(Sema *S, Ast *s);

/* Check a handler (D_FUN, anonymous or named) for the events in `events`:
** its parameter must accept each event's payload. */
static void check_handler_payload(Sema *S, Ast *h, AstList *events, Span where) {
  Ast *f = h->kind == AST_D_FUN ? h : h->decl;
  if (!f || f->kind != AST_D_FUN) return;
  if (f->list.n > 1) {
    ERR(h->kind == AST_D_FUN ? f->list.items[1]->name_span : h->span,
        "an event handler takes at most one parameter, '%s' takes %d", f->name ? f->name : "handler", f->list.n);
    return;
  }
  if (f->list.n == 0) return;
  Ast *p = f->list.items[0];
  for (int i = 0; i < events->n; i++) {
    Ast *ev = events->items[i];
    Ast *d = ev->kind == AST_E_HALT ? ev : ev->decl;
    if (!d || (d->kind != AST_D_EVENT && d->kind != AST_E_HALT)) continue;
    Type *pt = event_payload(S, d);
    if (!type_assignable(p->type, pt)) {
      Span sp = h->kind == AST_D_FUN ? p->span : where;
      if (pt->kind == TY_NULL)
        ERR(sp, "event '%s' carries no payload, but its handler takes a parameter of type '%s'",
            ev->kind == AST_E_HALT ? "halt" : ev->name, TS(p->type));
      else
        ERR(sp, "handler parameter of type '%s' does not accept the payload of event '%s' ('%s')",
            TS(p->type), ev->kind == AST_E_HALT ? "halt" : ev->name, TS(pt));
    }
  }
}

/* Resolve the events of an event list (declared events, halt, null). */
static void resolve_events(Sema *S, AstList *events, int allow_null) {
  for (int i = 0; i < events->n; i++) {
    Ast *ev = events->items[i];
    if (ev->kind == AST_E_HALT) continue;
    if (ev->flags & AF_NULLEV) {
      if (!allow_null) ERR(ev->span, "'null' is not an event here (specs, defer and ignore cannot name it)");
      continue;
    }
    Ast *d = symtab_get(S->p->globals, ev->name);
    if (!d) ERR(ev->name_span, "undeclared event '%s'", ev->name);
    else if (d->kind != AST_D_EVENT) ERR(ev->name_span, "'%s' is a %s, not an event", ev->name, decl_what(d));
    else ev->decl = d;
  }
}

/* Check an anonymous handler nested in the current function (receive case). */
static void check_nested_handler(Sema *S, Ast *f) {
  Scope sc = { S->scope, f };
  Ast *saved_fun = S->fun;
  Scope *saved_scope = S->scope;
  int saved_loops = S->loops;
  S->scope = &sc;
  S->fun = f;
  S->loops = 0;
  f->owner = S->owner;
  for (int i = 0; i < f->list.n; i++) {
    Ast *p = f->list.items[i];
    p->vkind = VK_PARAM;
    p->slot = i;
    p->type = resolve_type(S, p->k[0]);
  }
  f->type = S->tc->t_void;
  Ast *body = f->k[1];
  for (int i = 0; i < body->list2.n; i++) {
    Ast *v = body->list2.items[i];
    v->vkind = VK_LOCAL;
    v->type = resolve_type(S, v->k[0]);
  }
  for (int i = 0; i < body->list.n; i++) check_stmt(S, body->list.items[i]);
  S->fun = saved_fun;
  S->scope = saved_scope;
  S->loops = saved_loops;
}

/* P's warnings on a scenario: it is covered when it enters a cold state
** after its start, so it needs one, and a cold start state proves nothing. */
static void scenario_warnings(Sema *S, const Ast *m, const Ast *start) {
  int cold = 0;
  for (int i = 0; i < m->list.n; i++) {
    const Ast *st = m->list.items[i];
    if (st->kind == AST_D_STATE && (st->flags & AF_COLD)) cold = 1;
  }
  if (!cold)
    diag_warning(S->d, m->name_span, "scenario '%s' has no cold state: it can never be covered", m->name);
  else if (start && (start->flags & AF_COLD))
    diag_warning(S->d, start->name_span, "the start state of scenario '%s' is cold: entering it at the start "
                 "does not cover the scenario", m->name);
}

/* A block: each statement in order. */
static void check_stmt_block(Sema *S, Ast *s) {
  for (int i = 0; i < s->list.n; i++) check_stmt(S, s->list.items[i]);
}

/* `assert c, msg`: c must be a bool, the optional msg a string. */
static void check_stmt_assert(Sema *S, Ast *s) {
  expect_type(S, s->k[0], S->tc->t_bool, "an assertion");
  if (s->k[1]) expect_type(S, s->k[1], S->tc->t_string, "an assertion message");
}

/* `print e`: e must be a string. */
static void check_stmt_print(Sema *S, Ast *s) {
  expect_type(S, s->k[0], S->tc->t_string, "the argument of 'print'");
}

/* `return e?` against the enclosing function's return type: a value only
** where one is declared, of a type it accepts; none where one is. */
static void check_stmt_return(Sema *S, Ast *s) {
  TypeCtx *tc = S->tc;
  Type *want = S->fun && S->fun->type ? S->fun->type : tc->t_void;
  if (s->k[0]) {
    Type *t = check_value(S, s->k[0]);
    if (want->kind == TY_VOID)
      ERR(s->k[0]->span, "'%s' has no return type, but 'return' gives a value",
          S->fun && S->fun->name ? S->fun->name : "this handler");
    else if (!type_assignable(want, t))
      ERR(s->k[0]->span, "returns a value of type '%s' from '%s', which returns '%s'", TS(t),
          S->fun->name, TS(want));
  } else if (want->kind != TY_VOID && want->kind != TY_ERROR) {
    ERR(s->span, "'return' without a value in '%s', which returns '%s'", S->fun->name, TS(want));
  }
}

/* `break` and `continue`: only inside a loop of the current function. */
static void check_stmt_jump(Sema *S, Ast *s) {
  if (!S->loops) ERR(s->span, "'%s' outside a loop", s->kind == AST_S_BREAK ? "break" : "continue");
}

/* `l = r`: l a location, r a value its type accepts. */
static void check_stmt_assign(Sema *S, Ast *s) {
  Type *l = check_lvalue(S, s->k[0]);
  Type *r = check_value(S, s->k[1]);
  if (!type_assignable(l, r))
    ERR(s->k[1]->span, "cannot assign a value of type '%s' to a location of type '%s'", TS(r), TS(l));
}

/* `c += (k, v)`: c a seq (k an int index) or a map (k a key), v an
** element or value it accepts. */
static void check_stmt_insert(Sema *S, Ast *s) {
  Type *c = check_lvalue(S, s->k[0]);
  Type *k = check_value(S, s->k[1]);
  Type *v = check_value(S, s->k[2]);
  if (c->kind == TY_SEQ) {
    if (!type_assignable(S->tc->t_int, k)) ERR(s->k[1]->span, "a seq index must be 'int', not '%s'", TS(k));
    if (!type_assignable(c->elems[0], v))
      ERR(s->k[2]->span, "cannot insert a value of type '%s' into '%s'", TS(v), TS(c));
  } else if (c->kind == TY_MAP) {
    if (!type_assignable(c->elems[0], k))
      ERR(s->k[1]->span, "a key of '%s' must be '%s', not '%s'", TS(c), TS(c->elems[0]), TS(k));
    if (!type_assignable(c->elems[1], v))
      ERR(s->k[2]->span, "a value of '%s' must be '%s', not '%s'", TS(c), TS(c->elems[1]), TS(v));
  } else if (c->kind != TY_ERROR) {
    ERR(s->k[0]->span, "'+= (index, value)' needs a seq or a map, not '%s'", TS(c));
  }
}

/* `c += (x)`: c a set whose element type accepts x. */
static void check_stmt_add(Sema *S, Ast *s) {
  Type *c = check_lvalue(S, s->k[0]);
  Type *v = check_value(S, s->k[1]);
  if (c->kind == TY_SET) {
    if (!type_assignable(c->elems[0], v))
      ERR(s->k[1]->span, "cannot add a value of type '%s' to '%s'", TS(v), TS(c));
  } else if (c->kind != TY_ERROR) {
    ERR(s->k[0]->span, "'+= (value)' needs a set, not '%s'", TS(c));
  }
}

/* `c -= k`: c a seq (k an int index), or a set or map (k comparable with
** its elements or keys). */
static void check_stmt_remove(Sema *S, Ast *s) {
  Type *c = check_lvalue(S, s->k[0]);
  Type *k = check_value(S, s->k[1]);
  if (c->kind == TY_SEQ) {
    if (!type_assignable(S->tc->t_int, k)) ERR(s->k[1]->span, "a seq index must be 'int', not '%s'", TS(k));
  } else if (c->kind == TY_SET || c->kind == TY_MAP) {
    if (!type_comparable(c->elems[0], k))
      ERR(s->k[1]->span, "cannot remove a value of type '%s' from '%s'", TS(k), TS(c));
  } else if (c->kind != TY_ERROR) {
    ERR(s->k[0]->span, "'-=' needs a seq, set or map, not '%s'", TS(c));
  }
}

/* `while (c) body`: c a bool; the body is inside a loop (S->loops). */
static void check_stmt_while(Sema *S, Ast *s) {
  expect_type(S, s->k[0], S->tc->t_bool, "a loop condition");
  S->loops++;
  check_stmt(S, s->k[1]);
  S->loops--;
}

/* `if (c) a else b`: c a bool, then both branches. */
static void check_stmt_if(Sema *S, Ast *s) {
  expect_type(S, s->k[0], S->tc->t_bool, "an if condition");
  check_stmt(S, s->k[1]);
  if (s->k[2]) check_stmt(S, s->k[2]);
}

/* `foreach (v in c) body`: c a seq or a set (not a map, as P), v a
** variable that holds its elements; the body is inside a loop. */
static void check_stmt_foreach(Sema *S, Ast *s) {
  Type *v = check_lvalue(S, s->k[0]);
  Type *c = check_value(S, s->k[1]);
  Type *el = c->kind == TY_MAP ? NULL : type_elem(c);
  if (c->kind == TY_MAP)   /* P: iterate over keys(m) or values(m) */
    ERR(s->k[1]->span, "foreach needs a seq or a set, not '%s' (iterate over keys() or values() of a map)", TS(c));
  else if (!el && c->kind != TY_ERROR)
    ERR(s->k[1]->span, "foreach needs a seq or a set, not '%s'", TS(c));
  else if (el && !type_assignable(v, el))
    ERR(s->k[0]->span, "loop variable '%s' of type '%s' cannot hold elements of type '%s'", s->k[0]->name,
        TS(v), TS(el));
  S->loops++;
  check_stmt(S, s->k[2]);
  S->loops--;
}

/* `raise e, p`, `send t, e, p`, `announce e, p`: who may use each (raise:
** not in exit or `with` functions, nor where a value is returned), send's
** target a machine, e an event, p a payload e's declaration accepts. */
static void check_stmt_event(Sema *S, Ast *s) {
  const char *kw = s->kind == AST_S_RAISE ? "raise" : s->kind == AST_S_SEND ? "send" : "announce";
  if (is_explorer(S)) ERR(s->span, "an explorer cannot use '%s'", kw);
  else if (is_spec(S) && s->kind != AST_S_RAISE)
    ERR(s->span, "a spec cannot use '%s' (spec '%s')", kw, S->owner->name);
  if (s->kind == AST_S_RAISE && S->is_exit)
    ERR(s->span, "'raise' is not allowed in %s", S->is_exit == 2 ? "the function of a goto ... with" : "an exit function");
  else if (s->kind == AST_S_RAISE && S->fun && S->fun->type && S->fun->type->kind != TY_VOID &&
           S->fun->type->kind != TY_ERROR)
    ERR(s->span, "'raise' is only allowed in functions that return no value ('%s' returns '%s')", S->fun->name,
        TS(S->fun->type));
  Ast *evx = s->kind == AST_S_SEND ? s->k[1] : s->k[0];
  if (s->kind == AST_S_SEND) {
    Type *t = check_value(S, s->k[0]);
    if (t->kind != TY_MACHINE && t->kind != TY_MNAME && t->kind != TY_ERROR && t->kind != TY_NULL)
      ERR(s->k[0]->span, "the target of 'send' must be a machine, not '%s'", TS(t));
  }
  Ast *ev = check_event_expr(S, evx);
  if (ev)
    check_payload(S, evx->span, event_payload(S, ev), &s->list, "event",
                  ev->kind == AST_E_HALT ? "halt" : ev->name);
  else
    payload_type(S, &s->list);
}

/* `goto T, p`: allowed where raise is; T a state of the enclosing machine
** (s->decl is set to it), p at most one value its entry accepts.  After an
** error the payload is still checked, so its own errors are reported. */
static void check_stmt_goto(Sema *S, Ast *s) {
  if (S->is_exit)
    ERR(s->span, "'goto' is not allowed in %s", S->is_exit == 2 ? "the function of a goto ... with" : "an exit function");
  else if (S->fun && S->fun->type && S->fun->type->kind != TY_VOID && S->fun->type->kind != TY_ERROR)
    ERR(s->span, "'goto' is only allowed in functions that return no value ('%s' returns '%s')", S->fun->name,
        TS(S->fun->type));
  if (!S->owner || S->owner->kind != AST_D_MACHINE) {
    ERR(s->span, "'goto' outside a machine");
    payload_type(S, &s->list);
    return;
  }
  Ast *st = sema_machine_member(S->owner, s->name, AST_D_STATE);
  if (!st) {
    ERR(s->name_span, "undeclared state '%s' in %s '%s'", s->name, decl_what(S->owner), S->owner->name);
    payload_type(S, &s->list);
    return;
  }
  s->decl = st;
  if (s->list.n > 1) {   /* P: exactly as many values as the entry has parameters (0 or 1) */
    ERR(s->list.items[1]->span, "goto passes %d values, but the entry of state '%s' takes at most one "
        "(pass a tuple: goto %s, (a, b))", s->list.n, s->name, s->name);
    payload_type(S, &s->list);
    return;
  }
  check_payload(S, s->name_span, entry_param(S, st), &s->list, "the entry of state", s->name);
}

/* `receive { case e: f ... }`: only in a machine, no event in two cases,
** each case's handler checked in the enclosing function's scope with a
** parameter that takes its events' payloads (none: only payload-free events). */
static void check_stmt_receive(Sema *S, Ast *s) {
  if (is_spec(S)) ERR(s->span, "a spec cannot use 'receive' (spec '%s')", S->owner->name);
  else if (is_explorer(S)) ERR(s->span, "an explorer cannot use 'receive'");
  for (int i = 0; i < s->list.n; i++) {
    Ast *c = s->list.items[i];
    resolve_events(S, &c->list, 1);   /* P accepts case null (it never fires) */
    for (int j = 0; j < i; j++)
      for (int a = 0; a < s->list.items[j]->list.n; a++)
        for (int b = 0; b < c->list.n; b++) {
          Ast *x = s->list.items[j]->list.items[a], *y = c->list.items[b];
          if (x->decl && x->decl == y->decl)
            ERR(y->span, "event '%s' appears in two cases of one receive", y->name);
        }
    check_nested_handler(S, c->k[0]);
    check_handler_payload(S, c->k[0], &c->list, c->span);
    /* Stricter than `on e do` (P): a case without a parameter takes only
    ** events without a payload. */
    for (int b = 0; c->k[0]->list.n == 0 && b < c->list.n; b++) {
      Ast *ev = c->list.items[b];
      Type *pt = ev->decl ? event_payload(S, ev->decl) : NULL;
      if (pt && pt->kind != TY_NULL && pt->kind != TY_ERROR)
        ERR(ev->span, "receive case without a parameter for event '%s', which carries a payload of type '%s' "
            "(write case %s: (x: %s) { ... })", ev->name, TS(pt), ev->name, TS(pt));
    }
  }
}

/* Check statement s of the current function (S->fun, S->scope): resolve
** its names, type its expressions, report what P forbids there.  Each
** kind has a checker of its own; reports go to S->d in source order. */
static void check_stmt(Sema *S, Ast *s) {
  switch (s->kind) {
  case AST_S_BLOCK: check_stmt_block(S, s); break;
  case AST_S_NOP: break;
  case AST_S_ASSERT: check_stmt_assert(S, s); break;
  case AST_S_PRINT: check_stmt_print(S, s); break;
  case AST_S_RETURN: check_stmt_return(S, s); break;
  case AST_S_BREAK: case AST_S_CONTINUE: check_stmt_jump(S, s); break;
  case AST_S_ASSIGN: check_stmt_assign(S, s); break;
  case AST_S_INSERT: check_stmt_insert(S, s); break;
  case AST_S_ADD: check_stmt_add(S, s); break;
  case AST_S_REMOVE: check_stmt_remove(S, s); break;
  case AST_S_WHILE: check_stmt_while(S, s); break;
  case AST_S_IF: check_stmt_if(S, s); break;
  case AST_S_FOREACH: check_stmt_foreach(S, s); break;
  case AST_S_NEW: check_new(S, s->k[0]); s->k[0]->type = S->tc->t_void; break;
  case AST_S_CALL: s->k[0]->type = check_call(S, s->k[0]); break;
  case AST_S_RAISE: case AST_S_SEND: case AST_S_ANNOUNCE: check_stmt_event(S, s); break;
  case AST_S_GOTO: check_stmt_goto(S, s); break;
  case AST_S_RECEIVE: check_stmt_receive(S, s); break;
  default:
    ERR(s->span, "unexpected %s in a statement", ast_kind_name(s->kind));
    break;
  }
}

/* Whether s holds a `break` of the loop around it (one inside a nested
** loop leaves that loop only). */
static int has_break(const Ast *s) {
  if (!s) return 0;
  switch (s->kind) {
  case AST_S_BREAK: return 1;
  case AST_S_WHILE: case AST_S_FOREACH: return 0;
  case AST_S_BLOCK:
    for (int i = 0; i < s->list.n; i++) if (has_break(s->list.items[i])) return 1;
    return 0;
  case AST_S_IF: return has_break(s->k[1]) || has_break(s->k[2]);
  default: return 0;
  }
}

/* Can control reach the end of s?  Return, raise and goto end a handler;
** so do `assert false` and a `while (true)` without a break.  Conservative
** elsewhere: any other loop, and an if without else, may fall through. */
static int falls_through(const Ast *s) {
  if (!s) return 1;
  switch (s->kind) {
  case AST_S_RETURN: case AST_S_RAISE: case AST_S_GOTO: return 0;
  case AST_S_ASSERT: return !(s->k[0]->kind == AST_E_BOOL && s->k[0]->ival == 0);
  case AST_S_BLOCK:
    for (int i = 0; i < s->list.n; i++) if (!falls_through(s->list.items[i])) return 0;
    return 1;
  case AST_S_IF: return !s->k[2] || falls_through(s->k[1]) || falls_through(s->k[2]);
  case AST_S_WHILE: return !(s->k[0]->kind == AST_E_BOOL && s->k[0]->ival == 1 && !has_break(s->k[1]));
  default: return 1;
  }
}

/* Check the body of function f (not a foreign one) in a scope of its
** own: its locals' kinds, slots (after the params) and types, a local
** named twice, every statement, and a missing return where f has a type. */
static void check_fun(Sema *S, Ast *f) {
  if (!f->k[1]) return;   /* foreign: already reported */
  Scope sc = { NULL, f };
  S->scope = &sc;
  S->fun = f;
  S->loops = 0;
  S->is_exit = f->op;   /* 1: exit function, 2: function of a goto ... with */
  if (!f->type) {         /* anonymous handler: resolve its parameter here */
    for (int i = 0; i < f->list.n; i++) {
      Ast *p = f->list.items[i];
      p->vkind = VK_PARAM;
      p->slot = i;
      p->owner = S->owner;
      p->type = resolve_type(S, p->k[0]);
    }
    f->type = S->tc->t_void;
    f->owner = S->owner;
  }
  Ast *body = f->k[1];
  for (int i = 0; i < body->list2.n; i++) {
    Ast *v = body->list2.items[i];
    v->vkind = VK_LOCAL;
    v->slot = f->list.n + i;
    v->owner = S->owner;
    v->type = resolve_type(S, v->k[0]);
    Ast *dup = NULL;
    for (int j = 0; j < f->list.n && !dup; j++)
      if (strcmp(f->list.items[j]->name, v->name) == 0) dup = f->list.items[j];
    for (int j = 0; j < i && !dup; j++)
      if (strcmp(body->list2.items[j]->name, v->name) == 0) dup = body->list2.items[j];
    if (dup) redeclared(S, v, dup);
  }
  for (int i = 0; i < body->list.n; i++) check_stmt(S, body->list.items[i]);
  if (f->type->kind != TY_VOID && f->type->kind != TY_ERROR && falls_through(body))
    ERR(f->name_span, "function '%s' can reach its end without returning a value of type '%s'", f->name,
        TS(f->type));
  S->scope = NULL;
  S->fun = NULL;
  S->is_exit = 0;
}

/* ---------------------------------------------------------------------- */
/* Pass 3 and 4: machines, specs and explorers.                           */

/* Resolve a handler reference: an anonymous D_FUN, or the name of a
** function of the machine (or a global one). */
static Ast *resolve_handler(Sema *S, Ast *h) {
  if (h->kind == AST_D_FUN) {
    if (!h->type) {   /* anonymous: resolve its parameter now, its body later */
      for (int i = 0; i < h->list.n; i++) {
        Ast *p = h->list.items[i];
        p->vkind = VK_PARAM;
        p->slot = i;
        p->owner = S->owner;
        p->type = resolve_type(S, p->k[0]);
      }
      h->type = S->tc->t_void;
      h->owner = S->owner;
    }
    return h;
  }
  Ast *f = lookup_fun(S, h->name);
  if (!f) { ERR(h->name_span, "undeclared function '%s'", h->name); return NULL; }
  if (f->kind != AST_D_FUN) { ERR(h->name_span, "'%s' is a %s, not a function", h->name, decl_what(f)); return NULL; }
  if (!f->owner) {
    ERR(h->name_span, "the global function '%s' cannot be used as a handler or entry or exit function; declare it "
        "in %s '%s'", h->name, decl_what(S->owner), S->owner->name);
    return NULL;
  }
  h->decl = f;
  return f;
}

/* An event list item's name for messages (halt has no name node). */
static const char *event_name(const Ast *ev) {
  return ev->kind == AST_E_HALT ? "halt" : ev->name;
}

/* A state st of machine m: at most one entry and one exit (an exit takes
** no parameter, marked op 1; an entry at most one), no event given two
** meanings, no defer in a spec, goto targets that exist and take the
** events' payloads, and each handler's parameter their payloads. */
static void check_state(Sema *S, Ast *m, Ast *st) {
  Ast *entry = NULL, *exit_ = NULL;
  PtrVec seen = {0};   /* event name nodes already given a meaning in this state */
  for (int i = 0; i < st->list.n; i++) {
    Ast *it = st->list.items[i];
    switch (it->kind) {
    case AST_I_ENTRY: case AST_I_EXIT: {
      Ast **slot = it->kind == AST_I_ENTRY ? &entry : &exit_;
      const char *kw = it->kind == AST_I_ENTRY ? "entry" : "exit";
      if (*slot) ERR(it->span, "state '%s' has more than one %s function", st->name, kw);
      *slot = it;
      Ast *f = resolve_handler(S, it->k[0]);
      if (!f) break;
      if (it->kind == AST_I_EXIT) {
        f->op = 1;   /* checked as an exit function: no raise, no goto */
        if (f->list.n) ERR(it->k[0]->span, "an exit function takes no parameter");
      } else if (f->list.n > 1) {
        ERR(it->k[0]->span, "an entry function takes at most one parameter, '%s' takes %d", f->name, f->list.n);
      }
      break;
    }
    case AST_I_DEFER: case AST_I_IGNORE: case AST_I_ONDO: case AST_I_ONGOTO: {
      int spec = (m->flags & AF_SPEC) != 0;
      if (spec && it->kind == AST_I_DEFER) ERR(it->span, "a spec cannot defer events (spec '%s')", m->name);
      resolve_events(S, &it->list, (it->kind == AST_I_ONDO || it->kind == AST_I_ONGOTO) && !spec);
      for (int j = 0; j < it->list.n; j++) {
        Ast *ev = it->list.items[j];
        for (int k = 0; k < seen.n; k++) {
          Ast *o = seen.items[k];
          if (strcmp(event_name(o), event_name(ev)) == 0) {
            ERR(ev->span, "event '%s' is given two meanings in state '%s'", event_name(ev), st->name);
            diag_note(S->d, o->span, "first given here");
            break;
          }
        }
        ptrvec_push(&seen, ev);
      }
      if (it->kind == AST_I_ONGOTO) {
        Ast *target = sema_machine_member(m, it->name, AST_D_STATE);
        if (!target) { ERR(it->name_span, "undeclared state '%s' in %s '%s'", it->name, decl_what(m), m->name); }
        else {
          it->decl = target;
          Type *want = entry_param(S, target);
          if (want->kind != TY_NULL) {
            for (int j = 0; j < it->list.n; j++) {
              Ast *ev = it->list.items[j];
              Ast *d = ev->kind == AST_E_HALT ? ev : ev->decl;
              if (!d) continue;
              Type *pt = event_payload(S, d);
              if (!type_assignable(want, pt))
                ERR(ev->span, "the entry of state '%s' takes '%s', which does not accept the payload of "
                    "event '%s' ('%s')", target->name, TS(want), event_name(ev), TS(pt));
            }
          }
        }
      }
      if ((it->kind == AST_I_ONDO || it->kind == AST_I_ONGOTO) && it->k[0]) {
        Ast *f = resolve_handler(S, it->k[0]);
        if (f) check_handler_payload(S, it->k[0], &it->list, it->k[0]->span);
        if (f && it->kind == AST_I_ONGOTO && f->op == 0) f->op = 2;   /* no raise or goto inside */
      }
      break;
    }
    default: break;
    }
  }
  ptrvec_fini(&seen);
}

/* The functions the checker calls in an explorer (doc/explorers.md): their
** names, parameter types and results are fixed; Next and Delay are required. */
static void check_explorer_hooks(Sema *S, Ast *x) {
  TypeCtx *tc = S->tc;
  Type *m = tc->t_machine, *e = tc->t_event, *en = type_set(tc, tc->t_machine);
  static const struct { const char *name; int n; int required; } hooks[] = {
    {"OnCreate", 1, 0}, {"OnHalt", 1, 0}, {"OnSend", 3, 0}, {"OnDequeue", 2, 0}, {"OnBlock", 1, 0},
    {"Next", 1, 1}, {"Delay", 0, 1},
  };
  Type *want[][3] = { {m}, {m}, {m, m, e}, {m, e}, {m}, {en}, {0} };
  const char *sig[] = { "OnCreate(m: machine)", "OnHalt(m: machine)",
                        "OnSend(sender: machine, receiver: machine, e: event)", "OnDequeue(m: machine, e: event)",
                        "OnBlock(m: machine)", "Next(enabled: set[machine]) : machine", "Delay()" };
  for (size_t h = 0; h < sizeof hooks / sizeof hooks[0]; h++) {
    Ast *f = NULL;
    for (int i = 0; i < x->list.n && !f; i++)
      if (x->list.items[i]->kind == AST_D_FUN && x->list.items[i]->name && strcmp(x->list.items[i]->name, hooks[h].name) == 0)
        f = x->list.items[i];
    if (!f) {
      if (hooks[h].required) ERR(x->name_span, "explorer '%s' has no function %s", x->name, sig[h]);
      continue;
    }
    int ok = f->list.n == hooks[h].n;
    for (int i = 0; ok && i < f->list.n; i++)
      ok = f->list.items[i]->type && type_equal(f->list.items[i]->type, want[h][i]);
    Type *rt = f->type ? f->type : tc->t_void;
    if (h == 5) ok = ok && type_equal(rt, m);
    else ok = ok && rt->kind == TY_VOID;
    if (!ok) ERR(f->name_span, "the explorer function '%s' must be declared %s", hooks[h].name, sig[h]);
  }
}

/* Pass 3 for machine, spec or explorer m: the structure of its states
** (one start state, temperatures, check_state), its observes and
** annotation events; an explorer's hooks and `on e do` handlers. */
static void check_owner(Sema *S, Ast *m) {
  S->owner = m;
  if (m->kind == AST_D_MACHINE) {
    Ast *start = NULL;
    /* Entry parameters first: `on e goto T` in one state checks the payload
    ** against T's entry, which may come later in the machine. */
    for (int i = 0; i < m->list.n; i++) {
      Ast *st = m->list.items[i];
      if (st->kind != AST_D_STATE) continue;
      for (int j = 0; j < st->list.n; j++)
        if (st->list.items[j]->kind == AST_I_ENTRY && st->list.items[j]->k[0]->kind == AST_D_FUN)
          resolve_handler(S, st->list.items[j]->k[0]);
    }
    for (int i = 0; i < m->list.n; i++) {
      Ast *st = m->list.items[i];
      if (st->kind != AST_D_STATE) continue;
      if (st->flags & AF_START) {
        if (start) {
          ERR(st->name_span, "%s '%s' has more than one start state", decl_what(m), m->name);
          diag_note(S->d, start->name_span, "first start state is '%s'", start->name);
        } else start = st;
      }
      if ((st->flags & (AF_HOT | AF_COLD)) && !(m->flags & AF_SPEC))   /* P's compiler ignores it */
        diag_warning(S->d, st->name_span, "'%s' has no effect on a state of machine '%s': only a spec's states "
                     "have a temperature (P ignores it too)", (st->flags & AF_HOT) ? "hot" : "cold", m->name);
      check_state(S, m, st);
    }
    if (!start) ERR(m->name_span, "%s '%s' has no start state", decl_what(m), m->name);
    if (m->flags & AF_SCENARIO) scenario_warnings(S, m, start);
    if (m->flags & AF_SPEC) resolve_events(S, &m->list2, 0);
    if (m->k[0]) resolve_events(S, &m->k[0]->list, 0);
  } else {
    check_explorer_hooks(S, m);
    for (int i = 0; i < m->list.n; i++) {
      Ast *it = m->list.items[i];
      if (it->kind != AST_I_ONDO) continue;
      resolve_events(S, &it->list, 0);
      Ast *f = resolve_handler(S, it->k[0]);
      if (f) check_handler_payload(S, it->k[0], &it->list, it->k[0]->span);
    }
  }
  S->owner = NULL;
}

/* Pass 4 for m: the body of each of its functions and of each anonymous
** handler of its states and items, in declaration order. */
static void check_owner_bodies(Sema *S, Ast *m) {
  S->owner = m;
  for (int i = 0; i < m->list.n; i++) {
    Ast *it = m->list.items[i];
    if (it->kind == AST_D_FUN) check_fun(S, it);
    else if (it->kind == AST_D_STATE) {
      for (int j = 0; j < it->list.n; j++) {
        Ast *si = it->list.items[j];
        if (si->k[0] && si->k[0]->kind == AST_D_FUN) check_fun(S, si->k[0]);
      }
    } else if (it->kind == AST_I_ONDO && it->k[0]->kind == AST_D_FUN) {
      check_fun(S, it->k[0]);
    }
  }
  S->owner = NULL;
}

/* ---------------------------------------------------------------------- */
/* Pass 5: modules and tests.                                             */

/* Whether a param value e is a literal, a negated number or an enum
** member (what P allows in a test's param lists). */
static int is_constant(const Ast *e) {
  switch (e->kind) {
  case AST_E_INT: case AST_E_BOOL: case AST_E_FLOAT: case AST_E_STRING: return 1;
  case AST_E_UNARY: return e->op == '-' && (e->k[0]->kind == AST_E_INT || e->k[0]->kind == AST_E_FLOAT);
  case AST_E_NAME: return e->decl && e->decl->kind == AST_D_ENUMELEM;
  default: return 0;
  }
}

/* Whether two param values (each is_constant) denote the same value. */
static int same_constant(const Ast *a, const Ast *b) {
  int neg_a = a->kind == AST_E_UNARY, neg_b = b->kind == AST_E_UNARY;
  const Ast *x = neg_a ? a->k[0] : a, *y = neg_b ? b->k[0] : b;
  if (x->kind != y->kind) return 0;
  switch (x->kind) {
  case AST_E_INT: return (neg_a ? -x->ival : x->ival) == (neg_b ? -y->ival : y->ival);
  case AST_E_FLOAT: return (neg_a ? -x->fval : x->fval) == (neg_b ? -y->fval : y->fval);
  case AST_E_BOOL: return x->ival == y->ival;
  case AST_E_STRING: return x->ival == y->ival && memcmp(x->sval, y->sval, (size_t)x->ival) == 0;
  case AST_E_NAME: return x->decl == y->decl;
  default: return 0;
  }
}

/* A param test's values and assume condition (its module: lang/modules.c).
   Its values of one param are distinct, as P requires. */
static void check_test(Sema *S, Ast *t) {
  for (int i = 0; i < t->list.n; i++) {
    Ast *pv = t->list.items[i];
    Ast *p = symtab_get(S->p->globals, pv->name);
    for (int j = 0; j < i; j++)
      if (strcmp(t->list.items[j]->name, pv->name) == 0) ERR(pv->name_span, "param '%s' is given values twice", pv->name);
    if (!p) { ERR(pv->name_span, "undeclared param '%s'", pv->name); continue; }
    if (p->kind != AST_D_PARAM) { ERR(pv->name_span, "'%s' is a %s, not a param", pv->name, decl_what(p)); continue; }
    pv->decl = p;
    for (int j = 0; j < pv->list.n; j++) {
      Ast *v = pv->list.items[j];
      Type *vt = check_value(S, v);
      if (!is_constant(v)) ERR(v->span, "a param value must be a literal or an enum member");
      else if (!type_assignable(p->type, vt))
        ERR(v->span, "value of type '%s' for param '%s' of type '%s'", TS(vt), pv->name, TS(p->type));
      else
        for (int w = 0; w < j; w++)
          if (is_constant(pv->list.items[w]) && same_constant(pv->list.items[w], v)) {
            ERR(v->span, "param '%s' is given the same value twice (values %d and %d of its list)", pv->name,
                w + 1, j + 1);
            break;
          }
    }
  }
  if (t->k[2]) expect_type(S, t->k[2], S->tc->t_bool, "an assume condition");
  if (t->ival > t->list.n && t->list.n > 0)
    ERR(t->span, "a %lld-wise test needs at least %lld params, test '%s' has %d", (long long)t->ival,
        (long long)t->ival, t->name, t->list.n);
}

/* ---------------------------------------------------------------------- */
/* Pass 4b: what functions do through the functions they call.            */

enum { FX_STATE = 1, FX_NONDET = 2, FX_MACHINE_ONLY = 4 };   /* goto/raise; $/choose; send/new/receive/announce */

/* Effects of the statements and expressions under n, not counting calls;
** the functions called are collected into calls. */
static unsigned direct_effects(const Ast *n, PtrVec *calls) {
  if (!n) return 0;
  unsigned fx = 0;
  switch (n->kind) {
  case AST_S_GOTO: case AST_S_RAISE: fx |= FX_STATE; break;
  case AST_E_NONDET: case AST_E_CHOOSE: fx |= FX_NONDET; break;
  case AST_S_SEND: case AST_S_ANNOUNCE: case AST_S_RECEIVE: case AST_E_NEW: fx |= FX_MACHINE_ONLY; break;
  case AST_E_CALL: if (n->decl && n->decl->kind == AST_D_FUN) ptrvec_push(calls, n->decl); break;
  default: break;
  }
  for (int i = 0; i < 4; i++) fx |= direct_effects(n->k[i], calls);
  for (int i = 0; i < n->list.n; i++) fx |= direct_effects(n->list.items[i], calls);
  if (n->kind != AST_D_FUN || !n->name)   /* a named function's locals are declarations */
    for (int i = 0; i < n->list2.n; i++) fx |= direct_effects(n->list2.items[i], calls);
  return fx;
}

/* One function's effects, for check_call_effects' fixed point. */
typedef struct FunFx {
  Ast *fun;
  unsigned direct, total;   /* effects of its body, and through its calls too (FX_* bits) */
  PtrVec calls;             /* D_FUNs its body calls, repeats included */
} FunFx;

/* Every function with a body under n into out: declared ones and the
** anonymous handlers of states and items.  A receive case's handler is
** not one: it stays part of the body that holds it (direct_effects). */
static void collect_funs(const Ast *n, PtrVec *out) {
  if (!n) return;
  if (n->kind == AST_D_FUN && n->k[1]) ptrvec_push(out, (void *)n);
  for (int i = 0; i < n->list.n; i++) collect_funs(n->list.items[i], out);
  for (int i = 0; i < 4; i++) if (n->k[i] && (n->k[i]->kind == AST_D_FUN || n->k[i]->kind == AST_I_CASE)) collect_funs(n->k[i], out);
}

/* What effects fx do, in words for messages (the first of nondeterminism,
** machine-only statements, a change of state). */
static const char *fx_what(unsigned fx) {
  if (fx & FX_NONDET) return "makes a nondeterministic choice";
  if (fx & FX_MACHINE_ONLY) return "sends, creates, receives or announces";
  return "changes state (goto or raise)";
}

/* Report calls, in exit and `with` functions, to functions that may goto or
** raise; and calls, in specs, to functions that may do what specs cannot. */
static void check_call_effects(Sema *S) {
  PtrVec funs = {0};
  collect_funs(S->p->root, &funs);
  FunFx *fx = xcalloc((size_t)(funs.n ? funs.n : 1), sizeof(FunFx));
  for (int i = 0; i < funs.n; i++) {
    fx[i].fun = funs.items[i];
    fx[i].fun->vkind = i + 1;   /* D_FUN does not use vkind: its index here, for this pass */
    fx[i].direct = fx[i].total = direct_effects(fx[i].fun->k[1], &fx[i].calls);
  }
  for (int changed = 1; changed;) {   /* propagate to callers until nothing changes */
    changed = 0;
    for (int i = 0; i < funs.n; i++)
      for (int c = 0; c < fx[i].calls.n; c++) {
        int j = ((Ast *)fx[i].calls.items[c])->vkind - 1;
        if (j >= 0 && j < funs.n && fx[j].fun == fx[i].calls.items[c] && (fx[j].total | fx[i].total) != fx[i].total) {
          fx[i].total |= fx[j].total;
          changed = 1;
        }
      }
  }
  for (int i = 0; i < funs.n; i++) {
    Ast *f = fx[i].fun;
    int in_spec = f->owner && (f->owner->flags & AF_SPEC);
    int in_explorer = f->owner && f->owner->kind == AST_D_EXPLORER;
    unsigned banned = (f->op == 1 || f->op == 2 ? FX_STATE : 0) | (in_spec ? FX_NONDET | FX_MACHINE_ONLY : 0) |
                      (in_explorer ? FX_STATE | FX_MACHINE_ONLY : 0);
    if (!banned) continue;
    PtrVec calls = {0};
    direct_effects(f->k[1], &calls);
    for (int c = 0; c < calls.n; c++) {
      Ast *callee = calls.items[c];
      for (int j = callee->vkind - 1; j >= 0 && j < funs.n && fx[j].fun == callee;) {
        if (!(fx[j].total & banned)) break;
        unsigned bad = fx[j].total & banned;
        Span sp = callee->name_span;
        if (in_explorer)
          ERR(f->span, "explorer '%s' calls '%s', which %s; an explorer cannot", f->owner->name, callee->name,
              fx_what(bad));
        else if (in_spec && (bad & (FX_NONDET | FX_MACHINE_ONLY)))
          ERR(f->span, "spec '%s' calls '%s', which %s; a spec cannot", f->owner->name, callee->name, fx_what(bad));
        else
          ERR(f->span, "%s calls '%s', which %s", f->op == 1 ? "an exit function" : "the function of a goto ... with",
              callee->name, fx_what(bad & FX_STATE));
        diag_note(S->d, sp, "'%s' is declared here", callee->name);
        break;
      }
    }
    ptrvec_fini(&calls);
  }
  for (int i = 0; i < funs.n; i++) {
    fx[i].fun->vkind = 0;
    ptrvec_fini(&fx[i].calls);
  }
  free(fx);
  ptrvec_fini(&funs);
}

/* The passes in order (this file's header): names, signatures, machine
** structure, bodies, calls' effects (only when all that reported no
** error), test values, modules.  The errors of this call, counted by d. */
int sema_check(Program *p, Diag *d) {
  Sema s = {0};
  Sema *S = &s;
  S->p = p;
  S->d = d;
  S->tc = &p->types;
  int before = d->nerrors;
  collect(S);
  resolve_signatures(S);
  for (int i = 0; i < p->root->list.n; i++) {
    Ast *x = p->root->list.items[i];
    if (x->kind == AST_D_MACHINE || x->kind == AST_D_EXPLORER) check_owner(S, x);
  }
  for (int i = 0; i < p->root->list.n; i++) {
    Ast *x = p->root->list.items[i];
    if (x->kind == AST_D_MACHINE || x->kind == AST_D_EXPLORER) check_owner_bodies(S, x);
    else if (x->kind == AST_D_FUN) check_fun(S, x);
  }
  if (d->nerrors == before) check_call_effects(S);
  for (int i = 0; i < p->root->list.n; i++) {
    Ast *x = p->root->list.items[i];
    if (x->kind == AST_D_TEST) check_test(S, x);
  }
  modules_check(p, d);
  return d->nerrors - before;
}
