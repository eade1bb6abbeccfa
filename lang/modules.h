/* modules.h: P's module system over a checked program (lang/modules.c).
** Ownership: ModInfos live in the Program's arena. */
#ifndef PCHECK_MODULES_H
#define PCHECK_MODULES_H
#include "lang/sema.h"

/* What a module expression denotes (P's ModuleInfo).  Interfaces are
** indexes in Program.ifaces, events are event ids (halt 0), specs are
** indexes in Program.specs. */
typedef struct ModInfo {
  Span span;             /* the module expression */
  int niface, nev, nspec; /* lengths of the per-interface, per-event (halt included) and per-spec arrays:
                            Program.ifaces.n, Program.nperm, Program.specs.n */
  Ast **def;             /* per interface: the machine bound to it, or NULL */
  uint16_t *link;        /* per interface: the interface `new` of it creates here (rename); itself by default */
  uint8_t *creates;      /* per interface: created by the bound machines' code (after links) */
  uint8_t *priv_if;      /* per interface: hidden with hidei */
  uint8_t *sends;        /* per event: sent by the bound machines */
  uint8_t *receives;     /* per event: received by the bound machines */
  uint8_t *priv_ev;      /* per event: hidden with hidee */
  uint8_t **observed;    /* per spec: NULL when not attached, else per interface whether the spec
                            observes the sends and announcements of machines created as it */
} ModInfo;

/* Evaluate every named module, test and implementation module; report P's
** errors to d; set each valid test's `info`.  Returns the number of errors. */
int modules_check(Program *p, Diag *d);

#endif
