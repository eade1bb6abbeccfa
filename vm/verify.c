/* verify.c: the bytecode verifier.  Checks every instruction of every
** function against the opcode table (operand sizes) and the program
** (local slots, constants, events, states, functions, jump targets on
** instruction boundaries), and the operand stack's depth at each
** instruction.  lang/codegen.c verifies every program it compiles (the
** depths are needed by vm_state_valid); a program that fails is a
** compiler bug. */
#include <config.h>
#include "vm/bytecode.h"
#include <stdlib.h>
#include <string.h>

const int8_t bc_op_pops[OP__COUNT] = {
#define OP(name, operand, pops, pushes, doc) pops,
#include "vm/opcodes.def"
#undef OP
};

const int8_t bc_op_pushes[OP__COUNT] = {
#define OP(name, operand, pops, pushes, doc) pushes,
#include "vm/opcodes.def"
#undef OP
};

/* Report a problem as "function at pc: what" into err (if not NULL);
** returns 0, so a check reads `ok = fail(...)`. */
static int fail(Buf *err, const BcFun *f, uint32_t pc, const char *what) {
  if (err) buf_printf(err, "%s at %u: %s", f->name, pc, what);
  return 0;
}

/* The fixed effects come from opcodes.def; the ones it marks -1 are read
** from the operands here: TUPLE and FORMAT pop their count, CHOOSE pops
** only for choose(n) and choose(c), ASSERT its condition and message, and
** CALL its callee's params (and pushes its result).  The instruction at
** pc must be whole (bc_verify checks that first). */
int bc_stack_effect(const BcProgram *p, const BcFun *f, uint32_t pc, int *pops, int *pushes) {
  uint8_t op = f->code[pc];
  const uint8_t *a = f->code + pc + 1;
  uint16_t x = 0, y = 0;
  if (bc_op_operand[op] == OPK_U16 || bc_op_operand[op] == OPK_U16U16) memcpy(&x, a, 2);
  if (bc_op_operand[op] == OPK_U16U16) memcpy(&y, a + 2, 2);
  *pops = bc_op_pops[op];
  *pushes = bc_op_pushes[op];
  switch ((Opcode)op) {
  case OP_TUPLE: case OP_FORMAT: *pops = y; break;
  case OP_CHOOSE: *pops = a[0] == 1 || a[0] == 2; break;   /* choose(n), choose(c): the operand */
  case OP_ASSERT: *pops = 1 + (x != 0); break;             /* the condition, and the message if any */
  case OP_CALL:
    if (x >= p->nfuns) return 0;
    *pops = p->funs[x].nparams;
    *pushes = p->funs[x].has_result != 0;
    break;
  default: break;
  }
  return *pops >= 0 && *pushes >= 0;
}

/* Where control goes after the instruction at pc (size bytes) of f: up
** to the receive table's cases; *fall is whether the next instruction
** follows.  Returns how many targets it wrote into to[] (at most cap). */
static uint32_t successors(const BcProgram *p, const BcFun *f, uint32_t pc, uint32_t size, int *fall,
                           uint32_t *to, uint32_t cap) {
  uint8_t op = f->code[pc];
  uint32_t n = 0, u;
  *fall = 1;
  switch ((Opcode)op) {
  case OP_JMP: *fall = 0; /* fall through */
  case OP_JMP_FALSE: case OP_JMP_TRUE:
    memcpy(&u, f->code + pc + 1, 4);
    to[n++] = u;
    break;
  case OP_RET: case OP_RET_VAL: case OP_RAISE: case OP_GOTO: *fall = 0; break;   /* the handler ends */
  case OP_RECEIVE: {   /* resumes at the case of the event dequeued, the operand stack as it was */
    uint16_t t;
    memcpy(&t, f->code + pc + 1, 2);
    *fall = 0;
    for (uint16_t c = 0; c < p->recvs[t].ncases && n < cap; c++) to[n++] = p->recvs[t].cases[c].pc;
    break;
  }
  default: break;
  }
  (void)size;
  return n;
}

/* The operand stack's depth at every instruction of f, by a walk from its
** start (depth 0) over every path; into depth[] (ncode entries,
** BC_NO_DEPTH where no path leads).  0, with the place in err, where two
** paths meet at different depths, an instruction would pop below the
** frame's base, or the depth would pass max_stack.  Expects start[]: the
** instruction starts (jump and case targets are checked against it). */
static int stack_depths(const BcProgram *p, const BcFun *f, const uint8_t *start, uint16_t *depth, Buf *err) {
  for (uint32_t i = 0; i < f->ncode; i++) depth[i] = BC_NO_DEPTH;
  uint32_t *work = malloc(((size_t)f->ncode + 1) * sizeof *work);
  uint32_t cap = 0, *to = NULL;
  for (uint32_t r = 0; r < p->nrecvs; r++) if (p->recvs[r].ncases > cap) cap = p->recvs[r].ncases;
  to = malloc(((size_t)cap + 2) * sizeof *to);   /* a jump and the next instruction, or the cases */
  int ok = work && to;
  if (!ok) fail(err, f, 0, "out of memory");
  uint32_t nwork = 0;
  if (ok && f->ncode) { depth[0] = 0; work[nwork++] = 0; }
  while (ok && nwork) {
    uint32_t pc = work[--nwork];
    uint8_t op = f->code[pc];
    uint32_t size = 1 + (uint32_t)bc_operand_size((OperandKind)bc_op_operand[op]);
    int pops, pushes, fall;
    if (!bc_stack_effect(p, f, pc, &pops, &pushes)) { ok = fail(err, f, pc, "bad stack effect"); break; }
    if (op == OP_RECEIVE) {   /* its cases are in this function */
      uint16_t t;
      memcpy(&t, f->code + pc + 1, 2);
      if (&p->funs[p->recvs[t].fun] != f) { ok = fail(err, f, pc, "receive table of another function"); break; }
    }
    if (pops > depth[pc]) { ok = fail(err, f, pc, "pops below the frame's operand stack"); break; }
    uint32_t d = depth[pc] - (uint32_t)pops + (uint32_t)pushes;
    if (d > f->max_stack || d >= BC_NO_DEPTH) { ok = fail(err, f, pc, "operand stack deeper than max_stack"); break; }
    uint32_t n = successors(p, f, pc, size, &fall, to, cap + 1);
    if (fall) to[n++] = pc + size;
    for (uint32_t k = 0; k < n && ok; k++) {
      uint32_t t = to[k];
      if (t >= f->ncode || !start[t]) { ok = fail(err, f, pc, "control leaves the code or enters an instruction"); break; }
      if (depth[t] == BC_NO_DEPTH) {
        depth[t] = (uint16_t)d;
        work[nwork++] = t;   /* each instruction is queued once: when its depth is first set */
      } else if (depth[t] != d) {
        ok = fail(err, f, t, "paths meet with different operand stack depths");
      }
    }
  }
  free(work);
  free(to);
  return ok;
}

/* Per function: the parameters fit the locals and the owner exists; one
** walk finds the instruction starts (each opcode known, its operands
** inside the code); the code ends with a return; every operand names
** something the program has; then the stack depths (stack_depths), which
** fill BcFun.depth for vm_state_valid.  Then every state's entry, exit,
** transition and handler functions exist.  Stops at the first problem. */
int bc_verify(BcProgram *p, Buf *err) {
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
    if (ok) {
      uint16_t *depth = arena_alloc_raw(p->arena, ((size_t)f->ncode + 1) * sizeof *depth);
      ok = stack_depths(p, f, start, depth, err);
      p->funs[fi].depth = depth;
    }
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
