/* bytecode.h: a compiled model.  Produced by lang/codegen.c, read by the
** interpreter, the disassembler and the checker; knows nothing of the AST.
** Ownership: a BcProgram owns everything it points to (one arena). */
#ifndef PCHECK_BYTECODE_H
#define PCHECK_BYTECODE_H
#include <stdint.h>
#include "vm/util.h"
#include "vm/value.h"

typedef enum Opcode {
#define OP(name, operand, pops, pushes, doc) OP_##name,
#include "vm/opcodes.def"
#undef OP
  OP__COUNT
} Opcode;
_Static_assert(OP__COUNT <= 256, "opcodes must fit in one byte");

typedef enum OperandKind { OPK_NONE, OPK_U8, OPK_U16, OPK_U32, OPK_I64, OPK_F64, OPK_U16U16 } OperandKind;

/* Name, operand kind and size of each opcode (from opcodes.def). */
extern const char *const bc_op_names[OP__COUNT];
extern const uint8_t bc_op_operand[OP__COUNT];
/* Operands each opcode pops (-1: depends on the operand). */
extern const int8_t bc_op_pops[OP__COUNT];
extern const int8_t bc_op_pushes[OP__COUNT];   /* -1: the operands decide (bc_stack_effect) */
int bc_operand_size(OperandKind k);

/* CONVERT modes. */
enum { CV_INT_TO_FLOAT, CV_FLOAT_TO_INT, CV_ENUM_TO_INT, CV_INT_TO_ENUM, CV_ENUM_TO_FLOAT, CV_IDENTITY };

/* Event 0 is the built-in `halt`; handler tables have one more slot for
** `null` (the default handler), at index nevents. */
#define BC_HALT 0u

/* A source location: file number (into BcProgram.files), line, column. */
typedef struct BcLoc {
  uint32_t pc;           /* first code offset this location covers */
  uint16_t file;         /* index into BcProgram.files */
  uint16_t col;          /* 1-based, 0 if unknown */
  uint32_t line;         /* 1-based */
} BcLoc;

/* Where a construct starts in the source, for coverage reports. */
typedef struct BcSrc {
  uint16_t file;         /* index into BcProgram.files */
  uint16_t col;          /* 1-based, 0 if unknown */
  uint32_t line;         /* 1-based, 0: no location */
} BcSrc;

typedef struct BcFun {
  const char *name;      /* for traces: "Client.Loop.entry", "Max", ... */
  int32_t owner;         /* machine type, or -1 for a global function */
  uint16_t nparams;      /* parameters, the first locals */
  uint16_t nlocals;      /* parameters + declared locals + compiler temps */
  uint8_t has_result;    /* returns a value */
  uint8_t *code;         /* instructions */
  uint32_t ncode;        /* bytes of code */
  uint32_t max_stack;    /* deepest operand stack this function needs */
  uint16_t *depth;       /* bc_verify's: the operand stack's depth where each instruction starts
                            (indexed by code offset; BC_NO_DEPTH where none starts or none is reached) */
  BcLoc *locs;           /* sorted by pc */
  uint32_t nlocs;
  Value *local_defaults; /* initial value of each local (params included) */
} BcFun;

/* What a state does with one event. */
enum { BH_NONE = 0, BH_DO, BH_GOTO, BH_DEFER, BH_IGNORE };
typedef struct BcHandler {
  uint8_t kind;          /* BH_* */
  uint16_t target;       /* BH_GOTO: target state */
  int32_t fun;           /* BH_DO: the handler; BH_GOTO: the transition function; else -1 */
} BcHandler;

typedef struct BcState {
  const char *name;
  uint8_t hot, cold;     /* spec temperature */
  int32_t entry, exit;   /* functions, or -1 */
  int32_t trans;         /* transition function used by `goto` this state */
  BcHandler *handlers;   /* nevents + 1 entries (the last one: null) */
  BcSrc src;             /* the state's name */
  BcSrc *handler_src;    /* nevents + 1 entries: where each handler's `on` item is (line 0: none);
                            apart from handlers so that the table dispatch reads stays small */
} BcState;

typedef struct BcMachine {
  const char *name;
  uint8_t is_spec;
  uint8_t is_scenario;   /* a spec declared `scenario` (coverage, never a bug; its states are not hot) */
  uint8_t is_explorer;   /* an explorer (after every machine and spec): vars,
                            functions, one state whose handlers take announced events */
  uint16_t nvars;
  const char **var_names;
  Value *var_defaults;   /* default value of each variable */
  uint16_t nstates;
  BcState *states;
  uint16_t start;        /* start state */
  uint8_t *observes;     /* specs: nevents flags */
  uint16_t iface;        /* machines: the interface of the same name (BcProgram.iface_names) */
  uint8_t *sends;        /* machines with a sends clause: nevents flags (an event outside is a runtime
                            error at its send); NULL: every event */
} BcMachine;

typedef struct BcCase {
  uint32_t event;        /* event id */
  uint32_t pc;           /* where the case body starts in the function */
  int32_t slot;          /* local receiving the payload, or -1 */
  BcSrc src;             /* the `case` */
} BcCase;

typedef struct BcRecv {
  uint16_t ncases;
  BcCase *cases;
  int32_t fun;           /* the function holding the receive */
} BcRecv;

/* An `assert` statement: OP_ASSERT's second operand is its index into
** BcProgram.asserts (coverage reports which ones were evaluated). */
typedef struct BcAssert {
  int32_t fun;           /* the function holding it */
  BcSrc src;
} BcAssert;

/* Runtime type descriptors, for `as` checks. */
enum { BT_ANY, BT_DATA, BT_NULL, BT_BOOL, BT_INT, BT_FLOAT, BT_STRING, BT_EVENT, BT_MACHINE, BT_MNAME,
       BT_ENUM, BT_TUPLE, BT_SEQ, BT_SET, BT_MAP };
typedef struct BcType {
  uint8_t kind;          /* BT_* */
  uint16_t id;           /* BT_MNAME: machine type; BT_ENUM: enum id; BT_TUPLE: shape */
  uint16_t n;            /* elements */
  uint32_t *elems;       /* element type indexes */
} BcType;

typedef struct BcEnum {
  const char *name;
  uint32_t n;
  const char **members;
  int64_t *values;
} BcEnum;

typedef struct BcShape {
  uint16_t n;
  const char **fields;   /* NULL for shape 0 (unnamed tuples) */
} BcShape;

typedef struct BcProgram {
  Arena *arena;          /* owns everything below */
  uint32_t nfiles;
  const char **files;    /* source paths */
  uint32_t nevents;      /* events, halt included (id 0) */
  const char **event_names;
  uint16_t nmachines;    /* machines and specs */
  BcMachine *machines;
  uint32_t nfuns;
  BcFun *funs;
  uint32_t nconsts;
  Value *consts;         /* encodings live in the arena */
  uint32_t nrecvs;
  BcRecv *recvs;
  uint32_t ntypes;
  BcType *types;
  uint16_t nenums;
  BcEnum *enums;
  uint16_t nshapes;
  BcShape *shapes;
  uint16_t nparams;      /* global params */
  const char **param_names;
  Value *param_defaults;
  uint16_t nifaces;      /* interfaces `new` creates: each machine's own, then declared ones (P) */
  const char **iface_names;
  uint16_t *iface_self;  /* per interface: the machine of the same name, or BC_NO_MACHINE */
  uint8_t **iface_recv;  /* per interface: nevents flags of the events a machine created as it may be
                            sent (P's permissions); NULL: every event */
  uint32_t nasserts;     /* assert statements, in the order compiled */
  BcAssert *asserts;
  uint8_t *event_carry;  /* per event: BC_CARRY_* flags from its payload type (partial-order
                            reduction); NULL: every event may carry everything */
} BcProgram;
/* What an event's payload may hold, by its declared type. */
enum { BC_CARRY_MACHINES = 1, BC_CARRY_EVENTS = 2 };

enum { BC_NO_MACHINE = 0xFFFF };   /* an interface no machine implements */

void bc_free(BcProgram *p);
/* A fingerprint of what the program does: its events, machines (names,
** variables, states, handlers), functions (names, locals, code), receive
** tables, constants, types and interfaces, not where its files are; two
** compilations of the same model agree, a change to the model (almost
** surely) does not.  For refusing a checkpoint of another model. */
uint64_t bc_fingerprint(const BcProgram *p);
/* The source location of code offset pc in function f (NULL if none). */
const BcLoc *bc_loc(const BcFun *f, uint32_t pc);
/* Check every instruction against the opcode table and the program, and
** the operand stack's discipline: every instruction reached with one depth
** on every path, never below the frame's base, never above max_stack.
** Records each function's depths in BcFun.depth (allocated in the
** program's arena).  1 if sound, else 0 with the first problem in err
** (may be NULL). */
#define BC_NO_DEPTH UINT16_MAX
int bc_verify(BcProgram *p, Buf *err);
/* What the instruction at pc of f takes off the operand stack and puts on
** it, the operands and the program decide (a call: its callee's params
** and result); 0 if they do not (a bad operand). */
int bc_stack_effect(const BcProgram *p, const BcFun *f, uint32_t pc, int *pops, int *pushes);
/* Source text of line `line` of file `file` (len bytes, no newline), or
** NULL: lets the disassembler show the code each run of instructions came
** from without the VM knowing about source files. */
typedef const char *(*BcLineFn)(void *ctx, uint32_t file, uint32_t line, size_t *len);
/* Print the program's bytecode with source lines, for --dump-bytecode
** (fn may be NULL: locations only). */
void bc_disasm(const BcProgram *p, Buf *out, BcLineFn fn, void *ctx);

#endif
