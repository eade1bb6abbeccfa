/* verify.c: the bytecode verifier.  Checks every instruction of every
** function against the opcode table (operand sizes) and the program
** (local slots, constants, events, states, functions, jump targets on
** instruction boundaries).  The compiler's output is verified in debug
** builds and by the tests; a program that fails is a compiler bug. */
#include <config.h>
#include "vm/bytecode.h"
#include <stdlib.h>
#include <string.h>

const int8_t bc_op_pops[OP__COUNT] = {
#define OP(name, operand, pops, pushes, doc) pops,
#include "vm/opcodes.def"
#undef OP
};

static int fail(Buf *err, const BcFun *f, uint32_t pc, const char *what) {
  if (err) buf_printf(err, "%s at %u: %s", f->name, pc, what);
  return 0;
}

int bc_verify(const BcProgram *p, Buf *err) {
  for (uint32_t fi = 0; fi < p->nfuns; fi++) {
    const BcFun *f = &p->funs[fi];
    if (f->nparams > f->nlocals) return fail(err, f, 0, "more params than locals");
    if (f->owner >= (int32_t)p->nmachines) return fail(err, f, 0, "bad owner");
    const BcMachine *m = f->owner >= 0 ? &p->machines[f->owner] : NULL;
    /* Instruction starts, for jump targets. */
    uint8_t *start = calloc(f->ncode + 1, 1);
    if (!start) return fail(err, f, 0, "out of memory");
    int ok = 1;
    for (uint32_t pc = 0; pc < f->ncode && ok;) {
      uint8_t op = f->code[pc];
      if (op >= OP__COUNT) { ok = fail(err, f, pc, "bad opcode"); break; }
      start[pc] = 1;
      uint32_t size = 1 + (uint32_t)bc_operand_size((OperandKind)bc_op_operand[op]);
      if (pc + size > f->ncode) { ok = fail(err, f, pc, "operand past the end of the code"); break; }
      pc += size;
    }
    if (ok && (f->ncode == 0 || (f->code[f->ncode - 1] != OP_RET && f->code[f->ncode - 1] != OP_RET_VAL)))
      ok = fail(err, f, f->ncode, "the code does not end with a return");
    for (uint32_t pc = 0; pc < f->ncode && ok;) {
      uint8_t op = f->code[pc];
      const uint8_t *a = f->code + pc + 1;
      uint16_t x = 0, y = 0;
      uint32_t u = 0;
      if (bc_op_operand[op] == OPK_U16 || bc_op_operand[op] == OPK_U16U16) memcpy(&x, a, 2);
      if (bc_op_operand[op] == OPK_U16U16) memcpy(&y, a + 2, 2);
      if (bc_op_operand[op] == OPK_U32) memcpy(&u, a, 4);
      switch ((Opcode)op) {
      case OP_LOAD_LOCAL: case OP_STORE_LOCAL: if (x >= f->nlocals) ok = fail(err, f, pc, "local slot out of range"); break;
      case OP_LOAD_VAR: case OP_STORE_VAR: if (!m || x >= m->nvars) ok = fail(err, f, pc, "machine variable out of range"); break;
      case OP_LOAD_PARAM: if (x >= p->nparams) ok = fail(err, f, pc, "param out of range"); break;
      case OP_PUSH_CONST: if (u >= p->nconsts) ok = fail(err, f, pc, "constant out of range"); break;
      case OP_PUSH_EVENT: if (u >= p->nevents) ok = fail(err, f, pc, "event out of range"); break;
      case OP_JMP: case OP_JMP_FALSE: case OP_JMP_TRUE:
        if (u > f->ncode || (u < f->ncode && !start[u])) ok = fail(err, f, pc, "jump into the middle of an instruction");
        break;
      case OP_TUPLE: if (x >= p->nshapes || (x && p->shapes[x].n != y)) ok = fail(err, f, pc, "bad tuple shape"); break;
      case OP_CAST: if (u >= p->ntypes) ok = fail(err, f, pc, "type out of range"); break;
      case OP_CONVERT:
        if (x > CV_IDENTITY || (x == CV_INT_TO_ENUM && y >= p->nenums)) ok = fail(err, f, pc, "bad conversion");
        break;
      case OP_FORMAT: if (x >= p->nconsts || p->consts[x].tag != VT_STRING) ok = fail(err, f, pc, "format string"); break;
      case OP_CHOOSE: if (a[0] > 3) ok = fail(err, f, pc, "bad choice kind"); break;
      case OP_NEW: if (x >= p->nifaces) ok = fail(err, f, pc, "bad interface"); break;
      case OP_CALL: if (x >= p->nfuns) ok = fail(err, f, pc, "function out of range"); break;
      case OP_GOTO: case OP_SET_STATE: case OP_ENTER:
        if (!m || x >= m->nstates) ok = fail(err, f, pc, "state out of range");
        break;
      case OP_RECEIVE: if (x >= p->nrecvs) ok = fail(err, f, pc, "receive table out of range"); break;
      case OP_ASSERT: if (x > 1 || y >= p->nasserts) ok = fail(err, f, pc, "bad assert operands"); break;
      case OP_ASSERT_HELD: if (x >= p->nasserts) ok = fail(err, f, pc, "assert out of range"); break;
      default: break;
      }
      pc += 1 + (uint32_t)bc_operand_size((OperandKind)bc_op_operand[op]);
    }
    for (uint32_t r = 0; r < p->nrecvs && ok && fi == 0; r++)
      for (uint16_t c = 0; c < p->recvs[r].ncases; c++)
        if (p->recvs[r].cases[c].event > p->nevents) { ok = fail(err, f, 0, "receive case event out of range"); break; }
    free(start);
    if (!ok) return 0;
  }
  for (uint16_t mi = 0; mi < p->nmachines; mi++) {
    const BcMachine *m = &p->machines[mi];
    for (uint16_t s = 0; s < m->nstates; s++) {
      const BcState *st = &m->states[s];
      if (st->entry >= (int32_t)p->nfuns || st->exit >= (int32_t)p->nfuns || st->trans >= (int32_t)p->nfuns) {
        if (err) buf_printf(err, "%s.%s: function out of range", m->name, st->name);
        return 0;
      }
      for (uint32_t e = 0; e <= p->nevents; e++) {
        const BcHandler *h = &st->handlers[e];
        if ((h->kind == BH_DO || h->kind == BH_GOTO) && (h->fun < 0 || (uint32_t)h->fun >= p->nfuns)) {
          if (err) buf_printf(err, "%s.%s: handler out of range", m->name, st->name);
          return 0;
        }
      }
    }
  }
  return 1;
}
