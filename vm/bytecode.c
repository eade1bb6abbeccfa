/* bytecode.c: the opcode tables expanded from opcodes.def, locations,
** freeing a program, and its fingerprint (for checkpoints). */
#include <config.h>
#include "vm/bytecode.h"
#include <stdlib.h>
#include <string.h>
#include "vm/hash.h"

const char *const bc_op_names[OP__COUNT] = {
#define OP(name, operand, pops, pushes, doc) #name,
#include "vm/opcodes.def"
#undef OP
};

const uint8_t bc_op_operand[OP__COUNT] = {
#define OP(name, operand, pops, pushes, doc) OPK_##operand,
#include "vm/opcodes.def"
#undef OP
};

/* Bytes of an operand of kind k after its opcode byte. */
int bc_operand_size(OperandKind k) {
  switch (k) {
  case OPK_NONE: return 0;
  case OPK_U8: return 1;
  case OPK_U16: return 2;
  case OPK_U32: case OPK_U16U16: return 4;
  case OPK_I64: case OPK_F64: return 8;
  }
  return 0;
}

/* Everything a program points to is in its arena; NULL is allowed. */
void bc_free(BcProgram *p) {
  if (!p) return;
  arena_free(p->arena);
  free(p);
}

/* A binary search for the last location starting at or before pc; a pc
** before the first location gets the first one. */
const BcLoc *bc_loc(const BcFun *f, uint32_t pc) {
  if (!f->nlocs) return NULL;
  uint32_t lo = 0, hi = f->nlocs;
  while (hi - lo > 1) {
    uint32_t mid = (lo + hi) / 2;
    if (f->locs[mid].pc <= pc) lo = mid; else hi = mid;
  }
  return &f->locs[lo];
}

/* ---- The program's fingerprint ---- */

/* A string with its length first (NULL and "" differ), so that fields
** cannot run into each other and two programs give two byte streams. */
static void fp_str(Buf *b, const char *s) {
  uint32_t n = s ? (uint32_t)strlen(s) + 1 : 0;
  buf_append(b, &n, 4);
  if (n) buf_append(b, s, n - 1);
}

static void fp_u64(Buf *b, uint64_t v) { buf_append(b, &v, 8); }

/* A value: its tag, then its scalar or its encoding's bytes. */
static void fp_value(Buf *b, const Value *v) {
  fp_u64(b, v->tag);
  if (val_is_compound(v)) {
    fp_u64(b, v->len);
    buf_append(b, v->u.p, v->len);
  } else {
    fp_u64(b, (uint64_t)v->u.i);
  }
}

uint64_t bc_fingerprint(const BcProgram *p) {
  /* Everything that decides what a step does, one field after another in
  ** a buffer, then its hash: a program compiled again from the same
  ** sources gives the same bytes (the compiler is deterministic). */
  Buf b;
  buf_init(&b);
  fp_u64(&b, p->nevents);
  for (uint32_t i = 0; i < p->nevents; i++) fp_str(&b, p->event_names[i]);
  fp_u64(&b, p->nmachines);
  for (uint16_t m = 0; m < p->nmachines; m++) {
    const BcMachine *bm = &p->machines[m];
    fp_str(&b, bm->name);
    fp_u64(&b, (uint64_t)bm->is_spec << 16 | (uint64_t)bm->is_explorer << 8 | bm->is_scenario);
    fp_u64(&b, (uint64_t)bm->nvars << 32 | (uint64_t)bm->nstates << 16 | bm->start);
    for (uint16_t v = 0; v < bm->nvars; v++) {
      fp_str(&b, bm->var_names[v]);
      fp_value(&b, &bm->var_defaults[v]);
    }
    for (uint16_t s = 0; s < bm->nstates; s++) {
      const BcState *st = &bm->states[s];
      fp_str(&b, st->name);
      fp_u64(&b, (uint64_t)st->hot << 8 | st->cold);
      fp_u64(&b, (uint64_t)(uint32_t)st->entry << 32 | (uint32_t)st->exit);
      fp_u64(&b, (uint32_t)st->trans);
      for (uint32_t e = 0; e <= p->nevents; e++)
        fp_u64(&b, (uint64_t)st->handlers[e].kind << 48 | (uint64_t)st->handlers[e].target << 32 |
                       (uint32_t)st->handlers[e].fun);
    }
  }
  fp_u64(&b, p->nfuns);
  for (uint32_t f = 0; f < p->nfuns; f++) {
    const BcFun *fn = &p->funs[f];
    fp_str(&b, fn->name);
    fp_u64(&b, (uint64_t)(uint32_t)fn->owner << 32 | (uint64_t)fn->nparams << 16 | fn->nlocals);
    fp_u64(&b, fn->ncode);
    buf_append(&b, fn->code, fn->ncode);
  }
  fp_u64(&b, p->nconsts);
  for (uint32_t c = 0; c < p->nconsts; c++) fp_value(&b, &p->consts[c]);
  fp_u64(&b, p->nrecvs);
  for (uint32_t r = 0; r < p->nrecvs; r++) {
    fp_u64(&b, (uint64_t)p->recvs[r].ncases << 32 | (uint32_t)p->recvs[r].fun);
    for (uint16_t c = 0; c < p->recvs[r].ncases; c++)
      fp_u64(&b, (uint64_t)p->recvs[r].cases[c].event << 32 | p->recvs[r].cases[c].pc);
  }
  fp_u64(&b, p->ntypes);
  for (uint32_t t = 0; t < p->ntypes; t++) {
    fp_u64(&b, (uint64_t)p->types[t].kind << 32 | (uint64_t)p->types[t].id << 16 | p->types[t].n);
    for (uint16_t e = 0; e < p->types[t].n; e++) fp_u64(&b, p->types[t].elems[e]);
  }
  fp_u64(&b, (uint64_t)p->nenums << 32 | (uint64_t)p->nshapes << 16 | p->nifaces);
  for (uint16_t e = 0; e < p->nenums; e++)
    for (uint32_t k = 0; k < p->enums[e].n; k++) fp_u64(&b, (uint64_t)p->enums[e].values[k]);
  for (uint16_t i = 0; i < p->nifaces; i++) {
    fp_str(&b, p->iface_names[i]);
    fp_u64(&b, p->iface_self[i]);
  }
  fp_u64(&b, p->nparams);
  for (uint16_t i = 0; i < p->nparams; i++) fp_value(&b, &p->param_defaults[i]);
  uint64_t h = state_hash(b.data, b.len);
  buf_fini(&b);
  return h;
}
