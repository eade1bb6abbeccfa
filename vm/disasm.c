/* disasm.c: --dump-bytecode.  Every function with its instructions, their
** operands (named where the program knows a name) and the source line
** each run of instructions came from. */
#include <config.h>
#include "vm/bytecode.h"
#include <string.h>


/* Function id: a header line, then one line per instruction (its offset,
** name and operands, with the name of the local's variable, callee, state,
** constant, event or interface where the program has one), and a
** "; file:line: text" line wherever the source line changes (fn supplies
** the text, at most 100 bytes, leading blanks dropped).  A bad opcode
** ends the listing of the function: the bytes after it cannot be split
** into instructions. */
static void disasm_fun(const BcProgram *p, uint32_t id, Buf *b, BcLineFn fn, void *ctx) {
  const BcFun *f = &p->funs[id];
  buf_printf(b, "fun %u %s (params %u, locals %u, stack %u)\n", id, f->name, f->nparams, f->nlocals, f->max_stack);
  const BcLoc *last = NULL;
  for (uint32_t pc = 0; pc < f->ncode;) {
    const BcLoc *l = bc_loc(f, pc);
    if (l && l != last && (!last || l->line != last->line || l->file != last->file)) {
      size_t n = 0;
      const char *text = fn ? fn(ctx, l->file, l->line, &n) : NULL;
      while (text && n && (*text == ' ' || *text == '\t')) { text++; n--; }
      if (text && n) buf_printf(b, "  ; %s:%u: %.*s\n", p->files[l->file], l->line, (int)(n > 100 ? 100 : n), text);
      else buf_printf(b, "  ; %s:%u\n", p->files[l->file], l->line);
    }
    last = l;
    Opcode op = (Opcode)f->code[pc];
    if (op >= OP__COUNT) { buf_printf(b, "  %5u  <bad opcode %u>\n", pc, op); break; }
    if (bc_op_operand[op] == OPK_NONE) buf_printf(b, "  %5u  %s", pc, bc_op_names[op]);
    else buf_printf(b, "  %5u  %-12s", pc, bc_op_names[op]);
    const uint8_t *a = f->code + pc + 1;
    uint16_t x, y;
    uint32_t u;
    int64_t i;
    double d;
    switch ((OperandKind)bc_op_operand[op]) {
    case OPK_NONE: break;
    case OPK_U8: buf_printf(b, " %u", a[0]); break;
    case OPK_U16:
      memcpy(&x, a, 2);
      buf_printf(b, " %u", x);
      if (op == OP_CALL && x < p->nfuns) buf_printf(b, "  ; %s", p->funs[x].name);
      if ((op == OP_LOAD_VAR || op == OP_STORE_VAR) && f->owner >= 0 && x < p->machines[f->owner].nvars)
        buf_printf(b, "  ; %s", p->machines[f->owner].var_names[x]);
      if ((op == OP_GOTO || op == OP_SET_STATE || op == OP_ENTER) && f->owner >= 0 &&
          x < p->machines[f->owner].nstates)
        buf_printf(b, "  ; %s", p->machines[f->owner].states[x].name);
      break;
    case OPK_U32:
      memcpy(&u, a, 4);
      buf_printf(b, " %u", u);
      if (op == OP_PUSH_CONST && u < p->nconsts) { buf_puts(b, "  ; "); val_print(b, &p->consts[u], NULL); }
      if (op == OP_PUSH_EVENT && u < p->nevents) buf_printf(b, "  ; %s", p->event_names[u]);
      break;
    case OPK_U16U16:
      memcpy(&x, a, 2);
      memcpy(&y, a + 2, 2);
      buf_printf(b, " %u %u", x, y);
      if (op == OP_NEW && x < p->nifaces) buf_printf(b, "  ; %s", p->iface_names[x]);
      break;
    case OPK_I64: memcpy(&i, a, 8); buf_printf(b, " %lld", (long long)i); break;
    case OPK_F64: memcpy(&d, a, 8); buf_printf(b, " %g", d); break;
    }
    buf_putc(b, '\n');
    pc += 1 + (uint32_t)bc_operand_size((OperandKind)bc_op_operand[op]);
  }
}

/* Machines and specs with their states and non-empty handler slots first,
** then every function; appends to b. */
void bc_disasm(const BcProgram *p, Buf *b, BcLineFn fn, void *ctx) {
  for (uint16_t m = 0; m < p->nmachines; m++) {
    const BcMachine *bm = &p->machines[m];
    buf_printf(b, "%s %u %s (vars %u, start %s)\n", bm->is_spec ? "spec" : "machine", m, bm->name, bm->nvars,
               bm->nstates ? bm->states[bm->start].name : "-");
    for (uint16_t s = 0; s < bm->nstates; s++) {
      const BcState *st = &bm->states[s];
      buf_printf(b, "  state %u %s%s%s entry %d exit %d\n", s, st->name, st->hot ? " hot" : "",
                 st->cold ? " cold" : "", st->entry, st->exit);
      for (uint32_t e = 0; e <= p->nevents; e++) {
        const BcHandler *h = &st->handlers[e];
        if (h->kind == BH_NONE) continue;
        const char *en = e == p->nevents ? "null" : p->event_names[e];
        static const char *const kinds[] = { "", "do", "goto", "defer", "ignore" };
        buf_printf(b, "    on %s %s", en, kinds[h->kind]);
        if (h->kind == BH_GOTO) buf_printf(b, " %s", bm->states[h->target].name);
        if (h->fun >= 0) buf_printf(b, " fun %d", h->fun);
        buf_putc(b, '\n');
      }
    }
  }
  for (uint32_t i = 0; i < p->nfuns; i++) disasm_fun(p, i, b, fn, ctx);
}
