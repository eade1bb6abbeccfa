/* state.h: the layout of a State buffer.  Offsets, never pointers; every
** byte defined.  All integers are little-endian and read with memcpy.
**
**   StateHdr
**   u32 offsets[nspecs + nmachines]     record offsets from the buffer start
**   spec records, then machine records (machine id = record index)
**
** A record: MachHdr, then
**   the variables' encodings (BcMachine.nvars of them; none once halted),
**   if MF_START or MF_RAISED: u32 event, payload encoding,
**   nframes frames: u16 fun, u16 nstack, u32 pc, the function's nlocals
**     encodings, then nstack operand encodings (outermost frame first),
**   ninbox entries: u32 event, payload encoding. */
#ifndef PCHECK_STATE_H
#define PCHECK_STATE_H
#include <stdint.h>

typedef struct StateHdr {
  uint32_t size;         /* bytes of the whole State */
  uint32_t nmachines;    /* machine records: ids 0 .. nmachines-1 */
  uint16_t nspecs;       /* spec records, before the machines */
  uint16_t choice_kind;  /* 0 none; 1 bool; 2 int in [0,n); 3 element of a collection; 4 fair bool ($$) */
  uint32_t choice_machine; /* machine suspended at the data choice */
  uint32_t choice_n;     /* options of the pending data choice */
  uint32_t zero;         /* always 0 */
} StateHdr;
_Static_assert(sizeof(StateHdr) == 24, "StateHdr layout");

enum {
  MF_HALTED = 1 << 0,    /* halted: record is the header only */
  MF_START = 1 << 1,     /* created; its start state's entry has not run (payload pending) */
  MF_RAISED = 1 << 2,    /* an event is raised and pending */
  MF_RECEIVE = 1 << 3,   /* blocked in receive (recv = table); frames saved at RECEIVE */
  MF_RUNNING = 1 << 4,   /* stopped at a scheduling point inside a handler; frames saved */
  MF_HALTING = 1 << 5,   /* running its state's exit function for an unhandled halt: halts when it returns */
};

typedef struct MachHdr {
  uint32_t len;          /* bytes of the record, header included */
  uint16_t type;         /* BcMachine index */
  uint16_t state;        /* current state */
  uint16_t flags;        /* MF_* */
  uint16_t nframes;      /* saved frames */
  uint32_t ninbox;       /* inbox entries */
  uint16_t recv;         /* MF_RECEIVE: receive table; else 0 */
  uint16_t iface;        /* the interface it was created as (BcProgram.nifaces); 0 for specs */
  uint32_t inbox_off;    /* offset of the inbox from the record start */
} MachHdr;
_Static_assert(sizeof(MachHdr) == 24, "MachHdr layout");

#endif
