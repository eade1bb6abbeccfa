/* modules.c: P's module system.  Evaluates module expressions (named
** modules, primitive modules with bindings, union, compose, assert, hidee,
** hidei, rename, main ... in) to what P's compiler calls a module's info:
** which machine each interface is bound to, what the module creates, sends
** and receives, which specs are attached and whose sends they observe.  It
** enforces P's static rules on them (ModuleSystemTypeChecker in P's
** compiler) and checks each test and implementation module: closed, with
** its main machine in it.  Codegen reads the result (ModInfo) of each test.
** Not checked (they only matter with private events, which P's own checker
** cannot produce: its `hidee` fails internally): permissions carried in
** event payload types against private events. */
#include <config.h>
#include <stdlib.h>
#include <string.h>
#include "lang/modules.h"

/* One modules_check: the program, its sizes, and what is computed once
** and shared by every module expression (arena blocks, never changed once
** made: a ModInfo may point at them only through copies). */
typedef struct Mod {
  Program *p;
  Diag *d;
  int niface, nev, nspec; /* as ModInfo's: interfaces, events (halt included), specs */
  uint8_t **mcreates;    /* per interface that is a machine: interfaces its code creates (cached) */
  uint8_t **msends;      /* per interface that is a machine: events it may send */
  ModInfo **named;       /* per D_MODULE (index in root list): its info, once evaluated */
  int *named_state;      /* 0 not evaluated, 1 in progress, 2 done */
} Mod;

#define ERR(sp, ...) diag_error(M->d, (sp), __VA_ARGS__)

/* n zeroed flags in the program's arena (one byte at least, so that an
** empty array is still a valid pointer). */
static uint8_t *flags(Mod *M, int n) {
  uint8_t *f = arena_alloc(M->p->arena, (size_t)(n ? n : 1));
  memset(f, 0, (size_t)(n ? n : 1));
  return f;
}

/* The empty module at sp: nothing bound, created, sent, received, hidden
** or attached; every interface links to itself. */
static ModInfo *info_new(Mod *M, Span sp) {
  ModInfo *m = arena_alloc(M->p->arena, sizeof *m);
  memset(m, 0, sizeof *m);
  m->span = sp;
  m->niface = M->niface;
  m->nev = M->nev;
  m->nspec = M->nspec;
  m->def = arena_alloc(M->p->arena, (size_t)(M->niface ? M->niface : 1) * sizeof(Ast *));
  memset(m->def, 0, (size_t)(M->niface ? M->niface : 1) * sizeof(Ast *));
  m->creates = flags(M, M->niface);
  m->priv_if = flags(M, M->niface);
  m->link = arena_alloc(M->p->arena, (size_t)(M->niface ? M->niface : 1) * sizeof(uint16_t));
  for (int i = 0; i < M->niface; i++) m->link[i] = (uint16_t)i;
  m->sends = flags(M, M->nev);
  m->receives = flags(M, M->nev);
  m->priv_ev = flags(M, M->nev);
  m->observed = arena_alloc(M->p->arena, (size_t)(M->nspec ? M->nspec : 1) * sizeof(uint8_t *));
  memset(m->observed, 0, (size_t)(M->nspec ? M->nspec : 1) * sizeof(uint8_t *));
  return m;
}

/* A deep copy of a at sp, to be changed without changing a (a named
** module's info is shared by every expression that names it). */
static ModInfo *info_copy(Mod *M, const ModInfo *a, Span sp) {
  ModInfo *m = info_new(M, sp);
  memcpy(m->def, a->def, (size_t)M->niface * sizeof(Ast *));
  memcpy(m->creates, a->creates, (size_t)M->niface);
  memcpy(m->priv_if, a->priv_if, (size_t)M->niface);
  memcpy(m->link, a->link, (size_t)M->niface * sizeof(uint16_t));
  memcpy(m->sends, a->sends, (size_t)M->nev);
  memcpy(m->receives, a->receives, (size_t)M->nev);
  memcpy(m->priv_ev, a->priv_ev, (size_t)M->nev);
  for (int k = 0; k < M->nspec; k++)
    if (a->observed[k]) {
      m->observed[k] = flags(M, M->niface);
      memcpy(m->observed[k], a->observed[k], (size_t)M->niface);
    }
  return m;
}

/* Names for messages: of event id (0 is halt) and of interface index i. */
static const char *event_name(Mod *M, int id) {
  return id == 0 ? "halt" : ((Ast *)M->p->events.items[id - 1])->name;
}
static const char *iface_name(Mod *M, int i) { return ((Ast *)M->p->ifaces.items[i])->name; }

/* ---------------------------------------------------------------------- */
/* What a machine's code creates and sends.                               */

/* Interfaces named by `new` under node n, through the functions it calls
** (P's InferMachineCreates); `seen` holds the global functions visited. */
static void creates_walk(Mod *M, const Ast *n, uint8_t *out, PtrVec *seen) {
  if (!n) return;
  if (n->kind == AST_E_NEW && n->decl && (n->decl->kind == AST_D_MACHINE || n->decl->kind == AST_D_INTERFACE))
    out[n->decl->iface] = 1;
  if (n->kind == AST_E_CALL && n->decl && n->decl->kind == AST_D_FUN && !n->decl->owner) {
    for (int i = 0; i < seen->n; i++) if (seen->items[i] == n->decl) goto children;
    ptrvec_push(seen, n->decl);
    creates_walk(M, n->decl, out, seen);
  }
children:
  for (int i = 0; i < 4; i++) creates_walk(M, n->k[i], out, seen);
  for (int i = 0; i < n->list.n; i++) creates_walk(M, n->list.items[i], out, seen);
  for (int i = 0; i < n->list2.n; i++) creates_walk(M, n->list2.items[i], out, seen);
}

/* The interfaces machine m's code creates (creates_walk over the whole
** machine), computed on first use and cached in M->mcreates. */
static uint8_t *machine_creates(Mod *M, Ast *m) {
  if (!M->mcreates[m->iface]) {
    uint8_t *f = flags(M, M->niface);
    PtrVec seen = {0};
    creates_walk(M, m, f, &seen);
    ptrvec_fini(&seen);
    M->mcreates[m->iface] = f;
  }
  return M->mcreates[m->iface];
}

/* A machine's sends clause, or every event when it has none. */
static uint8_t *machine_sends(Mod *M, Ast *m) {
  if (!M->msends[m->iface]) {
    uint8_t *f = flags(M, M->nev);
    const Ast *a = m->k[0];
    if (!a || !(a->op & 2)) memset(f, 1, (size_t)M->nev);
    else
      for (int i = 0; i < a->list2.n; i++) {
        const Ast *ev = a->list2.items[i];
        if (ev->kind == AST_E_HALT) f[0] = 1;
        else if (ev->decl) f[ev->decl->slot] = 1;
      }
    M->msends[m->iface] = f;
  }
  return M->msends[m->iface];
}

/* The payload type an interface's `new` takes: a machine's start entry
** parameter, an interface's declared type; null when none. */
static Type *iface_payload(Mod *M, Ast *i) {
  if (i->kind == AST_D_INTERFACE) return i->k[0] ? i->k[0]->type : M->p->types.t_null;
  Ast *st = sema_start_state(i);
  Ast *f = st ? sema_entry_fun(st) : NULL;
  if (f && f->list.n && f->list.items[0]->type) return f->list.items[0]->type;
  return M->p->types.t_null;
}

/* Recompute what a module creates from its bindings and links. */
static void recompute_creates(Mod *M, ModInfo *m) {
  memset(m->creates, 0, (size_t)M->niface);
  for (int i = 0; i < M->niface; i++) {
    if (!m->def[i]) continue;
    uint8_t *c = machine_creates(M, m->def[i]);
    for (int j = 0; j < M->niface; j++) if (c[j]) m->creates[m->link[j]] = 1;
  }
}

/* ---------------------------------------------------------------------- */
/* Module expressions.                                                    */

static ModInfo *eval(Mod *M, Ast *me, int depth);

/* The interface named by n: a machine (not a spec) or a declared
** interface; otherwise an error (naming a spec says how to attach it) and
** NULL. */
static Ast *find_iface(Mod *M, const Ast *n) {
  Ast *d = sema_global(M->p, n->name);
  if (d && ((d->kind == AST_D_MACHINE && !(d->flags & AF_SPEC)) || d->kind == AST_D_INTERFACE)) return d;
  if (d && d->kind == AST_D_MACHINE)
    ERR(n->name_span, "could not find interface '%s' ('%s' is a spec: attach it with 'assert %s in ...')", n->name,
        n->name, n->name);
  else ERR(n->name_span, "could not find interface '%s'", n->name);
  return NULL;
}

/* { M1, M2 -> I, ... } */
static ModInfo *eval_bindings(Mod *M, Ast *me) {
  ModInfo *m = info_new(M, me->span);
  int ok = 1;
  for (int i = 0; i < me->list.n; i++) {
    Ast *b = me->list.items[i];
    Ast *in = b->k[0] ? b->k[0] : b;
    Ast *iface = find_iface(M, in);
    Ast *mach = sema_global(M->p, b->name);
    if (b->k[0] && (!mach || mach->kind != AST_D_MACHINE)) {
      ERR(b->name_span, "could not find machine '%s'", b->name);
      mach = NULL;
    } else if (b->k[0] && (mach->flags & AF_SPEC)) {
      ERR(b->name_span, "'%s' is a spec; a spec is attached with 'assert %s in ...', not bound to an interface",
          b->name, b->name);
      mach = NULL;
    }
    if (!iface || !mach) { ok = 0; continue; }
    in->decl = iface;
    b->decl = mach;
    if (m->def[iface->iface]) {
      ERR(in->name_span, "interface or machine '%s' is mentioned or bound multiple times in the module", iface->name);
      ok = 0;
      continue;
    }
    /* P: the interface's receive set must be a subset of the machine's, and
    ** the machine's constructor must accept the interface's payload. */
    for (int e = 0; e < M->nev; e++)
      if (iface->perm[e] && !mach->perm[e]) {
        ERR(b->span, "invalid bind: receive set of '%s' is not a subset of receive set of '%s' (event '%s')",
            iface->name, mach->name, event_name(M, e));
        ok = 0;
        break;
      }
    Type *ip = iface_payload(M, iface), *mp = iface_payload(M, mach);
    if (!type_assignable(mp, ip)) {
      ERR(b->span, "invalid bind: payload type of '%s' ('%s') is not a subtype of payload type of '%s' ('%s')",
          iface->name, type_str(&M->p->types, ip), mach->name, type_str(&M->p->types, mp));
      ok = 0;
    }
    m->def[iface->iface] = mach;
    uint8_t *s = machine_sends(M, mach);
    for (int e = 0; e < M->nev; e++) {
      m->sends[e] |= s[e];
      m->receives[e] |= mach->perm[e];
    }
  }
  if (!ok) return NULL;
  recompute_creates(M, m);
  return m;
}

/* union / compose: P's pairwise checks, then the component-wise union. */
static ModInfo *eval_union(Mod *M, Ast *me, int depth) {
  int n = me->list.n, ok = 1;
  ModInfo **parts = arena_alloc(M->p->arena, (size_t)n * sizeof(ModInfo *));
  for (int i = 0; i < n; i++) {
    parts[i] = eval(M, me->list.items[i], depth + 1);
    if (!parts[i]) ok = 0;
  }
  if (!ok) return NULL;
  for (int i = 0; i < n && ok; i++)
    for (int j = i + 1; j < n && ok; j++) {
      ModInfo *a = parts[i], *b = parts[j];
      Span sp = me->list.items[i]->span;
      for (int k = 0; k < M->niface && ok; k++)
        if (a->def[k] && b->def[k]) {
          ERR(sp, "invalid composition: bound interfaces after composition are not disjoint, e.g., interface '%s' "
              "is bound in both the modules being composed", iface_name(M, k));
          ok = 0;
        }
      for (int e = 0; e < M->nev && ok; e++)
        if ((a->priv_ev[e] || b->priv_ev[e]) && (a->sends[e] || a->receives[e] || b->sends[e] || b->receives[e])) {
          ERR(sp, "invalid composition: private events after composition are not disjoint from send and receives "
              "set, e.g., after composition private event '%s' belongs to both private and public (sends or "
              "receives) events", event_name(M, e));
          ok = 0;
        }
      for (int k = 0; k < M->nspec && ok; k++)
        if (a->observed[k] && b->observed[k]) {
          ERR(sp, "invalid composition: monitor '%s' is attached in more than one modules being composed",
              ((Ast *)M->p->specs.items[k])->name);
          ok = 0;
        }
      if (me->op == 1) {   /* compose: outputs disjoint */
        for (int e = 0; e < M->nev && ok; e++)
          if (a->sends[e] && b->sends[e]) {
            ERR(sp, "invalid composition: output sends are not disjoint, '%s' belongs to the sends of multiple "
                "composed module", event_name(M, e));
            ok = 0;
          }
        for (int k = 0; k < M->niface && ok; k++)
          if (a->creates[k] && b->creates[k]) {
            ERR(sp, "invalid composition: output creates are not disjoint, '%s' belongs to the creates of "
                "multiple composed module", iface_name(M, k));
            ok = 0;
          }
      }
    }
  if (!ok) return NULL;
  ModInfo *m = info_copy(M, parts[0], me->span);
  for (int i = 1; i < n; i++) {
    ModInfo *b = parts[i];
    for (int k = 0; k < M->niface; k++) {
      if (b->def[k]) { m->def[k] = b->def[k]; m->link[k] = b->link[k]; }
      m->creates[k] |= b->creates[k];
      m->priv_if[k] |= b->priv_if[k];
    }
    for (int e = 0; e < M->nev; e++) {
      m->sends[e] |= b->sends[e];
      m->receives[e] |= b->receives[e];
      m->priv_ev[e] |= b->priv_ev[e];
    }
    for (int k = 0; k < M->nspec; k++)
      if (b->observed[k]) {
        m->observed[k] = flags(M, M->niface);
        memcpy(m->observed[k], b->observed[k], (size_t)M->niface);
      }
  }
  return m;
}

/* assert S1, S2 in M: each spec observes the sends of the interfaces bound
** in M so far. */
static ModInfo *eval_assert(Mod *M, Ast *me, int depth) {
  ModInfo *in = eval(M, me->k[0], depth + 1);
  int ok = in != NULL;
  ModInfo *m = in ? info_copy(M, in, me->span) : NULL;
  for (int i = 0; i < me->list2.n; i++) {
    Ast *n = me->list2.items[i];
    Ast *s = sema_global(M->p, n->name);
    if (!s || s->kind != AST_D_MACHINE) { ERR(n->name_span, "could not find spec machine '%s'", n->name); ok = 0; continue; }
    if (!(s->flags & AF_SPEC)) { ERR(n->name_span, "expected a spec monitor; got '%s'", n->name); ok = 0; continue; }
    n->decl = s;
    if (!m) continue;
    if (m->observed[s->iface]) {
      ERR(n->name_span, "invalid assert: spec monitor '%s' is already attached in the module", n->name);
      ok = 0;
      continue;
    }
    for (int j = 0; j < s->list2.n; j++) {
      const Ast *ev = s->list2.items[j];
      int id = ev->kind == AST_E_HALT ? 0 : ev->decl ? ev->decl->slot : -1;
      if (id >= 0 && !m->sends[id]) {
        ERR(n->name_span, "invalid assert: event '%s' in observes set of '%s' is not in the sends set of the module",
            event_name(M, id), n->name);
        ok = 0;
        break;
      }
    }
    m->observed[s->iface] = flags(M, M->niface);
    for (int k = 0; k < M->niface; k++) m->observed[s->iface][k] = m->def[k] != NULL;
  }
  return ok ? m : NULL;
}

/* The id of the event ev names (halt 0), set in ev->decl; -1 after an
** error when no event has that name. */
static int event_id(Mod *M, Ast *ev) {
  if (ev->kind == AST_E_HALT) return 0;
  Ast *d = sema_global(M->p, ev->name);
  if (!d || d->kind != AST_D_EVENT) { ERR(ev->name_span, "could not find event '%s'", ev->name); return -1; }
  ev->decl = d;
  return d->slot;
}

/* hidee e1, e2 in M: the events become private to M. */
static ModInfo *eval_hidee(Mod *M, Ast *me, int depth) {
  ModInfo *in = eval(M, me->k[0], depth + 1);
  if (!in) return NULL;
  ModInfo *m = info_copy(M, in, me->span);
  int ok = 1;
  for (int i = 0; i < me->list2.n && ok; i++) {
    int e = event_id(M, me->list2.items[i]);
    if (e < 0) { ok = 0; break; }
    if (!m->sends[e] || !m->receives[e]) {
      ERR(me->list2.items[i]->span, "invalid hide event: event '%s' cannot be made private, it must belong to both "
          "receive and send set of the module", event_name(M, e));
      ok = 0;
      break;
    }
    for (int k = 0; k < M->niface; k++) {
      int bound = m->def[k] != NULL, created = m->creates[k];
      if (bound != created && ((Ast *)M->p->ifaces.items[k])->perm[e]) {
        ERR(me->list2.items[i]->span, "invalid hide event: event '%s' cannot be made private as interface '%s' "
            "contains this event. Only events in interfaces that are both created and bound in the module can be "
            "hidden", event_name(M, e), iface_name(M, k));
        ok = 0;
        break;
      }
    }
    m->priv_ev[e] = 1;
    m->sends[e] = m->receives[e] = 0;
  }
  return ok ? m : NULL;
}

/* hidei I1, I2 in M */
static ModInfo *eval_hidei(Mod *M, Ast *me, int depth) {
  ModInfo *in = eval(M, me->k[0], depth + 1);
  if (!in) return NULL;
  ModInfo *m = info_copy(M, in, me->span);
  for (int i = 0; i < me->list2.n; i++) {
    Ast *d = find_iface(M, me->list2.items[i]);
    if (!d) return NULL;
    if (!m->creates[d->iface] || !m->def[d->iface]) {
      ERR(me->list2.items[i]->span, "invalid hide interface: interface '%s' cannot be made private. Interface '%s' "
          "must be both created and bounded in the module", d->name, d->name);
      return NULL;
    }
    m->priv_if[d->iface] = 1;
  }
  return m;
}

/* rename Old to New in M: every `new Old` of M creates New, and New is
** bound to what Old was. */
static ModInfo *eval_rename(Mod *M, Ast *me, int depth) {
  ModInfo *in = eval(M, me->k[0], depth + 1);
  Ast *nw = find_iface(M, me->k[2]);
  Ast *old = find_iface(M, me->k[1]);
  if (!in || !nw || !old) return NULL;
  if (memcmp(nw->perm, old->perm, (size_t)M->nev) != 0) {
    ERR(me->span, "invalid rename: '%s' and '%s' must have the same receive set", nw->name, old->name);
    return NULL;
  }
  if (!in->creates[old->iface] && !in->def[old->iface]) {
    ERR(me->k[1]->span, "invalid rename: '%s' must belong to either created interfaces or bounded interfaces of the "
        "module", old->name);
    return NULL;
  }
  if (in->creates[nw->iface] || in->def[nw->iface]) {
    ERR(me->k[2]->span, "invalid rename: '%s' must not belong to created interfaces or bounded interfaces of the "
        "module", nw->name);
    return NULL;
  }
  ModInfo *m = info_copy(M, in, me->span);
  int o = old->iface, w = nw->iface;
  m->def[w] = m->def[o];
  m->def[o] = NULL;
  m->priv_if[w] = m->priv_if[o];
  m->priv_if[o] = 0;
  for (int k = 0; k < M->niface; k++) if (m->link[k] == o) m->link[k] = (uint16_t)w;
  for (int k = 0; k < M->nspec; k++)
    if (m->observed[k] && m->observed[k][o]) { m->observed[k][o] = 0; m->observed[k][w] = 1; }
  recompute_creates(M, m);
  return m;
}

/* What module expression me denotes, or NULL after its errors were
** reported (an operand's NULL makes the whole NULL).  A named module is
** evaluated once, its info shared; one defined in terms of itself, or an
** expression nested deeper than 200 (depth), is an error. */
static ModInfo *eval(Mod *M, Ast *me, int depth) {
  if (depth > 200) { ERR(me->span, "module expressions nest too deeply"); return NULL; }
  switch (me->kind) {
  case AST_M_NAME: {
    Ast *d = sema_module(M->p, me->name);
    if (!d) {
      Ast *g = sema_global(M->p, me->name);
      if (g && g->kind == AST_D_MACHINE)
        ERR(me->name_span, "could not find module '%s' (a module of machines is written in braces: { %s })",
            me->name, me->name);
      else ERR(me->name_span, "could not find module '%s'", me->name);
      return NULL;
    }
    me->decl = d;
    int k = d->slot;
    if (M->named_state[k] == 1) { ERR(me->name_span, "module '%s' is defined in terms of itself", me->name); return NULL; }
    if (M->named_state[k] == 0) {
      M->named_state[k] = 1;
      M->named[k] = eval(M, d->k[0], depth + 1);
      M->named_state[k] = 2;
    }
    return M->named[k];
  }
  case AST_M_SET: return eval_bindings(M, me);
  case AST_M_UNION: return eval_union(M, me, depth);
  case AST_M_ASSERT: return eval_assert(M, me, depth);
  case AST_M_HIDEE: return eval_hidee(M, me, depth);
  case AST_M_HIDEI: return eval_hidei(M, me, depth);
  case AST_M_RENAME: return eval_rename(M, me, depth);
  case AST_M_MAIN: return eval(M, me->k[1], depth + 1);   /* P ignores the machine named here */
  default: return NULL;
  }
}

/* ---------------------------------------------------------------------- */
/* Tests and implementations.                                             */

/* P's closed-module rule: every interface m creates is bound in m.  0
** after reporting the first that is not (what: "test" or
** "implementation"), else 1. */
static int check_closed(Mod *M, ModInfo *m, Span sp, const char *what) {
  for (int k = 0; k < M->niface; k++)
    if (m->creates[k] && !m->def[k]) {
      ERR(sp, "module not closed: %s module is not closed with respect to created interfaces; interface '%s' is "
          "created but not implemented inside the module", what, iface_name(M, k));
      return 0;
    }
  return 1;
}

/* A test or implementation t: its module evaluates and is closed, and
** what runs as a test case (a test, an implementation naming a main) has a
** main machine bound in it whose start entry takes no parameter.  Only
** then is t->info set to the module. */
static void check_test(Mod *M, Ast *t) {
  ModInfo *m = eval(M, t->k[1], 0);
  Ast *mainn = t->k[0];
  Ast *d = mainn ? sema_global(M->p, mainn->name) : NULL;
  if (mainn && (!d || d->kind != AST_D_MACHINE || (d->flags & AF_SPEC))) {
    if (!d) ERR(mainn->name_span, "could not find machine '%s'", mainn->name);
    else ERR(mainn->name_span, "'%s' is not a machine; the main machine of a test must be one", mainn->name);
    d = NULL;
  }
  if (d) mainn->decl = d;
  if (!m) return;
  if (!check_closed(M, m, t->span, t->kind == AST_D_TEST ? "test" : "implementation")) return;
  if (t->kind == AST_D_TEST || (t->kind == AST_D_IMPL && mainn)) {   /* what runs as a test case */
    if (!d) return;
    int found = 0;
    for (int k = 0; k < M->niface; k++) found |= m->def[k] == d;
    if (!found) {
      ERR(mainn->name_span, "illegal main machine: machine '%s' does not exist in the test module", d->name);
      return;
    }
    Ast *st0 = sema_start_state(d);
    Ast *ef = st0 ? sema_entry_fun(st0) : NULL;
    if (ef && ef->list.n) {
      ERR(mainn->name_span, "illegal main machine: main machine '%s' cannot take an input parameter in the entry "
          "function of the start state", d->name);
      return;
    }
  }
  t->info = m;
}

/* Declarations in source order: each named module (each D_MODULE's slot
** is its index in the root list, for M->named), each test and
** implementation.  The caches are freed; the ModInfos stay in the arena. */
int modules_check(Program *p, Diag *d) {
  int before = d->nerrors;
  Mod mod = {0};
  Mod *M = &mod;
  M->p = p;
  M->d = d;
  M->niface = p->ifaces.n;
  M->nev = p->nperm;
  M->nspec = p->specs.n;
  int nroot = p->root->list.n;
  M->mcreates = xcalloc((size_t)(M->niface ? M->niface : 1), sizeof(uint8_t *));
  M->msends = xcalloc((size_t)(M->niface ? M->niface : 1), sizeof(uint8_t *));
  M->named = xcalloc((size_t)(nroot ? nroot : 1), sizeof(ModInfo *));
  M->named_state = xcalloc((size_t)(nroot ? nroot : 1), sizeof(int));
  for (int i = 0; i < nroot; i++) {
    Ast *x = p->root->list.items[i];
    if (x->kind == AST_D_MODULE) x->slot = i;
  }
  for (int i = 0; i < nroot; i++) {
    Ast *x = p->root->list.items[i];
    if (x->kind == AST_D_MODULE) {
      if (!M->named_state[i]) {
        M->named_state[i] = 1;
        M->named[i] = eval(M, x->k[0], 0);
        M->named_state[i] = 2;
      }
    } else if (x->kind == AST_D_TEST || x->kind == AST_D_IMPL) {
      check_test(M, x);
    }
  }
  free(M->mcreates);
  free(M->msends);
  free(M->named);
  free(M->named_state);
  return d->nerrors - before;
}
