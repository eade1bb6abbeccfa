/* bytecode.c: the opcode tables expanded from opcodes.def, locations, and
** freeing a program. */
#include <config.h>
#include "vm/bytecode.h"
#include <stdlib.h>

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

void bc_free(BcProgram *p) {
  if (!p) return;
  arena_free(p->arena);
  free(p);
}

const BcLoc *bc_loc(const BcFun *f, uint32_t pc) {
  if (!f->nlocs) return NULL;
  uint32_t lo = 0, hi = f->nlocs;
  while (hi - lo > 1) {
    uint32_t mid = (lo + hi) / 2;
    if (f->locs[mid].pc <= pc) lo = mid; else hi = mid;
  }
  return &f->locs[lo];
}
