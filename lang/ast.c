/* ast.c: node construction.  Nodes live in an arena; nothing here frees. */
#include <config.h>
#include "lang/ast.h"
#include <string.h>

/* Kind names, indexed by AstKind: the same list as the enum, so they
** cannot disagree. */
static const char *const kind_names[] = {
#define AST(kind, doc) #kind,
#include "lang/ast.def"
#undef AST
};

const char *ast_kind_name(AstKind k) {
  return (unsigned)k < AST__COUNT ? kind_names[k] : "?";
}

/* The arena hands out zeroed memory: every field not set here is 0 or
** NULL, which is what an unused field must be. */
Ast *ast_new(Arena *a, AstKind k, Span sp) {
  Ast *n = arena_alloc(a, sizeof(Ast));
  n->kind = k;
  n->span = sp;
  n->name_span = sp;
  n->depth = 1;
  n->slot = -1;
  return n;
}

/* Doubling keeps appends amortized O(1); the abandoned blocks cost at most
** as much again as the final one. */
void ast_push(Arena *a, AstList *l, Ast *node) {
  if (l->n == l->cap) {
    int cap = l->cap ? l->cap * 2 : 4;
    Ast **items = arena_alloc(a, (size_t)cap * sizeof(Ast *));
    if (l->n) memcpy(items, l->items, (size_t)l->n * sizeof(Ast *));
    l->items = items;
    l->cap = cap;
  }
  l->items[l->n++] = node;
}

/* Spans of different files cannot be joined: the result is then a. */
Span span_join(Span a, Span b) {
  Span s = a;
  if (b.file == a.file && b.end > s.end) s.end = b.end;
  return s;
}
