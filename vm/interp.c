/* interp.c: the instruction loop.  vm_run executes a machine's or a
** spec's frames, one opcode per case (vm/opcodes.def documents each),
** until the activation completes, the machine reaches a scheduling point
** or a bug; what those mean for the State is vm/step.c's.  Also what
** running an event means (vm_dispatch: a machine's handler for it;
** vm_observe: the specs that observe it), which instructions and steps
** both need.  The VM's files are layers: state.c (State bytes, records,
** frames), text.c (names, logs, bugs), this file, then step.c; each
** calls only the ones before it.
** Semantics: P's, as doc/p-compatibility.md says ("Statements and their
** run-time meaning"). */
#include <config.h>
#include "vm/vm_impl.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------------- */
/* Frames and the operand stack.                                           */

/* Double the operand stack (256 Values at first).  vm_push calls it only
** when the stack is full; the stack may move, so nothing keeps a pointer
** into vm->stack across a push.  Out of memory aborts (xrealloc). */
__attribute__((noinline, cold)) void vm_grow_stack(Vm *vm) {
  vm->stack_cap = vm->stack_cap ? vm->stack_cap * 2 : 256;
  vm->stack = xrealloc(vm->stack, vm->stack_cap * sizeof(Value));
}

/* The top operand, taken off.  Unchecked: bc_verify proved that no
** instruction pops below its frame's base (BcFun.depth), and the debug
** build checks it again before each instruction. */
static Value pop(Vm *vm) { return vm->stack[--vm->nstack]; }

/* ---------------------------------------------------------------------- */
/* Runtime type checks (`as`).                                             */

/* Whether v has the runtime type ti (an index into BcProgram.types), for
** `as` (OP_CAST).  `any` takes everything; `data` takes every value with
** no machine id anywhere inside it; event, machine and machine-name types
** take null too; a machine-name type needs a machine of that type (read
** from the working machine's header, so the id must be below vm->nms); a
** named tuple needs its shape as well as its element types.  Collections
** are checked element by element, recursively: as deep as the value is
** nested (val_decode bounds that for values read from outside). */
static int conforms(Vm *vm, const Value *v, uint32_t ti) {
  const BcType *t = &vm->p->types[ti];
  switch (t->kind) {
  case BT_ANY: return 1;
  case BT_DATA: {
    if (v->tag == VT_MACHINE) return 0;
    if (v->tag == VT_TUPLE || v->tag == VT_SEQ || v->tag == VT_SET || v->tag == VT_MAP) {
      uint32_t n = v->tag == VT_TUPLE ? (uint32_t)val_tuple_count(v) : val_count(v);
      for (uint32_t i = 0; i < n; i++) {
        Value e = v->tag == VT_TUPLE ? val_tuple_get(v, (int)i) : val_nth(v, i);
        if (!conforms(vm, &e, ti)) return 0;
        if (v->tag == VT_MAP) {
          Value mv = val_map_nth_value(v, i);
          if (!conforms(vm, &mv, ti)) return 0;
        }
      }
    }
    return 1;
  }
  case BT_NULL: return v->tag == VT_NULL;
  case BT_BOOL: return v->tag == VT_BOOL;
  case BT_INT: return v->tag == VT_INT;
  case BT_FLOAT: return v->tag == VT_FLOAT;
  case BT_STRING: return v->tag == VT_STRING;
  case BT_EVENT: return v->tag == VT_EVENT || v->tag == VT_NULL;
  case BT_MACHINE: return v->tag == VT_MACHINE || v->tag == VT_NULL;
  case BT_MNAME:
    if (v->tag == VT_NULL) return 1;
    if (v->tag != VT_MACHINE || (uint64_t)v->u.i >= vm->nms) return 0;
    {
      WMachine *m = &vm->ms[v->u.i];
      uint16_t type = vs_hdr(m)->type;
      return type == t->id;
    }
  case BT_ENUM: return v->tag == VT_ENUM && v->aux == t->id;
  case BT_TUPLE: {
    if (v->tag != VT_TUPLE || val_tuple_count(v) != t->n) return 0;
    uint16_t shape = val_tuple_shape(v);
    if (shape != t->id) return 0;
    for (uint16_t i = 0; i < t->n; i++) {
      Value e = val_tuple_get(v, i);
      if (!conforms(vm, &e, t->elems[i])) return 0;
    }
    return 1;
  }
  case BT_SEQ: case BT_SET: {
    if (v->tag != (t->kind == BT_SEQ ? VT_SEQ : VT_SET)) return 0;
    uint32_t n = val_count(v);
    for (uint32_t i = 0; i < n; i++) {
      Value e = val_nth(v, i);
      if (!conforms(vm, &e, t->elems[0])) return 0;
    }
    return 1;
  }
  case BT_MAP: {
    if (v->tag != VT_MAP) return 0;
    uint32_t n = val_count(v);
    for (uint32_t i = 0; i < n; i++) {
      Value k = val_nth(v, i), x = val_map_nth_value(v, i);
      if (!conforms(vm, &k, t->elems[0]) || !conforms(vm, &x, t->elems[1])) return 0;
    }
    return 1;
  }
  }
  return 0;
}

/* The name of type ti as a failed cast reports it: a machine or enum type
** by its declared name, any other by its kind alone ("tuple", "map", not
** its element types).  Borrowed from the program or a static table. */
static const char *bctype_name(Vm *vm, uint32_t ti) {
  const BcType *t = &vm->p->types[ti];
  static const char *const names[] = { "any", "data", "null", "bool", "int", "float", "string", "event", "machine",
                                       "", "", "tuple", "seq", "set", "map" };
  if (t->kind == BT_MNAME) return vm->p->machines[t->id].name;
  if (t->kind == BT_ENUM) return vm->p->enums[t->id].name;
  return names[t->kind];
}

/* ---------------------------------------------------------------------- */
/* The interpreter.                                                        */

/* The string OP_FORMAT pushes: fmt (a string constant) with each `{i}`
** (i up to 9 decimal digits, below nargs) replaced by the text of args[i],
** a string without quotes, any other value as val_print writes it, names
** resolved through vm->names.  `{{` and `}}` are literal braces; any other
** brace, or `{i}` with i out of range, is copied as it stands.  The result
** lives in the step's arena; the scratch Buf is freed here. */
static Value format_string(Vm *vm, const Value *fmt, const Value *args, int nargs) {
  uint32_t n;
  const char *s = val_str(fmt, &n);
  Buf b;
  buf_init(&b);
  for (uint32_t i = 0; i < n; i++) {
    char c = s[i];
    if (c == '{' && i + 1 < n && s[i + 1] == '{') { buf_putc(&b, '{'); i++; continue; }
    if (c == '}' && i + 1 < n && s[i + 1] == '}') { buf_putc(&b, '}'); i++; continue; }
    if (c == '{') {
      uint32_t j = i + 1;
      long k = 0;
      int digits = 0;
      while (j < n && s[j] >= '0' && s[j] <= '9' && digits < 9) { k = k * 10 + (s[j] - '0'); j++; digits++; }
      if (digits && j < n && s[j] == '}' && k < nargs) {
        if (args[k].tag == VT_STRING) {
          uint32_t sl;
          const char *ss = val_str(&args[k], &sl);
          buf_append(&b, ss, sl);
        } else {
          val_print(&b, &args[k], &vm->names);
        }
        i = j;
        continue;
      }
    }
    buf_putc(&b, c);
  }
  Value r = val_string(&vm->va, b.data ? b.data : "", b.len);
  buf_fini(&b);
  return r;
}

/* -1, 0 or 1 as a is below, equal to or above b, for LT/LE/GT/GE: ints and
** floats numerically, strings bytewise (a prefix first).  A NaN compares
** equal to everything here, so the caller makes each comparison with one
** false; values of other kinds, or of two kinds, compare equal (the
** compiler orders only ints, floats and strings of one kind). */
static int cmp_values(const Value *a, const Value *b) {
  if (a->tag == VT_INT && b->tag == VT_INT) return a->u.i < b->u.i ? -1 : a->u.i > b->u.i;
  if (a->tag == VT_FLOAT && b->tag == VT_FLOAT) return a->u.f < b->u.f ? -1 : a->u.f > b->u.f;
  if (a->tag == VT_STRING && b->tag == VT_STRING) {
    uint32_t na, nb;
    const char *sa = val_str(a, &na), *sb = val_str(b, &nb);
    int c = memcmp(sa, sb, na < nb ? na : nb);
    return c ? c : (na < nb ? -1 : na > nb);
  }
  return 0;
}

/* Operands follow their opcode in the code, unaligned, in the host's byte
** order (lang/codegen.c writes them with memcpy); each FETCH moves the
** local pc past what it reads.  pc is written back into the frame (f->pc)
** before anything that may report a bug, suspend or push a frame.
** RUNTIME: a runtime error at this instruction (VM_BUG_RUNTIME; f->pc past
** it, where vm_set_bug_at looks one byte back for its location).
** SUSPEND_HERE: stop before this instruction (f->pc at its opcode) so that
** the step that resumes the machine runs it again: a CHOOSE, which then
** finds its choice made (Vm.have_choice); a RECEIVE, whose frame
** resume_receive (vm/step.c) moves on to the case taken. */
#define FETCH_U8() (code[pc++])
#define FETCH_U16(x) do { memcpy(&(x), code + pc, 2); pc += 2; } while (0)
#define FETCH_U32(x) do { memcpy(&(x), code + pc, 4); pc += 4; } while (0)
#define FETCH_I64(x) do { memcpy(&(x), code + pc, 8); pc += 8; } while (0)
#define RUNTIME(...) do { f->pc = pc; vm_set_bug_at(vm, VM_BUG_RUNTIME, f, __VA_ARGS__); return R_BUG; } while (0)
#define SUSPEND_HERE() do { f->pc = start_pc; return R_SUSPEND; } while (0)
/* Something would grow past a limit of VmTest (VM_LIMIT), at this instruction. */
#define LIMIT(...) do { f->pc = pc; vm_set_bug_at(vm, VM_LIMIT, f, __VA_ARGS__); return R_BUG; } while (0)

/* The code the compiler emits never applies an operation to a value of
** the wrong kind; a State that does (read from outside: vm_state_valid
** checks its encoding, not the declared type of every slot) stops with
** this runtime error instead of reading a value as what it is not. */
#define WRONG_TAG "cannot %s a value of this kind (a State not written by this program?)"

/* Does c have elements (a seq, set or map) or bytes (a string) to count? */
static int is_countable(const Value *c) {
  return c->tag == VT_SEQ || c->tag == VT_SET || c->tag == VT_MAP || c->tag == VT_STRING;
}

/* A collection just grown (r) against VmTest.max_collection: 0, or 1 past it. */
static int past_collection_limit(const Vm *vm, const Value *r) {
  return vm->t.max_collection && val_count(r) > vm->t.max_collection;
}

/* Run frames until the activation at `base` completes (R_DONE), the
** machine reaches a scheduling point (R_SUSPEND) or a bug (R_BUG). */
/* Frames [base, vm->nfr) are run by one loop, innermost first: a call
** pushes a frame and a return pops one without recursion; only the specs
** that a SEND or ANNOUNCE makes observe run in a nested vm_run, in frames
** stacked above (vm_observe).  On R_DONE every frame from base up has
** returned (vm->nfr == base; after a halt, 0); on R_SUSPEND the frames stay
** where they are for vs_save_frames, the top one's pc at the instruction
** to run next; on R_BUG vm->bug holds the bug, placed at the instruction
** that raised it, and the step is abandoned (its frames are of no further
** use).  The machine's working record (vm_who) is updated in place; the
** successor State is written later, by the caller (step_loaded in
** vm/step.c).
** Cases that push or pop frames write f->pc back first and `continue`:
** vm->fr and vm->locals may move, so f and L are taken again at the top of
** the loop; all the others `break` to the shared `f->pc = pc` below. */
int vm_run(Vm *vm, uint32_t base) {
  const BcProgram *P = vm->p;
  for (;;) {
    if (vm->nfr <= base) return R_DONE;
    Frame *f = &vm->fr[vm->nfr - 1];
    const BcFun *fn = &P->funs[f->fun];
    const uint8_t *code = fn->code;
    uint32_t pc = f->pc;
    uint32_t start_pc = pc;
    Value *L = vm->locals + f->lbase;
#ifdef PCHECK_DEBUG
    /* Debug builds: check the instruction against the opcode table. */
    if (code[pc] >= OP__COUNT ||
        pc + 1 + (uint32_t)bc_operand_size((OperandKind)bc_op_operand[code[pc]]) > fn->ncode ||
        (bc_op_pops[code[pc]] > 0 && vm->nstack - f->sbase < (uint32_t)bc_op_pops[code[pc]])) {
      fprintf(stderr, "pcheck: internal error: bad instruction at %s:%u\n", fn->name, pc);
      abort();
    }
#endif
    Opcode op = (Opcode)code[pc++];
    /* The step's budget (VmTest.max_step_instructions): past it, the step
    ** is taken for a loop that never ends, placed at this instruction. */
    if (__builtin_expect(++vm->work > vm->work_limit, 0)) {
      f->pc = pc;
      vm_set_bug_at(vm, VM_BUG_ENDLESS, f,
                    "the step did not finish within %llu instructions (--max-step-instructions): a loop that "
                    "never ends?", (unsigned long long)vm->work_limit);
      return R_BUG;
    }
    switch (op) {
    /* ---- Constants and slots (opcodes.def: NOP .. DUP) ----
    ** Push a constant, the running machine's id, a local of the frame, a
    ** variable of the machine, spec or explorer the frame runs for (vm_who),
    ** or a param of the test case; store into a local or variable; pop or
    ** duplicate the top.  Slots were checked against the function and the
    ** machine by bc_verify, so none of these can fail.  A store to a
    ** variable marks the record's variables dirty, so that vs_write encodes
    ** them again instead of copying the old bytes. */
    case OP_NOP: /* do nothing */ break;
    case OP_PUSH_NULL: /* push null */ vm_push(vm, val_null()); break;
    case OP_PUSH_BOOL: /* push imm as a bool */ vm_push(vm, val_bool(FETCH_U8())); break;
    case OP_PUSH_INT: { /* push imm as an int */
      int64_t x;
      FETCH_I64(x);
      vm_push(vm, val_int(x));
      break;
    }
    case OP_PUSH_FLOAT: { /* push imm as a float */
      double x;
      memcpy(&x, code + pc, 8);
      pc += 8;
      vm_push(vm, val_float(x));
      break;
    }
    case OP_PUSH_CONST: { /* push constant imm */
      uint32_t k;
      FETCH_U32(k);
      vm_push(vm, P->consts[k]);
      break;
    }
    case OP_PUSH_EVENT: { /* push event id imm */
      uint32_t k;
      FETCH_U32(k);
      vm_push(vm, val_event(k));
      break;
    }
    case OP_THIS: /* push the running machine's id */ vm_push(vm, val_machine(f->who)); break;
    case OP_LOAD_LOCAL: { uint16_t k; FETCH_U16(k); vm_push(vm, L[k]); break; }
    case OP_STORE_LOCAL: { uint16_t k; FETCH_U16(k); L[k] = pop(vm); break; }
    case OP_LOAD_VAR: { uint16_t k; FETCH_U16(k); vm_push(vm, vm_who(vm, f)->vars[k]); break; }
    case OP_STORE_VAR: {
      uint16_t k;
      FETCH_U16(k);
      WMachine *m = vm_who(vm, f);
      m->vars[k] = pop(vm);
      m->vars_dirty = 1;
      break;
    }
    case OP_LOAD_PARAM: { uint16_t k; FETCH_U16(k); vm_push(vm, vm->t.params[k]); break; }
    case OP_POP: /* drop the top value */ vm->nstack--; break;
    case OP_DUP: /* duplicate the top value */ vm_push(vm, vm->stack[vm->nstack - 1]); break;
    /* ---- Arithmetic (ADD .. NOT) ----
    ** Pop b, then a; push a op b.  Ints wrap around in 64 bits (computed as
    ** unsigned, so overflow is defined); dividing by -1 negates and its
    ** remainder is 0, which keeps INT64_MIN / -1 from trapping; dividing or
    ** taking the remainder by 0 is a runtime error.  Floats follow IEEE (a
    ** division by 0.0 is no error; fmod keeps the dividend's sign) and results
    ** are made canonical by val_float.  ADD of two strings concatenates;
    ** operands of any other kinds are a runtime error.  NEG and NOT trust the
    ** compiler's types: NEG takes a non-int for a float, NOT reads the
    ** payload word as a bool. */
    case OP_ADD: case OP_SUB: case OP_MUL: case OP_DIV: case OP_MOD: {
      /* int/float arithmetic; ADD also concatenates strings */
      Value b = pop(vm), a = pop(vm);
      if (a.tag == VT_INT && b.tag == VT_INT) {
        uint64_t x = (uint64_t)a.u.i, y = (uint64_t)b.u.i;
        int64_t r;
        switch (op) {
        case OP_ADD: r = (int64_t)(x + y); break;
        case OP_SUB: r = (int64_t)(x - y); break;
        case OP_MUL: r = (int64_t)(x * y); break;
        case OP_DIV:
          if (b.u.i == 0) RUNTIME("division by zero");
          r = b.u.i == -1 ? (int64_t)(0 - x) : a.u.i / b.u.i;
          break;
        default:
          if (b.u.i == 0) RUNTIME("remainder by zero");
          r = b.u.i == -1 ? 0 : a.u.i % b.u.i;
          break;
        }
        vm_push(vm, val_int(r));
      } else if (a.tag == VT_FLOAT && b.tag == VT_FLOAT) {
        double r = op == OP_ADD ? a.u.f + b.u.f : op == OP_SUB ? a.u.f - b.u.f : op == OP_MUL ? a.u.f * b.u.f
                 : op == OP_DIV ? a.u.f / b.u.f : fmod(a.u.f, b.u.f);
        vm_push(vm, val_float(r));
      } else if (op == OP_ADD && a.tag == VT_STRING && b.tag == VT_STRING) {
        vm_push(vm, val_concat(&vm->va, &a, &b));
      } else {
        RUNTIME("arithmetic on values of the wrong kind");
      }
      break;
    }
    case OP_NEG: { /* int/float negation */
      Value a = pop(vm);
      if (a.tag == VT_INT) vm_push(vm, val_int((int64_t)(0 - (uint64_t)a.u.i)));
      else vm_push(vm, val_float(-a.u.f));
      break;
    }
    case OP_NOT: { Value a = pop(vm); vm_push(vm, val_bool(!a.u.i)); break; }
    /* ---- Comparison and membership (LT .. IN) ----
    ** Pop b, then a, push a bool.  Order: cmp_values (a comparison with a
    ** NaN is false, as IEEE wants, even for LE and GE); equality is deep
    ** value equality, one memcmp of canonical encodings for compounds
    ** (val_equal).  IN: a set's elements and a map's keys are found in their
    ** sorted encoding (val_set_has, val_map_has), a seq's by a linear scan;
    ** x in a value that is no collection is false.  None raises a bug. */
    case OP_LT: case OP_LE: case OP_GT: case OP_GE: { /* ordered comparison */
      Value b = pop(vm), a = pop(vm);
      int c = cmp_values(&a, &b);
      int r = op == OP_LT ? c < 0 : op == OP_LE ? c <= 0 : op == OP_GT ? c > 0 : c >= 0;
      if (a.tag == VT_FLOAT && b.tag == VT_FLOAT && (isnan(a.u.f) || isnan(b.u.f))) r = 0;
      vm_push(vm, val_bool(r));
      break;
    }
    case OP_EQ: case OP_NE: { /* deep value equality */
      Value b = pop(vm), a = pop(vm);
      int eq = val_equal(&a, &b);
      vm_push(vm, val_bool(op == OP_EQ ? eq : !eq));
      break;
    }
    case OP_IN: { /* x is an element of seq/set c or a key of map c */
      Value c = pop(vm), x = pop(vm);
      int r = 0;
      if (c.tag == VT_SET) r = val_set_has(&c, &x);
      else if (c.tag == VT_MAP) r = val_map_has(&c, &x);
      else if (c.tag == VT_SEQ) {
        uint32_t n = val_count(&c);
        for (uint32_t i = 0; i < n && !r; i++) { Value e = val_nth(&c, i); r = val_equal(&e, &x); }
      }
      vm_push(vm, val_bool(r));
      break;
    }
    /* ---- Jumps (JMP, JMP_FALSE, JMP_TRUE) ----
    ** Targets are code offsets in the same function, checked to start an
    ** instruction by bc_verify; the conditional ones pop a bool. */
    case OP_JMP: { uint32_t t; FETCH_U32(t); pc = t; break; }
    case OP_JMP_FALSE: { uint32_t t; FETCH_U32(t); if (!pop(vm).u.i) pc = t; break; }
    case OP_JMP_TRUE: { uint32_t t; FETCH_U32(t); if (pop(vm).u.i) pc = t; break; }
    /* ---- Tuples (TUPLE, TGET, TSET) ----
    ** TUPLE encodes the top n values, in order, as one tuple (in the step's
    ** arena) in their place.  TGET and TSET read or replace element imm;
    ** TSET builds a new tuple (values are immutable: a nested assignment is
    ** a chain of such rebuilds, doc/vm.md).  A value that is no tuple, or
    ** has no element imm, is a runtime error (only a State not written by
    ** this program can give one). */
    case OP_TUPLE: { /* pop n values; push a tuple of shape imm1 */
      uint16_t shape, n;
      FETCH_U16(shape);
      FETCH_U16(n);
      vm->nstack -= n;
      Value t = val_tuple(&vm->va, shape, vm->stack + vm->nstack, n);
      vm_push(vm, t);
      break;
    }
    case OP_TGET: { /* element imm of a tuple */
      uint16_t i;
      FETCH_U16(i);
      Value t = pop(vm);
      if (t.tag != VT_TUPLE || i >= val_tuple_count(&t)) RUNTIME("tuple element %u of a value that does not have it", i);
      vm_push(vm, val_tuple_get(&t, i));
      break;
    }
    case OP_TSET: { /* t with element imm replaced by x */
      uint16_t i;
      FETCH_U16(i);
      Value x = pop(vm), t = pop(vm);
      if (t.tag != VT_TUPLE || i >= val_tuple_count(&t)) RUNTIME("tuple element %u of a value that does not have it", i);
      vm_push(vm, val_tuple_set(&vm->va, &t, i, &x));
      break;
    }
    /* ---- Collections (INDEX .. NTH) ----
    ** Each pops its operands (the collection deepest) and pushes one
    ** result; a changed collection is a new encoding in the step's arena,
    ** the operand itself is never modified.  Runtime errors (VM_BUG_RUNTIME):
    ** a seq index or insert position out of range, a missing map key
    ** (INDEX), a key already there (INSERT), a set index out of range, and
    ** an operand of the wrong kind (WRONG_TAG).  A seq index is read as an
    ** int without a tag check: the compiler gives only ints there.  A seq,
    ** set or map that would grow past VmTest.max_collection elements stops
    ** the step with VM_LIMIT instead (ISET on a map, INSERT, ADD_ELEM).
    ** Removing an absent key or element is no error (the value is
    ** unchanged).  SIZEOF counts elements, or a string's bytes; NTH is the
    ** i-th element (a map: key) in iteration order, for foreach. */
    case OP_INDEX: { /* seq c[k] or map c[k] */
      Value k = pop(vm), c = pop(vm), r;
      if (c.tag == VT_SEQ) {
        if (!val_seq_get(&c, k.u.i, &r))
          RUNTIME("index %lld is out of range for a seq of %u elements", (long long)k.u.i, val_count(&c));
      } else if (c.tag == VT_MAP) {
        if (!val_map_get(&c, &k, &r)) RUNTIME("key %s is not in the map", vm_value_text(vm, &k));
      } else if (c.tag == VT_SET) {
        /* the k-th element in the set's canonical (sorted) order */
        if (k.u.i < 0 || k.u.i >= (int64_t)val_count(&c))
          RUNTIME("index %lld is out of range for a set of %u elements", (long long)k.u.i, val_count(&c));
        r = val_nth(&c, (uint32_t)k.u.i);
      } else {
        RUNTIME("indexing a value that is not a seq, a set or a map");
      }
      vm_push(vm, r);
      break;
    }
    case OP_ISET: { /* c with c[k] = x */
      Value x = pop(vm), k = pop(vm), c = pop(vm), r;
      if (c.tag == VT_SEQ) {
        if (!val_seq_set(&vm->va, &c, k.u.i, &x, &r))
          RUNTIME("index %lld is out of range for a seq of %u elements", (long long)k.u.i, val_count(&c));
      } else if (c.tag == VT_MAP) {
        r = val_map_put(&vm->va, &c, &k, &x);
        if (past_collection_limit(vm, &r))
          LIMIT("a map would hold more than %u entries (--max-collection)", vm->t.max_collection);
      } else {
        RUNTIME("indexing a value that is not a seq or a map");
      }
      vm_push(vm, r);
      break;
    }
    case OP_INSERT: { /* seq insert at k, or new map key */
      Value x = pop(vm), k = pop(vm), c = pop(vm), r;
      if (c.tag == VT_SEQ) {
        if (!val_seq_insert(&vm->va, &c, k.u.i, &x, &r))
          RUNTIME("insert position %lld is out of range for a seq of %u elements", (long long)k.u.i, val_count(&c));
      } else if (c.tag == VT_MAP) {
        if (val_map_has(&c, &k)) RUNTIME("key %s is already in the map", vm_value_text(vm, &k));
        r = val_map_put(&vm->va, &c, &k, &x);
      } else {
        RUNTIME(WRONG_TAG, "insert into");
      }
      if (past_collection_limit(vm, &r))
        LIMIT("a %s would hold more than %u elements (--max-collection)", c.tag == VT_SEQ ? "seq" : "map",
              vm->t.max_collection);
      vm_push(vm, r);
      break;
    }
    case OP_ADD_ELEM: { /* set s with x */
      Value x = pop(vm), s = pop(vm);
      if (s.tag != VT_SET) RUNTIME(WRONG_TAG, "add an element to");
      Value r = val_set_add(&vm->va, &s, &x);
      if (past_collection_limit(vm, &r))
        LIMIT("a set would hold more than %u elements (--max-collection)", vm->t.max_collection);
      vm_push(vm, r);
      break;
    }
    case OP_REMOVE: { /* without index k (seq) or key/element k */
      Value k = pop(vm), c = pop(vm), r;
      if (c.tag == VT_SEQ) {
        if (!val_seq_remove(&vm->va, &c, k.u.i, &r))
          RUNTIME("index %lld is out of range for a seq of %u elements", (long long)k.u.i, val_count(&c));
      } else if (c.tag == VT_SET) {
        r = val_set_remove(&vm->va, &c, &k);
      } else if (c.tag == VT_MAP) {
        r = val_map_remove(&vm->va, &c, &k);
      } else {
        RUNTIME(WRONG_TAG, "remove from");
      }
      vm_push(vm, r);
      break;
    }
    case OP_KEYS: case OP_VALUES: { /* the keys or the values of map m, as a seq */
      Value m = pop(vm);
      if (m.tag != VT_MAP) RUNTIME(WRONG_TAG, op == OP_KEYS ? "take the keys of" : "take the values of");
      vm_push(vm, op == OP_KEYS ? val_map_keys(&vm->va, &m) : val_map_values(&vm->va, &m));
      break;
    }
    case OP_SIZEOF: { /* elements of a seq, set or map; bytes of a string */
      Value c = pop(vm);
      if (!is_countable(&c)) RUNTIME(WRONG_TAG, "take the size of");
      vm_push(vm, val_int(val_count(&c)));
      break;
    }
    case OP_NTH: { /* element i of c in iteration order */
      Value i = pop(vm), c = pop(vm);
      if (!is_countable(&c) || c.tag == VT_STRING || i.u.i < 0 || i.u.i >= (int64_t)val_count(&c))
        RUNTIME(WRONG_TAG, "iterate over");
      vm_push(vm, val_nth(&c, (uint32_t)i.u.i));
      break;
    }
    /* ---- Types and strings (CAST, CONVERT, FORMAT) ----
    ** CAST leaves the top value where it is when it conforms to type imm
    ** and is otherwise a runtime error (a failed `as`) naming value and
    ** type.  CONVERT is `to`: int or enum to float, enum to int, float to int
    ** (truncating; a float outside int64's range, or a NaN, is a runtime
    ** error), int to enum eid (a value no member has is a runtime error);
    ** CV_IDENTITY leaves the value as it is.  FORMAT pops imm2 arguments and
    ** pushes the formatted string (format_string). */
    case OP_CAST: { /* v if it has type imm */
      uint32_t ti;
      FETCH_U32(ti);
      Value v = vm->stack[vm->nstack - 1];
      if (!conforms(vm, &v, ti)) RUNTIME("cannot cast %s to %s", vm_value_text(vm, &v), bctype_name(vm, ti));
      break;
    }
    case OP_CONVERT: { /* 'to' conversions */
      uint16_t mode, eid;
      FETCH_U16(mode);
      FETCH_U16(eid);
      Value v = pop(vm);
      switch (mode) {
      case CV_INT_TO_FLOAT: vm_push(vm, val_float((double)v.u.i)); break;
      case CV_ENUM_TO_FLOAT: vm_push(vm, val_float((double)v.u.i)); break;
      case CV_ENUM_TO_INT: vm_push(vm, val_int(v.u.i)); break;
      case CV_FLOAT_TO_INT:
        if (!(v.u.f >= -9.2233720368547758e18 && v.u.f < 9.2233720368547758e18))
          RUNTIME("float %g cannot be converted to int", v.u.f);
        vm_push(vm, val_int((int64_t)v.u.f));
        break;
      case CV_INT_TO_ENUM: {
        const BcEnum *be = &P->enums[eid];
        int ok = 0;
        for (uint32_t i = 0; i < be->n && !ok; i++) ok = be->values[i] == v.u.i;
        if (!ok) RUNTIME("no member of enum %s has the value %lld", be->name, (long long)v.u.i);
        vm_push(vm, val_enum(eid, v.u.i));
        break;
      }
      default: vm_push(vm, v); break;
      }
      break;
    }
    case OP_FORMAT: { /* constant string with {i} replaced by args */
      uint16_t k, n;
      FETCH_U16(k);
      FETCH_U16(n);
      vm->nstack -= n;
      Value r = format_string(vm, &P->consts[k], vm->stack + vm->nstack, n);
      vm_push(vm, r);
      break;
    }
    /* ---- Data choice (CHOOSE; doc/vm.md, "The API") ----
    ** In a machine the first run of a CHOOSE checks its operand, records the
    ** choice in the working header (kind + 1, the machine, the number of
    ** options) and suspends before the instruction, operand still on the
    ** stack: the successor State is a VC_DATA state.  The step that makes
    ** the choice restores the frames with Vm.have_choice set and runs the
    ** CHOOSE again, which now pops the operand and pushes the option taken
    ** (false/true; the int; the element in canonical order), logs it and
    ** records VE_CHOICE.  choose(0) is 0 with no choice at all, as in P.
    ** Runtime errors: a negative count, more than 10,000 options, an empty
    ** collection, a spec that chooses, and, on resumption, an operand that
    ** is missing or a collection too small for the option (a State from
    ** outside).  In an explorer (spec == 2) it is a draw from the
    ** explorer's own seeded random numbers (vm_explorer_random), never a
    ** choice point. */
    case OP_CHOOSE: { /* data choice point: imm 0 = bool ($, choose()); 1 = pop n, int in [0,n); 2 = pop c, element of c; 3 = fair bool ($$) */
      uint8_t kind = FETCH_U8();
      int boolean = kind == 0 || kind == 3;
      if (f->spec == 2) {   /* an explorer: a seeded random draw, not a choice point */
        uint32_t n = 2;
        Value c = {0};
        if (kind == 1 && vm->stack[vm->nstack - 1].u.i == 0) break;   /* choose(0) is 0, as P */
        if (kind == 1) {
          Value x = pop(vm);
          if (x.u.i < 0) RUNTIME("choose(%lld): a negative number of choices", (long long)x.u.i);
          if (x.u.i > 10000) RUNTIME("choose(%lld): choose takes at most 10000 choices", (long long)x.u.i);
          n = (uint32_t)x.u.i;
        } else if (kind == 2) {
          c = pop(vm);
          n = val_count(&c);
          if (n == 0) RUNTIME("choose from an empty collection");
        }
        uint32_t k = (uint32_t)(vm_explorer_random(&vm->ex_rng) % n);
        vm_push(vm, boolean ? val_bool((int)k) : kind == 1 ? val_int(k) : val_nth(&c, k));
        break;
      }
      if (f->spec) RUNTIME("a spec made a nondeterministic choice");
      if (!vm->have_choice) {
        uint32_t n = 2;
        if (kind == 1 && vm->stack[vm->nstack - 1].u.i == 0) break;   /* choose(0) is 0, as P: no choice */
        if (kind == 1) {
          Value x = vm->stack[vm->nstack - 1];
          if (x.u.i < 0) RUNTIME("choose(%lld): a negative number of choices", (long long)x.u.i);
          if (x.u.i > 10000) RUNTIME("choose(%lld): choose takes at most 10000 choices", (long long)x.u.i);
          n = (uint32_t)x.u.i;
        } else if (kind == 2) {
          Value c = vm->stack[vm->nstack - 1];
          n = val_count(&c);
          if (n == 0) RUNTIME("choose from an empty collection");
          if (n > 10000) RUNTIME("choose from a collection of %u elements: choose takes at most 10000 choices", n);
        }
        vm->hdr.choice_kind = (uint16_t)(kind + 1);   /* 4: the fair bool of $$ */
        vm->hdr.choice_machine = f->who;
        vm->hdr.choice_n = n;
        SUSPEND_HERE();
      }
      vm->have_choice = 0;
      /* Resumed from a State: the operand the choice was made over must be
      ** there, and hold the choice (one read from outside may not). */
      if (!boolean) {
        const Value *over = vm->nstack > f->sbase ? &vm->stack[vm->nstack - 1] : NULL;
        if (!over || (kind == 2 && (!is_countable(over) || over->tag == VT_STRING || vm->choice_val >= val_count(over))))
          RUNTIME(WRONG_TAG, "choose from");
      }
      Value r;
      if (boolean) r = val_bool((int)vm->choice_val);
      else if (kind == 1) { vm->nstack--; r = val_int(vm->choice_val); }
      else { Value c = pop(vm); r = val_nth(&c, vm->choice_val); }
      if (vm->log) {
        Buf vb;
        buf_init(&vb);
        val_print(&vb, &r, &vm->names);
        logf_(vm, "<RandomLog> '%s' nondeterministically chose '%s'.", vm_machine_text(vm, f->who), vb.data);
        buf_fini(&vb);
      }
      vm_note(vm, VE_CHOICE, f->who, 0, 0, 0, 0, r);
      vm_push(vm, r);
      break;
    }
    /* ---- Creation (NEW) ----
    ** Pop the payload; create the machine the test binds interface imm1 to
    ** (through VmTest.link, then VmTest.bind or the interface's own
    ** machine), as a new working record with its start entry pending
    ** (MF_START, the payload kept for it); push its id; suspend after the
    ** instruction: a `new` is a scheduling point.  Runtime error: no machine
    ** implements the interface in this test, or an explorer creates;
    ** VM_LIMIT past VmTest.max_machines.  Specs cannot reach a NEW (the
    ** compiler refuses `new` in a spec, lang/sema.c). */
    case OP_NEW: { /* create a machine; scheduling point */
      if (f->spec == 2) RUNTIME("an explorer cannot create machines");
      uint16_t iface, has;
      FETCH_U16(iface);
      FETCH_U16(has);
      (void)has;
      /* The test's module decides which machine an interface creates. */
      if (vm->t.link) iface = vm->t.link[iface];
      uint16_t type = vm->t.bind ? vm->t.bind[iface] : P->iface_self[iface];
      if (type == BC_NO_MACHINE) RUNTIME("no machine implements interface '%s' in this test", P->iface_names[iface]);
      Value payload = pop(vm);
      if (vm->t.max_machines && vm->nms >= vm->t.max_machines)
        LIMIT("a State would hold more than %u machines (--max-machines)", vm->t.max_machines);
      uint32_t id;
      WMachine *m = vm_new_record(vm, type, 0, &id);
      m->h.flags = MF_START;
      m->h.iface = iface;
      m->pend_payload = payload;
      vm->foot.created = 1;
      f = &vm->fr[vm->nfr - 1];
      logf_(vm, "<CreateLog> '%s' was created by '%s'.", vm_machine_text(vm, id), vm_machine_text(vm, f->who));
      vm_note(vm, VE_CREATE, id, f->who, 0, 0, 0, payload);
      vm_push(vm, val_machine(id));
      f->pc = pc;
      return R_SUSPEND;
    }
    /* ---- Calls (CALL, RET, RET_VAL) ----
    ** CALL pushes a frame for function imm in the same activation (same
    ** machine, same base), its params popped from the caller's operands
    ** into its first locals; more than 10,000 frames is a runtime error
    ** (unbounded recursion).  RET and RET_VAL drop the frame's operands and
    ** locals, pop it, and push the result (RET_VAL) for the caller; the
    ** return of the activation's first frame ends the run (R_DONE). */
    case OP_CALL: { /* call function imm */
      uint16_t k;
      FETCH_U16(k);
      f->pc = pc;
      if (vm->nfr > 10000) RUNTIME("call stack overflow (more than 10000 nested calls)");
      vm_push_frame(vm, k, f->who, f->spec, f->base, NULL);
      continue;
    }
    case OP_RET: case OP_RET_VAL: { /* return */
      Value r = op == OP_RET_VAL ? pop(vm) : val_null();
      vm->nstack = f->sbase;
      vm->nlocals = f->lbase;
      vm->nfr--;
      if (op == OP_RET_VAL) vm_push(vm, r);
      continue;
    }
    /* ---- Sending (SEND) ----
    ** Pop payload, event, target.  Runtime errors: a target that is null
    ** or no machine of the State, a null event, an event outside the
    ** sender's `sends` clause or outside the receive set of the interface
    ** the target was created as (P's permissions), an explorer that sends.
    ** Then, in P's order: log, note and mark coverage, let the observing
    ** specs run (vm_observe: their bugs are this step's), and only then
    ** deliver.  A send that would take the target's inbox past
    ** VmTest.max_inbox is VM_LIMIT, or VM_BUG_INBOX with inbox_bug; a send
    ** to a halted machine is dropped (VE_DROP).  A decoded target gets the
    ** event in its inbox; an undecoded one gets it in its appended list, so
    ** that vs_write appends it to the record's bytes without decoding them.
    ** The footprint names the target (reduction, doc/reduction.md); the
    ** machine suspends after the instruction: a send is a scheduling point.
    ** Specs cannot send (lang/sema.c refuses it), so the frame is a
    ** machine's and vm->ms[f->who] is the sender. */
    case OP_SEND: { /* specs observe; enqueue; scheduling point */
      if (f->spec == 2) RUNTIME("an explorer cannot send");
      Value payload = pop(vm), ev = pop(vm), target = pop(vm);
      if (target.tag != VT_MACHINE) RUNTIME("send to null");
      if (ev.tag != VT_EVENT) RUNTIME("send of a null event");
      if ((uint64_t)target.u.i >= vm->nms) RUNTIME("send to an unknown machine");
      f->pc = pc;
      uint32_t me = f->who;
      WMachine *sender = &vm->ms[me];
      WMachine *tm = &vm->ms[target.u.i];
      /* P's permissions: the sender's sends clause, the receives of the
      ** interface the target was created as. */
      const uint8_t *sends = P->machines[sender->h.type].sends;
      if (sends && !sends[ev.u.i])
        RUNTIME("event '%s' is not in the sends set of machine '%s'", vm_event_name(vm, (uint32_t)ev.u.i),
                P->machines[sender->h.type].name);
      uint16_t tif = vs_hdr(tm)->iface;
      if (P->iface_recv[tif] && !P->iface_recv[tif][ev.u.i])
        RUNTIME("event '%s' is not in the permissions set of the target machine '%s' (interface '%s' receives "
                "only the events it lists)", vm_event_name(vm, (uint32_t)ev.u.i), vm_machine_text(vm, (uint32_t)target.u.i),
                P->iface_names[tif]);
      logf_(vm, "<SendLog> '%s' in state '%s' sent event '%s' to '%s'.", vm_machine_text(vm, me), vm_state_name(vm, sender),
            vm_event_text(vm, (uint32_t)ev.u.i, &payload), vm_machine_text(vm, (uint32_t)target.u.i));
      vm_note(vm, VE_SEND, me, (uint32_t)target.u.i, (uint32_t)ev.u.i, sender->h.state, 0, payload);
      vm_cov_mark_event(vm, sender->h.type, VCOV_SENT, sender->h.state, (uint32_t)ev.u.i);
      vm->foot.target = (uint32_t)target.u.i;
      if (vm_observe(vm, (uint32_t)ev.u.i, payload, sender->h.iface) == R_BUG) return R_BUG;
      tm = &vm->ms[target.u.i];
      uint16_t tflags = vs_hdr(tm)->flags;
      if (vm->t.max_inbox && !(tflags & MF_HALTED) &&
          (tm->decoded ? tm->h.ninbox : vs_hdr(tm)->ninbox + tm->nappended) >= vm->t.max_inbox) {
        f->pc = pc;
        if (vm->t.inbox_bug)
          vm_set_bug_at(vm, VM_BUG_INBOX, f, "the send would make the inbox of '%s' hold more than %u events (--max-inbox)",
                        vm_machine_text(vm, (uint32_t)target.u.i), vm->t.max_inbox);
        else
          vm_set_bug_at(vm, VM_LIMIT, f, "the send would make the inbox of '%s' hold more than %u events (--max-inbox: "
                        "a bound of pcheck's, P's inboxes have none; --inbox-overflow-is-bug makes it a bug)",
                        vm_machine_text(vm, (uint32_t)target.u.i), vm->t.max_inbox);
        return R_BUG;
      }
      if (tflags & MF_HALTED) {
        logf_(vm, "<SendLog> '%s' is halted; the event is dropped.", vm_machine_text(vm, (uint32_t)target.u.i));
        vm_note(vm, VE_DROP, me, (uint32_t)target.u.i, (uint32_t)ev.u.i, 0, 0, payload);
      } else if (tm->decoded) {
        vs_enqueue(vm, tm, (uint32_t)ev.u.i, payload);
      } else {
        if (!tm->nappended) vs_touch(vm, tm);
        if (tm->nappended == tm->appended_cap) {
          uint32_t cap = tm->appended_cap * 2 + 4;
          InboxEntry *n = valarena_alloc(&vm->va, cap * sizeof(InboxEntry));
          if (tm->nappended) memcpy(n, tm->appended, tm->nappended * sizeof(InboxEntry));
          tm->appended = n;
          tm->appended_cap = cap;
        }
        tm->appended[tm->nappended].event = (uint32_t)ev.u.i;
        tm->appended[tm->nappended++].payload = payload;
      }
      return R_SUSPEND;
    }
    /* ---- Announcing (ANNOUNCE) ----
    ** Pop payload, event; the specs that observe the event from the
    ** machine's interface run at once (vm_observe); no inbox changes and the
    ** machine runs on.  Runtime error: a null event, an explorer. */
    case OP_ANNOUNCE: { /* specs observe */
      if (f->spec == 2) RUNTIME("an explorer cannot announce");
      Value payload = pop(vm), ev = pop(vm);
      if (ev.tag != VT_EVENT) RUNTIME("announce of a null event");
      f->pc = pc;
      logf_(vm, "<AnnounceLog> '%s' announced event '%s'.", vm_machine_text(vm, f->who), vm_event_text(vm, (uint32_t)ev.u.i, &payload));
      vm_note(vm, VE_ANNOUNCE, f->who, 0, (uint32_t)ev.u.i, 0, 0, payload);
      if (vm_observe(vm, (uint32_t)ev.u.i, payload, vm->ms[f->who].h.iface) == R_BUG) return R_BUG;
      continue;
    }
    /* ---- Raise and goto (RAISE, GOTO) ----
    ** Both end the handler: every frame of the activation (from f->base
    ** up) is dropped with its operands and locals.  RAISE then dispatches
    ** the event in the current state at the same base (vm_dispatch: the
    ** handler's frame is pushed, the event ignored, the machine halted, or
    ** VM_BUG_UNHANDLED when no handler takes it); a machine that halted
    ** there has nothing more to run.  GOTO pushes target state imm's
    ** transition function (BcState.trans), which runs EXIT_STATE, SET_STATE
    ** and ENTER with the payload (doc/vm.md).  Specs may raise and goto;
    ** explorers may not (runtime error). */
    case OP_RAISE: { /* end the handler; handle the event now */
      if (f->spec == 2) RUNTIME("an explorer cannot raise");
      Value payload = pop(vm), ev = pop(vm);
      if (ev.tag != VT_EVENT) RUNTIME("raise of a null event");
      f->pc = pc;
      uint32_t w = f->who, abase = f->base;
      int spec = f->spec;
      WMachine *m = vm_who(vm, f);
      if (spec) logf_(vm, "<MonitorLog> %s raised event '%s' in state '%s'.", P->machines[m->h.type].name,
                      vm_event_text(vm, (uint32_t)ev.u.i, &payload), vm_state_name(vm, m));
      else logf_(vm, "<RaiseLog> '%s' raised event '%s' in state '%s'.", vm_machine_text(vm, w),
                 vm_event_text(vm, (uint32_t)ev.u.i, &payload), vm_state_name(vm, m));
      vm_note(vm, VE_RAISE, w, 0, (uint32_t)ev.u.i, m->h.state, spec, payload);
      vm_cov_mark_event(vm, m->h.type, VCOV_SENT, m->h.state, (uint32_t)ev.u.i);
      Frame *b0 = &vm->fr[abase];
      vm->nstack = b0->sbase;
      vm->nlocals = b0->lbase;
      vm->nfr = abase;
      if (vm_dispatch(vm, w, spec, (uint32_t)ev.u.i, payload, abase, 1) == R_BUG) return R_BUG;
      if (vm->halted_now && !spec) { vm->nfr = 0; return R_DONE; }
      continue;
    }
    case OP_GOTO: { /* end the handler; exit; enter state imm */
      if (f->spec == 2) RUNTIME("an explorer cannot goto");
      uint16_t s;
      FETCH_U16(s);
      Value payload = pop(vm);
      f->pc = pc;
      uint32_t w = f->who, abase = f->base;
      int spec = f->spec;
      WMachine *m = vm_who(vm, f);
      const BcMachine *bm = &P->machines[m->h.type];
      if (!spec)
        logf_(vm, "<GotoLog> '%s' is transitioning from state '%s' to state '%s'.", vm_machine_text(vm, w),
              bm->states[m->h.state].name, bm->states[s].name);
      Frame *b0 = &vm->fr[abase];
      vm->nstack = b0->sbase;
      vm->nlocals = b0->lbase;
      vm->nfr = abase;
      vm_push_frame(vm, (uint32_t)bm->states[s].trans, w, spec, abase, &payload);
      continue;
    }
    /* ---- Receive (RECEIVE) ----
    ** Mark the machine as waiting in receive table imm (MF_RECEIVE) and
    ** suspend at the instruction.  The step that schedules it again takes
    ** the first inbox event that a case of the table (or halt) matches and
    ** jumps to that case (resume_receive, vm/step.c); until then it is not
    ** enabled, and a State where nothing else can run is a deadlock.  A spec
    ** or an explorer that receives is a runtime error. */
    case OP_RECEIVE: { /* block until an event of table imm arrives */
      if (f->spec == 2) RUNTIME("an explorer cannot receive");
      uint16_t t;
      FETCH_U16(t);
      if (f->spec) RUNTIME("a spec cannot receive");
      WMachine *m = &vm->ms[f->who];
      m->h.flags |= MF_RECEIVE;
      m->h.recv = t;
      vm_note(vm, VE_BLOCK, f->who, t, 0, m->h.state, 0, val_null());
      if (vm->log) {
        Buf eb;
        buf_init(&eb);
        const BcRecv *r = &P->recvs[t];
        for (uint16_t i = 0; i < r->ncases; i++)
          buf_printf(&eb, "%s'%s'", i ? ", " : "", vm_event_name(vm, r->cases[i].event));
        logf_(vm, "<ReceiveLog> '%s' waits to receive %s in state '%s'.", vm_machine_text(vm, f->who), eb.data,
              vm_state_name(vm, m));
        buf_fini(&eb);
      }
      SUSPEND_HERE();
    }
    /* ---- Asserts and printing (ASSERT, ASSERT_HELD, PRINT) ----
    ** ASSERT marks assert imm2 evaluated (coverage), pops the message if
    ** imm1, then the condition; false is VM_BUG_ASSERT with the message,
    ** placed at the assert.  ASSERT_HELD only marks coverage: the compiler
    ** evaluates the message only when the condition fails, and emits this
    ** on the other path.  PRINT pops a string, logs it and records
    ** VE_PRINT. */
    case OP_ASSERT: { /* pop message if imm1, then a bool; imm2: the assert's index */
      uint16_t has, id;
      FETCH_U16(has);
      FETCH_U16(id);
      vm_cov_mark(vm, vm->cov_asserts + id);
      Value msg = has ? pop(vm) : val_null();
      Value c = pop(vm);
      if (!c.u.i) {
        f->pc = pc;
        if (has) {
          uint32_t n;
          const char *s = val_str(&msg, &n);
          vm_set_bug_at(vm, VM_BUG_ASSERT, f, "assertion failed: %.*s", (int)n, s);
        } else {
          vm_set_bug_at(vm, VM_BUG_ASSERT, f, "assertion failed");
        }
        return R_BUG;
      }
      break;
    }
    case OP_ASSERT_HELD: { /* the assert's condition held */
      uint16_t id;
      FETCH_U16(id);
      vm_cov_mark(vm, vm->cov_asserts + id);
      break;
    }
    case OP_PRINT: { /* log a string */
      Value s = pop(vm);
      uint32_t n;
      const char *t = val_str(&s, &n);
      logf_(vm, "<PrintLog> %.*s", (int)n, t);
      vm_note(vm, VE_PRINT, f->who, 0, 0, 0, f->spec, s);
      break;
    }
    /* ---- State changes (EXIT_STATE, SET_STATE, ENTER; the parts of a
    ** transition function) ----
    ** EXIT_STATE pushes the current state's exit function, if it has one,
    ** with a null argument.  SET_STATE makes state imm current: it marks the
    ** goto and the state for coverage, logs and notes the change and, for a
    ** spec, keeps Vm.retemp (its temperature changed) and Vm.cooled (it
    ** entered a cold state, even one it was already in) for liveness
    ** (doc/liveness.md).  ENTER pops the payload and pushes state imm's
    ** entry function with it, if it has one.  None raises a bug itself. */
    case OP_EXIT_STATE: { /* call the current state's exit function */
      f->pc = pc;
      WMachine *m = vm_who(vm, f);
      const BcState *st = &P->machines[m->h.type].states[m->h.state];
      if (st->exit >= 0) vm_push_frame(vm, (uint32_t)st->exit, f->who, f->spec, f->base, &(Value){0});
      continue;
    }
    case OP_SET_STATE: { /* make state imm current */
      uint16_t s;
      FETCH_U16(s);
      WMachine *m = vm_who(vm, f);
      if (vm->cov_hit) vm_cov_mark(vm, vm_cov_goto(vm->t.cov, P, m->h.type, m->h.state, s));
      vm_cov_mark_state(vm, m->h.type, s);
      if (f->spec == 1 && f->who < 64) {
        const BcState *was = &P->machines[m->h.type].states[m->h.state], *now = &P->machines[m->h.type].states[s];
        if (was->hot != now->hot || was->cold != now->cold) vm->retemp |= 1ull << f->who;
      }
      m->h.state = s;
      vm_note(vm, VE_STATE, f->who, 0, 0, s, f->spec, val_null());
      if (f->spec) {
        if (f->spec == 1 && P->machines[m->h.type].states[s].cold && f->who < 64) vm->cooled |= 1ull << f->who;
        logf_(vm, "<MonitorLog> %s enters %sstate '%s'.", P->machines[m->h.type].name,
              P->machines[m->h.type].states[s].hot ? "hot " : "", P->machines[m->h.type].states[s].name);
      } else
        logf_(vm, "<StateLog> '%s' enters state '%s'.", vm_machine_text(vm, f->who), P->machines[m->h.type].states[s].name);
      break;
    }
    case OP_ENTER: { /* call state imm's entry with the payload */
      uint16_t s;
      FETCH_U16(s);
      Value payload = pop(vm);
      f->pc = pc;
      WMachine *m = vm_who(vm, f);
      const BcState *st = &P->machines[m->h.type].states[s];
      if (st->entry >= 0) vm_push_frame(vm, (uint32_t)st->entry, f->who, f->spec, f->base, &payload);
      continue;
    }
    default:
      abort();   /* bad opcode: the compiler never emits one */
    }
    f->pc = pc;
  }
}

/* ---------------------------------------------------------------------- */
/* Events: a machine's handler for one, the specs that observe one.       */

/* Halt decoded m: it keeps its type and state, loses its flags, frames
** and inbox (its record becomes its header fields alone). */
void vm_halt_machine(Vm *vm, WMachine *m, uint32_t id) {
  logf_(vm, "<HaltLog> '%s' halted in state '%s'.", vm_machine_text(vm, id), vm_state_name(vm, m));
  vm_note(vm, VE_HALT, id, 0, 0, m->h.state, 0, val_null());
  m->h.flags = MF_HALTED;
  m->h.nframes = 0;
  m->h.ninbox = 0;
  vm->foot.shrank = 1;   /* sends to it are dropped from now on: none overflows */
  m->h.recv = 0;
  m->frames = NULL;
  m->frames_len = 0;
  vm->halted_now = 1;
}

/* Handle event ev in the current state of machine/spec `w`: push the
** handler's frame, drop it (ignore), halt, or report an unhandled event.
** Returns R_DONE (nothing more to run or a frame pushed) or R_BUG.
** The handler's frame (a do handler, or a goto's transition function)
** takes the payload as its argument and joins the activation at base.  An
** unhandled halt of a machine runs the state's exit function first, with
** MF_HALTING set, and halts when it returns (step_loaded); with no exit
** function, or when the halt comes again while halting, it halts here.
** Any other unhandled event is VM_BUG_UNHANDLED, placed at the state's
** declaration (raised: the message says the event was raised).  w's record
** must be decoded.  Dequeues skip deferred events, so a BH_DEFER slot is
** reached only by a raise or a spec's event, where it counts as none. */
int vm_dispatch(Vm *vm, uint32_t w, int spec, uint32_t ev, Value payload, uint32_t base, int raised) {
  WMachine *m = spec ? &vm->sp[w] : &vm->ms[w];
  const BcMachine *bm = &vm->p->machines[m->h.type];
  const BcState *st = &bm->states[m->h.state];
  const BcHandler *h = &st->handlers[ev];
  switch (h->kind) {
  case BH_DO: case BH_GOTO:
    vm_cov_mark_event(vm, m->h.type, VCOV_HANDLED, m->h.state, ev);
    if (h->kind == BH_GOTO && !spec)
      logf_(vm, "<GotoLog> '%s' is transitioning from state '%s' to state '%s' on event '%s'.", vm_machine_text(vm, w),
            st->name, bm->states[h->target].name, vm_event_name(vm, ev));
    vm_push_frame(vm, (uint32_t)h->fun, w, spec, base, &payload);
    return R_DONE;
  case BH_IGNORE:
    vm_cov_mark_event(vm, m->h.type, VCOV_IGNORED, m->h.state, ev);
    return R_DONE;
  default:
    if (ev == BC_HALT && !spec) {
      /* P: an unhandled halt runs the state's exit function, then halts. */
      if (st->exit < 0 || (m->h.flags & MF_HALTING)) { vm_halt_machine(vm, m, w); return R_DONE; }
      m->h.flags |= MF_HALTING;
      vm_push_frame(vm, (uint32_t)st->exit, w, 0, base, &(Value){0});
      return R_DONE;
    }
    /* The place: the state that lacks the handler. */
    if (spec)
      vm_set_bug_src(vm, VM_BUG_UNHANDLED, st->src, "spec '%s' received event '%s' that it does not handle in state '%s'",
                     bm->name, vm_event_name(vm, ev), st->name);
    else
      vm_set_bug_src(vm, VM_BUG_UNHANDLED, st->src, "'%s' received event '%s' that is not handled in state '%s'%s",
                     vm_machine_text(vm, w), vm_event_name(vm, ev), st->name, raised ? " (raised)" : "");
    return R_BUG;
  }
}


/* Run every spec that observes ev sent or announced by a machine created
** as interface `from`, synchronously (P: a spec observes the machines bound
** in the module it is asserted on). */
/* Specs run in test order, each decoded when it first observes (so it is
** written again); its handler's frames go above the running machine's and
** run to completion in a nested vm_run.  The footprint records which specs
** processed the event (doc/reduction.md).  R_DONE, or R_BUG with vm->bug
** set: a spec's assert, unhandled event or runtime error is a bug of the
** step that sent.  A spec cannot suspend (the compiler keeps scheduling
** and choice points out of specs), so anything but R_DONE is taken for a
** bug. */
int vm_observe(Vm *vm, uint32_t ev, Value payload, uint16_t from) {
  for (uint16_t i = 0; i < vm->nspecs; i++) {
    WMachine *s = &vm->sp[i];
    const BcMachine *bm = &vm->p->machines[vm->t.specs[i]];
    if (ev >= vm->p->nevents || !bm->observes[ev]) continue;
    if (vm->t.spec_from && vm->t.spec_from[i] && !vm->t.spec_from[i][from]) continue;
    vs_decode(vm, s);
    vm->foot.specs |= 1ull << (i < 63 ? i : 63);
    logf_(vm, "<MonitorLog> %s is processing event '%s' in state '%s'.", bm->name, vm_event_text(vm, ev, &payload),
          bm->states[s->h.state].name);
    vm_note(vm, VE_MONITOR, i, 0, ev, s->h.state, 1, payload);
    uint32_t base = vm->nfr;
    if (vm_dispatch(vm, i, 1, ev, payload, base, 0) == R_BUG) return R_BUG;
    if (vm->nfr > base) {
      int r = vm_run(vm, base);
      if (r != R_DONE) return R_BUG;
    }
  }
  return R_DONE;
}
